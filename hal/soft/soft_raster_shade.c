/* hal/soft per-block fragment pipeline: interpolation, shading, blend and store.
 *
 * soft_raster.c walks a triangle in 4x4 blocks and calls eg_soft_shade_block for each block
 * with coverage; everything here works on one block of one worker (soft_raster.h). The depth /
 * stencil test is in soft_raster_depth.c.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster_shade_int.h"

/* ---- color output ---- */

/* uniform: output 0 holds the same value in every lane (block-constant path). */
static void write_colors(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES],
                         bool uniform)
{
    if (f->out_pack) {   /* eg_soft_shade_setup: the loop below's only work for this state */
        const eg_soft_target_t *t = f->out_t;
        if (cov[0]) f->out_pack(t, t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B, cov[0],
                                &f->w->io_out[0], f->out_wmask);
        return;
    }
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    for (uint32_t i = 0; i < rs->rt_count && i < fb->color_count; i++) {
        const eg_soft_blend_t *b = &rs->blend[i];
        const eg_soft_target_t *t = &fb->color[i];
        if (!b->wmask || !t->base) continue;
        uint8_t *blk = t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B;
        for (uint32_t s = 0; s < f->samples; s++) {
            if (!cov[s]) continue;
            if (rs->blend_fast[i] && eg_soft_raster_fast_paths) {
                if (uniform && i == 0u)
                    eg_soft_blend_const(t, blk + (size_t)s * t->block_B, cov[s], &f->w->io_out[i], rs->blend_fast[i]);
                else if (rs->blend_fast[i] & EG_SOFT_BLEND_U8_565)
                    eg_soft_blend_565(t, blk + (size_t)s * t->block_B, cov[s], &f->w->io_out[i], rs->blend_fast[i]);
                else
                    eg_soft_blend_u8(t, blk + (size_t)s * t->block_B, cov[s], &f->w->io_out[i], rs->blend_fast[i]);
            } else if (b->enabled) {
                eg_soft_vec4_t dst;
                if (cov[s] != EG_SOFT_ALL_LANES) eg_memset(&dst, 0, sizeof dst);   /* keep unused lanes finite */
                rs->fmt[i].unpack(t, blk + (size_t)s * t->block_B, cov[s], &dst);
                eg_soft_blend_block(b, f->ps->blend_constant, rs->fmt[i].clamp01, &f->w->io_out[i], &dst, cov[s]);
                rs->fmt[i].pack(t, blk + (size_t)s * t->block_B, cov[s], &dst, b->wmask);
            } else {
                rs->fmt[i].pack(t, blk + (size_t)s * t->block_B, cov[s], &f->w->io_out[i], b->wmask);
            }
        }
    }
}

/* ---- one block ---- */

/* The program's whole native function (soft_jit.c), or NULL. It has no side effect, kill or
 * derivative (soft_jit.c whole_ok), so it may run on every lane of a partial block: lanes outside
 * the block's active ones compute values that nothing stores (cov is ANDed with them). */
static inline eg_vm_jit_whole_fn_t jit_whole(const eg_soft_program_t *p)
{
#if EMGPU_SOFT_JIT
    if (p->jit && p->jit_whole_at) return (eg_vm_jit_whole_fn_t)(uintptr_t)(p->jit + p->jit_whole_at);
#else
    (void)p;
#endif
    return NULL;
}

/* Whether shade() of a wholly covered block reduces, for this triangle, to interpolation,
 * FragCoord.xy (and .w), the program's whole native function and write_colors: none of the
 * paths before the VM, no depth / stencil, one sample, no per-lane output besides colour. */
static bool jit_fast_ok(const eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
#if SHADE_AVX2
    if (!shade_avx2()) return false;
#else
    return false;
#endif
    return rs->fs && jit_whole(rs->fs) && !f->mesh_fast && eg_soft_raster_fast_paths && !rs->native_fs &&
           !rs->fs_copy && !rs->fs_const && !rs->fs_tex && f->samples == 1u && (rs->sample_mask & 1u) &&
           !rs->depth_test && !rs->stencil_test && !(rs->frag_coord_used & 4u) && !rs->fsi->writes_depth &&
           !rs->alpha_to_coverage && !rs->fs->uses_sample_mask && !rs->fs->writes_sample_mask &&
           !rs->fs->uses_sample_id;
}

/* Per triangle: the depth test's set-up (soft_raster_depth.c) and write_colors' case of one
 * target, one sample, no blend (neither fused nor general): the pack of target 0 alone, the
 * loop's tests (~100 instructions a block on the textured mesh) done once. */
/* eg_soft_shade_setup's results that depend on the draw alone, per worker for the last draw it
 * saw (helper "set9", keyed as soft_raster_tex.c's tex_cache by the draw's serial): the tests were
 * ~150 instructions a triangle of the textured mesh. Only ds_off and the mesh's per-triangle part
 * (eg_soft_mesh_setup_tri) are formed per triangle. jit_fast depends on the draw alone: jit_fast_ok
 * asks !rs->fs_tex, without which mesh_fast is never set. */
typedef struct shade_memo {
    EG_SOFT_OWN_LINE uint64_t serial;
    const eg_soft_pass_state_t *ps;
    const struct eg_soft_raster_pipeline *rs;
    bool fast_paths, ds_write, ds_avx2, mesh_ok, jit_fast;
    uint32_t samples, vw, ds_fast, out_wmask;
    float ds_lo, ds_hi;
    uint8_t *ds_base;
    size_t ds_pitch_B;
    eg_soft_pack_fn out_pack;
    const eg_soft_target_t *out_t;
    eg_soft_pack_full_fn jit_pack;
    uint8_t vm_state;
} shade_memo_t;
static shade_memo_t shade_memo[EMGPU_SOFT_MAX_THREADS];

/* f's draw state from the worker's memo: false when it holds another draw */
static bool shade_setup_memo(eg_soft_frag_t *f, const shade_memo_t *m)
{
    if (m->serial != f->ps->serial || m->ps != f->ps || m->rs != f->rs || m->fast_paths != eg_soft_raster_fast_paths ||
        m->samples != f->samples || m->vw != eg_soft_shade_vw)
        return false;
    f->ds_fast = m->ds_fast;
    f->ds_avx2 = m->ds_avx2;
    if (m->ds_fast) {   /* eg_soft_ds_fast_setup's fields; ds_off the same expression */
        f->ds_write = m->ds_write;
        f->ds_off = f->dzdx * (float)(f->sx[0] - 128) * (1.0f / 256.0f) + f->dzdy * (float)(f->sy[0] - 128) * (1.0f / 256.0f);
        f->ds_lo = m->ds_lo;
        f->ds_hi = m->ds_hi;
        f->ds_base = m->ds_base;
        f->ds_pitch_B = m->ds_pitch_B;
    }
    f->out_pack = m->out_pack;
    f->out_t = m->out_t;
    f->out_wmask = m->out_wmask;
    f->mesh_fast = false;
#if SHADE_AVX2
    if (m->mesh_ok) eg_soft_mesh_setup_tri(f);
    else
#endif
        f->vm_state = m->vm_state;   /* (read only where !rs->fs_tex, never mesh_ok: no store on the mesh) */
    f->jit_fast = m->jit_fast;
    f->jit_pack = m->jit_pack;
    return true;
}

