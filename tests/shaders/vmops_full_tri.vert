#version 450
// soft_vm_ops_test: one triangle (-1, -1) (3, -1) (-1, 3) over the whole viewport, from the vertex
// index alone (no vertex buffers).
void main()
{
    vec2 p = vec2(4.0 * float(gl_VertexIndex == 1), 4.0 * float(gl_VertexIndex == 2)) - 1.0;
    gl_Position = vec4(p, 0.0, 1.0);
}
