/* hal/vulkan pipelines: shader modules, pipeline layouts, render/compute pipelines, pass caches.
 *
 * Render passes (Vulkan 1.0 path) come from a fixed cache keyed by attachment formats, sample
 * count and load/store ops (EMGPU_VK_RENDER_PASS_CACHE); a pipeline is built against a pass of
 * the same formats, which is compatible with every pass that differs only in ops and resolves
 * (single-subpass compatibility rule). Attachment layouts equal the tracker's state for the pass
 * (COLOR_TARGET, DEPTH_STENCIL_*), and initial == final: the tracker's barriers do every layout
 * change outside the pass. Framebuffers come from a second cache keyed by pass, views and size,
 * evicting entries whose last use has completed. TODO: VK_KHR_dynamic_rendering when present.
 *
 * Clip space: WebGPU's NDC has y up, Vulkan's y down, so exec sets a y-flipped viewport
 * (negative height, core in Vulkan 1.1); front faces then keep their WebGPU meaning.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_VULKAN

#include "hal/vulkan/vk_internal.h"

#define PRIV_PIPE(o) EG_VK_PRIV(eg_vk_pipeline_t, o)
#define H(o) EG_VK_PRIV(eg_vk_handle_t, o)->h

/* ---- shader modules and layouts ---- */

eg_status_t eg_vk_shader_module_create(eg_hal_device_t *dev, eg_shader_module_t *sm)
{
    uint32_t n = 0;
    eg_status_t st = EG_STATUS_OK;
    const uint32_t *code = eg_vk_spirv_polyfill(sm->code, sm->word_count, &n, &st);
    H(sm) = 0;
    if (!code) return st;
    VkShaderModuleCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = (size_t)n * 4u, .pCode = code };
    VkShaderModule m = VK_NULL_HANDLE;
    VkResult r = eg_vk.vkCreateShaderModule(dev->device, &ci, eg_vk_host_allocator(), &m);
    H(sm) = (uint64_t)(uintptr_t)m;
    return eg_vk_status(r);
}

void eg_vk_shader_module_destroy(eg_hal_device_t *dev, eg_shader_module_t *sm)
{
    if (H(sm)) eg_vk.vkDestroyShaderModule(dev->device, (VkShaderModule)(uintptr_t)H(sm), eg_vk_host_allocator());
    H(sm) = 0;
}

eg_status_t eg_vk_pipeline_layout_create(eg_hal_device_t *dev, eg_pipeline_layout_t *pl)
{
    VkDescriptorSetLayout sets[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    for (uint32_t i = 0; i < pl->group_count; i++)
        sets[i] = pl->groups[i] ? (VkDescriptorSetLayout)(uintptr_t)H(pl->groups[i]) : dev->empty_set_layout;
    VkPipelineLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = pl->group_count, .pSetLayouts = sets };
    VkPipelineLayout l = VK_NULL_HANDLE;
    VkResult r = eg_vk.vkCreatePipelineLayout(dev->device, &ci, eg_vk_host_allocator(), &l);
    H(pl) = (uint64_t)(uintptr_t)l;
    return eg_vk_status(r);
}

void eg_vk_pipeline_layout_destroy(eg_hal_device_t *dev, eg_pipeline_layout_t *pl)
{
    if (H(pl)) eg_vk.vkDestroyPipelineLayout(dev->device, (VkPipelineLayout)(uintptr_t)H(pl), eg_vk_host_allocator());
    H(pl) = 0;
}

const char *eg_vk_entry_name(const eg_stage_t *st, eg_shader_stage_t stage)
{
    if (st->entry_point[0]) return st->entry_point;
    const eg_shader_entry_t *e = eg_spirv_find_entry(&st->module->spirv, stage, "");
    return e ? e->name : "main";
}

/* ---- render pass and framebuffer caches ---- */

static VkAttachmentStoreOp ds_store_op(uint8_t op)
{
    return op == EG_VK_STORE_OP_NONE_U8 ? VK_ATTACHMENT_STORE_OP_NONE : (VkAttachmentStoreOp)op;
}

