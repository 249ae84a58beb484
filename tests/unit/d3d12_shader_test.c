/* Shader constructs the DXBC emitter lowers late (issue #9), run through the public API on every backend. */
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#include "tests/unit/d3d12_shader_spv.h"

/* Each test dispatches one compute shader whose results are checked against values worked out
 * from the SPIR-V / GLSL.std.450 definitions in the comments (never against a backend's output).
 * They were written for the D3D12 emitter's gaps (hal/d3d12/d3d_tpf*.c) but hold for every
 * backend (EMGPU_TEST_BACKEND=vulkan|gles|d3d12). */

static WGPUShaderModule words_module(WGPUDevice d, const uint32_t *words, uint32_t count)
{
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = words;
    src.codeSize = count;
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d, &md);
}

static WGPUShaderModule named_module(WGPUDevice d, const char *name)
{
    const eg_test_spv_t *s = eg_test_spv(name);
    return s ? words_module(d, s->words, s->word_count) : NULL;
}

typedef struct run {
    WGPUBindGroupLayoutEntry le[5];
    WGPUBindGroupEntry be[5];
    uint32_t entries;
    uint32_t groups[2];          /* workgroups x, y */
} run_t;

/* Builds the layout from r->le, the pipeline from m, binds r->be, dispatches once. False when the
 * pipeline was not created (the error stays in eg_test_err for the caller). */
static bool dispatch(WGPUDevice d, WGPUShaderModule m, run_t *r)
{
    for (uint32_t i = 0; i < r->entries; i++) {
        r->le[i].binding = i; r->le[i].visibility = WGPUShaderStage_Compute; r->be[i].binding = i;
    }
    WGPUBindGroupLayoutDescriptor bld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bld.entryCount = r->entries; bld.entries = r->le;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(d, &bld);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1; pld.bindGroupLayouts = &bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pld);
    WGPUComputePipelineDescriptor cpd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cpd.layout = pl; cpd.compute.module = m;
    WGPUComputePipeline cp = wgpuDeviceCreateComputePipeline(d, &cpd);
    bool ok = cp != NULL && eg_test_err.count == 0;
    if (ok) {
        WGPUBindGroupDescriptor bgd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
        bgd.layout = bgl; bgd.entryCount = r->entries; bgd.entries = r->be;
        WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bgd);
        WGPUCommandEncoder e = t_encoder(d);
        WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(e, NULL);
        wgpuComputePassEncoderSetPipeline(pass, cp);
        wgpuComputePassEncoderSetBindGroup(pass, 0, bg, 0, NULL);
        wgpuComputePassEncoderDispatchWorkgroups(pass, r->groups[0] ? r->groups[0] : 1, r->groups[1] ? r->groups[1] : 1, 1);
        wgpuComputePassEncoderEnd(pass);
        wgpuComputePassEncoderRelease(pass);
        t_submit(e);
        wgpuBindGroupRelease(bg);
    }
    if (cp) wgpuComputePipelineRelease(cp);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(bgl);
    return ok;
}

