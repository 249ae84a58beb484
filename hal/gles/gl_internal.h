/* hal/gles internals: the loaded EGL/GL function table, per-object state and shared helpers.
 *
 * DESIGN
 * ======
 * libEGL.so.1 and libGLESv2.so.2 are opened at run time through the port (no link-time
 * dependency); every entry point is a pointer in one table (eg_gl), looked up with
 * eglGetProcAddress and, for drivers that do not return core functions from it, with the
 * library's own symbol table. GLES 3.1 entry points (compute, indirect draws, images, barriers)
 * may be NULL: the device then runs as GLES 3.0 and reports no compute/storage limits.
 *
 * Each device owns one EGL context, made current around every batch of GL work (gl_begin).
 * Backend state per object lives in the object's eg_hal_priv_t words (structs below, each
 * _Static_asserted to fit); fixed-size caches (programs, framebuffers) are static arrays sized by
 * EMGPU_GLES_* knobs. Nothing here calls malloc; the driver and SPIRV-Cross allocate internally.
 *
 * ORIENTATION
 * ===========
 * Texel row 0 of a WebGPU texture is GL row 0 (uploads and glReadPixels both start there), so
 * copies need no flip. Rendering flips Y in the vertex shader (SPIRV-Cross flip_vert_y): WebGPU's
 * NDC y = +1 (top) lands on row 0, viewport and scissor rectangles keep their WebGPU values, and
 * the winding seen by GL is mirrored, so the front face is inverted when it is set.
 */
#ifndef EG_GL_INTERNAL_H
#define EG_GL_INTERNAL_H

#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#define EGL_EGL_PROTOTYPES 0
#define GL_GLES_PROTOTYPES 0
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#include "kernel/base/util.h"
#include "hal/hal.h"
#include "kernel/api/object.h"
#include "kernel/format/format.h"
#include "kernel/shader/spirv.h"

/* GL enums of extensions and later versions that gl31.h lacks. */
#ifndef GL_TEXTURE_2D_MULTISAMPLE
#define GL_TEXTURE_2D_MULTISAMPLE 0x9100
#endif

/* ---- function table ---- */

#define EG_EGL_FUNCS(X)                                                                    \
    X(PFNEGLGETERRORPROC, GetError) X(PFNEGLINITIALIZEPROC, Initialize)                     \
    X(PFNEGLQUERYSTRINGPROC, QueryString) X(PFNEGLBINDAPIPROC, BindAPI)                     \
    X(PFNEGLCHOOSECONFIGPROC, ChooseConfig) X(PFNEGLCREATECONTEXTPROC, CreateContext)       \
    X(PFNEGLDESTROYCONTEXTPROC, DestroyContext) X(PFNEGLMAKECURRENTPROC, MakeCurrent)       \
    X(PFNEGLGETCURRENTCONTEXTPROC, GetCurrentContext) X(PFNEGLTERMINATEPROC, Terminate)

