/* hal/soft shader VM interpreter: control flow, memory, interface; vertex/fragment entry. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_internal.h"
#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_vm_simd.h"
#include "hal/soft/soft_jit.h"
#include "kernel/api/bind_group.h"

void eg_vm_image(const eg_soft_program_t *p, eg_vm_state_t *st, const eg_vm_inst_t *in);

#define L_ for (uint32_t l = 0; l < EG_SOFT_LANES; l++)

static const eg_soft_reg_t zero_reg;

static inline const eg_soft_reg_t *rd(const eg_soft_program_t *p, const eg_vm_state_t *st, uint32_t r)
{
    if (r == EG_VM_NONE) return &zero_reg;
    return r >= EG_VM_CONST_BASE ? &p->consts[r - EG_VM_CONST_BASE] : &st->regs[r];
}

static eg_soft_mask_t mask_of(const eg_soft_reg_t *r)
{
    eg_soft_mask_t m = 0;
    L_ m |= (eg_soft_mask_t)(r->u[l] != 0) << l;
    return m;
}

static void commit(eg_soft_reg_t *d, const eg_soft_reg_t *t, eg_soft_mask_t m) { vm_commit(d, t, m); }

/* Adds lanes to a block's pending mask; a back edge (target at or before pc) jumps there. */
static void branch(const eg_soft_program_t *p, eg_vm_state_t *st, uint32_t target, eg_soft_mask_t lanes,
                   uint32_t at, uint32_t *jump)
{
    if (!lanes) return;
    st->pending[target] |= lanes;
    uint32_t t = p->block_pc[target];
    if (t <= at && t < *jump) *jump = t;
}

/* Byte address of a 4-byte access in a bound range, or NULL when any byte is outside. */
static inline uint8_t *in_range(uint8_t *mem, uint32_t size_B, uint32_t off_B)
{
    return mem && size_B >= 4 && off_B <= size_B - 4u && (off_B & 3u) == 0 ? mem + off_B : NULL;
}

/* 4-byte copies the compiler turns into one load or store (eg_memcpy is a call per lane) */
#if defined(__GNUC__) || defined(__clang__)
#define VM_COPY4_(d, s) __builtin_memcpy((d), (s), 4)
#else
#define VM_COPY4_(d, s) eg_memcpy((d), (s), 4)
#endif
static uint32_t load32(const uint8_t *p) { uint32_t v; VM_COPY4_(&v, p); return v; }
static void store32(uint8_t *p, uint32_t v) { VM_COPY4_(p, &v); }

static uint32_t atomic_apply(uint32_t kind, uint32_t old, uint32_t v, uint32_t cmp)
{
    switch (kind) {
    case EG_VM_ATOM_STORE: case EG_VM_ATOM_XCHG: return v;
    case EG_VM_ATOM_CMPXCHG: return old == cmp ? v : old;
    case EG_VM_ATOM_IADD: return old + v;
    case EG_VM_ATOM_ISUB: return old - v;
    case EG_VM_ATOM_SMIN: return (int32_t)v < (int32_t)old ? v : old;
    case EG_VM_ATOM_UMIN: return v < old ? v : old;
    case EG_VM_ATOM_SMAX: return (int32_t)v > (int32_t)old ? v : old;
    case EG_VM_ATOM_UMAX: return v > old ? v : old;
    case EG_VM_ATOM_AND: return old & v;
    case EG_VM_ATOM_OR: return old | v;
    case EG_VM_ATOM_XOR: return old ^ v;
    default: return old;   /* LOAD */
    }
}

