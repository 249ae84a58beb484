/* hal/soft sound value ranges of interpolated inputs over a set of pixels, without interpolating them.
 *
 * WHY. The block-constant proof (soft_raster_const.c) and the span path's constant rows
 * (soft_span.c) need, for a whole region or row, an interval that contains every pixel's
 * interpolated value as the per-pixel code computes it (bit for bit, rounding included).
 * Interpolating every pixel to find its min / max costs what the proof is meant to save.
 *
 * HOW. Each per-pixel value is a chain of float operations (soft_raster_shade.c barycentrics
 * and interpolate; soft_span.c interp_chunk does the same ones in the same order):
 *   e1 = (float)E1(block origin) * inv_area2          E1 an exact 64-bit edge value
 *   l1 = e1 + fx * d1x + fy * d1y                     fx, fy = offset in the 4x4 block
 *   l0 = 1 - l1 - l2;  q_i = l_i * iw_i;  w = q0 + q1 + q2;  r = 1 / w;  p_i = q_i * r
 *   value = a0 + w1 * d1 + w2 * d2                    w = l (linear) or p (perspective)
 * Round-to-nearest is monotone (x <= y gives round(x) <= round(y)), so every step is monotone
 * in each operand separately, with a direction fixed over the pixel set (the sign of a
 * constant factor), except q * r, whose direction in r follows q's sign; for all of them the
 * extremes over a box of operands lie at its corners. E1 is affine in the block origin, so its
 * extremes are at the corner blocks. Evaluating the same expressions at the corners with the
 * same float operations therefore bounds every pixel's value (interval arithmetic where two
 * operands are correlated: looser, still sound). Any non-finite bound, or a 1/w whose
 * denominator range reaches 0, gives up (false): the callers then take the per-pixel path.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"

static inline bool fin(float f)
{
    union { float f; uint32_t u; } c = { f };
    return (c.u & 0x7f800000u) != 0x7f800000u;
}

/* The next float below / above a finite f (toward -inf / +inf), through the bits. */
static float nextafter_down(float f)
{
    union { float f; uint32_t u; } c = { f };
    if (f == 0.0f) { c.u = 0x80000001u; return c.f; }
    c.u = f > 0.0f ? c.u - 1u : c.u + 1u;
    return c.f;
}

static float nextafter_up(float f)
{
    union { float f; uint32_t u; } c = { f };
    if (f == 0.0f) { c.u = 0x00000001u; return c.f; }
    c.u = f > 0.0f ? c.u + 1u : c.u - 1u;
    return c.f;
}

static inline void minmax4(float a, float b, float c, float d, float *lo, float *hi)
{
    float l = a, h = a;
    l = b < l ? b : l; h = b > h ? b : h;
    l = c < l ? c : l; h = c > h ? c : h;
    l = d < l ? d : l; h = d > h ? d : h;
    *lo = l;
    *hi = h;
}

static inline float fmax_abs(const float r[2])
{
    float a = r[0] < 0.0f ? -r[0] : r[0], b = r[1] < 0.0f ? -r[1] : r[1];
    return a > b ? a : b;
}

/* Loops of 4 corners written out (GCC -O2 keeps them rolled, with their corner choices inside). */
#if defined(__clang__)
#define BND_UNROLL_ _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define BND_UNROLL_ _Pragma("GCC unroll 4")
#else
#define BND_UNROLL_
#endif

