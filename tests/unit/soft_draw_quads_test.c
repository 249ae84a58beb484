/* Instanced quads (helper "vtx13"): with the fast paths on, soft_draw.c draws a draw of 4-vertex
 * strips through draw_quads_fresh, fetches instance-step attributes once per 4-lane run
 * (soft_draw_fetch.c eg_soft_fetch_quads), copies vertex-step lanes that repeat every 4 lanes or
 * whose ids the previous lane group had, and hands a quad's two triangles over through quad_tris;
 * with them off every instance goes through draw_instance and every lane through the lane loop.
 * Both must give the same bytes: the hot formats (Float32x2/x4/x1, Unorm8x4) and converter ones
 * (Unorm8x2, Float32x3, Unorm10-10-10-2, Float16x2, Snorm16), instance counts that end a batch's
 * last lane group at each of 4, 8, 12 and 16 lanes and span several batches (64 or 256
 * vertices), quads past the guard band (clipped) and off the target, blended in order (a wrong
 * instance's value shows), RGBA8 and RGB565 targets, 1 and 2 threads. */
#include "tests/unit/soft_span_util.h"
#include "tests/shaders/spv_embed.h"

#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"

#define QPX 32u                 /* target side (fits an MCU board's 64 KiB soft heap) */
#define QFIRST_V 2u
#define QFIRST_I 3u
#define QMAX_I 131u
#define QSTRIDE 48u             /* instance record: rect 0, color 16, uv0 20, scale 28 (or the packed formats') */

static uint32_t q_lcg;
static float q_rand(float lo, float hi)
{
    q_lcg = q_lcg * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(q_lcg >> 8) * (1.0f / 16777216.0f);
}

static uint16_t q_half(float f)   /* a float16 of small values in [-2, 2] (normal, truncated) */
{
    union { float f; uint32_t u; } c = { f };
    uint32_t s = c.u >> 16 & 0x8000u, e = c.u >> 23 & 0xffu, m = c.u >> 13 & 0x3ffu;
    return (uint16_t)(e < 113u ? s : s | (e - 112u) << 10 | m);
}

/* The instance records: variant 0 Float32x4 rect, Unorm8x4 color, Float32x2 uv0, Float32 scale;
 * variant 1 Float32x3 rect (height 1), Unorm10-10-10-2 color, Float16x2 uv0, Snorm16 scale. Every
 * 7th quad is huge (past the guard band: clipped), every 11th off the target. */
static void q_instances(uint32_t variant, uint8_t *rec)
{
    q_lcg = 777u;
    for (uint32_t i = 0; i < QFIRST_I + QMAX_I; i++) {
        uint8_t *r = rec + QSTRIDE * i;
        float rect[4] = { q_rand(-1.2f, 0.9f), q_rand(-1.2f, 0.9f), q_rand(0.1f, 0.9f), q_rand(0.1f, 0.9f) };
        if (i % 7u == 5u) { rect[0] = -3000.0f; rect[2] = 6000.0f; }
        if (i % 11u == 6u) rect[1] = 5.0f;
        float uv0[2] = { q_rand(-0.2f, 0.2f), q_rand(-0.2f, 0.2f) }, scale = q_rand(0.7f, 1.0f);
        uint8_t col[4];
        for (uint32_t c = 0; c < 4u; c++) col[c] = (uint8_t)(q_lcg >> (8u * c));
        if (variant == 0) {
            eg_memcpy(r, rect, 16);
            eg_memcpy(r + 16, col, 4);
            eg_memcpy(r + 20, uv0, 8);
            eg_memcpy(r + 28, &scale, 4);
        } else {
            eg_memcpy(r, rect, 12);
            uint32_t packed = (uint32_t)col[0] << 2 | (uint32_t)col[1] << 12 | (uint32_t)col[2] << 22 | (uint32_t)col[3] << 30;
            eg_memcpy(r + 16, &packed, 4);
            uint16_t h[2] = { q_half(uv0[0]), q_half(uv0[1]) };
            eg_memcpy(r + 20, h, 4);
            int16_t sn = (int16_t)(scale * 32767.0f);
            eg_memcpy(r + 28, &sn, 2);
        }
    }
}

/* ninst instances of an nv-vertex strip (4: quads) drawn blended (premultiplied) over a cleared
 * QPX x QPX target of fmt; out: its rows at a 256-byte pitch. */
