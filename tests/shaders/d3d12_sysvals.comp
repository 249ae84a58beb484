#version 450
// d3d12_test: num_workgroups (a root constant on D3D12, also through ExecuteIndirect) and one
// mark per workgroup at its flattened id.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint v[]; } o;

void main()
{
    uvec3 n = gl_NumWorkGroups, id = gl_WorkGroupID;
    if (id.x == 0u && id.y == 0u && id.z == 0u) {
        o.v[0] = n.x;
        o.v[1] = n.y;
        o.v[2] = n.z;
    }
    o.v[4u + id.x + n.x * (id.y + n.y * id.z)] = 1u;
}
