/* Conformance scenes: clears and copies, every primitive topology, culling, built-ins, interpolation. */
#include "tests/scenes/scenes.h"

static const float k_black[4] = { 0, 0, 0, 1 };
static const float k_navy[4] = { 0.05f, 0.05f, 0.2f, 1 };

/* Clear, copyTextureToTexture and WriteTexture only: what every backend does first. */
void eg_scene_clear_copy(eg_scene_t *s)
{
    WGPUTextureView tv, pv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    WGPUTexture patch = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, s->w / 2, s->h / 2, 1, 1, 1,
                                         WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    pv = eg_scene_view(s, patch, WGPUTextureViewDimension_Undefined);
    if (s->fail) return;
    const float teal[4] = { 0.1f, 0.6f, 0.6f, 1 };
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    eg_scene_end_pass(eg_scene_pass(s, enc, tv, k_navy, NULL, 0, 0, 0));
    eg_scene_end_pass(eg_scene_pass(s, enc, pv, teal, NULL, 0, 0, 0));
    WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT, dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    src.texture = patch;
    dst.texture = t;
    dst.origin = (WGPUOrigin3D){ s->w / 8, s->h / 8, 0 };
    WGPUExtent3D size = { s->w / 2, s->h / 4, 1 };
    wgpuCommandEncoderCopyTextureToTexture(enc, &src, &dst, &size);
    eg_scene_submit(s, enc);
    /* A 8x8 gradient written at the bottom right corner. */
    uint8_t px[8 * 8 * 4];
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            uint8_t *p = px + (y * 8 + x) * 4;
            p[0] = (uint8_t)(x * 36);
            p[1] = (uint8_t)(y * 36);
            p[2] = 128;
            p[3] = 255;
        }
    WGPUTexelCopyTextureInfo wt = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    wt.texture = t;
    wt.origin = (WGPUOrigin3D){ s->w - 10, s->h - 10, 0 };
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = 32;
    layout.rowsPerImage = 8;
    WGPUExtent3D wsize = { 8, 8, 1 };
    wgpuQueueWriteTexture(s->queue, &wt, px, sizeof px, &layout, &wsize);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

/* Renders `count` default vertices with one pipeline into a fresh target and reads it back. */
static void draw_simple(eg_scene_t *s, const eg_scene_pipe_t *p, const eg_scene_vtx_t *v, uint32_t count)
{
    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    WGPURenderPipeline pipe = eg_scene_pipeline(s, p);
    if (s->fail) return;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, k_black, NULL, 0, 0, 0);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    eg_scene_draw_vertices(s, pass, v, count);
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

static eg_scene_vtx_t vtx(const eg_scene_t *s, float x_px, float y_px, float r, float g, float b)
{
    eg_scene_vtx_t v = { eg_scene_ndc_x(s, x_px), eg_scene_ndc_y(s, y_px), 0.5f, 1.0f, r, g, b, 1.0f };
    return v;
}

/* An 8x8 grid of points at pixel centres, colors by position. */
void eg_scene_points(eg_scene_t *s)
{
    eg_scene_vtx_t v[64];
    float step = (float)s->w / 8.0f;
    for (uint32_t i = 0; i < 64; i++) {
        float x = (float)(int)(step * (float)(i % 8) + step / 2.0f) + 0.5f;
        float y = (float)(int)(step * (float)(i / 8) + step / 2.0f) + 0.5f;
        v[i] = vtx(s, x, y, (float)(i % 8) / 7.0f, (float)(i / 8) / 7.0f, 1.0f - (float)(i % 8) / 7.0f);
    }
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag",
                          .topology = WGPUPrimitiveTopology_PointList };
    draw_simple(s, &p, v, 64);
}

