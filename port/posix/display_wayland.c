/* Wayland surfaces behind port/display.h: libwayland-client loaded at run time, frames in wl_shm buffers. */
#define _GNU_SOURCE 1   /* memfd_create */
#include "port/display.h"

#include "kernel/base/log.h"
#include "port/port.h"

#if defined(__has_include)
#if __has_include(<wayland-client-core.h>)
#define EG_HAVE_WAYLAND_H 1
#endif
#endif

#if defined(__linux__) && defined(EG_HAVE_WAYLAND_H)

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client-core.h>

/* WGPUEmgpuPanelFormat values (emgpu.h); the port does not include the API headers. */
enum { PANEL_RGB565 = 1, PANEL_XRGB8888 = 4, PANEL_ARGB8888 = 5 };

/* wl_shm formats and request/event opcodes, from wayland.xml (the core protocol: requests and
 * events are numbered in the order the XML lists them). The protocol header's inline wrappers
 * cannot be used: they reference the interface tables as link-time symbols of the library,
 * which is not linked; the tables are looked up with dlsym instead. */
#define SHM_ARGB8888 0u
#define SHM_XRGB8888 1u
#define SHM_RGB565 0x36314752u   /* fourcc 'RG16' */
enum { OP_DISPLAY_GET_REGISTRY = 1, OP_REGISTRY_BIND = 0, OP_SHM_CREATE_POOL = 0,
       OP_POOL_CREATE_BUFFER = 0, OP_POOL_DESTROY = 1, OP_BUFFER_DESTROY = 0,
       OP_SURFACE_ATTACH = 1, OP_SURFACE_DAMAGE = 2, OP_SURFACE_COMMIT = 6,
       OP_SURFACE_DAMAGE_BUFFER = 9 };
#define SURFACE_DAMAGE_BUFFER_SINCE 4u
#define RELEASE_WAIT_MS 1000

#define WL_SONAME "libwayland-client.so.0"

/* The entry points and interface tables the port uses, resolved once per process. The library
 * stays loaded: the application's wl_display lives in it. */
static struct {
    bool tried, ok;
    struct wl_proxy *(*marshal_flags)(struct wl_proxy *, uint32_t, const struct wl_interface *,
                                      uint32_t, uint32_t, ...);
    int (*add_listener)(struct wl_proxy *, void (**)(void), void *);
    uint32_t (*get_version)(struct wl_proxy *);
    void (*destroy)(struct wl_proxy *);
    void *(*create_wrapper)(void *);
    void (*wrapper_destroy)(void *);
    void (*set_queue)(struct wl_proxy *, struct wl_event_queue *);
    struct wl_event_queue *(*create_queue)(struct wl_display *);
    void (*queue_destroy)(struct wl_event_queue *);
    int (*roundtrip_queue)(struct wl_display *, struct wl_event_queue *);
    int (*dispatch_pending)(struct wl_display *, struct wl_event_queue *);
    int (*prepare_read)(struct wl_display *, struct wl_event_queue *);
    int (*read_events)(struct wl_display *);
    void (*cancel_read)(struct wl_display *);
    int (*flush)(struct wl_display *);
    int (*get_fd)(struct wl_display *);
    const struct wl_interface *registry_if, *shm_if, *pool_if, *buffer_if;
} wl;

static bool load_wayland(void)
{
    if (wl.tried) return wl.ok;
    wl.tried = true;
    void *lib = eg_port_lib_open(WL_SONAME);
    if (!lib) {
        eg_log(EG_LOG_ERROR, "wayland: cannot load %s (install the runtime package "
               "libwayland-client0)", WL_SONAME);
        return false;
    }
    /* ISO C has no void * -> function pointer conversion: copy the bytes. */
#define WL_SYM(field, name) \
    do { void *p_ = eg_port_lib_symbol(lib, name); if (!p_) goto missing; \
         memcpy(&wl.field, &p_, sizeof p_); } while (0)
    WL_SYM(marshal_flags, "wl_proxy_marshal_flags");   /* libwayland >= 1.20 */
    WL_SYM(add_listener, "wl_proxy_add_listener");
    WL_SYM(get_version, "wl_proxy_get_version");
    WL_SYM(destroy, "wl_proxy_destroy");
    WL_SYM(create_wrapper, "wl_proxy_create_wrapper");
    WL_SYM(wrapper_destroy, "wl_proxy_wrapper_destroy");
    WL_SYM(set_queue, "wl_proxy_set_queue");
    WL_SYM(create_queue, "wl_display_create_queue");
    WL_SYM(queue_destroy, "wl_event_queue_destroy");
    WL_SYM(roundtrip_queue, "wl_display_roundtrip_queue");
    WL_SYM(dispatch_pending, "wl_display_dispatch_queue_pending");
    WL_SYM(prepare_read, "wl_display_prepare_read_queue");
    WL_SYM(read_events, "wl_display_read_events");
    WL_SYM(cancel_read, "wl_display_cancel_read");
    WL_SYM(flush, "wl_display_flush");
    WL_SYM(get_fd, "wl_display_get_fd");
    WL_SYM(registry_if, "wl_registry_interface");
    WL_SYM(shm_if, "wl_shm_interface");
    WL_SYM(pool_if, "wl_shm_pool_interface");
    WL_SYM(buffer_if, "wl_buffer_interface");
#undef WL_SYM
    wl.ok = true;
    return true;
missing:
    eg_log(EG_LOG_ERROR, "wayland: %s lacks an entry point the port needs (libwayland >= 1.20)",
           WL_SONAME);
    eg_port_lib_close(lib);
    return false;
}

