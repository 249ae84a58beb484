/* Tests for the format table and image-layout math (kernel/format). */
#include "kernel/format/format.h"
#include "tests/harness/harness.h"

EG_TEST(format, table_facts_from_spec)
{
    /* WebGPU spec, "Texture Format Capabilities": rgba8unorm is 4 bytes, renderable, blendable,
     * multisample, storage; srgb twin rgba8unorm-srgb. */
    const eg_format_info_t *f = eg_format_info(WGPUTextureFormat_RGBA8Unorm);
    EG_ASSERT(f != NULL);
    EG_EXPECT_EQ_U(f->block_B, 4);
    EG_EXPECT((f->caps & (EG_FMT_RENDERABLE | EG_FMT_BLENDABLE | EG_FMT_MULTISAMPLE | EG_FMT_STORAGE)) ==
              (EG_FMT_RENDERABLE | EG_FMT_BLENDABLE | EG_FMT_MULTISAMPLE | EG_FMT_STORAGE));
    EG_EXPECT_EQ_U(f->srgb_pair, WGPUTextureFormat_RGBA8UnormSrgb);
    /* bc1: 8-byte 4x4 blocks, needs texture-compression-bc. */
    f = eg_format_info(WGPUTextureFormat_BC1RGBAUnorm);
    EG_ASSERT(f != NULL);
    EG_EXPECT_EQ_U(f->block_B, 8);
    EG_EXPECT_EQ_U(f->block_w_px, 4);
    EG_EXPECT_EQ_U(f->feature, WGPUFeatureName_TextureCompressionBC);
    /* astc-12x10: 16 bytes per 12x10 block. */
    f = eg_format_info(WGPUTextureFormat_ASTC12x10Unorm);
    EG_ASSERT(f != NULL);
    EG_EXPECT_EQ_U(f->block_w_px, 12);
    EG_EXPECT_EQ_U(f->block_h_px, 10);
    /* depth24plus-stencil8: both aspects; its depth aspect is not copyable. */
    f = eg_format_info(WGPUTextureFormat_Depth24PlusStencil8);
    EG_ASSERT(f != NULL);
    EG_EXPECT_EQ_U(f->aspects, EG_ASPECT_DEPTH | EG_ASPECT_STENCIL);
    EG_EXPECT_EQ_U(eg_format_copy_block_B(f, WGPUTextureAspect_DepthOnly), 0);
    EG_EXPECT_EQ_U(eg_format_copy_block_B(f, WGPUTextureAspect_StencilOnly), 1);
    EG_EXPECT_EQ_U(eg_format_aspect_format(WGPUTextureFormat_Depth24PlusStencil8, WGPUTextureAspect_StencilOnly),
                   WGPUTextureFormat_Stencil8);
    /* r32float: unfilterable unless float32-filterable. */
    f = eg_format_info(WGPUTextureFormat_R32Float);
    EG_ASSERT(f != NULL);
    EG_EXPECT((eg_format_caps(f, 0) & EG_FMT_FILTERABLE) == 0);
    EG_EXPECT(eg_format_info(WGPUTextureFormat_Undefined) == NULL);
}

EG_TEST(format, rgb565_extension)
{
    const eg_format_info_t *f = eg_format_info(WGPUTextureFormat_EmgpuRGB565Unorm);
    EG_ASSERT(f != NULL);
    EG_EXPECT_EQ_U(f->block_B, 2);       /* 5 + 6 + 5 bits */
    EG_EXPECT(f->caps & EG_FMT_RENDERABLE);
    EG_EXPECT_EQ_U(f->format, WGPUTextureFormat_EmgpuRGB565Unorm);
}

EG_TEST(format, mip_chain_and_extent)
{
    WGPUExtent3D s = { 64, 16, 1 };
    /* Spec "maximum mipLevel count": 1 + floor(log2(64)) = 7. */
    EG_EXPECT_EQ_U(eg_format_mip_chain_len(WGPUTextureDimension_2D, s), 7);
    WGPUExtent3D e = eg_format_mip_extent(WGPUTextureDimension_2D, s, 5);
    EG_EXPECT_EQ_U(e.width, 2);
    EG_EXPECT_EQ_U(e.height, 1);         /* 16 >> 5 = 0, clamped to 1 */
    WGPUExtent3D s3 = { 4, 4, 32 };
    EG_EXPECT_EQ_U(eg_format_mip_chain_len(WGPUTextureDimension_3D, s3), 6);   /* log2(32) + 1 */
    /* Physical extent: an 8x8 bc1 mip 2 is 2x2 logical, 4x4 physical (one block). */
    WGPUExtent3D s4 = { 8, 8, 1 };
    e = eg_format_mip_extent_physical(eg_format_info(WGPUTextureFormat_BC1RGBAUnorm), WGPUTextureDimension_2D, s4, 2);
    EG_EXPECT_EQ_U(e.width, 4);
}

EG_TEST(format, linear_texture_data_rules)
{
    /* Spec "validating linear texture data", 4-byte texels, 4x3x2 copy:
     * required = 256 * 3 * (2 - 1) + 256 * (3 - 1) + 16 = 1296. */
    WGPUTexelCopyBufferLayout l = { 0, 256, 3 };
    WGPUExtent3D c = { 4, 3, 2 };
    eg_linear_layout_t out;
    EG_EXPECT_EQ_U(eg_format_linear_layout(4, 1, 1, &l, 1296, c, &out), EG_LINEAR_OK);
    EG_EXPECT_EQ_U(out.required_B, 1296);
    EG_EXPECT_EQ_U(eg_format_linear_layout(4, 1, 1, &l, 1295, c, &out), EG_LINEAR_OUT_OF_BOUNDS);
    l.bytesPerRow = 8;                   /* < bytesInLastRow 16 */
    EG_EXPECT_EQ_U(eg_format_linear_layout(4, 1, 1, &l, 4096, c, &out), EG_LINEAR_BYTES_PER_ROW_TOO_SMALL);
    l.bytesPerRow = WGPU_COPY_STRIDE_UNDEFINED;
    EG_EXPECT_EQ_U(eg_format_linear_layout(4, 1, 1, &l, 4096, c, &out), EG_LINEAR_BYTES_PER_ROW_REQUIRED);
    l.bytesPerRow = 256; l.rowsPerImage = 2;   /* < heightInBlocks 3 */
    EG_EXPECT_EQ_U(eg_format_linear_layout(4, 1, 1, &l, 4096, c, &out), EG_LINEAR_ROWS_PER_IMAGE_TOO_SMALL);
}
