/* The backends compiled into this board, in preference order: the first is the default adapter. */
#include "config/emgpu_config.h"
#include "hal/hal.h"

/* Preference: real GPUs first (vulkan, gles, d3d12, metal), then the software rasterizer, then
 * noop, which renders nothing and is never a sensible default when anything else exists. */
#if EMGPU_HAL_VULKAN
extern const eg_hal_ops_t eg_vulkan_ops;
#endif
#if EMGPU_HAL_GLES
extern const eg_hal_ops_t eg_gles_ops;
#endif
#if EMGPU_HAL_D3D12
extern const eg_hal_ops_t eg_d3d12_ops;
#endif
#if EMGPU_HAL_METAL
extern const eg_hal_ops_t eg_metal_ops;
#endif
#if EMGPU_HAL_SOFT
extern const eg_hal_ops_t eg_soft_ops;
#endif
#if EMGPU_HAL_NOOP
extern const eg_hal_ops_t eg_noop_ops;
#endif

const eg_hal_ops_t *const eg_hal_backends[] = {
#if EMGPU_HAL_VULKAN
    &eg_vulkan_ops,
#endif
#if EMGPU_HAL_GLES
    &eg_gles_ops,
#endif
#if EMGPU_HAL_D3D12
    &eg_d3d12_ops,
#endif
#if EMGPU_HAL_METAL
    &eg_metal_ops,
#endif
#if EMGPU_HAL_SOFT
    &eg_soft_ops,
#endif
#if EMGPU_HAL_NOOP
    &eg_noop_ops,
#endif
};

const uint32_t eg_hal_backend_count = (uint32_t)(sizeof eg_hal_backends / sizeof eg_hal_backends[0]);