static struct wl_proxy *px(void *p) { return (struct wl_proxy *)p; }

/* ---- listeners (run from the private queue only) ---- */

static void on_global(void *data, struct wl_proxy *registry, uint32_t name, const char *iface,
                      uint32_t version)
{
    eg_port_wayland_t *w = data;
    if (w->shm || strcmp(iface, "wl_shm") != 0) return;
    (void)version;   /* version 1 has all this file uses */
    w->shm = wl.marshal_flags(registry, OP_REGISTRY_BIND, wl.shm_if, 1, 0, name, wl.shm_if->name,
                              1u, NULL);
}

static void on_global_remove(void *data, struct wl_proxy *registry, uint32_t name)
{
    (void)data;
    (void)registry;
    (void)name;
}

static void on_shm_format(void *data, struct wl_proxy *shm, uint32_t format)
{
    eg_port_wayland_t *w = data;
    (void)shm;
    if (format == SHM_RGB565) w->rgb565 = true;
}

static void on_buffer_release(void *data, struct wl_proxy *buffer)
{
    (void)buffer;
    *(bool *)data = false;
}

static const struct { void (*global)(void *, struct wl_proxy *, uint32_t, const char *, uint32_t);
                      void (*global_remove)(void *, struct wl_proxy *, uint32_t); }
    registry_listener = { on_global, on_global_remove };
static const struct { void (*format)(void *, struct wl_proxy *, uint32_t); }
    shm_listener = { on_shm_format };
static const struct { void (*release)(void *, struct wl_proxy *); }
    buffer_listener = { on_buffer_release };

/* wl_proxy_add_listener takes the listener as an array of function pointers. */
#define LISTENER(l) ((void (**)(void))(void *)&(l))

bool eg_port_wayland_open(void *display, void *surface, eg_port_wayland_t *w)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    if (!display || !surface) {
        eg_log(EG_LOG_ERROR, "wayland: display %p / surface %p is NULL", display, surface);
        return false;
    }
    if (!load_wayland()) return false;
    w->display = display;
    w->surface = surface;
    w->surface_version = wl.get_version(px(surface));
    w->queue = wl.create_queue(display);
    w->wrapper = w->queue ? wl.create_wrapper(display) : NULL;
    if (!w->wrapper) {
        eg_log(EG_LOG_ERROR, "wayland: cannot make a private event queue");
        eg_port_wayland_close(w);
        return false;
    }
    wl.set_queue(px(w->wrapper), w->queue);
    w->registry = wl.marshal_flags(px(w->wrapper), OP_DISPLAY_GET_REGISTRY, wl.registry_if,
                                   wl.get_version(px(w->wrapper)), 0, NULL);
    if (w->registry) wl.add_listener(px(w->registry), LISTENER(registry_listener), w);
    /* First round trip: the globals (binds wl_shm); second: wl_shm's format events. */
    if (!w->registry || wl.roundtrip_queue(display, w->queue) < 0 || !w->shm ||
        wl.add_listener(px(w->shm), LISTENER(shm_listener), w) < 0 ||
        wl.roundtrip_queue(display, w->queue) < 0) {
        eg_log(EG_LOG_ERROR, "wayland: the compositor offers no wl_shm (or the connection failed)");
        eg_port_wayland_close(w);
        return false;
    }
    return true;
}

/* ---- buffers ---- */

