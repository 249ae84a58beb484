/* Tests for the soft shader VM: real GLSL (tests/shaders/vm_*) compiled at build time, run
 * through the public API (compute) or the VM entry points (vertex/fragment), compared with the
 * same arithmetic done here in C per lane. */
#include "config/emgpu_config.h"
#include "kernel/api/shader_module.h"
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_shader.h"
#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_jit.h"
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
    /* WebGPU robust access allows a load outside the binding to return zero or a value from
     * inside it, and a store outside it to be dropped or to land inside it. The soft VM takes
     * zero / dropped (its documented choice); GPU backends may clamp (hal/gles/gl_robust.c),
     * so there only the words outside the binding are pinned: they must never change. */
    bool soft = strcmp(eg_test_backend(), "soft") == 0;
    for (uint32_t g = 0; g < 32; g++) {
        uint32_t want = g < 8 ? (g * 3 < 16 ? src[g * 3] : 0u) + 1u : 0xdeadbeefu;
        if (soft || g >= 8) EG_EXPECT_EQ_U(out_dst[g], want);
        EG_EXPECT_EQ_U(out_src[g], src[g]);
    }
    eg_test_device_release();
}

/* Double-precision references, written here independently of soft_vm_math.c (series). */
static double sin_d(double x) { double t = x, s = x; for (int k = 1; k < 30; k++) { t *= -x * x / ((2 * k) * (2 * k + 1)); s += t; } return s; }
static double cos_d(double x) { double t = 1, s = 1; for (int k = 1; k < 30; k++) { t *= -x * x / ((2 * k - 1) * (2 * k)); s += t; } return s; }
static double exp_d(double x) { double t = 1, s = 1; for (int k = 1; k < 80; k++) { t *= x / k; s += t; } return s; }
static double ln_d(double x)
{
    double k = 0;
    while (x >= 2.0) { x *= 0.5; k += 1; }
    while (x < 1.0) { x *= 2.0; k -= 1; }
    double t = (x - 1) / (x + 1), p = t, s = 0;
    for (int n = 1; n < 120; n += 2) { s += p / n; p *= t * t; }
    return 2 * s + k * 0.69314718055994530942;
}
static double sqrt_d(double x) { double r = x > 1 ? x : 1; for (int k = 0; k < 60; k++) r = 0.5 * (r + x / r); return r; }
static double atan_d(double t)
{
    t = t / (1 + sqrt_d(1 + t * t));   /* atan(t) = 2 atan(t / (1 + sqrt(1 + t^2))), twice */
    t = t / (1 + sqrt_d(1 + t * t));
    double p = t, s = 0;
    for (int n = 1; n < 200; n += 2) { s += (n & 2 ? -p : p) / n; p *= t * t; }
    return 4 * s;
}
static double fabs_d(double x) { return x < 0 ? -x : x; }
/* Distance in units in the last place between two floats of the same sign. */
static uint32_t ulp_diff(float a, float b) { int32_t d = (int32_t)(f2u(a) - f2u(b)); return (uint32_t)(d < 0 ? -d : d); }
static float round_even_c(float x)
{
    float f = floor_c(x), d = x - f;
    return d > 0.5f ? f + 1.0f : d < 0.5f ? f : ((int32_t)f & 1) ? f + 1.0f : f;
}
static float ceil_c(float x) { float t = (float)(int32_t)x; return t < x ? t + 1.0f : t; }
static int32_t msb_c(uint32_t x) { int32_t n = -1; while (x) { x >>= 1; n++; } return n; }

/* Bounds from the Vulkan spec, "Precision and Operation of SPIR-V Instructions" (WebGPU's are
 * the same or looser): sin/cos absolute 2^-11 in [-pi, pi]; exp2 3 + 2|x| ULP; log2 3 ULP
 * outside [0.5, 2], absolute 2^-21 inside; inversesqrt 2 ULP; sqrt inherited from
 * 1 / inversesqrt (2 + 2.5 ULP); atan2 4096 ULP; pow inherited from exp2(y * log2(x)), here
 * bounded by a relative 2^-16. floor/ceil/trunc/roundEven/sign/fract/ldexp are exact. */
