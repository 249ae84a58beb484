/* Tests of the soft rasterizer's proved constant regions filled row by row (hal/soft/soft_raster_fill.c). */
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"

#define S 32u      /* target size */
#define WMAX 52u   /* the strips and bands tests' targets: at most WMAX * WMAX * 4 bytes */

/* ---- eg_soft_fill_const_region on its own: coverage and bytes per pixel ---- */

/* Edge functions of the triangle (x, y) in 1/256 px as the header of soft_raster.c defines them
 * (edge i from V[i+1] to V[i+2], interior E > 0, E - 1 on edges that are neither top nor left);
 * false for zero area. */
static bool edges(const int32_t x[3], const int32_t y[3], eg_soft_setup_t *s)
{
    int64_t area = 0;
    for (uint32_t i = 0; i < 3u; i++) {
        uint32_t a = (i + 1u) % 3u, b = (i + 2u) % 3u;
        s->A[i] = (int64_t)y[a] - y[b];
        s->B[i] = (int64_t)x[b] - x[a];
        s->C[i] = -(s->A[i] * x[a] + s->B[i] * y[a]);
    }
    area = s->A[0] * x[0] + s->B[0] * y[0] + s->C[0];
    if (area == 0) return false;
    for (uint32_t i = 0; i < 3u && area < 0; i++) { s->A[i] = -s->A[i]; s->B[i] = -s->B[i]; s->C[i] = -s->C[i]; }
    for (uint32_t i = 0; i < 3u; i++)
        if (!(s->A[i] > 0 || (s->A[i] == 0 && s->B[i] > 0))) s->C[i] -= 1;
    s->inv_area2 = 1.0f / (float)(area < 0 ? -area : area);
    return true;
}

/* A stored pattern with runs of equal pixels of lengths 1..9 crossing 8-byte boundaries, and
 * rows that differ: the run cache of the row blend meets every case. */
static void pattern_wh(uint8_t *px, uint32_t bpp, uint32_t w, uint32_t h)
{
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t run = (x * (x + 1u) / 2u + y) / (1u + y % 9u);   /* runs grow along the row */
            uint32_t v = (run * 2654435761u) >> 8;
            for (uint32_t k = 0; k < bpp; k++) px[(y * w + x) * bpp + k] = (uint8_t)(v >> (8u * k) & 0x7fu);
        }
}

static void pattern(uint8_t *px, uint32_t bpp) { pattern_wh(px, bpp, S, S); }

/* render()'s background: pattern_wh, or (rows_bg) one value per row, as under a vertical
 * gradient: the row fills' 16-byte runs (rrect10) */
static bool rows_bg;

/* ... or (bg_few > 0) bg_few values in runs of 1 to 4 px, the set changing every 5 rows: the bench's
 * background rows (two values in runs of ~3 px, the gradient's rounding) and a shape drawn before
 * (two more): the vector row fills' memo (fill11) meets hits, new values and runs across chunks */
static uint32_t bg_few;

static void background(uint8_t *px, uint32_t bpp, uint32_t w, uint32_t h)
{
    pattern_wh(px, bpp, w, h);
    for (uint32_t y = 0; y < h && rows_bg; y++)
        for (uint32_t x = 1; x < w; x++) eg_memcpy(px + (y * w + x) * bpp, px + y * w * bpp, bpp);
    for (uint32_t y = 0; y < h && bg_few; y++) {
        uint32_t st = y * 2654435761u + 12345u, run = 0, k = 0;
        for (uint32_t x = 0; x < w; x++) {
            if (run == 0u) {
                st = st * 1664525u + 1013904223u;
                run = 1u + (st >> 28) % 4u;
                k = (st >> 16) % bg_few;
            }
            run--;
            uint32_t v = (k * 0x9E3779B1u + (y / 5u) * 0x85EBCA77u) >> 8;
            for (uint32_t b = 0; b < bpp; b++) px[(y * w + x) * bpp + b] = (uint8_t)(v >> (8u * b) & 0x7fu);
        }
    }
}

/* Triangles in 1/256 px: axis-aligned edges through pixel centres (top-left rule on both sides),
 * slanted edges, a sliver, vertices outside the target; each is used in both windings. */
static const int32_t tris[6][6] = {
    { 2 * 256 + 128, 3 * 256 + 128, 29 * 256 + 128, 3 * 256 + 128, 2 * 256 + 128, 27 * 256 + 128 },
    { 29 * 256 + 128, 3 * 256 + 128, 29 * 256 + 128, 27 * 256 + 128, 2 * 256 + 128, 27 * 256 + 128 },
    { 301, 77, 8100, 2950, 1700, 7900 },
    { -900, 4000, 9000, 4100, 4100, 4700 },
    { 4000, -1200, 9400, 6000, -700, 9000 },
    { 3333, 3333, 5555, 3400, 3400, 5600 },
};

/* One blend case: the fill over rectangle [x0, x1) x [y0, y1) against the fused block blend
 * (soft_raster_output.c, a different implementation) pixel by pixel where eg_soft_covers says
 * the triangle covers the centre. Returns the number of differing pixels; *covered counts. */
static uint32_t fill_case(const eg_soft_setup_t *s, const int32_t x[3], const int32_t y[3], WGPUTextureFormat fmt,
                          uint32_t fast, const float src[4], uint32_t *covered)
{
    static uint8_t got[S * S * 4], want[S * S * 4];
    static struct eg_soft_raster_pipeline rs;
    static eg_soft_worker_t w;
    uint32_t bpp = fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    const int64_t x0 = 3, x1 = 30, y0 = 1, y1 = 31;
    eg_soft_fb_t fb;
    eg_memset(&fb, 0, sizeof fb);
    fb.color_count = 1;
    fb.samples = 1;
    fb.color[0] = (eg_soft_target_t){ got, S * bpp, bpp, 0, fmt };
    eg_memset(&rs, 0, sizeof rs);
    rs.sample_mask = 1;
    rs.rt_count = 1;
    rs.blend[0].wmask = 0xF;
    rs.blend_fast[0] = (uint8_t)fast;
    eg_soft_pass_state_t ps;
    eg_memset(&ps, 0, sizeof ps);
    ps.fb = &fb;
    eg_soft_frag_t f;
    eg_memset(&f, 0, sizeof f);
    f.w = &w;
    f.ps = &ps;
    f.rs = &rs;
    f.s = *s;
    f.samples = 1;
    uint32_t outb[4];
    eg_soft_vec4_t sv;
    for (uint32_t c = 0; c < 4u; c++) {
        eg_memcpy(&outb[c], &src[c], 4);
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) sv.c[c].f[l] = src[c];
    }
    pattern(got, bpp);
    pattern(want, bpp);
    eg_soft_target_t tw = { want, S * bpp, bpp, 0, fmt };
    for (int64_t py = y0; py < y1; py++)
        for (int64_t px = x0; px < x1; px++) {
            if (!eg_soft_covers(x, y, (int32_t)px, (int32_t)py)) continue;
            uint8_t *blk = want + (size_t)(py & ~3) * S * bpp + (size_t)(px & ~3) * bpp;
            eg_soft_mask_t m = (eg_soft_mask_t)(1u << ((py & 3) * 4 + (px & 3)));
            if (bpp == 2u) eg_soft_blend_565(&tw, blk, m, &sv, fast);
            else eg_soft_blend_u8(&tw, blk, m, &sv, fast);
            (*covered)++;
        }
    eg_soft_cfill_t cf;
    eg_soft_cfill_init(&cf);
    /* the rectangle as 2 x 3 pieces in walk order (row bands, left to right): side by side pieces
     * are joined into one pending span, a new band fills the last one, the flush the rest */
    int64_t xs[4] = { x0, x0 + (x1 - x0) / 3, x0 + 2 * (x1 - x0) / 3, x1 }, ys[3] = { y0, y0 + (y1 - y0) / 2, y1 };
    for (uint32_t b = 0; b < 2u; b++)
        for (uint32_t a = 0; a < 3u; a++)
            if (!eg_soft_fill_const_region(&f, &cf, xs[a], xs[a + 1], ys[b], ys[b + 1], outb)) return S * S;
    eg_soft_cfill_flush(&f, &cf);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < S * S; i++) bad += memcmp(got + i * bpp, want + i * bpp, bpp) != 0;
    return bad;
}

