/* Resource-state tracker: usage scopes, command-buffer trackers, the device tracker.
 *
 * DESIGN
 * ======
 * Every backend needs to know, before each command, which state each buffer and texture
 * subresource is in and which state the command needs it in: Vulkan turns the pair into a
 * pipeline barrier and an image-layout change, D3D12 into a resource barrier, GLES into a
 * glMemoryBarrier, soft into nothing. The kernel derives these pairs once, here, and hands every
 * backend the same transition list (eg_track_transition_t). Backends never re-derive state.
 *
 * States are usage bit sets (EG_TRACK_BUF_*, EG_TRACK_TEX_*), one uint16_t per buffer and per
 * texture subresource. Each bit is either read-only ("inclusive": any number of them may be
 * combined) or exclusive (it must be alone). eg_track_*_use_is_compatible() is the whole rule:
 * a state is valid when it holds only read-only bits, or exactly one bit.
 *
 * Layout. Resources are named by their object-pool slot index (1..capacity; 0 is never used),
 * so every tracker is a set of flat arrays indexed by that slot index (structure of arrays), plus
 * one membership bitset per resource kind. The hot loops (merging a pass into a command buffer,
 * submitting a command buffer) walk a bitset with eg_bitset_next(), which skips 32 untouched
 * resources with one compare, and then touch only the state arrays (wgpu-core's
 * track/metadata.rs design). Nothing is allocated: every tracker's arrays are carved at init
 * from one caller-provided block whose size eg_track_*_storage_size() returns.
 *
 * Texture subresources. A texture subresource is (mip level, array layer); the aspect is not
 * tracked: depth and stencil share one state (see EG_TRACK_TEX_DEPTH_STENCIL_WRITE). Most
 * textures are used as a whole, so each texture slot holds one "uniform" state word plus a
 * 16-bit run handle, 0 meaning "uniform". Only when a texture's subresources diverge (rendering
 * into mip 1 while sampling mip 0, a partial copy) does the tracker take a run of
 * mip_count * layer_count state words (times two in a command-buffer tracker: first and last
 * use) from its bounded subresource table (eg_track_subres_t), wgpu-core's "simple" and
 * "complex" texture states. The table's size is a knob (eg_track_caps_t.subresource_states);
 * when it runs out, the call fails with EG_TRACK_E_SUBRESOURCE_FULL naming that knob.
 * Entry s of a run is subresource (mip, layer) with s = mip * layer_count + layer. The device
 * tracker gives a run back as soon as the texture is uniform again; scope and command-buffer
 * trackers give everything back at reset.
 *
 * THE FOUR PRIMITIVES (named as in wgpu-core's track/mod.rs)
 * ----------------------------------------------------------
 *   insert   first sighting of a resource in a tracker: record its state, emit nothing.
 *   merge    combine a use with the state already there, within one usage scope: read-only
 *            uses OR together, an exclusive use must be alone. A clash is a conflict error.
 *   barrier  compare a new state with the tracked one and emit a transition where they differ
 *            (skipping unchanged read-only states, see eg_track_buffer_use_skips_barrier()).
 *            Barrier only reads state, so it can fail (output full) with nothing changed.
 *   update   overwrite the tracked state with the new one, emitting nothing. It runs only
 *            after the matching barrier succeeded, which makes every call all-or-nothing.
 *
 *                           insert              merge        barrier              update
 *   usage scope  (pass)     first use in pass   later uses   -                    -
 *   command buffer tracker  first = last = use  -            last -> new use      last = new
 *   device tracker          register: reset     -            current -> cmd first current = cmd last
 *
 * Usage scope (eg_track_scope_t): one per render pass, and one per compute dispatch (WebGPU
 *   "usage scope"). eg_track_buffer_merge()/eg_track_texture_merge() add a use and validate.
 * Command-buffer tracker (eg_track_cmd_t): keeps, per resource and subresource, the first use in
 *   the command buffer (the state it expects when it starts) and the last use. At the end of a
 *   pass, eg_track_cmd_barrier() folds the pass's scope in and returns the transitions to record
 *   before the pass; a copy or clear outside passes is a one-use scope of its own
 *   (eg_track_buffer_barrier()/eg_track_texture_barrier()).
 * Device tracker (eg_track_device_t): the state each resource is in once everything submitted
 *   so far has run. eg_track_device_submit() returns the transitions from that state to each
 *   command buffer's first uses (recorded in front of that command buffer), then adopts its last
 *   uses. Resources register on create and unregister on destroy, which resets their state.
 *
 * Order of use, per command buffer:
 *     eg_track_cmd_reset(cmd);
 *     per pass:  eg_track_scope_reset(scope); merge every use; eg_track_cmd_barrier(cmd, scope, out)
 *     per copy:  eg_track_buffer_barrier(cmd, ...) / eg_track_texture_barrier(cmd, ...)
 *     at submit: eg_track_device_submit(dev, cmd, out), one call per command buffer, in order.
 *
 * Errors: every fallible call returns eg_track_status_t and, when not EG_TRACK_OK, fills the
 * caller's eg_track_error_t (which may be NULL). A failed call changes no tracked state.
 * Threads: none of this locks. A scope and a command-buffer tracker belong to one encoder; the
 * device tracker is used under the queue's lock. Scopes and command-buffer trackers read texture
 * mip/layer counts from the device tracker, which changes them only on register.
 */
