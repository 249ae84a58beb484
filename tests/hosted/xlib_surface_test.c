/* Xlib window surface test: frames rendered on soft, presented into a real X11 window (Xvfb), read back with XGetImage.
 *
 * Without DISPLAY the program re-executes itself under `xvfb-run -a` with a 24-bit screen; it is
 * skipped by name only when xvfb-run or libX11 is missing (or the build had no X11 headers).
 * libX11 is loaded with dlopen here too, so that neither the runtime nor the test links it.
 * Expected pixels are computed in this file from the clear color and the quad bytes: unorm8 of
 * c is round(c * 255) (WebGPU "conversion from float to unorm"), and the window's 0xRRGGBB pixel
 * is those bytes, independent of the texture's byte order.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <emgpu/emgpu.h>

#include "kernel/api/device.h"
#include "kernel/api/surface.h"
#include "tests/harness/harness.h"
#include "tests/harness/test_device.h"

/* harness.o is linked into every hosted program; this one has its own main and no registry. */
extern const eg_test_entry_t eg_test_list[];
extern const unsigned eg_test_count;
const eg_test_entry_t eg_test_list[1] = {{"xlib", "none", NULL}};
const unsigned eg_test_count = 0;

static int passed, failed;

#define CHECK(cond, ...) \
    do { if (cond) passed++; else { failed++; printf("  FAIL %s:%d: ", __FILE__, __LINE__); \
         printf(__VA_ARGS__); printf("\n"); } } while (0)

static void skip(const char *why)
{
    printf("  SKIP xlib_surface: %s\n0 passed, 0 failed, 1 skipped\n", why);
    exit(0);
}

#if defined(__has_include)
#if __has_include(<X11/Xlib.h>)
#define HAVE_XLIB_H 1
#endif
#endif

#if !defined(HAVE_XLIB_H)
int main(void)
{
    skip("built without <X11/Xlib.h> (libx11-dev)");
    return 0;
}
#else
#include <X11/Xlib.h>
#include <X11/Xutil.h>

static struct {
    Display *(*open_display)(const char *);
    int (*close_display)(Display *);
    Window (*create_simple_window)(Display *, Window, int, int, unsigned, unsigned, unsigned,
                                   unsigned long, unsigned long);
    int (*map_window)(Display *, Window);
    int (*resize_window)(Display *, Window, unsigned, unsigned);
    int (*destroy_window)(Display *, Window);
    int (*sync)(Display *, Bool);
    XImage *(*get_image)(Display *, Drawable, int, int, unsigned, unsigned, unsigned long, int);
} x;

static void load_x11(void)
{
    void *lib = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!lib) skip("libX11.so.6 cannot be loaded (package libx11-6)");
#define SYM(f, n) do { void *p_ = dlsym(lib, n); if (!p_) skip("libX11 lacks " n); memcpy(&x.f, &p_, sizeof p_); } while (0)
    SYM(open_display, "XOpenDisplay");
    SYM(close_display, "XCloseDisplay");
    SYM(create_simple_window, "XCreateSimpleWindow");
    SYM(map_window, "XMapWindow");
    SYM(resize_window, "XResizeWindow");
    SYM(destroy_window, "XDestroyWindow");
    SYM(sync, "XSync");
    SYM(get_image, "XGetImage");
#undef SYM
}

/* Without a display: run again under xvfb-run with a 24-bit TrueColor screen, asked for
 * explicitly (an 8-bit screen is refused by the surface, and defaults vary between versions). */
static void ensure_display(char **argv)
{
    if (getenv("DISPLAY")) return;
    if (getenv("EMGPU_XLIB_REEXEC")) {
        printf("  FAIL: re-executed under xvfb-run but DISPLAY is still unset\n0 passed, 1 failed\n");
        exit(1);
    }
    if (system("command -v xvfb-run >/dev/null 2>&1") != 0)
        skip("DISPLAY is unset and xvfb-run is missing (packages xvfb, xauth)");
    setenv("EMGPU_XLIB_REEXEC", "1", 1);
    fflush(stdout);
    char *args[] = { "xvfb-run", "-a", "-s", "-screen 0 320x240x24", argv[0], NULL };
    execvp("xvfb-run", args);
    skip("execvp(xvfb-run) failed");
}