/* Whether shade() of a block reduces, for this draw, to interpolation (and FragCoord), the
 * fragment program and write_colors, 8 lanes at a time: shade_vm's state. mesh_fast is never set
 * here (eg_soft_mesh_state_ok asks rs->fs_tex). A block-constant program takes it only where the
 * block's proof is off (f->no_const_proof, asked per block). */
static bool vm_fast_ok(const eg_soft_frag_t *f)
{
#if SHADE_AVX2
    const struct eg_soft_raster_pipeline *rs = f->rs;
    if (!shade_avx2()) return false;
    return rs->fs && eg_soft_raster_fast_paths && !rs->native_fs && !rs->fs_copy && !rs->fs_tex && f->samples == 1u &&
           (rs->sample_mask & 1u) && !rs->depth_test && !rs->stencil_test && !f->ds_fast && !rs->fsi->writes_depth && !rs->alpha_to_coverage && !rs->fs->uses_sample_mask && !rs->fs->writes_sample_mask &&
           !rs->fs->uses_sample_id && rs->nvary <= EG_SOFT_VM_VARY;
#else
    (void)f;
    return false;
#endif
}

/* f->vm_state for the draw: 0 where vm_fast_ok fails, else how shade_vm writes (write_colors'
 * work in its state: uniform false, one sample). */
static uint8_t vm_state_of(const eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    if (!vm_fast_ok(f)) return 0u;
    if (f->out_pack) return EG_SOFT_VM_PACK;
    if (rs->rt_count == 1u && fb->color_count >= 1u && rs->blend[0].wmask && fb->color[0].base && rs->blend_fast[0] &&
        eg_soft_raster_fast_paths)
        return rs->blend_fast[0] & EG_SOFT_BLEND_U8_565 ? EG_SOFT_VM_565 : EG_SOFT_VM_U8;
    return EG_SOFT_VM_COLORS;
}

void eg_soft_shade_setup(eg_soft_frag_t *f)
{
    f->vm_hold = 0;
    shade_memo_t *m = f->w->index < EG_ARRAY_LEN(shade_memo) && f->ps->serial ? &shade_memo[f->w->index] : NULL;
    if (m && shade_setup_memo(f, m)) return;
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    eg_soft_ds_fast_setup(f);
    f->out_pack = NULL;
    f->mesh_fast = false;
    if (rs->rt_count == 1u && fb->color_count >= 1u && f->samples == 1u && rs->blend[0].wmask && fb->color[0].base &&
        !(rs->blend_fast[0] && eg_soft_raster_fast_paths) && !rs->blend[0].enabled) {
        f->out_pack = rs->fmt[0].pack;
        f->out_t = &fb->color[0];
        f->out_wmask = rs->blend[0].wmask;
    }
    bool mesh_ok = false;
#if SHADE_AVX2
    mesh_ok = eg_soft_mesh_state_ok(f);
    if (mesh_ok) eg_soft_mesh_setup_tri(f);
#endif
    f->jit_fast = jit_fast_ok(f);
    f->jit_pack = f->jit_fast && f->out_pack ? eg_soft_pack_full_of(f->out_pack, f->out_t, f->out_wmask) : NULL;
    f->vm_state = vm_state_of(f);
    /* ds_write is set only where ds_fast is (eg_soft_ds_fast_setup): not read otherwise */
    if (m)
        *m = (shade_memo_t){ f->ps->serial, f->ps, rs, eg_soft_raster_fast_paths, f->ds_fast && f->ds_write, f->ds_avx2, mesh_ok,
                             f->jit_fast, f->samples, eg_soft_shade_vw, f->ds_fast, f->out_wmask, f->ds_lo, f->ds_hi,
                             f->ds_base, f->ds_pitch_B, f->out_pack, f->out_t, f->jit_pack, f->vm_state };
}

bool eg_soft_raster_fast_paths = true;
uint32_t eg_soft_shade_vw = 8u;

/* The VM's effect for a copy-class program (soft_vm_classify.c), all lanes: the same bits it
 * would commit on the active lanes; other lanes are never stored. */
static void copy_shade(const eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    for (uint32_t c = 0; c < 4u; c++) {
        uint32_t *dst = f->w->io_out[0].c[c].u;
        uint32_t src = rs->copy.src[c];
        if (src & EG_SOFT_COPY_CONST) {
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = rs->copy.const_bits[c];
        } else {
            const uint32_t *in = f->w->io_in[src >> 2].c[src & 3u].u;
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) dst[l] = in[l];
        }
    }
}

/* FragCoord.xy of the block's pixel centres: x + 0.5 the same in every row, y + 0.5 the same
 * along a row (through int32: the same value, coordinates are below 2^24). */
static EG_ALWAYS_INLINE void frag_coord_xy(eg_soft_invocation_t *inv, uint32_t bx, uint32_t by)
{
#if DEPTH_VEC
    float fx[4], fy[4];
    for (uint32_t i = 0; i < 4u; i++) {
        fx[i] = (float)(int32_t)(bx + i) + 0.5f;
        fy[i] = (float)(int32_t)(by + i) + 0.5f;
    }
    vf_t x;
    VLOAD(x, fx);
    for (uint32_t r = 0; r < 4u; r++) {
        vf_t y = { fy[r], fy[r], fy[r], fy[r] };
        VSTORE(inv->position.c[0].f + 4u * r, x);
        VSTORE(inv->position.c[1].f + 4u * r, y);
    }
#else
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        inv->position.c[0].f[l] = (float)(int32_t)(bx + (l & 3u)) + 0.5f;
        inv->position.c[1].f[l] = (float)(int32_t)(by + (l >> 2)) + 0.5f;
    }
#endif
}

/* The depth / stencil test: its one-sample depth-only form with the per-triangle set-up
 * (f->ds_fast) where it applies, else the general one. */
static inline void ds_run(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
                          eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    if (f->ds_fast) cov[0] = eg_soft_ds_fast(f, bx, by, zc, cov[0]);
    else eg_soft_ds_test(f, bx, by, zc, cov);
}

/* The block's fragment pipeline for coverage cov; `sample` is the sample being shaded when the
 * program runs per sample (per_sample: SampleId or a Sample-qualified input), else 0. */
