/* Instance memory: the compile-time static block, its budget check, and carving a block into pools.
 *
 * One instance's memory is, in order: a pool per object kind (sizeof its Impl struct per slot,
 * plus the pool's free FIFO), the future table, one command stream per command-buffer slot, one
 * heap per device slot and one tracker per device slot. The build computes the total for the
 * knob defaults here, as a constant expression, so the board's budget
 * (EMGPU_STATIC_RAM_BUDGET_BYTES) is checked by the compiler and `make size` sees one symbol.
 */
#include "kernel/api/instance.h"

#include "kernel/api/adapter.h"
#include "kernel/api/bind_group.h"
#include "kernel/api/bind_group_layout.h"
#include "kernel/api/buffer.h"
#include "kernel/api/command_buffer.h"
#include "kernel/api/compute_pipeline.h"
#include "kernel/api/device.h"
#include "kernel/api/future.h"
#include "kernel/api/pass_encoder.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/queue.h"
#include "kernel/api/render_pipeline.h"
#include "kernel/api/sampler.h"
#include "kernel/api/shader_module.h"
#include "kernel/api/surface.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/track/track.h"

/* Command encoders and command buffers share a pool, as do render and compute pass encoders.
 * If their owners give them distinct Impl structs, command_buffer.h / pass_encoder.h define these
 * to the larger of the sizes; otherwise the encoder struct sizes the slot. */
#ifndef EG_COMMAND_BUFFER_SLOT_B
#define EG_COMMAND_BUFFER_SLOT_B sizeof(struct WGPUCommandEncoderImpl)
#endif
#ifndef EG_PASS_ENCODER_SLOT_B
#define EG_PASS_ENCODER_SLOT_B sizeof(struct WGPURenderPassEncoderImpl)
#endif

#define SLOT_B(sz) (((size_t)(sz) + 7u) & ~(size_t)7u)
/* Mirrors eg_pool_storage_size() as a constant expression (slots, then the 16-bit FIFO). */
#define POOL_B(sz, cap) (SLOT_B(SLOT_B(sz) * (size_t)(cap)) + SLOT_B((size_t)(cap) * 2u))

/* Device tracker storage, an upper bound of eg_track_device_storage_size() as a constant:
 * per buffer a state word and a live bit; per texture state, run, mip and layer counts and a
 * live bit; the subresource table with its used bits; 64 bytes of rounding slack.
 * TRACK HOOK: when devices start calling eg_track_device_init, check at device creation that
 * eg_track_device_storage_size() <= layout.track_device_B. */
#define TRACK_DEVICE_B(bufs, texs, subres) \
    SLOT_B(((size_t)(bufs) + 32u) / 32u * 4u + (size_t)(bufs) * 2u + 2u + \
           ((size_t)(texs) + 32u) / 32u * 4u + ((size_t)(texs) + 1u) * 7u + \
           (size_t)(subres) * 2u + ((size_t)(subres) + 32u) / 32u * 4u + 64u)

