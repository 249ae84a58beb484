/* Guest side of the VM display test: conformance scenes shown on /dev/fb0 or a KMS output.
 *
 * Runs inside the QEMU guest of tools/vm_display_test.sh (static binary in a busybox initramfs):
 *   vm_display_test fb  /dev/fb0 [tall]    (tall: first make the virtual screen twice as high, so
 *                                           the surface double-buffers by panning)
 *   vm_display_test drm /dev/dri/card0 xrgb8888|rgb565 [WxH]   (WxH: that mode, not the preferred
 *                                           one; a 1234x567 mode must first be refused)
 * Two frames through the public WGPUSurface API. Frame "zc" uses the surface's preferred format
 * at the full screen size (zero copy: rendered in place in the mmap / dumb buffer); frame "cv"
 * uses RGBA8Unorm at 320x240 (rendered into a soft texture and converted by Present). Each frame
 * is cleared by a render pass to its own background color, then six conformance scenes (rendered
 * on the soft backend, read back as RGBA8) are written into it at fixed places with
 * wgpuQueueWriteTexture. After Present the program prints
 *   EGVM_FRAME <tag> <w>x<h> <panel format> bg=RRGGBB name@x,y ...
 * and waits for a line on stdin (the host's "go" after its screendump), so the host captures the
 * picture while it is held. Without a host (stdin at EOF) it holds for a second. Its own checks
 * (statuses, zero copy, no WebGPU errors) end with the usual "N passed, N failed" line; the
 * pixels are judged on the host against tests/ref.
 * Where the screen holds 800x480, a third frame "demo" shows the `make demo` dashboard (the same
 * renderer, examples/demo/demo.c, frame DEMO_VM_FRAME) through an RGBA8 800x480 configuration:
 * rendered by the demo's own passes, copied into the surface texture and converted by Present,
 * as the desktop simulator shows it. Its line names one 800x480 tile, demo_dashboard@0,0
 * (tests/ref/demo_dashboard.png, cross-checked on lavapipe and llvmpipe by tools/vm_demo_ref.sh).
 *
 *   vm_display_test_dyn gbm /dev/dri/card0 xrgb8888|rgb565   (helper gbm; the dynamically linked
 *                                           build, with Mesa in the initramfs)
 * The same frames on the GLES backend presenting natively through GBM: the DRM surface is made
 * first, a GLES adapter is requested with it as compatibleSurface, and everything (scenes,
 * clears, the dashboard) renders on that device (llvmpipe). Both configurations must be native
 * (EGL window surface on a gbm_surface, SuccessOptimal, not zero copy). Each tile carries the
 * scene's GPU tolerance (name@x,y~TOL/PERMILLE, tests/scenes/scene_list.c), which the host applies.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/fb.h>
#include <linux/kd.h>
#endif

#include <emgpu/emgpu.h>

#include "examples/demo/demo.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/surface.h"
#include "tests/harness/harness.h"
#include "tests/harness/test_device.h"
#include "tests/scenes/scene.h"

/* harness.o is linked into every hosted program; this one has its own main and no registry. */
extern const eg_test_entry_t eg_test_list[];
extern const unsigned eg_test_count;
const eg_test_entry_t eg_test_list[1] = {{"vm_display", "none", NULL}};
const unsigned eg_test_count = 0;

static int passed, failed;
static WGPUQueue g_queue;              /* the queue of the device that renders (soft, or GLES) */
static bool g_gbm;                     /* helper gbm: GLES presenting through GBM */

#define CHECK(cond, ...) \
    do { if (cond) passed++; else { failed++; printf("  FAIL %s:%d: ", __FILE__, __LINE__); \
         printf(__VA_ARGS__); printf("\n"); } } while (0)

#define SCENES_PER_FRAME 6
#define CV_W 320u
#define CV_H 240u
/* The dashboard frame shown and compared: 2.5 s into the animation (LED lit, gauges mid-way).
 * tools/vm_demo_ref.sh renders the reference at the same frame. */
