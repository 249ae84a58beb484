/* hal/soft shader VM: float math with the same bits on every target (no libm, no FMA).
 *
 * libm implementations differ between glibc and newlib (and between x86 and Arm builds of the
 * same library), so shaders using sin() or exp() would render different bytes per board. These
 * functions use only IEEE single-precision +, -, *, / in a fixed order (the build uses
 * -std=c11, so the compiler does not contract a*b+c into an FMA), which every target rounds the
 * same way. sqrt, floor and trunc are exact (correctly rounded); the transcendental functions
 * are accurate to a few ULP, within what GLSL.std.450 / Vulkan allow.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_vm.h"

static uint32_t bits_of(float f) { union { float f; uint32_t u; } v = { .f = f }; return v.u; }
static float float_of(uint32_t u) { union { uint32_t u; float f; } v = { .u = u }; return v.f; }

float eg_vm_truncf(float x)
{
    uint32_t u = bits_of(x), e = (u >> 23) & 0xffu;
    if (e >= 150) return x;                          /* integral, inf or NaN */
    if (e < 127) return float_of(u & 0x80000000u);   /* |x| < 1 */
    return float_of(u & ~((1u << (150 - e)) - 1u));
}

float eg_vm_floorf(float x)
{
    float t = eg_vm_truncf(x);
    return t > x ? t - 1.0f : t;
}

/* IEEE 754 requires sqrt to be correctly rounded, so a hardware square root gives the same bits
 * as the integer algorithm below; use it where the target has one (SSE2, AArch64, an Arm FPU
 * with single precision: Cortex-M7 fpv5 has VSQRT.F32). The special cases stay ours so the
 * NaN we return is the same bits everywhere. */
#if (defined(__GNUC__) || defined(__clang__)) && \
    (defined(__SSE2__) || defined(__aarch64__) || (defined(__ARM_FP) && (__ARM_FP & 4) && !defined(__SOFTFP__)))
#define VM_HW_SQRT 1
#else
#define VM_HW_SQRT 0
#endif

float eg_vm_sqrtf(float x)
{
#if VM_HW_SQRT
    uint32_t u = bits_of(x);
    if (x != x || x == 0.0f || u == 0x7f800000u) return x;   /* NaN, +-0, +inf */
    if (u >> 31) return float_of(0x7fc00000u);
#if defined(__arm__)
    /* the instruction itself: __builtin_sqrtf keeps a call to libm's sqrtf for errno, and the
     * bare-metal boards link no libm */
    float r;
    __asm__("vsqrt.f32 %0, %1" : "=t"(r) : "t"(x));
    return r;
#else
    return __builtin_sqrtf(x);
#endif
#else
    return eg_vm_sqrtf_soft(x);
#endif
}

/* Correctly rounded square root from an integer square root of the scaled mantissa. */
float eg_vm_sqrtf_soft(float x)
{
    uint32_t u = bits_of(x);
    if (x != x || x == 0.0f || u == 0x7f800000u) return x;   /* NaN, +-0, +inf */
    if (u >> 31) return float_of(0x7fc00000u);
    int32_t e = (int32_t)((u >> 23) & 0xffu);
    uint32_t m = u & 0x7fffffu;
    if (e == 0) {                                    /* subnormal: normalize */
        while (!(m & 0x800000u)) { m <<= 1; e--; }
        e++;
    } else {
        m |= 0x800000u;
    }
    e -= 127;
    if (e & 1) { m <<= 1; e--; }                      /* even exponent */
    /* sqrt(m * 2^-23) with 24 result bits plus a rounding bit: isqrt(m << 25) */
    uint64_t v = (uint64_t)m << 25, r = 0, bit = (uint64_t)1 << 62;
    while (bit > v) bit >>= 2;
    while (bit) {
        if (v >= r + bit) { v -= r + bit; r = (r >> 1) + bit; }
        else r >>= 1;
        bit >>= 2;
    }
    /* r has 25 significant bits; the 25th decides the rounding (an exact tie is impossible:
     * the square of a 25-bit odd number is not a 49-bit value with 24 trailing zeros) */
    uint32_t q = (uint32_t)(r >> 1) + (uint32_t)(r & 1u);
    return float_of((uint32_t)((e / 2 + 127) << 23) + (q - 0x800000u));
}

/* 2^x: x = i + f with |f| <= 0.5, 2^f by a degree-7 polynomial, then the exponent. */
float eg_vm_exp2f(float x)
{
    if (x != x) return x;
    if (x > 128.0f) return float_of(0x7f800000u);
    if (x < -150.0f) return 0.0f;
    float i = eg_vm_floorf(x + 0.5f), f = x - i;
    float p = 1.5252733804059841e-5f;
    p = p * f + 1.5403530393381606e-4f;
    p = p * f + 1.3333558146428443e-3f;
    p = p * f + 9.6181291076284770e-3f;
    p = p * f + 5.5504108664821580e-2f;
    p = p * f + 2.4022650695910071e-1f;
    p = p * f + 6.9314718055994531e-1f;
    p = p * f + 1.0f;
    int32_t n = (int32_t)i;
    /* scale in two steps so that results near the range ends neither overflow nor flush early */
    int32_t n1 = n / 2, n2 = n - n1;
    return p * float_of((uint32_t)(n1 + 127) << 23) * float_of((uint32_t)(n2 + 127) << 23);
}

