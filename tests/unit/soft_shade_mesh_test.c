/* soft_raster_shade.c's fused textured-mesh block path (shade_mesh) against shade(): the same bytes (mesh7c, session 7). */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_vm_simd.h"
#endif

#if EMGPU_HAL_SOFT
#define MESH_PX 16u
#define MESH_TRIS 16u

typedef struct mvtx {
    float pos[4];
    float uv[4];
} mvtx_t;

static uint32_t mlcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static float mlcg_f(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(mlcg(s) & 0xFFFFu) / 65535.0f; }

typedef struct mesh_res {
    WGPUTexture ct, dt, tex;
    WGPUTextureView cv, dv, tv;
    WGPUSampler smp;
    WGPUShaderModule vs, fs;
    WGPURenderPipeline p;
    WGPUBindGroup bg;
    WGPUBuffer vbuf, rb;
} mesh_res_t;

/* The pipeline of the bench's mesh row: scene_tex (output = the texture's sample at the input
 * uv), a 5x3 RGBA8 texture (odd sizes: repeat wraps inside the vector loops) with linear
 * filtering, repeat in u and clamp in v, RGBA8 target, Depth32Float with `compare`, writes on. */
/* The variants of mesh_cfg_t (helper "tex8"): target format, texture format, address modes in
 * u and v, depth writes. */
typedef struct mesh_cfg {
    WGPUTextureFormat target, texture;
    WGPUAddressMode au, av;
    bool depth_write;
} mesh_cfg_t;

static bool mesh_init_cfg(WGPUDevice d, mesh_res_t *r, WGPUCompareFunction compare, const mesh_cfg_t *cfg);

static bool mesh_init(WGPUDevice d, mesh_res_t *r, WGPUCompareFunction compare)
{
    const mesh_cfg_t cfg = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Unorm, WGPUAddressMode_Repeat,
                             WGPUAddressMode_ClampToEdge, true };
    return mesh_init_cfg(d, r, compare, &cfg);
}

static bool mesh_init_cfg(WGPUDevice d, mesh_res_t *r, WGPUCompareFunction compare, const mesh_cfg_t *cfg)
{
    eg_memset(r, 0, sizeof *r);
    r->ct = t_texture(d, cfg->target, MESH_PX, MESH_PX, 1, 1, 1,
                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    r->dt = t_texture(d, WGPUTextureFormat_Depth32Float, MESH_PX, MESH_PX, 1, 1, 1,
                      WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    r->tex = t_texture(d, cfg->texture, 5, 3, 1, 1, 1,
                       WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    r->cv = wgpuTextureCreateView(r->ct, NULL);
    r->dv = wgpuTextureCreateView(r->dt, NULL);
    r->tv = wgpuTextureCreateView(r->tex, NULL);
    uint8_t texels[5 * 3 * 4];
    for (uint32_t i = 0; i < sizeof texels; i++) texels[i] = (uint8_t)(i * 53u + 7u);
    WGPUTexelCopyTextureInfo ti = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    ti.texture = r->tex;
    WGPUTexelCopyBufferLayout bl = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    bl.bytesPerRow = 20; bl.rowsPerImage = 3;
    WGPUExtent3D ext = { 5, 3, 1 };
    wgpuQueueWriteTexture(eg_test_queue(), &ti, texels, sizeof texels, &bl, &ext);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.magFilter = WGPUFilterMode_Linear; sd.minFilter = WGPUFilterMode_Linear;
    sd.addressModeU = cfg->au; sd.addressModeV = cfg->av;
    r->smp = wgpuDeviceCreateSampler(d, &sd);
    r->vs = t_spv_module(d, "scene_tex.vert");
    r->fs = t_spv_module(d, "scene_tex.frag");
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vb;
    t_pos_attr_layout(va, &vb, sizeof(mvtx_t), WGPUVertexFormat_Float32x4);
    WGPUColorTargetState cts = WGPU_COLOR_TARGET_STATE_INIT;
    cts.format = cfg->target;
    WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
    fst.module = r->fs;
    fst.targetCount = 1;
    fst.targets = &cts;
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth32Float;
    ds.depthWriteEnabled = cfg->depth_write ? WGPUOptionalBool_True : WGPUOptionalBool_False;
    ds.depthCompare = compare;
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
    /* random perspective triangles (w in [0.5, 3]) overlapping in depth; uv with fractional
     * bits, beyond [0, 1] (repeat, clamp); one triangle with a constant u (d1 = d2 = 0: the
     * general path's constant input) */
    static mvtx_t v[6u * MESH_TRIS];
    uint32_t seed = 4242u;
    for (uint32_t i = 0; i < 3u * MESH_TRIS; i++) {
        float w = mlcg_f(&seed, 0.5f, 3.0f);
        mvtx_t t = { { mlcg_f(&seed, -1.3f, 1.3f) * w, mlcg_f(&seed, -1.3f, 1.3f) * w, mlcg_f(&seed, 0.0f, 1.0f) * w, w },
                     { mlcg_f(&seed, -1.5f, 2.5f), mlcg_f(&seed, -0.5f, 1.5f), 0.0f, 0.0f } };
        v[i] = t;
    }
    v[3].uv[0] = v[4].uv[0] = v[5].uv[0] = 0.3f;
    /* the same triangles again with other uv: their depths equal the first ones' bit for bit, so
     * they replace the colors with LessEqual and leave them with Less */
    for (uint32_t i = 0; i < 3u * MESH_TRIS; i++) {
        v[3u * MESH_TRIS + i] = v[i];
        v[3u * MESH_TRIS + i].uv[0] += 0.37f;
        v[3u * MESH_TRIS + i].uv[1] += 0.21f;
    }
    r->vbuf = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), r->vbuf, 0, v, sizeof v);
    r->rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 2u * 256u * MESH_PX);
    return r->bg != NULL;
}

