/* hal/soft per-block fragment pipeline: the textured-mesh fast paths (the fused block of
 * mesh7c, the one-pass block of tex8 and its per-triangle direct call of mblk8). Split out of
 * soft_raster_shade.c, whose shade() these reproduce bit for bit in their state. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster_shade_int.h"

#if SHADE_AVX2
/* The fused mesh path (helper "mesh7c"): shade()'s steps for one state, its tests done once
 * per triangle (mesh_setup). The state: one sample in the sample mask, a fragment program of
 * the one-texture class (not copy, not block-constant, no native function), early depth with
 * ds_fast, 8 lanes (shade_avx2), out_pack, and inputs none of which is flat or takes
 * interp_body's constant shortcut (d1 = d2 = 0 with a finite nonzero a0): then interp_body
 * runs lerp_body for every input with the a0, d1, d2 it computes from the same vertices (the
 * same expressions here) and in_uniform is 0. shade_mesh makes the calls shade() makes in this
 * state, in the same order, with the same arguments: the same bytes. */
void eg_soft_mesh_setup(eg_soft_frag_t *f)
{
    if (eg_soft_mesh_state_ok(f)) eg_soft_mesh_setup_tri(f);
}

/* mesh_setup's tests on the draw's state alone (f->ds_fast and f->out_pack are): helper "set9"'s
 * eg_soft_shade_setup asks them once per draw and worker. */
bool eg_soft_mesh_state_ok(const eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    return f->ds_fast && f->out_pack && (rs->sample_mask & 1u) && rs->fs && rs->early_z && rs->fs_tex &&
           !rs->fs_copy && !rs->fs_const && !rs->native_fs && eg_soft_raster_fast_paths &&
           rs->nvary <= EG_SOFT_MESH_VARY && shade_avx2();
}

/* mesh_setup's per-triangle part, where eg_soft_mesh_state_ok(f) held (so the CPU has AVX2: the
 * products below in 8 lanes, the same IEEE products) */
