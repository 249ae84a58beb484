/* make bench: runs scenes 1-6 of issue #8 on every backend; table + gnuplot data.
 *
 * Usage: bench_runner OUTDIR [REPS [SOFT_THREADS]]. Scenes 1-5 run on soft (SOFT_THREADS workers,
 * default: the build's / EMGPU_SOFT_THREADS) against gles (llvmpipe, LP_NUM_THREADS set to the same
 * count before Mesa loads) and against vulkan (lavapipe): one child process per GPU driver (soft +
 * gles, then soft + vulkan), frames interleaved rep by rep (soft, gles, soft, ...) so that ratios
 * are taken pair by pair under the same machine conditions. WHY one driver per process: with
 * lavapipe loaded in the same process, soft and llvmpipe both ran slower (session 6: soft's
 * blit 1.42 -> 2.13 ms at 1 thread), so a shared process measures the drivers' interference. A frame is encode + finish + submit + wait for
 * the queue to be idle. Each backend's first frame is read back and compared with soft's (a broken
 * backend must not produce a fast-but-wrong figure); soft's frames are written as PNG to OUTDIR.
 * Scene 6 (draw-call overhead) is bench_draws.c / bench_raw_*.c. Never fails on speed: the exit
 * status is 1 only when a scene could not be rendered or an image mismatched.
 */
#include "bench/bench_host.h"
#include "bench/bench_scene.h"
#include "bench/bench_native.h"

#include "hal/soft/soft_internal.h"
#include "kernel/api/command_buffer.h"   /* read-only: a frame's command-stream bytes */
#include <emgpu/emgpu.h>

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define W_PX 800u
#define H_PX 480u

enum { B_SOFT, B_GLES, B_VULKAN, B_COUNT };
static const char *const backend_name[B_COUNT] = { "soft", "gles", "vulkan" };
static const WGPUBackendType backend_type[B_COUNT] = { WGPUBackendType_Undefined, WGPUBackendType_OpenGLES,
                                                       WGPUBackendType_Vulkan };

typedef struct config {
    int id, variant;
    WGPUTextureFormat fmt;
    const char *fmt_name;
    double lvgl_ms;             /* LVGL 9.6 reference (issue #8), 0 = none */
} config_t;

static const config_t configs[] = {
    { BENCH_BLIT, 0, WGPUTextureFormat_RGBA8Unorm, "RGBA8", 0 },
    { BENCH_BLIT, 0, WGPUTextureFormat_EmgpuRGB565Unorm, "RGB565", 0 },
    { BENCH_UI, 0, WGPUTextureFormat_EmgpuRGB565Unorm, "RGB565", 0.96 },
    { BENCH_UI, 0, WGPUTextureFormat_BGRA8Unorm, "XRGB8888", 1.23 },
    { BENCH_UI, 1, WGPUTextureFormat_EmgpuRGB565Unorm, "RGB565", 0.59 },
    { BENCH_UI, 1, WGPUTextureFormat_BGRA8Unorm, "XRGB8888", 0.61 },
    { BENCH_TRIS, 0, WGPUTextureFormat_RGBA8Unorm, "RGBA8", 0 },
    { BENCH_TRIS, 1, WGPUTextureFormat_RGBA8Unorm, "RGBA8", 0 },
    { BENCH_MESH, 0, WGPUTextureFormat_RGBA8Unorm, "RGBA8", 0 },
    { BENCH_ALU, 0, WGPUTextureFormat_RGBA8Unorm, "RGBA8", 0 },
};
#define CONFIG_COUNT (sizeof configs / sizeof configs[0])

typedef struct gpu {
    WGPUInstance inst;
    WGPUDevice dev;
    WGPUQueue queue;
    unsigned errors;
} gpu_t;

static int failures;
/* One instance for every device: the static instance block serves one instance per process. */
WGPUInstance bench_inst;

void bench_say(const char *s)
{
    fputs(s, stdout);
}

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

bench_stat_t bench_stat(double *v, unsigned n)
{
    bench_stat_t s = { 0, 0, 0 };
    if (!n) return s;
    qsort(v, n, sizeof *v, cmp_double);
    s.med = n & 1u ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    s.min = v[0];
    s.max = v[n - 1];
    return s;
}

