/* hal/gles programs: the flat binding table per pipeline, the program cache, pipelines and
 * bind-group checks.
 *
 * A GL program is keyed by its shader modules, entry points and pipeline layout (the layout
 * decides the flat binding indices baked into the translated GLSL). Pipelines with the same key
 * share one cached program (refcounted); unreferenced programs stay cached until their slot is
 * needed (oldest first) or their module or layout is destroyed. The cache is a static array of
 * EMGPU_GLES_PROGRAM_CACHE entries.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/bind_group.h"
#include "kernel/api/compute_pipeline.h"
#include "kernel/api/error.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/render_pipeline.h"
#include "kernel/api/shader_module.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/base/fmt.h"
#include "kernel/base/log.h"

_Static_assert(sizeof(eg_gl_pipeline_t) <= sizeof(eg_hal_priv_t), "eg_gl_pipeline_t fits eg_hal_priv_t");
_Static_assert(sizeof(eg_gl_view_t) <= sizeof(eg_hal_priv_t), "eg_gl_view_t fits eg_hal_priv_t");

static eg_gl_program_t g_programs[EMGPU_GLES_PROGRAM_CACHE];
/* Slots in use: the knob, or fewer when a test asks (eg_gl_program_cache_limit), so that cache
 * exhaustion is testable with the default knob, which covers every pipeline slot. */
static uint32_t g_program_limit = EMGPU_GLES_PROGRAM_CACHE;

void eg_gl_program_cache_limit(uint32_t slots);   /* test hook, declared by tests/unit/gles_test.c */
void eg_gl_program_cache_limit(uint32_t slots)
{
    g_program_limit = slots && slots < EMGPU_GLES_PROGRAM_CACHE ? slots : EMGPU_GLES_PROGRAM_CACHE;
}
static uint64_t g_use_clock;

eg_gl_program_t *eg_gl_program(uint32_t slot_plus_one)
{
    return slot_plus_one ? &g_programs[slot_plus_one - 1u] : NULL;
}

/* ---- the flat binding table ---- */

static bool add_binding(eg_gl_program_t *p, uint32_t group, uint32_t binding, uint32_t kind)
{
    for (uint32_t i = 0; i < p->binding_count; i++)
        if (p->bindings[i].group == group && p->bindings[i].binding == binding) return true;
    if (p->binding_count >= EG_GL_MAX_PROGRAM_BINDINGS) return false;
    eg_gl_binding_t *b = &p->bindings[p->binding_count++];
    b->group = (uint8_t)group;
    b->binding = (uint16_t)binding;
    b->kind = (uint8_t)kind;
    return true;
}

static uint32_t kind_of_layout_entry(const eg_bgl_entry_t *e)
{
    switch (e->kind) {
    case EG_BINDING_BUFFER: return e->buffer_type == WGPUBufferBindingType_Uniform ? EG_GL_BIND_UBO : EG_GL_BIND_SSBO;
    case EG_BINDING_SAMPLER: return EG_GL_BIND_SAMPLER;
    case EG_BINDING_TEXTURE: return EG_GL_BIND_TEXTURE;
    default: return EG_GL_BIND_IMAGE;
    }
}

static uint32_t kind_of_reflected(const eg_shader_binding_t *b)
{
    switch (b->kind) {
    case EG_SHADER_BINDING_UNIFORM: return EG_GL_BIND_UBO;
    case EG_SHADER_BINDING_STORAGE_READ_ONLY: case EG_SHADER_BINDING_STORAGE: return EG_GL_BIND_SSBO;
    case EG_SHADER_BINDING_SAMPLED_TEXTURE: return EG_GL_BIND_TEXTURE;
    case EG_SHADER_BINDING_SAMPLER: return EG_GL_BIND_SAMPLER;
    default: return EG_GL_BIND_IMAGE;
    }
}

