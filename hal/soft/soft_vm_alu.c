/* hal/soft shader VM: arithmetic over all lanes of a block (vector extensions or scalar loops). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm.h"

#include "hal/soft/soft_vm_simd.h"

#define L_ for (uint32_t l = 0; l < EG_SOFT_LANES; l++)

static bool isnan_f(float x) { return x != x; }
static bool isinf_f(float x) { return x == x && x - x != x - x; }

static int32_t f2i(float x)
{
    if (isnan_f(x)) return 0;
    if (x >= 2147483648.0f) return 2147483647;
    if (x <= -2147483648.0f) return (int32_t)0x80000000u;
    return (int32_t)x;
}
static uint32_t f2u(float x)
{
    if (isnan_f(x) || x <= 0.0f) return 0;
    if (x >= 4294967296.0f) return 0xffffffffu;
    return (uint32_t)x;
}

static float fround(float x)      /* half away from zero */
{
    float t = eg_vm_truncf(x), d = x - t;
    if (d >= 0.5f) return t + 1.0f;
    if (d <= -0.5f) return t - 1.0f;
    return t;
}
static float froundeven(float x)
{
    float f = eg_vm_floorf(x), d = x - f;
    if (d > 0.5f) return f + 1.0f;
    if (d < 0.5f) return f;
    return eg_vm_floorf(f * 0.5f) * 2.0f == f ? f : f + 1.0f;
}
static float ceil_f(float x) { float t = eg_vm_truncf(x); return t < x ? t + 1.0f : t; }
static float fmin_f(float a, float b) { return b < a ? b : a; }
static float fmax_f(float a, float b) { return a < b ? b : a; }
static float nmin_f(float a, float b) { return isnan_f(a) ? b : isnan_f(b) ? a : fmin_f(a, b); }
static float nmax_f(float a, float b) { return isnan_f(a) ? b : isnan_f(b) ? a : fmax_f(a, b); }
static float exp_f(float x) { return eg_vm_exp2f(x * 1.44269504089f); }
static float log_f(float x) { return eg_vm_log2f(x) * 0.69314718056f; }
static float pow_f(float x, float y)
{
    if (y == 0.0f) return 1.0f;
    if (x < 0.0f) return 0.0f / 0.0f;
    return eg_vm_exp2f(y * eg_vm_log2f(x));
}
static float sign_f(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f; }
static float smooth_f(float e0, float e1, float x)
{
    float t = fmin_f(fmax_f((x - e0) / (e1 - e0), 0.0f), 1.0f);
    return t * t * (3.0f - 2.0f * t);
}
static float ldexp_f(float x, int32_t e)
{
    if (e > 300) e = 300;
    if (e < -300) e = -300;
    union { uint32_t u; float f; } s;
    while (e > 127) { s.u = 254u << 23; x *= s.f; e -= 127; }
    while (e < -126) { s.u = 1u << 23; x *= s.f; e += 126; }
    s.u = (uint32_t)(e + 127) << 23;
    return x * s.f;
}
static int32_t frexp_e(float x)
{
    union { float f; uint32_t u; } v = { .f = x };
    if (x == 0.0f || isnan_f(x) || isinf_f(x)) return 0;
    int32_t adj = 0;
    if (!(v.u & 0x7f800000u)) { v.f *= 16777216.0f; adj = -24; }
    return (int32_t)((v.u >> 23) & 0xffu) - 126 + adj;
}
static float frexp_m(float x)
{
    if (x == 0.0f || isnan_f(x) || isinf_f(x)) return x;
    return ldexp_f(x, -frexp_e(x));
}
static float asin_f(float x) { return eg_vm_atan2f(x, eg_vm_sqrtf((1.0f - x) * (1.0f + x))); }
static float acos_f(float x) { return eg_vm_atan2f(eg_vm_sqrtf((1.0f - x) * (1.0f + x)), x); }
static float tanh_f(float x)
{
    if (x > 10.0f) return 1.0f;
    if (x < -10.0f) return -1.0f;
    float e = exp_f(2.0f * x);
    return (e - 1.0f) / (e + 1.0f);
}
static float asinh_f(float x)
{
    float a = x < 0.0f ? -x : x, r = log_f(a + eg_vm_sqrtf(a * a + 1.0f));
    return x < 0.0f ? -r : r;
}

