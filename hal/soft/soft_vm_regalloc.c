/* hal/soft shader VM compiler: register allocation of the virtual registers, block links.
 *
 * Variables (Function/Private/Input/Output storage, phis, call results) keep one register each
 * for the whole program: they are written under different masks at different places and
 * indexed dynamically as ranges. Temporaries have one definition, so a linear scan over the
 * bytecode reuses their registers: a temporary lives from its definition to its last use, and
 * to the end of every loop (a back edge's range) that uses it but does not define it.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_vm_compile.h"

enum { R_A = 1, R_B = 2, R_C = 4, W_DST = 8 };

static uint8_t roles(uint32_t op)
{
    switch (op) {
    case EG_VM_END: case EG_VM_BLOCK: case EG_VM_BR: case EG_VM_KILL: case EG_VM_BARRIER:
    case EG_VM_MASK_RESTORE: case EG_VM_CASE:
        return 0;
    case EG_VM_BRC: case EG_VM_SWITCH: case EG_VM_MASK_AND: case EG_VM_MASK_ANDN:
    case EG_VM_ST_OUT: case EG_VM_ST_POS: case EG_VM_ST_DEPTH: case EG_VM_ST_SMASK:
        return R_A;
    case EG_VM_LD_IN: case EG_VM_LD_SYS: case EG_VM_BUFLEN: case EG_VM_TEXLEVELS: case EG_VM_TEXSAMPLES:
        return W_DST;
    case EG_VM_LDI: return W_DST | R_A | R_B;
    case EG_VM_STI: return R_A | R_B | R_C;
    case EG_VM_LDBUF: case EG_VM_LDWG: return W_DST | R_A;
    case EG_VM_STBUF: case EG_VM_STWG: return R_A | R_B;
    case EG_VM_TEXSTORE: return R_A | R_B | R_C;
    default: return W_DST | R_A | R_B | R_C;   /* ALU, ATOM, SAMPLE, TEXLOAD, TEXSIZE, ARGS */
    }
}

static bool is_reg(uint32_t r) { return r != EG_VM_NONE && r < EG_VM_CONST_BASE; }

static void field_regs(eg_vm_inst_t *in, uint16_t *out[4], uint8_t *write)
{
    uint8_t r = roles(in->op);
    out[0] = r & W_DST ? &in->dst : NULL;
    out[1] = r & R_A ? &in->a : NULL;
    out[2] = r & R_B ? &in->b : NULL;
    out[3] = r & R_C ? &in->c : NULL;
    *write = r & W_DST;
}

/* The target block ids of a branch instruction (up to 2; switch cases come as CASE). */
static uint32_t targets(const eg_vm_inst_t *in, uint32_t out[2])
{
    switch (in->op) {
    case EG_VM_BR: out[0] = in->imm; return 1;
    case EG_VM_BRC: out[0] = in->imm; out[1] = in->d; return 2;
    case EG_VM_SWITCH: out[0] = in->imm; return 1;
    case EG_VM_CASE: out[0] = in->d; return 1;
    default: return 0;
    }
}

/* Extends live ranges of temporaries across loops until nothing changes. */
static void extend_loops(vm_cc_t *cc, const uint32_t *def, uint32_t *last)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t pc = 0; pc < cc->code_n; pc++) {
            uint32_t t[2], n = targets(&cc->code[pc], t);
            for (uint32_t k = 0; k < n; k++) {
                uint32_t h = cc->block_pc[t[k]];
                if (h > pc) continue;                         /* forward edge */
                for (uint32_t v = 0; v < cc->vreg_n; v++)
                    if (!cc->vreg_var[v] && def[v] < h && last[v] >= h && last[v] < pc) {
                        last[v] = pc;
                        changed = true;
                    }
            }
        }
    }
}

