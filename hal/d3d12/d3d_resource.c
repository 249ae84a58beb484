/* hal/d3d12 resources: buffers (zeroed, mapped in place or via staging), textures (zeroed), views, samplers.
 *
 * Buffers: MapRead buffers live in the readback heap (state COPY_DEST for life), MapWrite buffers
 * in the upload heap (GENERIC_READ for life), both mapped once and zeroed with memset; every
 * other buffer is in a default heap and zeroed by copies from the device's zero buffer in the
 * upload list. Textures are zeroed in the upload list too (render targets and depth by
 * Clear*View through scratch descriptors, others by copies from the zero buffer) and then left in
 * COMMON, the state this backend gives the tracker's UNINITIALIZED, so the first transition keeps
 * the zeros.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "kernel/format/format.h"

/* A resource destroyed while the open upload list may still name it must not go before the
 * upload runs: execute it and drain (rare: create + destroy with no submit in between). */
static void settle_uploads(eg_hal_device_t *dev)
{
    if (eg_d3d_uploads_pending(dev)) eg_d3d_flush_and_wait(dev);
}

/* ---- buffers ---- */

eg_status_t eg_d3d_buffer_create(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    eg_d3d_buffer_t *b = EG_D3D_PRIV(eg_d3d_buffer_t, buf);
    dev->kdev = buf->obj.device;
    eg_memset(b, 0, sizeof *b);
    b->alloc.kind_block = UINT32_MAX;
    /* Constant buffer views cover multiples of 256 bytes, so every buffer is padded to that. */
    uint64_t size = EG_ALIGN_UP(buf->size_B ? buf->size_B : 4, (uint64_t)D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT);
    eg_d3d_mem_kind_t kind = (buf->usage & WGPUBufferUsage_MapRead) ? EG_D3D_MEM_READBACK
                           : (buf->usage & WGPUBufferUsage_MapWrite) ? EG_D3D_MEM_UPLOAD : EG_D3D_MEM_BUFFER;
    D3D12_RESOURCE_STATES state = kind == EG_D3D_MEM_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
                                : kind == EG_D3D_MEM_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ
                                                            : D3D12_RESOURCE_STATE_COMMON;
    D3D12_RESOURCE_DESC rd = { D3D12_RESOURCE_DIMENSION_BUFFER, 0, size, 1, 1, 1, DXGI_FORMAT_UNKNOWN, { 1, 0 },
                               D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
                               (buf->usage & WGPUBufferUsage_Storage) ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS
                                                                      : D3D12_RESOURCE_FLAG_NONE };
    eg_status_t st = eg_d3d_place(dev, kind, &rd, state, NULL, &b->res, &b->alloc);
    if (st != EG_STATUS_OK) return st;
    b->state = (uint32_t)state;
    if (kind != EG_D3D_MEM_BUFFER) {
        void *p = NULL;
        D3D12_RANGE none = { 0, 0 };
        HRESULT hr = EG_D3D_CALL("ID3D12Resource::Map", ID3D12Resource_Map(b->res, 0, kind == EG_D3D_MEM_UPLOAD ? &none
                                                                                          : NULL, &p));
        if (FAILED(hr)) {
            eg_d3d_buffer_destroy(dev, buf);
            return eg_d3d_check(dev, hr, "ID3D12Resource::Map");
        }
        b->host = p;
        eg_memset(b->host, 0, (size_t)size);
        return EG_STATUS_OK;
    }
    ID3D12GraphicsCommandList *cl = eg_d3d_upload_list(dev);
    if (!cl) {
        eg_d3d_buffer_destroy(dev, buf);
        return dev->lost ? EG_STATUS_DEVICE_LOST : EG_STATUS_OUT_OF_MEMORY;
    }
    eg_d3d_upload_op_t op = { .kind = EG_D3D_UP_BUFFER_ZERO, .obj = buf };
    eg_d3d_upload_record(dev, cl, &op);
    return EG_STATUS_OK;
}

