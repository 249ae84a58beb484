/* hal/soft the vector loops of texture sampling (split out of soft_sample.c, session 7).
 *
 * soft_sample.c's fast path (fast_dispatch) hands 8-bit RGBA / BGRA bilinear sampling with clamp
 * or repeat on each axis to eg_soft_sample_rgba8_vec: 4 lanes per vector (SSE2 / NEON) or 8 (AVX2,
 * `target("avx2")` functions picked per call), the loops of soft_sample_vec.inc. Every lane runs
 * soft_sample.c's scalar operations (axis_setup, blend_unorm8) in the same order, so the bytes
 * are the lane loop's (soft_raster.rgba8_bilinear_vector_equals_lane_loop checks). Also the span
 * path's nearest-filter texel offsets (eg_soft_sample2d_offsets).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_sample_int.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_vm_simd.h"

#if defined(VM_SIMD_NATIVE) && VM_VW == 4   /* emulated vectors (Cortex-M) would not pay off */
#define SAMPLE_VEC 1

/* 4 lanes: SSE2 / NEON, the texels loaded one by one */
static EG_ALWAYS_INLINE vu_t sv_load4(const uint8_t *base, vu_t o)
{
    uint32_t t0, t1, t2, t3;
    __builtin_memcpy(&t0, base + o[0], 4); __builtin_memcpy(&t1, base + o[1], 4);
    __builtin_memcpy(&t2, base + o[2], 4); __builtin_memcpy(&t3, base + o[3], 4);
    return (vu_t){ t0, t1, t2, t3 };
}
#define sv_f vf_t
#define sv_i vi_t
#define sv_u vu_t
#define SV_W 4u
#define SV_F(v) ((vf_t){ (v), (v), (v), (v) })
#define SV_I(v) ((vi_t){ (v), (v), (v), (v) })
#define SV_U(v) ((vu_t){ (v), (v), (v), (v) })
#define SV_LANE_BITS ((vu_t){ 1u, 2u, 4u, 8u })
#define SV_ATTR
#define SV_(n) sv4_##n
#define SV_LOAD(base, o) sv_load4(base, o)
#include "hal/soft/soft_sample_vec.inc"
#undef sv_f
#undef sv_i
#undef sv_u
#undef SV_W
#undef SV_F
#undef SV_I
#undef SV_U
#undef SV_LANE_BITS
#undef SV_ATTR
#undef SV_
#undef SV_LOAD

/* 8 lanes on x86-64 CPUs with AVX2 (asked per call: __builtin_cpu_supports is a table read), the
 * texels by VPGATHERDD; the library itself stays baseline x86-64. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(EMGPU_SOFT_VM_NO_AVX2) && \
    EG_SOFT_LANES % 8 == 0
#define SAMPLE_AVX2 1
typedef float sv8_f __attribute__((vector_size(32)));
typedef int32_t sv8_i __attribute__((vector_size(32)));
typedef uint32_t sv8_u __attribute__((vector_size(32)));
#define sv_f sv8_f
#define sv_i sv8_i
#define sv_u sv8_u
#define SV_W 8u
#define SV_F(v) ((sv8_f){ (v), (v), (v), (v), (v), (v), (v), (v) })
#define SV_I(v) ((sv8_i){ (v), (v), (v), (v), (v), (v), (v), (v) })
#define SV_U(v) ((sv8_u){ (v), (v), (v), (v), (v), (v), (v), (v) })
#define SV_LANE_BITS ((sv8_u){ 1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u })
#define SV_ATTR __attribute__((target("avx2")))
#define SV_(n) sv8_##n
#define SV_LOAD(base, o) \
    ((sv8_u)__builtin_ia32_gathersiv8si(SV_I(0), (const int *)(const void *)(base), (sv8_i)(o), SV_I(-1), 1))
#include "hal/soft/soft_sample_vec.inc"

/* the mesh path's sample-and-store (helper "tex8", session 8): m8_group */
#include "hal/soft/soft_sample_mesh8.inc"

static SV_ATTR EG_ALWAYS_INLINE void st8_rgba8(uint32_t mu, uint32_t mv, bool swap, const eg_soft_subres_t *s,
                                               const float *u, const float *v, eg_soft_mask_t mask, uint8_t *dst,
                                               size_t pitch_B)
{
    const m8_ax_t au = m8_ax(s->width_el), av = m8_ax(s->height_el);
    const uint32_t (*k)[8] = m8_k_tab;
    uint32_t m0 = (uint32_t)mask & 0xffu, m1 = (uint32_t)(mask >> 8) & 0xffu;
    m8_f fu, fv;   /* every lane: the axes give in-range texels for any input */
    if (m0) {
        __builtin_memcpy(&fu, u, sizeof fu);
        __builtin_memcpy(&fv, v, sizeof fv);
        m8_group(mu, mv, swap, s->base, s->row_pitch_B, &au, &av, fu, fv, m0, dst, pitch_B, k);
    }
    if (m1) {
        __builtin_memcpy(&fu, u + 8, sizeof fu);
        __builtin_memcpy(&fv, v + 8, sizeof fv);
        m8_group(mu, mv, swap, s->base, s->row_pitch_B, &au, &av, fu, fv, m1, dst + 2u * pitch_B, pitch_B, k);
    }
}

