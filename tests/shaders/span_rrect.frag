#version 450
// soft_fill_test (rectangle pairs, soft_raster.c raster_rect_pair): the bench UI rounded
// rectangle's arithmetic (bench/shaders/bench_ui_rrect.frag) with a fixed shape, 48 x 36 units
// and radius 12, over a texture coordinate in units from the shape's centre: at 1 px a unit a
// 48 x 36 px quad is the bench's case (alpha 1.0 at the first pixel inside, the arcs' 1 px
// ramp in the corners).
layout(location = 0) in vec2 v_uv;
layout(location = 1) in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    vec2 q = abs(v_uv) - vec2(24.0, 18.0) + 12.0;
    float d = length(max(q, vec2(0.0))) + min(max(q.x, q.y), 0.0) - 12.0;
    o_color = vec4(v_color.rgb, v_color.a * clamp(0.5 - d, 0.0, 1.0));
}
