/* hal/soft: the software backend's ops table, adapter probe, device and queue entries.
 *
 * Adapter identity. WebGPU has no "CPU" backend type: WGPUBackendType_Null means "no backend"
 * (hal/noop uses it), and the others name graphics APIs soft does not use. So soft reports
 * adapterType WGPUAdapterType_CPU and backendType WGPUBackendType_Undefined; applications find
 * it with forceFallbackAdapter (the spec's fallback adapter is exactly "a software
 * implementation") or EMGPU_BACKEND=soft. TODO(#1): if emgpu.h gains an extension value
 * (WGPUBackendType_EmgpuSoft), report that instead.
 *
 * Execution is synchronous: queue_submit runs every command stream to completion before it
 * returns, so completed_index always equals the newest submitted index and wait_index never
 * blocks.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_internal.h"
#include "kernel/api/features.h"

static eg_hal_device_t soft_devices[EMGPU_MAX_DEVICES];

static void copy_name(char *dst, const char *src)
{
    size_t n = eg_strlen(src);
    if (n >= EG_DEVICE_NAME_MAX) n = EG_DEVICE_NAME_MAX - 1;
    eg_memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Features soft implements in full: formats it can store and sample without extra hardware. */
static const WGPUFeatureName soft_features[] = {
    WGPUFeatureName_CoreFeaturesAndLimits,
    WGPUFeatureName_Depth32FloatStencil8,
    WGPUFeatureName_RG11B10UfloatRenderable,
    WGPUFeatureName_BGRA8UnormStorage,
    WGPUFeatureName_Float32Filterable,
    WGPUFeatureName_Float32Blendable,
    WGPUFeatureName_IndirectFirstInstance,
};

static eg_status_t soft_probe(uint32_t ordinal, eg_device_info_t *info)
{
    if (ordinal != 0) return EG_STATUS_UNAVAILABLE;   /* one CPU adapter */
    eg_memset(info, 0, sizeof *info);
    info->backend = WGPUBackendType_Undefined;
    info->adapter_type = WGPUAdapterType_CPU;
    copy_name(info->vendor, "emgpu");
    copy_name(info->architecture, "soft");
    copy_name(info->device, "emgpu software rasterizer");
    copy_name(info->description, "tile-based SIMD rasterizer on the CPU");
    eg_limits_default(&info->limits);
    /* A buffer can never exceed the heap that holds it. */
    info->limits.maxBufferSize = eg_min_u64(info->limits.maxBufferSize, EMGPU_SOFT_HEAP_BYTES);
    for (uint32_t i = 0; i < EG_ARRAY_LEN(soft_features); i++) {
        int b = eg_feature_bit(soft_features[i]);
        if (b >= 0) info->features |= (uint64_t)1 << b;
    }
    info->ordinal = ordinal;
    return EG_STATUS_OK;
}

static eg_status_t soft_device_open(const eg_device_info_t *info, eg_hal_device_t **out)
{
    for (uint32_t i = 0; i < EG_ARRAY_LEN(soft_devices); i++) {
        eg_hal_device_t *d = &soft_devices[i];
        if (d->open) continue;
        eg_memset(d, 0, sizeof *d);
        d->info = info;
        d->open = true;
        eg_soft_workers_reset();
        *out = d;
        return EG_STATUS_OK;
    }
    return EG_STATUS_OUT_OF_MEMORY;   /* more devices than EMGPU_MAX_DEVICES: the kernel's pool
                                       * check makes this unreachable */
}

static void soft_device_close(eg_hal_device_t *dev)
{
    dev->open = false;
    for (uint32_t i = 0; i < EG_ARRAY_LEN(soft_devices); i++)
        if (soft_devices[i].open) return;
    eg_soft_workers_shutdown();   /* the last one: no thread outlives the devices */
}

/* Views and samplers need no backend state: the rasterizer reads the kernel's resolved
 * descriptors (eg_texture_view_t, eg_sampler_t) directly. */
