#version 450
// Scenes: textureLoad (texelFetch), textureDimensions (textureSize) and textureNumLevels; the
// mip level in v_uv.z, texel coordinates from v_uv.xy in [0, 1) scaled to 16 texels.
layout(location = 0) in vec4 v_uv;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform texture2D t_color;
layout(set = 0, binding = 1) uniform sampler s_color;

void main()
{
    int level = int(v_uv.z);
    ivec2 size = textureSize(sampler2D(t_color, s_color), level);
    ivec2 c = ivec2(v_uv.xy * 16.0) % size;
    float levels = float(textureQueryLevels(sampler2D(t_color, s_color)));
    vec4 t = texelFetch(sampler2D(t_color, s_color), c, level);
    o_color = vec4(t.rgb, 1.0) * (levels / 5.0) + vec4(0.0, 0.0, float(size.x) / 64.0, 0.0);
}
