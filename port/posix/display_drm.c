/* Linux DRM/KMS behind port/display.h: connector/mode/CRTC choice, two dumb buffers, page flips. */
#define _POSIX_C_SOURCE 200809L
#include "port/display.h"

#include "kernel/base/log.h"

/* The kernel's uapi structs, without libdrm: libdrm's drmModeGet* calls allocate on every query
 * (the runtime allocates nothing after init) and we need only a dozen ioctls. Debian ships the
 * uapi DRM headers of linux-libc-dev as <libdrm/drm.h> (libdrm-dev) for the native toolchain and
 * as <drm/drm.h> in the cross sysroots; either copy is the same kernel ABI. */
#if defined(__linux__) && defined(__has_include)
#if __has_include(<drm/drm_mode.h>)
#include <drm/drm.h>
#include <drm/drm_mode.h>
#define EG_HAVE_DRM_H 1
#elif __has_include(<libdrm/drm_mode.h>)
#include <libdrm/drm.h>
#include <libdrm/drm_mode.h>
#define EG_HAVE_DRM_H 1
#endif
#endif

#if defined(__linux__) && defined(EG_HAVE_DRM_H)

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* WGPUEmgpuPanelFormat values (emgpu.h); the port does not include the API headers. */
enum { PANEL_RGB565 = 1, PANEL_XRGB8888 = 4 };

/* drm_fourcc.h's codes, spelled out so that only drm.h/drm_mode.h are needed. */
#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define FOURCC_XRGB8888 FOURCC('X', 'R', '2', '4')
#define FOURCC_RGB565 FOURCC('R', 'G', '1', '6')

/* Fixed query arrays: the kernel copies resource ids up to the count given, but copies a
 * connector's modes and encoders only when all fit (all or nothing), so these are generous. */
#define MAX_IDS 16
#define MAX_MODES 128
#define FLIP_WAIT_MS 1000

_Static_assert(sizeof(struct drm_mode_modeinfo) == sizeof(((eg_port_drm_t *)0)->saved_mode),
               "eg_port_drm_t.saved_mode must hold a struct drm_mode_modeinfo");

typedef struct {
    uint32_t conn[MAX_IDS], crtc[MAX_IDS];
    uint32_t conn_n, crtc_n;
} drm_res_t;

typedef struct {
    struct drm_mode_get_connector c;
    struct drm_mode_modeinfo modes[MAX_MODES];
    uint32_t encoders[MAX_IDS];
} drm_conn_t;

static int xioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do r = ioctl(fd, req, arg); while (r != 0 && (errno == EINTR || errno == EAGAIN));
    return r;
}

static bool fail(eg_port_drm_t *d, const char *path, const char *why)
{
    eg_log(EG_LOG_ERROR, "drm %s: %s (errno %d)", path, why, errno);
    eg_port_drm_close(d);
    return false;
}

static bool get_resources(int fd, drm_res_t *r)
{
    struct drm_mode_card_res res;
    memset(&res, 0, sizeof res);
    res.connector_id_ptr = (uint64_t)(uintptr_t)r->conn;
    res.crtc_id_ptr = (uint64_t)(uintptr_t)r->crtc;
    res.count_connectors = MAX_IDS;
    res.count_crtcs = MAX_IDS;
    if (xioctl(fd, DRM_IOCTL_MODE_GETRESOURCES, &res) != 0) return false;
    r->conn_n = res.count_connectors < MAX_IDS ? res.count_connectors : MAX_IDS;
    r->crtc_n = res.count_crtcs < MAX_IDS ? res.count_crtcs : MAX_IDS;
    return true;
}

/* Two calls, as the uapi intends: the first (count_modes 0) probes the outputs and returns the
 * counts, the second copies the modes and encoders when they fit the fixed arrays. */
static bool get_connector(int fd, uint32_t id, drm_conn_t *k)
{
    memset(&k->c, 0, sizeof k->c);
    k->c.connector_id = id;
    if (xioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &k->c) != 0) return false;
    if (k->c.count_modes > MAX_MODES || k->c.count_encoders > MAX_IDS) {
        eg_log(EG_LOG_WARN, "drm: connector %u has %u modes / %u encoders, more than %u / %u: "
               "skipped", (unsigned)id, (unsigned)k->c.count_modes, (unsigned)k->c.count_encoders,
               MAX_MODES, MAX_IDS);
        return false;
    }
    k->c.modes_ptr = (uint64_t)(uintptr_t)k->modes;
    k->c.encoders_ptr = (uint64_t)(uintptr_t)k->encoders;
    k->c.count_props = 0;
    k->c.props_ptr = 0;
    k->c.prop_values_ptr = 0;
    return xioctl(fd, DRM_IOCTL_MODE_GETCONNECTOR, &k->c) == 0;
}

