/* Conformance scenes: depth compare functions and formats, stencil operations, masks, reference. */
#include "tests/scenes/scenes.h"

static const float k_dark[4] = { 0.08f, 0.08f, 0.1f, 1 };

/* Six vertices of the NDC rectangle [x0,x1] x [y0,y1] (y up), CCW, z per corner row: zt at the
 * top edge, zb at the bottom edge. */
static eg_scene_vtx_t *ndc_rect(eg_scene_vtx_t *v, float x0, float y0, float x1, float y1, float zt,
                                float zb, const float c[4])
{
    const float p[6][3] = { { x0, y0, zb }, { x1, y0, zb }, { x1, y1, zt },
                            { x0, y0, zb }, { x1, y1, zt }, { x0, y1, zt } };
    for (int i = 0; i < 6; i++) {
        eg_scene_vtx_t q = { p[i][0], p[i][1], p[i][2], 1.0f, c[0], c[1], c[2], c[3] };
        v[i] = q;
    }
    return v + 6;
}

/* Depth16Unorm texels: the top half 0x8000, the bottom half 0x4000, written with WriteTexture
 * (depth16unorm is the depth format a copy may write; the copy must cover the whole subresource). */
static void write_depth_halves(eg_scene_t *s, WGPUTexture depth, uint32_t w, uint32_t h)
{
    static uint16_t texels[128 * 64];
    if (w * h > sizeof texels / sizeof texels[0]) {
        eg_scene_failf(s, "write_depth_halves: depth texture larger than 128x64");
        return;
    }
    for (uint32_t i = 0; i < w * h; i++) texels[i] = i / w < h / 2 ? 0x8000u : 0x4000u;
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = depth;
    dst.aspect = WGPUTextureAspect_DepthOnly;
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = w * 2u;
    layout.rowsPerImage = h;
    WGPUExtent3D size = { w, h, 1 };
    wgpuQueueWriteTexture(s->queue, &dst, texels, (size_t)w * h * 2u, &layout, &size);
}

/* Four columns, one compare function each, over a depth16unorm buffer loaded as 0x8000 (top)
 * and 0x4000 (bottom). Each column: left half a quad at exactly 0x8000/65535, right half a quad
 * with depth 0 at the top to 1 at the bottom; depth writes on. Top half of the image: color;
 * bottom half: the depth buffer afterwards (high byte as gray). */
static void depth_compare(eg_scene_t *s, const WGPUCompareFunction f[4])
{
    uint32_t hh = s->h / 2;
    WGPUTexture color = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, s->w, hh, 1, 1, 1,
                                         WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTexture depth = eg_scene_texture(s, WGPUTextureFormat_Depth16Unorm, s->w, hh, 1, 1, 1,
                                         WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc |
                                         WGPUTextureUsage_CopyDst);
    WGPUTextureView cv = eg_scene_view(s, color, 0), dv = eg_scene_view(s, depth, 0);
    WGPURenderPipeline pipe[4];
    for (int i = 0; i < 4; i++) {
        eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag",
                              .depth_format = WGPUTextureFormat_Depth16Unorm, .depth_compare = f[i],
                              .depth_write = true };
        pipe[i] = eg_scene_pipeline(s, &p);
    }
    if (s->fail) return;
    write_depth_halves(s, depth, s->w, hh);
    static const float col[4][4] = { { 1, 0.3f, 0.3f, 1 }, { 0.3f, 1, 0.3f, 1 }, { 0.3f, 0.5f, 1, 1 },
                                     { 1, 1, 0.3f, 1 } };
    const float zmid = 32768.0f / 65535.0f;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, cv, k_dark, dv, WGPUTextureFormat_Depth16Unorm,
                                               -1.0f, 0);
    for (int i = 0; i < 4; i++) {
        eg_scene_vtx_t v[12], *o = v;
        float x0 = -1.0f + 0.5f * (float)i, xm = x0 + 0.25f, x1 = x0 + 0.5f;
        o = ndc_rect(o, x0 + 0.02f, -1.0f, xm, 1.0f, zmid, zmid, col[i]);
        ndc_rect(o, xm, -1.0f, x1 - 0.02f, 1.0f, 0.0f, 1.0f, col[i]);
        wgpuRenderPassEncoderSetPipeline(pass, pipe[i]);
        eg_scene_draw_vertices(s, pass, v, 12);
    }
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, color, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, hh);
    eg_scene_readback(s, depth, WGPUTextureFormat_Depth16Unorm, 0, hh, s->w, hh);
}

