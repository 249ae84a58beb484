/* hal/soft: per-render-pipeline specialisation of fixed-function state (formats, blend, depth). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_bench.h"

static void setup_vertex_input(struct eg_soft_raster_pipeline *r, const eg_render_pipeline_t *rp)
{
    r->attrib_count = 0;
    for (uint32_t b = 0; b < rp->vertex_buffer_count; b++) {
        const eg_vertex_buffer_t *vb = &rp->vertex_buffers[b];
        if (!vb->used) continue;
        for (uint32_t i = 0; i < vb->attrib_count; i++) {
            const eg_vertex_attrib_t *a = &rp->attribs[vb->first_attrib + i];
            /* Attributes the shader does not read cost nothing. */
            if (a->shader_location >= EG_SOFT_MAX_LOCATIONS ||
                (r->vsi && !(r->vsi->input_mask >> a->shader_location & 1u)))
                continue;
            eg_soft_attrib_t *d = &r->attribs[r->attrib_count++];
            d->fetch = eg_soft_fetch_fn_for(a->format);
            d->offset_B = a->offset_B;
            d->size_B = a->size_B;
            d->location = a->shader_location;
            d->slot = (uint8_t)b;
        }
    }
}

/* Whether the fragment input at loc is Sample-qualified (WGSL @interpolate(_, sample)): it is
 * interpolated at each sample's position, and the program runs once per sample (the VM compile
 * sets uses_sample_id for it). */
static bool input_at_sample(const eg_render_pipeline_t *rp, uint32_t loc)
{
    const eg_shader_entry_t *e = rp ? rp->fragment.entry : NULL;
    for (uint32_t k = 0; e && k < e->input_count; k++)
        if (e->inputs[k].location == loc && e->inputs[k].sampling == EG_SHADER_SAMPLING_SAMPLE) return true;
    return false;
}

static void setup_varyings(struct eg_soft_raster_pipeline *r)
{
    r->nvary = 0;
    r->vary_sample = 0;
    if (!r->fsi) return;
    for (uint32_t loc = 0; loc < EG_SOFT_MAX_LOCATIONS; loc++) {
        if (!(r->fsi->input_mask >> loc & 1u)) continue;
        uint32_t n = r->fsi->input_components[loc];
        bool at_sample = r->fsi->interp[loc] != EG_SOFT_INTERP_FLAT && input_at_sample(r->rp, loc);
        for (uint32_t c = 0; c < n && c < 4u; c++) {
            r->vary_loc[r->nvary] = (uint8_t)loc;
            r->vary_comp[r->nvary] = (uint8_t)c;
            r->vary_interp[r->nvary] = r->fsi->interp[loc];
            if (at_sample) r->vary_sample |= (uint64_t)1 << r->nvary;
            r->nvary++;
        }
    }
}

static void setup_depth_stencil(struct eg_soft_raster_pipeline *r, const eg_render_pipeline_t *rp)
{
    const WGPUDepthStencilState *ds = &rp->depth_stencil;
    r->has_ds = rp->has_depth_stencil != 0;
    if (!r->has_ds) return;
    const eg_format_info_t *fi = eg_format_info(ds->format);
    bool has_depth = fi && (fi->aspects & EG_ASPECT_DEPTH);
    bool has_stencil = fi && (fi->aspects & EG_ASPECT_STENCIL);
    r->ds_format = ds->format;
    r->depth_compare = (uint8_t)(ds->depthCompare ? ds->depthCompare : WGPUCompareFunction_Always);
    r->depth_write = has_depth && rp->depth_write_enabled;
    r->depth_test = has_depth && (r->depth_compare != WGPUCompareFunction_Always || r->depth_write);
    const WGPUStencilFaceState *f[2] = { &ds->stencilFront, &ds->stencilBack };
    bool trivial = true;
    for (uint32_t i = 0; i < 2; i++) {
        r->stencil[i].compare = (uint8_t)(f[i]->compare ? f[i]->compare : WGPUCompareFunction_Always);
        r->stencil[i].fail = (uint8_t)(f[i]->failOp ? f[i]->failOp : WGPUStencilOperation_Keep);
        r->stencil[i].depth_fail = (uint8_t)(f[i]->depthFailOp ? f[i]->depthFailOp : WGPUStencilOperation_Keep);
        r->stencil[i].pass = (uint8_t)(f[i]->passOp ? f[i]->passOp : WGPUStencilOperation_Keep);
        if (r->stencil[i].compare != WGPUCompareFunction_Always || r->stencil[i].fail != WGPUStencilOperation_Keep ||
            r->stencil[i].depth_fail != WGPUStencilOperation_Keep || r->stencil[i].pass != WGPUStencilOperation_Keep)
            trivial = false;
    }
    r->stencil_test = has_stencil && !trivial;
    r->stencil_read_mask = (uint8_t)ds->stencilReadMask;
    r->stencil_write_mask = (uint8_t)ds->stencilWriteMask;
    /* Depth bias unit r (Vulkan "depth bias"): 2^-n for an n-bit unorm depth (Depth24Plus counts
     * as 24-bit); float depth computes it per primitive from the largest depth (-1 here). */
    if (ds->format == WGPUTextureFormat_Depth16Unorm) r->depth_bias_units = (float)ds->depthBias / 65536.0f;
    else if (ds->format == WGPUTextureFormat_Depth24Plus || ds->format == WGPUTextureFormat_Depth24PlusStencil8)
        r->depth_bias_units = (float)ds->depthBias / 16777216.0f;
    else r->depth_bias_units = (float)ds->depthBias;
    r->depth_bias_slope = ds->depthBiasSlopeScale;
    r->depth_bias_clamp = ds->depthBiasClamp;
}

