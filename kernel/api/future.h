/* Futures: the per-instance table behind WGPUFuture, callback modes, WaitAny and ProcessEvents.
 *
 * Every asynchronous entry point (RequestAdapter, RequestDevice, MapAsync, OnSubmittedWorkDone,
 * PopErrorScope, the device-lost future, CreatePipelineAsync, GetCompilationInfo) adds one slot
 * to its instance's table of EMGPU_MAX_PENDING_FUTURES entries and returns the slot's id as the
 * WGPUFuture. A slot goes through two steps:
 *
 *   1. completion: its condition is met. Conditions are "now" (wait_submit_index == 0),
 *      "device->completed_index >= wait_submit_index" (checked by eg_device_poll), or
 *      "someone calls eg_future_resolve" (external = true: e.g. a pending map cancelled by Unmap).
 *   2. delivery: the callback is called, exactly once, when the mode allows it:
 *        WaitAnyOnly        only inside wgpuInstanceWaitAny naming this future;
 *        AllowProcessEvents inside WaitAny or wgpuInstanceProcessEvents;
 *        AllowSpontaneous   as soon as it is complete (possibly inside the call that created it).
 *      After delivery the slot is free again; WaitAny reports an id that was delivered as completed.
 *
 * Results: the slot keeps the kind's status, an object (adapter, device, pipeline), an error
 * type or lost reason, and a bounded message; they are filled when the future is added (for
 * futures complete at once), by eg_future_resolve, or by the kind's on_deliver hook.
 *
 * How another module adds a future (MapAsync in buffer.c, for example):
 *
 *     eg_future_desc_t fd = { .kind = EG_FUTURE_BUFFER_MAP, .callback_info = &callbackInfo,
 *                             .device = dev, .wait_submit_index = buf->obj.last_submit,
 *                             .on_deliver = buffer_map_deliver, .hook_object = buf };
 *     fd.result.status = WGPUMapAsyncStatus_Success;
 *     uint64_t id = eg_future_add(dev->instance, &fd);   // 0: table full, callback already fired
 *
 *   buffer_map_deliver(f) runs just before the callback: it maps the buffer (hal->buffer_map) and
 *   may change f->result (e.g. status Aborted). If the map is cancelled first (Unmap, Destroy,
 *   Release), buffer.c calls eg_future_resolve(inst, id, WGPUMapAsyncStatus_Aborted, "...") which
 *   completes the future with that result and drops the hook, so hook_object is never touched
 *   after the buffer is gone.
 *
 * When the table is full, eg_future_add delivers the callback at once with the kind's Error status
 * and a message naming EMGPU_MAX_PENDING_FUTURES, and returns 0 (WGPUFuture id 0 is never valid).
 * Releasing the instance delivers every pending callback with status CallbackCancelled.
 * A device's futures complete when it is destroyed or lost (its queue is drained).
 */
#ifndef EG_API_FUTURE_H
#define EG_API_FUTURE_H

#include <webgpu/webgpu.h>

#include "config/emgpu_config.h"
#include "kernel/base/util.h"

struct WGPUInstanceImpl;
struct WGPUDeviceImpl;

typedef enum eg_future_kind {
    EG_FUTURE_NONE = 0,
    EG_FUTURE_REQUEST_ADAPTER,         /* WGPURequestAdapterCallbackInfo */
    EG_FUTURE_REQUEST_DEVICE,          /* WGPURequestDeviceCallbackInfo */
    EG_FUTURE_QUEUE_WORK_DONE,         /* WGPUQueueWorkDoneCallbackInfo */
    EG_FUTURE_BUFFER_MAP,              /* WGPUBufferMapCallbackInfo */
    EG_FUTURE_POP_ERROR_SCOPE,         /* WGPUPopErrorScopeCallbackInfo */
    EG_FUTURE_DEVICE_LOST,             /* WGPUDeviceLostCallbackInfo */
    EG_FUTURE_COMPILATION_INFO,        /* WGPUCompilationInfoCallbackInfo */
    EG_FUTURE_CREATE_RENDER_PIPELINE,  /* WGPUCreateRenderPipelineAsyncCallbackInfo */
    EG_FUTURE_CREATE_COMPUTE_PIPELINE, /* WGPUCreateComputePipelineAsyncCallbackInfo */
    EG_FUTURE_KIND_COUNT
} eg_future_kind_t;

/* The callback info as the caller passed it; which member is live follows the kind. All of them
 * share the layout {nextInChain, mode, callback, userdata1, userdata2}. */
typedef union eg_future_callback {
    WGPURequestAdapterCallbackInfo request_adapter;
    WGPURequestDeviceCallbackInfo request_device;
    WGPUQueueWorkDoneCallbackInfo queue_work_done;
    WGPUBufferMapCallbackInfo buffer_map;
    WGPUPopErrorScopeCallbackInfo pop_error_scope;
    WGPUDeviceLostCallbackInfo device_lost;
    WGPUCompilationInfoCallbackInfo compilation_info;
    WGPUCreateRenderPipelineAsyncCallbackInfo create_render_pipeline;
    WGPUCreateComputePipelineAsyncCallbackInfo create_compute_pipeline;
} eg_future_callback_t;

