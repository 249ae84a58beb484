/* hal/soft shader VM: call-threaded runs of the hot lane operations (pre-decoded at compile). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_internal.h"
#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_vm_simd.h"
#include "hal/soft/soft_jit.h"
#include "kernel/base/util.h"

/* WHY. The switch interpreter spends ~45 x86 instructions per bytecode instruction on decoding
 * beside a 16-instruction vector body: the jump table, the register-or-constant choice for
 * every operand, the mask mode. Here each instruction is decoded once when the program is
 * created into {handler, operands}: a handler per operation and operand kind (lane register
 * or constant), register operands as byte offsets, constants as their bits (the same in every
 * lane, so one broadcast instead of a load per chunk). A straight run of such instructions is
 * a loop of indirect calls; anything else (control flow, memory, images, rare ALU operations,
 * partial masks) returns to the switch interpreter, which stays the reference. The lane
 * bodies are those of soft_vm_simd.h operation for operation, so the bits are the same. */

#ifndef VM_THREAD
#if VM_SIMD && defined(VM_SIMD_NATIVE) && EG_SOFT_LANES % VM_VW == 0
#define VM_THREAD 1
#else
#define VM_THREAD 0
#endif
#endif

#if VM_THREAD

typedef const struct eg_vm_top *(*eg_vm_top_fn_t)(const struct eg_vm_top *op, eg_soft_reg_t *regs,
                                                   eg_vm_state_t *st);
/* d, a, b, c: a register's byte offset in the register file, or a constant's bits */
struct eg_vm_top {
    eg_vm_top_fn_t fn;
    uint32_t d, a, b, c;
};

/* Hot operations and their operand count (the order of the X lists is the TH_ numbering). */
#define TH_OPS(U, B, T) \
    U(MOV) U(FABS) U(FNEG) U(FFLOOR) U(FFRACT) TH_SQRT_(U) \
    B(FADD) B(FSUB) B(FMUL) B(FMIN) B(FMAX) B(FLT) B(FGT) B(FLE) B(FGE) B(IADD) B(AND) B(OR) \
    B(FDIV) B(FSTEP) B(FEQ) B(IEQ) B(INE) B(ISUB) B(XOR) \
    T(FFMA) T(FMIX) T(FCLAMP) T(SELECT)
#ifdef VM_SIMD_SQRT
#define TH_SQRT_(U) U(FSQRT)
#else
#define TH_SQRT_(U)
#endif
#define TH_ID_(n) TH_##n,
enum { TH_OPS(TH_ID_, TH_ID_, TH_ID_) TH_COUNT };
#undef TH_ID_

#if defined(__clang__)
#define TH_UNROLL_ _Pragma("clang loop unroll(full)")
#else
#define TH_UNROLL_ _Pragma("GCC unroll 4")
#endif

/* Width 4 (SSE2, NEON): the vector types and floor/sqrt of soft_vm_simd.h. */
typedef uint32_t th_u4_t __attribute__((vector_size(16)));
typedef float th_f4_t __attribute__((vector_size(16)));
#define tv_f th_f4_t
#define tv_u th_u4_t
#define TV_B 16u
#define TV_SPLAT(v) ((th_u4_t){ (v), (v), (v), (v) })
#define TV_ATTR
#define TV_(n) n##_4
#define TV_FLOOR(r, x) vm_vfloor(&(r), &(x))
#if defined(VM_SIMD_SQRT)
#define TV_SQRT(r, x) vm_vsqrt_raw(&(r), &(x))
#endif
#if VM_VW != 4
#error "soft_vm_thread.c: width 4 uses soft_vm_simd.h's 4-lane helpers"
#endif
#include "hal/soft/soft_vm_thread.inc"
#undef tv_f
#undef tv_u
#undef TV_B
#undef TV_SPLAT
#undef TV_ATTR
#undef TV_
#undef TV_FLOOR
#undef TV_SQRT

