/* soft_sample_mesh.c's textured-mesh walk (eg_soft_mesh_walk) and one-pass block against the general path (helper "mesh9", session 9). */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"
#endif

#if EMGPU_HAL_SOFT
#define MW_PX 32u
#define MW_TRIS 48u

typedef struct mw_vtx {
    float pos[4];
    float uv[4];
} mw_vtx_t;

static uint32_t mw_lcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static float mw_rand(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(mw_lcg(s) & 0xFFFFu) / 65535.0f; }

typedef struct mw_res {
    WGPUTexture ct, dt, tex;
    WGPUTextureView cv, dv, tv;
    WGPUSampler smp;
    WGPUShaderModule vs, fs;
    WGPURenderPipeline p;
    WGPUBindGroup bg;
    WGPUBuffer vbuf, rb;
} mw_res_t;

/* The bench mesh row's pipeline (scene_tex: the output is the bilinear sample at the input uv)
 * over a 32x32 RGBA8 target and Depth32Float (Less, writes on), a 7x5 RGBA8 texture (odd sizes:
 * repeat wraps inside the 8-lane groups), address mode `am` on both axes, and the vertices v. */
static bool mw_init(WGPUDevice d, mw_res_t *r, WGPUAddressMode am, const mw_vtx_t *v, uint32_t nv)
{
    eg_memset(r, 0, sizeof *r);
    r->ct = t_texture(d, WGPUTextureFormat_RGBA8Unorm, MW_PX, MW_PX, 1, 1, 1,
                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    r->dt = t_texture(d, WGPUTextureFormat_Depth32Float, MW_PX, MW_PX, 1, 1, 1,
                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    r->tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 7, 5, 1, 1, 1,
                       WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    r->cv = wgpuTextureCreateView(r->ct, NULL);
    r->dv = wgpuTextureCreateView(r->dt, NULL);
    r->tv = wgpuTextureCreateView(r->tex, NULL);
    uint8_t texels[7 * 5 * 4];
    for (uint32_t i = 0; i < sizeof texels; i++) texels[i] = (uint8_t)(i * 71u + 13u);
    WGPUTexelCopyTextureInfo ti = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    ti.texture = r->tex;
    WGPUTexelCopyBufferLayout bl = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    bl.bytesPerRow = 28; bl.rowsPerImage = 5;
    WGPUExtent3D ext = { 7, 5, 1 };
    wgpuQueueWriteTexture(eg_test_queue(), &ti, texels, sizeof texels, &bl, &ext);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.magFilter = WGPUFilterMode_Linear; sd.minFilter = WGPUFilterMode_Linear;
    sd.addressModeU = am; sd.addressModeV = am;
    r->smp = wgpuDeviceCreateSampler(d, &sd);
    r->vs = t_spv_module(d, "scene_tex.vert");
    r->fs = t_spv_module(d, "scene_tex.frag");
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, sizeof(mw_vtx_t), WGPUVertexFormat_Float32x4);
    WGPUColorTargetState cts = WGPU_COLOR_TARGET_STATE_INIT;
    cts.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
    fst.module = r->fs;
    fst.targetCount = 1;
    fst.targets = &cts;
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth32Float;
    ds.depthWriteEnabled = WGPUOptionalBool_True;
    ds.depthCompare = WGPUCompareFunction_Less;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = r->vs;
    pd.vertex.bufferCount = 1;
    pd.vertex.buffers = &vb;
    pd.fragment = &fst;
    pd.depthStencil = &ds;
    r->p = r->vs && r->fs ? wgpuDeviceCreateRenderPipeline(d, &pd) : NULL;
    if (!r->p || !r->smp) return false;
    WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(r->p, 0);
    WGPUBindGroupEntry e[2] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
    e[0].binding = 0; e[0].textureView = r->tv;
    e[1].binding = 1; e[1].sampler = r->smp;
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl; bd.entryCount = 2; bd.entries = e;
    r->bg = wgpuDeviceCreateBindGroup(d, &bd);
    wgpuBindGroupLayoutRelease(bgl);
    r->vbuf = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, nv * sizeof(mw_vtx_t));
    wgpuQueueWriteBuffer(eg_test_queue(), r->vbuf, 0, v, nv * sizeof(mw_vtx_t));
    r->rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 2u * 256u * MW_PX);
    return r->bg != NULL;
}

static void mw_release(mw_res_t *r)
{
    if (r->rb) wgpuBufferRelease(r->rb);
    if (r->vbuf) wgpuBufferRelease(r->vbuf);
    if (r->bg) wgpuBindGroupRelease(r->bg);
    if (r->p) wgpuRenderPipelineRelease(r->p);
    if (r->vs) wgpuShaderModuleRelease(r->vs);
    if (r->fs) wgpuShaderModuleRelease(r->fs);
    if (r->smp) wgpuSamplerRelease(r->smp);
    wgpuTextureViewRelease(r->tv);
    wgpuTextureViewRelease(r->cv);
    wgpuTextureViewRelease(r->dv);
    wgpuTextureRelease(r->tex);
    wgpuTextureRelease(r->ct);
    wgpuTextureRelease(r->dt);
}

