#version 450
// Scenes: draws the prefix sums as a bar chart into a storage texture: column x shows scan[c]
// (c = x * 64 / width) scaled by the total; the two top rows show the odd count (yellow), the
// bottom row the largest value (red); everything turns red if total != scan[63].
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer Dst { uint total; uint odd; uint largest; uint pad; uint scan[64]; } res;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D img;

void main()
{
    uvec2 size = uvec2(imageSize(img));
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= size.x || p.y >= size.y) return;
    uint c = p.x * 64u / size.x;
    float f = float(c) / 63.0;
    vec4 color = vec4(0.1, 0.1, 0.15, 1.0);
    if (size.y - 1u - p.y < res.scan[c] * (size.y - 4u) / res.total) color = vec4(f, 0.8 - f * 0.5, 0.9, 1.0);
    if (p.y < 2u) color = p.x < res.odd * size.x / 64u ? vec4(1.0, 0.8, 0.2, 1.0) : color;
    if (p.y == size.y - 1u) color = p.x < res.largest * size.x / 16u ? vec4(1.0, 0.3, 0.2, 1.0) : color;
    if (res.total != res.scan[63]) color.r = 1.0;
    imageStore(img, ivec2(p), color);
}
