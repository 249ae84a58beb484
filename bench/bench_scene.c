/* Benchmark scenes 1-5 (issue #8) on any WebGPU device: resources, geometry, pipelines, frames. */
#include "bench/bench_scene.h"

#include "examples/demo/font5x7.h"
#include "tests/shaders/spv_embed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- device and waiting ---- */

static void on_adapter(WGPURequestAdapterStatus st, WGPUAdapter a, WGPUStringView m, void *u1, void *u2)
{
    (void)u2;
    if (st != WGPURequestAdapterStatus_Success && m.data) {
        char line[300];
        snprintf(line, sizeof line, "bench: adapter: %.*s\n", (int)(m.length == WGPU_STRLEN ? strlen(m.data) : m.length), m.data);
        bench_say(line);
    }
    *(WGPUAdapter *)u1 = st == WGPURequestAdapterStatus_Success ? a : NULL;
}

static void on_device(WGPURequestDeviceStatus st, WGPUDevice d, WGPUStringView m, void *u1, void *u2)
{
    (void)m;
    (void)u2;
    *(WGPUDevice *)u1 = st == WGPURequestDeviceStatus_Success ? d : NULL;
}

static void on_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1, void *u2)
{
    (void)device;
    (void)u2;
    char line[400];
    if ((*(unsigned *)u1)++ >= 3) return;
    snprintf(line, sizeof line, "bench: WebGPU error %d: %.*s\n", (int)type,
             message.data ? (int)(message.length == WGPU_STRLEN ? strlen(message.data) : message.length) : 0,
             message.data ? message.data : "");
    bench_say(line);
}

int bench_wait(WGPUInstance inst, WGPUFuture f)
{
    WGPUFutureWaitInfo wait = WGPU_FUTURE_WAIT_INFO_INIT;
    wait.future = f;
    for (long i = 0; i < 100000000L; i++) {
        WGPUWaitStatus st = wgpuInstanceWaitAny(inst, 1, &wait, 0);
        if (st == WGPUWaitStatus_Success) return wait.completed != 0;
        if (st != WGPUWaitStatus_TimedOut) return 0;
    }
    return 0;
}

WGPUDevice bench_device(WGPUInstance inst, WGPUBackendType backend, unsigned *errors)
{
    WGPUAdapter adapter = NULL;
    WGPUDevice dev = NULL;
    WGPURequestAdapterOptions opt = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    if (backend == WGPUBackendType_Undefined) opt.forceFallbackAdapter = WGPU_TRUE;
    else opt.backendType = backend;
    WGPURequestAdapterCallbackInfo acb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    acb.mode = WGPUCallbackMode_WaitAnyOnly;
    acb.callback = on_adapter;
    acb.userdata1 = &adapter;
    if (!bench_wait(inst, wgpuInstanceRequestAdapter(inst, &opt, acb)) || !adapter) return NULL;
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.uncapturedErrorCallbackInfo.callback = on_error;
    dd.uncapturedErrorCallbackInfo.userdata1 = errors;
    WGPURequestDeviceCallbackInfo dcb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    dcb.mode = WGPUCallbackMode_WaitAnyOnly;
    dcb.callback = on_device;
    dcb.userdata1 = &dev;
    if (!bench_wait(inst, wgpuAdapterRequestDevice(adapter, &dd, dcb))) dev = NULL;
    wgpuAdapterRelease(adapter);
    return dev;
}

static void on_done(WGPUQueueWorkDoneStatus st, WGPUStringView m, void *u1, void *u2)
{
    (void)m;
    (void)u2;
    *(int *)u1 = st == WGPUQueueWorkDoneStatus_Success;
}

int bench_queue_idle(WGPUInstance inst, WGPUQueue q)
{
    int ok = 0;
    WGPUQueueWorkDoneCallbackInfo cb = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
    cb.mode = WGPUCallbackMode_WaitAnyOnly;
    cb.callback = on_done;
    cb.userdata1 = &ok;
    return bench_wait(inst, wgpuQueueOnSubmittedWorkDone(q, cb)) && ok;
}

static void on_map(WGPUMapAsyncStatus st, WGPUStringView m, void *u1, void *u2)
{
    (void)m;
    (void)u2;
    *(int *)u1 = st == WGPUMapAsyncStatus_Success;
}

