/* hal/vulkan queue: the submission ring (fences as a timeline), queue writes, the ops table.
 *
 * Ring: EMGPU_VK_COMMAND_RING slots, each a command pool with an upload and a main command
 * buffer and a fence. The current slot collects queue writes in its upload buffer; Submit records
 * the kernel's streams into its main buffer, submits both with the slot's fence, and moves to the
 * next slot, waiting for that slot's fence first if it is still in flight, then resetting its pool
 * (reset per completed submission). Every vkQueueSubmit carries an internal serial; a slot's fence
 * completes its serial and its kernel submission index, and the queue's in-order completion makes
 * "newest completed" the maximum seen.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"
#include "hal/vulkan/vk_swapchain.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"

eg_status_t eg_vk_ring_init(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_VK_COMMAND_RING; i++) {
        eg_vk_slot_t *s = &dev->slots[i];
        /* RESET_COMMAND_BUFFER: a main buffer whose recording failed is begun again (implicit
         * reset) without dropping the uploads recorded beside it. */
        VkCommandPoolCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT |
                                                VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                       .queueFamilyIndex = dev->queue_family };
        VkResult r = eg_vk.vkCreateCommandPool(dev->device, &pi, eg_vk_host_allocator(), &s->pool);
        if (r != VK_SUCCESS) return eg_vk_status(r);
        VkCommandBuffer cbs[2];
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = s->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 2 };
        if ((r = eg_vk.vkAllocateCommandBuffers(dev->device, &ai, cbs)) != VK_SUCCESS) return eg_vk_status(r);
        s->upload = cbs[0];
        s->main = cbs[1];
        VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        if ((r = eg_vk.vkCreateFence(dev->device, &fi, eg_vk_host_allocator(), &s->fence)) != VK_SUCCESS)
            return eg_vk_status(r);
    }
    dev->cur_slot = 0;
    return EG_STATUS_OK;
}

void eg_vk_ring_fini(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_VK_COMMAND_RING; i++) {
        eg_vk_slot_t *s = &dev->slots[i];
        if (s->fence) eg_vk.vkDestroyFence(dev->device, s->fence, eg_vk_host_allocator());
        if (s->pool) eg_vk.vkDestroyCommandPool(dev->device, s->pool, eg_vk_host_allocator());
        s->fence = VK_NULL_HANDLE;
        s->pool = VK_NULL_HANDLE;
    }
}

static void retire(eg_hal_device_t *dev, eg_vk_slot_t *s)
{
    s->in_flight = false;
    if (s->serial > dev->completed_serial) dev->completed_serial = s->serial;
    if (s->kernel_index > dev->completed_index) dev->completed_index = s->kernel_index;
}

/* A lost device finishes nothing more, so waiting on it must not block: every slot counts as
 * retired (maps and work-done futures then complete, as WebGPU requires after loss), and the
 * kernel learns of the loss at once rather than at the next call that returns a status. */
eg_status_t eg_vk_check(eg_hal_device_t *dev, VkResult r, const char *what)
{
    if (r == VK_ERROR_DEVICE_LOST && !dev->lost) {
        dev->lost = true;
        eg_log(EG_LOG_ERROR, "vulkan: %s returned VK_ERROR_DEVICE_LOST", what);
        eg_vk_device_wait_idle_unfaulted(dev->device);
        for (uint32_t i = 0; i < EMGPU_VK_COMMAND_RING; i++)
            if (dev->slots[i].in_flight) retire(dev, &dev->slots[i]);
        dev->completed_serial = dev->next_serial;
        dev->completed_index = dev->submitted_index;
        if (dev->kdev) eg_device_lose(dev->kdev, WGPUDeviceLostReason_Unknown, "the Vulkan device was lost");
    }
    return eg_vk_status(r);
}

