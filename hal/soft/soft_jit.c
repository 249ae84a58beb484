/* hal/soft shader VM: x86-64 AVX2 native code for the threaded runs, built at pipeline creation. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include <stddef.h>

#include "hal/soft/soft_jit.h"
#include "kernel/base/log.h"
#include "kernel/base/util.h"
#include "port/port.h"

/* WHY. The threaded interpreter (soft_vm_thread.c) still pays an indirect call, the operand
 * loads from its table and a return per instruction: ~360 x86 instructions of dispatch per
 * block of 16 lanes on the ALU benchmark, more than the arithmetic. Here each straight run
 * the threaded code covers becomes one native function: per instruction, the AVX2
 * instructions of its threaded handler body for the 16 lanes (2 x ymm), register operands as
 * [regs + offset] memory operands, constants as 32-byte vectors in a pool next to the code
 * (RIP-relative), no call or dispatch in between; the BLOCK that opens a run and a cache of
 * the last destinations in ymm registers (below) cut the rest. Lane for lane the same IEEE
 * operations in the same order as the handlers (soft_vm_thread.inc), so the same bits (where
 * two NaNs meet in a commutative + or *, the payload of the bytecode's first operand, as the
 * switch interpreter gives; GCC swaps some of the threaded handlers' operands).
 *
 * The encoder is written here by hand (a few VEX forms, no general assembler): the runtime
 * allocates nothing after init and is C, so LLVM, asmjit and the like (C++, heap) are out;
 * nothing is copied from other JITs. Code lives in one fixed arena (EMGPU_SOFT_JIT_ARENA_B)
 * mapped through the port; a program's pages are writable while it is written and then
 * read+execute only (W^X), and each program has pages of its own, so flipping them never
 * touches code another thread may be running. */

#if EMGPU_SOFT_JIT && defined(__x86_64__) && defined(__GNUC__) && EG_SOFT_LANES == 16

#define JIT_PAGE_B EG_VM_JIT_PAGE_B

#include "hal/soft/soft_jit_x64.h"

/* BLOCK as the switch interpreter runs it, when its lanes keep the fast mode: exec = pending &
 * alive, pending = 0, go on. Otherwise (no lanes: a jump; a partial mask) nothing is changed
 * and the switch interpreter runs this BLOCK. r10 holds the mask (caller-saved in both ABIs). */
static void j_block(jb_t *j, const eg_vm_inst_t *in, uint32_t pc)
{
    const uint32_t exec_at = (uint32_t)offsetof(eg_vm_state_t, exec);
    g_load(j, R_ST, (uint32_t)offsetof(eg_vm_state_t, pending), true);
    put(j, 0x44); put(j, 0x8b); modrm(j, 10, MEM(R_AX, in->imm * 4u), 0);     /* mov r10d, pending[imm] */
    put(j, 0x44); put(j, 0x23);                                                 /* and r10d, alive */
    modrm(j, 10, MEM(R_ST, (uint32_t)offsetof(eg_vm_state_t, alive)), 0);
    put(j, 0x45); put(j, 0x85); put(j, 0xd2);                                   /* test r10d, r10d */
    uint32_t none = jump8(j, 0x74);
    put(j, 0x41); put(j, 0x81); put(j, 0xfa); put32(j, EG_SOFT_ALL_LANES);      /* cmp r10d, all */
    uint32_t all = jump8(j, 0x74);
    put(j, 0x44); put(j, 0x3b);                                                 /* cmp r10d, whole */
    modrm(j, 10, MEM(R_ST, (uint32_t)offsetof(eg_vm_state_t, whole)), 0);
    uint32_t whole = jump8(j, 0x74);
    patch_jump(j, none);
    g_return(j, pc);
    patch_jump(j, all);
    patch_jump(j, whole);
    put(j, 0x44); put(j, 0x89); modrm(j, 10, MEM(R_ST, exec_at), 0);          /* mov exec, r10d */
    put(j, 0xc7); modrm(j, 0, MEM(R_AX, in->imm * 4u), 4); put32(j, 0);        /* pending[imm] = 0 */
}

/* ---- translation ---- */

/* The pool's fixed vectors (before the program's constants), each 32 bytes of one value. */
enum { KP_ABS, KP_SIGN, KP_TWO23, KP_ONE_I, KP_ONE_F, KP_ZERO, KP_QNAN, KP_255, KP_HALF, KP_FOUR, KP_COUNT };
static const uint32_t kp_bits[KP_COUNT] = { 0x7fffffffu, 0x80000000u, 0x4b000000u, 1u, 0x3f800000u, 0u, 0x7fc00000u,
                                            0x437f0000u, 0x3f000000u, 0x40800000u };

/* REGISTER CACHE. The last few destinations stay in ymm registers (slot s: ymm 4 + 2s and
 * 5 + 2s for the two halves), so a following instruction reads them there instead of from
 * memory (store-to-load forwarding latency on every dependency chain). Stores still go to the
 * register file (write-through): an exit to the switch interpreter needs nothing flushed.
 * Code is entered only where the cache is empty: a run's start and after a store to an output
 * (which empties it). ymm0-3 are scratch. Windows x64 keeps xmm6-15 across calls, so no cache
 * there (the code has no prologue to save them). */