/* log2(x) = e + log2(m), m in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh((m - 1) / (m + 1)). */
float eg_vm_log2f(float x)
{
    uint32_t u = bits_of(x);
    if (x != x || u == 0x7f800000u) return x;
    if (x == 0.0f) return float_of(0xff800000u);
    if (u >> 31) return float_of(0x7fc00000u);
    int32_t e = 0;
    if (!(u & 0x7f800000u)) { x *= 16777216.0f; e = -24; u = bits_of(x); }
    e += (int32_t)((u >> 23) & 0xffu) - 127;
    float m = float_of((u & 0x7fffffu) | 0x3f800000u);
    if (m > 1.41421356f) { m *= 0.5f; e++; }
    float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
    float p = 0.1111111111f;
    p = p * s2 + 0.1428571429f;
    p = p * s2 + 0.2f;
    p = p * s2 + 0.3333333333f;
    p = p * s2 + 1.0f;
    return (float)e + 2.8853900817779268f * s * p;     /* 2 / ln 2 */
}

/* sin and cos on [-pi/4, pi/4] (Taylor-derived minimax-free coefficients, error < 1e-7). */
static float sin_poly(float x)
{
    float x2 = x * x;
    return x + x * x2 * (-1.6666667163e-1f + x2 * (8.3333337680e-3f + x2 * (-1.9841270114e-4f +
                                                                            x2 * 2.7557314297e-6f)));
}
static float cos_poly(float x)
{
    float x2 = x * x;
    return 1.0f - 0.5f * x2 + x2 * x2 * (4.1666667908e-2f + x2 * (-1.3888889225e-3f + x2 * 2.4801587642e-5f));
}

/* Quadrant and reduced argument: x = k * pi/2 + r (Cody-Waite, three-part pi/2). */
static float reduce(float x, int32_t *k)
{
    float q = eg_vm_floorf(x * 0.63661977236f + 0.5f);
    *k = (int32_t)(q - 4.0f * eg_vm_floorf(q * 0.25f));
    return ((x - q * 1.5703125f) - q * 4.8375129699707031e-4f) - q * 7.5497899548918821e-8f;
}

float eg_vm_sinf(float x)
{
    if (x != x || (bits_of(x) & 0x7fffffffu) == 0x7f800000u) return float_of(0x7fc00000u);
    int32_t k;
    float r = reduce(x, &k);
    switch (k & 3) {
    case 0: return sin_poly(r);
    case 1: return cos_poly(r);
    case 2: return -sin_poly(r);
    default: return -cos_poly(r);
    }
}

float eg_vm_cosf(float x)
{
    if (x != x || (bits_of(x) & 0x7fffffffu) == 0x7f800000u) return float_of(0x7fc00000u);
    int32_t k;
    float r = reduce(x, &k);
    switch (k & 3) {
    case 0: return cos_poly(r);
    case 1: return -sin_poly(r);
    case 2: return -cos_poly(r);
    default: return sin_poly(r);
    }
}

/* atan on [0, 1] after reductions: x > tan(pi/8) -> pi/4 + atan((x - 1) / (x + 1)). */
float eg_vm_atanf(float x)
{
    if (x != x) return x;
    float sign = x < 0.0f ? -1.0f : 1.0f, a = x * sign, base = 0.0f;
    bool inv = a > 1.0f;
    if (inv) a = 1.0f / a;
    if (a > 0.41421356f) { a = (a - 1.0f) / (a + 1.0f); base = 0.78539816f; }
    float a2 = a * a;
    float p = a + a * a2 * (-3.3333334327e-1f + a2 * (1.9999920130e-1f + a2 * (-1.4270015061e-1f +
                                                                           a2 * 1.0695609450e-1f)));
    p += base;
    if (inv) p = 1.57079633f - p;
    return sign * p;
}

float eg_vm_atan2f(float y, float x)
{
    if (x != x || y != y) return x + y;
    if (x == 0.0f) {
        if (y == 0.0f) return (bits_of(x) >> 31) ? ((bits_of(y) >> 31) ? -3.14159265f : 3.14159265f) : y;
        return y > 0.0f ? 1.57079633f : -1.57079633f;
    }
    float a = eg_vm_atanf(y / x);
    if (x > 0.0f) return a;
    return (bits_of(y) >> 31) ? a - 3.14159265f : a + 3.14159265f;
}

#endif /* EMGPU_HAL_SOFT */
