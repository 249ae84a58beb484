/* hal/vulkan barriers: the tracker's transitions (usage state -> usage state) as pipeline barriers.
 *
 * Each usage bit maps to the pipeline stages and access types that use it, and each texture
 * state to one image layout (eg_vk_layout_of). A transition becomes one buffer or image barrier
 * from the old state's stages/accesses to the new state's; all transitions of one EG_CMD_BARRIER
 * record go into a single vkCmdPipelineBarrier. "Never used" states (buffer NONE, texture
 * UNINITIALIZED) start from ALL_COMMANDS with no access: their zero-fill ran in an upload command
 * buffer whose closing memory barrier already made it visible, and the execution dependency
 * chains through ALL_COMMANDS.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"

#define SHADER_STAGES (VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | \
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT)

/* Only writes need to be made available; read accesses in a source mask mean nothing. */
#define READ_ACCESS (VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_UNIFORM_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | \
                     VK_ACCESS_HOST_READ_BIT | VK_ACCESS_INDEX_READ_BIT | VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | \
                     VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | \
                     VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT)

typedef struct { VkPipelineStageFlags stages; VkAccessFlags access; } use_t;

static use_t buffer_use(uint16_t u)
{
    use_t r = { 0, 0 };
    if (u == EG_TRACK_BUF_NONE) return (use_t){ VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0 };
    if (u & EG_TRACK_BUF_COPY_SRC) { r.stages |= VK_PIPELINE_STAGE_TRANSFER_BIT; r.access |= VK_ACCESS_TRANSFER_READ_BIT; }
    if (u & (EG_TRACK_BUF_COPY_DST | EG_TRACK_BUF_QUERY_RESOLVE)) {
        r.stages |= VK_PIPELINE_STAGE_TRANSFER_BIT; r.access |= VK_ACCESS_TRANSFER_WRITE_BIT;
    }
    if (u & EG_TRACK_BUF_INDEX) { r.stages |= VK_PIPELINE_STAGE_VERTEX_INPUT_BIT; r.access |= VK_ACCESS_INDEX_READ_BIT; }
    if (u & EG_TRACK_BUF_VERTEX) {
        r.stages |= VK_PIPELINE_STAGE_VERTEX_INPUT_BIT; r.access |= VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
    }
    if (u & EG_TRACK_BUF_UNIFORM) { r.stages |= SHADER_STAGES; r.access |= VK_ACCESS_UNIFORM_READ_BIT; }
    if (u & EG_TRACK_BUF_STORAGE_READ) { r.stages |= SHADER_STAGES; r.access |= VK_ACCESS_SHADER_READ_BIT; }
    if (u & EG_TRACK_BUF_STORAGE_WRITE) {
        r.stages |= SHADER_STAGES; r.access |= VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    }
    if (u & EG_TRACK_BUF_INDIRECT) {
        r.stages |= VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT; r.access |= VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
    }
    if (u & EG_TRACK_BUF_MAP_READ) { r.stages |= VK_PIPELINE_STAGE_HOST_BIT; r.access |= VK_ACCESS_HOST_READ_BIT; }
    if (u & EG_TRACK_BUF_MAP_WRITE) { r.stages |= VK_PIPELINE_STAGE_HOST_BIT; r.access |= VK_ACCESS_HOST_WRITE_BIT; }
    return r;
}

static use_t texture_use(uint16_t u)
{
    use_t r = { 0, 0 };
    if (u == EG_TRACK_TEX_NONE || u == EG_TRACK_TEX_UNINITIALIZED) return (use_t){ VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0 };
    if (u & EG_TRACK_TEX_COPY_SRC) { r.stages |= VK_PIPELINE_STAGE_TRANSFER_BIT; r.access |= VK_ACCESS_TRANSFER_READ_BIT; }
    if (u & EG_TRACK_TEX_COPY_DST) { r.stages |= VK_PIPELINE_STAGE_TRANSFER_BIT; r.access |= VK_ACCESS_TRANSFER_WRITE_BIT; }
    if (u & (EG_TRACK_TEX_SAMPLED | EG_TRACK_TEX_STORAGE_READ)) {
        r.stages |= SHADER_STAGES; r.access |= VK_ACCESS_SHADER_READ_BIT;
    }
    if (u & EG_TRACK_TEX_STORAGE_WRITE) {
        r.stages |= SHADER_STAGES; r.access |= VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    }
    if (u & EG_TRACK_TEX_COLOR_TARGET) {
        r.stages |= VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        r.access |= VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    }
    if (u & (EG_TRACK_TEX_DEPTH_STENCIL_READ | EG_TRACK_TEX_DEPTH_STENCIL_WRITE)) {
        r.stages |= VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
        r.access |= VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
        if (u & EG_TRACK_TEX_DEPTH_STENCIL_WRITE) r.access |= VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    }
    if (u & EG_TRACK_TEX_PRESENT) { r.stages |= VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT; }
    return r;
}

