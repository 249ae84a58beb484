/* Linear arena allocator over a caller-placed block. */
#include "kernel/base/arena.h"

void eg_arena_init(eg_arena_t *a, const char *name, const char *knob, void *mem, size_t cap_B)
{
    a->name = name;
    a->knob = knob;
    a->base = mem;
    a->cap_B = cap_B;
    a->used_B = 0;
    a->high_water_B = 0;
}

void *eg_arena_alloc(eg_arena_t *a, size_t size_B, size_t align)
{
    EG_DEBUG_ASSERT(eg_is_pow2_u32((uint32_t)align));
    uintptr_t base = (uintptr_t)a->base;
    uintptr_t at = EG_ALIGN_UP(base + a->used_B, (uintptr_t)align);
    size_t start = (size_t)(at - base);
    if (start > a->cap_B || size_B > a->cap_B - start) return NULL;
    a->used_B = start + size_B;
    if (a->used_B > a->high_water_B) a->high_water_B = a->used_B;
    return (void *)at;
}

void *eg_arena_dup(eg_arena_t *a, const void *src, size_t size_B, size_t align)
{
    void *p = eg_arena_alloc(a, size_B, align);
    if (p) eg_memcpy(p, src, size_B);
    return p;
}
