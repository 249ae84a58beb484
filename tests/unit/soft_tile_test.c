/* hal/soft tiles (tile9): the job width of square tiles and the clears done per tile.
 *
 * A pass's clears at pass begin are filled by each tile's worker just before its triangles
 * (eg_soft_bin_defer_fill). What must hold: every tile gets the clear, also one no triangle
 * touches; exactly once per pass, in the first flush, so later flushes (arena overflows) do not
 * wipe pixels drawn before them; colour and depth alike; and the bytes are those of a clear at
 * pass begin. Expected pixels are the clear values' unorm8 encoding and the draw's constant
 * colour and depth (WebGPU: depth = z / w for the default viewport).
 */
#include "tests/harness/test_device.h"

#include "kernel/base/util.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"

#define PX 32u
#define CLEARS (EMGPU_SOFT_TILE_CLEARS ? 1u : 0u)   /* the deferral is configured on */

typedef struct tvtx {
    float pos[4], color[4];
} tvtx_t;

/* The job width for 64 px squares, computed by hand: 800x480 has 13 columns of squares and 8
 * tile rows (the last 32 px tall); each worker should get 4 jobs. */
EG_TEST(soft_tile, job_width_runs_of_squares)
{
    /* 2 threads: 8 jobs wanted, 8 tile rows: one run per row, the whole (4-aligned) width */
    EG_EXPECT_EQ_U(eg_soft_bin_job_width_px(64, 64, 800, 480, 2), 800);
    /* 4 threads: 16 jobs, 2 runs per row: ceil(13 / 2) = 7 squares = 448 px */
    EG_EXPECT_EQ_U(eg_soft_bin_job_width_px(64, 64, 800, 480, 4), 448);
    /* 8 threads: 32 jobs, 4 runs per row: ceil(13 / 4) = 4 squares = 256 px */
    EG_EXPECT_EQ_U(eg_soft_bin_job_width_px(64, 64, 800, 480, 8), 256);
    /* 16 threads on 256x64: 64 jobs wanted from 4 squares: every square is a job */
    EG_EXPECT_EQ_U(eg_soft_bin_job_width_px(64, 64, 256, 64, 16), 64);
    /* 0: tile rows of the whole width, rounded up to 4 */
    EG_EXPECT_EQ_U(eg_soft_bin_job_width_px(64, 0, 801, 480, 8), 804);
    /* 1 thread, 1920x1080 (17 tile rows >= 4 jobs): whole rows */
    EG_EXPECT_EQ_U(eg_soft_bin_job_width_px(64, 64, 1920, 1080, 1), 1920);
}

typedef struct tile_res {
    WGPUTexture ct, dt;
    WGPUTextureView cv, dv;
    WGPURenderPipeline p;
    WGPUBuffer vb, rb;
} tile_res_t;

