/* hal/gles draws and dispatches: pipeline state, bind groups, vertex input (bound lazily at each
 * draw), first-instance and base-vertex emulation, indirect arguments.
 *
 * GLES has no base instance and (before 3.2) no base vertex. Both are emulated by moving the
 * attribute pointers: instance-rate attributes start first_instance strides later, vertex-rate
 * ones base_vertex strides later (only where glDrawElementsInstancedBaseVertex of GLES 3.2 or
 * OES/EXT_draw_elements_base_vertex is missing: the shift leaves gl_VertexIndex without the base),
 * and SPIRV-Cross's SPIRV_Cross_BaseInstance uniform restores gl_InstanceIndex.
 * Flat varyings take the LAST vertex of a primitive on GLES (no provoking-vertex control),
 * WebGPU core the first: WebGPU compatibility mode allows only @interpolate(flat, either). That is why vertex buffers are bound at the draw, not at SetVertexBuffer.
 * Indirect arguments are read on the CPU (a mapped read of 16/20 bytes), which works on 3.0 and
 * lets the same emulation apply.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/bind_group.h"
#include "kernel/api/buffer.h"
#include "kernel/api/compute_pipeline.h"
#include "kernel/api/render_pipeline.h"
#include "kernel/api/sampler.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/base/log.h"
#include "kernel/cmd/cmd.h"

/* ---- fixed-function state ---- */

static GLenum gl_compare(WGPUCompareFunction f) { return GL_NEVER + (GLenum)f - 1u; }

static GLenum gl_blend_factor(WGPUBlendFactor f)
{
    static const GLenum t[] = { GL_ZERO, GL_ZERO, GL_ONE, GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR, GL_SRC_ALPHA,
        GL_ONE_MINUS_SRC_ALPHA, GL_DST_COLOR, GL_ONE_MINUS_DST_COLOR, GL_DST_ALPHA, GL_ONE_MINUS_DST_ALPHA,
        GL_SRC_ALPHA_SATURATE, GL_CONSTANT_COLOR, GL_ONE_MINUS_CONSTANT_COLOR };
    return (uint32_t)f < EG_ARRAY_LEN(t) ? t[f] : GL_ONE;
}

static GLenum gl_blend_op(WGPUBlendOperation o)
{
    static const GLenum t[] = { GL_FUNC_ADD, GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT, GL_MIN, GL_MAX };
    return (uint32_t)o < EG_ARRAY_LEN(t) ? t[o] : GL_FUNC_ADD;
}

static GLenum gl_stencil_op(WGPUStencilOperation o)
{
    static const GLenum t[] = { GL_KEEP, GL_KEEP, GL_ZERO, GL_REPLACE, GL_INVERT, GL_INCR, GL_DECR, GL_INCR_WRAP,
                                GL_DECR_WRAP };
    return (uint32_t)o < EG_ARRAY_LEN(t) ? t[o] : GL_KEEP;
}

static void apply_stencil(const eg_render_pipeline_t *rp, uint32_t ref)
{
    const WGPUDepthStencilState *ds = &rp->depth_stencil;
    eg_gl.StencilFuncSeparate(GL_FRONT, gl_compare(ds->stencilFront.compare), (GLint)ref, ds->stencilReadMask);
    eg_gl.StencilFuncSeparate(GL_BACK, gl_compare(ds->stencilBack.compare), (GLint)ref, ds->stencilReadMask);
}

