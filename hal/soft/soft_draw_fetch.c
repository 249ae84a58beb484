/* hal/soft vertex fetch: one converter per WebGPU vertex format, picked at pipeline creation.
 *
 * Spec (WebGPU "vertex formats", Vulkan "conversion from normalized fixed-point"): unorm n-bit
 * c / (2^n - 1); snorm max(c / (2^(n-1) - 1), -1); uint/sint raw integers (sint sign-extended);
 * float16 widened exactly; components the format lacks read (0, 0, 0, 1). Bytes are
 * little-endian, read one at a time (no unaligned access; WebGPU only guarantees 4-byte
 * alignment of attributes anyway).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_texel.h"

static inline uint32_t fbits(float f) { union { float f; uint32_t u; } c = { f }; return c.u; }
static inline uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static inline uint32_t rd32(const uint8_t *p) { return rd16(p) | rd16(p + 2) << 16; }

static inline void fill(uint32_t out[4], uint32_t n, bool is_float)
{
    static const uint32_t one_f = 0x3F800000u;
    for (uint32_t c = n; c < 4; c++) out[c] = c == 3u ? (is_float ? one_f : 1u) : 0u;
}

#define DEF_FETCH(name, n, is_float, expr)                                                        \
static void fetch_##name(const uint8_t *p, uint32_t out[4])                                      \
{                                                                                                 \
    for (uint32_t c = 0; c < (n); c++) out[c] = (expr);                                          \
    fill(out, (n), (is_float));                                                                  \
}

static inline float snorm8(uint8_t b) { float v = (float)(int8_t)b / 127.0f; return v < -1.0f ? -1.0f : v; }
static inline float snorm16(uint32_t h) { float v = (float)(int16_t)h / 32767.0f; return v < -1.0f ? -1.0f : v; }

DEF_FETCH(u8x1, 1, false, p[c])
DEF_FETCH(u8x2, 2, false, p[c])
DEF_FETCH(u8x4, 4, false, p[c])
DEF_FETCH(s8x1, 1, false, (uint32_t)(int32_t)(int8_t)p[c])
DEF_FETCH(s8x2, 2, false, (uint32_t)(int32_t)(int8_t)p[c])
DEF_FETCH(s8x4, 4, false, (uint32_t)(int32_t)(int8_t)p[c])
DEF_FETCH(un8x1, 1, true, fbits((float)p[c] / 255.0f))
DEF_FETCH(un8x2, 2, true, fbits((float)p[c] / 255.0f))
DEF_FETCH(un8x4, 4, true, fbits((float)p[c] / 255.0f))
DEF_FETCH(sn8x1, 1, true, fbits(snorm8(p[c])))
DEF_FETCH(sn8x2, 2, true, fbits(snorm8(p[c])))
DEF_FETCH(sn8x4, 4, true, fbits(snorm8(p[c])))
DEF_FETCH(u16x1, 1, false, rd16(p + 2 * c))
DEF_FETCH(u16x2, 2, false, rd16(p + 2 * c))
DEF_FETCH(u16x4, 4, false, rd16(p + 2 * c))
DEF_FETCH(s16x1, 1, false, (uint32_t)(int32_t)(int16_t)rd16(p + 2 * c))
DEF_FETCH(s16x2, 2, false, (uint32_t)(int32_t)(int16_t)rd16(p + 2 * c))
DEF_FETCH(s16x4, 4, false, (uint32_t)(int32_t)(int16_t)rd16(p + 2 * c))
DEF_FETCH(un16x1, 1, true, fbits((float)rd16(p + 2 * c) / 65535.0f))
DEF_FETCH(un16x2, 2, true, fbits((float)rd16(p + 2 * c) / 65535.0f))
DEF_FETCH(un16x4, 4, true, fbits((float)rd16(p + 2 * c) / 65535.0f))
DEF_FETCH(sn16x1, 1, true, fbits(snorm16(rd16(p + 2 * c))))
DEF_FETCH(sn16x2, 2, true, fbits(snorm16(rd16(p + 2 * c))))
DEF_FETCH(sn16x4, 4, true, fbits(snorm16(rd16(p + 2 * c))))
DEF_FETCH(f16x1, 1, true, fbits(eg_soft_f16_to_f32((uint16_t)rd16(p + 2 * c))))
DEF_FETCH(f16x2, 2, true, fbits(eg_soft_f16_to_f32((uint16_t)rd16(p + 2 * c))))
DEF_FETCH(f16x4, 4, true, fbits(eg_soft_f16_to_f32((uint16_t)rd16(p + 2 * c))))
DEF_FETCH(f32x1, 1, true, rd32(p + 4 * c))
DEF_FETCH(f32x2, 2, true, rd32(p + 4 * c))
DEF_FETCH(f32x3, 3, true, rd32(p + 4 * c))
DEF_FETCH(f32x4, 4, true, rd32(p + 4 * c))
DEF_FETCH(i32x1, 1, false, rd32(p + 4 * c))
DEF_FETCH(i32x2, 2, false, rd32(p + 4 * c))
DEF_FETCH(i32x3, 3, false, rd32(p + 4 * c))
DEF_FETCH(i32x4, 4, false, rd32(p + 4 * c))

static void fetch_un10_10_10_2(const uint8_t *p, uint32_t out[4])
{
    uint32_t v = rd32(p);
    out[0] = fbits((float)(v & 1023u) / 1023.0f);
    out[1] = fbits((float)(v >> 10 & 1023u) / 1023.0f);
    out[2] = fbits((float)(v >> 20 & 1023u) / 1023.0f);
    out[3] = fbits((float)(v >> 30) / 3.0f);
}

static void fetch_un8x4_bgra(const uint8_t *p, uint32_t out[4])
{
    out[0] = fbits((float)p[2] / 255.0f);
    out[1] = fbits((float)p[1] / 255.0f);
    out[2] = fbits((float)p[0] / 255.0f);
    out[3] = fbits((float)p[3] / 255.0f);
}

static void fetch_none(const uint8_t *p, uint32_t out[4])
{
    (void)p;
    out[0] = out[1] = out[2] = 0;
    out[3] = 0x3F800000u;
}

eg_soft_fetch_fn eg_soft_fetch_fn_for(WGPUVertexFormat format)
{
    switch (format) {
    case WGPUVertexFormat_Uint8:      return fetch_u8x1;
    case WGPUVertexFormat_Uint8x2:    return fetch_u8x2;
    case WGPUVertexFormat_Uint8x4:    return fetch_u8x4;
    case WGPUVertexFormat_Sint8:      return fetch_s8x1;
    case WGPUVertexFormat_Sint8x2:    return fetch_s8x2;
    case WGPUVertexFormat_Sint8x4:    return fetch_s8x4;
    case WGPUVertexFormat_Unorm8:     return fetch_un8x1;
    case WGPUVertexFormat_Unorm8x2:   return fetch_un8x2;
    case WGPUVertexFormat_Unorm8x4:   return fetch_un8x4;
    case WGPUVertexFormat_Snorm8:     return fetch_sn8x1;
    case WGPUVertexFormat_Snorm8x2:   return fetch_sn8x2;
    case WGPUVertexFormat_Snorm8x4:   return fetch_sn8x4;
    case WGPUVertexFormat_Uint16:     return fetch_u16x1;
    case WGPUVertexFormat_Uint16x2:   return fetch_u16x2;
    case WGPUVertexFormat_Uint16x4:   return fetch_u16x4;
    case WGPUVertexFormat_Sint16:     return fetch_s16x1;
    case WGPUVertexFormat_Sint16x2:   return fetch_s16x2;
    case WGPUVertexFormat_Sint16x4:   return fetch_s16x4;
    case WGPUVertexFormat_Unorm16:    return fetch_un16x1;
    case WGPUVertexFormat_Unorm16x2:  return fetch_un16x2;
    case WGPUVertexFormat_Unorm16x4:  return fetch_un16x4;
    case WGPUVertexFormat_Snorm16:    return fetch_sn16x1;
    case WGPUVertexFormat_Snorm16x2:  return fetch_sn16x2;
    case WGPUVertexFormat_Snorm16x4:  return fetch_sn16x4;
    case WGPUVertexFormat_Float16:    return fetch_f16x1;
    case WGPUVertexFormat_Float16x2:  return fetch_f16x2;
    case WGPUVertexFormat_Float16x4:  return fetch_f16x4;
    case WGPUVertexFormat_Float32:    return fetch_f32x1;
    case WGPUVertexFormat_Float32x2:  return fetch_f32x2;
    case WGPUVertexFormat_Float32x3:  return fetch_f32x3;
    case WGPUVertexFormat_Float32x4:  return fetch_f32x4;
    case WGPUVertexFormat_Uint32:  case WGPUVertexFormat_Sint32:   return fetch_i32x1;
    case WGPUVertexFormat_Uint32x2: case WGPUVertexFormat_Sint32x2: return fetch_i32x2;
    case WGPUVertexFormat_Uint32x3: case WGPUVertexFormat_Sint32x3: return fetch_i32x3;
    case WGPUVertexFormat_Uint32x4: case WGPUVertexFormat_Sint32x4: return fetch_i32x4;
    case WGPUVertexFormat_Unorm10_10_10_2: return fetch_un10_10_10_2;
    case WGPUVertexFormat_Unorm8x4BGRA:    return fetch_un8x4_bgra;
    default:                               return fetch_none;
    }
}

/* A 32-bit little-endian word of the vertex data: one (unaligned) load where the CPU is
 * little-endian, the same value as rd32's four byte loads (which GCC does not merge: ~8
 * instructions a component, most of the float formats' fetch on the UI row). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint32_t ld32(const uint8_t *p)
{
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}
#else
#define ld32 rd32
#endif

/* One attribute's lane loop with the converter inlined for the formats meshes use most: the
 * same conversions as fetch_* (the per-lane call, its result copy and the range test were ~100
 * instructions a vertex on the bench's 20k-triangle rows). `conv` sets v[0..3] from the
 * element's bytes at p. Robust access: an element outside the bound range reads (0, 0, 0, 1).
 * Four lanes of one element (an instance's attributes at the 4 corners of an instanced quad,
 * which take consecutive slots) are converted once and the other three lanes get the same bits
 * (the conversion depends only on the bytes): 3 of 4 instance-step fetches on the UI row. */