static int gpu_open(gpu_t *g, WGPUBackendType type)
{
    memset(g, 0, sizeof *g);
    g->inst = bench_inst;
    g->dev = bench_device(g->inst, type, &g->errors);
    if (!g->dev) return 0;
    g->queue = wgpuDeviceGetQueue(g->dev);
    return 1;
}

static void gpu_close(gpu_t *g)
{
    if (g->queue) wgpuQueueRelease(g->queue);
    if (g->dev) wgpuDeviceRelease(g->dev);
    wgpuInstanceProcessEvents(g->inst);
    memset(g, 0, sizeof *g);
}

static uint32_t last_stream_B; /* command-stream bytes the last frame recorded */

/* One frame, timed: encode + finish + submit + wait until the queue is idle. */
static double frame_ms(gpu_t *g, bench_scene_t *s, int copy_out)
{
    double t0 = bench_now_ms();
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(g->dev, NULL);
    bench_scene_frame(s, enc);
    if (copy_out) bench_scene_copy_out(s, enc);
    if (enc) last_stream_B = enc->stream.used_B;
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuCommandEncoderRelease(enc);
    wgpuQueueSubmit(g->queue, 1, &cb);
    wgpuCommandBufferRelease(cb);
    bench_queue_idle(g->inst, g->queue);
    return bench_now_ms() - t0;
}

/* Pixel i of a readback as RGB888 (formats: RGBA8, BGRA8, RGB565). */
static void pixel_rgb(const bench_scene_t *s, const uint8_t *img, uint32_t x, uint32_t y, uint8_t out[3])
{
    const uint8_t *p = img + (size_t)y * s->row_B + (size_t)x * s->px_B;
    if (s->fmt == WGPUTextureFormat_EmgpuRGB565Unorm) {
        uint16_t v = (uint16_t)(p[0] | p[1] << 8);
        out[0] = (uint8_t)(((v >> 11) & 31u) * 255u / 31u);
        out[1] = (uint8_t)(((v >> 5) & 63u) * 255u / 63u);
        out[2] = (uint8_t)((v & 31u) * 255u / 31u);
    } else if (s->fmt == WGPUTextureFormat_BGRA8Unorm) {
        out[0] = p[2];
        out[1] = p[1];
        out[2] = p[0];
    } else {
        memcpy(out, p, 3);
    }
}

static void write_png(const char *path, const bench_scene_t *s, const uint8_t *img)
{
    uint8_t *rgba = malloc((size_t)s->w * s->h * 4u);
    if (!rgba) return;
    for (uint32_t y = 0; y < s->h; y++)
        for (uint32_t x = 0; x < s->w; x++) {
            uint8_t *q = rgba + ((size_t)y * s->w + x) * 4u;
            pixel_rgb(s, img, x, y, q);
            q[3] = 255;
        }
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    im.width = s->w;
    im.height = s->h;
    im.format = PNG_FORMAT_RGBA;
    png_image_write_to_file(&im, path, 0, rgba, (png_int_32)(s->w * 4u), NULL);
    free(rgba);
}

/* The soft image is the reference: a backend whose image differs by more than 24/255 in some
 * channel on more than 2% of the pixels is reported as a mismatch (rasterization rules and
 * filtering differ slightly between implementations, not more). A blank image also fails. */
static int check_image(const bench_scene_t *s, const uint8_t *img, const uint8_t *ref, char *why, size_t why_cap)
{
    uint32_t differ = 0, distinct = 0;
    uint8_t first[3], a[3], b[3];
    pixel_rgb(s, img, 0, 0, first);
    for (uint32_t y = 0; y < s->h; y++)
        for (uint32_t x = 0; x < s->w; x++) {
            pixel_rgb(s, img, x, y, a);
            if (memcmp(a, first, 3)) distinct++;
            if (!ref) continue;
            pixel_rgb(s, ref, x, y, b);
            for (int c = 0; c < 3; c++)
                if (abs((int)a[c] - (int)b[c]) > 24) {
                    differ++;
                    break;
                }
        }
    if (distinct == 0) {
        snprintf(why, why_cap, "blank image");
        return 0;
    }
    if (differ * 50u > s->w * s->h) {
        snprintf(why, why_cap, "%.1f%% of pixels differ from soft", 100.0 * differ / (s->w * s->h));
        return 0;
    }
    snprintf(why, why_cap, ref ? "ok (%.2f%% px differ)" : "ok", 100.0 * differ / (s->w * s->h));
    return 1;
}

