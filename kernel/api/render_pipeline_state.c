/* Render pipelines: depth-stencil, multisample and fragment (color target) state validation. */
#include "kernel/api/render_pipeline.h"

#include "kernel/api/device.h"
#include "kernel/api/features.h"
#include "kernel/format/format.h"

/* ---- depth-stencil ---- */

static bool stencil_face_ok(const eg_vctx_t *v, const char *face, const WGPUStencilFaceState *s)
{
    EG_CHECK(v, s->compare <= WGPUCompareFunction_Always, ENUM_VALUE,
             "depthStencil.%s.compare 0x%x is not a WGPUCompareFunction", face, (unsigned)s->compare);
    EG_CHECK(v, s->failOp <= WGPUStencilOperation_DecrementWrap && s->depthFailOp <= WGPUStencilOperation_DecrementWrap &&
                s->passOp <= WGPUStencilOperation_DecrementWrap, ENUM_VALUE,
             "depthStencil.%s: failOp/depthFailOp/passOp must be WGPUStencilOperation values", face);
    return true;
}

/* webgpu.h defaults: compare Undefined = Always, ops Undefined = Keep. */
static WGPUStencilFaceState resolve_face(WGPUStencilFaceState s)
{
    if (!s.compare) s.compare = WGPUCompareFunction_Always;
    if (!s.failOp) s.failOp = WGPUStencilOperation_Keep;
    if (!s.depthFailOp) s.depthFailOp = WGPUStencilOperation_Keep;
    if (!s.passOp) s.passOp = WGPUStencilOperation_Keep;
    return s;
}

static bool face_is_default(const WGPUStencilFaceState *s)
{
    return s->compare == WGPUCompareFunction_Always && s->failOp == WGPUStencilOperation_Keep &&
           s->depthFailOp == WGPUStencilOperation_Keep && s->passOp == WGPUStencilOperation_Keep;
}

/* Spec: "validating GPUDepthStencilState(descriptor, topology)". */
bool eg_render_pipeline_check_depth_stencil(const eg_vctx_t *v, const WGPUDepthStencilState *ds,
                                            struct WGPURenderPipelineImpl *rp)
{
    EG_CHECK(v, ds->nextInChain == NULL, UNKNOWN_STYPE, "depthStencil.nextInChain must be NULL");
    const eg_format_info_t *fi = eg_format_info(ds->format);
    EG_CHECK(v, fi && eg_format_is_depth_stencil(fi) && eg_format_enabled(fi, v->device->features),
             RP_DEPTH_STENCIL_FORMAT, "depthStencil.format %s is not a depth/stencil format%s",
             fi ? fi->name : "Undefined", fi && eg_format_is_depth_stencil(fi) ? " enabled on this device" : "");
    EG_CHECK(v, ds->depthWriteEnabled <= WGPUOptionalBool_Undefined, ENUM_VALUE,
             "depthStencil.depthWriteEnabled 0x%x is not a WGPUOptionalBool", (unsigned)ds->depthWriteEnabled);
    EG_CHECK(v, ds->depthCompare <= WGPUCompareFunction_Always, ENUM_VALUE,
             "depthStencil.depthCompare 0x%x is not a WGPUCompareFunction", (unsigned)ds->depthCompare);
    if (!stencil_face_ok(v, "stencilFront", &ds->stencilFront) || !stencil_face_ok(v, "stencilBack", &ds->stencilBack))
        return false;
    bool has_depth = (fi->aspects & EG_ASPECT_DEPTH) != 0;
    bool has_stencil = (fi->aspects & EG_ASPECT_STENCIL) != 0;
    bool write = ds->depthWriteEnabled == WGPUOptionalBool_True;
    bool compare_used = ds->depthCompare != WGPUCompareFunction_Undefined &&
                        ds->depthCompare != WGPUCompareFunction_Always;
    EG_CHECK(v, has_depth || (!write && !compare_used), RP_DEPTH_ASPECT,
             "depthStencil.format %s has no depth aspect, so depthWriteEnabled must not be True and "
             "depthCompare must be Undefined or Always", fi->name);
    WGPUStencilFaceState front = resolve_face(ds->stencilFront), back = resolve_face(ds->stencilBack);
    EG_CHECK(v, has_stencil || (face_is_default(&front) && face_is_default(&back)), RP_STENCIL_ASPECT,
             "depthStencil.format %s has no stencil aspect, so stencilFront/stencilBack must keep their "
             "defaults (compare Always, ops Keep)", fi->name);
    if (has_depth) {
        EG_CHECK(v, ds->depthWriteEnabled != WGPUOptionalBool_Undefined, RP_DEPTH_WRITE_REQUIRED,
                 "depthStencil.depthWriteEnabled must be True or False for depth format %s", fi->name);
        bool need_compare = write || front.depthFailOp != WGPUStencilOperation_Keep ||
                            back.depthFailOp != WGPUStencilOperation_Keep;
        EG_CHECK(v, !need_compare || ds->depthCompare != WGPUCompareFunction_Undefined, RP_DEPTH_COMPARE_REQUIRED,
                 "depthStencil.depthCompare must be set when depth is written or a depthFailOp is not Keep");
    }
    bool tri = rp->topology == WGPUPrimitiveTopology_TriangleList || rp->topology == WGPUPrimitiveTopology_TriangleStrip;
    EG_CHECK(v, tri || (ds->depthBias == 0 && ds->depthBiasSlopeScale == 0.0f && ds->depthBiasClamp == 0.0f),
             RP_DEPTH_BIAS, "depthStencil.depthBias/depthBiasSlopeScale/depthBiasClamp must be 0 for "
             "point and line topologies");
    rp->has_depth_stencil = 1;
    rp->depth_stencil = *ds;
    rp->depth_stencil.nextInChain = NULL;
    rp->depth_stencil.depthWriteEnabled = write ? WGPUOptionalBool_True : WGPUOptionalBool_False;
    if (!ds->depthCompare) rp->depth_stencil.depthCompare = WGPUCompareFunction_Always;
    rp->depth_stencil.stencilFront = front;
    rp->depth_stencil.stencilBack = back;
    rp->depth_write_enabled = write;
    return true;
}

