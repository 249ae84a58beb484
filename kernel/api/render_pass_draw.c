/* Render pass draws: draw-time validation (spec "validating draw") and the four draw entry points. */
#include "kernel/api/buffer.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/pass_encoder.h"
#include "kernel/api/render_pipeline.h"

#define RP(h, entry, v) eg_pass_enter((h), true, (entry), (v))

/* ---- draws ---- */

/* Spec: "validate draw": pipeline set, bind groups compatible, every vertex buffer slot the
 * pipeline uses bound. */
static bool check_draw_state(eg_pass_t *p, const eg_vctx_t *v)
{
    const eg_render_pipeline_t *rp = (const eg_render_pipeline_t *)p->pipeline;
    EG_PCHECK(p, v, rp != NULL, DRAW_STATE, "no pipeline set (call SetPipeline before drawing)");
    const eg_stage_t *stages[2] = { &rp->vertex, rp->fragment.module ? &rp->fragment : NULL };
    if (!eg_pass_check_bind_groups(p, v, rp->layout, stages, 2))
        return false;
    for (uint32_t i = 0; i < rp->vertex_buffer_count && i < EMGPU_MAX_VERTEX_BUFFERS; i++)
        EG_PCHECK(p, v, !rp->vertex_buffers[i].used || (p->vb_mask & (1u << i)), DRAW_STATE,
                  "vertex buffer slot %u is used by the pipeline but no buffer is set", (unsigned)i);
    p->draw_count++;
    return true;
}

/* Spec: "validate draw" buffer ranges: (strideCount - 1) * arrayStride + lastStride must fit. */
static bool check_vertex_ranges(eg_pass_t *p, const eg_vctx_t *v, uint64_t vcount, uint64_t icount)
{
    const eg_render_pipeline_t *rp = (const eg_render_pipeline_t *)p->pipeline;
    for (uint32_t i = 0; i < rp->vertex_buffer_count && i < EMGPU_MAX_VERTEX_BUFFERS; i++) {
        const eg_vertex_buffer_t *vb = &rp->vertex_buffers[i];
        if (!vb->used)
            continue;
        uint64_t strides = vb->step_mode == WGPUVertexStepMode_Instance ? icount : vcount;
        if (strides == 0 || strides == UINT64_MAX)
            continue;
        uint64_t last = 0;
        for (uint32_t a = vb->first_attrib; a < vb->first_attrib + vb->attrib_count; a++)
            last = eg_max_u64(last, (uint64_t)rp->attribs[a].offset_B + rp->attribs[a].size_B);
        uint64_t need = (strides - 1) * vb->stride_B + last;
        EG_PCHECK(p, v, need <= p->vb_size_B[i], DRAW_RANGE,
                  "vertex buffer slot %u needs %llu bytes but %llu are bound", (unsigned)i,
                  (unsigned long long)need, (unsigned long long)p->vb_size_B[i]);
    }
    return true;
}

static void record_draw(eg_pass_t *p, const eg_vctx_t *v, eg_cmd_op_t op, uint32_t count, uint32_t inst,
                        uint32_t first, int32_t base, uint32_t first_inst)
{
    eg_cmd_draw_t *c = (eg_cmd_draw_t *)eg_pass_record(p, v, op, sizeof *c);
    if (c) {
        c->count = count; c->instance_count = inst; c->first = first;
        c->base_vertex = base; c->first_instance = first_inst;
    }
}

void wgpuRenderPassEncoderDraw(WGPURenderPassEncoder renderPassEncoder, uint32_t vertexCount,
                               uint32_t instanceCount, uint32_t firstVertex, uint32_t firstInstance)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderDraw", &v);
    if (!p || !check_draw_state(p, &v) ||
        !check_vertex_ranges(p, &v, (uint64_t)firstVertex + vertexCount, (uint64_t)firstInstance + instanceCount))
        return;
    record_draw(p, &v, EG_CMD_DRAW, vertexCount, instanceCount, firstVertex, 0, firstInstance);
}

