/* Soft draw front end (helper "tri9"): non-indexed batches, the lane-loop vertex fetch and the
 * per-vertex position tests (NaN / infinity drop, signs). */
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"
#include <emgpu/emgpu.h>
#include <string.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"
#endif

#define W 8u
#define NTRI 300u   /* 900 vertices: more than any board's vertex batch (64 or 256) */

typedef struct fvert { float x, y, z, w; uint8_t rgba[4]; } fvert_t;

/* draw_color.vert/.frag on an RGBA8 target, additive blending (one, one) when `add`. */
static WGPURenderPipeline color_pipeline(WGPUDevice d, bool add)
{
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, sizeof(fvert_t), WGPUVertexFormat_Unorm8x4);
    static const WGPUBlendState bl = { { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_One },
                                       { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_One } };
    return t_color_pipeline(d, "draw_color.vert", "draw_color.frag", &vb, WGPUTextureFormat_RGBA8Unorm, add ? &bl : NULL);
}

/* Draws v[0..n) as a non-indexed triangle list into a cleared W x W target; out: RGBA8 rows. */
static void draw_list(WGPUDevice d, bool add, const fvert_t *v, uint32_t n, uint8_t out[W * W * 4])
{
    WGPURenderPipeline p = color_pipeline(d, add);
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, n * sizeof *v);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, n * sizeof *v);
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, W, W, 1, 1, 1,
                                WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUBuffer rb = t_draw_copy(d, p, vb, n * sizeof *v, view, NULL, tex, W, W, n);
    static uint8_t rows[256u * W];
    EG_EXPECT(t_readback(d, rb, 0, sizeof rows, rows));
    for (uint32_t y = 0; y < W; y++) eg_memcpy(out + y * W * 4u, rows + y * 256u, W * 4u);
    wgpuBufferRelease(rb);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
}

static const fvert_t full_a = { -1, -1, 0, 1, { 0, 0, 0, 0 } }, full_b = { 3, -1, 0, 1, { 0, 0, 0, 0 } },
                     full_c = { -1, 3, 0, 1, { 0, 0, 0, 0 } };

/* NTRI full-screen triangles, triangle i adding 1/255 to channel i % 4 only (unorm8 blending of
 * k/255 + 1/255 stores exactly (k + 1)/255): every channel of every pixel ends at NTRI / 4 = 75.
 * The list crosses several vertex batches (each ends when the vertex store is full); a
 * primitive lost or drawn twice at a boundary moves one channel by one. */
EG_TEST(soft_draw_fresh, nonindexed_beyond_batch)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    static fvert_t v[NTRI * 3u];
    for (uint32_t t = 0; t < NTRI; t++) {
        v[3 * t] = full_a; v[3 * t + 1] = full_b; v[3 * t + 2] = full_c;
        for (uint32_t i = 0; i < 3u; i++) v[3 * t + i].rgba[t % 4u] = 1;
    }
    static uint8_t img[W * W * 4];
    draw_list(d, true, v, NTRI * 3u, img);
    EG_EXPECT_NO_ERROR();
    uint32_t bad = 0;
    for (uint32_t i = 0; i < W * W * 4u; i++) bad += img[i] != NTRI / 4u;
    if (bad) eg_test_printf("    %u channel values differ from %u (pixel 0: %u %u %u %u)\n", bad, NTRI / 4u, img[0],
                            img[1], img[2], img[3]);
    EG_EXPECT(bad == 0);
    eg_test_device_release();
}

/* Position tests per vertex: a triangle with a NaN or infinite component is dropped (WebGPU
 * leaves the result undefined; soft draws nothing), one with negative and signed-zero
 * components is drawn. Red comes from a full-screen triangle whose corners are negative in x
 * or y and -0.0 in z; the dropped ones would add green or blue over the whole target (they
 * cover it if drawn as their finite corners say). Expected: every pixel (255, 0, 0, 255). */
