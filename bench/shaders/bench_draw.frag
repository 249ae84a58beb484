#version 450
// Benchmark scene 6: constant color.
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = vec4(1.0, 0.5, 0.25, 1.0);
}
