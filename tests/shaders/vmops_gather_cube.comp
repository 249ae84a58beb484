#version 450
// soft_vm_ops_test: textureGather on a cube texture (OpImageGather, Dim Cube): the footprint on the
// face the direction selects.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform textureCube t;
layout(set = 0, binding = 1) uniform sampler s;
layout(set = 0, binding = 2) buffer Out { vec4 o[2]; } o;

void main()
{
    o.o[0] = textureGather(samplerCube(t, s), vec3(1.0, 0.2, 0.3));
    o.o[1] = textureGather(samplerCube(t, s), vec3(0.1, -0.2, -1.0));
}
