/* Render pass encoders: BeginRenderPass validation, pass state, debug groups and End (draws: render_pass_draw.c). */
#include "kernel/api/buffer.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/pass_encoder.h"
#include "kernel/api/render_pipeline.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"

#define RP(h, entry, v) eg_pass_enter((h), true, (entry), (v))

/* Spec "renderable texture view": RenderAttachment usage, 2D / 2D-array / 3D dimension, one mip
 * level, one array layer, aspect All. */
static bool check_renderable(eg_pass_t *p, const eg_vctx_t *v, const eg_texture_view_t *view,
                             const char *what)
{
    if (!eg_encoder_check_object(p->enc, v, view, EG_KIND_TEXTURE_VIEW, what)) {
        p->obj.invalid = 1;
        return false;
    }
    EG_PCHECK(p, v, view->texture->usage & WGPUTextureUsage_RenderAttachment, PASS_ATTACHMENT_VIEW,
              "%s: texture \"%s\" lacks WGPUTextureUsage_RenderAttachment", what, view->texture->obj.label);
    EG_PCHECK(p, v, view->dimension == WGPUTextureViewDimension_2D ||
                  view->dimension == WGPUTextureViewDimension_2DArray ||
                  view->dimension == WGPUTextureViewDimension_3D, PASS_ATTACHMENT_VIEW,
              "%s: view dimension 0x%x is not 2D, 2DArray or 3D", what, (unsigned)view->dimension);
    EG_PCHECK(p, v, view->mip_level_count == 1 && view->array_layer_count == 1, PASS_ATTACHMENT_VIEW,
              "%s: view covers %u mip levels and %u array layers; an attachment needs exactly 1 of each",
              what, (unsigned)view->mip_level_count, (unsigned)view->array_layer_count);
    EG_PCHECK(p, v, view->aspect == WGPUTextureAspect_All, PASS_ATTACHMENT_VIEW,
              "%s: view aspect must be All", what);
    EG_PCHECK(p, v, eg_format_caps(view->fi, p->obj.device->features) & EG_FMT_RENDERABLE,
              PASS_ATTACHMENT_VIEW, "%s: format %s is not renderable", what, view->fi->name);
    return true;
}

static WGPUExtent3D view_extent(const eg_texture_view_t *view)
{
    const eg_texture_t *t = view->texture;
    return eg_format_mip_extent(t->dimension, t->size, view->base_mip_level);
}

/* All attachments share one size and sample count (spec "validating GPURenderPassDescriptor"). */
static bool check_size(eg_pass_t *p, const eg_vctx_t *v, const eg_texture_view_t *view, const char *what)
{
    WGPUExtent3D ext = view_extent(view);
    if (p->width_px == 0) {
        p->width_px = ext.width;
        p->height_px = ext.height;
        p->sample_count = view->texture->sample_count;
        return true;
    }
    EG_PCHECK(p, v, ext.width == p->width_px && ext.height == p->height_px, PASS_ATTACHMENT_SIZE,
              "%s is %ux%u but the other attachments are %ux%u", what, (unsigned)ext.width,
              (unsigned)ext.height, (unsigned)p->width_px, (unsigned)p->height_px);
    EG_PCHECK(p, v, view->texture->sample_count == p->sample_count, PASS_ATTACHMENT_SAMPLES,
              "%s has sampleCount %u but the other attachments have %u", what,
              (unsigned)view->texture->sample_count, (unsigned)p->sample_count);
    return true;
}

/* Spec: "converting clearValue to a texel value" must not throw: integer formats take integral
 * values within the format's range ([EnforceRange]). */
