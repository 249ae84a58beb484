/* Tests for the bounded offset allocator (kernel/base/range_alloc). */
#include "kernel/base/range_alloc.h"
#include "tests/harness/harness.h"

EG_TEST(range_alloc, first_fit_aligned_and_merges_back)
{
    eg_range_block_t recs[8];
    eg_range_alloc_t ra;
    uint64_t a = 99, b = 99, c = 99;
    eg_range_alloc_init(&ra, 1024, recs, 8);
    EG_EXPECT_EQ_U(eg_range_alloc_alloc(&ra, 10, 16, &a), EG_RANGE_OK);
    EG_EXPECT_EQ_U(a, 0);                  /* first fit: the start of the range */
    EG_EXPECT_EQ_U(eg_range_alloc_alloc(&ra, 100, 64, &b), EG_RANGE_OK);
    EG_EXPECT_EQ_U(b, 64);                 /* 10 rounded up to the next multiple of 64 */
    EG_EXPECT_EQ_U(eg_range_alloc_alloc(&ra, 16, 16, &c), EG_RANGE_OK);
    EG_EXPECT_EQ_U(c, 16);                 /* the alignment gap [10, 64) is reused */
    EG_EXPECT_EQ_U(eg_range_alloc_size_of(&ra, b), 100);
    EG_EXPECT_EQ_U(eg_range_alloc_free(&ra, b), EG_RANGE_OK);
    EG_EXPECT_EQ_U(eg_range_alloc_free(&ra, b), EG_RANGE_BAD_REQUEST);   /* double free */
    EG_EXPECT_EQ_U(eg_range_alloc_free(&ra, a), EG_RANGE_OK);
    EG_EXPECT_EQ_U(eg_range_alloc_free(&ra, c), EG_RANGE_OK);
    eg_range_stats_t st;
    eg_range_alloc_stats(&ra, &st);
    EG_EXPECT_EQ_U(st.records_used, 1);    /* everything merged back into one free record */
    EG_EXPECT_EQ_U(st.largest_free_B, 1024);
    EG_EXPECT_EQ_U(st.used_B, 0);
    EG_EXPECT_EQ_U(st.high_water_B, 126);  /* 10 + 100 + 16 */
}

EG_TEST(range_alloc, exhaustion_space_vs_records)
{
    eg_range_block_t recs[3];
    eg_range_alloc_t ra;
    uint64_t o[4];
    eg_range_alloc_init(&ra, 256, recs, 3);
    EG_EXPECT_EQ_U(eg_range_alloc_alloc(&ra, 512, 1, &o[0]), EG_RANGE_NO_SPACE);
    EG_EXPECT_EQ_U(eg_range_alloc_alloc(&ra, 64, 1, &o[0]), EG_RANGE_OK);
    EG_EXPECT_EQ_U(eg_range_alloc_alloc(&ra, 64, 1, &o[1]), EG_RANGE_OK);
    EG_EXPECT_EQ_U(eg_range_alloc_alloc(&ra, 64, 1, &o[2]), EG_RANGE_NO_RECORDS); /* 3 records used */
    EG_EXPECT_EQ_U(eg_range_alloc_alloc(&ra, 128, 1, &o[2]), EG_RANGE_OK);         /* exact fit: no split */
    EG_EXPECT_EQ_U(eg_range_alloc_alloc(&ra, 3, 3, &o[3]), EG_RANGE_BAD_REQUEST);  /* align not pow2 */
}
