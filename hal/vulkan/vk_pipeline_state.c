/* hal/vulkan pipeline objects: WebGPU render/compute pipeline state -> VkPipeline create infos. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"

#define H(o) EG_VK_PRIV(eg_vk_handle_t, o)->h

VkCompareOp eg_vk_compare_op(WGPUCompareFunction f)
{
    switch (f) {
    case WGPUCompareFunction_Never: return VK_COMPARE_OP_NEVER;
    case WGPUCompareFunction_Less: return VK_COMPARE_OP_LESS;
    case WGPUCompareFunction_Equal: return VK_COMPARE_OP_EQUAL;
    case WGPUCompareFunction_LessEqual: return VK_COMPARE_OP_LESS_OR_EQUAL;
    case WGPUCompareFunction_Greater: return VK_COMPARE_OP_GREATER;
    case WGPUCompareFunction_NotEqual: return VK_COMPARE_OP_NOT_EQUAL;
    case WGPUCompareFunction_GreaterEqual: return VK_COMPARE_OP_GREATER_OR_EQUAL;
    default: return VK_COMPARE_OP_ALWAYS;
    }
}

static VkFormat vertex_format(WGPUVertexFormat f)
{
    static const VkFormat map[] = {
        [WGPUVertexFormat_Uint8] = VK_FORMAT_R8_UINT, [WGPUVertexFormat_Uint8x2] = VK_FORMAT_R8G8_UINT,
        [WGPUVertexFormat_Uint8x4] = VK_FORMAT_R8G8B8A8_UINT, [WGPUVertexFormat_Sint8] = VK_FORMAT_R8_SINT,
        [WGPUVertexFormat_Sint8x2] = VK_FORMAT_R8G8_SINT, [WGPUVertexFormat_Sint8x4] = VK_FORMAT_R8G8B8A8_SINT,
        [WGPUVertexFormat_Unorm8] = VK_FORMAT_R8_UNORM, [WGPUVertexFormat_Unorm8x2] = VK_FORMAT_R8G8_UNORM,
        [WGPUVertexFormat_Unorm8x4] = VK_FORMAT_R8G8B8A8_UNORM, [WGPUVertexFormat_Snorm8] = VK_FORMAT_R8_SNORM,
        [WGPUVertexFormat_Snorm8x2] = VK_FORMAT_R8G8_SNORM, [WGPUVertexFormat_Snorm8x4] = VK_FORMAT_R8G8B8A8_SNORM,
        [WGPUVertexFormat_Uint16] = VK_FORMAT_R16_UINT, [WGPUVertexFormat_Uint16x2] = VK_FORMAT_R16G16_UINT,
        [WGPUVertexFormat_Uint16x4] = VK_FORMAT_R16G16B16A16_UINT, [WGPUVertexFormat_Sint16] = VK_FORMAT_R16_SINT,
        [WGPUVertexFormat_Sint16x2] = VK_FORMAT_R16G16_SINT, [WGPUVertexFormat_Sint16x4] = VK_FORMAT_R16G16B16A16_SINT,
        [WGPUVertexFormat_Unorm16] = VK_FORMAT_R16_UNORM, [WGPUVertexFormat_Unorm16x2] = VK_FORMAT_R16G16_UNORM,
        [WGPUVertexFormat_Unorm16x4] = VK_FORMAT_R16G16B16A16_UNORM, [WGPUVertexFormat_Snorm16] = VK_FORMAT_R16_SNORM,
        [WGPUVertexFormat_Snorm16x2] = VK_FORMAT_R16G16_SNORM, [WGPUVertexFormat_Snorm16x4] = VK_FORMAT_R16G16B16A16_SNORM,
        [WGPUVertexFormat_Float16] = VK_FORMAT_R16_SFLOAT, [WGPUVertexFormat_Float16x2] = VK_FORMAT_R16G16_SFLOAT,
        [WGPUVertexFormat_Float16x4] = VK_FORMAT_R16G16B16A16_SFLOAT, [WGPUVertexFormat_Float32] = VK_FORMAT_R32_SFLOAT,
        [WGPUVertexFormat_Float32x2] = VK_FORMAT_R32G32_SFLOAT, [WGPUVertexFormat_Float32x3] = VK_FORMAT_R32G32B32_SFLOAT,
        [WGPUVertexFormat_Float32x4] = VK_FORMAT_R32G32B32A32_SFLOAT, [WGPUVertexFormat_Uint32] = VK_FORMAT_R32_UINT,
        [WGPUVertexFormat_Uint32x2] = VK_FORMAT_R32G32_UINT, [WGPUVertexFormat_Uint32x3] = VK_FORMAT_R32G32B32_UINT,
        [WGPUVertexFormat_Uint32x4] = VK_FORMAT_R32G32B32A32_UINT, [WGPUVertexFormat_Sint32] = VK_FORMAT_R32_SINT,
        [WGPUVertexFormat_Sint32x2] = VK_FORMAT_R32G32_SINT, [WGPUVertexFormat_Sint32x3] = VK_FORMAT_R32G32B32_SINT,
        [WGPUVertexFormat_Sint32x4] = VK_FORMAT_R32G32B32A32_SINT,
        [WGPUVertexFormat_Unorm10_10_10_2] = VK_FORMAT_A2B10G10R10_UNORM_PACK32,
        [WGPUVertexFormat_Unorm8x4BGRA] = VK_FORMAT_B8G8R8A8_UNORM,
    };
    return (uint32_t)f < EG_ARRAY_LEN(map) ? map[f] : VK_FORMAT_UNDEFINED;
}

static VkBlendFactor blend_factor(WGPUBlendFactor f)
{
    switch (f) {
    case WGPUBlendFactor_Zero: return VK_BLEND_FACTOR_ZERO;
    case WGPUBlendFactor_One: return VK_BLEND_FACTOR_ONE;
    case WGPUBlendFactor_Src: return VK_BLEND_FACTOR_SRC_COLOR;
    case WGPUBlendFactor_OneMinusSrc: return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
    case WGPUBlendFactor_SrcAlpha: return VK_BLEND_FACTOR_SRC_ALPHA;
    case WGPUBlendFactor_OneMinusSrcAlpha: return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    case WGPUBlendFactor_Dst: return VK_BLEND_FACTOR_DST_COLOR;
    case WGPUBlendFactor_OneMinusDst: return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
    case WGPUBlendFactor_DstAlpha: return VK_BLEND_FACTOR_DST_ALPHA;
    case WGPUBlendFactor_OneMinusDstAlpha: return VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA;
    case WGPUBlendFactor_SrcAlphaSaturated: return VK_BLEND_FACTOR_SRC_ALPHA_SATURATE;
    case WGPUBlendFactor_Constant: return VK_BLEND_FACTOR_CONSTANT_COLOR;
    case WGPUBlendFactor_OneMinusConstant: return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
    case WGPUBlendFactor_Src1: return VK_BLEND_FACTOR_SRC1_COLOR;
    case WGPUBlendFactor_OneMinusSrc1: return VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR;
    case WGPUBlendFactor_Src1Alpha: return VK_BLEND_FACTOR_SRC1_ALPHA;
    case WGPUBlendFactor_OneMinusSrc1Alpha: return VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
    default: return VK_BLEND_FACTOR_ONE;
    }
}

static VkBlendOp blend_op(WGPUBlendOperation o)
{
    switch (o) {
    case WGPUBlendOperation_Subtract: return VK_BLEND_OP_SUBTRACT;
    case WGPUBlendOperation_ReverseSubtract: return VK_BLEND_OP_REVERSE_SUBTRACT;
    case WGPUBlendOperation_Min: return VK_BLEND_OP_MIN;
    case WGPUBlendOperation_Max: return VK_BLEND_OP_MAX;
    default: return VK_BLEND_OP_ADD;
    }
}

static VkStencilOp stencil_op(WGPUStencilOperation o)
{
    switch (o) {
    case WGPUStencilOperation_Zero: return VK_STENCIL_OP_ZERO;
    case WGPUStencilOperation_Replace: return VK_STENCIL_OP_REPLACE;
    case WGPUStencilOperation_Invert: return VK_STENCIL_OP_INVERT;
    case WGPUStencilOperation_IncrementClamp: return VK_STENCIL_OP_INCREMENT_AND_CLAMP;
    case WGPUStencilOperation_DecrementClamp: return VK_STENCIL_OP_DECREMENT_AND_CLAMP;
    case WGPUStencilOperation_IncrementWrap: return VK_STENCIL_OP_INCREMENT_AND_WRAP;
    case WGPUStencilOperation_DecrementWrap: return VK_STENCIL_OP_DECREMENT_AND_WRAP;
    default: return VK_STENCIL_OP_KEEP;
    }
}

static VkPrimitiveTopology topology(WGPUPrimitiveTopology t)
{
    switch (t) {
    case WGPUPrimitiveTopology_PointList: return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case WGPUPrimitiveTopology_LineList: return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    case WGPUPrimitiveTopology_LineStrip: return VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    case WGPUPrimitiveTopology_TriangleStrip: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    default: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    }
}

static VkStencilOpState stencil_face(const WGPUStencilFaceState *f, const WGPUDepthStencilState *ds)
{
    return (VkStencilOpState){ stencil_op(f->failOp), stencil_op(f->passOp), stencil_op(f->depthFailOp),
                               eg_vk_compare_op(f->compare), ds->stencilReadMask, ds->stencilWriteMask, 0 };
}

static bool stencil_used(const WGPUStencilFaceState *f)
{
    return f->failOp != WGPUStencilOperation_Keep || f->passOp != WGPUStencilOperation_Keep ||
           f->depthFailOp != WGPUStencilOperation_Keep ||
           (f->compare != WGPUCompareFunction_Always && f->compare != WGPUCompareFunction_Undefined);
}

static void depth_stencil_state(const eg_render_pipeline_t *rp, VkPipelineDepthStencilStateCreateInfo *out)
{
    const WGPUDepthStencilState *ds = &rp->depth_stencil;
    *out = (VkPipelineDepthStencilStateCreateInfo){ .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO };
    if (!rp->has_depth_stencil) return;
    out->depthTestEnable = VK_TRUE;
    out->depthWriteEnable = rp->depth_write_enabled ? VK_TRUE : VK_FALSE;
    out->depthCompareOp = eg_vk_compare_op(ds->depthCompare);
    out->stencilTestEnable = stencil_used(&ds->stencilFront) || stencil_used(&ds->stencilBack);
    out->front = stencil_face(&ds->stencilFront, ds);
    out->back = stencil_face(&ds->stencilBack, ds);
}

/* The render pass a pipeline is built against: its formats and sample count. */
static VkRenderPass compatible_pass(eg_hal_device_t *dev, const eg_render_pipeline_t *rp)
{
    eg_vk_rp_desc_t d;
    eg_memset(&d, 0, sizeof d);
    d.color_count = rp->color_target_count;
    for (uint32_t i = 0; i < rp->color_target_count; i++) {
        d.color[i] = rp->color_targets[i].format == WGPUTextureFormat_Undefined
                         ? VK_FORMAT_UNDEFINED : eg_vk_format(dev, rp->color_targets[i].format);
        d.color_load[i] = VK_ATTACHMENT_LOAD_OP_LOAD;
        d.color_store[i] = VK_ATTACHMENT_STORE_OP_STORE;
    }
    d.depth = rp->has_depth_stencil ? eg_vk_format(dev, rp->depth_stencil.format) : VK_FORMAT_UNDEFINED;
    d.depth_load = d.stencil_load = VK_ATTACHMENT_LOAD_OP_LOAD;
    d.depth_store = d.stencil_store = VK_ATTACHMENT_STORE_OP_STORE;
    d.samples = rp->sample_count;
    return eg_vk_render_pass_get(dev, &d);
}

