/* hal/soft filtered texture sampling over the lanes of a VM block (textureSample* and friends).
 *
 * ALGORITHM: Vulkan "Texel Filtering" / "Image Operations", which WebGPU's sampling follows:
 *   1. LOD. rho_x = |(du/dx, dv/dx, dw/dx)| in texels of the view's base level (likewise y),
 *      lambda = log2(max(rho_x, rho_y)) (+ shader bias, clamped to [-16, 15.99] as WGSL does),
 *      or the explicit lod; then clamped to [lodMinClamp, lodMaxClamp]. Derivatives come from
 *      the lane quads of soft_shader.h (dFdx = v[l|1] - v[l&~1], dFdy = v[l|4] - v[l&~4]).
 *   2. magFilter when lambda <= 0, else minFilter. Level: mipmap nearest takes
 *      ceil(clamp(lambda, 0, q) + 0.5) - 1 (round half down); linear blends floor() and floor()+1.
 *   3. Per level: x = u * width - 0.5 + offset (linear) or u * width + offset (nearest), then the
 *      address mode on the integer texel indices (repeat: mod width; mirror: Vulkan's mirror
 *      function over 2 * width; clamp: [0, width - 1]).
 *   4. Cube: the face and (s, t) from Vulkan's "Cube Map Face Selection" table; ties pick Z, then
 *      Y, then X. Address modes are ignored; linear filtering is seamless (texels beyond an edge
 *      come from the adjacent face, see cube_wrap). Cube LOD uses the neighbour lanes'
 *      directions projected onto this lane's face.
 *   5. Comparison: each texel gives ref OP texel ? 1 : 0 (ref clamped to [0, 1] for the
 *      fixed-point depth formats), filtered with the same weights (PCF).
 *
 * PRECISION (fixed, identical on every target: plain float ops, no FMA contraction under
 * -std=c11, no libm): subtexel weights have 8 fractional bits (like GPUs' subTexelPrecisionBits),
 * LOD and the mip blend factor have 8 fractional bits; bilinear result =
 * t00*w00 + t10*w10 + t01*w01 + t11*w11 evaluated left to right with exact weights (k / 65536),
 * except 2D filtering of R8/RG8/RGBA8/BGRA8Unorm, done in fixed point (blend_unorm8).
 * Anisotropic filtering is not done: maxAnisotropy is treated as 1 (allowed by the spec's
 * "implementation may clamp").
 *
 * FAST PATH: 2D views with one mip level, RGBA8Unorm / BGRA8Unorm / R8Unorm / RGB565, clamp-to-edge
 * on u and v, magFilter == minFilter, no comparison: one tight loop per (format, filter), no
 * per-lane calls. It computes bit-for-bit what the general path computes (same helpers), on the
 * view's base array layer. The span path (soft_span.h) sets this path up once per triangle
 * (eg_soft_sample2d_prep) and calls the same inlined loops per row chunk. The vector loops
 * (8-bit RGBA / BGRA bilinear, nearest texel offsets) are in soft_sample_vec.c.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_sample_int.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm_simd.h"
#include "kernel/api/texture.h"

uint32_t eg_soft_sample_vw = 8u;

/* ---- scalar helpers shared by both paths ---- */

static inline int32_t floor_i(float x)        /* |x| < 2^30 (callers clamp first) */
{
    int32_t t = (int32_t)x;
    return (float)t > x ? t - 1 : t;
}
static inline float clampf(float x, float lo, float hi) { return x > lo ? (x < hi ? x : hi) : lo; }
static inline float fract_period(float u, float period)    /* u mod period, in [0, period] */
{
    float q = u / period;
    if (!(q > -8388608.0f && q < 8388608.0f)) return 0.0f;   /* NaN, or no fraction left */
    return u - (float)floor_i(q) * period;
}


static inline uint32_t addr_mode(WGPUAddressMode m)
{
    return m == WGPUAddressMode_Repeat ? ADDR_REPEAT : m == WGPUAddressMode_MirrorRepeat ? ADDR_MIRROR
                                                                                          : ADDR_CLAMP;
}

static inline int32_t wrap_i(int32_t i, int32_t n, uint32_t mode)
{
    if (mode == ADDR_CLAMP) return i < 0 ? 0 : i >= n ? n - 1 : i;
    if (mode == ADDR_CUBE) return i < -1 ? -1 : i > n ? n : i;
    if (mode == ADDR_REPEAT) { i %= n; return i < 0 ? i + n : i; }
    int32_t t = i % (2 * n);                                  /* Vulkan mirror over 2n */
    if (t < 0) t += 2 * n;
    return t >= n ? 2 * n - 1 - t : t;
}

/* One axis of one level: texel indices i0, i1 and the weight of i1 in 1/256 units. */
typedef struct axis { int32_t i0, i1; uint32_t w1; } axis_t;