void eg_d3d_buffer_zero_record(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_buffer_t *buf)
{
    eg_d3d_buffer_t *b = EG_D3D_PRIV(eg_d3d_buffer_t, buf);
    /* The placed size (eg_d3d_buffer_create pads to whole constant-buffer views). */
    uint64_t size = EG_ALIGN_UP(buf->size_B ? buf->size_B : 4, (uint64_t)D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT);
    eg_d3d_buffer_use(dev, cl, buf, D3D12_RESOURCE_STATE_COPY_DEST);
    for (uint64_t off = 0; off < size; off += EG_D3D_ZERO_BYTES)
        ID3D12GraphicsCommandList_CopyBufferRegion(cl, b->res, off, dev->zero, 0,
                                                   eg_min_u64(EG_D3D_ZERO_BYTES, size - off));
}

void eg_d3d_buffer_destroy(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    eg_d3d_buffer_t *b = EG_D3D_PRIV(eg_d3d_buffer_t, buf);
    settle_uploads(dev);
    if (b->staging_host) dev->chunks[b->staging_chunk_offset >> 24].pins--;
    b->staging_host = NULL;
    if (b->res) ID3D12Resource_Release(b->res);   /* a placed resource's release unmaps it */
    b->res = NULL;
    b->host = NULL;
    eg_d3d_memory_free(dev, &b->alloc);
}

/* The kernel maps only when the buffer's GPU work is complete; queue writes still waiting in the
 * upload list are not covered by that, so they are executed first. */
void *eg_d3d_buffer_map(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B, uint64_t size_B, bool for_write)
{
    static uint8_t empty[16];
    eg_d3d_buffer_t *b = EG_D3D_PRIV(eg_d3d_buffer_t, buf);
    (void)for_write;
    if (dev->lost || (eg_d3d_uploads_pending(dev) && eg_d3d_flush_and_wait(dev) != EG_STATUS_OK)) return NULL;
    if (buf->size_B == 0) return empty;
    if (b->host) return b->host + offset_B;
    /* A default-heap buffer (mappedAtCreation without map usage): a staging copy, written back
     * at unmap. */
    uint32_t chunk, off;
    uint8_t *host;
    if (size_B > EMGPU_D3D12_STAGING_CHUNK_BYTES ||
        eg_d3d_staging_alloc(dev, (uint32_t)size_B, 16, &chunk, &off, &host) != EG_STATUS_OK) {
        eg_d3d_knob_exhausted("staging for a mapped GPU-only buffer", "EMGPU_D3D12_STAGING_CHUNK_BYTES",
                              EMGPU_D3D12_STAGING_CHUNK_BYTES);
        return NULL;
    }
    eg_memset(host, 0, (size_t)size_B);
    dev->chunks[chunk].pins++;
    b->staging_host = host;
    b->staging_chunk_offset = chunk << 24 | off;
    return host;
}

void eg_d3d_buffer_unmap(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    eg_d3d_buffer_t *b = EG_D3D_PRIV(eg_d3d_buffer_t, buf);
    if (!b->staging_host) return;
    eg_d3d_chunk_t *c = &dev->chunks[b->staging_chunk_offset >> 24];
    ID3D12GraphicsCommandList *cl = eg_d3d_upload_list(dev);
    if (cl && buf->map_size_B) {
        eg_d3d_upload_op_t op = { .kind = EG_D3D_UP_BUFFER_COPY, .obj = buf, .src = c->buffer,
                                  .dst_offset_B = buf->map_offset_B,
                                  .src_offset_B = b->staging_chunk_offset & 0xFFFFFFu,
                                  .size_B = (uint32_t)buf->map_size_B };
        eg_d3d_upload_record(dev, cl, &op);
    }
    c->pins--;
    c->retire_value = eg_d3d_current_fence(dev);
    b->staging_host = NULL;
}

/* ---- textures ---- */

static bool is_target(const eg_texture_t *tex)
{
    /* Depth formats are always depth-stencil capable: zeroing them needs ClearDepthStencilView. */
    return (tex->usage & WGPUTextureUsage_RenderAttachment) || eg_format_is_depth_stencil(tex->fi);
}

