/* Command streams: the encoding that command encoders write and backends read.
 *
 * ENCODING
 * ========
 * A command stream is a run of records in one fixed block of memory: the stream memory of its
 * command-buffer slot (EMGPU_COMMAND_STREAM_BYTES, handed out by the instance). Every record
 * starts with an 8-byte header {op, size_B}; size_B counts the header and is a multiple of 8, so
 * a reader steps from record to record with `p += hdr->size_B` and every record is 8-byte
 * aligned (pointers and uint64_t fields inside need no unaligned access on Cortex-M or AArch64).
 * The stream ends at `used_B`; there is no terminator record.
 *
 * Object references are plain kernel pointers (eg_buffer_t *, eg_texture_view_t *, ...). They are
 * safe because the command buffer holds a reference on every object a record names: the encoder
 * AddRefs each one when it writes the record (eg_cmd_refs() lists a record's objects) and the
 * command buffer Releases them when it is freed, which happens only after its submission has
 * completed. At submit, every referenced object gets obj.last_submit set to the submission index.
 *
 * Transitions. The kernel's tracker (kernel/track) decides every resource-state change;
 * EG_CMD_BARRIER records carry its transitions (eg_track_transition_t, 16 bytes each) and are
 * placed in front of what needs them: before each copy or clear, before each dispatch, and before
 * each render pass (a render pass's transitions are only known at End, so End writes them at the
 * tail and rotates them in front of EG_CMD_BEGIN_RENDER_PASS in place). The transitions from the
 * device's state to a command buffer's first uses are made at submit (eg_command_buffer_submit_*
 * in kernel/api/command_buffer.h) into a separate barrier-only stream placed before it.
 * A backend maps each transition to its own barrier (none on soft) and never derives state.
 *
 * All values in records are validated and resolved (no *_UNDEFINED sentinels left, read-only
 * depth/stencil aspects carry LoadOp_Load/StoreOp_Store), so a backend can execute blindly.
 */
#ifndef EG_CMD_H
#define EG_CMD_H

#include <webgpu/webgpu.h>

#include "kernel/base/util.h"   /* before hal.h, which uses bool */
#include "hal/hal.h"
#include "kernel/api/object.h"
#include "kernel/track/track.h"

/** Most color attachments a render pass record holds (WebGPU maxColorAttachments is at most 8). */
#define EG_CMD_MAX_COLOR_ATTACHMENTS 8u
/** Most dynamic offsets one SetBindGroup record holds (maxDynamic{Uniform,Storage}BuffersPerPipelineLayout sum). */
#define EG_CMD_MAX_DYNAMIC_OFFSETS 16u
/** Longest debug label kept in a record (longer ones are truncated). */
#define EG_CMD_LABEL_MAX 32u

typedef enum eg_cmd_op {
    EG_CMD_NONE = 0,
    EG_CMD_BARRIER,
    EG_CMD_COPY_BUFFER_TO_BUFFER,
    EG_CMD_COPY_BUFFER_TO_TEXTURE,
    EG_CMD_COPY_TEXTURE_TO_BUFFER,
    EG_CMD_COPY_TEXTURE_TO_TEXTURE,
    EG_CMD_CLEAR_BUFFER,
    EG_CMD_BEGIN_RENDER_PASS,
    EG_CMD_END_RENDER_PASS,
    EG_CMD_BEGIN_COMPUTE_PASS,
    EG_CMD_END_COMPUTE_PASS,
    EG_CMD_SET_RENDER_PIPELINE,
    EG_CMD_SET_COMPUTE_PIPELINE,
    EG_CMD_SET_BIND_GROUP,
    EG_CMD_SET_VERTEX_BUFFER,
    EG_CMD_SET_INDEX_BUFFER,
    EG_CMD_SET_VIEWPORT,
    EG_CMD_SET_SCISSOR_RECT,
    EG_CMD_SET_BLEND_CONSTANT,
    EG_CMD_SET_STENCIL_REFERENCE,
    EG_CMD_DRAW,
    EG_CMD_DRAW_INDEXED,
    EG_CMD_DRAW_INDIRECT,
    EG_CMD_DRAW_INDEXED_INDIRECT,
    EG_CMD_DISPATCH,
    EG_CMD_DISPATCH_INDIRECT,
    EG_CMD_PUSH_DEBUG_GROUP,
    EG_CMD_POP_DEBUG_GROUP,
    EG_CMD_INSERT_DEBUG_MARKER,
    EG_CMD_OP_COUNT
} eg_cmd_op_t;

