/* hal/gles device: EGL display and context, adapter probe (limits from glGet*), queue and fences.
 *
 * Platforms. Headless first: EGL_EXT_platform_device (what NVIDIA's EGL offers; a hardware
 * device is preferred over Mesa's software one) and then EGL_PLATFORM_SURFACELESS_MESA (Mesa,
 * llvmpipe here). EMGPU_GLES_PLATFORM=device|surfaceless picks one. X11 (helper egl): an adapter
 * requested with compatibleSurface set to an X11 window probes through probe_window, which opens
 * a second EGL display on that window's Display (EGL_PLATFORM_X11_KHR); that adapter's devices
 * make their contexts there, because an EGL window surface only works with contexts of its own
 * EGLDisplay (gl_surface_window.c). Device work still runs surfaceless. The X11 EGL display is
 * terminated after the probe and when its last device closes, so the application may then
 * XCloseDisplay. GBM/KMS (helper gbm) is one more display of that kind: EGL_PLATFORM_GBM_KHR on a
 * gbm_device of a DRM surface's card fd (gl_gbm.c), kept and terminated the same way.
 *
 * Context. GLES 3.1 is asked for first, then 3.0 (or 3.0 only with EMGPU_GLES_FORCE_30=1 or
 * eg_gl_force_es30()). On 3.0 there is no compute, no storage buffers or textures and no
 * indirect draws: the adapter reports those limits as 0 and the kernel's validation keeps
 * applications from reaching them.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/features.h"
#include "kernel/base/log.h"
#include "port/port.h"

/* An EGL display the devices' contexts live on: the headless one, or (helper egl) one on an
 * application's X11 Display. */
typedef struct gl_display {
    EGLDisplay dpy;
    bool no_config;                 /* EGL_KHR_no_config_context */
    void *native;                   /* X11: the Display *; NULL headless */
    uint32_t devices;               /* X11: open devices; terminated when it drops to 0 */
} gl_display_t;

static gl_display_t g_head = { EGL_NO_DISPLAY, false, NULL, 0 };
static gl_display_t g_x11 = { EGL_NO_DISPLAY, false, NULL, 0 };
static gl_display_t g_gbm = { EGL_NO_DISPLAY, false, NULL, 0 };   /* helper gbm: native = the card's eg_port_drm_t */
static bool g_dpy_tried;
static const char *g_dpy_why;
static int g_force30 = -1;          /* -1: read the environment; 0/1: set by eg_gl_force_es30 */
static eg_device_info_t g_info[2];  /* cached probe result per context version (3.0, 3.1) */
static bool g_info_ok[2];
static eg_hal_device_t g_devices[EMGPU_MAX_DEVICES];

void eg_gl_force_es30(bool on);
void eg_gl_force_es30(bool on) { g_force30 = on ? 1 : 0; }

static bool force30(void)
{
    if (g_force30 >= 0) return g_force30 == 1;
    const char *e = eg_port_getenv("EMGPU_GLES_FORCE_30");
    return e && e[0] == '1';
}

static bool has_ext(const char *list, const char *name)
{
    size_t n = eg_strlen(name);
    for (const char *p = list; p && *p;) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if ((size_t)(e - p) == n && eg_memcmp(p, name, n) == 0) return true;
        p = e;
    }
    return false;
}

bool eg_gl_has_ext(const char *list, const char *name) { return has_ext(list, name); }

/* EGL_EXT_platform_device: the first hardware device, else the first one (Mesa's software). */
static EGLDisplay open_device_platform(void)
{
    if (!eg_gl.egl.QueryDevicesEXT) return EGL_NO_DISPLAY;
    EGLDeviceEXT devs[8];
    EGLint n = 0;
    if (!eg_gl.egl.QueryDevicesEXT(8, devs, &n) || n <= 0) return EGL_NO_DISPLAY;
    EGLint pick = 0;
    for (EGLint i = 0; i < n && eg_gl.egl.QueryDeviceStringEXT; i++) {
        const char *ext = eg_gl.egl.QueryDeviceStringEXT(devs[i], EGL_EXTENSIONS);
        if (!has_ext(ext, "EGL_MESA_device_software")) { pick = i; break; }
    }
    return eg_gl.egl.GetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devs[pick], NULL);
}

static bool init_display(EGLDisplay d)
{
    EGLint major = 0, minor = 0;
    return d != EGL_NO_DISPLAY && eg_gl.egl.Initialize(d, &major, &minor);
}