void eg_vk_poll(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_VK_COMMAND_RING && !dev->lost; i++) {
        eg_vk_slot_t *s = &dev->slots[i];
        if (!s->in_flight) continue;
        VkResult r = eg_vk.vkGetFenceStatus(dev->device, s->fence);
        if (r == VK_SUCCESS) retire(dev, s);
        else if (r != VK_NOT_READY) eg_vk_check(dev, r, "vkGetFenceStatus");
    }
}

uint64_t eg_vk_current_serial(const eg_hal_device_t *dev)
{
    return dev->next_serial + 1;
}

/* Makes the next slot current; waiting for it and resetting it wait for its first use
 * (eg_vk_slot_ready), so a failure there is reported by, and retried at, that use. */
static eg_status_t advance(eg_hal_device_t *dev)
{
    dev->cur_slot = (dev->cur_slot + 1) % EMGPU_VK_COMMAND_RING;
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    s->dirty = true;
    s->upload_open = false;
    s->upload_closed = false;
    s->init_count = 0;
    s->inits_overflow = false;
    return EG_STATUS_OK;
}

eg_status_t eg_vk_slot_ready(eg_hal_device_t *dev)
{
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    if (dev->lost) return EG_STATUS_DEVICE_LOST;
    if (!s->dirty) return EG_STATUS_OK;
    if (s->in_flight) {
        VkResult w = eg_vk.vkWaitForFences(dev->device, 1, &s->fence, VK_TRUE, UINT64_MAX);
        if (w != VK_SUCCESS) return eg_vk_check(dev, w, "vkWaitForFences");
        retire(dev, s);
    }
    VkResult r = eg_vk.vkResetFences(dev->device, 1, &s->fence);
    if (r != VK_SUCCESS) return eg_vk_check(dev, r, "vkResetFences");
    r = eg_vk.vkResetCommandPool(dev->device, s->pool, 0);
    if (r != VK_SUCCESS) return eg_vk_check(dev, r, "vkResetCommandPool");
    s->dirty = false;
    s->upload_open = false;
    s->upload_closed = false;
    return EG_STATUS_OK;
}

/* An upload buffer that could not be ended is unusable: drop the slot's buffers (the pending
 * queue writes are lost with them; the caller reports the error) so the slot records afresh. */
static void discard_slot(eg_hal_device_t *dev)
{
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    s->dirty = eg_vk.vkResetCommandPool(dev->device, s->pool, 0) != VK_SUCCESS;
    s->upload_open = false;
    s->upload_closed = false;
}

/* The upload buffer is lost: the textures initialised in it are initialised again in a new one
 * (their layouts must match the tracker); when that cannot be done the device is lost. */
static void reinit_textures(eg_hal_device_t *dev)
{
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    uint32_t n = s->init_count;
    bool overflow = s->inits_overflow;
    eg_texture_t *list[EG_VK_SLOT_INITS];
    eg_memcpy(list, s->inits, sizeof list);
    s->init_count = 0;
    s->inits_overflow = false;
    if (dev->lost || (n == 0 && !overflow)) return;
    VkCommandBuffer cb = overflow ? VK_NULL_HANDLE : eg_vk_upload_cmd(dev);
    if (!cb) {
        eg_vk_check(dev, VK_ERROR_DEVICE_LOST, "re-initialising textures after a lost upload buffer");
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        eg_vk_texture_init(list[i], cb);
        s->inits[s->init_count++] = list[i];
    }
}

static VkResult close_upload(eg_vk_slot_t *s)
{
    VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                           .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT };
    eg_vk.vkCmdPipelineBarrier(s->upload, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                               0, 1, &mb, 0, NULL, 0, NULL);
    return eg_vk.vkEndCommandBuffer(s->upload);
}

