/* Sampler objects: createSampler defaults and validation, label and refcount. */
#include "kernel/api/sampler.h"

#include "kernel/api/device.h"
#include "kernel/api/instance.h"

/* webgpu.h: Undefined address modes and filters mean the spec defaults. */
static void resolve_defaults(WGPUSamplerDescriptor *d)
{
    if (d->addressModeU == WGPUAddressMode_Undefined) d->addressModeU = WGPUAddressMode_ClampToEdge;
    if (d->addressModeV == WGPUAddressMode_Undefined) d->addressModeV = WGPUAddressMode_ClampToEdge;
    if (d->addressModeW == WGPUAddressMode_Undefined) d->addressModeW = WGPUAddressMode_ClampToEdge;
    if (d->magFilter == WGPUFilterMode_Undefined) d->magFilter = WGPUFilterMode_Nearest;
    if (d->minFilter == WGPUFilterMode_Undefined) d->minFilter = WGPUFilterMode_Nearest;
    if (d->mipmapFilter == WGPUMipmapFilterMode_Undefined) d->mipmapFilter = WGPUMipmapFilterMode_Nearest;
}

/* Spec: createSampler(), "validating GPUSamplerDescriptor" (enum ranges first: C has no IDL). */
static bool validate_desc(const eg_vctx_t *v, const WGPUSamplerDescriptor *d)
{
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             d->nextInChain ? (unsigned)d->nextInChain->sType : 0u);
    EG_CHECK(v, d->addressModeU <= WGPUAddressMode_MirrorRepeat && d->addressModeV <= WGPUAddressMode_MirrorRepeat &&
                    d->addressModeW <= WGPUAddressMode_MirrorRepeat, ENUM_VALUE,
             "addressModeU/V/W 0x%x/0x%x/0x%x: not all are WGPUAddressMode values",
             (unsigned)d->addressModeU, (unsigned)d->addressModeV, (unsigned)d->addressModeW);
    EG_CHECK(v, d->magFilter <= WGPUFilterMode_Linear && d->minFilter <= WGPUFilterMode_Linear &&
                    d->mipmapFilter <= WGPUMipmapFilterMode_Linear, ENUM_VALUE,
             "magFilter/minFilter/mipmapFilter 0x%x/0x%x/0x%x: not all are filter mode values",
             (unsigned)d->magFilter, (unsigned)d->minFilter, (unsigned)d->mipmapFilter);
    EG_CHECK(v, d->compare <= WGPUCompareFunction_Always, ENUM_VALUE,
             "compare 0x%x is not a WGPUCompareFunction", (unsigned)d->compare);
    /* NaN fails both comparisons below, as it must. */
    EG_CHECK(v, d->lodMinClamp >= 0.0f, SAMPLER_LOD_CLAMP, "lodMinClamp %f must be >= 0",
             (double)d->lodMinClamp);
    EG_CHECK(v, d->lodMaxClamp >= d->lodMinClamp, SAMPLER_LOD_CLAMP,
             "lodMaxClamp %f must be >= lodMinClamp %f", (double)d->lodMaxClamp, (double)d->lodMinClamp);
    EG_CHECK(v, d->maxAnisotropy >= 1, SAMPLER_ANISOTROPY, "maxAnisotropy %u must be >= 1",
             (unsigned)d->maxAnisotropy);
    if (d->maxAnisotropy > 1)
        EG_CHECK(v, d->magFilter == WGPUFilterMode_Linear && d->minFilter == WGPUFilterMode_Linear &&
                        d->mipmapFilter == WGPUMipmapFilterMode_Linear, SAMPLER_ANISOTROPY,
                 "maxAnisotropy %u needs magFilter, minFilter and mipmapFilter all Linear",
                 (unsigned)d->maxAnisotropy);
    return true;
}

static void destroy_sampler(void *object)
{
    eg_sampler_t *s = object;
    struct WGPUDeviceImpl *dev = s->obj.device;
    if (!s->obj.invalid) dev->hal->sampler_destroy(dev->hal_dev, s);
    eg_object_free(s);
}

WGPUSampler wgpuDeviceCreateSampler(WGPUDevice device, WGPUSamplerDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuDeviceCreateSampler", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false)) return NULL;
    v.device = device;
    WGPUSamplerDescriptor dflt = WGPU_SAMPLER_DESCRIPTOR_INIT;
    const WGPUSamplerDescriptor *d = descriptor ? descriptor : &dflt;
    eg_sampler_t *s = eg_object_alloc(&v, device, EG_KIND_SAMPLER);
    if (!s) return NULL;
    eg_object_set_label(&s->obj, d->label);
    v.label = s->obj.label;
    s->desc = *d;
    s->desc.nextInChain = NULL;
    s->desc.label.data = NULL;
    s->desc.label.length = 0;
    if (!validate_desc(&v, d)) {
        s->obj.invalid = 1;
        return s;
    }
    resolve_defaults(&s->desc);
    eg_status_t st = device->hal->sampler_create(device->hal_dev, s);
    if (st != EG_STATUS_OK) {
        eg_fail_hal(&v, st, "sampler", 0);
        s->obj.invalid = 1;
    }
    return s;
}

void wgpuSamplerSetLabel(WGPUSampler sampler, WGPUStringView label)
{
    if (!eg_handle_live(sampler, EG_KIND_SAMPLER, "wgpuSamplerSetLabel")) return;
    eg_object_set_label(&sampler->obj, label);
}

void wgpuSamplerAddRef(WGPUSampler sampler)
{
    if (!eg_handle_live(sampler, EG_KIND_SAMPLER, "wgpuSamplerAddRef")) return;
    eg_object_ref(sampler);
}

void wgpuSamplerRelease(WGPUSampler sampler)
{
    if (!eg_handle_live(sampler, EG_KIND_SAMPLER, "wgpuSamplerRelease")) return;
    eg_object_unref(sampler, destroy_sampler);
}
