/* Instances: creation from the static or a caller block, handle checks, object slots, WaitAny. */
#include "kernel/api/instance.h"

#include <emgpu/emgpu.h>

#include "kernel/api/command_buffer.h"
#include "kernel/api/device.h"
#include "kernel/api/future.h"
#include "kernel/base/fmt.h"
#include "kernel/base/log.h"

/* The largest timedWaitAnyMaxCount we offer: WaitAny can wait on every pending future. */
#define EG_TIMED_WAIT_ANY_MAX EMGPU_MAX_PENDING_FUTURES

static struct WGPUInstanceImpl instances[EMGPU_MAX_INSTANCES];

struct WGPUInstanceImpl *eg_instance_at(uint32_t i)
{
    return i < EMGPU_MAX_INSTANCES && instances[i].live ? &instances[i] : NULL;
}

static bool instance_live(const struct WGPUInstanceImpl *inst, const char *entry)
{
    for (uint32_t i = 0; i < EMGPU_MAX_INSTANCES; i++)
        if (inst == &instances[i] && inst->live) return true;
    eg_log(EG_LOG_ERROR, "%s: instance handle %p is %s", entry, (const void *)inst,
           inst ? "stale (released) or not an instance" : "NULL");
    return false;
}

/* ---- creation ---- */

static const uint32_t *cap_field(const WGPUEmgpuPoolCapacities *c, eg_kind_t k)
{
    switch (k) {
    case EG_KIND_ADAPTER: return &c->adapters;
    case EG_KIND_DEVICE: case EG_KIND_QUEUE: return &c->devices;
    case EG_KIND_BUFFER: return &c->buffers;
    case EG_KIND_TEXTURE: return &c->textures;
    case EG_KIND_TEXTURE_VIEW: return &c->textureViews;
    case EG_KIND_SAMPLER: return &c->samplers;
    case EG_KIND_BIND_GROUP_LAYOUT: return &c->bindGroupLayouts;
    case EG_KIND_BIND_GROUP: return &c->bindGroups;
    case EG_KIND_PIPELINE_LAYOUT: return &c->pipelineLayouts;
    case EG_KIND_SHADER_MODULE: return &c->shaderModules;
    case EG_KIND_RENDER_PIPELINE: return &c->renderPipelines;
    case EG_KIND_COMPUTE_PIPELINE: return &c->computePipelines;
    case EG_KIND_COMMAND_BUFFER: return &c->commandBuffers;
    case EG_KIND_PASS_ENCODER: return &c->passEncoders;
    case EG_KIND_SURFACE: return &c->surfaces;
    default: return NULL;
    }
}

/* Fills caps from the descriptor's overrides (0 = knob default); false if one is out of range. */
static bool caps_resolve(const WGPUEmgpuPoolCapacities *c, eg_capacities_t *caps)
{
    eg_capacities_default(caps);
    if (!c) return true;
    for (uint32_t k = EG_KIND_ADAPTER; k < EG_KIND_COUNT; k++) {
        uint32_t v = *cap_field(c, (eg_kind_t)k);
        if (v > 65535) {
            eg_log(EG_LOG_ERROR, "wgpuCreateInstance: capacities for the %s pool (%u) exceed 65535",
                   eg_kind_name((eg_kind_t)k), (unsigned)v);
            return false;
        }
        if (v) caps->pool[k] = v;
    }
    if (c->commandStreamBytes) caps->command_stream_B = c->commandStreamBytes;
    return true;
}

size_t wgpuEmgpuGetInstanceMemorySize(WGPUEmgpuPoolCapacities const *capacities)
{
    eg_capacities_t caps;
    if (!caps_resolve(capacities, &caps)) return 0;
    return eg_instance_memory_size(&caps);
}