/* The requested size (the preferred mode of that size first), else the preferred mode, else the
 * first one listed; NULL when no mode has the requested size. */
static const struct drm_mode_modeinfo *pick_mode(const drm_conn_t *k, uint32_t w, uint32_t h)
{
    const struct drm_mode_modeinfo *best = NULL;
    for (uint32_t i = 0; i < k->c.count_modes; i++) {
        const struct drm_mode_modeinfo *m = &k->modes[i];
        if (w && (m->hdisplay != w || m->vdisplay != h)) continue;
        if (!best || ((m->type & DRM_MODE_TYPE_PREFERRED) && !(best->type & DRM_MODE_TYPE_PREFERRED)))
            best = m;
    }
    return best;
}

/* The CRTC the connector drives now, else the first one an encoder of the connector can use. */
static uint32_t pick_crtc(int fd, const drm_conn_t *k, const drm_res_t *r)
{
    struct drm_mode_get_encoder e;
    if (k->c.encoder_id) {
        memset(&e, 0, sizeof e);
        e.encoder_id = k->c.encoder_id;
        if (xioctl(fd, DRM_IOCTL_MODE_GETENCODER, &e) == 0 && e.crtc_id) return e.crtc_id;
    }
    for (uint32_t i = 0; i < k->c.count_encoders; i++) {
        memset(&e, 0, sizeof e);
        e.encoder_id = k->encoders[i];
        if (xioctl(fd, DRM_IOCTL_MODE_GETENCODER, &e) != 0) continue;
        for (uint32_t j = 0; j < r->crtc_n; j++)
            if (e.possible_crtcs & (1u << j)) return r->crtc[j];
    }
    return 0;
}

/* Chooses the connector (requested or first connected), its mode and a CRTC. */
static bool choose_output(eg_port_drm_t *d, const char *path, const eg_port_drm_request_t *req,
                          drm_conn_t *k, struct drm_mode_modeinfo *mode)
{
    drm_res_t r;
    if (!get_resources(d->fd, &r)) return fail(d, path, "DRM_IOCTL_MODE_GETRESOURCES failed (not a KMS device?)");
    for (uint32_t i = 0; i < r.conn_n; i++) {
        if (req->connector_id && r.conn[i] != req->connector_id) continue;
        if (!get_connector(d->fd, r.conn[i], k)) continue;
        if (k->c.connection != 1 || k->c.count_modes == 0) continue;   /* 1: DRM_MODE_CONNECTED */
        const struct drm_mode_modeinfo *m = pick_mode(k, req->width_px, req->height_px);
        if (!m) {
            eg_log(EG_LOG_ERROR, "drm %s: connector %u has no %ux%u mode", path,
                   (unsigned)r.conn[i], (unsigned)req->width_px, (unsigned)req->height_px);
            eg_port_drm_close(d);
            return false;
        }
        *mode = *m;
        d->connector_id = r.conn[i];
        d->crtc_id = req->crtc_id ? req->crtc_id : pick_crtc(d->fd, k, &r);
        if (!d->crtc_id) return fail(d, path, "no CRTC can drive the connector");
        return true;
    }
    errno = ENODEV;
    return fail(d, path, req->connector_id ? "the requested connector is not connected or unknown"
                                           : "no connected connector with modes");
}