static void shade(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES], uint32_t sample,
                  bool per_sample)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    eg_soft_mask_t pix = 0;
    for (uint32_t s = 0; s < f->samples; s++) {
        if (!(rs->sample_mask >> s & 1u)) cov[s] = 0;
        pix |= cov[s];
    }
    if (!pix) return;
    eg_soft_mask_t lanes = rs->fs ? quad_expand(pix) : pix;
    /* the perspective weights and 1 / w, and the depth, only where something reads them (a
     * native function reads all of FragCoord; fast paths off computes everything, as before) */
    bool all = rs->native_fs || !eg_soft_raster_fast_paths;
    bool persp = all || rs->persp_used || (rs->frag_coord_used & 8u);
    bool need_z = all || rs->depth_test || rs->stencil_test || (rs->frag_coord_used & 4u);
    bary_t b;
    float zc[EG_SOFT_LANES];
#if SHADE_AVX2
    bool wide = shade_avx2() && !(per_sample && rs->vary_sample);
#else
    const bool wide = false;
#endif
    if (wide) {
#if SHADE_AVX2
        if (persp || need_z || rs->nvary) barycentrics_avx2(f, bx, by, &b, persp);
        if (need_z) depth_lerp_avx2(f, &b, zc);
#endif
    } else {
        if (persp || need_z || rs->nvary)   /* else nothing reads b (a FragCoord.xy-only program) */
            barycentrics(f, bx, by, &b, persp, EG_SOFT_SUBPIX / 2, EG_SOFT_SUBPIX / 2);
        float zd1 = f->z[1] - f->z[0], zd2 = f->z[2] - f->z[0];
        if (need_z)
            lerp_lanes(zc, b.l[0], b.l[1], f->z[0], zd1, zd2, true, f->bias);
    }
    if (rs->early_z) {
        if (rs->depth_test || rs->stencil_test) {   /* else ds_test changes nothing */
            ds_run(f, bx, by, zc, cov);
            pix = 0;
            for (uint32_t s = 0; s < f->samples; s++) pix |= cov[s];
            if (!pix) return;
            lanes = quad_expand(pix);
        }
        if (!rs->fs) return;
    }
    bary_t bs;   /* Sample-qualified inputs of a per-sample run: at that sample's position */
    if (per_sample && rs->vary_sample)
        barycentrics(f, bx, by, &bs, rs->persp_used, f->sx[sample], f->sy[sample]);
    if (!rs->nvary) f->w->in_uniform = 0;   /* interpolate's result without inputs */
#if SHADE_AVX2
    else if (wide) interpolate_avx2(f, &b);
#endif
    else interpolate(f, &b, per_sample && rs->vary_sample ? &bs : &b);
    if (rs->fs_copy && eg_soft_raster_fast_paths) {
        copy_shade(f);
        f->w->copy_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_run(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov, false);
        return;
    }
    if (rs->fs_const && !f->no_const_proof && eg_soft_raster_fast_paths && !rs->native_fs &&
        eg_soft_const_block(rs->fs_const, f->w)) {
        /* the VM's output in every lane, no lane killed: its commit below with alive = pix */
        f->w->const_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_run(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov, true);
        return;
    }
    if (rs->fs_tex && eg_soft_raster_fast_paths && !rs->native_fs && eg_soft_tex_prep(f)) {
        /* the VM's outputs; no lane killed: its commit below with alive = pix */
        eg_soft_tex_block(f, lanes);
        f->w->tex_blocks++;
        for (uint32_t s = 0; s < f->samples; s++) cov[s] &= pix;
        if (!rs->early_z) ds_run(f, bx, by, zc, cov);
        write_colors(f, bx, by, cov, false);
        return;
    }
    eg_soft_invocation_t inv;
    inv.in = f->w->io_in;
    inv.out = f->w->io_out;
    inv.regs = f->w->vm_regs;
    if (rs->fsi->uses_frag_coord || rs->native_fs)   /* LD_SYS FRAG_COORD (or a bench function) reads it */
        frag_coord_xy(&inv, bx, by);
    if (rs->fsi->uses_frag_coord || rs->native_fs) {   /* z and w where shade computed them (need_z, persp) */
        if (need_z) for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv.position.c[2].f[l] = zc[l];
        if (persp) for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv.position.c[3].f[l] = b.w1[l];
    }
    inv.front_facing = (!f->t->is_polygon || f->s.front) ? EG_SOFT_ALL_LANES : 0;
    inv.helper = lanes & ~pix;
    inv.active = lanes;
    inv.sample_id = sample;
    if (rs->fs->uses_sample_mask)   /* per-sample shading: cov holds only that sample's bit */
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            uint32_t m = 0;
            for (uint32_t s = 0; s < f->samples; s++) m |= (cov[s] >> l & 1u) << s;
            inv.sample_mask_in.u[l] = m;
        }
    eg_vm_jit_whole_fn_t whole = jit_whole(rs->fs);
    if (rs->native_fs) rs->native_fs(&inv, rs->native_user);
    else if (whole) {   /* (any active mask: jit_whole) */
        whole(f->w->vm_regs, &inv);
    } else eg_soft_program_run(rs->fs, &f->ps->bound, &inv);
    eg_soft_mask_t alive = inv.active & pix;
    if (rs->fsi->writes_depth) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) zc[l] = inv.frag_depth.f[l];
        f->dzdx = f->dzdy = 0.0f;   /* FragDepth is per pixel: every sample takes it */
    }
    if (rs->alpha_to_coverage) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            float a = f->w->io_out[0].c[3].f[l];
            a = a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f;
            uint32_t n = (uint32_t)(a * (float)f->samples + 0.5f);
            for (uint32_t s = n; s < f->samples; s++) cov[s] &= ~(1u << l);
        }
    }
    for (uint32_t s = 0; s < f->samples; s++) cov[s] &= alive;
    if (rs->fs->writes_sample_mask)   /* WebGPU: the output mask ANDs the coverage */
        for (uint32_t s = 0; s < f->samples; s++) {
            eg_soft_mask_t keep = 0;
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) keep |= (inv.sample_mask_out.u[l] >> s & 1u) << l;
            cov[s] &= keep;
        }
    if (!rs->early_z) ds_run(f, bx, by, zc, cov);
    write_colors(f, bx, by, cov, false);
}

/* the corner memo's switches (cm_* below; helper cornermemo, session 16) */
bool eg_soft_corner_memo_on = true;
bool eg_soft_corner_memo_verify = false;

uint32_t eg_soft_corner_memo_entries(void) { return (uint32_t)(EMGPU_SOFT_CORNER_MEMO); }

