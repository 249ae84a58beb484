/* GLES backend behaviour (hal/gles): 3.0 fallback limits, view rejection, BGRA byte order, the
 * program cache knob. Runs with EMGPU_TEST_BACKEND=gles on a build with EMGPU_HAL_GLES=1;
 * skips elsewhere. */
#include <string.h>

#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_GLES
void eg_gl_force_es30(bool on);   /* hal/gles/gl_device.c test hook (as EMGPU_GLES_FORCE_30=1) */
void eg_gl_program_cache_limit(uint32_t slots);   /* hal/gles/gl_program.c test hook */
#endif

static WGPUDevice gles_device(void)
{
    WGPUDevice d = eg_test_device("soft");
    if (d && strcmp(eg_test_backend(), "gles") != 0) {
        eg_test_device_release();
        return NULL;
    }
    return d;
}

#define GLES_DEVICE(d) \
    WGPUDevice d = gles_device(); \
    if (!d) EG_NOT_APPLICABLE("runs in the GLES pass (EMGPU_TEST_BACKEND=gles)")

/* Issue #6: on a GLES 3.0 context compute, storage buffers and storage textures do not exist;
 * the adapter reports them as 0 instead of crashing later. */
EG_TEST(gles, es30_fallback_reports_no_compute_or_storage)
{
#if EMGPU_HAL_GLES
    eg_gl_force_es30(true);
    WGPUDevice d = gles_device();
    if (!d) {
        eg_gl_force_es30(false);
        EG_NOT_APPLICABLE("runs in the GLES pass (EMGPU_TEST_BACKEND=gles)");
    }
    WGPULimits l = WGPU_LIMITS_INIT;
    EG_ASSERT(wgpuDeviceGetLimits(d, &l) == WGPUStatus_Success);
    EG_EXPECT_EQ_U(l.maxStorageBuffersPerShaderStage, 0);
    EG_EXPECT_EQ_U(l.maxStorageTexturesPerShaderStage, 0);
    EG_EXPECT_EQ_U(l.maxComputeInvocationsPerWorkgroup, 0);
    EG_EXPECT_EQ_U(l.maxComputeWorkgroupsPerDimension, 0);
    /* Render limits stay: GLES 3.0 guarantees 4 draw buffers and 2048 texels. */
    EG_EXPECT(l.maxColorAttachments >= 4);
    EG_EXPECT(l.maxTextureDimension2D >= 2048);
    eg_test_device_release();
    eg_gl_force_es30(false);
    d = gles_device();
    EG_ASSERT(d != NULL);
    EG_ASSERT(wgpuDeviceGetLimits(d, &l) == WGPUStatus_Success);
    EG_EXPECT(l.maxStorageBuffersPerShaderStage >= 4);   /* GLES 3.1 guarantees 4 (compute) */
    eg_test_device_release();
#else
    EG_NOT_APPLICABLE("GLES is not part of this board (EMGPU_HAL_GLES = 0)");
#endif
}

/* GLES has no texture views: sampling one layer of a 2D array as a 2D texture is reported at
 * bind group creation, with a message saying why and what to do. */
