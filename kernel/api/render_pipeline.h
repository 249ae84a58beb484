/* Render pipelines: the Impl struct with the resolved fixed-function state. */
#ifndef EG_API_RENDER_PIPELINE_H
#define EG_API_RENDER_PIPELINE_H

#include "kernel/api/object.h"

struct WGPURenderPipelineImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
};

#endif /* EG_API_RENDER_PIPELINE_H */
