/* hal/soft tile binning: the per-pass bin arena, triangle records and tile bins (soft_bin.h). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_span.h"

_Static_assert(EMGPU_SOFT_TILE_PX >= 4 && EMGPU_SOFT_TILE_PX % 4 == 0,
               "EMGPU_SOFT_TILE_PX: a multiple of 4 (4x4 blocks never straddle tiles)");
_Static_assert(EMGPU_SOFT_BIN_ARENA_BYTES >= 1024, "EMGPU_SOFT_BIN_ARENA_BYTES: at least 1 KiB");

/* The edge set-up is stored with each binned triangle where tiles run on several workers (a
 * triangle then crosses tiles and each would set it up again); on one-worker boards (MCUs: binned
 * only for banded panels) the record stays small, 64 B less per triangle in a 16 KiB arena. */
#define BIN_SETUP (EMGPU_SOFT_MAX_THREADS > 1)

/* References per chunk of a tile's bin: small, so a tile touched by one triangle wastes little. */
#define CHUNK_N 6u
#define ALIGN_B 8u
#define EARLY_PART 8u   /* EARLY START (start_early): the first half is handed over 1/8 full */

/* One binned triangle: what eg_soft_tri_t holds, with the varyings copied out of the vertex
 * batch (which is reused by the next batch). var[] holds nv sets of nvary floats (each at a
 * stride of VSTRIDE(nvary)): v0, v1, v2
 * and, when the provoking vertex is none of them (clipped triangles), a fourth. */
typedef struct bin_tri {
    const eg_soft_pass_state_t *ps;
#if BIN_SETUP
    /* The set-up made at binning (eg_soft_tri_prepare), so a triangle crossing n tiles is set up
     * once, not n + 1 times. A and B are differences of snapped coordinates (|v| < 2^24 after the
     * guard band: eg_soft_snap), exact in 32 bits; C needs 64. box: the scissored pixel box. */
    int64_t C[3];
    int32_t A[3], B[3], box[4];
    float inv_area2;
#endif
    /* The triangle binned right after this one as its pair (eg_soft_bin_pair), or NULL: where
     * it is also the next record of a tile's list the two go to eg_soft_raster_prepared_pair. */
    const struct bin_tri *mate;
    float x[3], y[3], z[3], invw[3];
    uint8_t is_polygon, prov, nvary, front;
    /* with mate: the pair was a strip's (the mate's v0, v2 were this one's v1, v2), given back
     * to the rasterizer as such so its quad memo sees the shape it sees unbinned */
    uint8_t strip;
    /* QUAD RECORDS: the record is a whole strip pair (v0 v1 v2) (v1 v3 v2); prov1: the second
     * triangle's provoking vertex (0-3). var[] then starts with v3's x, y, z, 1/w. */
    uint8_t quad, prov1;
    float var[];
} bin_tri_t;

typedef struct bin_chunk {
    struct bin_chunk *next;
    uint32_t n;
    const bin_tri_t *tri[CHUNK_N];
} bin_chunk_t;

typedef struct bin_tile {
    bin_chunk_t *head, *tail;
} bin_tile_t;

static uint64_t arena_mem[EMGPU_SOFT_BIN_ARENA_BYTES / 8u];

/* One half of the arena with its tile table (soft_bin.h, OVERLAP). */
typedef struct bin_half {
    uint8_t *mem;
    bin_tile_t *tiles;
} bin_half_t;

static struct {
    const eg_soft_fb_t *fb;
    uint32_t tile_px, tile_w, tiles_x, tiles_y;   /* tile_w: width (tile_px: height) */
    bin_tile_t *tiles;                   /* the tile table of the half being binned into */
    bin_half_t half[2];
    uint32_t cur_half, halves;
    size_t table_B, used_B, cap_B;       /* used_B, cap_B: offsets in the current half */
    const eg_soft_pass_state_t *cur;     /* snapshot of the draw state; NULL: take one when needed */
    bool immediate;                      /* the current draw is rasterized at once */
    bool unbinned;                       /* the whole pass is rasterized at once (one worker) */
    uint32_t pending;                    /* triangles binned since the last flush */
    uint32_t band_y0, band_y1;           /* rows every triangle is clipped to */
    uint32_t dmg_x0, dmg_x1;             /* columns every triangle is clipped to (damage) */
    bool hold, lost, overflowed;
    bool timed;                          /* the schedule chose binned or not (soft_schedule.c; auto: timed) */
    size_t early_B;                      /* EARLY START: used_B that hands the first half over (0: done, off) */
    size_t limit_B;
    uint32_t tile_override;
    eg_soft_bin_stats_t stats;
} B;

/* The pass's deferred clears (eg_soft_bin_defer_fill): one per colour target, depth and stencil
 * plane. Written at pass begin, read-only while a batch runs. */
#define FILL_MAX (EG_SOFT_MAX_RT + 2u)

typedef struct bin_fill {
    uint8_t *base;                 /* the layer's texel (0, 0) */
    uint32_t row_pitch_B, element_B, width_el, height_el, texel_B;
    bool same;                     /* every byte of the texel equal: a memset */
    uint8_t texel[16];
} bin_fill_t;

static bin_fill_t fills[FILL_MAX];
static uint32_t fill_n;            /* fills of the pass */
static bool fill_pending;          /* recorded, not yet given to a batch */
typedef struct {
    EG_SOFT_OWN_LINE uint32_t n;
} fill_jobs_t;
static fill_jobs_t fill_jobs[EMGPU_SOFT_MAX_THREADS];   /* per worker: jobs that filled (stats) */

/* Per-worker scratch vertices: a binned triangle's varyings go back into eg_soft_vtx_t form
 * (two triangles' for a pair). */
typedef struct {
    EG_SOFT_OWN_LINE eg_soft_vtx_t v[8];
} worker_vtx_t;
static worker_vtx_t worker_vtx[EMGPU_SOFT_MAX_THREADS];

/* ---- arena ---- */

static size_t round_up(size_t n) { return (n + (ALIGN_B - 1u)) & ~(size_t)(ALIGN_B - 1u); }

static void *arena_alloc(size_t n)
{
    n = round_up(n);
    if (B.cap_B - B.used_B < n) return NULL;
    void *p = B.half[B.cur_half].mem + B.used_B;
    B.used_B += n;
    return p;
}

static void arena_reset(void)
{
    eg_memset(B.tiles, 0, B.table_B);
    B.used_B = B.table_B;
    B.cur = NULL;
    B.pending = 0;
}

void eg_soft_bin_set_arena_limit(size_t limit_B) { B.limit_B = limit_B; }
void eg_soft_bin_set_tile_px(uint32_t tile_px) { B.tile_override = tile_px & ~3u; }

