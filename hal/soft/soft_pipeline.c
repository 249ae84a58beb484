/* hal/soft binding-model, shader and pipeline objects: pipelines compile their stages.
 *
 * The kernel has validated and resolved every descriptor. Shader modules keep only the front
 * end's result (the kernel's); a pipeline compiles each stage (module + entry point) against its
 * layout into VM bytecode (soft_vm_compile.c), then the rasterizer specialises its fixed-function
 * state (soft_raster_pipeline.c). Both live in the soft heap; the pipeline's hal words hold an
 * eg_soft_render_pipeline_t / eg_soft_compute_pipeline_t inline. A NULL layout ("auto", until
 * the kernel derives it) makes the compiler resolve bindings from the module's reflection.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_internal.h"
#include "hal/soft/soft_shader.h"
#include "kernel/api/compute_pipeline.h"
#include "kernel/api/render_pipeline.h"

_Static_assert(sizeof(eg_soft_render_pipeline_t) <= sizeof(eg_hal_priv_t), "soft render pipeline fits hal priv");
_Static_assert(sizeof(eg_soft_compute_pipeline_t) <= sizeof(eg_hal_priv_t), "soft compute pipeline fits hal priv");

static eg_soft_render_pipeline_t *soft_rp(eg_render_pipeline_t *rp)
{
    return (eg_soft_render_pipeline_t *)(void *)&rp->hal;
}
static eg_soft_compute_pipeline_t *soft_cp(eg_compute_pipeline_t *cp)
{
    return (eg_soft_compute_pipeline_t *)(void *)&cp->hal;
}

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
void eg_soft_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    (void)dev;
    eg_soft_render_pipeline_t *sp = soft_rp(rp);
    if (sp->raster) eg_soft_raster_pipeline_destroy(sp->raster);
    eg_soft_program_destroy(sp->fs);
    eg_soft_program_destroy(sp->vs);
    eg_memset(sp, 0, sizeof *sp);
}

eg_status_t eg_soft_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    eg_soft_render_pipeline_t *sp = soft_rp(rp);
    eg_memset(sp, 0, sizeof *sp);
    eg_status_t st = eg_soft_program_create(rp->vertex.module, rp->vertex.entry_point, EG_SHADER_STAGE_VERTEX,
                                            rp->layout, &sp->vs);
    if (st == EG_STATUS_OK && rp->fragment.module)
        st = eg_soft_program_create(rp->fragment.module, rp->fragment.entry_point, EG_SHADER_STAGE_FRAGMENT,
                                    rp->layout, &sp->fs);
    if (st == EG_STATUS_OK) st = eg_soft_raster_pipeline_create(rp, sp->vs, sp->fs, &sp->raster);
    if (st != EG_STATUS_OK) eg_soft_render_pipeline_destroy(dev, rp);
    return st;
}

eg_status_t eg_soft_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    (void)dev;
    eg_soft_compute_pipeline_t *sc = soft_cp(cp);
    sc->cs = NULL;
    return eg_soft_program_create(cp->compute.module, cp->compute.entry_point, EG_SHADER_STAGE_COMPUTE,
                                  cp->layout, &sc->cs);
}

void eg_soft_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    (void)dev;
    eg_soft_compute_pipeline_t *sc = soft_cp(cp);
    eg_soft_program_destroy(sc->cs);
    sc->cs = NULL;
}

#endif /* EMGPU_HAL_SOFT */