EG_TEST(soft_vm, compute_glsl_std450_math)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    struct { float x[16], y[16], z[16]; uint32_t u[16]; } in;
    static struct { float f[16][12]; int32_t i[16][5]; } out;
    for (uint32_t g = 0; g < 16; g++) {
        in.x[g] = -3.0f + (float)g * 0.4f;
        in.y[g] = -4.0f + (float)g * 0.53f;
        in.z[g] = 0.1f + (float)g * 1.3f;
        in.u[g] = g == 0 ? 0u : 0x9e3779b9u * g;
    }
    vm_run_t r = { "vm_math.comp", 2, { sizeof in, sizeof out }, { 0, 0 }, { &in, NULL }, { NULL, &out }, 1 };
    EG_ASSERT(run_compute(d, &r));
    for (uint32_t g = 0; g < 16; g++) {
        float x = in.x[g], y = in.y[g], z = in.z[g];
        uint32_t u = in.u[g];
        const float *o = out.f[g];
        EG_EXPECT(fabs_d(o[0] - sin_d(x)) <= 1.0 / 2048);
        EG_EXPECT(fabs_d(o[1] - cos_d(x)) <= 1.0 / 2048);
        EG_EXPECT(ulp_diff(o[2], (float)exp_d(y * 0.69314718055994530942)) <= 3u + (uint32_t)(2.0f * fabs_d(y)));
        double l2 = ln_d(z) / 0.69314718055994530942;
        if (z >= 0.5f && z <= 2.0f) EG_EXPECT(fabs_d(o[3] - l2) <= 1.0 / 2097152);
        else EG_EXPECT(ulp_diff(o[3], (float)l2) <= 3u);
        EG_EXPECT(ulp_diff(o[4], (float)sqrt_d(z)) <= 5u);
        EG_EXPECT(ulp_diff(o[5], (float)(1.0 / sqrt_d(z))) <= 2u);
        double pw = exp_d(1.5 * ln_d(z));
        EG_EXPECT(fabs_d(o[6] - pw) <= pw / 65536);
        EG_EXPECT(ulp_diff(o[7], (float)atan_d((double)x / z)) <= 4096u);
        float p = x * 3.7f;
        EXPECT_F_BITS(o[8], p - floor_c(p));
        EXPECT_F_BITS(o[9], round_even_c(x * 2.5f));
        EXPECT_F_BITS(o[10], ceil_c(x * 1.3f) + (float)(int32_t)(y * 1.7f) + (x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f));
        float ld = x;
        for (int32_t e = (int32_t)g - 8; e < 0; e++) ld *= 0.5f;   /* exact: no denormals here */
        for (int32_t e = (int32_t)g - 8; e > 0; e--) ld *= 2.0f;
        EXPECT_F_BITS(o[11], ld);
        uint32_t rev = 0, lsb = 0, cnt = 0;
        for (uint32_t k = 0; k < 32; k++) rev |= (u >> k & 1u) << (31u - k);
        for (uint32_t k = 0; k < 32; k++) cnt += u >> k & 1u;
        while (u && !(u >> lsb & 1u)) lsb++;
        EG_EXPECT_EQ_I(out.i[g][0], u ? (int32_t)lsb : -1);
        EG_EXPECT_EQ_I(out.i[g][1], msb_c((int32_t)u < 0 ? ~u : u));   /* GLSL findMSB on int */
        EG_EXPECT_EQ_I(out.i[g][2], (int32_t)cnt);
        EG_EXPECT_EQ_U((uint32_t)out.i[g][3], rev);
        EG_EXPECT_EQ_I(out.i[g][4], (int32_t)(u >> 3 & 0x7fu));
    }
    eg_test_device_release();
}

EG_TEST(soft_vm, compute_atomics_min_max_bitwise_exchange)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static struct {
        int32_t smin, smax; uint32_t umin, umax, band, bor, bxor, wg_or;
        uint32_t xchg[16], xchg_old[16], cas[16], cas_old[16]; int32_t v[16];
    } in, out;
    in.smin = 0x7fffffff; in.smax = (int32_t)0x80000000u; in.umin = 0xffffffffu; in.umax = 0;
    in.band = 0xffffffffu; in.bor = 0x100u; in.bxor = 0x12345678u; in.wg_or = 7;
    int32_t smin = in.smin, smax = in.smax;
    uint32_t umin = in.umin, umax = 0, bxor = in.bxor, bor = in.bor;
    for (uint32_t g = 0; g < 16; g++) {
        in.v[g] = (int32_t)(g * 37u % 23u) - 11;
        in.xchg[g] = g * 7u;
        in.cas[g] = g % 2 ? 77u : g;       /* odd lanes' comparison fails */
        int32_t v = in.v[g];
        smin = v < smin ? v : smin; smax = v > smax ? v : smax;
        umin = (uint32_t)v < umin ? (uint32_t)v : umin; umax = (uint32_t)v > umax ? (uint32_t)v : umax;
        bxor ^= (uint32_t)v; bor |= 1u << (g * 2u % 32u);
    }
    vm_run_t r = { "vm_atomics.comp", 1, { sizeof in }, { 0 }, { &in }, { &out }, 1 };
    EG_ASSERT(run_compute(d, &r));
    EG_EXPECT_EQ_I(out.smin, smin);
    EG_EXPECT_EQ_I(out.smax, smax);
    EG_EXPECT_EQ_U(out.umin, umin);
    EG_EXPECT_EQ_U(out.umax, umax);
    EG_EXPECT_EQ_U(out.band, 0xffff0000u);     /* each lane g clears bit g */
    EG_EXPECT_EQ_U(out.bor, bor);
    EG_EXPECT_EQ_U(out.bxor, bxor);
    EG_EXPECT_EQ_U(out.wg_or, 0xffff0000u);    /* lane g sets bit 31 - g in shared memory */
    for (uint32_t g = 0; g < 16; g++) {
        EG_EXPECT_EQ_U(out.xchg_old[g], g * 7u);
        EG_EXPECT_EQ_U(out.xchg[g], 1000u + g);
        EG_EXPECT_EQ_U(out.cas_old[g], in.cas[g]);
        EG_EXPECT_EQ_U(out.cas[g], g % 2 ? 77u : 500u + g);
    }
    eg_test_device_release();
}

