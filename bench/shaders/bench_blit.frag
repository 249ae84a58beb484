#version 450
// Benchmark scene 1: one texel per pixel (nearest sampler, 1:1), opaque.
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform texture2D t_src;
layout(set = 0, binding = 1) uniform sampler s_src;

void main()
{
    o_color = texture(sampler2D(t_src, s_src), v_uv);
}
