/* hal/soft per-block fragment pipeline: interpolation, shading, blend and store.
 *
 * soft_raster.c walks a triangle in 4x4 blocks and calls eg_soft_shade_block for each block
 * with coverage; everything here works on one block of one worker (soft_raster.h). The depth /
 * stencil test is in soft_raster_depth.c.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

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

static void barycentrics(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, bary_t *b, bool persp, int32_t ox,
                         int32_t oy)
{
    bary_body(f, bx, by, b, persp, ox, oy, false);
}

#if SHADE_AVX2
static SHADE_AVX2_ATTR void barycentrics_avx2(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, bary_t *b, bool persp)
{
    bary_body(f, bx, by, b, persp, EG_SOFT_SUBPIX / 2, EG_SOFT_SUBPIX / 2, true);
}
#endif

static inline bool finite_nonzero(float v)
{
    union { float f; uint32_t u; } c = { v };
    return (c.u & 0x7f800000u) != 0x7f800000u && (c.u & 0x7fffffffu) != 0u;
}

/* Whether all 16 perspective weights of both vertices are finite (far helper lanes may not be). */
static bool persp_finite(const bary_t *b)
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

static void interpolate(const eg_soft_frag_t *f, const bary_t *bc, const bary_t *bs)
{
    interp_body(f, bc, bs, false);
}

#if SHADE_AVX2
/* The same values 8 lanes at a time (bs = bc: no per-sample positions), and the depth (zc). */
static SHADE_AVX2_ATTR void interpolate_avx2(const eg_soft_frag_t *f, const bary_t *b)
{
    interp_body(f, b, b, true);
}

static SHADE_AVX2_ATTR void depth_lerp_avx2(const eg_soft_frag_t *f, const bary_t *b, float *zc)
{
    lerp_body(zc, b->l[0], b->l[1], f->z[0], f->z[1] - f->z[0], f->z[2] - f->z[0], true, f->bias, true);
}
#endif

/* ---- color output ---- */

/* uniform: output 0 holds the same value in every lane (block-constant path). */
static void write_colors(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES],
                         bool uniform)
{
    if (f->out_pack) {   /* eg_soft_shade_setup: the loop below's only work for this state */
        const eg_soft_target_t *t = f->out_t;
        if (cov[0]) f->out_pack(t, t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B, cov[0],
                                &f->w->io_out[0], f->out_wmask);
        return;
    }
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    for (uint32_t i = 0; i < rs->rt_count && i < fb->color_count; i++) {
        const eg_soft_blend_t *b = &rs->blend[i];
        const eg_soft_target_t *t = &fb->color[i];
        if (!b->wmask || !t->base) continue;
        uint8_t *blk = t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B;
        for (uint32_t s = 0; s < f->samples; s++) {
            if (!cov[s]) continue;
            if (rs->blend_fast[i] && eg_soft_raster_fast_paths) {
                if (uniform && i == 0u)
                    eg_soft_blend_const(t, blk + (size_t)s * t->block_B, cov[s], &f->w->io_out[i], rs->blend_fast[i]);
                else if (rs->blend_fast[i] & EG_SOFT_BLEND_U8_565)
                    eg_soft_blend_565(t, blk + (size_t)s * t->block_B, cov[s], &f->w->io_out[i], rs->blend_fast[i]);
                else
                    eg_soft_blend_u8(t, blk + (size_t)s * t->block_B, cov[s], &f->w->io_out[i], rs->blend_fast[i]);
            } else if (b->enabled) {
                eg_soft_vec4_t dst;
                if (cov[s] != EG_SOFT_ALL_LANES) eg_memset(&dst, 0, sizeof dst);   /* keep unused lanes finite */
                rs->fmt[i].unpack(t, blk + (size_t)s * t->block_B, cov[s], &dst);
                eg_soft_blend_block(b, f->ps->blend_constant, rs->fmt[i].clamp01, &f->w->io_out[i], &dst, cov[s]);
                rs->fmt[i].pack(t, blk + (size_t)s * t->block_B, cov[s], &dst, b->wmask);
            } else {
                rs->fmt[i].pack(t, blk + (size_t)s * t->block_B, cov[s], &f->w->io_out[i], b->wmask);
            }
        }
    }
}

/* ---- one block ---- */

