/* hal/soft shader VM compiler: lowering of SPIR-V instructions (ALU, composites, memory). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_vm_compile.h"

#define N_ EG_VM_NONE

/* soft_vm_image.c: an atomic of kind (EG_VM_ATOM_*) on the texel of storage image `slot` (of
 * image type `img`) at the coordinate registers coord[0..n); returns the old value's register. */
uint32_t vm_lower_image_atomic(vm_cc_t *cc, uint32_t slot, uint32_t img, const uint32_t *coord, uint32_t n,
                               uint32_t kind, uint32_t value, uint32_t cmp);

typedef struct alu_map { uint16_t spv, vm; uint8_t arity; } alu_map_t;

/* Component-wise SPIR-V opcodes and the VM op each lane component becomes. */
static const alu_map_t alu_ops[] = {
    { SpvOpFAdd, EG_VM_FADD, 2 }, { SpvOpFSub, EG_VM_FSUB, 2 }, { SpvOpFMul, EG_VM_FMUL, 2 },
    { SpvOpFDiv, EG_VM_FDIV, 2 }, { SpvOpFRem, EG_VM_FREM, 2 }, { SpvOpFMod, EG_VM_FMOD, 2 },
    { SpvOpFNegate, EG_VM_FNEG, 1 }, { SpvOpIAdd, EG_VM_IADD, 2 }, { SpvOpISub, EG_VM_ISUB, 2 },
    { SpvOpIMul, EG_VM_IMUL, 2 }, { SpvOpSDiv, EG_VM_SDIV, 2 }, { SpvOpUDiv, EG_VM_UDIV, 2 },
    { SpvOpSRem, EG_VM_SREM, 2 }, { SpvOpSMod, EG_VM_SMOD, 2 }, { SpvOpUMod, EG_VM_UMOD, 2 },
    { SpvOpSNegate, EG_VM_INEG, 1 }, { SpvOpBitwiseAnd, EG_VM_AND, 2 }, { SpvOpBitwiseOr, EG_VM_OR, 2 },
    { SpvOpBitwiseXor, EG_VM_XOR, 2 }, { SpvOpNot, EG_VM_NOT, 1 },
    { SpvOpShiftLeftLogical, EG_VM_SHL, 2 }, { SpvOpShiftRightLogical, EG_VM_SHRL, 2 },
    { SpvOpShiftRightArithmetic, EG_VM_SHRA, 2 }, { SpvOpBitReverse, EG_VM_BITREV, 1 },
    { SpvOpBitCount, EG_VM_BITCOUNT, 1 }, { SpvOpBitFieldSExtract, EG_VM_BFES, 3 },
    { SpvOpBitFieldUExtract, EG_VM_BFEU, 3 },
    { SpvOpLogicalAnd, EG_VM_AND, 2 }, { SpvOpLogicalOr, EG_VM_OR, 2 }, { SpvOpLogicalNot, EG_VM_LNOT, 1 },
    { SpvOpLogicalEqual, EG_VM_IEQ, 2 }, { SpvOpLogicalNotEqual, EG_VM_INE, 2 },
    { SpvOpIEqual, EG_VM_IEQ, 2 }, { SpvOpINotEqual, EG_VM_INE, 2 },
    { SpvOpUGreaterThan, EG_VM_UGT, 2 }, { SpvOpSGreaterThan, EG_VM_SGT, 2 },
    { SpvOpUGreaterThanEqual, EG_VM_UGE, 2 }, { SpvOpSGreaterThanEqual, EG_VM_SGE, 2 },
    { SpvOpULessThan, EG_VM_ULT, 2 }, { SpvOpSLessThan, EG_VM_SLT, 2 },
    { SpvOpULessThanEqual, EG_VM_ULE, 2 }, { SpvOpSLessThanEqual, EG_VM_SLE, 2 },
    { SpvOpFOrdEqual, EG_VM_FEQ, 2 }, { SpvOpFUnordEqual, EG_VM_FUEQ, 2 },
    { SpvOpFOrdNotEqual, EG_VM_FNE, 2 }, { SpvOpFUnordNotEqual, EG_VM_FUNE, 2 },
    { SpvOpFOrdLessThan, EG_VM_FLT, 2 }, { SpvOpFUnordLessThan, EG_VM_FULT, 2 },
    { SpvOpFOrdGreaterThan, EG_VM_FGT, 2 }, { SpvOpFUnordGreaterThan, EG_VM_FUGT, 2 },
    { SpvOpFOrdLessThanEqual, EG_VM_FLE, 2 }, { SpvOpFUnordLessThanEqual, EG_VM_FULE, 2 },
    { SpvOpFOrdGreaterThanEqual, EG_VM_FGE, 2 }, { SpvOpFUnordGreaterThanEqual, EG_VM_FUGE, 2 },
    { SpvOpOrdered, EG_VM_FORD, 2 }, { SpvOpUnordered, EG_VM_FUNORD, 2 },
    { SpvOpIsNan, EG_VM_ISNAN, 1 }, { SpvOpIsInf, EG_VM_ISINF, 1 },
    { SpvOpConvertFToS, EG_VM_F2I, 1 }, { SpvOpConvertFToU, EG_VM_F2U, 1 },
    { SpvOpConvertSToF, EG_VM_I2F, 1 }, { SpvOpConvertUToF, EG_VM_U2F, 1 },
    { SpvOpDPdx, EG_VM_DPDX, 1 }, { SpvOpDPdxFine, EG_VM_DPDX, 1 }, { SpvOpDPdxCoarse, EG_VM_DPDX, 1 },
    { SpvOpDPdy, EG_VM_DPDY, 1 }, { SpvOpDPdyFine, EG_VM_DPDY, 1 }, { SpvOpDPdyCoarse, EG_VM_DPDY, 1 },
    { SpvOpFwidth, EG_VM_FWIDTH, 1 }, { SpvOpFwidthFine, EG_VM_FWIDTH, 1 },
    { SpvOpFwidthCoarse, EG_VM_FWIDTH, 1 },
};

