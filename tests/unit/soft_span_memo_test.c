/* The span path's per-worker texture look-up (soft_span.c tex_lookup): never a stale texture. */
#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "tests/unit/soft_span_util.h"

/* Four 7x12 px glyph quads of one color (the glyph kernel, FZ_MODES_TEXC), uv over the whole
 * texture, so the texture's size decides which texel each pixel takes. */
static uint32_t memo_glyphs(svtx_t *v)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < 4u; i++) {
        float x0 = 1.0f + (float)i * 7.5f, y0 = 2.0f + (float)(i & 1u) * 14.0f, x1 = x0 + 7.0f, y1 = y0 + 12.0f;
        svtx_t a = span_vtx(x0, y0, 1, 0, 0, 250, 250, 250, 200), b = span_vtx(x1, y0, 1, 1, 0, 250, 250, 250, 200);
        svtx_t e = span_vtx(x0, y1, 1, 0, 1, 250, 250, 250, 200), f = span_vtx(x1, y1, 1, 1, 1, 250, 250, 250, 200);
        svtx_t t[6] = { a, b, e, b, f, e };
        for (uint32_t k = 0; k < 6u; k++) v[n++] = t[k];
    }
    return n;
}

/* Two draws in one pass (one epoch) with textures of different sizes, and runs one after
 * another over textures of another size: each run's bytes are the general path's (which samples
 * through the bind group every time). A look-up that missed the view in its key would sample the
 * first draw's texture in the second. */
EG_TEST(soft_span, texture_lookup_never_stale)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const uint32_t sizes[5] = { 8, 16, 4, 32, 8 };   /* at most S */
    static svtx_t quads[24];
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t i = 0; i + 1u < EG_ARRAY_LEN(sizes); i++) {
            run_t r = { d, "span_glyph.frag", span_fmts[f], &span_premul, 1u, WGPUFilterMode_Nearest, false,
                        WGPUTextureFormat_R8Unorm, quads, memo_glyphs(quads), sizes[i] };
            span_tex_size2 = sizes[i + 1u];
            if (!span_sweep(&r, &bad, "texture size", f, i)) wrong_path++;
        }
    span_tex_size2 = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}
#endif
