#version 450
// Soft VM test: workgroup prefix sum with barriers, workgroup memory and an atomic total.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint total; uint pad[3]; uint v[]; } data;
shared uint tmp[64];

void main()
{
    uint i = gl_LocalInvocationIndex, gid = gl_GlobalInvocationID.x;
    uint orig = data.v[gid];
    tmp[i] = orig;
    barrier();
    for (uint off = 1u; off < 64u; off <<= 1) {
        uint t = i >= off ? tmp[i - off] : 0u;
        barrier();
        tmp[i] += t;
        barrier();
    }
    data.v[gid] = tmp[i];
    atomicAdd(data.total, orig);
}
