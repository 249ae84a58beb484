#version 450
// soft_shade_vm_test: every kind of input soft_raster_shade.c shade_vm sorts per triangle
// (perspective, noperspective and flat; varying, or equal at the three vertices), from span.vert's
// vertex layout.
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec2 a_uv;
layout(location = 2) in vec4 a_color;
layout(location = 0) out vec2 v_uv;
layout(location = 1) noperspective out vec4 v_lin;
layout(location = 2) flat out vec4 v_flat;
layout(location = 3) out vec4 v_k;
layout(location = 4) noperspective out float v_one;

void main()
{
    v_uv = a_uv;
    v_lin = a_color;
    v_flat = a_color.wzyx;
    v_k = a_color.bgra * 0.75 + 0.125;
    v_one = 0.625;
    gl_Position = a_pos;
}
