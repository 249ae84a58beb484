/* hal/vulkan swapchains: VK_KHR_surface + VK_KHR_xlib_surface / VK_KHR_wayland_surface + VK_KHR_swapchain behind the HAL's window_* entries.
 *
 * The entry points are resolved here through vkGetInstanceProcAddr (the loader's table in
 * vk_internal.h stays as it is), and the X11 types are spelled as void * / unsigned long, so no
 * X11 header is needed to build. Frames:
 *   acquire: vkAcquireNextImageKHR signals an acquire semaphore (a ring of MAX_IMAGES + 1: which
 *            image comes back is only known afterwards); the image becomes the texture's VkImage
 *            and is zero-initialised (UNDEFINED -> clear -> GENERAL, the tracker's UNINITIALIZED
 *            state) in the upload command buffer. The next vkQueueSubmit, which carries that
 *            buffer, waits for the semaphore at the TRANSFER stage (vk_queue.c submit_slot asks
 *            eg_vk_swapchain_sems), and the initialisation's first barrier starts at TRANSFER so
 *            the layout transition chains after that wait.
 *   present: one barrier from the tracker's state of the texture to EG_TRACK_TEX_PRESENT
 *            (eg_vk_layout_of: PRESENT_SRC_KHR) in a small present-transition submit after all
 *            work, which signals the image's render-finished semaphore (one per image);
 *            vkQueuePresentKHR waits for it. No CPU wait per frame (helper egl; before, the queue
 *            was drained at every Present). An acquire semaphore is reused only when the submit
 *            that waited for it has completed (its serial; normally long done).
 * VkResult -> eg_hal_frame_status_t: SUBOPTIMAL_KHR -> SUBOPTIMAL, ERROR_OUT_OF_DATE_KHR ->
 * OUTDATED, ERROR_SURFACE_LOST_KHR -> LOST (webgpu.h WGPUSurfaceGetCurrentTextureStatus).
 * Records: a static pool of EMGPU_MAX_SURFACES swapchains, no allocation of ours.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_swapchain.h"
#include "port/port.h"   /* eg_port_getenv (helper wayland) */

#define MAX_IMAGES 8u
#define MAX_EXT_PROPS 256u

/* VkXlibSurfaceCreateInfoKHR without <X11/Xlib.h>: Display * and Window as void * / XID. */
typedef struct xlib_surface_info {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    void *dpy;
    unsigned long window;
} xlib_surface_info_t;
typedef VkResult (VKAPI_PTR *pfn_create_xlib_surface)(VkInstance, const xlib_surface_info_t *,
                                                      const VkAllocationCallbacks *, VkSurfaceKHR *);

/* helper wayland: VkWaylandSurfaceCreateInfoKHR without <wayland-client.h>. On Wayland the
 * surface's currentExtent is 0xFFFFFFFF (the client picks the size), so any configured size goes. */
#define VK_WAYLAND_SURFACE_INFO_STYPE ((VkStructureType)1000006000)   /* ..._WAYLAND_SURFACE_CREATE_INFO_KHR */
typedef struct wayland_surface_info {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    void *display;
    void *surface;
} wayland_surface_info_t;
typedef VkResult (VKAPI_PTR *pfn_create_wayland_surface)(VkInstance, const wayland_surface_info_t *,
                                                         const VkAllocationCallbacks *, VkSurfaceKHR *);

static struct {
    bool tried, ok;
    pfn_create_xlib_surface create_xlib_surface;        /* NULL without VK_KHR_xlib_surface */
    pfn_create_wayland_surface create_wayland_surface;  /* NULL without VK_KHR_wayland_surface */
    PFN_vkDestroySurfaceKHR destroy_surface;
    PFN_vkGetPhysicalDeviceSurfaceSupportKHR surface_support;
    PFN_vkGetPhysicalDeviceSurfaceCapabilitiesKHR surface_caps;
    PFN_vkGetPhysicalDeviceSurfaceFormatsKHR surface_formats;
    PFN_vkGetPhysicalDeviceSurfacePresentModesKHR surface_present_modes;
    PFN_vkCreateSwapchainKHR create_swapchain;
    PFN_vkDestroySwapchainKHR destroy_swapchain;
    PFN_vkGetSwapchainImagesKHR get_swapchain_images;
    PFN_vkAcquireNextImageKHR acquire_next_image;
    PFN_vkQueuePresentKHR queue_present;
    PFN_vkCreateSemaphore create_semaphore;     /* not in the loader's table (vk_internal.h) */
    PFN_vkDestroySemaphore destroy_semaphore;
} ks;

