/* Command encoders: creation, encoder state, deferred errors, debug groups, barriers and Finish. */
#include "kernel/api/command_encoder.h"

#include <stdarg.h>

#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/base/fmt.h"
#include "kernel/base/log.h"

/* ---- deferred errors ---- */

bool eg_encoder_fail(eg_encoder_t *e, const eg_vctx_t *v, WGPUErrorType type, eg_error_code_t code,
                     const char *fmt, ...)
{
    /* Spec "invalidate": only the first error is kept, it is the one that explains the rest. */
    if (e->err_code == EG_E_NONE) {
        size_t n = 0;
        if (v->label && v->label[0])
            n = eg_fmt(e->err_msg, sizeof e->err_msg, "%s \"%s\": ", v->entry, v->label);
        else
            n = eg_fmt(e->err_msg, sizeof e->err_msg, "%s: ", v->entry);
        va_list ap;
        va_start(ap, fmt);
        eg_vfmt(e->err_msg + n, sizeof e->err_msg - n, fmt, ap);
        va_end(ap);
        e->err_code = code;
        e->err_type = type;
    }
    e->obj.invalid = 1;
    return false;
}

bool eg_encoder_stream_full(eg_encoder_t *e, const eg_vctx_t *v)
{
    return eg_encoder_fail(e, v, WGPUErrorType_OutOfMemory, EG_E_ARENA_FULL,
                           "command stream full (EMGPU_COMMAND_STREAM_BYTES = %u)",
                           (unsigned)eg_instance_stream_bytes(e->obj.device->instance));
}

bool eg_encoder_track_fail(eg_encoder_t *e, const eg_vctx_t *v, const eg_track_error_t *err)
{
    if (err->status == EG_TRACK_E_CONFLICT) {
        char a[64], b[64];
        eg_track_use_format(err->kind, err->existing_use, a, sizeof a);
        eg_track_use_format(err->kind, err->new_use, b, sizeof b);
        if (err->kind == EG_TRACK_KIND_BUFFER)
            return eg_encoder_fail(e, v, WGPUErrorType_Validation, EG_E_USAGE_CONFLICT,
                                   "buffer (slot %u) used as %s conflicts with its use as %s in the "
                                   "same usage scope", (unsigned)err->index, b, a);
        return eg_encoder_fail(e, v, WGPUErrorType_Validation, EG_E_USAGE_CONFLICT,
                               "texture (slot %u) mip %u layer %u used as %s conflicts with its use "
                               "as %s in the same usage scope", (unsigned)err->index,
                               (unsigned)err->range.base_mip, (unsigned)err->range.base_layer, b, a);
    }
    if (err->status == EG_TRACK_E_TRANSITIONS_FULL)
        return eg_encoder_stream_full(e, v);
    if (err->status == EG_TRACK_E_SUBRESOURCE_FULL)
        return eg_encoder_fail(e, v, WGPUErrorType_OutOfMemory, EG_E_ARENA_FULL,
                               "resource tracker out of room (%s = %u, %u needed)",
                               err->knob ? err->knob : "tracker", (unsigned)err->capacity,
                               (unsigned)err->needed);
    return eg_encoder_fail(e, v, WGPUErrorType_Internal, EG_E_HAL_INTERNAL,
                           "resource tracker rejected %s slot %u (status %u)",
                           err->kind == EG_TRACK_KIND_TEXTURE ? "texture" : "buffer",
                           (unsigned)err->index, (unsigned)err->status);
}

/* ---- argument handles ---- */

