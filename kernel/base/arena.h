/* Arenas: linear allocators over a fixed block, with marks to reset to.
 *
 * Variable-size data (command streams, labels, bind-group entries, shader IR) goes into arenas.
 * Lifetimes are nested (per device, per command stream, per submission), so a bump pointer and
 * a reset mark are all that is needed: no per-allocation header, no fragmentation. A full arena
 * returns NULL; the caller reports an error that names the arena and its knob.
 */
#ifndef EG_ARENA_H
#define EG_ARENA_H

#include "kernel/base/util.h"

typedef struct eg_arena {
    const char *name, *knob;    /* "command stream", "EMGPU_COMMAND_STREAM_BYTES" */
    uint8_t    *base;
    size_t      cap_B, used_B, high_water_B;
} eg_arena_t;

void   eg_arena_init(eg_arena_t *a, const char *name, const char *knob, void *mem, size_t cap_B);
/** align must be a power of two. Returns NULL (and changes nothing) when the arena is full. */
void  *eg_arena_alloc(eg_arena_t *a, size_t size_B, size_t align);
/** Copies size_B bytes into the arena; NULL when full. */
void  *eg_arena_dup(eg_arena_t *a, const void *src, size_t size_B, size_t align);
static inline size_t eg_arena_mark(const eg_arena_t *a) { return a->used_B; }
/** Releases everything allocated after mark. */
static inline void eg_arena_reset(eg_arena_t *a, size_t mark) { if (mark <= a->used_B) a->used_B = mark; }
static inline size_t eg_arena_free_B(const eg_arena_t *a) { return a->cap_B - a->used_B; }

#endif /* EG_ARENA_H */
