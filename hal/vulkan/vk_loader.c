/* hal/vulkan loader: libvulkan.so.1 opened at run time through the port, and the function table.
 *
 * Nothing links against Vulkan: the port's dynamic loader finds the loader library, and every
 * other entry point comes from vkGetInstanceProcAddr. Device-level functions are also fetched
 * through the instance (the loader's trampolines dispatch on the device handle), so one table
 * serves every device of the one instance.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"
#include "port/port.h"

eg_vk_fns_t eg_vk;
static void *vk_lib;

bool eg_vk_loader_open(void)
{
    if (eg_vk.vkCreateInstance) return true;
    if (!vk_lib) vk_lib = eg_port_lib_open("libvulkan.so.1");
    if (!vk_lib) vk_lib = eg_port_lib_open("libvulkan.so");
    if (!vk_lib) return false;
    eg_vk.vkGetInstanceProcAddr =
        (PFN_vkGetInstanceProcAddr)eg_port_lib_symbol(vk_lib, "vkGetInstanceProcAddr");
    if (!eg_vk.vkGetInstanceProcAddr) return false;
#define G(name) eg_vk.name = (PFN_##name)eg_vk.vkGetInstanceProcAddr(VK_NULL_HANDLE, #name);
    G(vkEnumerateInstanceLayerProperties)
    G(vkEnumerateInstanceExtensionProperties)
    G(vkEnumerateInstanceVersion)   /* NULL on a 1.0 loader */
    G(vkCreateInstance)
#undef G
    return eg_vk.vkCreateInstance != NULL;
}

bool eg_vk_loader_load_instance(VkInstance inst)
{
    bool ok = true;
#define L(name) eg_vk.name = (PFN_##name)eg_vk.vkGetInstanceProcAddr(inst, #name); \
                if (!eg_vk.name) { eg_log(EG_LOG_ERROR, "vulkan: the loader has no %s", #name); ok = false; }
#define O(name) eg_vk.name = (PFN_##name)eg_vk.vkGetInstanceProcAddr(inst, #name);
    EG_VK_INSTANCE_FNS(L)
    EG_VK_DEVICE_FNS(L)
    EG_VK_OPTIONAL_FNS(O)
#undef L
#undef O
    if (ok) eg_vk_fault_install();
    return ok;
}

eg_status_t eg_vk_status(VkResult r)
{
    switch (r) {
    case VK_SUCCESS: return EG_STATUS_OK;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_TOO_MANY_OBJECTS: return EG_STATUS_OUT_OF_MEMORY;
    case VK_ERROR_DEVICE_LOST: return EG_STATUS_DEVICE_LOST;
    default: return EG_STATUS_INTERNAL;
    }
}

void eg_vk_knob_exhausted(const char *what, const char *knob, uint64_t value)
{
    eg_log(EG_LOG_ERROR, "vulkan: %s exhausted (%s = %llu)", what, knob, (unsigned long long)value);
}

#endif /* EMGPU_HAL_VULKAN */
