/* Conformance scenes: one frame each, written once against webgpu.h, run on every backend.
 *
 * A scene is a function that receives a device, a queue and an image size, renders through the
 * public API only, and reads its result back into an RGBA8 pixel buffer (eg_scene_t.rgba,
 * w * h * 4 bytes, rows top to bottom). The hosted runner (tests/hosted/scenes_test.c) writes the
 * image as PNG and compares it with tests/ref/<name>.png; the unit test
 * (tests/unit/scenes_hash_test.c) runs the scene at its reduced size on soft and compares an
 * FNV-1a 64 hash with tests/ref/scene_hashes.h, so x86-64, AArch64 and Cortex-M7 must render the
 * same bytes.
 *
 * RULES FOR SCENES (so that every board runs them, Cortex-M7 included):
 * - at most 4 shader modules, 4 render pipelines, 4 samplers, 4 bind group layouts and pipeline
 *   layouts, 8 bind groups, 8 textures and 16 views alive at once (the qemu-mps2-an500 pools);
 * - resource memory well under the 64 KiB soft heap at the reduced size (small_px);
 * - no libm in values that reach the GPU (sinf differs between glibc and newlib): use
 *   eg_scene_sincos, which is plain IEEE single-precision arithmetic;
 * - shader names are tests/shaders/<name> (compiled and embedded by tests/shaders/shaders.mk).
 * Objects made with the helpers are released by the framework when the scene returns.
 */
#ifndef EG_SCENE_H
#define EG_SCENE_H

#include <webgpu/webgpu.h>
#include <emgpu/emgpu.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EG_SCENE_MAX_OBJECTS 64
/** Bytes of the vertex ring behind eg_scene_draw_vertices (128 default vertices). */
#define EG_SCENE_VRING_B 4096u

typedef enum eg_scene_obj_kind {
    EG_SCENE_OBJ_BUFFER, EG_SCENE_OBJ_TEXTURE, EG_SCENE_OBJ_VIEW, EG_SCENE_OBJ_SAMPLER,
    EG_SCENE_OBJ_SHADER, EG_SCENE_OBJ_BGL, EG_SCENE_OBJ_LAYOUT, EG_SCENE_OBJ_BIND_GROUP,
    EG_SCENE_OBJ_RENDER_PIPELINE, EG_SCENE_OBJ_COMPUTE_PIPELINE
} eg_scene_obj_kind_t;

typedef struct eg_scene {
    WGPUInstance instance;
    WGPUDevice device;
    WGPUQueue queue;
    uint32_t w, h;               /* output image size in pixels */
    uint8_t *rgba;               /* w * h * 4 bytes, filled by eg_scene_readback */
    const char *fail;            /* first framework failure (static string), NULL if none */
    char fail_buf[96];
    const char *shader_name[8];  /* modules made so far, reused by name (pools are small) */
    WGPUShaderModule shader_module[8];
    uint32_t shader_count;
    WGPUBuffer vring;            /* vertex ring of eg_scene_draw_vertices */
    uint32_t vring_used_B;
    uint32_t obj_count;
    struct { eg_scene_obj_kind_t kind; void *handle; } obj[EG_SCENE_MAX_OBJECTS];
} eg_scene_t;

typedef void (*eg_scene_fn_t)(eg_scene_t *s);

/** One scene of the suite, with its sizes and its tolerance on GPU backends (soft is exact). */
typedef struct eg_scene_info {
    const char *name;
    eg_scene_fn_t fn;
    uint32_t full_px;            /* image side on hosted boards (PNG, compared with tests/ref) */
    uint32_t small_px;           /* image side of the hash test (every board, Cortex-M7 too) */
    uint8_t gpu_tol;             /* GPU backends: per-channel difference that still matches */
    uint16_t gpu_bad_permille;   /* GPU backends: most pixels (per mille) beyond gpu_tol */
} eg_scene_info_t;

/** The suite, in a fixed order; eg_scene_count entries. */
extern const eg_scene_info_t eg_scene_list[];
extern const uint32_t eg_scene_count;
const eg_scene_info_t *eg_scene_find(const char *name);

/** Runs one scene at w x h into rgba (w*h*4 bytes, cleared first) and releases everything it
 *  made. Returns NULL on success or a message (framework failure: readback, a NULL object).
 *  WebGPU errors go to the device's own uncaptured-error callback: the caller checks those. */
