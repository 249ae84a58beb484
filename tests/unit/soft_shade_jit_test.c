/* The block walk's accepted runs and the JIT's fast block paths (soft_raster.c walk_blocks,
 * soft_raster_shade.c eg_soft_shade_run, soft_jit.c j_rows; helper "blk8", session 8) drawn
 * through the API: bytes recomputed here, and the same bytes as the per-block paths. */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#endif

#if EMGPU_HAL_SOFT
#define JT_PX 32u

typedef struct jvtx {
    float pos[4];
    float color[4];
} jvtx_t;

/* The quad over the whole target (two triangles, as the ALU bench draws), then three triangles
 * that cut blocks (partial masks: shade() and the whole function on partial lanes), one of them
 * in perspective (w = 2). */
static const jvtx_t jt_verts[15] = {
    { { -1, -1, 0, 1 }, { 0.1f, 0.2f, 0.3f, 0.9f } }, { { 1, -1, 0, 1 }, { 0.7f, 0.1f, 0.9f, 0.2f } },
    { { 1, 1, 0, 1 }, { 0.3f, 0.8f, 0.2f, 0.6f } },   { { -1, -1, 0, 1 }, { 0.1f, 0.2f, 0.3f, 0.9f } },
    { { 1, 1, 0, 1 }, { 0.3f, 0.8f, 0.2f, 0.6f } },   { { -1, 1, 0, 1 }, { 0.5f, 0.4f, 0.6f, 0.1f } },
    { { -0.83f, -0.71f, 0, 1 }, { 0.9f, 0.1f, 0.4f, 0.3f } }, { { 0.77f, -0.2f, 0, 1 }, { 0.2f, 0.6f, 0.1f, 0.8f } },
    { { -0.1f, 0.93f, 0, 1 }, { 0.4f, 0.3f, 0.7f, 0.5f } },   { { 0.05f, 0.05f, 0, 1 }, { 0.3f, 0.9f, 0.2f, 0.4f } },
    { { 0.61f, 0.17f, 0, 1 }, { 0.8f, 0.2f, 0.5f, 0.7f } },   { { 0.33f, 0.52f, 0, 1 }, { 0.1f, 0.5f, 0.9f, 0.6f } },
    { { -1.9f, -1.8f, 0, 2 }, { 0.6f, 0.7f, 0.3f, 0.2f } },   { { 1.7f, -0.4f, 0, 2 }, { 0.2f, 0.1f, 0.8f, 0.9f } },
    { { 0.2f, 1.96f, 0, 2 }, { 0.9f, 0.4f, 0.1f, 0.3f } },
};

/* Draws jt_verts with fragment shader fs into a JT_PX square target of format fmt cleared to
 * (0, 0, 0, 0); out gets the rows at a 256-byte pitch. */
static bool jt_draw(WGPUDevice d, const char *fs_name, WGPUTextureFormat fmt, uint8_t *out /* [256 * JT_PX] */)
{
    WGPUTexture ct = t_texture(d, fmt, JT_PX, JT_PX, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView cv = wgpuTextureCreateView(ct, NULL);
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, sizeof(jvtx_t), WGPUVertexFormat_Float32x4);
    WGPURenderPipeline p = t_color_pipeline(d, "draw_color.vert", fs_name, &vb, fmt, NULL);
    WGPUBuffer vbuf = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof jt_verts);
    wgpuQueueWriteBuffer(eg_test_queue(), vbuf, 0, jt_verts, sizeof jt_verts);
    WGPUBuffer rb = t_draw_copy(d, p, vbuf, sizeof jt_verts, cv, NULL, ct, JT_PX, JT_PX, 15);
    bool ok = p && t_readback(d, rb, 0, 256u * JT_PX, out);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(vbuf);
    if (p) wgpuRenderPipelineRelease(p);
    wgpuTextureViewRelease(cv);
    wgpuTextureRelease(ct);
    return ok;
}

/* The same draw three ways: every fast path (8 lanes: the walk's accepted runs and the JIT's
 * rows / per-block loop), 4-lane shading (no jit_fast: shade() per block), fast paths off (the
 * block walk without runs). Returns the number of the three that differ from the first. */
