/* hal/soft span path internals shared by soft_span.c and soft_span_store.c (not a public header). */
#ifndef EG_SOFT_SPAN_INT_H
#define EG_SOFT_SPAN_INT_H

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"

#define SPAN_MAX_VALS 12u          /* varyings one span-class program can read: 2 + 4 + 4 */
#define SPAN_NO_VAL   0xffu
#define ROWC_RGBA8    1u           /* eg_soft_span_pipe.rowconst */
#define ROWC_BGRA8    2u
#define ROWC_565      3u
#define ROWC_MIN_PX   16           /* shorter rows: the proof costs more than the chunk */
#define ROWC_MAX_MISSES 4u         /* failed row proofs in a row before a triangle stops trying */

typedef struct eg_soft_span_pipe eg_soft_span_pipe_t;

/** Writes pixels [0, n) of a row segment starting at px from the shaded colors (lanes 0..n-1);
 *  returns how many it left untouched because blending could not change them. */
typedef uint32_t (*span_store_fn)(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c);

struct eg_soft_span_pipe {
    eg_soft_span_class_t cls;
    span_store_fn store;
    bool sa_c, inv_c, sa_a, inv_a;       /* src factor SrcAlpha (else One), dst OneMinusSrcAlpha (else Zero) */
    bool any_persp;
    bool texcopy;                        /* output = the texel, no blend: candidate for texel_copy */
    bool skip_clear;                     /* blend leaves a pixel whose source alpha is 0 unchanged */
    uint8_t rowconst;                    /* no texture, no blend: ROWC_* of the target (row_const) */
    WGPUTextureFormat target;
    uint32_t nval;
    uint8_t vary[SPAN_MAX_VALS];         /* packed varying index (raster pipeline) of each value */
    uint8_t interp[SPAN_MAX_VALS];
    uint8_t val_of_slot[4u * EG_SOFT_MAX_LOCATIONS];
};

/* Per-triangle constants of the interpolation (soft_raster_shade.c barycentrics). */
typedef struct span_tri {
    float d1x, d1y, d2x, d2y, iw0, iw1, iw2;
    float a0[SPAN_MAX_VALS], dv1[SPAN_MAX_VALS], dv2[SPAN_MAX_VALS];
    uint32_t fixed;                /* values whose lanes hold a0 for the whole triangle (span_fixed) */
    bool persp;                    /* a perspective value is interpolated per chunk */
} span_tri_t;

static inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

/* ---- soft_span_store.c ---- */

#define SHARED_NO 0xffffffffu
/** skip_clear pipelines: lanes of source alpha <= 0 kept, the others sharing one source color
 *  blended once per run of equal stored pixels; the lanes left untouched, or SHARED_NO (nothing
 *  written) when their colors differ. bpp 2: RGB565, 4: 8-bit (R and B swapped when bgra). */
uint32_t eg_soft_span_blend_shared(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c,
                                   uint32_t bpp, bool bgra);
/** Every 8/6/5-bit code converts back to itself through the sampler's tables and the stores. */
bool eg_soft_span_unorm_round_trips(void);
/** The blend stores' unpack then pack of every stored code of fmt gives the code back. */
bool eg_soft_span_dst_round_trips(WGPUTextureFormat fmt);
/** Texel format -> target format pairs the texel copy handles (0: none). */
uint32_t eg_soft_span_texcopy_kind(WGPUTextureFormat target, WGPUTextureFormat texel);
/** Row y's pixels [x0, x1) at px stored as one pixel when provably constant; false: nothing done. */
bool eg_soft_span_row_const(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, int64_t x0,
                            int64_t x1, int64_t y, uint8_t *px);
/** Whether every value the outputs read is fixed for k's triangle: then every row is constant. */
static inline bool eg_soft_span_all_fixed(const eg_soft_span_pipe_t *sp, const span_tri_t *k)
{
    for (uint32_t c = 0; c < 4u; c++)
        if (!(sp->cls.src[c] & (EG_SOFT_SPAN_CONST | EG_SOFT_SPAN_TEX)) && !(k->fixed >> sp->val_of_slot[sp->cls.src[c]] & 1u))
            return false;
    return true;
}
/** Whether constant rows are worth trying on k's triangle (a heuristic: the proof decides). */
bool eg_soft_span_rows_promising(const eg_soft_span_pipe_t *sp, const span_tri_t *k, int64_t width);
/** Sets k->fixed / k->persp and fills the fixed values' 16 lanes in vals. */
void eg_soft_span_fixed(const eg_soft_span_pipe_t *sp, span_tri_t *k, eg_soft_reg_t *vals);

#endif /* EG_SOFT_SPAN_INT_H */