#if SHADE_AVX2
/* The fused mesh path (helper "mesh7c"): shade()'s steps for one state, its tests done once
 * per triangle (mesh_setup). The state: one sample in the sample mask, a fragment program of
 * the one-texture class (not copy, not block-constant, no native function), early depth with
 * ds_fast, 8 lanes (shade_avx2), out_pack, and inputs none of which is flat or takes
 * interp_body's constant shortcut (d1 = d2 = 0 with a finite nonzero a0): then interp_body
 * runs lerp_body for every input with the a0, d1, d2 it computes from the same vertices (the
 * same expressions here) and in_uniform is 0. shade_mesh makes the calls shade() makes in this
 * state, in the same order, with the same arguments: the same bytes. */
static void mesh_setup(eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_tri_t *t = f->t;
    if (!f->ds_fast || !f->out_pack || !(rs->sample_mask & 1u) || !rs->fs || !rs->early_z || !rs->fs_tex ||
        rs->fs_copy || rs->fs_const || rs->native_fs || !eg_soft_raster_fast_paths || rs->nvary > EG_SOFT_MESH_VARY ||
        !shade_avx2())
        return;
    for (uint32_t j = 0; j < rs->nvary; j++) {
        if (rs->vary_interp[j] == EG_SOFT_INTERP_FLAT) return;
        float a0 = t->v[0]->var[j], d1 = t->v[1]->var[j] - a0, d2 = t->v[2]->var[j] - a0;
        if (d1 == 0.0f && d2 == 0.0f && finite_nonzero(a0)) return;
        f->mv_a0[j] = a0;
        f->mv_d1[j] = d1;
        f->mv_d2[j] = d2;
        f->mv_dst[j] = f->w->io_in[rs->vary_loc[j]].c[rs->vary_comp[j]].f;
        f->mv_persp[j] = rs->vary_interp[j] != EG_SOFT_INTERP_LINEAR;
    }
    f->mv_n = rs->nvary;
    f->mesh_tex = 0;
    /* bary_body's per-triangle terms, the same expressions (its wide branch) */
    const eg_soft_setup_t *s = &f->s;
    float dx[2] = { (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2, (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2 };
    float dy[2] = { (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2, (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2 };
    /* (float)(l & 3) and (float)(2 h + (l >> 2)) as tables: the same products, vectorised */
    static const float kx[8] = { 0, 1, 2, 3, 0, 1, 2, 3 }, ky[2][8] = { { 0, 0, 0, 0, 1, 1, 1, 1 }, { 2, 2, 2, 2, 3, 3, 3, 3 } };
    for (uint32_t v = 0; v < 2u; v++) {
        for (uint32_t l = 0; l < 8u; l++) f->mb_cx[v][l] = kx[l] * dx[v];
        for (uint32_t h = 0; h < 2u; h++)
            for (uint32_t l = 0; l < 8u; l++) f->mb_ry[v][h][l] = ky[h][l] * dy[v];
    }
    f->mesh_persp = rs->persp_used || (rs->frag_coord_used & 8u);
    f->mesh_store = (f->out_wmask & 15u) != 15u ? 0u
                    : f->out_t->format == WGPUTextureFormat_RGBA8Unorm ? 1u
                    : f->out_t->format == WGPUTextureFormat_BGRA8Unorm ? 2u : 0u;
    f->mesh_fast = true;
}

/* barycentrics_avx2 with mesh_setup's per-triangle terms (persp = f->mesh_persp): per lane
 * e + k dx + r dy, then the perspective weights, the same operations as bary_body. */
static SHADE_AVX2_ATTR void barycentrics_mesh_avx2(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, bary_t *b)
{
    const eg_soft_setup_t *s = &f->s;
    int64_t X = (int64_t)bx * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = (int64_t)by * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    float e1 = (float)(s->A[1] * X + s->B[1] * Y + s->C[1]) * s->inv_area2;
    float e2 = (float)(s->A[2] * X + s->B[2] * Y + s->C[2]) * s->inv_area2;
    v8f cx1, cx2;
    __builtin_memcpy(&cx1, f->mb_cx[0], 32);
    __builtin_memcpy(&cx2, f->mb_cx[1], 32);
    const v8f c1 = V8(e1) + cx1, c2 = V8(e2) + cx2, one = V8(1.0f);
    const v8f v0 = V8(f->t->invw[0]), v1 = V8(f->t->invw[1]), v2 = V8(f->t->invw[2]);
    for (uint32_t h = 0; h < 2u; h++) {
        v8f y1, y2;
        __builtin_memcpy(&y1, f->mb_ry[0][h], 32);
        __builtin_memcpy(&y2, f->mb_ry[1][h], 32);
        v8f l1 = c1 + y1, l2 = c2 + y2;
        __builtin_memcpy(b->l[0] + 8u * h, &l1, 32);
        __builtin_memcpy(b->l[1] + 8u * h, &l2, 32);
        if (!f->mesh_persp) continue;
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

static SHADE_AVX2_ATTR void interpolate_mesh_avx2(const eg_soft_frag_t *f, const bary_t *b)
{
    for (uint32_t j = 0; j < f->mv_n; j++) {
        const float (*w)[EG_SOFT_LANES] = f->mv_persp[j] ? b->p : b->l;
        lerp_body(f->mv_dst[j], w[0], w[1], f->mv_a0[j], f->mv_d1[j], f->mv_d2[j], false, 0.0f, true);
    }
    f->w->in_uniform = 0;
}

/* shade() in mesh_setup's state (cov[0] is the only sample). */
#define MESH_NOINLINE __attribute__((noinline))   /* GCC only, as SHADE_AVX2 */
static MESH_NOINLINE void shade_mesh_staged(eg_soft_frag_t *f, uint32_t bx, uint32_t by,
                                          eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES]);

static void shade_mesh(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    if (!cov[0]) return;
    if (f->mesh_tex == 0) f->mesh_tex = eg_soft_tex_mesh_kind(f);   /* 2: the block in one pass (tex8) */
    if (f->mesh_tex == 2) {
        if ((cov[0] = eg_soft_mesh_block(f, bx, by, cov[0])) != 0) f->w->tex_blocks++;
        return;
    }
    shade_mesh_staged(f, bx, by, cov);
}

/* shade_mesh's calls stage by stage (out of line: its frame is not paid by the one-pass case) */
static MESH_NOINLINE void shade_mesh_staged(eg_soft_frag_t *f, uint32_t bx, uint32_t by,
                                          eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    bary_t b;
    float zc[EG_SOFT_LANES];
    barycentrics_mesh_avx2(f, bx, by, &b);
    depth_lerp_avx2(f, &b, zc);
    eg_soft_mask_t pix = cov[0] = eg_soft_ds_fast(f, bx, by, zc, cov[0]);
    if (!pix) return;
    interpolate_mesh_avx2(f, &b);
    f->w->tex_blocks++;
    const eg_soft_target_t *t = f->out_t;   /* write_colors' out_pack case */
    uint8_t *blk = t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B;
    if (f->mesh_tex > 0 && f->mesh_store) {   /* the sample and the pack in one: the same bytes */
        eg_soft_sample_rgba8_store_avx2(&f->tex_fast, f->mesh_u, f->mesh_v, pix, f->mesh_store == 2u, blk,
                                        t->row_pitch_B);
        return;
    }
    if (f->mesh_tex > 0) eg_soft_sample_rgba8_avx2(&f->tex_fast, f->mesh_u, f->mesh_v, quad_expand(pix), &f->w->io_out[0]);
    else eg_soft_tex_block(f, quad_expand(pix));
    f->out_pack(t, blk, pix, &f->w->io_out[0], f->out_wmask);
}
#endif

/* The program's whole native function (soft_jit.c), or NULL. It has no side effect, kill or
 * derivative (soft_jit.c whole_ok), so it may run on every lane of a partial block: lanes outside
 * the block's active ones compute values that nothing stores (cov is ANDed with them). */
static inline eg_vm_jit_whole_fn_t jit_whole(const eg_soft_program_t *p)
{
#if EMGPU_SOFT_JIT
    if (p->jit && p->jit_whole_at) return (eg_vm_jit_whole_fn_t)(uintptr_t)(p->jit + p->jit_whole_at);
#else
    (void)p;
#endif
    return NULL;
}

/* Whether shade() of a wholly covered block reduces, for this triangle, to interpolation,
 * FragCoord.xy (and .w), the program's whole native function and write_colors: none of the
 * paths before the VM, no depth / stencil, one sample, no per-lane output besides colour. */
static bool jit_fast_ok(const eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
#if SHADE_AVX2
    if (!shade_avx2()) return false;
#else
    return false;
#endif
    return rs->fs && jit_whole(rs->fs) && !f->mesh_fast && eg_soft_raster_fast_paths && !rs->native_fs &&
           !rs->fs_copy && !rs->fs_const && !rs->fs_tex && f->samples == 1u && (rs->sample_mask & 1u) &&
           !rs->depth_test && !rs->stencil_test && !(rs->frag_coord_used & 4u) && !rs->fsi->writes_depth &&
           !rs->alpha_to_coverage && !rs->fs->uses_sample_mask && !rs->fs->writes_sample_mask &&
           !rs->fs->uses_sample_id;
}

/* Per triangle: the depth test's set-up (soft_raster_depth.c) and write_colors' case of one
 * target, one sample, no blend (neither fused nor general): the pack of target 0 alone, the
 * loop's tests (~100 instructions a block on the textured mesh) done once. */
void eg_soft_shade_setup(eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    eg_soft_ds_fast_setup(f);
    f->out_pack = NULL;
    f->mesh_fast = false;
    if (rs->rt_count == 1u && fb->color_count >= 1u && f->samples == 1u && rs->blend[0].wmask && fb->color[0].base &&
        !(rs->blend_fast[0] && eg_soft_raster_fast_paths) && !rs->blend[0].enabled) {
        f->out_pack = rs->fmt[0].pack;
        f->out_t = &fb->color[0];
        f->out_wmask = rs->blend[0].wmask;
    }
#if SHADE_AVX2
    mesh_setup(f);
#endif
    f->jit_fast = jit_fast_ok(f);
    f->jit_pack = f->jit_fast && f->out_pack ? eg_soft_pack_full_of(f->out_pack, f->out_t, f->out_wmask) : NULL;
}

bool eg_soft_raster_fast_paths = true;
uint32_t eg_soft_shade_vw = 8u;

/* The VM's effect for a copy-class program (soft_vm_classify.c), all lanes: the same bits it
 * would commit on the active lanes; other lanes are never stored. */
static void copy_shade(const eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    for (uint32_t c = 0; c < 4u; c++) {
        uint32_t *dst = f->w->io_out[0].c[c].u;
        uint32_t src = rs->copy.src[c];
        if (src & EG_SOFT_COPY_CONST) {
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = rs->copy.const_bits[c];
        } else {
            const uint32_t *in = f->w->io_in[src >> 2].c[src & 3u].u;
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = in[l];
        }
    }
}

/* FragCoord.xy of the block's pixel centres: x + 0.5 the same in every row, y + 0.5 the same
 * along a row (through int32: the same value, coordinates are below 2^24). */
static EG_ALWAYS_INLINE void frag_coord_xy(eg_soft_invocation_t *inv, uint32_t bx, uint32_t by)
{
#if DEPTH_VEC
    float fx[4], fy[4];
    for (uint32_t i = 0; i < 4u; i++) {
        fx[i] = (float)(int32_t)(bx + i) + 0.5f;
        fy[i] = (float)(int32_t)(by + i) + 0.5f;
    }
    vf_t x;
    VLOAD(x, fx);
    for (uint32_t r = 0; r < 4u; r++) {
        vf_t y = { fy[r], fy[r], fy[r], fy[r] };
        VSTORE(inv->position.c[0].f + 4u * r, x);
        VSTORE(inv->position.c[1].f + 4u * r, y);
    }
#else
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        inv->position.c[0].f[l] = (float)(int32_t)(bx + (l & 3u)) + 0.5f;
        inv->position.c[1].f[l] = (float)(int32_t)(by + (l >> 2)) + 0.5f;
    }
#endif
}

/* The depth / stencil test: its one-sample depth-only form with the per-triangle set-up
 * (f->ds_fast) where it applies, else the general one. */
static inline void ds_run(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
                          eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    if (f->ds_fast) cov[0] = eg_soft_ds_fast(f, bx, by, zc, cov[0]);
    else eg_soft_ds_test(f, bx, by, zc, cov);
}

/* The block's fragment pipeline for coverage cov; `sample` is the sample being shaded when the
 * program runs per sample (per_sample: SampleId or a Sample-qualified input), else 0. */
static void shade(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES], uint32_t sample,
                  bool per_sample)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    eg_soft_mask_t pix = 0;
    for (uint32_t s = 0; s < f->samples; s++) {
        if (!(rs->sample_mask >> s & 1u)) cov[s] = 0;
        pix |= cov[s];
    }
    if (!pix) return;
    eg_soft_mask_t lanes = rs->fs ? quad_expand(pix) : pix;
    /* the perspective weights and 1 / w, and the depth, only where something reads them (a
     * native function reads all of FragCoord; fast paths off computes everything, as before) */
    bool all = rs->native_fs || !eg_soft_raster_fast_paths;
    bool persp = all || rs->persp_used || (rs->frag_coord_used & 8u);
    bool need_z = all || rs->depth_test || rs->stencil_test || (rs->frag_coord_used & 4u);
    bary_t b;
    float zc[EG_SOFT_LANES];
#if SHADE_AVX2
    bool wide = shade_avx2() && !(per_sample && rs->vary_sample);
#else
    const bool wide = false;
#endif
    if (wide) {
#if SHADE_AVX2
        if (persp || need_z || rs->nvary) barycentrics_avx2(f, bx, by, &b, persp);
        if (need_z) depth_lerp_avx2(f, &b, zc);
#endif
    } else {
        if (persp || need_z || rs->nvary)   /* else nothing reads b (a FragCoord.xy-only program) */
            barycentrics(f, bx, by, &b, persp, EG_SOFT_SUBPIX / 2, EG_SOFT_SUBPIX / 2);
        float zd1 = f->z[1] - f->z[0], zd2 = f->z[2] - f->z[0];
        if (need_z)
            lerp_lanes(zc, b.l[0], b.l[1], f->z[0], zd1, zd2, true, f->bias);
    }
    if (rs->early_z) {
        if (rs->depth_test || rs->stencil_test) {   /* else ds_test changes nothing */
            ds_run(f, bx, by, zc, cov);
            pix = 0;
            for (uint32_t s = 0; s < f->samples; s++) pix |= cov[s];
            if (!pix) return;
            lanes = quad_expand(pix);
        }
        if (!rs->fs) return;
    }
    bary_t bs;   /* Sample-qualified inputs of a per-sample run: at that sample's position */
    if (per_sample && rs->vary_sample)
        barycentrics(f, bx, by, &bs, rs->persp_used, f->sx[sample], f->sy[sample]);
    if (!rs->nvary) f->w->in_uniform = 0;   /* interpolate's result without inputs */
#if SHADE_AVX2
    else if (wide) interpolate_avx2(f, &b);
#endif
    else interpolate(f, &b, per_sample && rs->vary_sample ? &bs : &b);
    if (rs->fs_copy && eg_soft_raster_fast_paths) {
        copy_shade(f);
        f->w->copy_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_run(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov, false);
        return;
    }
    if (rs->fs_const && !f->no_const_proof && eg_soft_raster_fast_paths && !rs->native_fs &&
        eg_soft_const_block(rs->fs_const, f->w)) {
        /* the VM's output in every lane, no lane killed: its commit below with alive = pix */
        f->w->const_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_run(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov, true);
        return;
    }
    if (rs->fs_tex && eg_soft_raster_fast_paths && !rs->native_fs && eg_soft_tex_prep(f)) {
        /* the VM's outputs; no lane killed: its commit below with alive = pix */
        eg_soft_tex_block(f, lanes);
        f->w->tex_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_run(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov, false);
        return;
    }
    eg_soft_invocation_t inv;
    inv.in = f->w->io_in;
    inv.out = f->w->io_out;
    if (rs->fsi->uses_frag_coord || rs->native_fs)   /* LD_SYS FRAG_COORD (or a bench function) reads it */
        frag_coord_xy(&inv, bx, by);
    if (rs->fsi->uses_frag_coord || rs->native_fs) {   /* z and w where shade computed them (need_z, persp) */
        if (need_z) for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv.position.c[2].f[l] = zc[l];
        if (persp) for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv.position.c[3].f[l] = b.w1[l];
    }
    inv.front_facing = (!f->t->is_polygon || f->s.front) ? EG_SOFT_ALL_LANES : 0;
    inv.helper = lanes & ~pix;
    inv.active = lanes;
    inv.sample_id = sample;
    if (rs->fs->uses_sample_mask)   /* per-sample shading: cov holds only that sample's bit */
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            uint32_t m = 0;
            for (uint32_t s = 0; s < f->samples; s++) m |= (cov[s] >> l & 1u) << s;
            inv.sample_mask_in.u[l] = m;
        }
    eg_vm_jit_whole_fn_t whole = jit_whole(rs->fs);
    if (rs->native_fs) rs->native_fs(&inv, rs->native_user);
    else if (whole) {   /* (any active mask: jit_whole) */
        eg_soft_reg_t regs[EMGPU_SOFT_VM_MAX_REGS];
        whole(regs, &inv);
    } else eg_soft_program_run(rs->fs, &f->ps->bound, &inv);
    eg_soft_mask_t alive = inv.active & pix;
    if (rs->fsi->writes_depth) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) zc[l] = inv.frag_depth.f[l];
        f->dzdx = f->dzdy = 0.0f;   /* FragDepth is per pixel: every sample takes it */
    }
    if (rs->alpha_to_coverage) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            float a = f->w->io_out[0].c[3].f[l];
            a = a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f;
            uint32_t n = (uint32_t)(a * (float)f->samples + 0.5f);
            for (uint32_t s = n; s < f->samples; s++) cov[s] &= ~(1u << l);
        }
    }
    for (uint32_t s = 0; s < f->samples; s++) cov[s] &= alive;
    if (rs->fs->writes_sample_mask)   /* WebGPU: the output mask ANDs the coverage */
        for (uint32_t s = 0; s < f->samples; s++) {
            eg_soft_mask_t keep = 0;
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) keep |= (inv.sample_mask_out.u[l] >> s & 1u) << l;
            cov[s] &= keep;
        }
    if (!rs->early_z) ds_run(f, bx, by, zc, cov);
    write_colors(f, bx, by, cov, false);
}

