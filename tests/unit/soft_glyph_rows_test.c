/* Tests of the glyph pair kernel's rect rows (soft_span_glyph.inc RECT ROWS, FZ_(glyph_rect)):
 * a row's state reused by the repeated rows below it, flat rows stored by their lane mask, and
 * ROW MEMO (a blended row's stored lanes reused where its coverage, run and loaded pixels equal
 * the last blended row's) against the per-lane pair kernel and the general path. */
#include "tests/unit/cmd_test_util.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "tests/unit/soft_span_util.h"

/* Glyph quads over bands of the target (horizontal full-width quads of one colour at coverage
 * 255: texel (1, 0) of span_tex_pattern's 8x8 R8 texture) 1 to 10 rows tall, so the pixels a
 * glyph row blends over are equal down some rows and change at others: on a glyph's repeated
 * rows (each texel row over 2 to 4 pixel rows, at integer and sub-pixel y) and between rows of
 * equal coverage (span_tex_pattern's rows repeat every 3 texel rows). The glyphs: 1, 2 or 6
 * texel columns over 3-7 px (the unproven column, its owner changing down the rows; run lengths
 * that differ on equal texel rows), coverage 0, 255 and between (clear, flat and blended rows),
 * across the 8 px tiles of the 2-thread runs (partial groups outside the worker's columns) and
 * past the target's right and bottom edges; either diagonal and winding. variant bit 0: the
 * glyphs at alpha 128 (every covered row blended), else 255; bit 1: clip w 2. */
static uint32_t band_glyphs(svtx_t *v, uint32_t variant, bool strips)
{
    static const float band[10][2] = { { 0, 1 }, { 1, 2 }, { 3, 3 }, { 6, 1 }, { 7, 4 },
                                       { 11, 2 }, { 13, 5 }, { 18, 1 }, { 19, 3 }, { 22, 10 } };
    static const uint8_t bc[4][4] = { { 20, 200, 90, 255 }, { 240, 30, 60, 255 }, { 20, 201, 90, 255 },
                                      { 128, 128, 128, 255 } };
    static const float q[12][7] = {   /* x, y, width, height, first texel column, columns, texel rows */
        { 0.0f, 0.0f, 7, 16, 0, 6, 8 },    { 8.3f, 1.6f, 7, 16, 0, 2, 8 },   { 16.5f, 2.25f, 5, 16, 1, 1, 8 },
        { 24.0f, 3.0f, 7, 16, 2, 2, 8 },   { 4.0f, 16.0f, 7, 16, 0, 6, 8 },  { 0.25f, 17.25f, 3, 16, 0, 1, 4 },
        { 12.5f, 18.0f, 7, 13, 0, 6, 8 },  { 20.0f, 17.0f, 7, 24, 3, 2, 8 }, { 27.0f, 10.6f, 4, 16, 0, 2, 4 },
        { 13.0f, 6.0f, 3, 12, 0, 2, 3 },   { 29.0f, 0.25f, 3, 16, 0, 1, 8 }, { 9.75f, 25.25f, 7, 12, 0, 6, 4 },
    };
    const uint8_t c[4] = { 250, 90, 30, (uint8_t)(variant & 1u ? 128u : 255u) };
    const float w = variant & 2u ? 2.0f : 1.0f;
    uint32_t n = 0;
    for (uint32_t i = 0; i < 10u; i++)
        n += rect_quad(v + n, 0.0f, band[i][0], (float)S, band[i][1], 1.0f, 0.19f, 0.19f, 0.06f, 0.06f, bc[i & 3u], i,
                       strips);
    for (uint32_t i = 0; i < 12u; i++) {
        const float *p = q[i];
        const float u0 = p[4] / 8.0f, u1 = (p[4] + p[5]) / 8.0f, v1 = p[6] / 8.0f;
        n += rect_quad(v + n, p[0], p[1], p[2], p[3], w, u0, u1, 0.0f, v1, c, i, strips);
    }
    return n;
}

/* The rect rows over bands (glyphkern): band_glyphs swept by rect_rows_sweep (strips and lists,
 * alpha 255 and 128, clip w 1 and 2, every target format, both blends, 4 lanes and the widest
 * width, with and without the scissor, 1 thread and 2 threads with 8 px squares): the bytes of
 * the per-lane pair kernel and of the general path; and on one thread, where the board has
 * the pair kernel, the rect rows ran (eg_soft_span_pair_rect_quads). */
