/* Win32 port: QueryPerformanceCounter, WriteFile to stderr, Win32 threads and SRW locks, LoadLibrary. No stdio, no heap. */
#include "port/port.h"

#include <windows.h>

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(SRWLOCK) <= sizeof(eg_port_mutex_t), "eg_port_mutex_t too small");

uint64_t eg_port_clock_ns(void)
{
    /* QPC's frequency is fixed at boot; split the conversion so counts * 1e9 cannot overflow. */
    static LARGE_INTEGER freq;
    LARGE_INTEGER now;
    if (freq.QuadPart == 0) QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    uint64_t f = (uint64_t)freq.QuadPart, c = (uint64_t)now.QuadPart;
    return c / f * 1000000000u + c % f * 1000000000u / f;
}

void eg_port_log_write(eg_log_level_t level, const char *text, size_t len)
{
    (void)level;
    HANDLE h = GetStdHandle(STD_ERROR_HANDLE);
    if (h == NULL || h == INVALID_HANDLE_VALUE) return;
    /* One WriteFile per call keeps a line whole between threads (as write(2) does on POSIX). */
    while (len > 0) {
        DWORD n = 0, want = len > 0x40000000u ? 0x40000000u : (DWORD)len;
        if (!WriteFile(h, text, want, &n, NULL) || n == 0) return;
        text += n;
        len -= n;
    }
}

_Noreturn void eg_port_panic(const char *msg)
{
    eg_port_log_write(EG_LOG_ERROR, "emgpu panic: ", 13);
    eg_port_log_write(EG_LOG_ERROR, msg, strlen(msg));
    eg_port_log_write(EG_LOG_ERROR, "\n", 1);
    /* 3 is what abort() exits with on Windows; ExitProcess shows no crash dialog under wine. */
    ExitProcess(3);
}

_Noreturn void eg_port_exit(int status) { ExitProcess((UINT)status); }

/* SRW locks need no destruction and no allocation; one pointer-sized word. */
void eg_port_mutex_init(eg_port_mutex_t *m) { InitializeSRWLock((SRWLOCK *)(void *)m); }
void eg_port_mutex_lock(eg_port_mutex_t *m) { AcquireSRWLockExclusive((SRWLOCK *)(void *)m); }
void eg_port_mutex_unlock(eg_port_mutex_t *m) { ReleaseSRWLockExclusive((SRWLOCK *)(void *)m); }
void eg_port_mutex_destroy(eg_port_mutex_t *m) { (void)m; }

/* The start record lives in the caller's handle, so starting a thread allocates nothing here. */
typedef struct thread_rec { HANDLE handle; void (*fn)(void *); void *arg; } thread_rec_t;
_Static_assert(sizeof(thread_rec_t) <= sizeof(eg_port_thread_t), "eg_port_thread_t too small");

static DWORD WINAPI thread_trampoline(LPVOID p)
{
    thread_rec_t *r = p;
    r->fn(r->arg);
    return 0;
}

bool eg_port_thread_start(eg_port_thread_t *t, void (*fn)(void *), void *arg)
{
    thread_rec_t *r = (thread_rec_t *)(void *)t;
    r->fn = fn;
    r->arg = arg;
    r->handle = CreateThread(NULL, 0, thread_trampoline, r, 0, NULL);
    return r->handle != NULL;
}

void eg_port_thread_join(eg_port_thread_t *t)
{
    thread_rec_t *r = (thread_rec_t *)(void *)t;
    if (!r->handle) return;
    WaitForSingleObject(r->handle, INFINITE);
    CloseHandle(r->handle);
    r->handle = NULL;
}

/* Condition variables pair with the SRW lock of eg_port_mutex_t (Vista and later). */
_Static_assert(sizeof(CONDITION_VARIABLE) <= sizeof(eg_port_cond_t), "eg_port_cond_t too small");
bool eg_port_cond_init(eg_port_cond_t *c) { InitializeConditionVariable((CONDITION_VARIABLE *)(void *)c); return true; }
void eg_port_cond_wait(eg_port_cond_t *c, eg_port_mutex_t *m)
{
    SleepConditionVariableSRW((CONDITION_VARIABLE *)(void *)c, (SRWLOCK *)(void *)m, INFINITE, 0);
}
void eg_port_cond_broadcast(eg_port_cond_t *c) { WakeAllConditionVariable((CONDITION_VARIABLE *)(void *)c); }
void eg_port_cond_destroy(eg_port_cond_t *c) { (void)c; }

void *eg_port_lib_open(const char *name) { return (void *)LoadLibraryA(name); }

void *eg_port_lib_symbol(void *lib, const char *symbol)
{
    /* FARPROC -> void *: through memcpy, as ISO C has no cast between function and object
     * pointers (they have the same size on every Windows target). */
    FARPROC f = GetProcAddress((HMODULE)lib, symbol);
    void *p;
    _Static_assert(sizeof f == sizeof p, "function and object pointers differ in size");
    memcpy(&p, &f, sizeof p);
    return p;
}

void eg_port_lib_close(void *lib) { if (lib) FreeLibrary((HMODULE)lib); }

const char *eg_port_getenv(const char *name) { return getenv(name); }

/* ---- executable memory: committed pages, flipped between RW and RX (W^X) ---- */
void *eg_port_exec_map(size_t size_B)
{
    return VirtualAlloc(NULL, size_B, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
}
bool eg_port_exec_protect(void *p, size_t size_B, bool writable)
{
    DWORD old;
    if (!VirtualProtect(p, size_B, writable ? PAGE_READWRITE : PAGE_EXECUTE_READ, &old)) return false;
    return writable || FlushInstructionCache(GetCurrentProcess(), p, size_B);
}
void eg_port_exec_unmap(void *p, size_t size_B)
{
    (void)size_B;
    if (p) VirtualFree(p, 0, MEM_RELEASE);
}
