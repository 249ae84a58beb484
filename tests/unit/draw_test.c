/* End-to-end draw tests through the public API on an 8x8 target: coverage by the fill rule,
 * interpolation, blending, depth, instancing/indexing, MSAA resolve, indirect draws, points and
 * lines. Expected pixels are worked out by hand in the comments (window = NDC mapped to 8x8,
 * x_w = (x + 1) * 4, y_w = (1 - y) * 4, pixel centres at +0.5). */
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"
#include <emgpu/emgpu.h>
#include <string.h>
#include "port/port.h"

#define W 8u
#define RT_USAGE (WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc)

typedef struct fx {
    WGPUDevice d;
    WGPUTexture tex, msaa, depth;
    WGPUTextureView view, msaa_view, depth_view;
} fx_t;

static WGPUShaderModule module(WGPUDevice d, const char *name)
{
    const eg_test_spv_t *s = eg_test_spv(name);
    if (!s) return NULL;
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = s->words;
    src.codeSize = s->word_count;
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d, &md);
}

/* Pipeline options beyond the defaults (triangle list, no blend, no depth, 1 sample). */
typedef struct popt {
    const char *vs, *fs;
    WGPUPrimitiveTopology topology;
    const WGPUBlendState *blend;
    bool depth;
    uint32_t samples;
    bool instanced;          /* draw_inst.vert layout: float32x2 per vertex + float32 per instance */
    bool mrt565;             /* a second target of format RGB565 */
    WGPUCullMode cull;
} popt_t;

static WGPURenderPipeline pipeline(WGPUDevice d, const popt_t *o)
{
    WGPUShaderModule vs = module(d, o->vs), fs = module(d, o->fs);
    WGPUVertexAttribute va[2] = { WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT };
    WGPUVertexAttribute ia = WGPU_VERTEX_ATTRIBUTE_INIT;
    WGPUVertexBufferLayout vb[2] = { WGPU_VERTEX_BUFFER_LAYOUT_INIT, WGPU_VERTEX_BUFFER_LAYOUT_INIT };
    if (o->instanced) {
        va[0].format = WGPUVertexFormat_Float32x2;
        vb[0].arrayStride = 8; vb[0].attributeCount = 1; vb[0].attributes = va;
        ia.format = WGPUVertexFormat_Float32; ia.shaderLocation = 1;
        vb[1].arrayStride = 4; vb[1].stepMode = WGPUVertexStepMode_Instance;
        vb[1].attributeCount = 1; vb[1].attributes = &ia;
    } else {
        /* position float32x4 at 0, color unorm8x4 at 16 */
        va[0].format = WGPUVertexFormat_Float32x4;
        va[1].format = WGPUVertexFormat_Unorm8x4; va[1].offset = 16; va[1].shaderLocation = 1;
        vb[0].arrayStride = 20; vb[0].attributeCount = 2; vb[0].attributes = va;
    }
    WGPUColorTargetState t[2] = { WGPU_COLOR_TARGET_STATE_INIT, WGPU_COLOR_TARGET_STATE_INIT };
    t[0].format = WGPUTextureFormat_RGBA8Unorm;
    t[0].blend = o->blend;
    t[1].format = WGPUTextureFormat_EmgpuRGB565Unorm;
    WGPUFragmentState f = WGPU_FRAGMENT_STATE_INIT;
    f.module = fs;
    f.targetCount = o->mrt565 ? 2 : 1;
    f.targets = t;
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth24Plus;
    ds.depthWriteEnabled = WGPUOptionalBool_True;
    ds.depthCompare = WGPUCompareFunction_Less;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = vs;
    pd.vertex.bufferCount = o->instanced ? 2 : 1;
    pd.vertex.buffers = vb;
    pd.fragment = &f;
    pd.primitive.topology = o->topology ? o->topology : WGPUPrimitiveTopology_TriangleList;
    pd.primitive.cullMode = o->cull ? o->cull : WGPUCullMode_None;
    if (o->topology == WGPUPrimitiveTopology_TriangleStrip) pd.primitive.stripIndexFormat = WGPUIndexFormat_Uint16;
    pd.depthStencil = o->depth ? &ds : NULL;
    pd.multisample.count = o->samples ? o->samples : 1;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    return p;
}

