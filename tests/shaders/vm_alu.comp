#version 450
// Soft VM test: float and int arithmetic per lane (tests/unit/soft_vm_test.c recomputes in C).
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer In { float a[16]; float b[16]; int ia[16]; int ib[16]; } src;
layout(std430, set = 0, binding = 1) buffer Out { vec4 f[32]; ivec4 i[32]; } dst;

void main()
{
    uint g = gl_GlobalInvocationID.x;
    float a = src.a[g], b = src.b[g];
    int ia = src.ia[g], ib = src.ib[g];
    dst.f[g * 2u] = vec4(a + b, a - b, a * b, a / b);
    dst.f[g * 2u + 1u] = vec4(mod(a, b), min(a, b), abs(a) + floor(b), clamp(a, -1.0, 2.0));
    dst.i[g * 2u] = ivec4(ia + ib, ia * ib, ia / ib, ia % ib);
    dst.i[g * 2u + 1u] = ivec4(ia >> 2, (ia & ib) ^ 0x55, min(ia, ib), int(a * 10.0));
}
