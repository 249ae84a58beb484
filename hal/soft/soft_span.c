/* hal/soft span fast path: axis-aligned / affine UI primitives filled row by row (issue #4).
 *
 * Entry point only so far: eg_soft_raster_triangle offers every triangle here first; a false
 * return means "not handled", and the general 4x4 block walk runs.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"

bool eg_soft_span_triangle(eg_soft_frag_t *f, int64_t px0, int64_t px1, int64_t py0, int64_t py1)
{
    (void)f; (void)px0; (void)px1; (void)py0; (void)py1;
    return false;
}

#endif /* EMGPU_HAL_SOFT */