typedef struct result {
    int ok[B_COUNT];
    bench_stat_t ms[B_COUNT];
    bench_stat_t ratio_gles, ratio_vk, memcpy_ms, ratio_memcpy;
    uint64_t soft_heap_B;
    uint32_t stream_B;
    char check[B_COUNT][48];    /* the image check's verdict per backend */
} result_t;

static result_t results[CONFIG_COUNT];
static gpu_t gpus[B_COUNT];
static int have[B_COUNT];

static void memcpy_times(const config_t *c, double *out, unsigned reps)
{
    size_t n = (size_t)W_PX * H_PX * (c->fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u);
    uint8_t *a = malloc(n), *b = malloc(n);
    if (!a || !b) {
        free(a);
        free(b);
        return;
    }
    memset(a, 1, n);
    memset(b, 2, n);
    memcpy(b, a, n); /* warm: no page faults in the timed copies */
    for (unsigned r = 0; r < reps; r++) {
        double t0 = bench_now_ms();
        memcpy(b, a, n);
        out[r] = bench_now_ms() - t0;
        a[r % n] = b[(r * 7u) % n]; /* keeps the copies observable */
    }
    free(a);
    free(b);
}

static void run_config(unsigned ci, unsigned reps, const char *outdir)
{
    const config_t *c = &configs[ci];
    result_t *r = &results[ci];
    static bench_scene_t sc[B_COUNT];
    static double t[B_COUNT][BENCH_MAX_REPS], rg[BENCH_MAX_REPS], rv[BENCH_MAX_REPS], mc[BENCH_MAX_REPS], rm[BENCH_MAX_REPS];
    const uint8_t *ref = NULL;
    for (int b = 0; b < B_COUNT; b++) {
        r->ok[b] = 0;
        if (!have[b]) continue;
        unsigned e0 = gpus[b].errors;
        if (!bench_scene_init(&sc[b], gpus[b].dev, c->id, c->variant, W_PX, H_PX, c->fmt)) {
            printf("bench: %s %s on %s: setup failed\n", bench_scene_name(c->id, c->variant), c->fmt_name, backend_name[b]);
            bench_scene_release(&sc[b]);
            if (b == B_SOFT) failures++;
            continue;
        }
        frame_ms(&gpus[b], &sc[b], 1);
        /* Warm-up frames, untimed, every backend alike: soft's pass schedule times its first 6
         * passes of a target binned and unbinned before it keeps the faster (soft_schedule.c); an
         * application renders thousands of frames, so its steady state is what counts. */
        for (int w = 0; w < 7; w++) frame_ms(&gpus[b], &sc[b], 0);
        const uint8_t *img = bench_map_readback(gpus[b].inst, &sc[b]);
        char why[96] = "readback failed";
        int ok = img && check_image(&sc[b], img, b == B_SOFT ? NULL : ref, why, sizeof why) && gpus[b].errors == e0;
        if (gpus[b].errors != e0) snprintf(why, sizeof why, "%u WebGPU error(s)", gpus[b].errors - e0);
        snprintf(r->check[b], sizeof r->check[b], "%s", why);
        if (b == B_SOFT && img) {
            char path[512];
            snprintf(path, sizeof path, "%s/scene%d%s_%s.png", outdir, c->id, c->variant ? (c->id == BENCH_UI ? "_opaque" : "_flat") : "",
                     c->fmt_name);
            write_png(path, &sc[b], img);
            static uint8_t *ref_copy;
            free(ref_copy);
            ref_copy = malloc((size_t)sc[b].row_B * H_PX);
            if (ref_copy) memcpy(ref_copy, img, (size_t)sc[b].row_B * H_PX);
            ref = ref_copy;
            eg_range_stats_t hs;
            eg_soft_heap_stats(&hs);
            r->soft_heap_B = hs.used_B;
            r->stream_B = last_stream_B;
        }
        if (img) wgpuBufferUnmap(sc[b].readback);
        if (!ok) {
            printf("bench: %s %s on %s: %s; not timed\n", bench_scene_name(c->id, c->variant), c->fmt_name, backend_name[b], why);
            bench_scene_release(&sc[b]);
            failures++;
            continue;
        }
        r->ok[b] = 1;
    }
    for (unsigned k = 0; k < reps; k++)
        for (int b = 0; b < B_COUNT; b++)
            if (r->ok[b]) t[b][k] = frame_ms(&gpus[b], &sc[b], 0);
    if (c->id == BENCH_BLIT) memcpy_times(c, mc, reps);
    for (unsigned k = 0; k < reps; k++) {
        rg[k] = r->ok[B_GLES] ? t[B_SOFT][k] / t[B_GLES][k] : 0;
        rv[k] = r->ok[B_VULKAN] ? t[B_SOFT][k] / t[B_VULKAN][k] : 0;
        rm[k] = mc[k] > 0 ? t[B_SOFT][k] / mc[k] : 0;
    }
    /* BENCH_AB=name (soft): each rep draws a frame with the switch on, then one with it off; the
     * ratio of each pair is taken, so a change in the machine's speed between reps cancels out */
    const char *ab = getenv("BENCH_AB");
    if (ab && r->ok[B_SOFT] && bench_soft_ab(ab, 1)) {
        static double on[BENCH_MAX_REPS], off[BENCH_MAX_REPS], q[BENCH_MAX_REPS];
        for (int w = 0; w < 7; w++) { bench_soft_ab(ab, w & 1 ? 0 : 1); frame_ms(&gpus[B_SOFT], &sc[B_SOFT], 0); }
        for (unsigned k = 0; k < reps; k++) {
            bench_soft_ab(ab, 1);
            on[k] = frame_ms(&gpus[B_SOFT], &sc[B_SOFT], 0);
            bench_soft_ab(ab, 0);
            off[k] = frame_ms(&gpus[B_SOFT], &sc[B_SOFT], 0);
            q[k] = on[k] / off[k];
        }
        bench_soft_ab_reset();
        bench_stat_t a = bench_stat(on, reps), o = bench_stat(off, reps), x = bench_stat(q, reps);
        printf("A/B %s %-20s %-8s on %7.3f ms  off %7.3f ms  on/off %.3f [%.3f-%.3f]\n", ab,
               bench_scene_name(c->id, c->variant), c->fmt_name, a.med, o.med, x.med, x.min, x.max);
    }
    for (int b = 0; b < B_COUNT; b++)
        if (r->ok[b]) {
            r->ms[b] = bench_stat(t[b], reps);
            bench_scene_release(&sc[b]);
        }
    if (r->ok[B_SOFT]) {
        r->ratio_gles = bench_stat(rg, reps);
        r->ratio_vk = bench_stat(rv, reps);
        if (c->id == BENCH_BLIT) {
            r->memcpy_ms = bench_stat(mc, reps);
            r->ratio_memcpy = bench_stat(rm, reps);
        }
    }
}

