#version 450
// Scenes: UI quads in logical pixels (top-left origin), mapped to clip space by u.scale.
// params: half width, half height, corner radius, mode (0 gradient, 1 rounded rect, 2 glyph).
layout(location = 0) in vec2 a_pos;
layout(location = 1) in vec2 a_local;
layout(location = 2) in vec4 a_color;
layout(location = 3) in vec4 a_params;
layout(location = 0) out vec2 v_local;
layout(location = 1) out vec4 v_color;
layout(location = 2) flat out vec4 v_params;
layout(set = 0, binding = 0) uniform Ui { vec4 scale; } u;   // xy: 2 / logical size

void main()
{
    v_local = a_local;
    v_color = a_color;
    v_params = a_params;
    gl_Position = vec4(a_pos.x * u.scale.x - 1.0, 1.0 - a_pos.y * u.scale.y, 0.0, 1.0);
}
