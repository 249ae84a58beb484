#version 450
// Pipeline-interface tests (iface): a filtered float texture + sampler, the vertex stage's
// uniform block, a vec4 color output at location 0.
layout(location = 0) in vec4 v_color;
layout(location = 1) flat in uint v_id;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform Globals { mat4 mvp; vec4 tint; } u;
layout(set = 0, binding = 1) uniform texture2D t_color;
layout(set = 0, binding = 2) uniform sampler s_linear;
layout(set = 1, binding = 0) uniform texture2D t_unused;

void main()
{
    o_color = v_color * u.tint * texture(sampler2D(t_color, s_linear), vec2(float(v_id), 0.5));
}
