/* Tests of the soft span path's fused rows (hal/soft/soft_span_fused.c, soft_span_fused.inc): each
 * kernel against the general path on awkward inputs (partial groups, odd widths, texture edges,
 * both windings), at 4 lanes, at the widest width the CPU runs and with fused rows off. */
#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "tests/unit/soft_span_util.h"

/* Thin quads for the fused rows' group edges: widths 1, 2, 3, 5, 7, 9 and 13 px starting at x
 * offsets 0-3 from a 4x4 block (so every partial first and last group of 4 and 8 lanes, and
 * 1-3 px tails), one row each, colors, alpha and u ramping across (alpha from 0: some groups are
 * entirely clear under blending). */
static uint32_t tail_quads(svtx_t *v)
{
    static const uint32_t widths[7] = { 1, 2, 3, 5, 7, 9, 13 };
    uint32_t n = 0;
    for (uint32_t o = 0; o < 4u; o++)
        for (uint32_t i = 0; i < 7u; i++) {
            float x0 = (float)(o + 4u * (i & 1u)), x1 = x0 + (float)widths[i], y0 = (float)(o * 7u + i), y1 = y0 + 1.0f;
            uint8_t a0 = (uint8_t)(i * 9u), a1 = (uint8_t)(200u - o * 40u);
            float v0 = y0 / 32.0f, v1 = y1 / 32.0f;   /* u clamps at both ends */
            svtx_t q[6] = { span_vtx(x0, y0, 1, -0.1f, v0, 250, 10, 90, a0), span_vtx(x1, y0, 1, 1.1f, v0, 5, 240, 30, a1),
                            span_vtx(x0, y1, 1, -0.1f, v1, 250, 10, 90, a0), span_vtx(x1, y0, 1, 1.1f, v0, 5, 240, 30, a1),
                            span_vtx(x1, y1, 1, 1.1f, v1, 5, 240, 30, a1), span_vtx(x0, y1, 1, -0.1f, v1, 250, 10, 90, a0) };
            memcpy(v + n, q, sizeof q);
            n += 6u;
        }
    return n;
}

/* Fused rows (soft_span_fused.c) for every kernel variant (span_fused.frag: all channels vary;
 * span_copy.frag: alpha constant; span_mixed.frag: a constant between varying channels;
 * span_lin.frag: noperspective), target format and blend, at 4 lanes and at the widest width the
 * CPU runs (8 with AVX2), over the test geometry and over thin quads with 1-3 px tails: the same
 * bytes as the general path, and the fused rows really ran (span_fused_px); with the hook at 1
 * the 16-lane chunk path runs instead (no fused pixel) and gives the same bytes too, as it does
 * everywhere in a build without fused rows (EMGPU_SOFT_SIMD 0). */
EG_TEST(soft_span, fused_rows_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[3] = { NULL, &span_premul, &span_straight };
    static const char *const fs[4] = { "span_fused.frag", "span_copy.frag", "span_mixed.frag", "span_lin.frag" };
    static const uint32_t widths[3] = { 4, 0, 1 };
    static svtx_t tails[4u * 7u * 6u];
    uint32_t ntails = tail_quads(tails), bad = 0, wrong_path = 0;
    for (uint32_t s = 0; s < 4u; s++)
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t b = 0; b < 3u; b++)
                for (uint32_t g = 0; g < 2u; g++)
                    for (uint32_t w = 0; w < 3u; w++) {
                        span_vs = s == 3u ? "span_lin.vert" : "span.vert";
                        eg_soft_span_fused_width = widths[w];
                        run_t r = { d, fs[s], span_fmts[f], blends[b], 0, WGPUFilterMode_Nearest, g == 0u && (f + b) & 1u,
                                    WGPUTextureFormat_Undefined, g ? tails : NULL, g ? ntails : 0u, 0 };
                        uint32_t before = eg_soft_worker_main.span_fused_px;
                        if (!span_sweep(&r, &bad, fs[s], f * 3u + b, g * 3u + w)) wrong_path++;
                        bool fused = eg_soft_worker_main.span_fused_px != before;
                        if (fused != (widths[w] != 1u && eg_soft_span_fused_widths() != 0u)) wrong_path++;
                    }
    eg_soft_span_fused_width = 0;
    span_vs = "span.vert";
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}
/* Fused rows of the glyph class (span_glyph.frag: color times the R8 coverage of a nearest
 * sample; an R8 texture of coverages 0, 255 and between) for every target format and blend, at
 * 4 lanes and the widest width, over the test geometry and the thin quads (u from -0.1 to 1.1:
 * clamped texels at both ends): the general path's bytes, and the fused rows ran. The same
 * program over an RGBA8 texture is not fused (the chunk path samples it): same bytes too. */
