/* hal/soft shader VM internals shared by its compiler (soft_vm_compile*.c) and interpreter
 * (soft_vm_exec*.c): the bytecode, the program object and the run-time state.
 *
 * BYTECODE. A program is an array of 16-byte instructions. Register fields name either a lane
 * register (0 .. reg_count-1) or, from EG_VM_CONST_BASE up, a read-only constant register (the
 * same value in every lane). Every instruction runs over all EG_SOFT_LANES lanes and writes only
 * the lanes of the current execution mask.
 *
 * CONTROL FLOW. The compiler keeps SPIR-V's block order (a block after its dominator; inlined
 * callees between the call and its continuation). Each block k has a pending mask: the lanes
 * that branched to it and have not run it yet. BLOCK k takes those lanes as the execution mask
 * (skipping to the next block when there are none); a branch ORs lanes into its targets' pending
 * masks; a branch to an earlier block (a loop back edge) jumps back to it at once. Every lane
 * thus runs its own path in order, so the result equals running each lane alone, and loops cost
 * one pass per iteration of the slowest lane. Phis are registers written on the incoming edges.
 */
#ifndef EG_SOFT_VM_H
#define EG_SOFT_VM_H

#include "hal/soft/soft_shader.h"
#include "config/emgpu_config.h"

#define EG_VM_CONST_BASE 0x8000u
#define EG_VM_NONE 0xffffu          /* unused register field */
/* Resources one program may reference: the sum of WebGPU's default per-stage limits (16 sampled
 * textures + 16 samplers + 8 storage buffers + 4 storage textures + 12 uniform buffers), which
 * the soft device reports (kernel/api/limits.c), so every stage the front end accepts fits. */
#define EG_VM_MAX_SLOTS 56u
/* Uniform loads a vertex program's whole-program JIT function may have (one register of words). */
#define EG_VM_JIT_LDS 16u

typedef enum eg_vm_op {
#define EG_VM_OPS(X) \
    /* control */ \
    X(END) X(BLOCK) X(BR) X(BRC) X(SWITCH) X(CASE) X(KILL) X(BARRIER) \
    X(MASK_AND) X(MASK_ANDN) X(MASK_RESTORE) \
    /* moves, io */ \
    X(MOV) X(SELECT) X(LD_IN) X(ST_OUT) X(LD_SYS) X(ST_POS) X(ST_DEPTH) X(ST_SMASK) \
    X(LDI) X(STI) X(LDBUF) X(STBUF) X(LDWG) X(STWG) X(BUFLEN) \
    X(ATOM) \
    /* float */ \
    X(FADD) X(FSUB) X(FMUL) X(FDIV) X(FREM) X(FMOD) X(FNEG) X(FMIN) X(FMAX) X(FABS) X(FSIGN) \
    X(FFLOOR) X(FCEIL) X(FTRUNC) X(FROUND) X(FROUNDEVEN) X(FFRACT) X(FSQRT) X(FRSQRT) \
    X(FEXP2) X(FLOG2) X(FEXP) X(FLOG) X(FPOW) X(FSIN) X(FCOS) X(FTAN) X(FASIN) X(FACOS) \
    X(FATAN) X(FATAN2) X(FSINH) X(FCOSH) X(FTANH) X(FASINH) X(FACOSH) X(FATANH) \
    X(FCLAMP) X(FMIX) X(FSTEP) X(FSMOOTH) X(FFMA) X(FLDEXP) X(FFREXP_M) X(FFREXP_E) \
    X(FNMIN) X(FNMAX) X(FNCLAMP) X(FRADIANS) X(FDEGREES) \
    X(DPDX) X(DPDY) X(FWIDTH) \
    /* int */ \
    X(IADD) X(ISUB) X(IMUL) X(SDIV) X(UDIV) X(SREM) X(SMOD) X(UMOD) X(INEG) X(SABS) X(SSIGN) \
    X(SMIN) X(SMAX) X(UMIN) X(UMAX) X(SCLAMP) X(UCLAMP) \
    X(AND) X(OR) X(XOR) X(NOT) X(SHL) X(SHRL) X(SHRA) \
    X(BITCOUNT) X(BITREV) X(FINDLSB) X(FINDSMSB) X(FINDUMSB) X(BFEU) X(BFES) X(BFI) \
    X(UMULHI) X(SMULHI) X(IADDC) X(ISUBB) \
    /* compare (result 0/1) */ \
    X(FEQ) X(FNE) X(FLT) X(FLE) X(FGT) X(FGE) X(FUNE) X(FUEQ) X(FULT) X(FULE) X(FUGT) X(FUGE) \
    X(FORD) X(FUNORD) X(ISNAN) X(ISINF) \
    X(IEQ) X(INE) X(SLT) X(SLE) X(SGT) X(SGE) X(ULT) X(ULE) X(UGT) X(UGE) \
    X(LNOT) \
    /* conversions, packing */ \
    X(F2I) X(F2U) X(I2F) X(U2F) X(BOOL2F) \
    X(PACK_H2) X(UNPACK_H2) X(PACK_UN4) X(UNPACK_UN4) X(PACK_SN4) X(UNPACK_SN4) \
    X(PACK_UN2) X(UNPACK_UN2) X(PACK_SN2) X(UNPACK_SN2) \
    /* textures */ \
    X(SAMPLE) X(TEXLOAD) X(TEXSTORE) X(TEXSIZE) X(TEXLEVELS) X(TEXSAMPLES) X(ARGS)
#define X(n) EG_VM_##n,
    EG_VM_OPS(X)
#undef X
    EG_VM_OP_COUNT
} eg_vm_op_t;

