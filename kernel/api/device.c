/* Devices: creation, limits/features getters, error scopes, loss and Destroy, polling. */
#include "kernel/api/device.h"

#include "kernel/api/adapter.h"
#include "kernel/api/future.h"
#include "kernel/api/instance.h"
#include "kernel/api/queue.h"
#include "kernel/base/fmt.h"
#include "kernel/format/format.h"
#include "kernel/base/log.h"

bool eg_device_check(WGPUDevice device, const char *entry)
{
    return eg_handle_live(device, EG_KIND_DEVICE, entry);
}

static void copy_msg(char *dst, size_t cap, const char *src)
{
    eg_fmt(dst, cap, "%s", src);
}

/* The device tracker gets the per-device block the instance reserved for it (its size was taken
 * from eg_track_device_storage_size when the instance memory was laid out). */
static bool init_tracker(struct WGPUDeviceImpl *dev, struct WGPUInstanceImpl *inst, uint32_t slot,
                         char *msg, size_t msg_cap)
{
    eg_track_caps_t caps = eg_instance_track_caps(inst);
    eg_track_error_t err;
    if (eg_track_device_storage_size(&caps) > inst->layout.track_device_B ||
        eg_track_device_init(&dev->track_state, &caps, eg_instance_track_memory(inst, slot), &err)
            != EG_TRACK_OK) {
        eg_fmt(msg, msg_cap, "wgpuAdapterRequestDevice: the resource tracker does not fit its "
               "reserved %u bytes (internal error)", (unsigned)inst->layout.track_device_B);
        return false;
    }
    dev->track = &dev->track_state;
    return true;
}

struct WGPUDeviceImpl *eg_device_create(struct WGPUAdapterImpl *adapter, const WGPUDeviceDescriptor *d,
                                        const WGPULimits *limits, uint64_t features,
                                        char *msg, size_t msg_cap)
{
    struct WGPUInstanceImpl *inst = adapter->instance;
    eg_vctx_t v = eg_vctx(NULL, "wgpuAdapterRequestDevice", NULL);
    if (inst->pools[EG_KIND_DEVICE].count == 0) {
        eg_fmt(msg, msg_cap, "wgpuAdapterRequestDevice: device pool full (EMGPU_MAX_DEVICES = %u)",
               (unsigned)inst->pools[EG_KIND_DEVICE].capacity);
        return NULL;
    }
    struct WGPUDeviceImpl *dev = eg_object_alloc_in(&v, inst, EG_KIND_DEVICE);
    struct WGPUQueueImpl *q = eg_object_alloc_in(&v, inst, EG_KIND_QUEUE);
    if (!dev || !q) {   /* the queue pool has the device pool's capacity: cannot happen */
        if (dev) eg_pool_free(&inst->pools[EG_KIND_DEVICE], dev);
        copy_msg(msg, msg_cap, "wgpuAdapterRequestDevice: queue pool full");
        return NULL;
    }
    dev->instance = inst;
    dev->adapter = adapter;
    dev->hal = adapter->hal;
    dev->info = adapter->info;
    dev->limits = *limits;
    dev->limits.nextInChain = NULL;
    dev->features = features;
    dev->feature_count = eg_features_list(features, dev->feature_list);
    eg_object_set_label(&dev->obj, d->label);
    eg_status_t st = dev->hal->device_open(&dev->info, &dev->hal_dev);
    if (st != EG_STATUS_OK) {
        eg_pool_free(&inst->pools[EG_KIND_QUEUE], q);
        eg_pool_free(&inst->pools[EG_KIND_DEVICE], dev);
        eg_fmt(msg, msg_cap, "wgpuAdapterRequestDevice: the %s backend could not open the device "
               "(status %d)", adapter->hal->name, (int)st);
        return NULL;
    }
    uint32_t slot = eg_pool_index(&inst->pools[EG_KIND_DEVICE], dev);
    if (!init_tracker(dev, inst, slot, msg, msg_cap)) {
        dev->hal->device_close(dev->hal_dev);
        eg_pool_free(&inst->pools[EG_KIND_QUEUE], q);
        eg_pool_free(&inst->pools[EG_KIND_DEVICE], dev);
        return NULL;
    }
    q->obj.device = dev;
    eg_object_set_label(&q->obj, d->defaultQueue.label);
    dev->queue = q;
    dev->uncaptured = d->uncapturedErrorCallbackInfo;
    dev->lost_info = d->deviceLostCallbackInfo;
    eg_object_ref(adapter);
    /* The lost future exists from the start (wgpuDeviceGetLostFuture); it completes on loss. An
     * unset mode (no callback wanted) still gives a waitable future. */
    WGPUDeviceLostCallbackInfo li = d->deviceLostCallbackInfo;
    if (li.mode == 0) li.mode = WGPUCallbackMode_AllowSpontaneous;
    eg_future_desc_t fd = { .kind = EG_FUTURE_DEVICE_LOST, .callback_info = &li, .device = dev,
                            .external = true };
    fd.result.object = dev;
    fd.result.type = WGPUDeviceLostReason_Unknown;
    dev->lost_future_id = eg_future_add(inst, &fd);
    return dev;
}

