/* hal/vulkan internals: the function table, the device record and the per-object records.
 *
 * Layout of the backend (one file per concern):
 *   vk_loader.c    libvulkan.so.1 through the port's dynamic loader, the function table
 *   vk_device.c    instance, validation messenger, adapter choice, device info, device open/close
 *   vk_memory.c    memory kinds over kernel/base/block_alloc, host-allocation arena
 *   vk_staging.c   the staging belt and the upload command buffer of the current ring slot
 *   vk_resource.c  buffers (incl. maps), textures, views, samplers
 *   vk_pipeline.c  shader modules, layouts, render/compute pipelines, the render pass cache
 *   vk_descriptor.c bind groups as descriptor sets
 *   vk_exec.c      command streams -> command buffers, tracker transitions -> barriers
 *   vk_queue.c     the submission ring, completion, queue writes, the ops table
 *
 * No malloc: every record is in a static pool or in an object's eg_hal_priv_t words. Vulkan
 * runs on 64-bit hosted boards, where a non-dispatchable handle fits one priv word; each record
 * type _Static_asserts that it fits.
 */
#ifndef EG_VK_INTERNAL_H
#define EG_VK_INTERNAL_H

#include "config/emgpu_config.h"

#define VK_NO_PROTOTYPES 1
#include <vulkan/vulkan.h>

#include "kernel/base/util.h"
#include "hal/hal.h"
#include "kernel/base/block_alloc.h"
#include "kernel/base/log.h"
#include "kernel/api/buffer.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/api/sampler.h"
#include "kernel/api/bind_group.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/shader_module.h"
#include "kernel/api/render_pipeline.h"
#include "kernel/api/compute_pipeline.h"
#include "kernel/cmd/cmd.h"

/* ---- function table (vk_loader.c) ---- */
#define EG_VK_INSTANCE_FNS(X) \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties) \
    X(vkGetPhysicalDeviceFeatures) X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkGetPhysicalDeviceMemoryProperties) X(vkGetPhysicalDeviceFormatProperties) \
    X(vkCreateDevice) X(vkEnumerateDeviceExtensionProperties)
#define EG_VK_DEVICE_FNS(X) \
    X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkQueueSubmit) X(vkQueueWaitIdle) X(vkDeviceWaitIdle) \
    X(vkAllocateMemory) X(vkFreeMemory) X(vkMapMemory) X(vkUnmapMemory) \
    X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkBindBufferMemory) \
    X(vkCreateImage) X(vkDestroyImage) X(vkGetImageMemoryRequirements) X(vkBindImageMemory) \
    X(vkCreateImageView) X(vkDestroyImageView) X(vkCreateSampler) X(vkDestroySampler) \
    X(vkCreateShaderModule) X(vkDestroyShaderModule) X(vkCreateDescriptorSetLayout) \
    X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout) X(vkDestroyPipelineLayout) \
    X(vkCreateGraphicsPipelines) X(vkCreateComputePipelines) X(vkDestroyPipeline) \
    X(vkCreateRenderPass) X(vkDestroyRenderPass) X(vkCreateFramebuffer) X(vkDestroyFramebuffer) \
    X(vkCreateDescriptorPool) X(vkDestroyDescriptorPool) X(vkAllocateDescriptorSets) \
    X(vkFreeDescriptorSets) X(vkUpdateDescriptorSets) X(vkCreateCommandPool) \
    X(vkDestroyCommandPool) X(vkAllocateCommandBuffers) X(vkResetCommandPool) \
    X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkCreateFence) X(vkDestroyFence) \
    X(vkWaitForFences) X(vkGetFenceStatus) X(vkResetFences) \
    X(vkCmdPipelineBarrier) X(vkCmdCopyBuffer) X(vkCmdCopyBufferToImage) X(vkCmdCopyImageToBuffer) \
    X(vkCmdCopyImage) X(vkCmdFillBuffer) X(vkCmdClearColorImage) X(vkCmdClearDepthStencilImage) X(vkCmdClearAttachments) \
    X(vkCmdBeginRenderPass) X(vkCmdEndRenderPass) X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets) \
    X(vkCmdBindVertexBuffers) X(vkCmdBindIndexBuffer) X(vkCmdSetViewport) X(vkCmdSetScissor) \
    X(vkCmdSetBlendConstants) X(vkCmdSetStencilReference) X(vkCmdDraw) X(vkCmdDrawIndexed) \
    X(vkCmdDrawIndirect) X(vkCmdDrawIndexedIndirect) X(vkCmdDispatch) X(vkCmdDispatchIndirect)
