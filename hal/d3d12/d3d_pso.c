/* hal/d3d12 pipeline state: a WebGPU render pipeline's fixed-function state as a D3D12 graphics PSO description.
 *
 * The kernel hands over resolved state (kernel/api/render_pipeline.h: no Undefined sentinels
 * left), so this is a table translation. Where D3D12 and WebGPU differ:
 * - Vertex attributes are semantic "TEXCOORD", index = shader location (the emitter's input
 *   signature uses the same, hal/d3d12/d3d_tpf.h); the input slot is the vertex buffer index.
 * - D3D12 has no "depth test off" separate from depth writes: WebGPU's depth state always
 *   compares (Always when not testing), so DepthEnable is on whenever there is a depth-stencil
 *   state and the write mask carries depthWriteEnabled.
 * - Alpha blend factors cannot name colour factors in D3D12 (D3D12_RENDER_TARGET_BLEND_DESC:
 *   SrcBlendAlpha takes no *_COLOR value); for the alpha channel WebGPU's "src" is the source
 *   alpha anyway (spec "blend factor" table), so the alpha forms are used.
 * - unclippedDepth (WebGPU depth-clip-control) is DepthClipEnable = FALSE.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"

static DXGI_FORMAT vertex_format(WGPUVertexFormat f)
{
    static const DXGI_FORMAT map[] = {
        [WGPUVertexFormat_Uint8] = DXGI_FORMAT_R8_UINT, [WGPUVertexFormat_Uint8x2] = DXGI_FORMAT_R8G8_UINT,
        [WGPUVertexFormat_Uint8x4] = DXGI_FORMAT_R8G8B8A8_UINT, [WGPUVertexFormat_Sint8] = DXGI_FORMAT_R8_SINT,
        [WGPUVertexFormat_Sint8x2] = DXGI_FORMAT_R8G8_SINT, [WGPUVertexFormat_Sint8x4] = DXGI_FORMAT_R8G8B8A8_SINT,
        [WGPUVertexFormat_Unorm8] = DXGI_FORMAT_R8_UNORM, [WGPUVertexFormat_Unorm8x2] = DXGI_FORMAT_R8G8_UNORM,
        [WGPUVertexFormat_Unorm8x4] = DXGI_FORMAT_R8G8B8A8_UNORM, [WGPUVertexFormat_Snorm8] = DXGI_FORMAT_R8_SNORM,
        [WGPUVertexFormat_Snorm8x2] = DXGI_FORMAT_R8G8_SNORM, [WGPUVertexFormat_Snorm8x4] = DXGI_FORMAT_R8G8B8A8_SNORM,
        [WGPUVertexFormat_Uint16] = DXGI_FORMAT_R16_UINT, [WGPUVertexFormat_Uint16x2] = DXGI_FORMAT_R16G16_UINT,
        [WGPUVertexFormat_Uint16x4] = DXGI_FORMAT_R16G16B16A16_UINT, [WGPUVertexFormat_Sint16] = DXGI_FORMAT_R16_SINT,
        [WGPUVertexFormat_Sint16x2] = DXGI_FORMAT_R16G16_SINT, [WGPUVertexFormat_Sint16x4] = DXGI_FORMAT_R16G16B16A16_SINT,
        [WGPUVertexFormat_Unorm16] = DXGI_FORMAT_R16_UNORM, [WGPUVertexFormat_Unorm16x2] = DXGI_FORMAT_R16G16_UNORM,
        [WGPUVertexFormat_Unorm16x4] = DXGI_FORMAT_R16G16B16A16_UNORM, [WGPUVertexFormat_Snorm16] = DXGI_FORMAT_R16_SNORM,
        [WGPUVertexFormat_Snorm16x2] = DXGI_FORMAT_R16G16_SNORM, [WGPUVertexFormat_Snorm16x4] = DXGI_FORMAT_R16G16B16A16_SNORM,
        [WGPUVertexFormat_Float16] = DXGI_FORMAT_R16_FLOAT, [WGPUVertexFormat_Float16x2] = DXGI_FORMAT_R16G16_FLOAT,
        [WGPUVertexFormat_Float16x4] = DXGI_FORMAT_R16G16B16A16_FLOAT, [WGPUVertexFormat_Float32] = DXGI_FORMAT_R32_FLOAT,
        [WGPUVertexFormat_Float32x2] = DXGI_FORMAT_R32G32_FLOAT, [WGPUVertexFormat_Float32x3] = DXGI_FORMAT_R32G32B32_FLOAT,
        [WGPUVertexFormat_Float32x4] = DXGI_FORMAT_R32G32B32A32_FLOAT, [WGPUVertexFormat_Uint32] = DXGI_FORMAT_R32_UINT,
        [WGPUVertexFormat_Uint32x2] = DXGI_FORMAT_R32G32_UINT, [WGPUVertexFormat_Uint32x3] = DXGI_FORMAT_R32G32B32_UINT,
        [WGPUVertexFormat_Uint32x4] = DXGI_FORMAT_R32G32B32A32_UINT, [WGPUVertexFormat_Sint32] = DXGI_FORMAT_R32_SINT,
        [WGPUVertexFormat_Sint32x2] = DXGI_FORMAT_R32G32_SINT, [WGPUVertexFormat_Sint32x3] = DXGI_FORMAT_R32G32B32_SINT,
        [WGPUVertexFormat_Sint32x4] = DXGI_FORMAT_R32G32B32A32_SINT,
        [WGPUVertexFormat_Unorm10_10_10_2] = DXGI_FORMAT_R10G10B10A2_UNORM,
        [WGPUVertexFormat_Unorm8x4BGRA] = DXGI_FORMAT_B8G8R8A8_UNORM,
    };
    return (uint32_t)f < EG_ARRAY_LEN(map) ? map[f] : DXGI_FORMAT_UNKNOWN;
}

static D3D12_BLEND blend_factor(WGPUBlendFactor f, bool alpha)
{
    switch (f) {
    case WGPUBlendFactor_Zero: return D3D12_BLEND_ZERO;
    case WGPUBlendFactor_One: return D3D12_BLEND_ONE;
    case WGPUBlendFactor_Src: return alpha ? D3D12_BLEND_SRC_ALPHA : D3D12_BLEND_SRC_COLOR;
    case WGPUBlendFactor_OneMinusSrc: return alpha ? D3D12_BLEND_INV_SRC_ALPHA : D3D12_BLEND_INV_SRC_COLOR;
    case WGPUBlendFactor_SrcAlpha: return D3D12_BLEND_SRC_ALPHA;
    case WGPUBlendFactor_OneMinusSrcAlpha: return D3D12_BLEND_INV_SRC_ALPHA;
    case WGPUBlendFactor_Dst: return alpha ? D3D12_BLEND_DEST_ALPHA : D3D12_BLEND_DEST_COLOR;
    case WGPUBlendFactor_OneMinusDst: return alpha ? D3D12_BLEND_INV_DEST_ALPHA : D3D12_BLEND_INV_DEST_COLOR;
    case WGPUBlendFactor_DstAlpha: return D3D12_BLEND_DEST_ALPHA;
    case WGPUBlendFactor_OneMinusDstAlpha: return D3D12_BLEND_INV_DEST_ALPHA;
    case WGPUBlendFactor_SrcAlphaSaturated: return D3D12_BLEND_SRC_ALPHA_SAT;
    case WGPUBlendFactor_Constant: return D3D12_BLEND_BLEND_FACTOR;
    case WGPUBlendFactor_OneMinusConstant: return D3D12_BLEND_INV_BLEND_FACTOR;
    case WGPUBlendFactor_Src1: return alpha ? D3D12_BLEND_SRC1_ALPHA : D3D12_BLEND_SRC1_COLOR;
    case WGPUBlendFactor_OneMinusSrc1: return alpha ? D3D12_BLEND_INV_SRC1_ALPHA : D3D12_BLEND_INV_SRC1_COLOR;
    case WGPUBlendFactor_Src1Alpha: return D3D12_BLEND_SRC1_ALPHA;
    case WGPUBlendFactor_OneMinusSrc1Alpha: return D3D12_BLEND_INV_SRC1_ALPHA;
    default: return D3D12_BLEND_ONE;
    }
}

static D3D12_BLEND_OP blend_op(WGPUBlendOperation o)
{
    switch (o) {
    case WGPUBlendOperation_Subtract: return D3D12_BLEND_OP_SUBTRACT;
    case WGPUBlendOperation_ReverseSubtract: return D3D12_BLEND_OP_REV_SUBTRACT;
    case WGPUBlendOperation_Min: return D3D12_BLEND_OP_MIN;
    case WGPUBlendOperation_Max: return D3D12_BLEND_OP_MAX;
    default: return D3D12_BLEND_OP_ADD;
    }
}

static D3D12_STENCIL_OP stencil_op(WGPUStencilOperation o)
{
    switch (o) {
    case WGPUStencilOperation_Zero: return D3D12_STENCIL_OP_ZERO;
    case WGPUStencilOperation_Replace: return D3D12_STENCIL_OP_REPLACE;
    case WGPUStencilOperation_Invert: return D3D12_STENCIL_OP_INVERT;
    case WGPUStencilOperation_IncrementClamp: return D3D12_STENCIL_OP_INCR_SAT;
    case WGPUStencilOperation_DecrementClamp: return D3D12_STENCIL_OP_DECR_SAT;
    case WGPUStencilOperation_IncrementWrap: return D3D12_STENCIL_OP_INCR;
    case WGPUStencilOperation_DecrementWrap: return D3D12_STENCIL_OP_DECR;
    default: return D3D12_STENCIL_OP_KEEP;
    }
}

uint32_t eg_d3d_topology(WGPUPrimitiveTopology t)
{
    switch (t) {
    case WGPUPrimitiveTopology_PointList: return D3D_PRIMITIVE_TOPOLOGY_POINTLIST;
    case WGPUPrimitiveTopology_LineList: return D3D_PRIMITIVE_TOPOLOGY_LINELIST;
    case WGPUPrimitiveTopology_LineStrip: return D3D_PRIMITIVE_TOPOLOGY_LINESTRIP;
    case WGPUPrimitiveTopology_TriangleStrip: return D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP;
    default: return D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST;
    }
}

static D3D12_PRIMITIVE_TOPOLOGY_TYPE topology_type(WGPUPrimitiveTopology t)
{
    switch (t) {
    case WGPUPrimitiveTopology_PointList: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT;
    case WGPUPrimitiveTopology_LineList: case WGPUPrimitiveTopology_LineStrip: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE;
    default: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    }
}

static uint32_t input_layout(const eg_render_pipeline_t *rp, D3D12_INPUT_ELEMENT_DESC *e)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < rp->vertex_buffer_count; i++) {
        const eg_vertex_buffer_t *vb = &rp->vertex_buffers[i];
        if (!vb->used) continue;
        bool inst = vb->step_mode == WGPUVertexStepMode_Instance;
        for (uint32_t k = 0; k < vb->attrib_count && n < EMGPU_MAX_VERTEX_ATTRIBUTES; k++) {
            const eg_vertex_attrib_t *at = &rp->attribs[vb->first_attrib + k];
            e[n++] = (D3D12_INPUT_ELEMENT_DESC){ "TEXCOORD", at->shader_location, vertex_format(at->format), i,
                                                 at->offset_B, inst ? D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA
                                                                    : D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA,
                                                 inst ? 1u : 0u };
        }
    }
    return n;
}

static void blend_state(const eg_render_pipeline_t *rp, D3D12_GRAPHICS_PIPELINE_STATE_DESC *d)
{
    d->BlendState.AlphaToCoverageEnable = rp->alpha_to_coverage ? TRUE : FALSE;
    d->BlendState.IndependentBlendEnable = TRUE;
    for (uint32_t i = 0; i < rp->color_target_count && i < 8; i++) {
        const eg_color_target_t *t = &rp->color_targets[i];
        D3D12_RENDER_TARGET_BLEND_DESC *b = &d->BlendState.RenderTarget[i];
        b->LogicOp = D3D12_LOGIC_OP_NOOP;
        b->SrcBlend = b->SrcBlendAlpha = D3D12_BLEND_ONE;
        b->DestBlend = b->DestBlendAlpha = D3D12_BLEND_ZERO;
        b->BlendOp = b->BlendOpAlpha = D3D12_BLEND_OP_ADD;
        if (t->format == WGPUTextureFormat_Undefined) continue;   /* null target: no RTV, mask 0 */
        d->RTVFormats[i] = eg_d3d_format(t->format);
        d->NumRenderTargets = i + 1;
        /* WGPUColorWriteMask R/G/B/A = 1/2/4/8, the D3D12_COLOR_WRITE_ENABLE bits. */
        b->RenderTargetWriteMask = (UINT8)(t->write_mask & 0xFu);
        if (!t->blend_enabled) continue;
        b->BlendEnable = TRUE;
        b->SrcBlend = blend_factor(t->blend.color.srcFactor, false);
        b->DestBlend = blend_factor(t->blend.color.dstFactor, false);
        b->BlendOp = blend_op(t->blend.color.operation);
        b->SrcBlendAlpha = blend_factor(t->blend.alpha.srcFactor, true);
        b->DestBlendAlpha = blend_factor(t->blend.alpha.dstFactor, true);
        b->BlendOpAlpha = blend_op(t->blend.alpha.operation);
    }
}

