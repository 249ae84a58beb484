/* Outcodes and window coordinates on lanes, consecutive-element fetch (helper "vtx11"):
 * soft_draw.c classify_lanes computes classify_slots' clip codes, bad-position test and to_window
 * values 4 vertices at a time from the program's position lanes, and soft_draw_fetch.c fetch_run
 * converts Float32x2 / Unorm8x4 attributes of consecutive elements 4 lanes at a time
 * (eg_soft_raster_fast_paths on); with the fast paths off classify_slots does every slot and
 * the lane loop every fetch. Both must give the same bytes (colour and depth) for triangles that
 * cross every clip plane (the guard band's x and y planes, w <= 0, z < 0 and z > w), that have
 * NaN, infinite or huge coordinates, with and without back-face culling, over more vertices than
 * a batch and vertex counts that leave partial lane groups (1-3 vertices past a multiple of 4,
 * which classify_slots and the lane loop take); positions as Float32x4 and colours as Float32x4,
 * or positions as Float32x2 (z 0, w 1) and colours as Unorm8x4. */
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"
#include <emgpu/emgpu.h>

#include "hal/soft/soft_raster.h"

/* The target's side: 64 px, 32 px where the soft heap is small (an MCU board's 64 KiB holds the
 * 32 px targets, the vertices and the read-back buffer) */
#if EMGPU_SOFT_HEAP_BYTES >= (256u << 10)
#define CPX 64u
#else
#define CPX 32u
#endif
#define CTRIS 111u             /* 333 vertices: past a 256-vertex batch, 333 = 4 * 83 + 1 */

static uint32_t c_lcg;
static float c_rand(float lo, float hi)
{
    c_lcg = c_lcg * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(c_lcg >> 8) * (1.0f / 16777216.0f);
}

/* Vertex v: clip position (x, y, z, w) and colour; every 9th vertex is a special case. */
static void c_vertex(uint32_t v, float out[8])
{
    float w = c_rand(0.25f, 2.0f);
    out[0] = c_rand(-1.3f, 1.3f) * w;
    out[1] = c_rand(-1.3f, 1.3f) * w;
    out[2] = c_rand(-0.2f, 1.2f) * w;      /* z < 0 and z > w: the depth planes */
    out[3] = w;
    for (uint32_t c = 0; c < 4u; c++) out[4u + c] = c_rand(0.0f, 1.0f);
    union { uint32_t u; float f; } nan = { 0x7fc00000u }, inf = { 0x7f800000u };
    switch (v % 9u == 4u ? (v / 9u) % 10u : 99u) {
    case 0: out[0] = 1500.0f * w; break;                    /* past the guard band, right */
    case 1: out[0] = -1500.0f * w; break;                   /* left */
    case 2: out[1] = 1500.0f * w; break;                    /* top */
    case 3: out[1] = -1500.0f * w; break;                   /* bottom */
    case 4: out[3] = -w; break;                             /* behind the eye */
    case 5: out[3] = 0.0f; break;                           /* w = 0 */
    case 6: out[v % 4u] = nan.f; break;                     /* a NaN in any component */
    case 7: out[(v + 1u) % 4u] = -inf.f; break;             /* an infinity */
    case 8: out[2] = 1e30f; break;                          /* huge, finite */
    case 9: out[0] = out[1] = out[2] = 0.0f; out[3] = 1e-7f; break;   /* tiny w */
    default: break;
    }
}

/* n vertices drawn into a cleared CPX x CPX RGBA8 + Depth32Float (less, written) target;
 * out: colour rows then depth rows at a 256-byte pitch. */
