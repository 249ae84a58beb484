/* D3D12 backend tests: zero-init, placed-footprint copies, clears, heap accounting and fault injection at the HAL boundary. */
#include "tests/unit/d3d12_test_util.h"

/* Only boards with the D3D12 backend build these tests (their static readback buffers would
 * cost RAM on the small boards for nothing). Shared setup: d3d12_test_util.h. */
#if EMGPU_HAL_D3D12

EG_TEST(d3d12, adapter_reports_d3d12)
{
    D3D_SETUP();
    WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
    EG_EXPECT(wgpuDeviceGetAdapterInfo(d, &info) == WGPUStatus_Success);
    EG_EXPECT(info.backendType == WGPUBackendType_D3D12);
    EG_EXPECT(info.device.length > 0);
    /* A buffer lives inside one heap: maxBufferSize is capped to the heap size knob. */
    WGPULimits lim = WGPU_LIMITS_INIT;
    EG_EXPECT(wgpuDeviceGetLimits(d, &lim) == WGPUStatus_Success);
    EG_EXPECT(lim.maxBufferSize <= 16u * 1024u * 1024u || lim.maxBufferSize <= (uint64_t)1 << 31);
    wgpuAdapterInfoFreeMembers(info);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* WebGPU: a new buffer reads as zeros; a write lands exactly at its offset (default-heap buffer
 * zeroed by copies from the zero buffer, then copied to a readback-heap buffer). */
static bool buffer_cycle(WGPUDevice d)
{
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 1024);
    uint32_t data[4] = { 0x11223344u, 5u, 0xFFFFFFFFu, 7u };
    wgpuQueueWriteBuffer(eg_test_queue(), b, 256, data, sizeof data);
    uint8_t out[1024];
    memset(out, 0xAB, sizeof out);
    bool ok = t_readback(d, b, 0, sizeof out, out);
    for (uint32_t i = 0; ok && i < sizeof out; i++) {
        uint8_t want = (i >= 256 && i < 256 + sizeof data) ? ((const uint8_t *)data)[i - 256] : 0;
        if (out[i] != want) ok = false;
    }
    wgpuBufferRelease(b);
    return ok;
}

EG_TEST(d3d12, buffer_zeroed_and_written)
{
    D3D_SETUP();
    EG_EXPECT(buffer_cycle(d));
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* An 8x8 RGBA8 texture written with a tight 32-byte row pitch (the staging copy re-pitches to
 * D3D12's 256) and read back at buffer offset 260: not a multiple of D3D12's 512-byte footprint
 * placement, so the copy is shifted inside a footprint at 0. Expected texel (x, y) = x + 8y, y, 7, 255. */
static bool texture_cycle(WGPUDevice d)
{
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                              WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc);
    uint8_t px[8 * 8 * 4];
    for (uint32_t i = 0; i < 64; i++) {
        px[i * 4] = (uint8_t)i; px[i * 4 + 1] = (uint8_t)(i / 8); px[i * 4 + 2] = 7; px[i * 4 + 3] = 255;
    }
    WGPUTexelCopyTextureInfo ti = t_tex_info(t, 0, 0, 0, 0);
    WGPUTexelCopyBufferLayout lay = { 0, 32, 8 };
    WGPUExtent3D sz = t_extent(8, 8, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &ti, px, sizeof px, &lay, &sz);
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 260 + 256 * 8);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, 260, 256, 8);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    static uint8_t rows[260 + 256 * 8];
    bool ok = t_readback(d, b, 0, sizeof rows, rows);
    for (uint32_t y = 0; ok && y < 8; y++)
        if (memcmp(rows + 260 + y * 256, px + y * 32, 32) != 0) ok = false;
    for (uint32_t i = 0; ok && i < 260; i++)
        if (rows[i] != 0) ok = false;   /* bytes before the copy stay zero */
    wgpuBufferRelease(b);
    wgpuTextureRelease(t);
    return ok;
}

