/* hal/vulkan device: instance, validation messenger, adapter choice, device info, device open/close.
 *
 * One VkInstance serves the process (created on the first probe, kept until exit): instance
 * creation costs 100 ms with validation, and every test opens a device. Adapter order: a device
 * whose name contains env EMGPU_ADAPTER first, then discrete > integrated > virtual > CPU.
 * probe(0) is the preferred one. TODO(lead): WGPURequestAdapterOptions.powerPreference does not
 * reach the HAL (probe takes only an ordinal); LowPower should prefer integrated over discrete.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"
#include "hal/vulkan/vk_swapchain.h"
#include "hal/vulkan/vk_fault.h"
#include "kernel/api/features.h"
#include "kernel/base/fmt.h"
#include "port/port.h"

#define VK_MAX_PHYS 8

static VkInstance vk_instance;
static uint32_t vk_instance_api;   /* the apiVersion the instance was created with */
static VkDebugUtilsMessengerEXT vk_messenger;
static bool vk_init_failed;
static uint32_t vk_messages;
static VkPhysicalDevice vk_phys[VK_MAX_PHYS];
static uint32_t vk_phys_count;
static eg_hal_device_t vk_devices[EMGPU_MAX_DEVICES];

uint32_t eg_vk_validation_messages(void) { return vk_messages; }

static bool vk_debug_utils;
bool eg_vk_debug_utils_enabled(void) { return vk_debug_utils; }

void eg_vk_name_object(const eg_hal_device_t *dev, VkObjectType type, uint64_t handle, const char *label)
{
    if (!vk_debug_utils || !eg_vk.vkSetDebugUtilsObjectNameEXT || !label || !label[0] || !handle) return;
    VkDebugUtilsObjectNameInfoEXT ni = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                         .objectType = type, .objectHandle = handle, .pObjectName = label };
    eg_vk.vkSetDebugUtilsObjectNameEXT(dev->device, &ni);
}

uint64_t eg_vk_memory_used_all(void)
{
    uint64_t u = 0;
    for (uint32_t i = 0; i < EG_ARRAY_LEN(vk_devices); i++)
        if (vk_devices[i].open) u += eg_vk_memory_used(&vk_devices[i]);
    return u;
}

uint64_t eg_vk_memory_reserved_all(void)
{
    uint64_t u = 0;
    for (uint32_t i = 0; i < EG_ARRAY_LEN(vk_devices); i++)
        if (vk_devices[i].open) u += eg_vk_memory_reserved(&vk_devices[i]);
    return u;
}

/* ---- driver host allocations in a fixed arena (EMGPU_VK_HOST_ALLOC_ARENA) ----
 * A range allocator (first fit, records outside the arena, neighbours merged on free) over a
 * static block: the driver's allocations, reallocations and frees all stay inside it. The
 * driver copes with a NULL return (VK_ERROR_OUT_OF_HOST_MEMORY), which the HAL reports as
 * OutOfMemory; the log line names which bound was hit. */
#if EMGPU_VK_HOST_ALLOC_ARENA
#define HOST_RECORDS (EMGPU_VK_HOST_ALLOC_ARENA / 256 + 64)
#define HOST_MAX_ALIGN 256u
static _Alignas(HOST_MAX_ALIGN) uint8_t host_arena[EMGPU_VK_HOST_ALLOC_ARENA];
static eg_range_block_t host_records[HOST_RECORDS];
static eg_range_alloc_t host_ra;
static bool host_ra_ready;
static uint64_t host_peak_B;

/* The driver calls these from its own threads too (lavapipe frees and reallocates from its queue
 * thread, the validation layer from wherever it tracks state), so the range allocator is under a
 * lock. It and the allocator are set up on the first call, which is vkCreateInstance's (or a test's
 * direct call) on the caller's thread, before the driver has started any thread of its own. */
static eg_port_mutex_t host_lock;