#define DEMO_VM_FRAME 75u

typedef struct frame_plan {
    const char *tag;
    bool zero_copy;                        /* preferred format at full size, else RGBA8 320x240 */
    uint8_t bg[3];                         /* clear color: 0 or 255 per channel, exact in RGB565 */
    const char *scenes[SCENES_PER_FRAME];
} frame_plan_t;

/* A spread of the suite: clears/copies, interpolation, blending, depth, stencil, MSAA, RGB565,
 * filtering, texel loads, compute, the UI frame (the demo dashboard's widgets) and a 3D mesh. */
static const frame_plan_t plans[2] = {
    { "zc", true, { 255, 0, 255 },
      { "clear_copy", "tri_list", "blend_alpha", "depth_compare_a", "stencil_ops", "ui" } },
    { "cv", false, { 0, 255, 255 },
      { "msaa", "rgb565", "sampler_filter", "texel_load", "prefix_sum", "mesh3d" } },
};

static void tile_origin(uint32_t i, uint32_t *x, uint32_t *y)
{
    *x = 16u + (i % 3u) * 80u;
    *y = 16u + (i / 3u) * 80u;
}

/* RGBA8 pixels to texel bytes of the surface texture's format (RGB565 rounds to nearest). */
static uint32_t pack_row(WGPUTextureFormat f, const uint8_t *rgba, uint32_t n, uint8_t *out)
{
    for (uint32_t i = 0; i < n; i++, rgba += 4) {
        if (f == WGPUTextureFormat_EmgpuRGB565Unorm) {
            uint32_t v = (rgba[0] * 31u + 127u) / 255u << 11 | (rgba[1] * 63u + 127u) / 255u << 5 |
                         (rgba[2] * 31u + 127u) / 255u;
            out[2 * i] = (uint8_t)v;
            out[2 * i + 1] = (uint8_t)(v >> 8);
            continue;
        }
        bool bgra = f == WGPUTextureFormat_BGRA8Unorm;
        out[4 * i + 0] = bgra ? rgba[2] : rgba[0];
        out[4 * i + 1] = rgba[1];
        out[4 * i + 2] = bgra ? rgba[0] : rgba[2];
        out[4 * i + 3] = rgba[3];
    }
    return f == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
}

static void clear_pass(WGPUDevice d, WGPUTexture t, const uint8_t bg[3])
{
    WGPUTextureView view = wgpuTextureCreateView(t, NULL);
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(d, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = view;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ bg[0] / 255.0, bg[1] / 255.0, bg[2] / 255.0, 1.0 };
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 1;
    rp.colorAttachments = &ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuQueueSubmit(g_queue, 1, &cb);
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(enc);
    wgpuTextureViewRelease(view);
}

