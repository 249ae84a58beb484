/* Texture views: the Impl struct (resolved view range and format). */
#ifndef EG_API_TEXTURE_VIEW_H
#define EG_API_TEXTURE_VIEW_H

#include "kernel/api/object.h"

struct WGPUTextureViewImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_TEXTURE_VIEW_H */
