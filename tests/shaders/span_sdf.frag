#version 450
// soft_span_test (block-constant path, soft_raster_const.c): a rounded rectangle as a signed
// distance over the texture coordinate, color alpha times coverage (the bench UI rectangle's
// arithmetic): constant inside the shape and outside it, a 1 px ramp between.
layout(location = 0) in vec2 v_uv;
layout(location = 1) in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    vec2 q = abs(v_uv * 24.0 - 12.0) - vec2(7.0, 5.0) + 3.0;
    float d = length(max(q, vec2(0.0))) + min(max(q.x, q.y), 0.0) - 3.0;
    o_color = vec4(v_color.rgb, v_color.a * clamp(0.5 - d, 0.0, 1.0));
}
