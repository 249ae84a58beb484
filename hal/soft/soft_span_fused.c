/* hal/soft fused span rows: copy-class spans interpolated, blended, packed and stored in registers.
 *
 * soft_span.c's chunk loop materialises every step in 16-lane arrays (block-origin values, weights,
 * each varying, the shaded registers, then the store's unpacking). A fused row instead takes 4
 * pixels (8 with AVX2, chosen once per process with __builtin_cpu_supports) from the block origin
 * to the stored bytes in vector registers, through a function chosen per pipeline (target format x
 * blend: eg_soft_span_fused_pick), with no per-pixel switch.
 *
 * EXACTNESS. Every lane gets interp_chunk's, shade_comp's, blend16's and the stores' float
 * operations in their order: the block origin's 64-bit edge value converted to float times
 * inv_area2 (the 64-bit values are stepped by 4 px = A * 1024 exactly instead of multiplied out),
 * plus fx * d1x, plus fy * d1y (both products taken once: the same IEEE products), the
 * perspective weights, a0 + w1 d1 + w2 d2 per channel, clamp, blend factors, unpack and quantize
 * conversions. Groups start at block origins (x & ~3), so a lane's block and fx are the ones
 * interp_chunk gives it; lanes outside [x0, x1) are computed and never stored. (FZ_(glyph)'s
 * groups start at the row's first pixel and take each lane's block and fx by permutes: the same
 * operands.) The build has
 * -ffp-contract=off (Makefile), and the AVX2 variant enables no FMA, so no product is fused.
 * All-clear groups under skip_clear keep their bytes, as every such lane does on the chunk path
 * (soft_span.c all_clear). tests/unit/soft_span_fused_test.c compares both widths with the chunk
 * path and with the general path.
 * Also here: texel copy rows (blits: runs of texels moved whole, FZ_(copy)) and a glyph variant
 * (FZ_MODES_TEXC: flat color, alpha times an R8 coverage, one moving edge: span_edges_one).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_span_fused_int.h"

uint32_t eg_soft_span_fused_width = 0;
bool eg_soft_span_pair_colvec_on = true;

/* The per-channel part of eg_soft_span_fused_tri that only the class decides, once per pipeline
 * (it was ~60 instructions of each glyph triangle's set-up): a texel channel's component (tex,
 * 1 + component) and its multiplier, else the channel's source; the value it takes, or none
 * for a constant (bits). Also eg_soft_span_all_fixed's mask (out_vals). Called for every
 * span pipeline (both eg_soft_span_fused_pick variants). */
static void fused_chan_prep(eg_soft_span_pipe_t *sp)
{
    sp->out_vals = sp->fz_chan_vals = 0;
    for (uint32_t ch = 0; ch < 4u; ch++) {
        uint32_t src = sp->cls.src[ch], val = src;
        if (!(src & (EG_SOFT_SPAN_CONST | EG_SOFT_SPAN_TEX))) sp->out_vals |= 1u << sp->val_of_slot[src];
        sp->fz_tex[ch] = 0;
        sp->fz_mul[ch] = sp->fz_mul_first[ch] = false;
        if (src & EG_SOFT_SPAN_TEX) {   /* the texel component, times the multiplier's value */
            sp->fz_tex[ch] = (uint8_t)(1u + (src & 3u));
            sp->fz_mul[ch] = sp->cls.mul[ch] != EG_SOFT_SPAN_NONE;
            sp->fz_mul_first[ch] = sp->cls.mul_first[ch];
            val = sp->fz_mul[ch] ? sp->cls.mul[ch] : EG_SOFT_SPAN_CONST;
            sp->fz_bits[ch] = sp->cls.mul_bits[ch];
        } else {
            sp->fz_bits[ch] = sp->cls.src_bits[ch];
        }
        sp->fz_val[ch] = (val & EG_SOFT_SPAN_CONST) ? (uint8_t)SPAN_NO_VAL : sp->val_of_slot[val];
        if (sp->fz_val[ch] != SPAN_NO_VAL) sp->fz_chan_vals |= 1u << sp->fz_val[ch];
    }
    sp->fz_glyph = !sp->fz_tex[0] && !sp->fz_tex[1] && !sp->fz_tex[2] && sp->fz_tex[3] == 1u && sp->fz_mul[3];
    sp->fz_col_j = SPAN_NO_VAL;
    bool col = sp->fz_glyph && sp->fz_val[0] != SPAN_NO_VAL;
    for (uint32_t ch = 0; ch < 4u && col; ch++) {
        uint32_t v = sp->fz_val[ch];
        col = v != SPAN_NO_VAL && sp->interp[v] != EG_SOFT_INTERP_FLAT && sp->vary[v] == sp->vary[sp->fz_val[0]] + ch;
    }
    if (col && eg_soft_span_pair_colvec_on) sp->fz_col_j = sp->vary[sp->fz_val[0]];
}

#if VM_SIMD && EMGPU_SOFT_SPAN_FUSED

