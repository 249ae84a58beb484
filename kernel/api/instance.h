/* Instances: the object pools, the future table, and the handle checks that use them.
 *
 * An instance owns one pool per object kind (capacities from the config knobs, or from a
 * WGPUEmgpuInstanceMemoryDescriptor chained to wgpuCreateInstance) and the table of pending
 * futures. Its memory is carved once at creation from a static block (sized at compile time
 * from the knobs, see instance_memory.c) or from the caller's block; nothing is allocated after.
 */
#ifndef EG_API_INSTANCE_H
#define EG_API_INSTANCE_H

#include "kernel/api/error.h"
#include "kernel/api/object.h"
#include "kernel/base/arena.h"

/** Instances alive at once. The default static block serves one instance; further instances
 *  need a caller-provided block (WGPUEmgpuInstanceMemoryDescriptor). */
#ifndef EMGPU_MAX_INSTANCES
#define EMGPU_MAX_INSTANCES 2
#endif

/* Pool capacities of one instance (knob defaults or the memory descriptor's overrides). */
typedef struct eg_capacities {
    uint32_t pool[EG_KIND_COUNT];
    uint32_t command_stream_B;     /* per command buffer */
    uint32_t device_heap_B;        /* per device */
} eg_capacities_t;

typedef struct eg_future_slot eg_future_slot_t;   /* kernel/api/future.h */

struct WGPUInstanceImpl {
    uint32_t        refs;
    bool            live;
    bool            static_block;          /* uses the static block (not a caller block) */
    bool            timed_wait_any;        /* WGPUInstanceFeatureName_TimedWaitAny enabled */
    uint32_t        timed_wait_any_max;    /* WGPUInstanceLimits.timedWaitAnyMaxCount */
    eg_capacities_t caps;
    eg_pool_t       pools[EG_KIND_COUNT];  /* indexed by eg_kind_t; [EG_KIND_NONE] unused */
    uint8_t        *memory;                /* the carved block */
    size_t          memory_B;
    uint64_t        next_future_id;
    eg_future_slot_t *futures;             /* EMGPU_MAX_PENDING_FUTURES entries */
};

/** The instance whose pools contain this handle, or NULL. */
struct WGPUInstanceImpl *eg_instance_of(const void *handle);
/** The pool of `kind` in the instance that owns the handle (NULL if none). */
eg_pool_t *eg_pool_of(const void *handle, eg_kind_t kind);

/** Checks an application handle: non-NULL (unless optional), a live slot of `kind`, not an error
 *  object unless allow_invalid. `what` names the parameter or field ("descriptor.layout").
 *  Returns false after reporting the error through v. */
bool eg_handle_check(const eg_vctx_t *v, const void *handle, eg_kind_t kind, const char *what,
                     bool optional);
/** A check for entry points with no error channel (AddRef/Release/SetLabel, getters):
 *  true when the handle is a live slot of `kind`; otherwise logs once and returns false. */
bool eg_handle_live(const void *handle, eg_kind_t kind, const char *entry);

/** Takes a slot of `kind` from the device's instance; on a full pool reports OutOfMemory
 *  naming the pool and knob, and returns NULL. The new object is LIVE with refs = 1. */
void *eg_object_alloc(const eg_vctx_t *v, struct WGPUDeviceImpl *device, eg_kind_t kind);
/** Returns a slot to its pool (after the HAL destroyed its part). */
void  eg_object_free(void *object);

/* instance_memory.c: bytes needed for caps, and carving the block into pools. */
size_t eg_instance_memory_size(const eg_capacities_t *caps);
void   eg_instance_memory_carve(struct WGPUInstanceImpl *inst, uint8_t *block);
void   eg_capacities_default(eg_capacities_t *caps);

#endif /* EG_API_INSTANCE_H */
