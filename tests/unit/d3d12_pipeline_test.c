/* D3D12 pipeline tests: PSOs from the TPF emitter, the shader cache, draw/dispatch sysvals (direct and ExecuteIndirect), step-naming errors, fault walks. */
#include "tests/unit/d3d12_test_util.h"
#include "hal/d3d12/d3d_cache.h"

#if EMGPU_HAL_D3D12

/* draw_inst.vert (float32x2 position per vertex, float32 x offset per instance) + draw_flat.frag:
 * the flat colour is (vertex_index / 8, instance_index / 4, 0, 1) of the provoking (first) vertex. */
static void work_done_cb(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2)
{
    (void)status; (void)message; (void)u1; (void)u2;
}

/* After a readback that failed (its buffer could not be made under an injected fault, so nothing
 * waited), wait for the queue before the caller releases the draw's objects. Releasing objects of
 * in-flight work is valid WebGPU and the backend defers their destruction, but under lavapipe 25
 * this exact sequence crashes lavapipe's queue thread (hal/d3d12/README.md "Under wine"); waiting
 * keeps these walks about failure handling, which is what they test. */
static void idle_after_failed_readback(WGPUDevice d, bool readback_ok)
{
    if (readback_ok) return;
    WGPUQueue q = wgpuDeviceGetQueue(d);
    WGPUQueueWorkDoneCallbackInfo ci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_AllowProcessEvents;
    ci.callback = work_done_cb;
    (void)eg_test_wait(wgpuQueueOnSubmittedWorkDone(q, ci));
    wgpuQueueRelease(q);
}

static WGPURenderPipeline inst_pipeline_timed(WGPUDevice d, uint64_t *create_ns)
{
    WGPUShaderModule vs = d3d_module(d, "draw_inst.vert"), fs = d3d_module(d, "draw_flat.frag");
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
    uint64_t t0 = eg_port_clock_ns();
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    if (create_ns) *create_ns = eg_port_clock_ns() - t0;
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    return p;
}
static WGPURenderPipeline inst_pipeline(WGPUDevice d) { return inst_pipeline_timed(d, NULL); }

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
    WGPUBuffer vb = d3d_upload(d, WGPUBufferUsage_Vertex, pos, sizeof pos);
    WGPUBuffer ib = d3d_upload(d, WGPUBufferUsage_Vertex, inst, sizeof inst);
    WGPUBuffer xb = d3d_upload(d, WGPUBufferUsage_Index, idx, sizeof idx);
    WGPUBuffer ab = d3d_upload(d, WGPUBufferUsage_Indirect, ind, sizeof ind);
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
    idle_after_failed_readback(d, ok);
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

/* Every variant of sysvals_draw with p gives its expected pixel. */
static bool draw_check(WGPUDevice d, WGPURenderPipeline p)
{
    bool ok = true;
    for (uint32_t v = 0; v < V_COUNT; v++) {
        uint8_t px[4] = { 0, 0, 0, 0 };
        bool direct = v == V_DRAW || v == V_INDEXED;
        bool good = sysvals_draw(d, p, (variant_t)v, px) && px[0] == 96 && px[1] == (direct ? 64 : 0) &&
                    px[2] == 0 && px[3] == 255;
        if (!good) eg_test_printf("    variant %u: pixel (4,4) = %u %u %u %u\n", v, px[0], px[1], px[2], px[3]);
        ok = ok && good;
    }
    return ok;
}