static uint32_t vertex_input(const eg_render_pipeline_t *rp, VkVertexInputBindingDescription *b,
                             VkVertexInputAttributeDescription *a, uint32_t *attr_count)
{
    uint32_t nb = 0, na = 0;
    for (uint32_t i = 0; i < rp->vertex_buffer_count; i++) {
        const eg_vertex_buffer_t *vb = &rp->vertex_buffers[i];
        if (!vb->used) continue;
        b[nb++] = (VkVertexInputBindingDescription){ i, vb->stride_B, vb->step_mode == WGPUVertexStepMode_Instance
                                                                          ? VK_VERTEX_INPUT_RATE_INSTANCE
                                                                          : VK_VERTEX_INPUT_RATE_VERTEX };
        for (uint32_t k = 0; k < vb->attrib_count; k++) {
            const eg_vertex_attrib_t *at = &rp->attribs[vb->first_attrib + k];
            a[na++] = (VkVertexInputAttributeDescription){ at->shader_location, i, vertex_format(at->format),
                                                           at->offset_B };
        }
    }
    *attr_count = na;
    return nb;
}

static void color_blend(const eg_render_pipeline_t *rp, VkPipelineColorBlendAttachmentState *out)
{
    for (uint32_t i = 0; i < rp->color_target_count; i++) {
        const eg_color_target_t *t = &rp->color_targets[i];
        out[i] = (VkPipelineColorBlendAttachmentState){ .colorWriteMask = t->write_mask & 0xFu };
        if (t->format == WGPUTextureFormat_Undefined) { out[i].colorWriteMask = 0; continue; }
        if (!t->blend_enabled) continue;
        out[i].blendEnable = VK_TRUE;
        out[i].srcColorBlendFactor = blend_factor(t->blend.color.srcFactor);
        out[i].dstColorBlendFactor = blend_factor(t->blend.color.dstFactor);
        out[i].colorBlendOp = blend_op(t->blend.color.operation);
        out[i].srcAlphaBlendFactor = blend_factor(t->blend.alpha.srcFactor);
        out[i].dstAlphaBlendFactor = blend_factor(t->blend.alpha.dstFactor);
        out[i].alphaBlendOp = blend_op(t->blend.alpha.operation);
    }
}