/* ---- multisample ---- */

/* Spec: "validating GPUMultisampleState", then the descriptor's alpha-to-coverage rule. */
bool eg_render_pipeline_check_multisample(const eg_vctx_t *v, const WGPURenderPipelineDescriptor *d,
                                          struct WGPURenderPipelineImpl *rp)
{
    const WGPUMultisampleState *ms = &d->multisample;
    EG_CHECK(v, ms->nextInChain == NULL, UNKNOWN_STYPE, "multisample.nextInChain must be NULL");
    EG_CHECK(v, ms->count == 1 || ms->count == 4, RP_MULTISAMPLE_COUNT,
             "multisample.count %u must be 1 or 4", ms->count);
    if (ms->alphaToCoverageEnabled) {
        EG_CHECK(v, ms->count > 1, RP_ALPHA_TO_COVERAGE,
                 "multisample.alphaToCoverageEnabled needs multisample.count > 1 (it is %u)", ms->count);
        const eg_format_info_t *fi = rp->color_target_count ? eg_format_info(rp->color_targets[0].format) : NULL;
        EG_CHECK(v, fi && fi->components == 4 &&
                    (eg_format_caps(fi, v->device->features) & EG_FMT_BLENDABLE), RP_ALPHA_TO_COVERAGE,
                 "multisample.alphaToCoverageEnabled needs fragment.targets[0] with a blendable format "
                 "that has alpha (got %s)", fi ? fi->name : "no target");
    }
    rp->sample_count = ms->count;
    rp->sample_mask = ms->mask;
    rp->alpha_to_coverage = ms->alphaToCoverageEnabled ? 1 : 0;
    return true;
}

/* ---- fragment ---- */

static bool is_src1_factor(WGPUBlendFactor f)
{
    return f >= WGPUBlendFactor_Src1 && f <= WGPUBlendFactor_OneMinusSrc1Alpha;
}

/* Spec: "valid GPUBlendComponent". webgpu.h defaults: operation Add, srcFactor One, dstFactor Zero. */
static bool blend_component_ok(const eg_vctx_t *v, uint32_t t, const char *which, WGPUBlendComponent *c)
{
    EG_CHECK(v, c->operation <= WGPUBlendOperation_Max, ENUM_VALUE,
             "fragment.targets[%u].blend.%s.operation 0x%x is not a WGPUBlendOperation", t, which,
             (unsigned)c->operation);
    EG_CHECK(v, c->srcFactor <= WGPUBlendFactor_OneMinusSrc1Alpha && c->dstFactor <= WGPUBlendFactor_OneMinusSrc1Alpha,
             ENUM_VALUE, "fragment.targets[%u].blend.%s: srcFactor/dstFactor must be WGPUBlendFactor values", t, which);
    if (!c->operation) c->operation = WGPUBlendOperation_Add;
    if (!c->srcFactor) c->srcFactor = WGPUBlendFactor_One;
    if (!c->dstFactor) c->dstFactor = WGPUBlendFactor_Zero;
    bool minmax = c->operation == WGPUBlendOperation_Min || c->operation == WGPUBlendOperation_Max;
    EG_CHECK(v, !minmax || (c->srcFactor == WGPUBlendFactor_One && c->dstFactor == WGPUBlendFactor_One),
             RP_BLEND_COMPONENT, "fragment.targets[%u].blend.%s: operation Min/Max needs srcFactor and "
             "dstFactor One", t, which);
    bool dual = eg_features_has(v->device->features, WGPUFeatureName_DualSourceBlending);
    EG_CHECK(v, dual || (!is_src1_factor(c->srcFactor) && !is_src1_factor(c->dstFactor)), RP_BLEND_COMPONENT,
             "fragment.targets[%u].blend.%s: Src1 factors need the DualSourceBlending feature", t, which);
    return true;
}

