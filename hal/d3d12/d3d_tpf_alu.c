/* hal/d3d12 TPF emitter: arithmetic, comparisons, conversions, composites and matrices, one scalar at a time. */
#include "config/emgpu_config.h"

#if EMGPU_D3D12_TPF

#include "hal/d3d12/d3d_tpf_internal.h"

/* A source with a negate (0x41) or abs (0x81) modifier: extended operand token after the operand
 * token (bit 31). Immediates get the sign bit edited instead. */
static void src_mod(tpf_t *t, tpf_sc_t s, uint32_t mod)
{
    if (mod == 0) { tpf_o_src(t, s); return; }
    if (s.imm) {
        uint32_t v = s.v;
        if (mod & 0x80u) v &= 0x7fffffffu;
        if (mod & 0x40u) v ^= 0x80000000u;
        tpf_o_src(t, tpf_imm(v));
        return;
    }
    uint32_t reg = s.v / 4u;
    tpf_tok(t, 2u | 2u << 2 | (s.v % 4u) << 4 | TPF_R_TEMP << 12 | 1u << 20 | 1u << 31);
    tpf_tok(t, mod);
    tpf_tok(t, reg);
}

static uint32_t op_mod(tpf_t *t, uint32_t op, tpf_sc_t a, uint32_t amod, tpf_sc_t b, uint32_t bmod)
{
    uint32_t d = tpf_temp(t);
    tpf_begin(t, op); tpf_o_dst(t, d); src_mod(t, a, amod); src_mod(t, b, bmod); tpf_end(t);
    return d;
}

static tpf_sc_t o1(tpf_t *t, uint32_t op, tpf_sc_t a) { uint32_t d = tpf_temp(t); tpf_op1(t, op, d, a); return tpf_tsc(d); }
static tpf_sc_t o2(tpf_t *t, uint32_t op, tpf_sc_t a, tpf_sc_t b) { uint32_t d = tpf_temp(t); tpf_op2(t, op, d, a, b); return tpf_tsc(d); }
static tpf_sc_t o3(tpf_t *t, uint32_t op, tpf_sc_t a, tpf_sc_t b, tpf_sc_t c)
{
    uint32_t d = tpf_temp(t); tpf_op3(t, op, d, a, b, c); return tpf_tsc(d);
}

/* Two-destination ops (imul/umul: hi, lo; udiv: quotient, remainder): `which` selects the one kept. */
static tpf_sc_t two_dst(tpf_t *t, uint32_t op, int which, tpf_sc_t a, tpf_sc_t b)
{
    uint32_t d = tpf_temp(t);
    tpf_begin(t, op);
    for (int i = 0; i < 2; i++) {
        if (i == which) tpf_o_dst(t, d);
        else tpf_tok(t, TPF_R_NULL << 12);
    }
    tpf_o_src(t, a); tpf_o_src(t, b);
    tpf_end(t);
    return tpf_tsc(d);
}

static tpf_sc_t fneg(tpf_t *t, tpf_sc_t a)
{
    uint32_t d = tpf_temp(t);
    tpf_begin(t, TPF_MOV); tpf_o_dst(t, d); src_mod(t, a, 0x41); tpf_end(t);
    return tpf_tsc(d);
}

static tpf_sc_t fabs_(tpf_t *t, tpf_sc_t a)
{
    uint32_t d = tpf_temp(t);
    tpf_begin(t, TPF_MOV); tpf_o_dst(t, d); src_mod(t, a, 0x81); tpf_end(t);
    return tpf_tsc(d);
}

/* WebGPU integer division (WGSL "Arithmetic Expressions", kernel/shader/spirv_polyfill.h): a zero
 * divisor, or INT_MIN / -1, divides by 1 instead; remainders truncate; OpSMod takes the sign of
 * the divisor. TPF only has unsigned division, so signed ones divide magnitudes. */
