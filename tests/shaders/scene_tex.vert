#version 450
// Scenes: clip-space position; the second attribute carries texture coordinates (xy), a layer,
// lod or depth reference (z) and a spare (w).
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_uv;
layout(location = 0) out vec4 v_uv;

void main()
{
    v_uv = a_uv;
    gl_Position = a_pos;
}