static D3D12_DEPTH_STENCILOP_DESC stencil_face(const WGPUStencilFaceState *f)
{
    return (D3D12_DEPTH_STENCILOP_DESC){ stencil_op(f->failOp), stencil_op(f->depthFailOp), stencil_op(f->passOp),
                                         eg_d3d_compare_func(f->compare) };
}

static void depth_stencil_state(const eg_render_pipeline_t *rp, D3D12_GRAPHICS_PIPELINE_STATE_DESC *d)
{
    const WGPUDepthStencilState *ds = &rp->depth_stencil;
    D3D12_DEPTH_STENCIL_DESC *o = &d->DepthStencilState;
    if (!rp->has_depth_stencil) return;   /* all zero: depth and stencil off */
    d->DSVFormat = eg_d3d_format(ds->format);
    o->DepthEnable = TRUE;
    o->DepthWriteMask = rp->depth_write_enabled ? D3D12_DEPTH_WRITE_MASK_ALL : D3D12_DEPTH_WRITE_MASK_ZERO;
    o->DepthFunc = eg_d3d_compare_func(ds->depthCompare);
    o->FrontFace = stencil_face(&ds->stencilFront);
    o->BackFace = stencil_face(&ds->stencilBack);
    o->StencilReadMask = (UINT8)ds->stencilReadMask;
    o->StencilWriteMask = (UINT8)ds->stencilWriteMask;
    /* Stencil with all-Keep ops and Always is a no-op either way; on is simplest and exact. */
    o->StencilEnable = TRUE;
    d->RasterizerState.DepthBias = ds->depthBias;
    d->RasterizerState.DepthBiasClamp = ds->depthBiasClamp;
    d->RasterizerState.SlopeScaledDepthBias = ds->depthBiasSlopeScale;
}

