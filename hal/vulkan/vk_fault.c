/* hal/vulkan fault injection: wrappers over the fallible entry points of the function table.
 *
 * eg_vk_fault_install (called by the loader once the table is loaded) keeps the driver's
 * pointers and puts a wrapper in each fallible slot. A wrapper asks fault_hit whether this call
 * is the one to fail; if so it returns the armed VkResult (and sets output handles to
 * VK_NULL_HANDLE, as a failing driver must) without calling the driver. Unarmed, a wrapper costs
 * one branch. The fault state is touched only from the application thread (the driver
 * may call the host-allocation callbacks from its own threads; those take a lock, vk_device.c).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"
#include "hal/vulkan/vk_fault.h"

#if EMGPU_VK_FAULT_INJECTION

static struct {
    bool armed, sticky;
    uint32_t nth, calls;
    VkResult result;
    const char *only;
    const char *fired;
} fi;

void eg_vk_fault_arm(uint32_t nth, int32_t result, const char *only, bool sticky)
{
    fi.armed = true;
    fi.sticky = sticky;
    fi.nth = nth;
    fi.calls = 0;
    fi.result = (VkResult)result;
    fi.only = only;
    fi.fired = NULL;
}

void eg_vk_fault_disarm(void) { fi.armed = false; }
uint32_t eg_vk_fault_calls(void) { return fi.calls; }
const char *eg_vk_fault_fired(void) { return fi.fired; }
bool eg_vk_fault_available(void) { return true; }

static bool fault_hit(const char *name, VkResult *r)
{
    if (!fi.armed) return false;
    if (fi.only && eg_strcmp(fi.only, name) != 0) return false;
    fi.calls++;
    if (fi.nth == 0 || fi.calls < fi.nth || (fi.calls > fi.nth && !fi.sticky)) return false;
    if (!fi.fired) fi.fired = name;
    *r = fi.result;
    return true;
}

/* One wrapper: `params` and `args` spelled out; `on_fail` clears the outputs. */
#define FI_WRAP(name, params, args, on_fail) \
    static PFN_##name real_##name; \
    static VKAPI_ATTR VkResult VKAPI_CALL fi_##name params \
    { \
        VkResult r; \
        if (fault_hit(#name, &r)) { on_fail; return r; } \
        return real_##name args; \
    }
#define NOTHING ((void)0)

FI_WRAP(vkCreateDevice, (VkPhysicalDevice p, const VkDeviceCreateInfo *ci, const VkAllocationCallbacks *a, VkDevice *o),
        (p, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkQueueSubmit, (VkQueue q, uint32_t n, const VkSubmitInfo *s, VkFence f), (q, n, s, f), NOTHING)
FI_WRAP(vkQueueWaitIdle, (VkQueue q), (q), NOTHING)
FI_WRAP(vkDeviceWaitIdle, (VkDevice d), (d), NOTHING)
FI_WRAP(vkAllocateMemory, (VkDevice d, const VkMemoryAllocateInfo *ai, const VkAllocationCallbacks *a, VkDeviceMemory *o),
        (d, ai, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkMapMemory, (VkDevice d, VkDeviceMemory m, VkDeviceSize off, VkDeviceSize sz, VkMemoryMapFlags fl, void **o),
        (d, m, off, sz, fl, o), *o = NULL)
FI_WRAP(vkCreateBuffer, (VkDevice d, const VkBufferCreateInfo *ci, const VkAllocationCallbacks *a, VkBuffer *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkBindBufferMemory, (VkDevice d, VkBuffer b, VkDeviceMemory m, VkDeviceSize off), (d, b, m, off), NOTHING)
FI_WRAP(vkCreateImage, (VkDevice d, const VkImageCreateInfo *ci, const VkAllocationCallbacks *a, VkImage *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkBindImageMemory, (VkDevice d, VkImage i, VkDeviceMemory m, VkDeviceSize off), (d, i, m, off), NOTHING)
FI_WRAP(vkCreateImageView, (VkDevice d, const VkImageViewCreateInfo *ci, const VkAllocationCallbacks *a, VkImageView *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkCreateSampler, (VkDevice d, const VkSamplerCreateInfo *ci, const VkAllocationCallbacks *a, VkSampler *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkCreateShaderModule,
        (VkDevice d, const VkShaderModuleCreateInfo *ci, const VkAllocationCallbacks *a, VkShaderModule *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkCreateDescriptorSetLayout,
        (VkDevice d, const VkDescriptorSetLayoutCreateInfo *ci, const VkAllocationCallbacks *a, VkDescriptorSetLayout *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkCreatePipelineLayout,
        (VkDevice d, const VkPipelineLayoutCreateInfo *ci, const VkAllocationCallbacks *a, VkPipelineLayout *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkCreateGraphicsPipelines,
        (VkDevice d, VkPipelineCache c, uint32_t n, const VkGraphicsPipelineCreateInfo *ci,
         const VkAllocationCallbacks *a, VkPipeline *o),
        (d, c, n, ci, a, o), for (uint32_t i = 0; i < n; i++) o[i] = VK_NULL_HANDLE)
FI_WRAP(vkCreateComputePipelines,
        (VkDevice d, VkPipelineCache c, uint32_t n, const VkComputePipelineCreateInfo *ci,
         const VkAllocationCallbacks *a, VkPipeline *o),
        (d, c, n, ci, a, o), for (uint32_t i = 0; i < n; i++) o[i] = VK_NULL_HANDLE)
FI_WRAP(vkCreateRenderPass, (VkDevice d, const VkRenderPassCreateInfo *ci, const VkAllocationCallbacks *a, VkRenderPass *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkCreateFramebuffer,
        (VkDevice d, const VkFramebufferCreateInfo *ci, const VkAllocationCallbacks *a, VkFramebuffer *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkCreateDescriptorPool,
        (VkDevice d, const VkDescriptorPoolCreateInfo *ci, const VkAllocationCallbacks *a, VkDescriptorPool *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkAllocateDescriptorSets, (VkDevice d, const VkDescriptorSetAllocateInfo *ai, VkDescriptorSet *o),
        (d, ai, o), for (uint32_t i = 0; i < ai->descriptorSetCount; i++) o[i] = VK_NULL_HANDLE)
FI_WRAP(vkCreateCommandPool, (VkDevice d, const VkCommandPoolCreateInfo *ci, const VkAllocationCallbacks *a, VkCommandPool *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkAllocateCommandBuffers, (VkDevice d, const VkCommandBufferAllocateInfo *ai, VkCommandBuffer *o),
        (d, ai, o), for (uint32_t i = 0; i < ai->commandBufferCount; i++) o[i] = VK_NULL_HANDLE)
FI_WRAP(vkResetCommandPool, (VkDevice d, VkCommandPool p, VkCommandPoolResetFlags fl), (d, p, fl), NOTHING)
FI_WRAP(vkBeginCommandBuffer, (VkCommandBuffer cb, const VkCommandBufferBeginInfo *bi), (cb, bi), NOTHING)
/* A failed vkEndCommandBuffer leaves the buffer invalid (it may only be reset or begun again),
 * not recording: end it for real, then report the failure. */
FI_WRAP(vkEndCommandBuffer, (VkCommandBuffer cb), (cb), (void)real_vkEndCommandBuffer(cb))
FI_WRAP(vkCreateFence, (VkDevice d, const VkFenceCreateInfo *ci, const VkAllocationCallbacks *a, VkFence *o),
        (d, ci, a, o), *o = VK_NULL_HANDLE)
FI_WRAP(vkWaitForFences, (VkDevice d, uint32_t n, const VkFence *f, VkBool32 all, uint64_t t), (d, n, f, all, t), NOTHING)
FI_WRAP(vkGetFenceStatus, (VkDevice d, VkFence f), (d, f), NOTHING)
FI_WRAP(vkResetFences, (VkDevice d, uint32_t n, const VkFence *f), (d, n, f), NOTHING)

#define FI_FNS(X) \
    X(vkCreateDevice) X(vkQueueSubmit) X(vkQueueWaitIdle) X(vkDeviceWaitIdle) X(vkAllocateMemory) \
    X(vkMapMemory) X(vkCreateBuffer) X(vkBindBufferMemory) X(vkCreateImage) X(vkBindImageMemory) \
    X(vkCreateImageView) X(vkCreateSampler) X(vkCreateShaderModule) X(vkCreateDescriptorSetLayout) \
    X(vkCreatePipelineLayout) X(vkCreateGraphicsPipelines) X(vkCreateComputePipelines) \
    X(vkCreateRenderPass) X(vkCreateFramebuffer) X(vkCreateDescriptorPool) X(vkAllocateDescriptorSets) \
    X(vkCreateCommandPool) X(vkAllocateCommandBuffers) X(vkResetCommandPool) X(vkBeginCommandBuffer) \
    X(vkEndCommandBuffer) X(vkCreateFence) X(vkWaitForFences) X(vkGetFenceStatus) X(vkResetFences)

void eg_vk_device_wait_idle_unfaulted(VkDevice device)
{
    if (real_vkDeviceWaitIdle) real_vkDeviceWaitIdle(device);
    else eg_vk.vkDeviceWaitIdle(device);
}

void eg_vk_fault_install(void)
{
#define INSTALL(name) if (eg_vk.name != fi_##name) { real_##name = eg_vk.name; eg_vk.name = fi_##name; }
    FI_FNS(INSTALL)
#undef INSTALL
}

#else /* !EMGPU_VK_FAULT_INJECTION */

void eg_vk_fault_install(void) {}
void eg_vk_device_wait_idle_unfaulted(VkDevice device) { eg_vk.vkDeviceWaitIdle(device); }
void eg_vk_fault_arm(uint32_t nth, int32_t result, const char *only, bool sticky)
{
    (void)nth; (void)result; (void)only; (void)sticky;
}
void eg_vk_fault_disarm(void) {}
uint32_t eg_vk_fault_calls(void) { return 0; }
const char *eg_vk_fault_fired(void) { return NULL; }
bool eg_vk_fault_available(void) { return false; }

#endif /* EMGPU_VK_FAULT_INJECTION */
#endif /* EMGPU_HAL_VULKAN */
