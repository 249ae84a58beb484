/* Texture objects: the Impl struct and kernel-internal texture helpers. */
#ifndef EG_API_TEXTURE_H
#define EG_API_TEXTURE_H

#include "kernel/api/error.h"
#include "kernel/api/object.h"
#include "kernel/format/format.h"

/* The resolved descriptor (spec fields of GPUTexture), kept for getters, views, copies and the
 * HAL. viewFormats can only name the format itself or its sRGB twin (spec "texture view format
 * compatible"), so one field records whether the twin was listed. */
struct WGPUTextureImpl {
    eg_object_t obj;              /* first member: pool slot, label, device */
    eg_hal_priv_t hal;            /* backend handles (filled by the HAL's create) */
    const eg_format_info_t *fi;   /* facts of `format` (NULL only for invalid objects) */
    WGPUTextureUsage usage;
    WGPUTextureDimension dimension;
    WGPUExtent3D size;            /* texels; depthOrArrayLayers: depth (3D) or layers */
    WGPUTextureFormat format;
    uint32_t mip_level_count;
    uint32_t sample_count;
    WGPUTextureFormat view_srgb_pair; /* srgb twin listed in viewFormats, or Undefined */
    bool tracked;                 /* registered with the device tracker */
    bool hal_live;                /* the HAL part exists (freed by Destroy or release) */
    bool banded;                  /* a strip-mode surface frame with no full-frame memory
                                   * (docs/displays.md "Banded rendering"): one render pass only */
    bool band_drawn;              /* a submitted render pass drew into this banded frame */
};

/** Layers of array texture (depthOrArrayLayers), or 1 for 3D: the tracker's layer count. */
static inline uint32_t eg_texture_layer_count(const struct WGPUTextureImpl *t)
{
    return t->dimension == WGPUTextureDimension_3D ? 1u : t->size.depthOrArrayLayers;
}

/** Resolves and checks a texture handle for use by another object's call (views, copies,
 *  bind groups): live, valid, of v->device, not destroyed. Reports through v. */
bool eg_texture_check_use(const eg_vctx_t *v, WGPUTexture t, const char *what);

#endif /* EG_API_TEXTURE_H */
