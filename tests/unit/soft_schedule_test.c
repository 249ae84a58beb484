/* hal/soft pass schedule (soft_schedule.c): with more than one worker each kind of pass is timed
 * binned and unbinned, the faster kept (binned: when 5 % faster), the other re-tried after 16
 * passes, then after twice as many each time the choice holds (up to 1024), after 16 again once
 * it switched.
 *
 * The clock is the test's, so every choice below is computed by hand from the durations given:
 * probing is 3 binned passes then 3 unbinned, the first of each run not counted, each keeping
 * its fastest counted pass; a re-probe is 2 passes of the other schedule, the second counted,
 * and it takes over when at least 10 % faster than the chosen one's running average (3/4 old +
 * 1/4 new); a pass under 2/3 or over 3/2 of that average is left out of it, and two such passes
 * in a row start probing again.
 */
#include "tests/harness/test_device.h"

#include "kernel/base/util.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"

static uint64_t fake_ns;
static uint64_t fake_clock(void) { return fake_ns; }

static void sched_begin(void)
{
    eg_soft_sched_forget();
    eg_soft_sched_set_clock(fake_clock);
    eg_soft_sched_set_mode(EG_SOFT_SCHED_AUTO);
}

static void sched_end(void)
{
    eg_soft_sched_forget();
    eg_soft_sched_set_clock(NULL);
    eg_soft_sched_set_mode(EG_SOFT_SCHED_BINNED);   /* the unit tests' setting (harness_main.c) */
}

/* One pass of kind key lasting binned_ns when binned, unbinned_ns when not; true: it was binned. */
static bool run(uint64_t key, uint64_t binned_ns, uint64_t unbinned_ns)
{
    bool b = eg_soft_sched_open(key);
    fake_ns += b ? binned_ns : unbinned_ns;
    eg_soft_sched_close();
    return b;
}

/* Probing order and the not-counted first pass of each run: the first binned pass is the
 * fastest of all (a planted "count every probe" would pick binned), the counted ones are slower
 * than the unbinned ones. Then 16 unbinned passes, then the 2-pass re-probe. */
EG_TEST(soft_schedule, probes_then_keeps_the_faster)
{
    sched_begin();
    const uint64_t k = 1;
    static const uint64_t probe_ns[6] = { 100, 900, 800, 5000, 700, 750 };   /* B B B U U U */
    for (uint32_t i = 0; i < 6u; i++) {
        bool b = eg_soft_sched_open(k);
        EG_EXPECT(b == (i < 3u));
        fake_ns += probe_ns[i];
        eg_soft_sched_close();
    }
    /* counted: binned min(900, 800) = 800, unbinned min(700, 750) = 700: unbinned kept */
    eg_soft_sched_stats_t a, b;
    eg_soft_sched_stats(&a);
    uint32_t binned = 0;
    for (uint32_t i = 0; i < 16u; i++) binned += run(k, 800, 700) ? 1u : 0u;
    EG_EXPECT_EQ_U(binned, 0);
    /* the re-probe: two binned passes; the second (630) is exactly 10 % under 700: not enough */
    EG_EXPECT(run(k, 100, 0));
    EG_EXPECT(run(k, 630, 0));
    EG_EXPECT(!run(k, 0, 700));
    eg_soft_sched_stats(&b);
    EG_EXPECT_EQ_U(b.switches - a.switches, 0);
    EG_EXPECT_EQ_U(b.probes - a.probes, 2u);
    EG_EXPECT_EQ_U(b.passes[0] - a.passes[0], 17u);
    EG_EXPECT_EQ_U(b.passes[1] - a.passes[1], 2u);
    sched_end();
}

/* Binned is chosen only when its counted passes were at least 5 % faster: 960 against 1000
 * keeps unbinned, 940 takes binned (planted bug "the faster wins": 960 bins). */
EG_TEST(soft_schedule, binned_needs_a_margin)
{
    sched_begin();
    for (uint32_t i = 0; i < 6u; i++) (void)run(5, 960, 1000);
    EG_EXPECT(!run(5, 960, 1000));
    for (uint32_t i = 0; i < 6u; i++) (void)run(6, 940, 1000);
    EG_EXPECT(run(6, 940, 1000));
    sched_end();
}

