#version 450
// Benchmark scene 2: a glyph from the R8 coverage atlas, tinted with the vertex color.
layout(location = 1) in vec2 v_uv;
layout(location = 2) in vec4 v_color;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 1) uniform texture2D t_atlas;
layout(set = 0, binding = 2) uniform sampler s_atlas;

void main()
{
    float cov = texture(sampler2D(t_atlas, s_atlas), v_uv).r;
    o_color = vec4(v_color.rgb, v_color.a * cov);
}