static const alu_map_t *find_alu(uint32_t op)
{
    for (size_t i = 0; i < EG_ARRAY_LEN(alu_ops); i++)
        if (alu_ops[i].spv == op) return &alu_ops[i];
    return NULL;
}

static vm_val_t *result_of(vm_cc_t *cc, const eg_ir_inst_t *in) { return vm_val(cc, in->result); }

static void set_result(vm_cc_t *cc, const eg_ir_inst_t *in, vm_val_t v) { *result_of(cc, in) = v; }

/* out[i] = op(a[i], b[i], c[i]); an operand with one component is broadcast. */
static bool lower_alu(vm_cc_t *cc, const eg_ir_inst_t *in, const alu_map_t *m)
{
    uint32_t n[3] = { 0, 0, 0 }, *src[3] = { NULL, NULL, NULL }, count = 1;
    for (uint32_t i = 0; i < m->arity; i++) {
        src[i] = vm_comps(cc, in->operands[i], &n[i]);
        if (n[i] > count) count = n[i];
    }
    vm_val_t out = vm_new_comps(cc, count, false);
    for (uint32_t c = 0; c < count && !cc->failed; c++) {
        uint32_t r[3] = { N_, N_, N_ };
        for (uint32_t i = 0; i < m->arity; i++) r[i] = src[i][n[i] == 1 ? 0 : c];
        vm_emit(cc, m->vm, cc->comps[out.idx + c], r[0], r[1], r[2], N_, 0);
    }
    set_result(cc, in, out);
    if (m->vm == EG_VM_DPDX || m->vm == EG_VM_DPDY || m->vm == EG_VM_FWIDTH) cc->prog->info.uses_derivatives = true;
    return !cc->failed;
}

static uint32_t emit2(vm_cc_t *cc, uint32_t op, uint32_t a, uint32_t b)
{
    uint32_t t = vm_temp(cc);
    vm_emit(cc, op, t, a, b, N_, N_, 0);
    return t;
}

/* sum_k a[k * sa] * b[k * sb], left to right (a fixed order: same bits everywhere). */
static uint32_t dot(vm_cc_t *cc, const uint32_t *a, uint32_t sa, const uint32_t *b, uint32_t sb, uint32_t n)
{
    uint32_t acc = emit2(cc, EG_VM_FMUL, a[0], b[0]);
    for (uint32_t k = 1; k < n; k++) acc = emit2(cc, EG_VM_FADD, acc, emit2(cc, EG_VM_FMUL, a[k * sa], b[k * sb]));
    return acc;
}

static uint32_t rows_of(vm_cc_t *cc, uint32_t mat_type)
{
    return eg_ir_type(cc->ir, eg_ir_type(cc->ir, mat_type)->elem)->count;
}

static bool lower_matrix(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t na, nb = 0, *a = vm_comps(cc, in->operands[0], &na);
    uint32_t *b = in->operand_count > 1 ? vm_comps(cc, in->operands[1], &nb) : NULL;
    uint32_t nout = eg_ir_scalars(cc->ir, in->type);
    vm_val_t out = vm_alias_comps(cc, nout);
    uint32_t *o = &cc->comps[out.idx];
    switch (in->op) {
    case SpvOpDot: o[0] = dot(cc, a, 1, b, 1, na); break;
    case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar:
        for (uint32_t i = 0; i < nout; i++) o[i] = emit2(cc, EG_VM_FMUL, a[i], b[0]);
        break;
    case SpvOpMatrixTimesVector: {          /* o[r] = sum_c m[c][r] v[c] */
        uint32_t rows = nout;
        for (uint32_t r = 0; r < rows; r++) o[r] = dot(cc, a + r, rows, b, 1, nb);
        break;
    }
    case SpvOpVectorTimesMatrix: {          /* o[c] = sum_r v[r] m[c][r] */
        uint32_t rows = na;
        for (uint32_t c = 0; c < nout; c++) o[c] = dot(cc, a, 1, b + c * rows, 1, rows);
        break;
    }
    case SpvOpMatrixTimesMatrix: {          /* o[c][r] = sum_k A[k][r] B[c][k] */
        uint32_t rows = rows_of(cc, in->type), inner = nb / (nout / rows);
        for (uint32_t c = 0; c < nout / rows; c++)
            for (uint32_t r = 0; r < rows; r++) o[c * rows + r] = dot(cc, a + r, rows, b + c * inner, 1, inner);
        break;
    }
    case SpvOpOuterProduct:                 /* o[c][r] = a[r] b[c] */
        for (uint32_t c = 0; c < nb; c++)
            for (uint32_t r = 0; r < na; r++) o[c * na + r] = emit2(cc, EG_VM_FMUL, a[r], b[c]);
        break;
    case SpvOpTranspose: {                  /* pure renaming */
        uint32_t rows = rows_of(cc, in->type), cols = nout / rows;
        for (uint32_t c = 0; c < cols; c++)
            for (uint32_t r = 0; r < rows; r++) o[c * rows + r] = a[r * cols + c];
        break;
    }
    default: return vm_fail(cc, EG_STATUS_INTERNAL, "matrix opcode %u", (unsigned)in->op);
    }
    set_result(cc, in, out);
    return !cc->failed;
}

