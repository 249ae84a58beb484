/* hal/d3d12 TPF emitter: GLSL.std.450 extended instructions, one scalar at a time. */
#include "config/emgpu_config.h"

#if EMGPU_D3D12_TPF

#include <spirv/unified1/GLSL.std.450.h>

#include "hal/d3d12/d3d_tpf_internal.h"

#define F_ONE 0x3f800000u
#define F_LN2 0x3f317218u        /* ln(2) */
#define F_LOG2E 0x3fb8aa3bu      /* log2(e) */

static tpf_sc_t o1(tpf_t *t, uint32_t op, tpf_sc_t a) { uint32_t d = tpf_temp(t); tpf_op1(t, op, d, a); return tpf_tsc(d); }
static tpf_sc_t o2(tpf_t *t, uint32_t op, tpf_sc_t a, tpf_sc_t b) { uint32_t d = tpf_temp(t); tpf_op2(t, op, d, a, b); return tpf_tsc(d); }
static tpf_sc_t o3(tpf_t *t, uint32_t op, tpf_sc_t a, tpf_sc_t b, tpf_sc_t c)
{
    uint32_t d = tpf_temp(t); tpf_op3(t, op, d, a, b, c); return tpf_tsc(d);
}
static tpf_sc_t neg(tpf_t *t, tpf_sc_t a) { return o2(t, TPF_MUL, a, tpf_imm(0xbf800000u)); }
static tpf_sc_t sub(tpf_t *t, tpf_sc_t a, tpf_sc_t b) { return o2(t, TPF_ADD, a, neg(t, b)); }
static tpf_sc_t fabs_(tpf_t *t, tpf_sc_t a) { return o2(t, TPF_AND, a, tpf_imm(0x7fffffffu)); }

static tpf_sc_t sincos(tpf_t *t, tpf_sc_t a, bool sine)
{
    uint32_t d = tpf_temp(t);
    tpf_begin(t, TPF_SINCOS);
    if (sine) { tpf_o_dst(t, d); tpf_tok(t, TPF_R_NULL << 12); }
    else { tpf_tok(t, TPF_R_NULL << 12); tpf_o_dst(t, d); }
    tpf_o_src(t, a);
    tpf_end(t);
    return tpf_tsc(d);
}

/* atan(x) for any x: range-reduce to |x| <= 1 (atan(x) = pi/2 - atan(1/x)), then an odd
 * polynomial (error ~2e-6 rad, within WebGPU's 4096 ULP for atan). */
static tpf_sc_t atan_(tpf_t *t, tpf_sc_t x)
{
    tpf_sc_t ax = fabs_(t, x);
    tpf_sc_t big = o2(t, TPF_LT, tpf_imm(F_ONE), ax);
    tpf_sc_t z = tpf_sel(t, big, o2(t, TPF_DIV, tpf_imm(F_ONE), ax), ax);
    tpf_sc_t z2 = o2(t, TPF_MUL, z, z);
    /* atan(z) ~ z * (c0 + c1 z^2 + ... + c5 z^10) on [0, 1]: 0.99997726, -0.33262347,
     * 0.19354346, -0.11643287, 0.05265332, -0.01172120 (max error 1.7e-6 rad). */
    static const uint32_t c[6] = { 0x3f7ffe82u, 0xbeaa4da0u, 0x3e463042u, 0xbdee745bu, 0x3d57ab02u, 0xbc400a47u };
    tpf_sc_t p = tpf_imm(c[5]);
    for (int i = 4; i >= 0; i--) p = o3(t, TPF_MAD, p, z2, tpf_imm(c[i]));
    p = o2(t, TPF_MUL, p, z);
    p = tpf_sel(t, big, sub(t, tpf_imm(0x3fc90fdbu /* pi/2 */), p), p);
    tpf_sc_t s = o2(t, TPF_AND, x, tpf_imm(0x80000000u));
    return o2(t, TPF_OR, p, s);                   /* atan is odd: copy the sign of x */
}