void eg_soft_bin_stats(eg_soft_bin_stats_t *out)
{
    *out = B.stats;
    for (uint32_t i = 0; i < EMGPU_SOFT_MAX_THREADS; i++) out->fill_tiles += fill_jobs[i].n;
}

_Static_assert(EMGPU_SOFT_TILE_W_PX == 0 ||
                   (EMGPU_SOFT_TILE_W_PX >= EMGPU_SOFT_TILE_PX && EMGPU_SOFT_TILE_W_PX % 4 == 0),
               "EMGPU_SOFT_TILE_W_PX: 0 or a multiple of 4 >= EMGPU_SOFT_TILE_PX");

/* Jobs each worker should have at least when tiles are squares (EMGPU_SOFT_TILE_W_PX): enough
 * for the tile counter to even out unequal tiles, no more (tile9). */
#define JOBS_PER_THREAD 4u

/* Bin (job) width: EMGPU_SOFT_TILE_W_PX 0 is the whole target (rounded up to 4: blocks never
 * straddle tiles). Squares: a job takes a run of neighbouring squares of its tile row, as many
 * as leave each worker JOBS_PER_THREAD jobs. A triangle crossing a job border is set up and
 * walked, and its pixel rows started, once per job (soft_raster.c, the span path), so every
 * border costs instructions (session 8: squares one by one +12-23% at 2 threads on rows 2, 7,
 * 9); jobs no narrower than the balance needs pay only for the borders that buy it. 2 threads on
 * 800x480: 8 tile rows are 8 jobs, so a run is the whole row. */
uint32_t eg_soft_bin_job_width_px(uint32_t tile_px, uint32_t square_px, uint32_t w_px, uint32_t h_px,
                                  uint32_t threads)
{
    uint32_t full = (w_px + 3u) & ~3u;
    if (!square_px || !tile_px) return full;
    uint32_t sq = square_px < tile_px ? tile_px : square_px;
    uint32_t cols = (w_px + sq - 1u) / sq, rows = (h_px + tile_px - 1u) / tile_px;
    uint32_t runs = (JOBS_PER_THREAD * (threads ? threads : 1u) + rows - 1u) / (rows ? rows : 1u);
    uint32_t w = runs >= cols ? sq : (cols + runs - 1u) / runs * sq;   /* squares per job, rounded up */
    return w < full ? w : full;
}

/* Tile width for tile height t; square tiles, each its own job, under the test override. */
static uint32_t tile_width(uint32_t t, uint32_t w_px, uint32_t h_px)
{
    uint32_t w = eg_soft_bin_job_width_px(t, EMGPU_SOFT_TILE_W_PX, w_px, h_px, eg_soft_threads());
    return B.tile_override || w < t ? t : w;
}

/* The kind of a pass for the schedule: its targets and size, and a partial update's damage. */
static uint64_t pass_key(const eg_soft_fb_t *fb, uint64_t damage)
{
    uint64_t k = 0x9E3779B97F4A7C15u ^ ((uint64_t)fb->width_px << 32 | fb->height_px);
    const eg_soft_target_t *t[EG_SOFT_MAX_RT + 2u];
    uint32_t n = 0;
    for (uint32_t i = 0; i < fb->color_count && i < EG_SOFT_MAX_RT; i++) t[n++] = &fb->color[i];
    t[n++] = &fb->depth;
    t[n++] = &fb->stencil;
    for (uint32_t i = 0; i < n; i++)
        k = (k ^ (uint64_t)(uintptr_t)t[i]->base ^ (uint64_t)t[i]->format << 48) * 0x100000001B3u;
    return (k ^ fb->samples ^ damage << 8) * 0x100000001B3u;
}

void eg_soft_bin_pass_begin(const eg_soft_fb_t *fb)
{
    eg_soft_workers_wait();   /* the last pass end joined already: a no-op, kept as a guard */
    eg_soft_span_epoch++;     /* no worker runs: the span path's texture look-ups expire */
    B.fb = fb;
    B.cap_B = sizeof arena_mem;
    if (B.limit_B && B.limit_B < B.cap_B) B.cap_B = B.limit_B;
    /* OVERLAP: two halves with more than one worker, unless a half could not hold a few state
     * snapshots (tiny test arenas: every triangle would be drawn alone). */
    B.halves = eg_soft_threads() > 1u && B.cap_B / 2u >= 8u * sizeof(eg_soft_pass_state_t) ? 2u : 1u;
    B.cap_B = (B.cap_B / B.halves) & ~(size_t)(ALIGN_B - 1u);
    uint32_t t = B.tile_override ? B.tile_override : EMGPU_SOFT_TILE_PX;
    for (;;) {
        B.tile_w = tile_width(t, fb->width_px, fb->height_px);
        B.tiles_x = (fb->width_px + B.tile_w - 1u) / B.tile_w;
        B.tiles_y = (fb->height_px + t - 1u) / t;
        B.table_B = round_up((size_t)B.tiles_x * B.tiles_y * sizeof(bin_tile_t));
        if (B.table_B <= B.cap_B / 4u || (B.tiles_x <= 1u && B.tiles_y <= 1u)) break;
        t *= 2u;   /* a huge target: bigger tiles keep the table in a quarter of the arena */
    }
    B.tile_px = t;
    B.stats.tile_px = t;
    for (uint32_t h = 0; h < 2u; h++) {
        B.half[h].mem = (uint8_t *)arena_mem + (h < B.halves ? h * B.cap_B : 0);
        B.half[h].tiles = (bin_tile_t *)(void *)B.half[h].mem;
    }
    B.cur_half = 0;
    B.tiles = B.half[0].tiles;
    B.band_y0 = 0;
    B.band_y1 = fb->height_px;
    B.dmg_x0 = 0;
    B.dmg_x1 = fb->width_px;
    B.hold = B.lost = B.overflowed = false;
    B.early_B = B.halves == 2u && eg_soft_bin_early_on ? B.table_B + (B.cap_B - B.table_B) / EARLY_PART : 0u;
    B.immediate = false;
    /* One worker and no band: binning would only add work (measured ~5-8 % on the demo), so the
     * pass is rasterized triangle by triangle, the same bytes. More workers: the schedule
     * decides (soft_schedule.c). The test hooks force binning. */
    B.timed = false;
    if (B.tile_override || B.limit_B) B.unbinned = false;
    else if (eg_soft_threads() <= 1u) B.unbinned = true;
    else {
        B.unbinned = !eg_soft_sched_open(pass_key(fb, 0));
        B.timed = true;
    }
    fill_n = 0;
    fill_pending = false;
    arena_reset();
}

