/* Tests of the soft rasterizer's fused block blends (hal/soft/soft_raster_blend.c): 8-lane and 4-lane paths. */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"

#define BP 24u    /* the test target's row pitch in bytes: a 4x4 block and guard bytes on its right */
#define BH 6u     /* rows: one guard row above and below the block */

static uint32_t rng_u = 1u;
static uint32_t rnd(void)
{
    rng_u = rng_u * 1664525u + 1013904223u;
    return rng_u >> 8;
}

/* Source values with the clamp's edge cases: NaN, -0, negatives, above 1, 0, 1, and uniform ones. */
static float src_value(void)
{
    static const uint32_t special[8] = { 0x7fc00000u, 0x80000000u, 0xbf000000u, 0x40000000u,
                                         0x00000000u, 0x3f800000u, 0x3effffffu, 0x00000001u };
    uint32_t r = rnd();
    if ((r & 7u) == 0u) {
        float f;
        eg_memcpy(&f, &special[(r >> 3) & 7u], 4);
        return f;
    }
    return (float)(r & 0xffffu) / 65535.0f;
}

/* WebGPU blending (spec "Blend State": result = src * srcFactor + dst * dstFactor, operation Add)
 * of one unorm channel, written out per lane as the fused blends document it: the source
 * clamped to [0, 1] (NaN -> 0), the stored code times 1 / max, factors SrcAlpha / One and
 * OneMinusSrcAlpha / Zero, the sum clamped, then round(v * max) as (int)(v * max + 0.5). */
static float clamp01f(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }
static uint32_t ref_chan(float s, float s3, uint32_t code, float max, bool sa, bool inv)
{
    float sc = clamp01f(s), a = clamp01f(s3);
    float sf = sa ? a : 1.0f, df = inv ? 1.0f - a : 0.0f;
    float v = sc * sf + (float)code * (1.0f / max) * df;
    return (uint32_t)(int32_t)(clamp01f(v) * max + 0.5f);
}

/* The expected pixel of lane l (bytes p, e of them) under fast. */
static void ref_px(const eg_soft_vec4_t *src, uint32_t l, uint32_t fast, uint8_t *p, uint32_t e)
{
    const float s3 = src->c[3].f[l];
    bool sa_c = fast & EG_SOFT_BLEND_U8_SA_C, inv_c = fast & EG_SOFT_BLEND_U8_INV_C;
    bool sa_a = fast & EG_SOFT_BLEND_U8_SA_A, inv_a = fast & EG_SOFT_BLEND_U8_INV_A;
    if (e == 2u) {
        uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
        uint32_t r = ref_chan(src->c[0].f[l], s3, v >> 11, 31.0f, sa_c, inv_c);
        uint32_t g = ref_chan(src->c[1].f[l], s3, v >> 5 & 63u, 63.0f, sa_c, inv_c);
        uint32_t b = ref_chan(src->c[2].f[l], s3, v & 31u, 31.0f, sa_c, inv_c);
        v = r << 11 | g << 5 | b;
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
        return;
    }
    static const uint8_t rgba[4] = { 0, 1, 2, 3 }, bgra[4] = { 2, 1, 0, 3 };
    const uint8_t *sw = fast & EG_SOFT_BLEND_U8_BGRA ? bgra : rgba;
    uint8_t o[4];
    for (uint32_t c = 0; c < 4u; c++)
        o[sw[c]] = (uint8_t)ref_chan(src->c[c].f[l], s3, p[sw[c]], 255.0f, c == 3u ? sa_a : sa_c, c == 3u ? inv_a : inv_c);
    eg_memcpy(p, o, 4);
}

/* Source alpha for the half-classified blends (blend_*_avx2's half_kind, helper "blk565"): a
 * half's 8 lanes all at clamped 0 (0, -0, negatives, NaN), all at clamped 1 (1, above 1, inf),
 * or mixed, with the values next to the classes' edges (the least subnormal above 0, the float
 * below 1) that must blend. Classes: 0 zero, 1 one, 2 edge values. */
static float alpha_value(uint32_t cls)
{
    static const uint32_t zero[4] = { 0x00000000u, 0x80000000u, 0xbf800000u, 0x7fc00000u };
    static const uint32_t one[3] = { 0x3f800000u, 0x40000000u, 0x7f800000u };
    static const uint32_t edge[4] = { 0x00000001u, 0x3f7fffffu, 0x3f000000u, 0x3b808081u };
    uint32_t r = rnd(), b = cls == 0u ? zero[r & 3u] : cls == 1u ? one[r % 3u] : edge[r & 3u];
    float f;
    eg_memcpy(&f, &b, 4);
    return f;
}

/* half h's alphas of kind 0 (all zero class), 1 (all one class), 2 (mixed), 3 (one class but
 * an edge value in a random lane) */
static void half_alphas(eg_soft_vec4_t *src, uint32_t h, uint32_t kind)
{
    const uint32_t cls = kind == 3u ? rnd() & 1u : kind, odd = rnd() & 7u;
    for (uint32_t l = 0; l < 8u; l++)
        src->c[3].f[8u * h + l] = kind == 2u ? alpha_value(rnd() % 3u) : alpha_value(kind == 3u && l == odd ? 2u : cls);
}

/* RGB565, RGBA8 and BGRA8 x the 16 factor choices x 56 coverage masks (all, none, single lanes,
 * whole and partial rows, random, and every row pattern in every row: the 8-lane paths move a
 * partial row as a run, or by VPMASKMOVD, session 14) with random sources (NaN, -0, out of range) over random stored
 * bytes: eg_soft_blend_565 / eg_soft_blend_u8 with 8 lanes (AVX2 where the CPU has it) and with
 * 4 (eg_soft_shade_vw) give every byte of the target as the per-lane reference above: blended
 * where the mask covers, untouched elsewhere (guard bytes around the block included). srcs 1:
 * the masks 4 times, the halves' alphas by half_alphas (the first half's kind m / 56, the
 * second's random); returns the cases that differ. */
