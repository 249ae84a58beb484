/* Shared setup of the D3D12 backend tests: the D3D12-only device, HRESULTs for fault injection, loss check, modules, uploads. */
#ifndef EG_D3D12_TEST_UTIL_H
#define EG_D3D12_TEST_UTIL_H

#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#include "hal/d3d12/d3d_fault.h"
#include "port/port.h"

/* HRESULTs (the tests include no Windows header). */
enum {
    FAULT_OOM = (int32_t)0x8007000E,        /* E_OUTOFMEMORY */
    FAULT_LOST = (int32_t)0x887A0005,       /* DXGI_ERROR_DEVICE_REMOVED */
    FAULT_INVALIDARG = (int32_t)0x80070057  /* E_INVALIDARG */
};

/* A device only when this run targets D3D12 (EMGPU_TEST_BACKEND=d3d12 on the windows-x64 board,
 * under wine); these tests check D3D12 behaviour and are not applicable elsewhere. */
static inline WGPUDevice d3d_device(void)
{
    WGPUDevice d = eg_test_device("soft");
    if (d && strcmp(eg_test_backend(), "d3d12") == 0) return d;
    if (d) eg_test_device_release();
    return NULL;
}
#define D3D_SETUP() WGPUDevice d = d3d_device(); if (!d) EG_NOT_APPLICABLE("runs in the D3D12 pass (EMGPU_TEST_BACKEND=d3d12)")

static inline bool device_is_lost(WGPUDevice d)
{
    WGPUFutureWaitInfo w = { wgpuDeviceGetLostFuture(d), WGPU_FALSE };
    (void)wgpuInstanceWaitAny(eg_test_instance(), 1, &w, 0);
    return w.completed;
}

/* A module of the embedded test SPIR-V `name` (tests/shaders); NULL when it is not embedded. */
static inline WGPUShaderModule d3d_module(WGPUDevice d, const char *name)
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

/* A buffer of `usage` (plus CopyDst) holding `data`, written through the queue. */
static inline WGPUBuffer d3d_upload(WGPUDevice d, WGPUBufferUsage usage, const void *data, uint32_t size_B)
{
    WGPUBuffer b = t_buffer(d, usage | WGPUBufferUsage_CopyDst, size_B);
    wgpuQueueWriteBuffer(eg_test_queue(), b, 0, data, size_B);
    return b;
}

#endif /* EG_D3D12_TEST_UTIL_H */
