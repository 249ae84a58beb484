/* hal/gles on DRM/KMS: EGL on a gbm_device of the surface's card, a gbm_surface per configuration, its front buffers scanned out.
 *
 * A WGPUEmgpuSurfaceSourceDrm surface opens the card, picks connector, mode and CRTC and sets the
 * mode (port/posix/display_drm.c): that fd is the DRM master. An adapter requested with that
 * surface as compatibleSurface gets its contexts on an EGL display of the GBM platform
 * (EGL_PLATFORM_GBM_KHR) over a gbm_device made on the same fd (gl_device.c, ordinal
 * EG_GL_ORDINAL_GBM), because an EGL window surface works only with contexts of its own
 * EGLDisplay, and only the master may set the CRTC.
 *
 * Configure makes a gbm_surface of the mode's size in the output's format (XRGB8888 or RGB565,
 * GBM_BO_USE_SCANOUT | GBM_BO_USE_RENDERING) and an EGL window surface on it with a config whose
 * EGL_NATIVE_VISUAL_ID is that format (Mesa refuses any other). Present blits the frame into it
 * and swaps (gl_surface_window.c, the X11 code), then eg_gl_gbm_flip locks the front buffer,
 * adds a framebuffer for it (once per buffer object: a small cache, the surface cycles through
 * at most a few), shows it (SETCRTC on the first frame, page flips after, each waited for) and
 * releases the buffer shown before, which the completed flip has freed. Unconfigure gives the
 * CRTC back to the surface's dumb buffer before it removes the framebuffers (removing the one
 * scanned out would turn the CRTC off), so only one of the two paths holds the CRTC at a time.
 *
 * libgbm.so.1 is opened through the port (never linked). The few gbm.h declarations needed are
 * spelled here, so building needs no libgbm-dev. One card at a time (the GBM display is one).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/error_codes.h"
#include "kernel/base/log.h"
#include "port/display.h"
#include "port/port.h"

/* gbm.h (Mesa): opaque objects, the handle union and the flags and formats used here. */
struct gbm_device;
struct gbm_surface;
struct gbm_bo;
union gbm_bo_handle { void *ptr; int32_t s32; uint32_t u32; int64_t s64; uint64_t u64; };
#define GBM_BO_USE_SCANOUT (1u << 0)
#define GBM_BO_USE_RENDERING (1u << 2)
#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define GBM_FORMAT_XRGB8888 FOURCC('X', 'R', '2', '4')
#define GBM_FORMAT_RGB565 FOURCC('R', 'G', '1', '6')

/* WGPUEmgpuPanelFormat_RGB565 (the port keeps panel formats as uint32_t). */
#define PANEL_RGB565 1u
/* Mesa's GBM surfaces have at most 4 color buffers (platform_drm.c); one spare slot. */
#define BO_CACHE 5u

static struct {
    bool tried, ok;
    struct gbm_device *(*create_device)(int fd);
    void (*device_destroy)(struct gbm_device *);
    struct gbm_surface *(*surface_create)(struct gbm_device *, uint32_t, uint32_t, uint32_t, uint32_t);
    void (*surface_destroy)(struct gbm_surface *);
    struct gbm_bo *(*lock_front)(struct gbm_surface *);
    void (*release_buffer)(struct gbm_surface *, struct gbm_bo *);
    union gbm_bo_handle (*bo_handle)(struct gbm_bo *);
    uint32_t (*bo_stride)(struct gbm_bo *);
    PFNEGLGETCONFIGATTRIBPROC get_config_attrib;
    PFNEGLCREATEPLATFORMWINDOWSURFACEEXTPROC create_platform_window_surface;   /* may be NULL */
} gb;

/* The one GBM device: made on the card fd of the surface the adapter was bound to. drm stays
 * set while the device is destroyed between probe and device_open: it names the bound output. */
static struct {
    struct gbm_device *dev;
    int fd;
    uint32_t gbm_format;
    const eg_port_drm_t *drm;
} g_card = { NULL, -1, 0, NULL };

