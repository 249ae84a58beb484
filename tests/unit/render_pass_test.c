/* Tests for render passes: descriptor validation, pass state rules, and soft load/store/resolve. */
#include "tests/unit/cmd_test_util.h"

#define T_RT (WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc)

static WGPURenderPassColorAttachment color_att(WGPUTextureView v, double r, double g, double b, double a)
{
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = v;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    c.clearValue.r = r; c.clearValue.g = g; c.clearValue.b = b; c.clearValue.a = a;
    return c;
}

static WGPURenderPassDescriptor pass_desc(const WGPURenderPassColorAttachment *c, size_t n)
{
    WGPURenderPassDescriptor d = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    d.colorAttachmentCount = n;
    d.colorAttachments = c;
    return d;
}

/* Runs one pass with the given descriptor and ends it. */
static void run_pass(WGPUCommandEncoder e, const WGPURenderPassDescriptor *d)
{
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, d);
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
}

/* Reads texel (0,0) .. of a 4x4 texture's mip 0 layer 0 through a buffer: row 0, n bytes. */
static bool read_row0(WGPUDevice d, WGPUTexture t, WGPUTextureAspect aspect, uint32_t h, void *out, uint32_t n)
{
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * h);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUTexelCopyTextureInfo ti = t_tex_info(t, 0, 0, 0, 0);
    ti.aspect = aspect;
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, 0, 256, h);
    WGPUExtent3D sz = t_extent(4, h, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    t_submit(e);
    bool ok = t_readback(d, b, 0, n, out);
    wgpuBufferRelease(b);
    return ok;
}

static void clear_and_read(WGPUDevice d, WGPUTextureFormat fmt, double r, double g, double b, double a,
                           uint8_t out[16])
{
    WGPUTexture t = t_texture(d, fmt, 4, 4, 1, 1, 1, T_RT);
    WGPUTextureView v = wgpuTextureCreateView(t, NULL);
    WGPURenderPassColorAttachment c = color_att(v, r, g, b, a);
    WGPURenderPassDescriptor pd = pass_desc(&c, 1);
    WGPUCommandEncoder e = t_encoder(d);
    run_pass(e, &pd);
    t_submit(e);
    EG_EXPECT(read_row0(d, t, WGPUTextureAspect_All, 4, out, 16));
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
}

EG_TEST(render_pass, clear_rgba8unorm_exact_bytes)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    uint8_t out[16];
    clear_and_read(d, WGPUTextureFormat_RGBA8Unorm, 0.5, 0.25, 1.0, 0.0, out);
    /* spec unorm conversion: round(0.5 * 255) = 128, round(0.25 * 255) = round(63.75) = 64 */
    const uint8_t want[4] = { 128, 64, 255, 0 };
    for (unsigned i = 0; i < 4; i++) EG_EXPECT(memcmp(out + i * 4, want, 4) == 0);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

EG_TEST(render_pass, clear_srgb_encodes)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    uint8_t out[16];
    clear_and_read(d, WGPUTextureFormat_RGBA8UnormSrgb, 0.5, 0.2, 0.0, 0.5, out);
    /* sRGB OETF 1.055 * v^(1/2.4) - 0.055: 0.5 -> 0.73536 * 255 = 187.5 -> 188;
     * 0.2 -> 123.55 -> 124; alpha stays linear: round(0.5 * 255) = 128. */
    EG_EXPECT_EQ_U(out[0], 188);
    EG_EXPECT_EQ_U(out[1], 124);
    EG_EXPECT_EQ_U(out[2], 0);
    EG_EXPECT_EQ_U(out[3], 128);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

