/* Compute pipelines: createComputePipeline validation and entry points. */
#include "kernel/api/compute_pipeline.h"

#include "kernel/api/bind_group_layout.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/shader_module.h"

/* Spec: createComputePipeline(): layout valid (or auto), "validating GPUProgrammableStage"
 * (COMPUTE): entry point, constants, workgroup limits, then the layout: derived for layout
 * "auto" (render_pipeline_auto.c) and every binding the entry point uses checked against it.
 * On success cp->layout holds one reference. */
static bool validate_desc(const eg_vctx_t *v, const WGPUComputePipelineDescriptor *d,
                          struct WGPUComputePipelineImpl *cp)
{
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             (unsigned)d->nextInChain->sType);
    if (!eg_pipeline_layout_use(v, d->layout)) return false;
    EG_CHECK(v, d->compute.nextInChain == NULL, UNKNOWN_STYPE, "compute.nextInChain must be NULL");
    if (!eg_pipeline_stage_resolve(v, "compute", d->compute.module, d->compute.entryPoint,
                                   d->compute.constantCount, d->compute.constants, &cp->compute) ||
        !eg_pipeline_check_compute_limits(v, cp->compute.entry))
        return false;
    const eg_stage_t *stages[1] = { &cp->compute };
    struct WGPUPipelineLayoutImpl *pl = d->layout;
    if (!pl) {
        pl = eg_pipeline_layout_derive(v, stages, 1, cp);
        if (!pl) return false;
    } else {
        eg_object_ref(pl);
    }
    if (!eg_pipeline_stage_check_layout(v, "compute", &cp->compute, pl)) {
        wgpuPipelineLayoutRelease(pl);
        return false;
    }
    cp->layout = pl;
    return true;
}

static void destroy_cp(void *object)
{
    struct WGPUComputePipelineImpl *cp = object;
    struct WGPUDeviceImpl *dev = cp->obj.device;
    if (cp->compute.module) {   /* refs were taken (validation passed) */
        if (!cp->obj.invalid) dev->hal->compute_pipeline_destroy(dev->hal_dev, cp);
        wgpuPipelineLayoutRelease(cp->layout);
        wgpuShaderModuleRelease(cp->compute.module);
    }
    eg_object_free(cp);
}

WGPUComputePipeline wgpuDeviceCreateComputePipeline(WGPUDevice device, WGPUComputePipelineDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuDeviceCreateComputePipeline", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false)) return NULL;
    v.device = device;
    if (!descriptor) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return NULL;
    }
    struct WGPUComputePipelineImpl *cp = eg_object_alloc(&v, device, EG_KIND_COMPUTE_PIPELINE);
    if (!cp) return NULL;
    eg_object_set_label(&cp->obj, descriptor->label);
    v.label = cp->obj.label;
    if (!validate_desc(&v, descriptor, cp)) {
        cp->compute.module = NULL;
        cp->layout = NULL;
        cp->obj.invalid = 1;
        return cp;
    }
    eg_object_ref(cp->compute.module);
    eg_status_t st = device->hal->compute_pipeline_create(device->hal_dev, cp);
    if (st != EG_STATUS_OK) cp->obj.invalid = !eg_binding_hal_fail(&v, st, "compute pipeline");
    return cp;
}

void wgpuComputePipelineSetLabel(WGPUComputePipeline computePipeline, WGPUStringView label)
{
    if (!eg_handle_live(computePipeline, EG_KIND_COMPUTE_PIPELINE, "wgpuComputePipelineSetLabel")) return;
    eg_object_set_label(&computePipeline->obj, label);
}

void wgpuComputePipelineAddRef(WGPUComputePipeline computePipeline)
{
    if (!eg_handle_live(computePipeline, EG_KIND_COMPUTE_PIPELINE, "wgpuComputePipelineAddRef")) return;
    eg_object_ref(computePipeline);
}

void wgpuComputePipelineRelease(WGPUComputePipeline computePipeline)
{
    if (!eg_handle_live(computePipeline, EG_KIND_COMPUTE_PIPELINE, "wgpuComputePipelineRelease")) return;
    eg_object_unref(computePipeline, destroy_cp);
}
