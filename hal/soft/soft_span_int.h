/* hal/soft span path internals shared by soft_span.c and soft_span_store.c (not a public header). */
#ifndef EG_SOFT_SPAN_INT_H
#define EG_SOFT_SPAN_INT_H

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"

#define SPAN_MAX_VALS 12u          /* varyings one span-class program can read: 2 + 4 + 4 */
#define SPAN_NO_VAL   0xffu
#define ROWC_RGBA8    1u           /* eg_soft_span_pipe.rowconst */
#define ROWC_BGRA8    2u
#define ROWC_565      3u
#define ROWC_MIN_PX   16           /* shorter rows: the proof costs more than the chunk */
#define ROWC_MIN_PX_FUSED 128      /* the same for the fused kernels (measured: UI row 2 at 64 px tiles) */
#define ROWQ_MIN_PX_FUSED 32       /* the fused kernels' rows tried by eg_soft_span_row_quick alone: its
                                    * ~270 instructions against ~12 a computed pixel (bgfill) */
#define ROWC_MAX_MISSES 4u         /* failed row proofs in a row before a triangle stops trying */

typedef struct eg_soft_span_pipe eg_soft_span_pipe_t;

/** Writes pixels [0, n) of a row segment starting at px from the shaded colors (lanes 0..n-1);
 *  returns how many it left untouched because blending could not change them. */
typedef uint32_t (*span_store_fn)(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c);

static inline int64_t floor_div(int64_t n, int64_t d)   /* d > 0 */
{
    return n >= 0 ? n / d : -((-n + d - 1) / d);
}

/* floor_div's quotient and the remainder n - q d (0 <= r < d) from one truncating division:
 * the truncated remainder has n's sign, so a negative one means q is one less (the same
 * integers as floor_div and the multiply-back, with fewer instructions per edge). */
static inline void floor_divmod(int64_t n, int64_t d, int64_t *q, int64_t *r)   /* d > 0 */
{
    int64_t t = n / d, m = n % d;
    if (m < 0) { t--; m += d; }
    *q = t;
    *r = m;
}

/* Covered pixel x range of each row: per edge, A (256 x + 128) + B Y + C >= 0 solved for x, with
 * Y the row's centre in subpixels. With a = 256 A and k = B Y + C + 128 A: a > 0 gives
 * x >= ceil(-k / a) = -floor(k / a), a < 0 gives x <= floor(k / -a), a = 0 needs k >= 0. The
 * floor quotients are stepped from row to row in exact integer arithmetic (quotient and
 * remainder; k grows by 256 B per row), so no division runs per row and every bound equals the
 * one solved from scratch. */
typedef struct edge_walk {
    int64_t d, q, r, dq, dr;       /* d = |a|; k = q d + r, 0 <= r < d; per row k += dq d + dr */
    int64_t k, dk;                 /* a = 0: k itself */
    int kind;                      /* sign of a */
} edge_walk_t;

static inline void edges_init(const eg_soft_setup_t *s, int64_t Y, edge_walk_t e[3])
{
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 3   /* constant edge indices (GCC -O2 kept the loop) */
#endif
    for (uint32_t i = 0; i < 3u; i++) {
        int64_t a = s->A[i] * EG_SOFT_SUBPIX, k = s->B[i] * Y + s->C[i] + s->A[i] * (EG_SOFT_SUBPIX / 2);
        int64_t dk = s->B[i] * EG_SOFT_SUBPIX;
        e[i].kind = a > 0 ? 1 : a < 0 ? -1 : 0;
        e[i].k = k;
        e[i].dk = dk;
        e[i].d = 1;
        e[i].q = e[i].r = e[i].dq = e[i].dr = 0;
        if (!a) continue;
        e[i].d = a > 0 ? a : -a;
        floor_divmod(k, e[i].d, &e[i].q, &e[i].r);
        floor_divmod(dk, e[i].d, &e[i].dq, &e[i].dr);
    }
}

static inline void edges_range(const edge_walk_t e[3], int64_t *x0, int64_t *x1)
{
    for (uint32_t i = 0; i < 3u; i++) {
        if (e[i].kind == 0) {
            if (e[i].k < 0) *x1 = *x0;
        } else if (e[i].kind > 0) {
            if (-e[i].q > *x0) *x0 = -e[i].q;
        } else {
            if (e[i].q + 1 < *x1) *x1 = e[i].q + 1;
        }
    }
}

