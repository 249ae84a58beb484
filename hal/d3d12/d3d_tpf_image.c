/* hal/d3d12 TPF emitter: textures, samplers and storage textures (sample*, ld, resinfo, lod, typed UAV load/store/atomics). */
#include "config/emgpu_config.h"

#if EMGPU_D3D12_TPF

#include "hal/d3d12/d3d_tpf_internal.h"

static bool res_pair(tpf_t *t, uint32_t id, uint32_t *img, uint32_t *smp)
{
    tpf_val_t *v = tpf_val(t, id);
    if (v->kind == TV_SIMAGE) { *img = v->idx & 0xffffu; *smp = v->idx >> 16; return true; }
    if (v->kind == TV_RES) { *img = v->idx; *smp = ~0u; return true; }
    return tpf_fail(t, "DXBC emitter: value %u is used as a texture but is not one", (unsigned)id);
}

/* Coordinates of an image instruction packed into one r#. */
static uint32_t coords(tpf_t *t, uint32_t id, uint32_t *n)
{
    tpf_sc_t *c = tpf_comps(t, id, n);
    return tpf_pack(t, c, *n);
}

static void result(tpf_t *t, const eg_ir_inst_t *in, uint32_t reg)
{
    uint32_t n = eg_ir_scalars(t->ir, in->type);
    tpf_val_t v = tpf_alias_comps(t, n);
    for (uint32_t i = 0; i < n; i++) t->comps[v.idx + i] = tpf_tsc(reg * 4u + (i < 4 ? i : 3));
    t->vals[in->result] = v;
}

static void sampler_operand(tpf_t *t, uint32_t smp, int comp)
{
    const tpf_res_t *r = &t->res[smp];
    uint32_t idx[2] = { r->range, r->reg };
    tpf_o_reg(t, TPF_R_SAMPLER, 2, idx, comp < 0 ? 0u : 2u | 2u << 2 | (uint32_t)comp << 4);
}

/* Image operands (SPIR-V 3.14): Bias, Lod, Grad (2), ConstOffset, Offset, ConstOffsets, Sample, MinLod. */
typedef struct img_ops { uint32_t mask; uint32_t bias, lod, dx, dy, offset, sample; } img_ops_t;

static void read_ops(const eg_ir_inst_t *in, uint32_t first, img_ops_t *o)
{
    *o = (img_ops_t){ 0 };
    if (in->operand_count <= first) return;
    o->mask = in->operands[first];
    uint32_t at = first + 1;
    if (o->mask & SpvImageOperandsBiasMask) o->bias = in->operands[at++];
    if (o->mask & SpvImageOperandsLodMask) o->lod = in->operands[at++];
    if (o->mask & SpvImageOperandsGradMask) { o->dx = in->operands[at++]; o->dy = in->operands[at++]; }
    if (o->mask & SpvImageOperandsConstOffsetMask) o->offset = in->operands[at++];
    if (o->mask & SpvImageOperandsOffsetMask) at++;
    if (o->mask & SpvImageOperandsConstOffsetsMask) at++;
    if (o->mask & SpvImageOperandsSampleMask) o->sample = in->operands[at++];
}

/* ConstOffset as the aoffimmi extended opcode token (4-bit signed u, v, w). */
static uint32_t offset_token(tpf_t *t, uint32_t id)
{
    uint32_t n, tok = 1u;
    tpf_sc_t *o = tpf_comps(t, id, &n);
    for (uint32_t i = 0; i < n && i < 3; i++) tok |= (o[i].v & 0xfu) << (9 + 4 * i);
    return tok;
}

/* The projective forms (SPIR-V 3.32.10, OpImageSampleProj*): the coordinate is (u[, v][, w], q)
 * and the sample coordinate is (u/q[, v/q][, w/q]); the Dref forms compare with Dref/q. Divides
 * them here, so the rest is the plain instruction. q follows the coordinates the image's
 * dimension needs (1D: 1, 2D: 2, 3D: 3; Proj allows no arrays or cubes). */
static uint32_t proj_coords(tpf_t *t, const eg_ir_inst_t *in, uint32_t img, tpf_sc_t *dref /* or NULL */)
{
    uint32_t n, dims = t->res[img].dim == 2 ? 1u : t->res[img].dim == 5 ? 3u : 2u;
    tpf_sc_t c[4], *s = tpf_comps(t, in->operands[1], &n);
    if (n <= dims) { tpf_fail(t, "DXBC emitter: projective coordinate of %u components (instruction %u)",
                              (unsigned)n, (unsigned)(in - t->ir->insts)); return 0; }
    tpf_sc_t q = s[dims];
    for (uint32_t i = 0; i < dims; i++) {
        uint32_t d = tpf_temp(t);
        tpf_op2(t, TPF_DIV, d, s[i], q);
        c[i] = tpf_tsc(d);
    }
    if (dref) {
        uint32_t d = tpf_temp(t);
        tpf_op2(t, TPF_DIV, d, *dref, q);
        *dref = tpf_tsc(d);
    }
    return tpf_pack(t, c, dims);
}