void eg_d3d_graphics_desc(const eg_render_pipeline_t *rp, D3D12_GRAPHICS_PIPELINE_STATE_DESC *d,
                          D3D12_INPUT_ELEMENT_DESC elems[EMGPU_MAX_VERTEX_ATTRIBUTES])
{
    eg_memset(d, 0, sizeof *d);
    d->pRootSignature = EG_D3D_PRIV(eg_d3d_layout_t, rp->layout)->root;
    d->InputLayout.pInputElementDescs = elems;
    d->InputLayout.NumElements = input_layout(rp, elems);
    d->PrimitiveTopologyType = topology_type(rp->topology);
    d->IBStripCutValue = rp->strip_index_format == WGPUIndexFormat_Uint16 ? D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFF
                       : rp->strip_index_format == WGPUIndexFormat_Uint32 ? D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFFFFFF
                                                                         : D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED;
    d->RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    d->RasterizerState.CullMode = rp->cull_mode == WGPUCullMode_Front ? D3D12_CULL_MODE_FRONT
                                : rp->cull_mode == WGPUCullMode_Back ? D3D12_CULL_MODE_BACK : D3D12_CULL_MODE_NONE;
    d->RasterizerState.FrontCounterClockwise = rp->front_face == WGPUFrontFace_CW ? FALSE : TRUE;
    d->RasterizerState.DepthClipEnable = rp->unclipped_depth ? FALSE : TRUE;
    d->RasterizerState.MultisampleEnable = rp->sample_count > 1 ? TRUE : FALSE;
    blend_state(rp, d);
    depth_stencil_state(rp, d);
    d->SampleMask = rp->sample_mask;
    d->SampleDesc.Count = rp->sample_count ? rp->sample_count : 1;
}

#endif /* EMGPU_HAL_D3D12 */