/* Optional: present only with VK_EXT_debug_utils. */
#define EG_VK_OPTIONAL_FNS(X) \
    X(vkCreateDebugUtilsMessengerEXT) X(vkDestroyDebugUtilsMessengerEXT) \
    X(vkCmdBeginDebugUtilsLabelEXT) X(vkCmdEndDebugUtilsLabelEXT) X(vkCmdInsertDebugUtilsLabelEXT) \
    X(vkSetDebugUtilsObjectNameEXT)

#define EG_VK_DECL(name) PFN_##name name;
typedef struct eg_vk_fns {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    PFN_vkCreateInstance vkCreateInstance;
    PFN_vkEnumerateInstanceLayerProperties vkEnumerateInstanceLayerProperties;
    PFN_vkEnumerateInstanceExtensionProperties vkEnumerateInstanceExtensionProperties;
    PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion;
    EG_VK_INSTANCE_FNS(EG_VK_DECL)
    EG_VK_DEVICE_FNS(EG_VK_DECL)
    EG_VK_OPTIONAL_FNS(EG_VK_DECL)
} eg_vk_fns_t;
#undef EG_VK_DECL

extern eg_vk_fns_t eg_vk;
/** Opens libvulkan.so.1 and loads the global entry points; false when absent. Idempotent. */
bool eg_vk_loader_open(void);
/** Loads instance-level and device-level entry points through vkGetInstanceProcAddr. */
bool eg_vk_loader_load_instance(VkInstance inst);
/** Puts the fault-injection wrappers (vk_fault.c) into the table; nothing without the knob. */
void eg_vk_fault_install(void);
/** vkDeviceWaitIdle past the fault wrappers: an injected loss leaves the real device running,
 *  and objects must not be destroyed under it (on a real loss this returns at once). */
void eg_vk_device_wait_idle_unfaulted(VkDevice device);

/* ---- memory kinds (vk_memory.c) ---- */
typedef enum eg_vk_mem_kind {
    EG_VK_MEM_DEVICE = 0,    /* device-local: buffers without map usage, textures */
    EG_VK_MEM_UPLOAD,        /* host-visible coherent: MapWrite buffers, staging */
    EG_VK_MEM_READBACK,      /* host-visible coherent (cached preferred): MapRead buffers */
    EG_VK_MEM_KIND_COUNT
} eg_vk_mem_kind_t;

typedef struct eg_vk_mem_pool {
    uint32_t type_index;     /* chosen memory type, UINT32_MAX: none */
    bool host_visible;
    eg_block_alloc_t alloc;
    VkDeviceMemory blocks[EG_BLOCK_ALLOC_MAX_BLOCKS];
    uint8_t *mapped[EG_BLOCK_ALLOC_MAX_BLOCKS];   /* persistent map of host-visible blocks */
    eg_range_block_t records[EMGPU_VK_MEMORY_BLOCKS * EMGPU_VK_MEMORY_RECORDS_PER_BLOCK];
    struct eg_hal_device *dev;
} eg_vk_mem_pool_t;

/* An allocation: kind, block, offset (packed for the priv words). */
typedef struct eg_vk_alloc {
    uint32_t kind_block;     /* kind << 16 | block; UINT32_MAX: none */
    uint32_t reserved;
    uint64_t offset_B;
} eg_vk_alloc_t;