/* Width 8 on x86-64 with AVX2, chosen at run time (the build is baseline x86-64): the same IEEE
 * operations, 8 lanes per instruction. Floor is ROUNDPS toward -inf where |x| < 2^23 (exact
 * there, like eg_vm_floorf's trip through int32, signed zeros included) and x itself elsewhere
 * (eg_vm_floorf's NaN, inf and large-value result: ROUNDPS would quiet a signalling NaN). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(EMGPU_SOFT_VM_NO_AVX2) && EG_SOFT_LANES % 8 == 0
#define TH_AVX2 1
typedef uint32_t th_u8_t __attribute__((vector_size(32)));
typedef float th_f8_t __attribute__((vector_size(32)));
#define tv_f th_f8_t
#define tv_u th_u8_t
#define TV_B 32u
#define TV_SPLAT(v) ((th_u8_t){ (v), (v), (v), (v), (v), (v), (v), (v) })
#define TV_ATTR __attribute__((target("avx2")))
#define TV_(n) n##_8
#define TV_FLOOR(r, x) do { \
        th_u8_t ux_ = (th_u8_t)(x), small_ = (th_u8_t)((th_f8_t)(ux_ & 0x7fffffffu) < (th_f8_t)TV_SPLAT(0x4b000000u)); \
        th_u8_t fl_ = (th_u8_t)__builtin_ia32_roundps256((x), 0x9); \
        (r) = (th_f8_t)((fl_ & small_) | (ux_ & ~small_)); } while (0)
#define TV_SQRT(r, x) ((r) = __builtin_ia32_sqrtps256(x))
#include "hal/soft/soft_vm_thread.inc"
#endif

/* Interface moves: a = the input/output slot (imm), or the FragCoord component. */
static const struct eg_vm_top *th_ld_in(const struct eg_vm_top *op, eg_soft_reg_t *regs, eg_vm_state_t *st)
{
    *(eg_soft_reg_t *)(void *)((uint8_t *)regs + op->d) = st->inv->in[op->a >> 2].c[op->a & 3u];
    return op + 1;
}
static const struct eg_vm_top *th_ld_pos(const struct eg_vm_top *op, eg_soft_reg_t *regs, eg_vm_state_t *st)
{
    *(eg_soft_reg_t *)(void *)((uint8_t *)regs + op->d) = st->inv->position.c[op->a];
    return op + 1;
}
static const struct eg_vm_top *th_st_out(const struct eg_vm_top *op, eg_soft_reg_t *regs, eg_vm_state_t *st)
{
    vm_commit(&st->inv->out[op->d >> 2].c[op->d & 3u],
              (const eg_soft_reg_t *)(const void *)((const uint8_t *)regs + op->a), st->exec);
    return op + 1;
}
static const struct eg_vm_top *th_st_out_k(const struct eg_vm_top *op, eg_soft_reg_t *regs, eg_vm_state_t *st)
{
    eg_soft_reg_t k;
    (void)regs;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) k.u[l] = op->a;
    vm_commit(&st->inv->out[op->d >> 2].c[op->d & 3u], &k, st->exec);
    return op + 1;
}
/* gl_Position component op->d (vertex programs: ST_POS as memory_op commits it), from a lane
 * register or a constant (z = 0, w = 1 are often literals): threaded, so a vertex program of
 * interface moves and ALU operations is one straight run the JIT translates whole. */
static const struct eg_vm_top *th_st_pos(const struct eg_vm_top *op, eg_soft_reg_t *regs, eg_vm_state_t *st)
{
    vm_commit(&st->inv->position.c[op->d], (const eg_soft_reg_t *)(const void *)((const uint8_t *)regs + op->a),
              st->exec);
    return op + 1;
}
static const struct eg_vm_top *th_st_pos_k(const struct eg_vm_top *op, eg_soft_reg_t *regs, eg_vm_state_t *st)
{
    eg_soft_reg_t k;
    (void)regs;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) k.u[l] = op->a;
    vm_commit(&st->inv->position.c[op->d], &k, st->exec);
    return op + 1;
}
static const struct eg_vm_top *th_exit(const struct eg_vm_top *op, eg_soft_reg_t *regs, eg_vm_state_t *st)
{
    (void)op; (void)regs; (void)st;
    return NULL;
}

size_t eg_vm_thread_size_B(uint32_t code_count) { return (size_t)code_count * sizeof(struct eg_vm_top); }

/* TH_ id and operand count of a bytecode operation, or false when it is not threaded. */
static bool th_op(uint32_t op, uint32_t *o, uint32_t *n)
{
    switch (op) {
#define TH_CU_(x) case EG_VM_##x: *o = TH_##x; *n = 1; return true;
#define TH_CB_(x) case EG_VM_##x: *o = TH_##x; *n = 2; return true;
#define TH_CT_(x) case EG_VM_##x: *o = TH_##x; *n = 3; return true;
    TH_OPS(TH_CU_, TH_CB_, TH_CT_)
    default: return false;
    }
}

/* Decodes one ALU instruction; false when an operand is missing (left to the switch). */
static bool th_alu(const eg_soft_program_t *p, const eg_vm_inst_t *in, const eg_vm_top_fn_t (*fns)[8],
                   struct eg_vm_top *t)
{
    uint32_t o, n, km = 0, v[3];
    const uint16_t src[3] = { in->a, in->b, in->c };
    if (!th_op(in->op, &o, &n) || in->dst >= EG_VM_CONST_BASE) return false;
    for (uint32_t i = 0; i < 3; i++) {
        v[i] = 0;
        if (i >= n) continue;
        if (src[i] == EG_VM_NONE) return false;
        if (src[i] >= EG_VM_CONST_BASE) {
            if (src[i] - EG_VM_CONST_BASE >= p->const_count) return false;
            v[i] = p->consts[src[i] - EG_VM_CONST_BASE].u[0];
            km |= 1u << i;
        } else {
            v[i] = (uint32_t)src[i] * (uint32_t)sizeof(eg_soft_reg_t);
        }
    }
    *t = (struct eg_vm_top){ fns[o][km], (uint32_t)in->dst * (uint32_t)sizeof(eg_soft_reg_t), v[0], v[1], v[2] };
    return true;
}

