/* Helpers shared by the command encoder, copy, pass and submit tests (static: one copy per file). */
#ifndef EG_CMD_TEST_UTIL_H
#define EG_CMD_TEST_UTIL_H

#include <string.h>
#include <webgpu/webgpu.h>

#include "config/emgpu_config.h"
#include "kernel/base/util.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"

/* EG_EXPECT_ERROR with a code held in a variable (table-driven tests). */
#define T_EXPECT_VALIDATION(code_, frag_) \
    do { EG_EXPECT_EQ_U(eg_test_err.count, 1); EG_EXPECT_EQ_U(eg_test_err.type, WGPUErrorType_Validation); \
         EG_EXPECT_EQ_U(eg_test_err.code, (code_)); EG_EXPECT_STR_CONTAINS(eg_test_err.message, (frag_)); \
         eg_test_errors_reset(); } while (0)

static inline WGPUBuffer t_buffer(WGPUDevice d, WGPUBufferUsage usage, uint64_t size)
{
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = usage;
    bd.size = size;
    return wgpuDeviceCreateBuffer(d, &bd);
}

static inline WGPUTexture t_texture(WGPUDevice d, WGPUTextureFormat fmt, uint32_t w, uint32_t h,
                                    uint32_t layers, uint32_t mips, uint32_t samples, WGPUTextureUsage usage)
{
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.format = fmt;
    td.size.width = w;
    td.size.height = h;
    td.size.depthOrArrayLayers = layers;
    td.mipLevelCount = mips;
    td.sampleCount = samples;
    td.usage = usage;
    return wgpuDeviceCreateTexture(d, &td);
}

static inline WGPUCommandEncoder t_encoder(WGPUDevice d)
{
    return wgpuDeviceCreateCommandEncoder(d, NULL);
}

/* Finishes, submits and releases the encoder and its command buffer. */
static inline void t_submit(WGPUCommandEncoder e)
{
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(e);
}

/* Finish is where deferred encoder errors surface; the invalid command buffer is released. */
static inline void t_finish(WGPUCommandEncoder e)
{
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    if (cb) wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(e);
}

static void t_map_cb(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2)
{
    (void)message; (void)u2;
    *(WGPUMapAsyncStatus *)u1 = status;
}

/* Copies size bytes of src (CopySrc usage) into a map-read buffer and reads them into out. */
static inline bool t_readback(WGPUDevice d, WGPUBuffer src, uint64_t offset, uint64_t size, void *out)
{
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst, size);
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderCopyBufferToBuffer(e, src, offset, rb, 0, size);
    t_submit(e);
    WGPUMapAsyncStatus st = WGPUMapAsyncStatus_Error;
    WGPUBufferMapCallbackInfo ci = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_AllowProcessEvents;
    ci.callback = t_map_cb;
    ci.userdata1 = &st;
    bool ok = eg_test_wait(wgpuBufferMapAsync(rb, WGPUMapMode_Read, 0, size, ci)) &&
              st == WGPUMapAsyncStatus_Success;
    const void *p = ok ? wgpuBufferGetConstMappedRange(rb, 0, size) : NULL;
    if (p) memcpy(out, p, size);
    if (ok) wgpuBufferUnmap(rb);
    wgpuBufferRelease(rb);
    return p != NULL;
}

static inline WGPUTexelCopyBufferInfo t_buf_info(WGPUBuffer b, uint64_t offset, uint32_t bpr, uint32_t rpi)
{
    WGPUTexelCopyBufferInfo i = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
    i.buffer = b;
    i.layout.offset = offset;
    i.layout.bytesPerRow = bpr;
    i.layout.rowsPerImage = rpi;
    return i;
}

static inline WGPUTexelCopyTextureInfo t_tex_info(WGPUTexture t, uint32_t mip, uint32_t x, uint32_t y, uint32_t z)
{
    WGPUTexelCopyTextureInfo i = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    i.texture = t;
    i.mipLevel = mip;
    i.origin.x = x;
    i.origin.y = y;
    i.origin.z = z;
    return i;
}

static inline WGPUExtent3D t_extent(uint32_t w, uint32_t h, uint32_t d)
{
    WGPUExtent3D e = { w, h, d };
    return e;
}

/* A shader module from an embedded test module (tests/shaders/NAME); NULL when not embedded. */
static inline WGPUShaderModule t_spv_module(WGPUDevice d, const char *name)
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

/* A compute pipeline of embedded module `name` with an auto layout; NULL on any failure. */
static inline WGPUComputePipeline t_compute_pipeline(WGPUDevice d, const char *name)
{
    WGPUShaderModule m = t_spv_module(d, name);
    if (!m) return NULL;
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.compute.module = m;
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    wgpuShaderModuleRelease(m);
    return p;
}

