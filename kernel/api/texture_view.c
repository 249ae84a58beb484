/* Texture views: default resolution and createView validation, refcount on the texture. */
#include "kernel/api/texture_view.h"

#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/texture.h"

static const char *const view_dim_names[] = { "Undefined", "1D", "2D", "2DArray", "Cube", "CubeArray", "3D" };

static const char *view_dim_name(WGPUTextureViewDimension d)
{
    return (unsigned)d < EG_ARRAY_LEN(view_dim_names) ? view_dim_names[d] : "?";
}

/* Spec: "resolving GPUTextureViewDescriptor defaults". */
static void resolve_defaults(const eg_texture_t *t, const WGPUTextureViewDescriptor *d,
                             eg_texture_view_t *vw)
{
    vw->aspect = d->aspect == WGPUTextureAspect_Undefined ? WGPUTextureAspect_All : d->aspect;
    vw->format = d->format;
    if (vw->format == WGPUTextureFormat_Undefined)
        vw->format = eg_format_aspect_format(t->format, vw->aspect);
    vw->base_mip_level = d->baseMipLevel;
    vw->mip_level_count = d->mipLevelCount;
    if (vw->mip_level_count == WGPU_MIP_LEVEL_COUNT_UNDEFINED)
        vw->mip_level_count = d->baseMipLevel < t->mip_level_count ? t->mip_level_count - d->baseMipLevel : 0;
    vw->base_array_layer = d->baseArrayLayer;
    vw->dimension = d->dimension;
    if (vw->dimension == WGPUTextureViewDimension_Undefined) {
        if (t->dimension == WGPUTextureDimension_1D) vw->dimension = WGPUTextureViewDimension_1D;
        else if (t->dimension == WGPUTextureDimension_3D) vw->dimension = WGPUTextureViewDimension_3D;
        else if (t->size.depthOrArrayLayers > 1 && d->arrayLayerCount == WGPU_ARRAY_LAYER_COUNT_UNDEFINED)
            vw->dimension = WGPUTextureViewDimension_2DArray;
        else vw->dimension = WGPUTextureViewDimension_2D;
    }
    vw->array_layer_count = d->arrayLayerCount;
    if (vw->array_layer_count == WGPU_ARRAY_LAYER_COUNT_UNDEFINED) {
        uint32_t layers = eg_texture_layer_count(t);
        switch (vw->dimension) {
        case WGPUTextureViewDimension_Cube: vw->array_layer_count = 6; break;
        case WGPUTextureViewDimension_2DArray:
        case WGPUTextureViewDimension_CubeArray:
            vw->array_layer_count = d->baseArrayLayer < layers ? layers - d->baseArrayLayer : 0;
            break;
        default: vw->array_layer_count = 1; break;
        }
    }
    vw->usage = d->usage ? d->usage : t->usage;
    vw->fi = eg_format_info(vw->format);
}

/* Spec: createView(), the dimension rules of "validating GPUTextureViewDescriptor". */
static bool validate_dimension(const eg_vctx_t *v, const eg_texture_t *t, const eg_texture_view_t *vw)
{
    WGPUTextureDimension want = vw->dimension == WGPUTextureViewDimension_1D ? WGPUTextureDimension_1D
                              : vw->dimension == WGPUTextureViewDimension_3D ? WGPUTextureDimension_3D
                                                                             : WGPUTextureDimension_2D;
    EG_CHECK(v, vw->dimension >= WGPUTextureViewDimension_1D && vw->dimension <= WGPUTextureViewDimension_3D,
             ENUM_VALUE, "dimension 0x%x is not a WGPUTextureViewDimension", (unsigned)vw->dimension);
    EG_CHECK(v, t->dimension == want, VIEW_DIMENSION, "dimension %s needs a %s texture",
             view_dim_name(vw->dimension),
             want == WGPUTextureDimension_1D ? "1D" : want == WGPUTextureDimension_3D ? "3D" : "2D");
    switch (vw->dimension) {
    case WGPUTextureViewDimension_Cube:
        EG_CHECK(v, vw->array_layer_count == 6, VIEW_LAYER_COUNT,
                 "dimension Cube needs arrayLayerCount 6 (is %u)", vw->array_layer_count);
        break;
    case WGPUTextureViewDimension_CubeArray:
        EG_CHECK(v, vw->array_layer_count % 6 == 0, VIEW_LAYER_COUNT,
                 "dimension CubeArray needs arrayLayerCount a multiple of 6 (is %u)", vw->array_layer_count);
        break;
    case WGPUTextureViewDimension_2DArray: break;
    default:
        EG_CHECK(v, vw->array_layer_count == 1, VIEW_LAYER_COUNT, "dimension %s needs arrayLayerCount 1 (is %u)",
                 view_dim_name(vw->dimension), vw->array_layer_count);
        break;
    }
    if (vw->dimension == WGPUTextureViewDimension_Cube || vw->dimension == WGPUTextureViewDimension_CubeArray)
        EG_CHECK(v, t->size.width == t->size.height, VIEW_CUBE_SQUARE,
                 "dimension %s needs a square texture (is %ux%u)", view_dim_name(vw->dimension),
                 t->size.width, t->size.height);
    return true;
}