void eg_device_lose(struct WGPUDeviceImpl *device, WGPUDeviceLostReason reason, const char *message)
{
    if (device->lost) return;
    device->lost = true;
    eg_future_slot_t *f = eg_future_find(device->instance, device->lost_future_id);
    if (f) f->result.type = reason;
    eg_future_resolve(device->instance, device->lost_future_id, 0, message);
    /* Nothing will complete any more: pending work-done and map futures finish now. */
    eg_future_complete_device(device);
}

/* Frees DOOMED objects of this device whose last submission has completed. */
static void free_doomed(struct WGPUDeviceImpl *device, uint64_t completed)
{
    struct WGPUInstanceImpl *inst = device->instance;
    /* The scan must not free the device under itself (during the final teardown refs is
     * already 0 and stays so). */
    bool guard = device->obj.slot.refs > 0;
    if (guard) device->obj.slot.refs++;
    for (uint32_t k = EG_KIND_BUFFER; k < EG_KIND_COUNT && device->doomed_count; k++) {
        eg_pool_t *p = &inst->pools[k];
        if (p->used == 0) continue;
        for (uint32_t i = 1; i <= p->capacity && device->doomed_count; i++) {
            eg_object_t *o = eg_pool_at(p, i);
            if (o->slot.state != EG_SLOT_DOOMED || o->device != device || o->last_submit > completed)
                continue;
            device->doomed_count--;
            o->doomed_destroy(o);
        }
    }
    if (guard) eg_device_unref(device);
}

void eg_device_poll(struct WGPUDeviceImpl *device)
{
    uint64_t completed = device->hal->completed_index(device->hal_dev);
    if (completed > device->completed_index) device->completed_index = completed;
    eg_future_poll_device(device, device->completed_index);
    if (device->doomed_count) free_doomed(device, device->completed_index);
}

/* Waits for all submitted work, so that every doomed object can be freed. */
static void drain(struct WGPUDeviceImpl *device)
{
    if (device->submit_index > device->completed_index)
        device->hal->wait_index(device->hal_dev, device->submit_index, UINT64_MAX);
    eg_device_poll(device);
}

static void device_destroy(struct WGPUDeviceImpl *device, WGPUDeviceLostReason reason)
{
    if (device->destroyed) return;
    device->destroyed = true;
    device->obj.destroyed = 1;
    drain(device);
    eg_device_lose(device, reason, reason == WGPUDeviceLostReason_Destroyed
                   ? "the device was destroyed (wgpuDeviceDestroy or its last Release)"
                   : "the device was lost");
}

void eg_device_unref(struct WGPUDeviceImpl *device)
{
    if (device->obj.slot.refs == 0 || --device->obj.slot.refs > 0) return;
    struct WGPUInstanceImpl *inst = device->instance;
    struct WGPUAdapterImpl *adapter = device->adapter;
    device_destroy(device, WGPUDeviceLostReason_Destroyed);
    /* The lost future may still wait for WaitAny; it no longer refers to a live device. */
    eg_future_slot_t *f = eg_future_find(inst, device->lost_future_id);
    if (f) f->device = NULL;
    device->hal->device_close(device->hal_dev);
    eg_pool_free(&inst->pools[EG_KIND_QUEUE], device->queue);
    eg_pool_free(&inst->pools[EG_KIND_DEVICE], device);
    wgpuAdapterRelease(adapter);
}

void wgpuDeviceDestroy(WGPUDevice device)
{
    if (!eg_device_check(device, "wgpuDeviceDestroy")) return;
    device_destroy(device, WGPUDeviceLostReason_Destroyed);
}

WGPUStatus wgpuDeviceGetLimits(WGPUDevice device, WGPULimits *limits)
{
    if (!eg_device_check(device, "wgpuDeviceGetLimits") || !limits) return WGPUStatus_Error;
    WGPUChainedStruct *chain = limits->nextInChain;
    *limits = device->limits;
    limits->nextInChain = chain;
    return WGPUStatus_Success;
}

void wgpuDeviceGetFeatures(WGPUDevice device, WGPUSupportedFeatures *features)
{
    if (!features) return;
    features->featureCount = 0;
    features->features = NULL;
    if (!eg_device_check(device, "wgpuDeviceGetFeatures")) return;
    features->featureCount = device->feature_count;
    features->features = device->feature_list;
}

