/* hal/vulkan memory: three memory kinds, each a bounded set of VkDeviceMemory blocks (block_alloc).
 *
 * Kinds: DEVICE (device-local; buffers without map usage, every texture), UPLOAD (host-visible
 * coherent; MapWrite buffers and the staging belt), READBACK (host-visible coherent, cached when
 * the device has it; MapRead buffers). Each kind picks one memory type when the device opens and
 * places resources in blocks of EMGPU_VK_MEMORY_BLOCK_BYTES, at most EMGPU_VK_MEMORY_BLOCKS of
 * them: EMGPU_VK_MEMORY_RESERVED_BLOCKS are allocated when the device opens, the rest on first
 * need (configure both equal for a device that never allocates driver memory after creation). Host-visible blocks stay mapped for their whole life, so a buffer
 * map is pointer arithmetic. A resource needing a memory type outside its kind's choice (drivers
 * may restrict memoryTypeBits per resource) is an internal error, logged.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"

_Static_assert(EMGPU_VK_MEMORY_BLOCKS >= 1 && EMGPU_VK_MEMORY_BLOCKS <= EG_BLOCK_ALLOC_MAX_BLOCKS,
               "EMGPU_VK_MEMORY_BLOCKS: 1..32");
_Static_assert(EMGPU_VK_MEMORY_RESERVED_BLOCKS <= EMGPU_VK_MEMORY_BLOCKS,
               "EMGPU_VK_MEMORY_RESERVED_BLOCKS: 0..EMGPU_VK_MEMORY_BLOCKS");

static const char *const kind_names[EG_VK_MEM_KIND_COUNT] = { "device-local", "upload", "readback" };

static uint32_t find_type(const VkPhysicalDeviceMemoryProperties *mp, VkMemoryPropertyFlags need,
                          VkMemoryPropertyFlags prefer)
{
    uint32_t fallback = UINT32_MAX;
    for (uint32_t i = 0; i < mp->memoryTypeCount; i++) {
        VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
        if ((f & need) != need) continue;
        if ((f & prefer) == prefer) return i;
        if (fallback == UINT32_MAX) fallback = i;
    }
    return fallback;
}

static bool open_block(void *ctx, uint32_t index)
{
    eg_vk_mem_pool_t *p = ctx;
    eg_hal_device_t *dev = p->dev;
    VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = EMGPU_VK_MEMORY_BLOCK_BYTES, .memoryTypeIndex = p->type_index };
    if (eg_vk.vkAllocateMemory(dev->device, &ai, eg_vk_host_allocator(), &p->blocks[index]) != VK_SUCCESS) {
        p->blocks[index] = VK_NULL_HANDLE;
        return false;
    }
    p->mapped[index] = NULL;
    if (p->host_visible) {
        void *ptr = NULL;
        if (eg_vk.vkMapMemory(dev->device, p->blocks[index], 0, VK_WHOLE_SIZE, 0, &ptr) != VK_SUCCESS) {
            eg_vk.vkFreeMemory(dev->device, p->blocks[index], eg_vk_host_allocator());
            p->blocks[index] = VK_NULL_HANDLE;
            return false;
        }
        p->mapped[index] = ptr;
    }
    return true;
}

eg_status_t eg_vk_memory_init(eg_hal_device_t *dev)
{
    VkPhysicalDeviceMemoryProperties mp;
    eg_vk.vkGetPhysicalDeviceMemoryProperties(dev->phys, &mp);
    const VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t types[EG_VK_MEM_KIND_COUNT] = {
        find_type(&mp, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
        find_type(&mp, hv, 0),
        find_type(&mp, hv, VK_MEMORY_PROPERTY_HOST_CACHED_BIT),
    };
    for (uint32_t k = 0; k < EG_VK_MEM_KIND_COUNT; k++) {
        eg_vk_mem_pool_t *p = &dev->mem[k];
        p->dev = dev;
        p->type_index = types[k] != UINT32_MAX ? types[k] : find_type(&mp, 0, 0);
        p->host_visible = (mp.memoryTypes[p->type_index].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0;
        eg_block_alloc_init(&p->alloc, EMGPU_VK_MEMORY_BLOCK_BYTES, EMGPU_VK_MEMORY_BLOCKS, p->records,
                            EMGPU_VK_MEMORY_RECORDS_PER_BLOCK, open_block, p);
    }
    for (uint32_t k = 0; k < EG_VK_MEM_KIND_COUNT; k++) {
        if (eg_block_alloc_reserve(&dev->mem[k].alloc, EMGPU_VK_MEMORY_RESERVED_BLOCKS) != EG_BLOCK_OK) {
            eg_log(EG_LOG_ERROR, "vulkan: the driver refused the %s memory reservation "
                   "(EMGPU_VK_MEMORY_RESERVED_BLOCKS = %u of EMGPU_VK_MEMORY_BLOCK_BYTES = %llu)", kind_names[k],
                   (unsigned)EMGPU_VK_MEMORY_RESERVED_BLOCKS, (unsigned long long)EMGPU_VK_MEMORY_BLOCK_BYTES);
            return EG_STATUS_OUT_OF_MEMORY;
        }
    }
    return EG_STATUS_OK;
}

void eg_vk_memory_fini(eg_hal_device_t *dev)
{
    for (uint32_t k = 0; k < EG_VK_MEM_KIND_COUNT; k++) {
        eg_vk_mem_pool_t *p = &dev->mem[k];
        for (uint32_t i = 0; i < EG_BLOCK_ALLOC_MAX_BLOCKS; i++) {
            if (!p->blocks[i]) continue;
            if (p->mapped[i]) eg_vk.vkUnmapMemory(dev->device, p->blocks[i]);
            eg_vk.vkFreeMemory(dev->device, p->blocks[i], eg_vk_host_allocator());
            p->blocks[i] = VK_NULL_HANDLE;
            p->mapped[i] = NULL;
        }
    }
}

eg_status_t eg_vk_memory_alloc(eg_hal_device_t *dev, eg_vk_mem_kind_t kind, const VkMemoryRequirements *req,
                               eg_vk_alloc_t *out, VkDeviceMemory *mem_out, uint8_t **host_out)
{
    eg_vk_mem_pool_t *p = &dev->mem[kind];
    out->kind_block = UINT32_MAX;
    if (!(req->memoryTypeBits & (1u << p->type_index))) {
        eg_log(EG_LOG_ERROR, "vulkan: a resource cannot use the %s memory type %u (allowed bits 0x%x)",
               kind_names[kind], (unsigned)p->type_index, (unsigned)req->memoryTypeBits);
        return EG_STATUS_INTERNAL;
    }
    eg_block_ref_t ref;
    /* bufferImageGranularity: keep linear and optimal resources apart by aligning everything to it. */
    uint64_t align = eg_max_u64(req->alignment, dev->props.limits.bufferImageGranularity);
    eg_block_status_t st = eg_block_alloc_alloc(&p->alloc, req->size, align, &ref);
    switch (st) {
    case EG_BLOCK_OK: break;
    case EG_BLOCK_TOO_LARGE:
        eg_vk_knob_exhausted("memory block (resource larger than one block)", "EMGPU_VK_MEMORY_BLOCK_BYTES",
                             EMGPU_VK_MEMORY_BLOCK_BYTES);
        return EG_STATUS_OUT_OF_MEMORY;
    case EG_BLOCK_NO_RECORDS:
        eg_vk_knob_exhausted("memory block records", "EMGPU_VK_MEMORY_RECORDS_PER_BLOCK",
                             EMGPU_VK_MEMORY_RECORDS_PER_BLOCK);
        return EG_STATUS_OUT_OF_MEMORY;
    case EG_BLOCK_NO_SPACE:
        eg_vk_knob_exhausted(kind_names[kind], "EMGPU_VK_MEMORY_BLOCKS", EMGPU_VK_MEMORY_BLOCKS);
        return EG_STATUS_OUT_OF_MEMORY;
    default:
        eg_log(EG_LOG_ERROR, "vulkan: vkAllocateMemory of a %s block failed", kind_names[kind]);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    out->kind_block = ((uint32_t)kind << 16) | ref.block;
    out->offset_B = ref.offset_B;
    *mem_out = p->blocks[ref.block];
    *host_out = p->mapped[ref.block] ? p->mapped[ref.block] + ref.offset_B : NULL;
    return EG_STATUS_OK;
}

