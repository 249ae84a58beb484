#version 450
// Demo 3D object: procedural stripes, Lambert diffuse, Blinn-Phong highlight and a rim light.
layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;
layout(location = 2) in vec3 v_view;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform Mesh { mat4 mvp; mat4 model; vec4 light; vec4 eye; } u;

void main()
{
    vec3 n = normalize(v_normal), v = normalize(v_view), l = u.light.xyz;
    float stripe = step(0.5, fract(v_uv.x * 6.0));
    vec3 base = mix(vec3(0.10, 0.55, 0.95), vec3(0.95, 0.65, 0.15), stripe);
    float diffuse = max(dot(n, l), 0.0);
    float spec = pow(max(dot(n, normalize(l + v)), 0.0), 32.0);
    float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0);
    o_color = vec4(base * (0.2 + 0.8 * diffuse) + vec3(spec * 0.6 + rim * 0.35), 1.0);
}
