/* hal/soft triangle rasterizer: fixed-point setup, 4x4 block walk, per-block fragment pipeline.
 *
 * Edge functions (Pineda): for the edge a -> b, E(p) = (b.x - a.x)(p.y - a.y) - (b.y - a.y)(p.x - a.x)
 * in window coordinates snapped to 1/256 px, evaluated exactly in 64-bit integers, so coverage
 * is the same bytes on every CPU. Edges are oriented so the interior is E > 0; a sample exactly
 * on an edge belongs to the triangle only for top or left edges (Direct3D / Vulkan top-left
 * rule, y down): left = interior to the right (dE/dx > 0), top = horizontal with the interior
 * below. Non-top-left edges get E - 1, so ">= 0" is the whole test.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"

/* Standard sample positions in 1/256 px (Vulkan "standard sample locations"): 1x = centre;
 * 4x = (0.375, 0.125), (0.875, 0.375), (0.125, 0.625), (0.625, 0.875). */
static const int32_t sample_x1[1] = { 128 }, sample_y1[1] = { 128 };
static const int32_t sample_x4[4] = { 96, 224, 32, 160 }, sample_y4[4] = { 32, 96, 160, 224 };

int32_t eg_soft_snap(float v)
{
    float f = v * (float)EG_SOFT_SUBPIX;
    int32_t t = (int32_t)f;            /* toward zero; |f| < 2^24 after the guard band, exact */
    float frac = f - (float)t;
    if (frac >= 0.5f) t++;
    else if (frac <= -0.5f) t--;
    return t;
}

typedef struct setup {
    int64_t A[3], B[3], C[3];          /* E_i(X, Y) = A X + B Y + C, covered when >= 0 */
    float inv_area2;                   /* 1 / E_i(V_i) (twice the area, subpixel units) */
    bool front;
} setup_t;

/* Edge i is opposite vertex i (from V[i+1] to V[i+2]). Returns false for zero area. */
static bool setup_edges(const int32_t x[3], const int32_t y[3], setup_t *s)
{
    for (uint32_t i = 0; i < 3; i++) {
        uint32_t a = (i + 1u) % 3u, b = (i + 2u) % 3u;
        s->A[i] = (int64_t)y[a] - y[b];
        s->B[i] = (int64_t)x[b] - x[a];
        s->C[i] = -(s->A[i] * x[a] + s->B[i] * y[a]);
    }
    int64_t area2 = s->A[0] * x[0] + s->B[0] * y[0] + s->C[0];
    if (area2 == 0) return false;
    /* In y-down window coordinates a counter-clockwise triangle (as seen in y-up NDC) has a
     * negative area2 here. */
    s->front = area2 < 0;
    if (area2 < 0) {
        for (uint32_t i = 0; i < 3; i++) { s->A[i] = -s->A[i]; s->B[i] = -s->B[i]; s->C[i] = -s->C[i]; }
        area2 = -area2;
    }
    for (uint32_t i = 0; i < 3; i++) {
        bool top_left = s->A[i] > 0 || (s->A[i] == 0 && s->B[i] > 0);
        if (!top_left) s->C[i] -= 1;
    }
    s->inv_area2 = 1.0f / (float)area2;
    return true;
}

bool eg_soft_covers(const int32_t x[3], const int32_t y[3], int32_t px, int32_t py)
{
    setup_t s;
    if (!setup_edges(x, y, &s)) return false;
    int64_t X = (int64_t)px * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = (int64_t)py * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    for (uint32_t i = 0; i < 3; i++)
        if (s.A[i] * X + s.B[i] * Y + s.C[i] < 0) return false;
    return true;
}

/* ---- per-draw working memory (one thread) ---- */

typedef struct frag_ctx {
    const eg_soft_pass_state_t *ps;
    const struct eg_soft_raster_pipeline *rs;
    const eg_soft_tri_t *t;
    setup_t s;
    float z[3], dzdx, dzdy, bias;
    const int32_t *sx, *sy;
    uint32_t samples;
} frag_ctx_t;

/* Shader I/O of one block, shared by vertex batches and fragment blocks (never live at once). */
eg_soft_vec4_t eg_soft_io_in[EG_SOFT_MAX_LOCATIONS], eg_soft_io_out[EG_SOFT_MAX_LOCATIONS];
#define fs_in eg_soft_io_in
#define fs_out eg_soft_io_out