/* One channel group of the fused 8-bit blend: op Add, src One/SrcAlpha, dst Zero/OneMinusSrcAlpha. */
static bool u8_group(uint8_t op, uint8_t src, uint8_t dst)
{
    return op == WGPUBlendOperation_Add && (src == WGPUBlendFactor_One || src == WGPUBlendFactor_SrcAlpha) &&
           (dst == WGPUBlendFactor_Zero || dst == WGPUBlendFactor_OneMinusSrcAlpha);
}

static uint8_t blend_u8_class(WGPUTextureFormat f, const eg_soft_blend_t *b)
{
    if ((f != WGPUTextureFormat_RGBA8Unorm && f != WGPUTextureFormat_BGRA8Unorm && f != EG_FORMAT_RGB565_VALUE) ||
        !u8_group(b->op_c, b->src_c, b->dst_c) || !u8_group(b->op_a, b->src_a, b->dst_a))
        return 0;
    return (uint8_t)(EG_SOFT_BLEND_U8 | (f == WGPUTextureFormat_BGRA8Unorm ? EG_SOFT_BLEND_U8_BGRA : 0u) |
                     (f == EG_FORMAT_RGB565_VALUE ? EG_SOFT_BLEND_U8_565 : 0u) |
                     (b->src_c == WGPUBlendFactor_SrcAlpha ? EG_SOFT_BLEND_U8_SA_C : 0u) |
                     (b->dst_c == WGPUBlendFactor_OneMinusSrcAlpha ? EG_SOFT_BLEND_U8_INV_C : 0u) |
                     (b->src_a == WGPUBlendFactor_SrcAlpha ? EG_SOFT_BLEND_U8_SA_A : 0u) |
                     (b->dst_a == WGPUBlendFactor_OneMinusSrcAlpha ? EG_SOFT_BLEND_U8_INV_A : 0u));
}

static void setup_targets(struct eg_soft_raster_pipeline *r, const eg_render_pipeline_t *rp)
{
    r->rt_count = rp->color_target_count;
    for (uint32_t i = 0; i < r->rt_count && i < EG_SOFT_MAX_RT; i++) {
        const eg_color_target_t *ct = &rp->color_targets[i];
        eg_soft_blend_t *b = &r->blend[i];
        eg_soft_format_ops(ct->format, &r->fmt[i]);
        b->wmask = ct->format == WGPUTextureFormat_Undefined ? 0 : (uint8_t)(ct->write_mask & 15u);
        if (r->fsi && !(r->fsi->output_mask >> i & 1u)) b->wmask = 0;   /* no output: nothing written */
        b->enabled = ct->blend_enabled && !r->fmt[i].is_int;
        b->op_c = (uint8_t)ct->blend.color.operation;
        b->src_c = (uint8_t)ct->blend.color.srcFactor;
        b->dst_c = (uint8_t)ct->blend.color.dstFactor;
        b->op_a = (uint8_t)ct->blend.alpha.operation;
        b->src_a = (uint8_t)ct->blend.alpha.srcFactor;
        b->dst_a = (uint8_t)ct->blend.alpha.dstFactor;
        /* One/Zero/Add is a plain write: skip the destination read. */
        if (b->enabled && b->op_c == WGPUBlendOperation_Add && b->op_a == WGPUBlendOperation_Add &&
            b->src_c == WGPUBlendFactor_One && b->src_a == WGPUBlendFactor_One &&
            b->dst_c == WGPUBlendFactor_Zero && b->dst_a == WGPUBlendFactor_Zero)
            b->enabled = 0;
        r->blend_fast[i] = b->enabled && b->wmask == 15u ? blend_u8_class(ct->format, b) : 0u;
    }
}

/* Which per-block values the fragment program can observe: FragCoord components it loads, and
 * whether an input is perspective-interpolated (the 1 / w weights, a division per lane). */