/* A re-probe that is more than 10 % faster takes over; the next re-probe (of unbinned, now the
 * other one) comes 16 passes later. */
EG_TEST(soft_schedule, reprobe_switches)
{
    sched_begin();
    const uint64_t k = 2;
    for (uint32_t i = 0; i < 6u; i++) (void)run(k, 1000, 500);   /* unbinned kept */
    for (uint32_t i = 0; i < 16u; i++) EG_EXPECT(!run(k, 1000, 500));
    eg_soft_sched_stats_t a, b;
    eg_soft_sched_stats(&a);
    EG_EXPECT(run(k, 2000, 0));      /* first re-probe pass: not counted */
    EG_EXPECT(run(k, 440, 0));       /* 440 < 0.9 x 500 */
    eg_soft_sched_stats(&b);
    EG_EXPECT_EQ_U(b.switches - a.switches, 1u);
    for (uint32_t i = 0; i < 16u; i++) EG_EXPECT(run(k, 440, 500));
    EG_EXPECT(!run(k, 440, 500));    /* re-probe of unbinned */
    EG_EXPECT(!run(k, 440, 500));
    EG_EXPECT(run(k, 440, 500));     /* 500 is not faster: binned stays */
    sched_end();
}

/* Re-probes back off while the choice holds: the other schedule's pairs of passes come after 16,
 * 32, ..., 1024 and 1024 passes of the chosen one (planted bug "no doubling": every 16). */
EG_TEST(soft_schedule, reprobes_back_off)
{
    sched_begin();
    const uint64_t k = 4;
    for (uint32_t i = 0; i < 6u; i++) (void)run(k, 1000, 500);   /* unbinned kept */
    static const uint32_t gaps[8] = { 16, 32, 64, 128, 256, 512, 1024, 1024 };
    for (uint32_t g = 0; g < 8u; g++) {
        uint32_t binned = 0;
        for (uint32_t i = 0; i < gaps[g]; i++) binned += run(k, 1000, 500) ? 1u : 0u;
        EG_EXPECT_EQ_U(binned, 0);
        EG_EXPECT(run(k, 1000, 500));   /* the re-probe's two passes */
        EG_EXPECT(run(k, 1000, 500));
    }
    sched_end();
}

/* One slow pass (pre-empted) changes nothing; two in a row mean new content: probing again,
 * which then finds binned faster. Two fast passes in a row restart it too. */
EG_TEST(soft_schedule, drift_restarts_probing)
{
    sched_begin();
    const uint64_t k = 3;
    for (uint32_t i = 0; i < 6u; i++) (void)run(k, 1000, 500);
    EG_EXPECT(!run(k, 1000, 5000));   /* one spike: left out */
    EG_EXPECT(!run(k, 1000, 500));
    eg_soft_sched_stats_t a, b;
    eg_soft_sched_stats(&a);
    EG_EXPECT(!run(k, 1000, 800));    /* > 3/2 of 500 (planted "spike averaged in": 2 x 800 < 3 x 1625) */
    EG_EXPECT(!run(k, 1000, 800));    /* the second in a row: restart */
    eg_soft_sched_stats(&b);
    EG_EXPECT_EQ_U(b.restarts - a.restarts, 1u);
    for (uint32_t i = 0; i < 3u; i++) EG_EXPECT(run(k, 600, 800));
    for (uint32_t i = 0; i < 3u; i++) EG_EXPECT(!run(k, 600, 800));
    EG_EXPECT(run(k, 600, 800));      /* binned kept now */
    /* faster content: under 2/3 of 600 twice */
    EG_EXPECT(run(k, 300, 800));
    EG_EXPECT(run(k, 300, 800));
    eg_soft_sched_stats(&a);
    EG_EXPECT_EQ_U(a.restarts - b.restarts, 1u);
    sched_end();
}

/* Kinds are kept apart (8 remembered, the least recently used replaced); a cancelled pass (a
 * banded one) counts nothing; rekey moves the open pass to another kind; a fixed schedule
 * returns its choice and times nothing. */
