/* hal/soft lazy discards (soft_exec.c): a depth plane stored with Discard reads as zeros
 * afterwards (WebGPU: discarded contents read as if lazily cleared), but the zero fill is only
 * done where something could see the plane before a pass clears it.
 *
 * Each case clears a 16x16 depth16unorm plane to 0.5 (0x8000) in a pass that stores it with
 * Discard, then does one thing, then copies the plane out; expected texels are computed from the
 * WebGPU rules (zeros after a discard, the clear value after a clear, the written bytes where
 * written), and the counters say whether the fill was done, skipped or dropped. Planted bugs:
 * "never fill" (a copy after the discard reads 0x8000), "drop at any begin" (a pass that loads
 * the plane reads 0x8000), "no settle before a queue write" (the fill lands on the written
 * plane at the next command: zeros). */
#include "tests/harness/test_device.h"

#include "kernel/base/util.h"
#include "tests/unit/cmd_test_util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_internal.h"

#define DPX 16u

typedef struct dres {
    WGPUTexture t;
    WGPUTextureView v;
    WGPUBuffer rb;
} dres_t;

static bool dres_init(WGPUDevice d, dres_t *r)
{
    r->t = t_texture(d, WGPUTextureFormat_Depth16Unorm, DPX, DPX, 1, 1, 1,
                     WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst);
    r->rb = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256u * DPX);
    if (!r->t || !r->rb) return false;
    r->v = wgpuTextureCreateView(r->t, NULL);
    return r->v != NULL;
}

static void dres_release(dres_t *r)
{
    if (r->v) wgpuTextureViewRelease(r->v);
    if (r->t) wgpuTextureRelease(r->t);
    if (r->rb) wgpuBufferRelease(r->rb);
}

/* A pass with only the depth attachment: load (Clear to z, or Load), store (Store or Discard). */
static void depth_pass(WGPUCommandEncoder e, WGPUTextureView v, bool clear, float z, bool discard)
{
    WGPURenderPassDepthStencilAttachment da = WGPU_RENDER_PASS_DEPTH_STENCIL_ATTACHMENT_INIT;
    da.view = v;
    da.depthLoadOp = clear ? WGPULoadOp_Clear : WGPULoadOp_Load;
    da.depthStoreOp = discard ? WGPUStoreOp_Discard : WGPUStoreOp_Store;
    da.depthClearValue = z;
    WGPURenderPassDescriptor rpd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rpd.depthStencilAttachment = &da;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &rpd);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
}

/* The plane cleared to 0.5 and stored with Discard, in a submit of its own. */
static void discarded(WGPUDevice d, const dres_t *r)
{
    WGPUCommandEncoder e = t_encoder(d);
    depth_pass(e, r->v, true, 0.5f, true);
    t_submit(e);
}

