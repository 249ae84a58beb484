/* hal/soft shader VM: the 4-lane vector types and loop bodies shared by the ALU (soft_vm_alu.c)
 * and the interpreter's inlined hot operations (soft_vm_exec.c).
 *
 * 4-lane (128-bit) vectors: one SSE/NEON register each, so every operation is a few native
 * instructions per 4 lanes (64-byte vectors spilled to the stack and were slower; 32-byte ones
 * (VM_VW 8) cost 2.4x on SSE2 and gain 11% with -mavx2: see docs/performance.md). Per-lane IEEE
 * results, so the bytes equal the scalar loops (soft_vm_test checks); each 4-lane chunk is read
 * before it is written, so d may alias a, b or c. EMGPU_SOFT_SIMD 0 (or a compiler without
 * vector extensions) leaves VM_SIMD 0 and only the scalar loops.
 */
#ifndef EG_SOFT_VM_SIMD_H
#define EG_SOFT_VM_SIMD_H

#include "hal/soft/soft_vm.h"

#if EMGPU_SOFT_SIMD && (defined(__GNUC__) || defined(__clang__)) && EG_SOFT_LANES % 4 == 0
#define VM_SIMD 1
#ifndef VM_VW
#define VM_VW 4                     /* lanes per vector */
#endif
#define VM_VB (VM_VW * 4)           /* bytes per vector */
typedef float vf_t __attribute__((vector_size(VM_VB)));
typedef int32_t vi_t __attribute__((vector_size(VM_VB)));
typedef uint32_t vu_t __attribute__((vector_size(VM_VB)));
/* A float constant in every lane, as a vector literal: GCC loads it from the constant pool,
 * where a scalar operand (v * 2.0f) is broadcast with two instructions at every use. */
#if VM_VW == 8
#define VK_(c) ((vf_t){ (c), (c), (c), (c), (c), (c), (c), (c) })
#else
#define VK_(c) ((vf_t){ (c), (c), (c), (c) })
#endif
#define VLOAD(v, p) __builtin_memcpy(&(v), (p), VM_VB)
#define VSTORE(p, v) __builtin_memcpy((p), &(v), VM_VB)
/* Unrolled: a 4-trip loop costs an add, a compare and a branch per chunk beside its 4 vector
 * instructions (GCC -O2 leaves it rolled). */
#if defined(__clang__)
#define VM_UNROLL_ _Pragma("clang loop unroll(full)")
#else
#define VM_UNROLL_ _Pragma("GCC unroll 4")
#endif
#define CH_ VM_UNROLL_ for (uint32_t k = 0; k < EG_SOFT_LANES; k += VM_VW)

#define VF2_(expr) CH_ { vf_t x, y, r; VLOAD(x, a->f + k); VLOAD(y, b->f + k); r = (expr); VSTORE(d->f + k, r); }
#define VU2_(expr) CH_ { vu_t x, y, r; VLOAD(x, a->u + k); VLOAD(y, b->u + k); r = (expr); VSTORE(d->u + k, r); }
#define VU1_(expr) CH_ { vu_t x, r; VLOAD(x, a->u + k); r = (expr); VSTORE(d->u + k, r); }
#define VCMP_(expr) CH_ { vf_t x, y; vu_t r; VLOAD(x, a->f + k); VLOAD(y, b->f + k); r = (vu_t)(expr) & 1u; VSTORE(d->u + k, r); }
/* Picks y's bits where m is set, else x's (bitwise, so NaN payloads and -0 pass unchanged). */
#define VPICK_(cond) CH_ { vf_t x, y; vu_t ux, uy, m, r; VLOAD(x, a->f + k); VLOAD(y, b->f + k); \
        VLOAD(ux, a->u + k); VLOAD(uy, b->u + k); m = (vu_t)(cond); r = (uy & m) | (ux & ~m); VSTORE(d->u + k, r); }