/* Tiles are disjoint and the jobs of one flush cover the target (no band, no damage), so each
 * byte is filled exactly once, by the first flush, before any triangle of its tile: the bytes
 * of a clear at pass begin. */
bool eg_soft_bin_defer_fill(const eg_soft_subres_t *s, uint32_t layer, const uint8_t *texel, uint32_t texel_B)
{
    const eg_soft_fb_t *fb = B.fb;
    if (!fb || B.hold || (!EMGPU_SOFT_TILE_CLEARS && !B.unbinned))
        return false;
    if (B.band_y0 != 0 || B.band_y1 != fb->height_px || B.dmg_x0 != 0 || B.dmg_x1 != fb->width_px)
        return false;   /* a band or a damage: the jobs do not cover the plane */
    if (fill_n == FILL_MAX || texel_B == 0 || texel_B > 16u || s->element_B % texel_B != 0 ||
        s->width_el > B.tiles_x * B.tile_w || s->height_el > B.tiles_y * B.tile_px)
        return false;
    bin_fill_t *f = &fills[fill_n++];
    f->base = s->base + (size_t)layer * s->slice_pitch_B;
    f->row_pitch_B = s->row_pitch_B;
    f->element_B = s->element_B;
    f->width_el = s->width_el;
    f->height_el = s->height_el;
    f->texel_B = texel_B;
    f->same = true;
    for (uint32_t i = 0; i < texel_B; i++) {
        f->texel[i] = texel[i];
        f->same = f->same && texel[i] == texel[0];
    }
    fill_pending = true;
    if (B.unbinned) B.stats.fills_waited++;
    else B.stats.fills_deferred++;
    return true;
}

void eg_soft_bin_set_band(uint32_t y0, uint32_t y1, bool hold)
{
    B.band_y0 = y0;
    B.band_y1 = y1;
    B.hold = hold;
    B.unbinned = false;
    if (B.timed) eg_soft_sched_cancel();
    B.timed = false;
}

/* Partial updates: the rows are narrowed like a band's, the columns clip binning boxes, tiles
 * and immediate triangles alike. The worker clip keeps the bytes inside the rectangle those of
 * an unclipped pass (the same mechanism as tiles and strips, whose edges fall anywhere). */
void eg_soft_bin_set_damage(uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1)
{
    B.dmg_x0 = eg_max_u32(B.dmg_x0, x0);
    B.dmg_x1 = eg_max_u32(B.dmg_x0, eg_min_u32(B.dmg_x1, x1));
    B.band_y0 = eg_max_u32(B.band_y0, y0);
    B.band_y1 = eg_max_u32(B.band_y0, eg_min_u32(B.band_y1, y1));
    /* a partial update is its own kind of pass (its time scales with the damage): nothing is
     * cleared or drawn yet, so the schedule may still change */
    if (B.timed) {
        uint64_t area = (uint64_t)(B.dmg_x1 - B.dmg_x0) * (B.band_y1 - B.band_y0), log2 = 1;
        while (area >>= 1) log2++;   /* damages within a factor of 2 in area are one kind */
        B.unbinned = !eg_soft_sched_rekey(pass_key(B.fb, log2));
    }
}

/* ---- rasterizing bins ---- */

/* The flush in progress (written before its batch starts, read-only while workers run: the
 * submitting thread may be binning into the other half meanwhile, so nothing here is B's). */
/* ORDER. A batch's jobs are handed out busiest tile first (most triangles binned; ties in tile
 * order), so the last jobs, those the joining thread waits on while nothing else is left to
 * take, are the shortest: with the tiles in target order a 2-thread mesh frame waited ~0.4 ms
 * at its 4 joins for the other worker's last tile row (performance.md "Session 18"). Which
 * worker draws a tile, and when, never changes its bytes. Batches of more than ORDER_MAX jobs
 * keep the target order. */
#define ORDER_MAX 256u

static struct {
    const bin_tile_t *tiles;
    uint32_t tiles_x, tile_px, tile_w, first;   /* first: tile index of job 0 (the band's first tile row) */
    uint32_t ordered;                   /* jobs taken through order[] (0: job i is tile first + i) */
    uint16_t order[ORDER_MAX];          /* job -> tile index relative to first */
    int64_t lo, hi, dmg_x0, dmg_x1;     /* rows and columns of the flush */
    uint32_t nfill;                     /* deferred clears this batch performs (the pass's first) */
} R;

/* One deferred clear over pixels [x0, x1) x [y0, y1) (clipped to the plane): a memset per row,
 * or the texel repeated along the first row by doubling copies and that row copied down. */
static void fill_rect(const bin_fill_t *f, int64_t x0, int64_t x1, int64_t y0, int64_t y1)
{
    if (x1 > (int64_t)f->width_el) x1 = f->width_el;
    if (y1 > (int64_t)f->height_el) y1 = f->height_el;
    if (x0 >= x1 || y0 >= y1) return;
    size_t row_B = (size_t)(x1 - x0) * f->element_B;
    uint8_t *p = f->base + (size_t)y0 * f->row_pitch_B + (size_t)x0 * f->element_B;
    uint32_t rows = (uint32_t)(y1 - y0);
    if (f->same) {
        if (row_B == f->row_pitch_B) { eg_memset(p, f->texel[0], row_B * rows); return; }
        for (uint32_t y = 0; y < rows; y++) eg_memset(p + (size_t)y * f->row_pitch_B, f->texel[0], row_B);
        return;
    }
    eg_memcpy(p, f->texel, f->texel_B);
    for (size_t done = f->texel_B; done < row_B;) {
        size_t n = done < row_B - done ? done : row_B - done;
        eg_memcpy(p + done, p, n);
        done += n;
    }
    for (uint32_t y = 1; y < rows; y++) eg_memcpy(p + (size_t)y * f->row_pitch_B, p, row_B);
}


/* ---- dead clears (unbinned passes) ----
 * One worker rasterizes the pass triangle by triangle, so a clear at pass begin would write the
 * whole target before the first draw. A UI frame's first draw is often a background quad that
 * writes every pixel again (800x480 XRGB8888: 1.5 MB twice). So the clears of an unbinned pass
 * wait (eg_soft_bin_defer_fill) for its first triangle: they are filled before it unless it is
 * one half of a pair that provably writes every pixel of a cleared colour target with bytes that
 * do not depend on the target; that clear is then dead and never filled. Anything else that
 * could show the target first (a lone triangle, the pass end) fills them. */

bool eg_soft_bin_fills_waiting(void) { return fill_pending && B.unbinned; }

static void wait_fills_now(void)
{
    for (uint32_t f = 0; f < fill_n; f++)
        fill_rect(&fills[f], 0, fills[f].width_el, 0, fills[f].height_el);
    fill_pending = false;
}

