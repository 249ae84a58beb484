/* hal/soft constant-colour blends: a block-constant source over RGB565 / 8-bit rows and rectangles. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_vm_simd.h"

static inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

static inline uint8_t *lane_ptr(const eg_soft_target_t *t, uint8_t *blk, uint32_t l)
{
    return blk + (size_t)(l >> 2) * t->row_pitch_B + (size_t)(l & 3u) * t->elem_B;
}

/* ---- fused blend of a block-constant source (helper "raster", session 4) ---- */

/* One channel of blend_u8_math for a source the same in every lane: sfs = clamp01(s) * sf and df
 * are that function's per-lane values, computed once; the rest is its per-lane expression. */
static inline uint32_t blend_chan(float sfs, float df, int32_t code, float unit, float max)
{
    float v = sfs + (float)code * unit * df;
    float a = v > 0.0f ? v : 0.0f;
    a = a < 1.0f ? a : 1.0f;
    return (uint32_t)(int32_t)(a * max + 0.5f);
}

/* Per channel: clamp01(src) times the src factor, and the dst factor (blend_u8_math's choices). */
static void const_factors_f(const float src[4], uint32_t fast, float sfs[4], float df[4])
{
    float s[4];
    for (uint32_t c = 0; c < 4u; c++) s[c] = clamp01(src[c]);
    for (uint32_t c = 0; c < 4u; c++) {
        bool sa = fast & (c == 3u ? EG_SOFT_BLEND_U8_SA_A : EG_SOFT_BLEND_U8_SA_C);
        bool inv = fast & (c == 3u ? EG_SOFT_BLEND_U8_INV_A : EG_SOFT_BLEND_U8_INV_C);
        sfs[c] = s[c] * (sa ? s[3] : 1.0f);
        df[c] = inv ? 1.0f - s[3] : 0.0f;
    }
}

static void const_factors(const eg_soft_vec4_t *src, uint32_t fast, float sfs[4], float df[4])
{
    const float s[4] = { src->c[0].f[0], src->c[1].f[0], src->c[2].f[0], src->c[3].f[0] };
    const_factors_f(s, fast, sfs, df);
}

/* The stored pixel v (565: 16 bits; 8-bit formats: 4 bytes little-endian) blended with a
 * constant source whose factors are sfs / df: the one per-pixel expression of every constant
 * blend below. */
static inline uint32_t blend_px(const float sfs[4], const float df[4], uint32_t fast, uint32_t v)
{
    if (fast & EG_SOFT_BLEND_U8_565)
        return blend_chan(sfs[0], df[0], (int32_t)(v >> 11), 1.0f / 31.0f, 31.0f) << 11 |
               blend_chan(sfs[1], df[1], (int32_t)(v >> 5 & 63u), 1.0f / 63.0f, 63.0f) << 5 |
               blend_chan(sfs[2], df[2], (int32_t)(v & 31u), 1.0f / 31.0f, 31.0f);
    static const uint8_t rgba[4] = { 0, 1, 2, 3 }, bgra[4] = { 2, 1, 0, 3 };
    const uint8_t *sw = fast & EG_SOFT_BLEND_U8_BGRA ? bgra : rgba;
    uint32_t o = 0;
    for (uint32_t k = 0; k < 4u; k++)
        o |= blend_chan(sfs[k], df[k], (int32_t)(v >> (8u * sw[k]) & 0xffu), 1.0f / 255.0f, 255.0f) << (8u * sw[k]);
    return o;
}

/* A pixel of bpp (2 or 4) bytes, little-endian, in and out. */
static inline uint32_t px_load(const uint8_t *p, uint32_t bpp)
{
    return bpp == 2u ? (uint32_t)p[0] | (uint32_t)p[1] << 8
                     : (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void px_store(uint8_t *p, uint32_t bpp, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    if (bpp == 4u) { p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }
}

/* eg_soft_blend_u8 / eg_soft_blend_565 when every lane of src holds the same value: the result
 * is a function of the stored pixel alone, so runs of equal pixels (flat fills, gradients' rows)
 * reuse the previous pixel's result. Same bytes as the block functions. */
void eg_soft_blend_const(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, const eg_soft_vec4_t *src,
                         uint32_t fast)
{
    float sfs[4], df[4];
    const_factors(src, fast, sfs, df);
    uint32_t last_in = 0, last_out = 0;
    bool have = false;
    uint32_t bpp = fast & EG_SOFT_BLEND_U8_565 ? 2u : 4u;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        uint8_t *p = lane_ptr(t, blk, l);
        uint32_t v = px_load(p, bpp);
        if (!have || v != last_in) {
            last_in = v;
            last_out = blend_px(sfs, df, fast, v);
            have = true;
        }
        px_store(p, bpp, last_out);
    }
}

/* eg_soft_blend_const over every pixel of a w x h px rectangle (helper "ui", session 5): the
 * factors once per rectangle; when every dst factor is 0 the result does not depend on the
 * stored pixel (code * unit * 0 is +0 for every code), so it is computed once and filled. */
void eg_soft_blend_const_rect(const eg_soft_target_t *t, uint8_t *px, uint32_t w, uint32_t h, const eg_soft_vec4_t *src,
                              uint32_t fast)
{
    float sfs[4], df[4];
    const_factors(src, fast, sfs, df);
    bool fill = df[0] == 0.0f && df[1] == 0.0f && df[2] == 0.0f && df[3] == 0.0f;
    uint32_t bpp = fast & EG_SOFT_BLEND_U8_565 ? 2u : 4u, last_in = 0, last_out = blend_px(sfs, df, fast, 0);
    bool have = false;   /* fill: every dst factor is 0, last_out holds for any stored pixel */
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *p = px + (size_t)y * t->row_pitch_B;
        for (uint32_t x = 0; x < w; x++, p += bpp) {
            if (!fill) {
                uint32_t v = px_load(p, bpp);
                if (!have || v != last_in) {
                    last_in = v;
                    last_out = blend_px(sfs, df, fast, v);
                    have = true;
                }
            }
            px_store(p, bpp, last_out);
        }
    }
}

/* ---- proved regions filled row by row (helper "ui", session 6) ---- */

static inline bool differ4(const uint32_t a[4], const uint32_t b[4])
{
    return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3])) != 0u;
}

