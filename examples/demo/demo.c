/* make demo: an embedded-UI dashboard rendered at 800x480 on the soft backend -> PNG (+ window).
 *
 * Public API only. Each frame is two render passes into one RGBA8 target: the 2D layer (gradient
 * background, SDF rounded panels, gauges, icons and glyphs from a texture atlas generated in
 * code; demo_ui.c) as one draw of alpha-blended quads, then a rotating lit torus with a depth
 * buffer inside the "3D VIEW" panel (viewport + scissor). The last frame is copied to a mapped
 * buffer and written with libpng's simplified API. Animation advances per frame (30 frames = one
 * second), so the PNG is the same on every run. Under a display (DISPLAY set) the frames are also
 * shown in the desktop simulator window (examples/sim: an 800x480 board panel presented through a
 * memory-panel WGPUSurface, as firmware would) until it is closed (DEMO_WINDOW_SECONDS=n closes it
 * after n seconds; DEMO_SIM_ZOOM=2, DEMO_SIM_FORMAT=1 (RGB565), DEMO_SIM_STRIP=16 change the panel).
 * Shaders: examples/demo/shaders (GLSL, compiled and embedded by examples/demo/demo.mk).
 * Usage: demo OUT.png [FRAMES]. This file is the renderer (demo_setup/demo_render_frame, usable on any
 * device: the VM display test shows it on fbdev and KMS); main, the PNG and the window loop are
 * in demo_main.c.
 */
#include <webgpu/webgpu.h>

#include "examples/demo/demo.h"
#include "tests/shaders/spv_embed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UI_MAX_VERTS 6144u

typedef struct mesh_vtx {
    float pos[3], normal[3], uv[2];
} mesh_vtx_t;

typedef struct mesh_uniforms {
    float mvp[16], model[16], light[4], eye[4];
} mesh_uniforms_t;

static WGPUShaderModule shader(demo_t *d, const char *name)
{
    const eg_test_spv_t *spv = eg_test_spv(name);
    if (!spv) return NULL;
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = spv->words;
    src.codeSize = spv->word_count;
    WGPUShaderModuleDescriptor sd = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    sd.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d->device, &sd);
}

static WGPUBuffer buffer(demo_t *d, WGPUBufferUsage usage, uint64_t size_B)
{
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = usage;
    bd.size = (size_B + 3u) & ~(uint64_t)3u;
    return wgpuDeviceCreateBuffer(d->device, &bd);
}

static WGPUTexture texture(demo_t *d, WGPUTextureFormat format, uint32_t w, uint32_t h, WGPUTextureUsage usage)
{
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.usage = usage;
    td.size.width = w;
    td.size.height = h;
    td.format = format;
    return wgpuDeviceCreateTexture(d->device, &td);
}

/* Layout: binding 0 uniform buffer, 1 float texture, 2 filtering sampler (the UI uses all three,
 * the mesh only the first). */
static WGPUBindGroupLayout bgl(demo_t *d, uint32_t n)
{
    WGPUBindGroupLayoutEntry e[3];
    for (uint32_t i = 0; i < 3; i++) {
        WGPUBindGroupLayoutEntry z = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
        e[i] = z;
        e[i].binding = i;
        e[i].visibility = WGPUShaderStage_Vertex | WGPUShaderStage_Fragment;
    }
    e[0].buffer.type = WGPUBufferBindingType_Uniform;
    e[1].texture.sampleType = WGPUTextureSampleType_Float;
    e[1].texture.viewDimension = WGPUTextureViewDimension_2D;
    e[2].sampler.type = WGPUSamplerBindingType_Filtering;
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.entryCount = n;
    ld.entries = e;
    return wgpuDeviceCreateBindGroupLayout(d->device, &ld);
}

static WGPURenderPipeline pipeline(demo_t *d, WGPUPipelineLayout layout, const char *vs_name,
                                   const char *fs_name, const WGPUVertexBufferLayout *vb, int mesh)
{
    static const WGPUBlendState over = {
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
        { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha },
    };
    WGPUShaderModule vs = shader(d, vs_name), fs = shader(d, fs_name);
    if (!vs || !fs) return NULL;
    WGPUColorTargetState ct = WGPU_COLOR_TARGET_STATE_INIT;
    ct.format = WGPUTextureFormat_RGBA8Unorm;
    ct.blend = mesh ? NULL : &over;
    WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
    fst.module = fs;
    fst.targetCount = 1;
    fst.targets = &ct;
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth24Plus;
    ds.depthWriteEnabled = WGPUOptionalBool_True;
    ds.depthCompare = WGPUCompareFunction_Less;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.layout = layout;
    pd.vertex.module = vs;
    pd.vertex.bufferCount = 1;
    pd.vertex.buffers = vb;
    pd.primitive.topology = WGPUPrimitiveTopology_TriangleList;
    pd.primitive.cullMode = mesh ? WGPUCullMode_Back : WGPUCullMode_None;
    pd.depthStencil = mesh ? &ds : NULL;
    pd.fragment = &fst;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d->device, &pd);
    wgpuShaderModuleRelease(vs);
    wgpuShaderModuleRelease(fs);
    return p;
}

