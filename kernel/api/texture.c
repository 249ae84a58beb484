/* Texture objects: createTexture validation in spec order, getters, destroy and release. */
#include "kernel/api/texture.h"

#include "kernel/api/device.h"
#include "kernel/api/features.h"
#include "kernel/api/instance.h"
#include "kernel/track/track.h"

#define TEXTURE_USAGE_ALL ((WGPUTextureUsage)0x3F)   /* CopySrc .. TransientAttachment */

static const char *dim_name(WGPUTextureDimension d)
{
    return d == WGPUTextureDimension_1D ? "1D" : d == WGPUTextureDimension_2D ? "2D" : "3D";
}

static uint32_t pool_index(const eg_texture_t *t)
{
    return eg_pool_index(eg_pool_of(t, EG_KIND_TEXTURE), t);
}

/* Spec: createTexture(), "validating GPUTextureDescriptor": size against the dimension limits. */
static bool validate_size(const eg_vctx_t *v, const WGPUTextureDescriptor *d)
{
    const WGPULimits *lim = &v->device->limits;
    const WGPUExtent3D *s = &d->size;
    EG_CHECK(v, s->width && s->height && s->depthOrArrayLayers, TEXTURE_SIZE_ZERO,
             "size %ux%ux%u has a zero dimension", s->width, s->height, s->depthOrArrayLayers);
    switch (d->dimension) {
    case WGPUTextureDimension_1D:
        EG_CHECK(v, s->width <= lim->maxTextureDimension1D, TEXTURE_TOO_LARGE,
                 "size.width %u exceeds maxTextureDimension1D (%u)", s->width, lim->maxTextureDimension1D);
        EG_CHECK(v, s->height == 1 && s->depthOrArrayLayers == 1, TEXTURE_1D_SHAPE,
                 "1D texture size %ux%ux%u: height and depthOrArrayLayers must be 1",
                 s->width, s->height, s->depthOrArrayLayers);
        break;
    case WGPUTextureDimension_2D:
        EG_CHECK(v, eg_max_u32(s->width, s->height) <= lim->maxTextureDimension2D, TEXTURE_TOO_LARGE,
                 "size %ux%u exceeds maxTextureDimension2D (%u)", s->width, s->height,
                 lim->maxTextureDimension2D);
        EG_CHECK(v, s->depthOrArrayLayers <= lim->maxTextureArrayLayers, TEXTURE_TOO_MANY_LAYERS,
                 "size.depthOrArrayLayers %u exceeds maxTextureArrayLayers (%u)",
                 s->depthOrArrayLayers, lim->maxTextureArrayLayers);
        break;
    default:
        EG_CHECK(v, eg_max_u32(eg_max_u32(s->width, s->height), s->depthOrArrayLayers) <=
                        lim->maxTextureDimension3D, TEXTURE_TOO_LARGE,
                 "size %ux%ux%u exceeds maxTextureDimension3D (%u)", s->width, s->height,
                 s->depthOrArrayLayers, lim->maxTextureDimension3D);
        break;
    }
    return true;
}