static void host_setup(void)
{
    if (host_ra_ready) return;
    eg_port_mutex_init(&host_lock);
    eg_range_alloc_init(&host_ra, sizeof host_arena, host_records, HOST_RECORDS);
    host_ra_ready = true;
}

static void *host_alloc_locked(size_t size, size_t align)
{
    uint64_t off;
    if (align > HOST_MAX_ALIGN) {
        eg_log(EG_LOG_ERROR, "vulkan: the driver asked for %llu-byte alignment; the host arena gives at most %u",
               (unsigned long long)align, HOST_MAX_ALIGN);
        return NULL;
    }
    eg_range_status_t st = eg_range_alloc_alloc(&host_ra, size ? size : 1, align < 16 ? 16 : align, &off);
    if (st == EG_RANGE_NO_RECORDS) {
        eg_log(EG_LOG_ERROR, "vulkan: driver host arena out of records (%u allocations live; they scale with "
               "EMGPU_VK_HOST_ALLOC_ARENA = %u)", (unsigned)HOST_RECORDS, (unsigned)EMGPU_VK_HOST_ALLOC_ARENA);
        return NULL;
    }
    if (st != EG_RANGE_OK) {
        eg_log(EG_LOG_ERROR, "vulkan: driver host arena exhausted: %llu bytes asked, %llu of %u in use "
               "(EMGPU_VK_HOST_ALLOC_ARENA)", (unsigned long long)size, (unsigned long long)host_ra.used_B,
               (unsigned)EMGPU_VK_HOST_ALLOC_ARENA);
        return NULL;
    }
    if (host_ra.used_B > host_peak_B) host_peak_B = host_ra.used_B;
    return host_arena + off;
}
static void host_free_locked(void *p)
{
    if (p && eg_range_alloc_free(&host_ra, (uint64_t)((uint8_t *)p - host_arena)) != EG_RANGE_OK)
        eg_log(EG_LOG_ERROR, "vulkan: the driver freed %p, which the host arena did not hand out", p);
}