#if defined(_WIN32) || defined(JIT_NO_CACHE)
#define JIT_SLOTS 0u
#else
#define JIT_SLOTS 6u
#endif
static const uint32_t jit_slots = JIT_SLOTS;   /* (a variable: no always-false warnings at 0) */
#define JIT_NO_REG 0xffffu
#define JIT_OUT 3u                     /* result register when nothing is cached */

typedef struct jctx {
    const eg_soft_program_t *p;
    uint32_t pool_at;                  /* offset of the pool in the allocation */
    uint16_t slot_reg[JIT_SLOTS + 1u]; /* VM register held by each slot, or JIT_NO_REG */
    uint32_t slot_age[JIT_SLOTS + 1u], clock;
    /* WHOLE PROGRAM (j_whole): no exit and no entry inside, so a slot is written back only when
     * it is evicted while its register is read later (dirty), and a destination nobody reads
     * later is not computed at all; pc is the instruction being translated. */
    bool whole;
    bool slot_dirty[JIT_SLOTS + 1u];
    uint32_t pc;
    /* the whole program: registers known to hold no signalling NaN in any lane (j_quiet) */
    uint32_t quiet[(EMGPU_SOFT_VM_MAX_REGS + 31u) / 32u];
    uint32_t ld_k;                     /* the whole program: uniform loads translated so far */
} jctx_t;

static void cache_clear(jctx_t *c)
{
    /* (ages too: the sizing pass and the writing pass must pick the same slots) */
    for (uint32_t s = 0; s < jit_slots; s++) { c->slot_reg[s] = JIT_NO_REG; c->slot_dirty[s] = false; c->slot_age[s] = 0; }
}
static bool cache_empty(const jctx_t *c)
{
    for (uint32_t s = 0; s < jit_slots; s++)
        if (c->slot_reg[s] != JIT_NO_REG) return false;
    return true;
}
static uint32_t cache_find(const jctx_t *c, uint32_t v)
{
    for (uint32_t s = 0; s < jit_slots; s++)
        if (c->slot_reg[s] == v) return s;
    return jit_slots;
}
/* True when an instruction after pc reads register r before one writes it (the whole
 * program's straight code, ending in END). Any operand field naming r counts as a read. */
static bool live_after(const eg_soft_program_t *p, uint32_t pc, uint32_t r)
{
    for (uint32_t i = pc + 1u; i < p->code_count; i++) {
        const eg_vm_inst_t *in = &p->code[i];
        if (in->a == r || in->b == r || in->c == r) return true;
        if (in->dst == r && in->op != EG_VM_ST_OUT) return false;
    }
    return false;
}

static uint32_t slot_ymm(uint32_t s, uint32_t h) { return s < jit_slots ? 4u + 2u * s + h / 32u : JIT_OUT; }

/* The slot for dst: its own, else the oldest holding none of the instruction's operands (a
 * dirty one written back first when its register is read later). */
static uint32_t cache_take(jb_t *j, jctx_t *c, const eg_vm_inst_t *in)
{
    uint32_t s = cache_find(c, in->dst), best = jit_slots;
    if (s < jit_slots) return s;
    for (s = 0; s < jit_slots; s++) {
        uint16_t r = c->slot_reg[s];
        if (r != JIT_NO_REG && (r == in->a || r == in->b || r == in->c)) continue;
        if (best == jit_slots || c->slot_age[s] < c->slot_age[best]) best = s;
    }
    if (best < jit_slots && c->slot_dirty[best] && live_after(c->p, c->pc, c->slot_reg[best]))
        for (uint32_t h = 0; h < (uint32_t)sizeof(eg_soft_reg_t); h += 32u)
            v_st(j, MEM(R_REGS, c->slot_reg[best] * (uint32_t)sizeof(eg_soft_reg_t) + h), slot_ymm(best, h));
    if (best < jit_slots) c->slot_dirty[best] = false;
    return best;
}

static jop_t kp(const jctx_t *c, uint32_t k) { return RIP(c->pool_at + k * 32u); }
/* The pool's vector of 1 - constant k (after the constants): FMIX's 1 - z for a constant z, the
 * same IEEE subtraction done once at build time (x86-64 C floats are SSE singles). */
static jop_t kp_one_minus(const jctx_t *c, uint32_t v)
{
    return kp(c, KP_COUNT + c->p->const_count + (v - EG_VM_CONST_BASE));
}

/* QUIET VALUES. floor's select (j_floor) keeps x where |x| >= 2^23 or x is NaN; ROUNDPS gives x
 * itself there too except for a signalling NaN, which it quiets. So where no lane of x can be a
 * signalling NaN, ROUNDPS alone is the same bits. An arithmetic result (+ - * and what is built
 * of them) is never one; FABS / FNEG / MIN / MAX / CLAMP / SELECT / FLOOR / SQRT pass operand
 * bits through; loads and integer results may be anything. Tracked in the whole program only
 * (straight code, no entry in the middle). */