#define STATIC_BLOCK_B ( \
    POOL_B(sizeof(struct WGPUAdapterImpl), EMGPU_MAX_ADAPTERS) + \
    POOL_B(sizeof(struct WGPUDeviceImpl), EMGPU_MAX_DEVICES) + \
    POOL_B(sizeof(struct WGPUQueueImpl), EMGPU_MAX_DEVICES) + \
    POOL_B(sizeof(struct WGPUBufferImpl), EMGPU_MAX_BUFFERS) + \
    POOL_B(sizeof(struct WGPUTextureImpl), EMGPU_MAX_TEXTURES) + \
    POOL_B(sizeof(struct WGPUTextureViewImpl), EMGPU_MAX_TEXTURE_VIEWS) + \
    POOL_B(sizeof(struct WGPUSamplerImpl), EMGPU_MAX_SAMPLERS) + \
    POOL_B(sizeof(struct WGPUBindGroupLayoutImpl), EMGPU_MAX_BIND_GROUP_LAYOUTS) + \
    POOL_B(sizeof(struct WGPUBindGroupImpl), EMGPU_MAX_BIND_GROUPS) + \
    POOL_B(sizeof(struct WGPUPipelineLayoutImpl), EMGPU_MAX_PIPELINE_LAYOUTS) + \
    POOL_B(sizeof(struct WGPUShaderModuleImpl), EMGPU_MAX_SHADER_MODULES) + \
    POOL_B(sizeof(struct WGPURenderPipelineImpl), EMGPU_MAX_RENDER_PIPELINES) + \
    POOL_B(sizeof(struct WGPUComputePipelineImpl), EMGPU_MAX_COMPUTE_PIPELINES) + \
    POOL_B(EG_COMMAND_BUFFER_SLOT_B, EMGPU_MAX_COMMAND_BUFFERS) + \
    POOL_B(EG_PASS_ENCODER_SLOT_B, EMGPU_MAX_PASS_ENCODERS) + \
    POOL_B(sizeof(struct WGPUSurfaceImpl), EMGPU_MAX_SURFACES) + \
    SLOT_B(EG_FUTURE_TABLE_BYTES) + \
    SLOT_B(EMGPU_COMMAND_STREAM_BYTES) * (size_t)EMGPU_MAX_COMMAND_BUFFERS + \
    TRACK_DEVICE_B(EMGPU_MAX_BUFFERS, EMGPU_MAX_TEXTURES, EMGPU_TRACK_SUBRESOURCE_STATES) * \
        (size_t)EMGPU_MAX_DEVICES)

#if EMGPU_STATIC_RAM_BUDGET_BYTES > 0
_Static_assert(STATIC_BLOCK_B <= EMGPU_STATIC_RAM_BUDGET_BYTES,
               "emgpu: the configured pools, streams, heaps and trackers exceed the board's "
               "EMGPU_STATIC_RAM_BUDGET_BYTES; lower the EMGPU_MAX_* / *_BYTES knobs");
#endif

/* The static block: one instance with the knob defaults. uint64_t gives 8-byte alignment. */
static uint64_t static_block[(STATIC_BLOCK_B + 7u) / 8u];

static const size_t slot_sizes[EG_KIND_COUNT] = {
    [EG_KIND_ADAPTER] = SLOT_B(sizeof(struct WGPUAdapterImpl)),
    [EG_KIND_DEVICE] = SLOT_B(sizeof(struct WGPUDeviceImpl)),
    [EG_KIND_QUEUE] = SLOT_B(sizeof(struct WGPUQueueImpl)),
    [EG_KIND_BUFFER] = SLOT_B(sizeof(struct WGPUBufferImpl)),
    [EG_KIND_TEXTURE] = SLOT_B(sizeof(struct WGPUTextureImpl)),
    [EG_KIND_TEXTURE_VIEW] = SLOT_B(sizeof(struct WGPUTextureViewImpl)),
    [EG_KIND_SAMPLER] = SLOT_B(sizeof(struct WGPUSamplerImpl)),
    [EG_KIND_BIND_GROUP_LAYOUT] = SLOT_B(sizeof(struct WGPUBindGroupLayoutImpl)),
    [EG_KIND_BIND_GROUP] = SLOT_B(sizeof(struct WGPUBindGroupImpl)),
    [EG_KIND_PIPELINE_LAYOUT] = SLOT_B(sizeof(struct WGPUPipelineLayoutImpl)),
    [EG_KIND_SHADER_MODULE] = SLOT_B(sizeof(struct WGPUShaderModuleImpl)),
    [EG_KIND_RENDER_PIPELINE] = SLOT_B(sizeof(struct WGPURenderPipelineImpl)),
    [EG_KIND_COMPUTE_PIPELINE] = SLOT_B(sizeof(struct WGPUComputePipelineImpl)),
    [EG_KIND_COMMAND_BUFFER] = SLOT_B(EG_COMMAND_BUFFER_SLOT_B),
    [EG_KIND_PASS_ENCODER] = SLOT_B(EG_PASS_ENCODER_SLOT_B),
    [EG_KIND_SURFACE] = SLOT_B(sizeof(struct WGPUSurfaceImpl)),
};

