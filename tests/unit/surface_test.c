/* Tests for surfaces: sources, the configure/acquire/present state machine, and memory panels
 * (zero copy, conversion, strip + flush) on soft. Expected pixels come from the RGB565 / 8888
 * packing formulas applied by hand to the clear color, not from the code under test. */
#include <string.h>

#include <emgpu/emgpu.h>

#include "kernel/api/device.h"
#include "tests/unit/cmd_test_util.h"

#define PW 16u   /* panel width, px */
#define PH 8u    /* panel height, px */

static uint16_t t_fb16[PH * PW];
static uint32_t t_fb32[PH * PW];

/* Clear color (1.0, 0.4, 0.2): RGBA8 stores round(c * 255) = 255, 102, 51 (exact products).
 * RGB565 of it: R round(1.0 * 31) = 31, G round(0.4 * 63) = round(25.2) = 25,
 * B round(0.2 * 31) = round(6.2) = 6; from the 8-bit values the same: 102 * 63 / 255 = 25.2,
 * 51 * 31 / 255 = 6.2. So RGB565 = 31 << 11 | 25 << 5 | 6 = 0xFB26 either way. */
#define CLEAR_R 1.0
#define CLEAR_G 0.4
#define CLEAR_B 0.2
#define RGB565_OF_CLEAR 0xFB26u
#define BGR565_OF_CLEAR ((6u << 11) | (25u << 5) | 31u)

static bool soft_only(void)
{
    return strcmp(eg_test_backend(), "soft") == 0;
}

static WGPUSurface panel_surface(WGPUEmgpuPanelFormat fmt, void *fb)
{
    WGPUEmgpuSurfaceSourceMemoryPanel src = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
    src.width = PW;
    src.height = PH;
    src.format = fmt;
    src.framebuffer = fb;
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &src.chain;
    return wgpuInstanceCreateSurface(eg_test_instance(), &sd);
}

static WGPUSurfaceConfiguration config_of(WGPUDevice d, WGPUTextureFormat fmt)
{
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d;
    c.format = fmt;
    c.width = PW;
    c.height = PH;
    return c;
}

/* A configured RGB565 panel over t_fb16, or NULL (test skipped) off soft. */
static WGPUSurface configured_565(WGPUDevice d)
{
    WGPUSurface s = panel_surface(WGPUEmgpuPanelFormat_RGB565, t_fb16);
    WGPUSurfaceConfiguration c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    wgpuSurfaceConfigure(s, &c);
    return s;
}

static void clear_texture(WGPUDevice d, WGPUTexture t, double a)
{
    WGPUTextureView v = wgpuTextureCreateView(t, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = v;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ CLEAR_R, CLEAR_G, CLEAR_B, a };
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &ca;
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
    t_submit(e);
    wgpuTextureViewRelease(v);
}

#define SURFACE_TEST_START(d) \
    WGPUDevice d = eg_test_device("soft"); \
    if (!d) EG_SKIP("soft backend not compiled in"); \
    if (!soft_only()) { eg_test_device_release(); EG_NOT_APPLICABLE("panel surface rules run on soft; GPU surfaces: swapchain_test, wayland_surface_test, tools/vm_display_test.sh"); }

/* ---- sources ---- */

