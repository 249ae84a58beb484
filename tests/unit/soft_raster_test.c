/* Unit tests of hal/soft rasterizer internals: fill rule, blend math, depth/stencil, vertex fetch,
 * render-target packing, sample positions. Expected values are worked out by hand in comments. */
#include "config/emgpu_config.h"
#include "tests/harness/harness.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_texel.h"
#include "tests/harness/test_device.h"

#include <math.h>
#include <string.h>

static int32_t px256(float v) { return eg_soft_snap(v); }

/* These tests drive the rasterizer directly, without a soft device (the Vulkan and GLES runs
 * of the suite never open one), so they give the submitting thread's worker its whole-frame
 * clip themselves, as soft device open does. */
static eg_soft_worker_t *main_worker(void)
{
    eg_soft_workers_reset();
    return &eg_soft_worker_main;
}

/* eg_soft_snap is round-half-away-from-zero of v * 256 (EG_SOFT_SUBPIX): the reference here
 * is computed in double, where f + 0.5 is exact for |f| < 2^24, so floor gives the rounding
 * independently of the runtime's float/int bit tricks. Covers the .5 ties on both sides, the
 * values either side of each tie, zeros and the guard-band range. */
static int32_t snap_ref(float v)
{
    double f = (double)(v * 256.0f);   /* the runtime scales in float: same product */
    double r = floor((f < 0 ? -f : f) + 0.5);
    return (int32_t)(f < 0 ? -r : r);
}

EG_TEST(soft_raster, snap_rounds_half_away_from_zero)
{
    static const float fixed[] = { 0.0f, -0.0f, 1.0f / 512.0f, -1.0f / 512.0f, 3.0f / 512.0f, -3.0f / 512.0f,
                                   0.001953125f, 0.0019531249f, 0.0019531251f, -0.0019531249f, 100.5f, -7.998f,
                                   8191.998f, -8191.998f, 16383.25f, -16383.25f };
    uint32_t bad = 0;
    for (uint32_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) bad += eg_soft_snap(fixed[i]) != snap_ref(fixed[i]);
    /* every tie k/512 (odd k) in [-64, 64) and its float neighbours */
    for (int32_t k = -32768 + 1; k < 32768; k += 2) {
        float t = (float)k / 512.0f, up = t, dn = t;
        uint32_t b;
        memcpy(&b, &t, 4); b++; memcpy(&up, &b, 4);
        memcpy(&b, &t, 4); b--; memcpy(&dn, &b, 4);
        bad += eg_soft_snap(t) != snap_ref(t);
        bad += eg_soft_snap(up) != snap_ref(up);
        bad += eg_soft_snap(dn) != snap_ref(dn);
    }
    EG_EXPECT_EQ_U(bad, 0u);
    /* spot values worked by hand: 0.5/256 px is a tie -> 1 away from zero; 1.25/256 -> 1 */
    EG_EXPECT_EQ_I(eg_soft_snap(0.5f / 256.0f), 1);
    EG_EXPECT_EQ_I(eg_soft_snap(-0.5f / 256.0f), -1);
    EG_EXPECT_EQ_I(eg_soft_snap(1.25f / 256.0f), 1);
    EG_EXPECT_EQ_I(eg_soft_snap(-1.75f / 256.0f), -2);
}

/* Every pixel centre of an 8x8 square covered exactly once by two triangles sharing the
 * diagonal, and by a fan of 6 triangles around an off-grid centre (shared edges in every
 * direction). A centre on no edge is inside the square iff it is inside; square edges at
 * integer coordinates never pass through centres. */