/* Spec: createView(), "validating GPUTextureViewDescriptor". */
static bool validate_view(const eg_vctx_t *v, const WGPUTextureViewDescriptor *d, const eg_texture_t *t,
                          const eg_texture_view_t *vw)
{
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             d->nextInChain ? (unsigned)d->nextInChain->sType : 0u);
    EG_CHECK(v, vw->aspect <= WGPUTextureAspect_DepthOnly, ENUM_VALUE,
             "aspect 0x%x is not a WGPUTextureAspect", (unsigned)vw->aspect);
    EG_CHECK(v, eg_format_aspects_selected(t->fi, vw->aspect) != 0, VIEW_ASPECT,
             "aspect %s selects nothing of format %s",
             vw->aspect == WGPUTextureAspect_DepthOnly ? "DepthOnly" : "StencilOnly", t->fi->name);
    EG_CHECK(v, vw->mip_level_count > 0 && vw->base_mip_level < t->mip_level_count &&
                    vw->mip_level_count <= t->mip_level_count - vw->base_mip_level, VIEW_MIP_RANGE,
             "baseMipLevel %u + mipLevelCount %u must be in 1..%u, the texture's mipLevelCount",
             vw->base_mip_level, vw->mip_level_count, t->mip_level_count);
    uint32_t layers = eg_texture_layer_count(t);
    EG_CHECK(v, vw->array_layer_count > 0 && vw->base_array_layer < layers &&
                    vw->array_layer_count <= layers - vw->base_array_layer, VIEW_LAYER_RANGE,
             "baseArrayLayer %u + arrayLayerCount %u must be in 1..%u, the texture's layers",
             vw->base_array_layer, vw->array_layer_count, layers);
    const char *fname = vw->fi ? vw->fi->name : "(unknown)";
    if (vw->aspect == WGPUTextureAspect_All)
        EG_CHECK(v, vw->format == t->format || (vw->format != WGPUTextureFormat_Undefined &&
                                                vw->format == t->view_srgb_pair), VIEW_FORMAT,
                 "format %s is neither the texture's format %s nor in its viewFormats", fname, t->fi->name);
    else
        EG_CHECK(v, vw->format == eg_format_aspect_format(t->format, vw->aspect), VIEW_FORMAT,
                 "format %s is not the %s format of %s", fname,
                 vw->aspect == WGPUTextureAspect_DepthOnly ? "depth" : "stencil", t->fi->name);
    if (!validate_dimension(v, t, vw)) return false;
    EG_CHECK(v, (vw->usage & ~t->usage) == 0, VIEW_USAGE,
             "usage 0x%llx is not a subset of the texture's usage 0x%llx", (unsigned long long)vw->usage,
             (unsigned long long)t->usage);
    uint32_t caps = vw->fi ? eg_format_caps(vw->fi, v->device->features) : 0;
    if (vw->usage & WGPUTextureUsage_RenderAttachment)
        EG_CHECK(v, caps & EG_FMT_RENDERABLE, VIEW_USAGE,
                 "usage RenderAttachment needs a renderable view format; %s is not", fname);
    if (vw->usage & WGPUTextureUsage_StorageBinding)
        EG_CHECK(v, caps & (EG_FMT_STORAGE | EG_FMT_STORAGE_RW), VIEW_USAGE,
                 "usage StorageBinding needs a storage view format; %s is not", fname);
    return true;
}

static void destroy_view(void *object)
{
    eg_texture_view_t *vw = object;
    struct WGPUDeviceImpl *dev = vw->obj.device;
    if (!vw->obj.invalid) dev->hal->texture_view_destroy(dev->hal_dev, vw);
    if (vw->texture) wgpuTextureRelease(vw->texture);
    eg_object_free(vw);
}

WGPUTextureView wgpuTextureCreateView(WGPUTexture texture, WGPUTextureViewDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuTextureCreateView", NULL);
    if (!eg_handle_live(texture, EG_KIND_TEXTURE, "wgpuTextureCreateView")) return NULL;
    struct WGPUDeviceImpl *device = texture->obj.device;
    v.device = device;
    WGPUTextureViewDescriptor dflt = WGPU_TEXTURE_VIEW_DESCRIPTOR_INIT;
    const WGPUTextureViewDescriptor *d = descriptor ? descriptor : &dflt;
    eg_texture_view_t *vw = eg_object_alloc(&v, device, EG_KIND_TEXTURE_VIEW);
    if (!vw) return NULL;
    eg_object_set_label(&vw->obj, d->label);
    v.label = vw->obj.label;
    if (!eg_handle_check(&v, texture, EG_KIND_TEXTURE, "texture", false)) {
        vw->obj.invalid = 1;
        return vw;
    }
    resolve_defaults(texture, d, vw);
    if (!validate_view(&v, d, texture, vw)) {
        vw->obj.invalid = 1;
        return vw;
    }
    eg_object_ref(texture);
    vw->texture = texture;
    eg_status_t st = device->hal->texture_view_create(device->hal_dev, vw);
    if (st != EG_STATUS_OK) {
        eg_fail_hal(&v, st, "texture view", 0);
        vw->obj.invalid = 1;
        wgpuTextureRelease(texture);
        vw->texture = NULL;
    }
    return vw;
}

void wgpuTextureViewSetLabel(WGPUTextureView textureView, WGPUStringView label)
{
    if (!eg_handle_live(textureView, EG_KIND_TEXTURE_VIEW, "wgpuTextureViewSetLabel")) return;
    eg_object_set_label(&textureView->obj, label);
}

void wgpuTextureViewAddRef(WGPUTextureView textureView)
{
    if (!eg_handle_live(textureView, EG_KIND_TEXTURE_VIEW, "wgpuTextureViewAddRef")) return;
    eg_object_ref(textureView);
}

void wgpuTextureViewRelease(WGPUTextureView textureView)
{
    if (!eg_handle_live(textureView, EG_KIND_TEXTURE_VIEW, "wgpuTextureViewRelease")) return;
    eg_object_unref(textureView, destroy_view);
}