static bool fx_init(fx_t *f, uint32_t samples, bool depth)
{
    eg_memset(f, 0, sizeof *f);
    if (!(f->d = eg_test_device("soft"))) return false;
    f->tex = t_texture(f->d, WGPUTextureFormat_RGBA8Unorm, W, W, 1, 1, 1, RT_USAGE);
    f->view = wgpuTextureCreateView(f->tex, NULL);
    if (samples > 1) {
        f->msaa = t_texture(f->d, WGPUTextureFormat_RGBA8Unorm, W, W, 1, 1, samples, WGPUTextureUsage_RenderAttachment);
        f->msaa_view = wgpuTextureCreateView(f->msaa, NULL);
    }
    if (depth) {
        f->depth = t_texture(f->d, WGPUTextureFormat_Depth24Plus, W, W, 1, 1, 1, WGPUTextureUsage_RenderAttachment);
        f->depth_view = wgpuTextureCreateView(f->depth, NULL);
    }
    return true;
}

static void fx_release(fx_t *f)
{
    if (f->depth_view) { wgpuTextureViewRelease(f->depth_view); wgpuTextureRelease(f->depth); }
    if (f->msaa_view) { wgpuTextureViewRelease(f->msaa_view); wgpuTextureRelease(f->msaa); }
    wgpuTextureViewRelease(f->view);
    wgpuTextureRelease(f->tex);
    eg_test_device_release();
}

static WGPUBuffer upload(WGPUDevice d, WGPUBufferUsage usage, const void *data, uint32_t size_B)
{
    WGPUBuffer b = t_buffer(d, usage | WGPUBufferUsage_CopyDst, (size_B + 3u) & ~3u);
    wgpuQueueWriteBuffer(eg_test_queue(), b, 0, data, (size_B + 3u) & ~3u);
    return b;
}

/* Begins a pass clearing the target to `clear` (and depth to 1). */
static WGPURenderPassEncoder begin(fx_t *f, WGPUCommandEncoder e, WGPUColor clear)
{
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = f->msaa_view ? f->msaa_view : f->view;
    c.resolveTarget = f->msaa_view ? f->view : NULL;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    c.clearValue = clear;
    WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    da.view = f->depth_view;
    da.depthLoadOp = WGPULoadOp_Clear;
    da.depthStoreOp = WGPUStoreOp_Store;
    da.depthClearValue = 1.0f;
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &c;
    pd.depthStencilAttachment = f->depth_view ? &da : NULL;
    return wgpuCommandEncoderBeginRenderPass(e, &pd);
}

static void end_submit(WGPURenderPassEncoder p, WGPUCommandEncoder e)
{
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
    t_submit(e);
}