static bool j_is_quiet(const jctx_t *c, uint32_t v)
{
    if (v >= EG_VM_CONST_BASE) {
        uint32_t u = c->p->consts[v - EG_VM_CONST_BASE].u[0];
        return (u & 0x7fc00000u) != 0x7f800000u || !(u & 0x003fffffu);   /* not exp 255, quiet bit 0, payload */
    }
    return c->whole && v < EMGPU_SOFT_VM_MAX_REGS && (c->quiet[v / 32u] >> (v % 32u) & 1u);
}

/* After an instruction with a destination: whether dst is quiet now. */
static void j_quiet(jctx_t *c, const eg_vm_inst_t *in)
{
    uint32_t d = in->dst;
    if (d == EG_VM_NONE || d >= EMGPU_SOFT_VM_MAX_REGS || in->op == EG_VM_ST_OUT) return;
    bool q;
    switch (in->op) {
    case EG_VM_FADD: case EG_VM_FSUB: case EG_VM_FMUL: case EG_VM_FFMA: case EG_VM_FMIX: case EG_VM_FFRACT:
    case EG_VM_FDIV: case EG_VM_FSTEP: case EG_VM_FEQ: case EG_VM_IEQ: case EG_VM_INE:
    case EG_VM_FLT: case EG_VM_FGT: case EG_VM_FLE: case EG_VM_FGE:   /* (0 or 1) */
        q = true;
        break;
    case EG_VM_MOV: case EG_VM_FABS: case EG_VM_FNEG: case EG_VM_FFLOOR: case EG_VM_FSQRT:
        q = j_is_quiet(c, in->a);
        break;
    case EG_VM_FMIN: case EG_VM_FMAX:
        q = j_is_quiet(c, in->a) && j_is_quiet(c, in->b);
        break;
    case EG_VM_FCLAMP:
        q = j_is_quiet(c, in->a) && j_is_quiet(c, in->b) && j_is_quiet(c, in->c);
        break;
    case EG_VM_SELECT:
        q = j_is_quiet(c, in->b) && j_is_quiet(c, in->c);
        break;
    default:
        q = false;
        break;
    }
    if (q) c->quiet[d / 32u] |= 1u << (d % 32u); else c->quiet[d / 32u] &= ~(1u << (d % 32u));
}
/* Operand field v for the 32-byte half h: a cached register, a lane register's bytes or a
 * constant's pool vector. */
static jop_t src(const jctx_t *c, uint32_t v, uint32_t h)
{
    if (v >= EG_VM_CONST_BASE) return kp(c, KP_COUNT + (v - EG_VM_CONST_BASE));
    uint32_t s = cache_find(c, v);
    if (s < jit_slots) return YR(slot_ymm(s, h));
    return MEM(R_REGS, v * (uint32_t)sizeof(eg_soft_reg_t) + h);
}
/* The operand in a register (loaded into tmp unless cached). */
static uint32_t in_reg(jb_t *j, jop_t m, uint32_t tmp)
{
    if (m.k == JK_Y) return m.r;
    v_ld(j, tmp, m);
    return tmp;
}

/* floor as the handlers' TV_FLOOR: ROUNDPS toward -inf where |x| < 2^23, x itself elsewhere.
 * Into r from register x; ymm1 and ymm2 clobbered (r written last). */
static void j_floor(jb_t *j, const jctx_t *c, uint32_t r, uint32_t x)
{
    v_op(j, OP_AND, 2, x, kp(c, KP_ABS));
    v_cmp(j, 2, 2, kp(c, KP_TWO23), CMP_LT);
    v_round(j, 1, YR(x), 0x9);        /* toward -inf, precision exception suppressed */
    v_blendv(j, r, x, YR(1), 2);
}

static bool j_alu_op(uint32_t op)
{
    switch (op) {
    case EG_VM_MOV: case EG_VM_FABS: case EG_VM_FNEG: case EG_VM_FFLOOR: case EG_VM_FFRACT: case EG_VM_FSQRT:
    case EG_VM_FADD: case EG_VM_FSUB: case EG_VM_FMUL: case EG_VM_FMIN: case EG_VM_FMAX: case EG_VM_FLT:
    case EG_VM_FGT: case EG_VM_FLE: case EG_VM_FGE: case EG_VM_IADD: case EG_VM_AND: case EG_VM_OR:
    case EG_VM_FFMA: case EG_VM_FMIX: case EG_VM_FCLAMP: case EG_VM_SELECT: case EG_VM_FDIV: case EG_VM_FSTEP:
    case EG_VM_FEQ: case EG_VM_IEQ: case EG_VM_INE: case EG_VM_ISUB: case EG_VM_XOR: return true;
    default: return false;
    }
}

/* One ALU instruction's 32-byte half h into ymm r, operand order as in soft_vm_thread.inc's
 * th_lanes (x = a, y = b, z = c). Every sequence writes r last, so r may be a cached operand. */
