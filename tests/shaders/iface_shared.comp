#version 450
// Pipeline-interface tests (iface): 8192 floats = 32768 bytes of workgroup memory, over
// maxComputeWorkgroupStorageSize (16384).
layout(local_size_x = 1) in;
shared float big[8192];
layout(set = 0, binding = 0) buffer Out { float v[]; } o;

void main()
{
    big[gl_LocalInvocationIndex] = 1.0;
    barrier();
    o.v[0] = big[8191];
}