/* A torus (major radius 1, minor 0.38); triangles counter-clockwise seen from outside. */
static void torus(demo_t *d)
{
    mesh_vtx_t *v = malloc(TORUS_VERTS * sizeof *v); /* the application's memory, not emgpu's */
    uint16_t *idx = malloc(TORUS_INDICES * sizeof *idx);
    if (!v || !idx) {
        free(v);
        free(idx);
        return;
    }
    for (uint32_t i = 0; i <= TORUS_RINGS; i++)
        for (uint32_t j = 0; j <= TORUS_SIDES; j++) {
            float a = 6.2831853f * (float)i / TORUS_RINGS, b = 6.2831853f * (float)j / TORUS_SIDES;
            float ring = 1.0f + 0.38f * cosf(b);
            mesh_vtx_t q = { { ring * cosf(a), 0.38f * sinf(b), ring * sinf(a) },
                             { cosf(b) * cosf(a), sinf(b), cosf(b) * sinf(a) },
                             { (float)i / TORUS_RINGS, (float)j / TORUS_SIDES } };
            v[i * (TORUS_SIDES + 1u) + j] = q;
        }
    uint32_t n = 0;
    for (uint32_t i = 0; i < TORUS_RINGS; i++)
        for (uint32_t j = 0; j < TORUS_SIDES; j++) {
            uint16_t p00 = (uint16_t)(i * (TORUS_SIDES + 1u) + j), p01 = (uint16_t)(p00 + 1u);
            uint16_t p10 = (uint16_t)(p00 + TORUS_SIDES + 1u), p11 = (uint16_t)(p10 + 1u);
            const uint16_t t[6] = { p00, p01, p11, p00, p11, p10 };
            memcpy(idx + n, t, sizeof t);
            n += 6;
        }
    d->mesh_vbuf = buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, TORUS_VERTS * sizeof *v);
    d->mesh_ibuf = buffer(d, WGPUBufferUsage_Index | WGPUBufferUsage_CopyDst, TORUS_INDICES * sizeof *idx);
    wgpuQueueWriteBuffer(d->queue, d->mesh_vbuf, 0, v, TORUS_VERTS * sizeof *v);
    wgpuQueueWriteBuffer(d->queue, d->mesh_ibuf, 0, idx, TORUS_INDICES * sizeof *idx);
    free(v);
    free(idx);
}

static int setup_pipelines(demo_t *d)
{
    static const WGPUVertexAttribute ui_attrs[4] = {
        { NULL, WGPUVertexFormat_Float32x2, 0, 0 }, { NULL, WGPUVertexFormat_Float32x2, 8, 1 },
        { NULL, WGPUVertexFormat_Unorm8x4, 16, 2 }, { NULL, WGPUVertexFormat_Float32x4, 20, 3 },
    };
    static const WGPUVertexAttribute mesh_attrs[3] = {
        { NULL, WGPUVertexFormat_Float32x3, 0, 0 }, { NULL, WGPUVertexFormat_Float32x3, 12, 1 },
        { NULL, WGPUVertexFormat_Float32x2, 24, 2 },
    };
    const WGPUVertexBufferLayout ui_vb = { NULL, WGPUVertexStepMode_Vertex, sizeof(demo_vtx_t), 4, ui_attrs };
    const WGPUVertexBufferLayout mesh_vb = { NULL, WGPUVertexStepMode_Vertex, sizeof(mesh_vtx_t), 3, mesh_attrs };
    d->ui_bgl = bgl(d, 3);
    d->mesh_bgl = bgl(d, 1);
    WGPUPipelineLayoutDescriptor pl = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pl.bindGroupLayoutCount = 1;
    pl.bindGroupLayouts = &d->ui_bgl;
    d->ui_layout = wgpuDeviceCreatePipelineLayout(d->device, &pl);
    pl.bindGroupLayouts = &d->mesh_bgl;
    d->mesh_layout = wgpuDeviceCreatePipelineLayout(d->device, &pl);
    d->ui_pipe = pipeline(d, d->ui_layout, "demo_ui.vert", "demo_ui.frag", &ui_vb, 0);
    d->mesh_pipe = pipeline(d, d->mesh_layout, "demo_mesh.vert", "demo_mesh.frag", &mesh_vb, 1);

    WGPUBindGroupEntry e[3];
    for (uint32_t i = 0; i < 3; i++) {
        WGPUBindGroupEntry z = WGPU_BIND_GROUP_ENTRY_INIT;
        e[i] = z;
        e[i].binding = i;
    }
    e[0].buffer = d->ui_ubuf;
    e[0].size = 16;
    e[1].textureView = d->atlas_view;
    e[2].sampler = d->sampler;
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = d->ui_bgl;
    bd.entryCount = 3;
    bd.entries = e;
    d->ui_bg = wgpuDeviceCreateBindGroup(d->device, &bd);
    e[0].buffer = d->mesh_ubuf;
    e[0].size = sizeof(mesh_uniforms_t);
    bd.layout = d->mesh_bgl;
    bd.entryCount = 1;
    d->mesh_bg = wgpuDeviceCreateBindGroup(d->device, &bd);
    return d->ui_pipe && d->mesh_pipe && d->ui_bg && d->mesh_bg;
}