#define FETCH_ONE(l, conv)                                                                        \
    do {                                                                                          \
        uint64_t off = el[l] * stride_B + offset_B;                                               \
        if (!mem || off + attr_B > size_B) {                                                      \
            v[0] = v[1] = v[2] = 0;                                                               \
            v[3] = 0x3F800000u;                                                                   \
        } else {                                                                                  \
            const uint8_t *p = mem + off;                                                         \
            conv                                                                                  \
        }                                                                                         \
    } while (0)

#if defined(__GNUC__)
typedef uint32_t fetch_u4 __attribute__((vector_size(16)));
#define FETCH_SPLAT(d, x)                                                                         \
    do {                                                                                          \
        fetch_u4 s_ = { (x), (x), (x), (x) };                                                     \
        __builtin_memcpy((d), &s_, 16);                                                           \
    } while (0)
#else
#define FETCH_SPLAT(d, x) ((d)[0] = (d)[1] = (d)[2] = (d)[3] = (x))
#endif

/* Runs are looked for only where lanes 0 and 1 share their element (instance-step attributes;
 * vertex-step ones keep the plain lane loop). */
#define FETCH_LANES(conv)                                                                         \
    if (n >= 4u && el[1] == el[0]) {                                                              \
        for (uint32_t g = 0; g < n; g += 4u) {                                                    \
            uint32_t v[4];                                                                        \
            if (g + 4u <= n && el[g + 1u] == el[g] && el[g + 2u] == el[g] && el[g + 3u] == el[g]) { \
                FETCH_ONE(g, conv);                                                               \
                for (uint32_t c = 0; c < 4u; c++) FETCH_SPLAT(&dst->c[c].u[g], v[c]);             \
                continue;                                                                         \
            }                                                                                     \
            for (uint32_t l = g; l < g + 4u && l < n; l++) {                                      \
                FETCH_ONE(l, conv);                                                               \
                for (uint32_t c = 0; c < 4u; c++) dst->c[c].u[l] = v[c];                          \
            }                                                                                     \
        }                                                                                         \
    } else {                                                                                      \
        for (uint32_t l = 0; l < n; l++) {                                                        \
            uint32_t v[4];                                                                        \
            FETCH_ONE(l, conv);                                                                   \
            for (uint32_t c = 0; c < 4u; c++) dst->c[c].u[l] = v[c];                              \
        }                                                                                         \
    }

