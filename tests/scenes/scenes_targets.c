/* Conformance scenes: multiple render targets, MSAA with resolve, RGB565 / RGBA16F / sRGB targets. */
#include "tests/scenes/scenes.h"

static const float k_dark[4] = { 0.08f, 0.08f, 0.1f, 1 };

/* Three overlapping triangles with interpolated colors and depths 0.2..0.8 (NDC). */
static const eg_scene_vtx_t k_tris[9] = {
    { -0.9f, -0.9f, 0.2f, 1, 1, 0, 0, 1 }, { 0.5f, -0.7f, 0.8f, 1, 0, 1, 0, 1 }, { -0.3f, 0.9f, 0.5f, 1, 0, 0, 1, 1 },
    { -0.5f, -0.2f, 0.6f, 1, 1, 1, 0, 1 }, { 0.95f, -0.95f, 0.3f, 1, 0, 1, 1, 1 }, { 0.7f, 0.8f, 0.6f, 1, 1, 0, 1, 1 },
    { -0.95f, 0.3f, 0.4f, 1, 1, 0.5f, 0, 0.5f }, { 0.9f, 0.1f, 0.4f, 1, 0, 0.5f, 1, 0.5f }, { -0.1f, 0.5f, 0.1f, 1, 1, 1, 1, 0.5f },
};

static WGPURenderPassColorAttachment color_att(WGPUTextureView view, const float c[4])
{
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = view;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ c[0], c[1], c[2], c[3] };
    return ca;
}

/* Four targets (rgba8unorm, bgra8unorm, rgba16float, r8unorm), each w/2 x h/2, shown as
 * quadrants: the color, its inverse, a swizzle times 2 with alpha 0.5, and the luma. */
void eg_scene_mrt4(eg_scene_t *s)
{
    static const WGPUTextureFormat fmt[4] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                              WGPUTextureFormat_RGBA16Float, WGPUTextureFormat_R8Unorm };
    uint32_t hw = s->w / 2, hh = s->h / 2;
    WGPUTexture tex[4];
    WGPURenderPassColorAttachment ca[4];
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_mrt4.frag", .target_count = 4 };
    for (int i = 0; i < 4; i++) {
        tex[i] = eg_scene_texture(s, fmt[i], hw, hh, 1, 1, 1,
                                  WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
        ca[i] = color_att(eg_scene_view(s, tex[i], 0), k_dark);
        p.format[i] = fmt[i];
    }
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    if (s->fail) return;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 4;
    rp.colorAttachments = ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    eg_scene_draw_vertices(s, pass, k_tris, 9);
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    for (uint32_t i = 0; i < 4; i++) eg_scene_readback(s, tex[i], fmt[i], (i % 2) * hw, (i / 2) * hh, hw, hh);
}

/* Two targets of w/2 x h: the left one written with a B-G-R swizzle and write mask RGB (alpha
 * keeps the clear value 0.25), the right one blended source-over at alpha 0.5 onto gray. */
void eg_scene_mrt2(eg_scene_t *s)
{
    static const WGPUBlendState over = {
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
        { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha },
    };
    uint32_t hw = s->w / 2;
    const float c0[4] = { 0.1f, 0.1f, 0.1f, 0.25f }, c1[4] = { 0.5f, 0.5f, 0.5f, 1 };
    WGPUTexture t0 = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, hw, s->h, 1, 1, 1,
                                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTexture t1 = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, hw, s->h, 1, 1, 1,
                                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPURenderPassColorAttachment ca[2] = { color_att(eg_scene_view(s, t0, 0), c0),
                                            color_att(eg_scene_view(s, t1, 0), c1) };
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_mrt2.frag", .target_count = 2,
                          .write_mask = { WGPUColorWriteMask_Red | WGPUColorWriteMask_Green |
                                          WGPUColorWriteMask_Blue } };
    p.blend[1] = &over;
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    if (s->fail) return;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 2;
    rp.colorAttachments = ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    eg_scene_draw_vertices(s, pass, k_tris, 9);
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t0, WGPUTextureFormat_RGBA8Unorm, 0, 0, hw, s->h);
    eg_scene_readback(s, t1, WGPUTextureFormat_RGBA8Unorm, hw, 0, hw, s->h);
}

