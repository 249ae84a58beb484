#version 450
// resource_limits_test: indices past the end of workgroup, private and function arrays (WGSL
// "Out-of-Bounds Access": a load returns an element of the array or zero, a store lands inside
// the array or is dropped; no other variable may change). o.v[0] holds the index (5, past 4).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer O { uint v[]; } o;
shared uint wa[4];
shared uint wb[4];
uint pa[4];
uint pb[4];

void main()
{
    uint k = o.v[0];
    uint fa[4];
    uint fb[4];
    for (uint i = 0u; i < 4u; i++) {
        wa[i] = 10u + i; wb[i] = 20u + i;
        pa[i] = 30u + i; pb[i] = 40u + i;
        fa[i] = 50u + i; fb[i] = 60u + i;
    }
    wa[k] = 99u;
    pa[k] = 98u;
    fa[k] = 97u;
    for (uint i = 0u; i < 4u; i++) {
        o.v[1u + i] = wb[i];
        o.v[5u + i] = pb[i];
        o.v[9u + i] = fb[i];
    }
    o.v[13] = wa[k + 1u];
    o.v[14] = pa[k + 1u];
    o.v[15] = fa[k + 1u];
}
