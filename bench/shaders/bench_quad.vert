#version 450
// Benchmark full-screen quad (scenes 1 and 5): NDC corners in, texture coordinates out.
layout(location = 0) in vec2 a_pos;
layout(location = 0) out vec2 v_uv;

void main()
{
    v_uv = vec2(a_pos.x * 0.5 + 0.5, 0.5 - a_pos.y * 0.5);
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
