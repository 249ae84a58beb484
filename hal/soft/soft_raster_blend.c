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

/* 4-lane vectors where they are native registers; the lane loops below where GCC would lower
 * them to scalar code through the stack (Cortex-M7: the vector form was 17.0 M of the M7 bench's
 * 272 M instructions on the UI scene, the loops take 11.2 M; the same operations, so the same bits) */
#if VM_SIMD && defined(VM_SIMD_NATIVE)
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

/* ---- 8 lanes per vector (session 8, helper "ui8") ----
 * On x86-64 CPUs with AVX2 (asked at run time, as soft_raster_shade.c does; eg_soft_shade_vw 4
 * holds it off for the tests) two 4x4 block rows are one vector of 8 lanes: the loads and stores
 * move whole covered rows, the unpack and pack are shifts and masks on the vector, and each lane
 * gets blend_u8_math's operations in its order (the same selects, products, sum, clamp and
 * truncating conversion; -ffp-contract=off and no FMA in the target), so the same bytes. The
 * loops above spent ~1.5 k instructions a block on the UI bench's shape borders. */
#if VM_SIMD && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(EMGPU_SOFT_VM_NO_AVX2)
#define BLEND_AVX2 1
#define B8_ATTR __attribute__((target("avx2")))
typedef float b8f __attribute__((vector_size(32)));
typedef int32_t b8i __attribute__((vector_size(32)));
typedef uint32_t b8u __attribute__((vector_size(32)));
typedef uint16_t b8h __attribute__((vector_size(16)));
#define B8K(c) ((b8f){ (c), (c), (c), (c), (c), (c), (c), (c) })

static inline bool blend_avx2(void)
{
    return eg_soft_shade_vw >= 8u && __builtin_cpu_supports("avx2");
}

/* MAXPS(a, b) is a > b ? a : b and MINPS(a, b) a < b ? a : b, the second operand when either is
 * NaN: MIN8(MAX8(v, 0), 1) is vsel(v > 0, vsel(v < 1, v, 1), 0) lane for lane (v > 0: v < 1 ? v
 * : 1; else 0, NaN included), and MIN8(MAX8(v, 0), 1) the same as the two selects after the sum. */
#define MAX8(a, b) __builtin_ia32_maxps256((a), (b))
#define MIN8(a, b) __builtin_ia32_minps256((a), (b))

/* blend_u8_math for lanes [k, k + 8) and channels [0, nch): d the stored codes, q the results.
 * The colour channels share their factors (SA_C, INV_C), so those are chosen once, and the
 * channel loops are unrolled: GCC kept them rolled with the per-channel choices inside and the
 * clamped sources on the stack (~100 instructions per 8 lanes on the UI bench's corner blocks;
 * corner11). Each lane still gets blend_u8_math's operations in its order. */
static B8_ATTR EG_ALWAYS_INLINE void math8(const b8i d[4], const eg_soft_vec4_t *src, uint32_t k, uint32_t fast,
                                           const float unit[4], const float max[4], uint32_t nch, b8i q[4])
{
    const b8f zero = B8K(0.0f), one = B8K(1.0f), half = B8K(0.5f);
    b8f s[4];
#pragma GCC unroll 4
    for (uint32_t c = 0; c < 4u; c++) {
        b8f v;
        __builtin_memcpy(&v, src->c[c].f + k, 32);
        s[c] = MIN8(MAX8(v, zero), one);   /* clamp01: the selects' bits (see MAX8) */
    }
    b8f inv_a = one - s[3];
    /* the selects' bits, whole vectors */
    b8f sf = fast & EG_SOFT_BLEND_U8_SA_C ? s[3] : one, df = fast & EG_SOFT_BLEND_U8_INV_C ? inv_a : zero;
#pragma GCC unroll 4
    for (uint32_t c = 0; c < 4u; c++) {
        if (c == nch) break;
        if (c == 3u) {
            sf = fast & EG_SOFT_BLEND_U8_SA_A ? s[3] : one;
            df = fast & EG_SOFT_BLEND_U8_INV_A ? inv_a : zero;
        }
        b8f dv = __builtin_convertvector(d[c], b8f) * B8K(unit[c]);
        b8f v = s[c] * sf + dv * df;
        b8f x = MIN8(MAX8(v, zero), one);
        q[c] = __builtin_convertvector(x * B8K(max[c]) + half, b8i);
    }
}

