/* Vulkan backend tests: draws and dispatches on the GPU, staging splits, memory exhaustion, validation. */
#include <stdlib.h>
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"
#include "tests/unit/vk_test_util.h"

#if EMGPU_HAL_VULKAN
#include "hal/vulkan/vk_fault.h"
uint64_t eg_vk_memory_used_all(void);
uint64_t eg_vk_memory_reserved_all(void);
/* VkResult values (the test does not include vulkan.h) */
enum { FAULT_OOM = -2 /* VK_ERROR_OUT_OF_DEVICE_MEMORY */, FAULT_LOST = -4 /* VK_ERROR_DEVICE_LOST */ };
#endif


/* Reads an 8x8 RGBA8 texture through a CopySrc buffer (rows padded to 256 bytes). */
static bool read_8x8(WGPUDevice d, WGPUTexture t, uint8_t out[8 * 8 * 4])
{
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * 8);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyTextureInfo ti = t_tex_info(t, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, 0, 256, 8);
    WGPUExtent3D sz = t_extent(8, 8, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    uint8_t rows[256 * 8];
    bool ok = t_readback(d, b, 0, sizeof rows, rows);
    for (uint32_t y = 0; y < 8; y++) memcpy(out + y * 32, rows + y * 256, 32);
    wgpuBufferRelease(b);
    return ok;
}

/* Draws one red triangle over a blue clear into an 8x8 RGBA8 target and reads it back into img;
 * false when any step failed. Never asserts, so fault-injection runs can call it with any
 * Vulkan call failing (every object it made is released either way). */
static bool triangle_run(WGPUDevice d, uint8_t img[8 * 8 * 4])
{
    typedef struct { float x, y, z, w; uint8_t rgba[4]; } vtx_t;
    static const vtx_t v[3] = { { -1, 1, 0, 1, { 255, 0, 0, 255 } }, { -1, -1, 0, 1, { 255, 0, 0, 255 } },
                                { 1, 1, 0, 1, { 255, 0, 0, 255 } } };
    WGPUShaderModule vs = vk_module(d, "draw_color.vert"), fs = vk_module(d, "draw_color.frag");
    if (!vs || !fs) {
        if (vs) wgpuShaderModuleRelease(vs);
        if (fs) wgpuShaderModuleRelease(fs);
        return false;
    }
    WGPUTexture rt = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(rt, NULL);
    WGPUVertexAttribute va[2] = { WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT };
    va[0].format = WGPUVertexFormat_Float32x4;
    va[1].format = WGPUVertexFormat_Unorm8x4; va[1].offset = 16; va[1].shaderLocation = 1;
    WGPUVertexBufferLayout vbl = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    vbl.arrayStride = sizeof(vtx_t); vbl.attributeCount = 2; vbl.attributes = va;
    WGPUColorTargetState ct = WGPU_COLOR_TARGET_STATE_INIT;
    ct.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
    fst.module = fs; fst.targetCount = 1; fst.targets = &ct;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = vs; pd.vertex.bufferCount = 1; pd.vertex.buffers = &vbl;
    pd.fragment = &fst;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, sizeof v);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = view; ca.loadOp = WGPULoadOp_Clear; ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ 0, 0, 1, 1 };
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1; rpd.colorAttachments = &ca;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderDraw(rp, 3, 1, 0, 0);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    t_submit(e);
    bool ok = read_8x8(d, rt, img);
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
    wgpuShaderModuleRelease(vs);
    wgpuShaderModuleRelease(fs);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(rt);
    return ok;
}

/* Window triangle (0,0) (0,8) (8,0): clip (-1,1) is the top-left corner in WebGPU (y up in clip
 * space, down in the framebuffer), so pixel centres with x + y + 1 < 8 are red and those with
 * x + y + 1 > 8 stay blue; the diagonal x + y = 7 lies on the edge and is left to the
 * rasterizer's tie rule. A wrong y flip would put red at the bottom. Returns the wrong pixels. */