EG_TEST(surface_create, source_rules)
{
    SURFACE_TEST_START(d);
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    EG_EXPECT(wgpuInstanceCreateSurface(eg_test_instance(), &sd) == NULL);   /* no source */
    WGPUSurfaceSourceXlibWindow x = WGPU_SURFACE_SOURCE_XLIB_WINDOW_INIT;
    sd.nextInChain = &x.chain;                      /* Xlib without display and window: refused */
    EG_EXPECT(wgpuInstanceCreateSurface(eg_test_instance(), &sd) == NULL);
    x.window = 0x200001;                            /* still no display (and none on the M7) */
    EG_EXPECT(wgpuInstanceCreateSurface(eg_test_instance(), &sd) == NULL);
    WGPUSurfaceSourceWaylandSurface wl = WGPU_SURFACE_SOURCE_WAYLAND_SURFACE_INIT;
    sd.nextInChain = &wl.chain;                                  /* no display / surface: refused */
    EG_EXPECT(wgpuInstanceCreateSurface(eg_test_instance(), &sd) == NULL);
    WGPUEmgpuSurfaceSourceMemoryPanel p = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
    p.width = PW; p.height = PH; p.format = WGPUEmgpuPanelFormat_RGB565;
    sd.nextInChain = &p.chain;
    EG_EXPECT(wgpuInstanceCreateSurface(eg_test_instance(), &sd) == NULL);   /* no memory */
    p.framebuffer = t_fb16;
    p.stripBuffer = t_fb16;
    EG_EXPECT(wgpuInstanceCreateSurface(eg_test_instance(), &sd) == NULL);   /* both */
    p.framebuffer = NULL;
    p.stripHeight = 2;
    EG_EXPECT(wgpuInstanceCreateSurface(eg_test_instance(), &sd) == NULL);   /* strip, no flush */
    p.stripBuffer = NULL;
    p.framebuffer = t_fb16;
    p.bytesPerRow = PW * 2 - 2;
    EG_EXPECT(wgpuInstanceCreateSurface(eg_test_instance(), &sd) == NULL);   /* row too short */
    p.bytesPerRow = 0;
    p.format = (WGPUEmgpuPanelFormat)99;
    EG_EXPECT(wgpuInstanceCreateSurface(eg_test_instance(), &sd) == NULL);   /* bad format */
    p.format = WGPUEmgpuPanelFormat_RGB565;
    WGPUSurface s = wgpuInstanceCreateSurface(eg_test_instance(), &sd);
    EG_EXPECT(s != NULL);
    wgpuSurfaceRelease(s);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

EG_TEST(surface_caps, rgb565_and_argb_panels)
{
    SURFACE_TEST_START(d);
    WGPUSurface s = panel_surface(WGPUEmgpuPanelFormat_RGB565, t_fb16);
    WGPUSurfaceCapabilities c = WGPU_SURFACE_CAPABILITIES_INIT;
    EG_ASSERT(wgpuSurfaceGetCapabilities(s, d->adapter, &c) == WGPUStatus_Success);
    EG_ASSERT(c.formatCount >= 1);
    EG_EXPECT(c.formats[0] == WGPUTextureFormat_EmgpuRGB565Unorm);   /* zero-copy format first */
    EG_EXPECT(c.usages & WGPUTextureUsage_RenderAttachment);
    EG_EXPECT(c.presentModeCount >= 1 && c.presentModes[0] == WGPUPresentMode_Fifo);  /* always */
    EG_EXPECT(c.alphaModeCount == 1 && c.alphaModes[0] == WGPUCompositeAlphaMode_Opaque);
    wgpuSurfaceCapabilitiesFreeMembers(c);
    wgpuSurfaceRelease(s);
    s = panel_surface(WGPUEmgpuPanelFormat_ARGB8888, t_fb32);
    EG_ASSERT(wgpuSurfaceGetCapabilities(s, d->adapter, &c) == WGPUStatus_Success);
    EG_EXPECT(c.formats[0] == WGPUTextureFormat_BGRA8Unorm);   /* bytes B, G, R, A */
    EG_EXPECT_EQ_U(c.alphaModeCount, 2);
    wgpuSurfaceRelease(s);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* ---- configure: one rule each, from a valid baseline ---- */

static void expect_configure_error(WGPUSurfaceConfiguration *c, eg_error_code_t code,
                                   const char *fragment)
{
    WGPUSurface s = panel_surface(WGPUEmgpuPanelFormat_RGB565, t_fb16);
    wgpuSurfaceConfigure(s, c);
    EG_EXPECT_EQ_U(eg_test_err.count, 1);
    EG_EXPECT_EQ_U(eg_test_err.code, code);
    EG_EXPECT_STR_CONTAINS(eg_test_err.message, fragment);
    eg_test_errors_reset();
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;   /* a failed Configure leaves it unconfigured */
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_EXPECT(st.status == WGPUSurfaceGetCurrentTextureStatus_Error && st.texture == NULL);
    wgpuSurfaceRelease(s);
}

EG_TEST(surface_configure, rules)
{
    SURFACE_TEST_START(d);
    WGPUSurfaceConfiguration c = config_of(d, WGPUTextureFormat_R8Unorm);
    expect_configure_error(&c, EG_E_SURFACE_FORMAT, "config.format R8Unorm");
    c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    c.usage = WGPUTextureUsage_StorageBinding;
    expect_configure_error(&c, EG_E_SURFACE_USAGE, "config.usage 0x8");
    c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    c.alphaMode = WGPUCompositeAlphaMode_Premultiplied;
    expect_configure_error(&c, EG_E_SURFACE_ALPHA_MODE, "config.alphaMode 0x2");
    c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    c.presentMode = WGPUPresentMode_Mailbox;
    expect_configure_error(&c, EG_E_SURFACE_PRESENT_MODE, "config.presentMode 0x4");
    c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    c.width = 0;
    expect_configure_error(&c, EG_E_SURFACE_SIZE, "config size 0x8");
    c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    c.width = d->limits.maxTextureDimension2D + 1;
    expect_configure_error(&c, EG_E_SURFACE_SIZE, "maxTextureDimension2D");
    c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    c.width = PW * 2;                                    /* no scaler: at most the panel */
    expect_configure_error(&c, EG_E_SURFACE_SIZE, "larger than the panel (16x8)");
    eg_test_device_release();
}

EG_TEST(surface_configure, device_of_another_instance)
{
    SURFACE_TEST_START(d);
    static uint64_t block[8192];
    WGPUEmgpuInstanceMemoryDescriptor md = WGPU_EMGPU_INSTANCE_MEMORY_DESCRIPTOR_INIT;
    uint32_t *cap = &md.capacities.adapters;
    for (int k = 0; k < 14; k++) cap[k] = 1;    /* the 14 pool fields before the byte sizes */
    md.capacities.commandStreamBytes = 256;
    md.capacities.surfaces = 1;
    size_t need = wgpuEmgpuGetInstanceMemorySize(&md.capacities);
    if (need > sizeof block) { eg_test_device_release(); EG_SKIP("second instance does not fit"); }
    md.block = block;
    md.blockSize = sizeof block;
    WGPUInstanceDescriptor id = WGPU_INSTANCE_DESCRIPTOR_INIT;
    id.nextInChain = &md.chain;
    WGPUInstance other = wgpuCreateInstance(&id);
    EG_ASSERT(other != NULL);
    WGPUEmgpuSurfaceSourceMemoryPanel p = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
    p.width = PW; p.height = PH; p.format = WGPUEmgpuPanelFormat_RGB565; p.framebuffer = t_fb16;
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &p.chain;
    WGPUSurface s = wgpuInstanceCreateSurface(other, &sd);
    EG_ASSERT(s != NULL);
    WGPUSurfaceConfiguration c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    wgpuSurfaceConfigure(s, &c);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, WRONG_DEVICE, "another instance");
    wgpuSurfaceRelease(s);
    wgpuInstanceRelease(other);
    eg_test_device_release();
}

/* ---- the acquire / present state machine ---- */

EG_TEST(surface_frame, acquire_twice_and_present_without_acquire)
{
    SURFACE_TEST_START(d);
    WGPUSurface s = configured_565(d);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Error);       /* nothing acquired */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_NOT_ACQUIRED, "no current texture");
    WGPUSurfaceTexture a = WGPU_SURFACE_TEXTURE_INIT, b = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &a);
    EG_EXPECT(a.status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal && a.texture);
    wgpuSurfaceGetCurrentTexture(s, &b);
    EG_EXPECT(b.status == WGPUSurfaceGetCurrentTextureStatus_Error && b.texture == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_ALREADY_ACQUIRED, "not presented yet");
    wgpuSurfaceUnconfigure(s);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_ALREADY_ACQUIRED, "not presented yet");
    WGPUSurfaceConfiguration c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    wgpuSurfaceConfigure(s, &c);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_ALREADY_ACQUIRED, "not presented yet");
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Error);       /* one Present per frame */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_NOT_ACQUIRED, "no current texture");
    wgpuTextureRelease(a.texture);
    wgpuSurfaceUnconfigure(s);
    EG_EXPECT_NO_ERROR();
    wgpuSurfaceRelease(s);
    eg_test_device_release();
}

