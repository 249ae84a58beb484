/* X11 windows behind port/display.h: libX11 loaded at run time, frames shown with XPutImage. */
#define _POSIX_C_SOURCE 200809L
#include "port/display.h"

#include "kernel/base/log.h"
#include "port/port.h"

#if defined(__has_include)
#if __has_include(<X11/Xlib.h>)
#define EG_HAVE_XLIB_H 1
#endif
#endif

#if defined(EG_HAVE_XLIB_H)

#include <string.h>
#include <sys/mman.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

/* WGPUEmgpuPanelFormat values (emgpu.h); the port does not include the API headers. */
enum { PANEL_RGB565 = 1, PANEL_BGR565 = 2, PANEL_RGB565BE = 3, PANEL_XRGB8888 = 4,
       PANEL_ARGB8888 = 5, PANEL_XBGR8888 = 6, PANEL_ABGR8888 = 7 };

#define XLIB_SONAME "libX11.so.6"

/* The few Xlib entry points the port uses, resolved once per process. libX11 stays loaded:
 * the application's Display lives in it. */
static struct {
    bool tried, ok;
    Status (*get_window_attributes)(Display *, Window, XWindowAttributes *);
    Status (*init_image)(XImage *);
    int (*put_image)(Display *, Drawable, GC, XImage *, int, int, int, int, unsigned, unsigned);
    GC (*create_gc)(Display *, Drawable, unsigned long, XGCValues *);
    int (*free_gc)(Display *, GC);
    int (*sync)(Display *, Bool);
    XErrorHandler (*set_error_handler)(XErrorHandler);
} xl;

static volatile int x_error_code;

static int on_x_error(Display *d, XErrorEvent *e)
{
    (void)d;
    x_error_code = e->error_code;
    return 0;
}

static bool load_xlib(void)
{
    if (xl.tried) return xl.ok;
    xl.tried = true;
    void *lib = eg_port_lib_open(XLIB_SONAME);
    if (!lib) {
        eg_log(EG_LOG_ERROR, "xlib: cannot load %s (install the runtime package libx11-6)",
               XLIB_SONAME);
        return false;
    }
    /* The casts go through void * because ISO C has no function-pointer conversion from dlsym. */
#define XL_SYM(field, name) \
    do { void *p_ = eg_port_lib_symbol(lib, name); if (!p_) goto missing; \
         memcpy(&xl.field, &p_, sizeof p_); } while (0)
    XL_SYM(get_window_attributes, "XGetWindowAttributes");
    XL_SYM(init_image, "XInitImage");
    XL_SYM(put_image, "XPutImage");
    XL_SYM(create_gc, "XCreateGC");
    XL_SYM(free_gc, "XFreeGC");
    XL_SYM(sync, "XSync");
    XL_SYM(set_error_handler, "XSetErrorHandler");
#undef XL_SYM
    xl.ok = true;
    return true;
missing:
    eg_log(EG_LOG_ERROR, "xlib: %s lacks an Xlib entry point", XLIB_SONAME);
    eg_port_lib_close(lib);
    return false;
}

/* Runs a round trip with errors caught instead of the default handler's exit(). */
static bool query(const eg_port_xlib_t *x, XWindowAttributes *a)
{
    Display *d = x->display;
    x_error_code = 0;
    XErrorHandler old = xl.set_error_handler(on_x_error);
    Status ok = xl.get_window_attributes(d, (Window)x->window, a);
    xl.sync(d, False);
    xl.set_error_handler(old);
    return ok && x_error_code == 0;
}

static void free_pixels(eg_port_xlib_t *x)
{
    if (x->pixels) munmap(x->pixels, x->pixels_B);
    x->pixels = NULL;
    x->pixels_B = 0;
}

static bool make_pixels(eg_port_xlib_t *x, uint32_t w, uint32_t h)
{
    free_pixels(x);
    x->width_px = w;
    x->height_px = h;
    x->stride_B = w * 4u;
    x->pixels_B = (size_t)x->stride_B * h;
    void *m = mmap(NULL, x->pixels_B, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        eg_log(EG_LOG_ERROR, "xlib: cannot map a %ux%u image (%lu bytes)", (unsigned)w, (unsigned)h,
               (unsigned long)x->pixels_B);
        x->pixels_B = 0;
        return false;
    }
    x->pixels = m;
    return true;
}

/* Only 32-bit pixels whose channels are whole bytes: then the image is a panel format and the
 * soft Present conversion (or zero copy) writes it without a new encoder. */
static uint32_t format_of(const XWindowAttributes *a)
{
    const Visual *v = a->visual;
    if ((a->depth != 24 && a->depth != 32) || !v || v->class != TrueColor) return 0;
    if (v->red_mask == 0xff0000ul && v->green_mask == 0xff00ul && v->blue_mask == 0xfful)
        return PANEL_XRGB8888;
    if (v->red_mask == 0xfful && v->green_mask == 0xff00ul && v->blue_mask == 0xff0000ul)
        return PANEL_XBGR8888;
    return 0;
}

