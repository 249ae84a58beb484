/* Swapchain test: frames drawn on soft, Vulkan (native swapchain) and GLES (by copy, and natively through an EGL window surface) into real X11 windows (Xvfb), plus the simulator window, read back with XGetImage.
 *
 * Without DISPLAY the program re-executes itself under `xvfb-run -a -s "-screen 0 640x480x24"`.
 * A backend whose driver is missing is reported as skipped by name. Per backend: capabilities,
 * two frames (a clear plus a drawn quad, two triangles), GetCurrentTexture twice (the second is
 * an Error), Present without a current texture (Error), a resize (Outdated, then a frame at the
 * new size). Every window pixel is compared with values computed here: unorm8 of a color c is
 * round(c * 255) and RGB565 channels are round(c * 31 or 63) expanded back as round(q * 255 / max)
 * (WebGPU "conversion from float to unorm"); the quad covers pixels [W/4, 5W/8) x [H/4, 5H/8)
 * (its NDC corners -0.5..0.25 and 0.5..-0.25 fall on pixel edges, so coverage is exact).
 * The shaders are quad.vert/quad.frag below, compiled with glslangValidator -V and
 * tools/spv_reorder.py, embedded as words (the test's input, not its expectation).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <emgpu/emgpu.h>

#include "config/emgpu_config.h"
#include "kernel/api/adapter.h"
#include "kernel/api/device.h"
#include "kernel/api/surface.h"
#include "tests/harness/harness.h"
#include "tests/harness/test_device.h"

/* The simulator (examples/sim) is not part of libemgpu: compiled into this program here. */
#include "examples/sim/sim.c"

/* harness.o is linked into every hosted program; this one has its own main and no registry. */
extern const eg_test_entry_t eg_test_list[];
extern const unsigned eg_test_count;
const eg_test_entry_t eg_test_list[1] = {{"swapchain", "none", NULL}};
const unsigned eg_test_count = 0;

#if EMGPU_HAL_VULKAN
uint32_t eg_vk_validation_messages(void);   /* hal/vulkan: validation messages seen so far */
#endif

static int passed, failed, skipped;

#define CHECK(cond, ...) \
    do { if (cond) passed++; else { failed++; printf("  FAIL %s:%d: ", __FILE__, __LINE__); \
         printf(__VA_ARGS__); printf("\n"); } } while (0)

static void skip_all(const char *why)
{
    printf("  SKIP swapchain: %s\n0 passed, 0 failed, 1 skipped\n", why);
    exit(0);
}

#if !defined(SIM_HAVE_XLIB)
int main(void)
{
    skip_all("built without <X11/Xlib.h> (libx11-dev)");
    return 0;
}
#else

/* quad.vert:
 *   const vec2 pos[6] = vec2[6](vec2(-0.5, 0.5), vec2(0.25, 0.5), vec2(-0.5, -0.25),
 *                               vec2(0.25, 0.5), vec2(0.25, -0.25), vec2(-0.5, -0.25));
 *   void main() { gl_Position = vec4(pos[gl_VertexIndex], 0.0, 1.0); }
 * quad.frag:
 *   layout(location = 0) out vec4 color;
 *   void main() { color = vec4(1.0, 0.2, 0.6, 1.0); } */
