/* hal/vulkan resources: buffers (zeroed, mapped in place or through staging), textures, views, samplers.
 *
 * Zero-initialisation (WebGPU requires it): a host-visible buffer is cleared with memset, others
 * with vkCmdFillBuffer in the upload command buffer. A texture is cleared in the upload command
 * buffer and left in VK_IMAGE_LAYOUT_GENERAL, which is the layout this backend assigns to the
 * tracker's UNINITIALIZED state: the first tracker transition then keeps the zeros instead of
 * discarding them (a transition from UNDEFINED would).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"
#include "hal/vulkan/vk_swapchain.h"

/* ---- formats ---- */

VkFormat eg_vk_format(const eg_hal_device_t *dev, WGPUTextureFormat f)
{
    switch (f) {
    case WGPUTextureFormat_R8Unorm: return VK_FORMAT_R8_UNORM;
    case WGPUTextureFormat_R8Snorm: return VK_FORMAT_R8_SNORM;
    case WGPUTextureFormat_R8Uint: return VK_FORMAT_R8_UINT;
    case WGPUTextureFormat_R8Sint: return VK_FORMAT_R8_SINT;
    case WGPUTextureFormat_R16Unorm: return VK_FORMAT_R16_UNORM;
    case WGPUTextureFormat_R16Snorm: return VK_FORMAT_R16_SNORM;
    case WGPUTextureFormat_R16Uint: return VK_FORMAT_R16_UINT;
    case WGPUTextureFormat_R16Sint: return VK_FORMAT_R16_SINT;
    case WGPUTextureFormat_R16Float: return VK_FORMAT_R16_SFLOAT;
    case WGPUTextureFormat_RG8Unorm: return VK_FORMAT_R8G8_UNORM;
    case WGPUTextureFormat_RG8Snorm: return VK_FORMAT_R8G8_SNORM;
    case WGPUTextureFormat_RG8Uint: return VK_FORMAT_R8G8_UINT;
    case WGPUTextureFormat_RG8Sint: return VK_FORMAT_R8G8_SINT;
    case WGPUTextureFormat_R32Float: return VK_FORMAT_R32_SFLOAT;
    case WGPUTextureFormat_R32Uint: return VK_FORMAT_R32_UINT;
    case WGPUTextureFormat_R32Sint: return VK_FORMAT_R32_SINT;
    case WGPUTextureFormat_RG16Unorm: return VK_FORMAT_R16G16_UNORM;
    case WGPUTextureFormat_RG16Snorm: return VK_FORMAT_R16G16_SNORM;
    case WGPUTextureFormat_RG16Uint: return VK_FORMAT_R16G16_UINT;
    case WGPUTextureFormat_RG16Sint: return VK_FORMAT_R16G16_SINT;
    case WGPUTextureFormat_RG16Float: return VK_FORMAT_R16G16_SFLOAT;
    case WGPUTextureFormat_RGBA8Unorm: return VK_FORMAT_R8G8B8A8_UNORM;
    case WGPUTextureFormat_RGBA8UnormSrgb: return VK_FORMAT_R8G8B8A8_SRGB;
    case WGPUTextureFormat_RGBA8Snorm: return VK_FORMAT_R8G8B8A8_SNORM;
    case WGPUTextureFormat_RGBA8Uint: return VK_FORMAT_R8G8B8A8_UINT;
    case WGPUTextureFormat_RGBA8Sint: return VK_FORMAT_R8G8B8A8_SINT;
    case WGPUTextureFormat_BGRA8Unorm: return VK_FORMAT_B8G8R8A8_UNORM;
    case WGPUTextureFormat_BGRA8UnormSrgb: return VK_FORMAT_B8G8R8A8_SRGB;
    case WGPUTextureFormat_RGB10A2Uint: return VK_FORMAT_A2B10G10R10_UINT_PACK32;
    case WGPUTextureFormat_RGB10A2Unorm: return VK_FORMAT_A2B10G10R10_UNORM_PACK32;
    case WGPUTextureFormat_RG11B10Ufloat: return VK_FORMAT_B10G11R11_UFLOAT_PACK32;
    case WGPUTextureFormat_RGB9E5Ufloat: return VK_FORMAT_E5B9G9R9_UFLOAT_PACK32;
    case WGPUTextureFormat_RG32Float: return VK_FORMAT_R32G32_SFLOAT;
    case WGPUTextureFormat_RG32Uint: return VK_FORMAT_R32G32_UINT;
    case WGPUTextureFormat_RG32Sint: return VK_FORMAT_R32G32_SINT;
    case WGPUTextureFormat_RGBA16Unorm: return VK_FORMAT_R16G16B16A16_UNORM;
    case WGPUTextureFormat_RGBA16Snorm: return VK_FORMAT_R16G16B16A16_SNORM;
    case WGPUTextureFormat_RGBA16Uint: return VK_FORMAT_R16G16B16A16_UINT;
    case WGPUTextureFormat_RGBA16Sint: return VK_FORMAT_R16G16B16A16_SINT;
    case WGPUTextureFormat_RGBA16Float: return VK_FORMAT_R16G16B16A16_SFLOAT;
    case WGPUTextureFormat_RGBA32Float: return VK_FORMAT_R32G32B32A32_SFLOAT;
    case WGPUTextureFormat_RGBA32Uint: return VK_FORMAT_R32G32B32A32_UINT;
    case WGPUTextureFormat_RGBA32Sint: return VK_FORMAT_R32G32B32A32_SINT;
    case WGPUTextureFormat_Stencil8: return dev->stencil8_format;
    case WGPUTextureFormat_Depth16Unorm: return VK_FORMAT_D16_UNORM;
    case WGPUTextureFormat_Depth24Plus: return dev->depth24_format;
    case WGPUTextureFormat_Depth24PlusStencil8: return dev->depth24s8_format;
    case WGPUTextureFormat_Depth32Float: return VK_FORMAT_D32_SFLOAT;
    case WGPUTextureFormat_Depth32FloatStencil8: return VK_FORMAT_D32_SFLOAT_S8_UINT;
    case WGPUTextureFormat_BC1RGBAUnorm: return VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
    case WGPUTextureFormat_BC1RGBAUnormSrgb: return VK_FORMAT_BC1_RGBA_SRGB_BLOCK;
    case WGPUTextureFormat_BC2RGBAUnorm: return VK_FORMAT_BC2_UNORM_BLOCK;
    case WGPUTextureFormat_BC2RGBAUnormSrgb: return VK_FORMAT_BC2_SRGB_BLOCK;
    case WGPUTextureFormat_BC3RGBAUnorm: return VK_FORMAT_BC3_UNORM_BLOCK;
    case WGPUTextureFormat_BC3RGBAUnormSrgb: return VK_FORMAT_BC3_SRGB_BLOCK;
    case WGPUTextureFormat_BC4RUnorm: return VK_FORMAT_BC4_UNORM_BLOCK;
    case WGPUTextureFormat_BC4RSnorm: return VK_FORMAT_BC4_SNORM_BLOCK;
    case WGPUTextureFormat_BC5RGUnorm: return VK_FORMAT_BC5_UNORM_BLOCK;
    case WGPUTextureFormat_BC5RGSnorm: return VK_FORMAT_BC5_SNORM_BLOCK;
    case WGPUTextureFormat_BC6HRGBUfloat: return VK_FORMAT_BC6H_UFLOAT_BLOCK;
    case WGPUTextureFormat_BC6HRGBFloat: return VK_FORMAT_BC6H_SFLOAT_BLOCK;
    case WGPUTextureFormat_BC7RGBAUnorm: return VK_FORMAT_BC7_UNORM_BLOCK;
    case WGPUTextureFormat_BC7RGBAUnormSrgb: return VK_FORMAT_BC7_SRGB_BLOCK;
    default:
        /* emgpu's RGB565 extension format: R in bits 15..11, as VK_FORMAT_R5G6B5_UNORM_PACK16. */
        return f == EG_FORMAT_RGB565_VALUE ? VK_FORMAT_R5G6B5_UNORM_PACK16 : VK_FORMAT_UNDEFINED;
    }
}