/* Spec (webgpu.h): instance features and limits requested at creation. */
static bool apply_features(struct WGPUInstanceImpl *inst, const WGPUInstanceDescriptor *d)
{
    if (d->requiredFeatureCount && !d->requiredFeatures) {
        eg_log(EG_LOG_ERROR, "wgpuCreateInstance: requiredFeatures is NULL with requiredFeatureCount %u",
               (unsigned)d->requiredFeatureCount);
        return false;
    }
    for (size_t i = 0; i < d->requiredFeatureCount; i++) {
        switch (d->requiredFeatures[i]) {
        case WGPUInstanceFeatureName_TimedWaitAny: inst->timed_wait_any = true; break;
        case WGPUInstanceFeatureName_ShaderSourceSPIRV: break;
        case WGPUInstanceFeatureName_MultipleDevicesPerAdapter: inst->multiple_devices_per_adapter = true; break;
        default:
            eg_log(EG_LOG_ERROR, "wgpuCreateInstance: requiredFeatures[%u] 0x%x is not a supported "
                   "WGPUInstanceFeatureName", (unsigned)i, (unsigned)d->requiredFeatures[i]);
            return false;
        }
    }
    if (d->requiredLimits) {
        size_t n = d->requiredLimits->timedWaitAnyMaxCount;
        if (n > EG_TIMED_WAIT_ANY_MAX) {
            eg_log(EG_LOG_ERROR, "wgpuCreateInstance: requiredLimits.timedWaitAnyMaxCount %u exceeds "
                   "%u (EMGPU_MAX_PENDING_FUTURES)", (unsigned)n, (unsigned)EG_TIMED_WAIT_ANY_MAX);
            return false;
        }
        inst->timed_wait_any_max = (uint32_t)n;
    }
    return true;
}

static bool static_block_in_use(void)
{
    for (uint32_t i = 0; i < EMGPU_MAX_INSTANCES; i++)
        if (instances[i].live && instances[i].static_block) return true;
    return false;
}

/* Places the instance's memory: the caller's block, else the static block. */
static bool place_memory(struct WGPUInstanceImpl *inst, const WGPUEmgpuInstanceMemoryDescriptor *md)
{
    size_t need = eg_instance_memory_size(&inst->caps);
    if (md && md->block) {
        if (((uintptr_t)md->block & 7u) != 0) {
            eg_log(EG_LOG_ERROR, "wgpuCreateInstance: WGPUEmgpuInstanceMemoryDescriptor.block %p "
                   "is not 8-byte aligned", md->block);
            return false;
        }
        if (md->blockSize < need) {
            eg_log(EG_LOG_ERROR, "wgpuCreateInstance: WGPUEmgpuInstanceMemoryDescriptor.blockSize "
                   "%u is too small: these capacities need %u bytes",
                   (unsigned)md->blockSize, (unsigned)need);
            return false;
        }
        eg_instance_memory_carve(inst, md->block);
        return true;
    }
    if (static_block_in_use()) {
        eg_log(EG_LOG_ERROR, "wgpuCreateInstance: the static block already serves an instance; "
               "give this one a block (WGPUEmgpuInstanceMemoryDescriptor.block, %u bytes)",
               (unsigned)need);
        return false;
    }
    if (need > eg_instance_static_block_size()) {
        eg_log(EG_LOG_ERROR, "wgpuCreateInstance: these capacities need %u bytes, more than the "
               "static block (%u bytes, sized from the knobs); give a block",
               (unsigned)need, (unsigned)eg_instance_static_block_size());
        return false;
    }
    inst->static_block = true;
    eg_instance_memory_carve(inst, eg_instance_static_block());
    return true;
}

