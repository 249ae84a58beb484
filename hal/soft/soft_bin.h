/* hal/soft tile binning and tile-parallel workers: the interface between draws and rasterization.
 *
 * FLOW. A render pass is BINNED: soft_draw.c shades vertices, clips and converts to window
 * space on the submitting thread, then hands each triangle to eg_soft_bin_triangle. The triangle
 * (window coordinates + the varyings the fragment stage reads, and with several workers its edge
 * set-up, so it is set up once and not once per tile) is copied into the pass's bin arena and a
 * reference is appended to the bin of every tile (EMGPU_SOFT_TILE_PX tall; with
 * EMGPU_SOFT_TILE_W_PX 0 the whole target wide, with squares a run of neighbouring squares, as
 * wide as leaves each worker 4 tiles: eg_soft_bin_job_width_px) that its bounding box
 * (within the scissor) touches, together with a pointer to a snapshot of the
 * draw state (eg_soft_pass_state_t: pipeline, bind groups, scissor, viewport depth range, blend
 * constant, stencil reference), taken once per state change, not per triangle.
 *
 * A pass with one worker (EMGPU_SOFT_THREADS 1, or a port without threads) that is not banded
 * is not binned: its triangles are rasterized as they come (the same bytes; binning would only
 * cost time there). The test hooks below force binning.
 *
 * FLUSH. Rasterizing the bins runs each tile's triangles in submission order, clipped to the
 * tile (worker clip rectangle); the pass's clears, where deferred (eg_soft_bin_defer_fill), are
 * filled by the tile's worker first, in the pass's first flush. Tiles never share a pixel and
 * 4x4 blocks never straddle tiles (tile sizes are multiples of 4), so the bytes are those of
 * immediate rendering (and of clears at pass begin), whatever the
 * tile size or the number of threads. Flushes happen at the end of the pass, when the arena is
 * full (then binning continues into the emptied arena or the other half: never a failure), and before a draw
 * whose fragment program has side effects (storage writes / atomics), which is rasterized
 * immediately so its effects keep submission order.
 *
 * THREADS. Tiles are distributed to EMGPU_SOFT_THREADS workers (the submitting thread is one of
 * them) through a mutex-protected tile counter; each worker owns its eg_soft_worker_t and the
 * tile it is rasterizing. With condition variables in the port (eg_port_cond_*) the worker
 * threads are started once and parked between flushes; without them they are started per flush
 * and joined before it returns; a port without threads (bare metal) runs every tile on the
 * submitting thread. Compute dispatches stay single-threaded.
 *
 * OVERLAP. With more than one worker the arena is used as two halves with a tile table each.
 * When the half being binned into is full, its tiles are started on the parked threads only and
 * the submitting thread goes on shading, clipping and binning into the other half; when that one
 * is full, or at the end of the pass, the submitting thread first joins the half in flight
 * (taking its remaining tiles), so each tile still receives its triangles in submission order.
 * Anything that must see the pass's pixels (pass end, an immediate draw, a triangle drawn alone)
 * waits for the half in flight first.
 *
 * SCHEDULE. With more than one worker a pass is binned or, where that is slower, rasterized
 * unbinned by the submitting thread alone (soft_schedule.c: each kind of pass is timed both ways,
 * the faster kept, the other re-tried now and then). EMGPU_SOFT_SCHEDULE (and on hosted boards the
 * environment variable of that name: auto, binned, unbinned) fixes the choice instead. Banded
 * passes and the test hooks below are always binned. The bytes are the same every way.
 *
 * WORST CASE MEMORY. The arena (EMGPU_SOFT_BIN_ARENA_BYTES, static; halved with more than one
 * worker) holds the tile table (one head/tail pair per tile; the tile size doubles until the
 * table fits a quarter of the arena or half), the state snapshots (sizeof(eg_soft_pass_state_t)
 * each), one record per binned triangle (~64 B + 4 * nvary floats, nvary rounded up to 4; 64 B
 * more with the edge set-up, boards with threads) or strip pair (a quad record: ~64 B + 4
 * vertices' window values and varyings, no set-up) and one reference chunk per tile per CHUNK
 * references.
 * A triangle that does not fit even an empty arena (half) is
 * rasterized immediately (full-frame clip), so any geometry renders; the cost of a small arena
 * is more flushes (each re-walks the tile table), never a different result.
 */
#ifndef EG_SOFT_BIN_H
#define EG_SOFT_BIN_H

#include "hal/soft/soft_raster.h"

/* ---- render pass lifecycle (soft_exec.c) ---- */

/** Opens binning for a pass drawing into fb (which must stay valid until pass_end). */
void eg_soft_bin_pass_begin(const eg_soft_fb_t *fb);
/** Rasterizes everything binned so far (all tiles) and empties the arena. */
void eg_soft_bin_flush(void);
/** Flushes and closes the pass. */
void eg_soft_bin_pass_end(void);

