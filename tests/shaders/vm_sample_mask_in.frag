#version 450
// soft_vm_test: SampleMask input only: red = covered samples / 4.
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = vec4(float(bitCount(gl_SampleMaskIn[0])) * 0.25, 0.0, 0.0, 1.0);
}
