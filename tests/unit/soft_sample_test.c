/* hal/soft sampling, loads, stores and queries on textures made through the public API, with
 * expected values from the Vulkan / WebGPU filtering rules worked by hand in each test. */
#include "config/emgpu_config.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_texel.h"
#include "kernel/api/sampler.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "tests/harness/test_device.h"

#include <string.h>

/* ---- fixtures ---- */

static WGPUDevice open_soft(void)
{
    WGPUDevice d = eg_test_device("soft");
    if (d && strcmp(eg_test_backend(), "soft") != 0) { eg_test_device_release(); return NULL; }
    return d;
}
/* The constant test first: without soft compiled in, the calls below fold away (at -O1 and up). */
#define OPEN(d) if (!EMGPU_HAL_SOFT) EG_SKIP("soft backend not compiled in"); \
                WGPUDevice d = open_soft(); if (!d) EG_NOT_APPLICABLE("needs the soft backend (tests its internals)")

static WGPUTexture mk_tex(WGPUDevice d, WGPUTextureFormat f, WGPUTextureDimension dim, uint32_t w,
                          uint32_t h, uint32_t dl, uint32_t mips, uint32_t samples)
{
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.format = f;
    td.dimension = dim;
    td.size = (WGPUExtent3D){ w, h, dl };
    td.mipLevelCount = mips;
    td.sampleCount = samples;
    td.usage = WGPUTextureUsage_TextureBinding | (samples > 1 ? WGPUTextureUsage_RenderAttachment
                                                              : WGPUTextureUsage_CopyDst);
    return wgpuDeviceCreateTexture(d, &td);
}

/* Writes a w x h x dl box of texel bytes (tightly packed) at mip level `mip`, origin 0. */
static void put(WGPUTexture t, uint32_t mip, uint32_t z, uint32_t w, uint32_t h, uint32_t dl,
                uint32_t texel_B, const void *data)
{
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = t;
    dst.mipLevel = mip;
    dst.origin.z = z;
    WGPUTexelCopyBufferLayout lay = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    lay.bytesPerRow = w * texel_B;
    lay.rowsPerImage = h;
    WGPUExtent3D e = { w, h, dl };
    wgpuQueueWriteTexture(eg_test_queue(), &dst, data, (size_t)w * h * dl * texel_B, &lay, &e);
}

static WGPUTextureView mk_view(WGPUTexture t, WGPUTextureViewDimension dim, uint32_t base_mip,
                               uint32_t mips, uint32_t base_layer, uint32_t layers)
{
    WGPUTextureViewDescriptor vd = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    vd.dimension = dim;
    vd.baseMipLevel = base_mip;
    vd.mipLevelCount = mips;
    vd.baseArrayLayer = base_layer;
    vd.arrayLayerCount = layers;
    return wgpuTextureCreateView(t, &vd);
}

static WGPUSampler mk_sampler(WGPUDevice d, WGPUAddressMode a, WGPUFilterMode mag, WGPUFilterMode min,
                              WGPUMipmapFilterMode mip, WGPUCompareFunction cmp)
{
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.addressModeU = sd.addressModeV = sd.addressModeW = a;
    sd.magFilter = mag;
    sd.minFilter = min;
    sd.mipmapFilter = mip;
    sd.compare = cmp;
    return wgpuDeviceCreateSampler(d, &sd);
}

/* Register file for one sample call. */
typedef struct regs { eg_soft_reg_t u, v, w, layer, lod, ref; eg_soft_vec4_t out; } regs_t;
static regs_t R;

static void sample(WGPUTextureView v, WGPUSampler s, eg_soft_lod_mode_t mode, bool layer, bool cmp,
                   const int32_t *offset)
{
    eg_soft_sample_op_t op;
    memset(&op, 0, sizeof op);
    op.view = v;
    op.sampler = s;
    op.coord[0] = &R.u; op.coord[1] = &R.v; op.coord[2] = &R.w;
    op.layer = layer ? &R.layer : NULL;
    op.lod_mode = mode;
    op.lod_or_bias = &R.lod;
    op.offset = offset;
    op.compare = cmp ? &R.ref : NULL;
    op.mask = EG_SOFT_ALL_LANES;
    memset(&R.out, 0xCD, sizeof R.out);
    eg_soft_sample(&op, &R.out);
}

static void fill(eg_soft_reg_t *r, float x) { for (uint32_t l = 0; l < EG_SOFT_LANES; l++) r->f[l] = x; }
static bool near(float a, double b) { double d = a - b; return d < 1e-6 && d > -1e-6; }
static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* ---- filtering ---- */

/* 2x2 RGBA8: texel centres at u = 0.25 and 0.75. Vulkan linear: x = u * 2 - 0.5, i0 = floor(x),
 * weight of i0+1 = frac(x). At (0.375, 0.625): x = 0.25, y = 0.75, so weights 0.75/0.25 across
 * and 0.25/0.75 down: t00 .1875, t10 .0625, t01 .5625, t11 .1875. */
