/* hal/gles window surfaces: an EGL window surface per X11 window, frames blitted into it and shown with eglSwapBuffers.
 *
 * Only devices of an adapter bound to the window's X11 Display (probe_window, gl_device.c) can
 * do this: an EGL window surface must belong to the EGLDisplay of the context drawing into it.
 * For every other device window_caps says UNAVAILABLE and the kernel presents by copy
 * (gl_surface.c), as it logs at Configure.
 *
 * Frames. A frame is an ordinary GL texture of the configured format (texture_create at acquire,
 * deleted by texture_destroy after Present), rendered like any other texture with no surface
 * current (surfaceless). Present makes the window surface current with the device's context,
 * blits the texture into the default framebuffer, swaps and goes back to surfaceless. GL orders
 * the blit after every command submitted before it on the context, so no fence is waited for.
 * Orientation: texel row 0 is GL row 0 of the texture (gl_internal.h) and the top of the image,
 * while row 0 of the default framebuffer is the window's bottom row, so the blit flips y. The
 * frame is anchored at the window's top-left (its height from EGL_HEIGHT).
 * Present modes: Fifo is eglSwapInterval 1, Immediate 0 (EGL clamps to the config's
 * EGL_MIN/MAX_SWAP_INTERVAL; under Xvfb both show at once). Formats: BGRA8Unorm (stored as RGBA
 * by this backend) and RGBA8Unorm; no sRGB (a blit from an sRGB texture would decode it).
 *
 * The same code serves KMS outputs (helper gbm): for a device of an adapter bound to a card
 * (EG_GL_ORDINAL_GBM) the window is a gbm_surface (gl_gbm.c), and Present follows the swap with
 * the scan-out of the front buffer (eg_gl_gbm_flip). Parts of the mode outside a smaller frame
 * are cleared to black, so the screen shows nothing left over from an earlier configuration.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/texture.h"
#include "kernel/base/log.h"

typedef EGLSurface (EGLAPIENTRY *pfn_create_window_surface)(EGLDisplay, EGLConfig, EGLNativeWindowType,
                                                             const EGLint *);
typedef EGLBoolean (EGLAPIENTRY *pfn_destroy_surface)(EGLDisplay, EGLSurface);
typedef EGLBoolean (EGLAPIENTRY *pfn_swap_buffers)(EGLDisplay, EGLSurface);
typedef EGLBoolean (EGLAPIENTRY *pfn_swap_interval)(EGLDisplay, EGLint);
typedef EGLBoolean (EGLAPIENTRY *pfn_query_surface)(EGLDisplay, EGLSurface, EGLint, EGLint *);

static struct {
    bool tried, ok;
    pfn_create_window_surface create_window_surface;
    pfn_destroy_surface destroy_surface;
    pfn_swap_buffers swap_buffers;
    pfn_swap_interval swap_interval;
    pfn_query_surface query_surface;
} ew;

struct eg_hal_swapchain {
    bool used;
    EGLSurface surface;
    EGLint interval;
    eg_gl_gbm_chain_t *gbm;       /* helper gbm: a KMS output's gbm_surface, else NULL */
};

static struct eg_hal_swapchain chains[EMGPU_MAX_SURFACES];

/* EGL 1.0/1.1 entry points not in gl_loader.c's table; eglGetProcAddress returns core functions
 * too (EGL 1.5, EGL_KHR_get_all_proc_addresses). */
static bool load_fns(void)
{
    if (ew.tried) return ew.ok;
    ew.tried = true;
    if (!eg_gl.egl.GetProcAddress) return false;
#define EW(field, name) do { __eglMustCastToProperFunctionPointerType f_ = eg_gl.egl.GetProcAddress(name); \
                             if (!f_) return false; \
                             eg_memcpy(&ew.field, &f_, sizeof f_); } while (0)
    EW(create_window_surface, "eglCreateWindowSurface");
    EW(destroy_surface, "eglDestroySurface");
    EW(swap_buffers, "eglSwapBuffers");
    EW(swap_interval, "eglSwapInterval");
    EW(query_surface, "eglQuerySurface");
#undef EW
    ew.ok = true;
    return true;
}

eg_status_t eg_gl_window_caps(const eg_device_info_t *info, const eg_hal_window_t *win, eg_hal_window_caps_t *caps);
eg_status_t eg_gl_window_caps(const eg_device_info_t *info, const eg_hal_window_t *win, eg_hal_window_caps_t *caps)
{
    if (win->drm) return eg_gl_gbm_caps(info, win, caps);
    if (info->ordinal != EG_GL_ORDINAL_X11 || !win->display || win->display != eg_gl_x11_native() ||
        !load_fns())
        return EG_STATUS_UNAVAILABLE;
    eg_memset(caps, 0, sizeof *caps);
    /* BGRA8Unorm first: WebGPU's usual preferred canvas format (and the X11 visual's order). */
    caps->formats[caps->format_count++] = WGPUTextureFormat_BGRA8Unorm;
    caps->formats[caps->format_count++] = WGPUTextureFormat_RGBA8Unorm;
    caps->present_modes[caps->present_mode_count++] = WGPUPresentMode_Fifo;
    caps->present_modes[caps->present_mode_count++] = WGPUPresentMode_Immediate;
    /* The window config has no alpha channel (gl_device.c): the window shows the frame opaque. */
    caps->alpha_modes[caps->alpha_mode_count++] = WGPUCompositeAlphaMode_Opaque;
    caps->usages = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst |
                   WGPUTextureUsage_TextureBinding;
    caps->extent_width_px = caps->extent_height_px = 0;   /* any: the blit anchors it top-left */
    return EG_STATUS_OK;
}