static uint32_t triangle_wrong_pixels(const uint8_t img[8 * 8 * 4], bool print)
{
    static const uint8_t red[4] = { 255, 0, 0, 255 }, blue[4] = { 0, 0, 255, 255 };
    uint32_t wrong = 0;
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            if (x + y == 7) continue;
            const uint8_t *want = x + y < 7 ? red : blue;
            if (memcmp(img + (y * 8 + x) * 4, want, 4) == 0) continue;
            if (print)
                eg_test_printf("    pixel (%u, %u) = %u %u %u %u\n", x, y, img[(y * 8 + x) * 4],
                               img[(y * 8 + x) * 4 + 1], img[(y * 8 + x) * 4 + 2], img[(y * 8 + x) * 4 + 3]);
            wrong++;
        }
    return wrong;
}

EG_TEST(vulkan, draw_triangle_over_clear)
{
    VK_SETUP();
    uint8_t img[8 * 8 * 4];
    EG_ASSERT(triangle_run(d, img));
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(triangle_wrong_pixels(img, true), 0);
    eg_test_device_release();
}

/* Runs reduce.comp over 64 ones in 2 workgroups of 32 and reads {total, sums[0], sums[1], -}
 * back into out; false when any step failed. Never asserts (see triangle_run). */
static bool reduce_run(WGPUDevice d, uint32_t out[4])
{
    WGPUShaderModule cs = vk_module(d, "reduce.comp");
    if (!cs) return false;
    WGPUBindGroupLayoutEntry le[3] = { WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT, WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT,
                                       WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT };
    for (uint32_t i = 0; i < 3; i++) { le[i].binding = i; le[i].visibility = WGPUShaderStage_Compute; }
    le[0].buffer.type = WGPUBufferBindingType_ReadOnlyStorage;
    le[1].buffer.type = WGPUBufferBindingType_Storage;
    le[2].storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
    le[2].storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
    le[2].storageTexture.viewDimension = WGPUTextureViewDimension_2D;
    WGPUBindGroupLayoutDescriptor bld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bld.entryCount = 3; bld.entries = le;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(d, &bld);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1; pld.bindGroupLayouts = &bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pld);
    WGPUComputePipelineDescriptor cpd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cpd.layout = pl; cpd.compute.module = cs;
    WGPUComputePipeline cp = wgpuDeviceCreateComputePipeline(d, &cpd);
    uint32_t src[65];
    src[0] = 64;
    const float one = 1.0f;
    for (uint32_t i = 1; i < 65; i++) memcpy(&src[i], &one, 4);
    WGPUBuffer sb = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst, sizeof src);
    wgpuQueueWriteBuffer(eg_test_queue(), sb, 0, src, sizeof src);
    WGPUBuffer db = t_buffer(d, WGPUBufferUsage_Storage | WGPUBufferUsage_CopySrc, 16);
    WGPUTexture img = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 16, 4, 1, 1, 1, WGPUTextureUsage_StorageBinding);
    WGPUTextureView iv = wgpuTextureCreateView(img, NULL);
    WGPUBindGroupEntry be[3] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
    be[0].binding = 0; be[0].buffer = sb; be[0].size = sizeof src;
    be[1].binding = 1; be[1].buffer = db; be[1].size = 16;
    be[2].binding = 2; be[2].textureView = iv;
    WGPUBindGroupDescriptor bgd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bgd.layout = bgl; bgd.entryCount = 3; bgd.entries = be;
    WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bgd);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderSetBindGroup(pass, 0, bg, 0, NULL);   /* before the pipeline: allowed */
    wgpuComputePassEncoderSetPipeline(pass, cp);
    wgpuComputePassEncoderDispatchWorkgroups(pass, 2, 1, 1);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    t_submit(e);
    bool ok = t_readback(d, db, 0, 16, out);
    wgpuBindGroupRelease(bg);
    wgpuTextureViewRelease(iv);
    wgpuTextureRelease(img);
    wgpuBufferRelease(db);
    wgpuBufferRelease(sb);
    wgpuComputePipelineRelease(cp);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuShaderModuleRelease(cs);
    return ok;
}

