/* hal/soft one-texture fragment programs on the block path: the sample without the VM (depth-tested meshes).
 *
 * WHY. The span path (soft_span.c) runs "output = texture sample (times a color)" programs with
 * no VM call, but only for UI-type draws (no depth, one sample, 8-bit targets, simple blend). A
 * textured, depth-tested mesh takes the 4x4 block path, where the VM spent a third of the
 * fragment time decoding and dispatching that one SAMPLE.
 *
 * WHAT. A fragment program of the span class (soft_vm_classify.c: straight-line, one 2D
 * textureSample at two inputs, outputs each a texel component, an input or a constant, texel
 * components optionally times an input or a constant) gets r->fs_tex at pipeline creation. Per
 * triangle (eg_soft_tex_prep) the bound view and sampler must make the level of detail
 * irrelevant, exactly as the span path requires: a 2D view of one mip level and equal min and
 * mag filters. Then (eg_soft_tex_block) the block's lanes are sampled with eg_soft_sample at
 * level 0, the very function the VM's SAMPLE calls with the same coordinates (the input
 * registers the program loads), and the outputs are formed with the program's operations in its
 * operand order, so the bytes are the VM's; per-lane results do not depend on which lanes run
 * together once the level of detail cannot matter. Anything else: the VM runs.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm.h"
#include "kernel/api/sampler.h"
#include "kernel/api/texture_view.h"

struct eg_soft_tex_prog {
    eg_soft_span_class_t cls;
    bool identity;   /* cls_identity */
};

/* Whether the program's output is the texel itself (output c = texel component c, no factor):
 * then the sample can go straight into the output registers. */
static bool cls_identity(const eg_soft_span_class_t *cls)
{
    for (uint32_t c = 0; c < 4u; c++)
        if (cls->src[c] != (EG_SOFT_SPAN_TEX | c) || cls->mul[c] != EG_SOFT_SPAN_NONE) return false;
    return true;
}

eg_status_t eg_soft_tex_create(struct eg_soft_raster_pipeline *r)
{
    eg_soft_span_class_t cls;
    r->fs_tex = NULL;
    if (!r->fs || r->fs_copy || r->alpha_to_coverage || r->fs->writes_sample_mask || r->fs->uses_sample_id ||
        !eg_soft_program_span_class(r->fs, &cls) || !cls.tex)
        return EG_STATUS_OK;
    r->fs_tex = eg_soft_heap_alloc(sizeof *r->fs_tex);
    if (!r->fs_tex) return EG_STATUS_OUT_OF_MEMORY;
    r->fs_tex->cls = cls;
    r->fs_tex->identity = cls_identity(&cls);
    return EG_STATUS_OK;
}

void eg_soft_tex_destroy(struct eg_soft_raster_pipeline *r)
{
    if (r->fs_tex) eg_soft_heap_free(r->fs_tex);
    r->fs_tex = NULL;
}

/* eg_soft_tex_prep's results per worker for the last draw it saw (helper "tex8", session 8): the
 * bind, the view and sampler tests and the fast path's set-up were ~300 instructions a triangle
 * (7 M of the bench's textured mesh). They depend only on the pipeline and the bound groups,
 * which a draw's serial (eg_soft_pass_state_t) fixes, and on the fast-path switch. */
typedef struct tex_cache {
    EG_SOFT_OWN_LINE uint64_t serial;
    const eg_soft_pass_state_t *ps;
    const struct eg_soft_raster_pipeline *rs;
    bool fast_paths;
    int32_t state;
    const void *view, *sampler;
    bool fast_ok;
    struct eg_soft_sample_fast fast;
    /* eg_soft_tex_mesh_kind's answer for the draw: 0 not asked yet */
    int32_t mesh_kind;
    const float *mesh_u, *mesh_v;
    uint8_t mesh_ju, mesh_jv;
} tex_cache_t;
static tex_cache_t tex_cache[EMGPU_SOFT_MAX_THREADS];