#define FZ_W 4u
#define fz_vf fz4_f
#define fz_vu fz4_u
#define fz_vi fz4_i
#define fz_vh fz4_h
#define FZ_ATTR
#define FZ_(n) n##_4
#if defined(__SSE__)
#define FZ_MAX(a, b) __builtin_ia32_maxps((a), (b))
#define FZ_MIN(a, b) __builtin_ia32_minps((a), (b))
#define FZ_MOVMSK(m) __builtin_ia32_movmskps((fz4_f)(m))
#endif
#define FZ_JOIN(a, b) ((void)(b), (a))
#define FZ_PACK16(w) __builtin_convertvector((w), fz4_h)
#include "hal/soft/soft_span_fused.inc"
#undef FZ_W
#undef fz_vf
#undef fz_vu
#undef fz_vi
#undef fz_vh
#undef FZ_ATTR
#undef FZ_
#undef FZ_MAX
#undef FZ_MIN
#undef FZ_MOVMSK
#undef FZ_JOIN
#undef FZ_PACK16

void eg_soft_span_fused_pick(eg_soft_span_pipe_t *sp, bool blend)
{
    uint32_t f = sp->target == WGPUTextureFormat_RGBA8Unorm ? FZ_RGBA8
               : sp->target == WGPUTextureFormat_BGRA8Unorm ? FZ_BGRA8 : FZ_565;
    uint32_t m0 = sp->cls.tex ? FZ_MODES_TEX : 0u, m1 = sp->cls.tex ? FZ_MODES_N : FZ_MODES_TEX;
    fused_chan_prep(sp);
    eg_memset(sp->fused, 0, sizeof sp->fused);
    for (uint32_t m = m0; m < m1; m++) sp->fused[0][m] = sp->fused[1][m] = fns_4[f][blend][m];
    for (uint32_t k = 0; k < 3u; k++) sp->copy[0][k] = sp->copy[1][k] = sp->texcopy ? copies_4[k] : NULL;
    sp->pair[0] = sp->pair[1] = sp->cls.tex && blend ? pairs_4[f] : NULL;
#ifdef FZ_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) eg_soft_span_fused8_pick(sp, f, blend, m0, m1);
#endif
    /* blended glyphs without native vectors: the scalar kernel (the lowered FZ_(tri) TEX kernel
     * was ~580 instructions a glyph pixel on Cortex-M7) */
    if (sp->cls.tex && blend && (!FZ_NATIVE || eg_soft_span_glyph1_on)) {
        sp->fused[0][FZ_MODES_TEXC] = sp->fused[1][FZ_MODES_TEXC] = eg_soft_span_glyph1_fn(sp->target);
        sp->pair[0] = sp->pair[1] = NULL;
    }
}

uint32_t eg_soft_span_fused_widths(void)
{
#ifdef FZ_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return 4u | 8u;
#endif
    return 4u;
}

uint32_t eg_soft_span_copy_widths(void) { return copies_4[0] ? eg_soft_span_fused_widths() : 0u; }

uint32_t eg_soft_span_pair_widths(void) { return pairs_4[0] ? eg_soft_span_fused_widths() : 0u; }

bool eg_soft_span_open_rows_on(void) { return FZ_NATIVE && FZ_LE; }

#else /* no vectors, or EMGPU_SOFT_SPAN_FUSED 0: the chunk path only */

uint32_t eg_soft_span_fused_widths(void) { return 0; }

uint32_t eg_soft_span_copy_widths(void) { return 0; }

uint32_t eg_soft_span_pair_widths(void) { return 0; }

bool eg_soft_span_open_rows_on(void) { return false; }

void eg_soft_span_fused_pick(eg_soft_span_pipe_t *sp, bool blend)
{
    (void)blend;
    fused_chan_prep(sp);
    eg_memset(sp->fused, 0, sizeof sp->fused);
    eg_memset(sp->copy, 0, sizeof sp->copy);
    sp->pair[0] = sp->pair[1] = NULL;
}

#endif

/* Value v of k as a0 + w1 d1 + w2 d2 (mode FZ_LIN / FZ_PERSP), or one value (FZ_CONST: fixed
 * values hold a0 in every lane, span_value_fixed). */
static uint8_t fused_value(const eg_soft_span_pipe_t *sp, const span_tri_t *k, uint32_t v, float *a0, float *d1, float *d2,
                           uint32_t *bits)
{
    union { float f; uint32_t u; } a = { k->a0[v] };
    *bits = a.u;
    *a0 = k->a0[v];
    *d1 = *d2 = 0.0f;
    if (k->fixed >> v & 1u) return FZ_CONST;
    *d1 = k->dv1[v];
    *d2 = k->dv2[v];
    return sp->interp[v] == EG_SOFT_INTERP_LINEAR ? FZ_LIN : FZ_PERSP;
}

/* The texture coordinates' values and the texture's fields of c (both the glyph branch and the
 * general one of eg_soft_span_fused_tri). */
