/* Pipelines vs shaders: bindings against the layout, constants, vertex/inter-stage/target rules. */
#include "kernel/api/render_pipeline.h"

#include "kernel/api/device.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/base/fmt.h"
#include "kernel/format/format.h"

static const char *const scalar_names[] = { "f32", "i32", "u32", "bool" };

static const char *scalar_name(uint32_t s) { return s < 4 ? scalar_names[s] : "?"; }

/* ---- pipeline-overridable constants ---- */

/* A WGPUConstantEntry key naming a SpecId: decimal digits only (WGSL's @id(n) overrides are
 * named by the decimal n; SPIR-V has no override names). */
static bool parse_spec_id(WGPUStringView key, uint32_t *id)
{
    size_t n = key.data ? (key.length == WGPU_STRLEN ? eg_strlen(key.data) : key.length) : 0;
    uint64_t v = 0;
    if (n == 0 || n > 10) return false;
    for (size_t i = 0; i < n; i++) {
        if (key.data[i] < '0' || key.data[i] > '9') return false;
        v = v * 10u + (uint32_t)(key.data[i] - '0');
    }
    if (v > 0xffffffffu) return false;
    *id = (uint32_t)v;
    return true;
}

/* The WebIDL conversion the spec applies to a constant's value ([EnforceRange] long / unsigned
 * long: finite, integer part in range; float: finite and within f32; boolean: non-zero). */
static bool convert_value(double x, uint8_t scalar, uint32_t *bits)
{
    if (scalar == EG_SHADER_SCALAR_BOOL) { *bits = x != 0.0 && x == x; return true; }
    if (!(x == x) || x > 1e300 || x < -1e300) return false;           /* NaN, infinities */
    if (scalar == EG_SHADER_SCALAR_I32) {
        if (x <= -2147483649.0 || x >= 2147483648.0) return false;
        *bits = (uint32_t)(int32_t)(int64_t)x;
        return true;
    }
    if (scalar == EG_SHADER_SCALAR_U32) {
        if (x <= -1.0 || x >= 4294967296.0) return false;
        *bits = (uint32_t)(int64_t)x;
        return true;
    }
    if (x > 3.4028234663852886e38 || x < -3.4028234663852886e38) return false;
    float f = (float)x;
    eg_memcpy(bits, &f, sizeof f);
    return true;
}

/* Spec "validating GPUProgrammableStage": every key of descriptor.constants names a
 * pipeline-overridable constant of the module, and its value converts to the constant's type.
 * (Constants without a default must be given: SPIR-V specialization constants always have one.) */
bool eg_pipeline_stage_constants(const eg_vctx_t *v, const char *what, const eg_spirv_module_t *sm,
                                 size_t count, const WGPUConstantEntry *constants, eg_stage_t *out)
{
    EG_CHECK(v, count == 0 || constants, NULL_DESCRIPTOR, "%s.constants is NULL but constantCount is %u",
             what, (unsigned)count);
    if (count > EMGPU_MAX_PIPELINE_CONSTANTS)
        return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_INLINE_BOUND,
                       "%s.constantCount %u exceeds what a pipeline stage holds (EMGPU_MAX_PIPELINE_CONSTANTS = %u)",
                       what, (unsigned)count, (unsigned)EMGPU_MAX_PIPELINE_CONSTANTS);
    for (uint32_t i = 0; i < (uint32_t)count; i++) {
        const WGPUConstantEntry *c = &constants[i];
        EG_CHECK(v, c->nextInChain == NULL, UNKNOWN_STYPE, "%s.constants[%u].nextInChain must be NULL", what, i);
        uint32_t id = 0, k = 0;
        bool numeric = parse_spec_id(c->key, &id);
        while (numeric && k < sm->spec_const_count && sm->spec_consts[k].spec_id != id) k++;
        EG_CHECK(v, numeric && k < sm->spec_const_count, PIPE_CONSTANTS,
                 "%s.constants[%u].key \"%.*s\" is not a pipeline-overridable constant of the module: SPIR-V "
                 "constants are named by their SpecId in decimal, and the module has %u specialization "
                 "constant(s)", what, i, c->key.data ? (int)eg_min_u32((uint32_t)(c->key.length == WGPU_STRLEN
                 ? eg_strlen(c->key.data) : c->key.length), 40) : 0, c->key.data ? c->key.data : "",
                 (unsigned)sm->spec_const_count);
        for (uint32_t j = 0; j < out->constant_count; j++)
            EG_CHECK(v, out->constants[j].spec_id != id, PIPE_CONSTANTS,
                     "%s.constants[%u]: SpecId %u is given twice", what, i, (unsigned)id);
        uint32_t bits = 0;
        EG_CHECK(v, convert_value(c->value, sm->spec_consts[k].scalar, &bits), PIPE_CONSTANTS,
                 "%s.constants[%u] (SpecId %u): value %f is not representable as %s", what, i, (unsigned)id,
                 c->value, scalar_name(sm->spec_consts[k].scalar));
        out->constants[out->constant_count].spec_id = id;
        out->constants[out->constant_count++].bits = bits;
    }
    return true;
}

