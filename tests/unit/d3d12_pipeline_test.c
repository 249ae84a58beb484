/* D3D12 pipeline tests: PSOs from the TPF emitter, draw/dispatch sysvals (direct and ExecuteIndirect), step-naming errors, fault walks. */
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#include "hal/d3d12/d3d_fault.h"

#if EMGPU_HAL_D3D12

enum { FAULT_OOM = (int32_t)0x8007000E /* E_OUTOFMEMORY */, FAULT_LOST = (int32_t)0x887A0005,
       FAULT_INVALIDARG = (int32_t)0x80070057 /* E_INVALIDARG */ };

static WGPUDevice d3d_device(void)
{
    WGPUDevice d = eg_test_device("soft");
    if (d && strcmp(eg_test_backend(), "d3d12") == 0) return d;
    if (d) eg_test_device_release();
    return NULL;
}
#define D3D_SETUP() WGPUDevice d = d3d_device(); if (!d) EG_NOT_APPLICABLE("runs in the D3D12 pass (EMGPU_TEST_BACKEND=d3d12)")

static WGPUShaderModule module(WGPUDevice d, const char *name)
{
    const eg_test_spv_t *s = eg_test_spv(name);
    if (!s) return NULL;
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = s->words;
    src.codeSize = s->word_count;
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d, &md);
}

static WGPUBuffer upload(WGPUDevice d, WGPUBufferUsage usage, const void *data, uint32_t size_B)
{
    WGPUBuffer b = t_buffer(d, usage | WGPUBufferUsage_CopyDst, size_B);
    wgpuQueueWriteBuffer(eg_test_queue(), b, 0, data, size_B);
    return b;
}

/* draw_inst.vert (float32x2 position per vertex, float32 x offset per instance) + draw_flat.frag:
 * the flat colour is (vertex_index / 8, instance_index / 4, 0, 1) of the provoking (first) vertex. */
static WGPURenderPipeline inst_pipeline(WGPUDevice d)
{
    WGPUShaderModule vs = module(d, "draw_inst.vert"), fs = module(d, "draw_flat.frag");
    WGPUVertexAttribute va = WGPU_VERTEX_ATTRIBUTE_INIT, ia = WGPU_VERTEX_ATTRIBUTE_INIT;
    WGPUVertexBufferLayout vb[2] = { WGPU_VERTEX_BUFFER_LAYOUT_INIT, WGPU_VERTEX_BUFFER_LAYOUT_INIT };
    va.format = WGPUVertexFormat_Float32x2;
    vb[0].arrayStride = 8; vb[0].attributeCount = 1; vb[0].attributes = &va;
    ia.format = WGPUVertexFormat_Float32; ia.shaderLocation = 1;
    vb[1].arrayStride = 4; vb[1].stepMode = WGPUVertexStepMode_Instance; vb[1].attributeCount = 1; vb[1].attributes = &ia;
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    t.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState f = WGPU_FRAGMENT_STATE_INIT;
    f.module = fs; f.targetCount = 1; f.targets = &t;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = vs; pd.vertex.bufferCount = 2; pd.vertex.buffers = vb;
    pd.fragment = &f;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    return p;
}

typedef enum { V_DRAW, V_INDEXED, V_INDIRECT, V_INDEXED_INDIRECT, V_COUNT } variant_t;

/* Vertices 0-2 are off screen, 3-5 cover the 8x8 target; instance offsets {5 (off screen), 0}.
 * Direct draws use firstVertex / baseVertex 3 and firstInstance 1; the indirect ones take
 * firstVertex / baseVertex 3 from the GPU arguments and firstInstance 0 (non-zero needs the
 * indirect-first-instance feature), with the instance buffer bound at byte 4 (offset 0.0).
 * WebGPU vertex_index includes firstVertex / baseVertex and instance_index firstInstance (spec
 * "vertex_index", "instance_index"), so pixel (4, 4) is (3/8, firstInstance/4, 0, 1) in RGBA8:
 * r = 0.375 * 255 = 95.6 -> 96, g = 64 (0.25 * 255 = 63.75) or 0. */