static void apply_depth_stencil(const eg_render_pipeline_t *rp, uint32_t ref)
{
    if (!rp->has_depth_stencil) {
        eg_gl.Disable(GL_DEPTH_TEST);
        eg_gl.Disable(GL_STENCIL_TEST);
        eg_gl.Disable(GL_POLYGON_OFFSET_FILL);
        return;
    }
    const WGPUDepthStencilState *ds = &rp->depth_stencil;
    eg_gl.Enable(GL_DEPTH_TEST);   /* with no depth aspect GL skips the test itself */
    eg_gl.DepthFunc(gl_compare(ds->depthCompare));
    eg_gl.DepthMask(rp->depth_write_enabled ? GL_TRUE : GL_FALSE);
    eg_gl.Enable(GL_STENCIL_TEST);
    apply_stencil(rp, ref);
    const WGPUStencilFaceState *f[2] = { &ds->stencilFront, &ds->stencilBack };
    for (uint32_t i = 0; i < 2; i++)
        eg_gl.StencilOpSeparate(i ? GL_BACK : GL_FRONT, gl_stencil_op(f[i]->failOp),
                                gl_stencil_op(f[i]->depthFailOp), gl_stencil_op(f[i]->passOp));
    eg_gl.StencilMaskSeparate(GL_FRONT_AND_BACK, ds->stencilWriteMask);
    if (ds->depthBias || ds->depthBiasSlopeScale != 0.0f) {
        eg_gl.Enable(GL_POLYGON_OFFSET_FILL);
        eg_gl.PolygonOffset(ds->depthBiasSlopeScale, (GLfloat)ds->depthBias);
    } else {
        eg_gl.Disable(GL_POLYGON_OFFSET_FILL);
    }
}

static void blend_one(const eg_color_target_t *t)
{
    uint8_t m = t->write_mask;
    eg_gl.ColorMask((m & WGPUColorWriteMask_Red) != 0, (m & WGPUColorWriteMask_Green) != 0,
                    (m & WGPUColorWriteMask_Blue) != 0, (m & WGPUColorWriteMask_Alpha) != 0);
    if (!t->blend_enabled) { eg_gl.Disable(GL_BLEND); return; }
    eg_gl.Enable(GL_BLEND);
    eg_gl.BlendEquationSeparate(gl_blend_op(t->blend.color.operation), gl_blend_op(t->blend.alpha.operation));
    eg_gl.BlendFuncSeparate(gl_blend_factor(t->blend.color.srcFactor), gl_blend_factor(t->blend.color.dstFactor),
                            gl_blend_factor(t->blend.alpha.srcFactor), gl_blend_factor(t->blend.alpha.dstFactor));
}

/* Per draw buffer (GLES 3.2 / OES_draw_buffers_indexed): each target's own state. */
static void blend_indexed(const eg_render_pipeline_t *rp)
{
    for (uint32_t i = 0; i < rp->color_target_count; i++) {
        const eg_color_target_t *t = &rp->color_targets[i];
        uint8_t m = t->format == WGPUTextureFormat_Undefined ? 0u : t->write_mask;
        eg_gl.ColorMaski(i, (m & WGPUColorWriteMask_Red) != 0, (m & WGPUColorWriteMask_Green) != 0,
                         (m & WGPUColorWriteMask_Blue) != 0, (m & WGPUColorWriteMask_Alpha) != 0);
        if (t->format == WGPUTextureFormat_Undefined || !t->blend_enabled) { eg_gl.Disablei(GL_BLEND, i); continue; }
        eg_gl.Enablei(GL_BLEND, i);
        eg_gl.BlendEquationSeparatei(i, gl_blend_op(t->blend.color.operation), gl_blend_op(t->blend.alpha.operation));
        eg_gl.BlendFuncSeparatei(i, gl_blend_factor(t->blend.color.srcFactor), gl_blend_factor(t->blend.color.dstFactor),
                                 gl_blend_factor(t->blend.alpha.srcFactor), gl_blend_factor(t->blend.alpha.dstFactor));
    }
}

/* Without per-attachment state (GLES 3.0/3.1 core) every target has the same state (pipeline
 * creation rejects others, gl_program.c), so the first non-null target's state is all. */
static void apply_blend(const eg_hal_device_t *dev, const eg_render_pipeline_t *rp)
{
    if (dev->indexed_blend) { blend_indexed(rp); return; }
    for (uint32_t i = 0; i < rp->color_target_count; i++)
        if (rp->color_targets[i].format != WGPUTextureFormat_Undefined) { blend_one(&rp->color_targets[i]); return; }
}

