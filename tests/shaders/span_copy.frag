#version 450
// soft_span_test: copy class (inputs and a constant straight to the output).
layout(location = 1) in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = vec4(v_color.bgr, 0.75);
}
