/* Devices: the Impl struct that every other object reaches through obj.device. */
#ifndef EG_API_DEVICE_H
#define EG_API_DEVICE_H

#include "hal/hal.h"
#include "kernel/api/error.h"
#include "kernel/api/features.h"
#include "kernel/api/object.h"
#include "kernel/base/arena.h"
#include "kernel/track/track.h"

typedef struct eg_error_scope {
    WGPUErrorFilter filter;
    WGPUErrorType   type;              /* first error captured, or NoError */
    char            message[EMGPU_ERROR_MESSAGE_MAX];
} eg_error_scope_t;

struct WGPUDeviceImpl {
    eg_object_t obj;
    struct WGPUInstanceImpl *instance;
    struct WGPUAdapterImpl  *adapter;
    struct WGPUQueueImpl    *queue;
    const eg_hal_ops_t      *hal;
    eg_hal_device_t         *hal_dev;
    eg_device_info_t         info;      /* copied from the adapter */
    WGPULimits               limits;    /* the limits the device was created with */
    uint64_t                 features;  /* enabled features, eg_feature_bit() bits */
    uint32_t                 feature_count;
    WGPUFeatureName          feature_list[EG_FEATURE_COUNT];   /* for wgpuDeviceGetFeatures */
    bool                     lost;
    /* error scopes (innermost last) */
    eg_error_scope_t         scopes[EMGPU_MAX_ERROR_SCOPES];
    uint32_t                 scope_depth;
    WGPUUncapturedErrorCallbackInfo uncaptured;
    WGPUDeviceLostCallbackInfo      lost_info;
    uint64_t                 lost_future_id;
    eg_error_code_t          last_error_code;   /* test hook */
    WGPUErrorType            last_error_type;
    /* submissions */
    uint64_t                 submit_index;      /* newest submitted */
    uint64_t                 completed_index;   /* newest known complete */
    uint32_t                 doomed_count;      /* objects waiting for completion to be freed */
    eg_track_device_t       *track;             /* &track_state once initialised, else NULL */
    eg_track_device_t        track_state;       /* device tracker; storage from the instance block */
    bool                     destroyed;         /* wgpuDeviceDestroy ran */
};

/** Drops a reference held on the device (by a child object or the application); at zero the
 *  device is destroyed (if not yet), its backend closed and its slot freed. */
void eg_device_unref(struct WGPUDeviceImpl *device);
/** Creates the device for RequestDevice (adapter.c), with resolved limits and features. NULL
 *  with msg filled when the pool is full or the backend fails. */
struct WGPUDeviceImpl *eg_device_create(struct WGPUAdapterImpl *adapter, const WGPUDeviceDescriptor *d,
                                        const WGPULimits *limits, uint64_t features,
                                        char *msg, size_t msg_cap);
/** Common entry check: device handle live and valid. Reports through the log (no device to
 *  report to) and returns false otherwise. */
bool eg_device_check(WGPUDevice device, const char *entry);

/** Polls the backend for completed submissions, completes futures and frees doomed objects. */
void eg_device_poll(struct WGPUDeviceImpl *device);
/** Reports device loss: fires the lost callback once; later errors are dropped. */
void eg_device_lose(struct WGPUDeviceImpl *device, WGPUDeviceLostReason reason, const char *message);

#endif /* EG_API_DEVICE_H */