/* c / 255.0f for every byte c, folded by the compiler with the division's IEEE rounding
 * (FLT_EVAL_METHOD 0 on every board: float operands, float result), so the same bits as
 * fetch_un8*'s run-time division. */
#define UN8_1(c) ((float)(c) / 255.0f)
#define UN8_4(c) UN8_1(c), UN8_1((c) + 1), UN8_1((c) + 2), UN8_1((c) + 3)
#define UN8_16(c) UN8_4(c), UN8_4((c) + 4), UN8_4((c) + 8), UN8_4((c) + 12)
#define UN8_64(c) UN8_16(c), UN8_16((c) + 16), UN8_16((c) + 32), UN8_16((c) + 48)
static const float un8_tab[256] = { UN8_64(0), UN8_64(64), UN8_64(128), UN8_64(192) };
#undef UN8_64
#undef UN8_16
#undef UN8_4
#undef UN8_1

#if EMGPU_SOFT_SIMD && defined(__SSE2__) && defined(__GNUC__) && !defined(__clang__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FETCH_RUNS 1
typedef float fetch_f4 __attribute__((vector_size(16)));
typedef int32_t fetch_i4 __attribute__((vector_size(16)));
/* CONSECUTIVE ELEMENTS. A non-indexed draw's lanes read elements e, e + 1, .. (vertex-step
 * attributes of slots taken in order): when the last one lies in the bound range, every one does
 * (the byte offset grows with the element), so no lane needs fetch's range test, and Float32x2
 * and Unorm8x4 (the 20k-triangle rows' formats, ~17 and ~20 instructions a lane) convert 4 lanes
 * per vector: the float words moved as integers (the same bits), the bytes as c / 255.0f by a
 * vector division (IEEE, correctly rounded: un8_tab's values). Lanes n & ~3 .. n - 1 take the
 * lane loop. False where the lanes are not such a run (the general path then). */