/* Core GLES 3.0: a missing one makes the backend unavailable. */
#define EG_GL30_FUNCS(X)                                                                   \
    X(PFNGLGETERRORPROC, GetError) X(PFNGLGETINTEGERVPROC, GetIntegerv)                     \
    X(PFNGLGETINTEGERI_VPROC, GetIntegeri_v) X(PFNGLGETSTRINGPROC, GetString)               \
    X(PFNGLGETSTRINGIPROC, GetStringi) X(PFNGLENABLEPROC, Enable) X(PFNGLDISABLEPROC, Disable) \
    X(PFNGLFLUSHPROC, Flush) X(PFNGLFINISHPROC, Finish)                                     \
    X(PFNGLGENBUFFERSPROC, GenBuffers) X(PFNGLDELETEBUFFERSPROC, DeleteBuffers)             \
    X(PFNGLBINDBUFFERPROC, BindBuffer) X(PFNGLBUFFERDATAPROC, BufferData)                   \
    X(PFNGLBUFFERSUBDATAPROC, BufferSubData) X(PFNGLMAPBUFFERRANGEPROC, MapBufferRange)     \
    X(PFNGLUNMAPBUFFERPROC, UnmapBuffer) X(PFNGLCOPYBUFFERSUBDATAPROC, CopyBufferSubData)   \
    X(PFNGLBINDBUFFERRANGEPROC, BindBufferRange)                                            \
    X(PFNGLGENTEXTURESPROC, GenTextures) X(PFNGLDELETETEXTURESPROC, DeleteTextures)         \
    X(PFNGLBINDTEXTUREPROC, BindTexture) X(PFNGLACTIVETEXTUREPROC, ActiveTexture)           \
    X(PFNGLTEXSTORAGE2DPROC, TexStorage2D) X(PFNGLTEXSTORAGE3DPROC, TexStorage3D)           \
    X(PFNGLTEXSUBIMAGE2DPROC, TexSubImage2D) X(PFNGLTEXSUBIMAGE3DPROC, TexSubImage3D)       \
    X(PFNGLTEXPARAMETERIPROC, TexParameteri) X(PFNGLPIXELSTOREIPROC, PixelStorei)           \
    X(PFNGLGENRENDERBUFFERSPROC, GenRenderbuffers)                                          \
    X(PFNGLDELETERENDERBUFFERSPROC, DeleteRenderbuffers)                                    \
    X(PFNGLBINDRENDERBUFFERPROC, BindRenderbuffer)                                          \
    X(PFNGLRENDERBUFFERSTORAGEMULTISAMPLEPROC, RenderbufferStorageMultisample)              \
    X(PFNGLGENFRAMEBUFFERSPROC, GenFramebuffers)                                            \
    X(PFNGLDELETEFRAMEBUFFERSPROC, DeleteFramebuffers)                                      \
    X(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer)                                            \
    X(PFNGLFRAMEBUFFERTEXTURE2DPROC, FramebufferTexture2D)                                  \
    X(PFNGLFRAMEBUFFERTEXTURELAYERPROC, FramebufferTextureLayer)                            \
    X(PFNGLFRAMEBUFFERRENDERBUFFERPROC, FramebufferRenderbuffer)                            \
    X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, CheckFramebufferStatus)                              \
    X(PFNGLDRAWBUFFERSPROC, DrawBuffers) X(PFNGLREADBUFFERPROC, ReadBuffer)                 \
    X(PFNGLBLITFRAMEBUFFERPROC, BlitFramebuffer) X(PFNGLREADPIXELSPROC, ReadPixels)         \
    X(PFNGLINVALIDATEFRAMEBUFFERPROC, InvalidateFramebuffer)                                \
    X(PFNGLCLEARBUFFERFVPROC, ClearBufferfv) X(PFNGLCLEARBUFFERIVPROC, ClearBufferiv)       \
    X(PFNGLCLEARBUFFERUIVPROC, ClearBufferuiv) X(PFNGLCLEARBUFFERFIPROC, ClearBufferfi)     \
    X(PFNGLGENSAMPLERSPROC, GenSamplers) X(PFNGLDELETESAMPLERSPROC, DeleteSamplers)         \
    X(PFNGLSAMPLERPARAMETERIPROC, SamplerParameteri)                                        \
    X(PFNGLSAMPLERPARAMETERFPROC, SamplerParameterf) X(PFNGLBINDSAMPLERPROC, BindSampler)   \
    X(PFNGLCREATESHADERPROC, CreateShader) X(PFNGLDELETESHADERPROC, DeleteShader)           \
    X(PFNGLSHADERSOURCEPROC, ShaderSource) X(PFNGLCOMPILESHADERPROC, CompileShader)         \
    X(PFNGLGETSHADERIVPROC, GetShaderiv) X(PFNGLGETSHADERINFOLOGPROC, GetShaderInfoLog)     \
    X(PFNGLCREATEPROGRAMPROC, CreateProgram) X(PFNGLDELETEPROGRAMPROC, DeleteProgram)       \
    X(PFNGLATTACHSHADERPROC, AttachShader) X(PFNGLLINKPROGRAMPROC, LinkProgram)             \
    X(PFNGLGETPROGRAMIVPROC, GetProgramiv) X(PFNGLGETPROGRAMINFOLOGPROC, GetProgramInfoLog) \
    X(PFNGLUSEPROGRAMPROC, UseProgram) X(PFNGLGETUNIFORMLOCATIONPROC, GetUniformLocation)   \
    X(PFNGLUNIFORM1IPROC, Uniform1i) X(PFNGLGETUNIFORMBLOCKINDEXPROC, GetUniformBlockIndex) \
    X(PFNGLUNIFORM1UIPROC, Uniform1ui)                                                      \
    X(PFNGLUNIFORMBLOCKBINDINGPROC, UniformBlockBinding)                                    \
    X(PFNGLGENVERTEXARRAYSPROC, GenVertexArrays)                                            \
    X(PFNGLDELETEVERTEXARRAYSPROC, DeleteVertexArrays)                                      \
    X(PFNGLBINDVERTEXARRAYPROC, BindVertexArray)                                            \
    X(PFNGLENABLEVERTEXATTRIBARRAYPROC, EnableVertexAttribArray)                            \
    X(PFNGLDISABLEVERTEXATTRIBARRAYPROC, DisableVertexAttribArray)                          \
    X(PFNGLVERTEXATTRIBPOINTERPROC, VertexAttribPointer)                                    \
    X(PFNGLVERTEXATTRIBIPOINTERPROC, VertexAttribIPointer)                                  \
    X(PFNGLVERTEXATTRIBDIVISORPROC, VertexAttribDivisor)                                    \
    X(PFNGLVERTEXATTRIB4FPROC, VertexAttrib4f)                                              \
    X(PFNGLDRAWARRAYSINSTANCEDPROC, DrawArraysInstanced)                                    \
    X(PFNGLDRAWELEMENTSINSTANCEDPROC, DrawElementsInstanced)                                \
    X(PFNGLVIEWPORTPROC, Viewport) X(PFNGLDEPTHRANGEFPROC, DepthRangef)                     \
    X(PFNGLSCISSORPROC, Scissor) X(PFNGLCOLORMASKPROC, ColorMask) X(PFNGLDEPTHMASKPROC, DepthMask) \
    X(PFNGLSTENCILMASKSEPARATEPROC, StencilMaskSeparate) X(PFNGLDEPTHFUNCPROC, DepthFunc)   \
    X(PFNGLSTENCILFUNCSEPARATEPROC, StencilFuncSeparate)                                    \
    X(PFNGLSTENCILOPSEPARATEPROC, StencilOpSeparate)                                        \
    X(PFNGLBLENDFUNCSEPARATEPROC, BlendFuncSeparate)                                        \
    X(PFNGLBLENDEQUATIONSEPARATEPROC, BlendEquationSeparate)                                \
    X(PFNGLBLENDCOLORPROC, BlendColor) X(PFNGLCULLFACEPROC, CullFace)                       \
    X(PFNGLFRONTFACEPROC, FrontFace) X(PFNGLPOLYGONOFFSETPROC, PolygonOffset)               \
    X(PFNGLFENCESYNCPROC, FenceSync) X(PFNGLCLIENTWAITSYNCPROC, ClientWaitSync)             \
    X(PFNGLDELETESYNCPROC, DeleteSync)

