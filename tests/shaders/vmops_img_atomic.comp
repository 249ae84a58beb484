#version 450
// soft_vm_ops_test: atomics on an r32sint 4x4x2 storage texture array (OpImageTexelPointer with a
// layer), signed min/max, exchange, and out-of-bounds texels (x past the width, x negative, layer
// past the count) that must return 0 and write nothing. 16 invocations, k = 0..15.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0, r32i) uniform iimage2DArray img;
layout(set = 0, binding = 1) buffer Out { int v[64]; } o;

void main()
{
    uint k = gl_LocalInvocationIndex;
    int sk = int(k) - 8;
    o.v[k] = imageAtomicMin(img, ivec3(0, 0, 1), sk);
    imageAtomicMax(img, ivec3(1, 0, 1), sk);
    o.v[16u + k] = imageAtomicAdd(img, ivec3(k < 8u ? 4 + int(k) : -int(k), 0, 0), 100);
    o.v[32u + k] = imageAtomicExchange(img, ivec3(0, 0, 2), 55);
    o.v[48u + k] = imageAtomicExchange(img, ivec3(int(k % 4u), int(k / 4u), 0), -int(k));
}
