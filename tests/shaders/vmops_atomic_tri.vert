#version 450
// soft_vm_ops_test: a small triangle (-1, 1) (-0.4, 1) (-1, 0.4) covering only the centre of pixel
// (0, 0) of a 4x4 target, so the rest of its 2x2 quad are helper invocations.
void main()
{
    vec2 p = vec2(-1.0 + 0.6 * float(gl_VertexIndex == 1), 1.0 - 0.6 * float(gl_VertexIndex == 2));
    gl_Position = vec4(p, 0.0, 1.0);
}