EG_TEST(soft_raster, fill_rule_shared_edges)
{
    const float sq[4][2] = { { 0, 0 }, { 8, 0 }, { 8, 8 }, { 0, 8 } };
    unsigned cnt[8][8] = { { 0 } };
    const int tris[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
    for (int t = 0; t < 2; t++) {
        int32_t x[3], y[3];
        for (int i = 0; i < 3; i++) { x[i] = px256(sq[tris[t][i]][0]); y[i] = px256(sq[tris[t][i]][1]); }
        for (int py = 0; py < 8; py++)
            for (int px = 0; px < 8; px++) cnt[py][px] += eg_soft_covers(x, y, px, py);
    }
    /* fan around (3.5, 4.5): the centre itself is a pixel centre lying on every shared edge */
    const float ring[6][2] = { { 0, 0 }, { 8, 0 }, { 8, 4.5f }, { 8, 8 }, { 0, 8 }, { 0, 4.5f } };
    unsigned fan[8][8] = { { 0 } };
    for (int t = 0; t < 6; t++) {
        int32_t x[3] = { px256(3.5f), px256(ring[t][0]), px256(ring[(t + 1) % 6][0]) };
        int32_t y[3] = { px256(4.5f), px256(ring[t][1]), px256(ring[(t + 1) % 6][1]) };
        for (int py = 0; py < 8; py++)
            for (int px = 0; px < 8; px++) fan[py][px] += eg_soft_covers(x, y, px, py);
    }
    for (int py = 0; py < 8; py++)
        for (int px = 0; px < 8; px++) {
            EG_EXPECT_EQ_U(cnt[py][px], 1);
            EG_EXPECT_EQ_U(fan[py][px], 1);
        }
}

/* Top-left rule: a centre exactly on a top or left edge is inside, on a bottom or right edge
 * outside (y down). Pixel (0, 0) has its centre at (0.5, 0.5). */
EG_TEST(soft_raster, fill_rule_top_left)
{
    int32_t x[3], y[3];
    /* horizontal edge y = 0.5, interior below: top edge -> covered */
    x[0] = px256(0); y[0] = px256(0.5f); x[1] = px256(8); y[1] = px256(0.5f); x[2] = px256(0); y[2] = px256(8.5f);
    EG_EXPECT(eg_soft_covers(x, y, 0, 0));
    /* same edge, interior above: bottom edge -> not covered */
    y[2] = px256(-7.5f);
    EG_EXPECT(!eg_soft_covers(x, y, 0, 0));
    /* vertical edge x = 0.5, interior to the right: left edge -> covered */
    x[0] = px256(0.5f); y[0] = px256(-1); x[1] = px256(0.5f); y[1] = px256(8); x[2] = px256(8); y[2] = px256(-1);
    EG_EXPECT(eg_soft_covers(x, y, 0, 0));
    /* interior to the left: right edge -> not covered */
    x[2] = px256(-8);
    EG_EXPECT(!eg_soft_covers(x, y, 0, 0));
    /* the same triangle with the other winding covers the same pixels */
    int32_t xr[3] = { x[0], x[2], x[1] }, yr[3] = { y[0], y[2], y[1] };
    EG_EXPECT(!eg_soft_covers(xr, yr, 0, 0));
    EG_EXPECT(eg_soft_covers(xr, yr, -1, 0));
}

static bool near(float a, float b) { float d = a - b; return d < 1e-6f && d > -1e-6f; }

static void one_lane(eg_soft_vec4_t *v, float r, float g, float b, float a)
{
    eg_memset(v, 0, sizeof *v);
    v->c[0].f[0] = r; v->c[1].f[0] = g; v->c[2].f[0] = b; v->c[3].f[0] = a;
}

/* Blend formulas (WebGPU "blend state"): src = (0.8, 0.4, 0.2, 0.5), dst = (0.2, 0.6, 1.0, 0.25). */
EG_TEST(soft_raster, blend_math)
{
    const float k[4] = { 0.5f, 0.25f, 1.0f, 0.75f };
    eg_soft_vec4_t s, d;
    eg_soft_blend_t b = { 1, WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha,
                          WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha, 15 };
    one_lane(&s, 0.8f, 0.4f, 0.2f, 0.5f);
    one_lane(&d, 0.2f, 0.6f, 1.0f, 0.25f);
    eg_soft_blend_block(&b, k, true, &s, &d, 1u);
    /* r = .8*.5 + .2*.5 = .5; g = .4*.5 + .6*.5 = .5; b = .1 + .5 = .6; a = .5 + .25*.5 = .625 */
    EG_EXPECT(near(d.c[0].f[0], 0.5f) && near(d.c[1].f[0], 0.5f) && near(d.c[2].f[0], 0.6f) && near(d.c[3].f[0], 0.625f));

    b.op_c = WGPUBlendOperation_ReverseSubtract; b.src_c = WGPUBlendFactor_Constant; b.dst_c = WGPUBlendFactor_Dst;
    b.op_a = WGPUBlendOperation_Subtract; b.src_a = WGPUBlendFactor_SrcAlphaSaturated; b.dst_a = WGPUBlendFactor_OneMinusConstant;
    one_lane(&d, 0.2f, 0.6f, 1.0f, 0.25f);
    eg_soft_blend_block(&b, k, true, &s, &d, 1u);
    /* rgb = dst*dst - src*k: .04 - .4 = -.36; .36 - .1 = .26; 1 - .2 = .8;
     * a = src.a * 1 (SrcAlphaSaturated is 1 for alpha) - dst.a * (1 - .75) = .5 - .0625 = .4375 */
    EG_EXPECT(near(d.c[0].f[0], -0.36f) && near(d.c[1].f[0], 0.26f) && near(d.c[2].f[0], 0.8f) && near(d.c[3].f[0], 0.4375f));

    b.op_c = WGPUBlendOperation_Min; b.op_a = WGPUBlendOperation_Max;
    one_lane(&d, 0.2f, 0.6f, 1.0f, 0.25f);
    eg_soft_blend_block(&b, k, true, &s, &d, 1u);
    /* min/max ignore the factors: (.2, .4, .2) and max(.5, .25) */
    EG_EXPECT(near(d.c[0].f[0], 0.2f) && near(d.c[1].f[0], 0.4f) && near(d.c[2].f[0], 0.2f) && near(d.c[3].f[0], 0.5f));

    /* SrcAlphaSaturated for color: min(src.a, 1 - dst.a) = min(.5, .75) = .5; unorm clamp of a
     * source 1.5 to 1 first: r = 1 * .5 + 0 */
    b.op_c = WGPUBlendOperation_Add; b.src_c = WGPUBlendFactor_SrcAlphaSaturated; b.dst_c = WGPUBlendFactor_Zero;
    one_lane(&s, 1.5f, 0.4f, 0.2f, 0.5f);
    one_lane(&d, 0.2f, 0.6f, 1.0f, 0.25f);
    eg_soft_blend_block(&b, k, true, &s, &d, 1u);
    EG_EXPECT(near(d.c[0].f[0], 0.5f) && near(d.c[1].f[0], 0.2f));
}

EG_TEST(soft_raster, stencil_ops_and_compare)
{
    EG_EXPECT_EQ_U(eg_soft_stencil_op(WGPUStencilOperation_Keep, 5, 9), 5);
    EG_EXPECT_EQ_U(eg_soft_stencil_op(WGPUStencilOperation_Zero, 5, 9), 0);
    EG_EXPECT_EQ_U(eg_soft_stencil_op(WGPUStencilOperation_Replace, 5, 9), 9);
    EG_EXPECT_EQ_U(eg_soft_stencil_op(WGPUStencilOperation_Invert, 5, 9), 250);
    EG_EXPECT_EQ_U(eg_soft_stencil_op(WGPUStencilOperation_IncrementClamp, 255, 9), 255);
    EG_EXPECT_EQ_U(eg_soft_stencil_op(WGPUStencilOperation_DecrementClamp, 0, 9), 0);
    EG_EXPECT_EQ_U(eg_soft_stencil_op(WGPUStencilOperation_IncrementWrap, 255, 9), 0);
    EG_EXPECT_EQ_U(eg_soft_stencil_op(WGPUStencilOperation_DecrementWrap, 0, 9), 255);
    EG_EXPECT(!eg_soft_compare(WGPUCompareFunction_Never, 1, 2));
    EG_EXPECT(eg_soft_compare(WGPUCompareFunction_Less, 1, 2) && !eg_soft_compare(WGPUCompareFunction_Less, 2, 2));
    EG_EXPECT(eg_soft_compare(WGPUCompareFunction_LessEqual, 2, 2) && !eg_soft_compare(WGPUCompareFunction_LessEqual, 3, 2));
    EG_EXPECT(eg_soft_compare(WGPUCompareFunction_Equal, 2, 2) && !eg_soft_compare(WGPUCompareFunction_Equal, 1, 2));
    EG_EXPECT(eg_soft_compare(WGPUCompareFunction_NotEqual, 1, 2) && !eg_soft_compare(WGPUCompareFunction_NotEqual, 2, 2));
    EG_EXPECT(eg_soft_compare(WGPUCompareFunction_Greater, 3, 2) && !eg_soft_compare(WGPUCompareFunction_Greater, 2, 2));
    EG_EXPECT(eg_soft_compare(WGPUCompareFunction_GreaterEqual, 2, 2) && !eg_soft_compare(WGPUCompareFunction_GreaterEqual, 1, 2));
    EG_EXPECT(eg_soft_compare(WGPUCompareFunction_Always, 3, 2));
}

static float as_f(uint32_t u) { float f; eg_memcpy(&f, &u, 4); return f; }

/* Vertex formats (WebGPU "vertex formats"): unorm c/(2^n-1), snorm max(c/(2^(n-1)-1), -1),
 * integers raw, missing components (0, 0, 0, 1). */
EG_TEST(soft_raster, vertex_fetch_formats)
{
    uint32_t o[4];
    const uint8_t b8[4] = { 255, 128, 0, 51 };
    eg_soft_fetch_fn_for(WGPUVertexFormat_Unorm8x4)(b8, o);
    EG_EXPECT(as_f(o[0]) == 1.0f && near(as_f(o[1]), 128.0f / 255.0f) && as_f(o[2]) == 0.0f && near(as_f(o[3]), 0.2f));
    const uint8_t s8[2] = { 0x80, 0x7F };   /* -128 -> -1 (clamped), 127 -> 1 */
    eg_soft_fetch_fn_for(WGPUVertexFormat_Snorm8x2)(s8, o);
    EG_EXPECT(as_f(o[0]) == -1.0f && as_f(o[1]) == 1.0f && as_f(o[2]) == 0.0f && as_f(o[3]) == 1.0f);
    const uint8_t s16[4] = { 0xFE, 0xFF, 0x34, 0x12 };   /* -2, 0x1234 */
    eg_soft_fetch_fn_for(WGPUVertexFormat_Sint16x2)(s16, o);
    EG_EXPECT_EQ_I((int32_t)o[0], -2);
    EG_EXPECT_EQ_U(o[1], 0x1234);
    EG_EXPECT_EQ_U(o[3], 1);                                /* integer w defaults to 1 */
    const uint8_t h[4] = { 0x00, 0x3C, 0x00, 0xC0 };       /* half 1.0, -2.0 */
    eg_soft_fetch_fn_for(WGPUVertexFormat_Float16x2)(h, o);
    EG_EXPECT(as_f(o[0]) == 1.0f && as_f(o[1]) == -2.0f);
    /* 10-10-10-2: r = 1023, g = 0, b = 512, a = 2 -> 1, 0, 512/1023, 2/3 */
    uint32_t p = 1023u | 0u << 10 | 512u << 20 | 2u << 30;
    const uint8_t pk[4] = { (uint8_t)p, (uint8_t)(p >> 8), (uint8_t)(p >> 16), (uint8_t)(p >> 24) };
    eg_soft_fetch_fn_for(WGPUVertexFormat_Unorm10_10_10_2)(pk, o);
    EG_EXPECT(as_f(o[0]) == 1.0f && as_f(o[1]) == 0.0f && near(as_f(o[2]), 512.0f / 1023.0f) && near(as_f(o[3]), 2.0f / 3.0f));
    eg_soft_fetch_fn_for(WGPUVertexFormat_Unorm8x4BGRA)(b8, o);   /* B G R A in memory */
    EG_EXPECT(as_f(o[0]) == 0.0f && as_f(o[2]) == 1.0f);
    const uint8_t u16[2] = { 0xFF, 0xFF };
    eg_soft_fetch_fn_for(WGPUVertexFormat_Unorm16)(u16, o);
    EG_EXPECT(as_f(o[0]) == 1.0f && as_f(o[1]) == 0.0f && as_f(o[3]) == 1.0f);
}

/* Render-target packing: unorm rounding, sRGB encode, RGB565 layout, write masks. */
EG_TEST(soft_raster, target_pack_formats)
{
    uint8_t mem[4 * 16] = { 0 };
    eg_soft_target_t t = { mem, 16, 4, 4, WGPUTextureFormat_RGBA8Unorm };
    eg_soft_format_ops_t ops;
    eg_soft_vec4_t v;
    one_lane(&v, 1.0f, 0.5f, -1.0f, 0.2f);
    eg_soft_format_ops(WGPUTextureFormat_RGBA8Unorm, &ops);
    ops.pack(&t, mem, 1u, &v, 15u);
    /* round(x * 255): 255, 127.5 + .5 -> 128, clamp -> 0, 51 */
    EG_EXPECT(mem[0] == 255 && mem[1] == 128 && mem[2] == 0 && mem[3] == 51);
    one_lane(&v, 0.0f, 0.0f, 0.0f, 0.0f);
    ops.pack(&t, mem, 1u, &v, WGPUColorWriteMask_Green);   /* only g written */
    EG_EXPECT(mem[0] == 255 && mem[1] == 0 && mem[3] == 51);

    t.format = WGPUTextureFormat_BGRA8UnormSrgb;
    eg_soft_format_ops(t.format, &ops);
    one_lane(&v, 0.5f, 0.0f, 1.0f, 0.5f);
    ops.pack(&t, mem, 1u, &v, 15u);
    /* sRGB(0.5) = 1.055 * 0.5^(1/2.4) - 0.055 = 0.7354 -> 187.5 -> 188; memory order B G R A */
    EG_EXPECT(mem[0] == 255 && mem[1] == 0 && mem[2] == 188 && mem[3] == 128);
    ops.unpack(&t, mem, 1u, &v);
    /* decode(188) = ((188 / 255 + .055) / 1.055)^2.4 = 0.50289 */
    EG_EXPECT(v.c[2].f[0] == 1.0f && v.c[0].f[0] > 0.5028f && v.c[0].f[0] < 0.5030f);

    t.format = EG_FORMAT_RGB565_VALUE; t.elem_B = t.block_B = 2;
    eg_soft_format_ops(t.format, &ops);
    one_lane(&v, 1.0f, 0.5f, 0.0f, 1.0f);
    ops.pack(&t, mem, 1u, &v, 15u);
    /* r 31 << 11, g round(31.5) = 32 << 5, b 0: 0xF800 | 0x0400 = 0xFC00 */
    EG_EXPECT(mem[0] == 0x00 && mem[1] == 0xFC);
    one_lane(&v, 0.0f, 0.0f, 1.0f, 1.0f);
    ops.pack(&t, mem, 1u, &v, WGPUColorWriteMask_Blue);
    EG_EXPECT(mem[0] == 0x1F && mem[1] == 0xFC);

    /* RGBA16Float: 1.0 = 0x3C00, -2.0 = 0xC000 (IEEE half); integer targets store raw bits and
     * never blend */
    t.format = WGPUTextureFormat_RGBA16Float; t.elem_B = t.block_B = 8;
    eg_soft_format_ops(t.format, &ops);
    one_lane(&v, 1.0f, -2.0f, 0.0f, 1.0f);
    ops.pack(&t, mem, 1u, &v, 15u);
    EG_EXPECT(mem[0] == 0x00 && mem[1] == 0x3C && mem[2] == 0x00 && mem[3] == 0xC0 && mem[7] == 0x3C);
    EG_EXPECT(!ops.is_int && !ops.clamp01);
    t.format = WGPUTextureFormat_R32Uint; t.elem_B = t.block_B = 4;
    eg_soft_format_ops(t.format, &ops);
    EG_EXPECT(ops.is_int);
    eg_memset(&v, 0, sizeof v);
    v.c[0].u[5] = 0xDEADBEEFu;
    ops.pack(&t, mem, 1u << 5, &v, 15u);   /* lane 5 = pixel (1, 1): offset 16 + 4 */
    EG_EXPECT(mem[20] == 0xEF && mem[21] == 0xBE && mem[22] == 0xAD && mem[23] == 0xDE);
}

/* A hand-built depth/stencil-only pipeline state (no fragment shader) over an 8x8 target. */
typedef struct ds_fixture {
    float depth[8 * 8 * 4];
    uint8_t stencil[8 * 8 * 4];
    eg_soft_fb_t fb;
    struct eg_soft_raster_pipeline rs;
    eg_soft_pass_state_t ps;
    eg_soft_vtx_t v;
} ds_fixture_t;

static void ds_init(ds_fixture_t *f, uint32_t samples)
{
    eg_memset(f, 0, sizeof *f);
    for (uint32_t i = 0; i < 8 * 8 * 4; i++) f->depth[i] = 1.0f;
    f->fb.width_px = f->fb.height_px = 8;
    f->fb.samples = samples;
    f->fb.depth = (eg_soft_target_t){ (uint8_t *)f->depth, 8 * 4 * samples, 4 * samples, 4, WGPUTextureFormat_Depth24PlusStencil8 };
    f->fb.stencil = (eg_soft_target_t){ f->stencil, 8 * samples, samples, 1, WGPUTextureFormat_Depth24PlusStencil8 };
    f->rs.has_ds = f->rs.depth_test = f->rs.depth_write = f->rs.early_z = true;
    f->rs.depth_compare = WGPUCompareFunction_Less;
    f->rs.samples = samples;
    f->rs.sample_mask = 0xFu;
    f->rs.front_ccw = true;
    f->rs.stencil_read_mask = f->rs.stencil_write_mask = 0xFF;
    f->ps.fb = &f->fb;
    f->ps.rs = &f->rs;
    f->ps.vp_w = f->ps.vp_h = 8;
    f->ps.vp_max_z = 1.0f;
    f->ps.sc_x1 = f->ps.sc_y1 = 8;
}

static void ds_tri(ds_fixture_t *f, float x0, float y0, float x1, float y1, float x2, float y2, float z)
{
    eg_soft_tri_t t = { { x0, x1, x2 }, { y0, y1, y2 }, { z, z, z }, { 1, 1, 1 },
                        { &f->v, &f->v, &f->v }, &f->v, true };
    eg_soft_raster_triangle(main_worker(), &f->ps, &t);
}

EG_TEST(soft_raster, depth_stencil_triangle)
{
    static ds_fixture_t f;
    ds_init(&f, 1);
    /* (0,0) (0,8) (8,0): centre (x+.5, y+.5) inside iff x + y + 1 < 8; x + y = 7 lies on the
     * hypotenuse, a bottom-right edge: excluded. So covered iff x + y <= 6: 28 pixels. */
    ds_tri(&f, 0, 0, 0, 8, 8, 0, 0.5f);
    unsigned n = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            bool in = x + y <= 6;
            n += in;
            EG_EXPECT(f.depth[y * 8 + x] == (in ? 0.5f : 1.0f));
        }
    EG_EXPECT_EQ_U(n, 28);
    /* Full-screen at z = .6 with Less: fails where .5 is stored (stencil <- ref 7 by depthFail),
     * passes elsewhere (stencil incremented to 1, depth .6). */
    f.rs.stencil_test = true;
    f.rs.stencil[0] = (eg_soft_stencil_face_t){ WGPUCompareFunction_Always, WGPUStencilOperation_Keep,
                                                WGPUStencilOperation_Replace, WGPUStencilOperation_IncrementClamp };
    f.rs.stencil[1] = f.rs.stencil[0];
    f.ps.stencil_ref = 7;
    ds_tri(&f, 0, 0, 0, 8, 8, 8, 0.6f);
    ds_tri(&f, 0, 0, 8, 8, 8, 0, 0.6f);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            bool in = x + y <= 6;
            EG_EXPECT_EQ_U(f.stencil[y * 8 + x], in ? 7u : 1u);
            EG_EXPECT(f.depth[y * 8 + x] == (in ? 0.5f : 0.6f));
        }
    /* Stencil Equal 1 with a scissor of x < 3: only those pixels with stencil 1 pass; depth
     * Always writes 0.25 there. */
    f.rs.depth_compare = WGPUCompareFunction_Always;
    f.rs.stencil[0].compare = f.rs.stencil[1].compare = WGPUCompareFunction_Equal;
    f.rs.stencil[0].pass = f.rs.stencil[1].pass = WGPUStencilOperation_Keep;
    f.rs.stencil[0].fail = f.rs.stencil[1].fail = WGPUStencilOperation_Keep;
    f.ps.stencil_ref = 1;
    f.ps.sc_x1 = 3;
    ds_tri(&f, -1, -1, -1, 20, 20, -1, 0.25f);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            bool in = x + y <= 6;
            float want = (!in && x < 3) ? 0.25f : in ? 0.5f : 0.6f;
            EG_EXPECT(f.depth[y * 8 + x] == want);
        }
}