bool eg_encoder_check_object(eg_encoder_t *e, const eg_vctx_t *v, const void *handle,
                             eg_kind_t kind, const char *what)
{
    EG_DCHECK(e, v, handle != NULL, NULL_HANDLE, "%s is NULL", what);
    eg_pool_t *pool = eg_pool_of(handle, kind);
    EG_DCHECK(e, v, pool && eg_pool_owns(pool, handle), WRONG_HANDLE_KIND, "%s is not a %s",
              what, eg_kind_name(kind));
    const eg_object_t *o = (const eg_object_t *)handle;
    EG_DCHECK(e, v, o->slot.state != EG_SLOT_FREE, STALE_HANDLE, "%s was released", what);
    EG_DCHECK(e, v, !o->invalid, INVALID_OBJECT, "%s \"%s\" is invalid", what, o->label);
    EG_DCHECK(e, v, o->device == e->obj.device, WRONG_DEVICE, "%s \"%s\" belongs to another device",
              what, o->label);
    EG_DCHECK(e, v, !o->destroyed, DESTROYED_OBJECT, "%s \"%s\" was destroyed", what, o->label);
    return true;
}

/* ---- recording ---- */

void eg_encoder_hold_refs(const eg_cmd_header_t *h)
{
    eg_object_t *refs[EG_CMD_MAX_REFS];
    uint32_t n = eg_cmd_refs(h, refs);
    for (uint32_t i = 0; i < n; i++)
        eg_object_ref(refs[i]);
}

void *eg_encoder_record(eg_encoder_t *e, eg_cmd_op_t op, uint32_t size_B)
{
    return eg_cmd_alloc(&e->stream, op, size_B);
}

static bool barrier_commit(eg_encoder_t *e, const eg_vctx_t *v, eg_track_status_t st,
                           eg_track_transition_list_t *list, const eg_track_error_t *err)
{
    if (st != EG_TRACK_OK)
        return eg_encoder_track_fail(e, v, err);
    eg_cmd_barrier_end(&e->stream, list);
    return true;
}

bool eg_encoder_barrier_buffer(eg_encoder_t *e, const eg_vctx_t *v, const eg_buffer_t *b, uint16_t use)
{
    if (!e->tracking)
        return true;
    eg_track_transition_list_t list;
    eg_track_error_t err;
    if (!eg_cmd_barrier_begin(&e->stream, &list))
        return eg_encoder_stream_full(e, v);
    uint32_t index = eg_pool_index(eg_pool_of(b, EG_KIND_BUFFER), b);
    eg_track_status_t st = eg_track_buffer_barrier(&e->track, index, use, &list, &err);
    return barrier_commit(e, v, st, &list, &err);
}

bool eg_encoder_barrier_texture(eg_encoder_t *e, const eg_vctx_t *v, const eg_texture_t *t,
                                const eg_track_range_t *range, uint16_t use)
{
    if (!e->tracking)
        return true;
    eg_track_transition_list_t list;
    eg_track_error_t err;
    if (!eg_cmd_barrier_begin(&e->stream, &list))
        return eg_encoder_stream_full(e, v);
    uint32_t index = eg_pool_index(eg_pool_of(t, EG_KIND_TEXTURE), t);
    eg_track_status_t st = eg_track_texture_barrier(&e->track, index, range, use, &list, &err);
    return barrier_commit(e, v, st, &list, &err);
}

bool eg_encoder_barrier_scope(eg_encoder_t *e, const eg_vctx_t *v, uint32_t at_B)
{
    if (!e->tracking)
        return true;
    eg_track_transition_list_t list;
    eg_track_error_t err;
    if (!eg_cmd_barrier_begin(&e->stream, &list))
        return eg_encoder_stream_full(e, v);
    eg_track_status_t st = eg_track_cmd_barrier(&e->track, &e->scope, &list, &err);
    if (st != EG_TRACK_OK)
        return eg_encoder_track_fail(e, v, &err);
    uint32_t size_B = eg_cmd_barrier_end(&e->stream, &list);
    eg_cmd_rotate_tail(&e->stream, at_B, size_B);
    return true;
}

/* ---- lifetime ---- */

