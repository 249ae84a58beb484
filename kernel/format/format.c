/* Format lookups and image-layout math: mip chains, extents, linear texel data. */
#include "kernel/format/format.h"
#include "kernel/api/device_info.h"

#include "kernel/api/features.h"
#include "kernel/format/format_table.h"

const eg_format_info_t *eg_format_info(WGPUTextureFormat fmt)
{
    uint32_t v = (uint32_t)fmt;
    if (v >= 1u && v <= EG_FORMAT_STD_LAST) return &eg_format_table[v];
    if (fmt == EG_FORMAT_RGB565_VALUE) return &eg_format_table[EG_FORMAT_EXT_INDEX(EmgpuRGB565Unorm)];
    return NULL;
}

uint32_t eg_format_caps(const eg_format_info_t *fi, uint64_t features)
{
    uint32_t caps = fi->caps;
    for (uint32_t i = 0; i < 2; i++)
        if (fi->xfeature[i] && eg_features_has(features, fi->xfeature[i]))
            caps |= fi->xcaps[i];
    return caps;
}

bool eg_format_enabled(const eg_format_info_t *fi, uint64_t features)
{
    return fi->feature == 0 || eg_features_has(features, fi->feature);
}

bool eg_format_on_adapter(const eg_format_info_t *fi, uint32_t ext_formats_missing)
{
    return !(fi->format == EG_FORMAT_RGB565_VALUE && (ext_formats_missing & EG_EXT_FORMAT_RGB565));
}

uint32_t eg_format_aspects_selected(const eg_format_info_t *fi, WGPUTextureAspect aspect)
{
    switch (aspect) {
    case WGPUTextureAspect_All: return fi->aspects;
    case WGPUTextureAspect_DepthOnly: return fi->aspects & EG_ASPECT_DEPTH;
    case WGPUTextureAspect_StencilOnly: return fi->aspects & EG_ASPECT_STENCIL;
    default: return 0;
    }
}

WGPUTextureFormat eg_format_aspect_format(WGPUTextureFormat fmt, WGPUTextureAspect aspect)
{
    const eg_format_info_t *fi = eg_format_info(fmt);
    if (!fi) return WGPUTextureFormat_Undefined;
    uint32_t sel = eg_format_aspects_selected(fi, aspect);
    if (sel == 0) return WGPUTextureFormat_Undefined;
    if (aspect == WGPUTextureAspect_All) return fmt;
    if (sel == EG_ASPECT_STENCIL) return WGPUTextureFormat_Stencil8;
    switch (fmt) {   /* depth aspect of a combined format */
    case WGPUTextureFormat_Depth24PlusStencil8: return WGPUTextureFormat_Depth24Plus;
    case WGPUTextureFormat_Depth32FloatStencil8: return WGPUTextureFormat_Depth32Float;
    default: return fmt;
    }
}

uint32_t eg_format_copy_block_B(const eg_format_info_t *fi, WGPUTextureAspect aspect)
{
    uint32_t sel = eg_format_aspects_selected(fi, aspect);
    if (sel == EG_ASPECT_STENCIL) return 1;
    if (sel == EG_ASPECT_DEPTH || sel == EG_ASPECT_COLOR) return fi->block_B;
    return 0;   /* both aspects of a depth-stencil format at once: not copyable */
}

uint32_t eg_format_mip_chain_len(WGPUTextureDimension dim, WGPUExtent3D size)
{
    uint32_t m = size.width;
    if (dim != WGPUTextureDimension_1D) m = eg_max_u32(m, size.height);
    if (dim == WGPUTextureDimension_3D) m = eg_max_u32(m, size.depthOrArrayLayers);
    return m ? eg_log2_floor_u32(m) + 1u : 1u;
}

WGPUExtent3D eg_format_mip_extent(WGPUTextureDimension dim, WGPUExtent3D size, uint32_t mip)
{
    WGPUExtent3D e = size;
    e.width = eg_max_u32(size.width >> mip, 1u);
    if (dim == WGPUTextureDimension_1D) e.height = 1;
    else e.height = eg_max_u32(size.height >> mip, 1u);
    if (dim == WGPUTextureDimension_3D) e.depthOrArrayLayers = eg_max_u32(size.depthOrArrayLayers >> mip, 1u);
    else if (dim == WGPUTextureDimension_1D) e.depthOrArrayLayers = 1;
    return e;
}

WGPUExtent3D eg_format_mip_extent_physical(const eg_format_info_t *fi, WGPUTextureDimension dim,
                                           WGPUExtent3D size, uint32_t mip)
{
    WGPUExtent3D e = eg_format_mip_extent(dim, size, mip);
    e.width = eg_format_width_el(fi, e.width) * fi->block_w_px;
    e.height = eg_format_height_el(fi, e.height) * fi->block_h_px;
    return e;
}

/* Spec: "validating linear texture data" (GPUTexelCopyBufferLayout). All arithmetic in 64 bits:
 * bytesPerRow * rowsPerImage * depth overflows 32 bits for legal inputs. */
eg_linear_status_t eg_format_linear_layout(uint32_t block_B, uint32_t block_w_px,
                                           uint32_t block_h_px, const WGPUTexelCopyBufferLayout *layout,
                                           uint64_t byte_size_B, WGPUExtent3D copy_size,
                                           eg_linear_layout_t *out)
{
    uint32_t w_el = copy_size.width / block_w_px, h_el = copy_size.height / block_h_px;
    uint32_t depth = copy_size.depthOrArrayLayers;
    eg_memset(out, 0, sizeof *out);
    out->width_el = w_el;
    out->height_el = h_el;
    out->bytes_in_last_row_B = w_el * block_B;
    out->bytes_per_row_B = layout->bytesPerRow == WGPU_COPY_STRIDE_UNDEFINED
                               ? out->bytes_in_last_row_B : layout->bytesPerRow;
    out->rows_per_image = layout->rowsPerImage == WGPU_COPY_STRIDE_UNDEFINED
                              ? h_el : layout->rowsPerImage;
    if ((h_el > 1 || depth > 1) && layout->bytesPerRow == WGPU_COPY_STRIDE_UNDEFINED)
        return EG_LINEAR_BYTES_PER_ROW_REQUIRED;
    if (depth > 1 && layout->rowsPerImage == WGPU_COPY_STRIDE_UNDEFINED)
        return EG_LINEAR_ROWS_PER_IMAGE_REQUIRED;
    if (layout->bytesPerRow != WGPU_COPY_STRIDE_UNDEFINED && layout->bytesPerRow < out->bytes_in_last_row_B)
        return EG_LINEAR_BYTES_PER_ROW_TOO_SMALL;
    if (layout->rowsPerImage != WGPU_COPY_STRIDE_UNDEFINED && layout->rowsPerImage < h_el)
        return EG_LINEAR_ROWS_PER_IMAGE_TOO_SMALL;
    uint64_t req = 0, bpr = out->bytes_per_row_B, rpi = out->rows_per_image;
    if (depth > 0) {
        req += bpr * rpi * (depth - 1u);
        if (h_el > 0) req += bpr * (h_el - 1u) + out->bytes_in_last_row_B;
    }
    out->required_B = req;
    if (layout->offset > byte_size_B || req > byte_size_B - layout->offset)
        return EG_LINEAR_OUT_OF_BOUNDS;
    return EG_LINEAR_OK;
}
