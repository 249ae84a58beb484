/* Helpers shared by the soft span path tests (defined in tests/unit/soft_span_test.c). */
#ifndef EG_SOFT_SPAN_UTIL_H
#define EG_SOFT_SPAN_UTIL_H

#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>
#include <string.h>

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
/** Not 0: span_render's target width and height instead of S (img then holds w x h pixels;
 *  r->verts' positions are clip coordinates of that target). */
extern uint32_t span_target_w, span_target_h;
/** Renders r over a patterned clear into a fresh S x S target; img gets the bytes. */
bool span_render(const run_t *r, uint8_t *img, uint32_t bpp);
/** r with the fast paths on and off: a difference is counted in *bad (the first 4 printed with
 *  `what` and the indices i, j); returns whether the span path filled pixels. */
bool span_sweep(const run_t *r, uint32_t *bad, const char *what, uint32_t i, uint32_t j);

/* The quad a (top left), b (top right), e (bottom left), f (bottom right) at v as a strip (4
 * vertices: triangles {0, 1, 2}, {1, 3, 2}, sharing two) or a list (6: the shared positions
 * repeated), with the diagonal a-f when bit 0 of i is set (else b-e) and the winding flipped
 * when bit 1 is; returns the vertex count. */
static inline uint32_t emit_quad(svtx_t *v, svtx_t a, svtx_t b, svtx_t e, svtx_t f, uint32_t i, bool strips)
{
    bool diag = (i & 1u) != 0u, flip = (i & 2u) != 0u;
    if (strips) {
        svtx_t q[4] = { a, b, e, f };
        if (diag) { q[0] = b; q[1] = a; q[2] = f; q[3] = e; }
        if (flip) { svtx_t t = q[1]; q[1] = q[2]; q[2] = t; }
        memcpy(v, q, sizeof q);
        return 4u;
    }
    svtx_t q[6] = { a, b, e, b, f, e };
    if (diag) { q[2] = f; q[3] = a; q[4] = f; q[5] = e; }
    if (flip) { svtx_t t = q[1]; q[1] = q[2]; q[2] = t; t = q[4]; q[4] = q[5]; q[5] = t; }
    memcpy(v, q, sizeof q);
    return 6u;
}

/* An axis-aligned quad of one color c over [x0, x0 + w) x [y0, y0 + h) px at clip w cw, u over
 * [u0, u1] and v over [v0, v1], through emit_quad (i: its diagonal and winding). */
static inline uint32_t rect_quad(svtx_t *v, float x0, float y0, float w, float h, float cw, float u0, float u1, float v0,
                                 float v1, const uint8_t c[4], uint32_t i, bool strips)
{
    svtx_t a = span_vtx(x0, y0, cw, u0, v0, c[0], c[1], c[2], c[3]);
    svtx_t b = span_vtx(x0 + w, y0, cw, u1, v0, c[0], c[1], c[2], c[3]);
    svtx_t e = span_vtx(x0, y0 + h, cw, u0, v1, c[0], c[1], c[2], c[3]);
    svtx_t f = span_vtx(x0 + w, y0 + h, cw, u1, v1, c[0], c[1], c[2], c[3]);
    return emit_quad(v, a, b, e, f, i, strips);
}

/* (tests/unit/soft_span_glyph_test.c) */
/** quads_of's glyph quads through the glyph pair kernel's rect rows, swept over strips and lists,
 *  its 4 variants, every target format, both blends, 4 lanes and the widest width, with and
 *  without the scissor, 1 thread and 2 threads with 8 px squares: differences from the per-lane
 *  pair kernel or the general path counted in *bad; on one thread, where the rect rows did not
 *  run on a board with the pair kernel, *wrong_path (narrow_scissor false: not checked at 4
 *  lanes under the scissor). */
void rect_rows_sweep(WGPUDevice d, uint32_t (*quads_of)(svtx_t *, uint32_t, bool), bool narrow_scissor,
                     uint32_t *bad, uint32_t *wrong_path);

#endif /* EG_SOFT_SPAN_UTIL_H */