static EG_ALWAYS_INLINE void fused_tex_coords(const eg_soft_span_pipe_t *sp, const span_tri_t *k,
                                              const eg_soft_sample2d_t *s2, span_fill_t *c)
{
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 2
#endif
    for (uint32_t i = 0; i < 2u; i++) {
        uint32_t bits;
        c->uv_mode[i] = fused_value(sp, k, sp->val_of_slot[sp->cls.uv[i]], &c->uv_a0[i], &c->uv_dv1[i], &c->uv_dv2[i], &bits);
        c->persp |= c->uv_mode[i] == FZ_PERSP;
    }
    c->tbase = s2->s.base;
    c->tw = (int32_t)s2->s.width_el;
    c->th = (int32_t)s2->s.height_el;
    c->tpitch_B = s2->s.row_pitch_B;
}

void eg_soft_span_fused_tri(const eg_soft_span_pipe_t *sp, const span_tri_t *k, const eg_soft_sample2d_t *s2,
                            span_fill_t *c)
{
    const eg_soft_setup_t *s = &c->f->s;
    for (uint32_t l = 0; l < 4u; l++) {   /* lanes 4-7 repeat 0-3: the same products */
        float fx = (float)l;
        c->fxd1[l] = c->fxd1[l + 4u] = fx * k->d1x;
        c->fxd2[l] = c->fxd2[l + 4u] = fx * k->d2x;
    }
    c->k = k;
    c->d1y = k->d1y; c->d2y = k->d2y;
    c->iw0 = k->iw0; c->iw1 = k->iw1; c->iw2 = k->iw2;
    c->inv_area2 = s->inv_area2;
    c->A1 = s->A[1]; c->A2 = s->A[2];
    c->B1 = s->B[1]; c->B2 = s->B[2];
    c->C1 = s->C[1]; c->C2 = s->C[2];
    c->persp = false;
    if (s2 && sp->fz_glyph && (k->fixed & sp->fz_chan_vals) == sp->fz_chan_vals) {
        /* glyphs (FZ_MODES_TEXC): the general loop's fields with every channel FZ_CONST
         * (fused_value's a0 and bits, zero dv1, dv2), decided by the class's mask alone (the
         * loop, the modes tests and the TEXC test were ~90 instructions a glyph triangle) */
        __builtin_memcpy(c->tex, sp->fz_tex, sizeof c->tex);
        __builtin_memcpy(c->mul, sp->fz_mul, sizeof c->mul);
        __builtin_memcpy(c->mul_first, sp->fz_mul_first, sizeof c->mul_first);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
        for (uint32_t ch = 0; ch < 4u; ch++) {
            uint32_t v = sp->fz_val[ch];
            union { float f; uint32_t u; } a = { v != SPAN_NO_VAL ? k->a0[v] : 0.0f };
            c->a0[ch] = a.f;
            c->kbits[ch] = v != SPAN_NO_VAL ? a.u : sp->fz_bits[ch];
            c->dv1[ch] = c->dv2[ch] = 0.0f;
            c->mode[ch] = FZ_CONST;
        }
        fused_tex_coords(sp, k, s2, c);
        c->modes = FZ_MODES_TEXC;
        return;
    }
    uint32_t seen = 0;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4   /* constant channel indices: ~15 instructions a triangle less (UI, 20k rows) */
#endif
    for (uint32_t ch = 0; ch < 4u; ch++) {   /* the class's part from fused_chan_prep */
        c->tex[ch] = sp->fz_tex[ch];
        c->mul[ch] = sp->fz_mul[ch];
        c->mul_first[ch] = sp->fz_mul_first[ch];
        c->a0[ch] = c->dv1[ch] = c->dv2[ch] = 0.0f;
        c->mode[ch] = FZ_CONST;
        c->kbits[ch] = sp->fz_bits[ch];
        if (sp->fz_val[ch] != SPAN_NO_VAL)
            c->mode[ch] = fused_value(sp, k, sp->fz_val[ch], &c->a0[ch], &c->dv1[ch], &c->dv2[ch], &c->kbits[ch]);
        c->persp |= c->mode[ch] == FZ_PERSP;
        seen |= 1u << c->mode[ch];
    }
    c->modes = seen == 1u << FZ_PERSP ? FZ_MODES_P
             : c->mode[3] == FZ_CONST && c->mode[0] == FZ_PERSP && c->mode[1] == FZ_PERSP && c->mode[2] == FZ_PERSP
               ? FZ_MODES_P3 : FZ_MODES_ANY;
    for (uint32_t i = 0; i < 2u; i++)   /* the texture fields: defined when unused too (no memset calls: per glyph) */
        c->uv_a0[i] = c->uv_dv1[i] = c->uv_dv2[i] = 0.0f;
    c->uv_mode[0] = c->uv_mode[1] = FZ_CONST;
    c->tbase = NULL;
    c->tw = c->th = 1;
    c->tpitch_B = 0;
    if (!s2) return;
    c->modes = FZ_MODES_TEX;
    fused_tex_coords(sp, k, s2, c);
    /* glyphs (a flat color, its alpha times the coverage): no per-group channel work */
    if (c->mode[0] == FZ_CONST && c->mode[1] == FZ_CONST && c->mode[2] == FZ_CONST && c->mode[3] == FZ_CONST &&
        !c->tex[0] && !c->tex[1] && !c->tex[2] && c->tex[3] == 1u && c->mul[3])
        c->modes = FZ_MODES_TEXC;
}

#endif /* EMGPU_HAL_SOFT */
