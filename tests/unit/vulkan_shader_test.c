/* Vulkan backend tests: WebGPU shader semantics Vulkan leaves open (integer division edges) and
 * a depth texture sampled while it is the pass's read-only depth attachment. */
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#include "tests/unit/vk_test_util.h"

static WGPUBindGroupLayout two_entry_layout(WGPUDevice d, WGPUShaderStage vis, const WGPUBindGroupLayoutEntry le_in[2])
{
    WGPUBindGroupLayoutEntry le[2];
    memcpy(le, le_in, sizeof le);
    for (uint32_t i = 0; i < 2; i++) { le[i].binding = i; le[i].visibility = vis; }
    WGPUBindGroupLayoutDescriptor bld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bld.entryCount = 2; bld.entries = le;
    return wgpuDeviceCreateBindGroupLayout(d, &bld);
}

typedef struct alu_io { float a[16], b[16]; int32_t ia[16], ib[16]; } alu_io_t;

/* Runs tests/shaders/vm_alu.comp (ia / ib is OpSDiv, ia % ib is OpSMod) over 16 lanes. */
static bool alu_run(WGPUDevice d, const alu_io_t *in, int32_t out_i[32][4])
{
    WGPUShaderModule cs = vk_module(d, "vm_alu.comp");
    if (!cs) return false;
    WGPUBindGroupLayoutEntry le[2] = { WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT, WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT };
    le[0].buffer.type = WGPUBufferBindingType_Storage;   /* vm_alu's input block is not readonly */
    le[1].buffer.type = WGPUBufferBindingType_Storage;
    WGPUBindGroupLayout bgl = two_entry_layout(d, WGPUShaderStage_Compute, le);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1; pld.bindGroupLayouts = &bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pld);
    WGPUComputePipelineDescriptor cpd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cpd.layout = pl; cpd.compute.module = cs;
    WGPUComputePipeline cp = wgpuDeviceCreateComputePipeline(d, &cpd);
    const uint64_t out_B = 32 * 16 + 32 * 16;   /* vec4 f[32]; ivec4 i[32] */
    WGPUBuffer sb = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, sizeof *in);
    wgpuQueueWriteBuffer(eg_test_queue(), sb, 0, in, sizeof *in);
    WGPUBuffer db = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, out_B);
    WGPUBindGroupEntry be[2] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
    be[0].binding = 0; be[0].buffer = sb; be[0].size = sizeof *in;
    be[1].binding = 1; be[1].buffer = db; be[1].size = out_B;
    WGPUBindGroupDescriptor bgd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bgd.layout = bgl; bgd.entryCount = 2; bgd.entries = be;
    WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bgd);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderSetPipeline(pass, cp);
    wgpuComputePassEncoderSetBindGroup(pass, 0, bg, 0, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    t_submit(e);
    bool ok = t_readback(d, db, 32 * 16, 32 * 16, out_i);
    wgpuBindGroupRelease(bg);
    wgpuBufferRelease(db);
    wgpuBufferRelease(sb);
    wgpuComputePipelineRelease(cp);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuShaderModuleRelease(cs);
    return ok;
}

/* WGSL "Arithmetic Expressions": e1 / e2 is e1 when e2 == 0 or (e1, e2) == (INT_MIN, -1),
 * otherwise truncated; e1 % e2 is 0 in those cases. vm_alu's % is GLSL's, compiled to OpSMod
 * (sign of the divisor): 0 in the same cases (0 has no sign to fix), else the truncated
 * remainder plus the divisor when the signs differ. Expected values worked by hand per lane. */
EG_TEST(vulkan, int_division_wgsl_edges)
{
    VK_SETUP();
    static const int32_t a[8] = { 7, -7, 7, -7, 5, -5, INT32_MIN, INT32_MIN };
    static const int32_t b[8] = { 2, 2, -2, -2, 0, 0, -1, 0 };
    static const int32_t want_div[8] = { 3, -3, -3, 3, 5, -5, INT32_MIN, INT32_MIN };
    static const int32_t want_mod[8] = { 1, 1, -1, -1, 0, 0, 0, 0 };
    alu_io_t in;
    memset(&in, 0, sizeof in);
    for (int g = 0; g < 16; g++) {
        in.b[g] = 1.0f;
        in.ia[g] = a[g % 8];
        in.ib[g] = b[g % 8];
    }
    static int32_t out[32][4];
    EG_ASSERT(alu_run(d, &in, out));
    EG_EXPECT_NO_ERROR();
    for (int g = 0; g < 16; g++) {
        EG_EXPECT_EQ_I(out[g * 2][2], want_div[g % 8]);
        EG_EXPECT_EQ_I(out[g * 2][3], want_mod[g % 8]);
    }
    eg_test_device_release();
}