static bool read_rt(fx_t *f, uint8_t out[W * W * 4])
{
    WGPUBuffer b = t_buffer(f->d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * W);
    WGPUCommandEncoder e = t_encoder(f->d);
    WGPUTexelCopyTextureInfo ti = t_tex_info(f->tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, 0, 256, W);
    WGPUExtent3D sz = t_extent(W, W, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    uint8_t rows[256 * W];
    bool ok = t_readback(f->d, b, 0, sizeof rows, rows);
    for (uint32_t y = 0; y < W; y++) eg_memcpy(out + y * W * 4, rows + y * 256, W * 4);
    wgpuBufferRelease(b);
    return ok;
}

/* A vertex of the draw_color.vert layout. */
typedef struct cvert { float x, y, z, w; uint8_t rgba[4]; } cvert_t;

static void expect_px(const uint8_t *img, uint32_t x, uint32_t y, const uint8_t want[4])
{
    const uint8_t *p = img + (y * W + x) * 4;
    /* Soft must match exactly. A GPU may round an exact tie (0.5 -> 127 or 128) either way:
     * Vulkan's float -> unorm conversion allows either nearest value, so allow 1 there. */
    if (eg_strcmp(eg_test_backend(), "soft") != 0) {
        bool near = true;
        for (int c = 0; c < 4; c++) near = near && p[c] + 1 >= want[c] && p[c] <= want[c] + 1;
        if (near) return;
    }
    if (memcmp(p, want, 4) != 0) {
        eg_test_printf("    pixel (%u, %u) = %u %u %u %u, expected %u %u %u %u\n", x, y, p[0], p[1], p[2], p[3],
                       want[0], want[1], want[2], want[3]);
        EG_EXPECT(memcmp(p, want, 4) == 0);
    }
}

#define SETUP(samples, depth)                                                     \
    fx_t f;                                                                       \
    if (!fx_init(&f, (samples), (depth))) EG_SKIP("soft backend not compiled in")

/* Window triangle (0,0) (0,8) (8,0): a centre is inside iff x + y + 1 < 8; x + y = 7 lies on
 * the hypotenuse, a bottom-right edge (top-left rule): excluded. So red iff x + y <= 6. */
EG_TEST(draw, triangle_fill_rule)
{
    SETUP(1, false);
    static const cvert_t v[3] = { { -1, 1, 0, 1, { 255, 0, 0, 255 } }, { -1, -1, 0, 1, { 255, 0, 0, 255 } },
                                  { 1, 1, 0, 1, { 255, 0, 0, 255 } } };
    popt_t o = { "draw_color.vert", "draw_color.frag", 0, NULL, false, 1, false, false, WGPUCullMode_Undefined };
    WGPURenderPipeline p = pipeline(f.d, &o);
    WGPUBuffer vb = upload(f.d, WGPUBufferUsage_Vertex, v, sizeof v);
    WGPUCommandEncoder e = t_encoder(f.d);
    WGPURenderPassEncoder rp = begin(&f, e, (WGPUColor){ 0, 0, 0, 0 });
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderDraw(rp, 3, 1, 0, 0);
    end_submit(rp, e);
    EG_EXPECT_NO_ERROR();
    uint8_t img[W * W * 4];
    EG_ASSERT(read_rt(&f, img));
    static const uint8_t red[4] = { 255, 0, 0, 255 }, none[4] = { 0, 0, 0, 0 };
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++) expect_px(img, x, y, x + y <= 6 ? red : none);
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

/* Full-screen strip, red 0 at x = -1 and 1 at x = +1, w = 1: r at centre x + .5 is
 * (x + .5) / 8 -> round(255 (x + .5) / 8) = 16, 48, 80, 112, 143, 175, 207, 239 (none near .5).
 * Alpha-blended (SrcAlpha, OneMinusSrcAlpha; alpha One, OneMinusSrcAlpha) with a = .5 over a
 * clear of (0, 0, 1, 1): r = r_src * .5, b = .5 -> 128, a = .5 + .5 = 1 -> 255. */
EG_TEST(draw, interpolation_and_blend)
{
    SETUP(1, false);
    static const cvert_t v[4] = { { -1, 1, 0, 1, { 0, 0, 0, 128 } }, { -1, -1, 0, 1, { 0, 0, 0, 128 } },
                                  { 1, 1, 0, 1, { 255, 0, 0, 128 } }, { 1, -1, 0, 1, { 255, 0, 0, 128 } } };
    WGPUBlendState bl = { { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
                          { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha } };
    popt_t o = { "draw_color.vert", "draw_color.frag", WGPUPrimitiveTopology_TriangleStrip, &bl, false, 1, false, false, WGPUCullMode_Undefined };
    WGPURenderPipeline p = pipeline(f.d, &o);
    WGPUBuffer vb = upload(f.d, WGPUBufferUsage_Vertex, v, sizeof v);
    WGPUCommandEncoder e = t_encoder(f.d);
    WGPURenderPassEncoder rp = begin(&f, e, (WGPUColor){ 0, 0, 1, 1 });
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderDraw(rp, 4, 1, 0, 0);
    end_submit(rp, e);
    EG_EXPECT_NO_ERROR();
    uint8_t img[W * W * 4];
    EG_ASSERT(read_rt(&f, img));
    /* source alpha is 128/255, not exactly .5: r = rs * a, b = 1 - a, a_out = a + (1 - a) = 1 */
    const float a = 128.0f / 255.0f;
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++) {
            float rs = ((float)x + 0.5f) / 8.0f;
            uint8_t want[4] = { (uint8_t)(rs * a * 255.0f + 0.5f), 0, (uint8_t)((1.0f - a) * 255.0f + 0.5f), 255 };
            expect_px(img, x, y, want);
        }
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

/* Depth Less: full-screen red at z .5, then green at z .25 over the left half (x_ndc < 0: window
 * x < 4), then blue at z .75 everywhere (hidden). */
EG_TEST(draw, depth_less)
{
    SETUP(1, true);
    static const cvert_t v[9] = {
        { -1, -1, 0.5f, 1, { 255, 0, 0, 255 } }, { 3, -1, 0.5f, 1, { 255, 0, 0, 255 } }, { -1, 3, 0.5f, 1, { 255, 0, 0, 255 } },
        { -1, -1, 0.25f, 1, { 0, 255, 0, 255 } }, { 0, -1, 0.25f, 1, { 0, 255, 0, 255 } }, { 0, 3, 0.25f, 1, { 0, 255, 0, 255 } },
        { -1, -1, 0.75f, 1, { 0, 0, 255, 255 } }, { 3, -1, 0.75f, 1, { 0, 0, 255, 255 } }, { -1, 3, 0.75f, 1, { 0, 0, 255, 255 } } };
    static const cvert_t l[3] = { { -1, -1, 0.25f, 1, { 0, 255, 0, 255 } }, { 0, 3, 0.25f, 1, { 0, 255, 0, 255 } },
                                  { -1, 3, 0.25f, 1, { 0, 255, 0, 255 } } };
    popt_t o = { "draw_color.vert", "draw_color.frag", 0, NULL, true, 1, false, false, WGPUCullMode_Undefined };
    WGPURenderPipeline p = pipeline(f.d, &o);
    WGPUBuffer vb = upload(f.d, WGPUBufferUsage_Vertex, v, sizeof v);
    WGPUBuffer lb = upload(f.d, WGPUBufferUsage_Vertex, l, sizeof l);
    WGPUCommandEncoder e = t_encoder(f.d);
    WGPURenderPassEncoder rp = begin(&f, e, (WGPUColor){ 0, 0, 0, 0 });
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderDraw(rp, 6, 1, 0, 0);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, lb, 0, sizeof l);   /* completes the left half */
    wgpuRenderPassEncoderDraw(rp, 3, 1, 0, 0);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderDraw(rp, 3, 1, 6, 0);
    end_submit(rp, e);
    EG_EXPECT_NO_ERROR();
    uint8_t img[W * W * 4];
    EG_ASSERT(read_rt(&f, img));
    static const uint8_t red[4] = { 255, 0, 0, 255 }, green[4] = { 0, 255, 0, 255 };
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++) expect_px(img, x, y, x < 4 ? green : red);
    wgpuBufferRelease(vb);
    wgpuBufferRelease(lb);
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

/* Indexed (uint16, baseVertex 2) and instanced (firstInstance 1) with a flat color: r =
 * vertex_index / 8 of the provoking (first) vertex, g = instance_index / 4. The quad x in
 * [-1, -.5] (window 0..2) is split along (2, 0)-(0, 8): triangle 1 (first index 0 -> vertex 2,
 * r = .25 -> 64) covers centres with x + .5 < 2 - (y + .5) / 4: column 0 rows 0..5, column 1
 * rows 0..1; triangle 2 (first index 2 -> vertex 4, r = .5 -> 128) the rest. Instance i is
 * shifted by offset[i]: offsets[1] = 0, offsets[2] = 1 (window +4 px); g = 64 / 128. */
EG_TEST(draw, indexed_instanced_flat)
{
    SETUP(1, false);
    static const float pos[12] = { 9, 9, 9, 9, -1, 1, -1, -1, -0.5f, 1, -0.5f, -1 };
    static const float offs[3] = { 5, 0, 1 };
    static const uint16_t idx[6] = { 0, 1, 2, 2, 1, 3 };
    popt_t o = { "draw_inst.vert", "draw_flat.frag", 0, NULL, false, 1, true, false, WGPUCullMode_Undefined };
    WGPURenderPipeline p = pipeline(f.d, &o);
    WGPUBuffer vb = upload(f.d, WGPUBufferUsage_Vertex, pos, sizeof pos);
    WGPUBuffer ib = upload(f.d, WGPUBufferUsage_Vertex, offs, sizeof offs);
    WGPUBuffer xb = upload(f.d, WGPUBufferUsage_Index, idx, sizeof idx);
    WGPUCommandEncoder e = t_encoder(f.d);
    WGPURenderPassEncoder rp = begin(&f, e, (WGPUColor){ 0, 0, 0, 0 });
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof pos);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 1, ib, 0, sizeof offs);
    wgpuRenderPassEncoderSetIndexBuffer(rp, xb, WGPUIndexFormat_Uint16, 0, sizeof idx);
    wgpuRenderPassEncoderDrawIndexed(rp, 6, 2, 0, 2, 1);
    end_submit(rp, e);
    EG_EXPECT_NO_ERROR();
    uint8_t img[W * W * 4];
    EG_ASSERT(read_rt(&f, img));
    static const uint8_t none[4] = { 0, 0, 0, 0 };
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t inst = x < 2 ? 1u : (x >= 4 && x < 6) ? 2u : 0u;
            if (!inst) { expect_px(img, x, y, none); continue; }
            uint32_t cx = x & 1u;
            bool t1 = cx == 0 ? y <= 5 : y <= 1;
            uint8_t want[4] = { t1 ? 64 : 128, inst == 1 ? 64 : 128, 0, 255 };
            expect_px(img, x, y, want);
        }
    wgpuBufferRelease(vb);
    wgpuBufferRelease(ib);
    wgpuBufferRelease(xb);
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

