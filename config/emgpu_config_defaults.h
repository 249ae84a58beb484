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

/* Desktop simulator (examples/sim, hosted boards with X11; helper x11): the board's panel shown
 * in an X11 window, so firmware UI code that presents to a WGPUEmgpuSurfaceSourceMemoryPanel runs
 * unchanged on the desktop. These are the defaults of eg_sim_config_default(); the simulator's
 * static panel memory is sized by EMGPU_SIM_PANEL_W x EMGPU_SIM_PANEL_H x 4 bytes (a run-time
 * configuration may be smaller, never larger). Bare-metal boards never compile the simulator. */
/** Panel width and height in pixels (the demo's dashboard is 800x480). */
#ifndef EMGPU_SIM_PANEL_W
#define EMGPU_SIM_PANEL_W 800
#endif
#ifndef EMGPU_SIM_PANEL_H
#define EMGPU_SIM_PANEL_H 480
#endif
/** Panel layout, a WGPUEmgpuPanelFormat value: 1 RGB565, 2 BGR565, 3 RGB565BE, 4 XRGB8888,
 *  5 ARGB8888, 6 XBGR8888, 7 ABGR8888. 16-bit formats show the panel's real quantisation. */
#ifndef EMGPU_SIM_PANEL_FORMAT
#define EMGPU_SIM_PANEL_FORMAT 4
#endif
/** Strip height in rows (strip mode with a flush per strip, as an MCU panel driver); 0 =
 *  framebuffer mode (one flush per frame). */
#ifndef EMGPU_SIM_STRIP_ROWS
#define EMGPU_SIM_STRIP_ROWS 0
#endif
/** Window pixels per panel pixel, 1..4 (each panel pixel becomes a ZOOM x ZOOM block). */
#ifndef EMGPU_SIM_ZOOM
#define EMGPU_SIM_ZOOM 1
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
/** Surfaces alive at once (wgpuInstanceCreateSurface: panels, fbdev). Cost: one
 *  struct WGPUSurfaceImpl of RAM per slot (272 bytes on x86-64). Range 1..65535. */
#ifndef EMGPU_MAX_SURFACES
#define EMGPU_MAX_SURFACES 2
#endif
/** (damage) Rectangles one wgpuSurfaceEmgpuSetDamage call accepts (their bounding box is the
 *  frame's damage). Costs nothing at run time; it bounds the validation loop. */
#ifndef EMGPU_SURFACE_MAX_DAMAGE_RECTS
#define EMGPU_SURFACE_MAX_DAMAGE_RECTS 16
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
/** Pipeline-overridable constants (WGPUConstantEntry, mapped to SPIR-V SpecIds) kept per
 *  programmable stage of a pipeline (added by issue #3, helper iface). */
#ifndef EMGPU_MAX_PIPELINE_CONSTANTS
#define EMGPU_MAX_PIPELINE_CONSTANTS 8
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
/** Scratch bytes hal/noop hands out as the memory of a mapped buffer (one block, reused by
 *  every map; contents are not preserved on noop). Maps larger than this fail as OutOfMemory. */
#ifndef EMGPU_NOOP_SCRATCH_BYTES
#define EMGPU_NOOP_SCRATCH_BYTES 65536
#endif
/** Bytes of front-end memory per shader module (kept inline in each module slot): the SPIR-V
 *  parser's per-id table (8 B per id of the module's bound) plus the reflection (about 100 B per
 *  entry point, 48 B per resource per entry point that uses it plus 60 B per resource of the
 *  module, 8 B per stage input/output and per sampling pair, 16 B per specialization constant,
 *  4 B per function). A module that does not fit is
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
/** Post-transform vertices per rasterizer batch (hal/soft/soft_draw.c): a static store of this
 *  many vertices x ~310 bytes (the vertex, its slot tables and hash). Bigger draws are split
 *  into batches; vertices shared across a batch boundary are shaded again. Multiple of 16,
 *  16..4096. Hosted boards (those with an environment) take 256: a batch then spans several
 *  rows of a grid mesh, so most vertices are shaded once (bench row 8: 0.6x the vertex
 *  shading); MCUs keep 64 (~20 KiB). */
