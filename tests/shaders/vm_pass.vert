#version 450
// Soft VM test: vertex inputs to varyings and position, with built-in indices.
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec2 a_uv;
layout(location = 0) out vec2 v_uv;
layout(location = 1) flat out uint v_id;

void main()
{
    v_uv = a_uv;
    v_id = uint(gl_VertexIndex) * 10u + uint(gl_InstanceIndex);
    gl_Position = a_pos * 2.0 + vec4(0.0, 0.0, 0.0, 1.0);
}