#if EMGPU_SOFT_SIMD && (defined(__GNUC__) || defined(__clang__))
#define BND_SIMD 1   /* lambda_bound2 */
#else
#define BND_SIMD 0
/* l = e + fx * dx + fy * dy over e in [elo, ehi], fx in {fx0, fx1}, fy in {fy0, fy1}. */
static bool lambda_bound(float elo, float ehi, float dx, float dy, const eg_soft_pxset_t *p, float out[2])
{
    float fx0 = (float)p->fx0, fx1 = (float)p->fx1, fy0 = (float)p->fy0, fy1 = (float)p->fy1;
    float a0 = elo + fx0 * dx + fy0 * dy, a1 = elo + fx1 * dx + fy0 * dy;
    float a2 = elo + fx0 * dx + fy1 * dy, a3 = elo + fx1 * dx + fy1 * dy;
    float b0 = ehi + fx0 * dx + fy0 * dy, b1 = ehi + fx1 * dx + fy0 * dy;
    float b2 = ehi + fx0 * dx + fy1 * dy, b3 = ehi + fx1 * dx + fy1 * dy;
    float l0, h0, l1, h1;
    minmax4(a0, a1, a2, a3, &l0, &h0);
    minmax4(b0, b1, b2, b3, &l1, &h1);
    out[0] = l0 < l1 ? l0 : l1;
    out[1] = h0 > h1 ? h0 : h1;
    return fin(out[0]) && fin(out[1]);
}
#endif

/* lambda_bound of both weights at once (helper "corner11", session 11): the lanes are l1 from
 * elo, from ehi, l2 from elo, from ehi; each lane takes lambda_bound's sums in its order and its
 * minmax4's selects in its order (b < l ? b : l as a bit select: NaN compares false and keeps l),
 * so the same four bounds. The two scalar calls were ~140 instructions a weights bound (~24 k of
 * them a run of the UI bench: the region proofs and the background's constant rows). */
#if BND_SIMD
typedef float bnd_vf_t __attribute__((vector_size(16)));
typedef int32_t bnd_vi_t __attribute__((vector_size(16)));

static inline bnd_vf_t bnd_sel(bnd_vi_t m, bnd_vf_t a, bnd_vf_t b)
{
    bnd_vi_t ia, ib, r;
    __builtin_memcpy(&ia, &a, 16);
    __builtin_memcpy(&ib, &b, 16);
    r = (ia & m) | (ib & ~m);
    bnd_vf_t o;
    __builtin_memcpy(&o, &r, 16);
    return o;
}

static bool lambda_bound2(const float e1[2], const float e2[2], float d1x, float d1y, float d2x, float d2y,
                          const eg_soft_pxset_t *p, float o1[2], float o2[2])
{
    float fx0 = (float)p->fx0, fx1 = (float)p->fx1, fy0 = (float)p->fy0, fy1 = (float)p->fy1;
    const bnd_vf_t e = { e1[0], e1[1], e2[0], e2[1] }, dx = { d1x, d1x, d2x, d2x }, dy = { d1y, d1y, d2y, d2y };
    const bnd_vf_t x0 = { fx0, fx0, fx0, fx0 }, x1 = { fx1, fx1, fx1, fx1 };
    const bnd_vf_t y0 = { fy0, fy0, fy0, fy0 }, y1 = { fy1, fy1, fy1, fy1 };
    bnd_vf_t a0 = e + x0 * dx + y0 * dy, a1 = e + x1 * dx + y0 * dy;
    bnd_vf_t a2 = e + x0 * dx + y1 * dy, a3 = e + x1 * dx + y1 * dy;
    bnd_vf_t l = a0, h = a0;
    l = bnd_sel(a1 < l, a1, l); h = bnd_sel(a1 > h, a1, h);
    l = bnd_sel(a2 < l, a2, l); h = bnd_sel(a2 > h, a2, h);
    l = bnd_sel(a3 < l, a3, l); h = bnd_sel(a3 > h, a3, h);
    o1[0] = l[0] < l[1] ? l[0] : l[1];
    o1[1] = h[0] > h[1] ? h[0] : h[1];
    if (!fin(o1[0]) || !fin(o1[1])) return false;
    o2[0] = l[2] < l[3] ? l[2] : l[3];
    o2[1] = h[2] > h[3] ? h[2] : h[3];
    return fin(o2[0]) && fin(o2[1]);
}
#endif

