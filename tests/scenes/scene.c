/* Conformance scene framework: object tracking, creation helpers, readback to RGBA8, hashing. */
#include "tests/scenes/scene.h"

#include "tests/shaders/spv_embed.h"

#include <string.h>

/* ---- bookkeeping ---- */

void eg_scene_failf(eg_scene_t *s, const char *what)
{
    if (!s->fail) s->fail = what;
}

static void *track(eg_scene_t *s, eg_scene_obj_kind_t kind, void *handle, const char *what)
{
    if (!handle) {
        eg_scene_failf(s, what);
        return NULL;
    }
    if (s->obj_count == EG_SCENE_MAX_OBJECTS) {
        eg_scene_failf(s, "scene made more than EG_SCENE_MAX_OBJECTS objects");
        return handle; /* leaks one object; the pool check at the end reports it */
    }
    s->obj[s->obj_count].kind = kind;
    s->obj[s->obj_count].handle = handle;
    s->obj_count++;
    return handle;
}

static void release_all(eg_scene_t *s)
{
    while (s->obj_count) {
        void *h = s->obj[--s->obj_count].handle;
        switch (s->obj[s->obj_count].kind) {
        case EG_SCENE_OBJ_BUFFER: wgpuBufferRelease((WGPUBuffer)h); break;
        case EG_SCENE_OBJ_TEXTURE: wgpuTextureRelease((WGPUTexture)h); break;
        case EG_SCENE_OBJ_VIEW: wgpuTextureViewRelease((WGPUTextureView)h); break;
        case EG_SCENE_OBJ_SAMPLER: wgpuSamplerRelease((WGPUSampler)h); break;
        case EG_SCENE_OBJ_SHADER: wgpuShaderModuleRelease((WGPUShaderModule)h); break;
        case EG_SCENE_OBJ_BGL: wgpuBindGroupLayoutRelease((WGPUBindGroupLayout)h); break;
        case EG_SCENE_OBJ_LAYOUT: wgpuPipelineLayoutRelease((WGPUPipelineLayout)h); break;
        case EG_SCENE_OBJ_BIND_GROUP: wgpuBindGroupRelease((WGPUBindGroup)h); break;
        case EG_SCENE_OBJ_RENDER_PIPELINE: wgpuRenderPipelineRelease((WGPURenderPipeline)h); break;
        case EG_SCENE_OBJ_COMPUTE_PIPELINE: wgpuComputePipelineRelease((WGPUComputePipeline)h); break;
        }
    }
}

const char *eg_scene_run(const eg_scene_info_t *info, WGPUInstance instance, WGPUDevice device,
                         uint32_t w, uint32_t h, uint8_t *rgba, eg_scene_t *s)
{
    memset(s, 0, sizeof *s);
    s->instance = instance;
    s->device = device;
    s->queue = wgpuDeviceGetQueue(device);
    s->w = w;
    s->h = h;
    s->rgba = rgba;
    memset(rgba, 0, (size_t)w * h * 4u);
    if (!s->queue) return "wgpuDeviceGetQueue returned NULL";
    info->fn(s);
    release_all(s);
    wgpuQueueRelease(s->queue);
    s->queue = NULL;
    return s->fail;
}

const eg_scene_info_t *eg_scene_find(const char *name)
{
    for (uint32_t i = 0; i < eg_scene_count; i++)
        if (strcmp(eg_scene_list[i].name, name) == 0) return &eg_scene_list[i];
    return NULL;
}

uint64_t eg_scene_hash(const uint8_t *bytes, size_t n)
{
    uint64_t hsh = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        hsh ^= bytes[i];
        hsh *= 0x100000001b3ull;
    }
    return hsh;
}

/* sin(x) for |x| <= pi/2: Taylor series to x^11 (error < 6e-8), single-precision IEEE steps
 * only, so every board computes the same bits (the boards build with -std=c11: no FMA fusion). */
static float sin_core(float x)
{
    float x2 = x * x;
    float p = -2.5052108e-8f;
    p = p * x2 + 2.7557319e-6f;
    p = p * x2 - 1.9841270e-4f;
    p = p * x2 + 8.3333333e-3f;
    p = p * x2 - 1.6666667e-1f;
    return x + x * x2 * p;
}

static float sin_turns(float t)
{
    int32_t k = (int32_t)(t + (t >= 0 ? 0.5f : -0.5f)); /* nearest whole turn */
    t -= (float)k;                                        /* now in [-0.5, 0.5] */
    if (t > 0.25f) t = 0.5f - t;                          /* sin(pi - x) = sin(x) */
    if (t < -0.25f) t = -0.5f - t;
    return sin_core(t * 6.2831853f);
}

