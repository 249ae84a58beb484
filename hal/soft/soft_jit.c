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

#define JIT_PAGE_B 4096u
#define JIT_MAX_PAGES (EMGPU_SOFT_JIT_ARENA_B / JIT_PAGE_B)
#if EMGPU_SOFT_JIT_ARENA_B % 4096 != 0 || EMGPU_SOFT_JIT_ARENA_B < 4096
#error "EMGPU_SOFT_JIT_ARENA_B must be a positive multiple of 4096"
#endif

/* ---- the code arena: pages handed out first-fit, a bit per page ---- */

static struct {
    uint8_t *base;
    size_t size_B;                     /* mapped bytes */
    size_t test_B;                     /* eg_vm_jit_test_arena_B */
    uint32_t live_pages;
    bool logged;
    uint32_t used[(JIT_MAX_PAGES + 31u) / 32u];
} A;

static bool page_used(uint32_t i) { return A.used[i / 32u] >> (i % 32u) & 1u; }
static void page_set(uint32_t i, bool on)
{
    if (on) A.used[i / 32u] |= 1u << (i % 32u); else A.used[i / 32u] &= ~(1u << (i % 32u));
}

static void arena_log(const char *why, size_t need_B)
{
    if (A.logged) return;
    A.logged = true;
    eg_log(EG_LOG_WARN, "soft JIT: %s (a shader needs %u bytes, EMGPU_SOFT_JIT_ARENA_B = %u bytes): "
           "shaders that do not fit run on the threaded interpreter (same results, slower)",
           why, (unsigned)need_B, (unsigned)(A.test_B ? A.test_B : (size_t)EMGPU_SOFT_JIT_ARENA_B));
}

/* Pages for size_B bytes (a multiple of the page), mapped on first use; NULL when full. */
static uint8_t *arena_alloc(size_t size_B)
{
    if (!A.base) {
        size_t want_B = A.test_B ? A.test_B : (size_t)EMGPU_SOFT_JIT_ARENA_B;
        A.base = eg_port_exec_map(want_B);
        if (!A.base) { arena_log("the port has no executable memory", size_B); return NULL; }
        A.size_B = want_B;
    }
    uint32_t pages = (uint32_t)(A.size_B / JIT_PAGE_B), n = (uint32_t)(size_B / JIT_PAGE_B);
    for (uint32_t at = 0; at + n <= pages; at++) {
        uint32_t k = 0;
        while (k < n && !page_used(at + k)) k++;
        if (k < n) { at += k; continue; }
        for (k = 0; k < n; k++) page_set(at + k, true);
        A.live_pages += n;
        return A.base + (size_t)at * JIT_PAGE_B;
    }
    arena_log("the code arena is full", size_B);
    return NULL;
}

/* The arena is unmapped whenever no code is left (the last pipeline destroyed, device teardown). */
static void arena_unmap_if_empty(void)
{
    if (A.live_pages || !A.base) return;
    eg_port_exec_unmap(A.base, A.size_B);
    A.base = NULL;
    A.size_B = 0;
}

static void arena_free(uint8_t *p, size_t size_B)
{
    uint32_t at = (uint32_t)((size_t)(p - A.base) / JIT_PAGE_B), n = (uint32_t)(size_B / JIT_PAGE_B);
    for (uint32_t k = 0; k < n; k++) page_set(at + k, false);
    A.live_pages -= n;
    arena_unmap_if_empty();
}

void eg_vm_jit_test_arena_B(size_t arena_B)
{
    size_t max_B = (size_t)EMGPU_SOFT_JIT_ARENA_B;
    A.test_B = arena_B > max_B ? max_B : arena_B & ~(size_t)(JIT_PAGE_B - 1u);
    A.logged = false;
}

uint32_t eg_vm_jit_pages_used(void) { return A.live_pages; }

/* ---- the encoder: the VEX forms the handlers need, memory operands [base + disp] or RIP ---- */

typedef struct jb {
    uint8_t *buf;                      /* NULL: only count (the sizing pass) */
    uint32_t pos, cap;                 /* offsets from the allocation's start */
} jb_t;

enum { JK_Y, JK_M, JK_RIP };
typedef struct jop {
    uint8_t k;                         /* JK_* */
    uint8_t r;                         /* ymm number or base register */
    int32_t disp;                      /* displacement, or (RIP) the target's offset */
} jop_t;

/* The argument registers hold regs and st for the whole run (both are caller-saved, so the
 * code needs no prologue and any instruction's code is an entry); rax is the scratch. */