enum { WIN_W = 48, WIN_H = 32, QUAD_X = 5, QUAD_Y = 6, QUAD_W = 10, QUAD_H = 7 };

/* Each frame clears to its own color, so a Present that shows nothing leaves the previous frame
 * in the window and fails the comparison. rgb: unorm8 of the clear color, rounded by hand. */
static const struct { double clear[3]; uint32_t rgb; } shades[3] = {
    { { 0.25, 0.5, 0.75 }, 64u << 16 | 128u << 8 | 191u },  /* 63.75, 127.5, 191.25 */
    { { 1.0, 0.0, 0.5 }, 255u << 16 | 0u << 8 | 128u },     /* 255, 0, 127.5 */
    { { 0.0, 1.0, 0.25 }, 0u << 16 | 255u << 8 | 64u },     /* 0, 255, 63.75 */
};

/* 0xRRGGBB of each pixel as the window should show it after frame `shade`. */
static uint32_t expect_rgb(int shade, uint32_t px, uint32_t py)
{
    uint32_t clear = shades[shade].rgb;
    bool in_quad = px >= QUAD_X && px < QUAD_X + QUAD_W && py >= QUAD_Y && py < QUAD_Y + QUAD_H;
    return in_quad ? (0xF0u << 16 | 0x20u << 8 | 0x08u) : clear;
}

static void clear_pass(WGPUDevice d, WGPUTexture t, int shade)
{
    WGPUTextureView view = wgpuTextureCreateView(t, NULL);
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(d, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = view;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ shades[shade].clear[0], shades[shade].clear[1],
                                 shades[shade].clear[2], 1.0 };
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 1;
    rp.colorAttachments = &ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(enc);
    wgpuTextureViewRelease(view);
}

/* The quad: texel bytes written in the texture's own order (BGRA8 or RGBA8). */
static void write_quad(WGPUTexture t, WGPUTextureFormat f)
{
    uint8_t data[QUAD_W * QUAD_H * 4];
    bool bgra = f == WGPUTextureFormat_BGRA8Unorm;
    for (int i = 0; i < QUAD_W * QUAD_H; i++) {
        data[i * 4 + 0] = bgra ? 0x08 : 0xF0;
        data[i * 4 + 1] = 0x20;
        data[i * 4 + 2] = bgra ? 0xF0 : 0x08;
        data[i * 4 + 3] = 0xFF;
    }
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = t;
    dst.origin = (WGPUOrigin3D){ QUAD_X, QUAD_Y, 0 };
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = QUAD_W * 4;
    layout.rowsPerImage = QUAD_H;
    WGPUExtent3D size = { QUAD_W, QUAD_H, 1 };
    wgpuQueueWriteTexture(eg_test_queue(), &dst, data, sizeof data, &layout, &size);
}

/* Compares the window's top-left w x h with expect_rgb; returns the number of wrong pixels. */
static uint32_t compare_window(Display *dpy, Window win, int shade, uint32_t w, uint32_t h)
{
    XImage *img = x.get_image(dpy, win, 0, 0, w, h, AllPlanes, ZPixmap);
    if (!img) return w * h;
    uint32_t bad = 0;
    for (uint32_t py = 0; py < h; py++)
        for (uint32_t px = 0; px < w; px++) {
            uint32_t got = (uint32_t)img->f.get_pixel(img, (int)px, (int)py) & 0xFFFFFFu;
            if (got != expect_rgb(shade, px, py) && bad++ == 0)
                printf("  first mismatch at (%u,%u): window 0x%06x, expected 0x%06x\n",
                       (unsigned)px, (unsigned)py, (unsigned)got, (unsigned)expect_rgb(shade, px, py));
        }
    img->f.destroy_image(img);
    return bad;
}

