#version 450
// soft_vm_ops_test: a whole 17-vec4 array (68 floats) loaded from one storage buffer and stored to another
// (one OpLoad / OpStore of more scalars than the VM's on-stack offset table holds).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Src { vec4 a[17]; } s;
layout(set = 0, binding = 1) buffer Dst { vec4 b[17]; } o;

void main()
{
    o.b = s.a;
}