/* Makes the window surface current with the device's context (for swap interval and present). */
static bool make_current(eg_hal_device_t *dev, EGLSurface surf)
{
    return eg_gl.egl.MakeCurrent(dev->dpy, surf, surf, dev->ctx) == EGL_TRUE;
}

static void make_surfaceless(eg_hal_device_t *dev)
{
    eg_gl.egl.MakeCurrent(dev->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, dev->ctx);
}

static void destroy_surface(eg_hal_device_t *dev, struct eg_hal_swapchain *c)
{
    if (c->surface == EGL_NO_SURFACE) return;
    eg_gl_begin(dev);
    eg_gl.Finish();   /* no blit into it may still be pending */
    make_surfaceless(dev);
    eg_gl_gbm_chain_stop(c->gbm);   /* scan-out ends before Mesa frees the surface's buffers */
    ew.destroy_surface(dev->dpy, c->surface);
    c->surface = EGL_NO_SURFACE;
    eg_gl_gbm_chain_destroy(c->gbm);
    c->gbm = NULL;
}

/* helper gbm: a gbm_surface for the KMS output and an EGL window surface on it. */
static EGLSurface create_gbm_surface(eg_hal_device_t *dev, const eg_hal_window_t *win,
                                     const eg_hal_window_config_t *cfg, struct eg_hal_swapchain *c)
{
    void *native = NULL;
    EGLConfig config = dev->win_cfg;
    if (!config) {
        eg_hal_error_detail(WGPUErrorType_Internal, EG_E_HAL_INTERNAL, "the GBM EGL display has no window "
                            "config whose EGL_NATIVE_VISUAL_ID is the output's format");
        return EGL_NO_SURFACE;
    }
    c->gbm = eg_gl_gbm_chain_create(win->drm, cfg, &native);
    if (!c->gbm) return EGL_NO_SURFACE;
    EGLSurface s = eg_gl_gbm_window_surface(dev->dpy, config, native);
    if (s == EGL_NO_SURFACE) s = ew.create_window_surface(dev->dpy, config, (EGLNativeWindowType)(uintptr_t)native, NULL);
    if (s == EGL_NO_SURFACE) {
        eg_hal_error_detail(WGPUErrorType_Internal, EG_E_HAL_INTERNAL, "the EGL window surface on the "
                            "gbm_surface failed (EGL error 0x%x)", (unsigned)eg_gl.egl.GetError());
        eg_gl_gbm_chain_destroy(c->gbm);
        c->gbm = NULL;
    }
    return s;
}

/* The window surface is made afresh at each Configure: EGL allows one window surface per native
 * window, so the old one goes first (then a failure leaves the surface unconfigured). */
eg_status_t eg_gl_window_configure(eg_hal_device_t *dev, const eg_hal_window_t *win,
                                   const eg_hal_window_config_t *cfg, struct eg_hal_swapchain **sc);
