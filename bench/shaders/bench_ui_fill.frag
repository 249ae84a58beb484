#version 450
// Benchmark scene 2: the gradient background (the vertex colors, interpolated).
layout(location = 2) in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = v_color;
}
