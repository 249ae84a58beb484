/* hal/soft pass schedule: whether a pass with several workers is binned (its tiles spread over
 * the workers) or rasterized unbinned by the submitting thread alone (soft_bin.h, SCHEDULE).
 *
 * Why measured and not predicted. Which one is faster depends on the machine as much as on the
 * pass. On the 2-core development VM a UI frame (1,800 glyph quads, 50 rounded rects) took
 * 1.4-1.65 ms binned at 2 threads and 0.5-0.9 ms unbinned at 1 (performance.md "Session 17"):
 * the unbinned path has memos that a tile border defeats, and records and pixels moving between
 * cores cost more there than the second core gave. On a 16-core Xeon the same frame binned at 2
 * threads was 1.6-2x faster than at 1 (performance.md "Session 13"). Session 18 made the binned
 * path cheaper, and the two now trade places by row and by machine (paired frames: binned /
 * unbinned at 2 threads 0.62-1.18 on the VM, 0.65-1.18 on the Xeon). The textured mesh gains from
 * binning on both. No triangle count or pixel estimate separates these cases; the pass's own
 * time does. The bytes do not depend on the choice (soft_bin.h FLOW), so it may depend on time.
 *
 * How. A pass is known by its targets (addresses, formats, size, samples) and, for a partial
 * update, the size of its damage. The first passes of a kind run RUN binned, then RUN unbinned;
 * the first of each run is not counted (a change of schedule leaves pixels in the other core's
 * cache, a first frame has cold memos) and each schedule keeps its fastest counted pass. Then
 * the faster one runs (binned only when at least 5 % faster: two counted passes each decide it,
 * and on the device's Xeon a noisy probe had kept binned for a frame 3-17 % slower binned), its
 * time followed by a running average; after REPROBE passes two passes run the other schedule,
 * and it takes over when the second was at least 10 % faster (the
 * content of a kind of pass changes slowly: a screen fills with more text). Each re-probe that
 * keeps the choice doubles the passes to the next one, up to REPROBE_MAX; a switch or new
 * probing goes back to REPROBE. A pass under 2/3 or over 3/2 of the average is left out of it;
 * two in a row mean new content (another screen drawn into the same target): probing starts
 * again. Costs: two clock reads a pass, and once the choice is settled two slower passes in
 * ~REPROBE_MAX (the first re-probes, at 16, 32, ... passes, cost more: a wrong first choice is
 * undone soon, a right one pays 2 passes in 18, 34, ...).
 *
 * Not thread-safe: passes are executed by one submitting thread at a time (soft_exec.c).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_bin.h"
#include "kernel/base/log.h"
#include "port/port.h"

_Static_assert(EMGPU_SOFT_SCHEDULE >= 0 && EMGPU_SOFT_SCHEDULE <= 2,
               "EMGPU_SOFT_SCHEDULE: 0 auto, 1 binned, 2 unbinned");

#define SLOTS 8u      /* kinds of pass remembered (least recently used one replaced) */
#define RUN 3u        /* probing: passes of each schedule in a row, the first one not counted */
#define REPROBE 16u         /* passes of the chosen schedule before the first re-probe */
#define REPROBE_MAX 1024u   /* ... and at most between two (doubling while the choice holds) */

/* A slot's phase: probing (steps 0 .. 2 RUN - 1: RUN binned passes then RUN unbinned), running
 * the chosen schedule, or re-probing the other (steps 0, 1: two passes, the second counted). */
enum { PROBING, CHOSEN, REPROBING };

typedef struct sched_slot {
    uint64_t key;
    uint64_t ns[2];        /* [0] unbinned, [1] binned: fastest counted probe; the chosen's average */
    uint32_t step;         /* pass of the current probing or re-probing phase */
    uint32_t since;        /* passes of the chosen schedule since the last probe of the other */
    uint32_t every;        /* passes from one re-probe to the next (REPROBE .. REPROBE_MAX) */
    uint32_t used;         /* last use (tick), for replacement */
    uint32_t drift;        /* passes in a row far from the chosen's average */
    uint8_t phase, pick;   /* pick: the chosen schedule (phases CHOSEN, REPROBING) */
    bool live;
} sched_slot_t;

static sched_slot_t slots[SLOTS];
static uint32_t tick;
static uint64_t (*clock_fn)(void);
static int32_t mode_override = -1;   /* eg_soft_sched_set_mode; -1: environment, then config */

/* The pass being timed: its slot (or none) and schedule. */
static struct {
    sched_slot_t *slot;
    uint64_t key, t0;
    uint8_t binned;
} open_pass;

static eg_soft_sched_stats_t stats;

void eg_soft_sched_set_mode(int32_t mode) { mode_override = mode; }
void eg_soft_sched_set_clock(uint64_t (*fn)(void)) { clock_fn = fn; }
void eg_soft_sched_stats(eg_soft_sched_stats_t *out) { *out = stats; }

void eg_soft_sched_forget(void)
{
    eg_memset(slots, 0, sizeof slots);
    open_pass.slot = NULL;
}

static uint64_t now_ns(void) { return clock_fn ? clock_fn() : eg_port_clock_ns(); }

