/* Bare-metal Cortex-M port: SysTick clock, semihosting console and exit, no threads, no loader.
 *
 * Clock: SysTick, not semihosting SYS_ELAPSED. Reading SysTick is one register load, works with
 * no debugger attached, and under QEMU `-icount` gives deterministic counts; SYS_ELAPSED is a
 * trap to the debugger per call (milliseconds on a real probe) and reports host time. SysTick is
 * a 24-bit down-counter at the core clock (EMGPU_PORT_CPU_HZ, from the board), so this port
 * counts its wraps in SysTick_Handler (the CMSIS name, placed in the board's vector table).
 *
 * Console and exit: ARM semihosting (the board provides semihost.h). With QEMU's
 * -semihosting-config enable=on the text goes to QEMU's stdout and SYS_EXIT_EXTENDED's status
 * becomes QEMU's exit status, which is how `make check` reads a bare-metal test result.
 *
 * Single core, no RTOS: mutexes are no-ops, threads and dynamic libraries are absent (the
 * kernel degrades as port.h describes), the environment is empty.
 */
#include "port/port.h"

#include "config/emgpu_config.h"
#include "semihost.h"

#ifndef EMGPU_PORT_CPU_HZ
#error "port baremetal: the board must define EMGPU_PORT_CPU_HZ (SysTick input clock in Hz)"
#endif

#define SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define SYST_CSR_ENABLE_TICKINT_CORECLK 7u
#define SYST_RELOAD 0x00FFFFFFu /* the full 24 bits: fewest interrupts */

/* Exit status of eg_port_panic: 128 + SIGABRT, what a shell reports for a hosted abort(). */
#define PANIC_EXIT_STATUS 134

void SysTick_Handler(void);

static volatile uint32_t systick_wraps;
static bool systick_started;
static uint64_t last_ns;

void SysTick_Handler(void) { systick_wraps++; }

static void systick_start(void)
{
    SYST_RVR = SYST_RELOAD;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_ENABLE_TICKINT_CORECLK;
    /* CVR reads 0 until the first reload; counting from there keeps the first reading lowest. */
    while (SYST_CVR == 0) {
    }
    systick_started = true;
}

/* Precondition: called in thread mode with SysTick's interrupt able to run (a wrap pending while
 * interrupts are masked would be missed once; the clamp below still keeps time monotonic). */
uint64_t eg_port_clock_ns(void)
{
    if (!systick_started) systick_start();
    uint32_t w0, w1, cvr;
    /* A wrap between the two reads of the counter shows as w0 != w1: read again. */
    do {
        w0 = systick_wraps;
        cvr = SYST_CVR;
        w1 = systick_wraps;
    } while (w0 != w1);
    uint64_t ticks = ((uint64_t)w0 << 24) + (SYST_RELOAD - cvr);
    /* Split so ticks * 1e9 cannot overflow 64 bits (it would after ~12 minutes at 25 MHz). */
    uint64_t hz = EMGPU_PORT_CPU_HZ;
    uint64_t ns = ticks / hz * 1000000000u + ticks % hz * 1000000000u / hz;
    if (ns < last_ns) ns = last_ns;
    last_ns = ns;
    return ns;
}

/* SYS_WRITE0 wants a NUL-terminated string, and the text given here has none: copy it through a
 * small static buffer in chunks (an embedded NUL would end a chunk early, so it prints as '?'). */
void eg_port_log_write(eg_log_level_t level, const char *text, size_t len)
{
    static char chunk[128];
    (void)level;
    while (len > 0) {
        size_t n = len < sizeof chunk - 1 ? len : sizeof chunk - 1;
        for (size_t i = 0; i < n; i++) chunk[i] = text[i] ? text[i] : '?';
        chunk[n] = 0;
        eg_semi_write0(chunk);
        text += n;
        len -= n;
    }
}

_Noreturn void eg_port_panic(const char *msg)
{
    size_t len = 0;
    while (msg[len]) len++;
    eg_port_log_write(EG_LOG_ERROR, "emgpu panic: ", 13);
    eg_port_log_write(EG_LOG_ERROR, msg, len);
    eg_port_log_write(EG_LOG_ERROR, "\n", 1);
    eg_semi_exit(PANIC_EXIT_STATUS);
}

_Noreturn void eg_port_exit(int status) { eg_semi_exit(status); }

/* One core and no RTOS: nothing can run concurrently, so the mutex has nothing to exclude. */
void eg_port_mutex_init(eg_port_mutex_t *m) { (void)m; }
void eg_port_mutex_lock(eg_port_mutex_t *m) { (void)m; }
void eg_port_mutex_unlock(eg_port_mutex_t *m) { (void)m; }
void eg_port_mutex_destroy(eg_port_mutex_t *m) { (void)m; }

bool eg_port_thread_start(eg_port_thread_t *t, void (*fn)(void *), void *arg)
{
    (void)t;
    (void)fn;
    (void)arg;
    return false;
}

void eg_port_thread_join(eg_port_thread_t *t) { (void)t; }

/* No threads to park: callers fall back to running their work on the calling thread. */
bool eg_port_cond_init(eg_port_cond_t *c) { (void)c; return false; }
void eg_port_cond_wait(eg_port_cond_t *c, eg_port_mutex_t *m) { (void)c; (void)m; }
void eg_port_cond_broadcast(eg_port_cond_t *c) { (void)c; }
void eg_port_cond_destroy(eg_port_cond_t *c) { (void)c; }

void *eg_port_lib_open(const char *name)
{
    (void)name;
    return NULL;
}

void *eg_port_lib_symbol(void *lib, const char *symbol)
{
    (void)lib;
    (void)symbol;
    return NULL;
}

void eg_port_lib_close(void *lib) { (void)lib; }

const char *eg_port_getenv(const char *name)
{
    (void)name;
    return NULL;
}

/* ---- executable memory: none (the shader VM keeps its interpreter) ---- */
void *eg_port_exec_map(size_t size_B)
{
    (void)size_B;
    return NULL;
}
bool eg_port_exec_protect(void *p, size_t size_B, bool writable)
{
    (void)p; (void)size_B; (void)writable;
    return false;
}
void eg_port_exec_unmap(void *p, size_t size_B) { (void)p; (void)size_B; }
