/* Surfaces: the chained sources (memory panel, fbdev, DRM/KMS, Xlib window) and
 * wgpuInstanceCreateSurface (see surface.h). */
#include "kernel/api/surface.h"

#include "kernel/api/adapter.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/texture.h"
#include "kernel/base/log.h"

#define FBDEV_PATH_MAX 64

/* ---- creation ---- */

/* Validates a memory panel source and fills the surface's target. */
static bool source_memory(const eg_vctx_t *v, eg_surface_t *s, const WGPUEmgpuSurfaceSourceMemoryPanel *p)
{
    uint32_t bpp = eg_panel_format_bytes(p->format);
    EG_CHECK(v, bpp != 0, SURFACE_SOURCE, "WGPUEmgpuSurfaceSourceMemoryPanel.format 0x%x is not a "
             "WGPUEmgpuPanelFormat", (unsigned)p->format);
    EG_CHECK(v, p->width && p->height, SURFACE_SOURCE,
             "WGPUEmgpuSurfaceSourceMemoryPanel size %ux%u has a zero dimension",
             (unsigned)p->width, (unsigned)p->height);
    EG_CHECK(v, (p->framebuffer != NULL) != (p->stripBuffer != NULL), SURFACE_SOURCE,
             "WGPUEmgpuSurfaceSourceMemoryPanel needs exactly one of framebuffer and stripBuffer "
             "(framebuffer %s, stripBuffer %s)", p->framebuffer ? "set" : "NULL",
             p->stripBuffer ? "set" : "NULL");
    eg_surface_target_t *t = &s->target;
    t->width_px = p->width;
    t->height_px = p->height;
    t->format = p->format;
    t->flush = p->flush;
    t->flush_user = p->flushUserdata;
    uint64_t row_B = (uint64_t)p->width * bpp;
    EG_CHECK(v, row_B <= UINT32_MAX, SURFACE_SOURCE, "WGPUEmgpuSurfaceSourceMemoryPanel width %u "
             "is too large", (unsigned)p->width);
    if (p->framebuffer) {
        t->framebuffer = p->framebuffer;
        t->stride_B = p->bytesPerRow ? p->bytesPerRow : (uint32_t)row_B;
        EG_CHECK(v, t->stride_B >= row_B, SURFACE_SOURCE, "WGPUEmgpuSurfaceSourceMemoryPanel."
                 "bytesPerRow %u is less than width %u x %u bytes", (unsigned)p->bytesPerRow,
                 (unsigned)p->width, (unsigned)bpp);
        return true;
    }
    EG_CHECK(v, p->stripHeight >= 1, SURFACE_SOURCE,
             "WGPUEmgpuSurfaceSourceMemoryPanel.stripHeight is 0 (strip mode needs >= 1 row)");
    EG_CHECK(v, p->flush != NULL, SURFACE_SOURCE,
             "WGPUEmgpuSurfaceSourceMemoryPanel.flush is NULL (strip mode needs it)");
    t->strip = p->stripBuffer;
    t->strip_rows = eg_min_u32(p->stripHeight, p->height);
    t->stride_B = (uint32_t)row_B;
    return true;
}

static bool source_fbdev(const eg_vctx_t *v, eg_surface_t *s, const WGPUEmgpuSurfaceSourceFbdev *f)
{
    char path[FBDEV_PATH_MAX];
    size_t n = f->path.length == WGPU_STRLEN && f->path.data ? eg_strlen(f->path.data) : f->path.length;
    EG_CHECK(v, f->path.data && n > 0 && n < sizeof path, SURFACE_SOURCE,
             "WGPUEmgpuSurfaceSourceFbdev.path is empty or longer than %u bytes",
             (unsigned)(sizeof path - 1));
    eg_memcpy(path, f->path.data, n);
    path[n] = '\0';
    EG_CHECK(v, eg_port_fbdev_open(path, &s->fbdev), SURFACE_SOURCE,
             "WGPUEmgpuSurfaceSourceFbdev.path \"%s\" cannot be used (see the log above)", path);
    s->kind = EG_SURFACE_FBDEV;
    s->target.width_px = s->fbdev.width_px;
    s->target.height_px = s->fbdev.height_px;
    s->target.format = (WGPUEmgpuPanelFormat)s->fbdev.format;
    s->target.stride_B = s->fbdev.stride_B;
    s->target.framebuffer = s->fbdev.map;   /* screen 0; acquire picks the back screen */
    return true;
}

