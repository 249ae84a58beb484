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
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

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

/* OVERLAP (soft_bin.c): with 2 and 4 workers the arena is split in halves and a full half is
 * rasterized by the other workers while binning goes on in the other half. Tiny halves make every
 * scene hand off many times per pass, some passes end right after a hand-off (nothing left to
 * bin: the pass end must still wait for it) and some triangles do not fit an empty half (drawn
 * alone, after the half in flight). The bytes equal the reference (made single-threaded and
 * unbinned). Where the port has parked worker threads the hand-off path must have run. */
static void noop_job(eg_soft_worker_t *w, uint32_t i) { (void)w; (void)i; }

/* Whether the port can park worker threads (eg_soft_workers_start hands a batch to them); the
 * threads are joined again before it returns (run_scenes's device releases join them too). */
static bool port_parks(void)
{
    eg_soft_set_threads(2);
    bool ok = eg_soft_workers_start(1, noop_job);
    eg_soft_workers_wait();
    eg_soft_set_threads(0);
    eg_soft_workers_shutdown();
    return ok;
}

EG_TEST(soft_bin, overlap_overflow_matches_reference)
{
    REQUIRE_SOFT();
    eg_soft_bin_stats_t a, b;
    eg_soft_bin_stats(&a);
    /* halves of 4.5-6 KiB: a few state snapshots (~0.5 KiB each) and tile references fit */
    static const bin_cfg_t cfgs[3] = { { 4, 2, 9216 }, { 8, 4, 10240 }, { 4, 2, 12288 } };
    for (uint32_t k = 0; k < 3; k++) EG_EXPECT_EQ_U(run_scenes(&cfgs[k]), 0);
    eg_soft_bin_stats(&b);
    if (EMGPU_SOFT_MAX_THREADS > 1) EG_EXPECT(b.overflows > a.overflows + 30u);   /* halves */
    if (port_parks()) EG_EXPECT(b.async > a.async + 30u);
    else EG_EXPECT_EQ_U(b.async, a.async);   /* no threads (bare metal): never handed off */
}

/* Many passes and flushes in a row with 1, 2 and 4 workers, one after the other on the same
 * parked threads: all give the reference bytes. */
EG_TEST(soft_bin, threads_1_2_4_equal)
{
    REQUIRE_SOFT();
    static const bin_cfg_t cfgs[4] = { { 8, 1, 3072 }, { 8, 2, 3072 }, { 8, 4, 3072 }, { 16, 2, 0 } };
    for (uint32_t k = 0; k < 4; k++) EG_EXPECT_EQ_U(run_scenes(&cfgs[k]), 0);
}

/* ---- the worker pool itself ---- */

#define WJ_N 37u
static uint32_t wj_hits[WJ_N];
static uint32_t wj_bad;

static void wj_job(eg_soft_worker_t *w, uint32_t i)
{
    if (i >= WJ_N || w->index >= EMGPU_SOFT_MAX_THREADS) { wj_bad++; return; }
    wj_hits[i]++;   /* each index is handed to exactly one worker: no two workers write it */
}

/* eg_soft_workers_run and start/wait run every job index exactly once per batch, over many
 * batches in a row (parked threads woken each time), for 1, 2 and 4 workers; start refuses (runs
 * nothing) with one worker, and wait with nothing in flight returns at once. */
EG_TEST(soft_bin, workers_run_each_job_once)
{
    static const uint32_t counts[3] = { 1, 2, 4 };
    for (uint32_t c = 0; c < 3; c++) {
        eg_soft_set_threads(counts[c]);
        eg_memset(wj_hits, 0, sizeof wj_hits);
        wj_bad = 0;
        uint32_t started = 0;
        for (uint32_t round = 0; round < 50u; round++) {
            if (round % 2u) {
                eg_soft_workers_run(WJ_N, wj_job);
            } else if (eg_soft_workers_start(WJ_N, wj_job)) {
                started++;
                eg_soft_workers_wait();
            } else {
                eg_soft_workers_run(WJ_N, wj_job);   /* what soft_bin.c does when start refuses */
            }
        }
        eg_soft_workers_wait();
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < WJ_N; i++) wrong += wj_hits[i] != 50u;
        EG_EXPECT_EQ_U(wrong, 0);
        EG_EXPECT_EQ_U(wj_bad, 0);
        if (counts[c] == 1u || eg_soft_workers_parked() == 0u) EG_EXPECT_EQ_U(started, 0);
        else EG_EXPECT_EQ_U(started, 25u);
    }
    eg_soft_set_threads(0);
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