static tpf_sc_t int_div(tpf_t *t, uint32_t op, tpf_sc_t a, tpf_sc_t b)
{
    if (op == SpvOpUDiv || op == SpvOpUMod) {
        tpf_sc_t bz = o2(t, TPF_IEQ, b, tpf_imm(0));
        tpf_sc_t b1 = tpf_sel(t, bz, tpf_imm(1), b);
        return two_dst(t, TPF_UDIV, op == SpvOpUDiv ? 0 : 1, a, b1);
    }
    tpf_sc_t bad = o2(t, TPF_OR, o2(t, TPF_IEQ, b, tpf_imm(0)),
                      o2(t, TPF_AND, o2(t, TPF_IEQ, a, tpf_imm(0x80000000u)), o2(t, TPF_IEQ, b, tpf_imm(~0u))));
    tpf_sc_t b1 = tpf_sel(t, bad, tpf_imm(1), b);
    tpf_sc_t aa = o2(t, TPF_IMAX, a, o1(t, TPF_INEG, a)), ba = o2(t, TPF_IMAX, b1, o1(t, TPF_INEG, b1));
    tpf_sc_t q = two_dst(t, TPF_UDIV, 0, aa, ba);
    tpf_sc_t neg = o2(t, TPF_ILT, o2(t, TPF_XOR, a, b1), tpf_imm(0));
    q = tpf_sel(t, neg, o1(t, TPF_INEG, q), q);
    if (op == SpvOpSDiv) return q;
    tpf_sc_t r = o2(t, TPF_IADD, a, o1(t, TPF_INEG, two_dst(t, TPF_IMUL, 1, q, b1)));
    if (op == SpvOpSRem) return r;
    tpf_sc_t fix = o2(t, TPF_AND, o2(t, TPF_INE, r, tpf_imm(0)), o2(t, TPF_ILT, o2(t, TPF_XOR, r, b1), tpf_imm(0)));
    return tpf_sel(t, fix, o2(t, TPF_IADD, r, b1), r);
}

