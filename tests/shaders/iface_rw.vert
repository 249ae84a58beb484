#version 450
// Pipeline-interface tests (iface): a vertex shader writing a storage buffer. Layout "auto"
// derives a read-write storage entry visible to Vertex, which WebGPU forbids.
layout(set = 0, binding = 0) buffer Log { uint n[]; } log_buf;

void main()
{
    log_buf.n[gl_VertexIndex] = 1u;
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