/* Each workgroup sums 32 ones (tree reduction in workgroup memory), writes sums[wg] = 32 and
 * adds 1 to total: total 2, sums {32, 32}. */
static bool reduce_right(const uint32_t out[4])
{
    float s0, s1;
    memcpy(&s0, &out[1], 4);
    memcpy(&s1, &out[2], 4);
    return out[0] == 2 && s0 == 32.0f && s1 == 32.0f;
}

EG_TEST(vulkan, compute_reduce)
{
    VK_SETUP();
    uint32_t out[4];
    EG_ASSERT(reduce_run(d, out));
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(out[0], 2);
    EG_EXPECT(reduce_right(out));
    eg_test_device_release();
}

/* storeOp Discard on a 4x multisampled attachment with a resolve target: the resolve still sees
 * the samples (8x8 of the clear colour (1, 0.5, 0, 1) -> {255, 128, 0, 255}: 0.5 * 255 = 127.5
 * rounds to 128), and afterwards the attachment reads as zero (WebGPU: discarded contents are
 * zero), so a second pass that loads it and resolves gives {0, 0, 0, 0}. */
EG_TEST(vulkan, msaa_discard_with_resolve_zeroes_samples)
{
    VK_SETUP();
    WGPUTexture ms = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 4, WGPUTextureUsage_RenderAttachment);
    WGPUTexture rt = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView mv = wgpuTextureCreateView(ms, NULL), rv = wgpuTextureCreateView(rt, NULL);
    for (uint32_t pass = 0; pass < 2; pass++) {
        WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
        ca.view = mv;
        ca.resolveTarget = rv;
        ca.loadOp = pass == 0 ? WGPULoadOp_Clear : WGPULoadOp_Load;
        ca.storeOp = WGPUStoreOp_Discard;
        ca.clearValue = (WGPUColor){ 1, 0.5, 0, 1 };
        WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
        rpd.colorAttachmentCount = 1; rpd.colorAttachments = &ca;
        WGPUCommandEncoder e = t_encoder(d);
        WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
        wgpuRenderPassEncoderEnd(rp);
        wgpuRenderPassEncoderRelease(rp);
        t_submit(e);
        uint8_t img[8 * 8 * 4];
        EG_ASSERT(read_8x8(d, rt, img));
        const uint8_t want[2][4] = { { 255, 128, 0, 255 }, { 0, 0, 0, 0 } };
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < 64; i++) wrong += memcmp(img + i * 4, want[pass], 4) != 0;
        if (wrong) eg_test_printf("    pass %u: pixel 0 = %u %u %u %u\n", pass, img[0], img[1], img[2], img[3]);
        EG_EXPECT_EQ_U(wrong, 0);
    }
    EG_EXPECT_NO_ERROR();
    wgpuTextureViewRelease(mv);
    wgpuTextureViewRelease(rv);
    wgpuTextureRelease(ms);
    wgpuTextureRelease(rt);
    eg_test_device_release();
}

/* Debug groups and markers become VK_EXT_debug_utils labels (with EMGPU_VK_VALIDATION=1, where
 * the extension is on) and labelled objects get names: nested groups in the encoder and in a
 * compute pass, a marker, a labelled buffer; the work still runs (the clear leaves zeros, read
 * back) and the layer stays silent (checked by validation_layer_silent; unbalanced labels are a
 * validation error). */
