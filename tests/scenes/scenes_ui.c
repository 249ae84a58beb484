/* Conformance scenes: an embedded-UI frame (gradient, SDF rounded rectangles, glyph quads) and a
 * textured, lit, depth-tested perspective mesh (a procedural torus). */
#include "tests/scenes/scenes.h"

#include "examples/demo/font5x7.h"

#include <string.h>

/* ---- UI ---- */

typedef struct ui_vtx {
    float pos[2];       /* logical pixels, top-left origin */
    float local[2];     /* rounded rect: offset from its centre; glyph: atlas uv */
    uint8_t rgba[4];    /* unorm8x4 */
    float params[4];    /* half width, half height, radius, mode */
} ui_vtx_t;

#define UI_LOGICAL_PX 64.0f
#define UI_MAX_QUADS 24

typedef struct ui_batch {
    ui_vtx_t v[UI_MAX_QUADS * 6];
    uint32_t n;
} ui_batch_t;

/* Appends a quad; corner colors c0 (top) and c1 (bottom); local coordinates l0 (top left) to l1. */
static void ui_quad(ui_batch_t *b, float x0, float y0, float x1, float y1, const uint8_t c0[4],
                    const uint8_t c1[4], float lx0, float ly0, float lx1, float ly1, const float params[4])
{
    if (b->n + 6 > UI_MAX_QUADS * 6) return;
    const float p[6][4] = { { x0, y1, lx0, ly1 }, { x1, y1, lx1, ly1 }, { x1, y0, lx1, ly0 },
                            { x0, y1, lx0, ly1 }, { x1, y0, lx1, ly0 }, { x0, y0, lx0, ly0 } };
    for (int i = 0; i < 6; i++) {
        ui_vtx_t *o = &b->v[b->n++];
        o->pos[0] = p[i][0];
        o->pos[1] = p[i][1];
        o->local[0] = p[i][2];
        o->local[1] = p[i][3];
        memcpy(o->rgba, p[i][1] == y0 ? c0 : c1, 4);
        memcpy(o->params, params, sizeof o->params);
    }
}

static void ui_round_rect(ui_batch_t *b, float x0, float y0, float x1, float y1, float radius,
                          const uint8_t c[4])
{
    float hw = (x1 - x0) / 2, hh = (y1 - y0) / 2;
    const float params[4] = { hw, hh, radius, 1 };
    ui_quad(b, x0, y0, x1, y1, c, c, -hw, -hh, hw, hh, params);
}

static void ui_text(ui_batch_t *b, float x, float y, const char *text, const uint8_t c[4])
{
    const float params[4] = { 0, 0, 0, 2 };
    for (; *text; text++, x += FONT5X7_CELL_W) {
        uint32_t g = font5x7_index(*text);
        float u0 = (float)((g % 16u) * FONT5X7_CELL_W) / FONT5X7_ATLAS_W;
        float v0 = (float)((g / 16u) * FONT5X7_CELL_H) / FONT5X7_ATLAS_H;
        ui_quad(b, x, y, x + FONT5X7_CELL_W, y + FONT5X7_CELL_H, c, c, u0,
                v0, u0 + (float)FONT5X7_CELL_W / FONT5X7_ATLAS_W, v0 + (float)FONT5X7_CELL_H / FONT5X7_ATLAS_H,
                params);
    }
}

/* A 64x64 logical frame scaled to the image: a vertical gradient background, a translucent
 * panel, a button, a round status light, text (5x7 glyph atlas generated from font5x7.h,
 * linear filtering, source-over blending). */
