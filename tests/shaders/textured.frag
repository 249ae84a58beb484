#version 450
// Fragment stage: separate texture and sampler, a loop and a switch. No function call: glslang
// emits main before its callees, which the WebGPU rule "callee before caller" rejects.
layout(location = 0) in vec2 v_uv;
layout(location = 1) flat in uint v_joint;
layout(location = 0) out vec4 o_color;
layout(location = 1) out ivec2 o_id;
layout(set = 0, binding = 1) uniform texture2D t_color;
layout(set = 0, binding = 2) uniform sampler s_linear;
layout(set = 1, binding = 0) uniform utexture2D t_ids;

void main()
{
    vec4 acc = vec4(0.0);
    for (int i = 0; i < 4; i++) {
        vec4 c = texture(sampler2D(t_color, s_linear), v_uv + vec2(float(i) * dFdx(v_uv.x), 0.0));
        switch ((v_joint + uint(i)) & 3u) {
        case 0u: c.rgb *= 0.5; break;
        case 1u: c.rgb = c.bgr; break;
        default: c.a = 1.0; break;
        }
        acc += c;
    }
    uvec4 id = texelFetch(usampler2D(t_ids, s_linear), ivec2(gl_FragCoord.xy), 0);
    o_color = acc * 0.25;
    o_id = ivec2(id.xy);
    gl_FragDepth = gl_FragCoord.z;
}