#ifndef EMGPU_SOFT_VERTEX_BATCH
#if EMGPU_PORT_HAS_ENV
#define EMGPU_SOFT_VERTEX_BATCH 256
#else
#define EMGPU_SOFT_VERTEX_BATCH 64
#endif
#endif
/** Primitives per rasterizer batch (6 bytes each): EMGPU_SOFT_VERTEX_BATCH on MCUs; twice that
 *  on hosted boards, since an indexed mesh has about two triangles per vertex and a batch that
 *  runs out of primitive slots first leaves its vertex store half used. 16..8192. */
#ifndef EMGPU_SOFT_PRIM_BATCH
#if EMGPU_PORT_HAS_ENV
#define EMGPU_SOFT_PRIM_BATCH (2 * EMGPU_SOFT_VERTEX_BATCH)
#else
#define EMGPU_SOFT_PRIM_BATCH EMGPU_SOFT_VERTEX_BATCH
#endif
#endif
/** Static scratch of the soft shader compiler (bytes): holds one entry point's IR and the
 *  compiler's tables while a pipeline is created (the program then moves to the soft heap).
 *  Too small: pipeline creation fails with OutOfMemory naming this knob. */
#ifndef EMGPU_SOFT_COMPILE_SCRATCH_BYTES
#define EMGPU_SOFT_COMPILE_SCRATCH_BYTES (96 * 1024)
#endif
/** Lane registers (64 bytes each, on the stack of the thread that shades) a vertex or fragment
 *  program may use after register allocation; 192 = 12 KiB of stack. Compute programs keep
 *  their registers in the soft heap instead. */
#ifndef EMGPU_SOFT_VM_MAX_REGS
#define EMGPU_SOFT_VM_MAX_REGS 192
#endif
/** Basic blocks (after inlining) of a vertex or fragment program: one pending lane mask each,
 *  on the stack while the program runs. */
#ifndef EMGPU_SOFT_VM_MAX_BLOCKS
#define EMGPU_SOFT_VM_MAX_BLOCKS 256
#endif
/** Workgroup memory of a compute dispatch (bytes, static); at least the device's
 *  maxComputeWorkgroupStorageSize that hal/soft reports. */
#ifndef EMGPU_SOFT_WORKGROUP_MEM_BYTES
#define EMGPU_SOFT_WORKGROUP_MEM_BYTES (16 * 1024)
#endif
/** 1: the shader VM's lane loops use GCC/Clang vector extensions; 0: plain scalar loops (same
 *  results, bit for bit). */
#ifndef EMGPU_SOFT_SIMD
#define EMGPU_SOFT_SIMD 1
#endif
/** 1: the span fast path fills rows with fused kernels (hal/soft/soft_span_fused.c: interpolate,
 *  shade, blend and store 4 or 8 pixels in registers, specialised per target format and blend);
 *  0: the chunk loop only. The same bytes either way. Costs about 93 KB of code on a Cortex-M7
 *  (no vector registers: the generic variants only), about 3x fewer instructions per span pixel
 *  on hosts. Needs EMGPU_SOFT_SIMD. */
#ifndef EMGPU_SOFT_SPAN_FUSED
#define EMGPU_SOFT_SPAN_FUSED 1
#endif
/** Glyph quads' separable texel tables (hal/soft/soft_span_glyph.inc FZ_(sep_prep), ~1.5 k
 *  instructions a quad) remembered per worker thread, keyed on the quad's inputs relative to its
 *  4x4 block: entries per thread (2-way sets: rounded up to even); 0 = off. The same bytes either
 *  way. Static memory: ~0.9 KiB an entry per fused vector width (2 on AVX2 hosts) for each of
 *  EMGPU_SOFT_MAX_THREADS workers (hosts: ~3.6 MiB of .bss; only the pages of the workers and
 *  the width that run are ever touched: ~0.45 MiB a running worker). Hosted boards: 512. The UI
 *  bench has 47 keys unbinned (its label glyphs at 4 phases); binned, a quarter of its glyphs
 *  are cut by a 64 px tile row's border and each cut shape is two keys more: 128 entries missed
 *  ~830 times a frame there, 512 ~180 (that frame, 1 thread binned: 16.3 M instructions at 128,
 *  15.3 M at 256, 14.7 M at 512; unbinned the size changes nothing).
 *  MCUs: 0 (no vector registers: no glyph pair kernel to use it). */
