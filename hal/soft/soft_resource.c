/* hal/soft buffers and textures: heap storage, the linear texture layout, queue writes. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_internal.h"
#include "hal/soft/soft_bin_band.h"
#include "kernel/api/device.h"

/* ---- texture layout (documented in soft_internal.h) ---- */

uint32_t eg_soft_plane_of(const eg_texture_t *tex, WGPUTextureAspect aspect)
{
    return (aspect == WGPUTextureAspect_StencilOnly &&
            tex->fi->aspects == (EG_ASPECT_DEPTH | EG_ASPECT_STENCIL)) ? 1u : 0u;
}

static uint32_t plane_block_B(const eg_format_info_t *fi, uint32_t plane)
{
    if (plane == 1 || fi->aspects == EG_ASPECT_STENCIL) return 1;
    if (fi->aspects & EG_ASPECT_DEPTH) return fi->format == WGPUTextureFormat_Depth16Unorm ? 2u : 4u;
    return fi->block_B;
}

uint32_t eg_soft_block_B(const eg_texture_t *tex, WGPUTextureAspect aspect)
{
    return plane_block_B(tex->fi, eg_soft_plane_of(tex, aspect));
}

/* Bytes of one mip level (all layers / z slices) of one plane; fills *sub's pitches. */
static uint64_t mip_layout(const eg_texture_t *tex, uint32_t plane, uint32_t mip, eg_soft_subres_t *sub)
{
    const eg_format_info_t *fi = tex->fi;
    WGPUExtent3D e = eg_format_mip_extent(tex->dimension, tex->size, mip);
    sub->block_B = plane_block_B(fi, plane);
    sub->element_B = sub->block_B * tex->sample_count;
    sub->width_el = eg_format_width_el(fi, e.width);
    sub->height_el = eg_format_height_el(fi, e.height);
    sub->layers = tex->dimension == WGPUTextureDimension_3D ? e.depthOrArrayLayers
                                                           : tex->size.depthOrArrayLayers;
    sub->row_pitch_B = sub->width_el * sub->element_B;
    sub->slice_pitch_B = sub->row_pitch_B * sub->height_el;
    return (uint64_t)sub->slice_pitch_B * sub->layers;
}

static uint64_t plane_bytes(const eg_texture_t *tex, uint32_t plane)
{
    eg_soft_subres_t sub;
    uint64_t total = 0;
    for (uint32_t m = 0; m < tex->mip_level_count; m++) total += mip_layout(tex, plane, m, &sub);
    return total;
}

uint64_t eg_soft_texture_bytes(const eg_texture_t *tex, uint32_t *plane1_offset_B)
{
    uint64_t p0 = plane_bytes(tex, 0);
    bool two = tex->fi->aspects == (EG_ASPECT_DEPTH | EG_ASPECT_STENCIL);
    uint64_t p0_aligned = (p0 + 15u) & ~(uint64_t)15u;
    if (plane1_offset_B) *plane1_offset_B = two ? (uint32_t)p0_aligned : 0u;
    return two ? p0_aligned + plane_bytes(tex, 1) : p0;
}

void eg_soft_subresource(const eg_texture_t *tex, WGPUTextureAspect aspect, uint32_t mip,
                         eg_soft_subres_t *out)
{
    uint32_t plane = eg_soft_plane_of(tex, aspect);
    const eg_soft_texture_t *st = eg_soft_texture(tex);
    uint64_t off = plane ? st->plane1_offset_B : 0u;
    for (uint32_t m = 0; m < mip; m++) off += mip_layout(tex, plane, m, out);
    mip_layout(tex, plane, mip, out);
    out->base = st->mem + (size_t)off;
}

uint8_t *eg_soft_texel_addr(const eg_texture_t *tex, WGPUTextureAspect aspect, uint32_t mip,
                            uint32_t layer_or_z, uint32_t x_el, uint32_t y_el)
{
    eg_soft_subres_t s;
    eg_soft_subresource(tex, aspect, mip, &s);
    EG_DEBUG_ASSERT(layer_or_z < s.layers && x_el < s.width_el && y_el < s.height_el);
    return s.base + (size_t)layer_or_z * s.slice_pitch_B + (size_t)y_el * s.row_pitch_B +
           (size_t)x_el * s.element_B;
}

/* ---- buffers ---- */

