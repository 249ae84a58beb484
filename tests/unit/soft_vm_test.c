/* Tests for the soft shader VM: real GLSL (tests/shaders/vm_*) compiled at build time, run
 * through the public API (compute) or the VM entry points (vertex/fragment), compared with the
 * same arithmetic done here in C per lane. */
#include "config/emgpu_config.h"
#include "kernel/api/shader_module.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_shader.h"
#endif

static WGPUShaderModule vm_module(WGPUDevice d, const char *name)
{
    const eg_test_spv_t *spv = eg_test_spv(name);
    if (!spv) return NULL;
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = spv->words;
    src.codeSize = spv->word_count;
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d, &md);
}

#define VM_MAX_BUFS 3

/* One compute run: storage buffers at bindings 0..n-1 of group 0 (binding i bound over
 * [0, bound_B[i]) of a buffer of size_B[i] bytes, filled from init[i]); dispatches groups_x
 * workgroups and reads every buffer back into out[i]. */
typedef struct vm_run {
    const char *shader;
    uint32_t n;
    uint32_t size_B[VM_MAX_BUFS], bound_B[VM_MAX_BUFS];
    const void *init[VM_MAX_BUFS];
    void *out[VM_MAX_BUFS];
    uint32_t groups_x;
} vm_run_t;

static bool run_compute(WGPUDevice d, const vm_run_t *r)
{
    WGPUBindGroupLayoutEntry le[VM_MAX_BUFS];
    WGPUBindGroupEntry be[VM_MAX_BUFS];
    WGPUBuffer buf[VM_MAX_BUFS];
    for (uint32_t i = 0; i < r->n; i++) {
        le[i] = (WGPUBindGroupLayoutEntry)WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
        le[i].binding = i;
        le[i].visibility = WGPUShaderStage_Compute;
        le[i].buffer.type = WGPUBufferBindingType_Storage;
        buf[i] = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst,
                          r->size_B[i]);
        if (r->init[i]) wgpuQueueWriteBuffer(eg_test_queue(), buf[i], 0, r->init[i], r->size_B[i]);
        be[i] = (WGPUBindGroupEntry)WGPU_BIND_GROUP_ENTRY_INIT;
        be[i].binding = i;
        be[i].buffer = buf[i];
        be[i].size = r->bound_B[i] ? r->bound_B[i] : r->size_B[i];
    }
    WGPUBindGroupLayoutDescriptor bld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bld.entryCount = r->n;
    bld.entries = le;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(d, &bld);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1;
    pld.bindGroupLayouts = &bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pld);
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.layout = pl;
    cd.compute.module = vm_module(d, r->shader);
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    WGPUBindGroupDescriptor gd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    gd.layout = bgl;
    gd.entryCount = r->n;
    gd.entries = be;
    WGPUBindGroup g = wgpuDeviceCreateBindGroup(d, &gd);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderSetPipeline(pass, p);
    wgpuComputePassEncoderSetBindGroup(pass, 0, g, 0, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(pass, r->groups_x, 1, 1);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    t_submit(e);
    bool ok = eg_test_err.count == 0;
    if (!ok) eg_test_printf("    error: %s\n", eg_test_err.message);
    for (uint32_t i = 0; i < r->n; i++) {
        if (ok && r->out[i]) ok = t_readback(d, buf[i], 0, r->size_B[i], r->out[i]);
        wgpuBufferRelease(buf[i]);
    }
    wgpuBindGroupRelease(g);
    wgpuComputePipelineRelease(p);
    wgpuShaderModuleRelease(cd.compute.module);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(bgl);
    return ok;
}

static uint32_t f2u(float f) { union { float f; uint32_t u; } v = { .f = f }; return v.u; }

/* Float results of IEEE-exact operations must match bit for bit. */
#define EXPECT_F_BITS(got, want) EG_EXPECT_EQ_U(f2u(got), f2u(want))

/* SPIR-V OpSMod (what glslang emits for %): the remainder takes the sign of the divisor. */
static int32_t smod_c(int32_t a, int32_t b) { int32_t r = a % b; return r != 0 && (r < 0) != (b < 0) ? r + b : r; }

static float floor_c(float x) { float t = (float)(int32_t)x; return t > x ? t - 1.0f : t; }

