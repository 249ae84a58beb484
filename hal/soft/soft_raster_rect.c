/* hal/soft quad pairs drawn as one rectangle (helper "rectpair", session 12).
 *
 * WHY. The UI bench's rounded rectangles (scene 2: 50 quads of 120x80 px, an SDF fragment
 * program) were two unrelated triangles: each walked its own box (the whole rectangle) in 16 px
 * regions, so the diagonal's regions were proved and filled twice, half of each box was rejected
 * region by region, and a rectangle took ~100 proofs and ~75 fills whatever its size (~266 k
 * instructions a rectangle, 1.02 ms of the 2.34 ms frame). Here the two halves of one
 * axis-aligned rectangle are recognised from their edge set-ups and the rectangle is proved and
 * filled in a few big pieces (soft_raster.c raster_rect_pair walks them).
 *
 * This file: the pairing condition, the rectangle's recognition (eg_soft_rect_of_pair, with
 * its proof), the pieces and the proof of a pixel rectangle of any alignment.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"

bool eg_soft_rect_pair_on = true;
bool eg_soft_rect_pair_again = false;

/* The conditions of raster_set_up's region walk that do not depend on the triangle (the const
 * path, no depth / stencil test), a pipeline the span path does not take (it pairs on its own,
 * eg_soft_span_pairs) and the test switch. */
bool eg_soft_rect_pairs(const struct eg_soft_raster_pipeline *rs)
{
    return eg_soft_rect_pair_on && eg_soft_raster_fast_paths && rs->fs_const && !rs->span && !rs->native_fs &&
           !rs->depth_test && !rs->stencil_test;
}

static inline int64_t floor_div(int64_t n, int64_t d)   /* d > 0 */
{
    int64_t q = n / d;
    return (n % d != 0 && n < 0) ? q - 1 : q;
}

/* The edge's raw C (before setup_edges's top-left adjustment). */
static inline int64_t raw_c(const eg_soft_setup_t *s, uint32_t i)
{
    bool top_left = s->A[i] > 0 || (s->A[i] == 0 && s->B[i] > 0);
    return s->C[i] + (top_left ? 0 : 1);
}

/* The triangle's edges other than `shared`: one vertical (B = 0), one horizontal (A = 0); their
 * lines x = *X, y = *Y (subpixels; exact: such an edge's C is -A x or -B y of its vertices). */
static bool axis_edges(const eg_soft_setup_t *s, uint32_t shared, uint32_t *v, uint32_t *h, int64_t *X, int64_t *Y)
{
    uint32_t a = shared == 0u ? 1u : 0u, b = shared == 2u ? 1u : 2u;
    if (s->B[a] != 0) { uint32_t t = a; a = b; b = t; }
    if (s->B[a] != 0 || s->A[a] == 0 || s->A[b] != 0 || s->B[b] == 0) return false;
    int64_t ca = raw_c(s, a), cb = raw_c(s, b);
    if (ca % s->A[a] != 0 || cb % s->B[b] != 0) return false;   /* (cannot happen: lines through vertices) */
    *v = a;
    *h = b;
    *X = -ca / s->A[a];
    *Y = -cb / s->B[b];
    return true;
}

