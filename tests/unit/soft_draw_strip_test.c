/* Non-indexed triangle strips (helper "setup10"): soft_draw.c draw_strip_fresh takes a strip that
 * fits in a vertex batch without the post-transform cache; an indexed draw of the same vertex
 * ids goes through the sliding window and add_prim. Both must give the same bytes, over many
 * instances (more vertices than any board's batch: 64 or 256), strips of 3, 4, 5 and 6
 * vertices (odd primitives' {i, i + 2, i + 1} order, kept by back-face culling) and a first
 * vertex / first instance other than 0. */
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"
#include <emgpu/emgpu.h>
#include <string.h>

#define SW 256u                /* target width: instance i covers columns from 2 i */
#define SH 8u
#define NINST 100u             /* 100 x 4..6 vertices: 400..600, beyond one batch */
#define FIRST_V 2u
#define FIRST_I 3u

/* draw_inst.vert (float32x2 corner per vertex, float32 x offset per instance; flat color r =
 * vertex_index / 8, g = instance_index / 4) + draw_flat.frag, a triangle strip, back faces
 * culled (a strip's odd triangle given in the even order would face back and vanish). */
static WGPURenderPipeline strip_pipeline(WGPUDevice d)
{
    WGPUVertexAttribute va = WGPU_VERTEX_ATTRIBUTE_INIT, ia = WGPU_VERTEX_ATTRIBUTE_INIT;
    WGPUVertexBufferLayout vb[2] = { WGPU_VERTEX_BUFFER_LAYOUT_INIT, WGPU_VERTEX_BUFFER_LAYOUT_INIT };
    va.format = WGPUVertexFormat_Float32x2;
    vb[0].arrayStride = 8; vb[0].attributeCount = 1; vb[0].attributes = &va;
    ia.format = WGPUVertexFormat_Float32; ia.shaderLocation = 1;
    vb[1].arrayStride = 4; vb[1].stepMode = WGPUVertexStepMode_Instance;
    vb[1].attributeCount = 1; vb[1].attributes = &ia;
    WGPUPrimitiveState prim = WGPU_PRIMITIVE_STATE_INIT;
    prim.topology = WGPUPrimitiveTopology_TriangleStrip;
    prim.stripIndexFormat = WGPUIndexFormat_Uint16;
    prim.cullMode = WGPUCullMode_Back;
    return t_render_pipeline_ex(d, "draw_inst.vert", "draw_flat.frag", vb, 2, WGPUTextureFormat_RGBA8Unorm, NULL,
                                NULL, &prim);
}

/* Draws NINST instances of an n-vertex strip (vertex ids FIRST_V .., instances FIRST_I ..),
 * indexed (ids from an index buffer) or not, into a cleared SW x SH RGBA8 target; out: its rows. */
static void draw_strips(WGPUDevice d, uint32_t n, bool indexed, uint8_t *out)
{
    /* vertex FIRST_V + j: x = j / 2 px (window), top for even j, bottom for odd: counter-clockwise
     * in NDC for every triangle of the strip in its {i, i + 1 + i % 2, i + 2 - i % 2} order */
    float pos[2u * (FIRST_V + 8u)];
    for (uint32_t j = 0; j < FIRST_V + 8u; j++) {
        uint32_t k = j < FIRST_V ? 0u : j - FIRST_V;
        pos[2u * j] = -1.0f + (float)(k / 2u) * (2.0f / (float)SW);
        pos[2u * j + 1u] = (k & 1u) ? -1.0f : 1.0f;
    }
    float offs[FIRST_I + NINST];
    for (uint32_t i = 0; i < FIRST_I + NINST; i++)
        offs[i] = (float)(i < FIRST_I ? 0u : 2u * (i - FIRST_I)) * (2.0f / (float)SW);
    uint16_t idx[8];
    for (uint32_t j = 0; j < 8u; j++) idx[j] = (uint16_t)(FIRST_V + j);
    WGPURenderPipeline p = strip_pipeline(d);
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof pos);
    WGPUBuffer ob = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof offs);
    WGPUBuffer ib = t_buffer(d, WGPUBufferUsage_Index | WGPUBufferUsage_CopyDst, sizeof idx);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, pos, sizeof pos);
    wgpuQueueWriteBuffer(eg_test_queue(), ob, 0, offs, sizeof offs);
    wgpuQueueWriteBuffer(eg_test_queue(), ib, 0, idx, sizeof idx);
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, SW, SH, 1, 1, 1,
                                WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = view;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1;
    rpd.colorAttachments = &c;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof pos);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 1, ob, 0, sizeof offs);
    if (indexed) {
        wgpuRenderPassEncoderSetIndexBuffer(rp, ib, WGPUIndexFormat_Uint16, 0, sizeof idx);
        wgpuRenderPassEncoderDrawIndexed(rp, n, NINST, 0, 0, FIRST_I);
    } else {
        wgpuRenderPassEncoderDraw(rp, n, NINST, FIRST_V, FIRST_I);
    }
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 4u * SW * SH);
    WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 4u * SW, SH);
    WGPUExtent3D sz = t_extent(SW, SH, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    EG_EXPECT(t_readback(d, rb, 0, 4u * SW * SH, out));
    wgpuBufferRelease(rb);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuBufferRelease(ib);
    wgpuBufferRelease(ob);
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
}

EG_TEST(soft_draw_strip, instanced_strips_equal_indexed)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static uint8_t fast[4u * SW * SH], general[4u * SW * SH];
    uint32_t bad = 0, empty = 0;
    for (uint32_t n = 3; n <= 6u; n++) {
        draw_strips(d, n, false, fast);
        draw_strips(d, n, true, general);
        uint32_t diff = 0, drawn = 0;
        for (uint32_t i = 0; i < 4u * SW * SH; i += 4u) {
            diff += eg_memcmp(fast + i, general + i, 4) != 0;
            drawn += general[i + 3u] != 0;
        }
        /* every instance draws: n - 2 triangles of a strip 2 px apart, each covering pixels */
        if (diff) eg_test_printf("    strip of %u: %u pixels differ from the indexed draw\n", n, diff);
        bad += diff;
        empty += drawn < NINST;
    }
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(bad == 0);
    EG_EXPECT(empty == 0);
    eg_test_device_release();
}