static VkImageMemoryBarrier image_barrier(eg_texture_t *tex, uint16_t from, uint16_t to, uint32_t base_mip,
                                          uint32_t mips, uint32_t base_layer, uint32_t layers, use_t *src, use_t *dst)
{
    *src = texture_use(from);
    *dst = texture_use(to);
    return (VkImageMemoryBarrier){ .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = src->access & ~(VkAccessFlags)READ_ACCESS,
        .dstAccessMask = dst->access,
        .oldLayout = eg_vk_layout_of(from, tex), .newLayout = eg_vk_layout_of(to, tex),
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = EG_VK_PRIV(eg_vk_texture_t, tex)->image,
        .subresourceRange = { eg_vk_aspects(tex->fi, WGPUTextureAspect_All), base_mip, mips, base_layer, layers } };
}

void eg_vk_texture_barrier(eg_hal_device_t *dev, VkCommandBuffer cb, eg_texture_t *tex, uint16_t from, uint16_t to,
                           uint32_t base_mip, uint32_t mips, uint32_t base_layer, uint32_t layers)
{
    (void)dev;
    use_t s, d;
    VkImageMemoryBarrier b = image_barrier(tex, from, to, base_mip, mips, base_layer, layers, &s, &d);
    eg_vk.vkCmdPipelineBarrier(cb, s.stages, d.stages, 0, 0, NULL, 0, NULL, 1, &b);
}

#define BATCH 32

void eg_vk_record_barrier(eg_hal_device_t *dev, VkCommandBuffer cb, const eg_cmd_barrier_t *rec)
{
    const eg_track_transition_t *t = eg_cmd_barrier_items(rec);
    struct WGPUInstanceImpl *inst = dev->kdev->instance;
    for (uint32_t start = 0; start < rec->count; start += BATCH) {
        VkBufferMemoryBarrier bb[BATCH];
        VkImageMemoryBarrier ib[BATCH];
        uint32_t nb = 0, ni = 0;
        VkPipelineStageFlags src_stages = 0, dst_stages = 0;
        for (uint32_t i = start; i < rec->count && i < start + BATCH; i++) {
            use_t s, d;
            if (t[i].kind == EG_TRACK_KIND_BUFFER) {
                eg_buffer_t *buf = eg_pool_at(&inst->pools[EG_KIND_BUFFER], t[i].index);
                s = buffer_use(t[i].from_use);
                d = buffer_use(t[i].to_use);
                bb[nb++] = (VkBufferMemoryBarrier){ .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                    .srcAccessMask = s.access & ~(VkAccessFlags)READ_ACCESS, .dstAccessMask = d.access,
                    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                    .buffer = EG_VK_PRIV(eg_vk_buffer_t, buf)->buffer, .offset = 0, .size = VK_WHOLE_SIZE };
            } else {
                eg_texture_t *tex = eg_pool_at(&inst->pools[EG_KIND_TEXTURE], t[i].index);
                ib[ni++] = image_barrier(tex, t[i].from_use, t[i].to_use, t[i].range.base_mip, t[i].range.mip_count,
                                         t[i].range.base_layer, t[i].range.layer_count, &s, &d);
            }
            src_stages |= s.stages;
            dst_stages |= d.stages;
        }
        if (nb || ni)
            eg_vk.vkCmdPipelineBarrier(cb, src_stages, dst_stages, 0, 0, NULL, nb, bb, ni, ib);
    }
}

#endif /* EMGPU_HAL_VULKAN */
