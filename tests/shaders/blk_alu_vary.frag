#version 450
// Soft JIT path with inputs (tests/unit/soft_shade_jit_test.c): a perspective color, FragCoord
// and arithmetic, translated whole by the JIT and run per block after interpolation.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    vec2 q = fract(gl_FragCoord.xy * vec2(0.21, 0.13) + v_color.xy);
    o_color = vec4(mix(v_color.z, q.x, 0.5), q.y, v_color.w * q.x, 1.0);
}