/* Atomics run lane by lane in lane order: deterministic, and nothing runs concurrently. */
static void atomic(const eg_soft_program_t *p, eg_vm_state_t *st, const eg_vm_inst_t *in, eg_soft_reg_t *t)
{
    const eg_soft_reg_t *off = rd(p, st, in->a), *v = rd(p, st, in->b), *cmp = rd(p, st, in->c);
    uint32_t kind = in->d & 0x7fu;
    bool wg = in->d & 0x80u;
    uint8_t *mem = wg ? st->wg_mem : st->res->mem[in->d >> 8];
    uint32_t size = wg ? st->wg_mem_B : st->res->size_B[in->d >> 8];
    L_ {
        t->u[l] = 0;
        if (!(st->exec >> l & 1u)) continue;
        uint8_t *a = in_range(mem, size, (in->a == EG_VM_NONE ? 0u : off->u[l]) + in->imm);
        if (!a) continue;
        uint32_t old = load32(a);
        t->u[l] = old;
        if (kind != EG_VM_ATOM_LOAD && (st->side >> l & 1u)) store32(a, atomic_apply(kind, old, v->u[l], cmp->u[l]));
    }
}

/* Compute ids of one lane: local id and global id component k (of selector base sel). */
static uint32_t compute_id(const eg_vm_state_t *st, const uint32_t *wg, uint32_t l, uint32_t sel)
{
    uint32_t li = st->local_index0 + l, lid[3] = { li % wg[0], li / wg[0] % wg[1], li / (wg[0] * wg[1]) };
    if (sel >= EG_VM_SYS_LOCAL_ID && sel < EG_VM_SYS_LOCAL_ID + 3) return lid[sel - EG_VM_SYS_LOCAL_ID];
    uint32_t k = sel - EG_VM_SYS_GLOBAL_ID;
    return st->wg_id[k] * wg[k] + lid[k];
}

/* The selector is the same for every lane: pick the source once, then copy (fragment shaders
 * read FragCoord once per block; the per-lane switch and divisions used to cost more than the
 * shader's arithmetic). */
static void load_sys(eg_vm_state_t *st, uint32_t sel, eg_soft_reg_t *t, const eg_soft_program_t *p)
{
    const eg_soft_invocation_t *inv = st->inv;
    const uint32_t one[3] = { 1, 1, 1 }, *wg = p->info.workgroup_size[0] ? p->info.workgroup_size : one;
    uint32_t v = 0;
    switch (sel) {
    case EG_VM_SYS_VERTEX_INDEX: *t = inv->vertex_index; return;
    case EG_VM_SYS_INSTANCE_INDEX: *t = inv->instance_index; return;
    case EG_VM_SYS_FRAG_COORD: case EG_VM_SYS_FRAG_COORD + 1: case EG_VM_SYS_FRAG_COORD + 2:
    case EG_VM_SYS_FRAG_COORD + 3:
        *t = inv->position.c[sel - EG_VM_SYS_FRAG_COORD];
        return;
    case EG_VM_SYS_FRONT_FACING: L_ t->u[l] = inv->front_facing >> l & 1u; return;
    case EG_VM_SYS_LOCAL_INDEX: L_ t->u[l] = st->local_index0 + l; return;
    case EG_VM_SYS_SAMPLE_ID: v = inv->sample_id; break;
    case EG_VM_SYS_SAMPLE_MASK: *t = inv->sample_mask_in; return;
    default:
        if (sel >= EG_VM_SYS_LOCAL_ID && sel < EG_VM_SYS_GLOBAL_ID + 3) {
            L_ t->u[l] = compute_id(st, wg, l, sel);
            return;
        }
        if (sel >= EG_VM_SYS_WG_ID && sel < EG_VM_SYS_WG_ID + 3) v = st->wg_id[sel - EG_VM_SYS_WG_ID];
        else if (sel >= EG_VM_SYS_NUM_WG && sel < EG_VM_SYS_NUM_WG + 3) v = st->num_wg[sel - EG_VM_SYS_NUM_WG];
        break;
    }
    L_ t->u[l] = v;
}

