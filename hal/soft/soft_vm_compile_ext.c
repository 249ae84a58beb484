/* hal/soft shader VM compiler: GLSL.std.450 extended instructions. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_vm_compile.h"

#define N_ EG_VM_NONE

typedef struct ext_map { uint16_t glsl, vm; uint8_t arity; } ext_map_t;

/* Component-wise GLSL.std.450 instructions. */
static const ext_map_t ext_ops[] = {
    { GLSLstd450Round, EG_VM_FROUND, 1 }, { GLSLstd450RoundEven, EG_VM_FROUNDEVEN, 1 },
    { GLSLstd450Trunc, EG_VM_FTRUNC, 1 }, { GLSLstd450FAbs, EG_VM_FABS, 1 }, { GLSLstd450SAbs, EG_VM_SABS, 1 },
    { GLSLstd450FSign, EG_VM_FSIGN, 1 }, { GLSLstd450SSign, EG_VM_SSIGN, 1 },
    { GLSLstd450Floor, EG_VM_FFLOOR, 1 }, { GLSLstd450Ceil, EG_VM_FCEIL, 1 },
    { GLSLstd450Fract, EG_VM_FFRACT, 1 }, { GLSLstd450Radians, EG_VM_FRADIANS, 1 },
    { GLSLstd450Degrees, EG_VM_FDEGREES, 1 }, { GLSLstd450Sin, EG_VM_FSIN, 1 }, { GLSLstd450Cos, EG_VM_FCOS, 1 },
    { GLSLstd450Tan, EG_VM_FTAN, 1 }, { GLSLstd450Asin, EG_VM_FASIN, 1 }, { GLSLstd450Acos, EG_VM_FACOS, 1 },
    { GLSLstd450Atan, EG_VM_FATAN, 1 }, { GLSLstd450Sinh, EG_VM_FSINH, 1 }, { GLSLstd450Cosh, EG_VM_FCOSH, 1 },
    { GLSLstd450Tanh, EG_VM_FTANH, 1 }, { GLSLstd450Asinh, EG_VM_FASINH, 1 },
    { GLSLstd450Acosh, EG_VM_FACOSH, 1 }, { GLSLstd450Atanh, EG_VM_FATANH, 1 },
    { GLSLstd450Atan2, EG_VM_FATAN2, 2 }, { GLSLstd450Pow, EG_VM_FPOW, 2 }, { GLSLstd450Exp, EG_VM_FEXP, 1 },
    { GLSLstd450Log, EG_VM_FLOG, 1 }, { GLSLstd450Exp2, EG_VM_FEXP2, 1 }, { GLSLstd450Log2, EG_VM_FLOG2, 1 },
    { GLSLstd450Sqrt, EG_VM_FSQRT, 1 }, { GLSLstd450InverseSqrt, EG_VM_FRSQRT, 1 },
    { GLSLstd450FMin, EG_VM_FMIN, 2 }, { GLSLstd450UMin, EG_VM_UMIN, 2 }, { GLSLstd450SMin, EG_VM_SMIN, 2 },
    { GLSLstd450FMax, EG_VM_FMAX, 2 }, { GLSLstd450UMax, EG_VM_UMAX, 2 }, { GLSLstd450SMax, EG_VM_SMAX, 2 },
    { GLSLstd450FClamp, EG_VM_FCLAMP, 3 }, { GLSLstd450UClamp, EG_VM_UCLAMP, 3 },
    { GLSLstd450SClamp, EG_VM_SCLAMP, 3 }, { GLSLstd450FMix, EG_VM_FMIX, 3 }, { GLSLstd450Step, EG_VM_FSTEP, 2 },
    { GLSLstd450SmoothStep, EG_VM_FSMOOTH, 3 }, { GLSLstd450Fma, EG_VM_FFMA, 3 },
    { GLSLstd450Ldexp, EG_VM_FLDEXP, 2 }, { GLSLstd450NMin, EG_VM_FNMIN, 2 }, { GLSLstd450NMax, EG_VM_FNMAX, 2 },
    { GLSLstd450NClamp, EG_VM_FNCLAMP, 3 }, { GLSLstd450FindILsb, EG_VM_FINDLSB, 1 },
    { GLSLstd450FindSMsb, EG_VM_FINDSMSB, 1 }, { GLSLstd450FindUMsb, EG_VM_FINDUMSB, 1 },
};

