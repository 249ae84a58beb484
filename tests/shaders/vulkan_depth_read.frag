#version 450
// Vulkan tests: reads a depth texture (bound as unfilterable float) at the fragment's texel.
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform texture2D t_depth;
layout(set = 0, binding = 1) uniform sampler s_point;

void main()
{
    float z = texelFetch(sampler2D(t_depth, s_point), ivec2(gl_FragCoord.xy), 0).r;
    o_color = vec4(z, 0.0, 0.0, 1.0);
}