/* Scalar binary op for SPIR-V opcode `op`; false when not a component-wise binary op. */
static bool binop(tpf_t *t, uint32_t op, tpf_sc_t a, tpf_sc_t b, tpf_sc_t *r)
{
    switch (op) {
    case SpvOpFAdd: *r = o2(t, TPF_ADD, a, b); return true;
    case SpvOpFSub: *r = tpf_tsc(op_mod(t, TPF_ADD, a, 0, b, 0x41)); return true;
    case SpvOpFMul: case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar: *r = o2(t, TPF_MUL, a, b); return true;
    case SpvOpFDiv: *r = o2(t, TPF_DIV, a, b); return true;
    case SpvOpFRem: case SpvOpFMod: {          /* a - b * trunc|floor(a / b) */
        tpf_sc_t q = o1(t, op == SpvOpFRem ? TPF_ROUND_Z : TPF_ROUND_NI, o2(t, TPF_DIV, a, b));
        *r = tpf_tsc(op_mod(t, TPF_ADD, a, 0, o2(t, TPF_MUL, b, q), 0x41));
        return true;
    }
    case SpvOpIAdd: *r = o2(t, TPF_IADD, a, b); return true;
    case SpvOpISub: *r = o2(t, TPF_IADD, a, o1(t, TPF_INEG, b)); return true;
    case SpvOpIMul: *r = two_dst(t, TPF_IMUL, 1, a, b); return true;
    case SpvOpUDiv: case SpvOpSDiv: case SpvOpUMod: case SpvOpSRem: case SpvOpSMod: *r = int_div(t, op, a, b); return true;
    case SpvOpShiftLeftLogical: *r = o2(t, TPF_ISHL, a, b); return true;
    case SpvOpShiftRightLogical: *r = o2(t, TPF_USHR, a, b); return true;
    case SpvOpShiftRightArithmetic: *r = o2(t, TPF_ISHR, a, b); return true;
    case SpvOpBitwiseAnd: case SpvOpLogicalAnd: *r = o2(t, TPF_AND, a, b); return true;
    case SpvOpBitwiseOr: case SpvOpLogicalOr: *r = o2(t, TPF_OR, a, b); return true;
    case SpvOpBitwiseXor: case SpvOpLogicalNotEqual: *r = o2(t, TPF_XOR, a, b); return true;
    case SpvOpLogicalEqual: *r = o2(t, TPF_IEQ, a, b); return true;
    case SpvOpFOrdEqual: *r = o2(t, TPF_EQ, a, b); return true;
    case SpvOpFUnordNotEqual: *r = o2(t, TPF_NE, a, b); return true;
    case SpvOpFOrdNotEqual: *r = o2(t, TPF_OR, o2(t, TPF_LT, a, b), o2(t, TPF_LT, b, a)); return true;
    case SpvOpFUnordEqual: *r = o1(t, TPF_NOT, o2(t, TPF_OR, o2(t, TPF_LT, a, b), o2(t, TPF_LT, b, a))); return true;
    case SpvOpFOrdLessThan: *r = o2(t, TPF_LT, a, b); return true;
    case SpvOpFOrdGreaterThan: *r = o2(t, TPF_LT, b, a); return true;
    case SpvOpFOrdLessThanEqual: *r = o2(t, TPF_GE, b, a); return true;
    case SpvOpFOrdGreaterThanEqual: *r = o2(t, TPF_GE, a, b); return true;
    case SpvOpFUnordLessThan: *r = o1(t, TPF_NOT, o2(t, TPF_GE, a, b)); return true;
    case SpvOpFUnordGreaterThan: *r = o1(t, TPF_NOT, o2(t, TPF_GE, b, a)); return true;
    case SpvOpFUnordLessThanEqual: *r = o1(t, TPF_NOT, o2(t, TPF_LT, b, a)); return true;
    case SpvOpFUnordGreaterThanEqual: *r = o1(t, TPF_NOT, o2(t, TPF_LT, a, b)); return true;
    case SpvOpIEqual: *r = o2(t, TPF_IEQ, a, b); return true;
    case SpvOpINotEqual: *r = o2(t, TPF_INE, a, b); return true;
    case SpvOpSLessThan: *r = o2(t, TPF_ILT, a, b); return true;
    case SpvOpSGreaterThan: *r = o2(t, TPF_ILT, b, a); return true;
    case SpvOpSLessThanEqual: *r = o2(t, TPF_IGE, b, a); return true;
    case SpvOpSGreaterThanEqual: *r = o2(t, TPF_IGE, a, b); return true;
    case SpvOpULessThan: *r = o2(t, TPF_ULT, a, b); return true;
    case SpvOpUGreaterThan: *r = o2(t, TPF_ULT, b, a); return true;
    case SpvOpULessThanEqual: *r = o2(t, TPF_UGE, b, a); return true;
    case SpvOpUGreaterThanEqual: *r = o2(t, TPF_UGE, a, b); return true;
    default: return false;
    }
}

static tpf_sc_t ubfe(tpf_t *t, uint32_t width, uint32_t offset, tpf_sc_t a)
{
    uint32_t d = tpf_temp(t);
    tpf_begin(t, TPF_UBFE); tpf_o_dst(t, d); tpf_o_src(t, tpf_imm(width)); tpf_o_src(t, tpf_imm(offset));
    tpf_o_src(t, a); tpf_end(t);
    return tpf_tsc(d);
}

/* OpQuantizeToF16 (SPIR-V 3.32.11, WGSL quantizeToF16) on the bits: the mantissa rounded to
 * f16's 10 bits, nearest even (+0xfff + bit 13, then clear the 13 low bits; a carry moves into
 * the exponent as it should); too large for f16 (biased exponent > 142 after rounding) -> the
 * signed infinity; below f16's normal range (< 113) -> signed zero (the flush the instruction
 * allows); infinities and NaNs unchanged. Not f32tof16 + f16tof32: under wine vkd3d turns that
 * pair into PackHalf2x16 / UnpackHalf2x16 and lavapipe folds the round trip away (measured:
 * 1 + 2^-12 came back unchanged). */