static bool sysvals_draw(WGPUDevice d, WGPURenderPipeline p, variant_t v, uint8_t out[4])
{
    static const float pos[12] = { -9, -9, -9, -9, -9, -9, -1, -1, 3, -1, -1, 3 };
    static const float inst[2] = { 5.0f, 0.0f };
    static const uint16_t idx[4] = { 0, 1, 2, 0 };
    /* At 0: vertexCount, instanceCount, firstVertex, firstInstance; at 16: indexCount,
     * instanceCount, firstIndex, baseVertex, firstInstance. */
    static const uint32_t ind[12] = { 3, 1, 3, 0, 3, 1, 0, 3, 0, 0, 0, 0 };
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                                WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUBuffer vb = upload(d, WGPUBufferUsage_Vertex, pos, sizeof pos);
    WGPUBuffer ib = upload(d, WGPUBufferUsage_Vertex, inst, sizeof inst);
    WGPUBuffer xb = upload(d, WGPUBufferUsage_Index, idx, sizeof idx);
    WGPUBuffer ab = upload(d, WGPUBufferUsage_Indirect, ind, sizeof ind);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = view; c.loadOp = WGPULoadOp_Clear; c.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor rd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rd.colorAttachmentCount = 1; rd.colorAttachments = &c;
    WGPURenderPassEncoder pe = wgpuCommandEncoderBeginRenderPass(e, &rd);
    wgpuRenderPassEncoderSetPipeline(pe, p);
    wgpuRenderPassEncoderSetVertexBuffer(pe, 0, vb, 0, sizeof pos);
    bool ind_v = v == V_INDIRECT || v == V_INDEXED_INDIRECT;
    wgpuRenderPassEncoderSetVertexBuffer(pe, 1, ib, ind_v ? 4 : 0, ind_v ? 4 : sizeof inst);
    wgpuRenderPassEncoderSetIndexBuffer(pe, xb, WGPUIndexFormat_Uint16, 0, sizeof idx);
    if (v == V_DRAW) wgpuRenderPassEncoderDraw(pe, 3, 1, 3, 1);
    if (v == V_INDEXED) wgpuRenderPassEncoderDrawIndexed(pe, 3, 1, 0, 3, 1);
    if (v == V_INDIRECT) wgpuRenderPassEncoderDrawIndirect(pe, ab, 0);
    if (v == V_INDEXED_INDIRECT) wgpuRenderPassEncoderDrawIndexedIndirect(pe, ab, 16);
    wgpuRenderPassEncoderEnd(pe);
    wgpuRenderPassEncoderRelease(pe);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * 8);
    WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, 8);
    WGPUExtent3D sz = t_extent(8, 8, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    static uint8_t px[256 * 8];
    bool ok = t_readback(d, rb, 0, sizeof px, px);
    memcpy(out, px + 4 * 256 + 4 * 4, 4);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(ab);
    wgpuBufferRelease(xb);
    wgpuBufferRelease(ib);
    wgpuBufferRelease(vb);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    return ok;
}

static bool draw_cycle(WGPUDevice d)
{
    WGPURenderPipeline p = inst_pipeline(d);
    if (!p) return false;
    bool ok = true;
    for (uint32_t v = 0; v < V_COUNT; v++) {
        uint8_t px[4] = { 0, 0, 0, 0 };
        bool direct = v == V_DRAW || v == V_INDEXED;
        bool good = sysvals_draw(d, p, (variant_t)v, px) && px[0] == 96 && px[1] == (direct ? 64 : 0) &&
                    px[2] == 0 && px[3] == 255;
        if (!good) eg_test_printf("    variant %u: pixel (4,4) = %u %u %u %u\n", v, px[0], px[1], px[2], px[3]);
        ok = ok && good;
    }
    wgpuRenderPipelineRelease(p);
    return ok;
}

EG_TEST(d3d12, draw_sysvals_first_vertex_and_instance)
{
    D3D_SETUP();
    EG_EXPECT(draw_cycle(d));
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* d3d12_sysvals.comp: workgroup (0,0,0) writes num_workgroups to v[0..2]; every workgroup marks
 * v[4 + its flattened id]. dispatch(3, 2, 1) direct, then (1, 2, 3) from an indirect buffer:
 * v = {3, 2, 1, 0, 1 x 6} and {1, 2, 3, 0, 1 x 6} (WebGPU num_workgroups = the dispatch size).
 * The storage buffer has a dynamic offset (256: the results land at byte 256, bytes before stay
 * zero), so it is a root UAV: under wine no descriptor table binds (hal/d3d12/README.md). */
static bool dispatch_one(WGPUDevice d, WGPUComputePipeline p, WGPUBindGroupLayout bgl, bool ind, const uint32_t n[3])
{
    WGPUBuffer ob = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 512);
    WGPUBuffer ab = upload(d, WGPUBufferUsage_Indirect, n, 12);
    WGPUBindGroupEntry be = WGPU_BIND_GROUP_ENTRY_INIT;
    be.binding = 0; be.buffer = ob; be.size = 64;
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl;
    bd.entryCount = 1; bd.entries = &be;
    WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bd);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder ce = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderSetPipeline(ce, p);
    const uint32_t dyn = 256;
    wgpuComputePassEncoderSetBindGroup(ce, 0, bg, 1, &dyn);
    if (ind) wgpuComputePassEncoderDispatchWorkgroupsIndirect(ce, ab, 0);
    else wgpuComputePassEncoderDispatchWorkgroups(ce, n[0], n[1], n[2]);
    wgpuComputePassEncoderEnd(ce);
    wgpuComputePassEncoderRelease(ce);
    t_submit(e);
    static uint32_t all[128];
    memset(all, 0xAB, sizeof all);
    bool ok = t_readback(d, ob, 0, sizeof all, all);
    const uint32_t *v = all + 64;
    ok = ok && v[0] == n[0] && v[1] == n[1] && v[2] == n[2] && v[3] == 0 && v[10] == 0 && all[0] == 0 && all[63] == 0;
    for (uint32_t i = 0; i < 6; i++) ok = ok && v[4 + i] == 1;
    if (!ok) eg_test_printf("    %s: %u %u %u %u | %u %u %u %u %u %u %u | before %u\n", ind ? "indirect" : "direct", v[0],
                            v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], all[0]);
    wgpuBindGroupRelease(bg);
    wgpuBufferRelease(ab);
    wgpuBufferRelease(ob);
    return ok;
}