/* Every triangle in both windings, 3 formats, 3 blends (premultiplied source-over, straight alpha,
 * and opaque, whose dst factors are 0: the fill), 2 source colors: the same bytes as blending
 * each covered pixel alone, and nothing outside the triangle or the rectangle touched. */
EG_TEST(soft_fill, rows_match_block_blend)
{
    static const WGPUTextureFormat fmts[3] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                               WGPUTextureFormat_EmgpuRGB565Unorm };
    static const uint32_t blends[3] = {
        EG_SOFT_BLEND_U8 | EG_SOFT_BLEND_U8_INV_C | EG_SOFT_BLEND_U8_INV_A,
        EG_SOFT_BLEND_U8 | EG_SOFT_BLEND_U8_SA_C | EG_SOFT_BLEND_U8_INV_C | EG_SOFT_BLEND_U8_INV_A,
        EG_SOFT_BLEND_U8 };
    static const float colors[2][4] = { { 0.8f, 0.3f, 0.1f, 0.55f }, { 0.2f, 0.9f, 0.6f, 1.0f } };
    uint32_t bad = 0, covered = 0, cases = 0;
    for (uint32_t t = 0; t < 6u; t++)
        for (uint32_t wind = 0; wind < 2u; wind++) {
            int32_t x[3] = { tris[t][0], tris[t][2], tris[t][4] }, y[3] = { tris[t][1], tris[t][3], tris[t][5] };
            if (wind) { int32_t tx = x[1], ty = y[1]; x[1] = x[2]; y[1] = y[2]; x[2] = tx; y[2] = ty; }
            eg_soft_setup_t s;
            EG_ASSERT(edges(x, y, &s));
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t b = 0; b < 3u; b++)
                    for (uint32_t c = 0; c < 2u; c++) {
                        uint32_t fast = blends[b] | (f == 1u ? EG_SOFT_BLEND_U8_BGRA : 0u) |
                                        (f == 2u ? EG_SOFT_BLEND_U8_565 : 0u);
                        uint32_t n = fill_case(&s, x, y, fmts[f], fast, colors[c], &covered);
                        if (n && bad < 4u)
                            eg_test_printf("    triangle %u winding %u format %u blend %u color %u: %u px differ\n", t, wind,
                                           f, b, c, n);
                        bad += n;
                        cases++;
                    }
        }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(covered > cases * 20u);   /* the triangles really cover pixels of the rectangle */
}

/* ---- through the API: the SDF rounded rectangle, fast paths on and off ---- */

typedef struct svtx {
    float pos[4];
    float uv[2];
    uint8_t color[4];
} svtx_t;

static const WGPUBlendState premul = {
    { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha },
    { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha } };
static const WGPUBlendState straight = {
    { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
    { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha } };
/* the target formats the region fills serve (the regions and ranges tests) */
static const WGPUTextureFormat fill_fmts[3] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                                WGPUTextureFormat_EmgpuRGB565Unorm };

static svtx_t vtx(float px, float py, float u, float v, uint8_t a)
{
    svtx_t o = { { px / 16.0f - 1.0f, 1.0f - py / 16.0f, 0.0f, 1.0f }, { u, v }, { 200, 100, 50, a } };
    return o;
}

static bool sdf_strip;   /* sdf_pipeline's topology: triangle strip (else list) */
static const char *sdf_frag = "span_sdf.frag";   /* its fragment shader */

static WGPURenderPipeline sdf_pipeline(WGPUDevice d, WGPUTextureFormat fmt, const WGPUBlendState *blend)
{
    WGPUVertexAttribute va[3] = { WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT };
    va[0].format = WGPUVertexFormat_Float32x4;
    va[1].format = WGPUVertexFormat_Float32x2; va[1].offset = 16; va[1].shaderLocation = 1;
    va[2].format = WGPUVertexFormat_Unorm8x4; va[2].offset = 24; va[2].shaderLocation = 2;
    WGPUVertexBufferLayout vb = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    vb.arrayStride = sizeof(svtx_t);
    vb.attributeCount = 3;
    vb.attributes = va;
    if (sdf_strip) {   /* (the rectangle pair test: one quad as a 4-vertex strip) */
        WGPUPrimitiveState pr = WGPU_PRIMITIVE_STATE_INIT;
        pr.topology = WGPUPrimitiveTopology_TriangleStrip;
        return t_render_pipeline_ex(d, "span.vert", sdf_frag, &vb, 1, fmt, blend, NULL, &pr);
    }
    return t_color_pipeline(d, "span.vert", sdf_frag, &vb, fmt, blend);
}

/* The n vertices drawn over pattern() (loaded, not cleared) into a fresh S x S target of fmt,
 * scissored to (1, 3, 29, 27) when scissor; img gets the bytes. */
static bool render(WGPUDevice d, WGPUTextureFormat fmt, const WGPUBlendState *blend, const svtx_t *v, uint32_t n,
                   bool scissor, uint8_t *img, uint32_t W, uint32_t H)
{
    uint32_t bpp = fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    static uint8_t bg[WMAX * WMAX * 4];
    WGPUTexture rt = t_texture(d, fmt, W, H, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst);
    background(bg, bpp, W, H);
    WGPUTexelCopyTextureInfo wi = t_tex_info(rt, 0, 0, 0, 0);
    WGPUTexelCopyBufferLayout bl = { 0, W * bpp, H };
    WGPUExtent3D sz = t_extent(W, H, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &wi, bg, W * H * bpp, &bl, &sz);
    WGPUTextureView rv = wgpuTextureCreateView(rt, NULL);
    WGPURenderPipeline p = sdf_pipeline(d, fmt, blend);
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, n * sizeof v[0]);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, n * sizeof v[0]);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = rv;
    c.loadOp = WGPULoadOp_Load;
    c.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &c;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    if (scissor) wgpuRenderPassEncoderSetScissorRect(rp, 1, 3, 28, 24);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, n * sizeof v[0]);
    wgpuRenderPassEncoderDraw(rp, n, 1, 0, 0);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256u * H);
    WGPUTexelCopyTextureInfo ti = t_tex_info(rt, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, H);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    bool ok = true;
    for (uint32_t y = 0; y < H && ok; y++) ok = t_readback(d, rb, (uint64_t)y * 256u, W * bpp, img + y * W * bpp);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(vb);
    wgpuRenderPipelineRelease(p);
    wgpuTextureViewRelease(rv);
    wgpuTextureRelease(rt);
    return ok;
}

/* The SDF rounded rectangle (tests/shaders/span_sdf.frag: constant inside and outside, a 1 px
 * ramp between) over a quad at fractional positions and over one slanted triangle, on a
 * patterned target, 3 formats x 2 blends x 2 alphas (alpha 255 premultiplied: the fill), with
 * and without a scissor: the same bytes with the fast paths on and off, and regions really
 * were proved (the worker's region counter moved). */
