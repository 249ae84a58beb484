/* Conformance scenes: the suite in order, with sizes and GPU tolerances. */
#include "tests/scenes/scenes.h"

#include <string.h>

/* Tolerances on GPU backends (soft is compared exactly). Rasterization rules are fixed by the
 * spec for triangles (pixel centres, top-left rule), but interpolation precision, line and point
 * rasterization, MSAA sample positions and filtering precision differ between implementations:
 *   EXACTISH  color ops, copies, solid triangles: 2/255 per channel, 0.5% of pixels may exceed;
 *   INTERP    interpolated or blended colors: 4/255, 2%;
 *   EDGES     lines, points, MSAA edges, filtering, 3D mesh: 24/255, 6%;
 *   LSB565    RGB565 targets: float -> 5/6-bit conversion may round either way (one 5-bit step is
 *             8.2/255), so most pixels may be one step off: 10/255, 35%. */
#define EXACTISH 2, 5
#define INTERP 4, 20
#define EDGES 24, 60
#define LSB565 10, 350

const eg_scene_info_t eg_scene_list[] = {
    { "clear_copy", eg_scene_clear_copy, 64, 32, EXACTISH },
    { "points", eg_scene_points, 64, 32, EDGES },
    { "lines", eg_scene_lines, 64, 32, EDGES },
    { "tri_list", eg_scene_tri_list, 64, 32, INTERP },
    { "tri_strip", eg_scene_tri_strip, 64, 32, INTERP },
    { "cull", eg_scene_cull, 64, 32, INTERP },
    { "builtins", eg_scene_builtins, 64, 32, INTERP },
    { "interp", eg_scene_interp, 64, 32, INTERP },
    { "blend_alpha", eg_scene_blend_alpha, 64, 32, INTERP },
    { "blend_ops", eg_scene_blend_ops, 64, 32, INTERP },
    { "blend_factors", eg_scene_blend_factors, 64, 32, INTERP },
    { "write_mask", eg_scene_write_mask, 64, 32, INTERP },
    { "depth_compare_a", eg_scene_depth_compare_a, 64, 32, INTERP },
    { "depth_compare_b", eg_scene_depth_compare_b, 64, 32, INTERP },
    { "depth_formats", eg_scene_depth_formats, 64, 32, INTERP },
    { "stencil_count", eg_scene_stencil_count, 64, 32, INTERP },
    { "stencil_ops", eg_scene_stencil_ops, 64, 32, INTERP },
    { "mrt4", eg_scene_mrt4, 64, 32, INTERP },
    { "mrt2", eg_scene_mrt2, 64, 32, INTERP },
    { "msaa", eg_scene_msaa, 64, 16, EDGES },
    { "rgb565", eg_scene_rgb565, 64, 32, LSB565 },
    { "rgba16float", eg_scene_rgba16float, 64, 32, INTERP },
    { "srgb", eg_scene_srgb, 64, 32, INTERP },
    { "bgra8", eg_scene_bgra8, 64, 32, INTERP },
    { "sampler_address", eg_scene_sampler_address, 64, 32, EDGES },
    { "sampler_filter", eg_scene_sampler_filter, 64, 32, EDGES },
    { "sampler_mipmap", eg_scene_sampler_mipmap, 64, 32, EDGES },
    { "sampler_lod", eg_scene_sampler_lod, 64, 32, EDGES },
    { "sampler_cube", eg_scene_sampler_cube, 64, 32, EDGES },
    { "sampler_array", eg_scene_sampler_array, 64, 32, EDGES },
    { "sampler_compare", eg_scene_sampler_compare, 64, 32, EDGES },
    { "texel_load", eg_scene_texel_load, 64, 32, INTERP },
    { "tex_formats", eg_scene_tex_formats, 64, 32, EDGES },
    { "instancing", eg_scene_instancing, 64, 32, INTERP },
    { "vertex_formats", eg_scene_vertex_formats, 64, 32, INTERP },
    { "indexed", eg_scene_indexed, 64, 32, INTERP },
    { "index_restart", eg_scene_index_restart, 64, 32, INTERP },
    { "indirect", eg_scene_indirect, 64, 32, INTERP },
    { "scissor", eg_scene_scissor, 64, 32, EXACTISH },
    { "viewport", eg_scene_viewport, 64, 32, INTERP },
    { "prefix_sum", eg_scene_prefix_sum, 64, 32, EXACTISH },
    { "storage_texture", eg_scene_storage_texture, 64, 32, EDGES },
    { "ui", eg_scene_ui, 64, 32, EDGES },
    { "mesh3d", eg_scene_mesh3d, 64, 32, EDGES },
};

const uint32_t eg_scene_count = (uint32_t)(sizeof eg_scene_list / sizeof eg_scene_list[0]);
