/* Conformance scenes: instancing, vertex formats, indexed / restart / indirect draws, scissor, viewport. */
#include "tests/scenes/scenes.h"

#include <string.h>

static const float k_dark[4] = { 0.08f, 0.08f, 0.1f, 1 };

/* One pass on a fresh RGBA8 target with `pipe`; `record` issues the draws. */
typedef void (*record_fn)(eg_scene_t *s, WGPURenderPassEncoder pass, void *user);
static void one_pass(eg_scene_t *s, WGPURenderPipeline pipe, WGPUTextureView depth, record_fn record,
                     void *user)
{
    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    if (s->fail) return;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, k_dark, depth, WGPUTextureFormat_Depth32Float,
                                               1.0f, 0);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    record(s, pass, user);
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

/* ---- instancing ---- */

typedef struct inst {
    float offset_scale[4];
    uint8_t rgba[4];
} inst_t;

static void record_instancing(eg_scene_t *s, WGPURenderPassEncoder pass, void *user)
{
    WGPUBuffer *b = user;
    (void)s;
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, b[0], 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 1, b[1], 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDraw(pass, 3, 8, 0, 0);    /* triangles: instances 0..7 */
    wgpuRenderPassEncoderDraw(pass, 6, 4, 3, 8);    /* quads: instances 8..11 (firstInstance 8) */
}

/* A triangle and a square shape (per-vertex buffer) placed by 12 instances (per-instance buffer:
 * offset, scale, unorm8x4 color); gl_InstanceIndex darkens the odd ones. */
