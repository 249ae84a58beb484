#version 450
// Soft VM test: varyings to a color, a derivative over the 2x2 quad, and discard.
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 o_color;

void main()
{
    if (v_uv.y > 0.9) discard;
    o_color = vec4(v_uv, dFdx(v_uv.x), gl_FragCoord.x);
}
