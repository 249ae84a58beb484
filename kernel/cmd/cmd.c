/* Command streams: the record writer, the reader, barrier placement and reference listing. */
#include "kernel/cmd/cmd.h"

void eg_cmd_stream_init(eg_cmd_stream_t *s, void *mem, uint32_t cap_B)
{
    /* Records are 8-byte aligned relative to base; base itself must be 8-byte aligned. */
    s->base = (uint8_t *)mem;
    s->cap_B = cap_B & ~7u;
    s->used_B = 0;
    s->full = false;
}

void *eg_cmd_alloc(eg_cmd_stream_t *s, eg_cmd_op_t op, uint32_t size_B)
{
    uint32_t n = (size_B + 7u) & ~7u;
    if (s->full || n > s->cap_B - s->used_B) {
        s->full = true;
        return NULL;
    }
    eg_cmd_header_t *h = (eg_cmd_header_t *)(void *)(s->base + s->used_B);
    eg_memset(h, 0, n);
    h->op = (uint16_t)op;
    h->size_B = n;
    s->used_B += n;
    return h;
}

bool eg_cmd_barrier_begin(eg_cmd_stream_t *s, eg_track_transition_list_t *list)
{
    uint32_t hdr_B = (uint32_t)sizeof(eg_cmd_barrier_t);
    list->count = 0;
    list->knob = "EMGPU_COMMAND_STREAM_BYTES";
    if (s->full || hdr_B > s->cap_B - s->used_B) {
        s->full = true;
        list->items = NULL;
        list->cap = 0;
        return false;
    }
    list->items = (eg_track_transition_t *)(void *)(s->base + s->used_B + hdr_B);
    list->cap = (s->cap_B - s->used_B - hdr_B) / (uint32_t)sizeof(eg_track_transition_t);
    return true;
}

uint32_t eg_cmd_barrier_end(eg_cmd_stream_t *s, const eg_track_transition_list_t *list)
{
    if (list->count == 0 || list->items == NULL)
        return 0;
    uint32_t size_B = (uint32_t)sizeof(eg_cmd_barrier_t) +
                      list->count * (uint32_t)sizeof(eg_track_transition_t);
    size_B = (size_B + 7u) & ~7u;   /* 16-byte items: already a multiple of 8 */
    eg_cmd_barrier_t *b = (eg_cmd_barrier_t *)(void *)(s->base + s->used_B);
    b->hdr.op = EG_CMD_BARRIER;
    b->hdr.reserved = 0;
    b->hdr.size_B = size_B;
    b->count = list->count;
    b->reserved = 0;
    s->used_B += size_B;
    return size_B;
}

static void reverse_bytes(uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0, j = n; i + 1 < j; i++, j--) {
        uint8_t t = p[i];
        p[i] = p[j - 1];
        p[j - 1] = t;
    }
}

void eg_cmd_rotate_tail(eg_cmd_stream_t *s, uint32_t from_B, uint32_t tail_B)
{
    /* AB -> BA by three reversals (A, then B, then the whole): O(n) with no scratch, which
     * matters because the stream block is the only memory an encoder has. */
    uint32_t total_B = s->used_B - from_B;
    if (tail_B == 0 || tail_B >= total_B)
        return;
    uint8_t *p = s->base + from_B;
    reverse_bytes(p, total_B - tail_B);
    reverse_bytes(p + total_B - tail_B, tail_B);
    reverse_bytes(p, total_B);
}

const eg_cmd_header_t *eg_cmd_first(const eg_cmd_stream_t *s)
{
    if (s->used_B < sizeof(eg_cmd_header_t))
        return NULL;
    return (const eg_cmd_header_t *)(const void *)s->base;
}

