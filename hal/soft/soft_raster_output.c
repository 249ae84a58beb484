/* hal/soft fixed-function output: render-target block access per format (pack/unpack), stencil ops. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm_simd.h"

/* ---- conversions ---- */

/* sRGB code -> linear, and the linear thresholds at which the 8-bit code steps n -> n + 1. */
static const float srgb_decode[256] = {
#include "hal/soft/soft_raster_srgb.inc"
};
static const float srgb_step[255] = {
#include "hal/soft/soft_srgb_table.inc"
};

static inline float clamp01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

/* Spec (WebGPU "conversion to unorm"): round(clamp(v, 0, 1) * 255); NaN -> 0. */
/* Through int32_t: the value is in [0.5, 255.5], where both conversions truncate alike, and the
 * signed one is a single instruction on every target (unsigned is not on x86 without AVX-512). */
static inline uint32_t to_unorm8(float v) { return (uint32_t)(int32_t)(clamp01(v) * 255.0f + 0.5f); }

static inline uint32_t to_srgb8(float v)
{
    uint32_t lo = 0, hi = 255;
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1;
        if (v >= srgb_step[mid]) lo = mid + 1u; else hi = mid;
    }
    return lo;
}

static inline uint8_t *lane_ptr(const eg_soft_target_t *t, uint8_t *blk, uint32_t l)
{
    return blk + (size_t)(l >> 2) * t->row_pitch_B + (size_t)(l & 3u) * t->elem_B;
}

/* ---- 8-bit unorm formats: RGBA8, BGRA8 (sRGB or not), RG8, R8 ---- */

/* Whole-block paths (all 16 lanes, every channel written): conversions run channel by channel
 * over the 16 lanes with no per-lane mask test so the compiler vectorises them; the bytes are
 * then moved row by row. Same per-value arithmetic as the masked path: identical results.
 * With native vectors (SSE2, NEON), RGBA8/BGRA8 convert 4 lanes per instruction, partial blocks
 * too (GCC -O2 left the scalar loops scalar: 1 190 instructions per block, 203 now); emulated
 * vectors (Cortex-M) keep the scalar loops. */
#if defined(VM_SIMD_NATIVE) && EG_SOFT_LANES == 16u && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PACK_SIMD 1
typedef float pk_vf_t __attribute__((vector_size(16)));
typedef int32_t pk_vi_t __attribute__((vector_size(16)));
typedef uint32_t pk_vu_t __attribute__((vector_size(16)));

/* to_unorm8 on 4 lanes: v > 0 ? v : 0, then v < 1 ? v : 1 (NaN and -0 fail v > 0 and become
 * +0, as in clamp01), then * 255, + 0.5 (two roundings) and the
 * truncating int32 conversion: the scalar operations in the same order, so the same bits. */
static inline pk_vu_t pk_unorm8(const float *src)
{
    pk_vf_t v, one = { 1.0f, 1.0f, 1.0f, 1.0f };
    __builtin_memcpy(&v, src, 16);
#if defined(__SSE__)
    /* MAXPS / MINPS return the second operand unless first > second (first < second): the
     * same selects in one instruction each */
    v = __builtin_ia32_maxps(v, (pk_vf_t){ 0.0f, 0.0f, 0.0f, 0.0f });
    v = __builtin_ia32_minps(v, one);
#else
    pk_vu_t uv, uone, m;
    __builtin_memcpy(&uv, &v, 16);
    __builtin_memcpy(&uone, &one, 16);
    m = (pk_vu_t)(v > (pk_vf_t){ 0.0f, 0.0f, 0.0f, 0.0f });
    uv &= m;
    __builtin_memcpy(&v, &uv, 16);
    m = (pk_vu_t)(v < one);
    uv = (uv & m) | (uone & ~m);
    __builtin_memcpy(&v, &uv, 16);
#endif
    v = v * (pk_vf_t){ 255.0f, 255.0f, 255.0f, 255.0f };
    v = v + (pk_vf_t){ 0.5f, 0.5f, 0.5f, 0.5f };
    return (pk_vu_t)__builtin_convertvector(v, pk_vi_t);
}