/* 4x MSAA standard sample positions (x offsets .375, .875, .125, .625): a left edge at
 * x = 0.5 covers samples 1 and 3 of pixel 0 only. Culling: a back-facing triangle with
 * cullMode Back draws nothing. */
EG_TEST(soft_raster, msaa_samples_and_cull)
{
    static ds_fixture_t f;
    ds_init(&f, 4);
    /* interior to the right of x = .5 */
    ds_tri(&f, 0.5f, -1, 0.5f, 20, 20, -1, 0.5f);
    for (uint32_t s = 0; s < 4; s++) {
        bool want = s == 1 || s == 3;
        EG_EXPECT(f.depth[(0 * 8 + 0) * 4 + s] == (want ? 0.5f : 1.0f));
        EG_EXPECT(f.depth[(0 * 8 + 1) * 4 + s] == 0.5f);   /* pixel 1 fully inside */
    }
    ds_init(&f, 1);
    f.rs.cull_back = true;
    /* (0,0) (8,0) (0,8) in y-down window space is clockwise as seen in y-up NDC: back-facing */
    ds_tri(&f, 0, 0, 8, 0, 0, 8, 0.5f);
    EG_EXPECT(f.depth[0] == 1.0f);
    ds_tri(&f, 0, 0, 0, 8, 8, 0, 0.5f);   /* counter-clockwise: front, drawn */
    EG_EXPECT(f.depth[0] == 0.5f);
}

