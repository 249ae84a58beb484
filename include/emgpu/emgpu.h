/* emgpu extensions to webgpu.h: instance memory, memory statistics, embedded-only formats.
 *
 * Spelling follows webgpu-headers' Extensions.md: types `WGPUEmgpu*`, functions
 * `wgpu<Object>Emgpu<Verb>`, enum values `WGPU<Enum>_Emgpu<Value>`.
 *
 * ENUM BLOCK. Every emgpu enum value (sTypes, texture formats, ...) lies in the block
 * 0x7E57_0000 .. 0x7E57_FFFF, unused by the standard and by the registered implementation blocks.
 * The values are macros cast to the standard enum type (webgpu.h's enums cannot be extended in C),
 * so `desc.chain.sType = WGPUSType_EmgpuInstanceMemoryDescriptor;` compiles without warnings.
 *
 * INSTANCE MEMORY. By default an instance carves its pools, futures, command streams and
 * trackers out of one static block whose size the build computes from the config knobs (one
 * instance). Chain a WGPUEmgpuInstanceMemoryDescriptor to WGPUInstanceDescriptor to
 *   - give the instance your own block (block != NULL): it is carved instead of the static one;
 *     wgpuEmgpuGetInstanceMemorySize() says how many bytes it needs. Too small: wgpuCreateInstance
 *     returns NULL and logs the bytes needed.
 *   - change capacities (any field 0 = the knob's default). Without a block, the capacities must
 *     fit in the static block.
 *
 *     static uint8_t mem[48 * 1024] __attribute__((aligned(8)));
 *     WGPUEmgpuInstanceMemoryDescriptor md = WGPU_EMGPU_INSTANCE_MEMORY_DESCRIPTOR_INIT;
 *     md.block = mem; md.blockSize = sizeof mem;
 *     md.capacities.buffers = 8;
 *     WGPUInstanceDescriptor id = WGPU_INSTANCE_DESCRIPTOR_INIT;
 *     id.nextInChain = &md.chain;
 *     WGPUInstance inst = wgpuCreateInstance(&id);
 *
 * MEMORY STATISTICS. wgpuInstanceEmgpuGetMemoryStats() reports, per pool, its capacity, objects
 * in use and the high-water mark, plus the arenas: what `make size` cannot know at build time.
 */
#ifndef EMGPU_H_
#define EMGPU_H_

#include <webgpu/webgpu.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WGPU_EMGPU_ENUM_BLOCK 0x7E570000

/* ---- sTypes ---- */
#define WGPUSType_EmgpuInstanceMemoryDescriptor ((WGPUSType)0x7E570001)

/* ---- texture formats (their facts live in kernel/format) ---- */
/** 16-bit packed 5:6:5 color, red in the high bits (as in Vulkan's R5G6B5_UNORM_PACK16):
 *  the native framebuffer format of many embedded displays. Renderable and filterable where the
 *  backend supports it (always on soft). */
#define WGPUTextureFormat_EmgpuRGB565Unorm ((WGPUTextureFormat)0x7E570001)

/* Whether an adapter / device can create and render the format. Core WebGPU formats follow the
 * standard rules (their feature); an emgpu extension format such as EmgpuRGB565Unorm may be
 * missing from a driver (Direct3D 12 under wine's vkd3d 1.6 has no B5G6R5), and creating a
 * texture or a color target of it is then a validation error. Every soft, Vulkan and GLES
 * adapter has RGB565. */
WGPU_EXPORT WGPUBool wgpuAdapterEmgpuHasTextureFormat(WGPUAdapter adapter, WGPUTextureFormat format);
WGPU_EXPORT WGPUBool wgpuDeviceEmgpuHasTextureFormat(WGPUDevice device, WGPUTextureFormat format);

/* ---- instance memory ---- */

