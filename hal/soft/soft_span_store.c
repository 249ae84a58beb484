/* hal/soft span path stores that need no per-pixel shading: texel copies, constant rows, shared colors.
 *
 * soft_span.c's row loop calls these (soft_span_int.h); each gives the bytes of the per-chunk path
 * it replaces, for the reasons stated at each function (helper "ui", session 5, except the texel
 * copy, moved here from soft_span.c).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_span_int.h"
#include "hal/soft/soft_texel.h"
#include "kernel/base/util.h"

static inline uint8_t to_unorm8(float v) { return (uint8_t)(int32_t)(clamp01(v) * 255.0f + 0.5f); }

/* ---- one shared source color (helper "ui", session 5) ---- */

static inline uint32_t f2u(float f) { union { float f; uint32_t u; } c = { f }; return c.u; }

/* blend16 then the store's conversion for one lane: s = the clamped source, sf / df its factors,
 * d the unpacked stored value (the same operations in the same order, so the same bits). */
static inline uint32_t shared_chan(float s, float sf, float df, float d, float max)
{
    float v = s * sf + d * df;
    return (uint32_t)(int32_t)(clamp01(v) * max + 0.5f);
}

/* skip_clear pipelines (see all_clear): a lane whose source alpha clamps to 0 keeps its stored
 * bytes, and when all other lanes of the chunk share one source color (glyph quads: white times
 * a coverage of 0 or 1; flat shapes) their result is a function of the stored pixel alone:
 * computed once per run of equal stored pixels, as eg_soft_blend_const does for blocks. Returns
 * the lanes left untouched, or SHARED_NO (nothing written) when the colors differ. bpp 2: RGB565,
 * 4: 8-bit with R and B swapped when bgra. */
