/* Benchmark scenes 1-5 of issue #8, written once against webgpu.h (host runner and Cortex-M7).
 *
 * A scene owns its resources on one device; bench_scene_frame() encodes one full frame (clear +
 * draws) into an encoder, bench_scene_copy_out() appends a copy of the target into the scene's
 * readback buffer. Geometry is generated in code, deterministically, straight into buffers mapped
 * at creation (no application heap: the same code runs on bare metal). Shaders: bench/shaders,
 * embedded by bench/bench.mk (eg_test_spv("bench_blit.frag")).
 */
#ifndef EMGPU_BENCH_SCENE_H
#define EMGPU_BENCH_SCENE_H

#include <webgpu/webgpu.h>
#include <emgpu/emgpu.h>

#include <stdint.h>

enum {
    BENCH_BLIT = 1,     /* full-screen opaque textured blit + clear */
    BENCH_UI = 2,       /* UI composite (variant 0: 50% opacity, 1: opaque) */
    BENCH_TRIS = 3,     /* 20k small triangles (variant 0: Gouraud, 1: flat) */
    BENCH_MESH = 4,     /* textured, depth-tested, perspective mesh (10k triangles) */
    BENCH_ALU = 5,      /* full-screen fragment shader of ~40 ALU ops */
};

#define BENCH_TRIS_COUNT 20000u
#define BENCH_MESH_RINGS 100u
#define BENCH_MESH_SIDES 50u
#define BENCH_UI_RECTS 50u
#define BENCH_UI_LABELS 40u
#define BENCH_UI_MAX_INST (1u + BENCH_UI_RECTS + BENCH_UI_LABELS * 50u)

typedef struct bench_scene {
    int id, variant;
    uint32_t w, h, px_B, row_B;         /* row_B: readback bytesPerRow (multiple of 256) */
    WGPUTextureFormat fmt;
    WGPUDevice dev;
    WGPUTexture target, depth, tex;
    WGPUTextureView target_view, depth_view, tex_view;
    WGPUSampler sampler;
    WGPUBuffer vbuf, ibuf, ubuf, upload, readback;
    WGPUBindGroupLayout bgl;
    WGPUPipelineLayout layout;
    WGPUBindGroup bg;
    WGPURenderPipeline pipe[3];
    uint32_t upload_row_B, tex_w, tex_h;   /* pending texture upload (first frame) */
    int uploaded;
    uint32_t count, inst_count[3];
    uint32_t ui_draws;            /* scene 2: which of its 3 draws run (bits; BENCH_UI_DRAWS) */
} bench_scene_t;

/** Creates the scene's resources on dev; false (and *s partly filled: release it) on failure. */
int bench_scene_init(bench_scene_t *s, WGPUDevice dev, int id, int variant, uint32_t w, uint32_t h,
                     WGPUTextureFormat fmt);
/** Encodes one frame: a render pass that clears the target and draws the scene. */
void bench_scene_frame(bench_scene_t *s, WGPUCommandEncoder enc);
/** Encodes a copy of the target into s->readback (row_B bytes per row). */
void bench_scene_copy_out(bench_scene_t *s, WGPUCommandEncoder enc);
void bench_scene_release(bench_scene_t *s);
const char *bench_scene_name(int id, int variant);

/** Writes a line of text to the program's console (defined by each program: stdout, semihosting). */
void bench_say(const char *s);

/** A device of the given backend (WGPUBackendType_Undefined: the soft fallback adapter), with an
 *  error callback counting into *errors; NULL when the backend is missing. */
WGPUDevice bench_device(WGPUInstance inst, WGPUBackendType backend, unsigned *errors);
/** Polls the instance until the future completes; false on failure. */
int bench_wait(WGPUInstance inst, WGPUFuture f);
/** Waits until the queue's submitted work is done. */
int bench_queue_idle(WGPUInstance inst, WGPUQueue q);
/** FNV-1a over the image's pixel bytes (row padding skipped): compares Cortex-M7 and host frames. */
uint32_t bench_image_hash(const bench_scene_t *s, const uint8_t *img);
/** Maps s->readback for reading; NULL on failure (unmap with wgpuBufferUnmap). */
const uint8_t *bench_map_readback(WGPUInstance inst, bench_scene_t *s);

#endif /* EMGPU_BENCH_SCENE_H */
