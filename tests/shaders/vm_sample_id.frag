#version 450
// soft_vm_test: SampleId (per-sample shading): sample k writes 1.0 into channel k only.
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = vec4(equal(ivec4(gl_SampleID), ivec4(0, 1, 2, 3)));
}