static inline eg_soft_mask_t quad_expand(eg_soft_mask_t m)
{
    eg_soft_mask_t out = 0;
    for (uint32_t b = 0; b < 16u; b += (b & 2u) ? 6u : 2u)   /* quad bases 0, 2, 8, 10 */
        if (m & (0x33u << b)) out |= 0x33u << b;
    return out;
}

/* ---- depth / stencil on one block ---- */

/* Lanes where a[l] <compare> b[l]: the switch runs once per block, the loops are branch-free. */
static eg_soft_mask_t compare_mask(uint32_t compare, const float *a, const float *b)
{
    eg_soft_mask_t m = 0;
    uint32_t l;
    switch (compare) {
    case WGPUCompareFunction_Never:        return 0;
    case WGPUCompareFunction_Less:         for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] < b[l]) << l; break;
    case WGPUCompareFunction_Equal:        for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] == b[l]) << l; break;
    case WGPUCompareFunction_LessEqual:    for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] <= b[l]) << l; break;
    case WGPUCompareFunction_Greater:      for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] > b[l]) << l; break;
    case WGPUCompareFunction_NotEqual:     for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] != b[l]) << l; break;
    case WGPUCompareFunction_GreaterEqual: for (l = 0; l < EG_SOFT_LANES; l++) m |= (eg_soft_mask_t)(a[l] >= b[l]) << l; break;
    default:                               return EG_SOFT_ALL_LANES;
    }
    return m;
}

/* Depth without stencil, the common case: per sample, gather, one compare_mask, scatter. */
static void depth_only(const frag_ctx_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
                       eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_target_t *d = &f->ps->fb->depth;
    bool dw = rs->depth_write && !f->ps->fb->depth_read_only;
    bool d16 = d->block_B == 2u;
    float lo = f->ps->vp_min_z, hi = f->ps->vp_max_z;
    uint8_t *blk = d->base + (size_t)by * d->row_pitch_B + (size_t)bx * d->elem_B;
    for (uint32_t s = 0; s < f->samples; s++) {
        if (!cov[s]) continue;
        float off = f->dzdx * (float)(f->sx[s] - 128) * (1.0f / 256.0f) + f->dzdy * (float)(f->sy[s] - 128) * (1.0f / 256.0f);
        float z[EG_SOFT_LANES], st[EG_SOFT_LANES];
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            float v = zc[l] + off;
            v = v < lo ? lo : v > hi ? hi : v;   /* NaN stays NaN and fails every compare */
            if (d16) v = (float)(uint32_t)((v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f) * 65535.0f + 0.5f);
            z[l] = v;
            st[l] = 0.0f;
        }
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            if (!(cov[s] >> l & 1u)) continue;
            const uint8_t *p = blk + (size_t)(l >> 2) * d->row_pitch_B + (size_t)(l & 3u) * d->elem_B + (size_t)s * d->block_B;
            if (d16) st[l] = (float)((uint32_t)p[0] | (uint32_t)p[1] << 8);
            else eg_memcpy(&st[l], p, 4);
        }
        cov[s] &= compare_mask(rs->depth_compare, z, st);
        if (!dw) continue;
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            if (!(cov[s] >> l & 1u)) continue;
            uint8_t *p = blk + (size_t)(l >> 2) * d->row_pitch_B + (size_t)(l & 3u) * d->elem_B + (size_t)s * d->block_B;
            if (d16) { uint32_t q = (uint32_t)z[l]; p[0] = (uint8_t)q; p[1] = (uint8_t)(q >> 8); }
            else eg_memcpy(p, &z[l], 4);
        }
    }
}

