/* Compute pipelines: the Impl struct. */
#ifndef EG_API_COMPUTE_PIPELINE_H
#define EG_API_COMPUTE_PIPELINE_H

#include "kernel/api/object.h"

struct WGPUComputePipelineImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_COMPUTE_PIPELINE_H */