static bool sample(tpf_t *t, const eg_ir_inst_t *in)
{
    uint32_t img, smp, n;
    if (!res_pair(t, in->operands[0], &img, &smp)) return false;
    if (smp == ~0u) return tpf_unsupported(t, in, "sampling without a sampler");
    bool proj = in->op >= SpvOpImageSampleProjImplicitLod && in->op <= SpvOpImageSampleProjDrefExplicitLod;
    uint32_t base = proj ? in->op - (SpvOpImageSampleProjImplicitLod - SpvOpImageSampleImplicitLod) : in->op;
    bool dref = base == SpvOpImageSampleDrefImplicitLod || base == SpvOpImageSampleDrefExplicitLod;
    bool gather = in->op == SpvOpImageGather || in->op == SpvOpImageDrefGather;
    img_ops_t o;
    read_ops(in, dref || gather ? 3u : 2u, &o);
    bool has_ref = dref || in->op == SpvOpImageDrefGather;    /* gather4_c takes the reference too */
    tpf_sc_t dref_v = has_ref ? tpf_comps(t, in->operands[2], &n)[0] : tpf_imm(0);
    uint32_t c = proj ? proj_coords(t, in, img, dref ? &dref_v : NULL) : coords(t, in->operands[1], &n);
    uint32_t op = TPF_SAMPLE;
    if (gather) op = in->op == SpvOpImageDrefGather ? TPF_GATHER4_C : TPF_GATHER4;
    else if (dref) op = base == SpvOpImageSampleDrefExplicitLod ? TPF_SAMPLE_C_LZ : TPF_SAMPLE_C;
    else if (o.mask & SpvImageOperandsLodMask) op = TPF_SAMPLE_L;
    else if (o.mask & SpvImageOperandsGradMask) op = TPF_SAMPLE_D;
    else if (o.mask & SpvImageOperandsBiasMask) op = TPF_SAMPLE_B;
    uint32_t dx = 0, dy = 0;
    if (op == TPF_SAMPLE_D) { dx = coords(t, o.dx, &n); dy = coords(t, o.dy, &n); }
    uint32_t d = tpf_vtemp(t);
    uint32_t off = o.offset ? offset_token(t, o.offset) : 0;
    tpf_begin(t, op | (off ? 1u << 31 : 0u));
    if (off) tpf_tok(t, off);
    tpf_o_dstv(t, d, 0xf);
    tpf_o_srcv(t, c, TPF_SWZ_XYZW);
    tpf_o_res(t, img, TPF_SWZ_XYZW);
    int comp = -1;
    if (in->op == SpvOpImageGather) comp = (int)(tpf_comps(t, in->operands[2], &n)[0].v & 3u);
    if (gather) comp = comp < 0 ? 0 : comp;
    sampler_operand(t, smp, comp);
    if (has_ref) tpf_o_src(t, dref_v);
    if (op == TPF_SAMPLE_L) tpf_o_src(t, tpf_comps(t, o.lod, &n)[0]);
    if (op == TPF_SAMPLE_B) tpf_o_src(t, tpf_comps(t, o.bias, &n)[0]);
    if (op == TPF_SAMPLE_D) { tpf_o_srcv(t, dx, TPF_SWZ_XYZW); tpf_o_srcv(t, dy, TPF_SWZ_XYZW); }
    tpf_end(t);
    result(t, in, d);
    return !t->failed;
}

/* ld: coordinates in x, y, [layer|z]; the mip level is always in w (the TPF reader takes the
 * level from .w whatever the dimension: a 2D fetch with the level in .z reads level 0);
 * multisampled: ld2dms, the sample index as its own operand. */
static bool fetch(tpf_t *t, const eg_ir_inst_t *in)
{
    uint32_t img, smp, n;
    if (!res_pair(t, in->operands[0], &img, &smp)) return false;
    img_ops_t o;
    read_ops(in, 2, &o);
    tpf_sc_t c[4] = { tpf_imm(0), tpf_imm(0), tpf_imm(0), tpf_imm(0) };
    tpf_sc_t *s = tpf_comps(t, in->operands[1], &n);
    for (uint32_t i = 0; i < n && i < 3; i++) c[i] = s[i];
    bool ms = t->res[img].dim == 4 || t->res[img].dim == 9;
    if (!ms) c[3] = o.lod ? tpf_comps(t, o.lod, &n)[0] : tpf_imm(0);
    uint32_t a = tpf_pack(t, c, 4), d = tpf_vtemp(t);
    tpf_begin(t, ms ? TPF_LD2DMS : TPF_LD);
    tpf_o_dstv(t, d, 0xf);
    tpf_o_srcv(t, a, TPF_SWZ_XYZW);
    tpf_o_res(t, img, TPF_SWZ_XYZW);
    if (ms) tpf_o_src(t, o.sample ? tpf_comps(t, o.sample, &n)[0] : tpf_imm(0));
    tpf_end(t);
    result(t, in, d);
    return !t->failed;
}

