#version 450
// Scenes: 2D-array sampling, the layer in v_uv.z.
layout(location = 0) in vec4 v_uv;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform texture2DArray t_color;
layout(set = 0, binding = 1) uniform sampler s_color;

void main()
{
    o_color = texture(sampler2DArray(t_color, s_color), v_uv.xyz);
}