static bool open_display(const char **why)
{
    if (g_dpy_tried) {
        *why = g_dpy_why;
        return g_head.dpy != EGL_NO_DISPLAY;
    }
    g_dpy_tried = true;
    if (!eg_gl_load_egl(why)) { g_dpy_why = *why; return false; }
    const char *client = eg_gl.egl.QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    const char *want = eg_port_getenv("EMGPU_GLES_PLATFORM");
    bool try_dev = !want || eg_strcmp(want, "device") == 0;
    bool try_sl = !want || eg_strcmp(want, "surfaceless") == 0;
    EGLDisplay d = EGL_NO_DISPLAY;
    if (try_dev && has_ext(client, "EGL_EXT_platform_device")) {
        d = open_device_platform();
        if (!init_display(d)) d = EGL_NO_DISPLAY;
    }
    if (d == EGL_NO_DISPLAY && try_sl && has_ext(client, "EGL_MESA_platform_surfaceless")) {
        d = eg_gl.egl.GetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        if (!init_display(d)) d = EGL_NO_DISPLAY;
    }
    if (d == EGL_NO_DISPLAY) {
        *why = g_dpy_why = "no headless EGL display (EGL_EXT_platform_device or "
                           "EGL_MESA_platform_surfaceless)";
        return false;
    }
    const char *dext = eg_gl.egl.QueryString(d, EGL_EXTENSIONS);
    if (!has_ext(dext, "EGL_KHR_surfaceless_context")) {
        *why = g_dpy_why = "the EGL display lacks EGL_KHR_surfaceless_context";
        return false;
    }
    g_head.no_config = has_ext(dext, "EGL_KHR_no_config_context");
    g_head.dpy = d;
    return true;
}

/* helper egl: a config for window surfaces on the X11 display. 8-bit RGB without alpha first,
 * whose X visual has the depth of an ordinary 24-bit window (Xvfb's default), then with alpha
 * (32-bit visuals). */
EGLConfig eg_gl_window_config(EGLDisplay dpy)
{
    for (EGLint alpha = 0; alpha <= 8; alpha += 8) {
        const EGLint ca[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
                              EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, alpha,
                              EGL_BUFFER_SIZE, 24 + alpha, EGL_NONE };
        EGLConfig cfg = (EGLConfig)0;
        EGLint n = 0;
        if (eg_gl.egl.ChooseConfig(dpy, ca, &cfg, 1, &n) && n >= 1) return cfg;
    }
    return (EGLConfig)0;
}

/* On a display without EGL_KHR_no_config_context the context takes a config: a pbuffer one
 * headless, the window one on X11 (a context is only made current with surfaces of its config). */
static EGLContext create_context(const gl_display_t *d, int minor)
{
    if (!eg_gl.egl.BindAPI(EGL_OPENGL_ES_API)) return EGL_NO_CONTEXT;
    EGLConfig cfg = (EGLConfig)0;
    if (!d->no_config && d->native) {
        cfg = d == &g_gbm ? eg_gl_gbm_config(d->dpy) : eg_gl_window_config(d->dpy);
        if (!cfg) return EGL_NO_CONTEXT;
    } else if (!d->no_config) {
        const EGLint ca[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                              EGL_NONE };
        EGLint n = 0;
        if (!eg_gl.egl.ChooseConfig(d->dpy, ca, &cfg, 1, &n) || n < 1) return EGL_NO_CONTEXT;
    }
    const EGLint attrs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, minor, EGL_NONE };
    return eg_gl.egl.CreateContext(d->dpy, cfg, EGL_NO_CONTEXT, attrs);
}

/* 3.1 unless forced or unavailable; *es31 says which was made. */
static EGLContext create_best_context(const gl_display_t *d, bool want31, bool *es31)
{
    EGLContext c = EGL_NO_CONTEXT;
    if (want31 && !force30()) c = create_context(d, 1);
    *es31 = c != EGL_NO_CONTEXT;
    if (c == EGL_NO_CONTEXT) c = create_context(d, 0);
    return c;
}

static uint32_t gl_int(GLenum e)
{
    GLint v = 0;
    eg_gl.GetIntegerv(e, &v);
    return v > 0 ? (uint32_t)v : 0u;
}

static uint32_t gl_int_i(GLenum e, GLuint i)
{
    GLint v = 0;
    eg_gl.GetIntegeri_v(e, i, &v);
    return v > 0 ? (uint32_t)v : 0u;
}

static void copy_str(char *dst, const char *src)
{
    size_t n = src ? eg_strlen(src) : 0;
    if (n >= EG_DEVICE_NAME_MAX) n = EG_DEVICE_NAME_MAX - 1;
    if (n) eg_memcpy(dst, src, n);
    dst[n] = '\0';
}

