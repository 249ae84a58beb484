/* Tests for texture views: default resolution, range/aspect/dimension rules, pool capacity. */
#include <webgpu/webgpu.h>

#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"

static WGPUTexture make_texture(WGPUDevice dev, uint32_t layers)
{
    WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;
    d.usage = WGPUTextureUsage_TextureBinding;
    d.size.width = 16; d.size.height = 16; d.size.depthOrArrayLayers = layers;
    d.mipLevelCount = 3;
    d.format = WGPUTextureFormat_RGBA8Unorm;
    return wgpuDeviceCreateTexture(dev, &d);
}

EG_TEST(texture_view, defaults_and_rules)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = make_texture(dev, 6);
    WGPUTextureView v = wgpuTextureCreateView(t, NULL);   /* 2DArray of 6 layers, 3 mips */
    EG_EXPECT_NO_ERROR();
    wgpuTextureViewRelease(v);
    WGPUTextureViewDescriptor d = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    d.dimension = WGPUTextureViewDimension_Cube;          /* 6 layers, square: valid */
    wgpuTextureViewRelease(wgpuTextureCreateView(t, &d));
    EG_EXPECT_NO_ERROR();
    d.arrayLayerCount = 5;                                 /* cube needs exactly 6 */
    wgpuTextureViewRelease(wgpuTextureCreateView(t, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, VIEW_LAYER_COUNT, "arrayLayerCount 6");
    d = (WGPUTextureViewDescriptor)WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    d.baseMipLevel = 2; d.mipLevelCount = 2;               /* 2 + 2 > 3 mips */
    wgpuTextureViewRelease(wgpuTextureCreateView(t, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, VIEW_MIP_RANGE, "baseMipLevel 2");
    d = (WGPUTextureViewDescriptor)WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    d.dimension = WGPUTextureViewDimension_3D;             /* 3D only from 3D textures */
    wgpuTextureViewRelease(wgpuTextureCreateView(t, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, VIEW_DIMENSION, "3D");
    d = (WGPUTextureViewDescriptor)WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    d.aspect = WGPUTextureAspect_DepthOnly;                /* rgba8unorm has no depth */
    wgpuTextureViewRelease(wgpuTextureCreateView(t, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, VIEW_ASPECT, "DepthOnly");
    d = (WGPUTextureViewDescriptor)WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    d.format = WGPUTextureFormat_RGBA8UnormSrgb;           /* not listed in viewFormats */
    wgpuTextureViewRelease(wgpuTextureCreateView(t, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, VIEW_FORMAT, "RGBA8UnormSrgb");
    wgpuTextureRelease(t);
    eg_test_device_release();
}

EG_TEST(texture_view, pool_capacity_plus_one)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = make_texture(dev, 1);
    static WGPUTextureView views[EMGPU_MAX_TEXTURE_VIEWS];
    for (unsigned i = 0; i < EMGPU_MAX_TEXTURE_VIEWS; i++) views[i] = wgpuTextureCreateView(t, NULL);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(wgpuTextureCreateView(t, NULL) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_TEXTURE_VIEWS");
    wgpuTextureViewRelease(views[0]);
    views[0] = wgpuTextureCreateView(t, NULL);
    EG_EXPECT(views[0] != NULL);
    EG_EXPECT_NO_ERROR();
    for (unsigned i = 0; i < EMGPU_MAX_TEXTURE_VIEWS; i++) wgpuTextureViewRelease(views[i]);
    wgpuTextureRelease(t);
    eg_test_device_release();
}
