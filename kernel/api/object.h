/* What every API object shares: its pool slot, its kind, validity, label and device.
 *
 * Every webgpu.h handle type is `struct WGPUXxxImpl *`, and every Impl struct begins with an
 * eg_object_t. A handle coming from the application is checked with eg_object_check(): it must
 * point at a slot of the right pool, that slot must not be free (a stale handle), and it must be
 * of the expected kind. "Invalid" objects (WebGPU's error objects, returned when creation fails
 * validation) are real slots with `invalid` set: using one is a validation error naming it.
 */
#ifndef EG_OBJECT_H
#define EG_OBJECT_H

#include <webgpu/webgpu.h>

#include "config/emgpu_config.h"
#include "kernel/base/pool.h"

typedef enum eg_kind {
    EG_KIND_NONE = 0,
    EG_KIND_ADAPTER,
    EG_KIND_DEVICE,
    EG_KIND_QUEUE,
    EG_KIND_BUFFER,
    EG_KIND_TEXTURE,
    EG_KIND_TEXTURE_VIEW,
    EG_KIND_SAMPLER,
    EG_KIND_BIND_GROUP_LAYOUT,
    EG_KIND_BIND_GROUP,
    EG_KIND_PIPELINE_LAYOUT,
    EG_KIND_SHADER_MODULE,
    EG_KIND_RENDER_PIPELINE,
    EG_KIND_COMPUTE_PIPELINE,
    EG_KIND_COMMAND_BUFFER,     /* command encoders and command buffers share this pool */
    EG_KIND_PASS_ENCODER,       /* render and compute pass encoders share this pool */
    EG_KIND_SURFACE,            /* instance-level, like adapters (kernel/api/surface.c) */
    EG_KIND_COUNT
} eg_kind_t;

/** Name of a kind as the API spells it ("buffer", "texture view"), for messages. */
const char *eg_kind_name(eg_kind_t kind);

/* Space inside each object that its backend uses for its own handles (a VkBuffer and its
 * allocation, a GL name, a soft-heap pointer), so backends need no pools of their own.
 * Each backend _Static_asserts that its per-object struct fits. */
#ifndef EMGPU_HAL_PRIV_WORDS
#define EMGPU_HAL_PRIV_WORDS 6
#endif
typedef struct eg_hal_priv { uintptr_t w[EMGPU_HAL_PRIV_WORDS]; } eg_hal_priv_t;

typedef struct eg_object {
    eg_slot_t slot;
    uint8_t   invalid;            /* WebGPU error object: every use is a validation error */
    uint8_t   destroyed;          /* Destroy() called (buffers, textures, devices) */
    uint16_t  hal_index;          /* which backend of the instance owns it (devices' children) */
    uint64_t  last_submit;        /* newest submission index that uses this object */
    struct WGPUDeviceImpl *device;/* owning device (NULL for instance-level objects) */
    void    (*doomed_destroy)(void *object); /* set while DOOMED: run by eg_device_poll */
    char      label[EMGPU_LABEL_MAX];
} eg_object_t;

/** Destroys an object whose last reference is gone: releases its HAL part and the references it
 *  holds, then calls eg_object_free (kernel/api/instance.h). */
typedef void (*eg_object_destroy_fn)(void *object);

/** webgpu.h AddRef for any object (the handle must already be checked live). */
void eg_object_ref(void *object);
/** webgpu.h Release for any object (the handle must already be checked live). When the count
 *  reaches zero: if a submission that has not completed yet uses the object
 *  (obj.last_submit > device->completed_index) the slot becomes DOOMED and destroy runs later
 *  from eg_device_poll; otherwise destroy(object) runs now. Returns true when refs reached 0. */
bool eg_object_unref(void *object, eg_object_destroy_fn destroy);

/** Copies a WGPUStringView label (truncated to EMGPU_LABEL_MAX - 1 bytes). */
void eg_object_set_label(eg_object_t *o, WGPUStringView label);

#endif /* EG_OBJECT_H */