/* Clears (color 0, depth 1), draws nv vertices inside the scissor rectangle sc (x, y, w, h), reads
 * back the color rows then the depth rows (256 B pitch). */
static bool mw_draw(WGPUDevice d, mw_res_t *r, uint32_t nv, const uint32_t sc[4], uint8_t *out)
{
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = r->cv;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    da.view = r->dv;
    da.depthLoadOp = WGPULoadOp_Clear;
    da.depthStoreOp = WGPUStoreOp_Store;
    da.depthClearValue = 1.0f;
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1;
    rpd.colorAttachments = &c;
    rpd.depthStencilAttachment = &da;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderSetPipeline(rp, r->p);
    wgpuRenderPassEncoderSetBindGroup(rp, 0, r->bg, 0, NULL);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, r->vbuf, 0, WGPU_WHOLE_SIZE);
    wgpuRenderPassEncoderSetScissorRect(rp, sc[0], sc[1], sc[2], sc[3]);
    wgpuRenderPassEncoderDraw(rp, nv, 1, 0, 0);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUTexelCopyTextureInfo ti = t_tex_info(r->ct, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(r->rb, 0, 256, MW_PX);
    WGPUExtent3D sz = t_extent(MW_PX, MW_PX, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    WGPUTexelCopyTextureInfo di = t_tex_info(r->dt, 0, 0, 0, 0);
    di.aspect = WGPUTextureAspect_DepthOnly;
    WGPUTexelCopyBufferInfo dbi = t_buf_info(r->rb, 256u * MW_PX, 256, MW_PX);
    wgpuCommandEncoderCopyTextureToBuffer(e, &di, &dbi, &sz);
    t_submit(e);
    return t_readback(d, r->rb, 0, 2u * 256u * MW_PX, out);
}

typedef struct mw_count {
    uint32_t differ, drawn, outside, fast_blocks;
} mw_count_t;

/* Draws v with the fast paths (the one-pass block and its walk on AVX2 CPUs) and without them
 * (the VM, the lane-loop sampler and depth test: the definition of the bytes); counts pixels
 * whose color or depth differ, pixels drawn (depth below the clear's 1.0), pixels drawn outside
 * the scissor rectangle (WebGPU: fragments outside it are discarded) and the blocks the fast
 * draw sampled without the VM (eg_soft_worker_main.tex_blocks). */
static bool mw_compare(WGPUDevice d, WGPUAddressMode am, const mw_vtx_t *v, uint32_t nv, const uint32_t sc[4],
                       mw_count_t *n)
{
    static uint8_t a[2 * 256 * MW_PX], c[2 * 256 * MW_PX];
    mw_res_t r;
    bool ok = mw_init(d, &r, am, v, nv);
    uint32_t saved = eg_soft_shade_vw, before = eg_soft_worker_main.tex_blocks;
    eg_soft_shade_vw = 8u;
    ok = ok && mw_draw(d, &r, nv, sc, a);
    n->fast_blocks = eg_soft_worker_main.tex_blocks - before;
    eg_soft_shade_vw = saved;
    bool fast = eg_soft_raster_fast_paths;
    eg_soft_raster_fast_paths = false;
    ok = ok && mw_draw(d, &r, nv, sc, c);
    eg_soft_raster_fast_paths = fast;
    mw_release(&r);
    n->differ = n->drawn = n->outside = 0;
    for (uint32_t y = 0; y < MW_PX; y++)
        for (uint32_t x = 0; x < MW_PX; x++) {
            const uint8_t *pa = a + y * 256u + x * 4u, *pc = c + y * 256u + x * 4u;
            const uint8_t *za = a + 256u * MW_PX + y * 256u + x * 4u, *zc = c + 256u * MW_PX + y * 256u + x * 4u;
            float z;
            eg_memcpy(&z, za, 4);
            bool in = x >= sc[0] && x < sc[0] + sc[2] && y >= sc[1] && y < sc[1] + sc[3];
            n->drawn += z < 1.0f;
            n->outside += z < 1.0f && !in;
            n->differ += eg_memcmp(pa, pc, 4) != 0 || eg_memcmp(za, zc, 4) != 0;
        }
    return ok;
}

/* Small random perspective triangles (w in [0.5, 3], at most ~13 px a side: fewer than 6 blocks a
 * row, the walk's narrow case) spread over the target, uv in [u0, u0 + 4 s) x [-1.5, 2.5), s = 1
 * or, for a large u0, u0 / 2^20 (u varies over each triangle: an input the mesh block
 * interpolates, not a constant). */
static void mw_small_tris(mw_vtx_t *v, uint32_t ntri, uint32_t seed, float u0)
{
    float s = u0 > 1.0e6f ? u0 * (1.0f / 1048576.0f) : 1.0f;
    for (uint32_t t = 0; t < ntri; t++) {
        float cx = mw_rand(&seed, -1.0f, 1.0f), cy = mw_rand(&seed, -1.0f, 1.0f);
        for (uint32_t k = 0; k < 3u; k++) {
            float w = mw_rand(&seed, 0.5f, 3.0f);
            mw_vtx_t q = { { (cx + mw_rand(&seed, -0.4f, 0.4f)) * w, (cy + mw_rand(&seed, -0.4f, 0.4f)) * w,
                             mw_rand(&seed, 0.0f, 1.0f) * w, w },
                           { u0 + s * mw_rand(&seed, 0.0f, 4.0f), mw_rand(&seed, -1.5f, 2.5f), 0.0f, 0.0f } };
            v[3u * t + k] = q;
        }
    }
}
#endif

/* Narrow textured triangles under a scissor rectangle whose sides cut 4x4 blocks at every offset
 * (x 3..25, y 5..27): the fast draw's color and depth bytes equal the general path's for clamp
 * and repeat, nothing lands outside the rectangle, enough pixels drawn, and the fast draw took
 * the VM-less block (on AVX2 CPUs: eg_soft_mesh_walk). */
EG_TEST(soft_mesh_walk, narrow_scissored_equals_general)
{
#if EMGPU_HAL_SOFT
    static mw_vtx_t v[3u * MW_TRIS];
    static const uint32_t sc[4] = { 3, 5, 22, 22 };
    static const WGPUAddressMode am[2] = { WGPUAddressMode_Repeat, WGPUAddressMode_ClampToEdge };
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft internals"); }
    for (uint32_t k = 0; k < 2u; k++) {
        mw_small_tris(v, MW_TRIS, 77u + k, -1.5f);
        mw_count_t n;
        EG_ASSERT(mw_compare(d, am[k], v, 3u * MW_TRIS, sc, &n));
        EG_EXPECT_EQ_U(n.differ, 0u);
        EG_EXPECT_EQ_U(n.outside, 0u);
        EG_EXPECT(n.drawn > 100u);
        EG_EXPECT(n.fast_blocks > 0u || !eg_soft_raster_fast_paths);
    }
    eg_test_device_release();
#else
    EG_SKIP("soft backend not compiled in");
#endif
}

/* Repeat with u at and beyond 2^31 (and 1e30): the sampler's fract_period is 0 outside
 * (-2^23, 2^23) (soft_sample_vec.inc sv8_axis), so every such lane samples at u = 0. The one-pass
 * block took floor through int32, whose 0x80000000 for u >= 2^31 made the texel index far
 * outside the texture. Narrow triangles (the walk) and two covering the target (the wide walk's
 * per-block call) against the general path. */
EG_TEST(soft_mesh_walk, repeat_uv_past_int32_equals_general)
{
#if EMGPU_HAL_SOFT
    static mw_vtx_t v[3u * MW_TRIS + 6u];
    static const uint32_t sc[4] = { 0, 0, MW_PX, MW_PX };
    static const float u0[3] = { 3.0e9f, 2147483648.0f, 1.0e30f };
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft internals"); }
    for (uint32_t k = 0; k < 3u; k++) {
        mw_small_tris(v, MW_TRIS, 5u + k, u0[k]);
        /* a full-target quad behind them (z = 0.9): rows of 8 blocks, u from u0[k] to u0[k] (1 + 2^-18) */
        static const float qx[6] = { -1, 1, -1, 1, 1, -1 }, qy[6] = { -1, -1, 1, -1, 1, 1 };
        for (uint32_t i = 0; i < 6u; i++) {
            float u = u0[k] * (1.0f + (qx[i] + 1.0f) * (1.0f / 524288.0f));
            mw_vtx_t q = { { qx[i], qy[i], 0.9f, 1.0f }, { u, 0.5f + 0.25f * qy[i], 0.0f, 0.0f } };
            v[3u * MW_TRIS + i] = q;
        }
        mw_count_t n;
        EG_ASSERT(mw_compare(d, WGPUAddressMode_Repeat, v, 3u * MW_TRIS + 6u, sc, &n));
        EG_EXPECT_EQ_U(n.differ, 0u);
        EG_EXPECT_EQ_U(n.drawn, MW_PX * MW_PX);
        EG_EXPECT(n.fast_blocks > 0u || !eg_soft_raster_fast_paths);
    }
    eg_test_device_release();
#else
    EG_SKIP("soft backend not compiled in");
#endif
}