static bool instance_has_surface_exts;

#define ACQUIRE_SEMS (MAX_IMAGES + 1u)

struct eg_hal_swapchain {
    bool used;
    eg_hal_device_t *dev;          /* the configured device (whose submits take the semaphores) */
    VkSurfaceKHR surface;
    VkSwapchainKHR swapchain;
    VkImage images[MAX_IMAGES];
    uint32_t image_count;
    uint32_t current;              /* acquired image index, UINT32_MAX when none */
    VkFormat format;
    bool sems_made;
    VkSemaphore acquire_sems[ACQUIRE_SEMS];
    uint64_t acquire_serial[ACQUIRE_SEMS];   /* serial of the submit that waited for it; 0: none */
    uint32_t acquire_next;                   /* ring position of the next acquire */
    uint32_t wait_pending;                   /* ring position to wait for, UINT32_MAX: none */
    VkSemaphore present_sems[MAX_IMAGES];    /* render-finished, per image */
    VkSemaphore signal_pending;              /* for the next submit, VK_NULL_HANDLE: none */
};

static struct eg_hal_swapchain swapchains[EMGPU_MAX_SURFACES];

/* ---- extensions ---- */

static bool ext_listed(const VkExtensionProperties *p, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (eg_strcmp(p[i].extensionName, name) == 0) return true;
    return false;
}

static VkExtensionProperties ext_props[MAX_EXT_PROPS];

uint32_t eg_vk_swapchain_instance_exts(const char **names, uint32_t cap)
{
    uint32_t n = MAX_EXT_PROPS;
    instance_has_surface_exts = false;
    if (cap < 3 || !eg_vk.vkEnumerateInstanceExtensionProperties ||
        eg_vk.vkEnumerateInstanceExtensionProperties(NULL, &n, ext_props) < 0)
        return 0;
    /* helper wayland: each window system's extension is enabled when offered, at least one */
    bool xlib = ext_listed(ext_props, n, "VK_KHR_xlib_surface");
    /* Mesa's device-select layer connects to the default Wayland display when the extension
     * is enabled, and libwayland prints an error when XDG_RUNTIME_DIR is unset; without it no
     * named Wayland socket can be reached anyway (the Vulkan path then presents by copy). */
    bool wayland = ext_listed(ext_props, n, "VK_KHR_wayland_surface") &&
                   (eg_port_getenv("XDG_RUNTIME_DIR") || eg_port_getenv("WAYLAND_SOCKET"));
    if (!ext_listed(ext_props, n, VK_KHR_SURFACE_EXTENSION_NAME) || (!xlib && !wayland))
        return 0;
    uint32_t count = 0;
    names[count++] = VK_KHR_SURFACE_EXTENSION_NAME;
    if (xlib) names[count++] = "VK_KHR_xlib_surface";
    if (wayland) names[count++] = "VK_KHR_wayland_surface";
    instance_has_surface_exts = true;
    return count;
}

