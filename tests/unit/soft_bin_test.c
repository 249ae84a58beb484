/* Tile binning and worker threads of hal/soft: every conformance scene renders the same bytes
 * (the reference hashes of tests/ref/scene_hashes.h, made before binning existed) whatever the
 * tile size, the bin arena size (overflow flushes) and the number of worker threads.
 *
 * The scenes cover what binning must preserve: triangles spanning tile borders (every scene is
 * at least 16x16 px), scissor and viewport (scissor_viewport), state changes between draws in one
 * pass (blend_ops, stencil_ops, depth_compare_*: pipeline / stencil reference / blend constant
 * per draw), MSAA, MRT, points and lines, indirect draws.
 */
#include "tests/harness/test_device.h"
#include "tests/ref/scene_hashes.h"
#include "tests/scenes/scene.h"

#include "kernel/base/util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"

#define SMALL_MAX_PX 32u

static uint8_t g_px[SMALL_MAX_PX * SMALL_MAX_PX * 4u];
static eg_scene_t g_ctx;

static const eg_scene_hash_ref_t *find_ref(const char *name)
{
    for (const eg_scene_hash_ref_t *h = eg_scene_hash_refs; h->name; h++)
        if (eg_strcmp(h->name, name) == 0) return h;
    return NULL;
}

/* One binning configuration. */
typedef struct bin_cfg {
    uint32_t tile_px, threads;
    size_t arena_B;
} bin_cfg_t;

static void set_cfg(const bin_cfg_t *c)
{
    eg_soft_bin_set_tile_px(c->tile_px);
    eg_soft_set_threads(c->threads);
    eg_soft_bin_set_arena_limit(c->arena_B);
}

/* Renders every scene under c and compares with the reference hashes; returns the mismatches. */
static uint32_t run_scenes(const bin_cfg_t *c)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < eg_scene_count; i++) {
        const eg_scene_info_t *sc = &eg_scene_list[i];
        const eg_scene_hash_ref_t *ref = find_ref(sc->name);
        if (!ref || ref->small_px != sc->small_px || sc->small_px > SMALL_MAX_PX) continue;
        WGPUDevice d = eg_test_device("soft");
        if (!d) break;
        set_cfg(c);
        const char *fail = eg_scene_run(sc, eg_test_instance(), d, sc->small_px, sc->small_px, g_px, &g_ctx);
        uint64_t got = eg_scene_hash(g_px, (size_t)sc->small_px * sc->small_px * 4u);
        if (fail || got != ref->small_hash) {
            eg_test_printf("    scene %s (tile %u, threads %u, arena %u B): %s\n", sc->name, (unsigned)c->tile_px,
                           (unsigned)c->threads, (unsigned)c->arena_B, fail ? fail : "hash differs");
            bad++;
        }
        eg_test_device_release();
    }
    bin_cfg_t off = { 0, 0, 0 };
    set_cfg(&off);
    return bad;
}

static bool soft_only(void)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) return false;
    bool soft = eg_strcmp(eg_test_backend(), "soft") == 0;
    eg_test_device_release();
    return soft;
}

#define REQUIRE_SOFT()                                                                 \
    do {                                                                               \
        if (!eg_test_device("soft")) EG_SKIP("soft backend not compiled in");          \
        eg_test_device_release();                                                      \
        if (!soft_only()) EG_NOT_APPLICABLE("tests hal/soft binning");                 \
    } while (0)

/* Tiles of 4 px (the smallest: every triangle crosses many tile borders) and 12 px (not a power
 * of two: tiles end mid-target) give the unbinned bytes. */
EG_TEST(soft_bin, tile_sizes_match_reference)
{
    REQUIRE_SOFT();
    eg_soft_bin_stats_t a, b;
    eg_soft_bin_stats(&a);
    static const bin_cfg_t cfgs[2] = { { 4, 1, 0 }, { 12, 1, 0 } };
    for (uint32_t k = 0; k < 2; k++) EG_EXPECT_EQ_U(run_scenes(&cfgs[k]), 0);
    eg_soft_bin_stats(&b);
    EG_EXPECT(b.binned > a.binned);          /* the binned path ran */
}

/* A 1.5 KiB arena holds a handful of triangles: every scene overflows and flushes mid-pass,
 * some triangles do not fit an empty arena with their tile references (drawn alone), and the
 * bytes still equal the reference. */
EG_TEST(soft_bin, arena_overflow_matches_reference)
{
    REQUIRE_SOFT();
    eg_soft_bin_stats_t a, b;
    eg_soft_bin_stats(&a);
    static const bin_cfg_t cfg = { 4, 1, 1536 };
    EG_EXPECT_EQ_U(run_scenes(&cfg), 0);
    eg_soft_bin_stats(&b);
    EG_EXPECT(b.overflows > a.overflows + 10u);
}

/* Worker threads: 2 and 3 workers (where the port has threads; bare metal runs them all on the
 * submitting thread, which must give the same bytes too), with small tiles so that each pass
 * has many tiles to share, and with overflow flushes. */
EG_TEST(soft_bin, threads_match_reference)
{
    REQUIRE_SOFT();
    static const bin_cfg_t cfgs[3] = { { 8, 2, 0 }, { 4, 3, 0 }, { 8, 3, 2048 } };
    for (uint32_t k = 0; k < 3; k++) EG_EXPECT_EQ_U(run_scenes(&cfgs[k]), 0);
}

/* A huge tile table does not fit a quarter of a tiny arena: the tile size doubles until it does
 * (and the bytes stay the same). */
EG_TEST(soft_bin, tile_table_grows_tiles)
{
    REQUIRE_SOFT();
    static const bin_cfg_t cfg = { 4, 1, 1024 };
    EG_EXPECT_EQ_U(run_scenes(&cfg), 0);
    eg_soft_bin_stats_t s;
    eg_soft_bin_stats(&s);
    /* last pass: a 32x32 (or smaller) target with 4 px tiles is 64 tiles * 2 pointers, more than
     * 256 B on any target: the tiles grew */
    EG_EXPECT(s.tile_px > 4u);
}

#endif /* EMGPU_HAL_SOFT */