/* The worker's entry when it holds f's draw, else NULL. */
static tex_cache_t *tex_cache_of(const eg_soft_frag_t *f)
{
    tex_cache_t *c = f->w->index < EG_ARRAY_LEN(tex_cache) && f->ps->serial ? &tex_cache[f->w->index] : NULL;
    return c && c->serial == f->ps->serial && c->ps == f->ps && c->rs == f->rs &&
                   c->fast_paths == eg_soft_raster_fast_paths
               ? c
               : NULL;
}

bool eg_soft_tex_prep(eg_soft_frag_t *f)
{
    if (f->tex_state == 0) {
        tex_cache_t *c = tex_cache_of(f);
        if (c) {
            f->tex_state = c->state;
            f->tex_view = c->view;
            f->tex_sampler = c->sampler;
            f->tex_fast_ok = c->fast_ok;
            f->tex_fast = c->fast;
            return f->tex_state > 0;
        }
        const struct eg_soft_raster_pipeline *rs = f->rs;
        eg_vm_res_t res;
        eg_vm_bind(rs->fs, &f->ps->bound, &res);
        const eg_texture_view_t *view = res.obj[rs->fs_tex->cls.tex_slot];
        const eg_sampler_t *smp = res.obj[rs->fs_tex->cls.smp_slot];
        /* one level and min == mag: the level of detail cannot change a result */
        bool ok = view && smp && view->dimension == WGPUTextureViewDimension_2D && view->mip_level_count == 1u &&
                  smp->desc.magFilter == smp->desc.minFilter;
        f->tex_view = view;
        f->tex_sampler = smp;
        f->tex_state = ok ? 1 : -1;
        /* eg_soft_sample's per-call set-up (level, format, modes) once per triangle */
        f->tex_fast_ok = ok && eg_soft_raster_fast_paths && eg_soft_sample_fast_prep(view, smp, &f->tex_fast);
        if (f->w->index < EG_ARRAY_LEN(tex_cache) && f->ps->serial) {
            tex_cache[f->w->index] = (tex_cache_t){ f->ps->serial, f->ps, rs, eg_soft_raster_fast_paths, f->tex_state,
                                                    view, smp, f->tex_fast_ok, f->tex_fast, 0, NULL, NULL, 0, 0 };
        }
    }
    return f->tex_state > 0;
}

/* eg_soft_tex_block's first case when eg_soft_sample_fast then takes its first one (the
 * 8-lane bilinear loop): shade_mesh calls that loop itself, these tests done once a triangle. */
bool eg_soft_tex_direct(const eg_soft_frag_t *f, const float **u, const float **v)
{
    const struct eg_soft_tex_prog *tp = f->rs->fs_tex;
    if (!f->tex_fast_ok || !tp->identity || !eg_soft_sample_rgba8_avx2_ok(&f->tex_fast)) return false;
    *u = f->w->io_in[tp->cls.uv[0] >> 2].c[tp->cls.uv[0] & 3u].f;
    *v = f->w->io_in[tp->cls.uv[1] >> 2].c[tp->cls.uv[1] & 3u].f;
    return true;
}

int32_t eg_soft_tex_mesh_kind(eg_soft_frag_t *f)
{
    tex_cache_t *c = tex_cache_of(f);
    if (c && c->mesh_kind) {
        f->mesh_u = c->mesh_u;
        f->mesh_v = c->mesh_v;
        f->mesh_ju = c->mesh_ju;
        f->mesh_jv = c->mesh_jv;
        return c->mesh_kind;
    }
    int32_t k = eg_soft_tex_direct(f, &f->mesh_u, &f->mesh_v) ? 1 : -1;
    if (k > 0 && eg_soft_mesh_block_ok(f)) k = 2;
    if (c) {
        c->mesh_kind = k;
        c->mesh_u = f->mesh_u;
        c->mesh_v = f->mesh_v;
        c->mesh_ju = f->mesh_ju;
        c->mesh_jv = f->mesh_jv;
    }
    return k;
}