static void apply_render_pipeline(const eg_hal_device_t *dev, eg_gl_state_t *s)
{
    const eg_render_pipeline_t *rp = s->rp;
    eg_gl.UseProgram(eg_gl_program(EG_GL_PRIV(rp, eg_gl_pipeline_t)->program)->program);
    if (rp->cull_mode == WGPUCullMode_None) {
        eg_gl.Disable(GL_CULL_FACE);
    } else {
        eg_gl.Enable(GL_CULL_FACE);
        eg_gl.CullFace(rp->cull_mode == WGPUCullMode_Front ? GL_FRONT : GL_BACK);
    }
    /* The Y flip mirrors the winding GL sees (gl_internal.h "ORIENTATION"). */
    eg_gl.FrontFace(rp->front_face == WGPUFrontFace_CW ? GL_CCW : GL_CW);
    apply_depth_stencil(rp, s->stencil_ref);
    apply_blend(dev, rp);
    if (rp->alpha_to_coverage) eg_gl.Enable(GL_SAMPLE_ALPHA_TO_COVERAGE);
    else eg_gl.Disable(GL_SAMPLE_ALPHA_TO_COVERAGE);
    /* multisample.mask (WebGPU "sample masking"): GLES 3.1's GL_SAMPLE_MASK word 0 (4 samples
     * at most). A 3.0 context has no sample mask: only the all-ones default is honoured there. */
    uint32_t mask = rp->sample_count > 1u ? rp->sample_mask : ~0u;
    if (eg_gl.SampleMaski && (mask & 0xfu) != 0xfu) {
        eg_gl.Enable(GL_SAMPLE_MASK);
        eg_gl.SampleMaski(0, mask);
    } else if (eg_gl.SampleMaski) {
        eg_gl.Disable(GL_SAMPLE_MASK);
    }
    s->pipeline_dirty = false;
}

/* ---- bind groups ---- */

static const eg_bind_entry_t *find_entry(const eg_bind_group_t *bg, uint32_t binding, uint32_t *dyn_index)
{
    uint32_t dyn = 0;
    for (uint32_t i = 0; bg && i < bg->entry_count; i++) {
        if (bg->entries[i].binding == binding) { *dyn_index = dyn; return &bg->entries[i]; }
        if (bg->layout->entries[i].has_dynamic_offset) dyn++;
    }
    return NULL;
}

static void bind_buffer(const eg_gl_state_t *s, const eg_gl_binding_t *b, const eg_bind_entry_t *e, uint32_t dyn)
{
    const eg_bind_group_t *bg = s->groups[b->group].group;
    uint32_t idx = (uint32_t)(e - bg->entries);
    uint64_t off = e->offset_B;
    if (bg->layout->entries[idx].has_dynamic_offset && dyn < s->groups[b->group].dyn_count)
        off += s->groups[b->group].dyn[dyn];
    GLenum target = b->kind == EG_GL_BIND_UBO ? GL_UNIFORM_BUFFER : GL_SHADER_STORAGE_BUFFER;
    eg_gl.BindBufferRange(target, b->flat, EG_GL_PRIV(e->buffer, eg_gl_buffer_t)->name, (GLintptr)off,
                          (GLsizeiptr)e->size_B);
}

static void bind_image(const eg_gl_binding_t *b, const eg_bind_entry_t *e, const eg_bgl_entry_t *le)
{
    const eg_gl_texture_t *t = EG_GL_PRIV(e->view->texture, eg_gl_texture_t);
    GLenum access = le->access == WGPUStorageTextureAccess_ReadOnly ? GL_READ_ONLY
                  : le->access == WGPUStorageTextureAccess_ReadWrite ? GL_READ_WRITE : GL_WRITE_ONLY;
    eg_gl.BindImageTexture(b->flat, t->name, (GLint)e->view->base_mip_level, t->target != GL_TEXTURE_2D, 0,
                           access, t->fmt->internal);
}

