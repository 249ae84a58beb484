/* Surfaces: capabilities, configure/unconfigure, acquire and present (see surface.h); the
 * sources and wgpuInstanceCreateSurface are in surface_source.c. */
#include "kernel/api/surface.h"

#include "kernel/api/adapter.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/texture.h"
#include "kernel/base/log.h"
#include "kernel/track/track.h"

/* ---- panel formats ---- */

uint32_t eg_panel_format_bytes(WGPUEmgpuPanelFormat f)
{
    switch (f) {
    case WGPUEmgpuPanelFormat_RGB565: case WGPUEmgpuPanelFormat_BGR565:
    case WGPUEmgpuPanelFormat_RGB565BE: return 2;
    case WGPUEmgpuPanelFormat_XRGB8888: case WGPUEmgpuPanelFormat_ARGB8888:
    case WGPUEmgpuPanelFormat_XBGR8888: case WGPUEmgpuPanelFormat_ABGR8888: return 4;
    default: return 0;
    }
}

WGPUTextureFormat eg_panel_format_texture(WGPUEmgpuPanelFormat f)
{
    switch (f) {
    case WGPUEmgpuPanelFormat_RGB565: return WGPUTextureFormat_EmgpuRGB565Unorm;
    case WGPUEmgpuPanelFormat_XRGB8888: case WGPUEmgpuPanelFormat_ARGB8888:
        return WGPUTextureFormat_BGRA8Unorm;
    case WGPUEmgpuPanelFormat_XBGR8888: case WGPUEmgpuPanelFormat_ABGR8888:
        return WGPUTextureFormat_RGBA8Unorm;
    default: return WGPUTextureFormat_Undefined;
    }
}

const char *eg_panel_format_name(WGPUEmgpuPanelFormat f)
{
    static const char *const names[] = { "Undefined", "RGB565", "BGR565", "RGB565BE", "XRGB8888",
                                         "ARGB8888", "XBGR8888", "ABGR8888" };
    return (unsigned)f < EG_ARRAY_LEN(names) ? names[f] : "(unknown)";
}

/* ---- capabilities ----
 * Static tables, so wgpuSurfaceCapabilitiesFreeMembers has nothing to free and a capabilities
 * struct stays valid after the surface is released. formats[0] is the zero-copy format when
 * the panel has one; 16-bit panels without one still prefer RGB565 (half the render memory). */

static const WGPUTextureFormat formats_565[] = {
    WGPUTextureFormat_EmgpuRGB565Unorm, WGPUTextureFormat_BGRA8Unorm, WGPUTextureFormat_RGBA8Unorm };
static const WGPUTextureFormat formats_bgra[] = {
    WGPUTextureFormat_BGRA8Unorm, WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_EmgpuRGB565Unorm };
static const WGPUTextureFormat formats_rgba[] = {
    WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm, WGPUTextureFormat_EmgpuRGB565Unorm };
static const WGPUPresentMode present_modes[] = { WGPUPresentMode_Fifo };
static const WGPUCompositeAlphaMode alpha_opaque[] = { WGPUCompositeAlphaMode_Opaque };
static const WGPUCompositeAlphaMode alpha_with_premul[] = {
    WGPUCompositeAlphaMode_Opaque, WGPUCompositeAlphaMode_Premultiplied };

#define SURFACE_USAGES (WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc | \
                        WGPUTextureUsage_CopyDst | WGPUTextureUsage_TextureBinding)

static void caps_of(const eg_surface_t *s, const eg_device_info_t *info, WGPUSurfaceCapabilities *c)
{
    /* helper wayland: the buffers' format follows the configuration; the capabilities do not */
    WGPUEmgpuPanelFormat f = s->kind == EG_SURFACE_WAYLAND ? WGPUEmgpuPanelFormat_ARGB8888 : s->target.format;
    c->usages = SURFACE_USAGES;
    /* helper bin: a strip-mode frame may be banded (no full-frame memory): render passes only */
    if (s->target.strip) c->usages = WGPUTextureUsage_RenderAttachment;
    if (eg_panel_format_bytes(f) == 2) {
        c->formats = formats_565;
        c->formatCount = EG_ARRAY_LEN(formats_565);
    } else if (eg_panel_format_texture(f) == WGPUTextureFormat_RGBA8Unorm) {
        c->formats = formats_rgba;
        c->formatCount = EG_ARRAY_LEN(formats_rgba);
    } else {
        c->formats = formats_bgra;
        c->formatCount = EG_ARRAY_LEN(formats_bgra);
    }
    /* An adapter whose driver lacks RGB565 (ext_formats_missing) does not offer it: it is first
     * in the 16-bit table and last in the others. */
    if (info->ext_formats_missing & EG_EXT_FORMAT_RGB565) {
        if (c->formats == formats_565) c->formats++;
        c->formatCount--;
    }
    c->presentModes = present_modes;
    c->presentModeCount = EG_ARRAY_LEN(present_modes);
    /* Only panels that store alpha can show a premultiplied result differently from opaque. */
    bool alpha = f == WGPUEmgpuPanelFormat_ARGB8888 || f == WGPUEmgpuPanelFormat_ABGR8888;
    c->alphaModes = alpha ? alpha_with_premul : alpha_opaque;
    c->alphaModeCount = alpha ? 2 : 1;
}