/* ---- bindings vs layout ---- */

static const char *shader_kind_name(const eg_shader_binding_t *b)
{
    switch (b->kind) {
    case EG_SHADER_BINDING_UNIFORM: return "uniform buffer";
    case EG_SHADER_BINDING_STORAGE_READ_ONLY: return "read-only storage buffer";
    case EG_SHADER_BINDING_STORAGE: return "read-write storage buffer";
    case EG_SHADER_BINDING_SAMPLED_TEXTURE: return "sampled texture";
    case EG_SHADER_BINDING_STORAGE_TEXTURE: return "storage texture";
    default: return b->used_compare ? "comparison sampler" : "sampler";
    }
}

static const char *layout_kind_name(const eg_bgl_entry_t *le)
{
    switch (le->kind) {
    case EG_BINDING_BUFFER:
        return le->buffer_type == WGPUBufferBindingType_Uniform ? "buffer.type Uniform"
             : le->buffer_type == WGPUBufferBindingType_Storage ? "buffer.type Storage" : "buffer.type ReadOnlyStorage";
    case EG_BINDING_SAMPLER:
        return le->sampler_type == WGPUSamplerBindingType_Comparison ? "sampler.type Comparison" : "a sampler";
    case EG_BINDING_TEXTURE: return "a texture";
    default: return "a storage texture";
    }
}

static bool texture_sample_type_ok(uint8_t cls, WGPUTextureSampleType st)
{
    switch (cls) {
    case EG_SHADER_TEXTURE_FLOAT:
        return st == WGPUTextureSampleType_Float || st == WGPUTextureSampleType_UnfilterableFloat;
    case EG_SHADER_TEXTURE_DEPTH: return st == WGPUTextureSampleType_Depth;
    case EG_SHADER_TEXTURE_SINT: return st == WGPUTextureSampleType_Sint;
    default: return st == WGPUTextureSampleType_Uint;
    }
}

/* Spec "validating shader binding", the per-type part: the layout entry's member and type
 * must be the ones the shader's variable needs. */
static bool kind_matches(const eg_shader_binding_t *b, const eg_bgl_entry_t *le)
{
    switch (b->kind) {
    case EG_SHADER_BINDING_UNIFORM:
        return le->kind == EG_BINDING_BUFFER && le->buffer_type == WGPUBufferBindingType_Uniform;
    case EG_SHADER_BINDING_STORAGE:
        return le->kind == EG_BINDING_BUFFER && le->buffer_type == WGPUBufferBindingType_Storage;
    case EG_SHADER_BINDING_STORAGE_READ_ONLY:
        return le->kind == EG_BINDING_BUFFER && le->buffer_type == WGPUBufferBindingType_ReadOnlyStorage;
    case EG_SHADER_BINDING_SAMPLER:
        return le->kind == EG_BINDING_SAMPLER &&
               (le->sampler_type == WGPUSamplerBindingType_Comparison) == (b->used_compare != 0);
    case EG_SHADER_BINDING_SAMPLED_TEXTURE: return le->kind == EG_BINDING_TEXTURE;
    default: return le->kind == EG_BINDING_STORAGE_TEXTURE;
    }
}

