/* The port: everything emgpu needs from the OS or the bare metal, and nothing more.
 *
 * Exactly one port is linked (the board's board.mk picks it). The kernel and the HALs include
 * no OS header; they call these functions. Optional services report absence instead of failing
 * to link: a port without threads returns false from eg_port_thread_start, a port without a
 * dynamic loader returns NULL from eg_port_lib_open, and the caller degrades (single-threaded
 * rasterization, the backend reported as unavailable).
 */
#ifndef EG_PORT_H
#define EG_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- clock ---- */
/** Monotonic time in nanoseconds since an arbitrary origin. Never goes backwards. */
uint64_t eg_port_clock_ns(void);

/* ---- log and panic ---- */
typedef enum eg_log_level { EG_LOG_ERROR, EG_LOG_WARN, EG_LOG_INFO, EG_LOG_DEBUG } eg_log_level_t;
/** Writes len bytes of text (no terminator needed) to the board's console. May be called from
 *  any thread; a line is never interleaved with another if the port has threads. */
void eg_port_log_write(eg_log_level_t level, const char *text, size_t len);
/** Unrecoverable internal failure: log the message and stop. Never returns. */
_Noreturn void eg_port_panic(const char *msg);
/** Ends the program with a status (test runners on bare metal report through this). */
_Noreturn void eg_port_exit(int status);

/* ---- optional: mutex ---- */
typedef struct eg_port_mutex { uintptr_t opaque[8]; } eg_port_mutex_t;
void eg_port_mutex_init(eg_port_mutex_t *m);
void eg_port_mutex_lock(eg_port_mutex_t *m);
void eg_port_mutex_unlock(eg_port_mutex_t *m);
void eg_port_mutex_destroy(eg_port_mutex_t *m);

/* ---- optional: threads ---- */
typedef struct eg_port_thread { uintptr_t opaque[4]; } eg_port_thread_t;
/** Starts fn(arg) on a new thread; returns false when the port has no threads or none is left. */
bool eg_port_thread_start(eg_port_thread_t *t, void (*fn)(void *), void *arg);
void eg_port_thread_join(eg_port_thread_t *t);

/* ---- optional: condition variables (parked worker threads; used with an eg_port_mutex_t) ---- */
typedef struct eg_port_cond { uintptr_t opaque[12]; } eg_port_cond_t;
/** Initialises c; false when the port has none (callers then fall back to starting and joining
 *  threads per use, with the mutex only). */
bool eg_port_cond_init(eg_port_cond_t *c);
/** Atomically unlocks m and waits for a broadcast (or a spurious wake-up), then relocks m. */
void eg_port_cond_wait(eg_port_cond_t *c, eg_port_mutex_t *m);
/** Wakes every thread waiting on c. */
void eg_port_cond_broadcast(eg_port_cond_t *c);
void eg_port_cond_destroy(eg_port_cond_t *c);

/* ---- optional: dynamic libraries (GPU drivers are never linked at build time) ---- */
/** Opens a shared library by name (e.g. "libvulkan.so.1"); NULL when absent or unsupported. */
void *eg_port_lib_open(const char *name);
void *eg_port_lib_symbol(void *lib, const char *symbol);
void  eg_port_lib_close(void *lib);

/* ---- optional: environment (hosted ports; bare metal returns NULL) ---- */
const char *eg_port_getenv(const char *name);

/* ---- optional: executable memory (the soft shader JIT; bare metal has none) ----
 * W^X: a range is either writable or executable, never both at once. */
/** Maps size_B bytes (a multiple of 4096), readable and writable, not executable, page-aligned;
 *  NULL when the port has no executable memory or none is left. */
void *eg_port_exec_map(size_t size_B);
/** Makes [p, p + size_B) (4096-aligned, inside one map) read+write (writable) or read+execute
 *  (!writable); false on failure (the caller then does not run the code). */
bool eg_port_exec_protect(void *p, size_t size_B, bool writable);
void eg_port_exec_unmap(void *p, size_t size_B);

#endif /* EG_PORT_H */