static bool compute_cycle(WGPUDevice d)
{
    WGPUBindGroupLayoutEntry le = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    le.binding = 0;
    le.visibility = WGPUShaderStage_Compute;
    le.buffer.type = WGPUBufferBindingType_Storage;
    le.buffer.hasDynamicOffset = WGPU_TRUE;
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.entryCount = 1; ld.entries = &le;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(d, &ld);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1; pld.bindGroupLayouts = &bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pld);
    WGPUShaderModule m = module(d, "d3d12_sysvals.comp");
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.layout = pl;
    cd.compute.module = m;
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    if (m) wgpuShaderModuleRelease(m);
    wgpuPipelineLayoutRelease(pl);
    static const uint32_t a[3] = { 3, 2, 1 }, b[3] = { 1, 2, 3 };
    bool ok = p != NULL;
    if (p) {
        ok = dispatch_one(d, p, bgl, false, a);
        ok = dispatch_one(d, p, bgl, true, b) && ok;
        wgpuComputePipelineRelease(p);
    }
    wgpuBindGroupLayoutRelease(bgl);
    return ok;
}

EG_TEST(d3d12, dispatch_num_workgroups_direct_and_indirect)
{
    D3D_SETUP();
    EG_EXPECT(compute_cycle(d));
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The error of a failed pipeline creation is its one error and names the step: an (injected)
 * full shader arena is OutOfMemory naming EMGPU_D3D12_SHADER_SCRATCH_BYTES and the stage; a PSO
 * the driver rejects (injected E_INVALIDARG) is Internal naming CreateComputePipelineState. */
EG_TEST(d3d12, pipeline_error_names_the_step)
{
    D3D_SETUP();
    if (!eg_d3d_fault_available()) { eg_test_device_release(); EG_SKIP("EMGPU_D3D12_FAULT_INJECTION = 0"); }
    WGPUShaderModule m = module(d, "d3d12_sysvals.comp");
    EG_EXPECT_NO_ERROR();
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.compute.module = m;
    eg_d3d_fault_arm(1, FAULT_OOM, "shader lowering", false);
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    eg_d3d_fault_disarm();
    EG_EXPECT_EQ_U(eg_test_err.count, 1);
    EG_EXPECT(eg_test_err.type == WGPUErrorType_OutOfMemory);
    EG_EXPECT_STR_CONTAINS(eg_test_err.message, "EMGPU_D3D12_SHADER_SCRATCH_BYTES");
    EG_EXPECT_STR_CONTAINS(eg_test_err.message, "compute stage");
    eg_test_errors_reset();
    if (p) wgpuComputePipelineRelease(p);
    eg_d3d_fault_arm(1, FAULT_INVALIDARG, "CreateComputePipelineState", false);
    p = wgpuDeviceCreateComputePipeline(d, &cd);
    eg_d3d_fault_disarm();
    EG_EXPECT_EQ_U(eg_test_err.count, 1);
    EG_EXPECT(eg_test_err.type == WGPUErrorType_Internal);
    EG_EXPECT_STR_CONTAINS(eg_test_err.message, "CreateComputePipelineState");
    eg_test_printf("    %s\n", eg_test_err.message);
    eg_test_errors_reset();
    if (p) wgpuComputePipelineRelease(p);
    wgpuShaderModuleRelease(m);
    eg_test_device_release();
}

/* ---- fault walks over pipeline creation and recording ---- */

static bool device_is_lost(WGPUDevice d)
{
    WGPUFutureWaitInfo w = { wgpuDeviceGetLostFuture(d), WGPU_FALSE };
    (void)wgpuInstanceWaitAny(eg_test_instance(), 1, &w, 0);
    return w.completed;
}

static bool pipeline_cycle(WGPUDevice d)
{
    bool ok = draw_cycle(d);
    ok = compute_cycle(d) && ok;
    wgpuInstanceProcessEvents(eg_test_instance());
    return ok;
}

static uint32_t count_calls(void)
{
    WGPUDevice d = d3d_device();
    if (!d) return 0;
    eg_d3d_fault_arm(0, 0, NULL, false);
    bool ok = pipeline_cycle(d);
    uint32_t calls = eg_d3d_fault_calls();
    eg_d3d_fault_disarm();
    EG_EXPECT(ok);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
    return ok ? calls : 0;
}

/* Each fallible call of the cycle (root signatures, shader lowering, PSOs, command signatures,
 * the sysvals and indirect scratch buffers, descriptors, placements, submits) fails in turn with
 * E_OUTOFMEMORY on a fresh device: the run reports OutOfMemory or gets every result right (or
 * loses the device where the README says it must), the next cycle is right with no error and
 * memory does not grow. */
EG_TEST(d3d12, fault_pipeline_cycle_oom_recovers)
{
    D3D_SETUP();
    eg_test_device_release();
    if (!eg_d3d_fault_available()) EG_SKIP("EMGPU_D3D12_FAULT_INJECTION = 0");
    uint32_t calls = count_calls();
    EG_ASSERT(calls >= 8);
    for (uint32_t n = 1; n <= calls; n++) {
        WGPUDevice dn = d3d_device();
        EG_ASSERT(dn);
        uint64_t base = eg_d3d_memory_used_all();
        eg_d3d_fault_arm(n, FAULT_OOM, NULL, false);
        bool ok = pipeline_cycle(dn);
        const char *fired = eg_d3d_fault_fired();
        eg_d3d_fault_disarm();
        bool lost = device_is_lost(dn);
        /* A failed upload-list Close or fence Signal loses the device by design (README). */
        bool good = lost || (eg_test_err.count ? eg_test_err.type == WGPUErrorType_OutOfMemory : ok);
        if (!good && fired)
            eg_test_printf("    call %u (%s): %u errors, first type %u \"%s\", results %s, %s\n", n, fired,
                           eg_test_err.count, (unsigned)eg_test_err.type, eg_test_err.message, ok ? "right" : "wrong",
                           lost ? "device lost" : "device alive");
        EG_EXPECT(!fired || good);
        eg_test_errors_reset();
        if (fired && !lost) {
            /* Recovered: right again, and a further cycle places nothing more (the sysvals and
             * indirect scratch buffers stay once made, one each per device, freed at close). */
            EG_EXPECT(pipeline_cycle(dn));
            EG_EXPECT_NO_ERROR();
            uint64_t used = eg_d3d_memory_used_all();
            EG_EXPECT(pipeline_cycle(dn));
            EG_EXPECT_EQ_U(eg_d3d_memory_used_all(), used);
            EG_EXPECT(used >= base);
        }
        eg_test_errors_reset();
        eg_test_device_release();
    }
    eg_test_printf("    %u fallible calls failed in turn\n", (unsigned)calls);
}

/* The same calls failing with DXGI_ERROR_DEVICE_REMOVED (sticky) lose the device, never more. */
EG_TEST(d3d12, fault_pipeline_cycle_device_removed)
{
    D3D_SETUP();
    eg_test_device_release();
    if (!eg_d3d_fault_available()) EG_SKIP("EMGPU_D3D12_FAULT_INJECTION = 0");
    uint32_t calls = count_calls();
    EG_ASSERT(calls >= 8);
    for (uint32_t n = 1; n <= calls; n++) {
        WGPUDevice dn = d3d_device();
        EG_ASSERT(dn);
        eg_d3d_fault_arm(n, FAULT_LOST, NULL, true);
        (void)pipeline_cycle(dn);
        const char *fired = eg_d3d_fault_fired();
        bool lost = device_is_lost(dn);
        eg_d3d_fault_disarm();
        if (fired && !lost) eg_test_printf("    call %u (%s) failed but the device is not lost\n", n, fired);
        EG_EXPECT(!fired || lost);
        eg_test_errors_reset();
        eg_test_device_release();
    }
}

#endif /* EMGPU_HAL_D3D12 */
