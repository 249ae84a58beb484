/* wgpuQueueWriteTexture: data lands where the layout says, with the webgpu.h defaults. */
#include "tests/harness/test_device.h"
#include "tests/unit/cmd_test_util.h"

#include <string.h>

/* A 4x4 RGBA8 texture written from rows padded to 20 bytes, then read back through a buffer
 * with 256-byte rows. Each texel holds its own coordinates, so any misplaced byte shows. The
 * destination keeps WGPU_TEXEL_COPY_TEXTURE_INFO_INIT's aspect (Undefined), which webgpu.h
 * defines as All. */
EG_TEST(queue_write_texture, default_aspect_padded_rows_round_trip)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1,
                              WGPUTextureUsage_CopyDst | WGPUTextureUsage_CopySrc);
    uint8_t src[4 * 20];
    memset(src, 0xEE, sizeof src);                       /* padding bytes must not be copied */
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            uint8_t *p = &src[y * 20 + x * 4];
            p[0] = (uint8_t)x; p[1] = (uint8_t)y; p[2] = 0x40; p[3] = 0xFF;
        }
    WGPUTexelCopyTextureInfo dst = t_tex_info(t, 0, 0, 0, 0);
    EG_EXPECT_EQ_U(dst.aspect, WGPUTextureAspect_Undefined);
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = 20;
    layout.rowsPerImage = 4;
    WGPUExtent3D size = t_extent(4, 4, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &dst, src, sizeof src, &layout, &size);
    EG_EXPECT_NO_ERROR();

    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * 4);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyTextureInfo from = t_tex_info(t, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo to = t_buf_info(b, 0, 256, 4);
    wgpuCommandEncoderCopyTextureToBuffer(e, &from, &to, &size);
    t_submit(e);
    EG_EXPECT_NO_ERROR();
    static uint8_t out[256 * 4];
    EG_ASSERT(t_readback(d, b, 0, sizeof out, out));
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            const uint8_t *p = &out[y * 256 + x * 4];
            EG_EXPECT(p[0] == x && p[1] == y && p[2] == 0x40 && p[3] == 0xFF);
        }
    wgpuBufferRelease(b);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Spec "validating linear texture data": a copy of more than one block row needs bytesPerRow,
 * and bytesPerRow must hold one row (4 texels x 4 bytes = 16). */
EG_TEST(queue_write_texture, layout_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1, WGPUTextureUsage_CopyDst);
    uint8_t src[64] = { 0 };
    WGPUTexelCopyTextureInfo dst = t_tex_info(t, 0, 0, 0, 0);
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    WGPUExtent3D size = t_extent(4, 4, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &dst, src, sizeof src, &layout, &size);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_TEXEL_LAYOUT, "bytesPerRow is required");
    layout.bytesPerRow = 12;
    wgpuQueueWriteTexture(eg_test_queue(), &dst, src, sizeof src, &layout, &size);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_TEXEL_LAYOUT, "smaller than one row");
    layout.bytesPerRow = 16;
    wgpuQueueWriteTexture(eg_test_queue(), &dst, src, 63, &layout, &size);   /* needs 64 */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_TEXEL_LAYOUT, "exceed dataSize");
    dst.origin.x = 1;                                   /* 1 + 4 > width 4 */
    wgpuQueueWriteTexture(eg_test_queue(), &dst, src, sizeof src, &layout, &size);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_TEXEL_COPY, "exceeds mip 0");
    dst.origin.x = 0;
    dst.mipLevel = 1;                                   /* mipLevelCount is 1 */
    wgpuQueueWriteTexture(eg_test_queue(), &dst, src, sizeof src, &layout, &size);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_TEXEL_COPY, "mipLevel 1");
    wgpuTextureRelease(t);
    eg_test_device_release();
}