const uint8_t *bench_map_readback(WGPUInstance inst, bench_scene_t *s)
{
    int ok = 0;
    size_t size_B = (size_t)s->row_B * s->h;
    WGPUBufferMapCallbackInfo cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
    cb.mode = WGPUCallbackMode_WaitAnyOnly;
    cb.callback = on_map;
    cb.userdata1 = &ok;
    if (!bench_wait(inst, wgpuBufferMapAsync(s->readback, WGPUMapMode_Read, 0, size_B, cb)) || !ok) return NULL;
    return wgpuBufferGetConstMappedRange(s->readback, 0, size_B);
}

uint32_t bench_image_hash(const bench_scene_t *s, const uint8_t *img)
{
    uint32_t h = 2166136261u;
    for (uint32_t y = 0; y < s->h; y++)
        for (uint32_t i = 0; i < s->w * s->px_B; i++) h = (h ^ img[(size_t)y * s->row_B + i]) * 16777619u;
    return h;
}

/* ---- resource helpers ---- */

static uint32_t rng_state;

static uint32_t rng(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static float rngf(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng() & 0xFFFFu) / 65535.0f;
}

static WGPUShaderModule shader(WGPUDevice dev, const char *name)
{
    const eg_test_spv_t *spv = eg_test_spv(name);
    if (!spv) {
        bench_say("bench: a shader is not embedded: ");
        bench_say(name);
        bench_say("\n");
        return NULL;
    }
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = spv->words;
    src.codeSize = spv->word_count;
    WGPUShaderModuleDescriptor sd = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    sd.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(dev, &sd);
}

/* A buffer mapped at creation when `mapped`; its mapping is returned in *map. */
static WGPUBuffer buffer(WGPUDevice dev, WGPUBufferUsage usage, uint64_t size_B, void **map)
{
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = usage;
    bd.size = (size_B + 3u) & ~(uint64_t)3u;
    bd.mappedAtCreation = map != NULL;
    WGPUBuffer b = wgpuDeviceCreateBuffer(dev, &bd);
    if (map) *map = b ? wgpuBufferGetMappedRange(b, 0, (size_t)bd.size) : NULL;
    return b;
}

static WGPUTexture texture(WGPUDevice dev, WGPUTextureFormat f, uint32_t w, uint32_t h, WGPUTextureUsage u)
{
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.usage = u;
    td.size.width = w;
    td.size.height = h;
    td.format = f;
    return wgpuDeviceCreateTexture(dev, &td);
}

static uint32_t format_px_B(WGPUTextureFormat f)
{
    return f == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : f == WGPUTextureFormat_R8Unorm ? 1u : 4u;
}

/* Layout entries: bit i of `uniform_mask`, `tex_mask`, `sampler_mask` says what binding i is. */
static int layout(bench_scene_t *s, uint32_t n, uint32_t uniform_mask, uint32_t tex_mask)
{
    WGPUBindGroupLayoutEntry e[3];
    for (uint32_t i = 0; i < n; i++) {
        WGPUBindGroupLayoutEntry z = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
        e[i] = z;
        e[i].binding = i;
        e[i].visibility = WGPUShaderStage_Vertex | WGPUShaderStage_Fragment;
        if (uniform_mask >> i & 1u) {
            e[i].buffer.type = WGPUBufferBindingType_Uniform;
        } else if (tex_mask >> i & 1u) {
            e[i].texture.sampleType = WGPUTextureSampleType_Float;
            e[i].texture.viewDimension = WGPUTextureViewDimension_2D;
        } else {
            e[i].sampler.type = WGPUSamplerBindingType_Filtering;
        }
    }
    WGPUPipelineLayoutDescriptor pl = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    if (n) {
        WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
        ld.entryCount = n;
        ld.entries = e;
        s->bgl = wgpuDeviceCreateBindGroupLayout(s->dev, &ld);
        if (!s->bgl) return 0;
        pl.bindGroupLayoutCount = 1;
        pl.bindGroupLayouts = &s->bgl;
    }
    s->layout = wgpuDeviceCreatePipelineLayout(s->dev, &pl);
    if (!s->layout || !n) return s->layout != NULL;
    WGPUBindGroupEntry be[3];
    for (uint32_t i = 0; i < n; i++) {
        WGPUBindGroupEntry z = WGPU_BIND_GROUP_ENTRY_INIT;
        be[i] = z;
        be[i].binding = i;
        if (uniform_mask >> i & 1u) be[i].buffer = s->ubuf;
        else if (tex_mask >> i & 1u) be[i].textureView = s->tex_view;
        else be[i].sampler = s->sampler;
    }
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = s->bgl;
    bd.entryCount = n;
    bd.entries = be;
    s->bg = wgpuDeviceCreateBindGroup(s->dev, &bd);
    return s->bg != NULL;
}

