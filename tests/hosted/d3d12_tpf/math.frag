#version 450
// d3d12_tpf_check: math built-ins, matrices, packing, integer ops, derivatives, discard, depth.
layout(location = 0) in vec4 v_a;
layout(location = 1) flat in ivec2 v_i;
layout(location = 0) out vec4 o_color;
layout(location = 1) out uvec4 o_bits;
layout(set = 0, binding = 0) uniform U { mat3 m; mat4 p; vec4 arr[4]; float f[3]; } u;

void main()
{
    if (v_a.w < 0.0) discard;
    vec3 n = normalize(u.m * v_a.xyz);
    float s = atan(v_a.x, v_a.y) + asin(clamp(v_a.z, -1.0, 1.0)) + pow(abs(v_a.x), 2.2) + exp(v_a.y) + log(abs(v_a.z) + 1.0);
    mat4 q = inverse(u.p) * transpose(u.p);
    vec4 c = q * vec4(n, s) + u.arr[v_i.x & 3] * u.f[v_i.y & 1];
    c.xy += dFdx(v_a.xy) + fwidth(v_a.zw);
    o_color = mix(c, vec4(smoothstep(0.0, 1.0, s)), 0.5) * determinant(u.m);
    o_bits = uvec4(packUnorm4x8(c), packHalf2x16(c.xy), uint(findMSB(v_i.x)), bitfieldExtract(uint(v_i.y), 3, 5));
    gl_FragDepth = clamp(v_a.z, 0.0, 1.0);
}
