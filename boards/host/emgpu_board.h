/* Board "host": Linux x86-64 desktop simulator. Generous pools; every hosted backend. */
#ifndef EMGPU_BOARD_H
#define EMGPU_BOARD_H

#define EMGPU_BOARD_NAME "host"
#define EMGPU_HAL_SOFT 1
#define EMGPU_HAL_NOOP 1
#define EMGPU_PORT_HAS_ENV 1
#define EMGPU_DEBUG 1
#define EMGPU_SOFT_HEAP_BYTES (16 * 1024 * 1024)

#endif /* EMGPU_BOARD_H */
