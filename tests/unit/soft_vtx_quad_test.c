/* Quad batches (helper "vtxquad"): with the fast paths on, a draw of instanced 4-vertex strips is
 * shaded by soft_draw.c shade_quads (the batch's fetch range test and constant components once,
 * vertex-step lanes fetched for the first group only, outputs cleared once, the uniform words
 * once, position rows only for quads with a clip code, window values by quad) and its quads whose
 * 4 codes are 0 go to the binner in runs (flush_quads, eg_soft_bin_pairs); with them off every
 * instance goes through draw_instance and every primitive through the general loop. Both must
 * give the same bytes: glyph quads (the span path's pairs) over an R8 atlas, instance counts
 * that end the last lane group at 4, 8, 12 and 16 lanes, runs longer than flush_quads' buffer,
 * several batches (64 or 256 vertices), quads past the guard band (clipped: a nonzero code in a
 * run), off the target and across the scissor, neighbours sharing an edge, RGBA8 and RGB565
 * targets, 1 and 2 threads (immediate and binned hand-off). */
#include "tests/unit/soft_span_util.h"
#include "tests/shaders/spv_embed.h"

#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"

#define VQ_PX 32u               /* target side (fits an MCU board's 64 KiB soft heap) */
#define VQ_MAX_I 133u
#define VQ_STRIDE 48u           /* quad_inst.vert's record: rect 0, color 16, uv0 20, scale 28 */
#define VQ_TEX 8u

static uint32_t vq_lcg;
static float vq_rand(float lo, float hi)
{
    vq_lcg = vq_lcg * 1664525u + 1013904223u;
    return lo + (hi - lo) * (float)(vq_lcg >> 8) * (1.0f / 16777216.0f);
}

/* Instance records: rects in clip space at quarter-pixel positions (1/64 of the clip range), every
 * 9th huge (past the guard band: clipped), every 13th off the target, every 4th the right
 * neighbour of the one before (a shared edge), every 7th 1500 wide and tall (inside the guard
 * band; with vq_draw's far corner its 4th vertex is past it: the quad's first triangle is inside
 * every plane, the second clipped). */
static void vq_instances(uint8_t *rec, uint32_t seed)
{
    vq_lcg = seed;
    float prev[4] = { 0, 0, 0, 0 };
    for (uint32_t i = 0; i < VQ_MAX_I; i++) {
        uint8_t *r = rec + VQ_STRIDE * i;
        float rect[4] = { (float)(int)vq_rand(-72.0f, 60.0f) / 64.0f, (float)(int)vq_rand(-72.0f, 60.0f) / 64.0f,
                          (float)(int)vq_rand(4.0f, 40.0f) / 64.0f, (float)(int)vq_rand(4.0f, 40.0f) / 64.0f };
        if (i % 4u == 3u) { rect[0] = prev[0] + prev[2]; rect[1] = prev[1]; rect[3] = prev[3]; }
        if (i % 9u == 5u) { rect[0] = -4000.0f; rect[2] = 8000.0f; }
        if (i % 13u == 6u) rect[1] = 3.0f;
        if (i % 7u == 2u) { rect[0] = 0.25f; rect[1] = -0.5f; rect[2] = rect[3] = 1500.0f; }
        eg_memcpy(prev, rect, sizeof prev);
        float uv0[2] = { vq_rand(-0.1f, 0.6f), vq_rand(-0.1f, 0.6f) }, scale = vq_rand(0.3f, 0.9f);
        uint8_t col[4];
        for (uint32_t c = 0; c < 4u; c++) col[c] = (uint8_t)(vq_lcg >> (8u * c));
        col[3] = i % 3u ? 255u : col[3];   /* opaque and blended glyphs */
        eg_memcpy(r, rect, 16);
        eg_memcpy(r + 16, col, 4);
        eg_memcpy(r + 20, uv0, 8);
        eg_memcpy(r + 28, &scale, 4);
    }
}

static WGPUBindGroup vq_atlas(WGPUDevice d, WGPURenderPipeline p, WGPUTexture *tex_out)
{
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_R8Unorm, VQ_TEX, VQ_TEX, 1, 1, 1,
                                WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    uint8_t px[VQ_TEX * VQ_TEX];
    span_tex_pattern(px, 1u, VQ_TEX * VQ_TEX);
    for (uint32_t i = 0; i < VQ_TEX * VQ_TEX; i += 5u) px[i] = i % 2u ? 0u : 255u;   /* clear and full texels too */
    WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferLayout bl = { 0, VQ_TEX, VQ_TEX };
    WGPUExtent3D sz = t_extent(VQ_TEX, VQ_TEX, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &ti, px, sizeof px, &bl, &sz);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    WGPUSampler smp = wgpuDeviceCreateSampler(d, &sd);
    WGPUBindGroupEntry e[2] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
    e[0].binding = 0; e[0].textureView = view;
    e[1].binding = 1; e[1].sampler = smp;
    WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(p, 0);
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl;
    bd.entryCount = 2;
    bd.entries = e;
    WGPUBindGroup g = wgpuDeviceCreateBindGroup(d, &bd);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuSamplerRelease(smp);
    wgpuTextureViewRelease(view);
    *tex_out = tex;
    return g;
}