/* Column-major 4x4 (m[col][row]) as GLSL stores a mat4 in std430. */
typedef struct { float m[4][4]; } mat4_c;

EG_TEST(soft_vm, compute_matrix_ops)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static struct { mat4_c a[16], b[16]; float v[16][4]; } in;
    static struct {
        float mv[16][4], vm[16][4]; mat4_c mm[16], tr[16]; float det4[16], det3[16]; float inv3[16][3][4];
        float inv2[16][2][2];
    } out;
    for (uint32_t g = 0; g < 16; g++)
        for (uint32_t c = 0; c < 4; c++) {
            in.v[g][c] = (float)((int32_t)((g + c * 3u) % 5u) - 2);
            for (uint32_t k = 0; k < 4; k++) {
                in.a[g].m[c][k] = (float)((int32_t)((c * 4u + k + g) * 5u % 7u) - 3);
                in.b[g].m[c][k] = c == k ? 8.0f : (float)((int32_t)((c + 2u * k + g) % 5u) - 2);
            }
        }
    vm_run_t r = { "vm_matrix.comp", 2, { sizeof in, sizeof out }, { 0, 0 }, { &in, NULL }, { NULL, &out }, 1 };
    EG_ASSERT(run_compute(d, &r));
    for (uint32_t g = 0; g < 16; g++) {
        const mat4_c *a = &in.a[g], *b = &in.b[g];
        /* Small integers: every product and sum is exact, so any summation order gives these bits. */
        for (uint32_t k = 0; k < 4; k++) {
            float mv = 0, vm = 0;
            for (uint32_t c = 0; c < 4; c++) { mv += a->m[c][k] * in.v[g][c]; vm += in.v[g][c] * a->m[k][c]; }
            EXPECT_F_BITS(out.mv[g][k], mv);
            EXPECT_F_BITS(out.vm[g][k], vm);
            for (uint32_t c = 0; c < 4; c++) {
                float s = 0;
                for (uint32_t j = 0; j < 4; j++) s += a->m[j][k] * b->m[c][j];
                EXPECT_F_BITS(out.mm[g].m[c][k], s);
                EXPECT_F_BITS(out.tr[g].m[c][k], a->m[k][c]);
            }
        }
        /* determinant by cofactor expansion along column 0 (3x3 minors) */
        float det4 = 0;
        for (uint32_t i = 0; i < 4; i++) {
            uint32_t r0 = i == 0 ? 1 : 0, r1 = i <= 1 ? 2 : 1, r2 = i <= 2 ? 3 : 2;
            float minor = a->m[1][r0] * (a->m[2][r1] * a->m[3][r2] - a->m[3][r1] * a->m[2][r2])
                        - a->m[2][r0] * (a->m[1][r1] * a->m[3][r2] - a->m[3][r1] * a->m[1][r2])
                        + a->m[3][r0] * (a->m[1][r1] * a->m[2][r2] - a->m[2][r1] * a->m[1][r2]);
            det4 += (i & 1 ? -1.0f : 1.0f) * a->m[0][i] * minor;
        }
        EXPECT_F_BITS(out.det4[g], det4);
        double m3[3][3], cof[3][3];
        for (uint32_t c = 0; c < 3; c++) for (uint32_t k = 0; k < 3; k++) m3[c][k] = b->m[c][k];
        for (uint32_t c = 0; c < 3; c++)
            for (uint32_t k = 0; k < 3; k++)
                cof[c][k] = m3[(c + 1) % 3][(k + 1) % 3] * m3[(c + 2) % 3][(k + 2) % 3]
                          - m3[(c + 1) % 3][(k + 2) % 3] * m3[(c + 2) % 3][(k + 1) % 3];
        double det3 = m3[0][0] * cof[0][0] + m3[0][1] * cof[0][1] + m3[0][2] * cof[0][2];
        EXPECT_F_BITS(out.det3[g], (float)det3);   /* integers below 2^24: exact */
        /* inverse = transpose(cofactors) / det; not exact in float: within 1e-5 absolute
         * (entries are below 1, the GLSL spec gives no bound beyond the operations it uses) */
        for (uint32_t c = 0; c < 3; c++)
            for (uint32_t k = 0; k < 3; k++) EG_EXPECT(fabs_d(out.inv3[g][c][k] - cof[k][c] / det3) < 1e-5);
        double det2 = (double)b->m[0][0] * b->m[1][1] - (double)b->m[1][0] * b->m[0][1];
        EG_EXPECT(fabs_d(out.inv2[g][0][0] - b->m[1][1] / det2) < 1e-5);
        EG_EXPECT(fabs_d(out.inv2[g][0][1] + b->m[0][1] / det2) < 1e-5);
        EG_EXPECT(fabs_d(out.inv2[g][1][0] + b->m[1][0] / det2) < 1e-5);
        EG_EXPECT(fabs_d(out.inv2[g][1][1] - b->m[0][0] / det2) < 1e-5);
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
/* A NaN's payload is not defined by WebGPU/SPIR-V and x86 propagates the first operand's, which
 * depends on the operand order the C compiler picks for a commutative op: any NaN equals any. */
static bool is_nan_bits(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu); }