int demo_setup(demo_t *d, WGPUInstance instance, WGPUDevice device)
{
    d->instance = instance;
    d->device = device;
    d->queue = wgpuDeviceGetQueue(d->device);
    d->target = texture(d, WGPUTextureFormat_RGBA8Unorm, DEMO_W_PX, DEMO_H_PX,
                        WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    d->depth = texture(d, WGPUTextureFormat_Depth24Plus, DEMO_W_PX, DEMO_H_PX, WGPUTextureUsage_RenderAttachment);
    d->atlas = texture(d, WGPUTextureFormat_RGBA8Unorm, DEMO_ATLAS_W, DEMO_ATLAS_H,
                       WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    if (!d->target || !d->depth || !d->atlas) return 0;
    d->target_view = wgpuTextureCreateView(d->target, NULL);
    d->depth_view = wgpuTextureCreateView(d->depth, NULL);
    d->atlas_view = wgpuTextureCreateView(d->atlas, NULL);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT; /* nearest: crisp integer-scaled glyphs */
    d->sampler = wgpuDeviceCreateSampler(d->device, &sd);
    d->readback = buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, (uint64_t)DEMO_ROW_B * DEMO_H_PX);
    d->ui_vbuf = buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, UI_MAX_VERTS * sizeof(demo_vtx_t));
    d->ui_ubuf = buffer(d, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, 16);
    d->mesh_ubuf = buffer(d, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, sizeof(mesh_uniforms_t));
    const float scale[4] = { 2.0f / DEMO_W_PX, 2.0f / DEMO_H_PX, 0, 0 };
    wgpuQueueWriteBuffer(d->queue, d->ui_ubuf, 0, scale, sizeof scale);

    uint8_t *atlas = malloc(DEMO_ATLAS_W * DEMO_ATLAS_H * 4u);
    if (!atlas) return 0;
    demo_atlas(atlas);
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = d->atlas;
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = DEMO_ATLAS_W * 4u;
    layout.rowsPerImage = DEMO_ATLAS_H;
    WGPUExtent3D size = { DEMO_ATLAS_W, DEMO_ATLAS_H, 1 };
    wgpuQueueWriteTexture(d->queue, &dst, atlas, DEMO_ATLAS_W * DEMO_ATLAS_H * 4u, &layout, &size);
    free(atlas);
    torus(d);
    d->batch.cap = UI_MAX_VERTS;
    d->batch.v = malloc(UI_MAX_VERTS * sizeof(demo_vtx_t));
    return d->batch.v && d->mesh_vbuf && setup_pipelines(d);
}

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

static void mesh_uniforms(demo_t *d, unsigned frame, float aspect)
{
    float ay = 6.2831853f * (float)frame / 240.0f, ax = 0.5f + 0.3f * sinf((float)frame / 45.0f);
    const float ry[16] = { cosf(ay), 0, -sinf(ay), 0, 0, 1, 0, 0, sinf(ay), 0, cosf(ay), 0, 0, 0, 0, 1 };
    const float rx[16] = { 1, 0, 0, 0, 0, cosf(ax), sinf(ax), 0, 0, -sinf(ax), cosf(ax), 0, 0, 0, 0, 1 };
    const float zn = 1.0f, zf = 10.0f, f = 2.2f;
    const float proj[16] = { f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, zf / (zn - zf), -1, 0, 0, zn * zf / (zn - zf), 0 };
    mesh_uniforms_t u;
    float rot[16], model[16], t[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -3.4f, 1 };
    mat4_mul(rot, rx, ry);
    mat4_mul(model, t, rot);
    mat4_mul(u.mvp, proj, model);
    memcpy(u.model, model, sizeof model);
    const float light[4] = { 0.48f, 0.64f, 0.6f, 0 }, eye[4] = { 0, 0, 0, 1 };
    memcpy(u.light, light, sizeof light);
    memcpy(u.eye, eye, sizeof eye);
    wgpuQueueWriteBuffer(d->queue, d->mesh_ubuf, 0, &u, sizeof u);
}