EG_TEST(surface_frame, texture_destroyed_before_present)
{
    SURFACE_TEST_START(d);
    WGPUSurface s = configured_565(d);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_ASSERT(st.texture != NULL);
    WGPUTexture first = st.texture;
    wgpuTextureDestroy(first);
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Error);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_TEXTURE_DESTROYED, "destroyed before Present");
    wgpuSurfaceGetCurrentTexture(s, &st);   /* the next frame works again */
    EG_EXPECT(st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal);
    wgpuTextureRelease(first);
    wgpuTextureRelease(st.texture);
    wgpuSurfaceRelease(s);                                       /* releases the acquired frame */
    eg_test_device_release();
}

EG_TEST(surface_frame, texture_used_after_present)
{
    SURFACE_TEST_START(d);
    WGPUSurface s = panel_surface(WGPUEmgpuPanelFormat_RGB565, t_fb16);
    WGPUSurfaceConfiguration c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    c.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc;
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_ASSERT(st.texture != NULL);
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
    /* Present destroys the frame's texture: copying from it afterwards is the spec's
     * "texture is destroyed" validation error. */
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst, 256);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyTextureInfo ti = t_tex_info(st.texture, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, 0, 256, 1);
    WGPUExtent3D sz = t_extent(4, 1, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, DESTROYED_OBJECT, "was destroyed");
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(e);
    wgpuBufferRelease(b);
    wgpuTextureRelease(st.texture);
    wgpuSurfaceRelease(s);
    eg_test_device_release();
}

