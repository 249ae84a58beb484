/* The noop backend: accepts everything, executes nothing, completes every submission at once.
 *
 * It is the reference for the HAL contract (every entry filled, none NULL) and the backend of the
 * API tests and the CPU-overhead benchmarks: what remains of a frame's cost on noop is the
 * kernel's own (validation, tracking, recording). Resource contents do not exist: a mapped
 * buffer gets a pointer into one static scratch block of EMGPU_NOOP_SCRATCH_BYTES, shared and
 * reused by every map, so written data is not preserved and reads see whatever is there. A map
 * larger than the scratch block returns NULL (the kernel reports it as OutOfMemory).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_NOOP

#include "hal/hal.h"
#include "kernel/api/features.h"
#include "kernel/base/util.h"

/* Devices open at once across instances; more fail as backend out-of-memory. */
#define NOOP_MAX_DEVICES 8

struct eg_hal_device {
    bool     in_use;
    uint64_t submitted;   /* newest index handed to queue_submit: complete as soon as submitted */
};

static struct eg_hal_device devices[NOOP_MAX_DEVICES];
static uint64_t scratch[(EMGPU_NOOP_SCRATCH_BYTES + 7) / 8];

static eg_status_t noop_probe(uint32_t ordinal, eg_device_info_t *info)
{
    static const char vendor[] = "emgpu", arch[] = "noop", device[] = "noop",
                      desc[] = "emgpu noop backend (executes nothing)";
    if (ordinal != 0) return EG_STATUS_UNAVAILABLE;
    eg_memset(info, 0, sizeof *info);
    info->backend = WGPUBackendType_Null;
    info->adapter_type = WGPUAdapterType_Unknown;
    eg_memcpy(info->vendor, vendor, sizeof vendor);
    eg_memcpy(info->architecture, arch, sizeof arch);
    eg_memcpy(info->device, device, sizeof device);
    eg_memcpy(info->description, desc, sizeof desc);
    eg_limits_default(&info->limits);
    /* A fixed, modest set, so tests can request a supported and an unsupported feature. */
    info->features = (1ull << WGPUFeatureName_CoreFeaturesAndLimits) |
                     (1ull << WGPUFeatureName_Depth32FloatStencil8) |
                     (1ull << WGPUFeatureName_IndirectFirstInstance) |
                     (1ull << WGPUFeatureName_Float32Filterable);
    info->ordinal = ordinal;
    return EG_STATUS_OK;
}

static eg_status_t noop_device_open(const eg_device_info_t *info, eg_hal_device_t **out)
{
    (void)info;
    for (uint32_t i = 0; i < NOOP_MAX_DEVICES; i++) {
        if (!devices[i].in_use) {
            devices[i].in_use = true;
            devices[i].submitted = 0;
            *out = &devices[i];
            return EG_STATUS_OK;
        }
    }
    return EG_STATUS_OUT_OF_MEMORY;
}

static void noop_device_close(eg_hal_device_t *dev) { dev->in_use = false; }

/* Resources: nothing to create. The (void) casts keep one function per signature. */
#define NOOP_PAIR(name, type)                                                              \
    static eg_status_t noop_##name##_create(eg_hal_device_t *d, type *o)                   \
    { (void)d; (void)o; return EG_STATUS_OK; }                                             \
    static void noop_##name##_destroy(eg_hal_device_t *d, type *o) { (void)d; (void)o; }

NOOP_PAIR(buffer, eg_buffer_t)
NOOP_PAIR(texture, eg_texture_t)
NOOP_PAIR(texture_view, eg_texture_view_t)
NOOP_PAIR(sampler, eg_sampler_t)
NOOP_PAIR(bind_group_layout, eg_bind_group_layout_t)
NOOP_PAIR(bind_group, eg_bind_group_t)
NOOP_PAIR(pipeline_layout, eg_pipeline_layout_t)
NOOP_PAIR(shader_module, eg_shader_module_t)
NOOP_PAIR(render_pipeline, eg_render_pipeline_t)
NOOP_PAIR(compute_pipeline, eg_compute_pipeline_t)

static void *noop_buffer_map(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                             uint64_t size_B, bool for_write)
{
    (void)dev; (void)buf; (void)offset_B; (void)for_write;
    return size_B <= sizeof scratch ? (void *)scratch : NULL;
}

static void noop_buffer_unmap(eg_hal_device_t *dev, eg_buffer_t *buf) { (void)dev; (void)buf; }

static eg_status_t noop_queue_write_buffer(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                           const void *data, size_t size_B)
{
    (void)dev; (void)buf; (void)offset_B; (void)data; (void)size_B;
    return EG_STATUS_OK;
}

static eg_status_t noop_queue_write_texture(eg_hal_device_t *dev, eg_texture_t *tex,
                                            const eg_texel_region_t *dst, const void *data,
                                            const eg_buffer_layout_t *layout)
{
    (void)dev; (void)tex; (void)dst; (void)data; (void)layout;
    return EG_STATUS_OK;
}

static eg_status_t noop_queue_submit(eg_hal_device_t *dev, const eg_hal_submit_t *sub)
{
    dev->submitted = sub->index;
    return EG_STATUS_OK;
}

static uint64_t noop_completed_index(eg_hal_device_t *dev) { return dev->submitted; }

static uint64_t noop_wait_index(eg_hal_device_t *dev, uint64_t index, uint64_t timeout_ns)
{
    (void)index; (void)timeout_ns;
    return dev->submitted;
}

const eg_hal_ops_t eg_noop_ops = {
    .name = "noop",
    .backend = WGPUBackendType_Null,
    .probe = noop_probe,
    .device_open = noop_device_open,
    .device_close = noop_device_close,
    .buffer_create = noop_buffer_create,
    .buffer_destroy = noop_buffer_destroy,
    .buffer_map = noop_buffer_map,
    .buffer_unmap = noop_buffer_unmap,
    .texture_create = noop_texture_create,
    .texture_destroy = noop_texture_destroy,
    .texture_view_create = noop_texture_view_create,
    .texture_view_destroy = noop_texture_view_destroy,
    .sampler_create = noop_sampler_create,
    .sampler_destroy = noop_sampler_destroy,
    .bind_group_layout_create = noop_bind_group_layout_create,
    .bind_group_layout_destroy = noop_bind_group_layout_destroy,
    .bind_group_create = noop_bind_group_create,
    .bind_group_destroy = noop_bind_group_destroy,
    .pipeline_layout_create = noop_pipeline_layout_create,
    .pipeline_layout_destroy = noop_pipeline_layout_destroy,
    .shader_module_create = noop_shader_module_create,
    .shader_module_destroy = noop_shader_module_destroy,
    .render_pipeline_create = noop_render_pipeline_create,
    .render_pipeline_destroy = noop_render_pipeline_destroy,
    .compute_pipeline_create = noop_compute_pipeline_create,
    .compute_pipeline_destroy = noop_compute_pipeline_destroy,
    .queue_write_buffer = noop_queue_write_buffer,
    .queue_write_texture = noop_queue_write_texture,
    .queue_submit = noop_queue_submit,
    .completed_index = noop_completed_index,
    .wait_index = noop_wait_index,
};

#endif /* EMGPU_HAL_NOOP */
