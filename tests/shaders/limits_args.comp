#version 450
// resource_limits_test: a call with 18 arguments; the soft VM took at most 16 before session 6.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer O { uint v[]; } o;
uint wide(uint a0, uint a1, uint a2, uint a3, uint a4, uint a5, uint a6, uint a7, uint a8, uint a9, uint a10, uint a11, uint a12, uint a13, uint a14, uint a15, uint a16, uint a17)
{
    return 1u * a0 + 2u * a1 + 3u * a2 + 4u * a3 + 5u * a4 + 6u * a5 + 7u * a6 + 8u * a7 + 9u * a8 + 10u * a9 + 11u * a10 + 12u * a11 + 13u * a12 + 14u * a13 + 15u * a14 + 16u * a15 + 17u * a16 + 18u * a17;
}

void main()
{
    o.v[1] = wide(o.v[2] + 1u, o.v[2] + 2u, o.v[2] + 3u, o.v[2] + 4u, o.v[2] + 5u, o.v[2] + 6u, o.v[2] + 7u, o.v[2] + 8u, o.v[2] + 9u, o.v[2] + 10u, o.v[2] + 11u, o.v[2] + 12u, o.v[2] + 13u, o.v[2] + 14u, o.v[2] + 15u, o.v[2] + 16u, o.v[2] + 17u, o.v[2] + 18u);
}