EG_TEST(vulkan, debug_groups_and_markers_as_labels)
{
    VK_SETUP();
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.label = (WGPUStringView){ "labelled buffer", WGPU_STRLEN };
    bd.size = 16;
    bd.usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer b = wgpuDeviceCreateBuffer(d, &bd);
    static const uint32_t ones[4] = { 1, 1, 1, 1 };
    wgpuQueueWriteBuffer(eg_test_queue(), b, 0, ones, sizeof ones);
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderPushDebugGroup(e, (WGPUStringView){ "outer", WGPU_STRLEN });
    wgpuCommandEncoderInsertDebugMarker(e, (WGPUStringView){ "before clear", WGPU_STRLEN });
    wgpuCommandEncoderClearBuffer(e, b, 0, 16);
    WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderPushDebugGroup(pass, (WGPUStringView){ "inner", WGPU_STRLEN });
    wgpuComputePassEncoderInsertDebugMarker(pass, (WGPUStringView){ "marker", WGPU_STRLEN });
    wgpuComputePassEncoderPopDebugGroup(pass);
    wgpuComputePassEncoderEnd(pass);
    wgpuComputePassEncoderRelease(pass);
    wgpuCommandEncoderPopDebugGroup(e);
    t_submit(e);
    uint32_t out[4] = { 9, 9, 9, 9 };
    EG_ASSERT(t_readback(d, b, 0, sizeof out, out));
    EG_EXPECT(out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 0);
    EG_EXPECT_NO_ERROR();
    wgpuBufferRelease(b);
    eg_test_device_release();
}

#if EMGPU_HAL_VULKAN
/* A write larger than one staging chunk (EMGPU_VK_STAGING_CHUNK_BYTES) is split into pieces;
 * every byte must arrive (pattern: byte i = i * 7 + (i >> 16), so pieces cannot alias). */
EG_TEST(vulkan, staging_splits_large_write)
{
    VK_SETUP();
    const uint32_t size = EMGPU_VK_STAGING_CHUNK_BYTES + EMGPU_VK_STAGING_CHUNK_BYTES / 2 + 4;
    static uint8_t data[EMGPU_VK_STAGING_CHUNK_BYTES * 2], back[EMGPU_VK_STAGING_CHUNK_BYTES * 2];
    for (uint32_t i = 0; i < size; i++) data[i] = (uint8_t)(i * 7u + (i >> 16));
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, size);
    wgpuQueueWriteBuffer(eg_test_queue(), b, 0, data, size);
    EG_EXPECT_NO_ERROR();
    EG_ASSERT(t_readback(d, b, 0, size, back));
    EG_EXPECT(memcmp(data, back, size) == 0);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

/* Buffers of one whole block each: the device-local kind holds EMGPU_VK_MEMORY_BLOCKS of them,
 * the next one is OutOfMemory and the message names the knobs. */
EG_TEST(vulkan, memory_blocks_exhaust_with_knob)
{
    VK_SETUP();
    WGPUBuffer b[EMGPU_VK_MEMORY_BLOCKS + 1];
    for (uint32_t i = 0; i < EMGPU_VK_MEMORY_BLOCKS; i++)
        b[i] = t_buffer(d, WGPUBufferUsage_Storage, EMGPU_VK_MEMORY_BLOCK_BYTES);
    EG_EXPECT_NO_ERROR();
    b[EMGPU_VK_MEMORY_BLOCKS] = t_buffer(d, WGPUBufferUsage_Storage, EMGPU_VK_MEMORY_BLOCK_BYTES);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, HAL_OUT_OF_MEMORY, "EMGPU_VK_MEMORY_BLOCKS");
    for (uint32_t i = 0; i <= EMGPU_VK_MEMORY_BLOCKS; i++) wgpuBufferRelease(b[i]);
    eg_test_device_release();
}

/* The adapter reports Vulkan, and EMGPU_ADAPTER=<substring of its name> keeps choosing it. */
EG_TEST(vulkan, adapter_is_vulkan_and_env_selects)
{
    VK_SETUP();
    WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
    EG_ASSERT(wgpuDeviceGetAdapterInfo(d, &info) == WGPUStatus_Success);
    EG_EXPECT_EQ_U(info.backendType, WGPUBackendType_Vulkan);
    char name[64];
    size_t n = info.device.length < 8 ? info.device.length : 8;
    memcpy(name, info.device.data, n);
    name[n] = '\0';
    eg_test_device_release();
    setenv("EMGPU_ADAPTER", name, 1);
    d = vk_device();
    unsetenv("EMGPU_ADAPTER");
    EG_ASSERT(d);
    WGPUAdapterInfo info2 = WGPU_ADAPTER_INFO_INIT;
    EG_ASSERT(wgpuDeviceGetAdapterInfo(d, &info2) == WGPUStatus_Success);
    EG_EXPECT(info2.device.length >= n && memcmp(info2.device.data, name, n) == 0);
    eg_test_device_release();
}

