#version 450
// Atomics on an r32uint read-write storage texture (OpImageTexelPointer + OpAtomic*), for
// tests/unit/d3d12_shader_test.c (shader_lowering.storage_texture_atomics). 16 invocations:
// each adds 5 to its own texel (x, y) < (4, 4); all of them count in (4, 0), take the max of their
// index in (5, 0), compare-exchange (6, 0) from its initial 7, set their bit in (7, 0).
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(set = 0, binding = 1) buffer Out { uint v[48]; } o;
void main() {
    uint k = gl_LocalInvocationIndex;
    o.v[k] = imageAtomicAdd(img, ivec2(gl_LocalInvocationID.xy), 5u);
    o.v[16 + k] = imageAtomicAdd(img, ivec2(4, 0), 1u);
    imageAtomicMax(img, ivec2(5, 0), k);
    o.v[32 + k] = imageAtomicCompSwap(img, ivec2(6, 0), 7u, 1000u + k);
    imageAtomicOr(img, ivec2(7, 0), 1u << k);
}
