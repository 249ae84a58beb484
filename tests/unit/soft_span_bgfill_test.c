/* Tests of the fused kernels' proved rows (hal/soft/soft_span_fused.inc FZ_(tri)): a gradient
 * background over a cleared target, the rows the one-bound proof settles stored by the kernel's
 * vector fill (eg_soft_span_row_quick_pixel), rows of 32 to 127 px tried by that proof alone
 * (ROWQ_MIN_PX_FUSED), and the per-row proof from 128 px (bgfill, session 16). The bytes must
 * equal the general path's (eg_soft_raster_fast_paths off) for every target format, at target
 * widths across the 32 / 128 px thresholds and a 64 px tile edge, with and without a scissor,
 * for a first draw that covers the target and one that covers it partly, unbinned, in tiles and
 * at 2 threads. */
#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_span_int.h"
#include "tests/unit/soft_span_util.h"

/* Targets: widths past 128 px (full rows take both proofs) where the soft heap holds them, else
 * 72 x 28 px (an MCU board's 64 KiB: target, read-back buffer, vertices) */
#if EMGPU_SOFT_HEAP_BYTES >= (256u << 10)
#define BG_NW 3u
static const uint32_t bg_w[BG_NW] = { 72u, 100u, 140u };
#define BG_WMAX 140u
#define BG_H 40u
#else
#define BG_NW 1u
static const uint32_t bg_w[BG_NW] = { 72u };
#define BG_WMAX 72u
#define BG_H 28u   /* span_render's scissor (3, 5, 23 x 21) ends at row 26 */
#endif

/* A vertex at pixel (px, py) of a w x h target, color (r, g, b). */
static svtx_t bg_vtx(float px, float py, uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b)
{
    svtx_t o = { { px * 2.0f / (float)w - 1.0f, 1.0f - py * 2.0f / (float)h, 0.0f, 1.0f }, { 0.0f, 0.0f }, { r, g, b, 255 } };
    return o;
}

/* The quad [x0, x1) x [y0, y1) (two triangles), the scene's background gradient squeezed into
 * h rows (green at half-code steps: rows whose value sits on a rounding boundary), with a slow
 * horizontal ramp in red when `ramp`. */
static uint32_t bg_quad(svtx_t *v, float x0, float y0, float x1, float y1, uint32_t w, uint32_t h, bool ramp)
{
    uint8_t r1 = ramp ? 0x14 : 0x10;
    svtx_t a = bg_vtx(x0, y0, w, h, 0x10, 0x20, 0x40), b = bg_vtx(x1, y0, w, h, r1, 0x20, 0x40);
    svtx_t e = bg_vtx(x0, y1, w, h, 0x40, 0x80, 0xC0), f = bg_vtx(x1, y1, w, h, (uint8_t)(r1 + 0x30), 0x80, 0xC0);
    v[0] = a; v[1] = b; v[2] = e;
    v[3] = b; v[4] = f; v[5] = e;
    return 6u;
}

/* r rendered with the fast paths on (1 thread: the submitting thread's counters) and off. */
static bool bg_same(const run_t *r, uint32_t w, uint32_t *quick_px, uint32_t *open_px)
{
    static uint8_t fast[BG_WMAX * BG_H * 4u], slow[BG_WMAX * BG_H * 4u];
    uint32_t bpp = r->fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    span_target_w = w;
    span_target_h = BG_H;
    uint32_t before = eg_soft_span_row_quick_px, before_open = eg_soft_span_row_open_px;
    bool ok = span_render(r, fast, bpp);
    *quick_px += eg_soft_span_row_quick_px - before;
    *open_px += eg_soft_span_row_open_px - before_open;
    eg_soft_raster_fast_paths = false;
    ok = ok && span_render(r, slow, bpp);
    eg_soft_raster_fast_paths = true;
    span_target_w = span_target_h = 0;
    return ok && memcmp(fast, slow, (size_t)w * BG_H * bpp) == 0;
}

EG_TEST(soft_span_bgfill, proved_rows_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const char *const fs[2] = { "span_copy.frag", "span_fused.frag" };
    uint32_t bad = 0, quick_1t = 0, quick_other = 0, open_1t = 0, open_other = 0;
    svtx_t v[12];
    for (uint32_t mode = 0; mode < 4u; mode++) {   /* unbinned, 64 px and 32 px tiles, 2 threads */
        eg_soft_set_threads(mode == 3u ? 2u : 1u);
        eg_soft_bin_set_tile_px(mode == 1u ? 64u : mode == 2u ? 32u : 0u);
        for (uint32_t wi = 0; wi < BG_NW; wi++)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t g = 0; g < 6u; g++) {
                    uint32_t w = bg_w[wi];
                    /* g 0-1: a background over the whole target (no ramp / ramp); 2-3: a first
                     * draw over part of it at fractional edges, then a second quad over it;
                     * 4-5: as 0-1 under a scissor */
                    uint32_t n = g < 2u || g > 3u ? bg_quad(v, 0.0f, 0.0f, (float)w, (float)BG_H, w, BG_H, g & 1u)
                                                  : bg_quad(v, 5.3f, -2.0f, (float)w - 3.7f, (float)BG_H - 4.5f, w, BG_H, g & 1u);
                    if (g == 2u || g == 3u) n += bg_quad(v + 6, 40.25f, 11.0f, (float)w + 9.0f, (float)BG_H + 1.0f, w, BG_H, false);
                    run_t r = { d, fs[g & 1u], span_fmts[f], NULL, 0, WGPUFilterMode_Nearest, g > 3u,
                                WGPUTextureFormat_Undefined, v, n, 0 };
                    if (!bg_same(&r, w, mode == 0u ? &quick_1t : &quick_other, mode == 0u ? &open_1t : &open_other) && bad++ < 4u)
                        eg_test_printf("    mode %u width %u format %u case %u differs\n", mode, w, f, g);
                }
    }
    eg_soft_bin_set_tile_px(0);
    eg_soft_set_threads(0);
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(quick_1t > 0u);   /* the one-bound proof stored rows (fused or chunk loop) */
    /* rows with one channel open (the green rows on a rounding boundary) took FZ_(open_row)
     * wherever the fused kernels run with native vectors (eg_soft_span_open_rows_on) */
    if (eg_soft_span_open_rows_on()) EG_EXPECT(open_1t > 0u);
    eg_test_printf("    open-row px: %u (1 thread), %u (tiles, 2 threads)\n", open_1t, open_other);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
