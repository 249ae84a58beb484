/* Tests of the soft span path's glyph rows (soft_span_fused.inc FZ_(glyph)) and constant-row fills (soft_span_store.c). */
#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_span_int.h"
#include "tests/unit/soft_span_util.h"

/* A quad of one color c over [x0, x0 + w) x [y0, y0 + h) px, u over [u0, u1] and v over [v0, v1],
 * as two triangles (winding flipped when `other`). */
static uint32_t flat_quad(svtx_t *v, float x0, float y0, float w, float h, float u0, float u1, float v0, float v1,
                          const uint8_t c[4], bool other)
{
    svtx_t a = span_vtx(x0, y0, 1, u0, v0, c[0], c[1], c[2], c[3]), b = span_vtx(x0 + w, y0, 1, u1, v0, c[0], c[1], c[2], c[3]);
    svtx_t e = span_vtx(x0, y0 + h, 1, u0, v1, c[0], c[1], c[2], c[3]);
    svtx_t f = span_vtx(x0 + w, y0 + h, 1, u1, v1, c[0], c[1], c[2], c[3]);
    svtx_t t[6] = { a, b, e, b, f, e };
    if (other) { t[1] = e; t[2] = b; t[4] = e; t[5] = f; }
    memcpy(v, t, sizeof t);
    return 6u;
}

/* Glyph cells wider than one 8-lane group (whole groups, with partial first and last ones) and
 * taller than one 4-row block row (the rows' edge terms are renewed per block row), at x and y
 * offsets in fractions of a pixel, both windings, one flat color each (FZ_MODES_TEXC). */
static uint32_t wide_glyphs(svtx_t *v, uint32_t variant)
{
    static const float cell[6][4] = { { 0.5f, 0.3f, 21, 9 },  { 3.2f, 10.0f, 13, 7 }, { 1.7f, 17.6f, 9, 14 },
                                      { 22.0f, 2.5f, 8, 23 }, { 8.5f, 25.5f, 17, 6 }, { 16.0f, 9.0f, 16, 12 } };
    static const uint8_t cols[2][4] = { { 200, 90, 30, 160 }, { 255, 255, 255, 255 } };
    uint32_t n = 0;
    for (uint32_t i = 0; i < 6u; i++) {
        float u0 = 0.05f * (float)i, v0 = 0.1f * (float)(i % 3u);
        n += flat_quad(v + n, cell[i][0], cell[i][1], cell[i][2], cell[i][3], u0, u0 + 0.8f, v0, v0 + 0.7f, cols[variant],
                       (i & 1u) != 0u);
    }
    return n;
}

/* Blended glyph cells of several groups a row and several block rows (wide_glyphs) over an R8
 * coverage texture, every target format, both blends, at 4 lanes and at the widest width the
 * CPU runs: the general path's bytes (fast paths off: the VM and the block stores), and the
 * fused rows ran. The 7 px glyphs of soft_span_fused_test never fill a whole 8-lane group. */
EG_TEST(soft_span_glyph, wide_tall_glyphs_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t quads[36];
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t c = 0; c < 2u; c++)
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t b = 0; b < 2u; b++)
                for (uint32_t w = 0; w < 2u; w++) {
                    eg_soft_span_fused_width = widths[w];
                    run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest, false,
                                WGPUTextureFormat_R8Unorm, quads, wide_glyphs(quads, c), 0 };
                    uint32_t before = eg_soft_worker_main.span_fused_px;
                    if (!span_sweep(&r, &bad, "wide glyphs", f * 2u + b, c * 2u + w)) wrong_path++;
                    if ((eg_soft_worker_main.span_fused_px != before) != (eg_soft_span_fused_widths() != 0u)) wrong_path++;
                }
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Glyph cells 3 to 13 px wide whose rows start at every x & 3 (at integer and half-pixel x), on
 * and across the 8 px tile borders the 2-thread runs below use (squares of 8 px, one job each:
 * rows crossing a border are partial groups outside the worker's columns), 9-10 rows tall from
 * varied y. variant bit 0: alpha 128 (the float blend), else 255; bit 1: u and v over texels 0
 * and 1 of the coverage texture's first row (coverage 0 or 1: FZ_(glyph)'s flat groups at alpha
 * 255), else over the whole texture (its last texel included: the gathers' clamped reads). */
static uint32_t edge_glyphs(svtx_t *v, uint32_t variant)
{
    static const float wid[6] = { 7, 7, 5, 9, 13, 3 };
    const uint8_t col[4] = { 230, 120, 40, (uint8_t)(variant & 1u ? 128u : 255u) };
    const float ur = variant & 2u ? 0.24f : 1.0f, vr = variant & 2u ? 0.12f : 1.0f;
    uint32_t n = 0;
    for (uint32_t i = 0; i < 24u; i++) {
        float x0 = (float)(8u * (i % 3u + 1u) - 1u - i / 6u) + (i & 8u ? 0.5f : 0.0f) - (i % 3u == 2u ? 6.0f : 0.0f);
        float y0 = (float)((i * 7u) % 22u) + 0.25f;
        n += flat_quad(v + n, x0, y0, wid[i % 6u], 9.0f + (float)(i & 1u), 0.0f, ur, 0.0f, vr, col, (i & 2u) != 0u);
    }
    return n;
}

/* Renders r with `threads` workers and tile_px squares (0: the defaults) with the fast paths on,
 * and with one worker and them off: true when the bytes are equal. */
static bool glyph_same(const run_t *r, uint32_t threads, uint32_t tile_px)
{
    static uint8_t fast[S * S * 4], slow[S * S * 4];
    uint32_t bpp = r->fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    eg_soft_set_threads(threads);
    eg_soft_bin_set_tile_px(tile_px);
    bool ok = span_render(r, fast, bpp);
    eg_soft_set_threads(1);
    eg_soft_bin_set_tile_px(0);
    eg_soft_raster_fast_paths = false;
    ok = ok && span_render(r, slow, bpp);
    eg_soft_raster_fast_paths = true;
    eg_soft_set_threads(0);
    return ok && memcmp(fast, slow, (size_t)S * S * bpp) == 0;
}

/* FZ_(glyph)'s groups from each row's first pixel (edge_glyphs: every x & 3, tile borders),
 * flat (alpha 255, coverage 0 or 1) and blended groups, every target format, both blends, the
 * gathered texel reads (8x8 texture) and the loaded ones (1x1: too small for a 4-byte read), at
 * 4 lanes and the widest width, on 1 thread and on 2 threads with 8 px squares (partial groups
 * across a border stored by FZ_(put)): the bytes of the general path, and the fused rows ran. */
EG_TEST(soft_span_glyph, row_starts_and_tile_borders_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 }, tex[2] = { 8, 1 };
    static svtx_t quads[6u * 24u];
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t var = 0; var < 4u; var++)
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t b = 0; b < 2u; b++)
                for (uint32_t w = 0; w < 2u; w++)
                    for (uint32_t t = 0; t < 2u; t++) {
                        eg_soft_span_fused_width = widths[w];
                        run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest, false,
                                    WGPUTextureFormat_R8Unorm, quads, edge_glyphs(quads, var), tex[t] };
                        eg_soft_set_threads(1);
                        uint32_t before = eg_soft_worker_main.span_fused_px;
                        if (!glyph_same(&r, 1u, 0u) && bad++ < 4u)
                            eg_test_printf("    1 thread: case %u/%u/%u/%u/%u differs\n", var, f, b, w, t);
                        if ((eg_soft_worker_main.span_fused_px != before) != (eg_soft_span_fused_widths() != 0u)) wrong_path++;
                        if (!glyph_same(&r, 2u, 8u) && bad++ < 4u)
                            eg_test_printf("    2 threads: case %u/%u/%u/%u/%u differs\n", var, f, b, w, t);
                    }
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Glyph quads for the pair path (soft_span_glyph.inc FZ_(glyph2)): 24 quads 3-13 px wide and
 * 5-17 rows tall at sub-pixel offsets, on and across the 8 px tile borders of the 2-thread runs
 * and past the target's right edge (rows cut by the worker's columns and the scissor), each
 * with either diagonal and either winding; as strips (4 vertices a draw: the two triangles
 * share two vertices, as the UI's instanced glyphs do) or as lists (6 vertices: the shared
 * positions repeated). variant bit 0: alpha 128 (the float blend), else 255; bit 1: coverage
 * over texels 0-1 of the first row (flat groups), else over the whole texture. */
