/* hal/vulkan surfaces without a native swapchain (memory panels, fbdev, DRM): present by copy, i.e. image -> readback buffer -> panel pixels.
 *
 * The HAL's surface_present: the frame texture is copied into a host-visible buffer made for the
 * Present (EG_VK_MEM_READBACK, freed at the end), between two barriers that leave the image in the
 * state the tracker holds for it (the tracker's state of the texture -> COPY_SRC -> back), so the
 * tracker's view stays true without a tracker submit. The queue is drained, then the rows are
 * decoded (RGBA8, BGRA8, RGB565 as VK_FORMAT_R5G6B5_UNORM_PACK16: R in bits 15..11) and encoded
 * into the panel format, rounding to nearest at 5/6 bits as hal/soft does. X11 windows on Vulkan
 * use the swapchain instead (vk_swapchain.c); this path is the fallback the issue asks for.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_swapchain.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/surface.h"

#define CHUNK_PX 32u

static inline uint32_t q5(uint32_t x) { return (x * 31u + 127u) / 255u; }
static inline uint32_t q6(uint32_t x) { return (x * 63u + 127u) / 255u; }

/* n texels of tex's format to RGBA8; false for a format Present cannot read. */
static bool decode(WGPUTextureFormat f, const uint8_t *src, uint8_t *rgba, uint32_t n)
{
    bool bgra = f == WGPUTextureFormat_BGRA8Unorm || f == WGPUTextureFormat_BGRA8UnormSrgb;
    bool rgba8 = f == WGPUTextureFormat_RGBA8Unorm || f == WGPUTextureFormat_RGBA8UnormSrgb;
    if (!bgra && !rgba8 && f != WGPUTextureFormat_EmgpuRGB565Unorm) return false;
    for (uint32_t i = 0; i < n; i++, rgba += 4) {
        if (f == WGPUTextureFormat_EmgpuRGB565Unorm) {
            uint32_t v = (uint32_t)src[2 * i] | (uint32_t)src[2 * i + 1] << 8;
            rgba[0] = (uint8_t)(((v >> 11) * 255u + 15u) / 31u);
            rgba[1] = (uint8_t)((((v >> 5) & 63u) * 255u + 31u) / 63u);
            rgba[2] = (uint8_t)(((v & 31u) * 255u + 15u) / 31u);
            rgba[3] = 255;
            continue;
        }
        const uint8_t *s = src + 4 * i;
        rgba[0] = bgra ? s[2] : s[0];
        rgba[1] = s[1];
        rgba[2] = bgra ? s[0] : s[2];
        rgba[3] = s[3];
    }
    return true;
}

static void encode(WGPUEmgpuPanelFormat f, const uint8_t *rgba, uint8_t *dst, uint32_t n, bool opaque)
{
    for (uint32_t i = 0; i < n; i++, rgba += 4) {
        uint32_t r = rgba[0], g = rgba[1], b = rgba[2], a = opaque ? 255u : rgba[3];
        uint32_t v = f == WGPUEmgpuPanelFormat_BGR565 ? q5(b) << 11 | q6(g) << 5 | q5(r)
                                                       : q5(r) << 11 | q6(g) << 5 | q5(b);
        switch (f) {
        case WGPUEmgpuPanelFormat_RGB565: case WGPUEmgpuPanelFormat_BGR565:
            dst[0] = (uint8_t)v; dst[1] = (uint8_t)(v >> 8); dst += 2; break;
        case WGPUEmgpuPanelFormat_RGB565BE:
            dst[0] = (uint8_t)(v >> 8); dst[1] = (uint8_t)v; dst += 2; break;
        case WGPUEmgpuPanelFormat_XRGB8888: case WGPUEmgpuPanelFormat_ARGB8888:
            dst[0] = (uint8_t)b; dst[1] = (uint8_t)g; dst[2] = (uint8_t)r;
            dst[3] = f == WGPUEmgpuPanelFormat_XRGB8888 ? 255u : (uint8_t)a;
            dst += 4;
            break;
        default:   /* XBGR8888, ABGR8888 */
            dst[0] = (uint8_t)r; dst[1] = (uint8_t)g; dst[2] = (uint8_t)b;
            dst[3] = f == WGPUEmgpuPanelFormat_XBGR8888 ? 255u : (uint8_t)a;
            dst += 4;
            break;
        }
    }
}

