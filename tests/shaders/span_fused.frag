#version 450
// Span path, fused rows (tests/unit/soft_span_test.c): the output is the interpolated color, all
// four channels perspective-interpolated (the "all channels vary" kernel variant).
layout(location = 1) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
    o_color = v_color;
}