bool eg_port_xlib_open(void *display, uint64_t window, eg_port_xlib_t *x)
{
    memset(x, 0, sizeof *x);
    if (!load_xlib()) return false;
    if (!display || !window) {
        eg_log(EG_LOG_ERROR, "xlib: display %p / window 0x%lx: both are needed (XOpenDisplay "
               "failed or no window was created?)", display, (unsigned long)window);
        return false;
    }
    x->display = display;
    x->window = window;
    XWindowAttributes a;
    if (!query(x, &a)) {
        eg_log(EG_LOG_ERROR, "xlib: window 0x%lx is not a window of this display (X error %d)",
               (unsigned long)window, x_error_code);
        return false;
    }
    x->format = format_of(&a);
    if (!x->format) {
        eg_log(EG_LOG_ERROR, "xlib: window 0x%lx has depth %d, visual class %d; only 24/32-bit "
               "TrueColor with 8-bit channels is supported (Xvfb: -screen 0 WxHx24)",
               (unsigned long)window, a.depth, a.visual ? a.visual->class : -1);
        return false;
    }
    x->visual = a.visual;
    x->depth = (uint32_t)a.depth;
    if (!make_pixels(x, (uint32_t)a.width, (uint32_t)a.height)) return false;
    x->gc = xl.create_gc(display, (Drawable)window, 0, NULL);
    if (!x->gc) {
        eg_log(EG_LOG_ERROR, "xlib: XCreateGC failed on window 0x%lx", (unsigned long)window);
        eg_port_xlib_close(x);
        return false;
    }
    return true;
}

bool eg_port_xlib_refresh(eg_port_xlib_t *x)
{
    XWindowAttributes a;
    if (!x->gc || !query(x, &a)) return false;
    if ((uint32_t)a.width == x->width_px && (uint32_t)a.height == x->height_px && x->pixels)
        return true;
    return make_pixels(x, (uint32_t)a.width, (uint32_t)a.height);
}

bool eg_port_xlib_size_unchanged(const eg_port_xlib_t *x)
{
    XWindowAttributes a;
    if (!x->gc || !query(x, &a)) return false;
    return (uint32_t)a.width == x->width_px && (uint32_t)a.height == x->height_px;
}

static bool put_rect(eg_port_xlib_t *x, uint32_t x0, uint32_t y0, uint32_t width_px, uint32_t height_px);

bool eg_port_xlib_show(eg_port_xlib_t *x, uint32_t width_px, uint32_t height_px)
{
    if (!x->gc || !x->pixels || width_px > x->width_px || height_px > x->height_px) return false;
    return put_rect(x, 0, 0, width_px, height_px);
}

/* Puts the image's rectangle at the same place in the window and waits for the server. */
static bool put_rect(eg_port_xlib_t *x, uint32_t x0, uint32_t y0, uint32_t width_px, uint32_t height_px)
{
    /* A caller-initialised XImage (XInitImage) over our memory: nothing for Xlib to allocate or
     * free. LSBFirst states our byte order; the server converts when its own differs. */
    XImage img;
    memset(&img, 0, sizeof img);
    img.width = (int)x->width_px;
    img.height = (int)x->height_px;
    img.format = ZPixmap;
    img.data = (char *)x->pixels;
    img.byte_order = LSBFirst;
    img.bitmap_unit = 32;
    img.bitmap_bit_order = LSBFirst;
    img.bitmap_pad = 32;
    img.depth = (int)x->depth;
    img.bytes_per_line = (int)x->stride_B;
    img.bits_per_pixel = 32;
    const Visual *v = x->visual;
    img.red_mask = v->red_mask;
    img.green_mask = v->green_mask;
    img.blue_mask = v->blue_mask;
    if (!xl.init_image(&img)) return false;
    x_error_code = 0;
    XErrorHandler old = xl.set_error_handler(on_x_error);
    xl.put_image(x->display, (Drawable)x->window, x->gc, &img, (int)x0, (int)y0, (int)x0, (int)y0,
                 width_px, height_px);
    xl.sync(x->display, False);
    xl.set_error_handler(old);
    if (x_error_code) eg_log(EG_LOG_ERROR, "xlib: XPutImage failed (X error %d)", x_error_code);
    return x_error_code == 0;
}

/* ---- the simulator's panel blit: native panel pixels -> window pixels, zoomed ---- */

/* One panel pixel as 8-bit R, G, B. 5/6-bit channels expand with rounding, (q * 255 + max / 2)
 * / max, the same rule as hal/soft's RGB565 decoder, so a panel shows what the texture held. */