/* Line list (left half: horizontal, vertical, diagonal, shallow) and a line strip zigzag (right). */
void eg_scene_lines(eg_scene_t *s)
{
    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    eg_scene_pipe_t pl = { .vs = "scene_color.vert", .fs = "scene_color.frag",
                           .topology = WGPUPrimitiveTopology_LineList };
    eg_scene_pipe_t ps = pl;
    ps.topology = WGPUPrimitiveTopology_LineStrip;
    WGPURenderPipeline list = eg_scene_pipeline(s, &pl), strip = eg_scene_pipeline(s, &ps);
    if (s->fail) return;
    float W = (float)s->w, H = (float)s->h, h2 = W / 2.0f;
    eg_scene_vtx_t l[8] = {
        vtx(s, 2.5f, 3.5f, 1, 0, 0), vtx(s, h2 - 2.5f, 3.5f, 1, 1, 0),         /* horizontal */
        vtx(s, 4.5f, 6.5f, 0, 1, 0), vtx(s, 4.5f, H - 4.5f, 0, 1, 1),           /* vertical */
        vtx(s, 8.5f, 8.5f, 1, 1, 1), vtx(s, h2 - 3.5f, H - 3.5f, 0, 0, 1),      /* diagonal */
        vtx(s, 8.5f, H - 6.5f, 1, 0, 1), vtx(s, h2 - 2.5f, H / 2.0f + 0.5f, 1, 0.5f, 0), /* shallow */
    };
    eg_scene_vtx_t z[6];
    for (int i = 0; i < 6; i++)
        z[i] = vtx(s, h2 + 2.5f + (float)i * (W / 2.0f - 5.0f) / 5.0f, i % 2 ? H - 5.5f : 4.5f,
                   (float)i / 5.0f, 1.0f - (float)i / 5.0f, 0.5f);
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, k_black, NULL, 0, 0, 0);
    wgpuRenderPassEncoderSetPipeline(pass, list);
    eg_scene_draw_vertices(s, pass, l, 8);
    wgpuRenderPassEncoderSetPipeline(pass, strip);
    eg_scene_draw_vertices(s, pass, z, 6);
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

/* Overlapping triangles: interpolated colors, a sliver, one clipped by the viewport edge, one
 * crossing the near plane (z < 0 is clipped), one with w != 1 (perspective-correct colors). */
void eg_scene_tri_list(eg_scene_t *s)
{
    float W = (float)s->w, H = (float)s->h;
    eg_scene_vtx_t v[15] = {
        vtx(s, 0.1f * W, 0.9f * H, 1, 0, 0), vtx(s, 0.6f * W, 0.8f * H, 0, 1, 0), vtx(s, 0.3f * W, 0.1f * H, 0, 0, 1),
        vtx(s, 0.4f * W, 0.95f * H, 1, 1, 0), vtx(s, 1.3f * W, 0.5f * H, 0, 1, 1), vtx(s, 0.7f * W, -0.2f * H, 1, 0, 1),
        vtx(s, 0.05f * W, 0.3f * H, 1, 1, 1), vtx(s, 0.95f * W, 0.34f * H, 1, 1, 1), vtx(s, 0.05f * W, 0.32f * H, 1, 1, 1),
        vtx(s, 0.1f * W, 0.05f * H, 1, 0.5f, 0), vtx(s, 0.5f * W, 0.05f * H, 1, 0.5f, 0), vtx(s, 0.3f * W, 0.45f * H, 0, 0.5f, 1),
        vtx(s, 0.55f * W, 0.6f * H, 1, 0, 0), vtx(s, 0.95f * W, 0.6f * H, 0, 0, 1), vtx(s, 0.75f * W, 0.98f * H, 0, 1, 0),
    };
    v[10].z = -0.5f;  /* near-plane crossing: the part with z < 0 is clipped away */
    v[11].z = 0.9f;
    /* w = 4 at one vertex: same screen position, colors interpolate perspective-correctly */
    v[13].x *= 4.0f; v[13].y *= 4.0f; v[13].z *= 4.0f; v[13].w = 4.0f;
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag" };
    draw_simple(s, &p, v, 15);
}

/* A ribbon as one triangle strip of 10 vertices with alternating colors. */
void eg_scene_tri_strip(eg_scene_t *s)
{
    eg_scene_vtx_t v[10];
    float W = (float)s->w, H = (float)s->h;
    for (int i = 0; i < 10; i++) {
        float x = W * (0.05f + 0.1f * (float)i), wave = (i / 2) % 2 ? 0.1f : -0.1f;
        float y = H * (0.5f + wave + (i % 2 ? 0.2f : -0.2f));
        v[i] = vtx(s, x, y, i % 2 ? 1.0f : 0.2f, (float)i / 9.0f, i % 3 ? 0.3f : 1.0f);
    }
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag",
                          .topology = WGPUPrimitiveTopology_TriangleStrip };
    draw_simple(s, &p, v, 10);
}

/* Quadrants: cull none/CCW, front/CCW, back/CCW, back/CW; each draws a CCW (left) and a CW
 * (right) triangle, so each quadrant shows a different subset. */