/* The HAL's view of a surface with a native path: an X11 window, or (helper gbm) a KMS output. */
static eg_hal_window_t window_of(eg_surface_t *s)
{
    eg_hal_window_t w = { NULL, 0, NULL, NULL };
    if (s->kind == EG_SURFACE_XLIB) {
        w.display = s->xlib.display;
        w.window = s->xlib.window;
    }
    if (s->kind == EG_SURFACE_DRM) w.drm = &s->drm;
    if (s->kind == EG_SURFACE_WAYLAND) {   /* helper wayland */
        w.display = s->wayland.display;
        w.wl_surface = s->wayland.surface;
    }
    return w;
}

/* The driver's capabilities for an X11 window when the backend has a native swapchain (HAL
 * window_* entries); false otherwise (then soft's table or present by copy applies). A KMS
 * output (helper gbm) is native only on backends whose adapters bind to a card (probe_window:
 * GLES through GBM); Vulkan's window entries take X11 windows only. */
static bool native_caps_of(eg_surface_t *s, const eg_hal_ops_t *hal, const eg_device_info_t *info,
                           WGPUSurfaceCapabilities *c)
{
    bool drm = s->kind == EG_SURFACE_DRM && hal->probe_window;
    /* helper wayland: natively only where no window binding is needed (Vulkan); GLES would need
     * an EGL display on the wl_display (not written), so it presents by copy */
    bool wl = s->kind == EG_SURFACE_WAYLAND && !hal->probe_window;
    if ((s->kind != EG_SURFACE_XLIB && !drm && !wl) || !hal->window_caps || !hal->window_configure) return false;
    eg_hal_window_t w = window_of(s);
    if (hal->window_caps(info, &w, &s->native_caps) != EG_STATUS_OK) return false;
    const eg_hal_window_caps_t *n = &s->native_caps;
    c->usages = n->usages;
    c->formats = n->formats;
    c->formatCount = n->format_count;
    c->presentModes = n->present_modes;
    c->presentModeCount = n->present_mode_count;
    c->alphaModes = n->alpha_modes;
    c->alphaModeCount = n->alpha_mode_count;
    return true;
}

static bool surface_live(WGPUSurface s, const char *entry)
{
    return eg_handle_live(s, EG_KIND_SURFACE, entry);
}

/* webgpu.h WGPURequestAdapterOptions.compatibleSurface: "the adapter must be able to present to
 * this surface". Every adapter can (present by copy at worst), so a failed binding falls back. */
eg_status_t eg_surface_probe_adapter(const eg_hal_ops_t *hal, const WGPURequestAdapterOptions *options,
                                     eg_device_info_t *info)
{
    WGPUSurface s = options ? options->compatibleSurface : NULL;
    if (s && hal->probe_window && surface_live(s, "wgpuInstanceRequestAdapter") &&
        (s->kind == EG_SURFACE_XLIB || s->kind == EG_SURFACE_DRM)) {   /* DRM: helper gbm */
        eg_hal_window_t w = window_of(s);
        if (hal->probe_window(&w, info) == EG_STATUS_OK) return EG_STATUS_OK;
        eg_log(EG_LOG_INFO, "wgpuInstanceRequestAdapter: the %s backend cannot bind to the display of "
               "options.compatibleSurface; its devices will present to it by copy", hal->name);
    }
    return hal->probe(0, info);
}

WGPUStatus wgpuSurfaceGetCapabilities(WGPUSurface surface, WGPUAdapter adapter,
                                      WGPUSurfaceCapabilities *capabilities)
{
    static const char entry[] = "wgpuSurfaceGetCapabilities";
    if (!surface_live(surface, entry) || !eg_handle_live(adapter, EG_KIND_ADAPTER, entry))
        return WGPUStatus_Error;
    if (!capabilities || capabilities->nextInChain) {
        eg_log(EG_LOG_ERROR, "%s: capabilities is NULL or has a nextInChain", entry);
        return WGPUStatus_Error;
    }
    /* webgpu.h: Error "if the surface is not compatible with the adapter". */
    if (adapter->instance == surface->instance &&
        native_caps_of(surface, adapter->hal, &adapter->info, capabilities))
        return WGPUStatus_Success;
    if (adapter->instance != surface->instance || !adapter->hal->surface_present) {
        eg_log(EG_LOG_ERROR, "%s: adapter (%s backend%s) cannot present to this surface", entry,
               adapter->hal->name, adapter->instance != surface->instance ? ", another instance" : "");
        return WGPUStatus_Error;
    }
    caps_of(surface, &adapter->info, capabilities);
    return WGPUStatus_Success;
}

