/* Object pools: static arrays of fixed-size slots with generation-checked references.
 *
 * Every API object (struct WGPUBufferImpl, ...) starts with an eg_slot_t and lives in a pool
 * whose capacity is a config knob. The public handle is the slot's address; anything the kernel
 * stores long-term holds an eg_ref_t {index, gen} and resolves it with one compare, so a stale
 * reference never reaches a reused object. Index 0 is never handed out: a zeroed ref is invalid.
 *
 * Free slots are kept in a FIFO, so a released slot is reused as late as possible; that makes a
 * stale public pointer far more likely to hit a FREE slot (detected) than a reused one.
 * The pool never allocates: its storage (slots + FIFO) is placed by the caller at init, from a
 * static array or from the instance's caller-provided block (see eg_pool_storage_size).
 */
#ifndef EG_POOL_H
#define EG_POOL_H

#include "kernel/base/util.h"

enum eg_slot_state {
    EG_SLOT_FREE = 0,   /* in the FIFO; any handle pointing here is stale */
    EG_SLOT_LIVE,       /* held by the application (refs > 0) */
    EG_SLOT_DOOMED,     /* refs reached 0 but a submission still uses it; freed at completion */
};

typedef struct eg_slot {        /* first member of every pooled object */
    uint16_t gen;               /* bumped on free, so a stale ref fails one compare */
    uint8_t  state;             /* enum eg_slot_state */
    uint8_t  kind;              /* which object type, so a wrong-type handle is caught */
    uint32_t refs;              /* webgpu.h AddRef/Release */
} eg_slot_t;

typedef struct eg_ref { uint16_t index, gen; } eg_ref_t;

typedef struct eg_pool {
    const char *name, *knob;    /* "buffer", "EMGPU_MAX_BUFFERS": quoted in errors */
    uint8_t    *slots;          /* capacity * slot_size bytes */
    uint16_t   *free_fifo;      /* capacity entries, 1-based slot indices */
    uint32_t    slot_size, capacity;
    uint32_t    head, count;    /* FIFO read position and number of free entries */
    uint32_t    used, high_water;
    uint8_t     kind;
} eg_pool_t;

/** Bytes of storage eg_pool_init needs for this pool (slots, then the FIFO), 8-byte multiple. */
size_t eg_pool_storage_size(uint32_t slot_size, uint32_t capacity);
/** storage must be 8-byte aligned and eg_pool_storage_size() bytes long. capacity <= 65535. */
void   eg_pool_init(eg_pool_t *p, const char *name, const char *knob, uint8_t kind,
                    uint32_t slot_size, uint32_t capacity, void *storage);
/** Takes a slot: zeroed, LIVE, refs = 1, generation kept. NULL when the pool is full. */
void  *eg_pool_alloc(eg_pool_t *p);
/** Returns a slot to the FIFO and bumps its generation. Freeing a FREE slot is an internal error. */
void   eg_pool_free(eg_pool_t *p, void *slot);
/** True when ptr is exactly the address of one of this pool's slots (any state). */
bool   eg_pool_owns(const eg_pool_t *p, const void *ptr);
/** The slot's 1-based index; the pointer must be owned by the pool. */
uint32_t eg_pool_index(const eg_pool_t *p, const void *slot);
void  *eg_pool_at(const eg_pool_t *p, uint32_t index);
eg_ref_t eg_pool_ref(const eg_pool_t *p, const void *slot);
/** The slot a ref names, or NULL when the ref is zero, out of range or stale. */
void  *eg_pool_resolve(const eg_pool_t *p, eg_ref_t ref);

#endif /* EG_POOL_H */