/* Renders one scene on the device and writes its image into the surface texture at (x, y). */
static bool put_scene(WGPUDevice d, WGPUTexture t, WGPUTextureFormat f, const char *name,
                      uint32_t x, uint32_t y)
{
    const eg_scene_info_t *info = eg_scene_find(name);
    if (!info) return false;
    uint32_t n = info->full_px;
    static uint8_t rgba[128 * 128 * 4], texels[128 * 128 * 4];
    static eg_scene_t ctx;
    if (n > 128) return false;
    const char *err = eg_scene_run(info, eg_test_instance(), d, n, n, rgba, &ctx);
    if (err) {
        printf("  scene %s: %s\n", name, err);
        return false;
    }
    uint32_t bpp = 0;
    for (uint32_t row = 0; row < n; row++) bpp = pack_row(f, rgba + row * n * 4u, n, texels + row * n * 4u);
    /* pack_row wrote each row at a 4-byte-per-texel pitch; compact for 2-byte texels. */
    if (bpp == 2)
        for (uint32_t row = 1; row < n; row++) memmove(texels + row * n * 2u, texels + row * n * 4u, n * 2u);
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = t;
    dst.origin.x = x;
    dst.origin.y = y;
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = n * bpp;
    layout.rowsPerImage = n;
    WGPUExtent3D size = { n, n, 1 };
    wgpuQueueWriteTexture(g_queue, &dst, texels, (size_t)n * n * bpp, &layout, &size);
    return true;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Blocks until the host has captured the screen ("go" on stdin), or a second without a host. */
static void hold(void)
{
    char line[64];
    if (fgets(line, sizeof line, stdin)) return;
    struct timespec ts = { 1, 0 };
    nanosleep(&ts, NULL);
}

static void show_frame(WGPUDevice d, WGPUSurface s, const WGPUSurfaceCapabilities *caps,
                       const frame_plan_t *p)
{
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d;
    c.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopyDst;
    c.format = p->zero_copy ? caps->formats[0] : WGPUTextureFormat_RGBA8Unorm;
    c.width = p->zero_copy ? s->target.width_px : CV_W;
    c.height = p->zero_copy ? s->target.height_px : CV_H;
    wgpuSurfaceConfigure(s, &c);
    bool zc = p->zero_copy && !g_gbm;      /* GBM: native, never zero copy */
    CHECK(s->zero_copy == zc, "frame %s: zero copy %d, expected %d", p->tag, (int)s->zero_copy, (int)zc);
    CHECK(s->native == g_gbm, "frame %s: native %d, expected %d", p->tag, (int)s->native, (int)g_gbm);
    /* GBM: the first frame of a configuration takes the CRTC with SETCRTC; three more frames
     * before the captured one make it a page flip after the gbm_surface's buffers have cycled
     * (framebuffer cache hits, buffers released after their flip). */
    for (uint32_t k = 0; g_gbm && k < 3; k++) {
        static const uint8_t pre[3][3] = { { 0, 0, 0 }, { 255, 255, 255 }, { 255, 255, 0 } };
        WGPUSurfaceTexture pt = WGPU_SURFACE_TEXTURE_INIT;
        wgpuSurfaceGetCurrentTexture(s, &pt);
        CHECK(pt.texture != NULL, "frame %s: extra frame %u: status %d", p->tag, (unsigned)k, (int)pt.status);
        if (!pt.texture) break;
        clear_pass(d, pt.texture, pre[k]);
        CHECK(wgpuSurfacePresent(s) == WGPUStatus_Success, "frame %s: extra frame %u: Present", p->tag, (unsigned)k);
        wgpuTextureRelease(pt.texture);
    }
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    WGPUSurfaceGetCurrentTextureStatus want = zc || g_gbm
        ? WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal
        : WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal;
    CHECK(st.status == want, "frame %s: GetCurrentTexture status %d, expected %d", p->tag,
          (int)st.status, (int)want);
    if (!st.texture) return;
    clear_pass(d, st.texture, p->bg);
    char line[512];
    int len = snprintf(line, sizeof line, "EGVM_FRAME %s %ux%u %s bg=%02x%02x%02x", p->tag,
                       (unsigned)c.width, (unsigned)c.height, eg_panel_format_name(s->target.format),
                       p->bg[0], p->bg[1], p->bg[2]);
    /* GBM: the mode outside a smaller frame is cleared to black (gl_surface_window.c) */
    if (g_gbm && (c.width < s->target.width_px || c.height < s->target.height_px) && len > 0)
        len += snprintf(line + len, sizeof line - (size_t)len, " rest=000000");
    for (uint32_t i = 0; i < SCENES_PER_FRAME; i++) {
        uint32_t x, y;
        tile_origin(i, &x, &y);
        bool ok = put_scene(d, st.texture, c.format, p->scenes[i], x, y);
        CHECK(ok, "frame %s: scene %s", p->tag, p->scenes[i]);
        if (ok && len > 0 && (size_t)len < sizeof line)
            len += snprintf(line + len, sizeof line - (size_t)len, " %s@%u,%u", p->scenes[i],
                            (unsigned)x, (unsigned)y);
        const eg_scene_info_t *si = eg_scene_find(p->scenes[i]);
        if (ok && g_gbm && si && len > 0 && (size_t)len < sizeof line)   /* llvmpipe: the GPU tolerance */
            len += snprintf(line + len, sizeof line - (size_t)len, "~%u/%u", (unsigned)si->gpu_tol,
                            (unsigned)si->gpu_bad_permille);
    }
    CHECK(wgpuSurfacePresent(s) == WGPUStatus_Success, "frame %s: Present", p->tag);
    wgpuTextureRelease(st.texture);
    CHECK(eg_test_err.count == 0, "frame %s: %u WebGPU error(s), last: %s", p->tag,
          (unsigned)eg_test_err.count, eg_test_err.message);
    eg_test_errors_reset();
    printf("%s\n", line);
    fflush(stdout);
    hold();
}

/* The dashboard through the path the simulator uses: the demo renders into its RGBA8 target, the
 * target is copied into the surface texture (RGBA8 800x480, the top-left of the screen) and
 * Present converts to the screen's format. */
static void show_demo(WGPUDevice d, WGPUSurface s)
{
    if (s->target.width_px < DEMO_W_PX || s->target.height_px < DEMO_H_PX) {
        printf("  dashboard: the %ux%u screen is smaller than %ux%u, not shown\n",
               (unsigned)s->target.width_px, (unsigned)s->target.height_px, DEMO_W_PX, DEMO_H_PX);
        return;
    }
    static demo_t demo;
    memset(&demo, 0, sizeof demo);
    double t0 = now_ms();
    bool ok = demo_setup(&demo, eg_test_instance(), d) != 0;
    double t1 = now_ms();
    CHECK(ok, "dashboard: demo_setup");
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d;
    c.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopyDst;
    c.format = WGPUTextureFormat_RGBA8Unorm;
    c.width = DEMO_W_PX;
    c.height = DEMO_H_PX;
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    CHECK(st.texture != NULL, "dashboard: GetCurrentTexture status %d", (int)st.status);
    if (ok && st.texture) {
        demo_render_frame(&demo, DEMO_VM_FRAME, 0);
        WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(d, NULL);
        WGPUTexelCopyTextureInfo from = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
        WGPUTexelCopyTextureInfo to = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
        from.texture = demo.target;
        to.texture = st.texture;
        WGPUExtent3D size = { DEMO_W_PX, DEMO_H_PX, 1 };
        wgpuCommandEncoderCopyTextureToTexture(enc, &from, &to, &size);
        WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
        wgpuQueueSubmit(g_queue, 1, &cb);
        wgpuCommandBufferRelease(cb);
        wgpuCommandEncoderRelease(enc);
        CHECK(wgpuSurfacePresent(s) == WGPUStatus_Success, "dashboard: Present");
        printf("  dashboard: setup %.0f ms, frame %u rendered and presented in %.0f ms\n", t1 - t0,
               DEMO_VM_FRAME, now_ms() - t1);
    }
    if (st.texture) wgpuTextureRelease(st.texture);
    demo_teardown(&demo);
    CHECK(eg_test_err.count == 0, "dashboard: %u WebGPU error(s), last: %s",
          (unsigned)eg_test_err.count, eg_test_err.message);
    eg_test_errors_reset();
    if (!ok || !st.texture) return;
    /* The tile covers the whole configured area, so the host's clear-color check has nothing
     * left to check; bg is a placeholder. */
    /* GLES: the tolerance tools/vm_demo_ref.sh uses for the 2D layer (INTERP, 4/255, 2%),
     * which also covers the 3D view (llvmpipe differs from soft by at most 2/255 there). */
    printf("EGVM_FRAME demo %ux%u %s bg=000000 demo_dashboard@0,0%s\n", DEMO_W_PX, DEMO_H_PX,
           eg_panel_format_name(s->target.format), g_gbm ? "~4/20 rest=000000" : "");
    fflush(stdout);
    hold();
}

/* Test setup, not emgpu: asks the fbdev driver for a virtual screen of two screens' height, as a
 * board's init script would (fbset -vyres). */
static void make_tall(const char *path)
{
#if defined(__linux__)
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct fb_var_screeninfo v;
    if (fd >= 0 && ioctl(fd, FBIOGET_VSCREENINFO, &v) == 0) {
        v.yres_virtual = 2 * v.yres;
        v.yoffset = 0;
        v.activate = FB_ACTIVATE_NOW;
        if (ioctl(fd, FBIOPUT_VSCREENINFO, &v) != 0) printf("  FBIOPUT_VSCREENINFO (tall) failed\n");
    }
    if (fd >= 0) close(fd);
#else
    (void)path;
#endif
}

static WGPUSurface make_surface(const char *kind, const char *path, const char *format,
                                uint32_t width_px, uint32_t height_px)
{
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    WGPUEmgpuSurfaceSourceFbdev fb = WGPU_EMGPU_SURFACE_SOURCE_FBDEV_INIT;
    WGPUEmgpuSurfaceSourceDrm drm = WGPU_EMGPU_SURFACE_SOURCE_DRM_INIT;
    if (strcmp(kind, "drm") == 0) {
        drm.path = (WGPUStringView){ path, WGPU_STRLEN };
        drm.format = format && strcmp(format, "rgb565") == 0 ? WGPUEmgpuPanelFormat_RGB565
                                                             : WGPUEmgpuPanelFormat_XRGB8888;
        drm.width = width_px;
        drm.height = height_px;
        sd.nextInChain = &drm.chain;
    } else {
        if (format && strcmp(format, "tall") == 0) make_tall(path);
        fb.path = (WGPUStringView){ path, WGPU_STRLEN };
        sd.nextInChain = &fb.chain;
    }
    return wgpuInstanceCreateSurface(eg_test_instance(), &sd);
}

/* ---- helper gbm: a GLES device bound to the DRM surface (compatibleSurface) ---- */

static void gbm_on_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1, void *u2)
{
    (void)device; (void)u1; (void)u2;
    if (eg_test_err.count++ > 0) return;
    eg_test_err.type = type;
    size_t n = message.length == WGPU_STRLEN ? strlen(message.data) : message.length;
    if (n >= sizeof eg_test_err.message) n = sizeof eg_test_err.message - 1;
    memcpy(eg_test_err.message, message.data, n);
    eg_test_err.message[n] = '\0';
}

