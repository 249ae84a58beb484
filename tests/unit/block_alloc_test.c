/* Block allocator (kernel/base/block_alloc): blocks opened on demand, exhaustion statuses, reuse. */
#include "kernel/base/block_alloc.h"
#include "tests/harness/harness.h"

typedef struct { uint32_t opened; bool refuse; } open_log_t;

static bool log_open(void *ctx, uint32_t index)
{
    open_log_t *l = ctx;
    if (l->refuse) return false;
    l->opened |= 1u << index;
    return true;
}

/* Two blocks of 1024 B: 600 B fits once per block (600 + 600 > 1024), so the second request
 * opens block 1 and the third has nowhere to go; a request over 1024 B can never fit. */
EG_TEST(block_alloc, opens_blocks_on_demand_and_exhausts)
{
    eg_range_block_t rec[2 * 8];
    open_log_t log = { 0, false };
    eg_block_alloc_t ba;
    eg_block_alloc_init(&ba, 1024, 2, rec, 8, log_open, &log);
    eg_block_ref_t a, b, c;
    EG_EXPECT_EQ_U(eg_block_alloc_alloc(&ba, 600, 16, &a), EG_BLOCK_OK);
    EG_EXPECT_EQ_U(a.block, 0);
    EG_EXPECT_EQ_U(log.opened, 1);
    EG_EXPECT_EQ_U(eg_block_alloc_alloc(&ba, 600, 16, &b), EG_BLOCK_OK);
    EG_EXPECT_EQ_U(b.block, 1);
    EG_EXPECT_EQ_U(log.opened, 3);
    EG_EXPECT_EQ_U(eg_block_alloc_alloc(&ba, 600, 16, &c), EG_BLOCK_NO_SPACE);
    EG_EXPECT_EQ_U(eg_block_alloc_alloc(&ba, 1025, 16, &c), EG_BLOCK_TOO_LARGE);
    EG_EXPECT_EQ_U(eg_block_alloc_used(&ba), 1200);
    EG_EXPECT_EQ_U(eg_block_alloc_reserved(&ba), 2048);
    /* freeing a gives block 0's space back at its start; a double free is refused */
    EG_EXPECT(eg_block_alloc_free(&ba, &a));
    EG_EXPECT(!eg_block_alloc_free(&ba, &a));
    EG_EXPECT_EQ_U(eg_block_alloc_alloc(&ba, 600, 16, &c), EG_BLOCK_OK);
    EG_EXPECT_EQ_U(c.block, 0);
    EG_EXPECT_EQ_U((unsigned)c.offset_B, 0);
}

EG_TEST(block_alloc, open_refused_is_reported)
{
    eg_range_block_t rec[4];
    open_log_t log = { 0, true };
    eg_block_alloc_t ba;
    eg_block_alloc_init(&ba, 256, 1, rec, 4, log_open, &log);
    eg_block_ref_t r;
    EG_EXPECT_EQ_U(eg_block_alloc_alloc(&ba, 16, 4, &r), EG_BLOCK_OPEN_FAILED);
    EG_EXPECT_EQ_U(eg_block_alloc_reserved(&ba), 0);
}

/* A reservation of 2 out of 3 blocks opens blocks 0 and 1 up front (reserved 2 * 512 B) and
 * places nothing; asking for 2 again opens nothing more; allocations then use the open blocks
 * before opening block 2. A refused open stops the reservation with OPEN_FAILED. */
EG_TEST(block_alloc, reserve_opens_blocks_up_front)
{
    eg_range_block_t rec[3 * 4];
    open_log_t log = { 0, false };
    eg_block_alloc_t ba;
    eg_block_alloc_init(&ba, 512, 3, rec, 4, log_open, &log);
    EG_EXPECT_EQ_U(eg_block_alloc_reserve(&ba, 2), EG_BLOCK_OK);
    EG_EXPECT_EQ_U(log.opened, 3);
    EG_EXPECT_EQ_U(eg_block_alloc_reserved(&ba), 1024);
    EG_EXPECT_EQ_U(eg_block_alloc_used(&ba), 0);
    EG_EXPECT_EQ_U(eg_block_alloc_reserve(&ba, 2), EG_BLOCK_OK);
    EG_EXPECT_EQ_U(log.opened, 3);
    eg_block_ref_t a, b;
    EG_EXPECT_EQ_U(eg_block_alloc_alloc(&ba, 400, 16, &a), EG_BLOCK_OK);
    EG_EXPECT_EQ_U(eg_block_alloc_alloc(&ba, 400, 16, &b), EG_BLOCK_OK);
    EG_EXPECT_EQ_U(a.block + b.block, 1);   /* blocks 0 and 1, in either order */
    EG_EXPECT_EQ_U(log.opened, 3);
    log.refuse = true;
    EG_EXPECT_EQ_U(eg_block_alloc_reserve(&ba, 3), EG_BLOCK_OPEN_FAILED);
    EG_EXPECT_EQ_U(eg_block_alloc_reserved(&ba), 1024);
}
