/* hal/vulkan fault injection (test builds, EMGPU_VK_FAULT_INJECTION): make fallible Vulkan calls fail.
 *
 * When the knob is on, the loader routes every fallible entry point of the function table
 * (vkCreate*, vkAllocate*, vkMapMemory, vkBind*Memory, vkQueueSubmit, vkWaitForFences, ...)
 * through a wrapper that counts the calls and makes the chosen one return a chosen VkResult
 * without reaching the driver. Tests use it to walk every failure point of a workload: first
 * arm with nth = 0 to count the fallible calls, then fail each in turn.
 */
#ifndef EG_VK_FAULT_H
#define EG_VK_FAULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Counts fallible calls from now on (those named `only`, or all when only is NULL) and makes
 *  the nth of them (1-based; 0: none, count only) return `result` (a VkResult, e.g.
 *  VK_ERROR_OUT_OF_DEVICE_MEMORY = -2, VK_ERROR_DEVICE_LOST = -4). With `sticky`, every matching
 *  call from the nth on fails (a lost device stays lost). */
void eg_vk_fault_arm(uint32_t nth, int32_t result, const char *only, bool sticky);
/** Stops injecting; counting stops too. */
void eg_vk_fault_disarm(void);
/** Matching fallible calls seen since the last arm. */
uint32_t eg_vk_fault_calls(void);
/** Name of the call that was made to fail first since the last arm, or NULL if none was. */
const char *eg_vk_fault_fired(void);
/** False when the build has no fault injection (EMGPU_VK_FAULT_INJECTION = 0). */
bool eg_vk_fault_available(void);

/* ---- test hooks into the driver host arena (EMGPU_VK_HOST_ALLOC_ARENA; vk_device.c) ----
 * The VkAllocationCallbacks the driver gets, called as the driver would; all return NULL / 0
 * when the knob is 0. */
void *eg_vk_host_arena_call_alloc(size_t size_B, size_t align);
void *eg_vk_host_arena_call_realloc(void *p, size_t size_B, size_t align);
void eg_vk_host_arena_call_free(void *p);
/** Bytes in use now, and the most in use at once since load. */
uint64_t eg_vk_host_arena_used(void);
uint64_t eg_vk_host_arena_peak(void);

#endif /* EG_VK_FAULT_H */