static void j_alu_half(jb_t *j, const jctx_t *c, const eg_vm_inst_t *in, uint32_t h, uint32_t r)
{
    jop_t x = src(c, in->a, h), y = src(c, in->b, h), z = src(c, in->c, h);
    uint32_t t;
    switch (in->op) {
    case EG_VM_MOV: v_ld(j, r, x); break;
    case EG_VM_FABS: v_op(j, OP_AND, r, in_reg(j, x, 0), kp(c, KP_ABS)); break;
    case EG_VM_FNEG: v_op(j, OP_XOR, r, in_reg(j, x, 0), kp(c, KP_SIGN)); break;
    case EG_VM_FFLOOR:
        if (j_is_quiet(c, in->a)) v_round(j, r, x, 0x9);
        else j_floor(j, c, r, in_reg(j, x, 0));
        break;
    case EG_VM_FFRACT:
        t = in_reg(j, x, 0);
        if (j_is_quiet(c, in->a)) v_round(j, 1, YR(t), 0x9);
        else j_floor(j, c, 1, t);
        v_op(j, OP_SUB, r, t, YR(1));
        break;
    case EG_VM_FSQRT:                  /* eg_vm_sqrtf's NaN -> same NaN, x < 0 -> 0x7fc00000 */
        t = in_reg(j, x, 0);
        vex(j, 1, 0, OP_SQRT, 1, 0, YR(t), -1);
        v_cmp(j, 2, t, YR(t), CMP_NEQ_UQ);
        v_blendv(j, 1, 1, YR(t), 2);
        v_cmp(j, 2, t, kp(c, KP_ZERO), CMP_LT);
        v_blendv(j, r, 1, kp(c, KP_QNAN), 2);
        break;
    case EG_VM_FADD: v_op(j, OP_ADD, r, in_reg(j, x, 0), y); break;
    case EG_VM_FSUB: v_op(j, OP_SUB, r, in_reg(j, x, 0), y); break;
    case EG_VM_FMUL: v_op(j, OP_MUL, r, in_reg(j, x, 0), y); break;
    /* (y < x) ? y : x is MINPS(y, x); (x < y) ? y : x is MAXPS(y, x): NaNs and zeros give x */
    case EG_VM_FMIN: v_op(j, OP_MIN, r, in_reg(j, y, 0), x); break;
    case EG_VM_FMAX: v_op(j, OP_MAX, r, in_reg(j, y, 0), x); break;
    case EG_VM_FLT: case EG_VM_FGT: case EG_VM_FLE: case EG_VM_FGE: {
        int pred = in->op == EG_VM_FLT ? CMP_LT : in->op == EG_VM_FGT ? CMP_GT : in->op == EG_VM_FLE ? CMP_LE : CMP_GE;
        v_cmp(j, 0, in_reg(j, x, 0), y, pred);
        v_op(j, OP_AND, r, 0, kp(c, KP_ONE_I));
        break;
    }
    case EG_VM_IADD: v_paddd(j, r, in_reg(j, x, 0), y); break;
    case EG_VM_FDIV: v_op(j, OP_DIV, r, in_reg(j, x, 0), y); break;
    case EG_VM_FSTEP:                  /* ~(y < x) & 1.0f: ANDNPS is ~first & second */
        v_cmp(j, 0, in_reg(j, y, 0), x, CMP_LT);
        v_op(j, OP_ANDN, r, 0, kp(c, KP_ONE_F));
        break;
    case EG_VM_FEQ: v_cmp(j, 0, in_reg(j, x, 0), y, CMP_EQ); v_op(j, OP_AND, r, 0, kp(c, KP_ONE_I)); break;
    case EG_VM_IEQ: case EG_VM_INE:
        v_pcmpeqd(j, 0, in_reg(j, x, 0), y);
        v_op(j, in->op == EG_VM_IEQ ? OP_AND : OP_ANDN, r, 0, kp(c, KP_ONE_I));
        break;
    case EG_VM_ISUB: vex(j, 1, 1, 0xfa, r, in_reg(j, x, 0), y, -1); break;   /* vpsubd */
    case EG_VM_XOR: v_op(j, OP_XOR, r, in_reg(j, x, 0), y); break;
    case EG_VM_AND: v_op(j, OP_AND, r, in_reg(j, x, 0), y); break;
    case EG_VM_OR: v_op(j, OP_OR, r, in_reg(j, x, 0), y); break;
    case EG_VM_FFMA: v_op(j, OP_MUL, 0, in_reg(j, x, 0), y); v_op(j, OP_ADD, r, 0, z); break;
    case EG_VM_FMIX:                   /* x * (1 - z) + y * z */
        if (in->c >= EG_VM_CONST_BASE) {
            v_op(j, OP_MUL, 1, in_reg(j, x, 0), kp_one_minus(c, in->c));
        } else {
            v_ld(j, 1, kp(c, KP_ONE_F));
            v_op(j, OP_SUB, 1, 1, z);
            v_op(j, OP_MUL, 1, in_reg(j, x, 0), YR(1));
        }
        v_op(j, OP_MUL, 2, in_reg(j, y, 2), z);
        v_op(j, OP_ADD, r, 1, YR(2));
        break;
    case EG_VM_FCLAMP:                 /* min(max(x, y), z) as FMAX then FMIN above */
        v_op(j, OP_MAX, 0, in_reg(j, y, 0), x);
        v_op(j, OP_MIN, r, in_reg(j, z, 1), YR(0));
        break;
    default:                           /* SELECT: x != 0 ? y : z */
        v_pcmpeqd(j, 0, in_reg(j, x, 0), kp(c, KP_ZERO));
        v_blendv(j, r, in_reg(j, y, 1), z, 0);
        break;
    }
}