VkImageAspectFlags eg_vk_aspects(const eg_format_info_t *fi, WGPUTextureAspect aspect)
{
    VkImageAspectFlags all = 0;
    if (fi->aspects & EG_ASPECT_COLOR) all |= VK_IMAGE_ASPECT_COLOR_BIT;
    if (fi->aspects & EG_ASPECT_DEPTH) all |= VK_IMAGE_ASPECT_DEPTH_BIT;
    if (fi->aspects & EG_ASPECT_STENCIL) all |= VK_IMAGE_ASPECT_STENCIL_BIT;
    if (aspect == WGPUTextureAspect_DepthOnly) return all & VK_IMAGE_ASPECT_DEPTH_BIT;
    if (aspect == WGPUTextureAspect_StencilOnly) return all & VK_IMAGE_ASPECT_STENCIL_BIT;
    return all;
}

/* Layout for a tracker state. Combined read-only states share one layout where Vulkan has one
 * (depth read + sampled), else GENERAL. UNINITIALIZED is GENERAL: see the file comment. */
VkImageLayout eg_vk_layout_of(uint16_t use, const eg_texture_t *tex)
{
    switch (use) {
    case EG_TRACK_TEX_COPY_SRC: return VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    case EG_TRACK_TEX_COPY_DST: return VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    /* A sampled depth/stencil texture that can be an attachment uses the read-only depth layout
     * (valid for sampling), so "sampled", "read-only attachment" and both at once in one pass
     * share one layout and a bind group's descriptor is right in all three. */
    case EG_TRACK_TEX_SAMPLED:
        return eg_format_is_depth_stencil(tex->fi) && (tex->usage & WGPUTextureUsage_RenderAttachment)
                   ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    case EG_TRACK_TEX_COLOR_TARGET: return VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    case EG_TRACK_TEX_DEPTH_STENCIL_READ:
    case EG_TRACK_TEX_DEPTH_STENCIL_READ | EG_TRACK_TEX_SAMPLED:
        return VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
    case EG_TRACK_TEX_DEPTH_STENCIL_WRITE: return VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    case EG_TRACK_TEX_PRESENT: return VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;   /* swapchain images (vk_swapchain.c) */
    default: return VK_IMAGE_LAYOUT_GENERAL;
    }
}

