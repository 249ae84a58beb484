/* Bind groups: the Impl struct with its resolved entries. */
#ifndef EG_API_BIND_GROUP_H
#define EG_API_BIND_GROUP_H

#include "kernel/api/object.h"

struct WGPUBindGroupImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_BIND_GROUP_H */