/* An instruction with a destination: both halves into dst's cache slot, stored through (the
 * whole program: stored only when evicted, and skipped when nothing reads dst later). An
 * interface load reads [base + from]. */
static void j_dst(jb_t *j, jctx_t *c, const eg_vm_inst_t *in, uint32_t base, uint32_t from)
{
    if (c->whole && !live_after(c->p, c->pc, in->dst)) return;
    uint32_t s = cache_take(j, c, in);
    for (uint32_t h = 0; h < (uint32_t)sizeof(eg_soft_reg_t); h += 32u) {
        uint32_t r = slot_ymm(s, h);
        if (in->op == EG_VM_LDBUF) vex(j, 2, 1, 0x18, r, 0, MEM(base, from), -1);   /* vbroadcastss */
        else if (in->op == EG_VM_LD_IN || in->op == EG_VM_LD_SYS) v_ld(j, r, MEM(base, from + h));
        else j_alu_half(j, c, in, h, r);
        if (!c->whole || s >= jit_slots) v_st(j, MEM(R_REGS, in->dst * (uint32_t)sizeof(eg_soft_reg_t) + h), r);
    }
    if (s < jit_slots) { c->slot_reg[s] = in->dst; c->slot_age[s] = ++c->clock; c->slot_dirty[s] = c->whole; }
}

/* The register holding the invocation: the whole program gets it as its second argument,
 * a run loads st->inv into rax. */
static uint32_t j_inv(jb_t *j, const jctx_t *c)
{
    if (c->whole) return R_ST;
    g_load(j, R_ST, (uint32_t)offsetof(eg_vm_state_t, inv), true);
    return R_AX;
}

/* Interface moves (the threaded th_ld_in, th_ld_pos, th_st_out[_k]). */
static void j_io(jb_t *j, jctx_t *c, const eg_vm_inst_t *in, uint32_t pc)
{
    const uint32_t reg_B = (uint32_t)sizeof(eg_soft_reg_t);
    if (in->op == EG_VM_ST_OUT || in->op == EG_VM_ST_POS) {
        /* a partial mask merges: the switch interpreter stores this one (commit); the whole
         * program runs only with every lane active. ST_POS: gl_Position's component imm, in
         * the invocation itself (th_st_pos). */
        if (!c->whole) {
            g_load(j, R_ST, (uint32_t)offsetof(eg_vm_state_t, exec), false);
            put(j, 0x3d);              /* cmp eax, imm32 */
            put32(j, EG_SOFT_ALL_LANES);
            put(j, 0x74);              /* je over the exit (vzeroupper, mov, ret: 9 bytes) */
            put(j, 9);
            g_return(j, pc);
        }
        uint32_t base = j_inv(j, c), to = (uint32_t)offsetof(eg_soft_invocation_t, position) + in->imm * reg_B;
        if (in->op == EG_VM_ST_OUT) {
            g_load(j, base, (uint32_t)offsetof(eg_soft_invocation_t, out), true);
            base = R_AX;
            to = (in->imm >> 2) * (uint32_t)sizeof(eg_soft_vec4_t) + (in->imm & 3u) * reg_B;
        }
        for (uint32_t h = 0; h < reg_B; h += 32u) v_st(j, MEM(base, to + h), in_reg(j, src(c, in->a, h), 0));
        if (!c->whole) cache_clear(c);   /* the next instruction is an entry */
        return;
    }
    if (c->whole && !live_after(c->p, c->pc, in->dst)) return;
    uint32_t base = j_inv(j, c);
    uint32_t from = (uint32_t)offsetof(eg_soft_invocation_t, position) + (in->imm - EG_VM_SYS_FRAG_COORD) * reg_B;
    if (in->op == EG_VM_LD_IN) {
        g_load(j, base, (uint32_t)offsetof(eg_soft_invocation_t, in), true);
        base = R_AX;
        from = (in->imm >> 2) * (uint32_t)sizeof(eg_soft_vec4_t) + (in->imm & 3u) * reg_B;
    }
    j_dst(j, c, in, base, from);
}

/* Emits every run; entry (NULL in the sizing pass) gets the code offset of each pc where the
 * code may be entered. */
static void j_program(jb_t *j, jctx_t *c, uint32_t *entry)
{
    const eg_soft_program_t *p = c->p;
    bool open = false;
    cache_clear(c);
    c->clock = 0;
    for (uint32_t pc = 0; pc < p->code_count; pc++) {
        const eg_vm_inst_t *in = &p->code[pc];
        bool io = in->op == EG_VM_ST_OUT || in->op == EG_VM_ST_POS || in->op == EG_VM_LD_IN || in->op == EG_VM_LD_SYS;
        if (in->op == EG_VM_BLOCK) {   /* (the switch runs it where the threaded code stops) */
            cache_clear(c);            /* both this pc and the next are entries */
            if (entry) entry[pc] = j->pos;
            j_block(j, in, pc);
            open = true;
            continue;
        }
        /* (io and j_alu_op cover what the threaded decoder threads: checked, not assumed) */
        if (!eg_vm_thread_covers(p, pc) || (!io && !j_alu_op(in->op))) {
            if (open) g_return(j, pc);
            open = false;
            cache_clear(c);
            continue;
        }
        if (entry && cache_empty(c)) entry[pc] = j->pos;
        c->pc = pc;
        if (io) j_io(j, c, in, pc); else j_dst(j, c, in, R_AX, 0);
        open = true;
    }
    if (open) g_return(j, p->code_count);
}

