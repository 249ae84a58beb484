#version 450
// Benchmark scene 2: instanced UI quads in pixels (top-left origin). Per vertex: the corner
// (0/1, 0/1); per instance: rectangle, atlas rectangle, top and bottom colors, corner radius.
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 a_rect;
layout(location = 2) in vec4 a_uv;
layout(location = 3) in vec4 a_color0;
layout(location = 4) in vec4 a_color1;
layout(location = 5) in float a_radius;
layout(location = 0) out vec2 v_local;
layout(location = 1) out vec2 v_uv;
layout(location = 2) out vec4 v_color;
layout(location = 3) flat out vec4 v_shape;
layout(set = 0, binding = 0) uniform Ui { vec4 scale; } u;   // xy: 2 / target size in pixels

void main()
{
    vec2 half_px = a_rect.zw * 0.5;
    vec2 px = a_rect.xy + a_corner * a_rect.zw;
    v_local = (a_corner - 0.5) * a_rect.zw;
    v_uv = mix(a_uv.xy, a_uv.zw, a_corner);
    v_color = mix(a_color0, a_color1, a_corner.y);
    v_shape = vec4(half_px, a_radius, 0.0);
    gl_Position = vec4(px.x * u.scale.x - 1.0, 1.0 - px.y * u.scale.y, 0.0, 1.0);
}
