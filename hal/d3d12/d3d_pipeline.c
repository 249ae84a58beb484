/* hal/d3d12 pipelines: each stage lowered to DXBC (shader IR -> TPF emitter), then graphics/compute PSOs.
 *
 * A stage is lowered at pipeline creation: eg_ir_build turns the validated SPIR-V entry point
 * into the shared IR, eg_d3d_tpf_emit (d3d_tpf.h) writes it as a shader model 5.1 DXBC container
 * with the stage's pipeline-overridable constants applied. Both live in one static scratch arena
 * (EMGPU_D3D12_SHADER_SCRATCH_BYTES) that only has to hold the stages of one pipeline until
 * D3D12 has copied the bytecode into its PSO. No run-time compiler DLL is involved. Lowered
 * stages are kept in a bounded per-process cache (d3d_cache.c, EMGPU_D3D12_SHADER_CACHE_*): an
 * identical stage (same SPIR-V, entry point, stage, constants) is copied from there instead.
 *
 * Errors name the step (IR build, emitter, PSO) and carry that step's own message, as the one
 * error of the createRenderPipeline / createComputePipeline call (eg_hal_error_detail). A full
 * arena is OutOfMemory naming the knob; an emitter gap or a rejected PSO is Internal.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "hal/d3d12/d3d_tpf.h"
#include "kernel/api/error_codes.h"

/* Bind group layouts, bind groups and pipeline layouts: d3d_binding.c. Shader modules need
 * nothing of their own: the kernel keeps the validated module, lowered per pipeline stage. */
eg_status_t eg_d3d_shader_module_create(eg_hal_device_t *dev, eg_shader_module_t *sm)
{
    (void)dev; (void)sm;
    return EG_STATUS_OK;
}
void eg_d3d_shader_module_destroy(eg_hal_device_t *dev, eg_shader_module_t *sm) { (void)dev; (void)sm; }

static uint64_t scratch_mem[EMGPU_D3D12_SHADER_SCRATCH_BYTES / 8u];
static eg_arena_t scratch;

static const char *const stage_names[] = { "vertex", "fragment", "compute" };

static const char *stage_name(eg_shader_stage_t kind)
{
    return (uint32_t)kind < EG_ARRAY_LEN(stage_names) ? stage_names[kind] : "?";
}

/* True when the arena ran dry: the message names the knob (kernel/base/arena.h convention). */
static bool arena_full(const char *message)
{
    static const char knob[] = "EMGPU_D3D12_SHADER_SCRATCH_BYTES";
    for (const char *p = message; *p; p++) {
        uint32_t k = 0;
        while (knob[k] && p[k] == knob[k]) k++;
        if (!knob[k]) return true;
    }
    return false;
}