/* Scalar range [*start, *start + scalars) of the element that literal indices select. */
static uint32_t sub_range(vm_cc_t *cc, uint32_t type, const uint32_t *idx, uint32_t n, uint32_t *start)
{
    const eg_ir_t *ir = cc->ir;
    *start = 0;
    for (uint32_t i = 0; i < n; i++) {
        const eg_ir_type_t *t = eg_ir_type(ir, type);
        if (t->kind == EG_IR_STRUCT) {
            for (uint32_t m = 0; m < idx[i] && m < t->count; m++) *start += eg_ir_scalars(ir, t->members[m].type);
            type = t->members[idx[i] < t->count ? idx[i] : 0].type;
        } else {
            *start += idx[i] * eg_ir_scalars(ir, t->elem);
            type = t->elem;
        }
    }
    return eg_ir_scalars(ir, type);
}

static bool lower_composite(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t nout = eg_ir_scalars(cc->ir, in->type), na = 0, nb = 0, *a, *b, start;
    vm_val_t out = vm_alias_comps(cc, nout);
    uint32_t *o = &cc->comps[out.idx];
    switch (in->op) {
    case SpvOpCompositeConstruct: {
        uint32_t at = 0;
        for (uint32_t i = 0; i < in->operand_count; i++) {
            a = vm_comps(cc, in->operands[i], &na);
            for (uint32_t k = 0; k < na && at < nout; k++) o[at++] = a[k];
        }
        if (at == 1 && nout > 1)            /* a splat is never produced by glslang; be safe */
            for (; at < nout; at++) o[at] = o[0];
        break;
    }
    case SpvOpCompositeExtract:
        a = vm_comps(cc, in->operands[0], &na);
        sub_range(cc, eg_ir_type_of(cc->ir, in->operands[0]), in->operands + 1, in->operand_count - 1u, &start);
        for (uint32_t k = 0; k < nout && start + k < na; k++) o[k] = a[start + k];
        break;
    case SpvOpCompositeInsert: {
        b = vm_comps(cc, in->operands[0], &nb);     /* object */
        a = vm_comps(cc, in->operands[1], &na);     /* composite */
        uint32_t len = sub_range(cc, in->type, in->operands + 2, in->operand_count - 2u, &start);
        for (uint32_t k = 0; k < nout && k < na; k++) o[k] = a[k];
        for (uint32_t k = 0; k < len && k < nb && start + k < nout; k++) o[start + k] = b[k];
        break;
    }
    case SpvOpVectorShuffle:
        a = vm_comps(cc, in->operands[0], &na);
        b = vm_comps(cc, in->operands[1], &nb);
        for (uint32_t k = 0; k < nout; k++) {
            uint32_t s = in->operands[2 + k];
            o[k] = s < na ? a[s] : b[s - na < nb ? s - na : 0];
        }
        break;
    /* OpCopyLogical (SPIR-V 1.4): the two types differ only in decorations (explicit layout),
     * and components are kept in logical order, so it is a renaming like OpCopyObject. */
    case SpvOpCopyObject: case SpvOpCopyLogical: case SpvOpBitcast: case SpvOpSConvert: case SpvOpUConvert:
    case SpvOpFConvert:
        a = vm_comps(cc, in->operands[0], &na);
        for (uint32_t k = 0; k < nout && k < na; k++) o[k] = a[k];
        break;
    case SpvOpVectorExtractDynamic: {       /* select among the components by lane */
        a = vm_comps(cc, in->operands[0], &na);
        uint32_t *i = vm_comps(cc, in->operands[1], &nb);
        uint32_t acc = a[0];
        for (uint32_t k = 1; k < na; k++)
            acc = emit2(cc, EG_VM_SELECT, emit2(cc, EG_VM_IEQ, i[0], vm_const(cc, k)), a[k]),
            cc->code[cc->code_n - 1].c = (uint16_t)acc;
        o[0] = acc;
        break;
    }
    case SpvOpVectorInsertDynamic: {
        a = vm_comps(cc, in->operands[0], &na);
        uint32_t ns, *s = vm_comps(cc, in->operands[1], &ns), *i = vm_comps(cc, in->operands[2], &nb);
        for (uint32_t k = 0; k < nout && k < na; k++) {
            o[k] = emit2(cc, EG_VM_SELECT, emit2(cc, EG_VM_IEQ, i[0], vm_const(cc, k)), s[0]);
            cc->code[cc->code_n - 1].c = (uint16_t)a[k];
        }
        break;
    }
    default: return vm_fail(cc, EG_STATUS_INTERNAL, "composite opcode %u", (unsigned)in->op);
    }
    set_result(cc, in, out);
    return !cc->failed;
}

