/* Buffer objects: the Impl struct, the map state, and kernel-internal buffer helpers. */
#ifndef EG_API_BUFFER_H
#define EG_API_BUFFER_H

#include "kernel/api/error.h"
#include "kernel/api/object.h"
#include "kernel/base/fmt.h"

/** Ranges returned by GetMappedRange per mapping that are remembered for the overlap rule
 *  (spec: [[mapped_ranges]]). One more is an error naming this constant. */
#define EG_BUFFER_MAPPED_RANGES_MAX 8

struct WGPUBufferImpl {
    eg_object_t obj;              /* first member: pool slot, label, device */
    eg_hal_priv_t hal;            /* backend handles (filled by the HAL's create) */
    uint64_t size_B;
    WGPUBufferUsage usage;
    /* Map state machine (spec [[mapping]], [[pending_map]]): Unmapped -> Pending (MapAsync) ->
     * Mapped (the future delivered Success) -> Unmapped (Unmap / Destroy). mappedAtCreation
     * starts in Mapped with mode Write. */
    WGPUBufferMapState map_state;
    WGPUMapMode map_mode;
    uint64_t map_offset_B, map_size_B;   /* the mapped (or pending) range */
    uint8_t *map_ptr;             /* CPU address of byte map_offset_B while Mapped */
    uint64_t map_future;          /* WGPUFuture id of the pending MapAsync, 0 when none */
    uint32_t range_count;
    struct { uint64_t offset_B, size_B; } ranges[EG_BUFFER_MAPPED_RANGES_MAX];
    bool tracked;                 /* registered with the device tracker */
    bool hal_live;                /* the HAL part exists (freed by Destroy or release) */
};

/** Resolves and checks a buffer handle for use by another object's call (copies, bind groups,
 *  WriteBuffer): live, valid, of v->device, not destroyed. Reports through v. Whether it may be
 *  mapped is the caller's rule (submit: must be Unmapped). */
bool eg_buffer_check_use(const eg_vctx_t *v, WGPUBuffer b, const char *what);

#endif /* EG_API_BUFFER_H */