/* Whether the triangles s[0], s[1] (set up by setup_edges, one sample at the pixel centre) cover
 * exactly the pixels [r[0], r[1]) x [r[2], r[3]), each of them once; false: not shown (the pair
 * is then drawn as two triangles).
 *
 * Proof. (1) A shared edge: s0's edge i and s1's edge j with A, B negated (both nonzero: a
 * diagonal) and C0 + C1 = -1. Before the top-left adjustment the raw C's are negated too (of two
 * opposite orientations of one line exactly one is top-left, so exactly one C was lowered by 1),
 * so the edge values sum to -1 at every sample: a sample passes exactly one of the two. (2)
 * Each triangle's two other edges are one vertical (x = X_t) and one horizontal (y = Y_t) line,
 * so its vertices are the intersections of its three lines: (X_t, Y_t) and the shared line's
 * points at x = X_t and at y = Y_t. The shared line passes through (X_0, Y_1) and (X_1, Y_0)
 * (checked exactly), so the vertices are (X_0, Y_0), (X_0, Y_1), (X_1, Y_0) and (X_1, Y_1),
 * (X_1, Y_0), (X_0, Y_1): the two halves of the rectangle with corners X_0, X_1, Y_0, Y_1 cut
 * along a diagonal (nonzero areas: X_0 != X_1, Y_0 != Y_1). (3) Let R be the samples passing the
 * four axis edges (adjusted C's: by the top-left rule the rectangle's left and top sides pass,
 * its right and bottom sides fail). A sample strictly inside the closed rectangle passes the
 * four with raw value > 0, so it is in R, and it is in the triangle on its side of the shared
 * edge (1) and in no other. Strictly outside, it fails an axis edge (not in R) and lies outside
 * both closed triangles (a covered sample lies in its closed triangle: adjusted >= 0 gives raw
 * >= 0). On a side's open segment, it lies in the closed triangle owning that side only (the
 * other one meets the side's line at a corner) and strictly inside that triangle's other two
 * lines (they meet the side's line at corners), so it is covered iff the side's edge passes it,
 * which is R's test. At the top left corner (in R) both sides pass: with the diagonal ending
 * there, each triangle holds one side and the diagonal, which passes for exactly one (1); else
 * its one triangle holds it strictly inside the diagonal. At another corner (not in R) each
 * triangle holding it has the right or the bottom side among its edges there (both fail), but
 * for the upper left half of a diagonal from the bottom left to the top right corner, which holds
 * those two corners on that diagonal and on its left or top side: the diagonal fails for it (its
 * inside lies towards -x: not a left edge, and not horizontal). So R is exactly the covered set,
 * each sample covered once. R's columns and rows follow from the vertical and horizontal edges
 * alone. *shared: s[0]'s shared edge (a covered sample passing it is the first triangle's). */
bool eg_soft_rect_of_pair(const eg_soft_setup_t s[2], int64_t r[4], uint32_t *shared)
{
    uint32_t si = 3u, sj = 3u;
    for (uint32_t i = 0; i < 3u && si == 3u; i++)
        for (uint32_t j = 0; j < 3u; j++)
            if (s[0].A[i] == -s[1].A[j] && s[0].B[i] == -s[1].B[j] && s[0].C[i] + s[1].C[j] == -1 && s[0].A[i] != 0 &&
                s[0].B[i] != 0) {
                si = i;
                sj = j;
                break;
            }
    if (si == 3u) return false;
    uint32_t v[2], h[2];
    int64_t X[2], Y[2];
    if (!axis_edges(&s[0], si, &v[0], &h[0], &X[0], &Y[0]) || !axis_edges(&s[1], sj, &v[1], &h[1], &X[1], &Y[1]))
        return false;
    if (X[0] == X[1] || Y[0] == Y[1]) return false;
    const int64_t A = s[0].A[si], B = s[0].B[si], C = raw_c(&s[0], si);
    if (A * X[0] + B * Y[1] + C != 0 || A * X[1] + B * Y[0] + C != 0) return false;
    /* columns: A (256 x + 128) + C >= 0 of the two vertical edges (row_span's solution) */
    r[0] = INT64_MIN / 4; r[1] = INT64_MAX / 4; r[2] = INT64_MIN / 4; r[3] = INT64_MAX / 4;
    for (uint32_t t = 0; t < 2u; t++) {
        int64_t a = s[t].A[v[t]] * EG_SOFT_SUBPIX, k = s[t].C[v[t]] + s[t].A[v[t]] * (EG_SOFT_SUBPIX / 2);
        if (a > 0) r[0] = -floor_div(k, a);
        else r[1] = floor_div(k, -a) + 1;
        int64_t b = s[t].B[h[t]] * EG_SOFT_SUBPIX, m = s[t].C[h[t]] + s[t].B[h[t]] * (EG_SOFT_SUBPIX / 2);
        if (b > 0) r[2] = -floor_div(m, b);
        else r[3] = floor_div(m, -b) + 1;
    }
    *shared = si;
    /* (one left and one right side: the edges face the interior, which lies between them) */
    return r[0] > INT64_MIN / 4 && r[1] < INT64_MAX / 4 && r[2] > INT64_MIN / 4 && r[3] < INT64_MAX / 4;
}

