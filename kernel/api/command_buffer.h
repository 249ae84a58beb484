/* Command encoders and command buffers: one slot type (pool EG_KIND_COMMAND_BUFFER).
 *
 * An encoder becomes its command buffer at Finish: wgpuCommandEncoderFinish returns the same
 * slot seen through the WGPUCommandBuffer type, so a recorded stream never moves and one pool
 * slot serves both. The two handle types keep separate reference counts (enc_refs, cb_refs);
 * slot.refs is their sum, and the slot is freed (or DOOMED while its submission runs) when both
 * reach zero. A pass encoder holds one more slot reference while it lives.
 *
 * Deferred errors (spec "encoder state"): most validation failures inside an encoder make it
 * invalid and are reported at Finish, not at the call. The first such error is kept here
 * (err_code, err_msg) and Finish reports it. Calls on a finished ("ended") encoder or pass
 * report at once.
 *
 * The slot's stream memory (EMGPU_COMMAND_STREAM_BYTES) holds, in this order: the command-buffer
 * tracker, the encoder's usage scope (both sized from the pool capacities) and the command stream.
 */
#ifndef EG_API_COMMAND_BUFFER_H
#define EG_API_COMMAND_BUFFER_H

#include "kernel/api/error.h"
#include "kernel/api/object.h"
#include "kernel/cmd/cmd.h"
#include "kernel/track/track.h"

typedef enum eg_encoder_state {
    EG_ENCODER_OPEN = 0,      /* commands may be recorded */
    EG_ENCODER_LOCKED,        /* a pass is open: the encoder's own commands invalidate it */
    EG_ENCODER_ENDED,         /* Finish was called: every further call is an immediate error */
} eg_encoder_state_t;

struct WGPUCommandEncoderImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (unused by soft) */
    uint8_t  state;           /* eg_encoder_state_t */
    uint8_t  is_cb;           /* Finish returned the command buffer (this slot) */
    uint8_t  submitted;       /* consumed by a successful Submit */
    uint8_t  tracking;        /* the device has a tracker: transitions are recorded */
    uint32_t enc_refs, cb_refs;
    uint32_t debug_depth;     /* open debug groups on the encoder itself */
    uint32_t barrier_B;       /* size of the device barrier placed in front at submit (0: none) */
    eg_cmd_stream_t stream;
    eg_track_cmd_t  track;    /* first/last use of every resource in this command buffer */
    eg_track_scope_t scope;   /* usage scope of the open render pass or of one dispatch */
    eg_error_code_t err_code; /* first deferred error (EG_E_NONE: valid) */
    WGPUErrorType   err_type;
    char err_msg[EMGPU_ERROR_MESSAGE_MAX];
};
typedef struct WGPUCommandEncoderImpl eg_encoder_t;

/* The command buffer handle type names the same slot after Finish. */
struct WGPUCommandBufferImpl {
    eg_encoder_t enc;
};

/** Records the first deferred error of e (formatted "entry \"label\": message") and marks e
 *  invalid. Returns false, so that a check can `return eg_encoder_fail(...)`. */
bool eg_encoder_fail(eg_encoder_t *e, const eg_vctx_t *v, WGPUErrorType type, eg_error_code_t code,
                     const char *fmt, ...) EG_PRINTF(5, 6);
/** Deferred validation check: on failure the encoder becomes invalid, the call returns false. */
#define EG_DCHECK(e, v, cond, CODE, ...) \
    do { if (EG_UNLIKELY(!(cond))) return eg_encoder_fail((e), (v), WGPUErrorType_Validation, \
                                                           EG_E_##CODE, __VA_ARGS__); } while (0)

/** Appends a record and AddRefs the objects it names; NULL (encoder invalid, OutOfMemory
 *  reported at Finish) when the stream is full. Fill the record's object fields BEFORE calling
 *  eg_encoder_hold_refs. */
void *eg_encoder_record(eg_encoder_t *e, eg_cmd_op_t op, uint32_t size_B);
void  eg_encoder_hold_refs(const eg_cmd_header_t *h);
/** Reports OutOfMemory for a full stream (deferred). */
bool  eg_encoder_stream_full(eg_encoder_t *e, const eg_vctx_t *v);
/** Reports a tracker failure (conflict naming both uses, or a full table) as a deferred error. */
bool  eg_encoder_track_fail(eg_encoder_t *e, const eg_vctx_t *v, const eg_track_error_t *err);
/** Writes the barrier for one buffer / texture use outside a pass (copy, clear). */
bool  eg_encoder_barrier_buffer(eg_encoder_t *e, const eg_vctx_t *v, const eg_buffer_t *b, uint16_t use);
bool  eg_encoder_barrier_texture(eg_encoder_t *e, const eg_vctx_t *v, const eg_texture_t *t,
                                 const eg_track_range_t *range, uint16_t use);
/** Folds e->scope into the command-buffer tracker and places its transitions at stream offset
 *  at_B (the pass's begin record, or the current tail for a dispatch). */
bool  eg_encoder_barrier_scope(eg_encoder_t *e, const eg_vctx_t *v, uint32_t at_B);

/** Drops one slot reference (encoder, command buffer or pass); frees or dooms at zero. */
void  eg_encoder_unref(eg_encoder_t *e);
/** Frees the slot: releases every object its stream references. Called by eg_device_poll for a
 *  DOOMED command buffer once its submission completed, and at the last Release otherwise. */
void  eg_command_buffer_free(eg_encoder_t *e);

/** Resolves an argument handle for use inside an encoder: NULL, stale, wrong kind, invalid,
 *  other device and destroyed are deferred errors. `what` names the parameter. */
bool  eg_encoder_check_object(eg_encoder_t *e, const eg_vctx_t *v, const void *handle,
                              eg_kind_t kind, const char *what);

#endif /* EG_API_COMMAND_BUFFER_H */