WGPUInstance wgpuCreateInstance(WGPUInstanceDescriptor const *descriptor)
{
    WGPUInstanceDescriptor def = WGPU_INSTANCE_DESCRIPTOR_INIT;
    const WGPUInstanceDescriptor *d = descriptor ? descriptor : &def;
    const WGPUEmgpuInstanceMemoryDescriptor *md = NULL;
    for (const WGPUChainedStruct *c = d->nextInChain; c; c = c->next) {
        if (c->sType == WGPUSType_EmgpuInstanceMemoryDescriptor && !md) {
            md = (const WGPUEmgpuInstanceMemoryDescriptor *)(const void *)c;
        } else {
            eg_log(EG_LOG_ERROR, "wgpuCreateInstance: descriptor.nextInChain has sType 0x%x, which "
                   "WGPUInstanceDescriptor does not accept", (unsigned)c->sType);
            return NULL;
        }
    }
    struct WGPUInstanceImpl *inst = NULL;
    for (uint32_t i = 0; i < EMGPU_MAX_INSTANCES && !inst; i++)
        if (!instances[i].live) inst = &instances[i];
    if (!inst) {
        eg_log(EG_LOG_ERROR, "wgpuCreateInstance: instance table full (EMGPU_MAX_INSTANCES = %u)",
               (unsigned)EMGPU_MAX_INSTANCES);
        return NULL;
    }
    eg_memset(inst, 0, sizeof *inst);
    if (!apply_features(inst, d) || !caps_resolve(md ? &md->capacities : NULL, &inst->caps) ||
        !place_memory(inst, md))
        return NULL;
    inst->refs = 1;
    inst->live = true;
    return inst;
}

void wgpuGetInstanceFeatures(WGPUSupportedInstanceFeatures *features)
{
    static const WGPUInstanceFeatureName list[] = {
        WGPUInstanceFeatureName_TimedWaitAny, WGPUInstanceFeatureName_ShaderSourceSPIRV,
        WGPUInstanceFeatureName_MultipleDevicesPerAdapter,
    };
    if (!features) return;
    features->featureCount = EG_ARRAY_LEN(list);
    features->features = list;
}

WGPUStatus wgpuGetInstanceLimits(WGPUInstanceLimits *limits)
{
    if (!limits || limits->nextInChain) return WGPUStatus_Error;
    limits->timedWaitAnyMaxCount = EG_TIMED_WAIT_ANY_MAX;
    return WGPUStatus_Success;
}

void wgpuInstanceAddRef(WGPUInstance instance)
{
    if (instance_live(instance, "wgpuInstanceAddRef")) instance->refs++;
}

void wgpuInstanceRelease(WGPUInstance instance)
{
    if (!instance_live(instance, "wgpuInstanceRelease") || --instance->refs > 0) return;
    eg_future_cancel_all(instance);
    uint32_t leaked = 0;
    for (uint32_t k = EG_KIND_ADAPTER; k < EG_KIND_COUNT; k++) leaked += instance->pools[k].used;
    if (leaked)
        eg_log(EG_LOG_WARN, "wgpuInstanceRelease: %u objects were never released", (unsigned)leaked);
    instance->live = false;
    instance->static_block = false;
}

/* ---- handles ---- */

struct WGPUInstanceImpl *eg_instance_of(const void *handle)
{
    const uint8_t *p = handle;
    for (uint32_t i = 0; i < EMGPU_MAX_INSTANCES; i++) {
        struct WGPUInstanceImpl *inst = &instances[i];
        if (inst->live && p >= inst->memory && p < inst->memory + inst->memory_B) return inst;
    }
    return NULL;
}

static eg_pool_t *owning_pool(struct WGPUInstanceImpl *inst, const void *handle)
{
    for (uint32_t k = EG_KIND_ADAPTER; k < EG_KIND_COUNT; k++)
        if (eg_pool_owns(&inst->pools[k], handle)) return &inst->pools[k];
    return NULL;
}

eg_pool_t *eg_pool_of(const void *handle, eg_kind_t kind)
{
    struct WGPUInstanceImpl *inst = eg_instance_of(handle);
    if (!inst || (unsigned)kind >= EG_KIND_COUNT || kind == EG_KIND_NONE) return NULL;
    return &inst->pools[kind];
}