/* shade()'s const path without interpolation or proof: no depth/stencil test (the region walk
 * of soft_raster.c checks), so only the sample mask and the store remain. */
void eg_soft_shade_const_block(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    eg_soft_mask_t pix = 0;
    for (uint32_t s = 0; s < f->samples; s++) {
        if (!(f->rs->sample_mask >> s & 1u)) cov[s] = 0;
        pix |= cov[s];
    }
    if (!pix) return;
    f->w->const_blocks++;
    write_colors(f, bx, by, cov, true);
}

/* write_colors' uniform case when it reduces to eg_soft_blend_const on target 0. */
bool eg_soft_shade_const_rect(eg_soft_frag_t *f, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    const eg_soft_target_t *t = &fb->color[0];
    if (f->samples != 1u || !(rs->sample_mask & 1u) || rs->rt_count != 1u || fb->color_count < 1u || !rs->blend_fast[0] ||
        !eg_soft_raster_fast_paths || !rs->blend[0].wmask || !t->base)
        return false;
    eg_soft_blend_const_rect(t, t->base + (size_t)y0 * t->row_pitch_B + (size_t)x0 * t->elem_B, w, h, &f->w->io_out[0],
                             rs->blend_fast[0]);
    f->w->const_blocks += (w / 4u) * (h / 4u);
    return true;
}

