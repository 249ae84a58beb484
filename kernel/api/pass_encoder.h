/* Render and compute pass encoders: one slot type (pool EG_KIND_PASS_ENCODER) and the state
 * both kinds share (bind groups, debug groups, the usage scope, the pass's own state machine).
 *
 * A pass encoder records into its parent encoder's stream. While it is open the parent is
 * "locked". A validation failure inside the pass makes the pass invalid (its message is kept by
 * the parent, as a deferred error); End then invalidates the parent, so the error surfaces at
 * Finish (spec "GPURenderCommandsMixin", "end()"). Calls on an ended pass fail at once.
 */
#ifndef EG_API_PASS_ENCODER_H
#define EG_API_PASS_ENCODER_H

#include "kernel/api/command_encoder.h"
#include "kernel/api/object.h"

typedef struct eg_pass {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (unused by soft) */
    uint8_t  is_render;
    uint8_t  ended;
    uint8_t  owns_lock;       /* this pass locked its encoder (false for a pass born invalid) */
    uint8_t  depth_read_only, stencil_read_only;
    eg_encoder_t *enc;        /* the parent; the pass holds a slot reference on it */
    uint32_t debug_depth;
    uint32_t begin_B;         /* stream offset of the BEGIN record (barriers go in front of it) */
    uint64_t draw_count, max_draw_count;
    /* attachments (render passes) */
    uint32_t width_px, height_px, sample_count, color_count;
    WGPUTextureFormat color_formats[EG_CMD_MAX_COLOR_ATTACHMENTS];
    WGPUTextureFormat depth_format;
    /* bound state */
    void *pipeline;           /* eg_render_pipeline_t * or eg_compute_pipeline_t * */
    uint8_t sizes_checked;    /* the bound buffers' sizes were checked against the pipeline's
                               * shaders since the last SetPipeline / SetBindGroup */
    eg_bind_group_t *groups[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    uint32_t vb_mask;         /* bit i: vertex buffer slot i bound */
    uint64_t vb_size_B[EMGPU_MAX_VERTEX_BUFFERS];
    eg_buffer_t *index_buffer;
    WGPUIndexFormat index_format;
    uint64_t index_size_B;
} eg_pass_t;

struct WGPURenderPassEncoderImpl { eg_pass_t p; };
struct WGPUComputePassEncoderImpl { eg_pass_t p; };

/** Takes a pass slot for encoder e (which may already be invalid). When the encoder state does
 *  not allow a pass, the pass is returned invalid and does not lock e. NULL when the pool is full
 *  (OutOfMemory reported at once, naming EMGPU_MAX_PASS_ENCODERS). */
eg_pass_t *eg_pass_begin(eg_encoder_t *e, const eg_vctx_t *v, bool is_render, WGPUStringView label);
/** Resolves a pass handle of the right kind for an entry point; fails at once on an ended pass. */
eg_pass_t *eg_pass_enter(const void *handle, bool is_render, const char *entry, eg_vctx_t *v);
/** Records a deferred error against the pass (the pass becomes invalid; End invalidates e). */
bool eg_pass_fail(eg_pass_t *p, const eg_vctx_t *v, eg_error_code_t code, const char *fmt, ...)
    EG_PRINTF(4, 5);
#define EG_PCHECK(p, v, cond, CODE, ...) \
    do { if (EG_UNLIKELY(!(cond))) return eg_pass_fail((p), (v), EG_E_##CODE, __VA_ARGS__); } while (0)

/** Appends a record for the pass (stream full: the pass and encoder become invalid). */
void *eg_pass_record(eg_pass_t *p, const eg_vctx_t *v, eg_cmd_op_t op, uint32_t size_B);
/** Merges one resource use into the encoder's usage scope (conflicts invalidate the pass). */
bool eg_pass_use_buffer(eg_pass_t *p, const eg_vctx_t *v, const eg_buffer_t *b, uint16_t use);
bool eg_pass_use_texture(eg_pass_t *p, const eg_vctx_t *v, const eg_texture_t *t,
                         const eg_track_range_t *range, uint16_t use);
/** Merges every buffer/texture use of a bind group into the scope. */
bool eg_pass_use_bind_group(eg_pass_t *p, const eg_vctx_t *v, const eg_bind_group_t *bg);

/** Shared entry-point bodies. */
void eg_pass_set_bind_group(eg_pass_t *p, const eg_vctx_t *v, uint32_t index, WGPUBindGroup group,
                            size_t count, const uint32_t *offsets);
/** Spec "validate the bind groups are compatible with the pipeline layout" (draw/dispatch). */
struct eg_stage;
/** Spec "validate encoder bind groups": a compatible group bound at every index the layout uses,
 *  and every buffer whose layout entry has minBindingSize 0 bound with at least the size the
 *  stages' shaders need (checked once per SetPipeline / SetBindGroup change). */
bool eg_pass_check_bind_groups(eg_pass_t *p, const eg_vctx_t *v, const eg_pipeline_layout_t *layout,
                               const struct eg_stage *const *stages, uint32_t stage_count);
void eg_pass_debug(eg_pass_t *p, const eg_vctx_t *v, eg_cmd_op_t op, WGPUStringView label);
/** Ends the pass: unlocks the encoder, invalidates it for an invalid pass or open debug groups,
 *  writes end_op. */
bool eg_pass_end(eg_pass_t *p, const eg_vctx_t *v, eg_cmd_op_t end_op);
void eg_pass_release(eg_pass_t *p);
/** Indirect-buffer rules shared by draws and dispatches (usage, offset alignment, bounds). */
bool eg_pass_check_indirect(eg_pass_t *p, const eg_vctx_t *v, const eg_buffer_t *b,
                            uint64_t offset_B, uint32_t args_B);
/** Slot index of a pooled object (tracker index). */
uint32_t eg_pass_slot_index(const void *object, eg_kind_t kind);

#endif /* EG_API_PASS_ENCODER_H */