/* Cuts c[0] = a < c[1] < ... < c[n] = b of [a, b) (a < b) into pieces whose pixel sets
 * eg_soft_pxset_t holds exactly (within one block, or whole blocks), with the first (last) block
 * column apart where a (b) is the rectangle's side ra (rb): a shape drawn on the quad has its
 * edge there (the bench's rounded rectangles: alpha 1.0 at the first pixel inside, which a proof
 * bounds as a narrow range), so only that column's proof ends in a range and the pieces inside
 * are one value (a range fill sends the pixels its ends leave open to the program: row 2 had
 * ~10 k such blocks over the background with ranges over whole rows). Returns n (1 to 3). */
static uint32_t exact_cuts(int64_t a, int64_t b, int64_t ra, int64_t rb, int64_t c[4])
{
    const int64_t first = a == ra ? (a + 4) & ~(int64_t)3 : (a + 3) & ~(int64_t)3;
    const int64_t last = b == rb ? (b - 1) & ~(int64_t)3 : b & ~(int64_t)3;
    uint32_t n = 0;
    c[n++] = a;
    if (first > a && first < b) c[n++] = first;
    if (last > c[n - 1u] && last < b) c[n++] = last;
    c[n] = b;
    return n;
}

uint32_t eg_soft_rect_cuts(const int64_t q[4], const int64_t R[4], int64_t cx[4], int64_t cy[4], uint32_t *ny)
{
    *ny = exact_cuts(q[2], q[3], R[2], R[3], cy);
    return exact_cuts(q[0], q[1], R[0], R[1], cx);
}

/* The pixel set of [x0, x1) x [y0, y1), one of exact_cuts' pieces in each direction. */
static void pxset_of(int64_t x0, int64_t x1, int64_t y0, int64_t y1, eg_soft_pxset_t *p)
{
    p->bx0 = x0 & ~(int64_t)3;
    p->bx1 = (x1 - 1) & ~(int64_t)3;
    p->by0 = y0 & ~(int64_t)3;
    p->by1 = (y1 - 1) & ~(int64_t)3;
    p->fx0 = (uint32_t)(x0 & 3);
    p->fx1 = (uint32_t)((x1 - 1) & 3);
    p->fy0 = (uint32_t)(y0 & 3);
    p->fy1 = (uint32_t)((y1 - 1) & 3);
}

static inline float bits_f(uint32_t u) { union { uint32_t u; float f; } c = { u }; return c.f; }

void eg_soft_rect_union(uint32_t lo[4], uint32_t hi[4], const uint32_t lo2[4], const uint32_t hi2[4])
{
    for (uint32_t c = 0; c < 4u; c++) {
        /* (+0 and -0 compare equal: -0 as the lower end, +0 as the upper, so that a range of
         * both is one of two bit patterns, which the range fill then tells apart) */
        float a = bits_f(lo2[c]), b = bits_f(lo[c]);
        if (lo2[c] != lo[c] && (a < b || (a == b && (lo2[c] >> 31)))) lo[c] = lo2[c];
        a = bits_f(hi2[c]); b = bits_f(hi[c]);
        if (hi2[c] != hi[c] && (a > b || (a == b && (hi[c] >> 31)))) hi[c] = hi2[c];
    }
}

