/* hal/soft rasterizer internals: the specialised per-pipeline state and the draw entry points. */
#ifndef EG_SOFT_RASTER_H
#define EG_SOFT_RASTER_H

#include "hal/soft/soft_shader.h"
#include "hal/soft/soft_internal.h"
#include "kernel/api/render_pipeline.h"

struct eg_soft_raster_pipeline {
    const eg_render_pipeline_t *rp;       /* the kernel object (state resolved) */
    const eg_soft_program_t *vs, *fs;
};

#endif /* EG_SOFT_RASTER_H */
