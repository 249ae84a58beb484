/* Texture state tracking: per-subresource states kept uniform until they diverge, the
 * subresource table that holds the diverged ones, scope merge, barriers and device submit. */
#include "kernel/track/track.h"
#include "kernel/base/bitset.h"

/* ---- usage predicates (the rules are explained beside the buffer versions) ---- */

bool eg_track_texture_use_is_read_only(uint16_t use)
{
    return use != 0 && (use & ~EG_TRACK_TEX_READ_ONLY_MASK) == 0;
}

/* Spec §3.4 "Resource Usages", compatible usage list: read-only uses combine; storage and
 * attachment may repeat (usage scope storage / attachment exceptions); see track_buffer.c. */
bool eg_track_texture_use_is_compatible(uint16_t combined)
{
    return (combined & EG_TRACK_TEX_EXCLUSIVE_MASK) == 0 || eg_is_pow2_u32(combined);
}

bool eg_track_texture_use_skips_barrier(uint16_t from, uint16_t to)
{
    return from == to && eg_track_texture_use_is_read_only(from);
}

const char *eg_track_texture_use_name(uint16_t bit)
{
    switch (bit) {
    case EG_TRACK_TEX_NONE:                return "NONE";
    case EG_TRACK_TEX_UNINITIALIZED:       return "UNINITIALIZED";
    case EG_TRACK_TEX_COPY_SRC:            return "COPY_SRC";
    case EG_TRACK_TEX_COPY_DST:            return "COPY_DST";
    case EG_TRACK_TEX_SAMPLED:             return "SAMPLED";
    case EG_TRACK_TEX_STORAGE_READ:        return "STORAGE_READ";
    case EG_TRACK_TEX_STORAGE_WRITE:       return "STORAGE_WRITE";
    case EG_TRACK_TEX_COLOR_TARGET:        return "COLOR_TARGET";
    case EG_TRACK_TEX_DEPTH_STENCIL_READ:  return "DEPTH_STENCIL_READ";
    case EG_TRACK_TEX_DEPTH_STENCIL_WRITE: return "DEPTH_STENCIL_WRITE";
    case EG_TRACK_TEX_PRESENT:             return "PRESENT";
    default:                               return "?";
    }
}

/* ---- subresource table: first-fit runs over a bitmap ----
 * Scope and command-buffer trackers never free before reset, so for them first fit is a bump
 * pointer; the device frees runs as textures become uniform again or are unregistered. */

void eg_track_subres_init(eg_track_subres_t *t, eg_track_carve_t *c, const eg_track_caps_t *caps)
{
    t->cap = caps->subresource_states;
    t->states = eg_track_carve(c, (size_t)t->cap * 2u);
    t->used = eg_track_carve(c, (size_t)EG_BITSET_WORDS(t->cap) * 4u);
    t->in_use = t->high_water = 0;
    t->knob = caps->subresource_knob ? caps->subresource_knob : "EMGPU_TRACK_SUBRESOURCE_STATES";
}

void eg_track_subres_reset(eg_track_subres_t *t)
{
    eg_bitset_zero(t->used, EG_BITSET_WORDS(t->cap));
    t->in_use = 0;
}

uint16_t eg_track_subres_alloc(eg_track_subres_t *t, uint32_t n)
{
    uint32_t i = 0;
    while (n != 0 && i + n <= t->cap) {
        if ((i & 31u) == 0 && t->used[i >> 5] == 0xFFFFFFFFu) { i += 32; continue; }
        if (eg_bitset_test(t->used, i)) { i++; continue; }
        uint32_t j = i;
        while (j < i + n && !eg_bitset_test(t->used, j)) j++;
        if (j == i + n) {
            for (j = i; j < i + n; j++) eg_bitset_set(t->used, j);
            t->in_use += n;
            t->high_water = eg_max_u32(t->high_water, t->in_use);
            return (uint16_t)(i + 1u);
        }
        i = j + 1;
    }
    return 0;
}

