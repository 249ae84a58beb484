/* hal/d3d12 TPF emitter: module variables, stage inputs/outputs (signatures), resources and declarations. */
#include "config/emgpu_config.h"

#if EMGPU_D3D12_TPF

#include "hal/d3d12/d3d_tpf_internal.h"

/* ---- resources ---- */

/* SM 5.1 range ids are numbered per register class (b, t, u, s). */
static uint32_t reg_class(uint32_t cls)
{
    return cls == RC_CB ? 0u : cls == RC_SRV_RAW || cls == RC_TEX ? 1u : cls == RC_SAMPLER ? 3u : 2u;
}

uint32_t tpf_res_of(tpf_t *t, const eg_ir_var_t *v, tpf_res_class_t cls)
{
    for (uint32_t i = 0; i < t->res_n; i++)
        if (t->res[i].var == v->id) return i;
    if (t->res_n >= TPF_MAX_RES) { tpf_fail(t, "DXBC emitter: more than %u resources", TPF_MAX_RES); return 0; }
    tpf_res_t *r = &t->res[t->res_n];
    *r = (tpf_res_t){ .cls = (uint8_t)cls, .range = t->range_n[reg_class(cls)]++, .space = v->group,
                      .reg = v->binding, .var = v->id, .comparison = t->cmp_sampler[v->id] };
    const eg_ir_type_t *ty = eg_ir_type(t->ir, v->type);
    if (ty->kind == EG_IR_IMAGE) {
        /* SPIR-V Dim 1D/2D/3D/Cube -> TPF resource dimensions. */
        static const uint8_t plain[4] = { 2, 3, 5, 6 }, arrayed[4] = { 7, 8, 5, 10 };
        uint32_t dim = ty->dim < 4 ? ty->dim : 1;
        r->dim = ty->arrayed ? arrayed[dim] : plain[dim];
        if (ty->ms) r->dim = ty->arrayed ? 9 : 4;
        eg_ir_type_kind_t k = eg_ir_type(t->ir, ty->elem)->kind;
        r->ret = k == EG_IR_INT ? 3 : k == EG_IR_UINT ? 4 : 5;
    }
    return t->res_n++;
}

/* ---- signatures ---- */

static uint8_t comp_type(const eg_ir_t *ir, uint32_t type)
{
    eg_ir_type_kind_t k = eg_ir_scalar_kind(ir, type);
    return k == EG_IR_FLOAT ? 3 : k == EG_IR_INT ? 2 : 1;
}

static tpf_sig_elem_t *sig_add(tpf_t *t, bool input, tpf_sig_elem_t e)
{
    tpf_sig_elem_t *s = input ? t->isig : t->osig;
    uint32_t *n = input ? &t->isig_n : &t->osig_n;
    for (uint32_t i = 0; i < *n; i++)
        if (s[i].reg == e.reg && e.reg != ~0u && s[i].name == e.name) { s[i].mask |= e.mask; s[i].rw |= e.rw; return &s[i]; }
    if (*n >= TPF_MAX_SIG) { tpf_fail(t, "DXBC emitter: more than %u signature elements", TPF_MAX_SIG); return s; }
    s[*n] = e;
    return &s[(*n)++];
}

static void mov_from_reg(tpf_t *t, uint32_t dst, uint32_t type, uint32_t reg, uint32_t comp, bool indexed)
{
    tpf_begin(t, TPF_MOV);
    tpf_o_dst(t, dst);
    tpf_o_reg(t, type, indexed ? 1u : 0u, &reg, 2u | 2u << 2 | comp << 4);
    tpf_end(t);
}

