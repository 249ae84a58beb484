/* hal/soft span fast path: UI-type triangles filled row by row with no VM call (soft_span.h).
 *
 * eg_soft_raster_triangle offers every triangle here first; false means "not handled" and the
 * general 4x4 block walk runs. A handled triangle is filled row by row: the covered x range of
 * each row comes from the 64-bit edge equations (solved per edge, top-left rule included in C),
 * then up to 16 pixels at a time are interpolated, shaded (copy or one texture sample times a
 * color) and written by the store function chosen at pipeline creation for the target format
 * and blend (function pointers: no format or blend switch per pixel).
 *
 * EXACTNESS. Every value is computed with the float operations of the general path in the same
 * order: barycentrics from the pixel's 4x4-block origin plus lane offsets (soft_raster_shade.c
 * barycentrics), perspective weights, a0 + w1 d1 + w2 d2, the shared sampler (eg_soft_sample:
 * per-lane results do not depend on which lanes run together once the level of detail cannot
 * matter), blend_factor / eg_soft_blend_block's products and the targets' pack/unpack
 * conversions. So the bytes equal the general path's, perspective triangles included; tests
 * check that for every class (tests/unit/soft_span_test.c).
 *
 * soft_span_store.c holds the stores that skip the per-pixel work: texel copies, constant rows
 * and one shared source color; soft_span_fused.c the fused rows that replace the chunk loop for
 * copy classes and R8 glyphs; soft_span_int.h the types and the edge walk these files share.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_vm_simd.h"
#include "kernel/api/bind_group.h"
#include "kernel/api/sampler.h"
#include "kernel/api/texture_view.h"

#include "hal/soft/soft_span_int.h"

/* ---- conversions (the general path's: soft_raster_output.c) ---- */


/* Lanes [0, n4) are computed, n4 = n rounded up to 4 (whole vectors); the stores write n. Every
 * lane below n4 holds a finite or clamped value (interpolated, or zeroed by the unpacks). */
static inline uint32_t round4(uint32_t n) { return (n + 3u) & ~3u; }

#if VM_SIMD
static inline vf_t vsplat(float x) { vf_t v = { x, x, x, x }; return v; }
/* clamp01 on 4 lanes: v > 0 ? (v < 1 ? v : 1) : 0 (NaN -> 0), bitwise selects as the scalar code */
static inline vf_t vclamp01(vf_t v)
{
    vf_t zero = vsplat(0.0f), one = vsplat(1.0f);
    vu_t m1 = (vu_t)(v < one), m0 = (vu_t)(v > zero), uv, uo, r;
    __builtin_memcpy(&uv, &v, 16);
    __builtin_memcpy(&uo, &one, 16);
    r = ((uv & m1) | (uo & ~m1)) & m0;    /* zero's bits are 0 */
    __builtin_memcpy(&v, &r, 16);
    return v;
}
#endif

#if !VM_SIMD
/* q[c][l] = (int32_t)(clamp01(v) * mx[c] + 0.5f): to_unorm8 / store_565's conversion (the
 * vector stores below do the same per lane). */
static void quantize(const eg_soft_vec4_t *v, uint32_t n4, const float mx[4], int32_t q[4][EG_SOFT_LANES])
{
    for (uint32_t c = 0; c < 4u; c++)
        for (uint32_t l = 0; l < n4; l++) q[c][l] = (int32_t)(clamp01(v->c[c].f[l]) * mx[c] + 0.5f);
}
#endif

/* dst = src * sf + dst * df per channel, factors as eg_soft_blend_block computes them; src is
 * clamped to [0, 1] first (unorm targets). Lanes [0, n4). */
static void blend16(const eg_soft_span_pipe_t *sp, const eg_soft_vec4_t *src_in, eg_soft_vec4_t *dst, uint32_t n4)
{
#if VM_SIMD
    for (uint32_t k = 0; k < n4; k += 4) {
        vf_t sv[4], one = vsplat(1.0f), zero = vsplat(0.0f);
        for (uint32_t c = 0; c < 4u; c++) {
            VLOAD(sv[c], src_in->c[c].f + k);
            sv[c] = vclamp01(sv[c]);
        }
        for (uint32_t c = 0; c < 4u; c++) {
            bool sa = c == 3u ? sp->sa_a : sp->sa_c, inv = c == 3u ? sp->inv_a : sp->inv_c;
            vf_t sf = sa ? sv[3] : one, df = inv ? one - sv[3] : zero, d;
            VLOAD(d, dst->c[c].f + k);
            d = sv[c] * sf + d * df;
            VSTORE(dst->c[c].f + k, d);
        }
    }
#else
    eg_soft_vec4_t s;
    for (uint32_t c = 0; c < 4u; c++)
        for (uint32_t l = 0; l < n4; l++) s.c[c].f[l] = clamp01(src_in->c[c].f[l]);
    for (uint32_t c = 0; c < 4u; c++) {
        bool sa = c == 3u ? sp->sa_a : sp->sa_c, inv = c == 3u ? sp->inv_a : sp->inv_c;
        float *d = dst->c[c].f;
        for (uint32_t l = 0; l < n4; l++) {
            float sf = sa ? s.c[3].f[l] : 1.0f, df = inv ? 1.0f - s.c[3].f[l] : 0.0f;
            d[l] = s.c[c].f[l] * sf + d[l] * df;
        }
    }
#endif
}

/* ---- stores per format x blend ---- */

/* A chunk whose every source alpha clamps to 0 (a <= 0 or NaN) under color factors SrcAlpha /
 * OneMinusSrcAlpha and alpha dst factor OneMinusSrcAlpha blends to src * 0 + dst * 1 = dst in
 * every channel (src is clamped, so src * 0 is +0, and +0 + dst = dst for dst >= 0): the stored
 * bytes come back unchanged when the target's unpack + pack is the identity, which
 * dst_round_trips checks. Such chunks (e.g. empty glyph cells)
 * are skipped; the stores return the pixels skipped (eg_soft_worker_t.span_skip_px). */
static bool all_clear(const eg_soft_vec4_t *c, uint32_t n)
{
    bool any = false;
    for (uint32_t l = 0; l < n; l++) any |= c->c[3].f[l] > 0.0f;
    return !any;
}

#if !VM_SIMD
static const float max8[4] = { 255.0f, 255.0f, 255.0f, 255.0f }, max565[4] = { 31.0f, 63.0f, 31.0f, 1.0f };
#endif

#if VM_SIMD
/* quantize's conversion and the byte order of the store, 4 pixels per vector: the codes are
 * 0..255 after the clamp, so OR-ing them shifted into place gives the bytes the scalar stores
 * write (little-endian words: byte k is bits 8k..8k+7, as the memcpy below lays them out). */
static EG_ALWAYS_INLINE void store8_simd(const eg_soft_vec4_t *c, uint8_t *px, uint32_t n, uint32_t sr, uint32_t sg,
                                         uint32_t sb)
{
    vf_t m = vsplat(255.0f), h = vsplat(0.5f);
    uint32_t words[EG_SOFT_LANES];
    for (uint32_t k = 0; k < round4(n); k += 4) {
        vf_t x[4];
        vu_t q[4];
        for (uint32_t ch = 0; ch < 4u; ch++) {
            VLOAD(x[ch], c->c[ch].f + k);
            q[ch] = (vu_t)__builtin_convertvector(vclamp01(x[ch]) * m + h, vi_t);
        }
        vu_t w = q[0] << sr | q[1] << sg | q[2] << sb | q[3] << 24;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (k + 4u <= n) {   /* 4 whole pixels: the words' bytes are the pixels' (little-endian) */
            VSTORE(px + 4u * k, w);
            continue;
        }
#endif
        VSTORE(words + k, w);
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t done = n & ~3u;
    px += 4u * done;
#else
    uint32_t done = 0;
#endif
    for (uint32_t i = done; i < n; i++, px += 4) {
        uint32_t w = words[i];
        px[0] = (uint8_t)w; px[1] = (uint8_t)(w >> 8); px[2] = (uint8_t)(w >> 16); px[3] = (uint8_t)(w >> 24);
    }
}
#define STORE8_BODY(r, g, b) store8_simd(c, px, n, 8u * (r), 8u * (g), 8u * (b));
#else
#define STORE8_BODY(r, g, b)                                                                        \
    int32_t q[4][EG_SOFT_LANES];                                                                    \
    quantize(c, round4(n), max8, q);                                                                \
    for (uint32_t i = 0; i < n; i++, px += 4) {                                                     \
        px[r] = (uint8_t)q[0][i]; px[g] = (uint8_t)q[1][i]; px[b] = (uint8_t)q[2][i];               \
        px[3] = (uint8_t)q[3][i];                                                                   \
    }
#endif

#define DEF_STORE8(name, r, g, b)                                                                   \
static uint32_t store_##name(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c) \
{                                                                                                   \
    (void)sp;                                                                                       \
    STORE8_BODY(r, g, b)                                                                            \
    return 0;                                                                                       \
}                                                                                                   \
static uint32_t store_##name##_blend(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n,        \
                                 const eg_soft_vec4_t *c)                                           \
{                                                                                                   \
    eg_soft_vec4_t d;                                                                               \
    const uint8_t *q = px;                                                                          \
    uint32_t n4 = round4(n), i;                                                                     \
    if (sp->skip_clear && all_clear(c, n)) return n;                                                \
    if (sp->skip_clear && (i = eg_soft_span_blend_shared(sp, px, n, c, 4u, (r) == 2)) != SHARED_NO) return i;\
    for (i = 0; i < n; i++, q += 4) {                                                               \
        d.c[0].f[i] = (float)q[r] * (1.0f / 255.0f); d.c[1].f[i] = (float)q[g] * (1.0f / 255.0f);   \
        d.c[2].f[i] = (float)q[b] * (1.0f / 255.0f); d.c[3].f[i] = (float)q[3] * (1.0f / 255.0f);   \
    }                                                                                               \
    for (; i < n4; i++) d.c[0].f[i] = d.c[1].f[i] = d.c[2].f[i] = d.c[3].f[i] = 0.0f;                \
    blend16(sp, c, &d, n4);                                                                         \
    return store_##name(sp, px, n, &d);                                                             \
}
DEF_STORE8(rgba8, 0, 1, 2)
DEF_STORE8(bgra8, 2, 1, 0)

static uint32_t store_565(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c)
{
    (void)sp;
#if VM_SIMD
    /* quantize's conversion of the three color channels and the packing, 4 pixels per vector */
    uint32_t words[EG_SOFT_LANES];
    vf_t h = vsplat(0.5f), m31 = vsplat(31.0f), m63 = vsplat(63.0f);
    for (uint32_t k = 0; k < round4(n); k += 4) {
        vf_t r, g, b;
        VLOAD(r, c->c[0].f + k);
        VLOAD(g, c->c[1].f + k);
        VLOAD(b, c->c[2].f + k);
        vu_t qr = (vu_t)__builtin_convertvector(vclamp01(r) * m31 + h, vi_t);
        vu_t qg = (vu_t)__builtin_convertvector(vclamp01(g) * m63 + h, vi_t);
        vu_t qb = (vu_t)__builtin_convertvector(vclamp01(b) * m31 + h, vi_t);
        vu_t w = qr << 11 | qg << 5 | qb;
        VSTORE(words + k, w);
    }
    for (uint32_t i = 0; i < n; i++, px += 2) {
        px[0] = (uint8_t)words[i];
        px[1] = (uint8_t)(words[i] >> 8);
    }
#else
    int32_t q[4][EG_SOFT_LANES];
    quantize(c, round4(n), max565, q);
    for (uint32_t i = 0; i < n; i++, px += 2) {
        uint32_t v = (uint32_t)q[0][i] << 11 | (uint32_t)q[1][i] << 5 | (uint32_t)q[2][i];
        px[0] = (uint8_t)v;
        px[1] = (uint8_t)(v >> 8);
    }
#endif
    return 0;
}

static uint32_t store_565_blend(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c)
{
    eg_soft_vec4_t d;
    uint32_t n4 = round4(n), i;
    if (sp->skip_clear && all_clear(c, n)) return n;
    if (sp->skip_clear && (i = eg_soft_span_blend_shared(sp, px, n, c, 2u, false)) != SHARED_NO) return i;
    for (i = 0; i < n; i++) {
        uint32_t v = (uint32_t)px[2 * i] | (uint32_t)px[2 * i + 1] << 8;
        d.c[0].f[i] = (float)(v >> 11) * (1.0f / 31.0f);
        d.c[1].f[i] = (float)(v >> 5 & 63u) * (1.0f / 63.0f);
        d.c[2].f[i] = (float)(v & 31u) * (1.0f / 31.0f);
        d.c[3].f[i] = 1.0f;
    }
    for (; i < n4; i++) d.c[0].f[i] = d.c[1].f[i] = d.c[2].f[i] = d.c[3].f[i] = 0.0f;
    blend16(sp, c, &d, n4);
    return store_565(sp, px, n, &d);
}

