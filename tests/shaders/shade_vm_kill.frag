#version 450
// soft_shade_vm_test: shade_vm.frag with a discard and a derivative (the VM, not the whole native
// function: killed lanes and helper lanes).
layout(location = 0) in vec2 v_uv;
layout(location = 1) noperspective in vec4 v_lin;
layout(location = 2) flat in vec4 v_flat;
layout(location = 3) in vec4 v_k;
layout(location = 4) noperspective in float v_one;
layout(location = 0) out vec4 o_color;

void main()
{
    vec2 q = fract(v_uv * 3.0 + gl_FragCoord.xy * vec2(0.13, 0.07));
    if (q.x > 0.8) discard;
    float a = v_lin.a * v_k.w * (gl_FrontFacing ? 1.0 : 0.5);
    o_color = vec4(mix(v_lin.r, q.x, 0.5) + abs(dFdx(v_uv.x)), q.y * v_flat.y + v_k.x * 0.25,
                   v_flat.z * 0.5 + gl_FragCoord.w * 0.1 * v_one, a);
}