/* 4x MSAA resolve: a white triangle whose left edge is x_w = .5 (x_ndc = -.875) covers samples
 * 1 and 3 (x offsets .875, .625) of column 0 and all samples right of it: column 0 resolves to
 * (2 * 255 + 2) / 4 = 128 per channel, the other columns to 255. Drawn with drawIndirect. */
EG_TEST(draw, msaa_resolve_indirect)
{
    SETUP(4, false);
    static const cvert_t v[3] = { { -0.875f, -3, 0, 1, { 255, 255, 255, 255 } }, { 3, 1, 0, 1, { 255, 255, 255, 255 } },
                                  { -0.875f, 5, 0, 1, { 255, 255, 255, 255 } } };
    static const uint32_t args[4] = { 3, 1, 0, 0 };
    popt_t o = { "draw_color.vert", "draw_color.frag", 0, NULL, false, 4, false, false, WGPUCullMode_Undefined };
    WGPURenderPipeline p = pipeline(f.d, &o);
    WGPUBuffer vb = upload(f.d, WGPUBufferUsage_Vertex, v, sizeof v);
    WGPUBuffer ab = upload(f.d, WGPUBufferUsage_Indirect, args, sizeof args);
    WGPUCommandEncoder e = t_encoder(f.d);
    WGPURenderPassEncoder rp = begin(&f, e, (WGPUColor){ 0, 0, 0, 0 });
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderDrawIndirect(rp, ab, 0);
    end_submit(rp, e);
    EG_EXPECT_NO_ERROR();
    uint8_t img[W * W * 4];
    EG_ASSERT(read_rt(&f, img));
    static const uint8_t half[4] = { 128, 128, 128, 128 }, white[4] = { 255, 255, 255, 255 };
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++) expect_px(img, x, y, x == 0 ? half : white);
    wgpuBufferRelease(vb);
    wgpuBufferRelease(ab);
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