/* Submits the current slot: its uploads (if any) and, when main_used, its main buffer. */
static eg_status_t submit_slot(eg_hal_device_t *dev, bool main_used, uint64_t kernel_index)
{
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    VkCommandBuffer cbs[2];
    uint32_t n = 0;
    if (dev->lost) { discard_slot(dev); return EG_STATUS_DEVICE_LOST; }
    if (s->upload_open) {
        VkResult e = close_upload(s);
        s->upload_open = false;
        if (e != VK_SUCCESS) {
            discard_slot(dev);
            reinit_textures(dev);
            return eg_vk_check(dev, e, "vkEndCommandBuffer");
        }
        s->upload_closed = true;
    }
    if (s->upload_closed) cbs[n++] = s->upload;
    if (main_used) cbs[n++] = s->main;
    if (n == 0) return EG_STATUS_OK;
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = n, .pCommandBuffers = cbs };
    /* helper egl: swapchain semaphores (vk_swapchain.c). A swapchain image acquired since the
     * last submit is initialised in this upload buffer, so this submit waits for its acquire
     * semaphore; a present-transition submit signals the image's render-finished semaphore. */
    eg_vk_submit_sems_t sems;
    eg_vk_swapchain_sems(dev, &sems);
    si.waitSemaphoreCount = sems.wait_count;
    si.pWaitSemaphores = sems.waits;
    si.pWaitDstStageMask = sems.wait_stages;
    si.signalSemaphoreCount = sems.signal_count;
    si.pSignalSemaphores = sems.signals;
    /* A failed submit keeps the ended upload buffer for the next one: the texture clears and
     * layout changes in it are what the tracker already assumes happened. */
    VkResult r = eg_vk.vkQueueSubmit(dev->queue, 1, &si, s->fence);
    if (r != VK_SUCCESS) return eg_vk_check(dev, r, "vkQueueSubmit");
    s->upload_closed = false;
    s->init_count = 0;
    s->inits_overflow = false;
    s->serial = ++dev->next_serial;
    eg_vk_swapchain_sems_submitted(dev, s->serial);   /* helper egl: those semaphores are taken */
    s->kernel_index = kernel_index;
    if (kernel_index > dev->submitted_index) dev->submitted_index = kernel_index;
    s->in_flight = true;
    return advance(dev);
}

eg_status_t eg_vk_submit_uploads(eg_hal_device_t *dev)
{
    return submit_slot(dev, false, 0);
}

eg_status_t eg_vk_flush_and_wait(eg_hal_device_t *dev)
{
    eg_status_t st = EG_STATUS_OK;
    if (dev->lost) return EG_STATUS_DEVICE_LOST;
    if (eg_vk_uploads_pending(dev)) st = submit_slot(dev, false, 0);
    if (st == EG_STATUS_OK) st = eg_vk_check(dev, eg_vk.vkQueueWaitIdle(dev->queue), "vkQueueWaitIdle");
    eg_vk_poll(dev);
    return st;
}

/* The kernel's tracker has already moved every texture to the states this submit leaves it in.
 * When the submit cannot run, a replacement holding only its barriers keeps the images' layouts
 * where the tracker believes they are (render passes keep layouts: initial == final), so later
 * submits stay valid; the work itself is lost, which the caller reports as OutOfMemory. It is
 * waited for: the kernel does not count the failed submit, so its objects may go at once. If
 * even that fails, the layouts are unknown and the device is lost. */
static void submit_barriers_only(eg_hal_device_t *dev, const eg_hal_submit_t *sub)
{
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    if (dev->lost) return;
    VkResult r = eg_vk_slot_ready(dev) == EG_STATUS_OK ? eg_vk.vkBeginCommandBuffer(s->main, &bi)
                                                       : VK_ERROR_OUT_OF_HOST_MEMORY;
    if (r == VK_SUCCESS) {
        for (uint32_t i = 0; i < sub->stream_count; i++) eg_vk_record_barriers_only(dev, s->main, sub->streams[i]);
        r = eg_vk.vkEndCommandBuffer(s->main);
    }
    eg_status_t st = r == VK_SUCCESS ? submit_slot(dev, true, 0) : eg_vk_status(r);
    if (st == EG_STATUS_OK) st = eg_vk_check(dev, eg_vk.vkQueueWaitIdle(dev->queue), "vkQueueWaitIdle");
    if (st != EG_STATUS_OK && !dev->lost) {
        eg_log(EG_LOG_ERROR, "vulkan: a failed submit could not be replaced by its barriers: image layouts unknown");
        eg_vk_check(dev, VK_ERROR_DEVICE_LOST, "the barrier-only replacement submit");
    }
    eg_vk_poll(dev);
}