static uint32_t jt_three_ways(WGPUDevice d, const char *fs, WGPUTextureFormat fmt, uint8_t got[3][256 * JT_PX])
{
    uint32_t saved_vw = eg_soft_shade_vw, differ = 0;
    for (uint32_t m = 0; m < 3u; m++) {
        eg_soft_shade_vw = m == 1u ? 4u : saved_vw;
        eg_soft_raster_fast_paths = m != 2u;
        eg_memset(got[m], 0xee, 256u * JT_PX);
        if (!jt_draw(d, fs, fmt, got[m])) eg_test_fail(__FILE__, __LINE__, "draw failed");
    }
    eg_soft_shade_vw = saved_vw;
    eg_soft_raster_fast_paths = true;
    for (uint32_t m = 1; m < 3u; m++)
        for (uint32_t y = 0; y < JT_PX; y++)
            if (memcmp(got[0] + 256u * y, got[m] + 256u * y, 4u * JT_PX) != 0) { differ++; break; }
    return differ;
}

/* WebGPU's unorm8 conversion as soft_raster_output.c documents it: clamp (NaN -> 0), * 255,
 * + 0.5, truncate. */
static uint8_t jt_unorm8(float v)
{
    float c = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
    return (uint8_t)(int32_t)(c * 255.0f + 0.5f);
}
#endif

/* blk_alu.frag over the whole target (every pixel covered by the quad; the other triangles
 * write the same per-pixel value again) in RGBA8 and BGRA8: each pixel's bytes are the shader's
 * operations recomputed here in single precision (FragCoord = pixel centre, fract(v) =
 * v - floor(v), mix(a, b, t) = a (1 - t) + b t as the VM's FMIX, clamp), and the three ways of
 * jt_three_ways give the same bytes. Fails where a run, the JIT's pack or its row stepping
 * writes a wrong byte or the wrong row. */
EG_TEST(soft_shade, jit_rows_draw_exact)
{
#if EMGPU_HAL_SOFT
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("soft rasterizer paths (another backend is under test)");
    }
    static uint8_t got[3][256 * JT_PX];
    static const WGPUTextureFormat fmts[2] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm };
    uint32_t bad = 0;
    for (uint32_t fi = 0; fi < 2u; fi++) {
        EG_EXPECT_EQ_U(jt_three_ways(d, "blk_alu.frag", fmts[fi], got), 0u);
        for (uint32_t y = 0; y < JT_PX; y++)
            for (uint32_t x = 0; x < JT_PX; x++) {
                float px = ((float)x + 0.5f) * 0.37f, py = ((float)y + 0.5f) * 0.11f;
                /* (floor of a positive value below 2^31: the truncating conversion) */
                float qx = px - (float)(int32_t)px, qy = py - (float)(int32_t)py;
                float m = qx * (1.0f - 0.25f) + qy * 0.25f, g = py - 1.0f;
                g = g > 0.0f ? (g < 1.0f ? g : 1.0f) : 0.0f;
                uint8_t want[4] = { jt_unorm8(qx), jt_unorm8(g), jt_unorm8(m), 255 };
                if (fi == 1u) { uint8_t t = want[0]; want[0] = want[2]; want[2] = t; }
                const uint8_t *p = got[0] + 256u * y + 4u * x;
                if (memcmp(p, want, 4) != 0 && bad++ < 4u)
                    eg_test_printf("    fmt %u pixel (%u, %u): %02x%02x%02x%02x, want %02x%02x%02x%02x\n",
                                   (unsigned)fi, (unsigned)x, (unsigned)y, p[0], p[1], p[2], p[3], want[0], want[1],
                                   want[2], want[3]);
            }
    }
    EG_EXPECT_EQ_U(bad, 0u);
    eg_test_device_release();
#else
    EG_SKIP("soft backend not compiled in");
#endif
}

/* blk_alu_vary.frag (a perspective input: the JIT's per-block loop after interpolation, not
 * its rows) gives the same bytes three ways, and the drawn pixels are not the clear colour. */
EG_TEST(soft_shade, jit_inputs_draw_paths_equal)
{
#if EMGPU_HAL_SOFT
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("soft rasterizer paths (another backend is under test)");
    }
    static uint8_t got[3][256 * JT_PX];
    EG_EXPECT_EQ_U(jt_three_ways(d, "blk_alu_vary.frag", WGPUTextureFormat_RGBA8Unorm, got), 0u);
    uint32_t drawn = 0;
    for (uint32_t y = 0; y < JT_PX; y++)
        for (uint32_t x = 0; x < JT_PX; x++) drawn += got[0][256u * y + 4u * x + 3u] == 255u;   /* alpha 1.0 */
    EG_EXPECT_EQ_U(drawn, JT_PX * JT_PX);
    eg_test_device_release();
#else
    EG_SKIP("soft backend not compiled in");