static bool res_init(WGPUDevice d, tile_res_t *r)
{
    r->ct = t_texture(d, WGPUTextureFormat_RGBA8Unorm, PX, PX, 1, 1, 1,
                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    r->dt = t_texture(d, WGPUTextureFormat_Depth32Float, PX, PX, 1, 1, 1,
                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    if (!r->ct || !r->dt) return false;
    r->cv = wgpuTextureCreateView(r->ct, NULL);
    r->dv = wgpuTextureCreateView(r->dt, NULL);
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vbl;
    t_pos_attr_layout(va, &vbl, sizeof(tvtx_t), WGPUVertexFormat_Float32x4);
    r->p = t_color_depth_pipeline(d, "draw_color.vert", "draw_color.frag", &vbl, WGPUTextureFormat_RGBA8Unorm, NULL,
                                  WGPUCompareFunction_Less, true);
    r->rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 2u * 256u * PX);
    return r->p && r->rb;
}

static void res_release(tile_res_t *r)
{
    if (r->vb) wgpuBufferRelease(r->vb);
    if (r->rb) wgpuBufferRelease(r->rb);
    if (r->p) wgpuRenderPipelineRelease(r->p);
    if (r->cv) wgpuTextureViewRelease(r->cv);
    if (r->dv) wgpuTextureViewRelease(r->dv);
    if (r->ct) wgpuTextureRelease(r->ct);
    if (r->dt) wgpuTextureRelease(r->dt);
}

/* Quad [x0, x1] x [y0, y1] (NDC, y up) at depth z as two triangles of one colour. */
static void quad(tvtx_t *v, float x0, float y0, float x1, float y1, float z, const float c[4])
{
    const float p[6][2] = { { x0, y0 }, { x1, y0 }, { x0, y1 }, { x0, y1 }, { x1, y0 }, { x1, y1 } };
    for (uint32_t i = 0; i < 6; i++) {
        tvtx_t t = { { p[i][0], p[i][1], z, 1.0f }, { c[0], c[1], c[2], c[3] } };
        v[i] = t;
    }
}

/* One pass clearing colour to `clear` and depth to zc, drawing n vertices of r->vb; colour
 * rows then depth rows (from 256 * PX) copied into r->rb at a 256-byte pitch and read into out. */
static bool pass(WGPUDevice d, tile_res_t *r, const WGPUColor *clear, float zc, uint32_t n, uint8_t *out)
{
    t_draw_color_depth_copy_ex(d, r->p, NULL, r->vb, n, r->cv, r->dv, r->ct, r->dt, PX, r->rb, clear, zc, NULL);
    return t_readback(d, r->rb, 0, 2u * 256u * PX, out);
}

static uint8_t g_out[2u * 256u * PX];

/* Pixels that differ from: inside [0, 8) x [0, 8) colour `in` and depth zin, elsewhere `bg`
 * and zbg. */
static uint32_t mismatches(const uint8_t in[4], float zin, const uint8_t bg[4], float zbg)
{
    uint32_t bad = 0;
    for (uint32_t y = 0; y < PX; y++)
        for (uint32_t x = 0; x < PX; x++) {
            bool a = x < 8u && y < 8u;
            const uint8_t *want = a ? in : bg;
            const uint8_t *got = g_out + y * 256u + x * 4u;
            float z;
            eg_memcpy(&z, g_out + 256u * PX + y * 256u + x * 4u, 4);
            if (eg_memcmp(got, want, 4) != 0 || z != (a ? zin : zbg)) bad++;
        }
    return bad;
}

/* red at z 0.25 over the top-left 8x8 px (NDC [-1, -0.5] x [0.5, 1] of 32 px), then `extra`
 * quads of green at z 0.75 over the left half (behind the cleared depth 0.5: never drawn). */
static uint32_t fill_scene(WGPUDevice d, tile_res_t *r, uint32_t extra)
{
    static tvtx_t v[6u * 41u];
    static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 };
    quad(v, -1.0f, 0.5f, -0.5f, 1.0f, 0.25f, red);
    for (uint32_t k = 0; k < extra && k < 40u; k++) quad(v + 6u * (k + 1u), -1.0f, -1.0f, 0.0f, 1.0f, 0.75f, green);
    uint32_t n = 6u * (1u + (extra < 40u ? extra : 40u));
    r->vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), r->vb, 0, v, sizeof v);
    return n;
}

/* clear (0.2, 0.4, 0.6, 1) -> unorm8 round(255 x) = 51, 102, 153, 255 (WebGPU unorm encoding) */
static const WGPUColor k_clear = { 0.2, 0.4, 0.6, 1.0 };
static const uint8_t k_bg[4] = { 51, 102, 153, 255 }, k_red[4] = { 255, 0, 0, 255 };

/* 8 px tiles on 32x32 (16 tiles), 1 and 2 workers: both clears are deferred, all 16 tiles fill
 * (the right half has no triangle: planted bug "fill only tiles with triangles" leaves zeros
 * there), once per pass, and a second pass with a different depth clear sees its own clear
 * (planted bug "depth fill dropped": the first pass's depth, 0.75 / 1.0, reads back). */
