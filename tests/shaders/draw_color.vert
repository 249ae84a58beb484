#version 450
// draw_test: clip-space position and a color straight from the vertex buffer.
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
layout(location = 0) out vec4 v_color;

void main()
{
    v_color = a_color;
    gl_Position = a_pos;
}