/* Encodes and submits one dispatch of x workgroups with groups[0..n) bound at 0..n-1. */
static inline void t_dispatch(WGPUDevice d, WGPUComputePipeline p, const WGPUBindGroup *groups, uint32_t n, uint32_t x)
{
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder ce = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderSetPipeline(ce, p);
    for (uint32_t g = 0; g < n; g++) wgpuComputePassEncoderSetBindGroup(ce, g, groups[g], 0, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(ce, x, 1, 1);
    wgpuComputePassEncoderEnd(ce);
    wgpuComputePassEncoderRelease(ce);
    t_submit(e);
}

/* One render pass that clears `view` (resolving into `resolve` unless NULL) and draws n indices
 * of ib (format fmt, ib_B bytes) into vertices of vbuf with p, or vertices 0..n-1 when ib is
 * NULL; then w x h texels of mip 0 of `src` are copied to a new buffer at a 256-byte row pitch
 * (returned; the caller releases it) and everything is submitted. */
static inline WGPUBuffer t_draw_indexed_copy(WGPUDevice d, WGPURenderPipeline p, WGPUBuffer vbuf, uint64_t vbuf_B,
                                             WGPUBuffer ib, WGPUIndexFormat fmt, uint64_t ib_B, WGPUTextureView view,
                                             WGPUTextureView resolve, WGPUTexture src, uint32_t w, uint32_t h,
                                             uint32_t n)
{
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = view;
    c.resolveTarget = resolve;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1;
    rpd.colorAttachments = &c;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vbuf, 0, vbuf_B);
    if (ib) {
        wgpuRenderPassEncoderSetIndexBuffer(rp, ib, fmt, 0, ib_B);
        wgpuRenderPassEncoderDrawIndexed(rp, n, 1, 0, 0, 0);
    } else {
        wgpuRenderPassEncoderDraw(rp, n, 1, 0, 0);
    }
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256u * h);
    WGPUTexelCopyTextureInfo ti = t_tex_info(src, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, h);
    WGPUExtent3D sz = t_extent(w, h, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    return rb;
}

/* t_draw_indexed_copy of vertices 0..n-1 (no index buffer). */
static inline WGPUBuffer t_draw_copy(WGPUDevice d, WGPURenderPipeline p, WGPUBuffer vbuf, uint64_t vbuf_B,
                                     WGPUTextureView view, WGPUTextureView resolve, WGPUTexture src, uint32_t w,
                                     uint32_t h, uint32_t n)
{
    return t_draw_indexed_copy(d, p, vbuf, vbuf_B, NULL, WGPUIndexFormat_Undefined, 0, view, resolve, src, w, h, n);
}

/* t_draw_copy of vertices 0..2 (one triangle). */
static inline WGPUBuffer t_draw3_copy(WGPUDevice d, WGPURenderPipeline p, WGPUBuffer vbuf, uint64_t vbuf_B,
                                      WGPUTextureView view, WGPUTextureView resolve, WGPUTexture src,
                                      uint32_t w, uint32_t h)
{
    return t_draw_copy(d, p, vbuf, vbuf_B, view, resolve, src, w, h, 3);
}

/* A render pipeline of the SPIR-V test shaders vs_name / fs_name (tests/shaders), one vertex
 * buffer layout vb, one colour target of fmt blended with `blend` (NULL: none) and the depth
 * state ds (NULL: no depth attachment); the modules are released again. NULL when a module or
 * the pipeline fails. */
/* t_render_pipeline with nvb vertex buffer layouts vb[] and the primitive state prim (NULL: a
 * triangle list, no culling). */
static inline WGPURenderPipeline t_render_pipeline_ex(WGPUDevice d, const char *vs_name, const char *fs_name,
                                                      const WGPUVertexBufferLayout *vb, uint32_t nvb,
                                                      WGPUTextureFormat fmt, const WGPUBlendState *blend,
                                                      const WGPUDepthStencilState *ds, const WGPUPrimitiveState *prim)
{
    WGPUShaderModule vs = t_spv_module(d, vs_name), fs = t_spv_module(d, fs_name);
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    t.format = fmt;
    t.blend = blend;
    WGPUFragmentState f = WGPU_FRAGMENT_STATE_INIT;
    f.module = fs;
    f.targetCount = 1;
    f.targets = &t;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = vs;
    pd.vertex.bufferCount = nvb;
    pd.vertex.buffers = vb;
    pd.fragment = &f;
    pd.depthStencil = ds;
    if (prim) pd.primitive = *prim;
    WGPURenderPipeline p = vs && fs ? wgpuDeviceCreateRenderPipeline(d, &pd) : NULL;
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    return p;
}

static inline WGPURenderPipeline t_render_pipeline(WGPUDevice d, const char *vs_name, const char *fs_name,
                                                   const WGPUVertexBufferLayout *vb, WGPUTextureFormat fmt,
                                                   const WGPUBlendState *blend, const WGPUDepthStencilState *ds)
{
    return t_render_pipeline_ex(d, vs_name, fs_name, vb, 1, fmt, blend, ds, NULL);
}

