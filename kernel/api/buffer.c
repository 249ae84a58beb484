/* Buffer objects: descriptor validation, the map state machine, deferred release. */
#include "kernel/api/buffer.h"

#include "kernel/api/device.h"
#include "kernel/api/future.h"
#include "kernel/api/instance.h"
#include "kernel/track/track.h"

#define BUFFER_USAGE_ALL ((WGPUBufferUsage)0x3FF)   /* MapRead .. QueryResolve */

/* ---- helpers ---- */

static uint32_t pool_index(const eg_buffer_t *b)
{
    return eg_pool_index(eg_pool_of(b, EG_KIND_BUFFER), b);
}

static void map_reset(eg_buffer_t *b)
{
    b->map_state = WGPUBufferMapState_Unmapped;
    b->map_mode = WGPUMapMode_None;
    b->map_ptr = NULL;
    b->map_future = 0;
    b->range_count = 0;
}

/* Spec "unmap": a pending map is aborted (its callback gets Aborted); a mapping ends. */
static void unmap(eg_buffer_t *b, const char *why)
{
    struct WGPUDeviceImpl *dev = b->obj.device;
    if (b->map_state == WGPUBufferMapState_Pending && b->map_future)
        eg_future_resolve(dev->instance, b->map_future, WGPUMapAsyncStatus_Aborted, why);
    else if (b->map_state == WGPUBufferMapState_Mapped && b->hal_live)
        dev->hal->buffer_unmap(dev->hal_dev, b);
    map_reset(b);
}

static void hal_release(eg_buffer_t *b)
{
    struct WGPUDeviceImpl *dev = b->obj.device;
    if (b->hal_live) dev->hal->buffer_destroy(dev->hal_dev, b);
    b->hal_live = false;
    if (b->tracked && dev->track) eg_track_buffer_unregister(dev->track, pool_index(b));
    b->tracked = false;
}

static void destroy_buffer(void *object)
{
    eg_buffer_t *b = object;
    unmap(b, "the buffer was released while its map was pending");
    hal_release(b);
    eg_object_free(b);
}

bool eg_buffer_check_use(const eg_vctx_t *v, WGPUBuffer b, const char *what)
{
    if (!eg_handle_check(v, b, EG_KIND_BUFFER, what, false)) return false;
    EG_CHECK(v, b->obj.device == v->device, WRONG_DEVICE, "%s belongs to another device", what);
    EG_CHECK(v, !b->obj.destroyed, DESTROYED_OBJECT, "%s \"%s\" was destroyed", what, b->obj.label);
    return true;
}

/* ---- creation ---- */

/* Spec: createBuffer(), "validating GPUBufferDescriptor". */
static bool validate_desc(const eg_vctx_t *v, const WGPUBufferDescriptor *d)
{
    const WGPULimits *lim = &v->device->limits;
    EG_CHECK(v, d->nextInChain == NULL, UNKNOWN_STYPE, "nextInChain: sType 0x%x is not accepted",
             d->nextInChain ? (unsigned)d->nextInChain->sType : 0u);
    EG_CHECK(v, d->usage != 0, BUFFER_USAGE_NONE, "usage is 0 (WGPUBufferUsage_None)");
    EG_CHECK(v, (d->usage & ~BUFFER_USAGE_ALL) == 0, BUFFER_USAGE_UNKNOWN,
             "usage 0x%llx has bits outside WGPUBufferUsage (0x%llx)", (unsigned long long)d->usage,
             (unsigned long long)BUFFER_USAGE_ALL);
    if (d->usage & WGPUBufferUsage_MapRead)
        EG_CHECK(v, (d->usage & ~(WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst)) == 0,
                 BUFFER_MAP_USAGE_COMBO, "usage 0x%llx: MapRead may only be combined with CopyDst",
                 (unsigned long long)d->usage);
    if (d->usage & WGPUBufferUsage_MapWrite)
        EG_CHECK(v, (d->usage & ~(WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopySrc)) == 0,
                 BUFFER_MAP_USAGE_COMBO, "usage 0x%llx: MapWrite may only be combined with CopySrc",
                 (unsigned long long)d->usage);
    if (d->mappedAtCreation)
        EG_CHECK(v, d->size % 4 == 0, BUFFER_MAPPED_AT_CREATION_SIZE,
                 "size %llu is not a multiple of 4, required by mappedAtCreation",
                 (unsigned long long)d->size);
    EG_CHECK(v, d->size <= lim->maxBufferSize, BUFFER_TOO_LARGE,
             "size %llu exceeds maxBufferSize (%llu)", (unsigned long long)d->size,
             (unsigned long long)lim->maxBufferSize);
    return true;
}