static inline void edges_step(edge_walk_t e[3])
{
    for (uint32_t i = 0; i < 3u; i++) {
        if (e[i].kind == 0) { e[i].k += e[i].dk; continue; }
        e[i].q += e[i].dq;
        e[i].r += e[i].dr;
        if (e[i].r >= e[i].d) { e[i].r -= e[i].d; e[i].q++; }
    }
}

/* ---- fused rows (soft_span_fused.c) ---- */

#define FZ_CONST 0u                /* span_fill_t.mode: the channel is one value (bits) */
#define FZ_LIN   1u                /* a0 + l1 d1 + l2 d2 (linear weights) */
#define FZ_PERSP 2u                /* a0 + p1 d1 + p2 d2 (perspective weights) */
#define FZ_MODES_ANY 0u            /* span_fill_t.modes: any channel modes (tested per group) */
#define FZ_MODES_P   1u            /* all 4 channels FZ_PERSP (Gouraud colors) */
#define FZ_MODES_P3  2u            /* R, G, B FZ_PERSP and A FZ_CONST (opaque Gouraud colors) */
#define FZ_MODES_TEX 3u            /* a texture class (fused[w][FZ_MODES_TEX]): R8 nearest only */
#define FZ_MODES_TEXC 4u           /* FZ_MODES_TEX, glyphs: every channel's value FZ_CONST, the texel's R
                                    * times A's value the only texel use (tex = 0, 0, 0, 1; mul[3]) */
#define FZ_MODES_N 5u

struct span_tri;

/* One copy-class triangle for a fused kernel: the per-triangle constants (every lane's values
 * come from these with interp_chunk's operations in its order), the rows, and the counters. */
/** The pixel set whose corner pixels are those of the box [px0, px1) x [py0, py1) (what
 *  eg_soft_affine_corners reads: one error bound for the whole box, soft_span_shift.c and
 *  eg_soft_span_row_quick). */
static inline eg_soft_pxset_t span_box_corners(int64_t px0, int64_t px1, int64_t py0, int64_t py1)
{
    eg_soft_pxset_t p;
    p.bx0 = px0 & ~(int64_t)3; p.fx0 = (uint32_t)(px0 & 3);
    p.bx1 = (px1 - 1) & ~(int64_t)3; p.fx1 = (uint32_t)((px1 - 1) & 3);
    p.by0 = py0 & ~(int64_t)3; p.fy0 = (uint32_t)(py0 & 3);
    p.by1 = (py1 - 1) & ~(int64_t)3; p.fy1 = (uint32_t)((py1 - 1) & 3);
    return p;
}

/** eg_soft_span_row_quick's per-triangle part (span_rowq_init before the triangle's first row). */
typedef struct span_rowq {
    int32_t state;                 /* 0: not prepared, 1: ready, -1: not usable (the per-row proof then) */
    uint32_t nch;                  /* channels bounded per row: ch[0, nch) */
    uint8_t ch[4];
    uint32_t code[4];              /* the other channels' codes (constants, fixed values, RGB565 alpha) */
    double a0[4], d1[4], d2[4], err[4];
    double inv;
    int64_t A1, B1, C1, A2, B2, C2;
    int64_t box[4];                /* the triangle's box [px0, px1) x [py0, py1) the bound covers */
} span_rowq_t;

static inline void span_rowq_init(span_rowq_t *q, int64_t px0, int64_t px1, int64_t py0, int64_t py1)
{
    q->state = 0;
    q->box[0] = px0; q->box[1] = px1; q->box[2] = py0; q->box[3] = py1;
}

