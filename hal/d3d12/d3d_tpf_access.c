/* hal/d3d12 TPF emitter: OpVariable/OpAccessChain/OpLoad/OpStore, arrayLength, atomics, barriers and image instructions. */
#include "config/emgpu_config.h"

#if EMGPU_D3D12_TPF

#include "hal/d3d12/d3d_tpf_internal.h"

static tpf_ptr_t *ptr_of(tpf_t *t, uint32_t id)
{
    static tpf_ptr_t none;
    tpf_val_t *v = tpf_val(t, id);
    if (v->kind != TV_PTR) { tpf_fail(t, "DXBC emitter: value %u is used as a pointer but is not one", (unsigned)id); return &none; }
    return &t->ptrs[v->idx];
}

/* dyn += index * stride (bytes); fixed-size arrays clamp the index first (WebGPU robust access:
 * an out-of-bounds index must stay inside the array). */
static void add_dyn(tpf_t *t, tpf_ptr_t *p, tpf_sc_t idx, uint32_t stride_B, uint32_t count)
{
    if (count) {
        uint32_t c = tpf_temp(t);
        tpf_op2(t, TPF_UMIN, c, idx, tpf_imm(count - 1u));
        idx = tpf_tsc(c);
    }
    uint32_t d = tpf_temp(t);
    if (p->has_dyn) {
        tpf_op3(t, TPF_IMAD, d, idx, tpf_imm(stride_B), p->dyn);
    } else {                                    /* imul has two destinations: hi (dropped), lo */
        tpf_begin(t, TPF_IMUL); tpf_tok(t, TPF_R_NULL << 12); tpf_o_dst(t, d); tpf_o_src(t, idx);
        tpf_o_src(t, tpf_imm(stride_B)); tpf_end(t);
    }
    uint32_t a = stride_B & (~stride_B + 1u);                 /* lowest set bit */
    p->dyn_align = p->has_dyn ? (p->dyn_align < a ? p->dyn_align : a) : a;
    p->dyn = tpf_tsc(d);
    p->has_dyn = 1;
}

static bool access_chain(tpf_t *t, const eg_ir_inst_t *in)
{
    tpf_ptr_t p = *ptr_of(t, in->operands[0]);
    bool ex = p.space == SP_CB || p.space == SP_RAW;
    for (uint32_t k = 1; k < in->operand_count && !t->failed; k++) {
        const eg_ir_type_t *ty = eg_ir_type(t->ir, p.type);
        uint32_t id = in->operands[k], n;
        tpf_sc_t idx = tpf_comps(t, id, &n)[0];
        bool konst = idx.imm;
        uint32_t stride, count = 0;
        switch (ty->kind) {
        case EG_IR_STRUCT: {
            uint32_t m = idx.v < ty->count ? idx.v : 0;
            if (ex) p.off_B += ty->members[m].offset_B;
            else for (uint32_t j = 0; j < m; j++) p.off_B += eg_ir_scalars(t->ir, ty->members[j].type) * 4u;
            p.mstride_B = ty->members[m].matrix_stride_B;
            p.row_major = ty->members[m].row_major;
            p.type = ty->members[m].type;
            continue;
        }
        case EG_IR_ARRAY: case EG_IR_RUNTIME_ARRAY:
            stride = ex && ty->stride_B ? ty->stride_B : eg_ir_scalars(t->ir, ty->elem) * 4u;
            count = ty->kind == EG_IR_ARRAY ? ty->count : 0;
            break;
        case EG_IR_MATRIX: {
            uint32_t rows = eg_ir_type(t->ir, ty->elem)->count;
            stride = ex ? (p.row_major ? 4u : p.mstride_B) : rows * 4u;
            count = ty->count;
            if (!ex) p.mstride_B = 0;
            break;
        }
        case EG_IR_VECTOR:
            stride = ex && p.row_major && p.mstride_B ? p.mstride_B : 4u;
            count = ty->count;
            break;
        default:
            return tpf_unsupported(t, in, "an access chain into a scalar");
        }
        if (ty->kind == EG_IR_VECTOR) p.mstride_B = 0;
        p.type = ty->elem;
        if (konst) p.off_B += (count && idx.v >= count ? count - 1u : idx.v) * stride;
        else add_dyn(t, &p, idx, stride, count);
    }
    if ((p.space == SP_REG) && p.has_dyn)
        return tpf_unsupported(t, in, "a dynamic index into a variable kept in registers");
    if (p.space == SP_XREG && p.has_dyn) {                  /* x# indices count scalars, not bytes */
        uint32_t d = tpf_temp(t);
        tpf_op2(t, TPF_USHR, d, p.dyn, tpf_imm(2));
        p.dyn = tpf_tsc(d);
    }
    t->vals[in->result] = (tpf_val_t){ TV_PTR, 1, tpf_new_ptr(t, &p) };
    return !t->failed;
}

