/* Adapters: backend selection for RequestAdapter, adapter info/limits/features, RequestDevice. */
#include "kernel/api/adapter.h"
#include "kernel/api/surface.h"

#include "kernel/api/device.h"
#include "kernel/api/future.h"
#include "kernel/api/instance.h"
#include "kernel/base/fmt.h"
#include "kernel/format/format.h"
#include "kernel/base/log.h"

static const eg_hal_ops_t *backend_named(const char *name)
{
    for (uint32_t i = 0; i < eg_hal_backend_count; i++)
        if (eg_strcmp(eg_hal_backends[i]->name, name) == 0) return eg_hal_backends[i];
    return NULL;
}

/* emgpu's adapter selection (spec requestAdapter() leaves the choice to the implementation):
 * backendType names a backend (Null = noop); forceFallbackAdapter picks the software backend;
 * with neither, EMGPU_BACKEND (hosted ports) and then the board's first backend. */
const eg_hal_ops_t *eg_adapter_select_backend(const WGPURequestAdapterOptions *opt, const char **why)
{
    if (opt && opt->forceFallbackAdapter) {
        const eg_hal_ops_t *soft = backend_named("soft");
        if (!soft) *why = "forceFallbackAdapter needs the software backend, not compiled in (EMGPU_HAL_SOFT = 0)";
        else if (opt->backendType != WGPUBackendType_Undefined) {
            *why = "forceFallbackAdapter picks the software backend, which has no backendType; "
                   "leave backendType Undefined";
            return NULL;
        }
        return soft;
    }
    if (opt && opt->backendType != WGPUBackendType_Undefined) {
        for (uint32_t i = 0; i < eg_hal_backend_count; i++)
            if (eg_hal_backends[i]->backend == opt->backendType) return eg_hal_backends[i];
        *why = "the requested backendType is not compiled into this board (see its EMGPU_HAL_* knobs)";
        return NULL;
    }
#if EMGPU_PORT_HAS_ENV
    const char *env = eg_port_getenv("EMGPU_BACKEND");
    if (env && env[0]) {
        const eg_hal_ops_t *h = backend_named(eg_strcmp(env, "null") == 0 ? "noop" : env);
        if (!h) *why = "EMGPU_BACKEND names a backend that is not compiled into this board";
        return h;
    }
#endif
    if (eg_hal_backend_count == 0) *why = "no backend is compiled in";
    return eg_hal_backend_count ? eg_hal_backends[0] : NULL;
}

static uint64_t finish_request(struct WGPUInstanceImpl *inst, const WGPURequestAdapterCallbackInfo *ci,
                               uint32_t status, WGPUAdapter adapter, const char *msg)
{
    eg_future_desc_t fd = { .kind = EG_FUTURE_REQUEST_ADAPTER, .callback_info = ci };
    fd.result.status = status;
    fd.result.object = adapter;
    eg_fmt(fd.result.message, sizeof fd.result.message, "%s", msg);
    return eg_future_add(inst, &fd);
}

WGPUFuture wgpuInstanceRequestAdapter(WGPUInstance instance, WGPURequestAdapterOptions const *options,
                                      WGPURequestAdapterCallbackInfo callbackInfo)
{
    WGPUFuture fut = { 0 };
    char msg[EMGPU_ERROR_MESSAGE_MAX];
    struct WGPUInstanceImpl *inst = NULL;
    for (uint32_t i = 0; i < EMGPU_MAX_INSTANCES && instance; i++)
        if (eg_instance_at(i) == instance) inst = instance;
    if (!inst) {
        eg_log(EG_LOG_ERROR, "wgpuInstanceRequestAdapter: instance handle %p is stale or not an instance",
               (void *)instance);
        return fut;
    }
    if (options && options->nextInChain) {
        eg_fmt(msg, sizeof msg, "wgpuInstanceRequestAdapter: options.nextInChain has sType 0x%x, "
               "which WGPURequestAdapterOptions does not accept", (unsigned)options->nextInChain->sType);
        fut.id = finish_request(inst, &callbackInfo, WGPURequestAdapterStatus_Error, NULL, msg);
        return fut;
    }
    const char *why = "";
    const eg_hal_ops_t *hal = eg_adapter_select_backend(options, &why);
    eg_device_info_t info;
    /* helper egl: compatibleSurface may bind the adapter to a window's display (surface.c) */
    if (!hal || eg_surface_probe_adapter(hal, options, &info) != EG_STATUS_OK) {
        eg_fmt(msg, sizeof msg, "wgpuInstanceRequestAdapter: no adapter: %s",
               hal ? "the backend found no device (driver missing?)" : why);
        fut.id = finish_request(inst, &callbackInfo, WGPURequestAdapterStatus_Unavailable, NULL, msg);
        return fut;
    }
    eg_vctx_t v = eg_vctx(NULL, "wgpuInstanceRequestAdapter", NULL);
    struct WGPUAdapterImpl *a = eg_object_alloc_in(&v, inst, EG_KIND_ADAPTER);
    if (!a) {
        eg_fmt(msg, sizeof msg, "wgpuInstanceRequestAdapter: adapter pool full (EMGPU_MAX_ADAPTERS = %u)",
               (unsigned)inst->pools[EG_KIND_ADAPTER].capacity);
        fut.id = finish_request(inst, &callbackInfo, WGPURequestAdapterStatus_Error, NULL, msg);
        return fut;
    }
    a->instance = inst;
    a->hal = hal;
    a->info = info;
    a->feature_count = eg_features_list(info.features, a->feature_list);
    fut.id = finish_request(inst, &callbackInfo, WGPURequestAdapterStatus_Success, a, "");
    return fut;
}