static const uint32_t spv_quad_vert[] = {
    0x07230203, 0x00010300, 0x0008000b, 0x0000002d, 0x00000000, 0x00020011, 0x00000001, 0x0006000b,
    0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001,
    0x0007000f, 0x00000000, 0x00000004, 0x6e69616d, 0x00000000, 0x0000000d, 0x0000001d, 0x00030003,
    0x00000002, 0x000001c2, 0x00040005, 0x00000004, 0x6e69616d, 0x00000000, 0x00060005, 0x0000000b,
    0x505f6c67, 0x65567265, 0x78657472, 0x00000000, 0x00060006, 0x0000000b, 0x00000000, 0x505f6c67,
    0x7469736f, 0x006e6f69, 0x00070006, 0x0000000b, 0x00000001, 0x505f6c67, 0x746e696f, 0x657a6953,
    0x00000000, 0x00070006, 0x0000000b, 0x00000002, 0x435f6c67, 0x4470696c, 0x61747369, 0x0065636e,
    0x00070006, 0x0000000b, 0x00000003, 0x435f6c67, 0x446c6c75, 0x61747369, 0x0065636e, 0x00030005,
    0x0000000d, 0x00000000, 0x00060005, 0x0000001d, 0x565f6c67, 0x65747265, 0x646e4978, 0x00007865,
    0x00050005, 0x00000020, 0x65646e69, 0x6c626178, 0x00000065, 0x00050048, 0x0000000b, 0x00000000,
    0x0000000b, 0x00000000, 0x00050048, 0x0000000b, 0x00000001, 0x0000000b, 0x00000001, 0x00050048,
    0x0000000b, 0x00000002, 0x0000000b, 0x00000003, 0x00050048, 0x0000000b, 0x00000003, 0x0000000b,
    0x00000004, 0x00030047, 0x0000000b, 0x00000002, 0x00040047, 0x0000001d, 0x0000000b, 0x0000002a,
    0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002, 0x00030016, 0x00000006, 0x00000020,
    0x00040017, 0x00000007, 0x00000006, 0x00000004, 0x00040015, 0x00000008, 0x00000020, 0x00000000,
    0x0004002b, 0x00000008, 0x00000009, 0x00000001, 0x0004001c, 0x0000000a, 0x00000006, 0x00000009,
    0x0006001e, 0x0000000b, 0x00000007, 0x00000006, 0x0000000a, 0x0000000a, 0x0003002e, 0x0000000b,
    0x0000002b, 0x00040020, 0x0000000c, 0x00000003, 0x0000000b, 0x0005003b, 0x0000000c, 0x0000000d,
    0x00000003, 0x0000002b, 0x00040015, 0x0000000e, 0x00000020, 0x00000001, 0x0004002b, 0x0000000e,
    0x0000000f, 0x00000000, 0x00040017, 0x00000010, 0x00000006, 0x00000002, 0x0004002b, 0x00000008,
    0x00000011, 0x00000006, 0x0004001c, 0x00000012, 0x00000010, 0x00000011, 0x0003002e, 0x00000012,
    0x0000002c, 0x0004002b, 0x00000006, 0x00000013, 0xbf000000, 0x0004002b, 0x00000006, 0x00000014,
    0x3f000000, 0x0005002c, 0x00000010, 0x00000015, 0x00000013, 0x00000014, 0x0004002b, 0x00000006,
    0x00000016, 0x3e800000, 0x0005002c, 0x00000010, 0x00000017, 0x00000016, 0x00000014, 0x0004002b,
    0x00000006, 0x00000018, 0xbe800000, 0x0005002c, 0x00000010, 0x00000019, 0x00000013, 0x00000018,
    0x0005002c, 0x00000010, 0x0000001a, 0x00000016, 0x00000018, 0x0009002c, 0x00000012, 0x0000001b,
    0x00000015, 0x00000017, 0x00000019, 0x00000017, 0x0000001a, 0x00000019, 0x00040020, 0x0000001c,
    0x00000001, 0x0000000e, 0x0004003b, 0x0000001c, 0x0000001d, 0x00000001, 0x00040020, 0x0000001f,
    0x00000007, 0x00000012, 0x00040020, 0x00000021, 0x00000007, 0x00000010, 0x0004002b, 0x00000006,
    0x00000024, 0x00000000, 0x0004002b, 0x00000006, 0x00000025, 0x3f800000, 0x00040020, 0x00000029,
    0x00000003, 0x00000007, 0x00050036, 0x00000002, 0x00000004, 0x00000000, 0x00000003, 0x000200f8,
    0x00000005, 0x0005003b, 0x0000001f, 0x00000020, 0x00000007, 0x0000002c, 0x0004003d, 0x0000000e,
    0x0000001e, 0x0000001d, 0x0003003e, 0x00000020, 0x0000001b, 0x00050041, 0x00000021, 0x00000022,
    0x00000020, 0x0000001e, 0x0004003d, 0x00000010, 0x00000023, 0x00000022, 0x00050051, 0x00000006,
    0x00000026, 0x00000023, 0x00000000, 0x00050051, 0x00000006, 0x00000027, 0x00000023, 0x00000001,
    0x00070050, 0x00000007, 0x00000028, 0x00000026, 0x00000027, 0x00000024, 0x00000025, 0x00050041,
    0x00000029, 0x0000002a, 0x0000000d, 0x0000000f, 0x0003003e, 0x0000002a, 0x00000028, 0x000100fd,
    0x00010038,
};
static const uint32_t spv_quad_frag[] = {
    0x07230203, 0x00010300, 0x0008000b, 0x0000000f, 0x00000000, 0x00020011, 0x00000001, 0x0006000b,
    0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001,
    0x0006000f, 0x00000004, 0x00000004, 0x6e69616d, 0x00000000, 0x00000009, 0x00030010, 0x00000004,
    0x00000007, 0x00030003, 0x00000002, 0x000001c2, 0x00040005, 0x00000004, 0x6e69616d, 0x00000000,
    0x00040005, 0x00000009, 0x6f6c6f63, 0x00000072, 0x00040047, 0x00000009, 0x0000001e, 0x00000000,
    0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002, 0x00030016, 0x00000006, 0x00000020,
    0x00040017, 0x00000007, 0x00000006, 0x00000004, 0x0003002e, 0x00000007, 0x0000000e, 0x00040020,
    0x00000008, 0x00000003, 0x00000007, 0x0005003b, 0x00000008, 0x00000009, 0x00000003, 0x0000000e,
    0x0004002b, 0x00000006, 0x0000000a, 0x3f800000, 0x0004002b, 0x00000006, 0x0000000b, 0x3e4ccccd,
    0x0004002b, 0x00000006, 0x0000000c, 0x3f19999a, 0x0007002c, 0x00000007, 0x0000000d, 0x0000000a,
    0x0000000b, 0x0000000c, 0x0000000a, 0x00050036, 0x00000002, 0x00000004, 0x00000000, 0x00000003,
    0x000200f8, 0x00000005, 0x0003003e, 0x00000009, 0x0000000d, 0x000100fd, 0x00010038,
};

static const double quad_color[3] = { 1.0, 0.2, 0.6 };
/* One clear color per frame, so a Present that shows nothing fails the comparison. */
static const double clears[4][3] = {
    { 0.0, 0.4, 0.8 }, { 0.6, 0.0, 0.2 }, { 0.2, 1.0, 0.4 }, { 0.8, 0.6, 0.0 },
};

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