static EG_ALWAYS_INLINE void axis_setup(float u, int32_t n, int32_t off, uint32_t mode, bool linear, axis_t *a)
{
    if (mode == ADDR_REPEAT) u = fract_period(u, 1.0f);
    else if (mode == ADDR_MIRROR) u = fract_period(u, 2.0f);
    float x = u * (float)n + (float)off - (linear ? 0.5f : 0.0f);
    x = clampf(x, -1.0f - 16.0f, (float)(2 * n) + 16.0f);     /* keep the fixed point in range */
    int32_t fx = floor_i(x * 256.0f);
    int32_t i = fx >= 0 ? fx / 256 : -((-fx + 255) / 256);
    a->w1 = linear ? (uint32_t)(fx - i * 256) : 0u;
    a->i0 = wrap_i(i, n, mode);
    a->i1 = linear ? wrap_i(i + 1, n, mode) : a->i0;
}

/* ---- per-call state ---- */

#define MAX_LEVELS 16

typedef struct sctx {
    const eg_texture_t *tex;
    WGPUTextureAspect aspect;
    WGPUTextureFormat fmt;            /* the plane format decoded */
    WGPUTextureViewDimension dim;
    uint32_t base_mip, mips, base_layer, layers;
    uint32_t addr[3];
    bool mag_linear, min_linear, mip_linear, integer;
    uint8_t unorm8_ch;                /* R8/RG8/RGBA8/BGRA8Unorm: channels filtered in fixed point */
    bool unorm8_bgra;
    float lod_min, lod_max;
    WGPUCompareFunction compare;      /* Undefined: none */
    bool clamp_ref;
    uint32_t have;                    /* bit per cached level */
    eg_soft_subres_t lv[MAX_LEVELS];
} sctx_t;

WGPUTextureFormat eg_soft_view_plane_format(const eg_texture_view_t *view)
{
    const eg_texture_t *t = view->texture;
    if (!(t->fi->aspects & (EG_ASPECT_DEPTH | EG_ASPECT_STENCIL))) return view->format;
    if (view->aspect == WGPUTextureAspect_StencilOnly || !(t->fi->aspects & EG_ASPECT_DEPTH))
        return WGPUTextureFormat_Stencil8;
    return t->format == WGPUTextureFormat_Depth16Unorm ? WGPUTextureFormat_Depth16Unorm
                                                       : WGPUTextureFormat_Depth32Float;
}

static const eg_soft_subres_t *level(sctx_t *c, uint32_t l)
{
    if (!(c->have & (1u << l))) {
        eg_soft_subresource(c->tex, c->aspect, c->base_mip + l, &c->lv[l]);
        c->have |= 1u << l;
    }
    return &c->lv[l];
}

static void ctx_init(sctx_t *c, const eg_soft_sample_op_t *op)
{
    const eg_texture_view_t *v = op->view;
    const WGPUSamplerDescriptor *sd = &op->sampler->desc;
    c->tex = v->texture;
    c->aspect = v->aspect;
    c->fmt = eg_soft_view_plane_format(v);
    c->dim = v->dimension;
    c->base_mip = v->base_mip_level;
    c->mips = eg_min_u32(v->mip_level_count, MAX_LEVELS);
    c->base_layer = v->base_array_layer;
    c->layers = v->array_layer_count;
    c->addr[0] = addr_mode(sd->addressModeU);
    c->addr[1] = addr_mode(sd->addressModeV);
    c->addr[2] = addr_mode(sd->addressModeW);
    WGPUTextureSampleType st = v->fi->sample_type;
    c->integer = (st == WGPUTextureSampleType_Uint || st == WGPUTextureSampleType_Sint) &&
                 c->fmt != WGPUTextureFormat_Depth16Unorm && c->fmt != WGPUTextureFormat_Depth32Float;
    c->mag_linear = sd->magFilter == WGPUFilterMode_Linear && !c->integer;
    c->min_linear = sd->minFilter == WGPUFilterMode_Linear && !c->integer;
    c->mip_linear = sd->mipmapFilter == WGPUMipmapFilterMode_Linear && !c->integer;
    c->lod_min = sd->lodMinClamp;
    c->lod_max = sd->lodMaxClamp;
    c->compare = op->compare ? sd->compare : WGPUCompareFunction_Undefined;
    c->clamp_ref = c->tex->format != WGPUTextureFormat_Depth32Float &&
                   c->tex->format != WGPUTextureFormat_Depth32FloatStencil8;
    c->have = 0;
    c->unorm8_ch = 0;
    c->unorm8_bgra = c->fmt == WGPUTextureFormat_BGRA8Unorm;
    if (c->compare == WGPUCompareFunction_Undefined) {
        if (c->fmt == WGPUTextureFormat_R8Unorm) c->unorm8_ch = 1;
        else if (c->fmt == WGPUTextureFormat_RG8Unorm) c->unorm8_ch = 2;
        else if (c->fmt == WGPUTextureFormat_RGBA8Unorm || c->unorm8_bgra) c->unorm8_ch = 4;
    }
}

/* ---- cube faces ---- */

/* Vulkan "Cube Map Face Selection": face (layer 0..5 = +X -X +Y -Y +Z -Z), then sc, tc, ma. */
static inline uint32_t cube_face(const float r[3])
{
    float ax = r[0] < 0 ? -r[0] : r[0], ay = r[1] < 0 ? -r[1] : r[1], az = r[2] < 0 ? -r[2] : r[2];
    if (az >= ax && az >= ay) return r[2] < 0 ? 5u : 4u;
    if (ay >= ax) return r[1] < 0 ? 3u : 2u;
    return r[0] < 0 ? 1u : 0u;
}