EG_TEST(d3d12, texture_write_and_unaligned_readback)
{
    D3D_SETUP();
    EG_EXPECT(texture_cycle(d));
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* A render pass that only clears: loadOp Clear with (0.2, 0.6, 1.0, 0.0) gives RGBA8 texels
 * 51, 153, 255, 0 (x * 255, exact: no rounding question). A second target with storeOp Discard
 * reads back as zeros (WebGPU: discarded contents are zero). */
static bool clear_cycle(WGPUDevice d)
{
    WGPUTexture rt[2];
    WGPUTextureView v[2];
    for (uint32_t i = 0; i < 2; i++) {
        rt[i] = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                          WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
        v[i] = wgpuTextureCreateView(rt[i], NULL);
    }
    WGPURenderPassColorAttachment ca[2] = { WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT, WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT };
    for (uint32_t i = 0; i < 2; i++) {
        ca[i].view = v[i];
        ca[i].loadOp = WGPULoadOp_Clear;
        ca[i].storeOp = i == 0 ? WGPUStoreOp_Store : WGPUStoreOp_Discard;
        ca[i].clearValue = (WGPUColor){ 0.2, 0.6, 1.0, 0.0 };
    }
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 2;
    rpd.colorAttachments = ca;
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 2 * 256 * 8);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUExtent3D sz = t_extent(8, 8, 1);
    for (uint32_t i = 0; i < 2; i++) {
        WGPUTexelCopyTextureInfo ti = t_tex_info(rt[i], 0, 0, 0, 0);
        WGPUTexelCopyBufferInfo bi = t_buf_info(b, i * 256 * 8, 256, 8);
        wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    }
    t_submit(e);
    static uint8_t out[2 * 256 * 8];
    bool ok = t_readback(d, b, 0, sizeof out, out);
    static const uint8_t want[2][4] = { { 51, 153, 255, 0 }, { 0, 0, 0, 0 } };
    for (uint32_t i = 0; ok && i < 2; i++)
        for (uint32_t y = 0; y < 8; y++)
            for (uint32_t x = 0; x < 8; x++)
                if (memcmp(out + i * 2048 + y * 256 + x * 4, want[i], 4) != 0) ok = false;
    wgpuBufferRelease(b);
    for (uint32_t i = 0; i < 2; i++) { wgpuTextureViewRelease(v[i]); wgpuTextureRelease(rt[i]); }
    return ok;
}