/** Capacities of one instance. 0 = the config knob's default (named per field). */
typedef struct WGPUEmgpuPoolCapacities {
    uint32_t adapters;          /* EMGPU_MAX_ADAPTERS */
    uint32_t devices;           /* EMGPU_MAX_DEVICES (also the queue pool: one queue per device) */
    uint32_t buffers;           /* EMGPU_MAX_BUFFERS */
    uint32_t textures;          /* EMGPU_MAX_TEXTURES */
    uint32_t textureViews;      /* EMGPU_MAX_TEXTURE_VIEWS */
    uint32_t samplers;          /* EMGPU_MAX_SAMPLERS */
    uint32_t bindGroupLayouts;  /* EMGPU_MAX_BIND_GROUP_LAYOUTS */
    uint32_t bindGroups;        /* EMGPU_MAX_BIND_GROUPS */
    uint32_t pipelineLayouts;   /* EMGPU_MAX_PIPELINE_LAYOUTS */
    uint32_t shaderModules;     /* EMGPU_MAX_SHADER_MODULES */
    uint32_t renderPipelines;   /* EMGPU_MAX_RENDER_PIPELINES */
    uint32_t computePipelines;  /* EMGPU_MAX_COMPUTE_PIPELINES */
    uint32_t commandBuffers;    /* EMGPU_MAX_COMMAND_BUFFERS (encoders + command buffers) */
    uint32_t passEncoders;      /* EMGPU_MAX_PASS_ENCODERS */
    uint32_t commandStreamBytes;/* EMGPU_COMMAND_STREAM_BYTES (per command buffer) */
    uint32_t surfaces;          /* EMGPU_MAX_SURFACES */
} WGPUEmgpuPoolCapacities;

typedef struct WGPUEmgpuInstanceMemoryDescriptor {
    WGPUChainedStruct chain;              /* sType = WGPUSType_EmgpuInstanceMemoryDescriptor */
    void *block;                          /* NULL: the static block; else 8-byte aligned */
    size_t blockSize;
    WGPUEmgpuPoolCapacities capacities;   /* zeros: knob defaults */
} WGPUEmgpuInstanceMemoryDescriptor;

#define WGPU_EMGPU_INSTANCE_MEMORY_DESCRIPTOR_INIT \
    { { NULL, WGPUSType_EmgpuInstanceMemoryDescriptor }, NULL, 0, { 0 } }

/** Bytes a caller-provided block needs for these capacities (NULL: all defaults). */
WGPU_EXPORT size_t wgpuEmgpuGetInstanceMemorySize(WGPUEmgpuPoolCapacities const *capacities);

/* ---- memory statistics ---- */

typedef struct WGPUEmgpuPoolStats {
    WGPUStringView name;        /* "buffer" */
    WGPUStringView knob;        /* "EMGPU_MAX_BUFFERS" */
    uint32_t capacity, used, highWater;
    uint32_t slotBytes;         /* bytes per object */
} WGPUEmgpuPoolStats;

typedef struct WGPUEmgpuArenaStats {
    WGPUStringView name;        /* "futures", "command stream (per command buffer)" */
    WGPUStringView knob;
    uint64_t capacity, used, highWater;   /* bytes (futures: entries) */
} WGPUEmgpuArenaStats;

#define WGPU_EMGPU_MAX_POOL_STATS 16
#define WGPU_EMGPU_MAX_ARENA_STATS 4

typedef struct WGPUEmgpuMemoryStats {
    size_t poolCount;
    WGPUEmgpuPoolStats pools[WGPU_EMGPU_MAX_POOL_STATS];
    size_t arenaCount;
    WGPUEmgpuArenaStats arenas[WGPU_EMGPU_MAX_ARENA_STATS];
    uint64_t blockBytes;        /* size of the instance's carved block */
    WGPUBool staticBlock;       /* the block is the build's static block */
} WGPUEmgpuMemoryStats;

/** Fills stats; WGPUStatus_Error for a NULL/stale instance or NULL stats. Strings are static. */
WGPU_EXPORT WGPUStatus wgpuInstanceEmgpuGetMemoryStats(WGPUInstance instance, WGPUEmgpuMemoryStats *stats);

/* ---- surfaces: memory panels (MCU LCDs) and Linux fbdev ----
 *
 * Chain one of these to WGPUSurfaceDescriptor and call wgpuInstanceCreateSurface. The panel's
 * native pixel layout decides what wgpuSurfaceGetCapabilities offers: formats[0] is the texture
 * format whose bytes equal the native layout when there is one (RGB565 -> EmgpuRGB565Unorm,
 * XRGB8888/ARGB8888 -> BGRA8Unorm, XBGR8888/ABGR8888 -> RGBA8Unorm): configure that one and, on
 * soft, GetCurrentTexture hands out a texture that IS the framebuffer (zero copy). Any other
 * offered format renders into a soft texture that Present converts in one pass.
 *
 *     static uint16_t fb[240][320];
 *     WGPUEmgpuSurfaceSourceMemoryPanel src = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
 *     src.width = 320; src.height = 240; src.format = WGPUEmgpuPanelFormat_RGB565;
 *     src.framebuffer = fb; src.bytesPerRow = sizeof fb[0];
 *     WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
 *     sd.nextInChain = &src.chain;
 *     WGPUSurface s = wgpuInstanceCreateSurface(instance, &sd);
 *
 * STRIP MODE (SPI / 8080 panels without a framebuffer in RAM): give stripBuffer (stripHeight
 * rows of width * bytes-per-pixel) and flush instead of framebuffer. On the soft backend the
 * frame has no full-size memory (banded rendering): the frame's render pass is binned, and when
 * it ends each strip is rasterized into stripBuffer (converted when the frame's format differs)
 * and handed to flush(flushUserdata, 0, y, width, rows, stripBuffer, rowBytes), top to bottom:
 * ceil(height / stripHeight) calls, during the wgpuQueueSubmit that ends the pass. Present closes
 * the frame. Limits (docs/displays.md, "Banded rendering"): one render pass per frame, Load
 * reads transparent black, RenderAttachment usage only.
 */
