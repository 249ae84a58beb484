/* hal/soft per-block depth / stencil test and write (split out of soft_raster_shade.c, session 7).
 *
 * eg_soft_ds_test runs the pipeline's depth and stencil tests on one 4x4 block of one worker
 * for the depths zc at the pixel centres (plus each sample's offset) and clears the coverage
 * bits of the lanes that fail (soft_raster.h).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_vm_simd.h"

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
        /* v < lo ? lo : v > hi ? hi : v (NaN stays NaN and fails every compare) */
#if defined(__SSE2__)
        /* MAXPS/MINPS return their second operand when either is NaN or both are zeros: exactly
         * the selects above, lane for lane */
        v = __builtin_ia32_minps(vhi, __builtin_ia32_maxps(vlo, v));
        (void)ulo; (void)uhi;
#else
        vu_t mlo = (vu_t)(v < vlo), mhi = (vu_t)(v > vhi);
        __builtin_memcpy(&uv, &v, 16); __builtin_memcpy(&ulo, &vlo, 16); __builtin_memcpy(&uhi, &vhi, 16);
        uv = (ulo & mlo) | (((uhi & mhi) | (uv & ~mhi)) & ~mlo);
        __builtin_memcpy(&v, &uv, 16);
#endif
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

/* depth32_rows with 8 lanes (two block rows) per vector on x86-64 CPUs with AVX2 (helper "tex8",
 * session 8; asked once a triangle, eg_soft_ds_fast_setup): soft_sample_mesh8.inc m8_depth. */
#if DEPTH_VEC && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(EMGPU_SOFT_VM_NO_AVX2)
#define DEPTH_AVX2 1
#include "hal/soft/soft_sample_mesh8.inc"

static M8_ATTR EG_ALWAYS_INLINE eg_soft_mask_t depth32_rows8(uint8_t *blk, size_t pitch, const eg_soft_frag_t *f,
                                                             const float zc[EG_SOFT_LANES], eg_soft_mask_t cov,
                                                             bool dw, bool le)
{
    const m8_f off = M8_F(f->ds_off), lo = M8_F(f->ds_lo), hi = M8_F(f->ds_hi);
    eg_soft_mask_t out = 0;
    for (uint32_t h = 0; h < 2u; h++, blk += 2u * pitch) {
        uint32_t m = cov >> (8u * h) & 0xffu;
        if (!m) continue;
        m8_f z;
        __builtin_memcpy(&z, zc + 8u * h, 32);
        out |= (eg_soft_mask_t)(m8_depth(blk, pitch, z, off, lo, hi, m, dw, le) << (8u * h));
    }
    return out;
}

static M8_ATTR eg_soft_mask_t ds_fast8(const eg_soft_frag_t *f, uint8_t *blk, const float zc[EG_SOFT_LANES],
                                       eg_soft_mask_t cov)
{
    size_t pitch = f->ds_pitch_B;
    if (f->ds_fast == 1u)
        return f->ds_write ? depth32_rows8(blk, pitch, f, zc, cov, true, false) : depth32_rows8(blk, pitch, f, zc, cov, false, false);
    return f->ds_write ? depth32_rows8(blk, pitch, f, zc, cov, true, true) : depth32_rows8(blk, pitch, f, zc, cov, false, true);
}
#else
#define DEPTH_AVX2 0
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

/* depth_only's per-block set-up (loads and tests of the pipeline, target and viewport, ~130
 * instructions a block on the textured mesh) once per triangle: the conditions of its
 * depth32_rows branch, and the sample's offset by the same expression (dzdx, dzdy and the
 * sample positions do not change during the triangle's walk unless the program writes
 * FragDepth, which shade() handles by zeroing them: such pipelines keep the general path). */
void eg_soft_ds_fast_setup(eg_soft_frag_t *f)
{
    f->ds_fast = 0;
    f->ds_avx2 = false;
#if DEPTH_VEC
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_target_t *d = &f->ps->fb->depth;
    if (!rs->depth_test || rs->stencil_test || !d->base || f->samples != 1u || d->elem_B != 4u || d->block_B == 2u ||
        !eg_soft_raster_fast_paths || (rs->fsi && rs->fsi->writes_depth))
        return;
    if (rs->depth_compare == WGPUCompareFunction_Less) f->ds_fast = 1;
    else if (rs->depth_compare == WGPUCompareFunction_LessEqual) f->ds_fast = 2;
    else return;
    f->ds_write = rs->depth_write && !f->ps->fb->depth_read_only;
    f->ds_off = f->dzdx * (float)(f->sx[0] - 128) * (1.0f / 256.0f) + f->dzdy * (float)(f->sy[0] - 128) * (1.0f / 256.0f);
    f->ds_lo = f->ps->vp_min_z;
    f->ds_hi = f->ps->vp_max_z;
    f->ds_base = d->base;
    f->ds_pitch_B = d->row_pitch_B;
#if DEPTH_AVX2
    f->ds_avx2 = eg_soft_shade_vw >= 8u && __builtin_cpu_supports("avx2");
#endif
#endif
}

eg_soft_mask_t eg_soft_ds_fast(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
                               eg_soft_mask_t cov)
{
#if DEPTH_VEC
    if (!cov) return 0;
    size_t pitch = f->ds_pitch_B;
    uint8_t *blk = f->ds_base + (size_t)by * pitch + (size_t)bx * 4u;
#if DEPTH_AVX2
    if (f->ds_avx2) return ds_fast8(f, blk, zc, cov);
#endif
    bool fits = (size_t)bx * 4u + 16u <= pitch;
    /* constant le / dw per call so each copy of the row loop has no tests on them */
    if (f->ds_fast == 1u)
        return f->ds_write ? depth32_rows(blk, pitch, zc, f->ds_off, f->ds_lo, f->ds_hi, cov, true, false, fits)
                           : depth32_rows(blk, pitch, zc, f->ds_off, f->ds_lo, f->ds_hi, cov, false, false, fits);
    return f->ds_write ? depth32_rows(blk, pitch, zc, f->ds_off, f->ds_lo, f->ds_hi, cov, true, true, fits)
                       : depth32_rows(blk, pitch, zc, f->ds_off, f->ds_lo, f->ds_hi, cov, false, true, fits);
#else
    (void)f; (void)bx; (void)by; (void)zc;
    return cov;   /* never called: ds_fast stays 0 */
#endif
}

void eg_soft_ds_test(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
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

#endif /* EMGPU_HAL_SOFT */
