/* hal/soft worker threads: one job list (tile indices) shared by the submitting thread and the
 * port's threads (soft_bin.h, THREADS).
 *
 * With condition variables in the port, the threads are started once and parked between
 * batches; a batch is either run (the submitting thread takes jobs too and returns when all are
 * done) or started (only the parked threads take jobs, so the submitting thread can bin the
 * next arena; eg_soft_workers_wait then joins in). Without them the threads are started per
 * batch and joined before it returns. Jobs are handed out by a counter under the mutex; which
 * worker runs a job never changes its bytes (a job owns its tile's pixels), so the result is the
 * same for any thread count.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_bin.h"
#include "port/port.h"

#if EMGPU_SOFT_MAX_THREADS > 1
#include <stdatomic.h>
#endif

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
/* Persistent workers (the port has condition variables): started once, parked on `wake` between
 * batches. One batch at a time; a batch is a job count, handed out one index at a time under the
 * lock. `gen` numbers the batches so a parked worker knows a new one is there. */
static struct {
    void (*job)(eg_soft_worker_t *w, uint32_t i);
    uint32_t count, next, done;
    uint32_t workers;                  /* extra workers that may take part (thread count - 1) */
    uint32_t gen;
    bool busy;                         /* a batch is in flight (not yet waited for) */
    bool quit;                         /* eg_soft_workers_shutdown: parked threads return */
} J;

/* SPIN. Waking a thread blocked on a condition variable took ~30 us each way on the 2-core
 * development VM (a pthread ping-pong after 200 us idle: 57-66 us round trip; spinning on an
 * atomic: 1.4-3.9 us), and a binned frame has such a wake per batch started plus one at the
 * join. So a thread that is about to block first watches a copy of what it waits for (gen for a
 * parked worker, done for the joining thread) for up to EMGPU_SOFT_WORKER_SPIN_US; the copies
 * are written under the lock after the fields they mirror, and the waiter re-checks the fields
 * themselves under the lock, so the spin only decides when to look, never what is seen. */
static atomic_uint spin_gen, spin_done;
#endif

bool eg_soft_workers_spin_on = true;

#if EMGPU_SOFT_MAX_THREADS > 1

static void spin_until_changed(const atomic_uint *v, unsigned seen)
{
#if EMGPU_SOFT_WORKER_SPIN_US > 0
    if (!eg_soft_workers_spin_on) return;
    uint64_t t0 = eg_port_clock_ns();
    while (atomic_load_explicit(v, memory_order_acquire) == seen &&
           eg_port_clock_ns() - t0 < (uint64_t)EMGPU_SOFT_WORKER_SPIN_US * 1000u) {
    }
#else
    (void)v;
    (void)seen;
#endif
}

static eg_port_cond_t wake;
static uint32_t parked_started;        /* persistent threads running */
static bool cond_ok, cond_tried;

static void lock_init(void)
{
    if (lock_ready) return;
    eg_port_mutex_init(&lock);
    lock_ready = true;
}

/* Runs jobs of the batch in flight until none is left to take (lock held on entry and exit). */
static void drain(eg_soft_worker_t *w)
{
    while (J.next < J.count) {
        uint32_t i = J.next++;
        eg_port_mutex_unlock(&lock);
        J.job(w, i);
        eg_port_mutex_lock(&lock);
        if (++J.done == J.count) {
            atomic_store_explicit(&spin_done, J.done, memory_order_release);
            eg_port_cond_broadcast(&wake);
        }
    }
}

static void parked_loop(void *arg)
{
    eg_soft_worker_t *w = arg;
    uint32_t seen = 0;
    eg_port_mutex_lock(&lock);
    for (;;) {
        if (J.gen == seen) {   /* SPIN first */
            eg_port_mutex_unlock(&lock);
            spin_until_changed(&spin_gen, seen);
            eg_port_mutex_lock(&lock);
        }
        while (J.gen == seen) eg_port_cond_wait(&wake, &lock);
        seen = J.gen;
        if (J.quit) break;
        if (w->index <= J.workers) drain(w);
    }
    eg_port_mutex_unlock(&lock);
}