/* (s, t) of direction r on `face` (r need not have its major axis there: used for the
 * neighbours of a lane when differentiating). */
static inline void cube_st(uint32_t face, const float r[3], float st[2])
{
    float sc, tc, ma;
    switch (face) {
    case 0:  sc = -r[2]; tc = -r[1]; ma = r[0]; break;
    case 1:  sc = r[2];  tc = -r[1]; ma = -r[0]; break;
    case 2:  sc = r[0];  tc = r[2];  ma = r[1]; break;
    case 3:  sc = r[0];  tc = -r[2]; ma = -r[1]; break;
    case 4:  sc = r[0];  tc = -r[1]; ma = r[2]; break;
    default: sc = -r[0]; tc = -r[1]; ma = -r[2]; break;
    }
    float inv = ma > 0.0f ? 0.5f / ma : 0.0f;
    st[0] = sc * inv + 0.5f;
    st[1] = tc * inv + 0.5f;
}

/* Direction of the centre of texel (x, y) of `face` (size texels square); x or y may be -1 or
 * size, one texel beyond the face: the inverse of the table above. */
static inline void cube_dir(uint32_t face, int32_t x, int32_t y, int32_t size, float r[3])
{
    float inv = 2.0f / (float)size;
    float sc = ((float)x + 0.5f) * inv - 1.0f, tc = ((float)y + 0.5f) * inv - 1.0f;
    switch (face) {
    case 0:  r[0] = 1.0f;  r[1] = -tc;   r[2] = -sc;  break;
    case 1:  r[0] = -1.0f; r[1] = -tc;   r[2] = sc;   break;
    case 2:  r[0] = sc;    r[1] = 1.0f;  r[2] = tc;   break;
    case 3:  r[0] = sc;    r[1] = -1.0f; r[2] = -tc;  break;
    case 4:  r[0] = sc;    r[1] = -tc;   r[2] = 1.0f; break;
    default: r[0] = -sc;   r[1] = -tc;   r[2] = -1.0f; break;
    }
}

/* Seamless cube filtering (Vulkan "Cube Map Edge Handling"): a filter texel beyond a face edge is
 * taken from the adjacent face, found by re-running face selection on that texel's direction.
 * The mapping lands exactly on the neighbour's edge row (texel k from the corner maps to
 * floor((size - k) * size / (size + 1)) = size - k - 1). Corner texels (beyond both edges) take
 * the texel that face selection of their direction gives (ties: Z, then Y, then X). */
static inline void cube_wrap(uint32_t *slice, int32_t *x, int32_t *y, int32_t size)
{
    if (*x >= 0 && *x < size && *y >= 0 && *y < size) return;
    uint32_t face = *slice % 6u, first = *slice - face;      /* cube layers are 6-aligned */
    float r[3], st[2];
    cube_dir(face, *x, *y, size, r);
    uint32_t nf = cube_face(r);
    cube_st(nf, r, st);
    int32_t nx = floor_i(clampf(st[0], 0.0f, 1.0f) * (float)size), ny = floor_i(clampf(st[1], 0.0f, 1.0f) * (float)size);
    *x = nx < size ? nx : size - 1;
    *y = ny < size ? ny : size - 1;
    *slice = first + nf;
}

/* ---- texel fetch and filtering ---- */

static inline bool compare_pass(WGPUCompareFunction f, float ref, float d)
{
    switch (f) {
    case WGPUCompareFunction_Never:        return false;
    case WGPUCompareFunction_Less:         return ref < d;
    case WGPUCompareFunction_Equal:        return ref == d;
    case WGPUCompareFunction_LessEqual:    return ref <= d;
    case WGPUCompareFunction_Greater:      return ref > d;
    case WGPUCompareFunction_NotEqual:     return ref != d;
    case WGPUCompareFunction_GreaterEqual: return ref >= d;
    default:                               return true;      /* Always */
    }
}

static inline const uint8_t *texel_ptr(const sctx_t *c, const eg_soft_subres_t *s, uint32_t slice,
                                       int32_t x, int32_t y)
{
    if (c->dim == WGPUTextureViewDimension_Cube || c->dim == WGPUTextureViewDimension_CubeArray)
        cube_wrap(&slice, &x, &y, (int32_t)s->width_el);
    return s->base + (size_t)slice * s->slice_pitch_B + (size_t)y * s->row_pitch_B + (size_t)x * s->element_B;
}

/* 8-bit unorm bilinear in fixed point, as texture units do: S = sum c_i * W_i with integer
 * weights W_i = wx * wy (8-bit each, sum 65536) is exact, then one scale: S * (1 / (255 * 65536)).
 * Shared by the general path and the fast path, so both give the same bits. */
