/* hal/soft shader VM: texture and sampler instructions (compile and run), through soft_texel.h.
 *
 * Encoding: SAMPLE / TEXLOAD / TEXSTORE / TEXSIZE are followed by three ARGS instructions that
 * carry the remaining registers (result components 1-3 in dst; layer, lod/bias/sample,
 * compare, derivatives or the stored value in a/b/c). d holds the image slot (low byte) and the
 * sampler slot (high byte); imm holds flags.
 *
 * Image atomics (OpImageTexelPointer + OpAtomic*) are TEXLOAD with F_ATOMIC and the EG_VM_ATOM_*
 * kind in imm: the value in ARGS 2's a, the comparator in ARGS 1's c; the old texel comes back in
 * dst. They run lane by lane (load, apply, store), so lanes that share a texel see each other's
 * results as the buffer atomics do.
 *
 * Gathers (OpImageGather / OpImageDrefGather) are SAMPLE with F_GATHER and the component in imm.
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
#define F_ATOMIC (1u << 5)      /* TEXLOAD: an atomic on the texel, kind at F_KIND_SHIFT */
#define F_KIND_SHIFT 24u        /* EG_VM_ATOM_*, 4 bits */
#define F_GATHER (1u << 6)      /* SAMPLE: OpImage(Dref)Gather, component at F_COMP_SHIFT */
#define F_COMP_SHIFT 20u        /* 2 bits */

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

static uint32_t fdiv(vm_cc_t *cc, uint32_t a, uint32_t b)
{
    uint32_t t = vm_temp(cc);
    vm_emit(cc, EG_VM_FDIV, t, a, b, N_, N_, 0);
    return t;
}

/* The OpImageSampleProj* forms: SPIR-V says the coordinate holds (u[, v][, w], q) and "the actual
 * sample coordinate is (u/q[, v/q][, w/q])"; Vulkan's "Projection Operation" divides D_ref by q
 * too. The projected registers then feed the normal path, so implicit-LOD derivatives are taken
 * of the projected coordinates. */
static bool is_proj(uint32_t op)
{
    return op == SpvOpImageSampleProjImplicitLod || op == SpvOpImageSampleProjExplicitLod ||
           op == SpvOpImageSampleProjDrefImplicitLod || op == SpvOpImageSampleProjDrefExplicitLod;
}

/* OpImageGather's constant component (Vulkan requires a constant) and the gather flag. */
static bool gather_flags(vm_cc_t *cc, const eg_ir_inst_t *in, uint32_t *flags)
{
    uint32_t comp = 0;
    if (in->op == SpvOpImageGather) {
        const eg_ir_value_t *cv = &cc->ir->values[in->operands[2]];
        if (cv->kind != EG_IR_VAL_CONST)
            return vm_fail(cc, EG_STATUS_INTERNAL, "OpImageGather with a non-constant component");
        comp = cc->ir->consts[cv->index].scalars[0] & 3u;
    }
    *flags |= F_GATHER | comp << F_COMP_SHIFT;
    return true;
}

