#version 450
// Scenes: four color outputs derived from one interpolated color.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color0;
layout(location = 1) out vec4 o_color1;
layout(location = 2) out vec4 o_color2;
layout(location = 3) out vec4 o_color3;

void main()
{
    o_color0 = v_color;
    o_color1 = vec4(1.0 - v_color.rgb, 1.0);
    o_color2 = vec4(v_color.gbr * 2.0, 0.5);
    o_color3 = vec4(dot(v_color.rgb, vec3(0.299, 0.587, 0.114)), 0.0, 0.0, 1.0);
}
