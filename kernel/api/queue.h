/* Queues: the Impl struct (one per device, pool EG_KIND_QUEUE) and the submit contract with
 * command buffers.
 *
 * wgpuQueueSubmit validates every command buffer through eg_command_buffer_prepare_submit (all of
 * them before any is submitted: a failing one fails the whole Submit, as the spec says), assigns
 * the next submission index, hands the streams to hal->queue_submit, then marks each command
 * buffer submitted (eg_command_buffer_mark_submitted: it becomes invalid for re-submission and
 * records the index into every resource it used) and polls the device.
 */
#ifndef EG_API_QUEUE_H
#define EG_API_QUEUE_H

#include <webgpu/webgpu.h>

#include "kernel/api/error.h"
#include "kernel/api/object.h"

struct eg_cmd_stream;

struct WGPUQueueImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles */
};

/* ---- implemented by kernel/api/command_buffer.c (helper "commands") ---- */

/** Submit-time checks of one command buffer (spec: queue.submit(), "validate the command
 *  buffers"): a live, valid command buffer of v->device, not already submitted, every resource it
 *  uses alive, not destroyed and not mapped. On success *out is its finished stream. On failure
 *  it reports through v (EG_CHECK) and returns false; nothing is changed. */
bool eg_command_buffer_prepare_submit(const eg_vctx_t *v, WGPUCommandBuffer cb,
                                      const struct eg_cmd_stream **out);
/** Called after hal->queue_submit accepted the streams: the command buffer is consumed, and every
 *  object it references gets obj.last_submit = index (for deferred destruction and maps). */
/* After every command buffer of a Submit passed prepare_submit: places the device tracker's
 * transitions in front of cb's stream and adopts its last uses as the device state. Called in
 * submission order, only once the whole Submit is known valid, so a rejected Submit leaves the
 * tracker untouched. Fails only when the stream has no room for the barrier (OutOfMemory). */
bool eg_command_buffer_place_submit_barrier(const eg_vctx_t *v, WGPUCommandBuffer cb);
void eg_command_buffer_mark_submitted(WGPUCommandBuffer cb, uint64_t index);

/** Banded surface frames (strip-mode surfaces, docs/displays.md "Banded rendering") one Submit
 *  draws into: they keep no pixels between render passes, so a frame takes one pass only. */
typedef struct eg_band_frames {
    struct WGPUTextureImpl *tex[EMGPU_MAX_SURFACES];
    uint32_t count;
} eg_band_frames_t;

/** Ours: fails (Validation) when cb has a render pass into a banded frame that an earlier pass
 *  of this Submit or an earlier Submit already drew into; else adds cb's banded frames to f. */
bool eg_command_buffer_check_band_passes(const eg_vctx_t *v, WGPUCommandBuffer cb, eg_band_frames_t *f);

#endif /* EG_API_QUEUE_H */
