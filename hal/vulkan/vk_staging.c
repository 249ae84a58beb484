/* hal/vulkan staging belt: a ring of host-visible chunks for queue writes and staged maps.
 *
 * Chunks (EMGPU_VK_STAGING_CHUNKS of EMGPU_VK_STAGING_CHUNK_BYTES, allocated when the device
 * opens) are bump-allocated one at a time. A chunk is stamped with the serial of the submit that
 * will carry the copies out of it, and is reused only once that serial has completed (and no
 * open map lives in it). When every chunk is busy, the pending uploads are submitted and the
 * queue drained: a stall, never an error. Writes larger than a chunk are split by the caller
 * (vk_queue.c), so only a single texel row larger than a chunk fails, naming the knob.
 *
 * The upload command buffer of the current ring slot collects the copies; it opens with a
 * memory barrier after everything submitted earlier and closes (vk_queue.c) with one before
 * everything submitted later, which is what "ordered between submits" means for a queue write.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"

eg_status_t eg_vk_staging_init(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_VK_STAGING_CHUNKS; i++) {
        eg_vk_chunk_t *c = &dev->chunks[i];
        c->alloc.kind_block = UINT32_MAX;
        VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = EMGPU_VK_STAGING_CHUNK_BYTES,
                                  .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                  .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
        VkResult r = eg_vk.vkCreateBuffer(dev->device, &bi, eg_vk_host_allocator(), &c->buffer);
        if (r != VK_SUCCESS) return eg_vk_status(r);
        VkMemoryRequirements req;
        VkDeviceMemory mem;
        eg_vk.vkGetBufferMemoryRequirements(dev->device, c->buffer, &req);
        eg_status_t st = eg_vk_memory_alloc(dev, EG_VK_MEM_UPLOAD, &req, &c->alloc, &mem, &c->host);
        if (st != EG_STATUS_OK) return st;
        r = eg_vk.vkBindBufferMemory(dev->device, c->buffer, mem, c->alloc.offset_B);
        if (r != VK_SUCCESS) return eg_vk_status(r);
    }
    dev->cur_chunk = 0;
    dev->chunk_used_B = 0;
    return EG_STATUS_OK;
}

void eg_vk_staging_fini(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_VK_STAGING_CHUNKS; i++) {
        eg_vk_chunk_t *c = &dev->chunks[i];
        if (c->buffer) eg_vk.vkDestroyBuffer(dev->device, c->buffer, eg_vk_host_allocator());
        c->buffer = VK_NULL_HANDLE;
        eg_vk_memory_free(dev, &c->alloc);
    }
}

static bool chunk_free(const eg_hal_device_t *dev, const eg_vk_chunk_t *c)
{
    return c->pins == 0 && c->retire_serial <= dev->completed_serial;
}

/* Moves to the next reusable chunk; false when none is (the caller flushes and retries). */
static bool next_chunk(eg_hal_device_t *dev)
{
    eg_vk_poll(dev);
    for (uint32_t k = 1; k <= EMGPU_VK_STAGING_CHUNKS; k++) {
        uint32_t i = (dev->cur_chunk + k) % EMGPU_VK_STAGING_CHUNKS;
        if (chunk_free(dev, &dev->chunks[i])) {
            dev->cur_chunk = i;
            dev->chunk_used_B = 0;
            return true;
        }
    }
    return false;
}

eg_status_t eg_vk_staging_alloc(eg_hal_device_t *dev, uint32_t size_B, uint32_t *chunk, uint32_t *offset_B,
                                uint8_t **host)
{
    if (size_B > EMGPU_VK_STAGING_CHUNK_BYTES) {
        eg_vk_knob_exhausted("staging chunk (one piece larger than a chunk)", "EMGPU_VK_STAGING_CHUNK_BYTES",
                             EMGPU_VK_STAGING_CHUNK_BYTES);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    uint64_t off = EG_ALIGN_UP(dev->chunk_used_B, (uint64_t)16);
    eg_vk_chunk_t *c = &dev->chunks[dev->cur_chunk];
    if (off + size_B > EMGPU_VK_STAGING_CHUNK_BYTES) {
        if (!next_chunk(dev)) {
            eg_status_t st = eg_vk_flush_and_wait(dev);
            if (st != EG_STATUS_OK) return st;
            if (!next_chunk(dev)) {
                eg_vk_knob_exhausted("staging belt (every chunk holds an open map)", "EMGPU_VK_STAGING_CHUNKS",
                                     EMGPU_VK_STAGING_CHUNKS);
                return EG_STATUS_OUT_OF_MEMORY;
            }
        }
        off = 0;
        c = &dev->chunks[dev->cur_chunk];
    }
    dev->chunk_used_B = off + size_B;
    c->retire_serial = eg_vk_current_serial(dev);
    *chunk = dev->cur_chunk;
    *offset_B = (uint32_t)off;
    *host = c->host + off;
    return EG_STATUS_OK;
}

VkCommandBuffer eg_vk_upload_cmd(eg_hal_device_t *dev)
{
    /* An ended upload buffer whose submit failed goes first; a new one opens after it. */
    if (dev->slots[dev->cur_slot].upload_closed && eg_vk_submit_uploads(dev) != EG_STATUS_OK) return VK_NULL_HANDLE;
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    if (s->upload_open) {
        /* Uploads may hit the same bytes (a zero-fill, then a write): order each after the last. */
        VkMemoryBarrier tb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT };
        eg_vk.vkCmdPipelineBarrier(s->upload, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &tb,
                                   0, NULL, 0, NULL);
        return s->upload;
    }
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    if (eg_vk_slot_ready(dev) != EG_STATUS_OK || eg_vk.vkBeginCommandBuffer(s->upload, &bi) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_MEMORY_READ_BIT,
                           .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT };
    eg_vk.vkCmdPipelineBarrier(s->upload, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                               0, 1, &mb, 0, NULL, 0, NULL);
    s->upload_open = true;
    return s->upload;
}

#endif /* EMGPU_HAL_VULKAN */
