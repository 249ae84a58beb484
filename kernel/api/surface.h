/* Surfaces: the Impl struct, its state machine, and the present descriptor that the HAL receives.
 *
 * STATE MACHINE (webgpu-headers "Surfaces", wgpu-core present.rs for the error cases):
 *
 *     UNCONFIGURED --Configure--> CONFIGURED --GetCurrentTexture--> ACQUIRED
 *          ^                        |   ^                               |
 *          +------Unconfigure-------+   +------------Present------------+
 *
 *   - Configure / Unconfigure in ACQUIRED is a validation error (SURFACE_ALREADY_ACQUIRED): the
 *     frame must be presented first. Configure in CONFIGURED replaces the configuration.
 *   - GetCurrentTexture in UNCONFIGURED gives status Error and no texture (logged: no device to
 *     report to); in ACQUIRED a validation error and status Error.
 *   - Present in any state but ACQUIRED returns WGPUStatus_Error (a validation error on the
 *     configured device when there is one). After Present the texture is destroyed: a later use
 *     is the usual DESTROYED_OBJECT error, and the application still owns a reference to Release.
 *   - Release of the surface in any state cleans up (the acquired texture, the device reference).
 *
 * SOURCES. A memory panel (framebuffer or strip buffer + flush, emgpu.h), a Linux fbdev device or
 * an X11 window (WGPUSurfaceSourceXlibWindow; port/display.h). All reduce to eg_surface_target_t:
 * where the native pixels go. An X11 window's target is the port's CPU image of the window, which
 * Present puts into the window; the window's size is re-read at Configure, and a resize since
 * then makes GetCurrentTexture return Outdated (webgpu-headers: "the surface must be
 * reconfigured").
 *
 * PRESENT PATHS for an X11 window (helper x11): (1) soft: zero copy or conversion into the port's
 * window image, then XPutImage; (2) a backend with the HAL's window_* entries (Vulkan): a native
 * swapchain, capabilities from the driver, GetCurrentTexture = acquire, Present = queue present;
 * (3) any other backend with surface_present: present by copy, i.e. read back into the window
 * image then XPutImage, logged at Configure. GLES (helper egl) takes path (2) when its adapter
 * was requested with compatibleSurface = this window (an EGL display on the window's Display,
 * eg_surface_probe_adapter), else path (3). Resize -> Outdated on all three.
 */
#ifndef EG_API_SURFACE_H
#define EG_API_SURFACE_H

#include <emgpu/emgpu.h>

#include "kernel/api/error.h"
#include "kernel/api/object.h"
#include "hal/hal.h"
#include "port/display.h"

/** What wgpuSurfacePresent hands to the HAL's surface_present: the destination in native pixels.
 *  Exactly one of mem (a framebuffer) and strip (strip mode, flush required) is set. */
typedef struct eg_hal_present {
    uint8_t *mem;                 /* row y of the frame at mem + y * stride_B */
    uint8_t *strip;               /* strip_rows rows of stride_B bytes, reused per strip */
    uint32_t stride_B;
    uint32_t strip_rows;
    uint32_t width_px, height_px; /* the configured size (<= the panel) */
    WGPUEmgpuPanelFormat format;  /* native layout of the destination */
    bool opaque;                  /* alphaMode Opaque: alpha/X bytes are written as 0xFF */
    WGPUEmgpuPanelFlushCallback flush;
    void *flush_user;
} eg_hal_present_t;

typedef enum eg_surface_state {
    EG_SURFACE_UNCONFIGURED = 0,
    EG_SURFACE_CONFIGURED,
    EG_SURFACE_ACQUIRED,
} eg_surface_state_t;

typedef enum eg_surface_kind {
    EG_SURFACE_MEMORY_PANEL = 1,
    EG_SURFACE_FBDEV,
    EG_SURFACE_XLIB,
    EG_SURFACE_DRM,                      /* DRM/KMS dumb buffers (kms) */
    EG_SURFACE_WAYLAND,                  /* wl_surface (helper wayland, surface_wayland.c) */
} eg_surface_kind_t;

/** Where native pixels go: a panel's memory, or the fbdev's current back buffer. */
typedef struct eg_surface_target {
    uint32_t width_px, height_px;
    WGPUEmgpuPanelFormat format;
    uint8_t *framebuffer;         /* NULL in strip mode */
    uint32_t stride_B;
    uint8_t *strip;
    uint32_t strip_rows;
    WGPUEmgpuPanelFlushCallback flush;
    void *flush_user;
} eg_surface_target_t;