static void ds_test(const frag_ctx_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
                    eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    if (!rs->depth_test && !rs->stencil_test) return;
    if (!rs->stencil_test) {
        if (fb->depth.base) depth_only(f, bx, by, zc, cov);
        return;
    }
    const eg_soft_stencil_face_t *face = &rs->stencil[f->t->is_polygon && !f->s.front ? 1 : 0];
    uint8_t ref = (uint8_t)f->ps->stencil_ref, rm = rs->stencil_read_mask, wm = rs->stencil_write_mask;
    bool sw = rs->stencil_test && !fb->stencil_read_only && fb->stencil.base;
    bool dw = rs->depth_write && !fb->depth_read_only && fb->depth.base;
    bool d16 = fb->depth.block_B == 2u;
    for (uint32_t s = 0; s < f->samples; s++) {
        float off = f->dzdx * (float)(f->sx[s] - 128) * (1.0f / 256.0f) + f->dzdy * (float)(f->sy[s] - 128) * (1.0f / 256.0f);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            if (!(cov[s] >> l & 1u)) continue;
            uint32_t x = bx + (l & 3u), y = by + (l >> 2);
            uint8_t *sp = NULL, sv = 0, nsv;
            if (rs->stencil_test && fb->stencil.base) {
                sp = fb->stencil.base + (size_t)y * fb->stencil.row_pitch_B + (size_t)x * fb->stencil.elem_B + s;
                sv = *sp;
            }
            bool pass = !rs->stencil_test || eg_soft_compare(face->compare, (float)(ref & rm), (float)(sv & rm));
            if (!pass) {
                nsv = eg_soft_stencil_op(face->fail, sv, ref);
            } else if (rs->depth_test && fb->depth.base) {
                uint8_t *dp = fb->depth.base + (size_t)y * fb->depth.row_pitch_B + (size_t)x * fb->depth.elem_B +
                              (size_t)s * fb->depth.block_B;
                float z = zc[l] + off;
                float lo = f->ps->vp_min_z, hi = f->ps->vp_max_z;
                z = z < lo ? lo : z > hi ? hi : z;   /* NaN stays NaN and fails every compare */
                float stored;
                uint32_t q = 0;
                if (d16) {
                    q = (uint32_t)((z > 0.0f ? (z < 1.0f ? z : 1.0f) : 0.0f) * 65535.0f + 0.5f);
                    z = (float)q;
                    stored = (float)((uint32_t)dp[0] | (uint32_t)dp[1] << 8);
                } else {
                    eg_memcpy(&stored, dp, 4);
                }
                pass = eg_soft_compare(rs->depth_compare, z, stored);
                if (pass && dw) {
                    if (d16) { dp[0] = (uint8_t)q; dp[1] = (uint8_t)(q >> 8); }
                    else eg_memcpy(dp, &z, 4);
                }
                nsv = eg_soft_stencil_op(pass ? face->pass : face->depth_fail, sv, ref);
            } else {
                nsv = eg_soft_stencil_op(face->pass, sv, ref);
            }
            if (sp && sw) *sp = (uint8_t)((sv & ~wm) | (nsv & wm));
            if (!pass) cov[s] &= ~(1u << l);
        }
    }
}

/* ---- interpolation ---- */

/* Barycentrics at the pixel centres of the block: l[i][lane] screen-linear, p[i][lane]
 * perspective-corrected weights of vertices 1 and 2; w1[lane] = interpolated 1/w
 * (FragCoord.w). Attributes are a0 + w1 (a1 - a0) + w2 (a2 - a0), so a constant attribute
 * interpolates to exactly itself. */
typedef struct bary {
    float l[2][EG_SOFT_LANES], p[2][EG_SOFT_LANES], w1[EG_SOFT_LANES];
} bary_t;

/* Lane offsets inside a 4x4 block, as floats (x = lane & 3, y = lane >> 2). */
static const float lane_fx[EG_SOFT_LANES] = { 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 };
static const float lane_fy[EG_SOFT_LANES] = { 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3 };

/* All 16 lanes, branch-free so the compiler vectorises it: the block origin's barycentrics
 * come exactly from the 64-bit edge values, lanes step from there by the per-pixel gradients
 * (the same float operations in the same order on every CPU). */