EG_TEST(soft_draw_fresh, nonfinite_dropped_signs_kept)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    union { uint32_t u; float f; } inf = { 0x7f800000u }, nan = { 0x7fc00000u };
    static fvert_t v[9];
    const fvert_t red[3] = { { -1, -1, -0.0f, 1, { 255, 0, 0, 255 } }, { 3, -1, -0.0f, 1, { 255, 0, 0, 255 } },
                             { -1, 3, -0.0f, 1, { 255, 0, 0, 255 } } };
    for (uint32_t i = 0; i < 3u; i++) {
        v[i] = red[i];
        v[3 + i] = full_a; v[3 + i].rgba[1] = 255;   /* green, one corner's x infinite */
        v[6 + i] = full_a; v[6 + i].rgba[2] = 255;   /* blue, one corner's w NaN */
    }
    v[4] = full_b; v[5] = full_c; v[7] = full_b; v[8] = full_c;
    for (uint32_t i = 4; i < 9u; i++) v[i].rgba[i < 6u ? 1 : 2] = 255;
    v[4].x = inf.f;
    v[8].w = nan.f;
    static uint8_t img[W * W * 4];
    draw_list(d, true, v, 9, img);
    EG_EXPECT_NO_ERROR();
    uint32_t bad = 0;
    for (uint32_t i = 0; i < W * W; i++)
        bad += img[4 * i] != 255 || img[4 * i + 1] != 0 || img[4 * i + 2] != 0 || img[4 * i + 3] != 255;
    if (bad) eg_test_printf("    %u pixels not red (pixel 0: %u %u %u %u)\n", bad, img[0], img[1], img[2], img[3]);
    EG_EXPECT(bad == 0);
    eg_test_device_release();
}

#if EMGPU_HAL_SOFT
/* eg_soft_fetch_lanes against the per-element converters and the spec's conversions: float32
 * formats copy the bits, unorm8 is c / 255 (computed here at run time, not from a table), absent
 * components read (0, 0, 0, 1), and an element whose bytes end past the bound range reads
 * (0, 0, 0, 1) while the last one that ends exactly at it is read (robust access). */
EG_TEST(soft_draw_fresh, fetch_lanes_formats)
{
    static const WGPUVertexFormat fmts[5] = { WGPUVertexFormat_Float32x2, WGPUVertexFormat_Float32x3,
                                              WGPUVertexFormat_Float32x4, WGPUVertexFormat_Unorm8x4,
                                              WGPUVertexFormat_Snorm8x2 };
    static const uint32_t size_B[5] = { 8, 12, 16, 4, 2 };
    static uint8_t mem[256];
    for (uint32_t i = 0; i < sizeof mem; i++) mem[i] = (uint8_t)(i * 37u + 11u);
    const uint32_t stride_B = 20, offset_B = 3;
    static eg_soft_vec4_t out;
    uint32_t bad = 0;
    for (uint32_t f = 0; f < 5u; f++) {
        /* elements 0..11 fit in a 240 B range at stride 20 for every size here (11 * 20 + 3 + 16
         * = 239); the range is cut so element `last` ends exactly at its end */
        const uint32_t last = 9, range_B = last * stride_B + offset_B + size_B[f];
        const uint32_t el[EG_SOFT_LANES] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, last, last + 1u, last + 2u, 0, 7, last, 1 };
        eg_soft_fetch_fn fn = eg_soft_fetch_fn_for(fmts[f]);
        eg_memset(&out, 0xAB, sizeof out);
        eg_soft_fetch_lanes(fn, mem, range_B, offset_B, size_B[f], stride_B, el, EG_SOFT_LANES, &out);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            uint32_t want[4] = { 0, 0, 0, 0x3F800000u };
            const uint8_t *p = mem + el[l] * stride_B + offset_B;
            if (el[l] <= last) {
                if (fmts[f] == WGPUVertexFormat_Unorm8x4) {
                    for (uint32_t c = 0; c < 4u; c++) {
                        volatile float num = (float)p[c];
                        union { float f; uint32_t u; } q = { num / 255.0f };
                        want[c] = q.u;
                    }
                } else if (fmts[f] == WGPUVertexFormat_Snorm8x2) {
                    fn(p, want);   /* the generic path: the converter itself, per element */
                } else {
                    for (uint32_t c = 0; c < size_B[f] / 4u; c++)
                        want[c] = (uint32_t)p[4 * c] | (uint32_t)p[4 * c + 1] << 8 | (uint32_t)p[4 * c + 2] << 16 |
                                  (uint32_t)p[4 * c + 3] << 24;
                }
            }
            for (uint32_t c = 0; c < 4u; c++) bad += out.c[c].u[l] != want[c];
        }
    }
    if (bad) eg_test_printf("    %u components differ\n", bad);
    EG_EXPECT(bad == 0);
}

