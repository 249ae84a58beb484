/* Conformance scenes: sampler address modes, filters, mipmaps, lod, cube, array, comparison,
 * texel loads and sampled texture formats. */
#include "tests/scenes/scenes.h"

#include <string.h>

static const float k_dark[4] = { 0.08f, 0.08f, 0.1f, 1 };

/* A 4x4 RGBA8 texture of 16 distinct colors. */
static WGPUTexture tex16(eg_scene_t *s)
{
    uint8_t px[4 * 4 * 4];
    for (uint32_t i = 0; i < 16; i++) {
        px[i * 4 + 0] = (uint8_t)((i % 4) * 85);
        px[i * 4 + 1] = (uint8_t)((i / 4) * 85);
        px[i * 4 + 2] = (uint8_t)(i % 3 == 0 ? 255 : 40);
        px[i * 4 + 3] = 255;
    }
    WGPUTexture t = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1,
                                     WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    eg_scene_write_texture(s, t, 0, 0, 4, 4, 4, px);
    return t;
}

static const uint8_t k_level_rgb[5][3] = {
    { 230, 60, 60 }, { 60, 200, 60 }, { 60, 90, 240 }, { 240, 220, 50 }, { 220, 60, 220 },
};

/* 16x16 RGBA8 with 5 mip levels: level L is a 1-texel checker of k_level_rgb[L] and its half. */
static WGPUTexture mip_texture(eg_scene_t *s)
{
    WGPUTexture t = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, 16, 16, 1, 5, 1,
                                     WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    uint8_t px[16 * 16 * 4];
    for (uint32_t l = 0; l < 5; l++) {
        uint32_t n = 16u >> l;
        for (uint32_t i = 0; i < n * n; i++) {
            uint32_t half = ((i % n) + (i / n)) % 2u;
            for (int c = 0; c < 3; c++) px[i * 4 + c] = (uint8_t)(k_level_rgb[l][c] >> half);
            px[i * 4 + 3] = 255;
        }
        eg_scene_write_texture(s, t, l, 0, n, n, 4, px);
    }
    return t;
}

static WGPUSamplerDescriptor sampler_desc(WGPUAddressMode u, WGPUAddressMode v, WGPUFilterMode mag,
                                          WGPUFilterMode min, WGPUMipmapFilterMode mip)
{
    WGPUSamplerDescriptor d = WGPU_SAMPLER_DESCRIPTOR_INIT;
    d.addressModeU = u;
    d.addressModeV = v;
    d.addressModeW = WGPUAddressMode_ClampToEdge;
    d.magFilter = mag;
    d.minFilter = min;
    d.mipmapFilter = mip;
    return d;
}

/* A quad from the NDC rectangle [x0,x1] x [y0,y1] with uv (u0,v0) at the top left and (u1,v1) at
 * the bottom right, z = the extra coordinate (layer, lod, depth reference), w the spare. */
static eg_scene_vtx_t *uv_quad(eg_scene_vtx_t *v, float x0, float y0, float x1, float y1, float u0,
                               float v0, float u1, float v1, float z)
{
    const float p[6][4] = { { x0, y0, u0, v1 }, { x1, y0, u1, v1 }, { x1, y1, u1, v0 },
                            { x0, y0, u0, v1 }, { x1, y1, u1, v0 }, { x0, y1, u0, v0 } };
    for (int i = 0; i < 6; i++) {
        eg_scene_vtx_t q = { p[i][0], p[i][1], 0.5f, 1, p[i][2], p[i][3], z, 0 };
        v[i] = q;
    }
    return v + 6;
}

/* Draws `n` groups of 6 vertices, group i with bind group bg[i], with one pipeline made from
 * fs and a "ts"-style layout letters (texture kind, sampler kind). */
static void textured(eg_scene_t *s, const char *fs, const char *layout, WGPUTextureView view,
                     const WGPUSampler *smp, uint32_t n, const eg_scene_vtx_t *v)
{
    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    WGPUBindGroupLayout bgl = eg_scene_bgl(s, layout, WGPUShaderStage_Fragment);
    eg_scene_pipe_t p = { .vs = "scene_tex.vert", .fs = fs, .bgl_count = 1, .bgl = { bgl } };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    WGPUBindGroup bg[4];
    for (uint32_t i = 0; i < n && i < 4; i++) {
        const void *res[2] = { view, smp[i] };
        bg[i] = eg_scene_bind_group(s, bgl, 2, res, "vs");
    }
    if (s->fail) return;
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, k_dark, NULL, 0, 0, 0);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    for (uint32_t i = 0; i < n && i < 4; i++) {
        wgpuRenderPassEncoderSetBindGroup(pass, 0, bg[i], 0, NULL);
        eg_scene_draw_vertices(s, pass, v + 6 * i, 6);
    }
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