/* Every flat binding of the program from the bound groups, then every texture unit with its
 * texture and sampler (re-applied whenever the pipeline or a group changes). */
static void apply_bindings(eg_gl_state_t *s, const eg_gl_program_t *p)
{
    for (uint32_t i = 0; i < p->binding_count; i++) {
        const eg_gl_binding_t *b = &p->bindings[i];
        uint32_t dyn = 0;
        const eg_bind_entry_t *e = find_entry(s->groups[b->group].group, b->binding, &dyn);
        if (!e) continue;
        if ((b->kind == EG_GL_BIND_UBO || b->kind == EG_GL_BIND_SSBO) && e->buffer) {
            bind_buffer(s, b, e, dyn);
            if (p->len_loc[i] >= 0 && p->len_stride_B[i]) {   /* WGSL arrayLength of the binding */
                uint64_t n = e->size_B > p->len_offset_B[i] ? (e->size_B - p->len_offset_B[i]) / p->len_stride_B[i] : 0u;
                eg_gl.Uniform1ui(p->len_loc[i], (GLuint)n);
            }
        }
        else if (b->kind == EG_GL_BIND_IMAGE && e->view)
            bind_image(b, e, &s->groups[b->group].group->layout->entries[e - s->groups[b->group].group->entries]);
        else if (b->kind == EG_GL_BIND_TEXTURE && e->view && p->levels_loc[i] >= 0)   /* textureQueryLevels */
            eg_gl.Uniform1i(p->levels_loc[i], (GLint)e->view->mip_level_count);
    }
    for (uint32_t u = 0; u < p->unit_count; u++) {
        const eg_gl_unit_t *un = &p->units[u];
        uint32_t dyn = 0;
        const eg_bind_entry_t *te = find_entry(s->groups[un->tex_group].group, un->tex_binding, &dyn);
        const eg_bind_entry_t *se = un->smp_group == 0xFFu ? NULL
                                  : find_entry(s->groups[un->smp_group].group, un->smp_binding, &dyn);
        eg_gl.ActiveTexture(GL_TEXTURE0 + u);
        if (te && te->view) {
            const eg_gl_texture_t *t = EG_GL_PRIV(te->view->texture, eg_gl_texture_t);
            eg_gl.BindTexture(t->target, t->name);
            eg_gl_texture_apply_view(te->view);
        }
        eg_gl.BindSampler(u, se && se->sampler ? EG_GL_PRIV(se->sampler, eg_gl_sampler_t)->name : 0u);
    }
    eg_gl.ActiveTexture(GL_TEXTURE0);
    s->bindings_dirty = false;
}

/* ---- vertex input ---- */

typedef struct vfmt { uint8_t comps, integer, normalized; GLenum type; } vfmt_t;

