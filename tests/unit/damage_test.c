/* Partial updates (wgpuSurfaceEmgpuSetDamage): a frame with a damage rectangle changes the panel
 * only inside it, with the bytes of the same frame rendered whole, and soft rasterizes fewer tiles.
 *
 * Frame A (clear + blended triangles) is presented whole; frame B (another clear color, the same
 * triangles) is presented with the damage D. The expected panel is computed from two references
 * rendered by whole frames on a second panel: A's bytes outside D, B's inside (the definition of a
 * partial update). The flush callback must see exactly D (strip mode: D's columns, D's rows in
 * strips of STRIP rows). Sizes are tiny: the test runs on the Cortex-M7 board too.
 */
#include <string.h>

#include <emgpu/emgpu.h>

#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"

#define PW 32u
#define PH 24u
#define STRIP 5u
#define DX 9u          /* the damage: crosses 8 px tile borders and strip borders */
#define DY 7u
#define DW 13u
#define DH 9u

typedef struct flushes {
    uint16_t gram[PH * PW];       /* strip mode: what the panel holds */
    uint32_t calls, rows, x, y, w, h;
    bool shape_ok;
} flushes_t;

static uint16_t g_fb[PH * PW], g_ref[PH * PW], g_strip[STRIP * PW];
static flushes_t g_fl;

static void on_flush(void *user, uint32_t x, uint32_t y, uint32_t w, uint32_t h, const void *pixels,
                     uint32_t stride_B)
{
    flushes_t *f = user;
    if (f->calls == 0) { f->x = x; f->y = y; f->w = w; f->h = h; }
    if (x != f->x || w != f->w || x + w > PW || y + h > PH) f->shape_ok = false;
    f->calls++;
    f->rows += h;
    for (uint32_t r = 0; r < h && y + r < PH; r++)
        memcpy(&f->gram[(y + r) * PW + x], (const uint8_t *)pixels + (size_t)r * stride_B, (size_t)w * 2u);
}

static WGPUSurface make_surface(uint16_t *fb, bool strip)
{
    WGPUEmgpuSurfaceSourceMemoryPanel p = WGPU_EMGPU_SURFACE_SOURCE_MEMORY_PANEL_INIT;
    p.width = PW;
    p.height = PH;
    p.format = WGPUEmgpuPanelFormat_RGB565;
    if (strip) {
        p.stripBuffer = g_strip;
        p.stripHeight = STRIP;
    } else {
        p.framebuffer = fb;
    }
    p.flush = on_flush;
    p.flushUserdata = &g_fl;
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &p.chain;
    return wgpuInstanceCreateSurface(eg_test_instance(), &sd);
}

static WGPUShaderModule t_module(WGPUDevice d, const char *name)
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

