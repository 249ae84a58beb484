/* hal/d3d12 TPF emitter: variables, access chains, loads/stores (temps, x#, cbuffers, raw buffers, g#), atomics, barriers. */
#include "config/emgpu_config.h"

#if EMGPU_D3D12_TPF

#include "hal/d3d12/d3d_tpf_internal.h"

static bool is_const(const tpf_t *t, uint32_t id) { return t->ir->values[id].kind == EG_IR_VAL_CONST; }

/* Which Function/Private variables are indexed with a non-constant index (they live in x#
 * indexable temps, the others in plain temps), and which samplers do depth comparisons. */
bool tpf_prescan(tpf_t *t)
{
    const eg_ir_t *ir = t->ir;
    uint32_t *root = eg_arena_alloc(t->arena, (size_t)ir->value_count * 4u, 4);
    if (!root) return tpf_fail(t, "%s full: raise %s", t->arena->name, t->arena->knob);
    eg_memset(root, 0, (size_t)ir->value_count * 4u);
    for (uint32_t f = 0; f < ir->function_count; f++)
        for (uint32_t a = 0; a < ir->functions[f].param_count; a++)
            root[ir->functions[f].first_param + a] = ir->functions[f].first_param + a;
    /* A pointer parameter indexed dynamically marks the root of every argument passed for it;
     * callees come before their callers, so a few passes carry that up call chains. */
    for (uint32_t pass = 0; pass < 4; pass++)
    for (uint32_t i = 0; i < ir->inst_count; i++) {
        const eg_ir_inst_t *in = &ir->insts[i];
        if (in->op == SpvOpFunctionCall) {
            const eg_ir_function_t *f = &ir->functions[ir->values[in->operands[0]].index];
            for (uint32_t a = 0; a + 1 < in->operand_count && a < f->param_count; a++) {
                uint32_t arg = in->operands[1 + a], r = ir->values[arg].kind == EG_IR_VAL_VAR ? arg : root[arg];
                root[f->first_param + a] = f->first_param + a;
                if (r && t->var_indexed[f->first_param + a]) t->var_indexed[r] = 1;
            }
        }
        if (in->op == SpvOpVariable) root[in->result] = in->result;
        if ((in->op == SpvOpAccessChain || in->op == SpvOpInBoundsAccessChain) && in->operand_count) {
            uint32_t base = in->operands[0];
            uint32_t r = ir->values[base].kind == EG_IR_VAL_VAR ? base : root[base];
            root[in->result] = r;
            for (uint32_t k = 1; k < in->operand_count && r; k++)
                if (!is_const(t, in->operands[k])) t->var_indexed[r] = 1;
        }
        if (in->op == SpvOpSampledImage) root[in->result] = in->operands[1];
        if (in->op == SpvOpLoad && in->operand_count) root[in->result] = in->operands[0];
    }
    /* Variables the entry point accesses (operands that are pointers): only those are declared,
     * since the pipeline layout (and so the root signature) may leave the others out. */
    for (uint32_t i = 0; i < ir->inst_count; i++) {
        const eg_ir_inst_t *in = &ir->insts[i];
        uint32_t first = 0, last = 0;                 /* operand range holding pointers */
        switch (in->op) {
        case SpvOpLoad: case SpvOpStore: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
        case SpvOpArrayLength: case SpvOpImageTexelPointer:
            last = 1; break;
        case SpvOpCopyMemory: last = 2; break;
        case SpvOpFunctionCall: first = 1; last = in->operand_count; break;
        default:
            if (in->op >= SpvOpAtomicLoad && in->op <= SpvOpAtomicXor) last = 1;
            break;
        }
        for (uint32_t k = first; k < last && k < in->operand_count; k++)
            if (in->operands[k] < ir->value_count && ir->values[in->operands[k]].kind == EG_IR_VAL_VAR)
                t->var_used[in->operands[k]] = 1;
    }
    for (uint32_t i = 0; i < ir->inst_count; i++) {
        const eg_ir_inst_t *in = &ir->insts[i];
        if (in->op != SpvOpImageSampleDrefImplicitLod && in->op != SpvOpImageSampleDrefExplicitLod &&
            in->op != SpvOpImageDrefGather) continue;
        uint32_t smp = root[in->operands[0]];           /* OpSampledImage -> its sampler (a load) */
        smp = smp ? root[smp] : 0;                      /* the load -> the variable */
        if (smp) t->cmp_sampler[smp] = 1;
    }
    /* Workgroup/uniform/storage variables are never x#; only Function and Private ones. */
    for (uint32_t i = 0; i < ir->var_count; i++)
        if (ir->vars[i].storage != SpvStorageClassPrivate && ir->vars[i].storage != SpvStorageClassOutput)
            t->var_indexed[ir->vars[i].id] = 0;
    return true;
}