EG_TEST(soft_fill, regions_match_general_path)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    static uint8_t fast[S * S * 4], slow[S * S * 4];
    uint32_t bad = 0, unused = 0;
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t b = 0; b < 2u; b++)
            for (uint32_t a = 0; a < 2u; a++)
                for (uint32_t k = 0; k < 2u; k++) {
                    uint8_t al = a ? 255 : 170;
                    svtx_t v[6] = { vtx(0.6f, 1.3f, 0, 0, al), vtx(31.3f, 1.3f, 1, 0, al), vtx(0.6f, 30.8f, 0, 1, al),
                                    vtx(31.3f, 1.3f, 1, 0, al), vtx(31.3f, 30.8f, 1, 1, al), vtx(0.6f, 30.8f, 0, 1, al) };
                    if (k) {   /* one slanted triangle, vertices outside the target */
                        v[0] = vtx(-3.1f, 2.2f, 0, 0, al);
                        v[1] = vtx(35.5f, 9.7f, 1.2f, 0.3f, al);
                        v[2] = vtx(7.4f, 33.9f, 0.2f, 1.1f, al);
                    }
                    uint32_t n = k ? 3u : 6u, bpp = f == 2u ? 2u : 4u;
                    eg_soft_set_threads(1);   /* every triangle on the submitting thread's worker */
                    uint32_t before = eg_soft_worker_main.region_blocks;
                    bool ok = render(d, fill_fmts[f], b ? &straight : &premul, v, n, (f + b + a + k) & 1u, fast, S, S);
                    if (eg_soft_worker_main.region_blocks == before) unused++;
                    eg_soft_raster_fast_paths = false;
                    ok = ok && render(d, fill_fmts[f], b ? &straight : &premul, v, n, (f + b + a + k) & 1u, slow, S, S);
                    eg_soft_raster_fast_paths = true;
                    eg_soft_set_threads(0);
                    if ((!ok || memcmp(fast, slow, (size_t)S * S * bpp) != 0) && bad++ < 4u)
                        eg_test_printf("    format %u blend %u alpha %u shape %u differs\n", f, b, a, k);
                }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(unused, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The SDF rounded rectangle over quads filling 48x24 and 24x48 targets: the middle 16 px column
 * (row) of regions lies on the top and bottom (left and right) sides of the walked rectangle
 * only, so failed regions there are cut into 4 px rows (columns) and the side-region skip
 * (soft_raster.c walk_regions) applies; corners still take quarters. Same bytes with the fast
 * paths on and off, every format. */
EG_TEST(soft_fill, strips_match_general_path)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    static const WGPUTextureFormat fmts[3] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                               WGPUTextureFormat_EmgpuRGB565Unorm };
    static uint8_t fast[WMAX * WMAX * 4], slow[WMAX * WMAX * 4];
    uint32_t bad = 0;
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t o = 0; o < 2u; o++) {
            uint32_t W = o ? 24u : 48u, H = o ? 48u : 24u, bpp = f == 2u ? 2u : 4u;
            /* vtx() maps 0..32 to the target's width and height: sx, sy = one target pixel */
            float sx = 32.0f / (float)W, sy = 32.0f / (float)H;
            svtx_t v[6] = { vtx(0.3f * sx, 0.6f * sy, 0, 0, 170), vtx((32.0f - 0.4f * sx), 0.6f * sy, 1, 0, 170),
                            vtx(0.3f * sx, (32.0f - 0.8f * sy), 0, 1, 170), vtx((32.0f - 0.4f * sx), 0.6f * sy, 1, 0, 170),
                            vtx((32.0f - 0.4f * sx), (32.0f - 0.8f * sy), 1, 1, 170), vtx(0.3f * sx, (32.0f - 0.8f * sy), 0, 1, 170) };
            eg_soft_set_threads(1);
            bool ok = render(d, fmts[f], &premul, v, 6, false, fast, W, H);
            eg_soft_raster_fast_paths = false;
            ok = ok && render(d, fmts[f], &premul, v, 6, false, slow, W, H);
            eg_soft_raster_fast_paths = true;
            eg_soft_set_threads(0);
            if ((!ok || memcmp(fast, slow, (size_t)W * H * bpp) != 0) && bad++ < 4u)
                eg_test_printf("    format %u target %ux%u differs\n", f, W, H);
        }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The interior of the walk proved whole (soft_raster_const.c eg_soft_const_region_tri): quads
 * over 72x56 and 56x72 RGB565 targets, whose box has 3 x 2 regions on no side. Texture
 * coordinates 0.35..0.65 show only the inside of the SDF shape (constant: the interior is proved
 * once and its other regions take those bits, hits counted); 0.3..0.7 put the shape's ramp in
 * the side regions only (the interior holds, the sides must not take its bits); 0..1 show the
 * whole shape, whose ramp crosses the interior (its proof fails and every region is proved or
 * shaded alone, no hits). Same bytes with the fast paths on and off. The quads as two triangles
 * (eg_soft_rect_pair_on off: the rectangle path proves its own pieces, rect_pairs_match_two_triangles). */
