#version 450
// Demo 3D object: model-space position and normal, uv; matrices and light in a uniform block.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;
layout(location = 2) out vec3 v_view;
layout(set = 0, binding = 0) uniform Mesh { mat4 mvp; mat4 model; vec4 light; vec4 eye; } u;

void main()
{
    vec4 world = u.model * vec4(a_pos, 1.0);
    v_normal = mat3(u.model) * a_normal;
    v_uv = a_uv;
    v_view = u.eye.xyz - world.xyz;
    gl_Position = u.mvp * vec4(a_pos, 1.0);
}