static bool fetch_run(eg_soft_fetch_fn fn, const uint8_t *mem, uint64_t size_B, uint32_t offset_B, uint32_t attr_B,
                      uint64_t stride_B, const uint32_t *el, uint32_t n, eg_soft_vec4_t *dst)
{
    if (n < 4u || !mem || el[0] > UINT32_MAX - (n - 1u) || el[n - 1u] != el[0] + (n - 1u) || !eg_soft_raster_fast_paths)
        return false;   /* (the last lane first: instanced quads' ids repeat every 4 lanes) */
    {   /* el[l] == el[0] + l, 4 lanes a compare */
        const fetch_i4 e0 = { (int32_t)el[0], (int32_t)el[0], (int32_t)el[0], (int32_t)el[0] }, four = { 4, 4, 4, 4 };
        fetch_i4 iota = { 0, 1, 2, 3 };
        uint32_t l = 0;
        for (; l + 4u <= n; l += 4u, iota += four) {
            fetch_i4 e;
            __builtin_memcpy(&e, el + l, 16);
            if (__builtin_ia32_movmskps((fetch_f4)(e - e0 == iota)) != 0xf) return false;
        }
        for (; l < n; l++)
            if (el[l] != el[0] + l) return false;
    }
    if ((uint64_t)el[n - 1u] * stride_B + offset_B + attr_B > size_B) return false;
    const uint8_t *p = mem + (uint64_t)el[0] * stride_B + offset_B;
    uint32_t l = 0;
    if (fn == fetch_f32x2) {
        const fetch_u4 zero = { 0, 0, 0, 0 }, one = { 0x3F800000u, 0x3F800000u, 0x3F800000u, 0x3F800000u };
        for (; l + 4u <= n; l += 4u, p += 4u * stride_B) {
            fetch_u4 a = zero, b = zero, c = zero, d = zero;   /* (x, y, 0, 0) of lanes l .. l + 3 */
            __builtin_memcpy(&a, p, 8);
            __builtin_memcpy(&b, p + stride_B, 8);
            __builtin_memcpy(&c, p + 2u * stride_B, 8);
            __builtin_memcpy(&d, p + 3u * stride_B, 8);
            const fetch_u4 ab = __builtin_shuffle(a, b, (fetch_u4){ 0, 4, 1, 5 });   /* xa xb ya yb */
            const fetch_u4 cd = __builtin_shuffle(c, d, (fetch_u4){ 0, 4, 1, 5 });
            const fetch_u4 x = __builtin_shuffle(ab, cd, (fetch_u4){ 0, 1, 4, 5 });
            const fetch_u4 y = __builtin_shuffle(ab, cd, (fetch_u4){ 2, 3, 6, 7 });
            __builtin_memcpy(&dst->c[0].u[l], &x, 16);
            __builtin_memcpy(&dst->c[1].u[l], &y, 16);
            __builtin_memcpy(&dst->c[2].u[l], &zero, 16);
            __builtin_memcpy(&dst->c[3].u[l], &one, 16);
        }
        for (; l < n; l++, p += stride_B) {
            dst->c[0].u[l] = ld32(p);
            dst->c[1].u[l] = ld32(p + 4);
            dst->c[2].u[l] = 0;
            dst->c[3].u[l] = 0x3F800000u;
        }
        return true;
    }
    if (fn == fetch_un8x4) {
        const fetch_f4 k255 = { 255.0f, 255.0f, 255.0f, 255.0f };
        const fetch_i4 lo = { 0xff, 0xff, 0xff, 0xff };
        for (; l + 4u <= n; l += 4u, p += 4u * stride_B) {
            const fetch_i4 w = { (int32_t)ld32(p), (int32_t)ld32(p + stride_B), (int32_t)ld32(p + 2u * stride_B),
                                 (int32_t)ld32(p + 3u * stride_B) };
#pragma GCC unroll 4
            for (uint32_t c = 0; c < 4u; c++) {
                const fetch_f4 v = __builtin_convertvector((w >> (int32_t)(8u * c)) & lo, fetch_f4) / k255;
                __builtin_memcpy(&dst->c[c].u[l], &v, 16);
            }
        }
        for (; l < n; l++, p += stride_B)
            for (uint32_t c = 0; c < 4u; c++) dst->c[c].u[l] = fbits(un8_tab[p[c]]);
        return true;
    }
    return false;
}
#else
#define FETCH_RUNS 0
#endif