/* sampleCount 4 color and depth (compare Less), resolved into a single-sample target: the
 * overlapping triangles get anti-aliased edges and intersections. */
void eg_scene_msaa(eg_scene_t *s)
{
    WGPUTexture ms = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, s->w, s->h, 1, 1, 4,
                                      WGPUTextureUsage_RenderAttachment);
    WGPUTexture msd = eg_scene_texture(s, WGPUTextureFormat_Depth24Plus, s->w, s->h, 1, 1, 4,
                                       WGPUTextureUsage_RenderAttachment);
    WGPUTextureView rv;
    WGPUTexture resolve = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &rv);
    WGPUTextureView mv = eg_scene_view(s, ms, 0), dv = eg_scene_view(s, msd, 0);
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag", .samples = 4,
                          .depth_format = WGPUTextureFormat_Depth24Plus,
                          .depth_compare = WGPUCompareFunction_Less, .depth_write = true };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    if (s->fail) return;
    WGPURenderPassColorAttachment ca = color_att(mv, k_dark);
    ca.resolveTarget = rv;
    ca.storeOp = WGPUStoreOp_Discard;
    WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    da.view = dv;
    da.depthLoadOp = WGPULoadOp_Clear;
    da.depthStoreOp = WGPUStoreOp_Discard;
    da.depthClearValue = 1.0f;
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 1;
    rp.colorAttachments = &ca;
    rp.depthStencilAttachment = &da;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    eg_scene_draw_vertices(s, pass, k_tris, 9);
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, resolve, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

/* The triangles, then a source-over blended band, into a target of `format`. */
static void format_scene(eg_scene_t *s, WGPUTextureFormat format, float gain)
{
    static const WGPUBlendState over = {
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
        { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha },
    };
    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, format, &tv);
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag", .format = { format } };
    p.blend[0] = &over;
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    if (s->fail) return;
    eg_scene_vtx_t v[15];
    for (int i = 0; i < 9; i++) {
        v[i] = k_tris[i];
        v[i].r *= gain; v[i].g *= gain; v[i].b *= gain;
        v[i].a = 1.0f;
    }
    /* a horizontal band fading from transparent white (left) to opaque black (right) */
    const float band[6][3] = { { -1, -0.2f, 0 }, { 1, -0.2f, 1 }, { 1, 0.2f, 1 },
                               { -1, -0.2f, 0 }, { 1, 0.2f, 1 }, { -1, 0.2f, 0 } };
    for (int i = 0; i < 6; i++) {
        float a = band[i][2];
        eg_scene_vtx_t q = { band[i][0], band[i][1], 0.5f, 1, 1 - a, 1 - a, 1 - a, 0.25f + 0.75f * a };
        v[9 + i] = q;
    }
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, k_dark, NULL, 0, 0, 0);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    eg_scene_draw_vertices(s, pass, v, 15);
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, format, 0, 0, s->w, s->h);
}

/* Our RGB565 extension format as a render target (5-6-5 quantization, blending). */
void eg_scene_rgb565(eg_scene_t *s)
{
    format_scene(s, WGPUTextureFormat_EmgpuRGB565Unorm, 1.0f);
}

/* rgba16float target with colors up to 1.5 (shown clamped to 1). */
void eg_scene_rgba16float(eg_scene_t *s)
{
    format_scene(s, WGPUTextureFormat_RGBA16Float, 1.5f);
}

/* rgba8unorm-srgb: blending happens on linear values, the stored bytes are sRGB-encoded. */
void eg_scene_srgb(eg_scene_t *s)
{
    format_scene(s, WGPUTextureFormat_RGBA8UnormSrgb, 1.0f);
}

/* bgra8unorm: the swapchain format of most desktops (stored B, G, R, A). */
void eg_scene_bgra8(eg_scene_t *s)
{
    format_scene(s, WGPUTextureFormat_BGRA8Unorm, 1.0f);
}