/* UNORM8_SCALE (soft_sample_int.h) = 1 / (255 * 65536) */
static inline void blend_unorm8(const uint8_t *p00, const uint8_t *p10, const uint8_t *p01,
                                const uint8_t *p11, uint32_t wx, uint32_t wy, uint32_t n, bool bgra,
                                float o[4])
{
    uint32_t w00 = (256u - wx) * (256u - wy), w10 = wx * (256u - wy), w01 = (256u - wx) * wy, w11 = wx * wy;
#if defined(VM_SIMD_NATIVE)    /* emulated vectors (Cortex-M) would not pay off */
    if (n == 4u) {
        /* the 4 channels at once, in float: every product and partial sum is an integer below
         * 2^24 (255 * 65536), so each is exact and the sum equals the scalar integer sum; then
         * the same single scaling rounding */
        typedef uint8_t b4_t __attribute__((vector_size(4)));
        typedef int32_t i4_t __attribute__((vector_size(16)));
        typedef float f4_t __attribute__((vector_size(16)));
        b4_t b00, b10, b01, b11;
        __builtin_memcpy(&b00, p00, 4); __builtin_memcpy(&b10, p10, 4);
        __builtin_memcpy(&b01, p01, 4); __builtin_memcpy(&b11, p11, 4);
        f4_t f = __builtin_convertvector(__builtin_convertvector(b00, i4_t), f4_t) * (float)w00 +
                 __builtin_convertvector(__builtin_convertvector(b10, i4_t), f4_t) * (float)w10 +
                 __builtin_convertvector(__builtin_convertvector(b01, i4_t), f4_t) * (float)w01 +
                 __builtin_convertvector(__builtin_convertvector(b11, i4_t), f4_t) * (float)w11;
        f = f * UNORM8_SCALE;
        __builtin_memcpy(o, &f, 16);
        if (bgra) { float t = o[0]; o[0] = o[2]; o[2] = t; }
        return;
    }
#endif
    o[1] = o[2] = 0.0f;
    o[3] = 1.0f;
    for (uint32_t k = 0; k < n; k++)
        o[k] = (float)(p00[k] * w00 + p10[k] * w10 + p01[k] * w01 + p11[k] * w11) * UNORM8_SCALE;
    if (bgra) { float t = o[0]; o[0] = o[2]; o[2] = t; }
}

static inline void fetch(const sctx_t *c, const eg_soft_subres_t *s, uint32_t slice, int32_t x,
                         int32_t y, float ref, eg_soft_texel_t *t)
{
    eg_soft_texel_decode(c->fmt, texel_ptr(c, s, slice, x, y), t);
    if (c->compare != WGPUCompareFunction_Undefined) {
        t->f[0] = compare_pass(c->compare, ref, t->f[0]) ? 1.0f : 0.0f;
        t->f[1] = t->f[2] = 0.0f;
        t->f[3] = 1.0f;
    }
}

/* acc += t * w (4 channels); the order of calls fixes the rounding. */
static inline void madd(eg_soft_texel_t *acc, const eg_soft_texel_t *t, float w)
{
    for (int k = 0; k < 4; k++) acc->f[k] = acc->f[k] + t->f[k] * w;
}

/* Samples one level at normalized (u, v, w) of 2D/array slice `slice` (3D: w is used). */
static void sample_level(sctx_t *c, uint32_t l, const float uvw[3], uint32_t slice,
                         const int32_t *off, bool linear, float ref, eg_soft_texel_t *out)
{
    const eg_soft_subres_t *s = level(c, l);
    bool cube = c->dim == WGPUTextureViewDimension_Cube || c->dim == WGPUTextureViewDimension_CubeArray;
    axis_t ax, ay, az;
    uint32_t cube_mode = linear ? ADDR_CUBE : ADDR_CLAMP;
    axis_setup(uvw[0], (int32_t)s->width_el, off ? off[0] : 0, cube ? cube_mode : c->addr[0], linear, &ax);
    axis_setup(uvw[1], (int32_t)s->height_el, off ? off[1] : 0, cube ? cube_mode : c->addr[1], linear, &ay);
    bool is3d = c->dim == WGPUTextureViewDimension_3D;
    if (is3d) axis_setup(uvw[2], (int32_t)s->layers, off ? off[2] : 0, c->addr[2], linear, &az);
    else az.i0 = az.i1 = (int32_t)slice, az.w1 = 0;
    if (!linear) { fetch(c, s, (uint32_t)az.i0, ax.i0, ay.i0, ref, out); return; }
    if (c->unorm8_ch && !is3d) {
        uint32_t z = (uint32_t)az.i0;
        blend_unorm8(texel_ptr(c, s, z, ax.i0, ay.i0), texel_ptr(c, s, z, ax.i1, ay.i0),
                     texel_ptr(c, s, z, ax.i0, ay.i1), texel_ptr(c, s, z, ax.i1, ay.i1), ax.w1, ay.w1,
                     c->unorm8_ch, c->unorm8_bgra, out->f);
        return;
    }
    eg_soft_texel_t t;
    out->f[0] = out->f[1] = out->f[2] = out->f[3] = 0.0f;
    uint32_t wz0 = is3d ? 256u - az.w1 : 256u, wz1 = is3d ? az.w1 : 0u;
    for (uint32_t zi = 0; zi < 2; zi++) {
        uint32_t wz = zi ? wz1 : wz0;
        if (!wz) continue;
        int32_t z = zi ? az.i1 : az.i0;
        float scale = is3d ? 1.0f / 16777216.0f : 1.0f / 65536.0f;
        uint32_t wzs = is3d ? wz : 1u;
        fetch(c, s, (uint32_t)z, ax.i0, ay.i0, ref, &t);
        madd(out, &t, (float)((256u - ax.w1) * (256u - ay.w1) * wzs) * scale);
        fetch(c, s, (uint32_t)z, ax.i1, ay.i0, ref, &t);
        madd(out, &t, (float)(ax.w1 * (256u - ay.w1) * wzs) * scale);
        fetch(c, s, (uint32_t)z, ax.i0, ay.i1, ref, &t);
        madd(out, &t, (float)((256u - ax.w1) * ay.w1 * wzs) * scale);
        fetch(c, s, (uint32_t)z, ax.i1, ay.i1, ref, &t);
        madd(out, &t, (float)(ax.w1 * ay.w1 * wzs) * scale);
    }
}

