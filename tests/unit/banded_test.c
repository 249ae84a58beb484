/* Banded rendering of strip-mode panels on soft: frames rendered strip by strip (no full-frame
 * texture) give the panel exactly the bytes of the same frames rendered full-frame into a
 * framebuffer panel, for clears, blended overlapping triangles, a textured quad and scissor,
 * with the frame's geometry in the bin arena and overflowing it (the per-strip re-run), with
 * tiles smaller than, equal to and larger than the strips, and with worker threads.
 *
 * The reference is the framebuffer-mode panel of the same size and format (full-frame render,
 * then conversion), so the test compares two paths of the runtime; the flush callback checks
 * that strips arrive top to bottom, full width, stripHeight rows (the last one shorter), and
 * checksums each strip against the same rows of the reference.
 */
#include <string.h>

#include <emgpu/emgpu.h>

#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"

#define PW 32u          /* panel, px */
#define PH 24u
#define STRIP 5u        /* rows per strip: 24 = 4 x 5 + 4, strips straddle 8 px tiles */

typedef struct strips {
    uint16_t img[PH * PW];
    uint32_t calls, next_y;
    bool shape_ok;
    uint64_t sum[8];
} strips_t;

static uint16_t g_fb[PH * PW];
static uint16_t g_strip[STRIP * PW];
static strips_t g_log;

/* FNV-1a 64 over bytes. */
static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void on_strip(void *user, uint32_t x, uint32_t y, uint32_t w, uint32_t h, const void *pixels,
                     uint32_t stride_B)
{
    strips_t *l = user;
    uint32_t want_h = PH - y < STRIP ? PH - y : STRIP;
    if (x != 0 || w != PW || y != l->next_y || h != want_h || l->calls >= 8) { l->shape_ok = false; return; }
    uint64_t sum = 0xcbf29ce484222325ull;
    for (uint32_t r = 0; r < h; r++) {
        memcpy(&l->img[(y + r) * PW], (const uint8_t *)pixels + r * stride_B, PW * 2u);
        sum = fnv((const uint8_t *)pixels + r * stride_B, PW * 2u, sum);
    }
    l->sum[l->calls++] = sum;
    l->next_y = y + h;
}

static WGPUSurface make_surface(bool banded)
{
    WGPUEmgpuSurfaceSourceMemoryPanel p = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
    p.width = PW;
    p.height = PH;
    p.format = WGPUEmgpuPanelFormat_RGB565;
    if (banded) {
        p.stripBuffer = g_strip;
        p.stripHeight = STRIP;
        p.flush = on_strip;
        p.flushUserdata = &g_log;
    } else {
        p.framebuffer = g_fb;
    }
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &p.chain;
    return wgpuInstanceCreateSurface(eg_test_instance(), &sd);
}

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