static void free_buffers(eg_port_wayland_t *w)
{
    for (uint32_t i = 0; i < EG_PORT_WAYLAND_BUFFERS; i++) {
        if (w->buffer[i])
            wl.marshal_flags(px(w->buffer[i]), OP_BUFFER_DESTROY, NULL,
                             wl.get_version(px(w->buffer[i])), WL_MARSHAL_FLAG_DESTROY);
        w->buffer[i] = NULL;
        w->busy[i] = false;
    }
    if (w->pool)
        wl.marshal_flags(px(w->pool), OP_POOL_DESTROY, NULL, wl.get_version(px(w->pool)),
                         WL_MARSHAL_FLAG_DESTROY);
    w->pool = NULL;
    if (w->map) munmap(w->map, w->map_B);
    w->map = NULL;
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    w->format = 0;
}

static uint32_t shm_format_of(uint32_t panel_format)
{
    return panel_format == PANEL_RGB565 ? SHM_RGB565
         : panel_format == PANEL_ARGB8888 ? SHM_ARGB8888 : SHM_XRGB8888;
}

static bool make_buffers(eg_port_wayland_t *w, uint32_t width_px, uint32_t height_px, uint32_t format)
{
    uint32_t bpp = format == PANEL_RGB565 ? 2u : 4u;
    w->stride_B = width_px * bpp;
    w->buffer_B = (size_t)w->stride_B * height_px;
    w->map_B = w->buffer_B * EG_PORT_WAYLAND_BUFFERS;
    if (w->map_B > (size_t)INT32_MAX) {   /* wl_shm.create_pool's size is an int */
        eg_log(EG_LOG_ERROR, "wayland: %ux%u buffers exceed the 2 GiB of a wl_shm pool",
               (unsigned)width_px, (unsigned)height_px);
        return false;
    }
    w->fd = memfd_create("emgpu-wl-shm", MFD_CLOEXEC);
    if (w->fd < 0 || ftruncate(w->fd, (off_t)w->map_B) != 0) {
        eg_log(EG_LOG_ERROR, "wayland: cannot make a %lu-byte shared memory file (errno %d)",
               (unsigned long)w->map_B, errno);
        return false;
    }
    void *m = mmap(NULL, w->map_B, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, 0);
    if (m == MAP_FAILED) {
        eg_log(EG_LOG_ERROR, "wayland: cannot map %lu bytes (errno %d)", (unsigned long)w->map_B, errno);
        return false;
    }
    w->map = m;
    w->pool = wl.marshal_flags(px(w->shm), OP_SHM_CREATE_POOL, wl.pool_if, wl.get_version(px(w->shm)),
                               0, NULL, w->fd, (int32_t)w->map_B);
    for (uint32_t i = 0; w->pool && i < EG_PORT_WAYLAND_BUFFERS; i++) {
        w->buffer[i] = wl.marshal_flags(px(w->pool), OP_POOL_CREATE_BUFFER, wl.buffer_if,
                                        wl.get_version(px(w->pool)), 0, NULL,
                                        (int32_t)(w->buffer_B * i), (int32_t)width_px,
                                        (int32_t)height_px, (int32_t)w->stride_B,
                                        shm_format_of(format));
        if (!w->buffer[i] ||
            wl.add_listener(px(w->buffer[i]), LISTENER(buffer_listener), &w->busy[i]) < 0)
            return false;
    }
    w->width_px = width_px;
    w->height_px = height_px;
    w->format = format;
    return w->pool != NULL;
}

bool eg_port_wayland_configure(eg_port_wayland_t *w, uint32_t width_px, uint32_t height_px,
                               uint32_t format, bool *remade)
{
    *remade = false;
    w->frames = 0;
    if (w->map && w->width_px == width_px && w->height_px == height_px && w->format == format)
        return true;
    if (format == PANEL_RGB565 && !w->rgb565) {
        eg_log(EG_LOG_ERROR, "wayland: the compositor's wl_shm has no RGB565 format");
        return false;
    }
    *remade = true;
    free_buffers(w);
    w->back = 0;
    if (make_buffers(w, width_px, height_px, format) && wl.flush(w->display) >= 0) return true;
    eg_log(EG_LOG_ERROR, "wayland: cannot make %u wl_shm buffers of %ux%u", EG_PORT_WAYLAND_BUFFERS,
           (unsigned)width_px, (unsigned)height_px);
    free_buffers(w);
    return false;
}