/* The pair t0, t1 covers every pixel centre of ps's target: an axis-aligned rectangle reaching
 * the target's edges or beyond, split along a diagonal into the two triangles. Pixel centres
 * strictly inside it are inside one triangle or on the shared diagonal, which the fill rule
 * gives to exactly one of them (both are front or both back after eg_soft_tri_prepare, which
 * also rejects culled and empty ones). The snapped vertices are functions of these floats, so
 * the snapped rectangle has the same corners. */
static bool pair_covers(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t0, const eg_soft_tri_t *t1)
{
    const eg_soft_fb_t *fb = ps->fb;
    if (ps->sc_x0 != 0 || ps->sc_y0 != 0 || ps->sc_x1 < fb->width_px || ps->sc_y1 < fb->height_px)
        return false;
    const eg_soft_tri_t *t[2] = { t0, t1 };
    float x0 = t0->x[0], x1 = x0, y0 = t0->y[0], y1 = y0;
    for (uint32_t k = 0; k < 2u; k++)
        for (uint32_t v = 0; v < 3u; v++) {
            x0 = t[k]->x[v] < x0 ? t[k]->x[v] : x0;
            x1 = t[k]->x[v] > x1 ? t[k]->x[v] : x1;
            y0 = t[k]->y[v] < y0 ? t[k]->y[v] : y0;
            y1 = t[k]->y[v] > y1 ? t[k]->y[v] : y1;
        }
    if (!(x0 <= 0.0f && y0 <= 0.0f && x1 >= (float)fb->width_px && y1 >= (float)fb->height_px))
        return false;   /* (also false for NaN) */
    uint32_t missing[2];
    for (uint32_t k = 0; k < 2u; k++) {
        uint32_t corners = 0;   /* bit (x is x1) + 2 (y is y1) for each vertex */
        for (uint32_t v = 0; v < 3u; v++) {
            bool xl = t[k]->x[v] == x0, xh = t[k]->x[v] == x1, yl = t[k]->y[v] == y0, yh = t[k]->y[v] == y1;
            if (xl == xh || yl == yh) return false;   /* not a corner */
            corners |= 1u << ((xh ? 1u : 0u) + (yh ? 2u : 0u));
        }
        uint32_t m = ~corners & 15u;
        if (m == 0 || (m & (m - 1u)) != 0) return false;   /* three distinct corners */
        missing[k] = m == 1u ? 0u : m == 2u ? 1u : m == 4u ? 2u : 3u;
    }
    if ((missing[0] ^ missing[1]) != 3u) return false;   /* the triangles meet along a diagonal */
    eg_soft_setup_t su;
    int64_t box[4];
    for (uint32_t k = 0; k < 2u; k++) {
        if (!eg_soft_tri_prepare(ps, t[k], &su, box)) return false;
    }
    return true;
}

/* Before the first triangle of an unbinned pass (t1: its pair, or NULL): drop the clears it
 * makes dead, fill the others. */
static void wait_fills_before(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t0, const eg_soft_tri_t *t1)
{
    const struct eg_soft_raster_pipeline *rs = ps->rs;
    const eg_soft_target_t *ct = &ps->fb->color[0];
    if (t1 && rs->overwrites && !rs->native_fs && ps->fb->samples == 1u && ct->base && pair_covers(ps, t0, t1)) {
        for (uint32_t f = 0; f < fill_n; f++) {
            if (fills[f].base != ct->base || fills[f].row_pitch_B != ct->row_pitch_B) continue;
            fills[f] = fills[--fill_n];   /* dead: the pair writes all of it */
            B.stats.fills_dead++;
            break;
        }
    }
    wait_fills_now();
}

/* A record's varyings (a few floats: a library memcpy call each was 3 % of the binned textured
 * mesh; tex8), 16 bytes at a time: VSTRIDE(n) floats, n rounded up to 4. A record keeps each
 * vertex at that stride and eg_soft_vtx_t.var holds EG_SOFT_MAX_VARY (a multiple of 4), so both
 * ends stay in bounds; the floats past n are never read as varyings. The word loop was 6 % of
 * the binned UI frame's instructions (session 18). */
#define VSTRIDE(n) (((n) + 3u) & ~3u)
_Static_assert(EG_SOFT_MAX_VARY % 4u == 0, "EG_SOFT_MAX_VARY: whole 16-byte groups");

static inline void copy_vary(float *dst, const float *src, uint32_t n)
{
    for (uint32_t j = 0; j < n; j += 4u) __builtin_memcpy(dst + j, src + j, 4u * sizeof(float));
}

/* Record r back in eg_soft_tri_t form (vertices in vtx[0..3]), with its set-up and box. */
static EG_ALWAYS_INLINE void rec_tri(const bin_tri_t *r, eg_soft_vtx_t *vtx, eg_soft_tri_t *t, eg_soft_setup_t *su,
                                     int64_t box[4])
{
    uint32_t nv = r->prov == 3u ? 4u : 3u;
    for (uint32_t v = 0; v < nv; v++)
        copy_vary(vtx[v].var, r->var + (size_t)v * VSTRIDE(r->nvary), r->nvary);
    for (uint32_t v = 0; v < 3; v++) {
        t->x[v] = r->x[v]; t->y[v] = r->y[v]; t->z[v] = r->z[v]; t->invw[v] = r->invw[v];
        t->v[v] = &vtx[v];
    }
    t->prov = &vtx[r->prov];
    t->is_polygon = r->is_polygon != 0;
#if BIN_SETUP
    for (uint32_t e = 0; e < 3; e++) { su->A[e] = r->A[e]; su->B[e] = r->B[e]; su->C[e] = r->C[e]; }
    for (uint32_t e = 0; e < 4; e++) box[e] = r->box[e];
    su->inv_area2 = r->inv_area2;
    su->front = r->front != 0;
#else
    (void)su;
    (void)box;
#endif
}

/* Quad record r back as its two triangles (vertices in vtx[0..3]). */
static EG_ALWAYS_INLINE void rec_quad(const bin_tri_t *r, eg_soft_vtx_t *vtx, eg_soft_tri_t t[2])
{
    const uint32_t st = VSTRIDE(r->nvary);
    const float *v3 = r->var, *var = r->var + 4;
    for (uint32_t v = 0; v < 4u; v++) copy_vary(vtx[v].var, var + (size_t)v * st, r->nvary);
    static const uint8_t second[3] = { 1, 3, 2 };
    for (uint32_t v = 0; v < 3; v++) {
        t[0].x[v] = r->x[v]; t[0].y[v] = r->y[v]; t[0].z[v] = r->z[v]; t[0].invw[v] = r->invw[v];
        t[0].v[v] = &vtx[v];
        t[1].v[v] = &vtx[second[v]];
    }
    t[1].x[0] = r->x[1]; t[1].y[0] = r->y[1]; t[1].z[0] = r->z[1]; t[1].invw[0] = r->invw[1];
    t[1].x[1] = v3[0]; t[1].y[1] = v3[1]; t[1].z[1] = v3[2]; t[1].invw[1] = v3[3];
    t[1].x[2] = r->x[2]; t[1].y[2] = r->y[2]; t[1].z[2] = r->z[2]; t[1].invw[2] = r->invw[2];
    t[0].prov = &vtx[r->prov];
    t[1].prov = &vtx[r->prov1];
    t[0].is_polygon = t[1].is_polygon = r->is_polygon != 0;
}