static vfmt_t vertex_format(WGPUVertexFormat f)
{
    static const vfmt_t t[] = {
        { 0, 0, 0, 0 },
        { 1, 1, 0, GL_UNSIGNED_BYTE }, { 2, 1, 0, GL_UNSIGNED_BYTE }, { 4, 1, 0, GL_UNSIGNED_BYTE },
        { 1, 1, 0, GL_BYTE }, { 2, 1, 0, GL_BYTE }, { 4, 1, 0, GL_BYTE },
        { 1, 0, 1, GL_UNSIGNED_BYTE }, { 2, 0, 1, GL_UNSIGNED_BYTE }, { 4, 0, 1, GL_UNSIGNED_BYTE },
        { 1, 0, 1, GL_BYTE }, { 2, 0, 1, GL_BYTE }, { 4, 0, 1, GL_BYTE },
        { 1, 1, 0, GL_UNSIGNED_SHORT }, { 2, 1, 0, GL_UNSIGNED_SHORT }, { 4, 1, 0, GL_UNSIGNED_SHORT },
        { 1, 1, 0, GL_SHORT }, { 2, 1, 0, GL_SHORT }, { 4, 1, 0, GL_SHORT },
        { 1, 0, 1, GL_UNSIGNED_SHORT }, { 2, 0, 1, GL_UNSIGNED_SHORT }, { 4, 0, 1, GL_UNSIGNED_SHORT },
        { 1, 0, 1, GL_SHORT }, { 2, 0, 1, GL_SHORT }, { 4, 0, 1, GL_SHORT },
        { 1, 0, 0, GL_HALF_FLOAT }, { 2, 0, 0, GL_HALF_FLOAT }, { 4, 0, 0, GL_HALF_FLOAT },
        { 1, 0, 0, GL_FLOAT }, { 2, 0, 0, GL_FLOAT }, { 3, 0, 0, GL_FLOAT }, { 4, 0, 0, GL_FLOAT },
        { 1, 1, 0, GL_UNSIGNED_INT }, { 2, 1, 0, GL_UNSIGNED_INT }, { 3, 1, 0, GL_UNSIGNED_INT }, { 4, 1, 0, GL_UNSIGNED_INT },
        { 1, 1, 0, GL_INT }, { 2, 1, 0, GL_INT }, { 3, 1, 0, GL_INT }, { 4, 1, 0, GL_INT },
        { 4, 0, 1, GL_UNSIGNED_INT_2_10_10_10_REV },
        { 4, 0, 1, GL_UNSIGNED_BYTE },   /* Unorm8x4BGRA: TODO(#6) needs a swizzle in the shader */
    };
    return (uint32_t)f < EG_ARRAY_LEN(t) ? t[f] : t[0];
}

static void setup_vertices(eg_gl_state_t *s, int32_t base_vertex, uint32_t first_instance)
{
    const eg_render_pipeline_t *rp = s->rp;
    uint32_t enabled = 0;
    for (uint32_t slot = 0; slot < rp->vertex_buffer_count; slot++) {
        const eg_vertex_buffer_t *vb = &rp->vertex_buffers[slot];
        if (!vb->used || !s->vb[slot].buf) continue;
        bool inst = vb->step_mode == WGPUVertexStepMode_Instance;
        int64_t shift = inst ? (int64_t)first_instance * vb->stride_B : (int64_t)base_vertex * vb->stride_B;
        eg_gl.BindBuffer(GL_ARRAY_BUFFER, EG_GL_PRIV(s->vb[slot].buf, eg_gl_buffer_t)->name);
        for (uint32_t a = vb->first_attrib; a < vb->first_attrib + vb->attrib_count; a++) {
            const eg_vertex_attrib_t *at = &rp->attribs[a];
            vfmt_t f = vertex_format(at->format);
            int64_t off = (int64_t)s->vb[slot].offset_B + at->offset_B + shift;
            const void *ptr = (const void *)(uintptr_t)(off > 0 ? off : 0);
            GLuint loc = at->shader_location;
            if (f.integer)
                eg_gl.VertexAttribIPointer(loc, f.comps, f.type, (GLsizei)vb->stride_B, ptr);
            else
                eg_gl.VertexAttribPointer(loc, f.comps, f.type, f.normalized, (GLsizei)vb->stride_B, ptr);
            eg_gl.VertexAttribDivisor(loc, inst ? 1u : 0u);
            enabled |= 1u << loc;
        }
    }
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t bit = 1u << i;
        if ((enabled & bit) && !(s->attribs_enabled & bit)) eg_gl.EnableVertexAttribArray(i);
        if (!(enabled & bit) && (s->attribs_enabled & bit)) eg_gl.DisableVertexAttribArray(i);
    }
    s->attribs_enabled = enabled;
}

static GLenum topology(WGPUPrimitiveTopology t)
{
    switch (t) {
    case WGPUPrimitiveTopology_PointList: return GL_POINTS;
    case WGPUPrimitiveTopology_LineList: return GL_LINES;
    case WGPUPrimitiveTopology_LineStrip: return GL_LINE_STRIP;
    case WGPUPrimitiveTopology_TriangleStrip: return GL_TRIANGLE_STRIP;
    default: return GL_TRIANGLES;
    }
}