/* ---- fault injection at the HAL boundary (hal/vulkan/vk_fault.h) ---- */

static bool device_is_lost(WGPUDevice d)
{
    WGPUFutureWaitInfo w = { wgpuDeviceGetLostFuture(d), WGPU_FALSE };
    (void)wgpuInstanceWaitAny(eg_test_instance(), 1, &w, 0);
    return w.completed;
}

/* The suite's basic create/record/submit/readback cycle: a sampler, the compute dispatch and the
 * draw, each read back through a mapped buffer. True when every result is right. */
static bool basic_cycle(WGPUDevice d)
{
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    WGPUSampler smp = wgpuDeviceCreateSampler(d, &sd);
    uint32_t out[4] = { 0, 0, 0, 0 };
    uint8_t img[8 * 8 * 4];
    bool ok = reduce_run(d, out) && reduce_right(out);
    ok = triangle_run(d, img) && triangle_wrong_pixels(img, false) == 0 && ok;
    wgpuSamplerRelease(smp);
    wgpuInstanceProcessEvents(eg_test_instance());
    return ok;
}

/* Counts the fallible Vulkan calls of one basic cycle on a fresh device (which must succeed). */
static uint32_t count_cycle_calls(void)
{
    WGPUDevice d = vk_device();
    if (!d) return 0;
    eg_vk_fault_arm(0, 0, NULL, false);
    bool ok = basic_cycle(d);
    uint32_t calls = eg_vk_fault_calls();
    eg_vk_fault_disarm();
    EG_EXPECT(ok);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
    return ok ? calls : 0;
}

/* Fails each fallible Vulkan call of the cycle in turn with VK_ERROR_OUT_OF_DEVICE_MEMORY, on a
 * fresh device each time. Each run must: reach the armed call; report a WebGPU OutOfMemory
 * error first (or, where the backend absorbs the failure, such as a fence poll it retries, still
 * get every result right); not lose the device; give every byte of device memory back once the
 * cycle's objects are released; leave the device usable (the cycle then passes with no error);
 * and leave every kernel pool empty at release. */
