/* Render pipelines: the Impl struct with the resolved fixed-function state.
 *
 * Everything a backend needs is copied out of the descriptor, with the webgpu.h sentinels
 * resolved (stepMode Vertex, frontFace CCW, cullMode None, stencil ops Keep, compare Always,
 * blend operation Add, ...): backends never look at a WGPURenderPipelineDescriptor. Null
 * color targets (format Undefined) and unused vertex buffer slots keep their index, marked
 * unused, because the index is what a render pass attachment / setVertexBuffer slot matches.
 * The pipeline holds references on its layout (NULL for an auto layout) and its modules.
 */
#ifndef EG_API_RENDER_PIPELINE_H
#define EG_API_RENDER_PIPELINE_H

#include "kernel/api/error.h"
#include "kernel/api/object.h"

/** A programmable stage: module (referenced) and entry point name (NUL-terminated; "" means
 *  the module's only entry point for the stage, to be resolved by the front end, TODO(#3)). */
typedef struct eg_stage {
    struct WGPUShaderModuleImpl *module;
    char entry_point[EMGPU_ENTRY_POINT_NAME_MAX + 1];
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
    struct WGPUPipelineLayoutImpl *layout;   /* referenced; NULL: auto layout (empty, TODO(#3)) */
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

/** Checks a pipeline's layout handle; NULL (auto layout) is accepted: without reflection it is
 *  an empty layout (TODO(#3): derive it from the shaders). */
bool eg_pipeline_layout_use(const eg_vctx_t *v, WGPUPipelineLayout layout);
/** Spec "validating GPUProgrammableStage" without reflection: module valid and of this device,
 *  entry point copied (at most EMGPU_ENTRY_POINT_NAME_MAX bytes), no constants (TODO(#3)).
 *  `what` names the stage in messages ("vertex"). Takes no reference. */
bool eg_pipeline_stage_resolve(const eg_vctx_t *v, const char *what, WGPUShaderModule module,
                               WGPUStringView entry, size_t constant_count, eg_stage_t *out);

/* render_pipeline_state.c: the parts of "validating GPURenderPipelineDescriptor" for each state. */
bool eg_render_pipeline_check_depth_stencil(const eg_vctx_t *v, const WGPUDepthStencilState *ds,
                                            struct WGPURenderPipelineImpl *rp);
bool eg_render_pipeline_check_fragment(const eg_vctx_t *v, const WGPUFragmentState *fs,
                                       struct WGPURenderPipelineImpl *rp);
bool eg_render_pipeline_check_multisample(const eg_vctx_t *v, const WGPURenderPipelineDescriptor *d,
                                          struct WGPURenderPipelineImpl *rp);

#endif /* EG_API_RENDER_PIPELINE_H */