bool eg_handle_check(const eg_vctx_t *v, const void *handle, eg_kind_t kind, const char *what,
                     bool optional)
{
    if (!handle) {
        if (optional) return true;
        return eg_fail(v, WGPUErrorType_Validation, EG_E_NULL_HANDLE, "%s is NULL", what);
    }
    struct WGPUInstanceImpl *inst = eg_instance_of(handle);
    eg_pool_t *pool = inst ? owning_pool(inst, handle) : NULL;
    if (!pool)
        return eg_fail(v, WGPUErrorType_Validation, EG_E_WRONG_HANDLE_KIND,
                       "%s %p is not a %s handle of a live instance", what, handle,
                       eg_kind_name(kind));
    const eg_object_t *o = handle;
    if (o->slot.state != EG_SLOT_LIVE)
        return eg_fail(v, WGPUErrorType_Validation, EG_E_STALE_HANDLE,
                       "%s handle %p is stale (released)", what, handle);
    if (pool->kind != kind)
        return eg_fail(v, WGPUErrorType_Validation, EG_E_WRONG_HANDLE_KIND,
                       "%s is a %s handle, expected a %s", what, eg_kind_name((eg_kind_t)pool->kind),
                       eg_kind_name(kind));
    if (o->invalid) {
        if (o->label[0])
            return eg_fail(v, WGPUErrorType_Validation, EG_E_INVALID_OBJECT,
                           "%s \"%s\" is invalid (its creation failed validation)", what, o->label);
        return eg_fail(v, WGPUErrorType_Validation, EG_E_INVALID_OBJECT,
                       "%s is invalid (its creation failed validation)", what);
    }
    return true;
}

bool eg_handle_live(const void *handle, eg_kind_t kind, const char *entry)
{
    struct WGPUInstanceImpl *inst = handle ? eg_instance_of(handle) : NULL;
    eg_pool_t *pool = inst ? owning_pool(inst, handle) : NULL;
    const eg_object_t *o = handle;
    if (pool && pool->kind == kind && o->slot.state == EG_SLOT_LIVE) return true;
    if (!handle)
        eg_log(EG_LOG_ERROR, "%s: %s handle is NULL", entry, eg_kind_name(kind));
    else if (!pool || pool->kind != kind)
        eg_log(EG_LOG_ERROR, "%s: %p is not a %s handle", entry, handle, eg_kind_name(kind));
    else
        eg_log(EG_LOG_ERROR, "%s: %s handle %p is stale (released)", entry, eg_kind_name(kind), handle);
    return false;
}

/* ---- object slots ---- */

void *eg_object_alloc_in(const eg_vctx_t *v, struct WGPUInstanceImpl *inst, eg_kind_t kind)
{
    eg_pool_t *pool = &inst->pools[kind];
    eg_object_t *o = eg_pool_alloc(pool);
    if (!o) {
        eg_fail_pool_full(v, pool);
        return NULL;
    }
    return o;
}

void *eg_object_alloc(const eg_vctx_t *v, struct WGPUDeviceImpl *device, eg_kind_t kind)
{
    eg_object_t *o = eg_object_alloc_in(v, device->instance, kind);
    if (!o) return NULL;
    o->device = device;
    device->obj.slot.refs++;
    return o;
}

void eg_object_free(void *object)
{
    eg_object_t *o = object;
    struct WGPUDeviceImpl *device = o->device;
    eg_kind_t kind = (eg_kind_t)o->slot.kind;
    eg_pool_t *pool = eg_pool_of(object, kind);
    if (!pool) {
        eg_log(EG_LOG_ERROR, "internal error: eg_object_free of a foreign %s", eg_kind_name(kind));
        return;
    }
    eg_pool_free(pool, object);
    if (device && kind != EG_KIND_QUEUE && kind != EG_KIND_DEVICE) eg_device_unref(device);
}

void eg_object_ref(void *object)
{
    ((eg_object_t *)object)->slot.refs++;
}

