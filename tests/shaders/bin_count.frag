#version 450
// soft_bin_test: a fragment stage with a side effect (an atomic counter), so hal/soft must not
// defer it behind binned draws. Passes the color through like draw_color.frag.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0, std430) buffer Count { uint n[]; } count;

void main()
{
    atomicAdd(count.n[0], 1u);
    o_color = v_color;
}