static void fill_info(const eg_device_info_t *di, const eg_hal_ops_t *hal, WGPUAdapterInfo *info)
{
    info->vendor.data = di->vendor;
    info->vendor.length = eg_strlen(di->vendor);
    info->architecture.data = di->architecture;
    info->architecture.length = eg_strlen(di->architecture);
    info->device.data = di->device;
    info->device.length = eg_strlen(di->device);
    info->description.data = di->description;
    info->description.length = eg_strlen(di->description);
    info->backendType = hal->backend;
    info->adapterType = di->adapter_type;
    info->vendorID = di->vendor_id;
    info->deviceID = di->device_id;
    info->subgroupMinSize = 4;
    info->subgroupMaxSize = 4;
}

WGPUStatus wgpuAdapterGetInfo(WGPUAdapter adapter, WGPUAdapterInfo *info)
{
    if (!eg_handle_live(adapter, EG_KIND_ADAPTER, "wgpuAdapterGetInfo") || !info) return WGPUStatus_Error;
    /* The strings point into the adapter's immutable info: wgpuAdapterInfoFreeMembers frees nothing,
     * and they stay valid while the adapter lives. */
    fill_info(&adapter->info, adapter->hal, info);
    return WGPUStatus_Success;
}

WGPUStatus wgpuDeviceGetAdapterInfo(WGPUDevice device, WGPUAdapterInfo *info)
{
    if (!eg_handle_live(device, EG_KIND_DEVICE, "wgpuDeviceGetAdapterInfo") || !info) return WGPUStatus_Error;
    fill_info(&device->info, device->hal, info);
    return WGPUStatus_Success;
}

void wgpuAdapterInfoFreeMembers(WGPUAdapterInfo adapterInfo)
{
    (void)adapterInfo;   /* strings are owned by the adapter/device (static for its life) */
}

WGPUStatus wgpuAdapterGetLimits(WGPUAdapter adapter, WGPULimits *limits)
{
    if (!eg_handle_live(adapter, EG_KIND_ADAPTER, "wgpuAdapterGetLimits") || !limits) return WGPUStatus_Error;
    WGPUChainedStruct *chain = limits->nextInChain;
    *limits = adapter->info.limits;
    limits->nextInChain = chain;
    return WGPUStatus_Success;
}

void wgpuAdapterGetFeatures(WGPUAdapter adapter, WGPUSupportedFeatures *features)
{
    if (!features) return;
    features->featureCount = 0;
    features->features = NULL;
    if (!eg_handle_live(adapter, EG_KIND_ADAPTER, "wgpuAdapterGetFeatures")) return;
    features->featureCount = adapter->feature_count;
    features->features = adapter->feature_list;
}

WGPUBool wgpuAdapterHasFeature(WGPUAdapter adapter, WGPUFeatureName feature)
{
    if (!eg_handle_live(adapter, EG_KIND_ADAPTER, "wgpuAdapterHasFeature")) return WGPU_FALSE;
    return eg_features_has(adapter->info.features, feature) ? WGPU_TRUE : WGPU_FALSE;
}

WGPUBool wgpuAdapterEmgpuHasTextureFormat(WGPUAdapter adapter, WGPUTextureFormat format)
{
    if (!eg_handle_live(adapter, EG_KIND_ADAPTER, "wgpuAdapterEmgpuHasTextureFormat")) return WGPU_FALSE;
    const eg_format_info_t *fi = eg_format_info(format);
    return fi && eg_format_enabled(fi, adapter->info.features) && eg_format_on_adapter(fi, adapter->info.ext_formats_missing)
               ? WGPU_TRUE : WGPU_FALSE;
}

