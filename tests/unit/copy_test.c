/* Tests for copy and clear commands: validation (one failing case per rule) and real soft copies. */
#include "tests/unit/cmd_test_util.h"

#define U_SRC (WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst)
#define T_RW (WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst)

EG_TEST(copy_b2b, write_copy_read_back)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBuffer a = t_buffer(d, U_SRC, 16), b = t_buffer(d, U_SRC, 16);
    const uint8_t data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    wgpuQueueWriteBuffer(eg_test_queue(), a, 0, data, 8);
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderCopyBufferToBuffer(e, a, 4, b, 8, 4);   /* bytes 5..8 to b[8..12) */
    t_submit(e);
    uint8_t out[16];
    EG_ASSERT(t_readback(d, b, 0, 16, out));
    const uint8_t want[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 5, 6, 7, 8, 0, 0, 0, 0 };
    EG_EXPECT(memcmp(out, want, 16) == 0);
    EG_EXPECT_NO_ERROR();
    wgpuBufferRelease(a);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

EG_TEST(copy_b2b, rules_fail_at_finish)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBuffer a = t_buffer(d, U_SRC, 16), b = t_buffer(d, U_SRC, 16);
    WGPUBuffer nosrc = t_buffer(d, WGPUBufferUsage_CopyDst, 16);
    struct { WGPUBuffer s; uint64_t so; WGPUBuffer dst; uint64_t dof, size; eg_error_code_t code; const char *frag; } c[] = {
        { nosrc, 0, b, 0, 4, EG_E_COPY_USAGE, "lacks WGPUBufferUsage_CopySrc" },  /* spec: source usage */
        { a, 0, b, 0, 6, EG_E_COPY_ALIGNMENT, "size 6" },                         /* size % 4 */
        { a, 2, b, 0, 4, EG_E_COPY_ALIGNMENT, "sourceOffset 2" },
        { a, 0, b, 6, 4, EG_E_COPY_ALIGNMENT, "destinationOffset 6" },
        { a, 8, b, 0, 12, EG_E_COPY_OUT_OF_BOUNDS, "exceeds the source size 16" }, /* 8 + 12 > 16 */
        { a, 0, b, 12, 8, EG_E_COPY_OUT_OF_BOUNDS, "exceeds the destination size 16" },
        { a, 0, a, 8, 4, EG_E_COPY_SAME_BUFFER, "same buffer" },
    };
    for (unsigned i = 0; i < EG_ARRAY_LEN(c); i++) {
        WGPUCommandEncoder e = t_encoder(d);
        wgpuCommandEncoderCopyBufferToBuffer(e, c[i].s, c[i].so, c[i].dst, c[i].dof, c[i].size);
        EG_EXPECT_NO_ERROR();                        /* deferred: nothing reported yet */
        t_finish(e);
        T_EXPECT_VALIDATION(c[i].code, c[i].frag);
    }
    wgpuBufferRelease(a);
    wgpuBufferRelease(b);
    wgpuBufferRelease(nosrc);
    eg_test_device_release();
}

EG_TEST(copy_b2b, destroyed_buffer_fails_at_finish)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBuffer a = t_buffer(d, U_SRC, 16), b = t_buffer(d, U_SRC, 16);
    wgpuBufferDestroy(a);
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderCopyBufferToBuffer(e, a, 0, b, 0, 4);
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, DESTROYED_OBJECT, "was destroyed");
    wgpuBufferRelease(a);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

EG_TEST(clear_buffer, clears_range_and_checks_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBuffer a = t_buffer(d, U_SRC, 16);
    const uint8_t ones[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    wgpuQueueWriteBuffer(eg_test_queue(), a, 0, ones, 16);
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderClearBuffer(e, a, 4, 8);
    t_submit(e);
    uint8_t out[16];
    EG_ASSERT(t_readback(d, a, 0, 16, out));
    const uint8_t want[16] = { 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1 };
    EG_EXPECT(memcmp(out, want, 16) == 0);
    EG_EXPECT_NO_ERROR();
    e = t_encoder(d);
    wgpuCommandEncoderClearBuffer(e, a, 2, 4);        /* spec clearBuffer: offset % 4 == 0 */
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, COPY_ALIGNMENT, "offset 2");
    e = t_encoder(d);
    wgpuCommandEncoderClearBuffer(e, a, 8, 12);       /* 8 + 12 > 16 */
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, COPY_OUT_OF_BOUNDS, "exceeds the buffer size 16");
    wgpuBufferRelease(a);
    eg_test_device_release();
}