/* Point lists need the vertex shader to write PointSize (see vk_spirv.c): a temporary module. */
static VkShaderModule point_size_module(eg_hal_device_t *dev, const eg_render_pipeline_t *rp)
{
    if (rp->topology != WGPUPrimitiveTopology_PointList) return VK_NULL_HANDLE;
    uint32_t n = 0;
    const uint32_t *w = eg_vk_spirv_point_size(rp->vertex.module->code, rp->vertex.module->word_count, &n);
    if (!w) return VK_NULL_HANDLE;
    eg_status_t st = EG_STATUS_OK;
    w = eg_vk_spirv_polyfill(w, n, &n, &st);
    if (!w) return VK_NULL_HANDLE;
    VkShaderModuleCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = (size_t)n * 4u,
                                    .pCode = w };
    VkShaderModule m = VK_NULL_HANDLE;
    if (eg_vk.vkCreateShaderModule(dev->device, &ci, eg_vk_host_allocator(), &m) != VK_SUCCESS) return VK_NULL_HANDLE;
    return m;
}

eg_status_t eg_vk_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    eg_vk_pipeline_t *p = EG_VK_PRIV(eg_vk_pipeline_t, rp);
    p->pipeline = VK_NULL_HANDLE;
    p->layout = rp->layout ? (VkPipelineLayout)(uintptr_t)H(rp->layout) : dev->empty_pipeline_layout;
    VkRenderPass pass = compatible_pass(dev, rp);
    if (!pass) return EG_STATUS_OUT_OF_MEMORY;
    VkPipelineShaderStageCreateInfo st[2];
    uint32_t nst = 0;
    st[nst++] = (VkPipelineShaderStageCreateInfo){ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = (VkShaderModule)(uintptr_t)H(rp->vertex.module),
        .pName = eg_vk_entry_name(&rp->vertex, EG_SHADER_STAGE_VERTEX) };
    if (rp->fragment.module) {
        st[nst++] = (VkPipelineShaderStageCreateInfo){ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = (VkShaderModule)(uintptr_t)H(rp->fragment.module),
            .pName = eg_vk_entry_name(&rp->fragment, EG_SHADER_STAGE_FRAGMENT) };
    }
    VkVertexInputBindingDescription vb[EMGPU_MAX_VERTEX_BUFFERS];
    VkVertexInputAttributeDescription va[EMGPU_MAX_VERTEX_ATTRIBUTES];
    uint32_t na = 0, nb = vertex_input(rp, vb, va, &na);
    VkPipelineVertexInputStateCreateInfo vi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = nb, .pVertexBindingDescriptions = vb,
        .vertexAttributeDescriptionCount = na, .pVertexAttributeDescriptions = va };
    VkPrimitiveTopology topo = topology(rp->topology);
    VkPipelineInputAssemblyStateCreateInfo ia = { .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = topo, .primitiveRestartEnable = topo == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ||
                                                   topo == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP };
    VkPipelineViewportStateCreateInfo vp = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                             .viewportCount = 1, .scissorCount = 1 };
    const WGPUDepthStencilState *ds = &rp->depth_stencil;
    VkPipelineRasterizationStateCreateInfo rs = { .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .depthClampEnable = rp->unclipped_depth && dev->features.depthClamp,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = rp->cull_mode == WGPUCullMode_Front ? VK_CULL_MODE_FRONT_BIT
                  : rp->cull_mode == WGPUCullMode_Back ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE,
        .frontFace = rp->front_face == WGPUFrontFace_CW ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f };
    if (rp->has_depth_stencil && (ds->depthBias != 0 || ds->depthBiasSlopeScale != 0.0f)) {
        rs.depthBiasEnable = VK_TRUE;
        rs.depthBiasConstantFactor = (float)ds->depthBias;
        rs.depthBiasSlopeFactor = ds->depthBiasSlopeScale;
        rs.depthBiasClamp = dev->features.depthBiasClamp ? ds->depthBiasClamp : 0.0f;
    }
    VkSampleMask mask = rp->sample_mask;
    VkPipelineMultisampleStateCreateInfo ms = { .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = (VkSampleCountFlagBits)rp->sample_count, .pSampleMask = &mask,
        .alphaToCoverageEnable = rp->alpha_to_coverage };
    VkPipelineDepthStencilStateCreateInfo dss;
    depth_stencil_state(rp, &dss);
    VkPipelineColorBlendAttachmentState cba[EMGPU_MAX_COLOR_ATTACHMENTS];
    color_blend(rp, cba);
    VkPipelineColorBlendStateCreateInfo cb = { .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = rp->color_target_count, .pAttachments = cba };
    static const VkDynamicState dyn[] = { VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                                          VK_DYNAMIC_STATE_BLEND_CONSTANTS, VK_DYNAMIC_STATE_STENCIL_REFERENCE };
    VkPipelineDynamicStateCreateInfo dy = { .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                            .dynamicStateCount = EG_ARRAY_LEN(dyn), .pDynamicStates = dyn };
    VkGraphicsPipelineCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .stageCount = nst, .pStages = st, .pVertexInputState = &vi, .pInputAssemblyState = &ia,
        .pViewportState = &vp, .pRasterizationState = &rs, .pMultisampleState = &ms, .pDepthStencilState = &dss,
        .pColorBlendState = &cb, .pDynamicState = &dy, .layout = p->layout, .renderPass = pass };
    VkShaderModule points_vs = point_size_module(dev, rp);
    if (points_vs) st[0].module = points_vs;
    VkResult r = eg_vk.vkCreateGraphicsPipelines(dev->device, VK_NULL_HANDLE, 1, &ci, eg_vk_host_allocator(),
                                                 &p->pipeline);
    if (points_vs) eg_vk.vkDestroyShaderModule(dev->device, points_vs, eg_vk_host_allocator());
    if (r == VK_SUCCESS) eg_vk_name_object(dev, VK_OBJECT_TYPE_PIPELINE, (uint64_t)p->pipeline, rp->obj.label);
    return eg_vk_status(r);
}

