/* hal/soft: per-render-pipeline specialisation of fixed-function state (formats, blend, depth). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"

eg_status_t eg_soft_raster_pipeline_create(const eg_render_pipeline_t *rp, const eg_soft_program_t *vs,
                                           const eg_soft_program_t *fs,
                                           struct eg_soft_raster_pipeline **out)
{
    struct eg_soft_raster_pipeline *r = eg_soft_heap_alloc(sizeof *r);
    *out = NULL;
    if (!r) return EG_STATUS_OUT_OF_MEMORY;
    r->rp = rp;
    r->vs = vs;
    r->fs = fs;
    *out = r;
    return EG_STATUS_OK;
}

void eg_soft_raster_pipeline_destroy(struct eg_soft_raster_pipeline *r)
{
    if (r) eg_soft_heap_free(r);
}

#endif /* EMGPU_HAL_SOFT */