/* Built-in inputs: D3D system values, or the sysvals root constants where D3D has none. */
static bool builtin_input(tpf_t *t, const eg_ir_var_t *v, const tpf_sc_t *dst, uint32_t n)
{
    uint32_t b = v->builtin - 1u, reg = t->input_regs;
    switch (b) {
    case SpvBuiltInVertexIndex: case SpvBuiltInInstanceIndex: {
        bool vid = b == SpvBuiltInVertexIndex;
        sig_add(t, true, (tpf_sig_elem_t){ .name = vid ? SN_VERTEX_ID : SN_INSTANCE_ID,
                                           .sysval = vid ? TPF_NAME_VERTEX_ID : TPF_NAME_INSTANCE_ID,
                                           .comp_type = 1, .reg = reg, .mask = 1, .rw = 1 });
        t->input_regs++;
        /* WebGPU's indices include firstVertex/baseVertex and firstInstance; D3D's start at 0. */
        uint32_t d = tpf_temp(t);
        mov_from_reg(t, d, TPF_R_INPUT, reg, 0, true);
        tpf_op2(t, TPF_IADD, dst[0].v, tpf_tsc(d), tpf_cb_load(t, tpf_sysvals(t), 0, vid ? 0u : 1u));
        return true;
    }
    case SpvBuiltInFragCoord:
        sig_add(t, true, (tpf_sig_elem_t){ .name = SN_POSITION, .sysval = TPF_NAME_POSITION, .comp_type = 3,
                                           .reg = 0, .mask = 0xf, .rw = 0xf, .interp = 4 });
        for (uint32_t c = 0; c < 3; c++) mov_from_reg(t, dst[c].v, TPF_R_INPUT, 0, c, true);
        /* SPIR-V FragCoord.w is 1/w_clip; D3D's SV_Position.w is w_clip. */
        {
            uint32_t d = tpf_temp(t);
            mov_from_reg(t, d, TPF_R_INPUT, 0, 3, true);
            tpf_op1(t, TPF_RCP, dst[3].v, tpf_tsc(d));
        }
        return true;
    case SpvBuiltInFrontFacing: case SpvBuiltInSampleId: {
        bool ff = b == SpvBuiltInFrontFacing;
        sig_add(t, true, (tpf_sig_elem_t){ .name = ff ? SN_FRONT_FACE : SN_SAMPLE_INDEX,
                                           .sysval = ff ? TPF_NAME_FRONT_FACE : TPF_NAME_SAMPLE_INDEX,
                                           .comp_type = 1, .reg = reg, .mask = 1, .rw = 1, .interp = 1 });
        t->input_regs++;
        mov_from_reg(t, dst[0].v, TPF_R_INPUT, reg, 0, true);
        return true;
    }
    case SpvBuiltInSampleMask:
        t->special |= SPC_COVERAGE_IN;
        tpf_begin(t, TPF_MOV); tpf_o_dst(t, dst[0].v); tpf_tok(t, 1u | TPF_R_COVERAGE << 12); tpf_end(t);
        return true;
    case SpvBuiltInGlobalInvocationId: case SpvBuiltInLocalInvocationId: case SpvBuiltInWorkgroupId: {
        uint32_t type = b == SpvBuiltInGlobalInvocationId ? TPF_R_THREAD_ID
                      : b == SpvBuiltInLocalInvocationId ? TPF_R_LOCAL_ID : TPF_R_GROUP_ID;
        t->special |= type == TPF_R_THREAD_ID ? SPC_THREAD_ID : type == TPF_R_LOCAL_ID ? SPC_LOCAL_ID : SPC_GROUP_ID;
        for (uint32_t c = 0; c < n && c < 3; c++) mov_from_reg(t, dst[c].v, type, 0, c, false);
        return true;
    }
    case SpvBuiltInLocalInvocationIndex:
        t->special |= SPC_LOCAL_INDEX;
        tpf_begin(t, TPF_MOV); tpf_o_dst(t, dst[0].v); tpf_tok(t, 1u | TPF_R_LOCAL_INDEX << 12); tpf_end(t);
        return true;
    case SpvBuiltInNumWorkgroups:
        for (uint32_t c = 0; c < n && c < 3; c++) tpf_op1(t, TPF_MOV, dst[c].v, tpf_cb_load(t, tpf_sysvals(t), 0, c));
        return true;
    case SpvBuiltInWorkgroupSize:
        for (uint32_t c = 0; c < n && c < 3; c++) tpf_op1(t, TPF_MOV, dst[c].v, tpf_imm(t->ir->workgroup_size[c]));
        return true;
    default:
        return tpf_fail(t, "DXBC emitter: input built-in %u is not lowered", (unsigned)b);
    }
}

/* Vertex attributes: register L (TEXCOORD L, the PSO's input layout). Varyings: register L + 1
 * in both stages (register 0 is SV_Position). */
