#version 450
// Vertex stage: vertex inputs, a uniform block with a matrix, an inter-stage output.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in uvec4 a_joints;
layout(location = 0) out vec2 v_uv;
layout(location = 1) flat out uint v_joint;
layout(set = 0, binding = 0) uniform Globals { mat4 mvp; vec4 tint; } u;

void main()
{
    v_uv = a_uv;
    v_joint = a_joints.x + uint(gl_VertexIndex) + uint(gl_InstanceIndex);
    gl_Position = u.mvp * vec4(a_pos, 1.0);
}