#if SHADE_AVX2
/* ---- the program block in one state (helper "corner11", session 11) ----
 * The rounded rectangles' corner blocks (the UI bench: ~2,770 a frame, every one through the
 * program) spent ~1,500 instructions a block in shade(), of which ~500 in interp_body's choices
 * per input and ~140 in write_colors' loop; the program itself ~130. shade_vm is shade() in
 * vm_fast_ok's state with those choices made once per triangle (vm_tri_setup): the same
 * barycentrics (bary_body's per-lane products, taken per triangle as mesh_setup does), the same
 * lerp_body per input or the same a0 in every lane (with the same persp_finite test where
 * interp_body asks it), the same invocation, program and write: the same bytes. */

/* interp_body's per-input choices and bary_body's per-triangle products (f->vm). */
static SHADE_AVX2_ATTR void vm_tri_setup(eg_soft_frag_t *f)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_tri_t *t = f->t;
    eg_soft_vm_tri_t *m = &f->vm;
    float ca[EG_SOFT_VM_VARY], ka[EG_SOFT_VM_VARY], kd1[EG_SOFT_VM_VARY], kd2[EG_SOFT_VM_VARY];
    float *cdst[EG_SOFT_VM_VARY], *kdst[EG_SOFT_VM_VARY];
    uint64_t uni = 0, kuni = 0, seen = 0;
    uint32_t nl = 0, nc = 0, nk = 0;
    bool dup = false;
    for (uint32_t j = 0; j < rs->nvary; j++) {
        float *dst = f->w->io_in[rs->vary_loc[j]].c[rs->vary_comp[j]].f;
        uint64_t slot = (uint64_t)1 << (rs->vary_loc[j] * 4u + rs->vary_comp[j]);
        dup |= (seen & slot) != 0u;
        seen |= slot;
        if (rs->vary_interp[j] == EG_SOFT_INTERP_FLAT) {
            ca[nc] = t->prov->var[j];
            cdst[nc++] = dst;
            uni |= slot;
            continue;
        }
        float a0 = t->v[0]->var[j], d1 = t->v[1]->var[j] - a0, d2 = t->v[2]->var[j] - a0;
        bool persp = rs->vary_interp[j] != EG_SOFT_INTERP_LINEAR;
        if (d1 == 0.0f && d2 == 0.0f && finite_nonzero(a0)) {   /* (eg_soft_raster_fast_paths: vm_fast_ok) */
            if (!persp) {
                ca[nc] = a0;
                cdst[nc++] = dst;
                uni |= slot;
            } else {   /* a0 where the block's perspective weights are finite */
                ka[nk] = a0;
                kd1[nk] = d1;
                kd2[nk] = d2;
                kdst[nk++] = dst;
                kuni |= slot;
            }
            continue;
        }
        m->a0[nl] = a0;
        m->d1[nl] = d1;
        m->d2[nl] = d2;
        m->dst[nl] = dst;
        m->wp[nl++] = persp;
    }
    for (uint32_t i = 0; i < nc; i++) {
        m->a0[nl + i] = ca[i];
        m->dst[nl + i] = cdst[i];
    }
    for (uint32_t i = 0; i < nk; i++) {
        uint32_t o = nl + nc + i;
        m->a0[o] = ka[i];
        m->d1[o] = kd1[i];
        m->d2[o] = kd2[i];
        m->dst[o] = kdst[i];
    }
    m->nl = nl;
    m->nc = nc;
    m->nk = nk;
    m->uni = uni;
    m->kuni = kuni;
    m->hold_ok = !dup;   /* (each slot written once per block: no order between the lists) */
    const uint32_t wr = f->vm_state & ~EG_SOFT_VM_READY;
    m->blend = wr == EG_SOFT_VM_565 || wr == EG_SOFT_VM_U8 ? eg_soft_blend_body(&f->ps->fb->color[0], wr == EG_SOFT_VM_565) : NULL;
    f->vm_hold &= EG_SOFT_VM_HOLD;   /* (the table is new: nothing of it is held) */
    m->front = (!t->is_polygon || f->s.front) ? EG_SOFT_ALL_LANES : 0;
    m->persp = rs->persp_used || (rs->frag_coord_used & 8u);
    m->need_z = (rs->frag_coord_used & 4u) != 0u;   /* (no depth / stencil test: vm_fast_ok) */
    /* bary_body's wide branch: (float)(l & 3) * d?x and (float)(row) * d?y, the same products */
    const eg_soft_setup_t *s = &f->s;
    float dx[2] = { (float)(s->A[1] * EG_SOFT_SUBPIX) * s->inv_area2, (float)(s->A[2] * EG_SOFT_SUBPIX) * s->inv_area2 };
    float dy[2] = { (float)(s->B[1] * EG_SOFT_SUBPIX) * s->inv_area2, (float)(s->B[2] * EG_SOFT_SUBPIX) * s->inv_area2 };
    static const float kx[8] = { 0, 1, 2, 3, 0, 1, 2, 3 }, ky[2][8] = { { 0, 0, 0, 0, 1, 1, 1, 1 }, { 2, 2, 2, 2, 3, 3, 3, 3 } };
    for (uint32_t v = 0; v < 2u; v++) {
        for (uint32_t l = 0; l < 8u; l++) m->cx[v][l] = kx[l] * dx[v];
        for (uint32_t h = 0; h < 2u; h++)
            for (uint32_t l = 0; l < 8u; l++) m->ry[v][h][l] = ky[h][l] * dy[v];
    }
    m->cm_cls = 0u;   /* (the corner memo's class: looked up at the first block that asks) */
    f->vm_state |= EG_SOFT_VM_READY;
}

/* barycentrics_avx2 with vm_tri_setup's products: per lane e + k dx + r dy, then the
 * perspective weights (m->persp), bary_body's operations in its order. */
static SHADE_AVX2_ATTR EG_ALWAYS_INLINE void vm_bary(const eg_soft_frag_t *f, const eg_soft_vm_tri_t *m, uint32_t bx,
                                                     uint32_t by, bary_t *b)
{
    bary_terms_avx2(f, m->cx, m->ry, m->persp, bx, by, b);
}

typedef uint32_t v8u __attribute__((vector_size(32)));

/* persp_finite in 8 lanes: no exponent of all ones in either perspective weight */
static SHADE_AVX2_ATTR EG_ALWAYS_INLINE bool vm_persp_finite(const bary_t *b)
{
    const v8u e = { 0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u,
                    0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u };
    v8u bad = { 0 };
    for (uint32_t h = 0; h < EG_SOFT_LANES; h += 8u) {
        v8u x, y;
        __builtin_memcpy(&x, b->p[0] + h, 32);
        __builtin_memcpy(&y, b->p[1] + h, 32);
        bad |= (v8u)((x & e) == e) | (v8u)((y & e) == e);
    }
    return __builtin_ia32_movmskps256((v8f)bad) == 0;
}

