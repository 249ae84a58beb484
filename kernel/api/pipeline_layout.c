/* Pipeline layouts: createPipelineLayout validation and the references to their groups. */
#include "kernel/api/pipeline_layout.h"

#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/base/fmt.h"

/* Spec: createPipelineLayout(). bindGroupLayouts entries may be null (GPUBindGroupLayout? in the
 * current spec): such a group is empty. */
static bool validate_desc(const eg_vctx_t *v, const WGPUPipelineLayoutDescriptor *d,
                          struct WGPUPipelineLayoutImpl *pl)
{
    const WGPULimits *lim = &v->device->limits;
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             (unsigned)d->nextInChain->sType);
    EG_CHECK(v, d->bindGroupLayoutCount == 0 || d->bindGroupLayouts != NULL, NULL_DESCRIPTOR,
             "bindGroupLayouts is NULL but bindGroupLayoutCount is %u", (unsigned)d->bindGroupLayoutCount);
    EG_CHECK(v, d->bindGroupLayoutCount <= lim->maxBindGroups, PL_TOO_MANY_GROUPS,
             "bindGroupLayoutCount %u exceeds maxBindGroups (%u)", (unsigned)d->bindGroupLayoutCount,
             lim->maxBindGroups);
    if (d->bindGroupLayoutCount > EMGPU_MAX_BIND_GROUPS_PER_LAYOUT)
        return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_INLINE_BOUND,
                       "bindGroupLayoutCount %u exceeds what a layout holds (EMGPU_MAX_BIND_GROUPS_PER_LAYOUT = %u)",
                       (unsigned)d->bindGroupLayoutCount, (unsigned)EMGPU_MAX_BIND_GROUPS_PER_LAYOUT);
    uint32_t n = (uint32_t)d->bindGroupLayoutCount;
    for (uint32_t i = 0; i < n; i++) {
        WGPUBindGroupLayout g = d->bindGroupLayouts[i];
        if (!g) continue;
        char what[32];
        eg_fmt(what, sizeof what, "bindGroupLayouts[%u]", i);
        if (!eg_handle_check(v, g, EG_KIND_BIND_GROUP_LAYOUT, what, false)) return false;
        EG_CHECK(v, g->obj.device == v->device, WRONG_DEVICE,
                 "bindGroupLayouts[%u] belongs to another device", i);
        eg_binding_counts_add(&pl->counts, &g->counts);
    }
    if (!eg_binding_counts_check(v, &pl->counts, lim)) return false;
    EG_CHECK(v, d->immediateSize <= lim->maxImmediateSize, PL_IMMEDIATE_SIZE,
             "immediateSize %u exceeds maxImmediateSize (%u)", d->immediateSize, lim->maxImmediateSize);
    EG_CHECK(v, d->immediateSize % 4 == 0, PL_IMMEDIATE_SIZE,
             "immediateSize %u is not a multiple of 4", d->immediateSize);
    return true;
}

/* Takes references only once validation passed, so an invalid layout holds none. */
static void take_groups(struct WGPUPipelineLayoutImpl *pl, const WGPUPipelineLayoutDescriptor *d)
{
    pl->group_count = (uint32_t)d->bindGroupLayoutCount;
    pl->immediate_size_B = d->immediateSize;
    for (uint32_t i = 0; i < pl->group_count; i++) {
        pl->groups[i] = d->bindGroupLayouts[i];
        if (!pl->groups[i]) continue;
        eg_object_ref(pl->groups[i]);
        pl->dynamic_count[i] = pl->groups[i]->dynamic_count;
    }
}

static void destroy_pl(void *object)
{
    struct WGPUPipelineLayoutImpl *pl = object;
    struct WGPUDeviceImpl *dev = pl->obj.device;
    if (!pl->obj.invalid) dev->hal->pipeline_layout_destroy(dev->hal_dev, pl);
    for (uint32_t i = 0; i < pl->group_count; i++)
        if (pl->groups[i]) wgpuBindGroupLayoutRelease(pl->groups[i]);
    eg_object_free(pl);
}

struct WGPUPipelineLayoutImpl *eg_pipeline_layout_create(const eg_vctx_t *pv,
                                                         const WGPUPipelineLayoutDescriptor *descriptor)
{
    eg_vctx_t v = *pv;
    struct WGPUDeviceImpl *device = v.device;
    struct WGPUPipelineLayoutImpl *pl = eg_object_alloc(&v, device, EG_KIND_PIPELINE_LAYOUT);
    if (!pl) return NULL;
    eg_object_set_label(&pl->obj, descriptor->label);
    if (!v.label) v.label = pl->obj.label;
    if (!validate_desc(&v, descriptor, pl)) {
        pl->obj.invalid = 1;
        return pl;
    }
    take_groups(pl, descriptor);
    eg_status_t st = device->hal->pipeline_layout_create(device->hal_dev, pl);
    if (st != EG_STATUS_OK) pl->obj.invalid = !eg_binding_hal_fail(&v, st, "pipeline layout");
    return pl;
}

WGPUPipelineLayout wgpuDeviceCreatePipelineLayout(WGPUDevice device, WGPUPipelineLayoutDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuDeviceCreatePipelineLayout", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false)) return NULL;
    v.device = device;
    if (!descriptor) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return NULL;
    }
    return eg_pipeline_layout_create(&v, descriptor);
}

void wgpuPipelineLayoutSetLabel(WGPUPipelineLayout pipelineLayout, WGPUStringView label)
{
    if (!eg_handle_live(pipelineLayout, EG_KIND_PIPELINE_LAYOUT, "wgpuPipelineLayoutSetLabel")) return;
    eg_object_set_label(&pipelineLayout->obj, label);
}

void wgpuPipelineLayoutAddRef(WGPUPipelineLayout pipelineLayout)
{
    if (!eg_handle_live(pipelineLayout, EG_KIND_PIPELINE_LAYOUT, "wgpuPipelineLayoutAddRef")) return;
    eg_object_ref(pipelineLayout);
}

void wgpuPipelineLayoutRelease(WGPUPipelineLayout pipelineLayout)
{
    if (!eg_handle_live(pipelineLayout, EG_KIND_PIPELINE_LAYOUT, "wgpuPipelineLayoutRelease")) return;
    eg_object_unref(pipelineLayout, destroy_pl);
}
