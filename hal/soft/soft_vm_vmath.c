/* hal/soft shader VM: exp2, log2, sin, cos (and exp, log, pow, tan) over 4 lanes per vector.
 *
 * Each function is soft_vm_math.c's scalar one with the same IEEE operations in the same order,
 * lane by lane, so the bits are equal (soft_vm_test's alu_simd_equals_scalar compares every op
 * with random and special inputs). Branches become selects: every lane computes the main path
 * on an input made harmless (0 where a special case applies, so no float-to-int conversion is
 * ever out of range), then the special cases overwrite their lanes. The scalar loops called
 * eg_vm_exp2f and friends once per lane, with branches that mispredict on mixed inputs.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_vm_simd.h"

#if VM_SIMD && defined(VM_SIMD_NATIVE)

#define BITS_(u, f) __builtin_memcpy(&(u), &(f), VM_VB)
#define SEL_(m, y, x) (((y) & (m)) | ((x) & ~(m)))   /* bitwise: y where m, else x */

/* eg_vm_exp2f */
static void vexp2(vf_t *out, vf_t x)
{
    vu_t ux, ur, nan_m = (vu_t)(x != x), big = (vu_t)(x > VK_(128.0f)), tiny = (vu_t)(x < VK_(-150.0f));
    vu_t special = nan_m | big | tiny, uxs;
    vf_t xs, i, f, p, s1, s2;
    BITS_(ux, x);
    uxs = ux & ~special;
    BITS_(xs, uxs);
    i = xs + VK_(0.5f);
    vm_vfloor(&i, &i);
    f = xs - i;
    p = VK_(1.5252733804059841e-5f) * f + VK_(1.5403530393381606e-4f);   /* p = c7; p = p * f + c6: no FMA */
    p = p * f + VK_(1.3333558146428443e-3f);
    p = p * f + VK_(9.6181291076284770e-3f);
    p = p * f + VK_(5.5504108664821580e-2f);
    p = p * f + VK_(2.4022650695910071e-1f);
    p = p * f + VK_(6.9314718055994531e-1f);
    p = p * f + VK_(1.0f);
    vi_t n = __builtin_convertvector(i, vi_t);
    vi_t n1 = (n + (vi_t)((vu_t)n >> 31)) >> 1, n2 = n - n1;   /* n / 2 truncated, as C's */
    vu_t e1 = (vu_t)(n1 + 127) << 23, e2 = (vu_t)(n2 + 127) << 23;
    BITS_(s1, e1);
    BITS_(s2, e2);
    p = p * s1;
    p = p * s2;
    BITS_(ur, p);
    ur = SEL_(tiny, (vu_t){ 0 }, ur);
    ur = SEL_(big, 0x7f800000u + (vu_t){ 0 }, ur);
    ur = SEL_(nan_m, ux, ur);
    BITS_(*out, ur);
}

/* eg_vm_log2f */
static void vlog2(vf_t *out, vf_t x)
{
    vu_t u, ur, nan_m = (vu_t)(x != x), zero = (vu_t)(x == VK_(0.0f));
    BITS_(u, x);
    vu_t pinf = (vu_t)(u == 0x7f800000u), neg = (vu_t)((u >> 31) != 0u);
    vu_t special = nan_m | pinf | zero | neg;
    vu_t us = SEL_(special, 0x3f800000u + (vu_t){ 0 }, u);   /* 1.0: a harmless normal */
    vf_t xs, m, s, s2, p, ef;
    vu_t sub = (vu_t)((us & 0x7f800000u) == 0u);
    BITS_(xs, us);
    vf_t scaled = xs * VK_(16777216.0f);
    vu_t usc;
    BITS_(usc, scaled);
    us = SEL_(sub, usc, us);
    vi_t e = (vi_t)sub & -24;   /* subnormal: scaled by 2^24 */
    e += (vi_t)((us >> 23) & 0xffu) - 127;
    vu_t um = (us & 0x7fffffu) | 0x3f800000u, half;
    BITS_(m, um);
    vu_t hi = (vu_t)(m > VK_(1.41421356f));
    vf_t mh = m * VK_(0.5f);
    BITS_(half, mh);
    um = SEL_(hi, half, um);
    BITS_(m, um);
    e -= (vi_t)hi;   /* hi lanes are -1: e + 1 */
    s = (m - VK_(1.0f)) / (m + VK_(1.0f));
    s2 = s * s;
    p = VK_(0.1111111111f) * s2 + VK_(0.1428571429f);
    p = p * s2 + VK_(0.2f);
    p = p * s2 + VK_(0.3333333333f);
    p = p * s2 + VK_(1.0f);
    ef = __builtin_convertvector(e, vf_t);
    vf_t t = VK_(2.8853900817779268f) * s;
    t = t * p;
    ef = ef + t;
    BITS_(ur, ef);
    ur = SEL_(neg, 0x7fc00000u + (vu_t){ 0 }, ur);
    ur = SEL_(zero, 0xff800000u + (vu_t){ 0 }, ur);
    ur = SEL_(nan_m | pinf, u, ur);
    BITS_(*out, ur);
}

