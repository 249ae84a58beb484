/* hal/d3d12 draw/dispatch recording: pipelines, bind groups, vertex/index buffers, draws, dispatches, indirect.
 *
 * WebGPU binds groups and vertex buffers independently of the pipeline; D3D12 binds groups through
 * the pipeline's root signature (a new root signature forgets every root argument) and takes
 * vertex strides with the buffer views. So the stream's bindings are remembered
 * (eg_d3d_draw_state_t) and applied before each draw/dispatch: groups after a root signature
 * change or a setBindGroup, vertex buffers after a pipeline change or setVertexBuffer.
 *
 * System values (hal/d3d12/d3d_tpf.h): D3D12's SV_VertexID / SV_InstanceID do not include the
 * draw's first vertex / base vertex and first instance, and compute has no num_workgroups, so
 * the shaders read them from a constant buffer bound as the root signature's last parameter.
 * It is a root CBV, not root constants: the indirect commands must take the values from their
 * GPU-side arguments, and vkd3d 1.6 (wine 8.0) silently executes nothing for a command
 * signature of more than one argument ({root constants, draw}: measured, README), so each
 * indirect command's arguments are copied into a scratch record [sysvals | arguments], the CBV
 * points at its front and a one-argument signature executes the rest. Direct draws write their
 * values into a mapped upload buffer (one 256-byte record per distinct set in a submit).
 * WebGPU's indirect layouts (spec "drawIndirect", "drawIndexedIndirect", "dispatchWorkgroups
 * Indirect") are D3D12's: {vertexCount, instanceCount, firstVertex, firstInstance},
 * {indexCount, instanceCount, firstIndex, baseVertex, firstInstance}, {x, y, z}.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "hal/d3d12/d3d_tpf.h"
#include "kernel/api/bind_group_layout.h"

void eg_d3d_draw_state_reset(eg_d3d_draw_state_t *ds)
{
    bool heaps = ds->heaps_set;
    eg_memset(ds, 0, sizeof *ds);
    ds->heaps_set = heaps;
}

static D3D12_GPU_VIRTUAL_ADDRESS buffer_va(const eg_buffer_t *buf)
{
    return ID3D12Resource_GetGPUVirtualAddress(EG_D3D_PRIV(const eg_d3d_buffer_t, buf)->res);
}

static const eg_pipeline_layout_t *current_layout(const eg_d3d_draw_state_t *ds)
{
    return ds->compute ? (ds->cp ? ds->cp->layout : NULL) : (ds->rp ? ds->rp->layout : NULL);
}

static void set_pipeline(ID3D12GraphicsCommandList *cl, eg_d3d_draw_state_t *ds, const eg_cmd_set_pipeline_t *c,
                         bool compute, eg_hal_device_t *dev)
{
    if (!ds->heaps_set) {
        ID3D12DescriptorHeap *heaps[2] = { dev->gpu_heap[0], dev->gpu_heap[1] };
        ID3D12GraphicsCommandList_SetDescriptorHeaps(cl, 2, heaps);
        ds->heaps_set = true;
    }
    ds->compute = compute;
    if (compute) ds->cp = c->pipeline;
    else ds->rp = c->pipeline;
    const eg_pipeline_layout_t *pl = current_layout(ds);
    ID3D12RootSignature *root = EG_D3D_PRIV(eg_d3d_layout_t, pl)->root;
    if (!ds->layout || EG_D3D_PRIV(eg_d3d_layout_t, ds->layout)->root != root) {
        if (compute) ID3D12GraphicsCommandList_SetComputeRootSignature(cl, root);
        else ID3D12GraphicsCommandList_SetGraphicsRootSignature(cl, root);
        ds->group_dirty = (1u << EMGPU_MAX_BIND_GROUPS_PER_LAYOUT) - 1u;
    }
    ds->layout = pl;
    if (compute) {
        ds->pso = EG_D3D_PRIV(eg_d3d_pipeline_t, ds->cp)->pso;
        ID3D12GraphicsCommandList_SetPipelineState(cl, ds->pso);
        return;
    }
    ds->pso = NULL;   /* chosen at the draw: strips may need the 32-bit-index PSO */
    D3D_PRIMITIVE_TOPOLOGY topo = (D3D_PRIMITIVE_TOPOLOGY)EG_D3D_PRIV(eg_d3d_pipeline_t, ds->rp)->topology;
    ID3D12GraphicsCommandList_IASetPrimitiveTopology(cl, topo);
    ds->vb_dirty = (1u << EMGPU_MAX_VERTEX_BUFFERS) - 1u;   /* strides come from the pipeline */
}