EG_TEST(render_pass, clear_bgra_and_integer_formats)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    uint8_t out[16];
    clear_and_read(d, WGPUTextureFormat_BGRA8Unorm, 1.0, 0.0, 0.5, 1.0, out);
    EG_EXPECT_EQ_U(out[0], 128);     /* B first in memory */
    EG_EXPECT_EQ_U(out[2], 255);     /* then G, R */
    clear_and_read(d, WGPUTextureFormat_R16Sint, -5.0, 0, 0, 0, out);
    EG_EXPECT_EQ_U(out[0], 0xFB);    /* -5 as little-endian int16: 0xFFFB */
    EG_EXPECT_EQ_U(out[1], 0xFF);
    clear_and_read(d, WGPUTextureFormat_R32Float, 0.25, 0, 0, 0, out);
    const uint8_t f025[4] = { 0x00, 0x00, 0x80, 0x3E };   /* IEEE 754 0.25 = 0x3E800000 */
    EG_EXPECT(memcmp(out, f025, 4) == 0);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

EG_TEST(render_pass, depth_clear)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_Depth32Float, 4, 4, 1, 1, 1, T_RT);
    WGPUTextureView v = wgpuTextureCreateView(t, NULL);
    WGPURenderPassDepthStencilAttachment ds = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    ds.view = v;
    ds.depthLoadOp = WGPULoadOp_Clear;
    ds.depthStoreOp = WGPUStoreOp_Store;
    ds.depthClearValue = 0.25f;
    WGPURenderPassDescriptor pd = pass_desc(NULL, 0);
    pd.depthStencilAttachment = &ds;
    WGPUCommandEncoder e = t_encoder(d);
    run_pass(e, &pd);
    t_submit(e);
    uint8_t out[16];
    EG_EXPECT(read_row0(d, t, WGPUTextureAspect_DepthOnly, 4, out, 16));
    const uint8_t f025[4] = { 0x00, 0x00, 0x80, 0x3E };
    for (unsigned i = 0; i < 4; i++) EG_EXPECT(memcmp(out + i * 4, f025, 4) == 0);
    EG_EXPECT_NO_ERROR();
    /* spec: depthClearValue must be in [0, 1] when depthLoadOp is Clear */
    ds.depthClearValue = 2.0f;
    e = t_encoder(d);
    run_pass(e, &pd);
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PASS_CLEAR_VALUE, "depthClearValue 2.000");
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

EG_TEST(render_pass, msaa_resolve_and_discard)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture ms = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 4, WGPUTextureUsage_RenderAttachment);
    WGPUTexture rt = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1, T_RT);
    WGPUTextureView mv = wgpuTextureCreateView(ms, NULL), rv = wgpuTextureCreateView(rt, NULL);
    WGPURenderPassColorAttachment c = color_att(mv, 1.0, 0.5, 0.0, 1.0);
    c.resolveTarget = rv;
    c.storeOp = WGPUStoreOp_Discard;
    WGPURenderPassDescriptor pd = pass_desc(&c, 1);
    WGPUCommandEncoder e = t_encoder(d);
    run_pass(e, &pd);
    t_submit(e);
    uint8_t out[16];
    EG_EXPECT(read_row0(d, rt, WGPUTextureAspect_All, 4, out, 16));
    /* all 4 samples hold the clear value, so their average is it: {255, 128, 0, 255} */
    const uint8_t want[4] = { 255, 128, 0, 255 };
    for (unsigned i = 0; i < 4; i++) EG_EXPECT(memcmp(out + i * 4, want, 4) == 0);
    EG_EXPECT_NO_ERROR();
    /* storeOp Discard on a single-sampled target leaves zeros */
    WGPURenderPassColorAttachment c2 = color_att(rv, 1.0, 1.0, 1.0, 1.0);
    c2.storeOp = WGPUStoreOp_Discard;
    pd = pass_desc(&c2, 1);
    e = t_encoder(d);
    run_pass(e, &pd);
    t_submit(e);
    EG_EXPECT(read_row0(d, rt, WGPUTextureAspect_All, 4, out, 16));
    EG_EXPECT_EQ_U(out[0], 0);
    EG_EXPECT_EQ_U(out[15], 0);
    EG_EXPECT_NO_ERROR();
    wgpuTextureViewRelease(mv);
    wgpuTextureViewRelease(rv);
    wgpuTextureRelease(ms);
    wgpuTextureRelease(rt);
    eg_test_device_release();
}