static bool check_clear_value(eg_pass_t *p, const eg_vctx_t *v, const eg_format_info_t *fi,
                              const WGPUColor *c, uint32_t i)
{
    if (fi->sample_type != WGPUTextureSampleType_Uint && fi->sample_type != WGPUTextureSampleType_Sint)
        return true;
    double lo = 0, hi = 0;
    uint32_t bits = (uint32_t)fi->block_B * 8u / fi->components;
    if (fi->sample_type == WGPUTextureSampleType_Uint) {
        hi = (double)(bits >= 32 ? 4294967295.0 : (double)((1u << bits) - 1u));
    } else {
        hi = bits >= 32 ? 2147483647.0 : (double)((1u << (bits - 1)) - 1u);
        lo = -hi - 1.0;
    }
    const double ch[4] = { c->r, c->g, c->b, c->a };
    for (uint32_t k = 0; k < 4; k++)
        EG_PCHECK(p, v, ch[k] >= lo && ch[k] <= hi, PASS_CLEAR_VALUE,
                  "colorAttachments[%u].clearValue component %u is outside the range of %s",
                  (unsigned)i, (unsigned)k, fi->name);
    return true;
}

/* Spec: "GPURenderPassColorAttachment Valid Usage". */
static bool check_color(eg_pass_t *p, const eg_vctx_t *v, const WGPURenderPassColorAttachment *a,
                        uint32_t i, eg_cmd_color_attachment_t *out)
{
    const eg_texture_view_t *view = a->view;
    if (!check_renderable(p, v, view, "colorAttachments[].view"))
        return false;
    const eg_format_info_t *fi = view->fi;
    EG_PCHECK(p, v, !eg_format_is_depth_stencil(fi), PASS_ATTACHMENT_VIEW,
              "colorAttachments[%u].view has depth/stencil format %s", (unsigned)i, fi->name);
    if (view->dimension == WGPUTextureViewDimension_3D) {
        uint32_t depth = view_extent(view).depthOrArrayLayers;
        EG_PCHECK(p, v, a->depthSlice != WGPU_DEPTH_SLICE_UNDEFINED, PASS_DEPTH_SLICE,
                  "colorAttachments[%u].depthSlice is required for a 3D view", (unsigned)i);
        EG_PCHECK(p, v, a->depthSlice < depth, PASS_DEPTH_SLICE,
                  "colorAttachments[%u].depthSlice %u is not below the mip's depth %u", (unsigned)i,
                  (unsigned)a->depthSlice, (unsigned)depth);
    } else {
        EG_PCHECK(p, v, a->depthSlice == WGPU_DEPTH_SLICE_UNDEFINED, PASS_DEPTH_SLICE,
                  "colorAttachments[%u].depthSlice must be undefined for a non-3D view", (unsigned)i);
    }
    EG_PCHECK(p, v, a->loadOp == WGPULoadOp_Load || a->loadOp == WGPULoadOp_Clear, PASS_LOAD_STORE_OP,
              "colorAttachments[%u].loadOp 0x%x must be Load or Clear", (unsigned)i, (unsigned)a->loadOp);
    EG_PCHECK(p, v, a->storeOp == WGPUStoreOp_Store || a->storeOp == WGPUStoreOp_Discard,
              PASS_LOAD_STORE_OP, "colorAttachments[%u].storeOp 0x%x must be Store or Discard",
              (unsigned)i, (unsigned)a->storeOp);
    if (a->loadOp == WGPULoadOp_Clear && !check_clear_value(p, v, fi, &a->clearValue, i))
        return false;
    if (!check_size(p, v, view, "colorAttachments[].view"))
        return false;
    if (a->resolveTarget) {
        const eg_texture_view_t *rt = a->resolveTarget;
        EG_PCHECK(p, v, view->texture->sample_count > 1, PASS_RESOLVE_TARGET,
                  "colorAttachments[%u].resolveTarget is set but the view is not multisampled", (unsigned)i);
        if (!check_renderable(p, v, rt, "colorAttachments[].resolveTarget"))
            return false;
        /* Ours (docs/displays.md): a banded frame has no full-frame memory to resolve into. */
        EG_PCHECK(p, v, !rt->texture->banded, PASS_RESOLVE_TARGET,
                  "colorAttachments[%u].resolveTarget is the current texture of a strip-mode surface, "
                  "which is rendered in bands and has no full frame to resolve into: resolve into "
                  "another texture and draw that into the frame, or configure the surface without "
                  "a strip height", (unsigned)i);
        EG_PCHECK(p, v, rt->texture->sample_count == 1, PASS_RESOLVE_TARGET,
                  "colorAttachments[%u].resolveTarget has sampleCount %u; it must be 1", (unsigned)i,
                  (unsigned)rt->texture->sample_count);
        WGPUExtent3D re = view_extent(rt);
        EG_PCHECK(p, v, re.width == p->width_px && re.height == p->height_px, PASS_RESOLVE_TARGET,
                  "colorAttachments[%u].resolveTarget is %ux%u, the view %ux%u", (unsigned)i,
                  (unsigned)re.width, (unsigned)re.height, (unsigned)p->width_px, (unsigned)p->height_px);
        EG_PCHECK(p, v, rt->format == view->format, PASS_RESOLVE_TARGET,
                  "colorAttachments[%u].resolveTarget format %s differs from the view's %s",
                  (unsigned)i, rt->fi->name, fi->name);
        EG_PCHECK(p, v, eg_format_caps(fi, p->obj.device->features) & EG_FMT_RESOLVE, PASS_RESOLVE_TARGET,
                  "format %s cannot be resolved", fi->name);
    }
    out->view = (eg_texture_view_t *)(uintptr_t)view;
    out->resolve_target = a->resolveTarget;
    out->depth_slice = view->dimension == WGPUTextureViewDimension_3D ? a->depthSlice : 0;
    out->load_op = a->loadOp;
    out->store_op = a->storeOp;
    out->clear_value = a->clearValue;
    return true;
}