uint32_t eg_vk_swapchain_device_exts(VkPhysicalDevice phys, const char **names, uint32_t cap)
{
    uint32_t n = MAX_EXT_PROPS;
    if (!instance_has_surface_exts || cap < 1 ||
        eg_vk.vkEnumerateDeviceExtensionProperties(phys, NULL, &n, ext_props) < 0 ||
        !ext_listed(ext_props, n, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
        return 0;
    names[0] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    return 1;
}

static bool load_fns(void)
{
    if (ks.tried) return ks.ok;
    VkInstance inst = eg_vk_instance();
    if (!inst || !instance_has_surface_exts) return false;   /* retried: the instance may come later */
    ks.tried = true;
    /* ISO C has no void * -> function pointer conversion: copy the bytes. */
#define KS(field, name) do { PFN_vkVoidFunction f_ = eg_vk.vkGetInstanceProcAddr(inst, name); \
                             if (!f_) { return false; } \
                             eg_memcpy(&ks.field, &f_, sizeof f_); } while (0)
    /* helper wayland: the window-system entry points are optional, one per enabled extension */
    PFN_vkVoidFunction xf = eg_vk.vkGetInstanceProcAddr(inst, "vkCreateXlibSurfaceKHR");
    PFN_vkVoidFunction wf = eg_vk.vkGetInstanceProcAddr(inst, "vkCreateWaylandSurfaceKHR");
    eg_memcpy(&ks.create_xlib_surface, &xf, sizeof xf);
    eg_memcpy(&ks.create_wayland_surface, &wf, sizeof wf);
    KS(destroy_surface, "vkDestroySurfaceKHR");
    KS(surface_support, "vkGetPhysicalDeviceSurfaceSupportKHR");
    KS(surface_caps, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    KS(surface_formats, "vkGetPhysicalDeviceSurfaceFormatsKHR");
    KS(surface_present_modes, "vkGetPhysicalDeviceSurfacePresentModesKHR");
    KS(create_swapchain, "vkCreateSwapchainKHR");
    KS(destroy_swapchain, "vkDestroySwapchainKHR");
    KS(get_swapchain_images, "vkGetSwapchainImagesKHR");
    KS(acquire_next_image, "vkAcquireNextImageKHR");
    KS(queue_present, "vkQueuePresentKHR");
    KS(create_semaphore, "vkCreateSemaphore");
    KS(destroy_semaphore, "vkDestroySemaphore");
#undef KS
    ks.ok = true;
    return true;
}

static VkResult make_surface(const eg_hal_window_t *win, VkSurfaceKHR *out)
{
    if (win->wl_surface) {   /* helper wayland */
        if (!ks.create_wayland_surface) return VK_ERROR_EXTENSION_NOT_PRESENT;
        wayland_surface_info_t wi = { VK_WAYLAND_SURFACE_INFO_STYPE, NULL, 0, win->display, win->wl_surface };
        return ks.create_wayland_surface(eg_vk_instance(), &wi, eg_vk_host_allocator(), out);
    }
    if (!ks.create_xlib_surface || win->drm) return VK_ERROR_EXTENSION_NOT_PRESENT;
    xlib_surface_info_t ci = { VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR, NULL, 0, win->display,
                               (unsigned long)win->window };
    return ks.create_xlib_surface(eg_vk_instance(), &ci, eg_vk_host_allocator(), out);
}

/* ---- capabilities ---- */

static WGPUTextureFormat wgpu_format(VkFormat f)
{
    switch (f) {
    case VK_FORMAT_B8G8R8A8_UNORM: return WGPUTextureFormat_BGRA8Unorm;
    case VK_FORMAT_B8G8R8A8_SRGB: return WGPUTextureFormat_BGRA8UnormSrgb;
    case VK_FORMAT_R8G8B8A8_UNORM: return WGPUTextureFormat_RGBA8Unorm;
    case VK_FORMAT_R8G8B8A8_SRGB: return WGPUTextureFormat_RGBA8UnormSrgb;
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return WGPUTextureFormat_RGB10A2Unorm;
    case VK_FORMAT_R16G16B16A16_SFLOAT: return WGPUTextureFormat_RGBA16Float;
    default: return WGPUTextureFormat_Undefined;
    }
}

static void add_format(eg_hal_window_caps_t *c, WGPUTextureFormat f)
{
    for (uint32_t i = 0; i < c->format_count; i++)
        if (c->formats[i] == f) return;
    if (f == WGPUTextureFormat_Undefined || c->format_count == EG_HAL_WINDOW_MAX_FORMATS) return;
    c->formats[c->format_count++] = f;
}

static void fill_formats(VkPhysicalDevice phys, VkSurfaceKHR surf, eg_hal_window_caps_t *c)
{
    VkSurfaceFormatKHR fmts[32];
    uint32_t n = EG_ARRAY_LEN(fmts);
    if (ks.surface_formats(phys, surf, &n, fmts) < 0) n = 0;
    /* BGRA8Unorm first when offered: WebGPU's preferred canvas format on most platforms. */
    for (uint32_t pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < n; i++) {
            WGPUTextureFormat f = wgpu_format(fmts[i].format);
            if (fmts[i].colorSpace != VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) continue;
            if (pass == 1 || f == WGPUTextureFormat_BGRA8Unorm) add_format(c, f);
        }
}

static void fill_modes(VkPhysicalDevice phys, VkSurfaceKHR surf, const VkSurfaceCapabilitiesKHR *sc,
                       eg_hal_window_caps_t *c)
{
    VkPresentModeKHR modes[8];
    uint32_t n = EG_ARRAY_LEN(modes);
    if (ks.surface_present_modes(phys, surf, &n, modes) < 0) n = 0;
    /* Fifo is always supported (Vulkan and WebGPU both require it) and listed first. */
    c->present_modes[c->present_mode_count++] = WGPUPresentMode_Fifo;
    for (uint32_t i = 0; i < n && c->present_mode_count < EG_HAL_WINDOW_MAX_MODES; i++) {
        WGPUPresentMode m = modes[i] == VK_PRESENT_MODE_FIFO_RELAXED_KHR ? WGPUPresentMode_FifoRelaxed
                          : modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR ? WGPUPresentMode_Immediate
                          : modes[i] == VK_PRESENT_MODE_MAILBOX_KHR ? WGPUPresentMode_Mailbox
                          : WGPUPresentMode_Undefined;
        if (m != WGPUPresentMode_Undefined) c->present_modes[c->present_mode_count++] = m;
    }
    static const struct { VkCompositeAlphaFlagBitsKHR vk; WGPUCompositeAlphaMode w; } alphas[] = {
        { VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, WGPUCompositeAlphaMode_Opaque },
        { VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, WGPUCompositeAlphaMode_Premultiplied },
        { VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR, WGPUCompositeAlphaMode_Unpremultiplied },
        { VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR, WGPUCompositeAlphaMode_Inherit },
    };
    for (uint32_t i = 0; i < EG_ARRAY_LEN(alphas); i++)
        if (sc->supportedCompositeAlpha & alphas[i].vk) c->alpha_modes[c->alpha_mode_count++] = alphas[i].w;
    c->usages = WGPUTextureUsage_RenderAttachment;
    if (sc->supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) c->usages |= WGPUTextureUsage_CopySrc;
    if (sc->supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT) c->usages |= WGPUTextureUsage_CopyDst;
    if (sc->supportedUsageFlags & VK_IMAGE_USAGE_SAMPLED_BIT) c->usages |= WGPUTextureUsage_TextureBinding;
    /* On X11 the extent is the window's (currentExtent); 0xFFFFFFFF means "any". */
    bool any = sc->currentExtent.width == UINT32_MAX;
    c->extent_width_px = any ? 0 : sc->currentExtent.width;
    c->extent_height_px = any ? 0 : sc->currentExtent.height;
}

static bool family_presents(VkPhysicalDevice phys, VkSurfaceKHR surf, uint32_t family)
{
    VkBool32 ok = VK_FALSE;
    return ks.surface_support(phys, family, surf, &ok) == VK_SUCCESS && ok;
}

eg_status_t eg_vk_window_caps(const eg_device_info_t *info, const eg_hal_window_t *win, eg_hal_window_caps_t *caps)
{
    VkPhysicalDevice phys = eg_vk_physical_device(info->ordinal);
    if (!phys || !load_fns()) return EG_STATUS_UNAVAILABLE;
    VkSurfaceKHR surf;
    if (make_surface(win, &surf) != VK_SUCCESS) return EG_STATUS_UNAVAILABLE;
    eg_memset(caps, 0, sizeof *caps);
    VkSurfaceCapabilitiesKHR sc;
    uint32_t families = 8;
    VkQueueFamilyProperties qf[8];
    eg_vk.vkGetPhysicalDeviceQueueFamilyProperties(phys, &families, qf);
    bool presents = false;
    for (uint32_t i = 0; i < families && !presents; i++) presents = family_presents(phys, surf, i);
    eg_status_t st = EG_STATUS_UNAVAILABLE;
    if (presents && ks.surface_caps(phys, surf, &sc) == VK_SUCCESS) {
        fill_formats(phys, surf, caps);
        fill_modes(phys, surf, &sc, caps);
        if (caps->format_count && caps->alpha_mode_count) st = EG_STATUS_OK;
    }
    ks.destroy_surface(eg_vk_instance(), surf, eg_vk_host_allocator());
    return st;
}

/* ---- configure ---- */

static VkPresentModeKHR vk_present_mode(WGPUPresentMode m)
{
    switch (m) {
    case WGPUPresentMode_FifoRelaxed: return VK_PRESENT_MODE_FIFO_RELAXED_KHR;
    case WGPUPresentMode_Immediate: return VK_PRESENT_MODE_IMMEDIATE_KHR;
    case WGPUPresentMode_Mailbox: return VK_PRESENT_MODE_MAILBOX_KHR;
    default: return VK_PRESENT_MODE_FIFO_KHR;
    }
}

static VkCompositeAlphaFlagBitsKHR vk_alpha(WGPUCompositeAlphaMode m)
{
    switch (m) {
    case WGPUCompositeAlphaMode_Premultiplied: return VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR;
    case WGPUCompositeAlphaMode_Unpremultiplied: return VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR;
    case WGPUCompositeAlphaMode_Inherit: return VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
    default: return VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    }
}

/* TRANSFER_DST always: the backend zero-initialises every texture it hands out (vkCmdClearColorImage). */
static VkImageUsageFlags vk_usage(WGPUTextureUsage u)
{
    VkImageUsageFlags f = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (u & WGPUTextureUsage_CopySrc) f |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    if (u & WGPUTextureUsage_TextureBinding) f |= VK_IMAGE_USAGE_SAMPLED_BIT;
    return f;
}

/* ---- semaphores (the queue's submits take them: vk_queue.c submit_slot) ---- */

void eg_vk_swapchain_sems(const eg_hal_device_t *dev, eg_vk_submit_sems_t *out)
{
    out->wait_count = out->signal_count = 0;
    for (uint32_t i = 0; i < EG_ARRAY_LEN(swapchains); i++) {
        const struct eg_hal_swapchain *c = &swapchains[i];
        if (!c->used || c->dev != dev) continue;
        if (c->wait_pending != UINT32_MAX && out->wait_count < EG_VK_SWAPCHAIN_MAX_SEMS) {
            out->waits[out->wait_count] = c->acquire_sems[c->wait_pending];
            out->wait_stages[out->wait_count++] = VK_PIPELINE_STAGE_TRANSFER_BIT;   /* init_image */
        }
        if (c->signal_pending && out->signal_count < EG_VK_SWAPCHAIN_MAX_SEMS)
            out->signals[out->signal_count++] = c->signal_pending;
    }
}

void eg_vk_swapchain_sems_submitted(const eg_hal_device_t *dev, uint64_t serial)
{
    for (uint32_t i = 0; i < EG_ARRAY_LEN(swapchains); i++) {
        struct eg_hal_swapchain *c = &swapchains[i];
        if (!c->used || c->dev != dev) continue;
        if (c->wait_pending != UINT32_MAX) c->acquire_serial[c->wait_pending] = serial;
        c->wait_pending = UINT32_MAX;
        c->signal_pending = VK_NULL_HANDLE;
    }
}

static eg_status_t make_sems(eg_hal_device_t *dev, struct eg_hal_swapchain *c)
{
    VkSemaphoreCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    for (uint32_t i = 0; i < ACQUIRE_SEMS && !c->sems_made; i++) {
        VkResult r = ks.create_semaphore(dev->device, &si, eg_vk_host_allocator(), &c->acquire_sems[i]);
        if (r == VK_SUCCESS && i < MAX_IMAGES)
            r = ks.create_semaphore(dev->device, &si, eg_vk_host_allocator(), &c->present_sems[i]);
        if (r != VK_SUCCESS) return eg_vk_check(dev, r, "vkCreateSemaphore");
    }
    c->sems_made = true;
    return EG_STATUS_OK;
}

static void destroy_sems(eg_hal_device_t *dev, struct eg_hal_swapchain *c)
{
    for (uint32_t i = 0; i < ACQUIRE_SEMS; i++) {
        if (c->acquire_sems[i]) ks.destroy_semaphore(dev->device, c->acquire_sems[i], eg_vk_host_allocator());
        if (i < MAX_IMAGES && c->present_sems[i])
            ks.destroy_semaphore(dev->device, c->present_sems[i], eg_vk_host_allocator());
    }
}

static void destroy_chain(eg_hal_device_t *dev, struct eg_hal_swapchain *c)
{
    if (c->swapchain) ks.destroy_swapchain(dev->device, c->swapchain, eg_vk_host_allocator());
    c->swapchain = VK_NULL_HANDLE;
    c->image_count = 0;
    c->current = UINT32_MAX;
}

static struct eg_hal_swapchain *new_record(const eg_hal_window_t *win)
{
    for (uint32_t i = 0; i < EG_ARRAY_LEN(swapchains); i++) {
        struct eg_hal_swapchain *c = &swapchains[i];
        if (c->used) continue;
        eg_memset(c, 0, sizeof *c);
        c->current = UINT32_MAX;
        c->wait_pending = UINT32_MAX;
        if (make_surface(win, &c->surface) != VK_SUCCESS) return NULL;
        c->used = true;
        return c;
    }
    eg_vk_knob_exhausted("swapchains", "EMGPU_MAX_SURFACES", EMGPU_MAX_SURFACES);
    return NULL;
}

static eg_status_t create_chain(eg_hal_device_t *dev, struct eg_hal_swapchain *c, const eg_hal_window_config_t *cfg)
{
    VkSurfaceCapabilitiesKHR sc;
    if (!family_presents(dev->phys, c->surface, dev->queue_family)) {
        eg_log(EG_LOG_ERROR, "vulkan: queue family %u cannot present to this window", (unsigned)dev->queue_family);
        return EG_STATUS_UNAVAILABLE;
    }
    VkResult r = ks.surface_caps(dev->phys, c->surface, &sc);
    if (r != VK_SUCCESS) return eg_vk_check(dev, r, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    uint32_t count = sc.minImageCount + 1;
    if (sc.maxImageCount && count > sc.maxImageCount) count = sc.maxImageCount;
    if (count > MAX_IMAGES) count = MAX_IMAGES;
    c->format = eg_vk_format(dev, cfg->format);
    VkSwapchainKHR old = c->swapchain;
    VkSwapchainCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR, .surface = c->surface,
        .minImageCount = count, .imageFormat = c->format, .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
        .imageExtent = { cfg->width_px, cfg->height_px }, .imageArrayLayers = 1,
        .imageUsage = vk_usage(cfg->usage), .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = sc.currentTransform, .compositeAlpha = vk_alpha(cfg->alpha_mode),
        .presentMode = vk_present_mode(cfg->present_mode), .clipped = VK_TRUE, .oldSwapchain = old,
    };
    VkSwapchainKHR fresh;
    r = ks.create_swapchain(dev->device, &ci, eg_vk_host_allocator(), &fresh);
    if (r != VK_SUCCESS) return eg_vk_check(dev, r, "vkCreateSwapchainKHR");
    destroy_chain(dev, c);   /* the old one is retired by the new one's creation */
    c->swapchain = fresh;
    uint32_t n = MAX_IMAGES;
    r = ks.get_swapchain_images(dev->device, fresh, &n, c->images);
    if (r < 0) {
        destroy_chain(dev, c);
        return eg_vk_check(dev, r, "vkGetSwapchainImagesKHR");
    }
    c->image_count = n;
    return EG_STATUS_OK;
}

eg_status_t eg_vk_window_configure(eg_hal_device_t *dev, const eg_hal_window_t *win,
                                   const eg_hal_window_config_t *cfg, struct eg_hal_swapchain **sc)
{
    if (!load_fns()) return EG_STATUS_UNAVAILABLE;
    struct eg_hal_swapchain *c = *sc;
    bool fresh = c == NULL;
    if (fresh && !(c = new_record(win))) return EG_STATUS_OUT_OF_MEMORY;
    c->dev = dev;
    /* No frame of the old swapchain in flight: its semaphores are free for the new one. */
    eg_status_t st = eg_vk_flush_and_wait(dev);
    if (st == EG_STATUS_OK) st = make_sems(dev, c);
    if (st == EG_STATUS_OK) st = create_chain(dev, c, cfg);
    if (st != EG_STATUS_OK && fresh) eg_vk_window_unconfigure(dev, c);
    if (st == EG_STATUS_OK) *sc = c;
    return st;
}

void eg_vk_window_unconfigure(eg_hal_device_t *dev, struct eg_hal_swapchain *c)
{
    if (!c || !c->used) return;
    eg_vk_flush_and_wait(dev);   /* also submits a pending acquire wait (the upload buffer) */
    destroy_chain(dev, c);
    destroy_sems(dev, c);
    if (c->surface) ks.destroy_surface(eg_vk_instance(), c->surface, eg_vk_host_allocator());
    eg_memset(c, 0, sizeof *c);
}

/* ---- frames ---- */

static uint32_t frame_status(VkResult r)
{
    switch (r) {
    case VK_SUCCESS: return EG_HAL_FRAME_OPTIMAL;
    case VK_SUBOPTIMAL_KHR: return EG_HAL_FRAME_SUBOPTIMAL;
    case VK_ERROR_OUT_OF_DATE_KHR: return EG_HAL_FRAME_OUTDATED;
    case VK_ERROR_SURFACE_LOST_KHR: return EG_HAL_FRAME_LOST;
    case VK_TIMEOUT: case VK_NOT_READY: return EG_HAL_FRAME_TIMEOUT;
    case VK_ERROR_DEVICE_LOST: return EG_HAL_FRAME_DEVICE_LOST;
    default: return EG_HAL_FRAME_OUT_OF_MEMORY;
    }
}

/* The image's zero-initialisation (the backend's rule for every texture it hands out), as
 * eg_vk_texture_init does it except that the first barrier starts at TRANSFER, the stage at which
 * the submit waits for the acquire semaphore: from TOP_OF_PIPE the layout transition would not
 * chain after that wait and could touch the image while the presentation engine still reads it. */
static void init_image(VkCommandBuffer cb, VkImage image)
{
    VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    VkImageMemoryBarrier b = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                               .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .image = image, .subresourceRange = range };
    eg_vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
                               NULL, 1, &b);
    VkClearColorValue zero;
    eg_memset(&zero, 0, sizeof zero);
    eg_vk.vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = 0;   /* the upload buffer's closing memory barrier makes the clear visible */
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    eg_vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
                               NULL, 1, &b);
}

