/* soft_raster_shade.c's 8-lane (AVX2) barycentrics, depth and interpolation against its 4-lane
 * code: the same bits in the color and depth targets (mesh7b, session 7). */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"
#endif

#if EMGPU_HAL_SOFT
#define WIDE_PX 16u

typedef struct wvtx {
    float pos[4];
    float color[4];
} wvtx_t;

static uint32_t wlcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static float wlcg_f(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(wlcg(s) & 0xFFFFu) / 65535.0f; }

/* 12 random perspective triangles (w in [0.5, 3], colors with fractional bits everywhere) over
 * a 16x16 RGBA32Float target with Depth32Float Less: out gets the color rows then the depth
 * rows (256 B row pitch each). */
static bool draw_wide(WGPUDevice d, uint8_t *out /* [2 * 256 * WIDE_PX] */)
{
    WGPUTexture ct = t_texture(d, WGPUTextureFormat_RGBA32Float, WIDE_PX, WIDE_PX, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTexture dt = t_texture(d, WGPUTextureFormat_Depth32Float, WIDE_PX, WIDE_PX, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView cv = wgpuTextureCreateView(ct, NULL), dv = wgpuTextureCreateView(dt, NULL);
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, sizeof(wvtx_t), WGPUVertexFormat_Float32x4);
    WGPURenderPipeline p = t_color_depth_pipeline(d, "draw_color.vert", "draw_color.frag", &vb,
                                                  WGPUTextureFormat_RGBA32Float, NULL, WGPUCompareFunction_Less, true);
    static wvtx_t v[36];
    uint32_t seed = 77u;
    for (uint32_t i = 0; i < 36u; i++) {
        float w = wlcg_f(&seed, 0.5f, 3.0f);
        wvtx_t t = { { wlcg_f(&seed, -1.3f, 1.3f) * w, wlcg_f(&seed, -1.3f, 1.3f) * w, wlcg_f(&seed, 0.0f, 1.0f) * w, w },
                     { wlcg_f(&seed, -2, 2), wlcg_f(&seed, 0, 1), wlcg_f(&seed, 0.1f, 0.3f), 0.75f } };
        v[i] = t;
    }
    WGPUBuffer vbuf = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), vbuf, 0, v, sizeof v);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 2u * 256u * WIDE_PX);
    t_draw_color_depth_copy(d, p, NULL, vbuf, 36, cv, dv, ct, dt, WIDE_PX, rb);
    bool ok = p && t_readback(d, rb, 0, 2u * 256u * WIDE_PX, out);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(vbuf);
    if (p) wgpuRenderPipelineRelease(p);
    wgpuTextureViewRelease(cv);
    wgpuTextureViewRelease(dv);
    wgpuTextureRelease(ct);
    wgpuTextureRelease(dt);
    return ok;
}
#endif

/* The same bytes with eg_soft_shade_vw 8 (AVX2 where the CPU has it) and 4, and enough pixels
 * drawn (not the clear color) that the comparison means something. */
EG_TEST(soft_shade, wide_equals_narrow)
{
#if EMGPU_HAL_SOFT
    static uint8_t a[2 * 256 * WIDE_PX], b[2 * 256 * WIDE_PX];
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft internals"); }
    uint32_t saved = eg_soft_shade_vw;
    eg_soft_shade_vw = 8u;
    EG_ASSERT(draw_wide(d, a));
    eg_soft_shade_vw = 4u;
    bool ok = draw_wide(d, b);
    eg_soft_shade_vw = saved;
    EG_ASSERT(ok);
    uint32_t drawn = 0, differ = 0;
    for (uint32_t y = 0; y < WIDE_PX; y++)
        for (uint32_t x = 0; x < WIDE_PX; x++) {
            const uint8_t *pa = a + y * 256u + x * 16u, *pb = b + y * 256u + x * 16u;
            const uint8_t *za = a + 256u * WIDE_PX + y * 256u + x * 4u, *zb = b + 256u * WIDE_PX + y * 256u + x * 4u;
            float alpha;
            eg_memcpy(&alpha, pa + 12, 4);
            drawn += alpha == 0.75f;
            differ += eg_memcmp(pa, pb, 16) != 0 || eg_memcmp(za, zb, 4) != 0;
        }
    EG_EXPECT_EQ_U(differ, 0u);
    EG_EXPECT(drawn > 100u);
    eg_test_device_release();
#else
    EG_SKIP("soft backend not compiled in");
#endif
}
