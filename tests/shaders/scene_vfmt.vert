#version 450
// Scenes: vertex formats: snorm16x2 position, unorm8x4 color, float16x2 offset, uint8x2 id,
// float32 scale, unorm10-10-10-2 tint, sint16x2 signed pair, combined into position and color.
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec4 a_color;
layout(location = 2) in vec2 a_offset;
layout(location = 3) in uvec2 a_id;
layout(location = 4) in float a_scale;
layout(location = 5) in vec4 a_tint;
layout(location = 6) in ivec2 a_pair;
layout(location = 0) out vec4 v_color;

void main()
{
    vec3 ids = vec3(float(a_id.x), float(a_id.y), float(a_pair.x - a_pair.y)) / 255.0;
    v_color = vec4(a_color.rgb * a_tint.rgb + ids, a_tint.a * 0.5 + 0.5);
    gl_Position = vec4(a_pos * a_scale + a_offset, 0.5, 1.0);
}
