/* Vulkan backend tests: a depth texture sampled while it is the pass's read-only depth attachment.
 * (Integer division edges, which Vulkan leaves open, are tested on every backend in
 * shader_semantics_test.c.) */
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