tpf_val_t tpf_var_regs(tpf_t *t, uint32_t type, uint32_t init)
{
    uint32_t n = eg_ir_scalars(t->ir, type), ni = 0;
    tpf_val_t v = tpf_new_comps(t, n);
    const tpf_sc_t *src = init ? tpf_comps(t, init, &ni) : NULL;
    for (uint32_t i = 0; i < v.n; i++) tpf_op1(t, TPF_MOV, t->comps[v.idx + i].v, src && i < ni ? src[i] : tpf_imm(0));
    return v;
}

static bool explicit_layout(const tpf_ptr_t *p) { return p->space == SP_CB || p->space == SP_RAW; }

/* ---- scalar offsets of a type (flattened order), without recursion ---- */

#define FLAT_MAX 256u

typedef struct flat { uint32_t type, off, mstride; uint8_t rm, col; } flat_t;

static uint32_t flatten(tpf_t *t, const tpf_ptr_t *p, uint32_t *offs)
{
    flat_t st[24];
    uint32_t sp = 0, n = 0;
    bool ex = explicit_layout(p);
    st[sp++] = (flat_t){ p->type, p->off_B, p->mstride_B, p->row_major, (uint8_t)(p->mstride_B != 0) };
    while (sp && n < FLAT_MAX) {
        flat_t e = st[--sp];
        const eg_ir_type_t *ty = eg_ir_type(t->ir, e.type);
        switch (ty->kind) {
        case EG_IR_STRUCT:
            for (uint32_t m = ty->count; m-- > 0 && sp < 24;) {
                uint32_t off = e.off;
                if (ex) off += ty->members[m].offset_B;
                else for (uint32_t k = 0; k < m; k++) off += eg_ir_scalars(t->ir, ty->members[k].type) * 4u;
                st[sp++] = (flat_t){ ty->members[m].type, off, ty->members[m].matrix_stride_B,
                                                ty->members[m].row_major, 0 };
            }
            break;
        case EG_IR_ARRAY: {
            uint32_t stride = ex && ty->stride_B ? ty->stride_B : eg_ir_scalars(t->ir, ty->elem) * 4u;
            for (uint32_t i = ty->count; i-- > 0 && sp < 24;)
                st[sp++] = (flat_t){ ty->elem, e.off + i * stride, e.mstride, e.rm, 0 };
            break;
        }
        case EG_IR_MATRIX: {
            uint32_t rows = eg_ir_type(t->ir, ty->elem)->count, ms = ex && e.mstride ? e.mstride : rows * 4u;
            for (uint32_t c = 0; c < ty->count; c++)
                for (uint32_t r = 0; r < rows && n < FLAT_MAX; r++)
                    offs[n++] = e.off + (ex && e.rm ? r * ms + c * 4u : c * ms + r * 4u);
            break;
        }
        case EG_IR_VECTOR:
            for (uint32_t i = 0; i < ty->count && n < FLAT_MAX; i++)
                offs[n++] = e.off + i * (ex && e.col && e.rm ? e.mstride : 4u);
            break;
        default:
            offs[n++] = e.off;
            break;
        }
    }
    return n;
}