#ifndef EG_TRACK_H
#define EG_TRACK_H

#include "kernel/base/util.h"

/* ---- usage bits ----------------------------------------------------------------------------
 * Mapping to the WebGPU spec's internal usages (spec §3.4 "Resource Usages"):
 *   input = INDEX, VERTEX, INDIRECT       constant = UNIFORM, SAMPLED
 *   storage-read = STORAGE_READ            storage = STORAGE_WRITE (read-write storage binding)
 *   attachment = COLOR_TARGET (also resolve targets), DEPTH_STENCIL_WRITE
 *   attachment-read = DEPTH_STENCIL_READ
 * COPY_*, MAP_*, QUERY_RESOLVE and PRESENT are not usage-scope usages (they are whole commands
 * or host accesses, and the kernel never merges them into a scope); they still need
 * transitions, so they are states here too. */

#define EG_TRACK_BUF_NONE           0x0000u /* not used since register (no transition needed) */
#define EG_TRACK_BUF_COPY_SRC       0x0001u /* read-only: copy source */
#define EG_TRACK_BUF_COPY_DST       0x0002u /* exclusive: copy destination, writeBuffer, clear */
#define EG_TRACK_BUF_INDEX          0x0004u /* read-only: index buffer */
#define EG_TRACK_BUF_VERTEX         0x0008u /* read-only: vertex buffer */
#define EG_TRACK_BUF_UNIFORM        0x0010u /* read-only: uniform binding */
#define EG_TRACK_BUF_STORAGE_READ   0x0020u /* read-only: read-only-storage binding */
#define EG_TRACK_BUF_STORAGE_WRITE  0x0040u /* exclusive: read-write storage binding */
#define EG_TRACK_BUF_INDIRECT       0x0080u /* read-only: indirect draw/dispatch arguments */
#define EG_TRACK_BUF_MAP_READ       0x0100u /* read-only: host reads (mapAsync READ) */
#define EG_TRACK_BUF_MAP_WRITE      0x0200u /* exclusive: host writes (mapAsync WRITE, mappedAtCreation) */
#define EG_TRACK_BUF_QUERY_RESOLVE  0x0400u /* exclusive: resolveQuerySet destination */
#define EG_TRACK_BUF_READ_ONLY_MASK 0x01BDu /* COPY_SRC|INDEX|VERTEX|UNIFORM|STORAGE_READ|INDIRECT|MAP_READ */
#define EG_TRACK_BUF_EXCLUSIVE_MASK 0x0642u /* COPY_DST|STORAGE_WRITE|MAP_WRITE|QUERY_RESOLVE */