/* One stage: IR, then DXBC into the scratch arena; `out` points into it. */
static eg_status_t lower_stage(eg_hal_device_t *dev, const eg_stage_t *st, eg_shader_stage_t kind,
                               D3D12_SHADER_BYTECODE *out)
{
    static eg_ir_t ir;
    static eg_ir_error_t ir_err;
    static eg_d3d_tpf_error_t tpf_err;
    eg_d3d_tpf_constant_t consts[EMGPU_MAX_PIPELINE_CONSTANTS];
    /* Fault injection: the arena running dry (or, for the device-removal walk, the device going
     * away while a pipeline is made). */
    if (eg_d3d_fault_hit("shader lowering")) {
        eg_status_t fst = eg_d3d_check(dev, eg_d3d_fault_result(), "shader lowering");
        if (fst == EG_STATUS_OUT_OF_MEMORY)
            eg_hal_error_detail(WGPUErrorType_OutOfMemory, EG_E_D3D12_SHADER_LOWERING,
                                "d3d12: %s stage \"%s\": the shader scratch arena is full (injected; "
                                "EMGPU_D3D12_SHADER_SCRATCH_BYTES)", stage_name(kind), st->entry_point);
        return fst;
    }
    for (uint32_t i = 0; i < st->constant_count; i++) {
        consts[i].spec_id = st->constants[i].spec_id;
        consts[i].bits = st->constants[i].bits;
    }
    const eg_spirv_module_t *m = &st->module->spirv;
    eg_d3d_cache_key_t key = { m->words, m->word_count, (uint32_t)kind, st->entry->name, consts, st->constant_count };
    uint32_t cached_B = 0;
    const void *cached = eg_d3d_cache_find(&key, &cached_B);
    if (cached) {
        /* Copied into the scratch arena: a later stage's insertion may move cache bytes. */
        void *copy = eg_arena_alloc(&scratch, cached_B, 4);
        if (copy) {
            eg_memcpy(copy, cached, cached_B);
            out->pShaderBytecode = copy;
            out->BytecodeLength = cached_B;
            return EG_STATUS_OK;
        }
    }
    if (!eg_ir_build(m, st->entry, &scratch, &ir, &ir_err)) {
        bool full = arena_full(ir_err.message);
        eg_hal_error_detail(full ? WGPUErrorType_OutOfMemory : WGPUErrorType_Internal, EG_E_D3D12_SHADER_LOWERING,
                            "d3d12: %s stage \"%s\": building the shader IR failed: %s", stage_name(kind),
                            st->entry_point, ir_err.message);
        return full ? EG_STATUS_OUT_OF_MEMORY : EG_STATUS_INTERNAL;
    }
    eg_d3d_tpf_in_t in = { &ir, consts, st->constant_count };
    eg_d3d_tpf_out_t dxbc;
    eg_memset(&dxbc, 0, sizeof dxbc);
    if (!eg_d3d_tpf_emit(&in, &scratch, &dxbc, &tpf_err)) {
        bool full = arena_full(tpf_err.message);
        eg_hal_error_detail(full ? WGPUErrorType_OutOfMemory : WGPUErrorType_Internal, EG_E_D3D12_SHADER_LOWERING,
                            "d3d12: %s stage \"%s\": the DXBC emitter failed: %s", stage_name(kind), st->entry_point,
                            tpf_err.message);
        return full ? EG_STATUS_OUT_OF_MEMORY : EG_STATUS_INTERNAL;
    }
    eg_d3d_cache_put(&key, dxbc.bytes, dxbc.size_B);
    out->pShaderBytecode = dxbc.bytes;
    out->BytecodeLength = dxbc.size_B;
    return EG_STATUS_OK;
}

static void scratch_begin(void)
{
    eg_arena_init(&scratch, "d3d12 shader scratch", "EMGPU_D3D12_SHADER_SCRATCH_BYTES", scratch_mem,
                  sizeof scratch_mem);
}