/* Dynamic byte offset + static offset, as one scalar. */
static tpf_sc_t address(tpf_t *t, const tpf_ptr_t *p, uint32_t off_B)
{
    if (!p->has_dyn) return tpf_imm(off_B);
    if (off_B == 0) return p->dyn;
    uint32_t d = tpf_temp(t);
    tpf_op2(t, TPF_IADD, d, p->dyn, tpf_imm(off_B));
    return tpf_tsc(d);
}

static void rel_operand(tpf_t *t, uint32_t type, uint32_t order, const uint32_t *idx, uint32_t rel_slot,
                        tpf_sc_t rel, uint32_t comps_bits)
{
    tpf_tok(t, comps_bits | type << 12 | order << 20 | 3u << (22 + 3 * rel_slot));
    for (uint32_t i = 0; i < order; i++) {
        tpf_tok(t, idx[i]);
        if (i == rel_slot) tpf_o_src(t, rel);
    }
}

static tpf_sc_t load_scalar(tpf_t *t, const tpf_ptr_t *p, uint32_t off_B)
{
    uint32_t d;
    switch (p->space) {
    case SP_REG:
        return tpf_mov_new(t, t->comps[p->base + off_B / 4u]);
    case SP_XREG: {
        d = tpf_temp(t);
        uint32_t idx[2] = { p->res, off_B / 4u };
        tpf_begin(t, TPF_MOV);
        tpf_o_dst(t, d);
        if (p->has_dyn) rel_operand(t, TPF_R_XTEMP, 2, idx, 1, p->dyn, 2u | 2u << 2);
        else tpf_o_reg(t, TPF_R_XTEMP, 2, idx, 2u | 2u << 2);
        tpf_end(t);
        return tpf_tsc(d);
    }
    case SP_CB: {
        const tpf_res_t *r = &t->res[p->res];
        uint32_t idx[3] = { r->range, r->reg, off_B / 16u };
        if (!p->has_dyn) return tpf_cb_load(t, p->res, off_B / 16u, (off_B / 4u) & 3u);
        /* Dynamic: the row is (dyn + off) >> 4; the component is static when the dynamic part
         * moves in whole rows, else picked from the loaded row. */
        if (p->dyn_align % 16u == 0) {
            tpf_sc_t row = tpf_mov_new(t, tpf_imm(0));
            tpf_op2(t, TPF_USHR, row.v, p->dyn, tpf_imm(4));
            d = tpf_temp(t);
            tpf_begin(t, TPF_MOV); tpf_o_dst(t, d);
            rel_operand(t, TPF_R_CB, 3, idx, 2, row, 2u | 2u << 2 | ((off_B / 4u) & 3u) << 4);
            tpf_end(t);
            return tpf_tsc(d);
        }
        tpf_sc_t a = address(t, p, off_B);
        uint32_t row = tpf_temp(t), v = tpf_vtemp(t);
        tpf_op2(t, TPF_USHR, row, a, tpf_imm(4));
        idx[2] = 0;
        tpf_begin(t, TPF_MOV); tpf_o_dstv(t, v, 0xf);
        rel_operand(t, TPF_R_CB, 3, idx, 2, tpf_tsc(row), 2u | 1u << 2 | TPF_SWZ_XYZW << 4);
        tpf_end(t);
        uint32_t comp = tpf_temp(t);       /* (address >> 2) & 3 */
        tpf_begin(t, TPF_UBFE); tpf_o_dst(t, comp); tpf_o_src(t, tpf_imm(2)); tpf_o_src(t, tpf_imm(2));
        tpf_o_src(t, a); tpf_end(t);
        tpf_sc_t res = tpf_tsc(v * 4u);
        for (uint32_t c = 1; c < 4; c++) {
            uint32_t eq = tpf_temp(t);
            tpf_op2(t, TPF_IEQ, eq, tpf_tsc(comp), tpf_imm(c));
            res = tpf_sel(t, tpf_tsc(eq), tpf_tsc(v * 4u + c), res);
        }
        return res;
    }
    default:
        tpf_fail(t, "DXBC emitter: internal: raw load through load_scalar");
        return tpf_imm(0);
    }
}