/* Memory and interface instructions (everything that is neither ALU nor control). */
static void memory_op(const eg_soft_program_t *p, eg_vm_state_t *st, const eg_vm_inst_t *in, eg_soft_reg_t *t)
{
    const eg_soft_reg_t *a = rd(p, st, in->a);
    bool dyn = in->a != EG_VM_NONE;
    eg_soft_mask_t store = st->exec & st->side;
    switch (in->op) {
    case EG_VM_LDI: {
        uint32_t maxd = in->imm >> 16, off = in->imm & 0xffffu;
        L_ { uint32_t i = a->u[l] < maxd ? a->u[l] : maxd; t->u[l] = st->regs[in->b + off + i].u[l]; }
        break;
    }
    case EG_VM_STI: {
        uint32_t maxd = in->imm >> 16, off = in->imm & 0xffffu;
        const eg_soft_reg_t *v = rd(p, st, in->c);
        L_ if (st->exec >> l & 1u) {
            uint32_t i = a->u[l] < maxd ? a->u[l] : maxd;
            st->regs[in->b + off + i].u[l] = v->u[l];
        }
        break;
    }
    case EG_VM_LDBUF: case EG_VM_LDWG: {
        uint8_t *mem = in->op == EG_VM_LDWG ? st->wg_mem : st->res->mem[in->d];
        uint32_t size = in->op == EG_VM_LDWG ? st->wg_mem_B : st->res->size_B[in->d];
        if (!dyn) {   /* the same address in every lane (uniforms): one load */
            const uint8_t *q = in_range(mem, size, in->imm);
            uint32_t v = q ? load32(q) : 0u;
            /* a plain broadcast when every lane runs (vertex batches, ~130 -> ~10 instructions
             * a load), else the same values branch-free: v where the lane's bit is set */
            if (st->exec == EG_SOFT_ALL_LANES) L_ t->u[l] = v;
            else L_ t->u[l] = (0u - ((uint32_t)st->exec >> l & 1u)) & v;
            break;
        }
        L_ {
            const uint8_t *q = in_range(mem, size, a->u[l] + in->imm);
            t->u[l] = q && (st->exec >> l & 1u) ? load32(q) : 0u;
        }
        break;
    }
    case EG_VM_STBUF: case EG_VM_STWG: {
        uint8_t *mem = in->op == EG_VM_STWG ? st->wg_mem : st->res->mem[in->d];
        uint32_t size = in->op == EG_VM_STWG ? st->wg_mem_B : st->res->size_B[in->d];
        const eg_soft_reg_t *v = rd(p, st, in->b);
        L_ if (store >> l & 1u) {
            uint8_t *q = in_range(mem, size, (dyn ? a->u[l] : 0u) + in->imm);
            if (q) store32(q, v->u[l]);
        }
        break;
    }
    case EG_VM_BUFLEN: {
        uint32_t size = st->res->size_B[in->d], n = size > in->imm ? (size - in->imm) / in->c : 0u;
        L_ t->u[l] = n;
        break;
    }
    case EG_VM_ATOM: atomic(p, st, in, t); break;
    case EG_VM_LD_IN: L_ t->u[l] = st->inv->in[in->imm >> 2].c[in->imm & 3u].u[l]; break;
    case EG_VM_LD_SYS: load_sys(st, in->imm, t, p); break;
    case EG_VM_ST_OUT: commit(&st->inv->out[in->imm >> 2].c[in->imm & 3u], a, st->exec); break;
    case EG_VM_ST_POS: commit(&st->inv->position.c[in->imm], a, st->exec); break;
    case EG_VM_ST_DEPTH: commit(&st->inv->frag_depth, a, st->exec); break;
    case EG_VM_ST_SMASK: commit(&st->inv->sample_mask_out, a, st->exec); break;
    case EG_VM_UNPACK_H2: L_ t->f[l] = eg_soft_f16_to_f32((uint16_t)(a->u[l] >> (16u * in->imm))); break;
    default: break;
    }
}