eg_status_t eg_gl_window_configure(eg_hal_device_t *dev, const eg_hal_window_t *win,
                                   const eg_hal_window_config_t *cfg, struct eg_hal_swapchain **sc)
{
    bool gbm = win->drm && dev->gbm;   /* helper gbm */
    if (!gbm && (!dev->x11 || win->display != eg_gl_x11_native())) return EG_STATUS_UNAVAILABLE;
    if (!load_fns()) return EG_STATUS_UNAVAILABLE;
    struct eg_hal_swapchain *c = *sc;
    for (uint32_t i = 0; !c && i < EG_ARRAY_LEN(chains); i++)
        if (!chains[i].used) c = &chains[i];
    if (!c) {
        eg_hal_error_detail(WGPUErrorType_OutOfMemory, EG_E_POOL_FULL, "no free GLES window surface record "
                            "(EMGPU_MAX_SURFACES = %u)", (unsigned)EMGPU_MAX_SURFACES);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    destroy_surface(dev, c);
    c->used = true;
    EGLConfig config = dev->win_cfg ? dev->win_cfg : eg_gl_window_config(dev->dpy);
    if (gbm)
        c->surface = create_gbm_surface(dev, win, cfg, c);
    else
        c->surface = config ? ew.create_window_surface(dev->dpy, config, (EGLNativeWindowType)(uintptr_t)win->window, NULL)
                            : EGL_NO_SURFACE;
    if (c->surface == EGL_NO_SURFACE && gbm) {
        c->used = false;
        *sc = NULL;
        return EG_STATUS_UNAVAILABLE;
    }
    if (c->surface == EGL_NO_SURFACE) {
        eg_log(EG_LOG_ERROR, "gles: eglCreateWindowSurface for X11 window 0x%llx failed (EGL error 0x%x)",
               (unsigned long long)win->window, (unsigned)eg_gl.egl.GetError());
        c->used = false;
        *sc = NULL;
        return EG_STATUS_UNAVAILABLE;
    }
    /* Fifo (and FifoRelaxed, which the caps do not offer) wait for a vertical blank. */
    c->interval = cfg->present_mode == WGPUPresentMode_Immediate ? 0 : 1;
    eg_gl_begin(dev);
    if (make_current(dev, c->surface)) ew.swap_interval(dev->dpy, c->interval);
    make_surfaceless(dev);
    *sc = c;
    return EG_STATUS_OK;
}

void eg_gl_window_unconfigure(eg_hal_device_t *dev, struct eg_hal_swapchain *sc);
void eg_gl_window_unconfigure(eg_hal_device_t *dev, struct eg_hal_swapchain *sc)
{
    if (!sc || !sc->used) return;
    destroy_surface(dev, sc);
    eg_memset(sc, 0, sizeof *sc);
}

uint32_t eg_gl_window_acquire(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex);
uint32_t eg_gl_window_acquire(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex)
{
    if (!sc || sc->surface == EGL_NO_SURFACE) return EG_HAL_FRAME_LOST;
    return eg_gl_texture_create(dev, tex) == EG_STATUS_OK ? EG_HAL_FRAME_OPTIMAL : EG_HAL_FRAME_OUT_OF_MEMORY;
}

static uint32_t swap_status(EGLint err)
{
    switch (err) {
    case EGL_BAD_NATIVE_WINDOW: case EGL_BAD_SURFACE: return EG_HAL_FRAME_LOST;
    case EGL_CONTEXT_LOST: return EG_HAL_FRAME_DEVICE_LOST;
    default: return EG_HAL_FRAME_OUT_OF_MEMORY;
    }
}

/* from_use is unused: GL has no image layouts, and storage writes were made visible by the
 * glMemoryBarrier at the end of each submit (gl_device.c). */
uint32_t eg_gl_window_present(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex,
                              uint16_t from_use);
uint32_t eg_gl_window_present(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex,
                              uint16_t from_use)
{
    (void)from_use;
    if (!sc || sc->surface == EGL_NO_SURFACE) return EG_HAL_FRAME_LOST;
    const eg_gl_texture_t *t = EG_GL_PRIV(tex, eg_gl_texture_t);
    if (!t->name) return EG_HAL_FRAME_OPTIMAL;   /* destroyed before Present: the frame is dropped */
    eg_gl_begin(dev);
    if (!make_current(dev, sc->surface)) {
        EGLint err = eg_gl.egl.GetError();
        make_surfaceless(dev);
        return swap_status(err);
    }
    EGLint win_h = 0;
    if (!ew.query_surface(dev->dpy, sc->surface, EGL_HEIGHT, &win_h) || win_h <= 0)
        win_h = (EGLint)tex->size.height;
    GLint w = (GLint)tex->size.width, h = (GLint)tex->size.height;
    eg_gl.BindFramebuffer(GL_READ_FRAMEBUFFER, dev->fbo_read);
    eg_gl_attach(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, 0, 0);
    eg_gl.ReadBuffer(GL_COLOR_ATTACHMENT0);
    eg_gl.BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    GLenum back = GL_BACK;
    eg_gl.DrawBuffers(1, &back);
    /* Blits obey the scissor test; passes set it (and the masks) again when they begin. */
    eg_gl.Disable(GL_SCISSOR_TEST);
    eg_gl.ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    if (sc->gbm) {   /* the buffer may hold an older frame of another size */
        static const GLfloat black[4] = { 0, 0, 0, 1 };
        eg_gl.ClearBufferfv(GL_COLOR, 0, black);
    }
    /* Destination rows win_h-1 (the window's top) down to win_h-h: the y flip. */
    eg_gl.BlitFramebuffer(0, 0, w, h, 0, win_h, w, win_h - h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    eg_gl.FramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    bool blit_ok = eg_gl_check("surface present (blit to the window)");
    EGLBoolean swapped = ew.swap_buffers(dev->dpy, sc->surface);
    EGLint err = swapped ? EGL_SUCCESS : eg_gl.egl.GetError();
    make_surfaceless(dev);
    if (!swapped) {
        eg_log(EG_LOG_ERROR, "gles: eglSwapBuffers failed (EGL error 0x%x)", (unsigned)err);
        return swap_status(err);
    }
    if (sc->gbm) {   /* helper gbm: scan the new front buffer out */
        uint32_t r = eg_gl_gbm_flip(sc->gbm);
        if (r != EG_HAL_FRAME_OPTIMAL) return r;
    }
    return blit_ok ? EG_HAL_FRAME_OPTIMAL : EG_HAL_FRAME_OUT_OF_MEMORY;
}

/* The frame is an ordinary texture: texture_destroy deletes it, nothing here to forget. */
void eg_gl_window_release(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex);
void eg_gl_window_release(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex)
{
    (void)dev;
    (void)sc;
    (void)tex;
}

#endif /* EMGPU_HAL_GLES */