/* pk_words with 8 lanes per vector on x86-64 CPUs with AVX2 (asked per call: a table read), the
 * same operations per lane as pk_unorm8 (VMAXPS / VMINPS are MAXPS / MINPS on 8 lanes); the
 * library stays baseline x86-64. soft_pack_test's spec values run through it on such hosts. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(EMGPU_SOFT_VM_NO_AVX2)
#define PACK_AVX2 1
typedef float pk8_vf_t __attribute__((vector_size(32)));
typedef int32_t pk8_vi_t __attribute__((vector_size(32)));
typedef uint32_t pk8_vu_t __attribute__((vector_size(32)));
static __attribute__((target("avx2"))) EG_ALWAYS_INLINE pk8_vu_t pk_unorm8_8(const float *src)
{
    pk8_vf_t v;
    __builtin_memcpy(&v, src, 32);
    v = __builtin_ia32_maxps256(v, (pk8_vf_t){ 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f });
    v = __builtin_ia32_minps256(v, (pk8_vf_t){ 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f });
    v = v * (pk8_vf_t){ 255.0f, 255.0f, 255.0f, 255.0f, 255.0f, 255.0f, 255.0f, 255.0f };
    v = v + (pk8_vf_t){ 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f };
    return (pk8_vu_t)__builtin_convertvector(v, pk8_vi_t);
}
static __attribute__((target("avx2"))) void pk_words8(const eg_soft_vec4_t *in, uint32_t s0, uint32_t s1, uint32_t s2,
                                                      uint32_t s3, uint32_t wd[EG_SOFT_LANES])
{
    for (uint32_t k = 0; k < EG_SOFT_LANES; k += 8u) {
        pk8_vu_t w = pk_unorm8_8(in->c[0].f + k) << s0;
        w |= pk_unorm8_8(in->c[1].f + k) << s1;
        w |= pk_unorm8_8(in->c[2].f + k) << s2;
        w |= pk_unorm8_8(in->c[3].f + k) << s3;
        __builtin_memcpy(wd + k, &w, 32);
    }
}
#endif

/* The 16 lanes of an RGBA8/BGRA8 block as one 32-bit word per lane (channel c in byte sw[c]):
 * 4 lanes per vector are one row of the block. */
static inline void pk_words(const eg_soft_vec4_t *in, const uint8_t sw[4], uint32_t wd[EG_SOFT_LANES])
{
#ifdef PACK_AVX2
    if (__builtin_cpu_supports("avx2")) {
        pk_words8(in, 8u * sw[0], 8u * sw[1], 8u * sw[2], 8u * sw[3], wd);
        return;
    }
#endif
    for (uint32_t k = 0; k < EG_SOFT_LANES; k += 4u) {
        pk_vu_t w = pk_unorm8(in->c[0].f + k) << (8u * sw[0]);
        w |= pk_unorm8(in->c[1].f + k) << (8u * sw[1]);
        w |= pk_unorm8(in->c[2].f + k) << (8u * sw[2]);
        w |= pk_unorm8(in->c[3].f + k) << (8u * sw[3]);
        __builtin_memcpy(wd + k, &w, 16);
    }
}

