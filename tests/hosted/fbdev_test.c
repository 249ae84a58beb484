/* fbdev surface test on a real Linux framebuffer: four colored quadrants through
 * wgpuSurfacePresent, read back from the device, then held on screen for a host screendump.
 *
 * Usage: fbdev_test [DEVICE [HOLD_SECONDS]]   (DEVICE defaults to $EMGPU_FBDEV or /dev/fb0)
 * Without the device (a desktop, CI without the VM) the test is reported as skipped by name.
 * In the QEMU VM of docs/displays.md it prints FBTEST_DRAWN once the frame is shown, so the host
 * captures the screen (HMP screendump) while the picture is held, and checkppm.py checks the
 * quadrants: red, green / blue, white. A regular file standing in for the device is no proof: the
 * ioctls fail on it and the test skips.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <emgpu/emgpu.h>

#include "kernel/api/device.h"
#include "kernel/api/surface.h"
#include "tests/harness/harness.h"
#include "tests/harness/test_device.h"

/* harness.o is linked into every hosted program; this one has its own main and no registry. */
extern const eg_test_entry_t eg_test_list[];
extern const unsigned eg_test_count;
const eg_test_entry_t eg_test_list[1] = {{"fbdev", "none", NULL}};
const unsigned eg_test_count = 0;

static int passed, failed;

#define CHECK(cond, ...) \
    do { if (cond) passed++; else { failed++; printf("  FAIL %s:%d: ", __FILE__, __LINE__); \
         printf(__VA_ARGS__); printf("\n"); } } while (0)

/* Texel bytes of an 8-bit color in the surface's texture format. */
static uint32_t pack(WGPUTextureFormat f, const uint8_t rgb[3], uint8_t out[4])
{
    if (f == WGPUTextureFormat_EmgpuRGB565Unorm) {
        uint32_t v = (rgb[0] * 31u + 127u) / 255u << 11 | (rgb[1] * 63u + 127u) / 255u << 5 |
                     (rgb[2] * 31u + 127u) / 255u;
        out[0] = (uint8_t)v;
        out[1] = (uint8_t)(v >> 8);
        return 2;
    }
    bool bgra = f == WGPUTextureFormat_BGRA8Unorm;
    out[0] = bgra ? rgb[2] : rgb[0];
    out[1] = rgb[1];
    out[2] = bgra ? rgb[0] : rgb[2];
    out[3] = 255;
    return 4;
}

static const uint8_t quad_rgb[4][3] = { { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 255, 255, 255 } };

static void write_quadrants(WGPUTexture t, WGPUTextureFormat f, uint32_t w, uint32_t h)
{
    uint32_t qw = w / 2, qh = h / 2;
    uint8_t px[4];
    uint32_t bpp = pack(f, quad_rgb[0], px);
    uint8_t *data = malloc((size_t)qw * qh * bpp);
    for (uint32_t q = 0; q < 4; q++) {
        pack(f, quad_rgb[q], px);
        for (size_t i = 0; i < (size_t)qw * qh; i++) memcpy(data + i * bpp, px, bpp);
        WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
        dst.texture = t;
        dst.origin.x = (q & 1) ? qw : 0;
        dst.origin.y = (q & 2) ? qh : 0;
        WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
        layout.bytesPerRow = qw * bpp;
        layout.rowsPerImage = qh;
        WGPUExtent3D size = { qw, qh, 1 };
        wgpuQueueWriteTexture(eg_test_queue(), &dst, data, (size_t)qw * qh * bpp, &layout, &size);
    }
    free(data);
}

/* Reads pixel (x, y) of the shown screen back through read(2) on the device: what scan-out sees. */
static bool read_back(const char *path, uint32_t offset_B, uint8_t *out, uint32_t n)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return false;
    bool ok = lseek(fd, (off_t)offset_B, SEEK_SET) == (off_t)offset_B && read(fd, out, n) == (ssize_t)n;
    close(fd);
    return ok;
}

static void run(const char *path, unsigned hold_s)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) { printf("  SKIP fbdev: soft backend not compiled in\n0 passed, 0 failed, 1 skipped\n"); exit(0); }
    WGPUEmgpuSurfaceSourceFbdev src = WGPU_EMGPU_SURFACE_SOURCE_FBDEV_INIT;
    src.path = (WGPUStringView){ path, WGPU_STRLEN };
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &src.chain;
    WGPUSurface s = wgpuInstanceCreateSurface(eg_test_instance(), &sd);
    CHECK(s != NULL, "CreateSurface on %s", path);
    if (!s) return;
    WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
    CHECK(wgpuSurfaceGetCapabilities(s, d->adapter, &caps) == WGPUStatus_Success, "GetCapabilities");
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d;
    c.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopyDst;
    c.format = caps.formats[0];            /* the zero-copy format of the mode */
    c.width = s->target.width_px;
    c.height = s->target.height_px;
    wgpuSurfaceConfigure(s, &c);
    printf("  %s: %ux%u %s, %u screen(s), zero copy %s\n", path, (unsigned)c.width, (unsigned)c.height,
           eg_panel_format_name(s->target.format), (unsigned)s->fbdev.screens, s->zero_copy ? "yes" : "no");
    /* Two frames, so a double-buffered device pans to each screen once. */
    for (int frame = 0; frame < 2; frame++) {
        WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
        wgpuSurfaceGetCurrentTexture(s, &st);
        CHECK(st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal, "frame %d status %d",
              frame, (int)st.status);
        if (!st.texture) break;
        write_quadrants(st.texture, c.format, c.width, c.height);
        CHECK(wgpuSurfacePresent(s) == WGPUStatus_Success, "frame %d Present", frame);
        wgpuTextureRelease(st.texture);
    }
    /* What scan-out shows: pixel (w/4, h/4) of the shown screen must be red, (3w/4, 3h/4) white,
     * in the device's own layout (computed here from the RGB565 / 8888 packing). */
    uint32_t bpp = eg_panel_format_bytes(s->target.format);
    uint32_t base = s->fbdev.shown * (uint32_t)s->fbdev.screen_B;
    uint8_t got[4], want[4];
    const uint32_t pts[2][2] = { { c.width / 4, c.height / 4 }, { 3 * c.width / 4, 3 * c.height / 4 } };
    for (int i = 0; i < 2; i++) {
        uint32_t off = base + pts[i][1] * s->target.stride_B + pts[i][0] * bpp;
        pack(c.format, quad_rgb[i ? 3 : 0], want);
        CHECK(read_back(path, off, got, bpp) && memcmp(got, want, bpp) == 0,
              "pixel (%u,%u) of the shown screen", (unsigned)pts[i][0], (unsigned)pts[i][1]);
    }
    printf("FBTEST_DRAWN\n");
    fflush(stdout);
    struct timespec ts = { (time_t)hold_s, 0 };
    nanosleep(&ts, NULL);
    wgpuSurfaceUnconfigure(s);
    wgpuSurfaceRelease(s);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : getenv("EMGPU_FBDEV");
    if (!path) path = "/dev/fb0";
    unsigned hold_s = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
    if (access(path, R_OK | W_OK) != 0) {
        printf("  SKIP fbdev: %s is not present (run it in the VM, see docs/displays.md)\n"
               "0 passed, 0 failed, 1 skipped\n", path);
        return 0;
    }
    run(path, hold_s);
    eg_test_device_release();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