static eg_status_t vk_queue_submit(eg_hal_device_t *dev, const eg_hal_submit_t *sub)
{
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    eg_status_t ready = eg_vk_slot_ready(dev);
    if (ready != EG_STATUS_OK) {
        if (ready != EG_STATUS_DEVICE_LOST) submit_barriers_only(dev, sub);
        return ready;
    }
    VkResult r = eg_vk.vkBeginCommandBuffer(s->main, &bi);
    if (r != VK_SUCCESS) {
        submit_barriers_only(dev, sub);
        return eg_vk_status(r);
    }
    for (uint32_t i = 0; i < sub->stream_count; i++) {
        eg_status_t st = eg_vk_record_stream(dev, s->main, sub->streams[i]);
        if (st != EG_STATUS_OK) {
            eg_vk.vkEndCommandBuffer(s->main);   /* begun again (implicit reset) below */
            submit_barriers_only(dev, sub);
            return st;
        }
    }
    eg_status_t st = eg_vk_status(eg_vk.vkEndCommandBuffer(s->main));
    if (st == EG_STATUS_OK) st = submit_slot(dev, true, sub->index);
    if (st != EG_STATUS_OK && st != EG_STATUS_DEVICE_LOST) submit_barriers_only(dev, sub);
    return st;
}

static uint64_t vk_completed_index(eg_hal_device_t *dev)
{
    eg_vk_poll(dev);
    return dev->completed_index;
}

static uint64_t vk_wait_index(eg_hal_device_t *dev, uint64_t index, uint64_t timeout_ns)
{
    eg_vk_poll(dev);
    for (uint32_t i = 0; i < EMGPU_VK_COMMAND_RING && dev->completed_index < index; i++) {
        eg_vk_slot_t *s = &dev->slots[i];
        if (!s->in_flight || s->kernel_index < index) continue;
        VkResult r = eg_vk.vkWaitForFences(dev->device, 1, &s->fence, VK_TRUE, timeout_ns);
        if (r == VK_SUCCESS) retire(dev, s);
        else if (r != VK_TIMEOUT) eg_vk_check(dev, r, "vkWaitForFences");
    }
    eg_vk_poll(dev);
    return dev->completed_index;
}

/* ---- queue writes through the staging belt ---- */

eg_status_t eg_vk_queue_write_buffer(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                     const void *data, size_t size_B)
{
    eg_vk_buffer_t *vb = EG_VK_PRIV(eg_vk_buffer_t, buf);
    const uint8_t *src = data;
    while (size_B > 0) {
        uint32_t piece = (uint32_t)eg_min_u64(size_B, EMGPU_VK_STAGING_CHUNK_BYTES);
        uint32_t chunk, off;
        uint8_t *host;
        eg_status_t st = eg_vk_staging_alloc(dev, piece, &chunk, &off, &host);
        if (st != EG_STATUS_OK) return st;
        eg_memcpy(host, src, piece);
        VkCommandBuffer cb = eg_vk_upload_cmd(dev);
        if (!cb) return dev->lost ? EG_STATUS_DEVICE_LOST : EG_STATUS_OUT_OF_MEMORY;
        VkBufferCopy c = { off, offset_B, piece };
        eg_vk.vkCmdCopyBuffer(cb, dev->chunks[chunk].buffer, vb->buffer, 1, &c);
        src += piece;
        offset_B += piece;
        size_B -= piece;
    }
    return EG_STATUS_OK;
}