EG_TEST(soft_vm, compute_arithmetic_matches_c)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    struct { float a[16], b[16]; int32_t ia[16], ib[16]; } in;
    struct { float f[32][4]; int32_t i[32][4]; } out;
    for (int g = 0; g < 16; g++) {
        in.a[g] = (float)(g - 7) * 0.75f;
        in.b[g] = (float)(g % 5) + 0.5f;
        in.ia[g] = (g - 8) * 37 + 3;
        in.ib[g] = g % 3 == 0 ? -(g + 1) : g + 2;
    }
    bool gpu = eg_strcmp(eg_test_backend(), "soft") != 0;
    vm_run_t r = { "vm_alu.comp", 2, { sizeof in, sizeof out }, { 0, 0 }, { &in, NULL }, { NULL, &out }, 1 };
    EG_ASSERT(run_compute(d, &r));
    for (int g = 0; g < 16; g++) {
        float a = in.a[g], b = in.b[g];
        int32_t ia = in.ia[g], ib = in.ib[g];
        /* GLSL: mod(a, b) = a - b * floor(a / b); clamp = min(max(a, lo), hi) */
        float want_f[8] = { a + b, a - b, a * b, a / b, a - b * floor_c(a / b), a < b ? a : b,
                            (a < 0 ? -a : a) + floor_c(b), a < -1.0f ? -1.0f : a > 2.0f ? 2.0f : a };
        int32_t want_i[8] = { ia + ib, ia * ib, ia / ib, smod_c(ia, ib), ia >> 2, (ia & ib) ^ 0x55,
                              ia < ib ? ia : ib, (int32_t)(a * 10.0f) };
        for (int k = 0; k < 8; k++) {
            float got = out.f[g * 2 + k / 4][k % 4];
            if (gpu && (k == 3 || k == 4)) {
                /* Vulkan precision rules allow 2.5 ULP for a / b (and mod, built on it); soft is
                 * exact. Compare within 3 ULP on GPU backends. */
                int32_t du = (int32_t)(f2u(got) - f2u(want_f[k]));
                EG_EXPECT(du >= -3 && du <= 3);
            } else {
                EXPECT_F_BITS(got, want_f[k]);
            }
            /* Vulkan leaves OpSMod/OpSRem undefined for negative operands (GLSL ES too), which
             * WebGPU defines: GPU backends rewrite them (kernel/shader/spirv_polyfill.c), so
             * every lane is checked on every backend. */
            EG_EXPECT_EQ_I(out.i[g * 2 + k / 4][k % 4], want_i[k]);
        }
    }
    eg_test_device_release();
}

static int32_t collatz_c(int32_t n)
{
    int32_t steps = 0;
    while (n != 1) {
        n = (n & 1) == 0 ? n / 2 : 3 * n + 1;
        if (++steps > 100) break;
    }
    return steps;
}

EG_TEST(soft_vm, compute_divergent_control_flow)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    int32_t out[32][4];
    vm_run_t r = { "vm_flow.comp", 1, { sizeof out }, { 0 }, { NULL }, { out }, 2 };
    EG_ASSERT(run_compute(d, &r));
    for (int32_t g = 0; g < 32; g++) {
        int32_t v = g + 1, s = 0, c = v % 4;
        for (int32_t k = 0; k < v; k++) {
            if (k == 3) continue;
            if (k > 9) break;
            s += k;
        }
        EG_EXPECT_EQ_I(out[g][0], collatz_c(v));
        EG_EXPECT_EQ_I(out[g][1], c == 0 ? 10 : c == 1 ? 20 : 30 + v);
        EG_EXPECT_EQ_I(out[g][2], s);
        EG_EXPECT_EQ_I(out[g][3], (g & 1) == 0 ? v * v : -v);
    }
    eg_test_device_release();
}

EG_TEST(soft_vm, compute_prefix_sum_barriers_atomics)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static uint32_t in[4 + 128], out[4 + 128];
    for (uint32_t i = 0; i < 128; i++) in[4 + i] = (i * 7u + 3u) % 11u;
    in[0] = 5;   /* the atomic adds onto the existing total */
    vm_run_t r = { "vm_scan.comp", 1, { sizeof in }, { 0 }, { in }, { out }, 2 };
    EG_ASSERT(run_compute(d, &r));
    uint32_t total = 5;
    for (uint32_t wg = 0; wg < 2; wg++) {
        uint32_t acc = 0;   /* inclusive scan inside each workgroup of 64 */
        for (uint32_t i = 0; i < 64; i++) {
            acc += in[4 + wg * 64 + i];
            EG_EXPECT_EQ_U(out[4 + wg * 64 + i], acc);
        }
        total += acc;
    }
    EG_EXPECT_EQ_U(out[0], total);
    eg_test_device_release();
}

EG_TEST(soft_vm, compute_out_of_bounds_reads_zero_writes_dropped)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    uint32_t src[32], dst[32], out_src[32], out_dst[32];
    for (uint32_t i = 0; i < 32; i++) { src[i] = 100 + i; dst[i] = 0xdeadbeefu; }
    /* src bound over its first 16 words, dst over its first 8: the rest must stay untouched */
    vm_run_t r = { "vm_oob.comp", 2, { sizeof src, sizeof dst }, { 64, 32 }, { src, dst }, { out_src, out_dst }, 1 };
    EG_ASSERT(run_compute(d, &r));
    for (uint32_t g = 0; g < 32; g++) {
        /* WebGPU robust access: loads outside the binding return 0, stores outside are discarded */
        uint32_t want = g < 8 ? (g * 3 < 16 ? src[g * 3] : 0u) + 1u : 0xdeadbeefu;
        EG_EXPECT_EQ_U(out_dst[g], want);
        EG_EXPECT_EQ_U(out_src[g], src[g]);
    }
    eg_test_device_release();
}

