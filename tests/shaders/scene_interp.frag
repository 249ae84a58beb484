#version 450
// Scenes: shows the perspective-correct, flat or screen-linear color by quad.
layout(location = 0) in vec4 v_smooth;
layout(location = 1) flat in vec4 v_flat;
layout(location = 2) noperspective in vec4 v_linear;
layout(location = 3) flat in int v_mode;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = v_mode == 0 ? v_smooth : v_mode == 1 ? v_flat : v_linear;
}