bool eg_object_unref(void *object, eg_object_destroy_fn destroy)
{
    eg_object_t *o = object;
    if (o->slot.refs == 0 || --o->slot.refs > 0) return false;
    struct WGPUDeviceImpl *device = o->device;
    if (device && !device->lost && o->last_submit > device->completed_index) {
        device->completed_index = device->hal->completed_index(device->hal_dev);
        if (o->last_submit > device->completed_index) {
            /* The GPU still reads or writes it: free at completion (eg_device_poll). */
            o->slot.state = EG_SLOT_DOOMED;
            o->doomed_destroy = destroy;
            device->doomed_count++;
            return true;
        }
    }
    destroy(object);
    return true;
}

/* ---- events ---- */

static void poll_devices(struct WGPUInstanceImpl *inst)
{
    eg_pool_t *p = &inst->pools[EG_KIND_DEVICE];
    for (uint32_t i = 1; i <= p->capacity; i++) {
        struct WGPUDeviceImpl *d = eg_pool_at(p, i);
        if (d->obj.slot.state == EG_SLOT_LIVE && d->hal_dev) eg_device_poll(d);
    }
}

void wgpuInstanceProcessEvents(WGPUInstance instance)
{
    if (!instance_live(instance, "wgpuInstanceProcessEvents")) return;
    poll_devices(instance);
    eg_future_process_events(instance);
}

/* Delivers the listed futures that are complete; true if any is (or was) complete. */
static bool collect(struct WGPUInstanceImpl *inst, size_t count, WGPUFutureWaitInfo *futures)
{
    bool any = false;
    for (size_t i = 0; i < count; i++) {
        eg_future_slot_t *f = eg_future_find(inst, futures[i].future.id);
        if (!f) {
            futures[i].completed = WGPU_TRUE;   /* delivered earlier */
        } else if (f->state == EG_FUTURE_READY) {
            futures[i].completed = WGPU_TRUE;
            eg_future_deliver(f);   /* any mode may be delivered by WaitAny */
        } else {
            futures[i].completed = WGPU_FALSE;
        }
        any = any || futures[i].completed;
    }
    return any;
}

/* Blocks on the backend of the first device that has a submission future in the list. */
static bool wait_some(struct WGPUInstanceImpl *inst, size_t count, const WGPUFutureWaitInfo *futures,
                      uint64_t timeout_ns)
{
    for (size_t i = 0; i < count; i++) {
        eg_future_slot_t *f = eg_future_find(inst, futures[i].future.id);
        if (f && f->state == EG_FUTURE_WAITING && f->device && f->wait_submit_index && !f->external) {
            struct WGPUDeviceImpl *d = f->device;
            d->hal->wait_index(d->hal_dev, f->wait_submit_index, timeout_ns);
            return true;
        }
    }
    return false;
}

/* webgpu.h wgpuInstanceWaitAny: timeoutNS > 0 needs the TimedWaitAny instance feature and at
 * most timedWaitAnyMaxCount futures; otherwise the wait fails with WGPUWaitStatus_Error. */