EG_TEST(soft_fill, interior_proved_whole_matches_general_path)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    static uint8_t fast[WMAX * WMAX * 4], slow[WMAX * WMAX * 4];
    static const float uv[3][2] = { { 0.35f, 0.65f }, { 0.3f, 0.7f }, { 0.0f, 1.0f } };
    uint32_t bad = 0, hits[3] = { 0, 0, 0 };
    for (uint32_t o = 0; o < 2u; o++)
        for (uint32_t m = 0; m < 3u; m++) {
            uint32_t W = o ? 56u : 72u, H = o ? 72u : 56u;
            float u0 = uv[m][0], u1 = uv[m][1];
            svtx_t v[6] = { vtx(0.3f, 0.6f, u0, u0, 170), vtx(31.6f, 0.6f, u1, u0, 170), vtx(0.3f, 31.2f, u0, u1, 170),
                            vtx(31.6f, 0.6f, u1, u0, 170), vtx(31.6f, 31.2f, u1, u1, 170), vtx(0.3f, 31.2f, u0, u1, 170) };
            eg_soft_set_threads(1);
            uint32_t before = eg_soft_worker_main.interior_hits;
            eg_soft_rect_pair_on = false;
            bool ok = render(d, WGPUTextureFormat_EmgpuRGB565Unorm, &premul, v, 6, false, fast, W, H);
            eg_soft_rect_pair_on = true;
            hits[m] += eg_soft_worker_main.interior_hits - before;
            eg_soft_raster_fast_paths = false;
            ok = ok && render(d, WGPUTextureFormat_EmgpuRGB565Unorm, &premul, v, 6, false, slow, W, H);
            eg_soft_raster_fast_paths = true;
            eg_soft_set_threads(0);
            if ((!ok || memcmp(fast, slow, (size_t)W * H * 2u) != 0) && bad++ < 4u)
                eg_test_printf("    target %ux%u coordinates %u differs\n", W, H, m);
        }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(hits[0] > 0u);
    EG_EXPECT(hits[1] > 0u);
    EG_EXPECT_EQ_U(hits[2], 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Bands (soft_raster_const.c band_lookup / band_cross, session 8): RGB565 quads over 72x72
 * targets (the walk's interior is x, y in [16, 64): each side strip beside its middle region row
 * has a band, and the interior has cross bands) through windows of the SDF shape: inside only,
 * the ramp in the side regions, the whole shape, off-centre windows whose ramp crosses the
 * interior's first or last region row or column and the cross bands. Same bytes with the fast
 * paths on and off (a band whose bits were taken for a strip outside it, or a strip proved over
 * fewer lanes than it stores, gives the shape's ramp pixels the band's value), and bands were
 * used. */
EG_TEST(soft_fill, bands_match_general_path)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    static uint8_t fast[72u * 72u * 2u], slow[72u * 72u * 2u];
    static const float uv[6][4] = { { 0.35f, 0.65f, 0.35f, 0.65f }, { 0.3f, 0.7f, 0.3f, 0.7f }, { 0.0f, 1.0f, 0.0f, 1.0f },
                                    { 0.2f, 0.62f, 0.31f, 0.66f }, { 0.33f, 0.8f, 0.05f, 0.7f }, { 0.28f, 0.74f, 0.3f, 0.58f } };
    uint32_t bad = 0, hits = 0;
    const uint32_t W = 72u, H = 72u;
    for (uint32_t m = 0; m < 6u; m++)
        for (uint32_t k = 0; k < 2u; k++) {
            float u0 = uv[m][0], u1 = uv[m][1], v0 = uv[m][2], v1 = uv[m][3];
            /* k: the quad's edges on pixel centres' boundaries (a shape filling its quad) or off them */
            float a = k ? 0.0f : 0.3f, b = k ? 32.0f : 31.6f, c = k ? 0.0f : 0.6f, e = k ? 32.0f : 31.2f;
            svtx_t v[6] = { vtx(a, c, u0, v0, 170), vtx(b, c, u1, v0, 170), vtx(a, e, u0, v1, 170),
                            vtx(b, c, u1, v0, 170), vtx(b, e, u1, v1, 170), vtx(a, e, u0, v1, 170) };
            eg_soft_set_threads(1);
            uint32_t before = eg_soft_worker_main.band_hits;
            bool ok = render(d, WGPUTextureFormat_EmgpuRGB565Unorm, &premul, v, 6, false, fast, W, H);
            hits += eg_soft_worker_main.band_hits - before;
            eg_soft_raster_fast_paths = false;
            ok = ok && render(d, WGPUTextureFormat_EmgpuRGB565Unorm, &premul, v, 6, false, slow, W, H);
            eg_soft_raster_fast_paths = true;
            eg_soft_set_threads(0);
            if ((!ok || memcmp(fast, slow, (size_t)W * H * 2u) != 0) && bad++ < 4u)
                eg_test_printf("    window %u quad %u differs\n", m, k);
        }
    /* the shape filling its quad, as the bench's rectangles (2 px a shader unit: a 2 px ramp
     * starting at the quad's edge) at fractional offsets on a 48x48 target: the side strips'
     * blocks hold pixels outside the quad (never covered, left out of the proof: covered_lanes)
     * and the quad's first pixel column or row (the ramp, which must stay in the proof) */
    static const float off[3][2] = { { 10.3f, 9.3f }, { 10.7f, 9.6f }, { 12.2f, 8.9f } };
    for (uint32_t o = 0; o < 3u; o++) {
        const float k = 32.0f / 48.0f, x0 = off[o][0] * k, x1 = (off[o][0] + 28.0f) * k;
        const float y0 = off[o][1] * k, y1 = (off[o][1] + 20.0f) * k;
        const float u0 = 5.0f / 24.0f, u1 = 19.0f / 24.0f, v0 = 7.0f / 24.0f, v1 = 17.0f / 24.0f;
        svtx_t v[6] = { vtx(x0, y0, u0, v0, 170), vtx(x1, y0, u1, v0, 170), vtx(x0, y1, u0, v1, 170),
                        vtx(x1, y0, u1, v0, 170), vtx(x1, y1, u1, v1, 170), vtx(x0, y1, u0, v1, 170) };
        eg_soft_set_threads(1);
        bool ok = render(d, WGPUTextureFormat_EmgpuRGB565Unorm, &premul, v, 6, false, fast, 48u, 48u);
        eg_soft_raster_fast_paths = false;
        ok = ok && render(d, WGPUTextureFormat_EmgpuRGB565Unorm, &premul, v, 6, false, slow, 48u, 48u);
        eg_soft_raster_fast_paths = true;
        eg_soft_set_threads(0);
        if ((!ok || memcmp(fast, slow, 48u * 48u * 2u) != 0) && bad++ < 4u)
            eg_test_printf("    filled quad at offset %u differs\n", o);
    }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(hits > 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Vector row fills (fill11, session 11: soft_raster_fill.c fill_rows_body): the proved
 * regions' rows 32 bytes at a time against a memo of four (stored -> result) pairs, a row's last
 * chunk overlapping the one before it, 16 to 31 bytes as two overlapping 16-byte chunks, fewer
 * pixel by pixel, chunks with a value not in the memo through it lane by lane. The SDF shape
 * over quads of several sizes and windows (long interior rows, 8 px quarters, 4 px strips) and
 * the slanted triangle (rows cut at every length by its edges) on 52x52 targets whose rows hold
 * 2, 4 or 7 values in short runs, RGBA8, BGRA8 and RGB565, premultiplied and straight alpha at
 * 170 and opaque (the fill, every dst factor 0), with the AVX2 build and the 16-byte one
 * (eg_soft_shade_vw 8 and 4; both are the 16-byte one on CPUs without AVX2), and with output
 * ranges of width 1 (rrect9: range sources whose open pixels go to the VM, in chunks and in a
 * row's overlapping last chunk, amb_flush running within rows): the same bytes as the fast paths
 * off, and every kind of row, memo miss and open pixel was met. */
EG_TEST(soft_fill, vector_rows_match_general_path)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    static uint8_t fast[WMAX * WMAX * 4], slow[WMAX * WMAX * 4];
    static const float win[3][4] = { { 0.0f, 1.0f, 0.0f, 1.0f }, { 0.3f, 0.7f, 0.25f, 0.75f }, { 0.1f, 0.62f, 0.2f, 0.9f } };
    static const float quad[3][4] = { { 0.3f, 31.6f, 0.6f, 31.2f }, { 2.2f, 23.9f, 5.1f, 29.0f }, { 9.0f, 31.0f, 0.0f, 17.3f } };
    const uint32_t W = WMAX, keep_vw = eg_soft_shade_vw;
    const float keep = eg_soft_const_range_max;
    uint32_t bad = 0, rows[5] = { 0, 0, 0, 0, 0 }, wide_rows = 0;
    for (uint32_t wide = 0; wide < 2u; wide++)
        for (uint32_t vw = 0; vw < 2u; vw++)
            for (uint32_t f = 0; f < 3u; f++)
                for (uint32_t b = 0; b < 3u; b++)
                    for (uint32_t k = 0; k < 4u; k++) {
                        uint8_t al = b == 2u ? 255 : 170;
                        uint32_t n = 6, bpp = f == 2u ? 2u : 4u;
                        svtx_t v[6];
                        if (k < 3u) {
                            const float *q = quad[k], *u = win[(k + f) % 3u];
                            v[0] = vtx(q[0], q[2], u[0], u[2], al); v[1] = vtx(q[1], q[2], u[1], u[2], al);
                            v[2] = vtx(q[0], q[3], u[0], u[3], al); v[3] = vtx(q[1], q[2], u[1], u[2], al);
                            v[4] = vtx(q[1], q[3], u[1], u[3], al); v[5] = vtx(q[0], q[3], u[0], u[3], al);
                        } else {   /* one slanted triangle, vertices outside the target */
                            v[0] = vtx(-3.1f, 2.2f, 0, 0, al);
                            v[1] = vtx(35.5f, 9.7f, 1.2f, 0.3f, al);
                            v[2] = vtx(7.4f, 33.9f, 0.2f, 1.1f, al);
                            n = 3;
                        }
                        bg_few = (uint32_t[3]){ 2u, 4u, 7u }[(f + k + vw) % 3u];
                        eg_soft_shade_vw = vw ? 8u : 4u;
                        eg_soft_const_range_max = wide ? 1.0f : keep;
                        eg_soft_set_threads(1);
                        uint32_t r0[5];
                        eg_memcpy(r0, eg_soft_worker_main.fill_vec_rows, sizeof r0);
                        bool ok = render(d, fill_fmts[f], b == 1u ? &straight : &premul, v, n, (f + b + k) & 1u, fast, W, W);
                        for (uint32_t i = 0; i < 5u; i++) rows[i] += eg_soft_worker_main.fill_vec_rows[i] - r0[i];
                        if (vw) wide_rows += eg_soft_worker_main.fill_vec_rows[0] - r0[0];
                        eg_soft_raster_fast_paths = false;
                        ok = ok && render(d, fill_fmts[f], b == 1u ? &straight : &premul, v, n, (f + b + k) & 1u, slow, W, W);
                        eg_soft_raster_fast_paths = true;
                        eg_soft_set_threads(0);
                        eg_soft_shade_vw = keep_vw;
                        eg_soft_const_range_max = keep;
                        bg_few = 0;
                        if ((!ok || memcmp(fast, slow, (size_t)W * W * bpp) != 0) && bad++ < 4u)
                            eg_test_printf("    width %u vw %u format %u blend %u shape %u differs\n", wide, vw ? 8u : 4u, f, b, k);
                    }
    EG_EXPECT_EQ_U(bad, 0u);
    if (eg_soft_fill_rows_vector()) {   /* (builds with native vectors: the others fill rows as before) */
        for (uint32_t i = 0; i < 5u; i++) EG_EXPECT(rows[i] > 0u);
        EG_EXPECT(wide_rows > 0u);
    } else {
        for (uint32_t i = 0; i < 5u; i++) EG_EXPECT_EQ_U(rows[i], 0u);
    }
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Output ranges (rrect9, session 9: soft_raster_const.c region_tri's hi, soft_raster_fill.c
 * rfill_px / rchan / amb_flush). With eg_soft_const_range_max at 1 every region proof that
 * bounds its outputs at all ends in a range, the shape's ramps included: the row fill must then
 * decide each stored pixel's bytes from the range alone where both ends agree (the blend's
 * monotone bounds) and run the VM for the rest. The SDF shape over the regions test's quads and
 * triangle and over quads the shape fills exactly at 1 px a shader unit (its alpha exactly 1.0
 * at the first pixel centre inside, the bench's rounded rectangles' case), on patterned RGBA8,
 * BGRA8 and RGB565 targets, 3 blends (the third: source alpha times alpha), alpha 170 and 255: the same bytes as the fast paths
 * off, at the default width and at 1, and at 1 ranges were filled and pixels went to the VM.
 * Fails when amb_flush is skipped (the pixels keep their old bytes) or when rchan takes the
 * lower end's bytes without comparing; not when its 2^-21 margin or its vertex term is dropped
 * (no end lands that close to a rounding boundary here, and where the vertex lies inside the
 * alpha range, the range's ends already give different codes). */
EG_TEST(soft_fill, ranges_match_general_path)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    static const WGPUBlendState alpha2 = {   /* alpha a * a + dst (1 - a): rchan's quadratic case */
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha } };
    const WGPUBlendState *blends[3] = { &premul, &straight, &alpha2 };
    static uint8_t fast[S * S * 4], slow[S * S * 4];
    const float keep = eg_soft_const_range_max;
    uint32_t bad = 0, regions = 0, vm_px = 0;
    /* the shape (14 x 10 units) filling quads with edges on pixel boundaries, 1 px a unit */
    const float u0 = 5.0f / 24.0f, u1 = 19.0f / 24.0f, v0 = 7.0f / 24.0f, v1 = 17.0f / 24.0f;
    for (uint32_t wide = 0; wide < 2u; wide++)
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t b = 0; b < 3u; b++)
                for (uint32_t a = 0; a < 2u; a++)
                    for (uint32_t k = 0; k < 3u; k++) {
                        uint8_t al = a ? 255 : 170;
                        svtx_t v[12] = { vtx(0.6f, 1.3f, 0, 0, al), vtx(31.3f, 1.3f, 1, 0, al), vtx(0.6f, 30.8f, 0, 1, al),
                                         vtx(31.3f, 1.3f, 1, 0, al), vtx(31.3f, 30.8f, 1, 1, al), vtx(0.6f, 30.8f, 0, 1, al) };
                        uint32_t n = 6;
                        if (k == 1u) {   /* one slanted triangle, vertices outside the target */
                            v[0] = vtx(-3.1f, 2.2f, 0, 0, al);
                            v[1] = vtx(35.5f, 9.7f, 1.2f, 0.3f, al);
                            v[2] = vtx(7.4f, 33.9f, 0.2f, 1.1f, al);
                            n = 3;
                        }
                        for (uint32_t q = 0; k == 2u && q < 2u; q++) {   /* two filled quads */
                            float x0 = q ? 15.0f : 1.0f, y0 = q ? 19.0f : 2.0f, x1 = x0 + 14.0f, y1 = y0 + 10.0f;
                            svtx_t *o = v + 6u * q;
                            o[0] = vtx(x0, y0, u0, v0, al); o[1] = vtx(x1, y0, u1, v0, al); o[2] = vtx(x0, y1, u0, v1, al);
                            o[3] = vtx(x1, y0, u1, v0, al); o[4] = vtx(x1, y1, u1, v1, al); o[5] = vtx(x0, y1, u0, v1, al);
                            n = 12;
                        }
                        uint32_t bpp = f == 2u ? 2u : 4u;
                        eg_soft_const_range_max = wide ? 1.0f : keep;
                        eg_soft_set_threads(1);
                        uint32_t r0 = eg_soft_worker_main.range_regions, p0 = eg_soft_worker_main.range_vm_px;
                        bool ok = render(d, fill_fmts[f], blends[b], v, n, (f + b + a + k) & 1u, fast, S, S);
                        if (wide) {
                            regions += eg_soft_worker_main.range_regions - r0;
                            vm_px += eg_soft_worker_main.range_vm_px - p0;
                        }
                        eg_soft_raster_fast_paths = false;
                        ok = ok && render(d, fill_fmts[f], blends[b], v, n, (f + b + a + k) & 1u, slow, S, S);
                        eg_soft_raster_fast_paths = true;
                        eg_soft_set_threads(0);
                        eg_soft_const_range_max = keep;
                        if ((!ok || memcmp(fast, slow, (size_t)S * S * bpp) != 0) && bad++ < 4u)
                            eg_test_printf("    width %u format %u blend %u alpha %u shape %u differs\n", wide, f, b, a, k);
                    }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(regions > 0u);
    EG_EXPECT(vm_px > 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Probes (rrect10, session 10: soft_raster_const.c probe_differs). A probe skips a region proof
 * when the program's outputs at the pixel set's corners differ by more than a proof allows; it
 * must only skip proofs that fail (eg_soft_const_probe_check runs them anyway and counts those
 * that hold). The SDF shape over the regions test's quad and triangle, over quads it fills
 * exactly (the bench's rounded rectangles: 1 px a unit, alpha 1.0 at the first pixel inside),
 * and over 72x72 RGB565 targets through the bands test's windows (corner arcs in whole regions,
 * strips, quarters and the interior), 3 blends, alpha 170 and 255, at the default range width
 * and at 1 (the probe's threshold follows it), over the patterned background and over one of
 * equal rows (the range fill's 16-byte runs, soft_raster_fill.c rfill_row): probes skipped
 * proofs, none of them would have held, and the bytes equal the fast paths off. Fails when the
 * probe's threshold is 0 or its corner pixels are one off outwards (tried: 2 772 and 120 skipped
 * proofs held), and when rfill_row's run store writes other bytes (tried: 27 cases differ). */
EG_TEST(soft_fill, probes_skip_only_failing_proofs)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    const WGPUTextureFormat *fmts = fill_fmts;
    static const WGPUBlendState alpha2 = {
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha } };
    const WGPUBlendState *blends[3] = { &premul, &straight, &alpha2 };
    static const float uv[6][4] = { { 0.35f, 0.65f, 0.35f, 0.65f }, { 0.3f, 0.7f, 0.3f, 0.7f }, { 0.0f, 1.0f, 0.0f, 1.0f },
                                    { 0.2f, 0.62f, 0.31f, 0.66f }, { 0.33f, 0.8f, 0.05f, 0.7f }, { 0.28f, 0.74f, 0.3f, 0.58f } };
    static uint8_t fast[72u * 72u * 2u], slow[72u * 72u * 2u];
    const float keep = eg_soft_const_range_max;
    const float u0 = 5.0f / 24.0f, u1 = 19.0f / 24.0f, v0 = 7.0f / 24.0f, v1 = 17.0f / 24.0f;
    uint32_t bad = 0, skips = 0, wrong = 0;
    eg_soft_const_probe_check = true;
    for (uint32_t wide = 0; wide < 4u; wide++)
        for (uint32_t b = 0; b < 3u; b++)
            for (uint32_t a = 0; a < 2u; a++)
                for (uint32_t k = 0; k < 3u + 12u; k++) {
                    uint8_t al = a ? 255 : 170;
                    /* k 0..2: 32x32 targets of format (k + b) % 3; k 3..14: 72x72 RGB565 windows */
                    uint32_t f = k < 3u ? (k + b) % 3u : 2u, W = k < 3u ? S : 72u, n = 6, bpp = f == 2u ? 2u : 4u;
                    svtx_t v[12] = { vtx(0.6f, 1.3f, 0, 0, al), vtx(31.3f, 1.3f, 1, 0, al), vtx(0.6f, 30.8f, 0, 1, al),
                                     vtx(31.3f, 1.3f, 1, 0, al), vtx(31.3f, 30.8f, 1, 1, al), vtx(0.6f, 30.8f, 0, 1, al) };
                    if (k == 1u) {   /* one slanted triangle, vertices outside the target */
                        v[0] = vtx(-3.1f, 2.2f, 0, 0, al);
                        v[1] = vtx(35.5f, 9.7f, 1.2f, 0.3f, al);
                        v[2] = vtx(7.4f, 33.9f, 0.2f, 1.1f, al);
                        n = 3;
                    }
                    for (uint32_t q = 0; k == 2u && q < 2u; q++) {   /* two quads the shape fills */
                        float x0 = q ? 15.0f : 1.0f, y0 = q ? 19.0f : 2.0f, x1 = x0 + 14.0f, y1 = y0 + 10.0f;
                        svtx_t *o = v + 6u * q;
                        o[0] = vtx(x0, y0, u0, v0, al); o[1] = vtx(x1, y0, u1, v0, al); o[2] = vtx(x0, y1, u0, v1, al);
                        o[3] = vtx(x1, y0, u1, v0, al); o[4] = vtx(x1, y1, u1, v1, al); o[5] = vtx(x0, y1, u0, v1, al);
                        n = 12;
                    }
                    if (k >= 3u) {   /* a window of the shape, quad edges off or on pixel boundaries */
                        const float *w = uv[(k - 3u) / 2u];
                        bool on = (k - 3u) & 1u;
                        float x0 = on ? 0.0f : 0.3f, x1 = on ? 32.0f : 31.6f, y0 = on ? 0.0f : 0.6f, y1 = on ? 32.0f : 31.2f;
                        v[0] = vtx(x0, y0, w[0], w[2], al); v[1] = vtx(x1, y0, w[1], w[2], al); v[2] = vtx(x0, y1, w[0], w[3], al);
                        v[3] = vtx(x1, y0, w[1], w[2], al); v[4] = vtx(x1, y1, w[1], w[3], al); v[5] = vtx(x0, y1, w[0], w[3], al);
                    }
                    eg_soft_const_range_max = wide & 1u ? 1.0f : keep;
                    rows_bg = wide >> 1;
                    eg_soft_set_threads(1);
                    uint32_t s0 = eg_soft_worker_main.probe_skips, w0 = eg_soft_worker_main.probe_wrong;
                    bool ok = render(d, fmts[f], blends[b], v, n, false, fast, W, W);
                    skips += eg_soft_worker_main.probe_skips - s0;
                    wrong += eg_soft_worker_main.probe_wrong - w0;
                    eg_soft_raster_fast_paths = false;
                    ok = ok && render(d, fmts[f], blends[b], v, n, false, slow, W, W);
                    eg_soft_raster_fast_paths = true;
                    eg_soft_set_threads(0);
                    eg_soft_const_range_max = keep;
                    rows_bg = false;
                    if ((!ok || memcmp(fast, slow, (size_t)W * W * bpp) != 0) && bad++ < 4u)
                        eg_test_printf("    width/rows %u blend %u alpha %u case %u differs\n", wide, b, a, k);
                }
    eg_soft_const_probe_check = false;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(skips > 0u);
    EG_EXPECT_EQ_U(wrong, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* ---- quad pairs as one rectangle (soft_raster_rect.c, helper "rectpair", session 12) ---- */

/* the rectangle tests' images (one pair of buffers for both: static memory on MCU boards) */
static uint8_t rect_on[64u * 40u * 4u], rect_off[64u * 40u * 4u];

/* The quad [x0, x1) x [y0, y1) (target pixels of a W px wide, H px tall target) with texture
 * coordinates [u0, u1] x [v0, v1]: 6 list vertices at o, or (strip) 4 strip vertices. */
static uint32_t rect_quad(svtx_t *o, bool strip, float W, float H, float x0, float y0, float x1, float y1, const float uv[4],
                          uint8_t al)
{
    const float sx = 32.0f / W, sy = 32.0f / H;
    svtx_t a = vtx(x0 * sx, y0 * sy, uv[0], uv[2], al), b = vtx(x1 * sx, y0 * sy, uv[1], uv[2], al);
    svtx_t c = vtx(x0 * sx, y1 * sy, uv[0], uv[3], al), e = vtx(x1 * sx, y1 * sy, uv[1], uv[3], al);
    if (strip) { o[0] = a; o[1] = b; o[2] = c; o[3] = e; return 4; }
    o[0] = a; o[1] = b; o[2] = c; o[3] = b; o[4] = e; o[5] = c;
    return 6;
}

/* Rectangle pairs through the API, the rectangle path on and off (eg_soft_rect_pair_on): the
 * SDF rounded rectangle filling its quad (corners fail, sides and middle hold: every level of
 * pieces and the walk of failed cells) and a window of its inside only (constant: the whole
 * rectangle holds), quads as a triangle list (repeated positions) and as a strip (shared
 * vertices), at fractional positions, crossing the target's edge, a corner on a pixel centre
 * (no rectangle: drawn as two triangles), with and without a scissor, RGBA8 / BGRA8 / RGB565,
 * alpha 170 and 255 (a fill), on 1 worker and on 2 with 16 px tiles (binned: pieces cut at
 * tile borders, the pair through its bin records), with the second triangle's proofs off
 * (eg_soft_rect_pair_again: each triangle shades its part of the first's proved pieces), and at
 * the range width 1 (eg_soft_const_range_max: wide ranges, whose open pixels go through the
 * program of the triangle covering each, soft_raster_fill.c amb_flush): the same bytes, and the rectangle path filled pixels (rect_px of the submitting thread's worker,
 * 1 worker). Fails when the rectangle's right side is one column off (tried: 96 cases differ). */
EG_TEST(soft_fill, rect_pairs_match_two_triangles)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    enum { RW = 64, RH = 32 };   /* (vtx's units exact in target pixels: 0.5 and 1 px) */
    uint8_t *const on = rect_on, *const off = rect_off;
    static const float uvs[2][4] = { { 5.0f / 24.0f, 19.0f / 24.0f, 7.0f / 24.0f, 17.0f / 24.0f },
                                     { 0.35f, 0.65f, 0.4f, 0.6f } };
    /* quads in target pixels: fractional, off the target's left / bottom edge, corners at pixel
     * centres, aligned to blocks, wide and thin, two of the shape at 1 px a unit (the
     * bench's: alpha 1.0 at the first pixel inside, proofs in narrow ranges) in one draw */
    static const float quads[8][4] = { { 2.3f, 3.6f, 61.2f, 29.1f }, { -6.4f, 9.2f, 40.7f, 36.5f },
                                       { 3.5f, 4.5f, 40.5f, 27.5f }, { 4.0f, 8.0f, 60.0f, 28.0f },
                                       { 1.7f, 2.2f, 62.6f, 11.9f }, { 17.1f, 0.4f, 29.8f, 31.3f },
                                       { 2.0f, 3.0f, 16.0f, 13.0f }, { 21.4f, 17.0f, 35.4f, 27.0f } };
    const float keep = eg_soft_const_range_max;
    uint32_t bad = 0, cases = 0, px = 0, open = 0;
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t a = 0; a < 2u; a++)
            for (uint32_t q = 0; q < 7u; q++)
                for (uint32_t k = 0; k < 32u; k++) {
                    bool strip = (k & 1u) && q < 6u, scissor = (k >> 1) & 1u, two = (k >> 2) & 1u;
                    eg_soft_rect_pair_again = (k >> 3) & 1u;
                    eg_soft_const_range_max = (k >> 4) ? 1.0f : keep;   /* wide ranges: open pixels */
                    const float *uv = uvs[q < 6u ? (q + f) & 1u : 0u];
                    svtx_t v[12];
                    uint32_t n = rect_quad(v, strip, RW, RH, quads[q][0], quads[q][1], quads[q][2], quads[q][3], uv,
                                           a ? 255 : 170);
                    if (q == 6u) n += rect_quad(v + 6, false, RW, RH, quads[7][0], quads[7][1], quads[7][2], quads[7][3],
                                                uv, a ? 255 : 170);
                    uint32_t bpp = f == 2u ? 2u : 4u;
                    sdf_strip = strip;
                    eg_soft_set_threads(two ? 2u : 1u);
                    eg_soft_bin_set_tile_px(two ? 16u : 0u);
                    uint32_t p0 = eg_soft_worker_main.rect_px, o0 = eg_soft_worker_main.range_vm_px;
                    bool ok = render(d, fill_fmts[f], &premul, v, n, scissor, on, RW, RH);
                    if (!two) px += eg_soft_worker_main.rect_px - p0;
                    if (!two && !eg_soft_rect_pair_again) open += eg_soft_worker_main.range_vm_px - o0;
                    eg_soft_rect_pair_on = false;
                    eg_soft_rect_pair_again = false;
                    ok = ok && render(d, fill_fmts[f], &premul, v, n, scissor, off, RW, RH);
                    eg_soft_rect_pair_on = true;
                    eg_soft_const_range_max = keep;
                    eg_soft_bin_set_tile_px(0);
                    eg_soft_set_threads(0);
                    sdf_strip = false;
                    cases++;
                    if ((!ok || memcmp(on, off, (size_t)RW * RH * bpp) != 0) && bad++ < 4u)
                        eg_test_printf("    format %u alpha %u quad %u case %u differs\n", f, a, q, k);
                }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(px > cases * 25u);   /* the rectangle path took most of the quads' pixels */
    EG_EXPECT(open > 0u);          /* a range fill's open pixels went to their triangles */
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The rectangle path's cuts of a failed top or bottom row (rect_first, helper rectc, session
 * 13): its 4 px ramp strip and the rest, each in cells, the side cells shaded without a proof,
 * the middles proved without a probe; where the whole rectangle failed, the rows cut without
 * trying them whole (session 14). The bench's rounded rectangle (span_rrect.frag: 48 x 36 px,
 * radius 12, a 1 px ramp) filling its quad at block-aligned and fractional positions, the
 * shape inside a larger quad (the strips and middles then hold alpha 0 or fail: their
 * fallbacks), a quad crossing the target's edges and one cut by the scissor, as a list and as a
 * strip, RGBA8 / BGRA8 / RGB565, alpha 170 and 255, 1 worker and 2 with 16 px tiles (cells cut
 * at tile borders), the second's proofs off (eg_soft_rect_pair_again) and ranges of width 1:
 * the same bytes as the quads drawn as two triangles (eg_soft_rect_pair_on off), and the
 * corners' insides filled (rect_px of the exact quads on 1 worker: the cells of the old cuts
 * left 4 corner cells of 9 to 12 blocks to the program). Fails when the rest's cells start one
 * row late (tried: 360 cases differ) and with the old cuts (rect_px 1 313 a render). */