/* The vector ALU path (EMGPU_SOFT_SIMD) must give the bytes of the per-lane loops for every op
 * and every input, NaNs (up to payload), infinities, -0 and denormals included. */
EG_TEST(soft_vm, alu_simd_equals_scalar)
{
    static const uint32_t special[] = { 0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u, 0x80000000u, 0,
                                        1u, 0x80000001u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xffffffffu };
    uint32_t seed = 12345u, bad = 0;
    eg_soft_reg_t r[3], want, got;
    for (uint32_t round = 0; round < 24; round++) {
        for (uint32_t k = 0; k < 3; k++)
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                seed = seed * 1664525u + 1013904223u;
                uint32_t pick = seed >> 28;
                r[k].u[l] = pick < 12 && round % 2 ? special[pick] : round < 8 ? (seed >> 8) | 0x3f000000u : seed;
            }
        for (uint32_t op = EG_VM_MOV; op < EG_VM_OP_COUNT; op++) {
            if (op >= EG_VM_LD_IN && op <= EG_VM_ATOM) continue;
            if (op >= EG_VM_UNPACK_H2) continue;   /* memory / image ops are not ALU ops */
            eg_memset(&want, 0xa5, sizeof want);
            eg_memset(&got, 0x5a, sizeof got);
            eg_vm_alu_scalar(op, &want, &r[0], &r[1], &r[2]);
            eg_vm_alu(op, &got, &r[0], &r[1], &r[2]);
            bool same = true;
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
                same &= want.u[l] == got.u[l] || (is_nan_bits(want.u[l]) && is_nan_bits(got.u[l]));
            if (!same) {
                if (bad++ < 4) eg_test_printf("    op %u differs in round %u\n", op, round);
            }
        }
    }
    EG_EXPECT_EQ_U(bad, 0u);
}

/* eg_vm_sqrtf uses the hardware square root where there is one; IEEE 754 makes sqrt correctly
 * rounded, so it must equal the integer algorithm bit for bit (which the other boards run):
 * every exponent, random mantissas, denormals, and the special values. */
EG_TEST(soft_vm, sqrt_hw_equals_soft)
{
    static const uint32_t special[] = { 0, 0x80000000u, 1u, 0x007fffffu, 0x00800000u, 0x3f800000u, 0x40800000u,
                                        0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xbf800000u };
    uint32_t bad = 0, seed = 99u;
    for (uint32_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        union { uint32_t u; float f; } x = { special[i] }, a, b;
        a.f = eg_vm_sqrtf(x.f);
        b.f = eg_vm_sqrtf_soft(x.f);
        bad += a.u != b.u;
    }
    for (uint32_t i = 0; i < 4096u; i++) {
        seed = seed * 1664525u + 1013904223u;
        union { uint32_t u; float f; } x = { (seed >> 1) & 0x7fffffffu }, a, b;   /* every positive class */
        a.f = eg_vm_sqrtf(x.f);
        b.f = eg_vm_sqrtf_soft(x.f);
        if (a.u != b.u && bad++ < 4) eg_test_printf("    sqrt(%08x): %08x vs %08x\n", x.u, a.u, b.u);
    }
    /* the vector ALU's sqrt (SQRTPS on x86) must give these bits too, NaN payloads and the NaN
     * of a negative input included (not only "some NaN" as in alu_simd_equals_scalar) */
    eg_soft_reg_t in, v, sc;
    for (uint32_t round = 0; round < 64u; round++) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            seed = seed * 1664525u + 1013904223u;
            in.u[l] = l < 12u && round % 2u ? special[l] : seed;   /* both signs, every class */
        }
        eg_vm_alu(EG_VM_FSQRT, &v, &in, &in, &in);
        eg_vm_alu_scalar(EG_VM_FSQRT, &sc, &in, &in, &in);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
            if (v.u[l] != sc.u[l] && bad++ < 8) eg_test_printf("    FSQRT(%08x): %08x vs %08x\n", in.u[l], v.u[l], sc.u[l]);
    }
    /* independent check of the rounding: sqrt(2) to 24 bits is 0x3fb504f3 (1.41421354) */
    union { float f; uint32_t u; } two = { .f = eg_vm_sqrtf(2.0f) };
    EG_EXPECT_EQ_U(two.u, 0x3fb504f3u);
    EG_EXPECT_EQ_U(bad, 0u);
}

