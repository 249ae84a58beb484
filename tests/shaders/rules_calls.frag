#version 450
// Front-end rules test: function calls, a switch, a loop with continue, discard, flat input.
layout(location = 0) in vec2 v_uv;
layout(location = 1) flat in uint v_index;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 1) uniform texture2D t_color;
layout(set = 0, binding = 2) uniform sampler s_color;

vec3 palette(uint i)
{
    switch (i % 4u) {
    case 0u: return vec3(1.0, 0.0, 0.0);
    case 1u: return vec3(0.0, 1.0, 0.0);
    case 2u: return vec3(0.0, 0.0, 1.0);
    default: return vec3(1.0);
    }
}

float rings(vec2 p)
{
    float s = 0.0;
    for (int i = 0; i < 4; ++i) {
        if (i == 2) continue;
        s += sin(length(p) * float(i + 1));
    }
    return s;
}

void main()
{
    vec4 t = texture(sampler2D(t_color, s_color), v_uv);
    if (t.a < 0.01) discard;
    o_color = vec4(palette(v_index) * rings(gl_FragCoord.xy * 0.01), 1.0) * t;
}