#define EG_TRACK_TEX_NONE                0x0000u /* subresource untouched (scope / command buffer only) */
#define EG_TRACK_TEX_UNINITIALIZED       0x0001u /* device state after register: contents undefined
                                                  * (Vulkan VK_IMAGE_LAYOUT_UNDEFINED); never a use */
#define EG_TRACK_TEX_COPY_SRC            0x0002u /* read-only */
#define EG_TRACK_TEX_COPY_DST            0x0004u /* exclusive: copy destination, writeTexture, clear */
#define EG_TRACK_TEX_SAMPLED             0x0008u /* read-only: texture binding */
#define EG_TRACK_TEX_STORAGE_READ        0x0010u /* read-only: read-only storage texture */
#define EG_TRACK_TEX_STORAGE_WRITE       0x0020u /* exclusive: write-only or read-write storage texture */
#define EG_TRACK_TEX_COLOR_TARGET        0x0040u /* exclusive: color attachment or resolve target */
#define EG_TRACK_TEX_DEPTH_STENCIL_READ  0x0080u /* read-only: depth/stencil attachment, all aspects read-only */
#define EG_TRACK_TEX_DEPTH_STENCIL_WRITE 0x0100u /* exclusive: depth/stencil attachment, any aspect written.
                                                  * Aspects are not tracked apart, so sampling depth while
                                                  * writing stencil in one pass, which WebGPU allows, is a
                                                  * conflict here. */
#define EG_TRACK_TEX_PRESENT             0x0200u /* exclusive: handed to the presentation engine */
#define EG_TRACK_TEX_READ_ONLY_MASK      0x009Au /* COPY_SRC|SAMPLED|STORAGE_READ|DEPTH_STENCIL_READ */
#define EG_TRACK_TEX_EXCLUSIVE_MASK      0x0364u /* COPY_DST|STORAGE_WRITE|COLOR_TARGET|DEPTH_STENCIL_WRITE|PRESENT */

/* Subresource limits. WebGPU's default limits give at most 14 mips (maxTextureDimension2D 8192
 * -> log2(8192) + 1) and 256 layers (maxTextureArrayLayers); 16 mips leaves room for adapters
 * with larger limits. 3D textures register layer_count 1: depth slices are not subresources. */
#define EG_TRACK_MAX_MIPS   16u
#define EG_TRACK_MAX_LAYERS 256u
#define EG_TRACK_MAX_INDEX  65535u  /* slot indices and run handles are 16-bit */

/** True when use is nonzero and every bit in it is read-only. */
bool eg_track_buffer_use_is_read_only(uint16_t use);
/** True when `combined` may be a buffer's state within one usage scope: only read-only bits, or
 *  exactly one bit (WebGPU "compatible usage list"; see track_buffer.c). 0 is compatible. */
bool eg_track_buffer_use_is_compatible(uint16_t combined);
/** True when going from `from` to `to` needs no barrier: same state, and read-only. */
bool eg_track_buffer_use_skips_barrier(uint16_t from, uint16_t to);
/** Name of one bit ("COPY_SRC"), "NONE" for 0, "?" for anything else. */
const char *eg_track_buffer_use_name(uint16_t bit);

bool eg_track_texture_use_is_read_only(uint16_t use);
bool eg_track_texture_use_is_compatible(uint16_t combined);
bool eg_track_texture_use_skips_barrier(uint16_t from, uint16_t to);
const char *eg_track_texture_use_name(uint16_t bit);

/* ---- shared types ---- */

typedef enum eg_track_kind { EG_TRACK_KIND_BUFFER = 1, EG_TRACK_KIND_TEXTURE = 2 } eg_track_kind_t;

/** Writes the names of the bits of `uses` joined by '|' ("SAMPLED|DEPTH_STENCIL_READ") into buf,
 *  always NUL-terminated and truncated to cap_B. Returns the characters written. */
size_t eg_track_use_format(eg_track_kind_t kind, uint16_t uses, char *buf, size_t cap_B);

/** Texture subresources [base_mip, base_mip + mip_count) x [base_layer, base_layer + layer_count).
 *  Both counts are at least 1; the kernel resolves a view's "undefined" counts before calling. */
