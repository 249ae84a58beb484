/* hal/soft sampling internals shared by soft_sample.c and soft_sample_vec.c. */
#ifndef EG_SOFT_SAMPLE_INT_H
#define EG_SOFT_SAMPLE_INT_H

#include "hal/soft/soft_raster.h"

/* Address modes on the integer texel indices (soft_sample.c addr_mode). */
enum { ADDR_CLAMP, ADDR_REPEAT, ADDR_MIRROR, ADDR_CUBE /* no wrap: cube_wrap() resolves */ };

/* 8-bit unorm bilinear in fixed point, as texture units do: S = sum c_i * W_i with integer
 * weights W_i = wx * wy (8-bit each, sum 65536) is exact, then one scale: S * (1 / (255 * 65536)). */
#define UNORM8_SCALE (1.0f / 16711680.0f)

/* The fast path's texture formats (soft_sample.c fast_format). */
typedef enum fast_fmt { FAST_NONE, FAST_RGBA8, FAST_BGRA8, FAST_R8, FAST_RGB565 } fast_fmt_t;

/** soft_sample_vec.c: fast_sample(RGBA8 or BGRA8 (bgra), linear, mu, mv) over the lanes of
 *  mask in vectors, the same bytes; false (nothing done) when not one of its cases (element size,
 *  a mode other than clamp / repeat, eg_soft_sample_vw < 4, or no native vectors). */
bool eg_soft_sample_rgba8_vec(bool bgra, uint32_t mu, uint32_t mv, const eg_soft_subres_t *s, const float *u,
                              const float *v, eg_soft_mask_t mask, eg_soft_vec4_t *out);

#endif /* EG_SOFT_SAMPLE_INT_H */
