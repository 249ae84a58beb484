/* Usage scopes and command-buffer trackers (storage, init, reset, folding a scope in), and the
 * helpers all trackers share: error filling, the transition emitter, use-name formatting. */
#include "kernel/track/track.h"
#include "kernel/base/bitset.h"

/* ---- shared helpers ---- */

bool eg_track_caps_valid(const eg_track_caps_t *caps)
{
    return caps && caps->max_buffers <= EG_TRACK_MAX_INDEX && caps->max_textures <= EG_TRACK_MAX_INDEX &&
           caps->subresource_states <= EG_TRACK_MAX_INDEX;
}

void eg_track_fail(eg_track_error_t *err, eg_track_status_t st, eg_track_kind_t kind, uint32_t index)
{
    if (!err) return;
    eg_memset(err, 0, sizeof *err);
    err->status = st;
    err->kind = kind;
    err->index = (uint16_t)eg_min_u32(index, 0xFFFFu);
}

size_t eg_track_use_format(eg_track_kind_t kind, uint16_t uses, char *buf, size_t cap_B)
{
    size_t n = 0;
    if (!buf || cap_B == 0) return 0;
    for (uint32_t b = 0; b < 16 && (uses != 0 || n == 0); b++) {
        uint16_t bit = uses ? (uint16_t)(1u << b) : 0;
        if (uses && !(uses & bit)) continue;
        const char *name = kind == EG_TRACK_KIND_BUFFER ? eg_track_buffer_use_name(bit)
                                                        : eg_track_texture_use_name(bit);
        if (n != 0 && n + 1 < cap_B) buf[n++] = '|';
        for (const char *c = name; *c && n + 1 < cap_B; c++) buf[n++] = *c;
        if (!uses) break;
    }
    buf[n] = '\0';
    return n;
}

/* ---- transition emitter ---- */

void eg_track_emit_begin(eg_track_emit_t *e, eg_track_transition_list_t *list)
{
    e->list = list;
    e->start = e->count = list ? list->count : 0;
    e->has_pend = false;
}

static void flush(eg_track_emit_t *e)
{
    if (!e->has_pend) return;
    if (e->list && e->count < e->list->cap) e->list->items[e->count] = e->pend;
    e->count++;                 /* counts past cap, so the error can say how many were needed */
    e->has_pend = false;
}

void eg_track_emit(eg_track_emit_t *e, eg_track_kind_t kind, uint32_t index,
                   const eg_track_range_t *range, uint16_t from, uint16_t to)
{
    eg_track_transition_t *p = &e->pend;
    /* A per-mip walk produces one entry per mip; join it to the previous mip's entry when the
     * layers and both uses match, so a uniform texture gets one transition, not one per mip. */
    if (e->has_pend && p->kind == kind && p->index == index && p->from_use == from &&
        p->to_use == to && p->range.base_layer == range->base_layer &&
        p->range.layer_count == range->layer_count &&
        (uint32_t)p->range.base_mip + p->range.mip_count == range->base_mip) {
        p->range.mip_count = (uint16_t)(p->range.mip_count + range->mip_count);
        return;
    }
    flush(e);
    p->kind = (uint8_t)kind;
    p->reserved = 0;
    p->index = (uint16_t)index;
    p->from_use = from;
    p->to_use = to;
    p->range = *range;
    e->has_pend = true;
}

eg_track_status_t eg_track_emit_end(eg_track_emit_t *e, eg_track_error_t *err)
{
    flush(e);
    uint32_t cap = e->list ? e->list->cap : 0;
    if (e->count > e->start && e->count > cap) {
        eg_track_fail(err, EG_TRACK_E_TRANSITIONS_FULL, (eg_track_kind_t)0, 0);
        if (err) {
            err->knob = e->list ? e->list->knob : NULL;
            err->capacity = cap;
            err->in_use = e->start;
            err->needed = e->count - e->start;
        }
        return EG_TRACK_E_TRANSITIONS_FULL;    /* list->count untouched */
    }
    if (e->list) e->list->count = e->count;
    return EG_TRACK_OK;
}

/* ---- usage scope ---- */

static void scope_layout(eg_track_scope_t *s, const eg_track_caps_t *caps, eg_track_carve_t *c)
{
    uint32_t nb = caps->max_buffers + 1u, nt = caps->max_textures + 1u; /* slot 0 unused */
    s->max_buffers = caps->max_buffers;
    s->max_textures = caps->max_textures;
    s->buf_owned = eg_track_carve(c, EG_BITSET_WORDS(nb) * 4u);
    s->buf_use = eg_track_carve(c, nb * 2u);
    s->tex_owned = eg_track_carve(c, EG_BITSET_WORDS(nt) * 4u);
    s->tex_use = eg_track_carve(c, nt * 2u);
    s->tex_run = eg_track_carve(c, nt * 2u);
    eg_track_subres_init(&s->subres, c, caps);
}

size_t eg_track_scope_storage_size(const eg_track_caps_t *caps)
{
    if (!eg_track_caps_valid(caps)) return 0;
    eg_track_scope_t s;
    eg_track_carve_t c = { NULL, 0 };
    scope_layout(&s, caps, &c);
    return EG_ALIGN_UP(c.off_B, (size_t)8);
}

/* Scope and command-buffer trackers index the device's texture counts: their caps must fit. */
static eg_track_status_t check_init(const eg_track_device_t *dev, const eg_track_caps_t *caps,
                                    void *storage, eg_track_error_t *err)
{
    if (!dev || !storage || !eg_track_caps_valid(caps) || caps->max_buffers > dev->max_buffers ||
        caps->max_textures > dev->max_textures) {
        eg_track_fail(err, EG_TRACK_E_BAD_SIZE, (eg_track_kind_t)0, 0);
        return EG_TRACK_E_BAD_SIZE;
    }
    return EG_TRACK_OK;
}