static bool color_target_ok(const eg_vctx_t *v, uint32_t t, const WGPUColorTargetState *ct,
                            eg_color_target_t *out, uint32_t *bytes_B)
{
    EG_CHECK(v, ct->nextInChain == NULL, UNKNOWN_STYPE, "fragment.targets[%u].nextInChain must be NULL", t);
    out->format = ct->format;
    if (ct->format == WGPUTextureFormat_Undefined) return true;   /* a null target */
    uint64_t features = v->device->features;
    const eg_format_info_t *fi = eg_format_info(ct->format);
    EG_CHECK(v, fi && !eg_format_is_depth_stencil(fi) && eg_format_enabled(fi, features) &&
                (eg_format_caps(fi, features) & EG_FMT_RENDERABLE), RP_COLOR_FORMAT,
             "fragment.targets[%u].format %s is not a color-renderable format", t, fi ? fi->name : "(unknown)");
    EG_CHECK(v, eg_format_on_adapter(fi, v->device->info.ext_formats_missing), TEXTURE_FORMAT_ADAPTER,
             "fragment.targets[%u].format %s is not supported by this adapter (%s backend): its driver lacks "
             "the format; wgpuDeviceEmgpuHasTextureFormat() tells before creating", t, fi->name,
             v->device->hal->name);
    if (ct->blend) {
        EG_CHECK(v, eg_format_caps(fi, features) & EG_FMT_BLENDABLE, RP_BLEND_FORMAT,
                 "fragment.targets[%u].blend is set but format %s is not blendable", t, fi->name);
        out->blend = *ct->blend;
        if (!blend_component_ok(v, t, "color", &out->blend.color) ||
            !blend_component_ok(v, t, "alpha", &out->blend.alpha))
            return false;
        out->blend_enabled = 1;
    }
    EG_CHECK(v, ct->writeMask < 16, RP_WRITE_MASK, "fragment.targets[%u].writeMask 0x%llx has bits outside "
             "WGPUColorWriteMask_All", t, (unsigned long long)ct->writeMask);
    out->write_mask = (uint8_t)ct->writeMask;
    /* Spec: "Validating GPUFragmentState's color attachment bytes per sample". */
    *bytes_B = (uint32_t)EG_ALIGN_UP(*bytes_B, (uint32_t)(fi->rt_align_B ? fi->rt_align_B : 1)) + fi->rt_cost_B;
    return true;
}

/* Spec: "validating GPUFragmentState", the parts without reflection (outputs vs targets:
 * render_pipeline_iface.c). */
bool eg_render_pipeline_check_fragment(const eg_vctx_t *v, const WGPUFragmentState *fs,
                                       struct WGPURenderPipelineImpl *rp)
{
    const WGPULimits *lim = &v->device->limits;
    EG_CHECK(v, fs->nextInChain == NULL, UNKNOWN_STYPE, "fragment.nextInChain must be NULL");
    EG_CHECK(v, fs->targetCount == 0 || fs->targets, NULL_DESCRIPTOR,
             "fragment.targets is NULL but targetCount is %u", (unsigned)fs->targetCount);
    EG_CHECK(v, fs->targetCount <= lim->maxColorAttachments, RP_COLOR_TARGET_COUNT,
             "fragment.targetCount %u exceeds maxColorAttachments (%u)", (unsigned)fs->targetCount,
             lim->maxColorAttachments);
    if (fs->targetCount > EMGPU_MAX_COLOR_ATTACHMENTS)
        return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_INLINE_BOUND,
                       "fragment.targetCount %u exceeds what a pipeline holds (EMGPU_MAX_COLOR_ATTACHMENTS = %u)",
                       (unsigned)fs->targetCount, (unsigned)EMGPU_MAX_COLOR_ATTACHMENTS);
    uint32_t bytes_B = 0;
    for (uint32_t t = 0; t < fs->targetCount; t++)
        if (!color_target_ok(v, t, &fs->targets[t], &rp->color_targets[t], &bytes_B)) return false;
    EG_CHECK(v, bytes_B <= lim->maxColorAttachmentBytesPerSample, RP_COLOR_BYTES_PER_SAMPLE,
             "fragment.targets need %u bytes per sample, more than maxColorAttachmentBytesPerSample (%u)",
             bytes_B, lim->maxColorAttachmentBytesPerSample);
    rp->color_target_count = (uint32_t)fs->targetCount;
    return true;
}