static bool make_buffer(eg_port_drm_t *d, uint32_t i, uint32_t bpp, uint32_t fourcc)
{
    struct drm_mode_create_dumb cd;
    memset(&cd, 0, sizeof cd);
    cd.width = d->width_px;
    cd.height = d->height_px;
    cd.bpp = bpp;
    if (xioctl(d->fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd) != 0) return false;
    d->handle[i] = cd.handle;
    d->stride_B = cd.pitch;
    d->map_B = (size_t)cd.size;
    struct drm_mode_fb_cmd2 fb;
    memset(&fb, 0, sizeof fb);
    fb.width = d->width_px;
    fb.height = d->height_px;
    fb.pixel_format = fourcc;
    fb.handles[0] = cd.handle;
    fb.pitches[0] = cd.pitch;
    if (xioctl(d->fd, DRM_IOCTL_MODE_ADDFB2, &fb) != 0) return false;
    d->fb_id[i] = fb.fb_id;
    struct drm_mode_map_dumb md;
    memset(&md, 0, sizeof md);
    md.handle = cd.handle;
    if (xioctl(d->fd, DRM_IOCTL_MODE_MAP_DUMB, &md) != 0) return false;
    void *m = mmap(NULL, d->map_B, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, (off_t)md.offset);
    if (m == MAP_FAILED) return false;
    d->map[i] = m;
    return true;
}

static bool set_crtc(eg_port_drm_t *d, uint32_t fb_id, const struct drm_mode_modeinfo *mode)
{
    struct drm_mode_crtc sc;
    memset(&sc, 0, sizeof sc);
    sc.crtc_id = d->crtc_id;
    sc.fb_id = fb_id;
    sc.set_connectors_ptr = (uint64_t)(uintptr_t)&d->connector_id;
    sc.count_connectors = 1;
    sc.mode = *mode;
    sc.mode_valid = 1;
    return xioctl(d->fd, DRM_IOCTL_MODE_SETCRTC, &sc) == 0;
}

/* Waits for the flip-complete event of our flip; false on timeout or a read error. */
static bool wait_flip(int fd)
{
    char buf[256];
    for (;;) {
        struct pollfd p = { fd, POLLIN, 0 };
        if (poll(&p, 1, FLIP_WAIT_MS) <= 0) return false;
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < (ssize_t)sizeof(struct drm_event)) return false;
        for (ssize_t off = 0; off + (ssize_t)sizeof(struct drm_event) <= n;) {
            struct drm_event e;
            memcpy(&e, buf + off, sizeof e);
            if (e.type == DRM_EVENT_FLIP_COMPLETE) return true;
            if (e.length == 0) return false;
            off += e.length;
        }
    }
}

static bool flip_to(eg_port_drm_t *d, uint32_t index)
{
    struct drm_mode_crtc_page_flip pf;
    memset(&pf, 0, sizeof pf);
    pf.crtc_id = d->crtc_id;
    pf.fb_id = d->fb_id[index];
    pf.flags = DRM_MODE_PAGE_FLIP_EVENT;
    pf.user_data = index;
    return xioctl(d->fd, DRM_IOCTL_MODE_PAGE_FLIP, &pf) == 0 && wait_flip(d->fd);
}

static void save_crtc(eg_port_drm_t *d)
{
    struct drm_mode_crtc gc;
    memset(&gc, 0, sizeof gc);
    gc.crtc_id = d->crtc_id;
    d->saved_valid = xioctl(d->fd, DRM_IOCTL_MODE_GETCRTC, &gc) == 0 && gc.mode_valid && gc.fb_id;
    d->saved_fb_id = gc.fb_id;
    memcpy(d->saved_mode, &gc.mode, sizeof d->saved_mode);
}

