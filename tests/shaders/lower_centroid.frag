#version 450
// Centroid interpolation, perspective and linear (DXBC dcl_input_ps linear_centroid = 3,
// linear_noperspective_centroid = 5), for tests/unit/d3d12_tpf_test.c.
layout(location = 0) centroid in vec4 a;
layout(location = 1) centroid noperspective in vec4 b;
layout(location = 2) flat in uint c;
layout(location = 0) out vec4 o;
void main() { o = a + b + vec4(float(c)); }