/* Quadrant i of the screen (NDC). */
static void quadrant(int i, float *x0, float *y0, float *x1, float *y1)
{
    *x0 = i % 2 ? 0.02f : -0.98f;
    *x1 = *x0 + 0.96f;
    *y1 = i / 2 ? -0.02f : 0.98f;
    *y0 = *y1 - 0.96f;
}

/* uv -1..2 (three repeats), nearest: repeat, mirror-repeat, clamp-to-edge, repeat-u/mirror-v. */
void eg_scene_sampler_address(eg_scene_t *s)
{
    static const WGPUAddressMode m[4][2] = {
        { WGPUAddressMode_Repeat, WGPUAddressMode_Repeat },
        { WGPUAddressMode_MirrorRepeat, WGPUAddressMode_MirrorRepeat },
        { WGPUAddressMode_ClampToEdge, WGPUAddressMode_ClampToEdge },
        { WGPUAddressMode_Repeat, WGPUAddressMode_MirrorRepeat },
    };
    WGPUTextureView view = eg_scene_view(s, tex16(s), 0);
    WGPUSampler smp[4];
    eg_scene_vtx_t v[24];
    for (int i = 0; i < 4; i++) {
        WGPUSamplerDescriptor d = sampler_desc(m[i][0], m[i][1], WGPUFilterMode_Nearest,
                                               WGPUFilterMode_Nearest, WGPUMipmapFilterMode_Nearest);
        smp[i] = eg_scene_sampler(s, &d);
        float x0, y0, x1, y1;
        quadrant(i, &x0, &y0, &x1, &y1);
        uv_quad(v + 6 * i, x0, y0, x1, y1, -1, -1, 2, 2, 0);
    }
    textured(s, "scene_tex.frag", "ts", view, smp, 4, v);
}

/* Magnification nearest / linear (uv 0..1), minification nearest / linear (uv 0..6, repeat). */
void eg_scene_sampler_filter(eg_scene_t *s)
{
    WGPUTextureView view = eg_scene_view(s, tex16(s), 0);
    WGPUSampler smp[4];
    eg_scene_vtx_t v[24];
    for (int i = 0; i < 4; i++) {
        WGPUFilterMode f = i % 2 ? WGPUFilterMode_Linear : WGPUFilterMode_Nearest;
        WGPUSamplerDescriptor d = sampler_desc(WGPUAddressMode_Repeat, WGPUAddressMode_Repeat, f, f,
                                               WGPUMipmapFilterMode_Nearest);
        smp[i] = eg_scene_sampler(s, &d);
        float x0, y0, x1, y1, u = i < 2 ? 1.0f : 6.0f;
        quadrant(i, &x0, &y0, &x1, &y1);
        uv_quad(v + 6 * i, x0, y0, x1, y1, 0, 0, u, u, 0);
    }
    textured(s, "scene_tex.frag", "ts", view, smp, 4, v);
}

/* A receding floor in perspective (w 1 at the bottom to 6 at the top), uv repeated 2 x 8: lod
 * from derivatives selects the levels; left mipmapFilter nearest, right linear. */
void eg_scene_sampler_mipmap(eg_scene_t *s)
{
    WGPUTextureView view = eg_scene_view(s, mip_texture(s), 0);
    WGPUSampler smp[2];
    eg_scene_vtx_t v[12];
    for (int i = 0; i < 2; i++) {
        WGPUSamplerDescriptor d = sampler_desc(WGPUAddressMode_Repeat, WGPUAddressMode_Repeat,
                                               WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                                               i ? WGPUMipmapFilterMode_Linear : WGPUMipmapFilterMode_Nearest);
        smp[i] = eg_scene_sampler(s, &d);
        float xl = i ? 0.02f : -0.98f, xr = xl + 0.96f, xc = (xl + xr) / 2, far_w = 6.0f;
        /* near edge at the bottom (w = 1), far edge at the top, narrower, with w = 6 */
        const float p[4][5] = { { xl, -1, 1, 0, 8 }, { xr, -1, 1, 2, 8 },
                                { xc + (xr - xc) * 0.4f, 0.9f, far_w, 2, 0 }, { xc + (xl - xc) * 0.4f, 0.9f, far_w, 0, 0 } };
        static const int idx[6] = { 0, 1, 2, 0, 2, 3 };
        for (int k = 0; k < 6; k++) {
            const float *q = p[idx[k]];
            eg_scene_vtx_t o = { q[0] * q[2], q[1] * q[2], 0.5f * q[2], q[2], q[3], q[4], 0, 0 };
            v[6 * i + k] = o;
        }
    }
    textured(s, "scene_tex.frag", "ts", view, smp, 2, v);
}