void eg_track_subres_release(eg_track_subres_t *t, uint16_t run, uint32_t n)
{
    EG_DEBUG_ASSERT(run >= 1 && run - 1u + n <= t->cap);
    for (uint32_t j = run - 1u; j < run - 1u + n; j++) eg_bitset_clear(t->used, j);
    t->in_use -= n;
}

eg_track_status_t eg_track_subres_full(const eg_track_subres_t *t, uint32_t n, uint32_t index,
                                       eg_track_error_t *err)
{
    eg_track_fail(err, EG_TRACK_E_SUBRESOURCE_FULL, EG_TRACK_KIND_TEXTURE, index);
    if (err) {
        err->knob = t->knob;
        err->capacity = t->cap;
        err->in_use = t->in_use;
        err->needed = n;
    }
    return EG_TRACK_E_SUBRESOURCE_FULL;
}

/* ---- views: one plane of states over a range, subresources outside it untouched (0) ---- */

typedef struct tex_view {
    const uint16_t *states;       /* mips * layers states, or NULL: `uniform` over range */
    uint16_t uniform;
    uint32_t layers;              /* row stride of states */
    eg_track_range_t range;
} tex_view_t;

static tex_view_t view_of(const eg_track_subres_t *t, uint16_t run, uint32_t plane_off,
                          uint16_t uniform, uint32_t mips, uint32_t layers)
{
    tex_view_t v = { run ? t->states + (run - 1u) + plane_off : NULL, uniform, layers,
                     { 0, (uint16_t)mips, 0, (uint16_t)layers } };
    return v;
}

static uint16_t view_at(const tex_view_t *v, uint32_t m, uint32_t l)
{
    const eg_track_range_t *r = &v->range;
    if (m < r->base_mip || m >= (uint32_t)r->base_mip + r->mip_count ||
        l < r->base_layer || l >= (uint32_t)r->base_layer + r->layer_count)
        return 0;
    return v->states ? v->states[m * v->layers + l] : v->uniform;
}

/* The one value every subresource holds once `v` overwrites `base` where v is nonzero, or 0
 * when they would differ (then the result needs a table run). */
static uint16_t overlay_uniform(const tex_view_t *v, uint16_t base, uint32_t mips, uint32_t layers)
{
    const eg_track_range_t *r = &v->range;
    if (!v->states) {
        if (r->mip_count == mips && r->layer_count == layers) return v->uniform;
        return v->uniform == base ? base : 0;
    }
    uint16_t first = 0;
    for (uint32_t m = 0; m < mips; m++) {
        for (uint32_t l = 0; l < layers; l++) {
            uint16_t s = view_at(v, m, l);
            if (s == 0) s = base;
            if (m == 0 && l == 0) first = s;
            else if (s != first) return 0;
        }
    }
    return first;
}

/* Barrier over v's range: from = the tracked state (run plane `from_states`, or `from_uniform`),
 * to = v. No transition where either side is 0 (untouched in the pass, or first sighting in the
 * command buffer) or where skip_barrier says so. Equal neighbours on a mip become one entry; the
 * emitter joins equal entries of consecutive mips. */
static void emit_view(eg_track_emit_t *e, uint32_t index, const tex_view_t *v,
                      const uint16_t *from_states, uint16_t from_uniform)
{
    const eg_track_range_t *r = &v->range;
    uint32_t layer_end = (uint32_t)r->base_layer + r->layer_count;
    for (uint32_t m = r->base_mip; m < (uint32_t)r->base_mip + r->mip_count; m++) {
        bool open = false;
        uint16_t run_from = 0, run_to = 0;
        uint32_t run_start = 0;
        for (uint32_t l = r->base_layer; l <= layer_end; l++) {
            bool want = false;
            uint16_t from = 0, to = 0;
            if (l < layer_end) {
                to = view_at(v, m, l);
                from = from_states ? from_states[m * v->layers + l] : from_uniform;
                want = to != 0 && from != 0 && !eg_track_texture_use_skips_barrier(from, to);
            }
            if (open && (!want || from != run_from || to != run_to)) {
                eg_track_range_t tr = { (uint16_t)m, 1, (uint16_t)run_start, (uint16_t)(l - run_start) };
                eg_track_emit(e, EG_TRACK_KIND_TEXTURE, index, &tr, run_from, run_to);
                open = false;
            }
            if (want && !open) {
                open = true;
                run_from = from;
                run_to = to;
                run_start = l;
            }
        }
    }
}