static VkRenderPass create_render_pass(eg_hal_device_t *dev, const eg_vk_rp_desc_t *d)
{
    VkAttachmentDescription att[EG_VK_MAX_ATTACHMENTS];
    VkAttachmentReference color[8], resolve[8], depth;
    uint32_t n = 0;
    bool any_resolve = false;
    for (uint32_t i = 0; i < d->color_count; i++) {
        color[i] = (VkAttachmentReference){ VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
        resolve[i] = color[i];
        if (d->color[i] == VK_FORMAT_UNDEFINED) continue;
        att[n] = (VkAttachmentDescription){ 0, d->color[i], (VkSampleCountFlagBits)d->samples,
            (VkAttachmentLoadOp)d->color_load[i], (VkAttachmentStoreOp)d->color_store[i],
            VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
        color[i].attachment = n++;
        if (d->has_resolve[i]) {
            att[n] = (VkAttachmentDescription){ 0, d->color[i], VK_SAMPLE_COUNT_1_BIT,
                VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE,
                VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
            resolve[i].attachment = n++;
            any_resolve = true;
        }
    }
    VkSubpassDescription sp = { .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                .colorAttachmentCount = d->color_count, .pColorAttachments = color,
                                .pResolveAttachments = any_resolve ? resolve : NULL };
    if (d->depth != VK_FORMAT_UNDEFINED) {
        VkImageLayout l = d->depth_read_only ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL
                                             : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        att[n] = (VkAttachmentDescription){ 0, d->depth, (VkSampleCountFlagBits)d->samples,
            (VkAttachmentLoadOp)d->depth_load, ds_store_op(d->depth_store),
            (VkAttachmentLoadOp)d->stencil_load, ds_store_op(d->stencil_store), l, l };
        depth = (VkAttachmentReference){ n++, l };
        sp.pDepthStencilAttachment = &depth;
    }
    VkRenderPassCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, .attachmentCount = n,
                                  .pAttachments = att, .subpassCount = 1, .pSubpasses = &sp };
    VkRenderPass rp = VK_NULL_HANDLE;
    if (eg_vk.vkCreateRenderPass(dev->device, &ci, eg_vk_host_allocator(), &rp) != VK_SUCCESS) return VK_NULL_HANDLE;
    return rp;
}

VkRenderPass eg_vk_render_pass_get(eg_hal_device_t *dev, const eg_vk_rp_desc_t *d)
{
    for (uint32_t i = 0; i < EMGPU_VK_RENDER_PASS_CACHE; i++) {
        eg_vk_rp_entry_t *e = &dev->rp_cache[i];
        if (!e->rp) {
            e->rp = create_render_pass(dev, d);
            e->desc = *d;
            return e->rp;
        }
        if (eg_memcmp(&e->desc, d, sizeof *d) == 0) return e->rp;
    }
    /* Render passes are referenced by pipelines, so entries are never evicted. */
    eg_vk_knob_exhausted("render pass cache", "EMGPU_VK_RENDER_PASS_CACHE", EMGPU_VK_RENDER_PASS_CACHE);
    return VK_NULL_HANDLE;
}

static void fb_drop(eg_hal_device_t *dev, eg_vk_fb_entry_t *e)
{
    if (e->fb) eg_vk.vkDestroyFramebuffer(dev->device, e->fb, eg_vk_host_allocator());
    eg_memset(e, 0, sizeof *e);
}

static eg_vk_fb_entry_t *fb_victim(eg_hal_device_t *dev)
{
    eg_vk_poll(dev);
    eg_vk_fb_entry_t *best = NULL;
    for (uint32_t i = 0; i < EMGPU_VK_FRAMEBUFFER_CACHE; i++) {
        eg_vk_fb_entry_t *e = &dev->fb_cache[i];
        if (!e->fb) return e;
        if (e->last_serial <= dev->completed_serial && (!best || e->last_serial < best->last_serial)) best = e;
    }
    return best;
}

VkFramebuffer eg_vk_framebuffer_get(eg_hal_device_t *dev, VkRenderPass rp, const VkImageView *views,
                                    uint32_t count, uint32_t w, uint32_t h)
{
    uint64_t serial = eg_vk_current_serial(dev);
    for (uint32_t i = 0; i < EMGPU_VK_FRAMEBUFFER_CACHE; i++) {
        eg_vk_fb_entry_t *e = &dev->fb_cache[i];
        if (e->fb && e->rp == rp && e->view_count == count && e->width == w && e->height == h &&
            eg_memcmp(e->views, views, count * sizeof *views) == 0) {
            e->last_serial = serial;
            return e->fb;
        }
    }
    eg_vk_fb_entry_t *e = fb_victim(dev);
    if (!e) {
        /* Everything is in flight: drain the queue (the main buffer being recorded is not
         * submitted yet, so only older submissions are waited for). */
        eg_vk.vkQueueWaitIdle(dev->queue);
        e = fb_victim(dev);
    }
    if (!e) {
        eg_vk_knob_exhausted("framebuffer cache (all used by one submit)", "EMGPU_VK_FRAMEBUFFER_CACHE",
                             EMGPU_VK_FRAMEBUFFER_CACHE);
        return VK_NULL_HANDLE;
    }
    fb_drop(dev, e);
    VkFramebufferCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, .renderPass = rp,
                                   .attachmentCount = count, .pAttachments = views, .width = w, .height = h,
                                   .layers = 1 };
    if (eg_vk.vkCreateFramebuffer(dev->device, &ci, eg_vk_host_allocator(), &e->fb) != VK_SUCCESS) {
        e->fb = VK_NULL_HANDLE;
        return VK_NULL_HANDLE;
    }
    e->rp = rp;
    e->view_count = count;
    e->width = w;
    e->height = h;
    e->last_serial = serial;
    eg_memcpy(e->views, views, count * sizeof *views);
    return e->fb;
}

void eg_vk_framebuffer_forget_view(eg_hal_device_t *dev, VkImageView view)
{
    for (uint32_t i = 0; i < EMGPU_VK_FRAMEBUFFER_CACHE; i++) {
        eg_vk_fb_entry_t *e = &dev->fb_cache[i];
        for (uint32_t k = 0; e->fb && k < e->view_count; k++)
            if (e->views[k] == view) { fb_drop(dev, e); break; }
    }
}

void eg_vk_caches_fini(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_VK_FRAMEBUFFER_CACHE; i++) fb_drop(dev, &dev->fb_cache[i]);
    for (uint32_t i = 0; i < EMGPU_VK_RENDER_PASS_CACHE; i++) {
        if (dev->rp_cache[i].rp) eg_vk.vkDestroyRenderPass(dev->device, dev->rp_cache[i].rp, eg_vk_host_allocator());
        eg_memset(&dev->rp_cache[i], 0, sizeof dev->rp_cache[i]);
    }
}

#endif /* EMGPU_HAL_VULKAN */