static bool writes_dst(uint32_t op)
{
    return op != EG_VM_STI && op != EG_VM_STBUF && op != EG_VM_STWG && op != EG_VM_ST_OUT &&
           op != EG_VM_ST_POS && op != EG_VM_ST_DEPTH && op != EG_VM_ST_SMASK && op != EG_VM_TEXSTORE &&
           op != EG_VM_ARGS;
}

/* Every lane that matters runs: results go straight to the destination, no mask merge. */
static inline bool all_lanes(const eg_vm_state_t *st)
{
    return st->exec && (st->exec == EG_SOFT_ALL_LANES || st->exec == st->whole);
}

/* The register file, the constants and the mask mode live in locals: the vector stores go
 * through memcpy, which may alias anything reached through st or p, so fields read from there
 * are reloaded after every store. Only control instructions change the mask, and they
 * recompute `fast`. */
void eg_vm_run(const eg_soft_program_t *p, eg_vm_state_t *st)
{
    const eg_vm_inst_t *code = p->code;
    eg_soft_reg_t *const regs = st->regs;
#if VM_SIMD
    const eg_soft_reg_t *const consts = p->consts;   /* the inlined hot operations read these */
#endif
    uint32_t pc = st->pc;
    bool fast = all_lanes(st);
    eg_soft_reg_t t;
    for (;;) {
        if (fast && p->thread) pc = eg_vm_thread_run(p, st, pc);
        const eg_vm_inst_t *in = &code[pc++];
        switch (in->op) {
        case EG_VM_END:
            st->done = true;
            st->pc = pc - 1u;
            return;
        case EG_VM_BLOCK:
            st->exec = st->pending[in->imm] & st->alive;
            st->pending[in->imm] = 0;
            if (!st->exec) pc = (uint32_t)in->a | (uint32_t)in->b << 16;
            fast = all_lanes(st);
            continue;
        case EG_VM_BR: case EG_VM_BRC: case EG_VM_SWITCH: {
            uint32_t at = pc - 1u, jump = ~0u;
            eg_soft_mask_t m = st->exec;
            if (in->op == EG_VM_BR) {
                branch(p, st, in->imm, m, at, &jump);
            } else if (in->op == EG_VM_BRC) {
                eg_soft_mask_t c = mask_of(rd(p, st, in->a));
                branch(p, st, in->imm, m & c, at, &jump);
                branch(p, st, in->d, m & ~c, at, &jump);
            } else {
                const eg_soft_reg_t *sel = rd(p, st, in->a);
                for (uint32_t k = 0; k < in->c; k++) {
                    const eg_vm_inst_t *cs = &code[pc + k];
                    eg_soft_mask_t hit = 0;
                    L_ hit |= (eg_soft_mask_t)(sel->u[l] == cs->imm) << l;
                    branch(p, st, cs->d, m & hit, at, &jump);
                    m &= ~hit;
                }
                branch(p, st, in->imm, m, at, &jump);
                pc += in->c;
            }
            st->exec = 0;
            fast = false;
            if (jump != ~0u) pc = jump;
            continue;
        }
        case EG_VM_KILL:
            st->alive &= ~st->exec;
            st->exec = 0;
            st->whole = 0;
            fast = false;
            continue;
        case EG_VM_BARRIER:
            st->pc = pc;
            return;
        case EG_VM_MASK_AND: st->saved = st->exec; st->exec &= mask_of(rd(p, st, in->a)); fast = all_lanes(st); continue;
        case EG_VM_MASK_ANDN: st->saved = st->exec; st->exec &= ~mask_of(rd(p, st, in->a)); fast = all_lanes(st); continue;
        case EG_VM_MASK_RESTORE: st->exec = st->saved; fast = all_lanes(st); continue;
        case EG_VM_CASE: continue;
        case EG_VM_LDBUF:
            /* a uniform (one address for every lane) with every lane that matters running:
             * memory_op's broadcast without its call and second dispatch; lanes outside the
             * mask get the value too, as the direct ALU paths do (a vertex shader's mat4 is 16
             * of these per 16 vertices, between threaded ALU runs) */
            if (fast && in->a == EG_VM_NONE && in->dst != EG_VM_NONE) {
                const uint8_t *q = in_range(st->res->mem[in->d], st->res->size_B[in->d], in->imm);
                uint32_t v = q ? load32(q) : 0u;
                eg_soft_reg_t *d = &regs[in->dst];
                L_ d->u[l] = v;
                continue;
            }
            break;
#if VM_SIMD
        /* The hot ALU operations inline: one dispatch per instruction instead of two, the same
         * vector bodies as eg_vm_alu; straight into the destination when every lane that
         * matters runs, else into t and merged under the mask. */
#define HOT_(n, body) \
            if (in->dst != EG_VM_NONE && (fast || st->exec)) { \
                eg_soft_reg_t *d = fast ? &regs[in->dst] : &t; \
                const eg_soft_reg_t *a = RD_(in->a), *b = (n) > 1 ? RD_(in->b) : a, *c = (n) > 2 ? RD_(in->c) : a; \
                (void)b; (void)c; \
                body \
                if (!fast) vm_commit(&regs[in->dst], &t, st->exec); \
                continue; \
            } \
            break;
#define RD_(r) ((r) >= EG_VM_CONST_BASE ? &consts[(r) - EG_VM_CONST_BASE] : &regs[r])
        case EG_VM_MOV: HOT_(1, VU1_(x))
        case EG_VM_FADD: HOT_(2, VF2_(x + y))
        case EG_VM_FSUB: HOT_(2, VF2_(x - y))
        case EG_VM_FMUL: HOT_(2, VF2_(x * y))
        case EG_VM_FFMA: HOT_(3, VFMA_)
        case EG_VM_FMIX: HOT_(3, VMIX_)
        case EG_VM_FMIN: HOT_(2, VPICK_(y < x))
        case EG_VM_FMAX: HOT_(2, VPICK_(x < y))
        case EG_VM_FCLAMP: HOT_(3, VCLAMP_)
        case EG_VM_SELECT: HOT_(3, VSELECT_)
        case EG_VM_FLT: HOT_(2, VCMP_(x < y))
        case EG_VM_FGT: HOT_(2, VCMP_(x > y))
        case EG_VM_FLE: HOT_(2, VCMP_(x <= y))
        case EG_VM_FGE: HOT_(2, VCMP_(x >= y))
        case EG_VM_FABS: HOT_(1, VU1_(x & 0x7fffffffu))
        case EG_VM_FNEG: HOT_(1, VU1_(x ^ 0x80000000u))
        case EG_VM_FFLOOR: HOT_(1, VFLOOR_)
        case EG_VM_FFRACT: HOT_(1, VFRACT_)
#ifdef VM_SIMD_SQRT
        case EG_VM_FSQRT: HOT_(1, VSQRT_)
#endif
        case EG_VM_IADD: HOT_(2, VU2_(x + y))
        case EG_VM_AND: HOT_(2, VU2_(x & y))
        case EG_VM_OR: HOT_(2, VU2_(x | y))
#undef RD_
#undef HOT_
#endif
        default:
            break;
        }
        if (!st->exec) continue;
        bool direct = fast && in->dst != EG_VM_NONE;
        if (in->op < EG_VM_LD_IN || in->op > EG_VM_ATOM) {
            if (in->op >= EG_VM_SAMPLE) { eg_vm_image(p, st, in); continue; }
            if (in->op == EG_VM_UNPACK_H2) {
                memory_op(p, st, in, &t);
            } else if (direct && (in->op < EG_VM_DPDX || in->op > EG_VM_FWIDTH)) {
                /* not derivatives: they read other lanes of a, which may be d */
                eg_vm_alu(in->op, &regs[in->dst], rd(p, st, in->a), rd(p, st, in->b), rd(p, st, in->c));
                continue;
            } else {
                eg_vm_alu(in->op, &t, rd(p, st, in->a), rd(p, st, in->b), rd(p, st, in->c));
            }
        } else if (in->op == EG_VM_LD_IN && in->dst != EG_VM_NONE) {
            /* a struct copy or a vector blend, inlined (eg_memcpy is a library call) */
            vm_commit(&regs[in->dst], &st->inv->in[in->imm >> 2].c[in->imm & 3u], direct ? EG_SOFT_ALL_LANES : st->exec);
            continue;
        } else if (in->op == EG_VM_ST_OUT) {
            vm_commit(&st->inv->out[in->imm >> 2].c[in->imm & 3u], rd(p, st, in->a), st->exec);
            continue;
        } else if (direct && in->op == EG_VM_LD_SYS) {
            load_sys(st, in->imm, &regs[in->dst], p);
            continue;
        } else {
            memory_op(p, st, in, &t);
        }
        if (writes_dst(in->op) && in->dst != EG_VM_NONE) commit(&regs[in->dst], &t, st->exec);
    }
}