#ifndef EMGPU_SOFT_SEP_MEMO
#if EMGPU_PORT_HAS_ENV
#define EMGPU_SOFT_SEP_MEMO 512
#else
#define EMGPU_SOFT_SEP_MEMO 0
#endif
#endif
/** Glyph quads' whole set-up (both triangles' edges, hal/soft/soft_span.c quad_fill, ~1.5 k
 *  instructions a quad before the kernel) remembered per worker thread, keyed on the quad's raw
 *  inputs relative to its 4x4 block (soft_span.c QUAD MEMO): entries per thread (4-way sets:
 *  rounded up to a multiple of 4); 0 = off. The same bytes either way. Static memory: ~0.85 KiB
 *  an entry for each of EMGPU_SOFT_MAX_THREADS workers (hosts, 512 entries: ~440 KiB a thread,
 *  ~1.7 MiB of .bss for 4; pages of idle workers are never touched). Hosted boards: 512 (the UI
 *  bench: 87 keys on row 2; 256 entries took ~500 more misses there, +1.0 M instructions, 128
 *  in 2-way sets ~1.9 k, +3.1 M); MCUs: 0 (no glyph pair kernel to use it). */
#ifndef EMGPU_SOFT_QUAD_MEMO
#if EMGPU_PORT_HAS_ENV
#define EMGPU_SOFT_QUAD_MEMO 512
#else
#define EMGPU_SOFT_QUAD_MEMO 0
#endif
#endif
/** Rect pairs' pixel-set proofs and probes (hal/soft/soft_raster_const.c pm_*, ~1.85 k
 *  instructions a proof, ~10 a rounded rectangle) remembered per worker thread, keyed on
 *  everything the proof reads relative to the set (colour channels no op writes are read from the
 *  current triangle, so shapes of other colours share entries): entries per thread (2-way sets: a
 *  power of two, at least 2); 0 = off. The same bytes either way. Static memory: ~0.2 KiB an
 *  entry for each of EMGPU_SOFT_MAX_THREADS workers (hosts, 64 entries: ~14 KiB a thread). Hosted
 *  boards: 64 (the UI bench: 77 of 2,500 proofs run); MCUs: 0 (follows EMGPU_SOFT_SEP_MEMO). */
#ifndef EMGPU_SOFT_PROOF_MEMO
#define EMGPU_SOFT_PROOF_MEMO (EMGPU_SOFT_SEP_MEMO ? 64 : 0)
#endif
/** Rounded rects' corner blocks (hal/soft/soft_raster_shade.c cm_*: the program blocks of
 *  soft_raster.c region_blocks, ~870 instructions each, ~32 a rounded rectangle) remembered per
 *  worker thread: the output channels the program computes, keyed on exactly what they read
 *  relative to the block (pass-through channels are read from the current triangle, so shapes of
 *  other colours share entries): entries per thread (2-way sets: a power of two, at least 2);
 *  0 = off. The same bytes either way. Static memory: ~0.3 KiB an entry for each of
 *  EMGPU_SOFT_MAX_THREADS workers. Hosted boards: 256; MCUs: 0 (no vector program blocks;
 *  follows EMGPU_SOFT_SEP_MEMO). */