/* An acquire semaphore must have no pending wait (VUID-vkAcquireNextImageKHR-semaphore-01779):
 * the submit that waited for it must have completed. With MAX_IMAGES + 1 of them in a ring that
 * is normally long true; otherwise the queue is drained. */
static eg_status_t acquire_sem_free(eg_hal_device_t *dev, struct eg_hal_swapchain *c, uint32_t k)
{
    if (c->acquire_serial[k] <= dev->completed_serial) return EG_STATUS_OK;
    eg_vk_poll(dev);
    if (c->acquire_serial[k] <= dev->completed_serial) return EG_STATUS_OK;
    return eg_vk_flush_and_wait(dev);
}

uint32_t eg_vk_window_acquire(eg_hal_device_t *dev, struct eg_hal_swapchain *c, eg_texture_t *tex)
{
    uint32_t index = 0, k = c->acquire_next;
    if (c->wait_pending != UINT32_MAX) return EG_HAL_FRAME_OUT_OF_MEMORY;   /* kernel: one frame at a time */
    if (acquire_sem_free(dev, c, k) != EG_STATUS_OK)
        return dev->lost ? EG_HAL_FRAME_DEVICE_LOST : EG_HAL_FRAME_OUT_OF_MEMORY;
    VkResult r = ks.acquire_next_image(dev->device, c->swapchain, UINT64_MAX, c->acquire_sems[k], VK_NULL_HANDLE,
                                       &index);
    uint32_t st = frame_status(r);
    if (r == VK_ERROR_DEVICE_LOST) (void)eg_vk_check(dev, r, "vkAcquireNextImageKHR");
    if (st != EG_HAL_FRAME_OPTIMAL && st != EG_HAL_FRAME_SUBOPTIMAL) return st;
    /* From here the semaphore is signalled: the next submit must wait for it, whatever follows. */
    c->wait_pending = k;
    c->acquire_next = (k + 1) % ACQUIRE_SEMS;
    c->current = index;
    VkCommandBuffer cb = eg_vk_upload_cmd(dev);
    if (!cb) return dev->lost ? EG_HAL_FRAME_DEVICE_LOST : EG_HAL_FRAME_OUT_OF_MEMORY;
    dev->kdev = tex->obj.device;
    eg_vk_texture_t *vt = EG_VK_PRIV(eg_vk_texture_t, tex);
    eg_memset(vt, 0, sizeof *vt);
    vt->alloc.kind_block = UINT32_MAX;   /* no memory of ours: the swapchain owns the image */
    vt->alloc.reserved = EG_VK_SWAPCHAIN_IMAGE;
    vt->image = c->images[index];
    vt->format = c->format;
    init_image(cb, vt->image);
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    if (s->init_count < EG_VK_SLOT_INITS) s->inits[s->init_count++] = tex;
    else s->inits_overflow = true;
    return st;
}

uint32_t eg_vk_window_present(eg_hal_device_t *dev, struct eg_hal_swapchain *c, eg_texture_t *tex,
                              uint16_t from_use)
{
    if (c->current == UINT32_MAX) return EG_HAL_FRAME_OUT_OF_MEMORY;
    VkCommandBuffer cb = eg_vk_upload_cmd(dev);
    if (!cb) return dev->lost ? EG_HAL_FRAME_DEVICE_LOST : EG_HAL_FRAME_OUT_OF_MEMORY;
    if (EG_VK_PRIV(eg_vk_texture_t, tex)->image) {
        eg_vk_texture_barrier(dev, cb, tex, from_use, EG_TRACK_TEX_PRESENT, 0, 1, 0, 1);
    } else {   /* the texture was destroyed: the frame is dropped, but the image goes back */
        VkImageMemoryBarrier b = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                   .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                                   .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                   .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = c->images[c->current],
                                   .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
        eg_vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0,
                                   NULL, 0, NULL, 1, &b);
    }
    /* The present-transition submit signals the image's render-finished semaphore; everything
     * submitted before it is in that signal's first scope (submission order). */
    VkSemaphore done = c->present_sems[c->current];
    c->signal_pending = done;
    eg_status_t st = eg_vk_submit_uploads(dev);
    c->signal_pending = VK_NULL_HANDLE;
    if (st != EG_STATUS_OK) {
        c->current = UINT32_MAX;
        return st == EG_STATUS_DEVICE_LOST ? EG_HAL_FRAME_DEVICE_LOST : EG_HAL_FRAME_OUT_OF_MEMORY;
    }
    VkResult result = VK_SUCCESS;
    VkPresentInfoKHR pi = { .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, .waitSemaphoreCount = 1,
                            .pWaitSemaphores = &done, .swapchainCount = 1, .pSwapchains = &c->swapchain,
                            .pImageIndices = &c->current, .pResults = &result };
    VkResult r = ks.queue_present(dev->queue, &pi);
    c->current = UINT32_MAX;
    if (r == VK_ERROR_DEVICE_LOST) (void)eg_vk_check(dev, r, "vkQueuePresentKHR");
    return frame_status(r);
}

void eg_vk_window_release(eg_hal_device_t *dev, struct eg_hal_swapchain *c, eg_texture_t *tex)
{
    (void)dev;
    eg_vk_texture_t *vt = EG_VK_PRIV(eg_vk_texture_t, tex);
    for (uint32_t i = 0; c && i < c->image_count; i++)
        if (vt->image == c->images[i]) vt->image = VK_NULL_HANDLE;   /* texture_destroy skips it */
    if (c && vt->image == VK_NULL_HANDLE) c->current = UINT32_MAX;
}

#endif /* EMGPU_HAL_VULKAN */