typedef struct span_fill {
    const eg_soft_frag_t *f;
    const struct span_tri *k;
    float fxd1[8], fxd2[8];        /* fx * d1x, fx * d2x, fx = lane & 3 (the lane's x in its block) */
    float d1y, d2y, iw0, iw1, iw2, inv_area2;
    int64_t A1, A2, B1, B2, C1, C2;
    float a0[4], dv1[4], dv2[4];   /* per output channel */
    uint32_t kbits[4];             /* FZ_CONST channels: the value's bits */
    uint8_t mode[4];
    uint8_t modes;                 /* FZ_MODES_*: which kernel variant */
    bool persp;                    /* a channel is FZ_PERSP */
    /* R8 nearest texture (FZ_MODES_TEX): tex[ch] = 1 + the sampled component a channel takes
     * (0: none), times its value (a0, dv*, mode) when mul[ch] (mul_first: as the left operand);
     * the coordinates are values like the channels' */
    uint8_t tex[4];
    bool mul[4], mul_first[4];
    float uv_a0[2], uv_dv1[2], uv_dv2[2];
    uint8_t uv_mode[2];
    const uint8_t *tbase;          /* texel (0, 0) */
    int32_t tw, th;
    uint32_t tpitch_B;
    edge_walk_t ew[3];             /* at row py0 */
    int64_t px0, px1, py0, py1, rows_min;
    int64_t rows_min_q;            /* rows of [rows_min_q, rows_min) px: eg_soft_span_row_quick only */
    bool try_rows;                 /* constant rows first (eg_soft_span_row_const) */
    bool fixed_row;                /* every row is fixed_px (eg_soft_span_fixed_pixel) */
    uint32_t fixed_px;             /* the stored pixel, little-endian bytes (2 or 4) */
    uint8_t *base;                 /* the target's pixel (0, 0) */
    size_t pitch_B;
    int64_t own_x0, own_x1;        /* the worker's clip columns (its tile: no other thread writes there),
                                    * where FZ_(glyph) may store a group's unchanged pixels back whole */
    uint32_t filled, skipped, rows;   /* out: span_px, span_skip_px, span_row_px */
    bool sep;                      /* out: FZ_(glyph2) took separable texel indices (eg_soft_span_pair_sep_quads) */
    bool sep_rect;                 /* out: ... and FZ_(sep_runs)' rows (eg_soft_span_pair_rect_quads) */
    const void *sep_ref;           /* in/out, pair kernels: FZ_(sep_get)'s memo entry (soft_span_glyph.inc) */
    uint64_t sep_gen;
    span_rowq_t rq;                /* try_rows: eg_soft_span_row_quick's bound (here, not in the kernels' frames:
                                    * lowered vector kernels on MCUs spill every extra local) */
} span_fill_t;

/** Glyph quads' triangles (FZ_MODES_TEXC): when c's edges (c->ew at row c->py0) leave one edge
 *  whose bound moves from row to row, folds the others into c's box (an edge with a = 0 keeps
 *  an interval of rows, k growing by dk per row; one with a != 0 and dq = dr = 0 bounds x by the
 *  same -q or q + 1 on every row: edges_range's bounds), moves that edge to c->ew[0], stepped to
 *  the new first row, and returns true; else changes nothing. */
static inline bool span_edges_one(span_fill_t *c)
{
    int64_t x0 = c->px0, x1 = c->px1, y0 = c->py0, y1 = c->py1;
    int m = -1;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 3
#endif
    for (int i = 0; i < 3; i++) {
        const edge_walk_t *e = &c->ew[i];
        if (e->kind == 0) {   /* rows j = y - py0 with k + j dk >= 0 */
            if (e->dk == 0) {
                if (e->k < 0) y1 = y0;
            } else if (e->dk > 0) {
                int64_t j = -floor_div(e->k, e->dk);
                if (c->py0 + j > y0) y0 = c->py0 + j;
            } else {
                int64_t j = floor_div(e->k, -e->dk);
                if (c->py0 + j + 1 < y1) y1 = c->py0 + j + 1;
            }
        } else if (e->dq == 0 && e->dr == 0) {
            if (e->kind > 0) { if (-e->q > x0) x0 = -e->q; }
            else if (e->q + 1 < x1) x1 = e->q + 1;
        } else {
            if (m >= 0) return false;
            m = i;
        }
    }
    if (m < 0) return false;
    edge_walk_t e = c->ew[m];
    int64_t j = y0 - c->py0;   /* k = q d + r grows by j (dq d + dr) */
    if (j > 0) {
        int64_t r = e.r + j * e.dr;
        e.q += j * e.dq + r / e.d;
        e.r = r % e.d;
    }
    c->ew[0] = e;
    c->px0 = x0; c->px1 = x1; c->py0 = y0; c->py1 = y1 > y0 ? y1 : y0;
    return true;
}

