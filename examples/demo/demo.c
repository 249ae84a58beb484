/* make demo: a dashboard mosaic rendered with clears and copies on the software backend -> PNG.
 *
 * Public API only. Each frame: a render pass clears each palette texture to its colour, and
 * copyTextureToTexture places rectangles of them into an 800x480 RGBA8 target: panels, title
 * strips, an animated bar chart, a level meter and a checkerboard. A header gradient and a colour
 * swatch are uploaded with WriteTexture. The last frame is copied to a mapped buffer and written
 * with libpng's simplified API. Triangles and shaders come with the rasterizer (issue #4).
 * Usage: demo OUT.png [FRAMES]
 */
#include <webgpu/webgpu.h>

#include "examples/soft_device.h"

#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define W_PX 800u
#define H_PX 480u
#define ROW_B (((W_PX * 4u) + 255u) / 256u * 256u) /* bytesPerRow: multiple of 256 */
#define PAL_W_PX 248u                              /* palette textures: one panel's size */
#define PAL_H_PX 200u
#define SWATCH_W_PX 200u
#define SWATCH_H_PX 120u

enum { C_BG, C_PANEL, C_PANEL2, C_ACCENT, C_GREEN, C_AMBER, C_RED, C_WHITE, PALETTE_N };
static const WGPUColor palette[PALETTE_N] = {
    { 0.06, 0.07, 0.10, 1 }, { 0.13, 0.15, 0.20, 1 }, { 0.17, 0.19, 0.26, 1 }, { 0.20, 0.55, 0.95, 1 },
    { 0.20, 0.80, 0.45, 1 }, { 0.98, 0.70, 0.15, 1 }, { 0.92, 0.26, 0.26, 1 }, { 0.92, 0.93, 0.95, 1 },
};

typedef struct demo {
    WGPUInstance instance;
    WGPUDevice device;
    WGPUQueue queue;
    WGPUTexture target, swatch, pal[PALETTE_N];
    WGPUTextureView pal_view[PALETTE_N];
    WGPUBuffer readback;
    unsigned copies, clears;
} demo_t;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static WGPUTexture make_texture(WGPUDevice device, uint32_t w, uint32_t h, WGPUTextureUsage usage)
{
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.usage = usage;
    td.size.width = w;
    td.size.height = h;
    td.format = WGPUTextureFormat_RGBA8Unorm;
    return wgpuDeviceCreateTexture(device, &td);
}

/* Writes a w x h gradient image at (x, y) of `tex` with WriteTexture; f gives the RGBA8 texel. */
static void write_gradient(demo_t *d, WGPUTexture tex, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
                           uint32_t (*f)(uint32_t, uint32_t, uint32_t, uint32_t))
{
    uint32_t *px = malloc((size_t)w * h * 4u); /* the application's memory, not emgpu's */
    if (!px) return;
    for (uint32_t j = 0; j < h; j++)
        for (uint32_t i = 0; i < w; i++) px[j * w + i] = f(i, j, w, h);
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = tex;
    dst.origin = (WGPUOrigin3D){ x, y, 0 };
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = w * 4u;
    layout.rowsPerImage = h;
    WGPUExtent3D size = { w, h, 1 };
    wgpuQueueWriteTexture(d->queue, &dst, px, (size_t)w * h * 4u, &layout, &size);
    free(px);
}

static uint32_t rgba(uint32_t r, uint32_t g, uint32_t b) { return r | g << 8 | b << 16 | 0xFFu << 24; }

static uint32_t header_px(uint32_t i, uint32_t j, uint32_t w, uint32_t h)
{
    uint32_t t = i * 255u / (w - 1u), fade = 255u - j * 96u / h;
    return rgba((40u + t * 120u / 255u) * fade / 255u, (60u + (255u - t) * 40u / 255u) * fade / 255u,
                (200u - t * 60u / 255u) * fade / 255u);
}

static uint32_t swatch_px(uint32_t i, uint32_t j, uint32_t w, uint32_t h)
{
    return rgba(i * 255u / (w - 1u), j * 255u / (h - 1u), 255u - i * 255u / (w - 1u));
}

/* Copies a w x h rectangle of palette colour c to (x, y) of the target. */
static void rect(demo_t *d, WGPUCommandEncoder enc, int c, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT, dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    src.texture = d->pal[c];
    dst.texture = d->target;
    dst.origin = (WGPUOrigin3D){ x, y, 0 };
    WGPUExtent3D size = { w, h, 1 };
    wgpuCommandEncoderCopyTextureToTexture(enc, &src, &dst, &size);
    d->copies++;
}

static void clear_palette(demo_t *d, WGPUCommandEncoder enc)
{
    for (int c = 0; c < PALETTE_N; c++) {
        WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
        ca.view = d->pal_view[c];
        ca.loadOp = WGPULoadOp_Clear;
        ca.storeOp = WGPUStoreOp_Store;
        ca.clearValue = palette[c];
        WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
        rp.colorAttachmentCount = 1;
        rp.colorAttachments = &ca;
        WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
        wgpuRenderPassEncoderEnd(pass);
        wgpuRenderPassEncoderRelease(pass);
        d->clears++;
    }
}

