/* The port's display services: Linux framebuffer devices (fbdev) and X11 windows (Xlib) behind plain C types.
 *
 * Optional like the rest of the port: a port without fbdev or X11 (bare metal) returns false from
 * eg_port_fbdev_open / eg_port_xlib_open after logging why, and wgpuInstanceCreateSurface
 * reports that. libX11 is loaded at run time (eg_port_lib_open), never linked. Memory panels
 * (framebuffer or strip + flush) need nothing from the port: the board passes its memory and its
 * flush callback through emgpu.h.
 *
 * Formats are WGPUEmgpuPanelFormat values (emgpu.h), kept as uint32_t here so that the port does
 * not depend on the API headers.
 */
#ifndef EG_PORT_DISPLAY_H
#define EG_PORT_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** An open framebuffer device. Screen i (0 or 1) starts at map + i * screen_B; with two screens
 *  (yres_virtual >= 2 * yres and panning works) the one not shown is drawn while the other is
 *  scanned out. */
typedef struct eg_port_fbdev {
    int      fd;                 /* -1 when closed */
    uint8_t *map;                /* mmap of the whole device memory */
    size_t   map_B;
    uint32_t width_px, height_px;/* visible resolution (xres, yres) */
    uint32_t stride_B;           /* line_length */
    size_t   screen_B;           /* stride_B * height_px: one screen */
    uint32_t format;             /* WGPUEmgpuPanelFormat of the mode */
    uint32_t screens;            /* 1, or 2 for panning double buffering */
    uint32_t shown;              /* index of the screen being scanned out */
} eg_port_fbdev_t;

/** Opens and maps the device at path (e.g. "/dev/fb0"): reads the mode (FBIOGET_VSCREENINFO,
 *  FBIOGET_FSCREENINFO), accepts 16 bpp 5:6:5 and 32 bpp 8:8:8 packed-pixel layouts, and turns on
 *  double buffering when the virtual height allows two screens and a pan to each succeeds.
 *  false (after logging the path and the reason) when absent, unsupported or not on this port. */
bool eg_port_fbdev_open(const char *path, eg_port_fbdev_t *fb);
/** Shows screen `index` (FBIOPAN_DISPLAY when there are two) and flushes deferred I/O (fsync);
 *  false when the pan failed. Present calls it for every frame. */
bool eg_port_fbdev_show(eg_port_fbdev_t *fb, uint32_t index);
/** True when the device's mode is still the one read at open (size, depth, layout): a mode
 *  change (fbset) makes the surface Outdated. */
bool eg_port_fbdev_mode_unchanged(const eg_port_fbdev_t *fb);
/** Unmaps and closes; safe on a closed one. */
void eg_port_fbdev_close(eg_port_fbdev_t *fb);

/** An X11 window shown through XPutImage (the desktop simulator). The application owns the
 *  Display connection and the window; the port owns a CPU image of the window's size in the
 *  window's 32-bit TrueColor layout (pixels, stride_B = width_px * 4), mapped with mmap. */
typedef struct eg_port_xlib {
    void    *display;            /* Display * of the application */
    uint64_t window;             /* Window (XID) */
    void    *visual;             /* Visual * of the window */
    void    *gc;                 /* GC created on the window */
    uint32_t depth;              /* 24 or 32 */
    uint32_t width_px, height_px;/* window size when the image was (re)made */
    uint32_t stride_B;
    uint32_t format;             /* WGPUEmgpuPanelFormat: XRGB8888 or XBGR8888 */
    uint8_t *pixels;             /* width_px x height_px image, NULL when closed */
    size_t   pixels_B;
} eg_port_xlib_t;

/** Loads libX11 (once), checks that window is a live window on display with a 24/32-bit
 *  TrueColor visual whose channels are bytes, and makes the image at the window's size.
 *  false (after logging the reason: no libX11, NULL display, bad window, visual) otherwise. */