static tpf_sc_t atan2_(tpf_t *t, tpf_sc_t y, tpf_sc_t x)
{
    tpf_sc_t r = atan_(t, o2(t, TPF_DIV, y, x));
    /* x < 0: add pi with the sign of y; x == 0: +-pi/2. */
    tpf_sc_t pi = o2(t, TPF_OR, tpf_imm(0x40490fdbu), o2(t, TPF_AND, y, tpf_imm(0x80000000u)));
    tpf_sc_t xneg = o2(t, TPF_LT, x, tpf_imm(0));
    r = tpf_sel(t, xneg, o2(t, TPF_ADD, r, pi), r);
    tpf_sc_t hp = o2(t, TPF_OR, tpf_imm(0x3fc90fdbu), o2(t, TPF_AND, y, tpf_imm(0x80000000u)));
    return tpf_sel(t, o2(t, TPF_EQ, x, tpf_imm(0)), hp, r);
}

static tpf_sc_t exp_e(tpf_t *t, tpf_sc_t a) { return o1(t, TPF_EXP, o2(t, TPF_MUL, a, tpf_imm(F_LOG2E))); }

static bool scalar_fn(tpf_t *t, uint32_t fn, eg_ir_type_kind_t k, const tpf_sc_t *a, tpf_sc_t *r)
{
    switch (fn) {
    case GLSLstd450Round: case GLSLstd450RoundEven: *r = o1(t, TPF_ROUND_NE, a[0]); return true;
    case GLSLstd450Trunc: *r = o1(t, TPF_ROUND_Z, a[0]); return true;
    case GLSLstd450Floor: *r = o1(t, TPF_ROUND_NI, a[0]); return true;
    case GLSLstd450Ceil: *r = o1(t, TPF_ROUND_PI, a[0]); return true;
    case GLSLstd450Fract: *r = o1(t, TPF_FRC, a[0]); return true;
    case GLSLstd450FAbs: *r = fabs_(t, a[0]); return true;
    case GLSLstd450SAbs: *r = o2(t, TPF_IMAX, a[0], o1(t, TPF_INEG, a[0])); return true;
    case GLSLstd450FSign: {
        tpf_sc_t s = tpf_sel(t, o2(t, TPF_LT, tpf_imm(0), a[0]), tpf_imm(F_ONE), tpf_imm(0));
        *r = tpf_sel(t, o2(t, TPF_LT, a[0], tpf_imm(0)), tpf_imm(0xbf800000u), s);
        return true;
    }
    case GLSLstd450SSign: {
        tpf_sc_t s = tpf_sel(t, o2(t, TPF_ILT, tpf_imm(0), a[0]), tpf_imm(1), tpf_imm(0));
        *r = tpf_sel(t, o2(t, TPF_ILT, a[0], tpf_imm(0)), tpf_imm(~0u), s);
        return true;
    }
    case GLSLstd450Radians: *r = o2(t, TPF_MUL, a[0], tpf_imm(0x3c8efa35u)); return true;
    case GLSLstd450Degrees: *r = o2(t, TPF_MUL, a[0], tpf_imm(0x42652ee1u)); return true;
    case GLSLstd450Sin: *r = sincos(t, a[0], true); return true;
    case GLSLstd450Cos: *r = sincos(t, a[0], false); return true;
    case GLSLstd450Tan: *r = o2(t, TPF_DIV, sincos(t, a[0], true), sincos(t, a[0], false)); return true;
    case GLSLstd450Atan: *r = atan_(t, a[0]); return true;
    case GLSLstd450Atan2: *r = atan2_(t, a[0], a[1]); return true;
    case GLSLstd450Asin: case GLSLstd450Acos: {
        tpf_sc_t c = o1(t, TPF_SQRT, sub(t, tpf_imm(F_ONE), o2(t, TPF_MUL, a[0], a[0])));
        *r = fn == GLSLstd450Asin ? atan2_(t, a[0], c) : atan2_(t, c, a[0]);
        return true;
    }
    case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh: {
        tpf_sc_t ep = exp_e(t, a[0]), en = exp_e(t, neg(t, a[0]));
        tpf_sc_t s = o2(t, TPF_MUL, sub(t, ep, en), tpf_imm(0x3f000000u));
        tpf_sc_t c = o2(t, TPF_MUL, o2(t, TPF_ADD, ep, en), tpf_imm(0x3f000000u));
        *r = fn == GLSLstd450Sinh ? s : fn == GLSLstd450Cosh ? c : o2(t, TPF_DIV, s, c);
        return true;
    }
    case GLSLstd450Asinh: case GLSLstd450Acosh: {   /* log(x + sqrt(x^2 +- 1)) */
        tpf_sc_t x2 = o3(t, TPF_MAD, a[0], a[0], tpf_imm(fn == GLSLstd450Asinh ? F_ONE : 0xbf800000u));
        *r = o2(t, TPF_MUL, o1(t, TPF_LOG, o2(t, TPF_ADD, a[0], o1(t, TPF_SQRT, x2))), tpf_imm(F_LN2));
        return true;
    }
    case GLSLstd450Atanh: {                             /* 0.5 * log((1 + x) / (1 - x)) */
        tpf_sc_t q = o2(t, TPF_DIV, o2(t, TPF_ADD, tpf_imm(F_ONE), a[0]), sub(t, tpf_imm(F_ONE), a[0]));
        *r = o2(t, TPF_MUL, o1(t, TPF_LOG, q), tpf_imm(0x3eb17218u /* ln(2) / 2 */));
        return true;
    }
    case GLSLstd450Pow: *r = o1(t, TPF_EXP, o2(t, TPF_MUL, o1(t, TPF_LOG, a[0]), a[1])); return true;
    case GLSLstd450Exp: *r = exp_e(t, a[0]); return true;
    case GLSLstd450Log: *r = o2(t, TPF_MUL, o1(t, TPF_LOG, a[0]), tpf_imm(F_LN2)); return true;
    case GLSLstd450Exp2: *r = o1(t, TPF_EXP, a[0]); return true;
    case GLSLstd450Log2: *r = o1(t, TPF_LOG, a[0]); return true;
    case GLSLstd450Sqrt: *r = o1(t, TPF_SQRT, a[0]); return true;
    case GLSLstd450InverseSqrt: *r = o1(t, TPF_RSQ, a[0]); return true;
    case GLSLstd450FMin: case GLSLstd450NMin: *r = o2(t, TPF_MIN, a[0], a[1]); return true;
    case GLSLstd450FMax: case GLSLstd450NMax: *r = o2(t, TPF_MAX, a[0], a[1]); return true;
    case GLSLstd450UMin: *r = o2(t, TPF_UMIN, a[0], a[1]); return true;
    case GLSLstd450UMax: *r = o2(t, TPF_UMAX, a[0], a[1]); return true;
    case GLSLstd450SMin: *r = o2(t, TPF_IMIN, a[0], a[1]); return true;
    case GLSLstd450SMax: *r = o2(t, TPF_IMAX, a[0], a[1]); return true;
    case GLSLstd450FClamp: case GLSLstd450NClamp: *r = o2(t, TPF_MIN, o2(t, TPF_MAX, a[0], a[1]), a[2]); return true;
    case GLSLstd450UClamp: *r = o2(t, TPF_UMIN, o2(t, TPF_UMAX, a[0], a[1]), a[2]); return true;
    case GLSLstd450SClamp: *r = o2(t, TPF_IMIN, o2(t, TPF_IMAX, a[0], a[1]), a[2]); return true;
    case GLSLstd450FMix: *r = o3(t, TPF_MAD, sub(t, a[1], a[0]), a[2], a[0]); return true;
    case GLSLstd450Step: *r = tpf_sel(t, o2(t, TPF_GE, a[1], a[0]), tpf_imm(F_ONE), tpf_imm(0)); return true;
    case GLSLstd450SmoothStep: {
        tpf_sc_t x = o2(t, TPF_DIV, sub(t, a[2], a[0]), sub(t, a[1], a[0]));
        x = o2(t, TPF_MIN, o2(t, TPF_MAX, x, tpf_imm(0)), tpf_imm(F_ONE));
        /* x * x * (3 - 2x) */
        *r = o2(t, TPF_MUL, o2(t, TPF_MUL, x, x), o3(t, TPF_MAD, x, tpf_imm(0xc0000000u), tpf_imm(0x40400000u)));
        return true;
    }
    case GLSLstd450Fma: *r = o3(t, TPF_MAD, a[0], a[1], a[2]); return true;
    case GLSLstd450FindILsb: *r = o1(t, TPF_FIRSTBIT_LO, a[0]); return true;
    case GLSLstd450FindSMsb: case GLSLstd450FindUMsb: {
        /* D3D counts from the most significant bit; GLSL from the least: 31 - n, ~0 stays. */
        tpf_sc_t f = o1(t, fn == GLSLstd450FindSMsb ? TPF_FIRSTBIT_SHI : TPF_FIRSTBIT_HI, a[0]);
        tpf_sc_t v = o2(t, TPF_IADD, tpf_imm(31), o1(t, TPF_INEG, f));
        *r = tpf_sel(t, o2(t, TPF_IEQ, f, tpf_imm(~0u)), tpf_imm(~0u), v);
        return true;
    }
    default:
        (void)k;
        return false;
    }
}

