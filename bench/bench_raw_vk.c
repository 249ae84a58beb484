/* Benchmark scene 6 against raw Vulkan (lavapipe), the lower bound for hal/vulkan's per-draw cost.
 *
 * The same loop as bench_draws.c written directly with Vulkan 1.1 calls: one render pass of 10k
 * draws of a tiny triangle into a 64x64 RGBA8 image, (a) draw only, (b) vkCmdBindVertexBuffers +
 * draw, (c) vkCmdBindDescriptorSets with a dynamic uniform offset + draw. Phases: encode
 * (begin command buffer .. end render pass), finish (vkEndCommandBuffer), submit (vkQueueSubmit);
 * the fence wait is not counted. libvulkan.so.1 is opened at run time (no link dependency).
 */
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "bench/bench_host.h"
#include "tests/shaders/spv_embed.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define VKF(X) X(vkCreateInstance) X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) \
    X(vkGetPhysicalDeviceProperties) X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice) X(vkGetDeviceProcAddr)
#define VKD(X) X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkCreateImage) X(vkDestroyImage) \
    X(vkGetImageMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory) X(vkBindImageMemory) \
    X(vkCreateImageView) X(vkDestroyImageView) X(vkCreateRenderPass) X(vkDestroyRenderPass) \
    X(vkCreateFramebuffer) X(vkDestroyFramebuffer) X(vkCreateShaderModule) X(vkDestroyShaderModule) \
    X(vkCreateDescriptorSetLayout) X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout) \
    X(vkDestroyPipelineLayout) X(vkCreateGraphicsPipelines) X(vkDestroyPipeline) X(vkCreateBuffer) \
    X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkBindBufferMemory) X(vkMapMemory) \
    X(vkCreateDescriptorPool) X(vkDestroyDescriptorPool) X(vkAllocateDescriptorSets) \
    X(vkUpdateDescriptorSets) X(vkCreateCommandPool) X(vkDestroyCommandPool) \
    X(vkAllocateCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkCmdBeginRenderPass) \
    X(vkCmdEndRenderPass) X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets) X(vkCmdBindVertexBuffers) \
    X(vkCmdDraw) X(vkQueueSubmit) X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences) \
    X(vkResetFences) X(vkResetCommandBuffer) X(vkDeviceWaitIdle)

#define DECL(f) static PFN_##f f;
VKF(DECL)
VKD(DECL)
#undef DECL

typedef struct raw_vk {
    VkInstance inst;
    VkPhysicalDevice phys;
    VkDevice dev;
    VkQueue queue;
    VkImage image;
    VkImageView view;
    VkDeviceMemory mem[3];
    VkRenderPass rp;
    VkFramebuffer fb;
    VkDescriptorSetLayout dsl;
    VkPipelineLayout pl;
    VkPipeline pipe;
    VkBuffer vbuf, ubuf;
    VkDescriptorPool dpool;
    VkDescriptorSet set;
    VkCommandPool cpool;
    VkCommandBuffer cb;
    VkFence fence;
} raw_vk_t;