EG_TEST(render_pass, descriptor_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1, T_RT);
    WGPUTexture t8 = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 8, 8, 1, 1, 1, T_RT);
    WGPUTexture ti = t_texture(d, WGPUTextureFormat_RGBA8Uint, 4, 4, 1, 1, 1, T_RT);
    WGPUTexture nort = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1, WGPUTextureUsage_CopySrc);
    WGPUTextureView v = wgpuTextureCreateView(t, NULL), v8 = wgpuTextureCreateView(t8, NULL);
    WGPUTextureView vi = wgpuTextureCreateView(ti, NULL), vn = wgpuTextureCreateView(nort, NULL);
    WGPURenderPassColorAttachment two[2] = { color_att(v, 0, 0, 0, 0), color_att(v8, 0, 0, 0, 0) };
    WGPURenderPassColorAttachment bad = color_att(v, 0, 0, 0, 0);
    struct { WGPURenderPassDescriptor d; eg_error_code_t code; const char *frag; } c[8];
    unsigned n = 0;
    c[n].d = pass_desc(NULL, 0);                                 /* no attachment at all */
    c[n].code = EG_E_PASS_ATTACHMENT_COUNT; c[n++].frag = "at least one";
    c[n].d = pass_desc(two, 2);                                  /* 4x4 and 8x8 */
    c[n].code = EG_E_PASS_ATTACHMENT_SIZE; c[n++].frag = "is 8x8";
    WGPURenderPassColorAttachment noload = bad;
    noload.loadOp = WGPULoadOp_Undefined;                        /* spec: loadOp required */
    c[n].d = pass_desc(&noload, 1);
    c[n].code = EG_E_PASS_LOAD_STORE_OP; c[n++].frag = "loadOp";
    WGPURenderPassColorAttachment slice = bad;
    slice.depthSlice = 0;                                        /* 2D view: must stay undefined */
    c[n].d = pass_desc(&slice, 1);
    c[n].code = EG_E_PASS_DEPTH_SLICE; c[n++].frag = "depthSlice";
    WGPURenderPassColorAttachment big = color_att(vi, 1, 2, 3, 300);   /* 300 > 255 for RGBA8Uint */
    c[n].d = pass_desc(&big, 1);
    c[n].code = EG_E_PASS_CLEAR_VALUE; c[n++].frag = "clearValue component 3";
    WGPURenderPassColorAttachment nr = color_att(vn, 0, 0, 0, 0);
    c[n].d = pass_desc(&nr, 1);
    c[n].code = EG_E_PASS_ATTACHMENT_VIEW; c[n++].frag = "lacks WGPUTextureUsage_RenderAttachment";
    WGPURenderPassColorAttachment rs = bad;
    rs.resolveTarget = v8;                                       /* resolve needs a multisampled view */
    c[n].d = pass_desc(&rs, 1);
    c[n].code = EG_E_PASS_RESOLVE_TARGET; c[n++].frag = "not multisampled";
    int dummy_query = 0;
    c[n].d = pass_desc(&bad, 1);
    c[n].d.occlusionQuerySet = (WGPUQuerySet)(void *)&dummy_query;   /* never dereferenced */
    c[n].code = EG_E_PASS_QUERY_UNSUPPORTED; c[n++].frag = "occlusionQuerySet";
    for (unsigned i = 0; i < n; i++) {
        WGPUCommandEncoder e = t_encoder(d);
        run_pass(e, &c[i].d);
        EG_EXPECT_NO_ERROR();                                    /* deferred to Finish */
        t_finish(e);
        T_EXPECT_VALIDATION(c[i].code, c[i].frag);
    }
    wgpuTextureViewRelease(v); wgpuTextureViewRelease(v8);
    wgpuTextureViewRelease(vi); wgpuTextureViewRelease(vn);
    wgpuTextureRelease(t); wgpuTextureRelease(t8); wgpuTextureRelease(ti); wgpuTextureRelease(nort);
    eg_test_device_release();
}

