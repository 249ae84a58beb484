#version 450
// Scenes: a lit, textured mesh: position and normal in model space, uv; model and
// view-projection matrices in a uniform block.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;
layout(set = 0, binding = 0) uniform Mesh { mat4 mvp; mat4 model; vec4 light; } u;

void main()
{
    v_normal = mat3(u.model) * a_normal;
    v_uv = a_uv;
    gl_Position = u.mvp * vec4(a_pos, 1.0);
}