/* a * b + c, two roundings like the scalar code (no contraction) */
#define VFMA_ CH_ { vf_t x, y, z, r; VLOAD(x, a->f + k); VLOAD(y, b->f + k); VLOAD(z, c->f + k); \
        r = x * y; r = r + z; VSTORE(d->f + k, r); }
/* a * (1 - c) + b * c, same operation order as the scalar code */
#define VMIX_ CH_ { vf_t x, y, z, r; VLOAD(x, a->f + k); VLOAD(y, b->f + k); \
        VLOAD(z, c->f + k); vf_t pp = VK_(1.0f) - z; pp = x * pp; vf_t q = y * z; r = pp + q; VSTORE(d->f + k, r); }
/* smooth_f: t = fmin_f(fmax_f((x - e0) / (e1 - e0), 0), 1); t * t * (3 - 2 * t), same order */
#define VSMOOTH_ CH_ { vf_t e0, e1, x, t; vu_t ut, m; VLOAD(e0, a->f + k); VLOAD(e1, b->f + k); VLOAD(x, c->f + k); \
        t = (x - e0) / (e1 - e0); __builtin_memcpy(&ut, &t, VM_VB); m = (vu_t)(t < VK_(0.0f)); ut &= ~m; \
        __builtin_memcpy(&t, &ut, VM_VB); m = (vu_t)(VK_(1.0f) < t); ut = (0x3f800000u & m) | (ut & ~m); \
        __builtin_memcpy(&t, &ut, VM_VB); x = t * t; e0 = VK_(2.0f) * t; e0 = VK_(3.0f) - e0; x = x * e0; VSTORE(d->f + k, x); }
#define VSELECT_ CH_ { vu_t x, y, z, m, r; VLOAD(x, a->u + k); VLOAD(y, b->u + k); VLOAD(z, c->u + k); \
        m = (vu_t)(x != 0); r = (y & m) | (z & ~m); VSTORE(d->u + k, r); }
/* fmin_f(fmax_f(a, b), c) */
#define VCLAMP_ CH_ { vf_t x, y, z; vu_t ux, uy, uz, m; VLOAD(x, a->f + k); VLOAD(y, b->f + k); VLOAD(z, c->f + k); \
        VLOAD(ux, a->u + k); VLOAD(uy, b->u + k); VLOAD(uz, c->u + k); \
        m = (vu_t)(x < y); ux = (uy & m) | (ux & ~m); VLOAD(x, &ux); \
        m = (vu_t)(z < x); ux = (uz & m) | (ux & ~m); VSTORE(d->u + k, ux); }
/* sqrt: x86's SQRTPS is IEEE (correctly rounded per lane, like eg_vm_sqrtf); the special
 * cases are then set to eg_vm_sqrtf's bits: NaN in -> the same NaN, x < 0 -> 0x7fc00000. */
#if defined(__SSE__)
#define VM_SIMD_SQRT 1
typedef float vf4_t __attribute__((vector_size(16)));
/* (vectors pass by pointer: 32-byte vectors by value change the ABI without AVX) */
static inline void vm_vsqrt_raw(vf_t *r, const vf_t *x)
{
    for (uint32_t h = 0; h < VM_VW; h += 4) {
        vf4_t q;
        __builtin_memcpy(&q, (const float *)x + h, 16);
        q = __builtin_ia32_sqrtps(q);
        __builtin_memcpy((float *)r + h, &q, 16);
    }
}
#define VSQRT_ CH_ { vf_t x, r; vu_t ux, ur, nan_m, neg_m; VLOAD(x, a->f + k); VLOAD(ux, a->u + k); \
        vm_vsqrt_raw(&r, &x); __builtin_memcpy(&ur, &r, VM_VB); nan_m = (vu_t)(x != x); neg_m = (vu_t)(x < VK_(0.0f)); \
        ur = (ux & nan_m) | (ur & ~nan_m); ur = (0x7fc00000u & neg_m) | (ur & ~neg_m); VSTORE(d->u + k, ur); }
