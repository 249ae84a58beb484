/* Per-draw state kept across triangles (helper "set9"): each draw and pass uses its own depth target and compare. */
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"
#include <emgpu/emgpu.h>

#define MEMO_PX 16u

typedef struct memo_vert { float x, y, z, w; uint8_t rgba[4]; } memo_vert_t;

/* draw_color.vert/.frag on RGBA8 with a Depth32Float test of `compare`, depth writes on */
static WGPURenderPipeline memo_pipeline(WGPUDevice d, WGPUCompareFunction compare)
{
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, sizeof(memo_vert_t), WGPUVertexFormat_Unorm8x4);
    return t_color_depth_pipeline(d, "draw_color.vert", "draw_color.frag", &vb, WGPUTextureFormat_RGBA8Unorm, NULL,
                                  compare, true);
}

/* Pixels of the read-back depth rows (at 256 * MEMO_PX in rb's copy) equal to z, and colour rows
 * equal to rgba. */
static uint32_t memo_count(const uint8_t *rows, float z, const uint8_t rgba[4])
{
    uint32_t n = 0;
    for (uint32_t y = 0; y < MEMO_PX; y++)
        for (uint32_t x = 0; x < MEMO_PX; x++) {
            float v;
            eg_memcpy(&v, rows + 256u * MEMO_PX + y * 256u + x * 4u, 4);
            n += v == z && eg_memcmp(rows + y * 256u + x * 4u, rgba, 4) == 0;
        }
    return n;
}

/* One pipeline, two passes with two depth targets (each cleared to 1.0), a full-target triangle
 * at depth 0.5 in each: both targets must hold 0.5 everywhere (z_ndc 0.5 with the default
 * viewport depth range [0, 1] is 0.5, WebGPU "viewport transform"). Fails where the second pass
 * keeps the first pass's depth target (a per-draw cache not re-keyed per draw: the pass state's
 * address and the pipeline are the same in both passes). */
EG_TEST(soft_shade_memo, second_pass_own_depth_target)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static const memo_vert_t v[3] = { { -1.0f, -1.0f, 0.5f, 1.0f, { 10, 20, 30, 255 } },
                                      { 3.0f, -1.0f, 0.5f, 1.0f, { 10, 20, 30, 255 } },
                                      { -1.0f, 3.0f, 0.5f, 1.0f, { 10, 20, 30, 255 } } };
    static const uint8_t rgba[4] = { 10, 20, 30, 255 };
    WGPURenderPipeline p = memo_pipeline(d, WGPUCompareFunction_Less);
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, sizeof v);
    WGPUTexture ct = t_texture(d, WGPUTextureFormat_RGBA8Unorm, MEMO_PX, MEMO_PX, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTexture dt[2];
    WGPUTextureView dv[2], cv = wgpuTextureCreateView(ct, NULL);
    for (uint32_t i = 0; i < 2u; i++) {
        dt[i] = t_texture(d, WGPUTextureFormat_Depth32Float, MEMO_PX, MEMO_PX, 1, 1, 1,
                          WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
        dv[i] = wgpuTextureCreateView(dt[i], NULL);
    }
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 2u * 256u * MEMO_PX);
    static uint8_t rows[2][2u * 256u * MEMO_PX];
    bool ok = p != NULL;
    for (uint32_t i = 0; ok && i < 2u; i++) {
        t_draw_color_depth_copy(d, p, NULL, vb, 3u, cv, dv[i], ct, dt[i], MEMO_PX, rb);
        ok = t_readback(d, rb, 0, sizeof rows[i], rows[i]);
    }
    EG_EXPECT(ok);
    EG_EXPECT_EQ_U(memo_count(rows[0], 0.5f, rgba), MEMO_PX * MEMO_PX);
    EG_EXPECT_EQ_U(memo_count(rows[1], 0.5f, rgba), MEMO_PX * MEMO_PX);
    wgpuBufferRelease(rb);
    for (uint32_t i = 0; i < 2u; i++) {
        wgpuTextureViewRelease(dv[i]);
        wgpuTextureRelease(dt[i]);
    }
    wgpuTextureViewRelease(cv);
    wgpuTextureRelease(ct);
    wgpuBufferRelease(vb);
    if (p) wgpuRenderPipelineRelease(p);
    eg_test_device_release();
}