/* Determinant by cofactor expansion along the first column; m is column-major (m[c * n + r]). */
static tpf_sc_t det(tpf_t *t, const tpf_sc_t *m, uint32_t n)
{
    if (n == 2) return sub(t, o2(t, TPF_MUL, m[0], m[3]), o2(t, TPF_MUL, m[2], m[1]));
    tpf_sc_t acc = tpf_imm(0);
    for (uint32_t r = 0; r < n; r++) {
        tpf_sc_t minor[9];                  /* drop column 0 and row r */
        uint32_t k = 0;
        for (uint32_t c = 1; c < n; c++)
            for (uint32_t rr = 0; rr < n; rr++)
                if (rr != r) minor[k++] = m[c * n + rr];
        tpf_sc_t sub_det;
        if (n == 3) {
            sub_det = sub(t, o2(t, TPF_MUL, minor[0], minor[3]), o2(t, TPF_MUL, minor[2], minor[1]));
        } else {                            /* 3x3 minor, expanded the same way */
            sub_det = tpf_imm(0);
            for (uint32_t r2 = 0; r2 < 3; r2++) {
                tpf_sc_t mm[4];
                uint32_t q = 0;
                for (uint32_t c = 1; c < 3; c++)
                    for (uint32_t rr = 0; rr < 3; rr++)
                        if (rr != r2) mm[q++] = minor[c * 3 + rr];
                tpf_sc_t d2 = sub(t, o2(t, TPF_MUL, mm[0], mm[3]), o2(t, TPF_MUL, mm[2], mm[1]));
                tpf_sc_t term = o2(t, TPF_MUL, minor[r2], d2);
                sub_det = (r2 & 1) ? sub(t, sub_det, term) : o2(t, TPF_ADD, sub_det, term);
            }
        }
        tpf_sc_t term = o2(t, TPF_MUL, m[r], sub_det);
        acc = (r & 1) ? sub(t, acc, term) : o2(t, TPF_ADD, acc, term);
    }
    return acc;
}

