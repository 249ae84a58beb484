/* The port's display services: Linux framebuffer devices (fbdev) behind plain C types.
 *
 * Optional like the rest of the port: a port without fbdev (bare metal) returns false from
 * eg_port_fbdev_open after logging why, and wgpuInstanceCreateSurface reports that. Memory panels
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
/** Shows screen `index` (FBIOPAN_DISPLAY); false when the pan failed. */
bool eg_port_fbdev_show(eg_port_fbdev_t *fb, uint32_t index);
/** True when the device's mode is still the one read at open (size, depth, layout): a mode
 *  change (fbset) makes the surface Outdated. */
bool eg_port_fbdev_mode_unchanged(const eg_port_fbdev_t *fb);
/** Unmaps and closes; safe on a closed one. */
void eg_port_fbdev_close(eg_port_fbdev_t *fb);

#endif /* EG_PORT_DISPLAY_H */
