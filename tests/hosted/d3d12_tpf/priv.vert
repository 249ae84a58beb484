#version 450
// d3d12_tpf_check: private/function arrays indexed dynamically (x#), structs, vertex/instance index.
layout(location = 0) in vec2 a_pos;
layout(location = 0) out vec3 v_c;
struct S { vec3 c; float w; };
const vec2 pos[3] = vec2[3](vec2(-1.0), vec2(1.0, -1.0), vec2(0.0, 1.0));

void main()
{
    S tab[3] = S[3](S(vec3(1, 0, 0), 1.0), S(vec3(0, 1, 0), 2.0), S(vec3(0, 0, 1), 3.0));
    int i = gl_VertexIndex % 3;
    v_c = tab[i].c * tab[(i + gl_InstanceIndex) % 3].w;
    gl_Position = vec4(pos[i] + a_pos, 0.0, 1.0);
}
