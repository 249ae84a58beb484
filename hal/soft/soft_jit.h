/* hal/soft shader VM: native x86-64 AVX2 code for the threaded runs (soft_jit.c). */
#ifndef EG_SOFT_JIT_H
#define EG_SOFT_JIT_H

#include "hal/soft/soft_vm.h"

/* A run's native code: runs the pre-decoded instructions from its entry pc exactly like
 * eg_vm_thread_run and returns the pc of the first instruction the switch interpreter runs. */
typedef uint32_t (*eg_vm_jit_fn_t)(eg_soft_reg_t *regs, eg_vm_state_t *st);
/* The whole program's native code (p->jit_whole_at): runs it from BLOCK 0 to END for an
 * invocation whose 16 lanes are all active (no mask, no exit; regs is scratch). */
typedef void (*eg_vm_jit_whole_fn_t)(eg_soft_reg_t *regs, eg_soft_invocation_t *inv);
/* A row of n >= 1 blocks for the whole program (p->jit_rows_at[bgra]): per block the program,
 * then out[0] packed as round(clamp(v, 0, 1) * 255) (the arithmetic of soft_raster_output.c's
 * pk_unorm8_8) in RGBA8 or BGRA8 byte order into row[0..3] (16 bytes each), then the rows
 * advance 16 bytes and FragCoord.x 4.0 (the caller keeps x below 2^22, where that is exact). */
typedef struct eg_vm_jit_rows {
    uint8_t *row[4];
    uint32_t n;
} eg_vm_jit_rows_t;
typedef void (*eg_vm_jit_rows_fn_t)(eg_soft_reg_t *regs, eg_soft_invocation_t *inv, const eg_vm_jit_rows_t *a);

/** True when this build and CPU translate (EMGPU_SOFT_JIT, x86-64 with AVX2). */
bool eg_vm_jit_available(void);
/** Translates p's threaded runs (p->thread built) into the device's code arena and sets p->jit;
 *  false (p->jit NULL: the threaded interpreter runs) when unavailable, nothing is threaded,
 *  or the arena is full (logged once, naming EMGPU_SOFT_JIT_ARENA_B). */
bool eg_vm_jit_build(eg_soft_program_t *p);
/** Returns p's code pages to the arena (nothing when p has none). */
void eg_vm_jit_free(eg_soft_program_t *p);
/** Tests: the arena size used from the next time it is mapped (while no code is live);
 *  0 = EMGPU_SOFT_JIT_ARENA_B. */
void eg_vm_jit_test_arena_B(size_t arena_B);
/** Tests: the arena's 4 KiB pages holding live code (0 once every program is destroyed). */
uint32_t eg_vm_jit_pages_used(void);

/* soft_jit_arena.c, for soft_jit.c: pages of EG_VM_JIT_PAGE_B for size_B bytes (a multiple
 * of the page), NULL when the arena is full or the port has no executable memory (logged once,
 * naming EMGPU_SOFT_JIT_ARENA_B); their return; the arena unmapped when no page is in use. */
#define EG_VM_JIT_PAGE_B 4096u
uint8_t *eg_vm_jit_arena_alloc(size_t size_B);
void eg_vm_jit_arena_free(uint8_t *p, size_t size_B);
void eg_vm_jit_arena_unmap_if_empty(void);

#endif /* EG_SOFT_JIT_H */