static uint32_t pair_quads(svtx_t *v, uint32_t variant, bool strips)
{
    static const float wid[6] = { 7, 7, 5, 9, 13, 3 }, hgt[4] = { 16, 9, 5, 17 };
    const uint8_t c[4] = { 230, 120, 40, (uint8_t)(variant & 1u ? 128u : 255u) };
    const float ur = variant & 2u ? 0.24f : 1.0f, vr = variant & 2u ? 0.12f : 1.0f;
    uint32_t n = 0;
    for (uint32_t i = 0; i < (strips ? 24u : 22u); i++) {
        float x0 = (float)(8u * (i % 4u) + 3u - i / 5u) + (i & 8u ? 0.5f : 0.0f) + (i & 16u ? 0.3f : 0.0f);
        float y0 = (float)((i * 5u) % 19u) + (i & 4u ? 0.25f : 0.6f), w = wid[i % 6u], h = hgt[i % 4u];
        n += rect_quad(v + n, x0, y0, w, h, 1, 0, ur, 0, vr, c, i, strips);
    }
    return n;
}

/* r rendered with the fast paths on (threads workers, tile_px squares) with *path set, then with
 * it clear, then with the fast paths off (one worker): true when all three give the same bytes. */
static bool three_ways_same(const run_t *r, uint32_t threads, uint32_t tile_px, bool *path)
{
    static uint8_t on[S * S * 4], off[S * S * 4], slow[S * S * 4];
    uint32_t bpp = r->fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    eg_soft_set_threads(threads);
    eg_soft_bin_set_tile_px(tile_px);
    bool ok = span_render(r, on, bpp);
    *path = false;
    ok = ok && span_render(r, off, bpp);
    *path = true;
    eg_soft_set_threads(1);
    eg_soft_bin_set_tile_px(0);
    eg_soft_raster_fast_paths = false;
    ok = ok && span_render(r, slow, bpp);
    eg_soft_raster_fast_paths = true;
    eg_soft_set_threads(0);
    size_t sz = (size_t)S * S * bpp;
    return ok && memcmp(on, slow, sz) == 0 && memcmp(off, slow, sz) == 0;
}

/* r rendered three ways: the fast paths on with the pair path (threads workers, tile_px
 * squares), on without it (the triangles one by one), off (one worker): true when all three
 * give the same bytes. */
static bool pair_same(const run_t *r, uint32_t threads, uint32_t tile_px)
{
    return three_ways_same(r, threads, tile_px, &eg_soft_span_pair_on);
}

/* A glyph quad's two triangles in one row walk (FZ_(glyph2), pair11): strips and lists, both
 * diagonals and windings, partial groups, tile borders (2 threads, 8 px squares: binned pairs,
 * rows cut by the worker's columns), alpha 255 and 128, flat and blended groups, gathered
 * (8x8) and loaded (1x1) texels, every target format, both blends, 4 lanes and the widest
 * width: the bytes of the triangles drawn one by one and of the general path; and the pair
 * path ran on one thread where the board has the pair kernel (eg_soft_span_pair_quads). */
