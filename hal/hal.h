/* The HAL: one const table of function pointers per backend (soft, noop, vulkan, gles, ...).
 *
 * The kernel validates everything before it calls a HAL, so a HAL assumes valid input. What a
 * HAL may still report is what validation cannot foresee: the driver running out of memory,
 * the device being lost, or a feature missing at run time (eg_status_t). A HAL check that fires
 * anyway means the kernel missed a case: the HAL reports EG_STATUS_INTERNAL and never crashes.
 *
 * Backend state per object lives in the object's `hal` words (eg_hal_priv_t, see object.h):
 * a create call fills obj->hal, the matching destroy call releases it. Entries come in
 * create/destroy pairs in webgpu.h object order, and none is NULL (hal/noop is the reference).
 *
 * Command streams (kernel/cmd/cmd.h) arrive fully validated with the tracker's transitions
 * already placed as EG_CMD_BARRIER records; a backend maps them to its own barriers and never
 * derives resource state itself.
 *
 * Completion: every Submit gets a submission index (1, 2, 3, ...). A backend reports the newest
 * index whose work has finished through `completed_index`; the kernel uses it to finish futures
 * (MapAsync, OnSubmittedWorkDone) and to free objects whose last use has completed.
 */
#ifndef EG_HAL_H
#define EG_HAL_H

#include <webgpu/webgpu.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "kernel/api/device_info.h"

typedef enum eg_status {
    EG_STATUS_OK = 0,
    EG_STATUS_OUT_OF_MEMORY,     /* driver or backend memory exhausted: WebGPU OutOfMemory */
    EG_STATUS_DEVICE_LOST,       /* the device is gone: the kernel loses the WebGPU device */
    EG_STATUS_UNAVAILABLE,       /* the driver or library is missing (probe only) */
    EG_STATUS_INTERNAL,          /* a HAL check fired: a kernel validation gap, reported as Internal */
} eg_status_t;

typedef struct eg_hal_device eg_hal_device_t;   /* backend-defined */
struct eg_cmd_stream;
struct eg_hal_present;                          /* surfaces: kernel/api/surface.h */
struct eg_hal_window;                           /* native window surfaces: end of this file */
struct eg_hal_window_caps;
struct eg_hal_window_config;
struct eg_hal_rect;                             /* surface damage (helper damage) */
struct eg_hal_swapchain;                        /* backend-defined */

/* Kernel object types, defined in kernel/api/<object>.h. */
typedef struct WGPUBufferImpl eg_buffer_t;
typedef struct WGPUTextureImpl eg_texture_t;
typedef struct WGPUTextureViewImpl eg_texture_view_t;
typedef struct WGPUSamplerImpl eg_sampler_t;
typedef struct WGPUBindGroupLayoutImpl eg_bind_group_layout_t;
typedef struct WGPUBindGroupImpl eg_bind_group_t;
typedef struct WGPUPipelineLayoutImpl eg_pipeline_layout_t;
typedef struct WGPUShaderModuleImpl eg_shader_module_t;
typedef struct WGPURenderPipelineImpl eg_render_pipeline_t;
typedef struct WGPUComputePipelineImpl eg_compute_pipeline_t;

/** One texel-copy region as the HAL receives it: already validated and resolved
 *  (no WGPU_COPY_STRIDE_UNDEFINED left; rows_per_image set; sizes in texels). */
typedef struct eg_texel_region {
    uint32_t mip_level;
    uint32_t origin_x, origin_y, origin_z;   /* z = array layer for 2D arrays, depth for 3D */
    uint32_t width_px, height_px, depth_or_layers;
    WGPUTextureAspect aspect;
} eg_texel_region_t;

typedef struct eg_buffer_layout {
    uint64_t offset_B;
    uint32_t bytes_per_row_B;
    uint32_t rows_per_image;
} eg_buffer_layout_t;

typedef struct eg_hal_submit {
    uint64_t index;                          /* submission index assigned by the kernel */
    const struct eg_cmd_stream *const *streams;
    uint32_t stream_count;
} eg_hal_submit_t;