/** One instruction. Field use by op is listed in soft_vm_compile.c (operand_roles). */
typedef struct eg_vm_inst {
    uint16_t op;
    uint16_t dst;
    uint16_t a, b, c, d;
    uint32_t imm;
} eg_vm_inst_t;

/* LD_SYS selectors (imm) */
enum {
    EG_VM_SYS_VERTEX_INDEX, EG_VM_SYS_INSTANCE_INDEX, EG_VM_SYS_FRAG_COORD /* +0..3 */,
    EG_VM_SYS_FRONT_FACING = EG_VM_SYS_FRAG_COORD + 4, EG_VM_SYS_LOCAL_ID /* +0..2 */,
    EG_VM_SYS_GLOBAL_ID = EG_VM_SYS_LOCAL_ID + 3, EG_VM_SYS_WG_ID = EG_VM_SYS_GLOBAL_ID + 3,
    EG_VM_SYS_NUM_WG = EG_VM_SYS_WG_ID + 3, EG_VM_SYS_LOCAL_INDEX = EG_VM_SYS_NUM_WG + 3,
    EG_VM_SYS_SAMPLE_ID, EG_VM_SYS_SAMPLE_MASK
};

/* ATOM kinds (d field low byte) */
enum {
    EG_VM_ATOM_LOAD, EG_VM_ATOM_STORE, EG_VM_ATOM_XCHG, EG_VM_ATOM_CMPXCHG, EG_VM_ATOM_IADD,
    EG_VM_ATOM_ISUB, EG_VM_ATOM_SMIN, EG_VM_ATOM_UMIN, EG_VM_ATOM_SMAX, EG_VM_ATOM_UMAX,
    EG_VM_ATOM_AND, EG_VM_ATOM_OR, EG_VM_ATOM_XOR
};
#define EG_VM_ATOM_WORKGROUP 0x100u  /* d flag: workgroup memory instead of a buffer slot */

/** A resource the program references: entry `entry` of bind group `group` in the layout. */
typedef struct eg_vm_slot {
    uint8_t group;
    uint8_t entry;
    uint8_t dynamic;            /* index among the group's dynamic-offset entries + 1; 0 = none */
    uint8_t kind;               /* eg_binding_kind_t */
} eg_vm_slot_t;

struct eg_soft_program {
    eg_soft_program_info_t info;
    const eg_vm_inst_t *code;
    uint32_t code_count;
    const eg_soft_reg_t *consts;
    uint32_t const_count;
    uint32_t reg_count, block_count;
    const uint32_t *block_pc;   /* first instruction of each block */
    /* The code pre-decoded for call threading (soft_vm_thread.c), one entry per instruction;
     * NULL where the target has no vector registers (then only the switch interpreter runs). */
    const struct eg_vm_top *thread;
    /* The threaded runs as native code (soft_jit.c), NULL where not translated: a table of
     * code_count entry offsets (0: no entry at that pc) at the start, then constants and code,
     * jit_B bytes of the JIT's code arena. */
    const uint8_t *jit;
    uint32_t jit_B;
    /* Offset in jit of the whole program as one function (eg_vm_jit_whole_fn_t), 0 = none: set
     * where the program is BLOCK 0, then only translated instructions, then END (soft_jit.c). */
    uint32_t jit_whole_at;
    /* Offsets in jit of the whole program looped over a row of blocks with the RGBA8 ([0]) /
     * BGRA8 ([1]) pack (eg_vm_jit_rows_fn_t, soft_jit.c j_rows), 0 = none (helper "blk8"). */
    uint32_t jit_rows_at[2];
    /* The whole program's uniform loads (vertex programs: LDBUF at a fixed address), their pcs in
     * program order: eg_soft_program_run writes load k's word at byte 4 k of regs[reg_count]
     * before the call, and the code broadcasts it from there (soft_jit.c whole_ld). */
    uint32_t jit_ld_count;
    uint16_t jit_ld_pc[EG_VM_JIT_LDS];
    uint32_t slot_count;
    eg_vm_slot_t slots[EG_VM_MAX_SLOTS];
    bool uses_barrier;
    /* fragment: reads SampleId or has a `sample`-interpolated input (runs once per covered sample:
     * uses_sample_id), reads/writes SampleMask (writes AND the coverage) */
    bool uses_sample_id, uses_sample_mask, writes_sample_mask;
    /* compute: per-block states for a workgroup run in lockstep (soft heap) */
    void *compute_mem;
    uint32_t compute_blocks;
};

