/* Linux fbdev behind port/display.h: open, read the mode, mmap, pan between two screens. */
#define _POSIX_C_SOURCE 200809L
#include "port/display.h"

#include "kernel/base/log.h"

#if defined(__linux__)

#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* WGPUEmgpuPanelFormat values (emgpu.h); the port does not include the API headers. */
enum { PANEL_RGB565 = 1, PANEL_BGR565 = 2, PANEL_XRGB8888 = 4, PANEL_ARGB8888 = 5,
       PANEL_XBGR8888 = 6, PANEL_ABGR8888 = 7 };

static bool field_is(const struct fb_bitfield *f, uint32_t offset, uint32_t length)
{
    return f->offset == offset && f->length == length && f->msb_right == 0;
}

/* Only packed-pixel layouts whose bytes equal one of the panel formats are accepted; anything
 * else (8 bpp palettes, 24 bpp, planar) would need a converter nobody has asked for yet. */
static uint32_t format_of(const struct fb_var_screeninfo *v)
{
    if (v->bits_per_pixel == 16 && field_is(&v->green, 5, 6)) {
        if (field_is(&v->red, 11, 5) && field_is(&v->blue, 0, 5)) return PANEL_RGB565;
        if (field_is(&v->red, 0, 5) && field_is(&v->blue, 11, 5)) return PANEL_BGR565;
    }
    if (v->bits_per_pixel == 32 && field_is(&v->green, 8, 8)) {
        bool alpha = v->transp.length == 8 && v->transp.offset == 24;
        if (field_is(&v->red, 16, 8) && field_is(&v->blue, 0, 8))
            return alpha ? PANEL_ARGB8888 : PANEL_XRGB8888;
        if (field_is(&v->red, 0, 8) && field_is(&v->blue, 16, 8))
            return alpha ? PANEL_ABGR8888 : PANEL_XBGR8888;
    }
    return 0;
}

static bool pan_to(int fd, uint32_t yoffset)
{
    struct fb_var_screeninfo v;
    if (ioctl(fd, FBIOGET_VSCREENINFO, &v) != 0) return false;
    v.xoffset = 0;
    v.yoffset = yoffset;
    return ioctl(fd, FBIOPAN_DISPLAY, &v) == 0;
}

static bool fail(eg_port_fbdev_t *fb, const char *path, const char *why)
{
    eg_log(EG_LOG_ERROR, "fbdev %s: %s (errno %d)", path, why, errno);
    eg_port_fbdev_close(fb);
    return false;
}

bool eg_port_fbdev_open(const char *path, eg_port_fbdev_t *fb)
{
    memset(fb, 0, sizeof *fb);
    fb->fd = open(path, O_RDWR | O_CLOEXEC);
    if (fb->fd < 0) return fail(fb, path, "cannot open the device");
    struct fb_var_screeninfo v;
    struct fb_fix_screeninfo f;
    if (ioctl(fb->fd, FBIOGET_VSCREENINFO, &v) != 0 || ioctl(fb->fd, FBIOGET_FSCREENINFO, &f) != 0)
        return fail(fb, path, "FBIOGET_VSCREENINFO/FSCREENINFO failed (not a framebuffer?)");
    if (f.type != FB_TYPE_PACKED_PIXELS || f.visual != FB_VISUAL_TRUECOLOR)
        return fail(fb, path, "not a packed-pixel truecolor framebuffer");
    fb->format = format_of(&v);
    if (!fb->format) {
        eg_log(EG_LOG_ERROR, "fbdev %s: %u bpp with red %u/%u green %u/%u blue %u/%u is not a "
               "supported layout (RGB565, BGR565, [XA]RGB8888, [XA]BGR8888)", path,
               (unsigned)v.bits_per_pixel, (unsigned)v.red.offset, (unsigned)v.red.length,
               (unsigned)v.green.offset, (unsigned)v.green.length, (unsigned)v.blue.offset,
               (unsigned)v.blue.length);
        eg_port_fbdev_close(fb);
        return false;
    }
    fb->width_px = v.xres;
    fb->height_px = v.yres;
    fb->stride_B = f.line_length;
    fb->screen_B = (size_t)f.line_length * v.yres;
    fb->map_B = f.smem_len;
    if (fb->screen_B == 0 || fb->screen_B > fb->map_B)
        return fail(fb, path, "smem_len is smaller than one screen");
    void *m = mmap(NULL, fb->map_B, PROT_READ | PROT_WRITE, MAP_SHARED, fb->fd, 0);
    if (m == MAP_FAILED) return fail(fb, path, "mmap failed");
    fb->map = m;
    fb->screens = 1;
    /* Double buffering only when both pans really work: some drivers accept a tall virtual
     * screen but reject FBIOPAN_DISPLAY. */
    if (v.yres_virtual >= 2 * v.yres && 2 * fb->screen_B <= fb->map_B &&
        pan_to(fb->fd, v.yres) && pan_to(fb->fd, 0))
        fb->screens = 2;
    else if (v.yoffset != 0)
        (void)pan_to(fb->fd, 0);
    fb->shown = 0;
    eg_log(EG_LOG_INFO, "fbdev %s: %ux%u, stride %u B, %u screen(s)", path, (unsigned)fb->width_px,
           (unsigned)fb->height_px, (unsigned)fb->stride_B, (unsigned)fb->screens);
    return true;
}

bool eg_port_fbdev_show(eg_port_fbdev_t *fb, uint32_t index)
{
    if (fb->fd < 0 || index >= fb->screens) return false;
    if (fb->screens > 1 && !pan_to(fb->fd, index * fb->height_px)) return false;
    fb->shown = index;
    /* Deferred-I/O framebuffers (DRM fbdev emulation, fbtft SPI panels) copy the mmap to the
     * display some 50 ms after the writes; fsync flushes now, so the frame is on screen when
     * Present returns. Plain framebuffers have no fsync (EINVAL), which is fine. */
    (void)fsync(fb->fd);
    return true;
}

bool eg_port_fbdev_mode_unchanged(const eg_port_fbdev_t *fb)
{
    struct fb_var_screeninfo v;
    if (fb->fd < 0 || ioctl(fb->fd, FBIOGET_VSCREENINFO, &v) != 0) return false;
    return v.xres == fb->width_px && v.yres == fb->height_px && format_of(&v) == fb->format;
}

void eg_port_fbdev_close(eg_port_fbdev_t *fb)
{
    if (fb->map) munmap(fb->map, fb->map_B);
    if (fb->fd >= 0) close(fb->fd);
    fb->map = NULL;
    fb->fd = -1;
}

#else /* a POSIX system without linux/fb.h */

bool eg_port_fbdev_open(const char *path, eg_port_fbdev_t *fb)
{
    fb->fd = -1;
    fb->map = NULL;
    eg_log(EG_LOG_ERROR, "fbdev %s: this port has no Linux framebuffer support", path);
    return false;
}
bool eg_port_fbdev_show(eg_port_fbdev_t *fb, uint32_t index) { (void)fb; (void)index; return false; }
bool eg_port_fbdev_mode_unchanged(const eg_port_fbdev_t *fb) { (void)fb; return false; }
void eg_port_fbdev_close(eg_port_fbdev_t *fb) { fb->fd = -1; fb->map = NULL; }

#endif