/* Both pipelines read float32x4 position + float32x4 (color or uv) per vertex. */
static WGPURenderPipeline pipeline(WGPUDevice d, const char *vs_name, const char *fs_name, WGPUTextureFormat fmt,
                                   bool blend)
{
    WGPUShaderModule vs = module(d, vs_name), fs = module(d, fs_name);
    WGPUVertexAttribute va[2] = { WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT };
    va[0].format = WGPUVertexFormat_Float32x4;
    va[1].format = WGPUVertexFormat_Float32x4; va[1].offset = 16; va[1].shaderLocation = 1;
    WGPUVertexBufferLayout vb = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    vb.arrayStride = 32; vb.attributeCount = 2; vb.attributes = va;
    WGPUBlendState bl = { { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
                          { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha } };
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    t.format = fmt;
    t.blend = blend ? &bl : NULL;
    WGPUFragmentState f = WGPU_FRAGMENT_STATE_INIT;
    f.module = fs; f.targetCount = 1; f.targets = &t;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = vs; pd.vertex.bufferCount = 1; pd.vertex.buffers = &vb;
    pd.fragment = &f;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    return p;
}

typedef struct res {
    WGPURenderPipeline color, tex;
    WGPUBuffer vb;
    WGPUTexture atlas;
    WGPUTextureView atlas_view;
    WGPUSampler sampler;
    WGPUBindGroup bg;
} res_t;

/* Vertices (x, y, z, w, r/u, g/v, b, a): 3 overlapping translucent triangles (crossing strip
 * and tile borders, one with w = 2), then a textured quad (2 triangles) with uv beyond [0, 1]. */
static const float g_verts[9 * 8] = {
    -0.9f, 0.9f, 0, 1, 1.0f, 0.1f, 0.0f, 0.8f,   -0.7f, -0.95f, 0, 1, 0.0f, 0.9f, 0.2f, 0.5f,
    0.95f, 0.3f, 0, 1, 0.1f, 0.2f, 1.0f, 0.7f,
    -1.6f, -1.8f, 0, 2, 0.9f, 0.9f, 0.1f, 0.4f,  1.9f, -1.2f, 0, 2, 0.3f, 0.0f, 0.6f, 0.9f,
    0.2f, 1.6f, 0, 2, 0.0f, 1.0f, 1.0f, 0.3f,
    -0.5f, 0.6f, 0, 1, -0.25f, -0.25f, 0, 0,     0.6f, 0.6f, 0, 1, 1.25f, -0.25f, 0, 0,
    0.6f, -0.5f, 0, 1, 1.25f, 1.25f, 0, 0,
};
static const float g_quad2[3 * 8] = {
    -0.5f, 0.6f, 0, 1, -0.25f, -0.25f, 0, 0,     0.6f, -0.5f, 0, 1, 1.25f, 1.25f, 0, 0,
    -0.5f, -0.5f, 0, 1, -0.25f, 1.25f, 0, 0,
};

static bool res_init(WGPUDevice d, WGPUTextureFormat fmt, res_t *r)
{
    memset(r, 0, sizeof *r);
    r->color = pipeline(d, "draw_color.vert", "draw_color.frag", fmt, true);
    r->tex = pipeline(d, "scene_tex.vert", "scene_tex.frag", fmt, false);
    float all[12 * 8];
    memcpy(all, g_verts, sizeof g_verts);
    memcpy(all + 9 * 8, g_quad2, sizeof g_quad2);
    r->vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof all);
    wgpuQueueWriteBuffer(eg_test_queue(), r->vb, 0, all, sizeof all);
    r->atlas = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1,
                         WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst);
    uint8_t texels[4 * 4 * 4];
    for (uint32_t i = 0; i < sizeof texels; i++) texels[i] = (uint8_t)(i * 37u + 11u);
    WGPUTexelCopyTextureInfo ti = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    ti.texture = r->atlas;
    WGPUTexelCopyBufferLayout bl = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    bl.bytesPerRow = 16; bl.rowsPerImage = 4;
    WGPUExtent3D ext = { 4, 4, 1 };
    wgpuQueueWriteTexture(eg_test_queue(), &ti, texels, sizeof texels, &bl, &ext);
    r->atlas_view = wgpuTextureCreateView(r->atlas, NULL);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.magFilter = WGPUFilterMode_Linear; sd.minFilter = WGPUFilterMode_Linear;
    sd.addressModeU = WGPUAddressMode_Repeat; sd.addressModeV = WGPUAddressMode_MirrorRepeat;
    r->sampler = wgpuDeviceCreateSampler(d, &sd);
    if (!r->color || !r->tex) return false;
    WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(r->tex, 0);
    WGPUBindGroupEntry e[2] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
    e[0].binding = 0; e[0].textureView = r->atlas_view;
    e[1].binding = 1; e[1].sampler = r->sampler;
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl; bd.entryCount = 2; bd.entries = e;
    r->bg = wgpuDeviceCreateBindGroup(d, &bd);
    wgpuBindGroupLayoutRelease(bgl);
    return r->bg != NULL;
}