/* ---- buffers ---- */

static VkBufferUsageFlags buffer_usage(WGPUBufferUsage u)
{
    VkBufferUsageFlags f = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    if (u & WGPUBufferUsage_Index) f |= VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
    if (u & WGPUBufferUsage_Vertex) f |= VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
    if (u & WGPUBufferUsage_Uniform) f |= VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
    if (u & WGPUBufferUsage_Storage) f |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (u & WGPUBufferUsage_Indirect) f |= VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    return f;
}

/* A resource destroyed while the open upload buffer may still name it must not go before the
 * upload runs: submit it and drain (rare: create + destroy with no submit in between). */
static void settle_uploads(eg_hal_device_t *dev)
{
    if (eg_vk_uploads_pending(dev)) eg_vk_flush_and_wait(dev);
}

eg_status_t eg_vk_buffer_create(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    eg_vk_buffer_t *vb = EG_VK_PRIV(eg_vk_buffer_t, buf);
    dev->kdev = buf->obj.device;
    eg_memset(vb, 0, sizeof *vb);
    vb->alloc.kind_block = UINT32_MAX;
    uint64_t size = buf->size_B ? buf->size_B : 4;   /* Vulkan has no empty buffers */
    VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                              .usage = buffer_usage(buf->usage), .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
    VkResult r = eg_vk.vkCreateBuffer(dev->device, &bi, eg_vk_host_allocator(), &vb->buffer);
    if (r != VK_SUCCESS) return eg_vk_status(r);
    VkMemoryRequirements req;
    eg_vk.vkGetBufferMemoryRequirements(dev->device, vb->buffer, &req);
    eg_vk_mem_kind_t kind = (buf->usage & WGPUBufferUsage_MapRead) ? EG_VK_MEM_READBACK
                          : (buf->usage & WGPUBufferUsage_MapWrite) ? EG_VK_MEM_UPLOAD : EG_VK_MEM_DEVICE;
    VkDeviceMemory mem;
    eg_status_t st = eg_vk_memory_alloc(dev, kind, &req, &vb->alloc, &mem, &vb->host);
    if (st == EG_STATUS_OK) st = eg_vk_status(eg_vk.vkBindBufferMemory(dev->device, vb->buffer, mem, vb->alloc.offset_B));
    if (st != EG_STATUS_OK) {
        eg_vk_buffer_destroy(dev, buf);
        return st;
    }
    eg_vk_name_object(dev, VK_OBJECT_TYPE_BUFFER, (uint64_t)vb->buffer, buf->obj.label);
    if (vb->host) {
        eg_memset(vb->host, 0, (size_t)size);
    } else {
        VkCommandBuffer cb = eg_vk_upload_cmd(dev);
        if (!cb) {
            eg_vk_buffer_destroy(dev, buf);
            return dev->lost ? EG_STATUS_DEVICE_LOST : EG_STATUS_OUT_OF_MEMORY;
        }
        eg_vk.vkCmdFillBuffer(cb, vb->buffer, 0, VK_WHOLE_SIZE, 0);
    }
    return EG_STATUS_OK;
}

