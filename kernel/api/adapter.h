/* Adapters: the Impl struct (one per RequestAdapter result) and the backend it came from. */
#ifndef EG_API_ADAPTER_H
#define EG_API_ADAPTER_H

#include "hal/hal.h"
#include "kernel/api/features.h"
#include "kernel/api/object.h"

struct WGPUAdapterImpl {
    eg_object_t obj;                     /* first member: pool slot, label (obj.device is NULL) */
    struct WGPUInstanceImpl *instance;
    const eg_hal_ops_t *hal;
    eg_device_info_t info;               /* from hal->probe; immutable */
    bool consumed;                       /* a device was created from it (spec: "consumed") */
    uint32_t feature_count;
    WGPUFeatureName feature_list[EG_FEATURE_COUNT];   /* for wgpuAdapterGetFeatures */
};

/** Picks the backend for RequestAdapter options (spec: requestAdapter(); emgpu's rules in
 *  adapter.c). NULL with *why set when none fits; `why` is a static string. */
const eg_hal_ops_t *eg_adapter_select_backend(const WGPURequestAdapterOptions *opt, const char **why);

#endif /* EG_API_ADAPTER_H */