static void *VKAPI_PTR host_alloc(void *u, size_t size, size_t align, VkSystemAllocationScope s)
{
    (void)u; (void)s;
    host_setup();
    eg_port_mutex_lock(&host_lock);
    void *p = host_alloc_locked(size, align);
    eg_port_mutex_unlock(&host_lock);
    return p;
}
static void VKAPI_PTR host_free(void *u, void *p)
{
    (void)u;
    if (!p) return;
    host_setup();
    eg_port_mutex_lock(&host_lock);
    host_free_locked(p);
    eg_port_mutex_unlock(&host_lock);
}
static void *VKAPI_PTR host_realloc(void *u, void *p, size_t size, size_t align, VkSystemAllocationScope s)
{
    if (!p) return host_alloc(u, size, align, s);
    if (!size) { host_free(u, p); return NULL; }
    host_setup();
    eg_port_mutex_lock(&host_lock);   /* size, copy and free as one step: p must not move under us */
    uint64_t old = eg_range_alloc_size_of(&host_ra, (uint64_t)((uint8_t *)p - host_arena));
    void *n = host_alloc_locked(size, align);
    if (n) {
        eg_memcpy(n, p, (size_t)eg_min_u64(old, size));
        host_free_locked(p);
    }
    eg_port_mutex_unlock(&host_lock);
    return n;
}
static const VkAllocationCallbacks host_callbacks = {
    .pfnAllocation = host_alloc, .pfnReallocation = host_realloc, .pfnFree = host_free,
};
const VkAllocationCallbacks *eg_vk_host_allocator(void) { return &host_callbacks; }
uint64_t eg_vk_host_arena_used(void) { return host_ra_ready ? host_ra.used_B : 0; }
uint64_t eg_vk_host_arena_peak(void) { return host_peak_B; }
void *eg_vk_host_arena_call_alloc(size_t size_B, size_t align)
{
    return host_alloc(NULL, size_B, align, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
}
void *eg_vk_host_arena_call_realloc(void *p, size_t size_B, size_t align)
{
    return host_realloc(NULL, p, size_B, align, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
}
void eg_vk_host_arena_call_free(void *p) { host_free(NULL, p); }
#else
const VkAllocationCallbacks *eg_vk_host_allocator(void) { return NULL; }
uint64_t eg_vk_host_arena_used(void) { return 0; }
uint64_t eg_vk_host_arena_peak(void) { return 0; }
void *eg_vk_host_arena_call_alloc(size_t size_B, size_t align) { (void)size_B; (void)align; return NULL; }
void *eg_vk_host_arena_call_realloc(void *p, size_t size_B, size_t align)
{
    (void)p; (void)size_B; (void)align;
    return NULL;
}
void eg_vk_host_arena_call_free(void *p) { (void)p; }
#endif

/* ---- instance ---- */

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
    VkDebugUtilsMessageTypeFlagsEXT type, const VkDebugUtilsMessengerCallbackDataEXT *data, void *u)
{
    (void)type; (void)u;
    vk_messages++;
    eg_log(sev >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? EG_LOG_ERROR : EG_LOG_WARN,
           "vulkan validation: %s", data && data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;
}

static bool validation_wanted(void)
{
    if (EMGPU_VK_VALIDATION) return true;
#if EMGPU_PORT_HAS_ENV
    const char *e = eg_port_getenv("EMGPU_VK_VALIDATION");
    return e && e[0] == '1';
#else
    return false;
#endif
}

static bool has_layer(const char *name)
{
    VkLayerProperties props[32];
    uint32_t n = EG_ARRAY_LEN(props);
    if (eg_vk.vkEnumerateInstanceLayerProperties(&n, props) < 0) return false;
    for (uint32_t i = 0; i < n; i++)
        if (eg_strcmp(props[i].layerName, name) == 0) return true;
    return false;
}

static const VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
    .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
    .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
    /* Validation only: performance hints (a vertex attribute the shader ignores, which WebGPU
     * allows) are not errors. */
    .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
    .pfnUserCallback = on_message,
};

static bool instance_create(void)
{
    if (vk_instance) return true;
    if (vk_init_failed || !eg_vk_loader_open()) { vk_init_failed = true; return false; }
    uint32_t api = VK_API_VERSION_1_0;
    if (eg_vk.vkEnumerateInstanceVersion) eg_vk.vkEnumerateInstanceVersion(&api);
    if (api > VK_API_VERSION_1_3) api = VK_API_VERSION_1_3;
    vk_instance_api = api;
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "emgpu",
                              .pEngineName = "emgpu", .apiVersion = api };
    const char *layers[1] = { "VK_LAYER_KHRONOS_validation" };
    const char *exts[1 + EG_VK_SWAPCHAIN_MAX_EXTS] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    bool validate = validation_wanted() && has_layer(layers[0]);
    /* helper x11: VK_KHR_surface + VK_KHR_xlib_surface when the loader offers them (vk_swapchain.c) */
    uint32_t ext_count = validate ? 1u : 0u;
    ext_count += eg_vk_swapchain_instance_exts(exts + ext_count, EG_VK_SWAPCHAIN_MAX_EXTS);
    if (validation_wanted() && !validate)
        eg_log(EG_LOG_WARN, "vulkan: EMGPU_VK_VALIDATION asks for VK_LAYER_KHRONOS_validation, which is not installed");
    /* Synchronization validation too: the tracker's barriers are what it checks. */
    VkValidationFeatureEnableEXT enables[1] = { VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT };
    VkValidationFeaturesEXT vf = { .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                   .pNext = &messenger_info,
                                   .enabledValidationFeatureCount = 1,
                                   .pEnabledValidationFeatures = enables };
    VkInstanceCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                                .pNext = validate ? &vf : NULL,
                                .enabledLayerCount = validate ? 1u : 0u, .ppEnabledLayerNames = layers,
                                .enabledExtensionCount = ext_count, .ppEnabledExtensionNames = exts };
    VkResult r = eg_vk.vkCreateInstance(&ci, eg_vk_host_allocator(), &vk_instance);
    if (r != VK_SUCCESS) {
        eg_log(EG_LOG_WARN, "vulkan: vkCreateInstance failed (VkResult %d)", (int)r);
        vk_init_failed = true;
        vk_instance = VK_NULL_HANDLE;
        return false;
    }
    if (!eg_vk_loader_load_instance(vk_instance)) { vk_init_failed = true; return false; }
    vk_debug_utils = validate && eg_vk.vkCmdBeginDebugUtilsLabelEXT && eg_vk.vkCmdEndDebugUtilsLabelEXT &&
                     eg_vk.vkCmdInsertDebugUtilsLabelEXT;
    if (validate && eg_vk.vkCreateDebugUtilsMessengerEXT)
        eg_vk.vkCreateDebugUtilsMessengerEXT(vk_instance, &messenger_info, eg_vk_host_allocator(), &vk_messenger);
    return true;
}