#define WGPUSType_EmgpuSurfaceSourceMemoryPanel ((WGPUSType)0x7E570002)
#define WGPUSType_EmgpuSurfaceSourceFbdev ((WGPUSType)0x7E570003)

/** Native pixel layout of a panel, as the bytes sit in memory (little-endian words). */
typedef enum WGPUEmgpuPanelFormat {
    WGPUEmgpuPanelFormat_Undefined = 0,
    WGPUEmgpuPanelFormat_RGB565 = 1,      /* u16 LE: R 15..11, G 10..5, B 4..0 */
    WGPUEmgpuPanelFormat_BGR565 = 2,      /* u16 LE: B 15..11, G 10..5, R 4..0 */
    WGPUEmgpuPanelFormat_RGB565BE = 3,    /* RGB565 with its two bytes swapped (most SPI panels) */
    WGPUEmgpuPanelFormat_XRGB8888 = 4,    /* u32 LE 0xXXRRGGBB: bytes B, G, R, X (X written 0xFF) */
    WGPUEmgpuPanelFormat_ARGB8888 = 5,    /* u32 LE 0xAARRGGBB: bytes B, G, R, A */
    WGPUEmgpuPanelFormat_XBGR8888 = 6,    /* bytes R, G, B, X (X written 0xFF) */
    WGPUEmgpuPanelFormat_ABGR8888 = 7,    /* bytes R, G, B, A */
    WGPUEmgpuPanelFormat_Force32 = 0x7FFFFFFF
} WGPUEmgpuPanelFormat;

/** Called by wgpuSurfacePresent with a finished rectangle of native pixels: row r of it starts
 *  at (const uint8_t *)pixels + r * stride_B. Strip mode: once per strip, in order; the strip
 *  buffer is reused after the call returns, so a DMA transfer must finish before returning (or
 *  copy). Framebuffer mode: once per Present with the whole configured area, if set. */
typedef void (*WGPUEmgpuPanelFlushCallback)(void *userdata, uint32_t x, uint32_t y, uint32_t w,
                                            uint32_t h, const void *pixels, uint32_t stride_B);

typedef struct WGPUEmgpuSurfaceSourceMemoryPanel {
    WGPUChainedStruct chain;          /* sType = WGPUSType_EmgpuSurfaceSourceMemoryPanel */
    uint32_t width, height;           /* panel size in pixels */
    WGPUEmgpuPanelFormat format;
    void *framebuffer;                /* framebuffer mode: height rows of bytesPerRow */
    uint32_t bytesPerRow;             /* 0 = width * bytes per pixel */
    void *stripBuffer;                /* strip mode: stripHeight rows of width * bytes per pixel */
    uint32_t stripHeight;             /* rows per strip, >= 1 */
    WGPUEmgpuPanelFlushCallback flush;/* required in strip mode, optional with a framebuffer */
    void *flushUserdata;
} WGPUEmgpuSurfaceSourceMemoryPanel;

#define WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT \
    { { NULL, WGPUSType_EmgpuSurfaceSourceMemoryPanel }, 0, 0, WGPUEmgpuPanelFormat_Undefined, \
      NULL, 0, NULL, 0, NULL, NULL }

/** Linux framebuffer device (hosted ports only; elsewhere CreateSurface fails and logs why).
 *  The mode (size, bits per pixel, channel offsets) is read from the device; 16 and 32 bpp
 *  layouts of WGPUEmgpuPanelFormat are accepted. When yres_virtual allows two screens, frames
 *  alternate between them and Present pans (FBIOPAN_DISPLAY), so the shown screen is never the
 *  one being drawn. */