/* ---- texel copy (eg_soft_span_texcopy_kind): per chunk, so kept here to inline ---- */

/* Pixels [0, n) of a row from the texels at p->s.base + off[i]. */
static void texel_copy(uint32_t kind, const uint8_t *base, const uint32_t *off, uint8_t *px, uint32_t n)
{
    if (kind != 3u) {
        /* the same bytes: runs of consecutive texels (a 1:1 blit's whole chunk) in one copy */
        uint32_t bpp = kind == 2u ? 2u : 4u;
        for (uint32_t i = 0; i < n;) {
            uint32_t j = i + 1u;
            while (j < n && off[j] == off[j - 1u] + bpp) j++;
            eg_memcpy(px + bpp * i, base + off[i], (size_t)(j - i) * bpp);
            i = j;
        }
    } else {
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *t = base + off[i];
            uint8_t *d = px + 4u * i;
            d[0] = t[2]; d[1] = t[1]; d[2] = t[0]; d[3] = t[3];
        }
    }
}

/* ---- pipeline classification ---- */

/* One channel group's blend: src One/SrcAlpha, dst Zero/OneMinusSrcAlpha, op Add. */
static bool blend_ok(uint8_t op, uint8_t src, uint8_t dst, bool *sa, bool *inv)
{
    if (op != WGPUBlendOperation_Add) return false;
    if (src != WGPUBlendFactor_One && src != WGPUBlendFactor_SrcAlpha) return false;
    if (dst != WGPUBlendFactor_Zero && dst != WGPUBlendFactor_OneMinusSrcAlpha) return false;
    *sa = src == WGPUBlendFactor_SrcAlpha;
    *inv = dst == WGPUBlendFactor_OneMinusSrcAlpha;
    return true;
}

/* Index of the value for input slot `slot` (adding it), or false when the slot is not among the
 * pipeline's interpolated varyings. */
static bool need_slot(const struct eg_soft_raster_pipeline *r, eg_soft_span_pipe_t *sp, uint32_t slot)
{
    if (slot >= 4u * EG_SOFT_MAX_LOCATIONS) return false;
    if (sp->val_of_slot[slot] != SPAN_NO_VAL) return true;
    for (uint32_t j = 0; j < r->nvary; j++) {
        if (r->vary_loc[j] != slot >> 2 || r->vary_comp[j] != (slot & 3u)) continue;
        if (sp->nval >= SPAN_MAX_VALS) return false;
        sp->val_of_slot[slot] = (uint8_t)sp->nval;
        sp->vary[sp->nval] = (uint8_t)j;
        sp->interp[sp->nval] = r->vary_interp[j];
        if (r->vary_interp[j] == EG_SOFT_INTERP_PERSPECTIVE) sp->any_persp = true;
        sp->nval++;
        return true;
    }
    return false;
}

static bool classify(const struct eg_soft_raster_pipeline *r, eg_soft_span_pipe_t *sp)
{
    const eg_soft_blend_t *b = &r->blend[0];
    if (!r->fs || r->samples != 1u || !(r->sample_mask & 1u) || r->alpha_to_coverage || r->rt_count != 1u ||
        (r->has_ds && (r->depth_test || r->stencil_test)) || b->wmask != 15u)
        return false;
    WGPUTextureFormat fmt = r->rp->color_targets[0].format;
    bool blend = b->enabled;
    if (blend && (!blend_ok(b->op_c, b->src_c, b->dst_c, &sp->sa_c, &sp->inv_c) ||
                  !blend_ok(b->op_a, b->src_a, b->dst_a, &sp->sa_a, &sp->inv_a)))
        return false;
    if (fmt == WGPUTextureFormat_RGBA8Unorm) sp->store = blend ? store_rgba8_blend : store_rgba8;
    else if (fmt == WGPUTextureFormat_BGRA8Unorm) sp->store = blend ? store_bgra8_blend : store_bgra8;
    else if (fmt == EG_FORMAT_RGB565_VALUE) sp->store = blend ? store_565_blend : store_565;
    else return false;
    if (!eg_soft_program_span_class(r->fs, &sp->cls)) return false;
    for (uint32_t s = 0; s < 4u * EG_SOFT_MAX_LOCATIONS; s++) sp->val_of_slot[s] = SPAN_NO_VAL;
    if (sp->cls.tex && (!need_slot(r, sp, sp->cls.uv[0]) || !need_slot(r, sp, sp->cls.uv[1]))) return false;
    for (uint32_t c = 0; c < 4u; c++) {
        if ((sp->cls.src[c] & 0xc000u) == EG_SOFT_SPAN_IN && !need_slot(r, sp, sp->cls.src[c])) return false;
        if (sp->cls.mul[c] != EG_SOFT_SPAN_NONE && !(sp->cls.mul[c] & EG_SOFT_SPAN_CONST) &&
            !need_slot(r, sp, sp->cls.mul[c]))
            return false;
    }
    sp->target = fmt;
    if (!sp->cls.tex && !blend)
        sp->rowconst = fmt == WGPUTextureFormat_RGBA8Unorm ? ROWC_RGBA8 : fmt == WGPUTextureFormat_BGRA8Unorm ? ROWC_BGRA8 : ROWC_565;
    sp->texcopy = sp->cls.tex && !blend && eg_soft_span_unorm_round_trips();
    sp->skip_clear = blend && sp->sa_c && sp->inv_c && sp->inv_a && eg_soft_span_dst_round_trips(fmt);
    for (uint32_t c = 0; c < 4u; c++)
        if (sp->cls.src[c] != (EG_SOFT_SPAN_TEX | c) || sp->cls.mul[c] != EG_SOFT_SPAN_NONE) sp->texcopy = false;
    eg_soft_span_fused_pick(sp, blend);
    return true;
}

/* The quad memo's per-pipeline part of the key (sp->qm_*, soft_span_int.h): the varyings
 * quad_tri reads (the colour's, fz_val or fz_col_j's four, and the coordinates') as one window
 * of 8 and two lane masks; a number no other pipeline gets (the key's pipeline, for everything
 * quad_tri, quad_common and tri_setup_ read from sp and its raster pipeline: slots, modes, cull). */
static void quad_memo_prep(eg_soft_span_pipe_t *sp)
{
#if EMGPU_SOFT_QUAD_MEMO
    static uint64_t serials;
    sp->qm_serial = __atomic_add_fetch(&serials, 1u, __ATOMIC_RELAXED);
#else   /* no memo to key (MCU boards; a Cortex-M has no 64-bit atomics: the M7 link failed) */
    sp->qm_serial = 0u;
#endif
    sp->qm_j = SPAN_NO_VAL;
    sp->qm_vmask = 0u;
    if (!sp->fz_glyph || !sp->cls.tex) return;
    uint32_t val[6], n = 0, lo = EG_SOFT_MAX_VARY, hi = 0;
    for (uint32_t ch = 0; ch < 4u; ch++)
        if (sp->fz_val[ch] != SPAN_NO_VAL) val[n++] = sp->fz_val[ch];
    for (uint32_t i = 0; i < 2u; i++) val[n++] = sp->val_of_slot[sp->cls.uv[i]];
    for (uint32_t i = 0; i < n; i++) {
        if (val[i] >= sp->nval) return;
        lo = sp->vary[val[i]] < lo ? sp->vary[val[i]] : lo;
        hi = sp->vary[val[i]] > hi ? sp->vary[val[i]] : hi;
    }
    if (sp->fz_col_j != SPAN_NO_VAL) {
        lo = sp->fz_col_j < lo ? sp->fz_col_j : lo;
        hi = sp->fz_col_j + 3u > hi ? sp->fz_col_j + 3u : hi;
    }
    _Static_assert(EG_SOFT_MAX_VARY >= 8u, "the quad memo's window of 8 varyings");
    if (hi >= EG_SOFT_MAX_VARY || hi - lo >= 8u) return;
    const uint32_t j0 = lo + 8u <= EG_SOFT_MAX_VARY ? lo : EG_SOFT_MAX_VARY - 8u;
    uint32_t vm = sp->fz_col_j != SPAN_NO_VAL ? 15u << (sp->fz_col_j - j0) : 0u, pm = 0u;
    for (uint32_t i = 0; i < n; i++) {
        vm |= 1u << (sp->vary[val[i]] - j0);
        if (sp->interp[val[i]] == EG_SOFT_INTERP_FLAT) pm |= 1u << (sp->vary[val[i]] - j0);
    }
    if (pm) return;   /* a flat value (read at prov): not in the key (glyphs' colours are interpolated) */
    sp->qm_j = (uint8_t)j0;
    sp->qm_vmask = (uint8_t)vm;
    for (uint32_t i = 0; i < 8u; i++) sp->qm_vm[i] = (vm >> i) & 1u ? ~0u : 0u;
}

eg_status_t eg_soft_span_pipe_create(struct eg_soft_raster_pipeline *r)
{
    eg_soft_span_pipe_t tmp;
    r->span = NULL;
    eg_memset(&tmp, 0, sizeof tmp);
    if (!classify(r, &tmp)) return EG_STATUS_OK;
    quad_memo_prep(&tmp);
    r->span = eg_soft_heap_alloc(sizeof tmp);
    if (!r->span) return EG_STATUS_OUT_OF_MEMORY;
    *r->span = tmp;
    return EG_STATUS_OK;
}

void eg_soft_span_pipe_destroy(struct eg_soft_raster_pipeline *r)
{
    if (r->span) eg_soft_heap_free(r->span);
    r->span = NULL;
}

/* ---- draw time ---- */

/* (the covered x range of each row: edges_init / edges_range / edges_step, soft_span_int.h) */

/* Interpolates the pipeline's values for pixels x0 .. x0 + n4 - 1 of row y (lanes [0, n4); the
 * other lanes keep what they held: never stored). */
static void interp_chunk(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k,
                         int64_t x0, int64_t y, uint32_t n4, eg_soft_reg_t *vals)
{
    const eg_soft_setup_t *s = &f->s;
    float l1[EG_SOFT_LANES], l2[EG_SOFT_LANES], p1[EG_SOFT_LANES], p2[EG_SOFT_LANES];
    if (k->fixed == (1u << sp->nval) - 1u) return;
    int64_t Y = (y & ~(int64_t)3) * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    float fy = (float)(y & 3);
    int64_t r1 = s->B[1] * Y + s->C[1], r2 = s->B[2] * Y + s->C[2];
    /* the n4 <= 16 pixels touch at most 5 4x4 blocks: each block origin's values once, exactly */
    float e1b[6], e2b[6];   /* [nb] is read (as the next block) but never selected */
    int64_t bx0 = x0 & ~(int64_t)3;
    uint32_t o = (uint32_t)(x0 & 3), nb = ((o + n4 - 1u) >> 2) + 1u;
    for (uint32_t j = 0; j < nb; j++) {
        int64_t X = (bx0 + 4 * (int64_t)j) * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
        e1b[j] = (float)(s->A[1] * X + r1) * s->inv_area2;
        e2b[j] = (float)(s->A[2] * X + r2) * s->inv_area2;
    }
    e1b[nb] = e2b[nb] = 0.0f;
#if VM_SIMD
    /* the same per-lane operations, 4 lanes at a time (IEEE per lane: the same bits) */
    /* lanes i .. i + 3 (i a multiple of 4) are x offsets o .. o + 3 from block i / 4's origin:
     * the first 4 - o in that block, the rest in the next one (mask), fx = (o + t) & 3 */
    static const float fx_tab[4][4] = { { 0, 1, 2, 3 }, { 1, 2, 3, 0 }, { 2, 3, 0, 1 }, { 3, 0, 1, 2 } };
    static const uint32_t next_tab[4][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, ~0u }, { 0, 0, ~0u, ~0u }, { 0, ~0u, ~0u, ~0u } };
    vf_t fyv = vsplat(fy), d1x = vsplat(k->d1x), d1y = vsplat(k->d1y), d2x = vsplat(k->d2x), d2y = vsplat(k->d2y), fx;
    vu_t nm;
    VLOAD(fx, fx_tab[o]);
    VLOAD(nm, next_tab[o]);
    for (uint32_t i = 0; i < n4; i += 4) {
        vf_t e1, e2, e1n = vsplat(e1b[(i >> 2) + 1u]), e2n = vsplat(e2b[(i >> 2) + 1u]);
        e1 = vsplat(e1b[i >> 2]);
        e2 = vsplat(e2b[i >> 2]);
        vu_t u1, u1n, u2, u2n;
        __builtin_memcpy(&u1, &e1, 16); __builtin_memcpy(&u1n, &e1n, 16);
        __builtin_memcpy(&u2, &e2, 16); __builtin_memcpy(&u2n, &e2n, 16);
        u1 = (u1n & nm) | (u1 & ~nm);
        u2 = (u2n & nm) | (u2 & ~nm);
        __builtin_memcpy(&e1, &u1, 16);
        __builtin_memcpy(&e2, &u2, 16);
        vf_t a = e1 + fx * d1x + fyv * d1y, b = e2 + fx * d2x + fyv * d2y;
        VSTORE(l1 + i, a);
        VSTORE(l2 + i, b);
    }
    if (k->persp) {
        vf_t one = vsplat(1.0f), iw0 = vsplat(k->iw0), iw1 = vsplat(k->iw1), iw2 = vsplat(k->iw2);
        for (uint32_t i = 0; i < n4; i += 4) {
            vf_t a, b;
            VLOAD(a, l1 + i);
            VLOAD(b, l2 + i);
            vf_t l0 = one - a - b;
            vf_t q0 = l0 * iw0, q1 = a * iw1, q2 = b * iw2;
            vf_t w1 = q0 + q1 + q2;
            vf_t r = one / w1;
            vf_t x = q1 * r, z = q2 * r;
            VSTORE(p1 + i, x);
            VSTORE(p2 + i, z);
        }
    }
    for (uint32_t v = 0; v < sp->nval; v++) {
        if (k->fixed >> v & 1u) continue;
        float *dst = vals[v].f, a0 = k->a0[v], d1 = k->dv1[v], d2 = k->dv2[v];
        vf_t va = vsplat(a0), vd1 = vsplat(d1), vd2 = vsplat(d2);
        if (sp->interp[v] == EG_SOFT_INTERP_FLAT) {
            for (uint32_t i = 0; i < n4; i += 4) VSTORE(dst + i, va);
        } else {
            const float *w1 = sp->interp[v] == EG_SOFT_INTERP_LINEAR ? l1 : p1;
            const float *w2 = sp->interp[v] == EG_SOFT_INTERP_LINEAR ? l2 : p2;
            for (uint32_t i = 0; i < n4; i += 4) {
                vf_t a, b;
                VLOAD(a, w1 + i);
                VLOAD(b, w2 + i);
                vf_t r = va + a * vd1 + b * vd2;
                VSTORE(dst + i, r);
            }
        }
    }
