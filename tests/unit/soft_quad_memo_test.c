/* Tests of the soft span path's memo of glyph quads' whole set-up (soft_span.c QUAD MEMO). */
#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "tests/unit/soft_span_util.h"

/* Glyph quads that repeat: three shapes (7 px over 6 texels by 16 rows, the UI bench's cells; 5
 * px over 5 texels by 13 rows at x + 0.5; 3 px over 2 texels by 11 rows at y + 0.25), each at 8
 * of the 16 block phases (variant bit 0: phases 0-7 or 8-15), then again (the strips' second
 * half) 4, 8 or 12 px right and 8 or 12 px down: the same phase, a memo hit where nothing clips
 * the two differently, a miss where a tile border (8 px squares: the 12 px moves change the
 * tile phase), the scissor or the target's edge cuts one copy and not the other; some copies
 * also moved along their diagonal by a fraction (only the edges' C tell them apart). Either
 * diagonal and winding (emit_quad). variant bit 1: alpha 128, else 255. */
static uint32_t qm_quads(svtx_t *v, uint32_t variant, bool strips)
{
    static const float q[3][6] = {   /* width, height, texels across, texels down, x and y fractions */
        { 7, 16, 6, 8, 0.0f, 0.0f }, { 5, 13, 5, 8, 0.5f, 0.0f }, { 3, 11, 2, 3, 0.0f, 0.25f } };
    const uint8_t c[4] = { 200, 60, 140, (uint8_t)(variant & 2u ? 128u : 255u) };
    const uint32_t nq = strips ? 48u : 32u;
    uint32_t n = 0;
    for (uint32_t i = 0; i < nq; i++) {
        const uint32_t j = i % (nq / 2u), cp = i / (nq / 2u), s = j % 3u, ph = (variant & 1u) * 8u + (j / 3u) % 8u;
        const float *p = q[s];
        const float dx = cp && s == 0u && (j & 1u) ? 7.0f / 64.0f : 0.0f, dy = dx ? 0.25f : 0.0f;
        const float mx = cp ? (float)(4u * (1u + j % 3u)) : 0.0f, my = cp ? (float)(8u + 4u * (j & 1u)) : 0.0f;
        const float x0 = (float)(9u * s + (ph & 3u)) - 1.0f + p[4] + mx + dx;
        const float y0 = (float)((ph >> 2) + 3u * s) - 2.0f + p[5] + my + dy;
        n += rect_quad(v + n, x0, y0, p[0], p[1], 1, 0.0f, p[2] / 8.0f, 0.0f, p[3] / 8.0f, c, j, strips);
    }
    return n;
}

/* Quads equal but for the varyings at one corner (quadkey): a strip quad's key holds its 4
 * vertices once (the strip's two triangles share V1 and V2), so V3's own (the strip's last
 * vertex) must still tell such quads apart. A 4 x 4 grid of 6 x 6 px quads on 8 px steps (one
 * block phase, inside the 8 px squares of 2 threads); column 0: the quad, 1: V3's u a texel
 * further, 2: V3's colour other, 3: column 0 again (a hit of its entry); row: emit_quad's
 * diagonal and winding. variant bit 0: every quad 0.5 px right; bit 1: alpha 128, else 255. */
static uint32_t qm_corner_quads(svtx_t *v, uint32_t variant, bool strips)
{
    const uint8_t a = (uint8_t)(variant & 2u ? 128u : 255u);
    uint32_t n = 0;
    for (uint32_t i = 0; i < 16u; i++) {
        const uint32_t col = i % 4u, row = i / 4u;
        const float x0 = (float)(8u * col + 1u) + (variant & 1u ? 0.5f : 0.0f), y0 = (float)(8u * row + 1u);
        svtx_t q[4];   /* a (top left), b, e, f (bottom right) */
        for (uint32_t k = 0; k < 4u; k++)
            q[k] = span_vtx(x0 + (k & 1u ? 6.0f : 0.0f), y0 + (k & 2u ? 6.0f : 0.0f), 1, k & 1u ? 6.0f / 8.0f : 0.0f,
                            k & 2u ? 5.0f / 8.0f : 0.0f, 200, 60, 140, a);
        svtx_t *v3 = &q[row & 1u ? 2u : 3u];   /* the strip's last vertex: f, or e with the other diagonal */
        if (col == 1u) v3->uv[0] += 1.0f / 8.0f;
        if (col == 2u) v3->color[0] = 90;
        n += emit_quad(v + n, q[0], q[1], q[2], q[3], row, strips);
    }
    return n;
}