bool eg_port_drm_open(const char *path, const eg_port_drm_request_t *req, eg_port_drm_t *d)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    if (req->format != PANEL_XRGB8888 && req->format != PANEL_RGB565) {
        eg_log(EG_LOG_ERROR, "drm %s: format %u is not XRGB8888 or RGB565", path, (unsigned)req->format);
        return false;
    }
    d->fd = open(path, O_RDWR | O_CLOEXEC);
    if (d->fd < 0) return fail(d, path, "cannot open the device");
    struct drm_get_cap cap = { DRM_CAP_DUMB_BUFFER, 0 };
    if (xioctl(d->fd, DRM_IOCTL_GET_CAP, &cap) != 0 || !cap.value)
        return fail(d, path, "no dumb buffers (DRM_CAP_DUMB_BUFFER)");
    drm_conn_t k;   /* 8.9 KiB, once per surface: hosted stacks are megabytes */
    struct drm_mode_modeinfo mode;
    if (!choose_output(d, path, req, &k, &mode)) return false;
    d->width_px = mode.hdisplay;
    d->height_px = mode.vdisplay;
    d->format = req->format;
    bool rgb565 = req->format == PANEL_RGB565;
    if (!make_buffer(d, 0, rgb565 ? 16 : 32, rgb565 ? FOURCC_RGB565 : FOURCC_XRGB8888))
        return fail(d, path, rgb565 ? "cannot make an RGB565 dumb buffer (the driver may scan out "
                                      "32-bit formats only)" : "cannot make an XRGB8888 dumb buffer");
    /* A second buffer is a nicety: a driver short of memory still gets single buffering. */
    d->buffers = make_buffer(d, 1, rgb565 ? 16 : 32, rgb565 ? FOURCC_RGB565 : FOURCC_XRGB8888) ? 2 : 1;
    save_crtc(d);
    if (!set_crtc(d, d->fb_id[0], &mode))
        return fail(d, path, "DRM_IOCTL_MODE_SETCRTC refused the mode (are we DRM master?)");
    d->shown = 0;
    d->page_flip = d->buffers == 2 && flip_to(d, 0);
    eg_log(EG_LOG_INFO, "drm %s: connector %u crtc %u, %ux%u %s, stride %u B, %u buffer(s), %s", path,
           (unsigned)d->connector_id, (unsigned)d->crtc_id, (unsigned)d->width_px,
           (unsigned)d->height_px, rgb565 ? "RGB565" : "XRGB8888", (unsigned)d->stride_B,
           (unsigned)d->buffers, d->page_flip ? "page flip" : "mode set per frame");
    return true;
}

uint8_t *eg_port_drm_back(const eg_port_drm_t *d)
{
    return d->map[d->buffers > 1 ? 1u - d->shown : 0u];
}

bool eg_port_drm_present(eg_port_drm_t *d)
{
    if (d->fd < 0) return false;
    if (d->buffers == 1) {   /* drawn in place: drivers with a shadow copy need the damage */
        struct drm_clip_rect clip = { 0, 0, (unsigned short)d->width_px, (unsigned short)d->height_px };
        struct drm_mode_fb_dirty_cmd dc;
        memset(&dc, 0, sizeof dc);
        dc.fb_id = d->fb_id[0];
        dc.num_clips = 1;
        dc.clips_ptr = (uint64_t)(uintptr_t)&clip;
        (void)xioctl(d->fd, DRM_IOCTL_MODE_DIRTYFB, &dc);   /* ENOSYS: scanned out directly */
        return true;
    }
    uint32_t back = 1u - d->shown;
    bool ok;
    if (d->page_flip) {
        ok = flip_to(d, back);
    } else {
        struct drm_mode_crtc gc;
        memset(&gc, 0, sizeof gc);
        gc.crtc_id = d->crtc_id;
        ok = xioctl(d->fd, DRM_IOCTL_MODE_GETCRTC, &gc) == 0 && set_crtc(d, d->fb_id[back], &gc.mode);
    }
    if (!ok) {
        eg_log(EG_LOG_ERROR, "drm: showing buffer %u on crtc %u failed (errno %d)", (unsigned)back,
               (unsigned)d->crtc_id, errno);
        return false;
    }
    d->shown = back;
    return true;
}