void eg_scene_sincos(float turns, float *s_out, float *c_out)
{
    *s_out = sin_turns(turns);
    *c_out = sin_turns(turns + 0.25f);
}

/* ---- resources ---- */

WGPUShaderModule eg_scene_shader(eg_scene_t *s, const char *name)
{
    for (uint32_t i = 0; i < s->shader_count; i++)
        if (strcmp(s->shader_name[i], name) == 0) return s->shader_module[i];
    const eg_test_spv_t *spv = eg_test_spv(name);
    if (!spv) {
        eg_scene_failf(s, "shader not embedded (is it in tests/shaders/?)");
        return NULL;
    }
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = spv->words;
    src.codeSize = spv->word_count;
    WGPUShaderModuleDescriptor d = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    d.nextInChain = &src.chain;
    d.label.data = name;
    d.label.length = strlen(name);
    WGPUShaderModule m = track(s, EG_SCENE_OBJ_SHADER, wgpuDeviceCreateShaderModule(s->device, &d),
                               "wgpuDeviceCreateShaderModule returned NULL");
    if (m && s->shader_count < 8) {
        s->shader_name[s->shader_count] = name;
        s->shader_module[s->shader_count++] = m;
    }
    return m;
}

WGPUBuffer eg_scene_buffer(eg_scene_t *s, WGPUBufferUsage usage, const void *data, size_t size_B)
{
    WGPUBufferDescriptor d = WGPU_BUFFER_DESCRIPTOR_INIT;
    d.usage = usage | WGPUBufferUsage_CopyDst;
    d.size = (size_B + 3u) & ~(size_t)3u;
    WGPUBuffer b = track(s, EG_SCENE_OBJ_BUFFER, wgpuDeviceCreateBuffer(s->device, &d),
                         "wgpuDeviceCreateBuffer returned NULL");
    if (b && data) {
        if (size_B % 4u == 0) {
            wgpuQueueWriteBuffer(s->queue, b, 0, data, size_B);
        } else { /* WriteBuffer sizes are multiples of 4: the tail goes in a padded word */
            size_t head = size_B & ~(size_t)3u;
            uint8_t tail[4] = { 0, 0, 0, 0 };
            memcpy(tail, (const uint8_t *)data + head, size_B - head);
            if (head) wgpuQueueWriteBuffer(s->queue, b, 0, data, head);
            wgpuQueueWriteBuffer(s->queue, b, head, tail, 4);
        }
    }
    return b;
}

WGPUTexture eg_scene_texture(eg_scene_t *s, WGPUTextureFormat format, uint32_t w, uint32_t h,
                             uint32_t layers, uint32_t mips, uint32_t samples, WGPUTextureUsage usage)
{
    WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
    d.usage = usage;
    d.size.width = w;
    d.size.height = h;
    d.size.depthOrArrayLayers = layers ? layers : 1u;
    d.mipLevelCount = mips ? mips : 1u;
    d.sampleCount = samples ? samples : 1u;
    d.format = format;
    return track(s, EG_SCENE_OBJ_TEXTURE, wgpuDeviceCreateTexture(s->device, &d),
                 "wgpuDeviceCreateTexture returned NULL");
}

WGPUTextureView eg_scene_view(eg_scene_t *s, WGPUTexture tex, WGPUTextureViewDimension dim)
{
    if (!tex) return NULL;
    WGPUTextureViewDescriptor d = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    d.dimension = dim;
    return track(s, EG_SCENE_OBJ_VIEW, wgpuTextureCreateView(tex, dim ? &d : NULL),
                 "wgpuTextureCreateView returned NULL");
}

WGPUTexture eg_scene_target(eg_scene_t *s, WGPUTextureFormat format, WGPUTextureView *view_out)
{
    WGPUTexture t = eg_scene_texture(s, format, s->w, s->h, 1, 1, 1,
                                     WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc |
                                     WGPUTextureUsage_CopyDst | WGPUTextureUsage_TextureBinding);
    *view_out = eg_scene_view(s, t, WGPUTextureViewDimension_Undefined);
    return t;
}

void eg_scene_write_texture(eg_scene_t *s, WGPUTexture tex, uint32_t mip, uint32_t layer,
                            uint32_t w, uint32_t h, uint32_t bytes_per_texel, const void *texels)
{
    if (!tex) return;
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = tex;
    dst.mipLevel = mip;
    dst.origin.z = layer;
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = w * bytes_per_texel;
    layout.rowsPerImage = h;
    WGPUExtent3D size = { w, h, 1 };
    wgpuQueueWriteTexture(s->queue, &dst, texels, (size_t)w * h * bytes_per_texel, &layout, &size);
}

