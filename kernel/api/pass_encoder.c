/* Pass encoder state shared by render and compute passes: lifetime, deferred errors, usage
 * scope merges, bind groups, debug groups and End. */
#include "kernel/api/pass_encoder.h"

#include <stdarg.h>

#include "kernel/api/bind_group.h"
#include "kernel/api/buffer.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/render_pipeline.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/base/fmt.h"
#include "kernel/base/log.h"

uint32_t eg_pass_slot_index(const void *object, eg_kind_t kind)
{
    return eg_pool_index(eg_pool_of(object, kind), object);
}

bool eg_pass_fail(eg_pass_t *p, const eg_vctx_t *v, eg_error_code_t code, const char *fmt, ...)
{
    eg_encoder_t *e = p->enc;
    if (e->err_code == EG_E_NONE) {
        char msg[EMGPU_ERROR_MESSAGE_MAX];
        va_list ap;
        va_start(ap, fmt);
        eg_vfmt(msg, sizeof msg, fmt, ap);
        va_end(ap);
        /* Keep the message now; the encoder itself becomes invalid only at End (spec). */
        uint8_t was_invalid = e->obj.invalid;
        eg_encoder_fail(e, v, WGPUErrorType_Validation, code, "%s", msg);
        e->obj.invalid = was_invalid;
    }
    p->obj.invalid = 1;
    return false;
}

eg_pass_t *eg_pass_begin(eg_encoder_t *e, const eg_vctx_t *v, bool is_render, WGPUStringView label)
{
    bool state_ok = eg_encoder_validate_state(e, v);
    eg_pass_t *p = (eg_pass_t *)eg_object_alloc(v, e->obj.device, EG_KIND_PASS_ENCODER);
    if (!p)
        return NULL;
    eg_object_set_label(&p->obj, label);
    p->is_render = is_render;
    p->enc = e;
    eg_object_ref(e);
    p->max_draw_count = 50000000u;   /* WGPURenderPassMaxDrawCount default */
    p->begin_B = e->stream.used_B;
    if (!state_ok) {
        p->obj.invalid = 1;
        return p;
    }
    p->owns_lock = 1;
    e->state = EG_ENCODER_LOCKED;
    if (e->tracking)
        eg_track_scope_reset(&e->scope);
    return p;
}

eg_pass_t *eg_pass_enter(const void *handle, bool is_render, const char *entry, eg_vctx_t *v)
{
    *v = eg_vctx(NULL, entry, NULL);
    if (!eg_handle_live(handle, EG_KIND_PASS_ENCODER, entry))
        return NULL;
    eg_pass_t *p = (eg_pass_t *)(uintptr_t)handle;
    v->device = p->obj.device;
    v->label = p->obj.label;
    if (p->is_render != is_render) {
        eg_fail(v, WGPUErrorType_Validation, EG_E_WRONG_HANDLE_KIND, "the handle is a %s pass encoder",
                p->is_render ? "render" : "compute");
        return NULL;
    }
    /* Spec "validate the encoder state" of a pass: an ended pass is an immediate error. */
    if (p->ended) {
        eg_fail(v, WGPUErrorType_Validation, EG_E_PASS_ENDED, "the pass encoder was already ended");
        return NULL;
    }
    return p;
}

void *eg_pass_record(eg_pass_t *p, const eg_vctx_t *v, eg_cmd_op_t op, uint32_t size_B)
{
    void *r = eg_encoder_record(p->enc, op, size_B);
    if (!r) {
        eg_encoder_stream_full(p->enc, v);
        p->obj.invalid = 1;
    }
    return r;
}

static bool scope_fail(eg_pass_t *p, const eg_vctx_t *v, const eg_track_error_t *err)
{
    eg_encoder_track_fail(p->enc, v, err);
    p->obj.invalid = 1;
    return false;
}

/* A destroyed resource has left the tracker (its memory is gone), so it is not merged into the
 * scope; spec queue.submit() rejects the command buffer ("destroyed ... used in submit",
 * command_buffer.c), which is where the error belongs. */
bool eg_pass_use_buffer(eg_pass_t *p, const eg_vctx_t *v, const eg_buffer_t *b, uint16_t use)
{
    if (!p->enc->tracking || !p->owns_lock || b->obj.destroyed)
        return true;
    eg_track_error_t err;
    if (eg_track_buffer_merge(&p->enc->scope, eg_pass_slot_index(b, EG_KIND_BUFFER), use, &err) != EG_TRACK_OK)
        return scope_fail(p, v, &err);
    return true;
}