bool eg_port_xlib_open(void *display, uint64_t window, eg_port_xlib_t *x);
/** Re-reads the window size and remakes the image when it changed (Configure). */
bool eg_port_xlib_refresh(eg_port_xlib_t *x);
/** True when the window still has the size of the image (a resize makes the surface Outdated). */
bool eg_port_xlib_size_unchanged(const eg_port_xlib_t *x);
/** Puts the top-left width_px x height_px of the image into the window and waits until the
 *  server has it (XSync), so a later XGetImage sees the frame. */
bool eg_port_xlib_show(eg_port_xlib_t *x, uint32_t width_px, uint32_t height_px);
/** Frees the image and the GC (the display and the window stay the application's). */
void eg_port_xlib_close(eg_port_xlib_t *x);

/* ---- the desktop simulator's panel (helper x11): a board panel shown in an X11 window ---- */

#define EG_PORT_XLIB_MAX_ZOOM 4u

/** A rectangle of a panel's native pixels, as a panel flush callback receives it. */
typedef struct eg_port_panel_rect {
    uint32_t x, y, width_px, height_px;  /* in panel pixels */
    const void *pixels;                  /* row r at (const uint8_t *)pixels + r * stride_B */
    uint32_t stride_B;
    uint32_t format;                     /* WGPUEmgpuPanelFormat of the pixels */
    uint32_t zoom;                       /* 1..EG_PORT_XLIB_MAX_ZOOM window pixels per panel pixel */
} eg_port_panel_rect_t;

/** Converts the rectangle into the window's image at (x * zoom, y * zoom), every panel pixel a
 *  zoom x zoom block (clipped to the window), then puts that part into the window (XPutImage +
 *  XSync). Runs in place in the port's image: no allocation. false when x is closed or the
 *  format/zoom is out of range. */
bool eg_port_xlib_blit(eg_port_xlib_t *x, const eg_port_panel_rect_t *r);

/* ---- DRM/KMS dumb buffers (Linux; appended by "kms") ----
 * A KMS output driven through raw ioctls on the card node with the kernel's uapi structs: no
 * libdrm (it allocates on every query, and the few ioctls needed here fit in a page of code).
 * Two dumb buffers are scanned out in turn (page flip, or a mode set where flips are refused),
 * so the buffer being drawn is never the one shown. */

#define EG_PORT_DRM_BUFFERS 2

/** What the surface source asks for; 0 fields mean "choose" (see eg_port_drm_open). */
typedef struct eg_port_drm_request {
    uint32_t connector_id;       /* 0: the first connected connector with modes */
    uint32_t crtc_id;            /* 0: the connector's current CRTC, else the first one usable */
    uint32_t width_px, height_px;/* 0: the connector's preferred mode */
    uint32_t format;             /* WGPUEmgpuPanelFormat: XRGB8888 or RGB565 */
} eg_port_drm_request_t;

/** An open KMS output with its dumb buffers mapped (buffer i at map[i], stride_B per row). */
typedef struct eg_port_drm {
    int      fd;                 /* -1 when closed */
    uint32_t connector_id, crtc_id;
    uint32_t width_px, height_px;
    uint32_t stride_B;
    uint32_t format;             /* WGPUEmgpuPanelFormat */
    uint32_t buffers;            /* 1 or 2 */
    uint32_t shown;              /* index of the buffer being scanned out */
    bool     page_flip;          /* DRM_IOCTL_MODE_PAGE_FLIP works (else SETCRTC per frame) */
    uint8_t *map[EG_PORT_DRM_BUFFERS];
    size_t   map_B;
    uint32_t handle[EG_PORT_DRM_BUFFERS], fb_id[EG_PORT_DRM_BUFFERS];
    uint32_t saved_fb_id;        /* the CRTC's state before open, restored by close */
    uint8_t  saved_mode[68];     /* struct drm_mode_modeinfo, opaque here */
    bool     saved_valid;
} eg_port_drm_t;

#if defined(__linux__)
/** Opens the card at path (e.g. "/dev/dri/card0"), picks the connector, mode and CRTC (req),
 *  makes and maps the dumb buffers (DRM_IOCTL_MODE_CREATE_DUMB, ADDFB2, MAP_DUMB), sets the
 *  mode showing buffer 0 (black) and checks whether page flips work. false (after logging the
 *  path and the reason) when absent, unsupported (format, mode) or not on this port. */