/* A point at window (2.5, 3.5) fills pixel (2, 3) only. A line from window (.5, 5.5) to
 * (6.5, 5.5) (x-major) is the parallelogram y in [5, 6], x in [.5, 6.5]: the left edge passes
 * through the centre of column 0 (included), the right edge through column 6 (excluded):
 * row 5, columns 0..5. */
EG_TEST(draw, point_and_line)
{
    SETUP(1, false);
    static const cvert_t pt[1] = { { 2.5f / 4 - 1, 1 - 3.5f / 4, 0, 1, { 0, 255, 0, 255 } } };
    static const cvert_t ln[2] = { { 0.5f / 4 - 1, 1 - 5.5f / 4, 0, 1, { 0, 0, 255, 255 } },
                                   { 6.5f / 4 - 1, 1 - 5.5f / 4, 0, 1, { 0, 0, 255, 255 } } };
    popt_t o = { "draw_color.vert", "draw_color.frag", WGPUPrimitiveTopology_PointList, NULL, false, 1, false, false, WGPUCullMode_Undefined };
    WGPURenderPipeline pp = pipeline(f.d, &o);
    o.topology = WGPUPrimitiveTopology_LineList;
    WGPURenderPipeline lp = pipeline(f.d, &o);
    WGPUBuffer pb = upload(f.d, WGPUBufferUsage_Vertex, pt, sizeof pt);
    WGPUBuffer lb = upload(f.d, WGPUBufferUsage_Vertex, ln, sizeof ln);
    WGPUCommandEncoder e = t_encoder(f.d);
    WGPURenderPassEncoder rp = begin(&f, e, (WGPUColor){ 0, 0, 0, 0 });
    wgpuRenderPassEncoderSetPipeline(rp, pp);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, pb, 0, sizeof pt);
    wgpuRenderPassEncoderDraw(rp, 1, 1, 0, 0);
    wgpuRenderPassEncoderSetPipeline(rp, lp);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, lb, 0, sizeof ln);
    wgpuRenderPassEncoderDraw(rp, 2, 1, 0, 0);
    end_submit(rp, e);
    EG_EXPECT_NO_ERROR();
    uint8_t img[W * W * 4];
    EG_ASSERT(read_rt(&f, img));
    static const uint8_t g[4] = { 0, 255, 0, 255 }, b[4] = { 0, 0, 255, 255 }, none[4] = { 0, 0, 0, 0 };
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++)
            expect_px(img, x, y, (x == 2 && y == 3) ? g : (y == 5 && x <= 5) ? b : none);
    wgpuBufferRelease(pb);
    wgpuBufferRelease(lb);
    wgpuRenderPipelineRelease(pp);
    wgpuRenderPipelineRelease(lp);
    fx_release(&f);
}

