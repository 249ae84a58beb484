#version 450
// soft_vm_ops_test: an image atomic in a fragment shader that also takes a derivative (so its quad
// runs helper invocations, whose atomics must have no effect).
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(location = 0) out vec4 o_color;

void main()
{
    uint old = imageAtomicAdd(img, ivec2(0, 0), 1u);
    o_color = vec4(dFdx(gl_FragCoord.x), float(old) / 255.0, 0.0, 1.0);
}