/* What the callback receives. */
typedef struct eg_future_result {
    uint32_t    status;        /* the kind's WGPU*Status value (RequestAdapter: WGPURequestAdapterStatus) */
    uint32_t    type;          /* WGPUErrorType (PopErrorScope), WGPUDeviceLostReason (DeviceLost) */
    void       *object;        /* WGPUAdapter, WGPUDevice (also DeviceLost's device), pipeline */
    const void *info;          /* CompilationInfo: the WGPUCompilationInfo const * (owner keeps it alive) */
    char        message[EMGPU_ERROR_MESSAGE_MAX];
} eg_future_result_t;

typedef struct eg_future_slot eg_future_slot_t;
/** Called once, just before the callback is delivered (not when the slot is cancelled by
 *  instance release). It may change f->result. */
typedef void (*eg_future_deliver_fn)(eg_future_slot_t *f);

enum eg_future_state {
    EG_FUTURE_FREE = 0,
    EG_FUTURE_WAITING,   /* condition not met yet */
    EG_FUTURE_READY,     /* complete; the callback waits for a mode that allows delivery */
};

struct eg_future_slot {
    uint64_t             id;
    uint8_t              state;              /* enum eg_future_state */
    uint8_t              kind;               /* eg_future_kind_t */
    bool                 external;           /* completes only through eg_future_resolve */
    WGPUCallbackMode     mode;
    eg_future_callback_t cb;
    struct WGPUDeviceImpl *device;           /* NULL for instance-level futures */
    uint64_t             wait_submit_index;  /* 0: no submission to wait for */
    eg_future_deliver_fn on_deliver;         /* optional */
    void                *hook_object;        /* for on_deliver (the buffer being mapped, ...) */
    eg_future_result_t   result;
};

typedef struct eg_future_desc {
    eg_future_kind_t       kind;
    const void            *callback_info;      /* the WGPU*CallbackInfo of `kind`; copied */
    struct WGPUDeviceImpl *device;             /* whose submissions are waited for; may be NULL */
    uint64_t               wait_submit_index;  /* 0 (and !external): complete now */
    bool                   external;           /* wait for eg_future_resolve instead */
    eg_future_deliver_fn   on_deliver;         /* optional */
    void                  *hook_object;
    eg_future_result_t     result;             /* initial result; message may be left empty */
} eg_future_desc_t;

/** Adds a future; returns its id (>= 1), or 0 when the table is full or the callback mode is
 *  invalid — then the callback has already been called with the kind's Error status and a
 *  message saying why. A future complete at once with mode AllowSpontaneous is delivered before
 *  this returns (its id is still returned; WaitAny then reports it completed). */
uint64_t eg_future_add(struct WGPUInstanceImpl *inst, const eg_future_desc_t *d);

/** Completes a pending future now with this status and message (NULL: keep the message), and
 *  drops its on_deliver hook. Used to cancel or fail a pending operation (Unmap before a map
 *  completes: WGPUMapAsyncStatus_Aborted). No effect if id is unknown or already delivered. */
void eg_future_resolve(struct WGPUInstanceImpl *inst, uint64_t id, uint32_t status, const char *message);

/** The pending slot with this id, or NULL (0, unknown, or already delivered). */
eg_future_slot_t *eg_future_find(struct WGPUInstanceImpl *inst, uint64_t id);

/** Completes the device's futures whose wait_submit_index <= completed and delivers the
 *  AllowSpontaneous ones. Called by eg_device_poll. */
void eg_future_poll_device(struct WGPUDeviceImpl *device, uint64_t completed);
/** Completes every future of the device (destroyed or lost: nothing is left to wait for). */
void eg_future_complete_device(struct WGPUDeviceImpl *device);
/** Delivers one READY future now (WaitAny; any mode): runs on_deliver, frees the slot, then
 *  calls the callback. */
void eg_future_deliver(eg_future_slot_t *f);
/** Delivers every READY future whose mode is AllowProcessEvents or AllowSpontaneous. */
void eg_future_process_events(struct WGPUInstanceImpl *inst);
/** Instance release: delivers every pending future with the kind's CallbackCancelled status. */
void eg_future_cancel_all(struct WGPUInstanceImpl *inst);
/** Pending futures (tests, memory statistics). */
uint32_t eg_future_pending_count(const struct WGPUInstanceImpl *inst);

/** Storage for one instance's table (EMGPU_MAX_PENDING_FUTURES slots). */
#define EG_FUTURE_TABLE_BYTES ((size_t)EMGPU_MAX_PENDING_FUTURES * sizeof(eg_future_slot_t))

#endif /* EG_API_FUTURE_H */