static bool input_var(tpf_t *t, const eg_ir_var_t *v, tpf_val_t *regs)
{
    uint32_t n = eg_ir_scalars(t->ir, v->type);
    *regs = tpf_new_comps(t, n);
    tpf_sc_t *dst = tpf_c(t, regs);
    if (v->builtin) return builtin_input(t, v, dst, n);
    if (v->location >= 32 || n > 4 || v->component + n > 4)
        return tpf_fail(t, "DXBC emitter: input at location %u with %u components", (unsigned)v->location, (unsigned)n);
    bool vs = t->ir->stage == EG_SHADER_STAGE_VERTEX;
    uint32_t reg = vs ? v->location : v->location + 1u;
    uint8_t mask = (uint8_t)(((1u << n) - 1u) << v->component);
    /* D3D10_SB_INTERPOLATION_MODE: 1 constant, 2 linear, 3 centroid, 4 noperspective,
     * 5 noperspective centroid, 6 linear sample, 7 noperspective sample. */
    uint8_t interp = v->flat || comp_type(t->ir, v->type) != 3 ? 1
                   : v->noperspective ? (v->sample ? 7 : v->centroid ? 5 : 4) : (v->sample ? 6 : v->centroid ? 3 : 2);
    sig_add(t, true, (tpf_sig_elem_t){ .name = SN_TEXCOORD, .index = v->location, .comp_type = comp_type(t->ir, v->type),
                                       .reg = reg, .mask = mask, .rw = mask, .interp = interp });
    for (uint32_t c = 0; c < n; c++) mov_from_reg(t, dst[c].v, TPF_R_INPUT, reg, v->component + c, true);
    return true;
}

static void output_sig(tpf_t *t, const eg_ir_var_t *v)
{
    const eg_ir_type_t *ty = eg_ir_type(t->ir, v->type);
    uint32_t n = ty->scalars;
    bool vs = t->ir->stage == EG_SHADER_STAGE_VERTEX;
    bool pos = v->builtin == SpvBuiltInPosition + 1u;
    for (uint32_t m = 0; ty->kind == EG_IR_STRUCT && m < ty->count; m++) pos |= ty->members[m].builtin == SpvBuiltInPosition + 1u;
    if (pos) {
        sig_add(t, false, (tpf_sig_elem_t){ .name = SN_POSITION, .sysval = TPF_NAME_POSITION, .comp_type = 3, .reg = 0, .mask = 0xf });
    } else if (v->builtin == SpvBuiltInFragDepth + 1u) {
        t->special |= SPC_DEPTH_OUT;
        sig_add(t, false, (tpf_sig_elem_t){ .name = SN_DEPTH, .comp_type = 3, .reg = ~0u, .mask = 1, .rw = 0xe });
    } else if (v->builtin == SpvBuiltInSampleMask + 1u) {
        t->special |= SPC_MASK_OUT;
        sig_add(t, false, (tpf_sig_elem_t){ .name = SN_COVERAGE, .comp_type = 1, .reg = ~0u, .mask = 1, .rw = 0xe });
    } else if (!v->builtin && n <= 4 && v->location < 32) {
        uint8_t mask = (uint8_t)(((1u << n) - 1u) << v->component);
        sig_add(t, false, (tpf_sig_elem_t){ .name = vs ? SN_TEXCOORD : SN_TARGET, .index = v->location,
                                            .comp_type = comp_type(t->ir, v->type),
                                            .reg = vs ? v->location + 1u : v->location, .mask = mask });
    }
}

/* Module-scope variables become values: REG pointers (inputs, outputs, private), x# (private
 * arrays indexed dynamically), g# (workgroup) or resources. */
