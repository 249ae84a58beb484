/* Sample interpolation on a 4x target: a Sample-qualified input (WGSL @interpolate(_, sample))
 * takes its value at each sample's position, the same input without it at the pixel centre. */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

/* Standard 4x sample positions (Vulkan "Multisampling", D3D and Metal use the same), in pixel
 * fractions from the top-left corner: WebGPU's 4x pattern. */
static const float k_sample_x[4] = { 0.375f, 0.875f, 0.125f, 0.625f };
static const float k_sample_y[4] = { 0.125f, 0.375f, 0.625f, 0.875f };

/* The affine functions of the framebuffer position (px, py) the vertices carry: with w = 1 a
 * perspective-interpolated input is exactly this function of the position where it is taken. */
static float fn_r(float px, float py) { return 0.05f + 0.15f * px + 0.05f * py; }
static float fn_g(float px, float py) { return 0.1f + 0.04f * px + 0.18f * py; }

/* IEEE binary16 to float (RGBA16Float read back), written out independently of the runtime. */
static float half_to_float(uint16_t h)
{
    uint32_t e = h >> 10 & 31u, m = h & 1023u;
    float v = e == 0u ? (float)m / 1024.0f / 16384.0f : (1.0f + (float)m / 1024.0f);
    for (uint32_t i = 15u; e && i < e; i++) v *= 2.0f;
    for (uint32_t i = e; e && i < 15u; i++) v *= 0.5f;
    return h & 0x8000u ? -v : v;
}

typedef struct ivtx {
    float pos[4];
    float color[4];
} ivtx_t;

/* Draws a triangle covering the 4x4 RGBA16Float 4x target (cleared to 0) with only sample k
 * enabled (multisample.mask = 1 << k), resolves it and reads the resolve back (rows of 256 B).
 * The resolve averages the 4 samples, so each pixel holds (value at sample k) / 4. */
static bool draw_one_sample(WGPUDevice d, const char *vs_name, const char *fs_name, uint32_t k,
                            uint16_t *out /* [4 * 128] */)
{
    WGPUTexture ms = t_texture(d, WGPUTextureFormat_RGBA16Float, 4, 4, 1, 1, 4, WGPUTextureUsage_RenderAttachment);
    WGPUTexture rs = t_texture(d, WGPUTextureFormat_RGBA16Float, 4, 4, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView msv = wgpuTextureCreateView(ms, NULL), rsv = wgpuTextureCreateView(rs, NULL);
    WGPUShaderModule vs = t_spv_module(d, vs_name), fs = t_spv_module(d, fs_name);
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, sizeof(ivtx_t), WGPUVertexFormat_Float32x4);
    WGPUColorTargetState ct = WGPU_COLOR_TARGET_STATE_INIT;
    ct.format = WGPUTextureFormat_RGBA16Float;
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
    pd.multisample.mask = 1u << k;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    /* framebuffer (0, 0), (8, 0), (0, 8) of the 4 px target: NDC x = px / 2 - 1, y = 1 - py / 2 */
    static const float corner[3][2] = { { 0, 0 }, { 8, 0 }, { 0, 8 } };
    ivtx_t v[3];
    for (uint32_t i = 0; i < 3u; i++) {
        float px = corner[i][0], py = corner[i][1];
        ivtx_t t = { { px / 2.0f - 1.0f, 1.0f - py / 2.0f, 0.0f, 1.0f }, { fn_r(px, py), fn_g(px, py), 0.5f, 1.0f } };
        v[i] = t;
    }
    WGPUBuffer vbuf = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), vbuf, 0, v, sizeof v);
    WGPUBuffer rb = t_draw3_copy(d, p, vbuf, sizeof v, msv, rsv, rs, 4, 4);
    bool ok = p && vs && fs && t_readback(d, rb, 0, 256u * 4u, out);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(vbuf);
    if (p) wgpuRenderPipelineRelease(p);
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    wgpuTextureViewRelease(msv);
    wgpuTextureViewRelease(rsv);
    wgpuTextureRelease(ms);
    wgpuTextureRelease(rs);
    return ok;
}

/* Every pixel of every single-sample draw against the functions at (x + ox[k], y + oy[k]) / 4;
 * alpha 1 / 4 says that sample k alone was written. Returns the number of mismatches. The
 * samples' values differ from the centre's by at least 0.0094 after the / 4, far above the
 * tolerance (binary16 near 0.3: 2.4e-4). */
static uint32_t check_samples(WGPUDevice d, const char *vs_name, const char *fs_name, const float *ox, const float *oy)
{
    static uint16_t px[4 * 128];
    uint32_t bad = 0;
    for (uint32_t k = 0; k < 4u; k++) {
        if (!draw_one_sample(d, vs_name, fs_name, k, px)) return 1000u;
        for (uint32_t y = 0; y < 4u; y++)
            for (uint32_t x = 0; x < 4u; x++) {
                const uint16_t *h = px + y * 128u + x * 4u;
                float fx = (float)x + ox[k], fy = (float)y + oy[k];
                float want[4] = { fn_r(fx, fy) / 4.0f, fn_g(fx, fy) / 4.0f, 0.5f / 4.0f, 1.0f / 4.0f };
                for (uint32_t c = 0; c < 4u; c++) {
                    float got = half_to_float(h[c]), dv = got - want[c];
                    if (dv > 1e-3f || dv < -1e-3f) {
                        if (bad < 4u)
                            eg_test_printf("%s sample %u pixel (%u, %u) channel %u: %d/10000, want %d/10000\n", fs_name,
                                        (unsigned)k, (unsigned)x, (unsigned)y, (unsigned)c, (int)(got * 10000.0f),
                                        (int)(want[c] * 10000.0f));
                        bad++;
                    }
                }
            }
    }
    return bad;
}


/* WebGPU @interpolate(perspective, sample) (SPIR-V Sample): the shader runs per sample and the
 * input is taken at that sample's position. */
EG_TEST(soft_msaa, sample_input_at_sample_positions)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    EG_EXPECT_EQ_U(check_samples(d, "msaa_interp_sample.vert", "msaa_interp_sample.frag", k_sample_x, k_sample_y), 0u);
    eg_test_device_release();
}

/* The same input without Sample: one run per pixel, every sample gets the centre value. */
EG_TEST(soft_msaa, center_input_at_pixel_centre)
{
    static const float centre[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    EG_EXPECT_EQ_U(check_samples(d, "draw_color.vert", "msaa_interp_center.frag", centre, centre), 0u);
    eg_test_device_release();
}