/* m's inputs [i0, i1): one value in every lane */
static SHADE_AVX2_ATTR EG_ALWAYS_INLINE void vm_splat(const eg_soft_vm_tri_t *m, uint32_t i0, uint32_t i1)
{
    for (uint32_t i = i0; i < i1; i++) {
        v8f a = V8(m->a0[i]);
        __builtin_memcpy(m->dst[i], &a, 32);
        __builtin_memcpy(m->dst[i] + 8, &a, 32);
    }
}

/* shade_vm's program part: the block's inputs into io_in, the program run into io_out[0];
 * returns the invocation's active lanes (*pfin: the perspective weights are finite in all 16
 * lanes, or not read) */
static SHADE_AVX2_ATTR EG_ALWAYS_INLINE eg_soft_mask_t vm_run(eg_soft_frag_t *f, uint32_t bx, uint32_t by,
                                                              eg_soft_mask_t pix, bool *pfin)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_vm_tri_t *m = &f->vm;
    eg_soft_mask_t lanes = quad_expand(pix);
    bary_t b;
    float zc[EG_SOFT_LANES];
    if (m->persp || m->need_z || rs->nvary) vm_bary(f, m, bx, by, &b);
    if (m->need_z) depth_lerp_avx2(f, &b, zc);
    /* (the counts in locals: the stores through dst may alias m for the compiler) */
    const uint32_t nl = m->nl, nc = nl + m->nc, nk = nc + m->nk;
    for (uint32_t i = 0; i < nl; i++) {
        const float (*w)[EG_SOFT_LANES] = m->wp[i] ? b.p : b.l;
        lerp_body(m->dst[i], w[0], w[1], m->a0[i], m->d1[i], m->d2[i], false, 0.0f, true);
    }
    uint64_t uni = m->uni;
    bool fin = nk == nc || vm_persp_finite(&b);
    if (pfin) *pfin = !m->persp || (nk != nc ? fin : vm_persp_finite(&b));
    /* the constants where io_in does not hold them from this run's last block (f->vm_hold: only
     * shade_vm of this triangle wrote io_in since, the same bits to the same slots; HELD_K is
     * set with HELD_C only) */
    const uint32_t held = f->vm_hold;
    if (fin) {
        if (!(held & EG_SOFT_VM_HELD_K)) vm_splat(m, held & EG_SOFT_VM_HELD_C ? nc : nl, nk);
        uni |= m->kuni;
    } else {
        if (!(held & EG_SOFT_VM_HELD_C)) vm_splat(m, nl, nc);
        for (uint32_t i = nc; i < nk; i++)
            lerp_body(m->dst[i], b.p[0], b.p[1], m->a0[i], m->d1[i], m->d2[i], false, 0.0f, true);
    }
    if (held && m->hold_ok)
        f->vm_hold = (uint8_t)(EG_SOFT_VM_HOLD | EG_SOFT_VM_HELD_C | (fin ? EG_SOFT_VM_HELD_K : 0u));
    f->w->in_uniform = uni;
    eg_soft_invocation_t inv;
    inv.in = f->w->io_in;
    inv.out = f->w->io_out;
    inv.regs = f->w->vm_regs;
    if (rs->fsi->uses_frag_coord) {
        frag_coord_xy(&inv, bx, by);
        if (m->need_z) __builtin_memcpy(inv.position.c[2].f, zc, sizeof zc);
        if (m->persp) __builtin_memcpy(inv.position.c[3].f, b.w1, sizeof b.w1);
    }
    inv.front_facing = m->front;
    inv.helper = lanes & ~pix;
    inv.active = lanes;
    inv.sample_id = 0;
    eg_vm_jit_whole_fn_t whole = jit_whole(rs->fs);
    if (whole) {
        whole(f->w->vm_regs, &inv);
    } else {
        eg_soft_program_run(rs->fs, &f->ps->bound, &inv);
    }
    return inv.active;
}

/* ---- the corner blocks' computed channels once per shape (helper cornermemo, session 16) ----
 *
 * WHY. The UI bench's rounded rectangles (one size, 2 x-phases) run ~32 corner blocks each
 * through shade_vm (region_blocks: the cells where the shape's arc fades out), ~870
 * instructions a block with the blend: ~7.5 M of row 4's 41.1 M. The same block of another
 * rectangle of the same size at the same 4x4 phase computes the same alpha: the same program
 * on the same operands.
 *
 * WHAT A BLOCK'S OUTPUT READS. The memo is used only for a program of the block-constant class
 * (rs->fs_const: straight-line per-lane float arithmetic, output 0 alone, no side effect,
 * discard, derivative or sample mask; soft_raster_const.c eg_soft_const_create), so each lane's
 * output 0 is a function of that lane's io_in values alone, and the active lanes stay
 * quad_expand(pix) (no discard). Per output component (eg_soft_const_cm): either it copies an
 * input slot unchanged (LD_IN, then MOVs: the bits move; the bench's rgb), or it is computed
 * from the slots in `need` (the bench's alpha: v_local, v_shape and v_color.a). A needed slot's
 * 16 lanes are what vm_run stores there: lerp_body(w0, w1, a0, d1, d2) with the linear weights
 * l = (float)E * inv_area2 + cx[lane] + ry[lane] (E = A X + B Y + C, the exact int64 edge
 * value at the block origin's pixel centre; cx, ry are products of A, B and inv_area2:
 * vm_tri_setup) or the perspective ones (l0, l1, l2 with 1/w at the vertices, bary_terms_avx2),
 * or a0 in every lane (a constant input; a perspective one only where the weights are finite).
 * The key holds all of those operands, floats as bits: E1, E2 (the same integers wherever the
 * shape is moved by whole pixels), A1, B1, A2, B2, inv_area2, 1/w (where read), each needed
 * slot's kind, a0, d1, d2, and the program (its serial: also the slot map of its pipeline).
 * Equal keys give the same float operations on the same operands in the same order, so the
 * same bits in every lane of every computed component; the coverage mask (pix) is in the key
 * too (it sets the lanes the program runs on and that are stored). A pass-through component
 * is not keyed: the hit splats its input's a0 from the current triangle, which is what the run
 * stores there only when that input is one value in every lane (a constant, or a perspective
 * constant with finite weights: entries are only made where all 16 perspective weights are
 * finite, and finite weights are a function of the key); any other pass-through input leaves
 * the triangle unmemoized. So rectangles of other colours share entries. Then the block is
 * written as shade_vm writes it (same io_out[0], same coverage: the same bytes).
 *
 * Only inside region_blocks (f->vm_hold), where blocks repeat shape after shape; a hit writes
 * no io_in, so the held constants stay valid. The triangle's part of the key (class) is compared
 * once per triangle, at its first such block; a block's key is the class, its generation, E1,
 * E2 and pix. Per worker, 2-way set-associative; eg_soft_corner_memo_verify (tests) reruns every
 * hit and counts the mismatches (corner_memo_wrong).
 * Measured (callgrind, 5 frames, 1 thread): row 4 41.12 M -> 39.72 M instructions, rows 2 / 3 / 5
 * ~-1.3 M each; of row 4's 7,800 memoized blocks 118 miss; a hit is ~150 instructions (key,
 * lookup, io_out[0]) against ~450 for the inputs and the program, the blend (~250) unchanged.
 * Wall clock gains more than that (the perspective weights' divisions are skipped too). */
