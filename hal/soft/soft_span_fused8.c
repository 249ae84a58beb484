/* hal/soft fused span rows, 8 lanes (AVX2): soft_span_fused.inc instantiated with 256-bit
 * vectors, picked at run time where the CPU has AVX2 (soft_span_fused.c says what the kernels do
 * and why their bytes are exact; soft_span_fused_int.h why this is a file of its own). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_span_fused_int.h"

#if VM_SIMD && EMGPU_SOFT_SPAN_FUSED && defined(FZ_AVX2)

#define FZ_W 8u
#define fz_vf fz8_f
#define fz_vu fz8_u
#define fz_vi fz8_i
#define fz_vh fz8_h
#define FZ_ATTR __attribute__((target("avx2")))
#define FZ_(n) n##_8
#define FZ_MAX(a, b) __builtin_ia32_maxps256((a), (b))
#define FZ_MIN(a, b) __builtin_ia32_minps256((a), (b))
#define FZ_MOVMSK(m) __builtin_ia32_movmskps256((fz8_f)(m))
#define FZ_JOIN(a, b) __builtin_shufflevector((a), (b), 0, 1, 2, 3, 12, 13, 14, 15)
#define FZ_PERMV(v, i) __builtin_ia32_permvarsf256((v), (i))
#if !defined(__clang__)   /* GCC's builtin names (as soft_sample_vec.c's VPGATHERDD) */
#define FZ_IMIN(a, b) __builtin_ia32_pminsd256((a), (b))   /* clang: the .inc's compare and select */
#define FZ_UMIN(a, b) ((fz8_u)__builtin_ia32_pminud256((fz8_i)(a), (fz8_i)(b)))
/* VPGATHERDD / VGATHERDPS, all lanes: the 4 bytes at base + o[i], the float tab[o[i]] */
#define FZ_GATHER(base, o) ((fz8_u)__builtin_ia32_gathersiv8si((fz8_i){ 0 }, (const int *)(const void *)(base), \
                                                              (fz8_i)(o), (fz8_i){ -1, -1, -1, -1, -1, -1, -1, -1 }, 1))
#define FZ_GATHERF(tab, o) __builtin_ia32_gathersiv8sf((fz8_f){ 0 }, (tab), (fz8_i)(o), \
                                                       (fz8_f)(fz8_i){ -1, -1, -1, -1, -1, -1, -1, -1 }, 4)
#endif
/* 8 x uint32 below 2^16 -> 8 x uint16 (PACKUSDW of the two halves; GCC's conversion takes ~28) */
#define FZ_PACK16(w) ((fz8_h)__builtin_ia32_packusdw128((fz4_i)__builtin_shufflevector((w), (w), 0, 1, 2, 3), \
                                                        (fz4_i)__builtin_shufflevector((w), (w), 4, 5, 6, 7)))
#include "hal/soft/soft_span_fused.inc"   /* (the FZ_ macros end with this file: no #undef list) */

void eg_soft_span_fused8_pick(eg_soft_span_pipe_t *sp, uint32_t f, bool blend, uint32_t m0, uint32_t m1)
{
    for (uint32_t m = m0; m < m1; m++) sp->fused[1][m] = fns_8[f][blend][m];
    for (uint32_t k = 0; k < 3u && sp->texcopy; k++) sp->copy[1][k] = copies_8[k];
    if (sp->pair[0]) sp->pair[1] = pairs_8[f];
}

#endif

#endif /* EMGPU_HAL_SOFT */
