/* Vertex batches of the soft draw path (helper "mtri8"): draws with more primitives than one
 * batch holds (EMGPU_SOFT_PRIM_BATCH, 64..512 by board) and few shared vertices, so batches
 * end on the primitive count, not the vertex store; every primitive must be drawn once. */
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"
#include <emgpu/emgpu.h>
#include <string.h>

#define W 8u
#define NTRI 600u   /* more than any board's primitive batch (at most 512), fewer than 4 * 255 */

/* draw_color.vert/.frag, additive blending (one, one) on an RGBA8 target. */
static WGPURenderPipeline add_pipeline(WGPUDevice d)
{
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, 20, WGPUVertexFormat_Unorm8x4);
    static const WGPUBlendState bl = { { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_One },
                                       { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_One } };
    return t_color_pipeline(d, "draw_color.vert", "draw_color.frag", &vb, WGPUTextureFormat_RGBA8Unorm, &bl);
}

typedef struct cvert { float x, y, z, w; uint8_t rgba[4]; } cvert_t;

/* Four full-screen triangles (12 vertices), triangle k adding 1/255 to channel k only; the
 * index list draws NTRI triangles, triangle i being k = i % 4 (ids 3k..3k+2). Unorm8 blending
 * of k/255 + 1/255 rounds to exactly (k + 1)/255 (WebGPU: the sum is stored as the nearest
 * unorm value), so every pixel ends at NTRI / 4 = 150 in every channel: a primitive dropped or
 * drawn twice at a batch boundary changes one channel by one. */
static void draw_many(WGPUDevice d, WGPUIndexFormat fmt, uint8_t out[W * W * 4])
{
    static cvert_t v[12];
    for (uint32_t k = 0; k < 4u; k++) {
        const cvert_t a = { -1, -1, 0, 1, { 0, 0, 0, 0 } }, b = { 3, -1, 0, 1, { 0, 0, 0, 0 } },
                      c = { -1, 3, 0, 1, { 0, 0, 0, 0 } };
        v[3 * k] = a; v[3 * k + 1] = b; v[3 * k + 2] = c;
        for (uint32_t i = 0; i < 3u; i++) v[3 * k + i].rgba[k] = 1;
    }
    static uint8_t idx[NTRI * 3u * 4u];
    uint32_t isz = fmt == WGPUIndexFormat_Uint16 ? 2u : 4u;
    for (uint32_t i = 0; i < NTRI * 3u; i++) {
        uint32_t id = 3u * ((i / 3u) % 4u) + i % 3u;
        for (uint32_t b = 0; b < isz; b++) idx[i * isz + b] = (uint8_t)(id >> (8u * b));
    }
    WGPURenderPipeline p = add_pipeline(d);
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    WGPUBuffer ib = t_buffer(d, WGPUBufferUsage_Index | WGPUBufferUsage_CopyDst, NTRI * 3u * isz);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), ib, 0, idx, NTRI * 3u * isz);
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, W, W, 1, 1, 1,
                                WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUBuffer rb = t_draw_indexed_copy(d, p, vb, sizeof v, ib, fmt, NTRI * 3u * isz, view, NULL, tex, W, W, NTRI * 3u);
    static uint8_t rows[256u * W];
    EG_EXPECT(t_readback(d, rb, 0, sizeof rows, rows));
    for (uint32_t y = 0; y < W; y++) eg_memcpy(out + y * W * 4u, rows + y * 256u, W * 4u);
    wgpuBufferRelease(rb);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuBufferRelease(ib);
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
}

static void check_150(const uint8_t *img)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < W * W * 4u; i++) bad += img[i] != NTRI / 4u;
    if (bad) eg_test_printf("    %u channel values differ from %u (pixel 0: %u %u %u %u)\n", bad, NTRI / 4u,
                            img[0], img[1], img[2], img[3]);
    EG_EXPECT(bad == 0);
}

/* 16-bit indices: the triangle-list fast path (draw_tris_u16). */
EG_TEST(soft_draw_batch, prims_beyond_batch_u16)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static uint8_t img[W * W * 4];
    draw_many(d, WGPUIndexFormat_Uint16, img);
    EG_EXPECT_NO_ERROR();
    check_150(img);
    eg_test_device_release();
}

/* 32-bit indices: the general assembly loop (vertex_id). */
EG_TEST(soft_draw_batch, prims_beyond_batch_u32)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static uint8_t img[W * W * 4];
    draw_many(d, WGPUIndexFormat_Uint32, img);
    EG_EXPECT_NO_ERROR();
    check_150(img);
    eg_test_device_release();
}