static void load_x11_test(void)
{
    void *lib = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!lib) skip_all("libX11.so.6 cannot be loaded (package libx11-6)");
#define SYM(f, n) do { void *p_ = dlsym(lib, n); if (!p_) skip_all("libX11 lacks " n); memcpy(&x.f, &p_, sizeof p_); } while (0)
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

static void ensure_display(char **argv)
{
    if (getenv("DISPLAY")) return;
    if (getenv("EMGPU_SWAPCHAIN_REEXEC")) {
        printf("  FAIL: re-executed under xvfb-run but DISPLAY is still unset\n0 passed, 1 failed\n");
        exit(1);
    }
    if (system("command -v xvfb-run >/dev/null 2>&1") != 0)
        skip_all("DISPLAY is unset and xvfb-run is missing (packages xvfb, xauth)");
    setenv("EMGPU_SWAPCHAIN_REEXEC", "1", 1);
    fflush(stdout);
    char *args[] = { "xvfb-run", "-a", "-s", "-screen 0 640x480x24", argv[0], NULL };
    execvp("xvfb-run", args);
    skip_all("execvp(xvfb-run) failed");
}

/* ---- expected pixels ---- */

static uint32_t unorm(double c, uint32_t max) { return (uint32_t)floor(c * max + 0.5); }

/* 0xRRGGBB that the window shows for color c: 8-bit, or an RGB565 panel's value expanded. */
static uint32_t shown_rgb(const double c[3], bool rgb565)
{
    if (!rgb565) return unorm(c[0], 255) << 16 | unorm(c[1], 255) << 8 | unorm(c[2], 255);
    uint32_t r = unorm(c[0], 31), g = unorm(c[1], 63), b = unorm(c[2], 31);
    return unorm(r / 31.0, 255) << 16 | unorm(g / 63.0, 255) << 8 | unorm(b / 31.0, 255);
}

static bool in_quad(uint32_t px, uint32_t py, uint32_t w, uint32_t h)
{
    return px >= w / 4 && px < 5 * w / 8 && py >= h / 4 && py < 5 * h / 8;
}

/* Wrong pixels in the window's top-left (w * zoom) x (h * zoom) for a frame of w x h panel
 * pixels: pixel (X, Y) shows panel pixel (X / zoom, Y / zoom). */
static uint32_t count_bad(Display *dpy, Window win, uint32_t w, uint32_t h, uint32_t zoom,
                          const double clear[3], bool rgb565, bool report)
{
    XImage *img = x.get_image(dpy, win, 0, 0, w * zoom, h * zoom, AllPlanes, ZPixmap);
    if (!img) return w * h * zoom * zoom;
    uint32_t bad = 0, qc = shown_rgb(quad_color, rgb565), cc = shown_rgb(clear, rgb565);
    for (uint32_t py = 0; py < h * zoom; py++)
        for (uint32_t px = 0; px < w * zoom; px++) {
            uint32_t got = (uint32_t)img->f.get_pixel(img, (int)px, (int)py) & 0xFFFFFFu;
            uint32_t want = in_quad(px / zoom, py / zoom, w, h) ? qc : cc;
            if (got != want && bad++ == 0 && report)
                printf("  first mismatch at (%u,%u): window 0x%06x, expected 0x%06x\n", (unsigned)px,
                       (unsigned)py, (unsigned)got, (unsigned)want);
        }
    img->f.destroy_image(img);
    return bad;
}

/* A presentation engine may show the frame a little after Present returns (Vulkan WSI):
 * poll for up to two seconds before calling it wrong. */
static uint32_t compare_window(Display *dpy, Window win, uint32_t w, uint32_t h, uint32_t zoom,
                               const double clear[3], bool rgb565)
{
    for (int i = 0; i < 100; i++) {
        x.sync(dpy, False);
        if (count_bad(dpy, win, w, h, zoom, clear, rgb565, false) == 0) return 0;
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    return count_bad(dpy, win, w, h, zoom, clear, rgb565, true);
}

/* ---- rendering ---- */

static WGPURenderPipeline pipe_cache[4];
static WGPUQueue draw_queue;   /* a device of the test's own (GLES native): its queue; else the harness's */
static WGPUTextureFormat pipe_format[4];

static WGPUShaderModule module(WGPUDevice d, const uint32_t *words, size_t bytes)
{
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = words;
    src.codeSize = (uint32_t)(bytes / 4);
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d, &md);
}

static WGPURenderPipeline pipeline(WGPUDevice d, WGPUTextureFormat f)
{
    uint32_t i = 0;
    for (; i < 4 && pipe_cache[i]; i++)
        if (pipe_format[i] == f) return pipe_cache[i];
    if (i == 4) return NULL;
    WGPUShaderModule vs = module(d, spv_quad_vert, sizeof spv_quad_vert);
    WGPUShaderModule fs = module(d, spv_quad_frag, sizeof spv_quad_frag);
    WGPUColorTargetState ct = WGPU_COLOR_TARGET_STATE_INIT;
    ct.format = f;
    WGPUFragmentState frag = WGPU_FRAGMENT_STATE_INIT;
    frag.module = fs;
    frag.entryPoint = (WGPUStringView){ "main", 4 };
    frag.targetCount = 1;
    frag.targets = &ct;
    WGPURenderPipelineDescriptor rp = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    rp.vertex.module = vs;
    rp.vertex.entryPoint = (WGPUStringView){ "main", 4 };
    rp.fragment = &frag;
    pipe_cache[i] = wgpuDeviceCreateRenderPipeline(d, &rp);
    pipe_format[i] = f;
    wgpuShaderModuleRelease(vs);
    wgpuShaderModuleRelease(fs);
    return pipe_cache[i];
}