static tpf_sc_t quantize_f16(tpf_t *t, tpf_sc_t a)
{
    tpf_sc_t e = ubfe(t, 8, 23, a), sign = o2(t, TPF_AND, a, tpf_imm(0x80000000u));
    tpf_sc_t r = o2(t, TPF_IADD, a, o2(t, TPF_IADD, ubfe(t, 1, 13, a), tpf_imm(0xfffu)));
    r = o2(t, TPF_AND, r, tpf_imm(0xffffe000u));
    r = tpf_sel(t, o2(t, TPF_UGE, ubfe(t, 8, 23, r), tpf_imm(143)), o2(t, TPF_OR, sign, tpf_imm(0x7f800000u)), r);
    r = tpf_sel(t, o2(t, TPF_ULT, e, tpf_imm(113)), sign, r);
    return tpf_sel(t, o2(t, TPF_IEQ, e, tpf_imm(255)), a, r);
}

static bool unop(tpf_t *t, uint32_t op, tpf_sc_t a, tpf_sc_t *r)
{
    switch (op) {
    case SpvOpFNegate: *r = fneg(t, a); return true;
    case SpvOpSNegate: *r = o1(t, TPF_INEG, a); return true;
    case SpvOpNot: case SpvOpLogicalNot: *r = o1(t, TPF_NOT, a); return true;
    case SpvOpConvertFToS: *r = o1(t, TPF_FTOI, a); return true;
    case SpvOpConvertFToU: *r = o1(t, TPF_FTOU, a); return true;
    case SpvOpConvertSToF: *r = o1(t, TPF_ITOF, a); return true;
    case SpvOpConvertUToF: *r = o1(t, TPF_UTOF, a); return true;
    case SpvOpBitcast: case SpvOpCopyObject: case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert:
    case SpvOpCopyLogical:           /* logically matching types flatten to the same scalars */
        *r = a; return true;
    case SpvOpQuantizeToF16: *r = quantize_f16(t, a); return true;
    case SpvOpIsNan: *r = o2(t, TPF_NE, a, a); return true;
    case SpvOpIsInf: *r = o2(t, TPF_EQ, fabs_(t, a), tpf_imm(0x7f800000u)); return true;
    case SpvOpBitReverse: *r = o1(t, TPF_BFREV, a); return true;
    case SpvOpBitCount: *r = o1(t, TPF_COUNTBITS, a); return true;
    case SpvOpDPdx: *r = o1(t, TPF_DERIV_RTX, a); return true;
    case SpvOpDPdy: *r = o1(t, TPF_DERIV_RTY, a); return true;
    case SpvOpDPdxFine: *r = o1(t, 0x7b, a); return true;
    case SpvOpDPdyFine: *r = o1(t, 0x7d, a); return true;
    case SpvOpDPdxCoarse: *r = o1(t, 0x7a, a); return true;
    case SpvOpDPdyCoarse: *r = o1(t, 0x7c, a); return true;
    case SpvOpFwidth: case SpvOpFwidthFine: case SpvOpFwidthCoarse:
        *r = tpf_tsc(op_mod(t, TPF_ADD, o1(t, TPF_DERIV_RTX, a), 0x81, o1(t, TPF_DERIV_RTY, a), 0x81));
        return true;
    default: return false;
    }
}

/* Scalar offset of a composite member path (OpCompositeExtract/Insert literals). */
static uint32_t path_offset(tpf_t *t, uint32_t type, const uint32_t *idx, uint32_t n)
{
    uint32_t off = 0;
    for (uint32_t i = 0; i < n; i++) {
        const eg_ir_type_t *ty = eg_ir_type(t->ir, type);
        if (ty->kind == EG_IR_STRUCT) {
            for (uint32_t m = 0; m < idx[i] && m < ty->count; m++) off += eg_ir_scalars(t->ir, ty->members[m].type);
            type = ty->members[idx[i] < ty->count ? idx[i] : 0].type;
        } else {
            off += idx[i] * eg_ir_scalars(t->ir, ty->elem);
            type = ty->elem;
        }
    }
    return off;
}