static uint32_t type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
    }
}

static bool name_contains(const char *hay, const char *needle)
{
    size_t n = eg_strlen(needle), h = eg_strlen(hay);
    for (size_t i = 0; n && i + n <= h; i++)
        if (eg_memcmp(hay + i, needle, n) == 0) return true;
    return false;
}

static uint32_t queue_family_of(VkPhysicalDevice pd)
{
    VkQueueFamilyProperties q[16];
    uint32_t n = EG_ARRAY_LEN(q);
    eg_vk.vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q);
    const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;  /* transfer implied */
    for (uint32_t i = 0; i < n; i++)
        if ((q[i].queueFlags & need) == need && q[i].queueCount > 0) return i;
    return UINT32_MAX;
}

static uint32_t score(VkPhysicalDevice pd)
{
    VkPhysicalDeviceProperties p;
    eg_vk.vkGetPhysicalDeviceProperties(pd, &p);
    uint32_t s = type_rank(p.deviceType);
#if EMGPU_PORT_HAS_ENV
    const char *want = eg_port_getenv("EMGPU_ADAPTER");
    if (want && want[0] && name_contains(p.deviceName, want)) s += 100;
#endif
    return s;
}

/* Enumerates the usable physical devices, best first (insertion sort: at most VK_MAX_PHYS). */
static void enumerate(void)
{
    VkPhysicalDevice all[VK_MAX_PHYS];
    uint32_t n = VK_MAX_PHYS;
    vk_phys_count = 0;
    if (eg_vk.vkEnumeratePhysicalDevices(vk_instance, &n, all) < 0) return;
    for (uint32_t i = 0; i < n; i++) {
        if (queue_family_of(all[i]) == UINT32_MAX) continue;
        uint32_t s = score(all[i]), j = vk_phys_count++;
        while (j > 0 && score(vk_phys[j - 1]) < s) { vk_phys[j] = vk_phys[j - 1]; j--; }
        vk_phys[j] = all[i];
    }
}

/* ---- formats ---- */

static bool format_has(VkPhysicalDevice pd, VkFormat f, VkFormatFeatureFlags need)
{
    VkFormatProperties fp;
    eg_vk.vkGetPhysicalDeviceFormatProperties(pd, f, &fp);
    return (fp.optimalTilingFeatures & need) == need;
}

static void pick_depth_formats(eg_hal_device_t *dev)
{
    const VkFormatFeatureFlags ds = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                    VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    dev->depth24_format = format_has(dev->phys, VK_FORMAT_X8_D24_UNORM_PACK32, ds)
                              ? VK_FORMAT_X8_D24_UNORM_PACK32 : VK_FORMAT_D32_SFLOAT;
    dev->depth24s8_format = format_has(dev->phys, VK_FORMAT_D24_UNORM_S8_UINT, ds)
                                ? VK_FORMAT_D24_UNORM_S8_UINT : VK_FORMAT_D32_SFLOAT_S8_UINT;
    dev->stencil8_format = format_has(dev->phys, VK_FORMAT_S8_UINT, ds) ? VK_FORMAT_S8_UINT
                                                                         : dev->depth24s8_format;
}