#endif /* EMGPU_HAL_SOFT */

#if EMGPU_HAL_SOFT
/* Depth bias (WebGPU "depth bias" = Vulkan's): bias = constant * r + slopeScale * max(|dz/dx|,
 * |dz/dy|), clamped by depthBiasClamp when it is non-zero. Depth24Plus: r = 2^-24, so a
 * constant of 2^20 adds 1/16. A ramp z = x_w / 8 has dz/dx = 1/8: slope scale 2 adds 1/4 at
 * pixel (0, 0) whose centre depth is .5 / 8 = .0625. */
EG_TEST(soft_raster, depth_bias)
{
    static ds_fixture_t f;
    ds_init(&f, 1);
    f.rs.depth_compare = WGPUCompareFunction_Always;
    f.rs.ds_format = WGPUTextureFormat_Depth24Plus;
    f.rs.depth_bias_units = (float)(1 << 20) / 16777216.0f;
    ds_tri(&f, -1, -1, -1, 20, 20, -1, 0.5f);
    EG_EXPECT(f.depth[0] == 0.5625f);
    f.rs.depth_bias_units = 0.0f;
    f.rs.depth_bias_slope = 2.0f;
    eg_soft_tri_t t = { { 0, 0, 8 }, { -1, 20, -1 }, { 0, 0, 1 }, { 1, 1, 1 }, { &f.v, &f.v, &f.v }, &f.v, true };
    eg_soft_raster_triangle(main_worker(), &f.ps, &t);
    EG_EXPECT(near(f.depth[0], 0.3125f));
    f.rs.depth_bias_clamp = 0.125f;
    eg_soft_raster_triangle(main_worker(), &f.ps, &t);
    EG_EXPECT(near(f.depth[0], 0.1875f));
}
#endif