/* Inverse = transposed cofactors / determinant. */
static void inverse(tpf_t *t, const tpf_sc_t *m, uint32_t n, tpf_sc_t *out)
{
    tpf_sc_t inv_det = o2(t, TPF_DIV, tpf_imm(F_ONE), det(t, m, n));
    for (uint32_t c = 0; c < n; c++)
        for (uint32_t r = 0; r < n; r++) {
            tpf_sc_t minor[9];               /* drop column c and row r */
            uint32_t k = 0;
            for (uint32_t cc = 0; cc < n; cc++)
                for (uint32_t rr = 0; rr < n; rr++)
                    if (cc != c && rr != r) minor[k++] = m[cc * n + rr];
            tpf_sc_t cof = n == 2 ? minor[0] : det(t, minor, n - 1u);
            if ((c + r) & 1) cof = neg(t, cof);
            out[r * n + c] = o2(t, TPF_MUL, cof, inv_det);    /* transposed */
        }
}

/* x * 2^e as two exact power-of-two factors (each exponent clamped to the normal range). */
static tpf_sc_t ldexp_(tpf_t *t, tpf_sc_t x, tpf_sc_t e)
{
    tpf_sc_t h = o2(t, TPF_ISHR, e, tpf_imm(1));
    tpf_sc_t l = o2(t, TPF_IADD, e, o1(t, TPF_INEG, h));
    tpf_sc_t f[2];
    tpf_sc_t part[2] = { h, l };
    for (int i = 0; i < 2; i++) {
        tpf_sc_t c = o2(t, TPF_IMIN, o2(t, TPF_IMAX, part[i], tpf_imm((uint32_t)-126)), tpf_imm(127));
        f[i] = o2(t, TPF_ISHL, o2(t, TPF_IADD, c, tpf_imm(127)), tpf_imm(23));
    }
    return o2(t, TPF_MUL, o2(t, TPF_MUL, x, f[0]), f[1]);
}

