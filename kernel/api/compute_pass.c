/* Compute pass encoders: BeginComputePass and every wgpuComputePassEncoder* entry point. */
#include "kernel/api/buffer.h"
#include "kernel/api/compute_pipeline.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/pass_encoder.h"
#include "kernel/api/pipeline_layout.h"

#define CP(h, entry, v) eg_pass_enter((h), false, (entry), (v))

WGPUComputePassEncoder wgpuCommandEncoderBeginComputePass(WGPUCommandEncoder commandEncoder,
                                                          WGPUComputePassDescriptor const *descriptor)
{
    eg_vctx_t v;
    eg_encoder_t *e = eg_encoder_enter(commandEncoder, "wgpuCommandEncoderBeginComputePass", &v);
    if (!e)
        return NULL;
    WGPUStringView label = { NULL, 0 };
    if (descriptor)
        label = descriptor->label;
    eg_pass_t *p = eg_pass_begin(e, &v, false, label);
    if (!p)
        return NULL;
    WGPUComputePassEncoder handle = (WGPUComputePassEncoder)(void *)p;
    if (!p->owns_lock)
        return handle;
    if (descriptor && descriptor->nextInChain) {
        eg_pass_fail(p, &v, EG_E_UNKNOWN_STYPE, "descriptor.nextInChain has sType 0x%x, which this "
                     "call does not accept", (unsigned)descriptor->nextInChain->sType);
        return handle;
    }
    if (descriptor && descriptor->timestampWrites) {
        eg_pass_fail(p, &v, EG_E_PASS_QUERY_UNSUPPORTED, "timestampWrites: query sets are not "
                     "supported by emgpu yet");
        return handle;
    }
    eg_pass_record(p, &v, EG_CMD_BEGIN_COMPUTE_PASS, sizeof(eg_cmd_header_t));
    return handle;
}

void wgpuComputePassEncoderSetPipeline(WGPUComputePassEncoder computePassEncoder, WGPUComputePipeline pipeline)
{
    eg_vctx_t v;
    eg_pass_t *p = CP(computePassEncoder, "wgpuComputePassEncoderSetPipeline", &v);
    if (!p)
        return;
    if (!eg_encoder_check_object(p->enc, &v, pipeline, EG_KIND_COMPUTE_PIPELINE, "pipeline")) {
        p->obj.invalid = 1;
        return;
    }
    p->pipeline = pipeline;
    p->sizes_checked = 0;
    eg_cmd_set_pipeline_t *c = (eg_cmd_set_pipeline_t *)eg_pass_record(p, &v, EG_CMD_SET_COMPUTE_PIPELINE, sizeof *c);
    if (!c)
        return;
    c->pipeline = pipeline;
    eg_encoder_hold_refs(&c->hdr);
}

void wgpuComputePassEncoderSetBindGroup(WGPUComputePassEncoder computePassEncoder, uint32_t groupIndex,
                                        WGPUBindGroup group, size_t dynamicOffsetCount,
                                        uint32_t const *dynamicOffsets)
{
    eg_vctx_t v;
    eg_pass_t *p = CP(computePassEncoder, "wgpuComputePassEncoderSetBindGroup", &v);
    if (p)
        eg_pass_set_bind_group(p, &v, groupIndex, group, dynamicOffsetCount, dynamicOffsets);
}

/* Spec: "validate dispatch": pipeline set and bind groups compatible. Each dispatch is its own
 * usage scope: the bound groups (and the indirect buffer) are merged, then folded into the
 * command-buffer tracker with the transitions placed right before the dispatch record. */
static bool dispatch_scope(eg_pass_t *p, const eg_vctx_t *v, const eg_buffer_t *indirect)
{
    const eg_compute_pipeline_t *cp = (const eg_compute_pipeline_t *)p->pipeline;
    EG_PCHECK(p, v, cp != NULL, DRAW_STATE, "no pipeline set (call SetPipeline before dispatching)");
    const eg_stage_t *stages[1] = { &cp->compute };
    if (!eg_pass_check_bind_groups(p, v, cp->layout, stages, 1))
        return false;
    eg_encoder_t *e = p->enc;
    if (!e->tracking)
        return true;
    eg_track_scope_reset(&e->scope);
    uint32_t groups = cp->layout ? cp->layout->group_count : 0;
    for (uint32_t i = 0; i < groups && i < EMGPU_MAX_BIND_GROUPS_PER_LAYOUT; i++)
        if (p->groups[i] && !eg_pass_use_bind_group(p, v, p->groups[i]))
            return false;
    if (indirect && !eg_pass_use_buffer(p, v, indirect, EG_TRACK_BUF_INDIRECT))
        return false;
    if (!eg_encoder_barrier_scope(e, v, e->stream.used_B)) {
        p->obj.invalid = 1;
        return false;
    }
    return true;
}