static bool composite(tpf_t *t, const eg_ir_inst_t *in, tpf_val_t *res)
{
    uint32_t n, na, nb;
    switch (in->op) {
    case SpvOpCompositeConstruct: {
        uint32_t total = eg_ir_scalars(t->ir, in->type), at = 0;
        *res = tpf_alias_comps(t, total);
        for (uint32_t i = 0; i < in->operand_count; i++) {
            tpf_sc_t *s = tpf_comps(t, in->operands[i], &n);
            for (uint32_t c = 0; c < n && at < total; c++) t->comps[res->idx + at++] = s[c];
        }
        return true;
    }
    case SpvOpCompositeExtract: {
        tpf_sc_t *s = tpf_comps(t, in->operands[0], &na);
        uint32_t off = path_offset(t, eg_ir_type_of(t->ir, in->operands[0]), in->operands + 1, in->operand_count - 1u);
        n = eg_ir_scalars(t->ir, in->type);
        *res = tpf_alias_comps(t, n);
        for (uint32_t c = 0; c < n && off + c < na; c++) t->comps[res->idx + c] = s[off + c];
        return true;
    }
    case SpvOpCompositeInsert: {
        tpf_sc_t *obj = tpf_comps(t, in->operands[0], &na);
        tpf_sc_t *s = tpf_comps(t, in->operands[1], &nb);
        uint32_t off = path_offset(t, in->type, in->operands + 2, in->operand_count - 2u);
        *res = tpf_alias_comps(t, nb);
        obj = tpf_comps(t, in->operands[0], &na);          /* the table may not move, but be safe */
        for (uint32_t c = 0; c < nb; c++) t->comps[res->idx + c] = c >= off && c - off < na ? obj[c - off] : s[c];
        return true;
    }
    case SpvOpVectorShuffle: {
        tpf_sc_t *a = tpf_comps(t, in->operands[0], &na);
        tpf_sc_t *b = tpf_comps(t, in->operands[1], &nb);
        n = in->operand_count - 2u;
        *res = tpf_alias_comps(t, n);
        for (uint32_t c = 0; c < n; c++) {
            uint32_t k = in->operands[2 + c];
            t->comps[res->idx + c] = k < na ? a[k] : k - na < nb ? b[k - na] : tpf_imm(0);
        }
        return true;
    }
    case SpvOpVectorExtractDynamic: {
        tpf_sc_t *v = tpf_comps(t, in->operands[0], &na);
        tpf_sc_t i = tpf_comps(t, in->operands[1], &nb)[0];
        tpf_sc_t r = v[0];
        for (uint32_t c = 1; c < na; c++) r = tpf_sel(t, o2(t, TPF_IEQ, i, tpf_imm(c)), v[c], r);
        *res = tpf_alias_comps(t, 1);
        t->comps[res->idx] = r;
        return true;
    }
    case SpvOpVectorInsertDynamic: {
        tpf_sc_t *v = tpf_comps(t, in->operands[0], &na);
        tpf_sc_t x = tpf_comps(t, in->operands[1], &nb)[0];
        tpf_sc_t i = tpf_comps(t, in->operands[2], &nb)[0];
        *res = tpf_alias_comps(t, na);
        v = tpf_comps(t, in->operands[0], &na);
        for (uint32_t c = 0; c < na; c++) t->comps[res->idx + c] = tpf_sel(t, o2(t, TPF_IEQ, i, tpf_imm(c)), x, v[c]);
        return true;
    }
    default:
        return false;
    }
}

