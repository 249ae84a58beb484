/* Bounded first-fit offset allocator with out-of-band metadata (see range_alloc.h). */
#include "kernel/base/range_alloc.h"

#define USED_BIT ((uint64_t)1 << 63)

static inline uint64_t blk_size(const eg_range_block_t *b) { return b->size_used_B & ~USED_BIT; }
static inline bool blk_used(const eg_range_block_t *b) { return (b->size_used_B & USED_BIT) != 0; }
static inline void blk_set(eg_range_block_t *b, uint64_t off, uint64_t size, bool used)
{
    b->offset_B = off;
    b->size_used_B = size | (used ? USED_BIT : 0);
}

/* Opens a hole of n records at index i (caller checked capacity). */
static void insert_at(eg_range_alloc_t *ra, uint32_t i, uint32_t n)
{
    for (uint32_t k = ra->count; k-- > i;) ra->blocks[k + n] = ra->blocks[k];
    ra->count += n;
}

static void remove_at(eg_range_alloc_t *ra, uint32_t i)
{
    for (uint32_t k = i; k + 1 < ra->count; k++) ra->blocks[k] = ra->blocks[k + 1];
    ra->count--;
}

void eg_range_alloc_init(eg_range_alloc_t *ra, uint64_t size_B, eg_range_block_t *blocks,
                         uint32_t cap_blocks)
{
    eg_memset(ra, 0, sizeof *ra);
    ra->blocks = blocks;
    ra->cap_blocks = cap_blocks;
    ra->size_B = size_B;
    if (size_B > 0 && cap_blocks > 0) {
        blk_set(&blocks[0], 0, size_B, false);
        ra->count = 1;
    }
}

eg_range_status_t eg_range_alloc_alloc(eg_range_alloc_t *ra, uint64_t size_B, uint64_t align,
                                       uint64_t *offset_out)
{
    if (align == 0 || (align & (align - 1)) != 0) return EG_RANGE_BAD_REQUEST;
    if (size_B == 0) size_B = 1;
    if (size_B >= USED_BIT) return EG_RANGE_NO_SPACE;
    bool fit_without_records = false;
    for (uint32_t i = 0; i < ra->count; i++) {
        eg_range_block_t *b = &ra->blocks[i];
        if (blk_used(b)) continue;
        uint64_t start = (b->offset_B + align - 1) & ~(align - 1);
        uint64_t pad = start - b->offset_B, bsize = blk_size(b);
        if (pad > bsize || bsize - pad < size_B) continue;
        uint64_t rest = bsize - pad - size_B;
        uint32_t need = (pad ? 1u : 0u) + (rest ? 1u : 0u);
        if (ra->count + need > ra->cap_blocks) {
            fit_without_records = true;   /* keep looking: a later gap may need fewer records */
            continue;
        }
        uint64_t base = b->offset_B;
        insert_at(ra, i + 1, need);
        uint32_t k = i;
        if (pad) blk_set(&ra->blocks[k++], base, pad, false);
        blk_set(&ra->blocks[k++], start, size_B, true);
        if (rest) blk_set(&ra->blocks[k], start + size_B, rest, false);
        ra->used_B += size_B;
        if (ra->used_B > ra->high_water_B) ra->high_water_B = ra->used_B;
        ra->live_allocs++;
        *offset_out = start;
        return EG_RANGE_OK;
    }
    return fit_without_records ? EG_RANGE_NO_RECORDS : EG_RANGE_NO_SPACE;
}

/* Binary search: the record starting at offset_B, or count when none. */
static uint32_t find_block(const eg_range_alloc_t *ra, uint64_t offset_B)
{
    uint32_t lo = 0, hi = ra->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ra->blocks[mid].offset_B < offset_B) lo = mid + 1;
        else hi = mid;
    }
    return (lo < ra->count && ra->blocks[lo].offset_B == offset_B) ? lo : ra->count;
}

eg_range_status_t eg_range_alloc_free(eg_range_alloc_t *ra, uint64_t offset_B)
{
    uint32_t i = find_block(ra, offset_B);
    if (i == ra->count || !blk_used(&ra->blocks[i])) return EG_RANGE_BAD_REQUEST;
    eg_range_block_t *b = &ra->blocks[i];
    uint64_t size = blk_size(b);
    ra->used_B -= size;
    ra->live_allocs--;
    blk_set(b, b->offset_B, size, false);
    /* Merge with the next record, then with the previous one: free records never touch, which
     * is what bounds the record count and lets a full release end in one record. */
    if (i + 1 < ra->count && !blk_used(&ra->blocks[i + 1])) {
        blk_set(b, b->offset_B, size + blk_size(&ra->blocks[i + 1]), false);
        remove_at(ra, i + 1);
    }
    if (i > 0 && !blk_used(&ra->blocks[i - 1])) {
        eg_range_block_t *p = &ra->blocks[i - 1];
        blk_set(p, p->offset_B, blk_size(p) + blk_size(&ra->blocks[i]), false);
        remove_at(ra, i);
    }
    return EG_RANGE_OK;
}

uint64_t eg_range_alloc_size_of(const eg_range_alloc_t *ra, uint64_t offset_B)
{
    uint32_t i = find_block(ra, offset_B);
    return (i < ra->count && blk_used(&ra->blocks[i])) ? blk_size(&ra->blocks[i]) : 0;
}

void eg_range_alloc_stats(const eg_range_alloc_t *ra, eg_range_stats_t *out)
{
    eg_memset(out, 0, sizeof *out);
    out->size_B = ra->size_B;
    out->used_B = ra->used_B;
    out->free_B = ra->size_B - ra->used_B;
    out->high_water_B = ra->high_water_B;
    out->live_allocs = ra->live_allocs;
    out->records_used = ra->count;
    out->records_cap = ra->cap_blocks;
    for (uint32_t i = 0; i < ra->count; i++)
        if (!blk_used(&ra->blocks[i]))
            out->largest_free_B = eg_max_u64(out->largest_free_B, blk_size(&ra->blocks[i]));
}