/* Indexed triangle strip with a restart (0xFFFF) between two quads: x_ndc [-1, 0] (window
 * columns 0..3) and [.5, 1] (columns 6..7); without the restart the strip would also fill
 * columns 4..5. Scissor rows 2..5 only. Both strips are counter-clockwise (front) so cullMode
 * Back keeps them; a clockwise full-screen triangle drawn after them is culled. */
EG_TEST(draw, strip_restart_scissor_cull)
{
    SETUP(1, false);
    static const cvert_t v[11] = {
        { -1, 1, 0, 1, { 255, 0, 0, 255 } }, { -1, -1, 0, 1, { 255, 0, 0, 255 } }, { 0, 1, 0, 1, { 255, 0, 0, 255 } },
        { 0, -1, 0, 1, { 255, 0, 0, 255 } }, { 0.5f, 1, 0, 1, { 255, 0, 0, 255 } }, { 0.5f, -1, 0, 1, { 255, 0, 0, 255 } },
        { 1, 1, 0, 1, { 255, 0, 0, 255 } }, { 1, -1, 0, 1, { 255, 0, 0, 255 } },
        { -1, -1, 0, 1, { 0, 0, 255, 255 } }, { -1, 3, 0, 1, { 0, 0, 255, 255 } }, { 3, -1, 0, 1, { 0, 0, 255, 255 } } };
    static const uint16_t idx[12] = { 0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7, 8, 9, 10 };
    popt_t o = { "draw_color.vert", "draw_color.frag", WGPUPrimitiveTopology_TriangleStrip, NULL, false, 1, false,
                 false, WGPUCullMode_Back };
    WGPURenderPipeline p = pipeline(f.d, &o);
    WGPUBuffer vb = upload(f.d, WGPUBufferUsage_Vertex, v, sizeof v);
    WGPUBuffer xb = upload(f.d, WGPUBufferUsage_Index, idx, sizeof idx);
    WGPUCommandEncoder e = t_encoder(f.d);
    WGPURenderPassEncoder rp = begin(&f, e, (WGPUColor){ 0, 0, 0, 0 });
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderSetIndexBuffer(rp, xb, WGPUIndexFormat_Uint16, 0, sizeof idx);
    wgpuRenderPassEncoderSetScissorRect(rp, 0, 2, 8, 4);
    wgpuRenderPassEncoderDrawIndexed(rp, 9, 1, 0, 0, 0);
    /* window (0,8) (0,-8) (16,8): clockwise as seen in NDC -> back-facing -> culled */
    wgpuRenderPassEncoderDrawIndexed(rp, 3, 1, 9, 0, 0);
    end_submit(rp, e);
    EG_EXPECT_NO_ERROR();
    uint8_t img[W * W * 4];
    EG_ASSERT(read_rt(&f, img));
    static const uint8_t red[4] = { 255, 0, 0, 255 }, none[4] = { 0, 0, 0, 0 };
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++)
            expect_px(img, x, y, (y >= 2 && y < 6 && (x < 4 || x >= 6)) ? red : none);
    wgpuBufferRelease(vb);
    wgpuBufferRelease(xb);
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