/* Background below the header, in palette-sized tiles (the header was uploaded once). */
static void background(demo_t *d, WGPUCommandEncoder enc)
{
    for (uint32_t y = 48; y < H_PX; y += PAL_H_PX)
        for (uint32_t x = 0; x < W_PX; x += PAL_W_PX)
            rect(d, enc, C_BG, x, y, x + PAL_W_PX <= W_PX ? PAL_W_PX : W_PX - x,
                 y + PAL_H_PX <= H_PX ? PAL_H_PX : H_PX - y);
}

/* Panels [first, end) of the 3x2 grid under the header: a title strip and their own content. */
static void compose(demo_t *d, WGPUCommandEncoder enc, unsigned frame, uint32_t first, uint32_t end)
{
    for (uint32_t p = first; p < end; p++) {
        uint32_t px = 16u + (p % 3u) * (PAL_W_PX + 12u), py = 60u + (p / 3u) * (PAL_H_PX + 10u);
        rect(d, enc, p % 2u ? C_PANEL2 : C_PANEL, px, py, PAL_W_PX, PAL_H_PX);
        rect(d, enc, p == 5 ? C_RED : C_ACCENT, px, py, PAL_W_PX, 6);
        uint32_t cx = px + 12u, cy = py + 18u, cw = PAL_W_PX - 24u, ch = PAL_H_PX - 30u;
        if (p == 0) { /* bar chart: eight bars, heights animated by frame */
            for (uint32_t b = 0; b < 8; b++) {
                uint32_t hgt = 20u + ((b * 37u + frame * 11u) % 140u);
                rect(d, enc, hgt > 120u ? C_AMBER : C_GREEN, cx + b * 28u, cy + ch - hgt, 20, hgt);
            }
        } else if (p == 1) { /* level meter: 10 segments */
            uint32_t level = 3u + (frame % 8u);
            for (uint32_t s = 0; s < 10; s++)
                rect(d, enc, s >= level ? C_PANEL : s >= 8 ? C_RED : s >= 6 ? C_AMBER : C_GREEN,
                     cx, cy + ch - (s + 1u) * 16u, cw, 12);
        } else if (p == 2) { /* the uploaded colour swatch */
            WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT, dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
            src.texture = d->swatch;
            dst.texture = d->target;
            dst.origin = (WGPUOrigin3D){ cx + (cw - SWATCH_W_PX) / 2u, cy + 20u, 0 };
            WGPUExtent3D size = { SWATCH_W_PX, SWATCH_H_PX, 1 };
            wgpuCommandEncoderCopyTextureToTexture(enc, &src, &dst, &size);
            d->copies++;
        } else if (p == 3) { /* checkerboard */
            for (uint32_t j = 0; j < ch / 20u; j++)
                for (uint32_t i = 0; i < cw / 20u; i++)
                    if ((i + j + frame) % 2u) rect(d, enc, C_WHITE, cx + i * 20u, cy + j * 20u, 20, 20);
        } else if (p == 4) { /* progress bars */
            for (uint32_t r = 0; r < 5; r++) {
                uint32_t fill = (cw * ((r * 23u + frame * 7u) % 100u + 1u)) / 100u;
                rect(d, enc, C_BG, cx, cy + r * 32u, cw, 16);
                rect(d, enc, C_ACCENT, cx, cy + r * 32u, fill, 16);
            }
        } else { /* status tiles */
            for (uint32_t s = 0; s < 6; s++)
                rect(d, enc, (s + frame) % 5u == 0 ? C_RED : C_GREEN, cx + (s % 3u) * 76u,
                     cy + (s / 3u) * 80u, 68, 72);
        }
    }
}

/* One frame as three command buffers submitted together: each encoder's command stream is a
 * fixed EMGPU_COMMAND_STREAM_BYTES block, so a frame of ~100 copies is split by panel rows. */
static double render_frame(demo_t *d, unsigned frame, int read_back)
{
    double t0 = now_ms();
    WGPUCommandBuffer cbs[3];
    for (uint32_t part = 0; part < 3; part++) {
        WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(d->device, NULL);
        if (part == 0) {
            clear_palette(d, enc);
            background(d, enc);
        }
        compose(d, enc, frame, part * 2u, part * 2u + 2u);
        if (part == 2 && read_back) {
            WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
            src.texture = d->target;
            WGPUTexelCopyBufferInfo out = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
            out.buffer = d->readback;
            out.layout.bytesPerRow = ROW_B;
            WGPUExtent3D all = { W_PX, H_PX, 1 };
            wgpuCommandEncoderCopyTextureToBuffer(enc, &src, &out, &all);
        }
        cbs[part] = wgpuCommandEncoderFinish(enc, NULL);
        wgpuCommandEncoderRelease(enc);
    }
    wgpuQueueSubmit(d->queue, 3, cbs);
    for (int i = 0; i < 3; i++) wgpuCommandBufferRelease(cbs[i]);
    return now_ms() - t0;
}

