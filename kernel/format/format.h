/* Texture formats: one table of format facts and the image-layout math every backend shares.
 *
 * Facts (block size and extent, aspects, sample type, which usages and capabilities a format
 * has, its sRGB pair, its render-target byte cost) come from the WebGPU spec's "Texture Format
 * Capabilities" tables. They live in kernel/format/formats.csv, which
 * tools/gen_format_table.sh turns into format_table.c; never edit the generated file.
 *
 * Capabilities that a feature unlocks (rg11b10ufloat-renderable, bgra8unorm-storage,
 * float32-filterable, float32-blendable, texture-formats-tier1) are a second set of flags plus
 * the feature that grants them; eg_format_caps() folds them in for a device's feature bits.
 *
 * Units follow the style guide: _B bytes, _px texels, _el texel blocks.
 */
#ifndef EG_FORMAT_H
#define EG_FORMAT_H

#include <webgpu/webgpu.h>

#include "kernel/base/util.h"

/* WGPUTextureFormat_EmgpuRGB565Unorm lives in include/emgpu/emgpu.h (helper "core"); until that
 * header exists a placeholder value keeps the table buildable. TODO(#1): drop the placeholder
 * once emgpu.h defines the enum value. */
#if defined(__has_include)
#if __has_include(<emgpu/emgpu.h>)
#include <emgpu/emgpu.h>
#define EG_FORMAT_HAVE_EMGPU_H 1
#endif
#endif
#if defined(EG_FORMAT_HAVE_EMGPU_H)
#define EG_FORMAT_RGB565_VALUE WGPUTextureFormat_EmgpuRGB565Unorm
#else
#define EG_FORMAT_RGB565_VALUE ((WGPUTextureFormat)0x00060000)
#endif

/* Capability flags (eg_format_info_t.caps / .xcaps). */
enum {
    EG_FMT_RENDERABLE  = 1u << 0,   /* RENDER_ATTACHMENT (color), or any depth/stencil format */
    EG_FMT_BLENDABLE   = 1u << 1,
    EG_FMT_MULTISAMPLE = 1u << 2,   /* sampleCount 4 allowed */
    EG_FMT_RESOLVE     = 1u << 3,   /* may be a resolve target */
    EG_FMT_STORAGE     = 1u << 4,   /* STORAGE_BINDING write-only / read-only */
    EG_FMT_STORAGE_RW  = 1u << 5,   /* STORAGE_BINDING read-write */
    EG_FMT_FILTERABLE  = 1u << 6,   /* sample type "float" (not "unfilterable-float") */
    EG_FMT_DEPTH_COPY_DST = 1u << 7,/* depth aspect may be a copy destination (depth16unorm) */
};

/* Aspects present (eg_format_info_t.aspects). */
enum { EG_ASPECT_COLOR = 1u << 0, EG_ASPECT_DEPTH = 1u << 1, EG_ASPECT_STENCIL = 1u << 2 };

typedef struct eg_format_info {
    const char       *name;          /* webgpu.h spelling without the prefix: "RGBA8Unorm" */
    WGPUTextureFormat format;
    WGPUFeatureName   feature;       /* needed to use the format at all; 0 = core */
    WGPUFeatureName   xfeature[2];   /* xcaps[i] is granted by xfeature[i]; 0 = none */
    uint16_t          xcaps[2];
    uint8_t  block_B;                /* texel block copy footprint: color formats, or the depth
                                      * aspect of a depth format (0: depth not copyable) */
    uint8_t  block_w_px, block_h_px;
    uint8_t  aspects;                /* EG_ASPECT_* */
    uint8_t  components;             /* color channels (1..4); depth/stencil: 1 */
    uint8_t  rt_cost_B, rt_align_B;  /* render target pixel byte cost and alignment (spec table) */
    uint16_t caps;                   /* EG_FMT_* without any feature */
    WGPUTextureSampleType sample_type;   /* of the color or depth aspect; stencil is Uint */
    WGPUTextureFormat srgb_pair;     /* the view-compatible sRGB / linear twin, or Undefined */
    bool     srgb;
} eg_format_info_t;

/** The facts of a format, or NULL for Undefined and values that are not formats. */
const eg_format_info_t *eg_format_info(WGPUTextureFormat fmt);
/** caps, plus each xcaps[i] whose xfeature[i] the device has. features: enabled-feature bits
 *  (eg_device_info_t.features layout, kernel/api/features.h). */
uint32_t eg_format_caps(const eg_format_info_t *fi, uint64_t features);
/** True when the device's features allow the format (its `feature` column). */
bool eg_format_enabled(const eg_format_info_t *fi, uint64_t features);

/** False when the format is an emgpu extension format the adapter's driver lacks
 *  (eg_device_info_t.ext_formats_missing, EG_EXT_FORMAT_* bits). */
bool eg_format_on_adapter(const eg_format_info_t *fi, uint32_t ext_formats_missing);

