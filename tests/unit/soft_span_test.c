/* Tests of the soft span fast path (hal/soft/soft_span.c): the same draws rendered with
 * eg_soft_raster_fast_paths on and off must give the same bytes for every target format, blend
 * class and shader class, and the span pixel counter proves which path ran. The fused rows'
 * tests are in soft_span_fused_test.c; the helpers both use are declared in soft_span_util.h. */
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"
#include <emgpu/emgpu.h>

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bench.h"
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_span.h"
#include "tests/unit/soft_span_util.h"

static WGPUShaderModule module(WGPUDevice d, const char *name)
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

/* The vertex shader of the pipelines below (span_lin.vert for noperspective colors). */
const char *span_vs = "span.vert";

bool span_strip_quads;

static WGPURenderPipeline pipeline(WGPUDevice d, const char *fs_name, WGPUTextureFormat fmt, const WGPUBlendState *blend)
{
    WGPUShaderModule vs = module(d, span_vs), fs = module(d, fs_name);
    WGPUVertexAttribute va[3] = { WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT };
    va[0].format = WGPUVertexFormat_Float32x4;
    va[1].format = WGPUVertexFormat_Float32x2; va[1].offset = 16; va[1].shaderLocation = 1;
    va[2].format = WGPUVertexFormat_Unorm8x4; va[2].offset = 24; va[2].shaderLocation = 2;
    WGPUVertexBufferLayout vb = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    vb.arrayStride = sizeof(svtx_t);
    vb.attributeCount = 3;
    vb.attributes = va;
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    t.format = fmt;
    t.blend = blend;
    WGPUFragmentState f = WGPU_FRAGMENT_STATE_INIT;
    f.module = fs;
    f.targetCount = 1;
    f.targets = &t;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = vs;
    pd.vertex.bufferCount = 1;
    pd.vertex.buffers = &vb;
    pd.fragment = &f;
    if (span_strip_quads) pd.primitive.topology = WGPUPrimitiveTopology_TriangleStrip;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    return p;
}

/* The texel bytes of tex_group's texture (RGBA8, RGB565 when bpp is 2, R8 when 1): a pattern in
 * every channel, n texels. */
void span_tex_pattern(uint8_t *px, uint32_t bpp, uint32_t n)
{
    for (uint32_t i = 0; bpp == 1u && i < n; i++)   /* R8: glyph-like coverage 0, 255 and between */
        px[i] = (uint8_t)(i % 3u == 0u ? 0u : i % 3u == 1u ? 255u : i * 37u);
    for (uint32_t i = 0; bpp > 1u && i < n; i++) {
        px[bpp * i] = (uint8_t)(i * 37u);
        px[bpp * i + 1] = (uint8_t)(255u - i * 11u);
        if (bpp == 2u) continue;
        px[4 * i + 2] = (uint8_t)((i & 7u) * 36u);
        px[4 * i + 3] = (uint8_t)(i * 4u + 3u);
    }
}

WGPUAddressMode span_address;

/* An 8x8 texture (mips levels; RGBA8 unless tex_fmt says RGB565) with tex_pattern, and a bind
 * group for it. */