/** edges_init at row c->py0 of s's edges then span_edges_one, in one pass that divides only
 *  where span_edges_one reads a quotient (pairset): an edge with A = 0 keeps k and dk (no
 *  division), one with B = 0 (dk = 0: dq = dr = 0) needs only its row's quotient, and the moving
 *  edge (A, B != 0) is solved at the new first row y0 directly (k + (y0 - py0) dk: the integer
 *  span_edges_one steps to). Returns span_edges_one's answer with its c->ew[0] and box; true
 *  leaves ew[1], ew[2] as edges that bound nothing (kind 0, k = dk = 0: their bounds are in the
 *  box, and the TEXC kernels read ew[0] only); false changes nothing (the caller runs
 *  edges_init). edges_init + span_edges_one were ~210 instructions a glyph triangle. rest
 *  false (span_edges_one_init_, the glyph pair's quad_tri): ew[1], ew[2] are left as they are,
 *  for FZ_(glyph2), which reads ew[0] only; mo (if not NULL) gets the moving edge's index. */
static EG_ALWAYS_INLINE bool span_edges_one_init_(const eg_soft_setup_t *s, span_fill_t *c, bool rest, int *mo)
{
    const int64_t Y = c->py0 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    int64_t x0 = c->px0, x1 = c->px1, y0 = c->py0, y1 = c->py1;
    int m = -1;
    int64_t Am = 0, km = 0, dkm = 0;   /* the moving edge's A, k, dk (kept: not loaded and multiplied again) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 3
#endif
    for (int i = 0; i < 3; i++) {
        const int64_t A = s->A[i], B = s->B[i];
        const int64_t k = B * Y + s->C[i] + A * (EG_SOFT_SUBPIX / 2), dk = B * EG_SOFT_SUBPIX;
        if (A == 0) {   /* span_edges_one's kind 0 */
            if (dk == 0) {
                if (k < 0) y1 = y0;
            } else if (dk > 0) {
                int64_t j = -floor_div(k, dk);
                if (c->py0 + j > y0) y0 = c->py0 + j;
            } else {
                int64_t j = floor_div(k, -dk);
                if (c->py0 + j + 1 < y1) y1 = c->py0 + j + 1;
            }
        } else if (B == 0) {   /* dq = dr = 0: the same bound every row */
            if (A > 0) { int64_t q = floor_div(k, A * EG_SOFT_SUBPIX); if (-q > x0) x0 = -q; }
            else { int64_t q = floor_div(k, -A * EG_SOFT_SUBPIX); if (q + 1 < x1) x1 = q + 1; }
        } else {
            if (m >= 0) return false;
            m = i;
            Am = A; km = k; dkm = dk;
        }
    }
    if (m < 0) return false;
    if (mo) *mo = m;
    edge_walk_t *e = &c->ew[0];
    const int64_t d = Am > 0 ? Am * EG_SOFT_SUBPIX : -Am * EG_SOFT_SUBPIX;
    e->kind = Am > 0 ? 1 : -1;
    e->d = d;
    e->k = km;   /* edges_init's (row py0) */
    e->dk = dkm;
    floor_divmod(km + (y0 - c->py0) * dkm, d, &e->q, &e->r);
    floor_divmod(dkm, d, &e->dq, &e->dr);
    for (int i = 1; i < 3 && rest; i++) {
        c->ew[i].kind = 0;
        c->ew[i].k = c->ew[i].dk = 0;
        c->ew[i].d = 1;
        c->ew[i].q = c->ew[i].r = c->ew[i].dq = c->ew[i].dr = 0;
    }
    c->px0 = x0; c->px1 = x1; c->py0 = y0; c->py1 = y1 > y0 ? y1 : y0;
    return true;
}
static inline bool span_edges_one_init(const eg_soft_setup_t *s, span_fill_t *c) { return span_edges_one_init_(s, c, true, NULL); }

/** Fills c's triangle row by row (after eg_soft_span_fused_tri). */
typedef void (*span_tri_fn)(const eg_soft_span_pipe_t *sp, span_fill_t *c);

/** Fills two glyph triangles a, b (b after a in draw order) in one row walk (soft_span_glyph.inc
 *  FZ_(glyph2); eg_soft_span_pair decides when). */
typedef void (*span_pair_fn)(const eg_soft_span_pipe_t *sp, span_fill_t *a, span_fill_t *b);