static WGPUBuffer data_buffer(WGPUDevice d, const void *data, uint64_t size)
{
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, size);
    wgpuQueueWriteBuffer(eg_test_queue(), b, 0, data, (size_t)size);
    return b;
}

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* tests/shaders/lower_wide.comp, two lanes (a, b) = (0xFFFFFFF0, 0x20) and (7, 9):
 *   uaddCarry: 0xFFFFFFF0 + 0x20 = 0x1_00000010 -> 0x10 carry 1;  7 + 9 = 16 carry 0
 *   usubBorrow: 0xFFFFFFF0 - 0x20 = 0xFFFFFFD0 borrow 0;  7 - 9 = 0xFFFFFFFE borrow 1
 *   umulExtended: 0xFFFFFFF0 * 0x20 = 0x1F_FFFFFE00 -> lo 0xFFFFFE00 hi 0x1F;  63, 0
 *   imulExtended: -16 * 32 = -512 -> lo 0xFFFFFE00 hi 0xFFFFFFFF;  63, 0
 * modf(2.75) = (0.75, 2), modf(-1.5) = (-0.5, -1) (GLSL.std.450 Modf: whole part truncated, both
 * with x's sign); frexp(0.375) = 0.75 * 2^-1, frexp(10) = 0.625 * 2^4 (fraction in [0.5, 1)).
 * All results are exact in binary, so they are compared bit for bit. */
/* Runs lower_wide.comp over `in` (its In block, 32 bytes) and reads its Out block (24 words). */
static bool run_wide(WGPUDevice d, const void *in, uint32_t in_B, uint32_t out[24])
{
    static uint32_t zero[24];
    WGPUBuffer ib = data_buffer(d, in, in_B), ob = data_buffer(d, zero, sizeof zero);
    WGPUShaderModule m = named_module(d, "lower_wide.comp");
    run_t r = { .entries = 2 };
    r.le[0] = (WGPUBindGroupLayoutEntry)WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    r.le[1] = (WGPUBindGroupLayoutEntry)WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    r.le[0].buffer.type = WGPUBufferBindingType_ReadOnlyStorage;
    r.le[1].buffer.type = WGPUBufferBindingType_Storage;
    r.be[0] = (WGPUBindGroupEntry)WGPU_BIND_GROUP_ENTRY_INIT; r.be[0].buffer = ib; r.be[0].size = in_B;
    r.be[1] = (WGPUBindGroupEntry)WGPU_BIND_GROUP_ENTRY_INIT; r.be[1].buffer = ob; r.be[1].size = sizeof zero;
    bool ok = m != NULL && dispatch(d, m, &r);
    memset(out, 0xAB, 24u * 4u);
    ok = ok && t_readback(d, ob, 0, 24u * 4u, out);
    if (m) wgpuShaderModuleRelease(m);
    wgpuBufferRelease(ib);
    wgpuBufferRelease(ob);
    return ok;
}

EG_TEST(shader_lowering, carry_mul_modf_frexp)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    struct { uint32_t a[2], b[2]; float x[4]; } in = { { 0xFFFFFFF0u, 7 }, { 0x20, 9 }, { 2.75f, -1.5f, 0.375f, 10.0f } };
    static uint32_t out[24];
    EG_EXPECT(run_wide(d, &in, sizeof in, out));
    EG_EXPECT_NO_ERROR();
    static const uint32_t want_u[16] = { 0x10, 16, 1, 0, 0xFFFFFFD0u, 0xFFFFFFFEu, 0, 1,
                                          0xFFFFFE00u, 63, 0x1F, 0, 0xFFFFFE00u, 63, 0xFFFFFFFFu, 0 };
    for (uint32_t i = 0; i < 16; i++) EG_EXPECT_EQ_U(out[i], want_u[i]);
    const uint32_t want_f[8] = { f2u(0.75f), f2u(-0.5f), f2u(2.0f), f2u(-1.0f), f2u(0.75f), f2u(0.625f), f2u(-1.0f), f2u(4.0f) };
    for (uint32_t i = 0; i < 8; i++) EG_EXPECT_EQ_U(out[16 + i], want_f[i]);
    eg_test_device_release();
}

/* frexp of denormals through lower_wide.comp (its x.zw): 2^-149 = 0.5 * 2^-148 and
 * -3 * 2^-149 = -0.75 * 2^-147, exact in binary. WGSL lets an implementation flush subnormals,
 * so a zero-or-subnormal fraction with exponent 0 is accepted too (llvmpipe flushes). The D3D12
 * emitter used to return 0.5 + 2^-24 with exponent -126 for 2^-149: neither. */
static bool frexp_ok(uint32_t fract, uint32_t expf, uint32_t want_fract, float want_exp)
{
    bool exact = fract == want_fract && expf == f2u(want_exp);
    bool flushed = (fract & 0x7f800000u) == 0 && expf == f2u(0.0f);
    return exact || flushed;
}

