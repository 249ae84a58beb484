/* Conformance scenes at reduced size on soft: image hashes equal to the host's, on every board.
 *
 * Each test renders one scene of tests/scenes at its small size (scene_list.c: small_px, at most
 * 32x32 so that it fits the Cortex-M7 board's 64 KiB soft heap and pools) and compares the FNV-1a
 * 64 hash of the RGBA8 pixels with tests/ref/scene_hashes.h, which the host generates from the same
 * scenes (EMGPU_SCENES_UPDATE=1 build/host/tests/scenes_test, after reviewing the PNGs). Equal hashes
 * on x86-64, AArch64 and Cortex-M7 prove the soft backend renders the same bytes everywhere.
 * A scene without a reference hash fails with a message saying how to make one.
 */
#include "tests/harness/test_device.h"
#include "tests/ref/scene_hashes.h"
#include "tests/scenes/scene.h"

#include "kernel/base/util.h"

#define SMALL_MAX_PX 32u

static uint8_t g_px[SMALL_MAX_PX * SMALL_MAX_PX * 4u];
static eg_scene_t g_ctx;

static const eg_scene_hash_ref_t *find_ref(const char *name)
{
    for (const eg_scene_hash_ref_t *h = eg_scene_hash_refs; h->name; h++)
        if (eg_strcmp(h->name, name) == 0) return h;
    return NULL;
}

static void check_scene(const char *name)
{
    const eg_scene_info_t *sc = eg_scene_find(name);
    EG_ASSERT(sc != NULL);
    EG_ASSERT(sc->small_px <= SMALL_MAX_PX);
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("the reference hashes are the soft backend's (GPU backends run the scenes in scenes_test)");
    }
    const char *fail = eg_scene_run(sc, eg_test_instance(), d, sc->small_px, sc->small_px, g_px, &g_ctx);
    if (fail) eg_test_printf("    scene %s: %s\n", name, fail);
    EG_EXPECT(fail == NULL);
    EG_EXPECT_NO_ERROR();
    uint64_t got = eg_scene_hash(g_px, (size_t)sc->small_px * sc->small_px * 4u);
    const eg_scene_hash_ref_t *ref = find_ref(name);
    if (!ref || ref->small_px != sc->small_px) {
        eg_test_printf("    scene %s: no reference hash for %ux%u in tests/ref/scene_hashes.h (hash here "
                       "0x%016llx); on the host run EMGPU_SCENES_UPDATE=1 build/host/tests/scenes_test, "
                       "review tests/ref/%s.png, commit both\n", name, (unsigned)sc->small_px,
                       (unsigned)sc->small_px, (unsigned long long)got, name);
        eg_test_fail(__FILE__, __LINE__, "reference hash exists");
    } else if (got != ref->small_hash) {
        eg_test_printf("    scene %s: hash 0x%016llx, the host rendered 0x%016llx\n", name,
                       (unsigned long long)got, (unsigned long long)ref->small_hash);
        eg_test_fail(__FILE__, __LINE__, "hash equals the host's");
    }
    eg_test_device_release();
}

EG_TEST(scenes, clear_copy) { check_scene("clear_copy"); }
EG_TEST(scenes, points) { check_scene("points"); }
EG_TEST(scenes, lines) { check_scene("lines"); }
EG_TEST(scenes, tri_list) { check_scene("tri_list"); }
EG_TEST(scenes, tri_strip) { check_scene("tri_strip"); }
EG_TEST(scenes, cull) { check_scene("cull"); }
EG_TEST(scenes, builtins) { check_scene("builtins"); }
EG_TEST(scenes, interp) { check_scene("interp"); }
EG_TEST(scenes, blend_alpha) { check_scene("blend_alpha"); }
EG_TEST(scenes, blend_ops) { check_scene("blend_ops"); }
EG_TEST(scenes, blend_factors) { check_scene("blend_factors"); }
EG_TEST(scenes, write_mask) { check_scene("write_mask"); }
EG_TEST(scenes, depth_compare_a) { check_scene("depth_compare_a"); }
EG_TEST(scenes, depth_compare_b) { check_scene("depth_compare_b"); }
EG_TEST(scenes, depth_formats) { check_scene("depth_formats"); }
EG_TEST(scenes, stencil_count) { check_scene("stencil_count"); }
EG_TEST(scenes, stencil_ops) { check_scene("stencil_ops"); }
EG_TEST(scenes, mrt4) { check_scene("mrt4"); }
EG_TEST(scenes, mrt2) { check_scene("mrt2"); }
EG_TEST(scenes, msaa) { check_scene("msaa"); }
EG_TEST(scenes, rgb565) { check_scene("rgb565"); }
EG_TEST(scenes, rgba16float) { check_scene("rgba16float"); }
EG_TEST(scenes, srgb) { check_scene("srgb"); }
EG_TEST(scenes, bgra8) { check_scene("bgra8"); }
EG_TEST(scenes, sampler_address) { check_scene("sampler_address"); }
EG_TEST(scenes, sampler_filter) { check_scene("sampler_filter"); }
EG_TEST(scenes, sampler_mipmap) { check_scene("sampler_mipmap"); }
EG_TEST(scenes, sampler_lod) { check_scene("sampler_lod"); }
EG_TEST(scenes, sampler_cube) { check_scene("sampler_cube"); }
EG_TEST(scenes, sampler_array) { check_scene("sampler_array"); }
EG_TEST(scenes, sampler_compare) { check_scene("sampler_compare"); }
EG_TEST(scenes, texel_load) { check_scene("texel_load"); }
EG_TEST(scenes, tex_formats) { check_scene("tex_formats"); }
EG_TEST(scenes, instancing) { check_scene("instancing"); }
EG_TEST(scenes, vertex_formats) { check_scene("vertex_formats"); }
EG_TEST(scenes, indexed) { check_scene("indexed"); }
EG_TEST(scenes, index_restart) { check_scene("index_restart"); }
EG_TEST(scenes, indirect) { check_scene("indirect"); }
EG_TEST(scenes, scissor) { check_scene("scissor"); }
EG_TEST(scenes, viewport) { check_scene("viewport"); }
EG_TEST(scenes, prefix_sum) { check_scene("prefix_sum"); }
EG_TEST(scenes, storage_texture) { check_scene("storage_texture"); }
EG_TEST(scenes, ui) { check_scene("ui"); }
EG_TEST(scenes, mesh3d) { check_scene("mesh3d"); }