EG_TEST(d3d12, render_pass_clear_and_discard)
{
    D3D_SETUP();
    EG_EXPECT(clear_cycle(d));
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Heap accounting: every placed resource gives its bytes back to the block allocator. */
EG_TEST(d3d12, heaps_give_memory_back)
{
    D3D_SETUP();
    uint64_t base = eg_d3d_memory_used_all();
    WGPUBuffer b[4];
    for (uint32_t i = 0; i < 4; i++) b[i] = t_buffer(d, WGPUBufferUsage_CopyDst | (i & 1 ? WGPUBufferUsage_MapRead : 0), 4096);
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 32, 32, 1, 1, 1, WGPUTextureUsage_TextureBinding);
    /* Placed resources take at least 64 KiB each (the default placement alignment). */
    EG_EXPECT(eg_d3d_memory_used_all() >= base + 5u * 65536u);
    for (uint32_t i = 0; i < 4; i++) wgpuBufferRelease(b[i]);
    wgpuTextureRelease(t);
    wgpuInstanceProcessEvents(eg_test_instance());
    EG_EXPECT_EQ_U(eg_d3d_memory_used_all(), base);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* With EMGPU_D3D12_VALIDATION=1 and the debug layer installed, the basic cycle (buffers, texture
 * writes and copies, clears, discard) makes the layer say nothing: every message is a backend bug
 * (a wrong barrier state, a bad descriptor, a footprint rule). */
static bool basic_cycle(WGPUDevice d);
EG_TEST(d3d12, validation_layer_silent)
{
    D3D_SETUP();
    if (!eg_d3d_debug_layer_on()) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("needs EMGPU_D3D12_VALIDATION=1 and the D3D12 debug layer (wine has none)");
    }
    uint32_t before = eg_d3d_validation_messages();
    EG_EXPECT(basic_cycle(d));
    EG_EXPECT_EQ_U(eg_d3d_validation_messages(), before);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* ---- fault injection at the HAL boundary (hal/d3d12/d3d_fault.h) ---- */

static bool basic_cycle(WGPUDevice d)
{
    bool ok = buffer_cycle(d);
    ok = texture_cycle(d) && ok;
    ok = clear_cycle(d) && ok;
    wgpuInstanceProcessEvents(eg_test_instance());
    return ok;
}

static uint32_t count_cycle_calls(void)
{
    WGPUDevice d = d3d_device();
    if (!d) return 0;
    eg_d3d_fault_arm(0, 0, NULL, false);
    bool ok = basic_cycle(d);
    uint32_t calls = eg_d3d_fault_calls();
    eg_d3d_fault_disarm();
    EG_EXPECT(ok);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
    return ok ? calls : 0;
}

/* Fails each fallible D3D12 call of the cycle in turn with E_OUTOFMEMORY, on a fresh device:
 * the run reports OutOfMemory (or absorbs the failure and gets every result right), the device
 * is not lost, the next cycle is right with no error, and the heaps and pools are empty after. */
EG_TEST(d3d12, fault_each_call_oom_recovers_without_leak)
{
    D3D_SETUP();
    eg_test_device_release();
    if (!eg_d3d_fault_available()) EG_SKIP("EMGPU_D3D12_FAULT_INJECTION = 0");
    uint32_t calls = count_cycle_calls();
    EG_ASSERT(calls >= 8);   /* placements, list resets/closes, signals, maps, descriptors */
    uint32_t unreached = 0;
    eg_d3d_replacement_stats_t r0, r1;
    eg_d3d_replacement_stats(&r0);
    for (uint32_t n = 1; n <= calls; n++) {
        WGPUDevice dn = d3d_device();
        EG_ASSERT(dn);
        uint64_t base = eg_d3d_memory_used_all();
        eg_d3d_fault_arm(n, FAULT_OOM, NULL, false);
        bool ok = basic_cycle(dn);
        const char *fired = eg_d3d_fault_fired();
        eg_d3d_fault_disarm();
        bool lost = device_is_lost(dn);
        /* A failed Signal is signalled again, a failed upload-list Close recorded again
         * (d3d_queue.c): neither loses the device. */
        if (fired && (strcmp(fired, "ID3D12CommandQueue::Signal") == 0 ||
                      strcmp(fired, "ID3D12GraphicsCommandList::Close (upload)") == 0))
            EG_EXPECT(!lost);
        if (!fired) {
            /* Fence waits depend on how fast the GPU runs: this run made fewer calls. */
            unreached++;
            eg_test_errors_reset();
            eg_test_device_release();
            continue;
        }
        bool good = (lost ? true : (eg_test_err.count ? eg_test_err.type == WGPUErrorType_OutOfMemory : ok));
        if (!good || lost)
            eg_test_printf("    call %u (%s): %u errors, first type %u \"%s\", results %s, %s\n", n,
                           fired ? fired : "none", eg_test_err.count, (unsigned)eg_test_err.type, eg_test_err.message,
                           ok ? "right" : "wrong", lost ? "device lost" : "device alive");
        EG_EXPECT(good);
        eg_test_errors_reset();
        if (!lost) {
            bool again = basic_cycle(dn);
            EG_EXPECT(again);
            EG_EXPECT_NO_ERROR();
            EG_EXPECT_EQ_U(eg_d3d_memory_used_all(), base);
        }
        eg_test_errors_reset();
        eg_test_device_release();
    }
    eg_test_printf("    %u fallible calls failed in turn (%u not reached in their run)\n", (unsigned)calls,
                   (unsigned)unreached);
    EG_EXPECT(unreached * 4 < calls);
    /* The walk failed main lists (Reset, recording, Close) of streams that move buffers between
     * copy states: each was replaced by its texture barriers alone, naming no buffer state, and
     * the cycle after it was right (above). */
    eg_d3d_replacement_stats(&r1);
    eg_test_printf("    %u failed submits replaced: %u texture transitions kept, %u buffer ones left out\n",
                   (unsigned)(r1.replacements - r0.replacements), (unsigned)(r1.texture_items - r0.texture_items),
                   (unsigned)(r1.buffer_items_skipped - r0.buffer_items_skipped));
    EG_EXPECT(r1.replacements > r0.replacements);
    EG_EXPECT(r1.buffer_items_skipped > r0.buffer_items_skipped);
}

/* A submit whose main list fails to Close (injected E_OUTOFMEMORY; nothing else pending: the
 * uploads were flushed by the readback) is one OutOfMemory error and is replaced by its texture
 * barriers. Buffer b is a copy destination, then a copy source in that list (an explicit
 * COPY_DEST -> COPY_SOURCE transition when it runs); the replacement must name no buffer state
 * (b never reached COPY_DEST: that list never ran) and the epoch must move on, so the same
 * copies submitted again promote b from COMMON and c receives a's bytes. */
static void copy_chain(WGPUDevice d, WGPUBuffer a, WGPUBuffer b, WGPUBuffer c)
{
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderCopyBufferToBuffer(e, a, 0, b, 0, 256);
    wgpuCommandEncoderCopyBufferToBuffer(e, b, 0, c, 0, 256);
    t_submit(e);
}

/* The upload list of a fresh buffer's and texture's zero-fills and their queue writes fails to
 * Close (injected E_OUTOFMEMORY): it is recorded again from its log, so the device stays alive,
 * no error is reported (the calls behind it had returned), and the readbacks show what those
 * calls promised: the buffer zero except the 16 bytes written at 256, the texture's rows as
 * written (texel (x, y) = x + 8y, y, 7, 255). */
EG_TEST(d3d12, fault_upload_close_recorded_again)
{
    D3D_SETUP();
    if (!eg_d3d_fault_available()) { eg_test_device_release(); EG_SKIP("EMGPU_D3D12_FAULT_INJECTION = 0"); }
    static uint8_t out[1024], px[8 * 8 * 4], tout[256 * 8];
    static const uint32_t data[4] = { 0x11223344u, 5u, 0xFFFFFFFFu, 7u };
    for (uint32_t i = 0; i < 64; i++) {
        px[i * 4] = (uint8_t)i; px[i * 4 + 1] = (uint8_t)(i / 8); px[i * 4 + 2] = 7; px[i * 4 + 3] = 255;
    }
    eg_d3d_fault_arm(1, FAULT_OOM, "ID3D12GraphicsCommandList::Close (upload)", false);
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 1024);
    wgpuQueueWriteBuffer(eg_test_queue(), b, 256, data, sizeof data);
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                              WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc);
    WGPUTexelCopyTextureInfo ti = t_tex_info(t, 0, 0, 0, 0);
    WGPUTexelCopyBufferLayout tl = { 0, 32, 8 };
    WGPUExtent3D sz = t_extent(8, 8, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &ti, px, sizeof px, &tl, &sz);
    memset(out, 0xAB, sizeof out);
    bool ok = t_readback(d, b, 0, sizeof out, out);
    const char *fired = eg_d3d_fault_fired();
    eg_d3d_fault_disarm();
    EG_EXPECT(fired != NULL);
    EG_EXPECT(ok);
    for (uint32_t i = 0; i < sizeof out; i++) {
        uint8_t want = (i >= 256 && i < 256 + sizeof data) ? ((const uint8_t *)data)[i - 256] : 0;
        if (out[i] != want) { EG_EXPECT_EQ_U(out[i], want); break; }
    }
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, sizeof tout);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, 8);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    EG_EXPECT(t_readback(d, rb, 0, sizeof tout, tout));
    for (uint32_t y = 0; y < 8; y++) EG_EXPECT(memcmp(tout + y * 256, px + y * 32, 32) == 0);
    EG_EXPECT(!device_is_lost(d));
    EG_EXPECT_NO_ERROR();
    wgpuBufferRelease(rb);
    wgpuTextureRelease(t);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