/* Rounding ops near the edges the vector trunc/floor/ceil/fract take apart (|x| around 2^23,
 * -0, tiny and negative fractions, inf, NaN) equal the per-lane loops; a few results checked
 * against values worked out by hand from the definitions (GLSL.std.450 Floor/Trunc/Ceil/Fract). */
EG_TEST(soft_vm, alu_rounding_edges)
{
    static const uint32_t edge[] = { 0x4afffffeu, 0x4affffffu, 0x4b000000u, 0x4b000001u, 0xcaffffffu, 0xcb000000u,
                                     0xbf000000u, 0x3f000000u, 0xbfc00000u, 0x80000000u, 0x00000001u, 0x80000001u,
                                     0x7f800000u, 0xff800000u, 0x7fc00000u, 0xbe800000u };
    static const uint16_t ops[] = { EG_VM_FTRUNC, EG_VM_FFLOOR, EG_VM_FCEIL, EG_VM_FFRACT };
    eg_soft_reg_t in, want, got;
    uint32_t bad = 0;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) in.u[l] = edge[l % (sizeof edge / sizeof edge[0])];
    for (uint32_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        eg_vm_alu_scalar(ops[k], &want, &in, &in, &in);
        eg_vm_alu(ops[k], &got, &in, &in, &in);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
            if (want.u[l] != got.u[l] && bad++ < 8)
                eg_test_printf("    op %u (%08x): %08x vs %08x\n", ops[k], in.u[l], got.u[l], want.u[l]);
    }
    EG_EXPECT_EQ_U(bad, 0u);
    /* by hand: trunc(-0.5) = -0, floor(-0.5) = -1, ceil(-1.5) = -1, fract(-0.25) = 0.75,
     * floor(8388607.5) = 8388607 (0x4afffffe), ceil(-8388607.5) = -8388607 (0xcafffffe) */
    eg_vm_alu(EG_VM_FTRUNC, &got, &in, &in, &in);
    EG_EXPECT_EQ_U(got.u[6], 0x80000000u);
    eg_vm_alu(EG_VM_FFLOOR, &got, &in, &in, &in);
    EG_EXPECT_EQ_U(got.u[6], 0xbf800000u);
    EG_EXPECT_EQ_U(got.u[1], 0x4afffffeu);
    eg_vm_alu(EG_VM_FCEIL, &got, &in, &in, &in);
    EG_EXPECT_EQ_U(got.u[8], 0xbf800000u);
    EG_EXPECT_EQ_U(got.u[4], 0xcafffffeu);
    eg_vm_alu(EG_VM_FFRACT, &got, &in, &in, &in);
    EG_EXPECT_EQ_U(got.u[15], 0x3f400000u);
}

/* The vector forms of smoothstep, step, sign, inversesqrt, mod and rem give the values worked
 * out by hand from the GLSL.std.450 definitions (all exact in binary32), in every lane. */
EG_TEST(soft_vm, alu_vector_ops_by_hand)
{
    eg_soft_reg_t a, b, c, d;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) { a.f[l] = 0.0f; b.f[l] = 1.0f; c.f[l] = 0.25f; }
    eg_vm_alu(EG_VM_FSMOOTH, &d, &a, &b, &c);      /* 0.25^2 * (3 - 0.5) = 0.15625 */
    EG_EXPECT_EQ_U(d.u[0], 0x3e200000u);
    EG_EXPECT_EQ_U(d.u[EG_SOFT_LANES - 1u], 0x3e200000u);
    eg_vm_alu(EG_VM_FSTEP, &d, &b, &c, &c);        /* step(1, 0.25) = 0 */
    EG_EXPECT_EQ_U(d.u[5], 0u);
    eg_vm_alu(EG_VM_FSTEP, &d, &c, &b, &b);        /* step(0.25, 1) = 1 */
    EG_EXPECT_EQ_U(d.u[5], 0x3f800000u);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) { a.f[l] = -3.0f; b.f[l] = 4.0f; c.f[l] = -1.0f; }
    eg_vm_alu(EG_VM_FSIGN, &d, &a, &a, &a);        /* sign(-3) = -1 */
    EG_EXPECT_EQ_U(d.u[7], 0xbf800000u);
    eg_vm_alu(EG_VM_FRSQRT, &d, &b, &b, &b);       /* 1 / sqrt(4) = 0.5 */
    EG_EXPECT_EQ_U(d.u[9], 0x3f000000u);
    eg_vm_alu(EG_VM_FMOD, &d, &c, &a, &a);         /* -1 - (-3) * floor(1/3) = -1 (floor(0.33) = 0) */
    EG_EXPECT_EQ_U(d.u[2], 0xbf800000u);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) a.f[l] = 3.0f;
    eg_vm_alu(EG_VM_FMOD, &d, &c, &a, &a);         /* -1 - 3 * floor(-1/3) = -1 + 3 = 2 */
    EG_EXPECT_EQ_U(d.u[2], 0x40000000u);
    eg_vm_alu(EG_VM_FREM, &d, &c, &a, &a);         /* -1 - 3 * trunc(-1/3) = -1 */
    EG_EXPECT_EQ_U(d.u[2], 0xbf800000u);
}

