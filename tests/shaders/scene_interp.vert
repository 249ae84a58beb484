#version 450
// Scenes: one color interpolated three ways; the quad (6 vertices) picks which one is shown.
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
layout(location = 0) out vec4 v_smooth;
layout(location = 1) flat out vec4 v_flat;
layout(location = 2) noperspective out vec4 v_linear;
layout(location = 3) flat out int v_mode;

void main()
{
    v_smooth = a_color;
    v_flat = a_color;
    v_linear = a_color;
    v_mode = gl_VertexIndex / 6;
    gl_Position = a_pos;
}