/* ---- LOD ---- */

/* lambda from the texel-space derivative vectors, quantised to 1/256 (NaN -> 0). */
static inline float lod_from_rho2(float rx2, float ry2)
{
    float r2 = rx2 > ry2 ? rx2 : ry2;
    float l = 0.5f * eg_soft_log2f(r2);
    if (l != l) return 0.0f;
    l = clampf(l, -64.0f, 64.0f);
    return (float)floor_i(l * 256.0f) * (1.0f / 256.0f);
}

static inline float lane_reg(const eg_soft_reg_t *r, uint32_t l) { return r ? r->f[l] : 0.0f; }

/* Normalized-coordinate derivatives of lane l along x and y, per component. */
static void lane_derivs(const eg_soft_sample_op_t *op, uint32_t l, uint32_t n, float dx[3], float dy[3])
{
    for (uint32_t k = 0; k < n; k++) {
        if (op->lod_mode == EG_SOFT_LOD_GRAD) {
            dx[k] = lane_reg(op->ddx[k], l);
            dy[k] = lane_reg(op->ddy[k], l);
        } else {
            const eg_soft_reg_t *r = op->coord[k];
            dx[k] = r->f[l | 1u] - r->f[l & ~1u];
            dy[k] = r->f[l | 4u] - r->f[l & ~4u];
        }
    }
}

/* Vulkan "LOD Operation": lambda for lane l before the sampler clamps. */
static float lane_lambda(sctx_t *c, const eg_soft_sample_op_t *op, uint32_t l, const float r[3], uint32_t face)
{
    if (op->lod_mode == EG_SOFT_LOD_EXPLICIT) return lane_reg(op->lod_or_bias, l);
    const eg_soft_subres_t *s0 = level(c, 0);
    float size[3] = { (float)s0->width_el, (float)s0->height_el, (float)s0->layers };
    float dx[3] = { 0, 0, 0 }, dy[3] = { 0, 0, 0 };
    float rx2 = 0.0f, ry2 = 0.0f;
    if (c->dim == WGPUTextureViewDimension_Cube || c->dim == WGPUTextureViewDimension_CubeArray) {
        lane_derivs(op, l, 3, dx, dy);
        float px[3] = { r[0] + dx[0], r[1] + dx[1], r[2] + dx[2] };
        float py[3] = { r[0] + dy[0], r[1] + dy[1], r[2] + dy[2] };
        float st[2], sx[2], sy[2];
        cube_st(face, r, st); cube_st(face, px, sx); cube_st(face, py, sy);
        for (int k = 0; k < 2; k++) {
            float a = (sx[k] - st[k]) * size[0], b = (sy[k] - st[k]) * size[0];
            rx2 = rx2 + a * a; ry2 = ry2 + b * b;
        }
    } else {
        uint32_t n = c->dim == WGPUTextureViewDimension_1D ? 1u : c->dim == WGPUTextureViewDimension_3D ? 3u : 2u;
        lane_derivs(op, l, n, dx, dy);
        for (uint32_t k = 0; k < n; k++) {
            float a = dx[k] * size[k], b = dy[k] * size[k];
            rx2 = rx2 + a * a; ry2 = ry2 + b * b;
        }
    }
    float lambda = lod_from_rho2(rx2, ry2);
    if (op->lod_mode == EG_SOFT_LOD_BIAS) lambda = lambda + clampf(lane_reg(op->lod_or_bias, l), -16.0f, 15.99f);
    return lambda;
}

/* ---- the general path ---- */

static uint32_t layer_index(float a, uint32_t count)
{
    /* WGSL: the array index is rounded to nearest even (Vulkan RNE), clamped to the layers. */
    if (!(a > 0.0f)) return 0;
    if (a >= (float)(count - 1u)) return count - 1u;
    int32_t t = floor_i(a + 0.5f);
    if ((float)t - a == 0.5f && (t & 1)) t--;
    return (uint32_t)t;
}

