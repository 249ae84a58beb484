#version 450
// soft_msaa_interp_test: a Sample-qualified input (WGSL @interpolate(perspective, sample)),
// written out as is: the fragment shader runs per sample, v_color at each sample's position.
layout(location = 0) sample in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = v_color;
}
