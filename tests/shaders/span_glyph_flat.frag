#version 450
// soft_span_glyph_test: span_glyph.frag with a flat color (the provoking vertex's; span_flat.vert).
layout(location = 0) in vec2 v_uv;
layout(location = 1) flat in vec4 v_color;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform texture2D t_color;
layout(set = 0, binding = 1) uniform sampler s_color;

void main()
{
    float a = textureLod(sampler2D(t_color, s_color), v_uv, 0.0).r;
    o_color = vec4(v_color.rgb, v_color.a * a);
}