/* Partial blocks: all 16 words computed as above, then stored lane by lane under the masks. */
static inline void u8_pack_masked(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,
                                  const eg_soft_vec4_t *in, uint32_t wmask, const uint8_t sw[4])
{
    uint32_t wd[EG_SOFT_LANES];
    pk_words(in, sw, wd);
    if ((wmask & 15u) == 15u && t->elem_B == 4u) {   /* whole rows of the mask in one store */
        /* When the block's 4 columns lie inside the row (a covered lane in its last column
         * says so at once), every covered row is read and written whole: its uncovered lanes
         * get back the bytes just read (the block is this worker's alone: tiles are multiples
         * of 4 px; bytes past the width are nobody's). */
        bool whole = (mask & 0x8888u) != 0u || (size_t)(blk - t->base) % t->row_pitch_B + 16u <= t->row_pitch_B;
        for (uint32_t r = 0; r < 4u; r++) {
            uint32_t m = mask >> (4u * r) & 15u;
            uint8_t *row = blk + (size_t)r * t->row_pitch_B;
            if (m == 15u) { __builtin_memcpy(row, wd + 4u * r, 16); continue; }
            if (!m) continue;
            if (whole) {
                static const pk_vu_t bit = { 1u, 2u, 4u, 8u };
                pk_vu_t keep = (pk_vu_t)((bit & m) != 0u), old, nw;
                __builtin_memcpy(&old, row, 16);
                __builtin_memcpy(&nw, wd + 4u * r, 16);
                nw = (nw & keep) | (old & ~keep);
                __builtin_memcpy(row, &nw, 16);
                continue;
            }
            for (uint32_t x = 0; x < 4u; x++)
                if (m >> x & 1u) __builtin_memcpy(row + 4u * x, wd + 4u * r + x, 4);
        }
        return;
    }
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        uint8_t *p = lane_ptr(t, blk, l);
        if ((wmask & 15u) == 15u) { __builtin_memcpy(p, wd + l, 4); continue; }
        for (uint32_t c = 0; c < 4u; c++)
            if (wmask >> c & 1u) p[sw[c]] = (uint8_t)(wd[l] >> (8u * sw[c]));
    }
}
#else
#define PACK_SIMD 0
#endif

static inline void u8_pack_full(const eg_soft_target_t *t, uint8_t *blk, const eg_soft_vec4_t *in,
                                uint32_t nch, const uint8_t sw[4])
{
#if PACK_SIMD
    if (nch == 4u && t->elem_B == 4u) {
        uint32_t wd[EG_SOFT_LANES];
        pk_words(in, sw, wd);
        for (uint32_t r = 0; r < 4u; r++) __builtin_memcpy(blk + (size_t)r * t->row_pitch_B, wd + r * 4u, 16);
        return;
    }
#endif
    uint8_t q[4][EG_SOFT_LANES];
    for (uint32_t c = 0; c < nch; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            /* clamp01 as max then min, each a single select instruction (maxss / minss, fmax
             * / fmin): NaN and -0 -> +0 at the first step, exactly as clamp01 */
            float v = in->c[c].f[l], a = v > 0.0f ? v : 0.0f;
            a = a < 1.0f ? a : 1.0f;
            q[c][l] = (uint8_t)(int32_t)(a * 255.0f + 0.5f);
        }
    for (uint32_t r = 0; r < 4u; r++) {
        uint8_t *row = blk + (size_t)r * t->row_pitch_B;
        if (nch == 4u) {
            for (uint32_t x = 0; x < 4u; x++) {
                uint8_t *p = row + (size_t)x * t->elem_B;
                p[sw[0]] = q[0][r * 4u + x]; p[sw[1]] = q[1][r * 4u + x];
                p[sw[2]] = q[2][r * 4u + x]; p[sw[3]] = q[3][r * 4u + x];
            }
            continue;
        }
        for (uint32_t x = 0; x < 4u; x++)
            for (uint32_t c = 0; c < nch; c++) row[(size_t)x * t->elem_B + sw[c]] = q[c][r * 4u + x];
    }
}

static inline void u8_unpack_full(const eg_soft_target_t *t, const uint8_t *blk, eg_soft_vec4_t *o,
                                  uint32_t nch, const uint8_t sw[4], bool srgb)
{
    uint8_t q[4][EG_SOFT_LANES];
    for (uint32_t r = 0; r < 4u; r++) {
        const uint8_t *row = blk + (size_t)r * t->row_pitch_B;
        for (uint32_t x = 0; x < 4u; x++)
            for (uint32_t c = 0; c < nch; c++) q[c][r * 4u + x] = row[(size_t)x * t->elem_B + sw[c]];
    }
    for (uint32_t c = nch; c < 4u; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) o->c[c].f[l] = c == 3u ? 1.0f : 0.0f;
    for (uint32_t c = 0; c < nch; c++) {
        if (srgb && c < 3u)
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) o->c[c].f[l] = srgb_decode[q[c][l]];
        else
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) o->c[c].f[l] = (float)q[c][l] * (1.0f / 255.0f);
    }
}