/** Banded passes: the rows [y0, y1) only (tile rows overlapping it, clipped to it), without
 *  emptying the arena; true when nothing was lost to an arena overflow since pass_begin (false:
 *  an earlier flush already drew triangles outside any band, so the caller must re-run the
 *  pass per band). */
bool eg_soft_bin_raster_rows(uint32_t y0, uint32_t y1);
/** Banded passes (call right after pass_begin): every triangle is clipped to rows [y0, y1),
 *  binning drops triangles outside them. hold: nothing may be rasterized before
 *  eg_soft_bin_raster_rows (the band's memory does not exist yet), so an arena overflow or an
 *  immediate draw marks the pass lost instead (eg_soft_bin_raster_rows then returns false). */
void eg_soft_bin_set_band(uint32_t y0, uint32_t y1, bool hold);
/** Partial updates (call after pass_begin / set_band): nothing outside [x0, x1) x [y0, y1) is
 *  binned or rasterized; inside, the bytes are those of the unclipped pass. */
void eg_soft_bin_set_damage(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1);

/** The pass's clears (call after pass_begin, set_band and set_damage, before any draw): fill the
 *  plane layer s (layer `layer` of it) with texel (texel_B bytes, repeated over element_B) when
 *  each tile is first rasterized, by its worker, so the cleared memory is cache-warm and the
 *  clear runs in parallel; tiles with no triangle get theirs in the same flush. An unbinned pass
 *  (one worker) fills them just before its first triangle, or at its end, except a colour clear
 *  that the first triangle pair overwrites whole (dead clears, soft_bin.c). False (nothing
 *  recorded: the caller fills now) when the clears cannot wait: banded, partial update, or the
 *  fill slots are used up. */
bool eg_soft_bin_defer_fill(const eg_soft_subres_t *s, uint32_t layer, const uint8_t *texel, uint32_t texel_B);
/** An unbinned pass's clears still wait for its first triangle: soft_draw.c then hands the
 *  first two triangles over as a pair, whatever the pipeline, so a covering pair is seen. */
bool eg_soft_bin_fills_waiting(void);

/* ---- schedule (soft_schedule.c; called by soft_bin.c) ---- */

enum { EG_SOFT_SCHED_AUTO = 0, EG_SOFT_SCHED_BINNED = 1, EG_SOFT_SCHED_UNBINNED = 2 };

/** The schedule in force: the test override, else (hosted boards) the environment variable
 *  EMGPU_SOFT_SCHEDULE, else the config knob. */
int32_t eg_soft_sched_mode(void);
/** A pass with several workers begins: true to bin it. In auto mode the pass of kind key is
 *  timed from here to eg_soft_sched_close. */
bool eg_soft_sched_open(uint64_t key);
/** The timed pass turned out to be of kind key (a partial update: before any clear or draw);
 *  returns its schedule as eg_soft_sched_open. */
bool eg_soft_sched_rekey(uint64_t key);
/** The open pass is not timed (banded: binned whatever the schedule). */
void eg_soft_sched_cancel(void);
/** The pass ended (everything drawn): its time counts for its kind and schedule. */
void eg_soft_sched_close(void);

typedef struct eg_soft_sched_stats {
    uint32_t passes[2];        /* timed passes run [0] unbinned, [1] binned */
    uint32_t probes;           /* of those, run to time a schedule: probing and re-probes */
    uint32_t switches;         /* a re-probe found the other schedule faster */
    uint32_t restarts;         /* probing started again: the chosen one's time moved (new content) */
} eg_soft_sched_stats_t;

/* ---- draws (soft_draw.c) ---- */

/** Starts a draw with state ps (a new snapshot is taken when it differs from the last one). */
void eg_soft_bin_draw(const eg_soft_pass_state_t *ps);
/** Bins one window-space triangle of the current draw (or rasterizes it at once, see FLOW). */
void eg_soft_bin_triangle(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t);
/** Two triangles of one draw, t1 right after t0 (a quad's halves: soft_draw.c): as
 *  eg_soft_bin_triangle on each in order; the rasterizer may fill both in one walk (pair11). */
void eg_soft_bin_pair(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t0, const eg_soft_tri_t *t1);
/** eg_soft_bin_pair of t[k][0], t[k][1] for k = 0 .. n - 1, in order (soft_draw.c quad runs). */
void eg_soft_bin_pairs(const eg_soft_pass_state_t *ps, const eg_soft_tri_t (*t)[2], uint32_t n);

/* ---- workers (soft_worker.c) ---- */