/* The widest handler set this CPU runs (asked once: __builtin_cpu_supports is a table read). */
static const eg_vm_top_fn_t (*th_table(uint32_t vw))[8]
{
#ifdef TH_AVX2
    if (vw != 4u) {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2")) return th_fns_8;
    }
#endif
    (void)vw;
    return th_fns_4;
}

uint32_t eg_vm_thread_widths(void)
{
#ifdef TH_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return 4u | 8u;
#endif
    return 4u;
}

void eg_vm_thread_build(eg_soft_program_t *p, void *mem, uint32_t vw)
{
    const eg_vm_top_fn_t (*fns)[8] = th_table(vw);
    struct eg_vm_top *t = mem;
    const uint32_t reg_B = (uint32_t)sizeof(eg_soft_reg_t);
    for (uint32_t i = 0; i < p->code_count; i++) {
        const eg_vm_inst_t *in = &p->code[i];
        bool reg_dst = in->dst < EG_VM_CONST_BASE, reg_a = in->a < EG_VM_CONST_BASE;
        t[i] = (struct eg_vm_top){ th_exit, 0, 0, 0, 0 };
        if (th_alu(p, in, fns, &t[i])) continue;
        if (in->op == EG_VM_LD_IN && reg_dst)
            t[i] = (struct eg_vm_top){ th_ld_in, in->dst * reg_B, in->imm, 0, 0 };
        else if (in->op == EG_VM_LD_SYS && reg_dst && in->imm >= EG_VM_SYS_FRAG_COORD && in->imm < EG_VM_SYS_FRAG_COORD + 4u)
            t[i] = (struct eg_vm_top){ th_ld_pos, in->dst * reg_B, in->imm - EG_VM_SYS_FRAG_COORD, 0, 0 };
        else if (in->op == EG_VM_ST_OUT && reg_a)
            t[i] = (struct eg_vm_top){ th_st_out, in->imm, in->a * reg_B, 0, 0 };
        else if (in->op == EG_VM_ST_OUT && in->a != EG_VM_NONE && in->a - EG_VM_CONST_BASE < p->const_count)
            t[i] = (struct eg_vm_top){ th_st_out_k, in->imm, p->consts[in->a - EG_VM_CONST_BASE].u[0], 0, 0 };
        else if (in->op == EG_VM_ST_POS && in->imm < 4u && reg_a)
            t[i] = (struct eg_vm_top){ th_st_pos, in->imm, in->a * reg_B, 0, 0 };
        else if (in->op == EG_VM_ST_POS && in->imm < 4u && in->a != EG_VM_NONE && in->a - EG_VM_CONST_BASE < p->const_count)
            t[i] = (struct eg_vm_top){ th_st_pos_k, in->imm, p->consts[in->a - EG_VM_CONST_BASE].u[0], 0, 0 };
    }
    p->thread = t;
}

bool eg_vm_thread_covers(const eg_soft_program_t *p, uint32_t pc)
{
    return p->thread && pc < p->code_count && p->thread[pc].fn != th_exit;
}

uint32_t eg_vm_thread_run(const eg_soft_program_t *p, eg_vm_state_t *st, uint32_t pc)
{
    const struct eg_vm_top *t = &p->thread[pc], *next;
    eg_soft_reg_t *regs = st->regs;
#if EMGPU_SOFT_JIT
    /* the run's native code where it was translated (soft_jit.c): the same operations */
    if (p->jit) {
        uint32_t at = ((const uint32_t *)(const void *)p->jit)[pc];
        if (at) return ((eg_vm_jit_fn_t)(uintptr_t)(p->jit + at))(regs, st);
    }
#endif
    while ((next = t->fn(t, regs, st)) != NULL) t = next;
    return (uint32_t)(t - p->thread);
}

#else /* !VM_THREAD */

size_t eg_vm_thread_size_B(uint32_t code_count) { (void)code_count; return 0; }
uint32_t eg_vm_thread_widths(void) { return 0; }
void eg_vm_thread_build(eg_soft_program_t *p, void *mem, uint32_t vw) { (void)mem; (void)vw; p->thread = NULL; }
uint32_t eg_vm_thread_run(const eg_soft_program_t *p, eg_vm_state_t *st, uint32_t pc)
{
    (void)p; (void)st;
    return pc;
}
bool eg_vm_thread_covers(const eg_soft_program_t *p, uint32_t pc) { (void)p; (void)pc; return false; }

#endif /* VM_THREAD */

#endif /* EMGPU_HAL_SOFT */