static bool storage(tpf_t *t, const eg_ir_inst_t *in)
{
    uint32_t img, smp, n;
    if (!res_pair(t, in->operands[0], &img, &smp)) return false;
    uint32_t a = coords(t, in->operands[1], &n);
    if (in->op == SpvOpImageRead) {
        uint32_t d = tpf_vtemp(t);
        tpf_begin(t, TPF_LD_UAV_TYPED);
        tpf_o_dstv(t, d, 0xf); tpf_o_srcv(t, a, TPF_SWZ_XYZW); tpf_o_res(t, img, TPF_SWZ_XYZW);
        tpf_end(t);
        result(t, in, d);
        return !t->failed;
    }
    tpf_sc_t *v = tpf_comps(t, in->operands[2], &n);
    uint32_t val = tpf_pack(t, v, n);
    const tpf_res_t *r = &t->res[img];
    uint32_t idx[2] = { r->range, r->reg };
    tpf_begin(t, TPF_STORE_UAV_TYPED);
    tpf_o_reg(t, TPF_R_UAV, 2, idx, 2u | 0xfu << 4);
    tpf_o_srcv(t, a, TPF_SWZ_XYZW);
    tpf_o_srcv(t, val, TPF_SWZ_XYZW);
    tpf_end(t);
    return !t->failed;
}

/* OpImageQueryLod (SPIR-V 3.32.10): (level that would be accessed, LOD relative to the base
 * level) = TPF `lod`'s (clamped, unclamped) in x, y. */
static bool query_lod(tpf_t *t, const eg_ir_inst_t *in)
{
    uint32_t img, smp, n;
    if (!res_pair(t, in->operands[0], &img, &smp)) return false;
    if (smp == ~0u) return tpf_unsupported(t, in, "a level-of-detail query without a sampler");
    uint32_t c = coords(t, in->operands[1], &n), d = tpf_vtemp(t);
    tpf_begin(t, TPF_LOD);
    tpf_o_dstv(t, d, 0x3); tpf_o_srcv(t, c, TPF_SWZ_XYZW); tpf_o_res(t, img, TPF_SWZ_XYZW); sampler_operand(t, smp, -1);
    tpf_end(t);
    result(t, in, d);
    return !t->failed;
}

/* OpImageTexelPointer: image (the storage texture variable), coordinate, sample (0: WebGPU has
 * no multisampled storage textures). Only atomics use the pointer (SP_IMAGE). */
static bool texel_pointer(tpf_t *t, const eg_ir_inst_t *in)
{
    uint32_t img, smp, n;
    if (!res_pair(t, in->operands[0], &img, &smp)) return false;
    if (t->res[img].cls != RC_UAV_TYPED) return tpf_unsupported(t, in, "a texel pointer into a texture that is not a storage texture");
    tpf_comps(t, in->operands[1], &n);
    tpf_val_t cv = *tpf_val(t, in->operands[1]);
    tpf_ptr_t p = { .space = SP_IMAGE, .res = (uint16_t)img, .type = eg_ir_type(t->ir, in->type)->elem,
                    .base = cv.idx, .mstride_B = n };
    t->vals[in->result] = (tpf_val_t){ TV_PTR, 1, tpf_new_ptr(t, &p) };
    return !t->failed;
}

/* Typed UAV atomics (imm_atomic_* with the texel coordinate as the address; D3D12 allows them on
 * R32_UINT / R32_SINT UAVs, WebGPU's r32uint / r32sint read-write storage textures). The op and
 * operands come from tpf_atomic_operands (d3d_tpf_access.c), shared with buffer atomics. */