EG_TEST(soft_sample, bilinear_weights_by_hand)
{
    OPEN(d);
    const uint8_t px[16] = { 0, 40, 255, 255,   100, 80, 0, 255,
                             200, 120, 0, 0,    255, 160, 50, 255 };
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_RGBA8Unorm, WGPUTextureDimension_2D, 2, 2, 1, 1, 1);
    put(t, 0, 0, 2, 2, 1, 4, px);
    WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2D, 0, 1, 0, 1);
    WGPUTextureView va = mk_view(t, WGPUTextureViewDimension_2DArray, 0, 1, 0, 1);
    WGPUSampler s = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                               WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    EG_EXPECT_NO_ERROR();
    fill(&R.u, 0.375f); fill(&R.v, 0.625f);
    R.u.f[1] = 0.5f; R.v.f[1] = 0.5f;          /* centre: plain average */
    R.u.f[2] = -3.0f; R.v.f[2] = 0.0f;         /* clamp: texel (0, 0) only */
    sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    for (int c = 0; c < 4; c++) {
        double t00 = px[c] / 255.0, t10 = px[4 + c] / 255.0, t01 = px[8 + c] / 255.0, t11 = px[12 + c] / 255.0;
        EG_EXPECT(near(R.out.c[c].f[0], .1875 * t00 + .0625 * t10 + .5625 * t01 + .1875 * t11));
        EG_EXPECT(near(R.out.c[c].f[1], .25 * (t00 + t10 + t01 + t11)));
        EG_EXPECT(near(R.out.c[c].f[2], t00));
    }
    /* the 2D fast path and the general path (array view) give the same bits */
    eg_soft_vec4_t fast = R.out;
    fill(&R.layer, 0.0f);
    for (uint32_t l = 3; l < EG_SOFT_LANES; l++) { R.u.f[l] = (float)l * 0.0731f - 0.1f; R.v.f[l] = 1.1f - (float)l * 0.0677f; }
    sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    fast = R.out;
    sample(va, s, EG_SOFT_LOD_EXPLICIT, true, false, NULL);
    EG_EXPECT(memcmp(&fast, &R.out, sizeof fast) == 0);
    wgpuSamplerRelease(s);
    wgpuTextureViewRelease(v);
    wgpuTextureViewRelease(va);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Nearest: texel floor(u * w) (no half-texel shift), and each fast-path format equals the general
 * path bit for bit. */
EG_TEST(soft_sample, nearest_and_fast_formats)
{
    OPEN(d);
    static const WGPUTextureFormat f[4] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                            WGPUTextureFormat_R8Unorm, WGPUTextureFormat_EmgpuRGB565Unorm };
    static const uint32_t bpp[4] = { 4, 4, 1, 2 };
    uint8_t px[4 * 4 * 4];
    for (uint32_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i * 37u + 11u);
    WGPUSampler sn = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    WGPUSampler sl = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                                WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    for (int i = 0; i < 4; i++) {
        WGPUTexture t = mk_tex(d, f[i], WGPUTextureDimension_2D, 4, 4, 1, 1, 1);
        put(t, 0, 0, 4, 4, 1, bpp[i], px);
        WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2D, 0, 1, 0, 1);
        WGPUTextureView va = mk_view(t, WGPUTextureViewDimension_2DArray, 0, 1, 0, 1);
        EG_EXPECT_NO_ERROR();
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) { R.u.f[l] = (float)l / 16.0f + 0.01f; R.v.f[l] = 0.99f - (float)l / 15.0f; }
        R.u.f[0] = 0.24999f; R.v.f[0] = 0.25f;    /* texel (0, 1) */
        fill(&R.layer, 0.0f);
        sample(v, sn, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
        eg_soft_texel_t want;
        eg_soft_texel_decode(f[i], px + (4 + 0) * bpp[i], &want);
        for (int c = 0; c < 4; c++) EG_EXPECT_EQ_U(R.out.c[c].u[0], want.u[c]);
        eg_soft_vec4_t fast = R.out;
        sample(va, sn, EG_SOFT_LOD_EXPLICIT, true, false, NULL);
        EG_EXPECT(memcmp(&fast, &R.out, sizeof fast) == 0);
        sample(v, sl, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
        fast = R.out;
        sample(va, sl, EG_SOFT_LOD_EXPLICIT, true, false, NULL);
        EG_EXPECT(memcmp(&fast, &R.out, sizeof fast) == 0);
        wgpuTextureViewRelease(v);
        wgpuTextureViewRelease(va);
        wgpuTextureRelease(t);
    }
    wgpuSamplerRelease(sn);
    wgpuSamplerRelease(sl);
    eg_test_device_release();
}

/* A 2D view of layer 1 of a 2-layer RGBA8 texture reads layer 1 (WebGPU: the view's subresource)
 * on the fast path too, and the span path's prepared sampler (soft_span.h) gives eg_soft_sample's
 * bits, nearest and linear, with nearest texel offsets that address exactly the decoded texel. */