/* The edge at the four corner pixels' centres: its value at the first plus the steps to the
 * last column and row, the same integers as the four products; all pass iff the least does,
 * none iff the greatest fails (~96 instructions a call as four products, ~8.5 k calls on row
 * 2's rectangles). */
uint32_t eg_soft_rect_side(const int64_t e[3], const int64_t q[4])
{
    const int64_t e0 = e[0] * (q[0] * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2) + e[1] * (q[2] * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2) + e[2];
    const int64_t dx = e[0] * ((q[1] - 1 - q[0]) * EG_SOFT_SUBPIX), dy = e[1] * ((q[3] - 1 - q[2]) * EG_SOFT_SUBPIX);
    const int64_t lo = e0 + (dx < 0 ? dx : 0) + (dy < 0 ? dy : 0), hi = e0 + (dx > 0 ? dx : 0) + (dy > 0 ? dy : 0);
    return lo >= 0 ? 1u : hi < 0 ? 2u : 0u;
}

/* A proof over every pixel of q that triangle tri covers (the proof bounds a pixel set as a
 * whole: a block's float chain from its origin plus the in-block offsets, so a set must be whole
 * blocks or lie in one block column / row; q is cut into at most 3 x 3 such sets,
 * eg_soft_rect_cuts, each proved unless none of its pixels is tri's: bit i of *skip): true when
 * all hold, lo[i], hi[i] the range of set i (row by row; lo == hi: one value). */
bool eg_soft_rect_prove(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_rect_pair_t *rp, uint32_t tri,
                        bool probe, const int64_t q[4], uint32_t lo[9][4], uint32_t hi[9][4], uint32_t *skip)
{
    /* The probe first (where asked), at the corners of q's top left quarter: a shape drawn on
     * its quad (the bench's rounded rectangles) is symmetric, so q's own corners agree where its
     * corner and the middles of its sides do not (the rectangle, its top and bottom rows, its
     * corners: ~2 proofs of ~1.7 k instructions each before one failed, a probe ~0.6 k). The
     * second triangle proving pieces the first proved skips it. */
    const int64_t xm = (q[0] + q[1] - 1) / 2, ym = (q[2] + q[3] - 1) / 2;
    eg_soft_pxset_t pq;
    pxset_of(q[0], xm + 1, q[2], ym + 1, &pq);
    if (probe && eg_soft_const_probe_tri(f, ct, &pq)) return false;
    int64_t cx[4], cy[4];
    uint32_t ny, nx = eg_soft_rect_cuts(q, rp->R, cx, cy, &ny);
    *skip = 0;
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i < nx; i++) {
            const int64_t sq[4] = { cx[i], cx[i + 1], cy[j], cy[j + 1] };
            uint32_t k = j * nx + i;
            if (eg_soft_rect_side(rp->e, sq) == 2u - tri) {   /* (none of tri's pixels) */
                *skip |= 1u << k;
                continue;
            }
            eg_soft_pxset_t p;
            pxset_of(sq[0], sq[1], sq[2], sq[3], &p);
            if (!eg_soft_const_pxset_tri(f, ct, &p, lo[k], hi[k])) return false;
        }
    return true;
}

/* The cuts of [a, b) into sides and middle: a side of at least m px, the cuts on block borders
 * (the middle's proofs then take whole blocks); 1 piece when the middle would be empty. */
uint32_t eg_soft_rect_thirds(int64_t a, int64_t b, int64_t m, int64_t c[4])
{
    int64_t lo = (a + m + 3) & ~(int64_t)3, hi = (b - m) & ~(int64_t)3;
    if (hi - lo < 4) {
        c[0] = a;
        c[1] = b;
        return 1;
    }
    c[0] = a;
    c[1] = lo;
    c[2] = hi;
    c[3] = b;
    return 3;
}

#endif /* EMGPU_HAL_SOFT */