static void raster_tile(eg_soft_worker_t *w, uint32_t i)
{
    const bin_tile_t *tile = &R.tiles[i];
    uint32_t tx = i % R.tiles_x, ty = i / R.tiles_x;
    int64_t y0 = (int64_t)ty * R.tile_px, y1 = y0 + R.tile_px;
    int64_t x0 = (int64_t)tx * R.tile_w, x1 = x0 + R.tile_w;
    if (R.nfill) {   /* the pass's clears of this tile, just before its triangles (tile9) */
        for (uint32_t f = 0; f < R.nfill; f++) fill_rect(&fills[f], x0, x1, y0, y1);
        fill_jobs[w->index].n++;
    }
    if (!tile->head) return;
    w->clip_x0 = x0 > R.dmg_x0 ? x0 : R.dmg_x0;
    w->clip_x1 = x1 < R.dmg_x1 ? x1 : R.dmg_x1;
    w->clip_y0 = y0 > R.lo ? y0 : R.lo;
    w->clip_y1 = y1 < R.hi ? y1 : R.hi;
    if (w->clip_y0 >= w->clip_y1 || w->clip_x0 >= w->clip_x1) return;
    eg_soft_vtx_t *vtx = worker_vtx[w->index].v;
    const bin_chunk_t *c = tile->head;   /* the cursor: record k of chunk c (chunks hold >= 1) */
    uint32_t k = 0;
    while (c) {
        const bin_tri_t *r = c->tri[k];
        if (++k == c->n) { c = c->next; k = 0; }
        eg_soft_tri_t t[2];
        if (r->quad) {
            rec_quad(r, vtx, t);
            eg_soft_raster_pair(w, r->ps, &t[0], &t[1]);
            continue;
        }
        eg_soft_setup_t su[2];
        int64_t box[2][4];
        rec_tri(r, vtx, &t[0], &su[0], box[0]);
        /* its pair, when the tile's next record (both in one walk where the span path can: the
         * bytes of the two drawn one after the other) */
        if (r->mate && c && c->tri[k] == r->mate) {
            rec_tri(r->mate, vtx + 4, &t[1], &su[1], box[1]);
            if (r->strip) {   /* the shared vertices are one vertex each again (same values) */
                if (t[1].prov == t[1].v[0]) t[1].prov = &vtx[1];
                else if (t[1].prov == t[1].v[2]) t[1].prov = &vtx[2];
                t[1].v[0] = &vtx[1];
                t[1].v[2] = &vtx[2];
            }
            if (++k == c->n) { c = c->next; k = 0; }
            const eg_soft_tri_t *const tp[2] = { &t[0], &t[1] };
#if BIN_SETUP
            eg_soft_raster_prepared_pair(w, r->ps, tp, su, (const int64_t(*)[4])box);
#else
            eg_soft_raster_pair(w, r->ps, tp[0], tp[1]);
#endif
            continue;
        }
#if BIN_SETUP
        eg_soft_raster_prepared(w, r->ps, &t[0], &su[0], box[0]);
#else
        eg_soft_raster_triangle(w, r->ps, &t[0]);
#endif
    }
}

/* The job of the workers: tile index relative to the band's first tile row. */
static void band_job(eg_soft_worker_t *w, uint32_t i)
{
    raster_tile(w, R.first + (i < R.ordered ? R.order[i] : i));
}

bool eg_soft_bin_order_on = true, eg_soft_bin_quads_on = true, eg_soft_bin_early_on = true;

/* R.order for jobs [0, n): tiles by descending count of binned triangles (the chunks' counts:
 * the tile table stays 16 bytes a tile), ties in tile order (insertion sort: n is a few tile
 * rows or runs per worker). */
static void order_jobs(uint32_t n)
{
    static uint32_t refs[ORDER_MAX];   /* (the submitting thread's) */
    R.ordered = 0;
    if (!eg_soft_bin_order_on || n > ORDER_MAX || n < 2u) return;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = 0, j = i;
        for (const bin_chunk_t *c = R.tiles[R.first + i].head; c; c = c->next) k += c->n;
        for (; j > 0 && refs[j - 1u] < k; j--) {
            R.order[j] = R.order[j - 1u];
            refs[j] = refs[j - 1u];
        }
        R.order[j] = (uint16_t)i;
        refs[j] = k;
    }
    R.ordered = n;
}

/* Rasterizes the current half's tiles over rows [y0, y1); async: started on the other workers
 * (returns false when that is not possible, having done nothing but join the batch in flight). */
static bool raster_rows_go(uint32_t y0, uint32_t y1, bool async)
{
    uint32_t ty0 = y0 / B.tile_px, ty1 = (y1 + B.tile_px - 1u) / B.tile_px;
    if (ty1 > B.tiles_y) ty1 = B.tiles_y;
    eg_soft_workers_wait();   /* R belongs to the batch in flight until it is joined */
    if (ty0 >= ty1) return true;
    R.tiles = B.tiles;
    R.tiles_x = B.tiles_x;
    R.tile_px = B.tile_px;
    R.tile_w = B.tile_w;
    R.first = ty0 * B.tiles_x;
    R.lo = y0;
    R.hi = y1;
    R.dmg_x0 = B.dmg_x0;
    R.dmg_x1 = B.dmg_x1;
    /* deferred clears: set only where defer_fill accepted (the whole target's rows) */
    R.nfill = fill_pending ? fill_n : 0u;
    order_jobs((ty1 - ty0) * B.tiles_x);
    uint32_t tiles = 0;
    for (uint32_t i = R.first; i < ty1 * B.tiles_x; i++)   /* counted here: workers race */
        if (B.tiles[i].head) tiles++;
    if (async) {
        if (!eg_soft_workers_start((ty1 - ty0) * B.tiles_x, band_job)) return false;
        fill_pending = false;
        B.stats.tiles += tiles;
        B.stats.async++;
        return true;
    }
    B.stats.tiles += tiles;
    fill_pending = false;
    eg_soft_workers_run((ty1 - ty0) * B.tiles_x, band_job);
    /* Unbinned callers (tests, immediate draws) expect the whole-frame rectangle back. */
    eg_soft_worker_t *w = &eg_soft_worker_main;
    w->clip_x0 = w->clip_y0 = 0;
    w->clip_x1 = w->clip_y1 = INT32_MAX;
    return true;
}

