/* hal/soft shader VM compiler: copy propagation and dead-MOV removal after register allocation.
 *
 * The front end's loads and stores of Function variables and the phi copies become MOVs (a third
 * of a typical UI shader's instructions), each a 64-byte copy at run time. Inside a SEGMENT (a
 * run of instructions between control-flow instructions) every instruction runs under the same
 * execution mask, so after MOV d, s a later reader of d in the segment may read s instead while
 * neither is written again; a MOV whose destination is then overwritten in the same segment
 * before any read is dead and removed. Values are only ever renamed, never recomputed: the
 * results are the same bits.
 * Not rewritten: derivative and image instructions (they read other lanes of their operands,
 * which the mask did not copy) and register-array access (LDI/STI address registers by index;
 * programs with them skip the pass).
 * Then a liveness pass over the blocks (lanes move between blocks only along branches) removes
 * MOVs and pure arithmetic whose result no path reads. Writes under a narrowed mask
 * (MASK_AND .. MASK_RESTORE) or after a KILL do not count as overwriting. Programs with
 * cross-lane reads (derivatives, implicit-lod sampling) skip this part: a neighbour lane in
 * another block may read a value no path of its own lane needs.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm_compile.h"

#define OPT_NONE 0xffffu

static bool ends_segment(uint32_t op)
{
    return op == EG_VM_END || op == EG_VM_BLOCK || op == EG_VM_BR || op == EG_VM_BRC || op == EG_VM_SWITCH ||
           op == EG_VM_CASE || op == EG_VM_KILL || op == EG_VM_BARRIER || op == EG_VM_MASK_AND ||
           op == EG_VM_MASK_ANDN || op == EG_VM_MASK_RESTORE;
}

/* Instructions whose register operands may be renamed: per-lane readers only. */
static bool renamable(uint32_t op)
{
    if (op == EG_VM_DPDX || op == EG_VM_DPDY || op == EG_VM_FWIDTH) return false;
    if (op >= EG_VM_SAMPLE) return false;                  /* image ops and their ARGS */
    if (op >= EG_VM_LD_IN && op <= EG_VM_ATOM)             /* memory: only the output stores */
        return op == EG_VM_ST_OUT || op == EG_VM_ST_POS || op == EG_VM_ST_DEPTH || op == EG_VM_ST_SMASK;
    return op != EG_VM_UNPACK_H2;
}

/* Image instructions followed by three ARGS (soft_vm_image.c). */
static bool has_args(uint32_t op)
{
    return op == EG_VM_SAMPLE || op == EG_VM_TEXLOAD || op == EG_VM_TEXSTORE || op == EG_VM_TEXSIZE;
}

static bool is_lane_reg(uint32_t r, uint32_t nregs) { return r != EG_VM_NONE && r < EG_VM_CONST_BASE && r < nregs; }

/* Registers an instruction writes: dst, or the four result registers of an image op. */
static uint32_t writes(vm_cc_t *cc, uint32_t pc, uint16_t out[4])
{
    eg_vm_inst_t *in = &cc->code[pc];
    uint16_t *f[4];
    uint8_t w;
    vm_operands(in, f, &w);
    if (has_args(in->op) && pc + 3u < cc->code_n) {
        for (uint32_t k = 0; k < 4u; k++) out[k] = cc->code[pc + k].dst;
        return 4;
    }
    out[0] = w && f[0] ? *f[0] : OPT_NONE;
    return 1;
}

/* Is register r read (anywhere in its fields) by the instruction at pc? */
static bool reads(vm_cc_t *cc, uint32_t pc, uint32_t r)
{
    uint16_t *f[4];
    uint8_t w;
    vm_operands(&cc->code[pc], f, &w);
    for (uint32_t k = 1; k < 4u; k++)
        if (f[k] && *f[k] == r) return true;
    return false;
}

/* Forward copy propagation inside segments; copy_of[r] = the register or constant r equals. */
static void propagate(vm_cc_t *cc, uint16_t *copy_of, uint32_t nregs)
{
    for (uint32_t r = 0; r < nregs; r++) copy_of[r] = OPT_NONE;
    for (uint32_t pc = 0; pc < cc->code_n; pc++) {
        eg_vm_inst_t *in = &cc->code[pc];
        uint16_t *f[4], wr[4];
        uint8_t w;
        vm_operands(in, f, &w);
        if (renamable(in->op))
            for (uint32_t k = 1; k < 4u; k++)
                if (f[k] && is_lane_reg(*f[k], nregs) && copy_of[*f[k]] != OPT_NONE) *f[k] = copy_of[*f[k]];
        if (ends_segment(in->op)) {
            for (uint32_t r = 0; r < nregs; r++) copy_of[r] = OPT_NONE;
            continue;
        }
        uint32_t nw = writes(cc, pc, wr);
        for (uint32_t k = 0; k < nw; k++) {
            uint32_t d = wr[k];
            if (!is_lane_reg(d, nregs)) continue;
            copy_of[d] = OPT_NONE;
            for (uint32_t r = 0; r < nregs; r++)
                if (copy_of[r] == d) copy_of[r] = OPT_NONE;
        }
        if (in->op == EG_VM_MOV && is_lane_reg(in->dst, nregs) && in->a != in->dst && in->a != EG_VM_NONE)
            copy_of[in->dst] = in->a;
        if (has_args(in->op)) pc += 3u;   /* its ARGS: nothing to rename */
    }
}

