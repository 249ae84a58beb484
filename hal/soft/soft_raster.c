/* hal/soft triangle rasterizer: fixed-point setup and the 4x4 block walk.
 *
 * Edge functions (Pineda): for the edge a -> b, E(p) = (b.x - a.x)(p.y - a.y) - (b.y - a.y)(p.x - a.x)
 * in window coordinates snapped to 1/256 px, evaluated exactly in 64-bit integers, so coverage
 * is the same bytes on every CPU. Edges are oriented so the interior is E > 0; a sample exactly
 * on an edge belongs to the triangle only for top or left edges (Direct3D / Vulkan top-left
 * rule, y down): left = interior to the right (dE/dx > 0), top = horizontal with the interior
 * below. Non-top-left edges get E - 1, so ">= 0" is the whole test.
 *
 * This file is setup and the block walk; soft_raster_shade.c is what happens inside a block.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_vm_simd.h"

/* Standard sample positions in 1/256 px (Vulkan "standard sample locations"): 1x = centre;
 * 4x = (0.375, 0.125), (0.875, 0.375), (0.125, 0.625), (0.625, 0.875). */
static const int32_t sample_x1[1] = { 128 }, sample_y1[1] = { 128 };
static const int32_t sample_x4[4] = { 96, 224, 32, 160 }, sample_y4[4] = { 32, 96, 160, 224 };

int32_t eg_soft_snap(float v)
{
    float f = v * (float)EG_SOFT_SUBPIX;
    int32_t t = (int32_t)f;            /* toward zero; |f| < 2^24 after the guard band, exact */
    float frac = f - (float)t;
    /* Round half away from zero: t + 1 where frac >= 0.5, t - 1 where frac <= -0.5. Branch-free
     * on the fraction's bits (|frac| >= 0.5 is its magnitude bits >= 0x3f000000's): the sign is
     * data, and the branches GCC made of the float compares mispredicted about half the time
     * (~3% of the textured-mesh row's cycles in perf). */
    union { float f; uint32_t u; } bits = { frac };   /* C11 type punning through a union */
    uint32_t u = bits.u;
    int32_t away = (int32_t)((0x3effffffu - (u & 0x7fffffffu)) >> 31);   /* 1: |frac| >= 0.5 */
    return t + away * (1 - 2 * (int32_t)(u >> 31));
}


/* Edge i is opposite vertex i (from V[i+1] to V[i+2]). Returns false for zero area. Inlined in
 * tri_setup: the call's saves and restores were ~20 of its ~92 instructions a triangle (pairset2). */
static EG_ALWAYS_INLINE bool setup_edges(const int32_t x[3], const int32_t y[3], eg_soft_setup_t *s)
{
    static const uint8_t next1[3] = { 1, 2, 0 }, next2[3] = { 2, 0, 1 };   /* (i + 1) % 3, (i + 2) % 3 */
    /* the loops unrolled (constant indices; GCC -O2 kept them rolled): ~111 -> ~92 instructions a
     * triangle (row 2: 2.05 M -> 1.70 M, pairset) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 3
#endif
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t a = next1[i], b = next2[i];
        s->A[i] = (int64_t)y[a] - y[b];
        s->B[i] = (int64_t)x[b] - x[a];
        s->C[i] = -(s->A[i] * x[a] + s->B[i] * y[a]);
    }
    int64_t area2 = s->A[0] * x[0] + s->B[0] * y[0] + s->C[0];
    if (area2 == 0) return false;
    /* In y-down window coordinates a counter-clockwise triangle (as seen in y-up NDC) has a
     * negative area2 here. */
    s->front = area2 < 0;
    if (area2 < 0) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 3
#endif
        for (uint32_t i = 0; i < 3; i++) { s->A[i] = -s->A[i]; s->B[i] = -s->B[i]; s->C[i] = -s->C[i]; }
        area2 = -area2;
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 3
#endif
    for (uint32_t i = 0; i < 3; i++) {
        bool top_left = s->A[i] > 0 || (s->A[i] == 0 && s->B[i] > 0);
        if (!top_left) s->C[i] -= 1;
    }
    s->inv_area2 = 1.0f / (float)area2;
    return true;
}

bool eg_soft_covers(const int32_t x[3], const int32_t y[3], int32_t px, int32_t py)
{
    eg_soft_setup_t s;
    if (!setup_edges(x, y, &s)) return false;
    int64_t X = (int64_t)px * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = (int64_t)py * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    for (uint32_t i = 0; i < 3; i++)
        if (s.A[i] * X + s.B[i] * Y + s.C[i] < 0) return false;
    return true;
}


/* ---- triangle ---- */

void eg_soft_depth_setup(eg_soft_frag_t *f)
{
    const eg_soft_tri_t *t = f->t;
    const eg_soft_setup_t *s = &f->s;
    for (uint32_t i = 0; i < 3; i++) f->z[i] = t->z[i];
    /* dz/dx per pixel = sum z_i dlambda_i/dx, dlambda_i/dx = A_i * 256 / area2; with
     * sum A_i = 0 that is A_1 (z1 - z0) + A_2 (z2 - z0): exactly 0 for a constant depth. */
    float d1 = f->z[1] - f->z[0], d2 = f->z[2] - f->z[0];
    f->dzdx = ((float)s->A[1] * d1 + (float)s->A[2] * d2) * s->inv_area2 * (float)EG_SOFT_SUBPIX;
    f->dzdy = ((float)s->B[1] * d1 + (float)s->B[2] * d2) * s->inv_area2 * (float)EG_SOFT_SUBPIX;
    f->bias = 0.0f;
    const struct eg_soft_raster_pipeline *rs = f->rs;
    if (!rs->has_ds || !t->is_polygon || (rs->depth_bias_units == 0.0f && rs->depth_bias_slope == 0.0f)) return;
    float units = rs->depth_bias_units;
    if (rs->ds_format == WGPUTextureFormat_Depth32Float || rs->ds_format == WGPUTextureFormat_Depth32FloatStencil8) {
        /* Float depth: r = 2^(e - 23), e = exponent of the largest |z| of the primitive. */
        float zmax = 0.0f;
        for (uint32_t i = 0; i < 3; i++) { float a = f->z[i] < 0 ? -f->z[i] : f->z[i]; if (a > zmax) zmax = a; }
        union { float f; uint32_t u; } c = { zmax };
        int32_t e = (int32_t)(c.u >> 23 & 0xFFu) - 127 - 23;
        union { float f; uint32_t u; } r = { 0 };
        r.u = e > -127 ? (uint32_t)(e + 127) << 23 : 0u;
        units *= r.f;
    }
    float mx = f->dzdx < 0 ? -f->dzdx : f->dzdx, my = f->dzdy < 0 ? -f->dzdy : f->dzdy;
    float bias = units + rs->depth_bias_slope * (mx > my ? mx : my);
    float cl = rs->depth_bias_clamp;
    if (cl > 0.0f && bias > cl) bias = cl;
    if (cl < 0.0f && bias < cl) bias = cl;
    f->bias = bias;
}

static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Per-triangle tables of the block walk: per-lane and per-sample edge offsets from the block
 * origin, and each edge's min / max over a 4x4 px square. */
typedef struct walk {
    int64_t lane_off[3][EG_SOFT_LANES], samp_off[3][EG_SOFT_MAX_SAMPLES], ext[3][2];
    int64_t px0, px1, py0, py1;
    int64_t bx0, bx1, by0, by1;   /* the triangle's box in the scissor (px0.. is it clipped to a tile) */
    int32_t lane_off32[3][EG_SOFT_LANES];   /* lane_off in 32 bits, set (instead of it) when small */
    bool small;   /* every |A| + |B| < 2^19: a partial block's edge values fit in int32 (block_cov) */
} walk_t;

static void walk_init(const eg_soft_frag_t *f, walk_t *k)
{
    /* In a block no edge rejects, e0 >= -ext[1] >= -1024 (|A| + |B|) > -2^29 (e32 caps it above at
     * 2^30), |samp_off| <= 256 (|A| + |B|) < 2^27, |lane_off| <= 768 (|A| + |B|) < 2^29: every sum
     * of block_cov's lane test is within int32, and its sign is the 64-bit one. */
    int64_t big = 0;
    for (uint32_t i = 0; i < 3; i++) {
        int64_t aa = f->s.A[i] < 0 ? -f->s.A[i] : f->s.A[i], bb = f->s.B[i] < 0 ? -f->s.B[i] : f->s.B[i];
        big |= aa + bb;
    }
    k->small = big < ((int64_t)1 << 19);   /* (the OR of values >= 0 is below 2^19 iff each is) */
    for (uint32_t i = 0; i < 3; i++) {
        /* A x + B y over the lane offsets, by steps; block_cov reads one table of the two */
        int64_t sx = f->s.A[i] * EG_SOFT_SUBPIX, sy = f->s.B[i] * EG_SOFT_SUBPIX;
        if (k->small) {
            /* (l & 3) sx + (l >> 2) sy: the sums of the steps, exact in int32 (bounds above) */
            int32_t sx32 = (int32_t)sx, sy32 = (int32_t)sy;
#if defined(VM_SIMD_NATIVE) && VM_VW == 4
            /* { 0, sx, 2 sx, 3 sx } by masked adds of the splat (no lane-by-lane build, no
             * vector multiply on SSE2), then each row the previous plus sy (tri9) */
            const vi_t vx = { sx32, sx32, sx32, sx32 }, vy = { sy32, sy32, sy32, sy32 };
            const vi_t m1 = { 0, -1, -1, -1 }, m2 = { 0, 0, -1, -1 }, m3 = { 0, 0, 0, -1 };
            vi_t v = (vx & m1) + (vx & m2) + (vx & m3);
            for (uint32_t r = 0; r < 4u; r++, v += vy) VSTORE(k->lane_off32[i] + 4u * r, v);
#else
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
                k->lane_off32[i][l] = (int32_t)(l & 3u) * sx32 + (int32_t)(l >> 2) * sy32;
#endif
        } else {
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
                k->lane_off[i][l] = (l & 3u ? k->lane_off[i][l - 1u] + sx : l ? k->lane_off[i][l - 4u] + sy : 0);
        }
        for (uint32_t s = 0; s < f->samples; s++)
            k->samp_off[i][s] = f->s.A[i] * f->sx[s] + f->s.B[i] * f->sy[s];
        int64_t ax = f->s.A[i] * (4 * EG_SOFT_SUBPIX), by = f->s.B[i] * (4 * EG_SOFT_SUBPIX);
        k->ext[i][0] = min64(ax, 0) + min64(by, 0);
        k->ext[i][1] = max64(ax, 0) + max64(by, 0);
    }
}