bool eg_port_drm_open(const char *path, const eg_port_drm_request_t *req, eg_port_drm_t *d);
/** The buffer to draw the next frame into: the one not shown when there are two. */
uint8_t *eg_port_drm_back(const eg_port_drm_t *d);
/** Shows the back buffer (page flip, waiting for its completion event, so the buffer shown
 *  before is free when this returns); with one buffer, reports it dirty (DRM_IOCTL_MODE_DIRTYFB)
 *  for drivers that copy from system memory. false (logged) when the kernel refused. */
bool eg_port_drm_present(eg_port_drm_t *d);
/** Restores the CRTC as it was, removes the framebuffers, unmaps and closes; safe when closed. */
void eg_port_drm_close(eg_port_drm_t *d);
#else
/* Ports without Linux KMS (bare metal, Windows): the source is refused at CreateSurface. */
static inline bool eg_port_drm_open(const char *path, const eg_port_drm_request_t *req,
                                    eg_port_drm_t *d)
{
    (void)path;
    (void)req;
    d->fd = -1;
    return false;
}
static inline uint8_t *eg_port_drm_back(const eg_port_drm_t *d) { (void)d; return NULL; }
static inline bool eg_port_drm_present(eg_port_drm_t *d) { (void)d; return false; }
static inline void eg_port_drm_close(eg_port_drm_t *d) { d->fd = -1; }
#endif

/* ---- scan-out of buffers made by a GPU driver (appended by "gbm": GLES through GBM) ----
 * The GLES backend renders into buffer objects of d's own card fd (a gbm_device on d->fd: the
 * fd that set the mode is the DRM master) and shows them on d's CRTC. Only one of the two paths
 * holds the CRTC at a time: the GBM path takes it at its first frame (first = true: SETCRTC) and
 * gives it back with eg_port_drm_show_dumb before it removes its framebuffers. */
#if defined(__linux__)
/** ADDFB2 for a buffer object of d's card (GEM handle, stride_B), d's size and format; the new
 *  framebuffer's id in *fb_id. false (logged) when the kernel refuses it. */
bool eg_port_drm_fb_add(eg_port_drm_t *d, uint32_t handle, uint32_t stride_B, uint32_t *fb_id);
/** RMFB; the framebuffer must not be scanned out any more (the CRTC would be turned off). */
void eg_port_drm_fb_remove(eg_port_drm_t *d, uint32_t fb_id);
/** Shows fb_id on d's CRTC in the mode open set: SETCRTC when first or where flips do not
 *  work, else a page flip, waiting for its completion event (so the buffer shown before is free
 *  when this returns). false (logged) when the kernel refused. */
bool eg_port_drm_show_fb(eg_port_drm_t *d, uint32_t fb_id, bool first);
/** Gives the CRTC back to the dumb buffer shown last (SETCRTC). */
bool eg_port_drm_show_dumb(eg_port_drm_t *d);
#else
static inline bool eg_port_drm_fb_add(eg_port_drm_t *d, uint32_t handle, uint32_t stride_B, uint32_t *fb_id)
{
    (void)d;
    (void)handle;
    (void)stride_B;
    (void)fb_id;
    return false;
}
static inline void eg_port_drm_fb_remove(eg_port_drm_t *d, uint32_t fb_id) { (void)d; (void)fb_id; }
static inline bool eg_port_drm_show_fb(eg_port_drm_t *d, uint32_t fb_id, bool first)
{
    (void)d;
    (void)fb_id;
    (void)first;
    return false;
}
static inline bool eg_port_drm_show_dumb(eg_port_drm_t *d) { (void)d; return false; }
#endif

