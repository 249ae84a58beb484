#version 450
// Scenes: UI fragment: vertex-color gradient, rounded rectangle by signed distance (one pixel of
// anti-aliasing), or a glyph whose coverage comes from the atlas' red channel (explicit lod 0,
// so no derivatives are needed inside the branch).
layout(location = 0) in vec2 v_local;
layout(location = 1) in vec4 v_color;
layout(location = 2) flat in vec4 v_params;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 1) uniform texture2D t_atlas;
layout(set = 0, binding = 2) uniform sampler s_atlas;

void main()
{
    vec4 c = v_color;
    if (v_params.w > 1.5) {
        c.a *= textureLod(sampler2D(t_atlas, s_atlas), v_local, 0.0).r;
    } else if (v_params.w > 0.5) {
        vec2 q = abs(v_local) - v_params.xy + v_params.z;
        float d = length(max(q, vec2(0.0))) + min(max(q.x, q.y), 0.0) - v_params.z;
        c.a *= clamp(0.5 - d, 0.0, 1.0);
    }
    o_color = c;
}