/* SPIR-V OpQuantizeToF16: "Quantize a floating-point value to what is expressible by a 16-bit
 * floating-point value": an infinity or NaN stays one, a magnitude too large for binary16 becomes
 * the infinity of its sign, and one "too small to represent as a normalized 16-bit floating-point
 * value" becomes +0 or -0 (WGSL quantizeToF16: converted to binary16 and back). PACK_H2 rounds
 * to nearest even (overflow to infinity); its binary16 subnormals are flushed here to the
 * zero of their sign, since binary16 normals start at 2^-14 (f32 bits 0x38800000). */
static bool lower_quantize(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t n, *a = vm_comps(cc, in->operands[0], &n);
    vm_val_t out = vm_new_comps(cc, n, false);
    for (uint32_t k = 0; k < n && !cc->failed; k++) {
        uint32_t h = emit2(cc, EG_VM_PACK_H2, a[k], a[k]);
        uint32_t q = vm_temp(cc);
        vm_emit(cc, EG_VM_UNPACK_H2, q, h, N_, N_, N_, 0);
        uint32_t mag = emit2(cc, EG_VM_AND, q, vm_const(cc, 0x7fffffffu));
        uint32_t tiny = emit2(cc, EG_VM_ULT, mag, vm_const(cc, 0x38800000u));
        uint32_t zero = emit2(cc, EG_VM_AND, q, vm_const(cc, 0x80000000u));
        vm_emit(cc, EG_VM_SELECT, cc->comps[out.idx + k], tiny, zero, q, N_, 0);
    }
    set_result(cc, in, out);
    return !cc->failed;
}

static bool lower_select(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t nc, na, nb, *c = vm_comps(cc, in->operands[0], &nc);
    uint32_t *a = vm_comps(cc, in->operands[1], &na), *b = vm_comps(cc, in->operands[2], &nb);
    vm_val_t out = vm_new_comps(cc, na, false);
    for (uint32_t k = 0; k < na && k < nb; k++)
        vm_emit(cc, EG_VM_SELECT, cc->comps[out.idx + k], c[nc == 1 ? 0 : k], a[k], b[k], N_, 0);
    set_result(cc, in, out);
    return !cc->failed;
}

static bool lower_any_all(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t n, *a = vm_comps(cc, in->operands[0], &n);
    uint32_t acc = a[0];
    for (uint32_t k = 1; k < n; k++) acc = emit2(cc, in->op == SpvOpAny ? EG_VM_OR : EG_VM_AND, acc, a[k]);
    vm_val_t out = vm_alias_comps(cc, 1);
    cc->comps[out.idx] = acc;
    set_result(cc, in, out);
    return !cc->failed;
}

/* OpIAddCarry / OpISubBorrow / OpUMulExtended / OpSMulExtended: struct { low; high }. */
static bool lower_extended(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t na, nb, *a = vm_comps(cc, in->operands[0], &na), *b = vm_comps(cc, in->operands[1], &nb);
    vm_val_t out = vm_alias_comps(cc, 2 * na);
    uint32_t lo_op = in->op == SpvOpIAddCarry ? EG_VM_IADD : in->op == SpvOpISubBorrow ? EG_VM_ISUB : EG_VM_IMUL;
    uint32_t hi_op = in->op == SpvOpIAddCarry ? EG_VM_IADDC : in->op == SpvOpISubBorrow ? EG_VM_ISUBB
                   : in->op == SpvOpUMulExtended ? EG_VM_UMULHI : EG_VM_SMULHI;
    for (uint32_t k = 0; k < na && k < nb; k++) {
        cc->comps[out.idx + k] = emit2(cc, lo_op, a[k], b[k]);
        cc->comps[out.idx + na + k] = emit2(cc, hi_op, a[k], b[k]);
    }
    set_result(cc, in, out);
    return !cc->failed;
}

static bool lower_bfi(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t n[4], *s[4];
    for (int i = 0; i < 4; i++) s[i] = vm_comps(cc, in->operands[i], &n[i]);
    vm_val_t out = vm_new_comps(cc, n[0], false);
    for (uint32_t k = 0; k < n[0]; k++) {
        /* (base & ~mask) | ((insert << offset) & mask), mask = bits [offset, offset + count) */
        uint32_t off = s[2][n[2] == 1 ? 0 : k], cnt = s[3][n[3] == 1 ? 0 : k];
        uint32_t ones = emit2(cc, EG_VM_BFEU, vm_const(cc, 0xffffffffu), vm_const(cc, 0));
        cc->code[cc->code_n - 1].c = (uint16_t)cnt;
        uint32_t mask = emit2(cc, EG_VM_SHL, ones, off);
        uint32_t ins = emit2(cc, EG_VM_AND, emit2(cc, EG_VM_SHL, s[1][k], off), mask);
        uint32_t keep = emit2(cc, EG_VM_AND, s[0][k], emit2(cc, EG_VM_NOT, mask, N_));
        vm_emit(cc, EG_VM_OR, cc->comps[out.idx + k], keep, ins, N_, N_, 0);
    }
    set_result(cc, in, out);
    return !cc->failed;
}