typedef struct pipe_desc {
    const char *vs, *fs;
    const WGPUVertexBufferLayout *vb;
    uint32_t vb_count;
    WGPUPrimitiveTopology topology;
    int blend, depth;
} pipe_desc_t;

static WGPURenderPipeline pipeline(bench_scene_t *s, const pipe_desc_t *p)
{
    static const WGPUBlendState over = {
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
        { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha },
    };
    WGPUShaderModule vs = shader(s->dev, p->vs), fs = shader(s->dev, p->fs);
    WGPURenderPipeline out = NULL;
    if (vs && fs) {
        WGPUColorTargetState ct = WGPU_COLOR_TARGET_STATE_INIT;
        ct.format = s->fmt;
        ct.blend = p->blend ? &over : NULL;
        WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
        fst.module = fs;
        fst.targetCount = 1;
        fst.targets = &ct;
        WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
        ds.format = WGPUTextureFormat_Depth24Plus;
        ds.depthWriteEnabled = WGPUOptionalBool_True;
        ds.depthCompare = WGPUCompareFunction_Less;
        WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
        pd.layout = s->layout;
        pd.vertex.module = vs;
        pd.vertex.bufferCount = p->vb_count;
        pd.vertex.buffers = p->vb;
        pd.primitive.topology = p->topology;
        pd.primitive.cullMode = p->depth ? WGPUCullMode_Back : WGPUCullMode_None;
        pd.depthStencil = p->depth ? &ds : NULL;
        pd.fragment = &fst;
        out = wgpuDeviceCreateRenderPipeline(s->dev, &pd);
    }
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    return out;
}

/* A full-screen quad: 4 NDC corners as a triangle strip. */
static int quad_vbuf(bench_scene_t *s)
{
    static const float corners[8] = { -1, 1, 1, 1, -1, -1, 1, -1 };
    void *m;
    s->vbuf = buffer(s->dev, WGPUBufferUsage_Vertex, sizeof corners, &m);
    if (!s->vbuf || !m) return 0;
    memcpy(m, corners, sizeof corners);
    wgpuBufferUnmap(s->vbuf);
    return 1;
}

/* The texture s->tex (tex_w x tex_h of format f) and its staging buffer, filled by `fill` with
 * rows of upload_row_B bytes; the copy is encoded with the first frame. */
