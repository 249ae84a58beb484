/* Desktop simulator: the board's panel in an X11 window (see sim.h); Xlib opened at run time. */
#define _POSIX_C_SOURCE 200809L
#include "examples/sim/sim.h"

#include "config/emgpu_config.h"
#include "port/display.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<X11/Xlib.h>)
#define SIM_HAVE_XLIB 1
#endif
#endif

#define SIM_MAX_PX ((size_t)EMGPU_SIM_PANEL_W * (size_t)EMGPU_SIM_PANEL_H)

eg_sim_config_t eg_sim_config_default(void)
{
    eg_sim_config_t c = { EMGPU_SIM_PANEL_W, EMGPU_SIM_PANEL_H,
                          (WGPUEmgpuPanelFormat)EMGPU_SIM_PANEL_FORMAT, EMGPU_SIM_STRIP_ROWS,
                          EMGPU_SIM_ZOOM, NULL };
    return c;
}

#if !defined(SIM_HAVE_XLIB)

bool eg_sim_open(const eg_sim_config_t *cfg)
{
    (void)cfg;
    fprintf(stderr, "sim: built without <X11/Xlib.h> (libx11-dev): no simulator window\n");
    return false;
}
void eg_sim_panel_source(WGPUEmgpuSurfaceSourceMemoryPanel *src) { (void)src; }
bool eg_sim_poll(void) { return false; }
void *eg_sim_display(void) { return NULL; }
uint64_t eg_sim_window(void) { return 0; }
uint32_t eg_sim_flush_count(void) { return 0; }
void eg_sim_close(void) {}

#else

#include <X11/Xlib.h>
#include <X11/Xutil.h>

static struct {
    Display *(*open_display)(const char *);
    int (*close_display)(Display *);
    Window (*create_simple_window)(Display *, Window, int, int, unsigned, unsigned, unsigned,
                                   unsigned long, unsigned long);
    int (*store_name)(Display *, Window, const char *);
    int (*select_input)(Display *, Window, long);
    int (*map_window)(Display *, Window);
    int (*destroy_window)(Display *, Window);
    Atom (*intern_atom)(Display *, const char *, Bool);
    Status (*set_wm_protocols)(Display *, Window, Atom *, int);
    int (*pending)(Display *);
    int (*next_event)(Display *, XEvent *);
    int (*sync)(Display *, Bool);
} xs;

/* The panel's memory: a framebuffer of the largest panel, or the first rows of it as the strip
 * buffer. Static, so the simulator allocates nothing. */
static uint32_t panel_mem[SIM_MAX_PX];

static struct {
    bool open, closed;
    eg_sim_config_t cfg;
    Display *dpy;
    Window win;
    Atom wm_delete;
    eg_port_xlib_t xlib;
    uint32_t flushes;
} sim;

static bool load_x11(void)
{
    static bool tried, ok;
    if (tried) return ok;
    tried = true;
    void *lib = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "sim: cannot load libX11.so.6 (package libx11-6)\n");
        return false;
    }
#define SYM(f, n) do { void *p_ = dlsym(lib, n); if (!p_) { fprintf(stderr, "sim: libX11 lacks %s\n", n); \
                       return false; } memcpy(&xs.f, &p_, sizeof p_); } while (0)
    SYM(open_display, "XOpenDisplay");
    SYM(close_display, "XCloseDisplay");
    SYM(create_simple_window, "XCreateSimpleWindow");
    SYM(store_name, "XStoreName");
    SYM(select_input, "XSelectInput");
    SYM(map_window, "XMapWindow");
    SYM(destroy_window, "XDestroyWindow");
    SYM(intern_atom, "XInternAtom");
    SYM(set_wm_protocols, "XSetWMProtocols");
    SYM(pending, "XPending");
    SYM(next_event, "XNextEvent");
    SYM(sync, "XSync");
#undef SYM
    ok = true;
    return true;
}

static bool config_ok(const eg_sim_config_t *c)
{
    const char *why = NULL;
    uint32_t bpp = c->format >= WGPUEmgpuPanelFormat_RGB565 && c->format <= WGPUEmgpuPanelFormat_RGB565BE ? 2
                 : c->format >= WGPUEmgpuPanelFormat_XRGB8888 && c->format <= WGPUEmgpuPanelFormat_ABGR8888 ? 4 : 0;
    if (!c->width_px || !c->height_px || c->width_px > EMGPU_SIM_PANEL_W || c->height_px > EMGPU_SIM_PANEL_H)
        why = "panel size is 0 or above EMGPU_SIM_PANEL_W x EMGPU_SIM_PANEL_H";
    else if (!bpp)
        why = "format is not a WGPUEmgpuPanelFormat";
    else if (c->zoom < 1 || c->zoom > EG_PORT_XLIB_MAX_ZOOM)
        why = "zoom is not 1..4";
    else if (c->strip_rows > c->height_px)
        why = "strip_rows is above the panel height";
    if (why)
        fprintf(stderr, "sim: panel %ux%u format %u zoom %u strip %u: %s\n", (unsigned)c->width_px,
                (unsigned)c->height_px, (unsigned)c->format, (unsigned)c->zoom,
                (unsigned)c->strip_rows, why);
    return why == NULL;
}

