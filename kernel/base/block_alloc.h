/* Block allocator: sub-allocates a bounded set of equal-size device memory blocks (backend-neutral).
 *
 * GPU backends (Vulkan VkDeviceMemory, D3D12 heaps) cannot afford one driver allocation per
 * resource: drivers limit the count (maxMemoryAllocationCount is 4096 on many) and each call is
 * slow. So a backend reserves at most `max_blocks` blocks of `block_B` bytes per memory kind and
 * places resources inside them. This file owns only the bookkeeping; the backend opens a block
 * (allocates the real memory) when eg_block_alloc_alloc asks for it through `open_block`.
 *
 * Bookkeeping is static: each block is an eg_range_alloc_t (kernel/base/range_alloc.h: first
 * fit, records kept outside the managed memory, neighbours merged on free) over its slice of
 * the caller's record array, so metadata is bounded by max_blocks * records_per_block records and
 * never grows. Exhaustion is reported as a status that says which bound was hit, so the backend
 * can name the right knob: EG_BLOCK_NO_SPACE (block size / block count), EG_BLOCK_NO_RECORDS.
 */
#ifndef EG_BLOCK_ALLOC_H
#define EG_BLOCK_ALLOC_H

#include "kernel/base/range_alloc.h"

#define EG_BLOCK_ALLOC_MAX_BLOCKS 32u

typedef enum eg_block_status {
    EG_BLOCK_OK = 0,
    EG_BLOCK_TOO_LARGE,     /* the request is larger than one block (the block-size knob) */
    EG_BLOCK_NO_SPACE,      /* every block is open and none has a large enough gap */
    EG_BLOCK_NO_RECORDS,    /* a gap fits but the block's record array is full */
    EG_BLOCK_OPEN_FAILED,   /* open_block refused (the driver is out of memory) */
} eg_block_status_t;

/** Where an allocation lives: block index and offset inside it. */
typedef struct eg_block_ref {
    uint32_t block;
    uint64_t offset_B;
} eg_block_ref_t;

/** Opens block `index` (allocates its backend memory); false when the driver refuses. */
typedef bool (*eg_block_open_fn)(void *ctx, uint32_t index);

typedef struct eg_block_alloc {
    uint64_t block_B;
    uint32_t max_blocks, open_count;
    uint32_t records_per_block;
    eg_range_block_t *records;                    /* max_blocks * records_per_block */
    eg_range_alloc_t blocks[EG_BLOCK_ALLOC_MAX_BLOCKS];
    bool open[EG_BLOCK_ALLOC_MAX_BLOCKS];
    eg_block_open_fn open_block;
    void *ctx;
} eg_block_alloc_t;

/** max_blocks <= EG_BLOCK_ALLOC_MAX_BLOCKS; records: max_blocks * records_per_block entries. */
void eg_block_alloc_init(eg_block_alloc_t *ba, uint64_t block_B, uint32_t max_blocks,
                         eg_range_block_t *records, uint32_t records_per_block,
                         eg_block_open_fn open_block, void *ctx);
/** Opens blocks until `count` are open (a reservation made up front, e.g. at device creation);
 *  EG_BLOCK_OPEN_FAILED when open_block refuses (the blocks opened so far stay open). */
eg_block_status_t eg_block_alloc_reserve(eg_block_alloc_t *ba, uint32_t count);
/** First fit over the open blocks, then opens the next block. Nothing changes on failure. */
eg_block_status_t eg_block_alloc_alloc(eg_block_alloc_t *ba, uint64_t size_B, uint64_t align,
                                       eg_block_ref_t *out);
/** Gives back the allocation at ref; false for a ref that is not allocated (double free). */
bool eg_block_alloc_free(eg_block_alloc_t *ba, const eg_block_ref_t *ref);
/** Bytes in use over all blocks, and bytes reserved (open blocks * block_B). */
uint64_t eg_block_alloc_used(const eg_block_alloc_t *ba);
uint64_t eg_block_alloc_reserved(const eg_block_alloc_t *ba);

#endif /* EG_BLOCK_ALLOC_H */
