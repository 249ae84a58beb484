/* Queues: Submit, WriteBuffer, WriteTexture, OnSubmittedWorkDone, and the queue's references. */
#include "kernel/api/queue.h"

#include "kernel/api/buffer.h"
#include "kernel/api/device.h"
#include "kernel/api/future.h"
#include "kernel/api/instance.h"
#include "kernel/api/texture.h"
#include "kernel/base/fmt.h"

/* A queue handle stands for its device: AddRef/Release on the queue count on the device, so the
 * two cannot form a reference cycle and the queue lives exactly as long as its device. */
static bool queue_live(WGPUQueue q, const char *entry)
{
    return eg_handle_live(q, EG_KIND_QUEUE, entry);
}

void wgpuQueueAddRef(WGPUQueue queue)
{
    if (queue_live(queue, "wgpuQueueAddRef")) eg_object_ref(queue->obj.device);
}

void wgpuQueueRelease(WGPUQueue queue)
{
    if (queue_live(queue, "wgpuQueueRelease")) wgpuDeviceRelease(queue->obj.device);
}

void wgpuQueueSetLabel(WGPUQueue queue, WGPUStringView label)
{
    if (queue_live(queue, "wgpuQueueSetLabel")) eg_object_set_label(&queue->obj, label);
}

static void report_status(struct WGPUDeviceImpl *dev, const eg_vctx_t *v, eg_status_t st)
{
    (void)dev;
    if (st != EG_STATUS_OK) eg_fail_hal(v, st, "queue operation", 0);
}

/* Spec: queue.submit(): every command buffer valid, unsubmitted, of this device, its resources
 * alive and unmapped; one invalid command buffer fails the whole submit. */
void wgpuQueueSubmit(WGPUQueue queue, size_t commandCount, WGPUCommandBuffer const *commands)
{
    if (!queue_live(queue, "wgpuQueueSubmit")) return;
    struct WGPUDeviceImpl *dev = queue->obj.device;
    eg_vctx_t v = eg_vctx(dev, "wgpuQueueSubmit", queue->obj.label);
    if (commandCount && !commands) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_QUEUE_NULL_ARRAY,
                "commands is NULL with commandCount %u", (unsigned)commandCount);
        return;
    }
    if (commandCount > EMGPU_MAX_COMMAND_BUFFERS) {
        /* More than the pool holds means a handle is repeated or foreign. */
        eg_fail(&v, WGPUErrorType_Validation, EG_E_CMDBUF_INVALID, "commandCount %u exceeds the "
                "command buffer pool (EMGPU_MAX_COMMAND_BUFFERS = %u)", (unsigned)commandCount,
                (unsigned)EMGPU_MAX_COMMAND_BUFFERS);
        return;
    }
    const struct eg_cmd_stream *streams[EMGPU_MAX_COMMAND_BUFFERS];
    eg_band_frames_t band = { .count = 0 };
    for (size_t i = 0; i < commandCount; i++)
        if (!eg_command_buffer_prepare_submit(&v, commands[i], &streams[i]) ||
            !eg_command_buffer_check_band_passes(&v, commands[i], &band)) return;
    if (dev->lost) return;   /* spec: a submit on a lost device does nothing, silently */
    for (size_t i = 0; i < commandCount; i++)
        if (!eg_command_buffer_place_submit_barrier(&v, commands[i])) return;
    eg_hal_submit_t sub = { dev->submit_index + 1, streams, (uint32_t)commandCount };
    eg_status_t st = dev->hal->queue_submit(dev->hal_dev, &sub);
    if (st != EG_STATUS_OK) {
        report_status(dev, &v, st);
        return;
    }
    dev->submit_index = sub.index;
    for (uint32_t i = 0; i < band.count; i++) band.tex[i]->band_drawn = true;
    for (size_t i = 0; i < commandCount; i++) eg_command_buffer_mark_submitted(commands[i], sub.index);
    eg_device_poll(dev);
}

/* Spec: queue.writeBuffer(): buffer valid and of this device, CopyDst usage, offset and size
 * multiples of 4, range inside the buffer, buffer not mapped (map state "unmapped"). */
