#version 450
// d3d12_tpf_check: textures (2D, array, cube, depth compare, fetch, size), samplers.
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 o;
layout(set = 0, binding = 0) uniform texture2D t2;
layout(set = 0, binding = 1) uniform texture2DArray ta;
layout(set = 0, binding = 2) uniform textureCube tc;
layout(set = 0, binding = 3) uniform texture2D td;
layout(set = 0, binding = 4) uniform sampler s;
layout(set = 0, binding = 5) uniform samplerShadow sc;

void main()
{
    vec4 a = texture(sampler2D(t2, s), v_uv) + textureLod(sampler2DArray(ta, s), vec3(v_uv, 1.0), 0.0);
    a += texture(samplerCube(tc, s), vec3(v_uv, 1.0)) + texelFetch(sampler2D(t2, s), ivec2(v_uv * 4.0), 0);
    a.x += texture(sampler2DShadow(td, sc), vec3(v_uv, 0.5));
    a.y += float(textureSize(sampler2DArray(ta, s), 0).z);
    a += textureGather(sampler2D(t2, s), v_uv, 1);
    o = a;
}
