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

#endif /* EG_PORT_DISPLAY_H */
