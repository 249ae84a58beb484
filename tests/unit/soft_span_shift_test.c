/* Tests of the shifted texel copy (hal/soft/soft_span_shift.c): blits whose texel indices are
 * the pixel's coordinates plus constants move rows whole. Every case is rendered with the shift
 * on and off (off: the per-pixel copy, soft_span.c) and with the fast paths off (the general
 * path), at 1 and 2 threads: the bytes must be equal; eg_soft_span_shift_px says whether the
 * shift ran, which it must for 1:1 mappings away from texel boundaries and must not for the
 * others (scaled, mirrored, on a texel boundary, starting past the texture's edge; rows past its
 * edge after shifted rows are the per-pixel copy's). */
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span_int.h"
#include "tests/unit/soft_span_util.h"

/* A quad [x, x + w) x [y, y + h) px with uv (u0, v0) .. (u1, v1), as two triangles. */
static uint32_t quad(svtx_t *v, float x, float y, float w, float h, float u0, float v0, float u1, float v1)
{
    v[0] = span_vtx(x, y, 1, u0, v0, 0, 0, 0, 255);
    v[1] = span_vtx(x + w, y, 1, u1, v0, 0, 0, 0, 255);
    v[2] = span_vtx(x, y + h, 1, u0, v1, 0, 0, 0, 255);
    v[3] = v[1];
    v[4] = span_vtx(x + w, y + h, 1, u1, v1, 0, 0, 0, 255);
    v[5] = v[2];
    return 6u;
}

typedef struct shift_case {
    float x, y, w, h, u0, v0, u1, v1;   /* w, h in texels of a tex x tex texture when <= 0: tex */
    bool shifts;                        /* the shift must run (else it must not) */
} shift_case_t;

/* Renders r three ways at `threads` threads (2: binned into 12 px tiles, so rows and triangles
 * are cut by tile borders): shift on, shift off, fast paths off. */
static bool three_same(const run_t *r, uint32_t bpp, uint32_t threads, uint32_t *shifted)
{
    static uint8_t a[S * S * 4], b[S * S * 4], c[S * S * 4];
    eg_soft_set_threads(threads);
    eg_soft_bin_set_tile_px(threads > 1u ? 12u : 0u);
    uint32_t before = eg_soft_span_shift_px;
    bool ok = span_render(r, a, bpp);
    *shifted = eg_soft_span_shift_px - before;
    eg_soft_span_shift_on = false;
    ok = ok && span_render(r, b, bpp);
    eg_soft_span_shift_on = true;
    eg_soft_raster_fast_paths = false;
    ok = ok && span_render(r, c, bpp);
    eg_soft_raster_fast_paths = true;
    eg_soft_bin_set_tile_px(0);
    eg_soft_set_threads(0);
    size_t n = (size_t)S * S * bpp;
    return ok && memcmp(a, b, n) == 0 && memcmp(a, c, n) == 0;
}

/* 1:1 blits at integer and fractional offsets (the pixel centres a quarter texel from the texel
 * centres still prove), partly off the target, a sub-rectangle of the texture, against scaled,
 * mirrored, half-texel and clamped ones; RGBA8 -> RGBA8 / BGRA8 (R and B swapped) and RGB565 ->
 * RGB565; with and without a scissor; 1 thread and 2 threads on 12 px tiles. */