/* eg_soft_shade_block's and shade_mesh's tests for the one-pass block, once per triangle (helper
 * "mblk8"): their results depend on the triangle's state only (eg_soft_tex_prep and
 * eg_soft_tex_mesh_kind cache theirs in f), so the walk may call the block itself. */
bool eg_soft_shade_mesh_direct(eg_soft_frag_t *f, eg_soft_mesh_tri_t *m)
{
#if SHADE_AVX2
    if (!f->mesh_fast || !eg_soft_raster_fast_paths || !eg_soft_tex_prep(f)) return false;
    if (f->mesh_tex == 0) f->mesh_tex = eg_soft_tex_mesh_kind(f);
    if (f->mesh_tex != 2) return false;
    eg_soft_mesh_tri_prep(f, m);
    return m->block != NULL;
#else
    (void)f;
    (void)m;
    return false;
#endif
}

void eg_soft_shade_block(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
#if SHADE_AVX2
    /* the texture's per-triangle check first: shade() runs the VM where it fails */
    if (f->mesh_fast && eg_soft_tex_prep(f)) {
        shade_mesh(f, bx, by, cov);
        return;
    }
#endif
    if (!rs->fs || !rs->fs->uses_sample_id || f->samples == 1u) {
        shade(f, bx, by, cov, 0, false);
        return;
    }
    /* Sample shading (Vulkan "Sample Shading", implied by SampleId or a Sample-qualified input,
     * WGSL @interpolate(_, sample)): one run per covered sample with only that sample's
     * coverage; Sample-qualified inputs at the sample's position, the others at the centre. */
    for (uint32_t s = 0; s < f->samples; s++) {
        eg_soft_mask_t one[EG_SOFT_MAX_SAMPLES] = { 0 };
        one[s] = cov[s];
        if (one[s]) shade(f, bx, by, one, s, true);
    }
}