/* ---- ring slot (vk_queue.c) ---- */
#define EG_VK_SLOT_INITS 32
typedef struct eg_vk_slot {
    VkCommandPool pool;
    VkCommandBuffer upload, main;
    VkFence fence;
    bool upload_open;        /* upload recording begun */
    bool upload_closed;      /* upload ended but its submit failed: goes with the next submit */
    bool in_flight;          /* submitted, fence not yet seen signalled */
    bool dirty;              /* completed but fence and pool not yet reset (eg_vk_slot_ready) */
    /* Textures whose first layout change (UNDEFINED -> GENERAL) waits in the upload buffer: if
     * that buffer is lost, their initialisation is recorded again (the tracker counts on it). */
    eg_texture_t *inits[EG_VK_SLOT_INITS];
    uint32_t init_count;
    bool inits_overflow;
    uint64_t serial;         /* internal submission serial of its last submit */
    uint64_t kernel_index;   /* kernel submission index it completes (0: a flush only) */
} eg_vk_slot_t;

typedef struct eg_vk_chunk {
    VkBuffer buffer;
    eg_vk_alloc_t alloc;
    uint8_t *host;
    uint64_t retire_serial;  /* free once completed_serial >= this */
    uint32_t pins;           /* open maps that live in this chunk: never recycled while > 0 */
} eg_vk_chunk_t;

#define EG_VK_MAX_ATTACHMENTS (2 * 8 + 1)

/* Render pass key: everything but layouts, which follow from it (memcmp'd: zero-fill first). */
/* In eg_vk_rp_desc_t store ops (uint8_t): VK_ATTACHMENT_STORE_OP_NONE, whose value does not fit. */
#define EG_VK_STORE_OP_NONE_U8 0xFFu

typedef struct eg_vk_rp_desc {
    uint32_t color_count;            /* slots, including unused ones */
    VkFormat color[8];               /* VK_FORMAT_UNDEFINED: unused slot */
    uint8_t color_load[8], color_store[8], has_resolve[8];   /* VkAttachmentLoadOp / StoreOp */
    VkFormat depth;                  /* VK_FORMAT_UNDEFINED: none */
    uint8_t depth_load, depth_store, stencil_load, stencil_store, depth_read_only, reserved[3];
    uint32_t samples;
} eg_vk_rp_desc_t;

typedef struct eg_vk_rp_entry {
    VkRenderPass rp;
    eg_vk_rp_desc_t desc;
} eg_vk_rp_entry_t;

typedef struct eg_vk_fb_entry {
    VkFramebuffer fb;
    VkRenderPass rp;
    VkImageView views[EG_VK_MAX_ATTACHMENTS];
    uint32_t view_count, width, height;
    uint64_t last_serial;
} eg_vk_fb_entry_t;

struct eg_hal_device {
    bool open;
    bool lost;                       /* VK_ERROR_DEVICE_LOST seen: every slot counts as complete */
    struct WGPUDeviceImpl *kdev;     /* the kernel device (set at resource creation): its pools
                                      * turn a transition's slot index into the object */
    const eg_device_info_t *info;
    VkPhysicalDevice phys;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceFeatures features;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkFormat depth24_format, depth24s8_format, stencil8_format;
    bool store_op_none;              /* VK_ATTACHMENT_STORE_OP_NONE usable (Vulkan 1.3) */
    eg_vk_mem_pool_t mem[EG_VK_MEM_KIND_COUNT];
    /* submission ring and completion */
    eg_vk_slot_t slots[EMGPU_VK_COMMAND_RING];
    uint32_t cur_slot;
    uint64_t next_serial, completed_serial;
    uint64_t completed_index;
    uint64_t submitted_index;        /* newest kernel index handed to vkQueueSubmit */
    /* staging belt */
    eg_vk_chunk_t chunks[EMGPU_VK_STAGING_CHUNKS];
    uint32_t cur_chunk;
    uint64_t chunk_used_B;
    /* descriptors, layouts, caches */
    VkDescriptorPool desc_pool;
    VkDescriptorSetLayout empty_set_layout;
    VkPipelineLayout empty_pipeline_layout;
    eg_vk_rp_entry_t rp_cache[EMGPU_VK_RENDER_PASS_CACHE];
    eg_vk_fb_entry_t fb_cache[EMGPU_VK_FRAMEBUFFER_CACHE];
};

