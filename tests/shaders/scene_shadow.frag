#version 450
// Scenes: depth comparison sampling; the reference depth in v_uv.z.
layout(location = 0) in vec4 v_uv;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform texture2D t_depth;
layout(set = 0, binding = 1) uniform samplerShadow s_cmp;

void main()
{
    float lit = texture(sampler2DShadow(t_depth, s_cmp), vec3(v_uv.xy, v_uv.z));
    o_color = vec4(lit, lit * 0.8 + 0.2 * v_uv.z, 0.3, 1.0);
}
