/* Sampler objects: the Impl struct with the resolved descriptor. */
#ifndef EG_API_SAMPLER_H
#define EG_API_SAMPLER_H

#include "kernel/api/object.h"

struct WGPUSamplerImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_SAMPLER_H */