EG_TEST(soft_glyph_rows, rect_rows_over_bands_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    uint32_t bad = 0, wrong_path = 0;
    rect_rows_sweep(d, band_glyphs, false, &bad, &wrong_path);
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* ROW STATES (soft_span_glyph.inc, glyphrow): rect glyph quads' head-row states kept with their
 * memo entry, taken again by later quads of the shape while the texel bytes under the entry's
 * windows are unchanged. rs_render draws the same glyph quads in 4 passes over one 8x8 R8
 * atlas, each pass after a different write to the atlas: queue writeTexture (coverage 0 and 255
 * in clear and flat texel rows, one texel 128), writeTexture again with texels changed inside
 * the glyphs' windows (rows' flat lanes, a flat row cleared, one blended), a texture-to-texture
 * copy (the pattern inverted), a render pass that clears it (all 255); the target is copied
 * out after each pass. The quads: three shapes (6 texel columns by 8 rows and 3 by 4 over 7 x 16
 * px, 2 by 8 over 3 x 16 px: a 4-lane group),
 * each at several places 4 to 16 px apart with the same diagonal and winding (the same 4x4
 * phase: memo hits within a pass), overlapping, across the 8 px tiles of the 2-thread runs
 * (groups outside the worker's columns) and past the target's right edge; variant 0: alpha 255,
 * 1: alpha 255 and 200 alternating (the states' va3 key), 2: alpha 128 (the blend memo's copy,
 * no states). */
static const WGPUTextureFormat rs_tex_fmt = WGPUTextureFormat_R8Unorm;

static uint32_t rs_quads(svtx_t *v, uint32_t variant)
{
    static const float q[13][4] = {   /* x, y, shape, diagonal and winding */
        { 1, 0, 0, 0 },      { 9, 0, 0, 0 },      { 5, 0, 0, 0 },      { 17, 16, 0, 0 },     { 26, 0, 0, 1 },
        { 2, 16, 0, 1 },     { 5, 16.25f, 1, 1 }, { 13, 16.25f, 1, 1 }, { 21, 8.25f, 1, 3 }, { 29, 12.25f, 1, 3 },
        { 1, 17, 2, 2 },     { 9, 17, 2, 2 },     { 30, 5, 2, 2 } };
    /* shapes: 6 x 8 texels over 7 px, 3 x 4 over 7 px, 2 x 8 over 3 px (a 4-lane group) */
    static const float sh[3][4] = { { 7, 0.0f, 0.75f, 1.0f }, { 7, 0.25f, 0.625f, 0.5f }, { 3, 0.5f, 0.75f, 1.0f } };
    uint32_t n = 0;
    for (uint32_t i = 0; i < 13u; i++) {
        const uint8_t a = (uint8_t)(variant == 2u ? 128u : variant == 1u && (i & 1u) ? 200u : 255u);
        const uint8_t c[4] = { 240, 40, 120, a };
        const float *s = sh[(uint32_t)q[i][2]];
        n += rect_quad(v + n, q[i][0], q[i][1], s[0], 16, 1, s[1], s[2], 0.0f, s[3], c, (uint32_t)q[i][3], false);
    }
    return n;
}

static void rs_write(WGPUTexture t, const uint8_t *px)
{
    WGPUTexelCopyTextureInfo ti = t_tex_info(t, 0, 0, 0, 0);
    WGPUTexelCopyBufferLayout bl = { 0, 8u, 8u };
    WGPUExtent3D sz = t_extent(8, 8, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &ti, px, 64u, &bl, &sz);
}

/* The 4 passes (rs_quads' variant, target fmt, blend) into img: 4 images of S x S pixels */
static bool rs_render(WGPUDevice d, WGPUTextureFormat fmt, const WGPUBlendState *blend, uint32_t variant, uint8_t *img,
                      uint32_t bpp)
{
    WGPUVertexAttribute va[3] = { WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT };
    va[0].format = WGPUVertexFormat_Float32x4;
    va[1].format = WGPUVertexFormat_Float32x2; va[1].offset = 16; va[1].shaderLocation = 1;
    va[2].format = WGPUVertexFormat_Unorm8x4; va[2].offset = 24; va[2].shaderLocation = 2;
    WGPUVertexBufferLayout vl = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    vl.arrayStride = sizeof(svtx_t);
    vl.attributeCount = 3;
    vl.attributes = va;
    WGPURenderPipeline p = t_render_pipeline_ex(d, span_vs, "span_glyph.frag", &vl, 1, fmt, blend, NULL, NULL);
    if (!p) return false;
    WGPUTexture rt = t_texture(d, fmt, S, S, 1, 1, 1, WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTexture at = t_texture(d, rs_tex_fmt, 8, 8, 1, 1, 1,
                               WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst | WGPUTextureUsage_RenderAttachment);
    WGPUTexture src = t_texture(d, rs_tex_fmt, 8, 8, 1, 1, 1, WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst);
    WGPUTextureView rv = wgpuTextureCreateView(rt, NULL), av = wgpuTextureCreateView(at, NULL);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    WGPUSampler smp = wgpuDeviceCreateSampler(d, &sd);   /* nearest */
    WGPUBindGroupEntry e[2] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
    e[0].binding = 0; e[0].textureView = av;
    e[1].binding = 1; e[1].sampler = smp;
    WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(p, 0);
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl;
    bd.entryCount = 2;
    bd.entries = e;
    WGPUBindGroup g = wgpuDeviceCreateBindGroup(d, &bd);
    static svtx_t v[SPAN_MAX_VERTS];
    const uint32_t n = rs_quads(v, variant);
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, n * sizeof v[0]);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, n * sizeof v[0]);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256u * S);
    uint8_t px[64];
    for (uint32_t i = 0; i < 64u; i++)   /* glyph-like: clear, flat and one blended texel row */
        px[i] = (uint8_t)(i < 8u || i >= 56u ? 0u : ((i & 7u) + 2u * (i >> 3)) % 5u < 2u ? 255u : 0u);
    px[6u * 8u + 3u] = 128u;
    bool ok = true;
    for (uint32_t pass = 0; pass < 4u && ok; pass++) {
        WGPUCommandEncoder enc = t_encoder(d);
        if (pass == 0u) rs_write(at, px);
        if (pass == 1u) {   /* texels inside the glyphs' windows: two flipped, a row cleared, a flat one blended */
            px[1u * 8u + 2u] ^= 255u;
            px[4u * 8u + 5u] ^= 255u;
            for (uint32_t x = 0; x < 8u; x++) px[3u * 8u + x] = 0u;
            px[2u * 8u + 4u] = 200u;
            rs_write(at, px);
        }
        if (pass == 2u) {   /* a copy */
            for (uint32_t i = 0; i < 64u; i++) px[i] = (uint8_t)(255u - px[i]);
            rs_write(src, px);
            WGPUTexelCopyTextureInfo s0 = t_tex_info(src, 0, 0, 0, 0), d0 = t_tex_info(at, 0, 0, 0, 0);
            WGPUExtent3D sz = t_extent(8, 8, 1);
            wgpuCommandEncoderCopyTextureToTexture(enc, &s0, &d0, &sz);
        }
        if (pass == 3u) {   /* a render to it */
            WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
            c.view = av;
            c.loadOp = WGPULoadOp_Clear;
            c.storeOp = WGPUStoreOp_Store;
            c.clearValue = (WGPUColor){ 1.0, 0.0, 0.0, 1.0 };
            WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
            pd.colorAttachmentCount = 1;
            pd.colorAttachments = &c;
            WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(enc, &pd);
            wgpuRenderPassEncoderEnd(rp);
            wgpuRenderPassEncoderRelease(rp);
        }
        WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
        c.view = rv;
        c.loadOp = WGPULoadOp_Clear;
        c.storeOp = WGPUStoreOp_Store;
        c.clearValue = (WGPUColor){ 0.2, 0.5, 0.7, 0.6 };
        WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
        pd.colorAttachmentCount = 1;
        pd.colorAttachments = &c;
        WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(enc, &pd);
        wgpuRenderPassEncoderSetPipeline(rp, p);
        wgpuRenderPassEncoderSetBindGroup(rp, 0, g, 0, NULL);
        wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, n * sizeof v[0]);
        wgpuRenderPassEncoderDraw(rp, n, 1, 0, 0);
        wgpuRenderPassEncoderEnd(rp);
        wgpuRenderPassEncoderRelease(rp);
        WGPUTexelCopyTextureInfo ti = t_tex_info(rt, 0, 0, 0, 0);
        WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, S);
        WGPUExtent3D sz = t_extent(S, S, 1);
        wgpuCommandEncoderCopyTextureToBuffer(enc, &ti, &bi, &sz);
        t_submit(enc);
        for (uint32_t y = 0; y < S && ok; y++)
            ok = t_readback(d, rb, (uint64_t)y * 256u, S * bpp, img + ((size_t)pass * S + y) * S * bpp);
    }
    wgpuBufferRelease(rb);
    wgpuBufferRelease(vb);
    wgpuBindGroupRelease(g);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuSamplerRelease(smp);
    wgpuTextureViewRelease(av);
    wgpuTextureViewRelease(rv);
    wgpuTextureRelease(src);
    wgpuTextureRelease(at);
    wgpuTextureRelease(rt);
    wgpuRenderPipelineRelease(p);
    return ok;
}