void eg_soft_fetch_lanes(eg_soft_fetch_fn fn, const uint8_t *mem, uint64_t size_B, uint32_t offset_B, uint32_t attr_B,
                         uint64_t stride_B, const uint32_t *el, uint32_t n, eg_soft_vec4_t *dst)
{
#if FETCH_RUNS
    if ((fn == fetch_f32x2 || fn == fetch_un8x4) && n >= 4u && el[n - 1u] == el[0] + (n - 1u) &&
        fetch_run(fn, mem, size_B, offset_B, attr_B, stride_B, el, n, dst))
        return;
#endif
    if (fn == fetch_f32x2) {
        FETCH_LANES(v[0] = ld32(p); v[1] = ld32(p + 4); v[2] = 0; v[3] = 0x3F800000u;)
    } else if (fn == fetch_f32x3) {
        FETCH_LANES(v[0] = ld32(p); v[1] = ld32(p + 4); v[2] = ld32(p + 8); v[3] = 0x3F800000u;)
    } else if (fn == fetch_f32x4) {
        FETCH_LANES(v[0] = ld32(p); v[1] = ld32(p + 4); v[2] = ld32(p + 8); v[3] = ld32(p + 12);)
    } else if (fn == fetch_f32x1) {
        FETCH_LANES(v[0] = ld32(p); v[1] = v[2] = 0; v[3] = 0x3F800000u;)
    } else if (fn == fetch_un8x4) {
        /* written out: GCC kept a 4-trip loop through a stack array (~45 instructions a lane) */
        FETCH_LANES(v[0] = fbits(un8_tab[p[0]]); v[1] = fbits(un8_tab[p[1]]); v[2] = fbits(un8_tab[p[2]]);
                    v[3] = fbits(un8_tab[p[3]]);)
    } else {
        FETCH_LANES(fn(p, v);)
    }
}

