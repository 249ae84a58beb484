#version 450
// soft_msaa_interp_test: the same input without Sample: one run per pixel, at the pixel centre.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = v_color;
}