/* ---- per-object records in eg_hal_priv_t ---- */
typedef struct eg_vk_buffer {
    VkBuffer buffer;
    eg_vk_alloc_t alloc;
    uint8_t *host;           /* persistent host address of the buffer, NULL if not host-visible */
    uint8_t *staging_host;   /* map of a non-host-visible buffer: staging memory */
    uint32_t staging_chunk, staging_offset_B;
} eg_vk_buffer_t;
typedef struct eg_vk_texture { VkImage image; eg_vk_alloc_t alloc; VkFormat format; } eg_vk_texture_t;
typedef struct eg_vk_view { VkImageView view; } eg_vk_view_t;
typedef struct eg_vk_handle { uint64_t h; } eg_vk_handle_t;
typedef struct eg_vk_render_pipeline {
    VkPipeline pipeline; VkPipelineLayout layout;
} eg_vk_pipeline_t;

_Static_assert(sizeof(eg_vk_buffer_t) <= sizeof(eg_hal_priv_t), "eg_vk_buffer_t fits the priv words");
_Static_assert(sizeof(eg_vk_texture_t) <= sizeof(eg_hal_priv_t), "eg_vk_texture_t fits the priv words");
_Static_assert(sizeof(eg_vk_pipeline_t) <= sizeof(eg_hal_priv_t), "eg_vk_pipeline_t fits the priv words");
_Static_assert(sizeof(VkBuffer) == 8 && sizeof(void *) == 8, "hal/vulkan needs a 64-bit board");

/* The backend's record inside an object's hal words (the kernel never reads those words). */
static inline void *eg_vk_priv(const eg_hal_priv_t *hal) { return (void *)(uintptr_t)hal; }
#define EG_VK_PRIV(type, obj) ((type *)eg_vk_priv(&(obj)->hal))

/* ---- cross-file helpers ---- */
eg_status_t eg_vk_status(VkResult r);   /* VkResult -> eg_status_t */
VkFormat eg_vk_format(const eg_hal_device_t *dev, WGPUTextureFormat f);
VkImageAspectFlags eg_vk_aspects(const eg_format_info_t *fi, WGPUTextureAspect aspect);
/** Logs an exhausted knob once per call site (the kernel's error quotes only the memory knob). */
void eg_vk_knob_exhausted(const char *what, const char *knob, uint64_t value);

/* vk_device.c */
uint32_t eg_vk_validation_messages(void);   /* messages seen since load */
/** True when VK_EXT_debug_utils is enabled on the instance (labels and object names work). */
bool eg_vk_debug_utils_enabled(void);
/** Names a Vulkan object after a WebGPU label (no-op without debug utils or label). */
void eg_vk_name_object(const eg_hal_device_t *dev, VkObjectType type, uint64_t handle, const char *label);
/** Bytes placed in the device memory blocks and bytes of blocks held, over every open device
 *  (tests: both sides of a leak check). */
uint64_t eg_vk_memory_used_all(void);
uint64_t eg_vk_memory_reserved_all(void);
const VkAllocationCallbacks *eg_vk_host_allocator(void);

/* vk_memory.c */
eg_status_t eg_vk_memory_init(eg_hal_device_t *dev);
void eg_vk_memory_fini(eg_hal_device_t *dev);
eg_status_t eg_vk_memory_alloc(eg_hal_device_t *dev, eg_vk_mem_kind_t kind,
                               const VkMemoryRequirements *req, eg_vk_alloc_t *out,
                               VkDeviceMemory *mem_out, uint8_t **host_out);