static void release_object(eg_object_t *o)
{
    switch ((eg_kind_t)o->slot.kind) {
    case EG_KIND_BUFFER: wgpuBufferRelease((WGPUBuffer)(void *)o); break;
    case EG_KIND_TEXTURE: wgpuTextureRelease((WGPUTexture)(void *)o); break;
    case EG_KIND_TEXTURE_VIEW: wgpuTextureViewRelease((WGPUTextureView)(void *)o); break;
    case EG_KIND_BIND_GROUP: wgpuBindGroupRelease((WGPUBindGroup)(void *)o); break;
    case EG_KIND_RENDER_PIPELINE: wgpuRenderPipelineRelease((WGPURenderPipeline)(void *)o); break;
    case EG_KIND_COMPUTE_PIPELINE: wgpuComputePipelineRelease((WGPUComputePipeline)(void *)o); break;
    default: break;
    }
}

void eg_command_buffer_free(eg_encoder_t *e)
{
    for (const eg_cmd_header_t *h = eg_cmd_first(&e->stream); h; h = eg_cmd_next(&e->stream, h)) {
        eg_object_t *refs[EG_CMD_MAX_REFS];
        uint32_t n = eg_cmd_refs(h, refs);
        for (uint32_t i = 0; i < n; i++)
            release_object(refs[i]);
    }
    e->stream.used_B = 0;
    eg_object_free(e);
}

static void destroy_slot(void *object)
{
    eg_command_buffer_free((eg_encoder_t *)object);
}

void eg_encoder_unref(eg_encoder_t *e)
{
    eg_object_unref(e, destroy_slot);
}

/* Carves the tracker and the scope from the front of the slot's stream memory; the rest is the
 * stream. Without a device tracker (a backend that tracks nothing) the whole block is stream. */
static bool setup_memory(eg_encoder_t *e, const eg_vctx_t *v)
{
    struct WGPUInstanceImpl *inst = e->obj.device->instance;
    uint8_t *mem = eg_instance_stream_memory(inst, eg_pool_index(eg_pool_of(e, EG_KIND_COMMAND_BUFFER), e));
    uint32_t cap_B = eg_instance_stream_bytes(inst);
    const eg_track_device_t *dev = (const eg_track_device_t *)e->obj.device->track;
    uint32_t off_B = 0;
    /* A tracker with zero caps is one the device has not initialised (core's TRACK HOOK). */
    if (dev && dev->max_buffers > 0) {
        eg_track_caps_t caps = { dev->max_buffers, dev->max_textures, EG_ENCODER_SUBRESOURCE_STATES,
                                 "EG_ENCODER_SUBRESOURCE_STATES" };
        size_t cmd_B = EG_ALIGN_UP(eg_track_cmd_storage_size(&caps), (size_t)8);
        size_t scope_B = EG_ALIGN_UP(eg_track_scope_storage_size(&caps), (size_t)8);
        if (cmd_B + scope_B + 256u > cap_B) {
            eg_cmd_stream_init(&e->stream, mem, 0);
            return eg_encoder_fail(e, v, WGPUErrorType_OutOfMemory, EG_E_ARENA_FULL,
                                   "EMGPU_COMMAND_STREAM_BYTES = %u cannot hold the resource "
                                   "tracker (%u bytes)", (unsigned)cap_B, (unsigned)(cmd_B + scope_B));
        }
        eg_track_error_t err;
        if (eg_track_cmd_init(&e->track, dev, &caps, mem, &err) != EG_TRACK_OK ||
            eg_track_scope_init(&e->scope, dev, &caps, mem + cmd_B, &err) != EG_TRACK_OK) {
            eg_cmd_stream_init(&e->stream, mem, 0);
            return eg_encoder_track_fail(e, v, &err);
        }
        eg_track_cmd_reset(&e->track);
        e->tracking = 1;
        off_B = (uint32_t)(cmd_B + scope_B);
    }
    eg_cmd_stream_init(&e->stream, mem + off_B, cap_B - off_B);
    return true;
}