const char *eg_scene_run(const eg_scene_info_t *info, WGPUInstance instance, WGPUDevice device,
                         uint32_t w, uint32_t h, uint8_t *rgba, eg_scene_t *ctx);

/** FNV-1a 64 over n bytes. */
uint64_t eg_scene_hash(const uint8_t *bytes, size_t n);

/** sin and cos of `turns` full turns (0.25 = 90 degrees), deterministic on every board. */
void eg_scene_sincos(float turns, float *s_out, float *c_out);

/* ---- helpers for scenes (each records a failure in s->fail and returns NULL on error) ---- */

/** Marks the scene failed with a message (the first one is kept). */
void eg_scene_failf(eg_scene_t *s, const char *what);
/** Shader module from the embedded tests/shaders/<name> (made once per scene, then reused). */
WGPUShaderModule eg_scene_shader(eg_scene_t *s, const char *name);
/** Buffer of `size_B` bytes (rounded up to 4) with `usage` | CopyDst, filled from data if any. */
WGPUBuffer eg_scene_buffer(eg_scene_t *s, WGPUBufferUsage usage, const void *data, size_t size_B);
/** 2D texture (mip levels, layers, samples as given; 0 means 1). */
WGPUTexture eg_scene_texture(eg_scene_t *s, WGPUTextureFormat format, uint32_t w, uint32_t h,
                             uint32_t layers, uint32_t mips, uint32_t samples, WGPUTextureUsage usage);
/** Default view of tex, or a view with the given dimension (Undefined: default). */
WGPUTextureView eg_scene_view(eg_scene_t *s, WGPUTexture tex, WGPUTextureViewDimension dim);
/** Render target of the scene's size (RenderAttachment | CopySrc | CopyDst | TextureBinding) and
 *  its default view. */
WGPUTexture eg_scene_target(eg_scene_t *s, WGPUTextureFormat format, WGPUTextureView *view_out);
/** Writes tightly packed texels (bytes_per_texel each) into mip `mip`, layer `layer` of tex. */
void eg_scene_write_texture(eg_scene_t *s, WGPUTexture tex, uint32_t mip, uint32_t layer,
                            uint32_t w, uint32_t h, uint32_t bytes_per_texel, const void *texels);
WGPUSampler eg_scene_sampler(eg_scene_t *s, const WGPUSamplerDescriptor *desc);

/** Bind group layout from a string, one letter per binding (binding = index in the string):
 *  u uniform buffer, r read-only storage buffer, w storage buffer, t float texture 2D,
 *  c float texture cube, a float texture 2D array, d depth texture 2D, s filtering sampler,
 *  n non-filtering sampler, z comparison sampler, i write-only rgba8unorm storage texture 2D,
 *  f unfilterable-float texture 2D. */
WGPUBindGroupLayout eg_scene_bgl(eg_scene_t *s, const char *spec, WGPUShaderStage visibility);
/** Bind group: entries in binding order, each a buffer (whole), a texture view or a sampler. */
WGPUBindGroup eg_scene_bind_group(eg_scene_t *s, WGPUBindGroupLayout bgl, uint32_t n,
                                  const void *const *resources, const char *kinds);

/** Compact render-pipeline description; zero fields take the defaults in brackets. */
typedef struct eg_scene_pipe {
    const char *vs, *fs;                      /* shader names ("scene_color.vert") */
    WGPUPrimitiveTopology topology;           /* [TriangleList] */
    WGPUIndexFormat strip_index;              /* [Undefined] */
    WGPUCullMode cull;                        /* [None] */
    WGPUFrontFace front;                      /* [CCW] */
    uint32_t vbuf_count;                      /* [0: one buffer, pos float32x4 + color float32x4] */
    const WGPUVertexBufferLayout *vbufs;
    uint32_t target_count;                    /* [1] */
    WGPUTextureFormat format[4];              /* [RGBA8Unorm] */
    const WGPUBlendState *blend[4];           /* [no blending] */
    uint32_t write_mask[4];                   /* [All]; EG_SCENE_MASK_NONE for none */
    WGPUTextureFormat depth_format;           /* [none] */
    WGPUCompareFunction depth_compare;        /* [Always when a depth format is given] */
    bool depth_write;
    WGPUStencilFaceState stencil;             /* both faces; [Always/Keep] */
    uint32_t stencil_read_mask, stencil_write_mask; /* [0xFF, 0xFF] when both 0 */
    int32_t depth_bias;
    float depth_bias_slope;
    uint32_t samples;                         /* [1] */
    uint32_t bgl_count;
    WGPUBindGroupLayout bgl[2];
} eg_scene_pipe_t;
#define EG_SCENE_MASK_NONE 0x100u