/* An edge value at a partial block's origin and sample in int32 (walk_init's bounds): an edge
 * that passes the whole block may be far above them, 2^30 passes every lane as well. */
static inline int32_t e32(int64_t e)
{
    return e > ((int64_t)1 << 30) ? (int32_t)1 << 30 : (int32_t)e;
}

/* The lanes where an edge value (a, b, c at the block origin and sample, plus the lane offsets)
 * is negative: the sign bit of the three values' OR, no branch per lane. Exact in 32 bits when
 * k->small (walk_init). */
static inline eg_soft_mask_t lanes_out32(const walk_t *k, int32_t a, int32_t b, int32_t c)
{
#if defined(VM_SIMD_NATIVE) && VM_VW == 4 && defined(__SSE2__)
    const vi_t va = { a, a, a, a }, vb = { b, b, b, b }, vc = { c, c, c, c };
    uint32_t out = 0;
    for (uint32_t r = 0; r < 4u; r++) {
        vi_t o0, o1, o2;
        VLOAD(o0, k->lane_off32[0] + 4u * r);
        VLOAD(o1, k->lane_off32[1] + 4u * r);
        VLOAD(o2, k->lane_off32[2] + 4u * r);
        vi_t v = (va + o0) | (vb + o1) | (vc + o2);
        out |= (uint32_t)__builtin_ia32_movmskps((vf_t)v) << (4u * r);   /* the 4 sign bits */
    }
    return out;
#else
    uint32_t out = 0;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        uint32_t v = (uint32_t)((a + k->lane_off32[0][l]) | (b + k->lane_off32[1][l]) | (c + k->lane_off32[2][l]));
        out |= (v >> 31) << l;
    }
    return out;
#endif
}

/* lanes_out32 with 8 lanes per vector on x86-64 CPUs with AVX2 (walk_blocks_avx2): the same
 * integer sums and sign bits, two vectors instead of four. */
#if defined(VM_SIMD_NATIVE) && VM_VW == 4 && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(EMGPU_SOFT_VM_NO_AVX2)
#define WALK_AVX2 1
typedef int32_t walk_v8i __attribute__((vector_size(32)));
typedef float walk_v8f __attribute__((vector_size(32)));
static inline __attribute__((target("avx2"))) eg_soft_mask_t lanes_out32_8(const walk_t *k, int32_t a, int32_t b,
                                                                           int32_t c)
{
    const walk_v8i va = { a, a, a, a, a, a, a, a }, vb = { b, b, b, b, b, b, b, b }, vc = { c, c, c, c, c, c, c, c };
    uint32_t out = 0;
    for (uint32_t h = 0; h < EG_SOFT_LANES; h += 8u) {
        walk_v8i o0, o1, o2;
        __builtin_memcpy(&o0, k->lane_off32[0] + h, 32);
        __builtin_memcpy(&o1, k->lane_off32[1] + h, 32);
        __builtin_memcpy(&o2, k->lane_off32[2] + h, 32);
        walk_v8i v = (va + o0) | (vb + o1) | (vc + o2);
        out |= (uint32_t)__builtin_ia32_movmskps256((walk_v8f)v) << h;
    }
    return out;
}
#else
#define WALK_AVX2 0
#endif

/* Bits [lo, hi) of 4, the offsets clamped to [0, 4]: the block's rows (columns) inside the
 * walked rectangle. */
static inline uint32_t span4(int64_t lo, int64_t hi)
{
    uint32_t l = lo < 0 ? 0u : lo > 4 ? 4u : (uint32_t)lo, h = hi < 0 ? 0u : hi > 4 ? 4u : (uint32_t)hi;
    return ((1u << h) - 1u) & ~((1u << l) - 1u);
}

/* Coverage of the block at (bx0, by0) within the walked rectangle, e0 its edge values at the
 * block origin: whole-block reject / accept against the edges' extremes, per-sample masks
 * otherwise. False: nothing covered. */
static EG_ALWAYS_INLINE bool block_cov_e(const eg_soft_frag_t *f, const walk_t *k, int64_t bx0, int64_t by0,
                                         const int64_t e0[3], eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES], bool wide)
{
    /* row bit r -> the row's 4 lanes */
    static const uint16_t row_lanes[16] = { 0x0000, 0x000F, 0x00F0, 0x00FF, 0x0F00, 0x0F0F, 0x0FF0, 0x0FFF,
                                            0xF000, 0xF00F, 0xF0F0, 0xF0FF, 0xFF00, 0xFF0F, 0xFFF0, 0xFFFF };
    bool accept = true;
    for (uint32_t i = 0; i < 3; i++) {   /* the reject first: a large triangle's box is half outside */
        if (e0[i] + k->ext[i][1] < 0) return false;
        if (e0[i] + k->ext[i][0] < 0) accept = false;
    }
    eg_soft_mask_t inside = EG_SOFT_ALL_LANES;
    if (bx0 < k->px0 || bx0 + 4 > k->px1 || by0 < k->py0 || by0 + 4 > k->py1)
        inside = (eg_soft_mask_t)(row_lanes[span4(k->py0 - by0, k->py1 - by0)] &
                                  (0x1111u * span4(k->px0 - bx0, k->px1 - bx0)));   /* column bits, one per row */
    for (uint32_t s = 0; s < f->samples; s++) {
        if (accept) { cov[s] = inside; continue; }
        if (k->small) {
            int32_t a = e32(e0[0] + k->samp_off[0][s]), b = e32(e0[1] + k->samp_off[1][s]);
            int32_t c = e32(e0[2] + k->samp_off[2][s]);
#if WALK_AVX2
            if (wide) { cov[s] = inside & ~lanes_out32_8(k, a, b, c); continue; }
#else
            (void)wide;
#endif
            cov[s] = inside & ~lanes_out32(k, a, b, c);
            continue;
        }
        eg_soft_mask_t m = 0;
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            if (!(inside >> l & 1u)) continue;
            if (e0[0] + k->lane_off[0][l] + k->samp_off[0][s] >= 0 && e0[1] + k->lane_off[1][l] + k->samp_off[1][s] >= 0 &&
                e0[2] + k->lane_off[2][l] + k->samp_off[2][s] >= 0)
                m |= 1u << l;
        }
        cov[s] = m;
    }
    return true;
}

static bool block_cov(const eg_soft_frag_t *f, const walk_t *k, int64_t bx0, int64_t by0,
                      eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    int64_t e0[3];
    for (uint32_t i = 0; i < 3; i++)
        e0[i] = f->s.A[i] * (bx0 * EG_SOFT_SUBPIX) + f->s.B[i] * (by0 * EG_SOFT_SUBPIX) + f->s.C[i];
    return block_cov_e(f, k, bx0, by0, e0, cov, false);
}

