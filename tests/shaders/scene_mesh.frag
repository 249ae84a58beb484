#version 450
// Scenes: Lambert lighting (ambient 0.25) of the sampled texture.
layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform Mesh { mat4 mvp; mat4 model; vec4 light; } u;
layout(set = 0, binding = 1) uniform texture2D t_color;
layout(set = 0, binding = 2) uniform sampler s_color;

void main()
{
    float lambert = max(dot(normalize(v_normal), u.light.xyz), 0.0);
    vec4 t = texture(sampler2D(t_color, s_color), v_uv);
    o_color = vec4(t.rgb * (0.25 + 0.75 * lambert), 1.0);
}
