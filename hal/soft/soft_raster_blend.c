/* hal/soft blending: the general per-block blend (eg_soft_blend_block) and the fused 8-bit and
 * RGB565 read-blend-write paths (eg_soft_blend_u8, eg_soft_blend_565). Split out of
 * soft_raster_output.c so the block-output packers and the blenders can change independently. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm_simd.h"

static inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

static inline uint8_t *lane_ptr(const eg_soft_target_t *t, uint8_t *blk, uint32_t l)
{
    return blk + (size_t)(l >> 2) * t->row_pitch_B + (size_t)(l & 3u) * t->elem_B;
}

/* ---- blending (WebGPU "blend state": result = op(src * srcFactor, dst * dstFactor)) ---- */

/* One factor for channel c over all lanes: a switch per block, never per pixel. Dual-source
 * factors (Src1*) need the dual-source-blending feature, which soft does not expose. */
static void blend_factor(uint32_t f, uint32_t c, const eg_soft_vec4_t *s, const eg_soft_vec4_t *d,
                         const float k[4], float out[EG_SOFT_LANES])
{
    const float *sc = s->c[c].f, *dc = d->c[c].f, *sa = s->c[3].f, *da = d->c[3].f;
    uint32_t l;
    switch (f) {
    case WGPUBlendFactor_Zero:             for (l = 0; l < EG_SOFT_LANES; l++) out[l] = 0.0f; break;
    case WGPUBlendFactor_Src:              for (l = 0; l < EG_SOFT_LANES; l++) out[l] = sc[l]; break;
    case WGPUBlendFactor_OneMinusSrc:      for (l = 0; l < EG_SOFT_LANES; l++) out[l] = 1.0f - sc[l]; break;
    case WGPUBlendFactor_SrcAlpha:         for (l = 0; l < EG_SOFT_LANES; l++) out[l] = sa[l]; break;
    case WGPUBlendFactor_OneMinusSrcAlpha: for (l = 0; l < EG_SOFT_LANES; l++) out[l] = 1.0f - sa[l]; break;
    case WGPUBlendFactor_Dst:              for (l = 0; l < EG_SOFT_LANES; l++) out[l] = dc[l]; break;
    case WGPUBlendFactor_OneMinusDst:      for (l = 0; l < EG_SOFT_LANES; l++) out[l] = 1.0f - dc[l]; break;
    case WGPUBlendFactor_DstAlpha:         for (l = 0; l < EG_SOFT_LANES; l++) out[l] = da[l]; break;
    case WGPUBlendFactor_OneMinusDstAlpha: for (l = 0; l < EG_SOFT_LANES; l++) out[l] = 1.0f - da[l]; break;
    case WGPUBlendFactor_SrcAlphaSaturated:
        for (l = 0; l < EG_SOFT_LANES; l++) {
            float m = 1.0f - da[l];
            out[l] = c == 3u ? 1.0f : (sa[l] < m ? sa[l] : m);
        }
        break;
    case WGPUBlendFactor_Constant:         for (l = 0; l < EG_SOFT_LANES; l++) out[l] = k[c]; break;
    case WGPUBlendFactor_OneMinusConstant: for (l = 0; l < EG_SOFT_LANES; l++) out[l] = 1.0f - k[c]; break;
    default:                               for (l = 0; l < EG_SOFT_LANES; l++) out[l] = 1.0f; break;
    }
}

void eg_soft_blend_block(const eg_soft_blend_t *b, const float constant[4], bool clamp,
                         const eg_soft_vec4_t *src_in, eg_soft_vec4_t *dst, eg_soft_mask_t mask)
{
    /* Lanes outside mask are computed too (branch-free loops vectorise): their values are
     * undefined afterwards and the caller never stores them. */
    (void)mask;
    eg_soft_vec4_t src = *src_in;
    float k[4] = { constant[0], constant[1], constant[2], constant[3] };
    if (clamp) {
        /* Fixed-point targets: source and constant are clamped to [0, 1] before blending
         * (Vulkan "Blend operations", which WebGPU follows). */
        for (uint32_t c = 0; c < 4; c++) {
            k[c] = clamp01(k[c]);
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) src.c[c].f[l] = clamp01(src.c[c].f[l]);
        }
    }
    float sf[EG_SOFT_LANES], df[EG_SOFT_LANES];
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t op = c == 3u ? b->op_a : b->op_c;
        float *d = dst->c[c].f;
        const float *s = src.c[c].f;
        if (op == WGPUBlendOperation_Min || op == WGPUBlendOperation_Max) {
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                bool lt = s[l] < d[l];
                d[l] = (op == WGPUBlendOperation_Min) == lt ? s[l] : d[l];
            }
            continue;
        }
        blend_factor(c == 3u ? b->src_a : b->src_c, c, &src, dst, k, sf);
        blend_factor(c == 3u ? b->dst_a : b->dst_c, c, &src, dst, k, df);
        /* every lane (branch-free, vectorisable); the caller stores only the masked ones */
        if (op == WGPUBlendOperation_Subtract)
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) d[l] = s[l] * sf[l] - d[l] * df[l];
        else if (op == WGPUBlendOperation_ReverseSubtract)
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) d[l] = d[l] * df[l] - s[l] * sf[l];
        else
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) d[l] = s[l] * sf[l] + d[l] * df[l];
    }
}