/* floor(a / b) for b > 0 (C division truncates toward zero). */
static inline int64_t floor_div64(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* The blocks k in [*lo, *hi) of a row (k = 0 .. n - 1) where every edge value c_i + k s_i is
 * >= 0 (c_i: the edge at block 0 plus an extreme of ext, s_i: the step per block): the
 * intersection of three half-lines, exact in integers (one division per edge and row). */
static void row_interval(const int64_t c[3], const int64_t s[3], int64_t n, int64_t *lo, int64_t *hi)
{
    int64_t a = 0, b = n;
    for (uint32_t i = 0; i < 3; i++) {
        if (s[i] > 0) a = max64(a, -floor_div64(c[i], s[i]));         /* k >= ceil(-c / s) */
        else if (s[i] < 0) b = min64(b, floor_div64(c[i], -s[i]) + 1); /* k <= floor(c / -s) */
        else if (c[i] < 0) b = 0;
    }
    *lo = a;
    *hi = b > a ? b : a;
}

/* Walks the pixel rectangle [px0, px1) x [py0, py1) in 4x4 blocks; the edge values step from
 * block to block by additions (exact in 64 bits: the same values as block_cov's products).
 * Per row of blocks, the interval where no edge rejects the block (block_cov_e's reject test,
 * solved for the row) and the one where every edge accepts it, for blocks wholly inside the
 * rectangle: blocks outside the first are skipped, the second's are shaded as one run with
 * every lane covered (block_cov_e's result there); only the blocks between take block_cov_e
 * (a full-screen quad's blocks were 114 instructions each, nearly all accepted). */
#define WALK_RUN_MIN 6   /* blocks in a row from which the intervals pay (row 8's mesh: not) */

/* A narrow triangle (n < WALK_RUN_MIN blocks a row: no intervals) in the textured mesh's one-pass
 * state (one sample, k->small) goes to eg_soft_mesh_walk (soft_sample_mesh.c, helper "mesh9";
 * session 8's walk_mesh here, with the block inlined there): the same blocks, masks and calls as
 * block_cov_e + eg_soft_shade_block: the reject (accept) test is the sign of the OR of the three
 * edge sums (negative iff one is), the rectangle's rows are cut once per block row. */
static void walk_mesh(eg_soft_frag_t *f, const walk_t *k, const eg_soft_mesh_tri_t *mt, int64_t x0, int64_t y0,
                      int64_t n, eg_soft_mesh_walk_t *w)
{
    w->ext = k->ext;
    w->samp_off = k->samp_off;
    w->lane_off32 = k->lane_off32;
    w->x0 = x0;
    w->y0 = y0;
    w->n = n;
    w->px0 = k->px0;
    w->px1 = k->px1;
    w->py0 = k->py0;
    w->py1 = k->py1;
    f->w->tex_blocks += eg_soft_mesh_walk(f, mt, w);
}

static EG_ALWAYS_INLINE void walk_body(eg_soft_frag_t *f, const walk_t *k, bool wide)
{
    int64_t x0 = k->px0 & ~3, y0 = k->py0 & ~3;
    eg_soft_mesh_walk_t w;   /* (its er, sx, sy: the walk's own, also for eg_soft_mesh_walk) */
    int64_t *er = w.er, *sx = w.sx, *sy = w.sy;
    eg_soft_shade_setup(f);   /* the block pipeline's per-triangle state (not for spans) */
    /* the textured mesh's one-pass block called here, its constants splatted once (mblk8) */
    eg_soft_mesh_tri_t mt;
    const bool mesh = eg_soft_shade_mesh_direct(f, &mt);
    for (uint32_t i = 0; i < 3; i++) {
        er[i] = f->s.A[i] * (x0 * EG_SOFT_SUBPIX) + f->s.B[i] * (y0 * EG_SOFT_SUBPIX) + f->s.C[i];
        sx[i] = f->s.A[i] * (4 * EG_SOFT_SUBPIX);
        sy[i] = f->s.B[i] * (4 * EG_SOFT_SUBPIX);
    }
    int64_t n = (k->px1 - x0 + 3) / 4;
    if (mesh && k->small && f->samples == 1u && n < WALK_RUN_MIN) {
        walk_mesh(f, k, &mt, x0, y0, n, &w);
        return;
    }
    /* the blocks wholly inside the rectangle's columns: block_cov_e's inside mask is all lanes */
    int64_t in_lo = (k->px0 - x0 + 3) / 4, in_hi = (k->px1 - x0) / 4;
    for (int64_t by0 = y0; by0 < k->py1; by0 += 4) {
        int64_t e[3] = { er[0], er[1], er[2] }, cm[3], ca[3], mlo = 0, mhi = n, alo = n, ahi = n;
        if (n >= WALK_RUN_MIN && eg_soft_raster_fast_paths) {   /* (small triangles: the divisions cost more) */
            for (uint32_t i = 0; i < 3; i++) { cm[i] = er[i] + k->ext[i][1]; ca[i] = er[i] + k->ext[i][0]; }
            row_interval(cm, sx, n, &mlo, &mhi);
            row_interval(ca, sx, n, &alo, &ahi);
            if (by0 < k->py0 || by0 + 4 > k->py1) alo = ahi = mhi;   /* rows cut: no whole block */
            alo = min64(max64(max64(alo, in_lo), mlo), mhi);
            ahi = max64(min64(min64(ahi, in_hi), mhi), alo);
            for (uint32_t i = 0; i < 3; i++) e[i] += mlo * sx[i];
        }
        for (int64_t kb = mlo; kb < mhi; kb++) {
            int64_t bx0 = x0 + 4 * kb;
            if (kb == alo && ahi > alo) {   /* the accepted run */
                eg_soft_shade_run(f, (uint32_t)bx0, (uint32_t)by0, (uint32_t)(ahi - alo));
                for (uint32_t i = 0; i < 3; i++) e[i] += (ahi - alo) * sx[i];
                kb = ahi - 1;
                continue;
            }
            eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES] = { 0 };
            if (!block_cov_e(f, k, bx0, by0, e, cov, wide)) {
            } else if (!mesh) {
                eg_soft_shade_block(f, (uint32_t)bx0, (uint32_t)by0, cov);
            } else if (cov[0] && mt.block(f, &mt, (uint32_t)bx0, (uint32_t)by0, e, cov[0])) {
                f->w->tex_blocks++;   /* (shade_mesh's count) */
            }
            e[0] += sx[0]; e[1] += sx[1]; e[2] += sx[2];
        }
        er[0] += sy[0]; er[1] += sy[1]; er[2] += sy[2];
    }
}

#if WALK_AVX2
static __attribute__((target("avx2"))) void walk_blocks_avx2(eg_soft_frag_t *f, const walk_t *k)
{
    walk_body(f, k, true);
}
#endif

/* (f: raster_set_up's own, shaded in place: no copy, ~100 instructions a triangle) */
static void walk_blocks(eg_soft_frag_t *f, const walk_t *k)
{
#if WALK_AVX2
    if (__builtin_cpu_supports("avx2")) {
        walk_blocks_avx2(f, k);
        return;
    }
#endif
    walk_body(f, k, false);
}

/* ---- regions: block-constant programs proved once per 16x16 or 8x8 px (helper "ui") ---- */

#define REGION_PX 16

#if defined(__GNUC__) || defined(__clang__)
#define RASTER_NOINLINE __attribute__((noinline))   /* (keeps the walk states out of the callers' frames) */
#else
#define RASTER_NOINLINE
#endif

/* Whether every sample of the w x h px rectangle at (x0, y0) is inside all three edges. */
static bool region_accepted(const eg_soft_frag_t *f, int64_t x0, int64_t y0, int64_t w, int64_t h)
{
    for (uint32_t i = 0; i < 3; i++) {
        int64_t ax = f->s.A[i] * (w * EG_SOFT_SUBPIX), by = f->s.B[i] * (h * EG_SOFT_SUBPIX);
        int64_t e = f->s.A[i] * (x0 * EG_SOFT_SUBPIX) + f->s.B[i] * (y0 * EG_SOFT_SUBPIX) + f->s.C[i];
        if (e + min64(ax, 0) + min64(by, 0) < 0) return false;
    }
    return true;
}

/* The region walk's per-triangle state (helper "ui", session 6). */
typedef struct rwalk {
    eg_soft_frag_t f;
    const walk_t *k;
    eg_soft_cfill_t cf;            /* blend state of the last proved value, row spans */
    eg_soft_const_tri_t ct;        /* the proof's per-triangle part */
    uint32_t side_ok, side_failed;  /* whole regions on the rectangle's sides proved / not */
    bool wide;                      /* region_blocks takes block_cov_e's 8-lane test (AVX2) */
} rwalk_t;

/* The w x h px rectangle at (x0, y0) (multiples of 4) within the walked rectangle: when its
 * blocks' outputs are provably one value, its covered pixels are stored with it (no
 * interpolation, no proof per block) and true. */
static bool region_const(rwalk_t *r, int64_t x0, int64_t y0, int64_t w, int64_t h)
{
    eg_soft_frag_t *f = &r->f;
    const walk_t *k = r->k;
    eg_soft_pxset_t p = { max64(x0, k->px0 & ~3), min64(x0 + w, k->px1) - 1, max64(y0, k->py0 & ~3),
                          min64(y0 + h, k->py1) - 1, 0, 3, 0, 3 };
    if (p.bx0 > p.bx1 || p.by0 > p.by1) return true;   /* outside the rectangle: nothing to do */
    p.bx1 &= ~3; p.by1 &= ~3;
    uint32_t outb[4];   /* (the caller has checked that the edges do not reject the rectangle) */
    if (r->ct.state > 0 ? !eg_soft_const_region_tri(f, &r->ct, &p, outb)
                        : r->ct.state < 0 || !eg_soft_const_region(f, &p, outb))
        return false;
    /* the covered pixels (a subset of p's blocks) row by row, when the targets allow */
    if (eg_soft_fill_const_region(f, &r->cf, max64(x0, k->px0), min64(x0 + w, k->px1), max64(y0, k->py0),
                                  min64(y0 + h, k->py1), outb))
        return true;
    for (uint32_t c = 0; c < 4u; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) f->w->io_out[0].c[c].u[l] = outb[c];
    if (x0 >= k->px0 && x0 + w <= k->px1 && y0 >= k->py0 && y0 + h <= k->py1 && region_accepted(f, x0, y0, w, h) &&
        eg_soft_shade_const_rect(f, (uint32_t)x0, (uint32_t)y0, (uint32_t)w, (uint32_t)h)) {
        f->w->region_blocks += (uint32_t)(w / 4) * (uint32_t)(h / 4);
        return true;
    }
    for (int64_t by0 = p.by0; by0 <= p.by1; by0 += 4)
        for (int64_t bx0 = p.bx0; bx0 <= p.bx1; bx0 += 4) {
            eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES] = { 0 };
            if (!block_cov(f, k, bx0, by0, cov)) continue;
            eg_soft_shade_const_block(f, (uint32_t)bx0, (uint32_t)by0, cov);
            f->w->region_blocks++;
        }
    return true;
}

/* The w x h px rectangle at (x0, y0) block by block (the general path). The edge values step
 * from block to block by additions (walk_body's: the same integers as block_cov's products) and
 * take the 8-lane test where the CPU has AVX2 (block_cov was ~160 instructions a block on the UI
 * bench's corner blocks, ~15 k a run; corner11). */
static EG_ALWAYS_INLINE void region_blocks_body(rwalk_t *r, int64_t x0, int64_t y0, int64_t w, int64_t h, bool wide)
{
    const walk_t *k = r->k;
    eg_soft_frag_t *f = &r->f;
    /* No per-block proof on blocks of failed parts: their bounded proof has just failed, the
     * exact one then holds for few of them (29% on the UI bench: 2 k instructions for each,
     * 2.4 k saved per success); shade() runs the VM, whose bytes the proof reproduces anyway. */
    f->no_const_proof = true;
    /* between the blocks below nothing but their shade_vm writes the worker's io_in: the
     * triangle's constant inputs are stored at the first block only (~80 instructions a block on
     * the UI bench's rounded corners: 8 inputs, 16 lanes each). eg_soft_shade_block takes
     * shade_vm for all of them or for none (its choice reads the pipeline, f->vm_state and
     * no_const_proof, set here), and vm_hold is 0 outside this loop, so no other path sees it */
    f->vm_hold = EG_SOFT_VM_HOLD;
    const int64_t bxs = max64(x0, k->px0 & ~3), bys = max64(y0, k->py0 & ~3);
    const int64_t bxe = min64(x0 + w, k->px1), bye = min64(y0 + h, k->py1);
    int64_t er[3], sx[3], sy[3];
    for (uint32_t i = 0; i < 3u; i++) {
        sx[i] = f->s.A[i] * (4 * EG_SOFT_SUBPIX);
        sy[i] = f->s.B[i] * (4 * EG_SOFT_SUBPIX);
        er[i] = f->s.A[i] * (bxs * EG_SOFT_SUBPIX) + f->s.B[i] * (bys * EG_SOFT_SUBPIX) + f->s.C[i];
    }
    for (int64_t by0 = bys; by0 < bye; by0 += 4, er[0] += sy[0], er[1] += sy[1], er[2] += sy[2]) {
        int64_t e[3] = { er[0], er[1], er[2] };
        for (int64_t bx0 = bxs; bx0 < bxe; bx0 += 4, e[0] += sx[0], e[1] += sx[1], e[2] += sx[2]) {
            eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES] = { 0 };
            if (block_cov_e(f, k, bx0, by0, e, cov, wide)) eg_soft_shade_block(f, (uint32_t)bx0, (uint32_t)by0, cov);
        }
    }
    f->no_const_proof = false;
    f->vm_hold = 0;
}