void wgpuSurfaceCapabilitiesFreeMembers(WGPUSurfaceCapabilities surfaceCapabilities)
{
    (void)surfaceCapabilities;   /* the arrays are static tables (see caps_of) */
}

/* ---- configuration ---- */

static bool in_formats(const WGPUSurfaceCapabilities *c, WGPUTextureFormat f)
{
    for (size_t i = 0; i < c->formatCount; i++)
        if (c->formats[i] == f) return true;
    return false;
}

static const char *format_name(WGPUTextureFormat f)
{
    const eg_format_info_t *fi = eg_format_info(f);
    return fi ? fi->name : "(not a format)";
}

/* Spec: GPUCanvasContext configure() ("validate texture format required features", "supported
 * context formats", usage), with webgpu-headers' capability rules for alpha and present modes. */
static bool validate_formats(const eg_vctx_t *v, const WGPUSurfaceConfiguration *c,
                             const WGPUSurfaceCapabilities *caps, WGPUTextureFormat *srgb_out)
{
    EG_CHECK(v, in_formats(caps, c->format), SURFACE_FORMAT, "config.format %s (0x%x) is not "
             "one of the surface's formats (preferred: %s)", format_name(c->format),
             (unsigned)c->format, format_name(caps->formats[0]));
    EG_CHECK(v, c->viewFormatCount == 0 || c->viewFormats, NULL_DESCRIPTOR,
             "config.viewFormats is NULL but viewFormatCount is %u", (unsigned)c->viewFormatCount);
    const eg_format_info_t *fi = eg_format_info(c->format);
    *srgb_out = WGPUTextureFormat_Undefined;
    for (size_t i = 0; i < c->viewFormatCount; i++) {
        WGPUTextureFormat vf = c->viewFormats[i];
        EG_CHECK(v, vf == c->format || (fi->srgb_pair != WGPUTextureFormat_Undefined &&
                                        vf == fi->srgb_pair), TEXTURE_VIEW_FORMATS,
                 "config.viewFormats[%u] %s is not view-compatible with config.format %s",
                 (unsigned)i, format_name(vf), fi->name);
        if (vf != c->format) *srgb_out = vf;
    }
    EG_CHECK(v, c->usage != 0 && (c->usage & ~caps->usages) == 0, SURFACE_USAGE,
             "config.usage 0x%llx is 0 or has bits outside the surface's usages 0x%llx",
             (unsigned long long)c->usage, (unsigned long long)caps->usages);
    return true;
}

static bool validate_modes(const eg_vctx_t *v, const WGPUSurfaceConfiguration *c,
                           const WGPUSurfaceCapabilities *caps)
{
    bool alpha_ok = c->alphaMode == WGPUCompositeAlphaMode_Auto;
    for (size_t i = 0; i < caps->alphaModeCount; i++) alpha_ok |= caps->alphaModes[i] == c->alphaMode;
    EG_CHECK(v, alpha_ok, SURFACE_ALPHA_MODE, "config.alphaMode 0x%x is not supported by this "
             "surface (Auto or Opaque%s)", (unsigned)c->alphaMode,
             caps->alphaModeCount > 1 ? " or Premultiplied" : "");
    bool present_ok = c->presentMode == WGPUPresentMode_Undefined;
    for (size_t i = 0; i < caps->presentModeCount; i++)
        present_ok |= caps->presentModes[i] == c->presentMode;
    EG_CHECK(v, present_ok, SURFACE_PRESENT_MODE, "config.presentMode 0x%x is not supported by "
             "this surface (Undefined or one of the %u presentModes of wgpuSurfaceGetCapabilities, "
             "first 0x%x)", (unsigned)c->presentMode, (unsigned)caps->presentModeCount,
             (unsigned)caps->presentModes[0]);
    return true;
}

static bool validate_size(const eg_vctx_t *v, const eg_surface_t *s, const WGPUSurfaceConfiguration *c)
{
    uint32_t max2d = v->device->limits.maxTextureDimension2D;
    EG_CHECK(v, c->width && c->height, SURFACE_SIZE, "config size %ux%u has a zero dimension",
             (unsigned)c->width, (unsigned)c->height);
    EG_CHECK(v, c->width <= max2d && c->height <= max2d, SURFACE_SIZE,
             "config size %ux%u exceeds maxTextureDimension2D (%u)", (unsigned)c->width,
             (unsigned)c->height, (unsigned)max2d);
    /* No scaler: a frame is shown 1:1 at the panel's top-left corner. */
    EG_CHECK(v, c->width <= s->target.width_px && c->height <= s->target.height_px, SURFACE_SIZE,
             "config size %ux%u is larger than the panel (%ux%u)", (unsigned)c->width,
             (unsigned)c->height, (unsigned)s->target.width_px, (unsigned)s->target.height_px);
    return true;
}