static bool global_var(tpf_t *t, const eg_ir_var_t *v)
{
    tpf_ptr_t p = { .type = v->type };
    tpf_val_t regs;
    const eg_ir_type_t *ty = eg_ir_type(t->ir, v->type);
    switch (v->storage) {
    case SpvStorageClassInput:
        if (!input_var(t, v, &regs)) return false;
        p.space = SP_REG; p.base = regs.idx;
        break;
    case SpvStorageClassOutput: case SpvStorageClassPrivate:
        if (t->var_indexed[v->id]) {
            if (t->xreg_n >= TPF_MAX_XREGS) return tpf_fail(t, "DXBC emitter: more than %u indexed arrays", TPF_MAX_XREGS);
            p.space = SP_XREG; p.res = (uint16_t)t->xreg_n; t->xreg_size[t->xreg_n++] = ty->scalars;
            break;
        }
        regs = tpf_var_regs(t, v->type, v->init);
        p.space = SP_REG; p.base = regs.idx;
        if (v->storage == SpvStorageClassOutput) output_sig(t, v);
        break;
    case SpvStorageClassWorkgroup:
        if (t->tgsm_n >= TPF_MAX_TGSM) return tpf_fail(t, "DXBC emitter: more than %u workgroup variables", TPF_MAX_TGSM);
        p.space = SP_TGSM; p.res = (uint16_t)t->tgsm_n; t->tgsm_size_B[t->tgsm_n++] = ty->scalars * 4u;
        break;
    case SpvStorageClassUniform: case SpvStorageClassStorageBuffer: {
        bool ro = v->non_writable;
        if (!ro && ty->kind == EG_IR_STRUCT && ty->count) {
            ro = true;
            for (uint32_t m = 0; m < ty->count; m++) ro &= ty->members[m].non_writable != 0;
        }
        tpf_res_class_t cls = v->storage == SpvStorageClassUniform ? RC_CB : ro ? RC_SRV_RAW : RC_UAV_RAW;
        p.space = cls == RC_CB ? SP_CB : SP_RAW;
        p.res = (uint16_t)tpf_res_of(t, v, cls);
        break;
    }
    case SpvStorageClassUniformConstant:
        t->vals[v->id] = (tpf_val_t){ TV_RES, 1, tpf_res_of(t, v, ty->kind == EG_IR_SAMPLER ? RC_SAMPLER
                                                              : ty->sampled == 2 ? RC_UAV_TYPED : RC_TEX) };
        return !t->failed;
    default:
        return tpf_fail(t, "DXBC emitter: module variable in storage class %u", (unsigned)v->storage);
    }
    if (p.space == SP_XREG) {            /* initialise the indexable copy */
        uint32_t ni = 0;
        const tpf_sc_t *src = v->init ? tpf_comps(t, v->init, &ni) : NULL;
        for (uint32_t i = 0; i < ty->scalars; i++) {
            uint32_t idx[2] = { p.res, i };
            tpf_begin(t, TPF_MOV);
            tpf_o_reg(t, TPF_R_XTEMP, 2, idx, 2u | 1u << 4);
            tpf_o_src(t, src && i < ni ? src[i] : tpf_imm(0));
            tpf_end(t);
        }
    }
    t->vals[v->id] = (tpf_val_t){ TV_PTR, 1, tpf_new_ptr(t, &p) };
    return !t->failed;
}

bool tpf_globals(tpf_t *t)
{
    t->input_regs = 17;      /* after SV_Position (0) and the 16 varyings / attributes */
    for (uint32_t i = 0; i < t->ir->var_count && !t->failed; i++) {
        const eg_ir_var_t *v = &t->ir->vars[i];
        bool resource = v->storage == SpvStorageClassUniform || v->storage == SpvStorageClassStorageBuffer ||
                        v->storage == SpvStorageClassUniformConstant || v->storage == SpvStorageClassWorkgroup;
        if (resource && !t->var_used[v->id]) continue;    /* declared in the module, not used here */
        if (!global_var(t, v)) return false;
    }
    return !t->failed;
}