#if WALK_AVX2
static __attribute__((target("avx2"))) void region_blocks_avx2(rwalk_t *r, int64_t x0, int64_t y0, int64_t w, int64_t h)
{
    region_blocks_body(r, x0, y0, w, h, true);
}
#endif

static void region_blocks(rwalk_t *r, int64_t x0, int64_t y0, int64_t w, int64_t h)
{
#if WALK_AVX2
    if (r->wide) {
        region_blocks_avx2(r, x0, y0, w, h);
        return;
    }
#endif
    region_blocks_body(r, x0, y0, w, h, false);
}

/* The region walk's per-triangle set-up (k: the triangle's tables and box). */
static void rwalk_begin(rwalk_t *r, const eg_soft_frag_t *fp, const walk_t *k)
{
    const int64_t R = REGION_PX;
    r->f = *fp;
    eg_soft_shade_setup(&r->f);   /* write_colors' per-triangle state */
    r->k = k;
    r->side_ok = r->side_failed = 0;
#if WALK_AVX2
    r->wide = __builtin_cpu_supports("avx2");
#else
    r->wide = false;
#endif
    eg_soft_cfill_init(&r->cf);
    eg_soft_const_tri_init(&r->f, &r->ct);
    /* the regions on no side of the box (see side_x below), proved whole once one of them holds */
    eg_soft_const_tri_interior(&r->ct, (k->bx0 & ~(R - 1)) + R, (k->bx1 - 1) & ~(R - 1), (k->by0 & ~(R - 1)) + R,
                               (k->by1 - 1) & ~(R - 1));
}

/* The walk of r->k's rectangle [px0, px1) x [py0, py1) (the whole walk, or a cell of a
 * rectangle pair's: raster_rect_pair). Regions of REGION_PX, then parts of the failed ones, then
 * single blocks where no proof holds. The part: a region on the left or right side of the walked
 * rectangle (only) is cut into 4 px wide columns, one on the top or bottom side into 4 px rows,
 * others into quarters. Shapes drawn on a quad have their edge ramp (anti-aliasing, borders)
 * along the quad's sides: a column or row then holds all of it, and the other three are proved,
 * where two quarters of four would fail. */
static void rwalk_rect(rwalk_t *r)
{
    const walk_t *k = r->k;
    const int64_t R = REGION_PX, q = REGION_PX / 4;
    /* Whether the edges reject a rectangle (the edge extremes at its corners), by steps (rrect10:
     * the products were ~70 instructions a region): er at the row's first region, ea the region's */
    const int64_t rx0 = k->px0 & ~(R - 1);
    int64_t er[3], emax[3], sx[3], sy[3];
    for (uint32_t i = 0; i < 3u; i++) {
        sx[i] = r->f.s.A[i] * (R * EG_SOFT_SUBPIX);
        sy[i] = r->f.s.B[i] * (R * EG_SOFT_SUBPIX);
        emax[i] = max64(sx[i], 0) + max64(sy[i], 0);
        er[i] = r->f.s.A[i] * (rx0 * EG_SOFT_SUBPIX) + r->f.s.B[i] * ((k->py0 & ~(R - 1)) * EG_SOFT_SUBPIX) + r->f.s.C[i];
    }
    /* the parts' steps (q px) and the rejection's extremes for the three part shapes (q x R
     * columns, R x q rows, R/2 quarters): the products were ~90 instructions a part (corner11) */
    int64_t qx[3], qy[3], pmax[3][3];
    for (uint32_t i = 0; i < 3u; i++) {
        qx[i] = r->f.s.A[i] * (q * EG_SOFT_SUBPIX);
        qy[i] = r->f.s.B[i] * (q * EG_SOFT_SUBPIX);
        pmax[0][i] = max64(qx[i], 0) + max64(sy[i], 0);
        pmax[1][i] = max64(sx[i], 0) + max64(qy[i], 0);
        pmax[2][i] = max64(2 * qx[i], 0) + max64(2 * qy[i], 0);
    }
    for (int64_t ry = k->py0 & ~(R - 1); ry < k->py1; ry += R, er[0] += sy[0], er[1] += sy[1], er[2] += sy[2]) {
        int64_t ea[3] = { er[0], er[1], er[2] };
        for (int64_t rx = rx0; rx < k->px1; rx += R, ea[0] += sx[0], ea[1] += sx[1], ea[2] += sx[2]) {
            /* sides of the triangle's box, not of the tile: a tile's border inside the shape is
             * no ramp (tiles would otherwise cut interior regions into strips) */
            bool side_x = rx <= k->bx0 || rx + R >= k->bx1, side_y = ry <= k->by0 || ry + R >= k->by1;
            /* a triangle whose side regions keep failing (its shape's ramp runs along them)
             * goes straight to their parts: the whole region's proof would fail again (tried
             * per side, session 7: 0.2% more proofs, some sides' regions do hold) */
            if (!(side_x || side_y) || r->side_ok > 0u || r->side_failed < 2u) {
                if (ea[0] + emax[0] < 0 || ea[1] + emax[1] < 0 || ea[2] + emax[2] < 0) continue;   /* rejected */
                bool ok = region_const(r, rx, ry, R, R);
                if (side_x || side_y) {
                    r->side_ok += ok;
                    r->side_failed += !ok;
                }
                if (ok) continue;
            }
            /* the parts' rejection from ea by steps (the same integers as the products
             * A (x * 256) + B (y * 256) + C + max(A w 256, 0) + max(B h 256, 0)) */
            const uint32_t kind = side_x && !side_y ? 0u : side_y && !side_x ? 1u : 2u;
            const int64_t *pm = pmax[kind], w = kind == 0u ? q : kind == 1u ? R : R / 2, h = kind == 1u ? q : kind == 0u ? R : R / 2;
            for (int64_t i = 0; i < 4; i++) {
                /* the part's offset in q px steps: a column, a row or a quarter */
                int64_t ix = kind == 0u ? i : kind == 2u ? (i & 1) * 2 : 0, iy = kind == 1u ? i : kind == 2u ? (i >> 1) * 2 : 0;
                bool rej = (ea[0] + ix * qx[0] + iy * qy[0] + pm[0] < 0) | (ea[1] + ix * qx[1] + iy * qy[1] + pm[1] < 0) |
                           (ea[2] + ix * qx[2] + iy * qy[2] + pm[2] < 0);
                int64_t x = rx + ix * q, y = ry + iy * q;
                if (!rej && !region_const(r, x, y, w, h)) region_blocks(r, x, y, w, h);
            }
        }
    }
}

static RASTER_NOINLINE void walk_regions(eg_soft_frag_t *fp, const walk_t *k)
{
    rwalk_t r;
    rwalk_begin(&r, fp, k);
    rwalk_rect(&r);
    eg_soft_cfill_flush(&r.f, &r.cf);   /* the last proved regions' pixels (soft_raster_fill.c) */
}

/* eg_soft_snap of t's x[0..2], y[0..2] into xy[0..5] (xy[6..7] unspecified). SSE2: the six as
 * two 4-lane vectors (x0 x1 x2 y0 | y1 y2 z0 z1), the scalar steps lane by lane: the same
 * multiply, cvttps2dq is cvttss2si's truncation (0x80000000 for the same out-of-range inputs),
 * the same float subtraction and integer tests, so the same integers. The six inlined scalar
 * snaps were ~125 instructions a triangle (~7 M on the UI row, 18,510 triangles). */
#if EMGPU_SOFT_SIMD && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
typedef float snap_vf_t __attribute__((vector_size(16)));
typedef int32_t snap_vi_t __attribute__((vector_size(16)));
typedef uint32_t snap_vu_t __attribute__((vector_size(16)));
_Static_assert(offsetof(eg_soft_tri_t, y) == offsetof(eg_soft_tri_t, x) + 3 * sizeof(float) &&
                   offsetof(eg_soft_tri_t, z) == offsetof(eg_soft_tri_t, y) + 3 * sizeof(float),
               "snap6 reads x, y and z[0..1] as 8 consecutive floats");
static EG_ALWAYS_INLINE snap_vi_t snap4(snap_vf_t v)
{
    const snap_vf_t f = v * (snap_vf_t){ EG_SOFT_SUBPIX, EG_SOFT_SUBPIX, EG_SOFT_SUBPIX, EG_SOFT_SUBPIX };
    const snap_vi_t t = __builtin_convertvector(f, snap_vi_t);   /* toward zero */
    const snap_vf_t frac = f - __builtin_convertvector(t, snap_vf_t);
    const snap_vu_t u = (snap_vu_t)frac;
    const snap_vi_t away = (snap_vi_t)((0x3effffffu - (u & 0x7fffffffu)) >> 31);   /* 1: |frac| >= 0.5 */
    const snap_vi_t neg = (snap_vi_t)frac >> 31;                                    /* -1: frac's sign set */
    return t + ((away ^ neg) - neg);   /* away * (1 - 2 sign) */
}
static EG_ALWAYS_INLINE void snap6(const eg_soft_tri_t *t, int32_t xy[8])
{
    snap_vf_t a, b;
    __builtin_memcpy(&a, (const unsigned char *)t + offsetof(eg_soft_tri_t, x), sizeof a);
    __builtin_memcpy(&b, (const unsigned char *)t + offsetof(eg_soft_tri_t, y) + sizeof(float), sizeof b);
    const snap_vi_t ra = snap4(a), rb = snap4(b);
    __builtin_memcpy(xy, &ra, sizeof ra);
    __builtin_memcpy(xy + 4, &rb, sizeof rb);
}
#else
static EG_ALWAYS_INLINE void snap6(const eg_soft_tri_t *t, int32_t xy[8])
{
    for (uint32_t i = 0; i < 3; i++) { xy[i] = eg_soft_snap(t->x[i]); xy[3 + i] = eg_soft_snap(t->y[i]); }
}
#endif

