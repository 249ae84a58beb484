/* WebGPU shader semantics that every backend must give the same answer for, whatever its
 * native API leaves undefined (Vulkan, GLSL ES). Runs on soft, and on Vulkan and GLES through
 * EMGPU_TEST_BACKEND. */
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#include "port/port.h"

static WGPUShaderModule t_module(WGPUDevice d, const char *name)
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
    WGPUShaderModule cs = t_module(d, "vm_alu.comp");
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
EG_TEST(shader_semantics, int_division_wgsl_edges)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
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