/* The stored pixel v blended with c's constant source. */
static uint32_t cfill_px(const eg_soft_cfill_t *c, uint32_t v) { return blend_px(c->sfs, c->df, c->fast, v); }

/* rrect9: v blended with c's range source (c->rng); false when the two ends give different
 * bytes. Each lane's source lies in [lo, hi] per channel; blend_chan is sfs + code * unit * df
 * with code * unit >= 0, then a clamp and a truncation: monotone in sfs and df, which are
 * monotone in the clamped source (products of values in [0, 1], 1 - alpha), so the lane's bytes
 * lie between the bytes at the lower factors (sfs of lo, df of hi's alpha) and the upper ones. */
static inline uint32_t quant(float v, float max)   /* blend_chan's tail, monotone in v */
{
    float a = v > 0.0f ? v : 0.0f;
    a = a < 1.0f ? a : 1.0f;
    return (uint32_t)(int32_t)(a * max + 0.5f);
}

/* V(a) = s sf(a) + cu df(a) exactly (doubles: products of two floats are exact), sf(a) = a or 1,
 * df(a) = 1 - a or 0; s = a itself for the alpha channel (sq). */
static inline double rv(double a, double s, double cu, bool sa, bool inv, bool sq)
{
    return (sq ? a : s) * (sa ? a : 1.0) + cu * (inv ? 1.0 - a : 0.0);
}

/* One channel's code for any source in c's range, or -1. The bounds of the factors alone
 * (interval arithmetic) lose that s a and cu (1 - a) move in opposite directions with the
 * alpha a: with one source value s (or the alpha channel), the lane's float result is within
 * 5 half ulps of [0, 2) numbers (< 2^-22) of the exact V(a), which is linear (quadratic for the
 * alpha channel: its vertex cu / 2 counts where inside) in a, so the result lies in
 * [min V - 2^-21, max V + 2^-21] over a in [A0, A1] (the conversion to float moves those ends
 * by less than 2^-25, inwards by no more than the slack left). */
static int32_t rchan(const eg_soft_cfill_t *c, uint32_t k, int32_t code, float unit, float max)
{
    uint32_t q0 = blend_chan(c->sfs[k], c->df[k], code, unit, max), q1 = blend_chan(c->sfs_hi[k], c->df_hi[k], code, unit, max);
    if (q0 == q1) return (int32_t)q0;
    bool sq = k == 3u, sa = c->fast & (sq ? EG_SOFT_BLEND_U8_SA_A : EG_SOFT_BLEND_U8_SA_C);
    bool inv = c->fast & (sq ? EG_SOFT_BLEND_U8_INV_A : EG_SOFT_BLEND_U8_INV_C);
    if (!sq && c->s_lo[k] != c->s_hi[k]) return -1;
    double a0 = c->s_lo[3], a1 = c->s_hi[3], s = c->s_lo[k], cu = (double)((float)code * unit);
    double v0 = rv(a0, s, cu, sa, inv, sq), v1 = rv(a1, s, cu, sa, inv, sq);
    double lo = v0 < v1 ? v0 : v1, hi = v0 < v1 ? v1 : v0;
    if (sq && sa && inv && cu / 2.0 > a0 && cu / 2.0 < a1) {
        double vm = rv(cu / 2.0, s, cu, sa, inv, sq);
        lo = vm < lo ? vm : lo;
    }
    q0 = quant((float)(lo - 0x1p-21), max);
    q1 = quant((float)(hi + 0x1p-21), max);
    return q0 == q1 ? (int32_t)q0 : -1;
}

static bool rfill_px(const eg_soft_cfill_t *c, uint32_t v, uint32_t *out)
{
    if (c->fast & EG_SOFT_BLEND_U8_565) {
        int32_t r = rchan(c, 0, (int32_t)(v >> 11), 1.0f / 31.0f, 31.0f), g = rchan(c, 1, (int32_t)(v >> 5 & 63u), 1.0f / 63.0f, 63.0f);
        int32_t b = rchan(c, 2, (int32_t)(v & 31u), 1.0f / 31.0f, 31.0f);
        *out = (uint32_t)r << 11 | (uint32_t)g << 5 | (uint32_t)b;
        return r >= 0 && g >= 0 && b >= 0;
    }
    static const uint8_t rgba[4] = { 0, 1, 2, 3 }, bgra[4] = { 2, 1, 0, 3 };
    const uint8_t *sw = c->fast & EG_SOFT_BLEND_U8_BGRA ? bgra : rgba;
    uint32_t o = 0;
    for (uint32_t k = 0; k < 4u; k++) {
        int32_t q = rchan(c, k, (int32_t)(v >> (8u * sw[k]) & 0xffu), 1.0f / 255.0f, 255.0f);
        if (q < 0) return false;
        o |= (uint32_t)q << (8u * sw[k]);
    }
    *out = o;
    return true;
}

/* c's blend state for the source bits outb, or the range [outb, hi] (hi != outb: rrect9) (the
 * factors once per distinct proved value). */
static void cfill_prepare(eg_soft_cfill_t *c, const uint32_t outb[4], const uint32_t hi[4], uint32_t fast)
{
    union { uint32_t u; float f; } b;
    float src[4], shi[4];
    c->rng = false;
    c->have_prev = false;
    for (uint32_t k = 0; k < 4u; k++) {
        c->outb[k] = outb[k]; b.u = outb[k]; src[k] = b.f;
        c->outb_hi[k] = hi[k]; b.u = hi[k]; shi[k] = b.f;
        c->rng |= hi[k] != outb[k];
    }
    c->fast = fast;
    const_factors_f(src, fast, c->sfs, c->df);
    c->last_in = 0;
    c->ready = true;
    if (c->rng) {
        /* the lower sfs come from lo, the lower df (1 - alpha) from hi's alpha, and the other way */
        float d_lo[4];
        eg_memcpy(d_lo, c->df, sizeof d_lo);
        const_factors_f(shi, fast, c->sfs_hi, c->df);
        eg_memcpy(c->df_hi, d_lo, sizeof d_lo);
        for (uint32_t k = 0; k < 4u; k++) { c->s_lo[k] = clamp01(src[k]); c->s_hi[k] = clamp01(shi[k]); }
        c->fill = false;
        c->last_amb = !rfill_px(c, 0, &c->last_out);
        return;
    }
    c->fill = c->df[0] == 0.0f && c->df[1] == 0.0f && c->df[2] == 0.0f && c->df[3] == 0.0f;
    c->last_out = cfill_px(c, 0);   /* with every dst factor 0, the result for any stored pixel */
}

