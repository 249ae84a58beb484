/* The future table: adding, completing and delivering futures under the three callback modes. */
#include "kernel/api/future.h"

#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/base/fmt.h"
#include "kernel/base/log.h"

/* Every status enum has Success = 1 and CallbackCancelled = 2; the error value differs. */
static uint32_t error_status(eg_future_kind_t kind)
{
    switch (kind) {
    case EG_FUTURE_REQUEST_ADAPTER: return WGPURequestAdapterStatus_Error;
    case EG_FUTURE_REQUEST_DEVICE: return WGPURequestDeviceStatus_Error;
    case EG_FUTURE_QUEUE_WORK_DONE: return WGPUQueueWorkDoneStatus_Error;
    case EG_FUTURE_BUFFER_MAP: return WGPUMapAsyncStatus_Error;
    case EG_FUTURE_POP_ERROR_SCOPE: return WGPUPopErrorScopeStatus_Error;
    case EG_FUTURE_CREATE_RENDER_PIPELINE:
    case EG_FUTURE_CREATE_COMPUTE_PIPELINE: return WGPUCreatePipelineAsyncStatus_InternalError;
    default: return 2u; /* DeviceLost and CompilationInfo have no error status */
    }
}

static WGPUStringView view(const char *s)
{
    WGPUStringView v = { s, eg_strlen(s) };
    return v;
}

/* Calls the kind's callback with the slot's result. The slot is already free (f is a copy), so a
 * callback may add futures or wait again. */
static void call(const eg_future_slot_t *f)
{
    const eg_future_result_t *r = &f->result;
    const eg_future_callback_t *c = &f->cb;
    switch ((eg_future_kind_t)f->kind) {
    case EG_FUTURE_REQUEST_ADAPTER:
        if (c->request_adapter.callback)
            c->request_adapter.callback((WGPURequestAdapterStatus)r->status, (WGPUAdapter)r->object,
                                        view(r->message), c->request_adapter.userdata1,
                                        c->request_adapter.userdata2);
        break;
    case EG_FUTURE_REQUEST_DEVICE:
        if (c->request_device.callback)
            c->request_device.callback((WGPURequestDeviceStatus)r->status, (WGPUDevice)r->object,
                                       view(r->message), c->request_device.userdata1,
                                       c->request_device.userdata2);
        break;
    case EG_FUTURE_QUEUE_WORK_DONE:
        if (c->queue_work_done.callback)
            c->queue_work_done.callback((WGPUQueueWorkDoneStatus)r->status, view(r->message),
                                        c->queue_work_done.userdata1, c->queue_work_done.userdata2);
        break;
    case EG_FUTURE_BUFFER_MAP:
        if (c->buffer_map.callback)
            c->buffer_map.callback((WGPUMapAsyncStatus)r->status, view(r->message),
                                   c->buffer_map.userdata1, c->buffer_map.userdata2);
        break;
    case EG_FUTURE_POP_ERROR_SCOPE:
        if (c->pop_error_scope.callback)
            c->pop_error_scope.callback((WGPUPopErrorScopeStatus)r->status, (WGPUErrorType)r->type,
                                        view(r->message), c->pop_error_scope.userdata1,
                                        c->pop_error_scope.userdata2);
        break;
    case EG_FUTURE_DEVICE_LOST:
        if (c->device_lost.callback) {
            WGPUDevice dev = (WGPUDevice)r->object;
            c->device_lost.callback(&dev, (WGPUDeviceLostReason)r->type, view(r->message),
                                    c->device_lost.userdata1, c->device_lost.userdata2);
        }
        break;
    case EG_FUTURE_COMPILATION_INFO:
        if (c->compilation_info.callback)
            c->compilation_info.callback((WGPUCompilationInfoRequestStatus)r->status,
                                         (const struct WGPUCompilationInfo *)r->info,
                                         c->compilation_info.userdata1, c->compilation_info.userdata2);
        break;
    case EG_FUTURE_CREATE_RENDER_PIPELINE:
        if (c->create_render_pipeline.callback)
            c->create_render_pipeline.callback((WGPUCreatePipelineAsyncStatus)r->status,
                                               (WGPURenderPipeline)r->object, view(r->message),
                                               c->create_render_pipeline.userdata1,
                                               c->create_render_pipeline.userdata2);
        break;
    case EG_FUTURE_CREATE_COMPUTE_PIPELINE:
        if (c->create_compute_pipeline.callback)
            c->create_compute_pipeline.callback((WGPUCreatePipelineAsyncStatus)r->status,
                                                (WGPUComputePipeline)r->object, view(r->message),
                                                c->create_compute_pipeline.userdata1,
                                                c->create_compute_pipeline.userdata2);
        break;
    default:
        break;
    }
}

/* Runs the hook, frees the slot, then calls the callback from a copy. */
void eg_future_deliver(eg_future_slot_t *f)
{
    if (f->on_deliver) f->on_deliver(f);
    eg_future_slot_t copy = *f;
    eg_memset(f, 0, sizeof *f);
    call(&copy);
}

static void set_message(eg_future_result_t *r, const char *msg)
{
    size_t n = eg_strlen(msg);
    if (n >= sizeof r->message) n = sizeof r->message - 1;
    eg_memcpy(r->message, msg, n);
    r->message[n] = '\0';
}

static void fail_now(const eg_future_desc_t *d, const char *msg)
{
    eg_future_slot_t f;
    eg_memset(&f, 0, sizeof f);
    f.kind = (uint8_t)d->kind;
    eg_memcpy(&f.cb, d->callback_info, sizeof(WGPUBufferMapCallbackInfo));
    f.result = d->result;
    f.result.status = error_status(d->kind);
    if (d->kind == EG_FUTURE_DEVICE_LOST) f.result.type = WGPUDeviceLostReason_Unknown;
    set_message(&f.result, msg);
    eg_log(EG_LOG_ERROR, "emgpu: %s", msg);
    call(&f);
}