/* ---- fused 8-bit blend (eg_soft_blend_u8) ---- */

#if VM_SIMD
/* Lanes 4 at a time; each select below is the scalar expression's choice, so the bits are the
 * same (NaN compares false and picks the other operand, as the ternaries do). */
static inline vf_t vsel(vu_t m, vf_t a, vf_t b)
{
    vu_t ua, ub, r;
    __builtin_memcpy(&ua, &a, 16);
    __builtin_memcpy(&ub, &b, 16);
    r = (ua & m) | (ub & ~m);
    vf_t o;
    __builtin_memcpy(&o, &r, 16);
    return o;
}

static void blend_u8_math(const int32_t db[4][EG_SOFT_LANES], const float unit[4], const float max[4],
                          const eg_soft_vec4_t *src, uint32_t fast, int32_t q[4][EG_SOFT_LANES])
{
    const vf_t zero = { 0, 0, 0, 0 }, one = { 1, 1, 1, 1 }, half = { 0.5f, 0.5f, 0.5f, 0.5f };
    /* The factor choices as all-ones / all-zeros lane masks, per channel, and the per-channel
     * constants, set up once: the loop below selects bits (the same bits the per-channel ternaries
     * `sa ? s3 : 1` and `inv ? 1 - s3 : 0` give) and has no branches. */
    vu_t msa[4], minv[4];
    vf_t un[4], mx[4];
    for (uint32_t c = 0; c < 4u; c++) {
        bool sa = fast & (c == 3u ? EG_SOFT_BLEND_U8_SA_A : EG_SOFT_BLEND_U8_SA_C);
        bool inv = fast & (c == 3u ? EG_SOFT_BLEND_U8_INV_A : EG_SOFT_BLEND_U8_INV_C);
        uint32_t a = sa ? ~0u : 0u, b = inv ? ~0u : 0u;
        msa[c] = (vu_t){ a, a, a, a };
        minv[c] = (vu_t){ b, b, b, b };
        un[c] = (vf_t){ unit[c], unit[c], unit[c], unit[c] };
        mx[c] = (vf_t){ max[c], max[c], max[c], max[c] };
    }
    for (uint32_t k = 0; k < EG_SOFT_LANES; k += 4) {
        vf_t s[4];
        for (uint32_t c = 0; c < 4u; c++) {
            vf_t v;
            VLOAD(v, src->c[c].f + k);
            s[c] = vsel((vu_t)(v > zero), vsel((vu_t)(v < one), v, one), zero);   /* clamp01 */
        }
        vf_t inv_a = one - s[3];
        for (uint32_t c = 0; c < 4u; c++) {
            vi_t di;
            vf_t sf = vsel(msa[c], s[3], one), df = vsel(minv[c], inv_a, zero);
            VLOAD(di, db[c] + k);
            vf_t dv = __builtin_convertvector(di, vf_t) * un[c];   /* unpack: stored code * (1 / max) */
            vf_t v = s[c] * sf + dv * df;
            vf_t x = vsel((vu_t)(v > zero), v, zero);
            x = vsel((vu_t)(x < one), x, one);
            vi_t r = __builtin_convertvector(x * mx[c] + half, vi_t);
            VSTORE(q[c] + k, r);
        }
    }
}
#else
static void blend_u8_math(const int32_t db[4][EG_SOFT_LANES], const float unit[4], const float max[4],
                          const eg_soft_vec4_t *src, uint32_t fast, int32_t q[4][EG_SOFT_LANES])
{
    float s[4][EG_SOFT_LANES];
    for (uint32_t c = 0; c < 4u; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) s[c][l] = clamp01(src->c[c].f[l]);
    for (uint32_t c = 0; c < 4u; c++) {
        bool sa = fast & (c == 3u ? EG_SOFT_BLEND_U8_SA_A : EG_SOFT_BLEND_U8_SA_C);
        bool inv = fast & (c == 3u ? EG_SOFT_BLEND_U8_INV_A : EG_SOFT_BLEND_U8_INV_C);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            float sf = sa ? s[3][l] : 1.0f, df = inv ? 1.0f - s[3][l] : 0.0f;
            float v = s[c][l] * sf + (float)db[c][l] * unit[c] * df;
            float a = v > 0.0f ? v : 0.0f;
            a = a < 1.0f ? a : 1.0f;
            q[c][l] = (int32_t)(a * max[c] + 0.5f);
        }
    }
}
#endif