static inline uint32_t load_px(const uint8_t *p, uint32_t e)
{
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
    return e == 2u ? v : v | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void store_px(uint8_t *p, uint32_t v, uint32_t e)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8);
    if (e == 4u) { p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24); }
}

/* The pixels rfill_px could not tell through the VM (the block path on their lanes alone). The
 * program's lanes do not depend on each other (no derivatives in the proof's class) and each
 * pixel's blend reads only that pixel, so shading them after the other pixels of their rows, a
 * block's lanes together, gives the bytes the whole block would have. */
static void amb_shade(eg_soft_frag_t *f, int64_t bx, int64_t by, eg_soft_mask_t m)
{
    bool np = f->no_const_proof;
    eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES] = { 0 };
    cov[0] = m;
    f->no_const_proof = true;
    eg_soft_shade_block(f, (uint32_t)bx, (uint32_t)by, cov);
    f->no_const_proof = np;
}

static void amb_flush(eg_soft_frag_t *f, eg_soft_cfill_t *c)
{
    for (uint32_t i = 0; i < c->namb; i++) {
        if (!c->pair[0]) {
            amb_shade(f, c->amb_bx[i], c->amb_by[i], c->amb_m[i]);
            continue;
        }
        /* a rectangle pair's piece (soft_raster.c raster_rect_pair): each pixel to the triangle
         * covering it, the one whose side of the shared edge holds its centre */
        eg_soft_mask_t m0 = 0;
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            int64_t X = (c->amb_bx[i] + (l & 3u)) * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
            int64_t Y = (c->amb_by[i] + (l >> 2)) * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
            if (c->pair_e[0] * X + c->pair_e[1] * Y + c->pair_e[2] >= 0) m0 |= (eg_soft_mask_t)(1u << l);
        }
        if (c->amb_m[i] & m0) amb_shade(c->pair[0], c->amb_bx[i], c->amb_by[i], (eg_soft_mask_t)(c->amb_m[i] & m0));
        if (c->amb_m[i] & ~m0) amb_shade(c->pair[1], c->amb_bx[i], c->amb_by[i], (eg_soft_mask_t)(c->amb_m[i] & ~m0));
    }
    c->namb = 0;
}

static void shade_px(eg_soft_frag_t *f, eg_soft_cfill_t *c, int64_t x, int64_t y)
{
    int64_t bx = x & ~(int64_t)3, by = y & ~(int64_t)3;
    eg_soft_mask_t m = (eg_soft_mask_t)((eg_soft_mask_t)1u << ((uint32_t)(y & 3) * 4u + (uint32_t)(x & 3)));
    f->w->range_vm_px++;
    for (uint32_t i = c->namb; i-- > 0u;)
        if (c->amb_bx[i] == bx && c->amb_by[i] == by) {
            c->amb_m[i] |= m;
            return;
        }
    if (c->namb == 8u) amb_flush(f, c);
    c->amb_bx[c->namb] = bx;
    c->amb_by[c->namb] = by;
    c->amb_m[c->namb++] = m;
}

/* 16 bytes at a time (8 RGB565 or 4 8-bit px) with vector extensions on little-endian targets,
 * where a 32-bit word holds pixel bytes in memory order. */
#if EMGPU_SOFT_SIMD && (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FILL_VEC 1
typedef uint32_t fill_vu_t __attribute__((vector_size(16)));

/* The 16-byte pattern of pixel v (e bytes) repeated. */
static inline fill_vu_t rep16(uint32_t v, uint32_t e)
{
    uint32_t w = e == 2u ? v | v << 16 : v;
    return (fill_vu_t){ w, w, w, w };
}

/* Every lane of a equals b's: one byte mask on x86 (the OR of 4 extracted lanes was 14
 * instructions of the 16-byte step). */
static inline bool all_eq16(fill_vu_t a, fill_vu_t b)
{
#if defined(__SSE2__)
    typedef char fill_vc_t __attribute__((vector_size(16)));
    return __builtin_ia32_pmovmskb128((fill_vc_t)(a == b)) == 0xffff;
#else
    fill_vu_t ne = (fill_vu_t)(a != b);
    return !(ne[0] | ne[1] | ne[2] | ne[3]);
#endif
}
#else
#define FILL_VEC 0
#endif

/* n px at p (e = 2 or 4 bytes each) blended with c (the scalar build's rows; with vectors only
 * 8-bit targets' blended rows, the others take fill_rows_body). The result is a function of the stored
 * pixel alone, so a run of pixels equal to the last one blended gets its result: with vectors,
 * 16 bytes are compared against the run's pattern and stored at once (the same bytes as pixel
 * by pixel: every pixel of the chunk equals last_in, so its result is last_out). */
