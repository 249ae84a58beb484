#version 450
// Block layouts the layout rules must accept: std140 Uniform (mat3, vec3 + float packing, scalar
// arrays at stride 16, nested structs) and std430 StorageBuffer (vec3 arrays, row-major matrices).
layout(local_size_x = 1) in;
struct Light { vec3 dir; float power; vec2 uv; };
layout(set = 0, binding = 0) uniform U {
    float a; vec3 b; mat3 m; float arr[3]; Light light; vec2 tail; mat2x3 m23; Light lights[2];
} u;
layout(set = 0, binding = 1, std430) buffer S {
    float x; vec2 y; vec3 z; layout(row_major) mat3x2 rm; Light ls[2]; float f[2]; vec3 rest[];
} s;
void main()
{
    s.x = u.a + u.b.x + u.m[0][0] + u.arr[1] + u.light.power + u.tail.y + u.m23[1][2] + u.lights[1].uv.x;
    s.y = s.rm[0] + vec2(s.ls[1].power, s.f[1]);
    s.rest[0] = s.z;
}
