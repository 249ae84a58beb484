#version 450
// Span path, fused rows (tests/unit/soft_span_test.c): a constant between interpolated channels
// (the kernel variant that picks each channel's kind per group).
layout(location = 1) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
    o_color = vec4(v_color.r, 0.25, v_color.b, v_color.a);
}