static void track_register(const eg_vctx_t *v, eg_buffer_t *b, bool mapped)
{
    eg_track_error_t err;
    if (eg_track_buffer_register(v->device->track, pool_index(b),
                                 mapped ? EG_TRACK_BUF_MAP_WRITE : EG_TRACK_BUF_NONE, &err) == EG_TRACK_OK)
        b->tracked = true;
    else
        eg_fail(v, WGPUErrorType_Internal, EG_E_HAL_INTERNAL, "tracker refused buffer %u (status %d)",
                (unsigned)pool_index(b), (int)err.status);
}

WGPUBuffer wgpuDeviceCreateBuffer(WGPUDevice device, WGPUBufferDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuDeviceCreateBuffer", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false)) return NULL;
    v.device = device;
    if (!descriptor) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return NULL;
    }
    eg_buffer_t *b = eg_object_alloc(&v, device, EG_KIND_BUFFER);
    if (!b) return NULL;
    eg_object_set_label(&b->obj, descriptor->label);
    v.label = b->obj.label;
    b->size_B = descriptor->size;
    b->usage = descriptor->usage;
    map_reset(b);
    if (!validate_desc(&v, descriptor)) {
        b->obj.invalid = 1;
        return b;
    }
    eg_status_t st = device->hal->buffer_create(device->hal_dev, b);
    if (st != EG_STATUS_OK) {
        eg_fail_hal(&v, st, "buffer", b->size_B);
        b->obj.invalid = 1;
        return b;
    }
    b->hal_live = true;
    track_register(&v, b, descriptor->mappedAtCreation);
    if (descriptor->mappedAtCreation) {
        /* Spec: mappedAtCreation maps for writing even without MapWrite usage; the HAL map gives
         * a CPU view (direct on soft, a staging copy on GPU backends). */
        b->map_ptr = device->hal->buffer_map(device->hal_dev, b, 0, b->size_B, true);
        b->map_state = WGPUBufferMapState_Mapped;
        b->map_mode = WGPUMapMode_Write;
        b->map_offset_B = 0;
        b->map_size_B = b->size_B;
    }
    return b;
}

/* ---- mapping ---- */

/* Runs just before a successful MapAsync callback: the map becomes real. */
static void map_deliver(eg_future_slot_t *f)
{
    eg_buffer_t *b = f->hook_object;
    struct WGPUDeviceImpl *dev = b->obj.device;
    if (b->map_state != WGPUBufferMapState_Pending || b->map_future != f->id) return;
    b->map_future = 0;
    uint8_t *p = b->hal_live ? dev->hal->buffer_map(dev->hal_dev, b, b->map_offset_B, b->map_size_B,
                                                    b->map_mode == WGPUMapMode_Write) : NULL;
    if (!p) {
        map_reset(b);
        f->result.status = WGPUMapAsyncStatus_Error;
        eg_fmt(f->result.message, sizeof f->result.message, "the device was lost before the map completed");
        return;
    }
    b->map_ptr = p;
    b->map_state = WGPUBufferMapState_Mapped;
    b->range_count = 0;
}

/* Spec: mapAsync(), device-timeline checks. */
static bool validate_map(const eg_vctx_t *v, const eg_buffer_t *b, WGPUMapMode mode, uint64_t offset,
                         uint64_t size)
{
    EG_CHECK(v, !b->obj.invalid, INVALID_OBJECT, "the buffer is invalid (its creation failed validation)");
    EG_CHECK(v, !b->obj.destroyed, DESTROYED_OBJECT, "the buffer was destroyed");
    EG_CHECK(v, offset % 8 == 0, BUFFER_MAP_ALIGNMENT, "offset %llu is not a multiple of 8",
             (unsigned long long)offset);
    EG_CHECK(v, size % 4 == 0, BUFFER_MAP_ALIGNMENT, "size %llu is not a multiple of 4",
             (unsigned long long)size);
    EG_CHECK(v, offset <= b->size_B && size <= b->size_B - offset, BUFFER_MAP_RANGE,
             "offset %llu + size %llu exceeds the buffer size %llu", (unsigned long long)offset,
             (unsigned long long)size, (unsigned long long)b->size_B);
    EG_CHECK(v, b->map_state == WGPUBufferMapState_Unmapped, BUFFER_MAP_STATE,
             "the buffer is already mapped (call wgpuBufferUnmap first)");
    EG_CHECK(v, mode == WGPUMapMode_Read || mode == WGPUMapMode_Write, BUFFER_MAP_MODE,
             "mode 0x%llx must be exactly WGPUMapMode_Read or WGPUMapMode_Write", (unsigned long long)mode);
    if (mode == WGPUMapMode_Read)
        EG_CHECK(v, b->usage & WGPUBufferUsage_MapRead, BUFFER_MAP_MODE,
                 "mode Read needs usage MapRead (usage is 0x%llx)", (unsigned long long)b->usage);
    else
        EG_CHECK(v, b->usage & WGPUBufferUsage_MapWrite, BUFFER_MAP_MODE,
                 "mode Write needs usage MapWrite (usage is 0x%llx)", (unsigned long long)b->usage);
    return true;
}