/* textureLod with lod 0 (left) to 4.5 (right): top half lod clamps [0, 32], bottom half
 * lodMinClamp 1, lodMaxClamp 2.5; mipmapFilter linear. */
void eg_scene_sampler_lod(eg_scene_t *s)
{
    WGPUTextureView view = eg_scene_view(s, mip_texture(s), 0);
    WGPUSampler smp[2];
    eg_scene_vtx_t v[12];
    for (int i = 0; i < 2; i++) {
        WGPUSamplerDescriptor d = sampler_desc(WGPUAddressMode_Repeat, WGPUAddressMode_Repeat,
                                               WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                               WGPUMipmapFilterMode_Linear);
        if (i) {
            d.lodMinClamp = 1.0f;
            d.lodMaxClamp = 2.5f;
        }
        smp[i] = eg_scene_sampler(s, &d);
        float y1 = i ? -0.02f : 0.98f;
        eg_scene_vtx_t *q = uv_quad(v + 6 * i, -0.98f, y1 - 0.96f, 0.98f, y1, 0, 0, 4, 2, 0) - 6;
        for (int k = 0; k < 6; k++) q[k].z = 0.5f, q[k].b = q[k].x > 0 ? 4.5f : 0.0f;
    }
    textured(s, "scene_tex_lod.frag", "ts", view, smp, 2, v);
}

/* A 4x4-per-face cube map (face f: a 2x2 checker of its color and a darker one) on two discs:
 * the front (left) and back (right) hemispheres, linear filtering. */
void eg_scene_sampler_cube(eg_scene_t *s)
{
    static const uint8_t face_rgb[6][3] = { { 230, 60, 60 }, { 60, 230, 230 }, { 60, 220, 60 },
                                            { 230, 60, 230 }, { 60, 80, 240 }, { 240, 220, 60 } };
    WGPUTexture cube = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, 4, 4, 6, 1, 1,
                                        WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    uint8_t px[4 * 4 * 4];
    for (uint32_t f = 0; f < 6; f++) {
        for (uint32_t i = 0; i < 16; i++) {
            uint32_t dark = ((i % 4) / 2 + (i / 8)) % 2u;
            for (int c = 0; c < 3; c++) px[i * 4 + c] = (uint8_t)(face_rgb[f][c] >> dark);
            px[i * 4 + 3] = 255;
        }
        eg_scene_write_texture(s, cube, 0, f, 4, 4, 4, px);
    }
    WGPUTextureView view = eg_scene_view(s, cube, WGPUTextureViewDimension_Cube);
    WGPUSamplerDescriptor d = sampler_desc(WGPUAddressMode_ClampToEdge, WGPUAddressMode_ClampToEdge,
                                           WGPUFilterMode_Linear, WGPUFilterMode_Linear,
                                           WGPUMipmapFilterMode_Nearest);
    WGPUSampler smp[2];
    smp[0] = smp[1] = eg_scene_sampler(s, &d);
    eg_scene_vtx_t v[12];
    uv_quad(v, -1, -0.5f, 0, 0.5f, -1, 1, 1, -1, 1);
    uv_quad(v + 6, 0, -0.5f, 1, 0.5f, -1, 1, 1, -1, -1);
    textured(s, "scene_cube.frag", "cs", view, smp, 2, v);
}

/* A 2D array of 4 layers (8x8 each, layer l: diagonal stripes of k_level_rgb[l]), one layer per
 * quadrant, nearest. */
