/* hal/soft JIT: the x86-64 encoder soft_jit.c writes with (the few VEX forms the VM handlers
 * need, memory operands [base + disp] or RIP-relative). Included by soft_jit.c only, inside its
 * x86-64 + GCC/Clang guard; everything here is static inline. Split out of soft_jit.c so the
 * translation there reads without the byte-level encoding. */
#ifndef EG_SOFT_JIT_X64_H
#define EG_SOFT_JIT_X64_H

#include <stdbool.h>
#include <stdint.h>

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

static inline jop_t YR(uint32_t r) { return (jop_t){ JK_Y, (uint8_t)r, 0 }; }
static inline jop_t MEM(uint32_t base, uint32_t disp) { return (jop_t){ JK_M, (uint8_t)base, (int32_t)disp }; }
static inline jop_t RIP(uint32_t target) { return (jop_t){ JK_RIP, 0, (int32_t)target }; }

static inline void put(jb_t *j, uint32_t b)
{
    if (j->buf && j->pos < j->cap) j->buf[j->pos] = (uint8_t)b;
    j->pos++;
}
static inline void put32(jb_t *j, uint32_t v)
{
    for (uint32_t i = 0; i < 4; i++) put(j, v >> (8u * i));
}

/* ModRM (+ displacement) for reg and operand m; imm_n bytes follow (RIP is relative to the end). */
static inline void modrm(jb_t *j, uint32_t reg, jop_t m, uint32_t imm_n)
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
static inline void vex(jb_t *j, uint32_t map, uint32_t pp, uint32_t opc, uint32_t r, uint32_t v, jop_t m, int imm)
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
    OP_SQRT = 0x51, OP_AND = 0x54, OP_ANDN = 0x55, OP_OR = 0x56, OP_XOR = 0x57, OP_ADD = 0x58, OP_MUL = 0x59,
    OP_SUB = 0x5c, OP_MIN = 0x5d, OP_DIV = 0x5e, OP_MAX = 0x5f
};
enum { CMP_EQ = 0, CMP_LT = 1, CMP_LE = 2, CMP_NEQ_UQ = 4, CMP_GE = 13, CMP_GT = 14 };   /* (EQ_OQ) ordered */

static inline void v_ld(jb_t *j, uint32_t r, jop_t m) { vex(j, 1, 0, 0x10, r, 0, m, -1); }      /* vmovups */
static inline void v_st(jb_t *j, jop_t m, uint32_t r) { vex(j, 1, 0, 0x11, r, 0, m, -1); }
static inline void v_op(jb_t *j, uint32_t opc, uint32_t d, uint32_t s, jop_t m) { vex(j, 1, 0, opc, d, s, m, -1); }
static inline void v_cmp(jb_t *j, uint32_t d, uint32_t s, jop_t m, int pred) { vex(j, 1, 0, 0xc2, d, s, m, pred); }
static inline void v_paddd(jb_t *j, uint32_t d, uint32_t s, jop_t m) { vex(j, 1, 1, 0xfe, d, s, m, -1); }
static inline void v_pcmpeqd(jb_t *j, uint32_t d, uint32_t s, jop_t m) { vex(j, 1, 1, 0x76, d, s, m, -1); }
static inline void v_round(jb_t *j, uint32_t d, jop_t m, int mode) { vex(j, 3, 1, 0x08, d, 0, m, mode); }
/* d = mask's sign bit ? m : s (vblendvps; the masks here are all-ones or zero per lane) */
static inline void v_blendv(jb_t *j, uint32_t d, uint32_t s, jop_t m, uint32_t mask)
{
    vex(j, 3, 1, 0x4a, d, s, m, (int)(mask << 4));
}
static inline void vzeroupper(jb_t *j) { put(j, 0xc5); put(j, 0xf8); put(j, 0x77); }

/* mov rax, [base + disp] (64-bit) or, !wide, mov eax, [base + disp] (bases below r8) */
static inline void g_load(jb_t *j, uint32_t base, uint32_t disp, bool wide)
{
    if (wide) put(j, 0x48);
    put(j, 0x8b);
    modrm(j, R_AX, MEM(base, disp), 0);
}
/* Leaves the run: pc to the switch interpreter (vzeroupper: no AVX-SSE transition penalty there). */
static inline void g_return(jb_t *j, uint32_t pc)
{
    vzeroupper(j);
    put(j, 0xb8);                      /* mov eax, imm32 */
    put32(j, pc);
    put(j, 0xc3);                      /* ret */
}

/* A forward short jump (cc: 0x74 je, 0x75 jne, 0xeb jmp); returns where to patch_jump. */
static inline uint32_t jump8(jb_t *j, uint32_t cc)
{
    put(j, cc);
    put(j, 0);
    return j->pos;
}
static inline void patch_jump(jb_t *j, uint32_t from)
{
    if (j->buf) j->buf[from - 1u] = (uint8_t)(j->pos - from);
}

#endif /* EG_SOFT_JIT_X64_H */