typedef struct eg_track_range {
    uint16_t base_mip, mip_count;
    uint16_t base_layer, layer_count;
} eg_track_range_t;

/** One transition, what a backend consumes (16 bytes, no pointers).
 *  Buffers: range is {0, 1, 0, 1}. from_use is the state the subresources are in; to_use the state
 *  the next command needs. to_use is never NONE or UNINITIALIZED. from_use may be
 *  EG_TRACK_TEX_UNINITIALIZED (contents may be discarded: a layout change from UNDEFINED). A
 *  transition with from_use == to_use orders two accesses of an exclusive state (write after
 *  write: a Vulkan memory barrier, a D3D12 UAV barrier). */
typedef struct eg_track_transition {
    uint8_t  kind;                /* eg_track_kind_t */
    uint8_t  reserved;            /* 0 */
    uint16_t index;               /* pool slot index, 1..capacity */
    uint16_t from_use, to_use;
    eg_track_range_t range;
} eg_track_transition_t;

/** Caller-owned output array. Calls append at items[count..cap); on EG_TRACK_E_TRANSITIONS_FULL
 *  count is left as it was (entries past it may have been overwritten) and the error says how
 *  many entries the call needed. items may be NULL when cap is 0. */
typedef struct eg_track_transition_list {
    eg_track_transition_t *items;
    uint32_t cap, count;
    const char *knob;             /* what sized the array, quoted in the error; may be NULL */
} eg_track_transition_list_t;

typedef enum eg_track_status {
    EG_TRACK_OK = 0,
    EG_TRACK_E_CONFLICT,          /* usage-scope rule broken; see kind, index, range, both uses */
    EG_TRACK_E_SUBRESOURCE_FULL,  /* subresource table full; see knob, capacity, in_use, needed */
    EG_TRACK_E_TRANSITIONS_FULL,  /* output array full; see knob, capacity, needed */
    EG_TRACK_E_BAD_INDEX,         /* index 0, past capacity, or not registered with the device */
    EG_TRACK_E_BAD_RANGE,         /* empty range, or past the texture's mip/layer counts */
    EG_TRACK_E_BAD_USE,           /* 0, unknown bits, UNINITIALIZED, or not compatible by itself */
    EG_TRACK_E_BAD_SIZE,          /* caps or mip/layer counts past the EG_TRACK_MAX_* limits */
} eg_track_status_t;

/** Filled on failure. For a conflict, range is the first conflicting run of subresources (one
 *  mip, contiguous layers, same existing use) and existing_use | new_use is the invalid state:
 *  enough for "texture 'x' mip 0 layer 0: COLOR_TARGET conflicts with SAMPLED in one pass". */
typedef struct eg_track_error {
    eg_track_status_t status;
    eg_track_kind_t kind;         /* resource kind, when the error is about one resource */
    uint16_t index;
    eg_track_range_t range;
    uint16_t existing_use, new_use;
    const char *knob;             /* *_FULL: the knob that sized the exhausted storage */
    uint32_t capacity, in_use, needed; /* *_FULL: entries configured, in use, needed by the call */
} eg_track_error_t;

/** Sizes a tracker. Scopes and command-buffer trackers may use caps no larger than the device's. */
typedef struct eg_track_caps {
    uint32_t max_buffers;          /* EMGPU_MAX_BUFFERS: slot indices 1..max_buffers, <= 65535 */
    uint32_t max_textures;         /* EMGPU_MAX_TEXTURES, <= 65535 */
    uint32_t subresource_states;   /* table entries (2 B each) for textures whose subresources
                                    * diverge; 0..65535. 0: every texture must stay uniform. */
    const char *subresource_knob;  /* quoted on exhaustion; NULL: "EMGPU_TRACK_SUBRESOURCE_STATES" */
} eg_track_caps_t;

/* ---- tracker objects (fields are private to kernel/track) ---- */

/** Bounded table of per-subresource state words, handed out in contiguous runs (first fit). */
typedef struct eg_track_subres {
    uint16_t   *states;
    uint32_t   *used;             /* one bit per entry */
    uint32_t    cap, in_use, high_water;
    const char *knob;
} eg_track_subres_t;

