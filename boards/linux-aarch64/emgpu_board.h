/* Board "linux-aarch64": a Linux SoC with a framebuffer; software backend (GPU backends as they land). */
#ifndef EMGPU_BOARD_H
#define EMGPU_BOARD_H

#define EMGPU_BOARD_NAME "linux-aarch64"
#define EMGPU_HAL_SOFT 1
#define EMGPU_HAL_NOOP 1
#define EMGPU_PORT_HAS_ENV 1
#define EMGPU_DEBUG 1
#define EMGPU_SOFT_HEAP_BYTES (8 * 1024 * 1024)
/* Cortex-A SoCs have 2-4 cores: two rasterizer workers (same bytes for any count). */
#define EMGPU_SOFT_THREADS 2

#endif /* EMGPU_BOARD_H */
