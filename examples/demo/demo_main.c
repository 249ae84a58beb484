/* make demo: the dashboard demo's program: renders frames (demo.c), writes the last one as a PNG,
 * then shows the animation in the desktop simulator window when a display is set. */
#include <webgpu/webgpu.h>

#include "examples/demo/demo.h"
#include "examples/soft_device.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void on_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message,
                     void *userdata1, void *userdata2)
{
    (void)device;
    (void)userdata2;
    if ((*(unsigned *)userdata1)++ < 5)
        fprintf(stderr, "demo: WebGPU error %d: %.*s\n", (int)type,
                message.data ? (int)(message.length == WGPU_STRLEN ? strlen(message.data) : message.length) : 0,
                message.data ? message.data : "");
}


/* Maps the readback buffer and writes its rows to the png at path. */
static int deliver(demo_t *d, const char *path)
{
    if (!example_map_read(d->instance, d->readback, (size_t)DEMO_ROW_B * DEMO_H_PX)) {
        fprintf(stderr, "demo: mapping the readback buffer failed\n");
        return 0;
    }
    const void *px = wgpuBufferGetConstMappedRange(d->readback, 0, (size_t)DEMO_ROW_B * DEMO_H_PX);
    int ok = px != NULL;
    if (px && path) {
        png_image img;
        memset(&img, 0, sizeof img);
        img.version = PNG_IMAGE_VERSION;
        img.width = DEMO_W_PX;
        img.height = DEMO_H_PX;
        img.format = PNG_FORMAT_RGBA;
        ok = png_image_write_to_file(&img, path, 0, px, (png_int_32)DEMO_ROW_B, NULL);
        if (!ok) fprintf(stderr, "demo: writing %s failed: %s\n", path, img.message);
    }
    wgpuBufferUnmap(d->readback);
    return ok;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUT.png [FRAMES]\n", argv[0]);
        return 2;
    }
    unsigned frames = argc > 2 && argv[2][0] ? (unsigned)strtoul(argv[2], NULL, 10) : 1u;
    if (frames == 0) frames = 1;
    static demo_t d;
    unsigned errors = 0;
    WGPUInstance instance = wgpuCreateInstance(NULL);
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.uncapturedErrorCallbackInfo.callback = on_error;
    dd.uncapturedErrorCallbackInfo.userdata1 = &errors;
    WGPUAdapter adapter = NULL;
    WGPUDevice device = instance ? example_soft_device(instance, &dd, &adapter) : NULL;
    if (adapter) wgpuAdapterRelease(adapter);
    if (!device || !demo_setup(&d, instance, device)) {
        fprintf(stderr, "demo: setting up the soft device, resources or pipelines failed\n");
        demo_teardown(&d);
        if (device) wgpuDeviceRelease(device);
        if (instance) wgpuInstanceRelease(instance);
        return 1;
    }
    double *ms = malloc(frames * sizeof *ms);
    if (!ms) return 1;
    for (unsigned f = 0; f < frames; f++) {
        double t0 = now_ms();
        demo_render_frame(&d, f, f + 1 == frames);
        ms[f] = now_ms() - t0;
    }
    int open = 1, ok = deliver(&d, argv[1]);
    qsort(ms, frames, sizeof *ms, cmp_double);
    printf("demo: %ux%u RGBA8 dashboard on the soft backend: %u frame(s), %u UI vertices + a %u-triangle "
           "torus per frame\n", DEMO_W_PX, DEMO_H_PX, frames, d.batch.n, TORUS_INDICES / 3u);
    printf("demo: ms/frame (record + submit + execute): median %.3f, min %.3f, max %.3f\n",
           ms[frames / 2], ms[0], ms[frames - 1]);
    if (ok) printf("demo: wrote %s\n", argv[1]);
    free(ms);

    demo_window_t *win = errors ? NULL : demo_window_open(d.instance, d.device, DEMO_W_PX, DEMO_H_PX);
    if (win) {
        const char *secs = getenv("DEMO_WINDOW_SECONDS");
        double until = secs && *secs ? now_ms() + 1e3 * strtod(secs, NULL) : -1.0;
        printf("demo: showing the dashboard in a window (close it to exit)\n");
        for (unsigned f = frames; open && (until < 0 || now_ms() < until); f++) {
            double t0 = now_ms();
            demo_render_frame(&d, f, 0);
            open = demo_window_show(win, d.target);
            double left = 1000.0 / 30.0 - (now_ms() - t0);
            if (left > 0) {
                struct timespec ts = { 0, (long)(left * 1e6) };
                nanosleep(&ts, NULL);
            }
        }
        demo_window_close(win);
    }
    demo_teardown(&d);
    wgpuDeviceRelease(device);
    wgpuInstanceRelease(instance);
    if (errors) printf("demo: %u WebGPU error(s) reported\n", errors);
    return ok && !errors ? 0 : 1;
}
