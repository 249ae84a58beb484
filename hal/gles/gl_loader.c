/* hal/gles loader: opens libEGL/libGLESv2 through the port and fills the EGL/GL function table. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/base/fmt.h"
#include "kernel/base/log.h"
#include "port/port.h"

eg_gl_fns_t eg_gl;

static void *lib_egl, *lib_gles;
static bool egl_tried, egl_ok, gl_ok;
static const char *egl_why;

/* POSIX allows a data pointer <-> function pointer round trip (dlsym's contract); a memcpy
 * keeps -Wpedantic-style conversions out of the picture. */
static void store_fn(void *slot, void *fn)
{
    eg_memcpy(slot, &fn, sizeof fn);
}

static void *egl_proc(const char *name)
{
    void *p = eg_port_lib_symbol(lib_egl, name);
    if (!p && eg_gl.egl.GetProcAddress) {
        __eglMustCastToProperFunctionPointerType f = eg_gl.egl.GetProcAddress(name);
        eg_memcpy(&p, &f, sizeof p);
    }
    return p;
}

bool eg_gl_load_egl(const char **why)
{
    if (egl_tried) {
        *why = egl_why;
        return egl_ok;
    }
    egl_tried = true;
    lib_egl = eg_port_lib_open("libEGL.so.1");
    if (!lib_egl) {
        *why = egl_why = "libEGL.so.1 not found (install libegl1 and a driver, e.g. libegl-mesa0)";
        return false;
    }
    lib_gles = eg_port_lib_open("libGLESv2.so.2");
    if (!lib_gles) {
        *why = egl_why = "libGLESv2.so.2 not found (install libgles2)";
        return false;
    }
    store_fn(&eg_gl.egl.GetProcAddress, eg_port_lib_symbol(lib_egl, "eglGetProcAddress"));
#define LOAD_EGL(type, name)                                                          \
    store_fn(&eg_gl.egl.name, egl_proc("egl" #name));                                 \
    if (!eg_gl.egl.name) { *why = egl_why = "libEGL.so.1 lacks egl" #name; return false; }
    EG_EGL_FUNCS(LOAD_EGL)
#undef LOAD_EGL
    store_fn(&eg_gl.egl.GetPlatformDisplayEXT, egl_proc("eglGetPlatformDisplayEXT"));
    store_fn(&eg_gl.egl.QueryDevicesEXT, egl_proc("eglQueryDevicesEXT"));
    store_fn(&eg_gl.egl.QueryDeviceStringEXT, egl_proc("eglQueryDeviceStringEXT"));
    if (!eg_gl.egl.GetPlatformDisplayEXT) {
        *why = egl_why = "libEGL.so.1 lacks eglGetPlatformDisplayEXT (EGL_EXT_platform_base)";
        return false;
    }
    egl_ok = true;
    *why = egl_why = NULL;
    return true;
}

/* Core functions: the GLES library's own symbol first (what the ABI exports), then
 * eglGetProcAddress (EGL_KHR_get_all_proc_addresses drivers). */
static void *gl_proc(const char *name)
{
    void *p = eg_port_lib_symbol(lib_gles, name);
    if (!p && eg_gl.egl.GetProcAddress) {
        __eglMustCastToProperFunctionPointerType f = eg_gl.egl.GetProcAddress(name);
        eg_memcpy(&p, &f, sizeof p);
    }
    return p;
}

/* Per-attachment blend entries under their core (3.2), OES and EXT names. */
static void load_indexed_blend(void)
{
    static const char *const sfx[] = { "", "OES", "EXT" };
    char name[48];
    for (uint32_t i = 0; i < EG_ARRAY_LEN(sfx) && !eg_gl.indexed_blend; i++) {
#define LOAD_I(member) eg_fmt(name, sizeof name, "gl" #member "%s", sfx[i]); store_fn(&eg_gl.member, gl_proc(name));
        LOAD_I(Enablei) LOAD_I(Disablei) LOAD_I(BlendEquationSeparatei) LOAD_I(BlendFuncSeparatei) LOAD_I(ColorMaski)
#undef LOAD_I
        eg_gl.indexed_blend = eg_gl.Enablei && eg_gl.Disablei && eg_gl.BlendEquationSeparatei &&
                              eg_gl.BlendFuncSeparatei && eg_gl.ColorMaski;
    }
}

bool eg_gl_load_gl(const char **missing)
{
    if (gl_ok) return true;
#define LOAD_GL30(type, name)                                                       \
    store_fn(&eg_gl.name, gl_proc("gl" #name));                                     \
    if (!eg_gl.name) { *missing = "gl" #name; return false; }
    EG_GL30_FUNCS(LOAD_GL30)
#undef LOAD_GL30
#define LOAD_GL31(type, name) store_fn(&eg_gl.name, gl_proc("gl" #name));
    EG_GL31_FUNCS(LOAD_GL31)
#undef LOAD_GL31
    static const char *const bv[] = { "glDrawElementsInstancedBaseVertex", "glDrawElementsInstancedBaseVertexOES",
                                      "glDrawElementsInstancedBaseVertexEXT" };
    for (uint32_t i = 0; i < EG_ARRAY_LEN(bv) && !eg_gl.DrawElementsInstancedBaseVertex; i++)
        store_fn(&eg_gl.DrawElementsInstancedBaseVertex, gl_proc(bv[i]));
    load_indexed_blend();
    gl_ok = true;
    return true;
}

bool eg_gl_debug;

static const char *gl_error_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "GL error";
    }
}

bool eg_gl_check(const char *what)
{
    GLenum e = eg_gl.GetError();
    if (e == GL_NO_ERROR) return true;
    eg_log(EG_LOG_ERROR, "gles: %s: %s (0x%x)", what, gl_error_name(e), (unsigned)e);
    while (eg_gl.GetError() != GL_NO_ERROR) {}
    return false;
}

#endif /* EMGPU_HAL_GLES */
