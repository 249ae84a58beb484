#version 450
// Pipeline-interface tests (iface): a depth comparison (comparison sampler, depth texture), a
// noperspective varying, and gl_FragDepth written (needs a depthStencil with depth).
layout(location = 0) noperspective in vec2 v_uv;
layout(location = 0) out vec2 o_rg;
layout(set = 0, binding = 0) uniform texture2D t_shadow;
layout(set = 0, binding = 1) uniform samplerShadow s_cmp;

void main()
{
    float lit = texture(sampler2DShadow(t_shadow, s_cmp), vec3(v_uv, 0.5));
    o_rg = vec2(lit, 1.0);
    gl_FragDepth = lit;
}
