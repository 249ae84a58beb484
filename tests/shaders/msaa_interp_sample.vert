#version 450
// soft_msaa_interp_test: draw_color.vert with a Sample-qualified output (WebGPU's inter-stage
// rules want the fragment input's sampling matched).
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
layout(location = 0) sample out vec4 v_color;

void main()
{
    v_color = a_color;
    gl_Position = a_pos;
}