/* Zero copy needs the texture's bytes to be the panel's: same layout, same row length (soft
 * textures have no row padding), and memory the CPU can render into. */
static bool zero_copy_possible(const eg_surface_t *s, const struct WGPUDeviceImpl *dev,
                               WGPUTextureFormat format, uint32_t width_px)
{
    const eg_surface_target_t *t = &s->target;
    return t->framebuffer && dev->hal->texture_wrap && format == eg_panel_format_texture(t->format) &&
           (uint64_t)width_px * eg_panel_format_bytes(t->format) == t->stride_B;
}

static void drop_config(eg_surface_t *s)
{
    if (s->swapchain) s->device->hal->window_unconfigure(s->device->hal_dev, s->swapchain);
    s->swapchain = NULL;
    s->native = false;
    if (s->device) eg_device_unref(s->device);
    s->device = NULL;
    s->state = EG_SURFACE_UNCONFIGURED;
}

/* Native swapchains. webgpu-headers wgpuSurfaceConfigure: the configuration must be within the
 * capabilities; Vulkan VUID-VkSwapchainCreateInfoKHR-imageExtent-01274 (imageExtent within
 * min/maxImageExtent, both equal to currentExtent, the window's size, on X11) fixes the size, and
 * VUID-VkImageViewCreateInfo-image-01762 (a view format other than the image's needs
 * MUTABLE_FORMAT, which our swapchains are not created with) rules out the sRGB view twin. */
static bool validate_native(const eg_vctx_t *v, const eg_surface_t *s, const WGPUSurfaceConfiguration *c,
                            WGPUTextureFormat srgb)
{
    uint32_t max2d = v->device->limits.maxTextureDimension2D;
    const eg_hal_window_caps_t *n = &s->native_caps;
    EG_CHECK(v, c->width && c->height && c->width <= max2d && c->height <= max2d, SURFACE_SIZE,
             "config size %ux%u has a zero dimension or exceeds maxTextureDimension2D (%u)",
             (unsigned)c->width, (unsigned)c->height, (unsigned)max2d);
    EG_CHECK(v, !n->extent_width_px || (c->width == n->extent_width_px && c->height == n->extent_height_px),
             SURFACE_SIZE, "config size %ux%u differs from the window's %ux%u, which the %s swapchain "
             "requires", (unsigned)c->width, (unsigned)c->height, (unsigned)n->extent_width_px,
             (unsigned)n->extent_height_px, v->device->hal->name);
    EG_CHECK(v, srgb == WGPUTextureFormat_Undefined, SURFACE_FORMAT, "config.viewFormats lists "
             "the sRGB twin of config.format, which a native swapchain image cannot be viewed as");
    return true;
}

static bool configure_native(eg_vctx_t *v, eg_surface_t *s)
{
    struct WGPUDeviceImpl *dev = s->device;
    eg_hal_window_t w = window_of(s);
    eg_hal_window_config_t cfg = { s->format, s->view_srgb_pair, s->usage, s->width_px, s->height_px,
                                   s->present_mode, s->alpha_mode };
    eg_status_t st = dev->hal->window_configure(dev->hal_dev, &w, &cfg, &s->swapchain);
    if (st != EG_STATUS_OK) {
        eg_fail_hal(v, st, "swapchain", 0);
        s->swapchain = NULL;
        drop_config(s);
        return false;
    }
    s->native = true;
    s->state = EG_SURFACE_CONFIGURED;
    eg_log(EG_LOG_INFO, "wgpuSurfaceConfigure: the %s backend presents to this %s natively "
           "(%s)", dev->hal->name, s->kind == EG_SURFACE_DRM ? "KMS output"
           : s->kind == EG_SURFACE_WAYLAND ? "Wayland surface" : "X11 window",
           s->kind == EG_SURFACE_WAYLAND ? "VK_KHR_wayland_surface swapchain"
           : dev->hal->backend == WGPUBackendType_Vulkan ? "VK_KHR_xlib_surface swapchain"
           : s->kind == EG_SURFACE_DRM ? "EGL window surface on a gbm_surface, page flips"
           : "EGL window surface");
    return true;
}