void wgpuComputePassEncoderDispatchWorkgroups(WGPUComputePassEncoder computePassEncoder, uint32_t workgroupCountX,
                                             uint32_t workgroupCountY, uint32_t workgroupCountZ)
{
    eg_vctx_t v;
    eg_pass_t *p = CP(computePassEncoder, "wgpuComputePassEncoderDispatchWorkgroups", &v);
    if (!p)
        return;
    uint32_t max = p->obj.device->limits.maxComputeWorkgroupsPerDimension;
    if (workgroupCountX > max || workgroupCountY > max || workgroupCountZ > max) {
        eg_pass_fail(p, &v, EG_E_DISPATCH_SIZE, "workgroup count (%u, %u, %u) exceeds "
                     "maxComputeWorkgroupsPerDimension (%u)", (unsigned)workgroupCountX,
                     (unsigned)workgroupCountY, (unsigned)workgroupCountZ, (unsigned)max);
        return;
    }
    if (!dispatch_scope(p, &v, NULL))
        return;
    eg_cmd_dispatch_t *c = (eg_cmd_dispatch_t *)eg_pass_record(p, &v, EG_CMD_DISPATCH, sizeof *c);
    if (c) {
        c->x = workgroupCountX; c->y = workgroupCountY; c->z = workgroupCountZ;
    }
}

void wgpuComputePassEncoderDispatchWorkgroupsIndirect(WGPUComputePassEncoder computePassEncoder,
                                                     WGPUBuffer indirectBuffer, uint64_t indirectOffset)
{
    eg_vctx_t v;
    eg_pass_t *p = CP(computePassEncoder, "wgpuComputePassEncoderDispatchWorkgroupsIndirect", &v);
    if (!p || !eg_pass_check_indirect(p, &v, indirectBuffer, indirectOffset, 12u) ||
        !dispatch_scope(p, &v, indirectBuffer))
        return;
    eg_cmd_indirect_t *c = (eg_cmd_indirect_t *)eg_pass_record(p, &v, EG_CMD_DISPATCH_INDIRECT, sizeof *c);
    if (!c)
        return;
    c->buffer = indirectBuffer;
    c->offset_B = indirectOffset;
    eg_encoder_hold_refs(&c->hdr);
}

void wgpuComputePassEncoderPushDebugGroup(WGPUComputePassEncoder computePassEncoder, WGPUStringView groupLabel)
{
    eg_vctx_t v;
    eg_pass_t *p = CP(computePassEncoder, "wgpuComputePassEncoderPushDebugGroup", &v);
    if (p)
        eg_pass_debug(p, &v, EG_CMD_PUSH_DEBUG_GROUP, groupLabel);
}

void wgpuComputePassEncoderPopDebugGroup(WGPUComputePassEncoder computePassEncoder)
{
    eg_vctx_t v;
    eg_pass_t *p = CP(computePassEncoder, "wgpuComputePassEncoderPopDebugGroup", &v);
    WGPUStringView none = { NULL, 0 };
    if (p)
        eg_pass_debug(p, &v, EG_CMD_POP_DEBUG_GROUP, none);
}

void wgpuComputePassEncoderInsertDebugMarker(WGPUComputePassEncoder computePassEncoder, WGPUStringView markerLabel)
{
    eg_vctx_t v;
    eg_pass_t *p = CP(computePassEncoder, "wgpuComputePassEncoderInsertDebugMarker", &v);
    if (p)
        eg_pass_debug(p, &v, EG_CMD_INSERT_DEBUG_MARKER, markerLabel);
}

void wgpuComputePassEncoderEnd(WGPUComputePassEncoder computePassEncoder)
{
    eg_vctx_t v;
    eg_pass_t *p = CP(computePassEncoder, "wgpuComputePassEncoderEnd", &v);
    if (p)
        eg_pass_end(p, &v, EG_CMD_END_COMPUTE_PASS);
}

void wgpuComputePassEncoderSetLabel(WGPUComputePassEncoder computePassEncoder, WGPUStringView label)
{
    if (eg_handle_live(computePassEncoder, EG_KIND_PASS_ENCODER, "wgpuComputePassEncoderSetLabel"))
        eg_object_set_label(&computePassEncoder->p.obj, label);
}

void wgpuComputePassEncoderAddRef(WGPUComputePassEncoder computePassEncoder)
{
    if (eg_handle_live(computePassEncoder, EG_KIND_PASS_ENCODER, "wgpuComputePassEncoderAddRef"))
        eg_object_ref(computePassEncoder);
}

void wgpuComputePassEncoderRelease(WGPUComputePassEncoder computePassEncoder)
{
    if (eg_handle_live(computePassEncoder, EG_KIND_PASS_ENCODER, "wgpuComputePassEncoderRelease"))
        eg_pass_release(&computePassEncoder->p);
}