void eg_scene_instancing(eg_scene_t *s)
{
    static const float shape[9][2] = { { -1, -1 }, { 1, -1 }, { 0, 1 },
                                       { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { -1, 1 } };
    inst_t in[12];
    for (int i = 0; i < 12; i++) {
        float x = -0.75f + 0.5f * (float)(i % 4), y = 0.7f - 0.65f * (float)(i / 4);
        inst_t q = { { x, y, 0.1f + 0.02f * (float)(i % 4), 0 },
                     { (uint8_t)(60 + 60 * (i % 4)), (uint8_t)(255 - 70 * (i / 4)), (uint8_t)(40 * i), 255 } };
        in[i] = q;
    }
    static const WGPUVertexAttribute a0[1] = { { NULL, WGPUVertexFormat_Float32x2, 0, 0 } };
    static const WGPUVertexAttribute a1[2] = { { NULL, WGPUVertexFormat_Float32x4, 0, 1 },
                                               { NULL, WGPUVertexFormat_Unorm8x4, 16, 2 } };
    WGPUVertexBufferLayout vb[2] = {
        { NULL, WGPUVertexStepMode_Vertex, 8, 1, a0 },
        { NULL, WGPUVertexStepMode_Instance, sizeof(inst_t), 2, a1 },
    };
    eg_scene_pipe_t p = { .vs = "scene_inst.vert", .fs = "scene_color.frag", .vbuf_count = 2, .vbufs = vb };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    WGPUBuffer b[2] = { eg_scene_buffer(s, WGPUBufferUsage_Vertex, shape, sizeof shape),
                        eg_scene_buffer(s, WGPUBufferUsage_Vertex, in, sizeof in) };
    if (s->fail) return;
    one_pass(s, pipe, NULL, record_instancing, b);
}

/* ---- vertex formats ---- */

typedef struct vfmt {
    int16_t pos[2];       /* snorm16x2 */
    uint8_t color[4];     /* unorm8x4 */
    uint16_t offset[2];   /* float16x2 */
    uint8_t id[2], pad[2];/* uint8x2 */
    float scale;          /* float32 */
    uint32_t tint;        /* unorm10-10-10-2 */
    int16_t pair[2];      /* sint16x2 */
} vfmt_t;

static void record_vfmt(eg_scene_t *s, WGPURenderPassEncoder pass, void *user)
{
    (void)s;
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, *(WGPUBuffer *)user, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDraw(pass, 24, 1, 0, 0);
}

/* Four quads, each vertex built from seven attribute formats. */
void eg_scene_vertex_formats(eg_scene_t *s)
{
    static const int16_t corner[6][2] = { { -32767, -32767 }, { 32767, -32767 }, { 32767, 32767 },
                                          { -32767, -32767 }, { 32767, 32767 }, { -32767, 32767 } };
    static const uint16_t half_off[4][2] = { { 0xB800, 0x3800 }, { 0x3800, 0x3800 },   /* (-.5,.5) (.5,.5) */
                                             { 0xB800, 0xB800 }, { 0x3800, 0xB800 } }; /* (-.5,-.5) (.5,-.5) */
    vfmt_t v[24];
    memset(v, 0, sizeof v);
    for (int q = 0; q < 4; q++) {
        for (int k = 0; k < 6; k++) {
            vfmt_t *o = &v[q * 6 + k];
            o->pos[0] = corner[k][0];
            o->pos[1] = corner[k][1];
            o->color[0] = (uint8_t)(k < 3 ? 255 : 64 * q);
            o->color[1] = (uint8_t)(80 * k);
            o->color[2] = (uint8_t)(255 - 60 * q);
            o->color[3] = 255;
            o->offset[0] = half_off[q][0];
            o->offset[1] = half_off[q][1];
            o->id[0] = (uint8_t)(20 * q);
            o->id[1] = (uint8_t)(10 * k);
            o->scale = 0.2f + 0.06f * (float)q;
            o->tint = (1023u - 200u * (uint32_t)q) | 1023u << 10 | (300u + 150u * (uint32_t)k) << 20 |
                      (uint32_t)(q % 4) << 30;
            o->pair[0] = (int16_t)(40 * k - 100);
            o->pair[1] = (int16_t)(-30 * q);
        }
    }
    static const WGPUVertexAttribute a[7] = {
        { NULL, WGPUVertexFormat_Snorm16x2, 0, 0 }, { NULL, WGPUVertexFormat_Unorm8x4, 4, 1 },
        { NULL, WGPUVertexFormat_Float16x2, 8, 2 }, { NULL, WGPUVertexFormat_Uint8x2, 12, 3 },
        { NULL, WGPUVertexFormat_Float32, 16, 4 }, { NULL, WGPUVertexFormat_Unorm10_10_10_2, 20, 5 },
        { NULL, WGPUVertexFormat_Sint16x2, 24, 6 },
    };
    WGPUVertexBufferLayout vb = { NULL, WGPUVertexStepMode_Vertex, sizeof(vfmt_t), 7, a };
    eg_scene_pipe_t p = { .vs = "scene_vfmt.vert", .fs = "scene_color.frag", .vbuf_count = 1, .vbufs = &vb };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    WGPUBuffer b = eg_scene_buffer(s, WGPUBufferUsage_Vertex, v, sizeof v);
    if (s->fail) return;
    one_pass(s, pipe, NULL, record_vfmt, &b);
}

/* ---- indexed draws ---- */

typedef struct indexed {
    WGPUBuffer vb, ib16, ib32;
} indexed_t;

static void record_indexed(eg_scene_t *s, WGPURenderPassEncoder pass, void *user)
{
    indexed_t *x = user;
    (void)s;
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, x->vb, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderSetIndexBuffer(pass, x->ib16, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDrawIndexed(pass, 24, 1, 0, 0, 0);          /* grid 0, all cells */
    wgpuRenderPassEncoderDrawIndexed(pass, 12, 1, 12, 9, 0);         /* grid 1, last two cells */
    wgpuRenderPassEncoderSetIndexBuffer(pass, x->ib32, WGPUIndexFormat_Uint32, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDrawIndexed(pass, 24, 1, 0, 18 - 100000, 0); /* grid 2: negative base vertex */
    wgpuRenderPassEncoderDrawIndexed(pass, 18, 1, 6, 27 - 100000, 0); /* grid 3: cells 1..3 */
}

/* Four 3x3 vertex grids (one per quadrant, 36 vertices); uint16 indices 0..8 and uint32 indices
 * 100000..100008 reach them through firstIndex and (negative) baseVertex. */
void eg_scene_indexed(eg_scene_t *s)
{
    eg_scene_vtx_t v[36];
    for (int g = 0; g < 4; g++)
        for (int i = 0; i < 9; i++) {
            float x = (g % 2 ? 0.05f : -0.95f) + 0.45f * (float)(i % 3);
            float y = (g / 2 ? -0.05f : 0.95f) - 0.45f * (float)(i / 3) + (i == 4 ? 0.15f : 0.0f);
            eg_scene_vtx_t q = { x, y, 0.5f, 1, (float)(i % 3) / 2.0f, (float)(i / 3) / 2.0f,
                                 (float)g / 3.0f, 1 };
            v[g * 9 + i] = q;
        }
    uint16_t i16[24];
    uint32_t i32[24];
    for (int c = 0, n = 0; c < 4; c++) {
        int a = (c % 2) + (c / 2) * 3; /* top-left vertex of cell c */
        const int tri[6] = { a, a + 3, a + 4, a, a + 4, a + 1 };
        for (int k = 0; k < 6; k++, n++) {
            i16[n] = (uint16_t)tri[k];
            i32[n] = 100000u + (uint32_t)tri[k];
        }
    }
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag" };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    indexed_t x = { eg_scene_buffer(s, WGPUBufferUsage_Vertex, v, sizeof v),
                    eg_scene_buffer(s, WGPUBufferUsage_Index, i16, sizeof i16),
                    eg_scene_buffer(s, WGPUBufferUsage_Index, i32, sizeof i32) };
    if (s->fail) return;
    one_pass(s, pipe, NULL, record_indexed, &x);
}

typedef struct restart {
    WGPUBuffer vb, ib16, ib32;
    WGPURenderPipeline strip32;
} restart_t;

static void record_restart(eg_scene_t *s, WGPURenderPassEncoder pass, void *user)
{
    restart_t *x = user;
    (void)s;
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, x->vb, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderSetIndexBuffer(pass, x->ib16, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDrawIndexed(pass, 20, 1, 0, 0, 0);
    wgpuRenderPassEncoderSetPipeline(pass, x->strip32);
    wgpuRenderPassEncoderSetIndexBuffer(pass, x->ib32, WGPUIndexFormat_Uint32, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDrawIndexed(pass, 20, 1, 0, 18, 0); /* restart is tested before baseVertex */
}

/* Triangle strips cut by primitive restart: three ribbons of 6 vertices per index format
 * (top: uint16 with 0xFFFF, bottom: uint32 with 0xFFFFFFFF and baseVertex 18). */
void eg_scene_index_restart(eg_scene_t *s)
{
    eg_scene_vtx_t v[36];
    for (int half = 0; half < 2; half++)
        for (int r = 0; r < 3; r++)
            for (int k = 0; k < 6; k++) {
                float x = -0.9f + 0.36f * (float)k, y = (half ? -0.1f : 0.9f) - 0.28f * (float)r - (k % 2 ? 0.2f : 0.0f);
                eg_scene_vtx_t q = { x, y, 0.5f, 1, (float)r / 2.0f, (float)k / 5.0f, half ? 1.0f : 0.3f, 1 };
                v[half * 18 + r * 6 + k] = q;
            }
    uint16_t i16[20];
    uint32_t i32[20];
    for (int n = 0, r = 0; r < 3; r++) {
        for (int k = 0; k < 6; k++, n++) {
            i16[n] = (uint16_t)(r * 6 + k);
            i32[n] = (uint32_t)(r * 6 + k);
        }
        if (r < 2) {
            i16[n] = 0xFFFFu;
            i32[n] = 0xFFFFFFFFu;
            n++;
        }
    }
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag",
                          .topology = WGPUPrimitiveTopology_TriangleStrip, .strip_index = WGPUIndexFormat_Uint16 };
    WGPURenderPipeline strip16 = eg_scene_pipeline(s, &p);
    p.strip_index = WGPUIndexFormat_Uint32;
    restart_t x = { eg_scene_buffer(s, WGPUBufferUsage_Vertex, v, sizeof v),
                    eg_scene_buffer(s, WGPUBufferUsage_Index, i16, sizeof i16),
                    eg_scene_buffer(s, WGPUBufferUsage_Index, i32, sizeof i32), eg_scene_pipeline(s, &p) };
    if (s->fail) return;
    one_pass(s, strip16, NULL, record_restart, &x);
}

typedef struct indirect {
    WGPUBuffer vb, ib, args;
} indirect_t;

static void record_indirect(eg_scene_t *s, WGPURenderPassEncoder pass, void *user)
{
    indirect_t *x = user;
    (void)s;
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, x->vb, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderSetIndexBuffer(pass, x->ib, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDrawIndirect(pass, x->args, 0);
    wgpuRenderPassEncoderDrawIndirect(pass, x->args, 16);
    wgpuRenderPassEncoderDrawIndexedIndirect(pass, x->args, 32);
    wgpuRenderPassEncoderDrawIndexedIndirect(pass, x->args, 52);
    wgpuRenderPassEncoderDrawIndirect(pass, x->args, 72);    /* instanceCount 0: nothing */
}

/* drawIndirect and drawIndexedIndirect with arguments from a buffer: five triangles of six are
 * drawn (vertex 0..2 never; an instanceCount-0 draw adds nothing). */
void eg_scene_indirect(eg_scene_t *s)
{
    eg_scene_vtx_t v[18];
    for (int t = 0; t < 6; t++) {
        float cx = -0.6f + 0.6f * (float)(t % 3), cy = t < 3 ? 0.45f : -0.45f;
        const float d[3][2] = { { -0.25f, -0.3f }, { 0.25f, -0.3f }, { 0.0f, 0.35f } };
        for (int k = 0; k < 3; k++) {
            eg_scene_vtx_t q = { cx + d[k][0], cy + d[k][1], 0.5f, 1, (float)(t % 3) / 2.0f, k == 2 ? 1.0f : 0.3f,
                                 (float)t / 5.0f, 1 };
            v[t * 3 + k] = q;
        }
    }
    static const uint16_t idx[6] = { 0, 1, 2, 2, 0, 1 };
    static const uint32_t args[22] = {
        3, 1, 3, 0,             /* offset 0: draw triangle 1 */
        6, 1, 6, 0,             /* offset 16: triangles 2 and 3 */
        3, 1, 0, 12, 0,         /* offset 32: indexed, baseVertex 12: triangle 4 */
        3, 1, 3, 15, 0,         /* offset 52: indexed, firstIndex 3, baseVertex 15: triangle 5 */
        3, 0, 0, 0,             /* offset 72: instanceCount 0 */
    };
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag" };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    indirect_t x = { eg_scene_buffer(s, WGPUBufferUsage_Vertex, v, sizeof v),
                     eg_scene_buffer(s, WGPUBufferUsage_Index, idx, sizeof idx),
                     eg_scene_buffer(s, WGPUBufferUsage_Indirect, args, sizeof args) };
    if (s->fail) return;
    one_pass(s, pipe, NULL, record_indirect, &x);
}

/* ---- scissor and viewport ---- */

static void record_scissor(eg_scene_t *s, WGPURenderPassEncoder pass, void *user)
{
    (void)user;
    uint32_t W = s->w, H = s->h;
    const uint32_t r[5][4] = { { 0, 0, W / 2, H / 2 }, { W / 4, H / 4, W / 2, H / 2 }, { W - 5, H - 5, 5, 5 },
                               { 0, H * 3 / 4, W, 1 }, { W / 2 + 3, 2, 1, H / 2 } };
    for (int i = 0; i < 5; i++) {
        float c[4] = { i == 0 || i == 3 ? 1.0f : 0.2f, i == 1 || i == 3 ? 1.0f : 0.3f, i >= 2 ? 1.0f : 0.2f, 1 };
        eg_scene_vtx_t v[6];
        eg_scene_rect(s, v, 0, 0, (float)W, (float)H, 0.5f, c);
        v[0].r = v[3].r = 0.0f; /* a corner gradient, so each rectangle shows where it was cut */
        wgpuRenderPassEncoderSetScissorRect(pass, r[i][0], r[i][1], r[i][2], r[i][3]);
        eg_scene_draw_vertices(s, pass, v, 6);
    }
}

/* Full-screen quads through five scissor rectangles (one a single row, one a single column). */
void eg_scene_scissor(eg_scene_t *s)
{
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag" };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    if (s->fail) return;
    one_pass(s, pipe, NULL, record_scissor, NULL);
}

static void record_viewport(eg_scene_t *s, WGPURenderPassEncoder pass, void *user)
{
    (void)user;
    static const float range[4][2] = { { 0, 1 }, { 0.5f, 1 }, { 0, 0.5f }, { 0.25f, 0.75f } };
    float hw = (float)(s->w / 2), hh = (float)(s->h / 2);
    const float gray[4] = { 0.5f, 0.5f, 0.5f, 1 };
    for (int q = 0; q < 4; q++) {
        float x = (float)(q % 2) * hw, y = (float)(q / 2) * hh;
        /* a reference quad at depth 0.5 with the full depth range */
        wgpuRenderPassEncoderSetViewport(pass, x, y, hw, hh, 0, 1);
        eg_scene_vtx_t v[9];
        const eg_scene_t unit = { .w = 2, .h = 2 }; /* eg_scene_rect in NDC-sized "pixels" */
        eg_scene_rect(&unit, v, 0.2f, 0.2f, 1.8f, 1.8f, 0.5f, gray);
        eg_scene_draw_vertices(s, pass, v, 6);
        /* a triangle with depth 0 (left) to 1 (right), through the quadrant's depth range */
        wgpuRenderPassEncoderSetViewport(pass, x, y, hw, hh, range[q][0], range[q][1]);
        const eg_scene_vtx_t t[3] = { { -0.95f, -0.9f, 0, 1, 1, 0.3f, 0.2f, 1 }, { 0.95f, -0.2f, 1, 1, 0.2f, 0.4f, 1, 1 },
                                      { -0.95f, 0.9f, 0, 1, 1, 0.9f, 0.2f, 1 } };
        eg_scene_draw_vertices(s, pass, t, 3);
    }
}

/* Four viewports (quadrants) with depth ranges [0,1], [0.5,1], [0,0.5], [0.25,0.75]: a triangle
 * whose depth goes 0 -> 1 left to right shows in front of a depth-0.5 quad only where its
 * mapped depth is less (compare Less, depth32float). */
void eg_scene_viewport(eg_scene_t *s)
{
    WGPUTexture d = eg_scene_texture(s, WGPUTextureFormat_Depth32Float, s->w, s->h, 1, 1, 1,
                                     WGPUTextureUsage_RenderAttachment);
    WGPUTextureView dv = eg_scene_view(s, d, 0);
    eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag",
                          .depth_format = WGPUTextureFormat_Depth32Float,
                          .depth_compare = WGPUCompareFunction_Less, .depth_write = true };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    if (s->fail) return;
    one_pass(s, pipe, dv, record_viewport, NULL);
}