void eg_vk_memory_free(eg_hal_device_t *dev, eg_vk_alloc_t *a);
uint64_t eg_vk_memory_used(const eg_hal_device_t *dev);
/** Driver memory held in blocks (all kinds). */
uint64_t eg_vk_memory_reserved(const eg_hal_device_t *dev);

/* vk_staging.c */
eg_status_t eg_vk_staging_init(eg_hal_device_t *dev);
void eg_vk_staging_fini(eg_hal_device_t *dev);
/** Bump-allocates size_B (<= chunk size) bytes with 16-byte alignment; flushes and waits when
 *  every chunk is busy. */
eg_status_t eg_vk_staging_alloc(eg_hal_device_t *dev, uint32_t size_B, uint32_t *chunk,
                                uint32_t *offset_B, uint8_t **host);
/** The upload command buffer of the current ring slot (begun on first use). */
VkCommandBuffer eg_vk_upload_cmd(eg_hal_device_t *dev);

/* vk_queue.c */
eg_status_t eg_vk_ring_init(eg_hal_device_t *dev);
void eg_vk_ring_fini(eg_hal_device_t *dev);
/** Submits pending uploads alone (no kernel index) and waits for the queue to go idle. */
eg_status_t eg_vk_flush_and_wait(eg_hal_device_t *dev);
void eg_vk_poll(eg_hal_device_t *dev);
/** Notes r: on VK_ERROR_DEVICE_LOST marks the device lost (all work complete, the kernel's
 *  device lost with `what` in the message). Returns eg_vk_status(r). */
eg_status_t eg_vk_check(eg_hal_device_t *dev, VkResult r, const char *what);
/** Resets the current slot's fence and pool if it was used before; a failure is reported to the
 *  caller and retried at the next use, so a slot is never recorded or submitted half-reset. */
eg_status_t eg_vk_slot_ready(eg_hal_device_t *dev);
/** True when queue writes, clears or zero-fills wait in the current slot's upload buffer. */
static inline bool eg_vk_uploads_pending(const eg_hal_device_t *dev)
{
    return dev->slots[dev->cur_slot].upload_open || dev->slots[dev->cur_slot].upload_closed;
}
/** Submits the current slot's uploads alone (no kernel index). */
eg_status_t eg_vk_submit_uploads(eg_hal_device_t *dev);
/** Serial that the current slot's next submit will carry. */
uint64_t eg_vk_current_serial(const eg_hal_device_t *dev);

/* vk_resource.c */
eg_status_t eg_vk_buffer_create(eg_hal_device_t *dev, eg_buffer_t *buf);
void eg_vk_buffer_destroy(eg_hal_device_t *dev, eg_buffer_t *buf);
void *eg_vk_buffer_map(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B, uint64_t size_B, bool for_write);
void eg_vk_buffer_unmap(eg_hal_device_t *dev, eg_buffer_t *buf);
eg_status_t eg_vk_texture_create(eg_hal_device_t *dev, eg_texture_t *tex);
void eg_vk_texture_destroy(eg_hal_device_t *dev, eg_texture_t *tex);
/** Records a new texture's zero clear and first layout change into cb. */
void eg_vk_texture_init(eg_texture_t *tex, VkCommandBuffer cb);
eg_status_t eg_vk_texture_view_create(eg_hal_device_t *dev, eg_texture_view_t *view);
void eg_vk_texture_view_destroy(eg_hal_device_t *dev, eg_texture_view_t *view);
eg_status_t eg_vk_sampler_create(eg_hal_device_t *dev, eg_sampler_t *smp);
void eg_vk_sampler_destroy(eg_hal_device_t *dev, eg_sampler_t *smp);
VkImageLayout eg_vk_layout_of(uint16_t tex_use, const eg_texture_t *tex);
VkCompareOp eg_vk_compare_op(WGPUCompareFunction f);

