/* Tests for samplers: createSampler rules, NULL descriptor default, pool capacity. */
#include <webgpu/webgpu.h>

#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"

EG_TEST(sampler_create, rules)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    wgpuSamplerRelease(wgpuDeviceCreateSampler(dev, NULL));   /* NULL: the default descriptor */
    EG_EXPECT_NO_ERROR();
    WGPUSamplerDescriptor d = WGPU_SAMPLER_DESCRIPTOR_INIT;
    d.lodMinClamp = -1.0f;                                    /* spec: lodMinClamp >= 0 */
    wgpuSamplerRelease(wgpuDeviceCreateSampler(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SAMPLER_LOD_CLAMP, "lodMinClamp");
    d = (WGPUSamplerDescriptor)WGPU_SAMPLER_DESCRIPTOR_INIT;
    d.lodMinClamp = 4.0f; d.lodMaxClamp = 2.0f;               /* lodMaxClamp >= lodMinClamp */
    wgpuSamplerRelease(wgpuDeviceCreateSampler(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SAMPLER_LOD_CLAMP, "lodMaxClamp");
    d = (WGPUSamplerDescriptor)WGPU_SAMPLER_DESCRIPTOR_INIT;
    d.maxAnisotropy = 0;                                      /* >= 1 */
    wgpuSamplerRelease(wgpuDeviceCreateSampler(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SAMPLER_ANISOTROPY, "maxAnisotropy 0");
    d.maxAnisotropy = 4;                                      /* > 1 needs all-linear filters */
    wgpuSamplerRelease(wgpuDeviceCreateSampler(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SAMPLER_ANISOTROPY, "Linear");
    eg_test_device_release();
}

EG_TEST(sampler_create, pool_capacity_plus_one)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    static WGPUSampler s[EMGPU_MAX_SAMPLERS];
    for (unsigned i = 0; i < EMGPU_MAX_SAMPLERS; i++) s[i] = wgpuDeviceCreateSampler(dev, NULL);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(wgpuDeviceCreateSampler(dev, NULL) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_SAMPLERS");
    wgpuSamplerRelease(s[0]);
    s[0] = wgpuDeviceCreateSampler(dev, NULL);
    EG_EXPECT(s[0] != NULL);
    EG_EXPECT_NO_ERROR();
    for (unsigned i = 0; i < EMGPU_MAX_SAMPLERS; i++) wgpuSamplerRelease(s[i]);
    eg_test_device_release();
}
