#version 450
// Benchmark scene 5: a procedural pattern of about 40 ALU operations per pixel (no texture, no
// transcendental functions), so the figure is shader-execution throughput. bench/bench_native.c
// computes the same thing in C (the native lower bound); keep the two in step.
layout(location = 0) out vec4 o_color;

void main()
{
    vec2 p = gl_FragCoord.xy * vec2(0.0125, 0.0208333);     // 2 mul
    vec2 q = fract(p * 1.7 + vec2(0.3, 0.1)) - 0.5;           // 2 mul 2 add 2 fract 2 sub
    float d = dot(q, q);                                      // 3
    float r = clamp(1.0 - d * 4.0, 0.0, 1.0);                 // mul sub clamp
    vec2 s = abs(p - vec2(5.0, 4.8));                         // 2 sub 2 abs
    float box = max(s.x, s.y) * 0.2;                          // max mul
    float w = fract(box * 3.0 + r);                           // mul add fract
    float m = w * w * (3.0 - 2.0 * w);                        // 2 mul mul sub
    vec3 a = vec3(0.9, 0.4, 0.1) * r + vec3(0.1, 0.3, 0.8) * m;   // 6 mul 3 add
    vec3 b = mix(a, vec3(q.x + 0.5, q.y + 0.5, d), 0.25);     // 2 add, mix 3 x 3
    o_color = vec4(min(b, vec3(1.0)), 1.0);                   // 3 min
}