WGPURenderPipeline eg_scene_pipeline(eg_scene_t *s, const eg_scene_pipe_t *p);
WGPUComputePipeline eg_scene_compute(eg_scene_t *s, const char *cs, uint32_t bgl_count,
                                     const WGPUBindGroupLayout *bgl);

/** A render pass with one color attachment cleared to (r,g,b,a) (rgba NULL: loaded) and an
 *  optional depth/stencil attachment cleared to depth_clear / stencil_clear (depth_clear < 0:
 *  both loaded). Depth and stencil ops are set only for the aspects the format has. */
WGPURenderPassEncoder eg_scene_pass(eg_scene_t *s, WGPUCommandEncoder enc, WGPUTextureView color,
                                    const float rgba[4], WGPUTextureView depth_view,
                                    WGPUTextureFormat depth_format, float depth_clear,
                                    uint32_t stencil_clear);
/** Ends and releases the pass. */
void eg_scene_end_pass(WGPURenderPassEncoder pass);
WGPUCommandEncoder eg_scene_encoder(eg_scene_t *s);
/** Finishes, submits and releases the encoder. */
void eg_scene_submit(eg_scene_t *s, WGPUCommandEncoder enc);

/** Copies mip 0 / layer 0 of tex (format as given, w x h texels) into the output image at
 *  (x0, y0), converting to RGBA8. Supported: RGBA8Unorm(Srgb), BGRA8Unorm(Srgb), R8Unorm,
 *  RG8Unorm, RGBA16Float, R32Float, RGBA32Float, EmgpuRGB565Unorm; the depth aspect of
 *  Depth16Unorm / Depth32Float as gray; the stencil aspect of Stencil8 / Depth24PlusStencil8 as a
 *  false-color map of the 8-bit value (eg_scene_stencil_rgb). */
void eg_scene_readback(eg_scene_t *s, WGPUTexture tex, WGPUTextureFormat format, uint32_t x0,
                       uint32_t y0, uint32_t w, uint32_t h);

/** The false color that eg_scene_readback shows for stencil value v. */
void eg_scene_stencil_rgb(uint32_t v, uint8_t rgba_out[4]);

/** Writes a background pattern into mip 0 of an RGBA8 texture of the scene's size, row by row:
 *  kind 0: four vertical stripes red, green, blue, gray with alpha 1, 0.75, 0.5, 0.25;
 *  kind 1: an 8-pixel checker of dark and light gray, alpha 1. */
void eg_scene_background(eg_scene_t *s, WGPUTexture tex, int kind);

/** Vertex of the default layout: position (clip space) and color. */
typedef struct eg_scene_vtx {
    float x, y, z, w;
    float r, g, b, a;
} eg_scene_vtx_t;

/** Draws a vertex array with the default layout (vertex buffer slot 0). */
void eg_scene_draw_vertices(eg_scene_t *s, WGPURenderPassEncoder pass, const eg_scene_vtx_t *v,
                            uint32_t count);

/** Pixel (x, y) of the scene's w x h image to clip space (pixel centre when given x + 0.5). */
static inline float eg_scene_ndc_x(const eg_scene_t *s, float x_px) { return x_px * 2.0f / (float)s->w - 1.0f; }
static inline float eg_scene_ndc_y(const eg_scene_t *s, float y_px) { return 1.0f - y_px * 2.0f / (float)s->h; }

/** Appends the 6 vertices (two triangles, CCW) of the pixel rectangle [x0,x1) x [y0,y1) at depth
 *  z with one color to v; returns v + 6. */
eg_scene_vtx_t *eg_scene_rect(const eg_scene_t *s, eg_scene_vtx_t *v, float x0, float y0, float x1,
                              float y1, float z, const float rgba[4]);

#endif /* EG_SCENE_H */