static bool binding_type_ok(const eg_vctx_t *v, const char *what, const eg_shader_binding_t *b,
                            const eg_bgl_entry_t *le)
{
    EG_CHECK(v, kind_matches(b, le), PIPE_BINDING_TYPE,
             "%s stage: group %u binding %u is a %s in the shader, but the layout entry is %s", what,
             (unsigned)b->group, (unsigned)b->binding, shader_kind_name(b), layout_kind_name(le));
    if (le->kind == EG_BINDING_BUFFER)
        EG_CHECK(v, le->min_binding_size_B == 0 || le->min_binding_size_B >= b->min_size_B, PIPE_MIN_BINDING_SIZE,
                 "%s stage: group %u binding %u: layout buffer.minBindingSize %llu is smaller than the %llu "
                 "bytes the shader's block needs", what, (unsigned)b->group, (unsigned)b->binding,
                 (unsigned long long)le->min_binding_size_B, (unsigned long long)b->min_size_B);
    if (le->kind == EG_BINDING_TEXTURE) {
        EG_CHECK(v, le->view_dimension == (WGPUTextureViewDimension)b->view_dim, PIPE_BINDING_TYPE,
                 "%s stage: group %u binding %u: layout texture.viewDimension 0x%x differs from the shader's "
                 "0x%x", what, (unsigned)b->group, (unsigned)b->binding, (unsigned)le->view_dimension,
                 (unsigned)b->view_dim);
        EG_CHECK(v, le->multisampled == b->multisampled, PIPE_BINDING_TYPE,
                 "%s stage: group %u binding %u: layout texture.multisampled %u differs from the shader's %u",
                 what, (unsigned)b->group, (unsigned)b->binding, le->multisampled, b->multisampled);
        EG_CHECK(v, texture_sample_type_ok(b->texture_class, le->sample_type), PIPE_BINDING_TYPE,
                 "%s stage: group %u binding %u: layout texture.sampleType 0x%x does not fit the shader's %s "
                 "texture", what, (unsigned)b->group, (unsigned)b->binding, (unsigned)le->sample_type,
                 b->texture_class == EG_SHADER_TEXTURE_DEPTH ? "depth" : scalar_name(b->sample_type));
    }
    if (le->kind == EG_BINDING_STORAGE_TEXTURE) {
        EG_CHECK(v, le->access == (WGPUStorageTextureAccess)b->storage_access, PIPE_BINDING_TYPE,
                 "%s stage: group %u binding %u: layout storageTexture.access 0x%x differs from the shader's "
                 "0x%x (NonReadable: WriteOnly, NonWritable: ReadOnly, neither: ReadWrite)", what,
                 (unsigned)b->group, (unsigned)b->binding, (unsigned)le->access, (unsigned)b->storage_access);
        EG_CHECK(v, le->format == (WGPUTextureFormat)b->texture_format, PIPE_BINDING_TYPE,
                 "%s stage: group %u binding %u: layout storageTexture.format 0x%x differs from the shader's "
                 "image format (0x%x)", what, (unsigned)b->group, (unsigned)b->binding, (unsigned)le->format,
                 (unsigned)b->texture_format);
        EG_CHECK(v, le->view_dimension == (WGPUTextureViewDimension)b->view_dim, PIPE_BINDING_TYPE,
                 "%s stage: group %u binding %u: layout storageTexture.viewDimension 0x%x differs from the "
                 "shader's 0x%x", what, (unsigned)b->group, (unsigned)b->binding, (unsigned)le->view_dimension,
                 (unsigned)b->view_dim);
    }
    return true;
}

static const eg_bgl_entry_t *layout_entry(const struct WGPUPipelineLayoutImpl *pl, uint32_t group, uint32_t binding)
{
    if (group >= pl->group_count || !pl->groups[group]) return NULL;
    return eg_bind_group_layout_find(pl->groups[group], binding);
}

static uint32_t stage_bit(eg_shader_stage_t s)
{
    return s == EG_SHADER_STAGE_VERTEX ? WGPUShaderStage_Vertex
         : s == EG_SHADER_STAGE_FRAGMENT ? WGPUShaderStage_Fragment : WGPUShaderStage_Compute;
}

/* Spec "validating GPUProgrammableStage": "validating shader binding" for every binding the
 * entry point statically uses, then for every texture+sampler pair of a sampling call: a
 * Filtering sampler may not be used with an UnfilterableFloat texture. */