#if PACK_SIMD
#define PACK_MASKED_(t, blk, mask, in, wmask, sw) u8_pack_masked(t, blk, mask, in, wmask, sw)
#else
#define PACK_MASKED_(t, blk, mask, in, wmask, sw) ((void)0)
#endif

#define DEF_U8(name, nch, swz, srgb)                                                              \
static void unpack_##name(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,          \
                          eg_soft_vec4_t *o)                                                      \
{                                                                                                 \
    static const uint8_t sw[4] = swz;                                                             \
    if (mask == EG_SOFT_ALL_LANES) { u8_unpack_full(t, blk, o, (nch), sw, (srgb)); return; }      \
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {                                                \
        if (!(mask >> l & 1u)) continue;                                                          \
        const uint8_t *p = lane_ptr(t, blk, l);                                                   \
        o->c[1].f[l] = 0.0f; o->c[2].f[l] = 0.0f; o->c[3].f[l] = 1.0f;                            \
        for (uint32_t c = 0; c < (nch); c++) {                                                    \
            uint8_t b = p[sw[c]];                                                                 \
            o->c[c].f[l] = ((srgb) && c < 3u) ? srgb_decode[b] : (float)b * (1.0f / 255.0f);      \
        }                                                                                         \
    }                                                                                             \
}                                                                                                 \
static void pack_##name(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,            \
                        const eg_soft_vec4_t *in, uint32_t wmask)                                 \
{                                                                                                 \
    static const uint8_t sw[4] = swz;                                                             \
    if (mask == EG_SOFT_ALL_LANES && !(srgb) && (wmask & ((1u << (nch)) - 1u)) == (1u << (nch)) - 1u) { \
        u8_pack_full(t, blk, in, (nch), sw);                                                      \
        return;                                                                                   \
    }                                                                                             \
    if (PACK_SIMD && (nch) == 4u && !(srgb) && t->elem_B == 4u) {                                 \
        PACK_MASKED_(t, blk, mask, in, wmask, sw);                                                \
        return;                                                                                   \
    }                                                                                             \
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {                                                \
        if (!(mask >> l & 1u)) continue;                                                          \
        uint8_t *p = lane_ptr(t, blk, l);                                                         \
        for (uint32_t c = 0; c < (nch); c++)                                                      \
            if (wmask >> c & 1u)                                                                  \
                p[sw[c]] = (uint8_t)(((srgb) && c < 3u) ? to_srgb8(in->c[c].f[l])                 \
                                                        : to_unorm8(in->c[c].f[l]));              \
    }                                                                                             \
}

#define SWZ_RGBA { 0, 1, 2, 3 }
#define SWZ_BGRA { 2, 1, 0, 3 }
DEF_U8(rgba8, 4, SWZ_RGBA, false)
DEF_U8(rgba8s, 4, SWZ_RGBA, true)
DEF_U8(bgra8, 4, SWZ_BGRA, false)
DEF_U8(bgra8s, 4, SWZ_BGRA, true)
DEF_U8(rg8, 2, SWZ_RGBA, false)
DEF_U8(r8, 1, SWZ_RGBA, false)

/* ---- RGB565 (emgpu extension): R in bits 15..11, G 10..5, B 4..0 ---- */