#else
    for (uint32_t i = 0; i < n4; i++) {
        uint32_t j = (o + i) >> 2;
        float fx = (float)((o + i) & 3u);
        l1[i] = e1b[j] + fx * k->d1x + fy * k->d1y;
        l2[i] = e2b[j] + fx * k->d2x + fy * k->d2y;
    }
    if (k->persp)
        for (uint32_t i = 0; i < n4; i++) {
            float l0 = 1.0f - l1[i] - l2[i];
            float q0 = l0 * k->iw0, q1 = l1[i] * k->iw1, q2 = l2[i] * k->iw2;
            float w1 = q0 + q1 + q2;
            float r = 1.0f / w1;
            p1[i] = q1 * r;
            p2[i] = q2 * r;
        }
    for (uint32_t v = 0; v < sp->nval; v++) {
        if (k->fixed >> v & 1u) continue;
        float *dst = vals[v].f, a0 = k->a0[v], d1 = k->dv1[v], d2 = k->dv2[v];
        if (sp->interp[v] == EG_SOFT_INTERP_FLAT) {
            for (uint32_t i = 0; i < n4; i++) dst[i] = a0;
        } else {
            const float *w1 = sp->interp[v] == EG_SOFT_INTERP_LINEAR ? l1 : p1;
            const float *w2 = sp->interp[v] == EG_SOFT_INTERP_LINEAR ? l2 : p2;
            for (uint32_t i = 0; i < n4; i++) dst[i] = a0 + w1[i] * d1 + w2[i] * d2;
        }
    }
#endif
}

/* One output component source over lanes [0, n4). */
static void shade_comp(const eg_soft_span_pipe_t *sp, uint32_t c, const eg_soft_reg_t *vals,
                       const eg_soft_vec4_t *tex, uint32_t n4, eg_soft_reg_t *out)
{
    uint32_t src = sp->cls.src[c];
    if (src & EG_SOFT_SPAN_CONST) {
        for (uint32_t i = 0; i < n4; i++) out->u[i] = sp->cls.src_bits[c];
        return;
    }
    if (!(src & EG_SOFT_SPAN_TEX)) { *out = vals[sp->val_of_slot[src]]; return; }
    const eg_soft_reg_t *t = &tex->c[src & 3u];
    uint32_t mul = sp->cls.mul[c];
    if (mul == EG_SOFT_SPAN_NONE) { *out = *t; return; }
    eg_soft_reg_t m;
    if (mul & EG_SOFT_SPAN_CONST) for (uint32_t i = 0; i < n4; i++) m.u[i] = sp->cls.mul_bits[c];
    else m = vals[sp->val_of_slot[mul]];
    /* FMUL's operand order kept: with two NaNs the first one's payload wins on some CPUs */
    if (sp->cls.mul_first[c]) for (uint32_t i = 0; i < n4; i++) out->f[i] = m.f[i] * t->f[i];
    else for (uint32_t i = 0; i < n4; i++) out->f[i] = t->f[i] * m.f[i];
}

int64_t eg_soft_span_rowc_min_fused = ROWC_MIN_PX_FUSED;

/* A texture class's per-triangle look-up (eg_vm_bind's objects of two slots, the checks, the
 * prepared sampling, the copy kind: ~1 100 Ir, per glyph triangle) kept per worker for the
 * triangles of one draw (quad8). The key is what the result depends on: the pipeline, and the
 * view and sampler (immutable objects) with their slots' generations, which change when an object
 * is freed, so one at a recycled address is another key; eg_soft_span_epoch (each pass) too. */
typedef struct tex_memo {
    EG_SOFT_OWN_LINE const eg_soft_span_pipe_t *sp;
    const eg_texture_view_t *view;
    const eg_sampler_t *smp;
    const eg_soft_pass_state_t *ps;   /* with serial: the draw the last look-up was for */
    uint64_t serial;
    uint32_t epoch;
    uint16_t view_gen, smp_gen;
    bool valid, ok, prepared;
    uint32_t copy_kind;
    uint64_t pair_serial;   /* the draw eg_soft_span_pair's per-draw tests passed for (pair_draw) */
    uint32_t pair_width;    /* ... at this eg_soft_span_fused_width */
    eg_soft_sample2d_t s2;
} tex_memo_t;

static tex_memo_t tex_memo[EMGPU_SOFT_MAX_THREADS];
uint32_t eg_soft_span_epoch;

/* The texture class's objects for f's triangle (NULL: the span path does not take it). */
static const tex_memo_t *tex_lookup(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    tex_memo_t *m = &tex_memo[f->w->index < EMGPU_SOFT_MAX_THREADS ? f->w->index : 0u];
    /* Another triangle of the draw of the last look-up (its serial, never reused, fixes the
     * bind groups and so the objects): the two slot look-ups and the checks were ~80
     * instructions a glyph triangle. */
    uint64_t serial = f->ps->serial;
    if (serial && m->valid && m->serial == serial && m->ps == f->ps && m->sp == sp && m->epoch == eg_soft_span_epoch)
        return m->ok ? m : NULL;
    const eg_texture_view_t *view = eg_vm_slot_object(rs->fs, &f->ps->bound, sp->cls.tex_slot);
    const eg_sampler_t *smp = eg_vm_slot_object(rs->fs, &f->ps->bound, sp->cls.smp_slot);
    if (m->valid && m->sp == sp && m->view == view && m->smp == smp && m->epoch == eg_soft_span_epoch &&
        (!view || m->view_gen == view->obj.slot.gen) && (!smp || m->smp_gen == smp->obj.slot.gen)) {
        m->ps = f->ps;
        m->serial = serial;
        return m->ok ? m : NULL;
    }
    m->valid = true;
    m->ps = f->ps;
    m->serial = serial;
    m->pair_serial = 0;
    m->sp = sp; m->view = view; m->smp = smp; m->epoch = eg_soft_span_epoch;
    m->view_gen = view ? view->obj.slot.gen : 0u;
    m->smp_gen = smp ? smp->obj.slot.gen : 0u;
    /* one level and min == mag: the level of detail cannot change a result */
    m->ok = view && smp && view->dimension == WGPUTextureViewDimension_2D && view->mip_level_count == 1u &&
            smp->desc.magFilter == smp->desc.minFilter;
    if (!m->ok) return NULL;
    m->prepared = eg_soft_sample2d_prep(view, smp, &m->s2);
    m->copy_kind = m->prepared && sp->texcopy && !m->s2.linear ? eg_soft_span_texcopy_kind(sp->target, m->s2.format) : 0u;
    return m;
}

/* The per-triangle constants of f's triangle (k: its weights' gradients, 1/w and each value's
 * a0, dv1, dv2, fixed and persp). */