static void cfill_row(eg_soft_cfill_t *c, uint8_t *p, uint32_t n, uint32_t e)
{
    uint32_t x = 0;
#if FILL_VEC
    const uint32_t per = 16u / e;
    if (c->fill) {
        fill_vu_t o = rep16(c->last_out, e);
        uint32_t w1 = o[0];
        for (; x + per <= n; x += per) __builtin_memcpy(p + (size_t)x * e, &o, 16);
        for (; (n - x) * e >= 4u; x += 4u / e) __builtin_memcpy(p + (size_t)x * e, &w1, 4);
        for (; x < n; x++) store_px(p + (size_t)x * e, c->last_out, e);
        return;
    }
    fill_vu_t vi = rep16(c->last_in, e), vo = rep16(c->last_out, e), w;
    uint32_t wi = vi[0], wo = vo[0];
    /* pointers, not x * e: the 16-byte step was ~19 instructions with two multiplications */
    uint8_t *q = p, *const end = p + (size_t)n * e;
    while (q < end) {
        /* the run's 16-byte chunks in a loop of their own (rrect10: one pass of the loop below
         * per chunk was ~25 instructions, most of a shape's row) */
        while ((size_t)(end - q) >= 16u) {
            __builtin_memcpy(&w, q, 16);
            if (!all_eq16(w, vi)) break;
            __builtin_memcpy(q, &vo, 16);
            q += 16;
        }
        size_t left = (size_t)(end - q);   /* bytes to the end of the row: 16, 8 or 4 at once */
        if (left == 0u) break;
        if (left >= 16u) {
            /* (a chunk that is not all the run's: its pixels one by one below) */
        } else if (left >= 8u) {
            uint32_t w2[2];
            __builtin_memcpy(w2, q, 8);
            if (w2[0] == wi && w2[1] == wi) { w2[0] = w2[1] = wo; __builtin_memcpy(q, w2, 8); q += 8; continue; }
        } else if (left >= 4u) {
            uint32_t w1;
            __builtin_memcpy(&w1, q, 4);
            if (w1 == wi) { __builtin_memcpy(q, &wo, 4); q += 4; continue; }
        }
        uint32_t v = load_px(q, e);
        if (v != c->last_in) {   /* a new run starts here: its chunk is tried again */
            /* the run before the last one's result, or a new one (a shape's row over a shape
             * drawn before and the background: two values in turn, row after row) */
            uint32_t pi = c->prev_in, po = c->prev_out;
            bool hit = c->have_prev && v == pi;
            c->prev_in = c->last_in;
            c->prev_out = c->last_out;
            c->have_prev = true;
            c->last_in = v;
            c->last_out = hit ? po : cfill_px(c, v);
            vi = rep16(v, e);
            vo = rep16(c->last_out, e);
            wi = vi[0];
            wo = vo[0];
            if (left >= 4u) continue;
        }
        store_px(q, c->last_out, e);
        q += e;
    }
#else
    for (; x < n; x++) {
        uint32_t v = load_px(p + (size_t)x * e, e);
        if (!c->fill && v != c->last_in) {
            c->last_in = v;
            c->last_out = cfill_px(c, v);
        }
        store_px(p + (size_t)x * e, c->last_out, e);
    }
#endif
}

/* cfill_row for a range source: n px from (x, y) at p. A pixel equal to the last one blended
 * gets its result, or goes to the VM with it (last_amb); with vectors, 16 bytes of a run whose
 * result is known are compared and stored at once as in cfill_row (rrect10: pixel by pixel,
 * these rows cost ~15 instructions a pixel; the strips along shapes' sides are most of them). */
static void rfill_row(eg_soft_frag_t *f, eg_soft_cfill_t *c, uint8_t *p, int64_t x, int64_t y, uint32_t n, uint32_t e)
{
#if FILL_VEC
    fill_vu_t vi = rep16(c->last_in, e), vo = rep16(c->last_out, e), w;
    uint8_t *q = p, *const end = p + (size_t)n * e;
    while (q < end) {
        if (!c->last_amb && (size_t)(end - q) >= 16u) {
            __builtin_memcpy(&w, q, 16);
            if (all_eq16(w, vi)) { __builtin_memcpy(q, &vo, 16); q += 16; continue; }
        }
        uint32_t v = load_px(q, e);
        if (v != c->last_in) {
            c->last_in = v;
            c->last_amb = !rfill_px(c, v, &c->last_out);
            vi = rep16(v, e);
            vo = rep16(c->last_out, e);
        }
        if (c->last_amb) shade_px(f, c, x + (int64_t)((size_t)(q - p) / e), y);
        else store_px(q, c->last_out, e);
        q += e;
    }
#else
    for (uint32_t i = 0; i < n; i++, p += e) {
        uint32_t v = load_px(p, e);
        if (v != c->last_in) {
            c->last_in = v;
            c->last_amb = !rfill_px(c, v, &c->last_out);
        }
        if (c->last_amb) shade_px(f, c, x + (int64_t)i, y);
        else store_px(p, c->last_out, e);
    }
#endif
}

static inline int64_t floor_div(int64_t n, int64_t d)   /* d > 0 */
{
    int64_t q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
}

/* The pixels x of row y whose centre is inside f's three edges, intersected with [*x0, *x1]:
 * E_i = A_i (256 x + 128) + B_i (256 y + 128) + C_i >= 0, solved for x exactly in integers
 * (the test of block_cov, soft_raster.c, for one sample at the centre). False: none. */
static bool row_span(const eg_soft_setup_t *s, int64_t y, int64_t *x0, int64_t *x1)
{
    int64_t Y = y * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, lo = *x0, hi = *x1;
    for (uint32_t i = 0; i < 3u; i++) {
        int64_t a = s->A[i] * EG_SOFT_SUBPIX, k = s->B[i] * Y + s->C[i] + s->A[i] * (EG_SOFT_SUBPIX / 2);
        if (a > 0) {                              /* a x + k >= 0  <=>  x >= ceil(-k / a) */
            int64_t m = -floor_div(k, a);
            lo = m > lo ? m : lo;
        } else if (a < 0) {                       /* x <= floor(k / -a) */
            int64_t m = floor_div(k, -a);
            hi = m < hi ? m : hi;
        } else if (k < 0) {
            return false;
        }
    }
    *x0 = lo;
    *x1 = hi;
    return lo <= hi;
}

#if FILL_VEC
/* fill11, session 11: the rows of a pending span (RGB565 targets, and fills of any target), 32
 * bytes at a time (16 RGB565 or 8 8-bit px), each pixel compared with four memo values at once.
 * cfill_row took 16 bytes at once only when all of them held one stored value and went pixel by
 * pixel at every change: the bench's background rows alternate between two stored values every
 * ~3.4 px (the gradient's rounding), and a shape's row crosses a shape drawn before and the
 * background, four values in all, so most chunks went pixel by pixel (row 2: fill_rows ~240
 * instructions a row, ~72 k rows). Here a chunk whose pixels all hold memo values takes their
 * results by selects; a value not in the memo (a shape's ramp pixel, a new run) is blended once,
 * put in the slot seen least recently outside the compares, and its result ORed into all of its
 * lanes (which no slot matched: 0 there). A row of at least 32 bytes ends with the chunk
 * [end - 32, end), loaded before the row's first store: where it overlaps the chunk before it,
 * both store the results of the same stored pixels (a result is a function of the stored pixel
 * alone), so the bytes are those of the pixel-by-pixel blend; 16 to 31 bytes take two 16-byte
 * chunks the same way, fewer bytes go pixel by pixel. A range source's open values (rfill_px
 * false) are memo entries whose result is the stored pixel itself; their lanes go to the VM
 * (shade_px) after their chunk is stored. Row 2: fill_rows 20.3 -> 18.7 M instructions, row 4
 * (fills) 13.5 -> 10.0 M. */
