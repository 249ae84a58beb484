/* Board "host": Linux x86-64 desktop simulator. Generous pools; every hosted backend. */
#ifndef EMGPU_BOARD_H
#define EMGPU_BOARD_H

#define EMGPU_BOARD_NAME "host"
#define EMGPU_HAL_SOFT 1
#define EMGPU_HAL_NOOP 1
#ifndef EMGPU_HAL_GLES
#define EMGPU_HAL_GLES 1        /* llvmpipe through EGL in CI, any GLES 3.x driver on a board */
#endif
#ifndef EMGPU_HAL_VULKAN
#define EMGPU_HAL_VULKAN 1      /* lavapipe in CI, any Vulkan driver on a desktop */
#endif
#define EMGPU_PORT_HAS_ENV 1
#define EMGPU_DEBUG 1
#define EMGPU_SOFT_HEAP_BYTES (16 * 1024 * 1024)
/* Two rasterizer workers (tiles shared out; the bytes are the same for any count, which
 * tests/unit/soft_bin_test.c checks). EMGPU_SOFT_THREADS in the environment overrides it. */
#ifndef EMGPU_SOFT_THREADS
#define EMGPU_SOFT_THREADS 2
#endif

#endif /* EMGPU_BOARD_H */