static void res_release(res_t *r)
{
    if (r->bg) wgpuBindGroupRelease(r->bg);
    if (r->sampler) wgpuSamplerRelease(r->sampler);
    if (r->atlas_view) wgpuTextureViewRelease(r->atlas_view);
    if (r->atlas) wgpuTextureRelease(r->atlas);
    if (r->vb) wgpuBufferRelease(r->vb);
    if (r->tex) wgpuRenderPipelineRelease(r->tex);
    if (r->color) wgpuRenderPipelineRelease(r->color);
}

/* Frame kinds: 0 no pass at all, 1 clear only, 2 clear + blended triangles, 3 load + textured
 * quad + blended triangles under a scissor + a blend-constant/pipeline change mid-pass. */
static void draw_frame(WGPUDevice d, const res_t *r, WGPUTexture tex, uint32_t kind)
{
    if (kind == 0) return;
    WGPUTextureView v = wgpuTextureCreateView(tex, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = v;
    ca.loadOp = kind == 3 ? WGPULoadOp_Load : WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ 0.2, 0.5, 0.9, 1.0 };
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &ca;
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderSetVertexBuffer(p, 0, r->vb, 0, 12 * 32);
    if (kind == 3) {
        wgpuRenderPassEncoderSetPipeline(p, r->tex);
        wgpuRenderPassEncoderSetBindGroup(p, 0, r->bg, 0, NULL);
        wgpuRenderPassEncoderDraw(p, 3, 1, 6, 0);
        wgpuRenderPassEncoderDraw(p, 3, 1, 9, 0);
        wgpuRenderPassEncoderSetScissorRect(p, 3, 2, 23, 19);
    }
    if (kind >= 2) {
        wgpuRenderPassEncoderSetPipeline(p, r->color);
        wgpuRenderPassEncoderDraw(p, 6, 1, 0, 0);
    }
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
    t_submit(e);
    wgpuTextureViewRelease(v);
}

/* One frame of `kind` on a surface configured with fmt; true when it presented. */
static bool frame(WGPUDevice d, WGPUSurface s, WGPUTextureFormat fmt, const res_t *r, uint32_t kind)
{
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d; c.format = fmt; c.width = PW; c.height = PH;
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    if (!st.texture) return false;
    draw_frame(d, r, st.texture, kind);
    bool ok = wgpuSurfacePresent(s) == WGPUStatus_Success;
    wgpuTextureRelease(st.texture);
    return ok;
}

/* Renders every frame kind both ways under the current binning settings; returns mismatches. */
static uint32_t compare_frames(WGPUDevice d, WGPUTextureFormat fmt)
{
    res_t r;
    uint32_t bad = 0;
    if (!res_init(d, fmt, &r)) { res_release(&r); return 100; }
    WGPUSurface full = make_surface(false), band = make_surface(true);
    for (uint32_t kind = 0; kind < 4; kind++) {
        memset(g_fb, 0, sizeof g_fb);   /* the frame texture starts transparent black (WebGPU) */
        memset(&g_log, 0, sizeof g_log);
        g_log.shape_ok = true;
        bool ok = frame(d, full, fmt, &r, kind) && frame(d, band, fmt, &r, kind);
        bool same = ok && g_log.shape_ok && g_log.calls == (PH + STRIP - 1u) / STRIP &&
                    memcmp(g_fb, g_log.img, sizeof g_fb) == 0;
        for (uint32_t i = 0; same && i < g_log.calls; i++) {
            uint32_t rows = PH - i * STRIP < STRIP ? PH - i * STRIP : STRIP;
            same = fnv(&g_fb[i * STRIP * PW], (size_t)rows * PW * 2u, 0xcbf29ce484222325ull) == g_log.sum[i];
        }
        if (!same) {
            for (uint32_t i = 0; i < PW * PH; i++)
                if (g_fb[i] != g_log.img[i]) {
                    eg_test_printf("    first difference at (%u, %u): full %04x banded %04x\n", (unsigned)(i % PW),
                                   (unsigned)(i / PW), g_fb[i], g_log.img[i]);
                    break;
                }
            eg_test_printf("    frame kind %u, format 0x%x: ok %d, strip shape %d, %u strips: banded differs\n",
                           (unsigned)kind, (unsigned)fmt, ok, g_log.shape_ok, (unsigned)g_log.calls);
            bad++;
        }
    }
    wgpuSurfaceRelease(full);
    wgpuSurfaceRelease(band);
    res_release(&r);
    return bad;
}