static const char *const knobs[EG_KIND_COUNT] = {
    [EG_KIND_NONE] = "",
    [EG_KIND_ADAPTER] = "EMGPU_MAX_ADAPTERS",
    [EG_KIND_DEVICE] = "EMGPU_MAX_DEVICES",
    [EG_KIND_QUEUE] = "EMGPU_MAX_DEVICES",
    [EG_KIND_BUFFER] = "EMGPU_MAX_BUFFERS",
    [EG_KIND_TEXTURE] = "EMGPU_MAX_TEXTURES",
    [EG_KIND_TEXTURE_VIEW] = "EMGPU_MAX_TEXTURE_VIEWS",
    [EG_KIND_SAMPLER] = "EMGPU_MAX_SAMPLERS",
    [EG_KIND_BIND_GROUP_LAYOUT] = "EMGPU_MAX_BIND_GROUP_LAYOUTS",
    [EG_KIND_BIND_GROUP] = "EMGPU_MAX_BIND_GROUPS",
    [EG_KIND_PIPELINE_LAYOUT] = "EMGPU_MAX_PIPELINE_LAYOUTS",
    [EG_KIND_SHADER_MODULE] = "EMGPU_MAX_SHADER_MODULES",
    [EG_KIND_RENDER_PIPELINE] = "EMGPU_MAX_RENDER_PIPELINES",
    [EG_KIND_COMPUTE_PIPELINE] = "EMGPU_MAX_COMPUTE_PIPELINES",
    [EG_KIND_COMMAND_BUFFER] = "EMGPU_MAX_COMMAND_BUFFERS",
    [EG_KIND_PASS_ENCODER] = "EMGPU_MAX_PASS_ENCODERS",
    [EG_KIND_SURFACE] = "EMGPU_MAX_SURFACES",
};

uint32_t eg_kind_slot_size(eg_kind_t kind)
{
    return (unsigned)kind < EG_KIND_COUNT ? (uint32_t)slot_sizes[kind] : 0;
}

const char *eg_kind_knob(eg_kind_t kind)
{
    return (unsigned)kind < EG_KIND_COUNT ? knobs[kind] : "";
}

void eg_capacities_default(eg_capacities_t *caps)
{
    eg_memset(caps, 0, sizeof *caps);
    caps->pool[EG_KIND_ADAPTER] = EMGPU_MAX_ADAPTERS;
    caps->pool[EG_KIND_DEVICE] = EMGPU_MAX_DEVICES;
    caps->pool[EG_KIND_QUEUE] = EMGPU_MAX_DEVICES;
    caps->pool[EG_KIND_BUFFER] = EMGPU_MAX_BUFFERS;
    caps->pool[EG_KIND_TEXTURE] = EMGPU_MAX_TEXTURES;
    caps->pool[EG_KIND_TEXTURE_VIEW] = EMGPU_MAX_TEXTURE_VIEWS;
    caps->pool[EG_KIND_SAMPLER] = EMGPU_MAX_SAMPLERS;
    caps->pool[EG_KIND_BIND_GROUP_LAYOUT] = EMGPU_MAX_BIND_GROUP_LAYOUTS;
    caps->pool[EG_KIND_BIND_GROUP] = EMGPU_MAX_BIND_GROUPS;
    caps->pool[EG_KIND_PIPELINE_LAYOUT] = EMGPU_MAX_PIPELINE_LAYOUTS;
    caps->pool[EG_KIND_SHADER_MODULE] = EMGPU_MAX_SHADER_MODULES;
    caps->pool[EG_KIND_RENDER_PIPELINE] = EMGPU_MAX_RENDER_PIPELINES;
    caps->pool[EG_KIND_COMPUTE_PIPELINE] = EMGPU_MAX_COMPUTE_PIPELINES;
    caps->pool[EG_KIND_COMMAND_BUFFER] = EMGPU_MAX_COMMAND_BUFFERS;
    caps->pool[EG_KIND_PASS_ENCODER] = EMGPU_MAX_PASS_ENCODERS;
    caps->pool[EG_KIND_SURFACE] = EMGPU_MAX_SURFACES;
    caps->command_stream_B = EMGPU_COMMAND_STREAM_BYTES;
}

