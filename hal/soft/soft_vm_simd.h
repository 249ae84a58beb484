/* hal/soft shader VM: the 4-lane vector types and loop bodies shared by the ALU (soft_vm_alu.c)
 * and the interpreter's inlined hot operations (soft_vm_exec.c).
 *
 * 4-lane (128-bit) vectors: one SSE/NEON register each, so every operation is a few native
 * instructions per 4 lanes (64-byte vectors spilled to the stack and were slower). Per-lane IEEE
 * results, so the bytes equal the scalar loops (soft_vm_test checks); each 4-lane chunk is read
 * before it is written, so d may alias a, b or c. EMGPU_SOFT_SIMD 0 (or a compiler without
 * vector extensions) leaves VM_SIMD 0 and only the scalar loops.
 */
#ifndef EG_SOFT_VM_SIMD_H
#define EG_SOFT_VM_SIMD_H

#include "hal/soft/soft_vm.h"

#if EMGPU_SOFT_SIMD && (defined(__GNUC__) || defined(__clang__)) && EG_SOFT_LANES % 4 == 0
#define VM_SIMD 1
typedef float vf_t __attribute__((vector_size(16)));
typedef int32_t vi_t __attribute__((vector_size(16)));
typedef uint32_t vu_t __attribute__((vector_size(16)));
#define VLOAD(v, p) __builtin_memcpy(&(v), (p), 16)
#define VSTORE(p, v) __builtin_memcpy((p), &(v), 16)
#define CH_ for (uint32_t k = 0; k < EG_SOFT_LANES; k += 4)

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
#define VMIX_ CH_ { vf_t x, y, z, r, one = { 1.0f, 1.0f, 1.0f, 1.0f }; VLOAD(x, a->f + k); VLOAD(y, b->f + k); \
        VLOAD(z, c->f + k); vf_t pp = one - z; pp = x * pp; vf_t q = y * z; r = pp + q; VSTORE(d->f + k, r); }
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
#define VSQRT_ CH_ { vf_t x, r, z = { 0, 0, 0, 0 }; vu_t ux, ur, nan_m, neg_m, qnan = { 0x7fc00000u, 0x7fc00000u, \
        0x7fc00000u, 0x7fc00000u }; VLOAD(x, a->f + k); VLOAD(ux, a->u + k); r = __builtin_ia32_sqrtps(x); \
        __builtin_memcpy(&ur, &r, 16); nan_m = (vu_t)(x != x); neg_m = (vu_t)(x < z); \
        ur = (ux & nan_m) | (ur & ~nan_m); ur = (qnan & neg_m) | (ur & ~neg_m); VSTORE(d->u + k, ur); }
#endif
#else
#define VM_SIMD 0
#endif

#endif /* EG_SOFT_VM_SIMD_H */
