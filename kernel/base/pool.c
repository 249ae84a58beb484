/* Fixed-capacity object pools with a FIFO free list and generation counters. */
#include "kernel/base/pool.h"
#include "kernel/base/log.h"

size_t eg_pool_storage_size(uint32_t slot_size, uint32_t capacity)
{
    return EG_ALIGN_UP((size_t)slot_size * capacity, 8) + EG_ALIGN_UP((size_t)capacity * 2, 8);
}

void eg_pool_init(eg_pool_t *p, const char *name, const char *knob, uint8_t kind,
                  uint32_t slot_size, uint32_t capacity, void *storage)
{
    EG_DEBUG_ASSERT(capacity >= 1 && capacity <= 65535);
    EG_DEBUG_ASSERT(slot_size >= sizeof(eg_slot_t) && slot_size % 8 == 0);
    eg_memset(p, 0, sizeof *p);
    p->name = name;
    p->knob = knob;
    p->kind = kind;
    p->slot_size = slot_size;
    p->capacity = capacity;
    p->slots = storage;
    p->free_fifo = (uint16_t *)(void *)(p->slots + EG_ALIGN_UP((size_t)slot_size * capacity, 8));
    eg_memset(p->slots, 0, (size_t)slot_size * capacity);
    for (uint32_t i = 0; i < capacity; i++) p->free_fifo[i] = (uint16_t)(i + 1);
    p->count = capacity;
}

void *eg_pool_at(const eg_pool_t *p, uint32_t index)
{
    EG_DEBUG_ASSERT(index >= 1 && index <= p->capacity);
    return p->slots + (size_t)(index - 1) * p->slot_size;
}

void *eg_pool_alloc(eg_pool_t *p)
{
    if (p->count == 0) return NULL;
    uint32_t index = p->free_fifo[p->head];
    p->head = (p->head + 1) % p->capacity;
    p->count--;
    eg_slot_t *s = eg_pool_at(p, index);
    uint16_t gen = s->gen;
    eg_memset(s, 0, p->slot_size);
    s->gen = gen;
    s->state = EG_SLOT_LIVE;
    s->kind = p->kind;
    s->refs = 1;
    if (++p->used > p->high_water) p->high_water = p->used;
    return s;
}

void eg_pool_free(eg_pool_t *p, void *slot)
{
    eg_slot_t *s = slot;
    if (!eg_pool_owns(p, slot) || s->state == EG_SLOT_FREE) {
        eg_log(EG_LOG_ERROR, "internal error: double free or foreign slot in the %s pool", p->name);
        return;
    }
    /* Bump on free, not on alloc: a stale ref then fails one compare whether or not the slot
     * was reused. Generation 0 is skipped so a zeroed ref can never match. */
    s->gen = (uint16_t)(s->gen + 1 ? s->gen + 1 : 1);
    s->state = EG_SLOT_FREE;
    s->refs = 0;
    p->free_fifo[(p->head + p->count) % p->capacity] = (uint16_t)eg_pool_index(p, slot);
    p->count++;
    p->used--;
}

bool eg_pool_owns(const eg_pool_t *p, const void *ptr)
{
    const uint8_t *b = ptr;
    if (!p->slots || b < p->slots || b >= p->slots + (size_t)p->slot_size * p->capacity) return false;
    return (size_t)(b - p->slots) % p->slot_size == 0;
}

uint32_t eg_pool_index(const eg_pool_t *p, const void *slot)
{
    return (uint32_t)(((const uint8_t *)slot - p->slots) / p->slot_size) + 1;
}

eg_ref_t eg_pool_ref(const eg_pool_t *p, const void *slot)
{
    eg_ref_t r = { (uint16_t)eg_pool_index(p, slot), ((const eg_slot_t *)slot)->gen };
    return r;
}

void *eg_pool_resolve(const eg_pool_t *p, eg_ref_t ref)
{
    if (ref.index == 0 || ref.index > p->capacity) return NULL;
    eg_slot_t *s = eg_pool_at(p, ref.index);
    if (s->gen != ref.gen || s->state == EG_SLOT_FREE) return NULL;
    return s;
}
