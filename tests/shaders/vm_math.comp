#version 450
// Soft VM test: GLSL.std.450 math and bit ops per lane (tests/unit/soft_vm_test.c checks them
// against double-precision series computed in C, within the Vulkan precision bounds).
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer In { float x[16]; float y[16]; float z[16]; uint u[16]; } src;
layout(std430, set = 0, binding = 1) buffer Out { float f[16][12]; int i[16][5]; } dst;

void main()
{
    uint g = gl_GlobalInvocationID.x;
    float x = src.x[g], y = src.y[g], z = src.z[g];
    uint u = src.u[g];
    dst.f[g][0] = sin(x);
    dst.f[g][1] = cos(x);
    dst.f[g][2] = exp2(y);
    dst.f[g][3] = log2(z);
    dst.f[g][4] = sqrt(z);
    dst.f[g][5] = inversesqrt(z);
    dst.f[g][6] = pow(z, 1.5);
    dst.f[g][7] = atan(x, z);
    dst.f[g][8] = fract(x * 3.7);
    dst.f[g][9] = roundEven(x * 2.5);
    dst.f[g][10] = ceil(x * 1.3) + trunc(y * 1.7) + sign(x);
    dst.f[g][11] = ldexp(x, int(g) - 8);
    dst.i[g][0] = findLSB(u);
    dst.i[g][1] = findMSB(int(u));
    dst.i[g][2] = bitCount(u);
    dst.i[g][3] = int(bitfieldReverse(u));
    dst.i[g][4] = int(bitfieldExtract(u, 3, 7));
}