static void raster_rows(uint32_t y0, uint32_t y1) { (void)raster_rows_go(y0, y1, false); }

/* overflow: the current half is full (with two halves it is handed to the other workers);
 * otherwise: the end of the pass or an immediate draw, which must find everything drawn. */
static void flush(bool overflow)
{
    if (!overflow) eg_soft_workers_wait();   /* a started half is part of what to finish */
    if (B.unbinned && fill_pending) wait_fills_now();   /* a pass with no triangle */
    if (!B.fb || (B.pending == 0 && !fill_pending)) { if (B.fb) arena_reset(); return; }
    if (B.hold) {
        B.lost = true;     /* banded first attempt: the band memory is not there to draw into */
    } else {
        /* A full half goes to the other workers while binning continues in the other half. */
        bool async = overflow && B.halves == 2u && raster_rows_go(B.band_y0, B.band_y1, true);
        if (async) {
            B.cur_half ^= 1u;
            B.tiles = B.half[B.cur_half].tiles;
        } else {
            raster_rows(B.band_y0, B.band_y1);
        }
        if (B.pending) B.stats.flushes++;   /* not a flush that only cleared */
        if (overflow) { B.stats.overflows++; B.overflowed = true; }
    }
    arena_reset();
}

void eg_soft_bin_flush(void) { flush(false); }

/* EARLY START. With two halves the other workers get nothing until the first half is full
 * (~0.2 ms of a 2-thread textured-mesh frame on the 2-core VM, where they only wait). So the
 * first half is handed over when 1/EARLY_PART of it is used, and binning goes on in the other
 * half as after an overflow. Not for banded first attempts (hold: nothing may be drawn yet). */
static void start_early(void)
{
    B.early_B = 0;
    if (B.hold || B.halves != 2u || B.pending == 0) return;
    if (!raster_rows_go(B.band_y0, B.band_y1, true)) return;
    B.cur_half ^= 1u;
    B.tiles = B.half[B.cur_half].tiles;
    B.stats.flushes++;
    B.stats.early++;
    arena_reset();
}

void eg_soft_bin_pass_end(void)
{
    flush(false);
    if (B.timed) eg_soft_sched_close();
    B.timed = false;
    B.fb = NULL;
}

bool eg_soft_bin_raster_rows(uint32_t y0, uint32_t y1)
{
    if (B.lost || B.overflowed) return false;
    raster_rows(y0, y1);
    return true;
}

/* ---- binning ---- */

static bool same_state(const eg_soft_pass_state_t *a, const eg_soft_pass_state_t *b)
{
    return a->fb == b->fb && a->rs == b->rs && a->rp == b->rp && a->sp == b->sp &&
           a->vp_min_z == b->vp_min_z && a->vp_max_z == b->vp_max_z && a->sc_x0 == b->sc_x0 &&
           a->sc_y0 == b->sc_y0 && a->sc_x1 == b->sc_x1 && a->sc_y1 == b->sc_y1 &&
           a->stencil_ref == b->stencil_ref &&
           eg_memcmp(a->blend_constant, b->blend_constant, sizeof a->blend_constant) == 0 &&
           eg_memcmp(&a->bound, &b->bound, sizeof a->bound) == 0;
}

void eg_soft_bin_draw(const eg_soft_pass_state_t *ps)
{
    const struct eg_soft_raster_pipeline *rs = ps->rs;
    /* Storage writes / atomics in the fragment stage: keep them in submission order. */
    if (B.fb && B.unbinned) { B.immediate = true; return; }
    B.immediate = !B.fb || (rs->fsi && rs->fsi->has_side_effects);
    if (B.immediate) {
        flush(false);
        if (B.hold) B.lost = true;
        return;
    }
    if (B.cur && !same_state(B.cur, ps)) B.cur = NULL;
}

/* t, or t then t1 (a pair: eg_soft_bin_pair), drawn now by the submitting thread. */
static EG_ALWAYS_INLINE void raster_now(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t, const eg_soft_tri_t *t1)
{
    eg_soft_worker_t *w = &eg_soft_worker_main;
    /* No tile clear is pending here: an immediate draw flushed (eg_soft_bin_draw) and a triangle
     * too big for the arena follows flush(true); an unbinned pass's clears wait for this. */
    eg_soft_workers_wait();   /* after the started half, in submission order */
    if (B.hold) B.lost = true;   /* nothing may be drawn before the band exists */
    if (B.lost) return;
    if (fill_pending) wait_fills_before(ps, t, t1);
    w->clip_x0 = B.fb ? B.dmg_x0 : 0;
    w->clip_x1 = B.fb ? B.dmg_x1 : INT32_MAX;
    w->clip_y0 = B.fb ? B.band_y0 : 0;
    w->clip_y1 = B.fb ? B.band_y1 : INT32_MAX;
    if (!B.unbinned) B.stats.immediate++;
    if (w->clip_x0 < w->clip_x1 && w->clip_y0 < w->clip_y1) {
        if (t1) eg_soft_raster_pair(w, ps, t, t1);
        else eg_soft_raster_triangle(w, ps, t);
    }
    w->clip_x0 = w->clip_y0 = 0;
    w->clip_x1 = w->clip_y1 = INT32_MAX;
}

/* Bytes a triangle needs: record, state snapshot if none, and one chunk per tile (worst case). */
static size_t need_B(size_t rec_B, uint32_t ntiles)
{
    size_t n = round_up(rec_B) + (size_t)ntiles * round_up(sizeof(bin_chunk_t));
    if (!B.cur) n += round_up(sizeof(eg_soft_pass_state_t));
    return n;
}

static void append(uint32_t tile, const bin_tri_t *r)
{
    bin_tile_t *t = &B.tiles[tile];
    if (!t->tail || t->tail->n == CHUNK_N) {
        bin_chunk_t *c = arena_alloc(sizeof *c);   /* reserved by need_B: never NULL */
        c->next = NULL;
        c->n = 0;
        if (t->tail) t->tail->next = c; else t->head = c;
        t->tail = c;
    }
    t->tail->tri[t->tail->n++] = r;
}

/* ---- records (bin_one, bin_quad; inlined: per triangle or quad on the binning thread) ---- */

/* The inclusive tile ranges tb of pixel box sbox (within the scissor) clipped to the damage and
 * band, and their count; false when nothing of it is left. */
