#version 450
// Scenes: instancing. Per vertex a 2D shape point; per instance an offset and scale (float32x4)
// and a color (unorm8x4). Odd instance indices (which include firstInstance) are drawn darker.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_offset_scale;
layout(location = 2) in vec4 a_color;
layout(location = 0) out vec4 v_color;

void main()
{
    float shade = (gl_InstanceIndex & 1) == 1 ? 0.5 : 1.0;
    v_color = vec4(a_color.rgb * shade, a_color.a);
    gl_Position = vec4(a_pos * a_offset_scale.z + a_offset_scale.xy, 0.5, 1.0);
}
