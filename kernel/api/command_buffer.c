/* Command buffers: lifetime of the finished slot, and the submit contract with the queue. */
#include "kernel/api/command_buffer.h"

#include "kernel/api/bind_group.h"
#include "kernel/api/buffer.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/queue.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/base/log.h"

void wgpuCommandBufferAddRef(WGPUCommandBuffer commandBuffer)
{
    if (!eg_handle_live(commandBuffer, EG_KIND_COMMAND_BUFFER, "wgpuCommandBufferAddRef"))
        return;
    commandBuffer->enc.cb_refs++;
    eg_object_ref(commandBuffer);
}

void wgpuCommandBufferRelease(WGPUCommandBuffer commandBuffer)
{
    if (!eg_handle_live(commandBuffer, EG_KIND_COMMAND_BUFFER, "wgpuCommandBufferRelease"))
        return;
    eg_encoder_t *e = &commandBuffer->enc;
    if (e->cb_refs == 0) {
        eg_log(EG_LOG_ERROR, "emgpu: wgpuCommandBufferRelease: the handle is an encoder that was "
               "not finished, or has no command-buffer reference left");
        return;
    }
    e->cb_refs--;
    eg_encoder_unref(e);
}

void wgpuCommandBufferSetLabel(WGPUCommandBuffer commandBuffer, WGPUStringView label)
{
    if (eg_handle_live(commandBuffer, EG_KIND_COMMAND_BUFFER, "wgpuCommandBufferSetLabel"))
        eg_object_set_label(&commandBuffer->enc.obj, label);
}

/* The resources one referenced object stands for at submit: itself, or what a view / bind group
 * binds. fn returns false to stop the walk. */
typedef bool (*resource_fn)(eg_object_t *o, void *ctx);

static bool visit_view(const eg_texture_view_t *view, resource_fn fn, void *ctx)
{
    return fn((eg_object_t *)(uintptr_t)view, ctx) && fn(&view->texture->obj, ctx);
}

static bool visit(eg_object_t *o, resource_fn fn, void *ctx)
{
    switch ((eg_kind_t)o->slot.kind) {
    case EG_KIND_TEXTURE_VIEW:
        return visit_view((const eg_texture_view_t *)(void *)o, fn, ctx);
    case EG_KIND_BIND_GROUP: {
        const eg_bind_group_t *bg = (const eg_bind_group_t *)(void *)o;
        if (!fn(o, ctx))
            return false;
        for (uint32_t i = 0; i < bg->entry_count; i++) {
            const eg_bind_entry_t *be = &bg->entries[i];
            if (be->buffer && !fn(&be->buffer->obj, ctx))
                return false;
            if (be->view && !visit_view(be->view, fn, ctx))
                return false;
        }
        return true;
    }
    default:
        return fn(o, ctx);
    }
}

static bool visit_stream(const eg_cmd_stream_t *s, resource_fn fn, void *ctx)
{
    for (const eg_cmd_header_t *h = eg_cmd_first(s); h; h = eg_cmd_next(s, h)) {
        eg_object_t *refs[EG_CMD_MAX_REFS];
        uint32_t n = eg_cmd_refs(h, refs);
        for (uint32_t i = 0; i < n; i++)
            if (!visit(refs[i], fn, ctx))
                return false;
    }
    return true;
}

typedef struct state_check { const eg_vctx_t *v; bool ok; } state_check_t;

/* Spec: queue.submit(): every buffer and texture used must not be destroyed, buffers unmapped. */
static bool check_resource(eg_object_t *o, void *ctx)
{
    state_check_t *c = (state_check_t *)ctx;
    eg_kind_t kind = (eg_kind_t)o->slot.kind;
    if ((kind == EG_KIND_BUFFER || kind == EG_KIND_TEXTURE) && o->destroyed) {
        c->ok = eg_fail(c->v, WGPUErrorType_Validation, EG_E_CMDBUF_RESOURCE_STATE,
                        "destroyed %s \"%s\" used in submit", eg_kind_name(kind), o->label);
        return false;
    }
    if (kind == EG_KIND_BUFFER &&
        ((const eg_buffer_t *)(const void *)o)->map_state != WGPUBufferMapState_Unmapped) {
        c->ok = eg_fail(c->v, WGPUErrorType_Validation, EG_E_CMDBUF_RESOURCE_STATE,
                        "buffer \"%s\" is mapped (or has a pending map) while used in submit", o->label);
        return false;
    }
    return true;
}

static bool stamp_submit(eg_object_t *o, void *ctx)
{
    uint64_t index = *(const uint64_t *)ctx;
    if (o->last_submit < index)
        o->last_submit = index;
    return true;
}

/* Places the transitions from the device tracker's state to this command buffer's first uses in
 * front of its stream (replacing those of an earlier, failed Submit). */
