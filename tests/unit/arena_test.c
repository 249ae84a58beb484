/* Arenas: alignment, exhaustion leaves the arena unchanged, marks and reset. */
#include "kernel/base/arena.h"
#include "tests/harness/harness.h"

static uint64_t mem[8];   /* 64 bytes */

EG_TEST(arena, aligned_allocations_and_exhaustion)
{
    eg_arena_t a;
    eg_arena_init(&a, "test", "K", mem, sizeof mem);
    uint8_t *p1 = eg_arena_alloc(&a, 3, 1);
    uint8_t *p2 = eg_arena_alloc(&a, 8, 8);
    EG_EXPECT(p1 == (uint8_t *)mem);
    EG_EXPECT(p2 == (uint8_t *)mem + 8);         /* 3 rounded up to the 8-byte boundary */
    EG_EXPECT_EQ_U(a.used_B, 16);
    EG_EXPECT(eg_arena_alloc(&a, 49, 1) == NULL); /* 16 + 49 > 64 */
    EG_EXPECT_EQ_U(a.used_B, 16);                 /* a failed alloc changes nothing */
    EG_EXPECT(eg_arena_alloc(&a, 48, 1) != NULL); /* exactly fills it */
    EG_EXPECT_EQ_U(eg_arena_free_B(&a), 0);
}

EG_TEST(arena, mark_and_reset)
{
    eg_arena_t a;
    eg_arena_init(&a, "test", "K", mem, sizeof mem);
    eg_arena_alloc(&a, 8, 4);
    size_t m = eg_arena_mark(&a);
    eg_arena_alloc(&a, 32, 4);
    eg_arena_reset(&a, m);
    EG_EXPECT_EQ_U(a.used_B, 8);
    EG_EXPECT_EQ_U(a.high_water_B, 40);
    const char s[] = "abc";
    char *d = eg_arena_dup(&a, s, sizeof s, 1);
    EG_EXPECT(d && d[0] == 'a' && d[3] == '\0');
}