void tpf_load_ptr(tpf_t *t, const tpf_ptr_t *p, tpf_sc_t *out, uint32_t n)
{
    uint32_t offs[FLAT_MAX];
    uint32_t k = flatten(t, p, offs);
    if (k < n) { tpf_fail(t, "DXBC emitter: a load of more than %u scalars", FLAT_MAX); return; }
    for (uint32_t i = 0; i < n; i++) {
        if (p->space == SP_RAW || p->space == SP_TGSM) {
            tpf_sc_t a = address(t, p, offs[i]);
            uint32_t d = tpf_temp(t);
            /* ld_raw dst.x, address, resource.x. Out-of-bounds raw loads through a view return
             * 0 (D3D12), which WebGPU's robust access allows; every storage binding, dynamic
             * ones included, is a sized view (d3d_tpf.h). Fixed-size array indices are clamped
             * by the access chain. */
            tpf_begin(t, TPF_LD_RAW);
            tpf_o_dst(t, d);
            tpf_o_src(t, a);
            if (p->space == SP_RAW) tpf_o_res(t, p->res, 0x00);
            else { uint32_t g = p->res; tpf_o_reg(t, TPF_R_TGSM, 1, &g, 2u | 1u << 2); }
            tpf_end(t);
            out[i] = tpf_tsc(d);
        } else {
            out[i] = load_scalar(t, p, offs[i]);
        }
    }
}

void tpf_store_ptr(tpf_t *t, const tpf_ptr_t *p, const tpf_sc_t *src, uint32_t n)
{
    uint32_t offs[FLAT_MAX];
    uint32_t k = flatten(t, p, offs);
    if (k < n) { tpf_fail(t, "DXBC emitter: a store of more than %u scalars", FLAT_MAX); return; }
    for (uint32_t i = 0; i < n; i++) {
        switch (p->space) {
        case SP_REG:
            tpf_op1(t, TPF_MOV, t->comps[p->base + offs[i] / 4u].v, src[i]);
            break;
        case SP_XREG: {
            uint32_t idx[2] = { p->res, offs[i] / 4u };
            tpf_begin(t, TPF_MOV);
            if (p->has_dyn) rel_operand(t, TPF_R_XTEMP, 2, idx, 1, p->dyn, 2u | 1u << 4);
            else tpf_o_reg(t, TPF_R_XTEMP, 2, idx, 2u | 1u << 4);
            tpf_o_src(t, src[i]);
            tpf_end(t);
            break;
        }
        case SP_CB:
            tpf_fail(t, "DXBC emitter: a store into a uniform buffer");
            return;
        default: {  /* store_raw u.x / g.x, address, value: D3D12 drops out-of-bounds raw stores. */
            tpf_sc_t a = address(t, p, offs[i]);
            tpf_begin(t, TPF_STORE_RAW);
            if (p->space == SP_RAW) {
                const tpf_res_t *r = &t->res[p->res];
                uint32_t idx[2] = { r->range, r->reg };
                tpf_o_reg(t, TPF_R_UAV, 2, idx, 2u | 1u << 4);
            } else {
                uint32_t g = p->res;
                tpf_o_reg(t, TPF_R_TGSM, 1, &g, 2u | 1u << 4);
            }
            tpf_o_src(t, a);
            tpf_o_src(t, src[i]);
            tpf_end(t);
            break;
        }
        }
    }
}

#endif /* EMGPU_D3D12_TPF */