static bool lower_sample(vm_cc_t *cc, const eg_ir_inst_t *in)
{
    vm_val_t *si = vm_val(cc, in->operands[0]);
    if (si->kind != VM_VAL_SAMPLED) return vm_fail(cc, EG_STATUS_INTERNAL, "sampling without a sampled image");
    const eg_ir_type_t *img = image_type(cc, in->operands[0]);
    bool dref = in->op == SpvOpImageSampleDrefImplicitLod || in->op == SpvOpImageSampleDrefExplicitLod ||
                in->op == SpvOpImageSampleProjDrefImplicitLod || in->op == SpvOpImageSampleProjDrefExplicitLod ||
                in->op == SpvOpImageDrefGather;
    uint32_t nc = coord_count(img), args[9], lod_mode = EG_SOFT_LOD_IMPLICIT, dst[4], coord[3] = { N_, N_, N_ };
    for (uint32_t k = 0; k < 9; k++) args[k] = N_;
    for (uint32_t k = 0; k < nc; k++) coord[k] = operand_reg(cc, in->operands[1], k);
    uint32_t flags = 0, q = N_;
    if (is_proj(in->op)) {
        q = operand_reg(cc, in->operands[1], nc + (img->arrayed ? 1u : 0u));
        if (q == N_) return vm_fail(cc, EG_STATUS_INTERNAL, "projective sample without a q component");
        for (uint32_t k = 0; k < nc; k++) coord[k] = fdiv(cc, coord[k], q);
    }
    if (img->arrayed) { args[0] = operand_reg(cc, in->operands[1], nc); flags |= F_LAYER; }
    if (dref) {
        args[2] = operand_reg(cc, in->operands[2], 0);
        if (q != N_) args[2] = fdiv(cc, args[2], q);
        flags |= F_COMPARE;
    }
    flags |= image_operands(cc, in, dref || in->op == SpvOpImageGather ? 3u : 2u, args, &lod_mode, nc);
    if (in->op == SpvOpImageGather || in->op == SpvOpImageDrefGather) {
        if (!gather_flags(cc, in, &flags)) return false;
        lod_mode = EG_SOFT_LOD_EXPLICIT;           /* gathers read the base level, no LOD */
        args[1] = vm_const(cc, 0);
    }
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

uint32_t vm_lower_image_atomic(vm_cc_t *cc, uint32_t slot, uint32_t img_type, const uint32_t *coord, uint32_t n,
                               uint32_t kind, uint32_t value, uint32_t cmp);
uint32_t vm_lower_image_atomic(vm_cc_t *cc, uint32_t slot, uint32_t img_type, const uint32_t *coord, uint32_t n,
                               uint32_t kind, uint32_t value, uint32_t cmp)
{
    const eg_ir_type_t *img = eg_ir_type(cc->ir, img_type);
    uint32_t nc = coord_count(img), args[9], xyz[3] = { N_, N_, N_ }, dst[4], flags = F_ATOMIC | kind << F_KIND_SHIFT;
    for (uint32_t k = 0; k < 9; k++) args[k] = N_;
    for (uint32_t k = 0; k < nc && k < n; k++) xyz[k] = coord[k];
    if (img->arrayed) { args[0] = nc < n ? coord[nc] : vm_const(cc, 0); flags |= F_LAYER; }
    args[2] = cmp;
    args[3] = value;
    for (uint32_t k = 0; k < 4; k++) dst[k] = vm_temp(cc);
    cc->prog->info.has_side_effects = true;
    vm_emit(cc, EG_VM_TEXLOAD, dst[0], xyz[0], xyz[1], xyz[2], slot, flags);
    emit_args(cc, dst, args);
    return dst[0];
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
    case SpvOpImageSampleProjImplicitLod: case SpvOpImageSampleProjExplicitLod:
    case SpvOpImageSampleProjDrefImplicitLod: case SpvOpImageSampleProjDrefExplicitLod:
    case SpvOpImageGather: case SpvOpImageDrefGather:
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

/* One lane at a time in lane order, as the buffer atomics run: load the texel (an out-of-bounds
 * coordinate reads 0), store the result unless the lane is a helper (an out-of-bounds store is
 * dropped: WebGPU robust access never touches other memory), return the old value. r32uint and
 * r32sint texels decode and encode as their raw 32 bits. */
static void texel_atomic(const eg_soft_program_t *p, eg_vm_state_t *st, const eg_vm_inst_t *in,
                         const eg_texture_view_t *view, const eg_soft_reg_t *xyz[3], const eg_soft_reg_t *layer,
                         eg_soft_vec4_t *out)
{
    uint32_t kind = (in->imm >> F_KIND_SHIFT) & 0xfu;
    const eg_soft_reg_t *v = reg0(p, st, in[2].a), *cmp = reg0(p, st, in[1].c);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        eg_soft_mask_t bit = (eg_soft_mask_t)(1u << l);
        if (!view || !(st->exec & bit)) continue;
        eg_soft_vec4_t t;
        eg_soft_texture_load(view, xyz, layer, &zero_reg, bit, &t);
        uint32_t old = t.c[0].u[l];
        out->c[0].u[l] = old;
        if (kind == EG_VM_ATOM_LOAD || !(st->side & bit)) continue;
        t.c[0].u[l] = atomic_apply(kind, old, v->u[l], cmp->u[l]);
        eg_soft_texture_store(view, xyz, layer, &t, bit);
    }
}

/* Vulkan "Cube Map Face Selection" (the table soft_sample.c uses; ties pick Z, then Y, then X):
 * the face (+X -X +Y -Y +Z -Z = 0..5) of direction r and its (s, t) in [0, 1]. */
static uint32_t cube_face_st(const float r[3], float st[2])
{
    float ax = r[0] < 0 ? -r[0] : r[0], ay = r[1] < 0 ? -r[1] : r[1], az = r[2] < 0 ? -r[2] : r[2];
    uint32_t f = az >= ax && az >= ay ? (r[2] < 0 ? 5u : 4u) : ay >= ax ? (r[1] < 0 ? 3u : 2u) : (r[0] < 0 ? 1u : 0u);
    static const int8_t sc[6][2] = { { 2, -1 }, { 2, 1 }, { 0, 1 }, { 0, 1 }, { 0, 1 }, { 0, -1 } };
    static const int8_t tc[6][2] = { { 1, -1 }, { 1, -1 }, { 2, 1 }, { 2, -1 }, { 1, -1 }, { 1, -1 } };
    float ma = f < 2 ? ax : f < 4 ? ay : az, inv = ma > 0.0f ? 0.5f / ma : 0.0f;
    st[0] = (float)sc[f][1] * r[sc[f][0]] * inv + 0.5f;
    st[1] = (float)tc[f][1] * r[tc[f][0]] * inv + 0.5f;
    return f;
}

/* The direction of the centre of texel (x, y) of face f (n texels square), the inverse of the
 * table above; x or y one texel beyond the face gives a direction that selects the adjacent face
 * (Vulkan "Cube Map Edge Handling"). */
static void cube_texel_dir(uint32_t f, float x, float y, float n, float r[3])
{
    float s = (x + 0.5f) * 2.0f / n - 1.0f, t = (y + 0.5f) * 2.0f / n - 1.0f;
    switch (f) {
    case 0:  r[0] = 1.0f;  r[1] = -t;    r[2] = -s;   break;
    case 1:  r[0] = -1.0f; r[1] = -t;    r[2] = s;    break;
    case 2:  r[0] = s;     r[1] = 1.0f;  r[2] = t;    break;
    case 3:  r[0] = s;     r[1] = -1.0f; r[2] = -t;   break;
    case 4:  r[0] = s;     r[1] = -t;    r[2] = 1.0f; break;
    default: r[0] = -s;    r[1] = -t;    r[2] = -1.0f; break;
    }
}

/* Vulkan "Texel Gathering" (WGSL textureGather / textureGatherCompare): the texels i0 = floor(u *
 * width - 0.5) + offset, i1 = i0 + 1 (likewise j) of the view's base level, address modes applied
 * (cube: (u, v) = the face's (s, t)), in the order (i0, j1), (i1, j1), (i1, j0), (i0, j0);
 * component `comp` of each, or each one's depth comparison. Each texel is a nearest sample at its
 * centre (cube: its centre's direction), explicit LOD 0, through a copy of the sampler with nearest
 * filters and the LOD clamped to 0, so the address modes, the formats and the comparison
 * (reference clamping included) are those of eg_soft_sample. */
static void gather(const eg_vm_inst_t *in, const eg_soft_sample_op_t *op, const int32_t off[3], eg_soft_vec4_t *out)
{
    static const uint8_t order[4][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 0, 0 } };
    uint32_t comp = (in->imm >> F_COMP_SHIFT) & 3u, size[3] = { 1, 1, 1 };
    bool cube = op->view->dimension == WGPUTextureViewDimension_Cube ||
                op->view->dimension == WGPUTextureViewDimension_CubeArray;
    eg_soft_texture_size(op->view, 0, size);
    eg_sampler_t smp = *op->sampler;
    smp.desc.magFilter = smp.desc.minFilter = WGPUFilterMode_Nearest;
    smp.desc.mipmapFilter = WGPUMipmapFilterMode_Nearest;
    smp.desc.lodMinClamp = smp.desc.lodMaxClamp = 0.0f;
    float w = (float)size[0], h = (float)size[1];
    eg_soft_reg_t i0, j0, u, v, r2;
    uint8_t face[EG_SOFT_LANES];
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        float st[2] = { op->coord[0]->f[l], op->coord[1]->f[l] };
        face[l] = 0;
        if (cube) {
            float r[3] = { op->coord[0]->f[l], op->coord[1]->f[l], op->coord[2] ? op->coord[2]->f[l] : 0.0f };
            face[l] = (uint8_t)cube_face_st(r, st);
        }
        i0.f[l] = eg_vm_floorf(st[0] * w - 0.5f) + (float)(op->offset ? off[0] : 0);
        j0.f[l] = eg_vm_floorf(st[1] * h - 0.5f) + (float)(op->offset ? off[1] : 0);
    }
    eg_soft_sample_op_t t = *op;
    t.sampler = &smp;
    t.coord[0] = &u; t.coord[1] = &v; t.coord[2] = cube ? &r2 : NULL;
    t.lod_mode = EG_SOFT_LOD_EXPLICIT;
    t.lod_or_bias = &zero_reg;
    t.offset = NULL;
    for (uint32_t k = 0; k < 4; k++) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            float x = i0.f[l] + (float)order[k][0], y = j0.f[l] + (float)order[k][1], r[3];
            if (cube) {
                cube_texel_dir(face[l], x, y, w, r);
                u.f[l] = r[0]; v.f[l] = r[1]; r2.f[l] = r[2];
            } else {
                u.f[l] = (x + 0.5f) / w;
                v.f[l] = (y + 0.5f) / h;
            }
        }
        eg_soft_vec4_t res;
        eg_soft_sample(&t, &res);
        out->c[k] = res.c[op->compare ? 0u : comp];
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
        if (view && op.sampler && op.coord[0] && op.coord[1] && (in->imm & F_GATHER)) gather(in, &op, off, &out);
        else if (view && op.sampler) eg_soft_sample(&op, &out);
        commit4(st, in, &out);
        break;
    }
    case EG_VM_TEXLOAD:
        if (in->imm & F_ATOMIC) texel_atomic(p, st, in, view, xyz, layer, &out);
        else if (view) eg_soft_texture_load(view, xyz, layer, reg0(p, st, in[1].b), st->exec, &out);
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