static void copy_out(WGPUCommandEncoder e, const dres_t *r)
{
    WGPUTexelCopyTextureInfo ti = t_tex_info(r->t, 0, 0, 0, 0);
    ti.aspect = WGPUTextureAspect_DepthOnly;
    WGPUTexelCopyBufferInfo bi = t_buf_info(r->rb, 0, 256, DPX);
    WGPUExtent3D sz = t_extent(DPX, DPX, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
}

/* Texels of the copied plane that differ from want(x, y). */
static uint32_t bad_texels(WGPUDevice d, const dres_t *r, uint16_t inside, uint16_t outside, uint32_t n_in)
{
    static uint8_t rows[256u * DPX];
    if (!t_readback(d, r->rb, 0, sizeof rows, rows)) return UINT32_MAX;
    uint32_t bad = 0;
    for (uint32_t y = 0; y < DPX; y++)
        for (uint32_t x = 0; x < DPX; x++) {
            uint16_t v = (uint16_t)(rows[y * 256u + 2u * x] | rows[y * 256u + 2u * x + 1u] << 8);
            bad += v != (x < n_in && y < n_in ? inside : outside);
        }
    return bad;
}

EG_TEST(soft_discard, depth_reads_zero_unless_cleared_first)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("tests hal/soft lazy discards");
    }
    dres_t r = { 0 };
    EG_ASSERT(dres_init(d, &r));
    eg_soft_discard_stats_t a, b;

    /* 1. discard, then a copy in the same submit: filled before the copy, zeros */
    eg_soft_discard_stats(&a);
    WGPUCommandEncoder e = t_encoder(d);
    depth_pass(e, r.v, true, 0.5f, true);
    copy_out(e, &r);
    t_submit(e);
    eg_soft_discard_stats(&b);
    EG_EXPECT_EQ_U(bad_texels(d, &r, 0, 0, 0), 0);
    EG_EXPECT_EQ_U(b.deferred - a.deferred, 1u);
    EG_EXPECT_EQ_U(b.filled - a.filled, 1u);

    /* 2. discard (its own submit), then a pass that loads the plane: filled at its begin */
    discarded(d, &r);
    eg_soft_discard_stats(&a);
    e = t_encoder(d);
    depth_pass(e, r.v, false, 0.0f, false);
    copy_out(e, &r);
    t_submit(e);
    eg_soft_discard_stats(&b);
    EG_EXPECT_EQ_U(bad_texels(d, &r, 0, 0, 0), 0);
    EG_EXPECT_EQ_U(b.filled - a.filled, 1u);

    /* 3. discard, then a pass that clears the plane to 0.25: never filled, the clear's value
     * (depth16unorm: round(0.25 x 65535) = 16384) */
    discarded(d, &r);
    eg_soft_discard_stats(&a);
    e = t_encoder(d);
    depth_pass(e, r.v, true, 0.25f, false);
    copy_out(e, &r);
    t_submit(e);
    eg_soft_discard_stats(&b);
    EG_EXPECT_EQ_U(bad_texels(d, &r, 0, 16384u, 0), 0);
    EG_EXPECT_EQ_U(b.dropped - a.dropped, 1u);
    EG_EXPECT_EQ_U(b.filled - a.filled, 0);

    /* 4. discard, then a queue write of the whole plane (WebGPU: depth planes are written whole)
     * with 0xFFFF: the pending fill must not land after it */
    discarded(d, &r);
    static uint16_t ones[DPX * DPX];
    for (uint32_t i = 0; i < DPX * DPX; i++) ones[i] = 0xFFFF;
    WGPUTexelCopyTextureInfo wi = t_tex_info(r.t, 0, 0, 0, 0);
    wi.aspect = WGPUTextureAspect_DepthOnly;
    WGPUTexelCopyBufferLayout wl = { 0, 2u * DPX, DPX };
    WGPUExtent3D wsz = t_extent(DPX, DPX, 1);
    wgpuQueueWriteTexture(eg_test_queue(), &wi, ones, sizeof ones, &wl, &wsz);
    e = t_encoder(d);
    copy_out(e, &r);
    t_submit(e);
    EG_EXPECT_EQ_U(bad_texels(d, &r, 0xFFFFu, 0xFFFFu, 0), 0);

    /* 5. discard, then the texture goes: nothing is filled later (ASan: no write to freed
     * memory), and the next submit has nothing pending */
    discarded(d, &r);
    eg_soft_discard_stats(&a);
    wgpuTextureViewRelease(r.v);
    wgpuTextureRelease(r.t);
    r.v = NULL;
    r.t = NULL;
    WGPUBuffer tmp = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256);
    e = t_encoder(d);
    wgpuCommandEncoderClearBuffer(e, tmp, 0, 256);
    t_submit(e);
    eg_soft_discard_stats(&b);
    EG_EXPECT_EQ_U(b.filled - a.filled, 0);
    wgpuBufferRelease(tmp);

    EG_EXPECT_NO_ERROR();
    dres_release(&r);
    eg_test_device_release();
}

#endif /* EMGPU_HAL_SOFT */