static int32_t sdiv(int32_t a, int32_t b)
{
    if (b == 0) return a;
    if (b == -1) return (int32_t)(0u - (uint32_t)a);
    return a / b;
}
static int32_t srem(int32_t a, int32_t b) { return b == 0 || b == -1 ? 0 : a % b; }
static int32_t smod(int32_t a, int32_t b)
{
    int32_t r = srem(a, b);
    return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}
static uint32_t popcount(uint32_t x) { uint32_t n = 0; while (x) { x &= x - 1u; n++; } return n; }
static uint32_t bitrev(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++) { r = (r << 1) | (x & 1u); x >>= 1; }
    return r;
}
static int32_t lsb(uint32_t x) { if (!x) return -1; int32_t n = 0; while (!(x & 1u)) { x >>= 1; n++; } return n; }
static int32_t umsb(uint32_t x) { int32_t n = -1; while (x) { x >>= 1; n++; } return n; }
static uint32_t bfe_mask(uint32_t count) { return count >= 32 ? 0xffffffffu : (1u << count) - 1u; }
static uint32_t bfeu(uint32_t v, uint32_t off, uint32_t cnt)
{
    if (!cnt || off >= 32) return 0;
    return (v >> off) & bfe_mask(cnt);
}
static uint32_t bfes(uint32_t v, uint32_t off, uint32_t cnt)
{
    uint32_t x = bfeu(v, off, cnt);
    if (!cnt || cnt >= 32) return x;
    return (x & (1u << (cnt - 1))) ? x | ~bfe_mask(cnt) : x;
}

/* Float comparisons: ordered ones are false with a NaN, unordered ones true. */
static uint32_t fcmp(uint32_t op, float a, float b)
{
    bool un = isnan_f(a) || isnan_f(b);
    switch (op) {
    case EG_VM_FEQ: return a == b;
    case EG_VM_FNE: return !un && a != b;
    case EG_VM_FLT: return a < b;
    case EG_VM_FLE: return a <= b;
    case EG_VM_FGT: return a > b;
    case EG_VM_FGE: return a >= b;
    case EG_VM_FUNE: return un || a != b;
    case EG_VM_FUEQ: return un || a == b;
    case EG_VM_FULT: return un || a < b;
    case EG_VM_FULE: return un || a <= b;
    case EG_VM_FUGT: return un || a > b;
    case EG_VM_FUGE: return un || a >= b;
    case EG_VM_FORD: return !un;
    default: return un;   /* FUNORD */
    }
}