/* ---- memory ---- */

static vm_ptr_t *ptr_of(vm_cc_t *cc, uint32_t id)
{
    vm_val_t *v = vm_val(cc, id);
    if (v->kind != VM_VAL_PTR) {
        vm_fail(cc, EG_STATUS_INTERNAL, "value %u is not a pointer", (unsigned)id);
        return &cc->ptrs[0];
    }
    return &cc->ptrs[v->idx];
}

static vm_val_t new_ptr(vm_cc_t *cc, const vm_ptr_t *p)
{
    vm_val_t v = { VM_VAL_PTR, 1, cc->ptrs_n };
    if (cc->ptrs_n >= cc->ptrs_cap) {
        vm_fail(cc, EG_STATUS_OUT_OF_MEMORY, "pointer table full: raise EMGPU_SOFT_COMPILE_SCRATCH_BYTES");
        return v;
    }
    cc->ptrs[cc->ptrs_n++] = *p;
    return v;
}

static bool is_const(const vm_cc_t *cc, uint32_t id, uint32_t *value)
{
    if (cc->ir->values[id].kind != EG_IR_VAL_CONST) return false;
    *value = cc->ir->consts[cc->ir->values[id].index].scalars[0];
    return true;
}

/* Steps a pointer into member/element `index_id` of its pointee. */
static void step(vm_cc_t *cc, vm_ptr_t *p, uint32_t index_id)
{
    const eg_ir_t *ir = cc->ir;
    const eg_ir_type_t *t = eg_ir_type(ir, p->type);
    uint32_t unit = p->space == VM_SPACE_REG ? 1u : 4u, idx = 0, stride;
    bool cst = is_const(cc, index_id, &idx);
    if (t->kind == EG_IR_STRUCT) {
        const eg_ir_member_t *m = &t->members[idx < t->count ? idx : 0];
        if (p->space == VM_SPACE_BUF) {
            p->off += m->offset_B;
            p->row_major = m->row_major;
            p->mstride_B = m->matrix_stride_B;
        } else {
            for (uint32_t k = 0; k < idx && k < t->count; k++) p->off += unit * eg_ir_scalars(ir, t->members[k].type);
        }
        p->type = m->type;
        return;
    }
    if (p->space != VM_SPACE_BUF) stride = unit * eg_ir_scalars(ir, t->elem);
    else if (t->kind == EG_IR_MATRIX) stride = p->row_major ? 4u : p->mstride_B;
    else if (t->kind == EG_IR_VECTOR) stride = p->vstride_B;
    else stride = t->stride_B;
    if (p->space == VM_SPACE_BUF && t->kind == EG_IR_MATRIX) p->vstride_B = p->row_major ? p->mstride_B : 4u;
    p->type = t->elem;
    if (cst) { p->off += idx * stride; return; }
    uint32_t n, i = vm_comps(cc, index_id, &n)[0];
    uint32_t scaled = stride == 1 ? i : emit2(cc, EG_VM_IMUL, i, vm_const(cc, stride));
    p->dyn = p->dyn == N_ ? scaled : emit2(cc, EG_VM_IADD, p->dyn, scaled);
}

/* A texel pointer (SPIR-V OpImageTexelPointer: "Use of such a pointer is limited to atomic
 * operations", so OpLoad/OpStore through one are rejected). Its fields carry the image slot
 * and image type (mstride_B) and the coordinate value's component list (base = index into
 * cc->comps, limit = count). */
#define VM_SPACE_TEXEL 3u

static bool lower_texel_pointer(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    const vm_val_t *img = vm_val(cc, in->operands[0]), *coord = vm_val(cc, in->operands[1]);
    if (img->kind != VM_VAL_IMAGE || coord->kind != VM_VAL_COMPS)
        return vm_fail(cc, EG_STATUS_INTERNAL, "OpImageTexelPointer %u: not a storage image and coordinate",
                       (unsigned)in->result);
    vm_ptr_t p = { .space = VM_SPACE_TEXEL, .slot = (uint16_t)img->idx, .type = eg_ir_type(cc->ir, in->type)->elem,
                   .base = coord->idx, .limit = coord->n, .dyn = N_, .vstride_B = 4,
                   .mstride_B = eg_ir_type(cc->ir, eg_ir_type_of(cc->ir, in->operands[0]))->elem };
    set_result(cc, in, new_ptr(cc, &p));
    return !cc->failed;
}

static bool lower_access_chain(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    vm_ptr_t p = *ptr_of(cc, in->operands[0]);
    for (uint32_t i = 1; i < in->operand_count && !cc->failed; i++) step(cc, &p, in->operands[i]);
    set_result(cc, in, new_ptr(cc, &p));
    return !cc->failed;
}