static bool configure(eg_vctx_t *v, eg_surface_t *s, const WGPUSurfaceConfiguration *c)
{
    if (!eg_handle_check(v, c->device, EG_KIND_DEVICE, "config.device", false)) return false;
    v->device = c->device;
    EG_CHECK(v, c->device->instance == s->instance, WRONG_DEVICE,
             "config.device belongs to another instance than the surface");
    EG_CHECK(v, s->state != EG_SURFACE_ACQUIRED, SURFACE_ALREADY_ACQUIRED,
             "the surface texture of the current frame was not presented yet (call "
             "wgpuSurfacePresent first)");
    drop_config(s);   /* a failed Configure leaves the surface unconfigured, as in the canvas spec */
    EG_CHECK(v, c->nextInChain == NULL, UNKNOWN_STYPE, "config.nextInChain: sType 0x%x is not "
             "accepted", (unsigned)c->nextInChain->sType);
    if (s->kind == EG_SURFACE_XLIB) {   /* the window may have been resized: take its size now */
        EG_CHECK(v, eg_port_xlib_refresh(&s->xlib), SURFACE_SOURCE, "the X11 window 0x%llx of "
                 "the surface cannot be queried any more (destroyed? see the log)",
                 (unsigned long long)s->xlib.window);
        eg_surface_xlib_target(s);
    }
    if (s->kind == EG_SURFACE_WAYLAND) eg_surface_wayland_size(s, c->width, c->height);
    WGPUSurfaceCapabilities caps = WGPU_SURFACE_CAPABILITIES_INIT;
    bool native = native_caps_of(s, c->device->hal, &c->device->info, &caps);
    EG_CHECK(v, native || c->device->hal->surface_present != NULL, SURFACE_UNSUPPORTED,
             "config.device runs on the %s backend, which cannot present to this surface",
             c->device->hal->name);
    if (!native) caps_of(s, &c->device->info, &caps);
    WGPUTextureFormat srgb = WGPUTextureFormat_Undefined;
    if (!validate_formats(v, c, &caps, &srgb) || !validate_modes(v, c, &caps) ||
        !(native ? validate_native(v, s, c, srgb) : validate_size(v, s, c)))
        return false;
    eg_object_ref(c->device);
    s->device = c->device;
    s->format = c->format;
    s->view_srgb_pair = srgb;
    s->usage = c->usage;
    s->width_px = c->width;
    s->height_px = c->height;
    s->alpha_mode = c->alphaMode == WGPUCompositeAlphaMode_Auto ? caps.alphaModes[0] : c->alphaMode;
    s->present_mode = c->presentMode == WGPUPresentMode_Undefined ? WGPUPresentMode_Fifo : c->presentMode;
    if (s->kind == EG_SURFACE_WAYLAND && !native && !eg_surface_wayland_configure(v, s)) {
        drop_config(s);
        return false;
    }
    s->zero_copy = !native && zero_copy_possible(s, c->device, c->format, c->width);
    if (native) return configure_native(v, s);
    if (!c->device->hal->texture_wrap)   /* a GPU backend: the frame lives in GPU memory */
        eg_log(EG_LOG_INFO, "wgpuSurfaceConfigure: the %s backend presents to this %s by copy (the "
               "frame is read back at each Present)%s", c->device->hal->name,
               s->kind == EG_SURFACE_XLIB ? "X11 window"
               : s->kind == EG_SURFACE_WAYLAND ? "Wayland surface" : "panel",
               s->kind == EG_SURFACE_XLIB || s->kind == EG_SURFACE_WAYLAND
               ? ": no native window surface" : "");
    s->state = EG_SURFACE_CONFIGURED;
    return true;
}

void wgpuSurfaceConfigure(WGPUSurface surface, WGPUSurfaceConfiguration const *config)
{
    if (!surface_live(surface, "wgpuSurfaceConfigure")) return;
    eg_vctx_t v = eg_vctx(NULL, "wgpuSurfaceConfigure", surface->obj.label);
    if (!config) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "config is NULL");
        return;
    }
    (void)configure(&v, surface, config);
}

void wgpuSurfaceUnconfigure(WGPUSurface surface)
{
    if (!surface_live(surface, "wgpuSurfaceUnconfigure")) return;
    if (surface->state == EG_SURFACE_ACQUIRED) {
        eg_vctx_t v = eg_vctx(surface->device, "wgpuSurfaceUnconfigure", surface->obj.label);
        eg_fail(&v, WGPUErrorType_Validation, EG_E_SURFACE_ALREADY_ACQUIRED, "the surface texture "
                "of the current frame was not presented yet (call wgpuSurfacePresent first)");
        return;
    }
    drop_config(surface);
}

/* ---- frames ---- */

static uint32_t texture_pool_index(const struct WGPUTextureImpl *t)
{
    return eg_pool_index(eg_pool_of(t, EG_KIND_TEXTURE), t);
}

/* Makes the frame's texture the way wgpuDeviceCreateTexture would (the configuration was
 * validated as its descriptor), but over the panel memory when zero copy applies. */
