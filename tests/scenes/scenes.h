/* Conformance scenes: every scene function of the suite (listed in scene_list.c). */
#ifndef EG_SCENES_H
#define EG_SCENES_H

#include "tests/scenes/scene.h"

#define EG_SCENES(X) \
    X(clear_copy) X(points) X(lines) X(tri_list) X(tri_strip) X(cull) X(builtins) X(interp) \
    X(blend_alpha) X(blend_ops) X(blend_factors) X(write_mask) X(depth_compare_a) X(depth_compare_b) \
    X(depth_formats) X(stencil_count) X(stencil_ops) X(mrt4) X(mrt2) X(msaa) X(rgb565) \
    X(rgba16float) X(srgb) X(bgra8) X(sampler_address) X(sampler_filter) X(sampler_mipmap) \
    X(sampler_lod) X(sampler_cube) X(sampler_array) X(sampler_compare) X(texel_load) \
    X(tex_formats) X(instancing) X(vertex_formats) X(indexed) X(index_restart) X(indirect) \
    X(scissor) X(viewport) X(prefix_sum) X(storage_texture) X(ui) X(mesh3d)

#define EG_SCENE_DECLARE(name) void eg_scene_##name(eg_scene_t *s);
EG_SCENES(EG_SCENE_DECLARE)
#undef EG_SCENE_DECLARE

#endif /* EG_SCENES_H */