/* Snapped vertices, edges, culling and the pixel bounding box clipped to the scissor (not to a
 * worker): false when nothing can be drawn. Binning and rasterization share it, so a triangle
 * is binned exactly to the tiles it can touch. */
static EG_ALWAYS_INLINE bool tri_setup_(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t, eg_soft_setup_t *s,
                                         int64_t box[4])
{
    const struct eg_soft_raster_pipeline *rs = ps->rs;
    int32_t XY[8];   /* x0 x1 x2 y0 y1 y2 (and two unused) */
    int32_t *const X = XY, *const Y = XY + 3;
    snap6(t, XY);
    /* Culled (half of a closed mesh's) and off-scissor triangles leave before the edge set-up
     * (tex8): setup_edges's area2 A0 x0 + B0 y0 + C0 is A0 (x0 - x1) + B0 (y0 - y1), the same
     * exact integer, so the same front face. */
    if (t->is_polygon && (rs->cull_front || rs->cull_back)) {
        int64_t area2 = ((int64_t)Y[1] - Y[2]) * ((int64_t)X[0] - X[1]) + ((int64_t)X[2] - X[1]) * ((int64_t)Y[0] - Y[1]);
        bool front = (area2 < 0) != !rs->front_ccw;
        if (area2 == 0 || (front && rs->cull_front) || (!front && rs->cull_back)) return false;
    }
    int32_t minX = X[0], maxX = X[0], minY = Y[0], maxY = Y[0];
    for (uint32_t i = 1; i < 3; i++) {
        minX = X[i] < minX ? X[i] : minX;
        maxX = X[i] > maxX ? X[i] : maxX;
        minY = Y[i] < minY ? Y[i] : minY;
        maxY = Y[i] > maxY ? Y[i] : maxY;
    }
    box[0] = max64(minX >> EG_SOFT_SUBPIX_BITS, ps->sc_x0);
    box[1] = min64((maxX >> EG_SOFT_SUBPIX_BITS) + 1, ps->sc_x1);
    box[2] = max64(minY >> EG_SOFT_SUBPIX_BITS, ps->sc_y0);
    box[3] = min64((maxY >> EG_SOFT_SUBPIX_BITS) + 1, ps->sc_y1);
    if (box[0] >= box[1] || box[2] >= box[3]) return false;
    if (!setup_edges(X, Y, s)) return false;
    if (!rs->front_ccw) s->front = !s->front;
    return true;
}

static bool tri_setup(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t, eg_soft_setup_t *s, int64_t box[4])
{
    return tri_setup_(ps, t, s, box);
}

bool eg_soft_tri_box(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t, int64_t box[4])
{
    eg_soft_setup_t s;
    return tri_setup(ps, t, &s, box);
}

bool eg_soft_tri_prepare(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t, eg_soft_setup_t *s, int64_t box[4])
{
    return tri_setup(ps, t, s, box);
}

/* Rasterizes f's triangle (f->s set up, box from tri_setup) within the worker's rectangle. */
static EG_ALWAYS_INLINE void raster_set_up(eg_soft_frag_t *f, eg_soft_worker_t *w, const int64_t box[4])
{
    /* The bounding box (already within the scissor), clipped to the worker's rectangle (its tile). */
    int64_t px0 = max64(box[0], w->clip_x0), px1 = min64(box[1], w->clip_x1);
    int64_t py0 = max64(box[2], w->clip_y0), py1 = min64(box[3], w->clip_y1);
    if (px0 >= px1 || py0 >= py1) return;
    f->samples = f->ps->fb->samples == 4u ? 4u : 1u;
    f->sx = f->samples == 4u ? sample_x4 : sample_x1;
    f->sy = f->samples == 4u ? sample_y4 : sample_y1;
    /* Depth after the span path: it takes no depth/stencil test (soft_span.c classify) and
     * reads none of f->z, dzdx, dzdy, bias, which eg_soft_depth_setup sets from t and f->s alone
     * (~40 instructions a UI glyph triangle). */
    if (eg_soft_raster_fast_paths && eg_soft_span_triangle(f, px0, px1, py0, py1)) return;
    eg_soft_depth_setup(f);
    walk_t k;
    walk_init(f, &k);
    k.px0 = px0; k.px1 = px1; k.py0 = py0; k.py1 = py1;
    k.bx0 = box[0]; k.bx1 = box[1]; k.by0 = box[2]; k.by1 = box[3];
    const struct eg_soft_raster_pipeline *rs = f->rs;
    /* regions need the const path's conditions (soft_raster_shade.c shade) and no depth/stencil
     * test, which eg_soft_shade_const_block leaves out */
    if (rs->fs_const && eg_soft_raster_fast_paths && !rs->native_fs && !rs->depth_test && !rs->stencil_test &&
        (box[1] - box[0] >= REGION_PX / 2 || box[3] - box[2] >= REGION_PX / 2))
        walk_regions(f, &k);
    else
        walk_blocks(f, &k);
}

/* ---- quad pairs as one rectangle (helper "rectpair", session 12; soft_raster_rect.c) ----
 *
 * The two halves of an axis-aligned rectangle (eg_soft_rect_of_pair: their pixels are exactly
 * the rectangle's, each covered once) are proved in big pieces and filled as plain rectangles.
 * A piece's pixel set is proved by each triangle holding pixels in it (each proof bounds the
 * whole set, its own pixels among them), and filled with the union of their ranges (each pixel's
 * value lies in its triangle's range; a range's open pixels go to the triangle covering each,
 * soft_raster_fill.c amb_flush). The halves never share a pixel and a pixel's blend reads only
 * that pixel, so the order of the two inside the pair is irrelevant: the bytes are those of
 * drawing them one after the other. Pieces, big first, each split only where it fails: the
 * rectangle (in the worker's clip rectangle and the scissor), its three rows (sides of at least
 * RECT_MARGIN px, cuts on block borders), a failed row's three cells; a failed cell goes to each
 * triangle alone, block by block when small (a rounded corner), else by its region walk. The
 * first triangle proves its pieces (shading its failed cells at once), then the second proves
 * the first's proved pieces and fills them (or, never seen, shades its part and the first
 * shades its own again; eg_soft_rect_pair_again forces that in tests). Only one triangle's walk
 * state is live at a time (the frame: ~9.5 KiB on x86-64, the region walk's ~8 KiB).
 * Row 2 (UI 50% RGB565, 5 frames): 150.3 M -> 118.1 M instructions; its 250 rectangles alone
 * 66.7 M -> 34.9 M, ~140 k each (corners through the program ~54 k, the fills' pixels ~40 k,
 * ~14 proofs and their probes ~37 k). Session 13 (rectc): top and bottom rows cut at their ramp
 * strips (rect_first): 34.9 M -> 27.1 M, ~103 k a rectangle in raster_rect_pair (program ~35 k,
 * fills ~35 k, 10 proofs and 4 probes ~24 k). */
#define RECT_MARGIN 12   /* the bench's corners: radius 12 px plus the ramp, rounded to blocks */
#define RECT_PIECES 15   /* 2 rows x 6 cells (a cut top or bottom row: 3 + 3) + 3 cells */
#define RECT_RAMP 4      /* a cut top or bottom row's ramp strip and side cells (rect_first) */
#define RECT_CELL_BLOCKS 16   /* a failed cell of more blocks goes to the region walk */
#define RECT_SETS 27     /* the first's proved pixel sets kept (~9 a rectangle; more: not proved) */


/* A piece's state: proved by the first (its ranges in lo, hi), shaded by the first (the second
 * shades its part), shaded by the first and none of the second's pixels (done), to be shaded by
 * the first again (the second did not prove it), none of the first's pixels (the second's). */
enum { RP_PROVED, RP_SHADED, RP_DONE, RP_AGAIN, RP_SECOND };

typedef struct rect_piece {
    int64_t q[4];                  /* pixels [q0, q1) x [q2, q3) */
    uint32_t set0;                 /* RP_PROVED: the first's ranges over the piece's pixel sets
                                    * (eg_soft_rect_cuts) at rect_walk_t lo, hi [set0 ..] */
    uint32_t skip;                 /* RP_PROVED: the sets holding none of the first's pixels */
    uint8_t st;
    bool blk;                      /* shaded block by block (else by the region walk) */
    bool ramp;                     /* a ramp cell: shaded without a proof (rect_first) */
    bool unprobed;                 /* a cut row's middle: proved without a probe (rect_first) */
} rect_piece_t;

typedef struct rect_walk {
    rwalk_t r;                     /* the triangle being walked */
    walk_t k;
    eg_soft_rect_pair_t rp;
    rect_piece_t pc[RECT_PIECES];
    uint32_t n, nsets;
    uint32_t lo[RECT_SETS][4], hi[RECT_SETS][4];   /* lo == hi: one value */
} rect_walk_t;

/* r's walk over the pixels of p in its triangle's box: the region walk, or (blk) its blocks'
 * coverage and the program, no proof (the pair's proof over p has just failed). */
static void rect_shade(rwalk_t *r, walk_t *k, const rect_piece_t *p)
{
    const int64_t *q = p->q;
    k->px0 = max64(q[0], k->bx0); k->px1 = min64(q[1], k->bx1);
    k->py0 = max64(q[2], k->by0); k->py1 = min64(q[3], k->by1);
    if (k->px0 >= k->px1 || k->py0 >= k->py1) return;
    if (p->blk) region_blocks(r, q[0] & ~3, q[2] & ~3, q[1] - (q[0] & ~3), q[3] - (q[2] & ~3));
    else rwalk_rect(r);
}

/* f's walk tables (raster_set_up's) for its box. */
static void rect_tri_begin(rwalk_t *r, walk_t *k, eg_soft_frag_t *f, const int64_t box[4])
{
    eg_soft_depth_setup(f);
    walk_init(f, k);
    k->bx0 = box[0]; k->bx1 = box[1]; k->by0 = box[2]; k->by1 = box[3];
    rwalk_begin(r, f, k);
}

/* The cells of rows [y0, y1) of the row piece q, cut at xc[0..n] (clipped to q), onto the stack
 * st last to first: level 2, or (ramp: a part of a cut top or bottom row, rect_first) 3 for the
 * first and last of three (ramp cells) and 4 for the middle. */