/* One frame: clear + quad, present, read the window back. */
static void frame(WGPUDevice d, WGPUSurface s, Display *dpy, Window win, int shade,
                  WGPUTextureFormat f, uint32_t w, uint32_t h,
                  WGPUSurfaceGetCurrentTextureStatus want)
{
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d;
    c.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopyDst;
    c.format = f;
    c.width = w;
    c.height = h;
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    CHECK(st.status == want, "%ux%u format 0x%x: status %d, expected %d", (unsigned)w,
          (unsigned)h, (unsigned)f, (int)st.status, (int)want);
    if (!st.texture) return;
    clear_pass(d, st.texture, shade);
    write_quad(st.texture, f);
    CHECK(wgpuSurfacePresent(s) == WGPUStatus_Success, "Present");
    wgpuTextureRelease(st.texture);
    uint32_t bad = compare_window(dpy, win, shade, w, h);
    CHECK(bad == 0, "%ux%u format 0x%x: %u of %u window pixels differ", (unsigned)w, (unsigned)h,
          (unsigned)f, (unsigned)bad, (unsigned)(w * h));
}

static WGPUSurface make_surface(Display *dpy, Window win)
{
    WGPUSurfaceSourceXlibWindow src = WGPU_SURFACE_SOURCE_XLIB_WINDOW_INIT;
    src.display = dpy;
    src.window = win;
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &src.chain;
    return wgpuInstanceCreateSurface(eg_test_instance(), &sd);
}

static void run(Display *dpy)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) skip("soft backend not compiled in");
    int scr = DefaultScreen(dpy);
    Window win = x.create_simple_window(dpy, RootWindow(dpy, scr), 0, 0, WIN_W, WIN_H, 0, 0, 0);
    x.map_window(dpy, win);
    x.sync(dpy, False);

    /* Bad sources: a clear NULL, no crash, no exit from Xlib's default error handler. */
    CHECK(make_surface(dpy, 0) == NULL, "window 0 must be refused");
    CHECK(make_surface(NULL, win) == NULL, "display NULL must be refused");
    CHECK(make_surface(dpy, win + 0x100000) == NULL, "a window id that does not exist must be refused");

    WGPUSurface s = make_surface(dpy, win);
    CHECK(s != NULL, "CreateSurface on the window");
    if (!s) goto out;
    WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
    CHECK(wgpuSurfaceGetCapabilities(s, d->adapter, &caps) == WGPUStatus_Success &&
          caps.formatCount > 0 && caps.formats[0] == WGPUTextureFormat_BGRA8Unorm,
          "capabilities of a 24-bit TrueColor window: BGRA8Unorm first");

    /* Full window in the native format: zero copy, rendered straight into the window's image. */
    frame(d, s, dpy, win, 0, WGPUTextureFormat_BGRA8Unorm, WIN_W, WIN_H,
          WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal);
    CHECK(s->zero_copy, "BGRA8Unorm at the window width is zero copy");
    /* Smaller, RGBA8: converted on Present, shown top-left; Suboptimal as BGRA8 would skip it. */
    frame(d, s, dpy, win, 1, WGPUTextureFormat_RGBA8Unorm, 30, 20,
          WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal);

    /* Resize: the configuration is outdated until the application configures again. */
    x.resize_window(dpy, win, WIN_W + 16, WIN_H + 8);
    x.sync(dpy, False);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    CHECK(st.status == WGPUSurfaceGetCurrentTextureStatus_Outdated && st.texture == NULL,
          "after XResizeWindow: status %d, expected Outdated (%d)", (int)st.status,
          (int)WGPUSurfaceGetCurrentTextureStatus_Outdated);
    frame(d, s, dpy, win, 2, WGPUTextureFormat_BGRA8Unorm, WIN_W + 16, WIN_H + 8,
          WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal);
    CHECK(s->target.width_px == WIN_W + 16 && s->target.height_px == WIN_H + 8,
          "Configure took the new window size (%ux%u)", (unsigned)s->target.width_px,
          (unsigned)s->target.height_px);
    wgpuSurfaceUnconfigure(s);
    wgpuSurfaceRelease(s);
out:
    x.destroy_window(dpy, win);
    x.sync(dpy, False);
    eg_test_device_release();
}

int main(int argc, char **argv)
{
    (void)argc;
    load_x11();
    ensure_display(argv);
    Display *dpy = x.open_display(NULL);
    if (!dpy) {
        printf("  FAIL: XOpenDisplay(\"%s\") failed\n0 passed, 1 failed\n", getenv("DISPLAY"));
        return 1;
    }
    run(dpy);
    x.close_display(dpy);
    printf("%d passed, %d failed, 0 skipped\n", passed, failed);
    return failed ? 1 : 0;
}
#endif
