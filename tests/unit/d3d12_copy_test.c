/* D3D12 copy tests: stencil-plane copies (rows, layers, offsets, clears, texture to texture) and copy order. */
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/unit/cmd_test_util.h"

/* Only boards with the D3D12 backend build these (their static buffers would cost RAM elsewhere). */
#if EMGPU_HAL_D3D12

/* A device only when this run targets D3D12 (EMGPU_TEST_BACKEND=d3d12). These tests are plain
 * WebGPU; they live here because they pin down the D3D12 backend's stencil copies, which under
 * wine go through the probed vkd3d 1.6 workaround (hal/d3d12/d3d_barrier.c). */
static WGPUDevice copy_device(void)
{
    WGPUDevice d = eg_test_device("soft");
    if (d && strcmp(eg_test_backend(), "d3d12") == 0) return d;
    if (d) eg_test_device_release();
    return NULL;
}
#define COPY_SETUP() WGPUDevice d = copy_device(); if (!d) EG_NOT_APPLICABLE("runs in the D3D12 pass (EMGPU_TEST_BACKEND=d3d12)")

#define W 8u
#define H 8u
#define PITCH 256u   /* WebGPU bytesPerRow: a multiple of 256 */

/* Distinct stencil value of texel (x, y) of layer l: no two texels of two layers are equal, and
 * none is 0 (the value of unwritten memory). */
static uint8_t sval(uint32_t l, uint32_t x, uint32_t y) { return (uint8_t)(1u + l * 64u + y * W + x); }

static WGPUTexture ds_texture(WGPUDevice d, WGPUTextureFormat f, uint32_t layers)
{
    return t_texture(d, f, W, H, layers, 1, 1,
                     WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst);
}

/* Writes layer l of tex's stencil with sval through writeTexture (tight 8-byte rows). */
static void write_stencil(WGPUTexture tex, uint32_t l)
{
    static uint8_t px[W * H];
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) px[y * W + x] = sval(l, x, y);
    WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, l);
    ti.aspect = WGPUTextureAspect_StencilOnly;
    WGPUTexelCopyBufferLayout bl = { 0, W, H };
    WGPUExtent3D sz = t_extent(W, H, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &ti, px, sizeof px, &bl, &sz);
}

/* Copies `layers` stencil layers of tex to a new buffer at offset_B (bytesPerRow PITCH, rowsPerImage
 * H) and reads the whole buffer back into out (size_B). */
static bool read_stencil(WGPUDevice d, WGPUTexture tex, uint32_t layers, uint32_t offset_B, uint8_t *out, uint32_t size_B)
{
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, size_B);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
    ti.aspect = WGPUTextureAspect_StencilOnly;
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, offset_B, PITCH, H);
    WGPUExtent3D sz = t_extent(W, H, layers);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    bool ok = t_readback(d, b, 0, size_B, out);
    wgpuBufferRelease(b);
    return ok;
}

/* WebGPU's layout (copyTextureToBuffer): texel (x, y) of image l at offset + l * PITCH * H + y * PITCH + x;
 * every other byte of a new buffer stays 0 (buffers are created zeroed). Texels hold sval with
 * `pattern`, else `fill`. */
static bool layout_is(const uint8_t *out, uint32_t size_B, uint32_t offset_B, uint32_t layers, bool pattern, uint8_t fill)
{
    for (uint32_t i = 0; i < size_B; i++) {
        uint32_t rel = i - offset_B, l = rel / (PITCH * H), y = rel % (PITCH * H) / PITCH, x = rel % PITCH;
        bool texel = i >= offset_B && l < layers && x < W;
        uint8_t want = !texel ? 0 : pattern ? sval(l, x, y) : fill;
        if (out[i] != want) return false;
    }
    return true;
}

static uint8_t g_out[2 * PITCH * H + 512];