EG_TEST(shader_lowering, frexp_denormals)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    struct { uint32_t a[2], b[2]; uint32_t x[4]; } in = { { 1, 2 }, { 3, 4 },
                                                          { f2u(2.75f), f2u(-1.5f), 0x00000001u, 0x80000003u } };
    static uint32_t out[24];
    EG_EXPECT(run_wide(d, &in, sizeof in, out));
    EG_EXPECT_NO_ERROR();
    /* o.f[1] = (m.x, m.y, e.x, e.y) at words 20..23 */
    bool mesa = strcmp(eg_test_backend(), "vulkan") == 0 || strcmp(eg_test_backend(), "gles") == 0;
    if (mesa && out[20] == 0x3f000001u && out[22] == f2u(-126.0f)) {   /* 2^-149 read as 0.5000001 * 2^-126 */
        eg_test_device_release();
        EG_NOT_APPLICABLE("the driver's frexp reads a subnormal's exponent bits as if it were normal (Mesa "
                          "lavapipe/llvmpipe); emgpu passes Frexp through to it");
    }
    if (!frexp_ok(out[20], out[22], 0x3f000000u, -148.0f) || !frexp_ok(out[21], out[23], 0xbf400000u, -147.0f))
        eg_test_printf("    frexp: 0x%08x 0x%08x, exponents 0x%08x 0x%08x\n", out[20], out[21], out[22], out[23]);
    EG_EXPECT(frexp_ok(out[20], out[22], 0x3f000000u, -148.0f));
    EG_EXPECT(frexp_ok(out[21], out[23], 0xbf400000u, -147.0f));
    eg_test_device_release();
}

/* Runs one of d3d12_shader_spv.h's single-buffer modules over f (16 floats, 2 words, 2 spare). */
static bool run_words(WGPUDevice d, const uint32_t *words, uint32_t count, uint32_t f[20])
{
    WGPUBuffer b = data_buffer(d, f, 80);
    WGPUShaderModule m = words_module(d, words, count);
    run_t r = { .entries = 1 };
    r.le[0] = (WGPUBindGroupLayoutEntry)WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    r.le[0].buffer.type = WGPUBufferBindingType_Storage;
    r.be[0] = (WGPUBindGroupEntry)WGPU_BIND_GROUP_ENTRY_INIT; r.be[0].buffer = b; r.be[0].size = 80;
    bool ok = m != NULL && dispatch(d, m, &r);
    if (ok) ok = t_readback(d, b, 0, 80, f);
    if (m) wgpuShaderModuleRelease(m);
    wgpuBufferRelease(b);
    return ok;
}

/* lower_forms.spvasm: ModfStruct(-7.25) = {-0.25, -7}; Frexp(-48, &e) = -0.75, e = 6
 * (-48 = -0.75 * 2^6). Exact in binary. */
EG_TEST(shader_lowering, modf_struct_frexp_pointer)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    uint32_t f[20] = { f2u(-7.25f), f2u(-48.0f) };
    EG_EXPECT(run_words(d, eg_spv_lower_forms, (uint32_t)(sizeof eg_spv_lower_forms / 4u), f));
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(f[2], f2u(-0.25f));
    EG_EXPECT_EQ_U(f[3], f2u(-7.0f));
    EG_EXPECT_EQ_U(f[4], f2u(-0.75f));
    EG_EXPECT_EQ_U(f[5], f2u(6.0f));
    eg_test_device_release();
}

/* lower_quant.spvasm: OpQuantizeToF16 of 1 + 2^-12 (below half an f16 ulp of 2^-10: 1.0 under
 * any rounding), 65504 (the largest f16: unchanged) and 0.1 (1.6 * 2^-4; 0.6 * 1024 = 614.4 ->
 * 614 under nearest or toward zero: (1 + 614/1024) * 2^-4 = 0.0999755859375). CopyLogical copies
 * {f[0], 7} into the decorated struct at byte 64. */
EG_TEST(shader_lowering, quantize_f16_copy_logical)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    uint32_t f[20] = { 0x3F800800u, f2u(65504.0f), f2u(0.1f) };
    bool ok = run_words(d, eg_spv_lower_quant, (uint32_t)(sizeof eg_spv_lower_quant / 4u), f);
    EG_EXPECT(ok);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(f[3], f2u(1.0f));
    EG_EXPECT_EQ_U(f[4], f2u(65504.0f));
    EG_EXPECT_EQ_U(f[5], f2u(0.0999755859375f));
    EG_EXPECT_EQ_U(f[16], 0x3F800800u);
    EG_EXPECT_EQ_U(f[17], 7u);
    eg_test_device_release();
}