/* GLES 3.1: optional (NULL on a 3.0 context). */
#define EG_GL31_FUNCS(X)                                                                   \
    X(PFNGLDISPATCHCOMPUTEPROC, DispatchCompute)                                            \
    X(PFNGLDISPATCHCOMPUTEINDIRECTPROC, DispatchComputeIndirect)                            \
    X(PFNGLMEMORYBARRIERPROC, MemoryBarrier)                                                \
    X(PFNGLDRAWARRAYSINDIRECTPROC, DrawArraysIndirect)                                      \
    X(PFNGLDRAWELEMENTSINDIRECTPROC, DrawElementsIndirect)                                  \
    X(PFNGLBINDIMAGETEXTUREPROC, BindImageTexture)                                          \
    X(PFNGLSAMPLEMASKIPROC, SampleMaski)

/* GLES 3.2 / OES_draw_elements_base_vertex / EXT_draw_elements_base_vertex (optional). */
typedef void (GL_APIENTRYP eg_PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXPROC)(GLenum mode, GLsizei count, GLenum type,
                                                                    const void *indices, GLsizei instancecount,
                                                                    GLint basevertex);

typedef struct eg_gl_fns {
#define EG_GL_MEMBER(type, name) type name;
    struct { EG_EGL_FUNCS(EG_GL_MEMBER)
             PFNEGLGETPROCADDRESSPROC GetProcAddress;
             PFNEGLGETPLATFORMDISPLAYEXTPROC GetPlatformDisplayEXT;
             PFNEGLQUERYDEVICESEXTPROC QueryDevicesEXT;
             PFNEGLQUERYDEVICESTRINGEXTPROC QueryDeviceStringEXT; } egl;
    EG_GL30_FUNCS(EG_GL_MEMBER)
    EG_GL31_FUNCS(EG_GL_MEMBER)
    eg_PFNGLDRAWELEMENTSINSTANCEDBASEVERTEXPROC DrawElementsInstancedBaseVertex;   /* may be NULL */
    /* GLES 3.2 / OES_draw_buffers_indexed / EXT_draw_buffers_indexed: per-attachment blend
     * and color mask; all five or none (indexed_blend). */
    void (GL_APIENTRYP Enablei)(GLenum, GLuint);
    void (GL_APIENTRYP Disablei)(GLenum, GLuint);
    void (GL_APIENTRYP BlendEquationSeparatei)(GLuint, GLenum, GLenum);
    void (GL_APIENTRYP BlendFuncSeparatei)(GLuint, GLenum, GLenum, GLenum, GLenum);
    void (GL_APIENTRYP ColorMaski)(GLuint, GLboolean, GLboolean, GLboolean, GLboolean);
    bool indexed_blend;
#undef EG_GL_MEMBER
} eg_gl_fns_t;

