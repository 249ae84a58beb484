#version 450
// Scenes: inclusive prefix sum of 64 values in workgroup memory (Hillis-Steele, barriers), a
// total by storage-buffer atomicAdd, and a workgroup atomic counter of the odd values.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint values[64]; } src;
layout(set = 0, binding = 1) buffer Dst { uint total; uint odd; uint largest; uint pad; uint scan[64]; } dst;
shared uint tmp[64];
shared uint odd_count;

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint v = src.values[i];
    tmp[i] = v;
    if (i == 0u) odd_count = 0u;
    barrier();
    for (uint off = 1u; off < 64u; off <<= 1) {
        uint add = i >= off ? tmp[i - off] : 0u;
        barrier();
        tmp[i] += add;
        barrier();
    }
    if ((v & 1u) != 0u) atomicAdd(odd_count, 1u);
    atomicAdd(dst.total, v);
    atomicMax(dst.largest, v);
    barrier();
    dst.scan[i] = tmp[i];
    if (i == 0u) dst.odd = odd_count;
}
