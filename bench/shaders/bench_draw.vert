#version 450
// Benchmark scene 6: a tiny triangle moved by a per-draw uniform (dynamic offset).
layout(location = 0) in vec2 a_pos;
layout(set = 0, binding = 0) uniform Draw { vec4 offset; } u;

void main()
{
    gl_Position = vec4(a_pos + u.offset.xy, 0.0, 1.0);
}