static bool function_var(tpf_t *t, const eg_ir_inst_t *in)
{
    uint32_t type = eg_ir_type(t->ir, in->type)->elem, init = in->operand_count > 1 ? in->operands[1] : 0;
    tpf_ptr_t p = { .space = SP_REG, .type = type };
    if (t->var_indexed[in->result]) {
        if (t->xreg_n >= TPF_MAX_XREGS) return tpf_fail(t, "DXBC emitter: more than %u indexed arrays", TPF_MAX_XREGS);
        uint32_t n = eg_ir_scalars(t->ir, type), ni = 0;
        p.space = SP_XREG; p.res = (uint16_t)t->xreg_n; t->xreg_size[t->xreg_n++] = n;
        const tpf_sc_t *src = init ? tpf_comps(t, init, &ni) : NULL;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t idx[2] = { p.res, i };
            tpf_begin(t, TPF_MOV);
            tpf_o_reg(t, TPF_R_XTEMP, 2, idx, 2u | 1u << 4);
            tpf_o_src(t, src && i < ni ? src[i] : tpf_imm(0));
            tpf_end(t);
        }
    } else {
        p.base = tpf_var_regs(t, type, init).idx;
    }
    t->vals[in->result] = (tpf_val_t){ TV_PTR, 1, tpf_new_ptr(t, &p) };
    return !t->failed;
}

/* arrayLength: (buffer bytes - offset of the runtime array) / its stride, via bufinfo. */
static bool array_length(tpf_t *t, const eg_ir_inst_t *in)
{
    tpf_ptr_t *p = ptr_of(t, in->operands[0]);
    if (p->space != SP_RAW) return tpf_unsupported(t, in, "arrayLength of a non-storage buffer");
    const eg_ir_type_t *st = eg_ir_type(t->ir, p->type);
    uint32_t m = in->operands[1] < st->count ? in->operands[1] : 0;
    uint32_t off = st->members[m].offset_B, stride = eg_ir_type(t->ir, st->members[m].type)->stride_B;
    uint32_t size = tpf_temp(t), d = tpf_temp(t);
    tpf_begin(t, TPF_BUFINFO); tpf_o_dst(t, size); tpf_o_res(t, p->res, 0x00); tpf_end(t);
    tpf_op2(t, TPF_UMAX, d, tpf_tsc(size), tpf_imm(off));
    tpf_op2(t, TPF_IADD, d, tpf_tsc(d), tpf_imm(~off + 1u));
    uint32_t q = tpf_temp(t);
    tpf_begin(t, TPF_UDIV); tpf_o_dst(t, q); tpf_tok(t, TPF_R_NULL << 12); tpf_o_src(t, tpf_tsc(d));
    tpf_o_src(t, tpf_imm(stride ? stride : 4u)); tpf_end(t);
    t->vals[in->result] = tpf_alias_comps(t, 1);
    t->comps[t->vals[in->result].idx] = tpf_tsc(q);
    return !t->failed;
}

bool tpf_atomic_operands(tpf_t *t, const eg_ir_inst_t *in, uint32_t *op, tpf_sc_t *v, tpf_sc_t *cmp)
{
    uint32_t n, vi = 3;                     /* SPIR-V operand holding the value, 0: none */
    *v = tpf_imm(0);
    *cmp = tpf_imm(0);
    switch (in->op) {
    case SpvOpAtomicLoad: *op = TPF_IMM_ATOMIC_OR; vi = 0; break;
    case SpvOpAtomicStore: case SpvOpAtomicExchange: *op = TPF_IMM_ATOMIC_EXCH; break;
    case SpvOpAtomicCompareExchange: *op = TPF_IMM_ATOMIC_CMP_EXCH; vi = 4; *cmp = tpf_comps(t, in->operands[5], &n)[0]; break;
    case SpvOpAtomicIIncrement: *op = TPF_IMM_ATOMIC_IADD; vi = 0; *v = tpf_imm(1); break;
    case SpvOpAtomicIDecrement: *op = TPF_IMM_ATOMIC_IADD; vi = 0; *v = tpf_imm(~0u); break;
    case SpvOpAtomicIAdd: case SpvOpAtomicISub: *op = TPF_IMM_ATOMIC_IADD; break;
    case SpvOpAtomicSMin: *op = TPF_IMM_ATOMIC_IMIN; break;
    case SpvOpAtomicUMin: *op = TPF_IMM_ATOMIC_UMIN; break;
    case SpvOpAtomicSMax: *op = TPF_IMM_ATOMIC_IMAX; break;
    case SpvOpAtomicUMax: *op = TPF_IMM_ATOMIC_UMAX; break;
    case SpvOpAtomicAnd: *op = TPF_IMM_ATOMIC_AND; break;
    case SpvOpAtomicOr: *op = TPF_IMM_ATOMIC_OR; break;
    case SpvOpAtomicXor: *op = TPF_IMM_ATOMIC_XOR; break;
    default: return false;
    }
    if (vi) *v = tpf_comps(t, in->operands[vi], &n)[0];
    if (in->op == SpvOpAtomicISub) { uint32_t d = tpf_temp(t); tpf_op1(t, TPF_INEG, d, *v); *v = tpf_tsc(d); }
    return true;
}

