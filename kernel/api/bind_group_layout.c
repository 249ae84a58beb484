/* Bind group layouts: entry resolution, createBindGroupLayout validation, binding slot limits. */
#include "kernel/api/bind_group_layout.h"

#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/format/format.h"

#define ALL_STAGES (WGPUShaderStage_Vertex | WGPUShaderStage_Fragment | WGPUShaderStage_Compute)

static const char *const stage_names[EG_STAGE_COUNT] = { "vertex", "fragment", "compute" };

/* ---- entry resolution ---- */

/* Which member an entry sets. webgpu.h: BindingNotUsed (0, what zero-init gives) means "member
 * not used"; Undefined means "used, with the default type". Returns how many members are set. */
static uint32_t count_kinds(const WGPUBindGroupLayoutEntry *e, eg_binding_kind_t *kind)
{
    uint32_t n = 0;
    if (e->buffer.type != WGPUBufferBindingType_BindingNotUsed) { n++; *kind = EG_BINDING_BUFFER; }
    if (e->sampler.type != WGPUSamplerBindingType_BindingNotUsed) { n++; *kind = EG_BINDING_SAMPLER; }
    if (e->texture.sampleType != WGPUTextureSampleType_BindingNotUsed) { n++; *kind = EG_BINDING_TEXTURE; }
    if (e->storageTexture.access != WGPUStorageTextureAccess_BindingNotUsed) {
        n++;
        *kind = EG_BINDING_STORAGE_TEXTURE;
    }
    return n;
}

/* Copies an entry and replaces the Undefined sentinels with the spec defaults
 * (GPUBufferBindingLayout.type "uniform", GPUSamplerBindingLayout.type "filtering",
 * GPUTextureBindingLayout "float"/"2d", GPUStorageTextureBindingLayout "write-only"/"2d"). */
static void resolve_entry(const WGPUBindGroupLayoutEntry *e, eg_binding_kind_t kind, eg_bgl_entry_t *out)
{
    eg_memset(out, 0, sizeof *out);
    out->binding = e->binding;
    out->kind = (uint8_t)kind;
    out->visibility = (uint8_t)(e->visibility & ALL_STAGES);
    switch (kind) {
    case EG_BINDING_BUFFER:
        out->buffer_type = e->buffer.type == WGPUBufferBindingType_Undefined
                               ? WGPUBufferBindingType_Uniform : e->buffer.type;
        out->has_dynamic_offset = e->buffer.hasDynamicOffset ? 1 : 0;
        out->min_binding_size_B = e->buffer.minBindingSize;
        break;
    case EG_BINDING_SAMPLER:
        out->sampler_type = e->sampler.type == WGPUSamplerBindingType_Undefined
                                ? WGPUSamplerBindingType_Filtering : e->sampler.type;
        break;
    case EG_BINDING_TEXTURE:
        out->sample_type = e->texture.sampleType == WGPUTextureSampleType_Undefined
                               ? WGPUTextureSampleType_Float : e->texture.sampleType;
        out->view_dimension = e->texture.viewDimension == WGPUTextureViewDimension_Undefined
                                  ? WGPUTextureViewDimension_2D : e->texture.viewDimension;
        out->multisampled = e->texture.multisampled ? 1 : 0;
        break;
    case EG_BINDING_STORAGE_TEXTURE:
        out->access = e->storageTexture.access == WGPUStorageTextureAccess_Undefined
                          ? WGPUStorageTextureAccess_WriteOnly : e->storageTexture.access;
        out->view_dimension = e->storageTexture.viewDimension == WGPUTextureViewDimension_Undefined
                                  ? WGPUTextureViewDimension_2D : e->storageTexture.viewDimension;
        out->format = e->storageTexture.format;
        break;
    default:
        break;
    }
}

static bool valid_view_dimension(WGPUTextureViewDimension d)
{
    return d >= WGPUTextureViewDimension_1D && d <= WGPUTextureViewDimension_3D;
}