bool eg_pipeline_stage_check_layout(const eg_vctx_t *v, const char *what, const eg_stage_t *stage,
                                    const struct WGPUPipelineLayoutImpl *layout)
{
    const eg_shader_entry_t *e = stage->entry;
    for (uint32_t i = 0; i < e->binding_count; i++) {
        const eg_shader_binding_t *b = &e->bindings[i];
        const eg_bgl_entry_t *le = layout_entry(layout, b->group, b->binding);
        EG_CHECK(v, le != NULL, PIPE_BINDING_MISSING,
                 "%s stage uses group %u binding %u (a %s), which the pipeline layout does not have%s", what,
                 (unsigned)b->group, (unsigned)b->binding, shader_kind_name(b),
                 b->group >= layout->group_count ? " (the layout has fewer groups)" : "");
        EG_CHECK(v, le->visibility & stage_bit(e->stage), PIPE_BINDING_VISIBILITY,
                 "%s stage uses group %u binding %u, but the layout entry's visibility 0x%x does not include "
                 "the %s stage", what, (unsigned)b->group, (unsigned)b->binding, (unsigned)le->visibility, what);
        if (!binding_type_ok(v, what, b, le)) return false;
    }
    for (uint32_t i = 0; i < e->pair_count; i++) {
        const eg_shader_binding_t *t = &e->bindings[e->pairs[i].texture], *s = &e->bindings[e->pairs[i].sampler];
        const eg_bgl_entry_t *lt = layout_entry(layout, t->group, t->binding);
        const eg_bgl_entry_t *ls = layout_entry(layout, s->group, s->binding);
        EG_CHECK(v, !(ls->sampler_type == WGPUSamplerBindingType_Filtering &&
                      lt->sample_type == WGPUTextureSampleType_UnfilterableFloat), PIPE_SAMPLER_FILTERING,
                 "%s stage samples the texture at group %u binding %u (sampleType UnfilterableFloat) with the "
                 "sampler at group %u binding %u (type Filtering): use a NonFiltering sampler or a Float "
                 "texture", what, (unsigned)t->group, (unsigned)t->binding, (unsigned)s->group, (unsigned)s->binding);
    }
    return true;
}

/* Spec "validating GPUProgrammableStage" (compute): workgroup size and workgroup storage. */
bool eg_pipeline_check_compute_limits(const eg_vctx_t *v, const eg_shader_entry_t *e)
{
    const WGPULimits *lim = &v->device->limits;
    const uint32_t *wg = e->workgroup_size;
    uint32_t max_xyz[3] = { lim->maxComputeWorkgroupSizeX, lim->maxComputeWorkgroupSizeY, lim->maxComputeWorkgroupSizeZ };
    static const char axis[] = "XYZ";
    for (uint32_t i = 0; i < 3; i++)
        EG_CHECK(v, wg[i] <= max_xyz[i], PIPE_WORKGROUP_SIZE,
                 "compute entry point \"%s\": workgroup size %c = %u exceeds maxComputeWorkgroupSize%c (%u)",
                 e->name, axis[i], (unsigned)wg[i], axis[i], (unsigned)max_xyz[i]);
    uint64_t n = (uint64_t)wg[0] * wg[1] * wg[2];
    EG_CHECK(v, n <= lim->maxComputeInvocationsPerWorkgroup, PIPE_WORKGROUP_SIZE,
             "compute entry point \"%s\": workgroup size %ux%ux%u = %llu invocations exceeds "
             "maxComputeInvocationsPerWorkgroup (%u)", e->name, (unsigned)wg[0], (unsigned)wg[1],
             (unsigned)wg[2], (unsigned long long)n, (unsigned)lim->maxComputeInvocationsPerWorkgroup);
    EG_CHECK(v, e->workgroup_storage_B <= lim->maxComputeWorkgroupStorageSize, PIPE_WORKGROUP_STORAGE,
             "compute entry point \"%s\" uses %u bytes of Workgroup storage, more than "
             "maxComputeWorkgroupStorageSize (%u)", e->name, (unsigned)e->workgroup_storage_B,
             (unsigned)lim->maxComputeWorkgroupStorageSize);
    return true;
}

/* ---- render: vertex inputs, inter-stage, targets ---- */

static uint8_t vertex_format_scalar(WGPUVertexFormat f)
{
    if ((f >= WGPUVertexFormat_Uint8 && f <= WGPUVertexFormat_Uint8x4) ||
        (f >= WGPUVertexFormat_Uint16 && f <= WGPUVertexFormat_Uint16x4) ||
        (f >= WGPUVertexFormat_Uint32 && f <= WGPUVertexFormat_Uint32x4))
        return EG_SHADER_SCALAR_U32;
    if ((f >= WGPUVertexFormat_Sint8 && f <= WGPUVertexFormat_Sint8x4) ||
        (f >= WGPUVertexFormat_Sint16 && f <= WGPUVertexFormat_Sint16x4) ||
        (f >= WGPUVertexFormat_Sint32 && f <= WGPUVertexFormat_Sint32x4))
        return EG_SHADER_SCALAR_I32;
    return EG_SHADER_SCALAR_F32;   /* unorm, snorm, float */
}