#ifndef EMGPU_SOFT_CORNER_MEMO
#define EMGPU_SOFT_CORNER_MEMO (EMGPU_SOFT_SEP_MEMO ? 256 : 0)
#endif
/** Tile size of the soft rasterizer's binning (pixels, square, multiple of 4): a render pass's
 *  triangles are binned per tile and each tile is rasterized by one worker. Smaller tiles suit
 *  small targets and banded panels; bigger ones cost fewer bin references per triangle. */
#ifndef EMGPU_SOFT_TILE_PX
#define EMGPU_SOFT_TILE_PX 64
#endif
/** Tile width of the soft rasterizer's binning (pixels, a multiple of 4 and at least
 *  EMGPU_SOFT_TILE_PX; 0: the whole target, i.e. tile rows EMGPU_SOFT_TILE_PX tall). A triangle
 *  crossing a job border is set up and walked once per job, and a pixel row cut by a border is
 *  started twice, so with squares a job takes a run of neighbouring squares of its tile row,
 *  as many as leave each worker 4 jobs (soft_bin.c eg_soft_bin_job_width_px): 2 threads on
 *  800x480 run whole rows (the instructions of 0), more threads narrower runs. Hosted boards:
 *  64x64 squares (EMGPU_SOFT_TILE_PX); MCUs: 0 (one worker, binned only for banded panels). */
#ifndef EMGPU_SOFT_TILE_W_PX
#if EMGPU_PORT_HAS_ENV
#define EMGPU_SOFT_TILE_W_PX EMGPU_SOFT_TILE_PX
#else
#define EMGPU_SOFT_TILE_W_PX 0
#endif
#endif
/** 1: a binned render pass's clears (loadOp clear, colour and depth/stencil) are filled per
 *  tile by the worker that rasterizes it, just before its triangles (cache-warm, in parallel);
 *  0: filled at pass begin by the submitting thread. The same bytes either way. Passes that are
 *  not binned (one worker) fill their clears just before their first triangle, and skip a colour
 *  clear that the first triangle pair overwrites whole (hal/soft/soft_bin.c, dead clears);
 *  banded passes and partial updates clear at pass begin. */
#ifndef EMGPU_SOFT_TILE_CLEARS
#define EMGPU_SOFT_TILE_CLEARS 1
#endif
/** Static bin arena of the soft rasterizer (bytes): per-pass triangle records, state snapshots
 *  and tile bins (hal/soft/soft_bin.h). When a pass's geometry does not fit, the bins are
 *  rasterized and binning continues (never a failure); a banded surface pass that does not
 *  fit is re-run per strip. At least 1 KiB. */
#ifndef EMGPU_SOFT_BIN_ARENA_BYTES
#define EMGPU_SOFT_BIN_ARENA_BYTES (512 * 1024)
#endif
/** Worker threads of the soft rasterizer (the submitting thread included) when the port has
 *  threads; 1 = single-threaded. Hosted boards: the environment variable EMGPU_SOFT_THREADS
 *  overrides it at run time (up to EMGPU_SOFT_MAX_THREADS). */
#ifndef EMGPU_SOFT_THREADS
#define EMGPU_SOFT_THREADS 1
#endif
/** How the soft rasterizer runs a pass when it has more than one worker (hal/soft/soft_bin.h,
 *  SCHEDULE): 0 auto, each kind of pass timed binned (tiles over the workers) and unbinned (the
 *  submitting thread alone), the faster kept (binned: 5 % faster) and the other re-tried after 16
 *  passes, then 32, ... up to 1024; 1 always binned; 2 always unbinned. The same bytes every way. Hosted boards: the environment variable
 *  EMGPU_SOFT_SCHEDULE=auto|binned|unbinned overrides it at run time. */
#ifndef EMGPU_SOFT_SCHEDULE
#define EMGPU_SOFT_SCHEDULE 0
#endif
/** Microseconds a soft worker thread about to block watches for its next batch (and the
 *  submitting thread for the end of the one it joins) before it sleeps on the condition variable
 *  (hal/soft/soft_worker.c, SPIN): a wake through the kernel took ~30 us on a 2-core VM, and a
 *  binned frame has one per batch. 0: never spin (battery-powered boards that prefer the
 *  latency to the busy core). Only boards with threads use it. */
