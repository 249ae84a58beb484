/* Bind group layouts: the Impl struct with its resolved entries, and binding-slot counting.
 *
 * A layout keeps its entries inline (EMGPU_MAX_BINDINGS_PER_GROUP of them), sorted by binding
 * number, with every webgpu.h "Undefined" sentinel already replaced by the spec default
 * (buffer type Uniform, sampler Filtering, texture Float/2D, storage texture WriteOnly/2D).
 * Sorting makes two things cheap for the binding model: a bind group's entries can be stored in
 * the same order (entry i of a bind group is entry i of its layout), and the dynamic offsets of
 * setBindGroup, which WebGPU orders by binding number, are simply the dynamic entries in order.
 */
#ifndef EG_API_BIND_GROUP_LAYOUT_H
#define EG_API_BIND_GROUP_LAYOUT_H

#include "kernel/api/error.h"
#include "kernel/api/object.h"
#include "hal/hal.h"   /* after util.h: hal.h uses bool without <stdbool.h> */

/** Which member of WGPUBindGroupLayoutEntry an entry uses. */
typedef enum eg_binding_kind {
    EG_BINDING_NONE = 0,
    EG_BINDING_BUFFER,
    EG_BINDING_SAMPLER,
    EG_BINDING_TEXTURE,
    EG_BINDING_STORAGE_TEXTURE,
} eg_binding_kind_t;

/** One resolved layout entry. Only the fields of its kind are meaningful; the others are 0. */
typedef struct eg_bgl_entry {
    uint32_t binding;
    uint8_t  kind;                        /* eg_binding_kind_t */
    uint8_t  has_dynamic_offset;          /* buffers only */
    uint8_t  multisampled;                /* textures only */
    uint8_t  visibility;                  /* WGPUShaderStage bits (Vertex|Fragment|Compute) */
    WGPUBufferBindingType buffer_type;    /* Uniform, Storage or ReadOnlyStorage */
    uint64_t min_binding_size_B;
    WGPUSamplerBindingType sampler_type;  /* Filtering, NonFiltering or Comparison */
    WGPUTextureSampleType sample_type;    /* textures */
    WGPUTextureViewDimension view_dimension; /* textures and storage textures (never Undefined) */
    WGPUStorageTextureAccess access;      /* storage textures */
    WGPUTextureFormat format;             /* storage textures */
    /* Spec [[exclusivePipeline]]: 0 for a layout the application created; for one derived by
     * layout "auto" (render_pipeline_auto.c), an id of the pipeline that derived it. Kept in
     * every entry so that "group-equivalent" (a byte compare of the entries, pass_encoder.c)
     * tells a derived layout from any other layout with the same bindings. */
    uint32_t exclusive_id;
} eg_bgl_entry_t;

/** Stage index into eg_binding_counts_t arrays. */
enum { EG_STAGE_VERTEX = 0, EG_STAGE_FRAGMENT = 1, EG_STAGE_COMPUTE = 2, EG_STAGE_COUNT = 3 };

/** Binding slots used, per shader stage (WebGPU "binding slot limits"). */
typedef struct eg_binding_counts {
    uint32_t sampled_textures[EG_STAGE_COUNT];
    uint32_t samplers[EG_STAGE_COUNT];
    uint32_t storage_buffers[EG_STAGE_COUNT];
    uint32_t storage_textures[EG_STAGE_COUNT];
    uint32_t uniform_buffers[EG_STAGE_COUNT];
    uint32_t dynamic_uniform_buffers;     /* whole layout, not per stage */
    uint32_t dynamic_storage_buffers;
} eg_binding_counts_t;

struct WGPUBindGroupLayoutImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
    uint32_t entry_count;
    uint32_t dynamic_count;   /* entries with has_dynamic_offset (setBindGroup offsets) */
    eg_binding_counts_t counts;
    eg_bgl_entry_t entries[EMGPU_MAX_BINDINGS_PER_GROUP];   /* sorted by binding */
};

/** The entry with this binding number, or NULL. */
const eg_bgl_entry_t *eg_bind_group_layout_find(const struct WGPUBindGroupLayoutImpl *bgl,
                                                uint32_t binding);
/** Adds `add` to `sum` (pipeline layouts sum their groups). */
void eg_binding_counts_add(eg_binding_counts_t *sum, const eg_binding_counts_t *add);
/** Spec: "exceeds the binding slot limits": checks every per-stage count against the device's
 *  limits; reports BINDING_SLOT_LIMIT naming the limit and stage. */
bool eg_binding_counts_check(const eg_vctx_t *v, const eg_binding_counts_t *c,
                             const WGPULimits *lim);

/** createBindGroupLayout with the caller's context (layout "auto" reports its errors as the
 *  pipeline call's). Every entry gets `exclusive_id`. Returns the new object, invalid after a
 *  reported validation error, or NULL when the pool is full (reported, naming the pool). */
struct WGPUBindGroupLayoutImpl *eg_bind_group_layout_create(const eg_vctx_t *v,
                                                            const WGPUBindGroupLayoutDescriptor *d,
                                                            uint32_t exclusive_id);

/** Reports a failed HAL create of a binding-model or pipeline object (`what`: "bind group"):
 *  OutOfMemory for EG_STATUS_OUT_OF_MEMORY, Internal otherwise. Returns false. */
bool eg_binding_hal_fail(const eg_vctx_t *v, eg_status_t st, const char *what);

#endif /* EG_API_BIND_GROUP_LAYOUT_H */