/* ---- validation shared by the entry points ---- */

/* Mip and layer counts of a registered texture; false when index is not registered. */
static bool dims(const eg_track_device_t *dev, uint32_t index, uint32_t *mips, uint32_t *layers)
{
    if (index < 1 || index > dev->max_textures || !eg_bitset_test(dev->tex_live, index)) return false;
    *mips = dev->tex_mip_count[index];
    *layers = dev->tex_layer_count[index];
    return true;
}

static eg_track_status_t check_use(uint32_t index, uint32_t limit, const eg_track_device_t *dev,
                                   const eg_track_range_t *range, uint16_t use,
                                   uint32_t *mips, uint32_t *layers, eg_track_error_t *err)
{
    if (index > limit || !dims(dev, index, mips, layers)) {
        eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_TEXTURE, index);
        return EG_TRACK_E_BAD_INDEX;
    }
    if (range->mip_count == 0 || range->layer_count == 0 ||
        (uint32_t)range->base_mip + range->mip_count > *mips ||
        (uint32_t)range->base_layer + range->layer_count > *layers) {
        eg_track_fail(err, EG_TRACK_E_BAD_RANGE, EG_TRACK_KIND_TEXTURE, index);
        if (err) err->range = *range;
        return EG_TRACK_E_BAD_RANGE;
    }
    uint16_t known = EG_TRACK_TEX_READ_ONLY_MASK | EG_TRACK_TEX_EXCLUSIVE_MASK;
    if (use == 0 || (use & ~known) != 0 || !eg_track_texture_use_is_compatible(use)) {
        eg_track_fail(err, EG_TRACK_E_BAD_USE, EG_TRACK_KIND_TEXTURE, index);
        if (err) err->new_use = use;
        return EG_TRACK_E_BAD_USE;
    }
    return EG_TRACK_OK;
}

/* ---- device tracker: register / unregister / query ---- */

eg_track_status_t eg_track_texture_register(eg_track_device_t *dev, uint32_t index,
                                            uint32_t mip_count, uint32_t layer_count,
                                            eg_track_error_t *err)
{
    if (index < 1 || index > dev->max_textures) {
        eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_TEXTURE, index);
        return EG_TRACK_E_BAD_INDEX;
    }
    if (mip_count < 1 || mip_count > EG_TRACK_MAX_MIPS || layer_count < 1 ||
        layer_count > EG_TRACK_MAX_LAYERS) {
        eg_track_fail(err, EG_TRACK_E_BAD_SIZE, EG_TRACK_KIND_TEXTURE, index);
        if (err) err->range = (eg_track_range_t){ 0, (uint16_t)eg_min_u32(mip_count, 0xFFFFu), 0,
                                                  (uint16_t)eg_min_u32(layer_count, 0xFFFFu) };
        return EG_TRACK_E_BAD_SIZE;
    }
    eg_track_texture_unregister(dev, index);                  /* re-register resets */
    eg_bitset_set(dev->tex_live, index);
    dev->tex_state[index] = EG_TRACK_TEX_UNINITIALIZED;
    dev->tex_run[index] = 0;
    dev->tex_mip_count[index] = (uint8_t)mip_count;
    dev->tex_layer_count[index] = (uint16_t)layer_count;
    return EG_TRACK_OK;
}

void eg_track_texture_unregister(eg_track_device_t *dev, uint32_t index)
{
    uint32_t mips, layers;
    if (!dims(dev, index, &mips, &layers)) return;
    if (dev->tex_run[index]) eg_track_subres_release(&dev->subres, dev->tex_run[index], mips * layers);
    eg_bitset_clear(dev->tex_live, index);
    dev->tex_run[index] = 0;
    dev->tex_state[index] = EG_TRACK_TEX_NONE;
}