#if SHADE_AVX2
/* eg_soft_shade_run for f->jit_fast (helper "blk8"): shade()'s steps for wholly covered blocks
 * with the tests done once per triangle, the invocation set up once per run. */
static SHADE_AVX2_ATTR void jit_run(eg_soft_frag_t *f, uint32_t bx, uint32_t by, uint32_t n)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    eg_vm_jit_whole_fn_t whole = jit_whole(rs->fs);
    bool persp = rs->persp_used || (rs->frag_coord_used & 8u), fc = rs->fsi->uses_frag_coord;
    bool bary = persp || rs->nvary;
    eg_soft_reg_t regs[EMGPU_SOFT_VM_MAX_REGS];
    eg_soft_invocation_t inv;
    bary_t b;
    static const eg_soft_mask_t all[EG_SOFT_MAX_SAMPLES] = { EG_SOFT_ALL_LANES };
    inv.in = f->w->io_in;
    inv.out = f->w->io_out;
    inv.front_facing = (!f->t->is_polygon || f->s.front) ? EG_SOFT_ALL_LANES : 0;
    inv.helper = 0;
    inv.active = EG_SOFT_ALL_LANES;
    inv.sample_id = 0;
    if (!rs->nvary) f->w->in_uniform = 0;
    if (fc) frag_coord_xy(&inv, bx, by);
    const eg_soft_target_t *t = f->out_t;
    uint8_t *blk = f->jit_pack ? t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B : NULL;