EG_TEST(soft_sample, fast_path_base_layer_and_prepared)
{
    OPEN(d);
    uint8_t px[2][4 * 4 * 4];
    for (uint32_t i = 0; i < sizeof px[0]; i++) { px[0][i] = (uint8_t)(i * 7u); px[1][i] = (uint8_t)(200u - i * 3u); }
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_RGBA8Unorm, WGPUTextureDimension_2D, 4, 4, 2, 1, 1);
    put(t, 0, 0, 4, 4, 1, 4, px[0]);
    put(t, 0, 1, 4, 4, 1, 4, px[1]);
    WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2D, 0, 1, 1, 1);
    WGPUSampler sn = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    WGPUSampler sl = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                                WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    EG_EXPECT_NO_ERROR();
    /* lane l: u, v spread over and beyond [0, 1] (clamping included) */
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) { R.u.f[l] = (float)l / 12.0f - 0.1f; R.v.f[l] = 1.05f - (float)l / 14.0f; }
    R.u.f[0] = 0.625f; R.v.f[0] = 0.375f;    /* nearest: texel (floor(2.5), floor(1.5)) = (2, 1) */
    sample(v, sn, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    eg_soft_texel_t want;
    eg_soft_texel_decode(WGPUTextureFormat_RGBA8Unorm, px[1] + (1 * 4 + 2) * 4, &want);
    for (int c = 0; c < 4; c++) EG_EXPECT_EQ_U(R.out.c[c].u[0], want.u[c]);
    for (int k = 0; k < 2; k++) {
        WGPUSampler s = k ? sl : sn;
        sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
        eg_soft_sample2d_t p;
        eg_soft_vec4_t out;
        memset(&out, 0xCD, sizeof out);
        EG_ASSERT(eg_soft_sample2d_prep(v, s, &p));
        eg_soft_sample2d(&p, R.u.f, R.v.f, EG_SOFT_ALL_LANES, &out);
        EG_EXPECT(memcmp(&out, &R.out, sizeof out) == 0);
        if (k) continue;
        uint32_t off[EG_SOFT_LANES], wrong = 0;
        eg_soft_sample2d_offsets(&p, R.u.f, R.v.f, EG_SOFT_LANES, off);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            eg_soft_texel_t tx;
            eg_soft_texel_decode(WGPUTextureFormat_RGBA8Unorm, p.s.base + off[l], &tx);
            for (int c = 0; c < 4; c++) wrong += tx.u[c] != R.out.c[c].u[l];
        }
        EG_EXPECT_EQ_U(wrong, 0u);
    }
    /* a repeat sampler is not of the prepared kind */
    WGPUSampler sr = mk_sampler(d, WGPUAddressMode_Repeat, WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    eg_soft_sample2d_t p;
    EG_EXPECT(!eg_soft_sample2d_prep(v, sr, &p));
    wgpuSamplerRelease(sr);
    wgpuSamplerRelease(sn);
    wgpuSamplerRelease(sl);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Address modes on a 4x1 R8 texture (texel k = 10 * (k + 1)), nearest: index floor(u * 4) then
 * clamp: clamp(i, 0, 3); repeat: i mod 4; mirror (Vulkan): (2*4 - 1 - (i mod 8)) when
 * i mod 8 >= 4, else i mod 8. Linear repeat at u = 0 blends texels 3 and 0 half and half. */
EG_TEST(soft_sample, address_modes)
{
    OPEN(d);
    const uint8_t px[4] = { 10, 20, 30, 40 };
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_2D, 4, 1, 1, 1, 1);
    put(t, 0, 0, 4, 1, 1, 1, px);
    WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2D, 0, 1, 0, 1);
    static const float u[6] = { -0.3f, 1.1f, 1.6f, -0.6f, 2.3f, 0.9f };
    /* i = floor(4u):           -2     4     6     -3     9     3  */
    static const int want[3][6] = {
        { 0, 3, 3, 0, 3, 3 },      /* clamp */
        { 2, 0, 2, 1, 1, 3 },      /* repeat: -2 mod 4 = 2, -3 mod 4 = 1 */
        { 1, 3, 1, 2, 1, 3 },      /* mirror: -2 mod 8 = 6 -> 1; 4 -> 3; 6 -> 1; 5 -> 2; 9 mod 8 = 1 */
    };
    static const WGPUAddressMode m[3] = { WGPUAddressMode_ClampToEdge, WGPUAddressMode_Repeat,
                                          WGPUAddressMode_MirrorRepeat };
    for (int k = 0; k < 3; k++) {
        WGPUSampler s = mk_sampler(d, m[k], WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                   WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
        fill(&R.u, 0.5f); fill(&R.v, 0.5f);
        for (int i = 0; i < 6; i++) R.u.f[i] = u[i];
        sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
        for (int i = 0; i < 6; i++) {
            if (R.out.c[0].f[i] != (float)px[want[k][i]] / 255.0f)
                eg_test_printf("    mode %d lane %d: got %f\n", k, i, (double)R.out.c[0].f[i]);
            EG_EXPECT(R.out.c[0].f[i] == (float)px[want[k][i]] / 255.0f);
        }
        wgpuSamplerRelease(s);
    }
    WGPUSampler s = mk_sampler(d, WGPUAddressMode_Repeat, WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                               WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    fill(&R.u, 0.0f); fill(&R.v, 0.5f);
    sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(near(R.out.c[0].f[0], 0.5 * (10 + 40) / 255.0));
    wgpuSamplerRelease(s);
    s = mk_sampler(d, WGPUAddressMode_MirrorRepeat, WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                   WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);   /* mirror: texel -1 is texel 0 */
    EG_EXPECT(near(R.out.c[0].f[0], 10 / 255.0));
    wgpuSamplerRelease(s);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* An 8x8 R8 texture with 4 mips, level k uniformly 50 * k + 5. Lane coordinates
 * u = 1/16 + x * ux + y * uy, v = 1/16 + x * vx + y * vy over the 4x4 block (exact in binary), so
 * every quad has dFdx = (ux, vx), dFdy = (uy, vy) and lambda = log2(max(|dFdx|, |dFdy|) * 8)
 * (Vulkan rho in texels of the base level's 8x8). */
static WGPUTexture mip_tex(WGPUDevice d, uint32_t levels)
{
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_2D, 8, 8, 1, levels, 1);
    uint8_t px[64];
    for (uint32_t k = 0; k < levels; k++) {
        uint32_t n = 8u >> k;
        memset(px, (int)(50 * k + 5), sizeof px);
        put(t, k, 0, n, n, 1, 1, px);
    }
    return t;
}
static void quad4(float ux, float uy, float vx, float vy)
{
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        float x = (float)(l & 3), y = (float)(l >> 2);
        R.u.f[l] = 0.0625f + x * ux + y * uy;
        R.v.f[l] = 0.0625f + x * vx + y * vy;
    }
}
static void quad_coords(float du, float dv) { quad4(du, 0.0f, 0.0f, dv); }
static float lvl(int k) { return (float)(50 * k + 5) / 255.0f; }

EG_TEST(soft_sample, mip_selection_from_derivatives)
{
    OPEN(d);
    WGPUTexture t = mip_tex(d, 4);
    WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2D, 0, 4, 0, 1);
    WGPUSampler sn = mk_sampler(d, WGPUAddressMode_Repeat, WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    WGPUSampler sl = mk_sampler(d, WGPUAddressMode_Repeat, WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                WGPUMipmapFilterMode_Linear, WGPUCompareFunction_Undefined);
    EG_EXPECT_NO_ERROR();
    quad_coords(1.0f / 8.0f, 1.0f / 8.0f);                 /* rho 1 -> lambda 0 -> level 0 */
    sample(v, sn, EG_SOFT_LOD_IMPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[5] == lvl(0));
    quad_coords(2.0f / 8.0f, 0.5f / 8.0f);                 /* rho max(2, 0.5) -> level 1 */
    sample(v, sn, EG_SOFT_LOD_IMPLICIT, false, false, NULL);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) EG_EXPECT(R.out.c[0].f[l] == lvl(1));
    quad_coords(0.5f / 8.0f, 4.0f / 8.0f);                 /* rho 4 along y -> level 2 */
    sample(v, sn, EG_SOFT_LOD_IMPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[10] == lvl(2));
    quad_coords(64.0f / 8.0f, 0.0f);                       /* lambda 6 clamps to the last level 3 */
    sample(v, sn, EG_SOFT_LOD_IMPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[0] == lvl(3));
    /* dFdx = (2/8, 2/8): rho^2 = 4 + 4 = 8, lambda = 1.5: nearest rounds half down to level 1;
     * linear blends levels 1 and 2 half and half */
    quad4(2.0f / 8.0f, 0.0f, 2.0f / 8.0f, 0.0f);
    sample(v, sn, EG_SOFT_LOD_IMPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[0] == lvl(1));
    sample(v, sl, EG_SOFT_LOD_IMPLICIT, false, false, NULL);
    EG_EXPECT(near(R.out.c[0].f[0], 0.5 * (lvl(1) + lvl(2))));
    /* explicit lod 1.25 with mip linear: 0.75 * level 1 + 0.25 * level 2 */
    fill(&R.lod, 1.25f);
    sample(v, sl, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(near(R.out.c[0].f[0], 0.75 * lvl(1) + 0.25 * lvl(2)));
    /* bias: lambda 0 + 2 = level 2; explicit lod 3 and lod 0.6 (nearest -> round -> 1) */
    quad_coords(1.0f / 8.0f, 1.0f / 8.0f);
    fill(&R.lod, 2.0f);
    sample(v, sn, EG_SOFT_LOD_BIAS, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[3] == lvl(2));
    fill(&R.lod, 3.0f);
    sample(v, sn, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[3] == lvl(3));
    fill(&R.lod, 0.6f);
    sample(v, sn, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[3] == lvl(1));
    /* grad: ddx = (4/8, 0) -> lambda 2 */
    eg_soft_reg_t gx, gy, zero;
    fill(&gx, 4.0f / 8.0f); fill(&gy, 0.0f); fill(&zero, 0.0f);
    eg_soft_sample_op_t op;
    memset(&op, 0, sizeof op);
    op.view = v; op.sampler = sn; op.coord[0] = &R.u; op.coord[1] = &R.v;
    op.lod_mode = EG_SOFT_LOD_GRAD;
    op.ddx[0] = &gx; op.ddx[1] = &zero; op.ddy[0] = &gy; op.ddy[1] = &zero;
    op.mask = 1u << 7;                                     /* only lane 7 is written */
    R.out.c[0].f[6] = -1.0f;
    eg_soft_sample(&op, &R.out);
    EG_EXPECT(R.out.c[0].f[7] == lvl(2));
    EG_EXPECT(R.out.c[0].f[6] == -1.0f);
    wgpuSamplerRelease(sn);
    wgpuSamplerRelease(sl);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* lodMinClamp / lodMaxClamp clamp lambda; a view's baseMipLevel shifts level 0; magFilter applies
 * at lambda <= 0 and minFilter above (Vulkan "Texel Filtering"). */
EG_TEST(soft_sample, lod_clamps_view_base_and_mag_min)
{
    OPEN(d);
    WGPUTexture t = mip_tex(d, 4);
    WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2D, 0, 4, 0, 1);
    WGPUTextureView v1 = mk_view(t, WGPUTextureViewDimension_2D, 1, 2, 0, 1);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.lodMinClamp = 1.0f;
    sd.lodMaxClamp = 2.0f;
    WGPUSampler s = wgpuDeviceCreateSampler(d, &sd);
    EG_EXPECT_NO_ERROR();
    fill(&R.u, 0.3f); fill(&R.v, 0.3f);
    fill(&R.lod, 0.0f);
    sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[0] == lvl(1));
    fill(&R.lod, 3.0f);
    sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[0] == lvl(2));
    wgpuSamplerRelease(s);
    s = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                   WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    fill(&R.lod, 1.0f);                      /* level 1 of the view = texture level 2 */
    sample(v1, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[0] == lvl(2));
    fill(&R.lod, 7.0f);                      /* clamps to the view's last level */
    sample(v1, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[0] == lvl(2));
    wgpuSamplerRelease(s);
    /* 2x1 texture (0, 255): mag Linear / min Nearest. At u = 0.5 the linear result is 0.5, the
     * nearest one texel 1. lod 0 -> mag (linear), lod 0.5 -> min (nearest). */
    WGPUTexture t2 = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_2D, 2, 1, 1, 1, 1);
    const uint8_t px[2] = { 0, 255 };
    put(t2, 0, 0, 2, 1, 1, 1, px);
    WGPUTextureView v2 = mk_view(t2, WGPUTextureViewDimension_2D, 0, 1, 0, 1);
    s = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Linear, WGPUFilterMode_Nearest,
                   WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    fill(&R.u, 0.5f); fill(&R.v, 0.5f);
    fill(&R.lod, 0.0f);
    sample(v2, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(near(R.out.c[0].f[0], 0.5));
    fill(&R.lod, 0.5f);
    sample(v2, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(R.out.c[0].f[0] == 1.0f);
    wgpuSamplerRelease(s);
    wgpuTextureViewRelease(v);
    wgpuTextureViewRelease(v1);
    wgpuTextureViewRelease(v2);
    wgpuTextureRelease(t);
    wgpuTextureRelease(t2);
    eg_test_device_release();
}

/* Cube face selection (Vulkan "Cube Map Face Selection" table):
 *   +X: sc = -rz, tc = -ry   -X: sc = +rz, tc = -ry   +Y: sc = +rx, tc = +rz
 *   -Y: sc = +rx, tc = -rz   +Z: sc = +rx, tc = -ry   -Z: sc = -rx, tc = -ry
 * s = (sc / |ma| + 1) / 2, t = (tc / |ma| + 1) / 2. Each 2x2 face holds R = face * 40 + texel
 * index; the direction picks a face and a quadrant. */
EG_TEST(soft_sample, cube_face_selection)
{
    OPEN(d);
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_2D, 2, 2, 12, 1, 1);
    uint8_t px[12 * 4];
    for (uint32_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)((i / 4) * 40 % 240 + (i % 4) + (i / 24) * 5);
    put(t, 0, 0, 2, 2, 12, 1, px);
    WGPUTextureView vc = mk_view(t, WGPUTextureViewDimension_Cube, 0, 1, 0, 6);
    WGPUTextureView va = mk_view(t, WGPUTextureViewDimension_CubeArray, 0, 1, 0, 12);
    WGPUSampler s = mk_sampler(d, WGPUAddressMode_Repeat, WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                               WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    EG_EXPECT_NO_ERROR();
    static const struct { float r[3]; uint32_t face, texel; } c[] = {
        { { 1.0f, -0.5f, 0.5f }, 0, 2 },    /* +X: sc = -0.5 -> s .25 (x0); tc = 0.5 -> t .75 (y1): idx 2 */
        { { -1.0f, 0.5f, 0.5f }, 1, 1 },    /* -X: sc = 0.5 -> x1; tc = -0.5 -> y0: idx 1 */
        { { 0.5f, 1.0f, 0.5f }, 2, 3 },     /* +Y: sc = 0.5 -> x1; tc = 0.5 -> y1: idx 3 */
        { { -0.5f, -1.0f, 0.5f }, 3, 0 },   /* -Y: sc = -0.5 -> x0; tc = -0.5 -> y0: idx 0 */
        { { 0.5f, 0.5f, 1.0f }, 4, 1 },     /* +Z: sc = 0.5 -> x1; tc = -0.5 -> y0: idx 1 */
        { { 0.5f, -0.5f, -1.0f }, 5, 2 },   /* -Z: sc = -0.5 -> x0; tc = 0.5 -> y1: idx 2 */
    };
    fill(&R.u, 1.0f); fill(&R.v, 0.0f); fill(&R.w, 0.0f); fill(&R.layer, 0.0f);
    for (int i = 0; i < 6; i++) { R.u.f[i] = c[i].r[0]; R.v.f[i] = c[i].r[1]; R.w.f[i] = c[i].r[2]; }
    R.layer.f[1] = 1.0f;
    sample(vc, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    for (int i = 0; i < 6; i++) EG_EXPECT(R.out.c[0].f[i] == (float)px[c[i].face * 4 + c[i].texel] / 255.0f);
    sample(va, s, EG_SOFT_LOD_EXPLICIT, true, false, NULL);  /* lane 1 reads cube 1 = layers 6..11 */
    EG_EXPECT(R.out.c[0].f[1] == (float)px[(6 + 1) * 4 + 1] / 255.0f);
    EG_EXPECT(R.out.c[0].f[2] == (float)px[2 * 4 + 3] / 255.0f);
    wgpuSamplerRelease(s);
    wgpuTextureViewRelease(vc);
    wgpuTextureViewRelease(va);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Seamless cube filtering: faces of uniform value 40 * face + 20 (2x2). Direction (1, 0, 0.8)
 * hits +X at s = (0.8 / 1 * -1 + 1) / 2 = 0.1 (sc = -rz): x = 0.1 * 2 - 0.5 = -0.3, so the filter
 * takes 0.3 of texel column -1, which lies beyond the +X edge on +Z (direction (1, ., 1.5)), and
 * 0.7 of column 0 of +X. With 8-bit weights (documented precision) 0.3 is 77/256. */
EG_TEST(soft_sample, cube_seamless_edge)
{
    OPEN(d);
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_2D, 2, 2, 6, 1, 1);
    uint8_t px[6 * 4];
    for (uint32_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(40 * (i / 4) + 20);
    put(t, 0, 0, 2, 2, 6, 1, px);
    WGPUTextureView vc = mk_view(t, WGPUTextureViewDimension_Cube, 0, 1, 0, 6);
    WGPUSampler s = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                               WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    EG_EXPECT_NO_ERROR();
    fill(&R.u, 1.0f); fill(&R.v, 0.0f); fill(&R.w, 0.8f);
    R.u.f[1] = -0.8f; R.w.f[1] = 0.0f; R.v.f[1] = -1.0f;   /* -Y at s = 0.1: column -1 is on -X */
    sample(vc, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    double x = 20 / 255.0, z = 180 / 255.0, ny = 140 / 255.0, nx = 60 / 255.0;
    EG_EXPECT(near(R.out.c[0].f[0], (77 * z + 179 * x) / 256.0));
    EG_EXPECT(near(R.out.c[0].f[1], (77 * nx + 179 * ny) / 256.0));
    wgpuSamplerRelease(s);
    wgpuTextureViewRelease(vc);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Array layers round to nearest even and clamp (WGSL); 1D ignores v; 3D filters trilinearly. */
EG_TEST(soft_sample, array_1d_3d)
{
    OPEN(d);
    WGPUTexture ta = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_2D, 1, 1, 4, 1, 1);
    const uint8_t la[4] = { 10, 20, 30, 40 };
    put(ta, 0, 0, 1, 1, 4, 1, la);
    WGPUTextureView va = mk_view(ta, WGPUTextureViewDimension_2DArray, 0, 1, 1, 3);   /* layers 1..3 */
    WGPUSampler s = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                               WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    fill(&R.u, 0.5f); fill(&R.v, 0.5f);
    static const float a[6] = { 0.5f, 1.5f, 2.7f, -4.0f, 0.49f, 9.0f };
    static const uint32_t want[6] = { 0, 2, 2, 0, 0, 2 };                      /* view layer */
    for (int i = 0; i < 6; i++) R.layer.f[i] = a[i];
    sample(va, s, EG_SOFT_LOD_EXPLICIT, true, false, NULL);
    for (int i = 0; i < 6; i++) EG_EXPECT(near(R.out.c[0].f[i], la[1 + want[i]] / 255.0));

    WGPUTexture t1 = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_1D, 4, 1, 1, 1, 1);
    put(t1, 0, 0, 4, 1, 1, 1, la);
    WGPUTextureView v1 = mk_view(t1, WGPUTextureViewDimension_1D, 0, 1, 0, 1);
    fill(&R.u, 0.25f); fill(&R.v, 123.0f);          /* x = 0.5: texels 0 and 1 half each */
    sample(v1, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(near(R.out.c[0].f[0], 15.0 / 255.0));

    WGPUTexture t3 = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_3D, 2, 2, 2, 1, 1);
    const uint8_t p3[8] = { 0, 10, 20, 30, 40, 50, 60, 250 };
    put(t3, 0, 0, 2, 2, 2, 1, p3);
    WGPUTextureView v3 = mk_view(t3, WGPUTextureViewDimension_3D, 0, 1, 0, 1);
    fill(&R.u, 0.5f); fill(&R.v, 0.5f); fill(&R.w, 0.5f);
    R.w.f[1] = 0.375f;                              /* z = 0.25: 0.75 of slice 0, 0.25 of slice 1 */
    sample(v3, s, EG_SOFT_LOD_EXPLICIT, false, false, NULL);
    EG_EXPECT(near(R.out.c[0].f[0], (0 + 10 + 20 + 30 + 40 + 50 + 60 + 250) / 8.0 / 255.0));
    EG_EXPECT(near(R.out.c[0].f[1], (0.75 * (0 + 10 + 20 + 30) / 4 + 0.25 * (40 + 50 + 60 + 250) / 4) / 255.0));
    EG_EXPECT_NO_ERROR();
    wgpuSamplerRelease(s);
    wgpuTextureViewRelease(va); wgpuTextureViewRelease(v1); wgpuTextureViewRelease(v3);
    wgpuTextureRelease(ta); wgpuTextureRelease(t1); wgpuTextureRelease(t3);
    eg_test_device_release();
}

/* Comparison (WebGPU GPUCompareFunction: ref OP texel passes) on Depth16Unorm 2x2 with depths
 * 0.2, 0.4 / 0.6, 1.0 (as 16-bit unorm). Nearest returns 0 or 1; linear at the centre averages
 * the four results (PCF, weights 1/4). */
EG_TEST(soft_sample, comparison_pcf)
{
    OPEN(d);
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_Depth16Unorm, WGPUTextureDimension_2D, 2, 2, 1, 1, 1);
    const uint16_t px[4] = { 13107, 26214, 39321, 65535 };      /* 0.2, 0.4, 0.6, 1.0 * 65535 */
    put(t, 0, 0, 2, 2, 1, 2, px);
    WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2D, 0, 1, 0, 1);
    static const WGPUCompareFunction f[8] = {
        WGPUCompareFunction_Never, WGPUCompareFunction_Less, WGPUCompareFunction_Equal,
        WGPUCompareFunction_LessEqual, WGPUCompareFunction_Greater, WGPUCompareFunction_NotEqual,
        WGPUCompareFunction_GreaterEqual, WGPUCompareFunction_Always };
    /* ref 0.5 against 0.2 0.4 0.6 1.0 passes:  never 0, less 2 (0.6, 0.8), equal 0, le 2,
     * greater 2, ne 4, ge 2, always 4. ref = texel 1 exactly (26214/65535): equal 1, le 3, ge 2. */
    static const int pass_half[8] = { 0, 2, 0, 2, 2, 4, 2, 4 };
    static const int pass_eq[8] = { 0, 2, 1, 3, 1, 3, 2, 4 };
    for (int i = 0; i < 8; i++) {
        WGPUSampler sl = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                                    WGPUMipmapFilterMode_Nearest, f[i]);
        WGPUSampler sn = mk_sampler(d, WGPUAddressMode_ClampToEdge, WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                    WGPUMipmapFilterMode_Nearest, f[i]);
        fill(&R.u, 0.5f); fill(&R.v, 0.5f); fill(&R.ref, 0.5f);
        R.ref.f[1] = 26214.0f / 65535.0f;
        R.ref.f[2] = 7.0f;                                      /* clamped to 1 for unorm depth */
        R.u.f[3] = 0.25f; R.v.f[3] = 0.75f;                     /* nearest lane: texel (0, 1) = 0.6 */
        sample(v, sl, EG_SOFT_LOD_EXPLICIT, false, true, NULL);
        EG_EXPECT(near(R.out.c[0].f[0], pass_half[i] / 4.0));
        EG_EXPECT(near(R.out.c[0].f[1], pass_eq[i] / 4.0));
        sample(v, sn, EG_SOFT_LOD_EXPLICIT, false, true, NULL);
        bool want3 = i == 1 || i == 3 || i == 5 || i == 7;       /* 0.5 vs 0.6: less, le, ne, always */
        EG_EXPECT(R.out.c[0].f[3] == (want3 ? 1.0f : 0.0f));
        /* ref 7 clamps to 1.0; nearest at u = v = 0.5 is texel (1, 1) = 1.0: equal, le, ge, always */
        bool want2 = i == 2 || i == 3 || i == 6 || i == 7;
        EG_EXPECT(R.out.c[0].f[2] == (want2 ? 1.0f : 0.0f));
        wgpuSamplerRelease(sl);
        wgpuSamplerRelease(sn);
    }
    EG_EXPECT_NO_ERROR();
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Const texel offsets shift the texel grid before addressing (Vulkan "(u + offset)"). */
EG_TEST(soft_sample, texel_offset)
{
    OPEN(d);
    const uint8_t px[4] = { 10, 20, 30, 40 };
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_2D, 4, 1, 1, 1, 1);
    put(t, 0, 0, 4, 1, 1, 1, px);
    WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2D, 0, 1, 0, 1);
    WGPUSampler s = mk_sampler(d, WGPUAddressMode_Repeat, WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                               WGPUMipmapFilterMode_Nearest, WGPUCompareFunction_Undefined);
    const int32_t off[2] = { 1, 0 }, back[2] = { -2, 0 };
    fill(&R.u, 0.125f); fill(&R.v, 0.5f);                          /* texel 0 */
    sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, off);
    EG_EXPECT(R.out.c[0].f[0] == 20.0f / 255.0f);
    sample(v, s, EG_SOFT_LOD_EXPLICIT, false, false, back);       /* -2 wraps to texel 2 */
    EG_EXPECT(R.out.c[0].f[0] == 30.0f / 255.0f);
    wgpuSamplerRelease(s);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* ---- loads, stores, queries ---- */