/* The vector exp2/log2/exp/log/pow/sin/cos/tan (soft_vm_vmath.c) equal the scalar loops bit for
 * bit over the ranges shaders use (|x| up to 40 with fractions, the reduction's quadrant edges
 * near multiples of pi/2) and the special inputs (+-0, denormals, +-inf, NaN, negatives). */
EG_TEST(soft_vm, alu_vmath_equals_scalar)
{
    static const uint32_t special[] = { 0, 0x80000000u, 1u, 0x00400000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                        0xbf800000u, 0x3fc90fdbu, 0x40490fdbu, 0x43000000u, 0xc3160000u };
    static const uint16_t ops[] = { EG_VM_FEXP2, EG_VM_FLOG2, EG_VM_FEXP, EG_VM_FLOG, EG_VM_FPOW, EG_VM_FSIN,
                                    EG_VM_FCOS, EG_VM_FTAN };
    uint32_t seed = 777u, bad = 0;
    eg_soft_reg_t x, y, want, got;
    for (uint32_t round = 0; round < 64; round++) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            seed = seed * 1664525u + 1013904223u;
            x.f[l] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 80.0f;
            seed = seed * 1664525u + 1013904223u;
            y.f[l] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 8.0f;
            if (round % 4u == 3u && l < 12u) x.u[l] = special[l];
        }
        for (uint32_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
            eg_vm_alu_scalar(ops[k], &want, &x, &y, &y);
            eg_vm_alu(ops[k], &got, &x, &y, &y);
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
                if (want.u[l] != got.u[l] && !(is_nan_bits(want.u[l]) && is_nan_bits(got.u[l])) && bad++ < 8)
                    eg_test_printf("    op %u (%08x, %08x): %08x vs %08x\n", ops[k], x.u[l], y.u[l], got.u[l], want.u[l]);
        }
    }
    EG_EXPECT_EQ_U(bad, 0u);
    /* by hand: exp2(3) = 8, log2(0.25) = -2, sin(0) = 0, cos(0) = 1 (exact in binary32) */
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) x.f[l] = l & 1u ? 3.0f : 0.25f;
    eg_vm_alu(EG_VM_FEXP2, &got, &x, &x, &x);
    EG_EXPECT_EQ_U(got.u[1], 0x41000000u);
    eg_vm_alu(EG_VM_FLOG2, &got, &x, &x, &x);
    EG_EXPECT_EQ_U(got.u[0], 0xc0000000u);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) x.f[l] = 0.0f;
    eg_vm_alu(EG_VM_FSIN, &got, &x, &x, &x);
    EG_EXPECT_EQ_U(got.u[3], 0u);
    eg_vm_alu(EG_VM_FCOS, &got, &x, &x, &x);
    EG_EXPECT_EQ_U(got.u[3], 0x3f800000u);
}
#endif

/* ---- threaded code (soft_vm_thread.c) against the switch interpreter ---- */

static uint32_t g_rng = 1u;
static uint32_t vm_rand(void) { g_rng = g_rng * 1664525u + 1013904223u; return g_rng >> 8; }
/* Mostly ordinary floats, some of the values whose bits are easy to get wrong: signed zeros,
 * NaNs, infinities, denormals, integers at 2^23, small integers (for integer inputs). */
static uint32_t vm_value(void)
{
    static const uint32_t special[] = { 0x80000000u, 0, 0x7fc00000u, 0xff800001u, 0x7f800000u, 0xff800000u,
                                        0x00000001u, 0x807fffffu, 0x4b000000u, 0xcaffffffu, 3u, 0xffffffffu };
    uint32_t r = vm_rand();
    if (r % 8u == 0) return special[(r >> 3) % (sizeof special / sizeof special[0])];
    return f2u(((float)(r % 20001u) - 10000.0f) * 0.00137f);
}

static void vm_fill(eg_soft_invocation_t *inv, eg_soft_vec4_t *in, eg_soft_mask_t active)
{
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        for (uint32_t k = 0; k < EG_SOFT_MAX_LOCATIONS; k++)
            for (uint32_t c = 0; c < 4; c++) in[k].c[c].u[l] = vm_value();
        for (uint32_t c = 0; c < 4; c++) inv->position.c[c].u[l] = vm_value();
        inv->vertex_index.u[l] = vm_rand() % 64u;
        inv->instance_index.u[l] = vm_rand() % 4u;
        inv->sample_mask_in.u[l] = 1u;
    }
    inv->front_facing = vm_rand() & EG_SOFT_ALL_LANES;
    inv->helper = 0;
    inv->active = active;
}

