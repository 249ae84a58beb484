/* Pipeline layouts: the Impl struct with its bind group layouts. */
#ifndef EG_API_PIPELINE_LAYOUT_H
#define EG_API_PIPELINE_LAYOUT_H

#include "kernel/api/object.h"

struct WGPUPipelineLayoutImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_PIPELINE_LAYOUT_H */
