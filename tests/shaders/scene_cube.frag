#version 450
// Scenes: a cube map seen on a disc: v_uv.xy in [-1, 1] is a point of the unit disc, v_uv.z the
// hemisphere (+1 front, -1 back); the direction is rotated so that three faces show on each.
layout(location = 0) in vec4 v_uv;
layout(location = 0) out vec4 o_color;
layout(set = 0, binding = 0) uniform textureCube t_cube;
layout(set = 0, binding = 1) uniform sampler s_cube;

void main()
{
    vec2 p = v_uv.xy;
    float r2 = dot(p, p);
    if (r2 > 1.0) discard;
    vec3 d = vec3(p, sqrt(1.0 - r2) * v_uv.z);
    // rotation by 45 degrees about y, then 35 degrees about x
    mat3 r = mat3(0.7071, 0.4056, -0.5792,
                  0.0, 0.8192, 0.5736,
                  0.7071, -0.4056, 0.5792);
    o_color = texture(samplerCube(t_cube, s_cube), r * d);
}