/* A word of the hash: every NaN as one value. Where two NaNs meet in an operation (or one
 * meets a NaN the operation makes, inf * 0 + NaN), which payload comes out is the operand order
 * the compiler picked for a commutative + or * (GCC -O1, host-asan, swaps some of the threaded
 * handlers': scene_mesh.vert gave 0xffc00000 for the switch's 0xffffffff, blk8 session 8): a
 * NaN stays a NaN either way, as threaded_ops_special_values accepts. */
static uint32_t vm_hash_word(uint32_t u) { return is_nan_bits(u) ? 0x7fc00000u : u; }

/* Runs p on a copy of inv/in into out; returns a hash of everything the run produced. */
static uint32_t vm_run_hash(const eg_soft_program_t *p, const eg_soft_invocation_t *inv0, const eg_soft_vec4_t *in)
{
    static eg_soft_vec4_t out[EG_SOFT_MAX_LOCATIONS];
    eg_soft_invocation_t inv = *inv0;
    eg_memset(out, 0x5a, sizeof out);
    inv.in = in;
    inv.out = out;
    eg_soft_program_run(p, NULL, &inv);
    uint32_t h = inv.active;
    const uint32_t *w = (const uint32_t *)(const void *)out;
    for (uint32_t i = 0; i < sizeof out / 4u; i++) h = (h ^ vm_hash_word(w[i])) * 16777619u;
    w = (const uint32_t *)(const void *)&inv.position;
    for (uint32_t i = 0; i < sizeof inv.position / 4u; i++) h = (h ^ vm_hash_word(w[i])) * 16777619u;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
        h = (h ^ vm_hash_word(inv.frag_depth.u[l]) ^ inv.sample_mask_out.u[l] << 7) * 16777619u;
    return h;
}

/* Every vertex/fragment test shader on pseudo-random inputs (special values included) and four
 * masks: the threaded code at each width the CPU runs must produce the switch interpreter's bits
 * (the threaded handlers are rewritten vector bodies, so this can fail on any lane operation). */
EG_TEST(soft_vm, threaded_equals_switch_on_test_shaders)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d || eg_strcmp(eg_test_backend(), "soft")) EG_NOT_APPLICABLE("soft VM internals");
    uint32_t widths = eg_vm_thread_widths();
    if (!widths) { eg_test_device_release(); EG_NOT_APPLICABLE("no threaded code on this target"); }
    static const eg_soft_mask_t masks[] = { EG_SOFT_ALL_LANES, 0x0ff0u, 0x8421u, 0x00f3u };
    static eg_soft_vec4_t in[EG_SOFT_MAX_LOCATIONS];
    static eg_soft_invocation_t inv;
    uint32_t programs = 0, threaded = 0, jitted = 0;
    for (const eg_test_spv_t *s = eg_test_spv_table; s->name; s++) {
        uint32_t n = 0;
        while (s->name[n]) n++;
        bool frag = n > 5 && !eg_strcmp(s->name + n - 5, ".frag"), vert = n > 5 && !eg_strcmp(s->name + n - 5, ".vert");
        if (!frag && !vert) continue;
        WGPUShaderModule m = vm_module(d, s->name);
        eg_soft_program_t *p = vm_program(m, frag ? EG_SHADER_STAGE_FRAGMENT : EG_SHADER_STAGE_VERTEX);
        if (m) wgpuShaderModuleRelease(m);
        if (!p) continue;                         /* needs a pipeline layout: not runnable alone */
        programs++;
        void *mem = (void *)(uintptr_t)p->thread;
        const uint8_t *jit = p->jit;          /* the JIT's native runs (soft_jit.c), if any */
        threaded += mem != NULL;
        jitted += jit != NULL;
        for (uint32_t k = 0; k < 4u * 3u; k++) {
            vm_fill(&inv, in, masks[k & 3u]);
            p->thread = NULL;
            p->jit = NULL;
            uint32_t want = vm_run_hash(p, &inv, in);
            for (uint32_t vw = 4; vw <= 8u && mem; vw += 4u) {
                if (!(widths & vw)) continue;
                eg_vm_thread_build(p, mem, vw);
                uint32_t got = vm_run_hash(p, &inv, in);
                if (got != want) eg_test_fail(__FILE__, __LINE__, s->name);   /* names the shader */
            }
            if (jit) {
                eg_vm_thread_build(p, mem, 0);
                p->jit = jit;
                if (vm_run_hash(p, &inv, in) != want) eg_test_fail(__FILE__, __LINE__, s->name);   /* JIT */
            }
        }
        p->jit = jit;
        eg_soft_program_destroy(p);
    }
    EG_EXPECT(programs >= 30u);               /* 52 test shaders, most of them vertex/fragment */
    EG_EXPECT_EQ_U(threaded, programs);
    /* where the JIT runs, most programs have a straight run to translate */
    if (eg_vm_jit_available()) EG_EXPECT(jitted * 2u > programs);
    eg_test_device_release();
}