static uint32_t mem_type(raw_vk_t *v, uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(v->phys, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
        if ((bits >> i & 1u) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
    return 0;
}

static int alloc_bind(raw_vk_t *v, VkMemoryRequirements req, VkMemoryPropertyFlags want, VkDeviceMemory *mem)
{
    VkMemoryAllocateInfo ai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.size, mem_type(v, req.memoryTypeBits, want) };
    return vkAllocateMemory(v->dev, &ai, NULL, mem) == VK_SUCCESS;
}

static VkBuffer host_buffer(raw_vk_t *v, VkBufferUsageFlags usage, const void *data, VkDeviceSize size, VkDeviceMemory *mem)
{
    VkBufferCreateInfo bi = { VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, size, usage, VK_SHARING_MODE_EXCLUSIVE, 0, NULL };
    VkBuffer b;
    if (vkCreateBuffer(v->dev, &bi, NULL, &b) != VK_SUCCESS) return VK_NULL_HANDLE;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(v->dev, b, &req);
    void *p;
    if (!alloc_bind(v, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, mem) ||
        vkBindBufferMemory(v->dev, b, *mem, 0) != VK_SUCCESS || vkMapMemory(v->dev, *mem, 0, size, 0, &p) != VK_SUCCESS)
        return b;
    memcpy(p, data, (size_t)size);
    return b;
}

static VkShaderModule vk_module(raw_vk_t *v, const char *name)
{
    const eg_test_spv_t *spv = eg_test_spv(name);
    VkShaderModule m = VK_NULL_HANDLE;
    if (!spv) return m;
    VkShaderModuleCreateInfo ci = { VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0, spv->word_count * 4u, spv->words };
    vkCreateShaderModule(v->dev, &ci, NULL, &m);
    return m;
}

static int open_device(raw_vk_t *v, void *lib)
{
    PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
    if (!gipa) return 0;
    vkCreateInstance = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
    VkApplicationInfo app = { VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "emgpu-bench", 1, NULL, 0, VK_API_VERSION_1_1 };
    VkInstanceCreateInfo ici = { VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0, NULL };
    if (!vkCreateInstance || vkCreateInstance(&ici, NULL, &v->inst) != VK_SUCCESS) return 0;
#define LOADI(f) f = (PFN_##f)gipa(v->inst, #f);
    VKF(LOADI)
#undef LOADI
    VkPhysicalDevice phys[8];
    uint32_t n = 8;
    if (vkEnumeratePhysicalDevices(v->inst, &n, phys) < 0 || n == 0) return 0;
    v->phys = phys[0];
    for (uint32_t i = 0; i < n; i++) { /* prefer the CPU device (lavapipe), as emgpu's CI does */
        VkPhysicalDeviceProperties pr;
        vkGetPhysicalDeviceProperties(phys[i], &pr);
        if (pr.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) v->phys = phys[i];
    }
    VkQueueFamilyProperties qf[8];
    uint32_t nq = 8, fam = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(v->phys, &nq, qf);
    while (fam < nq && !(qf[fam].queueFlags & VK_QUEUE_GRAPHICS_BIT)) fam++;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, fam, 1, &prio };
    VkDeviceCreateInfo dci = { VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, NULL, 0, 1, &qci, 0, NULL, 0, NULL, NULL };
    if (fam == nq || vkCreateDevice(v->phys, &dci, NULL, &v->dev) != VK_SUCCESS) return 0;
#define LOADD(f) f = (PFN_##f)vkGetDeviceProcAddr(v->dev, #f);
    VKD(LOADD)
#undef LOADD
    vkGetDeviceQueue(v->dev, fam, 0, &v->queue);
    VkCommandPoolCreateInfo cpi = { VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                    VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, fam };
    return vkCreateCommandPool(v->dev, &cpi, NULL, &v->cpool) == VK_SUCCESS;
}

