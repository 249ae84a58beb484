/* Compute pipelines: createComputePipeline validation and entry points. */
#include "kernel/api/compute_pipeline.h"

#include "kernel/api/bind_group_layout.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/shader_module.h"

/* Spec: createComputePipeline(): layout valid (or auto), "validating GPUProgrammableStage"
 * (COMPUTE). TODO(#3): entry point existence, workgroup size and storage limits, bindings vs
 * layout need the SPIR-V front end's reflection. */
static bool validate_desc(const eg_vctx_t *v, const WGPUComputePipelineDescriptor *d,
                          struct WGPUComputePipelineImpl *cp)
{
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             (unsigned)d->nextInChain->sType);
    if (!eg_pipeline_layout_use(v, d->layout)) return false;
    EG_CHECK(v, d->compute.nextInChain == NULL, UNKNOWN_STYPE, "compute.nextInChain must be NULL");
    return eg_pipeline_stage_resolve(v, "compute", d->compute.module, d->compute.entryPoint,
                                     d->compute.constantCount, &cp->compute);
}

static void destroy_cp(void *object)
{
    struct WGPUComputePipelineImpl *cp = object;
    struct WGPUDeviceImpl *dev = cp->obj.device;
    if (cp->compute.module) {   /* refs were taken (validation passed) */
        if (!cp->obj.invalid) dev->hal->compute_pipeline_destroy(dev->hal_dev, cp);
        if (cp->layout) wgpuPipelineLayoutRelease(cp->layout);
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
        cp->obj.invalid = 1;
        return cp;
    }
    cp->layout = descriptor->layout;
    if (cp->layout) eg_object_ref(cp->layout);
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
