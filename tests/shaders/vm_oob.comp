#version 450
// Soft VM test: robust access. Reads past the bound range return 0; writes past it are dropped.
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer Src { uint v[]; } src;
layout(std430, set = 0, binding = 1) buffer Dst { uint v[]; } dst;

void main()
{
    uint g = gl_GlobalInvocationID.x;
    dst.v[g] = src.v[g * 3u] + 1u;
    dst.v[g + 1000000u] = 7u;
}
