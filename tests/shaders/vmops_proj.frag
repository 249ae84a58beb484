#version 450
// soft_vm_ops_test: projective sampling with an implicit LOD in a fragment shader
// (OpImageSampleProjImplicitLod and OpImageSampleProjDrefImplicitLod): the coordinate
// (x, y, 4) with (x, y) = FragCoord projects to (x/4, y/4), a quarter texel of the 4x4 target per
// pixel; the LOD comes from the derivatives of the projected coordinate.
layout(set = 0, binding = 0) uniform texture2D t;
layout(set = 0, binding = 1) uniform sampler s;
layout(set = 0, binding = 2) uniform texture2D td;
layout(set = 0, binding = 3) uniform samplerShadow ss;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = textureProj(sampler2D(t, s), vec3(gl_FragCoord.xy, 4.0));
    o_color.a = textureProj(sampler2DShadow(td, ss), vec4(gl_FragCoord.xy, 1.6, 4.0));
}
