/* Bind groups: createBindGroup validation, resource references, and the tracker uses of entries. */
#include "kernel/api/bind_group.h"

#include "kernel/api/buffer.h"
#include "kernel/api/device.h"
#include "kernel/api/features.h"
#include "kernel/api/instance.h"
#include "kernel/api/sampler.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/base/fmt.h"

/* A live, valid object of this device (spec "valid to use with"). Destroyed buffers and
 * textures are fine here: using them is an error only at submit. */
static bool resource_ok(const eg_vctx_t *v, const void *h, eg_kind_t kind, uint32_t i, const char *field)
{
    char what[40];
    eg_fmt(what, sizeof what, "entries[%u].%s", i, field);
    if (!eg_handle_check(v, h, kind, what, false)) return false;
    EG_CHECK(v, ((const eg_object_t *)h)->device == v->device, WRONG_DEVICE, "%s belongs to another device", what);
    return true;
}

/* Spec: createBindGroup(), the "buffer" case. */
static bool check_buffer(const eg_vctx_t *v, uint32_t i, const WGPUBindGroupEntry *e, const eg_bgl_entry_t *l,
                         eg_bind_entry_t *out)
{
    const WGPULimits *lim = &v->device->limits;
    if (!resource_ok(v, e->buffer, EG_KIND_BUFFER, i, "buffer")) return false;
    const struct WGPUBufferImpl *b = e->buffer;
    EG_CHECK(v, e->offset <= b->size_B && (e->size == WGPU_WHOLE_SIZE || e->size <= b->size_B - e->offset),
             BG_BUFFER_RANGE, "entries[%u] (binding %u): offset %llu + size %llu is past the end of the "
             "buffer (%llu bytes)", i, e->binding, (unsigned long long)e->offset, (unsigned long long)e->size,
             (unsigned long long)b->size_B);
    uint64_t size = e->size == WGPU_WHOLE_SIZE ? b->size_B - e->offset : e->size;
    EG_CHECK(v, size > 0, BG_BUFFER_RANGE, "entries[%u] (binding %u): the bound range is empty "
             "(size 0, or offset %llu at the end of the buffer)", i, e->binding, (unsigned long long)e->offset);
    EG_CHECK(v, size >= l->min_binding_size_B, BG_BUFFER_MIN_BINDING_SIZE,
             "entries[%u] (binding %u): size %llu is below the layout's minBindingSize %llu", i, e->binding,
             (unsigned long long)size, (unsigned long long)l->min_binding_size_B);
    if (l->buffer_type == WGPUBufferBindingType_Uniform) {
        EG_CHECK(v, b->usage & WGPUBufferUsage_Uniform, BG_BUFFER_USAGE,
                 "entries[%u] (binding %u): buffer \"%s\" lacks WGPUBufferUsage_Uniform", i, e->binding, b->obj.label);
        EG_CHECK(v, size <= lim->maxUniformBufferBindingSize, BG_BUFFER_BINDING_SIZE,
                 "entries[%u] (binding %u): size %llu exceeds maxUniformBufferBindingSize (%llu)", i, e->binding,
                 (unsigned long long)size, (unsigned long long)lim->maxUniformBufferBindingSize);
        EG_CHECK(v, e->offset % lim->minUniformBufferOffsetAlignment == 0, BG_BUFFER_OFFSET_ALIGNMENT,
                 "entries[%u] (binding %u): offset %llu is not a multiple of minUniformBufferOffsetAlignment (%u)",
                 i, e->binding, (unsigned long long)e->offset, lim->minUniformBufferOffsetAlignment);
    } else {
        EG_CHECK(v, b->usage & WGPUBufferUsage_Storage, BG_BUFFER_USAGE,
                 "entries[%u] (binding %u): buffer \"%s\" lacks WGPUBufferUsage_Storage", i, e->binding, b->obj.label);
        EG_CHECK(v, size <= lim->maxStorageBufferBindingSize, BG_BUFFER_BINDING_SIZE,
                 "entries[%u] (binding %u): size %llu exceeds maxStorageBufferBindingSize (%llu)", i, e->binding,
                 (unsigned long long)size, (unsigned long long)lim->maxStorageBufferBindingSize);
        EG_CHECK(v, size % 4 == 0, BG_STORAGE_SIZE_ALIGNMENT,
                 "entries[%u] (binding %u): storage binding size %llu is not a multiple of 4", i, e->binding,
                 (unsigned long long)size);
        EG_CHECK(v, e->offset % lim->minStorageBufferOffsetAlignment == 0, BG_BUFFER_OFFSET_ALIGNMENT,
                 "entries[%u] (binding %u): offset %llu is not a multiple of minStorageBufferOffsetAlignment (%u)",
                 i, e->binding, (unsigned long long)e->offset, lim->minStorageBufferOffsetAlignment);
    }
    out->buffer = e->buffer;
    out->offset_B = e->offset;
    out->size_B = size;
    return true;
}