#if EMGPU_SOFT_CORNER_MEMO
_Static_assert((EMGPU_SOFT_CORNER_MEMO) >= 2 && ((EMGPU_SOFT_CORNER_MEMO) & ((EMGPU_SOFT_CORNER_MEMO) - 1)) == 0,
               "EMGPU_SOFT_CORNER_MEMO: a power of two, at least 2 (2-way sets)");
#define CM_IN 8u      /* needed input slots a memoized triangle may have */
#define CM_CLS 8u     /* triangle classes a worker keeps */
#define CM_NONE 0xffffffffu
enum { CM_LERP_L, CM_LERP_P, CM_SPLAT, CM_PCONST };   /* a needed slot's kind in the key */

/* The triangle's part of the key, compared whole (zeroed first: padding). */
typedef struct cm_cls_key {
    uint64_t serial;
    int64_t ab[4];                     /* A1, B1, A2, B2 */
    uint32_t bits[4];                  /* inv_area2, 1 / w at the vertices (0 where not read) */
    uint32_t persp, nin;
    uint32_t in[CM_IN][4];             /* kind | slot << 8, a0, d1, d2 */
} cm_cls_key_t;

typedef struct cm_key {
    int64_t e[2];                      /* edges 1, 2 at the block origin's pixel centre */
    uint32_t cls, gen, pix, pad;
} cm_key_t;

typedef struct cm_entry {
    cm_key_t k;
    uint32_t used;
    float ch[4][EG_SOFT_LANES];        /* io_out[0] of the computed components */
} cm_entry_t;

typedef struct cm_worker {
    EG_SOFT_OWN_LINE cm_cls_key_t cls[CM_CLS];
    uint32_t cls_gen[CM_CLS], cls_used[CM_CLS], cls_next;
    cm_entry_t e[EMGPU_SOFT_CORNER_MEMO];
} cm_worker_t;

static cm_worker_t cm_tab[EMGPU_SOFT_MAX_THREADS];

static inline uint32_t cm_fbits(float x) { uint32_t u; __builtin_memcpy(&u, &x, 4); return u; }

/* the io_in slot (loc * 4 + comp) a table destination points at */
static inline uint32_t cm_slot(const eg_soft_worker_t *w, const float *dst)
{
    return (uint32_t)(((uintptr_t)dst - (uintptr_t)w->io_in[0].c[0].f) / sizeof(eg_soft_reg_t));
}

/* f's triangle key; false: not memoized (see WHAT A BLOCK'S OUTPUT READS) */
static bool cm_cls_key(eg_soft_frag_t *f, cm_cls_key_t *k)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    eg_soft_vm_tri_t *m = &f->vm;
    const uint32_t wr = f->vm_state & ~EG_SOFT_VM_READY;
    if (!rs->fs_const || rs->fsi->uses_frag_coord || m->need_z || !m->hold_ok || (m->nk && !m->persp) ||
        (wr != EG_SOFT_VM_565 && wr != EG_SOFT_VM_U8 && wr != EG_SOFT_VM_PACK))
        return false;
    const eg_soft_cm_prog_t *cp = eg_soft_const_cm(rs->fs_const);
    const uint32_t nl = m->nl, nc = nl + m->nc, nk = nc + m->nk;
    eg_memset(k, 0, sizeof *k);
    k->serial = cp->serial;
    uint64_t found = 0;
    for (uint32_t i = 0; i < nk; i++) {
        const uint32_t s = cm_slot(f->w, m->dst[i]);
        if (!(cp->need >> s & 1u)) continue;
        if (k->nin == CM_IN) return false;
        const uint32_t kind = i < nl ? (m->wp[i] ? CM_LERP_P : CM_LERP_L) : i < nc ? CM_SPLAT : CM_PCONST;
        uint32_t *d = k->in[k->nin++];
        d[0] = kind | s << 8;
        d[1] = cm_fbits(m->a0[i]);
        d[2] = kind == CM_SPLAT ? 0u : cm_fbits(m->d1[i]);
        d[3] = kind == CM_SPLAT ? 0u : cm_fbits(m->d2[i]);
        found |= (uint64_t)1 << s;
    }
    if (found != cp->need) return false;   /* (a slot no input writes: io_in as it was) */
    for (uint32_t c = 0; c < 4u; c++) {
        m->cm_pass[c] = EG_SOFT_CM_COMPUTED;
        if (cp->pass[c] == EG_SOFT_CM_COMPUTED) continue;
        uint32_t i = nl;
        while (i < nk && cm_slot(f->w, m->dst[i]) != cp->pass[c]) i++;
        if (i == nk) return false;   /* lerped, or not an input: not one value */
        m->cm_pass[c] = (uint8_t)i;
        m->cm_pv[c] = m->a0[i];
    }
    const eg_soft_setup_t *st = &f->s;
    k->ab[0] = st->A[1]; k->ab[1] = st->B[1]; k->ab[2] = st->A[2]; k->ab[3] = st->B[2];
    k->bits[0] = cm_fbits(st->inv_area2);
    if (m->persp)
        for (uint32_t v = 0; v < 3u; v++) k->bits[1u + v] = cm_fbits(f->t->invw[v]);
    k->persp = m->persp;
    return true;
}

/* f's class in the worker's memo (f->vm.cm_cls: index + 1, or CM_NONE), once per triangle */
static void cm_classify(eg_soft_frag_t *f)
{
    eg_soft_vm_tri_t *m = &f->vm;
    cm_cls_key_t k;
    m->cm_cls = CM_NONE;
    if (!eg_soft_corner_memo_on || f->w->index >= EMGPU_SOFT_MAX_THREADS || !cm_cls_key(f, &k)) return;
    cm_worker_t *t = &cm_tab[f->w->index];
    uint32_t c = eg_soft_memo_class(t->cls, t->cls_used, t->cls_gen, CM_CLS, &t->cls_next, &k, sizeof k);
    m->cm_cls = c + 1u;
    m->cm_gen = t->cls_gen[c];
}