/* The window's image becomes the target: 32-bit pixels, so the soft texture of the configured
 * format (BGRA8 for XRGB visuals) renders into it directly when the widths match. */
void eg_surface_xlib_target(eg_surface_t *s)
{
    s->target.width_px = s->xlib.width_px;
    s->target.height_px = s->xlib.height_px;
    s->target.format = (WGPUEmgpuPanelFormat)s->xlib.format;
    s->target.stride_B = s->xlib.stride_B;
    s->target.framebuffer = s->xlib.pixels;
}

static bool source_xlib(const eg_vctx_t *v, eg_surface_t *s, const WGPUSurfaceSourceXlibWindow *x)
{
    EG_CHECK(v, x->display != NULL && x->window != 0, SURFACE_SOURCE,
             "WGPUSurfaceSourceXlibWindow needs a display (XOpenDisplay) and a window "
             "(display %p, window 0x%llx)", x->display, (unsigned long long)x->window);
    EG_CHECK(v, eg_port_xlib_open(x->display, x->window, &s->xlib), SURFACE_SOURCE,
             "WGPUSurfaceSourceXlibWindow window 0x%llx cannot be used (see the log above)",
             (unsigned long long)x->window);
    s->kind = EG_SURFACE_XLIB;
    eg_surface_xlib_target(s);
    return true;
}

/* ---- DRM/KMS source (kms): the port opens the output; its back buffer is the target ---- */
static bool source_drm(const eg_vctx_t *v, eg_surface_t *s, const WGPUEmgpuSurfaceSourceDrm *k)
{
    char path[FBDEV_PATH_MAX];
    size_t n = k->path.length == WGPU_STRLEN && k->path.data ? eg_strlen(k->path.data) : k->path.length;
    EG_CHECK(v, k->path.data && n > 0 && n < sizeof path, SURFACE_SOURCE,
             "WGPUEmgpuSurfaceSourceDrm.path is empty or longer than %u bytes",
             (unsigned)(sizeof path - 1));
    eg_memcpy(path, k->path.data, n);
    path[n] = '\0';
    WGPUEmgpuPanelFormat f = k->format ? k->format : WGPUEmgpuPanelFormat_XRGB8888;
    EG_CHECK(v, f == WGPUEmgpuPanelFormat_XRGB8888 || f == WGPUEmgpuPanelFormat_RGB565,
             SURFACE_SOURCE, "WGPUEmgpuSurfaceSourceDrm.format 0x%x is not XRGB8888 or RGB565",
             (unsigned)k->format);
    EG_CHECK(v, (k->width == 0) == (k->height == 0), SURFACE_SOURCE, "WGPUEmgpuSurfaceSourceDrm "
             "size %ux%u: give both (a mode of that size) or neither (the preferred mode)",
             (unsigned)k->width, (unsigned)k->height);
    eg_port_drm_request_t req = { k->connectorId, k->crtcId, k->width, k->height, (uint32_t)f };
    EG_CHECK(v, eg_port_drm_open(path, &req, &s->drm), SURFACE_SOURCE,
             "WGPUEmgpuSurfaceSourceDrm.path \"%s\" cannot be used (not a Linux port, or see the "
             "log above)", path);
    s->kind = EG_SURFACE_DRM;
    s->target.width_px = s->drm.width_px;
    s->target.height_px = s->drm.height_px;
    s->target.format = (WGPUEmgpuPanelFormat)s->drm.format;
    s->target.stride_B = s->drm.stride_B;
    s->target.framebuffer = s->drm.map[0];   /* acquire picks the back buffer */
    return true;
}