static void gbm_on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                           void *u1, void *u2)
{
    (void)message; (void)u2;
    *(WGPUAdapter *)u1 = status == WGPURequestAdapterStatus_Success ? adapter : NULL;
}

static void gbm_on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message,
                          void *u1, void *u2)
{
    (void)message; (void)u2;
    *(WGPUDevice *)u1 = status == WGPURequestDeviceStatus_Success ? device : NULL;
}

static WGPUDevice gles_device_for(WGPUSurface s, WGPUAdapter *adapter)
{
    WGPURequestAdapterOptions opt = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    opt.backendType = WGPUBackendType_OpenGLES;
    opt.compatibleSurface = s;
    WGPURequestAdapterCallbackInfo aci = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    aci.mode = WGPUCallbackMode_AllowSpontaneous;
    aci.callback = gbm_on_adapter;
    aci.userdata1 = adapter;
    wgpuInstanceRequestAdapter(eg_test_instance(), &opt, aci);
    if (!*adapter) return NULL;
    WGPUDevice d = NULL;
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.uncapturedErrorCallbackInfo.callback = gbm_on_error;
    WGPURequestDeviceCallbackInfo dci = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    dci.mode = WGPUCallbackMode_AllowSpontaneous;
    dci.callback = gbm_on_device;
    dci.userdata1 = &d;
    wgpuAdapterRequestDevice(*adapter, &dd, dci);
    return d;
}