EG_TEST(soft_tile, clears_per_tile)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("tests hal/soft tiles");
    }
    for (uint32_t threads = 1; threads <= 2u; threads++) {
        tile_res_t r = { 0 };
        EG_ASSERT(res_init(d, &r));
        eg_soft_bin_set_tile_px(8);
        eg_soft_set_threads(threads);
        uint32_t n = fill_scene(d, &r, 1);
        eg_soft_bin_stats_t a, b, c;
        eg_soft_bin_stats(&a);
        static const WGPUColor black = { 0, 0, 0, 1 };
        EG_EXPECT(pass(d, &r, &black, 1.0f, n, g_out));   /* depth 0.75 left, 1.0 right */
        EG_EXPECT(pass(d, &r, &k_clear, 0.5f, n, g_out));
        eg_soft_bin_stats(&b);
        EG_EXPECT_EQ_U(mismatches(k_red, 0.25f, k_bg, 0.5f), 0);
        EG_EXPECT_EQ_U(b.fills_deferred - a.fills_deferred, 4u * CLEARS);   /* colour + depth, 2 passes */
        EG_EXPECT_EQ_U(b.fill_tiles - a.fill_tiles, 32u * CLEARS);          /* 16 tiles, 2 passes */
        /* a pass with no draw: the clears still land (flush that only fills) */
        EG_EXPECT(pass(d, &r, &k_clear, 0.5f, 0, g_out));
        eg_soft_bin_stats(&c);
        EG_EXPECT_EQ_U(mismatches(k_bg, 0.5f, k_bg, 0.5f), 0);
        EG_EXPECT_EQ_U(c.fill_tiles - b.fill_tiles, 16u * CLEARS);
        eg_soft_bin_set_tile_px(0);
        eg_soft_set_threads(0);
        res_release(&r);
    }
    eg_test_device_release();
}

/* Arena overflows: the red quad is binned first, then 40 quads overflow the arena many times
 * (with 2 workers: halves handed to the other worker). The clears happen in the first flush
 * only (planted bug "fill on every flush" wipes the red quad drawn by the first flush), each
 * tile once per pass. */
EG_TEST(soft_tile, clears_once_over_flushes)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("tests hal/soft tiles");
    }
    static const uint32_t threads[2] = { 1, 2 };
    static const size_t limit_B[2] = { 2048, 9216 };
    for (uint32_t k = 0; k < 2u; k++) {
        tile_res_t r = { 0 };
        EG_ASSERT(res_init(d, &r));
        eg_soft_bin_set_tile_px(8);
        eg_soft_set_threads(threads[k]);
        eg_soft_bin_set_arena_limit(limit_B[k]);
        uint32_t n = fill_scene(d, &r, 40);
        eg_soft_bin_stats_t a, b;
        eg_soft_bin_stats(&a);
        EG_EXPECT(pass(d, &r, &k_clear, 0.5f, n, g_out));
        eg_soft_bin_stats(&b);
        EG_EXPECT_EQ_U(mismatches(k_red, 0.25f, k_bg, 0.5f), 0);
        EG_EXPECT(b.overflows > a.overflows);   /* a flush after the red quad's (MCUs: fewer) */
        EG_EXPECT_EQ_U(b.fill_tiles - a.fill_tiles, 16u * CLEARS);
        eg_soft_bin_set_arena_limit(0);
        eg_soft_bin_set_tile_px(0);
        eg_soft_set_threads(0);
        res_release(&r);
    }
    eg_test_device_release();
}

/* One worker and no test hook: the pass is not binned, so the clear is filled at pass begin
 * (nothing deferred) and the bytes are the same. */