static void set_root_table(ID3D12GraphicsCommandList *cl, bool compute, uint32_t param, D3D12_GPU_DESCRIPTOR_HANDLE h)
{
    if (compute) ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(cl, param, h);
    else ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(cl, param, h);
}

/* Tables of the dirty groups. A group's dynamic-offset buffers are views written now with the
 * offsets of its setBindGroup (d3d_binding.c: views carry the binding's size, so the hardware
 * bounds shader accesses and bufinfo is the binding's; root descriptors would not). */
static eg_status_t flush_groups(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_d3d_draw_state_t *ds)
{
    const eg_d3d_layout_t *l = EG_D3D_PRIV(const eg_d3d_layout_t, ds->layout);
    for (uint32_t i = 0; i < EMGPU_MAX_BIND_GROUPS_PER_LAYOUT && ds->group_dirty; i++) {
        const eg_cmd_set_bind_group_t *g = ds->groups[i];
        if (!(ds->group_dirty & (1u << i)) || !g || !g->group || i >= ds->layout->group_count) continue;
        const eg_d3d_bind_group_t *bg = EG_D3D_PRIV(const eg_d3d_bind_group_t, g->group);
        if (l->view_param[i] != EG_D3D_NO_PARAM && bg->views) {
            D3D12_GPU_DESCRIPTOR_HANDLE h = { dev->gpu_gpu0[0].ptr + (UINT64)(bg->views - 1) * dev->gpu_stride_B[0] };
            set_root_table(cl, ds->compute, l->view_param[i], h);
        }
        if (l->sampler_param[i] != EG_D3D_NO_PARAM && bg->samplers) {
            D3D12_GPU_DESCRIPTOR_HANDLE h = { dev->gpu_gpu0[1].ptr + (UINT64)(bg->samplers - 1) * dev->gpu_stride_B[1] };
            set_root_table(cl, ds->compute, l->sampler_param[i], h);
        }
        if (l->dynamic_param[i] != EG_D3D_NO_PARAM) {
            D3D12_GPU_DESCRIPTOR_HANDLE h;
            eg_status_t st = eg_d3d_dynamic_table(dev, g->group, g->dynamic_offsets, g->dynamic_offset_count, &h);
            if (st != EG_STATUS_OK) return st;
            set_root_table(cl, ds->compute, l->dynamic_param[i], h);
        }
        ds->group_dirty &= ~(1u << i);
    }
    ds->group_dirty = 0;
    return EG_STATUS_OK;
}

static void flush_vertex(ID3D12GraphicsCommandList *cl, eg_d3d_draw_state_t *ds)
{
    const eg_render_pipeline_t *rp = ds->rp;
    for (uint32_t i = 0; i < EMGPU_MAX_VERTEX_BUFFERS && ds->vb_dirty; i++) {
        const eg_cmd_set_buffer_t *b = ds->vb[i];
        if (!(ds->vb_dirty & (1u << i)) || !b || !b->buffer) continue;
        D3D12_VERTEX_BUFFER_VIEW v = { buffer_va(b->buffer) + b->offset_B, (UINT)b->size_B,
                                       i < rp->vertex_buffer_count ? rp->vertex_buffers[i].stride_B : 0u };
        ID3D12GraphicsCommandList_IASetVertexBuffers(cl, i, 1, &v);
    }
    ds->vb_dirty = 0;
    if (ds->ib_dirty && ds->ib) {
        D3D12_INDEX_BUFFER_VIEW v = { buffer_va(ds->ib->buffer) + ds->ib->offset_B, (UINT)ds->ib->size_B,
                                      ds->ib->index_format == WGPUIndexFormat_Uint32 ? DXGI_FORMAT_R32_UINT
                                                                                      : DXGI_FORMAT_R16_UINT };
        ID3D12GraphicsCommandList_IASetIndexBuffer(cl, &v);
    }
    ds->ib_dirty = false;
    const eg_d3d_pipeline_t *p = EG_D3D_PRIV(const eg_d3d_pipeline_t, rp);
    ID3D12PipelineState *want = p->pso_u32 && ds->ib && ds->ib->index_format == WGPUIndexFormat_Uint32 ? p->pso_u32
                                                                                                       : p->pso;
    if (want != ds->pso) {
        ID3D12GraphicsCommandList_SetPipelineState(cl, want);
        ds->pso = want;
    }
}