static uint32_t op2(vm_cc_t *cc, uint32_t op, uint32_t a, uint32_t b)
{
    uint32_t t = vm_temp(cc);
    vm_emit(cc, op, t, a, b, N_, N_, 0);
    return t;
}

static uint32_t op3(vm_cc_t *cc, uint32_t op, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t t = vm_temp(cc);
    vm_emit(cc, op, t, a, b, c, N_, 0);
    return t;
}

static uint32_t fconst(vm_cc_t *cc, float f)
{
    union { float f; uint32_t u; } v = { .f = f };
    return vm_const(cc, v.u);
}

static uint32_t vdot(vm_cc_t *cc, const uint32_t *a, const uint32_t *b, uint32_t n)
{
    uint32_t acc = op2(cc, EG_VM_FMUL, a[0], b[0]);
    for (uint32_t k = 1; k < n; k++) acc = op2(cc, EG_VM_FADD, acc, op2(cc, EG_VM_FMUL, a[k], b[k]));
    return acc;
}

/* Determinants of the 2x2 / 3x3 submatrix of m (element (col c, row r) at m[c * stride + r])
 * made of columns cols[] and rows rows[]: separate functions, so nothing recurses. */
static uint32_t det2(vm_cc_t *cc, const uint32_t *m, uint32_t stride, const uint32_t *cols, const uint32_t *rows)
{
#define M_(c, r) m[cols[c] * stride + rows[r]]
    return op2(cc, EG_VM_FSUB, op2(cc, EG_VM_FMUL, M_(0, 0), M_(1, 1)), op2(cc, EG_VM_FMUL, M_(1, 0), M_(0, 1)));
}

static uint32_t det3(vm_cc_t *cc, const uint32_t *m, uint32_t stride, const uint32_t *cols, const uint32_t *rows)
{
    uint32_t acc = N_;
    for (uint32_t c = 0; c < 3; c++) {
        uint32_t sub_c[2], k = 0;
        for (uint32_t j = 0; j < 3; j++) if (j != c) sub_c[k++] = cols[j];
        uint32_t term = op2(cc, EG_VM_FMUL, M_(c, 0), det2(cc, m, stride, sub_c, rows + 1));
        acc = acc == N_ ? term : op2(cc, (c & 1) ? EG_VM_FSUB : EG_VM_FADD, acc, term);
    }
    return acc;
#undef M_
}

static uint32_t det_n(vm_cc_t *cc, const uint32_t *m, uint32_t stride, const uint32_t *cols,
                      const uint32_t *rows, uint32_t n)
{
    return n == 2 ? det2(cc, m, stride, cols, rows) : det3(cc, m, stride, cols, rows);
}

/* Determinant by expansion along row 0 (n <= 4); det_n handles the minors (n - 1 <= 3). */
static uint32_t determinant(vm_cc_t *cc, const uint32_t *m, uint32_t n)
{
    static const uint32_t idx[4] = { 0, 1, 2, 3 };
    if (n <= 3) return det_n(cc, m, n, idx, idx, n);
    uint32_t acc = N_;
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t sub_c[3], k = 0;
        for (uint32_t j = 0; j < 4; j++) if (j != c) sub_c[k++] = j;
        uint32_t term = op2(cc, EG_VM_FMUL, m[c * 4], det_n(cc, m, 4, sub_c, idx + 1, 3));
        acc = acc == N_ ? term : op2(cc, (c & 1) ? EG_VM_FSUB : EG_VM_FADD, acc, term);
    }
    return acc;
}

