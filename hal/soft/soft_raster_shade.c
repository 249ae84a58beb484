/* hal/soft per-block fragment pipeline: depth/stencil, interpolation, shading, blend and store.
 *
 * soft_raster.c walks a triangle in 4x4 blocks and calls eg_soft_shade_block for each block
 * with coverage; everything here works on one block of one worker (soft_raster.h).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_vm_simd.h"

/* Every 2x2 quad (bits b, b+1, b+4, b+5 for the bases b = 0, 2, 8, 10) with a bit of m, whole:
 * each base bit gathers its quad's OR, then multiplying by 0x33 spreads it back (the quads do not
 * overlap, so there are no carries). */
static inline eg_soft_mask_t quad_expand(eg_soft_mask_t m)
{
    uint32_t q = ((uint32_t)m | (uint32_t)m >> 1 | (uint32_t)m >> 4 | (uint32_t)m >> 5) & 0x0505u;
    return (eg_soft_mask_t)(q * 0x33u);
}

/* ---- depth / stencil on one block ---- */

/* 4-byte copies the compiler turns into one load/store (eg_memcpy is a call per lane). */
static inline void cp4(void *dst, const void *src)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = s[3];
}

/* Lanes where a[l] <compare> b[l]: the switch runs once per block, the loops are branch-free. */
static eg_soft_mask_t compare_mask(uint32_t compare, const float *a, const float *b)
{
    eg_soft_mask_t m = 0;
    uint32_t l;
    switch (compare) {
    case WGPUCompareFunction_Never:        return 0;
    case WGPUCompareFunction_Less:         for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] < b[l]) << l; break;
    case WGPUCompareFunction_Equal:        for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] == b[l]) << l; break;
    case WGPUCompareFunction_LessEqual:    for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] <= b[l]) << l; break;
    case WGPUCompareFunction_Greater:      for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] > b[l]) << l; break;
    case WGPUCompareFunction_NotEqual:     for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] != b[l]) << l; break;
    case WGPUCompareFunction_GreaterEqual: for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] >= b[l]) << l; break;
    default:                               return EG_SOFT_ALL_LANES;
    }
    return m;
}

#if defined(VM_SIMD_NATIVE) && VM_VW == 4
#define DEPTH_VEC 1
/* depth_only for one sample of 4-byte depth (depth32float, depth24plus) with a less or
 * less-equal compare, a row of 4 lanes per vector: the same clamp and compare per lane, covered
 * rows loaded and stored whole. Partial rows too when the block's 4 columns lie inside the row
 * (fits): uncovered lanes get back the bytes just read (the block is this worker's alone: tiles
 * are multiples of 4 pixels), else lane by lane (they may end past the texture's width).
 * Returns the new coverage. */