/* Copies Output variables to the o# registers; runs before every `ret` of the entry point. */
bool tpf_epilogue(tpf_t *t)
{
    bool vs = t->ir->stage == EG_SHADER_STAGE_VERTEX;
    for (uint32_t i = 0; i < t->ir->var_count; i++) {
        const eg_ir_var_t *v = &t->ir->vars[i];
        if (v->storage != SpvStorageClassOutput) continue;
        const tpf_ptr_t *p = &t->ptrs[t->vals[v->id].idx];
        if (p->space != SP_REG) return tpf_fail(t, "DXBC emitter: output variable indexed dynamically");
        const eg_ir_type_t *ty = eg_ir_type(t->ir, v->type);
        const tpf_sc_t *s = &t->comps[p->base];
        uint32_t reg = 0, first = 0, n = ty->scalars, type = TPF_R_OUTPUT;
        if (ty->kind == EG_IR_STRUCT) {          /* gl_PerVertex: only Position is written */
            n = 0;
            for (uint32_t m = 0, at = 0; m < ty->count; at += eg_ir_scalars(t->ir, ty->members[m].type), m++)
                if (ty->members[m].builtin == SpvBuiltInPosition + 1u) { first = at; n = 4; }
        } else if (v->builtin == SpvBuiltInFragDepth + 1u || v->builtin == SpvBuiltInSampleMask + 1u) {
            tpf_begin(t, TPF_MOV);
            tpf_tok(t, 1u | (v->builtin == SpvBuiltInFragDepth + 1u ? TPF_R_DEPTH : TPF_R_OMASK) << 12);
            tpf_o_src(t, s[0]);
            tpf_end(t);
            continue;
        } else if (v->builtin && v->builtin != SpvBuiltInPosition + 1u) {
            continue;                            /* PointSize: D3D has none */
        } else if (!v->builtin) {
            reg = vs ? v->location + 1u : v->location;
        }
        for (uint32_t c = 0; c < n; c++) {
            uint32_t comp = v->builtin || ty->kind == EG_IR_STRUCT ? c : v->component + c;
            tpf_begin(t, TPF_MOV);
            tpf_o_reg(t, type, 1, &reg, 2u | (1u << comp) << 4);
            tpf_o_src(t, s[first + c]);
            tpf_end(t);
        }
    }
    return !t->failed;
}

/* ---- declarations (written after the code: temps and resources are known then) ---- */

static void dcl_res(tpf_t *t, uint32_t op, const tpf_res_t *r, uint32_t type, uint32_t comps_bits)
{
    uint32_t idx[3] = { r->range, r->reg, r->reg };
    tpf_begin(t, op);
    tpf_o_reg(t, type, 3, idx, comps_bits);
    if (r->cls == RC_CB) tpf_tok(t, r->var ? 4096u : (EG_D3D_TPF_SYSVALS_DWORDS + 3u) / 4u);  /* 16-byte rows */
    if (r->cls == RC_TEX || r->cls == RC_UAV_TYPED) tpf_tok(t, r->ret * 0x1111u);
    tpf_tok(t, r->space);
    tpf_end(t);
}

static void dcl_resources(tpf_t *t)
{
    for (uint32_t i = 0; i < t->res_n; i++) {
        const tpf_res_t *r = &t->res[i];
        switch (r->cls) {
        case RC_CB: dcl_res(t, TPF_DCL_CONSTANT_BUFFER | 1u << 11, r, TPF_R_CB, 2u | 1u << 2 | TPF_SWZ_XYZW << 4); break;
        case RC_SRV_RAW: dcl_res(t, TPF_DCL_RESOURCE_RAW, r, TPF_R_RESOURCE, 0); break;
        case RC_UAV_RAW: dcl_res(t, TPF_DCL_UAV_RAW, r, TPF_R_UAV, 0); break;
        case RC_TEX: dcl_res(t, TPF_DCL_RESOURCE | (uint32_t)r->dim << 11, r, TPF_R_RESOURCE, 0); break;
        case RC_UAV_TYPED: dcl_res(t, TPF_DCL_UAV_TYPED | (uint32_t)r->dim << 11, r, TPF_R_UAV, 0); break;
        default: dcl_res(t, TPF_DCL_SAMPLER | (uint32_t)r->comparison << 11, r, TPF_R_SAMPLER, 0); break;
        }
    }
}

static void dcl_special(tpf_t *t, uint32_t op, uint32_t operand_token)
{
    tpf_begin(t, op); tpf_tok(t, operand_token); tpf_end(t);
}

