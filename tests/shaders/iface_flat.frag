#version 450
// Pipeline-interface tests (iface): reads location 0 as flat, where iface_basic.vert writes it
// with perspective interpolation (an inter-stage interpolation mismatch).
layout(location = 0) flat in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = v_color;
}
