/* hal/soft per-block fragment pipeline, shared internals of soft_raster_shade.c and
 * soft_raster_shade_mesh.c: the vector-width switches, barycentrics and interpolation.
 * Everything here is static inline (one copy per including file, as before the split). */
#ifndef EG_SOFT_RASTER_SHADE_INT_H
#define EG_SOFT_RASTER_SHADE_INT_H

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_vm_simd.h"
#include "hal/soft/soft_jit.h"

/* Every 2x2 quad (bits b, b+1, b+4, b+5 for the bases b = 0, 2, 8, 10) with a bit of m, whole:
 * each base bit gathers its quad's OR, then multiplying by 0x33 spreads it back (the quads do not
 * overlap, so there are no carries). */
static inline eg_soft_mask_t quad_expand(eg_soft_mask_t m)
{
    uint32_t q = ((uint32_t)m | (uint32_t)m >> 1 | (uint32_t)m >> 4 | (uint32_t)m >> 5) & 0x0505u;
    return (eg_soft_mask_t)(q * 0x33u);
}

#if defined(VM_SIMD_NATIVE) && VM_VW == 4
#define DEPTH_VEC 1   /* 4-lane vectors (the name from when the depth rows lived here) */
#else
#define DEPTH_VEC 0
#endif

/* 8 lanes per vector on x86-64 CPUs with AVX2, asked at run time as soft_sample_vec.c does (the
 * library stays baseline x86-64): the same per-lane operations in the same order as the 4-lane
 * code, so the same bits. eg_soft_shade_vw (tests) can hold it to 4 lanes. */
#if DEPTH_VEC && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(EMGPU_SOFT_VM_NO_AVX2)
#define SHADE_AVX2 1
#define SHADE_AVX2_ATTR __attribute__((target("avx2")))
typedef float v8f __attribute__((vector_size(32)));
#define V8(v) ((v8f){ (v), (v), (v), (v), (v), (v), (v), (v) })
static inline bool shade_avx2(void)
{
    return eg_soft_shade_vw >= 8u && __builtin_cpu_supports("avx2");
}
#else
#define SHADE_AVX2 0
#endif

/* ---- interpolation ---- */

/* Barycentrics at the pixel centres of the block (or at one sample's position in every pixel, for
 * Sample-qualified inputs): l[i][lane] screen-linear, p[i][lane]
 * perspective-corrected weights of vertices 1 and 2; w1[lane] = interpolated 1/w
 * (FragCoord.w). Attributes are a0 + w1 (a1 - a0) + w2 (a2 - a0), so a constant attribute
 * interpolates to exactly itself. */
typedef struct bary {
    float l[2][EG_SOFT_LANES], p[2][EG_SOFT_LANES], w1[EG_SOFT_LANES];
} bary_t;

/* Lane offsets inside a 4x4 block, as floats (x = lane & 3, y = lane >> 2). */
static const float lane_fx[EG_SOFT_LANES] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
static const float lane_fy[EG_SOFT_LANES] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3 };

/* All 16 lanes, branch-free so the compiler vectorises it: the block origin's barycentrics
 * come exactly from the 64-bit edge values, lanes step from there by the per-pixel gradients
 * (the same float operations in the same order on every CPU). (ox, oy): the position inside
 * the pixel in subpixels (EG_SOFT_SUBPIX / 2: the centre; f->sx/sy[s]: sample s). */