#if VM_SIMD
/* The hot, simple operations. Returns false for operations left to the scalar code. */
static bool alu_simd(uint32_t op, eg_soft_reg_t *d, const eg_soft_reg_t *a, const eg_soft_reg_t *b,
                     const eg_soft_reg_t *c)
{
    switch (op) {
    case EG_VM_MOV: CH_ { vu_t x; VLOAD(x, a->u + k); VSTORE(d->u + k, x); } return true;
    case EG_VM_FADD: VF2_(x + y) return true;
    case EG_VM_FSUB: VF2_(x - y) return true;
    case EG_VM_FMUL: VF2_(x * y) return true;
    case EG_VM_FDIV: VF2_(x / y) return true;
    case EG_VM_FFMA: VFMA_ return true;
    case EG_VM_FMIX: VMIX_ return true;
    case EG_VM_IADD: VU2_(x + y) return true;
    case EG_VM_ISUB: VU2_(x - y) return true;
    case EG_VM_IMUL: VU2_(x * y) return true;
    case EG_VM_AND: VU2_(x & y) return true;
    case EG_VM_OR: VU2_(x | y) return true;
    case EG_VM_XOR: VU2_(x ^ y) return true;
    case EG_VM_FLT: VCMP_(x < y) return true;
    case EG_VM_FLE: VCMP_(x <= y) return true;
    case EG_VM_FGT: VCMP_(x > y) return true;
    case EG_VM_FGE: VCMP_(x >= y) return true;
    case EG_VM_FEQ: VCMP_(x == y) return true;
    case EG_VM_FMIN: VPICK_(y < x) return true;   /* same choice as fmin_f/fmax_f */
    case EG_VM_FMAX: VPICK_(x < y) return true;
    case EG_VM_SELECT: VSELECT_ return true;
    case EG_VM_FCLAMP: VCLAMP_ return true;
    case EG_VM_FABS: VU1_(x & 0x7fffffffu) return true;
    case EG_VM_FNEG: VU1_(x ^ 0x80000000u) return true;
    case EG_VM_FSTEP: CH_ { vf_t x, y; vu_t r; VLOAD(x, a->f + k); VLOAD(y, b->f + k);
                            r = ~(vu_t)(y < x) & 0x3f800000u; VSTORE(d->u + k, r); } return true;
    case EG_VM_FSIGN: CH_ { vf_t x; vu_t r; VLOAD(x, a->f + k);
                            r = ((vu_t)(x > VK_(0.0f)) & 0x3f800000u) | ((vu_t)(x < VK_(0.0f)) & 0xbf800000u);
                            VSTORE(d->u + k, r); } return true;
    case EG_VM_FSMOOTH: VSMOOTH_ return true;
    case EG_VM_FMOD: CH_ { vf_t x, y, q; VLOAD(x, a->f + k); VLOAD(y, b->f + k); q = x / y; vm_vfloor(&q, &q);
                           q = y * q; q = x - q; VSTORE(d->f + k, q); } return true;
    case EG_VM_FREM: CH_ { vf_t x, y, q; vu_t tq; VLOAD(x, a->f + k); VLOAD(y, b->f + k); q = x / y;
                           vm_vtrunc(&tq, &q); __builtin_memcpy(&q, &tq, VM_VB); q = y * q; q = x - q;
                           VSTORE(d->f + k, q); } return true;
    case EG_VM_FTRUNC: VTRUNC_ return true;
    case EG_VM_FFLOOR: VFLOOR_ return true;
    case EG_VM_FCEIL: VCEIL_ return true;
    case EG_VM_FFRACT: VFRACT_ return true;
#ifdef VM_SIMD_SQRT
    case EG_VM_FSQRT: VSQRT_ return true;
    case EG_VM_FRSQRT: VSQRT_ CH_ { vf_t x; VLOAD(x, d->f + k); x = VK_(1.0f) / x; VSTORE(d->f + k, x); } return true;
#endif
    default:
        return false;
    }
}
#endif

/* d = op(a, b, c) for every lane (the caller commits the lanes of the execution mask). */
void eg_vm_alu(uint32_t op, eg_soft_reg_t *d, const eg_soft_reg_t *a, const eg_soft_reg_t *b,
               const eg_soft_reg_t *c)
{
#if VM_SIMD
    if (alu_simd(op, d, a, b, c)) return;
#if defined(VM_SIMD_NATIVE)
    if (eg_vm_alu_vmath(op, d, a, b)) return;
#endif
#endif
    eg_vm_alu_scalar(op, d, a, b, c);
}

