/* The device tracker: storage, init, and submit (each command buffer's barrier, then update). */
#include "kernel/track/track.h"
#include "kernel/base/bitset.h"

static void device_layout(eg_track_device_t *d, const eg_track_caps_t *caps, eg_track_carve_t *c)
{
    uint32_t nb = caps->max_buffers + 1u, nt = caps->max_textures + 1u; /* slot 0 unused */
    d->max_buffers = caps->max_buffers;
    d->max_textures = caps->max_textures;
    d->buf_live = eg_track_carve(c, EG_BITSET_WORDS(nb) * 4u);
    d->buf_state = eg_track_carve(c, nb * 2u);
    d->tex_live = eg_track_carve(c, EG_BITSET_WORDS(nt) * 4u);
    d->tex_state = eg_track_carve(c, nt * 2u);
    d->tex_run = eg_track_carve(c, nt * 2u);
    d->tex_mip_count = eg_track_carve(c, nt);
    d->tex_layer_count = eg_track_carve(c, nt * 2u);
    eg_track_subres_init(&d->subres, c, caps);
}

size_t eg_track_device_storage_size(const eg_track_caps_t *caps)
{
    if (!eg_track_caps_valid(caps)) return 0;
    eg_track_device_t d;
    eg_track_carve_t c = { NULL, 0 };
    device_layout(&d, caps, &c);
    return EG_ALIGN_UP(c.off_B, (size_t)8);
}

eg_track_status_t eg_track_device_init(eg_track_device_t *dev, const eg_track_caps_t *caps,
                                       void *storage, eg_track_error_t *err)
{
    if (!storage || !eg_track_caps_valid(caps)) {
        eg_track_fail(err, EG_TRACK_E_BAD_SIZE, (eg_track_kind_t)0, 0);
        return EG_TRACK_E_BAD_SIZE;
    }
    eg_memset(storage, 0, eg_track_device_storage_size(caps));
    eg_track_carve_t c = { storage, 0 };
    device_layout(dev, caps, &c);
    return EG_TRACK_OK;
}

eg_track_status_t eg_track_device_submit(eg_track_device_t *dev, const eg_track_cmd_t *cmd,
                                         eg_track_transition_list_t *out, eg_track_error_t *err)
{
    EG_DEBUG_ASSERT(cmd->dev == dev);
    if (cmd->max_buffers > dev->max_buffers || cmd->max_textures > dev->max_textures) {
        eg_track_fail(err, EG_TRACK_E_BAD_SIZE, (eg_track_kind_t)0, 0);
        return EG_TRACK_E_BAD_SIZE;
    }
    /* Barrier: device state -> cmd's first uses, for the resources cmd touched only (the passes
     * walk cmd's membership bitsets). Nothing is adopted until every transition fitted. */
    eg_track_emit_t e;
    eg_track_emit_begin(&e, out);
    eg_track_status_t st = eg_track_buffer_submit_prepare(dev, cmd, &e, err);
    if (st == EG_TRACK_OK) st = eg_track_texture_submit_prepare(dev, cmd, &e, err);
    if (st == EG_TRACK_OK) st = eg_track_emit_end(&e, err);
    if (st != EG_TRACK_OK) return st;
    /* Update: once cmd has run, every resource it touched is in its last use. */
    eg_track_buffer_submit_apply(dev, cmd);
    eg_track_texture_submit_apply(dev, cmd);
    return EG_TRACK_OK;
}