/* QUADS (vtx13). Lanes in runs of four of one element (an instanced quad's corners: draw_strip_fresh
 * and draw_quads_fresh put an instance's 4 vertices at 4 consecutive slots; soft_draw.c
 * fetch_attribs checks the runs once per lane group for all instance-step attributes, which come
 * here in one call): each run's element is converted once and splatted to its 4 lanes. The range
 * test is made once for the largest element (el_max): the byte offset grows with the element, so
 * when the largest lies inside size_B every one does; otherwise the general lane loop (robust
 * access per lane). The converters are fetch_*'s (the hot formats written out as in
 * eg_soft_fetch_lanes), so the bits are the same. FETCH_LANES' per-attribute run detection and
 * per-run range test, and a call per attribute and group, were ~170 instructions per 16-lane
 * group and attribute on the UI row; ~100 here. */
#define FETCH_QUADS(conv)                                                                         \
    for (uint32_t q = 0; q < nq; q++) {                                                           \
        const uint8_t *p = base + (uint64_t)el[4u * q] * stride_B;                                \
        uint32_t v[4];                                                                            \
        conv                                                                                      \
        for (uint32_t c = 0; c < 4u; c++) FETCH_SPLAT(&dst->c[c].u[4u * q], v[c]);                \
    }

static void fetch_quads_one(const eg_soft_fetch_src_t *a, const uint32_t *el, uint32_t nq, uint32_t el_max)
{
    const eg_soft_fetch_fn fn = a->fn;
    const uint64_t stride_B = a->stride_B;
    eg_soft_vec4_t *const dst = a->dst;
    if (!a->mem || (uint64_t)el_max * stride_B + a->offset_B + a->attr_B > a->size_B) {
        eg_soft_fetch_lanes(fn, a->mem, a->size_B, a->offset_B, a->attr_B, stride_B, el, 4u * nq, dst);
        return;
    }
    const uint8_t *const base = a->mem + a->offset_B;
    if (fn == fetch_f32x4) {
        FETCH_QUADS(v[0] = ld32(p); v[1] = ld32(p + 4); v[2] = ld32(p + 8); v[3] = ld32(p + 12);)
    } else if (fn == fetch_un8x4) {
        FETCH_QUADS(v[0] = fbits(un8_tab[p[0]]); v[1] = fbits(un8_tab[p[1]]); v[2] = fbits(un8_tab[p[2]]);
                    v[3] = fbits(un8_tab[p[3]]);)
    } else if (fn == fetch_f32x2) {
        FETCH_QUADS(v[0] = ld32(p); v[1] = ld32(p + 4); v[2] = 0; v[3] = 0x3F800000u;)
    } else if (fn == fetch_f32x1) {
        FETCH_QUADS(v[0] = ld32(p); v[1] = v[2] = 0; v[3] = 0x3F800000u;)
    } else if (fn == fetch_f32x3) {
        FETCH_QUADS(v[0] = ld32(p); v[1] = ld32(p + 4); v[2] = ld32(p + 8); v[3] = 0x3F800000u;)
    } else {
        FETCH_QUADS(fn(p, v);)
    }
}