/* t_render_pipeline without a depth attachment. */
static inline WGPURenderPipeline t_color_pipeline(WGPUDevice d, const char *vs_name, const char *fs_name,
                                                  const WGPUVertexBufferLayout *vb, WGPUTextureFormat fmt,
                                                  const WGPUBlendState *blend)
{
    return t_render_pipeline(d, vs_name, fs_name, vb, fmt, blend, NULL);
}

/* t_render_pipeline with a Depth32Float attachment tested with `compare`, written when `write`
 * (the colour + depth draw tests' pipeline; t_draw_color_depth_copy draws with it). */
static inline WGPURenderPipeline t_color_depth_pipeline(WGPUDevice d, const char *vs_name, const char *fs_name,
                                                        const WGPUVertexBufferLayout *vb, WGPUTextureFormat fmt,
                                                        const WGPUBlendState *blend, WGPUCompareFunction compare,
                                                        bool write)
{
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth32Float;
    ds.depthWriteEnabled = write ? WGPUOptionalBool_True : WGPUOptionalBool_False;
    ds.depthCompare = compare;
    return t_render_pipeline(d, vs_name, fs_name, vb, fmt, blend, &ds);
}

/* The vertex layout most draw tests use: a Float32x4 position at location 0 (offset 0) and one
 * attribute of `fmt` at location 1 (offset 16), `stride` bytes per vertex; va must outlive vb. */
static inline void t_pos_attr_layout(WGPUVertexAttribute va[2], WGPUVertexBufferLayout *vb, uint64_t stride,
                                     WGPUVertexFormat fmt)
{
    WGPUVertexAttribute a = WGPU_VERTEX_ATTRIBUTE_INIT;
    va[0] = a;
    va[0].format = WGPUVertexFormat_Float32x4;
    va[1] = a;
    va[1].format = fmt;
    va[1].offset = 16;
    va[1].shaderLocation = 1;
    WGPUVertexBufferLayout l = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    *vb = l;
    vb->arrayStride = stride;
    vb->attributeCount = 2;
    vb->attributes = va;
}

/* One pass clearing color view cv to `clear` (NULL: 0, 0, 0, 0) and depth view dv to zc, drawing
 * n vertices of vbuf with p (none when n is 0: a pass that only clears; bg at group 0 unless
 * NULL) inside the scissor rectangle sc (x, y, w, h; NULL: none); then the px x px color texture
 * ct and the depth aspect of dt are copied into rb at a 256-byte row pitch (color rows, then
 * depth rows from 256 * px) and everything is submitted. */
static inline void t_draw_color_depth_copy_ex(WGPUDevice d, WGPURenderPipeline p, WGPUBindGroup bg, WGPUBuffer vbuf,
                                              uint32_t n, WGPUTextureView cv, WGPUTextureView dv, WGPUTexture ct,
                                              WGPUTexture dt, uint32_t px, WGPUBuffer rb, const WGPUColor *clear,
                                              float zc, const uint32_t *sc)
{
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = cv;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    if (clear) c.clearValue = *clear;
    WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    da.view = dv;
    da.depthLoadOp = WGPULoadOp_Clear;
    da.depthStoreOp = WGPUStoreOp_Store;
    da.depthClearValue = zc;
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1;
    rpd.colorAttachments = &c;
    rpd.depthStencilAttachment = &da;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    if (bg) wgpuRenderPassEncoderSetBindGroup(rp, 0, bg, 0, NULL);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vbuf, 0, WGPU_WHOLE_SIZE);
    if (sc) wgpuRenderPassEncoderSetScissorRect(rp, sc[0], sc[1], sc[2], sc[3]);
    if (n) wgpuRenderPassEncoderDraw(rp, n, 1, 0, 0);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUTexelCopyTextureInfo ti = t_tex_info(ct, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, px);
    WGPUExtent3D sz = t_extent(px, px, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    WGPUTexelCopyTextureInfo di = t_tex_info(dt, 0, 0, 0, 0);
    di.aspect = WGPUTextureAspect_DepthOnly;
    WGPUTexelCopyBufferInfo dbi = t_buf_info(rb, 256u * px, 256, px);
    wgpuCommandEncoderCopyTextureToBuffer(e, &di, &dbi, &sz);
    t_submit(e);
}

/* t_draw_color_depth_copy_ex clearing color to 0 and depth to 1.0, without a scissor. */
static inline void t_draw_color_depth_copy(WGPUDevice d, WGPURenderPipeline p, WGPUBindGroup bg, WGPUBuffer vbuf,
                                           uint32_t n, WGPUTextureView cv, WGPUTextureView dv, WGPUTexture ct,
                                           WGPUTexture dt, uint32_t px, WGPUBuffer rb)
{
    t_draw_color_depth_copy_ex(d, p, bg, vbuf, n, cv, dv, ct, dt, px, rb, NULL, 1.0f, NULL);
}

#endif /* EG_CMD_TEST_UTIL_H */
