#version 450
// Projective sampling with an explicit LOD (OpImageSampleProjExplicitLod, and the Dref form that
// divides Dref by q too), for tests/unit/d3d12_shader_test.c (shader_lowering.projective_sampling).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform texture2D t;
layout(set = 0, binding = 1) uniform sampler s;
layout(set = 0, binding = 2) uniform texture2D td;
layout(set = 0, binding = 3) uniform samplerShadow ss;
layout(set = 0, binding = 4) buffer Out { vec4 o[2]; } o;
void main() {
    o.o[0] = textureProjLod(sampler2D(t, s), vec3(0.75, 1.25, 2.0), 0.0);
    o.o[1] = vec4(textureProjLod(sampler2DShadow(td, ss), vec4(0.75, 1.25, 0.8, 2.0), 0.0),
                  textureProjLod(sampler2DShadow(td, ss), vec4(0.75, 1.25, 1.2, 2.0), 0.0), 0.0, 1.0);
}
