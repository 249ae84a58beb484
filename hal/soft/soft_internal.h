/* hal/soft internals shared by its files: the device, per-object state, and the memory layout
 * of buffers and textures that copies, render-pass load/store and sampling all use.
 *
 * MEMORY. Every buffer and texture lives in one static block of EMGPU_SOFT_HEAP_BYTES, carved by
 * kernel/base/range_alloc (EMGPU_SOFT_HEAP_BLOCKS records). Allocations are 16-byte aligned and
 * zero-filled. The heap is shared by all soft devices of the program.
 *
 * BUFFER LAYOUT. size_B bytes, contiguous at eg_soft_buffer_mem(buf).
 *
 * TEXTURE LAYOUT (linear, tightly packed, no tiling):
 *   - A texture has one or two PLANES. Color formats: plane 0. Depth formats: plane 0 = depth.
 *     Stencil8: plane 0 = stencil. Depth24PlusStencil8 / Depth32FloatStencil8: plane 0 = depth,
 *     plane 1 = stencil. eg_soft_plane_of(tex, aspect) picks the plane of an aspect.
 *   - Storage bytes per texel block and sample (eg_soft_block_B): the format's copy footprint for
 *     color (compressed formats: bytes per block), stencil 1, Depth16Unorm 2, every other depth
 *     4, stored as a float32 (Depth24Plus included: the spec lets "24plus" be more precise).
 *   - Multisampled textures store the sampleCount samples of one texel next to each other:
 *     element_B = block_B * sample_count. Sample s of texel (x, y) is at texel_addr + s * block_B.
 *   - Inside a plane, subresources are ordered mip-major: mip 0 layers 0..L-1, mip 1 layers
 *     0..L-1, ... L = array layers (1D/2D) or the mip's depth (3D: each z slice is a "layer").
 *   - A subresource (mip, layer_or_z) is height_el rows of row_pitch_B bytes;
 *     row_pitch_B = width_el * element_B (no padding), slice_pitch_B = row_pitch_B * height_el.
 *     width_el/height_el are the mip's extent in texel blocks (physical extent / block size).
 *   - A texel block (x_el, y_el) of (mip, layer_or_z) is at
 *       plane_base + mip_offset_B(mip) + layer_or_z * slice_pitch_B + y_el * row_pitch_B
 *       + x_el * element_B
 *     which is what eg_soft_texel_addr computes. For hot loops, take eg_soft_subresource() once
 *     and step by row_pitch_B / element_B.
 *   - Texel bytes are the WebGPU linear layout of the format (what WriteTexture copies in), so a
 *     copy between a buffer and a texture is a row-by-row memcpy.
 */
#ifndef EG_SOFT_INTERNAL_H
#define EG_SOFT_INTERNAL_H

#include "kernel/base/util.h"   /* before hal.h, which uses bool without <stdbool.h> */
#include "hal/hal.h"
#include "kernel/api/buffer.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/base/range_alloc.h"
#include "kernel/format/format.h"

/* ---- device ---- */

struct eg_hal_device {
    const eg_device_info_t *info;
    uint64_t completed_index;       /* soft executes in queue_submit: completed == submitted */
    bool     open;
};

/* ---- per-object state, kept in the object's eg_hal_priv_t ---- */

typedef struct eg_soft_buffer {
    uint8_t *mem;                   /* size_B bytes in the soft heap (NULL when size_B == 0) */
} eg_soft_buffer_t;

typedef struct eg_soft_texture {
    uint8_t *mem;                   /* all planes, one heap allocation */
    uint32_t plane1_offset_B;       /* start of the stencil plane of a depth+stencil format */
    uint32_t total_B;
} eg_soft_texture_t;

_Static_assert(sizeof(eg_soft_buffer_t) <= sizeof(eg_hal_priv_t), "eg_soft_buffer_t fits hal priv");
_Static_assert(sizeof(eg_soft_texture_t) <= sizeof(eg_hal_priv_t), "eg_soft_texture_t fits hal priv");

static inline eg_soft_buffer_t *eg_soft_buffer(const eg_buffer_t *buf)
{
    return (eg_soft_buffer_t *)(void *)&((eg_buffer_t *)buf)->hal;
}
static inline eg_soft_texture_t *eg_soft_texture(const eg_texture_t *tex)
{
    return (eg_soft_texture_t *)(void *)&((eg_texture_t *)tex)->hal;
}
/** The buffer's bytes (size_B of them; NULL for a zero-size buffer). */
static inline uint8_t *eg_soft_buffer_mem(const eg_buffer_t *buf) { return eg_soft_buffer(buf)->mem; }

/* ---- texture layout (soft_resource.c) ---- */

/** One subresource plane of one mip, ready for a loop. Layer (or z) l starts at
 *  base + l * slice_pitch_B; block (x_el, y_el) is at + y_el * row_pitch_B + x_el * element_B. */
typedef struct eg_soft_subres {
    uint8_t *base;                  /* layer / z 0 of this mip and plane */
    uint32_t row_pitch_B, slice_pitch_B;
    uint32_t element_B;             /* block_B * sample_count */
    uint32_t block_B;               /* one sample of one texel block */
    uint32_t width_el, height_el;   /* extent of the mip in texel blocks */
    uint32_t layers;                /* array layers, or the mip's depth for 3D */
} eg_soft_subres_t;