/* Spec: "validating GPUTextureDescriptor", format rules (dimension, blocks, mips, samples). */
static bool validate_format(const eg_vctx_t *v, const WGPUTextureDescriptor *d, const eg_format_info_t *fi)
{
    uint64_t feats = v->device->features;
    uint32_t caps = eg_format_caps(fi, feats);
    if (d->dimension == WGPUTextureDimension_1D)
        EG_CHECK(v, !eg_format_is_depth_stencil(fi) && !eg_format_is_compressed(fi), TEXTURE_DIMENSION_FORMAT,
                 "format %s cannot be used with dimension 1D", fi->name);
    if (d->dimension == WGPUTextureDimension_3D) {
        bool sliced = (fi->feature == WGPUFeatureName_TextureCompressionBC &&
                       eg_features_has(feats, WGPUFeatureName_TextureCompressionBCSliced3D)) ||
                      (fi->feature == WGPUFeatureName_TextureCompressionASTC &&
                       eg_features_has(feats, WGPUFeatureName_TextureCompressionASTCSliced3D));
        EG_CHECK(v, !eg_format_is_depth_stencil(fi) && (!eg_format_is_compressed(fi) || sliced),
                 TEXTURE_DIMENSION_FORMAT, "format %s cannot be used with dimension 3D", fi->name);
    }
    EG_CHECK(v, d->size.width % fi->block_w_px == 0 && d->size.height % fi->block_h_px == 0,
             TEXTURE_BLOCK_ALIGNMENT, "size %ux%u is not a multiple of the %ux%u block of %s",
             d->size.width, d->size.height, fi->block_w_px, fi->block_h_px, fi->name);
    EG_CHECK(v, d->mipLevelCount > 0, TEXTURE_MIP_COUNT_ZERO, "mipLevelCount is 0");
    uint32_t chain = eg_format_mip_chain_len(d->dimension, d->size);
    EG_CHECK(v, d->mipLevelCount <= chain, TEXTURE_MIP_COUNT_TOO_LARGE,
             "mipLevelCount %u exceeds %u, the full chain for %ux%ux%u (%s)", d->mipLevelCount, chain,
             d->size.width, d->size.height, d->size.depthOrArrayLayers, dim_name(d->dimension));
    EG_CHECK(v, d->sampleCount == 1 || d->sampleCount == 4, TEXTURE_SAMPLE_COUNT,
             "sampleCount %u must be 1 or 4", d->sampleCount);
    if (d->sampleCount > 1) {
        EG_CHECK(v, d->dimension == WGPUTextureDimension_2D, TEXTURE_MULTISAMPLE,
                 "sampleCount 4 needs dimension 2D (is %s)", dim_name(d->dimension));
        EG_CHECK(v, d->size.depthOrArrayLayers == 1, TEXTURE_MULTISAMPLE,
                 "sampleCount 4 needs depthOrArrayLayers 1 (is %u)", d->size.depthOrArrayLayers);
        EG_CHECK(v, d->mipLevelCount == 1, TEXTURE_MULTISAMPLE,
                 "sampleCount 4 needs mipLevelCount 1 (is %u)", d->mipLevelCount);
        EG_CHECK(v, !(d->usage & WGPUTextureUsage_StorageBinding), TEXTURE_MULTISAMPLE,
                 "sampleCount 4 cannot have usage StorageBinding");
        EG_CHECK(v, caps & EG_FMT_MULTISAMPLE, TEXTURE_MULTISAMPLE,
                 "format %s does not support multisampling (sampleCount 4)", fi->name);
        EG_CHECK(v, d->usage & WGPUTextureUsage_RenderAttachment, TEXTURE_MULTISAMPLE,
                 "sampleCount 4 needs usage RenderAttachment");
    }
    if (d->usage & WGPUTextureUsage_RenderAttachment) {
        EG_CHECK(v, caps & EG_FMT_RENDERABLE, TEXTURE_FORMAT_USAGE,
                 "usage RenderAttachment needs a renderable format; %s is not", fi->name);
        EG_CHECK(v, d->dimension != WGPUTextureDimension_1D, TEXTURE_FORMAT_USAGE,
                 "usage RenderAttachment is not allowed with dimension 1D");
    }
    if (d->usage & WGPUTextureUsage_StorageBinding)
        EG_CHECK(v, caps & (EG_FMT_STORAGE | EG_FMT_STORAGE_RW), TEXTURE_FORMAT_USAGE,
                 "usage StorageBinding needs a storage format; %s is not", fi->name);
    return true;
}