/* rs_render with the memo (and so the row states) on (threads workers, tile_px squares), with
 * it off, and with the fast paths off (one worker): true when all three give the same bytes */
static bool rs_same(WGPUTextureFormat fmt, const WGPUBlendState *blend, uint32_t variant, WGPUDevice d,
                    uint32_t threads, uint32_t tile_px)
{
    static uint8_t on[4 * S * S * 4], off[4 * S * S * 4], slow[4 * S * S * 4];
    const uint32_t bpp = fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    eg_soft_set_threads(threads);
    eg_soft_bin_set_tile_px(tile_px);
    bool ok = rs_render(d, fmt, blend, variant, on, bpp);
    eg_soft_sep_memo_on = false;
    ok = ok && rs_render(d, fmt, blend, variant, off, bpp);
    eg_soft_sep_memo_on = true;
    eg_soft_set_threads(1);
    eg_soft_bin_set_tile_px(0);
    eg_soft_raster_fast_paths = false;
    ok = ok && rs_render(d, fmt, blend, variant, slow, bpp);
    eg_soft_raster_fast_paths = true;
    eg_soft_set_threads(0);
    const size_t sz = (size_t)4u * S * S * bpp;
    return ok && memcmp(on, slow, sz) == 0 && memcmp(off, slow, sz) == 0;
}