static void mesh_release(mesh_res_t *r)
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

/* Clears, draws the triangles, reads back the color rows then the depth rows (256 B pitch). */
static bool mesh_draw(WGPUDevice d, mesh_res_t *r, uint8_t *out /* [2 * 256 * MESH_PX] */)
{
    t_draw_color_depth_copy(d, r->p, r->bg, r->vbuf, 6u * MESH_TRIS, r->cv, r->dv, r->ct, r->dt, MESH_PX, r->rb);
    return t_readback(d, r->rb, 0, 2u * 256u * MESH_PX, out);
}
#endif

/* The same color and depth bytes with eg_soft_shade_vw 8 (on an AVX2 CPU the fused mesh path:
 * shade_mesh), 4 (shade() stage by stage) and with the fast paths off (the VM and the depth
 * test's lane loop), for depth compares Less and LessEqual, enough pixels drawn (not the clear
 * color, depth below 1) that the comparison means something, and the equal depths of the second
 * copy of the triangles changing colors with LessEqual (the compare's equal case is exercised). */
EG_TEST(soft_shade, mesh_path_equals_general)
{
#if EMGPU_HAL_SOFT
    static uint8_t a[2 * 256 * MESH_PX], b[2 * 256 * MESH_PX], c[2 * 256 * MESH_PX], less[2 * 256 * MESH_PX];
    static const WGPUCompareFunction cmp[2] = { WGPUCompareFunction_Less, WGPUCompareFunction_LessEqual };
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft internals"); }
    uint32_t saved = eg_soft_shade_vw;
    for (uint32_t k = 0; k < 2u; k++) {
        mesh_res_t r;
        bool ok = mesh_init(d, &r, cmp[k]);
        eg_soft_shade_vw = 8u;
        ok = ok && mesh_draw(d, &r, a);
        eg_soft_shade_vw = 4u;
        ok = ok && mesh_draw(d, &r, b);
        bool fast = eg_soft_raster_fast_paths;
        eg_soft_raster_fast_paths = false;   /* the VM and the depth test's lane loop */
        ok = ok && mesh_draw(d, &r, c);
        eg_soft_raster_fast_paths = fast;
        eg_soft_shade_vw = saved;
        mesh_release(&r);
        EG_ASSERT(ok);
        uint32_t drawn = 0, differ = 0;
        for (uint32_t y = 0; y < MESH_PX; y++)
            for (uint32_t x = 0; x < MESH_PX; x++) {
                const uint8_t *pa = a + y * 256u + x * 4u, *pb = b + y * 256u + x * 4u;
                const uint8_t *za = a + 256u * MESH_PX + y * 256u + x * 4u, *zb = b + 256u * MESH_PX + y * 256u + x * 4u;
                float z;
                eg_memcpy(&z, za, 4);
                drawn += z < 1.0f && (pa[0] | pa[1] | pa[2] | pa[3]) != 0u;
                const uint8_t *pc = c + y * 256u + x * 4u, *zc = c + 256u * MESH_PX + y * 256u + x * 4u;
                differ += eg_memcmp(pa, pb, 4) != 0 || eg_memcmp(za, zb, 4) != 0;
                differ += eg_memcmp(pa, pc, 4) != 0 || eg_memcmp(za, zc, 4) != 0;
            }
        EG_EXPECT_EQ_U(differ, 0u);
        EG_EXPECT(drawn > 100u);
        if (k == 0u) {
            eg_memcpy(less, a, sizeof less);
            continue;
        }
        uint32_t replaced = 0;   /* LessEqual let the second, equal-depth triangles through */
        for (uint32_t i = 0; i < 256u * MESH_PX; i++) replaced += less[i] != a[i];
        EG_EXPECT(replaced > 100u);
    }
    eg_test_device_release();
#else
    EG_SKIP("soft backend not compiled in");
#endif
}

