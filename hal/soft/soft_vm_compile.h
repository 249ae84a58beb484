/* hal/soft shader VM compiler internals: the state shared by soft_vm_compile*.c. */
#ifndef EG_SOFT_VM_COMPILE_H
#define EG_SOFT_VM_COMPILE_H

#include "hal/soft/soft_vm.h"
#include "kernel/shader/ir.h"

#define SPV_ENABLE_UTILITY_CODE 1
#include <spirv/unified1/spirv.h>
#include <spirv/unified1/GLSL.std.450.h>

enum { VM_VAL_NONE, VM_VAL_COMPS, VM_VAL_PTR, VM_VAL_IMAGE, VM_VAL_SAMPLER, VM_VAL_SAMPLED, VM_VAL_BLOCK };

/** What an IR value became: a list of component registers, a pointer, a resource or a block. */
typedef struct vm_val {
    uint8_t  kind;
    uint16_t n;                 /* components */
    uint32_t idx;               /* comps: into cc->comps; ptr: into cc->ptrs; image/sampler: slot;
                                 * sampled: image slot | sampler slot << 8; block: block id */
} vm_val_t;

enum { VM_SPACE_REG, VM_SPACE_BUF, VM_SPACE_WG };

typedef struct vm_ptr {
    uint8_t  space;
    uint8_t  row_major;         /* BUF: the matrix (or its column) is RowMajor */
    uint16_t slot;              /* BUF */
    uint32_t type;              /* pointee type id */
    uint32_t base;              /* REG: first vreg of the variable; WG: byte offset of the variable */
    uint32_t off;               /* constant offset: REG scalars, BUF/WG bytes */
    uint32_t dyn;               /* register with the per-lane offset (same unit), EG_VM_NONE if none */
    uint32_t limit;             /* REG: scalars of the variable; WG: the variable's end byte */
    uint32_t mstride_B;         /* BUF: MatrixStride of the matrix being addressed */
    uint32_t vstride_B;         /* BUF: stride between vector components (4, or MatrixStride) */
} vm_ptr_t;

typedef struct vm_frame {
    uint32_t fn;                /* index into ir->functions */
    uint32_t blk;               /* absolute IR block index being compiled */
    uint32_t inst;              /* next instruction of that block */
    uint32_t block_base;        /* bytecode block id of the function's first block */
    uint32_t cont_block;        /* where returns branch to */
    vm_val_t result;            /* return value registers */
    vm_val_t *vals;             /* [ir->value_count] for the function's own ids */
    size_t mark;                /* scratch arena mark to pop to */
} vm_frame_t;

/* Call depth the compiler inlines through (WebGPU has no recursion, so a chain is at most the
 * module's function count; 64 covers any hand-written shader: each frame is ~40 B of static
 * state, its values come from the compile scratch, whose exhaustion names its knob). */
#define VM_MAX_FRAMES 64u

typedef struct vm_cc {
    const eg_ir_t *ir;
    eg_arena_t *arena;
    const eg_pipeline_layout_t *layout;
    const eg_shader_entry_t *entry;
    eg_soft_program_t *prog;
    eg_vm_inst_t *code;
    uint32_t code_n, code_cap;
    uint8_t *vreg_var;          /* per virtual register: 1 = variable class (never reused) */
    uint32_t vreg_n, vreg_cap;
    uint32_t *comps;
    uint32_t comps_n, comps_cap;
    vm_ptr_t *ptrs;
    uint32_t ptrs_n, ptrs_cap;
    uint32_t *const_vals;
    uint32_t const_n, const_cap;
    uint32_t *block_pc;
    uint32_t block_n, block_cap;
    vm_val_t *globals;          /* [ir->value_count] constants and module variables */
    vm_frame_t frames[VM_MAX_FRAMES];
    uint32_t depth;
    uint32_t prev_block_inst;   /* last BLOCK instruction, to patch its skip target */
    uint32_t wg_B;
    uint32_t out_regs[EG_SOFT_MAX_LOCATIONS];  /* Output variables by location: vm_val index */
    bool failed;
    eg_status_t status;
} vm_cc_t;

/* soft_vm_compile.c */
bool vm_fail(vm_cc_t *cc, eg_status_t st, const char *fmt, ...) EG_PRINTF(3, 4);
uint32_t vm_emit(vm_cc_t *cc, uint32_t op, uint32_t dst, uint32_t a, uint32_t b, uint32_t c,
                 uint32_t d, uint32_t imm);
uint32_t vm_temp(vm_cc_t *cc);
uint32_t vm_vars(vm_cc_t *cc, uint32_t n);
uint32_t vm_const(vm_cc_t *cc, uint32_t bits);
/** Component list of n fresh registers (var: variable class). */
vm_val_t vm_new_comps(vm_cc_t *cc, uint32_t n, bool var);
vm_val_t vm_alias_comps(vm_cc_t *cc, uint32_t n);
static inline uint32_t *vm_c(vm_cc_t *cc, const vm_val_t *v) { return &cc->comps[v->idx]; }
vm_val_t *vm_val(vm_cc_t *cc, uint32_t id);
/** Component registers of value id (fails on non-composite values). */
uint32_t *vm_comps(vm_cc_t *cc, uint32_t id, uint32_t *n);
uint32_t vm_slot(vm_cc_t *cc, const eg_ir_var_t *v);

/* soft_vm_compile_ops.c */
bool vm_lower_inst(vm_cc_t *cc, vm_frame_t *f, const eg_ir_inst_t *in);
bool vm_lower_ext(vm_cc_t *cc, const eg_ir_inst_t *in);
bool vm_load(vm_cc_t *cc, const vm_ptr_t *p, vm_val_t *out);
bool vm_store(vm_cc_t *cc, const vm_ptr_t *p, const uint32_t *src, uint32_t n);

/* soft_vm_regalloc.c / soft_vm_opt.c (helper "fast") */
void vm_operands(eg_vm_inst_t *in, uint16_t *out[4], uint8_t *write);
/** Copy propagation and dead-code removal over registers 0..nregs-1 (block links redone); run
 *  on the virtual registers (vregs: also coalesces MOVs into the defining instruction) and again
 *  on the allocated ones. */
void vm_optimize(vm_cc_t *cc, uint32_t nregs, bool vregs);
/* soft_vm_regalloc.c: BLOCK instructions learn where the next block starts */
void vm_link_blocks(vm_cc_t *cc);

#endif /* EG_SOFT_VM_COMPILE_H */
