#version 450
// resource_limits_test: one compute stage with 17 buffers, one more than the soft VM held per
// program before session 6 (it now holds WebGPU's per-stage defaults, 56): 12 uniform blocks
// (maxUniformBuffersPerShaderStage) and 5 storage blocks. Uniform block k holds k + 1, storage
// block k (k < 4) 100 * (k + 1); block 4 receives sum u_k + sum s_k. Group 0 holds the uniform
// blocks, group 1 the storage ones (EMGPU_MAX_BINDINGS_PER_GROUP is 16 by default). Storage blocks
// 0-3 are read-only, so the test binds one buffer per kind at several offsets (16-buffer boards).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform U0 { uint v; } u0;
layout(set = 0, binding = 1) uniform U1 { uint v; } u1;
layout(set = 0, binding = 2) uniform U2 { uint v; } u2;
layout(set = 0, binding = 3) uniform U3 { uint v; } u3;
layout(set = 0, binding = 4) uniform U4 { uint v; } u4;
layout(set = 0, binding = 5) uniform U5 { uint v; } u5;
layout(set = 0, binding = 6) uniform U6 { uint v; } u6;
layout(set = 0, binding = 7) uniform U7 { uint v; } u7;
layout(set = 0, binding = 8) uniform U8 { uint v; } u8;
layout(set = 0, binding = 9) uniform U9 { uint v; } u9;
layout(set = 0, binding = 10) uniform U10 { uint v; } u10;
layout(set = 0, binding = 11) uniform U11 { uint v; } u11;
layout(set = 1, binding = 0, std430) readonly buffer S0 { uint v; } s0;
layout(set = 1, binding = 1, std430) readonly buffer S1 { uint v; } s1;
layout(set = 1, binding = 2, std430) readonly buffer S2 { uint v; } s2;
layout(set = 1, binding = 3, std430) readonly buffer S3 { uint v; } s3;
layout(set = 1, binding = 4, std430) buffer S4 { uint v; } s4;

void main()
{
    uint sum = u0.v + u1.v + u2.v + u3.v + u4.v + u5.v + u6.v + u7.v + u8.v + u9.v + u10.v + u11.v;
    s4.v = sum + s0.v + s1.v + s2.v + s3.v;
}