/* The 4 pixels of block row r covered by mask m (4 bits), into / out of buf: a whole row moves
 * at once, a partial one by its covered pixels alone (lanes off the target are never read, lanes
 * not covered never written; those of buf read as 0).
 *
 * 2-byte pixels: the covered pixels of a partial row (m neither 0 nor 15) from src to dst as a
 * run (a rectangle's side or a triangle's edge cuts a block row into one) in one or two moves,
 * other masks pixel by pixel. The per-pixel loops (session 8) were ~60 instructions a partial
 * row on the UI bench's rounded corners (a rectangle at x = 2 mod 4 has ~12 blocks of partial
 * rows, the diagonal's blocks more): row 4 -0.30 M instructions. The same pixels move, so the
 * same bytes. */
static inline void run_move2(uint8_t *dst, const uint8_t *src, uint32_t m)
{
    const uint32_t a = (uint32_t)__builtin_ctz(m), t = m >> a;
    if (t & (t + 1u)) {   /* (not one run) */
        for (uint32_t x = 0; x < 4u; x++)
            if (m >> x & 1u) __builtin_memcpy(dst + 2u * x, src + 2u * x, 2);
        return;
    }
    dst += 2u * a;
    src += 2u * a;
    if (t == 1u) {
        __builtin_memcpy(dst, src, 2);
        return;
    }
    __builtin_memcpy(dst, src, 4);
    if (t == 7u) __builtin_memcpy(dst + 4, src + 4, 2);
}

/* a block row of 2-byte pixels into / out of buf */
static inline void row_in2(uint8_t *buf, const uint8_t *row, uint32_t m)
{
    if (m == 15u) { __builtin_memcpy(buf, row, 8); return; }
    __builtin_memset(buf, 0, 8);
    if (m) run_move2(buf, row, m);
}

static inline void row_out2(uint8_t *row, const uint8_t *buf, uint32_t m)
{
    if (m == 15u) { __builtin_memcpy(row, buf, 8); return; }
    if (m) run_move2(row, buf, m);
}

/* Block halves by their source alpha (session 15, helper "blk565"): the rounded rects' corner
 * blocks (the UI bench, blend on) have the arc's outside at alpha 0 and, with an opaque colour,
 * its inside at alpha 1: of row 4's 14.6 k blended halves (5 frames) 3.6 k have every covered
 * lane at 1 and 2.1 k at 0; row 2 (alpha 128) has the same 2.1 k at 0.
 *
 * Alpha 0 (clamped) keeps a lane's stored codes where fast's factors are SrcAlpha /
 * OneMinusSrcAlpha for the colour and, with the alpha channel stored (u8), OneMinusSrcAlpha
 * for its dst: math8 is, per channel, v = s * 0 + dv * 1 (alpha: s3 * sf + dv * 1 with
 * s3 = +0, sf 0 or 1) = +0 + dv = dv exactly (s clamped: finite, so s * 0 = +0; dv = code *
 * unit, finite and >= 0), then the clamp and (int)(dv * max + 0.5), which is the code again for
 * every code of every channel (dv * max is within a few ulps of code, far inside (code - 0.5,
 * code + 0.5): checked exhaustively, codes 0..31, 0..63, 0..255, by soft_blend's
 * alpha_zero_keeps_codes). So not writing such a lane leaves the same bytes, and a half whose
 * covered lanes are all such is skipped (not read, not written).
 *
 * Alpha 1 (clamped) makes a lane's result independent of the target and of fast's factors:
 * sf = s3 or 1 is 1, df = 1 - s3 or 0 is +0, so v = s * 1 + dv * 0 = s + +0 = s (s >= +0),
 * the clamp leaves it and q = (int)(s * max + 0.5): opaque8 computes that alone, without the
 * read and unpack of the target. Each is math8's result bit for bit, so the same bytes.
 * Callgrind, 5 frames: row 4 -0.36 M instructions, row 5 -0.23 M, row 2 -0.14 M, row 3 -0.02 M
 * (rows 2 / 3 skip only: their colour's alpha is 128; the test costs ~10 a half). */

