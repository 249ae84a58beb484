/* hal/soft shader VM: texture and sampler instructions (compile and run), through soft_texel.h.
 *
 * Encoding: SAMPLE / TEXLOAD / TEXSTORE / TEXSIZE are followed by three ARGS instructions that
 * carry the remaining registers (result components 1-3 in dst; layer, lod/bias/sample,
 * compare, derivatives or the stored value in a/b/c). d holds the image slot (low byte) and the
 * sampler slot (high byte); imm holds flags.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_texel.h"
#include "hal/soft/soft_vm_compile.h"
#include "hal/soft/soft_vm_simd.h"

#define N_ EG_VM_NONE

/* imm flags */
#define F_LOD_SHIFT 0u          /* eg_soft_lod_mode_t, 2 bits */
#define F_LAYER (1u << 2)
#define F_COMPARE (1u << 3)
#define F_OFFSET (1u << 4)
#define F_OFFSET_SHIFT 8u       /* 3 x 4-bit signed offsets */

static uint32_t coord_count(const eg_ir_type_t *img) { return img->dim == SpvDim1D ? 1u : img->dim == SpvDim2D ? 2u : 3u; }

static const eg_ir_type_t *image_type(vm_cc_t *cc, uint32_t id)
{
    const eg_ir_type_t *t = eg_ir_type(cc->ir, eg_ir_type_of(cc->ir, id));
    return t->kind == EG_IR_SAMPLED_IMAGE ? eg_ir_type(cc->ir, t->elem) : t;
}

static void emit_args(vm_cc_t *cc, const uint32_t dst[4], const uint32_t args[9])
{
    for (uint32_t k = 0; k < 3; k++)
        vm_emit(cc, EG_VM_ARGS, dst[k + 1], args[k * 3], args[k * 3 + 1], args[k * 3 + 2], N_, 0);
}

static uint32_t operand_reg(vm_cc_t *cc, uint32_t id, uint32_t k)
{
    uint32_t n, *c = vm_comps(cc, id, &n);
    return k < n ? c[k] : N_;
}

/* Image operands (mask at operand index `at`): fills the lod mode, lod/bias, grads, offset. */
static uint32_t image_operands(vm_cc_t *cc, const eg_ir_inst_t *in, uint32_t at, uint32_t args[9],
                               uint32_t *lod_mode, uint32_t ncoord)
{
    uint32_t flags = 0;
    if (at >= in->operand_count) return 0;
    uint32_t mask = in->operands[at], next = at + 1;
    if (mask & SpvImageOperandsBiasMask) { *lod_mode = EG_SOFT_LOD_BIAS; args[1] = operand_reg(cc, in->operands[next++], 0); }
    if (mask & SpvImageOperandsLodMask) { *lod_mode = EG_SOFT_LOD_EXPLICIT; args[1] = operand_reg(cc, in->operands[next++], 0); }
    if (mask & SpvImageOperandsGradMask) {
        *lod_mode = EG_SOFT_LOD_GRAD;
        for (uint32_t k = 0; k < ncoord; k++) {
            args[3 + k] = operand_reg(cc, in->operands[next], k);
            args[6 + k] = operand_reg(cc, in->operands[next + 1], k);
        }
        next += 2;
    }
    if (mask & SpvImageOperandsConstOffsetMask) {
        const eg_ir_value_t *v = &cc->ir->values[in->operands[next++]];
        if (v->kind == EG_IR_VAL_CONST) {
            flags |= F_OFFSET;
            for (uint32_t k = 0; k < ncoord && k < 3; k++)
                flags |= (cc->ir->consts[v->index].scalars[k] & 0xfu) << (F_OFFSET_SHIFT + 4u * k);
        }
    }
    if (mask & SpvImageOperandsSampleMask) args[1] = operand_reg(cc, in->operands[next++], 0);
    return flags;
}

static bool lower_sample(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    vm_val_t *si = vm_val(cc, in->operands[0]);
    if (si->kind != VM_VAL_SAMPLED) return vm_fail(cc, EG_STATUS_INTERNAL, "sampling without a sampled image");
    const eg_ir_type_t *img = image_type(cc, in->operands[0]);
    bool dref = in->op == SpvOpImageSampleDrefImplicitLod || in->op == SpvOpImageSampleDrefExplicitLod;
    uint32_t nc = coord_count(img), args[9], lod_mode = EG_SOFT_LOD_IMPLICIT, dst[4], coord[3] = { N_, N_, N_ };
    for (uint32_t k = 0; k < 9; k++) args[k] = N_;
    for (uint32_t k = 0; k < nc; k++) coord[k] = operand_reg(cc, in->operands[1], k);
    uint32_t flags = 0;
    if (img->arrayed) { args[0] = operand_reg(cc, in->operands[1], nc); flags |= F_LAYER; }
    if (dref) { args[2] = operand_reg(cc, in->operands[2], 0); flags |= F_COMPARE; }
    flags |= image_operands(cc, in, dref ? 3u : 2u, args, &lod_mode, nc);
    if (lod_mode == EG_SOFT_LOD_IMPLICIT || lod_mode == EG_SOFT_LOD_BIAS) {
        if (cc->ir->stage != EG_SHADER_STAGE_FRAGMENT) { lod_mode = EG_SOFT_LOD_EXPLICIT; args[1] = vm_const(cc, 0); }
        else cc->prog->info.uses_derivatives = true;
    }
    uint32_t nres = eg_ir_scalars(cc->ir, in->type);
    vm_val_t out = vm_new_comps(cc, nres, false);
    for (uint32_t k = 0; k < 4; k++) dst[k] = k < nres ? cc->comps[out.idx + k] : vm_temp(cc);
    vm_emit(cc, EG_VM_SAMPLE, dst[0], coord[0], coord[1], coord[2], si->idx, flags | (lod_mode << F_LOD_SHIFT));
    emit_args(cc, dst, args);
    *vm_val(cc, in->result) = out;
    return !cc->failed;
}