static void rect_push_cells(int64_t (*st)[5], uint32_t *sp, const int64_t q[4], int64_t y0, int64_t y1, const int64_t *xc,
                            uint32_t n, bool ramp)
{
    for (uint32_t i = n; i-- > 0;) {
        int64_t a = max64(xc[i], q[0]), b = min64(xc[i + 1], q[1]);
        if (a >= b) continue;
        int64_t *d = st[(*sp)++];
        d[0] = a; d[1] = b; d[2] = y0; d[3] = y1; d[4] = !ramp || n != 3u ? 2 : i != 1u ? 3 : 4;
    }
}

/* Where a failed row q of the rectangle is cut (rect_first): its ramp strip's border, or
 * INT64_MIN (not a top or bottom row of a rectangle of nx x ny = 3 x 3 cells). */
static int64_t rect_ramp_cut(const rect_walk_t *m, const int64_t q[4], uint32_t nx, uint32_t ny)
{
    if (nx != 3u || ny != 3u) return INT64_MIN;
    if (q[2] == m->rp.R[2] && q[3] != m->rp.R[3]) return (q[2] + RECT_RAMP + 3) & ~(int64_t)3;
    if (q[3] == m->rp.R[3] && q[2] != m->rp.R[2]) return (q[3] - RECT_RAMP) & ~(int64_t)3;
    return INT64_MIN;
}

/* The first triangle's pass over W (the rectangle in the clip): pieces proved or split (the
 * whole, its rows, their cells: an explicit stack, big first), failed cells shaded at once.
 *
 * A failed top or bottom row of a rectangle of 3 x 3 cells (helper rectc, session 13) is cut
 * into its RECT_RAMP px strip along the side (cut on a block border) and the rest, each into
 * cells: the strip's corners of RECT_MARGIN px, the rest's sides of RECT_RAMP px. A shape drawn
 * on its quad with rounded corners (the bench's: radius 12 px, a 1 px ramp) has its corner arcs
 * in those four side cells (the arc meets the corner's diagonal 3.5 px from both sides: at the
 * rest's first row, 4 px in, it is 3.3 px from the side), so they run the program without a
 * probe or proof (level 3: the probe saw them differ every time), and the two middles, the
 * corners' insides among them, are one value or a side's narrow range, proved without the
 * probe (level 4). The rows' cells of session 12 left each corner cell (9 to 12 blocks, 4 of
 * them inside the arc) to the program and probed every cell: row 2's rectangles had 54 blocks
 * through the program and 10 probes each, now 32 and 4 (BENCH_UI_DRAWS=2, row 2: 34.9 M ->
 * 27.1 M instructions with the sets' own probes dropped, eg_soft_const_pxset_tri). The cut is
 * only a choice: a middle that fails runs the program (by blocks, or by the region walk when
 * big). Only a rectangle of 3 x 3 cells is cut (a smaller one's cells keep the region walk,
 * whose proofs find a shape's inside away from its quad's sides). Tried: the frame (ramp
 * strips all round, one inside piece: 2 proofs fewer a triangle) cost more in the fills'
 * narrow side columns than it saved (29.7 M); the corner cell cut into strips and an inside
 * proved on its own (36.5 M: the inside's two proofs and fill cost more than its 4 blocks). */
static void rect_first(rect_walk_t *m, const int64_t W[4])
{
    int64_t st[8][5];   /* (piece, level): 0 whole, 1 row, 2 cell, 3 ramp cell, 4 unprobed cell (2 rows + 6 cells) */
    uint32_t sp = 1;
    int64_t cx[4], cy[4];
    uint32_t nx = eg_soft_rect_thirds(m->rp.R[0], m->rp.R[1], RECT_MARGIN, cx);
    uint32_t ny = eg_soft_rect_thirds(m->rp.R[2], m->rp.R[3], RECT_MARGIN, cy);
    for (uint32_t c = 0; c < 4u; c++) st[0][c] = W[c];
    st[0][4] = m->r.ct.state > 0 ? 0 : 2;   /* (no proof can hold: one cell, walked) */
    m->n = m->nsets = 0;
    bool whole_failed = false;
    while (sp) {
        const int64_t *e = st[--sp];
        const int64_t q[4] = { e[0], e[1], e[2], e[3] }, lvl = e[4];
        rect_piece_t *p = &m->pc[m->n++];
        for (uint32_t c = 0; c < 4u; c++) p->q[c] = q[c];
        const int64_t bx = ((q[1] + 3) >> 2) - (q[0] >> 2), by = ((q[3] + 3) >> 2) - (q[2] >> 2);
        p->blk = lvl >= 2 && bx * by <= RECT_CELL_BLOCKS;
        p->ramp = lvl == 3;
        p->unprobed = lvl == 4;
        if (eg_soft_rect_side(m->rp.e, q) == 2u) {   /* (a corner the first does not reach) */
            p->st = RP_SECOND;
            continue;
        }
        /* a top or bottom row that is cut when it fails (below) is cut at once where the whole
         * rectangle failed: the rectangle's probe at the corners of its top left quarter and
         * the row's at its own share their top left corner pixel, where a shape drawn on its
         * quad with rounded corners fades out (the bench's rectangles: every such row failed,
         * 2 probes of ~650 instructions a rectangle; a choice of pieces only, never of bytes) */
        const int64_t ys = lvl == 1 ? rect_ramp_cut(m, q, nx, ny) : INT64_MIN;
        const bool cut_now = whole_failed && ys > q[2] && ys < q[3];
        bool prove = m->r.ct.state > 0 && !p->ramp && !cut_now;
        uint32_t ns = 0;
        if (prove) {   /* (the sets' count only where a proof is tried: ~80 instructions) */
            int64_t cx4[4], cy4[4];
            uint32_t ny4, nx4 = eg_soft_rect_cuts(q, m->rp.R, cx4, cy4, &ny4);
            ns = nx4 * ny4;
            prove = m->nsets + ns <= RECT_SETS;
        }
        if (prove &&
            eg_soft_rect_prove(&m->r.f, &m->r.ct, &m->rp, 0, !p->unprobed, q, m->lo + m->nsets, m->hi + m->nsets, &p->skip)) {
            p->st = RP_PROVED;
            p->set0 = m->nsets;
            m->nsets += ns;
            continue;
        }
        if (lvl == 0) {   /* its rows, pushed last to first: taken top to bottom */
            m->n--;
            whole_failed = true;
            for (uint32_t i = ny; i-- > 0;) {
                int64_t a = max64(cy[i], q[2]), b = min64(cy[i + 1], q[3]);
                if (a >= b) continue;
                int64_t *d = st[sp++];
                d[0] = q[0]; d[1] = q[1]; d[2] = a; d[3] = b; d[4] = 1;
            }
            continue;
        }
        if (lvl == 1) {   /* a row's cells, pushed last to first: taken top to bottom, left to right */
            m->n--;
            /* (only the top or bottom row of three, with corners and a middle: a rectangle whose
             * corner cells are only its corners; a smaller one's cells are walked as before,
             * where the region walk's proofs find its shape's inside) */
            int64_t xr[4];
            if (ys <= q[2] || ys >= q[3]) {
                rect_push_cells(st, &sp, q, q[2], q[3], cx, nx, false);
                continue;
            }
            /* a top (bottom) row: its ramp strip's cells (corners of RECT_MARGIN) and the rest's
             * (sides of RECT_RAMP), the rest's cells pushed first for a bottom row */
            const uint32_t nr = eg_soft_rect_thirds(m->rp.R[0], m->rp.R[1], RECT_RAMP, xr);
            const bool top = q[2] == m->rp.R[2];
            rect_push_cells(st, &sp, q, ys, q[3], top ? xr : cx, top ? nr : nx, true);
            rect_push_cells(st, &sp, q, q[2], ys, top ? cx : xr, top ? nx : nr, true);
            continue;
        }
        /* a small failed cell (a rounded corner) block by block through the program: a block's
         * proof costs more than its program (~1.7 k instructions against ~0.85 k with the blend;
         * the bench's corners, row 2's rectangles alone: 56.8 M instructions proving their
         * blocks, 49.1 M walking their regions, 34.6 M through the program); a bigger one by the
         * region walk */
        rect_shade(&m->r, &m->k, p);
        p->st = eg_soft_rect_side(m->rp.e, q) == 1u ? RP_DONE : RP_SHADED;
    }
}

/* The pixel sets of p filled with the union of both triangles' ranges (lo, hi, skip: the
 * second's), each set's from the triangles with pixels in it; false: nothing filled (the
 * targets need the per-block path). */
static bool rect_fill(rect_walk_t *m, rect_piece_t *p, eg_soft_frag_t *zf, eg_soft_cfill_t *zc, uint32_t lo[9][4],
                      uint32_t hi[9][4], uint32_t skip)
{
    eg_soft_worker_t *w = zf->w;
    int64_t cx[4], cy[4];
    uint32_t ny, nx = eg_soft_rect_cuts(p->q, m->rp.R, cx, cy, &ny);
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i < nx; i++) {
            uint32_t k = j * nx + i;
            if (p->st == RP_PROVED) {   /* (set0 is defined only then: UBSan saw its index otherwise) */
                const uint32_t *l0 = m->lo[p->set0 + k], *h0 = m->hi[p->set0 + k];
                if (skip >> k & 1u) {   /* (then the first has pixels there: proved) */
                    eg_memcpy(lo[k], l0, sizeof lo[k]);
                    eg_memcpy(hi[k], h0, sizeof hi[k]);
                } else if (!(p->skip >> k & 1u)) {
                    eg_soft_rect_union(lo[k], hi[k], l0, h0);
                }
            }
            w->crange = ((lo[k][0] ^ hi[k][0]) | (lo[k][1] ^ hi[k][1]) | (lo[k][2] ^ hi[k][2]) | (lo[k][3] ^ hi[k][3])) != 0u;
            eg_memcpy(w->crange_hi, hi[k], sizeof hi[k]);
            if (!eg_soft_fill_const_region(zf, zc, cx[i], cx[i + 1], cy[j], cy[j + 1], lo[k])) {
                w->crange = false;
                return false;   /* (at the first set: the targets are the same for all) */
            }
            w->rect_px += (uint32_t)((cx[i + 1] - cx[i]) * (cy[j + 1] - cy[j]));
        }
    return true;
}