/* how blend_*_avx2 treats a half: cv its covered lanes (8 bits), keep0 whether fast's factors
 * keep an alpha-0 lane's codes. math8's clamp gives 0 exactly where !(a > 0) (NaN included)
 * and 1 exactly where a >= 1 (+inf included), so two compares of the raw alpha classify the
 * lanes; lanes not covered are not looked at. */
enum { HALF_BLEND, HALF_SKIP, HALF_OPAQUE };
static B8_ATTR EG_ALWAYS_INLINE uint32_t half_kind(const eg_soft_vec4_t *src, uint32_t k, uint32_t cv, bool keep0)
{
    b8f a;
    __builtin_memcpy(&a, src->c[3].f + k, 32);
    if (keep0 && !(cv & (uint32_t)__builtin_ia32_movmskps256((b8f)(a > B8K(0.0f))))) return HALF_SKIP;
    return cv & ~(uint32_t)__builtin_ia32_movmskps256((b8f)(a >= B8K(1.0f))) ? HALF_BLEND : HALF_OPAQUE;
}

/* math8's results for lanes whose clamped source alpha is 1 (see above) */
static B8_ATTR EG_ALWAYS_INLINE void opaque8(const eg_soft_vec4_t *src, uint32_t k, const float max[4], uint32_t nch,
                                             b8i q[4])
{
#pragma GCC unroll 4
    for (uint32_t c = 0; c < 4u; c++) {
        if (c == nch) break;
        b8f v;
        __builtin_memcpy(&v, src->c[c].f + k, 32);
        v = MIN8(MAX8(v, B8K(0.0f)), B8K(1.0f));
        q[c] = __builtin_convertvector(v * B8K(max[c]) + B8K(0.5f), b8i);
    }
}

static B8_ATTR void blend_565_avx2(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,
                                   const eg_soft_vec4_t *src, uint32_t fast)
{
    static const float unit[4] = { 1.0f / 31.0f, 1.0f / 63.0f, 1.0f / 31.0f, 1.0f }, max[4] = { 31.0f, 63.0f, 31.0f, 1.0f };
    const uint32_t need = EG_SOFT_BLEND_U8_SA_C | EG_SOFT_BLEND_U8_INV_C;
    const bool keep0 = (fast & need) == need;
    for (uint32_t h = 0; h < 2u; h++) {   /* block rows 2h, 2h + 1 = lanes 8h .. 8h + 7 */
        uint32_t m0 = mask >> (8u * h) & 15u, m1 = mask >> (8u * h + 4u) & 15u;
        if (!(m0 | m1)) continue;
        const uint32_t kind = half_kind(src, 8u * h, m0 | m1 << 4, keep0);
        if (kind == HALF_SKIP) continue;
        uint8_t *r0 = blk + (size_t)(2u * h) * t->row_pitch_B, *r1 = r0 + t->row_pitch_B;
        uint8_t buf[16];
        b8h hv;
        b8i q[4];
        if (kind == HALF_OPAQUE) {
            opaque8(src, 8u * h, max, 3u, q);
        } else {
            row_in2(buf, r0, m0);
            row_in2(buf + 8, r1, m1);
            __builtin_memcpy(&hv, buf, 16);
            b8i v = __builtin_convertvector(hv, b8i), d[4];
            d[0] = v >> 11;
            d[1] = v >> 5 & 63;
            d[2] = v & 31;
            d[3] = v;   /* (alpha is not stored: nch 3) */
            math8(d, src, 8u * h, fast, unit, max, 3u, q);
        }
        hv = __builtin_convertvector(q[0] << 11 | q[1] << 5 | q[2], b8h);
        __builtin_memcpy(buf, &hv, 16);
        row_out2(r0, buf, m0);
        row_out2(r1, buf + 8, m1);
    }
}

/* 4-byte pixels: VPMASKMOVD moves the mask's pixels alone (the others read as 0 and are not
 * accessed, and not written), one instruction where the per-pixel loops of a partial row were
 * ~60 (rows 3 / 5, UI XRGB8888: -0.90 M instructions each). */
typedef int32_t b4i __attribute__((vector_size(16)));

static B8_ATTR EG_ALWAYS_INLINE b4i row_mask4(uint32_t m)
{
    const b4i bit = { 1, 2, 4, 8 };
    return (b4i)((bit & (int32_t)m) != 0);   /* all ones where the pixel is covered */
}