#endif
/* trunc with eg_vm_truncf's bits: |x| < 2^23 goes through int32 (exact both ways) and keeps x's
 * sign bit (trunc(-0.5) = -0); larger, inf and NaN are x itself. Other lanes convert 0, so no
 * conversion is ever out of range. */
static inline void vm_vtrunc(vu_t *out, const vf_t *px)
{
    vu_t ux, uax, ut;
    vf_t ax, xs, t;
    __builtin_memcpy(&ux, px, VM_VB);
    uax = ux & 0x7fffffffu;
    __builtin_memcpy(&ax, &uax, VM_VB);
    vu_t small = (vu_t)(ax < VK_(8388608.0f)), us = ux & small;
    __builtin_memcpy(&xs, &us, VM_VB);
    t = __builtin_convertvector(__builtin_convertvector(xs, vi_t), vf_t);
    __builtin_memcpy(&ut, &t, VM_VB);
    ut |= ux & 0x80000000u;
    *out = (ut & small) | (ux & ~small);
}
/* floor as eg_vm_floorf: t = trunc(x); t > x ? t - 1 : t */
static inline void vm_vfloor(vf_t *out, const vf_t *px)
{
    vu_t ut, ur, m;
    vf_t t, tm;
    vm_vtrunc(&ut, px);
    __builtin_memcpy(&t, &ut, VM_VB);
    tm = t - VK_(1.0f);
    m = (vu_t)(t > *px);
    __builtin_memcpy(&ur, &tm, VM_VB);
    ur = (ur & m) | (ut & ~m);
    __builtin_memcpy(out, &ur, VM_VB);
}
#define VTRUNC_ CH_ { vf_t x; vu_t r; VLOAD(x, a->f + k); vm_vtrunc(&r, &x); VSTORE(d->u + k, r); }
#define VFLOOR_ CH_ { vf_t x, r; VLOAD(x, a->f + k); vm_vfloor(&r, &x); VSTORE(d->f + k, r); }
#define VFRACT_ CH_ { vf_t x, r; VLOAD(x, a->f + k); vm_vfloor(&r, &x); r = x - r; VSTORE(d->f + k, r); }
/* ceil as the scalar ceil_f: t = trunc(x); t < x ? t + 1 : t */
#define VCEIL_ CH_ { vf_t x, t, tp; vu_t ut, up, m; VLOAD(x, a->f + k); vm_vtrunc(&ut, &x); \
        __builtin_memcpy(&t, &ut, VM_VB); tp = t + VK_(1.0f); __builtin_memcpy(&up, &tp, VM_VB); m = (vu_t)(t < x); \
        ut = (up & m) | (ut & ~m); VSTORE(d->u + k, ut); }
/* The target has vector registers (SSE2, NEON): code that computes every path and selects
 * (soft_vm_vmath.c) pays off there; emulated lane by lane (Cortex-M) it would not. */
#if defined(__SSE2__) || defined(__ARM_NEON) || defined(__aarch64__)
#define VM_SIMD_NATIVE 1
#endif
#else
#define VM_SIMD 0
#endif

/* Writes the lanes of m from t into d: a bitwise blend (a per-lane branch on a divergent mask
 * mispredicts about half the time), 4 lanes per vector where VM_SIMD. */
static inline void vm_commit(eg_soft_reg_t *d, const eg_soft_reg_t *t, eg_soft_mask_t m)
{
    if (m == EG_SOFT_ALL_LANES) { *d = *t; return; }
#if VM_SIMD
#if VM_VW == 8
    const vu_t bit = { 1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u };
#else
    const vu_t bit = { 1u, 2u, 4u, 8u };
#endif
    CH_ { vu_t x, y, mk; VLOAD(x, t->u + k); VLOAD(y, d->u + k); mk = (vu_t)(((bit << k) & m) != 0u);
          y = (x & mk) | (y & ~mk); VSTORE(d->u + k, y); }
#else
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        uint32_t k = 0u - (m >> l & 1u);
        d->u[l] = (t->u[l] & k) | (d->u[l] & ~k);
    }
#endif
}

#endif /* EG_SOFT_VM_SIMD_H */