typedef uint32_t fill_vw_t __attribute__((vector_size(32)));
typedef uint16_t fill_vwh_t __attribute__((vector_size(32)));
typedef uint16_t fill_vh_t __attribute__((vector_size(16)));

typedef struct fill_memo {
    uint32_t in[4], out[4];   /* stored values and their results */
    uint32_t age[4], now;     /* when each was last seen outside the vector compares (the least
                               * recent is replaced) */
    bool amb[4], any_amb;     /* range source: the pixel goes to the VM (out = in: stored unchanged) */
} fill_memo_t;

/* The memo slot of stored pixel v: a hit, or (*fresh) cfill_px's result put in the least
 * recently seen slot. */
static inline uint32_t memo_slot(const eg_soft_cfill_t *c, fill_memo_t *m, uint32_t v, bool *fresh, bool rng)
{
    uint32_t k = 0;
    *fresh = false;
    for (uint32_t j = 0; j < 4u; j++)
        if (v == m->in[j]) { m->age[j] = m->now; return j; }
    for (uint32_t j = 1; j < 4u; j++) k = m->age[j] < m->age[k] ? j : k;
    m->in[k] = v;
    if (rng) {
        m->amb[k] = !rfill_px(c, v, &m->out[k]);
        if (m->amb[k]) m->out[k] = v;
        m->any_amb = m->amb[0] | m->amb[1] | m->amb[2] | m->amb[3];
    } else {
        m->out[k] = cfill_px(c, v);
    }
    m->age[k] = m->now;
    *fresh = true;
    return k;
}

