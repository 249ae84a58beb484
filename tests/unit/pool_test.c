/* Pools: allocation, FIFO reuse, generations, exhaustion. */
#include "kernel/base/pool.h"
#include "tests/harness/harness.h"

typedef struct { eg_slot_t slot; uint32_t v; uint32_t pad; } item_t;
static uint64_t storage[64];

EG_TEST(pool, alloc_until_full_then_free_makes_room)
{
    eg_pool_t p;
    EG_ASSERT(eg_pool_storage_size(sizeof(item_t), 3) <= sizeof storage);
    eg_pool_init(&p, "item", "EMGPU_MAX_ITEMS", 1, sizeof(item_t), 3, storage);
    item_t *a = eg_pool_alloc(&p), *b = eg_pool_alloc(&p), *c = eg_pool_alloc(&p);
    EG_EXPECT(a && b && c);
    EG_EXPECT(eg_pool_alloc(&p) == NULL);   /* capacity 3: the 4th fails */
    EG_EXPECT_EQ_U(p.used, 3);
    eg_pool_free(&p, b);
    EG_EXPECT(eg_pool_alloc(&p) == b);      /* the only free slot */
    EG_EXPECT_EQ_U(p.high_water, 3);
}

EG_TEST(pool, stale_ref_fails_after_free_and_reuse)
{
    eg_pool_t p;
    eg_pool_init(&p, "item", "K", 1, sizeof(item_t), 2, storage);
    item_t *a = eg_pool_alloc(&p);
    eg_ref_t r = eg_pool_ref(&p, a);
    EG_EXPECT(eg_pool_resolve(&p, r) == a);
    eg_pool_free(&p, a);
    EG_EXPECT(eg_pool_resolve(&p, r) == NULL);   /* freed: generation bumped */
    eg_pool_alloc(&p);
    item_t *again = eg_pool_alloc(&p);           /* FIFO: a's slot comes back last */
    EG_EXPECT(again == a);
    EG_EXPECT(eg_pool_resolve(&p, r) == NULL);   /* reused, still stale */
    eg_ref_t zero = { 0, 0 };
    EG_EXPECT(eg_pool_resolve(&p, zero) == NULL);
}

EG_TEST(pool, owns_only_slot_addresses)
{
    eg_pool_t p;
    eg_pool_init(&p, "item", "K", 1, sizeof(item_t), 2, storage);
    item_t *a = eg_pool_alloc(&p);
    EG_EXPECT(eg_pool_owns(&p, a));
    EG_EXPECT(!eg_pool_owns(&p, (uint8_t *)a + 4));
    EG_EXPECT(!eg_pool_owns(&p, &p));
    EG_EXPECT_EQ_U(eg_pool_index(&p, a), 1);
}