static void sample_lane(sctx_t *c, const eg_soft_sample_op_t *op, uint32_t l, eg_soft_texel_t *out)
{
    float r[3] = { lane_reg(op->coord[0], l), lane_reg(op->coord[1], l), lane_reg(op->coord[2], l) };
    float uvw[3] = { r[0], r[1], r[2] };
    uint32_t slice = 0, face = 0;
    bool cube = c->dim == WGPUTextureViewDimension_Cube || c->dim == WGPUTextureViewDimension_CubeArray;
    if (cube) {
        face = cube_face(r);
        cube_st(face, r, uvw);
        uint32_t a = c->dim == WGPUTextureViewDimension_CubeArray && op->layer
                         ? layer_index(op->layer->f[l], c->layers / 6u) : 0u;
        slice = c->base_layer + a * 6u + face;
    } else if (c->dim == WGPUTextureViewDimension_2DArray) {
        slice = c->base_layer + (op->layer ? layer_index(op->layer->f[l], c->layers) : 0u);
    } else if (c->dim != WGPUTextureViewDimension_3D) {
        slice = c->base_layer;
        if (c->dim == WGPUTextureViewDimension_1D) uvw[1] = 0.5f;
    }
    float ref = op->compare ? op->compare->f[l] : 0.0f;
    if (c->clamp_ref) ref = clampf(ref, 0.0f, 1.0f);

    float lambda = clampf(lane_lambda(c, op, l, r, face), c->lod_min, c->lod_max);
    bool linear = lambda <= 0.0f ? c->mag_linear : c->min_linear;
    float q = (float)(c->mips - 1u), d = clampf(lambda, 0.0f, q);
    uint32_t l0, l1 = 0, mw = 0;
    if (c->mip_linear) {
        int32_t fl = floor_i(d);
        l0 = (uint32_t)fl;
        l1 = eg_min_u32(l0 + 1u, c->mips - 1u);
        mw = (uint32_t)floor_i((d - (float)fl) * 256.0f);
    } else {
        int32_t rl = floor_i(d + 0.5f);
        if ((float)rl == d + 0.5f) rl--;                       /* ceil(d + 0.5) - 1: half down */
        l0 = rl < 0 ? 0u : (uint32_t)rl;
    }
    sample_level(c, l0, uvw, slice, op->offset, linear, ref, out);
    if (mw && l1 != l0) {
        eg_soft_texel_t hi;
        sample_level(c, l1, uvw, slice, op->offset, linear, ref, &hi);
        float w1 = (float)mw * (1.0f / 256.0f), w0 = 1.0f - w1;
        for (int k = 0; k < 4; k++) out->f[k] = out->f[k] * w0 + hi.f[k] * w1;
    }
}

/* ---- fast paths ---- */

/* fast_fmt_t: soft_sample_int.h */
static inline fast_fmt_t fast_fmt_of(WGPUTextureFormat f)
{
    return f == WGPUTextureFormat_RGBA8Unorm ? FAST_RGBA8 : f == WGPUTextureFormat_BGRA8Unorm ? FAST_BGRA8
         : f == WGPUTextureFormat_R8Unorm ? FAST_R8 : f == EG_FORMAT_RGB565_VALUE ? FAST_RGB565 : FAST_NONE;
}

static fast_fmt_t fast_format(const sctx_t *c, const eg_soft_sample_op_t *op)
{
    const WGPUSamplerDescriptor *sd = &op->sampler->desc;
    if (c->dim != WGPUTextureViewDimension_2D || c->mips != 1 || op->compare || op->offset ||
        c->tex->sample_count != 1 || sd->magFilter != sd->minFilter)
        return FAST_NONE;
    return fast_fmt_of(c->fmt);
}

/* Decodes one texel of a fast format into 4 floats, exactly as eg_soft_texel_decode does. */
static inline void fast_decode(fast_fmt_t f, const uint8_t *p, float o[4])
{
    const float *u8 = eg_soft_unorm8_to_float;
    switch (f) {
    case FAST_RGBA8: o[0] = u8[p[0]]; o[1] = u8[p[1]]; o[2] = u8[p[2]]; o[3] = u8[p[3]]; break;
    case FAST_BGRA8: o[0] = u8[p[2]]; o[1] = u8[p[1]]; o[2] = u8[p[0]]; o[3] = u8[p[3]]; break;
    case FAST_R8:    o[0] = u8[p[0]]; o[1] = 0.0f; o[2] = 0.0f; o[3] = 1.0f; break;
    default: {
        uint32_t h = (uint32_t)p[0] | (uint32_t)p[1] << 8;
        o[0] = eg_soft_unorm5_to_float[h >> 11]; o[1] = eg_soft_unorm6_to_float[(h >> 5) & 63u];
        o[2] = eg_soft_unorm5_to_float[h & 31u]; o[3] = 1.0f;
        break;
    }
    }
}

/* Inlined into each call site of eg_soft_sample with constant (f, linear), so every loop is
 * specialised and carries no format or filter switch. */