/** soft_span_glyph1.c: the blended glyph rows (FZ_MODES_TEXC, one moving edge in c->ew[0]) one
 *  pixel at a time, for targets whose vectors are not native registers (FZ_NATIVE 0), where
 *  eg_soft_span_fused_pick takes it; NULL for a target format it does not store. */
span_tri_fn eg_soft_span_glyph1_fn(WGPUTextureFormat target);
/** Test hook: eg_soft_span_fused_pick takes eg_soft_span_glyph1_fn on every board (and no pair
 *  kernel), so hosts test the Cortex-M glyph kernel against the general path. */
extern bool eg_soft_span_glyph1_on;
/** Pixels eg_soft_span_glyph1_fn's kernels filled on the submitting thread (tests: it ran). */
extern uint32_t eg_soft_span_glyph1_px;

struct eg_soft_span_pipe {
    eg_soft_span_class_t cls;
    span_store_fn store;
    span_tri_fn fused[2][FZ_MODES_N];    /* [4 lanes, widest the CPU runs][FZ_MODES_*] (NULL: none) */
    span_tri_fn copy[2][3];              /* texel copy rows [width][texcopy kind - 1] (NULL: chunk path) */
    span_pair_fn pair[2];                /* [width] blended glyph quads (NULL: none; eg_soft_span_pair) */
    bool sa_c, inv_c, sa_a, inv_a;       /* src factor SrcAlpha (else One), dst OneMinusSrcAlpha (else Zero) */
    bool any_persp;
    bool texcopy;                        /* output = the texel, no blend: candidate for texel_copy */
    bool skip_clear;                     /* blend leaves a pixel whose source alpha is 0 unchanged */
    uint8_t rowconst;                    /* no texture, no blend: ROWC_* of the target (row_const) */
    WGPUTextureFormat target;
    uint32_t nval;
    uint8_t vary[SPAN_MAX_VALS];         /* packed varying index (raster pipeline) of each value */
    uint8_t interp[SPAN_MAX_VALS];
    uint8_t val_of_slot[4u * EG_SOFT_MAX_LOCATIONS];
    /* eg_soft_span_fused_tri's per-channel inputs that depend only on the class, set by
     * eg_soft_span_fused_pick: span_fill_t's tex / mul / mul_first, the value a channel takes
     * (SPAN_NO_VAL: the constant fz_bits) */
    uint8_t fz_tex[4], fz_val[4];
    bool fz_mul[4], fz_mul_first[4];
    uint32_t fz_bits[4];
    /* the TEXC shape by class alone (no colour texel component, alpha's the R texel times a
     * value) and the values fz_val names: a texture triangle is FZ_MODES_TEXC exactly when
     * fz_glyph and every fz_chan_vals value is fixed (eg_soft_span_fused_tri's glyph branch) */
    bool fz_glyph;
    uint32_t fz_chan_vals;
    /* fz_glyph with the colour channels R, G, B, A taking varyings fz_col_j .. fz_col_j + 3, all
     * interpolated (not flat): the glyph quad's set-up tests them as one vector (SPAN_NO_VAL:
     * not so, one by one) */
    uint8_t fz_col_j;
    uint32_t out_vals;                   /* the values the outputs read (eg_soft_span_all_fixed) */
    /* the glyph quad memo's key (soft_span.c QUAD MEMO): the varyings the quad's set-up reads lie
     * in var[qm_j, qm_j + 8) and none is flat (SPAN_NO_VAL: not so, or not a glyph class: no
     * memo), those of qm_vmask (bit i: var[qm_j + i]) at the three vertices; qm_serial: this
     * pipeline's number, never reused (the key's pipeline) */
    uint8_t qm_j, qm_vmask;
    uint64_t qm_serial;
    uint32_t qm_vm[8];                   /* qm_vmask as lanes (all ones: read) */
};

/* Per-triangle constants of the interpolation (soft_raster_shade.c barycentrics). */
typedef struct span_tri {
    float d1x, d1y, d2x, d2y, iw0, iw1, iw2;
    float a0[SPAN_MAX_VALS], dv1[SPAN_MAX_VALS], dv2[SPAN_MAX_VALS];
    uint32_t fixed;                /* values whose lanes hold a0 for the whole triangle (span_fixed) */
    bool persp;                    /* a perspective value is interpolated per chunk */
} span_tri_t;

static inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

/* ---- soft_span_store.c ---- */

