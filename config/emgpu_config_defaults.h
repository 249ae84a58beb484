/* Every emgpu build-time knob, documented once, with its default and its range.
 *
 * A board's emgpu_board.h sets what it needs before this file is included; anything it leaves
 * unset gets the default below. Knobs are grouped in banner sections as in LVGL's lv_conf:
 * backends, port, pools, arenas, validation, threads, SIMD, formats, debug. Each knob says what it
 * costs and what happens at its limit.
 */
#ifndef EMGPU_CONFIG_DEFAULTS_H
#define EMGPU_CONFIG_DEFAULTS_H

/*====================
 * BACKENDS (HALs)
 *====================*/

/** Software rasterizer (hal/soft): CPU only, runs everywhere. 1 = compiled in. */
#ifndef EMGPU_HAL_SOFT
#define EMGPU_HAL_SOFT 1
#endif
/** No-op backend (hal/noop): executes nothing; for tests and CPU-overhead benchmarks. */
#ifndef EMGPU_HAL_NOOP
#define EMGPU_HAL_NOOP 1
#endif
/** Vulkan backend (hal/vulkan, loaded with the port's dynamic loader). TODO(#5). */
#ifndef EMGPU_HAL_VULKAN
#define EMGPU_HAL_VULKAN 0
#endif
/** OpenGL ES 3.x backend over EGL (hal/gles). TODO(#6). */
#ifndef EMGPU_HAL_GLES
#define EMGPU_HAL_GLES 0
#endif
/** Direct3D 12 backend (hal/d3d12, Windows boards). TODO(#9). */
#ifndef EMGPU_HAL_D3D12
#define EMGPU_HAL_D3D12 0
#endif
/** Metal backend (hal/metal, Apple boards). Not yet scheduled. */
#ifndef EMGPU_HAL_METAL
#define EMGPU_HAL_METAL 0
#endif
#if !(EMGPU_HAL_SOFT || EMGPU_HAL_NOOP || EMGPU_HAL_VULKAN || EMGPU_HAL_GLES || EMGPU_HAL_D3D12 || EMGPU_HAL_METAL)
#error "emgpu: the board enables no backend; set at least one EMGPU_HAL_* to 1"
#endif

/*====================
 * PORT
 *====================*/

/** 1 when the port provides eg_port_getenv (hosted ports): enables EMGPU_BACKEND=soft|noop|...
 *  to override adapter selection at run time. Bare metal boards set 0. */
#ifndef EMGPU_PORT_HAS_ENV
#define EMGPU_PORT_HAS_ENV 1
#endif

/*====================
 * POOLS (live objects per instance)
 * Each slot costs sizeof(the object's Impl struct) of RAM; `make size` prints the figures.
 * Range 1..65535 (16-bit slot indices). A full pool makes the create call report an error that
 * names the knob, and returns NULL; releasing an object makes room again.
 *====================*/

/** Adapters handed out at once (each RequestAdapter returns a new one). */
#ifndef EMGPU_MAX_ADAPTERS
#define EMGPU_MAX_ADAPTERS 4
#endif
/** Devices alive at once. Each device also owns its queue, tracker and per-device arena. */
#ifndef EMGPU_MAX_DEVICES
#define EMGPU_MAX_DEVICES 2
#endif
#ifndef EMGPU_MAX_BUFFERS
#define EMGPU_MAX_BUFFERS 64
#endif
#ifndef EMGPU_MAX_TEXTURES
#define EMGPU_MAX_TEXTURES 32
#endif
#ifndef EMGPU_MAX_TEXTURE_VIEWS
#define EMGPU_MAX_TEXTURE_VIEWS 64
#endif
#ifndef EMGPU_MAX_SAMPLERS
#define EMGPU_MAX_SAMPLERS 16
#endif
#ifndef EMGPU_MAX_BIND_GROUP_LAYOUTS
#define EMGPU_MAX_BIND_GROUP_LAYOUTS 16
#endif
#ifndef EMGPU_MAX_BIND_GROUPS
#define EMGPU_MAX_BIND_GROUPS 32
#endif
#ifndef EMGPU_MAX_PIPELINE_LAYOUTS
#define EMGPU_MAX_PIPELINE_LAYOUTS 16
#endif
#ifndef EMGPU_MAX_SHADER_MODULES
#define EMGPU_MAX_SHADER_MODULES 16
#endif
#ifndef EMGPU_MAX_RENDER_PIPELINES
#define EMGPU_MAX_RENDER_PIPELINES 16
#endif
#ifndef EMGPU_MAX_COMPUTE_PIPELINES
#define EMGPU_MAX_COMPUTE_PIPELINES 8
#endif
/** Command encoders + command buffers alive at once (they share one pool: an encoder becomes
 *  its command buffer at Finish). Each one also owns a command stream of
 *  EMGPU_COMMAND_STREAM_BYTES. */
