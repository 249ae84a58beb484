#version 450
// soft_vm_test: texture instructions in the VM. Invocation i (0..3) writes 4 vec4:
// textureLoad of texel (i, 1), textureSampleLevel at the centre of texel (i, 0), halfway between
// texels i and i + 1 of row 0 (linear), and (textureDimensions, textureNumLevels, 0).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { vec4 v[]; } o;
layout(set = 0, binding = 1) uniform texture2D t_tex;
layout(set = 0, binding = 2) uniform sampler s_lin;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    float fi = float(i);
    o.v[i * 4u] = texelFetch(sampler2D(t_tex, s_lin), ivec2(int(i), 1), 0);
    o.v[i * 4u + 1u] = textureLod(sampler2D(t_tex, s_lin), vec2((fi + 0.5) / 4.0, 0.25), 0.0);
    o.v[i * 4u + 2u] = textureLod(sampler2D(t_tex, s_lin), vec2((fi + 1.0) / 4.0, 0.25), 0.0);
    o.v[i * 4u + 3u] = vec4(vec2(textureSize(sampler2D(t_tex, s_lin), 0)),
                            float(textureQueryLevels(sampler2D(t_tex, s_lin))), 0.0);
}