/* textureLoad in range returns the texel; any coordinate, layer or level outside the view returns
 * zero; textureStore outside is dropped and in-range stores land on exactly one texel. */
EG_TEST(soft_sample, robust_load_store)
{
    OPEN(d);
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_RGBA8Uint, WGPUTextureDimension_2D, 4, 4, 3, 2, 1);
    uint8_t px[4 * 4 * 3 * 4];
    for (uint32_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i + 1);
    put(t, 0, 0, 4, 4, 3, 4, px);
    WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2DArray, 0, 2, 1, 2);   /* layers 1, 2 */
    EG_EXPECT_NO_ERROR();
    eg_soft_reg_t x, y, layer, lod;
    const eg_soft_reg_t *xyz[3] = { &x, &y, NULL };
    memset(&lod, 0, sizeof lod);
    static const int32_t cx[8] = { 3, -1, 4, 0, 0, 2, 1, 0 };
    static const int32_t cy[8] = { 2, 0, 0, -7, 4, 1, 1, 0 };
    static const int32_t ca[8] = { 1, 0, 0, 0, 0, 2, -1, 0 };
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) { x.i[l] = cx[l & 7]; y.i[l] = cy[l & 7]; layer.i[l] = ca[l & 7]; }
    lod.u[7] = 2;                                               /* view has 2 levels */
    eg_soft_vec4_t out;
    memset(&out, 0xCD, sizeof out);
    eg_soft_texture_load(v, xyz, &layer, &lod, EG_SOFT_ALL_LANES, &out);
    /* lane 0: (3, 2) of view layer 1 = texture layer 2: byte offset ((2 * 4 + 2) * 4 + 3) * 4 */
    for (int c = 0; c < 4; c++) EG_EXPECT_EQ_U(out.c[c].u[0], px[((2 * 4 + 2) * 4 + 3) * 4 + c]);
    for (uint32_t l = 1; l < 8; l++)
        for (int c = 0; c < 4; c++) EG_EXPECT_EQ_U(out.c[c].u[l], 0);
    /* store: lanes 0 (in range, layer 1 = texture layer 2) and 1..7 (out) */
    eg_soft_vec4_t val;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) for (int c = 0; c < 4; c++) val.c[c].u[l] = 200u + (uint32_t)c;
    eg_soft_texture_store(v, xyz, &layer, &val, 0x7Fu);   /* lane 7 is in range for a store */
    const eg_soft_texture_t *st = eg_soft_texture(t);
    uint32_t hit = ((2 * 4 + 2) * 4 + 3) * 4;
    for (uint32_t i = 0; i < st->total_B; i++) {
        uint8_t want = i >= hit && i < hit + 4 ? (uint8_t)(200 + i - hit) : i < sizeof px ? px[i] : 0;
        if (st->mem[i] != want) { EG_EXPECT_EQ_U(st->mem[i], want); break; }
    }
    uint32_t size[3];
    eg_soft_texture_size(v, 1, size);
    EG_EXPECT(size[0] == 2 && size[1] == 2 && size[2] == 2);
    eg_soft_texture_size(v, 2, size);
    EG_EXPECT(size[0] == 0 && size[1] == 0 && size[2] == 0);
    EG_EXPECT_EQ_U(eg_soft_texture_levels(v), 2);
    EG_EXPECT_EQ_U(eg_soft_texture_samples(v), 1);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Multisampled loads pick the sample (sample s of a texel at + s * block_B); an index >= 4 reads 0.
 * Cube and 3D queries: cube counts cubes, 3D reports the mip's depth. */