EG_TEST(soft_span, fused_glyphs_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[3] = { NULL, &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t tails[4u * 7u * 6u];
    uint32_t ntails = tail_quads(tails), bad = 0, wrong_path = 0;
    for (uint32_t t = 0; t < 2u; t++)
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t b = 0; b < 3u; b++)
                for (uint32_t g = 0; g < 2u; g++)
                    for (uint32_t w = 0; w < 2u; w++) {
                        eg_soft_span_fused_width = widths[w];
                        run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest,
                                    g == 0u && (f + b) & 1u, t ? WGPUTextureFormat_Undefined : WGPUTextureFormat_R8Unorm,
                                    g ? tails : NULL, g ? ntails : 0u, 0 };
                        uint32_t before = eg_soft_worker_main.span_fused_px;
                        if (!span_sweep(&r, &bad, t ? "glyph rgba8" : "glyph r8", f * 3u + b, g * 2u + w)) wrong_path++;
                        bool fused = eg_soft_worker_main.span_fused_px != before;
                        if (fused != (t == 0u && eg_soft_span_fused_widths() != 0u)) wrong_path++;
                    }
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Texel copy blits for the fused copy rows (FZ_(copy)): quads whose texels map to pixels 1:1
 * starting at x = 3 (a run that starts inside a group and crosses groups), mirrored in u (every
 * pixel its own run, going backwards), flipped in v, magnified 2x (pairs of pixels on one texel)
 * and minified 2x (every other texel), in both windings; texels 8x8, target 32x32. */
static uint32_t copy_quads(svtx_t *v)
{
    /* x0, y0, x1, y1 (px), u0, v0, u1, v1 */
    static const float q[6][8] = { { 3, 1, 11, 9, 0, 0, 1, 1 },     { 13, 1, 21, 9, 1, 0, 0, 1 },
                                   { 23, 1, 31, 9, 0, 1, 1, 0 },    { 1, 11, 17, 27, 0, 0, 1, 1 },
                                   { 19, 11, 23, 15, 0, 0, 1, 1 },  { 18.5f, 17.25f, 30.5f, 31.75f, -0.2f, 0.1f, 1.3f, 0.9f } };
    uint32_t n = 0;
    for (uint32_t i = 0; i < 6u; i++) {
        const float *r = q[i];
        svtx_t a = span_vtx(r[0], r[1], 1, r[4], r[5], 0, 0, 0, 0), b = span_vtx(r[2], r[1], 1, r[6], r[5], 0, 0, 0, 0);
        svtx_t c = span_vtx(r[0], r[3], 1, r[4], r[7], 0, 0, 0, 0), d = span_vtx(r[2], r[3], 1, r[6], r[7], 0, 0, 0, 0);
        /* odd quads counter-clockwise, even ones clockwise (no culling: both are drawn) */
        svtx_t t[6] = { a, b, c, b, d, c };
        if (i & 1u) { t[1] = c; t[2] = b; t[4] = c; t[5] = d; }
        for (uint32_t k = 0; k < 6u; k++) v[n++] = t[k];
    }
    return n;
}

/* Fused texel copy rows (blits, output = the texel, nearest, no blend) for every texel -> target
 * pair the copy handles (RGBA8 -> RGBA8 and RGB565 -> RGB565: moves; RGBA8 -> BGRA8: R and B
 * swapped) over copy_quads, the thin quads (u from -0.1 to 1.1: clamped texels at both ends,
 * 1-3 px tails at every block offset) and the test geometry (fractional edges, a scissor), at 4
 * lanes, the widest width and off: the general path's bytes; every pixel of the span path was a
 * texel copy, and the fused rows stored them exactly when they are on (and built: not where
 * vectors are lowered to scalar code, eg_soft_span_copy_widths). */