static bool source_resolve(const eg_vctx_t *v, eg_surface_t *s, const WGPUSurfaceDescriptor *d)
{
    const WGPUChainedStruct *c = d->nextInChain;
    EG_CHECK(v, c != NULL, SURFACE_SOURCE, "descriptor.nextInChain is NULL: chain a surface source "
             "(WGPUEmgpuSurfaceSourceMemoryPanel or WGPUEmgpuSurfaceSourceFbdev)");
    EG_CHECK(v, c->next == NULL, SURFACE_SOURCE,
             "descriptor chains more than one struct (second sType 0x%x)", (unsigned)c->next->sType);
    if (c->sType == WGPUSType_EmgpuSurfaceSourceMemoryPanel) {
        s->kind = EG_SURFACE_MEMORY_PANEL;
        return source_memory(v, s, (const WGPUEmgpuSurfaceSourceMemoryPanel *)(const void *)c);
    }
    if (c->sType == WGPUSType_EmgpuSurfaceSourceFbdev)
        return source_fbdev(v, s, (const WGPUEmgpuSurfaceSourceFbdev *)(const void *)c);
    if (c->sType == WGPUSType_SurfaceSourceXlibWindow)
        return source_xlib(v, s, (const WGPUSurfaceSourceXlibWindow *)(const void *)c);
    if (c->sType == WGPUSType_EmgpuSurfaceSourceDrm)   /* kms */
        return source_drm(v, s, (const WGPUEmgpuSurfaceSourceDrm *)(const void *)c);
    if (c->sType == WGPUSType_SurfaceSourceWaylandSurface)   /* helper wayland */
        return eg_surface_source_wayland(v, s, (const WGPUSurfaceSourceWaylandSurface *)(const void *)c);
    return eg_fail(v, WGPUErrorType_Validation, EG_E_UNKNOWN_STYPE, "descriptor.nextInChain sType "
                   "0x%x is not a surface source this build supports (memory panel 0x%x, fbdev "
                   "0x%x, Xlib window 0x%x, DRM 0x%x, Wayland surface 0x%x)", (unsigned)c->sType,
                   (unsigned)WGPUSType_EmgpuSurfaceSourceMemoryPanel,
                   (unsigned)WGPUSType_EmgpuSurfaceSourceFbdev,
                   (unsigned)WGPUSType_SurfaceSourceXlibWindow,
                   (unsigned)WGPUSType_EmgpuSurfaceSourceDrm,
                   (unsigned)WGPUSType_SurfaceSourceWaylandSurface);
}

/* Spec: webgpu-headers "Surfaces": a surface is created from one chained source; there is no
 * device yet, so failures are logged and the result is NULL. */
WGPUSurface wgpuInstanceCreateSurface(WGPUInstance instance, WGPUSurfaceDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(NULL, "wgpuInstanceCreateSurface", NULL);
    struct WGPUInstanceImpl *inst = NULL;
    for (uint32_t i = 0; i < EMGPU_MAX_INSTANCES && instance; i++)
        if (eg_instance_at(i) == instance) inst = instance;
    if (!inst) {
        eg_log(EG_LOG_ERROR, "wgpuInstanceCreateSurface: instance %p is NULL or released",
               (void *)instance);
        return NULL;
    }
    if (!descriptor) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "descriptor is NULL");
        return NULL;
    }
    eg_surface_t *s = eg_object_alloc_in(&v, inst, EG_KIND_SURFACE);
    if (!s) return NULL;
    eg_object_set_label(&s->obj, descriptor->label);
    v.label = s->obj.label;
    s->instance = inst;
    s->fbdev.fd = -1;
    s->drm.fd = -1;   /* kms */
    s->wayland.fd = -1;   /* helper wayland */
    if (!source_resolve(&v, s, descriptor)) {
        eg_object_free(s);
        return NULL;
    }
    return s;
}