/* Spec: "validate drawIndexed": index buffer set, strip index format matches, index range fits. */
static bool check_indexed(eg_pass_t *p, const eg_vctx_t *v)
{
    const eg_render_pipeline_t *rp = (const eg_render_pipeline_t *)p->pipeline;
    EG_PCHECK(p, v, p->index_buffer != NULL, DRAW_STATE, "no index buffer set (call SetIndexBuffer)");
    EG_PCHECK(p, v, rp->strip_index_format == WGPUIndexFormat_Undefined ||
                  rp->strip_index_format == p->index_format, DRAW_STATE,
              "index format 0x%x differs from the pipeline's stripIndexFormat 0x%x",
              (unsigned)p->index_format, (unsigned)rp->strip_index_format);
    return true;
}

void wgpuRenderPassEncoderDrawIndexed(WGPURenderPassEncoder renderPassEncoder, uint32_t indexCount,
                                      uint32_t instanceCount, uint32_t firstIndex, int32_t baseVertex,
                                      uint32_t firstInstance)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(renderPassEncoder, "wgpuRenderPassEncoderDrawIndexed", &v);
    if (!p || !check_draw_state(p, &v) || !check_indexed(p, &v))
        return;
    uint64_t isz = p->index_format == WGPUIndexFormat_Uint16 ? 2u : 4u;
    if ((uint64_t)firstIndex + indexCount > p->index_size_B / isz) {
        eg_pass_fail(p, &v, EG_E_DRAW_RANGE, "firstIndex %u + indexCount %u exceeds the %llu indices "
                     "bound", (unsigned)firstIndex, (unsigned)indexCount,
                     (unsigned long long)(p->index_size_B / isz));
        return;
    }
    /* Vertex-step buffers are indexed by the data, so only instance ranges are checkable. */
    if (!check_vertex_ranges(p, &v, UINT64_MAX, (uint64_t)firstInstance + instanceCount))
        return;
    record_draw(p, &v, EG_CMD_DRAW_INDEXED, indexCount, instanceCount, firstIndex, baseVertex, firstInstance);
}

static void draw_indirect(WGPURenderPassEncoder h, const char *entry, eg_cmd_op_t op, WGPUBuffer b,
                          uint64_t offset, uint32_t args_B)
{
    eg_vctx_t v;
    eg_pass_t *p = RP(h, entry, &v);
    if (!p || !eg_pass_check_indirect(p, &v, b, offset, args_B) || !check_draw_state(p, &v))
        return;
    if (op == EG_CMD_DRAW_INDEXED_INDIRECT && !check_indexed(p, &v))
        return;
    if (!eg_pass_use_buffer(p, &v, b, EG_TRACK_BUF_INDIRECT))
        return;
    eg_cmd_indirect_t *c = (eg_cmd_indirect_t *)eg_pass_record(p, &v, op, sizeof *c);
    if (!c)
        return;
    c->buffer = b;
    c->offset_B = offset;
    eg_encoder_hold_refs(&c->hdr);
}

void wgpuRenderPassEncoderDrawIndirect(WGPURenderPassEncoder renderPassEncoder, WGPUBuffer indirectBuffer,
                                       uint64_t indirectOffset)
{
    draw_indirect(renderPassEncoder, "wgpuRenderPassEncoderDrawIndirect", EG_CMD_DRAW_INDIRECT,
                  indirectBuffer, indirectOffset, 16u);
}

void wgpuRenderPassEncoderDrawIndexedIndirect(WGPURenderPassEncoder renderPassEncoder,
                                              WGPUBuffer indirectBuffer, uint64_t indirectOffset)
{
    draw_indirect(renderPassEncoder, "wgpuRenderPassEncoderDrawIndexedIndirect",
                  EG_CMD_DRAW_INDEXED_INDIRECT, indirectBuffer, indirectOffset, 20u);
}