typedef struct eg_track_device {
    uint32_t  max_buffers, max_textures;
    uint32_t *buf_live;           /* bitset: registered */
    uint16_t *buf_state;
    uint32_t *tex_live;
    uint16_t *tex_state;          /* uniform state, when tex_run is 0 */
    uint16_t *tex_run;            /* 0, or 1 + first entry of mip_count * layer_count states */
    uint8_t  *tex_mip_count;
    uint16_t *tex_layer_count;
    eg_track_subres_t subres;
} eg_track_device_t;

typedef struct eg_track_scope {
    const eg_track_device_t *dev; /* texture mip/layer counts */
    uint32_t  max_buffers, max_textures;
    uint32_t *buf_owned;          /* bitset: used in this scope */
    uint16_t *buf_use;
    uint32_t *tex_owned;
    uint16_t *tex_use, *tex_run;  /* run: one plane of mip_count * layer_count states */
    eg_track_subres_t subres;
} eg_track_scope_t;

typedef struct eg_track_cmd {
    const eg_track_device_t *dev;
    uint32_t  max_buffers, max_textures;
    uint32_t *buf_owned;          /* bitset: used in this command buffer */
    uint16_t *buf_first, *buf_last;
    uint32_t *tex_owned;
    uint16_t *tex_first, *tex_last, *tex_run; /* run: first-use plane, then last-use plane */
    eg_track_subres_t subres;
} eg_track_cmd_t;

/* ---- device tracker (track_device.c, track_buffer.c, track_texture.c) ---- */

/** Bytes of storage for a device tracker with these caps (a multiple of 8); 0 if caps are invalid. */
size_t eg_track_device_storage_size(const eg_track_caps_t *caps);
/** storage: 4-byte aligned, eg_track_device_storage_size() bytes, owned by the tracker until the
 *  device goes. Every slot starts unregistered. EG_TRACK_E_BAD_SIZE for invalid caps. */
eg_track_status_t eg_track_device_init(eg_track_device_t *dev, const eg_track_caps_t *caps,
                                       void *storage, eg_track_error_t *err);
/** Starts tracking buffer `index` (on create) in state initial_use: EG_TRACK_BUF_NONE, or
 *  EG_TRACK_BUF_MAP_WRITE for mappedAtCreation. Registering a live index resets it. */
eg_track_status_t eg_track_buffer_register(eg_track_device_t *dev, uint32_t index,
                                           uint16_t initial_use, eg_track_error_t *err);
/** Stops tracking (on destroy). An unregistered index is ignored. */
void eg_track_buffer_unregister(eg_track_device_t *dev, uint32_t index);
/** Starts tracking texture `index` with mip_count (1..16) x layer_count (1..256) subresources,
 *  all EG_TRACK_TEX_UNINITIALIZED. Registering a live index resets it. */
eg_track_status_t eg_track_texture_register(eg_track_device_t *dev, uint32_t index,
                                            uint32_t mip_count, uint32_t layer_count,
                                            eg_track_error_t *err);
/** Stops tracking and gives back the texture's subresource run. Unregistered: ignored. */
void eg_track_texture_unregister(eg_track_device_t *dev, uint32_t index);
/** Barrier + update for one command buffer at submit: appends to `out` the transitions from the
 *  device's state to cmd's first uses (to record in front of cmd), then adopts cmd's last uses.
 *  Call once per command buffer, in submit order. Every resource cmd uses must be registered
 *  (EG_TRACK_E_BAD_INDEX otherwise) and not re-registered since cmd recorded it (the kernel's
 *  references keep slots alive). On error no state changes (a texture may keep a table run that
 *  holds its unchanged states, given back once it is uniform again). cmd is not modified. */
eg_track_status_t eg_track_device_submit(eg_track_device_t *dev, const eg_track_cmd_t *cmd,
                                         eg_track_transition_list_t *out, eg_track_error_t *err);