static WGPUFuture add_map_future(eg_buffer_t *b, const WGPUBufferMapCallbackInfo *ci, uint64_t wait,
                                 WGPUMapAsyncStatus status, const char *message, bool hook)
{
    struct WGPUDeviceImpl *dev = b->obj.device;
    eg_future_desc_t fd;
    eg_memset(&fd, 0, sizeof fd);
    fd.kind = EG_FUTURE_BUFFER_MAP;
    fd.callback_info = ci;
    fd.device = dev;
    fd.wait_submit_index = wait;
    fd.on_deliver = hook ? map_deliver : NULL;
    fd.hook_object = hook ? b : NULL;
    fd.result.status = (uint32_t)status;
    if (message) eg_fmt(fd.result.message, sizeof fd.result.message, "%s", message);
    WGPUFuture f = { 0 };
    if (hook) b->map_state = WGPUBufferMapState_Pending;   /* before add: it may deliver at once */
    f.id = eg_future_add(dev->instance, &fd);
    if (hook && b->map_state == WGPUBufferMapState_Pending) b->map_future = f.id;
    if (hook && f.id == 0) map_reset(b);                   /* table full: already failed */
    return f;
}

WGPUFuture wgpuBufferMapAsync(WGPUBuffer buffer, WGPUMapMode mode, size_t offset, size_t size,
                              WGPUBufferMapCallbackInfo callbackInfo)
{
    WGPUFuture none = { 0 };
    eg_vctx_t v = eg_vctx(NULL, "wgpuBufferMapAsync", NULL);
    if (!eg_handle_live(buffer, EG_KIND_BUFFER, "wgpuBufferMapAsync")) {
        if (callbackInfo.callback) {
            static const char msg[] = "wgpuBufferMapAsync: buffer is not a live buffer handle";
            WGPUStringView sv = { msg, sizeof msg - 1 };
            callbackInfo.callback(WGPUMapAsyncStatus_Error, sv, callbackInfo.userdata1, callbackInfo.userdata2);
        }
        return none;
    }
    v.device = buffer->obj.device;
    v.label = buffer->obj.label;
    uint64_t range = size == WGPU_WHOLE_MAP_SIZE
                         ? (offset < buffer->size_B ? buffer->size_B - offset : 0) : (uint64_t)size;
    /* Content timeline first: a second MapAsync while one is pending fails its own callback
     * only; the pending map is untouched and no device error is raised. */
    if (buffer->map_state == WGPUBufferMapState_Pending)
        return add_map_future(buffer, &callbackInfo, 0, WGPUMapAsyncStatus_Error,
                              "wgpuBufferMapAsync: a map is already pending on this buffer", false);
    if (!validate_map(&v, buffer, mode, offset, range)) {
        /* The device error just dispatched carries the details. */
        return add_map_future(buffer, &callbackInfo, 0, WGPUMapAsyncStatus_Error,
                              "wgpuBufferMapAsync: validation failed (see the device error)", false);
    }
    buffer->map_mode = mode;
    buffer->map_offset_B = offset;
    buffer->map_size_B = range;
    buffer->range_count = 0;
    uint64_t wait = buffer->obj.last_submit > v.device->completed_index ? buffer->obj.last_submit : 0;
    return add_map_future(buffer, &callbackInfo, wait, WGPUMapAsyncStatus_Success, NULL, true);
}

/* Spec: getMappedRange(). Failures throw OperationError on the content timeline, not a device
 * error: here they log (through a context without device) and return NULL. */
