#version 450
// soft_draw_quads_test: instanced quads as the bench UI draws them (bench_ui.vert): per vertex a
// corner (0/1, 0/1), per instance a rectangle in clip space (x, y, width, height), a color and
// a texture coordinate origin and scale (span_sdf.frag's rounded rectangle over v_uv).
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 a_rect;
layout(location = 2) in vec4 a_color;
layout(location = 3) in vec2 a_uv0;
layout(location = 4) in float a_scale;
layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_color;

void main()
{
    v_uv = a_uv0 + a_corner * a_scale;
    v_color = a_color;
    gl_Position = vec4(a_rect.xy + a_corner * a_rect.zw, 0.0, 1.0);
}
