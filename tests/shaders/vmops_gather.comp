#version 450
// soft_vm_ops_test: textureGather (OpImageGather: a component, repeat wrapping, a const offset)
// and textureGather on a shadow sampler (OpImageDrefGather) on 4x4 textures.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform texture2D t;
layout(set = 0, binding = 1) uniform sampler s;
layout(set = 0, binding = 2) uniform texture2D td;
layout(set = 0, binding = 3) uniform samplerShadow ss;
layout(set = 0, binding = 4) buffer Out { vec4 o[4]; } o;

void main()
{
    o.o[0] = textureGather(sampler2D(t, s), vec2(0.5, 0.5), 1);
    o.o[1] = textureGather(sampler2D(t, s), vec2(0.0, 0.0));
    o.o[2] = textureGatherOffset(sampler2D(t, s), vec2(0.5, 0.5), ivec2(1, -1), 0);
    o.o[3] = textureGather(sampler2DShadow(td, ss), vec2(0.5, 0.5), 0.5);
}