void eg_scene_ui(eg_scene_t *s)
{
    static const WGPUVertexAttribute a[4] = {
        { NULL, WGPUVertexFormat_Float32x2, 0, 0 }, { NULL, WGPUVertexFormat_Float32x2, 8, 1 },
        { NULL, WGPUVertexFormat_Unorm8x4, 16, 2 }, { NULL, WGPUVertexFormat_Float32x4, 20, 3 },
    };
    static const WGPUBlendState over = {
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
        { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha },
    };
    static ui_batch_t b; /* 3.5 KiB: off the (small) Cortex-M stack */
    WGPUVertexBufferLayout vb = { NULL, WGPUVertexStepMode_Vertex, sizeof(ui_vtx_t), 4, a };
    WGPUBindGroupLayout bgl = eg_scene_bgl(s, "uts", WGPUShaderStage_Vertex | WGPUShaderStage_Fragment);
    eg_scene_pipe_t p = { .vs = "scene_ui.vert", .fs = "scene_ui.frag", .vbuf_count = 1, .vbufs = &vb,
                          .bgl_count = 1, .bgl = { bgl } };
    p.blend[0] = &over;
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    static uint8_t atlas[FONT5X7_ATLAS_W * FONT5X7_ATLAS_H];
    font5x7_atlas(atlas);
    WGPUTexture at = eg_scene_texture(s, WGPUTextureFormat_R8Unorm, FONT5X7_ATLAS_W, FONT5X7_ATLAS_H, 1, 1, 1,
                                      WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    eg_scene_write_texture(s, at, 0, 0, FONT5X7_ATLAS_W, FONT5X7_ATLAS_H, 1, atlas);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.magFilter = sd.minFilter = WGPUFilterMode_Linear;
    const float scale[4] = { 2.0f / UI_LOGICAL_PX, 2.0f / UI_LOGICAL_PX, 0, 0 };
    const void *res[3] = { eg_scene_buffer(s, WGPUBufferUsage_Uniform, scale, sizeof scale),
                           eg_scene_view(s, at, 0), eg_scene_sampler(s, &sd) };
    WGPUBindGroup bg = eg_scene_bind_group(s, bgl, 3, res, "bvs");
    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    if (s->fail) return;

    b.n = 0;
    const uint8_t top[4] = { 40, 60, 120, 255 }, bottom[4] = { 10, 12, 30, 255 };
    const float gradient[4] = { 0, 0, 0, 0 };
    ui_quad(&b, 0, 0, UI_LOGICAL_PX, UI_LOGICAL_PX, top, bottom, 0, 0, 0, 0, gradient);
    const uint8_t panel[4] = { 255, 255, 255, 48 }, button[4] = { 40, 130, 240, 235 };
    const uint8_t green[4] = { 60, 220, 110, 255 }, white[4] = { 250, 250, 250, 255 };
    const uint8_t amber[4] = { 255, 190, 40, 255 };
    ui_round_rect(&b, 3, 3, 61, 29, 6, panel);
    ui_round_rect(&b, 5, 36, 37, 54, 8, button);
    ui_round_rect(&b, 44, 38.5f, 57, 51.5f, 6.5f, green);
    ui_text(&b, 7, 6, "EMGPU", white);
    ui_text(&b, 7, 17, "12.5V", amber);
    ui_text(&b, 15, 41, "OK", white);
    WGPUBuffer vbuf = eg_scene_buffer(s, WGPUBufferUsage_Vertex, b.v, b.n * sizeof(ui_vtx_t));
    if (s->fail) return;

    const float clear[4] = { 0, 0, 0, 1 };
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, clear, NULL, 0, 0, 0);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    wgpuRenderPassEncoderSetBindGroup(pass, 0, bg, 0, NULL);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, vbuf, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDraw(pass, b.n, 1, 0, 0);
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

/* ---- 3D mesh ---- */

typedef struct mesh_vtx {
    float pos[3], normal[3], uv[2];
} mesh_vtx_t;

#define TORUS_RINGS 16
#define TORUS_SIDES 8

/* Column-major 4x4: m[col * 4 + row]. out = a * b. */
static void mat4_mul(float out[16], const float a[16], const float b[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float acc = 0;
            for (int k = 0; k < 4; k++) acc += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = acc;
        }
}

/* A torus (major radius 1, minor 0.4) with an 8x8 checker texture, rotated, seen in perspective
 * (WebGPU clip depth 0..1), depth24plus compare Less, back faces culled (front = CCW). */
void eg_scene_mesh3d(eg_scene_t *s)
{
    static mesh_vtx_t v[(TORUS_RINGS + 1) * (TORUS_SIDES + 1)];
    static uint16_t idx[TORUS_RINGS * TORUS_SIDES * 6];
    for (int i = 0; i <= TORUS_RINGS; i++)
        for (int j = 0; j <= TORUS_SIDES; j++) {
            float sa, ca, sb, cb;
            eg_scene_sincos((float)i / TORUS_RINGS, &sa, &ca);
            eg_scene_sincos((float)j / TORUS_SIDES, &sb, &cb);
            mesh_vtx_t *o = &v[i * (TORUS_SIDES + 1) + j];
            float ring = 1.0f + 0.4f * cb;
            mesh_vtx_t q = { { ring * ca, 0.4f * sb, ring * sa }, { cb * ca, sb, cb * sa },
                             { (float)i / TORUS_RINGS * 4.0f, (float)j / TORUS_SIDES } };
            *o = q;
        }
    uint32_t n = 0;
    for (int i = 0; i < TORUS_RINGS; i++)
        for (int j = 0; j < TORUS_SIDES; j++) {
            /* p00 -> p01 -> p11 is counter-clockwise seen from outside (cross(Tb, Ta) points out) */
            uint16_t p00 = (uint16_t)(i * (TORUS_SIDES + 1) + j), p01 = (uint16_t)(p00 + 1);
            uint16_t p10 = (uint16_t)(p00 + TORUS_SIDES + 1), p11 = (uint16_t)(p10 + 1);
            const uint16_t t[6] = { p00, p01, p11, p00, p11, p10 };
            for (int k = 0; k < 6; k++) idx[n++] = t[k];
        }
    /* model = translate(0, 0, -3.2) * rotate_x(0.15 turn) * rotate_y(0.1 turn) */
    float sx, cx, sy, cy;
    eg_scene_sincos(0.15f, &sx, &cx);
    eg_scene_sincos(0.1f, &sy, &cy);
    const float rx[16] = { 1, 0, 0, 0, 0, cx, sx, 0, 0, -sx, cx, 0, 0, 0, 0, 1 };
    const float ry[16] = { cy, 0, -sy, 0, 0, 1, 0, 0, sy, 0, cy, 0, 0, 0, 0, 1 };
    const float tr[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -3.2f, 1 };
    /* perspective: f = 2 (fov about 53 degrees), aspect 1, near 1, far 10, depth 0..1 */
    const float zn = 1.0f, zf = 10.0f;
    const float proj[16] = { 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, zf / (zn - zf), -1, 0, 0, zn * zf / (zn - zf), 0 };
    struct { float mvp[16], model[16], light[4]; } u;
    float rot[16], tmp[16];
    mat4_mul(rot, rx, ry);
    mat4_mul(tmp, tr, rot);
    mat4_mul(u.mvp, proj, tmp);
    memcpy(u.model, rot, sizeof rot);
    const float light[4] = { 0.48f, 0.64f, 0.6f, 0 }; /* unit length: .2304 + .4096 + .36 = 1 */
    memcpy(u.light, light, sizeof light);

    uint8_t checker[8 * 8 * 4];
    for (uint32_t i = 0; i < 64; i++) {
        int on = ((i % 8) / 2 + (i / 8) / 2) % 2;
        checker[i * 4 + 0] = on ? 240 : 200;
        checker[i * 4 + 1] = on ? 180 : 60;
        checker[i * 4 + 2] = on ? 60 : 50;
        checker[i * 4 + 3] = 255;
    }
    WGPUTexture tex = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                                       WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    eg_scene_write_texture(s, tex, 0, 0, 8, 8, 4, checker);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.addressModeU = sd.addressModeV = WGPUAddressMode_Repeat;
    sd.magFilter = sd.minFilter = WGPUFilterMode_Linear;
    WGPUBindGroupLayout bgl = eg_scene_bgl(s, "uts", WGPUShaderStage_Vertex | WGPUShaderStage_Fragment);
    const void *res[3] = { eg_scene_buffer(s, WGPUBufferUsage_Uniform, &u, sizeof u), eg_scene_view(s, tex, 0),
                           eg_scene_sampler(s, &sd) };
    WGPUBindGroup bg = eg_scene_bind_group(s, bgl, 3, res, "bvs");
    static const WGPUVertexAttribute a[3] = {
        { NULL, WGPUVertexFormat_Float32x3, 0, 0 }, { NULL, WGPUVertexFormat_Float32x3, 12, 1 },
        { NULL, WGPUVertexFormat_Float32x2, 24, 2 },
    };
    WGPUVertexBufferLayout vb = { NULL, WGPUVertexStepMode_Vertex, sizeof(mesh_vtx_t), 3, a };
    eg_scene_pipe_t p = { .vs = "scene_mesh.vert", .fs = "scene_mesh.frag", .vbuf_count = 1, .vbufs = &vb,
                          .cull = WGPUCullMode_Back, .depth_format = WGPUTextureFormat_Depth24Plus,
                          .depth_compare = WGPUCompareFunction_Less, .depth_write = true,
                          .bgl_count = 1, .bgl = { bgl } };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    WGPUBuffer vbuf = eg_scene_buffer(s, WGPUBufferUsage_Vertex, v, sizeof v);
    WGPUBuffer ibuf = eg_scene_buffer(s, WGPUBufferUsage_Index, idx, sizeof idx);
    WGPUTexture depth = eg_scene_texture(s, WGPUTextureFormat_Depth24Plus, s->w, s->h, 1, 1, 1,
                                         WGPUTextureUsage_RenderAttachment);
    WGPUTextureView dv = eg_scene_view(s, depth, 0), tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    if (s->fail) return;
    const float sky[4] = { 0.15f, 0.18f, 0.25f, 1 };
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, sky, dv, WGPUTextureFormat_Depth24Plus, 1.0f, 0);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    wgpuRenderPassEncoderSetBindGroup(pass, 0, bg, 0, NULL);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, vbuf, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderSetIndexBuffer(pass, ibuf, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDrawIndexed(pass, n, 1, 0, 0, 0);
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}