/* Spec "validating GPUVertexState": every input of the vertex entry point has an attribute at
 * its location whose format's type (float/unorm/snorm: f32, uint: u32, sint: i32) matches.
 * Component counts may differ (missing components read as 0, 0, 0, 1). */
static bool check_vertex_inputs(const eg_vctx_t *v, const eg_shader_entry_t *e, const struct WGPURenderPipelineImpl *rp)
{
    for (uint32_t i = 0; i < e->input_count; i++) {
        const eg_shader_io_t *in = &e->inputs[i];
        const eg_vertex_attrib_t *a = NULL;
        for (uint32_t k = 0; k < rp->attrib_count && !a; k++)
            if (rp->attribs[k].shader_location == in->location) a = &rp->attribs[k];
        EG_CHECK(v, a != NULL, RP_VERTEX_INPUT,
                 "the vertex shader reads location %u (%s x%u), but no vertex.buffers[].attributes[] has "
                 "shaderLocation %u", (unsigned)in->location, scalar_name(in->scalar), in->components,
                 (unsigned)in->location);
        EG_CHECK(v, vertex_format_scalar(a->format) == in->scalar, RP_VERTEX_INPUT,
                 "vertex attribute at shaderLocation %u has format 0x%x (%s data) but the shader input is %s",
                 (unsigned)in->location, (unsigned)a->format, scalar_name(vertex_format_scalar(a->format)),
                 scalar_name(in->scalar));
    }
    return true;
}

static const eg_shader_io_t *io_at(const eg_shader_io_t *io, uint32_t n, uint32_t location)
{
    for (uint32_t i = 0; i < n; i++)
        if (io[i].location == location) return &io[i];
    return NULL;
}

/* Spec "validating inter-stage interfaces". */
static bool check_inter_stage(const eg_vctx_t *v, const eg_shader_entry_t *vs, const eg_shader_entry_t *fs,
                              const struct WGPURenderPipelineImpl *rp)
{
    uint32_t max_vars = v->device->limits.maxInterStageShaderVariables, max_out = max_vars;
    if (rp->topology == WGPUPrimitiveTopology_PointList) max_out--;   /* the point size slot */
    EG_CHECK(v, vs->output_count <= max_out, RP_INTER_STAGE_LIMIT,
             "the vertex shader has %u outputs, more than maxInterStageShaderVariables (%u)%s",
             (unsigned)vs->output_count, (unsigned)max_vars, max_out < max_vars ? " - 1 for point-list" : "");
    for (uint32_t i = 0; i < vs->output_count; i++)
        EG_CHECK(v, vs->outputs[i].location < max_vars, RP_INTER_STAGE_LIMIT,
                 "vertex output location %u must be < maxInterStageShaderVariables (%u)",
                 (unsigned)vs->outputs[i].location, (unsigned)max_vars);
    if (!fs) return true;
    uint32_t max_in = max_vars;
    static const uint32_t input_builtins[] = { EG_SHADER_BUILTIN_FRONT_FACING, EG_SHADER_BUILTIN_SAMPLE_ID,
                                               EG_SHADER_BUILTIN_SAMPLE_MASK };
    for (uint32_t i = 0; i < 3; i++) max_in -= (fs->builtins_in & input_builtins[i]) != 0;
    EG_CHECK(v, fs->input_count <= max_in, RP_INTER_STAGE_LIMIT,
             "the fragment shader has %u inputs, more than maxInterStageShaderVariables (%u) minus one per "
             "FrontFacing/SampleId/SampleMask input", (unsigned)fs->input_count, (unsigned)max_vars);
    for (uint32_t i = 0; i < fs->input_count; i++) {
        const eg_shader_io_t *in = &fs->inputs[i], *out = io_at(vs->outputs, vs->output_count, in->location);
        EG_CHECK(v, out != NULL, RP_INTER_STAGE,
                 "the fragment shader reads location %u, which the vertex shader does not write", (unsigned)in->location);
        EG_CHECK(v, out->scalar == in->scalar && out->components == in->components, RP_INTER_STAGE,
                 "location %u: the vertex shader writes %s x%u but the fragment shader reads %s x%u",
                 (unsigned)in->location, scalar_name(out->scalar), out->components, scalar_name(in->scalar),
                 in->components);
        EG_CHECK(v, out->interpolation == in->interpolation &&
                    (in->interpolation == EG_SHADER_INTERP_FLAT || out->sampling == in->sampling), RP_INTER_STAGE,
                 "location %u: interpolation differs between the stages (Flat/NoPerspective/Centroid/Sample "
                 "decorations must match)", (unsigned)in->location);
    }
    return true;
}