typedef struct flat_frame { uint32_t type, off, index, rm, ms, vs; } flat_frame_t;

/* Byte offsets of every scalar of a buffer pointee, in flattened order (explicit stack). */
static uint32_t flatten_buf(vm_cc_t *cc, const vm_ptr_t *p, uint32_t *offs, uint32_t cap)
{
    flat_frame_t st[12];
    uint32_t sp = 0, n = 0;
    const eg_ir_t *ir = cc->ir;
    const eg_ir_type_t *root = eg_ir_type(ir, p->type);
    if (root->kind <= EG_IR_FLOAT) { offs[0] = p->off; return 1; }
    st[sp++] = (flat_frame_t){ p->type, p->off, 0, p->row_major, p->mstride_B, p->vstride_B };
    while (sp && n < cap) {
        flat_frame_t *top = &st[sp - 1];
        const eg_ir_type_t *t = eg_ir_type(ir, top->type);
        if (top->index >= t->count) { sp--; continue; }
        uint32_t i = top->index++, ctype, coff, rm = top->rm, ms = top->ms, vs = 4;
        switch (t->kind) {
        case EG_IR_STRUCT:
            ctype = t->members[i].type; coff = top->off + t->members[i].offset_B;
            rm = t->members[i].row_major; ms = t->members[i].matrix_stride_B;
            break;
        case EG_IR_MATRIX:
            ctype = t->elem; coff = top->off + i * (rm ? 4u : ms); vs = rm ? ms : 4u;
            break;
        case EG_IR_VECTOR: ctype = t->elem; coff = top->off + i * top->vs; break;
        default: ctype = t->elem; coff = top->off + i * t->stride_B; break;
        }
        if (eg_ir_type(ir, ctype)->kind <= EG_IR_FLOAT) { offs[n++] = coff; continue; }
        if (sp >= EG_ARRAY_LEN(st)) { vm_fail(cc, EG_STATUS_INTERNAL, "type nested too deeply"); return 0; }
        st[sp++] = (flat_frame_t){ ctype, coff, 0, rm, ms, vs };
    }
    return n;
}

#define VM_MAX_ACCESS 64u   /* scalars of a buffer access whose offsets fit on the stack */

/* Room for the byte offsets of n scalars: the stack buffer, or scratch arena space for bigger
 * values (a whole array<f32, 256> loaded at once is valid SPIR-V). */
static uint32_t *access_offsets(vm_cc_t *cc, uint32_t *local, uint32_t n)
{
    if (n <= VM_MAX_ACCESS) return local;
    uint32_t *o = eg_arena_alloc(cc->arena, (size_t)n * 4u, 4);
    if (!o) vm_fail(cc, EG_STATUS_OUT_OF_MEMORY, "a buffer access of %u scalars does not fit the compile scratch: "
                    "raise EMGPU_SOFT_COMPILE_SCRATCH_BYTES", (unsigned)n);
    return o;
}

/* Workgroup accesses of n scalars stay inside their variable (WGSL "Out-of-Bounds Access": a
 * load returns a value of the originating variable, a store lands inside it): the constant part
 * is pulled back like a register access, the per-lane part clamped with UMIN (a negative index
 * scaled to bytes is huge unsigned: it clamps to the end). The bounds check at run time (the
 * whole workgroup memory) alone let one array's index reach the next variable. */
static uint32_t wg_clamp(vm_cc_t *cc, const vm_ptr_t *p, uint32_t n, uint32_t *dyn)
{
    uint32_t size = 4u * n, off = p->off + size > p->limit ? p->limit - size : p->off;
    *dyn = p->dyn == N_ ? N_ : emit2(cc, EG_VM_UMIN, p->dyn, vm_const(cc, p->limit - size - off));
    return off;
}

bool vm_load(vm_cc_t *cc, const vm_ptr_t *p, vm_val_t *out)
{
    uint32_t n = eg_ir_scalars(cc->ir, p->type), local[VM_MAX_ACCESS], *offs;
    *out = vm_new_comps(cc, n, false);
    uint32_t *o = &cc->comps[out->idx];
    if (p->space == VM_SPACE_REG) {
        uint32_t off = p->off + n > p->limit ? p->limit - n : p->off;
        for (uint32_t k = 0; k < n; k++) {
            if (p->dyn == N_) vm_emit(cc, EG_VM_MOV, o[k], p->base + off + k, N_, N_, N_, 0);
            else vm_emit(cc, EG_VM_LDI, o[k], p->dyn, p->base, N_, N_, (off + k) | ((p->limit - n - off) << 16));
        }
        return !cc->failed;
    }
    if (!(offs = access_offsets(cc, local, n))) return false;
    if (p->space == VM_SPACE_BUF) flatten_buf(cc, p, offs, n);
    uint32_t dyn = p->dyn, off = p->space == VM_SPACE_WG ? wg_clamp(cc, p, n, &dyn) : 0;
    for (uint32_t k = 0; k < n; k++) {
        if (p->space == VM_SPACE_BUF) vm_emit(cc, EG_VM_LDBUF, o[k], p->dyn, N_, N_, p->slot, offs[k]);
        else vm_emit(cc, EG_VM_LDWG, o[k], dyn, N_, N_, N_, off + 4u * k);
    }
    return !cc->failed;
}

