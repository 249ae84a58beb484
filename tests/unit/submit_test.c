/* Tests for the submit-time checks of command buffers (spec queue.submit()). */
#include "tests/unit/cmd_test_util.h"

#define U_CP (WGPUBufferUsage_CopySrc | WGPUBufferUsage_CopyDst)

static WGPUCommandBuffer copy_cb(WGPUDevice d, WGPUBuffer a, WGPUBuffer b)
{
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderCopyBufferToBuffer(e, a, 0, b, 0, 4);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    wgpuCommandEncoderRelease(e);
    return cb;
}

EG_TEST(submit, destroyed_buffer_used_in_submit)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBuffer a = t_buffer(d, U_CP, 16), b = t_buffer(d, U_CP, 16);
    WGPUCommandBuffer cb = copy_cb(d, a, b);
    wgpuBufferDestroy(b);                         /* after recording, before submit */
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, CMDBUF_RESOURCE_STATE, "destroyed buffer");
    wgpuCommandBufferRelease(cb);
    wgpuBufferRelease(a);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

EG_TEST(submit, mapped_buffer_used_in_submit)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = U_CP;
    bd.size = 16;
    bd.mappedAtCreation = 1;
    WGPUBuffer a = wgpuDeviceCreateBuffer(d, &bd), b = t_buffer(d, U_CP, 16);
    WGPUCommandBuffer cb = copy_cb(d, a, b);
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);     /* spec: buffers used must be unmapped */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, CMDBUF_RESOURCE_STATE, "is mapped");
    wgpuBufferUnmap(a);
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);     /* the failed submit did not consume it */
    EG_EXPECT_NO_ERROR();
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);     /* a command buffer is submitted once */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, CMDBUF_INVALID, "already submitted");
    wgpuCommandBufferRelease(cb);
    wgpuBufferRelease(a);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

EG_TEST(submit, invalid_command_buffer)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBuffer a = t_buffer(d, U_CP, 16);
    WGPUCommandEncoder e = t_encoder(d);
    wgpuCommandEncoderClearBuffer(e, a, 0, 3);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, COPY_ALIGNMENT, "size 3");
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, CMDBUF_INVALID, "is invalid");
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(e);
    wgpuBufferRelease(a);
    eg_test_device_release();
}

/* A command buffer keeps what it references alive: releasing the buffers before submit is fine. */
EG_TEST(submit, references_keep_objects_alive)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBuffer a = t_buffer(d, U_CP, 16), b = t_buffer(d, U_CP, 16);
    const uint32_t x = 0xA5A5F00Du;
    wgpuQueueWriteBuffer(eg_test_queue(), a, 0, &x, 4);
    WGPUCommandBuffer cb = copy_cb(d, a, b);
    wgpuBufferRelease(a);
    wgpuBufferAddRef(b);
    wgpuBufferRelease(b);
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);
    EG_EXPECT_NO_ERROR();
    wgpuCommandBufferRelease(cb);
    uint32_t out = 0;
    EG_EXPECT(t_readback(d, b, 0, 4, &out));
    EG_EXPECT_EQ_U(out, 0xA5A5F00Du);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

/* ---- tracker integration ---- */
#include "kernel/api/command_buffer.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"

static unsigned count_op(const eg_cmd_stream_t *s, eg_cmd_op_t op, unsigned *first_at)
{
    unsigned n = 0, i = 0;
    *first_at = ~0u;
    for (const eg_cmd_header_t *h = eg_cmd_first(s); h; h = eg_cmd_next(s, h), i++)
        if (h->op == op) {
            if (n++ == 0) *first_at = i;
        }
    return n;
}