struct eg_gl_gbm_chain {
    bool used;
    eg_port_drm_t *drm;
    struct gbm_surface *surface;
    struct gbm_bo *shown;            /* locked and scanned out; released after the next flip */
    bool shown_any;                  /* the CRTC shows one of ours (else: first frame, SETCRTC) */
    struct { struct gbm_bo *bo; uint32_t fb_id; } fbs[BO_CACHE];
};

static eg_gl_gbm_chain_t g_chains[EMGPU_MAX_SURFACES];

static void store_fn(void *slot, void *fn)
{
    eg_memcpy(slot, &fn, sizeof fn);
}

static bool load_gbm(const char **why)
{
    if (gb.tried) {
        if (!gb.ok) *why = "libgbm.so.1 or one of its entry points is missing (install libgbm1)";
        return gb.ok;
    }
    gb.tried = true;
    *why = "libgbm.so.1 or one of its entry points is missing (install libgbm1)";
    void *lib = eg_port_lib_open("libgbm.so.1");
    if (!lib || !eg_gl.egl.GetProcAddress) return false;
#define GB(field, name) store_fn(&gb.field, eg_port_lib_symbol(lib, name)); if (!gb.field) return false;
    GB(create_device, "gbm_create_device") GB(device_destroy, "gbm_device_destroy")
    GB(surface_create, "gbm_surface_create") GB(surface_destroy, "gbm_surface_destroy")
    GB(lock_front, "gbm_surface_lock_front_buffer") GB(release_buffer, "gbm_surface_release_buffer")
    GB(bo_handle, "gbm_bo_get_handle") GB(bo_stride, "gbm_bo_get_stride")
#undef GB
    __eglMustCastToProperFunctionPointerType f = eg_gl.egl.GetProcAddress("eglGetConfigAttrib");
    eg_memcpy(&gb.get_config_attrib, &f, sizeof f);
    f = eg_gl.egl.GetProcAddress("eglCreatePlatformWindowSurfaceEXT");
    eg_memcpy(&gb.create_platform_window_surface, &f, sizeof f);
    if (!gb.get_config_attrib) return false;
    gb.ok = true;
    return true;
}

EGLDisplay eg_gl_gbm_display(const eg_port_drm_t *drm, const char **why)
{
    if (!eg_gl_load_egl(why) || !load_gbm(why)) return EGL_NO_DISPLAY;
    const char *client = eg_gl.egl.QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!eg_gl_has_ext(client, "EGL_KHR_platform_gbm") && !eg_gl_has_ext(client, "EGL_MESA_platform_gbm")) {
        *why = "libEGL lacks EGL_KHR_platform_gbm";
        return EGL_NO_DISPLAY;
    }
    if (g_card.dev && g_card.fd != drm->fd) eg_gl_gbm_display_release();
    if (!g_card.dev) g_card.dev = gb.create_device(drm->fd);
    if (!g_card.dev) {
        *why = "gbm_create_device on the surface's card failed";
        return EGL_NO_DISPLAY;
    }
    g_card.fd = drm->fd;
    g_card.drm = drm;
    g_card.gbm_format = drm->format == PANEL_RGB565 ? GBM_FORMAT_RGB565 : GBM_FORMAT_XRGB8888;
    EGLDisplay d = eg_gl.egl.GetPlatformDisplayEXT(EGL_PLATFORM_GBM_KHR, g_card.dev, NULL);
    if (d == EGL_NO_DISPLAY) *why = "eglGetPlatformDisplayEXT(EGL_PLATFORM_GBM_KHR) failed";
    return d;
}

void eg_gl_gbm_display_release(void)
{
    if (g_card.dev) gb.device_destroy(g_card.dev);
    g_card.dev = NULL;
    g_card.fd = -1;
}

/* A window config whose native visual is the gbm_surface's format (Mesa's GBM platform makes
 * eglCreateWindowSurface fail with EGL_BAD_MATCH otherwise). */