/* Reads what the compositor sent to the private queue, waiting at most timeout_ms for it. */
static bool dispatch(const eg_port_wayland_t *w, int timeout_ms)
{
    struct wl_display *d = w->display;
    while (wl.prepare_read(d, w->queue) != 0)
        if (wl.dispatch_pending(d, w->queue) < 0) return false;
    wl.flush(d);
    struct pollfd p = { wl.get_fd(d), POLLIN, 0 };
    int n = poll(&p, 1, timeout_ms);
    if (n > 0) {
        if (wl.read_events(d) < 0) return false;
    } else {
        wl.cancel_read(d);
    }
    return wl.dispatch_pending(d, w->queue) >= 0;
}

uint8_t *eg_port_wayland_back(const eg_port_wayland_t *w)
{
    if (!w->map) return NULL;
    uint32_t b = w->back;
    /* Fifo-like: the compositor may still read the buffer; one 1 s wait in 20 ms steps. */
    for (int waited_ms = 0; w->busy[b] && waited_ms < RELEASE_WAIT_MS; waited_ms += 20)
        if (!dispatch(w, 20)) break;
    if (w->busy[b])   /* busy stays set; present sets it again anyway */
        eg_log(EG_LOG_WARN, "wayland: the compositor kept wl_buffer %u for %d ms; drawing into it "
               "anyway", (unsigned)b, RELEASE_WAIT_MS);
    return w->map + w->buffer_B * b;
}

bool eg_port_wayland_present(eg_port_wayland_t *w, uint32_t x, uint32_t y, uint32_t width_px,
                             uint32_t height_px)
{
    if (!w->map) return false;
    uint32_t b = w->back;
    struct wl_proxy *s = px(w->surface);
    uint32_t v = w->surface_version;
    wl.marshal_flags(s, OP_SURFACE_ATTACH, NULL, v, 0, px(w->buffer[b]), 0, 0);
    /* Buffer and surface coordinates agree while the application keeps scale 1 and no
     * transform; damage_buffer (version 4) is right either way. */
    wl.marshal_flags(s, v >= SURFACE_DAMAGE_BUFFER_SINCE ? OP_SURFACE_DAMAGE_BUFFER : OP_SURFACE_DAMAGE,
                     NULL, v, 0, (int32_t)x, (int32_t)y, (int32_t)width_px, (int32_t)height_px);
    wl.marshal_flags(s, OP_SURFACE_COMMIT, NULL, v, 0);
    w->busy[b] = true;
    w->back = (b + 1u) % EG_PORT_WAYLAND_BUFFERS;
    w->frames++;
    if (wl.flush(w->display) < 0 && errno != EAGAIN) {
        eg_log(EG_LOG_ERROR, "wayland: the connection to the compositor failed (errno %d)", errno);
        return false;
    }
    return true;
}

void eg_port_wayland_close(eg_port_wayland_t *w)
{
    if (!wl.ok || !w->display) {
        w->fd = -1;
        return;
    }
    free_buffers(w);
    if (w->shm) wl.destroy(px(w->shm));   /* wl_shm version 1 has no release request */
    if (w->registry) wl.destroy(px(w->registry));
    if (w->wrapper) wl.wrapper_destroy(w->wrapper);
    wl.flush(w->display);
    if (w->queue) wl.queue_destroy(w->queue);
    memset(w, 0, sizeof *w);
    w->fd = -1;
}

#elif defined(__linux__)   /* no <wayland-client-core.h> at build time: stubs that say so */

bool eg_port_wayland_open(void *display, void *surface, eg_port_wayland_t *w)
{
    (void)display;
    (void)surface;
    w->fd = -1;
    eg_log(EG_LOG_ERROR, "wayland: this build has no Wayland support (built without "
           "<wayland-client-core.h>: install libwayland-dev and rebuild)");
    return false;
}

bool eg_port_wayland_configure(eg_port_wayland_t *w, uint32_t width_px, uint32_t height_px,
                               uint32_t format, bool *remade)
{
    (void)w;
    (void)width_px;
    (void)height_px;
    (void)format;
    *remade = false;
    return false;
}

uint8_t *eg_port_wayland_back(const eg_port_wayland_t *w)
{
    (void)w;
    return NULL;
}

bool eg_port_wayland_present(eg_port_wayland_t *w, uint32_t x, uint32_t y, uint32_t width_px,
                             uint32_t height_px)
{
    (void)w;
    (void)x;
    (void)y;
    (void)width_px;
    (void)height_px;
    return false;
}

void eg_port_wayland_close(eg_port_wayland_t *w)
{
    w->fd = -1;
}

#endif
