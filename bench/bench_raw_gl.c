/* Benchmark scene 6 against raw OpenGL ES 3.1 (llvmpipe via EGL), the lower bound for hal/gles.
 *
 * The same loop as bench_draws.c written directly with GL calls: a headless EGL display (Mesa's
 * surfaceless platform), a 64x64 pbuffer to make the context current, drawing into a 64x64 RGBA8
 * renderbuffer through an FBO (as hal/gles does), 10k draws of a tiny triangle: (a) glDrawArrays,
 * (b) glBindVertexBuffer with a new offset (ES 3.1's vertex-buffer binding) + draw, (c)
 * glBindBufferRange of the uniform block at a new offset (the dynamic offset) + draw. Phases:
 * encode = the GL calls, finish = 0 (GL records nothing to finish), submit = glFlush; the
 * glFinish after it is not counted. libEGL.so.1 / libGLESv2.so.2 are opened at run time.
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#include "bench/bench_host.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define GLF(X) X(glCreateShader, PFNGLCREATESHADERPROC) X(glShaderSource, PFNGLSHADERSOURCEPROC) \
    X(glCompileShader, PFNGLCOMPILESHADERPROC) X(glGetShaderiv, PFNGLGETSHADERIVPROC) \
    X(glCreateProgram, PFNGLCREATEPROGRAMPROC) X(glAttachShader, PFNGLATTACHSHADERPROC) \
    X(glLinkProgram, PFNGLLINKPROGRAMPROC) X(glGetProgramiv, PFNGLGETPROGRAMIVPROC) \
    X(glUseProgram, PFNGLUSEPROGRAMPROC) X(glGetUniformBlockIndex, PFNGLGETUNIFORMBLOCKINDEXPROC) \
    X(glUniformBlockBinding, PFNGLUNIFORMBLOCKBINDINGPROC) X(glGenBuffers, PFNGLGENBUFFERSPROC) \
    X(glBindBuffer, PFNGLBINDBUFFERPROC) X(glBufferData, PFNGLBUFFERDATAPROC) \
    X(glBindBufferRange, PFNGLBINDBUFFERRANGEPROC) X(glGenVertexArrays, PFNGLGENVERTEXARRAYSPROC) \
    X(glBindVertexArray, PFNGLBINDVERTEXARRAYPROC) X(glEnableVertexAttribArray, PFNGLENABLEVERTEXATTRIBARRAYPROC) \
    X(glVertexAttribFormat, PFNGLVERTEXATTRIBFORMATPROC) \
    X(glVertexAttribBinding, PFNGLVERTEXATTRIBBINDINGPROC) X(glBindVertexBuffer, PFNGLBINDVERTEXBUFFERPROC) X(glGenFramebuffers, PFNGLGENFRAMEBUFFERSPROC) \
    X(glBindFramebuffer, PFNGLBINDFRAMEBUFFERPROC) X(glGenRenderbuffers, PFNGLGENRENDERBUFFERSPROC) \
    X(glBindRenderbuffer, PFNGLBINDRENDERBUFFERPROC) X(glRenderbufferStorage, PFNGLRENDERBUFFERSTORAGEPROC) \
    X(glFramebufferRenderbuffer, PFNGLFRAMEBUFFERRENDERBUFFERPROC) \
    X(glCheckFramebufferStatus, PFNGLCHECKFRAMEBUFFERSTATUSPROC) X(glViewport, PFNGLVIEWPORTPROC) \
    X(glClearColor, PFNGLCLEARCOLORPROC) X(glClear, PFNGLCLEARPROC) X(glDrawArrays, PFNGLDRAWARRAYSPROC) \
    X(glFlush, PFNGLFLUSHPROC) X(glFinish, PFNGLFINISHPROC) X(glGetError, PFNGLGETERRORPROC)

#define DECL(f, T) static T p_##f;
GLF(DECL)
#undef DECL

static GLuint s_vbo;

typedef EGLDisplay (*get_platform_display_t)(EGLenum, void *, const EGLint *);

static const char *vs_src =
    "#version 300 es\n"
    "layout(location = 0) in vec2 a_pos;\n"
    "layout(std140) uniform Draw { vec4 offset; } u;\n"
    "void main() { gl_Position = vec4(a_pos + u.offset.xy, 0.0, 1.0); }\n";
static const char *fs_src =
    "#version 300 es\n"
    "precision mediump float;\n"
    "out vec4 o_color;\n"
    "void main() { o_color = vec4(1.0, 0.5, 0.25, 1.0); }\n";

static GLuint compile(GLenum type, const char *src)
{
    GLuint s = p_glCreateShader(type);
    GLint ok = 0;
    p_glShaderSource(s, 1, &src, NULL);
    p_glCompileShader(s);
    p_glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    return ok ? s : 0;
}

/* EGL display, context and pbuffer; false when EGL or a GLES 3 context is missing. */
static int egl_open(void *egl, EGLDisplay *dpy_out, EGLContext *ctx_out, EGLSurface *surf_out)
{
#define EGLSYM(T, name) T name = (T)dlsym(egl, #name)
    EGLSYM(PFNEGLGETPROCADDRESSPROC, eglGetProcAddress);
    EGLSYM(PFNEGLINITIALIZEPROC, eglInitialize);
    EGLSYM(PFNEGLBINDAPIPROC, eglBindAPI);
    EGLSYM(PFNEGLCHOOSECONFIGPROC, eglChooseConfig);
    EGLSYM(PFNEGLCREATECONTEXTPROC, eglCreateContext);
    EGLSYM(PFNEGLCREATEPBUFFERSURFACEPROC, eglCreatePbufferSurface);
    EGLSYM(PFNEGLMAKECURRENTPROC, eglMakeCurrent);
#undef EGLSYM
    if (!eglGetProcAddress || !eglInitialize || !eglBindAPI || !eglChooseConfig || !eglCreateContext ||
        !eglCreatePbufferSurface || !eglMakeCurrent)
        return 0;
    get_platform_display_t gpd = (get_platform_display_t)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay dpy = gpd ? gpd(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL) : EGL_NO_DISPLAY;
    EGLint major, minor, n = 0;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor) || !eglBindAPI(EGL_OPENGL_ES_API)) return 0;
    const EGLint ca[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE };
    EGLConfig cfg;
    if (!eglChooseConfig(dpy, ca, &cfg, 1, &n) || n < 1) return 0;
    const EGLint ctx_attrs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attrs);
    const EGLint pb_attrs[] = { EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE };
    EGLSurface surf = ctx != EGL_NO_CONTEXT ? eglCreatePbufferSurface(dpy, cfg, pb_attrs) : EGL_NO_SURFACE;
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, surf, surf, ctx)) return 0;
    *dpy_out = dpy;
    *ctx_out = ctx;
    *surf_out = surf;
    return 1;
}