/* ninst instances of a 4-vertex strip drawn by pipeline p (its bind group 0: vq_atlas) in two
 * draws (the first third, then the rest) over a cleared target of fmt, vertex buffer 0 vdata,
 * buffer 1 idata; out: the target's rows at a 256-byte pitch. */
static void vq_render(WGPUDevice d, WGPURenderPipeline p, WGPUTextureFormat fmt, const void *vdata, uint32_t vsize,
                      const void *idata, uint32_t isize, uint32_t ninst, bool scissor, uint8_t *out)
{
    WGPUTexture atlas = NULL;
    WGPUBindGroup g = vq_atlas(d, p, &atlas);
    WGPUBuffer cb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, vsize);
    WGPUBuffer ib = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, isize);
    wgpuQueueWriteBuffer(eg_test_queue(), cb, 0, vdata, vsize);
    wgpuQueueWriteBuffer(eg_test_queue(), ib, 0, idata, isize);
    WGPUTexture tex = t_texture(d, fmt, VQ_PX, VQ_PX, 1, 1, 1, WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = view;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    c.clearValue = (WGPUColor){ 0.3, 0.1, 0.6, 1.0 };
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.colorAttachmentCount = 1;
    rpd.colorAttachments = &c;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetBindGroup(rp, 0, g, 0, NULL);
    if (scissor) wgpuRenderPassEncoderSetScissorRect(rp, 3, 5, 23, 21);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, cb, 0, vsize);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 1, ib, 0, isize);
    const uint32_t first_n = ninst > 9u ? ninst / 3u : ninst;
    wgpuRenderPassEncoderDraw(rp, 4, first_n, 0, 0);
    if (ninst > first_n) wgpuRenderPassEncoderDraw(rp, 4, ninst - first_n, 0, first_n);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    uint32_t bpp = fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256u * VQ_PX);
    WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256u, VQ_PX);
    WGPUExtent3D sz = t_extent(VQ_PX, VQ_PX, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    eg_memset(out, 0, 256u * VQ_PX);
    EG_EXPECT(t_readback(d, rb, 0, 256u * VQ_PX, out));
    for (uint32_t y = 0; y < VQ_PX; y++) eg_memset(out + 256u * y + bpp * VQ_PX, 0, 256u - bpp * VQ_PX);   /* (pitch padding) */
    wgpuBufferRelease(rb);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuBufferRelease(ib);
    wgpuBufferRelease(cb);
    wgpuBindGroupRelease(g);
    wgpuTextureRelease(atlas);
}

/* ninst glyph quads blended over a cleared target of fmt (vq_render); far: the strip's 4th corner
 * at (2, 2) instead of (1, 1). */
static void vq_draw(WGPUDevice d, WGPUTextureFormat fmt, uint32_t ninst, uint32_t seed, bool scissor, bool far,
                    uint8_t *out)
{
    static const WGPUVertexFormat fmts[5] = { WGPUVertexFormat_Float32x2, WGPUVertexFormat_Float32x4,
                                              WGPUVertexFormat_Unorm8x4, WGPUVertexFormat_Float32x2,
                                              WGPUVertexFormat_Float32 };
    static const uint32_t offs[5] = { 0, 0, 16, 20, 28 };
    WGPUVertexAttribute va[5];
    for (uint32_t i = 0; i < 5u; i++) {
        va[i] = (WGPUVertexAttribute)WGPU_VERTEX_ATTRIBUTE_INIT;
        va[i].format = fmts[i];
        va[i].offset = offs[i];
        va[i].shaderLocation = i;
    }
    WGPUVertexBufferLayout vb[2] = { WGPU_VERTEX_BUFFER_LAYOUT_INIT, WGPU_VERTEX_BUFFER_LAYOUT_INIT };
    vb[0].arrayStride = 8; vb[0].attributeCount = 1; vb[0].attributes = &va[0];
    vb[1].arrayStride = VQ_STRIDE; vb[1].stepMode = WGPUVertexStepMode_Instance;
    vb[1].attributeCount = 4; vb[1].attributes = &va[1];
    WGPUPrimitiveState prim = WGPU_PRIMITIVE_STATE_INIT;
    prim.topology = WGPUPrimitiveTopology_TriangleStrip;
    WGPURenderPipeline p = t_render_pipeline_ex(d, "quad_inst.vert", "span_glyph.frag", vb, 2, fmt, &span_straight,
                                                NULL, &prim);
    EG_EXPECT(p != NULL);
    const float corners[8] = { 0, 0, 1, 0, 0, 1, far ? 2.0f : 1.0f, far ? 2.0f : 1.0f };
    static uint8_t rec[VQ_STRIDE * VQ_MAX_I];
    vq_instances(rec, seed);
    vq_render(d, p, fmt, corners, sizeof corners, rec, sizeof rec, ninst, scissor, out);
    wgpuRenderPipelineRelease(p);
}

