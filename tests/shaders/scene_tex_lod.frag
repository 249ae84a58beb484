#version 450
// Scenes: explicit-lod 2D sampling, the lod in v_uv.z (the sampler's lod clamps still apply).
layout(location = 0) in vec4 v_uv;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform texture2D t_color;
layout(set = 0, binding = 1) uniform sampler s_color;

void main()
{
    o_color = textureLod(sampler2D(t_color, s_color), v_uv.xy, v_uv.z);
}