static void barycentrics(const frag_ctx_t *f, uint32_t bx, uint32_t by, bary_t *b)
{
    const setup_t *s = &f->s;
    int64_t X = (int64_t)bx * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = (int64_t)by * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    float e1 = (float)(s->A[1] * X + s->B[1] * Y + s->C[1]) * s->inv_area2;
    float e2 = (float)(s->A[2] * X + s->B[2] * Y + s->C[2]) * s->inv_area2;
    float d1x = (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2, d1y = (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2;
    float d2x = (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2, d2y = (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2;
    float iw0 = f->t->invw[0], iw1 = f->t->invw[1], iw2 = f->t->invw[2];
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        float l1 = e1 + lane_fx[l] * d1x + lane_fy[l] * d1y;
        float l2 = e2 + lane_fx[l] * d2x + lane_fy[l] * d2y;
        float l0 = 1.0f - l1 - l2;
        b->l[0][l] = l1; b->l[1][l] = l2;
        float q0 = l0 * iw0, q1 = l1 * iw1, q2 = l2 * iw2;
        float w1 = q0 + q1 + q2;
        float r = 1.0f / w1;   /* w > 0 after clipping; only far helper lanes can see 0 */
        b->p[0][l] = q1 * r; b->p[1][l] = q2 * r;
        b->w1[l] = w1;
    }
}

static void interpolate(const frag_ctx_t *f, const bary_t *b)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_tri_t *t = f->t;
    for (uint32_t j = 0; j < rs->nvary; j++) {
        float *dst = fs_in[rs->vary_loc[j]].c[rs->vary_comp[j]].f;
        if (rs->vary_interp[j] == EG_SOFT_INTERP_FLAT) {
            float v = t->prov->var[j];
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = v;
            continue;
        }
        const float (*w)[EG_SOFT_LANES] = rs->vary_interp[j] == EG_SOFT_INTERP_LINEAR ? b->l : b->p;
        float a0 = t->v[0]->var[j], d1 = t->v[1]->var[j] - a0, d2 = t->v[2]->var[j] - a0;
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = a0 + w[0][l] * d1 + w[1][l] * d2;
    }
}

/* ---- color output ---- */

static void write_colors(const frag_ctx_t *f, uint32_t bx, uint32_t by, const eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    for (uint32_t i = 0; i < rs->rt_count && i < fb->color_count; i++) {
        const eg_soft_blend_t *b = &rs->blend[i];
        const eg_soft_target_t *t = &fb->color[i];
        if (!b->wmask || !t->base) continue;
        uint8_t *blk = t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B;
        for (uint32_t s = 0; s < f->samples; s++) {
            if (!cov[s]) continue;
            if (b->enabled) {
                eg_soft_vec4_t dst;
                if (cov[s] != EG_SOFT_ALL_LANES) eg_memset(&dst, 0, sizeof dst);   /* keep unused lanes finite */
                rs->fmt[i].unpack(t, blk + (size_t)s * t->block_B, cov[s], &dst);
                eg_soft_blend_block(b, f->ps->blend_constant, rs->fmt[i].clamp01, &fs_out[i], &dst, cov[s]);
                rs->fmt[i].pack(t, blk + (size_t)s * t->block_B, cov[s], &dst, b->wmask);
            } else {
                rs->fmt[i].pack(t, blk + (size_t)s * t->block_B, cov[s], &fs_out[i], b->wmask);
            }
        }
    }
}

/* ---- one block ---- */

bool eg_soft_raster_fast_paths = true;
uint32_t eg_soft_raster_copy_blocks;

/* The VM's effect for a copy-class program (soft_vm_classify.c), all lanes: the same bits it
 * would commit on the active lanes; other lanes are never stored. */
static void copy_shade(const struct eg_soft_raster_pipeline *rs)
{
    for (uint32_t c = 0; c < 4u; c++) {
        uint32_t *dst = fs_out[0].c[c].u;
        uint32_t src = rs->copy.src[c];
        if (src & EG_SOFT_COPY_CONST) {
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = rs->copy.const_bits[c];
        } else {
            const uint32_t *in = fs_in[src >> 2].c[src & 3u].u;
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = in[l];
        }
    }
}

static void shade_block(frag_ctx_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    eg_soft_mask_t pix = 0;
    for (uint32_t s = 0; s < f->samples; s++) {
        if (!(rs->sample_mask >> s & 1u)) cov[s] = 0;
        pix |= cov[s];
    }
    if (!pix) return;
    eg_soft_mask_t lanes = rs->fs ? quad_expand(pix) : pix;
    bary_t b;
    barycentrics(f, bx, by, &b);
    float zc[EG_SOFT_LANES], zd1 = f->z[1] - f->z[0], zd2 = f->z[2] - f->z[0];
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) zc[l] = f->z[0] + b.l[0][l] * zd1 + b.l[1][l] * zd2 + f->bias;
    if (rs->early_z) {
        ds_test(f, bx, by, zc, cov);
        pix = 0;
        for (uint32_t s = 0; s < f->samples; s++) pix |= cov[s];
        if (!pix || !rs->fs) return;
        lanes = quad_expand(pix);
    }
    interpolate(f, &b);
    if (rs->fs_copy && eg_soft_raster_fast_paths) {
        copy_shade(rs);
        eg_soft_raster_copy_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_test(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov);
        return;
    }
    eg_soft_invocation_t inv;
    inv.in = fs_in;
    inv.out = fs_out;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        inv.position.c[0].f[l] = (float)(bx + (l & 3u)) + 0.5f;
        inv.position.c[1].f[l] = (float)(by + (l >> 2)) + 0.5f;
        inv.position.c[2].f[l] = zc[l];
        inv.position.c[3].f[l] = b.w1[l];
    }
    inv.front_facing = (!f->t->is_polygon || f->s.front) ? EG_SOFT_ALL_LANES : 0;
    inv.helper = lanes & ~pix;
    inv.active = lanes;
    eg_soft_program_run(rs->fs, &f->ps->bound, &inv);
    eg_soft_mask_t alive = inv.active & pix;
    if (rs->fsi->writes_depth) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) zc[l] = inv.frag_depth.f[l];
        f->dzdx = f->dzdy = 0.0f;   /* FragDepth is per pixel: every sample takes it */
    }
    if (rs->alpha_to_coverage) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            float a = fs_out[0].c[3].f[l];
            a = a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f;
            uint32_t n = (uint32_t)(a * (float)f->samples + 0.5f);
            for (uint32_t s = n; s < f->samples; s++) cov[s] &= ~(1u << l);
        }
    }
    for (uint32_t s = 0; s < f->samples; s++) cov[s] &= alive;
    if (!rs->early_z) ds_test(f, bx, by, zc, cov);
    write_colors(f, bx, by, cov);
}