/* pack4x8unorm & co (WGSL "Data Packing Built-in Functions"): clamp, scale, round to nearest
 * even, then fields of `bits` bits from the least significant end. */
static tpf_sc_t pack(tpf_t *t, uint32_t fn, const tpf_sc_t *v, uint32_t n)
{
    bool snorm = fn == GLSLstd450PackSnorm4x8 || fn == GLSLstd450PackSnorm2x16;
    bool half = fn == GLSLstd450PackHalf2x16;
    uint32_t bits = fn == GLSLstd450PackSnorm4x8 || fn == GLSLstd450PackUnorm4x8 ? 8u : 16u;
    uint32_t scale = bits == 8 ? (snorm ? 0x42fe0000u /* 127 */ : 0x437f0000u /* 255 */)
                               : (snorm ? 0x46fffe00u /* 32767 */ : 0x477fff00u /* 65535 */);
    tpf_sc_t acc = tpf_imm(0);
    for (uint32_t i = 0; i < n && i < 32u / bits; i++) {
        tpf_sc_t f;
        if (half) {
            f = o1(t, TPF_F32TOF16, v[i]);
        } else {
            tpf_sc_t c = o2(t, TPF_MIN, o2(t, TPF_MAX, v[i], tpf_imm(snorm ? 0xbf800000u : 0u)), tpf_imm(F_ONE));
            tpf_sc_t r = o1(t, TPF_ROUND_NE, o2(t, TPF_MUL, c, tpf_imm(scale)));
            f = o1(t, snorm ? TPF_FTOI : TPF_FTOU, r);
        }
        uint32_t d = tpf_temp(t);                            /* bfi width, offset, field, base */
        tpf_begin(t, TPF_BFI); tpf_o_dst(t, d); tpf_o_src(t, tpf_imm(bits)); tpf_o_src(t, tpf_imm(i * bits));
        tpf_o_src(t, f); tpf_o_src(t, acc); tpf_end(t);
        acc = tpf_tsc(d);
    }
    return acc;
}

static void unpack(tpf_t *t, uint32_t fn, tpf_sc_t v, tpf_sc_t *out, uint32_t n)
{
    bool snorm = fn == GLSLstd450UnpackSnorm4x8 || fn == GLSLstd450UnpackSnorm2x16;
    bool half = fn == GLSLstd450UnpackHalf2x16;
    uint32_t bits = fn == GLSLstd450UnpackSnorm4x8 || fn == GLSLstd450UnpackUnorm4x8 ? 8u : 16u;
    uint32_t inv = bits == 8 ? (snorm ? 0x3c010204u /* 1/127 */ : 0x3b808081u /* 1/255 */)
                             : (snorm ? 0x38000100u /* 1/32767 */ : 0x37800080u /* 1/65535 */);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = tpf_temp(t);
        tpf_begin(t, snorm ? TPF_IBFE : TPF_UBFE); tpf_o_dst(t, d); tpf_o_src(t, tpf_imm(bits));
        tpf_o_src(t, tpf_imm(i * bits)); tpf_o_src(t, v); tpf_end(t);
        if (half) { out[i] = o1(t, TPF_F16TOF32, tpf_tsc(d)); continue; }
        tpf_sc_t f = o2(t, TPF_MUL, o1(t, snorm ? TPF_ITOF : TPF_UTOF, tpf_tsc(d)), tpf_imm(inv));
        out[i] = snorm ? o2(t, TPF_MAX, f, tpf_imm(0xbf800000u)) : f;
    }
}

/* modf: whole = trunc(x), fraction = x - whole (same sign as x). */
static void modf1(tpf_t *t, tpf_sc_t x, tpf_sc_t *fract, tpf_sc_t *whole)
{
    *whole = o1(t, TPF_ROUND_Z, x);
    *fract = sub(t, x, *whole);
}

