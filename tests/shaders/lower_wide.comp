#version 450
// Carry/borrow/extended multiply (OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended) and
// modf/frexp (GLSL.std.450 Modf with its pointer operand, FrexpStruct) on two-lane vectors, for
// tests/unit/d3d12_shader_test.c (shader_lowering.carry_mul_modf_frexp).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[2]; uint b[2]; vec4 x; } i;
layout(set = 0, binding = 1) buffer Out { uint u[16]; vec4 f[2]; } o;
void main() {
    uvec2 a = uvec2(i.a[0], i.a[1]), b = uvec2(i.b[0], i.b[1]);
    uvec2 carry, borrow, hi, lo;
    ivec2 ihi, ilo;
    uvec2 s = uaddCarry(a, b, carry);
    uvec2 d = usubBorrow(a, b, borrow);
    umulExtended(a, b, hi, lo);
    imulExtended(ivec2(a), ivec2(b), ihi, ilo);
    uvec2 r[8] = uvec2[8](s, carry, d, borrow, lo, hi, uvec2(ilo), uvec2(ihi));
    for (int k = 0; k < 8; k++) { o.u[2 * k] = r[k].x; o.u[2 * k + 1] = r[k].y; }
    vec2 whole;
    vec2 fr = modf(i.x.xy, whole);
    ivec2 e;
    vec2 m = frexp(i.x.zw, e);
    o.f[0] = vec4(fr, whole);
    o.f[1] = vec4(m, vec2(e));
}
