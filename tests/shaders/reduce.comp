#version 450
// Compute stage: storage buffers with runtime arrays, workgroup memory, barriers, atomics and a
// storage texture.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 1) in;
layout(set = 0, binding = 0) readonly buffer Src { uint count; float values[]; } src;
layout(set = 0, binding = 1) buffer Dst { uint total; float sums[]; } dst;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D img;
shared float partial[32];

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_GlobalInvocationID.x;
    partial[i] = g < src.count ? src.values[g] : 0.0;
    barrier();
    for (uint s = 16u; s > 0u; s >>= 1) {
        if (i < s) partial[i] += partial[i + s];
        barrier();
    }
    if (i == 0u) {
        dst.sums[gl_WorkGroupID.x] = partial[0];
        atomicAdd(dst.total, 1u);
    }
    imageStore(img, ivec2(gl_GlobalInvocationID.xy), vec4(partial[0]));
}