void eg_vk_memory_free(eg_hal_device_t *dev, eg_vk_alloc_t *a)
{
    if (a->kind_block == UINT32_MAX) return;
    eg_vk_mem_pool_t *p = &dev->mem[a->kind_block >> 16];
    eg_block_ref_t ref = { a->kind_block & 0xFFFFu, a->offset_B };
    if (!eg_block_alloc_free(&p->alloc, &ref))
        eg_log(EG_LOG_ERROR, "vulkan: freeing memory that is not allocated (block %u offset %llu)",
               (unsigned)ref.block, (unsigned long long)ref.offset_B);
    a->kind_block = UINT32_MAX;
}

uint64_t eg_vk_memory_reserved(const eg_hal_device_t *dev)
{
    uint64_t u = 0;
    for (uint32_t k = 0; k < EG_VK_MEM_KIND_COUNT; k++) u += eg_block_alloc_reserved(&dev->mem[k].alloc);
    return u;
}

uint64_t eg_vk_memory_used(const eg_hal_device_t *dev)
{
    uint64_t u = 0;
    for (uint32_t k = 0; k < EG_VK_MEM_KIND_COUNT; k++) u += eg_block_alloc_used(&dev->mem[k].alloc);
    return u;
}

#endif /* EMGPU_HAL_VULKAN */