static EG_ALWAYS_INLINE eg_soft_mask_t depth32_rows(uint8_t *blk, size_t pitch, const float zc[EG_SOFT_LANES], float off,
                                                    float lo, float hi, eg_soft_mask_t cov, bool dw, bool le, bool fits)
{
    const vf_t voff = { off, off, off, off }, vlo = { lo, lo, lo, lo }, vhi = { hi, hi, hi, hi };
    eg_soft_mask_t out = 0;
    for (uint32_t r = 0; r < 4u; r++, blk += pitch) {
        uint32_t m = cov >> (4u * r) & 15u;
        if (!m) continue;
        vf_t v, st;
        vu_t uv, ulo, uhi;
        VLOAD(v, zc + 4u * r);
        v = v + voff;
        /* v < lo ? lo : v > hi ? hi : v, bitwise (NaN stays NaN and fails every compare) */
        vu_t mlo = (vu_t)(v < vlo), mhi = (vu_t)(v > vhi);
        __builtin_memcpy(&uv, &v, 16); __builtin_memcpy(&ulo, &vlo, 16); __builtin_memcpy(&uhi, &vhi, 16);
        uv = (ulo & mlo) | (((uhi & mhi) | (uv & ~mhi)) & ~mlo);
        __builtin_memcpy(&v, &uv, 16);
        if (m == 15u || fits) {
            VLOAD(st, blk);
        } else {
            float t[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
            for (uint32_t l = 0; l < 4u; l++)
                if (m >> l & 1u) cp4(&t[l], blk + 4u * l);
            VLOAD(st, t);
        }
        vu_t pass = le ? (vu_t)(v <= st) : (vu_t)(v < st);
#if defined(__SSE2__)
        uint32_t pm = (uint32_t)__builtin_ia32_movmskps((vf_t)pass) & m;   /* the 4 compare results */
#else
        uint32_t pm = ((pass[0] & 1u) | (pass[1] & 2u) | (pass[2] & 4u) | (pass[3] & 8u)) & m;
#endif
        out |= pm << (4u * r);
        if (!dw || !pm) continue;
        if (pm == 15u) { VSTORE(blk, v); continue; }
        if (fits) {   /* v where pm, else the stored bits, bitwise */
            const vu_t bit = { 1u, 2u, 4u, 8u };
            vu_t keep = (vu_t)((bit & pm) != 0u), us;
            __builtin_memcpy(&uv, &v, 16); __builtin_memcpy(&us, &st, 16);
            uv = (uv & keep) | (us & ~keep);
            VSTORE(blk, uv);
            continue;
        }
        float z[4];
        VSTORE(z, v);
        for (uint32_t l = 0; l < 4u; l++)
            if (pm >> l & 1u) cp4(blk + 4u * l, &z[l]);
    }
    return out;
}
#else
#define DEPTH_VEC 0
#endif

/* Depth without stencil, the common case: per sample, gather, one compare_mask, scatter. */
static void depth_only(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
                       eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_target_t *d = &f->ps->fb->depth;
    bool dw = rs->depth_write && !f->ps->fb->depth_read_only;
    bool d16 = d->block_B == 2u;
    float lo = f->ps->vp_min_z, hi = f->ps->vp_max_z;
    uint8_t *blk = d->base + (size_t)by * d->row_pitch_B + (size_t)bx * d->elem_B;
    for (uint32_t s = 0; s < f->samples; s++) {
        if (!cov[s]) continue;
        float off = f->dzdx * (float)(f->sx[s] - 128) * (1.0f / 256.0f) + f->dzdy * (float)(f->sy[s] - 128) * (1.0f / 256.0f);
#if DEPTH_VEC
        if (d->elem_B == 4u && !d16 && eg_soft_raster_fast_paths) {
            bool fits = (size_t)bx * 4u + 16u <= d->row_pitch_B;
            if (rs->depth_compare == WGPUCompareFunction_Less) {
                cov[s] = depth32_rows(blk, d->row_pitch_B, zc, off, lo, hi, cov[s], dw, false, fits);
                continue;
            }
            if (rs->depth_compare == WGPUCompareFunction_LessEqual) {
                cov[s] = depth32_rows(blk, d->row_pitch_B, zc, off, lo, hi, cov[s], dw, true, fits);
                continue;
            }
        }
#endif
        float z[EG_SOFT_LANES], st[EG_SOFT_LANES];
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            float v = zc[l] + off;
            v = v < lo ? lo : v > hi ? hi : v;   /* NaN stays NaN and fails every compare */
            if (d16) v = (float)(uint32_t)((v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f) * 65535.0f + 0.5f);
            z[l] = v;
            st[l] = 0.0f;
        }
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            if (!(cov[s] >> l & 1u)) continue;
            const uint8_t *p = blk + (size_t)(l >> 2) * d->row_pitch_B + (size_t)(l & 3u) * d->elem_B + (size_t)s * d->block_B;
            if (d16) st[l] = (float)((uint32_t)p[0] | (uint32_t)p[1] << 8);
            else cp4(&st[l], p);
        }
        cov[s] &= compare_mask(rs->depth_compare, z, st);
        if (!dw) continue;
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            if (!(cov[s] >> l & 1u)) continue;
            uint8_t *p = blk + (size_t)(l >> 2) * d->row_pitch_B + (size_t)(l & 3u) * d->elem_B + (size_t)s * d->block_B;
            if (d16) { uint32_t q = (uint32_t)z[l]; p[0] = (uint8_t)q; p[1] = (uint8_t)(q >> 8); }
            else cp4(p, &z[l]);
        }
    }
}