EG_TEST(gles, layer_view_rejected_with_message)
{
    GLES_DEVICE(d);
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.usage = WGPUTextureUsage_TextureBinding;
    td.size = (WGPUExtent3D){ 4, 4, 2 };
    td.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUTexture t = wgpuDeviceCreateTexture(d, &td);
    WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    vd.dimension = WGPUTextureViewDimension_2D;
    vd.baseArrayLayer = 1;
    vd.arrayLayerCount = 1;
    WGPUTextureView v = wgpuTextureCreateView(t, &vd);
    EG_EXPECT_NO_ERROR();   /* the view itself is fine: it could still be a render attachment */
    WGPUBindGroupLayoutEntry le = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    le.binding = 0;
    le.visibility = WGPUShaderStage_Fragment;
    le.texture.sampleType = WGPUTextureSampleType_Float;
    le.texture.viewDimension = WGPUTextureViewDimension_2D;
    WGPUBindGroupLayoutDescriptor bld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bld.entryCount = 1;
    bld.entries = &le;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(d, &bld);
    WGPUBindGroupEntry be = WGPU_BIND_GROUP_ENTRY_INIT;
    be.binding = 0;
    be.textureView = v;
    WGPUBindGroupDescriptor gd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    gd.layout = bgl;
    gd.entryCount = 1;
    gd.entries = &be;
    WGPUBindGroup g = wgpuDeviceCreateBindGroup(d, &gd);
    /* Exactly one error: the backend's reason (hal.h eg_hal_error_detail) replaces the kernel's
     * generic "backend failed" message instead of adding a second error. */
    EG_EXPECT(g != NULL);
    EG_EXPECT_STR_CONTAINS(eg_test_err.message, "wgpuDeviceCreateBindGroup");
    EG_EXPECT_STR_CONTAINS(eg_test_err.message, "layers 1..1 of 2");
    EG_EXPECT_ERROR(WGPUErrorType_Validation, GLES_VIEW_UNSUPPORTED, "GLES cannot express texture view");
    wgpuBindGroupRelease(g);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* BGRA8 has no GLES storage: it is kept as RGBA and swapped at upload and readback, so the
 * bytes written come back unchanged (WebGPU copies are byte-exact). */
EG_TEST(gles, bgra8_bytes_round_trip)
{
    GLES_DEVICE(d);
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.usage = WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc;
    td.size = (WGPUExtent3D){ 2, 2, 1 };
    td.format = WGPUTextureFormat_BGRA8Unorm;
    WGPUTexture t = wgpuDeviceCreateTexture(d, &td);
    const uint8_t px[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = t;
    WGPUTexelCopyBufferLayout lay = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    lay.bytesPerRow = 8;
    lay.rowsPerImage = 2;
    WGPUExtent3D sz = { 2, 2, 1 };
    wgpuQueueWriteTexture(eg_test_queue(), &dst, px, sizeof px, &lay, &sz);
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 512);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyBufferInfo bi = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
    bi.buffer = b;
    bi.layout.bytesPerRow = 256;
    bi.layout.rowsPerImage = 2;
    wgpuCommandEncoderCopyTextureToBuffer(e, &dst, &bi, &sz);
    t_submit(e);
    uint8_t out[512];
    EG_ASSERT(t_readback(d, b, 0, sizeof out, out));
    EG_EXPECT(memcmp(out, px, 8) == 0);          /* row 0 */
    EG_EXPECT(memcmp(out + 256, px + 8, 8) == 0);/* row 1 at bytesPerRow */
    EG_EXPECT_NO_ERROR();
    wgpuBufferRelease(b);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Exhaustion of the program cache: the default EMGPU_GLES_PROGRAM_CACHE covers every pipeline
 * slot, so the test limits the cache to 2 entries (the hook a board's smaller knob amounts to).
 * Three compute pipelines of three modules need three programs; the third fails naming the knob. */
EG_TEST(gles, program_cache_full_names_knob)
{
#if EMGPU_HAL_GLES
    GLES_DEVICE(d);
    eg_gl_program_cache_limit(2);
    static const char *const mods[3] = { "vm_alu.comp", "vm_flow.comp", "vm_scan.comp" };
    WGPUShaderModule m[3];
    WGPUComputePipeline p[3];
    for (uint32_t i = 0; i < 3; i++) {
        const eg_test_spv_t *spv = eg_test_spv(mods[i]);
        EG_ASSERT(spv != NULL);
        WGPUShaderSourceSPIRV src = { .chain = { .sType = WGPUSType_ShaderSourceSPIRV },
                                      .codeSize = spv->word_count, .code = spv->words };
        WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
        md.nextInChain = &src.chain;
        m[i] = wgpuDeviceCreateShaderModule(d, &md);
        WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
        cd.compute.module = m[i];
        p[i] = wgpuDeviceCreateComputePipeline(d, &cd);
        if (i < 2) EG_EXPECT_NO_ERROR();
    }
    EG_EXPECT(eg_test_err.count >= 1);
    EG_EXPECT_EQ_U(eg_test_err.type, WGPUErrorType_OutOfMemory);
    EG_EXPECT_EQ_U(eg_test_err.code, EG_E_GLES_PROGRAM_CACHE_FULL);
    EG_EXPECT_STR_CONTAINS(eg_test_err.message, "EMGPU_GLES_PROGRAM_CACHE = 2");
    eg_gl_program_cache_limit(0);
    eg_test_errors_reset();
    for (uint32_t i = 0; i < 3; i++) {
        wgpuComputePipelineRelease(p[i]);
        wgpuShaderModuleRelease(m[i]);
    }
    eg_test_device_release();
#else
    EG_NOT_APPLICABLE("GLES is not part of this board (EMGPU_HAL_GLES = 0)");
#endif
}

static WGPUShaderModule spv_module(WGPUDevice d, const char *name)
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

/* WebGPU flat interpolation takes the FIRST vertex of each primitive (GLES: the last; gl_flat.c
 * rotates primitives). A non-indexed 4-vertex triangle strip over an 8x8 target: triangle 0
 * (v0 v1 v2) covers x_ndc + y_ndc < 0 and gets vertex 0's color, R = 0/8; triangle 1 (v1 v2 v3)
 * covers the rest with vertex 1's color, R = 1/8 -> round(0.125 * 255) = 32 (draw_inst.vert
 * writes gl_VertexIndex / 8 into R). The last-vertex rule would give 64 and 96. */
EG_TEST(gles, flat_strip_uses_first_vertex)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture rt = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView rv = wgpuTextureCreateView(rt, NULL);
    WGPUShaderModule vs = spv_module(d, "draw_inst.vert"), fs = spv_module(d, "draw_flat.frag");
    WGPUVertexAttribute va = WGPU_VERTEX_ATTRIBUTE_INIT, ia = WGPU_VERTEX_ATTRIBUTE_INIT;
    va.format = WGPUVertexFormat_Float32x2;
    ia.format = WGPUVertexFormat_Float32;
    ia.shaderLocation = 1;
    WGPUVertexBufferLayout vb[2] = { WGPU_VERTEX_BUFFER_LAYOUT_INIT, WGPU_VERTEX_BUFFER_LAYOUT_INIT };
    vb[0].arrayStride = 8; vb[0].attributeCount = 1; vb[0].attributes = &va;
    vb[1].arrayStride = 4; vb[1].stepMode = WGPUVertexStepMode_Instance; vb[1].attributeCount = 1; vb[1].attributes = &ia;
    WGPUColorTargetState ct = WGPU_COLOR_TARGET_STATE_INIT;
    ct.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
    fst.module = fs;
    fst.targetCount = 1;
    fst.targets = &ct;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = vs;
    pd.vertex.bufferCount = 2;
    pd.vertex.buffers = vb;
    pd.fragment = &fst;
    pd.primitive.topology = WGPUPrimitiveTopology_TriangleStrip;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    static const float pos[8] = { -1, -1, -1, 1, 1, -1, 1, 1 };
    static const float off[1] = { 0 };
    WGPUBuffer pb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof pos);
    WGPUBuffer ob = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof off);
    WGPUQueue q = wgpuDeviceGetQueue(d);
    wgpuQueueWriteBuffer(q, pb, 0, pos, sizeof pos);
    wgpuQueueWriteBuffer(q, ob, 0, off, sizeof off);
    wgpuQueueRelease(q);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = rv;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1;
    rpd.colorAttachments = &ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderSetPipeline(pass, p);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, pb, 0, sizeof pos);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 1, ob, 0, sizeof off);
    wgpuRenderPassEncoderDraw(pass, 4, 1, 0, 0);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * 8);   /* t_readback copies it */
    WGPUTexelCopyTextureInfo ti = t_tex_info(rt, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, 8);
    WGPUExtent3D sz = t_extent(8, 8, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    EG_EXPECT_NO_ERROR();
    static uint8_t px[256 * 8];
    EG_ASSERT(t_readback(d, rb, 0, sizeof px, px));
    EG_EXPECT_EQ_U(px[6 * 256 + 1 * 4], 0);     /* (1, 6): x_ndc = y_ndc = -0.625, triangle 0 */
    EG_EXPECT_EQ_U(px[6 * 256 + 1 * 4 + 3], 255);
    EG_EXPECT_EQ_U(px[1 * 256 + 6 * 4], 32);    /* (6, 1): x_ndc = y_ndc = +0.625, triangle 1 */
    EG_EXPECT_EQ_U(px[1 * 256 + 6 * 4 + 3], 255);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(pb);
    wgpuBufferRelease(ob);
    wgpuRenderPipelineRelease(p);
    wgpuShaderModuleRelease(vs);
    wgpuShaderModuleRelease(fs);
    wgpuTextureViewRelease(rv);
    wgpuTextureRelease(rt);
    eg_test_device_release();
}