/* The cases a test walks: all of n where the build has the memo and the board the pair kernel;
 * else one (MCU boards: EMGPU_SOFT_QUAD_MEMO 0): nothing of the memo runs, and the walk would
 * only compare the general paths with each other, which the span tests do (on the Cortex-M7
 * under QEMU these two tests took 12-22 s of the unit suite's ~96, session 16). One case per
 * shape (strips, lists) and target format keeps that comparison. */
#define QM_CASES(n) (EMGPU_SOFT_QUAD_MEMO > 0 && eg_soft_span_pair_widths() != 0u ? (n) : 1u)

/* r rendered with the memo on, eg_soft_quad_memo_verify and eg_soft_sep_memo_verify (the
 * separable tables an entry's reference gives, sep_get's sep_ref, against fresh ones too;
 * threads workers, tile_px squares),
 * with it off, and with the fast paths off (one worker): true when all three give the same bytes. */
static bool qm_same(const run_t *r, uint32_t threads, uint32_t tile_px)
{
    static uint8_t on[S * S * 4], off[S * S * 4], slow[S * S * 4];
    const uint32_t bpp = r->fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    eg_soft_set_threads(threads);
    eg_soft_bin_set_tile_px(tile_px);
    eg_soft_quad_memo_verify = eg_soft_sep_memo_verify = true;
    bool ok = span_render(r, on, bpp);
    eg_soft_quad_memo_verify = eg_soft_sep_memo_verify = false;
    eg_soft_quad_memo_on = false;
    ok = ok && span_render(r, off, bpp);
    eg_soft_quad_memo_on = true;
    eg_soft_set_threads(1);
    eg_soft_bin_set_tile_px(0);
    eg_soft_raster_fast_paths = false;
    ok = ok && span_render(r, slow, bpp);
    eg_soft_raster_fast_paths = true;
    eg_soft_set_threads(0);
    const size_t sz = (size_t)S * S * bpp;
    return ok && memcmp(on, slow, sz) == 0 && memcmp(off, slow, sz) == 0;
}

/* Binned strip pairs reach the memo as strips, as they do unbinned (2 threads, 8 px squares):
 * binned as one record (soft_bin.c QUAD RECORDS: the stats count them), or, with those off, as
 * two records whose shared vertices soft_bin.c gives back as one vertex each. Planted bugs:
 * "strip flag never set" (quads off: keyed as two triangles, eg_soft_quad_memo_quads stays 0);
 * "quad record's second triangle takes v2 for v3" (bytes differ from the general path). */