int32_t eg_soft_sched_mode(void)
{
    if (mode_override >= 0) return mode_override;
#if EMGPU_PORT_HAS_ENV
    /* Hosted boards: EMGPU_SOFT_SCHEDULE=auto|binned|unbinned overrides the build's value. */
    const char *e = eg_port_getenv("EMGPU_SOFT_SCHEDULE");
    if (e && eg_strcmp(e, "auto") == 0) return EG_SOFT_SCHED_AUTO;
    if (e && eg_strcmp(e, "binned") == 0) return EG_SOFT_SCHED_BINNED;
    if (e && eg_strcmp(e, "unbinned") == 0) return EG_SOFT_SCHED_UNBINNED;
    static bool warned;   /* once: the variable is read at every pass */
    if (e && *e && !warned) {
        warned = true;
        eg_log(EG_LOG_WARN, "EMGPU_SOFT_SCHEDULE=\"%s\" is not auto, binned or unbinned: using the build's %d "
               "(EMGPU_SOFT_SCHEDULE in the board's config: 0 auto, 1 binned, 2 unbinned)", e, (int)EMGPU_SOFT_SCHEDULE);
    }
#endif
    return EMGPU_SOFT_SCHEDULE;
}

static sched_slot_t *slot_of(uint64_t key)
{
    sched_slot_t *old = &slots[0];
    for (uint32_t i = 0; i < SLOTS; i++) {
        if (slots[i].live && slots[i].key == key) return &slots[i];
        if (!slots[i].live || (old->live && slots[i].used < old->used)) old = &slots[i];
    }
    eg_memset(old, 0, sizeof *old);
    old->key = key;
    old->live = true;
    return old;
}

/* The schedule slot s gives its next pass (nothing changes until the pass is timed). */
static uint8_t choose(const sched_slot_t *s)
{
    if (s->phase == PROBING) return s->step < RUN ? 1u : 0u;
    return s->phase == REPROBING ? (uint8_t)(s->pick ^ 1u) : s->pick;
}

bool eg_soft_sched_open(uint64_t key)
{
    open_pass.slot = NULL;
    int32_t mode = eg_soft_sched_mode();
    if (mode != EG_SOFT_SCHED_AUTO) return mode == EG_SOFT_SCHED_BINNED;
    sched_slot_t *s = slot_of(key);
    s->used = ++tick;
    open_pass.slot = s;
    open_pass.key = key;
    open_pass.binned = choose(s);
    open_pass.t0 = now_ns();
    return open_pass.binned != 0;
}

bool eg_soft_sched_rekey(uint64_t key)
{
    if (!open_pass.slot) return eg_soft_sched_mode() != EG_SOFT_SCHED_UNBINNED;   /* a fixed schedule */
    uint64_t t0 = open_pass.t0;
    bool binned = eg_soft_sched_open(key);
    open_pass.t0 = t0;
    return binned;
}

void eg_soft_sched_cancel(void) { open_pass.slot = NULL; }

static void restart(sched_slot_t *s)
{
    uint64_t key = s->key;
    eg_memset(s, 0, sizeof *s);
    s->key = key;
    s->live = true;
    s->used = tick;
}

void eg_soft_sched_close(void)
{
    sched_slot_t *s = open_pass.slot;
    open_pass.slot = NULL;
    if (!s || !s->live || s->key != open_pass.key) return;   /* replaced meanwhile: not timed */
    uint64_t dt = now_ns() - open_pass.t0;
    uint8_t m = open_pass.binned;
    stats.passes[m]++;
    if (s->phase == PROBING) {
        /* The first pass after a change of schedule is not counted: the pixels and records are
         * still in the other core's cache (and a first frame's memos are cold). */
        stats.probes++;
        if (s->step % RUN == 1u || (s->step % RUN > 1u && dt < s->ns[m])) s->ns[m] = dt;
        if (++s->step == 2u * RUN) {
            /* binned only when 5 % faster: one core has no cross-core traffic, and the margin
             * keeps a noisy probe from binning a pass that is not faster binned */
            s->pick = s->ns[1] * 20u < s->ns[0] * 19u ? 1u : 0u;
            s->phase = CHOSEN;
            s->since = 0;
            s->every = REPROBE;
        }
        return;
    }
    if (s->phase == REPROBING) {
        stats.probes++;
        if (++s->step < 2u) return;
        s->ns[m] = dt;
        s->phase = CHOSEN;
        s->since = 0;
        if (dt * 10u < s->ns[s->pick] * 9u) {   /* at least 10 % faster */
            s->pick = m;
            s->every = REPROBE;
            stats.switches++;
        } else if (s->every < REPROBE_MAX) {
            s->every *= 2u;
        }
        return;
    }
    /* A pass under 2/3 or over 3/2 of the average is not averaged in (pre-empted, say); two
     * in a row mean new content (another screen drawn into the same target): both schedules
     * are timed again. Else a running average over ~4 passes. */
    uint64_t avg = s->ns[m];
    if (dt * 2u > avg * 3u || dt * 3u < avg * 2u) {
        if (++s->drift >= 2u) {
            restart(s);
            stats.restarts++;
            return;
        }
    } else {
        s->drift = 0;
        s->ns[m] = avg - avg / 4u + dt / 4u;
    }
    if (++s->since >= s->every) {
        s->phase = REPROBING;
        s->step = 0;
    }
}

#endif /* EMGPU_HAL_SOFT */