static void release_pipelines(void)
{
    for (uint32_t i = 0; i < 4; i++) {
        if (pipe_cache[i]) wgpuRenderPipelineRelease(pipe_cache[i]);
        pipe_cache[i] = NULL;
    }
}

/* Clear to `clear`, then the quad. */
static void draw(WGPUDevice d, WGPUTexture t, const double clear[3])
{
    WGPURenderPipeline p = pipeline(d, wgpuTextureGetFormat(t));
    WGPUTextureView view = wgpuTextureCreateView(t, NULL);
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(d, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = view;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ clear[0], clear[1], clear[2], 1.0 };
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1;
    rpd.colorAttachments = &ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rpd);
    if (p) {
        wgpuRenderPassEncoderSetPipeline(pass, p);
        wgpuRenderPassEncoderDraw(pass, 6, 1, 0, 0);
    }
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuQueueSubmit(draw_queue ? draw_queue : eg_test_queue(), 1, &cb);
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(enc);
    wgpuTextureViewRelease(view);
}

static WGPUPresentMode config_mode = WGPUPresentMode_Undefined;

static void configure(WGPUSurface s, WGPUDevice d, WGPUTextureFormat f, uint32_t w, uint32_t h)
{
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.presentMode = config_mode;
    c.device = d;
    c.usage = WGPUTextureUsage_RenderAttachment;
    c.format = f;
    c.width = w;
    c.height = h;
    wgpuSurfaceConfigure(s, &c);
}

static bool acquired(WGPUSurfaceGetCurrentTextureStatus st)
{
    return st == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal ||
           st == WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal;
}

/* One frame: acquire, draw, present, compare the window. */
static void frame(const char *be, WGPUDevice d, WGPUSurface s, Display *dpy, Window win, uint32_t w,
                  uint32_t h, uint32_t zoom, int shade, bool rgb565)
{
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    CHECK(acquired(st.status) && st.texture, "%s: %ux%u frame %d: status %d", be, (unsigned)w,
          (unsigned)h, shade, (int)st.status);
    if (!st.texture) return;
    draw(d, st.texture, clears[shade]);
    CHECK(wgpuSurfacePresent(s) == WGPUStatus_Success, "%s: Present of frame %d", be, shade);
    wgpuTextureRelease(st.texture);
    uint32_t bad = compare_window(dpy, win, w, h, zoom, clears[shade], rgb565);
    CHECK(bad == 0, "%s: frame %d (%ux%u, zoom %u): %u of %u window pixels differ", be, shade,
          (unsigned)w, (unsigned)h, (unsigned)zoom, (unsigned)bad, (unsigned)(w * h * zoom * zoom));
    CHECK(eg_test_err.count == 0, "%s: frame %d raised %u error(s): %s", be, shade,
          eg_test_err.count, eg_test_err.message);
    eg_test_errors_reset();
}

static WGPUSurface window_surface(Display *dpy, Window win)
{
    WGPUSurfaceSourceXlibWindow src = WGPU_SURFACE_SOURCE_XLIB_WINDOW_INIT;
    src.display = dpy;
    src.window = win;
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &src.chain;
    return wgpuInstanceCreateSurface(eg_test_instance(), &sd);
}

static bool has_mode(const WGPUSurfaceCapabilities *c, WGPUPresentMode m)
{
    for (size_t i = 0; i < c->presentModeCount; i++)
        if (c->presentModes[i] == m) return true;
    return false;
}

/* A device of backend `be` or NULL (reported as skipped by name). */
static WGPUDevice backend_device(const char *be)
{
    setenv("EMGPU_TEST_BACKEND", be, 1);
    WGPUDevice d = eg_test_device("soft");
    if (!d || strcmp(d->adapter->hal->name, be) != 0) {
        printf("  SKIP swapchain.%s: no %s adapter (driver missing or backend not compiled in)\n", be, be);
        skipped++;
        if (d) eg_test_device_release();
        return NULL;
    }
    return d;
}

/* Releases the test device; the harness then checks that every object pool is empty (a leak
 * prints the pool and marks the harness's current test failed, counted here). */
static void device_done(const char *what)
{
    eg_test_device_release();
    CHECK(!eg_test_failed_now(), "%s: every object released (no pool left in use)", what);
}

enum { WIN_W = 64, WIN_H = 48, WIN2_W = 80, WIN2_H = 56 };