#ifndef EMGPU_SOFT_WORKER_SPIN_US
#define EMGPU_SOFT_WORKER_SPIN_US 50
#endif
/** Workers with static state (~9 KiB each: shader I/O, scratch vertices): the most
 *  EMGPU_SOFT_THREADS or a run-time override can use. 1 on boards without threads. */
#ifndef EMGPU_SOFT_MAX_THREADS
#define EMGPU_SOFT_MAX_THREADS (EMGPU_SOFT_THREADS > 4 ? EMGPU_SOFT_THREADS : 4)
#endif
/** 1: at pipeline creation the shader VM translates its straight runs of hot lane operations
 *  into native x86-64 AVX2 code (hal/soft/soft_jit.c), when the CPU has AVX2 and the port has
 *  executable memory; 0: the threaded interpreter runs them. The same bytes either way.
 *  Default 1 on x86-64 (hosted boards), 0 elsewhere (nothing to translate to). */
#ifndef EMGPU_SOFT_JIT
#if defined(__x86_64__) || defined(_M_X64)
#define EMGPU_SOFT_JIT 1
#else
#define EMGPU_SOFT_JIT 0
#endif
#endif
/** Executable code arena of the soft shader JIT (bytes, a multiple of 4096, mapped through the
 *  port on first use): every live pipeline's native code, 4 KiB pages per shader. When it is
 *  full, a new pipeline's shader runs threaded (logged once), never a failure. */
#ifndef EMGPU_SOFT_JIT_ARENA_B
#define EMGPU_SOFT_JIT_ARENA_B (1024 * 1024)
#endif
#endif /* EMGPU_HAL_SOFT */

/*====================
 * GLES BACKEND (hal/gles, issue #6)
 *====================*/
#if EMGPU_HAL_GLES
/** Linked GL programs kept per process (hal/gles), keyed by shader module + entry point +
 *  pipeline layout. Each entry costs ~450 bytes of RAM plus the driver's program. Pipelines that
 *  share shaders and layout share one entry; unused entries are evicted oldest first. When every
 *  entry is in use by a live pipeline, pipeline creation fails with OutOfMemory naming this knob.
 *  The default holds one program per pipeline slot, so it can only run out when set lower. */
#ifndef EMGPU_GLES_PROGRAM_CACHE
#define EMGPU_GLES_PROGRAM_CACHE (EMGPU_MAX_RENDER_PIPELINES + EMGPU_MAX_COMPUTE_PIPELINES)
#endif
/** Framebuffer objects kept per process (hal/gles), keyed by the render pass attachments
 *  (views + depth slices). Full: the least recently used framebuffer is deleted and rebuilt when
 *  needed again (a cost, never an error). */
#ifndef EMGPU_GLES_FBO_CACHE
#define EMGPU_GLES_FBO_CACHE 16
#endif
/** Static scratch of hal/gles (bytes): zero-fills new buffers and textures (GL leaves them
 *  undefined, WebGPU requires zeros) and swaps B/R of BGRA texels on upload. Larger data is
 *  processed in chunks of this size; at least one row of the widest texture: 16 * 8192 B. */
#ifndef EMGPU_GLES_SCRATCH_BYTES
#define EMGPU_GLES_SCRATCH_BYTES (128 * 1024)
#endif
/** Longest GLSL ES source that hal/gles hands to the driver (bytes, one static buffer): what
 *  SPIRV-Cross emits for one stage, after hal/gles removes the lines GLSL ES cannot take.
 *  Longer shaders fail pipeline creation with a log line naming this knob. */
#ifndef EMGPU_GLES_SHADER_SOURCE_BYTES
#define EMGPU_GLES_SHADER_SOURCE_BYTES (64 * 1024)
#endif
#endif /* EMGPU_HAL_GLES */

/*====================
 * VULKAN BACKEND (hal/vulkan)
 *====================*/