uint32_t eg_soft_span_blend_shared(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c,
                                   uint32_t bpp, bool bgra)
{
    uint32_t first = 0;
    while (first < n && !(c->c[3].f[first] > 0.0f)) first++;
    uint32_t b[4] = { f2u(c->c[0].f[first]), f2u(c->c[1].f[first]), f2u(c->c[2].f[first]), f2u(c->c[3].f[first]) };
    uint32_t diff = 0;
    for (uint32_t i = first + 1u; i < n; i++)
        if (c->c[3].f[i] > 0.0f)
            diff |= (f2u(c->c[0].f[i]) ^ b[0]) | (f2u(c->c[1].f[i]) ^ b[1]) | (f2u(c->c[2].f[i]) ^ b[2]) | (f2u(c->c[3].f[i]) ^ b[3]);
    if (diff) return SHARED_NO;
    float s[4], sf[4], df[4];
    for (uint32_t ch = 0; ch < 4u; ch++) s[ch] = clamp01(c->c[ch].f[first]);
    for (uint32_t ch = 0; ch < 4u; ch++) {
        bool sa = ch == 3u ? sp->sa_a : sp->sa_c, inv = ch == 3u ? sp->inv_a : sp->inv_c;
        sf[ch] = sa ? s[3] : 1.0f;
        df[ch] = inv ? 1.0f - s[3] : 0.0f;
    }
    uint32_t skipped = first, last_in = 0, last_out = 0;
    bool have = false;
    for (uint32_t i = first; i < n; i++) {
        uint8_t *p = px + (size_t)i * bpp;
        if (!(c->c[3].f[i] > 0.0f)) { skipped++; continue; }
        uint32_t v = bpp == 2u ? (uint32_t)p[0] | (uint32_t)p[1] << 8
                               : (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        if (!have || v != last_in) {
            last_in = v;
            have = true;
            if (bpp == 2u) {
                last_out = shared_chan(s[0], sf[0], df[0], (float)(v >> 11) * (1.0f / 31.0f), 31.0f) << 11 |
                           shared_chan(s[1], sf[1], df[1], (float)(v >> 5 & 63u) * (1.0f / 63.0f), 63.0f) << 5 |
                           shared_chan(s[2], sf[2], df[2], (float)(v & 31u) * (1.0f / 31.0f), 31.0f);
            } else {
                uint32_t sr = bgra ? 16u : 0u, sb = bgra ? 0u : 16u;
                last_out = shared_chan(s[0], sf[0], df[0], (float)(v >> sr & 255u) * (1.0f / 255.0f), 255.0f) << sr |
                           shared_chan(s[1], sf[1], df[1], (float)(v >> 8 & 255u) * (1.0f / 255.0f), 255.0f) << 8 |
                           shared_chan(s[2], sf[2], df[2], (float)(v >> sb & 255u) * (1.0f / 255.0f), 255.0f) << sb |
                           shared_chan(s[3], sf[3], df[3], (float)(v >> 24) * (1.0f / 255.0f), 255.0f) << 24;
            }
        }
        p[0] = (uint8_t)last_out;
        p[1] = (uint8_t)(last_out >> 8);
        if (bpp == 4u) { p[2] = (uint8_t)(last_out >> 16); p[3] = (uint8_t)(last_out >> 24); }
    }
    return skipped;
}

/* ---- texel copy: output = the sampled texel, stored without blending ---- */

/* The texel copy stores texel bytes unchanged, which equals decode + store only when every
 * stored value converts back to itself: checked here over all 8-, 6- and 5-bit values with the
 * very conversions of the sampler (tables) and of the stores above, not assumed. */
bool eg_soft_span_unorm_round_trips(void)
{
    for (uint32_t q = 0; q < 256u; q++)
        if (to_unorm8(eg_soft_unorm8_to_float[q]) != q) return false;
    for (uint32_t q = 0; q < 32u; q++)
        if ((uint32_t)(clamp01(eg_soft_unorm5_to_float[q]) * 31.0f + 0.5f) != q) return false;
    for (uint32_t q = 0; q < 64u; q++)
        if ((uint32_t)(clamp01(eg_soft_unorm6_to_float[q]) * 63.0f + 0.5f) != q) return false;
    return true;
}

/* The blend stores' unpack then pack of every stored code gives the code back (skip_clear). */
bool eg_soft_span_dst_round_trips(WGPUTextureFormat fmt)
{
    if (fmt != EG_FORMAT_RGB565_VALUE) {
        for (uint32_t q = 0; q < 256u; q++)
            if (to_unorm8((float)q * (1.0f / 255.0f)) != q) return false;
        return true;
    }
    for (uint32_t q = 0; q < 64u; q++) {
        if (q < 32u && (uint32_t)(clamp01((float)q * (1.0f / 31.0f)) * 31.0f + 0.5f) != q) return false;
        if ((uint32_t)(clamp01((float)q * (1.0f / 63.0f)) * 63.0f + 0.5f) != q) return false;
    }
    return true;
}

/* Texel format -> target format pairs the copy handles: 1 same bytes (4), 2 same bytes (2,
 * RGB565), 3 R and B swapped (RGBA8 <-> BGRA8); 0 none. */
uint32_t eg_soft_span_texcopy_kind(WGPUTextureFormat target, WGPUTextureFormat texel)
{
    bool t8 = target == WGPUTextureFormat_RGBA8Unorm || target == WGPUTextureFormat_BGRA8Unorm;
    bool x8 = texel == WGPUTextureFormat_RGBA8Unorm || texel == WGPUTextureFormat_BGRA8Unorm;
    if (t8 && x8) return target == texel ? 1u : 3u;
    if (target == EG_FORMAT_RGB565_VALUE && texel == EG_FORMAT_RGB565_VALUE) return 2u;
    return 0u;
}

/* ---- constant rows (helper "ui", session 5) ---- */

static const float rowc_max8[4] = { 255.0f, 255.0f, 255.0f, 255.0f }, rowc_max565[4] = { 31.0f, 63.0f, 31.0f, 0.0f };

/* The stored code of one value: the stores' conversion (quantize / store8_simd / store_565). */
static inline uint32_t row_code(float v, float max) { return (uint32_t)(int32_t)(clamp01(v) * max + 0.5f); }

/* `bytes` bytes (whole pixels of e = 2 or 4 bytes) at px, each pixel the bytes b[0, e): the
 * first pixels stored, then the filled part copied after itself, doubling (the pixel by pixel
 * byte stores were ~4 instructions a pixel, ~9 M of the UI row's gradient background; glyph9). */
static void row_fill(uint8_t *px, uint32_t bytes, const uint8_t *b, uint32_t e)
{
    uint32_t done = bytes < 16u ? bytes : 16u;
    for (uint32_t i = 0; i < done; i++) px[i] = b[i % e];
    for (; done < bytes; done *= 2u) eg_memcpy(px + done, px, bytes - done < done ? bytes - done : done);
}

/* The codes q (R, G, B, A) as one pixel in the target's byte order (sp->rowconst), as a
 * little-endian word: row_store's bytes. */
static inline uint32_t row_pixel(const eg_soft_span_pipe_t *sp, const uint32_t q[4])
{
    if (sp->rowconst == ROWC_565) return q[0] << 11 | q[1] << 5 | q[2];
    bool bgra = sp->rowconst == ROWC_BGRA8;
    return (bgra ? q[2] : q[0]) | q[1] << 8 | (bgra ? q[0] : q[2]) << 16 | q[3] << 24;
}

/* n pixels at px of the codes q (R, G, B, A) in the target's byte order (sp->rowconst). */
static void row_store(const eg_soft_span_pipe_t *sp, const uint32_t q[4], uint8_t *px, uint32_t n)
{
    uint8_t b[4];
    if (sp->rowconst == ROWC_565) {
        uint32_t w = q[0] << 11 | q[1] << 5 | q[2];
        b[0] = (uint8_t)w; b[1] = (uint8_t)(w >> 8);
        row_fill(px, n * 2u, b, 2u);
        return;
    }
    bool bgra = sp->rowconst == ROWC_BGRA8;
    b[bgra ? 2 : 0] = (uint8_t)q[0]; b[1] = (uint8_t)q[1]; b[bgra ? 0 : 2] = (uint8_t)q[2]; b[3] = (uint8_t)q[3];
    row_fill(px, n * 4u, b, 4u);
}

/* Pixels [x0, x1) of row y of a copy-class triangle without blending: when every channel's
 * stored code provably is one value over the segment, stores that pixel x1 - x0 times and
 * returns true. The values are bounded without interpolating them (soft_raster_bound.c) and
 * the conversion clamp01(v) * max + 0.5, truncated, is monotone in v, so equal codes at the
 * bounds mean equal codes in every pixel: the bytes of the per-chunk path. Gradients and flat
 * fills are constant over most rows once quantized. */
static bool row_const_codes(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, int64_t x0,
                            int64_t x1, int64_t y, uint32_t q[4])
{
    int64_t bx0 = x0 & ~(int64_t)3, bx1 = (x1 - 1) & ~(int64_t)3;
    eg_soft_pxset_t p = { bx0, bx1, y & ~(int64_t)3, y & ~(int64_t)3, bx0 == bx1 ? (uint32_t)(x0 & 3) : 0u,
                          bx0 == bx1 ? (uint32_t)((x1 - 1) & 3) : 3u, (uint32_t)(y & 3), (uint32_t)(y & 3) };
    eg_soft_wbound_t wb = { { { 0.0f, 0.0f }, { 0.0f, 0.0f } }, { { 0.0f, 0.0f }, { 0.0f, 0.0f } }, false };
    /* values fixed for the triangle (span_value_fixed: a0 in every stored lane) need no bound */
    if (!eg_soft_span_all_fixed(sp, k) && !eg_soft_weights_bound(f, &p, sp->any_persp, &wb)) return false;
    const float *mx = sp->rowconst == ROWC_565 ? rowc_max565 : rowc_max8;
    eg_soft_affine_t ac;   /* the row's corner weights: once for every channel (glyph9) */
    ac.state = 0;
    for (uint32_t c = 0; c < 4u; c++) {
        uint32_t src = sp->cls.src[c];
        if (mx[c] == 0.0f) { q[c] = 0; continue; }   /* RGB565 stores no alpha */
        if (src & EG_SOFT_SPAN_CONST) {
            union { uint32_t u; float f; } b = { sp->cls.src_bits[c] };
            q[c] = row_code(b.f, mx[c]);
            continue;
        }
        uint32_t v = sp->val_of_slot[src];
        if (k->fixed >> v & 1u) {
            q[c] = row_code(k->a0[v], mx[c]);
            continue;
        }
        eg_soft_range_t r;
        if (!eg_soft_vary_bound_best_ac(f, &p, &wb, &ac, sp->interp[v], k->a0[v], k->dv1[v], k->dv2[v], &r)) return false;
        q[c] = row_code(r.lo, mx[c]);
        if (row_code(r.hi, mx[c]) != q[c]) return false;
    }
    return true;
}

bool eg_soft_span_row_const(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, int64_t x0,
                            int64_t x1, int64_t y, uint8_t *px)
{
    uint32_t q[4];
    if (!row_const_codes(f, sp, k, x0, x1, y, q)) return false;
    row_store(sp, q, px, (uint32_t)(x1 - x0));
    return true;
}

bool eg_soft_span_row_const_pixel(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, int64_t x0,
                                  int64_t x1, int64_t y, uint32_t *pixel)
{
    uint32_t q[4];
    if (!row_const_codes(f, sp, k, x0, x1, y, q)) return false;
    *pixel = row_pixel(sp, q);
    return true;
}

/* ---- constant rows from one bound a triangle (lead, session 13) ----
 *
 * eg_soft_span_row_const bounds each row's values anew (weights, affine corners, ~1.6 k
 * instructions a row: 7.8 M of the UI bench's gradient background over 5 frames). Its affine
 * bound (soft_raster_bound.c, the comment above eg_soft_affine_corners) holds for any pixel set:
 * every pixel of the set computes each value within err of the exact affine value V = a0 + d1
 * L1 + d2 L2, with err depending on the set only through m (a bound on |L_i| at its corners) and
 * g (the weights' gradients, the triangle's). So one err for the triangle's whole box holds for
 * every row of it, and a row's values lie within err of V over the row, whose extremes (V is
 * affine) are at the row's two end pixels, computed in double exactly as the bound computes its
 * corners (L = (double)E * inv, E the exact 64-bit edge value; its rounding is inside err).
 * row_code is monotone in the float value, and the bounds are stepped outwards past float
 * rounding (by at least half an ulp), so equal codes at both bounds mean that code in every
 * pixel of the row: eg_soft_span_row_const's bytes. */
uint32_t eg_soft_span_row_quick_px;

static bool rowq_prep(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, span_rowq_t *q)
{
    const float *mx = sp->rowconst == ROWC_565 ? rowc_max565 : rowc_max8;
    const eg_soft_pxset_t p = span_box_corners(q->box[0], q->box[1], q->box[2], q->box[3]);
    eg_soft_affine_t ac;
    ac.state = 0;
    q->nch = 0;
    for (uint32_t c = 0; c < 4u; c++) {
        uint32_t src = sp->cls.src[c];
        q->code[c] = 0;
        if (mx[c] == 0.0f) continue;   /* RGB565 stores no alpha */
        if (src & EG_SOFT_SPAN_CONST) {
            union { uint32_t u; float f; } b = { sp->cls.src_bits[c] };
            q->code[c] = row_code(b.f, mx[c]);
            continue;
        }
        uint32_t v = sp->val_of_slot[src];
        if (k->fixed >> v & 1u) {
            q->code[c] = row_code(k->a0[v], mx[c]);
            continue;
        }
        if (ac.state == 0) eg_soft_affine_corners(f, &p, &ac);
        double err;
        if (!eg_soft_affine_err(f, &ac, sp->interp[v], k->a0[v], k->dv1[v], k->dv2[v], &err) || !(err < 1.0)) return false;
        uint32_t n = q->nch++;
        q->ch[n] = (uint8_t)c;
        q->a0[n] = (double)k->a0[v];
        q->d1[n] = (double)k->dv1[v];
        q->d2[n] = (double)k->dv2[v];
        q->err[n] = err;
    }
    const eg_soft_setup_t *s = &f->s;
    q->inv = (double)s->inv_area2;
    q->A1 = s->A[1]; q->B1 = s->B[1]; q->C1 = s->C[1];
    q->A2 = s->A[2]; q->B2 = s->B[2]; q->C2 = s->C[2];
    return true;
}

/* The float nearest below (above) the double v or further out: v - |v| 2^-23 is at least half a
 * float ulp of v below it, so rounding it to nearest cannot land above v (tiny: past 0). */
static inline float below(double v) { return (float)(v - (v < 0 ? -v : v) * 0x1p-23 - 0x1p-140); }
static inline float above(double v) { return (float)(v + (v < 0 ? -v : v) * 0x1p-23 + 0x1p-140); }

/* open NULL: every channel must be shown one code. Else one channel may stay open (monorow):
 * *open its index (its code[] 0), or -1 when every channel is shown; false with two open. */
static bool row_quick_codes(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, span_rowq_t *q,
                            int64_t x0, int64_t x1, int64_t y, uint32_t code[4], int *open)
{
    if (q->state == 0) q->state = q->box[3] - q->box[2] >= ROWQ_MIN_ROWS && rowq_prep(f, sp, k, q) ? 1 : -1;
    if (q->state < 0) return false;
    const float *mx = sp->rowconst == ROWC_565 ? rowc_max565 : rowc_max8;
    const int64_t S = EG_SOFT_SUBPIX, Y = y * S + S / 2, Xa = x0 * S + S / 2, Xb = (x1 - 1) * S + S / 2;
    const double l1a = (double)(q->A1 * Xa + q->B1 * Y + q->C1) * q->inv, l1b = (double)(q->A1 * Xb + q->B1 * Y + q->C1) * q->inv;
    const double l2a = (double)(q->A2 * Xa + q->B2 * Y + q->C2) * q->inv, l2b = (double)(q->A2 * Xb + q->B2 * Y + q->C2) * q->inv;
    for (uint32_t c = 0; c < 4u; c++) code[c] = q->code[c];
    for (uint32_t n = 0; n < q->nch; n++) {
        double va = q->a0[n] + q->d1[n] * l1a + q->d2[n] * l2a, vb = q->a0[n] + q->d1[n] * l1b + q->d2[n] * l2b;
        double lo = (va < vb ? va : vb) - q->err[n], hi = (va < vb ? vb : va) + q->err[n];
        if (!(lo > -0x1p100 && hi < 0x1p100)) return false;   /* (NaN too) */
        const float m = mx[q->ch[n]];
        uint32_t c = row_code(below(lo), m);
        if (row_code(above(hi), m) != c) {
            if (!open || *open >= 0) return false;
            *open = q->ch[n];
            c = 0;
        }
        code[q->ch[n]] = c;
    }
    if (open && *open >= 0) return true;
    if (f->w == &eg_soft_worker_main) eg_soft_span_row_quick_px += (uint32_t)(x1 - x0);
    return true;
}

bool eg_soft_span_row_quick(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, span_rowq_t *q,
                            int64_t x0, int64_t x1, int64_t y, uint8_t *px)
{
    uint32_t code[4];
    if (!row_quick_codes(f, sp, k, q, x0, x1, y, code, NULL)) return false;
    row_store(sp, code, px, (uint32_t)(x1 - x0));
    return true;
}

bool eg_soft_span_row_quick_pixel(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k,
                                  span_rowq_t *q, int64_t x0, int64_t x1, int64_t y, uint32_t *pixel)
{
    uint32_t code[4];
    if (!row_quick_codes(f, sp, k, q, x0, x1, y, code, NULL)) return false;
    *pixel = row_pixel(sp, code);
    return true;
}

uint32_t eg_soft_span_row_open_px;

bool eg_soft_span_row_quick_open(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k,
                                 span_rowq_t *q, int64_t x0, int64_t x1, int64_t y, uint32_t *pixel, int *open)
{
    uint32_t code[4];
    *open = -1;
    if (!row_quick_codes(f, sp, k, q, x0, x1, y, code, open)) return false;
    *pixel = row_pixel(sp, code);
    return true;
}

/* eg_soft_span_row_const's stored pixel when every value is fixed (no bound is needed, so the
 * codes do not depend on the row): the same codes and byte order, packed once per triangle. */
uint32_t eg_soft_span_fixed_pixel(const eg_soft_span_pipe_t *sp, const span_tri_t *k)
{
    const float *mx = sp->rowconst == ROWC_565 ? rowc_max565 : rowc_max8;
    uint32_t q[4];
    for (uint32_t c = 0; c < 4u; c++) {
        uint32_t src = sp->cls.src[c];
        union { uint32_t u; float f; } b = { sp->cls.src_bits[c] };
        if (mx[c] == 0.0f) q[c] = 0;
        else q[c] = row_code((src & EG_SOFT_SPAN_CONST) ? b.f : k->a0[sp->val_of_slot[src]], mx[c]);
    }
    if (sp->rowconst == ROWC_565) return q[0] << 11 | q[1] << 5 | q[2];
    bool bgra = sp->rowconst == ROWC_BGRA8;
    return (bgra ? q[2] : q[0]) | q[1] << 8 | (bgra ? q[0] : q[2]) << 16 | q[3] << 24;
}

/* Whether constant rows are worth trying on this triangle (a heuristic: the proof decides): no
 * output channel may change by half a code or more across `width` px (Gouraud-shaded small
 * triangles change on every row; gradients and flat fills do not). */
bool eg_soft_span_rows_promising(const eg_soft_span_pipe_t *sp, const span_tri_t *k, int64_t width)
{
    const float *mx = sp->rowconst == ROWC_565 ? rowc_max565 : rowc_max8;
    for (uint32_t c = 0; c < 4u; c++) {
        uint32_t src = sp->cls.src[c];
        if ((src & EG_SOFT_SPAN_CONST) || mx[c] == 0.0f) continue;
        uint32_t v = sp->val_of_slot[src];
        float dx = k->dv1[v] * k->d1x + k->dv2[v] * k->d2x;
        dx = dx < 0.0f ? -dx : dx;
        if (!(dx * (float)width * mx[c] < 0.5f)) return false;
    }
    return true;
}

/* (the fixed values of a triangle: span_fixed_safe / span_value_fixed, soft_span_int.h) */
#endif /* EMGPU_HAL_SOFT */