EG_TEST(soft_sample, multisample_load_and_queries)
{
    OPEN(d);
    WGPUTexture t = mk_tex(d, WGPUTextureFormat_R32Float, WGPUTextureDimension_2D, 2, 2, 1, 1, 4);
    WGPUTextureView v = mk_view(t, WGPUTextureViewDimension_2D, 0, 1, 0, 1);
    EG_EXPECT_NO_ERROR();
    float *mem = (float *)(void *)eg_soft_texture(t)->mem;
    for (uint32_t i = 0; i < 16; i++) mem[i] = (float)i;        /* texel (x, y) sample s: (y*2+x)*4+s */
    eg_soft_reg_t x, y, smp;
    const eg_soft_reg_t *xyz[3] = { &x, &y, NULL };
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) { x.u[l] = 1; y.u[l] = 1; smp.u[l] = l; }
    eg_soft_vec4_t out;
    eg_soft_texture_load(v, xyz, NULL, &smp, EG_SOFT_ALL_LANES, &out);
    for (uint32_t l = 0; l < 4; l++) EG_EXPECT(out.c[0].f[l] == (float)(12 + l) && out.c[3].f[l] == 1.0f);
    EG_EXPECT(fb(out.c[0].f[4]) == 0 && fb(out.c[3].f[4]) == 0);
    EG_EXPECT_EQ_U(eg_soft_texture_samples(v), 4);
    WGPUTexture tc = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_2D, 4, 4, 12, 3, 1);
    WGPUTextureView vc = mk_view(tc, WGPUTextureViewDimension_CubeArray, 1, 2, 0, 12);
    WGPUTexture t3 = mk_tex(d, WGPUTextureFormat_R8Unorm, WGPUTextureDimension_3D, 8, 4, 2, 2, 1);
    WGPUTextureView v3 = mk_view(t3, WGPUTextureViewDimension_3D, 0, 2, 0, 1);
    EG_EXPECT_NO_ERROR();
    uint32_t size[3];
    eg_soft_texture_size(vc, 0, size);              /* view level 0 = texture level 1: 2x2 */
    EG_EXPECT(size[0] == 2 && size[1] == 2 && size[2] == 2);
    eg_soft_texture_size(v3, 1, size);
    EG_EXPECT(size[0] == 4 && size[1] == 2 && size[2] == 1);
    EG_EXPECT_EQ_U(eg_soft_texture_levels(vc), 2);
    wgpuTextureViewRelease(v); wgpuTextureViewRelease(vc); wgpuTextureViewRelease(v3);
    wgpuTextureRelease(t); wgpuTextureRelease(tc); wgpuTextureRelease(t3);
    eg_test_device_release();
}