EG_TEST(soft_tile, unbinned_clears_at_begin)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("tests hal/soft tiles");
    }
    tile_res_t r = { 0 };
    EG_ASSERT(res_init(d, &r));
    eg_soft_set_threads(1);
    uint32_t n = fill_scene(d, &r, 1);
    eg_soft_bin_stats_t a, b;
    eg_soft_bin_stats(&a);
    EG_EXPECT(pass(d, &r, &k_clear, 0.5f, n, g_out));
    eg_soft_bin_stats(&b);
    EG_EXPECT_EQ_U(mismatches(k_red, 0.25f, k_bg, 0.5f), 0);
    EG_EXPECT_EQ_U(b.fills_deferred, a.fills_deferred);
    eg_soft_set_threads(0);
    res_release(&r);
    eg_test_device_release();
}

/* Dead clears (soft_bin.c): one worker, no binning, so the clears wait for the first triangle,
 * and a first pair that writes every pixel of the colour target drops its clear. Each case is
 * drawn twice, unbinned and binned (the tile test hook: clears filled per tile, no dead clears),
 * and the bytes must agree; the counters say whether the clear died. Colour dies only when the
 * pair covers every pixel centre with a plain write; the depth clear of the same pass is never
 * dropped (a clear-only pass before leaves depth 1.0 and colour red, so a lost fill shows; its
 * clears wait for a triangle that never comes and are filled at its end).
 * Planted bugs caught: "dead without the diagonal check" (case 4 keeps red pixels), "drop every
 * fill" (depth 1.0 read back), "ignore the scissor" (case 3's last row red). */
typedef struct dead_case {
    const char *name;
    float x1;                  /* NDC right edge of the quad (1: the target's edge) */
    bool blend, depth_less, adjacent;
    uint32_t sc_h;             /* scissor height (PX: the whole target) */
    bool dead;                 /* the colour clear is expected to die */
} dead_case_t;

static void dead_quad(tvtx_t *v, const dead_case_t *c, const float col[4])
{
    quad(v, -1.0f, -1.0f, c->x1, 1.0f, 0.25f, col);
    if (c->adjacent) {   /* second triangle: (x0, y0) (x1, y0) (x1, y1): misses a corner next to the first's */
        const float p[3][2] = { { -1.0f, -1.0f }, { c->x1, -1.0f }, { c->x1, 1.0f } };
        for (uint32_t i = 0; i < 3u; i++) {
            v[3u + i].pos[0] = p[i][0];
            v[3u + i].pos[1] = p[i][1];
        }
    }
}

