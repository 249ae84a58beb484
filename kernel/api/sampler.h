/* Sampler objects: the Impl struct with the resolved descriptor. */
#ifndef EG_API_SAMPLER_H
#define EG_API_SAMPLER_H

#include "kernel/api/object.h"

/* The descriptor with webgpu.h defaults applied (Undefined address modes -> ClampToEdge, filters
 * -> Nearest), so backends never see an unset field. compare Undefined means "not a comparison
 * sampler". */
struct WGPUSamplerImpl {
    eg_object_t obj;              /* first member: pool slot, label, device */
    eg_hal_priv_t hal;            /* backend handles (filled by the HAL's create) */
    WGPUSamplerDescriptor desc;   /* resolved; label and nextInChain cleared */
};

#endif /* EG_API_SAMPLER_H */