bool vm_store(vm_cc_t *cc, const vm_ptr_t *p, const uint32_t *src, uint32_t n)
{
    uint32_t local[VM_MAX_ACCESS], *offs;
    if (p->space == VM_SPACE_REG) {
        uint32_t off = p->off + n > p->limit ? p->limit - n : p->off;
        for (uint32_t k = 0; k < n; k++) {
            if (p->dyn == N_) vm_emit(cc, EG_VM_MOV, p->base + off + k, src[k], N_, N_, N_, 0);
            else vm_emit(cc, EG_VM_STI, N_, p->dyn, p->base, src[k], N_, (off + k) | ((p->limit - n - off) << 16));
        }
        return !cc->failed;
    }
    if (!(offs = access_offsets(cc, local, n))) return false;
    if (p->space == VM_SPACE_BUF) flatten_buf(cc, p, offs, n);
    uint32_t dyn = p->dyn, off = p->space == VM_SPACE_WG ? wg_clamp(cc, p, n, &dyn) : 0;
    for (uint32_t k = 0; k < n; k++) {
        if (p->space == VM_SPACE_BUF) vm_emit(cc, EG_VM_STBUF, N_, p->dyn, src[k], N_, p->slot, offs[k]);
        else vm_emit(cc, EG_VM_STWG, N_, dyn, src[k], N_, N_, off + 4u * k);
    }
    return !cc->failed;
}

static bool lower_variable(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t type = eg_ir_type(cc->ir, in->type)->elem;
    uint32_t n = eg_ir_scalars(cc->ir, type);
    vm_val_t regs = vm_new_comps(cc, n, true);
    if (in->operand_count > 1) {            /* initializer */
        uint32_t ni, *src = vm_comps(cc, in->operands[1], &ni);
        for (uint32_t k = 0; k < n && k < ni; k++)
            vm_emit(cc, EG_VM_MOV, cc->comps[regs.idx + k], src[k], N_, N_, N_, 0);
    }
    vm_ptr_t p = { .space = VM_SPACE_REG, .type = type, .base = n ? cc->comps[regs.idx] : 0, .dyn = N_,
                   .limit = n, .vstride_B = 4 };
    set_result(cc, in, new_ptr(cc, &p));
    return !cc->failed;
}

static bool lower_load(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    vm_val_t *src = vm_val(cc, in->operands[0]);
    if (src->kind == VM_VAL_IMAGE || src->kind == VM_VAL_SAMPLER) {   /* resource handles */
        set_result(cc, in, *src);
        return true;
    }
    vm_val_t out;
    if (ptr_of(cc, in->operands[0])->space == VM_SPACE_TEXEL)
        return vm_fail(cc, EG_STATUS_INTERNAL, "OpLoad through an image texel pointer");
    if (!vm_load(cc, ptr_of(cc, in->operands[0]), &out)) return false;
    set_result(cc, in, out);
    return true;
}

static bool lower_store(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t n, *src = vm_comps(cc, in->operands[1], &n);
    if (ptr_of(cc, in->operands[0])->space == VM_SPACE_TEXEL)
        return vm_fail(cc, EG_STATUS_INTERNAL, "OpStore through an image texel pointer");
    return vm_store(cc, ptr_of(cc, in->operands[0]), src, n);
}

static bool lower_copy_memory(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    vm_val_t tmp;
    if (!vm_load(cc, ptr_of(cc, in->operands[1]), &tmp)) return false;
    return vm_store(cc, ptr_of(cc, in->operands[0]), vm_c(cc, &tmp), tmp.n);
}

static bool lower_array_length(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    const vm_ptr_t *p = ptr_of(cc, in->operands[0]);
    const eg_ir_type_t *st = eg_ir_type(cc->ir, p->type);
    uint32_t m = in->operands[1] < st->count ? in->operands[1] : 0;
    const eg_ir_type_t *arr = eg_ir_type(cc->ir, st->members[m].type);
    vm_val_t out = vm_new_comps(cc, 1, false);
    vm_emit(cc, EG_VM_BUFLEN, cc->comps[out.idx], N_, N_, arr->stride_B ? arr->stride_B : 4u, p->slot,
            st->members[m].offset_B);
    set_result(cc, in, out);
    return !cc->failed;
}