/* inverse = adjugate / det: out(c, r) = cofactor(r, c) / det. */
static void inverse(vm_cc_t *cc, const uint32_t *m, uint32_t n, uint32_t *o)
{
    uint32_t inv_det = op2(cc, EG_VM_FDIV, fconst(cc, 1.0f), determinant(cc, m, n));
    for (uint32_t c = 0; c < n; c++)
        for (uint32_t r = 0; r < n; r++) {
            /* cofactor of element (col r, row c) */
            uint32_t cols[3], rows[3], kc = 0, kr = 0;
            for (uint32_t j = 0; j < n; j++) { if (j != r) cols[kc++] = j; if (j != c) rows[kr++] = j; }
            uint32_t minor = n == 2 ? m[cols[0] * n + rows[0]] : det_n(cc, m, n, cols, rows, n - 1);
            uint32_t v = op2(cc, EG_VM_FMUL, minor, inv_det);
            o[c * n + r] = ((r + c) & 1) ? op2(cc, EG_VM_FNEG, v, N_) : v;
        }
}

/* packUnorm/Snorm 4x8 and 2x16: round(clamp(v) * scale) per component, shifted into place. */
static uint32_t pack(vm_cc_t *cc, const uint32_t *v, uint32_t n, bool snorm)
{
    uint32_t bits = 32 / n, acc = N_;
    float scale = snorm ? (float)((1u << (bits - 1)) - 1u) : (float)((1u << bits) - 1u);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = op3(cc, EG_VM_FCLAMP, v[k], fconst(cc, snorm ? -1.0f : 0.0f), fconst(cc, 1.0f));
        uint32_t q = op2(cc, EG_VM_FROUNDEVEN, op2(cc, EG_VM_FMUL, c, fconst(cc, scale)), N_);
        q = op2(cc, EG_VM_AND, op2(cc, EG_VM_F2I, q, N_), vm_const(cc, (1u << bits) - 1u));
        q = op2(cc, EG_VM_SHL, q, vm_const(cc, k * bits));
        acc = acc == N_ ? q : op2(cc, EG_VM_OR, acc, q);
    }
    return acc;
}

static void unpack(vm_cc_t *cc, uint32_t p, uint32_t n, bool snorm, uint32_t *o)
{
    uint32_t bits = 32 / n;
    float scale = snorm ? (float)((1u << (bits - 1)) - 1u) : (float)((1u << bits) - 1u);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t f;
        if (snorm) {   /* sign-extend the field: (p << (32 - bits*(k+1))) >>arith (32 - bits) */
            uint32_t s = op2(cc, EG_VM_SHL, p, vm_const(cc, 32 - bits * (k + 1)));
            f = op2(cc, EG_VM_I2F, op2(cc, EG_VM_SHRA, s, vm_const(cc, 32 - bits)), N_);
        } else {
            f = op2(cc, EG_VM_U2F, op3(cc, EG_VM_BFEU, p, vm_const(cc, k * bits), vm_const(cc, bits)), N_);
        }
        f = op2(cc, EG_VM_FDIV, f, fconst(cc, scale));
        o[k] = snorm ? op3(cc, EG_VM_FCLAMP, f, fconst(cc, -1.0f), fconst(cc, 1.0f)) : f;
    }
}

static uint32_t *ptr_store_target(vm_cc_t *cc, uint32_t id, const uint32_t *src, uint32_t n);
static uint32_t *ptr_store_target(vm_cc_t *cc, uint32_t id, const uint32_t *src, uint32_t n)
{
    vm_val_t *pv = vm_val(cc, id);
    if (pv->kind != VM_VAL_PTR) { vm_fail(cc, EG_STATUS_INTERNAL, "Modf/Frexp output is not a pointer"); return NULL; }
    vm_store(cc, &cc->ptrs[pv->idx], src, n);
    return NULL;
}

