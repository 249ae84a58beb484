#version 450
// Pipeline-interface tests (iface): read-write and read-only storage buffers with runtime
// arrays, a write-only rgba8 storage image, workgroup memory, a specialization constant
// (SpecId 3), and a resource that is declared but not used.
layout(local_size_x = 8, local_size_y = 8) in;
layout(constant_id = 3) const uint SCALE = 2u;
layout(set = 0, binding = 0) buffer Counts { uint total; float data[]; } counts;
layout(set = 0, binding = 1) readonly buffer Inputs { vec4 v[]; } inputs;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D img;
layout(set = 1, binding = 0) uniform Unused { vec4 x; } unused;
shared float tile[64];

void main()
{
    uint i = gl_LocalInvocationIndex;
    tile[i] = inputs.v[i].x * float(SCALE);
    barrier();
    counts.data[i] = tile[63 - i];
    imageStore(img, ivec2(gl_LocalInvocationID.xy), vec4(tile[i]));
}