/** Current state; EG_TRACK_BUF_NONE / EG_TRACK_TEX_NONE when not registered or out of range. */
uint16_t eg_track_device_buffer_state(const eg_track_device_t *dev, uint32_t index);
uint16_t eg_track_device_texture_state(const eg_track_device_t *dev, uint32_t index,
                                       uint32_t mip, uint32_t layer);

/* ---- usage scope (track_scope.c, track_buffer.c, track_texture.c) ---- */

size_t eg_track_scope_storage_size(const eg_track_caps_t *caps);
/** Like eg_track_device_init; caps.max_* must not exceed dev's. The scope starts empty. */
eg_track_status_t eg_track_scope_init(eg_track_scope_t *scope, const eg_track_device_t *dev,
                                      const eg_track_caps_t *caps, void *storage,
                                      eg_track_error_t *err);
/** Empties the scope (at the start of each render pass / dispatch). Cost: bitset words. */
void eg_track_scope_reset(eg_track_scope_t *scope);
/** Merge: adds one use of a registered buffer. EG_TRACK_E_CONFLICT (scope unchanged) when the
 *  combined state is not compatible. use must be nonzero and compatible by itself. */
eg_track_status_t eg_track_buffer_merge(eg_track_scope_t *scope, uint32_t index, uint16_t use,
                                        eg_track_error_t *err);
/** Merge: adds one use of a registered texture over `range`. Subresources outside the range are
 *  not affected, so mip 0 as COLOR_TARGET with mip 1 SAMPLED is fine. Conflict: first run. */
eg_track_status_t eg_track_texture_merge(eg_track_scope_t *scope, uint32_t index,
                                         const eg_track_range_t *range, uint16_t use,
                                         eg_track_error_t *err);
/** The scope's combined use; NONE when unused. */
uint16_t eg_track_scope_buffer_use(const eg_track_scope_t *scope, uint32_t index);
uint16_t eg_track_scope_texture_use(const eg_track_scope_t *scope, uint32_t index,
                                    uint32_t mip, uint32_t layer);

/* ---- command-buffer tracker (track_scope.c, track_buffer.c, track_texture.c) ---- */

size_t eg_track_cmd_storage_size(const eg_track_caps_t *caps);
eg_track_status_t eg_track_cmd_init(eg_track_cmd_t *cmd, const eg_track_device_t *dev,
                                    const eg_track_caps_t *caps, void *storage,
                                    eg_track_error_t *err);
/** Empties the tracker (at wgpuDeviceCreateCommandEncoder). */
void eg_track_cmd_reset(eg_track_cmd_t *cmd);
/** Barrier + update for a finished usage scope: appends the transitions to record before the
 *  pass's commands (last use -> scope use), records first uses of resources new to cmd (no
 *  transition), then makes the scope's uses the last uses. All-or-nothing. scope is unchanged. */
eg_track_status_t eg_track_cmd_barrier(eg_track_cmd_t *cmd, const eg_track_scope_t *scope,
                                       eg_track_transition_list_t *out, eg_track_error_t *err);
/** The same for one command outside a pass (copy, clear, writeBuffer, resolveQuerySet). */
eg_track_status_t eg_track_buffer_barrier(eg_track_cmd_t *cmd, uint32_t index, uint16_t use,
                                          eg_track_transition_list_t *out, eg_track_error_t *err);
eg_track_status_t eg_track_texture_barrier(eg_track_cmd_t *cmd, uint32_t index,
                                           const eg_track_range_t *range, uint16_t use,
                                           eg_track_transition_list_t *out, eg_track_error_t *err);
/** First and last use in cmd; NONE when unused. */
uint16_t eg_track_cmd_buffer_first(const eg_track_cmd_t *cmd, uint32_t index);
uint16_t eg_track_cmd_buffer_last(const eg_track_cmd_t *cmd, uint32_t index);
uint16_t eg_track_cmd_texture_first(const eg_track_cmd_t *cmd, uint32_t index, uint32_t mip, uint32_t layer);
uint16_t eg_track_cmd_texture_last(const eg_track_cmd_t *cmd, uint32_t index, uint32_t mip, uint32_t layer);
/** Next buffer/texture index >= from used by cmd, or 0 when none (for holding references). */
uint32_t eg_track_cmd_next_buffer(const eg_track_cmd_t *cmd, uint32_t from);
uint32_t eg_track_cmd_next_texture(const eg_track_cmd_t *cmd, uint32_t from);

