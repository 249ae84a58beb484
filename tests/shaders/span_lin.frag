#version 450
// Span path, fused rows (tests/unit/soft_span_test.c): a noperspective color (linear weights)
// beside a constant channel.
layout(location = 1) noperspective in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main()
{
    o_color = vec4(v_color.rg, 0.5, v_color.a);
}
