/* Bind groups: the Impl struct with its resolved entries, and the tracker uses they imply.
 *
 * Entry i of a bind group binds entry i of its layout (both sorted by binding number), with
 * WGPU_WHOLE_SIZE already resolved. The bind group holds a reference (AddRef) on its layout and
 * on every buffer, sampler and texture view it binds, released when the bind group is freed, so
 * the pointers below stay valid for the bind group's whole life.
 *
 * For the command encoder (setBindGroup, usage scopes): eg_bind_group_uses() lists what each
 * entry does to a buffer or texture subresource in the tracker's vocabulary (kernel/track). A
 * dynamic-offset buffer entry's range still needs the offset given at setBindGroup added.
 */
#ifndef EG_API_BIND_GROUP_H
#define EG_API_BIND_GROUP_H

#include "kernel/api/bind_group_layout.h"
#include "kernel/api/object.h"
#include "kernel/track/track.h"

/** One resolved entry; exactly one of buffer / sampler / view is non-NULL (per layout kind). */
typedef struct eg_bind_entry {
    uint32_t binding;
    uint8_t  kind;                          /* eg_binding_kind_t, same as the layout entry */
    struct WGPUBufferImpl      *buffer;
    uint64_t offset_B, size_B;              /* buffers: bound range (size resolved, > 0) */
    struct WGPUSamplerImpl     *sampler;
    struct WGPUTextureViewImpl *view;
} eg_bind_entry_t;

struct WGPUBindGroupImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
    struct WGPUBindGroupLayoutImpl *layout;   /* referenced */
    uint32_t entry_count;                     /* == layout->entry_count */
    eg_bind_entry_t entries[EMGPU_MAX_BINDINGS_PER_GROUP];   /* entries[i] binds layout->entries[i] */
};

/** One tracker use of a bind group entry (samplers have none). */
typedef struct eg_bind_use {
    uint8_t  kind;            /* EG_TRACK_KIND_BUFFER or EG_TRACK_KIND_TEXTURE */
    uint8_t  dynamic;         /* buffer entry with a dynamic offset: add it to offset_B */
    uint16_t index;           /* pool slot index of the buffer or of the view's texture */
    uint16_t use;             /* one EG_TRACK_BUF_* or EG_TRACK_TEX_* bit */
    uint8_t  destroyed;       /* the buffer/texture was destroyed: it is no longer tracked, and
                               * queue.submit rejects the command buffer (spec) */
    uint32_t entry;           /* index into bg->entries (and layout->entries) */
    uint64_t offset_B, size_B;/* buffers: bound range */
    eg_track_range_t range;   /* textures: the view's subresources; buffers {0,1,0,1} */
} eg_bind_use_t;

/** Writes up to cap uses of bg into out (in entry order) and returns how many bg has in total
 *  (call with cap 0 to count). Uniform -> BUF_UNIFORM, ReadOnlyStorage -> BUF_STORAGE_READ,
 *  Storage -> BUF_STORAGE_WRITE; texture -> TEX_SAMPLED; storage texture ReadOnly ->
 *  TEX_STORAGE_READ, WriteOnly / ReadWrite -> TEX_STORAGE_WRITE. bg must be valid. */
uint32_t eg_bind_group_uses(const struct WGPUBindGroupImpl *bg, eg_bind_use_t *out, uint32_t cap);

#endif /* EG_API_BIND_GROUP_H */