static bool atomic(tpf_t *t, const eg_ir_inst_t *in)
{
    tpf_ptr_t p = *ptr_of(t, in->operands[0]);
    if (p.space != SP_RAW && p.space != SP_TGSM) return tpf_unsupported(t, in, "an atomic outside storage/workgroup memory");
    uint32_t op;
    tpf_sc_t v, cmp;
    if (!tpf_atomic_operands(t, in, &op, &v, &cmp)) return tpf_unsupported(t, in, "this atomic");
    tpf_sc_t a = p.has_dyn ? p.dyn : tpf_imm(0);
    if (p.has_dyn && p.off_B) { uint32_t d = tpf_temp(t); tpf_op2(t, TPF_IADD, d, p.dyn, tpf_imm(p.off_B)); a = tpf_tsc(d); }
    else if (!p.has_dyn) a = tpf_imm(p.off_B);
    uint32_t d = tpf_temp(t);
    tpf_begin(t, op);
    tpf_o_dst(t, d);
    if (p.space == SP_RAW) {
        const tpf_res_t *r = &t->res[p.res];
        uint32_t idx[2] = { r->range, r->reg };
        tpf_o_reg(t, TPF_R_UAV, 2, idx, 2u | 1u << 4);
    } else {
        uint32_t g = p.res;
        tpf_o_reg(t, TPF_R_TGSM, 1, &g, 2u | 1u << 4);
    }
    tpf_o_src(t, a);
    if (op == TPF_IMM_ATOMIC_CMP_EXCH) tpf_o_src(t, cmp);
    tpf_o_src(t, v);
    tpf_end(t);
    if (in->result) {
        t->vals[in->result] = tpf_alias_comps(t, 1);
        t->comps[t->vals[in->result].idx] = tpf_tsc(d);
    }
    return !t->failed;
}

/* sync flags: 1 = thread group sync, 2 = group shared memory, 8 = global UAV memory. */
static bool barrier(tpf_t *t, const eg_ir_inst_t *in)
{
    bool control = in->op == SpvOpControlBarrier;
    uint32_t n, sem = tpf_comps(t, in->operands[control ? 2 : 1], &n)[0].v, flags = control ? 1u : 0u;
    if (sem & SpvMemorySemanticsWorkgroupMemoryMask) flags |= 2u;
    if (sem & (SpvMemorySemanticsUniformMemoryMask | SpvMemorySemanticsImageMemoryMask)) flags |= 8u;
    if (!(flags & 0xeu)) flags |= 2u;
    tpf_begin(t, TPF_SYNC | flags << 11);
    tpf_end(t);
    return !t->failed;
}

bool tpf_mem(tpf_t *t, const eg_ir_inst_t *in, bool *handled)
{
    *handled = true;
    uint32_t n;
    switch (in->op) {
    case SpvOpVariable: return function_var(t, in);
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: return access_chain(t, in);
    case SpvOpLoad: {
        tpf_val_t *src = tpf_val(t, in->operands[0]);
        if (src->kind != TV_PTR) { t->vals[in->result] = *src; return !t->failed; }  /* resources */
        n = eg_ir_scalars(t->ir, in->type);
        tpf_val_t v = tpf_alias_comps(t, n);
        tpf_load_ptr(t, &t->ptrs[src->idx], &t->comps[v.idx], n);
        if (eg_ir_scalar_kind(t->ir, in->type) == EG_IR_BOOL && t->ptrs[src->idx].space != SP_REG &&
            t->ptrs[src->idx].space != SP_XREG)
            for (uint32_t i = 0; i < n; i++) {                /* bools in memory are 0/1 */
                uint32_t d = tpf_temp(t);
                tpf_op2(t, TPF_INE, d, t->comps[v.idx + i], tpf_imm(0));
                t->comps[v.idx + i] = tpf_tsc(d);
            }
        t->vals[in->result] = v;
        return !t->failed;
    }
    case SpvOpStore: {
        tpf_sc_t *s = tpf_comps(t, in->operands[1], &n);
        tpf_store_ptr(t, ptr_of(t, in->operands[0]), s, n);
        return !t->failed;
    }
    case SpvOpCopyMemory: {
        tpf_ptr_t *dp = ptr_of(t, in->operands[0]), *sp = ptr_of(t, in->operands[1]);
        n = eg_ir_scalars(t->ir, sp->type);
        tpf_val_t v = tpf_alias_comps(t, n);
        tpf_load_ptr(t, sp, &t->comps[v.idx], n);
        tpf_store_ptr(t, dp, &t->comps[v.idx], n);
        return !t->failed;
    }
    case SpvOpArrayLength: return array_length(t, in);
    case SpvOpControlBarrier: case SpvOpMemoryBarrier: return barrier(t, in);
    case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange:
    case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
    case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax:
    case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor:
        return atomic(t, in);
    default:
        *handled = false;
        return true;
    }
}

#endif /* EMGPU_D3D12_TPF */