static void print_output(WGPUSurface s, const char *path)
{
    if (s->kind == EG_SURFACE_DRM)
        printf("  drm %s: connector %u crtc %u %ux%u %s stride %u, %u buffers, %s\n", path,
               (unsigned)s->drm.connector_id, (unsigned)s->drm.crtc_id,
               (unsigned)s->drm.width_px, (unsigned)s->drm.height_px,
               eg_panel_format_name(s->target.format), (unsigned)s->drm.stride_B,
               (unsigned)s->drm.buffers, s->drm.page_flip ? "page flip" : "mode set");
    else
        printf("  fbdev %s: %ux%u %s stride %u, %u screen(s)\n", path,
               (unsigned)s->target.width_px, (unsigned)s->target.height_px,
               eg_panel_format_name(s->target.format), (unsigned)s->target.stride_B,
               (unsigned)s->fbdev.screens);
}

static void run_surface(WGPUDevice d, WGPUSurface s)
{
    WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
    CHECK(wgpuSurfaceGetCapabilities(s, d->adapter, &caps) == WGPUStatus_Success, "GetCapabilities");
    /* GBM: the EGL path's table (BGRA8Unorm first); else the panel's zero-copy format. */
    WGPUTextureFormat first = g_gbm ? WGPUTextureFormat_BGRA8Unorm : eg_panel_format_texture(s->target.format);
    CHECK(caps.formatCount > 0 && caps.formats[0] == first, "formats[0] is %s for %s",
          g_gbm ? "BGRA8Unorm (EGL)" : "the zero-copy format", eg_panel_format_name(s->target.format));
    if (g_gbm) {   /* no scaler: a configuration larger than the mode is refused by the GBM path */
        WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
        c.device = d;
        c.usage = WGPUTextureUsage_RenderAttachment;
        c.format = WGPUTextureFormat_BGRA8Unorm;
        c.width = s->target.width_px + 1;
        c.height = s->target.height_px;
        wgpuSurfaceConfigure(s, &c);
        CHECK(eg_test_err.count == 1 && eg_device_last_error_code(d) == EG_E_SURFACE_SIZE &&
              s->state == EG_SURFACE_UNCONFIGURED, "a %ux%u configuration: %u error(s), code %u, state %d "
              "(expected SURFACE_SIZE, unconfigured)", (unsigned)c.width, (unsigned)c.height,
              eg_test_err.count, (unsigned)eg_device_last_error_code(d), (int)s->state);
        eg_test_errors_reset();
    }
    for (int i = 0; i < 2; i++) show_frame(d, s, &caps, &plans[i]);
    show_demo(d, s);
    wgpuSurfaceUnconfigure(s);
}