WGPUBool wgpuDeviceHasFeature(WGPUDevice device, WGPUFeatureName feature)
{
    if (!eg_device_check(device, "wgpuDeviceHasFeature")) return WGPU_FALSE;
    return eg_features_has(device->features, feature) ? WGPU_TRUE : WGPU_FALSE;
}

WGPUBool wgpuDeviceEmgpuHasTextureFormat(WGPUDevice device, WGPUTextureFormat format)
{
    if (!eg_device_check(device, "wgpuDeviceEmgpuHasTextureFormat")) return WGPU_FALSE;
    const eg_format_info_t *fi = eg_format_info(format);
    return fi && eg_format_enabled(fi, device->features) && eg_format_on_adapter(fi, device->info.ext_formats_missing)
               ? WGPU_TRUE : WGPU_FALSE;
}

WGPUFuture wgpuDeviceGetLostFuture(WGPUDevice device)
{
    WGPUFuture f = { 0 };
    if (eg_device_check(device, "wgpuDeviceGetLostFuture")) f.id = device->lost_future_id;
    return f;
}

WGPUQueue wgpuDeviceGetQueue(WGPUDevice device)
{
    if (!eg_device_check(device, "wgpuDeviceGetQueue")) return NULL;
    eg_object_ref(device);   /* a queue reference is a device reference (queue.c) */
    return device->queue;
}

void wgpuDeviceSetLabel(WGPUDevice device, WGPUStringView label)
{
    if (eg_device_check(device, "wgpuDeviceSetLabel")) eg_object_set_label(&device->obj, label);
}

void wgpuDeviceAddRef(WGPUDevice device)
{
    if (eg_device_check(device, "wgpuDeviceAddRef")) eg_object_ref(device);
}

void wgpuDeviceRelease(WGPUDevice device)
{
    if (!eg_device_check(device, "wgpuDeviceRelease")) return;
    /* Doomed children hold device references; finish the GPU work so they go first. */
    if (device->doomed_count) drain(device);
    eg_device_unref(device);
}

/* ---- error scopes ---- */

/* Spec: pushErrorScope(): a new scope with the filter; emgpu bounds the stack. */
void wgpuDevicePushErrorScope(WGPUDevice device, WGPUErrorFilter filter)
{
    if (!eg_device_check(device, "wgpuDevicePushErrorScope")) return;
    eg_vctx_t v = eg_vctx(device, "wgpuDevicePushErrorScope", device->obj.label);
    if (filter != WGPUErrorFilter_Validation && filter != WGPUErrorFilter_OutOfMemory &&
        filter != WGPUErrorFilter_Internal) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_ENUM_VALUE, "filter 0x%x is not a WGPUErrorFilter",
                (unsigned)filter);
        return;
    }
    if (device->scope_depth >= EMGPU_MAX_ERROR_SCOPES) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_ERROR_SCOPE_OVERFLOW,
                "error scope stack full (EMGPU_MAX_ERROR_SCOPES = %u)", (unsigned)EMGPU_MAX_ERROR_SCOPES);
        return;
    }
    eg_error_scope_t *s = &device->scopes[device->scope_depth++];
    s->filter = filter;
    s->type = WGPUErrorType_NoError;
    s->message[0] = '\0';
}

/* Spec: popErrorScope(): a lost device resolves with no error; an empty stack rejects
 * (OperationError: status Error); else the scope's first error, or NoError. */
WGPUFuture wgpuDevicePopErrorScope(WGPUDevice device, WGPUPopErrorScopeCallbackInfo callbackInfo)
{
    WGPUFuture fut = { 0 };
    if (!eg_device_check(device, "wgpuDevicePopErrorScope")) return fut;
    eg_future_desc_t fd = { .kind = EG_FUTURE_POP_ERROR_SCOPE, .callback_info = &callbackInfo };
    fd.result.status = WGPUPopErrorScopeStatus_Success;
    fd.result.type = WGPUErrorType_NoError;
    if (device->lost) {
        /* nothing to report */
    } else if (device->scope_depth == 0) {
        fd.result.status = WGPUPopErrorScopeStatus_Error;
        device->last_error_code = EG_E_ERROR_SCOPE_EMPTY;
        copy_msg(fd.result.message, sizeof fd.result.message,
                 "wgpuDevicePopErrorScope: no error scope to pop (PushErrorScope was not called)");
    } else {
        eg_error_scope_t *s = &device->scopes[--device->scope_depth];
        fd.result.type = s->type;
        copy_msg(fd.result.message, sizeof fd.result.message, s->message);
    }
    fut.id = eg_future_add(device->instance, &fd);
    return fut;
}