#ifdef _WIN32
enum { R_AX = 0, R_REGS = 1 /* rcx */, R_ST = 2 /* rdx */ };
#else
enum { R_AX = 0, R_REGS = 7 /* rdi */, R_ST = 6 /* rsi */ };
#endif

static jop_t YR(uint32_t r) { return (jop_t){ JK_Y, (uint8_t)r, 0 }; }
static jop_t MEM(uint32_t base, uint32_t disp) { return (jop_t){ JK_M, (uint8_t)base, (int32_t)disp }; }
static jop_t RIP(uint32_t target) { return (jop_t){ JK_RIP, 0, (int32_t)target }; }

static void put(jb_t *j, uint32_t b)
{
    if (j->buf && j->pos < j->cap) j->buf[j->pos] = (uint8_t)b;
    j->pos++;
}
static void put32(jb_t *j, uint32_t v)
{
    for (uint32_t i = 0; i < 4; i++) put(j, v >> (8u * i));
}

/* ModRM (+ displacement) for reg and operand m; imm_n bytes follow (RIP is relative to the end). */
static void modrm(jb_t *j, uint32_t reg, jop_t m, uint32_t imm_n)
{
    if (m.k == JK_Y) { put(j, 0xc0u | (reg & 7u) << 3 | (m.r & 7u)); return; }
    if (m.k == JK_RIP) {
        put(j, (reg & 7u) << 3 | 5u);
        put32(j, (uint32_t)(m.disp - (int32_t)(j->pos + 4u + imm_n)));
        return;
    }
    if (m.disp >= -128 && m.disp < 128) {
        put(j, 0x40u | (reg & 7u) << 3 | (m.r & 7u));
        put(j, (uint32_t)m.disp);
    } else {
        put(j, 0x80u | (reg & 7u) << 3 | (m.r & 7u));
        put32(j, (uint32_t)m.disp);
    }
}

/* A 256-bit VEX instruction (3-byte prefix, W0): opcode map (1: 0F, 2: 0F38, 3: 0F3A), pp
 * (0: none, 1: 66), ModRM.reg = r, VEX.vvvv = v, ModRM.rm = m, then imm (< 0: none). */
static void vex(jb_t *j, uint32_t map, uint32_t pp, uint32_t opc, uint32_t r, uint32_t v, jop_t m, int imm)
{
    uint32_t b = m.k == JK_RIP ? 0u : m.r;
    put(j, 0xc4u);
    put(j, (~r >> 3 & 1u) << 7 | 1u << 6 | (~b >> 3 & 1u) << 5 | map);
    put(j, (~v & 15u) << 3 | 1u << 2 | pp);
    put(j, opc);
    modrm(j, r, m, imm >= 0 ? 1u : 0u);
    if (imm >= 0) put(j, (uint32_t)imm);
}

enum {                                 /* map 1, no prefix: packed single */
    OP_SQRT = 0x51, OP_AND = 0x54, OP_OR = 0x56, OP_XOR = 0x57, OP_ADD = 0x58, OP_MUL = 0x59,
    OP_SUB = 0x5c, OP_MIN = 0x5d, OP_MAX = 0x5f
};
enum { CMP_LT = 1, CMP_LE = 2, CMP_NEQ_UQ = 4, CMP_GE = 13, CMP_GT = 14 };   /* ordered, signalling */

static void v_ld(jb_t *j, uint32_t r, jop_t m) { vex(j, 1, 0, 0x10, r, 0, m, -1); }      /* vmovups */
static void v_st(jb_t *j, jop_t m, uint32_t r) { vex(j, 1, 0, 0x11, r, 0, m, -1); }
static void v_op(jb_t *j, uint32_t opc, uint32_t d, uint32_t s, jop_t m) { vex(j, 1, 0, opc, d, s, m, -1); }
static void v_cmp(jb_t *j, uint32_t d, uint32_t s, jop_t m, int pred) { vex(j, 1, 0, 0xc2, d, s, m, pred); }
static void v_paddd(jb_t *j, uint32_t d, uint32_t s, jop_t m) { vex(j, 1, 1, 0xfe, d, s, m, -1); }
static void v_pcmpeqd(jb_t *j, uint32_t d, uint32_t s, jop_t m) { vex(j, 1, 1, 0x76, d, s, m, -1); }
static void v_round(jb_t *j, uint32_t d, jop_t m, int mode) { vex(j, 3, 1, 0x08, d, 0, m, mode); }
/* d = mask's sign bit ? m : s (vblendvps; the masks here are all-ones or zero per lane) */
static void v_blendv(jb_t *j, uint32_t d, uint32_t s, jop_t m, uint32_t mask)
{
    vex(j, 3, 1, 0x4a, d, s, m, (int)(mask << 4));
}
static void vzeroupper(jb_t *j) { put(j, 0xc5); put(j, 0xf8); put(j, 0x77); }