EG_TEST(soft_quad_memo, binned_strips_keyed_as_strips)
{
    SOFT_DEVICE_OR_SKIP(d);
    if (!(EMGPU_SOFT_QUAD_MEMO > 0 && eg_soft_span_pair_widths() != 0u) || EMGPU_SOFT_MAX_THREADS < 2) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("no quad memo or one worker on this board");
    }
    static svtx_t quads[SPAN_MAX_VERTS];
    span_strip_quads = true;
    run_t r = { d, "span_glyph.frag", span_fmts[0], &span_premul, 1u, WGPUFilterMode_Nearest,
                false, WGPUTextureFormat_R8Unorm, quads, qm_quads(quads, 0, true), 8u };
    for (uint32_t q = 0; q < 2u; q++) {
        eg_soft_bin_quads_on = q == 0u;
        eg_soft_bin_stats_t a, b;
        eg_soft_bin_stats(&a);
        eg_soft_quad_memo_quads = 0;
        EG_EXPECT(qm_same(&r, 2u, 8u));
        eg_soft_bin_stats(&b);
        EG_EXPECT(eg_soft_quad_memo_quads != 0u);
        EG_EXPECT((b.quads != a.quads) == (q == 0u));
    }
    eg_soft_bin_quads_on = true;
    span_strip_quads = false;
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The quad memo: qm_quads as strips (the second half with a texture of another size: the
 * entries' separable-table references must not pass to it) and lists, all 16 phases, alpha 255
 * and 128, every target format (RGBA8, BGRA8, RGB565), both blends, 4 lanes and the widest
 * width, with and without the scissor, 1 thread and 2 threads with 8 px squares (binned pairs,
 * rows cut by the worker's columns): the bytes of the memo off and of the general path, every
 * hit's fields those of the general set-up (eg_soft_quad_memo_bad 0) and its separable tables
 * sep_prep's (eg_soft_sep_memo_bad 0), and hits where the build has the memo and the board the
 * pair kernel. */
EG_TEST(soft_quad_memo, hits_match_general_setup)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t quads[SPAN_MAX_VERTS];
    uint32_t bad = 0;
    eg_soft_quad_memo_hits = eg_soft_quad_memo_misses = eg_soft_quad_memo_bad = 0;
    eg_soft_sep_memo_hits = eg_soft_sep_memo_misses = eg_soft_sep_memo_bad = 0;
    const uint32_t n = QM_CASES(2u);
    for (uint32_t st = 0; st < 2u; st++)
        for (uint32_t var = 0; var < QM_CASES(4u); var++)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t b = 0; b < n; b++)
                    for (uint32_t w = 0; w < n; w++)
                        for (uint32_t sc = 0; sc < n; sc++) {
                            eg_soft_span_fused_width = widths[w];
                            span_strip_quads = st != 0u;
                            span_tex_size2 = st ? 16u : 0u;
                            run_t r = { d, "span_glyph.frag", span_fmts[f], blends[b], 1u, WGPUFilterMode_Nearest,
                                        sc != 0u, WGPUTextureFormat_R8Unorm, quads, qm_quads(quads, var, st != 0u), 8u };
                            if (!qm_same(&r, 1u, 0u) && bad++ < 4u)
                                eg_test_printf("    1 thread: case %u/%u/%u/%u/%u/%u differs\n", st, var, f, b, w, sc);
                            if (!qm_same(&r, 2u, 8u) && bad++ < 4u)
                                eg_test_printf("    2 threads: case %u/%u/%u/%u/%u/%u differs\n", st, var, f, b, w, sc);
                        }
    span_strip_quads = false;
    span_tex_size2 = 0;
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(eg_soft_quad_memo_bad, 0u);
    EG_EXPECT_EQ_U(eg_soft_sep_memo_bad, 0u);
    EG_EXPECT_EQ_U(eg_soft_quad_memo_hits != 0u, EMGPU_SOFT_QUAD_MEMO > 0 && eg_soft_span_pair_widths() != 0u);
    EG_EXPECT_EQ_U(eg_soft_quad_memo_misses != 0u, EMGPU_SOFT_QUAD_MEMO > 0 && eg_soft_span_pair_widths() != 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The strip quads' key (4 vertices, quadkey) against qm_corner_quads as strips and lists (the
 * two triangles' key), every target format, 4 lanes and the widest width, with and without the
 * scissor, 1 thread and 2 threads with 8 px squares: the bytes of the memo off and of the general
 * path, every hit's fields those of the general set-up; strips keyed by their 4 vertices and
 * hits where the build has the memo and the board the pair kernel. */
EG_TEST(soft_quad_memo, strip_key_tells_corners_apart)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const uint32_t widths[2] = { 4, 0 };
    static svtx_t quads[SPAN_MAX_VERTS];
    uint32_t bad = 0, strip_keys = 0, list_keys = 0;
    eg_soft_quad_memo_hits = eg_soft_quad_memo_misses = eg_soft_quad_memo_bad = 0;
    for (uint32_t st = 0; st < 2u; st++)
        for (uint32_t var = 0; var < QM_CASES(4u); var++)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t w = 0; w < QM_CASES(2u); w++)
                    for (uint32_t sc = 0; sc < QM_CASES(2u); sc++) {
                        eg_soft_span_fused_width = widths[w];
                        span_strip_quads = st != 0u;
                        eg_soft_quad_memo_quads = 0;
                        run_t r = { d, "span_glyph.frag", span_fmts[f], &span_premul, 1u, WGPUFilterMode_Nearest,
                                    sc != 0u, WGPUTextureFormat_R8Unorm, quads, qm_corner_quads(quads, var, st != 0u), 8u };
                        if (!qm_same(&r, 1u, 0u) && bad++ < 4u)
                            eg_test_printf("    1 thread: case %u/%u/%u/%u/%u differs\n", st, var, f, w, sc);
                        if (!qm_same(&r, 2u, 8u) && bad++ < 4u)
                            eg_test_printf("    2 threads: case %u/%u/%u/%u/%u differs\n", st, var, f, w, sc);
                        *(st ? &strip_keys : &list_keys) += eg_soft_quad_memo_quads;
                    }
    span_strip_quads = false;
    eg_soft_span_fused_width = 0;
    const bool memo = EMGPU_SOFT_QUAD_MEMO > 0 && eg_soft_span_pair_widths() != 0u;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(eg_soft_quad_memo_bad, 0u);
    EG_EXPECT_EQ_U(eg_soft_quad_memo_hits != 0u, memo);
    EG_EXPECT_EQ_U(strip_keys != 0u, memo);
    EG_EXPECT_EQ_U(list_keys, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