void eg_port_drm_close(eg_port_drm_t *d)
{
    if (d->fd >= 0 && d->saved_valid) {
        struct drm_mode_modeinfo m;
        memcpy(&m, d->saved_mode, sizeof m);
        (void)set_crtc(d, d->saved_fb_id, &m);
    }
    for (uint32_t i = 0; i < EG_PORT_DRM_BUFFERS; i++) {
        if (d->map[i]) munmap(d->map[i], d->map_B);
        if (d->fd >= 0 && d->fb_id[i]) (void)xioctl(d->fd, DRM_IOCTL_MODE_RMFB, &d->fb_id[i]);
        if (d->fd >= 0 && d->handle[i]) {
            struct drm_mode_destroy_dumb dd = { d->handle[i] };
            (void)xioctl(d->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
        }
        d->map[i] = NULL;
        d->fb_id[i] = d->handle[i] = 0;
    }
    if (d->fd >= 0) close(d->fd);
    d->fd = -1;
    d->saved_valid = false;
}

/* ---- scan-out of buffers made by someone else (helper gbm: GLES through GBM) ----
 * The GBM path renders into buffer objects of the same card fd (gbm_device on d->fd), so the
 * DRM master that set the mode keeps the CRTC: a second open of the card would not be master. */

bool eg_port_drm_fb_add(eg_port_drm_t *d, uint32_t handle, uint32_t stride_B, uint32_t *fb_id)
{
    struct drm_mode_fb_cmd2 fb;
    memset(&fb, 0, sizeof fb);
    fb.width = d->width_px;
    fb.height = d->height_px;
    fb.pixel_format = d->format == PANEL_RGB565 ? FOURCC_RGB565 : FOURCC_XRGB8888;
    fb.handles[0] = handle;
    fb.pitches[0] = stride_B;
    if (d->fd < 0 || xioctl(d->fd, DRM_IOCTL_MODE_ADDFB2, &fb) != 0) {
        eg_log(EG_LOG_ERROR, "drm: ADDFB2 of buffer handle %u (%ux%u, stride %u B) failed (errno %d)",
               (unsigned)handle, (unsigned)d->width_px, (unsigned)d->height_px, (unsigned)stride_B, errno);
        return false;
    }
    *fb_id = fb.fb_id;
    return true;
}

void eg_port_drm_fb_remove(eg_port_drm_t *d, uint32_t fb_id)
{
    if (d->fd >= 0 && fb_id) (void)xioctl(d->fd, DRM_IOCTL_MODE_RMFB, &fb_id);
}

/* SETCRTC in the mode the CRTC has now (the one open set). */
static bool set_crtc_same_mode(eg_port_drm_t *d, uint32_t fb_id)
{
    struct drm_mode_crtc gc;
    memset(&gc, 0, sizeof gc);
    gc.crtc_id = d->crtc_id;
    return xioctl(d->fd, DRM_IOCTL_MODE_GETCRTC, &gc) == 0 && gc.mode_valid && set_crtc(d, fb_id, &gc.mode);
}

bool eg_port_drm_show_fb(eg_port_drm_t *d, uint32_t fb_id, bool first)
{
    if (d->fd < 0) return false;
    bool ok;
    if (first || !d->page_flip) {
        ok = set_crtc_same_mode(d, fb_id);
    } else {
        struct drm_mode_crtc_page_flip pf;
        memset(&pf, 0, sizeof pf);
        pf.crtc_id = d->crtc_id;
        pf.fb_id = fb_id;
        pf.flags = DRM_MODE_PAGE_FLIP_EVENT;
        ok = xioctl(d->fd, DRM_IOCTL_MODE_PAGE_FLIP, &pf) == 0 && wait_flip(d->fd);
    }
    if (!ok)
        eg_log(EG_LOG_ERROR, "drm: showing framebuffer %u on crtc %u failed (%s, errno %d)", (unsigned)fb_id,
               (unsigned)d->crtc_id, first || !d->page_flip ? "SETCRTC" : "page flip", errno);
    return ok;
}

bool eg_port_drm_show_dumb(eg_port_drm_t *d)
{
    return d->fd >= 0 && set_crtc_same_mode(d, d->fb_id[d->buffers > 1 ? d->shown : 0u]);
}

#elif defined(__linux__)   /* Linux without the uapi DRM headers at build time */

bool eg_port_drm_open(const char *path, const eg_port_drm_request_t *req, eg_port_drm_t *d)
{
    (void)req;
    d->fd = -1;
    eg_log(EG_LOG_ERROR, "drm %s: built without <drm/drm_mode.h> (install linux-libc-dev or "
           "libdrm-dev and rebuild)", path);
    return false;
}
uint8_t *eg_port_drm_back(const eg_port_drm_t *d) { (void)d; return NULL; }
bool eg_port_drm_present(eg_port_drm_t *d) { (void)d; return false; }
void eg_port_drm_close(eg_port_drm_t *d) { d->fd = -1; }
bool eg_port_drm_fb_add(eg_port_drm_t *d, uint32_t handle, uint32_t stride_B, uint32_t *fb_id)
{
    (void)d; (void)handle; (void)stride_B; (void)fb_id;
    return false;
}
void eg_port_drm_fb_remove(eg_port_drm_t *d, uint32_t fb_id) { (void)d; (void)fb_id; }
bool eg_port_drm_show_fb(eg_port_drm_t *d, uint32_t fb_id, bool first) { (void)d; (void)fb_id; (void)first; return false; }
bool eg_port_drm_show_dumb(eg_port_drm_t *d) { (void)d; return false; }

#endif