SHADE_AVX2_ATTR void eg_soft_mesh_setup_tri(eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_tri_t *t = f->t;
    for (uint32_t j = 0; j < rs->nvary; j++) {
        if (rs->vary_interp[j] == EG_SOFT_INTERP_FLAT) return;
        float a0 = t->v[0]->var[j], d1 = t->v[1]->var[j] - a0, d2 = t->v[2]->var[j] - a0;
        if (d1 == 0.0f && d2 == 0.0f && finite_nonzero(a0)) return;
        f->mv_a0[j] = a0;
        f->mv_d1[j] = d1;
        f->mv_d2[j] = d2;
        f->mv_dst[j] = f->w->io_in[rs->vary_loc[j]].c[rs->vary_comp[j]].f;
        f->mv_persp[j] = rs->vary_interp[j] != EG_SOFT_INTERP_LINEAR;
    }
    f->mv_n = rs->nvary;
    f->mesh_tex = 0;
    /* bary_body's per-triangle terms, the same expressions (its wide branch) */
    const eg_soft_setup_t *s = &f->s;
    float dx[2] = { (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2, (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2 };
    float dy[2] = { (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2, (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2 };
    /* (float)(l & 3) and (float)(2 h + (l >> 2)) as tables: the same products, vectorised */
    static const float kx[8] = { 0, 1, 2, 3, 0, 1, 2, 3 }, ky[2][8] = { { 0, 0, 0, 0, 1, 1, 1, 1 }, { 2, 2, 2, 2, 3, 3, 3, 3 } };
    for (uint32_t v = 0; v < 2u; v++) {
        for (uint32_t l = 0; l < 8u; l++) f->mb_cx[v][l] = kx[l] * dx[v];
        for (uint32_t h = 0; h < 2u; h++)
            for (uint32_t l = 0; l < 8u; l++) f->mb_ry[v][h][l] = ky[h][l] * dy[v];
    }
    f->mesh_persp = rs->persp_used || (rs->frag_coord_used & 8u);
    f->mesh_store = (f->out_wmask & 15u) != 15u ? 0u
                    : f->out_t->format == WGPUTextureFormat_RGBA8Unorm ? 1u
                    : f->out_t->format == WGPUTextureFormat_BGRA8Unorm ? 2u : 0u;
    f->mesh_fast = true;
}

/* barycentrics_avx2 with mesh_setup's per-triangle terms (persp = f->mesh_persp): per lane
 * e + k dx + r dy, then the perspective weights, the same operations as bary_body. */
static SHADE_AVX2_ATTR void barycentrics_mesh_avx2(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, bary_t *b)
{
    bary_terms_avx2(f, f->mb_cx, f->mb_ry, f->mesh_persp, bx, by, b);
}

static SHADE_AVX2_ATTR void interpolate_mesh_avx2(const eg_soft_frag_t *f, const bary_t *b)
{
    for (uint32_t j = 0; j < f->mv_n; j++) {
        const float (*w)[EG_SOFT_LANES] = f->mv_persp[j] ? b->p : b->l;
        lerp_body(f->mv_dst[j], w[0], w[1], f->mv_a0[j], f->mv_d1[j], f->mv_d2[j], false, 0.0f, true);
    }
    f->w->in_uniform = 0;
}

/* shade() in mesh_setup's state (cov[0] is the only sample). */
#define MESH_NOINLINE __attribute__((noinline))   /* GCC only, as SHADE_AVX2 */
static MESH_NOINLINE void shade_mesh_staged(eg_soft_frag_t *f, uint32_t bx, uint32_t by,
                                          eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES]);

void eg_soft_shade_mesh(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    if (!cov[0]) return;
    if (f->mesh_tex == 0) f->mesh_tex = eg_soft_tex_mesh_kind(f);   /* 2: the block in one pass (tex8) */
    if (f->mesh_tex == 2) {
        if ((cov[0] = eg_soft_mesh_block(f, bx, by, cov[0])) != 0) f->w->tex_blocks++;
        return;
    }
    shade_mesh_staged(f, bx, by, cov);
}

/* shade_mesh's calls stage by stage (out of line: its frame is not paid by the one-pass case) */
static MESH_NOINLINE void shade_mesh_staged(eg_soft_frag_t *f, uint32_t bx, uint32_t by,
                                          eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    bary_t b;
    float zc[EG_SOFT_LANES];
    barycentrics_mesh_avx2(f, bx, by, &b);
    depth_lerp_avx2(f, &b, zc);
    eg_soft_mask_t pix = cov[0] = eg_soft_ds_fast(f, bx, by, zc, cov[0]);
    if (!pix) return;
    interpolate_mesh_avx2(f, &b);
    f->w->tex_blocks++;
    const eg_soft_target_t *t = f->out_t;   /* write_colors' out_pack case */
    uint8_t *blk = t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B;
    if (f->mesh_tex > 0 && f->mesh_store) {   /* the sample and the pack in one: the same bytes */
        eg_soft_sample_rgba8_store_avx2(&f->tex_fast, f->mesh_u, f->mesh_v, pix, f->mesh_store == 2u, blk,
                                        t->row_pitch_B);
        return;
    }
    if (f->mesh_tex > 0) eg_soft_sample_rgba8_avx2(&f->tex_fast, f->mesh_u, f->mesh_v, quad_expand(pix), &f->w->io_out[0]);
    else eg_soft_tex_block(f, quad_expand(pix));
    f->out_pack(t, blk, pix, &f->w->io_out[0], f->out_wmask);
}
#endif


/* eg_soft_shade_block's and shade_mesh's tests for the one-pass block, once per triangle (helper
 * "mblk8"): their results depend on the triangle's state only (eg_soft_tex_prep and
 * eg_soft_tex_mesh_kind cache theirs in f), so the walk may call the block itself. */
bool eg_soft_shade_mesh_direct(eg_soft_frag_t *f, eg_soft_mesh_tri_t *m)
{
#if SHADE_AVX2
    if (!f->mesh_fast || !eg_soft_raster_fast_paths || !eg_soft_tex_prep(f)) return false;
    if (f->mesh_tex == 0) f->mesh_tex = eg_soft_tex_mesh_kind(f);
    if (f->mesh_tex != 2) return false;
    eg_soft_mesh_tri_prep(f, m);
    return m->block != NULL;
#else
    (void)f;
    (void)m;
    return false;
#endif
}

#endif /* EMGPU_HAL_SOFT */
