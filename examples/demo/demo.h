/* make demo: shared declarations of the dashboard demo (demo.c, demo_ui.c, demo_window.c, demo_main.c). */
#ifndef EMGPU_DEMO_H
#define EMGPU_DEMO_H

#include <stdint.h>

#include <webgpu/webgpu.h>

#define DEMO_W_PX 800u
#define DEMO_H_PX 480u

/* The RGBA8 atlas: the 5x7 glyphs (white, coverage in alpha) at (0,0), icons at
 * (DEMO_ICON_X0 + i * DEMO_ICON_STEP, 0), DEMO_ICON_PX square each. */
#define DEMO_ATLAS_W 256u
#define DEMO_ATLAS_H 64u
#define DEMO_ICON_PX 32u
#define DEMO_ICON_X0 96u
#define DEMO_ICON_STEP 40u
enum { DEMO_ICON_WIFI, DEMO_ICON_BATTERY, DEMO_ICON_GEAR, DEMO_ICON_POWER, DEMO_ICON_COUNT };

/** One UI vertex: pixel position, local coordinates (shape offset or atlas uv), unorm8x4 color,
 *  params (half width, half height, radius or gauge fraction, mode 0..3; see demo_ui.frag). */
typedef struct demo_vtx {
    float pos[2];
    float local[2];
    uint8_t rgba[4];
    float params[4];
} demo_vtx_t;

typedef struct demo_batch {
    demo_vtx_t *v;
    uint32_t n, cap;
} demo_batch_t;

/** Fills DEMO_ATLAS_W x DEMO_ATLAS_H RGBA8 texels: glyphs and procedural icons. */
void demo_atlas(uint8_t *rgba);
/** Appends the dashboard's 2D layer for frame `frame` (animation at 30 frames per second). */
void demo_ui_build(demo_batch_t *b, unsigned frame);
/** The 3D view's rectangle inside the dashboard, in pixels. */
void demo_view_rect(uint32_t *x, uint32_t *y, uint32_t *w, uint32_t *h);

/* The renderer (demo.c): an RGBA8 DEMO_W_PX x DEMO_H_PX target drawn on any device, so that the
 * same frames are shown by `make demo` (demo_main.c) and by the VM display test (tests/vm). */
#define DEMO_ROW_B (((DEMO_W_PX * 4u) + 255u) / 256u * 256u) /* readback bytesPerRow: multiple of 256 */
/* The torus of the 3D view. */
#define TORUS_RINGS 48u
#define TORUS_SIDES 24u
#define TORUS_VERTS ((TORUS_RINGS + 1u) * (TORUS_SIDES + 1u))
#define TORUS_INDICES (TORUS_RINGS * TORUS_SIDES * 6u)

/** The dashboard's objects on one device; the instance and device are the caller's. */
typedef struct demo {
    WGPUInstance instance;
    WGPUDevice device;
    WGPUQueue queue;
    WGPUTexture target, depth, atlas;
    WGPUTextureView target_view, depth_view, atlas_view;
    WGPUSampler sampler;
    WGPUBuffer readback, ui_vbuf, ui_ubuf, mesh_vbuf, mesh_ibuf, mesh_ubuf;
    WGPUBindGroupLayout ui_bgl, mesh_bgl;
    WGPUPipelineLayout ui_layout, mesh_layout;
    WGPUBindGroup ui_bg, mesh_bg;
    WGPURenderPipeline ui_pipe, mesh_pipe;
    demo_batch_t batch;
} demo_t;

/** Creates the target, buffers, atlas and pipelines on `device`; 0 on failure (call demo_teardown). */
int demo_setup(demo_t *d, WGPUInstance instance, WGPUDevice device);
/** Renders frame `frame` (animation at 30 frames per second, a pure function of `frame`) into
 *  d->target; read_back also copies it into d->readback (DEMO_ROW_B bytes per row). */
void demo_render_frame(demo_t *d, unsigned frame, int read_back);
/** Releases what demo_setup created (not the instance or the device). */
void demo_teardown(demo_t *d);

/** The desktop simulator window (examples/sim: the board's panel in X11, a memory-panel surface);
 *  NULL without a display or libX11. */
typedef struct demo_window demo_window_t;
demo_window_t *demo_window_open(WGPUInstance instance, WGPUDevice device, uint32_t w, uint32_t h);
/** Copies frame (RGBA8, w x h) into the surface texture and presents; 0 once the user closed the
 *  window or presenting failed. */
int demo_window_show(demo_window_t *win, WGPUTexture frame);
void demo_window_close(demo_window_t *win);

#endif /* EMGPU_DEMO_H */