static bool lower_atomic(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    uint32_t kind, value = N_, cmp = N_, n;
    switch (in->op) {
    case SpvOpAtomicLoad: kind = EG_VM_ATOM_LOAD; break;
    case SpvOpAtomicStore: kind = EG_VM_ATOM_STORE; value = vm_comps(cc, in->operands[3], &n)[0]; break;
    case SpvOpAtomicCompareExchange:
        kind = EG_VM_ATOM_CMPXCHG;
        value = vm_comps(cc, in->operands[4], &n)[0];
        cmp = vm_comps(cc, in->operands[5], &n)[0];
        break;
    case SpvOpAtomicIIncrement: kind = EG_VM_ATOM_IADD; value = vm_const(cc, 1); break;
    case SpvOpAtomicIDecrement: kind = EG_VM_ATOM_ISUB; value = vm_const(cc, 1); break;
    default: {
        static const uint16_t map[][2] = {
            { SpvOpAtomicExchange, EG_VM_ATOM_XCHG }, { SpvOpAtomicIAdd, EG_VM_ATOM_IADD },
            { SpvOpAtomicISub, EG_VM_ATOM_ISUB }, { SpvOpAtomicSMin, EG_VM_ATOM_SMIN },
            { SpvOpAtomicUMin, EG_VM_ATOM_UMIN }, { SpvOpAtomicSMax, EG_VM_ATOM_SMAX },
            { SpvOpAtomicUMax, EG_VM_ATOM_UMAX }, { SpvOpAtomicAnd, EG_VM_ATOM_AND },
            { SpvOpAtomicOr, EG_VM_ATOM_OR }, { SpvOpAtomicXor, EG_VM_ATOM_XOR } };
        kind = ~0u;
        for (size_t i = 0; i < EG_ARRAY_LEN(map); i++)
            if (map[i][0] == in->op) kind = map[i][1];
        if (kind == ~0u) return vm_fail(cc, EG_STATUS_INTERNAL, "atomic opcode %u", (unsigned)in->op);
        value = vm_comps(cc, in->operands[3], &n)[0];
    }
    }
    const vm_ptr_t *p = ptr_of(cc, in->operands[0]);
    if (p->space == VM_SPACE_REG) return vm_fail(cc, EG_STATUS_INTERNAL, "atomic on a Function variable");
    if (p->space == VM_SPACE_TEXEL) {
        uint32_t r = vm_lower_image_atomic(cc, p->slot, p->mstride_B, &cc->comps[p->base], p->limit, kind,
                                           value, cmp);
        if (in->result) {
            vm_val_t out = vm_alias_comps(cc, 1);
            cc->comps[out.idx] = r;
            set_result(cc, in, out);
        }
        return !cc->failed;
    }
    uint32_t d = kind | (p->space == VM_SPACE_WG ? 0x80u : (uint32_t)p->slot << 8);
    uint32_t dyn = p->dyn, off = p->space == VM_SPACE_WG ? wg_clamp(cc, p, 1, &dyn) : p->off;
    vm_val_t out = vm_new_comps(cc, 1, false);
    vm_emit(cc, EG_VM_ATOM, cc->comps[out.idx], dyn, value, cmp, d, off);
    if (in->result) set_result(cc, in, out);
    cc->prog->info.has_side_effects |= p->space == VM_SPACE_BUF;
    return !cc->failed;
}

bool vm_lower_image(vm_cc_t *cc, const eg_ir_inst_t *in);

bool vm_lower_inst(vm_cc_t *cc, vm_frame_t *f, const eg_ir_inst_t *in)
{
    (void)f;
    const alu_map_t *m = find_alu(in->op);
    if (m) return lower_alu(cc, in, m);
    switch (in->op) {
    case SpvOpExtInst: return vm_lower_ext(cc, in);
    case SpvOpVariable: return lower_variable(cc, in);
    case SpvOpLoad: return lower_load(cc, in);
    case SpvOpStore: return lower_store(cc, in);
    case SpvOpCopyMemory: return lower_copy_memory(cc, in);
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain: return lower_access_chain(cc, in);
    case SpvOpArrayLength: return lower_array_length(cc, in);
    case SpvOpSelect: return lower_select(cc, in);
    case SpvOpAny: case SpvOpAll: return lower_any_all(cc, in);
    case SpvOpBitFieldInsert: return lower_bfi(cc, in);
    case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended:
        return lower_extended(cc, in);
    case SpvOpDot: case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar: case SpvOpMatrixTimesVector:
    case SpvOpVectorTimesMatrix: case SpvOpMatrixTimesMatrix: case SpvOpOuterProduct: case SpvOpTranspose:
        return lower_matrix(cc, in);
    case SpvOpCompositeConstruct: case SpvOpCompositeExtract: case SpvOpCompositeInsert:
    case SpvOpVectorShuffle: case SpvOpCopyObject: case SpvOpCopyLogical: case SpvOpBitcast: case SpvOpSConvert:
    case SpvOpUConvert: case SpvOpFConvert: case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic:
        return lower_composite(cc, in);
    case SpvOpQuantizeToF16: return lower_quantize(cc, in);
    case SpvOpImageTexelPointer: return lower_texel_pointer(cc, in);
    case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange: case SpvOpAtomicCompareExchange:
    case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
    case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax:
    case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor:
        return lower_atomic(cc, in);
    case SpvOpControlBarrier:
        vm_emit(cc, EG_VM_BARRIER, N_, N_, N_, N_, N_, 0);
        return true;
    case SpvOpMemoryBarrier:
        return true;           /* lanes and blocks run in order on one thread */
    default:
        return vm_lower_image(cc, in);
    }
}

#endif /* EMGPU_HAL_SOFT */
