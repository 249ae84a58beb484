/* hal/soft shifted texel copies: a copy-class triangle whose every pixel takes the texel at its
 * own coordinates plus two integer offsets (a 1:1 blit of an image or a sprite) moves each row
 * whole, after one proof per triangle.
 *
 * WHY. The copy class (soft_span.c: the fragment output is the nearest texel of a texture whose
 * format the target stores as is) computes every pixel's coordinates and texel index exactly as
 * the general path does, then moves runs of neighbouring texels: ~9 instructions a pixel on the
 * host's vector kernel (FZ_(copy)), ~200 on the Cortex-M7, whose per-chunk path converts each
 * pixel's coordinates through eg_soft_sample2d_offsets in lowered vectors and soft int64 -> float
 * helpers (`make bench-m7`, blit 15.4 M instructions a 320x240 frame). A full-screen background
 * or a sprite drawn at texel scale is the commonest image operation of an embedded UI.
 *
 * PROOF. For the coordinate u (texel columns, width n, against the pixel column x; v with rows
 * and y alike) every pixel P of the triangle's box computes u_P within err of the exact affine
 * value U(P) = a0 + d1 L1 + d2 L2 (eg_soft_affine_err: the analysis above
 * eg_soft_affine_corners, which is the float chain of interp_chunk, FZ_(tri) and FZ_(copy)). The
 * index is eg_soft_sample2d_offsets' nearest_clamp_index: x = fl(u n); where 0 <= x < n it is
 * floor(x) (the clamps to [-17, 2n + 16] and to n - 1 change nothing, x * 256 is exact and
 * truncates to floor). fl(u n) is within E = err n + (max |U| + err) n 2^-24 of U(P) n. H(P) =
 * U(P) n - x_P is affine in P, so over the box it lies between its values at the 4 corner pixels;
 * when those lie in [k + E + s, k + 1 - E - s] for one integer k (s: the double rounding of H at
 * the corners), every x of the box lies in [x_P + k, x_P + k + 1), so the index is x_P + k; and
 * where x_P + k is in [0, n - 1] at both ends of a row's covered columns (the edge walk's, not
 * the box's: its last column is often past a blit's texture edge, uncovered), and y + k in
 * range, no clamp applies to the row; the first row where that fails and the rows after it are
 * left to the caller's per-pixel copy (rows are independent: each pixel's bytes are its own). Then each
 * pixel's texel offset is (y + ky) pitch + (x + kx) el, the bytes FZ_(copy) and texel_copy move
 * (kind 3 swapping R and B as they do). The rows' covered ranges are the edge walk's, exactly.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_span_int.h"
#include "kernel/base/util.h"

bool eg_soft_span_shift_on = true;
uint32_t eg_soft_span_shift_px;

static inline double absd(double v) { return v < 0.0 ? -v : v; }

/* floor for |v| < 2^52 (the conversion truncates toward 0: one step down for negatives) */
static inline double floor_d(double v)
{
    double t = (double)(int64_t)v;
    return t > v ? t - 1.0 : t;
}

/* The offset k with index = pixel coordinate + k for every pixel of the box (see PROOF), from
 * the exact corner values V[4] of the coordinate (corner c at pixel coordinate a[c]), its error
 * bound err and the texture's size n along it; false when not shown. */
static bool shift_of(const double V[4], const int64_t a[4], double err, int32_t n, int64_t *k)
{
    const double N = (double)n;
    double vmax = 0.0, amax = 0.0, H[4];
    for (uint32_t c = 0; c < 4u; c++) {
        vmax = absd(V[c]) > vmax ? absd(V[c]) : vmax;
        amax = absd((double)a[c]) > amax ? absd((double)a[c]) : amax;
        H[c] = V[c] * N - (double)a[c];
        if (!(absd(H[c]) < 0x1p50)) return false;   /* (NaN fails too) */
    }
    if (!(vmax < 0x1p40) || !(err < 1.0)) return false;
    const double E = err * N + (vmax + err) * N * 0x1p-24 + 1e-30;
    const double s = (vmax * N + amax + 1.0) * 0x1p-50;
    const double lo = floor_d(H[0]);
    for (uint32_t c = 0; c < 4u; c++)
        if (!(H[c] >= lo + E + s && H[c] <= lo + 1.0 - E - s)) return false;
    *k = (int64_t)lo;
    return true;
}