static WGPURenderPipeline color_pipeline(WGPUDevice d, WGPUTextureFormat fmt)
{
    WGPUShaderModule vs = t_module(d, "draw_color.vert"), fs = t_module(d, "draw_color.frag");
    WGPUVertexAttribute va[2] = { WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT };
    va[0].format = WGPUVertexFormat_Float32x4;
    va[1].format = WGPUVertexFormat_Float32x4; va[1].offset = 16; va[1].shaderLocation = 1;
    WGPUVertexBufferLayout vb = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    vb.arrayStride = 32; vb.attributeCount = 2; vb.attributes = va;
    WGPUBlendState bl = { { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
                          { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha } };
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    t.format = fmt;
    t.blend = &bl;
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

/* Two overlapping translucent triangles over most of the panel (x, y, z, w, r, g, b, a). */
static const float g_verts[6 * 8] = {
    -0.9f, 0.9f, 0, 1, 1.0f, 0.1f, 0.0f, 0.8f,   -0.7f, -0.95f, 0, 1, 0.0f, 0.9f, 0.2f, 0.5f,
    0.95f, 0.3f, 0, 1, 0.1f, 0.2f, 1.0f, 0.7f,
    -1.6f, -1.8f, 0, 2, 0.9f, 0.9f, 0.1f, 0.4f,  1.9f, -1.2f, 0, 2, 0.3f, 0.0f, 0.6f, 0.9f,
    0.2f, 1.6f, 0, 2, 0.0f, 1.0f, 1.0f, 0.3f,
};

typedef struct res { WGPURenderPipeline p; WGPUBuffer vb; WGPUTextureFormat fmt; } res_t;

/* One frame: clear to color `b` (frame A: 0, frame B: 1), the triangles; damage NULL = whole. */
static bool frame(WGPUDevice d, WGPUSurface s, const res_t *r, uint32_t b, const WGPUEmgpuRect *damage)
{
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d; c.format = r->fmt; c.width = PW; c.height = PH;
    wgpuSurfaceConfigure(s, &c);
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    if (!st.texture) return false;
    bool ok = !damage || wgpuSurfaceEmgpuSetDamage(s, damage, 1) == WGPUStatus_Success;
    WGPUTextureView v = wgpuTextureCreateView(st.texture, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = v;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = b ? (WGPUColor){ 0.9, 0.6, 0.1, 1.0 } : (WGPUColor){ 0.2, 0.5, 0.9, 1.0 };
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &ca;
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderSetVertexBuffer(p, 0, r->vb, 0, sizeof g_verts);
    wgpuRenderPassEncoderSetPipeline(p, r->p);
    wgpuRenderPassEncoderDraw(p, 6, 1, 0, 0);
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
    t_submit(e);
    wgpuTextureViewRelease(v);
    ok = wgpuSurfacePresent(s) == WGPUStatus_Success && ok;
    wgpuTextureRelease(st.texture);
    return ok;
}

static bool inside(uint32_t i)
{
    uint32_t x = i % PW, y = i / PW;
    return x >= DX && x < DX + DW && y >= DY && y < DY + DH;
}

/* Pixels of img that are not A outside D or not B inside D. */
static uint32_t mismatches(const uint16_t *img, const uint16_t *ref_a, const uint16_t *ref_b)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < PW * PH; i++)
        if (img[i] != (inside(i) ? ref_b[i] : ref_a[i])) bad++;
    return bad;
}

#define DAMAGE_START(d)                                                                       \
    WGPUDevice d = eg_test_device("soft");                                                    \
    if (!d) EG_SKIP("soft backend not compiled in");                                          \
    if (strcmp(eg_test_backend(), "soft") != 0) {                                             \
        eg_test_device_release();                                                             \
        EG_NOT_APPLICABLE("partial updates are implemented on the soft backend");             \
    }

static bool res_init(WGPUDevice d, WGPUTextureFormat fmt, res_t *r)
{
    r->fmt = fmt;
    r->p = color_pipeline(d, fmt);
    r->vb = t_buffer(d, WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst, sizeof g_verts);
    wgpuQueueWriteBuffer(eg_test_queue(), r->vb, 0, g_verts, sizeof g_verts);
    return r->p != NULL;
}

static void res_release(res_t *r)
{
    if (r->vb) wgpuBufferRelease(r->vb);
    if (r->p) wgpuRenderPipelineRelease(r->p);
}

static const WGPUEmgpuRect g_damage = { DX, DY, DW, DH };

/* Framebuffer mode: RGB565 frames render in place (zero copy), RGBA8 frames are converted by
 * Present; 8 px tiles force the binned path so the tile counter moves. */
static void run_framebuffer(WGPUDevice d, WGPUTextureFormat fmt)
{
    res_t r = { 0 };
    EG_ASSERT(res_init(d, fmt, &r));
    static uint16_t ref_a[PH * PW];
    WGPUSurface ref = make_surface(g_ref, false), s = make_surface(g_fb, false);
    eg_soft_bin_set_tile_px(8);
    EG_EXPECT(frame(d, ref, &r, 0, NULL));
    memcpy(ref_a, g_ref, sizeof ref_a);
    eg_soft_bin_stats_t t0, t1, t2;
    eg_soft_bin_stats(&t0);
    EG_EXPECT(frame(d, ref, &r, 1, NULL));          /* g_ref = B, whole */
    eg_soft_bin_stats(&t1);
    EG_EXPECT(frame(d, s, &r, 0, NULL));            /* g_fb = A */
    EG_EXPECT_EQ_U(memcmp(g_fb, ref_a, sizeof g_fb), 0);
    memset(&g_fl, 0, sizeof g_fl);
    g_fl.shape_ok = true;
    eg_soft_bin_stats(&t2);
    uint32_t before = t2.tiles;
    EG_EXPECT(frame(d, s, &r, 1, &g_damage));       /* B, damage D */
    eg_soft_bin_stats(&t2);
    EG_EXPECT_EQ_U(mismatches(g_fb, ref_a, g_ref), 0);
    /* (c) one flush of exactly D, pointing at D's first pixel in the framebuffer */
    EG_EXPECT_EQ_U(g_fl.calls, 1);
    EG_EXPECT(g_fl.x == DX && g_fl.y == DY && g_fl.w == DW && g_fl.h == DH);
    /* (d) D touches tile columns 1..2 and rows 0..1 of 8 px tiles (x 9..21, y 7..15): at most
     * 6 of the 12 tiles, while the whole frame rasterized at least 9 (the triangles cover it). */
    uint32_t whole = t1.tiles - t0.tiles, part = t2.tiles - before;
    EG_EXPECT(whole >= 9u);
    EG_EXPECT(part >= 1u && part <= 6u);
    eg_soft_bin_set_tile_px(0);
    wgpuSurfaceRelease(ref);
    wgpuSurfaceRelease(s);
    res_release(&r);
}

EG_TEST(damage, framebuffer_keeps_outside)
{
    DAMAGE_START(d);
    run_framebuffer(d, WGPUTextureFormat_EmgpuRGB565Unorm);
    run_framebuffer(d, WGPUTextureFormat_RGBA8Unorm);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* Strip mode: the panel's GRAM (g_fl.gram) keeps A outside D; only D's strips are rasterized and
 * flushed, each with D's columns: rows 7..15 in strips of 5 rows = 2 calls (5 + 4 rows). */
static void run_strips(WGPUDevice d, WGPUTextureFormat fmt)
{
    res_t r = { 0 };
    EG_ASSERT(res_init(d, fmt, &r));
    static uint16_t ref_a[PH * PW];
    WGPUSurface ref = make_surface(g_ref, false), s = make_surface(NULL, true);
    EG_EXPECT(frame(d, ref, &r, 0, NULL));
    memcpy(ref_a, g_ref, sizeof ref_a);
    EG_EXPECT(frame(d, ref, &r, 1, NULL));
    memset(&g_fl, 0, sizeof g_fl);
    g_fl.shape_ok = true;
    EG_EXPECT(frame(d, s, &r, 0, NULL));
    EG_EXPECT_EQ_U(g_fl.calls, (PH + STRIP - 1u) / STRIP);
    EG_EXPECT_EQ_U(memcmp(g_fl.gram, ref_a, sizeof ref_a), 0);
    g_fl.calls = g_fl.rows = 0;
    EG_EXPECT(frame(d, s, &r, 1, &g_damage));
    EG_EXPECT(g_fl.shape_ok);
    EG_EXPECT_EQ_U(g_fl.calls, (DH + STRIP - 1u) / STRIP);
    EG_EXPECT_EQ_U(g_fl.rows, DH);
    EG_EXPECT(g_fl.x == DX && g_fl.w == DW && g_fl.y == DY);
    EG_EXPECT_EQ_U(mismatches(g_fl.gram, ref_a, g_ref), 0);
    wgpuSurfaceRelease(ref);
    wgpuSurfaceRelease(s);
    res_release(&r);
}

EG_TEST(damage, strips_only_damaged)
{
    DAMAGE_START(d);
    run_strips(d, WGPUTextureFormat_EmgpuRGB565Unorm);   /* rendered into the strip buffer */
    eg_soft_bin_set_tile_px(8);
    run_strips(d, WGPUTextureFormat_RGBA8Unorm);         /* converted per strip, binned */
    eg_soft_bin_set_tile_px(0);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

/* (e) validation: wrong state, NULL rects, too many, empty, outside, after submit. */
EG_TEST(damage, validation)
{
    DAMAGE_START(d);
    WGPUSurface s = make_surface(g_fb, false);
    WGPUSurfaceConfiguration c = WGPU_SURFACE_CONFIGURATION_INIT;
    c.device = d; c.format = WGPUTextureFormat_EmgpuRGB565Unorm; c.width = PW; c.height = PH;
    wgpuSurfaceConfigure(s, &c);
    EG_EXPECT(wgpuSurfaceEmgpuSetDamage(s, &g_damage, 1) == WGPUStatus_Error);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_DAMAGE, "not acquired");
    WGPUSurfaceTexture st = WGPU_SURFACE_TEXTURE_INIT;
    wgpuSurfaceGetCurrentTexture(s, &st);
    EG_ASSERT(st.texture != NULL);
    EG_EXPECT(wgpuSurfaceEmgpuSetDamage(s, NULL, 1) == WGPUStatus_Error);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_DAMAGE, "rects is NULL with count 1");
    static WGPUEmgpuRect many[EMGPU_SURFACE_MAX_DAMAGE_RECTS + 1];
    for (uint32_t i = 0; i < EMGPU_SURFACE_MAX_DAMAGE_RECTS + 1; i++) many[i] = g_damage;
    EG_EXPECT(wgpuSurfaceEmgpuSetDamage(s, many, EMGPU_SURFACE_MAX_DAMAGE_RECTS + 1) == WGPUStatus_Error);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_DAMAGE, "EMGPU_SURFACE_MAX_DAMAGE_RECTS");
    WGPUEmgpuRect out = { PW - 4, 0, 5, 1 };          /* x + width = 33 > 32 */
    EG_EXPECT(wgpuSurfaceEmgpuSetDamage(s, &out, 1) == WGPUStatus_Error);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_DAMAGE, "not inside the configured size 32x24");
    WGPUEmgpuRect empty = { 1, 1, 0, 3 };
    EG_EXPECT(wgpuSurfaceEmgpuSetDamage(s, &empty, 1) == WGPUStatus_Error);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_DAMAGE, "is empty");
    WGPUEmgpuRect edge = { PW - 1, PH - 1, 1, 1 };   /* the last pixel: inside */
    EG_EXPECT(wgpuSurfaceEmgpuSetDamage(s, &edge, 1) == WGPUStatus_Success);
    EG_EXPECT(wgpuSurfaceEmgpuSetDamage(s, NULL, 0) == WGPUStatus_Success);   /* whole again */
    EG_EXPECT_NO_ERROR();
    /* after the frame's texture was submitted: too late to skip any rendering */
    WGPUTextureView v = wgpuTextureCreateView(st.texture, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = v; ca.loadOp = WGPULoadOp_Clear; ca.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1; pd.colorAttachments = &ca;
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
    t_submit(e);
    wgpuTextureViewRelease(v);
    EG_EXPECT(wgpuSurfaceEmgpuSetDamage(s, &g_damage, 1) == WGPUStatus_Error);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, SURFACE_DAMAGE, "already used by wgpuQueueSubmit");
    EG_EXPECT(wgpuSurfacePresent(s) == WGPUStatus_Success);
    wgpuTextureRelease(st.texture);
    wgpuSurfaceRelease(s);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
