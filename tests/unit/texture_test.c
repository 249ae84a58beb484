/* Tests for textures: createTexture rules in spec order, getters, pool capacity. */
#include <emgpu/emgpu.h>
#include <webgpu/webgpu.h>

#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "port/port.h"
#include <string.h>

static WGPUTextureDescriptor valid_desc(void)
{
    WGPUTextureDescriptor d = WGPU_TEXTURE_DESCRIPTOR_INIT;   /* 2D, mip 1, sample 1 */
    d.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
    d.size.width = 64;
    d.size.height = 64;
    d.size.depthOrArrayLayers = 1;
    d.format = WGPUTextureFormat_RGBA8Unorm;
    return d;
}

static void expect_fail(WGPUDevice dev, const WGPUTextureDescriptor *d)
{
    wgpuTextureRelease(wgpuDeviceCreateTexture(dev, d));
}

EG_TEST(texture_create, valid_baseline_and_getters)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUTextureDescriptor d = valid_desc();
    d.mipLevelCount = 7;                             /* full chain of 64: log2(64) + 1 */
    WGPUTexture t = wgpuDeviceCreateTexture(dev, &d);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(wgpuTextureGetWidth(t), 64);
    EG_EXPECT_EQ_U(wgpuTextureGetMipLevelCount(t), 7);
    EG_EXPECT_EQ_U(wgpuTextureGetFormat(t), WGPUTextureFormat_RGBA8Unorm);
    EG_EXPECT_EQ_U(wgpuTextureGetDimension(t), WGPUTextureDimension_2D);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

EG_TEST(texture_create, rules)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUTextureDescriptor d = valid_desc();
    d.usage = WGPUTextureUsage_None;
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_USAGE_NONE, "usage is 0");
    d = valid_desc(); d.size.width = 0;
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_SIZE_ZERO, "zero dimension");
    d = valid_desc(); d.dimension = WGPUTextureDimension_1D; d.size.height = 2;
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_1D_SHAPE, "height");
    d = valid_desc(); d.size.width = 8193;          /* default maxTextureDimension2D 8192 */
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_TOO_LARGE, "maxTextureDimension2D");
    d = valid_desc(); d.size.depthOrArrayLayers = 257;   /* default maxTextureArrayLayers 256 */
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_TOO_MANY_LAYERS, "maxTextureArrayLayers");
    d = valid_desc(); d.mipLevelCount = 8;          /* full chain of 64x64 is 7 */
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_MIP_COUNT_TOO_LARGE, "mipLevelCount 8 exceeds 7");
    d = valid_desc(); d.sampleCount = 2;            /* only 1 and 4 */
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_SAMPLE_COUNT, "sampleCount 2");
    d = valid_desc(); d.sampleCount = 4; d.usage = WGPUTextureUsage_RenderAttachment; d.mipLevelCount = 2;
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_MULTISAMPLE, "mipLevelCount 1");
    d = valid_desc(); d.format = WGPUTextureFormat_RGB9E5Ufloat; d.usage = WGPUTextureUsage_RenderAttachment;
    expect_fail(dev, &d);                            /* rgb9e5ufloat is not renderable */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_FORMAT_USAGE, "RGB9E5Ufloat");
    d = valid_desc(); d.format = WGPUTextureFormat_BC1RGBAUnorm;   /* needs texture-compression-bc */
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_FORMAT_FEATURE, "TextureCompressionBC");
    WGPUTextureFormat vf = WGPUTextureFormat_BGRA8Unorm;           /* not rgba8's srgb twin */
    d = valid_desc(); d.viewFormatCount = 1; d.viewFormats = &vf;
    expect_fail(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_VIEW_FORMATS, "viewFormats[0] BGRA8Unorm");
    eg_test_device_release();
}

EG_TEST(texture_create, rgb565_renders)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    /* An adapter whose driver lacks RGB565 says so (rgb565_missing_names_format checks that). */
    if (!wgpuDeviceEmgpuHasTextureFormat(dev, WGPUTextureFormat_EmgpuRGB565Unorm)) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("the adapter lacks EmgpuRGB565Unorm (wgpuDeviceEmgpuHasTextureFormat)");
    }
    WGPUTextureDescriptor d = valid_desc();
    d.format = WGPUTextureFormat_EmgpuRGB565Unorm;
    d.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    WGPUTexture t = wgpuDeviceCreateTexture(dev, &d);
    EG_EXPECT_NO_ERROR();
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* emgpu extension formats may be missing from an adapter's driver (kernel/api/device_info.h
 * ext_formats_missing). The software rasterizer always has RGB565; an adapter without it (D3D12
 * under wine 8.0) answers false, and creating such a texture is a validation error naming the
 * format and pointing at wgpuDeviceEmgpuHasTextureFormat. */
EG_TEST(texture_create, rgb565_missing_names_format)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUBool has = wgpuDeviceEmgpuHasTextureFormat(dev, WGPUTextureFormat_EmgpuRGB565Unorm);
    if (strcmp(eg_test_backend(), "soft") == 0) EG_EXPECT(has);
    WGPUTextureDescriptor d = valid_desc();
    d.format = WGPUTextureFormat_EmgpuRGB565Unorm;
    d.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    WGPUTexture t = wgpuDeviceCreateTexture(dev, &d);
    if (has) {
        EG_EXPECT_NO_ERROR();
    } else {
        EG_EXPECT_STR_CONTAINS(eg_test_err.message, "wgpuDeviceEmgpuHasTextureFormat");
        EG_EXPECT_ERROR(WGPUErrorType_Validation, TEXTURE_FORMAT_ADAPTER, "RGB565");
    }
    if (t) wgpuTextureRelease(t);
    eg_test_device_release();
}

EG_TEST(texture_create, pool_capacity_plus_one)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUTextureDescriptor d = valid_desc();
    d.size.width = d.size.height = 4;
    static WGPUTexture tex[EMGPU_MAX_TEXTURES];
    for (unsigned i = 0; i < EMGPU_MAX_TEXTURES; i++) tex[i] = wgpuDeviceCreateTexture(dev, &d);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(wgpuDeviceCreateTexture(dev, &d) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_TEXTURES");
    wgpuTextureRelease(tex[0]);
    tex[0] = wgpuDeviceCreateTexture(dev, &d);
    EG_EXPECT(tex[0] != NULL);
    EG_EXPECT_NO_ERROR();
    for (unsigned i = 0; i < EMGPU_MAX_TEXTURES; i++) wgpuTextureRelease(tex[i]);
    eg_test_device_release();
}