/* The bind-group entry at program resource slot i, or NULL where none is bound. */
static const eg_bind_entry_t *slot_entry(const eg_soft_program_t *p, const eg_soft_bound_t *bound, uint32_t i)
{
    if (i >= p->slot_count || !bound) return NULL;
    const eg_vm_slot_t *s = &p->slots[i];
    const eg_bind_group_t *bg = bound->groups[s->group];
    return bg && s->entry < bg->entry_count ? &bg->entries[s->entry] : NULL;
}

/* The texture view or sampler of a bind-group entry that is not a buffer. */
static const void *entry_object(const eg_bind_entry_t *e)
{
    return e->view ? (const void *)e->view : (const void *)e->sampler;
}

const void *eg_vm_slot_object(const eg_soft_program_t *p, const eg_soft_bound_t *bound, uint32_t slot)
{
    const eg_bind_entry_t *e = slot_entry(p, bound, slot);
    return e && !e->buffer ? entry_object(e) : NULL;
}

/* Resolves the program's resource slots against the bound groups (offsets, sizes, objects). */
void eg_vm_bind(const eg_soft_program_t *p, const eg_soft_bound_t *bound, eg_vm_res_t *res)
{
    for (uint32_t i = 0; i < p->slot_count; i++) {
        const eg_vm_slot_t *s = &p->slots[i];
        const eg_bind_entry_t *e = slot_entry(p, bound, i);
        res->mem[i] = NULL;
        res->size_B[i] = 0;
        res->obj[i] = NULL;
        if (!e) continue;
        if (e->buffer) {
            uint64_t off = e->offset_B, size = e->size_B, buf_B = e->buffer->size_B;
            if (s->dynamic) off += bound->dynamic_offsets[s->group][s->dynamic - 1u];
            if (off > buf_B) off = buf_B;
            if (size > buf_B - off) size = buf_B - off;        /* never past the buffer */
            if (size > 0xfffffff0u) size = 0xfffffff0u;
            res->mem[i] = eg_soft_buffer_mem(e->buffer) ? eg_soft_buffer_mem(e->buffer) + off : NULL;
            res->size_B[i] = (uint32_t)size;
        } else {
            res->obj[i] = entry_object(e);   /* (e found once: not eg_vm_slot_object's second lookup) */
        }
    }
}