/* ninst glyph quads of one strip whose 4 corners have distinct w (and z: 0.25 / w) and texture
 * coordinates (span.vert: perspective-correct v_uv), each instance its own color, so every
 * corner's 1/w and every triangle's corner order show in the bytes (quad_tri's window floats: the
 * pairs' x, y, z and 1/w columns); twist: the corners' w permuted. */
static void vq_persp_draw(WGPUDevice d, WGPUTextureFormat fmt, uint32_t ninst, uint32_t seed, bool scissor,
                          bool twist, uint8_t *out)
{
    static const WGPUVertexFormat fmts[3] = { WGPUVertexFormat_Float32x4, WGPUVertexFormat_Float32x2,
                                              WGPUVertexFormat_Unorm8x4 };
    static const uint32_t offs[3] = { 0, 16, 0 };
    WGPUVertexAttribute va[3];
    for (uint32_t i = 0; i < 3u; i++) {
        va[i] = (WGPUVertexAttribute)WGPU_VERTEX_ATTRIBUTE_INIT;
        va[i].format = fmts[i];
        va[i].offset = offs[i];
        va[i].shaderLocation = i;
    }
    WGPUVertexBufferLayout vb[2] = { WGPU_VERTEX_BUFFER_LAYOUT_INIT, WGPU_VERTEX_BUFFER_LAYOUT_INIT };
    vb[0].arrayStride = 24; vb[0].attributeCount = 2; vb[0].attributes = &va[0];
    vb[1].arrayStride = 4; vb[1].stepMode = WGPUVertexStepMode_Instance;
    vb[1].attributeCount = 1; vb[1].attributes = &va[2];
    WGPUPrimitiveState prim = WGPU_PRIMITIVE_STATE_INIT;
    prim.topology = WGPUPrimitiveTopology_TriangleStrip;
    WGPURenderPipeline p = t_render_pipeline_ex(d, "span.vert", "span_glyph.frag", vb, 2, fmt, &span_straight, NULL,
                                                &prim);
    EG_EXPECT(p != NULL);
    static const float xy[4][2] = { { -0.8f, -0.7f }, { 0.75f, -0.6f }, { -0.65f, 0.85f }, { 0.7f, 0.6f } };
    static const float ws[2][4] = { { 1.0f, 2.5f, 0.75f, 1.75f }, { 3.0f, 0.5f, 1.25f, 2.0f } };
    float corners[4][6];
    vq_lcg = seed;
    for (uint32_t j = 0; j < 4u; j++) {
        const float w = ws[twist][j];
        corners[j][0] = xy[j][0] * w;
        corners[j][1] = xy[j][1] * w;
        corners[j][2] = 0.25f;
        corners[j][3] = w;
        corners[j][4] = (float)(j & 1u) + vq_rand(-0.3f, 0.3f);
        corners[j][5] = (float)(j >> 1) + vq_rand(-0.3f, 0.3f);
    }
    static uint8_t rec[4u * VQ_MAX_I];
    for (uint32_t i = 0; i < VQ_MAX_I; i++) {
        vq_lcg = vq_lcg * 1664525u + 1013904223u;
        for (uint32_t c = 0; c < 4u; c++) rec[4u * i + c] = (uint8_t)(vq_lcg >> (8u * c));
        rec[4u * i + 3u] = (uint8_t)(40u + rec[4u * i + 3u] % 160u);   /* blended: every instance shows */
    }
    vq_render(d, p, fmt, corners, sizeof corners, rec, sizeof rec, ninst, scissor, out);
    wgpuRenderPipelineRelease(p);
}