/* Sorted by (group, binding), then numbered per kind in that order: the GLES linearization. */
static bool build_bindings(eg_gl_program_t *p, eg_shader_stage_t first_stage, uint32_t stages)
{
    p->binding_count = 0;
    if (p->layout) {
        for (uint32_t g = 0; g < p->layout->group_count; g++) {
            const eg_bind_group_layout_t *bgl = p->layout->groups[g];
            for (uint32_t i = 0; bgl && i < bgl->entry_count; i++)
                if (!add_binding(p, g, bgl->entries[i].binding, kind_of_layout_entry(&bgl->entries[i])))
                    return false;
        }
    } else {
        /* Auto layout before reflection-built layouts exist: the shaders' own bindings. */
        for (uint32_t s = 0; s < stages; s++) {
            const eg_shader_entry_t *e = eg_spirv_find_entry(&p->mod[s]->spirv,
                                                             (eg_shader_stage_t)(first_stage + s), p->entry[s]);
            for (uint32_t i = 0; e && i < e->binding_count; i++)
                if (!add_binding(p, e->bindings[i].group, e->bindings[i].binding, kind_of_reflected(&e->bindings[i])))
                    return false;
        }
        for (uint32_t i = 1; i < p->binding_count; i++)   /* insertion sort: a few dozen at most */
            for (uint32_t j = i; j > 0; j--) {
                eg_gl_binding_t *a = &p->bindings[j - 1], *b = &p->bindings[j];
                if (a->group < b->group || (a->group == b->group && a->binding < b->binding)) break;
                eg_gl_binding_t t = *a; *a = *b; *b = t;
            }
    }
    uint16_t next[5] = { 0 };
    for (uint32_t i = 0; i < p->binding_count; i++) p->bindings[i].flat = next[p->bindings[i].kind]++;
    return true;
}

/* ---- linking ---- */

static GLuint empty_fragment_shader(eg_hal_device_t *dev)
{
    static const char src30[] = "#version 300 es\nvoid main() {}\n";
    static const char src31[] = "#version 310 es\nvoid main() {}\n";
    const char *src = dev->es31 ? src31 : src30;
    GLuint sh = eg_gl.CreateShader(GL_FRAGMENT_SHADER);
    eg_gl.ShaderSource(sh, 1, &src, NULL);
    eg_gl.CompileShader(sh);
    return sh;
}

/* After link: GLES 3.00 has no layout(binding), so blocks and samplers are bound by name. */
static void bind_by_name(eg_gl_program_t *p)
{
    char name[24];
    eg_gl.UseProgram(p->program);
    for (uint32_t i = 0; i < p->binding_count; i++) {
        if (p->bindings[i].kind != EG_GL_BIND_UBO) continue;
        eg_fmt(name, sizeof name, "eg_ubB%u", (unsigned)p->bindings[i].flat);
        GLuint idx = eg_gl.GetUniformBlockIndex(p->program, name);
        if (idx != GL_INVALID_INDEX) eg_gl.UniformBlockBinding(p->program, idx, p->bindings[i].flat);
    }
    for (uint32_t u = 0; u < p->unit_count; u++) {
        eg_fmt(name, sizeof name, "eg_ts%u", (unsigned)u);
        GLint loc = eg_gl.GetUniformLocation(p->program, name);
        if (loc >= 0) eg_gl.Uniform1i(loc, (GLint)u);
    }
    p->base_instance_loc = eg_gl.GetUniformLocation(p->program, "SPIRV_Cross_BaseInstance");
    for (uint32_t i = 0; i < p->binding_count; i++) {   /* textureQueryLevels emulation (gl_shader.c) */
        p->levels_loc[i] = -1;
        if (p->bindings[i].kind != EG_GL_BIND_TEXTURE) continue;
        eg_fmt(name, sizeof name, "eg_lv_s%u_b%u", (unsigned)p->bindings[i].group, (unsigned)p->bindings[i].binding);
        p->levels_loc[i] = eg_gl.GetUniformLocation(p->program, name);
    }
    for (uint32_t i = 0; i < p->binding_count; i++) {   /* arrayLength (gl_robust.c) */
        p->len_loc[i] = -1;
        if (p->bindings[i].kind != EG_GL_BIND_SSBO && p->bindings[i].kind != EG_GL_BIND_UBO) continue;
        eg_fmt(name, sizeof name, "eg_len_s%u_b%u", (unsigned)p->bindings[i].group, (unsigned)p->bindings[i].binding);
        p->len_loc[i] = eg_gl.GetUniformLocation(p->program, name);
    }
}