/* Starts persistent threads up to n - 1 extra workers; false when the port cannot park them. */
static bool parked_ready(uint32_t n)
{
    lock_init();
    if (!cond_tried) { cond_ok = eg_port_cond_init(&wake); cond_tried = true; }
    if (!cond_ok) return false;
    while (parked_started + 1u < n) {
        extra[parked_started].index = parked_started + 1u;
        if (!eg_port_thread_start(&threads[parked_started], parked_loop, &extra[parked_started])) break;
        parked_started++;
    }
    return parked_started > 0;
}

/* Publishes a batch for the parked workers (lock held). */
static void publish(uint32_t count, void (*job)(eg_soft_worker_t *w, uint32_t i), uint32_t workers)
{
    J.job = job;
    J.count = count;
    J.next = J.done = 0;
    J.workers = workers;
    J.busy = true;
    J.gen++;
    atomic_store_explicit(&spin_done, 0u, memory_order_relaxed);
    atomic_store_explicit(&spin_gen, J.gen, memory_order_release);
    eg_port_cond_broadcast(&wake);
}
#endif

void eg_soft_workers_wait(void)
{
#if EMGPU_SOFT_MAX_THREADS > 1
    if (!J.busy) return;   /* only the submitting thread sets or clears busy */
    eg_port_mutex_lock(&lock);
    drain(&eg_soft_worker_main);
    if (J.done < J.count) {   /* SPIN first: the other workers finish their last jobs */
        eg_port_mutex_unlock(&lock);
        spin_until_changed(&spin_done, 0u);
        eg_port_mutex_lock(&lock);
    }
    while (J.done < J.count) eg_port_cond_wait(&wake, &lock);
    J.busy = false;
    eg_port_mutex_unlock(&lock);
#endif
}

bool eg_soft_workers_start(uint32_t count, void (*job)(eg_soft_worker_t *w, uint32_t i))
{
    eg_soft_workers_wait();
#if EMGPU_SOFT_MAX_THREADS > 1
    uint32_t n = eg_soft_threads();
    if (n <= 1u || count == 0 || !parked_ready(n)) return false;
    eg_port_mutex_lock(&lock);
    publish(count, job, eg_min_u32(n - 1u, parked_started));
    eg_port_mutex_unlock(&lock);
    return true;
#else
    (void)count;
    (void)job;
    return false;
#endif
}

/* The last soft device went away: the parked threads return and are joined, the condition
 * variable is destroyed; the next binned pass starts them again (parked_ready). */
void eg_soft_workers_shutdown(void)
{
#if EMGPU_SOFT_MAX_THREADS > 1
    eg_soft_workers_wait();
    if (parked_started) {
        eg_port_mutex_lock(&lock);
        J.quit = true;
        J.gen++;
        atomic_store_explicit(&spin_gen, J.gen, memory_order_release);
        eg_port_cond_broadcast(&wake);
        eg_port_mutex_unlock(&lock);
        for (uint32_t k = 0; k < parked_started; k++) eg_port_thread_join(&threads[k]);
        parked_started = 0;
        J.quit = false;
    }
    if (cond_tried && cond_ok) eg_port_cond_destroy(&wake);
    cond_tried = cond_ok = false;
#endif
}

uint32_t eg_soft_workers_parked(void)
{
#if EMGPU_SOFT_MAX_THREADS > 1
    return parked_started;
#else
    return 0;
#endif
}

/* Fallback without condition variables: threads started for this batch and joined. */
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
    eg_soft_workers_wait();
    uint32_t n = eg_soft_threads();
    if (n > count) n = count;
    if (n <= 1u) {
        for (uint32_t i = 0; i < count; i++) job(&eg_soft_worker_main, i);
        return;
    }
#if EMGPU_SOFT_MAX_THREADS > 1
    if (parked_ready(n)) {
        eg_port_mutex_lock(&lock);
        publish(count, job, eg_min_u32(n - 1u, parked_started));
        eg_port_mutex_unlock(&lock);
        eg_soft_workers_wait();
        return;
    }
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