#if EMGPU_SOFT_JIT
    uint8_t order[4];
    const eg_soft_program_t *p = rs->fs;
    /* the program and the pack looped in native code (soft_jit.c j_rows): no per-block input
     * but FragCoord.xy, whose x it steps by 4 (exact below 2^22, as below) */
    if (blk && !bary && bx + 4u * n < (1u << 22) && eg_soft_pack_full_order(f->jit_pack, order) &&
        p->jit_rows_at[order[0] == 2u]) {   /* (order 2, 1, 0, 3: BGRA) */
        eg_vm_jit_rows_t a;
        for (uint32_t r = 0; r < 4u; r++) a.row[r] = blk + (size_t)r * t->row_pitch_B;
        a.n = n;
        if (!fc) frag_coord_xy(&inv, bx, by);   /* (defined values for the steps) */
        ((eg_vm_jit_rows_fn_t)(uintptr_t)(p->jit + p->jit_rows_at[order[0] == 2u]))(regs, &inv, &a);
        return;
    }
#endif
    for (uint32_t i = 0; i < n; i++, bx += 4u) {
        if (bary) barycentrics_avx2(f, bx, by, &b, persp);
        if (rs->nvary) interpolate_avx2(f, &b);
        if (fc && i) {
            /* frag_coord_xy's x, (float)(bx + c) + 0.5, is the last block's + 4 exactly below
             * 2^22, where every half-integer is a float */
            if (bx < (1u << 22))
                for (uint32_t l = 0; l < EG_SOFT_LANES; l += 8u) {
                    v8f x;
                    __builtin_memcpy(&x, inv.position.c[0].f + l, 32);
                    x = x + V8(4.0f);
                    __builtin_memcpy(inv.position.c[0].f + l, &x, 32);
                }
            else frag_coord_xy(&inv, bx, by);
        }
        if (fc && persp) for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv.position.c[3].f[l] = b.w1[l];
        whole(regs, &inv);
        if (blk) {
            f->jit_pack(blk, t->row_pitch_B, &f->w->io_out[0]);
            blk += 4u * 4u;   /* 4 texels of 4 bytes (eg_soft_pack_full_of) */
        } else {
            write_colors(f, bx, by, all, false);
        }
    }
}
#endif

void eg_soft_shade_run(eg_soft_frag_t *f, uint32_t bx, uint32_t by, uint32_t n)
{
#if SHADE_AVX2
    if (f->jit_fast) {
        jit_run(f, bx, by, n);
        return;
    }
#endif
    for (uint32_t i = 0; i < n; i++, bx += 4u) {
        eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES] = { 0 };
        for (uint32_t s = 0; s < f->samples; s++) cov[s] = EG_SOFT_ALL_LANES;
        eg_soft_shade_block(f, bx, by, cov);
    }
}

#endif /* EMGPU_HAL_SOFT */