static SV_ATTR void st8_rgba8_modes(uint32_t mu, uint32_t mv, bool swap, const eg_soft_subres_t *s, const float *u,
                                    const float *v, eg_soft_mask_t mask, uint8_t *dst, size_t pitch_B)
{
    if (mu == ADDR_REPEAT && mv == ADDR_REPEAT) {
        if (swap) st8_rgba8(ADDR_REPEAT, ADDR_REPEAT, true, s, u, v, mask, dst, pitch_B);
        else st8_rgba8(ADDR_REPEAT, ADDR_REPEAT, false, s, u, v, mask, dst, pitch_B);
    } else if (mu == ADDR_CLAMP && mv == ADDR_CLAMP) {
        st8_rgba8(ADDR_CLAMP, ADDR_CLAMP, swap, s, u, v, mask, dst, pitch_B);
    } else if (mu == ADDR_REPEAT) {
        st8_rgba8(ADDR_REPEAT, ADDR_CLAMP, swap, s, u, v, mask, dst, pitch_B);
    } else {
        st8_rgba8(ADDR_CLAMP, ADDR_REPEAT, swap, s, u, v, mask, dst, pitch_B);
    }
}
#undef sv_f
#undef sv_i
#undef sv_u
#undef SV_W
#undef SV_F
#undef SV_I
#undef SV_U
#undef SV_LANE_BITS
#undef SV_ATTR
#undef SV_
#undef SV_LOAD
#else
#define SAMPLE_AVX2 0
#endif

bool eg_soft_sample_rgba8_vec(bool bgra, uint32_t mu, uint32_t mv, const eg_soft_subres_t *s, const float *u,
                              const float *v, eg_soft_mask_t mask, eg_soft_vec4_t *out)
{
    if (s->element_B != 4u || mu > ADDR_REPEAT || mv > ADDR_REPEAT || eg_soft_sample_vw < 4u) return false;
#if SAMPLE_AVX2
    if (eg_soft_sample_vw >= 8u && __builtin_cpu_supports("avx2")) {
        sv8_rgba8_modes(mu, mv, bgra, s, u, v, mask, out);
        return true;
    }
#endif
    sv4_rgba8_modes(mu, mv, bgra, s, u, v, mask, out);
    return true;
}

/* eg_soft_sample_fast's first case (linear RGBA8 / BGRA8) where eg_soft_sample_rgba8_vec takes
 * its 8-lane loop, the same tests (mask != 0 is the caller's). */
bool eg_soft_sample_rgba8_avx2_ok(const struct eg_soft_sample_fast *p)
{
#if SAMPLE_AVX2
    return p->linear && (p->fmt == FAST_RGBA8 || p->fmt == FAST_BGRA8) && p->s.element_B == 4u && p->mu <= ADDR_REPEAT &&
           p->mv <= ADDR_REPEAT && eg_soft_sample_vw >= 8u && __builtin_cpu_supports("avx2");
#else
    (void)p;
    return false;
#endif
}

void eg_soft_sample_rgba8_avx2(const struct eg_soft_sample_fast *p, const float *u, const float *v, eg_soft_mask_t mask,
                               eg_soft_vec4_t *out)
{
#if SAMPLE_AVX2
    sv8_rgba8_modes(p->mu, p->mv, p->fmt == FAST_BGRA8, &p->s, u, v, mask, out);
#else
    (void)p; (void)u; (void)v; (void)mask; (void)out;
#endif
}

void eg_soft_sample_rgba8_store_avx2(const struct eg_soft_sample_fast *p, const float *u, const float *v,
                                     eg_soft_mask_t mask, bool dst_bgra, uint8_t *dst, size_t pitch_B)
{
#if SAMPLE_AVX2
    st8_rgba8_modes(p->mu, p->mv, (p->fmt == FAST_BGRA8) != dst_bgra, &p->s, u, v, mask, dst, pitch_B);
#else
    (void)p; (void)u; (void)v; (void)mask; (void)dst_bgra; (void)dst; (void)pitch_B;
#endif
}
#else
bool eg_soft_sample_rgba8_vec(bool bgra, uint32_t mu, uint32_t mv, const eg_soft_subres_t *s, const float *u,
                              const float *v, eg_soft_mask_t mask, eg_soft_vec4_t *out)
{
    (void)bgra; (void)mu; (void)mv; (void)s; (void)u; (void)v; (void)mask; (void)out;
    return false;   /* emulated vectors (Cortex-M) would not pay off: the lane loop runs */
}

bool eg_soft_sample_rgba8_avx2_ok(const struct eg_soft_sample_fast *p)
{
    (void)p;
    return false;
}