EG_TEST(submit, tracker_places_barriers)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    /* device.c gives every device a tracker sized by the pool knobs. */
    EG_ASSERT(d->track != NULL && d->track->max_buffers == EMGPU_MAX_BUFFERS);
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1,
                              WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc);
    WGPUTextureView v = wgpuTextureCreateView(t, NULL);
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, 256 * 4);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = v;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    c.clearValue.g = 1.0;
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &c;
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
    WGPUTexelCopyTextureInfo ti = t_tex_info(t, 0, 0, 0, 0);
    WGPUTexelCopyBufferInfo bi = t_buf_info(b, 0, 256, 4);
    WGPUExtent3D sz = t_extent(4, 4, 1);
    wgpuCommandEncoderCopyTextureToBuffer(e, &ti, &bi, &sz);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    EG_EXPECT_NO_ERROR();
    /* COLOR_TARGET -> COPY_SRC for the texture: one barrier, placed after the pass's end and
     * before the copy; the pass's own first use needs none inside the command buffer. */
    unsigned first_barrier, first_begin;
    EG_EXPECT_EQ_U(count_op(&cb->enc.stream, EG_CMD_BARRIER, &first_barrier), 1);
    EG_EXPECT_EQ_U(count_op(&cb->enc.stream, EG_CMD_BEGIN_RENDER_PASS, &first_begin), 1);
    EG_EXPECT(first_begin < first_barrier);
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);
    EG_EXPECT_NO_ERROR();
    /* at submit the device-level transition (UNINITIALIZED -> COLOR_TARGET) went in front */
    EG_EXPECT_EQ_U(count_op(&cb->enc.stream, EG_CMD_BARRIER, &first_barrier), 2);
    EG_EXPECT_EQ_U(first_barrier, 0);
    uint8_t out[4];
    EG_EXPECT(t_readback(d, b, 0, 4, out));
    EG_EXPECT_EQ_U(out[1], 255);
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(e);
    wgpuBufferRelease(b);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* Spec queue.submit(): a texture used by the command buffer (here as a render attachment, the
 * path that only references it through a view) must not be destroyed: a validation error that
 * names it, and nothing executes. */
EG_TEST(submit, destroyed_attachment_texture_used_in_submit)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1, WGPUTextureUsage_RenderAttachment);
    WGPUTextureView v = wgpuTextureCreateView(t, NULL);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = v;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &c;
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    wgpuCommandEncoderRelease(e);
    EG_EXPECT_NO_ERROR();
    wgpuTextureDestroy(t);
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, CMDBUF_RESOURCE_STATE, "destroyed texture");
    wgpuCommandBufferRelease(cb);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

EG_TEST(submit, attachment_texture_destroyed_before_recording)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUTexture t = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 4, 4, 1, 1, 1, WGPUTextureUsage_RenderAttachment);
    WGPUTextureView v = wgpuTextureCreateView(t, NULL);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = v;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &c;
    wgpuTextureDestroy(t);                        /* before the pass is even recorded */
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassEncoder p = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderEnd(p);
    wgpuRenderPassEncoderRelease(p);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    wgpuCommandEncoderRelease(e);
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, CMDBUF_RESOURCE_STATE, "destroyed texture");
    wgpuCommandBufferRelease(cb);
    wgpuTextureViewRelease(v);
    wgpuTextureRelease(t);
    eg_test_device_release();
}

/* The same rule through a bind group: a storage buffer destroyed before the compute pass that
 * binds it is recorded. Recording and Finish succeed; queue.submit is the validation error. */
EG_TEST(submit, bind_group_buffer_destroyed_before_recording)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayoutEntry le = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    le.binding = 0;
    le.visibility = WGPUShaderStage_Compute;
    le.buffer.type = WGPUBufferBindingType_Storage;
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.entryCount = 1;
    ld.entries = &le;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(d, &ld);
    WGPUBuffer b = t_buffer(d, WGPUBufferUsage_Storage, 16);
    WGPUBindGroupEntry be = WGPU_BIND_GROUP_ENTRY_INIT;
    be.binding = 0;
    be.buffer = b;
    be.size = 16;
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl;
    bd.entryCount = 1;
    bd.entries = &be;
    WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bd);
    wgpuBufferDestroy(b);
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder p = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderSetBindGroup(p, 0, bg, 0, NULL);
    wgpuComputePassEncoderEnd(p);
    wgpuComputePassEncoderRelease(p);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    wgpuCommandEncoderRelease(e);
    EG_EXPECT_NO_ERROR();
    wgpuQueueSubmit(eg_test_queue(), 1, &cb);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, CMDBUF_RESOURCE_STATE, "destroyed buffer");
    wgpuCommandBufferRelease(cb);
    wgpuBindGroupRelease(bg);
    wgpuBufferRelease(b);
    wgpuBindGroupLayoutRelease(bgl);
    eg_test_device_release();
}