/* lower_img_atomic.comp on an 8x4 r32uint read-write storage texture whose texel (x, y) starts
 * at 16y + x + 1 (SPIR-V 3.32.18 atomics return the value before the operation):
 *   own texels (x, y < 4): old = 16y + x + 1, new = old + 5;
 *   (4, 0) = 5 counted by 16 invocations: the olds are 5..20 in some order (sum 200), new 21;
 *   (5, 0) = max(6, 0..15) = 15;  (6, 0): exactly one compare-exchange finds 7 and stores
 *   1000 + k, the others see that value: new in 1000..1015;  (7, 0) = 8 | 0xFFFF = 0xFFFF;
 *   the other texels (x >= 4, y >= 1) keep their value. */
EG_TEST(shader_lowering, storage_texture_atomics)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static uint32_t init[4][8], texels[4][64];
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 8; x++) init[y][x] = 16u * y + x + 1u;
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_R32Uint, 8, 4, 1, 1, 1,
                                WGPUTextureUsage_StorageBinding | WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc);
    WGPUTexelCopyTextureInfo dst = t_tex_info(tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferLayout lay = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    lay.bytesPerRow = 32; lay.rowsPerImage = 4;
    WGPUExtent3D ext = t_extent(8, 4, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &dst, init, sizeof init, &lay, &ext);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    static uint32_t zero[48];
    WGPUBuffer ob = data_buffer(d, zero, sizeof zero);
    WGPUShaderModule m = named_module(d, "lower_img_atomic.comp");
    run_t r = { .entries = 2 };
    r.le[0] = (WGPUBindGroupLayoutEntry)WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    r.le[1] = (WGPUBindGroupLayoutEntry)WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    r.le[0].storageTexture.access = WGPUStorageTextureAccess_ReadWrite;
    r.le[0].storageTexture.format = WGPUTextureFormat_R32Uint;
    r.le[0].storageTexture.viewDimension = WGPUTextureViewDimension_2D;
    r.le[1].buffer.type = WGPUBufferBindingType_Storage;
    r.be[0] = (WGPUBindGroupEntry)WGPU_BIND_GROUP_ENTRY_INIT; r.be[0].textureView = view;
    r.be[1] = (WGPUBindGroupEntry)WGPU_BIND_GROUP_ENTRY_INIT; r.be[1].buffer = ob; r.be[1].size = sizeof zero;
    bool ok = m != NULL && dispatch(d, m, &r);
    EG_EXPECT(ok);
    EG_EXPECT_NO_ERROR();
    static uint32_t out[48];
    memset(out, 0xAB, sizeof out);
    EG_EXPECT(t_readback(d, ob, 0, sizeof out, out));
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, sizeof texels);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyTextureInfo src = t_tex_info(tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bdst = t_buf_info(rb, 0, 256, 4);
    wgpuCommandEncoderCopyTextureToBuffer(e, &src, &bdst, &ext);
    t_submit(e);
    EG_EXPECT(t_readback(d, rb, 0, sizeof texels, texels));
    uint32_t sum = 0, seen7 = 0;
    for (uint32_t k = 0; k < 16; k++) {
        uint32_t x = k % 4u, y = k / 4u;
        EG_EXPECT_EQ_U(out[k], init[y][x]);
        EG_EXPECT_EQ_U(texels[y][x], init[y][x] + 5u);
        EG_EXPECT(out[16 + k] >= 5u && out[16 + k] <= 20u);
        sum += out[16 + k];
        seen7 += out[32 + k] == 7u;
    }
    EG_EXPECT_EQ_U(sum, 200u);
    EG_EXPECT_EQ_U(seen7, 1u);
    EG_EXPECT_EQ_U(texels[0][4], 21u);
    EG_EXPECT_EQ_U(texels[0][5], 15u);
    EG_EXPECT(texels[0][6] >= 1000u && texels[0][6] <= 1015u);
    EG_EXPECT_EQ_U(texels[0][7], 0xFFFFu);
    for (uint32_t y = 1; y < 4; y++)
        for (uint32_t x = 4; x < 8; x++) EG_EXPECT_EQ_U(texels[y][x], init[y][x]);
    if (m) wgpuShaderModuleRelease(m);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(ob);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    eg_test_device_release();
}