/* The state machine cases on a configured surface: acquire twice, present without acquire. */
static void misuse(const char *be, WGPUDevice d, WGPUSurface s, Display *dpy, Window win)
{
    WGPUSurfaceTexture a = WGPU_SURFACE_TEXTURE_INIT, b = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &a);
    wgpuSurfaceGetCurrentTexture(s, &b);
    CHECK(acquired(a.status) && b.status == WGPUSurfaceGetCurrentTextureStatus_Error && !b.texture,
          "%s: GetCurrentTexture twice: statuses %d, %d (expected success, then Error)", be,
          (int)a.status, (int)b.status);
    CHECK(eg_test_err.count == 1 && eg_test_err.code == EG_E_SURFACE_ALREADY_ACQUIRED,
          "%s: the second GetCurrentTexture reports SURFACE_ALREADY_ACQUIRED (%u errors)", be,
          eg_test_err.count);
    eg_test_errors_reset();
    if (a.texture) {   /* the first texture is still the frame: draw and show it */
        draw(d, a.texture, clears[2]);
        CHECK(wgpuSurfacePresent(s) == WGPUStatus_Success, "%s: Present after the refused acquire", be);
        wgpuTextureRelease(a.texture);
        uint32_t bad = compare_window(dpy, win, WIN_W, WIN_H, 1, clears[2], false);
        CHECK(bad == 0, "%s: frame after the refused acquire: %u pixels differ", be, (unsigned)bad);
    }
    CHECK(wgpuSurfacePresent(s) == WGPUStatus_Error, "%s: Present without a current texture", be);
    CHECK(eg_test_err.count == 1 && eg_test_err.code == EG_E_SURFACE_NOT_ACQUIRED,
          "%s: Present without acquire reports SURFACE_NOT_ACQUIRED (%u errors)", be, eg_test_err.count);
    eg_test_errors_reset();
}

static void run_backend(Display *dpy, const char *be)
{
    WGPUDevice d = backend_device(be);
    if (!d) return;
    int scr = DefaultScreen(dpy);
    Window win = x.create_simple_window(dpy, RootWindow(dpy, scr), 0, 0, WIN_W, WIN_H, 0, 0, 0);
    x.map_window(dpy, win);
    x.sync(dpy, False);
    WGPUSurface s = window_surface(dpy, win);
    CHECK(s != NULL, "%s: CreateSurface on an X11 window", be);
    if (!s) goto out;
    WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
    WGPUStatus cs = wgpuSurfaceGetCapabilities(s, d->adapter, &caps);
    CHECK(cs == WGPUStatus_Success && caps.formatCount > 0 && has_mode(&caps, WGPUPresentMode_Fifo) &&
          (caps.usages & WGPUTextureUsage_RenderAttachment) && caps.alphaModeCount > 0,
          "%s: capabilities (status %d, %u formats, Fifo %d)", be, (int)cs, (unsigned)caps.formatCount,
          (int)has_mode(&caps, WGPUPresentMode_Fifo));
    WGPUTextureFormat f = WGPUTextureFormat_BGRA8Unorm;
    bool has_bgra = false;
    for (size_t i = 0; i < caps.formatCount; i++) has_bgra |= caps.formats[i] == f;
    if (!has_bgra) f = WGPUTextureFormat_RGBA8Unorm;
    configure(s, d, f, WIN_W, WIN_H);
    CHECK(eg_test_err.count == 0, "%s: Configure: %s", be, eg_test_err.message);
    eg_test_errors_reset();
    /* Vulkan must use its swapchain (not the copy fallback); the others present by copy. */
    bool want_native = strcmp(be, "vulkan") == 0;
    CHECK(s->native == want_native, "%s: native swapchain %d, expected %d", be, (int)s->native, (int)want_native);
    frame(be, d, s, dpy, win, WIN_W, WIN_H, 1, 0, false);
    frame(be, d, s, dpy, win, WIN_W, WIN_H, 1, 1, false);
    misuse(be, d, s, dpy, win);
    /* Every present mode the capabilities list works (Vulkan: the driver's FIFO_RELAXED /
     * IMMEDIATE / MAILBOX swapchains); a frame with each. */
    WGPUPresentMode modes[8];
    size_t mode_count = caps.presentModeCount < 8 ? caps.presentModeCount : 8;
    memcpy(modes, caps.presentModes, mode_count * sizeof modes[0]);
    for (size_t i = 0; i < mode_count; i++) {
        config_mode = modes[i];
        configure(s, d, f, WIN_W, WIN_H);
        CHECK(eg_test_err.count == 0, "%s: Configure with presentMode 0x%x: %s", be, (unsigned)modes[i],
              eg_test_err.message);
        eg_test_errors_reset();
        frame(be, d, s, dpy, win, WIN_W, WIN_H, 1, (int)(i % 2), false);
    }
    /* Many frames per mode: Vulkan's per-image acquire/present semaphores cycle through every
     * image several times (validation with synchronization checks must stay silent, see main). */
    for (size_t i = 0; i < mode_count && strcmp(be, "vulkan") == 0; i++) {
        config_mode = modes[i];
        configure(s, d, f, WIN_W, WIN_H);
        eg_test_errors_reset();
        for (int n = 0; n < 20; n++) frame(be, d, s, dpy, win, WIN_W, WIN_H, 1, n % 4, false);
    }
    config_mode = WGPUPresentMode_Undefined;
    /* Resize: outdated until configured again at the new size. */
    x.resize_window(dpy, win, WIN2_W, WIN2_H);
    x.sync(dpy, False);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    CHECK(st.status == WGPUSurfaceGetCurrentTextureStatus_Outdated && !st.texture,
          "%s: after XResizeWindow: status %d, expected Outdated", be, (int)st.status);
    configure(s, d, f, WIN2_W, WIN2_H);
    frame(be, d, s, dpy, win, WIN2_W, WIN2_H, 1, 3, false);
    wgpuSurfaceUnconfigure(s);
    /* Released while a frame is acquired and never presented: everything is given back
     * (eg_test_device_release checks that every pool is empty; Vulkan destroys the swapchain). */
    configure(s, d, f, WIN2_W, WIN2_H);
    WGPUSurfaceTexture last = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &last);
    CHECK(acquired(last.status), "%s: acquire before releasing the surface: status %d", be, (int)last.status);
    wgpuSurfaceRelease(s);
    if (last.texture) wgpuTextureRelease(last.texture);
    CHECK(eg_test_err.count == 0, "%s: releasing an acquired surface: %s", be, eg_test_err.message);
    eg_test_errors_reset();