static bool draw_cycle(WGPUDevice d)
{
    WGPURenderPipeline p = inst_pipeline(d);
    if (!p) return false;
    bool ok = draw_check(d, p);
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
    WGPUBuffer ab = d3d_upload(d, WGPUBufferUsage_Indirect, n, 12);
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
    idle_after_failed_readback(d, ok);
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
    WGPUShaderModule m = d3d_module(d, "d3d12_sysvals.comp");
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
    WGPUShaderModule m = d3d_module(d, "d3d12_sysvals.comp");
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
        /* Losses the README allows: a failed upload list that cannot be recorded again. */
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

/* ---- the shader cache (d3d_cache.c) ---- */

/* A second pipeline of the same stages takes both stages' DXBC from the cache (2 hits, no miss:
 * the key is the same SPIR-V, entry point, stage and constants) and draws the same pixels as the
 * first, whose stages were lowered (2 misses). Prints the creation times (the figure in
 * hal/d3d12/README.md): lowered vs from the cache, best of 5 each. */
EG_TEST(d3d12, shader_cache_second_pipeline_hits)
{
    D3D_SETUP();
    eg_d3d_cache_stats_t s0, s1, s2;
    uint64_t miss_ns = UINT64_MAX, hit_ns = UINT64_MAX, ns = 0;
    for (uint32_t i = 0; i < 5; i++) {
        eg_d3d_shader_cache_limit(0, 0);              /* empty: both stages lowered */
        WGPURenderPipeline p = inst_pipeline_timed(d, &ns);
        if (ns < miss_ns) miss_ns = ns;
        if (p) wgpuRenderPipelineRelease(p);
    }
    eg_d3d_shader_cache_limit(0, 0);
    eg_d3d_shader_cache_stats(&s0);
    WGPURenderPipeline p1 = inst_pipeline(d);
    eg_d3d_shader_cache_stats(&s1);
    WGPURenderPipeline p2 = inst_pipeline_timed(d, &hit_ns);
    eg_d3d_shader_cache_stats(&s2);
    EG_ASSERT(p1 && p2);
    EG_EXPECT_EQ_U(s1.misses - s0.misses, 2);
    EG_EXPECT_EQ_U(s1.hits - s0.hits, 0);
    EG_EXPECT_EQ_U(s2.hits - s1.hits, 2);
    EG_EXPECT_EQ_U(s2.misses - s1.misses, 0);
    EG_EXPECT_EQ_U(s2.entries, 2);
    for (uint32_t i = 0; i < 4; i++) {
        WGPURenderPipeline p = inst_pipeline_timed(d, &ns);
        if (ns < hit_ns) hit_ns = ns;
        if (p) wgpuRenderPipelineRelease(p);
    }
    EG_EXPECT(draw_check(d, p1));
    EG_EXPECT(draw_check(d, p2));
    eg_test_printf("    createRenderPipeline (draw_inst.vert + draw_flat.frag): lowered %.3f ms, from the cache "
                   "%.3f ms (best of 5)\n", (double)miss_ns / 1e6, (double)hit_ns / 1e6);
    wgpuRenderPipelineRelease(p2);
    wgpuRenderPipelineRelease(p1);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* iface_store.comp has SCALE = SpecId 3 (default 2). A pipeline overriding it to 4 is a
 * different key (constants change the DXBC: d3d_tpf.h), so it misses; the same override again
 * hits. Checked at the API, with the auto layout. */
static WGPUComputePipeline store_pipeline(WGPUDevice d, WGPUShaderModule m, double scale)
{
    WGPUConstantEntry k = WGPU_CONSTANT_ENTRY_INIT;
    k.key = (WGPUStringView){ "3", 1 };
    k.value = scale;
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.compute.module = m;
    cd.compute.constantCount = scale != 0 ? 1 : 0;
    cd.compute.constants = &k;
    return wgpuDeviceCreateComputePipeline(d, &cd);
}

EG_TEST(d3d12, shader_cache_constant_misses)
{
    D3D_SETUP();
    WGPUShaderModule m = d3d_module(d, "iface_store.comp");
    EG_ASSERT(m);
    eg_d3d_shader_cache_limit(0, 0);
    eg_d3d_cache_stats_t s0, s1, s2, s3;
    eg_d3d_shader_cache_stats(&s0);
    WGPUComputePipeline a = store_pipeline(d, m, 0);
    eg_d3d_shader_cache_stats(&s1);
    WGPUComputePipeline b = store_pipeline(d, m, 4);
    eg_d3d_shader_cache_stats(&s2);
    WGPUComputePipeline c = store_pipeline(d, m, 4);
    eg_d3d_shader_cache_stats(&s3);
    EG_EXPECT(a && b && c);
    EG_EXPECT_EQ_U(s1.misses - s0.misses, 1);
    EG_EXPECT_EQ_U(s2.misses - s1.misses, 1);     /* SCALE 4: another key */
    EG_EXPECT_EQ_U(s2.hits - s1.hits, 0);
    EG_EXPECT_EQ_U(s3.hits - s2.hits, 1);         /* SCALE 4 again */
    EG_EXPECT_EQ_U(s3.entries, 2);
    if (c) wgpuComputePipelineRelease(c);
    if (b) wgpuComputePipelineRelease(b);
    if (a) wgpuComputePipelineRelease(a);
    wgpuShaderModuleRelease(m);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The key at the cache's own interface (synthetic words; no device needed): each part of it
 * (words, entry point name, stage, constants) changes the key; a hit returns the bytes stored. */
EG_TEST(d3d12, shader_cache_key_parts)
{
    static const uint32_t words[4] = { 0x07230203u, 0x00010300u, 7u, 9u };
    static const uint32_t other_words[4] = { 0x07230203u, 0x00010300u, 7u, 8u };
    static const eg_d3d_tpf_constant_t k2[1] = { { 3u, 2u } }, k4[1] = { { 3u, 4u } };
    static const uint8_t dxbc[12] = { 'D', 'X', 'B', 'C', 1, 2, 3, 4, 5, 6, 7, 8 };
    eg_d3d_shader_cache_limit(0, 0);
    eg_d3d_cache_key_t k = { words, 4, 2 /* compute */, "main", k2, 1 };
    uint32_t n = 0;
    EG_EXPECT(eg_d3d_cache_find(&k, &n) == NULL);
    eg_d3d_cache_put(&k, dxbc, sizeof dxbc);
    const uint8_t *hit = eg_d3d_cache_find(&k, &n);
    EG_ASSERT(hit != NULL);
    EG_EXPECT_EQ_U(n, sizeof dxbc);
    EG_EXPECT(memcmp(hit, dxbc, sizeof dxbc) == 0);
    eg_d3d_cache_key_t v = k;
    v.entry = "main2";
    EG_EXPECT(eg_d3d_cache_find(&v, &n) == NULL);      /* another entry point */
    v = k; v.entry = "mai";
    EG_EXPECT(eg_d3d_cache_find(&v, &n) == NULL);      /* a prefix of the name */
    v = k; v.stage = 0;
    EG_EXPECT(eg_d3d_cache_find(&v, &n) == NULL);      /* another stage */
    v = k; v.constants = k4;
    EG_EXPECT(eg_d3d_cache_find(&v, &n) == NULL);      /* another constant value */
    v = k; v.constant_count = 0;
    EG_EXPECT(eg_d3d_cache_find(&v, &n) == NULL);      /* no override */
    v = k; v.words = other_words;
    EG_EXPECT(eg_d3d_cache_find(&v, &n) == NULL);      /* another module, same length */
    v = k; v.word_count = 3;
    EG_EXPECT(eg_d3d_cache_find(&v, &n) == NULL);      /* a prefix of the module */
    EG_EXPECT(eg_d3d_cache_find(&k, &n) != NULL);
    eg_d3d_shader_cache_limit(0, 0);
}

/* Eviction. With 2 records: A, B stored, A used again, C stored -> B (least recently used)
 * goes, A and C stay. With 160 bytes of space, keys of 4x4 + 8 ("main") + 16 (4 words) = 40
 * bytes: entries of 40 + 40 = 80 bytes, so a third evicts the least recent; an entry of 40 + 124
 * (rounded to 164) > 160 is not cached at all. A real pipeline through a 1-record cache (each
 * stage evicts the other) still draws right. */
EG_TEST(d3d12, shader_cache_evicts_least_recent)
{
    static const uint32_t wa[4] = { 1, 2, 3, 4 }, wb[4] = { 1, 2, 3, 5 }, wc[4] = { 1, 2, 3, 6 };
    static const uint8_t blob[124] = { 42 };
    eg_d3d_cache_key_t a = { wa, 4, 2, "main", NULL, 0 }, b = a, c = a;
    b.words = wb;
    c.words = wc;
    uint32_t n = 0;
    eg_d3d_cache_stats_t s0, s1;
    eg_d3d_shader_cache_limit(2, 0);
    eg_d3d_shader_cache_stats(&s0);
    eg_d3d_cache_put(&a, blob, 40);
    eg_d3d_cache_put(&b, blob, 40);
    EG_EXPECT(eg_d3d_cache_find(&a, &n) != NULL);
    eg_d3d_cache_put(&c, blob, 40);
    EG_EXPECT(eg_d3d_cache_find(&b, &n) == NULL);
    EG_EXPECT(eg_d3d_cache_find(&a, &n) != NULL);
    EG_EXPECT(eg_d3d_cache_find(&c, &n) != NULL);
    eg_d3d_shader_cache_stats(&s1);
    EG_EXPECT_EQ_U(s1.evictions - s0.evictions, 1);
    EG_EXPECT_EQ_U(s1.entries, 2);

    eg_d3d_shader_cache_limit(8, 160);
    eg_d3d_cache_put(&a, blob, 40);
    eg_d3d_cache_put(&b, blob, 40);
    EG_EXPECT(eg_d3d_cache_find(&a, &n) != NULL);      /* b is now the least recent */
    eg_d3d_cache_put(&c, blob, 40);                    /* 240 > 160 bytes: b goes */
    EG_EXPECT(eg_d3d_cache_find(&b, &n) == NULL);
    const uint8_t *ha = eg_d3d_cache_find(&a, &n);     /* a survived compaction intact */
    EG_EXPECT(ha && n == 40 && ha[0] == 42 && ha[1] == 0);
    EG_EXPECT(eg_d3d_cache_find(&c, &n) != NULL);
    eg_d3d_shader_cache_stats(&s0);
    eg_d3d_cache_put(&b, blob, 124);                   /* 164 > 160: not cached */
    eg_d3d_shader_cache_stats(&s1);
    EG_EXPECT_EQ_U(s1.too_large - s0.too_large, 1);
    EG_EXPECT(eg_d3d_cache_find(&b, &n) == NULL);
    EG_EXPECT(eg_d3d_cache_find(&a, &n) != NULL);      /* and nothing was evicted for it */

    WGPUDevice d = d3d_device();
    if (d) {
        eg_d3d_shader_cache_limit(1, 0);
        eg_d3d_shader_cache_stats(&s0);
        EG_EXPECT(draw_cycle(d));
        EG_EXPECT(draw_cycle(d));
        eg_d3d_shader_cache_stats(&s1);
        EG_EXPECT_EQ_U(s1.hits - s0.hits, 0);
        EG_EXPECT_EQ_U(s1.misses - s0.misses, 4);
        EG_EXPECT_EQ_U(s1.entries, 1);
        EG_EXPECT_NO_ERROR();
        eg_test_device_release();
    }
    eg_d3d_shader_cache_limit(0, 0);
}

#endif /* EMGPU_HAL_D3D12 */
