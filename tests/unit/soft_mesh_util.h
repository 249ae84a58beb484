/* Set-up shared by the soft textured-mesh tests (soft_shade_mesh_test.c, soft_mesh_walk_test.c):
 * the bench mesh row's pipeline (scene_tex: the output is the bilinear sample at the input uv)
 * over a square colour target and Depth32Float, a small texture, the vertices, a draw and its
 * read-back (static inline: one copy per file). */
#ifndef EG_SOFT_MESH_UTIL_H
#define EG_SOFT_MESH_UTIL_H

#include "tests/unit/cmd_test_util.h"

typedef struct mesh_vtx {
    float pos[4];
    float uv[4];
} mesh_vtx_t;

/* The tests' random numbers (an LCG; lo..hi in 65536 steps). */
static inline uint32_t mesh_lcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static inline float mesh_rand(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(mesh_lcg(s) & 0xFFFFu) / 65535.0f;
}

typedef struct mesh_res {
    WGPUTexture ct, dt, tex;
    WGPUTextureView cv, dv, tv;
    WGPUSampler smp;
    WGPURenderPipeline p;
    WGPUBindGroup bg;
    WGPUBuffer vbuf, rb;
    uint32_t px, nv;   /* target width = height; vertices in vbuf */
} mesh_res_t;

/* The variants (helper "tex8"): target format, texture format, address modes in u and v, depth
 * writes. */
typedef struct mesh_cfg {
    WGPUTextureFormat target, texture;
    WGPUAddressMode au, av;
    bool depth_write;
} mesh_cfg_t;

/* The sampled texture: w x h texels (4 bytes each, at most MESH_TEX_MAX_B in all), byte i of
 * them i * mul + add (mod 256). */
typedef struct mesh_tex {
    uint32_t w, h, mul, add;
} mesh_tex_t;

#define MESH_TEX_MAX_B 256u

/* A px x px target of cfg->target and Depth32Float (compare, writes when cfg->depth_write), the
 * texture tx of cfg->texture sampled with linear filtering and cfg's address modes, scene_tex's
 * pipeline and bind group, the nv vertices v and a read-back buffer for mesh_draw. False when
 * something failed (mesh_release frees what was made). */
static inline bool mesh_setup(WGPUDevice d, mesh_res_t *r, uint32_t px, WGPUCompareFunction compare,
                              const mesh_cfg_t *cfg, const mesh_tex_t *tx, const mesh_vtx_t *v, uint32_t nv)
{
    eg_memset(r, 0, sizeof *r);
    r->px = px;
    r->nv = nv;
    r->ct = t_texture(d, cfg->target, px, px, 1, 1, 1, WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    r->dt = t_texture(d, WGPUTextureFormat_Depth32Float, px, px, 1, 1, 1,
                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    r->tex = t_texture(d, cfg->texture, tx->w, tx->h, 1, 1, 1,
                       WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    r->cv = wgpuTextureCreateView(r->ct, NULL);
    r->dv = wgpuTextureCreateView(r->dt, NULL);
    r->tv = wgpuTextureCreateView(r->tex, NULL);
    uint8_t texels[MESH_TEX_MAX_B];
    uint32_t tex_B = tx->w * tx->h * 4u;
    if (tex_B > sizeof texels) return false;
    for (uint32_t i = 0; i < tex_B; i++) texels[i] = (uint8_t)(i * tx->mul + tx->add);
    WGPUTexelCopyTextureInfo ti = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    ti.texture = r->tex;
    WGPUTexelCopyBufferLayout bl = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    bl.bytesPerRow = tx->w * 4u; bl.rowsPerImage = tx->h;
    WGPUExtent3D ext = { tx->w, tx->h, 1 };
    wgpuQueueWriteTexture(eg_test_queue(), &ti, texels, tex_B, &bl, &ext);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.magFilter = WGPUFilterMode_Linear; sd.minFilter = WGPUFilterMode_Linear;
    sd.addressModeU = cfg->au; sd.addressModeV = cfg->av;
    r->smp = wgpuDeviceCreateSampler(d, &sd);
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, sizeof(mesh_vtx_t), WGPUVertexFormat_Float32x4);
    r->p = t_color_depth_pipeline(d, "scene_tex.vert", "scene_tex.frag", &vb, cfg->target, NULL, compare,
                                  cfg->depth_write);
    if (!r->p || !r->smp) return false;
    WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(r->p, 0);
    WGPUBindGroupEntry e[2] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
    e[0].binding = 0; e[0].textureView = r->tv;
    e[1].binding = 1; e[1].sampler = r->smp;
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl; bd.entryCount = 2; bd.entries = e;
    r->bg = wgpuDeviceCreateBindGroup(d, &bd);
    wgpuBindGroupLayoutRelease(bgl);
    r->vbuf = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, nv * sizeof(mesh_vtx_t));
    wgpuQueueWriteBuffer(eg_test_queue(), r->vbuf, 0, v, nv * sizeof(mesh_vtx_t));
    r->rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 2u * 256u * px);
    return r->bg != NULL;
}

static inline void mesh_release(mesh_res_t *r)
{
    if (r->rb) wgpuBufferRelease(r->rb);
    if (r->vbuf) wgpuBufferRelease(r->vbuf);
    if (r->bg) wgpuBindGroupRelease(r->bg);
    if (r->p) wgpuRenderPipelineRelease(r->p);
    if (r->smp) wgpuSamplerRelease(r->smp);
    wgpuTextureViewRelease(r->tv);
    wgpuTextureViewRelease(r->cv);
    wgpuTextureViewRelease(r->dv);
    wgpuTextureRelease(r->tex);
    wgpuTextureRelease(r->ct);
    wgpuTextureRelease(r->dt);
}

/* Clears (color 0, depth 1), draws the vertices inside the scissor rectangle sc (x, y, w, h;
 * NULL: none), reads back the color rows then the depth rows (256 B pitch): out holds
 * 2 * 256 * r->px bytes. */
static inline bool mesh_draw(WGPUDevice d, mesh_res_t *r, const uint32_t *sc, uint8_t *out)
{
    t_draw_color_depth_copy_ex(d, r->p, r->bg, r->vbuf, r->nv, r->cv, r->dv, r->ct, r->dt, r->px, r->rb, NULL, 1.0f,
                               sc);
    return t_readback(d, r->rb, 0, 2u * 256u * r->px, out);
}

#endif /* EG_SOFT_MESH_UTIL_H */