const eg_cmd_header_t *eg_cmd_next(const eg_cmd_stream_t *s, const eg_cmd_header_t *h)
{
    uint32_t off = (uint32_t)((const uint8_t *)h - s->base) + h->size_B;
    if (h->size_B == 0 || off + sizeof(eg_cmd_header_t) > s->used_B)
        return NULL;
    return (const eg_cmd_header_t *)(const void *)(s->base + off);
}

static uint32_t add_ref(eg_object_t *out[EG_CMD_MAX_REFS], uint32_t n, const void *o)
{
    if (o && n < EG_CMD_MAX_REFS)
        out[n++] = (eg_object_t *)(uintptr_t)o;
    return n;
}

uint32_t eg_cmd_refs(const eg_cmd_header_t *h, eg_object_t *out[EG_CMD_MAX_REFS])
{
    uint32_t n = 0;
    switch ((eg_cmd_op_t)h->op) {
    case EG_CMD_COPY_BUFFER_TO_BUFFER: {
        const eg_cmd_copy_b2b_t *c = (const eg_cmd_copy_b2b_t *)(const void *)h;
        n = add_ref(out, n, c->src);
        n = add_ref(out, n, c->dst);
        break;
    }
    case EG_CMD_COPY_BUFFER_TO_TEXTURE:
    case EG_CMD_COPY_TEXTURE_TO_BUFFER: {
        const eg_cmd_copy_bt_t *c = (const eg_cmd_copy_bt_t *)(const void *)h;
        n = add_ref(out, n, c->buffer);
        n = add_ref(out, n, c->texture);
        break;
    }
    case EG_CMD_COPY_TEXTURE_TO_TEXTURE: {
        const eg_cmd_copy_t2t_t *c = (const eg_cmd_copy_t2t_t *)(const void *)h;
        n = add_ref(out, n, c->src);
        n = add_ref(out, n, c->dst);
        break;
    }
    case EG_CMD_CLEAR_BUFFER:
        n = add_ref(out, n, ((const eg_cmd_clear_buffer_t *)(const void *)h)->buffer);
        break;
    case EG_CMD_BEGIN_RENDER_PASS: {
        const eg_cmd_begin_render_pass_t *c = (const eg_cmd_begin_render_pass_t *)(const void *)h;
        for (uint32_t i = 0; i < c->color_count && i < EG_CMD_MAX_COLOR_ATTACHMENTS; i++) {
            n = add_ref(out, n, c->color[i].view);
            n = add_ref(out, n, c->color[i].resolve_target);
        }
        n = add_ref(out, n, c->depth_stencil.view);
        break;
    }
    case EG_CMD_SET_RENDER_PIPELINE:
    case EG_CMD_SET_COMPUTE_PIPELINE:
        n = add_ref(out, n, ((const eg_cmd_set_pipeline_t *)(const void *)h)->pipeline);
        break;
    case EG_CMD_SET_BIND_GROUP:
        n = add_ref(out, n, ((const eg_cmd_set_bind_group_t *)(const void *)h)->group);
        break;
    case EG_CMD_SET_VERTEX_BUFFER:
    case EG_CMD_SET_INDEX_BUFFER:
        n = add_ref(out, n, ((const eg_cmd_set_buffer_t *)(const void *)h)->buffer);
        break;
    case EG_CMD_DRAW_INDIRECT:
    case EG_CMD_DRAW_INDEXED_INDIRECT:
    case EG_CMD_DISPATCH_INDIRECT:
        n = add_ref(out, n, ((const eg_cmd_indirect_t *)(const void *)h)->buffer);
        break;
    default:
        break;
    }
    return n;
}

void eg_cmd_copy_label(char dst[EG_CMD_LABEL_MAX], WGPUStringView s)
{
    size_t n = 0;
    if (s.data) {
        size_t len = s.length;
        while (n < EG_CMD_LABEL_MAX - 1 && (len == WGPU_STRLEN ? s.data[n] != '\0' : n < len))
            n++;
        eg_memcpy(dst, s.data, n);
    }
    dst[n] = '\0';
}
