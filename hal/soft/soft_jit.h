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

#endif /* EG_SOFT_JIT_H */