/* buffer -> texture (mip 1, layer 1, padded rows) -> buffer, then compare. */
EG_TEST(copy_b2t, round_trip_mip_layer_padding)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 2, 2, 1, T_RW);
    /* mip 1 of 8x8 is 4x4; 4 texels * 4 B = 16 B per row, padded to bytesPerRow 256. */
    WGPUBuffer src = t_buffer(d, U_SRC, 256 * 4), dst = t_buffer(d, U_SRC, 256 * 4);
    uint8_t data[256 * 4];
    for (unsigned i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 7 + 3);
    wgpuQueueWriteBuffer(eg_test_queue(), src, 0, data, sizeof data);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyBufferInfo bi = t_buf_info(src, 0, 256, 4);
    WGPUTexelCopyTextureInfo ti = t_tex_info(t, 1, 0, 0, 1);
    WGPUExtent3D sz = t_extent(4, 4, 1);
    wgpuCommandEncoderCopyBufferToTexture(e, &bi, &ti, &sz);
    WGPUTexelCopyBufferInfo bo = t_buf_info(dst, 0, 256, 4);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bo, &sz);
    t_submit(e);
    EG_EXPECT_NO_ERROR();
    uint8_t out[256 * 4];
    EG_ASSERT(t_readback(d, dst, 0, sizeof out, out));
    for (unsigned row = 0; row < 4; row++)            /* the 16 data bytes of each row come back */
        EG_EXPECT(memcmp(out + row * 256, data + row * 256, 16) == 0);
    EG_EXPECT_EQ_U(out[16], 0);                       /* padding is not written */
    wgpuBufferRelease(src);
    wgpuBufferRelease(dst);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

EG_TEST(copy_t2t, copies_into_other_layer)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_R8Uint, 4, 4, 2, 1, 1, T_RW);
    WGPUBuffer src = t_buffer(d, U_SRC, 256 * 4), dst = t_buffer(d, U_SRC, 256 * 4);
    uint8_t data[256 * 4];
    for (unsigned i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i + 1);
    wgpuQueueWriteBuffer(eg_test_queue(), src, 0, data, sizeof data);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyBufferInfo bi = t_buf_info(src, 0, 256, 4);
    WGPUTexelCopyTextureInfo l0 = t_tex_info(t, 0, 0, 0, 0), l1 = t_tex_info(t, 0, 0, 0, 1);
    WGPUExtent3D sz = t_extent(4, 4, 1);
    wgpuCommandEncoderCopyBufferToTexture(e, &bi, &l0, &sz);
    wgpuCommandEncoderCopyTextureToTexture(e, &l0, &l1, &sz);
    WGPUTexelCopyBufferInfo bo = t_buf_info(dst, 0, 256, 4);
    wgpuCommandEncoderCopyTextureToBuffer(e, &l1, &bo, &sz);
    t_submit(e);
    EG_EXPECT_NO_ERROR();
    uint8_t out[256 * 4];
    EG_ASSERT(t_readback(d, dst, 0, sizeof out, out));
    for (unsigned row = 0; row < 4; row++)
        EG_EXPECT(memcmp(out + row * 256, data + row * 256, 4) == 0);
    /* same subresource as source and destination: spec copyTextureToTexture overlap rule */
    e = t_encoder(d);
    wgpuCommandEncoderCopyTextureToTexture(e, &l0, &l0, &sz);
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, COPY_SAME_SUBRESOURCE, "overlap in mip 0");
    wgpuBufferRelease(src);
    wgpuBufferRelease(dst);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

EG_TEST(copy_b2t, texel_copy_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1, T_RW);
    WGPUTexture ms = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 4,
                               WGPUTextureUsage_RenderAttachment);
    WGPUBuffer b = t_buffer(d, U_SRC, 256 * 8);
    WGPUExtent3D sz = t_extent(8, 8, 1);
    struct { uint32_t bpr; uint32_t mip; uint32_t x; WGPUTexture tex; uint32_t w; eg_error_code_t code; const char *frag; } c[] = {
        { 100, 0, 0, t, 8, EG_E_COPY_LAYOUT, "bytesPerRow 100 is not a multiple of 256" },
        { 256, 1, 0, t, 8, EG_E_COPY_MIP_LEVEL, "mipLevel 1" },         /* mipLevelCount 1 */
        { 256, 0, 4, t, 8, EG_E_COPY_OUT_OF_BOUNDS, "origin (4, 0, 0)" }, /* 4 + 8 > 8 */
        { 256, 0, 0, ms, 8, EG_E_COPY_USAGE, "lacks WGPUTextureUsage_CopyDst" },
        { 256, 0, 0, t, 16, EG_E_COPY_OUT_OF_BOUNDS, "copySize (16, 8, 1)" },
    };
    for (unsigned i = 0; i < EG_ARRAY_LEN(c); i++) {
        WGPUCommandEncoder e = t_encoder(d);
        WGPUTexelCopyBufferInfo bi = t_buf_info(b, 0, c[i].bpr, WGPU_COPY_STRIDE_UNDEFINED);
        WGPUTexelCopyTextureInfo ti = t_tex_info(c[i].tex, c[i].mip, c[i].x, 0, 0);
        sz.width = c[i].w;
        wgpuCommandEncoderCopyBufferToTexture(e, &bi, &ti, &sz);
        t_finish(e);
        T_EXPECT_VALIDATION(c[i].code, c[i].frag);
    }
    /* 8 rows of 256 B need 7 * 256 + 32 = 1824 B from offset 512: 2336 > 2048 (spec
     * "validating linear texture data", requiredBytesInCopy). */
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, 512, 256, WGPU_COPY_STRIDE_UNDEFINED);
    WGPUTexelCopyTextureInfo ti = t_tex_info(t, 0, 0, 0, 0);
    sz.width = 8;
    wgpuCommandEncoderCopyBufferToTexture(e, &bi, &ti, &sz);
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, COPY_OUT_OF_BOUNDS, "exceeds the buffer size 2048");
    wgpuBufferRelease(b);
    wgpuTextureRelease(t);
    wgpuTextureRelease(ms);
    eg_test_device_release();
}