uint16_t eg_track_device_texture_state(const eg_track_device_t *dev, uint32_t index,
                                       uint32_t mip, uint32_t layer)
{
    uint32_t mips, layers;
    if (!dims(dev, index, &mips, &layers) || mip >= mips || layer >= layers) return EG_TRACK_TEX_NONE;
    tex_view_t v = view_of(&dev->subres, dev->tex_run[index], 0, dev->tex_state[index], mips, layers);
    return view_at(&v, mip, layer);
}

/* ---- usage scope: merge ---- */

static eg_track_status_t conflict(eg_track_error_t *err, uint32_t index, eg_track_range_t r,
                                  uint16_t existing, uint16_t use)
{
    eg_track_fail(err, EG_TRACK_E_CONFLICT, EG_TRACK_KIND_TEXTURE, index);
    if (err) {
        err->range = r;
        err->existing_use = existing;
        err->new_use = use;
    }
    return EG_TRACK_E_CONFLICT;
}

eg_track_status_t eg_track_texture_merge(eg_track_scope_t *scope, uint32_t index,
                                         const eg_track_range_t *range, uint16_t use,
                                         eg_track_error_t *err)
{
    uint32_t mips, layers;
    eg_track_status_t st = check_use(index, scope->max_textures, scope->dev, range, use, &mips, &layers, err);
    if (st != EG_TRACK_OK) return st;
    const eg_track_range_t *r = range;
    uint32_t mip_end = (uint32_t)r->base_mip + r->mip_count;
    uint32_t layer_end = (uint32_t)r->base_layer + r->layer_count;
    bool owned = eg_bitset_test(scope->tex_owned, index);
    uint16_t cur = owned ? scope->tex_use[index] : EG_TRACK_TEX_NONE;
    uint16_t run = owned ? scope->tex_run[index] : 0;

    if (!run) {
        /* Uniform: every subresource holds cur, so the whole range clashes or none of it does. */
        uint16_t merged = (uint16_t)(cur | use);
        if (!eg_track_texture_use_is_compatible(merged)) return conflict(err, index, *r, cur, use);
        if ((r->mip_count == mips && r->layer_count == layers) || merged == cur) {
            eg_bitset_set(scope->tex_owned, index);           /* insert, or merge in place */
            scope->tex_use[index] = merged;
            scope->tex_run[index] = 0;
            return EG_TRACK_OK;
        }
        run = eg_track_subres_alloc(&scope->subres, mips * layers);  /* diverges: take a run */
        if (!run) return eg_track_subres_full(&scope->subres, mips * layers, index, err);
        uint16_t *s = scope->subres.states + (run - 1u);
        for (uint32_t j = 0; j < mips * layers; j++) s[j] = cur;
        eg_bitset_set(scope->tex_owned, index);
        scope->tex_run[index] = run;
    } else {
        /* Check every subresource before changing any, so a conflict leaves the scope as it was. */
        const uint16_t *s = scope->subres.states + (run - 1u);
        for (uint32_t m = r->base_mip; m < mip_end; m++) {
            for (uint32_t l = r->base_layer; l < layer_end; l++) {
                uint16_t e = s[m * layers + l];
                if (eg_track_texture_use_is_compatible((uint16_t)(e | use))) continue;
                uint32_t end = l + 1;      /* report the run of layers with the same clash */
                while (end < layer_end && s[m * layers + end] == e) end++;
                eg_track_range_t cr = { (uint16_t)m, 1, (uint16_t)l, (uint16_t)(end - l) };
                return conflict(err, index, cr, e, use);
            }
        }
    }
    uint16_t *s = scope->subres.states + (run - 1u);
    for (uint32_t m = r->base_mip; m < mip_end; m++)
        for (uint32_t l = r->base_layer; l < layer_end; l++)
            s[m * layers + l] |= use;
    return EG_TRACK_OK;
}