static void panel_rgb(uint32_t fmt, const uint8_t *p, uint8_t rgb[3])
{
    uint32_t v = fmt == PANEL_RGB565BE ? (uint32_t)p[1] | (uint32_t)p[0] << 8
                                       : (uint32_t)p[0] | (uint32_t)p[1] << 8;
    switch (fmt) {
    case PANEL_RGB565BE: case PANEL_RGB565:
        rgb[0] = (uint8_t)(((v >> 11) * 255u + 15u) / 31u);
        rgb[1] = (uint8_t)((((v >> 5) & 63u) * 255u + 31u) / 63u);
        rgb[2] = (uint8_t)(((v & 31u) * 255u + 15u) / 31u);
        return;
    case PANEL_BGR565:
        rgb[2] = (uint8_t)(((v >> 11) * 255u + 15u) / 31u);
        rgb[1] = (uint8_t)((((v >> 5) & 63u) * 255u + 31u) / 63u);
        rgb[0] = (uint8_t)(((v & 31u) * 255u + 15u) / 31u);
        return;
    case PANEL_XRGB8888: case PANEL_ARGB8888:
        rgb[0] = p[2]; rgb[1] = p[1]; rgb[2] = p[0];
        return;
    default:   /* XBGR8888, ABGR8888 */
        rgb[0] = p[0]; rgb[1] = p[1]; rgb[2] = p[2];
        return;
    }
}

static uint32_t panel_px_B(uint32_t fmt)
{
    return fmt >= PANEL_RGB565 && fmt <= PANEL_RGB565BE ? 2u : 4u;
}

bool eg_port_xlib_blit(eg_port_xlib_t *x, const eg_port_panel_rect_t *r)
{
    if (!x->gc || !x->pixels || r->zoom < 1 || r->zoom > EG_PORT_XLIB_MAX_ZOOM ||
        r->format < PANEL_RGB565 || r->format > PANEL_ABGR8888)
        return false;
    uint32_t z = r->zoom, px_B = panel_px_B(r->format);
    /* Clip to the window: a window smaller than the zoomed panel shows its top-left part. */
    uint32_t x0 = r->x * z, y0 = r->y * z;
    if (x0 >= x->width_px || y0 >= x->height_px) return true;
    uint32_t w = r->width_px, h = r->height_px;
    if (w > (x->width_px - x0 + z - 1) / z) w = (x->width_px - x0 + z - 1) / z;
    if (h > (x->height_px - y0 + z - 1) / z) h = (x->height_px - y0 + z - 1) / z;
    bool xbgr = x->format == PANEL_XBGR8888;
    for (uint32_t row = 0; row < h; row++) {
        const uint8_t *src = (const uint8_t *)r->pixels + (size_t)row * r->stride_B;
        for (uint32_t dy = 0; dy < z && y0 + row * z + dy < x->height_px; dy++) {
            uint8_t *dst = x->pixels + (size_t)(y0 + row * z + dy) * x->stride_B;
            for (uint32_t col = 0; col < w; col++) {
                uint8_t rgb[3];
                panel_rgb(r->format, src + (size_t)col * px_B, rgb);
                for (uint32_t dx = 0; dx < z && x0 + col * z + dx < x->width_px; dx++) {
                    uint8_t *o = dst + (size_t)(x0 + col * z + dx) * 4u;
                    o[0] = xbgr ? rgb[0] : rgb[2];
                    o[1] = rgb[1];
                    o[2] = xbgr ? rgb[2] : rgb[0];
                    o[3] = 0xFF;
                }
            }
        }
    }
    uint32_t ww = w * z, wh = h * z;
    if (ww > x->width_px - x0) ww = x->width_px - x0;
    if (wh > x->height_px - y0) wh = x->height_px - y0;
    return put_rect(x, x0, y0, ww, wh);
}

void eg_port_xlib_close(eg_port_xlib_t *x)
{
    if (x->gc && xl.ok) xl.free_gc(x->display, x->gc);
    x->gc = NULL;
    free_pixels(x);
}

#else /* no X11 headers on this build machine */

bool eg_port_xlib_open(void *display, uint64_t window, eg_port_xlib_t *x)
{
    (void)display;
    (void)window;
    x->gc = NULL;
    x->pixels = NULL;
    eg_log(EG_LOG_ERROR, "xlib: this build has no X11 support (built without <X11/Xlib.h>; "
           "install libx11-dev and expose /usr/include/X11 to the build)");
    return false;
}
bool eg_port_xlib_refresh(eg_port_xlib_t *x) { (void)x; return false; }
bool eg_port_xlib_size_unchanged(const eg_port_xlib_t *x) { (void)x; return false; }
bool eg_port_xlib_show(eg_port_xlib_t *x, uint32_t width_px, uint32_t height_px)
{
    (void)x;
    (void)width_px;
    (void)height_px;
    return false;
}
bool eg_port_xlib_blit(eg_port_xlib_t *x, const eg_port_panel_rect_t *r)
{
    (void)x;
    (void)r;
    return false;
}
void eg_port_xlib_close(eg_port_xlib_t *x) { x->gc = NULL; x->pixels = NULL; }

#endif