/* (float)E * inv over the block origins of p, E = A X + B Y + C at the block's first centre. */
static EG_ALWAYS_INLINE void edge_bound(const eg_soft_setup_t *s, uint32_t i, const eg_soft_pxset_t *p, float out[2])
{
    int64_t X0 = p->bx0 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, X1 = p->bx1 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    int64_t Y0 = p->by0 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y1 = p->by1 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    int64_t ax0 = s->A[i] * X0, ax1 = s->A[i] * X1, by0 = s->B[i] * Y0, by1 = s->B[i] * Y1;
    int64_t lo = (ax0 < ax1 ? ax0 : ax1) + (by0 < by1 ? by0 : by1) + s->C[i];
    int64_t hi = (ax0 < ax1 ? ax1 : ax0) + (by0 < by1 ? by1 : by0) + s->C[i];
    out[0] = (float)lo * s->inv_area2;   /* inv_area2 > 0: order kept */
    out[1] = (float)hi * s->inv_area2;
}

bool eg_soft_weights_bound(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, bool persp, eg_soft_wbound_t *o)
{
    const eg_soft_setup_t *s = &f->s;
    float e1[2], e2[2];
    edge_bound(s, 1, p, e1);
    edge_bound(s, 2, p, e2);
    float d1x = (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2, d1y = (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    float d2x = (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2, d2y = (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2;
#if BND_SIMD
    if (!lambda_bound2(e1, e2, d1x, d1y, d2x, d2y, p, o->l[0], o->l[1])) return false;
#else
    if (!lambda_bound(e1[0], e1[1], d1x, d1y, p, o->l[0]) || !lambda_bound(e2[0], e2[1], d2x, d2y, p, o->l[1]))
        return false;
#endif
    o->persp = false;
    if (!persp) return true;
    const float *iw = f->t->invw;
    if (!(iw[0] > 0.0f) || !(iw[1] > 0.0f) || !(iw[2] > 0.0f)) return false;
    /* l0 = 1 - l1 - l2 falls as either grows; q_i = l_i * iw_i rises with l_i (iw_i > 0) */
    float l0lo = 1.0f - o->l[0][1] - o->l[1][1], l0hi = 1.0f - o->l[0][0] - o->l[1][0];
    float q0lo = l0lo * iw[0], q0hi = l0hi * iw[0];
    float q1lo = o->l[0][0] * iw[1], q1hi = o->l[0][1] * iw[1];
    float q2lo = o->l[1][0] * iw[2], q2hi = o->l[1][1] * iw[2];
    float wlo = q0lo + q1lo + q2lo, whi = q0hi + q1hi + q2hi;
    if (iw[0] == iw[1] && iw[0] == iw[2]) {
        /* Affine triangle (iw_i = c): the sum above loses that l0 + l1 + l2 is 1 up to rounding,
         * and w = c (l0 + l1 + l2) then spans [~0, ~2c] across a wide row. Error analysis of
         * the same operations instead (unit roundoff u = 2^-24, L_i bounds on |l_i|): l0 is
         * 1 - l1 - l2 within 2.01 u (1 + L1 + L2); the three products and two sums add at most
         * 3.01 u c (|l0| + L1 + L2) <= 6.1 u c (1 + L1 + L2); so |w - c| <= 9 u c (1 + L1 + L2),
         * plus 2^-149 per operation where a result may be subnormal. 10 instead of 9 covers the
         * rounding of this very bound (four float operations: < 2^-21 of it); both intervals hold,
         * so their intersection does. (16 until session 9: the wider margin crossed 1.0 in the
         * UI bench's coverage, rrect9.) */
        float c = iw[0], L1 = fmax_abs(o->l[0]), L2 = fmax_abs(o->l[1]);
        float d = 10.0f * 5.9604645e-8f * c * (1.0f + L1 + L2) + 1e-37f;
        float elo = c - d, ehi = c + d;
        wlo = elo > wlo ? elo : wlo;
        whi = ehi < whi ? ehi : whi;
    }
    if (!(wlo > 0.0f) || !fin(whi)) return false;
    float rlo = 1.0f / whi, rhi = 1.0f / wlo;   /* 1 / w falls as w grows (w > 0) */
    if (!fin(rhi)) return false;
    minmax4(q1lo * rlo, q1lo * rhi, q1hi * rlo, q1hi * rhi, &o->p[0][0], &o->p[0][1]);
    minmax4(q2lo * rlo, q2lo * rhi, q2hi * rlo, q2hi * rhi, &o->p[1][0], &o->p[1][1]);
    o->persp = true;
    return fin(o->p[0][0]) && fin(o->p[0][1]) && fin(o->p[1][0]) && fin(o->p[1][1]);
}

bool eg_soft_vary_bound(const eg_soft_wbound_t *wb, uint32_t interp, float a0, float d1, float d2, eg_soft_range_t *o)
{
    union { float f; uint32_t u; } c = { a0 };
    if (!fin(a0)) return false;
    if (interp != EG_SOFT_INTERP_FLAT && interp != EG_SOFT_INTERP_LINEAR && !wb->persp) return false;
    if (interp == EG_SOFT_INTERP_FLAT || (d1 == 0.0f && d2 == 0.0f && (c.u & 0x7fffffffu) != 0u)) {
        /* flat, or equal at the vertices: finite weights times +-0 added to a nonzero a0 give a0
         * (soft_raster_shade.c interpolate sets those lanes to a0 directly) */
        *o = (eg_soft_range_t){ a0, a0, 1u };
        return true;
    }
    const float (*w)[2] = interp == EG_SOFT_INTERP_LINEAR ? wb->l : wb->p;
    float v0 = a0 + w[0][0] * d1 + w[1][0] * d2, v1 = a0 + w[0][1] * d1 + w[1][0] * d2;
    float v2 = a0 + w[0][0] * d1 + w[1][1] * d2, v3 = a0 + w[0][1] * d1 + w[1][1] * d2;
    minmax4(v0, v1, v2, v3, &o->lo, &o->hi);
    /* one value only when nonzero: +0 and -0 compare equal but differ in bits */
    o->cst = o->lo == o->hi && o->lo != 0.0f;
    return fin(o->lo) && fin(o->hi);
}

/* ---- a tighter bound from the exact affine value (helper "ui", session 5) ---- */

/* The corner bound above treats w1 and w2 as independent; when both d1 and d2 are nonzero (the
 * second triangle of a quad) their sum is what is nearly constant, and the corners overshoot by
 * the whole range of each weight. Here instead: the reference value V = a0 + d1 L1 + d2 L2, with
 * L_i = E_i inv_area2 (E_i the exact edge value at the pixel centre, the float inv_area2 taken as
 * exact), is affine in the pixel position, so its extremes over p are at the corner pixels
 * (computed in double: E_i < 2^53, so only the last products round, by 2^-53 relative). The float
 * chain of soft_raster_shade.c / soft_span.c differs from V by at most (u = 2^-24, M >= 1 a bound
 * on |L_i| and |1 - L1 - L2| over p, G on the per-pixel weight gradients):
 *   l_i: e = fl(fl(E) inv) (3.01 u |E inv|), fx dx, fy dy (3.01 u each), two sums:
 *        |l_i - L_i| <= u (5.01 M + 57.1 G) <= 6 u (M + 10 G) = eta_l
 *   perspective, equal 1/w = c (session 9, rrect9; was 32 M^2 u), with |l_i| <= M' = 1.01 M:
 *        t = 1 - l1 off by <= 2 M' u, l0 = t - l2 by <= 3.01 M' u, q0 = l0 c by <= 4.02 M' u c,
 *        q1, q2 by M' u c each, q0 + q1 adds 2.01 M' u c, + q2 adds 1.01 M' u c: |w - c| <=
 *        9.04 M' u c <= 9.2 M u c; r = 1 / w: |r c - 1| <= 1.011 (9.2 M u) + 1.01 u <= 10.4 M u
 *        (M u <= 6e-4 here); p_i = q_i r: |p_i - l_i| <= M' (u + 10.4 M u + 1.01 u) <= 13 M^2 u
 *   value: |v - V| <= eta (|d1| + |d2|) + u (2.01 |a0| + 3.1 Mw (|d1| + |d2|)), Mw = 1.01 M
 * The result is widened by half again for the rounding of this arithmetic. */
void eg_soft_affine_corners(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, eg_soft_affine_t *a)
{
    const eg_soft_setup_t *s = &f->s;
    double inv = (double)s->inv_area2, m = 1.0;
    BND_UNROLL_ for (uint32_t k = 0; k < 4u; k++) {   /* (unrolled: the corner choices fold; corner11) */
        int64_t x = (k & 1u) ? p->bx1 + p->fx1 : p->bx0 + p->fx0, y = (k & 2u) ? p->by1 + p->fy1 : p->by0 + p->fy0;
        int64_t X = x * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = y * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
        double L1 = (double)(s->A[1] * X + s->B[1] * Y + s->C[1]) * inv;
        double L2 = (double)(s->A[2] * X + s->B[2] * Y + s->C[2]) * inv;
        double L0 = 1.0 - L1 - L2;
        a->L1[k] = L1;
        a->L2[k] = L2;
        double u = L1 < 0 ? -L1 : L1, v = L2 < 0 ? -L2 : L2, w = L0 < 0 ? -L0 : L0;
        m = u > m ? u : m;
        m = v > m ? v : m;
        m = w > m ? w : m;
    }
    double g = 0.0, gr[4] = { (double)s->A[1], (double)s->B[1], (double)s->A[2], (double)s->B[2] };
    BND_UNROLL_ for (uint32_t k = 0; k < 4u; k++) {
        double v = gr[k] * EG_SOFT_SUBPIX * inv;
        v = v < 0 ? -v : v;
        g = v > g ? v : g;
    }
    a->m = m;
    a->g = g;
    a->state = m > 1e4 || g > 1e6 ? -1 : 1;
}

/* eg_soft_affine_err (static: inlined into affine_bound, the region proofs' hot call) */
static inline bool affine_err(const eg_soft_frag_t *f, const eg_soft_affine_t *ac, uint32_t interp, float a0, float d1,
                              float d2, double *err)
{
    const float *iw = f->t->invw;
    if (interp == EG_SOFT_INTERP_FLAT || ac->state < 0) return false;
    bool persp = interp != EG_SOFT_INTERP_LINEAR;
    if (persp && (iw[0] != iw[1] || iw[0] != iw[2] || !(iw[0] >= 0x1p-60f) || !(iw[0] <= 0x1p60f))) return false;
    if (!fin(a0) || !fin(d1) || !fin(d2)) return false;
    const double m = ac->m, g = ac->g, u = 5.9604644775390625e-8;
    double eta = 6.0 * u * (m + 10.0 * g);
    if (persp) eta += 13.0 * m * m * u;
    double D = (d1 < 0 ? -(double)d1 : (double)d1) + (d2 < 0 ? -(double)d2 : (double)d2);
    double A0 = a0 < 0 ? -(double)a0 : (double)a0;
    *err = 1.5 * (eta * D + u * (2.01 * A0 + 3.1 * 1.01 * m * D)) + 1e-12 * (A0 + m * D) + 1e-30;
    return true;
}

bool eg_soft_affine_err(const eg_soft_frag_t *f, const eg_soft_affine_t *ac, uint32_t interp, float a0, float d1, float d2,
                        double *err)
{
    return affine_err(f, ac, interp, a0, d1, d2, err);
}

/* eg_soft_vary_bound_affine from the corners' weights a (eg_soft_affine_corners of the same p). */
static bool affine_bound(const eg_soft_frag_t *f, const eg_soft_affine_t *ac, uint32_t interp, float a0, float d1, float d2,
                         eg_soft_range_t *o)
{
    double err;
    if (!affine_err(f, ac, interp, a0, d1, d2, &err)) return false;
    /* the 4 corners written out (the loop, with its first-corner test, was ~50 instructions) */
    const double A0d = (double)a0, D1 = (double)d1, D2 = (double)d2;
    double V1 = A0d + D1 * ac->L1[1] + D2 * ac->L2[1], V2 = A0d + D1 * ac->L1[2] + D2 * ac->L2[2];
    double V3 = A0d + D1 * ac->L1[3] + D2 * ac->L2[3], vlo = A0d + D1 * ac->L1[0] + D2 * ac->L2[0], vhi = vlo;
    vlo = V1 < vlo ? V1 : vlo; vhi = V1 > vhi ? V1 : vhi;
    vlo = V2 < vlo ? V2 : vlo; vhi = V2 > vhi ? V2 : vhi;
    vlo = V3 < vlo ? V3 : vlo; vhi = V3 > vhi ? V3 : vhi;
    float lo = (float)(vlo - err), hi = (float)(vhi + err);
    /* (float) rounds to nearest: step outwards by the rounding's possible half ulp */
    if ((double)lo > vlo - err) lo = nextafter_down(lo);
    if ((double)hi < vhi + err) hi = nextafter_up(hi);
    if (!fin(lo) || !fin(hi)) return false;
    o->lo = lo;
    o->hi = hi;
    o->cst = lo == hi && lo != 0.0f;
    return true;
}

bool eg_soft_vary_bound_affine_ac(const eg_soft_frag_t *f, const eg_soft_affine_t *ac, uint32_t interp, float a0, float d1,
                                  float d2, eg_soft_range_t *o)
{
    return affine_bound(f, ac, interp, a0, d1, d2, o);
}

bool eg_soft_vary_bound_affine(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, uint32_t interp, float a0, float d1,
                               float d2, eg_soft_range_t *o)
{
    eg_soft_affine_t ac;
    if (interp == EG_SOFT_INTERP_FLAT) return false;
    eg_soft_affine_corners(f, p, &ac);
    return affine_bound(f, &ac, interp, a0, d1, d2, o);
}

bool eg_soft_vary_bound_best_ac(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, const eg_soft_wbound_t *wb,
                                eg_soft_affine_t *ac, uint32_t interp, float a0, float d1, float d2, eg_soft_range_t *o)
{
    eg_soft_range_t b;
    bool corner = eg_soft_vary_bound(wb, interp, a0, d1, d2, o);
    if (corner && o->cst) return true;
    if (interp == EG_SOFT_INTERP_FLAT) return corner;
    if (ac->state == 0) eg_soft_affine_corners(f, p, ac);   /* once per pixel set, for every input */
    if (!affine_bound(f, ac, interp, a0, d1, d2, &b)) return corner;
    if (!corner) { *o = b; return true; }
    /* both hold: their intersection does */
    o->lo = b.lo > o->lo ? b.lo : o->lo;
    o->hi = b.hi < o->hi ? b.hi : o->hi;
    o->cst = o->lo == o->hi && o->lo != 0.0f;
    return o->lo <= o->hi;
}

bool eg_soft_vary_bound_best(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, const eg_soft_wbound_t *wb, uint32_t interp,
                             float a0, float d1, float d2, eg_soft_range_t *o)
{
    eg_soft_affine_t ac;
    ac.state = 0;
    return eg_soft_vary_bound_best_ac(f, p, wb, &ac, interp, a0, d1, d2, o);
}

#endif /* EMGPU_HAL_SOFT */