uint16_t eg_track_scope_texture_use(const eg_track_scope_t *scope, uint32_t index,
                                    uint32_t mip, uint32_t layer)
{
    uint32_t mips, layers;
    if (index > scope->max_textures || !dims(scope->dev, index, &mips, &layers) ||
        !eg_bitset_test(scope->tex_owned, index) || mip >= mips || layer >= layers)
        return EG_TRACK_TEX_NONE;
    tex_view_t v = view_of(&scope->subres, scope->tex_run[index], 0, scope->tex_use[index], mips, layers);
    return view_at(&v, mip, layer);
}

/* ---- command-buffer tracker: barrier + update ----
 * A command-buffer run holds 2 * n states: the first-use plane, then the last-use plane. */

static eg_track_status_t cmd_prepare_one(eg_track_cmd_t *cmd, uint32_t index, const tex_view_t *v,
                                         uint32_t mips, uint32_t layers, eg_track_emit_t *e,
                                         eg_track_error_t *err)
{
    uint32_t n = mips * layers;
    if (!eg_bitset_test(cmd->tex_owned, index)) {
        /* First sighting: no transition. Take the run now so that apply cannot fail; the owned
         * bit stays clear, and rollback gives the run back if a later step fails. */
        if (overlay_uniform(v, EG_TRACK_TEX_NONE, mips, layers) != 0) return EG_TRACK_OK;
        uint16_t run = eg_track_subres_alloc(&cmd->subres, 2u * n);
        if (!run) return eg_track_subres_full(&cmd->subres, 2u * n, index, err);
        cmd->tex_run[index] = run;
        return EG_TRACK_OK;
    }
    uint16_t run = cmd->tex_run[index];
    if (!run && overlay_uniform(v, cmd->tex_last[index], mips, layers) == 0) {
        /* Expanding a uniform texture into a run holding the same states changes nothing the
         * tracker means, so it may happen here, before we know the whole call succeeds. */
        run = eg_track_subres_alloc(&cmd->subres, 2u * n);
        if (!run) return eg_track_subres_full(&cmd->subres, 2u * n, index, err);
        uint16_t *s = cmd->subres.states + (run - 1u);
        for (uint32_t j = 0; j < n; j++) {
            s[j] = cmd->tex_first[index];
            s[n + j] = cmd->tex_last[index];
        }
        cmd->tex_run[index] = run;
    }
    if (run && (uint32_t)run - 1u + 2u * n > cmd->subres.cap) {   /* re-registered: bad dims */
        eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_TEXTURE, index);
        return EG_TRACK_E_BAD_INDEX;
    }
    emit_view(e, index, v, run ? cmd->subres.states + (run - 1u) + n : NULL, cmd->tex_last[index]);
    return EG_TRACK_OK;
}

static void cmd_apply_one(eg_track_cmd_t *cmd, uint32_t index, const tex_view_t *v,
                          uint32_t mips, uint32_t layers)
{
    uint32_t n = mips * layers;
    uint16_t run = cmd->tex_run[index];
    if (!eg_bitset_test(cmd->tex_owned, index)) {             /* insert */
        eg_bitset_set(cmd->tex_owned, index);
        if (!run) {
            uint16_t u = overlay_uniform(v, EG_TRACK_TEX_NONE, mips, layers);
            cmd->tex_first[index] = cmd->tex_last[index] = u;
            return;
        }
        uint16_t *s = cmd->subres.states + (run - 1u);
        for (uint32_t m = 0; m < mips; m++)
            for (uint32_t l = 0; l < layers; l++)
                s[m * layers + l] = s[n + m * layers + l] = view_at(v, m, l);
        return;
    }
    if (!run) {                                               /* update, stays uniform */
        cmd->tex_last[index] = overlay_uniform(v, cmd->tex_last[index], mips, layers);
        return;
    }
    uint16_t *s = cmd->subres.states + (run - 1u);
    const eg_track_range_t *r = &v->range;
    for (uint32_t m = r->base_mip; m < (uint32_t)r->base_mip + r->mip_count; m++) {
        for (uint32_t l = r->base_layer; l < (uint32_t)r->base_layer + r->layer_count; l++) {
            uint16_t u = view_at(v, m, l);
            if (u == 0) continue;
            if (s[m * layers + l] == 0) s[m * layers + l] = u; /* insert, per subresource */
            s[n + m * layers + l] = u;                        /* update */
        }
    }
}