/* A rejected PSO: its HRESULT; E_OUTOFMEMORY is OutOfMemory, device removal loses the device. */
static eg_status_t pso_failed(eg_hal_device_t *dev, HRESULT hr, const char *call, const char *label)
{
    eg_status_t st = eg_d3d_check(dev, hr, call);
    if (st == EG_STATUS_DEVICE_LOST) return st;
    if (hr == E_OUTOFMEMORY) {
        eg_hal_error_detail(WGPUErrorType_OutOfMemory, EG_E_D3D12_PSO_CREATE, "d3d12: %s: out of memory", call);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    eg_hal_error_detail(WGPUErrorType_Internal, EG_E_D3D12_PSO_CREATE,
                        "d3d12: %s rejected pipeline \"%s\" (HRESULT 0x%08x; its shaders lowered to DXBC without "
                        "error)", call, label, (unsigned)hr);
    return EG_STATUS_INTERNAL;
}

static HRESULT create_graphics(eg_hal_device_t *dev, const D3D12_GRAPHICS_PIPELINE_STATE_DESC *d,
                               ID3D12PipelineState **out)
{
    *out = NULL;
    HRESULT hr = EG_D3D_CALL("CreateGraphicsPipelineState", ID3D12Device_CreateGraphicsPipelineState(
                                 dev->device, d, &IID_ID3D12PipelineState, (void **)out));
    if (FAILED(hr)) *out = NULL;
    return hr;
}

eg_status_t eg_d3d_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    eg_d3d_pipeline_t *p = EG_D3D_PRIV(eg_d3d_pipeline_t, rp);
    static D3D12_GRAPHICS_PIPELINE_STATE_DESC d;
    static D3D12_INPUT_ELEMENT_DESC elems[EMGPU_MAX_VERTEX_ATTRIBUTES];
    eg_memset(p, 0, sizeof *p);
    eg_d3d_graphics_desc(rp, &d, elems);
    scratch_begin();
    eg_status_t st = lower_stage(dev, &rp->vertex, EG_SHADER_STAGE_VERTEX, &d.VS);
    if (st == EG_STATUS_OK && rp->fragment.module) st = lower_stage(dev, &rp->fragment, EG_SHADER_STAGE_FRAGMENT, &d.PS);
    if (st != EG_STATUS_OK) return st;
    p->topology = eg_d3d_topology(rp->topology);
    bool strip = rp->topology == WGPUPrimitiveTopology_LineStrip || rp->topology == WGPUPrimitiveTopology_TriangleStrip;
    /* WebGPU restarts strips at the index format's maximum even without stripIndexFormat: a
     * 16-bit and a 32-bit PSO, chosen by the bound index buffer (d3d_record.c). */
    if (strip && d.IBStripCutValue == D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_DISABLED)
        d.IBStripCutValue = D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFF;
    HRESULT hr = create_graphics(dev, &d, &p->pso);
    if (SUCCEEDED(hr) && strip && rp->strip_index_format == WGPUIndexFormat_Undefined) {
        d.IBStripCutValue = D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFFFFFF;
        hr = create_graphics(dev, &d, &p->pso_u32);
        if (FAILED(hr)) { ID3D12PipelineState_Release(p->pso); p->pso = NULL; }
    }
    if (FAILED(hr)) return pso_failed(dev, hr, "CreateGraphicsPipelineState", rp->obj.label);
    return EG_STATUS_OK;
}

void eg_d3d_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp)
{
    eg_d3d_pipeline_t *p = EG_D3D_PRIV(eg_d3d_pipeline_t, rp);
    (void)dev;
    if (p->pso) ID3D12PipelineState_Release(p->pso);
    if (p->pso_u32) ID3D12PipelineState_Release(p->pso_u32);
    p->pso = p->pso_u32 = NULL;
}

eg_status_t eg_d3d_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    eg_d3d_pipeline_t *p = EG_D3D_PRIV(eg_d3d_pipeline_t, cp);
    D3D12_COMPUTE_PIPELINE_STATE_DESC d;
    eg_memset(p, 0, sizeof *p);
    eg_memset(&d, 0, sizeof d);
    d.pRootSignature = EG_D3D_PRIV(eg_d3d_layout_t, cp->layout)->root;
    scratch_begin();
    eg_status_t st = lower_stage(dev, &cp->compute, EG_SHADER_STAGE_COMPUTE, &d.CS);
    if (st != EG_STATUS_OK) return st;
    HRESULT hr = EG_D3D_CALL("CreateComputePipelineState", ID3D12Device_CreateComputePipelineState(
                                 dev->device, &d, &IID_ID3D12PipelineState, (void **)&p->pso));
    if (FAILED(hr)) { p->pso = NULL; return pso_failed(dev, hr, "CreateComputePipelineState", cp->obj.label); }
    return EG_STATUS_OK;
}

void eg_d3d_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp)
{
    eg_d3d_pipeline_t *p = EG_D3D_PRIV(eg_d3d_pipeline_t, cp);
    (void)dev;
    if (p->pso) ID3D12PipelineState_Release(p->pso);
    p->pso = NULL;
}

#endif /* EMGPU_HAL_D3D12 */