static eg_status_t soft_texture_view_create(eg_hal_device_t *dev, eg_texture_view_t *view)
{
    (void)dev; (void)view;
    return EG_STATUS_OK;
}
static void soft_texture_view_destroy(eg_hal_device_t *dev, eg_texture_view_t *view)
{
    (void)dev; (void)view;
}
static eg_status_t soft_sampler_create(eg_hal_device_t *dev, eg_sampler_t *smp)
{
    (void)dev; (void)smp;
    return EG_STATUS_OK;
}
static void soft_sampler_destroy(eg_hal_device_t *dev, eg_sampler_t *smp)
{
    (void)dev; (void)smp;
}

static eg_status_t soft_queue_submit(eg_hal_device_t *dev, const eg_hal_submit_t *sub)
{
    for (uint32_t i = 0; i < sub->stream_count; i++) {
        eg_status_t st = eg_soft_execute(dev, sub->streams[i]);
        if (st != EG_STATUS_OK) return st;
    }
    dev->completed_index = sub->index;
    return EG_STATUS_OK;
}

static uint64_t soft_completed_index(eg_hal_device_t *dev)
{
    return dev->completed_index;
}

static uint64_t soft_wait_index(eg_hal_device_t *dev, uint64_t index, uint64_t timeout_ns)
{
    (void)index; (void)timeout_ns;   /* synchronous: everything submitted is complete */
    return dev->completed_index;
}

const eg_hal_ops_t eg_soft_ops = {
    .name = "soft",
    .memory_knob = "EMGPU_SOFT_HEAP_BYTES",
    .memory_knob_value = EMGPU_SOFT_HEAP_BYTES,
    .backend = WGPUBackendType_Undefined,
    .probe = soft_probe,
    .device_open = soft_device_open,
    .device_close = soft_device_close,
    .buffer_create = eg_soft_buffer_create,
    .buffer_destroy = eg_soft_buffer_destroy,
    .buffer_map = eg_soft_buffer_map,
    .buffer_unmap = eg_soft_buffer_unmap,
    .texture_create = eg_soft_texture_create,
    .texture_destroy = eg_soft_texture_destroy,
    .texture_view_create = soft_texture_view_create,
    .texture_view_destroy = soft_texture_view_destroy,
    .sampler_create = soft_sampler_create,
    .sampler_destroy = soft_sampler_destroy,
    .bind_group_layout_create = eg_soft_bind_group_layout_create,
    .bind_group_layout_destroy = eg_soft_bind_group_layout_destroy,
    .bind_group_create = eg_soft_bind_group_create,
    .bind_group_destroy = eg_soft_bind_group_destroy,
    .pipeline_layout_create = eg_soft_pipeline_layout_create,
    .pipeline_layout_destroy = eg_soft_pipeline_layout_destroy,
    .shader_module_create = eg_soft_shader_module_create,
    .shader_module_destroy = eg_soft_shader_module_destroy,
    .render_pipeline_create = eg_soft_render_pipeline_create,
    .render_pipeline_destroy = eg_soft_render_pipeline_destroy,
    .compute_pipeline_create = eg_soft_compute_pipeline_create,
    .compute_pipeline_destroy = eg_soft_compute_pipeline_destroy,
    .queue_write_buffer = eg_soft_queue_write_buffer,
    .queue_write_texture = eg_soft_queue_write_texture,
    .queue_submit = soft_queue_submit,
    .completed_index = soft_completed_index,
    .wait_index = soft_wait_index,
    .texture_wrap = eg_soft_texture_wrap,
    .texture_unwrap = eg_soft_texture_unwrap,
    .surface_present = eg_soft_surface_present,
    .surface_band = eg_soft_surface_band,   /* helper bin: banded strip-mode frames */
    .surface_damage = eg_soft_surface_damage,   /* helper damage: partial updates */
};

#endif /* EMGPU_HAL_SOFT */