static tex_view_t scope_view(const eg_track_scope_t *scope, uint32_t i, uint32_t *mips, uint32_t *layers)
{
    bool ok = dims(scope->dev, i, mips, layers);
    EG_DEBUG_ASSERT(ok);
    (void)ok;
    return view_of(&scope->subres, scope->tex_run[i], 0, scope->tex_use[i], *mips, *layers);
}

eg_track_status_t eg_track_texture_cmd_prepare(eg_track_cmd_t *cmd, const eg_track_scope_t *scope,
                                               eg_track_emit_t *e, eg_track_error_t *err)
{
    EG_BITSET_FOREACH(i, scope->tex_owned, scope->max_textures + 1u) {
        uint32_t mips = 0, layers = 0;
        if (!dims(scope->dev, i, &mips, &layers)) {
            eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_TEXTURE, i);
            return EG_TRACK_E_BAD_INDEX;
        }
        uint16_t srun = scope->tex_run[i];
        if (srun && (uint32_t)srun - 1u + mips * layers > scope->subres.cap) {  /* re-registered */
            eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_TEXTURE, i);
            return EG_TRACK_E_BAD_INDEX;
        }
        tex_view_t v = scope_view(scope, i, &mips, &layers);
        eg_track_status_t st = cmd_prepare_one(cmd, i, &v, mips, layers, e, err);
        if (st != EG_TRACK_OK) return st;
    }
    return EG_TRACK_OK;
}

void eg_track_texture_cmd_rollback(eg_track_cmd_t *cmd, const eg_track_scope_t *scope)
{
    EG_BITSET_FOREACH(i, scope->tex_owned, scope->max_textures + 1u) {
        uint32_t mips, layers;
        if (eg_bitset_test(cmd->tex_owned, i) || !cmd->tex_run[i] || !dims(scope->dev, i, &mips, &layers))
            continue;
        eg_track_subres_release(&cmd->subres, cmd->tex_run[i], 2u * mips * layers);
        cmd->tex_run[i] = 0;
    }
}

void eg_track_texture_cmd_apply(eg_track_cmd_t *cmd, const eg_track_scope_t *scope)
{
    EG_BITSET_FOREACH(i, scope->tex_owned, scope->max_textures + 1u) {
        uint32_t mips, layers;
        tex_view_t v = scope_view(scope, i, &mips, &layers);
        cmd_apply_one(cmd, i, &v, mips, layers);
    }
}

eg_track_status_t eg_track_texture_barrier(eg_track_cmd_t *cmd, uint32_t index,
                                           const eg_track_range_t *range, uint16_t use,
                                           eg_track_transition_list_t *out, eg_track_error_t *err)
{
    uint32_t mips, layers;
    eg_track_status_t st = check_use(index, cmd->max_textures, cmd->dev, range, use, &mips, &layers, err);
    if (st != EG_TRACK_OK) return st;
    tex_view_t v = { NULL, use, layers, *range };
    eg_track_emit_t e;
    eg_track_emit_begin(&e, out);
    st = cmd_prepare_one(cmd, index, &v, mips, layers, &e, err);
    if (st == EG_TRACK_OK) st = eg_track_emit_end(&e, err);
    if (st != EG_TRACK_OK) {
        /* Only a first sighting takes a run that is not yet part of the state; give it back. */
        if (!eg_bitset_test(cmd->tex_owned, index) && cmd->tex_run[index]) {
            eg_track_subres_release(&cmd->subres, cmd->tex_run[index], 2u * mips * layers);
            cmd->tex_run[index] = 0;
        }
        return st;
    }
    cmd_apply_one(cmd, index, &v, mips, layers);
    return EG_TRACK_OK;
}

