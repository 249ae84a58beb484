/* hal/soft worker threads: one job list (tile indices) shared by the submitting thread and the
 * port's threads for the duration of one flush (soft_bin.h, THREADS).
 *
 * Threads are started per flush and joined before it returns: the port offers threads and a
 * mutex but no condition variable, and a flush is much longer than a thread start. Jobs are
 * handed out by a counter under the mutex; which worker runs a job never changes its bytes (a
 * job owns its tile's pixels), so the result is the same for any thread count.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_bin.h"
#include "port/port.h"

_Static_assert(EMGPU_SOFT_THREADS >= 1 && EMGPU_SOFT_THREADS <= EMGPU_SOFT_MAX_THREADS,
               "EMGPU_SOFT_THREADS: 1..EMGPU_SOFT_MAX_THREADS");

/* Zero-initialised (.bss): an initialiser would put all ~8 KiB of it in flash as .data on an
 * MCU. eg_soft_workers_reset gives it the whole-frame clip when a device opens. */
eg_soft_worker_t eg_soft_worker_main;

void eg_soft_workers_reset(void)
{
    eg_soft_worker_main.clip_x0 = eg_soft_worker_main.clip_y0 = 0;
    eg_soft_worker_main.clip_x1 = eg_soft_worker_main.clip_y1 = INT32_MAX;
}

#if EMGPU_SOFT_MAX_THREADS > 1
static eg_soft_worker_t extra[EMGPU_SOFT_MAX_THREADS - 1];
static eg_port_thread_t threads[EMGPU_SOFT_MAX_THREADS - 1];
static eg_port_mutex_t lock;
static bool lock_ready;
#endif

static uint32_t threads_override;

#if EMGPU_SOFT_MAX_THREADS > 1
/* The job list of the flush in progress. */
static struct {
    void (*job)(eg_soft_worker_t *w, uint32_t i);
    uint32_t count, next;
} J;
#endif

void eg_soft_set_threads(uint32_t n) { threads_override = n; }

uint32_t eg_soft_threads(void)
{
    uint32_t n = threads_override;
#if EMGPU_PORT_HAS_ENV
    if (!n) {
        /* Hosted boards: EMGPU_SOFT_THREADS in the environment overrides the build's value. */
        const char *e = eg_port_getenv("EMGPU_SOFT_THREADS");
        uint32_t v = 0;
        while (e && *e >= '0' && *e <= '9' && v < 1000u) v = v * 10u + (uint32_t)(*e++ - '0');
        n = v;
    }
#endif
    if (!n) n = EMGPU_SOFT_THREADS;
    return n > EMGPU_SOFT_MAX_THREADS ? EMGPU_SOFT_MAX_THREADS : n;
}

uint32_t eg_soft_workers_copy_blocks(void)
{
    uint32_t n = eg_soft_worker_main.copy_blocks;
#if EMGPU_SOFT_MAX_THREADS > 1
    for (uint32_t i = 0; i < EMGPU_SOFT_MAX_THREADS - 1u; i++) n += extra[i].copy_blocks;
#endif
    return n;
}

uint32_t eg_soft_raster_copy_blocks(void) { return eg_soft_workers_copy_blocks(); }

uint32_t eg_soft_raster_const_blocks(void)
{
    uint32_t n = eg_soft_worker_main.const_blocks;
#if EMGPU_SOFT_MAX_THREADS > 1
    for (uint32_t i = 0; i < EMGPU_SOFT_MAX_THREADS - 1u; i++) n += extra[i].const_blocks;
#endif
    return n;
}

uint32_t eg_soft_workers_span_px(void)
{
    uint32_t n = eg_soft_worker_main.span_px;
#if EMGPU_SOFT_MAX_THREADS > 1
    for (uint32_t i = 0; i < EMGPU_SOFT_MAX_THREADS - 1u; i++) n += extra[i].span_px;
#endif
    return n;
}

#if EMGPU_SOFT_MAX_THREADS > 1
static bool take(uint32_t *i)
{
    eg_port_mutex_lock(&lock);
    bool ok = J.next < J.count;
    if (ok) *i = J.next++;
    eg_port_mutex_unlock(&lock);
    return ok;
}

static void worker_loop(void *arg)
{
    eg_soft_worker_t *w = arg;
    uint32_t i;
    while (take(&i)) J.job(w, i);
}
#endif

void eg_soft_workers_run(uint32_t count, void (*job)(eg_soft_worker_t *w, uint32_t i))
{
    uint32_t n = eg_soft_threads();
    if (n > count) n = count;
    if (n <= 1u) {
        for (uint32_t i = 0; i < count; i++) job(&eg_soft_worker_main, i);
        return;
    }
#if EMGPU_SOFT_MAX_THREADS > 1
    if (!lock_ready) { eg_port_mutex_init(&lock); lock_ready = true; }
    J.job = job;
    J.count = count;
    J.next = 0;
    uint32_t started = 0;
    for (uint32_t k = 0; k + 1u < n; k++) {
        extra[k].index = k + 1u;
        if (!eg_port_thread_start(&threads[k], worker_loop, &extra[k])) break;   /* no threads: fewer workers */
        started++;
    }
    worker_loop(&eg_soft_worker_main);
    for (uint32_t k = 0; k < started; k++) eg_port_thread_join(&threads[k]);
#endif
}

#endif /* EMGPU_HAL_SOFT */