static B8_ATTR EG_ALWAYS_INLINE void row_in4(uint8_t *buf, const uint8_t *row, uint32_t m)
{
    b4i v = __builtin_ia32_maskloadd((const b4i *)(const void *)row, row_mask4(m));
    __builtin_memcpy(buf, &v, 16);
}

static B8_ATTR EG_ALWAYS_INLINE void row_out4(uint8_t *row, const uint8_t *buf, uint32_t m)
{
    b4i v;
    __builtin_memcpy(&v, buf, 16);
    __builtin_ia32_maskstored((b4i *)(void *)row, row_mask4(m), v);
}

static B8_ATTR void blend_u8_avx2(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,
                                  const eg_soft_vec4_t *src, uint32_t fast)
{
    static const float unit[4] = { 1.0f / 255.0f, 1.0f / 255.0f, 1.0f / 255.0f, 1.0f / 255.0f };
    static const float max[4] = { 255.0f, 255.0f, 255.0f, 255.0f };
    const uint32_t sr = fast & EG_SOFT_BLEND_U8_BGRA ? 16u : 0u, sb = 16u - sr;   /* R, B byte shifts */
    const uint32_t need = EG_SOFT_BLEND_U8_SA_C | EG_SOFT_BLEND_U8_INV_C | EG_SOFT_BLEND_U8_INV_A;
    const bool keep0 = (fast & need) == need;
    for (uint32_t h = 0; h < 2u; h++) {
        uint32_t m0 = mask >> (8u * h) & 15u, m1 = mask >> (8u * h + 4u) & 15u;
        if (!(m0 | m1)) continue;
        const uint32_t kind = half_kind(src, 8u * h, m0 | m1 << 4, keep0);
        if (kind == HALF_SKIP) continue;
        uint8_t *r0 = blk + (size_t)(2u * h) * t->row_pitch_B, *r1 = r0 + t->row_pitch_B;
        uint8_t buf[32];
        b8i q[4];
        b8u u;
        if (kind == HALF_OPAQUE) {
            opaque8(src, 8u * h, max, 4u, q);
        } else {
            row_in4(buf, r0, m0);
            row_in4(buf + 16, r1, m1);
            b8i v, d[4];
            __builtin_memcpy(&v, buf, 32);   /* little-endian: byte i of a pixel at bits 8 i */
            u = (b8u)v;
            d[0] = (b8i)(u >> sr & 255u);
            d[1] = (b8i)(u >> 8 & 255u);
            d[2] = (b8i)(u >> sb & 255u);
            d[3] = (b8i)(u >> 24);
            math8(d, src, 8u * h, fast, unit, max, 4u, q);
        }
        u = (b8u)q[0] << sr | (b8u)q[1] << 8 | (b8u)q[2] << sb | (b8u)q[3] << 24;
        __builtin_memcpy(buf, &u, 32);
        row_out4(r0, buf, m0);
        row_out4(r1, buf + 16, m1);
    }
}
#else
#define BLEND_AVX2 0
#endif

void eg_soft_blend_u8(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, const eg_soft_vec4_t *src,
                      uint32_t fast)
{
#if BLEND_AVX2
    if (t->elem_B == 4u && blend_avx2()) {
        blend_u8_avx2(t, blk, mask, src, fast);
        return;
    }
#endif
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

/* The dispatch of eg_soft_blend_565 / eg_soft_blend_u8 below, once: ~25 instructions a block
 * of the UI bench's rounded corners (the CPU test and the calls), 7,800 blocks on row 4. */
eg_soft_blend_fn eg_soft_blend_body(const eg_soft_target_t *t, bool rgb565)
{
#if BLEND_AVX2
    if (t->elem_B == (rgb565 ? 2u : 4u) && blend_avx2()) return rgb565 ? blend_565_avx2 : blend_u8_avx2;
#else
    (void)t;
#endif
    return rgb565 ? eg_soft_blend_565 : eg_soft_blend_u8;
}

/* RGB565: unpack_565 / pack_565's conversions (alpha reads as 1.0 = code 1 * 1.0f). */
void eg_soft_blend_565(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, const eg_soft_vec4_t *src,
                       uint32_t fast)
{
#if BLEND_AVX2
    if (t->elem_B == 2u && blend_avx2()) {
        blend_565_avx2(t, blk, mask, src, fast);
        return;
    }
#endif
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