/* ---- system values ---- */

static eg_status_t place_buffer(eg_hal_device_t *dev, eg_d3d_mem_kind_t kind, uint64_t size_B, ID3D12Resource **res,
                                eg_d3d_alloc_t *alloc)
{
    D3D12_RESOURCE_DESC rd = { D3D12_RESOURCE_DIMENSION_BUFFER, 0, size_B, 1, 1, 1, DXGI_FORMAT_UNKNOWN, { 1, 0 },
                               D3D12_TEXTURE_LAYOUT_ROW_MAJOR, D3D12_RESOURCE_FLAG_NONE };
    D3D12_RESOURCE_STATES st0 = kind == EG_D3D_MEM_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ : D3D12_RESOURCE_STATE_COMMON;
    eg_status_t st = eg_d3d_place(dev, kind, &rd, st0, NULL, res, alloc);
    if (st != EG_STATUS_OK) *res = NULL;
    return st;
}

static eg_status_t sysvals_ready(eg_hal_device_t *dev)
{
    if (dev->sysvals) return EG_STATUS_OK;
    eg_status_t st = place_buffer(dev, EG_D3D_MEM_UPLOAD, (uint64_t)EMGPU_D3D12_SYSVALS_BYTES * EMGPU_D3D12_COMMAND_RING,
                                  &dev->sysvals, &dev->sysvals_alloc);
    if (st != EG_STATUS_OK) return st;
    void *p = NULL;
    D3D12_RANGE none = { 0, 0 };
    HRESULT hr = EG_D3D_CALL("ID3D12Resource::Map", ID3D12Resource_Map(dev->sysvals, 0, &none, &p));
    if (FAILED(hr)) {
        ID3D12Resource_Release(dev->sysvals);
        eg_d3d_memory_free(dev, &dev->sysvals_alloc);
        dev->sysvals = NULL;
        return eg_d3d_check(dev, hr, "ID3D12Resource::Map");
    }
    dev->sysvals_host = p;
    return EG_STATUS_OK;
}

/* The sysvals constant buffer of the next draw/dispatch: the slot's last record when it holds
 * the same values (the common case: every draw from vertex 0, instance 0), else a new one. */