static void layout_compute(const eg_capacities_t *caps, eg_instance_layout_t *l)
{
    size_t at = 0;
    eg_memset(l, 0, sizeof *l);
    for (uint32_t k = EG_KIND_ADAPTER; k < EG_KIND_COUNT; k++) {
        l->pool_off[k] = at;
        at += eg_pool_storage_size((uint32_t)slot_sizes[k], caps->pool[k]);
    }
    l->futures_off = at;
    at += SLOT_B(EG_FUTURE_TABLE_BYTES);
    l->streams_off = at;
    at += SLOT_B(caps->command_stream_B) * caps->pool[EG_KIND_COMMAND_BUFFER];
    /* TRACK HOOK: the bound above, never less than what kernel/track itself asks for. */
    size_t track_B = TRACK_DEVICE_B(caps->pool[EG_KIND_BUFFER], caps->pool[EG_KIND_TEXTURE],
                                    EMGPU_TRACK_SUBRESOURCE_STATES);
    eg_track_caps_t tcaps = eg_instance_track_caps_of(caps);
    size_t exact_B = EG_ALIGN_UP(eg_track_device_storage_size(&tcaps), (size_t)8);
    if (exact_B > track_B) track_B = exact_B;
    l->track_device_B = track_B;
    l->track_off = at;
    at += track_B * caps->pool[EG_KIND_DEVICE];
    l->total_B = at;
}

size_t eg_instance_memory_size(const eg_capacities_t *caps)
{
    eg_instance_layout_t l;
    layout_compute(caps, &l);
    return l.total_B;
}

void eg_instance_memory_carve(struct WGPUInstanceImpl *inst, uint8_t *block)
{
    layout_compute(&inst->caps, &inst->layout);
    for (uint32_t k = EG_KIND_ADAPTER; k < EG_KIND_COUNT; k++)
        eg_pool_init(&inst->pools[k], eg_kind_name((eg_kind_t)k), knobs[k], (uint8_t)k,
                     (uint32_t)slot_sizes[k], inst->caps.pool[k], block + inst->layout.pool_off[k]);
    inst->futures = (eg_future_slot_t *)(void *)(block + inst->layout.futures_off);
    eg_memset(inst->futures, 0, EG_FUTURE_TABLE_BYTES);
    inst->memory = block;
    inst->memory_B = inst->layout.total_B;
}

size_t eg_instance_static_block_size(void) { return sizeof static_block; }
uint8_t *eg_instance_static_block(void) { return (uint8_t *)static_block; }

uint8_t *eg_instance_stream_memory(struct WGPUInstanceImpl *inst, uint32_t cmd_slot_index)
{
    EG_DEBUG_ASSERT(cmd_slot_index >= 1 && cmd_slot_index <= inst->caps.pool[EG_KIND_COMMAND_BUFFER]);
    return inst->memory + inst->layout.streams_off +
           (size_t)(cmd_slot_index - 1) * SLOT_B(inst->caps.command_stream_B);
}

uint32_t eg_instance_stream_bytes(const struct WGPUInstanceImpl *inst)
{
    return inst->caps.command_stream_B;
}

eg_track_caps_t eg_instance_track_caps_of(const eg_capacities_t *caps)
{
    eg_track_caps_t t = { caps->pool[EG_KIND_BUFFER], caps->pool[EG_KIND_TEXTURE],
                          EMGPU_TRACK_SUBRESOURCE_STATES, "EMGPU_TRACK_SUBRESOURCE_STATES" };
    return t;
}

eg_track_caps_t eg_instance_track_caps(const struct WGPUInstanceImpl *inst)
{
    return eg_instance_track_caps_of(&inst->caps);
}

uint8_t *eg_instance_track_memory(struct WGPUInstanceImpl *inst, uint32_t device_slot_index)
{
    EG_DEBUG_ASSERT(device_slot_index >= 1 && device_slot_index <= inst->caps.pool[EG_KIND_DEVICE]);
    return inst->memory + inst->layout.track_off +
           (size_t)(device_slot_index - 1) * inst->layout.track_device_B;
}