static int target(raw_vk_t *v)
{
    VkImageCreateInfo ii = { VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, NULL, 0, VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
                             { 64, 64, 1 }, 1, 1, VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_TILING_OPTIMAL,
                             VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_SHARING_MODE_EXCLUSIVE, 0, NULL, VK_IMAGE_LAYOUT_UNDEFINED };
    if (vkCreateImage(v->dev, &ii, NULL, &v->image) != VK_SUCCESS) return 0;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(v->dev, v->image, &req);
    if (!alloc_bind(v, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &v->mem[0]) ||
        vkBindImageMemory(v->dev, v->image, v->mem[0], 0) != VK_SUCCESS)
        return 0;
    VkImageViewCreateInfo vi = { VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, NULL, 0, v->image, VK_IMAGE_VIEW_TYPE_2D,
                                 VK_FORMAT_R8G8B8A8_UNORM, { 0, 0, 0, 0 }, { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
    if (vkCreateImageView(v->dev, &vi, NULL, &v->view) != VK_SUCCESS) return 0;
    VkAttachmentDescription ad = { 0, VK_FORMAT_R8G8B8A8_UNORM, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                   VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                   VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
    VkAttachmentReference ar = { 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
    VkSubpassDescription sp = { 0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, NULL, 1, &ar, NULL, NULL, 0, NULL };
    VkRenderPassCreateInfo rpi = { VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, NULL, 0, 1, &ad, 1, &sp, 0, NULL };
    if (vkCreateRenderPass(v->dev, &rpi, NULL, &v->rp) != VK_SUCCESS) return 0;
    VkFramebufferCreateInfo fi = { VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, v->rp, 1, &v->view, 64, 64, 1 };
    return vkCreateFramebuffer(v->dev, &fi, NULL, &v->fb) == VK_SUCCESS;
}

static int pipeline(raw_vk_t *v)
{
    VkDescriptorSetLayoutBinding b = { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo li = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, NULL, 0, 1, &b };
    if (vkCreateDescriptorSetLayout(v->dev, &li, NULL, &v->dsl) != VK_SUCCESS) return 0;
    VkPipelineLayoutCreateInfo pli = { VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1, &v->dsl, 0, NULL };
    if (vkCreatePipelineLayout(v->dev, &pli, NULL, &v->pl) != VK_SUCCESS) return 0;
    VkShaderModule vs = vk_module(v, "bench_draw.vert"), fs = vk_module(v, "bench_draw.frag");
    if (!vs || !fs) return 0;
    VkPipelineShaderStageCreateInfo st[2] = {
        { VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", NULL },
        { VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", NULL },
    };
    VkVertexInputBindingDescription vb = { 0, 8, VK_VERTEX_INPUT_RATE_VERTEX };
    VkVertexInputAttributeDescription va = { 0, 0, VK_FORMAT_R32G32_SFLOAT, 0 };
    VkPipelineVertexInputStateCreateInfo vis = { VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, NULL, 0, 1, &vb, 1, &va };
    VkPipelineInputAssemblyStateCreateInfo ia = { VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, NULL, 0,
                                                  VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_FALSE };
    VkViewport vp = { 0, 0, 64, 64, 0, 1 };
    VkRect2D sc = { { 0, 0 }, { 64, 64 } };
    VkPipelineViewportStateCreateInfo vps = { VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, NULL, 0, 1, &vp, 1, &sc };
    VkPipelineRasterizationStateCreateInfo rs = { VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, NULL, 0, VK_FALSE,
                                                  VK_FALSE, VK_POLYGON_MODE_FILL, VK_CULL_MODE_NONE, VK_FRONT_FACE_COUNTER_CLOCKWISE,
                                                  VK_FALSE, 0, 0, 0, 1.0f };
    VkPipelineMultisampleStateCreateInfo ms = { VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO, NULL, 0,
                                                VK_SAMPLE_COUNT_1_BIT, VK_FALSE, 0, NULL, VK_FALSE, VK_FALSE };
    VkPipelineColorBlendAttachmentState cba = { VK_FALSE, 0, 0, 0, 0, 0, 0, 0xF };
    VkPipelineColorBlendStateCreateInfo cb = { VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, NULL, 0, VK_FALSE,
                                               VK_LOGIC_OP_COPY, 1, &cba, { 0, 0, 0, 0 } };
    VkGraphicsPipelineCreateInfo gi = { VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, NULL, 0, 2, st, &vis, &ia, NULL, &vps,
                                        &rs, &ms, NULL, &cb, NULL, v->pl, v->rp, 0, VK_NULL_HANDLE, -1 };
    VkResult r = vkCreateGraphicsPipelines(v->dev, VK_NULL_HANDLE, 1, &gi, NULL, &v->pipe);
    vkDestroyShaderModule(v->dev, vs, NULL);
    vkDestroyShaderModule(v->dev, fs, NULL);
    return r == VK_SUCCESS;
}

static int resources(raw_vk_t *v)
{
    static const float tri[12] = { -0.1f, -0.1f, 0.1f, -0.1f, 0.0f, 0.1f, -0.1f, -0.1f, 0.1f, -0.1f, 0.0f, 0.1f };
    static float offs[64 * 64];
    for (uint32_t i = 0; i < 64; i++) {
        offs[i * 64] = -0.8f + 1.6f * (float)(i % 8u) / 7.0f;
        offs[i * 64 + 1] = -0.8f + 1.6f * (float)(i / 8u) / 7.0f;
    }
    v->vbuf = host_buffer(v, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, tri, sizeof tri, &v->mem[1]);
    v->ubuf = host_buffer(v, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, offs, sizeof offs, &v->mem[2]);
    if (!v->vbuf || !v->ubuf) return 0;
    VkDescriptorPoolSize ps = { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1 };
    VkDescriptorPoolCreateInfo dpi = { VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1, &ps };
    if (vkCreateDescriptorPool(v->dev, &dpi, NULL, &v->dpool) != VK_SUCCESS) return 0;
    VkDescriptorSetAllocateInfo dai = { VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL, v->dpool, 1, &v->dsl };
    if (vkAllocateDescriptorSets(v->dev, &dai, &v->set) != VK_SUCCESS) return 0;
    VkDescriptorBufferInfo bi = { v->ubuf, 0, 16 };
    VkWriteDescriptorSet w = { VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, v->set, 0, 0, 1,
                               VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, NULL, &bi, NULL };
    vkUpdateDescriptorSets(v->dev, 1, &w, 0, NULL);
    VkCommandBufferAllocateInfo cai = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL, v->cpool,
                                        VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1 };
    VkFenceCreateInfo fci = { VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0 };
    return vkAllocateCommandBuffers(v->dev, &cai, &v->cb) == VK_SUCCESS &&
           vkCreateFence(v->dev, &fci, NULL, &v->fence) == VK_SUCCESS;
}

static void one_pass(raw_vk_t *v, int mode, double t[PH_COUNT])
{
    double t0 = bench_now_ms();
    VkCommandBufferBeginInfo bi = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                    VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL };
    vkResetCommandBuffer(v->cb, 0);
    vkBeginCommandBuffer(v->cb, &bi);
    VkClearValue clear = { { { 0, 0, 0, 1 } } };
    VkRenderPassBeginInfo rbi = { VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, NULL, v->rp, v->fb, { { 0, 0 }, { 64, 64 } }, 1, &clear };
    vkCmdBeginRenderPass(v->cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(v->cb, VK_PIPELINE_BIND_POINT_GRAPHICS, v->pipe);
    uint32_t zero = 0;
    vkCmdBindDescriptorSets(v->cb, VK_PIPELINE_BIND_POINT_GRAPHICS, v->pl, 0, 1, &v->set, 1, &zero);
    VkDeviceSize off0 = 0;
    vkCmdBindVertexBuffers(v->cb, 0, 1, &v->vbuf, &off0);
    for (uint32_t i = 0; i < BENCH_DRAWS; i++) {
        if (mode == DRAWS_B) {
            VkDeviceSize off = (i & 1u) * 24u;
            vkCmdBindVertexBuffers(v->cb, 0, 1, &v->vbuf, &off);
        }
        if (mode == DRAWS_C) {
            uint32_t off = (i % 64u) * 256u;
            vkCmdBindDescriptorSets(v->cb, VK_PIPELINE_BIND_POINT_GRAPHICS, v->pl, 0, 1, &v->set, 1, &off);
        }
        vkCmdDraw(v->cb, 3, 1, 0, 0);
    }
    vkCmdEndRenderPass(v->cb);
    double t1 = bench_now_ms();
    vkEndCommandBuffer(v->cb);
    double t2 = bench_now_ms();
    VkSubmitInfo si = { VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &v->cb, 0, NULL };
    vkQueueSubmit(v->queue, 1, &si, v->fence);
    double t3 = bench_now_ms();
    vkWaitForFences(v->dev, 1, &v->fence, VK_TRUE, UINT64_MAX);
    vkResetFences(v->dev, 1, &v->fence);
    t[PH_WAIT] = bench_now_ms() - t3;
    t[PH_ENCODE] = t1 - t0;
    t[PH_FINISH] = t2 - t1;
    t[PH_SUBMIT] = t3 - t2;
}

static void close_device(raw_vk_t *v)
{
    if (v->dev) {
        vkDeviceWaitIdle(v->dev);
        if (v->fence) vkDestroyFence(v->dev, v->fence, NULL);
        if (v->cpool) vkDestroyCommandPool(v->dev, v->cpool, NULL);
        if (v->dpool) vkDestroyDescriptorPool(v->dev, v->dpool, NULL);
        if (v->vbuf) vkDestroyBuffer(v->dev, v->vbuf, NULL);
        if (v->ubuf) vkDestroyBuffer(v->dev, v->ubuf, NULL);
        if (v->pipe) vkDestroyPipeline(v->dev, v->pipe, NULL);
        if (v->pl) vkDestroyPipelineLayout(v->dev, v->pl, NULL);
        if (v->dsl) vkDestroyDescriptorSetLayout(v->dev, v->dsl, NULL);
        if (v->fb) vkDestroyFramebuffer(v->dev, v->fb, NULL);
        if (v->rp) vkDestroyRenderPass(v->dev, v->rp, NULL);
        if (v->view) vkDestroyImageView(v->dev, v->view, NULL);
        if (v->image) vkDestroyImage(v->dev, v->image, NULL);
        for (int i = 0; i < 3; i++)
            if (v->mem[i]) vkFreeMemory(v->dev, v->mem[i], NULL);
        vkDestroyDevice(v->dev, NULL);
    }
    if (v->inst) vkDestroyInstance(v->inst, NULL);
}

void bench_draws_raw_vk(unsigned reps, bench_draws_result_t *out)
{
    memset(out, 0, sizeof *out);
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("bench: raw vulkan skipped: libvulkan.so.1 not found\n");
        return;
    }
    static raw_vk_t v;
    memset(&v, 0, sizeof v);
    if (!open_device(&v, lib) || !target(&v) || !pipeline(&v) || !resources(&v)) {
        printf("bench: raw vulkan skipped: setup failed (no Vulkan device?)\n");
        close_device(&v);
        return;
    }
    static double t[DRAWS_MODES][PH_COUNT][BENCH_MAX_REPS];
    double one[PH_COUNT];
    for (int m = 0; m < DRAWS_MODES; m++) one_pass(&v, m, one);
    for (unsigned k = 0; k < reps; k++)
        for (int m = 0; m < DRAWS_MODES; m++) {
            one_pass(&v, m, one);
            for (int p = 0; p < PH_COUNT; p++) t[m][p][k] = one[p] * 1e6 / BENCH_DRAWS;
        }
    for (int m = 0; m < DRAWS_MODES; m++)
        for (int p = 0; p < PH_COUNT; p++) out->ns[m][p] = bench_stat(t[m][p], reps);
    out->ok = 1;
    close_device(&v);
}