static bool draw(eg_hal_device_t *dev, eg_gl_state_t *s, bool indexed, uint32_t count, uint32_t instances, uint32_t first,
                 int32_t base_vertex, uint32_t first_instance)
{
    if (!s->rp || !count || !instances) return true;
    const eg_gl_program_t *p = eg_gl_program(EG_GL_PRIV(s->rp, eg_gl_pipeline_t)->program);
    if (s->pipeline_dirty) { apply_render_pipeline(dev, s); s->bindings_dirty = true; }
    if (s->bindings_dirty) apply_bindings(s, p);
    GLenum mode = topology(s->rp->topology);
    if (eg_gl_flat_needed(p, s->rp->topology)) {   /* base vertex goes into the rewritten indices */
        setup_vertices(s, 0, first_instance);
        if (p->base_instance_loc >= 0) eg_gl.Uniform1i(p->base_instance_loc, (GLint)first_instance);
        return eg_gl_flat_draw(dev, s->rp->topology, indexed ? s->ib : NULL, s->ib_format, s->ib_offset_B, count,
                               instances, first, indexed ? base_vertex : 0);
    }
    /* Native base vertex keeps gl_VertexIndex right; the pointer shift is the GLES 3.0 fallback. */
    bool native_bv = indexed && base_vertex && eg_gl.DrawElementsInstancedBaseVertex;
    setup_vertices(s, indexed && !native_bv ? base_vertex : 0, first_instance);
    if (p->base_instance_loc >= 0) eg_gl.Uniform1i(p->base_instance_loc, (GLint)first_instance);
    if (!indexed) {
        eg_gl.DrawArraysInstanced(mode, (GLint)first, (GLsizei)count, (GLsizei)instances);
        return true;
    }
    bool u32 = s->ib_format == WGPUIndexFormat_Uint32;
    eg_gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, EG_GL_PRIV(s->ib, eg_gl_buffer_t)->name);
    uint64_t off = s->ib_offset_B + (uint64_t)first * (u32 ? 4u : 2u);
    GLenum type = u32 ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT;
    if (native_bv)
        eg_gl.DrawElementsInstancedBaseVertex(mode, (GLsizei)count, type, (const void *)(uintptr_t)off,
                                              (GLsizei)instances, base_vertex);
    else
        eg_gl.DrawElementsInstanced(mode, (GLsizei)count, type, (const void *)(uintptr_t)off, (GLsizei)instances);
    return true;
}

/* GLES 3.1 indirect draw straight from the buffer (no CPU read, no sync), where GL's command
 * means what WebGPU's does: not with first-vertex flat emulation (it rewrites indices on the
 * CPU), and indexed only at index-buffer offset 0 (GL's firstIndex counts from the start of the
 * element buffer; the SetIndexBuffer offset has no place in the command). firstInstance is 0:
 * the adapter does not offer indirect-first-instance, and GL calls that field reserved. */
static bool draw_indirect_native(eg_hal_device_t *dev, eg_gl_state_t *s, const eg_cmd_indirect_t *c, bool indexed)
{
    if (!dev->es31 || !eg_gl.DrawArraysIndirect || !eg_gl.DrawElementsIndirect || !s->rp) return false;
    const eg_gl_program_t *p = eg_gl_program(EG_GL_PRIV(s->rp, eg_gl_pipeline_t)->program);
    if (eg_gl_flat_needed(p, s->rp->topology) || (indexed && (!s->ib || s->ib_offset_B != 0))) return false;
    if (s->pipeline_dirty) { apply_render_pipeline(dev, s); s->bindings_dirty = true; }
    if (s->bindings_dirty) apply_bindings(s, p);
    setup_vertices(s, 0, 0);
    if (p->base_instance_loc >= 0) eg_gl.Uniform1i(p->base_instance_loc, 0);
    eg_gl.BindBuffer(GL_DRAW_INDIRECT_BUFFER, EG_GL_PRIV(c->buffer, eg_gl_buffer_t)->name);
    const void *off = (const void *)(uintptr_t)c->offset_B;
    GLenum mode = topology(s->rp->topology);
    if (indexed) {
        eg_gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, EG_GL_PRIV(s->ib, eg_gl_buffer_t)->name);
        eg_gl.DrawElementsIndirect(mode, s->ib_format == WGPUIndexFormat_Uint32 ? GL_UNSIGNED_INT : GL_UNSIGNED_SHORT,
                                   off);
    } else {
        eg_gl.DrawArraysIndirect(mode, off);
    }
    return true;
}

