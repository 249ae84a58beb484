/* soft_sample_mesh.c's textured-mesh walk (eg_soft_mesh_walk) and one-pass block against the general path (helper "mesh9", session 9). */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#include "tests/unit/soft_mesh_util.h"
#if EMGPU_HAL_SOFT
#include "hal/soft/soft_raster.h"
#endif

#if EMGPU_HAL_SOFT
#define MW_PX 32u
#define MW_TRIS 48u

/* The bench mesh row's pipeline (soft_mesh_util.h) over a 32x32 RGBA8 target and Depth32Float
 * (Less, writes on), a 7x5 RGBA8 texture (odd sizes: repeat wraps inside the 8-lane groups),
 * address mode `am` on both axes, and the vertices v. */
static bool mw_init(WGPUDevice d, mesh_res_t *r, WGPUAddressMode am, const mesh_vtx_t *v, uint32_t nv)
{
    const mesh_cfg_t cfg = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_RGBA8Unorm, am, am, true };
    static const mesh_tex_t tex = { 7, 5, 71, 13 };
    return mesh_setup(d, r, MW_PX, WGPUCompareFunction_Less, &cfg, &tex, v, nv);
}

typedef struct mw_count {
    uint32_t differ, drawn, outside, fast_blocks;
} mw_count_t;

/* Draws v with the fast paths (the one-pass block and its walk on AVX2 CPUs) and without them
 * (the VM, the lane-loop sampler and depth test: the definition of the bytes); counts pixels
 * whose color or depth differ, pixels drawn (depth below the clear's 1.0), pixels drawn outside
 * the scissor rectangle (WebGPU: fragments outside it are discarded) and the blocks the fast
 * draw sampled without the VM (eg_soft_worker_main.tex_blocks). */
static bool mw_compare(WGPUDevice d, WGPUAddressMode am, const mesh_vtx_t *v, uint32_t nv, const uint32_t sc[4],
                       mw_count_t *n)
{
    static uint8_t a[2 * 256 * MW_PX], c[2 * 256 * MW_PX];
    mesh_res_t r;
    bool ok = mw_init(d, &r, am, v, nv);
    uint32_t saved = eg_soft_shade_vw, before = eg_soft_worker_main.tex_blocks;
    eg_soft_shade_vw = 8u;
    ok = ok && mesh_draw(d, &r, sc, a);
    n->fast_blocks = eg_soft_worker_main.tex_blocks - before;
    eg_soft_shade_vw = saved;
    bool fast = eg_soft_raster_fast_paths;
    eg_soft_raster_fast_paths = false;
    ok = ok && mesh_draw(d, &r, sc, c);
    eg_soft_raster_fast_paths = fast;
    mesh_release(&r);
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
static void mw_small_tris(mesh_vtx_t *v, uint32_t ntri, uint32_t seed, float u0)
{
    float s = u0 > 1.0e6f ? u0 * (1.0f / 1048576.0f) : 1.0f;
    for (uint32_t t = 0; t < ntri; t++) {
        float cx = mesh_rand(&seed, -1.0f, 1.0f), cy = mesh_rand(&seed, -1.0f, 1.0f);
        for (uint32_t k = 0; k < 3u; k++) {
            float w = mesh_rand(&seed, 0.5f, 3.0f);
            mesh_vtx_t q = { { (cx + mesh_rand(&seed, -0.4f, 0.4f)) * w, (cy + mesh_rand(&seed, -0.4f, 0.4f)) * w,
                             mesh_rand(&seed, 0.0f, 1.0f) * w, w },
                           { u0 + s * mesh_rand(&seed, 0.0f, 4.0f), mesh_rand(&seed, -1.5f, 2.5f), 0.0f, 0.0f } };
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
    static mesh_vtx_t v[3u * MW_TRIS];
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
    static mesh_vtx_t v[3u * MW_TRIS + 6u];
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
            mesh_vtx_t q = { { qx[i], qy[i], 0.9f, 1.0f }, { u, 0.5f + 0.25f * qy[i], 0.0f, 0.0f } };
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
