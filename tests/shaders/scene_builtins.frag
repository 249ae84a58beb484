#version 450
// Scenes: FragCoord, FrontFacing and discard. Pixel centres are at .5, so fract(x / 16) steps
// by 1/16 per pixel; every pixel whose (x + 2y) is a multiple of 5 is discarded.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    if ((p.x + 2 * p.y) % 5 == 0) discard;
    o_color = vec4(fract(gl_FragCoord.x / 16.0), fract(gl_FragCoord.y / 16.0),
                   gl_FrontFacing ? 1.0 : 0.25, 1.0) * v_color;
}
