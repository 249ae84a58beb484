/* Render pipelines: the Impl struct with the resolved fixed-function state.
 *
 * Everything a backend needs is copied out of the descriptor, with the webgpu.h sentinels
 * resolved (stepMode Vertex, frontFace CCW, cullMode None, stencil ops Keep, compare Always,
 * blend operation Add, ...): backends never look at a WGPURenderPipelineDescriptor. Null
 * color targets (format Undefined) and unused vertex buffer slots keep their index, marked
 * unused, because the index is what a render pass attachment / setVertexBuffer slot matches.
 * The pipeline holds references on its layout and its modules. With layout "auto" (NULL in the
 * descriptor) the layout is derived from the shaders' reflection (render_pipeline_auto.c): a
 * valid pipeline's `layout` is never NULL, so backends always find the bind group layouts there.
 */
#ifndef EG_API_RENDER_PIPELINE_H
#define EG_API_RENDER_PIPELINE_H

#include "kernel/api/error.h"
#include "kernel/api/object.h"
#include "kernel/shader/spirv.h"

/** A pipeline-overridable constant applied to a stage: the SPIR-V SpecId (the WGPUConstantEntry
 *  key, decimal) and the value converted to the constant's type, as a 32-bit pattern (bool 0/1,
 *  i32, u32, f32 bits). Backends specialize with these (Vulkan VkSpecializationInfo). */
typedef struct eg_stage_constant {
    uint32_t spec_id;
    uint32_t bits;
} eg_stage_constant_t;

/** A programmable stage: module (referenced), entry point name (NUL-terminated; "" when the
 *  descriptor named none) and the front end's reflection of the entry point it resolved to
 *  (NULL only while the module is invalid, which makes the pipeline invalid too). */
typedef struct eg_stage {
    struct WGPUShaderModuleImpl *module;
    char entry_point[EMGPU_ENTRY_POINT_NAME_MAX + 1];
    const eg_shader_entry_t *entry;          /* points into module->spirv (kept alive by the ref) */
    uint32_t constant_count;
    eg_stage_constant_t constants[EMGPU_MAX_PIPELINE_CONSTANTS];
} eg_stage_t;

typedef struct eg_vertex_attrib {
    WGPUVertexFormat format;
    uint32_t offset_B;
    uint32_t shader_location;
    uint32_t size_B;          /* byte size of format */
} eg_vertex_attrib_t;

typedef struct eg_vertex_buffer {
    uint8_t  used;            /* 0: a hole (stepMode Undefined, no attributes) */
    WGPUVertexStepMode step_mode;   /* Vertex or Instance */
    uint32_t stride_B;
    uint32_t first_attrib, attrib_count;   /* into attribs[] */
} eg_vertex_buffer_t;

typedef struct eg_color_target {
    WGPUTextureFormat format; /* Undefined: null target (no attachment expected) */
    uint8_t  blend_enabled;
    uint8_t  write_mask;      /* WGPUColorWriteMask bits */
    WGPUBlendState blend;     /* resolved (no Undefined operation / factor) when enabled */
} eg_color_target_t;

struct WGPURenderPipelineImpl {
    eg_object_t obj;          /* first member: pool slot, label, device */
    eg_hal_priv_t hal;        /* backend handles (filled by the HAL's create) */
    struct WGPUPipelineLayoutImpl *layout;   /* referenced; never NULL once valid (auto: derived) */
    eg_stage_t vertex, fragment;             /* fragment.module NULL: no fragment stage */
    uint32_t vertex_buffer_count, attrib_count;
    eg_vertex_buffer_t vertex_buffers[EMGPU_MAX_VERTEX_BUFFERS];
    eg_vertex_attrib_t attribs[EMGPU_MAX_VERTEX_ATTRIBUTES];
    WGPUPrimitiveTopology topology;
    WGPUIndexFormat strip_index_format;      /* Undefined unless a strip topology names one */
    WGPUFrontFace front_face;
    WGPUCullMode cull_mode;
    uint8_t unclipped_depth;
    uint8_t has_depth_stencil;
    uint8_t depth_write_enabled;
    uint8_t alpha_to_coverage;
    WGPUDepthStencilState depth_stencil;     /* resolved; nextInChain NULL; valid if has_depth_stencil */
    uint32_t sample_count, sample_mask;
    uint32_t color_target_count;
    eg_color_target_t color_targets[EMGPU_MAX_COLOR_ATTACHMENTS];
};