extern eg_gl_fns_t eg_gl;

/** Opens libEGL/libGLESv2 once and fills eg_gl.egl; false (reason in *why) when missing. */
bool eg_gl_load_egl(const char **why);
/** Fills the GL entries (needs a current context for some drivers); false when a 3.0 entry is
 *  missing, naming it in *missing. GLES 3.1 entries stay NULL when absent. */
bool eg_gl_load_gl(const char **missing);

/* ---- device ---- */

#define EG_GL_FENCE_RING 16u

struct eg_hal_device {
    bool       open;
    bool       es31;              /* a GLES 3.1 context: compute, storage, indirect */
    EGLContext ctx;
    EGLDisplay dpy;               /* helper egl: headless, or the X11 display (EG_GL_ORDINAL_X11) */
    EGLConfig  win_cfg;           /* helper egl: config of window surfaces (0: any, no_config) */
    bool       x11;               /* helper egl: dpy is the X11 display: window surfaces work */
    bool       gbm;               /* helper gbm: dpy is the GBM display of a KMS surface's card */
    const eg_device_info_t *info;
    GLuint     vao;
    GLuint     fbo_read, fbo_draw;    /* scratch framebuffers for copies and resolves */
    GLsync     fences[EG_GL_FENCE_RING];
    uint64_t   fence_index[EG_GL_FENCE_RING];
    uint64_t   submitted, completed;
    uint32_t   ubo_align_B, ssbo_align_B;
    bool       read_depth, read_stencil;   /* GL_NV_read_depth / GL_NV_read_stencil */
    bool       indexed_blend;     /* per-attachment blend/color mask usable (GLES 3.2 or extension) */
    GLuint     flat_ib;           /* rotated indices of first-vertex flat draws (gl_flat.c) */
};

/* ---- helper egl (session 3): adapters bound to an X11 Display (gl_device.c) ----
 * RequestAdapter with compatibleSurface set to an X11 window probes with this ordinal: the
 * devices of that adapter make their context on an EGL display of that Display (EGL window
 * surfaces must share the context's EGLDisplay), so gl_surface_window.c presents natively. */
#define EG_GL_ORDINAL_X11 1u
/** The X11 Display * the X11 EGL display was opened on; NULL when none. */
void *eg_gl_x11_native(void);
/** An EGL config for window surfaces on dpy (8-bit RGB, no alpha first); 0 when none. */
EGLConfig eg_gl_window_config(EGLDisplay dpy);

/* ---- helper gbm (session 4): adapters bound to a KMS output's card (gl_gbm.c) ----
 * RequestAdapter with compatibleSurface set to a WGPUEmgpuSurfaceSourceDrm surface probes with
 * this ordinal: the devices make their contexts on an EGL display of the GBM platform over a
 * gbm_device of that surface's card fd, and present through gbm_surfaces and page flips. */