/* ---- soft studies: the shader VM vs native C (scene 5), 1 vs 2 threads (scenes 1-5) ---- */

static void copy_image(gpu_t *g, bench_scene_t *s, uint8_t **out)
{
    frame_ms(g, s, 1);
    const uint8_t *img = bench_map_readback(g->inst, s);
    free(*out);
    *out = img ? malloc((size_t)s->row_B * s->h) : NULL;
    if (img && *out) memcpy(*out, img, (size_t)s->row_B * s->h);
    if (img) wgpuBufferUnmap(s->readback);
}

static void native_study(unsigned reps)
{
    static bench_scene_t s;
    static double vm[BENCH_MAX_REPS], nat[BENCH_MAX_REPS], loop[BENCH_MAX_REPS], ratio[BENCH_MAX_REPS];
    gpu_t *g = &gpus[B_SOFT];
    uint8_t *ref = NULL, *img = NULL;
    if (!bench_scene_init(&s, g->dev, BENCH_ALU, 0, W_PX, H_PX, WGPUTextureFormat_RGBA8Unorm)) {
        bench_scene_release(&s);
        return;
    }
    copy_image(g, &s, &ref);
    bench_native_fs(s.pipe[0], 1);
    copy_image(g, &s, &img);
    bench_native_fs(s.pipe[0], 0);
    char why[96] = "readback failed";
    int ok = ref && img && check_image(&s, img, ref, why, sizeof why);
    for (unsigned k = 0; k < reps; k++) {
        vm[k] = frame_ms(g, &s, 0);
        bench_native_fs(s.pipe[0], 1);
        nat[k] = frame_ms(g, &s, 0);
        bench_native_fs(s.pipe[0], 0);
        ratio[k] = vm[k] / nat[k];
    }
    bench_native_loop(reps, W_PX, H_PX, loop);
    bench_stat_t v = bench_stat(vm, reps), n = bench_stat(nat, reps), l = bench_stat(loop, reps), r = bench_stat(ratio, reps);
    const double px = (double)W_PX * H_PX;
    printf("\nScene 5 shader: VM vs the same shader in C (soft, %d thread(s); ns per pixel = frame ms / %ux%u)\n",
           bench_soft_threads(), W_PX, H_PX);
    printf("  VM through the rasterizer        %8.3f ms [%7.3f-%8.3f]  %6.2f ns/px\n", v.med, v.min, v.max, v.med * 1e6 / px);
    printf("  C through the rasterizer (hook)  %8.3f ms [%7.3f-%8.3f]  %6.2f ns/px  image vs VM: %s\n", n.med, n.min, n.max,
           n.med * 1e6 / px, ok ? why : "MISMATCH");
    printf("  C plain loop, no rasterizer      %8.3f ms [%7.3f-%8.3f]  %6.2f ns/px (one thread)\n", l.med, l.min, l.max, l.med * 1e6 / px);
    printf("  VM / native (pair by pair): %.2f\n", r.med);
    free(ref);
    free(img);
    bench_scene_release(&s);
}

