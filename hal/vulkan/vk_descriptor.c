/* hal/vulkan binding model: bind group layouts = descriptor set layouts, bind groups = descriptor sets.
 *
 * One descriptor pool per device, sized by EMGPU_VK_DESCRIPTOR_SETS sets and
 * EMGPU_VK_DESCRIPTORS_PER_TYPE descriptors of each type, created with FREE_DESCRIPTOR_SET so
 * a released bind group returns its set. Exhaustion is OutOfMemory, logged naming the knobs.
 * WebGPU binding numbers are Vulkan binding numbers and group indices are set numbers, so the
 * validated SPIR-V needs no remapping. Dynamic-offset entries become *_DYNAMIC descriptors; both
 * APIs order dynamic offsets by binding number.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"

eg_status_t eg_vk_descriptors_init(eg_hal_device_t *dev)
{
    static const VkDescriptorType types[] = {
        VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
        VK_DESCRIPTOR_TYPE_SAMPLER, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
    };
    VkDescriptorPoolSize sizes[EG_ARRAY_LEN(types)];
    for (uint32_t i = 0; i < EG_ARRAY_LEN(types); i++) {
        sizes[i].type = types[i];
        sizes[i].descriptorCount = EMGPU_VK_DESCRIPTORS_PER_TYPE;
    }
    VkDescriptorPoolCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                      .maxSets = EMGPU_VK_DESCRIPTOR_SETS,
                                      .poolSizeCount = EG_ARRAY_LEN(types), .pPoolSizes = sizes };
    VkResult r = eg_vk.vkCreateDescriptorPool(dev->device, &pi, eg_vk_host_allocator(), &dev->desc_pool);
    if (r != VK_SUCCESS) return eg_vk_status(r);
    VkDescriptorSetLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO };
    r = eg_vk.vkCreateDescriptorSetLayout(dev->device, &li, eg_vk_host_allocator(), &dev->empty_set_layout);
    if (r != VK_SUCCESS) return eg_vk_status(r);
    VkPipelineLayoutCreateInfo pli = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO };
    r = eg_vk.vkCreatePipelineLayout(dev->device, &pli, eg_vk_host_allocator(), &dev->empty_pipeline_layout);
    return eg_vk_status(r);
}

void eg_vk_descriptors_fini(eg_hal_device_t *dev)
{
    const VkAllocationCallbacks *a = eg_vk_host_allocator();
    if (dev->empty_pipeline_layout) eg_vk.vkDestroyPipelineLayout(dev->device, dev->empty_pipeline_layout, a);
    if (dev->empty_set_layout) eg_vk.vkDestroyDescriptorSetLayout(dev->device, dev->empty_set_layout, a);
    if (dev->desc_pool) eg_vk.vkDestroyDescriptorPool(dev->device, dev->desc_pool, a);
    dev->empty_pipeline_layout = VK_NULL_HANDLE;
    dev->empty_set_layout = VK_NULL_HANDLE;
    dev->desc_pool = VK_NULL_HANDLE;
}

static VkDescriptorType descriptor_type(const eg_bgl_entry_t *e)
{
    switch (e->kind) {
    case EG_BINDING_BUFFER:
        if (e->buffer_type == WGPUBufferBindingType_Uniform)
            return e->has_dynamic_offset ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        return e->has_dynamic_offset ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    case EG_BINDING_SAMPLER: return VK_DESCRIPTOR_TYPE_SAMPLER;
    case EG_BINDING_TEXTURE: return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    default: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    }
}

static VkShaderStageFlags stages(uint32_t vis)
{
    VkShaderStageFlags f = 0;
    if (vis & WGPUShaderStage_Vertex) f |= VK_SHADER_STAGE_VERTEX_BIT;
    if (vis & WGPUShaderStage_Fragment) f |= VK_SHADER_STAGE_FRAGMENT_BIT;
    if (vis & WGPUShaderStage_Compute) f |= VK_SHADER_STAGE_COMPUTE_BIT;
    return f;
}

eg_status_t eg_vk_bind_group_layout_create(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl)
{
    VkDescriptorSetLayoutBinding b[EMGPU_MAX_BINDINGS_PER_GROUP];
    for (uint32_t i = 0; i < bgl->entry_count; i++) {
        const eg_bgl_entry_t *e = &bgl->entries[i];
        b[i] = (VkDescriptorSetLayoutBinding){ e->binding, descriptor_type(e), 1, stages(e->visibility), NULL };
    }
    VkDescriptorSetLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = bgl->entry_count, .pBindings = b };
    VkDescriptorSetLayout l = VK_NULL_HANDLE;
    VkResult r = eg_vk.vkCreateDescriptorSetLayout(dev->device, &ci, eg_vk_host_allocator(), &l);
    EG_VK_PRIV(eg_vk_handle_t, bgl)->h = (uint64_t)(uintptr_t)l;
    return eg_vk_status(r);
}

void eg_vk_bind_group_layout_destroy(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl)
{
    eg_vk_handle_t *h = EG_VK_PRIV(eg_vk_handle_t, bgl);
    if (h->h) eg_vk.vkDestroyDescriptorSetLayout(dev->device, (VkDescriptorSetLayout)(uintptr_t)h->h,
                                                 eg_vk_host_allocator());
    h->h = 0;
}

eg_status_t eg_vk_bind_group_create(eg_hal_device_t *dev, eg_bind_group_t *bg)
{
    VkDescriptorSetLayout l = (VkDescriptorSetLayout)(uintptr_t)EG_VK_PRIV(eg_vk_handle_t, bg->layout)->h;
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = dev->desc_pool, .descriptorSetCount = 1, .pSetLayouts = &l };
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkResult r = eg_vk.vkAllocateDescriptorSets(dev->device, &ai, &set);
    EG_VK_PRIV(eg_vk_handle_t, bg)->h = 0;
    if (r != VK_SUCCESS) {
        eg_vk_knob_exhausted("descriptor pool", "EMGPU_VK_DESCRIPTOR_SETS / EMGPU_VK_DESCRIPTORS_PER_TYPE",
                             EMGPU_VK_DESCRIPTOR_SETS);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    EG_VK_PRIV(eg_vk_handle_t, bg)->h = (uint64_t)(uintptr_t)set;
    VkWriteDescriptorSet w[EMGPU_MAX_BINDINGS_PER_GROUP];
    VkDescriptorBufferInfo bi[EMGPU_MAX_BINDINGS_PER_GROUP];
    VkDescriptorImageInfo ii[EMGPU_MAX_BINDINGS_PER_GROUP];
    for (uint32_t i = 0; i < bg->entry_count; i++) {
        const eg_bind_entry_t *e = &bg->entries[i];
        const eg_bgl_entry_t *le = &bg->layout->entries[i];
        w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                       .dstBinding = le->binding, .descriptorCount = 1,
                                       .descriptorType = descriptor_type(le) };
        if (le->kind == EG_BINDING_BUFFER) {
            bi[i] = (VkDescriptorBufferInfo){ EG_VK_PRIV(eg_vk_buffer_t, e->buffer)->buffer, e->offset_B, e->size_B };
            w[i].pBufferInfo = &bi[i];
        } else if (le->kind == EG_BINDING_SAMPLER) {
            ii[i] = (VkDescriptorImageInfo){ (VkSampler)(uintptr_t)EG_VK_PRIV(eg_vk_handle_t, e->sampler)->h,
                                             VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED };
            w[i].pImageInfo = &ii[i];
        } else {
            /* The layout the tracker puts the texture in for this use: sampled, or storage. */
            uint16_t use = le->kind == EG_BINDING_TEXTURE ? EG_TRACK_TEX_SAMPLED : EG_TRACK_TEX_STORAGE_WRITE;
            VkImageLayout lay = eg_vk_layout_of(use, e->view->texture);
            ii[i] = (VkDescriptorImageInfo){ VK_NULL_HANDLE, EG_VK_PRIV(eg_vk_view_t, e->view)->view, lay };
            w[i].pImageInfo = &ii[i];
        }
    }
    if (bg->entry_count) eg_vk.vkUpdateDescriptorSets(dev->device, bg->entry_count, w, 0, NULL);
    return EG_STATUS_OK;
}

void eg_vk_bind_group_destroy(eg_hal_device_t *dev, eg_bind_group_t *bg)
{
    eg_vk_handle_t *h = EG_VK_PRIV(eg_vk_handle_t, bg);
    if (h->h) {
        VkDescriptorSet set = (VkDescriptorSet)(uintptr_t)h->h;
        eg_vk.vkFreeDescriptorSets(dev->device, dev->desc_pool, 1, &set);
    }
    h->h = 0;
}

#endif /* EMGPU_HAL_VULKAN */