EG_TEST(render_pass, state_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1, T_RT);
    WGPUTextureView v = wgpuTextureCreateView(t, NULL);
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 16);
    WGPUBuffer b2 = t_buffer(d, WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst, 16);
    WGPURenderPassColorAttachment c = color_att(v, 0, 0, 0, 0);
    WGPURenderPassDescriptor pd = pass_desc(&c, 1);

    /* spec "encoder state": an encoder command while a pass is open invalidates the encoder */
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuCommandEncoderCopyBufferToBuffer(e, b, 0, b2, 0, 4);
    wgpuRenderPassEncoderEnd(p);
    EG_EXPECT_NO_ERROR();
    wgpuRenderPassEncoderRelease(p);
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, ENCODER_LOCKED, "End() it first");

    /* Finish with the pass still open */
    e = t_encoder(d);
    p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    t_finish(e);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PASS_OPEN, "still open");
    wgpuRenderPassEncoderRelease(p);

    /* calls on an ended pass fail at once (spec: "ended" state) */
    e = t_encoder(d);
    p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderEnd(p);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PASS_ENDED, "already ended");
    wgpuRenderPassEncoderSetStencilReference(p, 1);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PASS_ENDED, "already ended");
    wgpuRenderPassEncoderRelease(p);
    t_finish(e);
    EG_EXPECT_NO_ERROR();

    /* viewport, scissor, draw without pipeline, unbalanced debug groups: deferred */
    for (unsigned k = 0; k < 4; k++) {
        e = t_encoder(d);
        p = wgpuCommandEncoderBeginRenderPass(e, &pd);
        if (k == 0) wgpuRenderPassEncoderSetViewport(p, 0, 0, 5, 4, 0, 1);     /* 0 + 5 > 4 */
        if (k == 1) wgpuRenderPassEncoderSetScissorRect(p, 2, 0, 3, 4);        /* 2 + 3 > 4 */
        if (k == 2) wgpuRenderPassEncoderDraw(p, 3, 1, 0, 0);
        if (k == 3) wgpuRenderPassEncoderPopDebugGroup(p);
        wgpuRenderPassEncoderEnd(p);
        wgpuRenderPassEncoderRelease(p);
        EG_EXPECT_NO_ERROR();
        t_finish(e);
        static const eg_error_code_t codes[4] = { EG_E_VIEWPORT, EG_E_SCISSOR, EG_E_DRAW_STATE,
                                                  EG_E_DEBUG_GROUP_UNBALANCED };
        static const char *const frags[4] = { "viewport", "scissor (2, 0, 3 x 4)", "no pipeline set",
                                              "PopDebugGroup" };
        T_EXPECT_VALIDATION(codes[k], frags[k]);
    }
    wgpuBufferRelease(b);
    wgpuBufferRelease(b2);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Pool capacity + 1: ended passes keep their slots until released (EMGPU_MAX_PASS_ENCODERS). */
EG_TEST(render_pass, pass_pool_capacity_plus_one)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1, T_RT);
    WGPUTextureView v = wgpuTextureCreateView(t, NULL);
    WGPURenderPassColorAttachment c = color_att(v, 0, 0, 0, 0);
    WGPURenderPassDescriptor pd = pass_desc(&c, 1);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder ps[EMGPU_MAX_PASS_ENCODERS];
    for (unsigned i = 0; i < EMGPU_MAX_PASS_ENCODERS; i++) {
        ps[i] = wgpuCommandEncoderBeginRenderPass(e, &pd);
        EG_EXPECT(ps[i] != NULL);
        wgpuRenderPassEncoderEnd(ps[i]);
    }
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(wgpuCommandEncoderBeginRenderPass(e, &pd) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_PASS_ENCODERS");
    for (unsigned i = 0; i < EMGPU_MAX_PASS_ENCODERS; i++) wgpuRenderPassEncoderRelease(ps[i]);
    t_finish(e);
    EG_EXPECT_NO_ERROR();
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}