static void ds_test(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
                    eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    if (!rs->depth_test && !rs->stencil_test) return;
    if (!rs->stencil_test) {
        if (fb->depth.base) depth_only(f, bx, by, zc, cov);
        return;
    }
    const eg_soft_stencil_face_t *face = &rs->stencil[f->t->is_polygon && !f->s.front ? 1 : 0];
    uint8_t ref = (uint8_t)f->ps->stencil_ref, rm = rs->stencil_read_mask, wm = rs->stencil_write_mask;
    bool sw = rs->stencil_test && !fb->stencil_read_only && fb->stencil.base;
    bool dw = rs->depth_write && !fb->depth_read_only && fb->depth.base;
    bool d16 = fb->depth.block_B == 2u;
    for (uint32_t s = 0; s < f->samples; s++) {
        float off = f->dzdx * (float)(f->sx[s] - 128) * (1.0f / 256.0f) + f->dzdy * (float)(f->sy[s] - 128) * (1.0f / 256.0f);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            if (!(cov[s] >> l & 1u)) continue;
            uint32_t x = bx + (l & 3u), y = by + (l >> 2);
            uint8_t *sp = NULL, sv = 0, nsv;
            if (rs->stencil_test && fb->stencil.base) {
                sp = fb->stencil.base + (size_t)y * fb->stencil.row_pitch_B + (size_t)x * fb->stencil.elem_B + s;
                sv = *sp;
            }
            bool pass = !rs->stencil_test || eg_soft_compare(face->compare, (float)(ref & rm), (float)(sv & rm));
            if (!pass) {
                nsv = eg_soft_stencil_op(face->fail, sv, ref);
            } else if (rs->depth_test && fb->depth.base) {
                uint8_t *dp = fb->depth.base + (size_t)y * fb->depth.row_pitch_B + (size_t)x * fb->depth.elem_B +
                              (size_t)s * fb->depth.block_B;
                float z = zc[l] + off;
                float lo = f->ps->vp_min_z, hi = f->ps->vp_max_z;
                z = z < lo ? lo : z > hi ? hi : z;   /* NaN stays NaN and fails every compare */
                float stored;
                uint32_t q = 0;
                if (d16) {
                    q = (uint32_t)((z > 0.0f ? (z < 1.0f ? z : 1.0f) : 0.0f) * 65535.0f + 0.5f);
                    z = (float)q;
                    stored = (float)((uint32_t)dp[0] | (uint32_t)dp[1] << 8);
                } else {
                    cp4(&stored, dp);
                }
                pass = eg_soft_compare(rs->depth_compare, z, stored);
                if (pass && dw) {
                    if (d16) { dp[0] = (uint8_t)q; dp[1] = (uint8_t)(q >> 8); }
                    else cp4(dp, &z);
                }
                nsv = eg_soft_stencil_op(pass ? face->pass : face->depth_fail, sv, ref);
            } else {
                nsv = eg_soft_stencil_op(face->pass, sv, ref);
            }
            if (sp && sw) *sp = (uint8_t)((sv & ~wm) | (nsv & wm));
            if (!pass) cov[s] &= ~(1u << l);
        }
    }
}

/* ---- interpolation ---- */

/* Barycentrics at the pixel centres of the block: l[i][lane] screen-linear, p[i][lane]
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
 * (the same float operations in the same order on every CPU). */