/* The Cortex-M7 scenes (bench_m7.c) rendered here on soft: bench.mk compares the hashes. */
static void m7_reference(void)
{
    static const int scenes[5][2] = { { BENCH_BLIT, 0 }, { BENCH_UI, 0 }, { BENCH_UI, 1 }, { BENCH_TRIS, 0 }, { BENCH_TRIS, 1 } };
    static bench_scene_t s;
    uint8_t *img = NULL;
    printf("\nHost references for the Cortex-M7 frames (soft, 320x240 RGB565)\n");
    for (int i = 0; i < 5; i++) {
        if (!bench_scene_init(&s, gpus[B_SOFT].dev, scenes[i][0], scenes[i][1], 320, 240, WGPUTextureFormat_EmgpuRGB565Unorm)) {
            bench_scene_release(&s);
            continue;
        }
        copy_image(&gpus[B_SOFT], &s, &img);
        if (img) printf("m7-ref: %-20s image %08lx\n", bench_scene_name(scenes[i][0], scenes[i][1]),
                        (unsigned long)bench_image_hash(&s, img));
        bench_scene_release(&s);
    }
    free(img);
}

static void threads_study(unsigned reps)
{
    static bench_scene_t s;
    static double t1[BENCH_MAX_REPS], t2[BENCH_MAX_REPS], sp[BENCH_MAX_REPS];
    gpu_t *g = &gpus[B_SOFT];
    int keep = bench_soft_threads();
    printf("\nSoft, 1 thread vs 2 threads (eg_soft_set_threads), ms per frame, median [min-max] of %u\n", reps);
    for (unsigned i = 0; i < CONFIG_COUNT; i++) {
        const config_t *c = &configs[i];
        uint8_t *a = NULL, *b = NULL;
        if (!bench_scene_init(&s, g->dev, c->id, c->variant, W_PX, H_PX, c->fmt)) {
            bench_scene_release(&s);
            continue;
        }
        bench_set_soft_threads(1);
        copy_image(g, &s, &a);
        bench_set_soft_threads(2);
        copy_image(g, &s, &b);
        int same = a && b && memcmp(a, b, (size_t)s.row_B * s.h) == 0;
        for (unsigned k = 0; k < reps; k++) {
            bench_set_soft_threads(1);
            t1[k] = frame_ms(g, &s, 0);
            bench_set_soft_threads(2);
            t2[k] = frame_ms(g, &s, 0);
            sp[k] = t1[k] / t2[k];
        }
        bench_stat_t x = bench_stat(t1, reps), y = bench_stat(t2, reps), z = bench_stat(sp, reps);
        printf("  %-20s %-8s 1T %8.3f [%7.3f-%8.3f]  2T %8.3f [%7.3f-%8.3f]  speed-up %.2f  images %s\n",
               bench_scene_name(c->id, c->variant), c->fmt_name, x.med, x.min, x.max, y.med, y.min, y.max, z.med,
               same ? "identical" : "DIFFER");
        if (!same) failures++;
        free(a);
        free(b);
        bench_scene_release(&s);
    }
    bench_set_soft_threads((uint32_t)keep);
}