WGPUWaitStatus wgpuInstanceWaitAny(WGPUInstance instance, size_t futureCount,
                                   WGPUFutureWaitInfo *futures, uint64_t timeoutNS)
{
    if (!instance_live(instance, "wgpuInstanceWaitAny")) return WGPUWaitStatus_Error;
    if (futureCount && !futures) {
        eg_log(EG_LOG_ERROR, "wgpuInstanceWaitAny: futures is NULL with futureCount %u", (unsigned)futureCount);
        return WGPUWaitStatus_Error;
    }
    if (timeoutNS > 0 && !instance->timed_wait_any) {
        eg_log(EG_LOG_ERROR, "wgpuInstanceWaitAny: timeoutNS > 0 needs the TimedWaitAny instance "
               "feature (WGPUInstanceDescriptor.requiredFeatures)");
        return WGPUWaitStatus_Error;
    }
    if (timeoutNS > 0 && futureCount > instance->timed_wait_any_max) {
        eg_log(EG_LOG_ERROR, "wgpuInstanceWaitAny: futureCount %u exceeds timedWaitAnyMaxCount %u",
               (unsigned)futureCount, (unsigned)instance->timed_wait_any_max);
        return WGPUWaitStatus_Error;
    }
    for (size_t i = 0; i < futureCount; i++) {
        uint64_t id = futures[i].future.id;
        if (id == 0 || id > instance->next_future_id) {
            eg_log(EG_LOG_ERROR, "wgpuInstanceWaitAny: futures[%u].future.id %llu was not returned "
                   "by this instance", (unsigned)i, (unsigned long long)id);
            return WGPUWaitStatus_Error;
        }
    }
    uint64_t start = eg_port_clock_ns();
    for (;;) {
        poll_devices(instance);
        if (collect(instance, futureCount, futures)) return WGPUWaitStatus_Success;
        uint64_t spent = eg_port_clock_ns() - start;
        if (timeoutNS == 0 || spent >= timeoutNS) return WGPUWaitStatus_TimedOut;
        if (!wait_some(instance, futureCount, futures, timeoutNS - spent))
            return WGPUWaitStatus_TimedOut;   /* nothing can complete without another thread */
    }
}

/* ---- memory statistics ---- */

static WGPUStringView sv(const char *s)
{
    WGPUStringView v = { s, eg_strlen(s) };
    return v;
}

WGPUStatus wgpuInstanceEmgpuGetMemoryStats(WGPUInstance instance, WGPUEmgpuMemoryStats *stats)
{
    if (!instance_live(instance, "wgpuInstanceEmgpuGetMemoryStats") || !stats) return WGPUStatus_Error;
    eg_memset(stats, 0, sizeof *stats);
    for (uint32_t k = EG_KIND_ADAPTER; k < EG_KIND_COUNT && stats->poolCount < WGPU_EMGPU_MAX_POOL_STATS; k++) {
        const eg_pool_t *p = &instance->pools[k];
        WGPUEmgpuPoolStats *s = &stats->pools[stats->poolCount++];
        s->name = sv(p->name);
        s->knob = sv(p->knob);
        s->capacity = p->capacity;
        s->used = p->used;
        s->highWater = p->high_water;
        s->slotBytes = p->slot_size;
    }
    WGPUEmgpuArenaStats *a = &stats->arenas[stats->arenaCount++];
    a->name = sv("futures");
    a->knob = sv("EMGPU_MAX_PENDING_FUTURES");
    a->capacity = EMGPU_MAX_PENDING_FUTURES;
    a->used = eg_future_pending_count(instance);
    a->highWater = instance->futures_high_water;
    /* Command streams: one per encoder / command buffer slot, each EMGPU_COMMAND_STREAM_BYTES.
     * The per-stream figure is what sizes the knob: capacity = one stream, used = the fullest
     * live one, highWater = the fullest any command buffer was at Finish. */
    const eg_pool_t *cbp = &instance->pools[EG_KIND_COMMAND_BUFFER];
    uint32_t fullest = 0;
    for (uint32_t i = 1; i <= cbp->capacity; i++) {
        const eg_encoder_t *e = (const eg_encoder_t *)eg_pool_at(cbp, i);
        if (e->obj.slot.state != EG_SLOT_FREE && e->stream.used_B > fullest) fullest = e->stream.used_B;
    }
    a = &stats->arenas[stats->arenaCount++];
    a->name = sv("command stream (per command buffer)");
    a->knob = sv("EMGPU_COMMAND_STREAM_BYTES");
    a->capacity = instance->caps.command_stream_B;
    a->used = fullest;
    a->highWater = fullest > instance->stream_high_water_B ? fullest : instance->stream_high_water_B;
    stats->blockBytes = instance->memory_B;
    stats->staticBlock = instance->static_block;
    return WGPUStatus_Success;
}