/* f[0], f[1] (a pair) drawn as one rectangle where they are one; false: not a rectangle of the
 * region walk (nothing drawn). */
static RASTER_NOINLINE bool raster_rect_pair(eg_soft_frag_t f[2], eg_soft_worker_t *w, const int64_t box[2][4])
{
    for (uint32_t i = 0; i < 2u; i++)   /* raster_set_up's choice of the region walk */
        if (box[i][1] - box[i][0] < REGION_PX / 2 && box[i][3] - box[i][2] < REGION_PX / 2) return false;
    if (f[0].samples != 1u || !eg_soft_fill_range_ok(&f[0])) return false;
    rect_walk_t m;
    const eg_soft_setup_t s[2] = { f[0].s, f[1].s };
    uint32_t si;
    if (!eg_soft_rect_of_pair(s, m.rp.R, &si)) return false;
    const eg_soft_pass_state_t *ps = f[0].ps;
    const int64_t *R = m.rp.R;
    const int64_t W[4] = { max64(R[0], max64(w->clip_x0, ps->sc_x0)), min64(R[1], min64(w->clip_x1, ps->sc_x1)),
                           max64(R[2], max64(w->clip_y0, ps->sc_y0)), min64(R[3], min64(w->clip_y1, ps->sc_y1)) };
    if (W[0] >= W[1] || W[2] >= W[3]) return true;   /* R is all they cover: nothing here */
    m.rp.e[0] = s[0].A[si]; m.rp.e[1] = s[0].B[si]; m.rp.e[2] = s[0].C[si];
    rect_tri_begin(&m.r, &m.k, &f[0], box[0]);
    rect_first(&m, W);
    eg_soft_cfill_flush(&m.r.f, &m.r.cf);
    /* the second: the pieces proved by the first proved again, filled as rectangles (f[1]'s own
     * set-up is not read once copied into m.r: its edges zeroed, 0 >= 0 passes every pixel and
     * eg_soft_fill_const_region fills the rows whole; a range's open pixels go to the triangle
     * covering each, zc.pair) */
    eg_soft_cfill_t zc;
    eg_soft_cfill_init(&zc);
    eg_soft_shade_setup(&f[0]);
    rect_tri_begin(&m.r, &m.k, &f[1], box[1]);
    eg_memset(&f[1].s, 0, sizeof f[1].s);
    zc.pair[0] = &f[0];
    zc.pair[1] = &m.r.f;
    eg_memcpy(zc.pair_e, m.rp.e, sizeof m.rp.e);
    bool again = false;
    for (uint32_t i = 0; i < m.n; i++) {
        rect_piece_t *p = &m.pc[i];
        if (p->st == RP_DONE) continue;
        uint32_t lo[9][4], hi[9][4], skip;
        if ((p->st == RP_PROVED || (p->st == RP_SECOND && !p->ramp)) && !eg_soft_rect_pair_again &&
            eg_soft_rect_prove(&m.r.f, &m.r.ct, &m.rp, 1, p->st == RP_SECOND && !p->unprobed, p->q, lo, hi, &skip) &&
            rect_fill(&m, p, &f[1], &zc, lo, hi, skip))
            continue;
        if (p->st == RP_PROVED) { p->st = RP_AGAIN; again = true; }
        rect_shade(&m.r, &m.k, p);
    }
    eg_soft_cfill_flush(&f[1], &zc);
    eg_soft_cfill_flush(&m.r.f, &m.r.cf);
    if (again) {   /* the first's part of pieces the second did not prove */
        rect_tri_begin(&m.r, &m.k, &f[0], box[0]);
        for (uint32_t i = 0; i < m.n; i++)
            if (m.pc[i].st == RP_AGAIN) rect_shade(&m.r, &m.k, &m.pc[i]);
        eg_soft_cfill_flush(&m.r.f, &m.r.cf);
    }
    return true;
}

/* A pair (eg_soft_raster_pair, pair11): both boxes clipped as raster_set_up clips them, then
 * the span path's one walk for both, else each as alone, in order. */
static void raster_pair_set_up(eg_soft_frag_t f[2], eg_soft_worker_t *w, const int64_t box[2][4])
{
    int64_t c[2][4];
    for (uint32_t i = 0; i < 2u; i++) {
        c[i][0] = max64(box[i][0], w->clip_x0); c[i][1] = min64(box[i][1], w->clip_x1);
        c[i][2] = max64(box[i][2], w->clip_y0); c[i][3] = min64(box[i][3], w->clip_y1);
        f[i].samples = f[i].ps->fb->samples == 4u ? 4u : 1u;
        f[i].sx = f[i].samples == 4u ? sample_x4 : sample_x1;
        f[i].sy = f[i].samples == 4u ? sample_y4 : sample_y1;
    }
    if (c[0][0] < c[0][1] && c[0][2] < c[0][3] && c[1][0] < c[1][1] && c[1][2] < c[1][3] &&
        eg_soft_raster_fast_paths && eg_soft_span_pair(&f[0], c[0], &f[1], c[1]))
        return;
    if (eg_soft_rect_pairs(f[0].rs) && raster_rect_pair(f, w, box)) return;
    raster_set_up(&f[0], w, box[0]);
    raster_set_up(&f[1], w, box[1]);
}

static inline void frag_init(eg_soft_frag_t *f, eg_soft_worker_t *w, const eg_soft_pass_state_t *ps,
                             const eg_soft_tri_t *t)
{
    f->w = w;
    f->ps = ps;
    f->rs = ps->rs;
    f->t = t;
    f->tex_state = 0;
    f->tex_view = f->tex_sampler = NULL;
    f->tex_fast_ok = false;
    f->no_const_proof = false;
}

void eg_soft_raster_prepared(eg_soft_worker_t *w, const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t,
                             const eg_soft_setup_t *s, const int64_t box[4])
{
    eg_soft_frag_t f;
    frag_init(&f, w, ps, t);
    f.s = *s;
    raster_set_up(&f, w, box);
}

/* A glyph quad drawn from the worker's memo of whole set-ups (soft_span.c QUAD MEMO) before
 * tri_setup_: its inputs are the snapped vertices (snap6, as tri_setup_ snaps them) and the
 * boxes clipped as tri_setup_ and raster_pair_set_up clip them (both not empty, else no memo:
 * the general path decides). *pend: a miss's key waits for eg_soft_span_pair.
 * The boxes in int32 (qmhit): the scissor's and the worker's bounds r within [-2^30, 2^30] (else
 * no memo: the general path), b = minX >> 8 and e = (maxX >> 8) + 1 within [-2^23, 2^23] (X an
 * int32): every max, min and +1 below is exact in int32, so the same values as in int64. SSE2:
 * both triangles' bounds in one vector each (lanes minX0 minY0 minX1 minY1), ~40 instructions a
 * quad fewer than the scalar min/max in int64. */
#if EMGPU_SOFT_SIMD && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__clang__)
#define QM_SHUF(a, b, i0, i1, i2, i3) __builtin_shufflevector(a, b, i0, i1, i2, i3)
#else
#define QM_SHUF(a, b, i0, i1, i2, i3) __builtin_shuffle(a, b, (snap_vi_t){ i0, i1, i2, i3 })
#endif
static EG_ALWAYS_INLINE snap_vi_t qm_vmin(snap_vi_t a, snap_vi_t b) { const snap_vi_t m = a < b; return (a & m) | (b & ~m); }
static EG_ALWAYS_INLINE snap_vi_t qm_vmax(snap_vi_t a, snap_vi_t b) { const snap_vi_t m = a > b; return (a & m) | (b & ~m); }
/* c[i] = x0 x1 y0 y1 of triangle i's clipped box from the lanes' bounds a, b, d (lanes minX0
 * minY0 minX1 minY1 over the three: triangle 0's x, y, triangle 1's x, y); false: one is empty */
static EG_ALWAYS_INLINE bool qm_boxes_of(snap_vi_t a, snap_vi_t b, snap_vi_t d, const int32_t r[4], int32_t c[2][4])
{
    snap_vi_t rl, rh;
    const snap_vi_t one = { 1, 1, 1, 1 };
    __builtin_memcpy(&rl, r, sizeof rl);   /* x0 x1 y0 y1: lo x0 y0 x0 y0, hi x1 y1 x1 y1 */
    rh = QM_SHUF(rl, rl, 1, 3, 1, 3);
    rl = QM_SHUF(rl, rl, 0, 2, 0, 2);
    const snap_vi_t lo = qm_vmax(qm_vmin(a, qm_vmin(b, d)) >> EG_SOFT_SUBPIX_BITS, rl);
    const snap_vi_t hi = qm_vmin((qm_vmax(a, qm_vmax(b, d)) >> EG_SOFT_SUBPIX_BITS) + one, rh);
    const snap_vi_t e = lo >= hi;
    uint64_t ew[2];
    __builtin_memcpy(ew, &e, sizeof ew);
    if (ew[0] | ew[1]) return false;
    const snap_vi_t c0 = QM_SHUF(lo, hi, 0, 4, 1, 5), c1 = QM_SHUF(lo, hi, 2, 6, 3, 7);
    __builtin_memcpy(c[0], &c0, sizeof c0);
    __builtin_memcpy(c[1], &c1, sizeof c1);
    return true;
}
/* c[i] = x0 x1 y0 y1 of triangle i's clipped box; false: one is empty */
static EG_ALWAYS_INLINE bool qm_boxes(const int32_t xy[2][8], const int32_t r[4], int32_t c[2][4])
{
    snap_vi_t l0, h0, l1, h1;   /* l: x0 x1 x2 y0, h: y1 y2 - - */
    __builtin_memcpy(&l0, xy[0], sizeof l0); __builtin_memcpy(&h0, xy[0] + 4, sizeof h0);
    __builtin_memcpy(&l1, xy[1], sizeof l1); __builtin_memcpy(&h1, xy[1] + 4, sizeof h1);
    const snap_vi_t p0 = QM_SHUF(l0, h0, 1, 4, 2, 5), p1 = QM_SHUF(l1, h1, 1, 4, 2, 5);   /* x1 y1 x2 y2 */
    const snap_vi_t a = QM_SHUF(l0, l1, 0, 3, 4, 7), b = QM_SHUF(p0, p1, 0, 1, 4, 5), d = QM_SHUF(p0, p1, 2, 3, 6, 7);
    return qm_boxes_of(a, b, d, r, c);
}
/* A strip quad's two boxes (q: X0 X1 X2 Y0 Y1 Y2 X3 Y3; triangle 0 V0 V1 V2, 1 V1 V3 V2) */
static EG_ALWAYS_INLINE bool qm_boxes_quad(const int32_t q[8], const int32_t r[4], int32_t c[2][4])
{
    snap_vi_t p, u;
    __builtin_memcpy(&p, q, sizeof p);
    __builtin_memcpy(&u, q + 4, sizeof u);
    const snap_vi_t e = QM_SHUF(p, u, 1, 2, 4, 5);   /* X1 X2 Y1 Y2: in both */
    const snap_vi_t a = QM_SHUF(p, u, 0, 3, 6, 7), b = QM_SHUF(e, e, 0, 2, 0, 2), d = QM_SHUF(e, e, 1, 3, 1, 3);
    return qm_boxes_of(a, b, d, r, c);
}
/* quadkey: whether t0, t1 are a strip quad's (V0, V1, V2), (V1, V3, V2) (vtxquad's quad_tris):
 * the shared vertices the same (pointers: the same varyings) with the same x, y and 1/w bits in
 * both triangles (so the same snapped values and key words as two triangles' key holds); then q:
 * snapped X0 X1 X2 Y0 Y1 Y2 X3 Y3 (t0's as snap6 lays them out, then V3's), two snap4 instead of
 * snap6's four (each lane the same function of its float as there: the same integers). Every
 * shuffle one shufps or pshufd (GCC built the others lane by lane). */
