#version 450
// Vulkan tests: one triangle covering the viewport at depth 0.125, no vertex buffers.
void main()
{
    vec2 p = vec2(float((gl_VertexIndex & 1) * 4 - 1), float((gl_VertexIndex & 2) * 2 - 1));
    gl_Position = vec4(p, 0.125, 1.0);
}
