#version 450
// Front-end rules test: function calls, matrices, loops and built-ins in a vertex shader.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec2 a_uv;
layout(location = 0) out vec2 v_uv;
layout(location = 1) flat out uint v_index;
layout(std140, set = 0, binding = 0) uniform Xform { mat4 model; mat4 view_proj; mat2 uv_rot; } u;

vec4 to_world(vec3 p) { return u.model * vec4(p, 1.0); }

vec4 project(vec3 p)
{
    vec4 w = to_world(p);
    for (int i = 0; i < 3; ++i) w.xyz += vec3(0.001 * float(i));
    return u.view_proj * w;
}

void main()
{
    v_uv = u.uv_rot * a_uv;
    v_index = uint(gl_VertexIndex) + uint(gl_InstanceIndex) * 3u;
    gl_Position = project(a_pos);
}