/* Each threaded operation with every register/constant operand mix, on special values in every
 * operand position (signed zeros, NaNs, infinities, denormals, 2^23 edges): threaded bits equal
 * the switch interpreter's, at each width the CPU runs (a NaN result: any NaN, as above). */
EG_TEST(soft_vm, threaded_ops_special_values)
{
    uint32_t widths = eg_vm_thread_widths();
    if (!widths) EG_NOT_APPLICABLE("no threaded code on this target");
    static const uint16_t ops[] = { EG_VM_MOV, EG_VM_FABS, EG_VM_FNEG, EG_VM_FFLOOR, EG_VM_FFRACT, EG_VM_FSQRT,
                                    EG_VM_FADD, EG_VM_FSUB, EG_VM_FMUL, EG_VM_FMIN, EG_VM_FMAX, EG_VM_FLT,
                                    EG_VM_FGT, EG_VM_FLE, EG_VM_FGE, EG_VM_IADD, EG_VM_AND, EG_VM_OR,
                                    EG_VM_FDIV, EG_VM_FSTEP, EG_VM_FEQ, EG_VM_IEQ, EG_VM_INE, EG_VM_ISUB,
                                    EG_VM_XOR, EG_VM_FFMA, EG_VM_FMIX, EG_VM_FCLAMP, EG_VM_SELECT };
    static const uint32_t special[] = { 0x80000000u, 0, 0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u,
                                        1u, 0x807fffffu, 0x4b000000u, 0xcaffffffu, 0x4afffffeu, 0xbf000000u,
                                        0x3f800000u, 0xbf800001u, 0x3effffffu, 0xc0490fdbu };
    static eg_vm_inst_t code[8];
    static eg_soft_reg_t consts[3];
    static const uint32_t block_pc[1] = { 0 };
    static uint64_t thread_mem[8 * 4];
    static eg_soft_vec4_t in[EG_SOFT_MAX_LOCATIONS], out[EG_SOFT_MAX_LOCATIONS];
    static eg_soft_program_t p;
    uint32_t checked = 0;
    for (uint32_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        for (uint32_t km = 0; km < 8u; km++) {
            uint16_t src[3];
            for (uint32_t i = 0; i < 3; i++) src[i] = (uint16_t)(km >> i & 1u ? EG_VM_CONST_BASE + i : i);
            uint32_t n = 0;
            code[n++] = (eg_vm_inst_t){ .op = EG_VM_BLOCK, .imm = 0, .a = 6, .b = 0 };
            for (uint16_t k = 0; k < 3; k++)
                code[n++] = (eg_vm_inst_t){ EG_VM_LD_IN, k, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, k };
            code[n++] = (eg_vm_inst_t){ ops[o], 3, src[0], src[1], src[2], EG_VM_NONE, 0 };
            code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, 3, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0 };
            code[n++] = (eg_vm_inst_t){ .op = EG_VM_END };
            eg_memset(&p, 0, sizeof p);
            p.code = code;
            p.code_count = n;
            p.consts = consts;
            p.const_count = 3;
            p.reg_count = 4;
            p.block_count = 1;
            p.block_pc = block_pc;
            for (uint32_t rep = 0; rep < 16u; rep++) {
                for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                    in[0].c[0].u[l] = special[l];
                    in[0].c[1].u[l] = special[(l + rep) % 16u];
                    in[0].c[2].u[l] = special[(l * 3u + rep * 5u) % 16u];
                }
                for (uint32_t i = 0; i < 3; i++)
                    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) consts[i].u[l] = special[(rep + i * 7u) % 16u];
                uint32_t want[EG_SOFT_LANES];
                for (uint32_t vw = 0; vw <= 8u; vw += 4u) {
                    if (vw && !(widths & vw)) continue;
                    if (vw) eg_vm_thread_build(&p, thread_mem, vw); else p.thread = NULL;
                    eg_soft_invocation_t inv = { .in = in, .out = out, .active = EG_SOFT_ALL_LANES };
                    eg_memset(out, 0, sizeof out);
                    eg_soft_program_run(&p, NULL, &inv);
                    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                        if (!vw) { want[l] = out[0].c[0].u[l]; continue; }
                        /* two NaN operands: which payload wins is the compiler's operand order
                         * (see is_nan_bits above), so any NaN equals any */
                        if (out[0].c[0].u[l] != want[l] && !(is_nan_bits(out[0].c[0].u[l]) && is_nan_bits(want[l]))) {
                            eg_test_fail(__FILE__, __LINE__, "threaded lane differs (see op, km, rep, lane)");
                            eg_test_printf("op %u km %u rep %u lane %u: %08x, switch %08x", (unsigned)ops[o], (unsigned)km,
                                         (unsigned)rep, (unsigned)l, (unsigned)out[0].c[0].u[l], (unsigned)want[l]);
                            return;
                        }
                        checked++;
                    }
                }
            }
        }
    }
    EG_EXPECT(checked >= 29u * 8u * 16u * EG_SOFT_LANES);
}