EG_TEST(soft_schedule, kinds_cancel_rekey_fixed)
{
    sched_begin();
    for (uint32_t i = 0; i < 6u; i++) (void)run(10, 1000, 500);   /* kind 10: unbinned */
    for (uint32_t i = 0; i < 6u; i++) (void)run(11, 500, 1000);   /* kind 11: binned */
    EG_EXPECT(!run(10, 1000, 500));
    EG_EXPECT(run(11, 500, 1000));
    /* 7 more kinds, kind 10 used last: kind 11 is the least recently used and is replaced */
    EG_EXPECT(!run(10, 1000, 500));
    for (uint64_t k = 20; k < 27u; k++) EG_EXPECT(run(k, 500, 1000));   /* new: probing binned */
    EG_EXPECT(!run(10, 1000, 500));    /* kept */
    for (uint32_t i = 0; i < 3u; i++) EG_EXPECT(run(11, 500, 1000));
    EG_EXPECT(!run(11, 500, 1000));    /* probing again: kind 11 was forgotten */

    eg_soft_sched_stats_t a, b;
    eg_soft_sched_stats(&a);
    EG_EXPECT(!eg_soft_sched_open(10));
    eg_soft_sched_cancel();
    eg_soft_sched_close();
    eg_soft_sched_stats(&b);
    EG_EXPECT_EQ_U(b.passes[0] + b.passes[1], a.passes[0] + a.passes[1]);

    /* open as kind 10 (unbinned), rekeyed to a new kind: probing, binned */
    EG_EXPECT(!eg_soft_sched_open(10));
    EG_EXPECT(eg_soft_sched_rekey(30));
    fake_ns += 123;
    eg_soft_sched_close();
    eg_soft_sched_stats(&a);
    EG_EXPECT_EQ_U(a.passes[1] - b.passes[1], 1u);

    eg_soft_sched_set_mode(EG_SOFT_SCHED_UNBINNED);
    EG_EXPECT(!eg_soft_sched_open(11));
    EG_EXPECT(!eg_soft_sched_rekey(12));
    eg_soft_sched_close();
    eg_soft_sched_set_mode(EG_SOFT_SCHED_BINNED);
    EG_EXPECT(eg_soft_sched_open(10));
    eg_soft_sched_close();
    eg_soft_sched_stats(&b);
    EG_EXPECT_EQ_U(b.passes[0] + b.passes[1], a.passes[0] + a.passes[1]);
    sched_end();
}

/* Through the API at 2 workers: a clock that makes binned passes 3x slower (it sees from the
 * bin counters whether the pass just timed was binned) hands the passes to one worker after
 * probing: no triangle is binned any more; a clock the other way keeps binning. The bytes are
 * those of one worker every time. */
#define PX 32u

typedef struct svtx {
    float pos[4], color[4];
} svtx_t;

static uint32_t clock_calls, binned_at_open;
static bool binned_slow;

static uint64_t bin_clock(void)
{
    eg_soft_bin_stats_t st;
    eg_soft_bin_stats(&st);
    if (clock_calls++ % 2u == 0) {
        binned_at_open = st.binned;
        return fake_ns;
    }
    bool binned = st.binned != binned_at_open;
    fake_ns += binned == binned_slow ? 3000u : 1000u;
    return fake_ns;
}

static void tri_quad(svtx_t *v, float x0, float y0, float x1, float y1, const float c[4])
{
    const float p[6][2] = { { x0, y0 }, { x1, y0 }, { x0, y1 }, { x0, y1 }, { x1, y0 }, { x1, y1 } };
    for (uint32_t i = 0; i < 6; i++) {
        svtx_t t = { { p[i][0], p[i][1], 0.5f, 1.0f }, { c[0], c[1], c[2], c[3] } };
        v[i] = t;
    }
}