static inline bool eg_format_is_depth_stencil(const eg_format_info_t *fi)
{
    return (fi->aspects & (EG_ASPECT_DEPTH | EG_ASPECT_STENCIL)) != 0;
}
static inline bool eg_format_is_compressed(const eg_format_info_t *fi)
{
    return fi->block_w_px > 1 || fi->block_h_px > 1;
}
/** The aspects that `aspect` selects in a format (spec "aspect-specific format"); 0 when the
 *  format has none of them (DepthOnly on a color format). */
/** webgpu.h: an Undefined aspect means All (it is what WGPU_*_INIT macros set). */
static inline WGPUTextureAspect eg_format_resolve_aspect(WGPUTextureAspect a)
{
    return a == WGPUTextureAspect_Undefined ? WGPUTextureAspect_All : a;
}
uint32_t eg_format_aspects_selected(const eg_format_info_t *fi, WGPUTextureAspect aspect);
/** Spec "resolving GPUTextureAspect": the single-aspect format of `aspect` (Depth24PlusStencil8 +
 *  StencilOnly -> Stencil8), the format itself for All, Undefined when the aspect is absent. */
WGPUTextureFormat eg_format_aspect_format(WGPUTextureFormat fmt, WGPUTextureAspect aspect);
/** Copy footprint of one texel block of `aspect` (stencil: 1), 0 when that aspect cannot be
 *  copied (depth24plus). For color formats aspect must be All. */
uint32_t eg_format_copy_block_B(const eg_format_info_t *fi, WGPUTextureAspect aspect);

/* ---- extents and mip chains ---- */

/** Spec "maximum mipLevel count": 1 + floor(log2(max dimension)), where the dimensions are
 *  width (1D), width/height (2D), width/height/depth (3D). */
uint32_t eg_format_mip_chain_len(WGPUTextureDimension dim, WGPUExtent3D size);
/** Spec "logical miplevel-specific texture extent": each dimension >> mip, at least 1; the
 *  array layer count of 1D/2D textures is unchanged. */
WGPUExtent3D eg_format_mip_extent(WGPUTextureDimension dim, WGPUExtent3D size, uint32_t mip);
/** Spec "physical miplevel-specific texture extent": the logical extent rounded up to whole
 *  texel blocks (in texels). */
WGPUExtent3D eg_format_mip_extent_physical(const eg_format_info_t *fi, WGPUTextureDimension dim,
                                           WGPUExtent3D size, uint32_t mip);
/** Texels to blocks, rounding up. */
static inline uint32_t eg_format_width_el(const eg_format_info_t *fi, uint32_t w_px)
{
    return (w_px + fi->block_w_px - 1u) / fi->block_w_px;
}
static inline uint32_t eg_format_height_el(const eg_format_info_t *fi, uint32_t h_px)
{
    return (h_px + fi->block_h_px - 1u) / fi->block_h_px;
}

/* ---- linear texel data (buffers, WriteTexture) ---- */

/** Outcome of eg_format_linear_layout: which rule failed. */
typedef enum eg_linear_status {
    EG_LINEAR_OK = 0,
    EG_LINEAR_BYTES_PER_ROW_REQUIRED,  /* bytesPerRow undefined but heightInBlocks > 1 */
    EG_LINEAR_BYTES_PER_ROW_TOO_SMALL, /* bytesPerRow < bytesInLastRow */
    EG_LINEAR_ROWS_PER_IMAGE_REQUIRED, /* rowsPerImage undefined but depthOrArrayLayers > 1 */
    EG_LINEAR_ROWS_PER_IMAGE_TOO_SMALL,/* rowsPerImage < heightInBlocks */
    EG_LINEAR_OUT_OF_BOUNDS,           /* offset + requiredBytesInCopy > byteSize */
} eg_linear_status_t;

typedef struct eg_linear_layout {
    uint64_t required_B;          /* requiredBytesInCopy */
    uint32_t bytes_in_last_row_B; /* widthInBlocks * blockSize */
    uint32_t bytes_per_row_B;     /* resolved: bytesInLastRow when undefined */
    uint32_t rows_per_image;      /* resolved: heightInBlocks when undefined */
    uint32_t width_el, height_el;
} eg_linear_layout_t;

/** Spec "validating linear texture data": checks layout against a copy of copy_size texels of
 *  a format whose block is block_B bytes and block_w x block_h texels, in data of byte_size_B
 *  bytes. copy_size must be a whole number of blocks (the caller checks that rule first, it has
 *  its own error). Fills *out even on failure (for messages). */
eg_linear_status_t eg_format_linear_layout(uint32_t block_B, uint32_t block_w_px,
                                           uint32_t block_h_px, const WGPUTexelCopyBufferLayout *layout,
                                           uint64_t byte_size_B, WGPUExtent3D copy_size,
                                           eg_linear_layout_t *out);

#endif /* EG_FORMAT_H */
