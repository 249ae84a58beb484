/* Soft VM tests through whole pipelines: the sample built-ins (SampleId runs the fragment shader
 * per sample, SampleMask in = coverage, out ANDs coverage) on 4x targets, and the texture
 * instructions (textureLoad / textureSampleLevel / textureDimensions) in a compute shader, with
 * expected values from the spec's rules worked out by hand. */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

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

/* ---- sample built-ins (sampleCount 4): SampleId, SampleMask in and out ---- */

/* Standard 4x sample positions (Vulkan), in pixel fractions: s0 (0.375, 0.125), s1 (0.875, 0.375),
 * s2 (0.125, 0.625), s3 (0.625, 0.875). The resolve of RGBA8 averages bytes: (sum + 2) / 4. */
typedef struct msvtx {
    float pos[4];
    uint8_t color[4];
} msvtx_t;

/* glslang declares SampleRateShading for gl_SampleID, as the SPIR-V spec requires; the front
 * end accepts it (spirv_validate.c says why), so the module is used exactly as compiled. */
static WGPUShaderModule sample_module(WGPUDevice d, const char *name)
{
    const eg_test_spv_t *spv = eg_test_spv(name);
    if (!spv) return NULL;
    const uint32_t *words = spv->words;
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = words;
    src.codeSize = spv->word_count;
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d, &md);
}

/* Draws the rectangle x in [0, x1_px), full height, into a cleared 8x4 RGBA8 4x target with
 * fs_name (draw_color.vert), resolves it and returns row 1 of the resolve. */
static bool msaa_row(WGPUDevice d, const char *fs_name, float x1_px, uint8_t row[8 * 4])
{
    WGPUTexture ms = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 4, 1, 1, 4, WGPUTextureUsage_RenderAttachment);
    WGPUTexture rs = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 4, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView msv = wgpuTextureCreateView(ms, NULL), rsv = wgpuTextureCreateView(rs, NULL);
    WGPUShaderModule vs = vm_module(d, "draw_color.vert"), fs = sample_module(d, fs_name);
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, sizeof(msvtx_t), WGPUVertexFormat_Unorm8x4);
    WGPUColorTargetState ct = WGPU_COLOR_TARGET_STATE_INIT;
    ct.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
    fst.module = fs;
    fst.targetCount = 1;
    fst.targets = &ct;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = vs;
    pd.vertex.bufferCount = 1;
    pd.vertex.buffers = &vb;
    pd.fragment = &fst;
    pd.multisample.count = 4;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    float x1 = x1_px / 4.0f - 1.0f;   /* NDC of an 8 px wide target */
    /* one triangle whose only edge inside the target is the vertical x = x1 (no internal
     * diagonal splitting a pixel's samples between two triangles) */
    msvtx_t v[3] = { { { -3, 3, 0, 1 }, { 0 } }, { { x1, 3, 0, 1 }, { 0 } }, { { x1, -13, 0, 1 }, { 0 } } };
    WGPUBuffer vbuf = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), vbuf, 0, v, sizeof v);
    WGPUBuffer rb = t_draw3_copy(d, p, vbuf, sizeof v, msv, rsv, rs, 8, 4);
    bool ok = p && t_readback(d, rb, 256, 8 * 4, row);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(vbuf);
    if (p) wgpuRenderPipelineRelease(p);
    wgpuShaderModuleRelease(vs);
    wgpuShaderModuleRelease(fs);
    wgpuTextureViewRelease(msv);
    wgpuTextureViewRelease(rsv);
    wgpuTextureRelease(ms);
    wgpuTextureRelease(rs);
    return ok;
}

/* SampleId makes the shader run once per sample: sample k writes 255 to channel k only, so a
 * covered pixel resolves to (255 + 2) / 4 = 64 in every channel (one run with SampleId 0 for
 * all samples would give (255, 0, 0, 0)). */