static eg_status_t set_sysvals(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const eg_d3d_draw_state_t *ds,
                               const uint32_t *v, uint32_t count)
{
    uint32_t rec[EG_D3D_TPF_SYSVALS_DWORDS] = { 0 };
    for (uint32_t i = 0; i < count && i < EG_D3D_TPF_SYSVALS_DWORDS; i++) rec[i] = v[i];
    eg_status_t st = sysvals_ready(dev);
    if (st != EG_STATUS_OK) return st;
    if (dev->sysvals_used_B == 0 || eg_memcmp(rec, dev->sysvals_last, sizeof rec) != 0) {
        if (dev->sysvals_used_B + D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT > EMGPU_D3D12_SYSVALS_BYTES) {
            eg_d3d_knob_exhausted("draw/dispatch system values (per submit)", "EMGPU_D3D12_SYSVALS_BYTES",
                                  EMGPU_D3D12_SYSVALS_BYTES);
            return EG_STATUS_OUT_OF_MEMORY;
        }
        uint32_t off = dev->cur_slot * EMGPU_D3D12_SYSVALS_BYTES + dev->sysvals_used_B;
        eg_memcpy(dev->sysvals_host + off, rec, sizeof rec);
        eg_memcpy(dev->sysvals_last, rec, sizeof rec);
        dev->sysvals_used_B += D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT;
    }
    D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(dev->sysvals) +
                                   dev->cur_slot * EMGPU_D3D12_SYSVALS_BYTES + dev->sysvals_used_B -
                                   D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT;
    uint32_t param = EG_D3D_PRIV(const eg_d3d_layout_t, ds->layout)->sysvals_param;
    if (ds->compute) ID3D12GraphicsCommandList_SetComputeRootConstantBufferView(cl, param, va);
    else ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(cl, param, va);
    return EG_STATUS_OK;
}

/* Everything a draw/dispatch needs bound. */
static eg_status_t prepare(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_d3d_draw_state_t *ds)
{
    eg_status_t st = flush_groups(dev, cl, ds);
    if (st == EG_STATUS_OK && !ds->compute) flush_vertex(cl, ds);
    return st;
}

/* ---- indirect ---- */

void eg_d3d_indirect_fini(eg_hal_device_t *dev)
{
    for (uint32_t k = 0; k < EG_D3D_INDIRECT_KIND_COUNT; k++) {
        if (dev->indirect_sig[k]) ID3D12CommandSignature_Release(dev->indirect_sig[k]);
        dev->indirect_sig[k] = NULL;
    }
    if (dev->indirect) { ID3D12Resource_Release(dev->indirect); eg_d3d_memory_free(dev, &dev->indirect_alloc); }
    if (dev->sysvals) { ID3D12Resource_Release(dev->sysvals); eg_d3d_memory_free(dev, &dev->sysvals_alloc); }
    dev->indirect = dev->sysvals = NULL;
    dev->sysvals_host = NULL;
}

/* The scratch buffer's state within the current execute (buffers decay to COMMON after each,
 * d3d_barrier.c); its first use promotes implicitly (COPY_DEST). */
static void scratch_use(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, D3D12_RESOURCE_STATES state)
{
    D3D12_RESOURCE_STATES cur = dev->indirect_epoch == dev->exec_epoch ? (D3D12_RESOURCE_STATES)dev->indirect_state
                                                                       : D3D12_RESOURCE_STATE_COMMON;
    dev->indirect_epoch = dev->exec_epoch;
    dev->indirect_state = (uint32_t)state;
    if (cur == state || cur == D3D12_RESOURCE_STATE_COMMON) return;
    D3D12_RESOURCE_BARRIER rb;
    eg_memset(&rb, 0, sizeof rb);
    rb.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    rb.Transition.pResource = dev->indirect;
    rb.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    rb.Transition.StateBefore = cur;
    rb.Transition.StateAfter = state;
    ID3D12GraphicsCommandList_ResourceBarrier(cl, 1, &rb);
}

/* Per kind: argument bytes, sysvals dwords and where they sit in the arguments. */
static const struct { uint32_t args_B, sys_dwords, sys_from_B; D3D12_INDIRECT_ARGUMENT_TYPE type; } kinds[] = {
    [EG_D3D_INDIRECT_DRAW] = { 16, 2, 8, D3D12_INDIRECT_ARGUMENT_TYPE_DRAW },                 /* firstVertex, firstInstance */
    [EG_D3D_INDIRECT_DRAW_INDEXED] = { 20, 2, 12, D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED }, /* baseVertex, firstInstance */
    [EG_D3D_INDIRECT_DISPATCH] = { 12, 3, 0, D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH },        /* x, y, z */
};