EG_TEST(soft_span, fused_copy_rows_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const uint32_t widths[3] = { 4, 0, 1 };
    static const WGPUTextureFormat texs[3] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_EmgpuRGB565Unorm,
                                               WGPUTextureFormat_RGBA8Unorm };
    static const WGPUTextureFormat tgts[3] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_EmgpuRGB565Unorm,
                                               WGPUTextureFormat_BGRA8Unorm };
    static svtx_t quads[4u * 7u * 6u];
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t k = 0; k < 3u; k++)
        for (uint32_t g = 0; g < 3u; g++)
            for (uint32_t w = 0; w < 3u; w++) {
                uint32_t nq = g == 0u ? copy_quads(quads) : g == 1u ? tail_quads(quads) : 0u;
                eg_soft_span_fused_width = widths[w];
                run_t r = { d, "span_blit.frag", tgts[k], NULL, 1u, WGPUFilterMode_Nearest, g == 2u, texs[k],
                            g < 2u ? quads : NULL, nq, 0 };
                uint32_t span0 = eg_soft_worker_main.span_px, copy0 = eg_soft_worker_main.span_copy_px;
                uint32_t fused0 = eg_soft_worker_main.span_fused_px;
                if (!span_sweep(&r, &bad, "copy rows", k, g * 3u + w)) wrong_path++;
                uint32_t span = eg_soft_worker_main.span_px - span0, copied = eg_soft_worker_main.span_copy_px - copy0;
                bool fused = eg_soft_worker_main.span_fused_px != fused0;
                if (copied != span || fused != (widths[w] != 1u && eg_soft_span_copy_widths() != 0u)) wrong_path++;
            }
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Independent values for the copy rows: the 1:1 quad of copy_quads at (3, 1) holds the 8x8
 * texture (pixel centre (x + 0.5) / 8 lies in texel x: WebGPU nearest takes floor(u * width)),
 * the mirrored one at (13, 1) the texture's rows reversed left to right, at 4 lanes and the
 * widest width. */