/* WebGPU limits from GL queries, never above the WebGPU defaults (the kernel's tier). */
static void fill_limits(WGPULimits *l, bool es31)
{
    eg_limits_default(l);
    uint32_t tex = gl_int(GL_MAX_TEXTURE_SIZE);
    l->maxTextureDimension1D = eg_min_u32(l->maxTextureDimension1D, tex);
    l->maxTextureDimension2D = eg_min_u32(l->maxTextureDimension2D, tex);
    l->maxTextureDimension3D = eg_min_u32(l->maxTextureDimension3D, gl_int(GL_MAX_3D_TEXTURE_SIZE));
    l->maxTextureArrayLayers = eg_min_u32(l->maxTextureArrayLayers, gl_int(GL_MAX_ARRAY_TEXTURE_LAYERS));
    uint32_t units = eg_min_u32(gl_int(GL_MAX_TEXTURE_IMAGE_UNITS), gl_int(GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS));
    units = eg_min_u32(units, EG_GL_MAX_UNITS);
    l->maxSampledTexturesPerShaderStage = eg_min_u32(l->maxSampledTexturesPerShaderStage, units);
    l->maxSamplersPerShaderStage = eg_min_u32(l->maxSamplersPerShaderStage, units);
    uint32_t ubos = eg_min_u32(gl_int(GL_MAX_VERTEX_UNIFORM_BLOCKS), gl_int(GL_MAX_FRAGMENT_UNIFORM_BLOCKS));
    l->maxUniformBuffersPerShaderStage = eg_min_u32(l->maxUniformBuffersPerShaderStage, ubos);
    l->maxUniformBufferBindingSize = eg_min_u64(l->maxUniformBufferBindingSize, gl_int(GL_MAX_UNIFORM_BLOCK_SIZE));
    uint32_t ua = gl_int(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT);
    l->minUniformBufferOffsetAlignment = eg_max_u32(l->minUniformBufferOffsetAlignment, ua);
    l->maxVertexAttributes = eg_min_u32(l->maxVertexAttributes, gl_int(GL_MAX_VERTEX_ATTRIBS));
    l->maxVertexBufferArrayStride = eg_min_u32(l->maxVertexBufferArrayStride, 2048u);
    l->maxInterStageShaderVariables = eg_min_u32(l->maxInterStageShaderVariables,
                                                 gl_int(GL_MAX_VARYING_VECTORS));
    uint32_t ca = eg_min_u32(gl_int(GL_MAX_COLOR_ATTACHMENTS), gl_int(GL_MAX_DRAW_BUFFERS));
    l->maxColorAttachments = eg_min_u32(l->maxColorAttachments, ca);
    if (!es31) {
        /* GLES 3.0: no SSBOs, images or compute (storage limits and compute report 0). */
        l->maxStorageBuffersPerShaderStage = 0;
        l->maxStorageTexturesPerShaderStage = 0;
        l->maxDynamicStorageBuffersPerPipelineLayout = 0;
        l->maxComputeWorkgroupStorageSize = 0;
        l->maxComputeInvocationsPerWorkgroup = 0;
        l->maxComputeWorkgroupSizeX = l->maxComputeWorkgroupSizeY = l->maxComputeWorkgroupSizeZ = 0;
        l->maxComputeWorkgroupsPerDimension = 0;
        return;
    }
    uint32_t ssbo = eg_min_u32(gl_int(GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS),
                               gl_int(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS));
    l->maxStorageBuffersPerShaderStage = eg_min_u32(l->maxStorageBuffersPerShaderStage, ssbo);
    l->maxStorageBufferBindingSize = eg_min_u64(l->maxStorageBufferBindingSize,
                                                gl_int(GL_MAX_SHADER_STORAGE_BLOCK_SIZE));
    l->minStorageBufferOffsetAlignment = eg_max_u32(l->minStorageBufferOffsetAlignment,
                                                    gl_int(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT));
    uint32_t img = eg_min_u32(gl_int(GL_MAX_FRAGMENT_IMAGE_UNIFORMS), gl_int(GL_MAX_COMPUTE_IMAGE_UNIFORMS));
    l->maxStorageTexturesPerShaderStage = eg_min_u32(l->maxStorageTexturesPerShaderStage, img);
    l->maxComputeWorkgroupStorageSize = eg_min_u32(l->maxComputeWorkgroupStorageSize,
                                                   gl_int(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE));
    l->maxComputeInvocationsPerWorkgroup = eg_min_u32(l->maxComputeInvocationsPerWorkgroup,
                                                      gl_int(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS));
    l->maxComputeWorkgroupSizeX = eg_min_u32(l->maxComputeWorkgroupSizeX, gl_int_i(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0));
    l->maxComputeWorkgroupSizeY = eg_min_u32(l->maxComputeWorkgroupSizeY, gl_int_i(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 1));
    l->maxComputeWorkgroupSizeZ = eg_min_u32(l->maxComputeWorkgroupSizeZ, gl_int_i(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 2));
    uint32_t wg = eg_min_u32(gl_int_i(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0), gl_int_i(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1));
    wg = eg_min_u32(wg, gl_int_i(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 2));
    l->maxComputeWorkgroupsPerDimension = eg_min_u32(l->maxComputeWorkgroupsPerDimension, wg);
}

