#version 450
// Soft JIT rows path (tests/unit/soft_shade_jit_test.c): FragCoord and arithmetic only, the
// operations the test recomputes in C (fract, mix with a constant weight, clamp).
layout(location = 0) out vec4 o_color;

void main()
{
    vec2 p = gl_FragCoord.xy * vec2(0.37, 0.11);
    vec2 q = fract(p);
    float m = mix(q.x, q.y, 0.25);
    o_color = vec4(q.x, clamp(p.y - 1.0, 0.0, 1.0), m, 1.0);
}