static void c_draw(WGPUDevice d, bool cull, bool packed, uint32_t n, uint8_t *out)
{
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, 32, WGPUVertexFormat_Float32x4);
    if (packed) {   /* Float32x2 x, y at 0, Unorm8x4 at 8, 12 bytes a vertex */
        va[0].format = WGPUVertexFormat_Float32x2;
        va[1].format = WGPUVertexFormat_Unorm8x4;
        va[1].offset = 8;
        vb.arrayStride = 12;
    }
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth32Float;
    ds.depthWriteEnabled = WGPUOptionalBool_True;
    ds.depthCompare = WGPUCompareFunction_Less;
    WGPUPrimitiveState prim = WGPU_PRIMITIVE_STATE_INIT;
    prim.cullMode = cull ? WGPUCullMode_Back : WGPUCullMode_None;
    WGPURenderPipeline p = t_render_pipeline_ex(d, "draw_color.vert", "draw_color.frag", &vb, 1,
                                                WGPUTextureFormat_RGBA8Unorm, NULL, &ds, &prim);
    static float vtx[3u * CTRIS * 8u];
    c_lcg = 12345u;
    for (uint32_t v = 0; v < 3u * CTRIS; v++) {
        float f[8];
        c_vertex(v, f);
        if (!packed) { eg_memcpy(vtx + 8u * v, f, sizeof f); continue; }
        uint8_t *q = (uint8_t *)vtx + 12u * v;
        float xy[2] = { f[0] / f[3], f[1] / f[3] };   /* (NaN, infinite, huge where w is 0 or special) */
        eg_memcpy(q, xy, sizeof xy);
        for (uint32_t c = 0; c < 4u; c++) q[8u + c] = (uint8_t)(f[4u + c] * 255.0f);
    }
    WGPUBuffer vbuf = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof vtx);
    wgpuQueueWriteBuffer(eg_test_queue(), vbuf, 0, vtx, sizeof vtx);
    WGPUTexture ct = t_texture(d, WGPUTextureFormat_RGBA8Unorm, CPX, CPX, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTexture dt = t_texture(d, WGPUTextureFormat_Depth32Float, CPX, CPX, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView cv = wgpuTextureCreateView(ct, NULL), dv = wgpuTextureCreateView(dt, NULL);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 2u * 256u * CPX);
    t_draw_color_depth_copy_ex(d, p, NULL, vbuf, n, cv, dv, ct, dt, CPX, rb, NULL, 1.0f, NULL);
    EG_EXPECT(t_readback(d, rb, 0, 2u * 256u * CPX, out));
    wgpuBufferRelease(rb);
    wgpuTextureViewRelease(dv);
    wgpuTextureViewRelease(cv);
    wgpuTextureRelease(dt);
    wgpuTextureRelease(ct);
    wgpuBufferRelease(vbuf);
    wgpuRenderPipelineRelease(p);
}

EG_TEST(soft_draw_classify, lanes_equal_per_slot_classify_and_fetch)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    /* soft internals (EMGPU_TEST_BACKEND runs the suite on another backend) */
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only path"); }
    static uint8_t fast[2u * 256u * CPX], general[2u * 256u * CPX];
    uint32_t bad = 0, thin = 0;
    for (uint32_t variant = 0; variant < 4u; variant++)
        for (uint32_t tail = 0; tail < 4u; tail++) {   /* 3 CTRIS - tail vertices: groups end at every offset */
            uint32_t n = 3u * CTRIS - tail, cull = variant & 1u;
            c_draw(d, cull != 0u, variant >= 2u, n, fast);
            eg_soft_raster_fast_paths = false;
            c_draw(d, cull != 0u, variant >= 2u, n, general);
            eg_soft_raster_fast_paths = true;
            uint32_t diff = 0, drawn = 0;
            for (uint32_t y = 0; y < CPX; y++)
                for (uint32_t x = 0; x < CPX; x++) {
                    uint32_t c = 256u * y + 4u * x, z = 256u * (CPX + y) + 4u * x;
                    diff += eg_memcmp(fast + c, general + c, 4) != 0 || eg_memcmp(fast + z, general + z, 4) != 0;
                    drawn += general[c + 3u] != 0;
                }
            if (diff)
                eg_test_printf("    variant %u, %u vertices: %u pixels differ from the general path\n",
                               (unsigned)variant, (unsigned)n, (unsigned)diff);
            bad += diff;
            thin += drawn < CPX * CPX / 4u;   /* the triangles cover most of the target */
        }
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(thin, 0u);
    eg_test_device_release();
}