void eg_vk_buffer_destroy(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    eg_vk_buffer_t *vb = EG_VK_PRIV(eg_vk_buffer_t, buf);
    settle_uploads(dev);
    if (vb->staging_host) dev->chunks[vb->staging_chunk].pins--;
    vb->staging_host = NULL;
    if (vb->buffer) eg_vk.vkDestroyBuffer(dev->device, vb->buffer, eg_vk_host_allocator());
    vb->buffer = VK_NULL_HANDLE;
    eg_vk_memory_free(dev, &vb->alloc);
}

/* The kernel maps only when the buffer's GPU work is complete; queue writes still sitting in the
 * upload buffer are not covered by that, so they are flushed first. */
void *eg_vk_buffer_map(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B, uint64_t size_B, bool for_write)
{
    static uint8_t empty[16];
    eg_vk_buffer_t *vb = EG_VK_PRIV(eg_vk_buffer_t, buf);
    (void)for_write;
    if (dev->lost || (eg_vk_uploads_pending(dev) && eg_vk_flush_and_wait(dev) != EG_STATUS_OK)) return NULL;
    if (buf->size_B == 0) return empty;
    if (vb->host) return vb->host + offset_B;
    /* Device memory the CPU cannot see (mappedAtCreation of a GPU-only buffer): a staging copy,
     * written back at unmap. */
    uint32_t chunk, off;
    uint8_t *host;
    if (size_B > EMGPU_VK_STAGING_CHUNK_BYTES ||
        eg_vk_staging_alloc(dev, (uint32_t)size_B, &chunk, &off, &host) != EG_STATUS_OK) {
        eg_vk_knob_exhausted("staging for a mapped GPU-only buffer", "EMGPU_VK_STAGING_CHUNK_BYTES",
                             EMGPU_VK_STAGING_CHUNK_BYTES);
        return NULL;
    }
    eg_memset(host, 0, (size_t)size_B);
    dev->chunks[chunk].pins++;
    vb->staging_host = host;
    vb->staging_chunk = chunk;
    vb->staging_offset_B = off;
    return host;
}

void eg_vk_buffer_unmap(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    eg_vk_buffer_t *vb = EG_VK_PRIV(eg_vk_buffer_t, buf);
    if (!vb->staging_host) return;
    eg_vk_chunk_t *c = &dev->chunks[vb->staging_chunk];
    VkCommandBuffer cb = eg_vk_upload_cmd(dev);
    if (cb) {
        VkBufferCopy cp = { vb->staging_offset_B, buf->map_offset_B, buf->map_size_B };
        if (cp.size) eg_vk.vkCmdCopyBuffer(cb, c->buffer, vb->buffer, 1, &cp);
    }
    c->pins--;
    c->retire_serial = eg_vk_current_serial(dev);
    vb->staging_host = NULL;
}

/* ---- textures ---- */

static VkImageUsageFlags image_usage(const eg_texture_t *tex)
{
    /* SAMPLED always: a view needs one view-capable usage even on a copy-only texture. */
    VkImageUsageFlags f = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                          VK_IMAGE_USAGE_SAMPLED_BIT;
    if (tex->usage & WGPUTextureUsage_StorageBinding) f |= VK_IMAGE_USAGE_STORAGE_BIT;
    if (tex->usage & WGPUTextureUsage_RenderAttachment)
        f |= eg_format_is_depth_stencil(tex->fi) ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                                                 : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    return f;
}

void eg_vk_texture_init(eg_texture_t *tex, VkCommandBuffer cb)
{
    eg_vk_texture_t *vt = EG_VK_PRIV(eg_vk_texture_t, tex);
    uint32_t layers = eg_texture_layer_count(tex);
    VkImageSubresourceRange range = { eg_vk_aspects(tex->fi, WGPUTextureAspect_All), 0, tex->mip_level_count, 0, layers };
    VkImageMemoryBarrier b = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                               .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .image = vt->image, .subresourceRange = range };
    eg_vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
                               NULL, 1, &b);
    bool clearable = !eg_format_is_compressed(tex->fi);
    if (clearable && eg_format_is_depth_stencil(tex->fi)) {
        VkClearDepthStencilValue z = { 0.0f, 0 };
        eg_vk.vkCmdClearDepthStencilImage(cb, vt->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &z, 1, &range);
    } else if (clearable) {
        VkClearColorValue z;
        eg_memset(&z, 0, sizeof z);
        eg_vk.vkCmdClearColorImage(cb, vt->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &z, 1, &range);
    }
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = 0;   /* the upload buffer's closing memory barrier makes the clear visible */
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    eg_vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
                               NULL, 1, &b);
}