/* Spec: "GPURenderPassDepthStencilAttachment Valid Usage", per aspect. */
static bool check_aspect_ops(eg_pass_t *p, const eg_vctx_t *v, bool has, bool ro, WGPULoadOp lo,
                             WGPUStoreOp so, const char *name, uint32_t *lo_out, uint32_t *so_out)
{
    if (!has || ro) {
        EG_PCHECK(p, v, lo == WGPULoadOp_Undefined && so == WGPUStoreOp_Undefined, PASS_LOAD_STORE_OP,
                  "depthStencilAttachment.%sLoadOp/%sStoreOp must be Undefined when the aspect is %s",
                  name, name, has ? "read-only" : "absent");
        *lo_out = WGPULoadOp_Load;
        *so_out = WGPUStoreOp_Store;
        return true;
    }
    EG_PCHECK(p, v, (lo == WGPULoadOp_Load || lo == WGPULoadOp_Clear) &&
                  (so == WGPUStoreOp_Store || so == WGPUStoreOp_Discard), PASS_LOAD_STORE_OP,
              "depthStencilAttachment.%sLoadOp and %sStoreOp are required", name, name);
    *lo_out = lo;
    *so_out = so;
    return true;
}

static bool check_depth_stencil(eg_pass_t *p, const eg_vctx_t *v, const WGPURenderPassDepthStencilAttachment *a,
                                eg_cmd_depth_stencil_attachment_t *out)
{
    const eg_texture_view_t *view = a->view;
    if (!check_renderable(p, v, view, "depthStencilAttachment.view"))
        return false;
    const eg_format_info_t *fi = view->fi;
    EG_PCHECK(p, v, eg_format_is_depth_stencil(fi), PASS_ATTACHMENT_VIEW,
              "depthStencilAttachment.view has color format %s", fi->name);
    bool has_d = (fi->aspects & EG_ASPECT_DEPTH) != 0, has_s = (fi->aspects & EG_ASPECT_STENCIL) != 0;
    if (!check_aspect_ops(p, v, has_d, a->depthReadOnly, a->depthLoadOp, a->depthStoreOp, "depth",
                          &out->depth_load_op, &out->depth_store_op) ||
        !check_aspect_ops(p, v, has_s, a->stencilReadOnly, a->stencilLoadOp, a->stencilStoreOp,
                          "stencil", &out->stencil_load_op, &out->stencil_store_op))
        return false;
    if (has_d && !a->depthReadOnly && a->depthLoadOp == WGPULoadOp_Clear)
        EG_PCHECK(p, v, a->depthClearValue >= 0.0f && a->depthClearValue <= 1.0f, PASS_CLEAR_VALUE,
                  "depthStencilAttachment.depthClearValue %f must be in [0, 1]", (double)a->depthClearValue);
    if (!check_size(p, v, view, "depthStencilAttachment.view"))
        return false;
    out->view = (eg_texture_view_t *)(uintptr_t)view;
    out->depth_clear_value = has_d && a->depthLoadOp == WGPULoadOp_Clear ? a->depthClearValue : 0.0f;
    out->depth_read_only = !has_d || a->depthReadOnly;
    out->stencil_read_only = !has_s || a->stencilReadOnly;
    out->stencil_clear_value = a->stencilClearValue;
    p->depth_format = view->format;
    p->depth_read_only = (uint8_t)out->depth_read_only;
    p->stencil_read_only = (uint8_t)out->stencil_read_only;
    return true;
}

