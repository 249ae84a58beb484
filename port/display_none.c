/* Display services of ports without fbdev or X11 (bare metal, win32): every call says so; panels
 * come in through emgpu.h memory-panel sources. The Makefile adds it for PORT != posix. */
#include "port/display.h"

#include "kernel/base/log.h"

bool eg_port_fbdev_open(const char *path, eg_port_fbdev_t *fb)
{
    fb->fd = -1;
    fb->map = NULL;
    eg_log(EG_LOG_ERROR, "fbdev %s: this port has no framebuffer devices; use a "
           "WGPUEmgpuSurfaceSourceMemoryPanel", path);
    return false;
}

bool eg_port_fbdev_show(eg_port_fbdev_t *fb, uint32_t index)
{
    (void)fb;
    (void)index;
    return false;
}

bool eg_port_fbdev_mode_unchanged(const eg_port_fbdev_t *fb)
{
    (void)fb;
    return false;
}

void eg_port_fbdev_close(eg_port_fbdev_t *fb)
{
    fb->fd = -1;
    fb->map = NULL;
}

bool eg_port_xlib_open(void *display, uint64_t window, eg_port_xlib_t *x)
{
    (void)display;
    (void)window;
    x->gc = NULL;
    x->pixels = NULL;
    eg_log(EG_LOG_ERROR, "xlib: this port has no X11; use a "
           "WGPUEmgpuSurfaceSourceMemoryPanel");
    return false;
}

bool eg_port_xlib_refresh(eg_port_xlib_t *x)
{
    (void)x;
    return false;
}

bool eg_port_xlib_size_unchanged(const eg_port_xlib_t *x)
{
    (void)x;
    return false;
}

bool eg_port_xlib_show(eg_port_xlib_t *x, uint32_t width_px, uint32_t height_px)
{
    (void)x;
    (void)width_px;
    (void)height_px;
    return false;
}

void eg_port_xlib_close(eg_port_xlib_t *x)
{
    x->gc = NULL;
    x->pixels = NULL;
}