bool eg_sim_open(const eg_sim_config_t *cfg)
{
    if (sim.open) eg_sim_close();
    const char *display = getenv("DISPLAY");
    if (!config_ok(cfg)) return false;
    if (!display || !*display) {
        fprintf(stderr, "sim: DISPLAY is unset: no simulator window\n");
        return false;
    }
    if (!load_x11()) return false;
    memset(&sim, 0, sizeof sim);
    sim.cfg = *cfg;
    sim.dpy = xs.open_display(NULL);
    if (!sim.dpy) {
        fprintf(stderr, "sim: XOpenDisplay(\"%s\") failed\n", display);
        return false;
    }
    int scr = DefaultScreen(sim.dpy);
    sim.win = xs.create_simple_window(sim.dpy, RootWindow(sim.dpy, scr), 0, 0, cfg->width_px * cfg->zoom,
                                      cfg->height_px * cfg->zoom, 0, 0, 0);
    xs.store_name(sim.dpy, sim.win, cfg->title ? cfg->title : "emgpu simulator");
    xs.select_input(sim.dpy, sim.win, ExposureMask | StructureNotifyMask);
    sim.wm_delete = xs.intern_atom(sim.dpy, "WM_DELETE_WINDOW", False);
    xs.set_wm_protocols(sim.dpy, sim.win, &sim.wm_delete, 1);
    xs.map_window(sim.dpy, sim.win);
    xs.sync(sim.dpy, False);
    if (!eg_port_xlib_open(sim.dpy, (uint64_t)sim.win, &sim.xlib)) {
        fprintf(stderr, "sim: the window cannot be drawn into (see the log above)\n");
        xs.destroy_window(sim.dpy, sim.win);
        xs.close_display(sim.dpy);
        return false;
    }
    memset(panel_mem, 0, sizeof panel_mem);
    sim.open = true;
    return true;
}

/* The panel driver of the simulated board: every finished rectangle goes to the window. */
static void sim_flush(void *user, uint32_t x, uint32_t y, uint32_t w, uint32_t h, const void *pixels,
                      uint32_t stride_B)
{
    (void)user;
    if (!sim.open) return;
    sim.flushes++;
    eg_port_panel_rect_t r = { x, y, w, h, pixels, stride_B, (uint32_t)sim.cfg.format, sim.cfg.zoom };
    if (!eg_port_xlib_blit(&sim.xlib, &r))
        fprintf(stderr, "sim: the panel rectangle could not be shown (window gone?)\n");
}

void eg_sim_panel_source(WGPUEmgpuSurfaceSourceMemoryPanel *src)
{
    WGPUEmgpuSurfaceSourceMemoryPanel s = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
    s.width = sim.cfg.width_px;
    s.height = sim.cfg.height_px;
    s.format = sim.cfg.format;
    if (sim.cfg.strip_rows) {
        s.stripBuffer = panel_mem;
        s.stripHeight = sim.cfg.strip_rows;
    } else {
        s.framebuffer = panel_mem;
    }
    s.flush = sim_flush;
    *src = s;
}

bool eg_sim_poll(void)
{
    if (!sim.open) return false;
    while (!sim.closed && xs.pending(sim.dpy) > 0) {
        XEvent ev;
        xs.next_event(sim.dpy, &ev);
        if (ev.type == ClientMessage && (Atom)ev.xclient.data.l[0] == sim.wm_delete) sim.closed = true;
        else if (ev.type == DestroyNotify) sim.closed = true;
        else if (ev.type == Expose && ev.xexpose.count == 0)   /* the image still holds the frame */
            (void)eg_port_xlib_show(&sim.xlib, sim.xlib.width_px, sim.xlib.height_px);
    }
    return !sim.closed;
}

void *eg_sim_display(void) { return sim.dpy; }
uint64_t eg_sim_window(void) { return (uint64_t)sim.win; }
uint32_t eg_sim_flush_count(void) { return sim.flushes; }

void eg_sim_close(void)
{
    if (!sim.open) return;
    eg_port_xlib_close(&sim.xlib);
    xs.destroy_window(sim.dpy, sim.win);
    xs.close_display(sim.dpy);
    sim.open = false;
}

#endif