static inline uint32_t cm_hash(const cm_key_t *k)
{
    uint64_t h = (uint64_t)k->e[0] * 0x9e3779b97f4a7c15ull ^ (uint64_t)k->e[1] * 0xc2b2ae3d27d4eb4full;
    h ^= (uint64_t)(k->pix * 0x27d4eb2fu) ^ (uint64_t)k->cls * 0x85ebca77u;
    return (uint32_t)(h >> 32 ^ h);
}

static inline bool cm_same(const cm_key_t *a, const cm_key_t *b)
{
    return a->e[0] == b->e[0] && a->e[1] == b->e[1] && a->cls == b->cls && a->gen == b->gen && a->pix == b->pix;
}

/* io_out[0] from e (computed components) and the current triangle (pass-through ones) */
static SHADE_AVX2_ATTR void cm_restore(eg_soft_frag_t *f, const cm_entry_t *e)
{
    const eg_soft_vm_tri_t *m = &f->vm;
    eg_soft_vec4_t *o = &f->w->io_out[0];
#pragma GCC unroll 4
    for (uint32_t c = 0; c < 4u; c++) {
        v8f x0, x1;
        if (m->cm_pass[c] != EG_SOFT_CM_COMPUTED) {
            x0 = x1 = V8(m->cm_pv[c]);
        } else {
            __builtin_memcpy(&x0, e->ch[c], 32);
            __builtin_memcpy(&x1, e->ch[c] + 8, 32);
        }
        __builtin_memcpy(o->c[c].f, &x0, 32);
        __builtin_memcpy(o->c[c].f + 8, &x1, 32);
    }
}

/* vm_run through the memo (*active: its active lanes); false: not memoized (the caller runs
 * the block) */
static SHADE_AVX2_ATTR bool cm_shade(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t pix,
                                     eg_soft_mask_t *active)
{
    eg_soft_worker_t *w = f->w;
    eg_soft_vm_tri_t *m = &f->vm;
    if (m->cm_cls == 0u) cm_classify(f);   /* (CM_NONE where the memo is off or the worker has none) */
    if (m->cm_cls == CM_NONE) return false;
    const eg_soft_setup_t *st = &f->s;
    const int64_t X = (int64_t)bx * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = (int64_t)by * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    const cm_key_t k = { { st->A[1] * X + st->B[1] * Y + st->C[1], st->A[2] * X + st->B[2] * Y + st->C[2] },
                         m->cm_cls, m->cm_gen, pix, 0u };
    cm_entry_t *set = &cm_tab[w->index].e[2u * (cm_hash(&k) & ((EMGPU_SOFT_CORNER_MEMO) / 2u - 1u))];
    const cm_entry_t *hit = set[0].used && cm_same(&set[0].k, &k) ? &set[0]
                            : set[1].used && cm_same(&set[1].k, &k) ? &set[1] : NULL;
    eg_soft_vec4_t got;
    if (hit) {
        w->corner_memo_hits++;
        cm_restore(f, hit);
        *active = quad_expand(pix);   /* (stored only where the run kept them all) */
        if (!eg_soft_corner_memo_verify) return true;
        got = w->io_out[0];
    }
    bool pfin;
    const eg_soft_mask_t act = vm_run(f, bx, by, pix, &pfin);
    if (hit) {   /* (verify: the run's outputs are written) */
        uint32_t d = act != quad_expand(pix);
        for (uint32_t c = 0; c < 4u; c++)
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
                if (pix >> l & 1u) d |= got.c[c].u[l] ^ w->io_out[0].c[c].u[l];
        if (d) w->corner_memo_wrong++;
        *active = act;
        return true;
    }
    *active = act;
    if (act != quad_expand(pix) || !pfin) return true;   /* (run, not kept) */
    set[1] = set[0];
    set[0].k = k;
    set[0].used = 1u;
    for (uint32_t c = 0; c < 4u; c++)
        if (m->cm_pass[c] == EG_SOFT_CM_COMPUTED) __builtin_memcpy(set[0].ch[c], w->io_out[0].c[c].f, sizeof set[0].ch[c]);
    return true;
}
#endif

/* shade_vm's write of io_out[0] over cov[0] (its active lanes) */
static SHADE_AVX2_ATTR EG_ALWAYS_INLINE void vm_write(eg_soft_frag_t *f, uint32_t bx, uint32_t by,
                                                      eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const uint32_t wr = f->vm_state & ~EG_SOFT_VM_READY;
    if (wr == EG_SOFT_VM_COLORS) {
        write_colors(f, bx, by, cov, false);
        return;
    }
    if (!cov[0]) return;
    const eg_soft_target_t *t = wr == EG_SOFT_VM_PACK ? f->out_t : &f->ps->fb->color[0];
    uint8_t *blk = t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B;
    if (wr == EG_SOFT_VM_PACK) f->out_pack(t, blk, cov[0], &f->w->io_out[0], f->out_wmask);
    else f->vm.blend(t, blk, cov[0], &f->w->io_out[0], f->rs->blend_fast[0]);   /* eg_soft_blend_565 / _u8 */
}

/* shade(f, bx, by, cov, 0, false) in vm_fast_ok's state */
static SHADE_AVX2_ATTR void shade_vm(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    eg_soft_mask_t pix = cov[0];
    if (!pix) return;
    if (!(f->vm_state & EG_SOFT_VM_READY)) vm_tri_setup(f);
    f->w->vm_blocks++;
    cov[0] = pix & vm_run(f, bx, by, pix, NULL);   /* shade()'s cov &= alive */
    vm_write(f, bx, by, cov);
}

#if EMGPU_SOFT_CORNER_MEMO
/* shade_vm inside region_blocks (f->vm_hold), through the corner memo where it serves */
static SHADE_AVX2_ATTR void shade_vm_held(eg_soft_frag_t *f, uint32_t bx, uint32_t by,
                                          eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    eg_soft_mask_t pix = cov[0], active;
    if (!pix) return;
    if (!(f->vm_state & EG_SOFT_VM_READY)) vm_tri_setup(f);
    f->w->vm_blocks++;
    if (!cm_shade(f, bx, by, pix, &active)) active = vm_run(f, bx, by, pix, NULL);
    cov[0] = pix & active;
    vm_write(f, bx, by, cov);
}
#else
#define shade_vm_held shade_vm
#endif
#endif

/* shade()'s const path without interpolation or proof: no depth/stencil test (the region walk
 * of soft_raster.c checks), so only the sample mask and the store remain. */