/* Every byte value through the unorm8 lane loop equals the run-time division c / 255. */
EG_TEST(soft_draw_fresh, fetch_unorm8_every_byte)
{
    static uint8_t mem[256 * 4];
    for (uint32_t i = 0; i < 256u * 4u; i++) mem[i] = (uint8_t)(i / 4u);
    uint32_t bad = 0;
    static eg_soft_vec4_t out;
    eg_soft_fetch_fn fn = eg_soft_fetch_fn_for(WGPUVertexFormat_Unorm8x4);
    for (uint32_t g = 0; g < 256u; g += EG_SOFT_LANES) {
        uint32_t el[EG_SOFT_LANES];
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) el[l] = g + l;
        eg_soft_fetch_lanes(fn, mem, sizeof mem, 0, 4, 4, el, EG_SOFT_LANES, &out);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            volatile float num = (float)(g + l);
            float want = num / 255.0f;
            for (uint32_t c = 0; c < 4u; c++) bad += eg_memcmp(&out.c[c].f[l], &want, 4) != 0;
        }
    }
    EG_EXPECT(bad == 0);
}
/* eg_soft_fetch_lanes's runs (helper "setup10"): where lanes 0 and 1 share an element, groups of
 * 4 lanes of one element are converted once and copied. Against the per-element converter (the
 * generic path) for every inlined format and one through the function pointer: runs of 4 on
 * and off the group boundaries, a run past the bound range (robust access reads (0, 0, 0, 1)),
 * distinct elements after runs, and partial groups (n = 16, 13, 6, 4, 2, 1). */
EG_TEST(soft_draw_fresh, fetch_lanes_runs)
{
    static const WGPUVertexFormat fmts[6] = { WGPUVertexFormat_Float32, WGPUVertexFormat_Float32x2,
                                              WGPUVertexFormat_Float32x3, WGPUVertexFormat_Float32x4,
                                              WGPUVertexFormat_Unorm8x4, WGPUVertexFormat_Snorm8x2 };
    static const uint32_t size_B[6] = { 4, 8, 12, 16, 4, 2 };
    static const uint32_t els[4][EG_SOFT_LANES] = {
        { 4, 4, 4, 4, 7, 7, 7, 7, 0, 0, 0, 0, 2, 2, 2, 2 },     /* instanced quads: runs on the groups */
        { 5, 5, 5, 5, 5, 9, 9, 9, 9, 30, 30, 30, 30, 1, 2, 3 },  /* runs across groups, one past the range */
        { 6, 6, 1, 1, 1, 1, 8, 8, 30, 30, 8, 8, 8, 8, 8, 3 },    /* short runs, a group of 4 past the range */
        { 3, 3, 4, 3, 3, 3, 3, 5, 6, 6, 6, 6, 2, 3, 2, 2 },      /* one lane of 4 differs (each position) */
    };
    static const uint32_t ns[6] = { 16, 13, 6, 4, 2, 1 };
    static uint8_t mem[256];
    for (uint32_t i = 0; i < sizeof mem; i++) mem[i] = (uint8_t)(i * 53u + 7u);
    const uint32_t stride_B = 20, offset_B = 1, range_B = 12u * 20u;   /* elements 0..11 in range */
    static eg_soft_vec4_t out;
    uint32_t bad = 0;
    for (uint32_t f = 0; f < 6u; f++) {
        eg_soft_fetch_fn fn = eg_soft_fetch_fn_for(fmts[f]);
        for (uint32_t e = 0; e < 4u; e++)
            for (uint32_t k = 0; k < 6u; k++) {
                const uint32_t *el = els[e], n = ns[k];
                eg_memset(&out, 0xAB, sizeof out);
                eg_soft_fetch_lanes(fn, mem, range_B, offset_B, size_B[f], stride_B, el, n, &out);
                for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                    uint32_t want[4] = { 0, 0, 0, 0x3F800000u };
                    if (l >= n) {   /* lanes past n are not written */
                        for (uint32_t c = 0; c < 4u; c++) bad += out.c[c].u[l] != 0xABABABABu;
                        continue;
                    }
                    if ((uint64_t)el[l] * stride_B + offset_B + size_B[f] <= range_B)
                        fn(mem + el[l] * stride_B + offset_B, want);   /* the generic path, per element */
                    for (uint32_t c = 0; c < 4u; c++) bad += out.c[c].u[l] != want[c];
                }
            }
    }
    if (bad) eg_test_printf("    %u components differ\n", bad);
    EG_EXPECT(bad == 0);
}
#endif