/* Two targets: RGBA8Unorm gets the color, RGB565 the color swizzled .bgra. Color (1, 128/255,
 * 0, 1) -> target 0 (255, 128, 0, 255); target 1 gets (0, 128/255, 1): r 0, g round(63 *
 * 128/255) = round(31.62) = 32, b 31 -> 32 << 5 | 31 = 0x041F. A viewport of the left half
 * (x 0..4, full height) squeezes a full-screen triangle into columns 0..3. */
EG_TEST(draw, mrt_rgb565_viewport)
{
    SETUP(1, false);
    /* An adapter whose driver lacks RGB565 says so (e.g. D3D12 under wine 8.0: vkd3d 1.6 knows no
     * DXGI_FORMAT_B5G6R5_UNORM, hal/d3d12/README.md); texture_create.rgb565_missing_names_format
     * checks that such an adapter rejects the format. */
    if (!wgpuDeviceEmgpuHasTextureFormat(f.d, WGPUTextureFormat_EmgpuRGB565Unorm)) {
        fx_release(&f);
        EG_NOT_APPLICABLE("the adapter lacks EmgpuRGB565Unorm (wgpuDeviceEmgpuHasTextureFormat)");
    }
    WGPUTexture t565 = t_texture(f.d, WGPUTextureFormat_EmgpuRGB565Unorm, W, W, 1, 1, 1, RT_USAGE);
    WGPUTextureView v565 = wgpuTextureCreateView(t565, NULL);
    static const cvert_t v[3] = { { -1, -1, 0, 1, { 255, 128, 0, 255 } }, { 3, -1, 0, 1, { 255, 128, 0, 255 } },
                                  { -1, 3, 0, 1, { 255, 128, 0, 255 } } };
    popt_t o = { "draw_color.vert", "draw_mrt.frag", 0, NULL, false, 1, false, true, WGPUCullMode_Undefined };
    WGPURenderPipeline p = pipeline(f.d, &o);
    WGPUBuffer vb = upload(f.d, WGPUBufferUsage_Vertex, v, sizeof v);
    WGPUCommandEncoder e = t_encoder(f.d);
    WGPURenderPassColorAttachment c[2] = { WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT, WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT };
    c[0].view = f.view; c[1].view = v565;
    c[0].loadOp = c[1].loadOp = WGPULoadOp_Clear;
    c[0].storeOp = c[1].storeOp = WGPUStoreOp_Store;
    c[0].clearValue = c[1].clearValue = (WGPUColor){ 0, 0, 0, 0 };
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 2;
    pd.colorAttachments = c;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderSetViewport(rp, 0, 0, 4, 8, 0, 1);
    wgpuRenderPassEncoderDraw(rp, 3, 1, 0, 0);
    end_submit(rp, e);
    EG_EXPECT_NO_ERROR();
    uint8_t img[W * W * 4];
    EG_ASSERT(read_rt(&f, img));
    static const uint8_t col[4] = { 255, 128, 0, 255 }, none[4] = { 0, 0, 0, 0 };
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++) expect_px(img, x, y, x < 4 ? col : none);
    /* the RGB565 target, row 3 */
    WGPUBuffer b = t_buffer(f.d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * W);
    e = t_encoder(f.d);
    WGPUTexelCopyTextureInfo ti = t_tex_info(t565, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, 0, 256, W);
    WGPUExtent3D sz = t_extent(W, W, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    uint8_t row[16];
    EG_ASSERT(t_readback(f.d, b, 3 * 256, sizeof row, row));
    for (uint32_t x = 0; x < W; x++) {
        uint32_t px = (uint32_t)row[2 * x] | (uint32_t)row[2 * x + 1] << 8;
        EG_EXPECT_EQ_U(px, x < 4 ? 0x041Fu : 0u);
    }
    wgpuBufferRelease(b);
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
    wgpuTextureViewRelease(v565);
    wgpuTextureRelease(t565);
    fx_release(&f);
}

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"

