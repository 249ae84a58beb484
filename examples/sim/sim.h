/* Desktop simulator: a board's panel (size, format, strip height) shown in an X11 window at 1x-4x zoom.
 *
 * Firmware UI code presents to a WGPUEmgpuSurfaceSourceMemoryPanel: on the board, the panel's
 * framebuffer or strip buffer and its LCD driver's flush callback; on the desktop, the same
 * source filled by eg_sim_panel_source(), whose flush callback puts each finished rectangle into
 * the window (port/display.h eg_port_xlib_blit: converted from the panel format and zoomed in the
 * port's window image, no allocation). So the code between CreateSurface and Present is the
 * firmware's own, and the window shows what the panel would: RGB565 quantisation, strip order.
 *
 *     eg_sim_config_t cfg = eg_sim_config_default();   // EMGPU_SIM_* knobs
 *     cfg.zoom = 2;
 *     if (eg_sim_open(&cfg)) {
 *         WGPUEmgpuSurfaceSourceMemoryPanel src;
 *         eg_sim_panel_source(&src);
 *         WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
 *         sd.nextInChain = &src.chain;
 *         WGPUSurface s = wgpuInstanceCreateSurface(instance, &sd);
 *         ... configure, frames; while (eg_sim_poll()) ...
 *     }
 *
 * Xlib, not SDL2: see docs/displays.md "Desktop simulator". libX11 is opened at run time, so
 * programs link nothing new; without DISPLAY or libX11, eg_sim_open returns false and says why.
 * One simulator window per process (static state: the panel memory is a static array sized by
 * EMGPU_SIM_PANEL_W x EMGPU_SIM_PANEL_H x 4 bytes).
 */
#ifndef EMGPU_SIM_H
#define EMGPU_SIM_H

#include <emgpu/emgpu.h>

#include <stdbool.h>
#include <stdint.h>

typedef struct eg_sim_config {
    uint32_t width_px, height_px;   /* panel size; at most EMGPU_SIM_PANEL_W x EMGPU_SIM_PANEL_H */
    WGPUEmgpuPanelFormat format;    /* panel layout */
    uint32_t strip_rows;            /* 0: framebuffer mode; else strip mode with this many rows */
    uint32_t zoom;                  /* 1..4 window pixels per panel pixel */
    const char *title;              /* window title (NULL: "emgpu simulator") */
} eg_sim_config_t;

/** The EMGPU_SIM_* knobs of config/emgpu_config_defaults.h. */
eg_sim_config_t eg_sim_config_default(void);
/** Opens the display ($DISPLAY), creates and maps the window (width * zoom x height * zoom).
 *  false, with the reason on stderr, when there is no display, no libX11 or cfg is out of range. */
bool eg_sim_open(const eg_sim_config_t *cfg);
/** Fills src with the simulated panel: framebuffer or strip buffer, and the flush that shows it. */
void eg_sim_panel_source(WGPUEmgpuSurfaceSourceMemoryPanel *src);
/** Handles pending window events (repaints on Expose); false once the window was closed. */
bool eg_sim_poll(void);
/** The X11 Display * and Window, for tests that read the window back. */
void *eg_sim_display(void);
uint64_t eg_sim_window(void);
/** Flush callbacks received since eg_sim_open (strip mode: one per strip). */
uint32_t eg_sim_flush_count(void);
/** Destroys the window and closes the display. */
void eg_sim_close(void);

#endif /* EMGPU_SIM_H */