static void *texture_upload(bench_scene_t *s, WGPUTextureFormat f, uint32_t w, uint32_t h)
{
    s->tex = texture(s->dev, f, w, h, WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    if (!s->tex) return NULL;
    s->tex_view = wgpuTextureCreateView(s->tex, NULL);
    s->tex_w = w;
    s->tex_h = h;
    s->upload_row_B = (w * format_px_B(f) + 255u) & ~255u;
    void *m;
    s->upload = buffer(s->dev, WGPUBufferUsage_CopySrc, (uint64_t)s->upload_row_B * h, &m);
    return s->upload ? m : NULL;
}

/* ---- scenes ---- */

static int init_blit(bench_scene_t *s)
{
    uint8_t *m = texture_upload(s, s->fmt, s->w, s->h);
    if (!m) return 0;
    for (uint32_t y = 0; y < s->h; y++)
        for (uint32_t x = 0; x < s->w; x++) {
            uint8_t *p = m + (size_t)y * s->upload_row_B + (size_t)x * s->px_B;
            uint32_t r = x * 255u / s->w, g = y * 255u / s->h, b = ((x >> 4) ^ (y >> 4)) & 1u ? 200u : 40u;
            if (s->px_B == 2) {
                uint16_t v = (uint16_t)((r >> 3) << 11 | (g >> 2) << 5 | b >> 3);
                memcpy(p, &v, 2);
            } else {
                p[0] = (uint8_t)r;
                p[1] = (uint8_t)g;
                p[2] = (uint8_t)b;
                p[3] = 255;
            }
        }
    wgpuBufferUnmap(s->upload);
    static const WGPUVertexAttribute a = { NULL, WGPUVertexFormat_Float32x2, 0, 0 };
    const WGPUVertexBufferLayout vb = { NULL, WGPUVertexStepMode_Vertex, 8, 1, &a };
    const pipe_desc_t pd = { "bench_quad.vert", "bench_blit.frag", &vb, 1, WGPUPrimitiveTopology_TriangleStrip, 0, 0 };
    if (!quad_vbuf(s) || !layout(s, 2, 0, 1u)) return 0;
    s->pipe[0] = pipeline(s, &pd);
    return s->pipe[0] != NULL;
}

static int init_alu(bench_scene_t *s)
{
    static const WGPUVertexAttribute a = { NULL, WGPUVertexFormat_Float32x2, 0, 0 };
    const WGPUVertexBufferLayout vb = { NULL, WGPUVertexStepMode_Vertex, 8, 1, &a };
    const pipe_desc_t pd = { "bench_quad.vert", "bench_alu.frag", &vb, 1, WGPUPrimitiveTopology_TriangleStrip, 0, 0 };
    if (!quad_vbuf(s) || !layout(s, 0, 0, 0)) return 0;
    s->pipe[0] = pipeline(s, &pd);
    return s->pipe[0] != NULL;
}

typedef struct ui_inst {
    float rect[4], uv[4];
    uint8_t c0[4], c1[4];
    float radius;
} ui_inst_t;

static void hue_rgb(uint32_t i, uint8_t out[3])
{
    /* HSV(i * 360 / 50 degrees, 0.7, 0.9) */
    float h = (float)i * 6.0f / (float)BENCH_UI_RECTS, v = 0.9f, c = v * 0.7f;
    float x = c * (1.0f - fabsf(fmodf(h, 2.0f) - 1.0f)), m = v - c;
    float rgb[3] = { 0, 0, 0 };
    int k = (int)h;
    const int ci[6] = { 0, 1, 1, 2, 2, 0 }, xi[6] = { 1, 0, 2, 1, 0, 2 };
    rgb[ci[k % 6]] = c;
    rgb[xi[k % 6]] = x;
    for (int j = 0; j < 3; j++) out[j] = (uint8_t)((rgb[j] + m) * 255.0f + 0.5f);
}

static const char ui_label[] = "Sensor NN: T=23.5C P=1013.2hPa RH=45.0% Vcc=3.301V";

/* Appends the 40 labels' glyph quads at in[n...]; returns the new count. Glyph cells of 6x8 atlas
 * texels are drawn as 7x16 pixel quads: 14 px tall glyphs, 7 px advance. Spaces are not drawn (as
 * in any text renderer). */
static uint32_t ui_labels(ui_inst_t *in, uint32_t n, uint8_t a50)
{
    for (uint32_t j = 0; j < BENCH_UI_LABELS; j++) {
        float x0 = (float)(4u + 400u * (j / 20u)), y0 = (float)(2u + 24u * (j % 20u));
        uint8_t alpha = (j & 1u) ? a50 : 255;
        char text[sizeof ui_label];
        memcpy(text, ui_label, sizeof text);
        text[7] = (char)('0' + j / 10u);
        text[8] = (char)('0' + j % 10u);
        for (uint32_t k = 0; k < sizeof ui_label - 1u; k++) {
            if (text[k] == ' ') continue;
            uint32_t g = font5x7_index(text[k]);
            float u0 = (float)((g % 16u) * FONT5X7_CELL_W) / FONT5X7_ATLAS_W;
            float v0 = (float)((g / 16u) * FONT5X7_CELL_H) / FONT5X7_ATLAS_H;
            ui_inst_t q = { { x0 + 7.0f * (float)k, y0, 7, 16 },
                            { u0, v0, u0 + (float)FONT5X7_CELL_W / FONT5X7_ATLAS_W, v0 + (float)FONT5X7_CELL_H / FONT5X7_ATLAS_H },
                            { 255, 255, 255, alpha }, { 255, 255, 255, alpha }, 0 };
            in[n++] = q;
        }
    }
    return n;
}

static int init_ui(bench_scene_t *s)
{
    static uint8_t atlas[FONT5X7_ATLAS_W * FONT5X7_ATLAS_H];
    uint8_t *m = texture_upload(s, WGPUTextureFormat_R8Unorm, FONT5X7_ATLAS_W, FONT5X7_ATLAS_H);
    if (!m) return 0;
    font5x7_atlas(atlas);
    for (uint32_t y = 0; y < FONT5X7_ATLAS_H; y++) memcpy(m + y * s->upload_row_B, atlas + y * FONT5X7_ATLAS_W, FONT5X7_ATLAS_W);
    wgpuBufferUnmap(s->upload);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT; /* nearest */
    s->sampler = wgpuDeviceCreateSampler(s->dev, &sd);

    static const float corners[8] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    void *cm;
    s->vbuf = buffer(s->dev, WGPUBufferUsage_Vertex, sizeof corners, &cm);
    if (!s->vbuf || !cm) return 0;
    memcpy(cm, corners, sizeof corners);
    wgpuBufferUnmap(s->vbuf);

    ui_inst_t *in;
    s->ibuf = buffer(s->dev, WGPUBufferUsage_Vertex, BENCH_UI_MAX_INST * sizeof(ui_inst_t), (void **)&in);
    if (!s->ibuf || !in) return 0;
    const uint8_t a50 = s->variant ? 255 : 128;
    uint32_t n = 0;
    ui_inst_t bg = { { 0, 0, (float)s->w, (float)s->h }, { 0, 0, 0, 0 }, { 0x10, 0x20, 0x40, 255 }, { 0x40, 0x80, 0xC0, 255 }, 0 };
    in[n++] = bg;
    for (uint32_t i = 0; i < BENCH_UI_RECTS; i++) {
        uint32_t c = i % 10u, r = i / 10u;
        ui_inst_t q = { { (float)(10u + 68u * c + 34u * (r & 1u)), (float)(12u + 92u * r), 120, 80 }, { 0, 0, 0, 0 },
                        { 0, 0, 0, a50 }, { 0, 0, 0, a50 }, 12 };
        hue_rgb(i, q.c0);
        memcpy(q.c1, q.c0, 3);
        in[n++] = q;
    }
    s->inst_count[0] = 1;
    s->inst_count[1] = BENCH_UI_RECTS;
    n = ui_labels(in, n, a50);
    s->inst_count[2] = n - 1u - BENCH_UI_RECTS;
    wgpuBufferUnmap(s->ibuf);

    const float scale[4] = { 2.0f / (float)s->w, 2.0f / (float)s->h, 0, 0 };
    void *um;
    s->ubuf = buffer(s->dev, WGPUBufferUsage_Uniform, sizeof scale, &um);
    if (!s->ubuf || !um) return 0;
    memcpy(um, scale, sizeof scale);
    wgpuBufferUnmap(s->ubuf);
    if (!layout(s, 3, 1u, 2u)) return 0;
    /* profiling: BENCH_UI_DRAWS=2 draws only the rounded rectangles (1 background, 2 rectangles,
     * 4 glyphs; default 7), to split the frame's time between its three kinds of content */
    const char *draws = getenv("BENCH_UI_DRAWS");
#ifndef BENCH_UI_DRAWS_DEFAULT   /* bare-metal runners have no environment: EXTRA_CFLAGS=-DBENCH_UI_DRAWS_DEFAULT=N */
#define BENCH_UI_DRAWS_DEFAULT 7u
#endif
    s->ui_draws = (draws ? (uint32_t)strtoul(draws, NULL, 0) : (uint32_t)(BENCH_UI_DRAWS_DEFAULT)) & 7u;

    static const WGPUVertexAttribute corner_a = { NULL, WGPUVertexFormat_Float32x2, 0, 0 };
    static const WGPUVertexAttribute inst_a[5] = {
        { NULL, WGPUVertexFormat_Float32x4, 0, 1 }, { NULL, WGPUVertexFormat_Float32x4, 16, 2 },
        { NULL, WGPUVertexFormat_Unorm8x4, 32, 3 }, { NULL, WGPUVertexFormat_Unorm8x4, 36, 4 },
        { NULL, WGPUVertexFormat_Float32, 40, 5 },
    };
    const WGPUVertexBufferLayout vb[2] = {
        { NULL, WGPUVertexStepMode_Vertex, 8, 1, &corner_a },
        { NULL, WGPUVertexStepMode_Instance, sizeof(ui_inst_t), 5, inst_a },
    };
    const char *fs[3] = { "bench_ui_fill.frag", "bench_ui_rrect.frag", "bench_ui_glyph.frag" };
    for (int i = 0; i < 3; i++) {
        const pipe_desc_t pd = { "bench_ui.vert", fs[i], vb, 2, WGPUPrimitiveTopology_TriangleStrip, i > 0, 0 };
        s->pipe[i] = pipeline(s, &pd);
        if (!s->pipe[i]) return 0;
    }
    return 1;
}

typedef struct tri_vtx {
    float pos[2];
    uint8_t rgba[4];
} tri_vtx_t;

static int init_tris(bench_scene_t *s)
{
    tri_vtx_t *v;
    s->count = BENCH_TRIS_COUNT * 3u;
    s->vbuf = buffer(s->dev, WGPUBufferUsage_Vertex, (uint64_t)s->count * sizeof *v, (void **)&v);
    if (!s->vbuf || !v) return 0;
    rng_state = 12345u;
    /* Each triangle: three corners at 5..25 px from a random centre (10-50 px across). */
    for (uint32_t t = 0; t < BENCH_TRIS_COUNT; t++) {
        float cx = rngf(0, (float)s->w), cy = rngf(0, (float)s->h);
        for (uint32_t k = 0; k < 3; k++) {
            float ang = 2.0943951f * (float)k + rngf(-0.5f, 0.5f), rad = rngf(5.0f, 25.0f);
            tri_vtx_t q = { { (cx + rad * cosf(ang)) * 2.0f / (float)s->w - 1.0f, 1.0f - (cy + rad * sinf(ang)) * 2.0f / (float)s->h },
                            { (uint8_t)rng(), (uint8_t)rng(), (uint8_t)rng(), 255 } };
            v[t * 3u + k] = q;
        }
    }
    wgpuBufferUnmap(s->vbuf);
    static const WGPUVertexAttribute a[2] = { { NULL, WGPUVertexFormat_Float32x2, 0, 0 }, { NULL, WGPUVertexFormat_Unorm8x4, 8, 1 } };
    const WGPUVertexBufferLayout vb = { NULL, WGPUVertexStepMode_Vertex, sizeof(tri_vtx_t), 2, a };
    const pipe_desc_t pd = { "bench_tri.vert", s->variant ? "bench_tri_flat.frag" : "bench_tri.frag", &vb, 1,
                             WGPUPrimitiveTopology_TriangleList, 0, 0 };
    if (!layout(s, 0, 0, 0)) return 0;
    s->pipe[0] = pipeline(s, &pd);
    return s->pipe[0] != NULL;
}

typedef struct mesh_vtx {
    float pos[3], uv[2];
} mesh_vtx_t;

/* Column-major 4x4 product out = a * b. */
static void mat4_mul(float out[16], const float a[16], const float b[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float acc = 0;
            for (int k = 0; k < 4; k++) acc += a[k * 4 + r] * b[c * 4 + k];
            out[c * 4 + r] = acc;
        }
}

static int init_mesh(bench_scene_t *s)
{
    const uint32_t R = BENCH_MESH_RINGS, S = BENCH_MESH_SIDES, nv = (R + 1u) * (S + 1u);
    mesh_vtx_t *v;
    uint16_t *idx;
    s->count = R * S * 6u;
    s->vbuf = buffer(s->dev, WGPUBufferUsage_Vertex, nv * sizeof *v, (void **)&v);
    s->ibuf = buffer(s->dev, WGPUBufferUsage_Index, s->count * sizeof *idx, (void **)&idx);
    if (!s->vbuf || !s->ibuf || !v || !idx) return 0;
    for (uint32_t i = 0; i <= R; i++)   /* a torus, major radius 1, minor 0.4 */
        for (uint32_t j = 0; j <= S; j++) {
            float a = 6.2831853f * (float)i / (float)R, b = 6.2831853f * (float)j / (float)S;
            float ring = 1.0f + 0.4f * cosf(b);
            mesh_vtx_t q = { { ring * cosf(a), 0.4f * sinf(b), ring * sinf(a) }, { 4.0f * (float)i / (float)R, (float)j / (float)S } };
            v[i * (S + 1u) + j] = q;
        }
    uint32_t n = 0;
    for (uint32_t i = 0; i < R; i++)
        for (uint32_t j = 0; j < S; j++) {
            uint16_t p00 = (uint16_t)(i * (S + 1u) + j), p01 = (uint16_t)(p00 + 1u);
            uint16_t p10 = (uint16_t)(p00 + S + 1u), p11 = (uint16_t)(p10 + 1u);
            const uint16_t t[6] = { p00, p01, p11, p00, p11, p10 };
            memcpy(idx + n, t, sizeof t);
            n += 6;
        }
    wgpuBufferUnmap(s->vbuf);
    wgpuBufferUnmap(s->ibuf);

    uint8_t *m = texture_upload(s, WGPUTextureFormat_RGBA8Unorm, 256, 256);
    if (!m) return 0;
    for (uint32_t y = 0; y < 256; y++)
        for (uint32_t x = 0; x < 256; x++) {
            uint8_t *p = m + y * s->upload_row_B + x * 4u;
            int on = ((x >> 5) ^ (y >> 5)) & 1;
            p[0] = on ? 240 : (uint8_t)x;
            p[1] = on ? 200 : (uint8_t)y;
            p[2] = on ? 60 : 160;
            p[3] = 255;
        }
    wgpuBufferUnmap(s->upload);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.magFilter = sd.minFilter = WGPUFilterMode_Linear;
    sd.addressModeU = sd.addressModeV = WGPUAddressMode_Repeat;
    s->sampler = wgpuDeviceCreateSampler(s->dev, &sd);

    const float ax = 0.9f, ay = 0.5f, aspect = (float)s->w / (float)s->h;
    const float ry[16] = { cosf(ay), 0, -sinf(ay), 0, 0, 1, 0, 0, sinf(ay), 0, cosf(ay), 0, 0, 0, 0, 1 };
    const float rx[16] = { 1, 0, 0, 0, 0, cosf(ax), sinf(ax), 0, 0, -sinf(ax), cosf(ax), 0, 0, 0, 0, 1 };
    const float zn = 1.0f, zf = 10.0f, f = 1.8f;
    const float proj[16] = { f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, zf / (zn - zf), -1, 0, 0, zn * zf / (zn - zf), 0 };
    const float tr[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -3.0f, 1 };
    float rot[16], model[16], *mvp;
    mat4_mul(rot, rx, ry);
    mat4_mul(model, tr, rot);
    s->ubuf = buffer(s->dev, WGPUBufferUsage_Uniform, 64, (void **)&mvp);
    if (!s->ubuf || !mvp) return 0;
    mat4_mul(mvp, proj, model);
    wgpuBufferUnmap(s->ubuf);
    if (!layout(s, 3, 1u, 2u)) return 0;

    s->depth = texture(s->dev, WGPUTextureFormat_Depth24Plus, s->w, s->h, WGPUTextureUsage_RenderAttachment);
    if (!s->depth) return 0;
    s->depth_view = wgpuTextureCreateView(s->depth, NULL);
    static const WGPUVertexAttribute a[2] = { { NULL, WGPUVertexFormat_Float32x3, 0, 0 }, { NULL, WGPUVertexFormat_Float32x2, 12, 1 } };
    const WGPUVertexBufferLayout vb = { NULL, WGPUVertexStepMode_Vertex, sizeof(mesh_vtx_t), 2, a };
    const pipe_desc_t pd = { "bench_mesh.vert", "bench_mesh.frag", &vb, 1, WGPUPrimitiveTopology_TriangleList, 0, 1 };
    s->pipe[0] = pipeline(s, &pd);
    return s->pipe[0] != NULL;
}

int bench_scene_init(bench_scene_t *s, WGPUDevice dev, int id, int variant, uint32_t w, uint32_t h,
                     WGPUTextureFormat fmt)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    s->variant = variant;
    s->dev = dev;
    s->w = w;
    s->h = h;
    s->fmt = fmt;
    s->px_B = format_px_B(fmt);
    s->row_B = (w * s->px_B + 255u) & ~255u;
    s->target = texture(dev, fmt, w, h, WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    s->readback = buffer(dev, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, (uint64_t)s->row_B * h, NULL);
    if (!s->target || !s->readback) return 0;
    s->target_view = wgpuTextureCreateView(s->target, NULL);
    if (id == BENCH_BLIT) {
        WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
        s->sampler = wgpuDeviceCreateSampler(dev, &sd);
    }
    switch (id) {
    case BENCH_BLIT: return init_blit(s);
    case BENCH_UI: return init_ui(s);
    case BENCH_TRIS: return init_tris(s);
    case BENCH_MESH: return init_mesh(s);
    case BENCH_ALU: return init_alu(s);
    default: return 0;
    }
}

void bench_scene_frame(bench_scene_t *s, WGPUCommandEncoder enc)
{
    if (s->upload && !s->uploaded) {
        WGPUTexelCopyBufferInfo src = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
        src.buffer = s->upload;
        src.layout.bytesPerRow = s->upload_row_B;
        src.layout.rowsPerImage = s->tex_h;
        WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
        dst.texture = s->tex;
        WGPUExtent3D size = { s->tex_w, s->tex_h, 1 };
        wgpuCommandEncoderCopyBufferToTexture(enc, &src, &dst, &size);
        s->uploaded = 1;
    }
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = s->target_view;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ 0.1, 0.1, 0.1, 1 };
    WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    da.view = s->depth_view;
    da.depthLoadOp = WGPULoadOp_Clear;
    da.depthStoreOp = WGPUStoreOp_Discard;
    da.depthClearValue = 1.0f;
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 1;
    rp.colorAttachments = &ca;
    rp.depthStencilAttachment = s->depth_view ? &da : NULL;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    if (s->bg) wgpuRenderPassEncoderSetBindGroup(pass, 0, s->bg, 0, NULL);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, s->vbuf, 0, WGPU_WHOLE_SIZE);
    switch (s->id) {
    case BENCH_BLIT:
    case BENCH_ALU:
        wgpuRenderPassEncoderSetPipeline(pass, s->pipe[0]);
        wgpuRenderPassEncoderDraw(pass, 4, 1, 0, 0);
        break;
    case BENCH_UI: {
        uint32_t first = 0;
        for (int i = 0; i < 3; i++) {
            if (!(s->ui_draws >> i & 1u)) {
                first += s->inst_count[i];
                continue;
            }
            wgpuRenderPassEncoderSetPipeline(pass, s->pipe[i]);
            wgpuRenderPassEncoderSetVertexBuffer(pass, 1, s->ibuf, (uint64_t)first * sizeof(ui_inst_t), WGPU_WHOLE_SIZE);
            wgpuRenderPassEncoderDraw(pass, 4, s->inst_count[i], 0, 0);
            first += s->inst_count[i];
        }
        break;
    }
    case BENCH_TRIS:
        wgpuRenderPassEncoderSetPipeline(pass, s->pipe[0]);
        wgpuRenderPassEncoderDraw(pass, s->count, 1, 0, 0);
        break;
    case BENCH_MESH:
        wgpuRenderPassEncoderSetPipeline(pass, s->pipe[0]);
        wgpuRenderPassEncoderSetIndexBuffer(pass, s->ibuf, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
        wgpuRenderPassEncoderDrawIndexed(pass, s->count, 1, 0, 0, 0);
        break;
    default:
        break;
    }
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
}