/* frexp from the bits, with integer operations only (a float compare may flush a denormal):
 * normal x: the fraction is x's sign and mantissa with 0.5's exponent, the exponent biased - 126;
 * denormal x (biased 0, mantissa m != 0): with k the index of m's highest set bit,
 * x = (m / 2^(k+1)) * 2^(k - 148), so the fraction is m shifted left by 23 - k with the leading
 * bit dropped and the exponent is k - 148 (D3D's firstbit_hi counts n = 31 - k from the top);
 * +-0 -> (x, 0). */
static void frexp1(tpf_t *t, tpf_sc_t x, tpf_sc_t *fract, tpf_sc_t *exp)
{
    tpf_sc_t mag = o2(t, TPF_AND, x, tpf_imm(0x7fffffffu));
    tpf_sc_t zero = o2(t, TPF_IEQ, mag, tpf_imm(0));
    uint32_t d = tpf_temp(t);                  /* biased exponent: ubfe width 8, offset 23 */
    tpf_begin(t, TPF_UBFE); tpf_o_dst(t, d); tpf_o_src(t, tpf_imm(8)); tpf_o_src(t, tpf_imm(23));
    tpf_o_src(t, x); tpf_end(t);
    tpf_sc_t denorm = o2(t, TPF_IEQ, tpf_tsc(d), tpf_imm(0));
    tpf_sc_t e = o2(t, TPF_IADD, tpf_tsc(d), tpf_imm((uint32_t)-126));
    tpf_sc_t half = o2(t, TPF_OR, o2(t, TPF_AND, x, tpf_imm(0x80000000u)), tpf_imm(0x3f000000u));
    tpf_sc_t f = o2(t, TPF_OR, o2(t, TPF_AND, x, tpf_imm(0x807fffffu)), tpf_imm(0x3f000000u));
    tpf_sc_t n = o1(t, TPF_FIRSTBIT_HI, mag);
    tpf_sc_t shifted = o2(t, TPF_ISHL, mag, o2(t, TPF_IADD, n, tpf_imm((uint32_t)-8)));
    tpf_sc_t fd = o2(t, TPF_OR, o2(t, TPF_AND, shifted, tpf_imm(0x007fffffu)), half);
    tpf_sc_t ed = o2(t, TPF_IADD, o1(t, TPF_INEG, n), tpf_imm((uint32_t)-117));
    *fract = tpf_sel(t, zero, x, tpf_sel(t, denorm, fd, f));
    *exp = tpf_sel(t, zero, tpf_imm(0), tpf_sel(t, denorm, ed, e));
}

/* GLSL.std.450 Modf / Frexp (pointer forms): the result is the fraction, the whole part /
 * exponent goes through the pointer operand (a Function or Private variable, or any pointer
 * the front end accepts: stored like OpStore). */
static bool ptr_form(tpf_t *t, const eg_ir_inst_t *in, uint32_t fn)
{
    uint32_t n = eg_ir_scalars(t->ir, in->type), na;
    tpf_val_t *pv = tpf_val(t, in->operands[3]);
    if (pv->kind != TV_PTR) return tpf_fail(t, "DXBC emitter: the last operand of GLSL.std.450 %s is not a pointer "
                                            "(instruction %u)", fn == GLSLstd450Modf ? "Modf" : "Frexp",
                                            (unsigned)(in - t->ir->insts));
    tpf_ptr_t p = t->ptrs[pv->idx];
    tpf_val_t res = tpf_alias_comps(t, n);
    tpf_sc_t *x = tpf_comps(t, in->operands[2], &na), other[4];
    for (uint32_t i = 0; i < n && i < na && i < 4; i++) {
        if (fn == GLSLstd450Modf) modf1(t, x[i], &t->comps[res.idx + i], &other[i]);
        else frexp1(t, x[i], &t->comps[res.idx + i], &other[i]);
    }
    tpf_store_ptr(t, &p, other, n < 4 ? n : 4);
    t->vals[in->result] = res;
    return !t->failed;
}

