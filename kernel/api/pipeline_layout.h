/* Pipeline layouts: the Impl struct with its bind group layouts. */
#ifndef EG_API_PIPELINE_LAYOUT_H
#define EG_API_PIPELINE_LAYOUT_H

#include "kernel/api/bind_group_layout.h"
#include "kernel/api/object.h"

struct WGPUPipelineLayoutImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
    uint32_t group_count;     /* bindGroupLayoutCount */
    uint32_t immediate_size_B;
    uint32_t dynamic_count[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];  /* per group, for setBindGroup */
    eg_binding_counts_t counts;                                 /* summed over the groups */
    /* Referenced layouts; NULL for a null entry of bindGroupLayouts (an empty group). */
    struct WGPUBindGroupLayoutImpl *groups[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
};

/** createPipelineLayout with the caller's context (layout "auto" reports its errors as the
 *  pipeline call's). Returns the new object, invalid after a reported validation error, or NULL
 *  when the pool is full (reported, naming the pool). */
struct WGPUPipelineLayoutImpl *eg_pipeline_layout_create(const eg_vctx_t *v,
                                                         const WGPUPipelineLayoutDescriptor *d);

#endif /* EG_API_PIPELINE_LAYOUT_H */