#if EMGPU_HAL_SOFT
static eg_soft_program_t *vm_program(WGPUShaderModule m, eg_shader_stage_t stage)
{
    eg_soft_program_t *p = NULL;
    if (!m || eg_soft_program_create((const eg_shader_module_t *)m, "main", stage, NULL, &p) != EG_STATUS_OK)
        return NULL;
    return p;
}

EG_TEST(soft_vm, vertex_passthrough)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d || eg_strcmp(eg_test_backend(), "soft")) EG_NOT_APPLICABLE("soft VM internals");
    WGPUShaderModule m = vm_module(d, "vm_pass.vert");
    eg_soft_program_t *p = vm_program(m, EG_SHADER_STAGE_VERTEX);
    EG_ASSERT(p);
    const eg_soft_program_info_t *info = eg_soft_program_info(p);
    EG_EXPECT_EQ_U(info->input_mask, 3u);
    EG_EXPECT_EQ_U(info->output_mask, 3u);
    static eg_soft_vec4_t in[EG_SOFT_MAX_LOCATIONS], out[EG_SOFT_MAX_LOCATIONS];
    static eg_soft_invocation_t inv;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        for (uint32_t c = 0; c < 4; c++) in[0].c[c].f[l] = (float)l * 0.5f + (float)c;
        in[1].c[0].f[l] = (float)l / 16.0f;
        in[1].c[1].f[l] = 1.0f - (float)l / 16.0f;
        inv.vertex_index.u[l] = l + 3;
        inv.instance_index.u[l] = 2;
    }
    inv.in = in;
    inv.out = out;
    inv.active = 0x7fffu;                 /* lane 15 inactive: its outputs stay untouched */
    out[0].c[0].f[15] = -5.0f;
    eg_soft_program_run(p, NULL, &inv);
    for (uint32_t l = 0; l < 15; l++) {
        for (uint32_t c = 0; c < 4; c++)
            EXPECT_F_BITS(inv.position.c[c].f[l], in[0].c[c].f[l] * 2.0f + (c == 3 ? 1.0f : 0.0f));
        EXPECT_F_BITS(out[0].c[0].f[l], in[1].c[0].f[l]);
        EXPECT_F_BITS(out[0].c[1].f[l], in[1].c[1].f[l]);
        EG_EXPECT_EQ_U(out[1].c[0].u[l], (l + 3) * 10 + 2);
    }
    EXPECT_F_BITS(out[0].c[0].f[15], -5.0f);
    eg_soft_program_destroy(p);
    wgpuShaderModuleRelease(m);
    eg_test_device_release();
}

EG_TEST(soft_vm, fragment_derivatives_and_discard)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d || eg_strcmp(eg_test_backend(), "soft")) EG_NOT_APPLICABLE("soft VM internals");
    WGPUShaderModule m = vm_module(d, "vm_pass.frag");
    eg_soft_program_t *p = vm_program(m, EG_SHADER_STAGE_FRAGMENT);
    EG_ASSERT(p);
    EG_EXPECT(eg_soft_program_info(p)->may_discard);
    EG_EXPECT(eg_soft_program_info(p)->uses_derivatives);
    static eg_soft_vec4_t in[EG_SOFT_MAX_LOCATIONS], out[EG_SOFT_MAX_LOCATIONS];
    static eg_soft_invocation_t inv;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        uint32_t x = l & 3u, y = l >> 2;             /* lane order of soft_shader.h */
        in[0].c[0].f[l] = (float)(x * x) * 0.125f;  /* u = x^2 / 8: dFdx differs per quad */
        in[0].c[1].f[l] = l == 6 ? 0.95f : (float)y * 0.25f;
        inv.position.c[0].f[l] = (float)x + 0.5f;
    }
    inv.in = in;
    inv.out = out;
    inv.active = EG_SOFT_ALL_LANES;
    eg_soft_program_run(p, NULL, &inv);
    EG_EXPECT_EQ_U(inv.active, EG_SOFT_ALL_LANES & ~(1u << 6));   /* lane 6 discarded */
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (l == 6) continue;
        /* dFdx over the 2x2 quad: v[l | 1] - v[l & ~1]; lane 7's x-neighbour was killed (OpKill): its derivative is undefined, skip it */
        if (l != 7) EXPECT_F_BITS(out[0].c[2].f[l], in[0].c[0].f[l | 1u] - in[0].c[0].f[l & ~1u]);
        EXPECT_F_BITS(out[0].c[0].f[l], in[0].c[0].f[l]);
        EXPECT_F_BITS(out[0].c[3].f[l], inv.position.c[0].f[l]);
    }
    eg_soft_program_destroy(p);
    wgpuShaderModuleRelease(m);
    eg_test_device_release();
}
#endif