static void q_draw(WGPUDevice d, uint32_t variant, WGPUTextureFormat fmt, uint32_t nv, uint32_t ninst, uint8_t *out)
{
    static const WGPUVertexFormat fmts[2][5] = {
        { WGPUVertexFormat_Float32x2, WGPUVertexFormat_Float32x4, WGPUVertexFormat_Unorm8x4, WGPUVertexFormat_Float32x2,
          WGPUVertexFormat_Float32 },
        { WGPUVertexFormat_Unorm8x2, WGPUVertexFormat_Float32x3, WGPUVertexFormat_Unorm10_10_10_2,
          WGPUVertexFormat_Float16x2, WGPUVertexFormat_Snorm16 },
    };
    static const uint32_t offs[5] = { 0, 0, 16, 20, 28 };
    WGPUVertexAttribute va[5];
    for (uint32_t i = 0; i < 5u; i++) {
        va[i] = (WGPUVertexAttribute)WGPU_VERTEX_ATTRIBUTE_INIT;
        va[i].format = fmts[variant][i];
        va[i].offset = offs[i];
        va[i].shaderLocation = i;
    }
    WGPUVertexBufferLayout vb[2] = { WGPU_VERTEX_BUFFER_LAYOUT_INIT, WGPU_VERTEX_BUFFER_LAYOUT_INIT };
    vb[0].arrayStride = 8; vb[0].attributeCount = 1; vb[0].attributes = &va[0];
    vb[1].arrayStride = QSTRIDE; vb[1].stepMode = WGPUVertexStepMode_Instance;
    vb[1].attributeCount = 4; vb[1].attributes = &va[1];
    WGPUPrimitiveState prim = WGPU_PRIMITIVE_STATE_INIT;
    prim.topology = WGPUPrimitiveTopology_TriangleStrip;
    WGPURenderPipeline p = t_render_pipeline_ex(d, "quad_inst.vert", "span_sdf.frag", vb, 2, fmt, &span_premul, NULL,
                                                &prim);
    EG_EXPECT(p != NULL);
    /* corners (0, 0) (1, 0) (0, 1) (1, 1) (0, 0.5) (1, 0.5) after QFIRST_V unused vertices (strips
     * of 3 and 6 vertices: ids that do not repeat every 4 lanes or every lane group) */
    float corners[2u * (QFIRST_V + 6u)] = { 9, 9, 9, 9, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0.5f, 1, 0.5f };
    if (variant == 1) {   /* Unorm8x2: 0, 128 or 255 (in place: each vertex's 2 bytes before its floats are read) */
        uint8_t *c8 = (uint8_t *)corners;
        for (uint32_t j = 0; j < QFIRST_V + 6u; j++) {
            float x = corners[2u * j], y = corners[2u * j + 1u];
            c8[8u * j] = x > 0.75f ? 255u : x > 0.25f ? 128u : 0u;
            c8[8u * j + 1u] = y > 0.75f ? 255u : y > 0.25f ? 128u : 0u;
        }
    }
    static uint8_t rec[QSTRIDE * (QFIRST_I + QMAX_I)];
    q_instances(variant, rec);
    WGPUBuffer cb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof corners);
    WGPUBuffer ib = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof rec);
    wgpuQueueWriteBuffer(eg_test_queue(), cb, 0, corners, sizeof corners);
    wgpuQueueWriteBuffer(eg_test_queue(), ib, 0, rec, sizeof rec);
    WGPUTexture tex = t_texture(d, fmt, QPX, QPX, 1, 1, 1, WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = view;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    c.clearValue = (WGPUColor){ 0.2, 0.4, 0.6, 1.0 };
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1;
    rpd.colorAttachments = &c;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, cb, 0, sizeof corners);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 1, ib, 0, sizeof rec);
    wgpuRenderPassEncoderDraw(rp, nv, ninst, QFIRST_V, QFIRST_I);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    uint32_t bpp = fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256u * QPX);
    WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256u, QPX);
    WGPUExtent3D sz = t_extent(QPX, QPX, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    eg_memset(out, 0, 256u * QPX);
    EG_EXPECT(t_readback(d, rb, 0, 256u * QPX, out));
    for (uint32_t y = 0; y < QPX; y++) eg_memset(out + 256u * y + bpp * QPX, 0, 256u - bpp * QPX);   /* (pitch padding) */
    wgpuBufferRelease(rb);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuBufferRelease(ib);
    wgpuBufferRelease(cb);
    wgpuRenderPipelineRelease(p);
}

EG_TEST(soft_draw_quads, instanced_quads_equal_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const uint32_t counts[5] = { 1u, 5u, 67u, 70u, QMAX_I };   /* last groups of 4, 8, 12, 8, 12 lanes */
    static const WGPUTextureFormat tfmts[2] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_EmgpuRGB565Unorm };
    static uint8_t fast[256u * QPX], general[256u * QPX], clear_img[256u * QPX];
    static const uint32_t nvs[3] = { 4u, 3u, 6u };
    uint32_t bad = 0, blank = 0;
    for (uint32_t threads = 1; threads <= 2u; threads++) {
        eg_soft_set_threads(threads);
        for (uint32_t variant = 0; variant < 2u; variant++)
            for (uint32_t f = 0; f < 2u; f++)
                for (uint32_t v = 0; v < 3u; v++)
                    for (uint32_t k = 0; k < 5u; k++) {
                        const uint32_t nv = nvs[v];
                        if (nv != 4u && k != 2u && k != 4u) continue;   /* (other strips: 67 and 131 instances) */
                        const uint64_t runs = eg_soft_fetch_quad_groups;
                        q_draw(d, variant, tfmts[f], nv, counts[k], fast);
                        /* quads: the quad fetch ran for every lane group (16 lanes: 4 instances) */
                        if (nv == 4u) EG_EXPECT(eg_soft_fetch_quad_groups - runs >= (counts[k] + 3u) / 4u);
                        eg_soft_raster_fast_paths = false;
                        const uint64_t runs_off = eg_soft_fetch_quad_groups;
                        q_draw(d, variant, tfmts[f], nv, counts[k], general);
                        EG_EXPECT_EQ_U(eg_soft_fetch_quad_groups - runs_off, 0u);
                        q_draw(d, variant, tfmts[f], nv, 0u, clear_img);
                        eg_soft_raster_fast_paths = true;
                        uint32_t diff = 0, drawn = 0;
                        for (uint32_t i = 0; i < 256u * QPX; i++) {
                            diff += fast[i] != general[i];
                            drawn += general[i] != clear_img[i];
                        }
                        if (diff)
                            eg_test_printf("    %u threads, variant %u, format %u, %u x %u-vertex strips: %u bytes differ\n",
                                           (unsigned)threads, (unsigned)variant, (unsigned)f, (unsigned)counts[k],
                                           (unsigned)nv, (unsigned)diff);
                        bad += diff;
                        blank += drawn == 0;
                    }
    }
    eg_soft_set_threads(0);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(blank, 0u);
    eg_test_device_release();
}
