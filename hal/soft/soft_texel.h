/* hal/soft: texel conversion and texture sampling, shared by the shader VM (sampling, textureLoad,
 * textureStore, queries) and the rasterizer (render-target reads and writes on its generic path).
 *
 * VALUES. A texel value is four 32-bit channels (eg_soft_texel_t): floats for float, unorm,
 * snorm and sRGB formats (sRGB decoded to linear on read, encoded on write), raw integers for
 * uint/sint formats. Missing channels read as (0, 0, 0, 1). Depth reads as its float value in
 * channel 0; stencil as an integer in channel 0. Conversions follow the WebGPU / Vulkan rules
 * (unorm: round to nearest even-free "x * max + 0.5" truncation; snorm clamps -1; float16 round
 * to nearest even with denormals; RGB565 = our EMGPU extension format, R in bits 15..11).
 *
 * SAMPLING. All functions work on EG_SOFT_LANES lanes at once (see soft_shader.h), under a lane
 * mask; lanes outside the mask are left untouched. Access is robust as the WebGPU execution
 * environment requires: textureLoad / textureStore outside the view return zero / are dropped;
 * nothing outside the texture's memory is ever read or written.
 */
#ifndef EG_SOFT_TEXEL_H
#define EG_SOFT_TEXEL_H

#include "hal/soft/soft_shader.h"
#include "hal/soft/soft_internal.h"
#include "kernel/api/sampler.h"

typedef union eg_soft_texel {
    float    f[4];
    uint32_t u[4];
    int32_t  i[4];
} eg_soft_texel_t;

/* ---- one texel (soft_texel.c) ---- */

/** Reads one texel block of `format` (color formats, or the depth / stencil plane formats
 *  Depth16Unorm, Depth32Float (also the soft storage of Depth24Plus*), Stencil8). */
void eg_soft_texel_decode(WGPUTextureFormat format, const uint8_t *src, eg_soft_texel_t *out);
/** Writes one texel block; values are converted and clamped as the format requires. */
void eg_soft_texel_encode(WGPUTextureFormat format, const eg_soft_texel_t *in, uint8_t *dst);
/** True when decode/encode support the format (every format soft can render to or sample). */
bool eg_soft_texel_supported(WGPUTextureFormat format);

/** sRGB <-> linear for one channel value in [0, 1] (exact, table-driven for 8-bit). */
float eg_soft_srgb_to_linear(float s);
float eg_soft_linear_to_srgb(float l);
/** float32 <-> float16 bits, round to nearest even. */
uint16_t eg_soft_f32_to_f16(float f);
float    eg_soft_f16_to_f32(uint16_t h);

/* ---- many lanes (soft_sample.c) ---- */

typedef enum eg_soft_lod_mode {
    EG_SOFT_LOD_IMPLICIT,     /* from the quad derivatives of the coordinates (fragment only) */
    EG_SOFT_LOD_BIAS,         /* implicit + bias[] */
    EG_SOFT_LOD_EXPLICIT,     /* lod[] (textureSampleLevel, and vertex/compute sampling: 0) */
    EG_SOFT_LOD_GRAD          /* from ddx[] / ddy[] */
} eg_soft_lod_mode_t;

/** One sampling instruction over the lanes of `mask`. Coordinates are normalized (cube: a
 *  direction vector); `layer` is the array layer (rounded as WebGPU says), NULL when not arrayed.
 *  For EG_SOFT_LOD_IMPLICIT/BIAS the derivatives are taken over 2x2 quads of the lanes (lane
 *  order of soft_shader.h). When `compare` is non-NULL the sampler's compare function is applied
 *  against it (depth textures with a comparison sampler) and .f[0] of the result holds the
 *  filtered pass fraction. */
typedef struct eg_soft_sample_op {
    const eg_texture_view_t *view;
    const eg_sampler_t *sampler;
    const eg_soft_reg_t *coord[3];   /* u, v, w (components the dimension uses) */
    const eg_soft_reg_t *layer;      /* array index (float), or NULL */
    eg_soft_lod_mode_t lod_mode;
    const eg_soft_reg_t *lod_or_bias;          /* EXPLICIT: lod; BIAS: bias */
    const eg_soft_reg_t *ddx[3], *ddy[3];      /* GRAD */
    const int32_t *offset;           /* const texel offset (2 or 3 ints), or NULL */
    const eg_soft_reg_t *compare;    /* depth reference, or NULL */
    eg_soft_mask_t mask;
} eg_soft_sample_op_t;

/** Filtered sampling; result per lane in out->c[0..3] (floats). */
void eg_soft_sample(const eg_soft_sample_op_t *op, eg_soft_vec4_t *out);

/** textureLoad: integer texel coordinates, array layer, mip level (or sample index for
 *  multisampled views); out of range -> zero (robust access). Floats or raw integers by format. */
void eg_soft_texture_load(const eg_texture_view_t *view, const eg_soft_reg_t *xyz[3],
                          const eg_soft_reg_t *layer, const eg_soft_reg_t *level_or_sample,
                          eg_soft_mask_t mask, eg_soft_vec4_t *out);

/** textureStore to a storage-texture view (mip level = the view's base); out of range lanes
 *  are dropped. */
void eg_soft_texture_store(const eg_texture_view_t *view, const eg_soft_reg_t *xyz[3],
                           const eg_soft_reg_t *layer, const eg_soft_vec4_t *value,
                           eg_soft_mask_t mask);

/** OpImageQuerySize(Lod) / Levels / Samples for the view: size of mip `level` (relative to the
 *  view's base) in width, height, depth-or-layers; levels = the view's mip count. */
void eg_soft_texture_size(const eg_texture_view_t *view, uint32_t level, uint32_t size[3]);
uint32_t eg_soft_texture_levels(const eg_texture_view_t *view);
uint32_t eg_soft_texture_samples(const eg_texture_view_t *view);

/* ---- additions by helper "texel" (session 2): tables and math the fast paths share ---- */

/** n / 255.0f for every 8-bit n (exact IEEE division), and the sRGB EOTF of n / 255 (nearest
 *  float): what decode returns for 8-bit unorm and sRGB channels. */
extern const float eg_soft_unorm8_to_float[256];
extern const float eg_soft_srgb8_to_linear[256];
/** n / 31.0f and n / 63.0f: RGB565's channels. */
extern const float eg_soft_unorm5_to_float[32];
extern const float eg_soft_unorm6_to_float[64];
/** log2 / 2^x from plain float operations (no libm): identical on every target; relative error
 *  below 1e-6. */
float eg_soft_log2f(float x);
float eg_soft_exp2f(float y);
/** The format whose texels a view's plane holds, as eg_soft_texel_decode takes it: the view
 *  format for color, Depth16Unorm / Depth32Float for depth (Depth24Plus* included), Stencil8 for
 *  a stencil aspect. */
WGPUTextureFormat eg_soft_view_plane_format(const eg_texture_view_t *view);

#endif /* EG_SOFT_TEXEL_H */