static WGPUBindGroup tex_group(WGPUDevice d, WGPURenderPipeline p, uint32_t mips, uint32_t size, WGPUFilterMode filter,
                               WGPUTextureFormat tex_fmt, WGPUTexture *tex_out)
{
    uint32_t bpp = tex_fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : tex_fmt == WGPUTextureFormat_R8Unorm ? 1u : 4u;
    WGPUTexture tex = t_texture(d, bpp != 4u ? tex_fmt : WGPUTextureFormat_RGBA8Unorm, size, size, 1, mips,
                                1, WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    static uint8_t px[S * S * 4];
    span_tex_pattern(px, bpp, size * size);
    WGPUTexelCopyTextureInfo ti = t_tex_info(tex, 0, 0, 0, 0);
    WGPUTexelCopyBufferLayout bl = { 0, size * bpp, size };
    WGPUExtent3D sz = t_extent(size, size, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &ti, px, size * size * bpp, &bl, &sz);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.magFilter = filter;
    sd.minFilter = filter;
    if (span_address != WGPUAddressMode_Undefined) sd.addressModeU = sd.addressModeV = span_address;
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

svtx_t span_vtx(float px, float py, float w, float u, float v, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    svtx_t o = { { (px / 16.0f - 1.0f) * w, (1.0f - py / 16.0f) * w, 0.0f, w }, { u, v }, { r, g, b, a } };
    return o;
}

/* The test geometry: a quad at fractional pixel positions (two triangles), a slanted triangle,
 * a perspective triangle (w 1, 2, 1.5) and a thin sliver crossing the scissor. */
static uint32_t geometry(svtx_t *v)
{
    uint32_t n = 0;
    v[n++] = span_vtx(1.3f, 2.6f, 1, -0.1f, 0.0f, 255, 0, 40, 255);
    v[n++] = span_vtx(20.7f, 2.6f, 1, 1.1f, 0.0f, 0, 255, 90, 200);
    v[n++] = span_vtx(1.3f, 18.2f, 1, -0.1f, 1.0f, 30, 60, 255, 120);
    v[n++] = span_vtx(20.7f, 2.6f, 1, 1.1f, 0.0f, 0, 255, 90, 200);
    v[n++] = span_vtx(20.7f, 18.2f, 1, 1.1f, 1.0f, 255, 255, 255, 30);
    v[n++] = span_vtx(1.3f, 18.2f, 1, -0.1f, 1.0f, 30, 60, 255, 120);
    v[n++] = span_vtx(6.1f, 9.9f, 1, 0.2f, 0.9f, 200, 100, 0, 160);
    v[n++] = span_vtx(30.9f, 14.2f, 1, 0.9f, 0.3f, 10, 250, 250, 90);
    v[n++] = span_vtx(12.4f, 31.7f, 1, 0.5f, 0.1f, 120, 30, 200, 250);
    v[n++] = span_vtx(16.0f, 0.5f, 1, 0.0f, 0.0f, 255, 255, 0, 255);
    v[n++] = span_vtx(31.5f, 30.0f, 2, 1.0f, 0.5f, 0, 128, 255, 128);
    v[n++] = span_vtx(3.5f, 25.5f, 1.5f, 0.3f, 1.0f, 255, 0, 128, 64);
    v[n++] = span_vtx(-4.0f, 29.1f, 1, 0.0f, 0.0f, 90, 90, 90, 255);
    v[n++] = span_vtx(40.0f, 27.4f, 1, 1.0f, 1.0f, 250, 10, 10, 255);
    v[n++] = span_vtx(-4.0f, 30.3f, 1, 0.0f, 1.0f, 10, 250, 10, 100);
    return n;
}


uint32_t span_tex_size2;

/* Renders the geometry over a patterned clear into a fresh S x S target; img gets the bytes. */
uint32_t span_target_w, span_target_h;

bool span_render(const run_t *r, uint8_t *img, uint32_t bpp)
{
    const uint32_t tw = span_target_w ? span_target_w : S, th = span_target_h ? span_target_h : S;
    const uint32_t bpr = (tw * 4u + 255u) & ~255u;
    WGPUTexture rt = t_texture(r->d, r->fmt, tw, th, 1, 1, 1, WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView rv = wgpuTextureCreateView(rt, NULL);
    WGPURenderPipeline p = pipeline(r->d, r->fs, r->fmt, r->blend);
    WGPUTexture tex = NULL;
    WGPUBindGroup g = r->mips ? tex_group(r->d, p, r->mips, r->tex_size ? r->tex_size : 8u, r->filter, r->tex_fmt, &tex) : NULL;
    WGPUTexture tex2 = NULL;
    WGPUBindGroup g2 = r->mips && span_tex_size2 ? tex_group(r->d, p, r->mips, span_tex_size2, r->filter, r->tex_fmt, &tex2) : NULL;
    static svtx_t v[SPAN_MAX_VERTS];
    uint32_t n = geometry(v);
    if (r->verts) {
        n = r->nverts;
        memcpy(v, r->verts, n * sizeof v[0]);
    }
    WGPUBuffer vb = t_buffer(r->d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, n * sizeof v[0]);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, n * sizeof v[0]);
    WGPUCommandEncoder e = t_encoder(r->d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = rv;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    c.clearValue = (WGPUColor){ 0.2, 0.5, 0.7, 0.6 };
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &c;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    if (g) wgpuRenderPassEncoderSetBindGroup(rp, 0, g, 0, NULL);
    if (r->scissor) wgpuRenderPassEncoderSetScissorRect(rp, 3, 5, 23, 21);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, n * sizeof v[0]);
    uint32_t n1 = g2 ? n / 6u * 3u : n;   /* whole triangles */
    if (span_strip_quads)
        for (uint32_t q = 0; q + 4u <= n; q += 4u) wgpuRenderPassEncoderDraw(rp, 4, 1, q, 0);
    else
        wgpuRenderPassEncoderDraw(rp, n1, 1, 0, 0);
    if (g2) {
        wgpuRenderPassEncoderSetBindGroup(rp, 0, g2, 0, NULL);
        wgpuRenderPassEncoderDraw(rp, n - n1, 1, n1, 0);
    }
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUBuffer rb = t_buffer(r->d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, (uint64_t)bpr * th);
    WGPUTexelCopyTextureInfo ti = t_tex_info(rt, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, bpr, th);
    WGPUExtent3D sz = t_extent(tw, th, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    bool ok = true;
    for (uint32_t y = 0; y < th && ok; y++) ok = t_readback(r->d, rb, (uint64_t)y * bpr, tw * bpp, img + y * tw * bpp);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(vb);
    if (g) { wgpuBindGroupRelease(g); wgpuTextureRelease(tex); }
    if (g2) { wgpuBindGroupRelease(g2); wgpuTextureRelease(tex2); }
    wgpuRenderPipelineRelease(p);
    wgpuTextureViewRelease(rv);
    wgpuTextureRelease(rt);
    return ok;
}

/* Renders r with the fast paths on and off; true when the bytes are equal. *span gets the
 * pixels the span path filled with the fast paths on (0 expected with them off). */
static bool same_both_ways(const run_t *r, uint32_t *span)
{
    static uint8_t fast[S * S * 4], slow[S * S * 4];
    uint32_t bpp = r->fmt == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 4u;
    eg_soft_set_threads(1);   /* every triangle on the submitting thread's worker: its counter */
    uint32_t before = eg_soft_worker_main.span_px;
    bool ok = span_render(r, fast, bpp);
    *span = eg_soft_worker_main.span_px - before;
    eg_soft_raster_fast_paths = false;
    before = eg_soft_worker_main.span_px;
    ok = ok && span_render(r, slow, bpp);
    if (eg_soft_worker_main.span_px != before) ok = false;
    eg_soft_raster_fast_paths = true;
    eg_soft_set_threads(0);
    return ok && memcmp(fast, slow, (size_t)S * S * bpp) == 0;
}

/* The target formats every fast path serves. */
const WGPUTextureFormat span_fmts[3] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                                WGPUTextureFormat_EmgpuRGB565Unorm };

/* same_both_ways for one case of a sweep: a difference is counted in *bad (the first 4 printed
 * with `what` and the case's indices); returns whether the span path filled pixels. */
bool span_sweep(const run_t *r, uint32_t *bad, const char *what, uint32_t i, uint32_t j)
{
    uint32_t span = 0;
    if (!same_both_ways(r, &span) && (*bad)++ < 4) eg_test_printf("    %s case %u/%u differs\n", what, i, j);
    return span != 0u;
}

const WGPUBlendState span_premul = {
    { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha },
    { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha } };
const WGPUBlendState span_straight = {
    { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
    { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha } };

/* Every format x blend x shader class, with and without a scissor: identical bytes, and the span
 * path really filled pixels. */
EG_TEST(soft_span, matches_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[3] = { NULL, &span_premul, &span_straight };
    static const char *const fs[3] = { "span_copy.frag", "span_tex.frag", "span_glyph.frag" };
    uint32_t bad = 0, unused = 0;
    for (uint32_t s = 0; s < 3u; s++)
        for (uint32_t f = 0; f < 3u; f++)
            for (uint32_t b = 0; b < 3u; b++) {
                run_t r = { d, fs[s], span_fmts[f], blends[b], s ? 1u : 0u,
                            s == 1u ? WGPUFilterMode_Linear : WGPUFilterMode_Nearest, (s + f + b) & 1u,
                            WGPUTextureFormat_Undefined, NULL, 0, 0 };
                if (!span_sweep(&r, &bad, fs[s], f, b)) unused++;
            }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(unused, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Blits (output = the texel, no blend) of RGBA8 and RGB565 textures into every target format,
 * nearest and linear: identical bytes both ways; the texel-copy store (span_copy_px) ran exactly
 * for nearest sampling where the target holds the texel's bytes (RGBA8/BGRA8 <- RGBA8 with R and
 * B swapped for BGRA8, RGB565 <- RGB565), and never otherwise. */
EG_TEST(soft_span, texel_copy_matches_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const WGPUTextureFormat texs[2] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_EmgpuRGB565Unorm };
    uint32_t bad = 0, wrong_path = 0;
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t t = 0; t < 2u; t++)
            for (uint32_t lin = 0; lin < 2u; lin++) {
                run_t r = { d, "span_blit.frag", span_fmts[f], NULL, 1u,
                            lin ? WGPUFilterMode_Linear : WGPUFilterMode_Nearest, (f + t + lin) & 1u, texs[t], NULL, 0, 0 };
                uint32_t before = eg_soft_worker_main.span_copy_px;
                bool span = span_sweep(&r, &bad, lin ? "blit linear" : "blit nearest", f, t);
                uint32_t copied = eg_soft_worker_main.span_copy_px - before;
                bool want = !lin && (f == 2u) == (t == 1u);
                if (!span || (copied != 0u) != want) wrong_path++;
            }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(wrong_path, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Independent values: an 8x8 px quad at (4, 4) with uv 0..1 over the 8x8 texture and nearest
 * sampling puts pixel centre (x + 0.5) / 8 in texel x (WebGPU nearest: floor(u * width)), so the
 * target region holds the texture's bytes exactly (RGBA8 -> RGBA8 and RGB565 -> RGB565), all of
 * them stored by the texel copy. */
EG_TEST(soft_span, texel_copy_is_exact_blit)
{
    SOFT_DEVICE_OR_SKIP(d);
    svtx_t v[6] = { span_vtx(4, 4, 1, 0, 0, 0, 0, 0, 0), span_vtx(12, 4, 1, 1, 0, 0, 0, 0, 0), span_vtx(4, 12, 1, 0, 1, 0, 0, 0, 0),
                    span_vtx(12, 4, 1, 1, 0, 0, 0, 0, 0), span_vtx(12, 12, 1, 1, 1, 0, 0, 0, 0), span_vtx(4, 12, 1, 0, 1, 0, 0, 0, 0) };
    static uint8_t img[S * S * 4];
    for (uint32_t k = 0; k < 2u; k++) {
        WGPUTextureFormat fmt = k ? WGPUTextureFormat_EmgpuRGB565Unorm : WGPUTextureFormat_RGBA8Unorm;
        uint32_t bpp = k ? 2u : 4u;
        run_t r = { d, "span_blit.frag", fmt, NULL, 1u, WGPUFilterMode_Nearest, false, fmt, v, 6u, 0 };
        uint8_t want[8 * 8 * 4];
        span_tex_pattern(want, bpp, 64u);
        eg_soft_set_threads(1);
        uint32_t before = eg_soft_worker_main.span_copy_px;
        EG_ASSERT(span_render(&r, img, bpp));
        EG_EXPECT_EQ_U(eg_soft_worker_main.span_copy_px - before, 64u);
        eg_soft_set_threads(0);
        uint32_t wrong = 0;
        for (uint32_t y = 0; y < 8u; y++)
            wrong += memcmp(img + ((y + 4u) * S + 4u) * bpp, want + y * 8u * bpp, 8u * bpp) != 0;
        EG_EXPECT_EQ_U(wrong, 0u);
    }
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Source-over blending of pixels whose source alpha is 0 leaves them as they are: a quad with
 * vertex alpha 0 ([2, 12) x [2, 10) px: 80 pixels, edges on pixel boundaries) is skipped whole
 * (span_skip_px = 80), a quad with alpha 200 times a nonzero texel (texel (7, 7): r = 63 * 37 mod
 * 256 = 27) is blended; the bytes equal the general path's for every target format. With the
 * premultiplied blend (src factor One) a zero alpha still adds the color: nothing is skipped. */
EG_TEST(soft_span, zero_alpha_chunks_skipped)
{
    SOFT_DEVICE_OR_SKIP(d);
    svtx_t v[12] = { span_vtx(2, 2, 1, 0, 0, 250, 40, 9, 0), span_vtx(12, 2, 1, 1, 0, 250, 40, 9, 0), span_vtx(2, 10, 1, 0, 1, 250, 40, 9, 0),
                     span_vtx(12, 2, 1, 1, 0, 250, 40, 9, 0), span_vtx(12, 10, 1, 1, 1, 250, 40, 9, 0), span_vtx(2, 10, 1, 0, 1, 250, 40, 9, 0),
                     span_vtx(3, 14, 1, 0.9f, 0.9f, 20, 240, 90, 200), span_vtx(29, 14, 1, 0.9f, 0.9f, 20, 240, 90, 200),
                     span_vtx(3, 30, 1, 0.9f, 0.9f, 20, 240, 90, 200), span_vtx(29, 14, 1, 0.9f, 0.9f, 20, 240, 90, 200),
                     span_vtx(29, 30, 1, 0.9f, 0.9f, 20, 240, 90, 200), span_vtx(3, 30, 1, 0.9f, 0.9f, 20, 240, 90, 200) };
    uint32_t bad = 0, skips[2][3];
    for (uint32_t b = 0; b < 2u; b++)
        for (uint32_t f = 0; f < 3u; f++) {
            run_t r = { d, "span_glyph.frag", span_fmts[f], b ? &span_premul : &span_straight, 1u, WGPUFilterMode_Nearest, false,
                        WGPUTextureFormat_Undefined, v, 12u, 0 };
            uint32_t span = 0, before = eg_soft_worker_main.span_skip_px;
            if (!same_both_ways(&r, &span) || span != 80u + 26u * 16u) bad++;
            skips[b][f] = eg_soft_worker_main.span_skip_px - before;
        }
    EG_EXPECT_EQ_U(bad, 0u);
    for (uint32_t f = 0; f < 3u; f++) {
        EG_EXPECT_EQ_U(skips[0][f], 80u);
        EG_EXPECT_EQ_U(skips[1][f], 0u);
    }
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* A mipmapped texture makes the level of detail matter: the span path must decline (no span
 * pixels) and the result is the general path's. */
EG_TEST(soft_span, declines_when_lod_matters)
{
    SOFT_DEVICE_OR_SKIP(d);
    run_t r = { d, "span_tex.frag", WGPUTextureFormat_RGBA8Unorm, &span_straight, 2u, WGPUFilterMode_Linear, false,
                WGPUTextureFormat_Undefined, NULL, 0, 0 };
    uint32_t span = 1;
    EG_EXPECT(same_both_ways(&r, &span));
    EG_EXPECT_EQ_U(span, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Draws the rectangle [2, 10) x [3, 7) px in color (10, 20, 30, 40) with p into a cleared S x S
 * RGBA8 target; rows 0..9 of the result go to img. */
static bool draw_rect(WGPUDevice d, WGPURenderPipeline p, uint8_t img[10][S * 4])
{
    WGPUTexture rt = t_texture(d, WGPUTextureFormat_RGBA8Unorm, S, S, 1, 1, 1,
                               WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView rv = wgpuTextureCreateView(rt, NULL);
    svtx_t v[6] = { span_vtx(2, 3, 1, 0, 0, 10, 20, 30, 40), span_vtx(10, 3, 1, 0, 0, 10, 20, 30, 40),
                    span_vtx(2, 7, 1, 0, 0, 10, 20, 30, 40), span_vtx(10, 3, 1, 0, 0, 10, 20, 30, 40),
                    span_vtx(10, 7, 1, 0, 0, 10, 20, 30, 40), span_vtx(2, 7, 1, 0, 0, 10, 20, 30, 40) };
    WGPUBuffer vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof v);
    wgpuQueueWriteBuffer(eg_test_queue(), vb, 0, v, sizeof v);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = rv;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &c;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, sizeof v);
    wgpuRenderPassEncoderDraw(rp, 6, 1, 0, 0);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUBuffer rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256u * S);
    WGPUTexelCopyTextureInfo ti = t_tex_info(rt, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(rb, 0, 256, S);
    WGPUExtent3D sz = t_extent(S, S, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    bool ok = true;
    for (uint32_t y = 0; y < 10u && ok; y++) ok = t_readback(d, rb, (uint64_t)y * 256u, S * 4u, img[y]);
    wgpuBufferRelease(rb);
    wgpuBufferRelease(vb);
    wgpuTextureViewRelease(rv);
    wgpuTextureRelease(rt);
    return ok;
}

/* Pixels of img (rows 0..9) that differ from `inside` within [2, 10) x [3, 7) or from 0 outside. */
static uint32_t rect_wrong(uint8_t img[10][S * 4], const uint8_t inside[4])
{
    static const uint8_t zero[4] = { 0, 0, 0, 0 };
    uint32_t wrong = 0;
    for (uint32_t y = 0; y < 10u; y++)
        for (uint32_t x = 0; x < S; x++) {
            bool in = x >= 2u && x < 10u && y >= 3u && y < 7u;
            wrong += memcmp(img[y] + 4 * x, in ? inside : zero, 4) != 0;
        }
    return wrong;
}

/* Independent values: a rectangle with edges on pixel boundaries [2, 10) x [3, 7) in one
 * constant color covers exactly those pixels (pixel centres strictly inside or on the top/left
 * edges), and span_copy.frag writes (b, g, r, 0.75): color (10, 20, 30) -> bytes (30, 20, 10,
 * round(0.75 * 255) = 191). All 8 x 4 pixels come from spans. */
EG_TEST(soft_span, rectangle_coverage_and_values)
{
    SOFT_DEVICE_OR_SKIP(d);
    WGPURenderPipeline p = pipeline(d, "span_copy.frag", WGPUTextureFormat_RGBA8Unorm, NULL);
    static uint8_t img[10][S * 4];
    static const uint8_t want[4] = { 30, 20, 10, 191 };
    eg_soft_set_threads(1);
    uint32_t before = eg_soft_worker_main.span_px;
    EG_ASSERT(draw_rect(d, p, img));
    EG_EXPECT_EQ_U(rect_wrong(img, want), 0u);
    EG_EXPECT_EQ_U(eg_soft_worker_main.span_px - before, 32u);
    eg_soft_set_threads(0);
    wgpuRenderPipelineRelease(p);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The bench hook (soft_bench.h): a C function in place of the VM writes (0.25, 0.5, 0.75, 1) ->
 * bytes round(v * 255) = (64, 128, 191, 255) on exactly the rectangle, and the span path stays
 * off for that pipeline; fn NULL brings the program (and its bytes) back. */
static void native_fill(eg_soft_invocation_t *inv, const void *user)
{
    const float *c = user;
    for (uint32_t k = 0; k < 4u; k++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv->out[0].c[k].f[l] = c[k];
}

/* The block-constant path (soft_raster_const.c) on a signed-distance rounded rectangle: a quad
 * and a perspective triangle of one color each, every target format and blend class: the same
 * bytes with the fast paths on and off, blocks really shaded once, and by hand (no blend, RGBA8):
 * pixel (10, 10) has uv (0.47, 0.50), local (-0.74, 0.0), d = -4.26: coverage 1, so the vertex
 * color's bytes; pixel (2, 10) has local x = -12.6, d = 5.6: coverage 0, alpha byte 0. */
EG_TEST(soft_span, const_blocks_match_vm)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[3] = { NULL, &span_premul, &span_straight };
    svtx_t v[9] = {
        span_vtx(1.3f, 2.6f, 1, -0.1f, 0.0f, 200, 100, 50, 180), span_vtx(20.7f, 2.6f, 1, 1.1f, 0.0f, 200, 100, 50, 180),
        span_vtx(1.3f, 18.2f, 1, -0.1f, 1.0f, 200, 100, 50, 180), span_vtx(20.7f, 2.6f, 1, 1.1f, 0.0f, 200, 100, 50, 180),
        span_vtx(20.7f, 18.2f, 1, 1.1f, 1.0f, 200, 100, 50, 180), span_vtx(1.3f, 18.2f, 1, -0.1f, 1.0f, 200, 100, 50, 180),
        span_vtx(16.0f, 0.5f, 1, 0.0f, 0.0f, 30, 220, 140, 250), span_vtx(31.5f, 30.0f, 2, 1.0f, 0.5f, 30, 220, 140, 250),
        span_vtx(3.5f, 25.5f, 1.5f, 0.3f, 1.0f, 30, 220, 140, 250) };
    uint32_t bad = 0, unused = 0;
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t b = 0; b < 3u; b++) {
            run_t r = { d, "span_sdf.frag", span_fmts[f], blends[b], 0, WGPUFilterMode_Nearest, (f + b) & 1u,
                        WGPUTextureFormat_Undefined, v, 9, 0 };
            uint32_t before = eg_soft_raster_const_blocks();
            span_sweep(&r, &bad, "sdf", f, b);
            if (eg_soft_raster_const_blocks() == before) unused++;
        }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(unused, 0u);
    static uint8_t img[S * S * 4];
    run_t r = { d, "span_sdf.frag", WGPUTextureFormat_RGBA8Unorm, NULL, 0, WGPUFilterMode_Nearest, false,
                WGPUTextureFormat_Undefined, v, 6, 0 };
    EG_ASSERT(span_render(&r, img, 4));
    static const uint8_t in[4] = { 200, 100, 50, 180 }, out[4] = { 200, 100, 50, 0 };
    EG_EXPECT(memcmp(img + (10u * S + 10u) * 4u, in, 4) == 0);
    EG_EXPECT(memcmp(img + (10u * S + 2u) * 4u, out, 4) == 0);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Block-constant regions (soft_raster.c walk_regions, helper "ui"): the SDF rounded rectangle
 * over a quad covering the whole 32 x 32 target (its inside and outside are constant over
 * 8 x 8 and 16 x 16 px regions; uv 0..1 makes one shape unit 4/3 px), a large triangle with w = 2
 * at every vertex and a perspective one, every format and blend class: the same bytes both ways,
 * and regions really were proved where w is equal. By
 * hand (RGBA8, no blend): pixel (16, 16) has uv (0.516, 0.516), q = (0.375 - 4, 0.375 - 2) =
 * (-3.6, -1.6), d = -1.6 - 3 = -4.6: coverage 1; pixel (1, 1): uv 0.047, q = (10.9 - 4,
 * 10.9 - 2), d = length(6.9, 8.9) - 3 = 8.2: coverage 0, alpha byte 0. */
EG_TEST(soft_span, const_regions_match_vm)
{
    SOFT_DEVICE_OR_SKIP(d);
    const WGPUBlendState *blends[3] = { NULL, &span_premul, &span_straight };
    svtx_t v[12] = {
        span_vtx(0, 0, 1, 0, 0, 200, 100, 50, 180), span_vtx(32, 0, 1, 1, 0, 200, 100, 50, 180), span_vtx(0, 32, 1, 0, 1, 200, 100, 50, 180),
        span_vtx(32, 0, 1, 1, 0, 200, 100, 50, 180), span_vtx(32, 32, 1, 1, 1, 200, 100, 50, 180), span_vtx(0, 32, 1, 0, 1, 200, 100, 50, 180),
        span_vtx(-8.0f, -4.0f, 2, 0.0f, 0.0f, 30, 220, 140, 250), span_vtx(40.0f, 2.0f, 2, 1.0f, 0.5f, 30, 220, 140, 250),
        span_vtx(4.0f, 40.0f, 2, 0.3f, 1.0f, 30, 220, 140, 250),
        span_vtx(-8.0f, -4.0f, 1, 0.0f, 0.0f, 30, 220, 140, 250), span_vtx(40.0f, 2.0f, 2, 1.0f, 0.5f, 30, 220, 140, 250),
        span_vtx(4.0f, 40.0f, 1.5f, 0.3f, 1.0f, 30, 220, 140, 250) };
    static const char *const what[3] = { "sdf quad", "sdf w = 2", "sdf perspective" };
    uint32_t bad = 0, unused = 0;
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t b = 0; b < 3u; b++)
            for (uint32_t k = 0; k < 3u; k++) {   /* the quad, a triangle with w = 2, a perspective one */
                run_t r = { d, "span_sdf.frag", span_fmts[f], blends[b], 0, WGPUFilterMode_Nearest, false,
                            WGPUTextureFormat_Undefined, k ? v + 3 + 3 * k : v, k ? 3u : 6u, 0 };
                uint32_t before = eg_soft_worker_main.region_blocks;
                span_sweep(&r, &bad, what[k], f, b);
                /* unequal w: the bounds of 1 / w are too wide for a proof (soft_raster_bound.c) */
                if (k < 2u && eg_soft_worker_main.region_blocks == before) unused++;
            }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(unused, 0u);
    static uint8_t img[S * S * 4];
    run_t r = { d, "span_sdf.frag", WGPUTextureFormat_RGBA8Unorm, NULL, 0, WGPUFilterMode_Nearest, false,
                WGPUTextureFormat_Undefined, v, 6, 0 };
    EG_ASSERT(span_render(&r, img, 4));
    static const uint8_t in[4] = { 200, 100, 50, 180 }, out[4] = { 200, 100, 50, 0 };
    EG_EXPECT(memcmp(img + (16u * S + 16u) * 4u, in, 4) == 0);
    EG_EXPECT(memcmp(img + (1u * S + 1u) * 4u, out, 4) == 0);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Constant rows of the span path (soft_span.c row_const, helper "ui"): copy-class quads without
 * blending whose rows quantize to one code: a vertical gradient over the whole target (the codes
 * change from row to row; 8-bit codes 255 v + 0.5 = 16.75 + 1.5 y, 40.94 + 1.875 y, 66.5 + 4 y
 * never sit on a rounding boundary, where no proof can hold) and the test geometry; same bytes
 * both ways for every format, and the gradient's rows really were stored whole. By hand: a flat
 * quad of color (10, 20, 30) over [0, 32) x [4, 8) gives every pixel of those rows
 * span_copy.frag's (b, g, r, 0.75) = bytes (30, 20, 10, 191) in RGBA8. Its values are the same
 * at every vertex, so each of its two triangles stores every row segment whole, whatever its
 * length (the diagonal splits each row in two): 4 rows x 32 px = 128.
 * Blended flat quads (span_straight alpha) go through the shared-color blend: same bytes both ways. */
#define ROWS_MIN_TEST 16   /* the chunk loop's threshold (soft_span_int.h ROWC_MIN_PX) */

EG_TEST(soft_span, const_rows_match_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    svtx_t v[6] = { span_vtx(0, 0, 1, 0, 0, 16, 40, 64, 255), span_vtx(32, 0, 1, 0, 0, 16, 40, 64, 255),
                    span_vtx(0, 32, 1, 0, 0, 64, 100, 192, 255), span_vtx(32, 0, 1, 0, 0, 16, 40, 64, 255),
                    span_vtx(32, 32, 1, 0, 0, 64, 100, 192, 255), span_vtx(0, 32, 1, 0, 0, 64, 100, 192, 255) };
    uint32_t bad = 0, unused = 0;
    /* the proof on 32 px rows: below the fused kernels' threshold (128 px), so lowered here;
     * with the default the same rows are computed by the fused kernel (the other loop) */
    for (uint32_t f = 0; f < 3u; f++)
        for (uint32_t k = 0; k < 4u; k++) {
            run_t r = { d, "span_copy.frag", span_fmts[f], NULL, 0, WGPUFilterMode_Nearest, (k & 1u) == 1u,
                        WGPUTextureFormat_Undefined, (k & 1u) ? NULL : v, (k & 1u) ? 0u : 6u, 0 };
            eg_soft_span_rowc_min_fused = k < 2u ? ROWS_MIN_TEST : 128;
            uint32_t before = eg_soft_worker_main.span_row_px;
            span_sweep(&r, &bad, "rows", f, k);
            if (k == 0u && eg_soft_worker_main.span_row_px == before) unused++;   /* geometry(): rows may not be */
        }
    eg_soft_span_rowc_min_fused = 128;
    /* one shared source color per chunk, span_straight alpha (soft_span.c blend_shared): two flat
     * quads (span_copy.frag's alpha is 0.75) over the patterned clear, the second over the first */
    svtx_t flat[12] = { span_vtx(1.5f, 2, 1, 0, 0, 250, 40, 9, 140), span_vtx(30, 2, 1, 0, 0, 250, 40, 9, 140),
                        span_vtx(1.5f, 20, 1, 0, 0, 250, 40, 9, 140), span_vtx(30, 2, 1, 0, 0, 250, 40, 9, 140),
                        span_vtx(30, 20, 1, 0, 0, 250, 40, 9, 140), span_vtx(1.5f, 20, 1, 0, 0, 250, 40, 9, 140),
                        span_vtx(0, 14, 1, 0, 0, 9, 40, 250, 0), span_vtx(31, 14, 1, 0, 0, 9, 40, 250, 0),
                        span_vtx(0, 31, 1, 0, 0, 9, 40, 250, 0), span_vtx(31, 14, 1, 0, 0, 9, 40, 250, 0),
                        span_vtx(31, 31, 1, 0, 0, 9, 40, 250, 0), span_vtx(0, 31, 1, 0, 0, 9, 40, 250, 0) };
    for (uint32_t f = 0; f < 3u; f++) {
        run_t r = { d, "span_copy.frag", span_fmts[f], &span_straight, 0, WGPUFilterMode_Nearest, false,
                    WGPUTextureFormat_Undefined, flat, 12, 0 };
        if (!span_sweep(&r, &bad, "shared color", f, 0)) unused++;
    }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(unused, 0u);
    svtx_t q[6] = { span_vtx(0, 4, 1, 0, 0, 10, 20, 30, 40), span_vtx(32, 4, 1, 0, 0, 10, 20, 30, 40), span_vtx(0, 8, 1, 0, 0, 10, 20, 30, 40),
                    span_vtx(32, 4, 1, 0, 0, 10, 20, 30, 40), span_vtx(32, 8, 1, 0, 0, 10, 20, 30, 40), span_vtx(0, 8, 1, 0, 0, 10, 20, 30, 40) };
    static uint8_t img[S * S * 4];
    run_t r = { d, "span_copy.frag", WGPUTextureFormat_RGBA8Unorm, NULL, 0, WGPUFilterMode_Nearest, false,
                WGPUTextureFormat_Undefined, q, 6, 0 };
    eg_soft_set_threads(1);
    uint32_t before = eg_soft_worker_main.span_row_px;
    EG_ASSERT(span_render(&r, img, 4));
    EG_EXPECT_EQ_U(eg_soft_worker_main.span_row_px - before, 128u);
    eg_soft_set_threads(0);
    static const uint8_t want[4] = { 30, 20, 10, 191 };
    uint32_t wrong = 0;
    for (uint32_t y = 4; y < 8u; y++)
        for (uint32_t x = 0; x < S; x++) wrong += memcmp(img + (y * S + x) * 4u, want, 4) != 0;
    EG_EXPECT_EQ_U(wrong, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* One-texture programs on the block path (soft_raster_tex.c): the perspective triangle of the
 * test geometry is not affine, so the span path declines it and the block path samples it
 * without the VM: the same bytes with the fast paths on and off, and blocks really took that
 * path. With two mip levels the level of detail matters and the VM must run (no such block). */
EG_TEST(soft_span, tex_blocks_match_vm)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const char *const fs[2] = { "span_tex.frag", "span_glyph.frag" };
    static const WGPUFilterMode filt[2] = { WGPUFilterMode_Linear, WGPUFilterMode_Nearest };
    uint32_t bad = 0, unused = 0;
    for (uint32_t k = 0; k < 2u; k++)
        for (uint32_t f = 0; f < 2u; f++) {
            run_t r = { d, fs[k], f ? WGPUTextureFormat_EmgpuRGB565Unorm : WGPUTextureFormat_RGBA8Unorm, f ? &span_straight : NULL,
                        1u, filt[f], false, WGPUTextureFormat_Undefined, NULL, 0, 0 };
            uint32_t before = eg_soft_worker_main.tex_blocks;
            span_sweep(&r, &bad, fs[k], f, 0);
            if (eg_soft_worker_main.tex_blocks == before) unused++;
        }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(unused, 0u);
    run_t r = { d, "span_tex.frag", WGPUTextureFormat_RGBA8Unorm, NULL, 2u, WGPUFilterMode_Linear, false,
                WGPUTextureFormat_Undefined, NULL, 0, 0 };
    uint32_t span = 0, before = eg_soft_worker_main.tex_blocks;
    EG_EXPECT(same_both_ways(&r, &span));
    EG_EXPECT_EQ_U(eg_soft_worker_main.tex_blocks - before, 0u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

EG_TEST(soft_span, native_fs_hook)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only hook"); }
    WGPURenderPipeline p = pipeline(d, "span_copy.frag", WGPUTextureFormat_RGBA8Unorm, NULL);
    static const float color[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    static uint8_t img[10][S * 4];
    static const uint8_t want[4] = { 64, 128, 191, 255 }, vm[4] = { 30, 20, 10, 191 };
    eg_soft_set_threads(1);
    eg_soft_render_pipeline_set_native_fs(p, native_fill, color);
    uint32_t before = eg_soft_worker_main.span_px;
    EG_ASSERT(draw_rect(d, p, img));
    EG_EXPECT_EQ_U(rect_wrong(img, want), 0u);
    EG_EXPECT_EQ_U(eg_soft_worker_main.span_px - before, 0u);
    eg_soft_render_pipeline_set_native_fs(p, NULL, NULL);
    EG_ASSERT(draw_rect(d, p, img));
    EG_EXPECT_EQ_U(rect_wrong(img, vm), 0u);
    eg_soft_set_threads(0);
    wgpuRenderPipelineRelease(p);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}
#endif