/* Reads n 32-bit indirect arguments on the CPU (GLES 3.0 has no indirect draws). */
static bool read_args(const eg_cmd_indirect_t *c, uint32_t *out, uint32_t n)
{
    eg_gl.BindBuffer(GL_COPY_READ_BUFFER, EG_GL_PRIV(c->buffer, eg_gl_buffer_t)->name);
    const uint32_t *p = eg_gl.MapBufferRange(GL_COPY_READ_BUFFER, (GLintptr)c->offset_B, (GLsizeiptr)(n * 4u),
                                             GL_MAP_READ_BIT);
    if (!p) return false;
    eg_memcpy(out, p, n * 4u);
    eg_gl.UnmapBuffer(GL_COPY_READ_BUFFER);
    return true;
}

/* ---- compute ---- */

static void dispatch(eg_hal_device_t *dev, eg_gl_state_t *s, uint32_t x, uint32_t y, uint32_t z)
{
    if (!s->cp || !dev->es31 || !x || !y || !z) return;
    const eg_gl_program_t *p = eg_gl_program(EG_GL_PRIV(s->cp, eg_gl_pipeline_t)->program);
    if (s->pipeline_dirty) { eg_gl.UseProgram(p->program); s->pipeline_dirty = false; s->bindings_dirty = true; }
    if (s->bindings_dirty) apply_bindings(s, p);
    eg_gl.DispatchCompute(x, y, z);
}

/* ---- records ---- */

static void set_bind_group(eg_gl_state_t *s, const eg_cmd_set_bind_group_t *c)
{
    if (c->index >= EMGPU_MAX_BIND_GROUPS_PER_LAYOUT) return;
    s->groups[c->index].group = c->group;
    s->groups[c->index].dyn_count = eg_min_u32(c->dynamic_offset_count, 16u);
    for (uint32_t i = 0; i < s->groups[c->index].dyn_count; i++) s->groups[c->index].dyn[i] = c->dynamic_offsets[i];
    s->bindings_dirty = true;
}