WGPUCommandEncoder wgpuDeviceCreateCommandEncoder(WGPUDevice device,
                                                  WGPUCommandEncoderDescriptor const *descriptor)
{
    eg_vctx_t v = eg_vctx(device, "wgpuDeviceCreateCommandEncoder", NULL);
    if (!eg_handle_check(&v, device, EG_KIND_DEVICE, "device", false))
        return NULL;
    if (descriptor && descriptor->nextInChain) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_UNKNOWN_STYPE,
                "descriptor.nextInChain has sType 0x%x, which this call does not accept",
                (unsigned)descriptor->nextInChain->sType);
        return NULL;
    }
    eg_encoder_t *e = (eg_encoder_t *)eg_object_alloc(&v, device, EG_KIND_COMMAND_BUFFER);
    if (!e)
        return NULL;
    if (descriptor)
        eg_object_set_label(&e->obj, descriptor->label);
    e->enc_refs = 1;
    e->err_code = EG_E_NONE;
    v.label = e->obj.label;
    setup_memory(e, &v);
    return e;
}

void wgpuCommandEncoderAddRef(WGPUCommandEncoder commandEncoder)
{
    if (!eg_handle_live(commandEncoder, EG_KIND_COMMAND_BUFFER, "wgpuCommandEncoderAddRef"))
        return;
    commandEncoder->enc_refs++;
    eg_object_ref(commandEncoder);
}

void wgpuCommandEncoderRelease(WGPUCommandEncoder commandEncoder)
{
    if (!eg_handle_live(commandEncoder, EG_KIND_COMMAND_BUFFER, "wgpuCommandEncoderRelease"))
        return;
    if (commandEncoder->enc_refs == 0) {
        eg_log(EG_LOG_ERROR, "emgpu: wgpuCommandEncoderRelease: no encoder reference left "
               "(use wgpuCommandBufferRelease for the finished command buffer)");
        return;
    }
    commandEncoder->enc_refs--;
    eg_encoder_unref(commandEncoder);
}

void wgpuCommandEncoderSetLabel(WGPUCommandEncoder commandEncoder, WGPUStringView label)
{
    if (eg_handle_live(commandEncoder, EG_KIND_COMMAND_BUFFER, "wgpuCommandEncoderSetLabel"))
        eg_object_set_label(&commandEncoder->obj, label);
}

/* ---- encoder state ---- */

eg_encoder_t *eg_encoder_enter(WGPUCommandEncoder handle, const char *entry, eg_vctx_t *v)
{
    *v = eg_vctx(NULL, entry, NULL);
    if (!eg_handle_live(handle, EG_KIND_COMMAND_BUFFER, entry))
        return NULL;
    eg_encoder_t *e = handle;
    v->device = e->obj.device;
    v->label = e->obj.label;
    return e;
}

/* Spec: "validate the encoder state": open passes; locked invalidates the encoder (reported at
 * Finish); ended is an immediate validation error. */
bool eg_encoder_validate_state(eg_encoder_t *e, const eg_vctx_t *v)
{
    if (e->state == EG_ENCODER_OPEN)
        return true;
    if (e->state == EG_ENCODER_LOCKED)
        return eg_encoder_fail(e, v, WGPUErrorType_Validation, EG_E_ENCODER_LOCKED,
                               "a pass is open on this encoder; End() it first");
    return eg_fail(v, WGPUErrorType_Validation, EG_E_ENCODER_ENDED,
                   "the encoder was already finished");
}

static void record_debug(eg_encoder_t *e, const eg_vctx_t *v, eg_cmd_op_t op, WGPUStringView label)
{
    eg_cmd_debug_t *c = (eg_cmd_debug_t *)eg_encoder_record(e, op, sizeof *c);
    if (!c) {
        eg_encoder_stream_full(e, v);
        return;
    }
    eg_cmd_copy_label(c->label, label);
}