static bool link_program(eg_hal_device_t *dev, eg_gl_program_t *p, bool compute)
{
    GLuint sh[2] = { 0, 0 };
    uint32_t n = compute ? 1u : 2u;
    for (uint32_t s = 0; s < n; s++) {
        eg_shader_stage_t stage = compute ? EG_SHADER_STAGE_COMPUTE : (eg_shader_stage_t)s;
        sh[s] = p->mod[s] ? eg_gl_shader_compile(dev, p, s, stage) : empty_fragment_shader(dev);
        if (!sh[s]) break;
    }
    bool ok = sh[0] && (compute || sh[1]);
    if (ok) {
        p->program = eg_gl.CreateProgram();
        for (uint32_t s = 0; s < n; s++) eg_gl.AttachShader(p->program, sh[s]);
        eg_gl.LinkProgram(p->program);
        GLint linked = 0;
        eg_gl.GetProgramiv(p->program, GL_LINK_STATUS, &linked);
        if (!linked) {
            char log[512];
            eg_gl.GetProgramInfoLog(p->program, (GLsizei)sizeof log, NULL, log);
            eg_log(EG_LOG_ERROR, "gles: program link failed: %s", log);
            eg_gl.DeleteProgram(p->program);
            p->program = 0;
            ok = false;
        }
    }
    for (uint32_t s = 0; s < n; s++)
        if (sh[s]) eg_gl.DeleteShader(sh[s]);
    if (ok) bind_by_name(p);
    return ok;
}

/* ---- the cache ---- */

static bool key_equal(const eg_gl_program_t *p, eg_hal_device_t *dev, const eg_stage_t *st, uint32_t n,
                      const eg_pipeline_layout_t *layout)
{
    if (!p->program || p->dev != dev || p->layout != layout) return false;
    for (uint32_t s = 0; s < 2; s++) {
        const eg_shader_module_t *m = s < n ? st[s].module : NULL;
        if (p->mod[s] != m) return false;
        if (m && eg_strcmp(p->entry[s], st[s].entry_point) != 0) return false;
    }
    return true;
}

static void drop(eg_gl_program_t *p)
{
    if (p->program) eg_gl.DeleteProgram(p->program);
    eg_memset(p, 0, sizeof *p);
}

/* A cached program or a freshly linked one; 0 with *full set when every slot is in use. */
static uint32_t acquire(eg_hal_device_t *dev, const eg_stage_t *st, uint32_t n,
                        const eg_pipeline_layout_t *layout, bool *full)
{
    eg_gl_program_t *victim = NULL;
    *full = false;
    for (uint32_t i = 0; i < g_program_limit; i++) {
        eg_gl_program_t *p = &g_programs[i];
        if (key_equal(p, dev, st, n, layout)) {
            p->refs++;
            p->last_use = ++g_use_clock;
            return i + 1u;
        }
        if (p->refs == 0 && (!victim || !p->program || (victim->program && p->last_use < victim->last_use)))
            victim = p;
    }
    if (!victim) { *full = true; return 0; }
    if (victim->program) { eg_gl_begin(victim->dev); drop(victim); eg_gl_begin(dev); }
    eg_gl_program_t *p = victim;
    p->dev = dev;
    p->layout = layout;
    for (uint32_t s = 0; s < n; s++) {
        p->mod[s] = st[s].module;
        if (st[s].module) eg_fmt(p->entry[s], sizeof p->entry[s], "%s", st[s].entry_point);
    }
    p->base_instance_loc = -1;
    bool compute = n == 1;
    if (!build_bindings(p, compute ? EG_SHADER_STAGE_COMPUTE : EG_SHADER_STAGE_VERTEX, p->mod[1] ? 2u : 1u) ||
        !link_program(dev, p, compute)) {
        drop(p);
        return 0;
    }
    p->refs = 1;
    p->last_use = ++g_use_clock;
    return (uint32_t)(p - g_programs) + 1u;
}