static void unpack_565(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, eg_soft_vec4_t *o)
{
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        const uint8_t *p = lane_ptr(t, blk, l);
        uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
        o->c[0].f[l] = (float)(v >> 11) * (1.0f / 31.0f);
        o->c[1].f[l] = (float)(v >> 5 & 63u) * (1.0f / 63.0f);
        o->c[2].f[l] = (float)(v & 31u) * (1.0f / 31.0f);
        o->c[3].f[l] = 1.0f;
    }
}

static void pack_565(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,
                     const eg_soft_vec4_t *in, uint32_t wmask)
{
    uint32_t keep = (wmask & 1u ? 0 : 0xF800u) | (wmask & 2u ? 0 : 0x07E0u) | (wmask & 4u ? 0 : 0x001Fu);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        uint8_t *p = lane_ptr(t, blk, l);
        uint32_t r = (uint32_t)(clamp01(in->c[0].f[l]) * 31.0f + 0.5f);
        uint32_t g = (uint32_t)(clamp01(in->c[1].f[l]) * 63.0f + 0.5f);
        uint32_t b = (uint32_t)(clamp01(in->c[2].f[l]) * 31.0f + 0.5f);
        uint32_t v = r << 11 | g << 5 | b;
        if (keep) v = (v & ~keep) | (((uint32_t)p[0] | (uint32_t)p[1] << 8) & keep);
        p[0] = (uint8_t)v;
        p[1] = (uint8_t)(v >> 8);
    }
}

/* ---- float formats: RGBA16Float, R32Float (and the other 32-bit float formats) ---- */

static void unpack_rgba16f(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, eg_soft_vec4_t *o)
{
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        const uint8_t *p = lane_ptr(t, blk, l);
        for (uint32_t c = 0; c < 4; c++)
            o->c[c].f[l] = eg_soft_f16_to_f32((uint16_t)(p[2 * c] | p[2 * c + 1] << 8));
    }
}

static void pack_rgba16f(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,
                         const eg_soft_vec4_t *in, uint32_t wmask)
{
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        uint8_t *p = lane_ptr(t, blk, l);
        for (uint32_t c = 0; c < 4; c++) {
            if (!(wmask >> c & 1u)) continue;
            uint16_t h = eg_soft_f32_to_f16(in->c[c].f[l]);
            p[2 * c] = (uint8_t)h;
            p[2 * c + 1] = (uint8_t)(h >> 8);
        }
    }
}

/* 32-bit channels (float, uint, sint alike): raw bits, n channels. */
#define DEF_32(name, nch)                                                                         \
static void unpack_##name(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,          \
                          eg_soft_vec4_t *o)                                                      \
{                                                                                                 \
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {                                                \
        if (!(mask >> l & 1u)) continue;                                                          \
        const uint8_t *p = lane_ptr(t, blk, l);                                                   \
        o->c[1].u[l] = 0; o->c[2].u[l] = 0; o->c[3].f[l] = 1.0f;                                  \
        for (uint32_t c = 0; c < (nch); c++) eg_memcpy(&o->c[c].u[l], p + 4 * c, 4);              \
    }                                                                                             \
}                                                                                                 \
static void pack_##name(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,            \
                        const eg_soft_vec4_t *in, uint32_t wmask)                                 \
{                                                                                                 \
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {                                                \
        if (!(mask >> l & 1u)) continue;                                                          \
        uint8_t *p = lane_ptr(t, blk, l);                                                         \
        for (uint32_t c = 0; c < (nch); c++)                                                      \
            if (wmask >> c & 1u) eg_memcpy(p + 4 * c, &in->c[c].u[l], 4);                         \
    }                                                                                             \
}
DEF_32(x32, 1)
DEF_32(xy32, 2)
DEF_32(xyzw32, 4)

/* ---- every other format: one texel at a time through soft_texel ---- */

static void unpack_generic(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, eg_soft_vec4_t *o)
{
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        eg_soft_texel_t v;
        eg_soft_texel_decode(t->format, lane_ptr(t, blk, l), &v);
        for (uint32_t c = 0; c < 4; c++) o->c[c].u[l] = v.u[c];
    }
}