/* mov rax, [base + disp] (64-bit) or, !wide, mov eax, [base + disp] (bases below r8) */
static void g_load(jb_t *j, uint32_t base, uint32_t disp, bool wide)
{
    if (wide) put(j, 0x48);
    put(j, 0x8b);
    modrm(j, R_AX, MEM(base, disp), 0);
}
/* Leaves the run: pc to the switch interpreter (vzeroupper: no AVX-SSE transition penalty there). */
static void g_return(jb_t *j, uint32_t pc)
{
    vzeroupper(j);
    put(j, 0xb8);                      /* mov eax, imm32 */
    put32(j, pc);
    put(j, 0xc3);                      /* ret */
}

/* A forward short jump (cc: 0x74 je, 0x75 jne, 0xeb jmp); returns where to patch_jump. */
static uint32_t jump8(jb_t *j, uint32_t cc)
{
    put(j, cc);
    put(j, 0);
    return j->pos;
}
static void patch_jump(jb_t *j, uint32_t from)
{
    if (j->buf) j->buf[from - 1u] = (uint8_t)(j->pos - from);
}

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
enum { KP_ABS, KP_SIGN, KP_TWO23, KP_ONE_I, KP_ONE_F, KP_ZERO, KP_QNAN, KP_COUNT };
static const uint32_t kp_bits[KP_COUNT] = { 0x7fffffffu, 0x80000000u, 0x4b000000u, 1u, 0x3f800000u, 0u, 0x7fc00000u };

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
    case EG_VM_FFMA: case EG_VM_FMIX: case EG_VM_FCLAMP: case EG_VM_SELECT: return true;
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
    case EG_VM_FFLOOR: j_floor(j, c, r, in_reg(j, x, 0)); break;
    case EG_VM_FFRACT: t = in_reg(j, x, 0); j_floor(j, c, 1, t); v_op(j, OP_SUB, r, t, YR(1)); break;
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
    case EG_VM_AND: v_op(j, OP_AND, r, in_reg(j, x, 0), y); break;
    case EG_VM_OR: v_op(j, OP_OR, r, in_reg(j, x, 0), y); break;
    case EG_VM_FFMA: v_op(j, OP_MUL, 0, in_reg(j, x, 0), y); v_op(j, OP_ADD, r, 0, z); break;
    case EG_VM_FMIX:                   /* x * (1 - z) + y * z */
        v_ld(j, 1, kp(c, KP_ONE_F));
        v_op(j, OP_SUB, 1, 1, z);
        v_op(j, OP_MUL, 1, in_reg(j, x, 0), YR(1));
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
        if (in->op == EG_VM_LD_IN || in->op == EG_VM_LD_SYS) v_ld(j, r, MEM(base, from + h));
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
    if (in->op == EG_VM_ST_OUT) {
        /* a partial mask merges: the switch interpreter stores this one (commit); the whole
         * program runs only with every lane active */
        if (!c->whole) {
            g_load(j, R_ST, (uint32_t)offsetof(eg_vm_state_t, exec), false);
            put(j, 0x3d);              /* cmp eax, imm32 */
            put32(j, EG_SOFT_ALL_LANES);
            put(j, 0x74);              /* je over the exit (vzeroupper, mov, ret: 9 bytes) */
            put(j, 9);
            g_return(j, pc);
        }
        g_load(j, j_inv(j, c), (uint32_t)offsetof(eg_soft_invocation_t, out), true);
        uint32_t to = (in->imm >> 2) * (uint32_t)sizeof(eg_soft_vec4_t) + (in->imm & 3u) * reg_B;
        for (uint32_t h = 0; h < reg_B; h += 32u) v_st(j, MEM(R_AX, to + h), in_reg(j, src(c, in->a, h), 0));
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
        bool io = in->op == EG_VM_ST_OUT || in->op == EG_VM_LD_IN || in->op == EG_VM_LD_SYS;
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

/* True when p is instructions the runs translate with one BLOCK 0 among them (the compiler
 * hoists interface loads above it), then END: one straight function from the interpreter's
 * entry to END (what BLOCK, END, eg_vm_run's entry and eg_soft_program_run's set-up cost
 * otherwise: ~140 instructions a block on the ALU bench). */
static bool whole_ok(const eg_soft_program_t *p)
{
    uint32_t n = p->code_count, blocks = 0;
    if (n < 2u || p->code[n - 1u].op != EG_VM_END) return false;
    for (uint32_t pc = 0; pc + 1u < n; pc++) {
        uint32_t op = p->code[pc].op;
        bool io = op == EG_VM_ST_OUT || op == EG_VM_LD_IN || op == EG_VM_LD_SYS;
        if (op == EG_VM_BLOCK && p->code[pc].imm == 0) { blocks++; continue; }
        if (!eg_vm_thread_covers(p, pc) || (!io && !j_alu_op(op))) return false;
    }
    return blocks == 1u;
}

/* The whole program for 16 active lanes (eg_vm_jit_whole_fn_t): the lanes before BLOCK 0 are
 * the active ones, BLOCK 0 then takes them all again (pending[0] = alive = active), every
 * store is unmasked and nothing is killed, so no test or exit is needed. */
static void j_whole(jb_t *j, jctx_t *c)
{
    c->whole = true;
    cache_clear(c);
    c->clock = 0;
    for (uint32_t pc = 0; pc + 1u < c->p->code_count; pc++) {
        const eg_vm_inst_t *in = &c->p->code[pc];
        c->pc = pc;
        if (in->op == EG_VM_BLOCK) continue;
        if (in->op == EG_VM_ST_OUT || in->op == EG_VM_LD_IN || in->op == EG_VM_LD_SYS) j_io(j, c, in, pc);
        else j_dst(j, c, in, R_AX, 0);
    }
    vzeroupper(j);
    put(j, 0xc3);                      /* ret */
    c->whole = false;
}

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
    if (!p->thread || !eg_vm_jit_available()) return false;
    uint32_t covered = 0;
    for (uint32_t pc = 0; pc < p->code_count; pc++) covered += eg_vm_thread_covers(p, pc);
    if (!covered) return false;
    static jctx_t c;                   /* pipeline creation is single-threaded */
    c.p = p;
    c.pool_at = EG_ALIGN_UP(p->code_count * 4u, 32u);
    uint32_t code_at = c.pool_at + (KP_COUNT + p->const_count) * 32u;
    jb_t j = { NULL, code_at, 0 };
    bool whole = whole_ok(p);
    j_program(&j, &c, NULL);
    uint32_t whole_at = j.pos;
    if (whole) j_whole(&j, &c);
    size_t size_B = EG_ALIGN_UP((size_t)j.pos, (size_t)JIT_PAGE_B);
    uint8_t *mem = arena_alloc(size_B);
    if (!mem) { arena_unmap_if_empty(); return false; }
    if (!eg_port_exec_protect(mem, size_B, true)) { arena_free(mem, size_B); return false; }
    eg_memset(mem, 0xcc, size_B);      /* int3 between runs */
    uint32_t *entry = (uint32_t *)(void *)mem;
    eg_memset(entry, 0, (size_t)p->code_count * 4u);
    uint32_t *pool = (uint32_t *)(void *)(mem + c.pool_at);
    for (uint32_t k = 0; k < KP_COUNT + p->const_count; k++)
        for (uint32_t l = 0; l < 8u; l++)
            pool[k * 8u + l] = k < KP_COUNT ? kp_bits[k] : p->consts[k - KP_COUNT].u[0];
    j = (jb_t){ mem, code_at, (uint32_t)size_B };
    j_program(&j, &c, entry);
    if (whole) j_whole(&j, &c);
    if (!eg_port_exec_protect(mem, size_B, false)) { arena_free(mem, size_B); return false; }
    p->jit = mem;
    p->jit_B = (uint32_t)size_B;
    p->jit_whole_at = whole ? whole_at : 0u;
    return true;
}

void eg_vm_jit_free(eg_soft_program_t *p)
{
    if (!p->jit) return;
    arena_free((uint8_t *)(uintptr_t)p->jit, p->jit_B);
    p->jit = NULL;
    p->jit_B = 0;
    p->jit_whole_at = 0;
}

#else /* no JIT in this build */

bool eg_vm_jit_available(void) { return false; }
bool eg_vm_jit_build(eg_soft_program_t *p) { p->jit = NULL; p->jit_B = 0; p->jit_whole_at = 0; return false; }
void eg_vm_jit_free(eg_soft_program_t *p) { p->jit = NULL; p->jit_B = 0; p->jit_whole_at = 0; }
void eg_vm_jit_test_arena_B(size_t arena_B) { (void)arena_B; }
uint32_t eg_vm_jit_pages_used(void) { return 0; }

#endif

#endif /* EMGPU_HAL_SOFT */