/* ---- triangle ---- */

static void depth_setup(frag_ctx_t *f)
{
    const eg_soft_tri_t *t = f->t;
    const setup_t *s = &f->s;
    for (uint32_t i = 0; i < 3; i++) f->z[i] = t->z[i];
    /* dz/dx per pixel = sum z_i dlambda_i/dx, dlambda_i/dx = A_i * 256 / area2; with
     * sum A_i = 0 that is A_1 (z1 - z0) + A_2 (z2 - z0): exactly 0 for a constant depth. */
    float d1 = f->z[1] - f->z[0], d2 = f->z[2] - f->z[0];
    f->dzdx = ((float)s->A[1] * d1 + (float)s->A[2] * d2) * s->inv_area2 * (float)EG_SOFT_SUBPIX;
    f->dzdy = ((float)s->B[1] * d1 + (float)s->B[2] * d2) * s->inv_area2 * (float)EG_SOFT_SUBPIX;
    f->bias = 0.0f;
    const struct eg_soft_raster_pipeline *rs = f->rs;
    if (!rs->has_ds || !t->is_polygon || (rs->depth_bias_units == 0.0f && rs->depth_bias_slope == 0.0f)) return;
    float units = rs->depth_bias_units;
    if (rs->ds_format == WGPUTextureFormat_Depth32Float || rs->ds_format == WGPUTextureFormat_Depth32FloatStencil8) {
        /* Float depth: r = 2^(e - 23), e = exponent of the largest |z| of the primitive. */
        float zmax = 0.0f;
        for (uint32_t i = 0; i < 3; i++) { float a = f->z[i] < 0 ? -f->z[i] : f->z[i]; if (a > zmax) zmax = a; }
        union { float f; uint32_t u; } c = { zmax };
        int32_t e = (int32_t)(c.u >> 23 & 0xFFu) - 127 - 23;
        union { float f; uint32_t u; } r = { 0 };
        r.u = e > -127 ? (uint32_t)(e + 127) << 23 : 0u;
        units *= r.f;
    }
    float mx = f->dzdx < 0 ? -f->dzdx : f->dzdx, my = f->dzdy < 0 ? -f->dzdy : f->dzdy;
    float bias = units + rs->depth_bias_slope * (mx > my ? mx : my);
    float cl = rs->depth_bias_clamp;
    if (cl > 0.0f && bias > cl) bias = cl;
    if (cl < 0.0f && bias < cl) bias = cl;
    f->bias = bias;
}

static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Walks the pixel rectangle [px0, px1) x [py0, py1) in 4x4 blocks: whole-block reject /
 * accept against the edges' extremes over the block, per-sample masks otherwise. */