bool tpf_ext(tpf_t *t, const eg_ir_inst_t *in)
{
    const eg_ir_t *ir = t->ir;
    if (in->operands[0] != ir->glsl_std_450) return tpf_unsupported(t, in, "an extended instruction set other than GLSL.std.450");
    uint32_t fn = in->operands[1], n = eg_ir_scalars(ir, in->type), argc = in->operand_count - 2u, na[3] = { 0 };
    if ((fn == GLSLstd450Modf || fn == GLSLstd450Frexp) && argc == 2) return ptr_form(t, in, fn);
    /* Not valid GLSL.std.450 in a WebGPU module, so never lowered: IMix is "Reserved" in the
     * GLSL.std.450 spec (removed; spirv-val rejects it), InterpolateAt* need the
     * InterpolationFunction capability, which WebGPU does not allow (the front end should reject
     * both; the soft VM does not lower them either). */
    if (fn == GLSLstd450IMix)
        return tpf_fail(t, "DXBC emitter: GLSL.std.450 IMix (47) is reserved, not an instruction of the set "
                        "(GLSL.std.450 spec; spirv-val rejects it); use FMix or OpSelect (instruction %u)",
                        (unsigned)(in - ir->insts));
    if (fn >= GLSLstd450InterpolateAtCentroid && fn <= GLSLstd450InterpolateAtOffset)
        return tpf_fail(t, "DXBC emitter: GLSL.std.450 InterpolateAt* need the InterpolationFunction capability, "
                        "which WebGPU does not allow (instruction %u)", (unsigned)(in - ir->insts));
    tpf_sc_t *arg[3] = { NULL, NULL, NULL };
    if (argc > 3) return tpf_unsupported(t, in, "a GLSL.std.450 instruction with more than 3 operands");
    for (uint32_t i = 0; i < argc; i++) arg[i] = tpf_comps(t, in->operands[2 + i], &na[i]);
    if (t->failed) return false;
    tpf_val_t res = tpf_alias_comps(t, n);
    for (uint32_t i = 0; i < argc; i++) arg[i] = tpf_comps(t, in->operands[2 + i], &na[i]);
    eg_ir_type_kind_t k = eg_ir_scalar_kind(ir, in->type);
    switch (fn) {
    case GLSLstd450Length: case GLSLstd450Distance: case GLSLstd450Normalize: {
        tpf_sc_t d[4];
        for (uint32_t i = 0; i < na[0] && i < 4; i++) d[i] = fn == GLSLstd450Distance ? sub(t, arg[0][i], arg[1][i]) : arg[0][i];
        tpf_sc_t acc = o2(t, TPF_MUL, d[0], d[0]);
        for (uint32_t i = 1; i < na[0] && i < 4; i++) acc = o3(t, TPF_MAD, d[i], d[i], acc);
        if (fn != GLSLstd450Normalize) { t->comps[res.idx] = o1(t, TPF_SQRT, acc); break; }
        tpf_sc_t inv = o1(t, TPF_RSQ, acc);
        for (uint32_t i = 0; i < n; i++) t->comps[res.idx + i] = o2(t, TPF_MUL, d[i], inv);
        break;
    }
    case GLSLstd450Determinant: {
        uint32_t dim = eg_ir_type(ir, eg_ir_type_of(ir, in->operands[2]))->count;
        if (dim < 2 || dim > 4) return tpf_unsupported(t, in, "determinant of this size");
        t->comps[res.idx] = det(t, arg[0], dim);
        break;
    }
    case GLSLstd450MatrixInverse: {
        uint32_t dim = eg_ir_type(ir, in->type)->count;
        if (dim < 2 || dim > 4) return tpf_unsupported(t, in, "inverse of this size");
        inverse(t, arg[0], dim, &t->comps[res.idx]);
        break;
    }
    case GLSLstd450Ldexp:
        for (uint32_t i = 0; i < n; i++) t->comps[res.idx + i] = ldexp_(t, arg[0][i], arg[1][na[1] == 1 ? 0 : i]);
        break;
    case GLSLstd450PackSnorm4x8: case GLSLstd450PackUnorm4x8: case GLSLstd450PackSnorm2x16:
    case GLSLstd450PackUnorm2x16: case GLSLstd450PackHalf2x16:
        t->comps[res.idx] = pack(t, fn, arg[0], na[0]);
        break;
    case GLSLstd450UnpackSnorm4x8: case GLSLstd450UnpackUnorm4x8: case GLSLstd450UnpackSnorm2x16:
    case GLSLstd450UnpackUnorm2x16: case GLSLstd450UnpackHalf2x16:
        unpack(t, fn, arg[0][0], &t->comps[res.idx], n);
        break;
    case GLSLstd450ModfStruct:              /* { fract, whole } */
        for (uint32_t i = 0; i < n / 2u; i++) modf1(t, arg[0][i], &t->comps[res.idx + i], &t->comps[res.idx + n / 2u + i]);
        break;
    case GLSLstd450FrexpStruct:             /* { fract in [0.5, 1), exponent } */
        for (uint32_t i = 0; i < n / 2u; i++) frexp1(t, arg[0][i], &t->comps[res.idx + i], &t->comps[res.idx + n / 2u + i]);
        break;
    case GLSLstd450Refract: {               /* k = 1 - eta^2 (1 - dot^2); k < 0 ? 0 : eta I - (eta dot + sqrt k) N */
        tpf_sc_t eta = arg[2][0], dot = o2(t, TPF_MUL, arg[0][0], arg[1][0]);
        for (uint32_t i = 1; i < n; i++) dot = o3(t, TPF_MAD, arg[0][i], arg[1][i], dot);
        tpf_sc_t kk = sub(t, tpf_imm(F_ONE), o2(t, TPF_MUL, o2(t, TPF_MUL, eta, eta),
                                               sub(t, tpf_imm(F_ONE), o2(t, TPF_MUL, dot, dot))));
        tpf_sc_t f = o3(t, TPF_MAD, eta, dot, o1(t, TPF_SQRT, o2(t, TPF_MAX, kk, tpf_imm(0))));
        tpf_sc_t neg_k = o2(t, TPF_LT, kk, tpf_imm(0));
        for (uint32_t i = 0; i < n; i++)
            t->comps[res.idx + i] = tpf_sel(t, neg_k, tpf_imm(0),
                                       sub(t, o2(t, TPF_MUL, eta, arg[0][i]), o2(t, TPF_MUL, f, arg[1][i])));
        break;
    }
    case GLSLstd450Cross:
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t j = (i + 1) % 3, l = (i + 2) % 3;
            t->comps[res.idx + i] = sub(t, o2(t, TPF_MUL, arg[0][j], arg[1][l]), o2(t, TPF_MUL, arg[0][l], arg[1][j]));
        }
        break;
    case GLSLstd450Reflect: {           /* I - 2 * dot(N, I) * N */
        tpf_sc_t dot = o2(t, TPF_MUL, arg[0][0], arg[1][0]);
        for (uint32_t i = 1; i < n; i++) dot = o3(t, TPF_MAD, arg[0][i], arg[1][i], dot);
        dot = o2(t, TPF_MUL, dot, tpf_imm(0x40000000u));
        for (uint32_t i = 0; i < n; i++) t->comps[res.idx + i] = sub(t, arg[0][i], o2(t, TPF_MUL, dot, arg[1][i]));
        break;
    }
    case GLSLstd450FaceForward: {       /* dot(Nref, I) < 0 ? N : -N */
        tpf_sc_t dot = o2(t, TPF_MUL, arg[2][0], arg[1][0]);
        for (uint32_t i = 1; i < n; i++) dot = o3(t, TPF_MAD, arg[2][i], arg[1][i], dot);
        tpf_sc_t lt = o2(t, TPF_LT, dot, tpf_imm(0));
        for (uint32_t i = 0; i < n; i++) t->comps[res.idx + i] = tpf_sel(t, lt, arg[0][i], neg(t, arg[0][i]));
        break;
    }
    default:
        for (uint32_t i = 0; i < n; i++) {
            tpf_sc_t a[3], r;
            for (uint32_t j = 0; j < argc; j++) a[j] = arg[j][na[j] == 1 ? 0 : i];
            if (!scalar_fn(t, fn, k, a, &r)) {
                return tpf_fail(t, "DXBC emitter: GLSL.std.450 instruction %u is not lowered (instruction %u)",
                                (unsigned)fn, (unsigned)(in - ir->insts));
            }
            t->comps[res.idx + i] = r;
        }
    }
    t->vals[in->result] = res;
    return !t->failed;
}

#endif /* EMGPU_D3D12_TPF */