/* sin_poly / cos_poly of soft_vm_math.c, same association */
static vf_t vsin_poly(vf_t x)
{
    vf_t x2 = x * x, q = x2 * VK_(2.7557314297e-6f);
    q = VK_(-1.9841270114e-4f) + q;
    q = x2 * q;
    q = VK_(8.3333337680e-3f) + q;
    q = x2 * q;
    q = VK_(-1.6666667163e-1f) + q;
    vf_t xx = x * x2;
    xx = xx * q;
    return x + xx;
}
static vf_t vcos_poly(vf_t x)
{
    vf_t x2 = x * x, q = x2 * VK_(2.4801587642e-5f);
    q = VK_(-1.3888889225e-3f) + q;
    q = x2 * q;
    q = VK_(4.1666667908e-2f) + q;
    vf_t h = VK_(0.5f) * x2, r = VK_(1.0f) - h, x4 = x2 * x2;
    x4 = x4 * q;
    return r + x4;
}

/* eg_vm_sinf (cos: quadrant + 1, as eg_vm_cosf's table is sin's shifted by one) */
static void vsincos(vf_t *out, vf_t x, bool cosine)
{
    vu_t ux, ur, bad;
    BITS_(ux, x);
    bad = (vu_t)(x != x) | (vu_t)((ux & 0x7fffffffu) == 0x7f800000u);
    vu_t uxs = ux & ~bad;
    vf_t xs, q, fq, r;
    BITS_(xs, uxs);
    q = xs * VK_(0.63661977236f) + VK_(0.5f);
    vm_vfloor(&q, &q);
    fq = q * VK_(0.25f);
    vm_vfloor(&fq, &fq);
    fq = VK_(4.0f) * fq;
    fq = q - fq;
    vi_t k = __builtin_convertvector(fq, vi_t) + (cosine ? 1 : 0);
    r = xs - q * VK_(1.5703125f);
    r = r - q * VK_(4.8375129699707031e-4f);
    r = r - q * VK_(7.5497899548918821e-8f);
    vf_t s = vsin_poly(r), c = vcos_poly(r);
    vu_t us, uc, odd = (vu_t)((k & 1) != 0), neg = (vu_t)((k & 2) != 0);
    BITS_(us, s);
    BITS_(uc, c);
    ur = SEL_(odd, uc, us);
    ur ^= neg & 0x80000000u;   /* -poly: a sign flip, as the scalar negation */
    ur = SEL_(bad, 0x7fc00000u + (vu_t){ 0 }, ur);
    BITS_(*out, ur);
}

/* The transcendental ops in vector form; false for any other op (the caller's scalar loop). */
bool eg_vm_alu_vmath(uint32_t op, eg_soft_reg_t *d, const eg_soft_reg_t *a, const eg_soft_reg_t *b)
{
    vf_t x, y, r, t;
    vu_t ur;
    switch (op) {
    case EG_VM_FEXP2: CH_ { VLOAD(x, a->f + k); vexp2(&r, x); VSTORE(d->f + k, r); } return true;
    case EG_VM_FLOG2: CH_ { VLOAD(x, a->f + k); vlog2(&r, x); VSTORE(d->f + k, r); } return true;
    case EG_VM_FEXP: CH_ { VLOAD(x, a->f + k); vexp2(&r, x * VK_(1.44269504089f)); VSTORE(d->f + k, r); } return true;
    case EG_VM_FLOG: CH_ { VLOAD(x, a->f + k); vlog2(&r, x); r = r * VK_(0.69314718056f); VSTORE(d->f + k, r); } return true;
    case EG_VM_FSIN: CH_ { VLOAD(x, a->f + k); vsincos(&r, x, false); VSTORE(d->f + k, r); } return true;
    case EG_VM_FCOS: CH_ { VLOAD(x, a->f + k); vsincos(&r, x, true); VSTORE(d->f + k, r); } return true;
    case EG_VM_FTAN:
        CH_ { VLOAD(x, a->f + k); vsincos(&r, x, false); vsincos(&t, x, true); r = r / t; VSTORE(d->f + k, r); }
        return true;
    case EG_VM_FPOW:   /* y == 0 -> 1; x < 0 -> NaN; else exp2(y * log2(x)) */
        CH_ {
            VLOAD(x, a->f + k);
            VLOAD(y, b->f + k);
            vlog2(&t, x);
            t = y * t;
            vexp2(&r, t);
            BITS_(ur, r);
            ur = SEL_((vu_t)(x < VK_(0.0f)), 0x7fc00000u + (vu_t){ 0 }, ur);
            ur = SEL_((vu_t)(y == VK_(0.0f)), 0x3f800000u + (vu_t){ 0 }, ur);
            VSTORE(d->u + k, ur);
        }
        return true;
    default:
        return false;
    }
}

#endif /* VM_SIMD && VM_SIMD_NATIVE */

#endif /* EMGPU_HAL_SOFT */