void wgpuQueueWriteBuffer(WGPUQueue queue, WGPUBuffer buffer, uint64_t bufferOffset, void const *data,
                          size_t size)
{
    if (!queue_live(queue, "wgpuQueueWriteBuffer")) return;
    struct WGPUDeviceImpl *dev = queue->obj.device;
    eg_vctx_t v = eg_vctx(dev, "wgpuQueueWriteBuffer", buffer && eg_handle_live(buffer, EG_KIND_BUFFER,
                          "wgpuQueueWriteBuffer") ? buffer->obj.label : NULL);
    if (!eg_buffer_check_use(&v, buffer, "buffer")) return;
    if (size && !data) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_QUEUE_NULL_ARRAY, "data is NULL with size %u",
                (unsigned)size);
        return;
    }
    if (!(buffer->usage & WGPUBufferUsage_CopyDst)) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_QUEUE_WRITE_USAGE,
                "buffer usage 0x%llx lacks WGPUBufferUsage_CopyDst", (unsigned long long)buffer->usage);
        return;
    }
    if (bufferOffset % 4 || size % 4) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_QUEUE_WRITE_ALIGNMENT,
                "bufferOffset %llu and size %llu must be multiples of 4",
                (unsigned long long)bufferOffset, (unsigned long long)size);
        return;
    }
    if (bufferOffset > buffer->size_B || size > buffer->size_B - bufferOffset) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_QUEUE_WRITE_OUT_OF_BOUNDS,
                "bufferOffset %llu + size %llu exceeds the buffer size %llu",
                (unsigned long long)bufferOffset, (unsigned long long)size,
                (unsigned long long)buffer->size_B);
        return;
    }
    if (buffer->map_state != WGPUBufferMapState_Unmapped) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_QUEUE_WRITE_MAPPED, "buffer is %s",
                buffer->map_state == WGPUBufferMapState_Mapped ? "mapped" : "pending a map");
        return;
    }
    if (dev->lost || size == 0) return;
    report_status(dev, &v, dev->hal->queue_write_buffer(dev->hal_dev, buffer, bufferOffset, data, size));
}

/* Spec: "validating GPUTexelCopyTextureInfo" + writeTexture(): mip level in range, origin and
 * size in whole blocks and inside the mip, CopyDst, sampleCount 1, a copyable aspect. */
static bool validate_write_dst(const eg_vctx_t *v, const WGPUTexelCopyTextureInfo *d,
                               const WGPUExtent3D *size, uint32_t *block_B)
{
    const eg_texture_t *t = d->texture;
    const eg_format_info_t *fi = t->fi;
    const WGPUTextureAspect aspect = eg_format_resolve_aspect(d->aspect);
    EG_CHECK(v, t->usage & WGPUTextureUsage_CopyDst, QUEUE_WRITE_USAGE,
             "destination.texture usage 0x%llx lacks WGPUTextureUsage_CopyDst", (unsigned long long)t->usage);
    EG_CHECK(v, d->mipLevel < t->mip_level_count, QUEUE_TEXEL_COPY,
             "destination.mipLevel %u exceeds the texture's mipLevelCount %u", d->mipLevel, t->mip_level_count);
    EG_CHECK(v, t->sample_count == 1, QUEUE_TEXEL_COPY,
             "destination.texture has sampleCount %u; only 1 can be written", t->sample_count);
    EG_CHECK(v, eg_format_aspects_selected(fi, aspect) != 0, QUEUE_TEXEL_COPY,
             "destination.aspect %u is not present in the texture's format", (unsigned)d->aspect);
    *block_B = eg_format_copy_block_B(fi, aspect);
    EG_CHECK(v, *block_B != 0, QUEUE_TEXEL_COPY, "destination.aspect %u of this format cannot be written",
             (unsigned)d->aspect);
    EG_CHECK(v, d->origin.x % fi->block_w_px == 0 && d->origin.y % fi->block_h_px == 0, QUEUE_TEXEL_COPY,
             "destination.origin %u,%u is not a multiple of the %ux%u block", d->origin.x, d->origin.y,
             fi->block_w_px, fi->block_h_px);
    EG_CHECK(v, size->width % fi->block_w_px == 0 && size->height % fi->block_h_px == 0, QUEUE_TEXEL_COPY,
             "writeSize %ux%u is not a multiple of the %ux%u block", size->width, size->height,
             fi->block_w_px, fi->block_h_px);
    WGPUExtent3D m = eg_format_mip_extent_physical(fi, t->dimension, t->size, d->mipLevel);
    EG_CHECK(v, (uint64_t)d->origin.x + size->width <= m.width &&
                (uint64_t)d->origin.y + size->height <= m.height &&
                (uint64_t)d->origin.z + size->depthOrArrayLayers <= m.depthOrArrayLayers, QUEUE_TEXEL_COPY,
             "origin %u,%u,%u + writeSize %ux%ux%u exceeds mip %u (%ux%ux%u)", d->origin.x, d->origin.y,
             d->origin.z, size->width, size->height, size->depthOrArrayLayers, d->mipLevel, m.width,
             m.height, m.depthOrArrayLayers);
    /* A depth/stencil subresource is written whole (its layout is backend-defined). */
    if (eg_format_is_depth_stencil(fi))
        EG_CHECK(v, size->width == m.width && size->height == m.height, QUEUE_TEXEL_COPY,
                 "writeSize %ux%u must be the whole mip %u (%ux%u) of a depth/stencil texture",
                 size->width, size->height, d->mipLevel, m.width, m.height);
    return true;
}