/* ---- a fragment stage with side effects between binned draws ---- */

#define SE_W 16u

static WGPURenderPipeline se_pipeline(WGPUDevice d, const char *fs_name)
{
    const eg_test_spv_t *vs_spv = eg_test_spv("draw_color.vert"), *fs_spv = eg_test_spv(fs_name);
    if (!vs_spv || !fs_spv) return NULL;
    WGPUShaderModule m[2];
    const eg_test_spv_t *spv[2] = { vs_spv, fs_spv };
    for (int i = 0; i < 2; i++) {
        WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
        src.code = spv[i]->words;
        src.codeSize = spv[i]->word_count;
        WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
        md.nextInChain = &src.chain;
        m[i] = wgpuDeviceCreateShaderModule(d, &md);
    }
    WGPUVertexAttribute va[2] = { WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT };
    va[0].format = WGPUVertexFormat_Float32x4;
    va[1].format = WGPUVertexFormat_Float32x4; va[1].offset = 16; va[1].shaderLocation = 1;
    WGPUVertexBufferLayout vb = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    vb.arrayStride = 32; vb.attributeCount = 2; vb.attributes = va;
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    t.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState f = WGPU_FRAGMENT_STATE_INIT;
    f.module = m[1]; f.targetCount = 1; f.targets = &t;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = m[0]; pd.vertex.bufferCount = 1; pd.vertex.buffers = &vb;
    pd.fragment = &f;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    wgpuShaderModuleRelease(m[0]);
    wgpuShaderModuleRelease(m[1]);
    return p;
}

/* Three overlapping opaque triangles: red (binned), green counting its fragments with an
 * atomic (must be rasterized at once, after red), blue (binned, after green). Renders into out
 * and returns the green draw's fragment count, or UINT32_MAX on failure. */
static uint32_t se_render(WGPUDevice d, uint8_t out[SE_W * SE_W * 4])
{
    static const float v[9 * 8] = {
        -1, 1, 0, 1, 1, 0, 0, 1,   1, 1, 0, 1, 1, 0, 0, 1,   -1, -1, 0, 1, 1, 0, 0, 1,
        -0.6f, 0.9f, 0, 1, 0, 1, 0, 1,   0.9f, -0.7f, 0, 1, 0, 1, 0, 1,   -0.8f, -0.9f, 0, 1, 0, 1, 0, 1,
        0.2f, 1, 0, 1, 0, 0, 1, 1,   1, 0.1f, 0, 1, 0, 0, 1, 1,   -0.1f, -0.3f, 0, 1, 0, 0, 1, 1 };
    WGPURenderPipeline plain = se_pipeline(d, "draw_color.frag"), count = se_pipeline(d, "bin_count.frag");
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, sizeof v);
    WGPUBuffer cnt = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 16);
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, SE_W, SE_W, 1, 1, 1,
                                WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    uint32_t n = UINT32_MAX;
    if (plain && count) {
        WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(count, 0);
        WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
        e.binding = 0; e.buffer = cnt; e.size = 16;
        WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
        bd.layout = bgl; bd.entryCount = 1; bd.entries = &e;
        WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bd);
        WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
        ca.view = view; ca.loadOp = WGPULoadOp_Clear; ca.storeOp = WGPUStoreOp_Store;
        WGPURenderPassDescriptor rd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
        rd.colorAttachmentCount = 1; rd.colorAttachments = &ca;
        WGPUCommandEncoder enc = t_encoder(d);
        WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(enc, &rd);
        wgpuRenderPassEncoderSetVertexBuffer(p, 0, vb, 0, sizeof v);
        wgpuRenderPassEncoderSetPipeline(p, plain);
        wgpuRenderPassEncoderDraw(p, 3, 1, 0, 0);
        wgpuRenderPassEncoderSetPipeline(p, count);
        wgpuRenderPassEncoderSetBindGroup(p, 0, bg, 0, NULL);
        wgpuRenderPassEncoderDraw(p, 3, 1, 3, 0);
        wgpuRenderPassEncoderSetPipeline(p, plain);
        wgpuRenderPassEncoderDraw(p, 3, 1, 6, 0);
        wgpuRenderPassEncoderEnd(p);
        wgpuRenderPassEncoderRelease(p);
        WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * SE_W);
        WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
        WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, SE_W);
        WGPUExtent3D sz = t_extent(SE_W, SE_W, 1);
        wgpuCommandEncoderCopyTextureToBuffer(enc, &ti, &bi, &sz);
        t_submit(enc);
        static uint8_t rows[256 * SE_W];
        uint32_t c[4] = { 0, 0, 0, 0 };
        if (t_readback(d, rb, 0, sizeof rows, rows) && t_readback(d, cnt, 0, sizeof c, c)) {
            for (uint32_t y = 0; y < SE_W; y++) eg_memcpy(out + y * SE_W * 4, rows + y * 256, SE_W * 4);
            n = c[0];
        }
        wgpuBufferRelease(rb);
        wgpuBindGroupRelease(bg);
        wgpuBindGroupLayoutRelease(bgl);
    }
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuBufferRelease(cnt);
    wgpuBufferRelease(vb);
    if (count) wgpuRenderPipelineRelease(count);
    if (plain) wgpuRenderPipelineRelease(plain);
    return n;
}