static uint32_t blend_cases(uint32_t srcs, uint32_t *cases)
{
    static uint8_t init[BH * BP], got[BH * BP], want[BH * BP];
    const uint32_t saved = eg_soft_shade_vw;
    uint32_t bad = 0;
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t fl = 0; fl < 16u; fl++)
            for (uint32_t m = 0; m < 56u * (srcs ? 4u : 1u); m++) {
                const uint32_t e = f == 0u ? 2u : 4u, mm = m % 56u;
                uint32_t fast = EG_SOFT_BLEND_U8 | (f == 0u ? EG_SOFT_BLEND_U8_565 : 0u) | (f == 2u ? EG_SOFT_BLEND_U8_BGRA : 0u);
                fast |= (fl & 1u ? EG_SOFT_BLEND_U8_SA_C : 0u) | (fl & 2u ? EG_SOFT_BLEND_U8_INV_C : 0u) |
                        (fl & 4u ? EG_SOFT_BLEND_U8_SA_A : 0u) | (fl & 8u ? EG_SOFT_BLEND_U8_INV_A : 0u);
                static const uint32_t masks[8] = { 0xffffu, 0u, 1u, 0x8000u, 0x0f0fu, 0xf000u, 0x6996u, 0x0ff0u };
                eg_soft_mask_t mask = (eg_soft_mask_t)(mm < 8u ? masks[mm] : mm < 24u ? 1u << (mm - 8u) : mm < 40u ? rnd() & 0xffffu
                                                                                    : ((mm - 40u) * 0x1111u) ^ 0x0ff0u);
                eg_soft_vec4_t src;
                for (uint32_t c = 0; c < 4u; c++)
                    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) src.c[c].f[l] = src_value();
                if (srcs)
                    for (uint32_t h = 0; h < 2u; h++) half_alphas(&src, h, h ? rnd() & 3u : m / 56u);
                for (uint32_t i = 0; i < BH * BP; i++) init[i] = (uint8_t)rnd();
                eg_soft_target_t t = { NULL, BP, e, 0, WGPUTextureFormat_Undefined };
                eg_memcpy(want, init, sizeof want);
                for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
                    if (mask >> l & 1u) ref_px(&src, l, fast, want + (1u + l / 4u) * BP + (l & 3u) * e, e);
                for (uint32_t w = 0; w < 2u; w++) {
                    eg_memcpy(got, init, sizeof got);
                    eg_soft_shade_vw = w ? 4u : 8u;
                    if (e == 2u) eg_soft_blend_565(&t, got + BP, mask, &src, fast);
                    else eg_soft_blend_u8(&t, got + BP, mask, &src, fast);
                    (*cases)++;
                    if (memcmp(got, want, sizeof got) != 0 && bad++ < 4u)
                        eg_test_printf("    format %u factors %u mask %04x lanes %u differ\n", f, fl, (unsigned)mask, w ? 4u : 8u);
                }
            }
    eg_soft_shade_vw = saved;
    return bad;
}

/* blend_cases with random sources (see its comment) */
EG_TEST(soft_blend, block_blends_equal_reference)
{
    uint32_t cases = 0;
    EG_EXPECT_EQ_U(blend_cases(0u, &cases), 0u);
    EG_EXPECT_EQ_U(cases, 3u * 16u * 56u * 2u);
}

/* blend_*_avx2's halves by source alpha (helper "blk565"): halves whose covered lanes are all at
 * alpha 0 are skipped under SrcAlpha / OneMinusSrcAlpha (and OneMinusSrcAlpha for a stored
 * alpha), halves all at alpha 1 blend without the target's codes. Every format, factor choice
 * (the skip's condition: the others must blend), mask (partial halves: the skip reads the
 * covered lanes alone) and pair of half kinds (0, 1, mixed, one edge value), 8 and 4 lanes,
 * against the per-lane reference. */
EG_TEST(soft_blend, halves_by_alpha_equal_reference)
{
    uint32_t cases = 0;
    EG_EXPECT_EQ_U(blend_cases(1u, &cases), 0u);
    EG_EXPECT_EQ_U(cases, 3u * 16u * 56u * 4u * 2u);
}

/* The skip's arithmetic: under SrcAlpha / OneMinusSrcAlpha a lane at source alpha 0 gets its
 * stored code back, for every code of 5, 6 and 8 bits and every clamped source class (the
 * reference's expression: s * 0 + code * (1 / max) * 1, clamped, * max + 0.5, truncated), and
 * so does the alpha channel under One / OneMinusSrcAlpha (s = s3 at 0). */
EG_TEST(soft_blend, alpha_zero_keeps_codes)
{
    static const float max[3] = { 31.0f, 63.0f, 255.0f };
    static const uint32_t sb[6] = { 0x00000000u, 0x3f800000u, 0x3f000000u, 0x7fc00000u, 0xbf800000u, 0x00000001u };
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 3u; i++)
        for (uint32_t code = 0; code <= (uint32_t)max[i]; code++)
            for (uint32_t j = 0; j < 6u; j++) {
                float s;
                eg_memcpy(&s, &sb[j], 4);
                bad += ref_chan(s, 0.0f, code, max[i], true, true) != code;
                bad += ref_chan(s, s, code, max[i], false, true) != code && clamp01f(s) == 0.0f;   /* alpha, One */
            }
    EG_EXPECT_EQ_U(bad, 0u);
}

#endif /* EMGPU_HAL_SOFT */
