/* Tests of the span path's constant rows from one bound a triangle (hal/soft/soft_span_store.c
 * eg_soft_span_row_quick): gradients whose codes change slowly along the rows (so some rows
 * hold one code and some straddle a code boundary) and from row to row, every row tried
 * (eg_soft_span_rowc_min_fused 1), in the fused kernels' row loop and the chunk loop's; the
 * bytes must equal the general path's, and the quick proof must have stored rows. */
#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_span_int.h"
#include "tests/unit/soft_span_util.h"

/* A quad over [-64, 96) x [-8, 40) (the S x S target inside it), color c at the left, c + dx
 * at the right, + dy at the bottom (codes, clamped to 255). */
static void gradient(svtx_t v[6], uint32_t c, uint32_t dx, uint32_t dy)
{
    uint8_t a = (uint8_t)c, b = (uint8_t)(c + dx > 255u ? 255u : c + dx);
    uint8_t e = (uint8_t)(c + dy > 255u ? 255u : c + dy), g = (uint8_t)(c + dx + dy > 255u ? 255u : c + dx + dy);
    v[0] = span_vtx(-64, -8, 1, 0, 0, a, (uint8_t)(a / 2u), (uint8_t)(255u - a), 255);
    v[1] = span_vtx(96, -8, 1, 0, 0, b, (uint8_t)(b / 2u), (uint8_t)(255u - b), 255);
    v[2] = span_vtx(-64, 40, 1, 0, 0, e, (uint8_t)(e / 2u), (uint8_t)(255u - e), 255);
    v[3] = v[1];
    v[4] = span_vtx(96, 40, 1, 0, 0, g, (uint8_t)(g / 2u), (uint8_t)(255u - g), 255);
    v[5] = v[2];
}

EG_TEST(soft_span_rows, quick_rows_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const uint32_t dxs[4] = { 0, 1, 2, 3 }, dys[3] = { 1, 5, 37 };
    uint32_t bad = 0, unused = 0;
    uint32_t before = eg_soft_span_row_quick_px;
    eg_soft_span_rowc_min_fused = 1;
    svtx_t v[6];
    for (uint32_t w = 0; w < 2u; w++)   /* the fused kernels' row loop, then the chunk loop's */
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t i = 0; i < 4u; i++)
                for (uint32_t j = 0; j < 3u; j++) {
                    gradient(v, 17u + 29u * i + 53u * j, dxs[i] * (f == 2u ? 8u : 1u), dys[j]);
                    run_t r = { d, "span_copy.frag", span_fmts[f], NULL, 0, WGPUFilterMode_Nearest, ((i + j) & 1u) == 1u,
                                WGPUTextureFormat_Undefined, v, 6, 0 };
                    eg_soft_span_fused_width = w ? 1u : 0u;
                    if (!span_sweep(&r, &bad, w ? "gradient, chunk loop" : "gradient", f, i * 3u + j)) unused++;
                }
    eg_soft_span_fused_width = 0;
    eg_soft_span_rowc_min_fused = 128;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(unused, 0u);
    EG_EXPECT(eg_soft_span_row_quick_px - before > 72u * S);   /* 72 renders: at least a row each on average */
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