/* Matrix products, column-major: m[c * rows + r]. */
static bool linalg(tpf_t *t, const eg_ir_inst_t *in, tpf_val_t *res)
{
    const eg_ir_t *ir = t->ir;
    uint32_t na, nb;
    if (in->op == SpvOpDot) {
        tpf_sc_t *a = tpf_comps(t, in->operands[0], &na), *b = tpf_comps(t, in->operands[1], &nb);
        tpf_sc_t acc = o2(t, TPF_MUL, a[0], b[0]);
        for (uint32_t i = 1; i < na && i < nb; i++) acc = o3(t, TPF_MAD, a[i], b[i], acc);
        *res = tpf_alias_comps(t, 1);
        t->comps[res->idx] = acc;
        return true;
    }
    if (in->op == SpvOpTranspose) {
        const eg_ir_type_t *rt = eg_ir_type(ir, in->type);
        uint32_t cols = rt->count, rows = eg_ir_type(ir, rt->elem)->count;
        tpf_sc_t *m = tpf_comps(t, in->operands[0], &na);
        *res = tpf_alias_comps(t, cols * rows);
        m = tpf_comps(t, in->operands[0], &na);
        for (uint32_t c = 0; c < cols; c++)
            for (uint32_t r = 0; r < rows; r++) t->comps[res->idx + c * rows + r] = m[r * cols + c];
        return true;
    }
    if (in->op != SpvOpMatrixTimesVector && in->op != SpvOpVectorTimesMatrix && in->op != SpvOpMatrixTimesMatrix &&
        in->op != SpvOpOuterProduct)
        return false;
    uint32_t ta = eg_ir_type_of(ir, in->operands[0]), tb = eg_ir_type_of(ir, in->operands[1]);
    /* Treat vectors as 1-column (M*v) or 1-row (v*M) matrices: out[c][r] = sum_k A[k][r] * B[c][k]. */
    uint32_t a_rows, a_cols, b_rows, b_cols;
    const eg_ir_type_t *A = eg_ir_type(ir, ta), *B = eg_ir_type(ir, tb);
    if (in->op == SpvOpVectorTimesMatrix) { a_rows = 1; a_cols = A->count; }
    else if (in->op == SpvOpOuterProduct) { a_rows = A->count; a_cols = 1; }
    else { a_cols = A->count; a_rows = eg_ir_type(ir, A->elem)->count; }
    if (B->kind == EG_IR_VECTOR) { b_rows = in->op == SpvOpOuterProduct ? 1 : B->count; b_cols = in->op == SpvOpOuterProduct ? B->count : 1; }
    else { b_cols = B->count; b_rows = eg_ir_type(ir, B->elem)->count; }
    (void)b_rows;
    *res = tpf_alias_comps(t, a_rows * b_cols);
    tpf_sc_t *a = tpf_comps(t, in->operands[0], &na), *b = tpf_comps(t, in->operands[1], &nb);
    for (uint32_t c = 0; c < b_cols; c++)
        for (uint32_t r = 0; r < a_rows; r++) {
            tpf_sc_t acc = o2(t, TPF_MUL, a[0 * a_rows + r], b[c * a_cols + 0]);
            for (uint32_t k = 1; k < a_cols; k++) acc = o3(t, TPF_MAD, a[k * a_rows + r], b[c * a_cols + k], acc);
            t->comps[res->idx + c * a_rows + r] = acc;
        }
    return true;
}

/* High 32 bits of a * b. TPF's umul/imul write them as their first destination, but vkd3d 1.6
 * (wine 8.0) does not implement that destination ("Extended multiplies not implemented": it
 * wrote nothing, measured), so they are built from 16-bit halves: with a = ah.al, b = bh.bl,
 * hi = ah*bh + (ah*bl >> 16) + (al*bh >> 16) + carry of the middle column
 * ((al*bl >> 16) + (ah*bl & 0xffff) + (al*bh & 0xffff)) >> 16. Signed: minus b when a < 0 and
 * minus a when b < 0 (two's complement product identity, mod 2^32). */
