/* POSIX port: clock_gettime, write(2) to stderr, pthreads, dlopen. No stdio, no heap. */
#define _POSIX_C_SOURCE 200809L
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE     /* MAP_ANONYMOUS (executable memory section) */
#endif
#include "port/port.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(pthread_mutex_t) <= sizeof(eg_port_mutex_t), "eg_port_mutex_t too small");
_Static_assert(sizeof(pthread_t) <= sizeof(eg_port_thread_t), "eg_port_thread_t too small");

uint64_t eg_port_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void eg_port_log_write(eg_log_level_t level, const char *text, size_t len)
{
    (void)level;
    /* One write(2) per call keeps lines whole between threads (POSIX: atomic below PIPE_BUF). */
    while (len > 0) {
        ssize_t n = write(2, text, len);
        if (n <= 0) return;
        text += n;
        len -= (size_t)n;
    }
}

_Noreturn void eg_port_panic(const char *msg)
{
    eg_port_log_write(EG_LOG_ERROR, "emgpu panic: ", 13);
    eg_port_log_write(EG_LOG_ERROR, msg, strlen(msg));
    eg_port_log_write(EG_LOG_ERROR, "\n", 1);
    abort();
}

_Noreturn void eg_port_exit(int status) { _exit(status); }

void eg_port_mutex_init(eg_port_mutex_t *m) { pthread_mutex_init((pthread_mutex_t *)(void *)m, NULL); }
void eg_port_mutex_lock(eg_port_mutex_t *m) { pthread_mutex_lock((pthread_mutex_t *)(void *)m); }
void eg_port_mutex_unlock(eg_port_mutex_t *m) { pthread_mutex_unlock((pthread_mutex_t *)(void *)m); }
void eg_port_mutex_destroy(eg_port_mutex_t *m) { pthread_mutex_destroy((pthread_mutex_t *)(void *)m); }

/* The start record lives in the caller's handle, so starting a thread allocates nothing here. */
typedef struct thread_rec { pthread_t tid; void (*fn)(void *); void *arg; } thread_rec_t;
_Static_assert(sizeof(thread_rec_t) <= sizeof(eg_port_thread_t), "eg_port_thread_t too small");

static void *thread_trampoline(void *p)
{
    thread_rec_t *r = p;
    r->fn(r->arg);
    return NULL;
}

bool eg_port_thread_start(eg_port_thread_t *t, void (*fn)(void *), void *arg)
{
    thread_rec_t *r = (thread_rec_t *)(void *)t;
    r->fn = fn;
    r->arg = arg;
    return pthread_create(&r->tid, NULL, thread_trampoline, r) == 0;
}

void eg_port_thread_join(eg_port_thread_t *t) { pthread_join(((thread_rec_t *)(void *)t)->tid, NULL); }

_Static_assert(sizeof(pthread_cond_t) <= sizeof(eg_port_cond_t), "eg_port_cond_t too small");
bool eg_port_cond_init(eg_port_cond_t *c) { return pthread_cond_init((pthread_cond_t *)(void *)c, NULL) == 0; }
void eg_port_cond_wait(eg_port_cond_t *c, eg_port_mutex_t *m)
{
    pthread_cond_wait((pthread_cond_t *)(void *)c, (pthread_mutex_t *)(void *)m);
}
void eg_port_cond_broadcast(eg_port_cond_t *c) { pthread_cond_broadcast((pthread_cond_t *)(void *)c); }
void eg_port_cond_destroy(eg_port_cond_t *c) { pthread_cond_destroy((pthread_cond_t *)(void *)c); }

void *eg_port_lib_open(const char *name) { return dlopen(name, RTLD_NOW | RTLD_LOCAL); }
void *eg_port_lib_symbol(void *lib, const char *symbol) { return dlsym(lib, symbol); }
void eg_port_lib_close(void *lib) { if (lib) dlclose(lib); }

const char *eg_port_getenv(const char *name) { return getenv(name); }

/* ---- executable memory: anonymous private pages, flipped between RW and RX (W^X) ---- */
void *eg_port_exec_map(size_t size_B)
{
    void *p = mmap(NULL, size_B, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}
bool eg_port_exec_protect(void *p, size_t size_B, bool writable)
{
    return mprotect(p, size_B, writable ? PROT_READ | PROT_WRITE : PROT_READ | PROT_EXEC) == 0;
}
void eg_port_exec_unmap(void *p, size_t size_B) { if (p) munmap(p, size_B); }