/* Spec: createBindGroup(), the "sampler" case. A sampler compares when it has a compare
 * function, and filters when any of its filters is Linear (spec [[isComparison]], [[isFiltering]]). */
static bool check_sampler(const eg_vctx_t *v, uint32_t i, const WGPUBindGroupEntry *e, const eg_bgl_entry_t *l,
                          eg_bind_entry_t *out)
{
    if (!resource_ok(v, e->sampler, EG_KIND_SAMPLER, i, "sampler")) return false;
    const WGPUSamplerDescriptor *s = &e->sampler->desc;
    bool comparison = s->compare != WGPUCompareFunction_Undefined;
    bool filtering = s->magFilter == WGPUFilterMode_Linear || s->minFilter == WGPUFilterMode_Linear ||
                     s->mipmapFilter == WGPUMipmapFilterMode_Linear;
    switch (l->sampler_type) {
    case WGPUSamplerBindingType_Filtering:
        EG_CHECK(v, !comparison, BG_SAMPLER_TYPE, "entries[%u] (binding %u): a comparison sampler cannot "
                 "bind to a Filtering sampler binding", i, e->binding);
        break;
    case WGPUSamplerBindingType_NonFiltering:
        EG_CHECK(v, !comparison && !filtering, BG_SAMPLER_TYPE, "entries[%u] (binding %u): a NonFiltering "
                 "binding needs a sampler with no compare and no Linear filter", i, e->binding);
        break;
    default:
        EG_CHECK(v, comparison, BG_SAMPLER_TYPE, "entries[%u] (binding %u): a Comparison binding needs a "
                 "sampler with a compare function", i, e->binding);
        break;
    }
    out->sampler = e->sampler;
    return true;
}

/* Spec "possible sample types" of the aspect-specific format a view exposes. */
static bool sample_type_compatible(const struct WGPUTextureViewImpl *tv, WGPUTextureSampleType st, uint64_t features)
{
    const eg_format_info_t *fi = tv->fi;
    if (eg_format_is_depth_stencil(fi)) {
        uint32_t aspects = eg_format_aspects_selected(fi, tv->aspect);
        if (aspects == EG_ASPECT_DEPTH) return st == WGPUTextureSampleType_Depth || st == WGPUTextureSampleType_UnfilterableFloat;
        if (aspects == EG_ASPECT_STENCIL) return st == WGPUTextureSampleType_Uint;
        return false;   /* both aspects: a binding sees one aspect only */
    }
    if (fi->sample_type == WGPUTextureSampleType_Float || fi->sample_type == WGPUTextureSampleType_UnfilterableFloat) {
        bool filterable = fi->sample_type == WGPUTextureSampleType_Float || (eg_format_caps(fi, features) & EG_FMT_FILTERABLE);
        return st == WGPUTextureSampleType_UnfilterableFloat || (st == WGPUTextureSampleType_Float && filterable);
    }
    return st == fi->sample_type;
}

/* Spec: createBindGroup(), the "texture" and "storageTexture" cases. */
static bool check_view(const eg_vctx_t *v, uint32_t i, const WGPUBindGroupEntry *e, const eg_bgl_entry_t *l,
                       eg_bind_entry_t *out)
{
    if (!resource_ok(v, e->textureView, EG_KIND_TEXTURE_VIEW, i, "textureView")) return false;
    const struct WGPUTextureViewImpl *tv = e->textureView;
    EG_CHECK(v, tv->dimension == l->view_dimension, BG_VIEW_DIMENSION,
             "entries[%u] (binding %u): view dimension 0x%x differs from the layout's viewDimension 0x%x",
             i, e->binding, (unsigned)tv->dimension, (unsigned)l->view_dimension);
    if (l->kind == EG_BINDING_TEXTURE) {
        EG_CHECK(v, sample_type_compatible(tv, l->sample_type, v->device->features), BG_SAMPLE_TYPE,
                 "entries[%u] (binding %u): view format %s (aspect 0x%x) cannot be sampled as sampleType 0x%x",
                 i, e->binding, tv->fi->name, (unsigned)tv->aspect, (unsigned)l->sample_type);
        EG_CHECK(v, tv->usage & WGPUTextureUsage_TextureBinding, BG_TEXTURE_USAGE,
                 "entries[%u] (binding %u): the view's usage lacks WGPUTextureUsage_TextureBinding", i, e->binding);
        uint32_t samples = tv->texture->sample_count;
        EG_CHECK(v, l->multisampled ? samples > 1 : samples == 1, BG_MULTISAMPLED,
                 "entries[%u] (binding %u): texture sampleCount %u, but the layout says multisampled %s", i,
                 e->binding, samples, l->multisampled ? "true" : "false");
    } else {
        EG_CHECK(v, tv->format == l->format, BG_STORAGE_FORMAT,
                 "entries[%u] (binding %u): view format %s differs from the layout's storageTexture.format", i,
                 e->binding, tv->fi->name);
        EG_CHECK(v, tv->usage & WGPUTextureUsage_StorageBinding, BG_TEXTURE_USAGE,
                 "entries[%u] (binding %u): the view's usage lacks WGPUTextureUsage_StorageBinding", i, e->binding);
        EG_CHECK(v, tv->mip_level_count == 1, BG_STORAGE_MIP_COUNT,
                 "entries[%u] (binding %u): storage texture view has mipLevelCount %u, must be 1", i, e->binding,
                 tv->mip_level_count);
    }
    out->view = e->textureView;
    return true;
}