static int gl_setup(void *gles)
{
#define LOAD(f, T) p_##f = (T)dlsym(gles, #f); if (!p_##f) return 0;
    GLF(LOAD)
#undef LOAD
    GLuint fbo, rb, vbo, ubo, vao;
    p_glGenFramebuffers(1, &fbo);
    p_glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    p_glGenRenderbuffers(1, &rb);
    p_glBindRenderbuffer(GL_RENDERBUFFER, rb);
    p_glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 64);
    p_glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (p_glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return 0;
    p_glViewport(0, 0, 64, 64);
    GLuint vs = compile(GL_VERTEX_SHADER, vs_src), fs = compile(GL_FRAGMENT_SHADER, fs_src);
    if (!vs || !fs) return 0;
    GLuint prog = p_glCreateProgram();
    GLint ok = 0;
    p_glAttachShader(prog, vs);
    p_glAttachShader(prog, fs);
    p_glLinkProgram(prog);
    p_glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) return 0;
    p_glUniformBlockBinding(prog, p_glGetUniformBlockIndex(prog, "Draw"), 0);
    static const float tri[12] = { -0.1f, -0.1f, 0.1f, -0.1f, 0.0f, 0.1f, -0.1f, -0.1f, 0.1f, -0.1f, 0.0f, 0.1f };
    static float offs[64 * 64];
    for (uint32_t i = 0; i < 64; i++) {
        offs[i * 64] = -0.8f + 1.6f * (float)(i % 8u) / 7.0f;
        offs[i * 64 + 1] = -0.8f + 1.6f * (float)(i / 8u) / 7.0f;
    }
    p_glGenVertexArrays(1, &vao);
    p_glBindVertexArray(vao);
    p_glGenBuffers(1, &vbo);
    p_glBindBuffer(GL_ARRAY_BUFFER, vbo);
    p_glBufferData(GL_ARRAY_BUFFER, sizeof tri, tri, GL_STATIC_DRAW);
    s_vbo = vbo;
    p_glEnableVertexAttribArray(0);
    p_glVertexAttribFormat(0, 2, GL_FLOAT, GL_FALSE, 0);
    p_glVertexAttribBinding(0, 0);
    p_glBindVertexBuffer(0, vbo, 0, 8);
    p_glGenBuffers(1, &ubo);
    p_glBindBuffer(GL_UNIFORM_BUFFER, ubo);
    p_glBufferData(GL_UNIFORM_BUFFER, sizeof offs, offs, GL_STATIC_DRAW);
    p_glBindBufferRange(GL_UNIFORM_BUFFER, 0, ubo, 0, 16);
    p_glUseProgram(prog);
    return p_glGetError() == GL_NO_ERROR ? (int)ubo : 0;
}