out:
    release_pipelines();
    x.destroy_window(dpy, win);
    x.sync(dpy, False);
    device_done(be);
}

static void on_adapter_cb(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                          void *u1, void *u2)
{
    (void)message; (void)u2;
    *(WGPUAdapter *)u1 = status == WGPURequestAdapterStatus_Success ? adapter : NULL;
}

static void on_device_cb(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message,
                         void *u1, void *u2)
{
    (void)message; (void)u2;
    *(WGPUDevice *)u1 = status == WGPURequestDeviceStatus_Success ? device : NULL;
}

/* The native device's errors land where frame() and misuse() look for them. */
static void on_error_cb(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1,
                        void *u2)
{
    (void)u1; (void)u2;
    if (eg_test_err.count++ == 0) {
        eg_test_err.type = type;
        eg_test_err.code = eg_device_last_error_code(device ? *device : NULL);
        size_t n = message.length == WGPU_STRLEN ? strlen(message.data) : message.length;
        if (n >= sizeof eg_test_err.message) n = sizeof eg_test_err.message - 1;
        memcpy(eg_test_err.message, message.data, n);
        eg_test_err.message[n] = '\0';
    }
}

/* GLES with an adapter requested with compatibleSurface = the window: an EGL display on the
 * test's own X11 Display, an EGL window surface, frames blitted (y flipped) and swapped. The
 * surface must say native (not the present-by-copy path, which run_backend("gles") covers), and
 * every window pixel must match, at two sizes (the second after a resize, so a flip anchored to
 * the wrong edge would show) and in both present modes. */