/** Bound memory of each slot for one run: buffers (bytes in range) or views/samplers. */
typedef struct eg_vm_res {
    uint8_t *mem[EG_VM_MAX_SLOTS];
    uint32_t size_B[EG_VM_MAX_SLOTS];
    const void *obj[EG_VM_MAX_SLOTS];  /* texture view or sampler */
} eg_vm_res_t;

/** State of one block of lanes while a program runs. */
typedef struct eg_vm_state {
    eg_soft_reg_t *regs;
    eg_soft_mask_t *pending;    /* [block_count] */
    eg_soft_mask_t exec, alive, saved, side;   /* side: lanes whose stores/atomics take effect */
    /* Lanes nothing outside them observes: the run's lanes (fragment: whole quads). While exec
     * equals it, results go straight to every lane of the destination with no mask merge (the
     * other lanes are never read: no quad of theirs runs). 0 after a KILL: a killed lane's stale
     * values stay visible to its quad's derivatives. */
    eg_soft_mask_t whole;
    uint32_t pc;
    bool done;
    /* inputs */
    eg_soft_invocation_t *inv;  /* vertex / fragment */
    const eg_vm_res_t *res;
    uint8_t *wg_mem;            /* compute */
    uint32_t wg_mem_B;
    uint32_t local_index0;      /* compute: local index of lane 0 */
    uint32_t wg_id[3], num_wg[3];
} eg_vm_state_t;

/** Runs st from st->pc until END or (compute) BARRIER. */
void eg_vm_run(const eg_soft_program_t *p, eg_vm_state_t *st);
/** Fills res from the bound groups for the program's slots. */
void eg_vm_bind(const eg_soft_program_t *p, const eg_soft_bound_t *bound, eg_vm_res_t *res);
/* The texture view or sampler bound at resource slot `slot` (NULL: nothing bound, or a buffer):
 * what eg_vm_bind puts in res->obj[slot], for callers that need one object only. */
const void *eg_vm_slot_object(const eg_soft_program_t *p, const eg_soft_bound_t *bound, uint32_t slot);

/* soft_vm_thread.c: the pre-decoded stream. eg_vm_thread_size_B is 0 where it is not built;
 * eg_vm_thread_build fills it (p's code and consts already in place) and sets p->thread, with
 * handlers of vw lanes per vector (0: the widest the CPU runs; tests force 4 or 8);
 * eg_vm_thread_widths: a bit per width the CPU runs (4, 8), 0 where nothing is threaded. */
size_t eg_vm_thread_size_B(uint32_t code_count);
void eg_vm_thread_build(eg_soft_program_t *p, void *mem, uint32_t vw);
uint32_t eg_vm_thread_widths(void);
/** Runs pre-decoded instructions from pc while every lane that matters runs (st's mask mode
 *  is "fast"); returns the pc of the first instruction the switch interpreter must run. */
uint32_t eg_vm_thread_run(const eg_soft_program_t *p, eg_vm_state_t *st, uint32_t pc);
/** True when the pre-decoded instruction at pc runs threaded (not handed to the switch). */
bool eg_vm_thread_covers(const eg_soft_program_t *p, uint32_t pc);

/* soft_vm_alu.c: d = op(a, b, c) in every lane (vector code where EMGPU_SOFT_SIMD allows);
 * eg_vm_alu_scalar is the plain per-lane loop, kept callable so tests compare the two. */
void eg_vm_alu(uint32_t op, eg_soft_reg_t *d, const eg_soft_reg_t *a, const eg_soft_reg_t *b,
               const eg_soft_reg_t *c);
void eg_vm_alu_scalar(uint32_t op, eg_soft_reg_t *d, const eg_soft_reg_t *a, const eg_soft_reg_t *b,
                      const eg_soft_reg_t *c);

/* soft_vm_vmath.c (EMGPU_SOFT_SIMD on a target with vector registers): exp2, log2, exp, log, pow, sin, cos, tan over all
 * lanes, the bits of the scalar functions below; false for any other op. */
bool eg_vm_alu_vmath(uint32_t op, eg_soft_reg_t *d, const eg_soft_reg_t *a, const eg_soft_reg_t *b);

/* soft_vm_math.c: deterministic float math (same bits on every target: no libm). */
float eg_vm_sqrtf(float x);
/** The integer-only square root eg_vm_sqrtf uses where the target has no hardware one (tests
 *  compare the two: IEEE sqrt is correctly rounded, so they must agree bit for bit). */
float eg_vm_sqrtf_soft(float x);
float eg_vm_floorf(float x);
float eg_vm_truncf(float x);
float eg_vm_exp2f(float x);
float eg_vm_log2f(float x);
float eg_vm_sinf(float x);
float eg_vm_cosf(float x);
float eg_vm_atanf(float x);
float eg_vm_atan2f(float y, float x);

#endif /* EG_SOFT_VM_H */