/* The tracker knows what state each subresource is in after the submits so far; a queue write
 * goes to TRANSFER_DST and back to that state's layout, so the tracker's view stays true. */
static uint16_t device_state(eg_texture_t *tex, uint32_t mip, uint32_t layer)
{
    struct WGPUDeviceImpl *d = tex->obj.device;
    uint32_t idx = eg_pool_index(eg_pool_of(tex, EG_KIND_TEXTURE), tex);
    uint16_t s = d->track ? eg_track_device_texture_state(d->track, idx, mip, layer) : EG_TRACK_TEX_NONE;
    return s == EG_TRACK_TEX_NONE ? EG_TRACK_TEX_UNINITIALIZED : s;
}

static eg_status_t write_rows(eg_hal_device_t *dev, eg_texture_t *tex, const eg_texel_region_t *dst,
                              uint32_t layer_or_z, uint32_t y_el, uint32_t rows, const uint8_t *src,
                              uint32_t src_pitch_B, uint32_t row_B)
{
    const eg_format_info_t *fi = tex->fi;
    uint32_t chunk, off;
    uint8_t *host;
    eg_status_t st = eg_vk_staging_alloc(dev, rows * row_B, &chunk, &off, &host);
    if (st != EG_STATUS_OK) return st;
    for (uint32_t r = 0; r < rows; r++) eg_memcpy(host + (size_t)r * row_B, src + (size_t)r * src_pitch_B, row_B);
    VkCommandBuffer cb = eg_vk_upload_cmd(dev);
    if (!cb) return dev->lost ? EG_STATUS_DEVICE_LOST : EG_STATUS_OUT_OF_MEMORY;
    bool is3d = tex->dimension == WGPUTextureDimension_3D;
    uint32_t layer = is3d ? 0 : layer_or_z;
    uint16_t state = device_state(tex, dst->mip_level, layer);
    eg_vk_texture_barrier(dev, cb, tex, state, EG_TRACK_TEX_COPY_DST, dst->mip_level, 1, layer, 1);
    uint32_t h_px = eg_min_u32(rows * fi->block_h_px, dst->height_px - (y_el - dst->origin_y / fi->block_h_px) * fi->block_h_px);
    VkBufferImageCopy c = {
        .bufferOffset = off, .bufferRowLength = 0, .bufferImageHeight = 0,
        .imageSubresource = { eg_vk_aspects(fi, dst->aspect), dst->mip_level, layer, 1 },
        .imageOffset = { (int32_t)dst->origin_x, (int32_t)(y_el * fi->block_h_px), is3d ? (int32_t)layer_or_z : 0 },
        .imageExtent = { dst->width_px, h_px, 1 },
    };
    eg_vk.vkCmdCopyBufferToImage(cb, dev->chunks[chunk].buffer, EG_VK_PRIV(eg_vk_texture_t, tex)->image,
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &c);
    eg_vk_texture_barrier(dev, cb, tex, EG_TRACK_TEX_COPY_DST, state, dst->mip_level, 1, layer, 1);
    return EG_STATUS_OK;
}

