/* hal/soft binding-model, shader and pipeline objects: nothing to build yet.
 *
 * The kernel has validated and resolved every descriptor, so these only accept the object.
 * TODO(#4): the soft rasterizer compiles shader modules (the front end's IR) to its bytecode and
 * pipelines to specialised draw functions here; bind groups will cache resolved pointers.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_internal.h"

eg_status_t eg_soft_bind_group_layout_create(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl)
{
    (void)dev; (void)bgl;
    return EG_STATUS_OK;
}
void eg_soft_bind_group_layout_destroy(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl)
{
    (void)dev; (void)bgl;
}
eg_status_t eg_soft_bind_group_create(eg_hal_device_t *dev, eg_bind_group_t *bg)
{
    (void)dev; (void)bg;
    return EG_STATUS_OK;
}
void eg_soft_bind_group_destroy(eg_hal_device_t *dev, eg_bind_group_t *bg)
{
    (void)dev; (void)bg;
}
eg_status_t eg_soft_pipeline_layout_create(eg_hal_device_t *dev, eg_pipeline_layout_t *pl)
{
    (void)dev; (void)pl;
    return EG_STATUS_OK;
}
void eg_soft_pipeline_layout_destroy(eg_hal_device_t *dev, eg_pipeline_layout_t *pl)
{
    (void)dev; (void)pl;
}
eg_status_t eg_soft_shader_module_create(eg_hal_device_t *dev, eg_shader_module_t *sm)
{
    (void)dev; (void)sm;
    return EG_STATUS_OK;
}
void eg_soft_shader_module_destroy(eg_hal_device_t *dev, eg_shader_module_t *sm)
{
    (void)dev; (void)sm;
}
eg_status_t eg_soft_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    (void)dev; (void)rp;
    return EG_STATUS_OK;
}
void eg_soft_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    (void)dev; (void)rp;
}
eg_status_t eg_soft_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    (void)dev; (void)cp;
    return EG_STATUS_OK;
}
void eg_soft_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    (void)dev; (void)cp;
}

#endif /* EMGPU_HAL_SOFT */