static tpf_sc_t mul_high(tpf_t *t, tpf_sc_t a, tpf_sc_t b, bool is_signed)
{
    tpf_sc_t m = tpf_imm(0xffffu), s16 = tpf_imm(16);
    tpf_sc_t al = o2(t, TPF_AND, a, m), ah = o2(t, TPF_USHR, a, s16);
    tpf_sc_t bl = o2(t, TPF_AND, b, m), bh = o2(t, TPF_USHR, b, s16);
    tpf_sc_t ll = two_dst(t, TPF_IMUL, 1, al, bl), hl = two_dst(t, TPF_IMUL, 1, ah, bl);
    tpf_sc_t lh = two_dst(t, TPF_IMUL, 1, al, bh), hh = two_dst(t, TPF_IMUL, 1, ah, bh);
    tpf_sc_t mid = o2(t, TPF_IADD, o2(t, TPF_USHR, ll, s16), o2(t, TPF_AND, hl, m));
    mid = o2(t, TPF_IADD, mid, o2(t, TPF_AND, lh, m));
    tpf_sc_t hi = o2(t, TPF_IADD, hh, o2(t, TPF_USHR, hl, s16));
    hi = o2(t, TPF_IADD, hi, o2(t, TPF_USHR, lh, s16));
    hi = o2(t, TPF_IADD, hi, o2(t, TPF_USHR, mid, s16));
    if (!is_signed) return hi;
    hi = o2(t, TPF_IADD, hi, o1(t, TPF_INEG, o2(t, TPF_AND, o2(t, TPF_ISHR, a, tpf_imm(31)), b)));
    return o2(t, TPF_IADD, hi, o1(t, TPF_INEG, o2(t, TPF_AND, o2(t, TPF_ISHR, b, tpf_imm(31)), a)));
}

/* OpIAddCarry / OpISubBorrow / OpUMulExtended / OpSMulExtended (SPIR-V 3.32.13): the result is
 * a struct {member 0, member 1} of two vectors of the operands' size: {sum, carry},
 * {difference, borrow}, {low bits, high bits}. carry = sum < a (unsigned), borrow = a < b. */
static bool wide(tpf_t *t, const eg_ir_inst_t *in)
{
    uint32_t na, nb, k = eg_ir_scalars(t->ir, in->type) / 2u;
    tpf_val_t res = tpf_alias_comps(t, 2u * k);
    tpf_sc_t *a = tpf_comps(t, in->operands[0], &na), *b = tpf_comps(t, in->operands[1], &nb);
    for (uint32_t i = 0; i < k && i < na && i < nb; i++) {
        tpf_sc_t lo, hi;
        switch (in->op) {
        case SpvOpIAddCarry:
            lo = o2(t, TPF_IADD, a[i], b[i]);
            hi = o2(t, TPF_AND, o2(t, TPF_ULT, lo, a[i]), tpf_imm(1));
            break;
        case SpvOpISubBorrow:
            lo = o2(t, TPF_IADD, a[i], o1(t, TPF_INEG, b[i]));
            hi = o2(t, TPF_AND, o2(t, TPF_ULT, a[i], b[i]), tpf_imm(1));
            break;
        default:
            lo = two_dst(t, TPF_IMUL, 1, a[i], b[i]);
            hi = mul_high(t, a[i], b[i], in->op == SpvOpSMulExtended);
            break;
        }
        t->comps[res.idx + i] = lo;
        t->comps[res.idx + k + i] = hi;
    }
    t->vals[in->result] = res;
    return !t->failed;
}

