/* hal/vulkan swapchains (vk_swapchain.c): the extensions to enable and the HAL's window_* entries. */
#ifndef EG_VK_SWAPCHAIN_H
#define EG_VK_SWAPCHAIN_H

#include "hal/vulkan/vk_internal.h"

/** eg_vk_texture_t.alloc.reserved of a texture whose VkImage is a swapchain's (never destroyed
 *  by texture_destroy). */
#define EG_VK_SWAPCHAIN_IMAGE 0x5C5C5C5Cu

/** Most extension names one of the *_exts functions adds. */
#define EG_VK_SWAPCHAIN_MAX_EXTS 3   /* surface, xlib_surface, wayland_surface (helper wayland) */

/** Appends VK_KHR_surface and VK_KHR_xlib_surface to names when the loader offers both
 *  (instance creation); returns how many were added (0 headless: surfaces are then unavailable). */
uint32_t eg_vk_swapchain_instance_exts(const char **names, uint32_t cap);
/** Appends VK_KHR_swapchain when the instance has the surface extensions and phys offers it. */
uint32_t eg_vk_swapchain_device_exts(VkPhysicalDevice phys, const char **names, uint32_t cap);

/* vk_device.c: the process's instance, and the physical device of an adapter ordinal. */
VkInstance eg_vk_instance(void);
VkPhysicalDevice eg_vk_physical_device(uint32_t ordinal);

eg_status_t eg_vk_window_caps(const eg_device_info_t *info, const struct eg_hal_window *win,
                              struct eg_hal_window_caps *caps);
eg_status_t eg_vk_window_configure(eg_hal_device_t *dev, const struct eg_hal_window *win,
                                   const struct eg_hal_window_config *cfg, struct eg_hal_swapchain **sc);
void eg_vk_window_unconfigure(eg_hal_device_t *dev, struct eg_hal_swapchain *sc);
uint32_t eg_vk_window_acquire(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex);
uint32_t eg_vk_window_present(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex,
                              uint16_t from_use);
void eg_vk_window_release(eg_hal_device_t *dev, struct eg_hal_swapchain *sc, eg_texture_t *tex);

/* ---- helper egl: swapchain semaphores on the queue's submits (vk_queue.c submit_slot) ----
 * An acquired image's acquire semaphore is waited for by the next vkQueueSubmit (the one carrying
 * the upload buffer in which acquire recorded the image's initialisation); a present's
 * render-finished semaphore is signalled by the present-transition submit. */
#define EG_VK_SWAPCHAIN_MAX_SEMS EMGPU_MAX_SURFACES

typedef struct eg_vk_submit_sems {
    VkSemaphore waits[EG_VK_SWAPCHAIN_MAX_SEMS];
    VkPipelineStageFlags wait_stages[EG_VK_SWAPCHAIN_MAX_SEMS];
    uint32_t wait_count;
    VkSemaphore signals[EG_VK_SWAPCHAIN_MAX_SEMS];
    uint32_t signal_count;
} eg_vk_submit_sems_t;

/** The semaphores the next vkQueueSubmit of dev must wait for and signal (counts 0: none). */
void eg_vk_swapchain_sems(const eg_hal_device_t *dev, eg_vk_submit_sems_t *out);
/** That submit succeeded with internal serial `serial`: its semaphores are no longer pending. */
void eg_vk_swapchain_sems_submitted(const eg_hal_device_t *dev, uint64_t serial);

/* vk_swapchain_copy.c: the HAL's surface_present (memory panels, fbdev, DRM: present by copy). */
eg_status_t eg_vk_surface_present(eg_hal_device_t *dev, const eg_texture_t *tex, const struct eg_hal_present *p);

#endif /* EG_VK_SWAPCHAIN_H */