/* The enum fields of a resolved entry hold values of their enums. */
static bool validate_entry_enums(const eg_vctx_t *v, uint32_t i, const eg_bgl_entry_t *e)
{
    switch (e->kind) {
    case EG_BINDING_BUFFER:
        EG_CHECK(v, e->buffer_type >= WGPUBufferBindingType_Uniform &&
                    e->buffer_type <= WGPUBufferBindingType_ReadOnlyStorage, ENUM_VALUE,
                 "entries[%u].buffer.type 0x%x is not a WGPUBufferBindingType", i, (unsigned)e->buffer_type);
        break;
    case EG_BINDING_SAMPLER:
        EG_CHECK(v, e->sampler_type >= WGPUSamplerBindingType_Filtering &&
                    e->sampler_type <= WGPUSamplerBindingType_Comparison, ENUM_VALUE,
                 "entries[%u].sampler.type 0x%x is not a WGPUSamplerBindingType", i, (unsigned)e->sampler_type);
        break;
    case EG_BINDING_TEXTURE:
        EG_CHECK(v, e->sample_type >= WGPUTextureSampleType_Float &&
                    e->sample_type <= WGPUTextureSampleType_Uint, ENUM_VALUE,
                 "entries[%u].texture.sampleType 0x%x is not a WGPUTextureSampleType", i,
                 (unsigned)e->sample_type);
        EG_CHECK(v, valid_view_dimension(e->view_dimension), ENUM_VALUE,
                 "entries[%u].texture.viewDimension 0x%x is not a WGPUTextureViewDimension", i,
                 (unsigned)e->view_dimension);
        break;
    case EG_BINDING_STORAGE_TEXTURE:
        EG_CHECK(v, e->access >= WGPUStorageTextureAccess_WriteOnly &&
                    e->access <= WGPUStorageTextureAccess_ReadWrite, ENUM_VALUE,
                 "entries[%u].storageTexture.access 0x%x is not a WGPUStorageTextureAccess", i,
                 (unsigned)e->access);
        EG_CHECK(v, valid_view_dimension(e->view_dimension), ENUM_VALUE,
                 "entries[%u].storageTexture.viewDimension 0x%x is not a WGPUTextureViewDimension", i,
                 (unsigned)e->view_dimension);
        break;
    default:
        break;
    }
    return true;
}

/* Spec: createBindGroupLayout(), the per-entry rules. */
static bool validate_entry(const eg_vctx_t *v, uint32_t i, const WGPUBindGroupLayoutEntry *src,
                           eg_bgl_entry_t *e)
{
    EG_CHECK(v, src->nextInChain == NULL, UNKNOWN_STYPE,
             "entries[%u].nextInChain: sType 0x%x is not supported here (external textures are not)",
             i, (unsigned)src->nextInChain->sType);
    eg_binding_kind_t kind = EG_BINDING_NONE;
    uint32_t n = count_kinds(src, &kind);
    EG_CHECK(v, n == 1, BGL_ENTRY_KIND,
             "entries[%u] (binding %u) sets %u of buffer/sampler/texture/storageTexture; exactly one "
             "must have a type other than BindingNotUsed", i, src->binding, n);
    EG_CHECK(v, (src->visibility & ~(WGPUShaderStage)ALL_STAGES) == 0, BGL_VISIBILITY,
             "entries[%u].visibility 0x%llx has bits outside Vertex|Fragment|Compute", i,
             (unsigned long long)src->visibility);
    EG_CHECK(v, src->bindingArraySize <= 1, BGL_BINDING_ARRAY,
             "entries[%u].bindingArraySize %u: binding arrays are not supported (use 0 or 1)", i,
             src->bindingArraySize);
    resolve_entry(src, kind, e);
    if (!validate_entry_enums(v, i, e)) return false;
    if (e->visibility & WGPUShaderStage_Vertex) {
        EG_CHECK(v, !(kind == EG_BINDING_BUFFER && e->buffer_type == WGPUBufferBindingType_Storage),
                 BGL_VERTEX_WRITABLE,
                 "entries[%u]: buffer.type Storage (read-write) may not be visible to Vertex", i);
        EG_CHECK(v, !(kind == EG_BINDING_STORAGE_TEXTURE && e->access != WGPUStorageTextureAccess_ReadOnly),
                 BGL_VERTEX_WRITABLE,
                 "entries[%u]: storageTexture.access WriteOnly/ReadWrite may not be visible to Vertex", i);
    }
    if (kind == EG_BINDING_TEXTURE && e->multisampled) {
        EG_CHECK(v, e->view_dimension == WGPUTextureViewDimension_2D, BGL_MULTISAMPLED,
                 "entries[%u]: texture.multisampled needs viewDimension 2D (got 0x%x)", i,
                 (unsigned)e->view_dimension);
        EG_CHECK(v, e->sample_type != WGPUTextureSampleType_Float, BGL_MULTISAMPLED,
                 "entries[%u]: texture.multisampled needs a sampleType other than Float "
                 "(use UnfilterableFloat)", i);
    }
    if (kind == EG_BINDING_STORAGE_TEXTURE) {
        EG_CHECK(v, e->view_dimension != WGPUTextureViewDimension_Cube &&
                    e->view_dimension != WGPUTextureViewDimension_CubeArray,
                 BGL_STORAGE_TEXTURE_DIMENSION,
                 "entries[%u].storageTexture.viewDimension may not be Cube or CubeArray", i);
        const eg_format_info_t *fi = eg_format_info(e->format);
        uint64_t features = v->device->features;
        uint32_t need = e->access == WGPUStorageTextureAccess_ReadWrite ? EG_FMT_STORAGE_RW : EG_FMT_STORAGE;
        EG_CHECK(v, fi && eg_format_enabled(fi, features) && (eg_format_caps(fi, features) & need),
                 BGL_STORAGE_TEXTURE_FORMAT,
                 "entries[%u].storageTexture.format %s does not support %s storage access", i,
                 fi ? fi->name : "Undefined",
                 e->access == WGPUStorageTextureAccess_ReadWrite ? "read-write" : "read-only/write-only");
    }
    return true;
}