bool eg_pass_use_texture(eg_pass_t *p, const eg_vctx_t *v, const eg_texture_t *t,
                         const eg_track_range_t *range, uint16_t use)
{
    if (!p->enc->tracking || !p->owns_lock || t->obj.destroyed)
        return true;
    eg_track_error_t err;
    if (eg_track_texture_merge(&p->enc->scope, eg_pass_slot_index(t, EG_KIND_TEXTURE), range, use,
                               &err) != EG_TRACK_OK)
        return scope_fail(p, v, &err);
    return true;
}

bool eg_pass_use_bind_group(eg_pass_t *p, const eg_vctx_t *v, const eg_bind_group_t *bg)
{
    if (!p->enc->tracking || !p->owns_lock)
        return true;
    eg_bind_use_t uses[EMGPU_MAX_BINDINGS_PER_GROUP];
    uint32_t n = eg_bind_group_uses(bg, uses, EMGPU_MAX_BINDINGS_PER_GROUP);
    if (n > EMGPU_MAX_BINDINGS_PER_GROUP)
        n = EMGPU_MAX_BINDINGS_PER_GROUP;
    for (uint32_t i = 0; i < n; i++) {
        if (uses[i].destroyed) continue;   /* see eg_pass_use_buffer */
        eg_track_error_t err;
        eg_track_status_t st = uses[i].kind == EG_TRACK_KIND_BUFFER
            ? eg_track_buffer_merge(&p->enc->scope, uses[i].index, uses[i].use, &err)
            : eg_track_texture_merge(&p->enc->scope, uses[i].index, &uses[i].range, uses[i].use, &err);
        if (st != EG_TRACK_OK)
            return scope_fail(p, v, &err);
    }
    return true;
}

/* Spec: setBindGroup(): index < maxBindGroups, group valid, dynamic offsets count equal to the
 * layout's dynamic entries, each aligned to min{Uniform,Storage}BufferOffsetAlignment and the
 * bound range plus the offset inside the buffer. */
static bool validate_bind_group(eg_pass_t *p, const eg_vctx_t *v, uint32_t index, const eg_bind_group_t *bg,
                                size_t count, const uint32_t *offsets)
{
    const WGPULimits *lim = &p->obj.device->limits;
    EG_PCHECK(p, v, index < lim->maxBindGroups && index < EMGPU_MAX_BIND_GROUPS_PER_LAYOUT,
              BIND_GROUP_INDEX, "groupIndex %u is not below maxBindGroups (%u)", (unsigned)index,
              (unsigned)eg_min_u32(lim->maxBindGroups, EMGPU_MAX_BIND_GROUPS_PER_LAYOUT));
    if (!bg) {
        EG_PCHECK(p, v, count == 0, DYNAMIC_OFFSETS, "dynamicOffsetCount %u given with a NULL group",
                  (unsigned)count);
        return true;
    }
    if (!eg_encoder_check_object(p->enc, v, bg, EG_KIND_BIND_GROUP, "group")) {
        p->obj.invalid = 1;
        return false;
    }
    const eg_bind_group_layout_t *bgl = bg->layout;
    EG_PCHECK(p, v, count == bgl->dynamic_count, DYNAMIC_OFFSETS,
              "dynamicOffsetCount %u differs from the %u dynamic entries of the group's layout",
              (unsigned)count, (unsigned)bgl->dynamic_count);
    EG_PCHECK(p, v, count == 0 || offsets, DYNAMIC_OFFSETS, "dynamicOffsets is NULL");
    uint32_t d = 0;
    for (uint32_t i = 0; i < bgl->entry_count && d < count; i++) {
        const eg_bgl_entry_t *le = &bgl->entries[i];
        if (le->kind != EG_BINDING_BUFFER || !le->has_dynamic_offset)
            continue;
        uint32_t align = le->buffer_type == WGPUBufferBindingType_Uniform
            ? lim->minUniformBufferOffsetAlignment : lim->minStorageBufferOffsetAlignment;
        const eg_bind_entry_t *be = &bg->entries[i];
        EG_PCHECK(p, v, align && offsets[d] % align == 0, DYNAMIC_OFFSETS,
                  "dynamicOffsets[%u] = %u is not a multiple of %s (%u)", (unsigned)d,
                  (unsigned)offsets[d], le->buffer_type == WGPUBufferBindingType_Uniform
                  ? "minUniformBufferOffsetAlignment" : "minStorageBufferOffsetAlignment", (unsigned)align);
        EG_PCHECK(p, v, be->offset_B + be->size_B + offsets[d] <= be->buffer->size_B, DYNAMIC_OFFSETS,
                  "dynamicOffsets[%u] = %u moves binding %u past the end of its buffer (%llu bytes)",
                  (unsigned)d, (unsigned)offsets[d], (unsigned)le->binding,
                  (unsigned long long)be->buffer->size_B);
        d++;
    }
    return true;
}

