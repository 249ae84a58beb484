#version 450
// Scenes: a compute pattern written with imageStore (integer rings and a diagonal), read back
// by a render pass as a sampled texture.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D img;

void main()
{
    ivec2 size = imageSize(img);
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y) return;
    ivec2 d = p * 2 - size + 1;
    int r2 = d.x * d.x + d.y * d.y;
    int ring = (r2 / (size.x * 2)) % 3;
    vec4 c = ring == 0 ? vec4(0.9, 0.3, 0.2, 1.0) : ring == 1 ? vec4(0.2, 0.7, 0.9, 1.0) : vec4(0.95, 0.9, 0.3, 1.0);
    if (p.x == p.y) c = vec4(1.0);
    imageStore(img, p, c * vec4(vec3(float(gl_LocalInvocationIndex) / 30.0 + 0.5), 1.0));
}