/* Zeroes one color subresource that is not a render target by copies from the zero buffer. */
static void zero_by_copy(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_texture_t *tex, uint32_t mip,
                         uint32_t layer)
{
    const eg_format_info_t *fi = tex->fi;
    uint32_t w = eg_max_u32(tex->size.width >> mip, 1), h = eg_max_u32(tex->size.height >> mip, 1);
    uint32_t d = tex->dimension == WGPUTextureDimension_3D ? eg_max_u32(tex->size.depthOrArrayLayers >> mip, 1) : 1;
    uint32_t pitch = EG_ALIGN_UP(eg_format_width_el(fi, w) * fi->block_B, (uint32_t)D3D12_TEXTURE_DATA_PITCH_ALIGNMENT);
    uint32_t rows_per_copy = EG_D3D_ZERO_BYTES / pitch, h_el = eg_format_height_el(fi, h);
    for (uint32_t z = 0; z < d; z++) {
        for (uint32_t r = 0; rows_per_copy && r < h_el; r += rows_per_copy) {
            eg_texel_region_t reg = { mip, 0, r * fi->block_h_px, tex->dimension == WGPUTextureDimension_3D ? z : layer,
                                      w, eg_min_u32(rows_per_copy, h_el - r) * fi->block_h_px, 1,
                                      WGPUTextureAspect_All };
            if (reg.origin_y + reg.height_px > h) reg.height_px = h - reg.origin_y;
            eg_buffer_layout_t lay = { 0, pitch, rows_per_copy };
            eg_d3d_copy_buffer_texture(cl, dev->zero, tex, &lay, &reg, true);
        }
    }
}

/* Records the new texture's zero-fill into cl and leaves every subresource in COMMON. */
void eg_d3d_texture_init_record(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_texture_t *tex,
                                D3D12_RESOURCE_STATES init)
{
    eg_d3d_texture_t *t = EG_D3D_PRIV(eg_d3d_texture_t, tex);
    uint32_t layers = eg_texture_layer_count(tex);
    bool ds = eg_format_is_depth_stencil(tex->fi), is3d = tex->dimension == WGPUTextureDimension_3D;
    for (uint32_t m = 0; m < tex->mip_level_count; m++) {
        for (uint32_t l = 0; l < layers; l++) {
            if (!is_target(tex)) { zero_by_copy(dev, cl, tex, m, l); continue; }
            if (ds) {
                D3D12_DEPTH_STENCIL_VIEW_DESC dv;
                eg_memset(&dv, 0, sizeof dv);
                dv.Format = (DXGI_FORMAT)t->format;
                dv.ViewDimension = tex->sample_count > 1 ? D3D12_DSV_DIMENSION_TEXTURE2DMSARRAY : D3D12_DSV_DIMENSION_TEXTURE2DARRAY;
                if (tex->sample_count > 1) { dv.Texture2DMSArray.FirstArraySlice = l; dv.Texture2DMSArray.ArraySize = 1; }
                else { dv.Texture2DArray.MipSlice = m; dv.Texture2DArray.FirstArraySlice = l; dv.Texture2DArray.ArraySize = 1; }
                D3D12_CPU_DESCRIPTOR_HANDLE h = eg_d3d_desc_cpu(dev, EG_D3D_DESC_DSV, dev->scratch_dsv);
                ID3D12Device_CreateDepthStencilView(dev->device, t->res, &dv, h);
                ID3D12GraphicsCommandList_ClearDepthStencilView(cl, h, D3D12_CLEAR_FLAG_DEPTH |
                    (t->planes > 1 ? D3D12_CLEAR_FLAG_STENCIL : 0), 0.0f, 0, 0, NULL);
            } else {
                D3D12_RENDER_TARGET_VIEW_DESC rv;
                eg_memset(&rv, 0, sizeof rv);
                rv.Format = eg_d3d_format(tex->format);
                if (is3d) {
                    rv.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE3D;
                    rv.Texture3D.MipSlice = m;
                    rv.Texture3D.WSize = UINT_MAX;   /* every slice of the mip */
                } else if (tex->sample_count > 1) {
                    rv.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DMSARRAY;
                    rv.Texture2DMSArray.FirstArraySlice = l;
                    rv.Texture2DMSArray.ArraySize = 1;
                } else {
                    rv.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DARRAY;
                    rv.Texture2DArray.MipSlice = m;
                    rv.Texture2DArray.FirstArraySlice = l;
                    rv.Texture2DArray.ArraySize = 1;
                }
                static const FLOAT zero[4] = { 0, 0, 0, 0 };
                D3D12_CPU_DESCRIPTOR_HANDLE h = eg_d3d_desc_cpu(dev, EG_D3D_DESC_RTV, dev->scratch_rtv[0]);
                ID3D12Device_CreateRenderTargetView(dev->device, t->res, &rv, h);
                ID3D12GraphicsCommandList_ClearRenderTargetView(cl, h, zero, 0, NULL);
            }
        }
    }
    eg_d3d_texture_barrier(cl, tex, init, D3D12_RESOURCE_STATE_COMMON, 0, tex->mip_level_count, 0, layers);
}

