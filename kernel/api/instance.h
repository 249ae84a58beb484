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
#include "kernel/track/track.h"

/** Instances alive at once. The default static block serves one instance; further instances
 *  need a caller-provided block (WGPUEmgpuInstanceMemoryDescriptor). */
#ifndef EMGPU_MAX_INSTANCES
#define EMGPU_MAX_INSTANCES 2
#endif
/** Per-texture subresource states of each device tracker (kernel/track), 2 bytes each. */
#ifndef EMGPU_TRACK_SUBRESOURCE_STATES
#define EMGPU_TRACK_SUBRESOURCE_STATES 512
#endif

/* Pool capacities of one instance (knob defaults or the memory descriptor's overrides). */
typedef struct eg_capacities {
    uint32_t pool[EG_KIND_COUNT];  /* [EG_KIND_QUEUE] == [EG_KIND_DEVICE]; [EG_KIND_NONE] = 0 */
    uint32_t command_stream_B;     /* per command buffer */
} eg_capacities_t;

typedef struct eg_future_slot eg_future_slot_t;   /* kernel/api/future.h */

/* Byte offsets of the regions carved from the instance block (instance_memory.c). */
typedef struct eg_instance_layout {
    size_t pool_off[EG_KIND_COUNT];
    size_t futures_off;
    size_t streams_off;            /* pool[EG_KIND_COMMAND_BUFFER] * command_stream_B */
    size_t track_off;              /* pool[EG_KIND_DEVICE] * track_device_B */
    size_t track_device_B;
    size_t total_B;
} eg_instance_layout_t;

struct WGPUInstanceImpl {
    uint32_t        refs;
    bool            live;
    bool            static_block;          /* uses the static block (not a caller block) */
    bool            timed_wait_any;        /* WGPUInstanceFeatureName_TimedWaitAny enabled */
    uint32_t        timed_wait_any_max;    /* WGPUInstanceLimits.timedWaitAnyMaxCount */
    bool            multiple_devices_per_adapter; /* instance feature: adapters are not consumed */
    eg_capacities_t caps;
    eg_instance_layout_t layout;
    eg_pool_t       pools[EG_KIND_COUNT];  /* indexed by eg_kind_t; [EG_KIND_NONE] unused */
    uint8_t        *memory;                /* the carved block */
    size_t          memory_B;
    uint64_t        next_future_id;
    eg_future_slot_t *futures;             /* EMGPU_MAX_PENDING_FUTURES entries */
    uint32_t        futures_high_water;
    uint32_t        stream_high_water_B;   /* largest command stream seen at Finish */
};

/** The instance whose pools contain this handle, or NULL. */
struct WGPUInstanceImpl *eg_instance_of(const void *handle);
/** The pool of `kind` in the instance that owns the handle (NULL if none). */
eg_pool_t *eg_pool_of(const void *handle, eg_kind_t kind);

/** Checks an application handle, in this order: non-NULL (a NULL optional handle passes),
 *  owned by a live instance, not stale (its slot is not FREE), of `kind`, and not an invalid
 *  (error) object. `what` names the parameter or field ("descriptor.layout"). Returns false after
 *  reporting a Validation error through v: NULL_HANDLE, STALE_HANDLE, WRONG_HANDLE_KIND or
 *  INVALID_OBJECT. Device matching (WRONG_DEVICE) is the caller's check. */
bool eg_handle_check(const eg_vctx_t *v, const void *handle, eg_kind_t kind, const char *what,
                     bool optional);
/** A check for entry points with no error channel (AddRef/Release/SetLabel, getters):
 *  true when the handle is a LIVE slot of `kind` (invalid objects included);
 *  otherwise logs an error naming the entry point and returns false. */
bool eg_handle_live(const void *handle, eg_kind_t kind, const char *entry);

/** Takes a slot of `kind` from the device's instance; on a full pool reports OutOfMemory
 *  naming the pool and knob, and returns NULL. The new object is LIVE with refs = 1, its
 *  obj.device is `device`, and it holds a reference on the device (dropped by eg_object_free),
 *  so a device outlives its children. */
void *eg_object_alloc(const eg_vctx_t *v, struct WGPUDeviceImpl *device, eg_kind_t kind);
/** Same for instance-level objects (adapters) and for a device's queue: no device reference. */
void *eg_object_alloc_in(const eg_vctx_t *v, struct WGPUInstanceImpl *inst, eg_kind_t kind);
/** Returns a slot to its pool (after the HAL destroyed its part) and drops its device reference. */
void  eg_object_free(void *object);

/** Memory of the command stream that belongs to command-buffer slot `cmd_slot_index`
 *  (eg_pool_index of the command encoder, 1-based): caps.command_stream_B bytes, 8-aligned. */
uint8_t *eg_instance_stream_memory(struct WGPUInstanceImpl *inst, uint32_t cmd_slot_index);
uint32_t eg_instance_stream_bytes(const struct WGPUInstanceImpl *inst);
/** Tracker storage of device slot `device_slot_index` (layout.track_device_B bytes, 8-aligned). */
eg_track_caps_t eg_instance_track_caps_of(const eg_capacities_t *caps);
eg_track_caps_t eg_instance_track_caps(const struct WGPUInstanceImpl *inst);
uint8_t *eg_instance_track_memory(struct WGPUInstanceImpl *inst, uint32_t device_slot_index);

/* instance_memory.c: bytes needed for caps, and carving the block into pools. */
size_t eg_instance_memory_size(const eg_capacities_t *caps);
void   eg_instance_memory_carve(struct WGPUInstanceImpl *inst, uint8_t *block);
void   eg_capacities_default(eg_capacities_t *caps);
/** Bytes of the build's static block (one instance with the knob defaults). */
size_t eg_instance_static_block_size(void);
uint8_t *eg_instance_static_block(void);
/** Slot bytes of each pool (sizeof its Impl struct, 8-aligned). */
uint32_t eg_kind_slot_size(eg_kind_t kind);
/** The "EMGPU_MAX_*" knob that sizes the pool of kind. */
const char *eg_kind_knob(eg_kind_t kind);

/** Live instances (for the handle checks and for polling). */
struct WGPUInstanceImpl *eg_instance_at(uint32_t i);

#endif /* EG_API_INSTANCE_H */