void eg_soft_sample_rgba8_avx2(const struct eg_soft_sample_fast *p, const float *u, const float *v, eg_soft_mask_t mask,
                               eg_soft_vec4_t *out)
{
    (void)p; (void)u; (void)v; (void)mask; (void)out;
}

void eg_soft_sample_rgba8_store_avx2(const struct eg_soft_sample_fast *p, const float *u, const float *v,
                                     eg_soft_mask_t mask, bool dst_bgra, uint8_t *dst, size_t pitch_B)
{
    (void)p; (void)u; (void)v; (void)mask; (void)dst_bgra; (void)dst; (void)pitch_B;
}
#endif


/* ---- the span path's nearest texel offsets (soft_span.h) ---- */

#if VM_SIMD
static inline vf_t vsel_f(vu_t m, vf_t a, vf_t b)   /* m ? a : b, bitwise */
{
    vu_t ua, ub;
    __builtin_memcpy(&ua, &a, 16);
    __builtin_memcpy(&ub, &b, 16);
    ua = (ua & m) | (ub & ~m);
    __builtin_memcpy(&a, &ua, 16);
    return a;
}
#endif

/* The texel each of lanes [0, n) takes with nearest filtering, as a byte offset from p->s.base.
 * axis_setup(ADDR_CLAMP, nearest) in a branch-free form the compiler vectorises, same values:
 * with t = clampf(x) * 256, axis_setup takes i = floor(floor(t) / 256) clamped to [0, n - 1].
 * For t < 0 that is 0, and so is max(t, 0) >> 8 here; for t >= 0, floor(t) is the truncating
 * conversion and floor division by 256 a shift. x and the clamp bounds are axis_setup's. */
static EG_ALWAYS_INLINE int32_t nearest_clamp_index(float u, float fn, float hi, int32_t last)
{
    float x = u * fn + 0.0f - 0.0f;
    x = x > -17.0f ? (x < hi ? x : hi) : -17.0f;
    float t = x * 256.0f;
    int32_t i = (int32_t)(t > 0.0f ? t : 0.0f) >> 8;
    return i < last ? i : last;
}

#if VM_SIMD

static EG_ALWAYS_INLINE vi_t nearest_clamp_index4(vf_t u, vf_t fn, vf_t hi, vi_t last, vf_t zero, vf_t m17, vf_t k256)
{
    vf_t x = u * fn + zero - zero;
    x = vsel_f((vu_t)(x > m17), vsel_f((vu_t)(x < hi), x, hi), m17);
    vf_t t = x * k256;
    t = vsel_f((vu_t)(t > zero), t, zero);
    vi_t i = __builtin_convertvector(t, vi_t) >> 8;
    vi_t m = (vi_t)(i < last);
    return (i & m) | (last & ~m);
}
#endif

void eg_soft_sample2d_offsets(const eg_soft_sample2d_t *p, const float *u, const float *v, uint32_t n,
                              uint32_t *off)
{
    int32_t w = (int32_t)p->s.width_el, h = (int32_t)p->s.height_el;
    float fw = (float)w, fh = (float)h, hw = (float)(2 * w) + 16.0f, hh = (float)(2 * h) + 16.0f;
    uint32_t pitch = p->s.row_pitch_B, el = p->s.element_B;
    uint32_t l = 0;
#if VM_SIMD
    /* nearest_clamp_index 4 lanes at a time: the same operations and selects per lane */
    const vf_t zero = { 0, 0, 0, 0 }, m17 = { -17.0f, -17.0f, -17.0f, -17.0f }, k256 = { 256.0f, 256.0f, 256.0f, 256.0f };
    const vf_t vfw = { fw, fw, fw, fw }, vfh = { fh, fh, fh, fh }, vhw = { hw, hw, hw, hw }, vhh = { hh, hh, hh, hh };
    const vi_t lw = { w - 1, w - 1, w - 1, w - 1 }, lh = { h - 1, h - 1, h - 1, h - 1 };
    const vu_t vp = { pitch, pitch, pitch, pitch }, ve = { el, el, el, el };
    for (; l + 4u <= n; l += 4) {
        vf_t x, y;
        VLOAD(x, u + l);
        VLOAD(y, v + l);
        vi_t ix = nearest_clamp_index4(x, vfw, vhw, lw, zero, m17, k256);
        vi_t iy = nearest_clamp_index4(y, vfh, vhh, lh, zero, m17, k256);
        vu_t o = (vu_t)iy * vp + (vu_t)ix * ve;
        VSTORE(off + l, o);
    }
#endif
    for (; l < n; l++) {
        uint32_t ix = (uint32_t)nearest_clamp_index(u[l], fw, hw, w - 1);
        uint32_t iy = (uint32_t)nearest_clamp_index(v[l], fh, hh, h - 1);
        off[l] = iy * pitch + ix * el;
    }
}

#endif /* EMGPU_HAL_SOFT */