EG_TEST(vulkan, fault_each_call_oom_recovers_without_leak)
{
    VK_SETUP();
    eg_test_device_release();
    if (!eg_vk_fault_available()) EG_SKIP("EMGPU_VK_FAULT_INJECTION = 0");
    uint32_t calls = count_cycle_calls();
    EG_ASSERT(calls >= 20);   /* modules, layouts, pipelines, buffers, images, views, submits... */
    uint32_t absorbed = 0, unreached = 0;
    for (uint32_t n = 1; n <= calls; n++) {
        WGPUDevice dn = vk_device();
        EG_ASSERT(dn);
        uint64_t base = eg_vk_memory_used_all();
        uint32_t msgs = eg_vk_validation_messages();
        eg_vk_fault_arm(n, FAULT_OOM, NULL, false);
        if (getenv("EG_FAULT_TRACE")) eg_test_printf("    oom at call %u\n", n);
        bool ok = basic_cycle(dn);
        const char *fired = eg_vk_fault_fired();
        eg_vk_fault_disarm();
        if (!fired) {
            /* Fence polls depend on how fast the GPU runs: this run made fewer calls. */
            unreached++;
            eg_vk_fault_disarm();
            eg_test_device_release();
            continue;
        }
        bool good = !device_is_lost(dn) &&
                    (eg_test_err.count ? eg_test_err.type == WGPUErrorType_OutOfMemory : ok);
        if (!eg_test_err.count) absorbed++;
        if (!good)
            eg_test_printf("    call %u (%s): %u errors, first type %u \"%s\", results %s, used %llu of %llu\n", n,
                           fired ? fired : "none", eg_test_err.count, (unsigned)eg_test_err.type, eg_test_err.message,
                           ok ? "right" : "wrong", (unsigned long long)eg_vk_memory_used_all(),
                           (unsigned long long)base);
        EG_EXPECT(good);
        eg_test_errors_reset();
        bool again = basic_cycle(dn);
        if (!again || eg_test_err.count)
            eg_test_printf("    after call %u (%s) failed, the next cycle: %s, error \"%s\"\n", n, fired ? fired : "none",
                           again ? "right" : "wrong", eg_test_err.message);
        EG_EXPECT(again);
        EG_EXPECT_NO_ERROR();
        /* Objects of a failed submit are freed once a later submit completes: after the second
         * cycle every byte of device memory is back. */
        if (eg_vk_memory_used_all() != base)
            eg_test_printf("    after call %u (%s) failed: %llu B of device memory used, %llu before\n", n,
                           fired ? fired : "none", (unsigned long long)eg_vk_memory_used_all(),
                           (unsigned long long)base);
        EG_EXPECT_EQ_U(eg_vk_memory_used_all(), base);
        eg_test_device_release();
        if (eg_vk_validation_messages() != msgs)
            eg_test_printf("    call %u (%s) failed: %u validation messages\n", n, fired,
                           eg_vk_validation_messages() - msgs);
    }
    eg_test_printf("    %u fallible calls failed in turn (%u not reached in their run), %u absorbed without "
                   "an error\n", (unsigned)calls, (unsigned)unreached, (unsigned)absorbed);
    EG_EXPECT(unreached * 4 < calls);
}

/* A device that is lost at call n stays lost: every fallible call from the nth on returns
 * VK_ERROR_DEVICE_LOST. Whichever call notices first, the WebGPU device must be lost (the lost
 * future completes), nothing may hang or crash, and releasing everything leaves the kernel pools
 * and the device memory empty. */
EG_TEST(vulkan, fault_device_lost_at_each_call)
{
    VK_SETUP();
    eg_test_device_release();
    if (!eg_vk_fault_available()) EG_SKIP("EMGPU_VK_FAULT_INJECTION = 0");
    uint32_t calls = count_cycle_calls();
    EG_ASSERT(calls >= 20);
    uint32_t unreached = 0;
    for (uint32_t n = 1; n <= calls; n++) {
        WGPUDevice dn = vk_device();
        EG_ASSERT(dn);
        uint64_t base = eg_vk_memory_used_all();
        uint32_t msgs = eg_vk_validation_messages();
        eg_vk_fault_arm(n, FAULT_LOST, NULL, true);
        (void)basic_cycle(dn);
        const char *fired = eg_vk_fault_fired();
        bool lost = device_is_lost(dn);
        eg_vk_fault_disarm();
        if (!fired) { unreached++; eg_test_device_release(); continue; }
        bool good = lost;
        if (!good)
            eg_test_printf("    call %u (%s): lost %d, %u errors \"%s\", used %llu of %llu\n", n, fired ? fired : "none",
                           (int)lost, eg_test_err.count, eg_test_err.message,
                           (unsigned long long)eg_vk_memory_used_all(), (unsigned long long)base);
        EG_EXPECT(good);
        eg_test_errors_reset();
        eg_test_device_release();
        EG_EXPECT_EQ_U(eg_vk_memory_used_all(), 0);   /* the device's blocks went with it */
        if (eg_vk_validation_messages() != msgs)
            eg_test_printf("    lost at call %u (%s): %u validation messages\n", n, fired,
                           eg_vk_validation_messages() - msgs);
        (void)base;
    }
    EG_EXPECT(unreached * 4 < calls);
}

/* ---- the driver's host allocations in a fixed arena (EMGPU_VK_HOST_ALLOC_ARENA) ---- */