/* vk_pipeline.c */
eg_status_t eg_vk_shader_module_create(eg_hal_device_t *dev, eg_shader_module_t *sm);
void eg_vk_shader_module_destroy(eg_hal_device_t *dev, eg_shader_module_t *sm);
eg_status_t eg_vk_pipeline_layout_create(eg_hal_device_t *dev, eg_pipeline_layout_t *pl);
void eg_vk_pipeline_layout_destroy(eg_hal_device_t *dev, eg_pipeline_layout_t *pl);
eg_status_t eg_vk_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
void eg_vk_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
eg_status_t eg_vk_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);
void eg_vk_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);
/** The stage's entry point name ("" resolved to the module's only entry point of the stage). */
const char *eg_vk_entry_name(const eg_stage_t *st, eg_shader_stage_t stage);
/** The render pass for d (cached); VK_NULL_HANDLE when the cache is full (logged). */
VkRenderPass eg_vk_render_pass_get(eg_hal_device_t *dev, const eg_vk_rp_desc_t *d);
void eg_vk_caches_fini(eg_hal_device_t *dev);
void eg_vk_framebuffer_forget_view(eg_hal_device_t *dev, VkImageView view);

/* vk_spirv.c: the vertex module with PointSize = 1 stored (static scratch), or NULL. */
const uint32_t *eg_vk_spirv_point_size(const uint32_t *words, uint32_t count, uint32_t *out_count);
/* vk_spirv.c: the words with WebGPU's integer division (static scratch, or words when unchanged);
 * NULL with *status set when the rewrite does not fit. */
const uint32_t *eg_vk_spirv_polyfill(const uint32_t *words, uint32_t count, uint32_t *out_count, eg_status_t *status);

/* vk_descriptor.c */
eg_status_t eg_vk_descriptors_init(eg_hal_device_t *dev);
void eg_vk_descriptors_fini(eg_hal_device_t *dev);
eg_status_t eg_vk_bind_group_layout_create(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl);
void eg_vk_bind_group_layout_destroy(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl);
eg_status_t eg_vk_bind_group_create(eg_hal_device_t *dev, eg_bind_group_t *bg);
void eg_vk_bind_group_destroy(eg_hal_device_t *dev, eg_bind_group_t *bg);

/* vk_exec.c */
eg_status_t eg_vk_record_stream(eg_hal_device_t *dev, VkCommandBuffer cb, const struct eg_cmd_stream *s);
/** Only the stream's barrier records (the layout changes the tracker has already counted). */
void eg_vk_record_barriers_only(eg_hal_device_t *dev, VkCommandBuffer cb, const struct eg_cmd_stream *s);
/** One EG_CMD_BARRIER record as a pipeline barrier (vk_barrier.c). */
void eg_vk_record_barrier(eg_hal_device_t *dev, VkCommandBuffer cb, const eg_cmd_barrier_t *rec);
/** Barrier for one tracker transition (shared by exec and the queue's texture writes). */
void eg_vk_texture_barrier(eg_hal_device_t *dev, VkCommandBuffer cb, eg_texture_t *tex,
                           uint16_t from, uint16_t to, uint32_t base_mip, uint32_t mips,
                           uint32_t base_layer, uint32_t layers);
VkFramebuffer eg_vk_framebuffer_get(eg_hal_device_t *dev, VkRenderPass rp, const VkImageView *views,
                                    uint32_t count, uint32_t w, uint32_t h);

/* vk_device.c */
eg_status_t eg_vk_probe(uint32_t ordinal, eg_device_info_t *info);
eg_status_t eg_vk_device_open(const eg_device_info_t *info, eg_hal_device_t **out);
void eg_vk_device_close(eg_hal_device_t *dev);

/* vk_queue.c */
eg_status_t eg_vk_queue_write_buffer(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                     const void *data, size_t size_B);
eg_status_t eg_vk_queue_write_texture(eg_hal_device_t *dev, eg_texture_t *tex, const eg_texel_region_t *dst,
                                      const void *data, const eg_buffer_layout_t *layout);

#endif /* EG_VK_INTERNAL_H */