static bool check_chain(eg_pass_t *p, const eg_vctx_t *v, const WGPURenderPassDescriptor *d)
{
    for (const WGPUChainedStruct *c = d->nextInChain; c; c = c->next) {
        EG_PCHECK(p, v, c->sType == WGPUSType_RenderPassMaxDrawCount, UNKNOWN_STYPE,
                  "descriptor.nextInChain has sType 0x%x, which this call does not accept", (unsigned)c->sType);
        p->max_draw_count = ((const WGPURenderPassMaxDrawCount *)(const void *)c)->maxDrawCount;
    }
    return true;
}

/* Spec: beginRenderPass(), "validating GPURenderPassDescriptor". */
static bool validate_desc(eg_pass_t *p, const eg_vctx_t *v, const WGPURenderPassDescriptor *d,
                          eg_cmd_begin_render_pass_t *r)
{
    const WGPULimits *lim = &p->obj.device->limits;
    if (!check_chain(p, v, d))
        return false;
    uint32_t max_color = eg_min_u32(lim->maxColorAttachments, EG_CMD_MAX_COLOR_ATTACHMENTS);
    EG_PCHECK(p, v, d->colorAttachmentCount <= max_color, PASS_ATTACHMENT_COUNT,
              "colorAttachmentCount %u exceeds maxColorAttachments (%u)",
              (unsigned)d->colorAttachmentCount, (unsigned)max_color);
    EG_PCHECK(p, v, d->colorAttachmentCount == 0 || d->colorAttachments, NULL_DESCRIPTOR,
              "colorAttachments is NULL but colorAttachmentCount is %u", (unsigned)d->colorAttachmentCount);
    uint32_t bytes = 0, present = 0;
    for (uint32_t i = 0; i < d->colorAttachmentCount; i++) {
        const WGPURenderPassColorAttachment *a = &d->colorAttachments[i];
        if (!a->view)
            continue;
        if (!check_color(p, v, a, i, &r->color[i]))
            return false;
        const eg_format_info_t *fi = r->color[i].view->fi;
        bytes = EG_ALIGN_UP(bytes, (uint32_t)(fi->rt_align_B ? fi->rt_align_B : 1u)) + fi->rt_cost_B;
        p->color_formats[i] = r->color[i].view->format;
        present++;
    }
    r->color_count = (uint32_t)d->colorAttachmentCount;
    p->color_count = r->color_count;
    EG_PCHECK(p, v, bytes <= lim->maxColorAttachmentBytesPerSample, PASS_BYTES_PER_SAMPLE,
              "color attachments need %u bytes per sample, more than maxColorAttachmentBytesPerSample (%u)",
              (unsigned)bytes, (unsigned)lim->maxColorAttachmentBytesPerSample);
    if (d->depthStencilAttachment) {
        if (!check_depth_stencil(p, v, d->depthStencilAttachment, &r->depth_stencil))
            return false;
        present++;
    }
    EG_PCHECK(p, v, present > 0, PASS_ATTACHMENT_COUNT,
              "a render pass needs at least one color attachment or a depthStencilAttachment");
    EG_PCHECK(p, v, d->occlusionQuerySet == NULL && d->timestampWrites == NULL, PASS_QUERY_UNSUPPORTED,
              "%s: query sets are not supported by emgpu yet",
              d->occlusionQuerySet ? "occlusionQuerySet" : "timestampWrites");
    r->width_px = p->width_px;
    r->height_px = p->height_px;
    r->sample_count = p->sample_count;
    return true;
}

