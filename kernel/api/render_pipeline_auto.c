/* Layout "auto" (spec "default pipeline layout") and wgpu*PipelineGetBindGroupLayout. */
#include "kernel/api/compute_pipeline.h"

#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/pipeline_layout.h"

static uint32_t stage_bit(eg_shader_stage_t s)
{
    return s == EG_SHADER_STAGE_VERTEX ? WGPUShaderStage_Vertex
         : s == EG_SHADER_STAGE_FRAGMENT ? WGPUShaderStage_Fragment : WGPUShaderStage_Compute;
}

/* The layout entry the spec derives for one shader resource. */
static WGPUBindGroupLayoutEntry derive_entry(const eg_shader_binding_t *b, uint32_t visibility)
{
    WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    e.binding = b->binding;
    e.visibility = visibility;
    switch (b->kind) {
    case EG_SHADER_BINDING_UNIFORM:
    case EG_SHADER_BINDING_STORAGE:
    case EG_SHADER_BINDING_STORAGE_READ_ONLY:
        e.buffer.type = b->kind == EG_SHADER_BINDING_UNIFORM ? WGPUBufferBindingType_Uniform
                      : b->kind == EG_SHADER_BINDING_STORAGE ? WGPUBufferBindingType_Storage
                                                             : WGPUBufferBindingType_ReadOnlyStorage;
        e.buffer.minBindingSize = b->min_size_B;
        break;
    case EG_SHADER_BINDING_SAMPLER:
        e.sampler.type = b->used_compare ? WGPUSamplerBindingType_Comparison : WGPUSamplerBindingType_Filtering;
        break;
    case EG_SHADER_BINDING_SAMPLED_TEXTURE:
        /* f32 textures: Float when a sampling instruction filters them, else UnfilterableFloat. */
        e.texture.sampleType = b->texture_class == EG_SHADER_TEXTURE_DEPTH ? WGPUTextureSampleType_Depth
                             : b->texture_class == EG_SHADER_TEXTURE_SINT ? WGPUTextureSampleType_Sint
                             : b->texture_class == EG_SHADER_TEXTURE_UINT ? WGPUTextureSampleType_Uint
                             : b->used_filtered ? WGPUTextureSampleType_Float : WGPUTextureSampleType_UnfilterableFloat;
        e.texture.viewDimension = (WGPUTextureViewDimension)b->view_dim;
        e.texture.multisampled = b->multisampled;
        break;
    default:
        e.storageTexture.access = (WGPUStorageTextureAccess)b->storage_access;
        e.storageTexture.format = (WGPUTextureFormat)b->texture_format;
        e.storageTexture.viewDimension = (WGPUTextureViewDimension)b->view_dim;
        break;
    }
    return e;
}

/* Spec "default pipeline layout": a binding used by several stages becomes one entry whose
 * visibility has every stage; buffer minBindingSize is the largest; Float wins over
 * UnfilterableFloat. Any other difference makes the layout impossible. */
static bool merge_entry(const eg_vctx_t *v, uint32_t group, WGPUBindGroupLayoutEntry *have,
                        const WGPUBindGroupLayoutEntry *add)
{
    have->visibility |= add->visibility;
    if (have->buffer.minBindingSize < add->buffer.minBindingSize) have->buffer.minBindingSize = add->buffer.minBindingSize;
    if (have->texture.sampleType == WGPUTextureSampleType_UnfilterableFloat &&
        add->texture.sampleType == WGPUTextureSampleType_Float)
        have->texture.sampleType = WGPUTextureSampleType_Float;
    bool texture_same = have->texture.sampleType == add->texture.sampleType ||
                        (have->texture.sampleType == WGPUTextureSampleType_Float &&
                         add->texture.sampleType == WGPUTextureSampleType_UnfilterableFloat);
    EG_CHECK(v, have->buffer.type == add->buffer.type && have->sampler.type == add->sampler.type && texture_same &&
                have->texture.viewDimension == add->texture.viewDimension &&
                have->texture.multisampled == add->texture.multisampled &&
                have->storageTexture.access == add->storageTexture.access &&
                have->storageTexture.format == add->storageTexture.format &&
                have->storageTexture.viewDimension == add->storageTexture.viewDimension, PIPE_AUTO_LAYOUT,
             "layout auto: group %u binding %u is used differently by two stages (type, dimension or "
             "format), so no default layout fits both", (unsigned)group, (unsigned)add->binding);
    return true;
}