/* A uniform load the whole program translates (vertex programs only: they run through
 * eg_soft_program_run, which writes the words first; the fragment paths call the whole function
 * without it): LDBUF at a fixed address, one word for every lane (memory_op's `!dyn` load),
 * broadcast from byte 4 k of regs[reg_count] (k: its place among them). The uniforms of a draw
 * are fixed, so each word is read and range-checked once per 16 vertices instead of through the
 * switch interpreter with the runs around it split (~1,400 instructions a UI run of 16). */
static bool whole_ld(const eg_soft_program_t *p, const eg_vm_inst_t *in)
{
    return p->info.stage == EG_SHADER_STAGE_VERTEX && in->op == EG_VM_LDBUF && in->a == EG_VM_NONE &&
           in->dst < EG_VM_CONST_BASE && in->d < p->slot_count;
}

/* True when p is instructions the runs translate with one BLOCK 0 among them (the compiler
 * hoists interface loads above it), then END: one straight function from the interpreter's
 * entry to END (what BLOCK, END, eg_vm_run's entry and eg_soft_program_run's set-up cost
 * otherwise: ~140 instructions a block on the ALU bench). */
static bool whole_ok(const eg_soft_program_t *p)
{
    uint32_t n = p->code_count, blocks = 0, lds = 0;
    if (n < 2u || p->code[n - 1u].op != EG_VM_END) return false;
    for (uint32_t pc = 0; pc + 1u < n; pc++) {
        uint32_t op = p->code[pc].op;
        bool io = op == EG_VM_ST_OUT || op == EG_VM_ST_POS || op == EG_VM_LD_IN || op == EG_VM_LD_SYS;
        if (op == EG_VM_BLOCK && p->code[pc].imm == 0) { blocks++; continue; }
        if (whole_ld(p, &p->code[pc])) { lds++; continue; }
        if (!eg_vm_thread_covers(p, pc) || (!io && !j_alu_op(op))) return false;
    }
    return blocks == 1u && lds <= EG_VM_JIT_LDS && (lds == 0u || (p->reg_count < EMGPU_SOFT_VM_MAX_REGS && n <= 0x10000u));
}

/* The whole program for 16 active lanes (eg_vm_jit_whole_fn_t): the lanes before BLOCK 0 are
 * the active ones, BLOCK 0 then takes them all again (pending[0] = alive = active), every
 * store is unmasked and nothing is killed, so no test or exit is needed. */
static void j_whole_body(jb_t *j, jctx_t *c)
{
    c->whole = true;
    cache_clear(c);
    c->clock = 0;
    eg_memset(c->quiet, 0, sizeof c->quiet);
    c->ld_k = 0;
    for (uint32_t pc = 0; pc + 1u < c->p->code_count; pc++) {
        const eg_vm_inst_t *in = &c->p->code[pc];
        c->pc = pc;
        if (in->op == EG_VM_BLOCK) continue;
        if (whole_ld(c->p, in))
            j_dst(j, c, in, R_REGS, c->p->reg_count * (uint32_t)sizeof(eg_soft_reg_t) + 4u * c->ld_k++);
        else if (in->op == EG_VM_ST_OUT || in->op == EG_VM_ST_POS || in->op == EG_VM_LD_IN || in->op == EG_VM_LD_SYS)
            j_io(j, c, in, pc);
        else j_dst(j, c, in, R_AX, 0);
        j_quiet(c, in);
    }
    c->whole = false;
}

static void j_whole(jb_t *j, jctx_t *c)
{
    j_whole_body(j, c);
    vzeroupper(j);
    put(j, 0xc3);                      /* ret */
}

#ifndef _WIN32
/* ROWS (eg_vm_jit_rows_fn_t; System V only: rdx holds the third argument, r8-r11 and rcx are
 * free). The whole program's code per block (it starts from nothing cached, so the loop's
 * back edge needs no state), then pk_unorm8_8's operations per byte k on out[0]'s component
 * for that byte in RGBA or BGRA order: MAXPS(v, 0), MINPS(v, 1), times 255, + 0.5, truncating
 * conversion, << 8k, OR (a component whose last store is a constant: its bytes packed at build
 * time, rows_const_word); the two rows of each 8-lane half stored with VEXTRACTI128. r8-r11 =
 * the row pointers, ecx = blocks left. */
enum { R_CX = 1, R_DX = 2, R_R8 = 8 };
static void g_load_r(jb_t *j, uint32_t r, uint32_t base, uint32_t disp, bool wide)   /* mov r, [base + disp] */
{
    put(j, (wide ? 0x48u : 0x40u) | (r >> 3 & 1u) << 2 | (base >> 3 & 1u));
    put(j, 0x8b);
    modrm(j, r, MEM(base, disp), 0);
}
/* The component out[0].c[comp] as the program leaves it: constant (its bits in *k) when its last
 * store is of a constant. */