static void setup_frag_needs(struct eg_soft_raster_pipeline *r)
{
    r->frag_coord_used = 0;
    r->persp_used = false;
    for (uint32_t j = 0; j < r->nvary; j++)
        if (r->vary_interp[j] == EG_SOFT_INTERP_PERSPECTIVE) r->persp_used = true;
    if (!r->fs) return;
    for (uint32_t i = 0; i < r->fs->code_count; i++) {
        const eg_vm_inst_t *in = &r->fs->code[i];
        if (in->op == EG_VM_LD_SYS && in->imm >= EG_VM_SYS_FRAG_COORD && in->imm < EG_VM_SYS_FRAG_COORD + 4u)
            r->frag_coord_used |= (uint8_t)(1u << (in->imm - EG_VM_SYS_FRAG_COORD));
    }
}

eg_status_t eg_soft_raster_pipeline_create(const eg_render_pipeline_t *rp, const eg_soft_program_t *vs,
                                           const eg_soft_program_t *fs,
                                           struct eg_soft_raster_pipeline **out)
{
    struct eg_soft_raster_pipeline *r = eg_soft_heap_alloc(sizeof *r);
    *out = NULL;
    if (!r) return EG_STATUS_OUT_OF_MEMORY;
    r->rp = rp;
    r->vs = vs;
    r->fs = fs;
    r->vsi = vs ? eg_soft_program_info(vs) : NULL;
    r->fsi = fs ? eg_soft_program_info(fs) : NULL;
    setup_vertex_input(r, rp);
    setup_varyings(r);
    setup_frag_needs(r);
    switch (rp->topology) {
    case WGPUPrimitiveTopology_PointList: r->topology = 0; break;
    case WGPUPrimitiveTopology_LineList:  r->topology = 1; break;
    case WGPUPrimitiveTopology_LineStrip: r->topology = 1; r->strip = true; break;
    case WGPUPrimitiveTopology_TriangleStrip: r->topology = 2; r->strip = true; break;
    default: r->topology = 2; break;
    }
    r->restart_u16 = r->strip;
    r->restart_u32 = r->strip;
    r->cull_front = rp->cull_mode == WGPUCullMode_Front;
    r->cull_back = rp->cull_mode == WGPUCullMode_Back;
    r->front_ccw = rp->front_face != WGPUFrontFace_CW;
    r->clip_depth = !rp->unclipped_depth;
    setup_depth_stencil(r, rp);
    r->samples = rp->sample_count ? rp->sample_count : 1u;
    r->sample_mask = rp->sample_mask;
    r->alpha_to_coverage = rp->alpha_to_coverage != 0;
    setup_targets(r, rp);
    /* Early tests are invisible when the shader cannot change depth, coverage or memory. */
    r->fs_copy = fs && !r->alpha_to_coverage && eg_soft_program_copy_class(fs, &r->copy);
    r->early_z = !r->fsi || (!r->fsi->writes_depth && !r->fsi->may_discard && !fs->writes_sample_mask &&
                             !r->fsi->has_side_effects && !r->alpha_to_coverage);
    r->overwrites = fs && r->fsi && r->rt_count == 1u && r->blend[0].wmask == 15u && !r->blend[0].enabled &&
                    r->samples == 1u && (r->sample_mask & 1u) && !r->alpha_to_coverage && !r->fsi->may_discard &&
                    !fs->writes_sample_mask && !r->depth_test && !r->stencil_test;
    eg_status_t st = eg_soft_span_pipe_create(r);
    if (st == EG_STATUS_OK) st = eg_soft_const_create(r);
    if (st == EG_STATUS_OK) st = eg_soft_tex_create(r);
    if (st != EG_STATUS_OK) {
        eg_soft_const_destroy(r);
        eg_soft_span_pipe_destroy(r);
        eg_soft_heap_free(r);
        return st;
    }
    *out = r;
    return EG_STATUS_OK;
}

void eg_soft_raster_pipeline_destroy(struct eg_soft_raster_pipeline *r)
{
    if (!r) return;
    eg_soft_span_pipe_destroy(r);
    eg_soft_const_destroy(r);
    eg_soft_tex_destroy(r);
    eg_soft_heap_free(r);
}

void eg_soft_render_pipeline_set_native_fs(WGPURenderPipeline p, eg_soft_native_fs_fn fn, const void *user)
{
    eg_soft_render_pipeline_t *sp = p ? (eg_soft_render_pipeline_t *)(void *)&p->hal : NULL;
    struct eg_soft_raster_pipeline *r = sp ? sp->raster : NULL;
    if (!r || !r->fs) return;
    r->native_fs = fn;
    r->native_user = user;
    /* the fast paths stand for the VM program: off while a native function replaces it */
    r->fs_copy = !fn && !r->alpha_to_coverage && eg_soft_program_copy_class(r->fs, &r->copy);
}

#endif /* EMGPU_HAL_SOFT */