EG_TEST(soft_fill, rect_pair_ramp_rows_match_two_triangles)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    enum { RW = 56, RH = 40 };   /* (RW * RH * 4 <= WMAX * WMAX * 4: render's background) */
    uint8_t *const on = rect_on, *const off = rect_off;
    /* quads in target pixels (x0, y0, x1, y1): the shape's own (48 x 36) at block-aligned,
     * odd and fractional positions, larger ones, one crossing the target's left and top edges */
    static const float quads[7][4] = { { 4.0f, 0.0f, 52.0f, 36.0f }, { 6.0f, 3.0f, 54.0f, 39.0f },
                                       { 2.3f, 1.6f, 50.3f, 37.6f }, { 5.0f, 2.0f, 53.0f, 38.0f },
                                       { 1.4f, 0.7f, 55.2f, 39.4f }, { -5.5f, -3.2f, 42.5f, 32.8f },
                                       { 3.0f, 1.0f, 51.0f, 39.0f } };
    const float keep = eg_soft_const_range_max;
    uint32_t bad = 0, px = 0, renders = 0, skips = 0;
    sdf_frag = "span_rrect.frag";
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t a = 0; a < 2u; a++)
            for (uint32_t q = 0; q < 7u; q++)
                for (uint32_t k = 0; k < 32u; k++) {
                    bool strip = k & 1u, scissor = (k >> 1) & 1u, two = (k >> 2) & 1u;
                    eg_soft_rect_pair_again = (k >> 3) & 1u;
                    eg_soft_const_range_max = (k >> 4) ? 1.0f : keep;
                    /* the shape's units: 1 px a unit, centred on the quad (a larger quad: the
                     * shape inside it) */
                    const float *Q = quads[q];
                    const float hw = (Q[2] - Q[0]) * 0.5f, hh = (Q[3] - Q[1]) * 0.5f;
                    const float uv[4] = { -hw, hw, -hh, hh };
                    svtx_t v[6];
                    uint32_t n = rect_quad(v, strip, RW, RH, Q[0], Q[1], Q[2], Q[3], uv, a ? 255 : 170);
                    uint32_t bpp = f == 2u ? 2u : 4u;
                    sdf_strip = strip;
                    eg_soft_set_threads(two ? 2u : 1u);
                    eg_soft_bin_set_tile_px(two ? 16u : 0u);
                    uint32_t p0 = eg_soft_worker_main.rect_px, s0 = eg_soft_worker_main.probe_skips;
                    bool ok = render(d, fill_fmts[f], &premul, v, n, scissor, on, RW, RH);
                    if (!two && !scissor && !eg_soft_rect_pair_again && q < 4u) {
                        px += eg_soft_worker_main.rect_px - p0;
                        skips += eg_soft_worker_main.probe_skips - s0;
                        renders++;
                    }
                    eg_soft_rect_pair_on = false;
                    eg_soft_rect_pair_again = false;
                    ok = ok && render(d, fill_fmts[f], &premul, v, n, scissor, off, RW, RH);
                    eg_soft_rect_pair_on = true;
                    eg_soft_const_range_max = keep;
                    eg_soft_bin_set_tile_px(0);
                    eg_soft_set_threads(0);
                    sdf_strip = false;
                    if ((!ok || memcmp(on, off, (size_t)RW * RH * bpp) != 0) && bad++ < 4u)
                        eg_test_printf("    format %u alpha %u quad %u case %u differs\n", f, a, q, k);
                }
    sdf_frag = "span_sdf.frag";
    EG_EXPECT_EQ_U(bad, 0u);
    /* the exact quads' 1 728 px: ~1 461 filled a render, ~1 313 with the old cuts */
    EG_EXPECT(px > renders * 1400u);
    /* one failed probe a render, the whole rectangle's: its top and bottom rows are cut without
     * their own (session 14, rectvm; 3 a render when they probed) */
    EG_EXPECT(renders > 0u && skips <= renders);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The rect path's proof memo (soft_raster_const.c pxset_eval, helper rectcut, session 15): the
 * bench's rounded rectangle (span_rrect.frag, 48 x 36 px, radius 12) as several quads in one
 * draw: one moved by (4, 4) px from another (every exact edge value the same: the memo's hits),
 * one at another phase (5, 2), one at the first's place in another colour (its pass-through
 * channels are not in the key: read from its own triangle) and one there at another alpha (a
 * value the proof's ops read: another key), one crossing the target's left and top edges
 * (clipped sets); RGBA8 / BGRA8 / RGB565, alpha 170 and 255, with and without the scissor, on 1
 * worker and on 2 with 16 px tiles (cells cut at tile borders), ranges of width 1
 * (eg_soft_const_range_max, in the key). The memo's every hit is recomputed
 * (eg_soft_proof_memo_verify) and must match, and the bytes must be those of the quads drawn as
 * two triangles each (eg_soft_rect_pair_on off) and of the rect path with the memo off; where
 * the memo is compiled in (eg_soft_proof_memo_entries) its hits must have happened (the
 * submitting thread's worker). */
EG_TEST(soft_fill, rect_pair_proof_memo_matches)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    enum { RW = 56, RH = 40 };
    static uint8_t nomemo[RW * RH * 4];
    uint8_t *const on = rect_on, *const off = rect_off;
    /* x0, y0 (a 48 x 36 quad), red, alpha's xor with the case's alpha */
    static const float quads[6][4] = { { 4.0f, 0.0f, 60.0f, 0.0f }, { 8.0f, 4.0f, 200.0f, 0.0f },
                                       { 5.0f, 2.0f, 120.0f, 0.0f }, { 4.0f, 0.0f, 10.0f, 0.0f },
                                       { 4.0f, 0.0f, 60.0f, 85.0f }, { -4.0f, -2.0f, 250.0f, 0.0f } };
    static const uint8_t sets[3][4] = { { 0, 1, 3, 4 }, { 2, 5, 1, 0 }, { 4, 0, 1, 2 } };
    const float keep = eg_soft_const_range_max;
    const bool ver = eg_soft_proof_memo_verify;
    uint32_t bad = 0, wrong = 0, hits = 0;
    sdf_frag = "span_rrect.frag";
    eg_soft_proof_memo_verify = true;
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t a = 0; a < 2u; a++)
            for (uint32_t g = 0; g < 3u; g++)
                for (uint32_t k = 0; k < 8u; k++) {
                    bool scissor = k & 1u, two = (k >> 1) & 1u;
                    eg_soft_const_range_max = (k >> 2) ? 1.0f : keep;
                    const float uv[4] = { -24.0f, 24.0f, -18.0f, 18.0f };
                    svtx_t v[24];
                    uint32_t n = 0;
                    for (uint32_t i = 0; i < 4u; i++) {
                        const float *Q = quads[sets[g][i]];
                        uint32_t m = rect_quad(v + n, false, RW, RH, Q[0], Q[1], Q[0] + 48.0f, Q[1] + 36.0f, uv,
                                               (uint8_t)((a ? 255u : 170u) ^ (uint32_t)Q[3]));
                        for (uint32_t j = n; j < n + m; j++) v[j].color[0] = (uint8_t)Q[2];
                        n += m;
                    }
                    uint32_t bpp = f == 2u ? 2u : 4u;
                    eg_soft_set_threads(two ? 2u : 1u);
                    eg_soft_bin_set_tile_px(two ? 16u : 0u);
                    uint32_t h0 = eg_soft_worker_main.proof_memo_hits, w0 = eg_soft_worker_main.proof_memo_wrong;
                    bool ok = render(d, fill_fmts[f], &premul, v, n, scissor, on, RW, RH);
                    hits += eg_soft_worker_main.proof_memo_hits - h0;
                    wrong += eg_soft_worker_main.proof_memo_wrong - w0;
                    eg_soft_proof_memo_on = false;
                    ok = ok && render(d, fill_fmts[f], &premul, v, n, scissor, nomemo, RW, RH);
                    eg_soft_proof_memo_on = true;
                    eg_soft_rect_pair_on = false;
                    ok = ok && render(d, fill_fmts[f], &premul, v, n, scissor, off, RW, RH);
                    eg_soft_rect_pair_on = true;
                    eg_soft_const_range_max = keep;
                    eg_soft_bin_set_tile_px(0);
                    eg_soft_set_threads(0);
                    const size_t sz = (size_t)RW * RH * bpp;
                    if ((!ok || memcmp(on, off, sz) != 0 || memcmp(on, nomemo, sz) != 0) && bad++ < 4u)
                        eg_test_printf("    format %u alpha %u set %u case %u differs\n", f, a, g, k);
                }
    sdf_frag = "span_sdf.frag";
    eg_soft_proof_memo_verify = ver;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong, 0u);
    if (eg_soft_proof_memo_entries()) EG_EXPECT(hits > 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The corner memo (soft_raster_shade.c cm_*, helper cornermemo, session 16): the rect path's
 * program blocks (the rounded corners, region_blocks) taking their computed channel (alpha) from
 * the memo. The bench's rounded rectangle (span_rrect.frag, radius 12) as 4 quads in one draw,
 * from: a 48 x 36 quad, one moved by (4, 4) px in another colour (every exact edge value the
 * same: hits, the pass-through rgb read from its own triangle), one at another phase (5, 2), one
 * at the first's place at another alpha (a value the alpha reads: another key), a 40 x 30 quad
 * (the same shape units over fewer pixels: other gradients) and that one moved by (4, 4), one
 * crossing the target's left and top edges (clipped coverage masks); RGBA8 / BGRA8 / RGB565,
 * alpha 170 and 255, with and without the scissor, on 1 worker and on 2 with 16 px tiles
 * (blocks cut at tile borders). Every hit is recomputed (eg_soft_corner_memo_verify) and must
 * match; the bytes (a second render, the hits' own outputs) must be those with the memo off; where the memo is compiled in and the
 * program blocks ran (vm_blocks: AVX2 hosts), its hits must have happened (the submitting
 * thread's worker). */
EG_TEST(soft_fill, rect_corner_memo_matches)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only fast path"); }
    enum { RW = 56, RH = 40 };
    uint8_t *const on = rect_on, *const off = rect_off;
    /* x0, y0, w, h, red, alpha's xor with the case's alpha */
    static const float quads[8][6] = { { 4, 0, 48, 36, 60, 0 },   { 8, 4, 48, 36, 200, 0 }, { 5, 2, 48, 36, 120, 0 },
                                       { 4, 0, 48, 36, 10, 85 },  { 6, 3, 40, 30, 250, 0 }, { 10, 7, 40, 30, 90, 0 },
                                       { -4, -2, 48, 36, 30, 0 }, { 12, 8, 40, 30, 140, 0 } };
    static const uint8_t sets[4][4] = { { 0, 1, 3, 2 }, { 4, 5, 6, 0 }, { 1, 7, 5, 3 }, { 6, 2, 4, 0 } };
    const bool ver = eg_soft_corner_memo_verify;
    uint32_t bad = 0, wrong = 0, hits = 0, vmb = 0;
    sdf_frag = "span_rrect.frag";
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t a = 0; a < 2u; a++)
            for (uint32_t g = 0; g < 4u; g++)
                for (uint32_t k = 0; k < 4u; k++) {
                    bool scissor = k & 1u, two = (k >> 1) & 1u;
                    const float uv[4] = { -24.0f, 24.0f, -18.0f, 18.0f };
                    svtx_t v[24];
                    uint32_t n = 0;
                    for (uint32_t i = 0; i < 4u; i++) {
                        const float *Q = quads[sets[g][i]];
                        uint32_t m = rect_quad(v + n, false, RW, RH, Q[0], Q[1], Q[0] + Q[2], Q[1] + Q[3], uv,
                                               (uint8_t)((a ? 255u : 170u) ^ (uint32_t)Q[5]));
                        for (uint32_t j = n; j < n + m; j++) v[j].color[0] = (uint8_t)Q[4];
                        n += m;
                    }
                    uint32_t bpp = f == 2u ? 2u : 4u;
                    eg_soft_set_threads(two ? 2u : 1u);
                    eg_soft_bin_set_tile_px(two ? 16u : 0u);
                    const eg_soft_worker_t *w = &eg_soft_worker_main;
                    uint32_t h0 = w->corner_memo_hits, w0 = w->corner_memo_wrong, v0 = w->vm_blocks;
                    eg_soft_corner_memo_verify = true;   /* (its hits write the recomputed outputs) */
                    bool ok = render(d, fill_fmts[f], &premul, v, n, scissor, on, RW, RH);
                    eg_soft_corner_memo_verify = false;
                    hits += w->corner_memo_hits - h0;
                    wrong += w->corner_memo_wrong - w0;
                    vmb += w->vm_blocks - v0;
                    ok = ok && render(d, fill_fmts[f], &premul, v, n, scissor, on, RW, RH);
                    eg_soft_corner_memo_on = false;
                    ok = ok && render(d, fill_fmts[f], &premul, v, n, scissor, off, RW, RH);
                    eg_soft_corner_memo_on = true;
                    eg_soft_bin_set_tile_px(0);
                    eg_soft_set_threads(0);
                    if ((!ok || memcmp(on, off, (size_t)RW * RH * bpp) != 0) && bad++ < 4u)
                        eg_test_printf("    format %u alpha %u set %u case %u differs\n", f, a, g, k);
                }
    sdf_frag = "span_sdf.frag";
    eg_soft_corner_memo_verify = ver;
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong, 0u);
    if (eg_soft_corner_memo_entries() && vmb) EG_EXPECT(hits > 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