/* Binned (4 px tiles, 2 threads) and unbinned give the same pixels and the same count: the
 * side-effect draw flushed the red bins before drawing, and blue was binned after it. The
 * picture has all three colors (green on top of red, blue on top of green). */
EG_TEST(soft_bin, side_effect_draw_keeps_order)
{
    REQUIRE_SOFT();
    WGPUDevice d = eg_test_device("soft");
    static uint8_t a[SE_W * SE_W * 4], b[SE_W * SE_W * 4];
    eg_soft_bin_stats_t s0, s1;
    uint32_t na = se_render(d, a);
    eg_soft_bin_set_tile_px(4);
    eg_soft_set_threads(2);
    eg_soft_bin_stats(&s0);
    uint32_t nb = se_render(d, b);
    eg_soft_bin_stats(&s1);
    eg_soft_bin_set_tile_px(0);
    eg_soft_set_threads(0);
    EG_ASSERT(na != UINT32_MAX);
    EG_EXPECT(na > 0u);
    EG_EXPECT_EQ_U(nb, na);
    EG_EXPECT(memcmp(a, b, sizeof a) == 0);
    EG_EXPECT(s1.immediate > s0.immediate && s1.binned > s0.binned);
    uint32_t seen = 0;
    for (uint32_t i = 0; i < SE_W * SE_W; i++) {
        const uint8_t *px = &a[i * 4];
        seen |= (px[0] == 255u) << 0 | (px[1] == 255u) << 1 | (px[2] == 255u) << 2;
    }
    EG_EXPECT_EQ_U(seen, 7u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* ---- a triangle drawn alone right after a half was handed off ---- */

#define OV_W 32u
#define OV_RED 64u

/* OV_RED small red triangles (one per 4 px tile) fill and hand off halves; then one blue
 * triangle covering the whole 32x32 target needs a reference chunk in each of its 64 tiles,
 * more than an empty 4.5 KiB half holds, so it is drawn alone: it must wait for the red half in
 * flight. No depth, no blending: the later draw wins (WebGPU draws in order), so every pixel is
 * blue. Returns the pixels that are not, or UINT32_MAX on failure. */
static uint32_t ov_render(WGPUDevice d)
{
    static float v[(OV_RED + 1u) * 3u * 8u];
    for (uint32_t i = 0; i < OV_RED; i++) {
        float x = -1.0f + (float)(i % 8u) * 0.25f, y = -1.0f + (float)(i / 8u) * 0.25f;
        const float tri[3][2] = { { x, y }, { x + 0.25f, y }, { x, y + 0.25f } };
        for (uint32_t k = 0; k < 3; k++) {
            float *o = &v[(i * 3u + k) * 8u];
            o[0] = tri[k][0]; o[1] = tri[k][1]; o[2] = 0; o[3] = 1;
            o[4] = 1; o[5] = 0; o[6] = 0; o[7] = 1;
        }
    }
    static const float big[3][2] = { { -1, -1 }, { 3, -1 }, { -1, 3 } };
    for (uint32_t k = 0; k < 3; k++) {
        float *o = &v[(OV_RED * 3u + k) * 8u];
        o[0] = big[k][0]; o[1] = big[k][1]; o[2] = 0; o[3] = 1;
        o[4] = 0; o[5] = 0; o[6] = 1; o[7] = 1;
    }
    WGPURenderPipeline pl = se_pipeline(d, "draw_color.frag");
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, sizeof v);
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, OV_W, OV_W, 1, 1, 1,
                                WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * OV_W);
    uint32_t bad = UINT32_MAX;
    if (pl) {
        WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
        ca.view = view; ca.loadOp = WGPULoadOp_Clear; ca.storeOp = WGPUStoreOp_Store;
        WGPURenderPassDescriptor rd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
        rd.colorAttachmentCount = 1; rd.colorAttachments = &ca;
        WGPUCommandEncoder enc = t_encoder(d);
        WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(enc, &rd);
        wgpuRenderPassEncoderSetVertexBuffer(p, 0, vb, 0, sizeof v);
        wgpuRenderPassEncoderSetPipeline(p, pl);
        wgpuRenderPassEncoderDraw(p, (OV_RED + 1u) * 3u, 1, 0, 0);
        wgpuRenderPassEncoderEnd(p);
        wgpuRenderPassEncoderRelease(p);
        WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
        WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, OV_W);
        WGPUExtent3D sz = t_extent(OV_W, OV_W, 1);
        wgpuCommandEncoderCopyTextureToBuffer(enc, &ti, &bi, &sz);
        t_submit(enc);
        static uint8_t rows[256 * OV_W];
        if (t_readback(d, rb, 0, sizeof rows, rows)) {
            bad = 0;
            for (uint32_t y = 0; y < OV_W; y++)
                for (uint32_t x = 0; x < OV_W; x++) {
                    const uint8_t *px = rows + y * 256u + x * 4u;
                    bad += !(px[0] == 0 && px[1] == 0 && px[2] == 255u && px[3] == 255u);
                }
        }
        wgpuRenderPipelineRelease(pl);
    }
    wgpuBufferRelease(rb);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuBufferRelease(vb);
    return bad;
}

EG_TEST(soft_bin, alone_after_handoff_keeps_order)
{
    REQUIRE_SOFT();
    WGPUDevice d = eg_test_device("soft");
    static const uint32_t threads[3] = { 1, 2, 4 };
    for (uint32_t k = 0; k < 3; k++) {
        eg_soft_bin_stats_t a, b;
        eg_soft_set_threads(threads[k]);
        eg_soft_bin_set_tile_px(4);
        eg_soft_bin_set_arena_limit(9216);
        eg_soft_bin_stats(&a);
        uint32_t bad = ov_render(d);
        eg_soft_bin_stats(&b);
        EG_EXPECT_EQ_U(bad, 0);
        if (eg_soft_threads() > 1u)   /* halves: the blue triangle did not fit one, drawn alone */
            EG_EXPECT(b.immediate > a.immediate);
        if (threads[k] > 1u && eg_soft_workers_parked() > 0u) EG_EXPECT(b.async > a.async);
    }
    eg_soft_bin_set_arena_limit(0);
    eg_soft_bin_set_tile_px(0);
    eg_soft_set_threads(0);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Persistent worker threads end with the last soft device (issue #4, no thread outlives the
 * runtime): three times a device is opened, a binned pass with 2 workers and 8 px tiles starts
 * the parked threads (where the port has threads and condition variables: every hosted board),
 * and releasing the device joins them (the parked count is 0 again; it was 1 before). */
EG_TEST(soft_bin, workers_joined_when_last_device_closes)
{
    REQUIRE_SOFT();
    uint32_t had = 0;
    for (uint32_t round = 0; round < 3u; round++) {
        WGPUDevice d = eg_test_device("soft");
        bin_cfg_t c = { 8, 2, 0 };
        set_cfg(&c);
        EG_EXPECT_EQ_U(ov_render(d), 0);
        had += eg_soft_workers_parked() > 0u;
        bin_cfg_t off = { 0, 0, 0 };
        set_cfg(&off);
        EG_EXPECT_NO_ERROR();
        eg_test_device_release();
        EG_EXPECT_EQ_U(eg_soft_workers_parked(), 0);
    }
#if EMGPU_PORT_HAS_ENV
    EG_EXPECT_EQ_U(had, 3);   /* hosted ports have threads: each round started them again */
#endif
}

#endif /* EMGPU_HAL_SOFT */