static struct WGPUTextureImpl *frame_texture(const eg_vctx_t *v, eg_surface_t *s, uint8_t *mem,
                                             uint32_t *frame)
{
    struct WGPUDeviceImpl *dev = s->device;
    struct WGPUTextureImpl *t = eg_object_alloc(v, dev, EG_KIND_TEXTURE);
    if (!t) return NULL;
    eg_memcpy(t->obj.label, s->obj.label, sizeof t->obj.label);
    t->fi = eg_format_info(s->format);
    t->usage = s->usage;
    t->dimension = WGPUTextureDimension_2D;
    t->size = (WGPUExtent3D){ s->width_px, s->height_px, 1 };
    t->format = s->format;
    t->mip_level_count = 1;
    t->sample_count = 1;
    t->view_srgb_pair = s->view_srgb_pair;
    size_t size_B = (size_t)s->width_px * s->height_px * t->fi->block_B;
    eg_status_t st = EG_STATUS_OK;
    if (s->native) {   /* the driver's next image: a status, not an error, when it has none */
        *frame = dev->hal->window_acquire(dev->hal_dev, s->swapchain, t);
        if (*frame != EG_HAL_FRAME_OPTIMAL && *frame != EG_HAL_FRAME_SUBOPTIMAL) {
            eg_object_free(t);
            return NULL;
        }
    } else if (!mem && s->target.strip && dev->hal->surface_band) {
        /* helper bin: a banded frame, no full-frame memory (hal.h surface_band) */
        const eg_surface_target_t *g = &s->target;
        eg_hal_present_t p = {
            .mem = NULL, .strip = g->strip, .stride_B = g->stride_B, .strip_rows = g->strip_rows,
            .width_px = s->width_px, .height_px = s->height_px, .format = g->format,
            .opaque = s->alpha_mode == WGPUCompositeAlphaMode_Opaque, .flush = g->flush,
            .flush_user = g->flush_user,
        };
        st = dev->hal->surface_band(dev->hal_dev, t, &p);
        t->banded = st == EG_STATUS_OK;
    } else {
        st = mem ? dev->hal->texture_wrap(dev->hal_dev, t, mem, size_B)
                 : dev->hal->texture_create(dev->hal_dev, t);
    }
    if (st != EG_STATUS_OK) {
        eg_fail_hal(v, st, "surface texture", size_B);
        eg_object_free(t);
        return NULL;
    }
    t->hal_live = true;
    eg_track_error_t err;
    if (eg_track_texture_register(dev->track, texture_pool_index(t), 1, 1, &err) != EG_TRACK_OK) {
        eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_POOL_FULL, "the tracker cannot hold the "
                "surface texture (status %d)", (int)err.status);
        if (mem) dev->hal->texture_unwrap(dev->hal_dev, t);
        if (s->native) dev->hal->window_release(dev->hal_dev, s->swapchain, t);
        dev->hal->texture_destroy(dev->hal_dev, t);
        eg_object_free(t);
        return NULL;
    }
    t->tracked = true;
    return t;
}

/* The fbdev screen to draw next: the one not shown when double buffered. */
static uint8_t *back_buffer(const eg_surface_t *s)
{
    if (s->kind == EG_SURFACE_DRM) return eg_port_drm_back(&s->drm);   /* kms */
    if (s->kind == EG_SURFACE_WAYLAND) return eg_port_wayland_back(&s->wayland);   /* wayland */
    if (s->kind != EG_SURFACE_FBDEV) return s->target.framebuffer;
    uint32_t back = s->fbdev.screens > 1 ? 1u - s->fbdev.shown : 0u;
    return s->fbdev.map + back * s->fbdev.screen_B;
}

/* A native acquire that gave no image, as webgpu.h's status (Outdated: configure again). */
static WGPUSurfaceGetCurrentTextureStatus native_status(const eg_vctx_t *v, uint32_t frame)
{
    switch (frame) {
    case EG_HAL_FRAME_OPTIMAL: case EG_HAL_FRAME_SUBOPTIMAL:   /* the texture object failed */
        return WGPUSurfaceGetCurrentTextureStatus_Error;
    case EG_HAL_FRAME_OUTDATED: return WGPUSurfaceGetCurrentTextureStatus_Outdated;
    case EG_HAL_FRAME_LOST: return WGPUSurfaceGetCurrentTextureStatus_Lost;
    case EG_HAL_FRAME_TIMEOUT: return WGPUSurfaceGetCurrentTextureStatus_Timeout;
    case EG_HAL_FRAME_DEVICE_LOST:
        eg_fail_hal(v, EG_STATUS_DEVICE_LOST, "swapchain image", 0);
        return WGPUSurfaceGetCurrentTextureStatus_Lost;
    default:
        eg_fail_hal(v, EG_STATUS_OUT_OF_MEMORY, "swapchain image", 0);
        return WGPUSurfaceGetCurrentTextureStatus_Error;
    }
}

