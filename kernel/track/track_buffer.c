/* Buffer state tracking: usage predicates, scope merge, command-buffer barriers, device register. */
#include "kernel/track/track.h"
#include "kernel/base/bitset.h"

/* ---- usage predicates ---- */

bool eg_track_buffer_use_is_read_only(uint16_t use)
{
    return use != 0 && (use & ~EG_TRACK_BUF_READ_ONLY_MASK) == 0;
}

/* Spec §3.4 "Resource Usages" ("compatible usage list"): a subresource's usages in one usage
 * scope are compatible iff each is input, constant, storage-read or attachment-read (all
 * read-only), OR each is storage (the "usage scope storage exception": several read-write
 * storage bindings may alias within a scope; overlapping ranges in one dispatch/draw are caught
 * by "encoder bind groups alias a writable resource", not here), OR each is attachment (the
 * "usage scope attachment exception"). Repeating an exclusive use sets the same single bit, so
 * "only read-only bits, or exactly one bit" is exactly that rule (wgpu-core's
 * invalid_resource_state: any inclusive XOR one exclusive). */
bool eg_track_buffer_use_is_compatible(uint16_t combined)
{
    return (combined & EG_TRACK_BUF_EXCLUSIVE_MASK) == 0 || eg_is_pow2_u32(combined);
}

/* Why an unchanged read-only state needs no barrier: both accesses only read, so their order
 * does not matter and no cache holds data that the other must see (wgpu-core's skip_barrier).
 * An unchanged exclusive state (storage write, then storage write in the next dispatch) still
 * needs one: the second access must see, or must not race with, the first one's writes.
 * wgpu-core also skips COLOR_TARGET -> COLOR_TARGET as "ordered"; we do not: Vulkan guarantees
 * rasterization order only within a subpass, so two render passes need a dependency. */
bool eg_track_buffer_use_skips_barrier(uint16_t from, uint16_t to)
{
    return from == to && eg_track_buffer_use_is_read_only(from);
}

const char *eg_track_buffer_use_name(uint16_t bit)
{
    switch (bit) {
    case EG_TRACK_BUF_NONE:          return "NONE";
    case EG_TRACK_BUF_COPY_SRC:      return "COPY_SRC";
    case EG_TRACK_BUF_COPY_DST:      return "COPY_DST";
    case EG_TRACK_BUF_INDEX:         return "INDEX";
    case EG_TRACK_BUF_VERTEX:        return "VERTEX";
    case EG_TRACK_BUF_UNIFORM:       return "UNIFORM";
    case EG_TRACK_BUF_STORAGE_READ:  return "STORAGE_READ";
    case EG_TRACK_BUF_STORAGE_WRITE: return "STORAGE_WRITE";
    case EG_TRACK_BUF_INDIRECT:      return "INDIRECT";
    case EG_TRACK_BUF_MAP_READ:      return "MAP_READ";
    case EG_TRACK_BUF_MAP_WRITE:     return "MAP_WRITE";
    case EG_TRACK_BUF_QUERY_RESOLVE: return "QUERY_RESOLVE";
    default:                         return "?";
    }
}

/* A use a caller may add: nonzero, known bits only, and valid on its own. */
static bool use_valid(uint16_t use)
{
    uint16_t known = EG_TRACK_BUF_READ_ONLY_MASK | EG_TRACK_BUF_EXCLUSIVE_MASK;
    return use != 0 && (use & ~known) == 0 && eg_track_buffer_use_is_compatible(use);
}

static eg_track_status_t bad_use(eg_track_error_t *err, uint32_t index, uint16_t use)
{
    eg_track_fail(err, EG_TRACK_E_BAD_USE, EG_TRACK_KIND_BUFFER, index);
    if (err) err->new_use = use;
    return EG_TRACK_E_BAD_USE;
}

static bool dev_live(const eg_track_device_t *dev, uint32_t index)
{
    return index >= 1 && index <= dev->max_buffers && eg_bitset_test(dev->buf_live, index);
}

/* ---- device tracker: register / unregister / query ---- */

eg_track_status_t eg_track_buffer_register(eg_track_device_t *dev, uint32_t index,
                                           uint16_t initial_use, eg_track_error_t *err)
{
    if (index < 1 || index > dev->max_buffers) {
        eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_BUFFER, index);
        return EG_TRACK_E_BAD_INDEX;
    }
    if (initial_use != EG_TRACK_BUF_NONE && !use_valid(initial_use))
        return bad_use(err, index, initial_use);
    eg_bitset_set(dev->buf_live, index);
    dev->buf_state[index] = initial_use;
    return EG_TRACK_OK;
}

void eg_track_buffer_unregister(eg_track_device_t *dev, uint32_t index)
{
    if (!dev_live(dev, index)) return;
    eg_bitset_clear(dev->buf_live, index);
    dev->buf_state[index] = EG_TRACK_BUF_NONE;
}

uint16_t eg_track_device_buffer_state(const eg_track_device_t *dev, uint32_t index)
{
    return dev_live(dev, index) ? dev->buf_state[index] : EG_TRACK_BUF_NONE;
}

/* ---- usage scope: merge ---- */