/* One frame: the 2D layer, then the torus in the 3D view; read_back copies the target out. */
void demo_render_frame(demo_t *d, unsigned frame, int read_back)
{
    demo_ui_build(&d->batch, frame);
    wgpuQueueWriteBuffer(d->queue, d->ui_vbuf, 0, d->batch.v, d->batch.n * sizeof(demo_vtx_t));
    uint32_t vx, vy, vw, vh;
    demo_view_rect(&vx, &vy, &vw, &vh);
    mesh_uniforms(d, frame, (float)vw / (float)vh);

    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(d->device, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = d->target_view;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ 0, 0, 0, 1 };
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 1;
    rp.colorAttachments = &ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderSetPipeline(pass, d->ui_pipe);
    wgpuRenderPassEncoderSetBindGroup(pass, 0, d->ui_bg, 0, NULL);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, d->ui_vbuf, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDraw(pass, d->batch.n, 1, 0, 0);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);

    ca.loadOp = WGPULoadOp_Load;
    WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    da.view = d->depth_view;
    da.depthLoadOp = WGPULoadOp_Clear;
    da.depthStoreOp = WGPUStoreOp_Discard;
    da.depthClearValue = 1.0f;
    rp.depthStencilAttachment = &da;
    pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderSetViewport(pass, (float)vx, (float)vy, (float)vw, (float)vh, 0, 1);
    wgpuRenderPassEncoderSetScissorRect(pass, vx, vy, vw, vh);
    wgpuRenderPassEncoderSetPipeline(pass, d->mesh_pipe);
    wgpuRenderPassEncoderSetBindGroup(pass, 0, d->mesh_bg, 0, NULL);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, d->mesh_vbuf, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderSetIndexBuffer(pass, d->mesh_ibuf, WGPUIndexFormat_Uint16, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderDrawIndexed(pass, TORUS_INDICES, 1, 0, 0, 0);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);

    if (read_back) {
        WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
        src.texture = d->target;
        WGPUTexelCopyBufferInfo out = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
        out.buffer = d->readback;
        out.layout.bytesPerRow = DEMO_ROW_B;
        WGPUExtent3D all = { DEMO_W_PX, DEMO_H_PX, 1 };
        wgpuCommandEncoderCopyTextureToBuffer(enc, &src, &out, &all);
    }
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuCommandEncoderRelease(enc);
    wgpuQueueSubmit(d->queue, 1, &cb); /* the soft backend executes the commands here */
    wgpuCommandBufferRelease(cb);
}

void demo_teardown(demo_t *d)
{
#define REL(fn, x) do { if (x) fn(x); } while (0)
    REL(wgpuBindGroupRelease, d->ui_bg);
    REL(wgpuBindGroupRelease, d->mesh_bg);
    REL(wgpuRenderPipelineRelease, d->ui_pipe);
    REL(wgpuRenderPipelineRelease, d->mesh_pipe);
    REL(wgpuPipelineLayoutRelease, d->ui_layout);
    REL(wgpuPipelineLayoutRelease, d->mesh_layout);
    REL(wgpuBindGroupLayoutRelease, d->ui_bgl);
    REL(wgpuBindGroupLayoutRelease, d->mesh_bgl);
    REL(wgpuBufferRelease, d->readback);
    REL(wgpuBufferRelease, d->ui_vbuf);
    REL(wgpuBufferRelease, d->ui_ubuf);
    REL(wgpuBufferRelease, d->mesh_vbuf);
    REL(wgpuBufferRelease, d->mesh_ibuf);
    REL(wgpuBufferRelease, d->mesh_ubuf);
    REL(wgpuSamplerRelease, d->sampler);
    REL(wgpuTextureViewRelease, d->target_view);
    REL(wgpuTextureViewRelease, d->depth_view);
    REL(wgpuTextureViewRelease, d->atlas_view);
    REL(wgpuTextureRelease, d->target);
    REL(wgpuTextureRelease, d->depth);
    REL(wgpuTextureRelease, d->atlas);
    REL(wgpuQueueRelease, d->queue);
#undef REL
    free(d->batch.v);
}