eg_status_t eg_vk_texture_create(eg_hal_device_t *dev, eg_texture_t *tex)
{
    eg_vk_texture_t *vt = EG_VK_PRIV(eg_vk_texture_t, tex);
    dev->kdev = tex->obj.device;
    eg_memset(vt, 0, sizeof *vt);
    vt->alloc.kind_block = UINT32_MAX;
    vt->format = eg_vk_format(dev, tex->format);
    if (vt->format == VK_FORMAT_UNDEFINED) return EG_STATUS_INTERNAL;
    bool is3d = tex->dimension == WGPUTextureDimension_3D;
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = is3d ? VK_IMAGE_TYPE_3D : tex->dimension == WGPUTextureDimension_1D ? VK_IMAGE_TYPE_1D
                                                                                        : VK_IMAGE_TYPE_2D,
        .format = vt->format,
        .extent = { tex->size.width, tex->size.height, is3d ? tex->size.depthOrArrayLayers : 1 },
        .mipLevels = tex->mip_level_count, .arrayLayers = eg_texture_layer_count(tex),
        .samples = (VkSampleCountFlagBits)tex->sample_count, .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = image_usage(tex), .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    /* Cube views need the flag on the image; WebGPU allows them on any 2D texture with 6k layers. */
    if (!is3d && ci.imageType == VK_IMAGE_TYPE_2D && ci.arrayLayers % 6 == 0 && tex->size.width == tex->size.height &&
        tex->sample_count == 1)
        ci.flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
    if (tex->view_srgb_pair != WGPUTextureFormat_Undefined) ci.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    VkResult r = eg_vk.vkCreateImage(dev->device, &ci, eg_vk_host_allocator(), &vt->image);
    if (r != VK_SUCCESS) return eg_vk_status(r);
    VkMemoryRequirements req;
    VkDeviceMemory mem;
    uint8_t *host;
    eg_vk.vkGetImageMemoryRequirements(dev->device, vt->image, &req);
    eg_status_t st = eg_vk_memory_alloc(dev, EG_VK_MEM_DEVICE, &req, &vt->alloc, &mem, &host);
    if (st == EG_STATUS_OK) st = eg_vk_status(eg_vk.vkBindImageMemory(dev->device, vt->image, mem, vt->alloc.offset_B));
    if (st != EG_STATUS_OK) {
        eg_vk_texture_destroy(dev, tex);
        return st;
    }
    VkCommandBuffer cb = eg_vk_upload_cmd(dev);
    if (!cb) {
        eg_vk_texture_destroy(dev, tex);
        return dev->lost ? EG_STATUS_DEVICE_LOST : EG_STATUS_OUT_OF_MEMORY;
    }
    eg_vk_texture_init(tex, cb);
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    if (s->init_count < EG_VK_SLOT_INITS) s->inits[s->init_count++] = tex;
    else s->inits_overflow = true;
    eg_vk_name_object(dev, VK_OBJECT_TYPE_IMAGE, (uint64_t)vt->image, tex->obj.label);
    return EG_STATUS_OK;
}

void eg_vk_texture_destroy(eg_hal_device_t *dev, eg_texture_t *tex)
{
    eg_vk_texture_t *vt = EG_VK_PRIV(eg_vk_texture_t, tex);
    settle_uploads(dev);
    eg_vk_slot_t *s = &dev->slots[dev->cur_slot];
    for (uint32_t i = 0; i < s->init_count; i++)
        if (s->inits[i] == tex) s->inits[i] = s->inits[--s->init_count];
    /* A swapchain image (vk_swapchain.c marks it) belongs to its swapchain. */
    if (vt->image && vt->alloc.reserved != EG_VK_SWAPCHAIN_IMAGE)
        eg_vk.vkDestroyImage(dev->device, vt->image, eg_vk_host_allocator());
    vt->image = VK_NULL_HANDLE;
    eg_vk_memory_free(dev, &vt->alloc);
}

static VkImageViewType view_type(WGPUTextureViewDimension d)
{
    switch (d) {
    case WGPUTextureViewDimension_1D: return VK_IMAGE_VIEW_TYPE_1D;
    case WGPUTextureViewDimension_2DArray: return VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    case WGPUTextureViewDimension_Cube: return VK_IMAGE_VIEW_TYPE_CUBE;
    case WGPUTextureViewDimension_CubeArray: return VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    case WGPUTextureViewDimension_3D: return VK_IMAGE_VIEW_TYPE_3D;
    default: return VK_IMAGE_VIEW_TYPE_2D;
    }
}

