/* Bare-metal display services: no fbdev (panels come in through emgpu.h memory-panel sources). */
#include "port/display.h"

#include "kernel/base/log.h"

bool eg_port_fbdev_open(const char *path, eg_port_fbdev_t *fb)
{
    fb->fd = -1;
    fb->map = NULL;
    eg_log(EG_LOG_ERROR, "fbdev %s: the bare-metal port has no framebuffer devices; use a "
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