#define EG_GL_ORDINAL_GBM 2u
struct eg_port_drm;
typedef struct eg_gl_gbm_chain eg_gl_gbm_chain_t;
/** True when the space-separated list holds name (gl_device.c). */
bool eg_gl_has_ext(const char *list, const char *name);
/** The GBM EGL display (not initialised) on a gbm_device of drm's card fd; EGL_NO_DISPLAY with
 *  *why when libgbm, the platform or the device is missing. One card at a time. */
EGLDisplay eg_gl_gbm_display(const struct eg_port_drm *drm, const char **why);
/** Destroys the gbm_device (after eglTerminate of its display). */
void eg_gl_gbm_display_release(void);
/** A window config of dpy whose EGL_NATIVE_VISUAL_ID is the output's format; 0 when none. */
EGLConfig eg_gl_gbm_config(EGLDisplay dpy);
eg_status_t eg_gl_gbm_caps(const eg_device_info_t *info, const eg_hal_window_t *win, eg_hal_window_caps_t *caps);
/** A gbm_surface of the mode's size (*native_window) and its scan-out state; NULL (HAL error
 *  detail or log) when the configuration is larger than the mode or GBM refuses. */
eg_gl_gbm_chain_t *eg_gl_gbm_chain_create(struct eg_port_drm *drm, const eg_hal_window_config_t *cfg,
                                          void **native_window);
/** eglCreatePlatformWindowSurfaceEXT on the gbm_surface; EGL_NO_SURFACE when unavailable. */
EGLSurface eg_gl_gbm_window_surface(EGLDisplay dpy, EGLConfig config, void *native_window);
/** After eglSwapBuffers: locks the front buffer, shows it, releases the one shown before.
 *  Returns an eg_hal_frame_status_t. */
uint32_t eg_gl_gbm_flip(eg_gl_gbm_chain_t *c);
/** Gives the CRTC back to the dumb buffer and drops the framebuffers (before the EGL surface
 *  is destroyed); eg_gl_gbm_chain_destroy (after it) frees the gbm_surface. */
void eg_gl_gbm_chain_stop(eg_gl_gbm_chain_t *c);
void eg_gl_gbm_chain_destroy(eg_gl_gbm_chain_t *c);

/** Makes dev's context current on this thread (no-op when it already is). */
void eg_gl_begin(eg_hal_device_t *dev);
/** True when the GL error flag was clean; otherwise logs `what` with the error and returns false.
 *  Called after each command in debug builds (EMGPU_DEBUG or EMGPU_GLES_DEBUG=1). */
bool eg_gl_check(const char *what);
extern bool eg_gl_debug;

/* ---- formats ---- */

typedef struct eg_gl_format {
    GLenum internal, format, type;
    uint8_t swap_rb;      /* BGRA formats: stored as RGBA, bytes swapped on upload/readback */
    uint8_t clear_kind;   /* 0 float, 1 int, 2 uint, 3 depth/stencil */
} eg_gl_format_t;

/** GL storage of a WebGPU format; NULL when GLES cannot store it. */
const eg_gl_format_t *eg_gl_format(WGPUTextureFormat f);

/* ---- per-object state (fits eg_hal_priv_t) ---- */

typedef struct eg_gl_buffer {
    GLuint name;
    uint32_t mapped;
} eg_gl_buffer_t;

typedef struct eg_gl_texture {
    GLuint name;
    GLenum target;        /* GL_TEXTURE_2D / _2D_ARRAY / _3D, or GL_RENDERBUFFER (multisampled) */
    const eg_gl_format_t *fmt;
    uint32_t base_level, max_level;   /* current GL_TEXTURE_BASE/MAX_LEVEL (views set them) */
} eg_gl_texture_t;

typedef struct eg_gl_view {
    uint32_t sampleable;  /* GLES can sample it (same target as the texture, whole layers) */
} eg_gl_view_t;

typedef struct eg_gl_sampler {
    GLuint name;
} eg_gl_sampler_t;

typedef struct eg_gl_pipeline {
    uint32_t program;     /* program cache slot + 1 */
} eg_gl_pipeline_t;

static inline void *eg_gl_priv(const eg_hal_priv_t *h) { return (void *)(uintptr_t)h; }
#define EG_GL_PRIV(obj, type) ((type *)eg_gl_priv(&(obj)->hal))