EG_TEST(d3d12, fault_main_close_replacement_names_no_buffer_state)
{
    D3D_SETUP();
    if (!eg_d3d_fault_available()) { eg_test_device_release(); EG_SKIP("EMGPU_D3D12_FAULT_INJECTION = 0"); }
    static uint32_t data[64], out[64];
    for (uint32_t i = 0; i < 64; i++) data[i] = i * 3u + 1u;
    WGPUBuffer a = d3d_upload(d, WGPUBufferUsage_CopySrc, data, sizeof data);
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 256);
    WGPUBuffer c = t_buffer(d, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 256);
    EG_EXPECT(t_readback(d, a, 0, sizeof out, out) && memcmp(out, data, sizeof data) == 0);
    eg_d3d_replacement_stats_t r0, r1;
    eg_d3d_replacement_stats(&r0);
    eg_d3d_fault_arm(1, FAULT_OOM, "ID3D12GraphicsCommandList::Close", false);
    copy_chain(d, a, b, c);
    const char *fired = eg_d3d_fault_fired();
    eg_d3d_fault_disarm();
    eg_d3d_replacement_stats(&r1);
    EG_EXPECT(fired != NULL);
    EG_EXPECT_EQ_U(eg_test_err.count, 1);
    EG_EXPECT(eg_test_err.type == WGPUErrorType_OutOfMemory);
    eg_test_errors_reset();
    EG_EXPECT(!device_is_lost(d));
    EG_EXPECT_EQ_U(r1.replacements - r0.replacements, 1);
    /* At least b's COPY_DST -> COPY_SRC (the tracker lists a buffer's first use in a submit only
     * when it changes a state it already knows). */
    EG_EXPECT(r1.buffer_items_skipped - r0.buffer_items_skipped >= 1);
    eg_test_printf("    replacement: %u texture transitions, %u buffer ones left out\n",
                   (unsigned)(r1.texture_items - r0.texture_items),
                   (unsigned)(r1.buffer_items_skipped - r0.buffer_items_skipped));
    memset(out, 0xAB, sizeof out);
    EG_EXPECT(t_readback(d, c, 0, sizeof out, out));
    for (uint32_t i = 0; i < 64; i++) EG_EXPECT_EQ_U(out[i], 0);          /* the failed copies never ran */
    copy_chain(d, a, b, c);
    memset(out, 0xAB, sizeof out);
    EG_EXPECT(t_readback(d, c, 0, sizeof out, out) && memcmp(out, data, sizeof data) == 0);
    EG_EXPECT_NO_ERROR();
    wgpuBufferRelease(c);
    wgpuBufferRelease(b);
    wgpuBufferRelease(a);
    eg_test_device_release();
}