/* The scratch buffer and this kind's command signature (one argument: no root signature). */
static eg_status_t indirect_ready(eg_hal_device_t *dev, eg_d3d_indirect_kind_t k)
{
    if (!dev->indirect) {
        eg_status_t st = place_buffer(dev, EG_D3D_MEM_BUFFER,
                                      (uint64_t)EMGPU_D3D12_INDIRECT_SCRATCH_BYTES * EMGPU_D3D12_COMMAND_RING,
                                      &dev->indirect, &dev->indirect_alloc);
        if (st != EG_STATUS_OK) return st;
        dev->indirect_epoch = dev->exec_epoch - 1u;   /* COMMON in this epoch */
    }
    if (dev->indirect_sig[k]) return EG_STATUS_OK;
    D3D12_INDIRECT_ARGUMENT_DESC a;
    eg_memset(&a, 0, sizeof a);
    a.Type = kinds[k].type;
    D3D12_COMMAND_SIGNATURE_DESC d = { kinds[k].args_B, 1, &a, 0 };
    HRESULT hr = EG_D3D_CALL("CreateCommandSignature", ID3D12Device_CreateCommandSignature(
                                 dev->device, &d, NULL, &IID_ID3D12CommandSignature, (void **)&dev->indirect_sig[k]));
    if (FAILED(hr)) { dev->indirect_sig[k] = NULL; return eg_d3d_check(dev, hr, "CreateCommandSignature"); }
    return EG_STATUS_OK;
}

/* One 256-byte record of the slot's scratch region: [sysvals (16 B) | arguments]. The sysvals
 * are copied from the arguments GPU-side and bound as the root CBV; ExecuteIndirect reads the
 * arguments behind them. */