WGPUSampler eg_scene_sampler(eg_scene_t *s, const WGPUSamplerDescriptor *desc)
{
    return track(s, EG_SCENE_OBJ_SAMPLER, wgpuDeviceCreateSampler(s->device, desc),
                 "wgpuDeviceCreateSampler returned NULL");
}

/* ---- binding ---- */

static void bgl_entry(WGPUBindGroupLayoutEntry *e, char kind)
{
    switch (kind) {
    case 'u': e->buffer.type = WGPUBufferBindingType_Uniform; break;
    case 'r': e->buffer.type = WGPUBufferBindingType_ReadOnlyStorage; break;
    case 'w': e->buffer.type = WGPUBufferBindingType_Storage; break;
    case 't': case 'c': case 'a': case 'd': case 'f':
        e->texture.sampleType = kind == 'd' ? WGPUTextureSampleType_Depth
                              : kind == 'f' ? WGPUTextureSampleType_UnfilterableFloat
                                            : WGPUTextureSampleType_Float;
        e->texture.viewDimension = kind == 'c' ? WGPUTextureViewDimension_Cube
                                 : kind == 'a' ? WGPUTextureViewDimension_2DArray
                                               : WGPUTextureViewDimension_2D;
        break;
    case 's': e->sampler.type = WGPUSamplerBindingType_Filtering; break;
    case 'n': e->sampler.type = WGPUSamplerBindingType_NonFiltering; break;
    case 'z': e->sampler.type = WGPUSamplerBindingType_Comparison; break;
    case 'i':
        e->storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
        e->storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
        e->storageTexture.viewDimension = WGPUTextureViewDimension_2D;
        break;
    default: break;
    }
}

WGPUBindGroupLayout eg_scene_bgl(eg_scene_t *s, const char *spec, WGPUShaderStage visibility)
{
    WGPUBindGroupLayoutEntry e[8];
    uint32_t n = 0;
    for (; spec[n] && n < 8; n++) {
        WGPUBindGroupLayoutEntry z = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
        e[n] = z;
        e[n].binding = n;
        /* storage buffers written from a render pipeline are fragment-only in WebGPU */
        e[n].visibility = spec[n] == 'w' || spec[n] == 'i'
                              ? visibility & (WGPUShaderStage)~WGPUShaderStage_Vertex : visibility;
        bgl_entry(&e[n], spec[n]);
    }
    WGPUBindGroupLayoutDescriptor d = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    d.entryCount = n;
    d.entries = e;
    return track(s, EG_SCENE_OBJ_BGL, wgpuDeviceCreateBindGroupLayout(s->device, &d),
                 "wgpuDeviceCreateBindGroupLayout returned NULL");
}

WGPUBindGroup eg_scene_bind_group(eg_scene_t *s, WGPUBindGroupLayout bgl, uint32_t n,
                                  const void *const *resources, const char *kinds)
{
    WGPUBindGroupEntry e[8];
    if (!bgl || n > 8) {
        eg_scene_failf(s, "eg_scene_bind_group: no layout or more than 8 entries");
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        WGPUBindGroupEntry z = WGPU_BIND_GROUP_ENTRY_INIT;
        e[i] = z;
        e[i].binding = i;
        if (kinds[i] == 'b') {
            e[i].buffer = (WGPUBuffer)(uintptr_t)resources[i];
            e[i].size = wgpuBufferGetSize(e[i].buffer);
        } else if (kinds[i] == 'v') {
            e[i].textureView = (WGPUTextureView)(uintptr_t)resources[i];
        } else {
            e[i].sampler = (WGPUSampler)(uintptr_t)resources[i];
        }
    }
    WGPUBindGroupDescriptor d = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    d.layout = bgl;
    d.entryCount = n;
    d.entries = e;
    return track(s, EG_SCENE_OBJ_BIND_GROUP, wgpuDeviceCreateBindGroup(s->device, &d),
                 "wgpuDeviceCreateBindGroup returned NULL");
}

static WGPUPipelineLayout pipeline_layout(eg_scene_t *s, uint32_t n, const WGPUBindGroupLayout *bgl)
{
    WGPUPipelineLayoutDescriptor d = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    d.bindGroupLayoutCount = n;
    d.bindGroupLayouts = bgl;
    return track(s, EG_SCENE_OBJ_LAYOUT, wgpuDeviceCreatePipelineLayout(s->device, &d),
                 "wgpuDeviceCreatePipelineLayout returned NULL");
}