/* ---- memory panels: pixels ---- */

EG_TEST(surface_panel, rgb565_zero_copy)
{
    SURFACE_TEST_START(d);
    memset(t_fb16, 0, sizeof t_fb16);
    WGPUSurface s = configured_565(d);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_ASSERT(st.texture != NULL);
    clear_texture(d, st.texture, 1.0);
    /* Zero copy: the render pass itself wrote the caller's framebuffer, before any Present. */
    EG_EXPECT_EQ_U(t_fb16[0], RGB565_OF_CLEAR);
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
    for (uint32_t i = 0; i < PW * PH; i++)
        if (t_fb16[i] != RGB565_OF_CLEAR) { EG_EXPECT_EQ_U(t_fb16[i], RGB565_OF_CLEAR); break; }
    EG_EXPECT_NO_ERROR();
    wgpuTextureRelease(st.texture);
    wgpuSurfaceRelease(s);
    eg_test_device_release();
}

EG_TEST(surface_panel, bgra8_converted_to_rgb565)
{
    SURFACE_TEST_START(d);
    memset(t_fb16, 0, sizeof t_fb16);
    WGPUSurface s = panel_surface(WGPUEmgpuPanelFormat_RGB565, t_fb16);
    WGPUSurfaceConfiguration c = config_of(d, WGPUTextureFormat_BGRA8Unorm);
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    /* Works, but RGB565 would skip the conversion: Suboptimal. */
    EG_EXPECT(st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal);
    EG_ASSERT(st.texture != NULL);
    clear_texture(d, st.texture, 1.0);
    EG_EXPECT_EQ_U(t_fb16[0], 0);                 /* not zero copy: nothing shown before Present */
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
    EG_EXPECT_EQ_U(t_fb16[0], RGB565_OF_CLEAR);
    EG_EXPECT_EQ_U(t_fb16[PW * PH - 1], RGB565_OF_CLEAR);
    EG_EXPECT_NO_ERROR();
    wgpuTextureRelease(st.texture);
    wgpuSurfaceRelease(s);
    eg_test_device_release();
}

/* Presents one cleared frame of `fmt` into a panel of `panel` format over fb. */
static void present_clear(WGPUDevice d, WGPUEmgpuPanelFormat panel, void *fb, WGPUTextureFormat fmt,
                          WGPUCompositeAlphaMode alpha, double a)
{
    WGPUSurface s = panel_surface(panel, fb);
    WGPUSurfaceConfiguration c = config_of(d, fmt);
    c.alphaMode = alpha;
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_EXPECT(st.texture != NULL);
    if (st.texture) {
        clear_texture(d, st.texture, a);
        EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
        wgpuTextureRelease(st.texture);
    }
    EG_EXPECT_NO_ERROR();
    wgpuSurfaceRelease(s);
}

EG_TEST(surface_panel, conversions_8888_and_565_variants)
{
    SURFACE_TEST_START(d);
    const uint8_t *b = (const uint8_t *)t_fb32;
    /* RGBA8 texture -> XRGB8888: bytes B, G, R, 0xFF (X is always opaque); alpha 0.4 = 102. */
    present_clear(d, WGPUEmgpuPanelFormat_XRGB8888, t_fb32, WGPUTextureFormat_RGBA8Unorm,
                  WGPUCompositeAlphaMode_Auto, 0.4);
    EG_EXPECT(b[0] == 51 && b[1] == 102 && b[2] == 255 && b[3] == 255);
    /* ARGB8888, Premultiplied keeps alpha: B, G, R, A = 51, 102, 255, 102. */
    present_clear(d, WGPUEmgpuPanelFormat_ARGB8888, t_fb32, WGPUTextureFormat_RGBA8Unorm,
                  WGPUCompositeAlphaMode_Premultiplied, 0.4);
    EG_EXPECT(b[0] == 51 && b[1] == 102 && b[2] == 255 && b[3] == 102);
    /* BGRA8 texture -> XBGR8888: bytes R, G, B, 0xFF. */
    present_clear(d, WGPUEmgpuPanelFormat_XBGR8888, t_fb32, WGPUTextureFormat_BGRA8Unorm,
                  WGPUCompositeAlphaMode_Auto, 1.0);
    EG_EXPECT(b[0] == 255 && b[1] == 102 && b[2] == 51 && b[3] == 255);
    /* RGB565 texture -> BGR565 (fields swapped) and RGB565BE (bytes swapped). */
    present_clear(d, WGPUEmgpuPanelFormat_BGR565, t_fb16, WGPUTextureFormat_EmgpuRGB565Unorm,
                  WGPUCompositeAlphaMode_Auto, 1.0);
    EG_EXPECT_EQ_U(t_fb16[3], BGR565_OF_CLEAR);
    present_clear(d, WGPUEmgpuPanelFormat_RGB565BE, t_fb16, WGPUTextureFormat_EmgpuRGB565Unorm,
                  WGPUCompositeAlphaMode_Auto, 1.0);
    const uint8_t *h = (const uint8_t *)t_fb16;
    EG_EXPECT(h[0] == (RGB565_OF_CLEAR >> 8) && h[1] == (RGB565_OF_CLEAR & 0xFF));
    eg_test_device_release();
}

