#version 450
// Front-end rules test: function calls (callee order fixed by tools/spv_reorder.py), loops with
// break/continue, a switch with fallthrough, matrices, atomics, barriers and workgroup memory.
layout(local_size_x = 16, local_size_y = 1, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) buffer Data { uint counter; uint values[]; } data;
layout(std140, set = 0, binding = 1) uniform Params { mat4 xform; mat3 normal; uint mode; } params;
shared uint tile[16];
shared uint tile_sum;

uint mix_bits(uint v) { return (v ^ (v >> 3u)) * 2654435761u; }

uint classify(uint v)
{
    uint r = 0u;
    switch (v & 3u) {
    case 0u: r = 1u;          // falls through
    case 1u: r += 2u; break;
    case 2u: r = mix_bits(v); break;
    default: r = 7u; break;
    }
    return r;
}

float weigh(uint v)
{
    vec4 p = params.xform * vec4(float(v), 1.0, 0.0, 1.0);
    vec3 n = params.normal * p.xyz;
    return dot(n, vec3(1.0)) + determinant(mat2(p.xy, p.zw));
}

uint reduce_tile(uint lid)
{
    for (uint stride = 8u; stride > 0u; stride >>= 1u) {
        if (lid < stride) tile[lid] += tile[lid + stride];
        barrier();
    }
    return tile[0];
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    if (lid == 0u) tile_sum = 0u;
    uint acc = 0u;
    for (int i = 0; i < 8; ++i) {
        if (i == 5) break;
        if ((i & 1) == 1) continue;
        acc += classify(gid + uint(i));
    }
    uint k = 0u;
    do { acc += k; k++; } while (k < params.mode);
    tile[lid] = acc + uint(weigh(gid));
    barrier();
    uint total = reduce_tile(lid);
    atomicAdd(tile_sum, 1u);
    memoryBarrierShared();
    barrier();
    if (lid == 0u) atomicAdd(data.counter, total + tile_sum);
    data.values[gid] = mix_bits(total);
}