/* (helper damage) Partial updates: kernel/api/surface_damage.c, docs/displays.md. */
typedef struct eg_surface_damage {
    eg_hal_rect_t cur;           /* this frame's damage as given to the HAL (valid when set) */
    eg_hal_rect_t prev;          /* the last presented frame's damage (valid when history) */
    eg_hal_rect_t own;           /* (helper wayland) this frame's damage as given, before prev is
                                  * added: prev must not accumulate, or one whole frame would make
                                  * every later frame of an age-2 surface whole */
    bool set, history;
    WGPUTextureFormat format;    /* the configuration prev belongs to */
    uint32_t width_px, height_px;
} eg_surface_damage_t;

struct WGPUSurfaceImpl {
    eg_object_t obj;                     /* first member; obj.device stays NULL (instance-level) */
    struct WGPUInstanceImpl *instance;
    eg_surface_kind_t kind;
    eg_surface_state_t state;
    eg_surface_target_t target;
    eg_port_fbdev_t fbdev;               /* kind FBDEV */
    eg_port_xlib_t xlib;                 /* kind XLIB */
    eg_port_drm_t drm;                   /* kind DRM (kms) */
    eg_port_wayland_t wayland;           /* kind WAYLAND (helper wayland) */
    /* Configuration (valid from CONFIGURED on). The surface holds a reference on device. */
    struct WGPUDeviceImpl *device;
    WGPUTextureFormat format;
    WGPUTextureFormat view_srgb_pair;    /* viewFormats' sRGB twin of format, or Undefined */
    WGPUTextureUsage usage;
    uint32_t width_px, height_px;
    WGPUCompositeAlphaMode alpha_mode;
    WGPUPresentMode present_mode;
    bool zero_copy;                      /* textures are the target's memory itself */
    /* ACQUIRED: the texture handed out; the surface holds one reference on it. */
    struct WGPUTextureImpl *texture;
    /* Native swapchain (helper x11): an X11 window on a backend with the HAL's window_* entries
     * (Vulkan). Frames are the driver's images; Present queues them, no copy. native_caps holds
     * the arrays of the last GetCapabilities/Configure (valid until the surface is released). */
    bool native;
    struct eg_hal_swapchain *swapchain;
    eg_hal_window_caps_t native_caps;
    eg_surface_damage_t damage;          /* (helper damage) partial updates */
};
typedef struct WGPUSurfaceImpl eg_surface_t;

/** helper egl: the adapter probe of wgpuInstanceRequestAdapter. With options->compatibleSurface
 *  an X11 window and a backend with probe_window, the adapter is bound to the window's display
 *  (GLES: native EGL window surfaces); otherwise, or when that fails (logged), hal->probe(0). */
eg_status_t eg_surface_probe_adapter(const eg_hal_ops_t *hal, const WGPURequestAdapterOptions *options,
                                     eg_device_info_t *info);

/* (helper damage) kernel/api/surface_damage.c. The rectangle Present flushes (the whole
 * configured area unless the frame has a damage); and the end of a frame (presented or
 * dropped), called before the frame's texture is destroyed. */
void eg_surface_damage_rect(const struct WGPUSurfaceImpl *s, eg_hal_rect_t *r);
void eg_surface_damage_frame_end(struct WGPUSurfaceImpl *s, bool presented);

/** Bytes per pixel of a panel format (2 or 4); 0 for Undefined or an unknown value. */
uint32_t eg_panel_format_bytes(WGPUEmgpuPanelFormat f);
/** The texture format whose bytes equal the panel layout, or Undefined (BGR565, RGB565BE). */
WGPUTextureFormat eg_panel_format_texture(WGPUEmgpuPanelFormat f);
/** "RGB565", "XRGB8888", ... for messages. */
const char *eg_panel_format_name(WGPUEmgpuPanelFormat f);

/** Points the surface's target at its Xlib window image (surface_source.c; Configure re-reads
 *  the window's size and calls it again). */
void eg_surface_xlib_target(eg_surface_t *s);

/* (helper wayland) kernel/api/surface_wayland.c: the WGPUSurfaceSourceWaylandSurface source;
 * Configure sets the target's size before validation and makes the buffers after it (not
 * native); Present commits the frame (not native). */
bool eg_surface_source_wayland(const eg_vctx_t *v, eg_surface_t *s, const WGPUSurfaceSourceWaylandSurface *src);
void eg_surface_wayland_size(eg_surface_t *s, uint32_t width_px, uint32_t height_px);
bool eg_surface_wayland_configure(const eg_vctx_t *v, eg_surface_t *s);
void eg_surface_wayland_present(eg_surface_t *s);

#endif /* EG_API_SURFACE_H */