/** Byte size of a vertex format, 0 for Undefined or an unknown value. */
uint32_t eg_vertex_format_size_B(WGPUVertexFormat format);

/* ---- shared by render and compute pipelines (kernel/api only) ---- */

/** Checks a pipeline's layout handle; NULL (layout "auto") is accepted: the caller derives one. */
bool eg_pipeline_layout_use(const eg_vctx_t *v, WGPUPipelineLayout layout);
/** Spec "validating GPUProgrammableStage", the module part: module valid and of this device,
 *  entry point copied (at most EMGPU_ENTRY_POINT_NAME_MAX bytes) and found in the module
 *  (out->entry), constants mapped to SpecIds (render_pipeline_iface.c).
 *  `what` names the stage in messages ("vertex"). Takes no reference. */
bool eg_pipeline_stage_resolve(const eg_vctx_t *v, const char *what, WGPUShaderModule module,
                               WGPUStringView entry, size_t constant_count,
                               const WGPUConstantEntry *constants, eg_stage_t *out);

/* render_pipeline_iface.c: the shader-interface rules. */
/** Maps descriptor constants to the module's SpecIds (spec "validating GPUProgrammableStage"). */
bool eg_pipeline_stage_constants(const eg_vctx_t *v, const char *what, const eg_spirv_module_t *sm,
                                 size_t count, const WGPUConstantEntry *constants, eg_stage_t *out);
/** Spec "validating GPUProgrammableStage": each binding the entry point statically uses against
 *  the layout ("validating shader binding") and the texture+sampler filtering rule. */
bool eg_pipeline_stage_check_layout(const eg_vctx_t *v, const char *what, const eg_stage_t *stage,
                                    const struct WGPUPipelineLayoutImpl *layout);
/** Compute-only limits: workgroup size and workgroup storage. */
bool eg_pipeline_check_compute_limits(const eg_vctx_t *v, const eg_shader_entry_t *e);
/** Vertex state vs the vertex entry point's inputs, inter-stage interface, fragment outputs vs
 *  targets, FragDepth vs depthStencil. Run after the fixed-function state is resolved. */
bool eg_render_pipeline_check_interface(const eg_vctx_t *v, const WGPURenderPipelineDescriptor *d,
                                        const struct WGPURenderPipelineImpl *rp);

/* render_pipeline_auto.c: spec "default pipeline layout". */
/** Derives bind group layouts and a pipeline layout from the stages' reflection, as internal
 *  objects of the device's pools (reported failures name the pool). `owner` is the pipeline's
 *  object: its layouts are group-equivalent only to themselves. Returns the new layout (one
 *  reference, for the pipeline) or NULL after reporting the error. */
struct WGPUPipelineLayoutImpl *eg_pipeline_layout_derive(const eg_vctx_t *v, const eg_stage_t *const *stages,
                                                         uint32_t stage_count, const void *owner);

/* render_pipeline_state.c: the parts of "validating GPURenderPipelineDescriptor" for each state. */
bool eg_render_pipeline_check_depth_stencil(const eg_vctx_t *v, const WGPUDepthStencilState *ds,
                                            struct WGPURenderPipelineImpl *rp);
bool eg_render_pipeline_check_fragment(const eg_vctx_t *v, const WGPUFragmentState *fs,
                                       struct WGPURenderPipelineImpl *rp);
bool eg_render_pipeline_check_multisample(const eg_vctx_t *v, const WGPURenderPipelineDescriptor *d,
                                          struct WGPURenderPipelineImpl *rp);

#endif /* EG_API_RENDER_PIPELINE_H */