static eg_track_range_t view_range(const eg_texture_view_t *view)
{
    eg_track_range_t r = { (uint16_t)view->base_mip_level, 1, (uint16_t)view->base_array_layer, 1 };
    if (view->texture->dimension == WGPUTextureDimension_3D)
        r.base_layer = 0;
    return r;
}

static bool merge_attachments(eg_pass_t *p, const eg_vctx_t *v, const eg_cmd_begin_render_pass_t *r)
{
    for (uint32_t i = 0; i < r->color_count; i++) {
        const eg_cmd_color_attachment_t *a = &r->color[i];
        eg_track_range_t range;
        if (a->view) {
            range = view_range(a->view);
            if (!eg_pass_use_texture(p, v, a->view->texture, &range, EG_TRACK_TEX_COLOR_TARGET))
                return false;
        }
        if (a->resolve_target) {
            range = view_range(a->resolve_target);
            if (!eg_pass_use_texture(p, v, a->resolve_target->texture, &range, EG_TRACK_TEX_COLOR_TARGET))
                return false;
        }
    }
    const eg_cmd_depth_stencil_attachment_t *ds = &r->depth_stencil;
    if (ds->view) {
        eg_track_range_t range = view_range(ds->view);
        uint16_t use = ds->depth_read_only && ds->stencil_read_only ? EG_TRACK_TEX_DEPTH_STENCIL_READ
                                                                    : EG_TRACK_TEX_DEPTH_STENCIL_WRITE;
        return eg_pass_use_texture(p, v, ds->view->texture, &range, use);
    }
    return true;
}

WGPURenderPassEncoder wgpuCommandEncoderBeginRenderPass(WGPUCommandEncoder commandEncoder,
                                                        WGPURenderPassDescriptor const *descriptor)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(commandEncoder, "wgpuCommandEncoderBeginRenderPass", &v);
    if (!e)
        return NULL;
    WGPUStringView label = { NULL, 0 };
    if (descriptor)
        label = descriptor->label;
    eg_pass_t *p = eg_pass_begin(e, &v, true, label);
    if (!p)
        return NULL;
    WGPURenderPassEncoder handle = (WGPURenderPassEncoder)(void *)p;
    if (!p->owns_lock)
        return handle;
    if (!descriptor) {
        eg_pass_fail(p, &v, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return handle;
    }
    eg_cmd_begin_render_pass_t rec;
    eg_memset(&rec, 0, sizeof rec);
    if (!validate_desc(p, &v, descriptor, &rec) || !merge_attachments(p, &v, &rec))
        return handle;
    p->begin_B = e->stream.used_B;
    eg_cmd_begin_render_pass_t *c = (eg_cmd_begin_render_pass_t *)eg_pass_record(p, &v, EG_CMD_BEGIN_RENDER_PASS, sizeof *c);
    if (!c)
        return handle;
    eg_cmd_header_t hdr = c->hdr;
    *c = rec;
    c->hdr = hdr;
    eg_encoder_hold_refs(&c->hdr);
    return handle;
}

/* ---- pass state ---- */

/* Spec: setPipeline(): the pipeline must match the pass's attachments ("validating
 * GPURenderPipeline against the render pass layout") and may not write a read-only aspect. */
static bool check_pipeline(eg_pass_t *p, const eg_vctx_t *v, const eg_render_pipeline_t *rp)
{
    if (!eg_encoder_check_object(p->enc, v, rp, EG_KIND_RENDER_PIPELINE, "pipeline")) {
        p->obj.invalid = 1;
        return false;
    }
    EG_PCHECK(p, v, rp->sample_count == p->sample_count, PIPELINE_INCOMPATIBLE,
              "pipeline sampleCount %u differs from the pass's %u", (unsigned)rp->sample_count,
              (unsigned)p->sample_count);
    uint32_t n = eg_max_u32(rp->color_target_count, p->color_count);
    for (uint32_t i = 0; i < n && i < EG_CMD_MAX_COLOR_ATTACHMENTS; i++) {
        WGPUTextureFormat want = i < p->color_count ? p->color_formats[i] : WGPUTextureFormat_Undefined;
        WGPUTextureFormat have = i < rp->color_target_count ? rp->color_targets[i].format
                                                           : WGPUTextureFormat_Undefined;
        EG_PCHECK(p, v, want == have, PIPELINE_INCOMPATIBLE,
                  "pipeline color target %u has format 0x%x but the attachment has 0x%x",
                  (unsigned)i, (unsigned)have, (unsigned)want);
    }
    WGPUTextureFormat ds = rp->has_depth_stencil ? rp->depth_stencil.format : WGPUTextureFormat_Undefined;
    EG_PCHECK(p, v, ds == p->depth_format, PIPELINE_INCOMPATIBLE,
              "pipeline depthStencil format 0x%x differs from the attachment's 0x%x", (unsigned)ds,
              (unsigned)p->depth_format);
    EG_PCHECK(p, v, !(rp->has_depth_stencil && rp->depth_write_enabled && p->depth_read_only),
              PIPELINE_INCOMPATIBLE, "pipeline writes depth but the depth aspect is read-only");
    return true;
}

void wgpuRenderPassEncoderSetPipeline(WGPURenderPassEncoder renderPassEncoder, WGPURenderPipeline pipeline)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderSetPipeline", &v);
    if (!p || !check_pipeline(p, &v, pipeline))
        return;
    p->pipeline = pipeline;
    p->sizes_checked = 0;
    eg_cmd_set_pipeline_t *c = (eg_cmd_set_pipeline_t *)eg_pass_record(p, &v, EG_CMD_SET_RENDER_PIPELINE, sizeof *c);
    if (!c)
        return;
    c->pipeline = pipeline;
    eg_encoder_hold_refs(&c->hdr);
}

void wgpuRenderPassEncoderSetBindGroup(WGPURenderPassEncoder renderPassEncoder, uint32_t groupIndex,
                                       WGPUBindGroup group, size_t dynamicOffsetCount,
                                       uint32_t const *dynamicOffsets)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderSetBindGroup", &v);
    if (p)
        eg_pass_set_bind_group(p, &v, groupIndex, group, dynamicOffsetCount, dynamicOffsets);
}

/* Spec: setVertexBuffer() / setIndexBuffer() shared rules: usage, offset alignment, range. */
static bool check_set_buffer(eg_pass_t *p, const eg_vctx_t *v, const eg_buffer_t *b, WGPUBufferUsage usage,
                             uint64_t offset, uint64_t *size, uint32_t align)
{
    if (!eg_encoder_check_object(p->enc, v, b, EG_KIND_BUFFER, "buffer")) {
        p->obj.invalid = 1;
        return false;
    }
    EG_PCHECK(p, v, b->usage & usage, SET_BUFFER, "buffer \"%s\" lacks WGPUBufferUsage_%s",
              b->obj.label, usage == WGPUBufferUsage_Vertex ? "Vertex" : "Index");
    EG_PCHECK(p, v, offset % align == 0, SET_BUFFER, "offset %llu is not a multiple of %u",
              (unsigned long long)offset, (unsigned)align);
    if (*size == WGPU_WHOLE_SIZE)
        *size = offset <= b->size_B ? b->size_B - offset : 0;
    EG_PCHECK(p, v, offset <= b->size_B && *size <= b->size_B - offset, SET_BUFFER,
              "offset %llu + size %llu exceeds the buffer size %llu", (unsigned long long)offset,
              (unsigned long long)*size, (unsigned long long)b->size_B);
    return true;
}

void wgpuRenderPassEncoderSetVertexBuffer(WGPURenderPassEncoder renderPassEncoder, uint32_t slot,
                                          WGPUBuffer buffer, uint64_t offset, uint64_t size)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderSetVertexBuffer", &v);
    if (!p)
        return;
    uint32_t max = eg_min_u32(p->obj.device->limits.maxVertexBuffers, EMGPU_MAX_VERTEX_BUFFERS);
    if (slot >= max) {
        eg_pass_fail(p, &v, EG_E_SET_BUFFER, "slot %u is not below maxVertexBuffers (%u)",
                     (unsigned)slot, (unsigned)max);
        return;
    }
    if (buffer) {
        if (!check_set_buffer(p, &v, buffer, WGPUBufferUsage_Vertex, offset, &size, 4) ||
            !eg_pass_use_buffer(p, &v, buffer, EG_TRACK_BUF_VERTEX))
            return;
        p->vb_mask |= 1u << slot;
        p->vb_size_B[slot] = size;
    } else {
        p->vb_mask &= ~(1u << slot);
        size = 0;
    }
    eg_cmd_set_buffer_t *c = (eg_cmd_set_buffer_t *)eg_pass_record(p, &v, EG_CMD_SET_VERTEX_BUFFER, sizeof *c);
    if (!c)
        return;
    c->buffer = buffer;
    c->offset_B = offset;
    c->size_B = size;
    c->slot = slot;
    eg_encoder_hold_refs(&c->hdr);
}

void wgpuRenderPassEncoderSetIndexBuffer(WGPURenderPassEncoder renderPassEncoder, WGPUBuffer buffer,
                                         WGPUIndexFormat format, uint64_t offset, uint64_t size)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderSetIndexBuffer", &v);
    if (!p)
        return;
    if (format != WGPUIndexFormat_Uint16 && format != WGPUIndexFormat_Uint32) {
        eg_pass_fail(p, &v, EG_E_ENUM_VALUE, "format 0x%x is not Uint16 or Uint32", (unsigned)format);
        return;
    }
    uint32_t isz = format == WGPUIndexFormat_Uint16 ? 2u : 4u;
    if (!check_set_buffer(p, &v, buffer, WGPUBufferUsage_Index, offset, &size, isz) ||
        !eg_pass_use_buffer(p, &v, buffer, EG_TRACK_BUF_INDEX))
        return;
    p->index_buffer = buffer;
    p->index_format = format;
    p->index_size_B = size;
    eg_cmd_set_buffer_t *c = (eg_cmd_set_buffer_t *)eg_pass_record(p, &v, EG_CMD_SET_INDEX_BUFFER, sizeof *c);
    if (!c)
        return;
    c->buffer = buffer;
    c->offset_B = offset;
    c->size_B = size;
    c->index_format = format;
    eg_encoder_hold_refs(&c->hdr);
}

/* Spec: setViewport(): inside the attachments, non-negative extent, 0 <= minDepth <= maxDepth <= 1. */
void wgpuRenderPassEncoderSetViewport(WGPURenderPassEncoder renderPassEncoder, float x, float y,
                                      float width, float height, float minDepth, float maxDepth)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderSetViewport", &v);
    if (!p)
        return;
    bool rect_ok = x >= 0.0f && y >= 0.0f && width >= 0.0f && height >= 0.0f &&
                   (double)x + width <= (double)p->width_px && (double)y + height <= (double)p->height_px;
    bool depth_ok = minDepth >= 0.0f && maxDepth <= 1.0f && minDepth <= maxDepth;
    if (!rect_ok || !depth_ok) {
        eg_pass_fail(p, &v, EG_E_VIEWPORT, "viewport (%f, %f, %f x %f, depth %f..%f) must lie inside "
                     "the %ux%u attachments with 0 <= minDepth <= maxDepth <= 1", (double)x, (double)y,
                     (double)width, (double)height, (double)minDepth, (double)maxDepth,
                     (unsigned)p->width_px, (unsigned)p->height_px);
        return;
    }
    eg_cmd_set_viewport_t *c = (eg_cmd_set_viewport_t *)eg_pass_record(p, &v, EG_CMD_SET_VIEWPORT, sizeof *c);
    if (c) {
        c->x = x; c->y = y; c->width = width; c->height = height;
        c->min_depth = minDepth; c->max_depth = maxDepth;
    }
}

