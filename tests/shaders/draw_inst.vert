#version 450
// draw_test: per-instance x offset (instance step mode) and a color from the vertex index.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in float a_offset;
layout(location = 0) flat out vec4 v_color;

void main()
{
    v_color = vec4(float(gl_VertexIndex) / 8.0, float(gl_InstanceIndex) / 4.0, 0.0, 1.0);
    gl_Position = vec4(a_pos.x + a_offset, a_pos.y, 0.5, 1.0);
}