void eg_vk_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    eg_vk_pipeline_t *p = EG_VK_PRIV(eg_vk_pipeline_t, rp);
    if (p->pipeline) eg_vk.vkDestroyPipeline(dev->device, p->pipeline, eg_vk_host_allocator());
    p->pipeline = VK_NULL_HANDLE;
}

eg_status_t eg_vk_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    eg_vk_pipeline_t *p = EG_VK_PRIV(eg_vk_pipeline_t, cp);
    p->pipeline = VK_NULL_HANDLE;
    p->layout = cp->layout ? (VkPipelineLayout)(uintptr_t)H(cp->layout) : dev->empty_pipeline_layout;
    VkComputePipelineCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = (VkShaderModule)(uintptr_t)H(cp->compute.module),
                   .pName = eg_vk_entry_name(&cp->compute, EG_SHADER_STAGE_COMPUTE) },
        .layout = p->layout };
    VkResult r = eg_vk.vkCreateComputePipelines(dev->device, VK_NULL_HANDLE, 1, &ci, eg_vk_host_allocator(),
                                                &p->pipeline);
    return eg_vk_status(r);
}

void eg_vk_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    eg_vk_pipeline_t *p = EG_VK_PRIV(eg_vk_pipeline_t, cp);
    if (p->pipeline) eg_vk.vkDestroyPipeline(dev->device, p->pipeline, eg_vk_host_allocator());
    p->pipeline = VK_NULL_HANDLE;
}

#endif /* EMGPU_HAL_VULKAN */
