/* hal/soft fused span rows: what soft_span_fused.c (4 lanes, and the pick) and soft_span_fused8.c
 * (8 lanes, AVX2) share. The two widths are two translation units only so that a parallel build
 * compiles them at once: each instantiates soft_span_fused.inc, the biggest compile of the tree
 * (under ASan + UBSan it was 7.5 minutes of one core as one file, session 17). */
#ifndef EG_SOFT_SPAN_FUSED_INT_H
#define EG_SOFT_SPAN_FUSED_INT_H

#include "hal/soft/soft_span_int.h"
#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm_simd.h"

#if VM_SIMD && EMGPU_SOFT_SPAN_FUSED

/* Fully unrolled lane loops (the texel loads): GCC -O2 leaves an 8-trip loop rolled. */
#if defined(__clang__)
#define FZ_UNROLL_ _Pragma("clang loop unroll(full)")
#else
#define FZ_UNROLL_ _Pragma("GCC unroll 8")
#endif

#if defined(__SSE2__) || defined(__ARM_NEON) || defined(__ALTIVEC__) || defined(__riscv_vector)
#define FZ_NATIVE 1                 /* vectors are native registers: specialised variants pay */
#else
#define FZ_NATIVE 0
#endif

#define FZ_RGBA8 0u
#define FZ_BGRA8 1u
#define FZ_565   2u
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FZ_LE 1                     /* a vector's lanes are the pixels' bytes in memory order */
#else
#define FZ_LE 0
#endif

typedef float fz4_f __attribute__((vector_size(16)));
typedef uint32_t fz4_u __attribute__((vector_size(16)));
typedef int32_t fz4_i __attribute__((vector_size(16)));
typedef uint16_t fz4_h __attribute__((vector_size(8)));
#if defined(__x86_64__) && defined(__GNUC__) && !defined(EMGPU_SOFT_VM_NO_AVX2)
#define FZ_AVX2 1
typedef float fz8_f __attribute__((vector_size(32)));
typedef uint32_t fz8_u __attribute__((vector_size(32)));
typedef int32_t fz8_i __attribute__((vector_size(32)));
typedef uint16_t fz8_h __attribute__((vector_size(16)));
/** The AVX2 kernels' entries of sp (soft_span_fused8.c), for eg_soft_span_fused_pick on a CPU
 *  with AVX2: format f (FZ_RGBA8 ...), blend, modes [m0, m1). */
void eg_soft_span_fused8_pick(eg_soft_span_pipe_t *sp, uint32_t f, bool blend, uint32_t m0, uint32_t m1);
#endif

#endif /* VM_SIMD && EMGPU_SOFT_SPAN_FUSED */

#endif /* EG_SOFT_SPAN_FUSED_INT_H */