static void program_run(const eg_soft_program_t *p, const eg_soft_bound_t *res, eg_soft_invocation_t *inv,
                        eg_soft_reg_t *regs);

/* inv->regs NULL (tests, tools): the register file on this frame, kept out of the other path */
static EG_NOINLINE void program_run_stack(const eg_soft_program_t *p, const eg_soft_bound_t *res, eg_soft_invocation_t *inv)
{
    eg_soft_reg_t regs[EMGPU_SOFT_VM_MAX_REGS];
    program_run(p, res, inv, regs);
}

void eg_soft_program_run(const eg_soft_program_t *p, const eg_soft_bound_t *res, eg_soft_invocation_t *inv)
{
    if (inv->regs) program_run(p, res, inv, inv->regs);
    else program_run_stack(p, res, inv);
}

/* BATCH RUNS (vtxquad): a vertex batch calls the same program with the same bindings and
 * register file for every group of lanes; program_run's bind and uniform words (~150
 * instructions a call, ~35 a quad on the UI row) are the same every time, and nothing writes the
 * words' register (above reg_count: the code only reads it, soft_jit.c whole_ld) between the
 * calls. So they are written once, then each full group calls the whole function as program_run
 * would. */
bool eg_soft_program_batch_prep(const eg_soft_program_t *p, const eg_soft_bound_t *res, eg_soft_reg_t *regs)
{
#if EMGPU_SOFT_JIT
    if (!p->jit || !p->jit_whole_at || !regs) return false;
    if (p->jit_ld_count) {   /* program_run's words */
        eg_vm_res_t bound;
        uint32_t *w = regs[p->reg_count].u;
        eg_vm_bind(p, res, &bound);
        for (uint32_t k = 0; k < p->jit_ld_count; k++) {
            const eg_vm_inst_t *in = &p->code[p->jit_ld_pc[k]];
            const uint8_t *q = in_range(bound.mem[in->d], bound.size_B[in->d], in->imm);
            w[k] = q ? load32(q) : 0u;
        }
    }
    return true;
#else
    (void)p;
    (void)res;
    (void)regs;
    return false;
#endif
}