/* ---- device info ---- */

#define CAP(field, vkval) do { if ((uint64_t)(vkval) < (uint64_t)l->field) l->field = (vkval); } while (0)

/* WebGPU limits start at the spec defaults (what every WebGPU device must support) and are only
 * lowered where the Vulkan device is weaker: emgpu exposes no more than the defaults. */
static void fill_limits(const VkPhysicalDeviceLimits *v, WGPULimits *l)
{
    eg_limits_default(l);
    CAP(maxTextureDimension1D, v->maxImageDimension1D);
    CAP(maxTextureDimension2D, v->maxImageDimension2D);
    CAP(maxTextureDimension3D, v->maxImageDimension3D);
    CAP(maxTextureArrayLayers, v->maxImageArrayLayers);
    CAP(maxBindGroups, v->maxBoundDescriptorSets);
    CAP(maxDynamicUniformBuffersPerPipelineLayout, v->maxDescriptorSetUniformBuffersDynamic);
    CAP(maxDynamicStorageBuffersPerPipelineLayout, v->maxDescriptorSetStorageBuffersDynamic);
    CAP(maxSampledTexturesPerShaderStage, v->maxPerStageDescriptorSampledImages);
    CAP(maxSamplersPerShaderStage, v->maxPerStageDescriptorSamplers);
    CAP(maxStorageBuffersPerShaderStage, v->maxPerStageDescriptorStorageBuffers);
    CAP(maxStorageTexturesPerShaderStage, v->maxPerStageDescriptorStorageImages);
    CAP(maxUniformBuffersPerShaderStage, v->maxPerStageDescriptorUniformBuffers);
    CAP(maxUniformBufferBindingSize, v->maxUniformBufferRange);
    CAP(maxStorageBufferBindingSize, v->maxStorageBufferRange);
    CAP(maxVertexBuffers, v->maxVertexInputBindings);
    CAP(maxVertexAttributes, v->maxVertexInputAttributes);
    CAP(maxVertexBufferArrayStride, v->maxVertexInputBindingStride);
    CAP(maxColorAttachments, v->maxColorAttachments);
    CAP(maxComputeWorkgroupStorageSize, v->maxComputeSharedMemorySize);
    CAP(maxComputeInvocationsPerWorkgroup, v->maxComputeWorkGroupInvocations);
    CAP(maxComputeWorkgroupSizeX, v->maxComputeWorkGroupSize[0]);
    CAP(maxComputeWorkgroupSizeY, v->maxComputeWorkGroupSize[1]);
    CAP(maxComputeWorkgroupSizeZ, v->maxComputeWorkGroupSize[2]);
    CAP(maxComputeWorkgroupsPerDimension, v->maxComputeWorkGroupCount[0]);
    /* A buffer lives inside one memory block. */
    CAP(maxBufferSize, (uint64_t)EMGPU_VK_MEMORY_BLOCK_BYTES);
    /* Alignments: a larger value is the weaker limit. */
    if (v->minUniformBufferOffsetAlignment > l->minUniformBufferOffsetAlignment)
        l->minUniformBufferOffsetAlignment = (uint32_t)v->minUniformBufferOffsetAlignment;
    if (v->minStorageBufferOffsetAlignment > l->minStorageBufferOffsetAlignment)
        l->minStorageBufferOffsetAlignment = (uint32_t)v->minStorageBufferOffsetAlignment;
}

static void add_feature(eg_device_info_t *info, WGPUFeatureName f, bool have)
{
    int b = eg_feature_bit(f);
    if (have && b >= 0) info->features |= (uint64_t)1 << b;
}