void eg_pass_set_bind_group(eg_pass_t *p, const eg_vctx_t *v, uint32_t index, WGPUBindGroup group,
                            size_t count, const uint32_t *offsets)
{
    if (!validate_bind_group(p, v, index, group, count, offsets))
        return;
    p->groups[index] = group;
    p->sizes_checked = 0;
    /* Render passes: every bound group joins the pass's usage scope at once (spec); compute
     * passes merge the groups bound at each dispatch instead. */
    if (group && p->is_render && !eg_pass_use_bind_group(p, v, group))
        return;
    eg_cmd_set_bind_group_t *c = (eg_cmd_set_bind_group_t *)eg_pass_record(p, v, EG_CMD_SET_BIND_GROUP, sizeof *c);
    if (!c)
        return;
    c->group = group;
    c->index = index;
    c->dynamic_offset_count = (uint32_t)eg_min_u32((uint32_t)count, EG_CMD_MAX_DYNAMIC_OFFSETS);
    for (uint32_t i = 0; i < c->dynamic_offset_count; i++)
        c->dynamic_offsets[i] = offsets[i];
    eg_encoder_hold_refs(&c->hdr);
}

static bool layouts_equivalent(const eg_bind_group_layout_t *a, const eg_bind_group_layout_t *b)
{
    /* Spec "group-equivalent": same entries. Layouts keep entries sorted and resolved, so
     * comparing the arrays is the whole rule. */
    if (a == b)
        return true;
    if (a->entry_count != b->entry_count)
        return false;
    return eg_memcmp(a->entries, b->entries, a->entry_count * sizeof a->entries[0]) == 0;
}

/* Spec "validate encoder bind groups", last step: for each binding the pipeline's shaders use
 * whose layout entry has buffer.minBindingSize 0, the bound size must be at least the
 * pipeline's "minimum buffer binding size" for it (the Block's size with a runtime array of one
 * element). Layout minBindingSize > 0 was checked when the pipeline and the group were created.
 * Backends rely on it: D3D12 rounds uniform views up to 256 bytes only because the block fits. */
static bool check_buffer_sizes(eg_pass_t *p, const eg_vctx_t *v, const eg_stage_t *s)
{
    if (!s || !s->entry)
        return true;
    for (uint32_t i = 0; i < s->entry->binding_count; i++) {
        const eg_shader_binding_t *b = &s->entry->bindings[i];
        if (b->kind > EG_SHADER_BINDING_STORAGE || b->group >= EMGPU_MAX_BIND_GROUPS_PER_LAYOUT || !p->groups[b->group])
            continue;
        const eg_bind_group_t *bg = p->groups[b->group];
        for (uint32_t e = 0; e < bg->entry_count && e < EMGPU_MAX_BINDINGS_PER_GROUP; e++) {
            const eg_bgl_entry_t *le = &bg->layout->entries[e];
            if (le->binding != b->binding)
                continue;
            EG_PCHECK(p, v, le->kind != EG_BINDING_BUFFER || le->min_binding_size_B != 0 ||
                            bg->entries[e].size_B >= b->min_size_B, DRAW_BUFFER_BINDING_SIZE,
                      "bind group at index %u (\"%s\") binding %u: the bound buffer range is %llu bytes, but the "
                      "pipeline's shader needs %llu (its block with one element of any runtime array); the "
                      "layout's minBindingSize is 0, so this is checked at draw/dispatch time",
                      (unsigned)b->group, bg->obj.label, (unsigned)b->binding,
                      (unsigned long long)bg->entries[e].size_B, (unsigned long long)b->min_size_B);
            break;
        }
    }
    return true;
}