static bool device_barrier(eg_encoder_t *e, const eg_vctx_t *v)
{
    eg_track_device_t *dev = (eg_track_device_t *)e->obj.device->track;
    if (!e->tracking || !dev)
        return true;
    eg_cmd_stream_t *s = &e->stream;
    if (e->barrier_B) {
        eg_cmd_rotate_tail(s, 0, s->used_B - e->barrier_B);
        s->used_B -= e->barrier_B;
        e->barrier_B = 0;
    }
    eg_track_transition_list_t list;
    eg_track_error_t err;
    EG_CHECK(v, eg_cmd_barrier_begin(s, &list), ARENA_FULL, "no room for the submit barrier in the "
             "command stream (EMGPU_COMMAND_STREAM_BYTES = %u)", (unsigned)(s->cap_B));
    eg_track_status_t st = eg_track_device_submit(dev, &e->track, &list, &err);
    EG_CHECK(v, st == EG_TRACK_OK, ARENA_FULL, "submit barrier: %s (%u needed; "
             "EMGPU_COMMAND_STREAM_BYTES = %u)", st == EG_TRACK_E_TRANSITIONS_FULL
             ? "command stream full" : "resource tracker error", (unsigned)err.needed, (unsigned)s->cap_B);
    uint32_t size_B = eg_cmd_barrier_end(s, &list);
    eg_cmd_rotate_tail(s, 0, size_B);
    e->barrier_B = size_B;
    return true;
}

bool eg_command_buffer_prepare_submit(const eg_vctx_t *v, WGPUCommandBuffer cb,
                                      const struct eg_cmd_stream **out)
{
    if (!eg_handle_live(cb, EG_KIND_COMMAND_BUFFER, v->entry))
        return eg_fail(v, WGPUErrorType_Validation, EG_E_STALE_HANDLE,
                       "commands[] holds a handle that is not a live command buffer");
    eg_encoder_t *e = &cb->enc;
    EG_CHECK(v, e->is_cb, CMDBUF_INVALID, "commands[] holds encoder \"%s\", which was not finished",
             e->obj.label);
    EG_CHECK(v, e->obj.device == v->device, WRONG_DEVICE,
             "command buffer \"%s\" belongs to another device", e->obj.label);
    EG_CHECK(v, !e->submitted, CMDBUF_INVALID, "command buffer \"%s\" was already submitted",
             e->obj.label);
    EG_CHECK(v, !e->obj.invalid, CMDBUF_INVALID, "command buffer \"%s\" is invalid (Finish reported "
             "why)", e->obj.label);
    state_check_t c = { v, true };
    visit_stream(&e->stream, check_resource, &c);
    if (!c.ok)
        return false;
    *out = &e->stream;
    return true;
}

/* A second pass into a banded frame would start from transparent black and silently replace the
 * first pass's pixels (the strips went to the panel when the first pass ended): reject it. */
bool eg_command_buffer_check_band_passes(const eg_vctx_t *v, WGPUCommandBuffer cb, eg_band_frames_t *f)
{
    const eg_cmd_stream_t *s = &cb->enc.stream;
    for (const eg_cmd_header_t *h = eg_cmd_first(s); h; h = eg_cmd_next(s, h)) {
        if (h->op != EG_CMD_BEGIN_RENDER_PASS)
            continue;
        const eg_cmd_begin_render_pass_t *r = (const eg_cmd_begin_render_pass_t *)(const void *)h;
        for (uint32_t i = 0; i < r->color_count; i++) {
            struct WGPUTextureImpl *t = r->color[i].view ? r->color[i].view->texture : NULL;
            if (!t || !t->banded)
                continue;
            bool seen = t->band_drawn;
            for (uint32_t k = 0; k < f->count && !seen; k++)
                seen = f->tex[k] == t;
            EG_CHECK(v, !seen, SURFACE_BAND_SECOND_PASS, "a second render pass into a strip-mode surface's "
                     "current texture: a banded frame keeps no pixels between passes and its first "
                     "pass already went to the panel; draw the whole frame in one render pass");
            EG_CHECK(v, f->count < EMGPU_MAX_SURFACES, SURFACE_BAND_SECOND_PASS, "more banded surface "
                     "frames in one Submit than surfaces (EMGPU_MAX_SURFACES = %u)",
                     (unsigned)EMGPU_MAX_SURFACES);
            f->tex[f->count++] = t;
        }
    }
    return true;
}

bool eg_command_buffer_place_submit_barrier(const eg_vctx_t *v, WGPUCommandBuffer cb)
{
    return device_barrier(&cb->enc, v);
}

void eg_command_buffer_mark_submitted(WGPUCommandBuffer cb, uint64_t index)
{
    eg_encoder_t *e = &cb->enc;
    e->submitted = 1;
    e->obj.last_submit = index;
    visit_stream(&e->stream, stamp_submit, &index);
}