static eg_status_t pipeline_create(eg_hal_device_t *dev, eg_gl_pipeline_t *gp,
                                   const eg_stage_t *st, uint32_t n, const eg_pipeline_layout_t *layout)
{
    eg_gl_begin(dev);
    bool full = false;
    gp->program = acquire(dev, st, n, layout, &full);
    if (gp->program) return EG_STATUS_OK;
    if (full) {
        eg_hal_error_detail(WGPUErrorType_OutOfMemory, EG_E_GLES_PROGRAM_CACHE_FULL,
                            "the GLES program cache is full: all %u programs are used by live pipelines "
                            "(EMGPU_GLES_PROGRAM_CACHE = %u); release pipelines or raise the knob",
                            (unsigned)g_program_limit, (unsigned)g_program_limit);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    const char *why = eg_gl_shader_last_error();
    eg_hal_error_detail(WGPUErrorType_Internal, EG_E_GLES_SHADER_TRANSLATION,
                        "translating its shaders to GLSL ES failed: %s", why[0] ? why : "see the log");
    return EG_STATUS_INTERNAL;
}

static void release(uint32_t slot_plus_one)
{
    eg_gl_program_t *p = eg_gl_program(slot_plus_one);
    if (p && p->refs) p->refs--;
}

static bool same_target_state(const eg_color_target_t *a, const eg_color_target_t *b)
{
    if (a->write_mask != b->write_mask || a->blend_enabled != b->blend_enabled) return false;
    return !a->blend_enabled || eg_memcmp(&a->blend, &b->blend, sizeof a->blend) == 0;
}

eg_status_t eg_gl_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    /* GLES 3.0/3.1 core have one blend state and color mask for all draw buffers. */
    const eg_color_target_t *first = NULL;
    for (uint32_t i = 0; i < rp->color_target_count && !dev->indexed_blend; i++) {
        const eg_color_target_t *t = &rp->color_targets[i];
        if (t->format == WGPUTextureFormat_Undefined) continue;
        if (!first) { first = t; continue; }
        if (same_target_state(first, t)) continue;
        eg_hal_error_detail(WGPUErrorType_Validation, EG_E_GLES_PER_TARGET_BLEND,
                            "fragment.targets[%u] has another blend state or writeMask than the first "
                            "target; this GLES context has one for all attachments (per-attachment state "
                            "needs GLES 3.2 or OES_draw_buffers_indexed): give every target the same blend "
                            "and writeMask", (unsigned)i);
        return EG_STATUS_UNAVAILABLE;
    }
    eg_stage_t st[2] = { rp->vertex, rp->fragment };
    return pipeline_create(dev, EG_GL_PRIV(rp, eg_gl_pipeline_t), st, 2, rp->layout);
}

void eg_gl_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    (void)dev;
    release(EG_GL_PRIV(rp, eg_gl_pipeline_t)->program);
}

eg_status_t eg_gl_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    return pipeline_create(dev, EG_GL_PRIV(cp, eg_gl_pipeline_t), &cp->compute, 1, cp->layout);
}

void eg_gl_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    (void)dev;
    release(EG_GL_PRIV(cp, eg_gl_pipeline_t)->program);
}

void eg_gl_shader_module_forget(eg_hal_device_t *dev, const eg_shader_module_t *sm)
{
    eg_gl_begin(dev);
    for (uint32_t i = 0; i < EMGPU_GLES_PROGRAM_CACHE; i++)
        if (g_programs[i].dev == dev && (g_programs[i].mod[0] == sm || g_programs[i].mod[1] == sm))
            drop(&g_programs[i]);
}

void eg_gl_pipeline_layout_forget(eg_hal_device_t *dev, const eg_pipeline_layout_t *pl)
{
    eg_gl_begin(dev);
    for (uint32_t i = 0; i < EMGPU_GLES_PROGRAM_CACHE; i++)
        if (g_programs[i].dev == dev && g_programs[i].layout == pl) drop(&g_programs[i]);
}

void eg_gl_programs_close(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_GLES_PROGRAM_CACHE; i++)
        if (g_programs[i].dev == dev) drop(&g_programs[i]);
}

/* ---- bind groups: a texture view GLES cannot sample is reported here, where it is bound ---- */

eg_status_t eg_gl_bind_group_create(eg_hal_device_t *dev, eg_bind_group_t *bg);

eg_status_t eg_gl_bind_group_create(eg_hal_device_t *dev, eg_bind_group_t *bg)
{
    (void)dev;
    for (uint32_t i = 0; i < bg->entry_count; i++) {
        const eg_bind_entry_t *e = &bg->entries[i];
        if (!e->view || EG_GL_PRIV(e->view, eg_gl_view_t)->sampleable) continue;
        eg_hal_error_detail(WGPUErrorType_Validation, EG_E_GLES_VIEW_UNSUPPORTED,
                            "entries[%u] (binding %u): GLES cannot express texture view \"%s\" (layers %u..%u "
                            "of %u, dimension 0x%x, format %s): GLES has no texture views (glTextureView "
                            "does not exist); bind a view of the whole texture with its own dimension and "
                            "format", (unsigned)i, (unsigned)e->binding, e->view->obj.label,
                            (unsigned)e->view->base_array_layer,
                            (unsigned)(e->view->base_array_layer + e->view->array_layer_count - 1u),
                            (unsigned)eg_texture_layer_count(e->view->texture), (unsigned)e->view->dimension,
                            e->view->fi ? e->view->fi->name : "?");
        return EG_STATUS_UNAVAILABLE;
    }
    return EG_STATUS_OK;
}

#endif /* EMGPU_HAL_GLES */