/* ---- binding slot counting ---- */

static void count_entry(eg_binding_counts_t *c, const eg_bgl_entry_t *e)
{
    for (uint32_t s = 0; s < EG_STAGE_COUNT; s++) {
        if (!(e->visibility & (1u << s))) continue;
        switch (e->kind) {
        case EG_BINDING_BUFFER:
            if (e->buffer_type == WGPUBufferBindingType_Uniform) c->uniform_buffers[s]++;
            else c->storage_buffers[s]++;
            break;
        case EG_BINDING_SAMPLER: c->samplers[s]++; break;
        case EG_BINDING_TEXTURE: c->sampled_textures[s]++; break;
        case EG_BINDING_STORAGE_TEXTURE: c->storage_textures[s]++; break;
        default: break;
        }
    }
    if (e->kind == EG_BINDING_BUFFER && e->has_dynamic_offset) {
        if (e->buffer_type == WGPUBufferBindingType_Uniform) c->dynamic_uniform_buffers++;
        else c->dynamic_storage_buffers++;
    }
}

void eg_binding_counts_add(eg_binding_counts_t *sum, const eg_binding_counts_t *add)
{
    for (uint32_t s = 0; s < EG_STAGE_COUNT; s++) {
        sum->sampled_textures[s] += add->sampled_textures[s];
        sum->samplers[s] += add->samplers[s];
        sum->storage_buffers[s] += add->storage_buffers[s];
        sum->storage_textures[s] += add->storage_textures[s];
        sum->uniform_buffers[s] += add->uniform_buffers[s];
    }
    sum->dynamic_uniform_buffers += add->dynamic_uniform_buffers;
    sum->dynamic_storage_buffers += add->dynamic_storage_buffers;
}

