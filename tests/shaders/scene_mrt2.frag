#version 450
// Scenes: two color outputs, the second half transparent (blended by the pipeline).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color0;
layout(location = 1) out vec4 o_color1;

void main()
{
    o_color0 = v_color.bgra;
    o_color1 = vec4(v_color.rgb, 0.5);
}
