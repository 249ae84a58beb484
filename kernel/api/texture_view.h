/* Texture views: the Impl struct (resolved view range and format). */
#ifndef EG_API_TEXTURE_VIEW_H
#define EG_API_TEXTURE_VIEW_H

#include "kernel/api/error.h"
#include "kernel/api/object.h"
#include "kernel/format/format.h"

/* The view descriptor after spec "resolving GPUTextureViewDescriptor defaults": no Undefined
 * format/dimension/aspect and no *_COUNT_UNDEFINED left. The view holds a reference on its
 * texture until it is freed. */
struct WGPUTextureViewImpl {
    eg_object_t obj;              /* first member: pool slot, label, device */
    eg_hal_priv_t hal;            /* backend handles (filled by the HAL's create) */
    struct WGPUTextureImpl *texture;  /* referenced (AddRef) while the view lives */
    const eg_format_info_t *fi;   /* facts of `format` */
    WGPUTextureFormat format;
    WGPUTextureViewDimension dimension;
    WGPUTextureAspect aspect;
    WGPUTextureUsage usage;
    uint32_t base_mip_level, mip_level_count;
    uint32_t base_array_layer, array_layer_count;
};

#endif /* EG_API_TEXTURE_VIEW_H */