/* Collects the entries of one group from every stage. */
static bool gather_group(const eg_vctx_t *v, const eg_stage_t *const *stages, uint32_t stage_count, uint32_t g,
                         WGPUBindGroupLayoutEntry *out, uint32_t *count)
{
    *count = 0;
    for (uint32_t s = 0; s < stage_count; s++) {
        const eg_shader_entry_t *e = stages[s]->entry;
        for (uint32_t i = 0; i < e->binding_count; i++) {
            const eg_shader_binding_t *b = &e->bindings[i];
            if (b->group != g) continue;
            WGPUBindGroupLayoutEntry add = derive_entry(b, stage_bit(e->stage));
            uint32_t k = 0;
            while (k < *count && out[k].binding != b->binding) k++;
            if (k < *count) {
                if (!merge_entry(v, g, &out[k], &add)) return false;
                continue;
            }
            if (*count >= EMGPU_MAX_BINDINGS_PER_GROUP)
                return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_INLINE_BOUND,
                               "layout auto: group %u uses more bindings than a layout holds "
                               "(EMGPU_MAX_BINDINGS_PER_GROUP = %u)", (unsigned)g, (unsigned)EMGPU_MAX_BINDINGS_PER_GROUP);
            out[(*count)++] = add;
        }
    }
    return true;
}

/* An id for the pipeline's derived layouts, unique among live pipelines of both kinds. */
static uint32_t exclusive_id_of(const void *owner)
{
    const eg_object_t *o = owner;
    eg_pool_t *pool = eg_pool_of(owner, (eg_kind_t)o->slot.kind);
    eg_ref_t r = pool ? eg_pool_ref(pool, owner) : (eg_ref_t){ 0, 0 };
    uint32_t kind_bit = o->slot.kind == EG_KIND_COMPUTE_PIPELINE ? 0x8000u : 0u;
    return ((uint32_t)r.gen << 16 | kind_bit | r.index) | 0x80000000u;   /* never 0 */
}

/* Spec "default pipeline layout": a group index the shader uses must be < maxBindGroups. */
static bool check_auto_group(const eg_vctx_t *v, uint32_t group, const WGPULimits *lim)
{
    EG_CHECK(v, group < lim->maxBindGroups, PIPE_AUTO_LAYOUT,
             "layout auto: the shader uses group %u, but maxBindGroups is %u", (unsigned)group,
             (unsigned)lim->maxBindGroups);
    if (group >= EMGPU_MAX_BIND_GROUPS_PER_LAYOUT)
        return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_INLINE_BOUND,
                       "layout auto: group %u exceeds what a layout holds (EMGPU_MAX_BIND_GROUPS_PER_LAYOUT = %u)",
                       (unsigned)group, (unsigned)EMGPU_MAX_BIND_GROUPS_PER_LAYOUT);
    return true;
}

