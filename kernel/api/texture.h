/* Texture objects: the Impl struct and kernel-internal texture helpers. */
#ifndef EG_API_TEXTURE_H
#define EG_API_TEXTURE_H

#include "kernel/api/object.h"

struct WGPUTextureImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_TEXTURE_H */