/* DXGI_ERROR_DEVICE_REMOVED from call n on: the WebGPU device must be lost, nothing may hang,
 * and releasing everything leaves the pools and heaps empty. */
EG_TEST(d3d12, fault_device_removed_at_each_call)
{
    D3D_SETUP();
    eg_test_device_release();
    if (!eg_d3d_fault_available()) EG_SKIP("EMGPU_D3D12_FAULT_INJECTION = 0");
    uint32_t calls = count_cycle_calls();
    EG_ASSERT(calls >= 8);
    for (uint32_t n = 1; n <= calls; n++) {
        WGPUDevice dn = d3d_device();
        EG_ASSERT(dn);
        eg_d3d_fault_arm(n, FAULT_LOST, NULL, true);
        (void)basic_cycle(dn);
        const char *fired = eg_d3d_fault_fired();
        bool lost = device_is_lost(dn);
        eg_d3d_fault_disarm();
        if (fired && !lost) eg_test_printf("    call %u (%s) failed but the device is not lost\n", n, fired);
        EG_EXPECT(!fired || lost);
        eg_test_errors_reset();
        eg_test_device_release();
    }
}

/* A bind group is a descriptor table in each shader-visible heap: one descriptor per binding
 * without a dynamic offset (5 views: uniform, read-only storage, storage, sampled texture,
 * storage texture; 1 sampler), none for the dynamic uniform buffer (a root CBV). The pipeline
 * layout's root signature is serialized and created by the driver (no error). Releasing the
 * group gives the ranges back. */