#define SHARED_NO 0xffffffffu
/** skip_clear pipelines: lanes of source alpha <= 0 kept, the others sharing one source color
 *  blended once per run of equal stored pixels; the lanes left untouched, or SHARED_NO (nothing
 *  written) when their colors differ. bpp 2: RGB565, 4: 8-bit (R and B swapped when bgra). */
uint32_t eg_soft_span_blend_shared(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c,
                                   uint32_t bpp, bool bgra);
/** Every 8/6/5-bit code converts back to itself through the sampler's tables and the stores. */
bool eg_soft_span_unorm_round_trips(void);
/** The blend stores' unpack then pack of every stored code of fmt gives the code back. */
bool eg_soft_span_dst_round_trips(WGPUTextureFormat fmt);
/** Texel format -> target format pairs the texel copy handles (0: none). */
uint32_t eg_soft_span_texcopy_kind(WGPUTextureFormat target, WGPUTextureFormat texel);
/** soft_span_shift.c: a copy-class triangle (kind: eg_soft_span_texcopy_kind) whose texel
 *  indices are provably the pixel's coordinates plus two constants over its box [px0, px1) x
 *  [py0, py1): its rows moved whole (the bytes of the per-pixel copy) from py0 up to the row it
 *  returns (py1: all; py0: nothing done); the rows from there are the caller's. */
int64_t eg_soft_span_shift(eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, const eg_soft_sample2d_t *s2,
                           uint32_t kind, int64_t px0, int64_t px1, int64_t py0, int64_t py1);
/** Test hook: false takes the per-pixel copy always. */
extern bool eg_soft_span_shift_on;
/** Pixels eg_soft_span_shift moved on the submitting thread (tests: it ran). */
extern uint32_t eg_soft_span_shift_px;
/** Row y's pixels [x0, x1) at px stored as one pixel when provably constant; false: nothing done. */
bool eg_soft_span_row_const(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, int64_t x0,
                            int64_t x1, int64_t y, uint8_t *px);
/** eg_soft_span_row_const's bytes from one error bound for the whole box [px0, px1) x [py0,
 *  py1) of the triangle (prepared in q at the first call) and the exact affine values at the
 *  row's two ends: ~100 instructions a row instead of ~1.6 k of bounds per row. False: not
 *  shown, and always for boxes of fewer than ROWQ_MIN_ROWS rows (the preparation would not pay);
 *  the callers then try eg_soft_span_row_const, whose per-row bound is tighter and which, where
 *  a row's pixels compute bit-identical values, settles rows whose exact value sits on a code's
 *  rounding boundary (UI gradients at half-code steps), which no error bound can. */
#define ROWQ_MIN_ROWS 8
bool eg_soft_span_row_quick(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, span_rowq_t *q,
                            int64_t x0, int64_t x1, int64_t y, uint8_t *px);
/** eg_soft_span_row_quick and eg_soft_span_row_const without the store: true with the row's one
 *  pixel in *pixel (eg_soft_span_fixed_pixel's form, a little-endian word), for kernels that
 *  store it with their own vector fill. */
bool eg_soft_span_row_quick_pixel(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k,
                                  span_rowq_t *q, int64_t x0, int64_t x1, int64_t y, uint32_t *pixel);
bool eg_soft_span_row_const_pixel(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, int64_t x0,
                                  int64_t x1, int64_t y, uint32_t *pixel);
/** Pixels eg_soft_span_row_quick stored on the submitting thread (tests: it ran). */
extern uint32_t eg_soft_span_row_quick_px;
/** eg_soft_span_row_quick_pixel that may leave one channel open (monorow): true with *open -1
 *  (every code shown: *pixel is the row's pixel, counted as row_quick's) or with *open the one
 *  channel (R 0 .. A 3) the bound leaves between codes, *pixel the others' codes and 0 in its
 *  bits; false with two or more open or no bound. For kernels that then compute that channel
 *  alone per pixel (FZ_(open_row)). */
bool eg_soft_span_row_quick_open(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k,
                                 span_rowq_t *q, int64_t x0, int64_t x1, int64_t y, uint32_t *pixel, int *open);