#if EMGPU_HAL_SOFT
/* ---- vector kernels against the lane loops they replace (helper "block", session 6) ---- */

static uint32_t lcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static float lcg_f(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(lcg(s) & 0xFFFFu) / 65535.0f; }

/* depth_only's 4-lane rows (depth32 Less / LessEqual, soft_raster_shade.c) give the depth bytes
 * of its lane loop (eg_soft_raster_fast_paths off): 40 triangles with random corners (partial
 * blocks, odd masks) and per-vertex z beyond the viewport's [0.25, 0.75] (the clamp), over
 * stored depths that include NaN (fails every compare), -0 and +0, on a 6 px wide target whose
 * right blocks end past the width (those columns must stay untouched: 2.0). Modes 4-7: rows of
 * exactly 6 depths (24 B pitch), so the right blocks' rows end past the row itself and take the
 * lane loop; modes 0-3 (32 B pitch) load and store whole rows everywhere. */
EG_TEST(soft_raster, depth32_rows_equal_lane_loop)
{
    static ds_fixture_t a, b;
    static const uint32_t cmp[2] = { WGPUCompareFunction_Less, WGPUCompareFunction_LessEqual };
    bool saved = eg_soft_raster_fast_paths;
    for (uint32_t mode = 0; mode < 8u; mode++) {
        ds_fixture_t *fx[2] = { &a, &b };
        uint32_t wq = mode & 4u ? 6u : 8u;   /* depths per row */
        for (uint32_t k = 0; k < 2u; k++) {
            ds_init(fx[k], 1);
            fx[k]->fb.width_px = 6;
            fx[k]->fb.depth.row_pitch_B = wq * 4u;
            fx[k]->ps.sc_x1 = 6;
            fx[k]->ps.vp_min_z = 0.25f;
            fx[k]->ps.vp_max_z = 0.75f;
            fx[k]->rs.depth_compare = cmp[mode & 1u];
            fx[k]->rs.depth_write = (mode & 3u) < 2u;
            for (uint32_t i = 0; i < 64u; i++) {
                uint32_t x = i % wq, y = i / wq;
                union { uint32_t u; float f; } nan = { 0x7fc00000u };
                fx[k]->depth[i] = x >= 6u || y >= 8u ? 2.0f : (x + y) % 7u == 3u ? nan.f : (x + y) % 7u == 5u ? -0.0f
                                : (x + y) % 7u == 6u ? 0.0f : 0.2f + 0.07f * (float)((x * 3u + y) % 9u);
            }
        }
        uint32_t seed = 1234u + mode;
        for (uint32_t n = 0; n < 40u; n++) {
            eg_soft_tri_t t = { { lcg_f(&seed, -2, 10), lcg_f(&seed, -2, 10), lcg_f(&seed, -2, 10) },
                                { lcg_f(&seed, -2, 10), lcg_f(&seed, -2, 10), lcg_f(&seed, -2, 10) },
                                { lcg_f(&seed, 0, 1), lcg_f(&seed, 0, 1), lcg_f(&seed, 0, 1) }, { 1, 1, 1 },
                                { &a.v, &a.v, &a.v }, &a.v, true };
            eg_soft_raster_fast_paths = true;
            eg_soft_raster_triangle(main_worker(), &a.ps, &t);
            eg_soft_raster_fast_paths = false;
            eg_soft_raster_triangle(main_worker(), &b.ps, &t);
        }
        eg_soft_raster_fast_paths = saved;
        EG_EXPECT(eg_memcmp(a.depth, b.depth, sizeof a.depth) == 0);
        uint32_t changed = 0;
        for (uint32_t i = 0; i < 64u; i++) {
            uint32_t x = i % wq, y = i / wq;
            if (x >= 6u || y >= 8u) EG_EXPECT(a.depth[i] == 2.0f);
            else if ((mode & 3u) < 2u) changed += a.depth[i] >= 0.25f && a.depth[i] <= 0.75f && a.depth[i] != 0.2f + 0.07f * (float)((x * 3u + y) % 9u);
        }
        if ((mode & 3u) < 2u) EG_EXPECT(changed > 4u);   /* the triangles did write */
    }
    eg_soft_raster_fast_paths = saved;
}
#endif