/* ---- Wayland surfaces through wl_shm (appended by "wayland"; port/posix/display_wayland.c) ----
 * The application owns the wl_display connection and the wl_surface (with its role, e.g. an
 * xdg_toplevel); the port binds wl_shm on a private event queue (the application's events are
 * never dispatched here) and owns EG_PORT_WAYLAND_BUFFERS shm buffers of the configured size in
 * one memfd mapping. Frames alternate strictly between the buffers, so the buffer drawn is always
 * two frames old (buffer age 2); a buffer is drawn only after the compositor's wl_buffer.release.
 * libwayland-client is loaded at run time (eg_port_lib_open), never linked. */

#define EG_PORT_WAYLAND_BUFFERS 2

typedef struct eg_port_wayland {
    void    *display;            /* struct wl_display * of the application */
    void    *surface;            /* struct wl_surface * of the application */
    void    *queue, *wrapper;    /* private wl_event_queue, display wrapper on it */
    void    *registry, *shm, *pool;
    bool     rgb565;             /* wl_shm advertised WL_SHM_FORMAT_RGB565 */
    uint32_t surface_version;    /* wl_surface version: damage_buffer needs 4 */
    uint32_t width_px, height_px, stride_B;
    uint32_t format;             /* WGPUEmgpuPanelFormat of the buffers (0 before configure) */
    int      fd;                 /* memfd of the pool, -1 when none */
    uint8_t *map;                /* EG_PORT_WAYLAND_BUFFERS buffers, buffer_B apart */
    size_t   map_B, buffer_B;
    void    *buffer[EG_PORT_WAYLAND_BUFFERS];
    bool     busy[EG_PORT_WAYLAND_BUFFERS];   /* attached, no wl_buffer.release yet */
    uint32_t back;               /* the buffer the next frame is drawn into */
    uint32_t frames;             /* committed since configure (tests read it) */
} eg_port_wayland_t;

#if defined(__linux__)
/** Loads libwayland-client (once), binds wl_shm on a private queue and reads its formats (two
 *  round trips). false (after logging the reason) when the library, display, surface or wl_shm
 *  is missing. */
bool eg_port_wayland_open(void *display, void *surface, eg_port_wayland_t *w);
/** Makes the buffers for width x height in format (XRGB8888, ARGB8888 or RGB565 when rgb565);
 *  keeps them when nothing changed. *remade says whether the pixels were lost. */
bool eg_port_wayland_configure(eg_port_wayland_t *w, uint32_t width_px, uint32_t height_px,
                               uint32_t format, bool *remade);
/** The buffer to draw the next frame into, once the compositor has released it (dispatching
 *  the private queue for at most 1 s; after that the frame is drawn anyway, logged). */
uint8_t *eg_port_wayland_back(const eg_port_wayland_t *w);
/** Attaches the back buffer, damages (x, y, width, height) in buffer pixels (damage_buffer, or
 *  damage on wl_surface version < 4), commits and flushes; the other buffer becomes the back. */
bool eg_port_wayland_present(eg_port_wayland_t *w, uint32_t x, uint32_t y, uint32_t width_px,
                             uint32_t height_px);
/** Destroys the buffers, the pool and the private objects; the surface stays the application's. */
void eg_port_wayland_close(eg_port_wayland_t *w);
#else
static inline bool eg_port_wayland_open(void *display, void *surface, eg_port_wayland_t *w)
{
    (void)display;
    (void)surface;
    w->fd = -1;
    return false;
}
static inline bool eg_port_wayland_configure(eg_port_wayland_t *w, uint32_t width_px, uint32_t height_px,
                                             uint32_t format, bool *remade)
{
    (void)w;
    (void)width_px;
    (void)height_px;
    (void)format;
    *remade = false;
    return false;
}
static inline uint8_t *eg_port_wayland_back(const eg_port_wayland_t *w) { (void)w; return NULL; }
static inline bool eg_port_wayland_present(eg_port_wayland_t *w, uint32_t x, uint32_t y,
                                           uint32_t width_px, uint32_t height_px)
{
    (void)w;
    (void)x;
    (void)y;
    (void)width_px;
    (void)height_px;
    return false;
}
static inline void eg_port_wayland_close(eg_port_wayland_t *w) { w->fd = -1; }
#endif

#endif /* EG_PORT_DISPLAY_H */
