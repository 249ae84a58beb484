#version 450
// Soft VM test: matrix operations per lane on small integer-valued matrices (exact in float,
// so tests/unit/soft_vm_test.c compares bit for bit, except inverse()).
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer In { mat4 a[16]; mat4 b[16]; vec4 v[16]; } src;
layout(std430, set = 0, binding = 1) buffer Out {
    vec4 mv[16]; vec4 vm[16]; mat4 mm[16]; mat4 tr[16]; float det4[16]; float det3[16]; mat3x4 inv3[16];
    mat2 inv2[16];
} dst;

void main()
{
    uint g = gl_GlobalInvocationID.x;
    mat4 a = src.a[g], b = src.b[g];
    vec4 v = src.v[g];
    dst.mv[g] = a * v;
    dst.vm[g] = v * a;
    dst.mm[g] = a * b;
    dst.tr[g] = transpose(a);
    dst.det4[g] = determinant(a);
    dst.det3[g] = determinant(mat3(b));
    dst.inv3[g] = mat3x4(inverse(mat3(b)));
    dst.inv2[g] = inverse(mat2(b));
}