static void on_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message,
                     void *userdata1, void *userdata2)
{
    (void)device;
    (void)userdata2;
    (*(unsigned *)userdata1)++;
    fprintf(stderr, "demo: WebGPU error %d: %.*s\n", (int)type,
            message.data ? (int)(message.length == WGPU_STRLEN ? 1000 : message.length) : 0,
            message.data ? message.data : "");
}

static int setup(demo_t *d, unsigned *errors)
{
    d->instance = wgpuCreateInstance(NULL);
    if (!d->instance) return 0;
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.uncapturedErrorCallbackInfo.callback = on_error;
    dd.uncapturedErrorCallbackInfo.userdata1 = errors;
    WGPUAdapter adapter;
    d->device = example_soft_device(d->instance, &dd, &adapter);
    if (adapter) wgpuAdapterRelease(adapter); /* the device keeps what it needs */
    if (!d->device) return 0;
    d->queue = wgpuDeviceGetQueue(d->device);
    d->target = make_texture(d->device, W_PX, H_PX, WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc);
    d->swatch = make_texture(d->device, SWATCH_W_PX, SWATCH_H_PX,
                             WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc);
    for (int c = 0; c < PALETTE_N; c++) {
        d->pal[c] = make_texture(d->device, PAL_W_PX, PAL_H_PX,
                                 WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
        d->pal_view[c] = wgpuTextureCreateView(d->pal[c], NULL);
    }
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead;
    bd.size = (uint64_t)ROW_B * H_PX;
    d->readback = wgpuDeviceCreateBuffer(d->device, &bd);
    write_gradient(d, d->target, 0, 0, W_PX, 48, header_px);
    write_gradient(d, d->swatch, 0, 0, SWATCH_W_PX, SWATCH_H_PX, swatch_px);
    return 1;
}

static void teardown(demo_t *d)
{
    if (d->readback) wgpuBufferRelease(d->readback);
    for (int c = 0; c < PALETTE_N; c++) {
        if (d->pal_view[c]) wgpuTextureViewRelease(d->pal_view[c]);
        if (d->pal[c]) wgpuTextureRelease(d->pal[c]);
    }
    if (d->swatch) wgpuTextureRelease(d->swatch);
    if (d->target) wgpuTextureRelease(d->target);
    if (d->queue) wgpuQueueRelease(d->queue);
    if (d->device) wgpuDeviceRelease(d->device);
    if (d->instance) wgpuInstanceRelease(d->instance);
}

static int write_png(demo_t *d, const char *path)
{
    if (!example_map_read(d->instance, d->readback, (size_t)ROW_B * H_PX)) {
        fprintf(stderr, "demo: mapping the readback buffer failed\n");
        return 0;
    }
    const void *px = wgpuBufferGetConstMappedRange(d->readback, 0, (size_t)ROW_B * H_PX);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = W_PX;
    img.height = H_PX;
    img.format = PNG_FORMAT_RGBA;
    /* row_stride counts components: one byte each for 8-bit RGBA, so it is bytesPerRow. */
    int ok = px && png_image_write_to_file(&img, path, 0, px, (png_int_32)ROW_B, NULL);
    if (!ok) fprintf(stderr, "demo: writing %s failed: %s\n", path, px ? img.message : "no mapped range");
    wgpuBufferUnmap(d->readback);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUT.png [FRAMES]\n", argv[0]);
        return 2;
    }
    unsigned frames = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1u;
    if (frames == 0) frames = 1;
    demo_t d;
    memset(&d, 0, sizeof d);
    unsigned errors = 0;
    if (!setup(&d, &errors)) {
        fprintf(stderr, "demo: no software adapter or device\n");
        teardown(&d);
        return 1;
    }
    double total_ms = 0, best_ms = 1e30;
    for (unsigned f = 0; f < frames; f++) {
        double ms = render_frame(&d, f, f + 1 == frames);
        total_ms += ms;
        if (ms < best_ms) best_ms = ms;
    }
    int ok = write_png(&d, argv[1]);
    teardown(&d);
    printf("demo: %ux%u RGBA8 dashboard on the soft backend: %u frame(s), %u clears and %u "
           "texture copies per frame, 2 WriteTexture uploads\n",
           W_PX, H_PX, frames, d.clears / frames, d.copies / frames);
    printf("demo: frame time (record + submit + execute) avg %.3f ms, best %.3f ms\n",
           total_ms / frames, best_ms);
    if (ok) printf("demo: wrote %s\n", argv[1]);
    if (errors) printf("demo: %u WebGPU error(s) reported\n", errors);
    return ok && !errors ? 0 : 1;
}