EG_TEST(soft_tile, dead_clear_under_cover)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("tests hal/soft passes");
    }
    static const dead_case_t cases[] = {
        { "whole target", 1.0f, false, false, false, PX, true },
        { "0.6 px short", 1.0f - 2.0f * 0.6f / (float)PX, false, false, false, PX, false },
        { "scissor 1 row short", 1.0f, false, false, false, PX - 1u, false },
        { "halves not along a diagonal", 1.0f, false, false, true, PX, false },
        { "blended", 1.0f, true, false, false, PX, false },
        { "depth tested", 1.0f, false, true, false, PX, false },
    };
    static const float green[4] = { 0, 1, 0, 0.5f };
    static const WGPUColor red_clear = { 1, 0, 0, 1 };
    static uint8_t want[2u * 256u * PX];
    tile_res_t r = { 0 };
    EG_ASSERT(res_init(d, &r));
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vbl;
    t_pos_attr_layout(va, &vbl, sizeof(tvtx_t), WGPUVertexFormat_Float32x4);
    WGPUBlendState alpha = { { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
                             { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_Zero } };
    static tvtx_t v[6];
    r.vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    eg_soft_set_threads(1);
    for (uint32_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const dead_case_t *c = &cases[k];
        dead_quad(v, c, green);
        wgpuQueueWriteBuffer(eg_test_queue(), r.vb, 0, v, sizeof v);
        /* the case's pipeline (MCU boards hold 4 shader modules: one of its own at a time, next to r.p) */
        WGPURenderPipeline p = c->depth_less ? r.p
                             : t_color_depth_pipeline(d, "draw_color.vert", "draw_color.frag", &vbl,
                                                      WGPUTextureFormat_RGBA8Unorm, c->blend ? &alpha : NULL,
                                                      WGPUCompareFunction_Always, false);
        EG_EXPECT(p != NULL);
        if (!p) break;
        const uint32_t sc[4] = { 0, 0, PX, c->sc_h };
        for (uint32_t binned = 0; binned < 2u; binned++) {
            /* the pass before (no draw): red everywhere, depth 1.0 */
            t_draw_color_depth_copy_ex(d, p, NULL, r.vb, 0, r.cv, r.dv, r.ct, r.dt, PX, r.rb, &red_clear, 1.0f, NULL);
            eg_soft_bin_set_tile_px(binned ? 8u : 0u);
            eg_soft_bin_stats_t a, b;
            eg_soft_bin_stats(&a);
            t_draw_color_depth_copy_ex(d, p, NULL, r.vb, 6, r.cv, r.dv, r.ct, r.dt, PX, r.rb, &k_clear, 0.5f, sc);
            EG_EXPECT(t_readback(d, r.rb, 0, sizeof g_out, g_out));
            eg_soft_bin_stats(&b);
            eg_soft_bin_set_tile_px(0);
            if (!binned) {
                eg_memcpy(want, g_out, sizeof want);
                if (b.fills_dead - a.fills_dead != (c->dead ? 1u : 0u) || b.fills_waited - a.fills_waited != 2u)
                    { eg_test_printf("    %s: %u clears dead of %u waited, expected %u of 2\n", c->name, b.fills_dead - a.fills_dead,
                             b.fills_waited - a.fills_waited, c->dead ? 1u : 0u); eg_test_fail(__FILE__, __LINE__, "dead clear case"); }
                continue;
            }
            EG_EXPECT_EQ_U(b.fills_dead, a.fills_dead);
            uint32_t bad = 0, cleared = 0;
            for (uint32_t y = 0; y < PX; y++)
                for (uint32_t x = 0; x < PX; x++) {
                    const uint8_t *g = g_out + y * 256u + x * 4u;
                    bad += eg_memcmp(g, want + y * 256u + x * 4u, 4) != 0;
                    bad += eg_memcmp(g + 256u * PX, want + 256u * PX + y * 256u + x * 4u, 4) != 0;
                    cleared += eg_memcmp(g, k_bg, 4) == 0;
                }
            if (bad) { eg_test_printf("    %s: %u values differ from the binned pass\n", c->name, bad); eg_test_fail(__FILE__, __LINE__, "dead clear case"); }
            /* nothing of the pass before survives: depth is the clear's, colour the clear's or the quad's */
            uint32_t stale = 0;
            for (uint32_t y = 0; y < PX; y++)
                for (uint32_t x = 0; x < PX; x++) {
                    float z;
                    eg_memcpy(&z, g_out + 256u * PX + y * 256u + x * 4u, 4);
                    stale += (z != 0.5f && !(c->depth_less && z == 0.25f)) ||
                             eg_memcmp(g_out + y * 256u + x * 4u, k_red, 4) == 0;
                }
            if (stale) { eg_test_printf("    %s: %u pixels keep the pass before\n", c->name, stale); eg_test_fail(__FILE__, __LINE__, "dead clear case"); }
            /* the short quad leaves its last column cleared, the scissor its last row */
            uint32_t want_cleared = c->x1 < 1.0f ? PX : c->sc_h < PX ? PX : 0u;
            if (!c->adjacent && !c->blend && !c->depth_less && cleared != want_cleared)
                { eg_test_printf("    %s: %u pixels cleared, expected %u\n", c->name, cleared, want_cleared); eg_test_fail(__FILE__, __LINE__, "dead clear case"); }
            if (c->adjacent && cleared == 0) { eg_test_printf("    %s: no pixel shows the clear\n", c->name); eg_test_fail(__FILE__, __LINE__, "dead clear case"); }
        }
        if (p != r.p) wgpuRenderPipelineRelease(p);
    }
    eg_soft_set_threads(0);
    res_release(&r);
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
