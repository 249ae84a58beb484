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
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm.h"
#include "kernel/api/sampler.h"
#include "kernel/api/texture_view.h"

#define SPAN_MAX_VALS 12u          /* varyings one span-class program can read: 2 + 4 + 4 */
#define SPAN_NO_VAL   0xffu

typedef struct eg_soft_span_pipe eg_soft_span_pipe_t;

/** Writes pixels [0, n) of a row segment starting at px from the shaded colors (lanes 0..n-1). */
typedef void (*span_store_fn)(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c);

struct eg_soft_span_pipe {
    eg_soft_span_class_t cls;
    span_store_fn store;
    bool sa_c, inv_c, sa_a, inv_a;       /* src factor SrcAlpha (else One), dst OneMinusSrcAlpha (else Zero) */
    bool any_persp;
    uint32_t nval;
    uint8_t vary[SPAN_MAX_VALS];         /* packed varying index (raster pipeline) of each value */
    uint8_t interp[SPAN_MAX_VALS];
    uint8_t val_of_slot[4u * EG_SOFT_MAX_LOCATIONS];
};

/* ---- conversions (the general path's: soft_raster_output.c) ---- */

static inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }
static inline uint8_t to_unorm8(float v) { return (uint8_t)(int32_t)(clamp01(v) * 255.0f + 0.5f); }

/* dst = src * sf + dst * df per channel, factors as eg_soft_blend_block computes them; src is
 * clamped to [0, 1] first (unorm targets). All 16 lanes: the caller stores n of them. */
static void blend16(const eg_soft_span_pipe_t *sp, const eg_soft_vec4_t *src_in, eg_soft_vec4_t *dst)
{
    eg_soft_vec4_t s;
    for (uint32_t c = 0; c < 4u; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) s.c[c].f[l] = clamp01(src_in->c[c].f[l]);
    for (uint32_t c = 0; c < 4u; c++) {
        bool sa = c == 3u ? sp->sa_a : sp->sa_c, inv = c == 3u ? sp->inv_a : sp->inv_c;
        float sf[EG_SOFT_LANES], df[EG_SOFT_LANES];
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            sf[l] = sa ? s.c[3].f[l] : 1.0f;
            df[l] = inv ? 1.0f - s.c[3].f[l] : 0.0f;
        }
        float *d = dst->c[c].f;
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) d[l] = s.c[c].f[l] * sf[l] + d[l] * df[l];
    }
}

/* ---- stores per format x blend ---- */

#define DEF_STORE8(name, r, g, b)                                                                   \
static void store_##name(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c) \
{                                                                                                   \
    (void)sp;                                                                                       \
    for (uint32_t i = 0; i < n; i++, px += 4) {                                                     \
        px[r] = to_unorm8(c->c[0].f[i]); px[g] = to_unorm8(c->c[1].f[i]);                           \
        px[b] = to_unorm8(c->c[2].f[i]); px[3] = to_unorm8(c->c[3].f[i]);                           \
    }                                                                                               \
}                                                                                                   \
static void store_##name##_blend(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n,            \
                                 const eg_soft_vec4_t *c)                                           \
{                                                                                                   \
    eg_soft_vec4_t d;                                                                               \
    eg_memset(&d, 0, sizeof d);                                                                     \
    const uint8_t *q = px;                                                                          \
    for (uint32_t i = 0; i < n; i++, q += 4) {                                                      \
        d.c[0].f[i] = (float)q[r] * (1.0f / 255.0f); d.c[1].f[i] = (float)q[g] * (1.0f / 255.0f);   \
        d.c[2].f[i] = (float)q[b] * (1.0f / 255.0f); d.c[3].f[i] = (float)q[3] * (1.0f / 255.0f);   \
    }                                                                                               \
    blend16(sp, c, &d);                                                                             \
    store_##name(sp, px, n, &d);                                                                    \
}
DEF_STORE8(rgba8, 0, 1, 2)
DEF_STORE8(bgra8, 2, 1, 0)

static void store_565(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c)
{
    (void)sp;
    for (uint32_t i = 0; i < n; i++, px += 2) {
        uint32_t r = (uint32_t)(clamp01(c->c[0].f[i]) * 31.0f + 0.5f);
        uint32_t g = (uint32_t)(clamp01(c->c[1].f[i]) * 63.0f + 0.5f);
        uint32_t b = (uint32_t)(clamp01(c->c[2].f[i]) * 31.0f + 0.5f);
        uint32_t v = r << 11 | g << 5 | b;
        px[0] = (uint8_t)v;
        px[1] = (uint8_t)(v >> 8);
    }
}