static void walk_blocks(frag_ctx_t *fp, int64_t px0, int64_t px1, int64_t py0, int64_t py1)
{
    frag_ctx_t f = *fp;
    /* Per-lane and per-sample edge offsets from the block origin. */
    int64_t lane_off[3][EG_SOFT_LANES], samp_off[3][EG_SOFT_MAX_SAMPLES], ext[3][2];
    for (uint32_t i = 0; i < 3; i++) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
            lane_off[i][l] = f.s.A[i] * (int64_t)((l & 3u) * EG_SOFT_SUBPIX) + f.s.B[i] * (int64_t)((l >> 2) * EG_SOFT_SUBPIX);
        for (uint32_t s = 0; s < f.samples; s++)
            samp_off[i][s] = f.s.A[i] * f.sx[s] + f.s.B[i] * f.sy[s];
        /* min / max of the edge over the block's 4 x 4 px square */
        int64_t ax = f.s.A[i] * (4 * EG_SOFT_SUBPIX), by = f.s.B[i] * (4 * EG_SOFT_SUBPIX);
        ext[i][0] = min64(ax, 0) + min64(by, 0);
        ext[i][1] = max64(ax, 0) + max64(by, 0);
    }
    for (int64_t by0 = py0 & ~3; by0 < py1; by0 += 4) {
        eg_soft_mask_t rows = 0;
        for (uint32_t r = 0; r < 4; r++)
            if (by0 + r >= py0 && by0 + r < py1) rows |= 0xFu << (4 * r);
        for (int64_t bx0 = px0 & ~3; bx0 < px1; bx0 += 4) {
            eg_soft_mask_t cols = 0;
            for (uint32_t c = 0; c < 4; c++)
                if (bx0 + c >= px0 && bx0 + c < px1) cols |= 0x1111u << c;
            eg_soft_mask_t inside = rows & cols;
            int64_t e0[3];
            bool reject = false, accept = true;
            for (uint32_t i = 0; i < 3; i++) {
                e0[i] = f.s.A[i] * (bx0 * EG_SOFT_SUBPIX) + f.s.B[i] * (by0 * EG_SOFT_SUBPIX) + f.s.C[i];
                if (e0[i] + ext[i][1] < 0) reject = true;
                if (e0[i] + ext[i][0] < 0) accept = false;
            }
            if (reject) continue;
            eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES] = { 0 };
            for (uint32_t s = 0; s < f.samples; s++) {
                if (accept) { cov[s] = inside; continue; }
                eg_soft_mask_t m = 0;
                for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                    if (!(inside >> l & 1u)) continue;
                    if (e0[0] + lane_off[0][l] + samp_off[0][s] >= 0 && e0[1] + lane_off[1][l] + samp_off[1][s] >= 0 &&
                        e0[2] + lane_off[2][l] + samp_off[2][s] >= 0)
                        m |= 1u << l;
                }
                cov[s] = m;
            }
            shade_block(&f, (uint32_t)bx0, (uint32_t)by0, cov);
        }
    }
}

void eg_soft_raster_triangle(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t)
{
    frag_ctx_t f;
    f.ps = ps;
    f.rs = ps->rs;
    f.t = t;
    int32_t X[3], Y[3];
    for (uint32_t i = 0; i < 3; i++) { X[i] = eg_soft_snap(t->x[i]); Y[i] = eg_soft_snap(t->y[i]); }
    if (!setup_edges(X, Y, &f.s)) return;
    if (!f.rs->front_ccw) f.s.front = !f.s.front;
    if (t->is_polygon && ((f.s.front && f.rs->cull_front) || (!f.s.front && f.rs->cull_back))) return;
    f.samples = ps->fb->samples == 4u ? 4u : 1u;
    f.sx = f.samples == 4u ? sample_x4 : sample_x1;
    f.sy = f.samples == 4u ? sample_y4 : sample_y1;
    depth_setup(&f);

    int32_t minX = X[0], maxX = X[0], minY = Y[0], maxY = Y[0];
    for (uint32_t i = 1; i < 3; i++) {
        minX = X[i] < minX ? X[i] : minX;
        maxX = X[i] > maxX ? X[i] : maxX;
        minY = Y[i] < minY ? Y[i] : minY;
        maxY = Y[i] > maxY ? Y[i] : maxY;
    }
    int64_t px0 = max64(minX >> EG_SOFT_SUBPIX_BITS, ps->sc_x0), px1 = min64((maxX >> EG_SOFT_SUBPIX_BITS) + 1, ps->sc_x1);
    int64_t py0 = max64(minY >> EG_SOFT_SUBPIX_BITS, ps->sc_y0), py1 = min64((maxY >> EG_SOFT_SUBPIX_BITS) + 1, ps->sc_y1);
    if (px0 >= px1 || py0 >= py1) return;
    walk_blocks(&f, px0, px1, py0, py1);
}

#endif /* EMGPU_HAL_SOFT */