void eg_soft_program_batch_run(const eg_soft_program_t *p, eg_soft_invocation_t *inv)
{
#if EMGPU_SOFT_JIT
    ((eg_vm_jit_whole_fn_t)(uintptr_t)(p->jit + p->jit_whole_at))(inv->regs, inv);
#else
    (void)p;
    (void)inv;
#endif
}

static void program_run(const eg_soft_program_t *p, const eg_soft_bound_t *res, eg_soft_invocation_t *inv,
                        eg_soft_reg_t *regs)
{
    eg_soft_mask_t pending[EMGPU_SOFT_VM_MAX_BLOCKS];
    eg_vm_res_t bound;
#if EMGPU_SOFT_JIT
    /* the whole program as one native function (soft_jit.c): no bind (it reads no resource but
     * a vertex program's uniform words, written here first), no pending masks, no interpreter
     * entry; all lanes active, none killed */
    if (p->jit && p->jit_whole_at && inv->active == EG_SOFT_ALL_LANES) {
        if (p->jit_ld_count) {   /* the uniform words the code broadcasts (soft_jit.c whole_ld) */
            uint32_t *w = regs[p->reg_count].u;
            eg_vm_bind(p, res, &bound);
            for (uint32_t k = 0; k < p->jit_ld_count; k++) {   /* memory_op's LDBUF, !dyn */
                const eg_vm_inst_t *in = &p->code[p->jit_ld_pc[k]];
                const uint8_t *q = in_range(bound.mem[in->d], bound.size_B[in->d], in->imm);
                w[k] = q ? load32(q) : 0u;
            }
        }
        ((eg_vm_jit_whole_fn_t)(uintptr_t)(p->jit + p->jit_whole_at))(regs, inv);
        return;
    }
#endif
    eg_vm_bind(p, res, &bound);
    eg_memset(pending, 0, p->block_count * sizeof pending[0]);
    eg_vm_state_t st = { .regs = regs, .pending = pending, .exec = inv->active, .alive = inv->active,
                         .side = inv->active & ~inv->helper, .whole = inv->active, .inv = inv, .res = &bound };
    pending[0] = inv->active;
    eg_vm_run(p, &st);
    inv->active = st.alive;
}

#endif /* EMGPU_HAL_SOFT */
