/* hal/vulkan command execution: a kernel command stream (kernel/cmd/cmd.h) recorded into a VkCommandBuffer.
 *
 * The stream is validated and carries the tracker's barriers, so this is a translation with a
 * little state: the pass in progress, the bound pipeline's layout, and the bind groups, which
 * WebGPU lets an application set before the pipeline. Groups are bound lazily before each
 * draw/dispatch (after a pipeline change, every set group again) with the current layout.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"

typedef struct rec_state {
    eg_hal_device_t *dev;
    VkCommandBuffer cb;
    VkPipelineBindPoint bind_point;
    VkPipelineLayout layout;
    uint32_t layout_groups;          /* groups in the pipeline's layout */
    const eg_cmd_set_bind_group_t *groups[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    uint32_t dirty;                  /* bit per group to (re)bind */
    uint32_t rt_width, rt_height;
    /* WebGPU storeOp Discard leaves zeros; Vulkan's DONT_CARE leaves "undefined". So discarded
     * attachments store, after a vkCmdClearAttachments to zero at the end of the pass. */
    uint32_t discard_colors;         /* bit per color slot */
    /* Multisampled attachments with storeOp Discard and a resolve target: zeroed after the pass
     * (the resolve needs the samples, so they cannot be cleared inside it). */
    const eg_texture_view_t *discard_resolved[EG_CMD_MAX_COLOR_ATTACHMENTS];
    uint32_t discard_resolved_count;
    VkImageAspectFlags discard_ds;
} rec_state_t;

static void flush_groups(rec_state_t *s)
{
    for (uint32_t i = 0; i < s->layout_groups && i < EMGPU_MAX_BIND_GROUPS_PER_LAYOUT; i++) {
        const eg_cmd_set_bind_group_t *g = s->groups[i];
        if (!(s->dirty & (1u << i)) || !g || !g->group) continue;
        VkDescriptorSet set = (VkDescriptorSet)(uintptr_t)EG_VK_PRIV(eg_vk_handle_t, g->group)->h;
        eg_vk.vkCmdBindDescriptorSets(s->cb, s->bind_point, s->layout, i, 1, &set, g->dynamic_offset_count,
                                      g->dynamic_offsets);
    }
    s->dirty = 0;
}

static VkImageSubresourceLayers layers_of(const eg_texture_t *tex, const eg_texel_region_t *r)
{
    bool is3d = tex->dimension == WGPUTextureDimension_3D;
    return (VkImageSubresourceLayers){ eg_vk_aspects(tex->fi, r->aspect), r->mip_level, is3d ? 0 : r->origin_z,
                                       is3d ? 1 : r->depth_or_layers };
}

static VkOffset3D offset_of(const eg_texture_t *tex, const eg_texel_region_t *r)
{
    bool is3d = tex->dimension == WGPUTextureDimension_3D;
    return (VkOffset3D){ (int32_t)r->origin_x, (int32_t)r->origin_y, is3d ? (int32_t)r->origin_z : 0 };
}

static VkExtent3D extent_of(const eg_texture_t *tex, const eg_texel_region_t *r)
{
    bool is3d = tex->dimension == WGPUTextureDimension_3D;
    return (VkExtent3D){ r->width_px, r->height_px, is3d ? r->depth_or_layers : 1 };
}

static void copy_bt(rec_state_t *s, const eg_cmd_copy_bt_t *c, bool to_texture)
{
    const eg_format_info_t *fi = c->texture->fi;
    uint32_t block_B = eg_format_copy_block_B(fi, c->region.aspect);
    if (!block_B) block_B = fi->block_B ? fi->block_B : 1;
    VkBufferImageCopy r = {
        .bufferOffset = c->layout.offset_B,
        .bufferRowLength = c->layout.bytes_per_row_B / block_B * fi->block_w_px,
        .bufferImageHeight = c->layout.rows_per_image * fi->block_h_px,
        .imageSubresource = layers_of(c->texture, &c->region),
        .imageOffset = offset_of(c->texture, &c->region),
        .imageExtent = extent_of(c->texture, &c->region),
    };
    VkBuffer buf = EG_VK_PRIV(eg_vk_buffer_t, c->buffer)->buffer;
    VkImage img = EG_VK_PRIV(eg_vk_texture_t, c->texture)->image;
    if (to_texture)
        eg_vk.vkCmdCopyBufferToImage(s->cb, buf, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
    else
        eg_vk.vkCmdCopyImageToBuffer(s->cb, img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf, 1, &r);
}

static void copy_t2t(rec_state_t *s, const eg_cmd_copy_t2t_t *c)
{
    VkImageCopy r = { layers_of(c->src, &c->src_region), offset_of(c->src, &c->src_region),
                      layers_of(c->dst, &c->dst_region), offset_of(c->dst, &c->dst_region),
                      extent_of(c->src, &c->src_region) };
    /* 2D arrays <-> 3D: the layer count and the depth must agree per side. */
    if (c->src->dimension == WGPUTextureDimension_3D) r.extent.depth = c->src_region.depth_or_layers;
    eg_vk.vkCmdCopyImage(s->cb, EG_VK_PRIV(eg_vk_texture_t, c->src)->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         EG_VK_PRIV(eg_vk_texture_t, c->dst)->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
}

/* Vulkan lets an implementation round float -> unorm either way (NVIDIA truncates 0.5 * 255 to
 * 127); WebGPU wants round-to-nearest. So the value handed over is already the exact code point
 * k / max, which every rounding maps to k. Colour channels of sRGB formats are encoded by the
 * driver and are left as given; their alpha is linear. */
static float unorm_exact(double v, double max)
{
    v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
    return (float)((double)(int64_t)(v * max + 0.5) / max);
}

static double unorm_max(WGPUTextureFormat f, bool *srgb)
{
    *srgb = false;
    switch (f) {
    case WGPUTextureFormat_RGBA8UnormSrgb: case WGPUTextureFormat_BGRA8UnormSrgb: *srgb = true; return 255.0;
    case WGPUTextureFormat_R8Unorm: case WGPUTextureFormat_RG8Unorm: case WGPUTextureFormat_RGBA8Unorm:
    case WGPUTextureFormat_BGRA8Unorm: return 255.0;
    case WGPUTextureFormat_R16Unorm: case WGPUTextureFormat_RG16Unorm: case WGPUTextureFormat_RGBA16Unorm:
        return 65535.0;
    default: return 0.0;
    }
}

static VkClearColorValue clear_color(const eg_format_info_t *fi, WGPUColor c)
{
    VkClearColorValue v;
    bool srgb;
    double max = unorm_max(fi->format, &srgb);
    if (max > 0.0) {
        if (!srgb) { c.r = unorm_exact(c.r, max); c.g = unorm_exact(c.g, max); c.b = unorm_exact(c.b, max); }
        c.a = unorm_exact(c.a, max);
    }
    if (fi->sample_type == WGPUTextureSampleType_Uint) {
        v.uint32[0] = (uint32_t)c.r; v.uint32[1] = (uint32_t)c.g; v.uint32[2] = (uint32_t)c.b; v.uint32[3] = (uint32_t)c.a;
    } else if (fi->sample_type == WGPUTextureSampleType_Sint) {
        v.int32[0] = (int32_t)c.r; v.int32[1] = (int32_t)c.g; v.int32[2] = (int32_t)c.b; v.int32[3] = (int32_t)c.a;
    } else {
        v.float32[0] = (float)c.r; v.float32[1] = (float)c.g; v.float32[2] = (float)c.b; v.float32[3] = (float)c.a;
    }
    return v;
}

static uint8_t load_op(uint32_t op) { return op == WGPULoadOp_Clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD; }
static uint8_t store_op(uint32_t op) { return op == WGPUStoreOp_Store ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE; }

static void set_viewport(rec_state_t *s, float x, float y, float w, float h, float mn, float mx)
{
    /* y-flipped: WebGPU clip space has y up (see vk_pipeline.c). */
    VkViewport vp = { x, y + h, w, -h, mn, mx };
    eg_vk.vkCmdSetViewport(s->cb, 0, 1, &vp);
}

static eg_status_t begin_render_pass(rec_state_t *s, const eg_cmd_begin_render_pass_t *b)
{
    eg_hal_device_t *dev = s->dev;
    eg_vk_rp_desc_t d;
    VkImageView views[EG_VK_MAX_ATTACHMENTS];
    VkClearValue clears[EG_VK_MAX_ATTACHMENTS];
    uint32_t n = 0;
    eg_memset(&d, 0, sizeof d);
    eg_memset(clears, 0, sizeof clears);
    s->discard_colors = 0;
    s->discard_ds = 0;
    s->discard_resolved_count = 0;
    d.color_count = b->color_count;
    d.samples = b->sample_count;
    for (uint32_t i = 0; i < b->color_count; i++) {
        const eg_cmd_color_attachment_t *c = &b->color[i];
        if (!c->view) continue;
        d.color[i] = eg_vk_format(dev, c->view->format);
        d.color_load[i] = load_op(c->load_op);
        d.color_store[i] = store_op(c->store_op);
        /* With a resolve target the resolve must see the samples, so those stay DONT_CARE. */
        if (c->store_op != WGPUStoreOp_Store && !c->resolve_target) {
            d.color_store[i] = VK_ATTACHMENT_STORE_OP_STORE;
            s->discard_colors |= 1u << i;
        }
        if (c->store_op != WGPUStoreOp_Store && c->resolve_target)
            s->discard_resolved[s->discard_resolved_count++] = c->view;
        clears[n].color = clear_color(c->view->fi, c->clear_value);
        views[n++] = EG_VK_PRIV(eg_vk_view_t, c->view)->view;
        if (c->resolve_target) {
            d.has_resolve[i] = 1;
            views[n++] = EG_VK_PRIV(eg_vk_view_t, c->resolve_target)->view;
        }
    }
    const eg_cmd_depth_stencil_attachment_t *ds = &b->depth_stencil;
    if (ds->view) {
        const eg_format_info_t *fi = ds->view->texture->fi;
        bool has_d = (fi->aspects & EG_ASPECT_DEPTH) != 0, has_s = (fi->aspects & EG_ASPECT_STENCIL) != 0;
        d.depth = EG_VK_PRIV(eg_vk_texture_t, ds->view->texture)->format;
        d.depth_load = has_d ? load_op(ds->depth_load_op) : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        d.depth_store = has_d ? store_op(ds->depth_store_op) : VK_ATTACHMENT_STORE_OP_DONT_CARE;
        d.stencil_load = has_s ? load_op(ds->stencil_load_op) : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        d.stencil_store = has_s ? store_op(ds->stencil_store_op) : VK_ATTACHMENT_STORE_OP_DONT_CARE;
        /* A read-only aspect (WebGPU: load/store ops undefined) keeps its contents: LOAD, and
         * STORE_OP_NONE where the device has it (STORE counts as a write, a hazard against
         * sampling the same texture in the pass); never the discard zeroing. */
        uint8_t keep = dev->store_op_none ? EG_VK_STORE_OP_NONE_U8 : VK_ATTACHMENT_STORE_OP_STORE;
        if (has_d && ds->depth_read_only) { d.depth_load = VK_ATTACHMENT_LOAD_OP_LOAD; d.depth_store = keep; }
        if (has_s && ds->stencil_read_only) { d.stencil_load = VK_ATTACHMENT_LOAD_OP_LOAD; d.stencil_store = keep; }
        if (has_d && !ds->depth_read_only && ds->depth_store_op != WGPUStoreOp_Store) {
            d.depth_store = VK_ATTACHMENT_STORE_OP_STORE;
            s->discard_ds |= VK_IMAGE_ASPECT_DEPTH_BIT;
        }
        if (has_s && !ds->stencil_read_only && ds->stencil_store_op != WGPUStoreOp_Store) {
            d.stencil_store = VK_ATTACHMENT_STORE_OP_STORE;
            s->discard_ds |= VK_IMAGE_ASPECT_STENCIL_BIT;
        }
        /* Matches the tracker: DEPTH_STENCIL_READ only when every present aspect is read-only. */
        d.depth_read_only = (!has_d || ds->depth_read_only) && (!has_s || ds->stencil_read_only);
        clears[n].depthStencil = (VkClearDepthStencilValue){ ds->depth_clear_value, ds->stencil_clear_value };
        views[n++] = EG_VK_PRIV(eg_vk_view_t, ds->view)->view;
    }
    VkRenderPass rp = eg_vk_render_pass_get(dev, &d);
    if (!rp) return EG_STATUS_OUT_OF_MEMORY;
    VkFramebuffer fb = eg_vk_framebuffer_get(dev, rp, views, n, b->width_px, b->height_px);
    if (!fb) return EG_STATUS_OUT_OF_MEMORY;
    VkRenderPassBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .renderPass = rp,
                                 .framebuffer = fb, .renderArea = { { 0, 0 }, { b->width_px, b->height_px } },
                                 .clearValueCount = n, .pClearValues = clears };
    eg_vk.vkCmdBeginRenderPass(s->cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
    /* WebGPU's defaults at pass start: full viewport and scissor, zero blend constant and
     * stencil reference. */
    s->rt_width = b->width_px;
    s->rt_height = b->height_px;
    set_viewport(s, 0, 0, (float)b->width_px, (float)b->height_px, 0.0f, 1.0f);
    VkRect2D sc = { { 0, 0 }, { b->width_px, b->height_px } };
    eg_vk.vkCmdSetScissor(s->cb, 0, 1, &sc);
    static const float zero[4] = { 0, 0, 0, 0 };
    eg_vk.vkCmdSetBlendConstants(s->cb, zero);
    eg_vk.vkCmdSetStencilReference(s->cb, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
    s->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
    return EG_STATUS_OK;
}

/* WebGPU: storeOp Discard leaves the attachment's contents zero. With a resolve target the
 * attachment is DONT_CARE in the pass, so it is cleared here, leaving and returning to the
 * COLOR_ATTACHMENT_OPTIMAL layout the tracker counts on. */
static void zero_discarded_resolved(rec_state_t *s)
{
    for (uint32_t i = 0; i < s->discard_resolved_count; i++) {
        const eg_texture_view_t *v = s->discard_resolved[i];
        VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, v->base_mip_level, 1, v->base_array_layer, 1 };
        VkImageMemoryBarrier b = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
            .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = EG_VK_PRIV(eg_vk_texture_t, v->texture)->image, .subresourceRange = range };
        eg_vk.vkCmdPipelineBarrier(s->cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                   0, 0, NULL, 0, NULL, 1, &b);
        VkClearColorValue zero;
        eg_memset(&zero, 0, sizeof zero);
        eg_vk.vkCmdClearColorImage(s->cb, b.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
        b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        eg_vk.vkCmdPipelineBarrier(s->cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                   0, 0, NULL, 0, NULL, 1, &b);
    }
    s->discard_resolved_count = 0;
}

static void end_render_pass(rec_state_t *s)
{
    VkClearAttachment ca[EG_CMD_MAX_COLOR_ATTACHMENTS + 1];
    uint32_t n = 0;
    for (uint32_t i = 0; i < EG_CMD_MAX_COLOR_ATTACHMENTS; i++)
        if (s->discard_colors & (1u << i)) {
            ca[n] = (VkClearAttachment){ VK_IMAGE_ASPECT_COLOR_BIT, i, { .color = { .uint32 = { 0, 0, 0, 0 } } } };
            n++;
        }
    if (s->discard_ds) {
        ca[n] = (VkClearAttachment){ s->discard_ds, 0, { .depthStencil = { 0.0f, 0 } } };
        n++;
    }
    if (n) {
        VkClearRect r = { { { 0, 0 }, { s->rt_width, s->rt_height } }, 0, 1 };
        eg_vk.vkCmdClearAttachments(s->cb, n, ca, 1, &r);
    }
    eg_vk.vkCmdEndRenderPass(s->cb);
    zero_discarded_resolved(s);
}

static void set_pipeline(rec_state_t *s, const eg_cmd_set_pipeline_t *p, bool compute)
{
    const eg_vk_pipeline_t *vp;
    const eg_pipeline_layout_t *pl;
    if (compute) {
        const eg_compute_pipeline_t *cp = p->pipeline;
        vp = EG_VK_PRIV(const eg_vk_pipeline_t, cp);
        pl = cp->layout;
    } else {
        const eg_render_pipeline_t *rp = p->pipeline;
        vp = EG_VK_PRIV(const eg_vk_pipeline_t, rp);
        pl = rp->layout;
    }
    s->bind_point = compute ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS;
    eg_vk.vkCmdBindPipeline(s->cb, s->bind_point, vp->pipeline);
    s->layout = vp->layout;
    s->layout_groups = pl ? pl->group_count : 0;
    s->dirty = ~0u;
}

static void set_buffer(rec_state_t *s, const eg_cmd_set_buffer_t *b, bool index)
{
    if (!b->buffer) return;
    VkBuffer vb = EG_VK_PRIV(eg_vk_buffer_t, b->buffer)->buffer;
    if (index) {
        eg_vk.vkCmdBindIndexBuffer(s->cb, vb, b->offset_B, b->index_format == WGPUIndexFormat_Uint32
                                                                ? VK_INDEX_TYPE_UINT32 : VK_INDEX_TYPE_UINT16);
    } else {
        VkDeviceSize off = b->offset_B;
        eg_vk.vkCmdBindVertexBuffers(s->cb, b->slot, 1, &vb, &off);
    }
}

static void draw(rec_state_t *s, const eg_cmd_header_t *h)
{
    flush_groups(s);
    const eg_cmd_draw_t *d = (const void *)h;
    const eg_cmd_indirect_t *ind = (const void *)h;
    switch (h->op) {
    case EG_CMD_DRAW: eg_vk.vkCmdDraw(s->cb, d->count, d->instance_count, d->first, d->first_instance); break;
    case EG_CMD_DRAW_INDEXED:
        eg_vk.vkCmdDrawIndexed(s->cb, d->count, d->instance_count, d->first, d->base_vertex, d->first_instance);
        break;
    case EG_CMD_DRAW_INDIRECT:
        eg_vk.vkCmdDrawIndirect(s->cb, EG_VK_PRIV(eg_vk_buffer_t, ind->buffer)->buffer, ind->offset_B, 1, 0);
        break;
    case EG_CMD_DRAW_INDEXED_INDIRECT:
        eg_vk.vkCmdDrawIndexedIndirect(s->cb, EG_VK_PRIV(eg_vk_buffer_t, ind->buffer)->buffer, ind->offset_B, 1, 0);
        break;
    case EG_CMD_DISPATCH: {
        const eg_cmd_dispatch_t *x = (const void *)h;
        eg_vk.vkCmdDispatch(s->cb, x->x, x->y, x->z);
        break;
    }
    default:
        eg_vk.vkCmdDispatchIndirect(s->cb, EG_VK_PRIV(eg_vk_buffer_t, ind->buffer)->buffer, ind->offset_B);
        break;
    }
}

/* WebGPU debug groups and markers as VK_EXT_debug_utils labels (seen by validation messages and
 * capture tools) when the instance enabled the extension; nothing otherwise. The kernel has
 * checked that groups balance inside each pass and each command buffer, as Vulkan requires. */
static void debug_label(rec_state_t *s, const eg_cmd_header_t *h)
{
    if (!eg_vk_debug_utils_enabled()) return;
    const eg_cmd_debug_t *d = (const void *)h;
    VkDebugUtilsLabelEXT l = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = d->label };
    if (h->op == EG_CMD_PUSH_DEBUG_GROUP) eg_vk.vkCmdBeginDebugUtilsLabelEXT(s->cb, &l);
    else if (h->op == EG_CMD_POP_DEBUG_GROUP) eg_vk.vkCmdEndDebugUtilsLabelEXT(s->cb);
    else eg_vk.vkCmdInsertDebugUtilsLabelEXT(s->cb, &l);
}

static eg_status_t record_one(rec_state_t *s, const eg_cmd_header_t *h)
{
    switch ((eg_cmd_op_t)h->op) {
    case EG_CMD_BARRIER: eg_vk_record_barrier(s->dev, s->cb, (const void *)h); break;
    case EG_CMD_COPY_BUFFER_TO_BUFFER: {
        const eg_cmd_copy_b2b_t *c = (const void *)h;
        VkBufferCopy r = { c->src_offset_B, c->dst_offset_B, c->size_B };
        if (r.size) eg_vk.vkCmdCopyBuffer(s->cb, EG_VK_PRIV(eg_vk_buffer_t, c->src)->buffer,
                                          EG_VK_PRIV(eg_vk_buffer_t, c->dst)->buffer, 1, &r);
        break;
    }
    case EG_CMD_COPY_BUFFER_TO_TEXTURE: copy_bt(s, (const void *)h, true); break;
    case EG_CMD_COPY_TEXTURE_TO_BUFFER: copy_bt(s, (const void *)h, false); break;
    case EG_CMD_COPY_TEXTURE_TO_TEXTURE: copy_t2t(s, (const void *)h); break;
    case EG_CMD_CLEAR_BUFFER: {
        const eg_cmd_clear_buffer_t *c = (const void *)h;
        if (c->size_B) eg_vk.vkCmdFillBuffer(s->cb, EG_VK_PRIV(eg_vk_buffer_t, c->buffer)->buffer, c->offset_B,
                                             c->size_B, 0);
        break;
    }
    case EG_CMD_BEGIN_RENDER_PASS: return begin_render_pass(s, (const void *)h);
    case EG_CMD_END_RENDER_PASS: end_render_pass(s); break;
    case EG_CMD_BEGIN_COMPUTE_PASS: s->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE; break;
    case EG_CMD_END_COMPUTE_PASS: break;
    case EG_CMD_SET_RENDER_PIPELINE: set_pipeline(s, (const void *)h, false); break;
    case EG_CMD_SET_COMPUTE_PIPELINE: set_pipeline(s, (const void *)h, true); break;
    case EG_CMD_SET_BIND_GROUP: {
        const eg_cmd_set_bind_group_t *g = (const void *)h;
        if (g->index < EMGPU_MAX_BIND_GROUPS_PER_LAYOUT) {
            s->groups[g->index] = g;
            s->dirty |= 1u << g->index;
        }
        break;
    }
    case EG_CMD_SET_VERTEX_BUFFER: set_buffer(s, (const void *)h, false); break;
    case EG_CMD_SET_INDEX_BUFFER: set_buffer(s, (const void *)h, true); break;
    case EG_CMD_SET_VIEWPORT: {
        const eg_cmd_set_viewport_t *v = (const void *)h;
        set_viewport(s, v->x, v->y, v->width, v->height, v->min_depth, v->max_depth);
        break;
    }
    case EG_CMD_SET_SCISSOR_RECT: {
        const eg_cmd_set_scissor_t *r = (const void *)h;
        VkRect2D sc = { { (int32_t)r->x, (int32_t)r->y }, { r->width, r->height } };
        eg_vk.vkCmdSetScissor(s->cb, 0, 1, &sc);
        break;
    }
    case EG_CMD_SET_BLEND_CONSTANT: {
        const eg_cmd_set_blend_constant_t *b = (const void *)h;
        float c[4] = { (float)b->color.r, (float)b->color.g, (float)b->color.b, (float)b->color.a };
        eg_vk.vkCmdSetBlendConstants(s->cb, c);
        break;
    }
    case EG_CMD_SET_STENCIL_REFERENCE:
        eg_vk.vkCmdSetStencilReference(s->cb, VK_STENCIL_FACE_FRONT_AND_BACK,
                                       ((const eg_cmd_set_stencil_ref_t *)(const void *)h)->reference);
        break;
    case EG_CMD_DRAW: case EG_CMD_DRAW_INDEXED: case EG_CMD_DRAW_INDIRECT: case EG_CMD_DRAW_INDEXED_INDIRECT:
    case EG_CMD_DISPATCH: case EG_CMD_DISPATCH_INDIRECT:
        draw(s, h);
        break;
    case EG_CMD_PUSH_DEBUG_GROUP: case EG_CMD_POP_DEBUG_GROUP: case EG_CMD_INSERT_DEBUG_MARKER:
        debug_label(s, h);
        break;
    default: break;
    }
    return EG_STATUS_OK;
}

void eg_vk_record_barriers_only(eg_hal_device_t *dev, VkCommandBuffer cb, const struct eg_cmd_stream *stream)
{
    for (const eg_cmd_header_t *h = eg_cmd_first(stream); h; h = eg_cmd_next(stream, h))
        if (h->op == EG_CMD_BARRIER) eg_vk_record_barrier(dev, cb, (const void *)h);
}

eg_status_t eg_vk_record_stream(eg_hal_device_t *dev, VkCommandBuffer cb, const struct eg_cmd_stream *stream)
{
    rec_state_t s;
    eg_memset(&s, 0, sizeof s);
    s.dev = dev;
    s.cb = cb;
    s.bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
    for (const eg_cmd_header_t *h = eg_cmd_first(stream); h; h = eg_cmd_next(stream, h)) {
        eg_status_t st = record_one(&s, h);
        if (st != EG_STATUS_OK) return st;
    }
    return EG_STATUS_OK;
}

#endif /* EMGPU_HAL_VULKAN */
