/* Surfaces: the Wayland source (WGPUSurfaceSourceWaylandSurface) presented through the port's wl_shm buffers.
 *
 * A wl_surface has no size of its own: the client decides it by the buffers it attaches. So the
 * configured size is the buffers' size (validate_size always passes the target size check), and
 * Configure (re)makes the port's two shm buffers: XRGB8888 for alphaMode Opaque, ARGB8888
 * (premultiplied, as wl_shm defines it) for Premultiplied, RGB565 for an EmgpuRGB565Unorm
 * configuration when the compositor lists that wl_shm format. BGRA8Unorm (or RGB565 on an RGB565
 * buffer) renders in place into the buffer on soft (zero copy); other formats and GPU backends
 * without a native path are converted / read back into it by Present. Present then attaches the
 * buffer, damages the frame's damage rectangle (wgpuSurfaceEmgpuSetDamage) with
 * wl_surface.damage_buffer and commits. Backends with a native Wayland swapchain (Vulkan:
 * VK_KHR_wayland_surface) take the HAL's window_* path instead (surface.c window_of).
 */
#include "kernel/api/surface.h"

#include "kernel/api/device.h"
#include "kernel/base/log.h"

/* Spec: webgpu.h WGPUSurfaceSourceWaylandSurface: "display: a wl_display for this Wayland
 * instance; surface: a wl_surface that is needed to create the surface". Both must be set; the
 * surface's role (xdg_toplevel, subsurface, ...) is the application's business. */
bool eg_surface_source_wayland(const eg_vctx_t *v, eg_surface_t *s, const WGPUSurfaceSourceWaylandSurface *src)
{
    EG_CHECK(v, src->display != NULL && src->surface != NULL, SURFACE_SOURCE,
             "WGPUSurfaceSourceWaylandSurface needs a display (wl_display_connect) and a surface "
             "(wl_compositor_create_surface) (display %p, surface %p)", src->display, src->surface);
    EG_CHECK(v, eg_port_wayland_open(src->display, src->surface, &s->wayland), SURFACE_SOURCE,
             "WGPUSurfaceSourceWaylandSurface surface %p cannot be used (see the log above)",
             src->surface);
    s->kind = EG_SURFACE_WAYLAND;
    s->target.format = WGPUEmgpuPanelFormat_ARGB8888;   /* capabilities: Opaque + Premultiplied */
    return true;
}

/* Configure, before validation: the buffers will have the configured size. */
void eg_surface_wayland_size(eg_surface_t *s, uint32_t width_px, uint32_t height_px)
{
    s->target.width_px = width_px;
    s->target.height_px = height_px;
    s->target.format = WGPUEmgpuPanelFormat_ARGB8888;
    s->target.framebuffer = NULL;
}

/* Configure, after validation (present by copy or soft): the buffers of the configuration. */
bool eg_surface_wayland_configure(const eg_vctx_t *v, eg_surface_t *s)
{
    WGPUEmgpuPanelFormat f = WGPUEmgpuPanelFormat_XRGB8888;
    if (s->alpha_mode == WGPUCompositeAlphaMode_Premultiplied) f = WGPUEmgpuPanelFormat_ARGB8888;
    else if (s->format == WGPUTextureFormat_EmgpuRGB565Unorm && s->wayland.rgb565)
        f = WGPUEmgpuPanelFormat_RGB565;
    bool remade = false;
    EG_CHECK(v, eg_port_wayland_configure(&s->wayland, s->width_px, s->height_px, (uint32_t)f, &remade),
             SURFACE_SOURCE, "the Wayland surface's %ux%u %s wl_shm buffers cannot be made (see the "
             "log above)", (unsigned)s->width_px, (unsigned)s->height_px, eg_panel_format_name(f));
    /* New buffers hold no earlier frame: the next frame is drawn whole whatever its damage. */
    if (remade) s->damage.history = false;
    s->target.format = f;
    s->target.stride_B = s->wayland.stride_B;
    s->target.framebuffer = s->wayland.map;   /* buffer 0; back_buffer picks the one to draw */
    return true;
}

/* Present (not native), after the frame is in the back buffer: attach, damage, commit. A failed
 * commit is the application's connection failing, not the device's: logged. */
void eg_surface_wayland_present(eg_surface_t *s)
{
    eg_hal_rect_t r;
    eg_surface_damage_rect(s, &r);
    if (!eg_port_wayland_present(&s->wayland, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0))
        eg_log(EG_LOG_ERROR, "wgpuSurfacePresent: the frame could not be committed to Wayland "
               "surface %p (see the log above)", s->wayland.surface);
}
