/* Helpers shared by the soft span path tests (defined in tests/unit/soft_span_test.c). */
#ifndef EG_SOFT_SPAN_UTIL_H
#define EG_SOFT_SPAN_UTIL_H

#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>

#define S 32u   /* target size: NDC x = px / 16 - 1, y = 1 - py / 16 */
#define SPAN_MAX_VERTS 192u   /* span_render()'s vertex array */

typedef struct svtx {
    float pos[4];
    float uv[2];
    uint8_t color[4];
} svtx_t;

typedef struct run {
    WGPUDevice d;
    const char *fs;
    WGPUTextureFormat fmt;
    const WGPUBlendState *blend;
    uint32_t mips;                /* texture classes: levels of the sampled texture */
    WGPUFilterMode filter;
    bool scissor;
    WGPUTextureFormat tex_fmt;    /* Undefined: RGBA8 */
    const svtx_t *verts;          /* NULL: the test geometry (soft_span_test.c geometry) */
    uint32_t nverts;
    uint32_t tex_size;            /* texture classes: width = height in texels (0: 8, at most S) */
} run_t;

/* The soft device (the fast paths are soft's): the test skips without one. */
#define SOFT_DEVICE_OR_SKIP(d)                                                                     \
    WGPUDevice d = eg_test_device("soft");                                                         \
    if (!d) EG_SKIP("soft backend not compiled in");                                               \
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }

/** The vertex shader of the pipelines span_render makes (span_lin.vert: noperspective colors). */
extern const char *span_vs;
/** The target formats every fast path serves: RGBA8, BGRA8, RGB565. */
extern const WGPUTextureFormat span_fmts[3];
/** Blend states: premultiplied (One, OneMinusSrcAlpha) and straight (SrcAlpha, OneMinusSrcAlpha). */
extern const WGPUBlendState span_premul, span_straight;

/** A vertex at pixel (px, py) of the S x S target with clip w, uv and color. */
svtx_t span_vtx(float px, float py, float w, float u, float v, uint8_t r, uint8_t g, uint8_t b, uint8_t a);
/** The bytes of n texels of the sampled texture (RGBA8, RGB565 when bpp is 2, R8 when 1). */
void span_tex_pattern(uint8_t *px, uint32_t bpp, uint32_t n);
/** Not 0: span_render draws the second half of the triangles, in the same pass, with a second
 *  texture of this size (texture classes; quad8). */
extern uint32_t span_tex_size2;
/** True: span_render's pipeline draws triangle strips, each 4 vertices of r->verts one draw (a
 *  quad's two triangles sharing two vertices, as instanced glyph strips do). */
extern bool span_strip_quads;
/** Not Undefined: the address mode (u and v) of span_render's sampler (else the default,
 *  ClampToEdge). */
extern WGPUAddressMode span_address;
/** Renders r over a patterned clear into a fresh S x S target; img gets the bytes. */
bool span_render(const run_t *r, uint8_t *img, uint32_t bpp);
/** r with the fast paths on and off: a difference is counted in *bad (the first 4 printed with
 *  `what` and the indices i, j); returns whether the span path filled pixels. */
bool span_sweep(const run_t *r, uint32_t *bad, const char *what, uint32_t i, uint32_t j);

#endif /* EG_SOFT_SPAN_UTIL_H */
