/* Vulkan backend tests: draws and dispatches on the GPU, staging splits, memory exhaustion, validation. */
#include <stdlib.h>
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_VULKAN
uint32_t eg_vk_validation_messages(void);   /* hal/vulkan/vk_device.c */
#endif

/* A device only when this run targets Vulkan (EMGPU_TEST_BACKEND=vulkan); these tests check
 * Vulkan behaviour and skip elsewhere. */
static WGPUDevice vk_device(void)
{
#if EMGPU_HAL_VULKAN
    WGPUDevice d = eg_test_device("soft");
    if (d && strcmp(eg_test_backend(), "vulkan") == 0) return d;
    if (d) eg_test_device_release();
#endif
    return NULL;
}
#define VK_SETUP() WGPUDevice d = vk_device(); if (!d) EG_SKIP("not running on vulkan (EMGPU_TEST_BACKEND=vulkan)")

static WGPUShaderModule vk_module(WGPUDevice d, const char *name)
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

/* One triangle over a blue clear. Window triangle (0,0) (0,8) (8,0): clip (-1,1) is the top-left
 * corner in WebGPU (y up in clip space, down in the framebuffer), so pixel centres with
 * x + y + 1 < 8 are red and those with x + y + 1 > 8 stay blue; the diagonal x + y = 7 lies on the
 * edge and is left to the rasterizer's tie rule. A wrong y flip would put red at the bottom. */
EG_TEST(vulkan, draw_triangle_over_clear)
{
    VK_SETUP();
    typedef struct { float x, y, z, w; uint8_t rgba[4]; } vtx_t;
    static const vtx_t v[3] = { { -1, 1, 0, 1, { 255, 0, 0, 255 } }, { -1, -1, 0, 1, { 255, 0, 0, 255 } },
                                { 1, 1, 0, 1, { 255, 0, 0, 255 } } };
    WGPUTexture rt = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(rt, NULL);
    WGPUShaderModule vs = vk_module(d, "draw_color.vert"), fs = vk_module(d, "draw_color.frag");
    EG_ASSERT(vs && fs);
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
    EG_EXPECT_NO_ERROR();
    uint8_t img[8 * 8 * 4];
    EG_ASSERT(read_8x8(d, rt, img));
    static const uint8_t red[4] = { 255, 0, 0, 255 }, blue[4] = { 0, 0, 255, 255 };
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            if (x + y == 7) continue;
            const uint8_t *want = x + y < 7 ? red : blue;
            if (memcmp(img + (y * 8 + x) * 4, want, 4) != 0) {
                eg_test_printf("    pixel (%u, %u) = %u %u %u %u\n", x, y, img[(y * 8 + x) * 4],
                               img[(y * 8 + x) * 4 + 1], img[(y * 8 + x) * 4 + 2], img[(y * 8 + x) * 4 + 3]);
                EG_EXPECT(false);
            }
        }
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
    wgpuShaderModuleRelease(vs);
    wgpuShaderModuleRelease(fs);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(rt);
    eg_test_device_release();
}

/* reduce.comp over 64 ones in 2 workgroups of 32: each workgroup sums 32 ones (tree reduction in
 * workgroup memory), writes sums[wg] = 32 and adds 1 to total: total 2, sums {32, 32}. */
EG_TEST(vulkan, compute_reduce)
{
    VK_SETUP();
    WGPUShaderModule cs = vk_module(d, "reduce.comp");
    EG_ASSERT(cs);
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
    EG_EXPECT_NO_ERROR();
    uint32_t out[4];
    EG_ASSERT(t_readback(d, db, 0, sizeof out, out));
    float s0, s1;
    memcpy(&s0, &out[1], 4);
    memcpy(&s1, &out[2], 4);
    EG_EXPECT_EQ_U(out[0], 2);
    EG_EXPECT(s0 == 32.0f && s1 == 32.0f);
    wgpuBindGroupRelease(bg);
    wgpuTextureViewRelease(iv);
    wgpuTextureRelease(img);
    wgpuBufferRelease(db);
    wgpuBufferRelease(sb);
    wgpuComputePipelineRelease(cp);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuShaderModuleRelease(cs);
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
