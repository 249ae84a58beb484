#version 450
// Pipeline-interface tests (iface): a storage block of a vec4 then a runtime float array, so its
// WebGPU minimum binding size is 32 bytes (16 + 4 = 20 rounded up to the struct's alignment 16).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { vec4 head; float v[]; } o;

void main()
{
    o.head = vec4(1.0);
    o.v[0] = 2.0;
}