static bool out_const(const eg_soft_program_t *p, uint32_t comp, uint32_t *k)
{
    for (uint32_t pc = p->code_count; pc-- > 0;) {
        const eg_vm_inst_t *in = &p->code[pc];
        if (in->op != EG_VM_ST_OUT || in->imm != comp) continue;
        if (in->a < EG_VM_CONST_BASE) return false;
        *k = p->consts[in->a - EG_VM_CONST_BASE].u[0];
        return true;
    }
    return false;
}

/* The packed bytes of the constant components (pk_unorm8_8's operations on one value: NaN and
 * -0 fail v > 0), and which components those are. */
static uint32_t rows_const_word(const eg_soft_program_t *p, bool bgra, uint32_t *const_comps)
{
    static const uint8_t order[2][4] = { { 0, 1, 2, 3 }, { 2, 1, 0, 3 } };
    uint32_t w = 0;
    *const_comps = 0;
    for (uint32_t k = 0; k < 4u; k++) {
        union { float f; uint32_t u; } v;
        if (!out_const(p, order[bgra][k], &v.u)) continue;
        float x = v.f > 0.0f ? v.f : 0.0f;
        x = x < 1.0f ? x : 1.0f;
        w |= (uint32_t)(int32_t)(x * 255.0f + 0.5f) << (8u * k);
        *const_comps |= 1u << order[bgra][k];
    }
    return w;
}

/* Then the rows functions' packed constant components, RGBA and BGRA (rows_const_word). */
static jop_t kp_rows_word(const jctx_t *c, bool bgra) { return kp(c, KP_COUNT + 2u * c->p->const_count + bgra); }

static void j_rows(jb_t *j, jctx_t *c, bool bgra)
{
    static const uint8_t order[2][4] = { { 0, 1, 2, 3 }, { 2, 1, 0, 3 } };
    const uint32_t rows_at = (uint32_t)offsetof(eg_vm_jit_rows_t, row);
    const uint32_t x_at = (uint32_t)offsetof(eg_soft_invocation_t, position);
    uint32_t consts;
    (void)rows_const_word(c->p, bgra, &consts);
    for (uint32_t r = 0; r < 4u; r++) g_load_r(j, R_R8 + r, R_DX, rows_at + 8u * r, true);
    g_load_r(j, R_CX, R_DX, (uint32_t)offsetof(eg_vm_jit_rows_t, n), false);
    uint32_t top = j->pos;
    j_whole_body(j, c);
    g_load(j, R_ST, (uint32_t)offsetof(eg_soft_invocation_t, out), true);        /* rax = out */
    for (uint32_t h = 0; h < 64u; h += 32u) {
        bool first = true;
        for (uint32_t k = 0; k < 4u; k++) {
            uint32_t comp = order[bgra][k], r = first ? 3u : 0u;
            if (consts >> comp & 1u) continue;                                   /* (the pool's word) */
            v_ld(j, r, MEM(R_AX, comp * (uint32_t)sizeof(eg_soft_reg_t) + h));
            v_op(j, OP_MAX, r, r, kp(c, KP_ZERO));
            v_op(j, OP_MIN, r, r, kp(c, KP_ONE_F));
            v_op(j, OP_MUL, r, r, kp(c, KP_255));
            v_op(j, OP_ADD, r, r, kp(c, KP_HALF));
            vex(j, 1, 2, 0x5b, r, 0, YR(r), -1);                                 /* vcvttps2dq */
            if (k) vex(j, 1, 1, 0x72, 6, r, YR(r), (int)(8u * k));               /* vpslld r, 8k */
            if (!first) vex(j, 1, 1, 0xeb, 3, 3, YR(0), -1);                     /* vpor ymm3, ymm0 */
            first = false;
        }
        if (consts && first) v_ld(j, 3, kp_rows_word(c, bgra));
        else if (consts) vex(j, 1, 1, 0xeb, 3, 3, kp_rows_word(c, bgra), -1);
        for (uint32_t half = 0; half < 2u; half++)                               /* vextracti128 [row], ymm3 */
            vex(j, 3, 1, 0x39, 3, 0, MEM(R_R8 + h / 16u + half, 0), (int)half);
    }
    for (uint32_t r = 0; r < 4u; r++) {                                          /* add r8 + r, 16 */
        put(j, 0x49); put(j, 0x83); put(j, 0xc0u | r); put(j, 16);
    }
    for (uint32_t h = 0; h < 64u; h += 32u) {                                    /* FragCoord.x += 4 */
        v_ld(j, 0, MEM(R_ST, x_at + h));
        v_op(j, OP_ADD, 0, 0, kp(c, KP_FOUR));
        v_st(j, MEM(R_ST, x_at + h), 0);
    }
    put(j, 0xff); put(j, 0xc9);                                                  /* dec ecx */
    put(j, 0x0f); put(j, 0x85); put32(j, (uint32_t)((int32_t)top - (int32_t)(j->pos + 4u)));   /* jnz top */
    vzeroupper(j);
    put(j, 0xc3);
}
#endif