static void pack_generic(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,
                         const eg_soft_vec4_t *in, uint32_t wmask)
{
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        uint8_t *p = lane_ptr(t, blk, l);
        eg_soft_texel_t v, old;
        for (uint32_t c = 0; c < 4; c++) v.u[c] = in->c[c].u[l];
        if ((wmask & 15u) != 15u) {
            eg_soft_texel_decode(t->format, p, &old);
            for (uint32_t c = 0; c < 4; c++)
                if (!(wmask >> c & 1u)) v.u[c] = old.u[c];
        }
        eg_soft_texel_encode(t->format, &v, p);
    }
}

void eg_soft_format_ops(WGPUTextureFormat format, eg_soft_format_ops_t *out)
{
    const eg_format_info_t *fi = eg_format_info(format);
    out->unpack = unpack_generic;
    out->pack = pack_generic;
    out->is_int = fi && (fi->sample_type == WGPUTextureSampleType_Uint ||
                         fi->sample_type == WGPUTextureSampleType_Sint);
    out->clamp01 = fi && !out->is_int && (fi->srgb || format == EG_FORMAT_RGB565_VALUE ||
                                          format == WGPUTextureFormat_R8Unorm ||
                                          format == WGPUTextureFormat_RG8Unorm ||
                                          format == WGPUTextureFormat_RGBA8Unorm ||
                                          format == WGPUTextureFormat_BGRA8Unorm ||
                                          format == WGPUTextureFormat_RGB10A2Unorm ||
                                          format == WGPUTextureFormat_R16Unorm ||
                                          format == WGPUTextureFormat_RG16Unorm ||
                                          format == WGPUTextureFormat_RGBA16Unorm);
    switch (format) {
    case WGPUTextureFormat_RGBA8Unorm:     out->unpack = unpack_rgba8;  out->pack = pack_rgba8;  break;
    case WGPUTextureFormat_RGBA8UnormSrgb: out->unpack = unpack_rgba8s; out->pack = pack_rgba8s; break;
    case WGPUTextureFormat_BGRA8Unorm:     out->unpack = unpack_bgra8;  out->pack = pack_bgra8;  break;
    case WGPUTextureFormat_BGRA8UnormSrgb: out->unpack = unpack_bgra8s; out->pack = pack_bgra8s; break;
    case WGPUTextureFormat_RG8Unorm:       out->unpack = unpack_rg8;    out->pack = pack_rg8;    break;
    case WGPUTextureFormat_R8Unorm:        out->unpack = unpack_r8;     out->pack = pack_r8;     break;
    case WGPUTextureFormat_RGBA16Float:    out->unpack = unpack_rgba16f; out->pack = pack_rgba16f; break;
    case WGPUTextureFormat_R32Float: case WGPUTextureFormat_R32Uint: case WGPUTextureFormat_R32Sint:
        out->unpack = unpack_x32; out->pack = pack_x32; break;
    case WGPUTextureFormat_RG32Float: case WGPUTextureFormat_RG32Uint: case WGPUTextureFormat_RG32Sint:
        out->unpack = unpack_xy32; out->pack = pack_xy32; break;
    case WGPUTextureFormat_RGBA32Float: case WGPUTextureFormat_RGBA32Uint: case WGPUTextureFormat_RGBA32Sint:
        out->unpack = unpack_xyzw32; out->pack = pack_xyzw32; break;
    default:
        if (format == EG_FORMAT_RGB565_VALUE) { out->unpack = unpack_565; out->pack = pack_565; }
        break;
    }
}

#ifdef PACK_AVX2
/* u8_pack_full's RGBA8 / BGRA8 case (pk_words8's words, then the rows) with each 8-lane vector
 * of words stored as its two rows at once: the same bytes, no round trip through wd. */
