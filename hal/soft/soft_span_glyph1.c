/* hal/soft glyph rows one pixel at a time: the FZ_MODES_TEXC kernel of targets without a vector
 * unit (Cortex-M7).
 *
 * WHY. The fused span kernels (soft_span_fused.inc) are written in GCC vector extensions. Where
 * vectors are native registers (SSE2, NEON) the glyph kernels FZ_(glyph) / FZ_(glyph2) carry a
 * blended glyph's row in one or two vector groups. Where they are not (FZ_NATIVE 0), GCC lowers
 * every vector operation to scalar code through the stack, and it cannot build the glyph
 * kernels at all (arm-none-eabi-gcc 12 ran out of memory on them, session 12), so glyphs took
 * the general texture kernel FZ_(tri) FZ_MODES_TEX at 4 lanes: ~580 instructions a pixel, half
 * of the UI frame on the Cortex-M7 bench. This is FZ_(glyph) written for one lane, in plain
 * floats, which a scalar FPU runs directly.
 *
 * EXACTNESS. Each pixel takes FZ_(glyph)'s lane operations in their order (which are
 * interp_chunk's, the sampler's nearest_clamp_index4's and the blend stores'): the block
 * origin's 64-bit edge value converted to float, times inv_area2; plus fx * d1x; plus fy * d1y
 * (c->fxd1 and the products below: the same IEEE products); the perspective weights where a
 * coordinate is perspective; a0 + w1 d1 + w2 d2 per coordinate; the clamped nearest texel; the
 * coverage times alpha; then the blend's unpack, factors, sum and quantize. The build has
 * -ffp-contract=off (Makefile), so no product is fused. Two shortcuts, both per lane in
 * FZ_(glyph) too: a pixel whose source alpha is <= 0 keeps its bytes under skip_clear (the
 * blend gives them back), and one at source alpha >= 1 stores the color (the blend's result
 * there, as FZ_(glyph)'s `kq`). tests/unit/soft_span_glyph_test.c compares it with the general
 * path on every board (eg_soft_span_glyph1_on selects it where vectors are native).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_span_int.h"
#include "hal/soft/soft_texel.h"

bool eg_soft_span_glyph1_on = false;
uint32_t eg_soft_span_glyph1_px;

/* span_int.h's clamp01 with +0 for NaN and -0 (the vector selects' result: v > 0 fails) */
static EG_ALWAYS_INLINE float g1_clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

/* The stores' conversion: (int32_t)(clamp01(v) * max + 0.5f) */
static EG_ALWAYS_INLINE uint32_t g1_quant(float v, float max) { return (uint32_t)(int32_t)(g1_clamp01(v) * max + 0.5f); }

/* FZ_(nearest) without FZ_MAX (soft_span_fused.inc; the sampler's nearest_clamp_index4): x = u *
 * size + 0 - 0 clamped to [-17, 2 size + 16], both tests on the unclamped x (so NaN gives -17,
 * then texel 0), t = x * 256, max(t, +0) truncated >> 8, at most size - 1. */
static EG_ALWAYS_INLINE int32_t g1_nearest(float u, float fn, float hi, int32_t last)
{
    const float x = u * fn + 0.0f - 0.0f;
    float y = x < hi ? x : hi;
    y = x > -17.0f ? y : -17.0f;
    float t = y * 256.0f;
    t = t > 0.0f ? t : 0.0f;
    int32_t i = (int32_t)t >> 8;
    return i < last ? i : last;
}

static EG_ALWAYS_INLINE float g1_bits(uint32_t b)
{
    float f;
    __builtin_memcpy(&f, &b, sizeof f);
    return f;
}

/* Block columns whose origin weights a block row keeps (a glyph is 1-3 of them; wider
 * triangles recompute the ones past these per row) */
#define G1_BLOCKS 16