static void dcl_io(tpf_t *t)
{
    bool ps = t->ir->stage == EG_SHADER_STAGE_FRAGMENT;
    for (uint32_t i = 0; i < t->isig_n; i++) {
        const tpf_sig_elem_t *e = &t->isig[i];
        uint32_t bits = 2u | (uint32_t)e->mask << 4;
        bool sv = e->sysval != 0;
        uint32_t op = ps ? (e->sysval == TPF_NAME_POSITION ? TPF_DCL_INPUT_PS_SIV : sv ? TPF_DCL_INPUT_PS_SGV : TPF_DCL_INPUT_PS)
                         : sv ? TPF_DCL_INPUT_SGV : TPF_DCL_INPUT;
        tpf_begin(t, op | (ps ? (uint32_t)e->interp << 11 : 0u));
        tpf_o_reg(t, TPF_R_INPUT, 1, &e->reg, bits);
        if (sv) tpf_tok(t, e->sysval);
        tpf_end(t);
    }
    if (t->special & SPC_COVERAGE_IN) dcl_special(t, TPF_DCL_INPUT, 1u | TPF_R_COVERAGE << 12);
    if (t->special & SPC_THREAD_ID) dcl_special(t, TPF_DCL_INPUT, 2u | 7u << 4 | TPF_R_THREAD_ID << 12);
    if (t->special & SPC_GROUP_ID) dcl_special(t, TPF_DCL_INPUT, 2u | 7u << 4 | TPF_R_GROUP_ID << 12);
    if (t->special & SPC_LOCAL_ID) dcl_special(t, TPF_DCL_INPUT, 2u | 7u << 4 | TPF_R_LOCAL_ID << 12);
    if (t->special & SPC_LOCAL_INDEX) dcl_special(t, TPF_DCL_INPUT, 1u | TPF_R_LOCAL_INDEX << 12);
    for (uint32_t i = 0; i < t->osig_n; i++) {
        const tpf_sig_elem_t *e = &t->osig[i];
        if (e->reg == ~0u) continue;
        tpf_begin(t, e->sysval ? TPF_DCL_OUTPUT_SIV : TPF_DCL_OUTPUT);
        tpf_o_reg(t, TPF_R_OUTPUT, 1, &e->reg, 2u | (uint32_t)e->mask << 4);
        if (e->sysval) tpf_tok(t, e->sysval);
        tpf_end(t);
    }
    if (t->special & SPC_DEPTH_OUT) dcl_special(t, TPF_DCL_OUTPUT, 1u | TPF_R_DEPTH << 12);
    if (t->special & SPC_MASK_OUT) dcl_special(t, TPF_DCL_OUTPUT, 1u | TPF_R_OMASK << 12);
}

bool tpf_declare(tpf_t *t)
{
    /* Reuse the instruction writer on the declaration buffer. */
    uint32_t *code = t->code, code_n = t->code_n, code_cap = t->code_cap;
    t->code = t->decl; t->code_n = 0; t->code_cap = t->decl_cap;
    tpf_begin(t, TPF_DCL_GLOBAL_FLAGS | 1u << 11); tpf_end(t);       /* refactoringAllowed */
    dcl_resources(t);
    dcl_io(t);
    if (t->temps) { tpf_begin(t, TPF_DCL_TEMPS); tpf_tok(t, (t->temps + 3u) / 4u); tpf_end(t); }
    for (uint32_t i = 0; i < t->xreg_n; i++) {
        tpf_begin(t, TPF_DCL_INDEXABLE_TEMP); tpf_tok(t, i); tpf_tok(t, t->xreg_size[i]); tpf_tok(t, 4); tpf_end(t);
    }
    for (uint32_t i = 0; i < t->tgsm_n; i++) {
        tpf_begin(t, TPF_DCL_TGSM_RAW); tpf_o_reg(t, TPF_R_TGSM, 1, &i, 0); tpf_tok(t, t->tgsm_size_B[i]); tpf_end(t);
    }
    if (t->ir->stage == EG_SHADER_STAGE_COMPUTE) {
        tpf_begin(t, TPF_DCL_THREAD_GROUP);
        for (uint32_t c = 0; c < 3; c++) tpf_tok(t, t->ir->workgroup_size[c] ? t->ir->workgroup_size[c] : 1u);
        tpf_end(t);
    }
    t->decl = t->code; t->decl_n = t->code_n;
    t->code = code; t->code_n = code_n; t->code_cap = code_cap;
    return !t->failed;
}

#endif /* EMGPU_D3D12_TPF */