EG_TEST(soft_schedule, api_passes_follow_the_clock)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("tests the hal/soft schedule");
    }
    if (EMGPU_SOFT_MAX_THREADS < 2) {   /* one worker's state on this board: nothing to schedule */
        eg_test_device_release();
        EG_NOT_APPLICABLE("one worker on this board");
    }
    WGPUTexture ct = t_texture(d, WGPUTextureFormat_RGBA8Unorm, PX, PX, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTexture dt = t_texture(d, WGPUTextureFormat_Depth32Float, PX, PX, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    EG_ASSERT(ct && dt);
    WGPUTextureView cv = wgpuTextureCreateView(ct, NULL), dv = wgpuTextureCreateView(dt, NULL);
    WGPUVertexAttribute va[2];
    WGPUVertexBufferLayout vbl;
    t_pos_attr_layout(va, &vbl, sizeof(svtx_t), WGPUVertexFormat_Float32x4);
    WGPURenderPipeline p = t_color_depth_pipeline(d, "draw_color.vert", "draw_color.frag", &vbl,
                                                  WGPUTextureFormat_RGBA8Unorm, NULL, WGPUCompareFunction_Always, true);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 2u * 256u * PX);
    EG_ASSERT(p && rb);
    /* 16 overlapping opaque quads of different colours over the target (the later one wins) */
    static svtx_t v[6u * 16u];
    for (uint32_t q = 0; q < 16u; q++) {
        float x = -1.0f + 0.11f * (float)q, y = 0.9f - 0.1f * (float)q;
        const float c[4] = { (float)(q & 3u) / 3.0f, (float)(q >> 2) / 3.0f, 0.5f, 1.0f };
        tri_quad(v + 6u * q, x, y - 0.8f, x + 0.7f, y, c);
    }
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, sizeof v);
    static const WGPUColor clear = { 0.2, 0.4, 0.6, 1.0 };
    static uint8_t ref[2u * 256u * PX], got[2u * 256u * PX];

    eg_soft_set_threads(1);
    t_draw_color_depth_copy_ex(d, p, NULL, vb, 6u * 16u, cv, dv, ct, dt, PX, rb, &clear, 1.0f, NULL);
    EG_ASSERT(t_readback(d, rb, 0, sizeof ref, ref));

    eg_soft_set_threads(2);
    for (uint32_t slow = 0; slow < 2u; slow++) {
        sched_begin();
        binned_slow = slow != 0;
        clock_calls = 0;
        eg_soft_sched_set_clock(bin_clock);
        eg_soft_bin_stats_t a, b;
        uint32_t per_pass = 0;   /* triangles binned by a binned pass */
        for (uint32_t i = 0; i < 6u; i++) {   /* probing: 3 binned passes, 3 unbinned */
            eg_soft_bin_stats(&a);
            t_draw_color_depth_copy_ex(d, p, NULL, vb, 6u * 16u, cv, dv, ct, dt, PX, rb, &clear, 1.0f, NULL);
            eg_soft_bin_stats(&b);
            if (i == 0) per_pass = b.binned - a.binned;
            EG_EXPECT((b.binned != a.binned) == (i < 3u));
            EG_EXPECT(t_readback(d, rb, 0, sizeof got, got));
            EG_EXPECT(eg_memcmp(got, ref, sizeof ref) == 0);
        }
        eg_soft_bin_stats(&a);
        for (uint32_t i = 0; i < 4u; i++) {
            t_draw_color_depth_copy_ex(d, p, NULL, vb, 6u * 16u, cv, dv, ct, dt, PX, rb, &clear, 1.0f, NULL);
            EG_EXPECT(t_readback(d, rb, 0, sizeof got, got));
            EG_EXPECT(eg_memcmp(got, ref, sizeof ref) == 0);
        }
        eg_soft_bin_stats(&b);
        /* binned only where binned is the faster */
        EG_EXPECT(per_pass > 0);
        EG_EXPECT_EQ_U(b.binned - a.binned, slow ? 0u : 4u * per_pass);
        sched_end();
    }
    eg_soft_set_threads(0);
    wgpuBufferRelease(vb);
    wgpuBufferRelease(rb);
    wgpuRenderPipelineRelease(p);
    wgpuTextureViewRelease(cv);
    wgpuTextureViewRelease(dv);
    wgpuTextureRelease(ct);
    wgpuTextureRelease(dt);
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