/** Pixels FZ_(open_row) stored on the submitting thread (tests: it ran). */
extern uint32_t eg_soft_span_row_open_px;
/** Whether the fused kernels have FZ_(open_row) (native little-endian vectors; soft_span_fused.c). */
bool eg_soft_span_open_rows_on(void);
/** Whether every value the outputs read is fixed for k's triangle: then every row is constant. */
static inline bool eg_soft_span_all_fixed(const eg_soft_span_pipe_t *sp, const span_tri_t *k)
{
    /* sp->out_vals: bit val_of_slot[src] of each output component whose source is neither a
     * constant nor the texel (the per-component test was ~40 instructions a triangle) */
    return (k->fixed & sp->out_vals) == sp->out_vals;
}
/** The pixel every row of a rowconst triangle of fixed values stores (eg_soft_span_all_fixed:
 *  eg_soft_span_row_const's bytes then hold for any row), as a little-endian word. */
uint32_t eg_soft_span_fixed_pixel(const eg_soft_span_pipe_t *sp, const span_tri_t *k);
/** Whether constant rows are worth trying on k's triangle (a heuristic: the proof decides). */
bool eg_soft_span_rows_promising(const eg_soft_span_pipe_t *sp, const span_tri_t *k, int64_t width);
/* Values the same in every stored lane of the triangle (k->fixed, set by eg_soft_span_triangle
 * as it fills k's values; the chunk path sets their lanes once instead of per chunk): flat
 * ones, and ones equal at the three vertices (a0 finite, nonzero) when every covered pixel's
 * weights are provably finite, since then a0 + w1 * 0 + w2 * 0 is a0 exactly. They are when
 * 1/w = c (span path) lies in [2^-20, 2^20] and the per-pixel gradients of the linear weights
 * are at most 1024 (span_fixed_safe): a covered pixel's exact weights lie in [0, 1], the float
 * ones (from a block origin at most 3 px away, magnitudes <= 1 + 6 * 1024) are off by < 0.005,
 * so w = c (l0 + l1 + l2) is within 0.1% of c and r = 1 / w, p = q r are finite. Lanes past a
 * chunk's covered pixels are never stored. (Once eg_soft_span_fixed in soft_span_store.c, a
 * second pass over the values: ~100 instructions a triangle.) */
static EG_ALWAYS_INLINE bool span_fixed_safe_of(float iw0, float d1x, float d1y, float d2x, float d2y)
{
    /* |x| <= g as fabsf (false for NaN, as both compares were), the tests combined without
     * branches: an out-of-line call of ~28 instructions a triangle before (pairset) */
    const float g = 1024.0f, a1x = __builtin_fabsf(d1x), a1y = __builtin_fabsf(d1y);
    const float a2x = __builtin_fabsf(d2x), a2y = __builtin_fabsf(d2y);
    return (iw0 >= 0x1p-20f) & (iw0 <= 0x1p20f) & (a1x <= g) & (a1y <= g) & (a2x <= g) & (a2y <= g);
}
static EG_ALWAYS_INLINE bool span_fixed_safe(const span_tri_t *k)
{
    return span_fixed_safe_of(k->iw0, k->d1x, k->d1y, k->d2x, k->d2y);
}
/* dv1 == 0 && dv2 == 0 as the bits (+-0 are the floats equal to 0; a NaN's bits are not), and
 * the tests combined without branches (the float compares' branches were ~17 instructions a
 * value). */
static inline bool span_value_fixed(uint32_t interp, bool safe, float a0, float dv1, float dv2)
{
    union { float f; uint32_t u; } a = { a0 }, d1 = { dv1 }, d2 = { dv2 };
    bool zero_d = ((d1.u | d2.u) & 0x7fffffffu) == 0u;
    bool finite_nonzero = (a.u & 0x7f800000u) != 0x7f800000u && (a.u & 0x7fffffffu) != 0u;
    return (interp == EG_SOFT_INTERP_FLAT) | (safe & zero_d & finite_nonzero);
}

/* ---- soft_span_fused.c ---- */

/** Sets sp->fused for sp's class, target and blend (at pipeline creation). */
void eg_soft_span_fused_pick(eg_soft_span_pipe_t *sp, bool blend);
/** The per-triangle constants of c from k (k->fixed set) and c->f's setup; for a
 *  texture class s2 is the prepared R8 nearest texture (else NULL). */
void eg_soft_span_fused_tri(const eg_soft_span_pipe_t *sp, const span_tri_t *k, const eg_soft_sample2d_t *s2,
                            span_fill_t *c);

#endif /* EG_SOFT_SPAN_INT_H */