static bool lower_load_store(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    vm_val_t *iv = vm_val(cc, in->operands[0]);
    uint32_t slot = iv->kind == VM_VAL_SAMPLED ? (iv->idx & 0xffu) : iv->idx;
    const eg_ir_type_t *img = image_type(cc, in->operands[0]);
    uint32_t nc = coord_count(img), args[9], coord[3] = { N_, N_, N_ }, lod_mode = 0, dst[4] = { N_, N_, N_, N_ };
    for (uint32_t k = 0; k < 9; k++) args[k] = N_;
    for (uint32_t k = 0; k < nc; k++) coord[k] = operand_reg(cc, in->operands[1], k);
    uint32_t flags = 0;
    if (img->arrayed) { args[0] = operand_reg(cc, in->operands[1], nc); flags |= F_LAYER; }
    if (in->op == SpvOpImageWrite) {
        for (uint32_t k = 0; k < 4; k++) args[3 + k] = operand_reg(cc, in->operands[2], k);
        cc->prog->info.has_side_effects = true;
        vm_emit(cc, EG_VM_TEXSTORE, N_, coord[0], coord[1], coord[2], slot, flags);
        emit_args(cc, dst, args);
        return !cc->failed;
    }
    image_operands(cc, in, 2, args, &lod_mode, nc);
    uint32_t nres = eg_ir_scalars(cc->ir, in->type);
    vm_val_t out = vm_new_comps(cc, nres, false);
    for (uint32_t k = 0; k < 4; k++) dst[k] = k < nres ? cc->comps[out.idx + k] : vm_temp(cc);
    vm_emit(cc, EG_VM_TEXLOAD, dst[0], coord[0], coord[1], coord[2], slot, flags);
    emit_args(cc, dst, args);
    *vm_val(cc, in->result) = out;
    return !cc->failed;
}

static bool lower_query(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    vm_val_t *iv = vm_val(cc, in->operands[0]);
    uint32_t slot = iv->kind == VM_VAL_SAMPLED ? (iv->idx & 0xffu) : iv->idx;
    uint32_t nres = eg_ir_scalars(cc->ir, in->type), dst[4], args[9];
    vm_val_t out = vm_new_comps(cc, nres, false);
    for (uint32_t k = 0; k < 4; k++) dst[k] = k < nres ? cc->comps[out.idx + k] : vm_temp(cc);
    for (uint32_t k = 0; k < 9; k++) args[k] = N_;
    if (in->op == SpvOpImageQueryLevels || in->op == SpvOpImageQuerySamples) {
        vm_emit(cc, in->op == SpvOpImageQueryLevels ? EG_VM_TEXLEVELS : EG_VM_TEXSAMPLES, dst[0], N_, N_, N_, slot, 0);
    } else {
        uint32_t lod = in->op == SpvOpImageQuerySizeLod ? operand_reg(cc, in->operands[1], 0) : vm_const(cc, 0);
        vm_emit(cc, EG_VM_TEXSIZE, dst[0], lod, N_, N_, slot, 0);
        emit_args(cc, dst, args);
    }
    *vm_val(cc, in->result) = out;
    return !cc->failed;
}

bool vm_lower_image(vm_cc_t *cc, const eg_ir_inst_t *in);
bool vm_lower_image(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    switch (in->op) {
    case SpvOpSampledImage: {
        vm_val_t *img = vm_val(cc, in->operands[0]), *smp = vm_val(cc, in->operands[1]);
        *vm_val(cc, in->result) = (vm_val_t){ VM_VAL_SAMPLED, 1, (img->idx & 0xffu) | (smp->idx << 8) };
        return true;
    }
    case SpvOpImage: {
        vm_val_t *si = vm_val(cc, in->operands[0]);
        *vm_val(cc, in->result) = (vm_val_t){ VM_VAL_IMAGE, 1, si->idx & 0xffu };
        return true;
    }
    case SpvOpImageSampleImplicitLod: case SpvOpImageSampleExplicitLod:
    case SpvOpImageSampleDrefImplicitLod: case SpvOpImageSampleDrefExplicitLod:
        return lower_sample(cc, in);
    case SpvOpImageFetch: case SpvOpImageRead: case SpvOpImageWrite:
        return lower_load_store(cc, in);
    case SpvOpImageQuerySize: case SpvOpImageQuerySizeLod: case SpvOpImageQueryLevels:
    case SpvOpImageQuerySamples:
        return lower_query(cc, in);
    default:
        return vm_fail(cc, EG_STATUS_INTERNAL, "opcode %u is not implemented by the soft VM", (unsigned)in->op);
    }
}