#if EMGPU_HAL_VULKAN
/** Bytes of one VkDeviceMemory block. Buffers and textures are placed inside blocks (never one
 *  driver allocation each); a buffer can never be larger than one block (maxBufferSize is capped
 *  to it). */
#ifndef EMGPU_VK_MEMORY_BLOCK_BYTES
#define EMGPU_VK_MEMORY_BLOCK_BYTES (32u * 1024u * 1024u)
#endif
/** Blocks per memory kind (device-local, host-visible upload, host-visible readback), opened on
 *  first need and kept until the device goes. 1..32. Full = OutOfMemory naming this knob. */
#ifndef EMGPU_VK_MEMORY_BLOCKS
#define EMGPU_VK_MEMORY_BLOCKS 8
#endif
/** Blocks of each memory kind allocated when the device opens (0..EMGPU_VK_MEMORY_BLOCKS); the
 *  rest are allocated on first need. Equal to EMGPU_VK_MEMORY_BLOCKS: no driver memory
 *  allocation after device creation. A device whose driver refuses the reservation fails to open. */
#ifndef EMGPU_VK_MEMORY_RESERVED_BLOCKS
#define EMGPU_VK_MEMORY_RESERVED_BLOCKS 1
#endif
/** Allocator records per memory block (bounded metadata: 16 B each; about half as many live
 *  allocations per block are guaranteed). */
#ifndef EMGPU_VK_MEMORY_RECORDS_PER_BLOCK
#define EMGPU_VK_MEMORY_RECORDS_PER_BLOCK 256
#endif
/** Bytes of one staging chunk (host-visible memory for WriteBuffer/WriteTexture and maps of
 *  buffers the GPU cannot map). Writes larger than a chunk are split. */
#ifndef EMGPU_VK_STAGING_CHUNK_BYTES
#define EMGPU_VK_STAGING_CHUNK_BYTES (1024u * 1024u)
#endif
/** Staging chunks in the belt (recycled once the submission that used them completes). */
#ifndef EMGPU_VK_STAGING_CHUNKS
#define EMGPU_VK_STAGING_CHUNKS 4
#endif
/** Command buffers in the submission ring (each with its fence); a Submit waits for the oldest
 *  when all are in flight. */
#ifndef EMGPU_VK_COMMAND_RING
#define EMGPU_VK_COMMAND_RING 4
#endif
/** Descriptor pool: sets, and descriptors of each type, per device (bind groups). */
#ifndef EMGPU_VK_DESCRIPTOR_SETS
#define EMGPU_VK_DESCRIPTOR_SETS 256
#endif
#ifndef EMGPU_VK_DESCRIPTORS_PER_TYPE
#define EMGPU_VK_DESCRIPTORS_PER_TYPE 512
#endif
/** Render pass and framebuffer caches (entries per device). */
#ifndef EMGPU_VK_RENDER_PASS_CACHE
#define EMGPU_VK_RENDER_PASS_CACHE 32
#endif
#ifndef EMGPU_VK_FRAMEBUFFER_CACHE
#define EMGPU_VK_FRAMEBUFFER_CACHE 32
#endif
/** 1: enable VK_LAYER_KHRONOS_validation and a debug-utils messenger (also env
 *  EMGPU_VK_VALIDATION=1 on hosted ports). Messages are logged and counted. */
#ifndef EMGPU_VK_VALIDATION
#define EMGPU_VK_VALIDATION 0
#endif
/** Bytes of a fixed arena that receives the driver's host allocations (VkAllocationCallbacks);
 *  0 = the driver uses its own allocator. */
#ifndef EMGPU_VK_HOST_ALLOC_ARENA
#define EMGPU_VK_HOST_ALLOC_ARENA 0
#endif
/** 1: every fallible Vulkan call goes through a wrapper that tests can make fail
 *  (hal/vulkan/vk_fault.h); costs one branch per such call. Set 0 for production boards. */
#ifndef EMGPU_VK_FAULT_INJECTION
#define EMGPU_VK_FAULT_INJECTION 1
#endif
#endif /* EMGPU_HAL_VULKAN */