#if EMGPU_HAL_SOFT
/* The vector loops of 8-bit RGBA / BGRA bilinear sampling (soft_sample.c, soft_sample_vec.inc:
 * 4 lanes, and 8 with AVX2) and the per-triangle set-up (eg_soft_sample_fast) give the bytes of
 * the per-lane loop of eg_soft_sample (eg_soft_sample_vw 0) for clamp,
 * repeat and mixed address modes, on odd texture sizes, for coordinates that reach every branch
 * of axis_setup (NaN, infinities, signed zeros, denormals, +-2^23 and its neighbours, -1e-10
 * whose fract rounds up to 1, texel centres and edges, random values) under odd lane masks;
 * lanes outside the mask keep their old bytes. One value by hand: a 2x1 texture, repeat, u = 0:
 * x = 0 * 2 - 0.5 = -0.5, texels -1 (wraps to 1) and 0 at weight 1/2 each. */
EG_TEST(soft_raster, rgba8_bilinear_vector_equals_lane_loop)
{
    if (!EMGPU_HAL_SOFT) EG_SKIP("soft backend not compiled in");
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (strcmp(eg_test_backend(), "soft") != 0) { eg_test_device_release(); EG_NOT_APPLICABLE("needs the soft backend (tests its internals)"); }
    static const WGPUTextureFormat fmts[2] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm };
    static const uint32_t dims[3][2] = { { 5, 3 }, { 2, 1 }, { 32, 7 } };
    static const WGPUAddressMode modes[3] = { WGPUAddressMode_ClampToEdge, WGPUAddressMode_Repeat, WGPUAddressMode_MirrorRepeat };
    static const uint32_t masks[6] = { 0xFFFFu, 0x5A5Au, 0x8001u, 0x0F0Fu, 0x0010u, 0xFFF7u };
    static const uint32_t special[] = { 0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u, 0x80000000u, 0x00000000u,
                                        0x00000001u, 0x807fffffu, 0x4b000000u, 0xcb000000u, 0x4afffffeu, 0xcafffffeu,
                                        0x4b000001u, 0xdd5e0b6bu, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0xb0000000u,
                                        0xaedbe6ffu /* -1e-10 */, 0x3e800000u, 0x3f400000u, 0x40200000u, 0xc0100000u };
    static uint8_t px[32 * 7 * 4];
    uint32_t seed = 77u, mism = 0, runs = 0, prepared = 0;
    for (uint32_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)lcg(&seed);
    uint32_t saved = eg_soft_sample_vw;
    for (uint32_t fi = 0; fi < 2u; fi++)
        for (uint32_t di = 0; di < 3u; di++) {
            WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
            td.format = fmts[fi];
            td.size = (WGPUExtent3D){ dims[di][0], dims[di][1], 1 };
            td.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
            WGPUTexture t = wgpuDeviceCreateTexture(d, &td);
            WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
            dst.texture = t;
            WGPUTexelCopyBufferLayout lay = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
            lay.bytesPerRow = dims[di][0] * 4u;
            lay.rowsPerImage = dims[di][1];
            WGPUExtent3D e = { dims[di][0], dims[di][1], 1 };
            wgpuQueueWriteTexture(eg_test_queue(), &dst, px, (size_t)dims[di][0] * dims[di][1] * 4u, &lay, &e);
            WGPUTextureView view = wgpuTextureCreateView(t, NULL);
            for (uint32_t mu = 0; mu < 3u; mu++)
                for (uint32_t mv = 0; mv < 2u; mv++) {
                    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
                    sd.addressModeU = modes[mu];
                    sd.addressModeV = modes[mv];
                    sd.magFilter = sd.minFilter = WGPUFilterMode_Linear;
                    WGPUSampler smp = wgpuDeviceCreateSampler(d, &sd);
                    for (uint32_t round = 0; round < 8u; round++) {
                        eg_soft_reg_t u, v;
                        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                            uint32_t k = round * EG_SOFT_LANES + l;
                            if (round < 3u) {
                                union { uint32_t b; float f; } c = { special[(k * 7u + round) % (sizeof special / sizeof special[0])] };
                                u.f[l] = c.f;
                                c.b = special[(k * 5u + 3u) % (sizeof special / sizeof special[0])];
                                v.f[l] = c.f;
                            } else if (round < 5u) {   /* texel centres and edges */
                                u.f[l] = (float)(int32_t)(k % 13u - 4u) * 0.5f / (float)dims[di][0];
                                v.f[l] = (float)(int32_t)(k % 9u - 3u) * 0.5f / (float)dims[di][1];
                            } else {
                                u.f[l] = lcg_f(&seed, -3.0f, 3.0f);
                                v.f[l] = lcg_f(&seed, -40.0f, 40.0f);
                            }
                        }
                        for (uint32_t mi = 0; mi < 6u; mi++) {
                            eg_soft_sample_op_t op;
                            memset(&op, 0, sizeof op);
                            op.view = view;
                            op.sampler = smp;
                            op.coord[0] = &u;
                            op.coord[1] = &v;
                            op.lod_mode = EG_SOFT_LOD_EXPLICIT;
                            op.mask = masks[mi];
                            eg_soft_vec4_t out[4];
                            static const uint32_t widths[3] = { 0u, 4u, 8u };
                            for (uint32_t w = 0; w < 3u; w++) {
                                memset(&out[w], 0xCD, sizeof out[w]);
                                eg_soft_sample_vw = widths[w];
                                eg_soft_sample(&op, &out[w]);
                            }
                            eg_soft_sample_vw = saved;
                            /* the per-triangle set-up of the block path (eg_soft_sample_fast) */
                            struct eg_soft_sample_fast fp;
                            memset(&out[3], 0xCD, sizeof out[3]);
                            if (eg_soft_sample_fast_prep(view, smp, &fp)) {
                                prepared++;
                                eg_soft_sample_fast(&fp, u.f, v.f, masks[mi], &out[3]);
                            } else {
                                out[3] = out[0];
                            }
                            runs++;
                            if (memcmp(&out[0], &out[1], sizeof out[0]) != 0 || memcmp(&out[0], &out[2], sizeof out[0]) != 0 ||
                                memcmp(&out[0], &out[3], sizeof out[0]) != 0) {
                                if (mism++ < 4u)
                                    eg_test_printf("    fmt %u dims %u modes %u/%u round %u mask %x differ\n", fi, di, mu, mv, round,
                                                   masks[mi]);
                            }
                        }
                    }
                    wgpuSamplerRelease(smp);
                }
            if (di == 1u) {   /* by hand: (t0 + t1) / 2 per channel, BGRA swapping r and b */
                WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
                sd.addressModeU = sd.addressModeV = WGPUAddressMode_Repeat;
                sd.magFilter = sd.minFilter = WGPUFilterMode_Linear;
                WGPUSampler smp = wgpuDeviceCreateSampler(d, &sd);
                eg_soft_reg_t u, v;
                for (uint32_t l = 0; l < EG_SOFT_LANES; l++) { u.f[l] = 0.0f; v.f[l] = 0.5f; }
                eg_soft_sample_op_t op;
                memset(&op, 0, sizeof op);
                op.view = view; op.sampler = smp; op.coord[0] = &u; op.coord[1] = &v;
                op.lod_mode = EG_SOFT_LOD_EXPLICIT; op.mask = EG_SOFT_ALL_LANES;
                eg_soft_vec4_t out;
                eg_soft_sample(&op, &out);
                for (uint32_t c = 0; c < 4u; c++) {
                    uint32_t b = fi == 1u && c != 1u && c != 3u ? 2u - c : c;
                    double want = ((double)px[b] + (double)px[4u + b]) / 2.0 / 255.0, got = out.c[c].f[7];
                    EG_EXPECT(got - want < 1e-6 && want - got < 1e-6);
                }
                wgpuSamplerRelease(smp);
            }
            wgpuTextureViewRelease(view);
            wgpuTextureRelease(t);
        }
    EG_EXPECT_EQ_U(mism, 0);
    EG_EXPECT_EQ_U(runs, 2u * 3u * 3u * 2u * 8u * 6u);
    EG_EXPECT_EQ_U(prepared, runs);   /* every case here is a fast-path texture and sampler */
    eg_test_device_release();
}
#endif