static void barycentrics(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, bary_t *b, bool persp)
{
    const eg_soft_setup_t *s = &f->s;
    int64_t X = (int64_t)bx * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = (int64_t)by * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    float e1 = (float)(s->A[1] * X + s->B[1] * Y + s->C[1]) * s->inv_area2;
    float e2 = (float)(s->A[2] * X + s->B[2] * Y + s->C[2]) * s->inv_area2;
    float d1x = (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2, d1y = (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    float d2x = (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2, d2y = (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2;
    float iw0 = f->t->invw[0], iw1 = f->t->invw[1], iw2 = f->t->invw[2];
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
static EG_ALWAYS_INLINE void lerp_lanes(float *dst, const float *w0, const float *w1, float a0, float d1, float d2,
                                        bool biased, float bias)
{
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
 * zeros to a nonzero a0, which gives a0 exactly, so those lanes are set to a0 directly. */
static void interpolate(const eg_soft_frag_t *f, const bary_t *b)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_tri_t *t = f->t;
    int32_t pfin = -1;   /* persp_finite, computed when first needed */
    uint64_t uni = 0;
    for (uint32_t j = 0; j < rs->nvary; j++) {
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
            (rs->vary_interp[j] == EG_SOFT_INTERP_LINEAR || (pfin < 0 ? (pfin = persp_finite(b)) : pfin))) {
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = a0;
            uni |= slot;
            continue;
        }
        lerp_lanes(dst, w[0], w[1], a0, d1, d2, false, 0.0f);
    }
    f->w->in_uniform = uni;
}

/* ---- color output ---- */

/* uniform: output 0 holds the same value in every lane (block-constant path). */
static void write_colors(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES],
                         bool uniform)
{
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

bool eg_soft_raster_fast_paths = true;

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

/* The block's fragment pipeline for coverage cov; `sample` is the sample being shaded when the
 * program runs per sample (SampleId), else 0. */
static void shade(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES], uint32_t sample)
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
    if (persp || need_z || rs->nvary)   /* else nothing reads b (a FragCoord.xy-only program) */
        barycentrics(f, bx, by, &b, persp);
    float zc[EG_SOFT_LANES], zd1 = f->z[1] - f->z[0], zd2 = f->z[2] - f->z[0];
    if (need_z)
        lerp_lanes(zc, b.l[0], b.l[1], f->z[0], zd1, zd2, true, f->bias);
    if (rs->early_z) {
        ds_test(f, bx, by, zc, cov);
        pix = 0;
        for (uint32_t s = 0; s < f->samples; s++) pix |= cov[s];
        if (!pix || !rs->fs) return;
        lanes = quad_expand(pix);
    }
    interpolate(f, &b);
    if (rs->fs_copy && eg_soft_raster_fast_paths) {
        copy_shade(f);
        f->w->copy_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_test(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov, false);
        return;
    }
    if (rs->fs_const && !f->no_const_proof && eg_soft_raster_fast_paths && !rs->native_fs &&
        eg_soft_const_block(rs->fs_const, f->w)) {
        /* the VM's output in every lane, no lane killed: its commit below with alive = pix */
        f->w->const_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_test(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov, true);
        return;
    }
    if (rs->fs_tex && eg_soft_raster_fast_paths && !rs->native_fs && eg_soft_tex_prep(f)) {
        /* the VM's outputs; no lane killed: its commit below with alive = pix */
        eg_soft_tex_block(f, lanes);
        f->w->tex_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_test(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov, false);
        return;
    }
    eg_soft_invocation_t inv;
    inv.in = f->w->io_in;
    inv.out = f->w->io_out;
    if (rs->fsi->uses_frag_coord || rs->native_fs)   /* LD_SYS FRAG_COORD (or a bench function) reads it */
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            /* through int32 (the same value: coordinates are below 2^24) so it vectorises */
            inv.position.c[0].f[l] = (float)(int32_t)(bx + (l & 3u)) + 0.5f;
            inv.position.c[1].f[l] = (float)(int32_t)(by + (l >> 2)) + 0.5f;
        }
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
    if (rs->native_fs) rs->native_fs(&inv, rs->native_user);
    else eg_soft_program_run(rs->fs, &f->ps->bound, &inv);
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
    if (!rs->early_z) ds_test(f, bx, by, zc, cov);
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

void eg_soft_shade_block(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    if (!rs->fs || !rs->fs->uses_sample_id || f->samples == 1u) {
        shade(f, bx, by, cov, 0);
        return;
    }
    /* Sample shading (Vulkan "Sample Shading", implied by SampleId): one run per covered sample
     * with only that sample's coverage; inputs stay interpolated at the pixel centre. */
    for (uint32_t s = 0; s < f->samples; s++) {
        eg_soft_mask_t one[EG_SOFT_MAX_SAMPLES] = { 0 };
        one[s] = cov[s];
        if (one[s]) shade(f, bx, by, one, s);
    }
}

#endif /* EMGPU_HAL_SOFT */