static void one_pass(GLuint ubo, int mode, double t[PH_COUNT])
{
    double t0 = bench_now_ms();
    p_glClearColor(0, 0, 0, 1);
    p_glClear(GL_COLOR_BUFFER_BIT);
    for (uint32_t i = 0; i < BENCH_DRAWS; i++) {
        if (mode == DRAWS_B) p_glBindVertexBuffer(0, s_vbo, (GLintptr)(i & 1u) * 24, 8);
        if (mode == DRAWS_C) p_glBindBufferRange(GL_UNIFORM_BUFFER, 0, ubo, (GLintptr)(i % 64u) * 256, 16);
        p_glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    double t1 = bench_now_ms();
    p_glFlush();
    double t2 = bench_now_ms();
    p_glFinish();
    t[PH_WAIT] = bench_now_ms() - t2;
    t[PH_ENCODE] = t1 - t0;
    t[PH_FINISH] = 0;
    t[PH_SUBMIT] = t2 - t1;
}

void bench_draws_raw_gl(unsigned reps, bench_draws_result_t *out)
{
    memset(out, 0, sizeof *out);
    void *egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL), *gles = dlopen("libGLESv2.so.2", RTLD_NOW | RTLD_LOCAL);
    EGLDisplay dpy;
    EGLContext ctx;
    EGLSurface surf;
    if (!egl || !gles) {
        printf("bench: raw gles skipped: libEGL.so.1 or libGLESv2.so.2 not found\n");
        return;
    }
    if (!egl_open(egl, &dpy, &ctx, &surf)) {
        printf("bench: raw gles skipped: no surfaceless EGL display with a GLES 3.1 pbuffer context\n");
        return;
    }
    int ubo = gl_setup(gles);
    if (!ubo) {
        printf("bench: raw gles skipped: GL setup failed\n");
        return;
    }
    static double t[DRAWS_MODES][PH_COUNT][BENCH_MAX_REPS];
    double one[PH_COUNT];
    for (int m = 0; m < DRAWS_MODES; m++) one_pass((GLuint)ubo, m, one);
    for (unsigned k = 0; k < reps; k++)
        for (int m = 0; m < DRAWS_MODES; m++) {
            one_pass((GLuint)ubo, m, one);
            for (int p = 0; p < PH_COUNT; p++) t[m][p][k] = one[p] * 1e6 / BENCH_DRAWS;
        }
    for (int m = 0; m < DRAWS_MODES; m++)
        for (int p = 0; p < PH_COUNT; p++) out->ns[m][p] = bench_stat(t[m][p], reps);
    out->ok = p_glGetError() == GL_NO_ERROR;
    PFNEGLMAKECURRENTPROC mc = (PFNEGLMAKECURRENTPROC)dlsym(egl, "eglMakeCurrent");
    if (mc) mc(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT); /* leave the context to Mesa */
    (void)ctx;
    (void)surf;
}