static void store_565_blend(const eg_soft_span_pipe_t *sp, uint8_t *px, uint32_t n, const eg_soft_vec4_t *c)
{
    eg_soft_vec4_t d;
    eg_memset(&d, 0, sizeof d);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = (uint32_t)px[2 * i] | (uint32_t)px[2 * i + 1] << 8;
        d.c[0].f[i] = (float)(v >> 11) * (1.0f / 31.0f);
        d.c[1].f[i] = (float)(v >> 5 & 63u) * (1.0f / 63.0f);
        d.c[2].f[i] = (float)(v & 31u) * (1.0f / 31.0f);
        d.c[3].f[i] = 1.0f;
    }
    blend16(sp, c, &d);
    store_565(sp, px, n, &d);
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
    return true;
}

eg_status_t eg_soft_span_pipe_create(struct eg_soft_raster_pipeline *r)
{
    eg_soft_span_pipe_t tmp;
    r->span = NULL;
    eg_memset(&tmp, 0, sizeof tmp);
    if (!classify(r, &tmp)) return EG_STATUS_OK;
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

static inline int64_t floor_div(int64_t n, int64_t d)   /* d > 0 */
{
    return n >= 0 ? n / d : -((-n + d - 1) / d);
}

/* Covered pixel x range [*x0, *x1) of the row whose centres are at Y (subpixels): per edge,
 * A (256 x + 128) + B Y + C >= 0 solved for x. */
static void row_range(const eg_soft_setup_t *s, int64_t Y, int64_t *x0, int64_t *x1)
{
    for (uint32_t i = 0; i < 3u; i++) {
        int64_t a = s->A[i] * EG_SOFT_SUBPIX, k = s->B[i] * Y + s->C[i] + s->A[i] * (EG_SOFT_SUBPIX / 2);
        if (a == 0) {
            if (k < 0) *x1 = *x0;
        } else if (a > 0) {
            int64_t lo = -floor_div(k, a);      /* ceil(-k / a) */
            if (lo > *x0) *x0 = lo;
        } else {
            int64_t hi = floor_div(k, -a) + 1;  /* x <= floor(k / -a) */
            if (hi < *x1) *x1 = hi;
        }
    }
}

/* Per-triangle constants of the interpolation (soft_raster_shade.c barycentrics). */
typedef struct span_tri {
    float d1x, d1y, d2x, d2y, iw0, iw1, iw2;
    float a0[SPAN_MAX_VALS], dv1[SPAN_MAX_VALS], dv2[SPAN_MAX_VALS];
} span_tri_t;

/* Interpolates the pipeline's values for pixels x0 .. x0 + 15 of row y (lanes). */
static void interp_chunk(const eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k,
                         int64_t x0, int64_t y, eg_soft_reg_t *vals)
{
    const eg_soft_setup_t *s = &f->s;
    float l1[EG_SOFT_LANES], l2[EG_SOFT_LANES], p1[EG_SOFT_LANES], p2[EG_SOFT_LANES];
    int64_t Y = (y & ~(int64_t)3) * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    float fy = (float)(y & 3);
    int64_t r1 = s->B[1] * Y + s->C[1], r2 = s->B[2] * Y + s->C[2];
    /* the 16 pixels touch at most 5 4x4 blocks: each block origin's values once, exactly */
    float e1b[5], e2b[5];
    int64_t bx0 = x0 & ~(int64_t)3;
    for (uint32_t j = 0; j < 5u; j++) {
        int64_t X = (bx0 + 4 * (int64_t)j) * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
        e1b[j] = (float)(s->A[1] * X + r1) * s->inv_area2;
        e2b[j] = (float)(s->A[2] * X + r2) * s->inv_area2;
    }
    uint32_t o = (uint32_t)(x0 & 3);
    for (uint32_t i = 0; i < EG_SOFT_LANES; i++) {
        uint32_t j = (o + i) >> 2;
        float fx = (float)((o + i) & 3u);
        l1[i] = e1b[j] + fx * k->d1x + fy * k->d1y;
        l2[i] = e2b[j] + fx * k->d2x + fy * k->d2y;
    }
    if (sp->any_persp)
        for (uint32_t i = 0; i < EG_SOFT_LANES; i++) {
            float l0 = 1.0f - l1[i] - l2[i];
            float q0 = l0 * k->iw0, q1 = l1[i] * k->iw1, q2 = l2[i] * k->iw2;
            float w1 = q0 + q1 + q2;
            float r = 1.0f / w1;
            p1[i] = q1 * r;
            p2[i] = q2 * r;
        }
    for (uint32_t v = 0; v < sp->nval; v++) {
        float *dst = vals[v].f, a0 = k->a0[v], d1 = k->dv1[v], d2 = k->dv2[v];
        if (sp->interp[v] == EG_SOFT_INTERP_FLAT) {
            for (uint32_t i = 0; i < EG_SOFT_LANES; i++) dst[i] = a0;
        } else {
            const float *w1 = sp->interp[v] == EG_SOFT_INTERP_LINEAR ? l1 : p1;
            const float *w2 = sp->interp[v] == EG_SOFT_INTERP_LINEAR ? l2 : p2;
            for (uint32_t i = 0; i < EG_SOFT_LANES; i++) dst[i] = a0 + w1[i] * d1 + w2[i] * d2;
        }
    }
}

/* One output component source over the lanes. */
static void shade_comp(const eg_soft_span_pipe_t *sp, uint32_t c, const eg_soft_reg_t *vals,
                       const eg_soft_vec4_t *tex, eg_soft_reg_t *out)
{
    uint32_t src = sp->cls.src[c];
    if (src & EG_SOFT_SPAN_CONST) {
        for (uint32_t i = 0; i < EG_SOFT_LANES; i++) out->u[i] = sp->cls.src_bits[c];
        return;
    }
    if (!(src & EG_SOFT_SPAN_TEX)) { *out = vals[sp->val_of_slot[src]]; return; }
    const eg_soft_reg_t *t = &tex->c[src & 3u];
    uint32_t mul = sp->cls.mul[c];
    if (mul == EG_SOFT_SPAN_NONE) { *out = *t; return; }
    eg_soft_reg_t m;
    if (mul & EG_SOFT_SPAN_CONST) for (uint32_t i = 0; i < EG_SOFT_LANES; i++) m.u[i] = sp->cls.mul_bits[c];
    else m = vals[sp->val_of_slot[mul]];
    /* FMUL's operand order kept: with two NaNs the first one's payload wins on some CPUs */
    if (sp->cls.mul_first[c]) for (uint32_t i = 0; i < EG_SOFT_LANES; i++) out->f[i] = m.f[i] * t->f[i];
    else for (uint32_t i = 0; i < EG_SOFT_LANES; i++) out->f[i] = t->f[i] * m.f[i];
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
    eg_soft_sample_op_t op;
    eg_memset(&op, 0, sizeof op);
    if (sp->cls.tex) {
        eg_vm_res_t res;
        eg_vm_bind(rs->fs, &f->ps->bound, &res);
        const eg_texture_view_t *view = res.obj[sp->cls.tex_slot];
        const eg_sampler_t *smp = res.obj[sp->cls.smp_slot];
        /* one level and min == mag: the level of detail cannot change a result */
        if (!view || !smp || view->dimension != WGPUTextureViewDimension_2D || view->mip_level_count != 1u ||
            smp->desc.magFilter != smp->desc.minFilter)
            return false;
        op.view = view;
        op.sampler = smp;
        op.lod_mode = EG_SOFT_LOD_EXPLICIT;   /* lod_or_bias NULL: 0 */
    }
    span_tri_t k;
    const eg_soft_setup_t *s = &f->s;
    k.d1x = (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    k.d1y = (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    k.d2x = (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2;
    k.d2y = (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2;
    k.iw0 = t->invw[0]; k.iw1 = t->invw[1]; k.iw2 = t->invw[2];
    for (uint32_t v = 0; v < sp->nval; v++) {
        uint32_t j = sp->vary[v];
        if (sp->interp[v] == EG_SOFT_INTERP_FLAT) { k.a0[v] = t->prov->var[j]; k.dv1[v] = k.dv2[v] = 0.0f; continue; }
        k.a0[v] = t->v[0]->var[j];
        k.dv1[v] = t->v[1]->var[j] - k.a0[v];
        k.dv2[v] = t->v[2]->var[j] - k.a0[v];
    }
    const eg_soft_target_t *tg = &fb->color[0];
    eg_soft_reg_t vals[SPAN_MAX_VALS];
    eg_soft_vec4_t tex, out;
    eg_memset(&tex, 0, sizeof tex);
    uint32_t filled = 0;
    for (int64_t y = py0; y < py1; y++) {
        int64_t x0 = px0, x1 = px1;
        row_range(s, y * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, &x0, &x1);
        uint8_t *row = tg->base + (size_t)y * tg->row_pitch_B;
        for (int64_t x = x0; x < x1; x += EG_SOFT_LANES) {
            uint32_t n = x1 - x < (int64_t)EG_SOFT_LANES ? (uint32_t)(x1 - x) : EG_SOFT_LANES;
            interp_chunk(f, sp, &k, x, y, vals);
            if (sp->cls.tex) {
                op.coord[0] = &vals[sp->val_of_slot[sp->cls.uv[0]]];
                op.coord[1] = &vals[sp->val_of_slot[sp->cls.uv[1]]];
                op.mask = (eg_soft_mask_t)((1u << n) - 1u);
                eg_soft_sample(&op, &tex);
            }
            for (uint32_t c = 0; c < 4u; c++) shade_comp(sp, c, vals, &tex, &out.c[c]);
            sp->store(sp, row + (size_t)x * tg->elem_B, n, &out);
            filled += n;
        }
    }
    f->w->span_px += filled;
    return true;
}

#endif /* EMGPU_HAL_SOFT */