static WGPUSurfaceGetCurrentTextureStatus acquire(eg_vctx_t *v, eg_surface_t *s,
                                                  struct WGPUTextureImpl **out)
{
    if (s->state == EG_SURFACE_UNCONFIGURED) {   /* no device yet: logged */
        eg_fail(v, WGPUErrorType_Validation, EG_E_SURFACE_NOT_CONFIGURED, "the surface is not "
                "configured (call wgpuSurfaceConfigure first)");
        return WGPUSurfaceGetCurrentTextureStatus_Error;
    }
    v->device = s->device;
    if (s->state == EG_SURFACE_ACQUIRED) {
        eg_fail(v, WGPUErrorType_Validation, EG_E_SURFACE_ALREADY_ACQUIRED, "the texture of the "
                "current frame was not presented yet (one GetCurrentTexture per Present)");
        return WGPUSurfaceGetCurrentTextureStatus_Error;
    }
    if (s->device->lost) return WGPUSurfaceGetCurrentTextureStatus_Lost;
    if (s->kind == EG_SURFACE_FBDEV && !eg_port_fbdev_mode_unchanged(&s->fbdev))
        return WGPUSurfaceGetCurrentTextureStatus_Outdated;
    if (s->kind == EG_SURFACE_XLIB && !eg_port_xlib_size_unchanged(&s->xlib))
        return WGPUSurfaceGetCurrentTextureStatus_Outdated;
    uint32_t frame = EG_HAL_FRAME_OPTIMAL;
    struct WGPUTextureImpl *t = frame_texture(v, s, s->zero_copy ? back_buffer(s) : NULL, &frame);
    if (!t) return native_status(v, frame);
    s->texture = t;
    s->state = EG_SURFACE_ACQUIRED;
    *out = t;
    if (s->native)
        return frame == EG_HAL_FRAME_SUBOPTIMAL ? WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal
                                                : WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal;
    /* Suboptimal: rendering works, but the panel's native format at its full width would skip
     * the conversion on every Present. */
    bool better = !s->zero_copy &&
                  zero_copy_possible(s, s->device, eg_panel_format_texture(s->target.format),
                                     s->target.width_px);
    return better ? WGPUSurfaceGetCurrentTextureStatus_SuccessSuboptimal
                  : WGPUSurfaceGetCurrentTextureStatus_SuccessOptimal;
}

void wgpuSurfaceGetCurrentTexture(WGPUSurface surface, WGPUSurfaceTexture *surfaceTexture)
{
    if (!surfaceTexture) {
        eg_log(EG_LOG_ERROR, "wgpuSurfaceGetCurrentTexture: surfaceTexture is NULL");
        return;
    }
    surfaceTexture->texture = NULL;
    surfaceTexture->status = WGPUSurfaceGetCurrentTextureStatus_Error;
    if (!surface_live(surface, "wgpuSurfaceGetCurrentTexture")) return;
    eg_vctx_t v = eg_vctx(NULL, "wgpuSurfaceGetCurrentTexture", surface->obj.label);
    struct WGPUTextureImpl *t = NULL;
    surfaceTexture->status = acquire(&v, surface, &t);
    if (!t) return;
    eg_object_ref(t);   /* webgpu.h: the texture is returned with ownership; the surface keeps one */
    surfaceTexture->texture = t;
}

/* Ends the frame: the texture is destroyed (later uses are errors) and the surface drops its
 * reference; the application's reference stays until it releases it. */
static void end_frame(eg_surface_t *s)
{
    struct WGPUTextureImpl *t = s->texture;
    struct WGPUDeviceImpl *dev = s->device;
    eg_surface_damage_frame_end(s, !t->obj.destroyed);   /* damage: partial updates */
    if (s->zero_copy && t->hal_live) dev->hal->texture_unwrap(dev->hal_dev, t);
    if (s->native && t->hal_live) dev->hal->window_release(dev->hal_dev, s->swapchain, t);
    wgpuTextureDestroy(t);
    wgpuTextureRelease(t);
    s->texture = NULL;
    s->state = EG_SURFACE_CONFIGURED;
}

/* Native: the tracker's state of the texture is where the transition to PRESENT starts; the
 * HAL queues the image after all submitted work. Outdated/Suboptimal still show the frame; the
 * next GetCurrentTexture reports them. */
static eg_status_t present_native(eg_surface_t *s)
{
    struct WGPUDeviceImpl *dev = s->device;
    struct WGPUTextureImpl *t = s->texture;
    uint16_t from = t->tracked ? eg_track_device_texture_state(dev->track, texture_pool_index(t), 0, 0)
                               : EG_TRACK_TEX_UNINITIALIZED;
    uint32_t r = dev->hal->window_present(dev->hal_dev, s->swapchain, t, from);
    if (r == EG_HAL_FRAME_DEVICE_LOST) return EG_STATUS_DEVICE_LOST;
    if (r == EG_HAL_FRAME_OUT_OF_MEMORY) return EG_STATUS_OUT_OF_MEMORY;
    return EG_STATUS_OK;
}