static uint16_t cmd_texture_get(const eg_track_cmd_t *cmd, uint32_t index, uint32_t mip,
                                uint32_t layer, bool last)
{
    uint32_t mips, layers;
    if (index > cmd->max_textures || !dims(cmd->dev, index, &mips, &layers) ||
        !eg_bitset_test(cmd->tex_owned, index) || mip >= mips || layer >= layers)
        return EG_TRACK_TEX_NONE;
    tex_view_t v = view_of(&cmd->subres, cmd->tex_run[index], last ? mips * layers : 0,
                           last ? cmd->tex_last[index] : cmd->tex_first[index], mips, layers);
    return view_at(&v, mip, layer);
}

uint16_t eg_track_cmd_texture_first(const eg_track_cmd_t *cmd, uint32_t index, uint32_t mip, uint32_t layer)
{
    return cmd_texture_get(cmd, index, mip, layer, false);
}

uint16_t eg_track_cmd_texture_last(const eg_track_cmd_t *cmd, uint32_t index, uint32_t mip, uint32_t layer)
{
    return cmd_texture_get(cmd, index, mip, layer, true);
}

/* ---- device tracker: submit (barrier, then update) ---- */

eg_track_status_t eg_track_texture_submit_prepare(eg_track_device_t *dev, const eg_track_cmd_t *cmd,
                                                  eg_track_emit_t *e, eg_track_error_t *err)
{
    /* Every check first: a failure must not leave runs taken for nothing. */
    EG_BITSET_FOREACH(i, cmd->tex_owned, cmd->max_textures + 1u) {
        uint32_t mips, layers;
        uint16_t run = cmd->tex_run[i];
        if (!dims(dev, i, &mips, &layers) ||
            (run && (uint32_t)run - 1u + 2u * mips * layers > cmd->subres.cap)) {
            eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_TEXTURE, i);
            return EG_TRACK_E_BAD_INDEX;
        }
    }
    EG_BITSET_FOREACH(i, cmd->tex_owned, cmd->max_textures + 1u) {
        uint32_t mips = dev->tex_mip_count[i], layers = dev->tex_layer_count[i], n = mips * layers;
        uint16_t crun = cmd->tex_run[i];
        tex_view_t first = view_of(&cmd->subres, crun, 0, cmd->tex_first[i], mips, layers);
        tex_view_t last = view_of(&cmd->subres, crun, n, cmd->tex_last[i], mips, layers);
        if (!dev->tex_run[i] && overlay_uniform(&last, dev->tex_state[i], mips, layers) == 0) {
            uint16_t run = eg_track_subres_alloc(&dev->subres, n);    /* neutral expansion */
            if (!run) return eg_track_subres_full(&dev->subres, n, i, err);
            uint16_t *s = dev->subres.states + (run - 1u);
            for (uint32_t j = 0; j < n; j++) s[j] = dev->tex_state[i];
            dev->tex_run[i] = run;
        }
        uint16_t drun = dev->tex_run[i];
        emit_view(e, i, &first, drun ? dev->subres.states + (drun - 1u) : NULL, dev->tex_state[i]);
    }
    return EG_TRACK_OK;
}

void eg_track_texture_submit_apply(eg_track_device_t *dev, const eg_track_cmd_t *cmd)
{
    EG_BITSET_FOREACH(i, cmd->tex_owned, cmd->max_textures + 1u) {
        uint32_t mips = dev->tex_mip_count[i], layers = dev->tex_layer_count[i], n = mips * layers;
        tex_view_t last = view_of(&cmd->subres, cmd->tex_run[i], n, cmd->tex_last[i], mips, layers);
        uint16_t run = dev->tex_run[i];
        if (!run) {
            dev->tex_state[i] = overlay_uniform(&last, dev->tex_state[i], mips, layers);
            continue;
        }
        uint16_t *s = dev->subres.states + (run - 1u);
        bool same = true;
        for (uint32_t j = 0; j < n; j++) {
            uint16_t u = last.states ? last.states[j] : last.uniform;
            if (u) s[j] = u;
            same = same && s[j] == s[0];
        }
        if (same) {                   /* uniform again: give the run back for other textures */
            dev->tex_state[i] = s[0];
            eg_track_subres_release(&dev->subres, run, n);
            dev->tex_run[i] = 0;
        }
    }
}
