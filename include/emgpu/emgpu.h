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
 * INSTANCE MEMORY. By default an instance carves its pools, futures, command streams and device
 * heaps out of one static block whose size the build computes from the config knobs (one
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
    uint32_t deviceHeapBytes;   /* EMGPU_DEVICE_HEAP_BYTES (per device) */
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
    WGPUStringView name;        /* "command streams", "device heaps", "futures" */
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

#ifdef __cplusplus
}
#endif

#endif /* EMGPU_H_ */