void eg_scene_depth_compare_a(eg_scene_t *s)
{
    static const WGPUCompareFunction f[4] = { WGPUCompareFunction_Never, WGPUCompareFunction_Less,
                                              WGPUCompareFunction_Equal, WGPUCompareFunction_LessEqual };
    depth_compare(s, f);
}

void eg_scene_depth_compare_b(eg_scene_t *s)
{
    static const WGPUCompareFunction f[4] = { WGPUCompareFunction_Greater, WGPUCompareFunction_NotEqual,
                                              WGPUCompareFunction_GreaterEqual, WGPUCompareFunction_Always };
    depth_compare(s, f);
}

/* Three bands (depth16unorm, depth24plus, depth32float), each two interpenetrating triangles and
 * a far quad, compare Less; the bands are viewports of one color target. */
void eg_scene_depth_formats(eg_scene_t *s)
{
    static const WGPUTextureFormat fmt[3] = { WGPUTextureFormat_Depth16Unorm, WGPUTextureFormat_Depth24Plus,
                                              WGPUTextureFormat_Depth32Float };
    WGPUTextureView cv, dv[3];
    WGPUTexture color = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &cv);
    WGPURenderPipeline pipe[3];
    for (int i = 0; i < 3; i++) {
        WGPUTexture d = eg_scene_texture(s, fmt[i], s->w, s->h, 1, 1, 1, WGPUTextureUsage_RenderAttachment);
        dv[i] = eg_scene_view(s, d, 0);
        eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag", .depth_format = fmt[i],
                              .depth_compare = WGPUCompareFunction_Less, .depth_write = true };
        pipe[i] = eg_scene_pipeline(s, &p);
    }
    if (s->fail) return;
    uint32_t bh = s->h / 3;
    const float far_c[4] = { 0.3f, 0.3f, 0.35f, 1 };
    for (int i = 0; i < 3; i++) {
        WGPUCommandEncoder enc = eg_scene_encoder(s);
        WGPURenderPassEncoder pass = eg_scene_pass(s, enc, cv, i == 0 ? k_dark : NULL, dv[i], fmt[i], 1.0f, 0);
        wgpuRenderPassEncoderSetViewport(pass, 0, (float)(bh * (uint32_t)i), (float)s->w, (float)bh, 0, 1);
        wgpuRenderPassEncoderSetPipeline(pass, pipe[i]);
        eg_scene_vtx_t v[12] = {
            /* left-near to right-far and left-far to right-near: they cross in the middle */
            { -0.9f, -0.8f, 0.2f, 1, 1, 0.2f, 0.2f, 1 }, { 0.9f, -0.2f, 0.8f, 1, 1, 0.6f, 0.2f, 1 },
            { -0.9f, 0.8f, 0.2f, 1, 1, 0.2f, 0.6f, 1 },
            { -0.9f, -0.3f, 0.8f, 1, 0.2f, 0.9f, 1, 1 }, { 0.9f, -0.9f, 0.2f, 1, 0.2f, 1, 0.4f, 1 },
            { 0.9f, 0.9f, 0.2f, 1, 0.2f, 0.5f, 1, 1 },
        };
        ndc_rect(v + 6, -0.6f, -0.6f, 0.6f, 0.6f, 0.5f, 0.5f, far_c);
        eg_scene_draw_vertices(s, pass, v, 12);
        eg_scene_end_pass(pass);
        eg_scene_submit(s, enc);
    }
    eg_scene_readback(s, color, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

/* Stencil as a counter: three overlapping triangles increment (IncrementClamp, color writes
 * off), then four full-screen passes with compare Equal and reference 0..3 paint the counts.
 * Top half: color; bottom half: the stencil values (false color). */
void eg_scene_stencil_count(eg_scene_t *s)
{
    const WGPUTextureFormat df = WGPUTextureFormat_Depth24PlusStencil8;
    uint32_t hh = s->h / 2;
    WGPUTexture color = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, s->w, hh, 1, 1, 1,
                                         WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTexture ds = eg_scene_texture(s, df, s->w, hh, 1, 1, 1,
                                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView cv = eg_scene_view(s, color, 0), dv = eg_scene_view(s, ds, 0);
    eg_scene_pipe_t pc = { .vs = "scene_color.vert", .fs = "scene_color.frag", .depth_format = df,
                           .write_mask = { EG_SCENE_MASK_NONE } };
    pc.stencil.passOp = WGPUStencilOperation_IncrementClamp;
    eg_scene_pipe_t pe = { .vs = "scene_color.vert", .fs = "scene_color.frag", .depth_format = df };
    pe.stencil.compare = WGPUCompareFunction_Equal;
    WGPURenderPipeline count = eg_scene_pipeline(s, &pc), paint = eg_scene_pipeline(s, &pe);
    if (s->fail) return;
    eg_scene_vtx_t tri[9] = {
        { -0.8f, -0.8f, 0.5f, 1, 1, 1, 1, 1 }, { 0.4f, -0.8f, 0.5f, 1, 1, 1, 1, 1 }, { -0.2f, 0.9f, 0.5f, 1, 1, 1, 1, 1 },
        { -0.4f, -0.9f, 0.5f, 1, 1, 1, 1, 1 }, { 0.9f, -0.5f, 0.5f, 1, 1, 1, 1, 1 }, { 0.1f, 0.8f, 0.5f, 1, 1, 1, 1, 1 },
        { -0.9f, 0.1f, 0.5f, 1, 1, 1, 1, 1 }, { 0.8f, 0.0f, 0.5f, 1, 1, 1, 1, 1 }, { 0.0f, 0.95f, 0.5f, 1, 1, 1, 1, 1 },
    };
    static const float paint_c[4][4] = { { 0.1f, 0.1f, 0.3f, 1 }, { 0.2f, 0.6f, 1, 1 }, { 0.3f, 1, 0.4f, 1 },
                                         { 1, 0.9f, 0.2f, 1 } };
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, cv, k_dark, dv, df, 1.0f, 0);
    wgpuRenderPassEncoderSetPipeline(pass, count);
    eg_scene_draw_vertices(s, pass, tri, 9);
    wgpuRenderPassEncoderSetPipeline(pass, paint);
    for (uint32_t ref = 0; ref < 4; ref++) {
        eg_scene_vtx_t v[6];
        ndc_rect(v, -1, -1, 1, 1, 0.5f, 0.5f, paint_c[ref]);
        wgpuRenderPassEncoderSetStencilReference(pass, ref);
        eg_scene_draw_vertices(s, pass, v, 6);
    }
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, color, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, hh);
    eg_scene_readback(s, ds, df, 0, hh, s->w, hh);
}