void bench_scene_copy_out(bench_scene_t *s, WGPUCommandEncoder enc)
{
    WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    src.texture = s->target;
    WGPUTexelCopyBufferInfo out = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
    out.buffer = s->readback;
    out.layout.bytesPerRow = s->row_B;
    WGPUExtent3D all = { s->w, s->h, 1 };
    wgpuCommandEncoderCopyTextureToBuffer(enc, &src, &out, &all);
}

void bench_scene_release(bench_scene_t *s)
{
#define REL(fn, x) do { if (x) fn(x); (x) = NULL; } while (0)
    for (int i = 0; i < 3; i++) REL(wgpuRenderPipelineRelease, s->pipe[i]);
    REL(wgpuBindGroupRelease, s->bg);
    REL(wgpuPipelineLayoutRelease, s->layout);
    REL(wgpuBindGroupLayoutRelease, s->bgl);
    REL(wgpuBufferRelease, s->vbuf);
    REL(wgpuBufferRelease, s->ibuf);
    REL(wgpuBufferRelease, s->ubuf);
    REL(wgpuBufferRelease, s->upload);
    REL(wgpuBufferRelease, s->readback);
    REL(wgpuSamplerRelease, s->sampler);
    REL(wgpuTextureViewRelease, s->target_view);
    REL(wgpuTextureViewRelease, s->depth_view);
    REL(wgpuTextureViewRelease, s->tex_view);
    REL(wgpuTextureRelease, s->target);
    REL(wgpuTextureRelease, s->depth);
    REL(wgpuTextureRelease, s->tex);
#undef REL
}

const char *bench_scene_name(int id, int variant)
{
    switch (id) {
    case BENCH_BLIT: return "1 blit+clear";
    case BENCH_UI: return variant ? "2 UI opaque" : "2 UI 50%";
    case BENCH_TRIS: return variant ? "3 20k tris flat" : "3 20k tris gouraud";
    case BENCH_MESH: return "4 mesh 10k tex+z";
    case BENCH_ALU: return "5 ALU shader";
    default: return "?";
    }
}