static bool gl_has_ext(const char *name)
{
    uint32_t n = gl_int(GL_NUM_EXTENSIONS);
    for (uint32_t i = 0; i < n; i++) {
        const char *e = (const char *)eg_gl.GetStringi(GL_EXTENSIONS, i);
        if (e && eg_strcmp(e, name) == 0) return true;
    }
    return false;
}

static void fill_info(eg_device_info_t *info, bool es31)
{
    eg_memset(info, 0, sizeof *info);
    const char *renderer = (const char *)eg_gl.GetString(GL_RENDERER);
    info->backend = WGPUBackendType_OpenGLES;
    bool sw = renderer && (eg_memcmp(renderer, "llvmpipe", 8) == 0 || eg_memcmp(renderer, "softpipe", 8) == 0);
    info->adapter_type = sw ? WGPUAdapterType_CPU : WGPUAdapterType_Unknown;
    copy_str(info->vendor, (const char *)eg_gl.GetString(GL_VENDOR));
    copy_str(info->architecture, es31 ? "GLES 3.1" : "GLES 3.0");
    copy_str(info->device, renderer);
    copy_str(info->description, (const char *)eg_gl.GetString(GL_VERSION));
    fill_limits(&info->limits, es31);
    uint64_t f = 0;
    if (es31) f |= 1ull << eg_feature_bit(WGPUFeatureName_CoreFeaturesAndLimits);
    f |= 1ull << eg_feature_bit(WGPUFeatureName_Depth32FloatStencil8);
    if (gl_has_ext("GL_OES_texture_float_linear"))
        f |= 1ull << eg_feature_bit(WGPUFeatureName_Float32Filterable);
    info->features = f;
}