/* The one-pass mesh block (soft_sample_mesh.c, helper "tex8": depth, uv, bilinear sample and the
 * 8-bit pack together, taken at eg_soft_shade_vw 8 on AVX2 CPUs) against the general path (fast
 * paths off: the VM, the lane-loop sampler, the float pack): the same color and depth bytes for
 * RGBA8 and BGRA8 targets and textures (both byte orders of the sample-and-store, swapped and
 * not), the four address-mode pairs (odd texture sizes, uv beyond [0, 1]), depth writes on and
 * off, Less and LessEqual; enough pixels drawn each time. */
EG_TEST(soft_shade, mesh_block_variants_equal_general)
{
#if EMGPU_HAL_SOFT
    static uint8_t a[2 * 256 * MESH_PX], c[2 * 256 * MESH_PX];
    static const mesh_cfg_t cfgs[] = {
        { WGPUTextureFormat_BGRA8Unorm, WGPUTextureFormat_RGBA8Unorm, WGPUAddressMode_Repeat, WGPUAddressMode_Repeat, true },
        { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm, WGPUAddressMode_ClampToEdge,
          WGPUAddressMode_ClampToEdge, true },
        { WGPUTextureFormat_BGRA8Unorm, WGPUTextureFormat_BGRA8Unorm, WGPUAddressMode_ClampToEdge, WGPUAddressMode_Repeat,
          false },
        { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Unorm, WGPUAddressMode_Repeat, WGPUAddressMode_Repeat,
          false },
    };
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft internals"); }
    uint32_t saved = eg_soft_shade_vw;
    for (uint32_t k = 0; k < EG_ARRAY_LEN(cfgs); k++) {
        mesh_res_t r;
        bool ok = mesh_init_cfg(d, &r, k & 1u ? WGPUCompareFunction_LessEqual : WGPUCompareFunction_Less, &cfgs[k]);
        eg_soft_shade_vw = 8u;
        ok = ok && mesh_draw(d, &r, a);
        eg_soft_shade_vw = saved;
        bool fast = eg_soft_raster_fast_paths;
        eg_soft_raster_fast_paths = false;
        ok = ok && mesh_draw(d, &r, c);
        eg_soft_raster_fast_paths = fast;
        mesh_release(&r);
        EG_ASSERT(ok);
        uint32_t drawn = 0, differ = 0;
        for (uint32_t y = 0; y < MESH_PX; y++)
            for (uint32_t x = 0; x < MESH_PX; x++) {
                const uint8_t *pa = a + y * 256u + x * 4u, *pc = c + y * 256u + x * 4u;
                const uint8_t *za = a + 256u * MESH_PX + y * 256u + x * 4u, *zc = c + 256u * MESH_PX + y * 256u + x * 4u;
                drawn += (pa[0] | pa[1] | pa[2] | pa[3]) != 0u;
                differ += eg_memcmp(pa, pc, 4) != 0 || eg_memcmp(za, zc, 4) != 0;
            }
        EG_EXPECT_EQ_U(differ, 0u);
        EG_EXPECT(drawn > 100u);
    }
    eg_test_device_release();
#else
    EG_SKIP("soft backend not compiled in");
#endif
}

#if EMGPU_HAL_SOFT
/* A hand-built depth-only pipeline state (no fragment shader) over an 8x8 Depth32Float target. */
typedef struct dsf {
    float depth[8 * 8];
    eg_soft_fb_t fb;
    struct eg_soft_raster_pipeline rs;
    eg_soft_pass_state_t ps;
    eg_soft_vtx_t v;
} dsf_t;

static void dsf_init(dsf_t *f)
{
    eg_memset(f, 0, sizeof *f);
    f->fb.width_px = f->fb.height_px = 8;
    f->fb.samples = 1;
    f->fb.depth = (eg_soft_target_t){ (uint8_t *)f->depth, 8 * 4, 4, 4, WGPUTextureFormat_Depth32Float };
    f->rs.has_ds = f->rs.depth_test = f->rs.depth_write = f->rs.early_z = true;
    f->rs.depth_compare = WGPUCompareFunction_Less;
    f->rs.samples = 1;
    f->rs.sample_mask = 1u;
    f->ps.fb = &f->fb;
    f->ps.rs = &f->rs;
    f->ps.vp_min_z = 0.25f;
    f->ps.vp_max_z = 0.75f;
}

