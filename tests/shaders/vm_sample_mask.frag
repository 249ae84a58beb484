#version 450
// soft_vm_test: SampleMask in (red = covered samples / 4) and out (samples 0 and 2 only).
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = vec4(float(bitCount(gl_SampleMaskIn[0])) * 0.25, 0.0, 0.0, 1.0);
    gl_SampleMask[0] = 5;
}