/* A MOV at pc is dead when its destination is overwritten later in the segment before any read
 * (every instruction of a segment runs under the same mask, so the write covers the same lanes). */
static bool dead_mov(vm_cc_t *cc, uint32_t pc)
{
    uint32_t d = cc->code[pc].dst;
    for (uint32_t q = pc + 1u; q < cc->code_n; q++) {
        const eg_vm_inst_t *in = &cc->code[q];
        if (reads(cc, q, d)) return false;
        if (has_args(in->op))
            for (uint32_t k = 1; k < 4u && q + k < cc->code_n; k++)
                if (reads(cc, q + k, d)) return false;   /* ARGS operands */
        if (ends_segment(in->op)) return false;
        uint16_t wr[4];
        uint32_t nw = writes(cc, q, wr);
        for (uint32_t k = 0; k < nw; k++)
            if (wr[k] == d) return true;
        if (has_args(in->op)) q += 3u;
    }
    return false;
}

/* ---- liveness over blocks ---- */

typedef struct live {
    uint32_t words;                /* 32-bit words per register set */
    uint32_t *use, *def, *in, *out;   /* [block_n + 1][words]: index block_n = the entry code */
} live_t;

static bool cross_lane(const eg_vm_inst_t *in)
{
    if (in->op == EG_VM_DPDX || in->op == EG_VM_DPDY || in->op == EG_VM_FWIDTH) return true;
    uint32_t lod = in->imm & 3u;   /* soft_vm_image.c: lod mode in the low bits of SAMPLE's imm */
    return in->op == EG_VM_SAMPLE && (lod == EG_SOFT_LOD_IMPLICIT || lod == EG_SOFT_LOD_BIAS);
}

/* Pure: the only effect is the destination (removable when nobody reads it). */
static bool pure(uint32_t op)
{
    return op == EG_VM_MOV || op == EG_VM_SELECT || (op >= EG_VM_FADD && op < EG_VM_SAMPLE && op != EG_VM_DPDX &&
                                                     op != EG_VM_DPDY && op != EG_VM_FWIDTH && op != EG_VM_UNPACK_H2);
}

static void set_bit(uint32_t *s, uint32_t r) { s[r >> 5] |= 1u << (r & 31u); }
static void clr_bit(uint32_t *s, uint32_t r) { s[r >> 5] &= ~(1u << (r & 31u)); }
static bool get_bit(const uint32_t *s, uint32_t r) { return s[r >> 5] >> (r & 31u) & 1u; }

/* Walks the instructions of one block backwards from `live` (its live-out): true when the
 * instruction at pc (pure) writes nothing live; updates live to before the instruction. */
static bool step_back(vm_cc_t *cc, uint32_t pc, bool full_mask, uint32_t *live, uint32_t nregs)
{
    eg_vm_inst_t *in = &cc->code[pc];
    uint16_t *f[4];
    uint8_t w;
    vm_operands(in, f, &w);
    bool dead = pure(in->op) && w && f[0] && is_lane_reg(*f[0], nregs) && !get_bit(live, *f[0]);
    if (dead) return true;
    if (w && f[0] && is_lane_reg(*f[0], nregs) && full_mask) clr_bit(live, *f[0]);
    for (uint32_t k = 1; k < 4u; k++)
        if (f[k] && is_lane_reg(*f[k], nregs)) set_bit(live, *f[k]);
    return false;
}

/* Per instruction: does it run under the block's whole mask (not inside MASK_AND .. RESTORE,
 * not after a KILL)? Computed on the fly by the callers from the block start. */
static void block_masks(vm_cc_t *cc, uint32_t b0, uint32_t b1, bool *full)
{
    bool narrowed = false;
    for (uint32_t pc = b0; pc < b1; pc++) {
        uint32_t op = cc->code[pc].op;
        if (op == EG_VM_MASK_AND || op == EG_VM_MASK_ANDN || op == EG_VM_KILL) narrowed = true;
        if (op == EG_VM_MASK_RESTORE) narrowed = false;
        full[pc - b0] = !narrowed;
    }
}

/* Removes pure instructions whose result is never read (marks them with op END + dst 1 for the
 * compaction; a real END has dst NONE). */