uint64_t eg_future_add(struct WGPUInstanceImpl *inst, const eg_future_desc_t *d)
{
    /* All callback infos share {nextInChain, mode, callback, userdata1, userdata2}. */
    const WGPUBufferMapCallbackInfo *ci = d->callback_info;
    char msg[EMGPU_ERROR_MESSAGE_MAX];
    if (ci->mode != WGPUCallbackMode_WaitAnyOnly && ci->mode != WGPUCallbackMode_AllowProcessEvents &&
        ci->mode != WGPUCallbackMode_AllowSpontaneous) {
        /* webgpu.h: mode has no default; 0 is not a valid WGPUCallbackMode. */
        eg_fmt(msg, sizeof msg, "callbackInfo.mode 0x%x is not a WGPUCallbackMode", (unsigned)ci->mode);
        fail_now(d, msg);
        return 0;
    }
    eg_future_slot_t *f = NULL;
    uint32_t pending = 0;
    for (uint32_t i = 0; i < EMGPU_MAX_PENDING_FUTURES; i++) {
        if (inst->futures[i].state == EG_FUTURE_FREE) { if (!f) f = &inst->futures[i]; }
        else pending++;
    }
    if (!f) {
        eg_fmt(msg, sizeof msg, "future table full (EMGPU_MAX_PENDING_FUTURES = %u)",
               (unsigned)EMGPU_MAX_PENDING_FUTURES);
        fail_now(d, msg);
        return 0;
    }
    if (pending + 1 > inst->futures_high_water) inst->futures_high_water = pending + 1;
    eg_memset(f, 0, sizeof *f);
    f->id = ++inst->next_future_id;
    f->kind = (uint8_t)d->kind;
    f->mode = ci->mode;
    eg_memcpy(&f->cb, d->callback_info, sizeof(WGPUBufferMapCallbackInfo));
    f->device = d->device;
    f->wait_submit_index = d->wait_submit_index;
    f->external = d->external;
    f->on_deliver = d->on_deliver;
    f->hook_object = d->hook_object;
    f->result = d->result;
    bool done = !d->external &&
                (d->wait_submit_index == 0 || (d->device && d->device->completed_index >= d->wait_submit_index));
    f->state = done ? EG_FUTURE_READY : EG_FUTURE_WAITING;
    uint64_t id = f->id;
    if (done && f->mode == WGPUCallbackMode_AllowSpontaneous) eg_future_deliver(f);
    return id;
}

eg_future_slot_t *eg_future_find(struct WGPUInstanceImpl *inst, uint64_t id)
{
    if (!inst || id == 0) return NULL;
    for (uint32_t i = 0; i < EMGPU_MAX_PENDING_FUTURES; i++)
        if (inst->futures[i].state != EG_FUTURE_FREE && inst->futures[i].id == id) return &inst->futures[i];
    return NULL;
}

void eg_future_resolve(struct WGPUInstanceImpl *inst, uint64_t id, uint32_t status, const char *message)
{
    eg_future_slot_t *f = eg_future_find(inst, id);
    if (!f) return;
    f->result.status = status;
    if (message) set_message(&f->result, message);
    f->on_deliver = NULL;
    f->hook_object = NULL;
    f->external = false;
    f->state = EG_FUTURE_READY;
    if (f->mode == WGPUCallbackMode_AllowSpontaneous) eg_future_deliver(f);
}

void eg_future_poll_device(struct WGPUDeviceImpl *device, uint64_t completed)
{
    struct WGPUInstanceImpl *inst = device->instance;
    for (uint32_t i = 0; i < EMGPU_MAX_PENDING_FUTURES; i++) {
        eg_future_slot_t *f = &inst->futures[i];
        if (f->state != EG_FUTURE_WAITING || f->device != device || f->external) continue;
        if (f->wait_submit_index > completed) continue;
        f->state = EG_FUTURE_READY;
        if (f->mode == WGPUCallbackMode_AllowSpontaneous) eg_future_deliver(f);
    }
}

void eg_future_complete_device(struct WGPUDeviceImpl *device)
{
    eg_future_poll_device(device, UINT64_MAX);
}

void eg_future_process_events(struct WGPUInstanceImpl *inst)
{
    for (uint32_t i = 0; i < EMGPU_MAX_PENDING_FUTURES; i++) {
        eg_future_slot_t *f = &inst->futures[i];
        if (f->state == EG_FUTURE_READY && f->mode != WGPUCallbackMode_WaitAnyOnly) eg_future_deliver(f);
    }
}

void eg_future_cancel_all(struct WGPUInstanceImpl *inst)
{
    for (uint32_t i = 0; i < EMGPU_MAX_PENDING_FUTURES; i++) {
        eg_future_slot_t *f = &inst->futures[i];
        if (f->state == EG_FUTURE_FREE) continue;
        /* The hook is not run: the operation did not happen. */
        f->on_deliver = NULL;
        f->result.status = 2u; /* every *_CallbackCancelled */
        if (f->kind == EG_FUTURE_DEVICE_LOST) f->result.type = WGPUDeviceLostReason_CallbackCancelled;
        if (f->kind == EG_FUTURE_REQUEST_ADAPTER || f->kind == EG_FUTURE_REQUEST_DEVICE)
            f->result.object = NULL;
        set_message(&f->result, "the instance was released before the callback ran");
        eg_future_deliver(f);
    }
}

uint32_t eg_future_pending_count(const struct WGPUInstanceImpl *inst)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < EMGPU_MAX_PENDING_FUTURES; i++)
        if (inst->futures[i].state != EG_FUTURE_FREE) n++;
    return n;
}