/* lower_proj.comp (SPIR-V 3.32.10: the sample coordinate is (u/q, v/q), the Dref forms compare
 * with Dref/q). (0.75, 1.25) / 2 = (0.375, 0.625) = the centre of texel (1, 2) of a 4x4 texture.
 * Colour texture: texel (x, y) = (64x, 64y, 0, 255) -> (64, 128, 0, 255) / 255 with a nearest
 * sampler. Depth16Unorm texture all 0x8000 (32768 / 65535 = 0.500008), comparison Less
 * (passes when ref < texel): Dref 0.8 / 2 = 0.4 passes (1.0), 1.2 / 2 = 0.6 fails (0.0); without
 * the division both would fail. */
EG_TEST(shader_lowering, projective_sampling)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static uint8_t rgba[4][4][4];
    static uint16_t depth[4][4];
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            rgba[y][x][0] = (uint8_t)(64u * x); rgba[y][x][1] = (uint8_t)(64u * y); rgba[y][x][3] = 255;
            depth[y][x] = 0x8000u;
        }
    WGPUTexture tc = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1, WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    WGPUTexture td = t_texture(d, WGPUTextureFormat_Depth16Unorm, 4, 4, 1, 1, 1, WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    WGPUExtent3D ext = t_extent(4, 4, 1);
    WGPUTexelCopyBufferLayout lay = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    lay.bytesPerRow = 16; lay.rowsPerImage = 4;
    WGPUTexelCopyTextureInfo dst = t_tex_info(tc, 0, 0, 0, 0);
    wgpuQueueWriteTexture(eg_test_queue(), &dst, rgba, sizeof rgba, &lay, &ext);
    lay.bytesPerRow = 8;
    dst = t_tex_info(td, 0, 0, 0, 0);
    wgpuQueueWriteTexture(eg_test_queue(), &dst, depth, sizeof depth, &lay, &ext);
    WGPUTextureView vc = wgpuTextureCreateView(tc, NULL), vd = wgpuTextureCreateView(td, NULL);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    WGPUSampler s = wgpuDeviceCreateSampler(d, &sd);
    sd.compare = WGPUCompareFunction_Less;
    WGPUSampler ss = wgpuDeviceCreateSampler(d, &sd);
    static float zero[8];
    WGPUBuffer ob = data_buffer(d, zero, sizeof zero);
    WGPUShaderModule m = named_module(d, "lower_proj.comp");
    run_t r = { .entries = 5 };
    for (uint32_t i = 0; i < 5; i++) {
        r.le[i] = (WGPUBindGroupLayoutEntry)WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
        r.be[i] = (WGPUBindGroupEntry)WGPU_BIND_GROUP_ENTRY_INIT;
    }
    r.le[0].texture.sampleType = WGPUTextureSampleType_Float;
    r.le[1].sampler.type = WGPUSamplerBindingType_Filtering;
    r.le[2].texture.sampleType = WGPUTextureSampleType_Depth;
    r.le[3].sampler.type = WGPUSamplerBindingType_Comparison;
    r.le[4].buffer.type = WGPUBufferBindingType_Storage;
    r.be[0].textureView = vc; r.be[1].sampler = s; r.be[2].textureView = vd; r.be[3].sampler = ss;
    r.be[4].buffer = ob; r.be[4].size = sizeof zero;
    bool ok = m != NULL && dispatch(d, m, &r);
    EG_EXPECT(ok);
    EG_EXPECT_NO_ERROR();
    static float out[8];
    memset(out, 0xAB, sizeof out);
    if (ok) {
        EG_EXPECT(t_readback(d, ob, 0, sizeof out, out));
        static const float want[8] = { 64.0f / 255.0f, 128.0f / 255.0f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f };
        for (uint32_t i = 0; i < 8; i++) {
            float e = out[i] - want[i];
            if (e < -0.002f || e > 0.002f) { eg_test_printf("    out[%u] = %f, want %f\n", i, (double)out[i], (double)want[i]); EG_EXPECT(0); }
        }
    }
    if (m) wgpuShaderModuleRelease(m);
    wgpuBufferRelease(ob);
    wgpuSamplerRelease(s); wgpuSamplerRelease(ss);
    wgpuTextureViewRelease(vc); wgpuTextureViewRelease(vd);
    wgpuTextureRelease(tc); wgpuTextureRelease(td);
    eg_test_device_release();
}
