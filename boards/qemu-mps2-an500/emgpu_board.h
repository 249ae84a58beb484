/* Board "qemu-mps2-an500": Cortex-M7 microcontroller, no GPU, software backend, small pools. */
#ifndef EMGPU_BOARD_H
#define EMGPU_BOARD_H

#define EMGPU_BOARD_NAME "qemu-mps2-an500"
#define EMGPU_HAL_SOFT 1
#define EMGPU_HAL_NOOP 1
/* Bare metal has no environment: adapter selection cannot be overridden at run time. */
#define EMGPU_PORT_HAS_ENV 0
/* Release-like build, so `make size` reports what a product ships; host boards check asserts. */
#define EMGPU_DEBUG 0
/* SysTick input clock of port baremetal: QEMU's mps2 boards run the CPU at 25 MHz. */
#define EMGPU_PORT_CPU_HZ 25000000u

/* Pools sized for an MCU application with a handful of surfaces (and for the unit tests, which
 * keep textures <= 64x64). Each slot costs sizeof(its Impl struct); `make size` lists them. */
#define EMGPU_MAX_ADAPTERS 2
#define EMGPU_MAX_DEVICES 2
#define EMGPU_MAX_BUFFERS 16
#define EMGPU_MAX_TEXTURES 8
#define EMGPU_MAX_TEXTURE_VIEWS 16
#define EMGPU_MAX_SAMPLERS 4
#define EMGPU_MAX_BIND_GROUP_LAYOUTS 4
#define EMGPU_MAX_BIND_GROUPS 8
#define EMGPU_MAX_PIPELINE_LAYOUTS 4
#define EMGPU_MAX_SHADER_MODULES 4
#define EMGPU_MAX_RENDER_PIPELINES 4
#define EMGPU_MAX_COMPUTE_PIPELINES 2
#define EMGPU_MAX_COMMAND_BUFFERS 4
#define EMGPU_MAX_PASS_ENCODERS 4
#define EMGPU_MAX_PENDING_FUTURES 8

/* Arenas and heaps. */
#define EMGPU_COMMAND_STREAM_BYTES 4096
/* hal/noop's mapped-buffer scratch: the largest map the tests make is a 64x64 RGBA8 readback. */
#define EMGPU_NOOP_SCRATCH_BYTES 16384

/* Resource memory of hal/soft: 64 KiB holds e.g. a 64x64 RGBA8 texture (16 KiB), its readback
 * buffer (16 KiB) and room to spare. */
#define EMGPU_SOFT_HEAP_BYTES (64 * 1024)
#define EMGPU_SOFT_HEAP_BLOCKS 32
/* Binning (added by helper "bin"): 16 px tiles suit small panels and 16-row strips; a 16 KiB bin
 * arena holds ~100 binned triangles of a UI frame (more just flushes); no threads on bare metal,
 * so one worker's static state. */
#define EMGPU_SOFT_TILE_PX 16
#define EMGPU_SOFT_BIN_ARENA_BYTES (16 * 1024)
#define EMGPU_SOFT_MAX_THREADS 1

/* The instance block (pools, command streams, trackers: ~102 KiB with the knobs
 * above on this 32-bit target) must fit this; checked at build time in
 * kernel/api/instance_memory.c. The soft heap and noop scratch above come on top. */
#define EMGPU_STATIC_RAM_BUDGET_BYTES (128 * 1024)

#endif /* EMGPU_BOARD_H */