static void *mapped_range(WGPUBuffer b, size_t offset, size_t size, bool writable, const char *entry)
{
    eg_vctx_t v = eg_vctx(NULL, entry, NULL);
    if (!eg_handle_live(b, EG_KIND_BUFFER, entry)) return NULL;
    v.label = b->obj.label;
    uint64_t range = size == WGPU_WHOLE_MAP_SIZE ? (offset < b->size_B ? b->size_B - offset : 0) : size;
    if (b->map_state != WGPUBufferMapState_Mapped) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_BUFFER_MAP_STATE, "the buffer is not mapped");
        return NULL;
    }
    if (writable && b->map_mode != WGPUMapMode_Write) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_BUFFER_MAP_CONST,
                "the buffer is mapped for reading: use wgpuBufferGetConstMappedRange");
        return NULL;
    }
    if (offset % 8 != 0 || range % 4 != 0) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_BUFFER_MAP_ALIGNMENT,
                "offset %llu must be a multiple of 8 and size %llu of 4", (unsigned long long)offset,
                (unsigned long long)range);
        return NULL;
    }
    uint64_t end = b->map_offset_B + b->map_size_B;
    if (offset < b->map_offset_B || offset > end || range > end - offset) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_BUFFER_MAP_RANGE,
                "range [%llu, %llu) is outside the mapped range [%llu, %llu)", (unsigned long long)offset,
                (unsigned long long)(offset + range), (unsigned long long)b->map_offset_B,
                (unsigned long long)end);
        return NULL;
    }
    for (uint32_t i = 0; i < b->range_count; i++) {
        uint64_t s = b->ranges[i].offset_B, e = s + b->ranges[i].size_B;
        if (offset < e && s < offset + range) {
            eg_fail(&v, WGPUErrorType_Validation, EG_E_BUFFER_MAP_OVERLAP,
                    "range [%llu, %llu) overlaps [%llu, %llu) returned earlier", (unsigned long long)offset,
                    (unsigned long long)(offset + range), (unsigned long long)s, (unsigned long long)e);
            return NULL;
        }
    }
    if (b->range_count == EG_BUFFER_MAPPED_RANGES_MAX) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_BUFFER_MAP_OVERLAP,
                "more than EG_BUFFER_MAPPED_RANGES_MAX (%u) ranges requested from one mapping",
                (unsigned)EG_BUFFER_MAPPED_RANGES_MAX);
        return NULL;
    }
    b->ranges[b->range_count].offset_B = offset;
    b->ranges[b->range_count].size_B = range;
    b->range_count++;
    return b->map_ptr ? b->map_ptr + (size_t)(offset - b->map_offset_B) : NULL;
}

void *wgpuBufferGetMappedRange(WGPUBuffer buffer, size_t offset, size_t size)
{
    return mapped_range(buffer, offset, size, true, "wgpuBufferGetMappedRange");
}

void const *wgpuBufferGetConstMappedRange(WGPUBuffer buffer, size_t offset, size_t size)
{
    return mapped_range(buffer, offset, size, false, "wgpuBufferGetConstMappedRange");
}

void wgpuBufferUnmap(WGPUBuffer buffer)
{
    if (!eg_handle_live(buffer, EG_KIND_BUFFER, "wgpuBufferUnmap")) return;
    unmap(buffer, "wgpuBufferUnmap was called before the map completed");
}

/* Spec: destroy(). Unmaps (aborting a pending map); the memory goes back at once unless a
 * submission still uses it, then at release. */
void wgpuBufferDestroy(WGPUBuffer buffer)
{
    if (!eg_handle_live(buffer, EG_KIND_BUFFER, "wgpuBufferDestroy")) return;
    unmap(buffer, "wgpuBufferDestroy was called before the map completed");
    buffer->obj.destroyed = 1;
    if (buffer->obj.last_submit <= buffer->obj.device->completed_index) hal_release(buffer);
}

/* ---- getters, label, refcount ---- */

WGPUBufferMapState wgpuBufferGetMapState(WGPUBuffer buffer)
{
    if (!eg_handle_live(buffer, EG_KIND_BUFFER, "wgpuBufferGetMapState")) return WGPUBufferMapState_Unmapped;
    return buffer->map_state;
}

uint64_t wgpuBufferGetSize(WGPUBuffer buffer)
{
    if (!eg_handle_live(buffer, EG_KIND_BUFFER, "wgpuBufferGetSize")) return 0;
    return buffer->size_B;
}

WGPUBufferUsage wgpuBufferGetUsage(WGPUBuffer buffer)
{
    if (!eg_handle_live(buffer, EG_KIND_BUFFER, "wgpuBufferGetUsage")) return WGPUBufferUsage_None;
    return buffer->usage;
}

void wgpuBufferSetLabel(WGPUBuffer buffer, WGPUStringView label)
{
    if (!eg_handle_live(buffer, EG_KIND_BUFFER, "wgpuBufferSetLabel")) return;
    eg_object_set_label(&buffer->obj, label);
}

void wgpuBufferAddRef(WGPUBuffer buffer)
{
    if (!eg_handle_live(buffer, EG_KIND_BUFFER, "wgpuBufferAddRef")) return;
    eg_object_ref(buffer);
}

void wgpuBufferRelease(WGPUBuffer buffer)
{
    if (!eg_handle_live(buffer, EG_KIND_BUFFER, "wgpuBufferRelease")) return;
    eg_object_unref(buffer, destroy_buffer);
}