static bool check_entry(const eg_vctx_t *v, uint32_t i, const WGPUBindGroupEntry *e, const eg_bgl_entry_t *l,
                        eg_bind_entry_t *out)
{
    static const char *const kind_names[] = { "?", "buffer", "sampler", "textureView", "textureView" };
    EG_CHECK(v, e->nextInChain == NULL, UNKNOWN_STYPE, "entries[%u].nextInChain: sType 0x%x is not supported "
             "(external textures are not)", i, (unsigned)e->nextInChain->sType);
    bool is_buf = l->kind == EG_BINDING_BUFFER, is_smp = l->kind == EG_BINDING_SAMPLER;
    bool is_view = !is_buf && !is_smp;
    EG_CHECK(v, (e->buffer != NULL) == is_buf && (e->sampler != NULL) == is_smp && (e->textureView != NULL) == is_view,
             BG_RESOURCE_KIND, "entries[%u] (binding %u): the layout expects only %s to be set", i, e->binding,
             kind_names[l->kind]);
    out->binding = e->binding;
    out->kind = l->kind;
    if (is_buf) return check_buffer(v, i, e, l, out);
    if (is_smp) return check_sampler(v, i, e, l, out);
    return check_view(v, i, e, l, out);
}

/* Spec: createBindGroup(). Entry i is stored at the index of its layout entry. */
static bool validate_desc(const eg_vctx_t *v, const WGPUBindGroupDescriptor *d, struct WGPUBindGroupImpl *bg)
{
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             (unsigned)d->nextInChain->sType);
    if (!eg_handle_check(v, d->layout, EG_KIND_BIND_GROUP_LAYOUT, "layout", false)) return false;
    const struct WGPUBindGroupLayoutImpl *bgl = d->layout;
    EG_CHECK(v, bgl->obj.device == v->device, WRONG_DEVICE, "layout belongs to another device");
    EG_CHECK(v, d->entryCount == 0 || d->entries, NULL_DESCRIPTOR, "entries is NULL but entryCount is %u",
             (unsigned)d->entryCount);
    EG_CHECK(v, d->entryCount == bgl->entry_count, BG_ENTRY_COUNT,
             "entryCount %u differs from the layout's %u entries", (unsigned)d->entryCount, bgl->entry_count);
    bool seen[EMGPU_MAX_BINDINGS_PER_GROUP] = { false };
    for (uint32_t i = 0; i < bgl->entry_count; i++) {
        const WGPUBindGroupEntry *e = &d->entries[i];
        const eg_bgl_entry_t *l = eg_bind_group_layout_find(bgl, e->binding);
        EG_CHECK(v, l != NULL, BG_BINDING_UNKNOWN, "entries[%u].binding %u is not in the layout", i, e->binding);
        uint32_t j = (uint32_t)(l - bgl->entries);
        EG_CHECK(v, !seen[j], BG_BINDING_DUPLICATE, "entries[%u].binding %u is given twice", i, e->binding);
        seen[j] = true;
        if (!check_entry(v, i, e, l, &bg->entries[j])) return false;
    }
    bg->entry_count = bgl->entry_count;
    return true;
}

/* References are taken only for a valid bind group, so an invalid one holds none. */
static void take_refs(struct WGPUBindGroupImpl *bg, struct WGPUBindGroupLayoutImpl *layout)
{
    bg->layout = layout;
    eg_object_ref(layout);
    for (uint32_t i = 0; i < bg->entry_count; i++) {
        eg_bind_entry_t *e = &bg->entries[i];
        if (e->buffer) eg_object_ref(e->buffer);
        if (e->sampler) eg_object_ref(e->sampler);
        if (e->view) eg_object_ref(e->view);
    }
}