/* ---- pipelines ---- */

static const WGPUVertexAttribute default_attrs[2] = {
    { NULL, WGPUVertexFormat_Float32x4, 0, 0 },
    { NULL, WGPUVertexFormat_Float32x4, 16, 1 },
};

static bool has_stencil(WGPUTextureFormat f)
{
    return f == WGPUTextureFormat_Stencil8 || f == WGPUTextureFormat_Depth24PlusStencil8 ||
           f == WGPUTextureFormat_Depth32FloatStencil8;
}

static bool has_depth(WGPUTextureFormat f)
{
    return f != WGPUTextureFormat_Undefined && f != WGPUTextureFormat_Stencil8;
}

static WGPUStencilFaceState stencil_face(WGPUStencilFaceState f)
{
    if (!f.compare) f.compare = WGPUCompareFunction_Always;
    if (!f.failOp) f.failOp = WGPUStencilOperation_Keep;
    if (!f.depthFailOp) f.depthFailOp = WGPUStencilOperation_Keep;
    if (!f.passOp) f.passOp = WGPUStencilOperation_Keep;
    return f;
}

WGPURenderPipeline eg_scene_pipeline(eg_scene_t *s, const eg_scene_pipe_t *p)
{
    WGPUShaderModule vs = eg_scene_shader(s, p->vs), fs = eg_scene_shader(s, p->fs);
    WGPUPipelineLayout layout = pipeline_layout(s, p->bgl_count, p->bgl);
    if (!vs || !fs || !layout) return NULL;
    WGPUVertexBufferLayout vb = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    vb.stepMode = WGPUVertexStepMode_Vertex;
    vb.arrayStride = sizeof(eg_scene_vtx_t);
    vb.attributeCount = 2;
    vb.attributes = default_attrs;

    WGPURenderPipelineDescriptor d = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    d.layout = layout;
    d.vertex.module = vs;
    d.vertex.bufferCount = p->vbufs ? p->vbuf_count : 1u;
    d.vertex.buffers = p->vbufs ? p->vbufs : &vb;
    d.primitive.topology = p->topology ? p->topology : WGPUPrimitiveTopology_TriangleList;
    d.primitive.stripIndexFormat = p->strip_index;
    d.primitive.frontFace = p->front ? p->front : WGPUFrontFace_CCW;
    d.primitive.cullMode = p->cull ? p->cull : WGPUCullMode_None;

    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    if (p->depth_format) {
        ds.format = p->depth_format;
        bool dep = has_depth(p->depth_format);
        ds.depthWriteEnabled = dep && p->depth_write ? WGPUOptionalBool_True : WGPUOptionalBool_False;
        ds.depthCompare = !dep ? WGPUCompareFunction_Undefined
                        : p->depth_compare ? p->depth_compare : WGPUCompareFunction_Always;
        ds.stencilFront = stencil_face(p->stencil);
        ds.stencilBack = ds.stencilFront;
        bool masks = p->stencil_read_mask || p->stencil_write_mask;
        ds.stencilReadMask = masks ? p->stencil_read_mask : 0xFFu;
        ds.stencilWriteMask = masks ? p->stencil_write_mask : 0xFFu;
        ds.depthBias = p->depth_bias;
        ds.depthBiasSlopeScale = p->depth_bias_slope;
        d.depthStencil = &ds;
    }
    d.multisample.count = p->samples ? p->samples : 1u;

    WGPUColorTargetState ct[4];
    uint32_t nt = p->target_count ? p->target_count : 1u;
    for (uint32_t i = 0; i < nt && i < 4; i++) {
        WGPUColorTargetState z = WGPU_COLOR_TARGET_STATE_INIT;
        ct[i] = z;
        ct[i].format = p->format[i] ? p->format[i] : WGPUTextureFormat_RGBA8Unorm;
        ct[i].blend = p->blend[i];
        ct[i].writeMask = p->write_mask[i] == EG_SCENE_MASK_NONE ? WGPUColorWriteMask_None
                        : p->write_mask[i] ? (WGPUColorWriteMask)p->write_mask[i]
                                           : WGPUColorWriteMask_All;
    }
    WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
    fst.module = fs;
    fst.targetCount = nt;
    fst.targets = ct;
    d.fragment = &fst;
    return track(s, EG_SCENE_OBJ_RENDER_PIPELINE, wgpuDeviceCreateRenderPipeline(s->device, &d),
                 "wgpuDeviceCreateRenderPipeline returned NULL");
}