int64_t eg_soft_span_shift(eg_soft_frag_t *f, const eg_soft_span_pipe_t *sp, const span_tri_t *k, const eg_soft_sample2d_t *s2,
                           uint32_t kind, int64_t px0, int64_t px1, int64_t py0, int64_t py1)
{
    if (!eg_soft_span_shift_on || px0 >= px1 || py0 >= py1) return py0;
    const uint32_t ju = sp->val_of_slot[sp->cls.uv[0]], jv = sp->val_of_slot[sp->cls.uv[1]];
    const eg_soft_pxset_t p = span_box_corners(px0, px1, py0, py1);
    eg_soft_affine_t ac;
    eg_soft_affine_corners(f, &p, &ac);
    double eu, ev;
    if (!eg_soft_affine_err(f, &ac, sp->interp[ju], k->a0[ju], k->dv1[ju], k->dv2[ju], &eu) ||
        !eg_soft_affine_err(f, &ac, sp->interp[jv], k->a0[jv], k->dv1[jv], k->dv2[jv], &ev))
        return py0;
    /* the corners in eg_soft_affine_corners' order: bit 0 the last column, bit 1 the last row */
    double U[4], V[4];
    int64_t X[4], Y[4];
    for (uint32_t c = 0; c < 4u; c++) {
        U[c] = (double)k->a0[ju] + (double)k->dv1[ju] * ac.L1[c] + (double)k->dv2[ju] * ac.L2[c];
        V[c] = (double)k->a0[jv] + (double)k->dv1[jv] * ac.L1[c] + (double)k->dv2[jv] * ac.L2[c];
        X[c] = (c & 1u) ? px1 - 1 : px0;
        Y[c] = (c & 2u) ? py1 - 1 : py0;
    }
    const eg_soft_subres_t *t = &s2->s;
    int64_t kx, ky;
    if (!shift_of(U, X, eu, (int32_t)t->width_el, &kx) || !shift_of(V, Y, ev, (int32_t)t->height_el, &ky)) return py0;
    const eg_soft_target_t *tg = &f->ps->fb->color[0];
    const size_t el = kind == 2u ? 2u : 4u;
    edge_walk_t ew[3];
    edges_init(&f->s, py0 * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, ew);
    uint32_t filled = 0;
    int64_t y = py0;
    for (; y < py1; y++, edges_step(ew)) {
        int64_t x0 = px0, x1 = px1;
        edges_range(ew, &x0, &x1);
        if (x0 >= x1) continue;
        /* the covered pixels' indices within the texture (no clamp), row by row: the box's
         * last column and row are often past a blit's texture edge, uncovered */
        if (x0 + kx < 0 || x1 - 1 + kx > (int64_t)t->width_el - 1 || y + ky < 0 || y + ky > (int64_t)t->height_el - 1)
            break;   /* this row and the rest: the caller's per-pixel copy */
        uint8_t *d = tg->base + (size_t)y * tg->row_pitch_B + (size_t)x0 * el;
        const uint8_t *s = t->base + (size_t)(y + ky) * t->row_pitch_B + (size_t)(x0 + kx) * el;
        size_t n = (size_t)(x1 - x0) * el;
        if (kind == 3u) {
            for (size_t i = 0; i < n; i += 4) { d[i] = s[i + 2]; d[i + 1] = s[i + 1]; d[i + 2] = s[i]; d[i + 3] = s[i + 3]; }
        } else {
            eg_memcpy(d, s, n);
        }
        filled += (uint32_t)(x1 - x0);
    }
    f->w->span_px += filled;
    f->w->span_copy_px += filled;
    if (f->w == &eg_soft_worker_main) eg_soft_span_shift_px += filled;
    return y;
}

#endif /* EMGPU_HAL_SOFT */