/* Spec: "exceeds the binding slot limits" (§ GPUBindGroupLayout). */
bool eg_binding_counts_check(const eg_vctx_t *v, const eg_binding_counts_t *c, const WGPULimits *lim)
{
    for (uint32_t s = 0; s < EG_STAGE_COUNT; s++) {
        EG_CHECK(v, c->sampled_textures[s] <= lim->maxSampledTexturesPerShaderStage, BINDING_SLOT_LIMIT,
                 "%u sampled textures visible to the %s stage exceed maxSampledTexturesPerShaderStage (%u)",
                 c->sampled_textures[s], stage_names[s], lim->maxSampledTexturesPerShaderStage);
        EG_CHECK(v, c->samplers[s] <= lim->maxSamplersPerShaderStage, BINDING_SLOT_LIMIT,
                 "%u samplers visible to the %s stage exceed maxSamplersPerShaderStage (%u)",
                 c->samplers[s], stage_names[s], lim->maxSamplersPerShaderStage);
        EG_CHECK(v, c->storage_buffers[s] <= lim->maxStorageBuffersPerShaderStage, BINDING_SLOT_LIMIT,
                 "%u storage buffers visible to the %s stage exceed maxStorageBuffersPerShaderStage (%u)",
                 c->storage_buffers[s], stage_names[s], lim->maxStorageBuffersPerShaderStage);
        EG_CHECK(v, c->storage_textures[s] <= lim->maxStorageTexturesPerShaderStage, BINDING_SLOT_LIMIT,
                 "%u storage textures visible to the %s stage exceed maxStorageTexturesPerShaderStage (%u)",
                 c->storage_textures[s], stage_names[s], lim->maxStorageTexturesPerShaderStage);
        EG_CHECK(v, c->uniform_buffers[s] <= lim->maxUniformBuffersPerShaderStage, BINDING_SLOT_LIMIT,
                 "%u uniform buffers visible to the %s stage exceed maxUniformBuffersPerShaderStage (%u)",
                 c->uniform_buffers[s], stage_names[s], lim->maxUniformBuffersPerShaderStage);
    }
    EG_CHECK(v, c->dynamic_uniform_buffers <= lim->maxDynamicUniformBuffersPerPipelineLayout,
             BINDING_SLOT_LIMIT, "%u dynamic uniform buffers exceed maxDynamicUniformBuffersPerPipelineLayout (%u)",
             c->dynamic_uniform_buffers, lim->maxDynamicUniformBuffersPerPipelineLayout);
    EG_CHECK(v, c->dynamic_storage_buffers <= lim->maxDynamicStorageBuffersPerPipelineLayout,
             BINDING_SLOT_LIMIT, "%u dynamic storage buffers exceed maxDynamicStorageBuffersPerPipelineLayout (%u)",
             c->dynamic_storage_buffers, lim->maxDynamicStorageBuffersPerPipelineLayout);
    return true;
}

const eg_bgl_entry_t *eg_bind_group_layout_find(const struct WGPUBindGroupLayoutImpl *bgl, uint32_t binding)
{
    for (uint32_t i = 0; i < bgl->entry_count; i++)
        if (bgl->entries[i].binding == binding) return &bgl->entries[i];
    return NULL;
}

/* Insertion sort by binding number: entry counts are small and bounded, no recursion. */
static void sort_entries(eg_bgl_entry_t *e, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        eg_bgl_entry_t t = e[i];
        uint32_t j = i;
        while (j > 0 && e[j - 1].binding > t.binding) { e[j] = e[j - 1]; j--; }
        e[j] = t;
    }
}

/* Spec: createBindGroupLayout(). Per-entry rules come before the summed slot limits (they need
 * each entry's kind); binding range and uniqueness first, as the spec lists them. */