void eg_soft_fetch_quads(const eg_soft_fetch_src_t *src, uint32_t nsrc, const uint32_t *el, uint32_t nq,
                         uint32_t el_max)
{
    for (uint32_t i = 0; i < nsrc; i++) fetch_quads_one(&src[i], el, nq, el_max);
}

/* QUAD BATCHES (vtxquad). fetch_quads_one's range test, its dispatch and a call per attribute and
 * lane group were ~45 instructions a quad on the UI row; a batch of instanced quads (soft_draw.c
 * shade_quads) makes the test once for the batch's largest element (the byte offset grows with
 * the element), and the components a format fills with constants (fill: 0, 0, 1 of Float32x1/x2/
 * x3) are written to all lanes once, since nothing else writes vs_in while a batch is shaded. The
 * lane groups then convert each run's element as fetch_quads_one does (the same converters; the
 * SSE2 forms move the float words as they are and divide the Unorm8x4 bytes by 255.0f per lane,
 * IEEE-rounded like un8_tab's folded divisions) and splat it to the run's 4 lanes. */
static uint32_t fill_from(eg_soft_fetch_fn fn)   /* the first component fn fills with a constant */
{
    return fn == fetch_f32x1 ? 1u : fn == fetch_f32x2 ? 2u : fn == fetch_f32x3 ? 3u : 4u;
}

bool eg_soft_fetch_quads_prep(const eg_soft_fetch_src_t *src, uint32_t nsrc, uint32_t el_max)
{
    for (uint32_t i = 0; i < nsrc; i++) {
        const eg_soft_fetch_src_t *a = &src[i];
        if (!a->mem || (uint64_t)el_max * a->stride_B + a->offset_B + a->attr_B > a->size_B) return false;
    }
    for (uint32_t i = 0; i < nsrc; i++) {
        const uint32_t k[4] = { 0, 0, 0, 0x3F800000u };   /* fill()'s float constants */
        for (uint32_t c = fill_from(src[i].fn); c < 4u; c++)
            for (uint32_t l = 0; l < EG_SOFT_LANES; l += 4u) FETCH_SPLAT(&src[i].dst->c[c].u[l], k[c]);
    }
    return true;
}

#if FETCH_RUNS
typedef char fetch_b16 __attribute__((vector_size(16)));
typedef short fetch_h8 __attribute__((vector_size(16)));
#define SPLAT_C_(v, c, d) do { const fetch_u4 s_ = __builtin_shuffle((v), (fetch_u4){ c, c, c, c }); __builtin_memcpy((d), &s_, 16); } while (0)
#endif

/* n components of v to lanes 4 q .. 4 q + 3 */
#define QSPLAT_(n)                                                                                \
    for (uint32_t c = 0; c < (n); c++) FETCH_SPLAT(&dst->c[c].u[4u * q], v[c])
#define QUADS_IN(conv, n)                                                                         \
    _Pragma("GCC unroll 4")                                                                       \
    for (uint32_t q = 0; q < nq; q++) {                                                           \
        const uint8_t *p = base + (uint64_t)el[4u * q] * stride_B;                                \
        uint32_t v[4];                                                                            \
        conv                                                                                      \
        QSPLAT_(n);                                                                               \
    }