EG_TEST(soft_span_shift, matches_per_pixel_copy)
{
    SOFT_DEVICE_OR_SKIP(d);
    const float T = 16.0f;
    static const shift_case_t cases[] = {
        { 4, 4, 16, 16, 0, 0, 1, 1, true },
        { 0, 0, 16, 16, 0, 0, 1, 1, true },
        { 3.25f, 5.75f, 16, 16, 0, 0, 1, 1, true },
        { -5, -3, 16, 16, 0, 0, 1, 1, true },          /* clipped by the target's left / top */
        { 22, 20, 16, 16, 0, 0, 1, 1, true },          /* and its right / bottom */
        { 9, 2, 8, 8, 0.25f, 0.5f, 0.75f, 1.0f, true },  /* a sub-rectangle, offset texels */
        { 4, 3, 16, 24, 0, 0, 1, 1.5f, true },         /* rows past the texture's bottom: the rest per pixel */
        { 2.5f, 4, 16, 16, 0, 0, 1, 1, false },         /* pixel centres on texel boundaries */
        { 4, 4, 32, 16, 0, 0, 1, 1, false },           /* scaled 2x horizontally */
        { 4, 4, 16, 16, 1, 0, 0, 1, false },           /* mirrored */
        { 2, 2, 24, 24, -0.25f, -0.25f, 1.25f, 1.25f, false },   /* 1:1 but clamped at the edges */
    };
    static const WGPUTextureFormat texs[3] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Unorm,
                                               WGPUTextureFormat_EmgpuRGB565Unorm };
    static const WGPUTextureFormat tgts[3] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                               WGPUTextureFormat_EmgpuRGB565Unorm };
    uint32_t bad = 0, wrong_path = 0, ran = 0;
    svtx_t v[6];
    for (uint32_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const shift_case_t *c = &cases[i];
        uint32_t n = quad(v, c->x, c->y, c->w, c->h, c->u0, c->v0, c->u1, c->v1);
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t threads = 1; threads <= 2u; threads++) {
                run_t r = { d, "span_blit.frag", tgts[f], NULL, 1u, WGPUFilterMode_Nearest, ((i + f) & 1u) != 0,
                            texs[f], v, n, (uint32_t)T };
                uint32_t bpp = f == 2u ? 2u : 4u, shifted = 0;
                if (!three_same(&r, bpp, threads, &shifted) && bad++ < 4)
                    eg_test_printf("    case %u format %u threads %u differs\n", i, f, threads);
                if (threads == 1u) {   /* the counter is the submitting thread's */
                    if ((shifted != 0u) != c->shifts && wrong_path++ < 4)
                        eg_test_printf("    case %u format %u: shift %s\n", i, f, shifted ? "ran" : "did not run");
                    ran += shifted != 0u;
                }
            }
    }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT(ran >= 21u);   /* 7 shifting cases x 3 formats */
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Independent values: a 1:1 blit of the 16x16 texture at (7, 9) holds the texture's bytes, row
 * by row (RGBA8 and RGB565), all of them moved by the shift. */
EG_TEST(soft_span_shift, is_exact_blit)
{
    SOFT_DEVICE_OR_SKIP(d);
    static uint8_t img[S * S * 4], want[16 * 16 * 4];
    svtx_t v[6];
    uint32_t n = quad(v, 7, 9, 16, 16, 0, 0, 1, 1);
    for (uint32_t k = 0; k < 2u; k++) {
        WGPUTextureFormat fmt = k ? WGPUTextureFormat_EmgpuRGB565Unorm : WGPUTextureFormat_RGBA8Unorm;
        uint32_t bpp = k ? 2u : 4u;
        run_t r = { d, "span_blit.frag", fmt, NULL, 1u, WGPUFilterMode_Nearest, false, fmt, v, n, 16u };
        span_tex_pattern(want, bpp, 256u);
        eg_soft_set_threads(1);
        uint32_t before = eg_soft_span_shift_px;
        EG_ASSERT(span_render(&r, img, bpp));
        EG_EXPECT_EQ_U(eg_soft_span_shift_px - before, 256u);
        eg_soft_set_threads(0);
        uint32_t wrong = 0;
        for (uint32_t y = 0; y < 16u; y++)
            wrong += memcmp(img + ((y + 9u) * S + 7u) * bpp, want + y * 16u * bpp, 16u * bpp) != 0;
        EG_EXPECT_EQ_U(wrong, 0u);
    }
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