#define BANDED_START(d)                                                                       \
    WGPUDevice d = eg_test_device("soft");                                                    \
    if (!d) EG_SKIP("soft backend not compiled in");                                          \
    if (strcmp(eg_test_backend(), "soft") != 0) {                                             \
        eg_test_device_release();                                                             \
        EG_NOT_APPLICABLE("banded rendering is a soft backend feature");                      \
    }

/* RGBA8 frames (converted to RGB565 per strip) and RGB565 frames (rendered straight into the
 * strip buffer), with the default tile size and with 8 px tiles (strips of 5 rows cut them). */
EG_TEST(banded, matches_full_frame)
{
    BANDED_START(d);
    static const uint32_t tiles[2] = { 0, 8 };
    for (uint32_t k = 0; k < 2; k++) {
        eg_soft_bin_set_tile_px(tiles[k]);
        EG_EXPECT_EQ_U(compare_frames(d, WGPUTextureFormat_RGBA8Unorm), 0);
        EG_EXPECT_EQ_U(compare_frames(d, WGPUTextureFormat_EmgpuRGB565Unorm), 0);
    }
    eg_soft_bin_set_tile_px(0);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* A 1.5 KiB bin arena cannot hold the frame: each strip re-runs the pass (bins limited to the
 * strip's rows, flushing into the strip when full); also with 3 worker threads. */
EG_TEST(banded, arena_overflow_rerun_and_threads)
{
    BANDED_START(d);
    eg_soft_bin_stats_t a, b;
    eg_soft_bin_stats(&a);
    eg_soft_bin_set_tile_px(4);
    eg_soft_bin_set_arena_limit(1536);
    EG_EXPECT_EQ_U(compare_frames(d, WGPUTextureFormat_RGBA8Unorm), 0);
    eg_soft_bin_stats(&b);
    EG_EXPECT(b.overflows > a.overflows);      /* the re-run path flushed inside strips */
    eg_soft_set_threads(3);
    EG_EXPECT_EQ_U(compare_frames(d, WGPUTextureFormat_EmgpuRGB565Unorm), 0);
    eg_soft_bin_set_arena_limit(0);
    EG_EXPECT_EQ_U(compare_frames(d, WGPUTextureFormat_RGBA8Unorm), 0);
    eg_soft_set_threads(0);
    eg_soft_bin_set_tile_px(0);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* The point of banding: a strip-mode frame allocates strip rows, not a frame. An RGBA8 frame
 * of 32x24 is 3072 B; its band is STRIP rows of 128 B = 640 B. */
EG_TEST(banded, no_full_frame_memory)
{
    BANDED_START(d);
    WGPUSurface s = make_surface(true);
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d; c.format = WGPUTextureFormat_RGBA8Unorm; c.width = PW; c.height = PH;
    wgpuSurfaceConfigure(s, &c);
    eg_range_stats_t before, during;
    eg_soft_heap_stats(&before);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_ASSERT(st.texture != NULL);
    eg_soft_heap_stats(&during);
    EG_EXPECT(during.used_B - before.used_B < PW * PH * 4u);
    EG_EXPECT(during.used_B - before.used_B >= STRIP * PW * 4u);
    memset(&g_log, 0, sizeof g_log);
    g_log.shape_ok = true;
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);   /* undrawn: transparent black */
    EG_EXPECT(g_log.shape_ok && g_log.calls == 5u);
    EG_EXPECT(g_log.img[0] == 0 && g_log.img[PH * PW - 1] == 0);
    wgpuTextureRelease(st.texture);
    wgpuSurfaceRelease(s);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Begins and ends a clear-only pass into view (a resolve target when msaa is given). */
static void clear_pass(WGPUCommandEncoder e, WGPUTextureView view, WGPUTextureView msaa)
{
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = msaa ? msaa : view;
    ca.resolveTarget = msaa ? view : NULL;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ 1.0, 0.0, 0.0, 1.0 };
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &ca;
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
}

/* A banded frame keeps no pixels between passes and its strips reach the panel as the first
 * pass ends, so a second pass (later Submit, or the same command buffer) is a validation error
 * of that Submit and sends nothing; the next frame takes a pass again. */
EG_TEST(banded, second_pass_is_an_error)
{
    BANDED_START(d);
    WGPUSurface s = make_surface(true);
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d; c.format = WGPUTextureFormat_EmgpuRGB565Unorm; c.width = PW; c.height = PH;
    wgpuSurfaceConfigure(s, &c);
    for (uint32_t frame_i = 0; frame_i < 2; frame_i++) {
        memset(&g_log, 0, sizeof g_log);
        g_log.shape_ok = true;
        WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
        wgpuSurfaceGetCurrentTexture(s, &st);
        EG_ASSERT(st.texture != NULL);
        WGPUTextureView v = wgpuTextureCreateView(st.texture, NULL);
        WGPUCommandEncoder e = t_encoder(d);
        clear_pass(e, v, NULL);
        if (frame_i == 1) clear_pass(e, v, NULL);        /* two passes in one command buffer */
        t_submit(e);
        if (frame_i == 1) {
            EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_BAND_SECOND_PASS, "one render pass");
            EG_EXPECT_EQ_U(g_log.calls, 0);              /* the invalid Submit ran nothing */
        } else {
            EG_EXPECT_NO_ERROR();
            EG_EXPECT(g_log.shape_ok && g_log.calls == 5u);
            /* RGB565 red = 0xf800 (5 bits of 1.0 in the top field) */
            EG_EXPECT(g_log.img[0] == 0xf800u && g_log.img[PH * PW - 1] == 0xf800u);
            e = t_encoder(d);
            clear_pass(e, v, NULL);                      /* a second Submit into the same frame */
            t_submit(e);
            EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_BAND_SECOND_PASS, "strip-mode surface");
            EG_EXPECT_EQ_U(g_log.calls, 5);              /* nothing more reached the panel */
        }
        wgpuTextureViewRelease(v);
        EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
        wgpuTextureRelease(st.texture);
    }
    wgpuSurfaceRelease(s);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* A banded frame has no full frame to resolve into: rejected when the pass is encoded. */
EG_TEST(banded, resolve_target_is_an_error)
{
    BANDED_START(d);
    WGPUSurface s = make_surface(true);
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d; c.format = WGPUTextureFormat_RGBA8Unorm; c.width = PW; c.height = PH;
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_ASSERT(st.texture != NULL);
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.usage = WGPUTextureUsage_RenderAttachment;
    td.size = (WGPUExtent3D){ PW, PH, 1 };
    td.format = WGPUTextureFormat_RGBA8Unorm;
    td.sampleCount = 4;
    WGPUTexture ms = wgpuDeviceCreateTexture(d, &td);
    WGPUTextureView msv = wgpuTextureCreateView(ms, NULL), v = wgpuTextureCreateView(st.texture, NULL);
    WGPUCommandEncoder e = t_encoder(d);
    clear_pass(e, v, msv);
    t_finish(e);                                         /* where the pass's error surfaces */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PASS_RESOLVE_TARGET, "strip-mode surface");
    wgpuTextureViewRelease(v);
    wgpuTextureViewRelease(msv);
    wgpuTextureRelease(ms);
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
    wgpuTextureRelease(st.texture);
    wgpuSurfaceRelease(s);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