/* ---- resources (gl_resource.c) ---- */
eg_status_t eg_gl_buffer_create(eg_hal_device_t *dev, eg_buffer_t *buf);
void        eg_gl_buffer_destroy(eg_hal_device_t *dev, eg_buffer_t *buf);
void       *eg_gl_buffer_map(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B, uint64_t size_B,
                             bool for_write);
void        eg_gl_buffer_unmap(eg_hal_device_t *dev, eg_buffer_t *buf);
eg_status_t eg_gl_texture_create(eg_hal_device_t *dev, eg_texture_t *tex);
void        eg_gl_texture_destroy(eg_hal_device_t *dev, eg_texture_t *tex);
eg_status_t eg_gl_texture_view_create(eg_hal_device_t *dev, eg_texture_view_t *view);
void        eg_gl_texture_view_destroy(eg_hal_device_t *dev, eg_texture_view_t *view);
eg_status_t eg_gl_sampler_create(eg_hal_device_t *dev, eg_sampler_t *smp);
void        eg_gl_sampler_destroy(eg_hal_device_t *dev, eg_sampler_t *smp);
eg_status_t eg_gl_queue_write_buffer(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                     const void *data, size_t size_B);
eg_status_t eg_gl_queue_write_texture(eg_hal_device_t *dev, eg_texture_t *tex,
                                      const eg_texel_region_t *dst, const void *data,
                                      const eg_buffer_layout_t *layout);
/** Uploads rows (client pointer or, with a bound GL_PIXEL_UNPACK_BUFFER, an offset) into a
 *  texture region; swaps R/B for BGRA formats through a static scratch when needed. */
void eg_gl_texture_upload(eg_texture_t *tex, const eg_texel_region_t *r, const uint8_t *src,
                          uint32_t bytes_per_row_B, uint32_t rows_per_image);
/** Binds GL_TEXTURE_BASE/MAX_LEVEL of the view's texture to the view's mip range. */
void eg_gl_texture_apply_view(eg_texture_view_t *view);
/** Attaches one subresource of tex to the bound framebuffer `fb_target` at `attachment`. */
void eg_gl_attach(GLenum fb_target, GLenum attachment, eg_texture_t *tex, uint32_t mip, uint32_t layer);
/** GL attachment point of a format's aspects (COLOR0 + i, DEPTH, STENCIL or DEPTH_STENCIL). */
GLenum eg_gl_ds_attachment(const eg_format_info_t *fi);

/* ---- shaders and programs (gl_shader.c, gl_program.c) ---- */
bool eg_gl_shader_library_load(const char **why);

/** Binding kinds of the flat GL binding model. */
enum { EG_GL_BIND_UBO, EG_GL_BIND_SSBO, EG_GL_BIND_TEXTURE, EG_GL_BIND_SAMPLER, EG_GL_BIND_IMAGE };

typedef struct eg_gl_binding {
    uint8_t group, kind;
    uint16_t binding;
    uint16_t flat;        /* GL binding index of its kind */
} eg_gl_binding_t;

typedef struct eg_gl_unit {   /* one combined texture-sampler slot (texture unit) */
    uint8_t tex_group, smp_group;   /* smp_group 0xFF: no sampler (texelFetch / load) */
    uint16_t tex_binding, smp_binding;
} eg_gl_unit_t;

#define EG_GL_MAX_PROGRAM_BINDINGS 48u
#define EG_GL_MAX_UNITS 16u

typedef struct eg_gl_program {
    eg_hal_device_t *dev;
    const eg_shader_module_t *mod[2];          /* vertex+fragment, or compute in [0] */
    char entry[2][EMGPU_ENTRY_POINT_NAME_MAX + 1];
    const eg_pipeline_layout_t *layout;
    uint32_t refs;
    uint64_t last_use;
    GLuint program;
    GLint base_instance_loc;                    /* SPIRV_Cross_BaseInstance, -1 when unused */
    bool flat_inputs;                           /* the fragment stage has Flat inputs */
    uint32_t binding_count, unit_count;
    eg_gl_binding_t bindings[EG_GL_MAX_PROGRAM_BINDINGS];
    GLint levels_loc[EG_GL_MAX_PROGRAM_BINDINGS];   /* textures: "eg_lv_s<g>_b<b>" uniform, or -1 */
    GLint len_loc[EG_GL_MAX_PROGRAM_BINDINGS];      /* storage buffers: "eg_len_s<g>_b<b>" (kernel/shader/spirv_robust.c), or -1 */
    uint32_t len_offset_B[EG_GL_MAX_PROGRAM_BINDINGS], len_stride_B[EG_GL_MAX_PROGRAM_BINDINGS];
    eg_gl_unit_t units[EG_GL_MAX_UNITS];
} eg_gl_program_t;