EG_TEST(soft_vtx_quad, quad_batches_equal_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    /* last lane groups of 4, 8, 12, 16, 4 lanes; 33 and 133 quads: runs past flush_quads' 16 */
    static const uint32_t counts[6] = { 1u, 6u, 11u, 16u, 33u, VQ_MAX_I };
    static const WGPUTextureFormat tfmts[2] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_EmgpuRGB565Unorm };
    static uint8_t fast[256u * VQ_PX], general[256u * VQ_PX], clear_img[256u * VQ_PX];
    uint32_t bad = 0, blank = 0;
    uint64_t runs = 0;
    for (uint32_t threads = 1; threads <= 2u; threads++) {
        eg_soft_set_threads(threads);
        for (uint32_t f = 0; f < 2u; f++)
            for (uint32_t k = 0; k < 6u; k++)
                for (uint32_t sc = 0; sc < 4u; sc++) {   /* bit 0: scissor, bit 1: far corner */
                    const uint32_t seed = 91u + 7u * k + sc;
                    const bool far = sc >= 2u;
                    const uint64_t before = eg_soft_quad_run_quads;
                    vq_draw(d, tfmts[f], counts[k], seed, sc & 1u, far, fast);
                    runs += eg_soft_quad_run_quads - before;
                    eg_soft_raster_fast_paths = false;
                    const uint64_t off = eg_soft_quad_run_quads;
                    vq_draw(d, tfmts[f], counts[k], seed, sc & 1u, far, general);
                    EG_EXPECT_EQ_U(eg_soft_quad_run_quads - off, 0u);
                    vq_draw(d, tfmts[f], 0u, seed, sc & 1u, far, clear_img);
                    eg_soft_raster_fast_paths = true;
                    uint32_t diff = 0, drawn = 0;
                    for (uint32_t i = 0; i < 256u * VQ_PX; i++) {
                        diff += fast[i] != general[i];
                        drawn += general[i] != clear_img[i];
                    }
                    if (diff)
                        eg_test_printf("    %u threads, format %u, %u quads, scissor/far %u: %u bytes differ\n",
                                       (unsigned)threads, (unsigned)f, (unsigned)counts[k], (unsigned)sc, (unsigned)diff);
                    bad += diff;
                    blank += drawn == 0 && counts[k] > 1u;
                }
    }
    eg_soft_set_threads(0);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(blank, 0u);
    /* the quad runs took most quads where this build has them (the pair path: span pairs) */
    if (eg_soft_quad_runs_on && eg_soft_span_pair_widths()) EG_EXPECT(runs > 200u);
    eg_test_device_release();
}

/* (helper "vtxbin") flush_quads' runs read the pairs where classify_body wrote them (quad_tri, its
 * vertex pointers set once): quads whose corners differ in w and z, so that a wrong 1/w, z or corner
 * order changes the perspective-correct texture coordinates, against the general path, with runs
 * over several batches and draws, RGBA8 and RGB565, scissor, 1 and 2 threads. */
EG_TEST(soft_vtx_quad, quad_tris_keep_window_values)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const uint32_t counts[3] = { 5u, 33u, 70u };
    static const WGPUTextureFormat tfmts[2] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_EmgpuRGB565Unorm };
    static uint8_t fast[256u * VQ_PX], general[256u * VQ_PX], clear_img[256u * VQ_PX];
    uint32_t bad = 0, blank = 0;
    uint64_t runs = 0;
    for (uint32_t threads = 1; threads <= 2u; threads++) {
        eg_soft_set_threads(threads);
        for (uint32_t f = 0; f < 2u; f++)
            for (uint32_t k = 0; k < 3u; k++)
                for (uint32_t sc = 0; sc < 4u; sc++) {   /* bit 0: scissor, bit 1: the other w */
                    const uint32_t seed = 17u + 5u * k + sc;
                    const uint64_t before = eg_soft_quad_run_quads;
                    vq_persp_draw(d, tfmts[f], counts[k], seed, sc & 1u, sc >= 2u, fast);
                    runs += eg_soft_quad_run_quads - before;
                    eg_soft_raster_fast_paths = false;
                    vq_persp_draw(d, tfmts[f], counts[k], seed, sc & 1u, sc >= 2u, general);
                    vq_persp_draw(d, tfmts[f], 0u, seed, sc & 1u, sc >= 2u, clear_img);
                    eg_soft_raster_fast_paths = true;
                    uint32_t diff = 0, drawn = 0;
                    for (uint32_t i = 0; i < 256u * VQ_PX; i++) {
                        diff += fast[i] != general[i];
                        drawn += general[i] != clear_img[i];
                    }
                    if (diff)
                        eg_test_printf("    %u threads, format %u, %u quads, scissor/w %u: %u bytes differ\n",
                                       (unsigned)threads, (unsigned)f, (unsigned)counts[k], (unsigned)sc, (unsigned)diff);
                    bad += diff;
                    blank += drawn == 0;
                }
    }
    eg_soft_set_threads(0);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(blank, 0u);
    if (eg_soft_quad_runs_on && eg_soft_span_pair_widths()) EG_EXPECT(runs > 100u);
    eg_test_device_release();
}
