/* Benchmark runner: scene 5's fragment shader hand-written in C, and hal/soft's bench controls.
 *
 * The native figure is the lower bound of the shader VM: the same arithmetic compiled by the C
 * compiler, run by the soft rasterizer in place of the VM through the bench hook
 * eg_soft_render_pipeline_set_native_fs (hal/soft/soft_bench.h: same pipeline, same pass, only
 * the shader execution differs), and once more as a bare loop over the frame (no rasterizer).
 * Thread control: eg_soft_set_threads (hal/soft/soft_bin.h, a test hook).
 */
#include "bench/bench_native.h"
#include "bench/bench_host.h"

#include "hal/soft/soft_bench.h"
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float fract1(float x)
{
    return x - floorf(x);
}

static float clamp1(float x, float lo, float hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

void bench_alu_native(float fx, float fy, float out[4])
{
    float px = fx * 0.0125f, py = fy * 0.0208333f;
    float qx = fract1(px * 1.7f + 0.3f) - 0.5f, qy = fract1(py * 1.7f + 0.1f) - 0.5f;
    float d = qx * qx + qy * qy;
    float r = clamp1(1.0f - d * 4.0f, 0.0f, 1.0f);
    float sx = fabsf(px - 5.0f), sy = fabsf(py - 4.8f);
    float box = (sx > sy ? sx : sy) * 0.2f;
    float w = fract1(box * 3.0f + r);
    float m = w * w * (3.0f - 2.0f * w);
    float a[3] = { 0.9f * r + 0.1f * m, 0.4f * r + 0.3f * m, 0.1f * r + 0.8f * m };
    float b[3] = { qx + 0.5f, qy + 0.5f, d };
    for (int i = 0; i < 3; i++) {
        float v = a[i] * 0.75f + b[i] * 0.25f;
        out[i] = v < 1.0f ? v : 1.0f;
    }
    out[3] = 1.0f;
}

int bench_soft_threads(void)
{
    return (int)eg_soft_threads();
}

void bench_set_soft_threads(uint32_t n)
{
    eg_soft_set_threads(n);
}

static uint32_t ab_threads;   /* the thread count before a "threads" A/B (0: none ran) */

int bench_soft_ab(const char *name, int on)
{
    if (strcmp(name, "threads") == 0) {
        if (!ab_threads) ab_threads = eg_soft_threads();
        eg_soft_set_threads(on ? 2u : 1u);
    } else if (strcmp(name, "order") == 0) eg_soft_bin_order_on = on != 0;
    else if (strcmp(name, "spin") == 0) eg_soft_workers_spin_on = on != 0;
    else if (strcmp(name, "quads") == 0) eg_soft_bin_quads_on = on != 0;
    else if (strcmp(name, "early") == 0) eg_soft_bin_early_on = on != 0;
    else if (strcmp(name, "lazy") == 0) eg_soft_discard_lazy_on = on != 0;
    else if (strcmp(name, "binned") == 0) eg_soft_sched_set_mode(on ? EG_SOFT_SCHED_BINNED : EG_SOFT_SCHED_UNBINNED);
    else return 0;
    return 1;
}

void bench_soft_ab_reset(void)
{
    eg_soft_bin_order_on = eg_soft_workers_spin_on = eg_soft_bin_quads_on = eg_soft_bin_early_on = true;
    eg_soft_discard_lazy_on = true;
    eg_soft_sched_set_mode(-1);
    if (ab_threads) eg_soft_set_threads(ab_threads);
    ab_threads = 0;
}

/* One 4x4 block: every lane computed (inactive lanes' outputs are ignored by the rasterizer),
 * so the loop has no branch, as a compiler-generated shader would. */
static void alu_fs(eg_soft_invocation_t *inv, const void *user)
{
    (void)user;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        float c[4];
        bench_alu_native(inv->position.c[0].f[l], inv->position.c[1].f[l], c);
        for (int i = 0; i < 4; i++) inv->out[0].c[i].f[l] = c[i];
    }
}

void bench_native_fs(WGPURenderPipeline p, int on)
{
    eg_soft_render_pipeline_set_native_fs(p, on ? alu_fs : NULL, NULL);
}

static uint8_t unorm8(float v)
{
    v = clamp1(v, 0.0f, 1.0f);
    return (uint8_t)(v * 255.0f + 0.5f);
}

void bench_native_loop(unsigned reps, uint32_t w, uint32_t h, double *t)
{
    uint8_t *img = malloc((size_t)w * h * 4u);
    if (!img) return;
    for (unsigned k = 0; k < reps; k++) {
        double t0 = bench_now_ms();
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                float c[4];
                bench_alu_native((float)x + 0.5f, (float)y + 0.5f, c);
                uint8_t *p = img + ((size_t)y * w + x) * 4u;
                for (int i = 0; i < 4; i++) p[i] = unorm8(c[i]);
            }
        t[k] = bench_now_ms() - t0;
        img[k % 16u] ^= img[(size_t)w * h * 2u]; /* keep the stores observable */
    }
    free(img);
}
