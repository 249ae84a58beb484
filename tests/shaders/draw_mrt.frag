#version 450
// draw_test: two color targets, the second with the channels swizzled.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color0;
layout(location = 1) out vec4 o_color1;

void main()
{
    o_color0 = v_color;
    o_color1 = v_color.bgra;
}