/* Spec: "validating GPUTextureDescriptor", the full list. */
static bool validate_desc(const eg_vctx_t *v, const WGPUTextureDescriptor *d, eg_texture_t *t)
{
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             d->nextInChain ? (unsigned)d->nextInChain->sType : 0u);
    EG_CHECK(v, d->usage != 0, TEXTURE_USAGE_NONE, "usage is 0 (WGPUTextureUsage_None)");
    EG_CHECK(v, (d->usage & ~TEXTURE_USAGE_ALL) == 0, TEXTURE_USAGE_UNKNOWN,
             "usage 0x%llx has bits outside WGPUTextureUsage", (unsigned long long)d->usage);
    if (d->usage & WGPUTextureUsage_TransientAttachment)
        EG_CHECK(v, d->usage == (WGPUTextureUsage_TransientAttachment | WGPUTextureUsage_RenderAttachment),
                 TEXTURE_TRANSIENT_USAGE, "usage 0x%llx: TransientAttachment allows only RenderAttachment besides",
                 (unsigned long long)d->usage);
    EG_CHECK(v, d->dimension >= WGPUTextureDimension_1D && d->dimension <= WGPUTextureDimension_3D,
             ENUM_VALUE, "dimension 0x%x is not a WGPUTextureDimension", (unsigned)d->dimension);
    const eg_format_info_t *fi = eg_format_info(d->format);
    EG_CHECK(v, fi != NULL, ENUM_VALUE, "format 0x%x is not a WGPUTextureFormat", (unsigned)d->format);
    EG_CHECK(v, eg_format_enabled(fi, v->device->features), TEXTURE_FORMAT_FEATURE,
             "format %s needs feature %s, which the device was not created with", fi->name,
             eg_feature_name(fi->feature));
    EG_CHECK(v, eg_format_on_adapter(fi, v->device->info.ext_formats_missing), TEXTURE_FORMAT_ADAPTER,
             "format %s is not supported by this adapter (%s backend, %s): its driver lacks the format; "
             "wgpuDeviceEmgpuHasTextureFormat() tells before creating", fi->name,
             v->device->hal->name, v->device->info.device);
    if (!validate_size(v, d) || !validate_format(v, d, fi)) return false;
    EG_CHECK(v, d->viewFormatCount == 0 || d->viewFormats, NULL_DESCRIPTOR,
             "viewFormats is NULL but viewFormatCount is %u", (unsigned)d->viewFormatCount);
    for (size_t i = 0; i < d->viewFormatCount; i++) {
        WGPUTextureFormat vf = d->viewFormats[i];
        const eg_format_info_t *vi = eg_format_info(vf);
        /* Spec "texture view format compatible": equal, or differing only in srgb-ness. */
        EG_CHECK(v, vf == d->format || (vi && fi->srgb_pair == vf), TEXTURE_VIEW_FORMATS,
                 "viewFormats[%u] %s is not view-compatible with format %s", (unsigned)i,
                 vi ? vi->name : "(unknown)", fi->name);
        if (vf != d->format) t->view_srgb_pair = vf;
    }
    t->fi = fi;
    return true;
}

static void fill_desc(eg_texture_t *t, const WGPUTextureDescriptor *d)
{
    t->usage = d->usage;
    t->dimension = d->dimension;
    t->size = d->size;
    t->format = d->format;
    t->mip_level_count = d->mipLevelCount;
    t->sample_count = d->sampleCount;
    t->view_srgb_pair = WGPUTextureFormat_Undefined;
}


static void hal_release(eg_texture_t *t)
{
    struct WGPUDeviceImpl *dev = t->obj.device;
    if (t->hal_live) dev->hal->texture_destroy(dev->hal_dev, t);
    t->hal_live = false;
    if (t->tracked && dev->track) eg_track_texture_unregister(dev->track, pool_index(t));
    t->tracked = false;
}

static void destroy_texture(void *object)
{
    hal_release(object);
    eg_object_free(object);
}

bool eg_texture_check_use(const eg_vctx_t *v, WGPUTexture t, const char *what)
{
    if (!eg_handle_check(v, t, EG_KIND_TEXTURE, what, false)) return false;
    EG_CHECK(v, t->obj.device == v->device, WRONG_DEVICE, "%s belongs to another device", what);
    EG_CHECK(v, !t->obj.destroyed, DESTROYED_OBJECT, "%s \"%s\" was destroyed", what, t->obj.label);
    return true;
}

