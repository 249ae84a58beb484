/* A pipeline at WebGPU's default per-stage resource limits runs on every backend (issue #4: the
 * soft VM must run every pipeline the front end accepts; it held 16 resources per program). */
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/unit/cmd_test_util.h"

#define N_UBO 12u   /* WebGPU default maxUniformBuffersPerShaderStage */
#define N_SSBO 5u   /* 17 resources: more than the 16 the soft VM held (EMGPU_MAX_SPIRV_WORDS caps the shader) */

/* limits_many_buffers.comp: 12 uniform + 5 storage buffers in one compute stage. Expected value
 * from the shader's definition: sum (k + 1) for k < 12 = 78, plus sum 100 (k + 1) for k < 4
 * = 1000: 1078. */
EG_TEST(limits, compute_stage_with_17_buffers)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPULimits lim = WGPU_LIMITS_INIT;
    wgpuDeviceGetLimits(d, &lim);
    if (lim.maxUniformBuffersPerShaderStage < N_UBO || lim.maxStorageBuffersPerShaderStage < N_SSBO ||
        lim.maxStorageBuffersPerShaderStage + lim.maxUniformBuffersPerShaderStage < N_UBO + N_SSBO) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("the device offers fewer buffers per stage than WebGPU's defaults");
    }
    WGPUComputePipeline pipe = t_compute_pipeline(d, "limits_many_buffers.comp");
    EG_EXPECT_NO_ERROR();
    EG_ASSERT(pipe != NULL);
    /* One uniform buffer and one read-only storage buffer, each bound at several 256-byte offsets
     * (minUniform/StorageBufferOffsetAlignment), and the written block's own buffer. */
    WGPUBuffer ubo = t_buffer(d, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, N_UBO * 256u);
    WGPUBuffer ro = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, (N_SSBO - 1u) * 256u);
    WGPUBuffer dst = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 16);
    WGPUBindGroupEntry be[N_UBO + N_SSBO];
    for (uint32_t k = 0; k < N_UBO + N_SSBO; k++) {
        bool u = k < N_UBO, last = k == N_UBO + N_SSBO - 1u;
        uint32_t j = u ? k : k - N_UBO, v = u ? k + 1u : last ? 0u : 100u * (j + 1u);
        WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
        e.binding = j;   /* group 0: the uniform blocks, group 1: the storage ones */
        e.buffer = u ? ubo : last ? dst : ro;
        e.offset = last ? 0 : 256u * j;
        e.size = 16;
        wgpuQueueWriteBuffer(eg_test_queue(), e.buffer, e.offset, &v, sizeof v);
        be[k] = e;
    }
    WGPUBindGroupLayout bgl[2];
    WGPUBindGroup bg[2];
    for (uint32_t g = 0; g < 2; g++) {
        bgl[g] = wgpuComputePipelineGetBindGroupLayout(pipe, g);
        WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
        bd.layout = bgl[g];
        bd.entryCount = g ? N_SSBO : N_UBO;
        bd.entries = g ? be + N_UBO : be;
        bg[g] = wgpuDeviceCreateBindGroup(d, &bd);
    }
    t_dispatch(d, pipe, bg, 2, 1);
    uint32_t out = 0;
    EG_EXPECT(t_readback(d, dst, 0, sizeof out, &out));
    EG_EXPECT_EQ_U(out, 1078u);
    EG_EXPECT_NO_ERROR();
    for (uint32_t g = 0; g < 2; g++) {
        wgpuBindGroupRelease(bg[g]);
        wgpuBindGroupLayoutRelease(bgl[g]);
    }
    wgpuBufferRelease(ubo);
    wgpuBufferRelease(ro);
    wgpuBufferRelease(dst);
    wgpuComputePipelineRelease(pipe);
    eg_test_device_release();
}

/* Runs compute module `name` once over one storage buffer holding words[0..n) and reads the n
 * words back into the same array. */