static bool validate_desc(const eg_vctx_t *v, const WGPUBindGroupLayoutDescriptor *d,
                          struct WGPUBindGroupLayoutImpl *bgl)
{
    const WGPULimits *lim = &v->device->limits;
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             (unsigned)d->nextInChain->sType);
    EG_CHECK(v, d->entryCount == 0 || d->entries != NULL, NULL_DESCRIPTOR,
             "entries is NULL but entryCount is %u", (unsigned)d->entryCount);
    if (d->entryCount > EMGPU_MAX_BINDINGS_PER_GROUP)
        return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_INLINE_BOUND,
                       "entryCount %u exceeds the entries a layout can hold (EMGPU_MAX_BINDINGS_PER_GROUP = %u)",
                       (unsigned)d->entryCount, (unsigned)EMGPU_MAX_BINDINGS_PER_GROUP);
    uint32_t n = (uint32_t)d->entryCount;
    for (uint32_t i = 0; i < n; i++) {
        EG_CHECK(v, d->entries[i].binding < lim->maxBindingsPerBindGroup, BGL_BINDING_TOO_LARGE,
                 "entries[%u].binding %u must be < maxBindingsPerBindGroup (%u)", i,
                 d->entries[i].binding, lim->maxBindingsPerBindGroup);
        for (uint32_t j = 0; j < i; j++)
            EG_CHECK(v, d->entries[j].binding != d->entries[i].binding, BGL_BINDING_DUPLICATE,
                     "entries[%u] and entries[%u] both use binding %u", j, i, d->entries[i].binding);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!validate_entry(v, i, &d->entries[i], &bgl->entries[i])) return false;
        count_entry(&bgl->counts, &bgl->entries[i]);
        bgl->dynamic_count += bgl->entries[i].has_dynamic_offset;
    }
    bgl->entry_count = n;
    sort_entries(bgl->entries, n);
    return eg_binding_counts_check(v, &bgl->counts, lim);
}

/* ---- entry points ---- */

bool eg_binding_hal_fail(const eg_vctx_t *v, eg_status_t st, const char *what)
{
    return eg_fail_hal(v, st, what, 0);
}

static void destroy_bgl(void *object)
{
    struct WGPUBindGroupLayoutImpl *bgl = object;
    struct WGPUDeviceImpl *dev = bgl->obj.device;
    if (!bgl->obj.invalid) dev->hal->bind_group_layout_destroy(dev->hal_dev, bgl);
    eg_object_free(bgl);
}

struct WGPUBindGroupLayoutImpl *eg_bind_group_layout_create(const eg_vctx_t *pv,
                                                            const WGPUBindGroupLayoutDescriptor *descriptor,
                                                            uint32_t exclusive_id)
{
    eg_vctx_t v = *pv;
    struct WGPUDeviceImpl *device = v.device;
    struct WGPUBindGroupLayoutImpl *bgl = eg_object_alloc(&v, device, EG_KIND_BIND_GROUP_LAYOUT);
    if (!bgl) return NULL;
    eg_object_set_label(&bgl->obj, descriptor->label);
    if (!exclusive_id) v.label = bgl->obj.label;
    if (!validate_desc(&v, descriptor, bgl)) {
        bgl->obj.invalid = 1;
        return bgl;
    }
    for (uint32_t i = 0; i < bgl->entry_count; i++) bgl->entries[i].exclusive_id = exclusive_id;
    eg_status_t st = device->hal->bind_group_layout_create(device->hal_dev, bgl);
    if (st != EG_STATUS_OK) bgl->obj.invalid = !eg_binding_hal_fail(&v, st, "bind group layout");
    return bgl;
}

WGPUBindGroupLayout wgpuDeviceCreateBindGroupLayout(WGPUDevice device,
                                                    WGPUBindGroupLayoutDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuDeviceCreateBindGroupLayout", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false)) return NULL;
    v.device = device;
    if (!descriptor) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return NULL;
    }
    return eg_bind_group_layout_create(&v, descriptor, 0);
}

void wgpuBindGroupLayoutSetLabel(WGPUBindGroupLayout bindGroupLayout, WGPUStringView label)
{
    if (!eg_handle_live(bindGroupLayout, EG_KIND_BIND_GROUP_LAYOUT, "wgpuBindGroupLayoutSetLabel")) return;
    eg_object_set_label(&bindGroupLayout->obj, label);
}

void wgpuBindGroupLayoutAddRef(WGPUBindGroupLayout bindGroupLayout)
{
    if (!eg_handle_live(bindGroupLayout, EG_KIND_BIND_GROUP_LAYOUT, "wgpuBindGroupLayoutAddRef")) return;
    eg_object_ref(bindGroupLayout);
}

void wgpuBindGroupLayoutRelease(WGPUBindGroupLayout bindGroupLayout)
{
    if (!eg_handle_live(bindGroupLayout, EG_KIND_BIND_GROUP_LAYOUT, "wgpuBindGroupLayoutRelease")) return;
    eg_object_unref(bindGroupLayout, destroy_bgl);
}