eg_gl_program_t *eg_gl_program(uint32_t slot_plus_one);
eg_status_t eg_gl_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
void        eg_gl_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
eg_status_t eg_gl_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);
void        eg_gl_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);
void        eg_gl_shader_module_forget(eg_hal_device_t *dev, const eg_shader_module_t *sm);
void        eg_gl_pipeline_layout_forget(eg_hal_device_t *dev, const eg_pipeline_layout_t *pl);
void        eg_gl_programs_close(eg_hal_device_t *dev);
/** Translates one stage to GLSL ES and compiles it; 0 on failure (logged). Units are shared
 *  across the stages of one program (assigned as pairs are met). */
GLuint eg_gl_shader_compile(eg_hal_device_t *dev, eg_gl_program_t *p, uint32_t stage_index,
                            eg_shader_stage_t stage);
/** Why the last eg_gl_shader_compile failed ("" when it did not say). */
const char *eg_gl_shader_last_error(void);

/* ---- execution (gl_exec.c, gl_draw.c, gl_fbo.c) ---- */
eg_status_t eg_gl_execute(eg_hal_device_t *dev, const struct eg_cmd_stream *stream);
/** A framebuffer with these attachments (cached); 0 when incomplete. */
GLuint eg_gl_fbo_get(eg_hal_device_t *dev, eg_texture_view_t *const *colors, const uint32_t *slices,
                     uint32_t color_count, eg_texture_view_t *ds);
void eg_gl_fbo_forget_view(eg_hal_device_t *dev, const eg_texture_view_t *view);
void eg_gl_fbo_close(eg_hal_device_t *dev);

/** Zero-fills [offset_B, offset_B + size_B) of the buffer bound to `target`. */
void eg_gl_buffer_zero(GLenum target, uint64_t offset_B, uint64_t size_B);
/** Bytes per texel of the GL upload format/type of a format. */
uint32_t eg_gl_texel_B(const eg_gl_format_t *f);

/* Pass state between records (gl_draw.c): what is bound, applied lazily at draw/dispatch. */
typedef struct eg_gl_state {
    eg_render_pipeline_t *rp;
    eg_compute_pipeline_t *cp;
    bool pipeline_dirty, bindings_dirty;
    uint32_t stencil_ref;
    uint32_t attribs_enabled;     /* bit per attribute location */
    struct {
        eg_bind_group_t *group;
        uint32_t dyn_count;
        uint32_t dyn[16];
    } groups[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    struct { eg_buffer_t *buf; uint64_t offset_B; } vb[EMGPU_MAX_VERTEX_BUFFERS];
    eg_buffer_t *ib;
    uint64_t ib_offset_B;
    uint32_t ib_format;
} eg_gl_state_t;

/** True when draws of program p with topology t need first-vertex emulation (gl_flat.c). */
bool eg_gl_flat_needed(const eg_gl_program_t *p, WGPUPrimitiveTopology t);
/** Draws with WebGPU's first provoking vertex by rotating primitives into a list (gl_flat.c);
 *  ib NULL for non-indexed draws. False when the index buffer could not be read. */
bool eg_gl_flat_draw(eg_hal_device_t *dev, WGPUPrimitiveTopology t, const eg_buffer_t *ib, uint32_t ib_format,
                     uint64_t ib_offset_B, uint32_t count, uint32_t instances, uint32_t first, int32_t base_vertex);

struct eg_cmd_header;
/** Handles state, draw and dispatch records; false when `h` is not one of them. *st_out set to
 *  a failure status when the record could not run. */
bool eg_gl_draw_command(eg_hal_device_t *dev, eg_gl_state_t *s, const struct eg_cmd_header *h,
                        eg_status_t *st_out);

#endif /* EMGPU_HAL_GLES */
#endif /* EG_GL_INTERNAL_H */