eg_status_t eg_vk_queue_write_texture(eg_hal_device_t *dev, eg_texture_t *tex, const eg_texel_region_t *dst,
                                      const void *data, const eg_buffer_layout_t *layout)
{
    const eg_format_info_t *fi = tex->fi;
    uint32_t block_B = eg_format_copy_block_B(fi, dst->aspect);
    uint32_t w_el = eg_format_width_el(fi, dst->width_px), h_el = eg_format_height_el(fi, dst->height_px);
    uint32_t row_B = w_el * block_B;
    if (row_B == 0) return EG_STATUS_INTERNAL;
    uint32_t rows_per_piece = EMGPU_VK_STAGING_CHUNK_BYTES / row_B;
    if (rows_per_piece == 0) {
        eg_vk_knob_exhausted("staging chunk (one texel row larger than a chunk)", "EMGPU_VK_STAGING_CHUNK_BYTES",
                             EMGPU_VK_STAGING_CHUNK_BYTES);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    const uint8_t *base = (const uint8_t *)data + (size_t)layout->offset_B;
    uint32_t y0_el = dst->origin_y / fi->block_h_px;
    for (uint32_t z = 0; z < dst->depth_or_layers; z++) {
        const uint8_t *img = base + (size_t)z * layout->bytes_per_row_B * layout->rows_per_image;
        for (uint32_t r = 0; r < h_el; r += rows_per_piece) {
            uint32_t rows = eg_min_u32(rows_per_piece, h_el - r);
            eg_status_t st = write_rows(dev, tex, dst, dst->origin_z + z, y0_el + r, rows,
                                        img + (size_t)r * layout->bytes_per_row_B, layout->bytes_per_row_B, row_B);
            if (st != EG_STATUS_OK) return st;
        }
    }
    return EG_STATUS_OK;
}

const eg_hal_ops_t eg_vulkan_ops = {
    .name = "vulkan",
    .backend = WGPUBackendType_Vulkan,
    .memory_knob = "EMGPU_VK_MEMORY_BLOCKS x EMGPU_VK_MEMORY_BLOCK_BYTES",
    .memory_knob_value = (uint64_t)EMGPU_VK_MEMORY_BLOCKS * EMGPU_VK_MEMORY_BLOCK_BYTES,
    .probe = eg_vk_probe,
    .device_open = eg_vk_device_open,
    .device_close = eg_vk_device_close,
    .buffer_create = eg_vk_buffer_create,
    .buffer_destroy = eg_vk_buffer_destroy,
    .buffer_map = eg_vk_buffer_map,
    .buffer_unmap = eg_vk_buffer_unmap,
    .texture_create = eg_vk_texture_create,
    .texture_destroy = eg_vk_texture_destroy,
    .texture_view_create = eg_vk_texture_view_create,
    .texture_view_destroy = eg_vk_texture_view_destroy,
    .sampler_create = eg_vk_sampler_create,
    .sampler_destroy = eg_vk_sampler_destroy,
    .bind_group_layout_create = eg_vk_bind_group_layout_create,
    .bind_group_layout_destroy = eg_vk_bind_group_layout_destroy,
    .bind_group_create = eg_vk_bind_group_create,
    .bind_group_destroy = eg_vk_bind_group_destroy,
    .pipeline_layout_create = eg_vk_pipeline_layout_create,
    .pipeline_layout_destroy = eg_vk_pipeline_layout_destroy,
    .shader_module_create = eg_vk_shader_module_create,
    .shader_module_destroy = eg_vk_shader_module_destroy,
    .render_pipeline_create = eg_vk_render_pipeline_create,
    .render_pipeline_destroy = eg_vk_render_pipeline_destroy,
    .compute_pipeline_create = eg_vk_compute_pipeline_create,
    .compute_pipeline_destroy = eg_vk_compute_pipeline_destroy,
    .queue_write_buffer = eg_vk_queue_write_buffer,
    .queue_write_texture = eg_vk_queue_write_texture,
    .queue_submit = vk_queue_submit,
    .completed_index = vk_completed_index,
    .wait_index = vk_wait_index,
    /* native window surfaces (vk_swapchain.c, helper x11) */
    .window_caps = eg_vk_window_caps,
    .window_configure = eg_vk_window_configure,
    .window_unconfigure = eg_vk_window_unconfigure,
    .window_acquire = eg_vk_window_acquire,
    .window_present = eg_vk_window_present,
    .window_release = eg_vk_window_release,
    .surface_present = eg_vk_surface_present,   /* by copy (vk_swapchain_copy.c) */
};

#endif /* EMGPU_HAL_VULKAN */