/* The per-lane loops: the reference the vector code must equal byte for byte (soft_vm_test). */
void eg_vm_alu_scalar(uint32_t op, eg_soft_reg_t *d, const eg_soft_reg_t *a, const eg_soft_reg_t *b,
                      const eg_soft_reg_t *c)
{
    switch (op) {
    case EG_VM_MOV: L_ d->u[l] = a->u[l]; break;
    case EG_VM_SELECT: L_ d->u[l] = a->u[l] ? b->u[l] : c->u[l]; break;
    case EG_VM_FADD: L_ d->f[l] = a->f[l] + b->f[l]; break;
    case EG_VM_FSUB: L_ d->f[l] = a->f[l] - b->f[l]; break;
    case EG_VM_FMUL: L_ d->f[l] = a->f[l] * b->f[l]; break;
    case EG_VM_FDIV: L_ d->f[l] = a->f[l] / b->f[l]; break;
    case EG_VM_FREM: L_ d->f[l] = a->f[l] - b->f[l] * eg_vm_truncf(a->f[l] / b->f[l]); break;
    case EG_VM_FMOD: L_ d->f[l] = a->f[l] - b->f[l] * eg_vm_floorf(a->f[l] / b->f[l]); break;
    case EG_VM_FNEG: L_ d->u[l] = a->u[l] ^ 0x80000000u; break;
    case EG_VM_FMIN: L_ d->f[l] = fmin_f(a->f[l], b->f[l]); break;
    case EG_VM_FMAX: L_ d->f[l] = fmax_f(a->f[l], b->f[l]); break;
    case EG_VM_FNMIN: L_ d->f[l] = nmin_f(a->f[l], b->f[l]); break;
    case EG_VM_FNMAX: L_ d->f[l] = nmax_f(a->f[l], b->f[l]); break;
    case EG_VM_FABS: L_ d->u[l] = a->u[l] & 0x7fffffffu; break;
    case EG_VM_FSIGN: L_ d->f[l] = sign_f(a->f[l]); break;
    case EG_VM_FFLOOR: L_ d->f[l] = eg_vm_floorf(a->f[l]); break;
    case EG_VM_FCEIL: L_ d->f[l] = ceil_f(a->f[l]); break;
    case EG_VM_FTRUNC: L_ d->f[l] = eg_vm_truncf(a->f[l]); break;
    case EG_VM_FROUND: L_ d->f[l] = fround(a->f[l]); break;
    case EG_VM_FROUNDEVEN: L_ d->f[l] = froundeven(a->f[l]); break;
    case EG_VM_FFRACT: L_ d->f[l] = a->f[l] - eg_vm_floorf(a->f[l]); break;
    case EG_VM_FSQRT: L_ d->f[l] = eg_vm_sqrtf(a->f[l]); break;
    case EG_VM_FRSQRT: L_ d->f[l] = 1.0f / eg_vm_sqrtf(a->f[l]); break;
    case EG_VM_FEXP2: L_ d->f[l] = eg_vm_exp2f(a->f[l]); break;
    case EG_VM_FLOG2: L_ d->f[l] = eg_vm_log2f(a->f[l]); break;
    case EG_VM_FEXP: L_ d->f[l] = exp_f(a->f[l]); break;
    case EG_VM_FLOG: L_ d->f[l] = log_f(a->f[l]); break;
    case EG_VM_FPOW: L_ d->f[l] = pow_f(a->f[l], b->f[l]); break;
    case EG_VM_FSIN: L_ d->f[l] = eg_vm_sinf(a->f[l]); break;
    case EG_VM_FCOS: L_ d->f[l] = eg_vm_cosf(a->f[l]); break;
    case EG_VM_FTAN: L_ d->f[l] = eg_vm_sinf(a->f[l]) / eg_vm_cosf(a->f[l]); break;
    case EG_VM_FASIN: L_ d->f[l] = asin_f(a->f[l]); break;
    case EG_VM_FACOS: L_ d->f[l] = acos_f(a->f[l]); break;
    case EG_VM_FATAN: L_ d->f[l] = eg_vm_atanf(a->f[l]); break;
    case EG_VM_FATAN2: L_ d->f[l] = eg_vm_atan2f(a->f[l], b->f[l]); break;
    case EG_VM_FSINH: L_ d->f[l] = (exp_f(a->f[l]) - exp_f(-a->f[l])) * 0.5f; break;
    case EG_VM_FCOSH: L_ d->f[l] = (exp_f(a->f[l]) + exp_f(-a->f[l])) * 0.5f; break;
    case EG_VM_FTANH: L_ d->f[l] = tanh_f(a->f[l]); break;
    case EG_VM_FASINH: L_ d->f[l] = asinh_f(a->f[l]); break;
    case EG_VM_FACOSH: L_ d->f[l] = log_f(a->f[l] + eg_vm_sqrtf(a->f[l] * a->f[l] - 1.0f)); break;
    case EG_VM_FATANH: L_ d->f[l] = 0.5f * log_f((1.0f + a->f[l]) / (1.0f - a->f[l])); break;
    case EG_VM_FCLAMP: L_ d->f[l] = fmin_f(fmax_f(a->f[l], b->f[l]), c->f[l]); break;
    case EG_VM_FNCLAMP: L_ d->f[l] = nmin_f(nmax_f(a->f[l], b->f[l]), c->f[l]); break;
    case EG_VM_FMIX: L_ d->f[l] = a->f[l] * (1.0f - c->f[l]) + b->f[l] * c->f[l]; break;
    case EG_VM_FSTEP: L_ d->f[l] = b->f[l] < a->f[l] ? 0.0f : 1.0f; break;
    case EG_VM_FSMOOTH: L_ d->f[l] = smooth_f(a->f[l], b->f[l], c->f[l]); break;
    case EG_VM_FFMA: L_ d->f[l] = a->f[l] * b->f[l] + c->f[l]; break;
    case EG_VM_FLDEXP: L_ d->f[l] = ldexp_f(a->f[l], b->i[l]); break;
    case EG_VM_FFREXP_M: L_ d->f[l] = frexp_m(a->f[l]); break;
    case EG_VM_FFREXP_E: L_ d->i[l] = frexp_e(a->f[l]); break;
    case EG_VM_FRADIANS: L_ d->f[l] = a->f[l] * 0.01745329252f; break;
    case EG_VM_FDEGREES: L_ d->f[l] = a->f[l] * 57.29577951f; break;
    case EG_VM_DPDX: L_ d->f[l] = a->f[l | 1u] - a->f[l & ~1u]; break;
    case EG_VM_DPDY: L_ d->f[l] = a->f[l | 4u] - a->f[l & ~4u]; break;
    case EG_VM_FWIDTH:
        L_ { float x = a->f[l | 1u] - a->f[l & ~1u], y = a->f[l | 4u] - a->f[l & ~4u];
             d->f[l] = (x < 0.0f ? -x : x) + (y < 0.0f ? -y : y); }
        break;
    case EG_VM_IADD: L_ d->u[l] = a->u[l] + b->u[l]; break;
    case EG_VM_ISUB: L_ d->u[l] = a->u[l] - b->u[l]; break;
    case EG_VM_IMUL: L_ d->u[l] = a->u[l] * b->u[l]; break;
    case EG_VM_SDIV: L_ d->i[l] = sdiv(a->i[l], b->i[l]); break;
    case EG_VM_UDIV: L_ d->u[l] = b->u[l] ? a->u[l] / b->u[l] : a->u[l]; break;
    case EG_VM_SREM: L_ d->i[l] = srem(a->i[l], b->i[l]); break;
    case EG_VM_SMOD: L_ d->i[l] = smod(a->i[l], b->i[l]); break;
    case EG_VM_UMOD: L_ d->u[l] = b->u[l] ? a->u[l] % b->u[l] : 0u; break;
    case EG_VM_INEG: L_ d->u[l] = 0u - a->u[l]; break;
    case EG_VM_SABS: L_ d->u[l] = a->i[l] < 0 ? 0u - a->u[l] : a->u[l]; break;
    case EG_VM_SSIGN: L_ d->i[l] = a->i[l] > 0 ? 1 : a->i[l] < 0 ? -1 : 0; break;
    case EG_VM_SMIN: L_ d->i[l] = b->i[l] < a->i[l] ? b->i[l] : a->i[l]; break;
    case EG_VM_SMAX: L_ d->i[l] = a->i[l] < b->i[l] ? b->i[l] : a->i[l]; break;
    case EG_VM_UMIN: L_ d->u[l] = b->u[l] < a->u[l] ? b->u[l] : a->u[l]; break;
    case EG_VM_UMAX: L_ d->u[l] = a->u[l] < b->u[l] ? b->u[l] : a->u[l]; break;
    case EG_VM_SCLAMP:
        L_ { int32_t x = a->i[l] < b->i[l] ? b->i[l] : a->i[l]; d->i[l] = c->i[l] < x ? c->i[l] : x; }
        break;
    case EG_VM_UCLAMP:
        L_ { uint32_t x = a->u[l] < b->u[l] ? b->u[l] : a->u[l]; d->u[l] = c->u[l] < x ? c->u[l] : x; }
        break;
    case EG_VM_AND: L_ d->u[l] = a->u[l] & b->u[l]; break;
    case EG_VM_OR: L_ d->u[l] = a->u[l] | b->u[l]; break;
    case EG_VM_XOR: L_ d->u[l] = a->u[l] ^ b->u[l]; break;
    case EG_VM_NOT: L_ d->u[l] = ~a->u[l]; break;
    case EG_VM_SHL: L_ d->u[l] = a->u[l] << (b->u[l] & 31u); break;
    case EG_VM_SHRL: L_ d->u[l] = a->u[l] >> (b->u[l] & 31u); break;
    case EG_VM_SHRA:
        L_ { uint32_t s = b->u[l] & 31u, x = a->u[l] >> s;
             d->u[l] = (a->u[l] & 0x80000000u) && s ? x | ~(0xffffffffu >> s) : x; }
        break;
    case EG_VM_BITCOUNT: L_ d->u[l] = popcount(a->u[l]); break;
    case EG_VM_BITREV: L_ d->u[l] = bitrev(a->u[l]); break;
    case EG_VM_FINDLSB: L_ d->i[l] = lsb(a->u[l]); break;
    case EG_VM_FINDUMSB: L_ d->i[l] = umsb(a->u[l]); break;
    case EG_VM_FINDSMSB: L_ d->i[l] = umsb(a->i[l] < 0 ? ~a->u[l] : a->u[l]); break;
    case EG_VM_BFEU: L_ d->u[l] = bfeu(a->u[l], b->u[l], c->u[l]); break;
    case EG_VM_BFES: L_ d->u[l] = bfes(a->u[l], b->u[l], c->u[l]); break;
    case EG_VM_UMULHI: L_ d->u[l] = (uint32_t)(((uint64_t)a->u[l] * b->u[l]) >> 32); break;
    case EG_VM_SMULHI: L_ d->u[l] = (uint32_t)((uint64_t)((int64_t)a->i[l] * b->i[l]) >> 32); break;
    case EG_VM_IADDC: L_ d->u[l] = a->u[l] + b->u[l] < a->u[l]; break;
    case EG_VM_ISUBB: L_ d->u[l] = a->u[l] < b->u[l]; break;
    case EG_VM_FEQ: case EG_VM_FNE: case EG_VM_FLT: case EG_VM_FLE: case EG_VM_FGT: case EG_VM_FGE:
    case EG_VM_FUNE: case EG_VM_FUEQ: case EG_VM_FULT: case EG_VM_FULE: case EG_VM_FUGT: case EG_VM_FUGE:
    case EG_VM_FORD: case EG_VM_FUNORD:
        L_ d->u[l] = fcmp(op, a->f[l], b->f[l]);
        break;
    case EG_VM_ISNAN: L_ d->u[l] = isnan_f(a->f[l]); break;
    case EG_VM_ISINF: L_ d->u[l] = isinf_f(a->f[l]); break;
    case EG_VM_IEQ: L_ d->u[l] = a->u[l] == b->u[l]; break;
    case EG_VM_INE: L_ d->u[l] = a->u[l] != b->u[l]; break;
    case EG_VM_SLT: L_ d->u[l] = a->i[l] < b->i[l]; break;
    case EG_VM_SLE: L_ d->u[l] = a->i[l] <= b->i[l]; break;
    case EG_VM_SGT: L_ d->u[l] = a->i[l] > b->i[l]; break;
    case EG_VM_SGE: L_ d->u[l] = a->i[l] >= b->i[l]; break;
    case EG_VM_ULT: L_ d->u[l] = a->u[l] < b->u[l]; break;
    case EG_VM_ULE: L_ d->u[l] = a->u[l] <= b->u[l]; break;
    case EG_VM_UGT: L_ d->u[l] = a->u[l] > b->u[l]; break;
    case EG_VM_UGE: L_ d->u[l] = a->u[l] >= b->u[l]; break;
    case EG_VM_LNOT: L_ d->u[l] = a->u[l] ^ 1u; break;
    case EG_VM_F2I: L_ d->i[l] = f2i(a->f[l]); break;
    case EG_VM_F2U: L_ d->u[l] = f2u(a->f[l]); break;
    case EG_VM_I2F: L_ d->f[l] = (float)a->i[l]; break;
    case EG_VM_U2F: L_ d->f[l] = (float)a->u[l]; break;
    case EG_VM_BOOL2F: L_ d->f[l] = a->u[l] ? 1.0f : 0.0f; break;
    case EG_VM_PACK_H2:
        L_ d->u[l] = (uint32_t)eg_soft_f32_to_f16(a->f[l]) | ((uint32_t)eg_soft_f32_to_f16(b->f[l]) << 16);
        break;
    default: L_ d->u[l] = 0; break;
    }
}

#endif /* EMGPU_HAL_SOFT */