#ifndef EMGPU_MAX_COMMAND_BUFFERS
#define EMGPU_MAX_COMMAND_BUFFERS 8
#endif
/** Pass encoders alive at once (render + compute). One is open per command encoder at a time. */
#ifndef EMGPU_MAX_PASS_ENCODERS
#define EMGPU_MAX_PASS_ENCODERS 8
#endif

/*====================
 * POOLS / binding: inline bounds of binding-model and pipeline objects
 * These size arrays inside each bind group layout, bind group, pipeline layout, shader module and
 * pipeline slot, so their cost multiplies by the pool capacities above. An adapter may report
 * larger WebGPU limits than a bound; creation then fails with a validation error naming the knob.
 *====================*/

/** Entries per bind group layout (and so per bind group), and the largest binding number + 1
 *  accepted in a layout is still maxBindingsPerBindGroup. Cost: ~40 B per entry in every bind
 *  group layout slot and ~32 B in every bind group slot. Range 1..1000. */
#ifndef EMGPU_MAX_BINDINGS_PER_GROUP
#define EMGPU_MAX_BINDINGS_PER_GROUP 16
#endif
/** Bind group layouts per pipeline layout (WebGPU maxBindGroups default: 4). Range 1..32. */
#ifndef EMGPU_MAX_BIND_GROUPS_PER_LAYOUT
#define EMGPU_MAX_BIND_GROUPS_PER_LAYOUT 4
#endif
/** SPIR-V words kept per shader module (stored inline in the module's slot: 4 B per word per
 *  slot). A larger module is rejected with OutOfMemory naming this knob. Range 5.. */
#ifndef EMGPU_MAX_SPIRV_WORDS
#define EMGPU_MAX_SPIRV_WORDS 1024
#endif
/** Longest shader entry point name kept by a pipeline (bytes, without the NUL). */
#ifndef EMGPU_ENTRY_POINT_NAME_MAX
#define EMGPU_ENTRY_POINT_NAME_MAX 31
#endif
/** Vertex buffer layouts / vertex attributes / color targets stored per render pipeline
 *  (WebGPU defaults: maxVertexBuffers 8, maxVertexAttributes 16, maxColorAttachments 8). */
#ifndef EMGPU_MAX_VERTEX_BUFFERS
#define EMGPU_MAX_VERTEX_BUFFERS 8
#endif
#ifndef EMGPU_MAX_VERTEX_ATTRIBUTES
#define EMGPU_MAX_VERTEX_ATTRIBUTES 16
#endif
#ifndef EMGPU_MAX_COLOR_ATTACHMENTS
#define EMGPU_MAX_COLOR_ATTACHMENTS 8
#endif
_Static_assert(EMGPU_MAX_BINDINGS_PER_GROUP >= 1 && EMGPU_MAX_BINDINGS_PER_GROUP <= 1000,
               "EMGPU_MAX_BINDINGS_PER_GROUP: 1..1000");
_Static_assert(EMGPU_MAX_BIND_GROUPS_PER_LAYOUT >= 1 && EMGPU_MAX_BIND_GROUPS_PER_LAYOUT <= 32,
               "EMGPU_MAX_BIND_GROUPS_PER_LAYOUT: 1..32");
_Static_assert(EMGPU_MAX_SPIRV_WORDS >= 5, "EMGPU_MAX_SPIRV_WORDS: at least the 5-word header");
_Static_assert(EMGPU_MAX_COLOR_ATTACHMENTS >= 1 && EMGPU_MAX_COLOR_ATTACHMENTS <= 32,
               "EMGPU_MAX_COLOR_ATTACHMENTS: 1..32");

/*====================
 * ARENAS (variable-size data)
 *====================*/

/** Bytes of recorded commands per command encoder. A full stream makes the encoder invalid and
 *  Finish reports OutOfMemory naming this knob. Typical: 32 B per draw with its state changes. */
#ifndef EMGPU_COMMAND_STREAM_BYTES
#define EMGPU_COMMAND_STREAM_BYTES 16384
#endif
/** Per-device heap for long-lived variable data: bind group entries, layouts, shader code
 *  (managed with kernel/base/range_alloc, so freed objects give their bytes back).
 *  Exhaustion reports OutOfMemory naming this knob. */
#ifndef EMGPU_DEVICE_HEAP_BYTES
#define EMGPU_DEVICE_HEAP_BYTES 65536
#endif
/** Scratch bytes hal/noop hands out as the memory of a mapped buffer (one block, reused by
 *  every map; contents are not preserved on noop). Maps larger than this fail as OutOfMemory. */
