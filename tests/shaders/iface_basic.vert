#version 450
// Pipeline-interface tests (iface): vertex inputs of two types, a flat and a smooth varying,
// a uniform block (80 bytes: mat4 + vec4) also used by iface_basic.frag.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in uvec2 a_id;
layout(location = 0) out vec4 v_color;
layout(location = 1) flat out uint v_id;
layout(set = 0, binding = 0) uniform Globals { mat4 mvp; vec4 tint; } u;

void main()
{
    v_color = u.tint;
    v_id = a_id.x;
    gl_Position = u.mvp * vec4(a_pos, 0.0, 1.0);
}