bool eg_pass_check_bind_groups(eg_pass_t *p, const eg_vctx_t *v, const eg_pipeline_layout_t *layout,
                               const eg_stage_t *const *stages, uint32_t stage_count)
{
    if (!layout)
        return true;   /* unreachable: every valid pipeline has a layout (auto ones are derived) */
    for (uint32_t i = 0; i < layout->group_count && i < EMGPU_MAX_BIND_GROUPS_PER_LAYOUT; i++) {
        const eg_bind_group_layout_t *want = layout->groups[i];
        if (!want || want->entry_count == 0)
            continue;
        EG_PCHECK(p, v, p->groups[i] != NULL, DRAW_STATE,
                  "no bind group set at index %u, which the pipeline layout uses", (unsigned)i);
        EG_PCHECK(p, v, layouts_equivalent(p->groups[i]->layout, want), DRAW_STATE,
                  "bind group at index %u (layout \"%s\") is not compatible with the pipeline "
                  "layout's group %u", (unsigned)i, p->groups[i]->layout->obj.label, (unsigned)i);
    }
    if (!p->sizes_checked) {
        for (uint32_t s = 0; s < stage_count; s++)
            if (!check_buffer_sizes(p, v, stages[s]))
                return false;
        p->sizes_checked = 1;
    }
    return true;
}

void eg_pass_debug(eg_pass_t *p, const eg_vctx_t *v, eg_cmd_op_t op, WGPUStringView label)
{
    if (op == EG_CMD_PUSH_DEBUG_GROUP) {
        p->debug_depth++;
    } else if (op == EG_CMD_POP_DEBUG_GROUP) {
        if (p->debug_depth == 0) {
            eg_pass_fail(p, v, EG_E_DEBUG_GROUP_UNBALANCED, "PopDebugGroup with no debug group pushed");
            return;
        }
        p->debug_depth--;
    }
    eg_cmd_debug_t *c = (eg_cmd_debug_t *)eg_pass_record(p, v, op, sizeof *c);
    if (c)
        eg_cmd_copy_label(c->label, label);
}

bool eg_pass_check_indirect(eg_pass_t *p, const eg_vctx_t *v, const eg_buffer_t *b,
                            uint64_t offset_B, uint32_t args_B)
{
    if (!eg_encoder_check_object(p->enc, v, b, EG_KIND_BUFFER, "indirectBuffer")) {
        p->obj.invalid = 1;
        return false;
    }
    EG_PCHECK(p, v, b->usage & WGPUBufferUsage_Indirect, INDIRECT_BUFFER,
              "indirectBuffer \"%s\" lacks WGPUBufferUsage_Indirect", b->obj.label);
    EG_PCHECK(p, v, offset_B % 4 == 0, INDIRECT_BUFFER, "indirectOffset %llu is not a multiple of 4",
              (unsigned long long)offset_B);
    EG_PCHECK(p, v, offset_B <= b->size_B && args_B <= b->size_B - offset_B, INDIRECT_BUFFER,
              "indirectOffset %llu + %u argument bytes exceeds the buffer size %llu",
              (unsigned long long)offset_B, (unsigned)args_B, (unsigned long long)b->size_B);
    return true;
}

/* Spec: end(): the pass ends and its encoder is open again; the encoder becomes invalid when the
 * pass is invalid, its debug groups are unbalanced or it drew more than maxDrawCount. */
bool eg_pass_end(eg_pass_t *p, const eg_vctx_t *v, eg_cmd_op_t end_op)
{
    eg_encoder_t *e = p->enc;
    p->ended = 1;
    if (!p->owns_lock)
        return false;
    e->state = EG_ENCODER_OPEN;
    if (p->debug_depth != 0)
        eg_pass_fail(p, v, EG_E_DEBUG_GROUP_UNBALANCED, "%u debug group(s) still pushed at End",
                     (unsigned)p->debug_depth);
    if (p->draw_count > p->max_draw_count)
        eg_pass_fail(p, v, EG_E_PASS_DRAW_COUNT, "%llu draws exceed maxDrawCount %llu",
                     (unsigned long long)p->draw_count, (unsigned long long)p->max_draw_count);
    if (p->obj.invalid) {
        e->obj.invalid = 1;
        return false;
    }
    if (!eg_pass_record(p, v, end_op, sizeof(eg_cmd_header_t)))
        return false;
    /* A render pass is one usage scope: its transitions go in front of its BEGIN record. */
    if (p->is_render && !eg_encoder_barrier_scope(e, v, p->begin_B)) {
        e->obj.invalid = 1;
        return false;
    }
    return true;
}

static void destroy_pass(void *object)
{
    eg_pass_t *p = (eg_pass_t *)object;
    eg_encoder_t *e = p->enc;
    /* A pass released before End leaves its encoder locked, as the spec says (Finish fails). */
    eg_object_free(p);
    if (e)
        eg_encoder_unref(e);
}

void eg_pass_release(eg_pass_t *p)
{
    eg_object_unref(p, destroy_pass);
}