/* Spec: setScissorRect(): x + width <= attachment width, y + height <= attachment height. */
void wgpuRenderPassEncoderSetScissorRect(WGPURenderPassEncoder renderPassEncoder, uint32_t x, uint32_t y,
                                         uint32_t width, uint32_t height)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderSetScissorRect", &v);
    if (!p)
        return;
    if ((uint64_t)x + width > p->width_px || (uint64_t)y + height > p->height_px) {
        eg_pass_fail(p, &v, EG_E_SCISSOR, "scissor (%u, %u, %u x %u) exceeds the %ux%u attachments",
                     (unsigned)x, (unsigned)y, (unsigned)width, (unsigned)height,
                     (unsigned)p->width_px, (unsigned)p->height_px);
        return;
    }
    eg_cmd_set_scissor_t *c = (eg_cmd_set_scissor_t *)eg_pass_record(p, &v, EG_CMD_SET_SCISSOR_RECT, sizeof *c);
    if (c) {
        c->x = x; c->y = y; c->width = width; c->height = height;
    }
}

void wgpuRenderPassEncoderSetBlendConstant(WGPURenderPassEncoder renderPassEncoder, WGPUColor const *color)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderSetBlendConstant", &v);
    if (!p)
        return;
    if (!color) {
        eg_pass_fail(p, &v, EG_E_NULL_DESCRIPTOR, "color is NULL");
        return;
    }
    eg_cmd_set_blend_constant_t *c = (eg_cmd_set_blend_constant_t *)eg_pass_record(p, &v, EG_CMD_SET_BLEND_CONSTANT, sizeof *c);
    if (c)
        c->color = *color;
}

void wgpuRenderPassEncoderSetStencilReference(WGPURenderPassEncoder renderPassEncoder, uint32_t reference)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderSetStencilReference", &v);
    if (!p)
        return;
    eg_cmd_set_stencil_ref_t *c = (eg_cmd_set_stencil_ref_t *)eg_pass_record(p, &v, EG_CMD_SET_STENCIL_REFERENCE, sizeof *c);
    if (c)
        c->reference = reference;
}

/* ---- debug groups, End, lifetime ---- */

void wgpuRenderPassEncoderPushDebugGroup(WGPURenderPassEncoder renderPassEncoder, WGPUStringView groupLabel)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderPushDebugGroup", &v);
    if (p)
        eg_pass_debug(p, &v, EG_CMD_PUSH_DEBUG_GROUP, groupLabel);
}

void wgpuRenderPassEncoderPopDebugGroup(WGPURenderPassEncoder renderPassEncoder)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderPopDebugGroup", &v);
    WGPUStringView none = { NULL, 0 };
    if (p)
        eg_pass_debug(p, &v, EG_CMD_POP_DEBUG_GROUP, none);
}

void wgpuRenderPassEncoderInsertDebugMarker(WGPURenderPassEncoder renderPassEncoder, WGPUStringView markerLabel)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderInsertDebugMarker", &v);
    if (p)
        eg_pass_debug(p, &v, EG_CMD_INSERT_DEBUG_MARKER, markerLabel);
}

void wgpuRenderPassEncoderEnd(WGPURenderPassEncoder renderPassEncoder)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderEnd", &v);
    if (p)
        eg_pass_end(p, &v, EG_CMD_END_RENDER_PASS);
}

void wgpuRenderPassEncoderSetLabel(WGPURenderPassEncoder renderPassEncoder, WGPUStringView label)
{
    if (eg_handle_live(renderPassEncoder, EG_KIND_PASS_ENCODER, "wgpuRenderPassEncoderSetLabel"))
        eg_object_set_label(&renderPassEncoder->p.obj, label);
}

void wgpuRenderPassEncoderAddRef(WGPURenderPassEncoder renderPassEncoder)
{
    if (eg_handle_live(renderPassEncoder, EG_KIND_PASS_ENCODER, "wgpuRenderPassEncoderAddRef"))
        eg_object_ref(renderPassEncoder);
}

void wgpuRenderPassEncoderRelease(WGPURenderPassEncoder renderPassEncoder)
{
    if (eg_handle_live(renderPassEncoder, EG_KIND_PASS_ENCODER, "wgpuRenderPassEncoderRelease"))
        eg_pass_release(&renderPassEncoder->p);
}