typedef struct WGPUEmgpuSurfaceSourceFbdev {
    WGPUChainedStruct chain;          /* sType = WGPUSType_EmgpuSurfaceSourceFbdev */
    WGPUStringView path;              /* "/dev/fb0" */
} WGPUEmgpuSurfaceSourceFbdev;

#define WGPU_EMGPU_SURFACE_SOURCE_FBDEV_INIT \
    { { NULL, WGPUSType_EmgpuSurfaceSourceFbdev }, { NULL, WGPU_STRLEN } }

/* ---- surfaces: Linux DRM/KMS dumb buffers ----
 * (appended by "kms") A KMS output driven directly, without a display server: the connector's
 * mode is set on a CRTC and frames are rendered into two mapped dumb buffers that are scanned
 * out in turn. Present page-flips (DRM_IOCTL_MODE_PAGE_FLIP, waiting for the flip to complete,
 * so Present is Fifo) or, where the driver refuses flips, sets the CRTC to the new buffer. The
 * configured format equal to the buffer layout (BGRA8Unorm for XRGB8888, EmgpuRGB565Unorm for
 * RGB565) at the mode's width renders straight into the buffer (zero copy). The process must be
 * allowed to set modes (DRM master: no other compositor running). Close (surface release)
 * restores the CRTC as it was. Hosted Linux ports only; elsewhere CreateSurface fails and logs.
 */
#define WGPUSType_EmgpuSurfaceSourceDrm ((WGPUSType)0x7E570004)

typedef struct WGPUEmgpuSurfaceSourceDrm {
    WGPUChainedStruct chain;          /* sType = WGPUSType_EmgpuSurfaceSourceDrm */
    WGPUStringView path;              /* "/dev/dri/card0" */
    uint32_t connectorId;             /* 0: the first connected connector that has modes */
    uint32_t crtcId;                  /* 0: the connector's current CRTC, else the first usable */
    uint32_t width, height;           /* 0, 0: the preferred mode; else a mode of this size */
    WGPUEmgpuPanelFormat format;      /* Undefined = XRGB8888; XRGB8888 or RGB565 */
} WGPUEmgpuSurfaceSourceDrm;

#define WGPU_EMGPU_SURFACE_SOURCE_DRM_INIT \
    { { NULL, WGPUSType_EmgpuSurfaceSourceDrm }, { NULL, WGPU_STRLEN }, 0, 0, 0, 0, \
      WGPUEmgpuPanelFormat_Undefined }

/* ---- surfaces: partial updates (damage) ----
 * (appended by "damage") Tell the runtime which part of the current frame changes, so that
 * only that part is rendered and sent to the display. Call it after wgpuSurfaceGetCurrentTexture
 * and before submitting the frame's first render pass (the model of EGL_KHR_partial_update's
 * eglSetDamageRegionKHR: the damage must be known before rendering, which is what lets soft
 * skip the rest; a damage given only at present time, as in VK_KHR_incremental_present, could
 * only shorten the transfer). Without a call the whole frame is the damage (the default).
 *
 *   - rects: count rectangles in the configured size's pixels (x, y = top-left); the frame's
 *     damage is their bounding box. count 0 (rects ignored) = the whole frame again.
 *   - Pixels outside the damage keep what the display showed before: framebuffer panels, fbdev,
 *     DRM and X11 windows keep their memory (double-buffered fbdev/DRM render the union with the
 *     previous frame's damage, since the back buffer is two frames old); strip panels are never
 *     sent those rows or columns and keep their GRAM. The first frame after a Configure that
 *     changed the format or size is always whole.
 *   - Soft renders only the tiles (strip mode: the strips) that intersect the damage, and the
 *     flush callback receives the damage's rectangle (strip mode: per strip, the damage's
 *     columns of the strip's rows). GPU backends accept the call and present the whole frame.
 *   - Errors (validation error on the configured device, returns WGPUStatus_Error): no current
 *     texture, the frame was already submitted, rects NULL with count > 0, count above
 *     EMGPU_SURFACE_MAX_DAMAGE_RECTS, an empty rectangle or one outside the configured size.
 */
typedef struct WGPUEmgpuRect {
    uint32_t x, y, width, height;
} WGPUEmgpuRect;

WGPU_EXPORT WGPUStatus wgpuSurfaceEmgpuSetDamage(WGPUSurface surface, WGPUEmgpuRect const *rects,
                                                 size_t count);

#ifdef __cplusplus
}
#endif

#endif /* EMGPU_H_ */