static __attribute__((target("avx2"))) EG_ALWAYS_INLINE void pk_rows8(uint8_t *blk, size_t pitch_B,
                                                                      const eg_soft_vec4_t *in, uint32_t s0,
                                                                      uint32_t s1, uint32_t s2, uint32_t s3)
{
    for (uint32_t k = 0; k < EG_SOFT_LANES; k += 8u) {
        pk8_vu_t w = pk_unorm8_8(in->c[0].f + k) << s0;
        w |= pk_unorm8_8(in->c[1].f + k) << s1;
        w |= pk_unorm8_8(in->c[2].f + k) << s2;
        w |= pk_unorm8_8(in->c[3].f + k) << s3;
        uint8_t *row = blk + (size_t)(k / 4u) * pitch_B;
        __builtin_memcpy(row, &w, 16);
        __builtin_memcpy(row + pitch_B, (uint8_t *)&w + 16, 16);
    }
}
static __attribute__((target("avx2"))) void pack_full_rgba8(uint8_t *blk, size_t pitch_B, const eg_soft_vec4_t *in)
{
    pk_rows8(blk, pitch_B, in, 0u, 8u, 16u, 24u);
}
static __attribute__((target("avx2"))) void pack_full_bgra8(uint8_t *blk, size_t pitch_B, const eg_soft_vec4_t *in)
{
    pk_rows8(blk, pitch_B, in, 16u, 8u, 0u, 24u);
}
#endif

eg_soft_pack_full_fn eg_soft_pack_full_of(eg_soft_pack_fn pack, const eg_soft_target_t *t, uint32_t wmask)
{
#ifdef PACK_AVX2
    /* pack_rgba8 / pack_bgra8 of a whole block with wmask's 4 channels: u8_pack_full, which
     * takes pk_words8 on AVX2 hosts */
    if (!__builtin_cpu_supports("avx2") || t->elem_B != 4u || (wmask & 15u) != 15u) return NULL;
    if (pack == pack_rgba8) return pack_full_rgba8;
    if (pack == pack_bgra8) return pack_full_bgra8;
#else
    (void)pack; (void)t; (void)wmask;
#endif
    return NULL;
}

bool eg_soft_pack_full_order(eg_soft_pack_full_fn fn, uint8_t comp_of_byte[4])
{
#ifdef PACK_AVX2
    static const uint8_t rgba[4] = { 0, 1, 2, 3 }, bgra[4] = { 2, 1, 0, 3 };
    const uint8_t *o = fn == pack_full_rgba8 ? rgba : fn == pack_full_bgra8 ? bgra : NULL;
    if (!o) return false;
    for (uint32_t k = 0; k < 4u; k++) comp_of_byte[k] = o[k];
    return true;
#else
    (void)fn; (void)comp_of_byte;
    return false;
#endif
}

/* ---- depth / stencil primitives ---- */

bool eg_soft_compare(uint32_t compare, float a, float b)
{
    switch (compare) {
    case WGPUCompareFunction_Never:        return false;
    case WGPUCompareFunction_Less:         return a < b;
    case WGPUCompareFunction_Equal:        return a == b;
    case WGPUCompareFunction_LessEqual:    return a <= b;
    case WGPUCompareFunction_Greater:      return a > b;
    case WGPUCompareFunction_NotEqual:     return a != b;
    case WGPUCompareFunction_GreaterEqual: return a >= b;
    default:                               return true;
    }
}

uint8_t eg_soft_stencil_op(uint32_t op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case WGPUStencilOperation_Zero:           return 0;
    case WGPUStencilOperation_Replace:        return ref;
    case WGPUStencilOperation_Invert:         return (uint8_t)~s;
    case WGPUStencilOperation_IncrementClamp: return s == 255u ? s : (uint8_t)(s + 1u);
    case WGPUStencilOperation_DecrementClamp: return s == 0u ? s : (uint8_t)(s - 1u);
    case WGPUStencilOperation_IncrementWrap:  return (uint8_t)(s + 1u);
    case WGPUStencilOperation_DecrementWrap:  return (uint8_t)(s - 1u);
    default:                                  return s;
    }
}

#endif /* EMGPU_HAL_SOFT */
