/* Shared by the Vulkan test files: a device only in the Vulkan pass, and modules from the
 * embedded test shaders. */
#ifndef EG_VK_TEST_UTIL_H
#define EG_VK_TEST_UTIL_H

#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"

#if EMGPU_HAL_VULKAN
uint32_t eg_vk_validation_messages(void);   /* hal/vulkan/vk_device.c */
#endif

/* A device only when this run targets Vulkan (EMGPU_TEST_BACKEND=vulkan); these tests check
 * Vulkan behaviour and are not applicable elsewhere. */
static inline WGPUDevice vk_device(void)
{
#if EMGPU_HAL_VULKAN
    WGPUDevice d = eg_test_device("soft");
    if (d && strcmp(eg_test_backend(), "vulkan") == 0) return d;
    if (d) eg_test_device_release();
#endif
    return NULL;
}
#define VK_SETUP() WGPUDevice d = vk_device(); if (!d) EG_NOT_APPLICABLE("runs in the Vulkan pass (EMGPU_TEST_BACKEND=vulkan)")

static inline WGPUShaderModule vk_module(WGPUDevice d, const char *name)
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

#endif /* EG_VK_TEST_UTIL_H */