static EG_ALWAYS_INLINE void fast_sample(fast_fmt_t f, bool linear, uint32_t mu, uint32_t mv, const eg_soft_subres_t *s,
                               const float *u, const float *v, eg_soft_mask_t mask, eg_soft_vec4_t *out)
{
    const uint8_t *base = s->base;
    uint32_t pitch = s->row_pitch_B, el = s->element_B;
    int32_t w = (int32_t)s->width_el, h = (int32_t)s->height_el;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        axis_t ax, ay;
        axis_setup(u[l], w, 0, mu, linear, &ax);
        axis_setup(v[l], h, 0, mv, linear, &ay);
        const uint8_t *r0 = base + (size_t)ay.i0 * pitch, *r1 = base + (size_t)ay.i1 * pitch;
        float t[4], acc[4];
        if (!linear) {
            fast_decode(f, r0 + (size_t)ax.i0 * el, t);
            for (int k = 0; k < 4; k++) out->c[k].f[l] = t[k];
            continue;
        }
        if (f != FAST_RGB565) {
            blend_unorm8(r0 + (size_t)ax.i0 * el, r0 + (size_t)ax.i1 * el, r1 + (size_t)ax.i0 * el,
                         r1 + (size_t)ax.i1 * el, ax.w1, ay.w1, f == FAST_R8 ? 1u : 4u, f == FAST_BGRA8, t);
            for (int k = 0; k < 4; k++) out->c[k].f[l] = t[k];
            continue;
        }
        float w00 = (float)((256u - ax.w1) * (256u - ay.w1)) * (1.0f / 65536.0f);
        float w10 = (float)(ax.w1 * (256u - ay.w1)) * (1.0f / 65536.0f);
        float w01 = (float)((256u - ax.w1) * ay.w1) * (1.0f / 65536.0f);
        float w11 = (float)(ax.w1 * ay.w1) * (1.0f / 65536.0f);
        fast_decode(f, r0 + (size_t)ax.i0 * el, t);
        for (int k = 0; k < 4; k++) acc[k] = 0.0f + t[k] * w00;
        fast_decode(f, r0 + (size_t)ax.i1 * el, t);
        for (int k = 0; k < 4; k++) acc[k] = acc[k] + t[k] * w10;
        fast_decode(f, r1 + (size_t)ax.i0 * el, t);
        for (int k = 0; k < 4; k++) acc[k] = acc[k] + t[k] * w01;
        fast_decode(f, r1 + (size_t)ax.i1 * el, t);
        for (int k = 0; k < 4; k++) out->c[k].f[l] = acc[k] + t[k] * w11;
    }
}



/* ---- entry ---- */

/* One specialised loop per (format, filter) for clamp-to-edge (UI): the switch runs once per
 * call. Repeat / mirror (textured meshes) share one loop per filter: axis_setup is the general
 * path's, so the texels and weights are the same whatever the mode. */
static void fast_dispatch(fast_fmt_t f, bool linear, uint32_t mu, uint32_t mv, const eg_soft_subres_t *s,
                          const float *u, const float *v, eg_soft_mask_t mask, eg_soft_vec4_t *out)
{
    if (linear && (f == FAST_RGBA8 || f == FAST_BGRA8) && eg_soft_sample_rgba8_vec(f == FAST_BGRA8, mu, mv, s, u, v, mask, out))
        return;
    if (mu != ADDR_CLAMP || mv != ADDR_CLAMP) {
        if (linear && f == FAST_RGBA8 && mu == ADDR_REPEAT && mv == ADDR_REPEAT)
            fast_sample(FAST_RGBA8, true, ADDR_REPEAT, ADDR_REPEAT, s, u, v, mask, out);
        else if (linear && f == FAST_RGBA8) fast_sample(FAST_RGBA8, true, mu, mv, s, u, v, mask, out);
        else if (linear) fast_sample(f, true, mu, mv, s, u, v, mask, out);
        else fast_sample(f, false, mu, mv, s, u, v, mask, out);
        return;
    }
    if (linear) {
        switch (f) {
        case FAST_RGBA8: fast_sample(FAST_RGBA8, true, ADDR_CLAMP, ADDR_CLAMP, s, u, v, mask, out); return;
        case FAST_BGRA8: fast_sample(FAST_BGRA8, true, ADDR_CLAMP, ADDR_CLAMP, s, u, v, mask, out); return;
        case FAST_R8:    fast_sample(FAST_R8, true, ADDR_CLAMP, ADDR_CLAMP, s, u, v, mask, out); return;
        default:         fast_sample(FAST_RGB565, true, ADDR_CLAMP, ADDR_CLAMP, s, u, v, mask, out); return;
        }
    }
    switch (f) {
    case FAST_RGBA8: fast_sample(FAST_RGBA8, false, ADDR_CLAMP, ADDR_CLAMP, s, u, v, mask, out); return;
    case FAST_BGRA8: fast_sample(FAST_BGRA8, false, ADDR_CLAMP, ADDR_CLAMP, s, u, v, mask, out); return;
    case FAST_R8:    fast_sample(FAST_R8, false, ADDR_CLAMP, ADDR_CLAMP, s, u, v, mask, out); return;
    default:         fast_sample(FAST_RGB565, false, ADDR_CLAMP, ADDR_CLAMP, s, u, v, mask, out); return;
    }
}

/* Level 0 of the view's base layer (the fast formats are 2D, one level). */
static void fast_level(sctx_t *c, eg_soft_subres_t *s)
{
    *s = *level(c, 0);
    s->base += (size_t)c->base_layer * s->slice_pitch_B;
}

/* ---- entry ---- */

EG_HOT void eg_soft_sample(const eg_soft_sample_op_t *op, eg_soft_vec4_t *out)
{
    sctx_t c;
    ctx_init(&c, op);
    if (!op->mask || !c.mips || !c.layers) return;
    fast_fmt_t f = fast_format(&c, op);
    if (f != FAST_NONE) {
        eg_soft_subres_t s;
        fast_level(&c, &s);
        fast_dispatch(f, op->sampler->desc.magFilter == WGPUFilterMode_Linear, c.addr[0], c.addr[1], &s,
                      op->coord[0]->f, op->coord[1]->f, op->mask, out);
        return;
    }
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(op->mask >> l & 1u)) continue;
        eg_soft_texel_t t;
        sample_lane(&c, op, l, &t);
        for (int k = 0; k < 4; k++) out->c[k].u[l] = t.u[k];
    }
}