EG_TEST(soft_vm, sample_id_runs_per_sample)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft sample shading"); }
    uint8_t row[32];
    EG_ASSERT(msaa_row(d, "vm_sample_id.frag", 8.0f, row));
    for (uint32_t i = 0; i < 32u; i++) EG_EXPECT_EQ_U(row[i], 64u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* SampleMask output 5 keeps samples 0 and 2 of a fully covered pixel (input mask 0xF, red 1.0):
 * red and alpha resolve to (2 * 255 + 2) / 4 = 128 over the clear 0. */
EG_TEST(soft_vm, sample_mask_output_ands_coverage)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft sample mask"); }
    uint8_t row[32];
    EG_ASSERT(msaa_row(d, "vm_sample_mask.frag", 8.0f, row));
    for (uint32_t x = 0; x < 8u; x++) {
        EG_EXPECT_EQ_U(row[4 * x], 128u);
        EG_EXPECT_EQ_U(row[4 * x + 1], 0u);
        EG_EXPECT_EQ_U(row[4 * x + 3], 128u);
    }
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* SampleMask input = the pixel's coverage. The rectangle's right edge at x = 2.5 px covers
 * samples s0 (x 2.375) and s2 (2.125) of pixel 2: red = 2 / 4 -> 128 on those two samples,
 * resolve (2 * 128 + 2) / 4 = 64, alpha (2 * 255 + 2) / 4 = 128; pixels 0-1 are fully covered
 * (red 255), pixel 3 not at all. */
EG_TEST(soft_vm, sample_mask_input_is_coverage)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft sample mask"); }
    uint8_t row[32];
    EG_ASSERT(msaa_row(d, "vm_sample_mask_in.frag", 2.5f, row));
    EG_EXPECT_EQ_U(row[0], 255u);
    EG_EXPECT_EQ_U(row[4], 255u);
    EG_EXPECT_EQ_U(row[8], 64u);
    EG_EXPECT_EQ_U(row[11], 128u);
    EG_EXPECT_EQ_U(row[12], 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* ---- texture instructions (vm_tex.comp): textureLoad, textureSampleLevel, textureDimensions ---- */

/* A 4x2 RGBA8 texture, texel (x, y) channel c = 16 * (4 * y + x) + 40 * c + 3 (all distinct). */
static uint8_t tex_byte(uint32_t x, uint32_t y, uint32_t c) { return (uint8_t)(16u * (4u * y + x) + 40u * c + 3u); }

static bool near(float got, float want) { float d = got - want; return d < 1e-5f && d > -1e-5f; }

/* Expected values by plain arithmetic: a load is byte / 255; a linear sample at a texel centre
 * is that texel; halfway between texels x and x + 1 (clamped to the edge) is their mean; the
 * dimensions are 4 x 2 with 1 level. Filtering may round differently from this arithmetic
 * (fixed-point weights), so samples compare within 1e-5. */
EG_TEST(soft_vm, texture_load_sample_dimensions)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 2, 1, 1, 1,
                                WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    uint8_t px[4 * 2 * 4];
    for (uint32_t y = 0; y < 2u; y++)
        for (uint32_t x = 0; x < 4u; x++)
            for (uint32_t c = 0; c < 4u; c++) px[(y * 4u + x) * 4u + c] = tex_byte(x, y, c);
    WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferLayout bl = { 0, 16, 2 };
    WGPUExtent3D sz = t_extent(4, 2, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &ti, px, sizeof px, &bl, &sz);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.magFilter = sd.minFilter = WGPUFilterMode_Linear;
    WGPUSampler smp = wgpuDeviceCreateSampler(d, &sd);
    WGPUBuffer out = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 16u * 16u);
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.compute.module = vm_module(d, "vm_tex.comp");
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    WGPUBindGroupLayout bgl = wgpuComputePipelineGetBindGroupLayout(p, 0);
    WGPUBindGroupEntry be[3] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
    be[0].binding = 0; be[0].buffer = out; be[0].size = 256;
    be[1].binding = 1; be[1].textureView = view;
    be[2].binding = 2; be[2].sampler = smp;
    WGPUBindGroupDescriptor gd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    gd.layout = bgl;
    gd.entryCount = 3;
    gd.entries = be;
    WGPUBindGroup g = wgpuDeviceCreateBindGroup(d, &gd);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderSetPipeline(pass, p);
    wgpuComputePassEncoderSetBindGroup(pass, 0, g, 0, NULL);
    wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    t_submit(e);
    float v[64];
    EG_ASSERT(t_readback(d, out, 0, sizeof v, v));
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 4u; i++) {
        uint32_t i1 = i < 3u ? i + 1u : 3u;
        for (uint32_t c = 0; c < 4u; c++) {
            float load = (float)tex_byte(i, 1, c) / 255.0f, centre = (float)tex_byte(i, 0, c) / 255.0f;
            float half = ((float)tex_byte(i, 0, c) + (float)tex_byte(i1, 0, c)) / 510.0f;
            bad += !near(v[i * 16u + c], load) + !near(v[i * 16u + 4u + c], centre) + !near(v[i * 16u + 8u + c], half);
        }
        bad += v[i * 16u + 12u] != 4.0f || v[i * 16u + 13u] != 2.0f || v[i * 16u + 14u] != 1.0f;
    }
    EG_EXPECT_EQ_U(bad, 0u);
    wgpuBindGroupRelease(g);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuComputePipelineRelease(p);
    wgpuShaderModuleRelease(cd.compute.module);
    wgpuBufferRelease(out);
    wgpuSamplerRelease(smp);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}