/* ---- strip mode ---- */

typedef struct strip_log {
    uint32_t calls;
    uint32_t rect[4][4];          /* x, y, w, h of each call */
    uint16_t seen[PH * PW];       /* the pixels as the panel would receive them */
} strip_log_t;

static void on_flush(void *user, uint32_t x, uint32_t y, uint32_t w, uint32_t h, const void *pixels,
                     uint32_t stride_B)
{
    strip_log_t *l = user;
    if (l->calls < 4) {
        uint32_t *r = l->rect[l->calls];
        r[0] = x; r[1] = y; r[2] = w; r[3] = h;
    }
    l->calls++;
    for (uint32_t row = 0; row < h && y + row < PH; row++)
        memcpy(&l->seen[(y + row) * PW + x], (const uint8_t *)pixels + row * stride_B, w * 2u);
}

EG_TEST(surface_strip, flush_per_strip)
{
    SURFACE_TEST_START(d);
    static uint16_t strip[3 * PW];
    static strip_log_t log;
    memset(&log, 0, sizeof log);
    WGPUEmgpuSurfaceSourceMemoryPanel p = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
    p.width = PW; p.height = PH; p.format = WGPUEmgpuPanelFormat_RGB565;
    p.stripBuffer = strip; p.stripHeight = 3; p.flush = on_flush; p.flushUserdata = &log;
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &p.chain;
    WGPUSurface s = wgpuInstanceCreateSurface(eg_test_instance(), &sd);
    EG_ASSERT(s != NULL);
    WGPUSurfaceConfiguration c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_EXPECT(st.status == WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal);  /* nothing better */
    EG_ASSERT(st.texture != NULL);
    EG_EXPECT_EQ_U(log.calls, 0);
    clear_texture(d, st.texture, 1.0);
    /* Banded frame (docs/displays.md): the strips reach the panel as the pass ends, Present
     * sends nothing more. ceil(8 / 3) = 3 strips: rows 0-2, 3-5, 6-7. */
    EG_EXPECT_EQ_U(log.calls, 3);
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
    EG_EXPECT_EQ_U(log.calls, 3);
    static const uint32_t want[3][4] = { { 0, 0, PW, 3 }, { 0, 3, PW, 3 }, { 0, 6, PW, 2 } };
    for (uint32_t i = 0; i < 3; i++)
        for (uint32_t k = 0; k < 4; k++) EG_EXPECT_EQ_U(log.rect[i][k], want[i][k]);
    for (uint32_t i = 0; i < PW * PH; i++)
        if (log.seen[i] != RGB565_OF_CLEAR) { EG_EXPECT_EQ_U(log.seen[i], RGB565_OF_CLEAR); break; }
    EG_EXPECT_NO_ERROR();
    wgpuTextureRelease(st.texture);
    wgpuSurfaceRelease(s);
    eg_test_device_release();
}

EG_TEST(surface_panel, framebuffer_flush_once_per_present)
{
    SURFACE_TEST_START(d);
    static strip_log_t log;
    memset(&log, 0, sizeof log);
    WGPUEmgpuSurfaceSourceMemoryPanel p = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
    p.width = PW; p.height = PH; p.format = WGPUEmgpuPanelFormat_RGB565;
    p.framebuffer = t_fb16; p.flush = on_flush; p.flushUserdata = &log;
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &p.chain;
    WGPUSurface s = wgpuInstanceCreateSurface(eg_test_instance(), &sd);
    WGPUSurfaceConfiguration c = config_of(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_ASSERT(st.texture != NULL);
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
    EG_EXPECT_EQ_U(log.calls, 1);
    EG_EXPECT(log.rect[0][0] == 0 && log.rect[0][1] == 0 && log.rect[0][2] == PW && log.rect[0][3] == PH);
    wgpuTextureRelease(st.texture);
    wgpuSurfaceRelease(s);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}