/* fmt: 0 RGBA8, 1 BGRA8, 2 RGB565 (a constant in each caller: the format tests fold) */
static EG_ALWAYS_INLINE void glyph1(const eg_soft_span_pipe_t *sp, span_fill_t *c, uint32_t fmt)
{
    const uint32_t bpp = fmt == 2u ? 2u : 4u, sr = fmt == 1u ? 16u : 0u, sb = fmt == 1u ? 0u : 16u;
    const float kc0 = g1_clamp01(g1_bits(c->kbits[0])), kc1 = g1_clamp01(g1_bits(c->kbits[1]));
    const float kc2 = g1_clamp01(g1_bits(c->kbits[2])), va3 = g1_bits(c->kbits[3]);
    uint32_t kq;   /* the blend at source alpha 1 over any stored pixel (FZ_(glyph)'s kq) */
    if (bpp == 4u)
        kq = g1_quant(kc0 * 1.0f + 0.0f * 0.0f, 255.0f) << sr | g1_quant(kc1 * 1.0f + 0.0f * 0.0f, 255.0f) << 8 |
             g1_quant(kc2 * 1.0f + 0.0f * 0.0f, 255.0f) << sb | g1_quant(1.0f * 1.0f + 0.0f * 0.0f, 255.0f) << 24;
    else
        kq = g1_quant(kc0 * 1.0f + 0.0f * 0.0f, 31.0f) << 11 | g1_quant(kc1 * 1.0f + 0.0f * 0.0f, 63.0f) << 5 |
             g1_quant(kc2 * 1.0f + 0.0f * 0.0f, 31.0f);
    const bool uvp = c->uv_mode[0] == FZ_PERSP && c->uv_mode[1] == FZ_PERSP;
    const bool persp = uvp || c->persp;
    const uint8_t um = uvp ? FZ_PERSP : c->uv_mode[0], wm = uvp ? FZ_PERSP : c->uv_mode[1];
    const float ua = c->uv_a0[0], ud1 = c->uv_dv1[0], ud2 = c->uv_dv2[0];
    const float wa = c->uv_a0[1], wd1 = c->uv_dv1[1], wd2 = c->uv_dv2[1];
    const float iw0 = c->iw0, iw1 = c->iw1, iw2 = c->iw2, ia = c->inv_area2;
    const float tfw = (float)c->tw, tfh = (float)c->th;
    const float thw = (float)(2 * c->tw) + 16.0f, thh = (float)(2 * c->th) + 16.0f;
    const int32_t tlw = c->tw - 1, tlh = c->th - 1;
    const uint32_t tpitch = c->tpitch_B;
    const uint8_t *const tbase = c->tbase;
    const bool mf3 = c->mul_first[3];
    const bool sa_c = sp->sa_c, inv_c = sp->inv_c, sa_a = sp->sa_a, inv_a = sp->inv_a, skip_clear = sp->skip_clear;
    const int64_t A1 = c->A1, A2 = c->A2, B1 = c->B1, B2 = c->B2, C1 = c->C1, C2 = c->C2;
    float fyt1[4], fyt2[4];   /* fy * d1y, fy * d2y */
    for (uint32_t k = 0; k < 4u; k++) {
        fyt1[k] = (float)k * c->d1y;
        fyt2[k] = (float)k * c->d2y;
    }
    const bool left = c->ew[0].kind > 0;   /* the one moving edge (span_edges_one: slot 0) */
    int64_t eq = c->ew[0].q, er = c->ew[0].r;
    const int64_t ed = c->ew[0].d, edq = c->ew[0].dq, edr = c->ew[0].dr;
    const int64_t bx_base = c->px0 & ~(int64_t)3;
    float bw1[G1_BLOCKS], bw2[G1_BLOCKS];   /* the block row's origin weights from bx_base */
    uint32_t have = 0;                      /* bit j: bw*[j] hold block row rb's */
    int64_t rb = INT64_MIN, r1 = 0, r2 = 0;
    uint32_t filled = 0, skipped = 0;
    for (int64_t y = c->py0; y < c->py1; y++) {
        int64_t x0 = c->px0, x1 = c->px1;
        if (left) { if (-eq > x0) x0 = -eq; }
        else if (eq + 1 < x1) x1 = eq + 1;
        eq += edq; er += edr; if (er >= ed) { er -= ed; eq++; }
        if (x0 >= x1) continue;
        if ((y & ~(int64_t)3) != rb) {   /* interp_chunk's row terms: Y at the block row's origin */
            rb = y & ~(int64_t)3;
            const int64_t Y = rb * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
            r1 = B1 * Y + C1;
            r2 = B2 * Y + C2;
            have = 0;
        }
        const float f1y = fyt1[y & 3], f2y = fyt2[y & 3];
        uint8_t *px = c->base + (size_t)y * c->pitch_B + (size_t)x0 * bpp;
        filled += (uint32_t)(x1 - x0);
        float w1 = 0.0f, w2 = 0.0f;
        for (int64_t x = x0; x < x1; x++, px += bpp) {
            const uint32_t fx = (uint32_t)(x & 3);
            if (x == x0 || fx == 0u) {   /* the pixel's block: its origin weights */
                const int64_t bx = x & ~(int64_t)3, j = (bx - bx_base) >> 2;
                if (j < G1_BLOCKS && (have >> j & 1u)) {
                    w1 = bw1[j];
                    w2 = bw2[j];
                } else {
                    const int64_t X = bx * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
                    w1 = (float)(A1 * X + r1) * ia;
                    w2 = (float)(A2 * X + r2) * ia;
                    if (j < G1_BLOCKS) {
                        bw1[j] = w1;
                        bw2[j] = w2;
                        have |= 1u << j;
                    }
                }
            }
            const float l1 = w1 + c->fxd1[fx] + f1y, l2 = w2 + c->fxd2[fx] + f2y;
            float p1 = l1, p2 = l2;
            if (persp) {
                const float l0 = 1.0f - l1 - l2;
                const float q0 = l0 * iw0, q1 = l1 * iw1, q2 = l2 * iw2;
                const float r = 1.0f / (q0 + q1 + q2);
                p1 = q1 * r;
                p2 = q2 * r;
            }
            const float u = um == FZ_CONST ? ua : um == FZ_LIN ? ua + l1 * ud1 + l2 * ud2 : ua + p1 * ud1 + p2 * ud2;
            const float v = wm == FZ_CONST ? wa : wm == FZ_LIN ? wa + l1 * wd1 + l2 * wd2 : wa + p1 * wd1 + p2 * wd2;
            const uint32_t off = (uint32_t)g1_nearest(v, tfh, thh, tlh) * tpitch + (uint32_t)g1_nearest(u, tfw, thw, tlw);
            const float cov = eg_soft_unorm8_to_float[tbase[off]];
            const float v3 = mf3 ? va3 * cov : cov * va3;
            if (skip_clear && !(v3 > 0.0f)) {   /* the blend would give the bytes back */
                skipped++;
                continue;
            }
            uint32_t dw;
            if (bpp == 4u) {
                __builtin_memcpy(&dw, px, 4);
            } else {
                uint16_t h;
                __builtin_memcpy(&h, px, 2);
                dw = h;
            }
            uint32_t w;
            if (v3 >= 1.0f) {
                w = kq;
            } else {
                float d0, d1, d2, d3 = 1.0f;
                if (bpp == 4u) {
                    const float k = 1.0f / 255.0f;
                    d0 = (float)(int32_t)(dw >> sr & 255u) * k;
                    d1 = (float)(int32_t)(dw >> 8 & 255u) * k;
                    d2 = (float)(int32_t)(dw >> sb & 255u) * k;
                    d3 = (float)(int32_t)(dw >> 24) * k;
                } else {
                    d0 = (float)(int32_t)(dw >> 11) * (1.0f / 31.0f);
                    d1 = (float)(int32_t)(dw >> 5 & 63u) * (1.0f / 63.0f);
                    d2 = (float)(int32_t)(dw & 31u) * (1.0f / 31.0f);
                }
                const float s3 = g1_clamp01(v3);
                const float sfc = sa_c ? s3 : 1.0f, dfc = inv_c ? 1.0f - s3 : 0.0f;
                const float v0 = kc0 * sfc + d0 * dfc, v1 = kc1 * sfc + d1 * dfc, v2 = kc2 * sfc + d2 * dfc;
                if (bpp == 4u) {
                    const float sfa = sa_a ? s3 : 1.0f, dfa = inv_a ? 1.0f - s3 : 0.0f;
                    const float a = s3 * sfa + d3 * dfa;
                    w = g1_quant(v0, 255.0f) << sr | g1_quant(v1, 255.0f) << 8 | g1_quant(v2, 255.0f) << sb |
                        g1_quant(a, 255.0f) << 24;
                } else {
                    w = g1_quant(v0, 31.0f) << 11 | g1_quant(v1, 63.0f) << 5 | g1_quant(v2, 31.0f);
                }
            }
            if (bpp == 4u) {
                __builtin_memcpy(px, &w, 4);
            } else {
                const uint16_t h = (uint16_t)w;
                __builtin_memcpy(px, &h, 2);
            }
        }
    }
    c->filled += filled;
    c->skipped += skipped;
    if (c->f->w == &eg_soft_worker_main) eg_soft_span_glyph1_px += filled;
}

static void glyph1_rgba8(const eg_soft_span_pipe_t *sp, span_fill_t *c) { glyph1(sp, c, 0u); }
static void glyph1_bgra8(const eg_soft_span_pipe_t *sp, span_fill_t *c) { glyph1(sp, c, 1u); }
static void glyph1_rgb565(const eg_soft_span_pipe_t *sp, span_fill_t *c) { glyph1(sp, c, 2u); }

span_tri_fn eg_soft_span_glyph1_fn(WGPUTextureFormat target)
{
    return target == WGPUTextureFormat_RGBA8Unorm ? glyph1_rgba8
         : target == WGPUTextureFormat_BGRA8Unorm ? glyph1_bgra8
         : target == WGPUTextureFormat_EmgpuRGB565Unorm ? glyph1_rgb565 : NULL;
}

#endif /* EMGPU_HAL_SOFT */