/* rs_quads' 4 passes: variants 0-2, every target format, both blends, 4 lanes and the widest
 * width, 1 thread and 2 threads with 8 px squares: the bytes without the memo and of the general
 * path; and on one thread at alpha 255 the row states were taken where the build has the memo
 * and the board the pair kernel
 * (eg_soft_glyph_rs_hits, counted with eg_soft_sep_memo_verify). */
EG_TEST(soft_glyph_rows, row_states_follow_atlas_writes)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[2] = { &span_premul, &span_straight };
    static const uint32_t widths[2] = { 4, 0 };
    uint32_t bad = 0, wrong_path = 0;
    eg_soft_sep_memo_verify = true;
    for (uint32_t var = 0; var < 3u; var++)
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t b = 0; b < 2u; b++)
                for (uint32_t w = 0; w < 2u; w++) {
                    eg_soft_span_fused_width = widths[w];
                    const uint32_t before = eg_soft_glyph_rs_hits;
                    if (!rs_same(span_fmts[f], blends[b], var, d, 1u, 0u) && bad++ < 4u)
                        eg_test_printf("    1 thread: case %u/%u/%u/%u differs\n", var, f, b, w);
                    if (var == 0u && (eg_soft_glyph_rs_hits != before) !=
                                         (EMGPU_SOFT_SEP_MEMO > 0 && eg_soft_span_pair_widths() != 0u))
                        wrong_path++;
                    if (!rs_same(span_fmts[f], blends[b], var, d, 2u, 8u) && bad++ < 4u)
                        eg_test_printf("    2 threads: case %u/%u/%u/%u differs\n", var, f, b, w);
                }
    eg_soft_sep_memo_verify = false;
    eg_soft_span_fused_width = 0;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_EQ_U(eg_soft_sep_memo_bad, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif
