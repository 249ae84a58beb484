/* hal/d3d12 barriers and copies: tracker transitions as resource barriers, buffer states, buffer<->texture copies.
 *
 * Textures: each tracker state maps to one D3D12 resource state (eg_d3d_texture_state), and a
 * transition becomes Transition barriers of exactly its subresources (every plane of a
 * depth+stencil resource). UNINITIALIZED is COMMON: textures are left there after their zero-fill.
 *
 * Buffers decay to COMMON at the end of every ExecuteCommandLists and are promoted from COMMON
 * implicitly by their first use, so the tracker's cross-submit view of a buffer cannot name the
 * D3D12 "before" state. Each buffer record keeps its state within the current execute epoch
 * instead; eg_d3d_buffer_use transitions from it (or lets promotion happen from COMMON), and is
 * called both for the tracker's transitions and at every use. A storage write followed by another
 * storage use gets a UAV barrier. Buffers in upload/readback heaps never change state.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/format/format.h"

#define SRV_STATES (D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE | D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE)

D3D12_RESOURCE_STATES eg_d3d_texture_state(uint16_t use, const eg_texture_t *tex)
{
    (void)tex;
    if (use & (EG_TRACK_TEX_STORAGE_WRITE | EG_TRACK_TEX_STORAGE_READ)) return D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    if (use & EG_TRACK_TEX_COPY_DST) return D3D12_RESOURCE_STATE_COPY_DEST;
    if (use & EG_TRACK_TEX_COLOR_TARGET) return D3D12_RESOURCE_STATE_RENDER_TARGET;
    if (use & EG_TRACK_TEX_DEPTH_STENCIL_WRITE) return D3D12_RESOURCE_STATE_DEPTH_WRITE;
    D3D12_RESOURCE_STATES s = D3D12_RESOURCE_STATE_COMMON;   /* NONE, UNINITIALIZED, PRESENT */
    if (use & EG_TRACK_TEX_COPY_SRC) s |= D3D12_RESOURCE_STATE_COPY_SOURCE;
    if (use & EG_TRACK_TEX_SAMPLED) s |= SRV_STATES;
    if (use & EG_TRACK_TEX_DEPTH_STENCIL_READ) s |= D3D12_RESOURCE_STATE_DEPTH_READ;
    return s;
}

static D3D12_RESOURCE_STATES buffer_state(uint16_t use)
{
    if (use & EG_TRACK_BUF_STORAGE_WRITE) return D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    if (use & (EG_TRACK_BUF_COPY_DST | EG_TRACK_BUF_QUERY_RESOLVE)) return D3D12_RESOURCE_STATE_COPY_DEST;
    D3D12_RESOURCE_STATES s = D3D12_RESOURCE_STATE_COMMON;
    if (use & EG_TRACK_BUF_COPY_SRC) s |= D3D12_RESOURCE_STATE_COPY_SOURCE;
    if (use & EG_TRACK_BUF_INDEX) s |= D3D12_RESOURCE_STATE_INDEX_BUFFER;
    if (use & (EG_TRACK_BUF_VERTEX | EG_TRACK_BUF_UNIFORM)) s |= D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER;
    if (use & EG_TRACK_BUF_STORAGE_READ) s |= SRV_STATES;
    if (use & EG_TRACK_BUF_INDIRECT) s |= D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT;
    return s;
}

static void uav_barrier(ID3D12GraphicsCommandList *cl, ID3D12Resource *res)
{
    D3D12_RESOURCE_BARRIER b;
    eg_memset(&b, 0, sizeof b);
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    b.UAV.pResource = res;
    ID3D12GraphicsCommandList_ResourceBarrier(cl, 1, &b);
}

void eg_d3d_buffer_use(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_buffer_t *buf,
                       D3D12_RESOURCE_STATES state)
{
    eg_d3d_buffer_t *b = EG_D3D_PRIV(eg_d3d_buffer_t, buf);
    if (b->host || !b->res) return;   /* upload / readback heap: one state for life */
    D3D12_RESOURCE_STATES cur = b->epoch == dev->exec_epoch ? (D3D12_RESOURCE_STATES)b->state
                                                            : D3D12_RESOURCE_STATE_COMMON;
    b->epoch = dev->exec_epoch;
    b->state = (uint32_t)state;
    if (cur == state) {
        if (state == D3D12_RESOURCE_STATE_UNORDERED_ACCESS) uav_barrier(cl, b->res);
        return;
    }
    if (cur == D3D12_RESOURCE_STATE_COMMON) return;   /* implicit promotion on first use */
    D3D12_RESOURCE_BARRIER rb;
    eg_memset(&rb, 0, sizeof rb);
    rb.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    rb.Transition.pResource = b->res;
    rb.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    rb.Transition.StateBefore = cur;
    rb.Transition.StateAfter = state;
    ID3D12GraphicsCommandList_ResourceBarrier(cl, 1, &rb);
}

#define BATCH 32

void eg_d3d_texture_barrier(ID3D12GraphicsCommandList *cl, eg_texture_t *tex, D3D12_RESOURCE_STATES from,
                            D3D12_RESOURCE_STATES to, uint32_t base_mip, uint32_t mips, uint32_t base_layer,
                            uint32_t layers)
{
    eg_d3d_texture_t *t = EG_D3D_PRIV(eg_d3d_texture_t, tex);
    if (from == to) {
        if (to == D3D12_RESOURCE_STATE_UNORDERED_ACCESS) uav_barrier(cl, t->res);
        return;
    }
    D3D12_RESOURCE_BARRIER b[BATCH];
    uint32_t n = 0;
    eg_memset(b, 0, sizeof b);
    bool all = base_mip == 0 && mips == tex->mip_level_count && base_layer == 0 && layers == eg_texture_layer_count(tex);
    for (uint32_t p = 0; p < t->planes; p++) {
        for (uint32_t l = base_layer; l < base_layer + layers; l++) {
            for (uint32_t m = base_mip; m < base_mip + mips; m++) {
                b[n].Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
                b[n].Transition.pResource = t->res;
                b[n].Transition.Subresource = all ? D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES
                                                  : eg_d3d_subresource(tex, m, l, p);
                b[n].Transition.StateBefore = from;
                b[n].Transition.StateAfter = to;
                if (++n == BATCH) { ID3D12GraphicsCommandList_ResourceBarrier(cl, n, b); n = 0; }
                if (all) goto flush;
            }
        }
    }
flush:
    if (n) ID3D12GraphicsCommandList_ResourceBarrier(cl, n, b);
}

void eg_d3d_record_barrier(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const eg_cmd_barrier_t *rec)
{
    const eg_track_transition_t *t = eg_cmd_barrier_items(rec);
    struct WGPUInstanceImpl *inst = dev->kdev->instance;
    for (uint32_t i = 0; i < rec->count; i++) {
        if (t[i].kind == EG_TRACK_KIND_BUFFER) {
            eg_buffer_t *buf = eg_pool_at(&inst->pools[EG_KIND_BUFFER], t[i].index);
            eg_d3d_buffer_use(dev, cl, buf, buffer_state(t[i].to_use));
        } else {
            eg_texture_t *tex = eg_pool_at(&inst->pools[EG_KIND_TEXTURE], t[i].index);
            eg_d3d_texture_barrier(cl, tex, eg_d3d_texture_state(t[i].from_use, tex),
                                   eg_d3d_texture_state(t[i].to_use, tex), t[i].range.base_mip, t[i].range.mip_count,
                                   t[i].range.base_layer, t[i].range.layer_count);
        }
    }
}

/* ---- buffer <-> texture copies ---- */

/* The placed-footprint format and plane of one aspect (the copy formats of planar depth). */
static DXGI_FORMAT footprint_format(const eg_texture_t *tex, WGPUTextureAspect aspect, uint32_t *plane)
{
    const eg_d3d_texture_t *t = EG_D3D_PRIV(const eg_d3d_texture_t, tex);
    bool stencil = aspect == WGPUTextureAspect_StencilOnly || !(tex->fi->aspects & (EG_ASPECT_DEPTH | EG_ASPECT_COLOR));
    *plane = stencil && t->planes > 1 ? 1 : 0;
    switch ((DXGI_FORMAT)t->format) {
    case DXGI_FORMAT_D16_UNORM: return DXGI_FORMAT_R16_TYPELESS;
    case DXGI_FORMAT_D32_FLOAT: return DXGI_FORMAT_R32_TYPELESS;
    case DXGI_FORMAT_D24_UNORM_S8_UINT: return stencil ? DXGI_FORMAT_R8_TYPELESS : DXGI_FORMAT_R24G8_TYPELESS;
    case DXGI_FORMAT_D32_FLOAT_S8X24_UINT: return stencil ? DXGI_FORMAT_R8_TYPELESS : DXGI_FORMAT_R32_TYPELESS;
    default: return eg_d3d_format(tex->format);
    }
}

/* A placed footprint must start at a multiple of 512 bytes; WebGPU offsets need only be a
 * multiple of the texel block. So the footprint starts at the offset rounded down, and the copy
 * moves right inside it by the difference (a whole number of blocks: 512 is a multiple of every
 * block size). */
void eg_d3d_copy_buffer_texture(ID3D12GraphicsCommandList *cl, ID3D12Resource *buffer, eg_texture_t *tex,
                                const eg_buffer_layout_t *layout, const eg_texel_region_t *r, bool to_texture)
{
    const eg_format_info_t *fi = tex->fi;
    bool is3d = tex->dimension == WGPUTextureDimension_3D;
    uint32_t plane, block_B = eg_format_copy_block_B(fi, r->aspect);
    DXGI_FORMAT ff = footprint_format(tex, r->aspect, &plane);
    uint32_t images = is3d ? 1 : r->depth_or_layers;
    uint64_t image_B = (uint64_t)layout->bytes_per_row_B * layout->rows_per_image;
    for (uint32_t i = 0; i < images; i++) {
        uint64_t off = layout->offset_B + i * image_B;
        uint64_t base = off & ~(uint64_t)(D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT - 1);
        uint32_t shift_px = block_B ? (uint32_t)(off - base) / block_B * fi->block_w_px : 0;
        D3D12_TEXTURE_COPY_LOCATION buf_loc, tex_loc;
        eg_memset(&buf_loc, 0, sizeof buf_loc);
        buf_loc.pResource = buffer;
        buf_loc.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        buf_loc.PlacedFootprint.Offset = base;
        buf_loc.PlacedFootprint.Footprint.Format = ff;
        buf_loc.PlacedFootprint.Footprint.Width = shift_px + EG_ALIGN_UP(r->width_px, (uint32_t)fi->block_w_px);
        buf_loc.PlacedFootprint.Footprint.Height = eg_max_u32(EG_ALIGN_UP(r->height_px, (uint32_t)fi->block_h_px),
                                                              is3d ? layout->rows_per_image * fi->block_h_px : 0);
        buf_loc.PlacedFootprint.Footprint.Depth = is3d ? r->depth_or_layers : 1;
        /* A single row may come with any bytes_per_row; the pitch rule still applies to it. */
        buf_loc.PlacedFootprint.Footprint.RowPitch =
            EG_ALIGN_UP(eg_max_u32(layout->bytes_per_row_B, 1), (uint32_t)D3D12_TEXTURE_DATA_PITCH_ALIGNMENT);
        eg_memset(&tex_loc, 0, sizeof tex_loc);
        tex_loc.pResource = EG_D3D_PRIV(eg_d3d_texture_t, tex)->res;
        tex_loc.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        tex_loc.SubresourceIndex = eg_d3d_subresource(tex, r->mip_level, is3d ? 0 : r->origin_z + i, plane);
        uint32_t z = is3d ? r->origin_z : 0, d = is3d ? r->depth_or_layers : 1;
        uint32_t w = EG_ALIGN_UP(r->width_px, (uint32_t)fi->block_w_px), h = EG_ALIGN_UP(r->height_px, (uint32_t)fi->block_h_px);
        if (to_texture) {
            D3D12_BOX box = { shift_px, 0, 0, shift_px + w, h, d };
            ID3D12GraphicsCommandList_CopyTextureRegion(cl, &tex_loc, r->origin_x, r->origin_y, z, &buf_loc, &box);
        } else {
            D3D12_BOX box = { r->origin_x, r->origin_y, z, r->origin_x + w, r->origin_y + h, z + d };
            ID3D12GraphicsCommandList_CopyTextureRegion(cl, &buf_loc, shift_px, 0, 0, &tex_loc, &box);
        }
    }
}

#endif /* EMGPU_HAL_D3D12 */