/* Renders three overlapping triangles (partial and fully covered 4x4 blocks, perspective w != 1,
 * colours that interpolate to non-integer values) with `blend` into a fresh target. */
static bool render_tris(fx_t *f, const WGPUBlendState *blend, uint8_t img[W * W * 4])
{
    static const cvert_t v[9] = {
        { -1, 1, 0, 1, { 255, 10, 0, 255 } }, { -1, -1, 0, 1, { 0, 200, 30, 90 } }, { 1, 1, 0, 1, { 7, 0, 255, 200 } },
        { -0.9f, -0.7f, 0, 2, { 11, 99, 250, 40 } }, { 0.8f, -0.9f, 0, 1, { 250, 5, 60, 255 } },
        { 0.3f, 1.9f, 0, 1.5f, { 128, 128, 3, 128 } },
        { -1, -1, 0, 1, { 1, 2, 3, 4 } }, { 1, -1, 0, 1, { 90, 180, 45, 77 } }, { 1, 1, 0, 1, { 255, 255, 255, 255 } } };
    popt_t o = { "draw_color.vert", "draw_color.frag", 0, blend, false, 1, false, false, WGPUCullMode_Undefined };
    WGPURenderPipeline p = pipeline(f->d, &o);
    WGPUBuffer vb = upload(f->d, WGPUBufferUsage_Vertex, v, sizeof v);
    WGPUCommandEncoder e = t_encoder(f->d);
    WGPURenderPassEncoder rp = begin(f, e, (WGPUColor){ 0.2, 0.4, 0.6, 0.8 });
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderDraw(rp, 9, 1, 0, 0);
    end_submit(rp, e);
    bool ok = read_rt(f, img);
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
    return ok;
}

/* The copy-class fast path (draw_color.frag only copies its input: no VM call) must give the
 * same bytes as the VM path, opaque and blended; the block counter proves it ran. */
EG_TEST(draw, fast_path_matches_vm)
{
    SETUP(1, false);
    if (eg_strcmp(eg_test_backend(), "soft") != 0) { fx_release(&f); EG_NOT_APPLICABLE("tests a soft-only fast path"); }
    WGPUBlendState bl = { { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
                          { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha } };
    const WGPUBlendState *modes[2] = { NULL, &bl };
    for (int m = 0; m < 2; m++) {
        uint8_t fast[W * W * 4], slow[W * W * 4];
        uint32_t before = eg_soft_raster_copy_blocks();
        EG_ASSERT(render_tris(&f, modes[m], fast));
        EG_EXPECT(eg_soft_raster_copy_blocks() > before);
        eg_soft_raster_fast_paths = false;
        before = eg_soft_raster_copy_blocks();
        bool ok = render_tris(&f, modes[m], slow);
        eg_soft_raster_fast_paths = true;
        EG_ASSERT(ok);
        EG_EXPECT(eg_soft_raster_copy_blocks() == before);
        EG_EXPECT(memcmp(fast, slow, sizeof fast) == 0);
    }
    EG_EXPECT_NO_ERROR();
    fx_release(&f);
}
#endif