/* Stencil written with writeTexture reads back row by row at bytesPerRow 256, for both formats
 * whose stencil is a second D3D12 plane (Stencil8 is D24_UNORM_S8_UINT there). vkd3d 1.6 missed
 * the texture (plane 1 read as array layer 1) and spaced rows RowPitch/4 apart. */
EG_TEST(d3d12_copy, stencil_write_then_read_rows)
{
    COPY_SETUP();
    const WGPUTextureFormat fmts[2] = { WGPUTextureFormat_Depth24PlusStencil8, WGPUTextureFormat_Stencil8 };
    for (uint32_t f = 0; f < 2; f++) {
        WGPUTexture t = ds_texture(d, fmts[f], 1);
        write_stencil(t, 0);
        memset(g_out, 0xEE, sizeof g_out);
        EG_EXPECT(read_stencil(d, t, 1, 0, g_out, PITCH * H));
        EG_EXPECT(layout_is(g_out, PITCH * H, 0, 1, true, 0));
        wgpuTextureRelease(t);
    }
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* A buffer offset that is a multiple of 4 (WebGPU's rule for depth/stencil copies) but not of
 * D3D12's 512-byte footprint placement: the copy is shifted inside a footprint at 0. */
EG_TEST(d3d12_copy, stencil_read_at_unaligned_offset)
{
    COPY_SETUP();
    WGPUTexture t = ds_texture(d, WGPUTextureFormat_Depth24PlusStencil8, 1);
    write_stencil(t, 0);
    EG_EXPECT(read_stencil(d, t, 1, 260, g_out, 260 + PITCH * H));
    EG_EXPECT(layout_is(g_out, 260 + PITCH * H, 260, 1, true, 0));
    wgpuTextureRelease(t);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Two array layers written separately and read in one copy: each lands at its own image
 * (rowsPerImage 8), so the layer (not the plane) selects the image. */
EG_TEST(d3d12_copy, stencil_layers)
{
    COPY_SETUP();
    WGPUTexture t = ds_texture(d, WGPUTextureFormat_Stencil8, 2);
    write_stencil(t, 0);
    write_stencil(t, 1);
    EG_EXPECT(read_stencil(d, t, 2, 0, g_out, 2 * PITCH * H));
    EG_EXPECT(layout_is(g_out, 2 * PITCH * H, 0, 2, true, 0));
    wgpuTextureRelease(t);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* A render pass that clears the stencil (loadOp Clear, 0x5A, storeOp Store) and nothing else:
 * every stencil texel reads 0x5A. Under vkd3d 1.6 this read zeros: the clear wrote layer 0, the
 * plane-1 copy read a layer 1 that does not exist (the "clear reads zero" of session 4). */
EG_TEST(d3d12_copy, stencil_pass_clear_reads_back)
{
    COPY_SETUP();
    const WGPUTextureFormat fmts[2] = { WGPUTextureFormat_Depth24PlusStencil8, WGPUTextureFormat_Stencil8 };
    for (uint32_t f = 0; f < 2; f++) {
        WGPUTexture t = ds_texture(d, fmts[f], 1);
        WGPUTextureView v = wgpuTextureCreateView(t, NULL);
        WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
        da.view = v;
        if (f == 0) {
            da.depthLoadOp = WGPULoadOp_Clear;
            da.depthStoreOp = WGPUStoreOp_Store;
            da.depthClearValue = 1.0f;
        }
        da.stencilLoadOp = WGPULoadOp_Clear;
        da.stencilStoreOp = WGPUStoreOp_Store;
        da.stencilClearValue = 0x5A;
        WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
        rpd.depthStencilAttachment = &da;
        WGPUCommandEncoder e = t_encoder(d);
        WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
        wgpuRenderPassEncoderEnd(rp);
        wgpuRenderPassEncoderRelease(rp);
        t_submit(e);
        EG_EXPECT(read_stencil(d, t, 1, 0, g_out, PITCH * H));
        EG_EXPECT(layout_is(g_out, PITCH * H, 0, 1, false, 0x5A));
        wgpuTextureViewRelease(v);
        wgpuTextureRelease(t);
    }
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* copyTextureToTexture of a whole Depth24PlusStencil8 texture (WebGPU copies depth-stencil
 * textures with all aspects) carries the stencil: the copy's stencil reads the source pattern. */
EG_TEST(d3d12_copy, stencil_texture_to_texture)
{
    COPY_SETUP();
    WGPUTexture a = ds_texture(d, WGPUTextureFormat_Depth24PlusStencil8, 1);
    WGPUTexture b = ds_texture(d, WGPUTextureFormat_Depth24PlusStencil8, 1);
    write_stencil(a, 0);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyTextureInfo src = t_tex_info(a, 0, 0, 0, 0), dst = t_tex_info(b, 0, 0, 0, 0);
    WGPUExtent3D sz = t_extent(W, H, 1);
    wgpuCommandEncoderCopyTextureToTexture(e, &src, &dst, &sz);
    t_submit(e);
    EG_EXPECT(read_stencil(d, b, 1, 0, g_out, PITCH * H));
    EG_EXPECT(layout_is(g_out, PITCH * H, 0, 1, true, 0));
    wgpuTextureRelease(a);
    wgpuTextureRelease(b);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Copy order in one command list. WebGPU: commands of a command buffer execute in order, so
 * for a 64-byte buffer C: clearBuffer(C) after A -> C[0, 32) then B -> C[16, 48) after that,
 * then A -> C[40, 44): C = A[0..16) B[0..24) A[0..4) B[28..32) then 16 zeros. D3D12 executes
 * Copy* commands of a list serially (legacy states cannot express COPY_DEST -> COPY_DEST;
 * DirectX-Specs "D3D12AsyncCommands"), so the backend records no barrier between them. On
 * lavapipe the copies run one by one anyway: this test cannot fail there for a missing barrier;
 * it pins the order and the ranges. */
EG_TEST(d3d12_copy, overlapping_copies_keep_order)
{
    COPY_SETUP();
    uint8_t a[64], bsrc[64], want[64];
    for (uint32_t i = 0; i < 64; i++) { a[i] = (uint8_t)(0x10 + i); bsrc[i] = (uint8_t)(0x80 + i); }
    const WGPUBufferUsage u = WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc;
    WGPUBuffer ba = t_buffer(d, u, 64), bb = t_buffer(d, u, 64), bc = t_buffer(d, u, 64);
    wgpuQueueWriteBuffer(eg_test_queue(), ba, 0, a, sizeof a);
    wgpuQueueWriteBuffer(eg_test_queue(), bb, 0, bsrc, sizeof bsrc);
    wgpuQueueWriteBuffer(eg_test_queue(), bc, 0, a, sizeof a);
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderCopyBufferToBuffer(e, ba, 0, bc, 0, 32);
    wgpuCommandEncoderClearBuffer(e, bc, 0, 64);
    wgpuCommandEncoderCopyBufferToBuffer(e, ba, 0, bc, 0, 32);
    wgpuCommandEncoderCopyBufferToBuffer(e, bb, 0, bc, 16, 32);
    wgpuCommandEncoderCopyBufferToBuffer(e, ba, 0, bc, 40, 4);
    t_submit(e);
    memset(want, 0, sizeof want);
    memcpy(want, a, 16);
    memcpy(want + 16, bsrc, 24);
    memcpy(want + 40, a, 4);
    memcpy(want + 44, bsrc + 28, 4);
    uint8_t out[64];
    EG_EXPECT(t_readback(d, bc, 0, sizeof out, out));
    EG_EXPECT(memcmp(out, want, sizeof want) == 0);
    wgpuBufferRelease(ba);
    wgpuBufferRelease(bb);
    wgpuBufferRelease(bc);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif /* EMGPU_HAL_D3D12 */