/* The callbacks as the driver calls them: an allocation honours its alignment; a reallocation
 * keeps the old bytes (the first 100 of a 100-byte block grown to 5000) and frees the old block;
 * realloc to 0 frees; a request larger than the arena fails (NULL, logged with the knob) and
 * changes nothing; in the end the arena holds what it held before. */
EG_TEST(vulkan, host_arena_alloc_realloc_free)
{
#if EMGPU_HAL_VULKAN && EMGPU_VK_HOST_ALLOC_ARENA
    uint64_t before = eg_vk_host_arena_used();
    uint8_t *p = eg_vk_host_arena_call_alloc(100, 64);
    EG_ASSERT(p);
    EG_EXPECT_EQ_U((uintptr_t)p % 64, 0);
    for (uint32_t i = 0; i < 100; i++) p[i] = (uint8_t)(i * 3 + 1);
    uint8_t *q = eg_vk_host_arena_call_realloc(p, 5000, 16);
    EG_ASSERT(q);
    bool same = true;
    for (uint32_t i = 0; i < 100; i++) same = same && q[i] == (uint8_t)(i * 3 + 1);
    EG_EXPECT(same);
    EG_EXPECT(eg_vk_host_arena_used() >= before + 5000 && eg_vk_host_arena_used() < before + 5000 + 64);
    uint64_t mid = eg_vk_host_arena_used();
    EG_EXPECT(eg_vk_host_arena_call_alloc((size_t)EMGPU_VK_HOST_ALLOC_ARENA + 1, 16) == NULL);
    EG_EXPECT_EQ_U(eg_vk_host_arena_used(), mid);
    EG_EXPECT(eg_vk_host_arena_call_realloc(q, 0, 16) == NULL);
    EG_EXPECT_EQ_U(eg_vk_host_arena_used(), before);
#else
    EG_NOT_APPLICABLE("needs a build with EMGPU_VK_HOST_ALLOC_ARENA (make test runs one: build/host-variant)");
#endif
}

/* The basic cycle with every driver host allocation in the arena: results right, no error; the
 * arena's use is reported, and the device's own objects all go back when it is released (what
 * stays is the process-wide instance's). */
EG_TEST(vulkan, host_arena_basic_cycle)
{
#if EMGPU_HAL_VULKAN && EMGPU_VK_HOST_ALLOC_ARENA
    uint64_t before = eg_vk_host_arena_used();
    VK_SETUP();
    uint64_t opened = eg_vk_host_arena_used();
    EG_EXPECT(basic_cycle(d));
    EG_EXPECT_NO_ERROR();
    uint64_t after_cycle = eg_vk_host_arena_used();
    eg_test_device_release();
    eg_test_printf("    driver host arena: %llu B with the instance, %llu B with a device open, %llu B after the "
                   "cycle, %llu B after release, peak %llu of %u B\n", (unsigned long long)before,
                   (unsigned long long)opened, (unsigned long long)after_cycle,
                   (unsigned long long)eg_vk_host_arena_used(), (unsigned long long)eg_vk_host_arena_peak(),
                   (unsigned)EMGPU_VK_HOST_ALLOC_ARENA);
    EG_EXPECT(eg_vk_host_arena_peak() > 0);
    EG_EXPECT(eg_vk_host_arena_used() <= opened);
#else
    EG_NOT_APPLICABLE("needs a build with EMGPU_VK_HOST_ALLOC_ARENA (make test runs one: build/host-variant)");
#endif
}

/* With EMGPU_VK_VALIDATION=1 the Khronos layer (with synchronization validation) checks every
 * Vulkan call of the run; this test, registered last of the suite's files but one, fails when
 * any message arrived so far. */
EG_TEST(vulkan, validation_layer_silent)
{
    VK_SETUP();
    const char *v = getenv("EMGPU_VK_VALIDATION");
    eg_test_device_release();
    if (!v || v[0] != '1') EG_SKIP("EMGPU_VK_VALIDATION=1 not set");
    EG_EXPECT_EQ_U(eg_vk_validation_messages(), 0);
}
#endif
