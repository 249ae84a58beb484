#version 450
// Demo UI: vertex-color gradients, anti-aliased rounded rectangles (signed distance), atlas
// texels (glyphs: white with coverage alpha; icons: colored) and a gauge arc (a ring filled
// clockwise from the top up to params.z of a full turn).
layout(location = 0) in vec2 v_local;
layout(location = 1) in vec4 v_color;
layout(location = 2) flat in vec4 v_params;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 1) uniform texture2D t_atlas;
layout(set = 0, binding = 2) uniform sampler s_atlas;

void main()
{
    vec4 c = v_color;
    float mode = v_params.w;
    if (mode > 2.5) {
        float r = length(v_local);
        float ring = clamp(0.5 - abs(r - v_params.x) + v_params.y, 0.0, 1.0);
        float turn = atan(v_local.x, -v_local.y) / 6.2831853 + 0.5;
        c = turn < v_params.z ? c : vec4(c.rgb * 0.25, c.a);
        c.a *= ring;
    } else if (mode > 1.5) {
        c *= textureLod(sampler2D(t_atlas, s_atlas), v_local, 0.0);
    } else if (mode > 0.5) {
        vec2 q = abs(v_local) - v_params.xy + v_params.z;
        float d = length(max(q, vec2(0.0))) + min(max(q.x, q.y), 0.0) - v_params.z;
        c.a *= clamp(0.5 - d, 0.0, 1.0);
    }
    o_color = c;
}
