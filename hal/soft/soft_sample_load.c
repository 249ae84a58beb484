/* hal/soft textureLoad / textureStore / texture queries over the lanes of a VM block.
 *
 * Robust access (WebGPU execution environment, WGSL "textureLoad" / "textureStore"): a lane whose
 * coordinates, array layer, mip level or sample index is outside the view reads (0, 0, 0, 0) and
 * its store is dropped. Every index is checked against the view's range before an address is
 * formed, so nothing outside the texture's memory is touched. Signed coordinates are compared
 * as unsigned, which turns negatives into huge values that fail the same check.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_texel.h"
#include "kernel/api/texture.h"

static inline uint32_t lane_u(const eg_soft_reg_t *r, uint32_t l) { return r ? r->u[l] : 0u; }

static bool is_arrayed(WGPUTextureViewDimension d)
{
    return d == WGPUTextureViewDimension_2DArray || d == WGPUTextureViewDimension_CubeArray ||
           d == WGPUTextureViewDimension_Cube;
}

/* Address of lane l's texel in `s` (mip already chosen), or NULL when out of range. */
static const uint8_t *lane_addr(const eg_texture_view_t *v, const eg_soft_subres_t *s,
                                const eg_soft_reg_t *const xyz[3], const eg_soft_reg_t *layer, uint32_t l)
{
    uint32_t x = lane_u(xyz[0], l), y = 0, slice;
    if (v->dimension != WGPUTextureViewDimension_1D) y = lane_u(xyz[1], l);
    if (v->dimension == WGPUTextureViewDimension_3D) {
        slice = lane_u(xyz[2], l);
        if (slice >= s->layers) return NULL;
    } else {
        uint32_t a = is_arrayed(v->dimension) ? lane_u(layer, l) : 0u;
        if (a >= v->array_layer_count) return NULL;
        slice = v->base_array_layer + a;
    }
    if (x >= s->width_el || y >= s->height_el) return NULL;
    return s->base + (size_t)slice * s->slice_pitch_B + (size_t)y * s->row_pitch_B + (size_t)x * s->element_B;
}

void eg_soft_texture_load(const eg_texture_view_t *view, const eg_soft_reg_t *xyz[3],
                          const eg_soft_reg_t *layer, const eg_soft_reg_t *level_or_sample,
                          eg_soft_mask_t mask, eg_soft_vec4_t *out)
{
    const eg_texture_t *tex = view->texture;
    WGPUTextureFormat fmt = eg_soft_view_plane_format(view);
    bool ms = tex->sample_count > 1;
    eg_soft_subres_t s;
    uint32_t have_mip = ~0u;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        uint32_t lod = ms ? 0u : lane_u(level_or_sample, l);
        uint32_t sample = ms ? lane_u(level_or_sample, l) : 0u;
        const uint8_t *p = NULL;
        if (lod < view->mip_level_count && sample < tex->sample_count) {
            if (lod != have_mip) {
                eg_soft_subresource(tex, view->aspect, view->base_mip_level + lod, &s);
                have_mip = lod;
            }
            p = lane_addr(view, &s, xyz, layer, l);
        }
        eg_soft_texel_t t = { .u = { 0, 0, 0, 0 } };
        if (p) eg_soft_texel_decode(fmt, p + (size_t)sample * s.block_B, &t);
        for (int k = 0; k < 4; k++) out->c[k].u[l] = t.u[k];
    }
}

void eg_soft_texture_store(const eg_texture_view_t *view, const eg_soft_reg_t *xyz[3],
                           const eg_soft_reg_t *layer, const eg_soft_vec4_t *value,
                           eg_soft_mask_t mask)
{
    WGPUTextureFormat fmt = eg_soft_view_plane_format(view);
    eg_soft_subres_t s;
    eg_soft_subresource(view->texture, view->aspect, view->base_mip_level, &s);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        if (!(mask >> l & 1u)) continue;
        uint8_t *p = (uint8_t *)(uintptr_t)lane_addr(view, &s, xyz, layer, l);
        if (!p) continue;
        eg_soft_texel_t t;
        for (int k = 0; k < 4; k++) t.u[k] = value->c[k].u[l];
        eg_soft_texel_encode(fmt, &t, p);
    }
}

/* WGSL textureDimensions / textureNumLayers: cube views count cubes, not faces. */
void eg_soft_texture_size(const eg_texture_view_t *view, uint32_t level, uint32_t size[3])
{
    size[0] = size[1] = size[2] = 0;
    if (level >= view->mip_level_count) return;          /* robust: an invalid level reads 0 */
    const eg_texture_t *tex = view->texture;
    WGPUExtent3D e = eg_format_mip_extent(tex->dimension, tex->size, view->base_mip_level + level);
    size[0] = e.width;
    size[1] = view->dimension == WGPUTextureViewDimension_1D ? 1u : e.height;
    switch (view->dimension) {
    case WGPUTextureViewDimension_3D:        size[2] = e.depthOrArrayLayers; break;
    case WGPUTextureViewDimension_Cube:
    case WGPUTextureViewDimension_CubeArray: size[2] = view->array_layer_count / 6u; break;
    default:                                 size[2] = view->array_layer_count; break;
    }
}

uint32_t eg_soft_texture_levels(const eg_texture_view_t *view) { return view->mip_level_count; }

uint32_t eg_soft_texture_samples(const eg_texture_view_t *view) { return view->texture->sample_count; }

#endif /* EMGPU_HAL_SOFT */