/* Pass 1 clears an 8x8 Depth32Float texture to 0.25. Pass 2 uses it as a read-only depth
 * attachment (depthReadOnly, load/store ops undefined) and binds it as a texture in the same
 * pass, which WebGPU allows (the "attachment-read" usage is compatible with sampling; spec
 * "Render Pass Encoding", usage scope rules). A full-screen triangle at z = 0.125 passes the
 * Less test against 0.25 and writes the sampled depth into red: 0.25 * 255 = 63.75 -> 64. */
static bool depth_read_run(WGPUDevice d, uint8_t px[4])
{
    WGPUShaderModule vs = vk_module(d, "vulkan_fullscreen.vert"), fs = vk_module(d, "vulkan_depth_read.frag");
    WGPUTexture depth = t_texture(d, WGPUTextureFormat_Depth32Float, 8, 8, 1, 1, 1,
                                  WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_TextureBinding);
    WGPUTexture rt = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView dv = wgpuTextureCreateView(depth, NULL), cv = wgpuTextureCreateView(rt, NULL);
    WGPUSampler smp = wgpuDeviceCreateSampler(d, NULL);
    WGPUBindGroupLayoutEntry le[2] = { WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT, WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT };
    le[0].texture.sampleType = WGPUTextureSampleType_UnfilterableFloat;
    le[0].texture.viewDimension = WGPUTextureViewDimension_2D;
    le[1].sampler.type = WGPUSamplerBindingType_NonFiltering;
    WGPUBindGroupLayout bgl = two_entry_layout(d, WGPUShaderStage_Fragment, le);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1; pld.bindGroupLayouts = &bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pld);
    WGPUBindGroupEntry be[2] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
    be[0].binding = 0; be[0].textureView = dv;
    be[1].binding = 1; be[1].sampler = smp;
    WGPUBindGroupDescriptor bgd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bgd.layout = bgl; bgd.entryCount = 2; bgd.entries = be;
    WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bgd);
    WGPUColorTargetState ct = WGPU_COLOR_TARGET_STATE_INIT;
    ct.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
    fst.module = fs; fst.targetCount = 1; fst.targets = &ct;
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth32Float;
    ds.depthWriteEnabled = WGPUOptionalBool_False;
    ds.depthCompare = WGPUCompareFunction_Less;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.layout = pl; pd.vertex.module = vs; pd.fragment = &fst; pd.depthStencil = &ds;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);

    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    da.view = dv; da.depthLoadOp = WGPULoadOp_Clear; da.depthStoreOp = WGPUStoreOp_Store; da.depthClearValue = 0.25f;
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.depthStencilAttachment = &da;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = cv; ca.loadOp = WGPULoadOp_Clear; ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ 0, 0, 1, 1 };
    da.depthLoadOp = WGPULoadOp_Undefined; da.depthStoreOp = WGPUStoreOp_Undefined; da.depthReadOnly = true;
    rpd.colorAttachmentCount = 1; rpd.colorAttachments = &ca;
    /* Twice: a read-only pass must leave the depth as it was for the next one. */
    for (int pass = 0; pass < 2; pass++) {
        rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
        wgpuRenderPassEncoderSetPipeline(rp, p);
        wgpuRenderPassEncoderSetBindGroup(rp, 0, bg, 0, NULL);
        wgpuRenderPassEncoderDraw(rp, 3, 1, 0, 0);
        wgpuRenderPassEncoderEnd(rp);
        wgpuRenderPassEncoderRelease(rp);
    }
    t_submit(e);
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * 8);
    e = t_encoder(d);
    WGPUTexelCopyTextureInfo ti = t_tex_info(rt, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, 0, 256, 8);
    WGPUExtent3D sz = t_extent(8, 8, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    bool ok = t_readback(d, b, 256 * 5 + 4 * 3, 4, px);   /* pixel (3, 5) */
    wgpuBufferRelease(b);
    wgpuRenderPipelineRelease(p);
    wgpuBindGroupRelease(bg);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuSamplerRelease(smp);
    wgpuTextureViewRelease(cv);
    wgpuTextureViewRelease(dv);
    wgpuTextureRelease(rt);
    wgpuTextureRelease(depth);
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    return ok;
}

EG_TEST(vulkan, depth_sampled_while_read_only_attachment)
{
    VK_SETUP();
    uint8_t px[4] = { 0, 0, 0, 0 };
#if EMGPU_HAL_VULKAN
    uint32_t messages = eg_vk_validation_messages();   /* with EMGPU_VK_VALIDATION=1: no hazard */
#endif
    EG_ASSERT(depth_read_run(d, px));
    EG_EXPECT_NO_ERROR();
#if EMGPU_HAL_VULKAN
    EG_EXPECT_EQ_U(eg_vk_validation_messages(), messages);
#endif
    EG_EXPECT(px[0] >= 63 && px[0] <= 65);
    EG_EXPECT_EQ_U(px[1], 0);
    EG_EXPECT_EQ_U(px[2], 0);
    EG_EXPECT_EQ_U(px[3], 255);
    eg_test_device_release();
}