#if EMGPU_HAL_SOFT
/* The block walk (soft_raster.c: lane offsets, edge values stepped block to block, the inside
 * mask of blocks cut by the worker's rectangle) covers exactly the pixels whose centre the edge
 * functions accept (eg_soft_covers, one pixel at a time in 64 bits) inside the scissor and the
 * worker's clip rectangle, which here is not a multiple of 4 (x [1, 7), y [2, 7)) so blocks are
 * cut on every side. 60 random triangles, some spanning thousands of pixels (|A| + |B| >= 2^19:
 * the 64-bit lane test), each drawn alone over depth 1.0 with depth 0.5, Less, write. */
EG_TEST(soft_raster, walk_coverage_equals_covers)
{
    static ds_fixture_t f;
    uint32_t seed = 4242u, drawn = 0;
    for (uint32_t n = 0; n < 60u; n++) {
        ds_init(&f, 1);
        f.ps.sc_x0 = 0; f.ps.sc_x1 = 8; f.ps.sc_y0 = 1; f.ps.sc_y1 = 8;
        float span = n % 3u == 2u ? 4000.0f : 12.0f;   /* huge triangles reach the 64-bit test */
        eg_soft_tri_t t = { { lcg_f(&seed, -span, span), lcg_f(&seed, -2, 10), lcg_f(&seed, -2, 10) },
                            { lcg_f(&seed, -2, 10), lcg_f(&seed, -span, span), lcg_f(&seed, -2, 10) },
                            { 0.5f, 0.5f, 0.5f }, { 1, 1, 1 }, { &f.v, &f.v, &f.v }, &f.v, true };
        eg_soft_worker_t *w = main_worker();
        w->clip_x0 = 1; w->clip_x1 = 7; w->clip_y0 = 2; w->clip_y1 = 7;
        eg_soft_raster_triangle(w, &f.ps, &t);
        int32_t X[3], Y[3];
        for (uint32_t i = 0; i < 3u; i++) { X[i] = eg_soft_snap(t.x[i]); Y[i] = eg_soft_snap(t.y[i]); }
        for (int32_t y = 0; y < 8; y++)
            for (int32_t x = 0; x < 8; x++) {
                bool in = x >= 1 && x < 7 && y >= 2 && y < 7 && eg_soft_covers(X, Y, x, y);
                drawn += in;
                EG_EXPECT(f.depth[y * 8 + x] == (in ? 0.5f : 1.0f));
            }
    }
    main_worker();   /* the whole-frame clip again */
    EG_EXPECT(drawn > 100u);   /* the triangles did cover pixels */
}

/* RGBA8 / BGRA8 packing of partial blocks (soft_raster_output.c u8_pack_masked: covered rows
 * read, blended and written whole when the block's 4 columns lie inside the row, lane by lane
 * otherwise) writes exactly the lanes of the mask with round(clamp(v) * 255) and leaves every
 * other byte as it was: a 6 px wide target with rows of 24 B (the right block's rows end past
 * the row: lane loop) and of 32 B (whole rows), blocks at x 0 and 4, 40 masks (random and the
 * odd ones: one column, one lane, no last column). Lane l of channel c holds k / 255 with
 * k = (7 l + 61 c + 13 m) % 256, which packs to k (k / 255 * 255 rounds to k, + 0.5 truncates). */