EG_TEST(d3d12, bind_group_tables_and_root_signature)
{
    D3D_SETUP();
    uint64_t v0 = eg_d3d_gpu_descriptors_used_all(0), s0 = eg_d3d_gpu_descriptors_used_all(1);
    WGPUBindGroupLayoutEntry le[7];
    for (uint32_t i = 0; i < 7; i++) {
        le[i] = (WGPUBindGroupLayoutEntry)WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
        le[i].binding = i;
        le[i].visibility = WGPUShaderStage_Compute;
    }
    le[0].buffer.type = WGPUBufferBindingType_Uniform;
    le[1].buffer.type = WGPUBufferBindingType_ReadOnlyStorage;
    le[2].buffer.type = WGPUBufferBindingType_Storage;
    le[3].texture.sampleType = WGPUTextureSampleType_Float;
    le[4].sampler.type = WGPUSamplerBindingType_Filtering;
    le[5].storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
    le[5].storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
    le[6].buffer.type = WGPUBufferBindingType_Uniform;
    le[6].buffer.hasDynamicOffset = WGPU_TRUE;
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.entryCount = 7;
    ld.entries = le;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(d, &ld);
    WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pd.bindGroupLayoutCount = 1;
    pd.bindGroupLayouts = &bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pd);
    WGPUBuffer ub = t_buffer(d, WGPUBufferUsage_Uniform, 256);
    WGPUBuffer sb = t_buffer(d, WGPUBufferUsage_Storage, 256);
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1,
                                WGPUTextureUsage_TextureBinding | WGPUTextureUsage_StorageBinding);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUSampler smp = wgpuDeviceCreateSampler(d, NULL);
    WGPUBindGroupEntry be[7];
    for (uint32_t i = 0; i < 7; i++) {
        be[i] = (WGPUBindGroupEntry)WGPU_BIND_GROUP_ENTRY_INIT;
        be[i].binding = i;
    }
    be[0].buffer = ub; be[6].buffer = ub; be[6].size = 64;
    be[1].buffer = sb; be[2].buffer = sb;
    be[3].textureView = view; be[5].textureView = view;
    be[4].sampler = smp;
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl;
    bd.entryCount = 7;
    bd.entries = be;
    WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bd);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(eg_d3d_gpu_descriptors_used_all(0), v0 + 5);
    EG_EXPECT_EQ_U(eg_d3d_gpu_descriptors_used_all(1), s0 + 1);
    wgpuBindGroupRelease(bg);
    wgpuInstanceProcessEvents(eg_test_instance());
    EG_EXPECT_EQ_U(eg_d3d_gpu_descriptors_used_all(0), v0);
    EG_EXPECT_EQ_U(eg_d3d_gpu_descriptors_used_all(1), s0);
    wgpuSamplerRelease(smp);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuBufferRelease(sb);
    wgpuBufferRelease(ub);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(bgl);
    eg_test_device_release();
}

/* Texture-to-texture copies between mips and array layers, and a 3D texture's slices through a
 * buffer: a 4x4 RGBA8 pattern written to layer 1 mip 0 of a 2-layer 8x8 texture, copied to mip
 * 1 (4x4) layer 0 of another, and read back; texel (x, y) = 16y + 4x + {1, 2, 3, 4}. A 4x4x2
 * 3D texture: slice z filled with z + 1, read back whole (rows padded to 256). */
EG_TEST(d3d12, texture_copies_mips_layers_and_3d)
{
    D3D_SETUP();
    uint8_t px[4 * 4 * 4];
    for (uint32_t i = 0; i < 16; i++)
        for (uint32_t c = 0; c < 4; c++) px[i * 4 + c] = (uint8_t)(i * 4 + c + 1);
    WGPUTexture a = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 2, 1, 1,
                              WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc);
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.size = t_extent(8, 8, 1);
    td.format = WGPUTextureFormat_RGBA8Unorm;
    td.mipLevelCount = 2;
    td.usage = WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc;
    WGPUTexture b = wgpuDeviceCreateTexture(d, &td);
    WGPUTexelCopyTextureInfo ai = t_tex_info(a, 0, 2, 2, 1);
    WGPUTexelCopyBufferLayout lay = { 0, 16, 4 };
    WGPUExtent3D e4 = t_extent(4, 4, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &ai, px, sizeof px, &lay, &e4);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * 8);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyTextureInfo bi = t_tex_info(b, 1, 0, 0, 0);
    wgpuCommandEncoderCopyTextureToTexture(e, &ai, &bi, &e4);
    WGPUTexelCopyBufferInfo bb = t_buf_info(rb, 0, 256, 4);
    wgpuCommandEncoderCopyTextureToBuffer(e, &bi, &bb, &e4);
    t_submit(e);
    static uint8_t out[256 * 8];
    EG_EXPECT(t_readback(d, rb, 0, 256 * 4, out));
    for (uint32_t y = 0; y < 4; y++) EG_EXPECT(memcmp(out + y * 256, px + y * 16, 16) == 0);
    td.dimension = WGPUTextureDimension_3D;
    td.size = t_extent(4, 4, 2);
    td.mipLevelCount = 1;
    WGPUTexture c = wgpuDeviceCreateTexture(d, &td);
    uint8_t vol[2][4 * 4 * 4];
    memset(vol[0], 1, sizeof vol[0]);
    memset(vol[1], 2, sizeof vol[1]);
    WGPUTexelCopyTextureInfo ci = t_tex_info(c, 0, 0, 0, 0);
    WGPUExtent3D e442 = t_extent(4, 4, 2);
    wgpuQueueWriteTexture(eg_test_queue(), &ci, vol, sizeof vol, &lay, &e442);
    e = t_encoder(d);
    WGPUTexelCopyBufferInfo cb = t_buf_info(rb, 0, 256, 4);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ci, &cb, &e442);
    t_submit(e);
    EG_EXPECT(t_readback(d, rb, 0, 256 * 8, out));
    for (uint32_t z = 0; z < 2; z++)
        for (uint32_t y = 0; y < 4; y++) EG_EXPECT(memcmp(out + (z * 4 + y) * 256, vol[z], 16) == 0);
    wgpuBufferRelease(rb);
    wgpuTextureRelease(a);
    wgpuTextureRelease(b);
    wgpuTextureRelease(c);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* A 4x MSAA color target cleared to (0, 1, 0, 1) with storeOp Discard and resolved into a
 * single-sample texture: every resolved texel is 0, 255, 0, 255 (all samples equal). */