static void run_gles_native(Display *dpy)
{
    const char *be = "gles-native";
    WGPUDevice hd = backend_device("gles");   /* the harness's instance (and skip by name) */
    if (!hd) return;
    int scr = DefaultScreen(dpy);
    Window win = x.create_simple_window(dpy, RootWindow(dpy, scr), 0, 0, WIN_W, WIN_H, 0, 0, 0);
    x.map_window(dpy, win);
    x.sync(dpy, False);
    WGPUSurface s = window_surface(dpy, win);
    WGPUAdapter a = NULL;
    WGPUDevice d = NULL;
    CHECK(s != NULL, "%s: CreateSurface on an X11 window", be);
    if (!s) goto out;
    WGPURequestAdapterOptions opt = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    opt.backendType = WGPUBackendType_OpenGLES;
    opt.compatibleSurface = s;
    WGPURequestAdapterCallbackInfo aci = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    aci.mode = WGPUCallbackMode_AllowSpontaneous;
    aci.callback = on_adapter_cb;
    aci.userdata1 = &a;
    wgpuInstanceRequestAdapter(eg_test_instance(), &opt, aci);
    CHECK(a != NULL, "%s: RequestAdapter with compatibleSurface", be);
    if (!a) goto out;
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.uncapturedErrorCallbackInfo.callback = on_error_cb;
    WGPURequestDeviceCallbackInfo dci = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    dci.mode = WGPUCallbackMode_AllowSpontaneous;
    dci.callback = on_device_cb;
    dci.userdata1 = &d;
    wgpuAdapterRequestDevice(a, &dd, dci);
    CHECK(d != NULL, "%s: RequestDevice", be);
    if (!d) goto out;
    draw_queue = wgpuDeviceGetQueue(d);
    WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
    WGPUStatus cs = wgpuSurfaceGetCapabilities(s, a, &caps);
    /* The EGL path's table (gl_surface_window.c): BGRA8Unorm first, Fifo and Immediate, Opaque. */
    CHECK(cs == WGPUStatus_Success && caps.formatCount == 2 && caps.formats[0] == WGPUTextureFormat_BGRA8Unorm &&
          has_mode(&caps, WGPUPresentMode_Immediate) && caps.alphaModeCount == 1,
          "%s: capabilities of the EGL window path (status %d, %u formats, Immediate %d)", be, (int)cs,
          (unsigned)caps.formatCount, (int)has_mode(&caps, WGPUPresentMode_Immediate));
    /* The headless GLES adapter of the harness presents by copy: its capabilities are the copy
     * path's (RGB565 listed, Fifo only). */
    WGPUSurfaceCapabilities hc = WGPU_SURFACE_CAPABILITIES_INIT;
    wgpuSurfaceGetCapabilities(s, hd->adapter, &hc);
    CHECK(!has_mode(&hc, WGPUPresentMode_Immediate), "%s: the headless adapter's capabilities are the "
          "copy path's", be);
    {   /* compatibleSurface that is no window (a memory panel): the headless adapter, by copy */
        static uint32_t fb[4 * 4];
        WGPUEmgpuSurfaceSourceMemoryPanel ps = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
        ps.width = ps.height = 4;
        ps.format = WGPUEmgpuPanelFormat_XRGB8888;
        ps.framebuffer = fb;
        WGPUSurfaceDescriptor psd = WGPU_SURFACE_DESCRIPTOR_INIT;
        psd.nextInChain = &ps.chain;
        WGPUSurface panel = wgpuInstanceCreateSurface(eg_test_instance(), &psd);
        WGPUAdapter pa = NULL;
        opt.compatibleSurface = panel;
        aci.userdata1 = &pa;
        wgpuInstanceRequestAdapter(eg_test_instance(), &opt, aci);
        WGPUSurfaceCapabilities pc = WGPU_SURFACE_CAPABILITIES_INIT;
        CHECK(panel && pa && wgpuSurfaceGetCapabilities(s, pa, &pc) == WGPUStatus_Success &&
              !has_mode(&pc, WGPUPresentMode_Immediate), "%s: compatibleSurface = a memory panel gives "
              "an adapter that presents to the window by copy", be);
        if (pa) wgpuAdapterRelease(pa);
        if (panel) wgpuSurfaceRelease(panel);
    }
    WGPUTextureFormat fmts[2] = { WGPUTextureFormat_BGRA8Unorm, WGPUTextureFormat_RGBA8Unorm };
    WGPUPresentMode pm[2] = { WGPUPresentMode_Fifo, WGPUPresentMode_Immediate };
    for (int k = 0; k < 2; k++) {
        config_mode = pm[k];
        configure(s, d, fmts[k], WIN_W, WIN_H);
        CHECK(eg_test_err.count == 0, "%s: Configure (format 0x%x): %s", be, (unsigned)fmts[k], eg_test_err.message);
        eg_test_errors_reset();
        CHECK(s->native, "%s: configured natively (EGL window surface), not by copy", be);
        for (int n = 0; n < 4; n++) frame(be, d, s, dpy, win, WIN_W, WIN_H, 1, n, false);
    }
    config_mode = WGPUPresentMode_Undefined;
    misuse(be, d, s, dpy, win);
    x.resize_window(dpy, win, WIN2_W, WIN2_H);
    x.sync(dpy, False);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    CHECK(st.status == WGPUSurfaceGetCurrentTextureStatus_Outdated && !st.texture,
          "%s: after XResizeWindow: status %d, expected Outdated", be, (int)st.status);
    configure(s, d, WGPUTextureFormat_BGRA8Unorm, WIN2_W, WIN2_H);
    frame(be, d, s, dpy, win, WIN2_W, WIN2_H, 1, 3, false);
    frame(be, d, s, dpy, win, WIN2_W, WIN2_H, 1, 0, false);
    /* Released while a frame is acquired: the texture and the window surface are given back. */
    WGPUSurfaceTexture last = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &last);
    CHECK(acquired(last.status), "%s: acquire before releasing the surface: status %d", be, (int)last.status);
    wgpuSurfaceRelease(s);
    s = NULL;
    if (last.texture) wgpuTextureRelease(last.texture);
    CHECK(eg_test_err.count == 0, "%s: releasing an acquired surface: %s", be, eg_test_err.message);
    eg_test_errors_reset();
out:
    release_pipelines();
    if (draw_queue) wgpuQueueRelease(draw_queue);
    draw_queue = NULL;
    if (d) wgpuDeviceRelease(d);
    if (a) wgpuAdapterRelease(a);
    if (s) wgpuSurfaceRelease(s);
    x.destroy_window(dpy, win);
    x.sync(dpy, False);
    device_done(be);
}

/* The simulator: a 24x16 panel shown in its window, checked pixel by pixel (every panel pixel a
 * zoom x zoom block), with the number of flushes: one per strip (the last one shorter when the
 * strip height does not divide 16) or one per frame in framebuffer mode. Cases:
 *   - RGB565, strips of 4, zoom 2, soft rendering EmgpuRGB565Unorm (the board's setup);
 *   - the same panel on GLES rendering BGRA8 (a memory panel presented by copy). GLES renders
 *     BGRA8 because llvmpipe's own RGB565 rounding may differ by one LSB (WebGPU allows it;
 *     hal/gles/README.md), which would test the driver instead of our copy;
 *   - RGB565BE (byte-swapped, SPI panels), strips of 5, zoom 3, soft BGRA8 (converted);
 *   - XRGB8888 in framebuffer mode at zoom 1, soft BGRA8 (zero copy: the demo's setup);
 *   - on Vulkan (present by copy through a readback buffer): the RGB565 strip panel (BGRA8) and
 *     the XRGB8888 framebuffer panel (RGBA8, so the conversion swaps channels).
 * Every color here has c * 255 an integer, so quantising c directly or via unorm8 agree. */
typedef struct sim_case {
    const char *backend;
    WGPUTextureFormat format;
    WGPUEmgpuPanelFormat panel;
    uint32_t strip_rows, zoom;
} sim_case_t;

