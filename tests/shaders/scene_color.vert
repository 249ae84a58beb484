#version 450
// Scenes: clip-space position and color straight through (the default scene vertex layout).
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
layout(location = 0) out vec4 v_color;

void main()
{
    v_color = a_color;
    gl_Position = a_pos;
}