static bool lower_geometric(vm_cc_t *cc, uint32_t inst, const uint32_t *a, uint32_t na, const uint32_t *b,
                            const uint32_t *c, uint32_t *o, uint32_t *nout)
{
    switch (inst) {
    case GLSLstd450Length:
        o[0] = na == 1 ? op2(cc, EG_VM_FABS, a[0], N_) : op2(cc, EG_VM_FSQRT, vdot(cc, a, a, na), N_);
        *nout = 1; return true;
    case GLSLstd450Distance: {
        uint32_t d[4];
        for (uint32_t k = 0; k < na; k++) d[k] = op2(cc, EG_VM_FSUB, a[k], b[k]);
        o[0] = na == 1 ? op2(cc, EG_VM_FABS, d[0], N_) : op2(cc, EG_VM_FSQRT, vdot(cc, d, d, na), N_);
        *nout = 1; return true;
    }
    case GLSLstd450Cross:
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t i = (k + 1) % 3, j = (k + 2) % 3;
            o[k] = op2(cc, EG_VM_FSUB, op2(cc, EG_VM_FMUL, a[i], b[j]), op2(cc, EG_VM_FMUL, a[j], b[i]));
        }
        *nout = 3; return true;
    case GLSLstd450Normalize: {
        uint32_t len = na == 1 ? op2(cc, EG_VM_FABS, a[0], N_) : op2(cc, EG_VM_FSQRT, vdot(cc, a, a, na), N_);
        for (uint32_t k = 0; k < na; k++) o[k] = op2(cc, EG_VM_FDIV, a[k], len);
        *nout = na; return true;
    }
    case GLSLstd450FaceForward: {       /* dot(Nref, I) < 0 ? N : -N */
        uint32_t neg = op2(cc, EG_VM_FLT, vdot(cc, c, b, na), fconst(cc, 0.0f));
        for (uint32_t k = 0; k < na; k++) o[k] = op3(cc, EG_VM_SELECT, neg, a[k], op2(cc, EG_VM_FNEG, a[k], N_));
        *nout = na; return true;
    }
    case GLSLstd450Reflect: {           /* I - 2 dot(N, I) N */
        uint32_t d2 = op2(cc, EG_VM_FMUL, fconst(cc, 2.0f), vdot(cc, b, a, na));
        for (uint32_t k = 0; k < na; k++) o[k] = op2(cc, EG_VM_FSUB, a[k], op2(cc, EG_VM_FMUL, d2, b[k]));
        *nout = na; return true;
    }
    case GLSLstd450Refract: {           /* k = 1 - eta^2 (1 - dot^2); k < 0 ? 0 : eta I - (eta dot + sqrt k) N */
        uint32_t d = vdot(cc, b, a, na), eta = c[0];
        uint32_t k = op2(cc, EG_VM_FSUB, fconst(cc, 1.0f), op2(cc, EG_VM_FMUL, op2(cc, EG_VM_FMUL, eta, eta),
                         op2(cc, EG_VM_FSUB, fconst(cc, 1.0f), op2(cc, EG_VM_FMUL, d, d))));
        uint32_t neg = op2(cc, EG_VM_FLT, k, fconst(cc, 0.0f));
        uint32_t s = op2(cc, EG_VM_FADD, op2(cc, EG_VM_FMUL, eta, d), op2(cc, EG_VM_FSQRT, k, N_));
        for (uint32_t j = 0; j < na; j++) {
            uint32_t v = op2(cc, EG_VM_FSUB, op2(cc, EG_VM_FMUL, eta, a[j]), op2(cc, EG_VM_FMUL, s, b[j]));
            o[j] = op3(cc, EG_VM_SELECT, neg, fconst(cc, 0.0f), v);
        }
        *nout = na; return true;
    }
    default:
        return false;
    }
}

