/* Size probe: the smallest useful emgpu application, linked by `make size` to measure flash/RAM.
 *
 * It does one full cycle on the software backend through the public API: device, a buffer and a
 * texture, an upload, a render-pass clear, copies, submit, a mapped readback, and releases. With
 * --gc-sections the image keeps exactly what such an application pulls in, which is the figure
 * that matters on a microcontroller (tools/size_report.sh). It also runs: the exit status is 0
 * when the read-back pixel is the clear colour and no WebGPU error was reported.
 */
#include <webgpu/webgpu.h>

#include "examples/soft_device.h"

#include <stdint.h>

#define SIDE_PX 16u
#define ROW_B (256u) /* bytesPerRow must be a multiple of 256 (WebGPU copy rules) */

int main(int argc, char **argv);

static unsigned error_count;

static void on_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message,
                     void *userdata1, void *userdata2)
{
    (void)device;
    (void)type;
    (void)message;
    (void)userdata1;
    (void)userdata2;
    error_count++;
}

static int cycle(WGPUInstance instance, WGPUDevice device)
{
    WGPUQueue queue = wgpuDeviceGetQueue(device);

    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst;
    td.size.width = SIDE_PX;
    td.size.height = SIDE_PX;
    td.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUTexture tex = wgpuDeviceCreateTexture(device, &td);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);

    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead;
    bd.size = (uint64_t)ROW_B * SIDE_PX;
    WGPUBuffer readback = wgpuDeviceCreateBuffer(device, &bd);

    /* An upload first (WriteTexture), then a clear over it, then the copy out. */
    static uint8_t texels[4 * SIDE_PX];
    WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    dst.texture = tex;
    WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
    layout.bytesPerRow = 4 * SIDE_PX;
    WGPUExtent3D row = { SIDE_PX, 1, 1 };
    wgpuQueueWriteTexture(queue, &dst, texels, sizeof texels, &layout, &row);

    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(device, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = view;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ 0.0, 1.0, 0.0, 1.0 };
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 1;
    rp.colorAttachments = &ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);

    WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    src.texture = tex;
    WGPUTexelCopyBufferInfo out = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
    out.buffer = readback;
    out.layout.bytesPerRow = ROW_B;
    WGPUExtent3D all = { SIDE_PX, SIDE_PX, 1 };
    wgpuCommandEncoderCopyTextureToBuffer(enc, &src, &out, &all);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuQueueSubmit(queue, 1, &cb);
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(enc);

    int ok = example_map_read(instance, readback, (size_t)bd.size);
    if (ok) {
        const uint8_t *px = wgpuBufferGetConstMappedRange(readback, 0, (size_t)bd.size);
        ok = px && px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 255;
        wgpuBufferUnmap(readback);
    }
    wgpuBufferRelease(readback);
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuQueueRelease(queue);
    return ok;
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    WGPUInstance instance = wgpuCreateInstance(NULL);
    if (!instance) return 2;
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.uncapturedErrorCallbackInfo.callback = on_error;
    WGPUAdapter adapter;
    WGPUDevice device = example_soft_device(instance, &dd, &adapter);
    int ok = device && cycle(instance, device) && error_count == 0;
    if (device) wgpuDeviceRelease(device);
    if (adapter) wgpuAdapterRelease(adapter);
    wgpuInstanceRelease(instance);
    return ok ? 0 : 1;
}