bool tpf_alu(tpf_t *t, const eg_ir_inst_t *in, bool *handled)
{
    *handled = true;
    uint32_t n = in->type ? eg_ir_scalars(t->ir, in->type) : 0, na, nb, nc;
    tpf_val_t res;
    if (in->op == SpvOpExtInst) return tpf_ext(t, in);
    if (in->op == SpvOpUndef) { t->vals[in->result] = tpf_alias_comps(t, n); return !t->failed; }
    if (in->op >= SpvOpIAddCarry && in->op <= SpvOpSMulExtended) return wide(t, in);
    if (composite(t, in, &res) || linalg(t, in, &res)) { t->vals[in->result] = res; return !t->failed; }
    if (in->op == SpvOpSelect) {
        tpf_sc_t *c = tpf_comps(t, in->operands[0], &nc);
        tpf_sc_t *a = tpf_comps(t, in->operands[1], &na), *b = tpf_comps(t, in->operands[2], &nb);
        res = tpf_alias_comps(t, n);
        for (uint32_t i = 0; i < n && i < na && i < nb; i++)
            t->comps[res.idx + i] = tpf_sel(t, c[nc == 1 ? 0 : i], a[i], b[i]);
        t->vals[in->result] = res;
        return !t->failed;
    }
    if (in->op == SpvOpAny || in->op == SpvOpAll) {
        tpf_sc_t *a = tpf_comps(t, in->operands[0], &na), r = a[0];
        for (uint32_t i = 1; i < na; i++) r = o2(t, in->op == SpvOpAny ? TPF_OR : TPF_AND, r, a[i]);
        res = tpf_alias_comps(t, 1);
        t->comps[res.idx] = r;
        t->vals[in->result] = res;
        return !t->failed;
    }
    if (in->op == SpvOpBitFieldInsert || in->op == SpvOpBitFieldSExtract || in->op == SpvOpBitFieldUExtract) {
        tpf_sc_t *b = tpf_comps(t, in->operands[0], &na);
        bool ins = in->op == SpvOpBitFieldInsert;
        tpf_sc_t *ins_v = ins ? tpf_comps(t, in->operands[1], &nb) : NULL;
        tpf_sc_t off = tpf_comps(t, in->operands[ins ? 2 : 1], &nc)[0], cnt = tpf_comps(t, in->operands[ins ? 3 : 2], &nc)[0];
        res = tpf_alias_comps(t, n);
        for (uint32_t i = 0; i < n && i < na; i++) {
            uint32_t d = tpf_temp(t);
            tpf_begin(t, ins ? TPF_BFI : in->op == SpvOpBitFieldSExtract ? TPF_IBFE : TPF_UBFE);
            tpf_o_dst(t, d); tpf_o_src(t, cnt); tpf_o_src(t, off);
            if (ins) tpf_o_src(t, ins_v[i]);
            tpf_o_src(t, b[i]);
            tpf_end(t);
            /* D3D's bitfield ops use the low 5 bits of count: a count of 32 means the whole word. */
            t->comps[res.idx + i] = tpf_sel(t, o2(t, TPF_IEQ, cnt, tpf_imm(32)), ins ? ins_v[i] : b[i], tpf_tsc(d));
        }
        t->vals[in->result] = res;
        return !t->failed;
    }
    if (in->operand_count == 0 || t->ir->values[in->operands[0]].kind == EG_IR_VAL_TYPE ||
        tpf_val(t, in->operands[0])->kind != TV_COMPS) {
        *handled = false;
        return true;
    }
    if (in->operand_count == 2 && in->type) {
        tpf_sc_t *a = tpf_comps(t, in->operands[0], &na), *b = NULL;
        tpf_sc_t probe;
        if (t->ir->values[in->operands[1]].kind != EG_IR_VAL_TYPE && tpf_val(t, in->operands[1])->kind == TV_COMPS)
            b = tpf_comps(t, in->operands[1], &nb);
        res = tpf_alias_comps(t, n);
        a = tpf_comps(t, in->operands[0], &na);
        if (b) b = tpf_comps(t, in->operands[1], &nb);
        for (uint32_t i = 0; i < n && b; i++) {
            /* VectorTimesScalar / MatrixTimesScalar: b is one scalar for every component. */
            if (!binop(t, in->op, a[na == 1 ? 0 : i], b[nb == 1 ? 0 : i], &probe)) { *handled = false; return true; }
            t->comps[res.idx + i] = probe;
        }
        if (b) { t->vals[in->result] = res; return !t->failed; }
    }
    if (in->operand_count == 1 && in->type) {
        tpf_sc_t *a, probe;
        res = tpf_alias_comps(t, n);
        a = tpf_comps(t, in->operands[0], &na);
        for (uint32_t i = 0; i < n && i < na; i++) {
            if (!unop(t, in->op, a[i], &probe)) { *handled = false; return true; }
            t->comps[res.idx + i] = probe;
        }
        t->vals[in->result] = res;
        return !t->failed;
    }
    *handled = false;
    return true;
}

#endif /* EMGPU_D3D12_TPF */
