#version 450
// Pipeline-interface tests (iface): 16x16x2 = 512 invocations, each axis within its limit
// (256, 256, 64) but over maxComputeInvocationsPerWorkgroup (256).
layout(local_size_x = 16, local_size_y = 16, local_size_z = 2) in;
layout(set = 0, binding = 0) buffer Out { float v[]; } o;

void main()
{
    o.v[gl_LocalInvocationIndex] = 1.0;
}
