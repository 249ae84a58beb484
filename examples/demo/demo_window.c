/* make demo: the dashboard in the desktop simulator window (examples/sim: the board's panel in X11). */
#include "examples/demo/demo.h"
#include "examples/sim/sim.h"

#include <emgpu/emgpu.h>

#include <stdio.h>
#include <stdlib.h>

/* Firmware-style presentation: the panel is a WGPUEmgpuSurfaceSourceMemoryPanel, as on the board;
 * only eg_sim_panel_source() differs. Each frame the rendered target is copied into the surface
 * texture and presented; the panel's flush shows it in the window. */
struct demo_window {
    WGPUDevice device;
    WGPUQueue queue;
    WGPUSurface surface;
    uint32_t width, height;
};

static uint32_t env_u32(const char *name, uint32_t fallback)
{
    const char *s = getenv(name);
    return s && *s ? (uint32_t)strtoul(s, NULL, 10) : fallback;
}

demo_window_t *demo_window_open(WGPUInstance instance, WGPUDevice device, uint32_t width, uint32_t height)
{
    const char *display = getenv("DISPLAY");
    if (!display || !*display) return NULL;
    eg_sim_config_t cfg = eg_sim_config_default();
    cfg.width_px = width;
    cfg.height_px = height;
    /* DEMO_SIM_ZOOM / DEMO_SIM_FORMAT / DEMO_SIM_STRIP override the EMGPU_SIM_* knobs per run. */
    cfg.zoom = env_u32("DEMO_SIM_ZOOM", cfg.zoom);
    cfg.format = (WGPUEmgpuPanelFormat)env_u32("DEMO_SIM_FORMAT", (uint32_t)cfg.format);
    cfg.strip_rows = env_u32("DEMO_SIM_STRIP", cfg.strip_rows);
    cfg.title = "emgpu dashboard (soft backend, board simulator)";
    if (!eg_sim_open(&cfg)) return NULL;
    demo_window_t *w = calloc(1, sizeof *w);
    if (!w) {
        eg_sim_close();
        return NULL;
    }
    WGPUEmgpuSurfaceSourceMemoryPanel src;
    eg_sim_panel_source(&src);
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &src.chain;
    w->surface = wgpuInstanceCreateSurface(instance, &sd);
    if (!w->surface) {
        fprintf(stderr, "demo: CreateSurface on the simulated panel failed\n");
        demo_window_close(w);
        return NULL;
    }
    w->device = device;
    w->queue = wgpuDeviceGetQueue(device);
    w->width = width;
    w->height = height;
    /* The demo renders RGBA8; the panel's native format is converted by Present (the
     * conversion a firmware pays when its pipelines do not write the panel format). */
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = device;
    c.format = WGPUTextureFormat_RGBA8Unorm;
    c.usage = WGPUTextureUsage_CopyDst | WGPUTextureUsage_RenderAttachment;
    c.width = width;
    c.height = height;
    wgpuSurfaceConfigure(w->surface, &c);
    printf("demo: simulator panel %ux%u, format %u, %s, zoom %u\n", (unsigned)width, (unsigned)height,
           (unsigned)cfg.format, cfg.strip_rows ? "strip mode" : "framebuffer mode", (unsigned)cfg.zoom);
    return w;
}

int demo_window_show(demo_window_t *w, WGPUTexture frame)
{
    if (!eg_sim_poll()) return 0;
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(w->surface, &st);
    if (!st.texture) {
        fprintf(stderr, "demo: GetCurrentTexture status %d\n", (int)st.status);
        return 0;
    }
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(w->device, NULL);
    WGPUTexelCopyTextureInfo from = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT, to = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    from.texture = frame;
    to.texture = st.texture;
    WGPUExtent3D size = { w->width, w->height, 1 };
    wgpuCommandEncoderCopyTextureToTexture(enc, &from, &to, &size);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuQueueSubmit(w->queue, 1, &cb);
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(enc);
    WGPUStatus ok = wgpuSurfacePresent(w->surface);
    wgpuTextureRelease(st.texture);
    return ok == WGPUStatus_Success;
}

void demo_window_close(demo_window_t *w)
{
    if (w) {
        if (w->surface) {
            wgpuSurfaceUnconfigure(w->surface);
            wgpuSurfaceRelease(w->surface);
        }
        if (w->queue) wgpuQueueRelease(w->queue);
        free(w);
    }
    eg_sim_close();
}