static uint64_t finish_device(struct WGPUInstanceImpl *inst, const WGPURequestDeviceCallbackInfo *ci,
                              uint32_t status, WGPUDevice device, const char *msg)
{
    eg_future_desc_t fd = { .kind = EG_FUTURE_REQUEST_DEVICE, .callback_info = ci };
    fd.result.status = status;
    fd.result.object = device;
    eg_fmt(fd.result.message, sizeof fd.result.message, "%s", msg);
    return eg_future_add(inst, &fd);
}

/* Spec: requestDevice(): features must be supported by the adapter (TypeError), limits within
 * the adapter's (OperationError); an adapter makes one device ("consumed"). */
static bool validate_device_desc(const struct WGPUAdapterImpl *a, const WGPUDeviceDescriptor *d,
                                 uint64_t *features, WGPULimits *limits, char *msg, size_t cap)
{
    const char *e = "wgpuAdapterRequestDevice: ";
    size_t n = eg_fmt(msg, cap, "%s", e);
    if (d->nextInChain) {
        eg_fmt(msg + n, cap - n, "descriptor.nextInChain has sType 0x%x, which WGPUDeviceDescriptor "
               "does not accept", (unsigned)d->nextInChain->sType);
        return false;
    }
    if (a->consumed && !a->instance->multiple_devices_per_adapter) {
        eg_fmt(msg + n, cap - n, "the adapter already created a device (it is consumed); request a "
               "new adapter");
        return false;
    }
    if (d->requiredFeatureCount && !d->requiredFeatures) {
        eg_fmt(msg + n, cap - n, "requiredFeatures is NULL with requiredFeatureCount %u",
               (unsigned)d->requiredFeatureCount);
        return false;
    }
    *features = 0;
    for (size_t i = 0; i < d->requiredFeatureCount; i++) {
        WGPUFeatureName f = d->requiredFeatures[i];
        if (!eg_features_has(a->info.features, f)) {
            eg_fmt(msg + n, cap - n, "requiredFeatures[%u] %s (0x%x) is not supported by the adapter",
                   (unsigned)i, eg_feature_name(f), (unsigned)f);
            return false;
        }
        *features |= 1ull << eg_feature_bit(f);
    }
    /* CoreFeaturesAndLimits is always on for a Core adapter. */
    if (eg_features_has(a->info.features, WGPUFeatureName_CoreFeaturesAndLimits))
        *features |= 1ull << WGPUFeatureName_CoreFeaturesAndLimits;
    if (d->requiredLimits && d->requiredLimits->nextInChain) {
        eg_fmt(msg + n, cap - n, "requiredLimits.nextInChain has sType 0x%x, which WGPULimits does "
               "not accept", (unsigned)d->requiredLimits->nextInChain->sType);
        return false;
    }
    return eg_limits_resolve(&a->info.limits, d->requiredLimits, limits, msg + n, cap - n);
}

WGPUFuture wgpuAdapterRequestDevice(WGPUAdapter adapter, WGPUDeviceDescriptor const *descriptor,
                                    WGPURequestDeviceCallbackInfo callbackInfo)
{
    WGPUFuture fut = { 0 };
    char msg[EMGPU_ERROR_MESSAGE_MAX];
    if (!eg_handle_live(adapter, EG_KIND_ADAPTER, "wgpuAdapterRequestDevice")) return fut;
    WGPUDeviceDescriptor def = WGPU_DEVICE_DESCRIPTOR_INIT;
    const WGPUDeviceDescriptor *d = descriptor ? descriptor : &def;
    uint64_t features = 0;
    WGPULimits limits;
    if (!validate_device_desc(adapter, d, &features, &limits, msg, sizeof msg)) {
        fut.id = finish_device(adapter->instance, &callbackInfo, WGPURequestDeviceStatus_Error, NULL, msg);
        return fut;
    }
    struct WGPUDeviceImpl *dev = eg_device_create(adapter, d, &limits, features, msg, sizeof msg);
    if (!dev) {
        fut.id = finish_device(adapter->instance, &callbackInfo, WGPURequestDeviceStatus_Error, NULL, msg);
        return fut;
    }
    adapter->consumed = true;
    fut.id = finish_device(adapter->instance, &callbackInfo, WGPURequestDeviceStatus_Success, dev, "");
    return fut;
}

void wgpuAdapterAddRef(WGPUAdapter adapter)
{
    if (eg_handle_live(adapter, EG_KIND_ADAPTER, "wgpuAdapterAddRef")) eg_object_ref(adapter);
}

static void adapter_destroy(void *object) { eg_object_free(object); }

void wgpuAdapterRelease(WGPUAdapter adapter)
{
    if (eg_handle_live(adapter, EG_KIND_ADAPTER, "wgpuAdapterRelease")) eg_object_unref(adapter, adapter_destroy);
}
