#version 450
// robust_test: WebGPU robust buffer access (spec "Out-of-bounds access"). One workgroup of 32:
// invocation i reads d.v[i] and u.u[i].x (past the bindings for i >= 16 / i >= 4), then after a
// barrier writes d.v[i] (past the binding for i >= 16); invocation 0 writes arrayLength of the
// three runtime arrays (binding 0 dynamic, 2 table view, 3 dynamic read-only) to o.r[64..66].
layout(local_size_x = 32) in;
struct S { uint a, b, c; };                                      // std430 stride 12
layout(set = 0, binding = 0) buffer Data { uint v[]; } d;        // dynamic offset
layout(set = 0, binding = 1) buffer Out { uint r[]; } o;
layout(set = 0, binding = 2) readonly buffer ArrA { uint pre[2]; S s[]; } a;   // array at 8
layout(set = 0, binding = 3) readonly buffer ArrB { uint pre[2]; S s[]; } b;   // dynamic offset
layout(set = 0, binding = 4) uniform U { uvec4 u[4]; } un;       // dynamic offset, 64 bytes

void main()
{
    uint i = gl_LocalInvocationID.x;
    o.r[i] = d.v[i];
    o.r[32u + i] = un.u[i].x;
    memoryBarrierBuffer();
    barrier();
    d.v[i] = 0xC0DE0000u | i;
    if (i == 0u) {
        o.r[64] = uint(d.v.length());
        o.r[65] = uint(a.s.length());
        o.r[66] = uint(b.s.length());
    }
}