EG_TEST(soft_span, fused_copy_rows_exact)
{
    SOFT_DEVICE_OR_SKIP(d);
    static svtx_t quads[36];
    static uint8_t img[S * S * 4];
    uint8_t tex[8 * 8 * 4];
    span_tex_pattern(tex, 4u, 64u);
    uint32_t nq = copy_quads(quads), wrong = 0;
    for (uint32_t w = 0; w < 2u; w++) {
        eg_soft_span_fused_width = w ? 0u : 4u;
        run_t r = { d, "span_blit.frag", WGPUTextureFormat_RGBA8Unorm, NULL, 1u, WGPUFilterMode_Nearest, false,
                    WGPUTextureFormat_RGBA8Unorm, quads, nq, 0 };
        EG_ASSERT(span_render(&r, img, 4u));
        for (uint32_t y = 0; y < 8u; y++) {
            wrong += memcmp(img + ((y + 1u) * S + 3u) * 4u, tex + y * 32u, 32u) != 0;
            for (uint32_t x = 0; x < 8u; x++)
                wrong += memcmp(img + ((y + 1u) * S + 13u + x) * 4u, tex + (y * 8u + 7u - x) * 4u, 4u) != 0;
        }
    }
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(wrong, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Wide 1:1 blits for the copy rows' whole-group paths (16 px at once with AVX2): a 32x32 texture
 * over the whole 32x32 target (every row one run), and shifted by 5 px right and 3 down with
 * the texture's first texels clamped in (x < 5: texel 0, so the runs start after a clamped
 * stretch), both windings, RGBA8 and RGB565, at 4 lanes and the widest width: the general
 * path's bytes; the unshifted target holds the texture's bytes exactly (texel x at pixel x). */
EG_TEST(soft_span, fused_copy_rows_wide_blit)
{
    SOFT_DEVICE_OR_SKIP(d);
    static uint8_t img[S * S * 4], want[S * S * 4];
    uint32_t bad = 0, wrong = 0;
    for (uint32_t k = 0; k < 2u; k++)
        for (uint32_t sh = 0; sh < 2u; sh++)
            for (uint32_t w = 0; w < 2u; w++) {
                WGPUTextureFormat fmt = k ? WGPUTextureFormat_EmgpuRGB565Unorm : WGPUTextureFormat_RGBA8Unorm;
                float o = sh ? 5.0f : 0.0f, oy = sh ? 3.0f : 0.0f, u0 = -o / 32.0f, v0 = -oy / 32.0f;
                svtx_t a = span_vtx(0, 0, 1, u0, v0, 0, 0, 0, 0), b = span_vtx(32, 0, 1, u0 + 1.0f, v0, 0, 0, 0, 0);
                svtx_t c = span_vtx(0, 32, 1, u0, v0 + 1.0f, 0, 0, 0, 0), e = span_vtx(32, 32, 1, u0 + 1.0f, v0 + 1.0f, 0, 0, 0, 0);
                svtx_t q[6] = { a, b, c, b, e, c };
                if (sh) { q[1] = c; q[2] = b; q[4] = c; q[5] = e; }   /* the other winding */
                eg_soft_span_fused_width = w ? 0u : 4u;
                run_t r = { d, "span_blit.frag", fmt, NULL, 1u, WGPUFilterMode_Nearest, false, fmt, q, 6u, S };
                if (!span_sweep(&r, &bad, "wide blit", k, sh * 2u + w)) wrong++;
                if (sh) continue;
                EG_ASSERT(span_render(&r, img, k ? 2u : 4u));
                span_tex_pattern(want, k ? 2u : 4u, S * S);
                wrong += memcmp(img, want, (size_t)S * S * (k ? 2u : 4u)) != 0;
            }
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* 7x16 px glyph cells of one color (variant 0: white at alpha 128; 1: a color with a zero
 * channel), at x and y offsets in 0.3 / 0.5 px steps, both windings. */
static uint32_t flat_glyphs(svtx_t *v, uint32_t variant)
{
    static const uint8_t cols[2][4] = { { 255, 255, 255, 128 }, { 40, 0, 200, 255 } };
    const uint8_t *c = cols[variant];
    uint32_t n = 0;
    for (uint32_t i = 0; i < 8u; i++) {
        float x0 = (float)(i * 4u) - (float)(i >> 1) * 5.0f + 0.5f * (float)(i & 1u);
        float y0 = (float)(i >> 1) * 8.0f + 0.3f * (float)(i & 3u);   /* rows cut at fractions too */
        float x1 = x0 + 7.0f, y1 = y0 + 16.0f;
        float u0 = (float)(i % 3u) * 0.25f, u1 = u0 + 0.375f, v0 = (float)(i & 3u) * 0.125f, v1 = v0 + 0.5f;
        svtx_t a = span_vtx(x0, y0, 1, u0, v0, c[0], c[1], c[2], c[3]), b = span_vtx(x1, y0, 1, u1, v0, c[0], c[1], c[2], c[3]);
        svtx_t e = span_vtx(x0, y1, 1, u0, v1, c[0], c[1], c[2], c[3]), f = span_vtx(x1, y1, 1, u1, v1, c[0], c[1], c[2], c[3]);
        svtx_t t[6] = { a, b, e, b, f, e };
        if (i & 1u) { t[1] = e; t[2] = b; t[4] = e; t[5] = f; }   /* the other winding */
        for (uint32_t k = 0; k < 6u; k++) v[n++] = t[k];
    }
    return n;
}

/* Glyph quads of one flat color (every channel the same at the three vertices: the fused kernel
 * with constant channels and one moving edge, FZ_MODES_TEXC / span_edges_one) and of flat
 * colors with a zero channel (not provably constant: the per-channel kernel), with and without
 * a scissor, every target format and blend, at 4 lanes and the widest width: the general
 * path's bytes, and the fused rows ran. */
EG_TEST(soft_span, fused_glyphs_flat_color)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[3] = { NULL, &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t quads[48];
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t c = 0; c < 2u; c++)
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t b = 0; b < 3u; b++)
                for (uint32_t w = 0; w < 2u; w++) {
                    eg_soft_span_fused_width = widths[w];
                    run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest, (f + b) & 1u,
                                WGPUTextureFormat_R8Unorm, quads, flat_glyphs(quads, c), 0 };
                    uint32_t before = eg_soft_worker_main.span_fused_px;
                    if (!span_sweep(&r, &bad, c ? "glyph color with 0" : "glyph flat color", f * 3u + b, w)) wrong_path++;
                    if ((eg_soft_worker_main.span_fused_px != before) != (eg_soft_span_fused_widths() != 0u)) wrong_path++;
                }
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}
#endif