EG_TEST(soft_raster, rgba8_masked_rows_equal_lane_loop)
{
    static const uint32_t odd[8] = { 0x0001u, 0x8888u, 0x7777u, 0x1111u, 0xEEEEu, 0x0F0Fu, 0x6000u, 0x0030u };
    static uint8_t mem[8 * 32];
    uint32_t seed = 99u, checked = 0;
    for (uint32_t fi = 0; fi < 2u; fi++) {
        WGPUTextureFormat fmt = fi ? WGPUTextureFormat_BGRA8Unorm : WGPUTextureFormat_RGBA8Unorm;
        eg_soft_format_ops_t ops;
        eg_soft_format_ops(fmt, &ops);
        for (uint32_t pitch = 24u; pitch <= 32u; pitch += 8u)
            for (uint32_t m = 0; m < 40u; m++) {
                uint32_t mask = m < 8u ? odd[m] : lcg(&seed) & 0xFFFFu;
                uint32_t bx = (m & 1u) * 4u, by = (m & 2u) * 2u;
                if (bx == 4u) mask &= 0x3333u;   /* columns 6 and 7 lie outside the 6 px target */
                eg_soft_target_t t = { mem, pitch, 4, 4, fmt };
                for (uint32_t i = 0; i < sizeof mem; i++) mem[i] = (uint8_t)(0xA5u ^ i);
                eg_soft_vec4_t v;
                for (uint32_t c = 0; c < 4u; c++)
                    for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
                        v.c[c].f[l] = (float)((7u * l + 61u * c + 13u * m) % 256u) / 255.0f;
                ops.pack(&t, mem + by * pitch + bx * 4u, mask, &v, 15u);
                for (uint32_t i = 0; i < 8u * pitch; i++) {
                    uint32_t y = i / pitch, x = (i % pitch) / 4u, ch = i % 4u;
                    uint32_t l = (y - by) * 4u + (x - bx);
                    bool mine = y >= by && y < by + 4u && x >= bx && x < bx + 4u && (mask >> l & 1u);
                    uint32_t c = fi && ch != 1u && ch != 3u ? 2u - ch : ch;   /* BGRA: bytes B G R A */
                    uint32_t want = mine ? (7u * l + 61u * c + 13u * m) % 256u : (0xA5u ^ i) & 0xFFu;
                    if (mem[i] != want && checked++ < 4u)
                        eg_test_printf("    fmt %u pitch %u mask %04x byte %u: %u, want %u\n", fi, pitch, mask, i, mem[i], want);
                    EG_EXPECT_EQ_U(mem[i], want);
                }
            }
    }
}
#endif

#if EMGPU_HAL_SOFT
/* tri_setup snaps the six window coordinates at once (soft_raster.c snap6: two SSE2 vectors,
 * x0 x1 x2 y0 | y1 y2 z0 z1; the scalar loop otherwise): eg_soft_tri_prepare's result, box and
 * edges equal those set up here from eg_soft_snap one coordinate at a time (setup_edges' steps).
 * 4000 random triangles whose every coordinate is a tie k/512 (odd k, either sign), a float
 * neighbour of one or an integer, in [-6, 42) (negative values: the sign half of the rounding),
 * every second one with back faces culled (the cull test reads the snapped values too). */
EG_TEST(soft_raster, tri_prepare_snaps_equal_scalar)
{
    static ds_fixture_t f;
    ds_init(&f, 1);
    f.ps.sc_x1 = f.ps.sc_y1 = 64;
    uint32_t seed = 777u, bad = 0, set_up = 0;
    for (uint32_t n = 0; n < 4000u; n++) {
        float c[6];
        for (uint32_t i = 0; i < 6u; i++) {
            uint32_t r = lcg(&seed);
            int32_t k = (int32_t)(r % 1023u) - 511;   /* in (-1, 1) * 512 */
            float v = (float)((int32_t)(r >> 10 & 31u) - 6) + (float)(k | 1) / 512.0f;
            uint32_t b, pick = (r >> 16) % 4u;
            memcpy(&b, &v, 4);
            if (pick == 1u) b++;
            else if (pick == 2u) b--;
            memcpy(&v, &b, 4);
            c[i] = pick == 3u ? (float)((int32_t)(r >> 10 & 31u) - 6) : v;
        }
        f.rs.cull_back = n % 2u == 1u;
        eg_soft_tri_t t = { { c[0], c[1], c[2] }, { c[3], c[4], c[5] }, { 0.5f, 0.5f, 0.5f }, { 1, 1, 1 },
                            { &f.v, &f.v, &f.v }, &f.v, true };
        eg_soft_setup_t s;
        int64_t box[4];
        bool got = eg_soft_tri_prepare(&f.ps, &t, &s, box);
        /* the reference: tri_setup's and setup_edges' steps on the scalar snaps */
        int64_t X[3], Y[3], A[3], B[3], C[3];
        for (uint32_t i = 0; i < 3u; i++) { X[i] = eg_soft_snap(t.x[i]); Y[i] = eg_soft_snap(t.y[i]); }
        int64_t area2 = (Y[1] - Y[2]) * X[0] + (X[2] - X[1]) * Y[0] - ((Y[1] - Y[2]) * X[1] + (X[2] - X[1]) * Y[1]);
        int64_t mnx = X[0], mxx = X[0], mny = Y[0], mxy = Y[0];
        for (uint32_t i = 1; i < 3u; i++) {
            mnx = X[i] < mnx ? X[i] : mnx; mxx = X[i] > mxx ? X[i] : mxx;
            mny = Y[i] < mny ? Y[i] : mny; mxy = Y[i] > mxy ? Y[i] : mxy;
        }
        int64_t want_box[4] = { mnx >> 8 > 0 ? mnx >> 8 : 0, (mxx >> 8) + 1 < 64 ? (mxx >> 8) + 1 : 64,
                                mny >> 8 > 0 ? mny >> 8 : 0, (mxy >> 8) + 1 < 64 ? (mxy >> 8) + 1 : 64 };
        bool want = area2 != 0 && !(f.rs.cull_back && area2 > 0) && want_box[0] < want_box[1] && want_box[2] < want_box[3];
        bad += got != want;
        if (!got || !want) continue;
        set_up++;
        float sg = area2 < 0 ? -1.0f : 1.0f;
        for (uint32_t i = 0; i < 3u; i++) {
            uint32_t a = (i + 1u) % 3u, b = (i + 2u) % 3u;
            A[i] = (Y[a] - Y[b]) * (int64_t)sg;
            B[i] = (X[b] - X[a]) * (int64_t)sg;
            C[i] = -(A[i] * X[a] + B[i] * Y[a]) - !(A[i] > 0 || (A[i] == 0 && B[i] > 0));
            bad += s.A[i] != A[i] || s.B[i] != B[i] || s.C[i] != C[i];
        }
        for (uint32_t i = 0; i < 4u; i++) bad += box[i] != want_box[i];
        bad += s.front != (area2 < 0);   /* front_ccw */
    }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(set_up > 1000u);   /* most triangles reached the edges */
}
#endif