static bool validate_layout(const eg_vctx_t *v, const eg_format_info_t *fi, uint32_t block_B,
                            const WGPUTexelCopyBufferLayout *l, size_t dataSize, WGPUExtent3D size,
                            eg_linear_layout_t *out)
{
    static const char *const rule[] = {
        "", "dataLayout.bytesPerRow is required when the copy has more than one block row",
        "dataLayout.bytesPerRow is smaller than one row of the copy",
        "dataLayout.rowsPerImage is required when writeSize.depthOrArrayLayers > 1",
        "dataLayout.rowsPerImage is smaller than the copy's block rows",
        "dataLayout.offset + the bytes the copy needs exceed dataSize",
    };
    eg_linear_status_t st = eg_format_linear_layout(block_B, fi->block_w_px, fi->block_h_px, l,
                                                    dataSize, size, out);
    EG_CHECK(v, st == EG_LINEAR_OK, QUEUE_TEXEL_LAYOUT, "%s (bytesPerRow %u, rowsPerImage %u, offset %llu, "
             "needs %llu of %llu bytes)", rule[st < 6 ? st : 0], l->bytesPerRow, l->rowsPerImage,
             (unsigned long long)l->offset, (unsigned long long)out->required_B,
             (unsigned long long)dataSize);
    return true;
}

void wgpuQueueWriteTexture(WGPUQueue queue, WGPUTexelCopyTextureInfo const *destination, void const *data,
                           size_t dataSize, WGPUTexelCopyBufferLayout const *dataLayout,
                           WGPUExtent3D const *writeSize)
{
    if (!queue_live(queue, "wgpuQueueWriteTexture")) return;
    struct WGPUDeviceImpl *dev = queue->obj.device;
    eg_vctx_t v = eg_vctx(dev, "wgpuQueueWriteTexture", queue->obj.label);
    if (!destination || !dataLayout || !writeSize) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_NULL_DESCRIPTOR, "%s is NULL",
                !destination ? "destination" : !dataLayout ? "dataLayout" : "writeSize");
        return;
    }
    if (!eg_texture_check_use(&v, destination->texture, "destination.texture")) return;
    if (dataSize && !data) {
        eg_fail(&v, WGPUErrorType_Validation, EG_E_QUEUE_NULL_ARRAY, "data is NULL with dataSize %u",
                (unsigned)dataSize);
        return;
    }
    uint32_t block_B = 0;
    eg_linear_layout_t lin;
    if (!validate_write_dst(&v, destination, writeSize, &block_B)) return;
    if (!validate_layout(&v, destination->texture->fi, block_B, dataLayout, dataSize, *writeSize, &lin))
        return;
    if (dev->lost || writeSize->width == 0 || writeSize->height == 0 || writeSize->depthOrArrayLayers == 0)
        return;
    eg_texel_region_t r = { destination->mipLevel, destination->origin.x, destination->origin.y,
                            destination->origin.z, writeSize->width, writeSize->height,
                            writeSize->depthOrArrayLayers,
                            eg_format_resolve_aspect(destination->aspect) };
    eg_buffer_layout_t bl = { dataLayout->offset, lin.bytes_per_row_B, lin.rows_per_image };
    report_status(dev, &v, dev->hal->queue_write_texture(dev->hal_dev, destination->texture, &r, data, &bl));
}

/* Spec: onSubmittedWorkDone(): resolves once every submission made so far has completed. */
WGPUFuture wgpuQueueOnSubmittedWorkDone(WGPUQueue queue, WGPUQueueWorkDoneCallbackInfo callbackInfo)
{
    WGPUFuture fut = { 0 };
    if (!queue_live(queue, "wgpuQueueOnSubmittedWorkDone")) return fut;
    struct WGPUDeviceImpl *dev = queue->obj.device;
    eg_device_poll(dev);
    eg_future_desc_t fd = { .kind = EG_FUTURE_QUEUE_WORK_DONE, .callback_info = &callbackInfo,
                            .device = dev, .wait_submit_index = dev->lost ? 0 : dev->submit_index };
    fd.result.status = WGPUQueueWorkDoneStatus_Success;
    fut.id = eg_future_add(dev->instance, &fd);
    return fut;
}
