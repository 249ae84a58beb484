/* hal/d3d12 pipelines: layouts, bind groups, shader modules, render/compute pipelines (partial: see README).
 *
 * State: bind group layouts, bind groups, pipeline layouts and shader modules are accepted
 * (the kernel keeps everything a later root signature / descriptor-table build needs). Pipeline
 * creation runs every stage through SPIR-V -> HLSL -> DXBC (d3d_shader.c) and reports that
 * step's errors; root signatures and PSOs are not built yet, so it then fails with
 * D3D12_PIPELINE_UNSUPPORTED. A valid command stream therefore never carries pipeline-dependent
 * records; if one does, recording reports Internal.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "kernel/api/error_codes.h"

/* Bind group layouts, bind groups and pipeline layouts: d3d_binding.c. Shader modules need
 * nothing of their own: the kernel keeps the validated SPIR-V, translated per pipeline stage. */
eg_status_t eg_d3d_shader_module_create(eg_hal_device_t *dev, eg_shader_module_t *sm)
{
    (void)dev; (void)sm;
    return EG_STATUS_OK;
}
void eg_d3d_shader_module_destroy(eg_hal_device_t *dev, eg_shader_module_t *sm) { (void)dev; (void)sm; }

static eg_status_t unsupported(const char *what)
{
    eg_hal_error_detail(WGPUErrorType_Internal, EG_E_D3D12_PIPELINE_UNSUPPORTED,
                        "d3d12: the shaders compiled, but %s pipeline state objects (root signature, PSO) are not "
                        "implemented yet (hal/d3d12/README.md)", what);
    return EG_STATUS_INTERNAL;
}

/* Every stage through SPIR-V -> HLSL -> DXBC first: that step's errors are the useful ones. */
static eg_status_t compile_stages(const eg_stage_t *const *stages, const eg_shader_stage_t *kinds, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        ID3DBlob *code = NULL;
        eg_status_t st = eg_d3d_shader_compile(stages[i], kinds[i], &code);
        if (code) ID3D10Blob_Release(code);
        if (st != EG_STATUS_OK) return st;
    }
    return EG_STATUS_OK;
}

eg_status_t eg_d3d_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    (void)dev;
    const eg_stage_t *stages[2] = { &rp->vertex, &rp->fragment };
    const eg_shader_stage_t kinds[2] = { EG_SHADER_STAGE_VERTEX, EG_SHADER_STAGE_FRAGMENT };
    eg_status_t st = compile_stages(stages, kinds, rp->fragment.module ? 2 : 1);
    return st != EG_STATUS_OK ? st : unsupported("render");
}
void eg_d3d_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp) { (void)dev; (void)rp; }

eg_status_t eg_d3d_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    (void)dev;
    const eg_stage_t *stages[1] = { &cp->compute };
    const eg_shader_stage_t kinds[1] = { EG_SHADER_STAGE_COMPUTE };
    eg_status_t st = compile_stages(stages, kinds, 1);
    return st != EG_STATUS_OK ? st : unsupported("compute");
}
void eg_d3d_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp) { (void)dev; (void)cp; }

eg_status_t eg_d3d_record_pipeline_cmd(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const eg_cmd_header_t *h)
{
    (void)dev; (void)cl;
    eg_log(EG_LOG_ERROR, "d3d12: command %u needs a pipeline, which this backend cannot create yet", (unsigned)h->op);
    return EG_STATUS_INTERNAL;
}

#endif /* EMGPU_HAL_D3D12 */