/** Runs job(w, i) for i in [0, count) over the workers; returns when all are done (after
 *  waiting for a started batch). */
void eg_soft_workers_run(uint32_t count, void (*job)(eg_soft_worker_t *w, uint32_t i));
/** Starts job(w, i) for i in [0, count) on the parked worker threads only and returns at once;
 *  false (nothing started) when there are none (one worker, no threads or condition variables
 *  in the port). Waits for a batch already started first. */
bool eg_soft_workers_start(uint32_t count, void (*job)(eg_soft_worker_t *w, uint32_t i));
/** Joins the started batch (the calling thread takes its remaining jobs) and returns when it is
 *  done; nothing when none is in flight. Only the submitting thread starts and waits. */
void eg_soft_workers_wait(void);
/** Workers in use: eg_soft_set_threads's value, else EMGPU_SOFT_THREADS (at most
 *  EMGPU_SOFT_MAX_THREADS). */
uint32_t eg_soft_threads(void);
/** Sums of the workers' counters (tests): blocks shaded by copy, pixels filled by spans. */
uint32_t eg_soft_workers_copy_blocks(void);
uint32_t eg_soft_workers_span_px(void);
/** Gives the submitting thread's worker the whole-frame clip (soft device open). */
void eg_soft_workers_reset(void);
/** Stops and joins the parked worker threads (the last soft device closed); they start again
 *  when a later pass needs them. */
void eg_soft_workers_shutdown(void);

/* ---- test hooks (not for applications) ---- */

/** Overrides the worker count (0: back to the config / environment value). */
void eg_soft_set_threads(uint32_t n);
/** Worker threads started and parked (0: the port has no threads or condition variables). */
uint32_t eg_soft_workers_parked(void);
/** Shrinks the usable arena to limit_B bytes (0: the whole arena). */
void eg_soft_bin_set_arena_limit(size_t limit_B);
/** Job (bin) width in pixels for tile rows tile_px tall of square_px squares (0: the whole
 *  width) on a w_px x h_px target with `threads` workers: a run of neighbouring squares, enough
 *  of them that each worker has 4 jobs (soft_bin.c; exposed for tests). */
uint32_t eg_soft_bin_job_width_px(uint32_t tile_px, uint32_t square_px, uint32_t w_px, uint32_t h_px,
                                  uint32_t threads);
/** Overrides the tile size in pixels (a multiple of 4; 0: EMGPU_SOFT_TILE_PX). */
void eg_soft_bin_set_tile_px(uint32_t tile_px);
/** A/B switches (tests, bench; the same bytes either way), default on: batches' jobs busiest tile
 *  first (soft_bin.c ORDER); threads spin before they block (soft_worker.c SPIN); strip pairs
 *  binned as one record (soft_bin.c QUAD RECORDS); the first half handed over early (soft_bin.c
 *  EARLY START). */
extern bool eg_soft_bin_order_on, eg_soft_workers_spin_on, eg_soft_bin_quads_on, eg_soft_bin_early_on;

/** Fixes the schedule (EG_SOFT_SCHED_*; -1: back to the environment and config). */
void eg_soft_sched_set_mode(int32_t mode);
/** Replaces the port's clock for the schedule's timing (NULL: the port's). */
void eg_soft_sched_set_clock(uint64_t (*fn)(void));
/** Forgets every kind of pass (and the open one). */
void eg_soft_sched_forget(void);
/** Counters since program start. */
void eg_soft_sched_stats(eg_soft_sched_stats_t *out);

typedef struct eg_soft_bin_stats {
    uint32_t flushes;          /* flushes that rasterized something */
    uint32_t overflows;        /* of those, caused by a full arena */
    uint32_t binned;           /* triangles binned */
    uint32_t immediate;        /* triangles rasterized without binning */
    uint32_t tile_px;          /* tile size of the last pass */
    uint32_t tiles;            /* tiles rasterized (with at least one triangle; partial updates) */
    uint32_t async;            /* flushes started on the other workers while binning went on */
    uint32_t fills_deferred;   /* clears recorded by eg_soft_bin_defer_fill for the tiles (binned) */
    uint32_t fill_tiles;       /* tiles (jobs) that filled their part of the deferred clears */
    uint32_t fills_waited;     /* unbinned passes: clears held until the first triangle */
    uint32_t fills_dead;       /* of those, clears never filled: the first draw covered them */
    uint32_t quads;            /* strip pairs binned as one record (soft_bin.c QUAD RECORDS) */
    uint32_t early;            /* first halves handed over before they were full (EARLY START) */
} eg_soft_bin_stats_t;
/** Counters since program start (tests prove a path ran). */
void eg_soft_bin_stats(eg_soft_bin_stats_t *out);

#endif /* EG_SOFT_BIN_H */