/* Records image -> buffer with the barriers around it, submits and waits. */
static eg_status_t read_back(eg_hal_device_t *dev, eg_texture_t *tex, VkBuffer buf, uint32_t w, uint32_t h)
{
    struct WGPUDeviceImpl *kd = tex->obj.device;
    uint32_t index = eg_pool_index(&kd->instance->pools[EG_KIND_TEXTURE], tex);
    uint16_t state = eg_track_device_texture_state(kd->track, index, 0, 0);
    if (state == EG_TRACK_TEX_NONE) state = EG_TRACK_TEX_UNINITIALIZED;
    VkCommandBuffer cb = eg_vk_upload_cmd(dev);
    if (!cb) return dev->lost ? EG_STATUS_DEVICE_LOST : EG_STATUS_OUT_OF_MEMORY;
    eg_vk_texture_barrier(dev, cb, tex, state, EG_TRACK_TEX_COPY_SRC, 0, 1, 0, 1);
    VkBufferImageCopy region = { .bufferOffset = 0, .bufferRowLength = 0, .bufferImageHeight = 0,
                                 .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                                 .imageOffset = { 0, 0, 0 }, .imageExtent = { w, h, 1 } };
    eg_vk.vkCmdCopyImageToBuffer(cb, EG_VK_PRIV(eg_vk_texture_t, tex)->image,
                                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buf, 1, &region);
    VkBufferMemoryBarrier bb = { .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                 .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                                 .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                 .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = buf, .size = VK_WHOLE_SIZE };
    eg_vk.vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &bb,
                               0, NULL);
    eg_vk_texture_barrier(dev, cb, tex, EG_TRACK_TEX_COPY_SRC, state, 0, 1, 0, 1);
    return eg_vk_flush_and_wait(dev);
}

static void convert(const eg_texture_t *tex, const uint8_t *host, uint32_t w, uint32_t h, const eg_hal_present_t *p)
{
    uint32_t src_px_B = tex->fi->block_B, dst_px_B = eg_panel_format_bytes(p->format);
    uint8_t rgba[CHUNK_PX * 4];
    for (uint32_t y = 0; y < h; y++) {
        uint32_t in_strip = p->mem ? 0 : y % p->strip_rows;
        uint8_t *row = p->mem ? p->mem + (size_t)y * p->stride_B : p->strip + (size_t)in_strip * p->stride_B;
        const uint8_t *src = host + (size_t)y * w * src_px_B;
        for (uint32_t x = 0; x < w; x += CHUNK_PX) {
            uint32_t n = eg_min_u32(CHUNK_PX, w - x);
            (void)decode(tex->format, src + (size_t)x * src_px_B, rgba, n);
            encode(p->format, rgba, row + (size_t)x * dst_px_B, n, p->opaque);
        }
        if (!p->mem && (in_strip + 1 == p->strip_rows || y + 1 == h))
            p->flush(p->flush_user, 0, y - in_strip, w, in_strip + 1, p->strip, p->stride_B);
    }
}

eg_status_t eg_vk_surface_present(eg_hal_device_t *dev, const eg_texture_t *ctex, const eg_hal_present_t *p)
{
    eg_texture_t *tex = (eg_texture_t *)ctex;   /* barriers take a mutable texture; nothing changes */
    uint32_t w = eg_min_u32(p->width_px, tex->size.width), h = eg_min_u32(p->height_px, tex->size.height);
    uint8_t probe[4] = { 0, 0, 0, 0 };
    if (!w || !h || !decode(tex->format, probe, probe, 0) || (!p->mem && !(p->strip && p->flush && p->strip_rows)))
        return EG_STATUS_INTERNAL;
    VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                              .size = (VkDeviceSize)w * h * tex->fi->block_B,
                              .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT, .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
    VkBuffer buf = VK_NULL_HANDLE;
    eg_vk_alloc_t alloc = { UINT32_MAX, 0, 0 };
    VkMemoryRequirements req;
    VkDeviceMemory mem;
    uint8_t *host = NULL;
    eg_status_t st = eg_vk_status(eg_vk.vkCreateBuffer(dev->device, &bi, eg_vk_host_allocator(), &buf));
    if (st == EG_STATUS_OK) {
        eg_vk.vkGetBufferMemoryRequirements(dev->device, buf, &req);
        st = eg_vk_memory_alloc(dev, EG_VK_MEM_READBACK, &req, &alloc, &mem, &host);
    }
    if (st == EG_STATUS_OK)
        st = eg_vk_status(eg_vk.vkBindBufferMemory(dev->device, buf, mem, alloc.offset_B));
    if (st == EG_STATUS_OK && !host) st = EG_STATUS_INTERNAL;
    if (st == EG_STATUS_OK) st = read_back(dev, tex, buf, w, h);
    if (st == EG_STATUS_OK) convert(tex, host, w, h, p);
    if (buf) eg_vk.vkDestroyBuffer(dev->device, buf, eg_vk_host_allocator());
    eg_vk_memory_free(dev, &alloc);
    return st;
}

#endif /* EMGPU_HAL_VULKAN */