static void kill_dead(vm_cc_t *cc, uint32_t nregs)
{
    uint32_t nb = cc->block_n, words = (nregs + 31u) / 32u, n = cc->code_n;
    live_t L = { words, NULL, NULL, NULL, NULL };
    uint32_t *start = eg_arena_alloc(cc->arena, (size_t)(nb + 2u) * 4u, 4);
    uint32_t *sets = eg_arena_alloc(cc->arena, (size_t)(nb + 1u) * words * 16u + 4u * words, 4);
    bool *full = eg_arena_alloc(cc->arena, (size_t)n + 1u, 4);
    if (!start || !sets || !full) return;
    L.use = sets; L.def = sets + (nb + 1u) * words; L.in = L.def + (nb + 1u) * words; L.out = L.in + (nb + 1u) * words;
    uint32_t *tmp = L.out + (nb + 1u) * words;
    eg_memset(sets, 0, (size_t)(nb + 1u) * words * 16u);
    /* region r: block r = [block_pc[r], next block), the entry code = region nb = [0, block_pc[0]) */
    for (uint32_t b = 0; b < nb; b++) start[b] = cc->block_pc[b];
    for (uint32_t b = 0; b + 1u < nb; b++) if (start[b + 1] < start[b]) return;   /* not in code order */
    start[nb] = 0;
    #define REG_END(r) ((r) == nb ? (nb ? start[0] : n) : (r) + 1u < nb ? start[(r) + 1u] : n)
    for (uint32_t r = 0; r <= nb; r++) {
        uint32_t b0 = start[r], b1 = REG_END(r);
        block_masks(cc, b0, b1, full + b0);
        uint32_t *use = L.use + r * words, *def = L.def + r * words;
        for (uint32_t pc = b1; pc-- > b0;) {   /* backwards: use = read before any full write */
            uint16_t *f[4];
            uint8_t w;
            vm_operands(&cc->code[pc], f, &w);
            if (w && f[0] && is_lane_reg(*f[0], nregs) && full[pc]) { set_bit(def, *f[0]); clr_bit(use, *f[0]); }
            for (uint32_t k = 1; k < 4u; k++)
                if (f[k] && is_lane_reg(*f[k], nregs)) set_bit(use, *f[k]);
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t r = nb + 1u; r-- > 0;) {
            uint32_t *out = L.out + r * words, *in = L.in + r * words;
            if (r == nb) { if (nb) for (uint32_t k = 0; k < words; k++) out[k] |= L.in[k]; }   /* entry -> block 0 */
            else
                for (uint32_t pc = start[r]; pc < REG_END(r); pc++) {
                    uint32_t t[2], m = 0;
                    const eg_vm_inst_t *x = &cc->code[pc];
                    if (x->op == EG_VM_BR || x->op == EG_VM_SWITCH) { t[m++] = x->imm; }
                    else if (x->op == EG_VM_BRC) { t[m++] = x->imm; t[m++] = x->d; }
                    else if (x->op == EG_VM_CASE) { t[m++] = x->d; }
                    for (uint32_t j = 0; j < m; j++)
                        if (t[j] < nb) for (uint32_t k = 0; k < words; k++) out[k] |= L.in[t[j] * words + k];
                }
            for (uint32_t k = 0; k < words; k++) {
                uint32_t v = L.use[r * words + k] | (out[k] & ~L.def[r * words + k]);
                if (v != in[k]) { in[k] = v; changed = true; }
            }
        }
    }
    for (uint32_t r = 0; r <= nb; r++) {
        uint32_t b0 = start[r], b1 = REG_END(r);
        eg_memcpy(tmp, L.out + r * words, words * 4u);
        for (uint32_t pc = b1; pc-- > b0;)
            if (step_back(cc, pc, full[pc], tmp, nregs)) { cc->code[pc].op = EG_VM_END; cc->code[pc].dst = 1; }
    }
    #undef REG_END
}

void vm_optimize(vm_cc_t *cc)
{
    uint32_t nregs = cc->prog->reg_count;
    for (uint32_t pc = 0; pc < cc->code_n; pc++)
        if (cc->code[pc].op == EG_VM_LDI || cc->code[pc].op == EG_VM_STI) return;   /* register arrays */
    uint16_t *copy_of = eg_arena_alloc(cc->arena, (size_t)nregs * 2u + 2u, 4);
    if (!copy_of) return;   /* scratch full: the program stays as it is, which is correct */
    propagate(cc, copy_of, nregs);
    bool cross = false;
    for (uint32_t pc = 0; pc < cc->code_n; pc++) {
        eg_vm_inst_t *in = &cc->code[pc];
        cross |= cross_lane(in);
        if (in->op == EG_VM_MOV && is_lane_reg(in->dst, nregs) && (in->a == in->dst || dead_mov(cc, pc))) {
            in->op = EG_VM_END;   /* removed below (dst 1 tells it from the real END) */
            in->dst = 1;
        }
        if (has_args(in->op)) pc += 3u;
    }
    if (!cross) kill_dead(cc, nregs);
    uint32_t out = 0;
    for (uint32_t pc = 0; pc < cc->code_n; pc++) {
        eg_vm_inst_t in = cc->code[pc];
        if (in.op == EG_VM_END && in.dst == 1u) continue;
        if (in.op == EG_VM_BLOCK) cc->block_pc[in.imm] = out;
        cc->code[out++] = in;
    }
    cc->code_n = out;
    vm_link_blocks(cc);
}

#endif /* EMGPU_HAL_SOFT */
