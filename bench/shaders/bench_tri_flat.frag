#version 450
// Benchmark scene 3 (flat): the provoking vertex's color.
layout(location = 1) flat in vec4 v_flat;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = v_flat;
}