static eg_status_t present_frame(eg_surface_t *s)
{
    struct WGPUDeviceImpl *dev = s->device;
    struct WGPUTextureImpl *t = s->texture;
    if (s->native) return present_native(s);
    if (t->obj.last_submit > dev->completed_index) {
        dev->hal->wait_index(dev->hal_dev, t->obj.last_submit, UINT64_MAX);
        eg_device_poll(dev);
    }
    uint8_t *dst = back_buffer(s);
    const eg_surface_target_t *g = &s->target;
    eg_status_t st = EG_STATUS_OK;
    if (!s->zero_copy) {
        eg_hal_present_t p = {
            .mem = g->strip ? NULL : dst, .strip = g->strip, .stride_B = g->stride_B,
            .strip_rows = g->strip_rows, .width_px = s->width_px, .height_px = s->height_px,
            .format = g->format, .opaque = s->alpha_mode == WGPUCompositeAlphaMode_Opaque,
            .flush = g->flush, .flush_user = g->flush_user,
        };
        st = dev->hal->surface_present(dev->hal_dev, t, &p);
    }
    if (st == EG_STATUS_OK && !g->strip && g->flush) {   /* damage: the frame's damage only */
        eg_hal_rect_t r;
        eg_surface_damage_rect(s, &r);
        g->flush(g->flush_user, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0,
                 dst + (size_t)r.y0 * g->stride_B + (size_t)r.x0 * eg_panel_format_bytes(g->format),
                 g->stride_B);
    }
    if (st == EG_STATUS_OK && s->kind == EG_SURFACE_FBDEV)   /* pan, and flush deferred I/O (kms) */
        (void)eg_port_fbdev_show(&s->fbdev, s->fbdev.screens > 1 ? 1u - s->fbdev.shown : 0u);
    if (st == EG_STATUS_OK && s->kind == EG_SURFACE_DRM)   /* kms: flip (logged on failure) */
        (void)eg_port_drm_present(&s->drm);
    if (st == EG_STATUS_OK && s->kind == EG_SURFACE_WAYLAND)   /* helper wayland: commit */
        eg_surface_wayland_present(s);
    return st;
}

/* Spec: webgpu-headers wgpuSurfacePresent: "Returns Error if the surface doesn't have a current
 * texture"; wgpu-core adds the destroyed-texture case. */
WGPUStatus wgpuSurfacePresent(WGPUSurface surface)
{
    if (!surface_live(surface, "wgpuSurfacePresent")) return WGPUStatus_Error;
    eg_vctx_t v = eg_vctx(surface->device, "wgpuSurfacePresent", surface->obj.label);
    if (surface->state != EG_SURFACE_ACQUIRED) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_SURFACE_NOT_ACQUIRED, "the surface has no "
                "current texture (%s)", surface->state == EG_SURFACE_UNCONFIGURED ? "not configured"
                : "call wgpuSurfaceGetCurrentTexture first");
        return WGPUStatus_Error;
    }
    if (surface->texture->obj.destroyed) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_SURFACE_TEXTURE_DESTROYED, "the current texture "
                "was destroyed before Present; the frame is dropped");
        if (surface->native) (void)present_native(surface);   /* the image goes back to the driver */
        end_frame(surface);
        return WGPUStatus_Error;
    }
    eg_status_t st = present_frame(surface);
    end_frame(surface);
    if (st != EG_STATUS_OK) {
        eg_fail_hal(&v, st, "surface present", 0);
        return WGPUStatus_Error;
    }
    /* Not a device error: the window belongs to the application and may be gone already. */
    if (surface->kind == EG_SURFACE_XLIB && !surface->native &&
        !eg_port_xlib_show(&surface->xlib, surface->width_px, surface->height_px)) {
        eg_log(EG_LOG_ERROR, "wgpuSurfacePresent: the frame could not be put into X11 window "
               "0x%llx (see the log above)", (unsigned long long)surface->xlib.window);
        return WGPUStatus_Error;
    }
    return WGPUStatus_Success;
}

/* ---- labels and references ---- */

void wgpuSurfaceSetLabel(WGPUSurface surface, WGPUStringView label)
{
    if (surface_live(surface, "wgpuSurfaceSetLabel")) eg_object_set_label(&surface->obj, label);
}

void wgpuSurfaceAddRef(WGPUSurface surface)
{
    if (surface_live(surface, "wgpuSurfaceAddRef")) eg_object_ref(surface);
}

static void destroy_surface(void *object)
{
    eg_surface_t *s = object;
    if (s->state == EG_SURFACE_ACQUIRED) end_frame(s);
    drop_config(s);
    if (s->kind == EG_SURFACE_FBDEV) eg_port_fbdev_close(&s->fbdev);
    if (s->kind == EG_SURFACE_XLIB) eg_port_xlib_close(&s->xlib);
    if (s->kind == EG_SURFACE_DRM) eg_port_drm_close(&s->drm);   /* kms */
    if (s->kind == EG_SURFACE_WAYLAND) eg_port_wayland_close(&s->wayland);   /* helper wayland */
    eg_object_free(s);
}

void wgpuSurfaceRelease(WGPUSurface surface)
{
    if (surface_live(surface, "wgpuSurfaceRelease")) eg_object_unref(surface, destroy_surface);
}
