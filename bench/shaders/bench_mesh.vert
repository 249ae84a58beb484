#version 450
// Benchmark scene 4: a perspective, textured mesh; model-view-projection in a uniform block.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec2 a_uv;
layout(location = 0) out vec2 v_uv;
layout(set = 0, binding = 0) uniform Mesh { mat4 mvp; } u;

void main()
{
    v_uv = a_uv;
    gl_Position = u.mvp * vec4(a_pos, 1.0);
}