bool vm_regalloc(vm_cc_t *cc, uint32_t *reg_count);
bool vm_regalloc(vm_cc_t *cc, uint32_t *reg_count)
{
    uint32_t nv = cc->vreg_n, np = cc->code_n;
    uint32_t *def = eg_arena_alloc(cc->arena, (size_t)nv * 4u, 4);
    uint32_t *last = eg_arena_alloc(cc->arena, (size_t)nv * 4u, 4);
    uint16_t *phys = eg_arena_alloc(cc->arena, (size_t)nv * 2u, 4);
    uint32_t *end_head = eg_arena_alloc(cc->arena, (size_t)(np + 1) * 4u, 4);
    uint32_t *end_next = eg_arena_alloc(cc->arena, (size_t)nv * 4u, 4);
    uint16_t *free_regs = eg_arena_alloc(cc->arena, (size_t)nv * 2u + 2u, 4);
    if (!def || !last || !phys || !end_head || !end_next || !free_regs)
        return vm_fail(cc, EG_STATUS_OUT_OF_MEMORY, "register allocation tables do not fit: raise "
                       "EMGPU_SOFT_COMPILE_SCRATCH_BYTES (now %u)", (unsigned)EMGPU_SOFT_COMPILE_SCRATCH_BYTES);
    uint32_t vars = 0;
    for (uint32_t v = 0; v < nv; v++) {
        def[v] = ~0u;
        last[v] = 0;
    }
    for (uint32_t pc = 0; pc < np; pc++) {
        uint16_t *f[4];
        uint8_t w;
        field_regs(&cc->code[pc], f, &w);
        for (int i = 0; i < 4; i++) {
            if (!f[i] || !is_reg(*f[i])) continue;
            uint32_t v = *f[i];
            if (def[v] == ~0u) def[v] = pc;
            if (last[v] < pc) last[v] = pc;
        }
    }
    /* variables the optimizer left unreferenced get no register (a smaller register file) */
    for (uint32_t v = 0; v < nv; v++)
        if (cc->vreg_var[v] && def[v] != ~0u) phys[v] = (uint16_t)vars++;
    extend_loops(cc, def, last);
    for (uint32_t pc = 0; pc <= np; pc++) end_head[pc] = ~0u;
    for (uint32_t v = 0; v < nv; v++)
        if (!cc->vreg_var[v] && def[v] != ~0u) { end_next[v] = end_head[last[v]]; end_head[last[v]] = v; }
    uint32_t nfree = 0, top = vars;
    for (uint32_t pc = 0; pc < np; pc++) {
        uint16_t *f[4];
        uint8_t w;
        field_regs(&cc->code[pc], f, &w);
        /* a temporary defined here gets a register; one whose last use is here frees it after */
        for (int i = 0; i < 4; i++) {
            if (!f[i] || !is_reg(*f[i])) continue;
            uint32_t v = *f[i];
            if (!cc->vreg_var[v] && def[v] == pc && (i == 0 || f[0] != f[i])) {
                if (i != 0) continue;   /* read before any write: never happens for temporaries */
                phys[v] = nfree ? free_regs[--nfree] : (uint16_t)top++;
            }
        }
        for (uint32_t v = end_head[pc]; v != ~0u; v = end_next[v]) free_regs[nfree++] = phys[v];
    }
    for (uint32_t pc = 0; pc < np; pc++) {
        uint16_t *f[4];
        uint8_t w;
        field_regs(&cc->code[pc], f, &w);
        for (int i = 0; i < 4; i++)
            if (f[i] && is_reg(*f[i])) *f[i] = phys[*f[i]];
    }
    *reg_count = top;
    return true;
}

/* BLOCK instructions learn where the next block starts (to skip a block no lane runs). */
void vm_link_blocks(vm_cc_t *cc);
void vm_link_blocks(vm_cc_t *cc)
{
    uint32_t next = cc->code_n - 1u;      /* the final END */
    for (uint32_t pc = cc->code_n; pc-- > 0;) {
        eg_vm_inst_t *in = &cc->code[pc];
        if (in->op != EG_VM_BLOCK) continue;
        in->a = (uint16_t)(next & 0xffffu);
        in->b = (uint16_t)(next >> 16);
        next = pc;
    }
}

/* The register fields of an instruction: out[0] = dst when it is written, out[1..3] = a, b, c
 * when they are read (NULL otherwise); for the optimizer (soft_vm_opt.c). */
void vm_operands(eg_vm_inst_t *in, uint16_t *out[4], uint8_t *write)
{
    field_regs(in, out, write);
}

#endif /* EMGPU_HAL_SOFT */