WGPUTexture wgpuDeviceCreateTexture(WGPUDevice device, WGPUTextureDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuDeviceCreateTexture", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false)) return NULL;
    v.device = device;
    if (!descriptor) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return NULL;
    }
    eg_texture_t *t = eg_object_alloc(&v, device, EG_KIND_TEXTURE);
    if (!t) return NULL;
    eg_object_set_label(&t->obj, descriptor->label);
    v.label = t->obj.label;
    /* Validate a resolved copy: webgpu.h's Undefined dimension means 2D. */
    WGPUTextureDescriptor rd = *descriptor;
    if (rd.dimension == WGPUTextureDimension_Undefined) rd.dimension = WGPUTextureDimension_2D;
    fill_desc(t, &rd);
    if (!validate_desc(&v, &rd, t)) {
        t->obj.invalid = 1;
        return t;
    }
    eg_status_t st = device->hal->texture_create(device->hal_dev, t);
    if (st != EG_STATUS_OK) {
        eg_fail_hal(&v, st, "texture", 0);
        t->obj.invalid = 1;
        return t;
    }
    t->hal_live = true;
    const eg_track_device_t *trk = device->track;
    if (trk) {   /* every device has a tracker (device.c); kept NULL-safe for teardown */
        eg_track_error_t err;
        if (eg_track_texture_register(device->track, pool_index(t), t->mip_level_count,
                                      eg_texture_layer_count(t), &err) == EG_TRACK_OK) {
            t->tracked = true;
        } else {
            eg_fail(&v, WGPUErrorType_OutOfMemory, EG_E_POOL_FULL,
                    "the tracker cannot hold %u x %u more subresources (status %d)",
                    t->mip_level_count, eg_texture_layer_count(t), (int)err.status);
            hal_release(t);
            t->obj.invalid = 1;
        }
    }
    return t;
}

/* Spec: destroy(). The memory goes back now unless a submission still uses it. */
void wgpuTextureDestroy(WGPUTexture texture)
{
    if (!eg_handle_live(texture, EG_KIND_TEXTURE, "wgpuTextureDestroy")) return;
    texture->obj.destroyed = 1;
    if (texture->obj.last_submit <= texture->obj.device->completed_index) hal_release(texture);
}

#define GETTER(ret, name, expr, dflt) \
    ret wgpuTexture##name(WGPUTexture texture) \
    { \
        if (!eg_handle_live(texture, EG_KIND_TEXTURE, "wgpuTexture" #name)) return dflt; \
        return expr; \
    }
GETTER(uint32_t, GetDepthOrArrayLayers, texture->size.depthOrArrayLayers, 0)
GETTER(WGPUTextureDimension, GetDimension, texture->dimension, WGPUTextureDimension_Undefined)
GETTER(WGPUTextureFormat, GetFormat, texture->format, WGPUTextureFormat_Undefined)
GETTER(uint32_t, GetHeight, texture->size.height, 0)
GETTER(uint32_t, GetMipLevelCount, texture->mip_level_count, 0)
GETTER(uint32_t, GetSampleCount, texture->sample_count, 0)
GETTER(WGPUTextureUsage, GetUsage, texture->usage, WGPUTextureUsage_None)
GETTER(uint32_t, GetWidth, texture->size.width, 0)
#undef GETTER

void wgpuTextureSetLabel(WGPUTexture texture, WGPUStringView label)
{
    if (!eg_handle_live(texture, EG_KIND_TEXTURE, "wgpuTextureSetLabel")) return;
    eg_object_set_label(&texture->obj, label);
}

void wgpuTextureAddRef(WGPUTexture texture)
{
    if (!eg_handle_live(texture, EG_KIND_TEXTURE, "wgpuTextureAddRef")) return;
    eg_object_ref(texture);
}

void wgpuTextureRelease(WGPUTexture texture)
{
    if (!eg_handle_live(texture, EG_KIND_TEXTURE, "wgpuTextureRelease")) return;
    eg_object_unref(texture, destroy_texture);
}