EGLConfig eg_gl_gbm_config(EGLDisplay dpy)
{
    bool rgb565 = g_card.gbm_format == GBM_FORMAT_RGB565;
    const EGLint ca[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
                          EGL_RED_SIZE, rgb565 ? 5 : 8, EGL_GREEN_SIZE, rgb565 ? 6 : 8,
                          EGL_BLUE_SIZE, rgb565 ? 5 : 8, EGL_ALPHA_SIZE, 0, EGL_NONE };
    EGLConfig cfgs[64];
    EGLint n = 0;
    if (!gb.ok || !eg_gl.egl.ChooseConfig(dpy, ca, cfgs, 64, &n)) return (EGLConfig)0;
    for (EGLint i = 0; i < n; i++) {
        EGLint vid = 0;
        if (gb.get_config_attrib(dpy, cfgs[i], EGL_NATIVE_VISUAL_ID, &vid) && (uint32_t)vid == g_card.gbm_format)
            return cfgs[i];
    }
    return (EGLConfig)0;
}

eg_status_t eg_gl_gbm_caps(const eg_device_info_t *info, const eg_hal_window_t *win, eg_hal_window_caps_t *caps)
{
    const eg_port_drm_t *drm = win->drm;
    if (info->ordinal != EG_GL_ORDINAL_GBM || !gb.ok || !drm || drm->fd < 0 || drm != g_card.drm)
        return EG_STATUS_UNAVAILABLE;   /* an adapter bound to another output, or to none */
    eg_memset(caps, 0, sizeof *caps);
    /* BGRA8Unorm first (the byte order of XRGB8888); RGB565 outputs are written by the blit. */
    caps->formats[caps->format_count++] = WGPUTextureFormat_BGRA8Unorm;
    caps->formats[caps->format_count++] = WGPUTextureFormat_RGBA8Unorm;
    /* Every Present waits for its flip (one vertical blank): Fifo. */
    caps->present_modes[caps->present_mode_count++] = WGPUPresentMode_Fifo;
    caps->alpha_modes[caps->alpha_mode_count++] = WGPUCompositeAlphaMode_Opaque;
    caps->usages = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst |
                   WGPUTextureUsage_TextureBinding;
    caps->extent_width_px = caps->extent_height_px = 0;   /* up to the mode: anchored top-left */
    return EG_STATUS_OK;
}

/* Spec: webgpu-headers wgpuSurfaceConfigure (the configuration must be within the surface's
 * capabilities). The output has no scaler, so, as validate_size does for panels (surface.c), a
 * frame larger than the mode is refused; the capabilities' extent is 0 x 0 because any smaller
 * size is fine (shown at the top-left). */
eg_gl_gbm_chain_t *eg_gl_gbm_chain_create(eg_port_drm_t *drm, const eg_hal_window_config_t *cfg,
                                          void **native_window)
{
    if (drm != g_card.drm || !g_card.dev) {
        eg_hal_error_detail(WGPUErrorType_Validation, EG_E_SURFACE_UNSUPPORTED, "config.device's adapter is "
                            "bound to another KMS output (request it with this surface as compatibleSurface)");
        return NULL;
    }
    if (cfg->width_px > drm->width_px || cfg->height_px > drm->height_px) {
        eg_hal_error_detail(WGPUErrorType_Validation, EG_E_SURFACE_SIZE, "config size %ux%u is larger than "
                            "the KMS mode (%ux%u)", (unsigned)cfg->width_px, (unsigned)cfg->height_px,
                            (unsigned)drm->width_px, (unsigned)drm->height_px);
        return NULL;
    }
    eg_gl_gbm_chain_t *c = NULL;
    for (uint32_t i = 0; !c && i < EG_ARRAY_LEN(g_chains); i++)
        if (!g_chains[i].used) c = &g_chains[i];
    if (!c) {
        eg_hal_error_detail(WGPUErrorType_OutOfMemory, EG_E_POOL_FULL, "no free GBM surface record "
                            "(EMGPU_MAX_SURFACES = %u)", (unsigned)EMGPU_MAX_SURFACES);
        return NULL;
    }
    eg_memset(c, 0, sizeof *c);
    c->surface = gb.surface_create(g_card.dev, drm->width_px, drm->height_px, g_card.gbm_format,
                                   GBM_BO_USE_SCANOUT | GBM_BO_USE_RENDERING);
    if (!c->surface) {
        eg_hal_error_detail(WGPUErrorType_Internal, EG_E_HAL_INTERNAL, "gbm_surface_create %ux%u %s (scan-out, "
                            "rendering) failed in the driver", (unsigned)drm->width_px, (unsigned)drm->height_px,
                            g_card.gbm_format == GBM_FORMAT_RGB565 ? "RGB565" : "XRGB8888");
        return NULL;
    }
    c->used = true;
    c->drm = drm;
    *native_window = c->surface;
    return c;
}