static void destroy_bg(void *object)
{
    struct WGPUBindGroupImpl *bg = object;
    struct WGPUDeviceImpl *dev = bg->obj.device;
    if (bg->layout) {   /* refs were taken (validation passed) */
        if (!bg->obj.invalid) dev->hal->bind_group_destroy(dev->hal_dev, bg);
        for (uint32_t i = 0; i < bg->entry_count; i++) {
            eg_bind_entry_t *e = &bg->entries[i];
            if (e->buffer) wgpuBufferRelease(e->buffer);
            if (e->sampler) wgpuSamplerRelease(e->sampler);
            if (e->view) wgpuTextureViewRelease(e->view);
        }
        wgpuBindGroupLayoutRelease(bg->layout);
    }
    eg_object_free(bg);
}

uint32_t eg_bind_group_uses(const struct WGPUBindGroupImpl *bg, eg_bind_use_t *out, uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < bg->entry_count; i++) {
        const eg_bind_entry_t *e = &bg->entries[i];
        const eg_bgl_entry_t *l = &bg->layout->entries[i];
        if (e->kind == EG_BINDING_SAMPLER) continue;
        if (n < cap) {
            eg_bind_use_t *u = &out[n];
            eg_memset(u, 0, sizeof *u);
            u->entry = i;
            if (e->kind == EG_BINDING_BUFFER) {
                u->kind = EG_TRACK_KIND_BUFFER;
                u->dynamic = l->has_dynamic_offset;
                u->index = (uint16_t)eg_pool_index(eg_pool_of(e->buffer, EG_KIND_BUFFER), e->buffer);
                u->destroyed = e->buffer->obj.destroyed;
                u->use = l->buffer_type == WGPUBufferBindingType_Uniform ? EG_TRACK_BUF_UNIFORM
                       : l->buffer_type == WGPUBufferBindingType_ReadOnlyStorage ? EG_TRACK_BUF_STORAGE_READ
                                                                                 : EG_TRACK_BUF_STORAGE_WRITE;
                u->offset_B = e->offset_B;
                u->size_B = e->size_B;
                u->range = (eg_track_range_t){ 0, 1, 0, 1 };
            } else {
                const struct WGPUTextureViewImpl *tv = e->view;
                u->kind = EG_TRACK_KIND_TEXTURE;
                u->index = (uint16_t)eg_pool_index(eg_pool_of(tv->texture, EG_KIND_TEXTURE), tv->texture);
                u->destroyed = tv->texture->obj.destroyed;
                u->use = e->kind == EG_BINDING_TEXTURE ? EG_TRACK_TEX_SAMPLED
                       : l->access == WGPUStorageTextureAccess_ReadOnly ? EG_TRACK_TEX_STORAGE_READ
                                                                        : EG_TRACK_TEX_STORAGE_WRITE;
                u->range = (eg_track_range_t){ (uint16_t)tv->base_mip_level, (uint16_t)tv->mip_level_count,
                                               (uint16_t)tv->base_array_layer, (uint16_t)tv->array_layer_count };
            }
        }
        n++;
    }
    return n;
}

WGPUBindGroup wgpuDeviceCreateBindGroup(WGPUDevice device, WGPUBindGroupDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuDeviceCreateBindGroup", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false)) return NULL;
    v.device = device;
    if (!descriptor) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return NULL;
    }
    struct WGPUBindGroupImpl *bg = eg_object_alloc(&v, device, EG_KIND_BIND_GROUP);
    if (!bg) return NULL;
    eg_object_set_label(&bg->obj, descriptor->label);
    v.label = bg->obj.label;
    if (!validate_desc(&v, descriptor, bg)) {
        eg_memset(bg->entries, 0, sizeof bg->entries);
        bg->entry_count = 0;
        bg->obj.invalid = 1;
        return bg;
    }
    take_refs(bg, descriptor->layout);
    eg_status_t st = device->hal->bind_group_create(device->hal_dev, bg);
    if (st != EG_STATUS_OK) bg->obj.invalid = !eg_binding_hal_fail(&v, st, "bind group");
    return bg;
}

void wgpuBindGroupSetLabel(WGPUBindGroup bindGroup, WGPUStringView label)
{
    if (!eg_handle_live(bindGroup, EG_KIND_BIND_GROUP, "wgpuBindGroupSetLabel")) return;
    eg_object_set_label(&bindGroup->obj, label);
}

void wgpuBindGroupAddRef(WGPUBindGroup bindGroup)
{
    if (!eg_handle_live(bindGroup, EG_KIND_BIND_GROUP, "wgpuBindGroupAddRef")) return;
    eg_object_ref(bindGroup);
}

void wgpuBindGroupRelease(WGPUBindGroup bindGroup)
{
    if (!eg_handle_live(bindGroup, EG_KIND_BIND_GROUP, "wgpuBindGroupRelease")) return;
    eg_object_unref(bindGroup, destroy_bg);
}