/* One output component over all lanes (soft_span.c shade_comp, the same operations). */
static void out_comp(const eg_soft_span_class_t *cls, uint32_t c, const eg_soft_worker_t *w, const eg_soft_vec4_t *tex,
                     eg_soft_reg_t *out)
{
    uint32_t src = cls->src[c];
    if (src & EG_SOFT_SPAN_CONST) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) out->u[l] = cls->src_bits[c];
        return;
    }
    if (!(src & EG_SOFT_SPAN_TEX)) { *out = w->io_in[src >> 2].c[src & 3u]; return; }
    const eg_soft_reg_t *t = &tex->c[src & 3u];
    uint32_t mul = cls->mul[c];
    if (mul == EG_SOFT_SPAN_NONE) { *out = *t; return; }
    eg_soft_reg_t m;
    if (mul & EG_SOFT_SPAN_CONST) for (uint32_t l = 0; l < EG_SOFT_LANES; l++) m.u[l] = cls->mul_bits[c];
    else m = w->io_in[mul >> 2].c[mul & 3u];
    /* FMUL's operand order kept: with two NaNs the first one's payload wins on some CPUs */
    if (cls->mul_first[c]) for (uint32_t l = 0; l < EG_SOFT_LANES; l++) out->f[l] = m.f[l] * t->f[l];
    else for (uint32_t l = 0; l < EG_SOFT_LANES; l++) out->f[l] = t->f[l] * m.f[l];
}

void eg_soft_tex_block(const eg_soft_frag_t *f, eg_soft_mask_t lanes)
{
    const eg_soft_span_class_t *cls = &f->rs->fs_tex->cls;
    eg_soft_worker_t *w = f->w;
    if (f->tex_fast_ok && f->rs->fs_tex->identity) {
        /* the texel is the output: sampled into it, no copies (lanes outside `lanes` keep the
         * worker's old, defined bits and are never stored) */
        eg_soft_sample_fast(&f->tex_fast, w->io_in[cls->uv[0] >> 2].c[cls->uv[0] & 3u].f,
                            w->io_in[cls->uv[1] >> 2].c[cls->uv[1] & 3u].f, lanes, &w->io_out[0]);
        return;
    }
    /* every field set, and tex cleared only for partial blocks: two memset calls per block were
     * 5% of a textured mesh */
    eg_soft_sample_op_t op;
    eg_soft_vec4_t tex;
    if (lanes != EG_SOFT_ALL_LANES)   /* lanes outside `lanes` are never stored; keep them defined */
        tex = (eg_soft_vec4_t){ 0 };
    op.view = f->tex_view;
    op.sampler = f->tex_sampler;
    op.coord[0] = &w->io_in[cls->uv[0] >> 2].c[cls->uv[0] & 3u];
    op.coord[1] = &w->io_in[cls->uv[1] >> 2].c[cls->uv[1] & 3u];
    op.coord[2] = op.layer = op.lod_or_bias = op.compare = NULL;
    op.ddx[0] = op.ddx[1] = op.ddx[2] = op.ddy[0] = op.ddy[1] = op.ddy[2] = NULL;
    op.offset = NULL;
    op.lod_mode = EG_SOFT_LOD_EXPLICIT;   /* lod_or_bias NULL: 0 */
    op.mask = lanes;
    if (f->tex_fast_ok) eg_soft_sample_fast(&f->tex_fast, op.coord[0]->f, op.coord[1]->f, lanes, &tex);
    else eg_soft_sample(&op, &tex);
    eg_soft_vec4_t out;
    for (uint32_t c = 0; c < 4u; c++) out_comp(cls, c, w, &tex, &out.c[c]);
    w->io_out[0] = out;
}

#endif /* EMGPU_HAL_SOFT */