EGLSurface eg_gl_gbm_window_surface(EGLDisplay dpy, EGLConfig config, void *native_window)
{
    if (gb.create_platform_window_surface)
        return gb.create_platform_window_surface(dpy, config, native_window, NULL);
    return EGL_NO_SURFACE;
}

/* The framebuffer of bo, added the first time bo is seen; 0 when the kernel refuses it. */
static uint32_t fb_of(eg_gl_gbm_chain_t *c, struct gbm_bo *bo)
{
    uint32_t free_slot = BO_CACHE;
    for (uint32_t i = 0; i < BO_CACHE; i++) {
        if (c->fbs[i].bo == bo) return c->fbs[i].fb_id;
        if (!c->fbs[i].bo && free_slot == BO_CACHE) free_slot = i;
    }
    if (free_slot == BO_CACHE) {   /* more buffers than Mesa makes: refuse rather than leak */
        eg_log(EG_LOG_ERROR, "gles: the gbm_surface cycles through more than %u buffers", BO_CACHE);
        return 0;
    }
    uint32_t fb_id = 0;
    if (!eg_port_drm_fb_add(c->drm, gb.bo_handle(bo).u32, gb.bo_stride(bo), &fb_id)) return 0;
    c->fbs[free_slot].bo = bo;
    c->fbs[free_slot].fb_id = fb_id;
    return fb_id;
}

uint32_t eg_gl_gbm_flip(eg_gl_gbm_chain_t *c)
{
    struct gbm_bo *bo = gb.lock_front(c->surface);
    if (!bo) {
        eg_log(EG_LOG_ERROR, "gles: gbm_surface_lock_front_buffer found no buffer after eglSwapBuffers");
        return EG_HAL_FRAME_OUT_OF_MEMORY;
    }
    uint32_t fb_id = fb_of(c, bo);
    if (!fb_id || !eg_port_drm_show_fb(c->drm, fb_id, !c->shown_any)) {
        gb.release_buffer(c->surface, bo);
        return EG_HAL_FRAME_LOST;   /* the output refused it (another master, unplugged): logged */
    }
    /* The flip (or mode set) has completed: the buffer shown before is no longer scanned out. */
    if (c->shown) gb.release_buffer(c->surface, c->shown);
    c->shown = bo;
    c->shown_any = true;
    return EG_HAL_FRAME_OPTIMAL;
}

/* Before the EGL surface goes (its buffers go with it in Mesa): the CRTC back to the dumb
 * buffer, then the framebuffers removed and the shown buffer released. */
void eg_gl_gbm_chain_stop(eg_gl_gbm_chain_t *c)
{
    if (!c || !c->used) return;
    if (c->shown_any && !eg_port_drm_show_dumb(c->drm))
        eg_log(EG_LOG_WARN, "gles: the CRTC could not be given back to the dumb buffer");
    c->shown_any = false;
    for (uint32_t i = 0; i < BO_CACHE; i++)
        if (c->fbs[i].bo) eg_port_drm_fb_remove(c->drm, c->fbs[i].fb_id);
    eg_memset(c->fbs, 0, sizeof c->fbs);
    if (c->shown) gb.release_buffer(c->surface, c->shown);
    c->shown = NULL;
}

/* After the EGL surface is destroyed. */
void eg_gl_gbm_chain_destroy(eg_gl_gbm_chain_t *c)
{
    if (!c || !c->used) return;
    eg_gl_gbm_chain_stop(c);
    gb.surface_destroy(c->surface);
    eg_memset(c, 0, sizeof *c);
}

#endif /* EMGPU_HAL_GLES */