void eg_scene_sampler_array(eg_scene_t *s)
{
    WGPUTexture arr = eg_scene_texture(s, WGPUTextureFormat_RGBA8Unorm, 8, 8, 4, 1, 1,
                                       WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    uint8_t px[8 * 8 * 4];
    for (uint32_t l = 0; l < 4; l++) {
        for (uint32_t i = 0; i < 64; i++) {
            uint32_t stripe = ((i % 8) + (i / 8) + l) % 4u == 0;
            for (int c = 0; c < 3; c++) px[i * 4 + c] = stripe ? 255 : k_level_rgb[l][c];
            px[i * 4 + 3] = 255;
        }
        eg_scene_write_texture(s, arr, 0, l, 8, 8, 4, px);
    }
    WGPUTextureView view = eg_scene_view(s, arr, WGPUTextureViewDimension_2DArray);
    WGPUSamplerDescriptor d = sampler_desc(WGPUAddressMode_Repeat, WGPUAddressMode_Repeat,
                                           WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                           WGPUMipmapFilterMode_Nearest);
    WGPUSampler smp[4];
    smp[0] = smp[1] = smp[2] = smp[3] = eg_scene_sampler(s, &d);
    eg_scene_vtx_t v[24];
    for (int i = 0; i < 4; i++) {
        float x0, y0, x1, y1;
        quadrant(i, &x0, &y0, &x1, &y1);
        uv_quad(v + 6 * i, x0, y0, x1, y1, 0, 0, 1, 1, (float)i);
    }
    textured(s, "scene_tex_array.frag", "as", view, smp, 4, v);
}

/* Comparison sampling (compare Less: lit where the reference < the stored depth) of a 16x16
 * depth16unorm texture holding a diagonal ramp; the reference grows from 0 (top) to 1 (bottom).
 * Left: nearest; right: linear (percentage-closer filtering of 4 comparisons). */
void eg_scene_sampler_compare(eg_scene_t *s)
{
    WGPUTexture dt = eg_scene_texture(s, WGPUTextureFormat_Depth16Unorm, 16, 16, 1, 1, 1,
                                      WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    uint16_t d16[16 * 16];
    for (uint32_t i = 0; i < 256; i++) d16[i] = (uint16_t)(((i % 16) + (i / 16)) * 65535u / 30u);
    if (dt) {
        WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
        dst.texture = dt;
        dst.aspect = WGPUTextureAspect_DepthOnly;
        WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
        layout.bytesPerRow = 32;
        layout.rowsPerImage = 16;
        WGPUExtent3D size = { 16, 16, 1 };
        wgpuQueueWriteTexture(s->queue, &dst, d16, sizeof d16, &layout, &size);
    }
    WGPUTextureView view = eg_scene_view(s, dt, 0);
    WGPUSampler smp[2];
    for (int i = 0; i < 2; i++) {
        WGPUFilterMode f = i ? WGPUFilterMode_Linear : WGPUFilterMode_Nearest;
        WGPUSamplerDescriptor d = sampler_desc(WGPUAddressMode_ClampToEdge, WGPUAddressMode_ClampToEdge,
                                               f, f, WGPUMipmapFilterMode_Nearest);
        d.compare = WGPUCompareFunction_Less;
        smp[i] = eg_scene_sampler(s, &d);
    }
    eg_scene_vtx_t v[12];
    for (int i = 0; i < 2; i++) {
        float x0 = i ? 0.02f : -0.98f;
        eg_scene_vtx_t *q = uv_quad(v + 6 * i, x0, -0.98f, x0 + 0.96f, 0.98f, 0, 0, 1, 1, 0) - 6;
        for (int k = 0; k < 6; k++) q[k].b = q[k].y > 0 ? 0.0f : 1.0f;
    }
    textured(s, "scene_shadow.frag", "dz", view, smp, 2, v);
}

/* texelFetch from levels 0..3 of the mip texture (one per quadrant), scaled by the level count
 * and tinted by the level's width: textureLoad, textureDimensions, textureNumLevels. */
void eg_scene_texel_load(eg_scene_t *s)
{
    WGPUTextureView view = eg_scene_view(s, mip_texture(s), 0);
    WGPUSamplerDescriptor d = sampler_desc(WGPUAddressMode_ClampToEdge, WGPUAddressMode_ClampToEdge,
                                           WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                           WGPUMipmapFilterMode_Nearest);
    WGPUSampler smp[4];
    smp[0] = smp[1] = smp[2] = smp[3] = eg_scene_sampler(s, &d);
    eg_scene_vtx_t v[24];
    for (int i = 0; i < 4; i++) {
        float x0, y0, x1, y1;
        quadrant(i, &x0, &y0, &x1, &y1);
        uv_quad(v + 6 * i, x0, y0, x1, y1, 0, 0, 0.999f, 0.999f, (float)i);
    }
    textured(s, "scene_texel.frag", "ts", view, smp, 4, v);
}

/* Sampled formats: r8unorm, rg8unorm, rgba16float, rgb10a2unorm, rgba8unorm-srgb (decoded to
 * linear when sampled), bgra8unorm; 4x4 gradients, nearest, in a 3 x 2 grid. */
void eg_scene_tex_formats(eg_scene_t *s)
{
    static const WGPUTextureFormat fmt[6] = {
        WGPUTextureFormat_R8Unorm, WGPUTextureFormat_RG8Unorm, WGPUTextureFormat_RGBA16Float,
        WGPUTextureFormat_RGB10A2Unorm, WGPUTextureFormat_RGBA8UnormSrgb, WGPUTextureFormat_BGRA8Unorm,
    };
    static const uint32_t bpt[6] = { 1, 2, 8, 4, 4, 4 };
    static const uint16_t half_q[4] = { 0x0000, 0x3400, 0x3800, 0x3C00 }; /* 0, .25, .5, 1 */
    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    WGPUBindGroupLayout bgl = eg_scene_bgl(s, "ts", WGPUShaderStage_Fragment);
    WGPUSamplerDescriptor sd = sampler_desc(WGPUAddressMode_ClampToEdge, WGPUAddressMode_ClampToEdge,
                                            WGPUFilterMode_Nearest, WGPUFilterMode_Nearest,
                                            WGPUMipmapFilterMode_Nearest);
    WGPUSampler smp = eg_scene_sampler(s, &sd);
    eg_scene_pipe_t p = { .vs = "scene_tex.vert", .fs = "scene_tex.frag", .bgl_count = 1, .bgl = { bgl } };
    WGPURenderPipeline pipe = eg_scene_pipeline(s, &p);
    WGPUBindGroup bg[6];
    for (int f = 0; f < 6; f++) {
        WGPUTexture tex = eg_scene_texture(s, fmt[f], 4, 4, 1, 1, 1,
                                           WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
        uint8_t px[16 * 8];
        memset(px, 0, sizeof px);
        for (uint32_t i = 0; i < 16; i++) {
            uint32_t x = i % 4, y = i / 4;
            uint8_t *o = px + i * bpt[f];
            uint8_t a = (uint8_t)(x * 85), b = (uint8_t)(y * 85);
            switch (f) {
            case 0: o[0] = a; break;
            case 1: o[0] = a; o[1] = b; break;
            case 2: {
                uint16_t h[4] = { half_q[x], half_q[y], half_q[3 - x], 0x3C00 };
                memcpy(o, h, 8);
                break;
            }
            case 3: {
                uint32_t w = (x * 341u) | (y * 341u) << 10 | (1023u - x * 341u) << 20 | 3u << 30;
                memcpy(o, &w, 4);
                break;
            }
            default: o[0] = a; o[1] = b; o[2] = (uint8_t)(255 - a); o[3] = 255; break;
            }
        }
        eg_scene_write_texture(s, tex, 0, 0, 4, 4, bpt[f], px);
        const void *res[2] = { eg_scene_view(s, tex, 0), smp };
        bg[f] = eg_scene_bind_group(s, bgl, 2, res, "vs");
    }
    if (s->fail) return;
    eg_scene_vtx_t v[36];
    for (int f = 0; f < 6; f++) {
        float x0 = -0.98f + 0.66f * (float)(f % 3), y1 = f < 3 ? 0.98f : -0.02f;
        uv_quad(v + 6 * f, x0, y1 - 0.96f, x0 + 0.62f, y1, 0, 0, 1, 1, 0);
    }
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, k_dark, NULL, 0, 0, 0);
    wgpuRenderPassEncoderSetPipeline(pass, pipe);
    for (int f = 0; f < 6; f++) {
        wgpuRenderPassEncoderSetBindGroup(pass, 0, bg[f], 0, NULL);
        eg_scene_draw_vertices(s, pass, v + 6 * f, 6);
    }
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}