eg_track_status_t eg_track_scope_init(eg_track_scope_t *scope, const eg_track_device_t *dev,
                                      const eg_track_caps_t *caps, void *storage,
                                      eg_track_error_t *err)
{
    eg_track_status_t st = check_init(dev, caps, storage, err);
    if (st != EG_TRACK_OK) return st;
    size_t size_B = eg_track_scope_storage_size(caps);
    eg_memset(storage, 0, size_B);
    eg_track_carve_t c = { storage, 0 };
    scope->dev = dev;
    scope_layout(scope, caps, &c);
    return EG_TRACK_OK;
}

void eg_track_scope_reset(eg_track_scope_t *scope)
{
    /* Keep "unowned => no run" true, so an insert never mistakes a stale run for its own. */
    EG_BITSET_FOREACH(i, scope->tex_owned, scope->max_textures + 1u) scope->tex_run[i] = 0;
    eg_bitset_zero(scope->buf_owned, EG_BITSET_WORDS(scope->max_buffers + 1u));
    eg_bitset_zero(scope->tex_owned, EG_BITSET_WORDS(scope->max_textures + 1u));
    eg_track_subres_reset(&scope->subres);
}

/* ---- command-buffer tracker ---- */

static void cmd_layout(eg_track_cmd_t *t, const eg_track_caps_t *caps, eg_track_carve_t *c)
{
    uint32_t nb = caps->max_buffers + 1u, nt = caps->max_textures + 1u;
    t->max_buffers = caps->max_buffers;
    t->max_textures = caps->max_textures;
    t->buf_owned = eg_track_carve(c, EG_BITSET_WORDS(nb) * 4u);
    t->buf_first = eg_track_carve(c, nb * 2u);
    t->buf_last = eg_track_carve(c, nb * 2u);
    t->tex_owned = eg_track_carve(c, EG_BITSET_WORDS(nt) * 4u);
    t->tex_first = eg_track_carve(c, nt * 2u);
    t->tex_last = eg_track_carve(c, nt * 2u);
    t->tex_run = eg_track_carve(c, nt * 2u);
    eg_track_subres_init(&t->subres, c, caps);
}

size_t eg_track_cmd_storage_size(const eg_track_caps_t *caps)
{
    if (!eg_track_caps_valid(caps)) return 0;
    eg_track_cmd_t t;
    eg_track_carve_t c = { NULL, 0 };
    cmd_layout(&t, caps, &c);
    return EG_ALIGN_UP(c.off_B, (size_t)8);
}

eg_track_status_t eg_track_cmd_init(eg_track_cmd_t *cmd, const eg_track_device_t *dev,
                                    const eg_track_caps_t *caps, void *storage,
                                    eg_track_error_t *err)
{
    eg_track_status_t st = check_init(dev, caps, storage, err);
    if (st != EG_TRACK_OK) return st;
    eg_memset(storage, 0, eg_track_cmd_storage_size(caps));
    eg_track_carve_t c = { storage, 0 };
    cmd->dev = dev;
    cmd_layout(cmd, caps, &c);
    return EG_TRACK_OK;
}

void eg_track_cmd_reset(eg_track_cmd_t *cmd)
{
    EG_BITSET_FOREACH(i, cmd->tex_owned, cmd->max_textures + 1u) cmd->tex_run[i] = 0;
    eg_bitset_zero(cmd->buf_owned, EG_BITSET_WORDS(cmd->max_buffers + 1u));
    eg_bitset_zero(cmd->tex_owned, EG_BITSET_WORDS(cmd->max_textures + 1u));
    eg_track_subres_reset(&cmd->subres);
}

eg_track_status_t eg_track_cmd_barrier(eg_track_cmd_t *cmd, const eg_track_scope_t *scope,
                                       eg_track_transition_list_t *out, eg_track_error_t *err)
{
    EG_DEBUG_ASSERT(cmd->dev == scope->dev);
    if (scope->max_buffers > cmd->max_buffers || scope->max_textures > cmd->max_textures) {
        eg_track_fail(err, EG_TRACK_E_BAD_SIZE, (eg_track_kind_t)0, 0);
        return EG_TRACK_E_BAD_SIZE;
    }
    /* Barrier for every resource first (reads state, may take runs), update only once all of
     * it fitted: a full output array or table leaves cmd as it was. */
    eg_track_emit_t e;
    eg_track_emit_begin(&e, out);
    eg_track_buffer_cmd_prepare(cmd, scope, &e);
    eg_track_status_t st = eg_track_texture_cmd_prepare(cmd, scope, &e, err);
    if (st == EG_TRACK_OK) st = eg_track_emit_end(&e, err);
    if (st != EG_TRACK_OK) {
        eg_track_texture_cmd_rollback(cmd, scope);
        return st;
    }
    eg_track_buffer_cmd_apply(cmd, scope);
    eg_track_texture_cmd_apply(cmd, scope);
    return EG_TRACK_OK;
}

static uint32_t next_set(const uint32_t *words, uint32_t max, uint32_t from)
{
    if (from < 1) from = 1;
    uint32_t i = eg_bitset_next(words, max + 1u, from);
    return i <= max ? i : 0;
}

uint32_t eg_track_cmd_next_buffer(const eg_track_cmd_t *cmd, uint32_t from)
{
    return next_set(cmd->buf_owned, cmd->max_buffers, from);
}

uint32_t eg_track_cmd_next_texture(const eg_track_cmd_t *cmd, uint32_t from)
{
    return next_set(cmd->tex_owned, cmd->max_textures, from);
}