static void fill_features(eg_hal_device_t *tmp, eg_device_info_t *info)
{
    VkPhysicalDevice pd = tmp->phys;
    const VkFormatFeatureFlags ds = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    add_feature(info, WGPUFeatureName_CoreFeaturesAndLimits, true);
    add_feature(info, WGPUFeatureName_Depth32FloatStencil8, format_has(pd, VK_FORMAT_D32_SFLOAT_S8_UINT, ds));
    add_feature(info, WGPUFeatureName_IndirectFirstInstance, tmp->features.drawIndirectFirstInstance);
    add_feature(info, WGPUFeatureName_Float32Filterable,
                format_has(pd, VK_FORMAT_R32_SFLOAT, VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) &&
                format_has(pd, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT));
    add_feature(info, WGPUFeatureName_RG11B10UfloatRenderable,
                format_has(pd, VK_FORMAT_B10G11R11_UFLOAT_PACK32,
                           VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT));
    add_feature(info, WGPUFeatureName_BGRA8UnormStorage,
                format_has(pd, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT));
}

static void copy_name(char *dst, const char *src)
{
    size_t n = eg_strlen(src);
    if (n >= EG_DEVICE_NAME_MAX) n = EG_DEVICE_NAME_MAX - 1;
    eg_memcpy(dst, src, n);
    dst[n] = '\0';
}

static WGPUAdapterType adapter_type(VkPhysicalDeviceType t)
{
    return t == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? WGPUAdapterType_DiscreteGPU
         : t == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? WGPUAdapterType_IntegratedGPU
         : t == VK_PHYSICAL_DEVICE_TYPE_CPU ? WGPUAdapterType_CPU : WGPUAdapterType_Unknown;
}

eg_status_t eg_vk_probe(uint32_t ordinal, eg_device_info_t *info)
{
    if (!instance_create()) return EG_STATUS_UNAVAILABLE;
    enumerate();
    if (ordinal >= vk_phys_count) return EG_STATUS_UNAVAILABLE;
    eg_hal_device_t tmp;
    eg_memset(&tmp, 0, sizeof tmp);
    tmp.phys = vk_phys[ordinal];
    eg_vk.vkGetPhysicalDeviceProperties(tmp.phys, &tmp.props);
    eg_vk.vkGetPhysicalDeviceFeatures(tmp.phys, &tmp.features);
    eg_memset(info, 0, sizeof *info);
    info->backend = WGPUBackendType_Vulkan;
    info->adapter_type = adapter_type(tmp.props.deviceType);
    info->vendor_id = tmp.props.vendorID;
    info->device_id = tmp.props.deviceID;
    eg_fmt(info->vendor, sizeof info->vendor, "0x%04x", (unsigned)tmp.props.vendorID);
    copy_name(info->architecture, "vulkan");
    copy_name(info->device, tmp.props.deviceName);
    eg_fmt(info->description, sizeof info->description, "Vulkan %u.%u.%u",
           VK_API_VERSION_MAJOR(tmp.props.apiVersion), VK_API_VERSION_MINOR(tmp.props.apiVersion),
           VK_API_VERSION_PATCH(tmp.props.apiVersion));
    fill_limits(&tmp.props.limits, &info->limits);
    fill_features(&tmp, info);
    info->ordinal = ordinal;
    return EG_STATUS_OK;
}

/* helper x11 (vk_swapchain.c): the process's instance and the physical device of an ordinal. */
VkInstance eg_vk_instance(void) { return vk_instance; }
VkPhysicalDevice eg_vk_physical_device(uint32_t ordinal)
{
    return instance_create() && ordinal < vk_phys_count ? vk_phys[ordinal] : VK_NULL_HANDLE;
}

/* ---- device ---- */

static eg_status_t create_device(eg_hal_device_t *d)
{
    float prio = 1.0f;
    VkDeviceQueueCreateInfo q = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = d->queue_family, .queueCount = 1,
                                  .pQueuePriorities = &prio };
    /* Only what WebGPU core needs and the device has. */
    VkPhysicalDeviceFeatures want;
    eg_memset(&want, 0, sizeof want);
    want.independentBlend = d->features.independentBlend;
    want.sampleRateShading = d->features.sampleRateShading;
    want.imageCubeArray = d->features.imageCubeArray;
    want.fragmentStoresAndAtomics = d->features.fragmentStoresAndAtomics;
    want.drawIndirectFirstInstance = d->features.drawIndirectFirstInstance;
    want.depthClamp = d->features.depthClamp;
    want.depthBiasClamp = d->features.depthBiasClamp;
    want.samplerAnisotropy = d->features.samplerAnisotropy;
    want.textureCompressionBC = d->features.textureCompressionBC;
    want.fullDrawIndexUint32 = d->features.fullDrawIndexUint32;
    want.shaderStorageImageExtendedFormats = d->features.shaderStorageImageExtendedFormats;
    const char *exts[EG_VK_SWAPCHAIN_MAX_EXTS];   /* helper x11: VK_KHR_swapchain when offered */
    VkDeviceCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &q, .pEnabledFeatures = &want,
                              .enabledExtensionCount = eg_vk_swapchain_device_exts(d->phys, exts, EG_VK_SWAPCHAIN_MAX_EXTS),
                              .ppEnabledExtensionNames = exts };
    VkResult r = eg_vk.vkCreateDevice(d->phys, &ci, eg_vk_host_allocator(), &d->device);
    if (r != VK_SUCCESS) return eg_vk_status(r);
    eg_vk.vkGetDeviceQueue(d->device, d->queue_family, 0, &d->queue);
    return EG_STATUS_OK;
}

eg_status_t eg_vk_device_open(const eg_device_info_t *info, eg_hal_device_t **out)
{
    if (!instance_create() || info->ordinal >= vk_phys_count) return EG_STATUS_UNAVAILABLE;
    eg_hal_device_t *d = NULL;
    for (uint32_t i = 0; i < EG_ARRAY_LEN(vk_devices) && !d; i++)
        if (!vk_devices[i].open) d = &vk_devices[i];
    if (!d) return EG_STATUS_OUT_OF_MEMORY;
    eg_memset(d, 0, sizeof *d);
    d->info = info;
    d->phys = vk_phys[info->ordinal];
    eg_vk.vkGetPhysicalDeviceProperties(d->phys, &d->props);
    /* VK_ATTACHMENT_STORE_OP_NONE is core in 1.3 (instance and device both at 1.3). */
    d->store_op_none = vk_instance_api >= VK_API_VERSION_1_3 && d->props.apiVersion >= VK_API_VERSION_1_3;
    eg_vk.vkGetPhysicalDeviceFeatures(d->phys, &d->features);
    d->queue_family = queue_family_of(d->phys);
    pick_depth_formats(d);
    eg_status_t st = create_device(d);
    if (st != EG_STATUS_OK) return st;
    d->open = true;
    if ((st = eg_vk_memory_init(d)) != EG_STATUS_OK || (st = eg_vk_ring_init(d)) != EG_STATUS_OK || (st = eg_vk_staging_init(d)) != EG_STATUS_OK ||
        (st = eg_vk_descriptors_init(d)) != EG_STATUS_OK) {
        eg_vk_device_close(d);
        return st;
    }
    *out = d;
    return EG_STATUS_OK;
}

void eg_vk_device_close(eg_hal_device_t *dev)
{
    if (!dev->open) return;
    if (dev->device) {
        eg_vk_flush_and_wait(dev);
        eg_vk.vkDeviceWaitIdle(dev->device);
    }
    eg_vk_caches_fini(dev);
    eg_vk_descriptors_fini(dev);
    eg_vk_staging_fini(dev);
    eg_vk_ring_fini(dev);
    eg_vk_memory_fini(dev);
    if (dev->device) eg_vk.vkDestroyDevice(dev->device, eg_vk_host_allocator());
    dev->device = VK_NULL_HANDLE;
    dev->open = false;
}

#endif /* EMGPU_HAL_VULKAN */