typedef struct eg_cmd_header {
    uint16_t op;          /* eg_cmd_op_t */
    uint16_t reserved;
    uint32_t size_B;      /* whole record, header included; multiple of 8 */
} eg_cmd_header_t;

/* ---- records ---- */

typedef struct eg_cmd_barrier {
    eg_cmd_header_t hdr;
    uint32_t count;
    uint32_t reserved;
    /* eg_track_transition_t items[count] follow (eg_cmd_barrier_items) */
} eg_cmd_barrier_t;

typedef struct eg_cmd_copy_b2b {
    eg_cmd_header_t hdr;
    eg_buffer_t *src, *dst;
    uint64_t src_offset_B, dst_offset_B, size_B;
} eg_cmd_copy_b2b_t;

/* EG_CMD_COPY_BUFFER_TO_TEXTURE and EG_CMD_COPY_TEXTURE_TO_BUFFER. */
typedef struct eg_cmd_copy_bt {
    eg_cmd_header_t hdr;
    eg_buffer_t *buffer;
    eg_texture_t *texture;
    eg_buffer_layout_t layout;       /* bytes_per_row_B and rows_per_image resolved */
    eg_texel_region_t region;        /* aspect resolved to one aspect */
} eg_cmd_copy_bt_t;

typedef struct eg_cmd_copy_t2t {
    eg_cmd_header_t hdr;
    eg_texture_t *src, *dst;
    eg_texel_region_t src_region, dst_region;   /* same extent */
} eg_cmd_copy_t2t_t;

typedef struct eg_cmd_clear_buffer {
    eg_cmd_header_t hdr;
    eg_buffer_t *buffer;
    uint64_t offset_B, size_B;
} eg_cmd_clear_buffer_t;

typedef struct eg_cmd_color_attachment {
    eg_texture_view_t *view;             /* NULL: an unused slot (sparse attachments) */
    eg_texture_view_t *resolve_target;   /* may be NULL */
    uint32_t depth_slice;                /* 0 unless the view is 3D */
    uint32_t load_op, store_op;          /* WGPULoadOp, WGPUStoreOp */
    uint32_t reserved;
    WGPUColor clear_value;               /* as given; the backend converts to the format */
} eg_cmd_color_attachment_t;

typedef struct eg_cmd_depth_stencil_attachment {
    eg_texture_view_t *view;             /* NULL: none */
    uint32_t depth_load_op, depth_store_op;       /* Load/Store when read-only or no depth aspect */
    float    depth_clear_value;
    uint32_t depth_read_only;
    uint32_t stencil_load_op, stencil_store_op;
    uint32_t stencil_clear_value;
    uint32_t stencil_read_only;
} eg_cmd_depth_stencil_attachment_t;

typedef struct eg_cmd_begin_render_pass {
    eg_cmd_header_t hdr;
    uint32_t width_px, height_px;        /* render area: the attachments' common size */
    uint32_t sample_count;
    uint32_t color_count;                /* entries in color[] (slots, including unused ones) */
    eg_cmd_depth_stencil_attachment_t depth_stencil;
    eg_cmd_color_attachment_t color[EG_CMD_MAX_COLOR_ATTACHMENTS];
} eg_cmd_begin_render_pass_t;

typedef struct eg_cmd_set_pipeline {        /* SET_RENDER_PIPELINE / SET_COMPUTE_PIPELINE */
    eg_cmd_header_t hdr;
    void *pipeline;                          /* eg_render_pipeline_t * or eg_compute_pipeline_t * */
} eg_cmd_set_pipeline_t;

typedef struct eg_cmd_set_bind_group {
    eg_cmd_header_t hdr;
    eg_bind_group_t *group;                  /* NULL unbinds */
    uint32_t index;
    uint32_t dynamic_offset_count;
    uint32_t dynamic_offsets[EG_CMD_MAX_DYNAMIC_OFFSETS];
} eg_cmd_set_bind_group_t;

typedef struct eg_cmd_set_buffer {          /* SET_VERTEX_BUFFER / SET_INDEX_BUFFER */
    eg_cmd_header_t hdr;
    eg_buffer_t *buffer;                     /* NULL unbinds (vertex only) */
    uint64_t offset_B, size_B;               /* size resolved (WGPU_WHOLE_SIZE replaced) */
    uint32_t slot;                           /* vertex slot */
    uint32_t index_format;                   /* WGPUIndexFormat (index only) */
} eg_cmd_set_buffer_t;

typedef struct eg_cmd_set_viewport {
    eg_cmd_header_t hdr;
    float x, y, width, height, min_depth, max_depth;
} eg_cmd_set_viewport_t;

