/* Bounded offset allocator: sub-allocates a range [0, size_B) with metadata kept outside it.
 *
 * Design. The allocator never touches the memory it manages: it hands out offsets, and all of
 * its bookkeeping lives in a caller-provided array of block records. That is what lets the same
 * code carve the soft backend's static heap, the per-device heap, and later a VkDeviceMemory or
 * a D3D12 heap, where the managed memory is not CPU-addressable at all.
 *
 * The records are kept sorted by offset and tile the whole range: every byte belongs to exactly
 * one record, used or free, and no two free records are adjacent (free merges with both
 * neighbours). Allocation is first fit over the records in address order; the chosen free record
 * is split into [alignment padding (free)] [allocation (used)] [remainder (free)].
 *
 * Worst case, stated so a board can size its knobs:
 *   - Metadata: one 16-byte record per used block and per free gap. An allocation needs at most
 *     2 new records (padding + remainder), so with R records at most (R - 1) / 2 allocations are
 *     guaranteed to fit regardless of the order of frees; typically far more (padding is rare when
 *     every request uses the same alignment). When no record is left the call fails with
 *     EG_RANGE_NO_RECORDS, distinct from EG_RANGE_NO_SPACE, so the error names the right knob.
 *   - Time: alloc, free and stats are O(R) (a linear scan plus a memmove of the record array);
 *     no recursion, no hidden allocation.
 *   - Fragmentation: first fit keeps no size classes, so free space can be split into gaps none
 *     of which fits a request even though their sum would (eg_range_alloc_stats reports the
 *     largest free gap for that reason). Freed neighbours always merge, so a free-everything
 *     sequence always returns to one free record. Alignment padding wastes at most align - 1
 *     bytes per allocation, and that padding stays allocatable by smaller requests.
 */
#ifndef EG_RANGE_ALLOC_H
#define EG_RANGE_ALLOC_H

#include "kernel/base/util.h"

/** One record: [offset_B, offset_B + size), used or free. The top bit of size_used_B is the
 *  used flag (C11 has no portable 64-bit bit-fields); range_alloc.c reads it through helpers. */
typedef struct eg_range_block {
    uint64_t offset_B;
    uint64_t size_used_B;
} eg_range_block_t;

typedef enum eg_range_status {
    EG_RANGE_OK = 0,
    EG_RANGE_NO_SPACE,      /* no free gap is large enough (the managed size knob) */
    EG_RANGE_NO_RECORDS,    /* a gap fits but the record array is full (the records knob) */
    EG_RANGE_BAD_REQUEST,   /* align not a power of two, or the offset to free is not in use */
} eg_range_status_t;

typedef struct eg_range_alloc {
    eg_range_block_t *blocks;   /* cap_blocks records, sorted by offset, tiling [0, size_B) */
    uint32_t cap_blocks, count;
    uint64_t size_B;
    uint64_t used_B, high_water_B;
    uint32_t live_allocs;
} eg_range_alloc_t;

typedef struct eg_range_stats {
    uint64_t size_B, used_B, free_B, high_water_B;
    uint64_t largest_free_B;    /* the biggest request (align 1) that can succeed now */
    uint32_t live_allocs, records_used, records_cap;
} eg_range_stats_t;

/** blocks: cap_blocks >= 1 records owned by the allocator until it is dropped. */
void eg_range_alloc_init(eg_range_alloc_t *ra, uint64_t size_B, eg_range_block_t *blocks,
                         uint32_t cap_blocks);
/** Takes size_B bytes (0 counts as 1) at an offset that is a multiple of align (a power of two).
 *  On success *offset_out is set; otherwise nothing changes. */
eg_range_status_t eg_range_alloc_alloc(eg_range_alloc_t *ra, uint64_t size_B, uint64_t align,
                                       uint64_t *offset_out);
/** Returns the allocation that starts at offset_B. EG_RANGE_BAD_REQUEST when no allocation
 *  starts there (a double free): nothing changes. */
eg_range_status_t eg_range_alloc_free(eg_range_alloc_t *ra, uint64_t offset_B);
/** Size of the allocation at offset_B (0 when none starts there). */
uint64_t eg_range_alloc_size_of(const eg_range_alloc_t *ra, uint64_t offset_B);
void eg_range_alloc_stats(const eg_range_alloc_t *ra, eg_range_stats_t *out);

#endif /* EG_RANGE_ALLOC_H */