WGPUComputePipeline eg_scene_compute(eg_scene_t *s, const char *cs, uint32_t bgl_count,
                                     const WGPUBindGroupLayout *bgl)
{
    WGPUShaderModule m = eg_scene_shader(s, cs);
    WGPUPipelineLayout layout = pipeline_layout(s, bgl_count, bgl);
    if (!m || !layout) return NULL;
    WGPUComputePipelineDescriptor d = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    d.layout = layout;
    d.compute.module = m;
    return track(s, EG_SCENE_OBJ_COMPUTE_PIPELINE, wgpuDeviceCreateComputePipeline(s->device, &d),
                 "wgpuDeviceCreateComputePipeline returned NULL");
}

/* ---- passes and submission ---- */

WGPURenderPassEncoder eg_scene_pass(eg_scene_t *s, WGPUCommandEncoder enc, WGPUTextureView color,
                                    const float rgba[4], WGPUTextureView depth_view,
                                    WGPUTextureFormat depth_format, float depth_clear,
                                    uint32_t stencil_clear)
{
    (void)s;
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = color;
    ca.loadOp = rgba ? WGPULoadOp_Clear : WGPULoadOp_Load;
    ca.storeOp = WGPUStoreOp_Store;
    if (rgba) ca.clearValue = (WGPUColor){ rgba[0], rgba[1], rgba[2], rgba[3] };
    WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    if (depth_view) {
        da.view = depth_view;
        if (has_depth(depth_format)) {
            da.depthLoadOp = depth_clear < 0.0f ? WGPULoadOp_Load : WGPULoadOp_Clear;
            da.depthStoreOp = WGPUStoreOp_Store;
            da.depthClearValue = depth_clear;
        }
        if (has_stencil(depth_format)) {
            da.stencilLoadOp = depth_clear < 0.0f ? WGPULoadOp_Load : WGPULoadOp_Clear;
            da.stencilStoreOp = WGPUStoreOp_Store;
            da.stencilClearValue = stencil_clear;
        }
    }
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = color ? 1u : 0u;
    rp.colorAttachments = &ca;
    rp.depthStencilAttachment = depth_view ? &da : NULL;
    return wgpuCommandEncoderBeginRenderPass(enc, &rp);
}

void eg_scene_end_pass(WGPURenderPassEncoder pass)
{
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
}

WGPUCommandEncoder eg_scene_encoder(eg_scene_t *s)
{
    return wgpuDeviceCreateCommandEncoder(s->device, NULL);
}

void eg_scene_submit(eg_scene_t *s, WGPUCommandEncoder enc)
{
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuCommandEncoderRelease(enc);
    if (!cb) {
        eg_scene_failf(s, "wgpuCommandEncoderFinish returned NULL");
        return;
    }
    wgpuQueueSubmit(s->queue, 1, &cb);
    wgpuCommandBufferRelease(cb);
}

/* ---- drawing helpers ---- */

void eg_scene_draw_vertices(eg_scene_t *s, WGPURenderPassEncoder pass, const eg_scene_vtx_t *v,
                            uint32_t count)
{
    uint32_t size_B = count * (uint32_t)sizeof *v;
    if (!s->vring) {
        s->vring = eg_scene_buffer(s, WGPUBufferUsage_Vertex, NULL, EG_SCENE_VRING_B);
        if (!s->vring) return;
    }
    if (s->vring_used_B + size_B > EG_SCENE_VRING_B) {
        eg_scene_failf(s, "eg_scene_draw_vertices: scene draws more than EG_SCENE_VRING_B bytes");
        return;
    }
    /* WriteBuffer runs on the queue timeline before the pass's command buffer is submitted. */
    wgpuQueueWriteBuffer(s->queue, s->vring, s->vring_used_B, v, size_B);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, s->vring, s->vring_used_B, size_B);
    wgpuRenderPassEncoderDraw(pass, count, 1, 0, 0);
    s->vring_used_B += size_B;
}

eg_scene_vtx_t *eg_scene_rect(const eg_scene_t *s, eg_scene_vtx_t *v, float x0, float y0, float x1,
                              float y1, float z, const float c[4])
{
    float l = eg_scene_ndc_x(s, x0), r = eg_scene_ndc_x(s, x1);
    float t = eg_scene_ndc_y(s, y0), b = eg_scene_ndc_y(s, y1);
    const float xy[6][2] = { { l, b }, { r, b }, { r, t }, { l, b }, { r, t }, { l, t } };
    for (int i = 0; i < 6; i++) {
        eg_scene_vtx_t q = { xy[i][0], xy[i][1], z, 1.0f, c[0], c[1], c[2], c[3] };
        v[i] = q;
    }
    return v + 6;
}