static EG_ALWAYS_INLINE void quads_in_body(const eg_soft_fetch_src_t *a, const uint32_t *el, uint32_t nq)
{
    const eg_soft_fetch_fn fn = a->fn;
    const uint64_t stride_B = a->stride_B;
    eg_soft_vec4_t *const dst = a->dst;
    const uint8_t *const base = a->mem + a->offset_B;
#if FETCH_RUNS
    if (fn == fetch_f32x4) {
#pragma GCC unroll 4
        for (uint32_t q = 0; q < nq; q++) {
            fetch_u4 v;
            __builtin_memcpy(&v, base + (uint64_t)el[4u * q] * stride_B, 16);
            SPLAT_C_(v, 0, &dst->c[0].u[4u * q]);
            SPLAT_C_(v, 1, &dst->c[1].u[4u * q]);
            SPLAT_C_(v, 2, &dst->c[2].u[4u * q]);
            SPLAT_C_(v, 3, &dst->c[3].u[4u * q]);
        }
        return;
    }
    if (fn == fetch_un8x4) {
        const fetch_f4 k255 = { 255.0f, 255.0f, 255.0f, 255.0f };
        const fetch_b16 zb = { 0 };
        const fetch_h8 zh = { 0 };
#pragma GCC unroll 4
        for (uint32_t q = 0; q < nq; q++) {
            const fetch_i4 w = { (int32_t)ld32(base + (uint64_t)el[4u * q] * stride_B), 0, 0, 0 };
            const fetch_h8 h = (fetch_h8)__builtin_ia32_punpcklbw128((fetch_b16)w, zb);   /* bytes 0-3 as words */
            const fetch_i4 i = (fetch_i4)__builtin_ia32_punpcklwd128(h, zh);              /* as dwords */
            const fetch_u4 v = (fetch_u4)(__builtin_convertvector(i, fetch_f4) / k255);
            SPLAT_C_(v, 0, &dst->c[0].u[4u * q]);
            SPLAT_C_(v, 1, &dst->c[1].u[4u * q]);
            SPLAT_C_(v, 2, &dst->c[2].u[4u * q]);
            SPLAT_C_(v, 3, &dst->c[3].u[4u * q]);
        }
        return;
    }
#endif
    if (fn == fetch_f32x4) {
        QUADS_IN(v[0] = ld32(p); v[1] = ld32(p + 4); v[2] = ld32(p + 8); v[3] = ld32(p + 12);, 4u)
    } else if (fn == fetch_un8x4) {
        QUADS_IN(v[0] = fbits(un8_tab[p[0]]); v[1] = fbits(un8_tab[p[1]]); v[2] = fbits(un8_tab[p[2]]);
                 v[3] = fbits(un8_tab[p[3]]);, 4u)
    } else if (fn == fetch_f32x2) {
        QUADS_IN(v[0] = ld32(p); v[1] = ld32(p + 4);, 2u)
    } else if (fn == fetch_f32x1) {
        QUADS_IN(v[0] = ld32(p);, 1u)
    } else if (fn == fetch_f32x3) {
        QUADS_IN(v[0] = ld32(p); v[1] = ld32(p + 4); v[2] = ld32(p + 8);, 3u)
    } else {
        QUADS_IN(fn(p, v);, 4u)
    }
}
#undef QUADS_IN
#undef QSPLAT_

/* whole lane groups (4 runs) with the loops unrolled: their counters were ~20 instructions a quad */
static void quads_in_4(const eg_soft_fetch_src_t *a, const uint32_t *el) { quads_in_body(a, el, 4u); }
static void quads_in_n(const eg_soft_fetch_src_t *a, const uint32_t *el, uint32_t nq) { quads_in_body(a, el, nq); }

void eg_soft_fetch_quads_in(const eg_soft_fetch_src_t *src, uint32_t nsrc, const uint32_t *el, uint32_t nq)
{
    if (nq == 4u)
        for (uint32_t i = 0; i < nsrc; i++) quads_in_4(&src[i], el);
    else
        for (uint32_t i = 0; i < nsrc; i++) quads_in_n(&src[i], el, nq);
}
#undef FETCH_QUADS
#undef FETCH_LANES
#undef FETCH_ONE
#undef FETCH_SPLAT

#endif /* EMGPU_HAL_SOFT */