static EG_ALWAYS_INLINE bool qm_strip(const eg_soft_tri_t *t0, const eg_soft_tri_t *t1, int32_t q[8])
{
    if (t1->v[0] != t0->v[1] || t1->v[2] != t0->v[2]) return false;
    snap_vi_t a0, b0, c0, a1, b1, c1;   /* a: x0 x1 x2 y0, b: y1 y2 z0 z1, c: z2 w0 w1 w2 (bits) */
    const unsigned char *const p0 = (const unsigned char *)t0 + offsetof(eg_soft_tri_t, x);
    const unsigned char *const p1 = (const unsigned char *)t1 + offsetof(eg_soft_tri_t, x);
    __builtin_memcpy(&a0, p0, sizeof a0); __builtin_memcpy(&b0, p0 + 16, sizeof b0); __builtin_memcpy(&c0, p0 + 32, sizeof c0);
    __builtin_memcpy(&a1, p1, sizeof a1); __builtin_memcpy(&b1, p1 + 16, sizeof b1); __builtin_memcpy(&c1, p1 + 32, sizeof c1);
    const snap_vi_t s0 = QM_SHUF(a0, b0, 1, 2, 4, 5);                              /* t0: x1 x2 y1 y2 */
    const snap_vi_t s1 = QM_SHUF(a1, QM_SHUF(a1, b1, 3, 3, 5, 5), 0, 2, 4, 6);   /* t1: x0 x2 y0 y2 */
    const snap_vi_t eq = (s0 == s1) & (QM_SHUF(c0, c0, 2, 3, 2, 3) == QM_SHUF(c1, c1, 1, 3, 1, 3));   /* w1 w2, w0 w2 */
    uint64_t ew[2];
    __builtin_memcpy(ew, &eq, sizeof ew);
    if ((ew[0] & ew[1]) != ~(uint64_t)0) return false;
    const snap_vi_t u = QM_SHUF(b0, QM_SHUF(a1, b1, 0, 4, 1, 5), 0, 1, 6, 5);   /* y1 y2 X3 Y3 */
    const snap_vi_t sa = snap4((snap_vf_t)a0), su = snap4((snap_vf_t)u);
    __builtin_memcpy(q, &sa, sizeof sa);
    __builtin_memcpy(q + 4, &su, sizeof su);
    return true;
}
#else
static inline int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }
static inline int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }
static EG_ALWAYS_INLINE bool qm_boxes(const int32_t xy[2][8], const int32_t r[4], int32_t c[2][4])
{
    for (uint32_t i = 0; i < 2u; i++) {
        const int32_t *X = xy[i], *Y = xy[i] + 3;
        c[i][0] = max32(min32(X[0], min32(X[1], X[2])) >> EG_SOFT_SUBPIX_BITS, r[0]);
        c[i][1] = min32((max32(X[0], max32(X[1], X[2])) >> EG_SOFT_SUBPIX_BITS) + 1, r[1]);
        c[i][2] = max32(min32(Y[0], min32(Y[1], Y[2])) >> EG_SOFT_SUBPIX_BITS, r[2]);
        c[i][3] = min32((max32(Y[0], max32(Y[1], Y[2])) >> EG_SOFT_SUBPIX_BITS) + 1, r[3]);
        if (c[i][0] >= c[i][1] || c[i][2] >= c[i][3]) return false;
    }
    return true;
}
static EG_ALWAYS_INLINE bool qm_boxes_quad(const int32_t q[8], const int32_t r[4], int32_t c[2][4])
{
    const int32_t xy[2][8] = { { q[0], q[1], q[2], q[3], q[4], q[5] }, { q[1], q[6], q[2], q[4], q[7], q[5] } };
    return qm_boxes(xy, r, c);
}
static EG_ALWAYS_INLINE bool qm_strip(const eg_soft_tri_t *t0, const eg_soft_tri_t *t1, int32_t q[8])
{
    if (t1->v[0] != t0->v[1] || t1->v[2] != t0->v[2]) return false;
    uint32_t a[9], b[9];   /* x, y, 1/w bits */
    __builtin_memcpy(a, t0->x, 3u * sizeof(float)); __builtin_memcpy(a + 3, t0->y, 3u * sizeof(float));
    __builtin_memcpy(a + 6, t0->invw, 3u * sizeof(float));
    __builtin_memcpy(b, t1->x, 3u * sizeof(float)); __builtin_memcpy(b + 3, t1->y, 3u * sizeof(float));
    __builtin_memcpy(b + 6, t1->invw, 3u * sizeof(float));
    if (b[0] != a[1] || b[2] != a[2] || b[3] != a[4] || b[5] != a[5] || b[6] != a[7] || b[8] != a[8]) return false;
    for (uint32_t i = 0; i < 3; i++) { q[i] = eg_soft_snap(t0->x[i]); q[3u + i] = eg_soft_snap(t0->y[i]); }
    q[6] = eg_soft_snap(t1->x[1]);
    q[7] = eg_soft_snap(t1->y[1]);
    return true;
}
#endif
static EG_ALWAYS_INLINE bool quad_memo(eg_soft_frag_t f[2], eg_soft_worker_t *w, const eg_soft_pass_state_t *ps,
                                       bool *pend)
{
    *pend = false;
    if (!eg_soft_quad_memo_on || !eg_soft_span_pairs(ps->rs)) return false;
    int32_t xy[2][8], c[2][4];
    /* the scissor and the worker's rectangle: max(max(b, s), w) = max(b, max(s, w)) */
    const int64_t r64[4] = { max64(ps->sc_x0, w->clip_x0), min64(ps->sc_x1, w->clip_x1),
                             max64(ps->sc_y0, w->clip_y0), min64(ps->sc_y1, w->clip_y1) };
    const uint64_t h = (uint64_t)1 << 30, lim = (uint64_t)1 << 31;   /* r + 2^30 in [0, 2^31] (wrapped) */
    if ((uint64_t)r64[0] + h > lim || (uint64_t)r64[1] + h > lim || (uint64_t)r64[2] + h > lim ||
        (uint64_t)r64[3] + h > lim)
        return false;
    const int32_t r[4] = { (int32_t)r64[0], (int32_t)r64[1], (int32_t)r64[2], (int32_t)r64[3] };
    if (qm_strip(f[0].t, f[1].t, xy[0])) {   /* (xy[1] not read) */
        if (!qm_boxes_quad(xy[0], r, c)) return false;
        return eg_soft_quad_memo(f, (const int32_t(*)[8])xy, (const int32_t(*)[4])c, true, pend);
    }
    snap6(f[0].t, xy[0]);
    snap6(f[1].t, xy[1]);
    if (!qm_boxes((const int32_t(*)[8])xy, r, c)) return false;
    return eg_soft_quad_memo(f, (const int32_t(*)[8])xy, (const int32_t(*)[4])c, false, pend);
}

void eg_soft_raster_prepared_pair(eg_soft_worker_t *w, const eg_soft_pass_state_t *ps, const eg_soft_tri_t *const t[2],
                                  const eg_soft_setup_t s[2], const int64_t box[2][4])
{
    eg_soft_frag_t f[2];
    for (uint32_t i = 0; i < 2u; i++) frag_init(&f[i], w, ps, t[i]);
    bool pend;
    if (quad_memo(f, w, ps, &pend)) return;
    for (uint32_t i = 0; i < 2u; i++) f[i].s = s[i];
    raster_pair_set_up(f, w, box);
    if (pend) eg_soft_quad_memo_end(w);
}

void eg_soft_raster_pair(eg_soft_worker_t *w, const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t0,
                         const eg_soft_tri_t *t1)
{
    eg_soft_frag_t f[2];
    int64_t box[2][4];
    frag_init(&f[0], w, ps, t0);
    frag_init(&f[1], w, ps, t1);
    bool pend;
    if (quad_memo(f, w, ps, &pend)) return;
    /* tri_setup_ inlined: a pair's two calls' frames were ~30 instructions a glyph quad (pairset2) */
    bool ok0 = tri_setup_(ps, t0, &f[0].s, box[0]), ok1 = tri_setup_(ps, t1, &f[1].s, box[1]);
    if (ok0 && ok1) raster_pair_set_up(f, w, box);
    else if (ok0) raster_set_up(&f[0], w, box[0]);
    else if (ok1) raster_set_up(&f[1], w, box[1]);
    if (pend) eg_soft_quad_memo_end(w);
}

void eg_soft_raster_triangle(eg_soft_worker_t *w, const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t)
{
    eg_soft_frag_t f;
    int64_t box[4];
    frag_init(&f, w, ps, t);
    if (tri_setup(ps, t, &f.s, box)) raster_set_up(&f, w, box);
}

#endif /* EMGPU_HAL_SOFT */