/* Stencil operations with read/write masks and references on stencil8, cleared to 0x0F:
 * Replace (write mask 0xF0, ref 0xA5) on the top half; Invert on the left quarter; Equal with
 * read mask 0x0F, pass IncrementWrap / fail DecrementWrap, twice with references 0x0F and 0x00;
 * NotEqual ref 0xAF with pass DecrementClamp / fail Zero on a triangle. Top half: color where
 * the tests passed; bottom half: the final stencil values (false color). */
void eg_scene_stencil_ops(eg_scene_t *s)
{
    const WGPUTextureFormat df = WGPUTextureFormat_Stencil8;
    uint32_t hh = s->h / 2;
    WGPUTexture color = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, s->w, hh, 1, 1, 1,
                                         WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTexture ds = eg_scene_texture(s, df, s->w, hh, 1, 1, 1,
                                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView cv = eg_scene_view(s, color, 0), dv = eg_scene_view(s, ds, 0);
    eg_scene_pipe_t p[4];
    for (int i = 0; i < 4; i++) {
        eg_scene_pipe_t z = { .vs = "scene_color.vert", .fs = "scene_color.frag", .depth_format = df };
        p[i] = z;
    }
    p[0].stencil.passOp = WGPUStencilOperation_Replace;
    p[0].stencil_read_mask = 0xFF;
    p[0].stencil_write_mask = 0xF0;
    p[1].stencil.passOp = WGPUStencilOperation_Invert;
    p[2].stencil = (WGPUStencilFaceState){ WGPUCompareFunction_Equal, WGPUStencilOperation_DecrementWrap,
                                           WGPUStencilOperation_Keep, WGPUStencilOperation_IncrementWrap };
    p[2].stencil_read_mask = 0x0F;
    p[2].stencil_write_mask = 0xFF;
    p[3].stencil = (WGPUStencilFaceState){ WGPUCompareFunction_NotEqual, WGPUStencilOperation_Zero,
                                           WGPUStencilOperation_Keep, WGPUStencilOperation_DecrementClamp };
    WGPURenderPipeline pipe[4];
    for (int i = 0; i < 4; i++) pipe[i] = eg_scene_pipeline(s, &p[i]);
    if (s->fail) return;
    static const float c[5][4] = { { 1, 0.4f, 0.2f, 1 }, { 0.2f, 1, 0.4f, 1 }, { 0.3f, 0.5f, 1, 1 },
                                   { 1, 1, 0.3f, 1 }, { 1, 0.3f, 1, 1 } };
    eg_scene_vtx_t v[36], *o = v;
    o = ndc_rect(o, -1, 0, 1, 1, 0.5f, 0.5f, c[0]);           /* Replace: top half */
    o = ndc_rect(o, -1, -1, -0.5f, 1, 0.5f, 0.5f, c[1]);      /* Invert: left quarter */
    o = ndc_rect(o, -0.5f, -1, 0.5f, 1, 0.5f, 0.5f, c[2]);    /* Equal, ref 0x0F */
    o = ndc_rect(o, 0, -1, 1, 1, 0.5f, 0.5f, c[3]);           /* Equal, ref 0x00 */
    const eg_scene_vtx_t tri[3] = { { -0.9f, -0.95f, 0.5f, 1, 1, 0.3f, 1, 1 }, { 0.95f, -0.95f, 0.5f, 1, 1, 0.3f, 1, 1 },
                                    { 0.2f, 0.95f, 0.5f, 1, 1, 0.3f, 1, 1 } };
    o[0] = tri[0]; o[1] = tri[1]; o[2] = tri[2];
    static const uint32_t ref[5] = { 0xA5, 0, 0x0F, 0x00, 0xAF };
    static const uint32_t pi[5] = { 0, 1, 2, 2, 3 };
    static const uint32_t first[5] = { 0, 6, 12, 18, 24 }, count[5] = { 6, 6, 6, 6, 3 };
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, cv, k_dark, dv, df, 1.0f, 0x0F);
    for (int i = 0; i < 5; i++) {
        wgpuRenderPassEncoderSetPipeline(pass, pipe[pi[i]]);
        wgpuRenderPassEncoderSetStencilReference(pass, ref[i]);
        eg_scene_draw_vertices(s, pass, v + first[i], count[i]);
    }
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, color, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, hh);
    eg_scene_readback(s, ds, df, 0, hh, s->w, hh);
}
