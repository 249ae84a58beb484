#version 450
// Pipeline-interface tests (iface): the vertex half of iface_depth.frag (a noperspective vec2).
layout(location = 0) in vec2 a_pos;
layout(location = 0) noperspective out vec2 v_uv;

void main()
{
    v_uv = a_pos;
    gl_Position = vec4(a_pos, 0.0, 1.0);
}