/*====================
 * D3D12 BACKEND (hal/d3d12, board windows-x64; appended by helper d3d12)
 *====================*/
#if EMGPU_HAL_D3D12
/** Bytes of one ID3D12Heap. Buffers and textures are placed resources inside heaps; a buffer can
 *  never be larger than one heap (maxBufferSize is capped to it). */
#ifndef EMGPU_D3D12_HEAP_BLOCK_BYTES
#define EMGPU_D3D12_HEAP_BLOCK_BYTES (16u * 1024u * 1024u)
#endif
/** Heaps per kind (buffers, upload, readback, textures, render targets), created on first need
 *  and kept until the device goes. 1..32. Full = OutOfMemory naming this knob. */
#ifndef EMGPU_D3D12_HEAP_BLOCKS
#define EMGPU_D3D12_HEAP_BLOCKS 8
#endif
/** Allocator records per heap (bounded metadata, 16 B each). */
#ifndef EMGPU_D3D12_HEAP_RECORDS_PER_BLOCK
#define EMGPU_D3D12_HEAP_RECORDS_PER_BLOCK 256
#endif
/** Staging belt: chunk bytes and chunk count (upload heap; recycled by fence value). */
#ifndef EMGPU_D3D12_STAGING_CHUNK_BYTES
#define EMGPU_D3D12_STAGING_CHUNK_BYTES (1024u * 1024u)
#endif
#ifndef EMGPU_D3D12_STAGING_CHUNKS
#define EMGPU_D3D12_STAGING_CHUNKS 4
#endif
/** Command allocators in the submission ring; a Submit waits for the oldest when all are busy. */
#ifndef EMGPU_D3D12_COMMAND_RING
#define EMGPU_D3D12_COMMAND_RING 4
#endif
/** CPU descriptor heaps: CBV/SRV/UAV views (also the size of every free list), samplers,
 *  render-target and depth-stencil views. */
#ifndef EMGPU_D3D12_VIEW_DESCRIPTORS
#define EMGPU_D3D12_VIEW_DESCRIPTORS 1024
#endif
#ifndef EMGPU_D3D12_SAMPLER_DESCRIPTORS
#define EMGPU_D3D12_SAMPLER_DESCRIPTORS 256
#endif
#ifndef EMGPU_D3D12_RTV_DESCRIPTORS
#define EMGPU_D3D12_RTV_DESCRIPTORS 256
#endif
#ifndef EMGPU_D3D12_DSV_DESCRIPTORS
#define EMGPU_D3D12_DSV_DESCRIPTORS 64
#endif
/** Shader-visible heaps that hold bind groups (descriptor tables): CBV/SRV/UAV descriptors and
 *  samplers (D3D12 allows at most 2048 shader-visible samplers), and the allocator records that
 *  bound how many bind groups can live at once. */
#ifndef EMGPU_D3D12_GPU_VIEW_DESCRIPTORS
#define EMGPU_D3D12_GPU_VIEW_DESCRIPTORS 4096
#endif
#ifndef EMGPU_D3D12_GPU_SAMPLER_DESCRIPTORS
#define EMGPU_D3D12_GPU_SAMPLER_DESCRIPTORS 1024
#endif
#ifndef EMGPU_D3D12_BIND_GROUP_RECORDS
#define EMGPU_D3D12_BIND_GROUP_RECORDS 512
#endif
/** 1: enable the D3D12 debug layer and read its info queue (also env EMGPU_D3D12_VALIDATION=1
 *  on hosted ports). Messages are logged and counted. */
#ifndef EMGPU_D3D12_VALIDATION
#define EMGPU_D3D12_VALIDATION 0
#endif
/** 1: every fallible D3D12 call can be made to fail by tests (hal/d3d12/d3d_fault.h). */
#ifndef EMGPU_D3D12_FAULT_INJECTION
#define EMGPU_D3D12_FAULT_INJECTION 1
#endif
/** Bytes of the static scratch arena a pipeline stage is lowered in (its IR, then its DXBC
 *  container from hal/d3d12/d3d_tpf.h); reused by every pipeline creation. (appended by pso) */