static EG_ALWAYS_INLINE bool tiles_of(const int64_t sbox[4], uint32_t tb[4], uint32_t *ntiles)
{
    const int64_t box[4] = { eg_max_i64(sbox[0], B.dmg_x0), eg_min_i64(sbox[1], B.dmg_x1),
                             eg_max_i64(sbox[2], B.band_y0), eg_min_i64(sbox[3], B.band_y1) };
    if (box[2] >= box[3] || box[0] >= box[1]) return false;
    tb[0] = (uint32_t)box[0] / B.tile_w;
    tb[1] = (uint32_t)(box[1] - 1) / B.tile_w;
    tb[2] = (uint32_t)box[2] / B.tile_px;
    tb[3] = (uint32_t)(box[3] - 1) / B.tile_px;
    *ntiles = (tb[1] - tb[0] + 1u) * (tb[3] - tb[2] + 1u);
    return true;
}

/* Room in the current half for a record of rec_B bytes in ntiles tiles, flushing it when full;
 * false when not even an empty half holds it (the caller draws it alone: nothing is pending). */
static EG_ALWAYS_INLINE bool room_for(size_t rec_B, uint32_t ntiles)
{
    if (need_B(rec_B, ntiles) <= B.cap_B - B.used_B) return true;
    flush(true);
    return !B.hold && need_B(rec_B, ntiles) <= B.cap_B - B.used_B;
}

/* A record of rec_B bytes for a draw with state ps (a snapshot of it taken when there is none),
 * its links cleared. The room is reserved (room_for). */
static EG_ALWAYS_INLINE bin_tri_t *record_new(const eg_soft_pass_state_t *ps, size_t rec_B)
{
    if (!B.cur) {
        eg_soft_pass_state_t *snap = arena_alloc(sizeof *snap);
        *snap = *ps;
        B.cur = snap;
    }
    bin_tri_t *r = arena_alloc(rec_B);
    r->ps = B.cur;
    r->mate = NULL;
    r->strip = r->quad = 0;
    return r;
}

/* r (tris triangles) into the bins of tiles tb. */
static EG_ALWAYS_INLINE void record_bin(const bin_tri_t *r, const uint32_t tb[4], uint32_t tris)
{
    for (uint32_t ty = tb[2]; ty <= tb[3]; ty++)
        for (uint32_t tx = tb[0]; tx <= tb[1]; tx++) append(ty * B.tiles_x + tx, r);
    B.pending++;
    B.stats.binned += tris;
}

/* EARLY START's test, once a triangle or a whole pair is binned: never between a pair's two
 * records, where the first would go to the workers while eg_soft_bin_pair still links it to
 * its mate (its "no flush between" test reads B.pending, which the hand-over resets). */
static void maybe_start_early(void)
{
    if (B.early_B && B.used_B >= B.early_B) start_early();
}

static bin_tri_t *store(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t, uint32_t nv, size_t rec_B,
                        const uint32_t tb[4], const eg_soft_setup_t *su, const int64_t box[4])
{
    bin_tri_t *r = record_new(ps, rec_B);
    uint32_t nvary = ps->rs->nvary;
    for (uint32_t v = 0; v < 3; v++) {
        r->x[v] = t->x[v]; r->y[v] = t->y[v]; r->z[v] = t->z[v]; r->invw[v] = t->invw[v];
    }
#if BIN_SETUP
    for (uint32_t i = 0; i < 3; i++) { r->A[i] = (int32_t)su->A[i]; r->B[i] = (int32_t)su->B[i]; r->C[i] = su->C[i]; }
    for (uint32_t i = 0; i < 4; i++) r->box[i] = (int32_t)box[i];
    r->inv_area2 = su->inv_area2;
    r->front = su->front;
#else
    (void)su;
    (void)box;
#endif
    r->is_polygon = t->is_polygon;
    r->nvary = (uint8_t)nvary;
    r->prov = 3;
    for (uint32_t v = 0; v < 3; v++)
        if (t->prov == t->v[v]) { r->prov = (uint8_t)v; break; }
    const eg_soft_vtx_t *src[4] = { t->v[0], t->v[1], t->v[2], t->prov };
    for (uint32_t v = 0; v < nv; v++)
        copy_vary(r->var + (size_t)v * VSTRIDE(nvary), src[v]->var, nvary);
    record_bin(r, tb, 1u);
    return r;
}

/* eg_soft_bin_triangle; the record, or NULL when none was stored in the current half. */
static bin_tri_t *bin_one(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t)
{
    if (B.lost) return NULL;
    int64_t sbox[4];
    eg_soft_setup_t su;
    uint32_t tb[4], ntiles;
    if (!eg_soft_tri_prepare(ps, t, &su, sbox) || !tiles_of(sbox, tb, &ntiles)) return NULL;
    bool own_prov = t->prov != t->v[0] && t->prov != t->v[1] && t->prov != t->v[2];
    uint32_t nv = own_prov ? 4u : 3u;
    size_t rec_B = sizeof(bin_tri_t) + (size_t)nv * VSTRIDE(ps->rs->nvary) * sizeof(float);
    if (!room_for(rec_B, ntiles)) {
        raster_now(ps, t, NULL);   /* bigger than the whole arena: drawn alone */
        return NULL;
    }
    return store(ps, t, nv, rec_B, tb, &su, sbox);
}

void eg_soft_bin_triangle(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t)
{
    if (B.immediate) { raster_now(ps, t, NULL); return; }
    (void)bin_one(ps, t);
    maybe_start_early();
}

/* ---- quad records ----
 * A strip pair (a UI quad: soft_draw.c pairs only for span or rect pipelines) is binned as one
 * record: its 4 vertices once (two records held 6 and two edge set-ups), one reference per tile,
 * no set-up at binning (the pair's path sets it up per tile it is drawn in, or finds it in the
 * quad memo, as unbinned), and the tile draws it with eg_soft_raster_pair, the unbinned call, in
 * the worker's rectangle. Its tiles: those of the 4 snapped vertices' box within the scissor, as
 * tri_setup_ bounds each half (so never fewer); a culled or empty half draws nothing there. */

/* t0, t1 are a strip's (v0 v1 v2) (v1 v3 v2) with the shared vertices' window values equal and
 * each provoking vertex one of its own; coordinates within twice the guard band (also false for
 * NaN) */