/** 0 for color/depth (and Stencil8's only plane), 1 for the stencil of a depth+stencil format. */
uint32_t eg_soft_plane_of(const eg_texture_t *tex, WGPUTextureAspect aspect);
/** Bytes of one sample of one texel block in the plane that `aspect` selects (see layout). */
uint32_t eg_soft_block_B(const eg_texture_t *tex, WGPUTextureAspect aspect);
/** Layout of (aspect, mip): aspect All selects plane 0 (color or depth). */
void eg_soft_subresource(const eg_texture_t *tex, WGPUTextureAspect aspect, uint32_t mip,
                         eg_soft_subres_t *out);
/** Address of texel block (x_el, y_el) of (aspect, mip, layer_or_z), sample 0. */
uint8_t *eg_soft_texel_addr(const eg_texture_t *tex, WGPUTextureAspect aspect, uint32_t mip,
                            uint32_t layer_or_z, uint32_t x_el, uint32_t y_el);
/** Bytes the whole texture occupies (all planes, mips, layers, samples). */
uint64_t eg_soft_texture_bytes(const eg_texture_t *tex, uint32_t *plane1_offset_B);

/* ---- soft heap (soft_memory.c) ---- */

/** Zero-filled, 16-byte aligned; NULL when the heap (or its record array) is exhausted, after
 *  logging which knob ran out. */
void *eg_soft_heap_alloc(size_t size_B);
void  eg_soft_heap_free(void *p);
/** Usage statistics of the soft heap (tests, memory reports). */
void  eg_soft_heap_stats(eg_range_stats_t *out);

/* ---- resource entries of eg_soft_ops (soft_resource.c) ---- */

eg_status_t eg_soft_buffer_create(eg_hal_device_t *dev, eg_buffer_t *buf);
void        eg_soft_buffer_destroy(eg_hal_device_t *dev, eg_buffer_t *buf);
void       *eg_soft_buffer_map(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                               uint64_t size_B, bool for_write);
void        eg_soft_buffer_unmap(eg_hal_device_t *dev, eg_buffer_t *buf);
eg_status_t eg_soft_texture_create(eg_hal_device_t *dev, eg_texture_t *tex);
void        eg_soft_texture_destroy(eg_hal_device_t *dev, eg_texture_t *tex);
eg_status_t eg_soft_queue_write_buffer(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                       const void *data, size_t size_B);
/** Copies linear data into a texture region, row by row (layout resolved by the kernel). */
eg_status_t eg_soft_queue_write_texture(eg_hal_device_t *dev, eg_texture_t *tex,
                                        const eg_texel_region_t *dst, const void *data,
                                        const eg_buffer_layout_t *layout);

/* ---- entries implemented in other hal/soft files ---- */

/* soft_surface.c (helper "surface"): the optional surface entries of eg_soft_ops. */
eg_status_t eg_soft_texture_wrap(eg_hal_device_t *dev, eg_texture_t *tex, void *mem, size_t size_B);
void        eg_soft_texture_unwrap(eg_hal_device_t *dev, eg_texture_t *tex);
eg_status_t eg_soft_surface_present(eg_hal_device_t *dev, const eg_texture_t *tex,
                                    const struct eg_hal_present *dst);
/* soft_surface.c (helper "bin"): a strip-mode panel's frame as a banded texture (soft_bin_band.h). */
eg_status_t eg_soft_surface_band(eg_hal_device_t *dev, eg_texture_t *tex, const struct eg_hal_present *dst);
/* soft_surface.c (helper "damage"): partial updates, hal.h surface_damage. */
void eg_soft_surface_damage(eg_hal_device_t *dev, const eg_texture_t *tex, const struct eg_hal_rect *r);

/* soft_exec.c (helper "commands"): runs one recorded command stream to completion. */
eg_status_t eg_soft_execute(eg_hal_device_t *dev, const struct eg_cmd_stream *stream);

/* Lazy discards (soft_exec.c): a depth/stencil plane stored with Discard is zero-filled only
 * where something could see it before a pass clears it. settle: fill tex's pending planes now
 * (before a queue write into it); forget: drop them (the texture is destroyed). */
void eg_soft_discard_settle(const eg_texture_t *tex);
void eg_soft_discard_forget(const eg_texture_t *tex);
typedef struct eg_soft_discard_stats {
    uint32_t deferred;   /* discards recorded instead of filled */
    uint32_t filled;     /* recorded ones filled later (something else came first) */
    uint32_t dropped;    /* recorded ones a pass begin cleared: never filled */
} eg_soft_discard_stats_t;
/** Counters since program start (tests). */
void eg_soft_discard_stats(eg_soft_discard_stats_t *out);
/** Test/bench switch (the same bytes either way): false fills discards at pass end. */
extern bool eg_soft_discard_lazy_on;

/* soft_pipeline.c (helper "binding"): shader, pipeline and binding objects. */
eg_status_t eg_soft_bind_group_layout_create(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl);
void        eg_soft_bind_group_layout_destroy(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl);
eg_status_t eg_soft_bind_group_create(eg_hal_device_t *dev, eg_bind_group_t *bg);
void        eg_soft_bind_group_destroy(eg_hal_device_t *dev, eg_bind_group_t *bg);
eg_status_t eg_soft_pipeline_layout_create(eg_hal_device_t *dev, eg_pipeline_layout_t *pl);
void        eg_soft_pipeline_layout_destroy(eg_hal_device_t *dev, eg_pipeline_layout_t *pl);
eg_status_t eg_soft_shader_module_create(eg_hal_device_t *dev, eg_shader_module_t *sm);
void        eg_soft_shader_module_destroy(eg_hal_device_t *dev, eg_shader_module_t *sm);
eg_status_t eg_soft_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
void        eg_soft_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
eg_status_t eg_soft_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);
void        eg_soft_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);

#endif /* EG_SOFT_INTERNAL_H */