/* (32-byte vectors by pointer: by value they would change the ABI of functions without AVX) */
static EG_ALWAYS_INLINE void rep32(fill_vw_t *o, uint32_t v, uint32_t e)
{
    uint32_t w = e == 2u ? v | v << 16 : v;
    *o = (fill_vw_t){ w, w, w, w, w, w, w, w };
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FILL_AVX2 1
static inline __attribute__((target("avx2"))) uint32_t mask32_avx2(const fill_vw_t *m)
{
    typedef char fill_vc32_t __attribute__((vector_size(32)));
    return (uint32_t)__builtin_ia32_pmovmskb256((fill_vc32_t)*m);
}
#else
#define FILL_AVX2 0
#endif

/* One bit per byte of m, set where the byte's top bit is (wide: one AVX2 instruction). */
static EG_ALWAYS_INLINE uint32_t mask32(const fill_vw_t *m, bool wide)
{
#if FILL_AVX2
    if (wide) return mask32_avx2(m);
#else
    (void)wide;
#endif
    fill_vu_t h[2];
    __builtin_memcpy(h, m, 32);
#if defined(__SSE2__)
    typedef char fill_vc_t __attribute__((vector_size(16)));
    return (uint32_t)__builtin_ia32_pmovmskb128((fill_vc_t)h[0]) | (uint32_t)__builtin_ia32_pmovmskb128((fill_vc_t)h[1]) << 16;
#else
    typedef int8_t fill_vsb_t __attribute__((vector_size(16)));
    uint32_t o = 0;
    for (uint32_t k = 0; k < 32u; k++) o |= (((fill_vsb_t)h[k >> 4])[k & 15u] < 0 ? 1u : 0u) << k;
    return o;
#endif
}

#if !defined(__SSE2__)
static EG_ALWAYS_INLINE bool all_set32(const fill_vw_t *m)
{
    fill_vu_t h[2];
    __builtin_memcpy(h, m, 32);
    return all_eq16(h[0] & h[1], (fill_vu_t){ ~0u, ~0u, ~0u, ~0u });
}
#endif

/* Lanes of e bytes equal: all ones. */
#define FILL_EQ32(a, b, e) ((e) == 2u ? (fill_vw_t)((fill_vwh_t)(a) == (fill_vwh_t)(b)) : (fill_vw_t)((a) == (b)))

/* row_span's edges for rows of one call (fill11): k = B (256 y + 128) + C + 128 A is
 * kb y + k0, the same integer; an edge with B = 0 gives the same bound on every row and is
 * taken once (the bench's rectangles' triangles: two of three edges), the others per row. */
typedef struct row_edges {
    int64_t lo, hi;                 /* the bounds of the edges with B = 0 */
    int64_t a[3], kb[3], k0[3];     /* the other edges */
    uint32_t n;
    bool none;                      /* an edge with A = B = 0 rejects every row */
} row_edges_t;

static void row_edges_init(const eg_soft_setup_t *s, row_edges_t *re)
{
    re->lo = INT64_MIN / 4;
    re->hi = INT64_MAX / 4;
    re->n = 0;
    re->none = false;
    for (uint32_t i = 0; i < 3u; i++) {
        int64_t a = s->A[i] * EG_SOFT_SUBPIX, kb = s->B[i] * EG_SOFT_SUBPIX;
        int64_t k0 = s->B[i] * (EG_SOFT_SUBPIX / 2) + s->C[i] + s->A[i] * (EG_SOFT_SUBPIX / 2);
        if (kb != 0) {
            re->a[re->n] = a;
            re->kb[re->n] = kb;
            re->k0[re->n++] = k0;
        } else if (a > 0) {
            int64_t m = -floor_div(k0, a);
            re->lo = m > re->lo ? m : re->lo;
        } else if (a < 0) {
            int64_t m = floor_div(k0, -a);
            re->hi = m < re->hi ? m : re->hi;
        } else if (k0 < 0) {
            re->none = true;
        }
    }
}

/* row_span of row y within [*x0, *x1] (the same solutions). */
static EG_ALWAYS_INLINE bool row_edges_span(const row_edges_t *re, int64_t y, int64_t *x0, int64_t *x1)
{
    int64_t lo = re->lo > *x0 ? re->lo : *x0, hi = re->hi < *x1 ? re->hi : *x1;
    for (uint32_t i = 0; i < re->n; i++) {
        int64_t a = re->a[i], k = re->kb[i] * y + re->k0[i];
        if (a > 0) {
            int64_t m = -floor_div(k, a);
            lo = m > lo ? m : lo;
        } else if (a < 0) {
            int64_t m = floor_div(k, -a);
            hi = m < hi ? m : hi;
        } else if (k < 0) {
            return false;
        }
    }
    *x0 = lo;
    *x1 = hi;
    return lo <= hi && !re->none;
}

static EG_ALWAYS_INLINE void fill_rows_body(eg_soft_frag_t *f, eg_soft_cfill_t *c, uint8_t *base, size_t pitch,
                                            int64_t x0, int64_t x1, int64_t y0, int64_t y1, uint32_t e, bool wide,
                                            bool rng, uint32_t *npx, uint32_t cnt[5])
{
    const eg_soft_setup_t *s = &f->s;
    fill_memo_t m;
    for (uint32_t k = 0; k < 4u; k++) {
        bool pv = k == 1u && c->have_prev && !rng;
        m.in[k] = pv ? c->prev_in : c->last_in;
        m.out[k] = pv ? c->prev_out : rng && c->last_amb ? c->last_in : c->last_out;
        m.amb[k] = rng && c->last_amb;
        m.age[k] = 0;
    }
    m.any_amb = m.amb[0];
    m.age[0] = m.age[1] = 1;
    m.now = 1;
    fill_vw_t i0, i1, i2, i3, o0, o1, o2, o3;
    rep32(&i0, m.in[0], e); rep32(&i1, m.in[1], e); i2 = i0; i3 = i0;
    rep32(&o0, m.out[0], e); rep32(&o1, m.out[1], e); o2 = o0; o3 = o0;
#define FILL_SLOT_SET(k, vv, vr)                                                                                   \
    do {                                                                                                           \
        switch (k) {                                                                                               \
        case 0: i0 = (vv); o0 = (vr); break;                                                                       \
        case 1: i1 = (vv); o1 = (vr); break;                                                                       \
        case 2: i2 = (vv); o2 = (vr); break;                                                                       \
        default: i3 = (vv); o3 = (vr); break;                                                                      \
        }                                                                                                          \
    } while (0)
    const bool fill = c->fill;
    row_edges_t re;
    row_edges_init(s, &re);
    uint32_t n = 0;
    for (int64_t y = y0; y < y1; y++) {
        int64_t a = x0, b = x1 - 1;
        if (!row_edges_span(&re, y, &a, &b)) continue;
        n += (uint32_t)(b - a + 1);
        uint8_t *p = base + (size_t)y * pitch + (size_t)a * e, *const end = p + (size_t)(b - a + 1) * e;
        size_t nb = (size_t)(end - p);
        if (nb < 32u) {
            cnt[nb >= 16u && !rng ? 1 : 2]++;
            if (nb >= 16u && !rng) {   /* two 16-byte chunks, both loaded before either is stored */
                fill_vu_t w[2], r[2] = { { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
                __builtin_memcpy(&w[0], p, 16);
                __builtin_memcpy(&w[1], end - 16, 16);
                bool slow = false;
                for (uint32_t h = 0; h < 2u && !fill; h++) {
                    fill_vu_t q0, q1, q2, q3, v;
                    __builtin_memcpy(&v, &i0, 16); q0 = e == 2u ? (fill_vu_t)((fill_vh_t)w[h] == (fill_vh_t)v) : (fill_vu_t)(w[h] == v);
                    __builtin_memcpy(&v, &i1, 16); q1 = e == 2u ? (fill_vu_t)((fill_vh_t)w[h] == (fill_vh_t)v) : (fill_vu_t)(w[h] == v);
                    __builtin_memcpy(&v, &i2, 16); q2 = e == 2u ? (fill_vu_t)((fill_vh_t)w[h] == (fill_vh_t)v) : (fill_vu_t)(w[h] == v);
                    __builtin_memcpy(&v, &i3, 16); q3 = e == 2u ? (fill_vu_t)((fill_vh_t)w[h] == (fill_vh_t)v) : (fill_vu_t)(w[h] == v);
                    slow |= !all_eq16(q0 | q1 | q2 | q3, (fill_vu_t){ ~0u, ~0u, ~0u, ~0u });
                    __builtin_memcpy(&v, &o0, 16); r[h] |= q0 & v;
                    __builtin_memcpy(&v, &o1, 16); r[h] |= q1 & v;
                    __builtin_memcpy(&v, &o2, 16); r[h] |= q2 & v;
                    __builtin_memcpy(&v, &o3, 16); r[h] |= q3 & v;
                }
                if (fill) __builtin_memcpy(&r[0], &o0, 16), r[1] = r[0];
                if (slow) {
                    uint8_t b2[32], d[32];
                    cnt[3]++;
                    __builtin_memcpy(b2, w, 32);
                    m.now++;
                    for (uint32_t k = 0; k < 32u; k += e) {
                        bool fresh;
                        uint32_t v = load_px(b2 + k, e), sl = memo_slot(c, &m, v, &fresh, false);
                        store_px(d + k, m.out[sl], e);
                        if (fresh) {
                            fill_vw_t vv, vr;
                            rep32(&vv, v, e);
                            rep32(&vr, m.out[sl], e);
                            FILL_SLOT_SET(sl, vv, vr);
                        }
                    }
                    __builtin_memcpy(r, d, 32);
                }
                __builtin_memcpy(p, &r[0], 16);
                __builtin_memcpy(end - 16, &r[1], 16);
                continue;
            }
            /* (few rows: pixel by pixel; a range source's open pixels to the VM) */
            m.now++;
            for (; p < end; p += e) {
                if (fill) { store_px(p, m.out[0], e); continue; }
                bool fresh;
                uint32_t v = load_px(p, e), sl = memo_slot(c, &m, v, &fresh, rng);
                if (rng && m.amb[sl]) shade_px(f, c, a + (int64_t)((size_t)(p - (end - nb)) / e), y);
                else store_px(p, m.out[sl], e);
                if (fresh) {
                    fill_vw_t vv, vr;
                    rep32(&vv, v, e);
                    rep32(&vr, m.out[sl], e);
                    FILL_SLOT_SET(sl, vv, vr);
                }
            }
            continue;
        }
        uint8_t *const last = end - 32;
        cnt[0]++;
        if (fill) {   /* every dst factor 0: one result for any stored pixel */
            for (; p < last; p += 32) __builtin_memcpy(p, &o0, 32);
            __builtin_memcpy(last, &o0, 32);
            continue;
        }
        fill_vw_t t, w;
        uint8_t *const row = p;
        __builtin_memcpy(&t, last, 32);
        for (;; p += 32) {
            if (p < last) __builtin_memcpy(&w, p, 32);
            else w = t;
            fill_vw_t q0 = FILL_EQ32(w, i0, e), q1 = FILL_EQ32(w, i1, e), q2 = FILL_EQ32(w, i2, e), q3 = FILL_EQ32(w, i3, e);
            fill_vw_t hit = q0 | q1 | q2 | q3;
            /* (slots holding the same value hold the same result: the OR is that result) */
            fill_vw_t res = (q0 & o0) | (q1 & o1) | (q2 & o2) | (q3 & o3);
#if defined(__SSE2__)
            uint32_t miss = ~mask32(&hit, wide);
#else
            /* (no byte mask instruction: the mask only where a lane missed) */
            uint32_t miss = all_set32(&hit) ? 0u : ~mask32(&hit, wide);
#endif
            fill_vw_t am = { 0, 0, 0, 0, 0, 0, 0, 0 };   /* lanes of open pixels (range source) */
            bool open = rng && m.any_amb;
            if (open) {
                am |= m.amb[0] ? q0 : am;
                am |= m.amb[1] ? q1 : am;
                am |= m.amb[2] ? q2 : am;
                am |= m.amb[3] ? q3 : am;
            }
            if (__builtin_expect(miss != 0u, 0)) {
                /* pixels of no memo value (a shape's ramp pixel, a new run): each such value's
                 * result through the memo, stored in all of its lanes at once (their res is 0);
                 * the slots the others matched count as seen */
                uint8_t b2[32];
                __builtin_memcpy(b2, &w, 32);
                cnt[3]++;
                m.now++;
                m.age[0] = mask32(&q0, wide) ? m.now : m.age[0];
                m.age[1] = mask32(&q1, wide) ? m.now : m.age[1];
                m.age[2] = mask32(&q2, wide) ? m.now : m.age[2];
                m.age[3] = mask32(&q3, wide) ? m.now : m.age[3];
                do {
                    uint32_t k = (uint32_t)__builtin_ctz(miss), v = load_px(b2 + (k & ~(e - 1u)), e);
                    bool fresh;
                    uint32_t sl = memo_slot(c, &m, v, &fresh, rng);
                    fill_vw_t vv, vr, q;
                    rep32(&vv, v, e);
                    rep32(&vr, m.out[sl], e);
                    q = FILL_EQ32(w, vv, e);
                    res |= q & vr;
                    if (rng && m.amb[sl]) { am |= q; open = true; }
                    miss &= ~mask32(&q, wide);
                    if (fresh) FILL_SLOT_SET(sl, vv, vr);
                } while (miss);
            }
            uint32_t amask = open ? mask32(&am, wide) : 0u;
            cnt[4] += amask != 0u;
            if (p >= last) {
                /* an open pixel the chunk before stored unchanged may have been shaded since
                 * (amb_flush): its lanes keep what the row holds now */
                if (amask) {
                    fill_vw_t now;
                    __builtin_memcpy(&now, last, 32);
                    res = (am & now) | (~am & res);
                    amask &= ~((1u << (uint32_t)(p - last)) - 1u);   /* (those lanes are queued) */
                }
                __builtin_memcpy(last, &res, 32);
            } else {
                __builtin_memcpy(p, &res, 32);
            }
            /* open pixels (stored unchanged) to the VM, after their chunk's store */
            for (uint8_t *const q = p < last ? p : last; amask;) {
                uint32_t k = (uint32_t)__builtin_ctz(amask) & ~(e - 1u);
                amask &= ~(((1u << e) - 1u) << k);
                shade_px(f, c, a + (int64_t)((size_t)(q + k - row) / e), y);
            }
            if (p >= last) break;
        }
    }
#undef FILL_SLOT_SET
    /* the two most recently seen pairs stay for the next rows (cfill_prepare resets them) */
    uint32_t k0 = 0, k1;
    for (uint32_t k = 1; k < 4u; k++) k0 = m.age[k] > m.age[k0] ? k : k0;
    k1 = k0 == 0u ? 1u : 0u;
    for (uint32_t k = 0; k < 4u; k++) k1 = k != k0 && m.age[k] > m.age[k1] ? k : k1;
    c->last_in = m.in[k0];
    c->last_out = m.out[k0];
    c->prev_in = m.in[k1];
    c->prev_out = m.out[k1];
    c->have_prev = !rng;
    if (rng) c->last_amb = m.amb[k0];
    *npx += n;
}

static void fill_rows_vec(eg_soft_frag_t *f, eg_soft_cfill_t *c, uint8_t *base, size_t pitch, int64_t x0, int64_t x1,
                          int64_t y0, int64_t y1, uint32_t e, uint32_t *npx, uint32_t cnt[5])
{
    if (e == 4u) fill_rows_body(f, c, base, pitch, x0, x1, y0, y1, 4u, false, false, npx, cnt);   /* (fills) */
    else if (c->rng) fill_rows_body(f, c, base, pitch, x0, x1, y0, y1, 2u, false, true, npx, cnt);
    else fill_rows_body(f, c, base, pitch, x0, x1, y0, y1, 2u, false, false, npx, cnt);
}

#if FILL_AVX2
/* (AVX2 asked at run time as soft_raster_blend.c does: eg_soft_shade_vw 4 keeps the 16-byte
 * build, which the tests compare) */
static __attribute__((target("avx2"))) void fill_rows_avx2(eg_soft_frag_t *f, eg_soft_cfill_t *c, uint8_t *base,
                                                           size_t pitch, int64_t x0, int64_t x1, int64_t y0, int64_t y1,
                                                           uint32_t e, uint32_t *npx, uint32_t cnt[5])
{
    if (e == 4u) fill_rows_body(f, c, base, pitch, x0, x1, y0, y1, 4u, true, false, npx, cnt);   /* (fills) */
    else if (c->rng) fill_rows_body(f, c, base, pitch, x0, x1, y0, y1, 2u, true, true, npx, cnt);
    else fill_rows_body(f, c, base, pitch, x0, x1, y0, y1, 2u, true, false, npx, cnt);
}
#endif
#endif

void eg_soft_cfill_init(eg_soft_cfill_t *c)
{
    eg_memset(c, 0, sizeof *c);
    for (uint32_t r = 0; r < 16u; r++) c->row_y[r] = INT64_MIN;
    c->range_ok = -1;
}

/* fill_rows_body where vectors are native registers; elsewhere (Cortex-M7: GCC lowers them to
 * scalar code through the stack) the rows' cfill_row / rfill_row loops, the same bytes: on the
 * Cortex-M7 bench the UI 50% frame took 40.12 M instructions with fill_rows_body, 33.09 M without */
#if defined(VM_SIMD_NATIVE)   /* (soft_vm_simd.h: the target has vector registers) */
#define FILL_ROWS_VEC 1
#else
#define FILL_ROWS_VEC 0
#endif
bool eg_soft_fill_rows_vector(void) { return FILL_VEC && FILL_ROWS_VEC; }

/* The rows [y0, y1) of c's pending span [x0, x1) blended with c's prepared source. */
static void fill_rows(eg_soft_frag_t *f, eg_soft_cfill_t *c, int64_t x0, int64_t x1, int64_t y0, int64_t y1)
{
    const eg_soft_target_t *t = &f->ps->fb->color[0];
    uint32_t e = c->fast & EG_SOFT_BLEND_U8_565 ? 2u : 4u, npx = 0;
#if FILL_VEC
    /* RGB565 rows and every fill (dst factors 0) by vectors; 8-bit targets' blended rows stay
     * with cfill_row / rfill_row: their stored values repeat less (the UI bench's XRGB8888 row:
     * ~34 k memo misses, fill_rows 24.5 M -> 27.4 M instructions had they taken fill_rows_body) */
    if (FILL_ROWS_VEC && (e == 2u || c->fill)) {
        uint32_t *cnt = f->w->fill_vec_rows;
#if FILL_AVX2
        if (eg_soft_shade_vw >= 8u && __builtin_cpu_supports("avx2"))
            fill_rows_avx2(f, c, t->base, t->row_pitch_B, x0, x1, y0, y1, e, &npx, cnt);
        else
#endif
            fill_rows_vec(f, c, t->base, t->row_pitch_B, x0, x1, y0, y1, e, &npx, cnt);
        y1 = y0;   /* (the rows are done) */
    }
#endif
    for (int64_t y = y0; y < y1; y++) {
        uint32_t r = (uint32_t)(y & 15);
        if (c->row_y[r] != y) {   /* the regions of a band share their rows' spans */
            c->row_y[r] = y;
            c->row_x0[r] = INT64_MIN / 4;
            c->row_x1[r] = INT64_MAX / 4;
            if (!row_span(&f->s, y, &c->row_x0[r], &c->row_x1[r])) c->row_x0[r] = c->row_x1[r] + 1;
        }
        int64_t a = c->row_x0[r] > x0 ? c->row_x0[r] : x0, b = c->row_x1[r] < x1 - 1 ? c->row_x1[r] : x1 - 1;
        if (a > b) continue;
        if (c->rng) rfill_row(f, c, t->base + (size_t)y * t->row_pitch_B + (size_t)a * e, a, y, (uint32_t)(b - a + 1), e);
        else cfill_row(c, t->base + (size_t)y * t->row_pitch_B + (size_t)a * e, (uint32_t)(b - a + 1), e);
        npx += (uint32_t)(b - a + 1);
    }
    if (c->namb) amb_flush(f, c);
    f->w->const_blocks += (npx + 15u) / 16u;
    f->w->region_blocks += (npx + 15u) / 16u;
}

void eg_soft_cfill_flush(eg_soft_frag_t *f, eg_soft_cfill_t *c)
{
    if (!c->pend) return;
    c->pend = false;
    fill_rows(f, c, c->pend_x0, c->pend_x1, c->pend_y0, c->pend_y1);
}

/* Proved regions side by side with the same value are one span per row (session 7, bin7): a
 * region is left pending and the next one on its right in the same rows extends it, so a row of
 * a rectangle is one cfill_row instead of one per 16 px region (~120 instructions each). The
 * regions of one triangle never share a pixel and each pixel's blend reads only that pixel, so
 * filling later (at the next region that does not extend the span, or at eg_soft_cfill_flush
 * when the walk ends) gives the same bytes. */
bool eg_soft_fill_range_ok(const eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    /* the targets of eg_soft_shade_const_rect: one sample, one target with a u8/565 fast blend */
    return f->samples == 1u && (rs->sample_mask & 1u) && rs->rt_count == 1u && fb->color_count >= 1u &&
           rs->blend_fast[0] && eg_soft_raster_fast_paths && rs->blend[0].wmask && fb->color[0].base;
}

bool eg_soft_fill_const_region(eg_soft_frag_t *f, eg_soft_cfill_t *c, int64_t x0, int64_t x1, int64_t y0, int64_t y1,
                               const uint32_t outb[4])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    /* a range from eg_soft_const_region_tri (rrect9), which asked eg_soft_fill_range_ok first */
    const uint32_t *hi = f->w->crange ? f->w->crange_hi : outb;
    f->w->crange = false;
    /* the same for every region of the triangle: asked once (~25 instructions a region) */
    if (c->range_ok < 0) c->range_ok = eg_soft_fill_range_ok(f) ? 1 : 0;
    if (!c->range_ok) return false;
    f->w->range_regions += hi != outb;
    bool same = c->ready && c->fast == rs->blend_fast[0] && !differ4(c->outb, outb) && !differ4(c->outb_hi, hi);
    if (c->pend && same && y0 == c->pend_y0 && y1 == c->pend_y1 && x0 == c->pend_x1) {
        c->pend_x1 = x1;
        return true;
    }
    eg_soft_cfill_flush(f, c);
    if (!same) cfill_prepare(c, outb, hi, rs->blend_fast[0]);
    c->pend = true;
    c->pend_x0 = x0;
    c->pend_x1 = x1;
    c->pend_y0 = y0;
    c->pend_y1 = y1;
    return true;
}

#endif /* EMGPU_HAL_SOFT */