/* Makes prev (a device's context, or none) current again after a probe, on its own display. */
static void restore_current(const gl_display_t *d, EGLContext prev)
{
    for (uint32_t i = 0; i < EG_ARRAY_LEN(g_devices) && prev != EGL_NO_CONTEXT; i++)
        if (g_devices[i].open && g_devices[i].ctx == prev) {
            eg_gl.egl.MakeCurrent(g_devices[i].dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, prev);
            return;
        }
    eg_gl.egl.MakeCurrent(d->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

/* Makes a context on d, fills *info from it and destroys it again. */
static eg_status_t probe_on(const gl_display_t *d, bool want31, eg_device_info_t *info)
{
    bool es31 = false;
    EGLContext prev = eg_gl.egl.GetCurrentContext();
    EGLContext c = create_best_context(d, want31, &es31);
    if (c == EGL_NO_CONTEXT) {
        eg_log(EG_LOG_INFO, "gles: backend unavailable: no GLES 3.0 context (EGL error 0x%x)",
               (unsigned)eg_gl.egl.GetError());
        return EG_STATUS_UNAVAILABLE;
    }
    eg_gl.egl.MakeCurrent(d->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c);
    const char *missing = NULL;
    bool ok = eg_gl_load_gl(&missing);
    if (ok) fill_info(info, es31);
    restore_current(d, prev);
    eg_gl.egl.DestroyContext(d->dpy, c);
    if (!ok) {
        eg_log(EG_LOG_INFO, "gles: backend unavailable: libGLESv2.so.2 lacks %s", missing);
        return EG_STATUS_UNAVAILABLE;
    }
    return EG_STATUS_OK;
}

static eg_status_t gles_probe(uint32_t ordinal, eg_device_info_t *info)
{
    const char *why = NULL;
    if (ordinal != 0) return EG_STATUS_UNAVAILABLE;
    if (!open_display(&why) || !eg_gl_shader_library_load(&why)) {
        eg_log(EG_LOG_INFO, "gles: backend unavailable: %s", why);
        return EG_STATUS_UNAVAILABLE;
    }
    uint32_t v = force30() ? 0u : 1u;
    if (!g_info_ok[v]) {
        eg_status_t st = probe_on(&g_head, v == 1, &g_info[v]);
        if (st != EG_STATUS_OK) return st;
        g_info_ok[v] = true;
    }
    *info = g_info[v];
    info->ordinal = ordinal;
    return EG_STATUS_OK;
}

/* ---- helper egl: the X11 display (EGL_PLATFORM_X11_KHR on the application's Display *) ---- */

void *eg_gl_x11_native(void) { return g_x11.native; }

/* eglInitialize on first use; Mesa keeps one EGLDisplay per native display, so a terminated one
 * is initialised again. */
static bool x11_up(void)
{
    EGLint major = 0, minor = 0;
    if (g_x11.devices > 0) return true;
    return eg_gl.egl.Initialize(g_x11.dpy, &major, &minor) == EGL_TRUE;
}

/* Terminated when no device uses it: Mesa's exit-time cleanup would otherwise touch a Display the
 * application may have closed by then. */
static void x11_down(void)
{
    if (g_x11.devices == 0 && g_x11.dpy != EGL_NO_DISPLAY) eg_gl.egl.Terminate(g_x11.dpy);
}

/* One X11 Display at a time: another one while devices use the first is refused (the kernel then
 * falls back to the headless adapter and present by copy). */
static bool x11_open(void *native, const char **why)
{
    if (!eg_gl_load_egl(why)) return false;
    if (g_x11.native == native && g_x11.dpy != EGL_NO_DISPLAY) return x11_up();
    if (g_x11.devices > 0) {
        *why = "devices on another X11 Display are still open (one X11 Display at a time)";
        return false;
    }
    const char *client = eg_gl.egl.QueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!has_ext(client, "EGL_EXT_platform_x11") && !has_ext(client, "EGL_KHR_platform_x11")) {
        *why = "libEGL lacks EGL_EXT_platform_x11";
        return false;
    }
    EGLDisplay d = eg_gl.egl.GetPlatformDisplayEXT(EGL_PLATFORM_X11_KHR, native, NULL);
    g_x11.dpy = d;
    g_x11.native = native;
    if (d == EGL_NO_DISPLAY || !x11_up()) {
        g_x11.dpy = EGL_NO_DISPLAY;
        g_x11.native = NULL;
        *why = "eglGetPlatformDisplayEXT(EGL_PLATFORM_X11_KHR) / eglInitialize failed";
        return false;
    }
    const char *dext = eg_gl.egl.QueryString(d, EGL_EXTENSIONS);
    g_x11.no_config = has_ext(dext, "EGL_KHR_no_config_context");
    if (!has_ext(dext, "EGL_KHR_surfaceless_context")) {
        *why = "the X11 EGL display lacks EGL_KHR_surfaceless_context";
        x11_down();
        return false;
    }
    return true;
}

/* ---- helper gbm: the GBM display on a KMS surface's card (gl_gbm.c), kept like the X11 one ---- */

static bool gbm_up(void)
{
    EGLint major = 0, minor = 0;
    if (g_gbm.devices > 0) return true;
    return eg_gl.egl.Initialize(g_gbm.dpy, &major, &minor) == EGL_TRUE;
}

static void gbm_down(void)
{
    if (g_gbm.devices > 0 || g_gbm.dpy == EGL_NO_DISPLAY) return;
    eg_gl.egl.Terminate(g_gbm.dpy);
    g_gbm.dpy = EGL_NO_DISPLAY;
    eg_gl_gbm_display_release();
}

/* One card at a time; drm is the surface's open output (its fd is the DRM master). */
static bool gbm_open(void *drm, const char **why)
{
    if (g_gbm.dpy != EGL_NO_DISPLAY && g_gbm.native == drm) return gbm_up();
    if (g_gbm.devices > 0) {
        *why = "devices on another KMS card are still open (one card at a time)";
        return false;
    }
    gbm_down();
    EGLDisplay d = eg_gl_gbm_display(drm, why);
    g_gbm.dpy = d;
    g_gbm.native = drm;
    if (d == EGL_NO_DISPLAY || !gbm_up()) {
        if (d != EGL_NO_DISPLAY) *why = "eglInitialize of the GBM display failed (no DRI driver for the card?)";
        g_gbm.dpy = EGL_NO_DISPLAY;
        g_gbm.native = NULL;
        eg_gl_gbm_display_release();
        return false;
    }
    const char *dext = eg_gl.egl.QueryString(d, EGL_EXTENSIONS);
    g_gbm.no_config = has_ext(dext, "EGL_KHR_no_config_context");
    if (!has_ext(dext, "EGL_KHR_surfaceless_context")) {
        *why = "the GBM EGL display lacks EGL_KHR_surfaceless_context";
        gbm_down();
        return false;
    }
    return true;
}

static eg_status_t gbm_probe(const eg_hal_window_t *win, eg_device_info_t *info)
{
    const char *why = NULL;
    if (!gbm_open(win->drm, &why) || !eg_gl_shader_library_load(&why)) {
        eg_log(EG_LOG_INFO, "gles: no adapter on the KMS surface's card (GBM): %s; its devices "
               "present by copy into the dumb buffers", why);
        return EG_STATUS_UNAVAILABLE;
    }
    eg_status_t st = probe_on(&g_gbm, !force30(), info);
    if (st == EG_STATUS_OK) {
        info->ordinal = EG_GL_ORDINAL_GBM;
        eg_log(EG_LOG_INFO, "gles: adapter bound to the KMS card (EGL_PLATFORM_GBM_KHR, %s): its devices "
               "present natively through a gbm_surface", info->device);
    }
    gbm_down();
    return st;
}

static eg_status_t gles_probe_window(const eg_hal_window_t *win, eg_device_info_t *info)
{
    const char *why = NULL;
    if (win->drm) return gbm_probe(win, info);
    if (!win->display || !x11_open(win->display, &why) || !eg_gl_shader_library_load(&why)) {
        eg_log(EG_LOG_INFO, "gles: no adapter on the window's X11 display: %s",
               why ? why : "no Display *");
        return EG_STATUS_UNAVAILABLE;
    }
    eg_status_t st = probe_on(&g_x11, !force30(), info);
    x11_down();
    if (st == EG_STATUS_OK) info->ordinal = EG_GL_ORDINAL_X11;
    return st;
}

void eg_gl_begin(eg_hal_device_t *dev)
{
    if (eg_gl.egl.GetCurrentContext() != dev->ctx)
        eg_gl.egl.MakeCurrent(dev->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, dev->ctx);
}

static void init_gl_state(eg_hal_device_t *d)
{
    eg_gl.GenVertexArrays(1, &d->vao);
    eg_gl.BindVertexArray(d->vao);
    eg_gl.GenFramebuffers(1, &d->fbo_read);
    eg_gl.GenFramebuffers(1, &d->fbo_draw);
    /* WebGPU strips restart at the all-ones index; GLES 3.0 has exactly that mode. */
    eg_gl.Enable(GL_PRIMITIVE_RESTART_FIXED_INDEX);
    /* GL dithers by default (visible on RGB565 targets); WebGPU rounds to nearest. */
    eg_gl.Disable(GL_DITHER);
    eg_gl.PixelStorei(GL_UNPACK_ALIGNMENT, 1);
    eg_gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
    d->ubo_align_B = gl_int(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT);
    d->ssbo_align_B = d->es31 ? gl_int(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT) : 0u;
    d->read_depth = gl_has_ext("GL_NV_read_depth");
    d->read_stencil = gl_has_ext("GL_NV_read_stencil");
    /* Entry points resolve even when unsupported (EGL 1.5 may return stubs): check the version. */
    uint32_t version = gl_int(GL_MAJOR_VERSION) * 10u + gl_int(GL_MINOR_VERSION);
    d->indexed_blend = eg_gl.indexed_blend && (version >= 32u || gl_has_ext("GL_OES_draw_buffers_indexed") ||
                                               gl_has_ext("GL_EXT_draw_buffers_indexed"));
}

static eg_status_t gles_device_open(const eg_device_info_t *info, eg_hal_device_t **out)
{
    const char *e = eg_port_getenv("EMGPU_GLES_DEBUG");
    eg_gl_debug = EMGPU_DEBUG || (e && e[0] == '1');
    bool x11 = info->ordinal == EG_GL_ORDINAL_X11;
    bool gbm = info->ordinal == EG_GL_ORDINAL_GBM;   /* helper gbm */
    const char *why = NULL;
    if (x11 && !x11_open(g_x11.native, &why)) {   /* terminated since the probe: initialise again */
        eg_log(EG_LOG_ERROR, "gles: the adapter's X11 EGL display cannot be opened again: %s", why);
        return EG_STATUS_DEVICE_LOST;
    }
    if (gbm && !gbm_open(g_gbm.native, &why)) {
        eg_log(EG_LOG_ERROR, "gles: the adapter's GBM EGL display cannot be opened again: %s", why);
        return EG_STATUS_DEVICE_LOST;
    }
    const gl_display_t *disp = x11 ? &g_x11 : gbm ? &g_gbm : &g_head;
    for (uint32_t i = 0; i < EG_ARRAY_LEN(g_devices); i++) {
        eg_hal_device_t *d = &g_devices[i];
        if (d->open) continue;
        eg_memset(d, 0, sizeof *d);
        bool want31 = info->limits.maxComputeInvocationsPerWorkgroup > 0;
        d->dpy = disp->dpy;
        d->x11 = x11;
        d->gbm = gbm;
        d->win_cfg = x11 && !disp->no_config ? eg_gl_window_config(disp->dpy) : (EGLConfig)0;
        if (gbm) d->win_cfg = eg_gl_gbm_config(disp->dpy);   /* the surface's format: always needed */
        d->ctx = create_best_context(disp, want31, &d->es31);
        if (d->ctx == EGL_NO_CONTEXT) {
            if (x11) x11_down();
            if (gbm) gbm_down();
            return EG_STATUS_DEVICE_LOST;
        }
        d->info = info;
        d->open = true;
        if (x11) g_x11.devices++;
        if (gbm) g_gbm.devices++;
        eg_gl_begin(d);
        init_gl_state(d);
        *out = d;
        return EG_STATUS_OK;
    }
    if (x11) x11_down();
    if (gbm) gbm_down();
    return EG_STATUS_OUT_OF_MEMORY;
}

static void gles_device_close(eg_hal_device_t *dev)
{
    eg_gl_begin(dev);
    eg_gl.Finish();
    eg_gl_programs_close(dev);
    eg_gl_fbo_close(dev);
    for (uint32_t i = 0; i < EG_GL_FENCE_RING; i++)
        if (dev->fences[i]) eg_gl.DeleteSync(dev->fences[i]);
    eg_gl.DeleteFramebuffers(1, &dev->fbo_read);
    eg_gl.DeleteFramebuffers(1, &dev->fbo_draw);
    eg_gl.DeleteVertexArrays(1, &dev->vao);
    if (dev->flat_ib) eg_gl.DeleteBuffers(1, &dev->flat_ib);
    dev->flat_ib = 0;
    eg_gl.egl.MakeCurrent(dev->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eg_gl.egl.DestroyContext(dev->dpy, dev->ctx);
    dev->open = false;
    if (dev->x11 && g_x11.devices > 0 && --g_x11.devices == 0) x11_down();
    if (dev->gbm && g_gbm.devices > 0 && --g_gbm.devices == 0) gbm_down();
}

/* ---- completion: one fence per submission in a ring ---- */

static void poll_fences(eg_hal_device_t *dev, uint64_t timeout_ns, uint64_t until)
{
    for (uint64_t i = dev->completed + 1; i <= dev->submitted; i++) {
        uint32_t slot = (uint32_t)(i % EG_GL_FENCE_RING);
        GLsync s = dev->fences[slot];
        if (s && dev->fence_index[slot] == i) {
            GLuint64 t = i <= until ? (GLuint64)timeout_ns : 0;
            GLenum r = eg_gl.ClientWaitSync(s, GL_SYNC_FLUSH_COMMANDS_BIT, t);
            if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED) return;
            eg_gl.DeleteSync(s);
            dev->fences[slot] = NULL;
        }
        dev->completed = i;
    }
}

static eg_status_t gles_queue_submit(eg_hal_device_t *dev, const eg_hal_submit_t *sub)
{
    eg_gl_begin(dev);
    for (uint32_t i = 0; i < sub->stream_count; i++) {
        eg_status_t st = eg_gl_execute(dev, sub->streams[i]);
        if (st != EG_STATUS_OK) return st;
    }
    /* Storage writes become visible to later mapping and client reads (buffer updates). */
    if (dev->es31) eg_gl.MemoryBarrier(GL_ALL_BARRIER_BITS);
    uint32_t slot = (uint32_t)(sub->index % EG_GL_FENCE_RING);
    if (dev->fences[slot]) {   /* ring full: that old submission must finish first */
        eg_gl.ClientWaitSync(dev->fences[slot], GL_SYNC_FLUSH_COMMANDS_BIT, ~(GLuint64)0);
        eg_gl.DeleteSync(dev->fences[slot]);
        dev->fences[slot] = NULL;
    }
    dev->fences[slot] = eg_gl.FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    dev->fence_index[slot] = sub->index;
    dev->submitted = sub->index;
    eg_gl.Flush();
    return EG_STATUS_OK;
}

static uint64_t gles_completed_index(eg_hal_device_t *dev)
{
    eg_gl_begin(dev);
    poll_fences(dev, 0, 0);
    return dev->completed;
}

static uint64_t gles_wait_index(eg_hal_device_t *dev, uint64_t index, uint64_t timeout_ns)
{
    eg_gl_begin(dev);
    poll_fences(dev, timeout_ns, index);
    return dev->completed;
}

/* ---- binding-model objects: everything is resolved per pipeline (gl_program.c) ---- */

#define GL_NOTHING(name, type)                                                             \
    static eg_status_t gl_##name##_create(eg_hal_device_t *d, type *o)                      \
    { (void)d; (void)o; return EG_STATUS_OK; }
GL_NOTHING(bind_group_layout, eg_bind_group_layout_t)
GL_NOTHING(pipeline_layout, eg_pipeline_layout_t)
GL_NOTHING(shader_module, eg_shader_module_t)

static void gl_bind_group_layout_destroy(eg_hal_device_t *d, eg_bind_group_layout_t *o) { (void)d; (void)o; }
static void gl_pipeline_layout_destroy(eg_hal_device_t *d, eg_pipeline_layout_t *o)
{
    eg_gl_pipeline_layout_forget(d, o);
}
static void gl_shader_module_destroy(eg_hal_device_t *d, eg_shader_module_t *o)
{
    eg_gl_shader_module_forget(d, o);
}

eg_status_t eg_gl_bind_group_create(eg_hal_device_t *dev, eg_bind_group_t *bg);
static void gl_bind_group_destroy(eg_hal_device_t *d, eg_bind_group_t *o) { (void)d; (void)o; }

/* gl_surface.c (helper x11): surfaces present by copy (readback, then the panel's pixels). */
eg_status_t eg_gl_surface_present(eg_hal_device_t *dev, const eg_texture_t *tex, const struct eg_hal_present *p);
/* gl_surface_window.c (helper egl): EGL window surfaces on the X11 display. */
eg_status_t eg_gl_window_caps(const eg_device_info_t *info, const eg_hal_window_t *win, eg_hal_window_caps_t *caps);
eg_status_t eg_gl_window_configure(eg_hal_device_t *dev, const eg_hal_window_t *win,
                                   const eg_hal_window_config_t *cfg, struct eg_hal_swapchain **sc);
void eg_gl_window_unconfigure(eg_hal_device_t *dev, struct eg_hal_swapchain *sc);
uint32_t eg_gl_window_acquire(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex);
uint32_t eg_gl_window_present(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex,
                              uint16_t from_use);
void eg_gl_window_release(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex);

const eg_hal_ops_t eg_gles_ops = {
    .name = "gles",
    .backend = WGPUBackendType_OpenGLES,
    .probe = gles_probe,
    .device_open = gles_device_open,
    .device_close = gles_device_close,
    .buffer_create = eg_gl_buffer_create,
    .buffer_destroy = eg_gl_buffer_destroy,
    .buffer_map = eg_gl_buffer_map,
    .buffer_unmap = eg_gl_buffer_unmap,
    .texture_create = eg_gl_texture_create,
    .texture_destroy = eg_gl_texture_destroy,
    .texture_view_create = eg_gl_texture_view_create,
    .texture_view_destroy = eg_gl_texture_view_destroy,
    .sampler_create = eg_gl_sampler_create,
    .sampler_destroy = eg_gl_sampler_destroy,
    .bind_group_layout_create = gl_bind_group_layout_create,
    .bind_group_layout_destroy = gl_bind_group_layout_destroy,
    .bind_group_create = eg_gl_bind_group_create,
    .bind_group_destroy = gl_bind_group_destroy,
    .pipeline_layout_create = gl_pipeline_layout_create,
    .pipeline_layout_destroy = gl_pipeline_layout_destroy,
    .shader_module_create = gl_shader_module_create,
    .shader_module_destroy = gl_shader_module_destroy,
    .render_pipeline_create = eg_gl_render_pipeline_create,
    .render_pipeline_destroy = eg_gl_render_pipeline_destroy,
    .compute_pipeline_create = eg_gl_compute_pipeline_create,
    .compute_pipeline_destroy = eg_gl_compute_pipeline_destroy,
    .queue_write_buffer = eg_gl_queue_write_buffer,
    .queue_write_texture = eg_gl_queue_write_texture,
    .queue_submit = gles_queue_submit,
    .completed_index = gles_completed_index,
    .wait_index = gles_wait_index,
    .surface_present = eg_gl_surface_present,
    /* helper egl: native window surfaces for adapters bound to an X11 display (probe_window) */
    .probe_window = gles_probe_window,
    .window_caps = eg_gl_window_caps,
    .window_configure = eg_gl_window_configure,
    .window_unconfigure = eg_gl_window_unconfigure,
    .window_acquire = eg_gl_window_acquire,
    .window_present = eg_gl_window_present,
    .window_release = eg_gl_window_release,
};

#endif /* EMGPU_HAL_GLES */