typedef struct eg_hal_ops {
    const char     *name;                    /* "soft", "noop", "vulkan", ... */
    WGPUBackendType backend;
    /* The knob that sizes the backend's resource memory, quoted when it runs out
     * ("EMGPU_SOFT_HEAP_BYTES"), with its configured value; NULL/0 when the driver owns memory. */
    const char     *memory_knob;
    uint64_t        memory_knob_value;

    /* ---- adapter / device ---- */
    /* Fills info (limits, features, formats, names) for the adapter at `ordinal` of this backend;
     * UNAVAILABLE when there is none (driver missing). Called by RequestAdapter. */
    eg_status_t (*probe)(uint32_t ordinal, eg_device_info_t *info);
    /* Opens the device. The kernel guarantees info came from probe and the requested limits and
     * features are within it. */
    eg_status_t (*device_open)(const eg_device_info_t *info, eg_hal_device_t **out);
    /* Waits for all work, then releases the device; every child object is destroyed first. */
    void        (*device_close)(eg_hal_device_t *dev);

    /* ---- resources (create/destroy pairs, webgpu.h order) ---- */
    /* Kernel guarantees: descriptor valid, size_B multiple of 4, size_B <= maxBufferSize.
     * Contents start zeroed (WebGPU requires zero-initialised memory). */
    eg_status_t (*buffer_create)(eg_hal_device_t *dev, eg_buffer_t *buf);
    void        (*buffer_destroy)(eg_hal_device_t *dev, eg_buffer_t *buf);
    /* CPU pointer to [offset_B, offset_B+size_B) for a map that the kernel has decided is
     * complete (no pending GPU use). Stays valid until buffer_unmap. NULL only on device loss. */
    void       *(*buffer_map)(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B, uint64_t size_B,
                              bool for_write);
    void        (*buffer_unmap)(eg_hal_device_t *dev, eg_buffer_t *buf);

    eg_status_t (*texture_create)(eg_hal_device_t *dev, eg_texture_t *tex);
    void        (*texture_destroy)(eg_hal_device_t *dev, eg_texture_t *tex);
    eg_status_t (*texture_view_create)(eg_hal_device_t *dev, eg_texture_view_t *view);
    void        (*texture_view_destroy)(eg_hal_device_t *dev, eg_texture_view_t *view);
    eg_status_t (*sampler_create)(eg_hal_device_t *dev, eg_sampler_t *smp);
    void        (*sampler_destroy)(eg_hal_device_t *dev, eg_sampler_t *smp);
    eg_status_t (*bind_group_layout_create)(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl);
    void        (*bind_group_layout_destroy)(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl);
    eg_status_t (*bind_group_create)(eg_hal_device_t *dev, eg_bind_group_t *bg);
    void        (*bind_group_destroy)(eg_hal_device_t *dev, eg_bind_group_t *bg);
    eg_status_t (*pipeline_layout_create)(eg_hal_device_t *dev, eg_pipeline_layout_t *pl);
    void        (*pipeline_layout_destroy)(eg_hal_device_t *dev, eg_pipeline_layout_t *pl);
    eg_status_t (*shader_module_create)(eg_hal_device_t *dev, eg_shader_module_t *sm);
    void        (*shader_module_destroy)(eg_hal_device_t *dev, eg_shader_module_t *sm);
    eg_status_t (*render_pipeline_create)(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
    void        (*render_pipeline_destroy)(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
    eg_status_t (*compute_pipeline_create)(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);
    void        (*compute_pipeline_destroy)(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);

    /* ---- queue ---- */
    /* Kernel guarantees: range in bounds, offset and size multiples of 4, buffer not mapped.
     * The write is ordered after every earlier submit and before every later one. */
    eg_status_t (*queue_write_buffer)(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                      const void *data, size_t size_B);
    eg_status_t (*queue_write_texture)(eg_hal_device_t *dev, eg_texture_t *tex,
                                       const eg_texel_region_t *dst, const void *data,
                                       const eg_buffer_layout_t *layout);
    eg_status_t (*queue_submit)(eg_hal_device_t *dev, const eg_hal_submit_t *sub);
    /* Newest submission index whose work has finished (non-blocking). */
    uint64_t    (*completed_index)(eg_hal_device_t *dev);
    /* Blocks until `index` has finished or timeout_ns passes; returns completed_index(). */
    uint64_t    (*wait_index)(eg_hal_device_t *dev, uint64_t index, uint64_t timeout_ns);

    /* ---- surfaces (helper "surface", kernel/api/surface.c): OPTIONAL, unlike the entries
     * above. A backend without surfaces leaves all three NULL; configuring a surface with its
     * device is then a validation error (SURFACE_UNSUPPORTED). ---- */
    /* Creates tex's backend part over CPU memory the caller owns (a panel framebuffer, an fbdev
     * mmap): the kernel guarantees tex is 2D, 1 mip, 1 sample, 1 layer, a color format, and that
     * mem holds height rows of width * texel bytes, tightly packed (soft's layout), size_B bytes.
     * The kernel calls texture_unwrap before the texture can reach texture_destroy. */
    eg_status_t (*texture_wrap)(eg_hal_device_t *dev, eg_texture_t *tex, void *mem, size_t size_B);
    /* Forgets the memory given to texture_wrap, so texture_destroy releases nothing of it. */
    void        (*texture_unwrap)(eg_hal_device_t *dev, eg_texture_t *tex);
    /* Converts tex (mip 0, layer 0; every submission using it has completed) into the panel's
     * native pixels: into dst->mem, or strip by strip through dst->strip with dst->flush
     * (struct eg_hal_present in kernel/api/surface.h). */
    eg_status_t (*surface_present)(eg_hal_device_t *dev, const eg_texture_t *tex,
                                   const struct eg_hal_present *dst);

    /* ---- native window surfaces (helper x11, session 3): OPTIONAL, all six or none. A backend
     * with them presents WGPUSurfaceSourceXlibWindow surfaces through the driver's swapchain
     * (Vulkan: VK_KHR_xlib_surface); without them the kernel falls back to surface_present into
     * the port's window image (present by copy). Types at the end of this file. ---- */
    /* What the adapter `info` can do with the window; UNAVAILABLE when it cannot present to it
     * (no surface extension, queue without present support). */
    eg_status_t (*window_caps)(const eg_device_info_t *info, const struct eg_hal_window *win,
                               struct eg_hal_window_caps *caps);
    /* (Re)creates the swapchain for cfg (validated against window_caps). *sc is the previous
     * swapchain or NULL; on success it is replaced (the old one retired), on failure left as is. */
    eg_status_t (*window_configure)(eg_hal_device_t *dev, const struct eg_hal_window *win,
                                    const struct eg_hal_window_config *cfg, struct eg_hal_swapchain **sc);
    /* Waits for the device and destroys the swapchain (no frame is acquired). */
    void        (*window_unconfigure)(eg_hal_device_t *dev, struct eg_hal_swapchain *sc);
    /* Acquires the next image and makes it tex's backend part (tex: the configured format, usage
     * and size, 2D, 1 mip, 1 sample). Returns an eg_hal_frame_status_t; tex is live only for
     * OPTIMAL and SUBOPTIMAL. */
    uint32_t    (*window_acquire)(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex);
    /* Queues tex's image for presentation after all submitted work; from_use is the tracker's
     * state of tex (the transition to EG_TRACK_TEX_PRESENT starts there). eg_hal_frame_status_t. */
    uint32_t    (*window_present)(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex,
                                  uint16_t from_use);
    /* Forgets the image given to tex by window_acquire (presented or dropped), so texture_destroy
     * releases nothing the swapchain owns. */
    void        (*window_release)(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex);

    /* ---- banded panels (helper bin, session 3): OPTIONAL. Makes tex (the frame of a strip-mode
     * memory panel: the configured format and size, 2D, 1 mip, 1 sample, usage
     * RenderAttachment only) a banded texture with no full-frame memory: a render pass into it is
     * rasterized strip by strip into dst's strip buffer and each strip flushed as the pass ends;
     * surface_present then ends the frame. texture_destroy releases it. NULL: strip mode renders
     * a full-frame texture (texture_create) and surface_present converts it strip by strip. */
    eg_status_t (*surface_band)(eg_hal_device_t *dev, eg_texture_t *tex, const struct eg_hal_present *dst);

    /* ---- window-bound adapters (helper egl, session 3): OPTIONAL. probe for an adapter requested
     * with WGPURequestAdapterOptions.compatibleSurface set to a window (kernel/api/surface.c
     * eg_surface_probe_adapter): the backend may bind that adapter's devices to the window's
     * native display (GLES: an EGL display on the X11 Display, which EGL window surfaces need).
     * info->ordinal tells device_open which display. UNAVAILABLE: the kernel uses probe(0). The
     * native display must outlive the adapter's devices. */
    eg_status_t (*probe_window)(const struct eg_hal_window *win, eg_device_info_t *info);

    /* ---- partial updates (helper damage, session 3): OPTIONAL. Limits the surface frame tex to
     * the rectangle r (pixels, [x0, x1) x [y0, y1), inside the frame) until it is presented:
     * render passes into it load, clear, rasterize and store only inside r, and surface_present
     * writes only r. r NULL: the frame ends (called before texture_destroy); forget tex. NULL
     * entry: the kernel presents whole frames (wgpuSurfaceEmgpuSetDamage is accepted). */
    void        (*surface_damage)(eg_hal_device_t *dev, const eg_texture_t *tex, const struct eg_hal_rect *r);
} eg_hal_ops_t;

/* (helper damage) A pixel rectangle [x0, x1) x [y0, y1). */
typedef struct eg_hal_rect {
    uint32_t x0, y0, x1, y1;
} eg_hal_rect_t;

/* The backends compiled into this board (config EMGPU_HAL_*), in the board's preference order. */
extern const eg_hal_ops_t *const eg_hal_backends[];
extern const uint32_t eg_hal_backend_count;

/* ---- added by helper gles2 (session 2): a HAL's own reason for a failed create ----
 * A HAL call that fails (create of a buffer, texture, view, sampler, bind group, layout, module,
 * pipeline) may say why just before it returns its status: the kernel then reports that text,
 * with `type` and `code` (an eg_error_code_t from kernel/api/error_codes.h), as the ONE error of
 * the failed WebGPU call, prefixed with the entry point and label, instead of its generic
 * "backend failed" message. Consumed (or discarded on success) by the kernel's eg_fail_hal; one
 * pending detail (the kernel makes no concurrent HAL calls). No heap, formatted with eg_fmt.
 * Implemented in kernel/api/error.c. */
void eg_hal_error_detail(WGPUErrorType type, uint32_t code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- native window surfaces (helper x11, session 3): the types of the window_* entries ---- */
#define EG_HAL_WINDOW_MAX_FORMATS 8
#define EG_HAL_WINDOW_MAX_MODES 4

/** The native window: an X11 Display * and Window (WGPUSurfaceSourceXlibWindow), or (helper gbm)
 *  a KMS output: drm is the surface's open eg_port_drm_t (WGPUEmgpuSurfaceSourceDrm), else NULL. */
typedef struct eg_hal_window {
    void *display;
    uint64_t window;
    void *drm;
    void *wl_surface;   /* (helper wayland) a struct wl_surface *, display its wl_display; else NULL */
} eg_hal_window_t;

/** What the driver offers for the window, as WebGPU values (the kernel hands the arrays out as
 *  WGPUSurfaceCapabilities). extent 0 x 0: any size; else the configuration must have it. */
typedef struct eg_hal_window_caps {
    WGPUTextureFormat formats[EG_HAL_WINDOW_MAX_FORMATS];
    uint32_t format_count;
    WGPUPresentMode present_modes[EG_HAL_WINDOW_MAX_MODES];
    uint32_t present_mode_count;
    WGPUCompositeAlphaMode alpha_modes[EG_HAL_WINDOW_MAX_MODES];
    uint32_t alpha_mode_count;
    WGPUTextureUsage usages;
    uint32_t extent_width_px, extent_height_px;
} eg_hal_window_caps_t;

/** A validated configuration (present_mode and alpha_mode resolved: never Undefined / Auto). */
typedef struct eg_hal_window_config {
    WGPUTextureFormat format;
    WGPUTextureFormat view_srgb_pair;   /* a viewFormats twin or Undefined */
    WGPUTextureUsage usage;
    uint32_t width_px, height_px;
    WGPUPresentMode present_mode;
    WGPUCompositeAlphaMode alpha_mode;
} eg_hal_window_config_t;

typedef enum eg_hal_frame_status {
    EG_HAL_FRAME_OPTIMAL = 0,
    EG_HAL_FRAME_SUBOPTIMAL,     /* works, but the swapchain no longer matches the window */
    EG_HAL_FRAME_OUTDATED,       /* must be configured again (window resized) */
    EG_HAL_FRAME_LOST,           /* the surface is gone */
    EG_HAL_FRAME_TIMEOUT,
    EG_HAL_FRAME_OUT_OF_MEMORY,
    EG_HAL_FRAME_DEVICE_LOST,
} eg_hal_frame_status_t;

#endif /* EG_HAL_H */