/* helper gbm: after the GLES device's Unconfigure (which gives the CRTC back to the dumb buffer
 * and removes its framebuffers), the soft device presents to the same surface through the dumb
 * buffers and page flips again: frame "zc" once more, exact (the host compares it without
 * tolerance). Were the CRTC still GBM's, or turned off, the capture would not show it. */
static void dumb_again(WGPUDevice soft, WGPUSurface s)
{
    g_gbm = false;
    g_queue = eg_test_queue();
    WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
    CHECK(wgpuSurfaceGetCapabilities(s, soft->adapter, &caps) == WGPUStatus_Success, "GetCapabilities (soft)");
    show_frame(soft, s, &caps, &plans[0]);
    wgpuSurfaceUnconfigure(s);
    g_gbm = true;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("usage: %s fb DEVICE [tall] | drm DEVICE [xrgb8888|rgb565] | gbm DEVICE [xrgb8888|rgb565]\n",
               argv[0]);
        return 2;
    }
    g_gbm = strcmp(argv[1], "gbm") == 0;
    WGPUDevice d = eg_test_device("soft"), soft = d;
    if (!d) { printf("  SKIP vm_display: soft backend not compiled in\n0 passed, 0 failed, 1 skipped\n"); return 0; }
    g_queue = eg_test_queue();