bool tpf_image_atomic(tpf_t *t, const eg_ir_inst_t *in, const tpf_ptr_t *p)
{
    uint32_t op;
    tpf_sc_t v, cmp;
    if (!tpf_atomic_operands(t, in, &op, &v, &cmp)) return tpf_unsupported(t, in, "this atomic on a storage texel");
    uint32_t a = tpf_pack(t, &t->comps[p->base], p->mstride_B < 4 ? p->mstride_B : 4), d = tpf_temp(t);
    const tpf_res_t *r = &t->res[p->res];
    uint32_t idx[2] = { r->range, r->reg };
    tpf_begin(t, op);
    tpf_o_dst(t, d);
    tpf_o_reg(t, TPF_R_UAV, 2, idx, 2u | 1u << 4);
    tpf_o_srcv(t, a, TPF_SWZ_XYZW);
    if (op == TPF_IMM_ATOMIC_CMP_EXCH) tpf_o_src(t, cmp);
    tpf_o_src(t, v);
    tpf_end(t);
    if (in->result) {
        t->vals[in->result] = tpf_alias_comps(t, 1);
        t->comps[t->vals[in->result].idx] = tpf_tsc(d);
    }
    return !t->failed;
}

/* resinfo_uint: width, height, depth or layers, mip count. */
static bool query(tpf_t *t, const eg_ir_inst_t *in)
{
    uint32_t img, smp, n;
    if (!res_pair(t, in->operands[0], &img, &smp)) return false;
    uint32_t d = tpf_vtemp(t);
    if (in->op == SpvOpImageQuerySamples) {
        tpf_begin(t, TPF_SAMPLE_INFO | 1u << 11);
        tpf_o_dstv(t, d, 0xf); tpf_o_res(t, img, TPF_SWZ_XYZW);
        tpf_end(t);
        result(t, in, d);
        return !t->failed;
    }
    tpf_sc_t lod = in->op == SpvOpImageQuerySizeLod ? tpf_comps(t, in->operands[1], &n)[0] : tpf_imm(0);
    tpf_begin(t, TPF_RESINFO | 2u << 11);
    tpf_o_dstv(t, d, 0xf); tpf_o_src(t, lod); tpf_o_res(t, img, TPF_SWZ_XYZW);
    tpf_end(t);
    if (in->op == SpvOpImageQueryLevels) {
        t->vals[in->result] = tpf_alias_comps(t, 1);
        t->comps[t->vals[in->result].idx] = tpf_tsc(d * 4u + 3u);
        return !t->failed;
    }
    const eg_ir_type_t *ty = eg_ir_type(t->ir, eg_ir_type_of(t->ir, in->operands[0]));
    n = eg_ir_scalars(t->ir, in->type);
    tpf_val_t v = tpf_alias_comps(t, n);
    for (uint32_t i = 0; i < n; i++) t->comps[v.idx + i] = tpf_tsc(d * 4u + i);
    if (ty->kind == EG_IR_IMAGE && ty->dim == SpvDim1D && ty->arrayed && n == 2)   /* 1D array: width, layers */
        t->comps[v.idx + 1] = tpf_tsc(d * 4u + 1u);
    t->vals[in->result] = v;
    return !t->failed;
}

bool tpf_image(tpf_t *t, const eg_ir_inst_t *in, bool *handled)
{
    *handled = true;
    uint32_t img, smp;
    switch (in->op) {
    case SpvOpSampledImage:
        if (tpf_val(t, in->operands[0])->kind != TV_RES || tpf_val(t, in->operands[1])->kind != TV_RES)
            return tpf_unsupported(t, in, "OpSampledImage of values that are not a texture and a sampler");
        t->vals[in->result] = (tpf_val_t){ TV_SIMAGE, 1, (tpf_val(t, in->operands[0])->idx & 0xffffu) |
                                                         tpf_val(t, in->operands[1])->idx << 16 };
        return !t->failed;
    case SpvOpImage:
        if (!res_pair(t, in->operands[0], &img, &smp)) return false;
        t->vals[in->result] = (tpf_val_t){ TV_RES, 1, img };
        return true;
    case SpvOpImageSampleImplicitLod: case SpvOpImageSampleExplicitLod: case SpvOpImageSampleDrefImplicitLod:
    case SpvOpImageSampleDrefExplicitLod: case SpvOpImageGather: case SpvOpImageDrefGather:
    case SpvOpImageSampleProjImplicitLod: case SpvOpImageSampleProjExplicitLod:
    case SpvOpImageSampleProjDrefImplicitLod: case SpvOpImageSampleProjDrefExplicitLod:
        return sample(t, in);
    case SpvOpImageQueryLod: return query_lod(t, in);
    case SpvOpImageTexelPointer: return texel_pointer(t, in);
    case SpvOpImageFetch: return fetch(t, in);
    case SpvOpImageRead: case SpvOpImageWrite: return storage(t, in);
    case SpvOpImageQuerySize: case SpvOpImageQuerySizeLod: case SpvOpImageQueryLevels: case SpvOpImageQuerySamples:
        return query(t, in);
    default:
        *handled = false;
        return true;
    }
}

#endif /* EMGPU_D3D12_TPF */