typedef struct eg_cmd_set_scissor {
    eg_cmd_header_t hdr;
    uint32_t x, y, width, height;
} eg_cmd_set_scissor_t;

typedef struct eg_cmd_set_blend_constant {
    eg_cmd_header_t hdr;
    WGPUColor color;
} eg_cmd_set_blend_constant_t;

typedef struct eg_cmd_set_stencil_ref {
    eg_cmd_header_t hdr;
    uint32_t reference;
    uint32_t reserved;
} eg_cmd_set_stencil_ref_t;

typedef struct eg_cmd_draw {                /* DRAW and DRAW_INDEXED */
    eg_cmd_header_t hdr;
    uint32_t count;                          /* vertexCount or indexCount */
    uint32_t instance_count;
    uint32_t first;                          /* firstVertex or firstIndex */
    int32_t  base_vertex;                    /* DRAW_INDEXED only */
    uint32_t first_instance;
    uint32_t reserved;
} eg_cmd_draw_t;

typedef struct eg_cmd_indirect {            /* DRAW_INDIRECT, DRAW_INDEXED_INDIRECT, DISPATCH_INDIRECT */
    eg_cmd_header_t hdr;
    eg_buffer_t *buffer;
    uint64_t offset_B;
} eg_cmd_indirect_t;

typedef struct eg_cmd_dispatch {
    eg_cmd_header_t hdr;
    uint32_t x, y, z;
    uint32_t reserved;
} eg_cmd_dispatch_t;

typedef struct eg_cmd_debug {               /* PUSH_DEBUG_GROUP, POP_DEBUG_GROUP, INSERT_DEBUG_MARKER */
    eg_cmd_header_t hdr;
    char label[EG_CMD_LABEL_MAX];            /* NUL-terminated, truncated */
} eg_cmd_debug_t;

/* ---- streams ---- */

typedef struct eg_cmd_stream {
    uint8_t *base;
    uint32_t cap_B, used_B;
    bool     full;            /* a write did not fit: the encoder is invalid (OutOfMemory) */
} eg_cmd_stream_t;

void eg_cmd_stream_init(eg_cmd_stream_t *s, void *mem, uint32_t cap_B);

/** Appends a zeroed record of size_B bytes (rounded up to 8) with op set; NULL and s->full set
 *  when it does not fit. */
void *eg_cmd_alloc(eg_cmd_stream_t *s, eg_cmd_op_t op, uint32_t size_B);
/** Starts a barrier record at the tail and points `list` at the free space behind it, so that
 *  the tracker writes transitions straight into the stream. Commit with eg_cmd_barrier_end (an
 *  empty list writes nothing). False (s->full set) when not even the header fits. */
bool eg_cmd_barrier_begin(eg_cmd_stream_t *s, eg_track_transition_list_t *list);
/** Commits the barrier begun at the tail with list->count transitions; returns its size (0 when
 *  the list is empty and nothing was written). */
uint32_t eg_cmd_barrier_end(eg_cmd_stream_t *s, const eg_track_transition_list_t *list);
/** Moves the bytes [from_B, used_B - tail_B) behind the last tail_B bytes: the tail ends up at
 *  from_B (an in-place rotation, no scratch memory). Used to place a pass's barrier before it. */
void eg_cmd_rotate_tail(eg_cmd_stream_t *s, uint32_t from_B, uint32_t tail_B);

static inline const eg_track_transition_t *eg_cmd_barrier_items(const eg_cmd_barrier_t *b)
{
    return (const eg_track_transition_t *)(const void *)((const uint8_t *)b + sizeof *b);
}

/** Reader: first record, or NULL at the end. Usage:
 *  for (const eg_cmd_header_t *h = eg_cmd_first(s); h; h = eg_cmd_next(s, h)) switch (h->op) ... */
const eg_cmd_header_t *eg_cmd_first(const eg_cmd_stream_t *s);
const eg_cmd_header_t *eg_cmd_next(const eg_cmd_stream_t *s, const eg_cmd_header_t *h);

/** Most objects one record references. */
#define EG_CMD_MAX_REFS (2u * EG_CMD_MAX_COLOR_ATTACHMENTS + 1u)
/** The objects a record references (each starts with eg_object_t), written to out; returns how
 *  many. Used to AddRef at record, Release at free and stamp obj.last_submit at submit. */
uint32_t eg_cmd_refs(const eg_cmd_header_t *h, eg_object_t *out[EG_CMD_MAX_REFS]);

/** Copies a WGPUStringView into a record label (truncated, NUL-terminated). */
void eg_cmd_copy_label(char dst[EG_CMD_LABEL_MAX], WGPUStringView s);

#endif /* EG_CMD_H */