EG_TEST(d3d12, msaa_clear_resolve)
{
    D3D_SETUP();
    WGPUTexture ms = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 4, WGPUTextureUsage_RenderAttachment);
    WGPUTexture rs = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView msv = wgpuTextureCreateView(ms, NULL), rsv = wgpuTextureCreateView(rs, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = msv;
    ca.resolveTarget = rsv;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Discard;
    ca.clearValue = (WGPUColor){ 0, 1, 0, 1 };
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1;
    rpd.colorAttachments = &ca;
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * 8);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUExtent3D sz = t_extent(8, 8, 1);
    WGPUTexelCopyTextureInfo ri = t_tex_info(rs, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo rb = t_buf_info(b, 0, 256, 8);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ri, &rb, &sz);
    t_submit(e);
    static uint8_t out[256 * 8];
    EG_EXPECT(t_readback(d, b, 0, sizeof out, out));
    static const uint8_t green[4] = { 0, 255, 0, 255 };
    bool ok = true;
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) ok = ok && memcmp(out + y * 256 + x * 4, green, 4) == 0;
    EG_EXPECT(ok);
    wgpuBufferRelease(b);
    wgpuTextureViewRelease(msv); wgpuTextureViewRelease(rsv);
    wgpuTextureRelease(ms); wgpuTextureRelease(rs);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Depth24PlusStencil8: the stencil aspect written with writeTexture (0x5A everywhere) and copied
 * out through a 256-byte row pitch reads 0x5A in every texel. Under wine 8.0 this needs the
 * probed plane-0 workaround for vkd3d 1.6's stencil-plane copies (d3d_barrier.c,
 * hal/d3d12/README.md "Under wine"). */
EG_TEST(d3d12, stencil_write_and_copy)
{
    D3D_SETUP();
    WGPUTexture ds = t_texture(d, WGPUTextureFormat_Depth24PlusStencil8, 8, 8, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst);
    static uint8_t sv[8 * 8];
    memset(sv, 0x5A, sizeof sv);
    WGPUTexelCopyTextureInfo wi = t_tex_info(ds, 0, 0, 0, 0);
    wi.aspect = WGPUTextureAspect_StencilOnly;
    WGPUTexelCopyBufferLayout wl = { 0, 8, 8 };
    WGPUExtent3D sz = t_extent(8, 8, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &wi, sv, sizeof sv, &wl, &sz);
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * 8);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyBufferInfo sb = t_buf_info(b, 0, 256, 8);
    wgpuCommandEncoderCopyTextureToBuffer(e, &wi, &sb, &sz);
    t_submit(e);
    static uint8_t out[256 * 8];
    EG_EXPECT(t_readback(d, b, 0, sizeof out, out));
    bool ok = true;
    for (uint32_t y = 0; y < 8; y++) ok = ok && memcmp(out + y * 256, sv, 8) == 0;
    EG_EXPECT(ok);
    wgpuBufferRelease(b);
    wgpuTextureRelease(ds);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif /* EMGPU_HAL_D3D12 */
