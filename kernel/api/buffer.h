/* Buffer objects: the Impl struct and kernel-internal buffer helpers. */
#ifndef EG_API_BUFFER_H
#define EG_API_BUFFER_H

#include "kernel/api/object.h"

struct WGPUBufferImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_BUFFER_H */