/* eg_soft_shade_setup's per-triangle choice of the depth-only block test (f->ds_fast, helper
 * "mesh7c"): taken exactly for a depth test without stencil, one sample, 4-byte depth, compare
 * Less (1) or LessEqual (2), fast paths on and no FragDepth output; its fields are the values
 * the per-block test reads: the viewport's depth range, the target, and the sample's offset
 * dzdx * 0 / 256 + dzdy * 0 / 256 = +0 (the centre sample is (128, 128), a zero-area edge set
 * gives dzdx = dzdy = +0). Its bytes: mesh_path_equals_general above and
 * soft_raster.depth32_rows_equal_lane_loop (against the lane loop). */
static uint32_t ds_fast_of(dsf_t *fx, uint32_t samples, bool *write, float *off)
{
    static const int32_t c128[4] = { 128, 128, 128, 128 };
    eg_soft_tri_t t = { { 0, 0, 0 }, { 0, 0, 0 }, { 0.5f, 0.5f, 0.5f }, { 1, 1, 1 }, { &fx->v, &fx->v, &fx->v }, &fx->v,
                        true };
    eg_soft_frag_t f;
    eg_memset(&f, 0, sizeof f);
    f.w = &eg_soft_worker_main;   /* not read: no fragment program */
    f.ps = &fx->ps;
    f.rs = &fx->rs;
    f.t = &t;
    f.samples = samples;
    f.sx = f.sy = c128;
    f.ds_fast = 99u;   /* must be overwritten */
    eg_soft_depth_setup(&f);
    eg_soft_shade_setup(&f);   /* as the block walks do */
    if (f.ds_fast) {
        EG_EXPECT(f.ds_lo == 0.25f && f.ds_hi == 0.75f);
        EG_EXPECT(f.ds_base == (uint8_t *)fx->depth && f.ds_pitch_B == fx->fb.depth.row_pitch_B);
    }
    *write = f.ds_write;
    *off = f.ds_off;
    return f.ds_fast;
}

EG_TEST(soft_shade, ds_fast_setup_selects_depth_only)
{
    static dsf_t fx;
    bool saved = eg_soft_raster_fast_paths, w = false;
    float off = 1.0f;
    eg_soft_raster_fast_paths = true;
    dsf_init(&fx);
#if defined(VM_SIMD_NATIVE) && VM_VW == 4   /* the vector rows exist (else never taken) */
    const bool vec = true;
#else
    const bool vec = false;
#endif
    uint32_t less = vec ? 1u : 0u, le = vec ? 2u : 0u;
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), less);
    if (vec) {
        union { float f; uint32_t u; } o = { off };
        EG_EXPECT_EQ_U(o.u, 0u);   /* +0, not -0 */
        EG_EXPECT(w);
    }
    fx.fb.depth_read_only = true;
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), less);
    if (vec) EG_EXPECT(!w);
    fx.fb.depth_read_only = false;
    fx.rs.depth_write = false;
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), less);
    if (vec) EG_EXPECT(!w);
    fx.rs.depth_write = true;
    fx.rs.depth_compare = WGPUCompareFunction_LessEqual;
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), le);
    static const uint32_t other[6] = { WGPUCompareFunction_Never, WGPUCompareFunction_Equal, WGPUCompareFunction_Greater,
                                       WGPUCompareFunction_NotEqual, WGPUCompareFunction_GreaterEqual,
                                       WGPUCompareFunction_Always };
    for (uint32_t i = 0; i < 6u; i++) {
        fx.rs.depth_compare = other[i];
        EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), 0u);
    }
    fx.rs.depth_compare = WGPUCompareFunction_Less;
    fx.rs.stencil_test = true;   /* stencil: the general test */
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), 0u);
    fx.rs.stencil_test = false;
    fx.rs.depth_test = false;    /* nothing to test */
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), 0u);
    fx.rs.depth_test = true;
    eg_soft_program_info_t info;
    eg_memset(&info, 0, sizeof info);
    info.writes_depth = true;   /* FragDepth: shade() zeroes dzdx, dzdy per block */
    fx.rs.fsi = &info;
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), 0u);
    info.writes_depth = false;
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), less);
    fx.rs.fsi = NULL;
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 4, &w, &off), 0u);   /* 4 samples */
    fx.fb.depth.elem_B = fx.fb.depth.block_B = 2u;   /* depth16unorm */
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), 0u);
    fx.fb.depth.elem_B = fx.fb.depth.block_B = 4u;
    uint8_t *base = fx.fb.depth.base;
    fx.fb.depth.base = NULL;   /* no depth attachment */
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), 0u);
    fx.fb.depth.base = base;
    eg_soft_raster_fast_paths = false;
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), 0u);
    eg_soft_raster_fast_paths = true;
    EG_EXPECT_EQ_U(ds_fast_of(&fx, 1, &w, &off), less);   /* everything back: taken again */
    eg_soft_raster_fast_paths = saved;
}
#endif