#endif
}

#if EMGPU_HAL_SOFT
/* A hand-built depth-only state over a 32x32 target (soft_raster_test.c's ds fixture, larger:
 * rows of 8 blocks, where the walk solves its rows for runs). */
typedef struct wr_fixture {
    float depth[JT_PX * JT_PX];
    eg_soft_fb_t fb;
    struct eg_soft_raster_pipeline rs;
    eg_soft_pass_state_t ps;
    eg_soft_vtx_t v;
} wr_fixture_t;

static uint32_t wr_lcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static float wr_f(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(wr_lcg(s) & 0xFFFFu) / 65535.0f; }
#endif

/* The walk's per-row intervals (soft_raster.c walk_blocks: blocks no edge rejects, and the
 * wholly accepted ones shaded as runs of every lane) cover exactly the pixels whose centre the
 * edge functions accept (eg_soft_covers, pixel by pixel in 64 bits) inside the worker's clip
 * rectangle x [1, 31) y [2, 29) (not multiples of 4: blocks cut on every side, rows cut at the
 * top and bottom). 60 random triangles, a third of them thousands of pixels wide (|A| + |B|
 * >= 2^19), each alone over depth 1.0 at depth 0.5, Less, write. Fails with a run one block
 * too long or short, or the clipped columns taken as whole. */
EG_TEST(soft_raster, walk_runs_equal_covers)
{
#if EMGPU_HAL_SOFT
    static wr_fixture_t f;
    uint32_t seed = 9191u, drawn = 0, bad = 0;
    for (uint32_t n = 0; n < 60u; n++) {
        memset(&f, 0, sizeof f);
        for (uint32_t i = 0; i < JT_PX * JT_PX; i++) f.depth[i] = 1.0f;
        f.fb.width_px = f.fb.height_px = JT_PX;
        f.fb.samples = 1;
        f.fb.depth = (eg_soft_target_t){ (uint8_t *)f.depth, JT_PX * 4, 4, 4, WGPUTextureFormat_Depth32Float };
        f.rs.has_ds = f.rs.depth_test = f.rs.depth_write = f.rs.early_z = true;
        f.rs.ds_format = WGPUTextureFormat_Depth32Float;
        f.rs.depth_compare = WGPUCompareFunction_Less;
        f.rs.samples = 1;
        f.rs.sample_mask = 0xFu;
        f.rs.front_ccw = true;
        f.ps.fb = &f.fb;
        f.ps.rs = &f.rs;
        f.ps.vp_w = f.ps.vp_h = JT_PX;
        f.ps.vp_max_z = 1.0f;
        f.ps.sc_x1 = f.ps.sc_y1 = JT_PX;
        float span = n % 3u == 2u ? 4000.0f : 60.0f;
        eg_soft_tri_t t = { { wr_f(&seed, -span, span), wr_f(&seed, -4, 36), wr_f(&seed, -4, 36) },
                            { wr_f(&seed, -4, 36), wr_f(&seed, -span, span), wr_f(&seed, -4, 36) },
                            { 0.5f, 0.5f, 0.5f }, { 1, 1, 1 }, { &f.v, &f.v, &f.v }, &f.v, true };
        eg_soft_workers_reset();
        eg_soft_worker_t *w = &eg_soft_worker_main;
        w->clip_x0 = 1; w->clip_x1 = 31; w->clip_y0 = 2; w->clip_y1 = 29;
        eg_soft_raster_triangle(w, &f.ps, &t);
        int32_t X[3], Y[3];
        for (uint32_t i = 0; i < 3u; i++) { X[i] = eg_soft_snap(t.x[i]); Y[i] = eg_soft_snap(t.y[i]); }
        for (int32_t y = 0; y < (int32_t)JT_PX; y++)
            for (int32_t x = 0; x < (int32_t)JT_PX; x++) {
                bool in = x >= 1 && x < 31 && y >= 2 && y < 29 && eg_soft_covers(X, Y, x, y);
                drawn += in;
                if (f.depth[y * (int32_t)JT_PX + x] != (in ? 0.5f : 1.0f) && bad++ < 4u)
                    eg_test_printf("    triangle %u pixel (%d, %d): covered %d\n", (unsigned)n, (int)x, (int)y,
                                   (int)in);
            }
    }
    eg_soft_workers_reset();   /* the whole-frame clip again */
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(drawn > 5000u);   /* the triangles did cover pixels, many in whole blocks */
#else
    EG_SKIP("soft backend not compiled in");
#endif
}