bool vm_lower_ext(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    if (in->operands[0] != cc->ir->glsl_std_450)
        return vm_fail(cc, EG_STATUS_INTERNAL, "OpExtInst of an unknown instruction set");
    uint32_t inst = in->operands[1], nargs = in->operand_count - 2u, n[3] = { 0, 0, 0 };
    uint32_t *arg[3] = { NULL, NULL, NULL };
    for (uint32_t i = 0; i < nargs && i < 3; i++)
        if (vm_val(cc, in->operands[2 + i])->kind == VM_VAL_COMPS) arg[i] = vm_comps(cc, in->operands[2 + i], &n[i]);
    uint32_t nres = eg_ir_scalars(cc->ir, in->type), count = n[0];
    for (size_t i = 0; i < EG_ARRAY_LEN(ext_ops); i++) {
        if (ext_ops[i].glsl != inst) continue;
        for (uint32_t k = 1; k < ext_ops[i].arity; k++) if (n[k] > count) count = n[k];
        vm_val_t out = vm_new_comps(cc, count, false);
        for (uint32_t c = 0; c < count && !cc->failed; c++) {
            uint32_t r[3] = { N_, N_, N_ };
            for (uint32_t k = 0; k < ext_ops[i].arity; k++) r[k] = arg[k] ? arg[k][n[k] == 1 ? 0 : c] : N_;
            vm_emit(cc, ext_ops[i].vm, cc->comps[out.idx + c], r[0], r[1], r[2], N_, 0);
        }
        *vm_val(cc, in->result) = out;
        return !cc->failed;
    }
    vm_val_t out = vm_alias_comps(cc, nres);
    uint32_t *o = &cc->comps[out.idx], produced = nres;
    if (cc->failed) return false;
    if (lower_geometric(cc, inst, arg[0], n[0], arg[1], arg[2], o, &produced)) {
        /* done */
    } else switch (inst) {
    case GLSLstd450Determinant: {
        uint32_t dim = eg_ir_type(cc->ir, eg_ir_type_of(cc->ir, in->operands[2]))->count;
        o[0] = determinant(cc, arg[0], dim);
        break;
    }
    case GLSLstd450MatrixInverse: {
        uint32_t dim = eg_ir_type(cc->ir, in->type)->count;
        inverse(cc, arg[0], dim, o);
        break;
    }
    case GLSLstd450Modf: case GLSLstd450ModfStruct: {
        uint32_t whole[4], frac[4];
        for (uint32_t k = 0; k < n[0]; k++) {
            whole[k] = op2(cc, EG_VM_FTRUNC, arg[0][k], N_);
            frac[k] = op2(cc, EG_VM_FSUB, arg[0][k], whole[k]);
            o[k] = frac[k];
            if (inst == GLSLstd450ModfStruct) o[n[0] + k] = whole[k];
        }
        if (inst == GLSLstd450Modf) ptr_store_target(cc, in->operands[3], whole, n[0]);
        break;
    }
    case GLSLstd450Frexp: case GLSLstd450FrexpStruct: {
        uint32_t e[4];
        for (uint32_t k = 0; k < n[0]; k++) {
            o[k] = op2(cc, EG_VM_FFREXP_M, arg[0][k], N_);
            e[k] = op2(cc, EG_VM_FFREXP_E, arg[0][k], N_);
            if (inst == GLSLstd450FrexpStruct) o[n[0] + k] = e[k];
        }
        if (inst == GLSLstd450Frexp) ptr_store_target(cc, in->operands[3], e, n[0]);
        break;
    }
    case GLSLstd450PackUnorm4x8: o[0] = pack(cc, arg[0], 4, false); break;
    case GLSLstd450PackSnorm4x8: o[0] = pack(cc, arg[0], 4, true); break;
    case GLSLstd450PackUnorm2x16: o[0] = pack(cc, arg[0], 2, false); break;
    case GLSLstd450PackSnorm2x16: o[0] = pack(cc, arg[0], 2, true); break;
    case GLSLstd450UnpackUnorm4x8: unpack(cc, arg[0][0], 4, false, o); break;
    case GLSLstd450UnpackSnorm4x8: unpack(cc, arg[0][0], 4, true, o); break;
    case GLSLstd450UnpackUnorm2x16: unpack(cc, arg[0][0], 2, false, o); break;
    case GLSLstd450UnpackSnorm2x16: unpack(cc, arg[0][0], 2, true, o); break;
    case GLSLstd450PackHalf2x16: o[0] = op2(cc, EG_VM_PACK_H2, arg[0][0], arg[0][1]); break;
    case GLSLstd450UnpackHalf2x16:
        for (uint32_t k = 0; k < 2; k++) {
            o[k] = vm_temp(cc);
            vm_emit(cc, EG_VM_UNPACK_H2, o[k], arg[0][0], N_, N_, N_, k);
        }
        break;
    default:
        return vm_fail(cc, EG_STATUS_INTERNAL, "GLSL.std.450 instruction %u", (unsigned)inst);
    }
    (void)produced;
    *vm_val(cc, in->result) = out;
    return !cc->failed;
}

#endif /* EMGPU_HAL_SOFT */