void eg_scene_cull(eg_scene_t *s)
{
    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    static const WGPUCullMode cull[4] = { WGPUCullMode_None, WGPUCullMode_Front, WGPUCullMode_Back,
                                          WGPUCullMode_Back };
    static const WGPUFrontFace front[4] = { WGPUFrontFace_CCW, WGPUFrontFace_CCW, WGPUFrontFace_CCW,
                                            WGPUFrontFace_CW };
    WGPURenderPipeline pipe[4];
    for (int q = 0; q < 4; q++) {
        eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag", .cull = cull[q],
                              .front = front[q] };
        pipe[q] = eg_scene_pipeline(s, &p);
    }
    if (s->fail) return;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, k_navy, NULL, 0, 0, 0);
    float hw = (float)s->w / 2.0f, hh = (float)s->h / 2.0f;
    for (int q = 0; q < 4; q++) {
        float x0 = (float)(q % 2) * hw, y0 = (float)(q / 2) * hh;
        eg_scene_vtx_t v[6] = {
            /* CCW on screen (y down in pixels = clockwise in pixel space, CCW in NDC) */
            vtx(s, x0 + 0.05f * hw, y0 + 0.9f * hh, 1, 0.3f, 0.3f), vtx(s, x0 + 0.45f * hw, y0 + 0.9f * hh, 1, 0.3f, 0.3f),
            vtx(s, x0 + 0.25f * hw, y0 + 0.1f * hh, 1, 1, 0.3f),
            /* CW */
            vtx(s, x0 + 0.55f * hw, y0 + 0.9f * hh, 0.3f, 1, 0.3f), vtx(s, x0 + 0.75f * hw, y0 + 0.1f * hh, 0.3f, 1, 1),
            vtx(s, x0 + 0.95f * hw, y0 + 0.9f * hh, 0.3f, 1, 0.3f),
        };
        wgpuRenderPassEncoderSetPipeline(pass, pipe[q]);
        eg_scene_draw_vertices(s, pass, v, 6);
    }
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

/* FragCoord, FrontFacing and discard: a CCW and a CW triangle, culling off. */
void eg_scene_builtins(eg_scene_t *s)
{
    float W = (float)s->w, H = (float)s->h;
    eg_scene_vtx_t v[6] = {
        vtx(s, 0.02f * W, 0.98f * H, 1, 1, 1), vtx(s, 0.7f * W, 0.98f * H, 1, 1, 1), vtx(s, 0.02f * W, 0.1f * H, 1, 1, 1),
        vtx(s, 0.98f * W, 0.02f * H, 1, 1, 1), vtx(s, 0.98f * W, 0.9f * H, 1, 1, 1), vtx(s, 0.3f * W, 0.02f * H, 1, 1, 1),
    };
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_builtins.frag" };
    draw_simple(s, &p, v, 6);
}

/* Three quads (top to bottom): perspective-correct, flat and noperspective interpolation of
 * the same colors; the right edge has w = 3. Flat colors are equal at the first and last vertex
 * of each triangle, so first- and last-vertex provoking conventions agree. */
void eg_scene_interp(eg_scene_t *s)
{
    eg_scene_vtx_t v[18];
    float W = (float)s->w, H = (float)s->h;
    for (int q = 0; q < 3; q++) {
        float y0 = H * (0.04f + 0.33f * (float)q), y1 = y0 + H * 0.28f;
        eg_scene_vtx_t lb = vtx(s, 0.04f * W, y1, 1, 0, 0), rb = vtx(s, 0.96f * W, y1, 0, 0, 1);
        eg_scene_vtx_t rt = vtx(s, 0.96f * W, y0, 0, 1, 0), lt = vtx(s, 0.04f * W, y0, 1, 1, 0);
        eg_scene_vtx_t *r[2] = { &rb, &rt };
        for (int i = 0; i < 2; i++) {
            r[i]->x *= 3.0f; r[i]->y *= 3.0f; r[i]->z *= 3.0f; r[i]->w = 3.0f;
        }
        eg_scene_vtx_t *o = v + q * 6;
        o[0] = lb; o[1] = rb; o[2] = rt; o[3] = lb; o[4] = rt; o[5] = lt;
        o[2].r = o[0].r; o[2].g = o[0].g; o[2].b = o[0].b;   /* flat: first == last vertex color */
        o[5].r = o[3].r + 0.0f; o[5].g = 0.5f; o[5].b = 0.5f;
        o[3].g = 0.5f; o[3].b = 0.5f;
    }
    eg_scene_pipe_t p = { .vs = "scene_interp.vert", .fs = "scene_interp.frag" };
    draw_simple(s, &p, v, 18);
}