#if defined(__linux__)
    /* The console would draw its cursor over the picture: graphics mode while we run. */
    int tty = open("/dev/tty0", O_RDWR | O_CLOEXEC);
    if (tty >= 0) (void)ioctl(tty, KDSETMODE, KD_GRAPHICS);
#endif
    unsigned w = 0, h = 0;
    if (argc > 4 && sscanf(argv[4], "%ux%u", &w, &h) == 2) {
        /* No connector offers this mode: CreateSurface must refuse it and leave the card usable. */
        WGPUSurface bad = make_surface(argv[1], argv[2], argv[3], 1234, 567);
        CHECK(bad == NULL, "a 1234x567 mode was accepted");
        if (bad) wgpuSurfaceRelease(bad);
    }
    WGPUSurface s = make_surface(g_gbm ? "drm" : argv[1], argv[2], argc > 3 ? argv[3] : NULL, w, h);
    CHECK(s != NULL, "CreateSurface %s %s", argv[1], argv[2]);
    CHECK(!s || !w || (s->target.width_px == w && s->target.height_px == h),
          "the surface is %ux%u, %ux%u was asked for", s ? (unsigned)s->target.width_px : 0u,
          s ? (unsigned)s->target.height_px : 0u, w, h);
    WGPUAdapter gles_adapter = NULL;
    WGPUDevice gles = NULL;
    WGPUQueue gles_queue = NULL;
    if (s && g_gbm) {
        double t0 = now_ms();
        gles = gles_device_for(s, &gles_adapter);
        CHECK(gles != NULL, "a GLES device for the DRM surface (compatibleSurface)");
        if (gles) {
            printf("  gles: %s, %s (adapter and device in %.0f ms)\n", gles->info.device,
                   gles->info.description, now_ms() - t0);
            d = gles;
            g_queue = gles_queue = wgpuDeviceGetQueue(gles);
        }
    }
    if (s) print_output(s, argv[2]);
    if (s && (!g_gbm || gles)) run_surface(d, s);
    if (s && gles) dumb_again(soft, s);
    /* The GBM adapter's devices use the surface's card fd: they go first (docs/displays.md). */
    if (gles) {
        wgpuQueueRelease(gles_queue);
        wgpuDeviceRelease(gles);
    }
    if (gles_adapter) wgpuAdapterRelease(gles_adapter);
    if (s) wgpuSurfaceRelease(s);
#if defined(__linux__)
    if (tty >= 0) { (void)ioctl(tty, KDSETMODE, KD_TEXT); close(tty); }
#endif
    /* Everything released but the soft test device (adapter, device, queue): a leak (the GLES
     * device, a frame texture, the surface) would otherwise only print a line. */
    uint32_t left = 0;
    for (uint32_t k = EG_KIND_BUFFER; k < EG_KIND_COUNT; k++) left += eg_test_instance()->pools[k].used;
    CHECK(left == 0 && eg_test_instance()->pools[EG_KIND_ADAPTER].used == 1 &&
          eg_test_instance()->pools[EG_KIND_DEVICE].used == 1 && eg_test_instance()->pools[EG_KIND_QUEUE].used == 1,
          "objects left before the test device's release: %u adapter(s), %u device(s), %u queue(s), %u other",
          (unsigned)eg_test_instance()->pools[EG_KIND_ADAPTER].used,
          (unsigned)eg_test_instance()->pools[EG_KIND_DEVICE].used,
          (unsigned)eg_test_instance()->pools[EG_KIND_QUEUE].used, (unsigned)left);
    eg_test_device_release();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