static EG_ALWAYS_INLINE void bary_body(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, bary_t *b, bool persp,
                                       int32_t ox, int32_t oy, bool wide)
{
    const eg_soft_setup_t *s = &f->s;
    int64_t X = (int64_t)bx * EG_SOFT_SUBPIX + ox, Y = (int64_t)by * EG_SOFT_SUBPIX + oy;
    float e1 = (float)(s->A[1] * X + s->B[1] * Y + s->C[1]) * s->inv_area2;
    float e2 = (float)(s->A[2] * X + s->B[2] * Y + s->C[2]) * s->inv_area2;
    float d1x = (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2, d1y = (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    float d2x = (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2, d2y = (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2;
    float iw0 = f->t->invw[0], iw1 = f->t->invw[1], iw2 = f->t->invw[2];
#if SHADE_AVX2
    if (wide) {   /* rows r and r + 1 in one vector: the same per-lane operations as below */
        const v8f fx = { 0, 1, 2, 3, 0, 1, 2, 3 }, one = V8(1.0f);
        const v8f c1 = V8(e1) + fx * V8(d1x), c2 = V8(e2) + fx * V8(d2x);
        const v8f v0 = V8(iw0), v1 = V8(iw1), v2 = V8(iw2);
        for (uint32_t r = 0; r < 4u; r += 2u) {
            float fy0 = (float)r, fy1 = (float)(r + 1u);
            float y10 = fy0 * d1y, y11 = fy1 * d1y, y20 = fy0 * d2y, y21 = fy1 * d2y;
            v8f l1 = c1 + (v8f){ y10, y10, y10, y10, y11, y11, y11, y11 };
            v8f l2 = c2 + (v8f){ y20, y20, y20, y20, y21, y21, y21, y21 };
            __builtin_memcpy(b->l[0] + 4u * r, &l1, 32);
            __builtin_memcpy(b->l[1] + 4u * r, &l2, 32);
            if (!persp) continue;
            v8f l0 = one - l1 - l2;
            v8f q0 = l0 * v0, q1 = l1 * v1, q2 = l2 * v2;
            v8f w1 = q0 + q1 + q2;
            v8f rw = one / w1;
            q1 = q1 * rw;
            q2 = q2 * rw;
            __builtin_memcpy(b->p[0] + 4u * r, &q1, 32);
            __builtin_memcpy(b->p[1] + 4u * r, &q2, 32);
            __builtin_memcpy(b->w1 + 4u * r, &w1, 32);
        }
        return;
    }
#else
    (void)wide;
#endif
#if DEPTH_VEC
    /* by rows of 4 lanes: e + lane_fx * dx is the same in every row, lane_fy * dy the same in
     * every lane of a row, so each is computed once (the same values; the sums keep their order) */
    const vf_t fx = { 0.0f, 1.0f, 2.0f, 3.0f };
    const vf_t vd1x = { d1x, d1x, d1x, d1x }, vd2x = { d2x, d2x, d2x, d2x };
    const vf_t c1 = (vf_t){ e1, e1, e1, e1 } + fx * vd1x, c2 = (vf_t){ e2, e2, e2, e2 } + fx * vd2x;
    const vf_t one = { 1.0f, 1.0f, 1.0f, 1.0f };
    const vf_t v0 = { iw0, iw0, iw0, iw0 }, v1 = { iw1, iw1, iw1, iw1 }, v2 = { iw2, iw2, iw2, iw2 };
    VM_UNROLL_ for (uint32_t r = 0; r < 4u; r++) {
        float fy = (float)r, y1 = fy * d1y, y2 = fy * d2y;
        vf_t l1 = c1 + (vf_t){ y1, y1, y1, y1 }, l2 = c2 + (vf_t){ y2, y2, y2, y2 };
        VSTORE(b->l[0] + 4u * r, l1);
        VSTORE(b->l[1] + 4u * r, l2);
        if (!persp) continue;   /* nothing reads p or w1 (shade) */
        vf_t l0 = one - l1 - l2;
        vf_t q0 = l0 * v0, q1 = l1 * v1, q2 = l2 * v2;
        vf_t w1 = q0 + q1 + q2;
        vf_t rw = one / w1;   /* w > 0 after clipping; only far helper lanes can see 0 */
        q1 = q1 * rw;
        q2 = q2 * rw;
        VSTORE(b->p[0] + 4u * r, q1);
        VSTORE(b->p[1] + 4u * r, q2);
        VSTORE(b->w1 + 4u * r, w1);
    }
    return;
#endif
    if (!persp) {   /* nothing reads p or w1 (shade) */
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            b->l[0][l] = e1 + lane_fx[l] * d1x + lane_fy[l] * d1y;
            b->l[1][l] = e2 + lane_fx[l] * d2x + lane_fy[l] * d2y;
        }
        return;
    }
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        float l1 = e1 + lane_fx[l] * d1x + lane_fy[l] * d1y;
        float l2 = e2 + lane_fx[l] * d2x + lane_fy[l] * d2y;
        float l0 = 1.0f - l1 - l2;
        b->l[0][l] = l1; b->l[1][l] = l2;
        float q0 = l0 * iw0, q1 = l1 * iw1, q2 = l2 * iw2;
        float w1 = q0 + q1 + q2;
        float r = 1.0f / w1;   /* w > 0 after clipping; only far helper lanes can see 0 */
        b->p[0][l] = q1 * r; b->p[1][l] = q2 * r;
        b->w1[l] = w1;
    }
}

static inline void barycentrics(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, bary_t *b, bool persp, int32_t ox,
                         int32_t oy)
{
    bary_body(f, bx, by, b, persp, ox, oy, false);
}

#if SHADE_AVX2
static inline SHADE_AVX2_ATTR void barycentrics_avx2(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, bary_t *b, bool persp)
{
    bary_body(f, bx, by, b, persp, EG_SOFT_SUBPIX / 2, EG_SOFT_SUBPIX / 2, true);
}
#endif

#if SHADE_AVX2
/* barycentrics_avx2 with per-triangle column terms cx and row terms ry (the block's 4 rows as two
 * 8-lane halves): per lane e + k dx + r dy, then, with persp, the perspective weights in
 * bary_body's order. The mesh path (soft_raster_shade_mesh.c) and shade_vm
 * (soft_raster_shade.c) keep these terms per triangle. */
static SHADE_AVX2_ATTR EG_ALWAYS_INLINE void bary_terms_avx2(const eg_soft_frag_t *f, const float cx[2][8],
                                                             const float ry[2][2][8], bool persp, uint32_t bx,
                                                             uint32_t by, bary_t *b)
{
    const eg_soft_setup_t *s = &f->s;
    int64_t X = (int64_t)bx * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = (int64_t)by * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    float e1 = (float)(s->A[1] * X + s->B[1] * Y + s->C[1]) * s->inv_area2;
    float e2 = (float)(s->A[2] * X + s->B[2] * Y + s->C[2]) * s->inv_area2;
    v8f cx1, cx2;
    __builtin_memcpy(&cx1, cx[0], 32);
    __builtin_memcpy(&cx2, cx[1], 32);
    const v8f c1 = V8(e1) + cx1, c2 = V8(e2) + cx2, one = V8(1.0f);
    const v8f v0 = V8(f->t->invw[0]), v1 = V8(f->t->invw[1]), v2 = V8(f->t->invw[2]);
    for (uint32_t h = 0; h < 2u; h++) {
        v8f y1, y2;
        __builtin_memcpy(&y1, ry[0][h], 32);
        __builtin_memcpy(&y2, ry[1][h], 32);
        v8f l1 = c1 + y1, l2 = c2 + y2;
        __builtin_memcpy(b->l[0] + 8u * h, &l1, 32);
        __builtin_memcpy(b->l[1] + 8u * h, &l2, 32);
        if (!persp) continue;
        v8f l0 = one - l1 - l2;
        v8f q0 = l0 * v0, q1 = l1 * v1, q2 = l2 * v2;
        v8f w1 = q0 + q1 + q2;
        v8f rw = one / w1;
        q1 = q1 * rw;
        q2 = q2 * rw;
        __builtin_memcpy(b->p[0] + 8u * h, &q1, 32);
        __builtin_memcpy(b->p[1] + 8u * h, &q2, 32);
        __builtin_memcpy(b->w1 + 8u * h, &w1, 32);
    }
}
#endif

static inline bool finite_nonzero(float v)
{
    union { float f; uint32_t u; } c = { v };
    return (c.u & 0x7f800000u) != 0x7f800000u && (c.u & 0x7fffffffu) != 0u;
}

/* Whether all 16 perspective weights of both vertices are finite (far helper lanes may not be). */
static inline bool persp_finite(const bary_t *b)
{
    uint32_t bad = 0;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        union { float f; uint32_t u; } x = { b->p[0][l] }, y = { b->p[1][l] };
        bad |= ((x.u & 0x7f800000u) == 0x7f800000u) | ((y.u & 0x7f800000u) == 0x7f800000u);
    }
    return bad == 0u;
}

/* dst[l] = a0 + w0[l] d1 + w1[l] d2 (+ bias): the same per-lane operations in the same order as
 * the scalar loop, 4 lanes per vector and unrolled (GCC -O2 vectorises the loop but leaves it
 * rolled). */
static EG_ALWAYS_INLINE void lerp_body(float *dst, const float *w0, const float *w1, float a0, float d1, float d2,
                                       bool biased, float bias, bool wide)
{
#if SHADE_AVX2
    if (wide) {
        const v8f va = V8(a0), v1 = V8(d1), v2 = V8(d2), vb = V8(bias);
        for (uint32_t k = 0; k < EG_SOFT_LANES; k += 8u) {
            v8f x, y;
            __builtin_memcpy(&x, w0 + k, 32);
            __builtin_memcpy(&y, w1 + k, 32);
            x = x * v1;
            x = va + x;
            y = y * v2;
            x = x + y;
            if (biased) x = x + vb;
            __builtin_memcpy(dst + k, &x, 32);
        }
        return;
    }
#else
    (void)wide;
#endif
#if DEPTH_VEC
    const vf_t va = { a0, a0, a0, a0 }, v1 = { d1, d1, d1, d1 }, v2 = { d2, d2, d2, d2 };
    const vf_t vb = { bias, bias, bias, bias };
    VM_UNROLL_ for (uint32_t k = 0; k < EG_SOFT_LANES; k += 4u) {
        vf_t x, y;
        VLOAD(x, w0 + k);
        VLOAD(y, w1 + k);
        x = x * v1;
        x = va + x;
        y = y * v2;
        x = x + y;
        if (biased) x = x + vb;
        VSTORE(dst + k, x);
    }
#else
    if (biased)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = a0 + w0[l] * d1 + w1[l] * d2 + bias;
    else
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = a0 + w0[l] * d1 + w1[l] * d2;
#endif
}

/* Also records in w->in_uniform the input slots whose 16 lanes hold the same bits: flat inputs,
 * and inputs equal at the three vertices (a0 != 0 finite) with finite weights in every lane
 * (linear weights always are; perspective ones are checked): a0 + w1 * 0 + w2 * 0 adds two
 * zeros to a nonzero a0, which gives a0 exactly, so those lanes are set to a0 directly.
 * Sample-qualified inputs (rs->vary_sample) take the weights bs (b outside per-sample runs). */
static EG_ALWAYS_INLINE void lerp_lanes(float *dst, const float *w0, const float *w1, float a0, float d1, float d2,
                                        bool biased, float bias)
{
    lerp_body(dst, w0, w1, a0, d1, d2, biased, bias, false);
}

static EG_ALWAYS_INLINE void interp_body(const eg_soft_frag_t *f, const bary_t *bc, const bary_t *bs, bool wide)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_tri_t *t = f->t;
    int32_t pfins[2] = { -1, -1 };   /* persp_finite of bc, bs: computed when first needed */
    uint64_t uni = 0;
    for (uint32_t j = 0; j < rs->nvary; j++) {
        uint32_t at_s = bs != bc && (rs->vary_sample >> j & 1u);
        const bary_t *b = at_s ? bs : bc;
        int32_t *pfin = &pfins[at_s];
        float *dst = f->w->io_in[rs->vary_loc[j]].c[rs->vary_comp[j]].f;
        uint64_t slot = (uint64_t)1 << (rs->vary_loc[j] * 4u + rs->vary_comp[j]);
        if (rs->vary_interp[j] == EG_SOFT_INTERP_FLAT) {
            float v = t->prov->var[j];
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = v;
            uni |= slot;
            continue;
        }
        const float (*w)[EG_SOFT_LANES] = rs->vary_interp[j] == EG_SOFT_INTERP_LINEAR ? b->l : b->p;
        float a0 = t->v[0]->var[j], d1 = t->v[1]->var[j] - a0, d2 = t->v[2]->var[j] - a0;
        if (d1 == 0.0f && d2 == 0.0f && finite_nonzero(a0) && eg_soft_raster_fast_paths &&
            (rs->vary_interp[j] == EG_SOFT_INTERP_LINEAR || (*pfin < 0 ? (*pfin = persp_finite(b)) : *pfin))) {
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = a0;
            uni |= slot;
            continue;
        }
        lerp_body(dst, w[0], w[1], a0, d1, d2, false, 0.0f, wide);
    }
    f->w->in_uniform = uni;
}

static inline void interpolate(const eg_soft_frag_t *f, const bary_t *bc, const bary_t *bs)
{
    interp_body(f, bc, bs, false);
}

#if SHADE_AVX2
/* The same values 8 lanes at a time (bs = bc: no per-sample positions), and the depth (zc). */
static inline SHADE_AVX2_ATTR void interpolate_avx2(const eg_soft_frag_t *f, const bary_t *b)
{
    interp_body(f, b, b, true);
}

static inline SHADE_AVX2_ATTR void depth_lerp_avx2(const eg_soft_frag_t *f, const bary_t *b, float *zc)
{
    lerp_body(zc, b->l[0], b->l[1], f->z[0], f->z[1] - f->z[0], f->z[2] - f->z[0], true, f->bias, true);
}
#endif

/* soft_raster_shade_mesh.c (8-lane boards): the fused mesh state's per-triangle test and block. */
void eg_soft_mesh_setup(eg_soft_frag_t *f);
void eg_soft_shade_mesh(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES]);

#endif /* EG_SOFT_RASTER_SHADE_INT_H */