static bool run_one_buffer(WGPUDevice d, const char *name, uint32_t *words, uint32_t n)
{
    WGPUComputePipeline pipe = t_compute_pipeline(d, name);
    if (!pipe) return false;
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 4u * n);
    wgpuQueueWriteBuffer(eg_test_queue(), b, 0, words, 4u * n);
    WGPUBindGroupLayout bgl = wgpuComputePipelineGetBindGroupLayout(pipe, 0);
    WGPUBindGroupEntry be = WGPU_BIND_GROUP_ENTRY_INIT;
    be.binding = 0;
    be.buffer = b;
    be.size = 4u * n;
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl;
    bd.entryCount = 1;
    bd.entries = &be;
    WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bd);
    t_dispatch(d, pipe, &bg, 1, 1);
    memset(words, 0, 4u * n);
    bool ok = t_readback(d, b, 0, 4u * n, words);
    wgpuBindGroupRelease(bg);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuBufferRelease(b);
    wgpuComputePipelineRelease(pipe);
    return ok;
}

/* Runs `module` (one 16-byte storage buffer, zeros) and checks its 4 words against want. */
static void expect_words(const char *module, const uint32_t want[4])
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    uint32_t out[4] = { 0, 0, 0, 0 };
    EG_EXPECT(run_one_buffer(d, module, out, 4));
    EG_EXPECT_NO_ERROR();
    for (uint32_t i = 0; i < 4; i++) EG_EXPECT_EQ_U(out[i], want[i]);
    eg_test_device_release();
}

/* limits_calls.comp: o.v[0] = f1(0) where f_k(x) = f_{k+1}(x) + k and f20(x) = x + 20: the sum
 * 1 + ... + 20 = 210. */
EG_TEST(limits, compute_calls_nested_20_deep)
{
    static const uint32_t want[4] = { 210u, 0, 0, 0 };
    expect_words("limits_calls.comp", want);
}

/* limits_args.comp: o.v[1] = wide(1, ..., 18) = sum of k * k for k = 1..18 = 2109. */
EG_TEST(limits, compute_call_with_18_arguments)
{
    static const uint32_t want[4] = { 0, 2109u, 0, 0 };
    expect_words("limits_args.comp", want);
}

/* vm_switch_phi.comp.spvasm: OpPhi in switch targets (the merge block as the default target,
 * and a case block). Expected from the module's definition: invocation i in 0..3 stores 10 (i = 0:
 * default), 20, 30, 5 + 35 = 40. */
EG_TEST(limits, compute_phi_in_switch_targets)
{
    static const uint32_t want[4] = { 10u, 20u, 30u, 40u };
    expect_words("vm_switch_phi.comp", want);
}

/* limits_local_oob.comp with index 5 into arrays of 4 (workgroup, private, function): the arrays
 * after them (wb, pb, fb) keep 20.., 40.., 60.. (WGSL out-of-bounds rules: only the indexed
 * array may change), and the out-of-bounds loads (index 6) return 0 or a value of their array
 * (10..13 or 99; 30..33 or 98; 50..53 or 97). */
static bool local_oob_ok(uint32_t v, uint32_t base, uint32_t stored)
{
    return v == 0 || v == stored || (v >= base && v < base + 4u);
}

EG_TEST(limits, local_arrays_out_of_bounds_stay_inside)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    uint32_t out[16] = { 5 };   /* o.v[0]: the index */
    EG_EXPECT(run_one_buffer(d, "limits_local_oob.comp", out, 16));
    EG_EXPECT_NO_ERROR();
    for (uint32_t i = 0; i < 4; i++) {
        EG_EXPECT_EQ_U(out[1 + i], 20u + i);
        EG_EXPECT_EQ_U(out[5 + i], 40u + i);
        EG_EXPECT_EQ_U(out[9 + i], 60u + i);
    }
    EG_EXPECT(local_oob_ok(out[13], 10u, 99u));
    EG_EXPECT(local_oob_ok(out[14], 30u, 98u));
    EG_EXPECT(local_oob_ok(out[15], 50u, 97u));
    eg_test_device_release();
}
