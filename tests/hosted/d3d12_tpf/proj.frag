#version 450
// Projective sampling (OpImageSampleProj*, with and without Dref, implicit and explicit LOD) and
// textureQueryLod (OpImageQueryLod), which the test shaders lack.
layout(set = 0, binding = 0) uniform texture2D t;
layout(set = 0, binding = 1) uniform sampler s;
layout(set = 0, binding = 2) uniform texture2D td;
layout(set = 0, binding = 3) uniform samplerShadow ss;
layout(location = 0) in vec4 c;
layout(location = 0) out vec4 o;
void main() {
    o = textureProj(sampler2D(t, s), c.xyz) + textureProjLod(sampler2D(t, s), c, 0.0)
      + vec4(textureProj(sampler2DShadow(td, ss), c)) + vec4(textureProjLod(sampler2DShadow(td, ss), c, 0.0))
      + vec4(textureQueryLod(sampler2D(t, s), c.xy), 0.0, 0.0);
}