/* ---- run ---- */

static const eg_soft_reg_t zero_reg;

static const eg_soft_reg_t *reg(const eg_soft_program_t *p, const eg_vm_state_t *st, uint32_t r)
{
    if (r == N_) return NULL;
    return r >= EG_VM_CONST_BASE ? &p->consts[r - EG_VM_CONST_BASE] : &st->regs[r];
}
static const eg_soft_reg_t *reg0(const eg_soft_program_t *p, const eg_vm_state_t *st, uint32_t r)
{
    const eg_soft_reg_t *x = reg(p, st, r);
    return x ? x : &zero_reg;
}

static void commit4(eg_vm_state_t *st, const eg_vm_inst_t *in, const eg_soft_vec4_t *v)
{
    uint32_t dst[4] = { in->dst, in[1].dst, in[2].dst, in[3].dst };
    for (uint32_t k = 0; k < 4; k++) {
        if (dst[k] == N_) continue;
        vm_commit(&st->regs[dst[k]], &v->c[k], st->exec);
    }
}

void eg_vm_image(const eg_soft_program_t *p, eg_vm_state_t *st, const eg_vm_inst_t *in);
void eg_vm_image(const eg_soft_program_t *p, eg_vm_state_t *st, const eg_vm_inst_t *in)
{
    if (in->op == EG_VM_ARGS) return;
    const eg_vm_res_t *res = st->res;
    const eg_texture_view_t *view = (const eg_texture_view_t *)res->obj[in->d & 0xffu];
    eg_soft_vec4_t out;
    eg_memset(&out, 0, sizeof out);
    const eg_soft_reg_t *xyz[3] = { reg0(p, st, in->a), reg0(p, st, in->b), reg0(p, st, in->c) };
    const eg_soft_reg_t *layer = in->imm & F_LAYER ? reg0(p, st, in[1].a) : NULL;
    switch (in->op) {
    case EG_VM_SAMPLE: {
        int32_t off[3];
        for (uint32_t k = 0; k < 3; k++) {
            int32_t v = (int32_t)((in->imm >> (F_OFFSET_SHIFT + 4u * k)) & 0xfu);
            off[k] = v >= 8 ? v - 16 : v;
        }
        eg_soft_sample_op_t op = {
            .view = view, .sampler = (const eg_sampler_t *)res->obj[in->d >> 8],
            .coord = { reg(p, st, in->a), reg(p, st, in->b), reg(p, st, in->c) }, .layer = layer,
            .lod_mode = (eg_soft_lod_mode_t)((in->imm >> F_LOD_SHIFT) & 3u), .lod_or_bias = reg(p, st, in[1].b),
            .ddx = { reg(p, st, in[2].a), reg(p, st, in[2].b), reg(p, st, in[2].c) },
            .ddy = { reg(p, st, in[3].a), reg(p, st, in[3].b), reg(p, st, in[3].c) },
            .offset = in->imm & F_OFFSET ? off : NULL,
            .compare = in->imm & F_COMPARE ? reg(p, st, in[1].c) : NULL, .mask = st->exec };
        if (view && op.sampler) eg_soft_sample(&op, &out);
        commit4(st, in, &out);
        break;
    }
    case EG_VM_TEXLOAD:
        if (view) eg_soft_texture_load(view, xyz, layer, reg0(p, st, in[1].b), st->exec, &out);
        commit4(st, in, &out);
        break;
    case EG_VM_TEXSTORE: {
        eg_soft_vec4_t v;
        const eg_soft_reg_t *src[4] = { reg0(p, st, in[2].a), reg0(p, st, in[2].b), reg0(p, st, in[2].c),
                                        reg0(p, st, in[3].a) };
        for (uint32_t k = 0; k < 4; k++) v.c[k] = *src[k];
        if (view) eg_soft_texture_store(view, xyz, layer, &v, st->exec & st->side);
        break;
    }
    case EG_VM_TEXSIZE: {
        const eg_soft_reg_t *lod = reg0(p, st, in->a);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            uint32_t size[3] = { 0, 0, 0 };
            if (view && (st->exec >> l & 1u)) eg_soft_texture_size(view, lod->u[l], size);
            for (uint32_t k = 0; k < 3; k++) out.c[k].u[l] = size[k];
        }
        commit4(st, in, &out);
        break;
    }
    case EG_VM_TEXLEVELS: case EG_VM_TEXSAMPLES: {
        uint32_t v = !view ? 0u : in->op == EG_VM_TEXLEVELS ? eg_soft_texture_levels(view) : eg_soft_texture_samples(view);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
            if (st->exec >> l & 1u) st->regs[in->dst].u[l] = v;
        break;
    }
    default:
        break;
    }
}

#endif /* EMGPU_HAL_SOFT */