void eg_soft_blend_u8(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, const eg_soft_vec4_t *src,
                      uint32_t fast)
{
    static const uint8_t rgba[4] = { 0, 1, 2, 3 }, bgra[4] = { 2, 1, 0, 3 };
    const uint8_t *sw = fast & EG_SOFT_BLEND_U8_BGRA ? bgra : rgba;
    int32_t d[4][EG_SOFT_LANES], q[4][EG_SOFT_LANES];
    if (mask == EG_SOFT_ALL_LANES) {
        for (uint32_t r = 0; r < 4u; r++) {
            const uint8_t *row = blk + (size_t)r * t->row_pitch_B;
            for (uint32_t x = 0; x < 4u; x++)
                for (uint32_t c = 0; c < 4u; c++) d[c][r * 4u + x] = row[(size_t)x * t->elem_B + sw[c]];
        }
    } else {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {   /* lanes off the target are never read */
            const uint8_t *p = lane_ptr(t, blk, l);
            bool in = mask >> l & 1u;
            for (uint32_t c = 0; c < 4u; c++) d[c][l] = in ? p[sw[c]] : 0;
        }
    }
    static const float unit[4] = { 1.0f / 255.0f, 1.0f / 255.0f, 1.0f / 255.0f, 1.0f / 255.0f };
    static const float max[4] = { 255.0f, 255.0f, 255.0f, 255.0f };
    blend_u8_math(d, unit, max, src, fast, q);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        uint8_t *p = lane_ptr(t, blk, l);
        p[sw[0]] = (uint8_t)q[0][l]; p[sw[1]] = (uint8_t)q[1][l]; p[sw[2]] = (uint8_t)q[2][l]; p[sw[3]] = (uint8_t)q[3][l];
    }
}

/* RGB565: unpack_565 / pack_565's conversions (alpha reads as 1.0 = code 1 * 1.0f). */
void eg_soft_blend_565(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, const eg_soft_vec4_t *src,
                       uint32_t fast)
{
    static const float unit[4] = { 1.0f / 31.0f, 1.0f / 63.0f, 1.0f / 31.0f, 1.0f }, max[4] = { 31.0f, 63.0f, 31.0f, 1.0f };
    int32_t d[4][EG_SOFT_LANES], q[4][EG_SOFT_LANES];
    bool all = mask == EG_SOFT_ALL_LANES;
    for (uint32_t r = 0; r < 4u; r++) {   /* lanes off the target are never read */
        const uint8_t *row = blk + (size_t)r * t->row_pitch_B;
        for (uint32_t x = 0; x < 4u; x++) {
            uint32_t l = r * 4u + x;
            const uint8_t *p = row + (size_t)x * t->elem_B;
            uint32_t v = all || (mask >> l & 1u) ? (uint32_t)p[0] | (uint32_t)p[1] << 8 : 0u;
            d[0][l] = (int32_t)(v >> 11); d[1][l] = (int32_t)(v >> 5 & 63u); d[2][l] = (int32_t)(v & 31u); d[3][l] = 1;
        }
    }
    blend_u8_math(d, unit, max, src, fast, q);
    for (uint32_t r = 0; r < 4u; r++) {
        uint8_t *row = blk + (size_t)r * t->row_pitch_B;
        for (uint32_t x = 0; x < 4u; x++) {
            uint32_t l = r * 4u + x;
            if (!all && !(mask >> l & 1u)) continue;
            uint8_t *p = row + (size_t)x * t->elem_B;
            uint32_t v = (uint32_t)q[0][l] << 11 | (uint32_t)q[1][l] << 5 | (uint32_t)q[2][l];
            p[0] = (uint8_t)v;
            p[1] = (uint8_t)(v >> 8);
        }
    }
}

#endif /* EMGPU_HAL_SOFT */