static void print_stat_ms(const bench_stat_t *s, int ok)
{
    if (ok) printf(" %8.3f [%7.3f-%8.3f]", s->med, s->min, s->max);
    else printf(" %27s", "-");
}

static void print_scenes(unsigned reps, FILE *dat)
{
    printf("\nScenes 1-5, %ux%u, ms per frame (encode+finish+submit+wait), median [min-max] of %u; ratios pair by pair\n",
           W_PX, H_PX, reps);
    printf("%-20s %-8s %27s %27s %27s %8s %8s  %s\n", "scene", "format", "soft", "gles (llvmpipe)", "vulkan (lavapipe)",
           "soft/gl", "soft/vk", "other");
    for (unsigned i = 0; i < CONFIG_COUNT; i++) {
        const config_t *c = &configs[i];
        const result_t *r = &results[i];
        printf("%-20s %-8s", bench_scene_name(c->id, c->variant), c->fmt_name);
        for (int b = 0; b < B_COUNT; b++) print_stat_ms(&r->ms[b], r->ok[b]);
        if (r->ok[B_SOFT] && r->ok[B_GLES]) printf(" %8.2f", r->ratio_gles.med);
        else printf(" %8s", "-");
        if (r->ok[B_SOFT] && r->ok[B_VULKAN]) printf(" %8.2f", r->ratio_vk.med);
        else printf(" %8s", "-");
        if (c->id == BENCH_BLIT && r->ok[B_SOFT])
            printf("  memcpy %.3f ms, soft/memcpy %.1f", r->memcpy_ms.med, r->ratio_memcpy.med);
        if (c->lvgl_ms > 0 && r->ok[B_SOFT])
            printf("  LVGL %.2f ms, soft/LVGL %.1f", c->lvgl_ms, r->ms[B_SOFT].med / c->lvgl_ms);
        if (c->id == BENCH_ALU) {
            for (int b = 0; b < B_COUNT; b++)
                if (r->ok[b]) printf("  %s %.2f ns/px", backend_name[b], r->ms[b].med * 1e6 / (W_PX * H_PX));
        }
        printf("\n");
        if (dat) {
            fprintf(dat, "\"%s %s\"", bench_scene_name(c->id, c->variant), c->fmt_name);
            for (int b = 0; b < B_COUNT; b++)
                fprintf(dat, " %g %g %g", r->ok[b] ? r->ms[b].med : 0, r->ok[b] ? r->ms[b].min : 0, r->ok[b] ? r->ms[b].max : 0);
            fprintf(dat, "\n");
        }
    }
    printf("\nImage checks against soft (more than 2%% of pixels off by > 24/255 fails)\n");
    for (unsigned i = 0; i < CONFIG_COUNT; i++)
        printf("  %-20s %-8s gles %-24s vulkan %s\n", bench_scene_name(configs[i].id, configs[i].variant), configs[i].fmt_name,
               results[i].check[B_GLES][0] ? results[i].check[B_GLES] : "-",
               results[i].check[B_VULKAN][0] ? results[i].check[B_VULKAN] : "-");
    printf("\nMemory (soft): soft heap in use while the scene is alive (targets, textures, buffers, readback);\n"
           "command-stream bytes one frame records (the first frame, with its texture upload and readback copy)\n");
    for (unsigned i = 0; i < CONFIG_COUNT; i++)
        if (results[i].ok[B_SOFT])
            printf("  %-20s %-8s soft heap %8.1f KiB  command stream %6u B\n", bench_scene_name(configs[i].id, configs[i].variant),
                   configs[i].fmt_name, (double)results[i].soft_heap_B / 1024.0, (unsigned)results[i].stream_B);
}

static const char *const draw_mode_name[DRAWS_MODES] = { "(a) draw", "(b) setVertexBuffer+draw", "(c) setBindGroup(dyn)+draw" };