#ifndef EMGPU_D3D12_SHADER_SCRATCH_BYTES
#define EMGPU_D3D12_SHADER_SCRATCH_BYTES (512u * 1024u)
#endif
/** Bytes per command-ring slot of the GPU buffer that indirect draws/dispatches copy their
 *  arguments into, with their system values (256 bytes per indirect command in a submit). (pso) */
#ifndef EMGPU_D3D12_INDIRECT_SCRATCH_BYTES
#define EMGPU_D3D12_INDIRECT_SCRATCH_BYTES (32u * 1024u)
#endif
/** Bytes per command-ring slot of the upload buffer holding draws'/dispatches' system values
 *  (first vertex, first instance, workgroup counts): 256 bytes per distinct set in a submit. (pso) */
#ifndef EMGPU_D3D12_SYSVALS_BYTES
#define EMGPU_D3D12_SYSVALS_BYTES (64u * 1024u)
#endif
/** Records of the per-process shader cache (hal/d3d12/d3d_cache.c): lowered stages (DXBC) kept
 *  so an identical stage is not lowered again; least recently used ones are evicted. (d3dcore) */
#ifndef EMGPU_D3D12_SHADER_CACHE_ENTRIES
#define EMGPU_D3D12_SHADER_CACHE_ENTRIES 64
#endif
/** Bytes of the shader cache's static blob space: per entry its key (SPIR-V words, entry name,
 *  constants) and its DXBC. A stage needing more than all of it is not cached. (d3dcore) */
#ifndef EMGPU_D3D12_SHADER_CACHE_BYTES
#define EMGPU_D3D12_SHADER_CACHE_BYTES (256u * 1024u)
#endif
/** Operations (queue writes, zero-fills) of one upload command list remembered per device, so a
 *  list whose Close fails is recorded again instead of losing the device; about 100 bytes each.
 *  More in one list than this: such a failure loses the device. (d3dcore) */
#ifndef EMGPU_D3D12_UPLOAD_LOG
#define EMGPU_D3D12_UPLOAD_LOG 128
#endif
/** Shader-visible descriptors per command-ring slot for dynamic-offset buffers: every
 *  setBindGroup of a group with dynamic offsets that a draw/dispatch uses writes that group's
 *  dynamic buffers as views (with the offsets; hardware bounds checks) here, reused once the
 *  slot's fence has passed. One submit may use this many. (robust) */
#ifndef EMGPU_D3D12_DYNAMIC_DESCRIPTORS
#define EMGPU_D3D12_DYNAMIC_DESCRIPTORS 256
#endif
_Static_assert(EMGPU_D3D12_SAMPLER_DESCRIPTORS <= EMGPU_D3D12_VIEW_DESCRIPTORS &&
               EMGPU_D3D12_RTV_DESCRIPTORS <= EMGPU_D3D12_VIEW_DESCRIPTORS &&
               EMGPU_D3D12_DSV_DESCRIPTORS <= EMGPU_D3D12_VIEW_DESCRIPTORS,
               "EMGPU_D3D12_VIEW_DESCRIPTORS sizes every descriptor free list: it must be the largest");
_Static_assert(EMGPU_D3D12_GPU_SAMPLER_DESCRIPTORS <= 2048, "EMGPU_D3D12_GPU_SAMPLER_DESCRIPTORS: at most 2048 (D3D12)");
#endif /* EMGPU_HAL_D3D12 */
/** 1: compile the DXBC (TPF, shader model 5.1) emitter hal/d3d12/d3d_tpf*.c. On with the D3D12
 *  backend; a host build may set it alone to check the emitter's output with vkd3d-compiler
 *  (tools/tpf_check.sh). The files include no Windows header. (appended by helper tpf) */
#ifndef EMGPU_D3D12_TPF
#define EMGPU_D3D12_TPF EMGPU_HAL_D3D12
#endif

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
