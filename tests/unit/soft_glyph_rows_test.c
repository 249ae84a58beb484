/* Tests of the glyph pair kernel's rect rows (soft_span_glyph.inc RECT ROWS, FZ_(glyph_rect)):
 * a row's state reused by the repeated rows below it, flat rows stored by their lane mask, and
 * ROW MEMO (a blended row's stored lanes reused where its coverage, run and loaded pixels equal
 * the last blended row's) against the per-lane pair kernel and the general path. */
#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_span.h"
#include "tests/unit/soft_span_util.h"

/* Glyph quads over bands of the target (horizontal full-width quads of one colour at coverage
 * 255: texel (1, 0) of span_tex_pattern's 8x8 R8 texture) 1 to 10 rows tall, so the pixels a
 * glyph row blends over are equal down some rows and change at others: on a glyph's repeated
 * rows (each texel row over 2 to 4 pixel rows, at integer and sub-pixel y) and between rows of
 * equal coverage (span_tex_pattern's rows repeat every 3 texel rows). The glyphs: 1, 2 or 6
 * texel columns over 3-7 px (the unproven column, its owner changing down the rows; run lengths
 * that differ on equal texel rows), coverage 0, 255 and between (clear, flat and blended rows),
 * across the 8 px tiles of the 2-thread runs (partial groups outside the worker's columns) and
 * past the target's right and bottom edges; either diagonal and winding. variant bit 0: the
 * glyphs at alpha 128 (every covered row blended), else 255; bit 1: clip w 2. */
static uint32_t band_glyphs(svtx_t *v, uint32_t variant, bool strips)
{
    static const float band[10][2] = { { 0, 1 }, { 1, 2 }, { 3, 3 }, { 6, 1 }, { 7, 4 },
                                       { 11, 2 }, { 13, 5 }, { 18, 1 }, { 19, 3 }, { 22, 10 } };
    static const uint8_t bc[4][4] = { { 20, 200, 90, 255 }, { 240, 30, 60, 255 }, { 20, 201, 90, 255 },
                                      { 128, 128, 128, 255 } };
    static const float q[12][7] = {   /* x, y, width, height, first texel column, columns, texel rows */
        { 0.0f, 0.0f, 7, 16, 0, 6, 8 },    { 8.3f, 1.6f, 7, 16, 0, 2, 8 },   { 16.5f, 2.25f, 5, 16, 1, 1, 8 },
        { 24.0f, 3.0f, 7, 16, 2, 2, 8 },   { 4.0f, 16.0f, 7, 16, 0, 6, 8 },  { 0.25f, 17.25f, 3, 16, 0, 1, 4 },
        { 12.5f, 18.0f, 7, 13, 0, 6, 8 },  { 20.0f, 17.0f, 7, 24, 3, 2, 8 }, { 27.0f, 10.6f, 4, 16, 0, 2, 4 },
        { 13.0f, 6.0f, 3, 12, 0, 2, 3 },   { 29.0f, 0.25f, 3, 16, 0, 1, 8 }, { 9.75f, 25.25f, 7, 12, 0, 6, 4 },
    };
    const uint8_t c[4] = { 250, 90, 30, (uint8_t)(variant & 1u ? 128u : 255u) };
    const float w = variant & 2u ? 2.0f : 1.0f;
    uint32_t n = 0;
    for (uint32_t i = 0; i < 10u; i++)
        n += rect_quad(v + n, 0.0f, band[i][0], (float)S, band[i][1], 1.0f, 0.19f, 0.19f, 0.06f, 0.06f, bc[i & 3u], i,
                       strips);
    for (uint32_t i = 0; i < 12u; i++) {
        const float *p = q[i];
        const float u0 = p[4] / 8.0f, u1 = (p[4] + p[5]) / 8.0f, v1 = p[6] / 8.0f;
        n += rect_quad(v + n, p[0], p[1], p[2], p[3], w, u0, u1, 0.0f, v1, c, i, strips);
    }
    return n;
}

/* The rect rows over bands (glyphkern): band_glyphs swept by rect_rows_sweep (strips and lists,
 * alpha 255 and 128, clip w 1 and 2, every target format, both blends, 4 lanes and the widest
 * width, with and without the scissor, 1 thread and 2 threads with 8 px squares): the bytes of
 * the per-lane pair kernel and of the general path; and on one thread, where the board has
 * the pair kernel, the rect rows ran (eg_soft_span_pair_rect_quads). */
EG_TEST(soft_glyph_rows, rect_rows_over_bands_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    uint32_t bad = 0, wrong_path = 0;
    rect_rows_sweep(d, band_glyphs, false, &bad, &wrong_path);
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif
