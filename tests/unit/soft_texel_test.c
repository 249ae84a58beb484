/* hal/soft texel codecs: every format's encode/decode against the Vulkan/WebGPU conversion rules,
 * float16 bit patterns, sRGB against the IEC 61966-2-1 formula. */
#include "config/emgpu_config.h"
#include "hal/soft/soft_texel.h"
#include "tests/harness/test_device.h"

#include <string.h>

/* These tests call hal/soft directly: skip where soft is not compiled in (the calls then fold
 * away behind the constant condition). */
#define SOFT_ONLY() do { if (!EMGPU_HAL_SOFT) EG_SKIP("soft backend not compiled in"); } while (0)

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* ---- independent double-precision math for expected values (not the code under test) ---- */

static double t_ln(double x)      /* x > 0: ln by halving into [0.5, 1) and the atanh series */
{
    double k = 0;
    while (x >= 1.0) { x *= 0.5; k += 1; }
    while (x < 0.5) { x *= 2.0; k -= 1; }
    double t = (x - 1) / (x + 1), t2 = t * t, term = t, sum = 0;
    for (int n = 1; n < 80; n += 2) { sum += term / n; term *= t2; }
    return 2 * sum + k * 0.69314718055994530942;
}
static double t_exp(double y)     /* Taylor series after halving y until small */
{
    int halvings = 0;
    while (y > 0.5 || y < -0.5) { y *= 0.5; halvings++; }
    double sum = 1, term = 1;
    for (int n = 1; n < 30; n++) { term *= y / n; sum += term; }
    while (halvings--) sum *= sum;
    return sum;
}
static double t_pow(double x, double y) { return t_exp(y * t_ln(x)); }
/* IEC 61966-2-1 sRGB EOTF (Vulkan "sRGB EOTF") */
static double t_srgb_decode(double s) { return s <= 0.04045 ? s / 12.92 : t_pow((s + 0.055) / 1.055, 2.4); }

static void rt(WGPUTextureFormat f, const eg_soft_texel_t *in, const uint8_t *bytes, uint32_t n_B,
               const eg_soft_texel_t *expect)
{
    uint8_t buf[20];                                      /* 16 + a guard */
    memset(buf, 0xAB, sizeof buf);
    eg_soft_texel_encode(f, in, buf);
    if (bytes) for (uint32_t i = 0; i < n_B; i++) EG_EXPECT_EQ_U(buf[i], bytes[i]);
    EG_EXPECT_EQ_U(buf[n_B], 0xAB);                       /* nothing past the block written */
    eg_soft_texel_t out;
    eg_soft_texel_decode(f, buf, &out);
    for (int c = 0; c < 4; c++) EG_EXPECT_EQ_U(out.u[c], expect->u[c]);
}

#define TF(a, b, c, d) { .f = { (a), (b), (c), (d) } }
#define TU(a, b, c, d) { .u = { (a), (b), (c), (d) } }
#define TI(a, b, c, d) { .i = { (a), (b), (c), (d) } }

EG_TEST(soft_texel, every_format_supported)
{
    SOFT_ONLY();
    static const WGPUTextureFormat f[] = {
        WGPUTextureFormat_R8Unorm, WGPUTextureFormat_R8Snorm, WGPUTextureFormat_R8Uint, WGPUTextureFormat_R8Sint,
        WGPUTextureFormat_RG8Unorm, WGPUTextureFormat_RG8Snorm, WGPUTextureFormat_RG8Uint, WGPUTextureFormat_RG8Sint,
        WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8UnormSrgb, WGPUTextureFormat_RGBA8Snorm,
        WGPUTextureFormat_RGBA8Uint, WGPUTextureFormat_RGBA8Sint, WGPUTextureFormat_BGRA8Unorm,
        WGPUTextureFormat_BGRA8UnormSrgb, WGPUTextureFormat_RGB10A2Unorm, WGPUTextureFormat_RGB10A2Uint,
        WGPUTextureFormat_RG11B10Ufloat, WGPUTextureFormat_RGB9E5Ufloat, WGPUTextureFormat_R16Float,
        WGPUTextureFormat_R16Uint, WGPUTextureFormat_R16Sint, WGPUTextureFormat_RG16Float, WGPUTextureFormat_RG16Uint,
        WGPUTextureFormat_RG16Sint, WGPUTextureFormat_RGBA16Float, WGPUTextureFormat_RGBA16Uint,
        WGPUTextureFormat_RGBA16Sint, WGPUTextureFormat_R32Float, WGPUTextureFormat_R32Uint, WGPUTextureFormat_R32Sint,
        WGPUTextureFormat_RG32Float, WGPUTextureFormat_RG32Uint, WGPUTextureFormat_RG32Sint,
        WGPUTextureFormat_RGBA32Float, WGPUTextureFormat_RGBA32Uint, WGPUTextureFormat_RGBA32Sint,
        WGPUTextureFormat_EmgpuRGB565Unorm, WGPUTextureFormat_Depth16Unorm, WGPUTextureFormat_Depth32Float,
        WGPUTextureFormat_Depth24Plus, WGPUTextureFormat_Depth24PlusStencil8, WGPUTextureFormat_Stencil8,
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) EG_EXPECT(eg_soft_texel_supported(f[i]));
    EG_EXPECT(!eg_soft_texel_supported(WGPUTextureFormat_BC1RGBAUnorm));
    EG_EXPECT(!eg_soft_texel_supported(WGPUTextureFormat_Undefined));
}

/* Vulkan "Conversion from Normalized Fixed-Point to Floating-Point": c / 255 (unorm),
 * max(c / 127, -1) (snorm); back: round(clamp(x) * max), snorm ties away from zero. */
EG_TEST(soft_texel, norm8_rules)
{
    SOFT_ONLY();
    for (uint32_t n = 0; n < 256; n++) {
        uint8_t b[4] = { (uint8_t)n, 0, 0, 0 };
        eg_soft_texel_t o;
        eg_soft_texel_decode(WGPUTextureFormat_R8Unorm, b, &o);
        EG_EXPECT_EQ_U(fbits(o.f[0]), fbits((float)n / 255.0f));
        EG_EXPECT_EQ_U(fbits(o.f[1]), 0); EG_EXPECT_EQ_U(fbits(o.f[3]), fbits(1.0f));
        uint8_t e[4] = { 0, 0, 0, 0 };
        eg_soft_texel_encode(WGPUTextureFormat_R8Unorm, &o, e);
        EG_EXPECT_EQ_U(e[0], n);
        eg_soft_texel_decode(WGPUTextureFormat_R8Snorm, b, &o);
        int32_t s = (int32_t)(int8_t)n;
        float want = s == -128 ? -1.0f : (float)s / 127.0f;
        EG_EXPECT_EQ_U(fbits(o.f[0]), fbits(want));
    }
    const eg_soft_texel_t in = TF(0.5f, 1.5f, -0.25f, 0.0019f);      /* 127.5->128, clamp, 0.48->0 */
    const uint8_t unorm[4] = { 128, 255, 0, 0 };
    const eg_soft_texel_t unorm_back = TF(128.0f / 255.0f, 1.0f, 0.0f, 0.0f);
    rt(WGPUTextureFormat_RGBA8Unorm, &in, unorm, 4, &unorm_back);
    const eg_soft_texel_t sin = TF(0.5f, -0.5f, -3.0f, 1.0f);         /* 63.5 -> 64, -64, -127, 127 */
    const uint8_t snorm[4] = { 64, (uint8_t)-64, (uint8_t)-127, 127 };
    const eg_soft_texel_t snorm_back = TF(64.0f / 127.0f, -64.0f / 127.0f, -1.0f, 1.0f);
    rt(WGPUTextureFormat_RGBA8Snorm, &sin, snorm, 4, &snorm_back);
    const eg_soft_texel_t nan = { .u = { 0x7FC00000u, 0xFFC00000u, 0, 0 } };
    const eg_soft_texel_t zero_a = TF(0.0f, 0.0f, 0.0f, 1.0f);
    const uint8_t zeros[2] = { 0, 0 };
    rt(WGPUTextureFormat_RG8Unorm, &nan, zeros, 2, &zero_a);           /* NaN -> 0 */
    const eg_soft_texel_t bgra = TF(1.0f, 0.0f, 0.2f, 0.6f);          /* memory order B G R A */
    const uint8_t bgra_b[4] = { 51, 0, 255, 153 };
    const eg_soft_texel_t bgra_back = TF(1.0f, 0.0f, 51.0f / 255.0f, 153.0f / 255.0f);
    rt(WGPUTextureFormat_BGRA8Unorm, &bgra, bgra_b, 4, &bgra_back);
}

EG_TEST(soft_texel, integer_formats_clamp_and_fill)
{
    SOFT_ONLY();
    const eg_soft_texel_t u = TU(300, 7, 0xFFFFFFFFu, 1);
    const uint8_t u8[4] = { 255, 7, 255, 1 };
    const eg_soft_texel_t u8_back = TU(255, 7, 255, 1);
    rt(WGPUTextureFormat_RGBA8Uint, &u, u8, 4, &u8_back);
    const uint8_t u16[4] = { 0x2C, 0x01, 7, 0 };                        /* 300 = 0x012C */
    const eg_soft_texel_t u16_back = TU(300, 7, 0, 1);                   /* missing b, a = 1 */
    rt(WGPUTextureFormat_RG16Uint, &u, u16, 4, &u16_back);
    const eg_soft_texel_t s = TI(-200, 100, -5, 1 << 20);
    const uint8_t s8[4] = { 0x80, 100, 0xFB, 0x7F };
    const eg_soft_texel_t s8_back = TI(-128, 100, -5, 127);
    rt(WGPUTextureFormat_RGBA8Sint, &s, s8, 4, &s8_back);
    const uint8_t s16[2] = { 0x38, 0xFF };                               /* -200 = 0xFF38 */
    const eg_soft_texel_t s16_back = TI(-200, 0, 0, 1);
    rt(WGPUTextureFormat_R16Sint, &s, s16, 2, &s16_back);
    const uint8_t s32[8] = { 0x38, 0xFF, 0xFF, 0xFF, 100, 0, 0, 0 };
    const eg_soft_texel_t s32_back = TI(-200, 100, 0, 1);
    rt(WGPUTextureFormat_RG32Sint, &s, s32, 8, &s32_back);
    const uint8_t u32[16] = { 0x2C, 1, 0, 0, 7, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 1, 0, 0, 0 };
    rt(WGPUTextureFormat_RGBA32Uint, &u, u32, 16, &u);
    const eg_soft_texel_t s4 = TI(-1, 2, -3, 0x7FFFFFFF);
    rt(WGPUTextureFormat_RGBA32Sint, &s4, NULL, 16, &s4);
    const eg_soft_texel_t s16x4 = TI(-32768, 32767, -3, 4);
    rt(WGPUTextureFormat_RGBA16Sint, &s16x4, NULL, 8, &s16x4);
    const eg_soft_texel_t u16x4 = TU(65535, 0, 3, 4);
    rt(WGPUTextureFormat_RGBA16Uint, &u16x4, NULL, 8, &u16x4);
    const eg_soft_texel_t small = TU(1, 2, 0, 1);
    rt(WGPUTextureFormat_R8Uint, &small, NULL, 1, &(eg_soft_texel_t)TU(1, 0, 0, 1));
    rt(WGPUTextureFormat_RG8Uint, &small, NULL, 2, &small);
    rt(WGPUTextureFormat_R32Uint, &small, NULL, 4, &(eg_soft_texel_t)TU(1, 0, 0, 1));
    rt(WGPUTextureFormat_RG32Uint, &small, NULL, 8, &small);
    rt(WGPUTextureFormat_R16Uint, &small, NULL, 2, &(eg_soft_texel_t)TU(1, 0, 0, 1));
    const eg_soft_texel_t sm = TI(-1, 2, 0, 1);
    rt(WGPUTextureFormat_R8Sint, &sm, NULL, 1, &(eg_soft_texel_t)TI(-1, 0, 0, 1));
    rt(WGPUTextureFormat_RG8Sint, &sm, NULL, 2, &sm);
    rt(WGPUTextureFormat_RG16Sint, &sm, NULL, 4, &sm);
    rt(WGPUTextureFormat_R32Sint, &sm, NULL, 4, &(eg_soft_texel_t)TI(-1, 0, 0, 1));
}

/* IEEE 754 binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits. */
EG_TEST(soft_texel, float16_bits)
{
    SOFT_ONLY();
    const float two_m24 = 1.0f / 16777216.0f;          /* smallest binary16 denormal */
    static const struct { float f; uint16_t h; } c[] = {
        { 0.0f, 0x0000 }, { 1.0f, 0x3C00 }, { -2.0f, 0xC000 }, { 0.5f, 0x3800 }, { 65504.0f, 0x7BFF },
        { 65519.0f, 0x7BFF },                          /* below the half-way point to 2^16 */
        { 65520.0f, 0x7C00 },                          /* tie, rounds to even = infinity */
        { 1.0f + 1.0f / 2048.0f, 0x3C00 },             /* tie between 0x3C00 and 0x3C01: even */
        { 1.0f + 3.0f / 2048.0f, 0x3C02 },             /* tie between 0x3C01 and 0x3C02: even */
        { 1.0f + 1.0f / 1024.0f, 0x3C01 },
        { 1.0f / 16384.0f, 0x0400 },                   /* smallest normal 2^-14 */
        { 1e10f, 0x7C00 }, { -1e10f, 0xFC00 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        EG_EXPECT_EQ_U(eg_soft_f32_to_f16(c[i].f), c[i].h);
        if (c[i].h != 0x7C00 && c[i].h != 0xFC00 && c[i].f != 65519.0f && c[i].f != 1.0f + 1.0f / 2048.0f &&
            c[i].f != 1.0f + 3.0f / 2048.0f)
            EG_EXPECT_EQ_U(fbits(eg_soft_f16_to_f32(c[i].h)), fbits(c[i].f));
    }
    EG_EXPECT_EQ_U(eg_soft_f32_to_f16(two_m24), 0x0001);
    EG_EXPECT_EQ_U(eg_soft_f32_to_f16(two_m24 * 0.5f), 0x0000);        /* tie with 0: even */
    EG_EXPECT_EQ_U(eg_soft_f32_to_f16(two_m24 * 1.5f), 0x0002);        /* tie: even */
    EG_EXPECT_EQ_U(eg_soft_f32_to_f16(two_m24 * 0.75f), 0x0001);
    EG_EXPECT_EQ_U(eg_soft_f32_to_f16(-two_m24 * 3.0f), 0x8003);
    EG_EXPECT_EQ_U(eg_soft_f32_to_f16(two_m24 * 1023.0f), 0x03FF);     /* largest denormal */
    EG_EXPECT_EQ_U(eg_soft_f32_to_f16(two_m24 * 1023.5f), 0x0400);     /* tie rounds up into normal */
    EG_EXPECT_EQ_U(fbits(eg_soft_f16_to_f32(0x0001)), fbits(two_m24));
    EG_EXPECT_EQ_U(fbits(eg_soft_f16_to_f32(0x83FF)), fbits(-two_m24 * 1023.0f));
    EG_EXPECT_EQ_U(fbits(eg_soft_f16_to_f32(0x7C00)), 0x7F800000u);
    uint16_t nan = eg_soft_f32_to_f16((float)(0.0 / 0.0 + 0.0 * 0));
    (void)nan;
    union { uint32_t u; float f; } qn = { 0x7FC00000u };
    uint16_t h = eg_soft_f32_to_f16(qn.f);
    EG_EXPECT((h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0);
    uint32_t back = fbits(eg_soft_f16_to_f32(h));
    EG_EXPECT((back & 0x7F800000u) == 0x7F800000u && (back & 0x007FFFFFu) != 0);
    /* through the formats: RGBA16Float little endian */
    const eg_soft_texel_t in = TF(1.0f, -2.0f, 0.5f, 65504.0f);
    const uint8_t b[8] = { 0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38, 0xFF, 0x7B };
    rt(WGPUTextureFormat_RGBA16Float, &in, b, 8, &in);
    rt(WGPUTextureFormat_R16Float, &in, b, 2, &(eg_soft_texel_t)TF(1.0f, 0.0f, 0.0f, 1.0f));
    rt(WGPUTextureFormat_RG16Float, &in, b, 4, &(eg_soft_texel_t)TF(1.0f, -2.0f, 0.0f, 1.0f));
    const eg_soft_texel_t f32 = TF(0.1f, -1e30f, 3.0f, 0.0f);
    rt(WGPUTextureFormat_RGBA32Float, &f32, NULL, 16, &f32);
    rt(WGPUTextureFormat_RG32Float, &f32, NULL, 8, &(eg_soft_texel_t)TF(0.1f, -1e30f, 0.0f, 1.0f));
    rt(WGPUTextureFormat_R32Float, &f32, NULL, 4, &(eg_soft_texel_t)TF(0.1f, 0.0f, 0.0f, 1.0f));
}

/* sRGB: decode(n) is the nearest float to the EOTF of n/255; encode is round(OETF(l) * 255),
 * i.e. code n for l in [EOTF((n - 0.5)/255), EOTF((n + 0.5)/255)). */
EG_TEST(soft_texel, srgb_formula)
{
    SOFT_ONLY();
    for (uint32_t n = 0; n < 256; n++) {
        double want = t_srgb_decode(n / 255.0);
        uint8_t b[4] = { (uint8_t)n, (uint8_t)n, (uint8_t)n, (uint8_t)n };
        eg_soft_texel_t o;
        eg_soft_texel_decode(WGPUTextureFormat_RGBA8UnormSrgb, b, &o);
        double err = o.f[0] - want;
        EG_EXPECT(err <= want * 6e-8 && -err <= want * 6e-8);          /* within half a float ulp */
        EG_EXPECT_EQ_U(fbits(o.f[3]), fbits((float)n / 255.0f));       /* alpha is linear */
        EG_EXPECT_EQ_U(fbits(eg_soft_srgb_to_linear((float)n / 255.0f)), fbits(o.f[0]));
        if (n < 255) {
            double t = t_srgb_decode((n + 0.5) / 255.0);               /* the rounding threshold */
            eg_soft_texel_t lo = TF((float)(t * (1 - 1e-6)), 0, 0, 1), hi = TF((float)(t * (1 + 1e-6)), 0, 0, 1);
            uint8_t e[4];
            eg_soft_texel_encode(WGPUTextureFormat_RGBA8UnormSrgb, &lo, e);
            EG_EXPECT_EQ_U(e[0], n);
            eg_soft_texel_encode(WGPUTextureFormat_RGBA8UnormSrgb, &hi, e);
            EG_EXPECT_EQ_U(e[0], n + 1);
        }
        /* the float functions agree with the formula to 1e-5 */
        float s = (n + 0.3f) / 256.0f;
        double l = t_srgb_decode(s);
        double d = eg_soft_srgb_to_linear(s) - l;
        EG_EXPECT(d < 1e-5 * (l + 1e-3) && -d < 1e-5 * (l + 1e-3));
        double back = eg_soft_linear_to_srgb((float)l) - (double)s;
        EG_EXPECT(back < 2e-6 && -back < 2e-6);
    }
    const eg_soft_texel_t in = TF(1.0f, 0.0f, -1.0f, 0.5f);            /* BGRA order in memory */
    uint8_t e[4];
    eg_soft_texel_encode(WGPUTextureFormat_BGRA8UnormSrgb, &in, e);
    EG_EXPECT(e[0] == 0 && e[1] == 0 && e[2] == 255 && e[3] == 128);
}

/* Packed formats, bit layouts from the WebGPU / Vulkan format tables. */
EG_TEST(soft_texel, packed_formats)
{
    SOFT_ONLY();
    /* EmgpuRGB565Unorm: R bits 15..11, G 10..5, B 4..0; 0.5 * 63 = 31.5 -> 32 */
    const eg_soft_texel_t c565 = TF(1.0f, 0.5f, 0.0f, 0.25f);
    const uint8_t b565[2] = { 0x00, 0xFC };
    rt(WGPUTextureFormat_EmgpuRGB565Unorm, &c565, b565, 2, &(eg_soft_texel_t)TF(1.0f, 32.0f / 63.0f, 0.0f, 1.0f));
    for (uint32_t n = 0; n < 64; n++) {                 /* every channel code: c / (2^b - 1) */
        uint32_t h = (n & 31u) << 11 | n << 5 | (31u - (n & 31u));
        const uint8_t hb[2] = { (uint8_t)h, (uint8_t)(h >> 8) };
        eg_soft_texel_t o;
        eg_soft_texel_decode(WGPUTextureFormat_EmgpuRGB565Unorm, hb, &o);
        EG_EXPECT(o.f[0] == (float)(n & 31u) / 31.0f && o.f[1] == (float)n / 63.0f &&
                  o.f[2] == (float)(31u - (n & 31u)) / 31.0f && o.f[3] == 1.0f);
    }
    /* RGB10A2Unorm: R 9..0, G 19..10, B 29..20, A 31..30 */
    const eg_soft_texel_t c10 = TF(1.0f, 0.0f, 0.5f, 1.0f / 3.0f);     /* 511.5 -> 512; 1 */
    uint32_t w10 = 1023u | 0u << 10 | 512u << 20 | 1u << 30;
    const uint8_t b10[4] = { (uint8_t)w10, (uint8_t)(w10 >> 8), (uint8_t)(w10 >> 16), (uint8_t)(w10 >> 24) };
    rt(WGPUTextureFormat_RGB10A2Unorm, &c10, b10, 4, &(eg_soft_texel_t)TF(1.0f, 0.0f, 512.0f / 1023.0f, 1.0f / 3.0f));
    const eg_soft_texel_t u10 = TU(1023, 2000, 5, 3);
    rt(WGPUTextureFormat_RGB10A2Uint, &u10, NULL, 4, &(eg_soft_texel_t)TU(1023, 1023, 5, 3));
    /* RG11B10Ufloat: uf11 = 5-bit exponent (bias 15) + 6-bit mantissa, uf10 = 5 + 5.
     * 1.0 -> 15 << 6, 2.0 -> 16 << 6, 0.5 (uf10) -> 14 << 5; negatives -> 0. */
    const eg_soft_texel_t cf = TF(1.0f, 2.0f, 0.5f, 0.0f);
    uint32_t wf = (15u << 6) | (16u << 6) << 11 | (14u << 5) << 22;
    const uint8_t bf[4] = { (uint8_t)wf, (uint8_t)(wf >> 8), (uint8_t)(wf >> 16), (uint8_t)(wf >> 24) };
    rt(WGPUTextureFormat_RG11B10Ufloat, &cf, bf, 4, &(eg_soft_texel_t)TF(1.0f, 2.0f, 0.5f, 1.0f));
    const eg_soft_texel_t neg = TF(-1.0f, 1.0f + 1.0f / 64.0f, 1e9f, 0.0f);
    rt(WGPUTextureFormat_RG11B10Ufloat, &neg, NULL, 4,
       &(eg_soft_texel_t){ .u = { 0, fbits(1.0f + 1.0f / 64.0f), 0x7F800000u, fbits(1.0f) } });
    /* RGB9E5Ufloat (Vulkan "Shared Exponent"): value = m * 2^(e - 15 - 9). e = 15 gives
     * m / 512: r = 256 -> 0.5, g = 1 -> 1/512, b = 511 -> 511/512. */
    uint32_t w9 = 256u | 1u << 9 | 511u << 18 | 15u << 27;
    const uint8_t b9[4] = { (uint8_t)w9, (uint8_t)(w9 >> 8), (uint8_t)(w9 >> 16), (uint8_t)(w9 >> 24) };
    eg_soft_texel_t o;
    eg_soft_texel_decode(WGPUTextureFormat_RGB9E5Ufloat, b9, &o);
    EG_EXPECT(o.f[0] == 0.5f && o.f[1] == 1.0f / 512.0f && o.f[2] == 511.0f / 512.0f && o.f[3] == 1.0f);
    rt(WGPUTextureFormat_RGB9E5Ufloat, &o, b9, 4, &o);
}

EG_TEST(soft_texel, depth_stencil_planes)
{
    SOFT_ONLY();
    const eg_soft_texel_t half = TF(0.5f, 0, 0, 0);                    /* 32767.5 -> 32768 */
    const uint8_t d16[2] = { 0x00, 0x80 };
    rt(WGPUTextureFormat_Depth16Unorm, &half, d16, 2, &(eg_soft_texel_t)TF(32768.0f / 65535.0f, 0, 0, 1.0f));
    const eg_soft_texel_t d = TF(0.3f, 0, 0, 0);
    uint32_t w = fbits(0.3f);
    const uint8_t d32[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
    const eg_soft_texel_t d_back = TF(0.3f, 0, 0, 1.0f);
    rt(WGPUTextureFormat_Depth32Float, &d, d32, 4, &d_back);
    rt(WGPUTextureFormat_Depth24Plus, &d, d32, 4, &d_back);            /* stored as float32 */
    rt(WGPUTextureFormat_Depth24PlusStencil8, &d, d32, 4, &d_back);    /* its depth plane */
    const eg_soft_texel_t st = TU(0xA5, 0, 0, 0);
    const uint8_t s8[1] = { 0xA5 };
    rt(WGPUTextureFormat_Stencil8, &st, s8, 1, &(eg_soft_texel_t)TU(0xA5, 0, 0, 1));
}

/* A texture written through the public API decodes at eg_soft_texel_addr: the WebGPU linear
 * layout is what soft stores. */
EG_TEST(soft_texel, decode_texture_written_by_queue)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (strcmp(eg_test_backend(), "soft") != 0) { eg_test_device_release(); EG_NOT_APPLICABLE("tests soft internals"); }
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.size = (WGPUExtent3D){ 2, 2, 1 };
    td.format = WGPUTextureFormat_RGBA16Float;
    td.usage = WGPUTextureUsage_CopyDst | WGPUTextureUsage_TextureBinding;
    WGPUTexture t = wgpuDeviceCreateTexture(d, &td);
    uint16_t px[4][4];
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 4; c++) px[i][c] = (uint16_t)(0x3C00 + (i << 4) + c);  /* 1 + k/1024 */
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = t;
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = 16;
    layout.rowsPerImage = 2;
    wgpuQueueWriteTexture(eg_test_queue(), &dst, px, sizeof px, &layout, &td.size);
    EG_EXPECT_NO_ERROR();
    for (uint32_t i = 0; i < 4; i++) {
        eg_soft_texel_t o;
        eg_soft_texel_decode(td.format, eg_soft_texel_addr(t, WGPUTextureAspect_All, 0, 0, i & 1, i >> 1), &o);
        for (uint32_t c = 0; c < 4; c++) EG_EXPECT(o.f[c] == 1.0f + (float)((i << 4) + c) / 1024.0f);
    }
    wgpuTextureRelease(t);
    eg_test_device_release();
}