eg_status_t eg_d3d_texture_create(eg_hal_device_t *dev, eg_texture_t *tex)
{
    eg_d3d_texture_t *t = EG_D3D_PRIV(eg_d3d_texture_t, tex);
    dev->kdev = tex->obj.device;
    eg_memset(t, 0, sizeof *t);
    t->alloc.kind_block = UINT32_MAX;
    DXGI_FORMAT f = eg_d3d_format(tex->format);
    if (f == DXGI_FORMAT_UNKNOWN) return EG_STATUS_INTERNAL;
    bool ds = eg_format_is_depth_stencil(tex->fi);
    t->format = (uint32_t)f;
    t->planes = (f == DXGI_FORMAT_D24_UNORM_S8_UINT || f == DXGI_FORMAT_D32_FLOAT_S8X24_UINT) ? 2 : 1;
    D3D12_RESOURCE_DESC rd;
    eg_memset(&rd, 0, sizeof rd);
    rd.Dimension = tex->dimension == WGPUTextureDimension_3D ? D3D12_RESOURCE_DIMENSION_TEXTURE3D
                 : tex->dimension == WGPUTextureDimension_1D ? D3D12_RESOURCE_DIMENSION_TEXTURE1D
                                                             : D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    rd.Width = tex->size.width;
    rd.Height = tex->size.height;
    rd.DepthOrArraySize = (UINT16)tex->size.depthOrArrayLayers;
    rd.MipLevels = (UINT16)tex->mip_level_count;
    /* Typeless where one resource needs differently typed views (depth: DSV + SRV; sRGB twins). */
    rd.Format = (ds || tex->view_srgb_pair != WGPUTextureFormat_Undefined) ? eg_d3d_typeless(f) : f;
    rd.SampleDesc.Count = tex->sample_count;
    rd.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    if (ds) rd.Flags |= D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    else if (tex->usage & WGPUTextureUsage_RenderAttachment) rd.Flags |= D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    if (tex->usage & WGPUTextureUsage_StorageBinding) rd.Flags |= D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    D3D12_RESOURCE_STATES init = !is_target(tex) ? D3D12_RESOURCE_STATE_COPY_DEST
                               : ds ? D3D12_RESOURCE_STATE_DEPTH_WRITE : D3D12_RESOURCE_STATE_RENDER_TARGET;
    eg_status_t st = eg_d3d_place(dev, is_target(tex) ? EG_D3D_MEM_TARGET : EG_D3D_MEM_TEXTURE, &rd, init, NULL,
                                  &t->res, &t->alloc);
    if (st != EG_STATUS_OK) return st;
    ID3D12GraphicsCommandList *cl = eg_d3d_upload_list(dev);
    if (!cl) {
        eg_d3d_texture_destroy(dev, tex);
        return dev->lost ? EG_STATUS_DEVICE_LOST : EG_STATUS_OUT_OF_MEMORY;
    }
    eg_d3d_upload_op_t op = { .kind = EG_D3D_UP_TEXTURE_INIT, .obj = tex, .state = (uint32_t)init };
    eg_d3d_upload_record(dev, cl, &op);
    return EG_STATUS_OK;
}

void eg_d3d_texture_destroy(eg_hal_device_t *dev, eg_texture_t *tex)
{
    eg_d3d_texture_t *t = EG_D3D_PRIV(eg_d3d_texture_t, tex);
    settle_uploads(dev);
    if (t->res) ID3D12Resource_Release(t->res);
    t->res = NULL;
    eg_d3d_memory_free(dev, &t->alloc);
}

#endif /* EMGPU_HAL_D3D12 */