eg_status_t eg_vk_texture_view_create(eg_hal_device_t *dev, eg_texture_view_t *view)
{
    eg_vk_view_t *vv = EG_VK_PRIV(eg_vk_view_t, view);
    vv->view = VK_NULL_HANDLE;
    eg_texture_t *tex = view->texture;
    VkImageViewCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = EG_VK_PRIV(eg_vk_texture_t, tex)->image,
        .viewType = view_type(view->dimension),
        /* The view keeps the texture's own format for aspect views of depth/stencil textures
         * (Vulkan selects the aspect through the range, not the format). */
        .format = eg_format_is_depth_stencil(tex->fi) ? EG_VK_PRIV(eg_vk_texture_t, tex)->format
                                                      : eg_vk_format(dev, view->format),
        .subresourceRange = { eg_vk_aspects(tex->fi, view->aspect), view->base_mip_level, view->mip_level_count,
                              view->base_array_layer, view->array_layer_count },
    };
    /* A sampled view of a depth+stencil texture reads one aspect only. */
    if ((ci.subresourceRange.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) &&
        (ci.subresourceRange.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) &&
        !(view->usage & WGPUTextureUsage_RenderAttachment))
        ci.subresourceRange.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
    VkResult r = eg_vk.vkCreateImageView(dev->device, &ci, eg_vk_host_allocator(), &vv->view);
    return eg_vk_status(r);
}

void eg_vk_texture_view_destroy(eg_hal_device_t *dev, eg_texture_view_t *view)
{
    eg_vk_view_t *vv = EG_VK_PRIV(eg_vk_view_t, view);
    if (!vv->view) return;
    eg_vk_framebuffer_forget_view(dev, vv->view);
    eg_vk.vkDestroyImageView(dev->device, vv->view, eg_vk_host_allocator());
    vv->view = VK_NULL_HANDLE;
}

/* ---- samplers ---- */

static VkSamplerAddressMode address_mode(WGPUAddressMode m)
{
    return m == WGPUAddressMode_Repeat ? VK_SAMPLER_ADDRESS_MODE_REPEAT
         : m == WGPUAddressMode_MirrorRepeat ? VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT
                                             : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
}

eg_status_t eg_vk_sampler_create(eg_hal_device_t *dev, eg_sampler_t *smp)
{
    const WGPUSamplerDescriptor *d = &smp->desc;
    eg_vk_handle_t *h = EG_VK_PRIV(eg_vk_handle_t, smp);
    VkSamplerCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = d->magFilter == WGPUFilterMode_Linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
        .minFilter = d->minFilter == WGPUFilterMode_Linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
        .mipmapMode = d->mipmapFilter == WGPUMipmapFilterMode_Linear ? VK_SAMPLER_MIPMAP_MODE_LINEAR
                                                                     : VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = address_mode(d->addressModeU), .addressModeV = address_mode(d->addressModeV),
        .addressModeW = address_mode(d->addressModeW),
        .minLod = d->lodMinClamp, .maxLod = d->lodMaxClamp,
        .borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
    };
    if (d->maxAnisotropy > 1 && dev->features.samplerAnisotropy) {
        ci.anisotropyEnable = VK_TRUE;
        ci.maxAnisotropy = (float)eg_min_u32(d->maxAnisotropy, (uint32_t)dev->props.limits.maxSamplerAnisotropy);
    }
    if (d->compare != WGPUCompareFunction_Undefined) {
        ci.compareEnable = VK_TRUE;
        ci.compareOp = eg_vk_compare_op(d->compare);
    }
    VkSampler s = VK_NULL_HANDLE;
    VkResult r = eg_vk.vkCreateSampler(dev->device, &ci, eg_vk_host_allocator(), &s);
    h->h = (uint64_t)(uintptr_t)s;
    return eg_vk_status(r);
}

void eg_vk_sampler_destroy(eg_hal_device_t *dev, eg_sampler_t *smp)
{
    eg_vk_handle_t *h = EG_VK_PRIV(eg_vk_handle_t, smp);
    if (h->h) eg_vk.vkDestroySampler(dev->device, (VkSampler)(uintptr_t)h->h, eg_vk_host_allocator());
    h->h = 0;
}

#endif /* EMGPU_HAL_VULKAN */