void eg_soft_shade_const_block(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    eg_soft_mask_t pix = 0;
    for (uint32_t s = 0; s < f->samples; s++) {
        if (!(f->rs->sample_mask >> s & 1u)) cov[s] = 0;
        pix |= cov[s];
    }
    if (!pix) return;
    f->w->const_blocks++;
    write_colors(f, bx, by, cov, true);
}

/* write_colors' uniform case when it reduces to eg_soft_blend_const on target 0. */
bool eg_soft_shade_const_rect(eg_soft_frag_t *f, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    const eg_soft_fb_t *fb = f->ps->fb;
    const eg_soft_target_t *t = &fb->color[0];
    if (f->samples != 1u || !(rs->sample_mask & 1u) || rs->rt_count != 1u || fb->color_count < 1u || !rs->blend_fast[0] ||
        !eg_soft_raster_fast_paths || !rs->blend[0].wmask || !t->base)
        return false;
    eg_soft_blend_const_rect(t, t->base + (size_t)y0 * t->row_pitch_B + (size_t)x0 * t->elem_B, w, h, &f->w->io_out[0],
                             rs->blend_fast[0]);
    f->w->const_blocks += (w / 4u) * (h / 4u);
    return true;
}

void eg_soft_shade_block(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES])
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
#if SHADE_AVX2
    /* the texture's per-triangle check first: shade() runs the VM where it fails */
    if (f->mesh_fast && eg_soft_tex_prep(f)) {
        eg_soft_shade_mesh(f, bx, by, cov);
        return;
    }
    if (!rs->fs_tex && f->vm_state && (!rs->fs_const || f->no_const_proof)) {
        if (f->vm_hold) shade_vm_held(f, bx, by, cov);
        else shade_vm(f, bx, by, cov);
        return;
    }
#endif
    if (!rs->fs || !rs->fs->uses_sample_id || f->samples == 1u) {
        shade(f, bx, by, cov, 0, false);
        return;
    }
    /* Sample shading (Vulkan "Sample Shading", implied by SampleId or a Sample-qualified input,
     * WGSL @interpolate(_, sample)): one run per covered sample with only that sample's
     * coverage; Sample-qualified inputs at the sample's position, the others at the centre. */
    for (uint32_t s = 0; s < f->samples; s++) {
        eg_soft_mask_t one[EG_SOFT_MAX_SAMPLES] = { 0 };
        one[s] = cov[s];
        if (one[s]) shade(f, bx, by, one, s, true);
    }
}

#if SHADE_AVX2
/* eg_soft_shade_run for f->jit_fast (helper "blk8"): shade()'s steps for wholly covered blocks
 * with the tests done once per triangle, the invocation set up once per run. */
static SHADE_AVX2_ATTR void jit_run(eg_soft_frag_t *f, uint32_t bx, uint32_t by, uint32_t n)
{
    const struct eg_soft_raster_pipeline *rs = f->rs;
    eg_vm_jit_whole_fn_t whole = jit_whole(rs->fs);
    bool persp = rs->persp_used || (rs->frag_coord_used & 8u), fc = rs->fsi->uses_frag_coord;
    bool bary = persp || rs->nvary;
    eg_soft_reg_t *const regs = f->w->vm_regs;
    eg_soft_invocation_t inv;
    bary_t b;
    static const eg_soft_mask_t all[EG_SOFT_MAX_SAMPLES] = { EG_SOFT_ALL_LANES };
    inv.in = f->w->io_in;
    inv.out = f->w->io_out;
    inv.regs = f->w->vm_regs;
    inv.front_facing = (!f->t->is_polygon || f->s.front) ? EG_SOFT_ALL_LANES : 0;
    inv.helper = 0;
    inv.active = EG_SOFT_ALL_LANES;
    inv.sample_id = 0;
    if (!rs->nvary) f->w->in_uniform = 0;
    if (fc) frag_coord_xy(&inv, bx, by);
    const eg_soft_target_t *t = f->out_t;
    uint8_t *blk = f->jit_pack ? t->base + (size_t)by * t->row_pitch_B + (size_t)bx * t->elem_B : NULL;
#if EMGPU_SOFT_JIT
    uint8_t order[4];
    const eg_soft_program_t *p = rs->fs;
    /* the program and the pack looped in native code (soft_jit.c j_rows): no per-block input
     * but FragCoord.xy, whose x it steps by 4 (exact below 2^22, as below) */
    if (blk && !bary && bx + 4u * n < (1u << 22) && eg_soft_pack_full_order(f->jit_pack, order) &&
        p->jit_rows_at[order[0] == 2u]) {   /* (order 2, 1, 0, 3: BGRA) */
        eg_vm_jit_rows_t a;
        for (uint32_t r = 0; r < 4u; r++) a.row[r] = blk + (size_t)r * t->row_pitch_B;
        a.n = n;
        if (!fc) frag_coord_xy(&inv, bx, by);   /* (defined values for the steps) */
        ((eg_vm_jit_rows_fn_t)(uintptr_t)(p->jit + p->jit_rows_at[order[0] == 2u]))(regs, &inv, &a);
        return;
    }
#endif
    for (uint32_t i = 0; i < n; i++, bx += 4u) {
        if (bary) barycentrics_avx2(f, bx, by, &b, persp);
        if (rs->nvary) interpolate_avx2(f, &b);
        if (fc && i) {
            /* frag_coord_xy's x, (float)(bx + c) + 0.5, is the last block's + 4 exactly below
             * 2^22, where every half-integer is a float */
            if (bx < (1u << 22))
                for (uint32_t l = 0; l < EG_SOFT_LANES; l += 8u) {
                    v8f x;
                    __builtin_memcpy(&x, inv.position.c[0].f + l, 32);
                    x = x + V8(4.0f);
                    __builtin_memcpy(inv.position.c[0].f + l, &x, 32);
                }
            else frag_coord_xy(&inv, bx, by);
        }
        if (fc && persp) for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv.position.c[3].f[l] = b.w1[l];
        whole(regs, &inv);
        if (blk) {
            f->jit_pack(blk, t->row_pitch_B, &f->w->io_out[0]);
            blk += 4u * 4u;   /* 4 texels of 4 bytes (eg_soft_pack_full_of) */
        } else {
            write_colors(f, bx, by, all, false);
        }
    }
}
#endif

void eg_soft_shade_run(eg_soft_frag_t *f, uint32_t bx, uint32_t by, uint32_t n)
{
#if SHADE_AVX2
    if (f->jit_fast) {
        jit_run(f, bx, by, n);
        return;
    }
#endif
    for (uint32_t i = 0; i < n; i++, bx += 4u) {
        eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES] = { 0 };
        for (uint32_t s = 0; s < f->samples; s++) cov[s] = EG_SOFT_ALL_LANES;
        eg_soft_shade_block(f, bx, by, cov);
    }
}

#endif /* EMGPU_HAL_SOFT */