static void print_draws(const char *name, const bench_draws_result_t *d, const bench_draws_result_t *raw, FILE *dat)
{
    if (!d->ok) {
        printf("  %-13s skipped (backend or driver missing)\n", name);
        return;
    }
    for (int m = 0; m < DRAWS_MODES; m++) {
        double total = d->ns[m][PH_ENCODE].med + d->ns[m][PH_FINISH].med + d->ns[m][PH_SUBMIT].med;
        printf("  %-13s %-27s encode %7.1f [%6.1f-%7.1f]  finish %6.1f  submit %7.1f  total %7.1f  (wait %7.1f)",
               name, draw_mode_name[m], d->ns[m][PH_ENCODE].med, d->ns[m][PH_ENCODE].min, d->ns[m][PH_ENCODE].max,
               d->ns[m][PH_FINISH].med, d->ns[m][PH_SUBMIT].med, total, d->ns[m][PH_WAIT].med);
        if (d->stream_B[m]) printf("  %u B/draw", (unsigned)((d->stream_B[m] + BENCH_DRAWS / 2u) / BENCH_DRAWS));
        if (raw && raw->ok) {
            double rt = raw->ns[m][PH_ENCODE].med + raw->ns[m][PH_FINISH].med + raw->ns[m][PH_SUBMIT].med;
            printf("  x%.1f of raw", total / rt);
        }
        printf("\n");
        if (dat) fprintf(dat, "\"%s %c\" %g %g %g\n", name, 'a' + m, d->ns[m][PH_ENCODE].med, d->ns[m][PH_FINISH].med,
                         d->ns[m][PH_SUBMIT].med);
    }
}

static void run_draws(unsigned reps, FILE *dat)
{
    static bench_draws_result_t api[4], raw_vk, raw_gl;
    static const char *const names[4] = { "noop", "soft", "vulkan", "gles" };
    for (int i = 0; i < 4; i++) bench_draws_api(names[i], reps, &api[i]);
    bench_draws_raw_vk(reps, &raw_vk);
    bench_draws_raw_gl(reps, &raw_gl);
    printf("\nScene 6: %u draws in one pass, CPU ns per draw (median [min-max] of %u); total = encode+finish+submit;\n"
           "wait = until the driver has executed the pass (not in total; CPU drivers render then)\n", BENCH_DRAWS, reps);
    print_draws("emgpu noop", &api[0], NULL, dat);
    print_draws("emgpu soft", &api[1], NULL, dat);
    print_draws("emgpu vulkan", &api[2], &raw_vk, dat);
    print_draws("raw vulkan", &raw_vk, NULL, dat);
    print_draws("emgpu gles", &api[3], &raw_gl, dat);
    print_draws("raw gles", &raw_gl, NULL, dat);
}

/* Quick runs (helper "raster", session 4): BENCH_BACKENDS=soft,gles opens only the listed
 * backends, BENCH_ONLY=0,2 runs only those rows of configs[] (0-based); either one also skips
 * the studies and scene 6 (BENCH_NATIVE=1 keeps the VM-vs-C study). Unset: the full run. */
static int env_lists(const char *var, const char *item)
{
    const char *v = getenv(var);
    if (!v || !*v) return 1;
    size_t n = strlen(item);
    for (const char *p = v; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, item, n) == 0) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) printf("bench: cannot write %s\n", path);
    return f;
}

/* The scene table with soft and one GPU backend `gpu` open (B_COUNT: soft alone; BENCH_BACKENDS
 * narrows further), rows filtered by BENCH_ONLY. Returns the failure count. */
static int scene_pass(int gpu, unsigned reps, const char *outdir)
{
    for (int b = 0; b < B_COUNT; b++) {
        have[b] = 0;
        if ((b != B_SOFT && b != gpu) || !env_lists("BENCH_BACKENDS", backend_name[b])) continue;
        have[b] = gpu_open(&gpus[b], backend_type[b]);
        if (!have[b]) printf("bench: backend %s skipped (not compiled in or driver missing)\n", backend_name[b]);
    }
    if (!have[B_SOFT]) return 1;
    for (unsigned i = 0; i < CONFIG_COUNT; i++) {
        char idx[12];
        snprintf(idx, sizeof idx, "%u", i);
        if (env_lists("BENCH_ONLY", idx)) run_config(i, reps, outdir);
    }
    for (int b = 0; b < B_COUNT; b++)
        if (have[b] && b != B_SOFT) gpu_close(&gpus[b]);
    return failures;
}

/* The full run's scene table: soft + gles in one child process, soft + vulkan in another (see the
 * file comment); results[] come back through a shared anonymous mapping. Soft's column and soft/gl
 * are the soft + gles child's; soft/vk pairs soft with lavapipe in the other child. */