static bool quad_shape(const eg_soft_tri_t *t0, const eg_soft_tri_t *t1)
{
    if (t1->v[0] != t0->v[1] || t1->v[2] != t0->v[2] || t0->is_polygon != t1->is_polygon) return false;
    uint32_t a[8], b[8];
    const float sa[8] = { t0->x[1], t0->y[1], t0->z[1], t0->invw[1], t0->x[2], t0->y[2], t0->z[2], t0->invw[2] };
    const float sb[8] = { t1->x[0], t1->y[0], t1->z[0], t1->invw[0], t1->x[2], t1->y[2], t1->z[2], t1->invw[2] };
    __builtin_memcpy(a, sa, sizeof a);
    __builtin_memcpy(b, sb, sizeof b);
    for (uint32_t i = 0; i < 8u; i++)
        if (a[i] != b[i]) return false;
    bool p0 = t0->prov == t0->v[0] || t0->prov == t0->v[1] || t0->prov == t0->v[2];
    bool p1 = t1->prov == t1->v[0] || t1->prov == t1->v[1] || t1->prov == t1->v[2];
    const float lim = 2.0f * EG_SOFT_GUARD_PX;
    for (uint32_t v = 0; v < 3u; v++)
        if (!(t0->x[v] >= -lim && t0->x[v] <= lim && t0->y[v] >= -lim && t0->y[v] <= lim)) return false;
    return p0 && p1 && t1->x[1] >= -lim && t1->x[1] <= lim && t1->y[1] >= -lim && t1->y[1] <= lim;
}

static void bin_quad(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t0, const eg_soft_tri_t *t1)
{
    if (B.lost) return;
    const float fx[4] = { t0->x[0], t0->x[1], t0->x[2], t1->x[1] }, fy[4] = { t0->y[0], t0->y[1], t0->y[2], t1->y[1] };
    int32_t minX = INT32_MAX, maxX = INT32_MIN, minY = INT32_MAX, maxY = INT32_MIN;
    for (uint32_t v = 0; v < 4u; v++) {
        int32_t X = eg_soft_snap(fx[v]), Y = eg_soft_snap(fy[v]);
        minX = X < minX ? X : minX;
        maxX = X > maxX ? X : maxX;
        minY = Y < minY ? Y : minY;
        maxY = Y > maxY ? Y : maxY;
    }
    /* the scissored box as tri_setup_ makes it (the two halves' union) */
    const int64_t sbox[4] = { eg_max_i64(minX >> EG_SOFT_SUBPIX_BITS, ps->sc_x0),
                              eg_min_i64((maxX >> EG_SOFT_SUBPIX_BITS) + 1, ps->sc_x1),
                              eg_max_i64(minY >> EG_SOFT_SUBPIX_BITS, ps->sc_y0),
                              eg_min_i64((maxY >> EG_SOFT_SUBPIX_BITS) + 1, ps->sc_y1) };
    uint32_t tb[4], ntiles;
    if (!tiles_of(sbox, tb, &ntiles)) return;   /* (an empty scissored box stays empty) */
    const uint32_t nvary = ps->rs->nvary, st = VSTRIDE(nvary);
    size_t rec_B = sizeof(bin_tri_t) + (4u + 4u * (size_t)st) * sizeof(float);
    if (!room_for(rec_B, ntiles)) {
        raster_now(ps, t0, t1);   /* bigger than the whole arena: drawn alone */
        return;
    }
    bin_tri_t *r = record_new(ps, rec_B);
    r->quad = 1;
    for (uint32_t v = 0; v < 3; v++) {
        r->x[v] = t0->x[v]; r->y[v] = t0->y[v]; r->z[v] = t0->z[v]; r->invw[v] = t0->invw[v];
    }
    r->var[0] = t1->x[1]; r->var[1] = t1->y[1]; r->var[2] = t1->z[1]; r->var[3] = t1->invw[1];
    r->is_polygon = t0->is_polygon;
    r->nvary = (uint8_t)nvary;
    const eg_soft_vtx_t *const src[4] = { t0->v[0], t0->v[1], t0->v[2], t1->v[1] };
    r->prov = t0->prov == src[0] ? 0u : t0->prov == src[1] ? 1u : 2u;
    r->prov1 = t1->prov == src[1] ? 1u : t1->prov == src[3] ? 3u : 2u;
    for (uint32_t v = 0; v < 4u; v++) copy_vary(r->var + 4 + (size_t)v * st, src[v]->var, nvary);
    B.stats.quads++;
    record_bin(r, tb, 2u);
}

void eg_soft_bin_pair(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t0, const eg_soft_tri_t *t1)
{
    if (B.immediate) { raster_now(ps, t0, t1); return; }
    if (eg_soft_bin_quads_on && quad_shape(t0, t1)) {
        bin_quad(ps, t0, t1);
    } else {
        bin_tri_t *r0 = bin_one(ps, t0);
        uint32_t pending = B.pending;
        bin_tri_t *r1 = bin_one(ps, t1);
        /* both in the half being binned (no flush between: pending went up by one), which no
         * worker reads yet: r0's mate may be set */
        if (r0 && r1 && B.pending == pending + 1u) {
            r0->mate = r1;
            r0->strip = t1->v[0] == t0->v[1] && t1->v[2] == t0->v[2];
        }
    }
    maybe_start_early();
}

/* raster_now of each pair in order with its set-up once (vtxquad): the wait, the hold and lost
 * tests and the clip rectangle are the same for every pair of the run, since rasterizing starts no
 * worker and changes neither B nor the main worker's clip (~45 instructions a quad on the UI row).
 * Binned passes bin each pair as eg_soft_bin_pair. */
void eg_soft_bin_pairs(const eg_soft_pass_state_t *ps, const eg_soft_tri_t (*t)[2], uint32_t n)
{
    if (!B.immediate) {
        for (uint32_t k = 0; k < n; k++) eg_soft_bin_pair(ps, &t[k][0], &t[k][1]);
        return;
    }
    eg_soft_worker_t *w = &eg_soft_worker_main;
    eg_soft_workers_wait();
    if (B.hold) B.lost = true;
    if (B.lost) return;
    if (fill_pending && n) wait_fills_before(ps, &t[0][0], &t[0][1]);
    w->clip_x0 = B.fb ? B.dmg_x0 : 0;
    w->clip_x1 = B.fb ? B.dmg_x1 : INT32_MAX;
    w->clip_y0 = B.fb ? B.band_y0 : 0;
    w->clip_y1 = B.fb ? B.band_y1 : INT32_MAX;
    if (!B.unbinned) B.stats.immediate += n;
    if (w->clip_x0 < w->clip_x1 && w->clip_y0 < w->clip_y1)
        for (uint32_t k = 0; k < n; k++) eg_soft_raster_pair(w, ps, &t[k][0], &t[k][1]);
    w->clip_x0 = w->clip_y0 = 0;
    w->clip_x1 = w->clip_y1 = INT32_MAX;
}

#endif /* EMGPU_HAL_SOFT */