EG_TEST(soft_span_glyph, quad_pairs_match_single_triangles)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 }, tex[2] = { 8, 1 };
    static svtx_t quads[SPAN_MAX_VERTS];
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t st = 0; st < 2u; st++)
        for (uint32_t var = 0; var < 4u; var++)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t b = 0; b < 2u; b++)
                    for (uint32_t w = 0; w < 2u; w++) {
                        uint32_t t = (var + f + b) & 1u;
                        eg_soft_span_fused_width = widths[w];
                        span_strip_quads = st != 0u;
                        run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest, false,
                                    WGPUTextureFormat_R8Unorm, quads, pair_quads(quads, var, st != 0u), tex[t] };
                        uint32_t before = eg_soft_span_pair_quads;
                        if (!pair_same(&r, 1u, 0u) && bad++ < 4u)
                            eg_test_printf("    1 thread: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                        if ((eg_soft_span_pair_quads != before) != (eg_soft_span_pair_widths() != 0u)) wrong_path++;
                        if (!pair_same(&r, 2u, 8u) && bad++ < 4u)
                            eg_test_printf("    2 threads: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                    }
    span_strip_quads = false;
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Glyph quads for the quad's own set-up (soft_span.c quad_fill, pairset2) and the cases it hands
 * back to the general set-up: as pair_quads (sizes, sub-pixel offsets, tile borders, the
 * target's right edge, both diagonals and windings, strips or lists), each quad one of: a flat
 * color (the quad set-up), one color channel (R, G, B or A) differing at one corner (one
 * triangle or both not FZ_MODES_TEXC: each alone), u or u and v constant (FZ_CONST coordinates), a sheared quad (two
 * moving edges: each alone), clip w 2 at every corner (equal 1/w, perspective weights), a color
 * component 0 (not a fixed value: each alone). variant bit 0: alpha 128, else 255. */
static uint32_t quick_quads(svtx_t *v, uint32_t variant, bool strips)
{
    static const float wid[6] = { 7, 9, 5, 7, 13, 3 }, hgt[4] = { 16, 9, 5, 17 };
    uint32_t n = 0;
    for (uint32_t i = 0; i < (strips ? 24u : 22u); i++) {
        const uint32_t kind = (i + variant / 2u) % 8u;
        uint8_t c[4] = { 230, 120, 40, (uint8_t)(variant & 1u ? 128u : 255u) }, c2[4];
        if (kind == 7u) c[(i / 8u) % 4u] = 0;
        memcpy(c2, c, sizeof c2);
        c2[kind == 2u ? 3u : (i / 8u) % 4u] ^= 1u;   /* one channel differs at one corner */
        float x0 = (float)(8u * (i % 4u) + 3u - i / 5u) + (i & 8u ? 0.5f : 0.0f) + (i & 16u ? 0.3f : 0.0f);
        float y0 = (float)((i * 5u) % 19u) + (i & 4u ? 0.25f : 0.6f), w = wid[i % 6u], h = hgt[i % 4u];
        float ur = kind == 3u || kind == 4u ? 0.0f : 1.0f, vr = kind == 4u ? 0.0f : 1.0f, cw = kind == 6u ? 2.0f : 1.0f;
        float sh = kind == 5u ? 1.5f : 0.0f;
        const uint8_t *ca = kind == 2u ? c2 : c, *cf = kind == 1u ? c2 : c;
        svtx_t a = span_vtx(x0, y0, cw, 0.25f, 0.5f, ca[0], ca[1], ca[2], ca[3]);
        svtx_t b = span_vtx(x0 + w, y0, cw, ur, 0.5f, c[0], c[1], c[2], c[3]);
        svtx_t e = span_vtx(x0 + sh, y0 + h, cw, 0.25f, vr, c[0], c[1], c[2], c[3]);
        svtx_t f = span_vtx(x0 + w + sh, y0 + h, cw, ur, vr, cf[0], cf[1], cf[2], cf[3]);
        n += emit_quad(v + n, a, b, e, f, i, strips);
    }
    return n;
}

/* The quad's own set-up against the general one of each triangle and the general path
 * (quick_quads: its own cases and those it hands back), every target format, both blends, 4
 * lanes and the widest width, 1 thread and 2 (8 px tiles: binned pairs), with the colour tested
 * as one vector, value by value (eg_soft_span_pair_colvec_on false) and flat (the provoking
 * vertex's: span_glyph_flat.frag); on one thread the pair path takes exactly the quads the quad
 * set-up prepared (eg_soft_span_pair_quick_quads: the general set-up found no other pair), some,
 * where the board has the pair kernel. */
EG_TEST(soft_span_glyph, quad_setup_matches_general_setup)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t quads[SPAN_MAX_VERTS];
    const char *const vs = span_vs;
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t cm = 0; cm < 3u; cm++)
        for (uint32_t st = 0; st < 2u; st++)
            for (uint32_t var = 0; var < 4u; var++)
                for (uint32_t f = 0; f < 3u; f++)
                    for (uint32_t b = 0; b < 2u; b++)
                        for (uint32_t w = 0; w < 2u; w++) {
                            eg_soft_span_fused_width = widths[w];
                            span_strip_quads = st != 0u;
                            eg_soft_span_pair_colvec_on = cm != 1u;
                            span_vs = cm == 2u ? "span_flat.vert" : vs;
                            run_t r = { d, cm == 2u ? "span_glyph_flat.frag" : "span_glyph.frag", span_fmts[f], blends[b], 1u,
                                        WGPUFilterMode_Nearest, false, WGPUTextureFormat_R8Unorm, quads,
                                        quick_quads(quads, var, st != 0u), 8u };
                            uint32_t pairs = eg_soft_span_pair_quads, q0 = eg_soft_span_pair_quick_quads;
                            if (!three_ways_same(&r, 1u, 0u, &eg_soft_span_pair_quick_on) && bad++ < 4u)
                                eg_test_printf("    1 thread: case %u/%u/%u/%u/%u/%u differs\n", cm, st, var, f, b, w);
                            uint32_t nq = eg_soft_span_pair_quick_quads - q0;
                            /* the "on" render's pairs all quick; the "off" one's as many, by the general set-up */
                            if (nq * 2u != eg_soft_span_pair_quads - pairs || (nq != 0u) != (eg_soft_span_pair_widths() != 0u))
                                wrong_path++;
                            if (!three_ways_same(&r, 2u, 8u, &eg_soft_span_pair_quick_on) && bad++ < 4u)
                                eg_test_printf("    2 threads: case %u/%u/%u/%u/%u/%u differs\n", cm, st, var, f, b, w);
                        }
    span_vs = vs;
    eg_soft_span_pair_colvec_on = true;
    span_strip_quads = false;
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The pair path's blend memo (FZ_(glyph2), glyph2k): the glyph quads of pair_quads at alpha 128
 * (coverage 0 or 1: one source alpha, the memo's case; coverage over the whole texture: many)
 * drawn over a background of many stored values (4 quads of 16 x 16 px of the coverage pattern at
 * alpha 255 with a color per vertex: runs of equal and of different pixels), so that groups hit
 * the memo, miss it on another stored pixel, and miss it on another source alpha; every target
 * format, both blends (straight: skip_clear, the memo's pipelines), 4 lanes and the widest, 1 and
 * 2 threads: the bytes of the triangles drawn one by one and of the general path. */
EG_TEST(soft_span_glyph, quad_pair_blend_memo_matches_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t quads[SPAN_MAX_VERTS];
    uint32_t bad = 0;
    for (uint32_t st = 0; st < 2u; st++)
        for (uint32_t var = 1; var < 4u; var += 2u)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t b = 0; b < 2u; b++)
                    for (uint32_t w = 0; w < 2u; w++) {
                        uint32_t n = 0;
                        for (uint32_t q = 0; q < 4u; q++) {   /* the background: one quad a 16 px square */
                            float x0 = (float)(q & 1u) * 16.0f, y0 = (float)(q >> 1) * 16.0f;
                            svtx_t a = span_vtx(x0, y0, 1, 0, 0, 250, (uint8_t)(60u * q), 10, 255);
                            svtx_t bv = span_vtx(x0 + 16.0f, y0, 1, 1, 0, 20, 200, (uint8_t)(70u * q), 255);
                            svtx_t e = span_vtx(x0, y0 + 16.0f, 1, 0, 1, 90, 30, 240, 255);
                            svtx_t g = span_vtx(x0 + 16.0f, y0 + 16.0f, 1, 1, 1, (uint8_t)(50u * q), 250, 130, 255);
                            if (st) {
                                svtx_t t[4] = { a, bv, e, g };
                                memcpy(quads + n, t, sizeof t);
                                n += 4u;
                            } else {
                                svtx_t t[6] = { a, bv, e, bv, g, e };
                                memcpy(quads + n, t, sizeof t);
                                n += 6u;
                            }
                        }
                        n += pair_quads(quads + n, var, st != 0u);
                        eg_soft_span_fused_width = widths[w];
                        span_strip_quads = st != 0u;
                        run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest, false,
                                    WGPUTextureFormat_R8Unorm, quads, n, 8u };
                        if (!pair_same(&r, 1u, 0u) && bad++ < 4u)
                            eg_test_printf("    1 thread: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                        if (!pair_same(&r, 2u, 8u) && bad++ < 4u)
                            eg_test_printf("    2 threads: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                    }
    span_strip_quads = false;
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Glyph quads for the separable texel indices (soft_span_glyph.inc FZ_(sep_prep), glyphsep): an
 * 8x8 coverage texture mapped onto quads in texels (tu0, tu1) x (tv0, tv1): 6 texels on 7 px (the
 * UI bench's cells: column 3's centre on a texel boundary, computed per pixel), 1:1 at integer
 * and sub-pixel offsets, 8 texels on 5 px (shrunk), 1 texel on 3 px (stretched), u and v
 * mirrored, 8 texels on 12 rows (a row on a boundary: the per-lane kernel), 4 texels on 6 px
 * (two columns on boundaries: the per-lane kernel), 12 px wide (wider than a group), across the
 * 8 px tile borders of the 2-thread runs, past the target's edges and the scissor's; either
 * diagonal and winding (as pair_quads). variant bit 0: alpha 128, else 255; bit 1: clip w 2 at
 * every vertex (perspective weights, equal 1/w), else 1. */
static uint32_t sep_quads(svtx_t *v, uint32_t variant, bool strips)
{
    static const float q[13][8] = {
        { 2.0f, 1.0f, 7, 16, 0, 6, 0, 8 },      { 10.5f, 3.25f, 7, 16, 1, 7, 0, 8 },  { 19.0f, 0.0f, 8, 8, 0, 8, 0, 8 },
        { 1.3f, 18.6f, 6, 6, 2, 8, 1, 7 },      { 12.0f, 20.0f, 5, 10, 0, 8, 0, 8 },  { 22.5f, 12.0f, 6, 12, 6, 0, 0, 8 },
        { 27.0f, 22.0f, 7, 9, 0, 6, 8, 0 },     { 6.0f, 26.0f, 6, 4, 0, 4, 0, 2 },    { 15.5f, 9.5f, 3, 7, 0, 1, 0, 8 },
        { 4.0f, 7.0f, 12, 5, 0, 8, 0, 5 },      { -2.0f, 12.0f, 7, 16, 0, 6, 0, 8 },  { 8.0f, 16.0f, 7, 16, 1, 7, 0, 8 },
        { 24.25f, -3.0f, 4, 9, 3, 7, 7, 0 },
    };
    const uint8_t c[4] = { 40, 210, 120, (uint8_t)(variant & 1u ? 128u : 255u) };
    const float w = variant & 2u ? 2.0f : 1.0f;
    uint32_t n = 0;
    for (uint32_t i = 0; i < 13u; i++) {
        const float *p = q[i];
        float u0 = p[4] / 8.0f, u1 = p[5] / 8.0f, v0 = p[6] / 8.0f, v1 = p[7] / 8.0f;
        n += rect_quad(v + n, p[0], p[1], p[2], p[3], w, u0, u1, v0, v1, c, i, strips);
    }
    return n;
}

/* r three ways: the pair path with the separable indices (threads workers, tile_px squares), the
 * pair path without them (the per-lane kernel), the general path (fast paths off, one worker):
 * true when all give the same bytes. */
static bool sep_same(const run_t *r, uint32_t threads, uint32_t tile_px)
{
    return three_ways_same(r, threads, tile_px, &eg_soft_span_pair_sep_on);
}

/* The pair kernel's separable texel indices (glyphsep): sep_quads as strips and lists, alpha 255
 * and 128, clip w 1 and 2, every target format, both blends, 4 lanes and the widest width, with
 * and without the scissor, clamp-to-edge and (on some cases) repeat samplers, 1 thread and 2
 * threads with 8 px squares: the bytes of the per-lane pair kernel and of the general path; and
 * on one thread with clamp-to-edge, where the board has the pair kernel, the separable indices
 * ran (eg_soft_span_pair_sep_quads: the 3 px quad is proven at 4 lanes too). */
EG_TEST(soft_span_glyph, separable_texel_indices_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t quads[SPAN_MAX_VERTS];
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t st = 0; st < 2u; st++)
        for (uint32_t var = 0; var < 4u; var++)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t b = 0; b < 2u; b++)
                    for (uint32_t w = 0; w < 2u; w++) {
                        const bool rep = ((var + f + b + w) & 3u) == 3u;
                        eg_soft_span_fused_width = widths[w];
                        span_strip_quads = st != 0u;
                        span_address = rep ? WGPUAddressMode_Repeat : WGPUAddressMode_Undefined;
                        run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest,
                                    ((var + b) & 1u) != 0u, WGPUTextureFormat_R8Unorm, quads, sep_quads(quads, var, st != 0u),
                                    8u };
                        uint32_t before = eg_soft_span_pair_sep_quads;
                        if (!sep_same(&r, 1u, 0u) && bad++ < 4u)
                            eg_test_printf("    1 thread: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                        if (!rep && (eg_soft_span_pair_sep_quads != before) != (eg_soft_span_pair_widths() != 0u)) wrong_path++;
                        if (!sep_same(&r, 2u, 8u) && bad++ < 4u)
                            eg_test_printf("    2 threads: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                    }
    span_strip_quads = false;
    span_address = WGPUAddressMode_Undefined;
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Glyph quads for the separable path's row tables (FZ_(sep_runs), FZ_(sep_unproven), glyphq):
 * texel columns with one centre on a texel boundary (7 px over 6 texels, 3 px over 2: the
 * unproven column, whose triangle the split line decides per row, solved in closed form) and
 * without (5 px over 5), 3 to 30 rows tall, first rows at every offset in the 4-row blocks and
 * at sub-pixel offsets (so the split crosses the unproven column inside a block, on a block's
 * first row, or not at all), past the target's top and bottom and the scissor's, across the
 * 8 px tiles of the 2-thread runs (boxes cut: no rect rows), either diagonal and winding (as
 * pair_quads). variant bit 0: alpha 128, else 255; bit 1: clip w 2 (perspective weights). */
static uint32_t split_quads(svtx_t *v, uint32_t variant, bool strips)
{
    static const float q[16][6] = {   /* x, y, width, height, texels across, texels down */
        { 0.0f, 0.0f, 7, 16, 6, 8 },     { 8.0f, 1.0f, 7, 16, 6, 8 },    { 16.0f, 2.0f, 7, 17, 6, 8 },
        { 24.0f, 3.0f, 7, 16, 6, 8 },    { 0.5f, 17.25f, 7, 13, 6, 8 },  { 8.25f, 18.5f, 7, 9, 6, 4 },
        { 16.75f, 19.75f, 7, 12, 6, 8 }, { 24.5f, 20.6f, 7, 30, 6, 8 },  { 1.0f, 5.0f, 3, 16, 2, 8 },
        { 5.0f, 2.5f, 3, 29, 2, 8 },     { 13.0f, 6.0f, 3, 11, 2, 3 },   { 20.5f, -3.5f, 3, 20, 2, 8 },
        { 27.0f, 9.0f, 5, 13, 5, 8 },    { 11.0f, 24.0f, 5, 3, 5, 1 },   { 3.0f, 26.0f, 7, 10, 6, 8 },
        { 9.5f, 11.0f, 7, 24, 6, 8 },
    };
    const uint8_t c[4] = { 200, 60, 150, (uint8_t)(variant & 1u ? 128u : 255u) };
    const float w = variant & 2u ? 2.0f : 1.0f;
    uint32_t n = 0;
    for (uint32_t i = 0; i < 16u; i++) {
        const float *p = q[i];
        const float u1 = p[4] / 8.0f, v1 = p[5] / 8.0f;
        n += rect_quad(v + n, p[0], p[1], p[2], p[3], w, 0.0f, u1, 0.0f, v1, c, i, strips);
    }
    return n;
}

/* The rect rows' sweep (separable_rect_rows, separable_repeated_rows): quads_of's quads as strips
 * and lists, its 4 variants, every target format, both blends, 4 lanes and the widest width,
 * with and without the scissor, 1 thread and 2 threads with 8 px squares: the bytes of the
 * per-lane pair kernel and of the general path (bad); and on one thread, where the board has
 * the pair kernel, whether the rect rows ran (wrong_path; narrow_scissor false: not checked
 * where the rows run 4 lanes wide under the scissor: w = 4, and the widest on 4-lane CPUs
 * such as AArch64's NEON). */
void rect_rows_sweep(WGPUDevice d, uint32_t (*quads_of)(svtx_t *, uint32_t, bool), bool narrow_scissor,
                            uint32_t *bad, uint32_t *wrong_path)
{
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t quads[SPAN_MAX_VERTS];
    for (uint32_t st = 0; st < 2u; st++)
        for (uint32_t var = 0; var < 4u; var++)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t b = 0; b < 2u; b++)
                    for (uint32_t w = 0; w < 2u; w++) {
                        eg_soft_span_fused_width = widths[w];
                        span_strip_quads = st != 0u;
                        run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest,
                                    ((var + b + w) & 1u) != 0u, WGPUTextureFormat_R8Unorm, quads,
                                    quads_of(quads, var, st != 0u), 8u };
                        uint32_t before = eg_soft_span_pair_rect_quads;
                        if (!sep_same(&r, 1u, 0u) && (*bad)++ < 4u)
                            eg_test_printf("    1 thread: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                        const uint32_t lanes = widths[w] ? widths[w] : eg_soft_span_fused_widths() & 8u ? 8u : 4u;
                        if ((lanes != 4u || !r.scissor || narrow_scissor) &&
                            (eg_soft_span_pair_rect_quads != before) != (eg_soft_span_pair_widths() != 0u))
                            (*wrong_path)++;
                        if (!sep_same(&r, 2u, 8u) && (*bad)++ < 4u)
                            eg_test_printf("    2 threads: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                    }
    span_strip_quads = false;
    eg_soft_span_fused_width = 0;
}

/* The separable path's rect rows and the unproven column's owner by row (glyphq): split_quads
 * as strips and lists, alpha 255 and 128, clip w 1 and 2, every target format, both blends, 4
 * lanes and the widest width, with and without the scissor, 1 thread and 2 threads with 8 px
 * squares: the bytes of the per-lane pair kernel and of the general path; and on one thread,
 * where the board has the pair kernel, the rect rows ran (eg_soft_span_pair_rect_quads: the
 * 3 px quads are proven at 4 lanes too). */
EG_TEST(soft_span_glyph, separable_rect_rows_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    uint32_t bad = 0, wrong_path = 0;
    rect_rows_sweep(d, split_quads, true, &bad, &wrong_path);
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Glyph quads for the rect rows' repeats (soft_span_glyph.inc REPEAT, glyphk): 1 or 2 texel
 * columns of span_tex_pattern's 8x8 R8 texture (column 0 down the rows: coverage 0, between,
 * 255, 0, ...; columns 0-1: clear / full pairs too), so rows are clear, flat (coverage 0 and
 * 255 only) or blended, each texel row over 2 to 4 pixel rows (the repeated rows), and 3-7 px
 * over 6 texel columns (the unproven column, its owner changing down the rows), at sub-pixel
 * offsets (cl's box one pixel wider and taller: run lengths that differ on equal texel rows),
 * across the 8 px tiles of the 2-thread runs and past the target's bottom; either diagonal and
 * winding (as pair_quads). variant bit 0: alpha 128, else 255; bit 1: clip w 2. */
static uint32_t repeat_quads(svtx_t *v, uint32_t variant, bool strips)
{
    static const float q[16][7] = {   /* x, y, width, height, first texel column, columns, texel rows */
        { 0.0f, 0.0f, 7, 16, 0, 1, 8 },   { 8.3f, 1.6f, 7, 16, 0, 2, 8 },   { 16.5f, 2.25f, 5, 16, 1, 1, 8 },
        { 24.0f, 3.0f, 7, 16, 2, 2, 8 },  { 4.0f, 16.0f, 7, 16, 0, 6, 8 },  { 0.25f, 17.25f, 3, 16, 0, 1, 4 },
        { 12.5f, 18.0f, 7, 13, 0, 6, 8 }, { 20.0f, 17.0f, 7, 24, 3, 2, 8 }, { 27.0f, 10.6f, 4, 16, 0, 2, 4 },
        { 13.0f, 6.0f, 3, 12, 0, 2, 3 },   { 2.6f, 14.3f, 7, 16, 0, 2, 4 },  { 13.0f, 9.0f, 7, 16, 3, 1, 8 },
        { 9.75f, 25.25f, 7, 12, 0, 6, 4 }, { 21.0f, 9.0f, 5, 16, 3, 2, 1 }, { 29.0f, 0.25f, 3, 16, 0, 1, 8 },
        { 17.0f, 8.0f, 3, 16, 0, 2, 1 },
    };
    const uint8_t c[4] = { 70, 180, 250, (uint8_t)(variant & 1u ? 128u : 255u) };
    const float w = variant & 2u ? 2.0f : 1.0f;
    uint32_t n = 0;
    for (uint32_t i = 0; i < 16u; i++) {
        const float *p = q[i];
        const float u0 = p[4] / 8.0f, u1 = (p[4] + p[5]) / 8.0f, v1 = p[6] / 8.0f;
        n += rect_quad(v + n, p[0], p[1], p[2], p[3], w, u0, u1, 0.0f, v1, c, i, strips);
    }
    return n;
}

/* The rect rows' repeats (glyphk): repeat_quads as strips and lists, alpha 255 and 128, clip w
 * 1 and 2, every target format, both blends, 4 lanes and the widest width, with and without
 * the scissor, 1 thread and 2 threads with 8 px squares: the bytes of the per-lane pair kernel
 * and of the general path; and on one thread, where the board has the pair kernel, the rect
 * rows ran (eg_soft_span_pair_rect_quads; at 4 lanes only the 3-4 px quads fit a group, and
 * none of them ran the rect rows under the scissor: not checked there). */
EG_TEST(soft_span_glyph, separable_repeated_rows_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    uint32_t bad = 0, wrong_path = 0;
    rect_rows_sweep(d, repeat_quads, false, &bad, &wrong_path);
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Glyph quads for the memo of the separable tables (soft_span_glyph.inc MEMO, sepmemo): three
 * shapes (7 px over 6 texels by 16 rows: the UI bench's cells, with the unproven column; 5 px
 * over 5 texels by 13 rows at x + 0.5; 3 px over 2 texels by 11 rows at y + 0.25), each at 8 of
 * the 16 block phases (variant bit 0: phases 0-7 or 8-15) and again 8 or 16 px right and 12 px
 * down (the same phase: a memo hit; some 7 px cells moved along their diagonal too: a miss
 * that only C tells), partly past the target's edges and across the 8 px tiles of
 * the 2-thread runs (cut boxes); either diagonal and winding (as pair_quads). variant bit 1:
 * alpha 128, else 255. */
static uint32_t memo_quads(svtx_t *v, uint32_t variant, bool strips)
{
    static const float q[3][6] = {   /* width, height, texels across, texels down, x and y fractions */
        { 7, 16, 6, 8, 0.0f, 0.0f }, { 5, 13, 5, 8, 0.5f, 0.0f }, { 3, 11, 2, 3, 0.0f, 0.25f } };
    const uint8_t c[4] = { 90, 230, 20, (uint8_t)(variant & 2u ? 128u : 255u) };
    uint32_t n = 0;
    for (uint32_t i = 0; i < (strips ? 48u : 32u); i++) {
        const uint32_t s = i % 3u, k = i / 3u, ph = (variant & 1u) * 8u + k % 8u, cp = k / 8u;
        const float *p = q[s];
        /* the 7 px cells' copies with the diagonal a-f also moved by (7, 16) / 64 px along it: the
         * same box and split line (so only the edges' C tell them apart), another texel column */
        const float dx = s == 0u && cp && (i & 1u) ? 7.0f / 64.0f : 0.0f, dy = dx ? 0.25f : 0.0f;
        const float x0 = (float)(10u * s + (ph & 3u) + 8u * cp * (1u + s % 2u)) - 1.0f + p[4] + dx;
        const float y0 = (float)((ph >> 2) + 12u * cp + 3u * s) - 2.0f + p[5] + dy;
        const float u1 = p[2] / 8.0f, v1 = p[3] / 8.0f;
        n += rect_quad(v + n, x0, y0, p[0], p[1], 1, 0.0f, u1, 0.0f, v1, c, i, strips);
    }
    return n;
}

/* The memo of the separable tables (MEMO): memo_quads as strips and lists, all 16 phases, alpha
 * 255 and 128, every target format, both blends, 4 lanes and the widest width, 1 thread and 2
 * threads with 8 px squares, with eg_soft_sep_memo_verify on: the bytes of the run without the
 * memo and of the general path, every hit's tables those sep_prep computes (eg_soft_sep_memo_bad
 * 0), and the memo hit where the build has it and the board the pair kernel. */
EG_TEST(soft_span_glyph, separable_memo_matches_fresh_tables)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t quads[SPAN_MAX_VERTS];
    uint32_t bad = 0;
    eg_soft_sep_memo_verify = true;
    eg_soft_sep_memo_hits = eg_soft_sep_memo_misses = eg_soft_sep_memo_bad = 0;
    for (uint32_t st = 0; st < 2u; st++)
        for (uint32_t var = 0; var < 4u; var++)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t b = 0; b < 2u; b++)
                    for (uint32_t w = 0; w < 2u; w++) {
                        eg_soft_span_fused_width = widths[w];
                        span_strip_quads = st != 0u;
                        run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest, false,
                                    WGPUTextureFormat_R8Unorm, quads, memo_quads(quads, var, st != 0u), 8u };
                        if (!three_ways_same(&r, 1u, 0u, &eg_soft_sep_memo_on) && bad++ < 4u)
                            eg_test_printf("    1 thread: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                        if (!three_ways_same(&r, 2u, 8u, &eg_soft_sep_memo_on) && bad++ < 4u)
                            eg_test_printf("    2 threads: case %u/%u/%u/%u/%u differs\n", st, var, f, b, w);
                    }
    eg_soft_sep_memo_verify = false;
    span_strip_quads = false;
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(eg_soft_sep_memo_bad, 0u);
    EG_EXPECT_EQ_U(eg_soft_sep_memo_hits != 0u, EMGPU_SOFT_SEP_MEMO > 0 && eg_soft_span_pair_widths() != 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Constant rows of every length from 1 to 29 px at x offsets 0-3 (eg_soft_span_row_const's
 * fill: the first pixels, then the filled part doubled), flat colors (every row through the
 * row proof on the chunk path) and a vertical gradient (fused rows with the proof from 2 px
 * on), unblended, every target format: the general path's bytes, so no byte beside a row is
 * written, and the constant rows ran (span_row_px). */
EG_TEST(soft_span_glyph, constant_row_fills_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    static svtx_t quads[6u * 16u];
    static const uint8_t flat[4] = { 180, 40, 250, 255 };
    const int64_t rowc_min = eg_soft_span_rowc_min_fused;
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t g = 0; g < 2u; g++)
        for (uint32_t f = 0; f < 3u; f++) {
            uint32_t n = 0;
            for (uint32_t i = 0; i < 16u; i++) {   /* widths 1, 3, ..., 29 at offsets 0-3 */
                float x0 = (float)(i & 3u) + (i & 4u ? 0.0f : 0.5f), y0 = (float)(i * 2u);
                n += flat_quad(quads + n, x0, y0, (float)(1u + 2u * (i % 15u)), 2.0f, 0, 1, 0, 1, flat, (i & 1u) != 0u);
            }
            for (uint32_t k = 0; k < n && g; k++) {   /* a vertical gradient: top and bottom colors differ */
                bool top = quads[k].pos[1] == quads[k - k % 6u].pos[1];   /* the quad's first vertex is a top one */
                quads[k].color[0] = (uint8_t)(40u + 8u * (k / 6u) + (top ? 0u : 20u));
                quads[k].color[1] = (uint8_t)(200u - 6u * (k / 6u) - (top ? 0u : 30u));
            }
            eg_soft_span_fused_width = g ? 0u : 1u;
            eg_soft_span_rowc_min_fused = 2;   /* 1 is the all-fixed triangles' marker (fixed_row) */
            run_t r = { d, "span_fused.frag", span_fmts[f], NULL, 0u, WGPUFilterMode_Nearest, false,
                        WGPUTextureFormat_Undefined, quads, n, 0 };
            uint32_t before = eg_soft_worker_main.span_row_px;
            if (!span_sweep(&r, &bad, g ? "gradient rows" : "flat rows", f, g)) wrong_path++;
            if (eg_soft_worker_main.span_row_px == before) wrong_path++;
        }
    eg_soft_span_fused_width = 0;
    eg_soft_span_rowc_min_fused = rowc_min;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}
/* span_edges_one_init (pairset) against what it replaces, edges_init at row py0 then
 * span_edges_one: the same answer and, when true, the same box and ew[0] (every field) and inert
 * ew[1], ew[2]; false leaves c as it was. Glyph-like right triangles (axis-aligned legs: the
 * A = 0 and B = 0 branches, one moving edge) in both windings, general triangles (two or three
 * moving edges: false), degenerate-direction legs, and boxes cut above, below and beside the
 * triangle (rows skipped before the moving edge's first row). */
static bool ew_eq(const edge_walk_t *a, const edge_walk_t *b)   /* fields: struct padding may differ */
{
    return a->d == b->d && a->q == b->q && a->r == b->r && a->dq == b->dq && a->dr == b->dr && a->k == b->k &&
           a->dk == b->dk && a->kind == b->kind;
}
static uint32_t edges_rng(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static void edges_setup(const int32_t x[3], const int32_t y[3], eg_soft_setup_t *s)
{
    for (uint32_t i = 0; i < 3; i++) {   /* soft_raster.c setup_edges */
        uint32_t a = (i + 1u) % 3u, b = (i + 2u) % 3u;
        s->A[i] = (int64_t)y[a] - y[b];
        s->B[i] = (int64_t)x[b] - x[a];
        s->C[i] = -(s->A[i] * x[a] + s->B[i] * y[a]);
    }
    int64_t area2 = s->A[0] * x[0] + s->B[0] * y[0] + s->C[0];
    if (area2 < 0)
        for (uint32_t i = 0; i < 3; i++) { s->A[i] = -s->A[i]; s->B[i] = -s->B[i]; s->C[i] = -s->C[i]; }
    for (uint32_t i = 0; i < 3; i++)
        if (!(s->A[i] > 0 || (s->A[i] == 0 && s->B[i] > 0))) s->C[i] -= 1;
}
EG_TEST(soft_span_glyph, edges_one_init_matches_edges_init_and_edges_one)
{
    uint32_t seed = 12345u, bad = 0, ones = 0;
    for (uint32_t it = 0; it < 20000u; it++) {
        int32_t x[3], y[3];
        int32_t x0 = (int32_t)(edges_rng(&seed) % 20000u) - 2000, y0 = (int32_t)(edges_rng(&seed) % 20000u) - 2000;
        int32_t w = (int32_t)(edges_rng(&seed) % 4000u) + 1, h = (int32_t)(edges_rng(&seed) % 4000u) + 1;
        uint32_t kind = edges_rng(&seed) % 6u;
        if (kind < 4u) {   /* a quad's half: the right angle at one of its corners */
            int32_t cx[4] = { x0, x0 + w, x0 + w, x0 }, cy[4] = { y0, y0, y0 + h, y0 + h };
            for (uint32_t v = 0; v < 3u; v++) { x[v] = cx[(kind + v) % 4u]; y[v] = cy[(kind + v) % 4u]; }
        } else {
            for (uint32_t v = 0; v < 3u; v++) {
                x[v] = x0 + (int32_t)(edges_rng(&seed) % 4000u);
                y[v] = y0 + (int32_t)(edges_rng(&seed) % 4000u);
            }
        }
        if (edges_rng(&seed) & 1u) { int32_t t = x[1]; x[1] = x[2]; x[2] = t; t = y[1]; y[1] = y[2]; y[2] = t; }
        eg_soft_setup_t s;
        edges_setup(x, y, &s);
        int32_t mnx = x[0] < x[1] ? x[0] : x[1], mny = y[0] < y[1] ? y[0] : y[1];
        mnx = x[2] < mnx ? x[2] : mnx; mny = y[2] < mny ? y[2] : mny;
        span_fill_t a, b;
        memset(&a, 0, sizeof a);
        a.px0 = (mnx >> EG_SOFT_SUBPIX_BITS) + (int64_t)(edges_rng(&seed) % 8u) - 2;
        a.px1 = a.px0 + 1 + (int64_t)(edges_rng(&seed) % 24u);
        a.py0 = (mny >> EG_SOFT_SUBPIX_BITS) + (int64_t)(edges_rng(&seed) % 8u) - 2;
        a.py1 = a.py0 + 1 + (int64_t)(edges_rng(&seed) % 24u);
        b = a;
        edges_init(&s, a.py0 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, a.ew);
        bool ra = span_edges_one(&a);
        span_fill_t before = b;
        bool rb = span_edges_one_init(&s, &b);
        bool same = ra == rb;
        if (same && rb) {
            ones++;
            same = a.px0 == b.px0 && a.px1 == b.px1 && a.py0 == b.py0 && a.py1 == b.py1 &&
                   ew_eq(&a.ew[0], &b.ew[0]);
            for (uint32_t i = 1; i < 3u; i++)
                same = same && b.ew[i].kind == 0 && b.ew[i].k == 0 && b.ew[i].dk == 0;
        } else if (same) {
            same = before.px0 == b.px0 && before.px1 == b.px1 && before.py0 == b.py0 && before.py1 == b.py1 &&
                   ew_eq(&before.ew[0], &b.ew[0]) && ew_eq(&before.ew[1], &b.ew[1]) && ew_eq(&before.ew[2], &b.ew[2]);
        }
        if (!same && bad++ < 4) eg_test_printf("    case %u differs (%d %d)\n", it, (int)ra, (int)rb);
    }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(ones > 5000u);
}

/* The UI bench's glyph cells: 7 x 16 px quads at whole pixels over 6 x 8 texels of the 8 x 8
 * coverage texture, so the centre of pixel column 3 maps onto a texel boundary exactly (3.5 *
 * 6 / 7 = 3 texels: rounding picks the texel per pixel), at every x & 3, from texel columns 0
 * and 2, both windings. */
static uint32_t cell_glyphs(svtx_t *v, uint32_t variant)
{
    const uint8_t c[4] = { 230, 120, 40, (uint8_t)(variant & 1u ? 128u : 255u) };
    uint32_t n = 0;
    for (uint32_t i = 0; i < 8u; i++) {
        float x0 = (float)(1u + 8u * (i % 4u) - (i / 4u) * 3u), y0 = (float)(1u + 15u * (i / 4u)) - (variant & 2u ? 0.0f : 1.0f);
        float u0 = (i & 1u) ? 0.25f : 0.0f;
        n += flat_quad(v + n, x0, y0, 7, 16, u0, u0 + 0.75f, 0.0f, 1.0f, c, (i & 2u) != 0u);
    }
    return n;
}

/* The scalar glyph kernel of targets without native vectors (soft_span_glyph1.c: Cortex-M7 takes
 * it for every blended glyph), taken here on every board (eg_soft_span_glyph1_on): rows starting
 * at every x & 3 and crossing 8 px tile borders (edge_glyphs), quads of both diagonals and
 * windings (pair_quads: no pair kernel under the hook, each triangle alone), cells of several
 * block columns and rows (wide_glyphs); alpha 255 and 128, coverage 0/1 and varied, gathered
 * (8x8) and 1x1 textures, every target format, both blends, 1 thread and 2 threads with 8 px
 * squares: the general path's bytes, and the kernel ran where the board has the fused path. */
EG_TEST(soft_span_glyph, scalar_rows_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t tex[2] = { 8, 1 };
    static svtx_t verts[SPAN_MAX_VERTS];
    uint32_t bad = 0, wrong_path = 0;
    eg_soft_span_glyph1_on = true;
    for (uint32_t shape = 0; shape < 4u; shape++)
        for (uint32_t var = 0; var < 4u; var++)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t b = 0; b < 2u; b++) {
                    uint32_t t = shape == 3u ? 0u : (var + f + b + shape) & 1u;
                    uint32_t n = shape == 0u ? edge_glyphs(verts, var) : shape == 1u ? pair_quads(verts, var, false)
                               : shape == 2u ? wide_glyphs(verts, var & 1u) : cell_glyphs(verts, var);
                    run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest, false,
                                WGPUTextureFormat_R8Unorm, verts, n, tex[t] };
                    uint32_t before = eg_soft_span_glyph1_px;
                    if (!glyph_same(&r, 1u, 0u) && bad++ < 4u)
                        eg_test_printf("    1 thread: case %u/%u/%u/%u differs\n", shape, var, f, b);
                    if ((eg_soft_span_glyph1_px != before) != (eg_soft_span_fused_widths() != 0u)) wrong_path++;
                    if (!glyph_same(&r, 2u, 8u) && bad++ < 4u)
                        eg_test_printf("    2 threads: case %u/%u/%u/%u differs\n", shape, var, f, b);
                }
    eg_soft_span_glyph1_on = false;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif
