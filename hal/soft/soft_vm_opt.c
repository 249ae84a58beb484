/* hal/soft shader VM compiler: the peephole optimizer (block merging, copy propagation, dead code,
 * multiply-add fusion, MOV coalescing), run on the virtual registers and again after allocation.
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
 * Before register allocation (every temporary has one definition) the pass runs first on the
 * virtual registers: there the allocator's register reuse does not yet block the renaming, and
 * products feeding one addition fuse into FFMA and temporaries copied into a variable are
 * written into it directly (fuse_fma, coalesce). Session 4 ("vm"): 33% fewer instructions over
 * the 209 vertex/fragment programs of the corpus, tests and benchmarks, the same outputs bit for
 * bit (a differential run of both compilers on the same inputs). One exception, allowed by the
 * spec: a derivative that reads a lane discarded earlier in its quad sees that lane's stale
 * register, and which stale value depends on the allocation.
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

/* Registers that currently have a copy_of entry; a write scans these only (not every register:
 * before register allocation there are thousands). Full: the oldest copy is forgotten, which
 * only loses a renaming. */
#define OPT_ACTIVE 64u

typedef struct copies {
    uint16_t *copy_of;             /* [nregs]: the register or constant r equals, or OPT_NONE */
    uint16_t active[OPT_ACTIVE];
    uint32_t n;
} copies_t;

static void copies_forget(copies_t *c, uint32_t i)
{
    c->copy_of[c->active[i]] = OPT_NONE;
    c->active[i] = c->active[--c->n];
}

/* d is written: copies of d and the copy held in d end. */
static void copies_kill(copies_t *c, uint32_t d)
{
    for (uint32_t i = 0; i < c->n;)
        if (c->active[i] == d || c->copy_of[c->active[i]] == d) copies_forget(c, i);
        else i++;
}

static void copies_add(copies_t *c, uint32_t d, uint32_t src)
{
    if (c->n == OPT_ACTIVE) copies_forget(c, 0);
    c->copy_of[d] = (uint16_t)src;
    c->active[c->n++] = (uint16_t)d;
}

/* Forward copy propagation inside segments; copy_of[r] = the register or constant r equals. */
static void propagate(vm_cc_t *cc, uint16_t *copy_of, uint32_t nregs)
{
    copies_t c = { copy_of, { 0 }, 0 };
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
            while (c.n) copies_forget(&c, 0);
            continue;
        }
        uint32_t nw = writes(cc, pc, wr);
        for (uint32_t k = 0; k < nw; k++)
            if (is_lane_reg(wr[k], nregs)) copies_kill(&c, wr[k]);
        if (in->op == EG_VM_MOV && is_lane_reg(in->dst, nregs) && in->a != in->dst && in->a != EG_VM_NONE)
            copies_add(&c, in->dst, in->a);
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
    if (op == EG_VM_MOV || op == EG_VM_SELECT || op == EG_VM_LD_IN || op == EG_VM_LD_SYS) return true;
    return op >= EG_VM_FADD && op < EG_VM_SAMPLE && op != EG_VM_DPDX && op != EG_VM_DPDY && op != EG_VM_FWIDTH &&
           op != EG_VM_UNPACK_H2;
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

static bool removed(const eg_vm_inst_t *in) { return in->op == EG_VM_END && in->dst == 1u; }

static void remove_inst(eg_vm_inst_t *in) { in->op = EG_VM_END; in->dst = 1; }

/* uses[r]: how many operand fields read r (saturating at 255). */
static void count_uses(vm_cc_t *cc, uint8_t *uses, uint32_t nregs)
{
    eg_memset(uses, 0, nregs);
    for (uint32_t pc = 0; pc < cc->code_n; pc++) {
        uint16_t *f[4];
        uint8_t w;
        if (removed(&cc->code[pc])) continue;
        vm_operands(&cc->code[pc], f, &w);
        for (uint32_t k = 1; k < 4u; k++)
            if (f[k] && is_lane_reg(*f[k], nregs) && uses[*f[k]] < 255u) uses[*f[k]]++;
    }
}

/* The single-destination instruction before pc in its segment that writes temporary t (its
 * only definition before register allocation), or ~0u. */
static uint32_t def_in_segment(vm_cc_t *cc, uint32_t pc, uint32_t t)
{
    for (uint32_t q = pc; q-- > 0;) {
        eg_vm_inst_t *x = &cc->code[q];
        if (removed(x)) continue;
        if (ends_segment(x->op) || x->op == EG_VM_ARGS || has_args(x->op)) return ~0u;
        uint16_t wr[4];
        if (writes(cc, q, wr) == 1u && wr[0] == t) return renamable(x->op) ? q : ~0u;
    }
    return ~0u;
}

/* Is any of regs[0..n) written by an instruction in (from, to)? */
static bool written_between(vm_cc_t *cc, uint32_t from, uint32_t to, const uint16_t *regs, uint32_t n)
{
    for (uint32_t q = from + 1u; q < to; q++) {
        uint16_t wr[4];
        if (removed(&cc->code[q])) continue;
        uint32_t nw = writes(cc, q, wr);
        for (uint32_t i = 0; i < nw; i++)
            for (uint32_t k = 0; k < n; k++)
                if (wr[i] == regs[k]) return true;
    }
    return false;
}

/* The constant register holding bits ^ flip (a new one if there is room), or EG_VM_NONE. */
static uint32_t flipped_const(vm_cc_t *cc, uint32_t r, uint32_t flip)
{
    uint32_t bits = cc->const_vals[r - EG_VM_CONST_BASE] ^ flip;
    for (uint32_t i = 0; i < cc->const_n; i++)
        if (cc->const_vals[i] == bits) return EG_VM_CONST_BASE + i;
    if (cc->const_n >= cc->const_cap) return EG_VM_NONE;
    cc->const_vals[cc->const_n] = bits;
    return EG_VM_CONST_BASE + cc->const_n++;
}

/* FMUL t = x * y, then FADD d = t + z or z + t, with t read by nothing else: one FFMA d = x * y + z.
 * The VM's FFMA rounds the product and then the sum like the two instructions did (no fused
 * rounding), and IEEE addition is commutative, so the bits are the same. FSUB d = t - k and
 * d = k - t with k or one factor a constant fuse too: a - b is a + (-b), and -(x * y) = (-x) * y,
 * both exact. Saves a dispatch and a register round trip per product. */
static void fuse_fma(vm_cc_t *cc, uint8_t *uses, uint32_t nregs)
{
    for (uint32_t pc = 0; pc < cc->code_n; pc++) {
        eg_vm_inst_t *in = &cc->code[pc];
        if (in->op != EG_VM_FADD && in->op != EG_VM_FSUB) continue;
        for (uint32_t side = 0; side < 2u; side++) {
            uint32_t t = side ? in->b : in->a, z = side ? in->a : in->b;
            if (!is_lane_reg(t, nregs) || cc->vreg_var[t] || uses[t] != 1u || t == z) continue;
            uint32_t q = def_in_segment(cc, pc, t);
            if (q == ~0u || cc->code[q].op != EG_VM_FMUL) continue;
            eg_vm_inst_t *mul = &cc->code[q];
            uint16_t xy[2] = { mul->a, mul->b };
            if (written_between(cc, q, pc, xy, 2)) continue;
            uint32_t x = mul->a, y = mul->b;
            if (in->op == EG_VM_FSUB && side == 0) {          /* t - z: z must be a constant */
                if (z < EG_VM_CONST_BASE || z == EG_VM_NONE) continue;
                z = flipped_const(cc, z, 0x80000000u);
            } else if (in->op == EG_VM_FSUB) {                 /* z - t: negate a constant factor */
                if (y >= EG_VM_CONST_BASE && y != EG_VM_NONE) y = flipped_const(cc, y, 0x80000000u);
                else if (x >= EG_VM_CONST_BASE && x != EG_VM_NONE) x = flipped_const(cc, x, 0x80000000u);
                else continue;
                if (x == EG_VM_NONE || y == EG_VM_NONE) continue;
            }
            if (z == EG_VM_NONE) continue;
            *in = (eg_vm_inst_t){ EG_VM_FFMA, in->dst, (uint16_t)x, (uint16_t)y, (uint16_t)z, EG_VM_NONE, 0 };
            remove_inst(mul);
            uses[t] = 0;
            break;
        }
    }
}

/* Before register allocation every temporary has one definition. A MOV v, t whose t is read by
 * nothing else, defined earlier in the same segment by a one-destination per-lane instruction,
 * with v neither read nor written in between: that instruction writes v itself and the MOV goes
 * (the same mask writes the same lanes; glslang's stores of locals are mostly this). */
static void coalesce(vm_cc_t *cc, const uint8_t *uses, uint32_t nregs)
{
    for (uint32_t pc = 0; pc < cc->code_n; pc++) {
        eg_vm_inst_t *mv = &cc->code[pc];
        if (mv->op != EG_VM_MOV || !is_lane_reg(mv->dst, nregs) || !is_lane_reg(mv->a, nregs) ||
            !cc->vreg_var[mv->dst] || cc->vreg_var[mv->a] || uses[mv->a] != 1u)
            continue;
        uint32_t v = mv->dst, t = mv->a;
        uint32_t q = def_in_segment(cc, pc, t);
        if (q == ~0u || reads(cc, q, v)) continue;
        bool clash = false;
        for (uint32_t k = q + 1u; k < pc && !clash; k++) {
            uint16_t wr[4];
            if (removed(&cc->code[k])) continue;
            clash = reads(cc, k, v) || (writes(cc, k, wr) == 1u && wr[0] == v);
        }
        if (clash) continue;
        cc->code[q].dst = (uint16_t)v;
        remove_inst(mv);
    }
}

/* Drops the removed instructions; block_pc follows. A block left without its BLOCK (merged)
 * gets the start of the next block: an empty range. */
static void compact(vm_cc_t *cc)
{
    uint32_t out = 0, nb = cc->block_n;
    for (uint32_t b = 0; b < nb; b++) cc->block_pc[b] = ~0u;
    for (uint32_t pc = 0; pc < cc->code_n; pc++) {
        eg_vm_inst_t in = cc->code[pc];
        if (removed(&in)) continue;
        if (in.op == EG_VM_BLOCK && in.imm < nb) cc->block_pc[in.imm] = out;
        cc->code[out++] = in;
    }
    cc->code_n = out;
    for (uint32_t b = nb; b-- > 0;)
        if (cc->block_pc[b] == ~0u) cc->block_pc[b] = b + 1u < nb ? cc->block_pc[b + 1u] : (out ? out - 1u : 0u);
    vm_link_blocks(cc);
}

/* A block whose only predecessor is an unconditional BR right before it (a function's or the
 * entry point's epilogue, code after an inlined call) runs exactly the lanes that reached the
 * BR: the BR and its BLOCK go, and the two segments become one (copy propagation then reaches
 * the output stores). Block ids stay (pending masks are per id); the merged block's block_pc is
 * set after compaction to an empty range, so the liveness regions stay in code order. */
static void merge_chains(vm_cc_t *cc)
{
    uint32_t nb = cc->block_n;
    uint8_t *preds = eg_arena_alloc(cc->arena, (size_t)nb + 4u, 4);
    if (!preds) return;
    eg_memset(preds, 0, nb);
    for (uint32_t pc = 0; pc < cc->code_n; pc++) {
        const eg_vm_inst_t *x = &cc->code[pc];
        uint32_t t[2], m = 0;
        if (x->op == EG_VM_BR || x->op == EG_VM_SWITCH) t[m++] = x->imm;
        else if (x->op == EG_VM_BRC) { t[m++] = x->imm; t[m++] = x->d; }
        else if (x->op == EG_VM_CASE) t[m++] = x->d;
        for (uint32_t k = 0; k < m; k++)
            if (t[k] < nb && preds[t[k]] < 255u) preds[t[k]]++;
    }
    for (uint32_t pc = 0; pc + 1u < cc->code_n; pc++) {
        eg_vm_inst_t *br = &cc->code[pc], *blk = &cc->code[pc + 1u];
        if (br->op != EG_VM_BR || blk->op != EG_VM_BLOCK || blk->imm != br->imm || br->imm == 0 ||
            br->imm >= nb || preds[br->imm] != 1u)
            continue;
        remove_inst(br);
        remove_inst(blk);
    }
}

void vm_optimize(vm_cc_t *cc, uint32_t nregs, bool vregs)
{
    for (uint32_t pc = 0; pc < cc->code_n; pc++)
        if (cc->code[pc].op == EG_VM_LDI || cc->code[pc].op == EG_VM_STI) return;   /* register arrays */
    size_t mark = eg_arena_mark(cc->arena);
    merge_chains(cc);
    compact(cc);
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
    uint8_t *uses = vregs ? eg_arena_alloc(cc->arena, (size_t)nregs + 4u, 4) : NULL;
    if (uses) {
        count_uses(cc, uses, nregs);
        fuse_fma(cc, uses, nregs);
        count_uses(cc, uses, nregs);
        coalesce(cc, uses, nregs);
    }
    eg_arena_reset(cc->arena, mark);
    compact(cc);
}

#endif /* EMGPU_HAL_SOFT */
