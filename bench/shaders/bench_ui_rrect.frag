#version 450
// Benchmark scene 2: an anti-aliased rounded rectangle as a signed distance in the fragment
// shader (one pixel of coverage ramp), color alpha times coverage.
layout(location = 0) in vec2 v_local;
layout(location = 2) in vec4 v_color;
layout(location = 3) flat in vec4 v_shape;
layout(location = 0) out vec4 o_color;

void main()
{
    vec2 q = abs(v_local) - v_shape.xy + v_shape.z;
    float d = length(max(q, vec2(0.0))) + min(max(q.x, q.y), 0.0) - v_shape.z;
    o_color = vec4(v_color.rgb, v_color.a * clamp(0.5 - d, 0.0, 1.0));
}