/* ---- eg_soft_sample's fast path set up once (soft_raster.h: the block path, per triangle) ---- */

/* Per triangle: only the fields fast_format / fast_level read, their tests inline (no comparison or
 * offset here; min(count, MAX_LEVELS) == 1 iff count == 1). 330 -> 170 Ir a call. */
bool eg_soft_sample_fast_prep(const eg_texture_view_t *view, const eg_sampler_t *smp, struct eg_soft_sample_fast *p)
{
    const WGPUSamplerDescriptor *sd = &smp->desc;
    const eg_texture_t *tex = view->texture;
    if (!view->array_layer_count || view->dimension != WGPUTextureViewDimension_2D || view->mip_level_count != 1u ||
        tex->sample_count != 1 || sd->magFilter != sd->minFilter)
        return false;
    fast_fmt_t f = fast_fmt_of(eg_soft_view_plane_format(view));
    if (f == FAST_NONE) return false;
    eg_soft_subresource(tex, view->aspect, view->base_mip_level, &p->s);   /* fast_level: level 0 */
    p->s.base += (size_t)view->base_array_layer * p->s.slice_pitch_B;
    p->fmt = (uint8_t)f;
    p->mu = (uint8_t)addr_mode(sd->addressModeU);
    p->mv = (uint8_t)addr_mode(sd->addressModeV);
    p->linear = sd->magFilter == WGPUFilterMode_Linear;
    return true;
}

void eg_soft_sample_fast(const struct eg_soft_sample_fast *p, const float *u, const float *v, eg_soft_mask_t mask,
                         eg_soft_vec4_t *out)
{
    if (!mask) return;
    /* the textured mesh's case first, without fast_dispatch's tests (the same loops) */
    if (p->linear && (p->fmt == FAST_RGBA8 || p->fmt == FAST_BGRA8) &&
        eg_soft_sample_rgba8_vec(p->fmt == FAST_BGRA8, p->mu, p->mv, &p->s, u, v, mask, out))
        return;
    fast_dispatch((fast_fmt_t)p->fmt, p->linear, p->mu, p->mv, &p->s, u, v, mask, out);
}

/* ---- prepared 2D sampling (soft_span.h): the fast path above, set up once per triangle ---- */

bool eg_soft_sample2d_prep(const eg_texture_view_t *view, const eg_sampler_t *smp, eg_soft_sample2d_t *p)
{
    eg_soft_sample_op_t op;
    eg_memset(&op, 0, sizeof op);
    op.view = view;
    op.sampler = smp;
    sctx_t c;
    ctx_init(&c, &op);
    fast_fmt_t f = c.mips && c.layers ? fast_format(&c, &op) : FAST_NONE;
    if (f == FAST_NONE || c.addr[0] != ADDR_CLAMP || c.addr[1] != ADDR_CLAMP) return false;   /* offsets: clamp */
    fast_level(&c, &p->s);
    p->fmt = (uint8_t)f;
    p->linear = smp->desc.magFilter == WGPUFilterMode_Linear;
    p->format = c.fmt;
    return true;
}

/* Nearest filtering over lanes [0, n): the texel offsets 4 lanes at a time
 * (eg_soft_sample2d_offsets: axis_setup's texels), then fast_sample's decode per lane. */
static void sample2d_nearest(const eg_soft_sample2d_t *p, const float *u, const float *v, uint32_t n, eg_soft_vec4_t *out)
{
    uint32_t off[EG_SOFT_LANES];
    float t[4];
    eg_soft_sample2d_offsets(p, u, v, n, off);
    switch ((fast_fmt_t)p->fmt) {
    case FAST_R8:   /* the glyph atlases of UIs */
        for (uint32_t l = 0; l < n; l++) {
            out->c[0].f[l] = eg_soft_unorm8_to_float[p->s.base[off[l]]];
            out->c[1].f[l] = 0.0f;
            out->c[2].f[l] = 0.0f;
            out->c[3].f[l] = 1.0f;
        }
        return;
    default:
        for (uint32_t l = 0; l < n; l++) {
            fast_decode((fast_fmt_t)p->fmt, p->s.base + off[l], t);
            for (int k = 0; k < 4; k++) out->c[k].f[l] = t[k];
        }
        return;
    }
}

void eg_soft_sample2d(const eg_soft_sample2d_t *p, const float *u, const float *v, eg_soft_mask_t mask,
                      eg_soft_vec4_t *out)
{
    if (!p->linear && (mask & (mask + 1u)) == 0u) {   /* lanes [0, n): the span path's chunks */
        uint32_t n = 0;
        while (n < EG_SOFT_LANES && (mask >> n & 1u)) n++;
        sample2d_nearest(p, u, v, n, out);
        return;
    }
    fast_dispatch((fast_fmt_t)p->fmt, p->linear, ADDR_CLAMP, ADDR_CLAMP, &p->s, u, v, mask, out);
}

#endif /* EMGPU_HAL_SOFT */