static bool uses_src_alpha(WGPUBlendFactor f)
{
    return f == WGPUBlendFactor_SrcAlpha || f == WGPUBlendFactor_OneMinusSrcAlpha ||
           f == WGPUBlendFactor_SrcAlphaSaturated;
}

/* Spec "validating GPUFragmentState", the shader part: a target with an output at its location
 * needs an output with at least the format's components and of the format's sample type, with
 * alpha when blending reads the source alpha; a target without one must have writeMask 0. */
static bool check_targets(const eg_vctx_t *v, const eg_shader_entry_t *fs, const struct WGPURenderPipelineImpl *rp)
{
    for (uint32_t t = 0; t < rp->color_target_count; t++) {
        const eg_color_target_t *ct = &rp->color_targets[t];
        if (ct->format == WGPUTextureFormat_Undefined) continue;
        const eg_shader_io_t *out = io_at(fs->outputs, fs->output_count, t);
        const eg_format_info_t *fi = eg_format_info(ct->format);
        if (!out) {
            EG_CHECK(v, ct->write_mask == 0, RP_TARGET_OUTPUT,
                     "fragment.targets[%u].writeMask is 0x%x but the fragment shader has no output at location "
                     "%u (set writeMask to 0 or write the output)", t, ct->write_mask, t);
            continue;
        }
        EG_CHECK(v, out->components >= fi->components, RP_TARGET_OUTPUT,
                 "fragment.targets[%u].format %s has %u components, but the shader's output at location %u has %u",
                 t, fi->name, fi->components, t, out->components);
        uint8_t want = fi->sample_type == WGPUTextureSampleType_Sint ? EG_SHADER_SCALAR_I32
                     : fi->sample_type == WGPUTextureSampleType_Uint ? EG_SHADER_SCALAR_U32 : EG_SHADER_SCALAR_F32;
        EG_CHECK(v, out->scalar == want, RP_TARGET_OUTPUT,
                 "fragment.targets[%u].format %s needs a %s output, but the shader's output at location %u is %s",
                 t, fi->name, scalar_name(want), t, scalar_name(out->scalar));
        bool src_alpha = ct->blend_enabled && (uses_src_alpha(ct->blend.color.srcFactor) ||
                                               uses_src_alpha(ct->blend.color.dstFactor));
        EG_CHECK(v, !src_alpha || out->components == 4, RP_TARGET_OUTPUT,
                 "fragment.targets[%u].blend.color reads the source alpha, but the shader's output at location "
                 "%u has %u components (no alpha)", t, t, out->components);
    }
    return true;
}

bool eg_render_pipeline_check_interface(const eg_vctx_t *v, const WGPURenderPipelineDescriptor *d,
                                        const struct WGPURenderPipelineImpl *rp)
{
    const eg_shader_entry_t *vs = rp->vertex.entry, *fs = rp->fragment.module ? rp->fragment.entry : NULL;
    if (!check_vertex_inputs(v, vs, rp) || !check_inter_stage(v, vs, fs, rp)) return false;
    if (!fs) return true;
    if (!check_targets(v, fs, rp)) return false;
    /* Spec "validating GPURenderPipelineDescriptor": alpha-to-coverage reads the alpha of the
     * output at location 0, so that output must exist with an alpha channel. */
    const eg_shader_io_t *out0 = io_at(fs->outputs, fs->output_count, 0);
    EG_CHECK(v, !rp->alpha_to_coverage || (out0 && out0->components == 4), RP_TARGET_OUTPUT,
             "multisample.alphaToCoverageEnabled needs a fragment output at location 0 with alpha, but the "
             "shader's has %u components", out0 ? out0->components : 0u);
    /* Spec "validating GPURenderPipelineDescriptor": a fragment shader writing frag_depth needs
     * a depthStencil whose format has a depth aspect. */
    const eg_format_info_t *dfi = d->depthStencil ? eg_format_info(d->depthStencil->format) : NULL;
    EG_CHECK(v, !(fs->builtins_out & EG_SHADER_BUILTIN_FRAG_DEPTH) || (dfi && (dfi->aspects & EG_ASPECT_DEPTH)),
             RP_FRAG_DEPTH, "the fragment shader writes FragDepth, so depthStencil must be set with a format "
             "that has depth (it is %s)", dfi ? dfi->name : "not set");
    return true;
}