static void scene_children(unsigned reps, const char *outdir)
{
    static const int gpu[2] = { B_GLES, B_VULKAN };
    result_t *shared = mmap(NULL, sizeof results * 2u, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        printf("bench: mmap for the child processes failed; scenes not run\n");
        failures++;
        return;
    }
    memset(shared, 0, sizeof results * 2u);
    fflush(stdout);
    for (int k = 0; k < 2; k++) {
        pid_t pid = fork();
        if (pid == 0) {
            bench_inst = wgpuCreateInstance(NULL);
            int f = bench_inst ? scene_pass(gpu[k], reps, outdir) : 1;
            memcpy(&shared[k * CONFIG_COUNT], results, sizeof results);
            fflush(stdout);
            _exit(f ? 1 : 0);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) failures++;
    }
    for (unsigned i = 0; i < CONFIG_COUNT; i++) {
        const result_t *g = &shared[i], *v = &shared[CONFIG_COUNT + i];
        results[i] = *g;
        results[i].ok[B_VULKAN] = v->ok[B_VULKAN];
        results[i].ms[B_VULKAN] = v->ms[B_VULKAN];
        results[i].ratio_vk = v->ratio_vk;
        memcpy(results[i].check[B_VULKAN], v->check[B_VULKAN], sizeof results[i].check[B_VULKAN]);
        if (!g->ok[B_SOFT] && v->ok[B_SOFT]) results[i] = *v;   /* soft ran only in the vulkan child */
    }
    munmap(shared, sizeof results * 2u);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUTDIR [REPS [SOFT_THREADS]]\n", argv[0]);
        return 2;
    }
    unsigned reps = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 11u;
    if (reps < 1) reps = 1;
    if (reps > BENCH_MAX_REPS) reps = BENCH_MAX_REPS;
    unsigned nthreads = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 0u;
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (nthreads) bench_set_soft_threads(nthreads);
    /* Mesa reads this when the driver loads: llvmpipe/lavapipe get as many threads as hal/soft. */
    char threads[16];
    snprintf(threads, sizeof threads, "%d", bench_soft_threads());
    /* BENCH_LP_THREADS overrides (llvmpipe's N counts rasterizer threads besides the submitting
     * one: LP_NUM_THREADS=1 is two threads at work, 0 the submitting thread alone) */
    const char *lp = getenv("BENCH_LP_THREADS");
    setenv("LP_NUM_THREADS", lp && *lp ? lp : threads, 1);
    printf("bench: %u reps per figure; soft threads %d; LP_NUM_THREADS=%s\n", reps, bench_soft_threads(), getenv("LP_NUM_THREADS"));

    int quick = getenv("BENCH_BACKENDS") || getenv("BENCH_ONLY");
    int two_gpus = env_lists("BENCH_BACKENDS", "gles") && env_lists("BENCH_BACKENDS", "vulkan");
    if (two_gpus) scene_children(reps, argv[1]);   /* the drivers never share a process */
    bench_inst = wgpuCreateInstance(NULL);
    if (!bench_inst) return 1;
    if (!two_gpus) scene_pass(env_lists("BENCH_BACKENDS", "gles") ? B_GLES : B_VULKAN, reps, argv[1]);
    else have[B_SOFT] = gpu_open(&gpus[B_SOFT], backend_type[B_SOFT]);
    if (!have[B_SOFT]) return 1;
    FILE *dat = open_out(argv[1], "scenes.dat");
    print_scenes(reps, dat);
    if (dat) fclose(dat);
    if (quick) {
        if (getenv("BENCH_NATIVE")) native_study(reps);   /* helper "vm", session 4: scene 5 VM vs C */
        gpu_close(&gpus[B_SOFT]);
        wgpuInstanceRelease(bench_inst);
        return failures ? 1 : 0;
    }
    native_study(reps);
    threads_study(reps / 2u + 1u);
    m7_reference();
    gpu_close(&gpus[B_SOFT]);

    dat = open_out(argv[1], "draws.dat");
    run_draws(reps < 7 ? reps : 7, dat);
    if (dat) fclose(dat);

    wgpuInstanceRelease(bench_inst);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("\nProcess peak RSS: %.1f MiB (all backends and drivers loaded)\n", (double)ru.ru_maxrss / 1024.0);
    printf("bench: %s\n", failures ? "some scenes failed (see above)" : "all scenes rendered and checked");
    return failures ? 1 : 0;
}