/* ---- internal to kernel/track: shared between its .c files, not called elsewhere ---- */

/* Carves 4-byte aligned arrays from a block; with base NULL it only measures. */
typedef struct eg_track_carve { uint8_t *base; size_t off_B; } eg_track_carve_t;
static inline void *eg_track_carve(eg_track_carve_t *c, size_t size_B)
{
    void *p = c->base ? (void *)(c->base + c->off_B) : NULL;
    c->off_B += EG_ALIGN_UP(size_B, (size_t)4);
    return p;
}
bool eg_track_caps_valid(const eg_track_caps_t *caps);
void eg_track_fail(eg_track_error_t *err, eg_track_status_t st, eg_track_kind_t kind, uint32_t index);

/* Subresource table (track_texture.c). alloc returns a run handle (1 + first entry) or 0. */
void     eg_track_subres_init(eg_track_subres_t *t, eg_track_carve_t *c, const eg_track_caps_t *caps);
void     eg_track_subres_reset(eg_track_subres_t *t);
uint16_t eg_track_subres_alloc(eg_track_subres_t *t, uint32_t n);
void     eg_track_subres_release(eg_track_subres_t *t, uint16_t run, uint32_t n);
eg_track_status_t eg_track_subres_full(const eg_track_subres_t *t, uint32_t n, uint32_t index,
                                       eg_track_error_t *err);

/* Transition emitter (track_scope.c): merges a transition into the pending one when it extends
 * it by one mip with the same layers and uses, counts past the array's end so the error can say
 * how many were needed, and commits (or rolls back) at end. */
typedef struct eg_track_emit {
    eg_track_transition_list_t *list;
    uint32_t start, count;
    eg_track_transition_t pend;
    bool has_pend;
} eg_track_emit_t;
void eg_track_emit_begin(eg_track_emit_t *e, eg_track_transition_list_t *list);
void eg_track_emit(eg_track_emit_t *e, eg_track_kind_t kind, uint32_t index,
                   const eg_track_range_t *range, uint16_t from, uint16_t to);
eg_track_status_t eg_track_emit_end(eg_track_emit_t *e, eg_track_error_t *err);

/* Per-kind passes of eg_track_cmd_barrier and eg_track_device_submit: prepare only reads state
 * (texture prepare may also take table runs, which changes no state), apply cannot fail. */
void eg_track_buffer_cmd_prepare(const eg_track_cmd_t *cmd, const eg_track_scope_t *scope, eg_track_emit_t *e);
void eg_track_buffer_cmd_apply(eg_track_cmd_t *cmd, const eg_track_scope_t *scope);
eg_track_status_t eg_track_buffer_submit_prepare(const eg_track_device_t *dev, const eg_track_cmd_t *cmd,
                                                 eg_track_emit_t *e, eg_track_error_t *err);
void eg_track_buffer_submit_apply(eg_track_device_t *dev, const eg_track_cmd_t *cmd);
eg_track_status_t eg_track_texture_cmd_prepare(eg_track_cmd_t *cmd, const eg_track_scope_t *scope,
                                               eg_track_emit_t *e, eg_track_error_t *err);
void eg_track_texture_cmd_rollback(eg_track_cmd_t *cmd, const eg_track_scope_t *scope);
void eg_track_texture_cmd_apply(eg_track_cmd_t *cmd, const eg_track_scope_t *scope);
eg_track_status_t eg_track_texture_submit_prepare(eg_track_device_t *dev, const eg_track_cmd_t *cmd,
                                                  eg_track_emit_t *e, eg_track_error_t *err);
void eg_track_texture_submit_apply(eg_track_device_t *dev, const eg_track_cmd_t *cmd);

#endif /* EG_TRACK_H */
