/* Block allocator: equal-size blocks opened on demand, each sub-allocated by a range allocator. */
#include "kernel/base/block_alloc.h"

void eg_block_alloc_init(eg_block_alloc_t *ba, uint64_t block_B, uint32_t max_blocks,
                         eg_range_block_t *records, uint32_t records_per_block,
                         eg_block_open_fn open_block, void *ctx)
{
    eg_memset(ba, 0, sizeof *ba);
    ba->block_B = block_B;
    ba->max_blocks = eg_min_u32(max_blocks, EG_BLOCK_ALLOC_MAX_BLOCKS);
    ba->records = records;
    ba->records_per_block = records_per_block;
    ba->open_block = open_block;
    ba->ctx = ctx;
}

static bool open_one(eg_block_alloc_t *ba, uint32_t i)
{
    if (ba->open_block && !ba->open_block(ba->ctx, i)) return false;
    eg_range_alloc_init(&ba->blocks[i], ba->block_B, ba->records + (size_t)i * ba->records_per_block,
                        ba->records_per_block);
    ba->open[i] = true;
    ba->open_count++;
    return true;
}

eg_block_status_t eg_block_alloc_reserve(eg_block_alloc_t *ba, uint32_t count)
{
    for (uint32_t i = 0; i < ba->max_blocks && ba->open_count < count; i++)
        if (!ba->open[i] && !open_one(ba, i)) return EG_BLOCK_OPEN_FAILED;
    return EG_BLOCK_OK;
}

eg_block_status_t eg_block_alloc_alloc(eg_block_alloc_t *ba, uint64_t size_B, uint64_t align,
                                       eg_block_ref_t *out)
{
    if (size_B > ba->block_B) return EG_BLOCK_TOO_LARGE;
    bool records_short = false;
    for (uint32_t i = 0; i < ba->max_blocks; i++) {
        if (!ba->open[i]) continue;
        eg_range_status_t st = eg_range_alloc_alloc(&ba->blocks[i], size_B, align, &out->offset_B);
        if (st == EG_RANGE_OK) {
            out->block = i;
            return EG_BLOCK_OK;
        }
        if (st == EG_RANGE_NO_RECORDS) records_short = true;
    }
    /* No open block fits: open the first closed one (blocks closed by nobody stay open until the
     * device goes, so the reservation only grows up to max_blocks). */
    for (uint32_t i = 0; i < ba->max_blocks; i++) {
        if (ba->open[i]) continue;
        if (!open_one(ba, i)) return EG_BLOCK_OPEN_FAILED;
        if (eg_range_alloc_alloc(&ba->blocks[i], size_B, align, &out->offset_B) != EG_RANGE_OK)
            return EG_BLOCK_NO_SPACE;   /* unreachable: size_B <= block_B and the block is empty */
        out->block = i;
        return EG_BLOCK_OK;
    }
    return records_short ? EG_BLOCK_NO_RECORDS : EG_BLOCK_NO_SPACE;
}

bool eg_block_alloc_free(eg_block_alloc_t *ba, const eg_block_ref_t *ref)
{
    if (ref->block >= ba->max_blocks || !ba->open[ref->block]) return false;
    return eg_range_alloc_free(&ba->blocks[ref->block], ref->offset_B) == EG_RANGE_OK;
}

uint64_t eg_block_alloc_used(const eg_block_alloc_t *ba)
{
    uint64_t used = 0;
    for (uint32_t i = 0; i < ba->max_blocks; i++)
        if (ba->open[i]) used += ba->blocks[i].used_B;
    return used;
}

uint64_t eg_block_alloc_reserved(const eg_block_alloc_t *ba)
{
    return (uint64_t)ba->open_count * ba->block_B;
}