static EG_ALWAYS_INLINE void span_values(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, span_tri_t *kp)
{
    const eg_soft_setup_t *s = &f->s;
    const eg_soft_tri_t *t = f->t;
    kp->d1x = (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    kp->d1y = (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    kp->d2x = (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2;
    kp->d2y = (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2;
    kp->iw0 = t->invw[0]; kp->iw1 = t->invw[1]; kp->iw2 = t->invw[2];
    /* kp->fixed (span_value_fixed, soft_span_int.h) and kp->persp as each value is filled; a
     * triangle of fixed values has constant rows of any length, proved without bounds */
    const bool safe = span_fixed_safe(kp);
    const float *var0 = t->v[0]->var, *var1 = t->v[1]->var, *var2 = t->v[2]->var, *varp = t->prov->var;
    uint32_t fixed = 0;
    bool persp = false;
    for (uint32_t v = 0; v < sp->nval; v++) {
        uint32_t j = sp->vary[v], interp = sp->interp[v];
        float a0 = varp[j], d1 = 0.0f, d2 = 0.0f;
        if (interp != EG_SOFT_INTERP_FLAT) {
            a0 = var0[j];
            d1 = var1[j] - a0;
            d2 = var2[j] - a0;
        }
        kp->a0[v] = a0;
        kp->dv1[v] = d1;
        kp->dv2[v] = d2;
        if (span_value_fixed(interp, safe, a0, d1, d2)) fixed |= 1u << v;
        else persp |= interp == EG_SOFT_INTERP_PERSPECTIVE;
    }
    kp->fixed = fixed;
    kp->persp = persp;
}

bool eg_soft_span_triangle(eg_soft_frag_t *f, int64_t px0, int64_t px1, int64_t py0, int64_t py1)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_span_pipe_t *sp = rs->span;
    const eg_soft_fb_t *fb = f->ps->fb;
    const eg_soft_tri_t *t = f->t;
    /* Affine varyings only (equal 1/w): UI content. The arithmetic below is the general path's
     * for any w, but perspective triangles stay on the block path, where the copy class and
     * derivatives-based sampling keep their own tests. */
    if (!sp || rs->native_fs || f->samples != 1u || fb->color_count < 1u || !fb->color[0].base || t->invw[0] != t->invw[1] ||
        t->invw[0] != t->invw[2])
        return false;
    eg_soft_sample_op_t op;   /* texture classes only (cleared there: copy classes skip the memset) */
    const eg_soft_sample2d_t *s2 = NULL;   /* the memo's (the thread's own, kept to its next triangle): no copy */
    bool prepared = false;
    uint32_t copy_kind = 0;
    if (sp->cls.tex) {
        const tex_memo_t *m = tex_lookup(f, sp);
        if (!m) return false;
        prepared = m->prepared;
        copy_kind = m->copy_kind;
        if (prepared) {
            s2 = &m->s2;
        } else {   /* the general sampler (only its fields are read then) */
            eg_memset(&op, 0, sizeof op);
            op.view = m->view;
            op.sampler = m->smp;
            op.lod_mode = EG_SOFT_LOD_EXPLICIT;   /* lod_or_bias NULL: 0 */
        }
    }
    span_tri_t k;
    const eg_soft_setup_t *s = &f->s;
    span_values(f, sp, &k);
    /* a 1:1 copy (soft_span_shift.c): rows moved whole, proved once for the triangle */
    if (copy_kind && (py0 = eg_soft_span_shift(f, sp, &k, s2, copy_kind, px0, px1, py0, py1)) >= py1) return true;
    const eg_soft_target_t *tg = &fb->color[0];
    /* fused rows: copy classes, and R8 glyph coverage with nearest sampling */
    bool r8 = prepared && !s2->linear && s2->format == WGPUTextureFormat_R8Unorm;
    bool fused = eg_soft_span_fused_width != 1u && (sp->cls.tex ? r8 && sp->fused[0][FZ_MODES_TEX] : sp->fused[0][0] != NULL);
    /* A row's constant-code proof costs about what the fused kernel spends on 100-150 px (the
     * chunk loop: on 16 px): shorter rows, such as a big triangle's rows cut by 64 px tiles,
     * are cheaper computed. Both give the same bytes. */
    /* (all_fixed is its own flag: a test's eg_soft_span_rowc_min_fused of 1 is not "all fixed") */
    const bool all_fixed = sp->rowconst && eg_soft_span_all_fixed(sp, &k);
    int64_t rows_min = all_fixed ? 1 : fused ? eg_soft_span_rowc_min_fused : ROWC_MIN_PX;
    /* the fused kernels try the one-bound proof on shorter rows than the per-row one (a big
     * triangle's rows near its apex, rows cut by 64 px tiles) */
    int64_t rows_min_q = fused && rows_min > ROWQ_MIN_PX_FUSED ? ROWQ_MIN_PX_FUSED : rows_min;
    /* rows_min 1 (every value the outputs read fixed): eg_soft_span_rows_promising would say
     * yes, each such value's dv1 = dv2 = +-0 and d1x, d2x finite (differences of snapped 32-bit
     * coordinates times 256 times inv_area2 <= 1) giving dx = +-0; not asked (~100 instructions
     * a flat triangle on the 20k-triangle rows) */
    bool try_rows = sp->rowconst && px1 - px0 >= rows_min_q &&
                    (all_fixed || eg_soft_span_rows_promising(sp, &k, px1 - px0));
    uint32_t wi = eg_soft_span_fused_width == 4u ? 0u : 1u;
    span_tri_fn copy_fn = copy_kind && eg_soft_span_fused_width != 1u ? sp->copy[wi][copy_kind - 1u] : NULL;
    if (fused || copy_fn) {
        span_fill_t fc;
        fc.f = f;
        eg_soft_span_fused_tri(sp, &k, s2, &fc);   /* NULL: no texture (fused or copy_fn: prepared) */
        fc.px0 = px0; fc.px1 = px1; fc.py0 = py0; fc.py1 = py1;
        fc.rows_min = rows_min;
        fc.rows_min_q = rows_min_q;
        fc.try_rows = try_rows;
        span_rowq_init(&fc.rq, px0, px1, py0, py1);
        fc.fixed_row = all_fixed && try_rows;
        fc.fixed_px = fc.fixed_row ? eg_soft_span_fixed_pixel(sp, &k) : 0u;
        fc.base = tg->base;
        fc.pitch_B = tg->row_pitch_B;
        fc.own_x0 = f->w->clip_x0;
        fc.own_x1 = f->w->clip_x1;
        fc.filled = fc.skipped = fc.rows = 0;
        /* edges_init + span_edges_one's result in one pass (span_edges_one_init) */
        if (fc.modes != FZ_MODES_TEXC || !sp->fused[wi][FZ_MODES_TEXC] || !span_edges_one_init(s, &fc)) {
            edges_init(s, py0 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, fc.ew);
            if (fc.modes == FZ_MODES_TEXC) fc.modes = FZ_MODES_TEX;
        }
        if (copy_fn) {   /* texel copy rows: runs of side-by-side texels moved whole */
            copy_fn(sp, &fc);
            f->w->span_copy_px += fc.filled;
        } else {
            sp->fused[wi][fc.modes](sp, &fc);
        }
        f->w->span_px += fc.filled;
        f->w->span_skip_px += fc.skipped;
        f->w->span_row_px += fc.rows;
        f->w->span_fused_px += fc.filled - fc.rows;
        return true;
    }
    eg_soft_reg_t vals[SPAN_MAX_VALS];
    eg_soft_vec4_t tex, out;
    eg_memset(&tex, 0, sizeof tex);
    eg_memset(vals, 0, sizeof vals);   /* lanes past a short chunk are copied, never stored */
    for (uint32_t j = 0; j < sp->nval; j++)
        if (k.fixed >> j & 1u)
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) vals[j].f[l] = k.a0[j];   /* the fixed values' lanes */
    uint32_t filled = 0, copied = 0, skipped = 0, rows = 0;
    const float *u = NULL, *v = NULL;
    if (sp->cls.tex) {
        u = vals[sp->val_of_slot[sp->cls.uv[0]]].f;
        v = vals[sp->val_of_slot[sp->cls.uv[1]]].f;
    }
    uint32_t misses = 0;
    span_rowq_t rq;   /* eg_soft_span_row_quick's bound for the triangle's box, at its first row */
    span_rowq_init(&rq, px0, px1, py0, py1);
    edge_walk_t ew[3];
    edges_init(s, py0 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, ew);
    for (int64_t y = py0; y < py1; y++, edges_step(ew)) {
        int64_t x0 = px0, x1 = px1;
        edges_range(ew, &x0, &x1);
        uint8_t *row = tg->base + (size_t)y * tg->row_pitch_B;
        if (try_rows && x1 - x0 >= rows_min) {
            if (eg_soft_span_row_quick(f, sp, &k, &rq, x0, x1, y, row + (size_t)x0 * tg->elem_B) ||
                eg_soft_span_row_const(f, sp, &k, x0, x1, y, row + (size_t)x0 * tg->elem_B)) {
                filled += (uint32_t)(x1 - x0);
                rows += (uint32_t)(x1 - x0);
                misses = 0;
                continue;
            }
            if (++misses == ROWC_MAX_MISSES) try_rows = false;
        }
        for (int64_t x = x0; x < x1; x += EG_SOFT_LANES) {
            uint32_t n = x1 - x < (int64_t)EG_SOFT_LANES ? (uint32_t)(x1 - x) : EG_SOFT_LANES;
            uint32_t n4 = round4(n);
            interp_chunk(f, sp, &k, x, y, n4, vals);
            filled += n;
            if (copy_kind) {
                uint32_t off[EG_SOFT_LANES];
                eg_soft_sample2d_offsets(s2, u, v, n, off);
                texel_copy(copy_kind, s2->s.base, off, row + (size_t)x * tg->elem_B, n);
                copied += n;
                continue;
            }
            eg_soft_mask_t mask = (eg_soft_mask_t)((1u << n) - 1u);
            if (prepared) {
                eg_soft_sample2d(s2, u, v, mask, &tex);
            } else if (sp->cls.tex) {
                op.coord[0] = &vals[sp->val_of_slot[sp->cls.uv[0]]];
                op.coord[1] = &vals[sp->val_of_slot[sp->cls.uv[1]]];
                op.mask = mask;
                eg_soft_sample(&op, &tex);
            }
            for (uint32_t c = 0; c < 4u; c++) shade_comp(sp, c, vals, &tex, n4, &out.c[c]);
            skipped += sp->store(sp, row + (size_t)x * tg->elem_B, n, &out);
        }
    }
    f->w->span_px += filled;
    f->w->span_copy_px += copied;
    f->w->span_skip_px += skipped;
    f->w->span_row_px += rows;
    return true;
}

bool eg_soft_span_pair_on = true;
uint32_t eg_soft_span_pair_quads;
bool eg_soft_span_pair_quick_on = true;
uint32_t eg_soft_span_pair_quick_quads;
bool eg_soft_span_pair_sep_on = true;
uint32_t eg_soft_span_pair_sep_quads;
uint32_t eg_soft_span_pair_rect_quads;
bool eg_soft_sep_memo_on = true, eg_soft_sep_memo_verify;
uint32_t eg_soft_sep_memo_hits, eg_soft_sep_memo_misses, eg_soft_sep_memo_bad, eg_soft_glyph_rs_hits;

bool eg_soft_span_pairs(const struct eg_soft_raster_pipeline *r)
{
    return eg_soft_span_pair_on && r->span && r->span->pair[0] && eg_soft_raster_fast_paths;
}

/* The fields of a glyph pair's span_fill_t that come from the target and the worker, and its
 * outputs cleared (no constant rows: the pair kernels take none), for pair_fill and quad_common. */
static EG_ALWAYS_INLINE void pair_outputs(const eg_soft_frag_t *f, span_fill_t *c)
{
    const eg_soft_target_t *tg = &f->ps->fb->color[0];
    c->rows_min = c->rows_min_q = eg_soft_span_rowc_min_fused;
    c->try_rows = c->fixed_row = false;
    c->fixed_px = 0u;
    c->base = tg->base;
    c->pitch_B = tg->row_pitch_B;
    c->own_x0 = f->w->clip_x0;
    c->own_x1 = f->w->clip_x1;
    c->filled = c->skipped = c->rows = 0;
    c->sep = c->sep_rect = false;
    c->sep_ref = NULL;
    c->sep_gen = 0u;
}

/* A glyph triangle's fused set-up (eg_soft_span_triangle's, for a texture class without
 * constant rows: try_rows false) and whether FZ_(glyph) would fill it (TEXC, one moving edge). */
static EG_ALWAYS_INLINE bool pair_fill(eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const eg_soft_sample2d_t *s2,
                                       uint32_t wi, const int64_t box[4], span_tri_t *k, span_fill_t *fc)
{
    span_values(f, sp, k);
    fc->f = f;
    eg_soft_span_fused_tri(sp, k, s2, fc);
    fc->px0 = box[0]; fc->px1 = box[1]; fc->py0 = box[2]; fc->py1 = box[3];
    pair_outputs(f, fc);
    /* edges_init + span_edges_one's result in one pass (span_edges_one_init) */
    if (fc->modes == FZ_MODES_TEXC && sp->fused[wi][FZ_MODES_TEXC] && span_edges_one_init(&f->s, fc)) return true;
    edges_init(&f->s, box[2] * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, fc->ew);
    if (fc->modes == FZ_MODES_TEXC) fc->modes = FZ_MODES_TEX;
    return false;
}

/* FZ_(glyph2)'s conditions on two FZ_(glyph) triangles: their moving edges (ew[0]) one line
 * with complementary edge functions (E_a + E_b = -1 at every pixel centre: the same A, B with
 * signs swapped, C_a + C_b = -1 after the top-left adjustment, so each pixel centre is on exactly
 * one side and the split of a row is one column), and everything FZ_(glyph) takes once per
 * triangle other than the coordinates equal: colour, coverage multiplier order, coordinate
 * modes, 1/w (as bits). */
static bool pair_shares(const eg_soft_setup_t *sa, const eg_soft_setup_t *sb, const span_fill_t *a, const span_fill_t *b)
{
    if (a->persp != b->persp || a->uv_mode[0] != b->uv_mode[0] || a->uv_mode[1] != b->uv_mode[1] ||
        a->mul_first[3] != b->mul_first[3] || a->kbits[0] != b->kbits[0] || a->kbits[1] != b->kbits[1] ||
        a->kbits[2] != b->kbits[2] || a->kbits[3] != b->kbits[3])
        return false;
    union { float f[3]; uint32_t u[3]; } wa = { { a->iw0, a->iw1, a->iw2 } }, wb = { { b->iw0, b->iw1, b->iw2 } };
    if (wa.u[0] != wb.u[0] || wa.u[1] != wb.u[1] || wa.u[2] != wb.u[2]) return false;
    if (a->ew[0].kind == 0 || a->ew[0].kind != -b->ew[0].kind || a->ew[0].d != b->ew[0].d) return false;
    for (uint32_t i = 0; i < 3u; i++)
        for (uint32_t j = 0; j < 3u; j++)
            if (sa->A[i] != 0 && sa->B[i] != 0 && sa->A[i] == -sb->A[j] && sa->B[i] == -sb->B[j] &&
                sa->C[i] + sb->C[j] == -1)
                return true;
    return false;
}

/* ---- a glyph quad's set-up in one pass (pairset2) ----
 *
 * pair_fill for both triangles computed every value of span_tri_t (span_values), then
 * eg_soft_span_fused_tri copied and converted them into span_fill_t, then the pair checks read
 * a part back: ~1.6 k instructions a glyph quad (row 4, UI opaque) before FZ_(glyph2) ran. The
 * quad's path (quad_tri, quad_fill) computes only what FZ_(glyph2) reads, with the same float
 * operations on the same operands (span_values' weights' gradients and differences, fused_value's
 * modes, eg_soft_span_fused_tri's fx products), and decides exactly what pair_fill and
 * pair_shares decide for a FZ_MODES_TEXC pair: each colour value fixed (span_value_fixed), one
 * moving edge (span_edges_one_init), the pair's shared fields equal. Anything else returns false
 * with nothing written to the target, and the general set-up below decides as before. */

#if VM_SIMD
typedef float quad4_f __attribute__((vector_size(16)));
typedef uint32_t quad4_u __attribute__((vector_size(16)));
#endif

/* Value v of t as span_values makes it (a0; d1, d2 the same float differences when
 * interpolated, else 0), and whether span_value_fixed holds for it. */
static EG_ALWAYS_INLINE bool quad_value(const eg_soft_span_pipe_t *sp, const eg_soft_tri_t *t, uint32_t v, bool safe,
                                        float *a0, float *d1, float *d2)
{
    const uint32_t j = sp->vary[v], interp = sp->interp[v];
    float a = t->prov->var[j], e1 = 0.0f, e2 = 0.0f;
    if (interp != EG_SOFT_INTERP_FLAT) {
        a = t->v[0]->var[j];
        e1 = t->v[1]->var[j] - a;
        e2 = t->v[2]->var[j] - a;
    }
    *a0 = a;
    *d1 = e1;
    *d2 = e2;
    return span_value_fixed(interp, safe, a, e1, e2);
}

/* The per-triangle fields of c that FZ_(glyph2) reads for f's triangle in box (pair_fill's for a
 * FZ_MODES_TEXC triangle); false where pair_fill would not find one (a colour value not fixed,
 * not one moving edge). */
static EG_ALWAYS_INLINE bool quad_tri(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const int64_t box[4],
                                      span_fill_t *c, int *m)
{
    const eg_soft_setup_t *s = &f->s;
    const eg_soft_tri_t *t = f->t;
    const float d1x = (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    const float d1y = (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    const float d2x = (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2;
    const float d2y = (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2;
    const bool safe = span_fixed_safe_of(t->invw[0], d1x, d1y, d2x, d2y);
    float a0, e1, e2;
#if VM_SIMD
    if (sp->fz_col_j != SPAN_NO_VAL) {   /* the colour as one vector: span_value_fixed per lane */
        const uint32_t j = sp->fz_col_j;
        quad4_f a, v1, v2;
        __builtin_memcpy(&a, t->v[0]->var + j, sizeof a);
        __builtin_memcpy(&v1, t->v[1]->var + j, sizeof v1);
        __builtin_memcpy(&v2, t->v[2]->var + j, sizeof v2);
        const quad4_u ua = (quad4_u)a, dd = (quad4_u)(v1 - a) | (quad4_u)(v2 - a);
        const quad4_u mag = { 0x7fffffffu, 0x7fffffffu, 0x7fffffffu, 0x7fffffffu };
        const quad4_u ex = { 0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u };
        const quad4_u bad = (quad4_u)((dd & mag) != 0u) | (quad4_u)((ua & ex) == ex) | (quad4_u)((ua & mag) == 0u);
        uint64_t any[2];   /* the lanes' OR as two words (four lane extracts were ~14 instructions) */
        __builtin_memcpy(any, &bad, sizeof any);
        if (!safe || (any[0] | any[1])) return false;
        __builtin_memcpy(c->kbits, &ua, sizeof c->kbits);
    } else
#endif
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
    for (uint32_t ch = 0; ch < 4u; ch++) {   /* the colour: FZ_MODES_TEXC's fixed values, as bits */
        const uint32_t v = sp->fz_val[ch];
        if (v == SPAN_NO_VAL) {
            c->kbits[ch] = sp->fz_bits[ch];
            continue;
        }
        if (!quad_value(sp, t, v, safe, &a0, &e1, &e2)) return false;
        union { float f; uint32_t u; } a = { a0 };
        c->kbits[ch] = a.u;
    }
    bool persp = false;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 2
#endif
    for (uint32_t i = 0; i < 2u; i++) {   /* the coordinates: fused_value's */
        const uint32_t v = sp->val_of_slot[sp->cls.uv[i]];
        const bool fixed = quad_value(sp, t, v, safe, &a0, &e1, &e2);
        const uint8_t mode = fixed ? FZ_CONST : sp->interp[v] == EG_SOFT_INTERP_LINEAR ? FZ_LIN : FZ_PERSP;
        c->uv_a0[i] = a0;
        c->uv_dv1[i] = fixed ? 0.0f : e1;
        c->uv_dv2[i] = fixed ? 0.0f : e2;
        c->uv_mode[i] = mode;
        persp |= mode == FZ_PERSP;
    }
    c->persp = persp;
#if VM_SIMD
    {   /* eg_soft_span_fused_tri's products, per lane */
        const quad4_f fx = { 0.0f, 1.0f, 2.0f, 3.0f }, p1 = fx * d1x, p2 = fx * d2x;
        __builtin_memcpy(c->fxd1, &p1, sizeof p1);
        __builtin_memcpy(c->fxd1 + 4, &p1, sizeof p1);
        __builtin_memcpy(c->fxd2, &p2, sizeof p2);
        __builtin_memcpy(c->fxd2 + 4, &p2, sizeof p2);
    }
#else
    for (uint32_t l = 0; l < 4u; l++) {   /* eg_soft_span_fused_tri's products */
        float fx = (float)l;
        c->fxd1[l] = c->fxd1[l + 4u] = fx * d1x;
        c->fxd2[l] = c->fxd2[l + 4u] = fx * d2x;
    }
#endif
    c->d1y = d1y;
    c->d2y = d2y;
    c->iw0 = t->invw[0]; c->iw1 = t->invw[1]; c->iw2 = t->invw[2];
    c->inv_area2 = s->inv_area2;
    c->A1 = s->A[1]; c->A2 = s->A[2];
    c->B1 = s->B[1]; c->B2 = s->B[2];
    c->C1 = s->C[1]; c->C2 = s->C[2];
    c->px0 = box[0]; c->px1 = box[1]; c->py0 = box[2]; c->py1 = box[3];
    return span_edges_one_init_(s, c, false, m);
}

/* The fields of the draw and the worker (pair_fill's and fused_tex_coords'), and the outputs. */
static EG_ALWAYS_INLINE void quad_common(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp,
                                         const eg_soft_sample2d_t *s2, span_fill_t *c)
{
    c->f = f;
    c->k = NULL;   /* FZ_(glyph2) reads no span_tri_t */
    c->modes = FZ_MODES_TEXC;
    __builtin_memcpy(c->mul_first, sp->fz_mul_first, sizeof c->mul_first);
    c->tbase = s2->s.base;
    c->tw = (int32_t)s2->s.width_el;
    c->th = (int32_t)s2->s.height_el;
    c->tpitch_B = s2->s.row_pitch_B;
    pair_outputs(f, c);
}

/* pair_shares for two quad_tri triangles whose moving edges are edge ma of sa, mb of sb (the only
 * edges with A and B both nonzero, span_edges_one_init: so the only pair pair_shares' search can
 * find), with equal mul_first (one pipeline's: quad_common). */
static EG_ALWAYS_INLINE bool quad_shares(const eg_soft_setup_t *sa, const eg_soft_setup_t *sb, const span_fill_t *a,
                                         const span_fill_t *b, int ma, int mb)
{
    union { float f[3]; uint32_t u[3]; } wa = { { a->iw0, a->iw1, a->iw2 } }, wb = { { b->iw0, b->iw1, b->iw2 } };
    return a->persp == b->persp && a->uv_mode[0] == b->uv_mode[0] && a->uv_mode[1] == b->uv_mode[1] &&
           ((a->kbits[0] ^ b->kbits[0]) | (a->kbits[1] ^ b->kbits[1]) | (a->kbits[2] ^ b->kbits[2]) |
            (a->kbits[3] ^ b->kbits[3]) | (wa.u[0] ^ wb.u[0]) | (wa.u[1] ^ wb.u[1]) | (wa.u[2] ^ wb.u[2])) == 0u &&
           a->ew[0].kind == -b->ew[0].kind && a->ew[0].d == b->ew[0].d && sa->A[ma] == -sb->A[mb] &&
           sa->B[ma] == -sb->B[mb] && sa->C[ma] + sb->C[mb] == -1;
}

/* Both triangles for FZ_(glyph2) (pair_fill, pair_fill, pair_shares: true exactly where they
 * give true, true, true, with the same fields FZ_(glyph2) reads). */
static bool quad_fill(const eg_soft_frag_t *fa, const int64_t ba[4], const eg_soft_frag_t *fb, const int64_t bb[4],
                      const eg_soft_span_pipe_t *sp, const eg_soft_sample2d_t *s2, span_fill_t fc[2])
{
    int ma = 0, mb = 0;
    if (!quad_tri(fa, sp, ba, &fc[0], &ma) || !quad_tri(fb, sp, bb, &fc[1], &mb) ||
        !quad_shares(&fa->s, &fb->s, &fc[0], &fc[1], ma, mb))
        return false;
    quad_common(fa, sp, s2, &fc[0]);
    quad_common(fb, sp, s2, &fc[1]);
    return true;
}

/* eg_soft_span_pair's tests that hold for a whole draw (fa's: the pipeline, the target, the
 * texture objects of tex_lookup), kept in the worker's texture memo for the draw's later quads
 * (its serial and the memo's stamp: tex_lookup's first test): they were ~100 instructions a
 * glyph quad (pairset2). The texture memo, or NULL: no pair. */
static EG_ALWAYS_INLINE const tex_memo_t *pair_draw(const eg_soft_frag_t *fa, const eg_soft_span_pipe_t *sp, uint32_t wi)
{
    tex_memo_t *m = &tex_memo[fa->w->index < EMGPU_SOFT_MAX_THREADS ? fa->w->index : 0u];
    const uint64_t serial = fa->ps->serial;
    if (serial && m->valid && m->serial == serial && m->ps == fa->ps && m->sp == sp && m->epoch == eg_soft_span_epoch &&
        m->pair_serial == serial && m->pair_width == eg_soft_span_fused_width)
        return m;
    const struct eg_soft_raster_pipeline *rs = fa->rs;
    const eg_soft_fb_t *fbuf = fa->ps->fb;
    /* eg_soft_span_triangle's conditions, on the way to FZ_(glyph): a blended texture class
     * (sp->pair), no constant rows, the fused kernels on */
    if (!sp->pair[wi] || eg_soft_span_fused_width == 1u || sp->rowconst || rs->native_fs || fa->samples != 1u ||
        fbuf->color_count < 1u || !fbuf->color[0].base)
        return NULL;
    const tex_memo_t *t = tex_lookup(fa, sp);   /* one draw: the same objects for both */
    if (!t || !t->prepared || t->s2.linear || t->s2.format != WGPUTextureFormat_R8Unorm || !sp->fused[0][FZ_MODES_TEX])
        return NULL;
    m->pair_serial = serial;   /* (t is m) */
    m->pair_width = eg_soft_span_fused_width;
    return m;
}

/* The pair's rows (FZ_(glyph2), or each triangle alone where pair is false) and the counters. */
static void pair_run(eg_soft_worker_t *w, const eg_soft_span_pipe_t *sp, uint32_t wi, span_fill_t fc[2], bool pair,
                     bool quick)
{
    if (pair) {
        /* FZ_(glyph2)'s left triangle first: the one whose moving edge bounds it on the right */
        if (fc[0].ew[0].kind < 0) sp->pair[wi](sp, &fc[0], &fc[1]);
        else sp->pair[wi](sp, &fc[1], &fc[0]);
        if (w == &eg_soft_worker_main) {
            eg_soft_span_pair_quads++;
            eg_soft_span_pair_quick_quads += quick;
            eg_soft_span_pair_sep_quads += fc[0].sep || fc[1].sep;
            eg_soft_span_pair_rect_quads += fc[0].sep_rect || fc[1].sep_rect;
        }
    } else {   /* each alone, in order, as eg_soft_span_triangle fills it */
        sp->fused[wi][fc[0].modes](sp, &fc[0]);
        sp->fused[wi][fc[1].modes](sp, &fc[1]);
    }
    for (uint32_t t = 0; t < 2u; t++) {
        w->span_px += fc[t].filled;
        w->span_skip_px += fc[t].skipped;
        w->span_row_px += fc[t].rows;
        w->span_fused_px += fc[t].filled - fc[t].rows;
    }
}

bool eg_soft_quad_memo_on = true, eg_soft_quad_memo_verify;
uint32_t eg_soft_quad_memo_hits, eg_soft_quad_memo_misses, eg_soft_quad_memo_bad, eg_soft_quad_memo_quads;

#if EMGPU_SOFT_QUAD_MEMO > 0
/* QUAD MEMO (quadmemo, session 15): a glyph quad's whole set-up once per shape. Row 4 (UI opaque,
 * 5 frames, 9,000 glyph quads) spent ~1.5 k instructions a quad before FZ_(glyph2): the two
 * tri_setup_ (~410), raster_pair_set_up (~120) and quad_fill (~940). Text repeats its glyphs at
 * few block phases, and that set-up is a function of the quad's raw inputs relative to O, a
 * 4-px-aligned origin (t0's first snapped vertex's pixel, & ~3):
 * TRANSLATION. Moving both triangles by (ox, oy) px, multiples of 4 (O S subpixels, S =
 * EG_SOFT_SUBPIX), moves each snapped vertex by exactly O S (the snap is per vertex; O S is an
 * integer; the key holds the snapped values, so the floats' snap is not in question). Then
 * setup_edges' A, B (differences), area2 (its sign: culling, the front face; inv_area2) and the
 * top-left adjustments are unchanged, and C' = C - A ox S - B oy S (exact int64); the boxes
 * (X >> 8: a floor, O S a multiple of 256) move by O, and so do the scissor- and worker-clipped
 * boxes c whose O-relative values the key holds (so a clip or a scissor that cuts the quad is in
 * the key, whatever else it cuts). quad_tri's floats read A, B, inv_area2, 1/w and the varyings
 * (in the key, as bits): the same operations on the same operands, so the same bits.
 * span_edges_one_init_'s edges: k = B Y + C + A S / 2 at the box's first row becomes k - A ox S
 * = k - kind d ox (d = |A| S), so the floor quotients of its A != 0 edges move by -kind ox with
 * equal remainders, those of A = 0 edges (k, dk, the row bounds relative to py0) are unchanged:
 * so the moving edge (the one with A, B != 0), the folded box (relative) and ew[0]'s kind, d, dk,
 * r, dq, dr are the same, q and k move as said. quad_shares compares A, B, kind, d, 1/w and the
 * colour (unchanged) and C_a + C_b, unchanged where A_a = -A_b and B_a = -B_b (else false either
 * way). So an entry (relative: C as C + A ox S + B oy S, q + kind ox, k + kind d ox, boxes - O)
 * restored at the hit quad's O gives exactly the fields quad_fill would give it.
 * KEY (qm_key_t), every input of tri_setup_, raster_pair_set_up's clip and eg_soft_span_pair's
 * quick path: the 12 snapped coordinates - O S; the clipped boxes - O (the scissor and the
 * worker's clip are read only through them: raster_pair_set_up and quad_fill read c, tri_setup_'s
 * own box is not empty where c is not); is_polygon (culling); the varyings quad_tri reads (the
 * pipeline's window of 8, masked, at v[0..2]; pipelines with a flat one, read at prov, take no
 * memo) and 1/w, as bits; the pipeline's
 * serial (its slots, modes, interpolation, colour constants, cull and front face: fixed at
 * creation, and serials are never reused) and the fused width. Not in the key, read fresh at
 * each hit: the draw's tests (pair_draw: texture, target, samples), the texture's size, pitch
 * and texels, the target's base and pitch, the worker's own columns and the hooks (quad_common
 * and the checks below). Only results of the quick path are stored (a quad that takes another
 * path takes it on every visit, ~0 on the bench). Compared whole (after a hash), floats as bits.
 * Coordinates farther than 2^20 subpixels from O skip the memo (every relative value is then
 * exact in int32 and int16, and A ox S below 2^50).
 * QUAD KEY (quadkey, session 16): a strip quad's triangles t0 = (V0, V1, V2), t1 = (V1, V3, V2)
 * (vtxquad's quad_tris; soft_raster.c qm_strip checks the shared vertices' pointers and their
 * x, y and 1/w bits in both) share 2 of their 3 vertices, so the key above repeats them: its
 * 12 coordinates, 6 vertices' varyings and 6 1/w are those of 4 vertices. Such quads are keyed
 * by the 4 (u.q, tag 2: 208 bytes, 13 compared words of 20; its own hash of 10 words), the rest
 * (boxes, is_polygon, serial, width) as above: the two-triangle key is a function of it (each of
 * its fields one of u.q's, by the check), so two quads with equal u.q keys have equal
 * two-triangle keys and everything above holds as it is (the same O: t0's first vertex). The
 * tags keep the two shapes' entries apart (qm_same compares b's shape's bytes, the tag among
 * them). Snapped from 4 vertices too (two snap4, not four), the key's boxes as one vector. Row 4
 * (UI opaque, 5 frames): 41.12 -> 40.26 M instructions, ~95 a glyph quad fewer (key, compare,
 * hash, snap and boxes); rows 2, 3, 5 -0.85 M each.
 * Per worker (w->index), EMGPU_SOFT_QUAD_MEMO entries, 4-way sets (filled in turn; the hash
 * compared first, the key where it matches). The UI bench has 87 keys on row 2 (47 on row 4):
 * with 2-way sets of 128 or 256 entries some sets held 3 or more of them in turn (row 2: 1,961
 * and 954 misses in 9,000 quads); 4-way sets of 256: 87. A miss leaves its key in
 * qm_pend for eg_soft_span_pair's quick path to store with its result (dropped by the caller
 * after: the triangles' addresses, compared there, are reused). FZ_(glyph2) then runs as on the
 * general path, except that the entry also keeps the separable-table memo entry the quad's
 * kernel found (FZ_(sep_get)'s sep_ref out, with that entry's generation) and hands it back in
 * at hits of the same texture size and pitch (the tables' key holds those, this one does not):
 * sep_get takes it without building its key (~270 instructions) while the entry's generation
 * is unchanged (not overwritten since). That key is the quad's fields relative to its own 4x4
 * block, equal for two quads equal here relative to O (the translation argument above, O a
 * multiple of 4: the set-up alone would allow any integer O; the tables need the block phase).
 * Checked by eg_soft_quad_memo_verify and eg_soft_sep_memo_verify (tests/unit/
 * soft_quad_memo_test.c). */
#define QM_WAYS 4u
#define QM_SETS ((EMGPU_SOFT_QUAD_MEMO + QM_WAYS - 1u) / QM_WAYS)
#define QM_RANGE ((int32_t)1 << 20)

typedef struct {
    uint64_t serial;           /* sp->qm_serial */
    uint8_t poly[2], wi, tag;  /* tag 1: two triangles' key (u.t), 2: a strip quad's (u.q); a zeroed entry never matches */
    uint8_t pad[4];
    int16_t box[2][4];         /* c - O */
    union {
        struct {
            int32_t xy[2][8];      /* snapped x0 x1 x2 y0 y1 y2 - O S (and two 0) */
            uint32_t iw[2][4];     /* 1/w bits (and a 0) */
            float var[2][3][8];    /* v[0], v[1], v[2]: var[qm_j + i] of qm_vm's lanes (others 0) */
        } t;
        struct {                   /* QUAD KEY: t0 = (V0, V1, V2), t1 = (V1, V3, V2) */
            int32_t xy[8];         /* snapped X0 X1 X2 Y0 Y1 Y2 X3 Y3 - O S */
            uint32_t iw[4];        /* 1/w bits of V0 .. V3 */
            float var[4][8];       /* V0 .. V3's varyings as in t.var */
        } q;
    } u;
} qm_key_t;
#define QM_QUAD_B 208u         /* a strip quad's key: its first 208 bytes (13 16-byte words of 20) */
_Static_assert(sizeof(qm_key_t) == 320 && offsetof(qm_key_t, u) == 32 &&
               offsetof(qm_key_t, u.q.var) + sizeof(float[4][8]) == QM_QUAD_B,
               "qm_key_t: no padding, 16-byte words");

/* one triangle's stored fields, relative (quad_tri's; quad_common's are the current draw's) */
#define QM_F 136u              /* span_fill_t fxd1 .. C2 */
_Static_assert(offsetof(span_fill_t, C2) + sizeof(int64_t) - offsetof(span_fill_t, fxd1) == QM_F &&
               offsetof(span_fill_t, uv_mode) + 2 - offsetof(span_fill_t, uv_a0) == 26 &&
               offsetof(span_fill_t, C1) - offsetof(span_fill_t, fxd1) == QM_F - 16u,
               "span_fill_t: the memo's runs of fields");
typedef struct {
    uint8_t f[QM_F];           /* fxd1, fxd2, d1y, d2y, iw0-2, inv_area2, A1, A2, B1, B2, C1, C2 (C relative) */
    uint32_t kbits[4];
    uint8_t uv[32];            /* uv_a0, uv_dv1, uv_dv2, uv_mode (26 bytes; copied as 32: what follows in
                                * span_fill_t up to tbase is rewritten by quad_common or not read) */
    edge_walk_t ew;            /* ew[0], q and k relative */
    int64_t box[4];            /* px0, px1, py0, py1 - O (as span_fill_t holds them: one vector add back) */
    bool persp;
} qm_tri_t;

typedef struct {
    qm_key_t key;
    uint64_t h;
    qm_tri_t t[2];
    /* FZ_(sep_get)'s memo entry (its sep_ref, sep_gen out) for this quad at texture size tw x th,
     * row pitch tpitch_B (the separable tables' key holds them; this key does not): passed to the
     * kernel at a hit of the same size (sep_get checks the entry still holds it) */
    const void *sep_ref;
    uint64_t sep_gen;
    int32_t tw, th;
    uint32_t tpitch_B;
} qm_ent_t;

typedef struct {
    EG_SOFT_OWN_LINE qm_key_t key;
    uint64_t h;
    int64_t ox, oy;
    const eg_soft_tri_t *ta, *tb;
    bool valid;
} qm_pend_t;

static EG_SOFT_OWN_LINE qm_ent_t qm_memo[EMGPU_SOFT_MAX_THREADS][QM_SETS][QM_WAYS];
typedef struct {
    EG_SOFT_OWN_LINE uint8_t way[QM_SETS];   /* the way the set's next store takes (in turn) */
} qm_next_t;
static qm_next_t qm_next[EMGPU_SOFT_MAX_THREADS];
static qm_pend_t qm_pend[EMGPU_SOFT_MAX_THREADS];

static inline uint32_t qm_wk(const eg_soft_worker_t *w) { return w->index < EMGPU_SOFT_MAX_THREADS ? w->index : 0u; }

#if VM_SIMD
typedef uint32_t qm_u4_t __attribute__((vector_size(16)));
typedef int32_t qm_i4_t __attribute__((vector_size(16)));
typedef uint64_t qm_q2_t __attribute__((vector_size(16)));
typedef int16_t qm_h8_t __attribute__((vector_size(16)));
#endif

/* n bytes (a multiple of 8) from s to d, 16 at a time (GCC moved such runs 8 bytes at a time) */
static EG_ALWAYS_INLINE void qm_copy(void *dv, const void *sv, uint32_t n)
{
    uint8_t *d = dv;
    const uint8_t *s = sv;
    uint32_t i = 0;
#if VM_SIMD
    for (; i + 16u <= n; i += 16u) {
        qm_u4_t v;
        __builtin_memcpy(&v, s + i, sizeof v);
        __builtin_memcpy(d + i, &v, sizeof v);
    }
#endif
    for (; i < n; i += 8u) {
        uint64_t v;
        __builtin_memcpy(&v, s + i, sizeof v);
        __builtin_memcpy(d + i, &v, sizeof v);
    }
}

/* n vertices' varyings var[j0, j0 + 8) under qm_vm's lanes into d[0 .. n) */
static EG_ALWAYS_INLINE void qm_vars(float (*d)[8], const eg_soft_vtx_t *const *vs, uint32_t n,
                                     const eg_soft_span_pipe_t *sp)
{
    const uint32_t j0 = sp->qm_j;
#if VM_SIMD
    qm_u4_t vm0, vm1;
    __builtin_memcpy(&vm0, sp->qm_vm, sizeof vm0);
    __builtin_memcpy(&vm1, sp->qm_vm + 4, sizeof vm1);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 6
#endif
    for (uint32_t i = 0; i < n; i++) {   /* (no flat value: prov not read) */
        qm_u4_t x0, x1;
        __builtin_memcpy(&x0, vs[i]->var + j0, sizeof x0);
        __builtin_memcpy(&x1, vs[i]->var + j0 + 4, sizeof x1);
        x0 &= vm0;
        x1 &= vm1;
        __builtin_memcpy(d[i], &x0, sizeof x0);
        __builtin_memcpy(d[i] + 4, &x1, sizeof x1);
    }
#else
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t l = 0; l < 8u; l++) {
            uint32_t x;
            __builtin_memcpy(&x, vs[i]->var + j0 + l, sizeof x);
            x &= sp->qm_vm[l];
            __builtin_memcpy(d[i] + l, &x, sizeof x);
        }
#endif
}

/* d[0 .. 8) = s - (lanes 0-3: o[0 .. 4), lanes 4-7: o[4 .. 8)) (wrapped) where m (all ones), else
 * 0; the result: not 0 where a difference is out of the memo's range. O S fits int32 (|X0| <
 * 2^28, eg_soft_quad_memo's test); then each X - O S is below 2^32 - 2^20 in magnitude, so the
 * wrapped 32-bit difference is small (the range test) exactly where the true one is. */
static EG_ALWAYS_INLINE uint32_t qm_rel(int32_t *d, const int32_t *s, const uint32_t o[8], const uint32_t m[8])
{
#if VM_SIMD
    const qm_u4_t rg = { (uint32_t)QM_RANGE, (uint32_t)QM_RANGE, (uint32_t)QM_RANGE, (uint32_t)QM_RANGE };
    qm_u4_t a, b, o0, o1, m0, m1;
    __builtin_memcpy(&a, s, sizeof a); __builtin_memcpy(&b, s + 4, sizeof b);
    __builtin_memcpy(&o0, o, sizeof o0); __builtin_memcpy(&o1, o + 4, sizeof o1);
    __builtin_memcpy(&m0, m, sizeof m0); __builtin_memcpy(&m1, m + 4, sizeof m1);
    a = (a - o0) & m0;
    b = (b - o1) & m1;
    __builtin_memcpy(d, &a, sizeof a);
    __builtin_memcpy(d + 4, &b, sizeof b);
    const qm_u4_t fv = ((a + rg) | (b + rg)) >> 21;
    uint64_t fw[2];
    __builtin_memcpy(fw, &fv, sizeof fw);
    return (fw[0] | fw[1]) != 0u;
#else
    uint32_t far = 0u;
    for (uint32_t j = 0; j < 8u; j++) {
        const uint32_t x = ((uint32_t)s[j] - o[j]) & m[j];
        far |= (x + (uint32_t)QM_RANGE) >> 21;
        d[j] = (int32_t)x;
    }
    return far;
#endif
}

/* The words of key k at kb[0 .. n) (12 at most) hashed: a multiplicative hash, each word its own
 * odd multiplier (an XOR of fewer products left sets of the UI bench's 87 keys with 3 or more: row
 * 2 took 1,961 misses in 9,000 quads at 128 entries); read straight from k (through a copy GCC
 * moved them twice) */
static EG_ALWAYS_INLINE uint64_t qm_hash(const uint8_t *const kb[], uint32_t n)
{
    static const uint64_t K[12] = { 0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
                                    0xD6E8FEB86659FD93ull, 0xFF51AFD7ED558CCDull, 0xC4CEB9FE1A85EC53ull,
                                    0x87C37B91114253D5ull, 0x2545F4914F6CDD1Dull,
                                    0x94D049BB133111EBull, 0xBF58476D1CE4E5B9ull,
                                    0xA0761D6478BD642Full, 0xE7037ED1A0B428DBull };
    uint64_t a = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 12
#endif
    for (uint32_t i = 0; i < n; i++) {
        uint64_t x;
        __builtin_memcpy(&x, kb[i], sizeof x);
        a += x * K[i];
    }
    return (a ^ a >> 29) * 0x9E3779B97F4A7C15ull;
}

/* What both key shapes hold: the boxes c - O, is_polygon, the pipeline's serial, the width and
 * the shape (tag) */
static EG_ALWAYS_INLINE void qm_head(const eg_soft_frag_t f[2], const eg_soft_span_pipe_t *sp, uint32_t wi,
                                     const int32_t c[2][4], int64_t ox, int64_t oy, uint8_t tag, qm_key_t *k)
{
#if VM_SIMD && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* one int32 vector subtraction a triangle, the low halves (little-endian: the even int16 lanes) of both as one int16 vector (the same
     * 16 bits as the conversions below; the eight scalar ones were ~28 instructions a quad) */
    const qm_u4_t o = { (uint32_t)ox, (uint32_t)ox, (uint32_t)oy, (uint32_t)oy };
    qm_u4_t b0, b1;
    __builtin_memcpy(&b0, c[0], sizeof b0);
    __builtin_memcpy(&b1, c[1], sizeof b1);
    b0 -= o;
    b1 -= o;
#if defined(__clang__)
    const qm_h8_t bh = __builtin_shufflevector((qm_h8_t)b0, (qm_h8_t)b1, 0, 2, 4, 6, 8, 10, 12, 14);
#else
    const qm_h8_t bh = __builtin_shuffle((qm_h8_t)b0, (qm_h8_t)b1, (qm_h8_t){ 0, 2, 4, 6, 8, 10, 12, 14 });
#endif
    _Static_assert(sizeof bh == sizeof k->box, "qm_head: the boxes as one vector");
    __builtin_memcpy(k->box, &bh, sizeof bh);
#else
    k->box[0][0] = (int16_t)(c[0][0] - ox); k->box[0][1] = (int16_t)(c[0][1] - ox);
    k->box[0][2] = (int16_t)(c[0][2] - oy); k->box[0][3] = (int16_t)(c[0][3] - oy);
    k->box[1][0] = (int16_t)(c[1][0] - ox); k->box[1][1] = (int16_t)(c[1][1] - ox);
    k->box[1][2] = (int16_t)(c[1][2] - oy); k->box[1][3] = (int16_t)(c[1][3] - oy);
#endif
    k->poly[0] = f[0].t->is_polygon;
    k->poly[1] = f[1].t->is_polygon;
    k->serial = sp->qm_serial;
    k->wi = (uint8_t)wi;
    k->tag = tag;
    __builtin_memset(k->pad, 0, sizeof k->pad);
}

/* The key (u.t) of quad f[0], f[1] (eg_soft_quad_memo's arguments, two triangles) and its hash;
 * false: out of the memo's range (the coordinates). */
static EG_ALWAYS_INLINE bool qm_key(const eg_soft_frag_t f[2], const eg_soft_span_pipe_t *sp, uint32_t wi,
                                    const int32_t xy[2][8], const int32_t c[2][4], int64_t ox, int64_t oy,
                                    qm_key_t *k, uint64_t *h)
{
    const uint32_t oxs = (uint32_t)(ox * EG_SOFT_SUBPIX), oys = (uint32_t)(oy * EG_SOFT_SUBPIX);
    const uint32_t o[8] = { oxs, oxs, oxs, oys, oys, oys, 0u, 0u }, m[8] = { ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, 0u, 0u };
    if (qm_rel(k->u.t.xy[0], xy[0], o, m) | qm_rel(k->u.t.xy[1], xy[1], o, m)) return false;
    /* the varyings, boxes and 1/w in straight lines, the masks loaded once (qmhit: as one loop over
     * the two triangles GCC kept the loop and spilled its pointers, ~150 instructions a quad) */
    const eg_soft_tri_t *const t0 = f[0].t, *const t1 = f[1].t;
    const eg_soft_vtx_t *const vs[6] = { t0->v[0], t0->v[1], t0->v[2], t1->v[0], t1->v[1], t1->v[2] };
    qm_vars(k->u.t.var[0], vs, 6u, sp);
    qm_head(f, sp, wi, c, ox, oy, 1u, k);
    __builtin_memcpy(k->u.t.iw[0], t0->invw, 3u * sizeof(float));
    __builtin_memcpy(k->u.t.iw[1], t1->invw, 3u * sizeof(float));
    k->u.t.iw[0][3] = k->u.t.iw[1][3] = 0u;
    /* the set: the words that tell glyphs (the first vertex's varyings), shapes and phases (the
     * coordinates, the boxes) apart; xy[i][6], xy[i][7] are 0 (their words' products: 0, left out) */
    const uint8_t *const kb[12] = { (const uint8_t *)k->u.t.var[0][0], (const uint8_t *)k->u.t.var[0][0] + 8,
                                    (const uint8_t *)k->u.t.var[0][0] + 16, (const uint8_t *)k->u.t.var[0][0] + 24,
                                    (const uint8_t *)k->u.t.xy[0], (const uint8_t *)k->u.t.xy[0] + 8,
                                    (const uint8_t *)k->u.t.xy[0] + 16, (const uint8_t *)k->u.t.xy[1],
                                    (const uint8_t *)k->u.t.xy[1] + 8, (const uint8_t *)k->u.t.xy[1] + 16,
                                    (const uint8_t *)k->box, (const uint8_t *)k->box + 8 };
    *h = qm_hash(kb, 12u);
    return true;
}

/* The key (u.q) of a strip quad f[0] = (V0, V1, V2), f[1] = (V1, V3, V2) (quadkey: the caller's
 * test, eg_soft_quad_memo's comment), q: snapped X0 X1 X2 Y0 Y1 Y2 X3 Y3, and its hash; false:
 * out of the memo's range. */
static EG_ALWAYS_INLINE bool qm_key_quad(const eg_soft_frag_t f[2], const eg_soft_span_pipe_t *sp, uint32_t wi,
                                         const int32_t q[8], const int32_t c[2][4], int64_t ox, int64_t oy,
                                         qm_key_t *k, uint64_t *h)
{
    const uint32_t oxs = (uint32_t)(ox * EG_SOFT_SUBPIX), oys = (uint32_t)(oy * EG_SOFT_SUBPIX);
    const uint32_t o[8] = { oxs, oxs, oxs, oys, oys, oys, oxs, oys }, m[8] = { ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u };
    if (qm_rel(k->u.q.xy, q, o, m)) return false;
    const eg_soft_tri_t *const t0 = f[0].t, *const t1 = f[1].t;
    const eg_soft_vtx_t *const vs[4] = { t0->v[0], t0->v[1], t0->v[2], t1->v[1] };
    qm_vars(k->u.q.var, vs, 4u, sp);
    qm_head(f, sp, wi, c, ox, oy, 2u, k);
    __builtin_memcpy(k->u.q.iw, t0->invw, 3u * sizeof(float));
    __builtin_memcpy(k->u.q.iw + 3, &t1->invw[1], sizeof(float));
    const uint8_t *const kb[10] = { (const uint8_t *)k->u.q.var[0], (const uint8_t *)k->u.q.var[0] + 8,
                                    (const uint8_t *)k->u.q.var[0] + 16, (const uint8_t *)k->u.q.var[0] + 24,
                                    (const uint8_t *)k->u.q.xy, (const uint8_t *)k->u.q.xy + 8,
                                    (const uint8_t *)k->u.q.xy + 16, (const uint8_t *)k->u.q.xy + 24,
                                    (const uint8_t *)k->box, (const uint8_t *)k->box + 8 };
    *h = qm_hash(kb, 10u);
    return true;
}

/* bytes [i0, i1) of keys a and b equal (multiples of 16) */
static EG_ALWAYS_INLINE bool qm_eq(const qm_key_t *a, const qm_key_t *b, uint32_t i0, uint32_t i1)
{
#if VM_SIMD
    qm_q2_t d = { 0, 0 };
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 20
#endif
    for (uint32_t i = i0; i < i1; i += 16u) {
        qm_q2_t x, y;
        __builtin_memcpy(&x, (const uint8_t *)a + i, sizeof x);
        __builtin_memcpy(&y, (const uint8_t *)b + i, sizeof y);
        d |= x ^ y;
    }
    return !(d[0] | d[1]);
#else
    uint64_t d = 0;
    for (uint32_t i = i0; i < i1; i += 8u) {
        uint64_t x, y;
        __builtin_memcpy(&x, (const uint8_t *)a + i, sizeof x);
        __builtin_memcpy(&y, (const uint8_t *)b + i, sizeof y);
        d |= x ^ y;
    }
    return !d;
#endif
}

/* entry key a equals b (a key of either shape), byte for byte over b's shape: its first
 * QM_QUAD_B bytes hold the tag, so an entry of the other shape differs there */
static EG_ALWAYS_INLINE bool qm_same(const qm_key_t *a, const qm_key_t *b)
{
    return qm_eq(a, b, 0u, QM_QUAD_B) && (b->tag == 2u || qm_eq(a, b, QM_QUAD_B, sizeof *a));
}

/* quad_tri's fields of c relative to O into e, and back (the MEMO comment's relative forms) */
static void qm_save(qm_tri_t *e, const span_fill_t *c, int64_t ox, int64_t oy)
{
    const int64_t xs = ox * EG_SOFT_SUBPIX, ys = oy * EG_SOFT_SUBPIX;
    const int64_t cr[2] = { c->C1 + c->A1 * xs + c->B1 * ys, c->C2 + c->A2 * xs + c->B2 * ys };
    __builtin_memcpy(e->f, c->fxd1, QM_F - 16u);
    __builtin_memcpy(e->f + QM_F - 16u, cr, 16u);
    __builtin_memcpy(e->kbits, c->kbits, sizeof e->kbits);
    __builtin_memset(e->uv, 0, sizeof e->uv);
    __builtin_memcpy(e->uv, c->uv_a0, 26u);
    e->persp = c->persp;
    e->ew = c->ew[0];
    e->ew.q += e->ew.kind * ox;
    e->ew.k += e->ew.kind * e->ew.d * ox;
    e->box[0] = c->px0 - ox; e->box[1] = c->px1 - ox;
    e->box[2] = c->py0 - oy; e->box[3] = c->py1 - oy;
}

_Static_assert(offsetof(span_fill_t, uv_a0) + 32u <= offsetof(span_fill_t, tw) &&
               offsetof(span_fill_t, kbits) + 16u <= offsetof(span_fill_t, mode),
               "qm_load's 32-byte run from uv_a0 stops before tw");
_Static_assert(offsetof(span_fill_t, px1) == offsetof(span_fill_t, px0) + 8 &&
               offsetof(span_fill_t, py0) == offsetof(span_fill_t, px0) + 16 &&
               offsetof(span_fill_t, py1) == offsetof(span_fill_t, px0) + 24, "qm_load's box words");
/* (xs, ys: O S, the caller's, once for both triangles) */
static EG_ALWAYS_INLINE void qm_load(const qm_tri_t *e, span_fill_t *c, int64_t ox, int64_t oy, int64_t xs, int64_t ys)
{
    qm_copy(c->fxd1, e->f, QM_F);
    c->C1 -= c->A1 * xs + c->B1 * ys;
    c->C2 -= c->A2 * xs + c->B2 * ys;
    qm_copy(c->kbits, e->kbits, sizeof e->kbits);
    qm_copy(c->uv_a0, e->uv, sizeof e->uv);   /* (then tbase: quad_common's) */
    c->persp = e->persp;
    qm_copy(&c->ew[0], &e->ew, sizeof e->ew);
    c->ew[0].q -= e->ew.kind * ox;
    c->ew[0].k -= e->ew.kind * e->ew.d * ox;
#if VM_SIMD
    const qm_q2_t vx = { (uint64_t)ox, (uint64_t)ox }, vy = { (uint64_t)oy, (uint64_t)oy };
    qm_q2_t bx, by;
    __builtin_memcpy(&bx, e->box, sizeof bx);
    __builtin_memcpy(&by, e->box + 2, sizeof by);
    bx += vx;
    by += vy;
    __builtin_memcpy(&c->px0, &bx, sizeof bx);
    __builtin_memcpy(&c->py0, &by, sizeof by);
#else
    c->px0 = e->box[0] + ox; c->px1 = e->box[1] + ox;
    c->py0 = e->box[2] + oy; c->py1 = e->box[3] + oy;
#endif
}

/* eg_soft_quad_memo_verify: the general set-up of the hit quad (tri_setup_, raster_pair_set_up's
 * clip, eg_soft_span_pair's tests, quad_fill) and every field FZ_(glyph2) reads against fc's */
static __attribute__((noinline)) void qm_check(const eg_soft_frag_t f[2], const eg_soft_span_pipe_t *sp,
                                               const eg_soft_sample2d_t *s2, const span_fill_t fc[2])
{
    eg_soft_frag_t g[2] = { f[0], f[1] };
    int64_t b[2][4];
    span_fill_t v[2];
    bool ok = true;
    for (uint32_t i = 0; i < 2u; i++) {
        const eg_soft_worker_t *w = g[i].w;
        const eg_soft_tri_t *t = g[i].t;
        ok = ok && eg_soft_tri_prepare(g[i].ps, t, &g[i].s, b[i]);
        b[i][0] = b[i][0] > w->clip_x0 ? b[i][0] : w->clip_x0; b[i][1] = b[i][1] < w->clip_x1 ? b[i][1] : w->clip_x1;
        b[i][2] = b[i][2] > w->clip_y0 ? b[i][2] : w->clip_y0; b[i][3] = b[i][3] < w->clip_y1 ? b[i][3] : w->clip_y1;
        ok = ok && b[i][0] < b[i][1] && b[i][2] < b[i][3] && t->invw[0] == t->invw[1] && t->invw[0] == t->invw[2];
    }
    ok = ok && quad_fill(&g[0], b[0], &g[1], b[1], sp, s2, v);
    for (uint32_t i = 0; ok && i < 2u; i++) {
        const span_fill_t *x = &fc[i], *y = &v[i];
        ok = !__builtin_memcmp(x->fxd1, y->fxd1, QM_F) && !__builtin_memcmp(x->kbits, y->kbits, sizeof x->kbits) &&
             !__builtin_memcmp(x->uv_a0, y->uv_a0, 26) && x->persp == y->persp && x->px0 == y->px0 &&
             x->px1 == y->px1 && x->py0 == y->py0 && x->py1 == y->py1 && x->ew[0].kind == y->ew[0].kind &&
             x->ew[0].d == y->ew[0].d && x->ew[0].q == y->ew[0].q && x->ew[0].r == y->ew[0].r &&
             x->ew[0].dq == y->ew[0].dq && x->ew[0].dr == y->ew[0].dr && x->ew[0].k == y->ew[0].k &&
             x->ew[0].dk == y->ew[0].dk;
    }
    __atomic_fetch_add(&eg_soft_quad_memo_hits, 1u, __ATOMIC_RELAXED);
    if (!ok) __atomic_fetch_add(&eg_soft_quad_memo_bad, 1u, __ATOMIC_RELAXED);
}

bool eg_soft_quad_memo(eg_soft_frag_t *f, const int32_t xy[2][8], const int32_t c[2][4], bool strip, bool *pend)
{
    const eg_soft_span_pipe_t *sp = f[0].rs->span;
    const uint32_t wi = eg_soft_span_fused_width == 4u ? 0u : 1u;
    const int32_t x0 = xy[0][0], y0 = xy[0][3];   /* t0's snapped x0, y0 (either shape) */
    /* eg_soft_span_pair's quick path's tests that are not in the key (the hooks, the draw's) */
    if (!eg_soft_quad_memo_on || !sp || sp->qm_j == SPAN_NO_VAL || !eg_soft_raster_fast_paths ||
        !eg_soft_span_pair_on || !eg_soft_span_pair_quick_on || !sp->fused[wi][FZ_MODES_TEXC] ||
        x0 + (1 << 28) < 0 || x0 >= (1 << 28) || y0 + (1 << 28) < 0 || y0 >= (1 << 28))
        return false;
    f[0].samples = f[1].samples = f[0].ps->fb->samples == 4u ? 4u : 1u;   /* raster_pair_set_up's */
    const tex_memo_t *m = pair_draw(&f[0], sp, wi);
    if (!m) return false;
    const int64_t ox = (x0 >> EG_SOFT_SUBPIX_BITS) & ~(int64_t)3, oy = (y0 >> EG_SOFT_SUBPIX_BITS) & ~(int64_t)3;
    const uint32_t wk = qm_wk(f[0].w);
    qm_pend_t *p = &qm_pend[wk];
    if (strip ? !qm_key_quad(f, sp, wi, xy[0], c, ox, oy, &p->key, &p->h) : !qm_key(f, sp, wi, xy, c, ox, oy, &p->key, &p->h))
        return false;
    if (eg_soft_quad_memo_verify && strip) __atomic_fetch_add(&eg_soft_quad_memo_quads, 1u, __ATOMIC_RELAXED);
    const uint32_t si = (uint32_t)(((p->h >> 32) * (uint64_t)QM_SETS) >> 32);
    qm_ent_t *const set = qm_memo[wk][si];
    for (uint32_t i = 0; i < QM_WAYS; i++) {
        qm_ent_t *e = &set[i];
        if (e->h != p->h || !qm_same(&e->key, &p->key)) continue;
        span_fill_t fc[2];
        const int64_t xs = ox * EG_SOFT_SUBPIX, ys = oy * EG_SOFT_SUBPIX;
        for (uint32_t j = 0; j < 2u; j++) {
            qm_load(&e->t[j], &fc[j], ox, oy, xs, ys);
            quad_common(&f[j], sp, &m->s2, &fc[j]);
        }
        span_fill_t *l = fc[0].ew[0].kind < 0 ? &fc[0] : &fc[1];   /* pair_run's first: sep_get's cl */
        if (e->tw == fc[0].tw && e->th == fc[0].th && e->tpitch_B == fc[0].tpitch_B) {
            l->sep_ref = e->sep_ref;
            l->sep_gen = e->sep_gen;
        }
        if (eg_soft_quad_memo_verify) qm_check(f, sp, &m->s2, fc);
        pair_run(f[0].w, sp, wi, fc, true, true);
        if (l->sep_ref != e->sep_ref || l->sep_gen != e->sep_gen) {
            e->sep_ref = l->sep_ref;
            e->sep_gen = l->sep_gen;
            e->tw = fc[0].tw; e->th = fc[0].th; e->tpitch_B = fc[0].tpitch_B;
        }
        return true;
    }
    p->ox = ox;
    p->oy = oy;
    p->ta = f[0].t;
    p->tb = f[1].t;
    p->valid = true;
    *pend = true;
    return false;
}

void eg_soft_quad_memo_end(const eg_soft_worker_t *w) { qm_pend[qm_wk(w)].valid = false; }

/* A miss's quad (qm_pend) took the quick path with fc: its entry, in the set's ways in turn. */
static __attribute__((noinline)) void quad_memo_store(const eg_soft_frag_t *fa, const eg_soft_frag_t *fb,
                                                      const span_fill_t fc[2])
{
    const uint32_t wk = qm_wk(fa->w);
    qm_pend_t *p = &qm_pend[wk];
    p->valid = false;
    if (p->ta != fa->t || p->tb != fb->t) return;
    const uint32_t si = (uint32_t)(((p->h >> 32) * (uint64_t)QM_SETS) >> 32);
    qm_ent_t *e = &qm_memo[wk][si][qm_next[wk].way[si] % QM_WAYS];
    qm_next[wk].way[si] = (uint8_t)((qm_next[wk].way[si] + 1u) % QM_WAYS);
    qm_copy(&e->key, &p->key, sizeof e->key);
    e->h = p->h;
    e->sep_ref = NULL;   /* (the first hit's kernel finds it) */
    qm_save(&e->t[0], &fc[0], p->ox, p->oy);
    qm_save(&e->t[1], &fc[1], p->ox, p->oy);
    if (eg_soft_quad_memo_verify) __atomic_fetch_add(&eg_soft_quad_memo_misses, 1u, __ATOMIC_RELAXED);
}
#else
bool eg_soft_quad_memo(eg_soft_frag_t *f, const int32_t xy[2][8], const int32_t c[2][4], bool strip, bool *pend)
{
    (void)f; (void)xy; (void)c; (void)strip;
    *pend = false;
    return false;
}
void eg_soft_quad_memo_end(const eg_soft_worker_t *w) { (void)w; }
#endif

bool eg_soft_span_pair(eg_soft_frag_t *fa, const int64_t ba[4], eg_soft_frag_t *fb, const int64_t bb[4])
{
    const eg_soft_span_pipe_t *sp = fa->rs->span;
    const eg_soft_tri_t *ta = fa->t, *tb = fb->t;
    uint32_t wi = eg_soft_span_fused_width == 4u ? 0u : 1u;
    /* per quad: one draw, affine varyings (equal 1/w) in both */
    if (!eg_soft_span_pair_on || !sp || fb->ps != fa->ps || fb->rs != fa->rs || ta->invw[0] != ta->invw[1] ||
        ta->invw[0] != ta->invw[2] || tb->invw[0] != tb->invw[1] || tb->invw[0] != tb->invw[2])
        return false;
    const tex_memo_t *m = pair_draw(fa, sp, wi);
    if (!m) return false;
    const eg_soft_sample2d_t *s2 = &m->s2;
    span_tri_t k[2];
    span_fill_t fc[2];
    const span_fill_t *a = &fc[0], *b = &fc[1];
    const bool quick = sp->fz_glyph && sp->fused[wi][FZ_MODES_TEXC] && eg_soft_span_pair_quick_on &&
                       quad_fill(fa, ba, fb, bb, sp, s2, fc);
    bool pair = quick;
    if (!quick) {   /* both filled: each alone below when not a pair */
        bool ga = pair_fill(fa, sp, s2, wi, ba, &k[0], &fc[0]);
        bool gb = pair_fill(fb, sp, s2, wi, bb, &k[1], &fc[1]);
        pair = ga && gb && pair_shares(&fa->s, &fb->s, a, b);
    }
#if EMGPU_SOFT_QUAD_MEMO > 0
    if (quick && qm_pend[qm_wk(fa->w)].valid) quad_memo_store(fa, fb, fc);
#endif
    pair_run(fa->w, sp, wi, fc, pair, quick);
    return true;
}

#endif /* EMGPU_HAL_SOFT */
