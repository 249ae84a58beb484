/* Compute pipelines: the Impl struct (layout and compute stage, both referenced). */
#ifndef EG_API_COMPUTE_PIPELINE_H
#define EG_API_COMPUTE_PIPELINE_H

#include "kernel/api/render_pipeline.h"

struct WGPUComputePipelineImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
    struct WGPUPipelineLayoutImpl *layout;   /* referenced; never NULL once valid: with layout "auto"
                                              * it is derived from the shader (render_pipeline_auto.c) */
    eg_stage_t compute;
};

#endif /* EG_API_COMPUTE_PIPELINE_H */