eg_status_t eg_soft_buffer_create(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    (void)dev;
    eg_soft_buffer_t *sb = eg_soft_buffer(buf);
    sb->mem = NULL;
    if (buf->size_B == 0) return EG_STATUS_OK;
    if (buf->size_B > (uint64_t)EMGPU_SOFT_HEAP_BYTES) return EG_STATUS_OUT_OF_MEMORY;
    sb->mem = eg_soft_heap_alloc((size_t)buf->size_B);
    return sb->mem ? EG_STATUS_OK : EG_STATUS_OUT_OF_MEMORY;
}

void eg_soft_buffer_destroy(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    (void)dev;
    eg_soft_buffer_t *sb = eg_soft_buffer(buf);
    eg_soft_heap_free(sb->mem);
    sb->mem = NULL;
}

/* Soft memory is the CPU's: a map is a pointer into the buffer. A zero-size buffer maps to a
 * non-NULL address that must never be dereferenced (GetMappedRange of 0 bytes). */
void *eg_soft_buffer_map(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B, uint64_t size_B,
                         bool for_write)
{
    static uint8_t empty[16];
    (void)dev; (void)size_B; (void)for_write;
    uint8_t *mem = eg_soft_buffer_mem(buf);
    return mem ? mem + (size_t)offset_B : empty;
}

void eg_soft_buffer_unmap(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    (void)dev; (void)buf;
}

/* ---- textures ---- */

eg_status_t eg_soft_texture_create(eg_hal_device_t *dev, eg_texture_t *tex)
{
    (void)dev;
    eg_soft_texture_t *st = eg_soft_texture(tex);
    uint32_t plane1 = 0;
    uint64_t bytes = eg_soft_texture_bytes(tex, &plane1);
    st->mem = NULL;
    if (bytes > (uint64_t)EMGPU_SOFT_HEAP_BYTES) return EG_STATUS_OUT_OF_MEMORY;
    st->mem = eg_soft_heap_alloc((size_t)bytes);
    if (!st->mem) return EG_STATUS_OUT_OF_MEMORY;
    st->plane1_offset_B = plane1;
    st->total_B = (uint32_t)bytes;
    return EG_STATUS_OK;
}

void eg_soft_texture_destroy(eg_hal_device_t *dev, eg_texture_t *tex)
{
    (void)dev;
    eg_soft_texture_t *st = eg_soft_texture(tex);
    eg_soft_discard_forget(tex);   /* a pending zero fill of a discarded plane (soft_exec.c) */
    eg_soft_band_release(tex);   /* a banded surface frame (soft_bin_band.h): frees its record */
    eg_soft_heap_free(st->mem);
    st->mem = NULL;
}

/* ---- queue writes: soft executes submissions synchronously, so a write is ordered simply by
 * happening now ---- */

eg_status_t eg_soft_queue_write_buffer(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                       const void *data, size_t size_B)
{
    (void)dev;
    if (size_B) eg_memcpy(eg_soft_buffer_mem(buf) + (size_t)offset_B, data, size_B);
    return EG_STATUS_OK;
}

eg_status_t eg_soft_queue_write_texture(eg_hal_device_t *dev, eg_texture_t *tex,
                                        const eg_texel_region_t *dst, const void *data,
                                        const eg_buffer_layout_t *layout)
{
    (void)dev;
    const eg_format_info_t *fi = tex->fi;
    eg_soft_discard_settle(tex);   /* a discarded plane reads zeros around the written region */
    eg_soft_subres_t s;
    eg_soft_subresource(tex, dst->aspect, dst->mip_level, &s);
    uint32_t x_el = dst->origin_x / fi->block_w_px, y_el = dst->origin_y / fi->block_h_px;
    uint32_t w_el = eg_format_width_el(fi, dst->width_px), h_el = eg_format_height_el(fi, dst->height_px);
    size_t row_B = (size_t)w_el * s.block_B;
    const uint8_t *src = (const uint8_t *)data + (size_t)layout->offset_B;
    for (uint32_t z = 0; z < dst->depth_or_layers; z++) {
        const uint8_t *img = src + (size_t)z * layout->bytes_per_row_B * layout->rows_per_image;
        uint8_t *out = s.base + (size_t)(dst->origin_z + z) * s.slice_pitch_B +
                       (size_t)y_el * s.row_pitch_B + (size_t)x_el * s.element_B;
        for (uint32_t r = 0; r < h_el; r++)
            eg_memcpy(out + (size_t)r * s.row_pitch_B, img + (size_t)r * layout->bytes_per_row_B, row_B);
    }
    return EG_STATUS_OK;
}

#endif /* EMGPU_HAL_SOFT */