static void run_simulator(const sim_case_t *k)
{
    enum { PW = 24, PH = 16 };
    const char *be = k->backend;
    bool rgb565 = k->panel != WGPUEmgpuPanelFormat_XRGB8888;
    uint32_t flushes = k->strip_rows ? (PH + k->strip_rows - 1) / k->strip_rows : 1;
    char name[48];
    snprintf(name, sizeof name, "simulator/%s/panel%u/zoom%u", be, (unsigned)k->panel, (unsigned)k->zoom);
    WGPUDevice d = backend_device(be);
    if (!d) return;
    eg_sim_config_t cfg = { PW, PH, k->panel, k->strip_rows, k->zoom, "swapchain_test" };
    bool open = eg_sim_open(&cfg);
    CHECK(open, "%s: eg_sim_open", name);
    if (!open) {
        eg_test_device_release();
        return;
    }
    WGPUEmgpuSurfaceSourceMemoryPanel src;
    eg_sim_panel_source(&src);
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &src.chain;
    WGPUSurface s = wgpuInstanceCreateSurface(eg_test_instance(), &sd);
    CHECK(s != NULL, "%s: CreateSurface on the simulated panel", name);
    if (s) {
        WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
        wgpuSurfaceGetCapabilities(s, d->adapter, &caps);
        WGPUTextureFormat pref = rgb565 ? WGPUTextureFormat_EmgpuRGB565Unorm : WGPUTextureFormat_BGRA8Unorm;
        CHECK(caps.formatCount > 0 && caps.formats[0] == pref, "%s: preferred format 0x%x, expected 0x%x",
              name, caps.formatCount ? (unsigned)caps.formats[0] : 0u, (unsigned)pref);
        configure(s, d, k->format, PW, PH);
        Display *dpy = eg_sim_display();
        Window win = (Window)eg_sim_window();
        for (int shade = 0; shade < 2; shade++) {
            uint32_t before = eg_sim_flush_count();
            frame(name, d, s, dpy, win, PW, PH, k->zoom, shade, rgb565);
            CHECK(eg_sim_flush_count() - before == flushes, "%s: %u flushes, expected %u", name,
                  (unsigned)(eg_sim_flush_count() - before), (unsigned)flushes);
        }
        /* Zero copy where the panel has a framebuffer in the texture's layout (soft only). */
        bool zc = !k->strip_rows && strcmp(be, "soft") == 0 && k->format == pref;
        CHECK(s->zero_copy == zc, "%s: zero copy %d, expected %d", name, (int)s->zero_copy, (int)zc);
        CHECK(eg_sim_poll(), "%s: the window is still open", name);
        wgpuSurfaceUnconfigure(s);
        wgpuSurfaceRelease(s);
    }
    release_pipelines();
    eg_sim_close();
    device_done(name);
}

static const sim_case_t sim_cases[] = {
    { "soft", WGPUTextureFormat_EmgpuRGB565Unorm, WGPUEmgpuPanelFormat_RGB565, 4, 2 },
    { "gles", WGPUTextureFormat_BGRA8Unorm, WGPUEmgpuPanelFormat_RGB565, 4, 2 },
    { "soft", WGPUTextureFormat_BGRA8Unorm, WGPUEmgpuPanelFormat_RGB565BE, 5, 3 },
    { "soft", WGPUTextureFormat_BGRA8Unorm, WGPUEmgpuPanelFormat_XRGB8888, 0, 1 },
    { "vulkan", WGPUTextureFormat_BGRA8Unorm, WGPUEmgpuPanelFormat_RGB565, 4, 2 },
    { "vulkan", WGPUTextureFormat_RGBA8Unorm, WGPUEmgpuPanelFormat_XRGB8888, 0, 1 },
};

int main(int argc, char **argv)
{
    (void)argc;
    /* Vulkan validation with synchronization checks on by default (the layout transitions to
     * PRESENT_SRC are what it checks); EMGPU_VK_VALIDATION=0 turns it off. Not under ASan: the
     * validation layer's own allocations are reported as leaks at exit (host-asan board). */
#if !defined(__SANITIZE_ADDRESS__)
    setenv("EMGPU_VK_VALIDATION", "1", 0);
#endif
    load_x11_test();
    ensure_display(argv);
    Display *dpy = x.open_display(NULL);
    if (!dpy) {
        printf("  FAIL: XOpenDisplay(\"%s\") failed\n0 passed, 1 failed\n", getenv("DISPLAY"));
        return 1;
    }
#if EMGPU_HAL_VULKAN
    uint32_t vk_before = eg_vk_validation_messages();
#endif
    run_backend(dpy, "soft");
    run_backend(dpy, "vulkan");
    run_backend(dpy, "gles");
    run_gles_native(dpy);
    for (size_t i = 0; i < sizeof sim_cases / sizeof sim_cases[0]; i++) run_simulator(&sim_cases[i]);
#if EMGPU_HAL_VULKAN
    CHECK(eg_vk_validation_messages() == vk_before, "vulkan: %u validation message(s) during the "
          "swapchain and present-by-copy frames (logged above)",
          (unsigned)(eg_vk_validation_messages() - vk_before));
#endif
    x.close_display(dpy);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
#endif