void wgpuCommandEncoderPushDebugGroup(WGPUCommandEncoder commandEncoder, WGPUStringView groupLabel)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(commandEncoder, "wgpuCommandEncoderPushDebugGroup", &v);
    if (!e || !eg_encoder_validate_state(e, &v))
        return;
    e->debug_depth++;
    record_debug(e, &v, EG_CMD_PUSH_DEBUG_GROUP, groupLabel);
}

/* Spec: popDebugGroup(): "this.[[debug_group_stack]] must not be empty", else invalidate. */
void wgpuCommandEncoderPopDebugGroup(WGPUCommandEncoder commandEncoder)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(commandEncoder, "wgpuCommandEncoderPopDebugGroup", &v);
    if (!e || !eg_encoder_validate_state(e, &v))
        return;
    if (e->debug_depth == 0) {
        eg_encoder_fail(e, &v, WGPUErrorType_Validation, EG_E_DEBUG_GROUP_UNBALANCED,
                        "PopDebugGroup with no debug group pushed");
        return;
    }
    e->debug_depth--;
    WGPUStringView none = { NULL, 0 };
    record_debug(e, &v, EG_CMD_POP_DEBUG_GROUP, none);
}

void wgpuCommandEncoderInsertDebugMarker(WGPUCommandEncoder commandEncoder, WGPUStringView markerLabel)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(commandEncoder, "wgpuCommandEncoderInsertDebugMarker", &v);
    if (!e || !eg_encoder_validate_state(e, &v))
        return;
    record_debug(e, &v, EG_CMD_INSERT_DEBUG_MARKER, markerLabel);
}

/* Spec: finish(): this must be valid, this.[[state]] must be "open" and the debug group stack
 * empty; otherwise a validation error and an invalid command buffer. The encoder is "ended" in
 * every case. A deferred error recorded earlier is the one reported. */
static bool validate_finish(eg_encoder_t *e, const eg_vctx_t *v, eg_encoder_state_t state)
{
    if (state == EG_ENCODER_ENDED)
        return eg_fail(v, WGPUErrorType_Validation, EG_E_ENCODER_ENDED,
                       "the encoder was already finished");
    if (e->err_code != EG_E_NONE)
        return eg_fail(v, e->err_type, e->err_code, "%s", e->err_msg);
    EG_CHECK(v, state == EG_ENCODER_OPEN, PASS_OPEN, "a pass is still open on the encoder; End() it "
             "before Finish");
    EG_CHECK(v, e->debug_depth == 0, DEBUG_GROUP_UNBALANCED, "%u debug group(s) still pushed "
             "(PushDebugGroup without PopDebugGroup)", (unsigned)e->debug_depth);
    return true;
}

WGPUCommandBuffer wgpuCommandEncoderFinish(WGPUCommandEncoder commandEncoder,
                                           WGPUCommandBufferDescriptor const *descriptor)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(commandEncoder, "wgpuCommandEncoderFinish", &v);
    if (!e)
        return NULL;
    eg_encoder_state_t state = (eg_encoder_state_t)e->state;
    if (state == EG_ENCODER_ENDED) {
        /* The slot already is a command buffer: a second Finish cannot return another object. */
        validate_finish(e, &v, state);
        return NULL;
    }
    e->state = EG_ENCODER_ENDED;
    if (descriptor && descriptor->nextInChain)
        eg_encoder_fail(e, &v, WGPUErrorType_Validation, EG_E_UNKNOWN_STYPE,
                        "descriptor.nextInChain has sType 0x%x, which this call does not accept",
                        (unsigned)descriptor->nextInChain->sType);
    if (!validate_finish(e, &v, state))
        e->obj.invalid = 1;
    if (descriptor && descriptor->label.data)
        eg_object_set_label(&e->obj, descriptor->label);
    e->is_cb = 1;
    e->cb_refs = 1;
    struct WGPUInstanceImpl *inst = e->obj.device->instance;
    if (e->stream.used_B > inst->stream_high_water_B) inst->stream_high_water_B = e->stream.used_B;
    eg_object_ref(e);
    return (WGPUCommandBuffer)(void *)e;
}