eg_track_status_t eg_track_buffer_merge(eg_track_scope_t *scope, uint32_t index, uint16_t use,
                                        eg_track_error_t *err)
{
    if (index > scope->max_buffers || !dev_live(scope->dev, index)) {
        eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_BUFFER, index);
        return EG_TRACK_E_BAD_INDEX;
    }
    if (!use_valid(use)) return bad_use(err, index, use);

    if (!eg_bitset_test(scope->buf_owned, index)) {          /* insert */
        eg_bitset_set(scope->buf_owned, index);
        scope->buf_use[index] = use;
        return EG_TRACK_OK;
    }
    uint16_t cur = scope->buf_use[index];
    if (!eg_track_buffer_use_is_compatible((uint16_t)(cur | use))) {
        eg_track_fail(err, EG_TRACK_E_CONFLICT, EG_TRACK_KIND_BUFFER, index);
        if (err) {
            err->existing_use = cur;
            err->new_use = use;
        }
        return EG_TRACK_E_CONFLICT;
    }
    scope->buf_use[index] = (uint16_t)(cur | use);
    return EG_TRACK_OK;
}

uint16_t eg_track_scope_buffer_use(const eg_track_scope_t *scope, uint32_t index)
{
    if (index < 1 || index > scope->max_buffers || !eg_bitset_test(scope->buf_owned, index))
        return EG_TRACK_BUF_NONE;
    return scope->buf_use[index];
}

/* ---- command-buffer tracker: barrier + update ---- */

static const eg_track_range_t whole_buffer = { 0, 1, 0, 1 };

/* The transition in front of a use: none on first sighting (the use becomes the first use and
 * the device transitions to it at submit), none when skip_barrier says so. */
static void cmd_emit_one(const eg_track_cmd_t *cmd, uint32_t index, uint16_t use, eg_track_emit_t *e)
{
    if (!eg_bitset_test(cmd->buf_owned, index)) return;
    uint16_t last = cmd->buf_last[index];
    if (!eg_track_buffer_use_skips_barrier(last, use))
        eg_track_emit(e, EG_TRACK_KIND_BUFFER, index, &whole_buffer, last, use);
}

static void cmd_apply_one(eg_track_cmd_t *cmd, uint32_t index, uint16_t use)
{
    if (!eg_bitset_test(cmd->buf_owned, index)) {             /* insert */
        eg_bitset_set(cmd->buf_owned, index);
        cmd->buf_first[index] = use;
    }
    cmd->buf_last[index] = use;                               /* update */
}

void eg_track_buffer_cmd_prepare(const eg_track_cmd_t *cmd, const eg_track_scope_t *scope,
                                 eg_track_emit_t *e)
{
    EG_BITSET_FOREACH(i, scope->buf_owned, scope->max_buffers + 1u) {
        EG_DEBUG_ASSERT(i <= cmd->max_buffers);
        cmd_emit_one(cmd, i, scope->buf_use[i], e);
    }
}

void eg_track_buffer_cmd_apply(eg_track_cmd_t *cmd, const eg_track_scope_t *scope)
{
    EG_BITSET_FOREACH(i, scope->buf_owned, scope->max_buffers + 1u)
        cmd_apply_one(cmd, i, scope->buf_use[i]);
}

eg_track_status_t eg_track_buffer_barrier(eg_track_cmd_t *cmd, uint32_t index, uint16_t use,
                                          eg_track_transition_list_t *out, eg_track_error_t *err)
{
    if (index > cmd->max_buffers || !dev_live(cmd->dev, index)) {
        eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_BUFFER, index);
        return EG_TRACK_E_BAD_INDEX;
    }
    if (!use_valid(use)) return bad_use(err, index, use);
    eg_track_emit_t e;
    eg_track_emit_begin(&e, out);
    cmd_emit_one(cmd, index, use, &e);
    eg_track_status_t st = eg_track_emit_end(&e, err);
    if (st != EG_TRACK_OK) return st;
    cmd_apply_one(cmd, index, use);
    return EG_TRACK_OK;
}

uint16_t eg_track_cmd_buffer_first(const eg_track_cmd_t *cmd, uint32_t index)
{
    if (index < 1 || index > cmd->max_buffers || !eg_bitset_test(cmd->buf_owned, index))
        return EG_TRACK_BUF_NONE;
    return cmd->buf_first[index];
}

uint16_t eg_track_cmd_buffer_last(const eg_track_cmd_t *cmd, uint32_t index)
{
    if (index < 1 || index > cmd->max_buffers || !eg_bitset_test(cmd->buf_owned, index))
        return EG_TRACK_BUF_NONE;
    return cmd->buf_last[index];
}

/* ---- device tracker: submit (barrier, then update) ---- */

eg_track_status_t eg_track_buffer_submit_prepare(const eg_track_device_t *dev,
                                                 const eg_track_cmd_t *cmd, eg_track_emit_t *e,
                                                 eg_track_error_t *err)
{
    /* Walks only the buffers cmd touched: eg_bitset_next skips 32 untouched slots per compare. */
    EG_BITSET_FOREACH(i, cmd->buf_owned, cmd->max_buffers + 1u) {
        if (!dev_live(dev, i)) {
            eg_track_fail(err, EG_TRACK_E_BAD_INDEX, EG_TRACK_KIND_BUFFER, i);
            return EG_TRACK_E_BAD_INDEX;
        }
        uint16_t cur = dev->buf_state[i], first = cmd->buf_first[i];
        /* NONE: no GPU or host access since register, so there is nothing to wait for. */
        if (cur != EG_TRACK_BUF_NONE && !eg_track_buffer_use_skips_barrier(cur, first))
            eg_track_emit(e, EG_TRACK_KIND_BUFFER, i, &whole_buffer, cur, first);
    }
    return EG_TRACK_OK;
}

void eg_track_buffer_submit_apply(eg_track_device_t *dev, const eg_track_cmd_t *cmd)
{
    EG_BITSET_FOREACH(i, cmd->buf_owned, cmd->max_buffers + 1u)
        dev->buf_state[i] = cmd->buf_last[i];
}
