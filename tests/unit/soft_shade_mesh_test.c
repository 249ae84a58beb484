/* soft_raster_shade.c's fused textured-mesh block path (shade_mesh) against shade(): the same bytes (mesh7c, session 7). */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#include "tests/unit/soft_mesh_util.h"
#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_vm_simd.h"
#endif

#if EMGPU_HAL_SOFT
#define MESH_PX 16u
#define MESH_TRIS 16u

/* The pipeline of the bench's mesh row (soft_mesh_util.h): a 5x3 texture (odd sizes: repeat
 * wraps inside the vector loops) with linear filtering, repeat in u and clamp in v, RGBA8 target
 * and texture, Depth32Float with `compare`, writes on; mesh_init_cfg: cfg's variants. */
static bool mesh_init_cfg(WGPUDevice d, mesh_res_t *r, WGPUCompareFunction compare, const mesh_cfg_t *cfg);

static bool mesh_init(WGPUDevice d, mesh_res_t *r, WGPUCompareFunction compare)
{
    const mesh_cfg_t cfg = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Unorm, WGPUAddressMode_Repeat,
                             WGPUAddressMode_ClampToEdge, true };
    return mesh_init_cfg(d, r, compare, &cfg);
}

static bool mesh_init_cfg(WGPUDevice d, mesh_res_t *r, WGPUCompareFunction compare, const mesh_cfg_t *cfg)
{
    static const mesh_tex_t tex = { 5, 3, 53, 7 };
    /* random perspective triangles (w in [0.5, 3]) overlapping in depth; uv with fractional
     * bits, beyond [0, 1] (repeat, clamp); one triangle with a constant u (d1 = d2 = 0: the
     * general path's constant input) */
    static mesh_vtx_t v[6u * MESH_TRIS];
    uint32_t seed = 4242u;
    for (uint32_t i = 0; i < 3u * MESH_TRIS; i++) {
        float w = mesh_rand(&seed, 0.5f, 3.0f);
        mesh_vtx_t t = { { mesh_rand(&seed, -1.3f, 1.3f) * w, mesh_rand(&seed, -1.3f, 1.3f) * w,
                           mesh_rand(&seed, 0.0f, 1.0f) * w, w },
                         { mesh_rand(&seed, -1.5f, 2.5f), mesh_rand(&seed, -0.5f, 1.5f), 0.0f, 0.0f } };
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
    return mesh_setup(d, r, MESH_PX, compare, cfg, &tex, v, 6u * MESH_TRIS);
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
        ok = ok && mesh_draw(d, &r, NULL, a);
        eg_soft_shade_vw = 4u;
        ok = ok && mesh_draw(d, &r, NULL, b);
        bool fast = eg_soft_raster_fast_paths;
        eg_soft_raster_fast_paths = false;   /* the VM and the depth test's lane loop */
        ok = ok && mesh_draw(d, &r, NULL, c);
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
        ok = ok && mesh_draw(d, &r, NULL, a);
        eg_soft_shade_vw = saved;
        bool fast = eg_soft_raster_fast_paths;
        eg_soft_raster_fast_paths = false;
        ok = ok && mesh_draw(d, &r, NULL, c);
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