struct WGPUPipelineLayoutImpl *eg_pipeline_layout_derive(const eg_vctx_t *v, const eg_stage_t *const *stages,
                                                         uint32_t stage_count, const void *owner)
{
    const WGPULimits *lim = &v->device->limits;
    uint32_t groups = 0;
    for (uint32_t s = 0; s < stage_count; s++)
        for (uint32_t i = 0; i < stages[s]->entry->binding_count; i++) {
            uint32_t g = stages[s]->entry->bindings[i].group;
            if (!check_auto_group(v, g, lim)) return NULL;
            if (g + 1 > groups) groups = g + 1;
        }
    WGPUBindGroupLayout bgls[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT] = { 0 };
    WGPUBindGroupLayoutEntry entries[EMGPU_MAX_BINDINGS_PER_GROUP];
    uint32_t id = exclusive_id_of(owner), made = 0;
    bool ok = true;
    for (uint32_t g = 0; g < groups && ok; g++) {
        uint32_t n = 0;
        ok = gather_group(v, stages, stage_count, g, entries, &n);
        if (!ok) break;
        WGPUBindGroupLayoutDescriptor bd = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
        bd.label = (WGPUStringView){ "layout auto", WGPU_STRLEN };
        bd.entryCount = n;
        bd.entries = entries;
        bgls[g] = eg_bind_group_layout_create(v, &bd, id);
        made = g + 1;
        ok = bgls[g] && !bgls[g]->obj.invalid;
    }
    struct WGPUPipelineLayoutImpl *pl = NULL;
    if (ok) {
        WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
        pd.label = (WGPUStringView){ "layout auto", WGPU_STRLEN };
        pd.bindGroupLayoutCount = groups;
        pd.bindGroupLayouts = bgls;
        pl = eg_pipeline_layout_create(v, &pd);
        if (pl && pl->obj.invalid) {
            wgpuPipelineLayoutRelease(pl);
            pl = NULL;
        }
    }
    for (uint32_t g = 0; g < made; g++)   /* the pipeline layout holds its own references */
        if (bgls[g]) wgpuBindGroupLayoutRelease(bgls[g]);
    return pl;
}

/* ---- GetBindGroupLayout ---- */

/* Spec getBindGroupLayout(index): index < maxBindGroups (and, here, a group of the layout that
 * is not null), the pipeline valid; then a new reference to the layout's group. On failure a
 * validation error and an invalid bind group layout. */
static WGPUBindGroupLayout get_bgl(const eg_vctx_t *v, const eg_object_t *pipe,
                                   const struct WGPUPipelineLayoutImpl *pl, uint32_t index)
{
    const WGPULimits *lim = &v->device->limits;
    bool ok = false;
    if (pipe->invalid)
        eg_fail(v, WGPUErrorType_Validation, EG_E_INVALID_OBJECT, "the pipeline is invalid (its creation failed)");
    else if (index >= lim->maxBindGroups)
        eg_fail(v, WGPUErrorType_Validation, EG_E_PIPE_BGL_INDEX, "groupIndex %u must be < maxBindGroups (%u)",
                (unsigned)index, (unsigned)lim->maxBindGroups);
    else if (index >= pl->group_count || !pl->groups[index])
        eg_fail(v, WGPUErrorType_Validation, EG_E_PIPE_BGL_INDEX, "groupIndex %u: the pipeline's layout has %s",
                (unsigned)index, index >= pl->group_count ? "fewer groups" : "a null group there");
    else
        ok = true;
    if (ok) {
        eg_object_ref(pl->groups[index]);
        return pl->groups[index];
    }
    struct WGPUBindGroupLayoutImpl *bgl = eg_object_alloc(v, v->device, EG_KIND_BIND_GROUP_LAYOUT);
    if (bgl) bgl->obj.invalid = 1;
    return bgl;
}

WGPUBindGroupLayout wgpuRenderPipelineGetBindGroupLayout(WGPURenderPipeline renderPipeline, uint32_t groupIndex)
{
    if (!eg_handle_live(renderPipeline, EG_KIND_RENDER_PIPELINE, "wgpuRenderPipelineGetBindGroupLayout")) return NULL;
    eg_vctx_t v = eg_vctx(renderPipeline->obj.device, "wgpuRenderPipelineGetBindGroupLayout", renderPipeline->obj.label);
    return get_bgl(&v, &renderPipeline->obj, renderPipeline->layout, groupIndex);
}

WGPUBindGroupLayout wgpuComputePipelineGetBindGroupLayout(WGPUComputePipeline computePipeline, uint32_t groupIndex)
{
    if (!eg_handle_live(computePipeline, EG_KIND_COMPUTE_PIPELINE, "wgpuComputePipelineGetBindGroupLayout")) return NULL;
    eg_vctx_t v = eg_vctx(computePipeline->obj.device, "wgpuComputePipelineGetBindGroupLayout", computePipeline->obj.label);
    return get_bgl(&v, &computePipeline->obj, computePipeline->layout, groupIndex);
}