#ifndef EMGPU_NOOP_SCRATCH_BYTES
#define EMGPU_NOOP_SCRATCH_BYTES 65536
#endif
/** Bytes of front-end memory per shader module (kept inline in each module slot): the SPIR-V
 *  parser's per-id table (8 B per id of the module's bound) plus the reflection (about 64 B per
 *  entry point, 24 B per resource, 8 B per stage input/output). A module that does not fit is
 *  rejected with a validation error naming this knob. Range 256.. (a multiple of 4). */
#ifndef EMGPU_SHADER_ARENA_BYTES
#define EMGPU_SHADER_ARENA_BYTES 4096
#endif
_Static_assert(EMGPU_SHADER_ARENA_BYTES >= 256 && EMGPU_SHADER_ARENA_BYTES % 4 == 0,
               "EMGPU_SHADER_ARENA_BYTES: at least 256, a multiple of 4");
/** Longest label kept per object (longer labels are truncated in messages). */
#ifndef EMGPU_LABEL_MAX
#define EMGPU_LABEL_MAX 32
#endif

/*====================
 * VALIDATION AND ERRORS
 *====================*/

/** Depth of the error-scope stack per device (PushErrorScope beyond it is an error). */
#ifndef EMGPU_MAX_ERROR_SCOPES
#define EMGPU_MAX_ERROR_SCOPES 8
#endif
/** Longest error message kept (bytes, including the NUL). Longer messages are truncated. */
#ifndef EMGPU_ERROR_MESSAGE_MAX
#define EMGPU_ERROR_MESSAGE_MAX 256
#endif
/** Longest log line (bytes). */
#ifndef EMGPU_LOG_LINE_MAX
#define EMGPU_LOG_LINE_MAX 320
#endif
/** Futures pending at once per instance (MapAsync, OnSubmittedWorkDone, RequestAdapter, ...).
 *  When full, the call's callback fires at once with an error status naming this knob. */
#ifndef EMGPU_MAX_PENDING_FUTURES
#define EMGPU_MAX_PENDING_FUTURES 32
#endif
/** Submissions in flight before Submit waits for the oldest (backends with real queues). */
#ifndef EMGPU_MAX_SUBMISSIONS_IN_FLIGHT
#define EMGPU_MAX_SUBMISSIONS_IN_FLIGHT 4
#endif

/*====================
 * SOFTWARE BACKEND
 *====================*/
#if EMGPU_HAL_SOFT
/** Bytes of resource memory for hal/soft (buffer and texture contents), managed by a bounded
 *  first-fit allocator. Exhaustion reports OutOfMemory naming this knob. */
#ifndef EMGPU_SOFT_HEAP_BYTES
#define EMGPU_SOFT_HEAP_BYTES (1024 * 1024)
#endif
/** Free-block records of the soft heap allocator (its metadata, no per-block headers). */
#ifndef EMGPU_SOFT_HEAP_BLOCKS
#define EMGPU_SOFT_HEAP_BLOCKS 256
#endif
#endif /* EMGPU_HAL_SOFT */

/*====================
 * MEMORY BUDGET AND DEBUG
 *====================*/

/** The board's budget for emgpu's static RAM (pools, arenas, trackers, heaps) in bytes; the build
 *  fails (_Static_assert in kernel/api/instance_memory.c) when the configuration exceeds it.
 *  0 = no budget. */
#ifndef EMGPU_STATIC_RAM_BUDGET_BYTES
#define EMGPU_STATIC_RAM_BUDGET_BYTES 0
#endif
/** 1: internal assertions (EG_DEBUG_ASSERT) are checked. */
#ifndef EMGPU_DEBUG
#define EMGPU_DEBUG 0
#endif

_Static_assert(EMGPU_MAX_BUFFERS >= 1 && EMGPU_MAX_BUFFERS <= 65535, "EMGPU_MAX_BUFFERS: 1..65535");
_Static_assert(EMGPU_MAX_TEXTURES >= 1 && EMGPU_MAX_TEXTURES <= 65535, "EMGPU_MAX_TEXTURES: 1..65535");
_Static_assert(EMGPU_MAX_ERROR_SCOPES >= 1, "EMGPU_MAX_ERROR_SCOPES: at least 1");
_Static_assert(EMGPU_ERROR_MESSAGE_MAX >= 64, "EMGPU_ERROR_MESSAGE_MAX: at least 64");
_Static_assert(EMGPU_COMMAND_STREAM_BYTES >= 256, "EMGPU_COMMAND_STREAM_BYTES: at least 256");

#endif /* EMGPU_CONFIG_DEFAULTS_H */
