/* hal/d3d12 command execution: a kernel command stream (kernel/cmd/cmd.h) recorded into an ID3D12GraphicsCommandList.
 *
 * The stream is validated and carries the tracker's transitions, so this is a translation with a
 * little state: the render pass in progress (for its end-of-pass resolves and discards).
 * Render passes use OMSetRenderTargets + Clear*View (available on every D3D12 device, unlike the
 * RenderPass API of ID3D12GraphicsCommandList4). WebGPU's storeOp Discard leaves zeros, so
 * discarded attachments are cleared to zero at the end of the pass (after any resolve).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "kernel/format/format.h"

typedef struct rec_state {
    eg_hal_device_t *dev;
    ID3D12GraphicsCommandList *cl;
    const eg_cmd_begin_render_pass_t *pass;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv[EG_CMD_MAX_COLOR_ATTACHMENTS], dsv;
    eg_d3d_draw_state_t draw;        /* pipelines and bindings (d3d_record.c) */
} rec_state_t;

static void copy_b2b(rec_state_t *s, const eg_cmd_copy_b2b_t *c)
{
    eg_d3d_buffer_use(s->dev, s->cl, c->src, D3D12_RESOURCE_STATE_COPY_SOURCE);
    eg_d3d_buffer_use(s->dev, s->cl, c->dst, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12GraphicsCommandList_CopyBufferRegion(s->cl, EG_D3D_PRIV(eg_d3d_buffer_t, c->dst)->res, c->dst_offset_B,
                                               EG_D3D_PRIV(eg_d3d_buffer_t, c->src)->res, c->src_offset_B, c->size_B);
}

static void copy_bt(rec_state_t *s, const eg_cmd_copy_bt_t *c, bool to_texture)
{
    eg_d3d_buffer_use(s->dev, s->cl, c->buffer, to_texture ? D3D12_RESOURCE_STATE_COPY_SOURCE
                                                           : D3D12_RESOURCE_STATE_COPY_DEST);
    eg_d3d_copy_buffer_texture(s->cl, EG_D3D_PRIV(eg_d3d_buffer_t, c->buffer)->res, c->texture, &c->layout,
                               &c->region, to_texture);
}

static void copy_t2t(rec_state_t *s, const eg_cmd_copy_t2t_t *c)
{
    const eg_texel_region_t *sr = &c->src_region, *dr = &c->dst_region;
    bool s3d = c->src->dimension == WGPUTextureDimension_3D, d3d = c->dst->dimension == WGPUTextureDimension_3D;
    uint32_t planes = EG_D3D_PRIV(eg_d3d_texture_t, c->src)->planes;
    /* A depth+stencil copy (aspect All) copies each plane; otherwise the aspect's plane. */
    uint32_t p0 = sr->aspect == WGPUTextureAspect_StencilOnly && planes > 1 ? 1 : 0;
    uint32_t p1 = sr->aspect == WGPUTextureAspect_All ? planes : p0 + 1;
    /* Where the driver's plane-1 copies miss (probed, d3d_barrier.c), its plane-0 copy moves both
     * aspects: WebGPU copies depth-stencil textures whole, so plane 0 alone is the copy. */
    if (p0 == 0 && p1 > 1 && eg_d3d_stencil_via_plane0(c->src)) p1 = 1;
    uint32_t layers = s3d && d3d ? 1 : sr->depth_or_layers;
    for (uint32_t p = p0; p < p1; p++) {
        for (uint32_t i = 0; i < layers; i++) {
            D3D12_TEXTURE_COPY_LOCATION src, dst;
            eg_memset(&src, 0, sizeof src);
            eg_memset(&dst, 0, sizeof dst);
            src.pResource = EG_D3D_PRIV(eg_d3d_texture_t, c->src)->res;
            src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
            src.SubresourceIndex = eg_d3d_subresource(c->src, sr->mip_level, s3d ? 0 : sr->origin_z + i, p);
            dst.pResource = EG_D3D_PRIV(eg_d3d_texture_t, c->dst)->res;
            dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
            dst.SubresourceIndex = eg_d3d_subresource(c->dst, dr->mip_level, d3d ? 0 : dr->origin_z + i, p);
            uint32_t sz = s3d ? sr->origin_z + (d3d ? 0 : i) : 0;
            uint32_t depth = s3d && d3d ? sr->depth_or_layers : 1;
            D3D12_BOX box = { sr->origin_x, sr->origin_y, sz, sr->origin_x + sr->width_px,
                              sr->origin_y + sr->height_px, sz + depth };
            ID3D12GraphicsCommandList_CopyTextureRegion(s->cl, &dst, dr->origin_x, dr->origin_y,
                                                        d3d ? dr->origin_z + (s3d ? 0 : i) : 0, &src, &box);
        }
    }
}

static void clear_buffer(rec_state_t *s, const eg_cmd_clear_buffer_t *c)
{
    eg_d3d_buffer_use(s->dev, s->cl, c->buffer, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *res = EG_D3D_PRIV(eg_d3d_buffer_t, c->buffer)->res;
    for (uint64_t off = 0; off < c->size_B; off += EG_D3D_ZERO_BYTES)
        ID3D12GraphicsCommandList_CopyBufferRegion(s->cl, res, c->offset_B + off, s->dev->zero, 0,
                                                   eg_min_u64(EG_D3D_ZERO_BYTES, c->size_B - off));
}

/* ---- render passes ---- */

static void set_full_viewport(rec_state_t *s, uint32_t w, uint32_t h)
{
    D3D12_VIEWPORT vp = { 0.0f, 0.0f, (FLOAT)w, (FLOAT)h, 0.0f, 1.0f };
    D3D12_RECT sc = { 0, 0, (LONG)w, (LONG)h };
    ID3D12GraphicsCommandList_RSSetViewports(s->cl, 1, &vp);
    ID3D12GraphicsCommandList_RSSetScissorRects(s->cl, 1, &sc);
}

static void begin_render_pass(rec_state_t *s, const eg_cmd_begin_render_pass_t *p)
{
    s->pass = p;
    for (uint32_t i = 0; i < p->color_count; i++) {
        const eg_cmd_color_attachment_t *c = &p->color[i];
        if (!c->view) {
            /* A gap in sparse attachments: a null descriptor (writes to it are discarded). */
            D3D12_RENDER_TARGET_VIEW_DESC nd;
            eg_memset(&nd, 0, sizeof nd);
            nd.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
            nd.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2D;
            s->rtv[i] = eg_d3d_desc_cpu(s->dev, EG_D3D_DESC_RTV, s->dev->scratch_rtv[i]);
            ID3D12Device_CreateRenderTargetView(s->dev->device, NULL, &nd, s->rtv[i]);
            continue;
        }
        s->rtv[i] = eg_d3d_pass_rtv(s->dev, i, c->view, c->depth_slice);
        if (c->load_op == WGPULoadOp_Clear) {
            FLOAT v[4] = { (FLOAT)c->clear_value.r, (FLOAT)c->clear_value.g, (FLOAT)c->clear_value.b,
                           (FLOAT)c->clear_value.a };
            ID3D12GraphicsCommandList_ClearRenderTargetView(s->cl, s->rtv[i], v, 0, NULL);
        }
    }
    const eg_cmd_depth_stencil_attachment_t *ds = &p->depth_stencil;
    if (ds->view) {
        s->dsv = eg_d3d_pass_dsv(s->dev, ds->view, ds->depth_read_only, ds->stencil_read_only);
        D3D12_CLEAR_FLAGS f = 0;
        if (ds->depth_load_op == WGPULoadOp_Clear) f |= D3D12_CLEAR_FLAG_DEPTH;
        if (ds->stencil_load_op == WGPULoadOp_Clear && EG_D3D_PRIV(eg_d3d_texture_t, ds->view->texture)->planes > 1)
            f |= D3D12_CLEAR_FLAG_STENCIL;
        if (f) ID3D12GraphicsCommandList_ClearDepthStencilView(s->cl, s->dsv, f, ds->depth_clear_value,
                                                               (UINT8)ds->stencil_clear_value, 0, NULL);
    }
    ID3D12GraphicsCommandList_OMSetRenderTargets(s->cl, p->color_count, s->rtv, FALSE, ds->view ? &s->dsv : NULL);
    set_full_viewport(s, p->width_px, p->height_px);
}

static void resolve(rec_state_t *s, const eg_cmd_color_attachment_t *c)
{
    eg_texture_t *src = c->view->texture, *dst = c->resolve_target->texture;
    uint32_t sl = c->view->base_array_layer, dl = c->resolve_target->base_array_layer;
    uint32_t dm = c->resolve_target->base_mip_level;
    eg_d3d_texture_barrier(s->cl, src, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, 0, 1, sl, 1);
    eg_d3d_texture_barrier(s->cl, dst, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_DEST, dm, 1, dl, 1);
    ID3D12GraphicsCommandList_ResolveSubresource(s->cl, EG_D3D_PRIV(eg_d3d_texture_t, dst)->res,
                                                 eg_d3d_subresource(dst, dm, dl, 0),
                                                 EG_D3D_PRIV(eg_d3d_texture_t, src)->res,
                                                 eg_d3d_subresource(src, 0, sl, 0), eg_d3d_format(c->view->format));
    eg_d3d_texture_barrier(s->cl, src, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET, 0, 1, sl, 1);
    eg_d3d_texture_barrier(s->cl, dst, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_RENDER_TARGET, dm, 1, dl, 1);
}

static void end_render_pass(rec_state_t *s)
{
    const eg_cmd_begin_render_pass_t *p = s->pass;
    static const FLOAT zero[4] = { 0, 0, 0, 0 };
    if (!p) return;
    for (uint32_t i = 0; i < p->color_count; i++) {
        const eg_cmd_color_attachment_t *c = &p->color[i];
        if (!c->view) continue;
        if (c->resolve_target) resolve(s, c);
        if (c->store_op == WGPUStoreOp_Discard) ID3D12GraphicsCommandList_ClearRenderTargetView(s->cl, s->rtv[i], zero, 0, NULL);
    }
    const eg_cmd_depth_stencil_attachment_t *ds = &p->depth_stencil;
    if (ds->view) {
        D3D12_CLEAR_FLAGS f = 0;
        if (ds->depth_store_op == WGPUStoreOp_Discard && !ds->depth_read_only &&
            (ds->view->texture->fi->aspects & EG_ASPECT_DEPTH))
            f |= D3D12_CLEAR_FLAG_DEPTH;
        if (ds->stencil_store_op == WGPUStoreOp_Discard && !ds->stencil_read_only &&
            EG_D3D_PRIV(eg_d3d_texture_t, ds->view->texture)->planes > 1)
            f |= D3D12_CLEAR_FLAG_STENCIL;
        if (f) ID3D12GraphicsCommandList_ClearDepthStencilView(s->cl, s->dsv, f, 0.0f, 0, 0, NULL);
    }
    s->pass = NULL;
}

static eg_status_t record_one(rec_state_t *s, const eg_cmd_header_t *h)
{
    switch ((eg_cmd_op_t)h->op) {
    case EG_CMD_BARRIER: eg_d3d_record_barrier(s->dev, s->cl, (const void *)h); break;
    case EG_CMD_COPY_BUFFER_TO_BUFFER: copy_b2b(s, (const void *)h); break;
    case EG_CMD_COPY_BUFFER_TO_TEXTURE: copy_bt(s, (const void *)h, true); break;
    case EG_CMD_COPY_TEXTURE_TO_BUFFER: copy_bt(s, (const void *)h, false); break;
    case EG_CMD_COPY_TEXTURE_TO_TEXTURE: copy_t2t(s, (const void *)h); break;
    case EG_CMD_CLEAR_BUFFER: clear_buffer(s, (const void *)h); break;
    case EG_CMD_BEGIN_RENDER_PASS:
        eg_d3d_draw_state_reset(&s->draw);
        begin_render_pass(s, (const void *)h);
        break;
    case EG_CMD_END_RENDER_PASS: end_render_pass(s); break;
    case EG_CMD_BEGIN_COMPUTE_PASS: eg_d3d_draw_state_reset(&s->draw); break;
    case EG_CMD_END_COMPUTE_PASS: break;
    case EG_CMD_SET_VIEWPORT: {
        const eg_cmd_set_viewport_t *v = (const void *)h;
        D3D12_VIEWPORT vp = { v->x, v->y, v->width, v->height, v->min_depth, v->max_depth };
        ID3D12GraphicsCommandList_RSSetViewports(s->cl, 1, &vp);
        break;
    }
    case EG_CMD_SET_SCISSOR_RECT: {
        const eg_cmd_set_scissor_t *r = (const void *)h;
        D3D12_RECT sc = { (LONG)r->x, (LONG)r->y, (LONG)(r->x + r->width), (LONG)(r->y + r->height) };
        ID3D12GraphicsCommandList_RSSetScissorRects(s->cl, 1, &sc);
        break;
    }
    case EG_CMD_SET_BLEND_CONSTANT: {
        const eg_cmd_set_blend_constant_t *b = (const void *)h;
        FLOAT c[4] = { (FLOAT)b->color.r, (FLOAT)b->color.g, (FLOAT)b->color.b, (FLOAT)b->color.a };
        ID3D12GraphicsCommandList_OMSetBlendFactor(s->cl, c);
        break;
    }
    case EG_CMD_SET_STENCIL_REFERENCE:
        ID3D12GraphicsCommandList_OMSetStencilRef(s->cl, ((const eg_cmd_set_stencil_ref_t *)(const void *)h)->reference);
        break;
    case EG_CMD_PUSH_DEBUG_GROUP: case EG_CMD_POP_DEBUG_GROUP: case EG_CMD_INSERT_DEBUG_MARKER: break;
    default:
        /* Pipelines, bind groups, vertex/index buffers, draws and dispatches. */
        return eg_d3d_record_pipeline_cmd(s->dev, s->cl, &s->draw, h);
    }
    return EG_STATUS_OK;
}

eg_status_t eg_d3d_record_stream(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const struct eg_cmd_stream *str,
                                 bool barriers_only)
{
    rec_state_t s;
    eg_memset(&s, 0, sizeof s);
    s.dev = dev;
    s.cl = cl;
    for (const eg_cmd_header_t *h = eg_cmd_first(str); h; h = eg_cmd_next(str, h)) {
        if (barriers_only && h->op != EG_CMD_BARRIER) continue;
        eg_status_t st = record_one(&s, h);
        if (st != EG_STATUS_OK) return st;
    }
    return EG_STATUS_OK;
}

#endif /* EMGPU_HAL_D3D12 */