static eg_status_t indirect(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_d3d_draw_state_t *ds,
                            const eg_cmd_indirect_t *c, eg_d3d_indirect_kind_t k)
{
    eg_status_t st = indirect_ready(dev, k);
    if (st != EG_STATUS_OK) return st;
    if (dev->indirect_used_B + D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT > EMGPU_D3D12_INDIRECT_SCRATCH_BYTES) {
        eg_d3d_knob_exhausted("indirect argument scratch (per submit)", "EMGPU_D3D12_INDIRECT_SCRATCH_BYTES",
                              EMGPU_D3D12_INDIRECT_SCRATCH_BYTES);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    uint64_t dst = (uint64_t)dev->cur_slot * EMGPU_D3D12_INDIRECT_SCRATCH_BYTES + dev->indirect_used_B;
    dev->indirect_used_B += D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT;
    st = prepare(dev, cl, ds);
    if (st != EG_STATUS_OK) return st;
    /* The source only needs to be readable by the copy; it goes back to its state in the pass. */
    eg_d3d_buffer_t *src = EG_D3D_PRIV(eg_d3d_buffer_t, c->buffer);
    D3D12_RESOURCE_STATES prev = src->epoch == dev->exec_epoch ? (D3D12_RESOURCE_STATES)src->state
                                                              : D3D12_RESOURCE_STATE_COMMON;
    eg_d3d_buffer_use(dev, cl, c->buffer, D3D12_RESOURCE_STATE_COPY_SOURCE);
    scratch_use(dev, cl, D3D12_RESOURCE_STATE_COPY_DEST);
    const uint32_t sys_B = EG_D3D_TPF_SYSVALS_DWORDS * 4u;
    ID3D12GraphicsCommandList_CopyBufferRegion(cl, dev->indirect, dst, src->res, c->offset_B + kinds[k].sys_from_B,
                                               kinds[k].sys_dwords * 4u);
    ID3D12GraphicsCommandList_CopyBufferRegion(cl, dev->indirect, dst + sys_B, src->res, c->offset_B, kinds[k].args_B);
    scratch_use(dev, cl, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT | D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER);
    if (prev != D3D12_RESOURCE_STATE_COMMON) eg_d3d_buffer_use(dev, cl, c->buffer, prev);
    D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(dev->indirect) + dst;
    uint32_t param = EG_D3D_PRIV(const eg_d3d_layout_t, ds->layout)->sysvals_param;
    if (ds->compute) ID3D12GraphicsCommandList_SetComputeRootConstantBufferView(cl, param, va);
    else ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(cl, param, va);
    ID3D12GraphicsCommandList_ExecuteIndirect(cl, dev->indirect_sig[k], 1, dev->indirect, dst + sys_B, NULL, 0);
    return EG_STATUS_OK;
}

/* ---- the records ---- */

static eg_status_t draw(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_d3d_draw_state_t *ds,
                        const eg_cmd_draw_t *d, bool indexed)
{
    uint32_t sys[2] = { indexed ? (uint32_t)d->base_vertex : d->first, d->first_instance };
    eg_status_t st = prepare(dev, cl, ds);
    if (st == EG_STATUS_OK) st = set_sysvals(dev, cl, ds, sys, 2);
    if (st != EG_STATUS_OK) return st;
    if (indexed)
        ID3D12GraphicsCommandList_DrawIndexedInstanced(cl, d->count, d->instance_count, d->first, d->base_vertex,
                                                       d->first_instance);
    else
        ID3D12GraphicsCommandList_DrawInstanced(cl, d->count, d->instance_count, d->first, d->first_instance);
    return EG_STATUS_OK;
}

static eg_status_t dispatch(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_d3d_draw_state_t *ds,
                            const eg_cmd_dispatch_t *d)
{
    uint32_t sys[3] = { d->x, d->y, d->z };
    eg_status_t st = prepare(dev, cl, ds);
    if (st == EG_STATUS_OK) st = set_sysvals(dev, cl, ds, sys, 3);
    if (st == EG_STATUS_OK) ID3D12GraphicsCommandList_Dispatch(cl, d->x, d->y, d->z);
    return st;
}

static void set_group(eg_d3d_draw_state_t *ds, const eg_cmd_set_bind_group_t *g)
{
    if (g->index >= EMGPU_MAX_BIND_GROUPS_PER_LAYOUT) return;
    ds->groups[g->index] = g;
    ds->group_dirty |= 1u << g->index;
}

eg_status_t eg_d3d_record_pipeline_cmd(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_d3d_draw_state_t *ds,
                                       const eg_cmd_header_t *h)
{
    switch ((eg_cmd_op_t)h->op) {
    case EG_CMD_SET_RENDER_PIPELINE: set_pipeline(cl, ds, (const void *)h, false, dev); break;
    case EG_CMD_SET_COMPUTE_PIPELINE: set_pipeline(cl, ds, (const void *)h, true, dev); break;
    case EG_CMD_SET_BIND_GROUP: set_group(ds, (const void *)h); break;
    case EG_CMD_SET_VERTEX_BUFFER: {
        const eg_cmd_set_buffer_t *b = (const void *)h;
        if (b->slot < EMGPU_MAX_VERTEX_BUFFERS) { ds->vb[b->slot] = b; ds->vb_dirty |= 1u << b->slot; }
        break;
    }
    case EG_CMD_SET_INDEX_BUFFER: ds->ib = (const void *)h; ds->ib_dirty = true; break;
    case EG_CMD_DRAW: return draw(dev, cl, ds, (const void *)h, false);
    case EG_CMD_DRAW_INDEXED: return draw(dev, cl, ds, (const void *)h, true);
    case EG_CMD_DRAW_INDIRECT: return indirect(dev, cl, ds, (const void *)h, EG_D3D_INDIRECT_DRAW);
    case EG_CMD_DRAW_INDEXED_INDIRECT: return indirect(dev, cl, ds, (const void *)h, EG_D3D_INDIRECT_DRAW_INDEXED);
    case EG_CMD_DISPATCH: return dispatch(dev, cl, ds, (const void *)h);
    case EG_CMD_DISPATCH_INDIRECT: return indirect(dev, cl, ds, (const void *)h, EG_D3D_INDIRECT_DISPATCH);
    default:
        eg_log(EG_LOG_ERROR, "d3d12: unexpected command %u in a stream", (unsigned)h->op);
        return EG_STATUS_INTERNAL;
    }
    return EG_STATUS_OK;
}

#endif /* EMGPU_HAL_D3D12 */