bool eg_vm_jit_available(void)
{
    static int avail = -1;
    if (avail < 0) {
        __builtin_cpu_init();
        avail = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return avail == 1;
}

bool eg_vm_jit_build(eg_soft_program_t *p)
{
    p->jit = NULL;
    p->jit_B = 0;
    p->jit_whole_at = 0;
    p->jit_rows_at[0] = p->jit_rows_at[1] = 0;
    p->jit_ld_count = 0;
    if (!p->thread || !eg_vm_jit_available()) return false;
    uint32_t covered = 0;
    for (uint32_t pc = 0; pc < p->code_count; pc++) covered += eg_vm_thread_covers(p, pc);
    if (!covered) return false;
    static jctx_t c;                   /* pipeline creation is single-threaded */
    c.p = p;
    c.pool_at = EG_ALIGN_UP(p->code_count * 4u, 32u);
    uint32_t code_at = c.pool_at + (KP_COUNT + 2u * p->const_count + 2u) * 32u;
    jb_t j = { NULL, code_at, 0 };
    bool whole = whole_ok(p);
    uint32_t lds = 0;
    for (uint32_t pc = 0; whole && pc < p->code_count; pc++)
        if (whole_ld(p, &p->code[pc])) p->jit_ld_pc[lds++] = (uint16_t)pc;
    bool rows = whole && lds == 0u;   /* (the fragment paths: no uniform words there) */
    (void)rows;
    j_program(&j, &c, NULL);
    uint32_t whole_at = j.pos, rows_at[2] = { 0, 0 };
    if (whole) j_whole(&j, &c);
#ifndef _WIN32
    for (uint32_t o = 0; rows && o < 2u; o++) { rows_at[o] = j.pos; j_rows(&j, &c, o == 1u); }
#endif
    size_t size_B = EG_ALIGN_UP((size_t)j.pos, (size_t)JIT_PAGE_B);
    uint8_t *mem = eg_vm_jit_arena_alloc(size_B);
    if (!mem) { eg_vm_jit_arena_unmap_if_empty(); return false; }
    if (!eg_port_exec_protect(mem, size_B, true)) { eg_vm_jit_arena_free(mem, size_B); return false; }
    eg_memset(mem, 0xcc, size_B);      /* int3 between runs */
    uint32_t *entry = (uint32_t *)(void *)mem;
    eg_memset(entry, 0, (size_t)p->code_count * 4u);
    uint32_t *pool = (uint32_t *)(void *)(mem + c.pool_at);
    for (uint32_t k = 0; k < KP_COUNT + p->const_count; k++)
        for (uint32_t l = 0; l < 8u; l++)
            pool[k * 8u + l] = k < KP_COUNT ? kp_bits[k] : p->consts[k - KP_COUNT].u[0];
    for (uint32_t k = 0; k < p->const_count; k++) {   /* kp_one_minus */
        union { float f; uint32_t u; } z = { .u = p->consts[k].u[0] };
        z.f = 1.0f - z.f;
        for (uint32_t l = 0; l < 8u; l++) pool[(KP_COUNT + p->const_count + k) * 8u + l] = z.u;
    }
#ifndef _WIN32
    for (uint32_t o = 0; o < 2u; o++) {   /* kp_rows_word */
        uint32_t consts, w = rows_const_word(p, o == 1u, &consts);
        for (uint32_t l = 0; l < 8u; l++) pool[(KP_COUNT + 2u * p->const_count + o) * 8u + l] = w;
    }
#endif
    j = (jb_t){ mem, code_at, (uint32_t)size_B };
    j_program(&j, &c, entry);
    if (whole) j_whole(&j, &c);
#ifndef _WIN32
    for (uint32_t o = 0; rows && o < 2u; o++) j_rows(&j, &c, o == 1u);
#endif
    if (!eg_port_exec_protect(mem, size_B, false)) { eg_vm_jit_arena_free(mem, size_B); return false; }
    p->jit = mem;
    p->jit_B = (uint32_t)size_B;
    p->jit_whole_at = whole ? whole_at : 0u;
    p->jit_ld_count = lds;
    p->jit_rows_at[0] = rows_at[0];
    p->jit_rows_at[1] = rows_at[1];
    return true;
}

void eg_vm_jit_free(eg_soft_program_t *p)
{
    if (!p->jit) return;
    eg_vm_jit_arena_free((uint8_t *)(uintptr_t)p->jit, p->jit_B);
    p->jit = NULL;
    p->jit_B = 0;
    p->jit_whole_at = 0;
    p->jit_ld_count = 0;
    p->jit_rows_at[0] = p->jit_rows_at[1] = 0;
}

#else /* no JIT in this build */

bool eg_vm_jit_available(void) { return false; }
bool eg_vm_jit_build(eg_soft_program_t *p) { eg_vm_jit_free(p); return false; }
void eg_vm_jit_free(eg_soft_program_t *p)
{
    p->jit = NULL;
    p->jit_B = p->jit_whole_at = p->jit_rows_at[0] = p->jit_rows_at[1] = p->jit_ld_count = 0;
}

#endif

#endif /* EMGPU_HAL_SOFT */
