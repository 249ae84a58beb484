/* Board "windows-x64": Windows x86-64 desktop simulator (mingw-w64); soft, noop and D3D12. */
#ifndef EMGPU_BOARD_H
#define EMGPU_BOARD_H

#define EMGPU_BOARD_NAME "windows-x64"
#define EMGPU_HAL_SOFT 1
#define EMGPU_HAL_NOOP 1
#ifndef EMGPU_HAL_D3D12
#define EMGPU_HAL_D3D12 1       /* vkd3d under wine in CI, any D3D12 driver on Windows */
#endif
#define EMGPU_PORT_HAS_ENV 1
#define EMGPU_DEBUG 1
#define EMGPU_SOFT_HEAP_BYTES (16 * 1024 * 1024)

#endif /* EMGPU_BOARD_H */