bool eg_gl_draw_command(eg_hal_device_t *dev, eg_gl_state_t *s, const eg_cmd_header_t *h, eg_status_t *st)
{
    const void *r = h;
    switch ((eg_cmd_op_t)h->op) {
    case EG_CMD_SET_RENDER_PIPELINE:
        s->rp = ((const eg_cmd_set_pipeline_t *)r)->pipeline;
        s->pipeline_dirty = s->bindings_dirty = true;
        return true;
    case EG_CMD_SET_COMPUTE_PIPELINE:
        s->cp = ((const eg_cmd_set_pipeline_t *)r)->pipeline;
        s->pipeline_dirty = s->bindings_dirty = true;
        return true;
    case EG_CMD_BEGIN_COMPUTE_PASS: case EG_CMD_END_COMPUTE_PASS:
        s->pipeline_dirty = s->bindings_dirty = true;
        return true;
    case EG_CMD_SET_BIND_GROUP: set_bind_group(s, r); return true;
    case EG_CMD_SET_VERTEX_BUFFER: {
        const eg_cmd_set_buffer_t *c = r;
        if (c->slot < EMGPU_MAX_VERTEX_BUFFERS) { s->vb[c->slot].buf = c->buffer; s->vb[c->slot].offset_B = c->offset_B; }
        return true;
    }
    case EG_CMD_SET_INDEX_BUFFER: {
        const eg_cmd_set_buffer_t *c = r;
        s->ib = c->buffer; s->ib_offset_B = c->offset_B; s->ib_format = c->index_format;
        return true;
    }
    case EG_CMD_SET_VIEWPORT: {
        const eg_cmd_set_viewport_t *c = r;
        eg_gl.Viewport((GLint)c->x, (GLint)c->y, (GLsizei)c->width, (GLsizei)c->height);
        eg_gl.DepthRangef(c->min_depth, c->max_depth);
        return true;
    }
    case EG_CMD_SET_SCISSOR_RECT: {
        const eg_cmd_set_scissor_t *c = r;
        eg_gl.Scissor((GLint)c->x, (GLint)c->y, (GLsizei)c->width, (GLsizei)c->height);
        return true;
    }
    case EG_CMD_SET_BLEND_CONSTANT: {
        const WGPUColor *c = &((const eg_cmd_set_blend_constant_t *)r)->color;
        eg_gl.BlendColor((GLfloat)c->r, (GLfloat)c->g, (GLfloat)c->b, (GLfloat)c->a);
        return true;
    }
    case EG_CMD_SET_STENCIL_REFERENCE:
        s->stencil_ref = ((const eg_cmd_set_stencil_ref_t *)r)->reference;
        if (s->rp && !s->pipeline_dirty && s->rp->has_depth_stencil) apply_stencil(s->rp, s->stencil_ref);
        return true;
    case EG_CMD_DRAW: case EG_CMD_DRAW_INDEXED: {
        const eg_cmd_draw_t *c = r;
        if (!draw(dev, s, h->op == EG_CMD_DRAW_INDEXED, c->count, c->instance_count, c->first, c->base_vertex,
                  c->first_instance))
            *st = EG_STATUS_INTERNAL;
        return true;
    }
    case EG_CMD_DRAW_INDIRECT: case EG_CMD_DRAW_INDEXED_INDIRECT: {
        uint32_t a[5] = { 0 };
        bool idx = h->op == EG_CMD_DRAW_INDEXED_INDIRECT;
        if (draw_indirect_native(dev, s, r, idx)) return true;
        if (!read_args(r, a, idx ? 5u : 4u)) { *st = EG_STATUS_INTERNAL; return true; }
        bool ok = idx ? draw(dev, s, true, a[0], a[1], a[2], (int32_t)a[3], a[4])
                      : draw(dev, s, false, a[0], a[1], a[2], 0, a[3]);
        if (!ok) *st = EG_STATUS_INTERNAL;
        return true;
    }
    case EG_CMD_DISPATCH: {
        const eg_cmd_dispatch_t *c = r;
        dispatch(dev, s, c->x, c->y, c->z);
        return true;
    }
    case EG_CMD_DISPATCH_INDIRECT: {
        const eg_cmd_indirect_t *c = r;
        if (s->cp && dev->es31 && eg_gl.DispatchComputeIndirect) {   /* GLES 3.1: no CPU read */
            const eg_gl_program_t *p = eg_gl_program(EG_GL_PRIV(s->cp, eg_gl_pipeline_t)->program);
            if (s->pipeline_dirty) { eg_gl.UseProgram(p->program); s->pipeline_dirty = false; s->bindings_dirty = true; }
            if (s->bindings_dirty) apply_bindings(s, p);
            eg_gl.BindBuffer(GL_DISPATCH_INDIRECT_BUFFER, EG_GL_PRIV(c->buffer, eg_gl_buffer_t)->name);
            eg_gl.DispatchComputeIndirect((GLintptr)c->offset_B);
            return true;
        }
        uint32_t a[3] = { 0 };
        if (!read_args(r, a, 3)) { *st = EG_STATUS_INTERNAL; return true; }
        dispatch(dev, s, a[0], a[1], a[2]);
        return true;
    }
    default:
        return false;   /* debug groups and markers: nothing to do */
    }
}

#endif /* EMGPU_HAL_GLES */
