/* Benchmark scene 6 through webgpu.h: 10k draws in one pass, CPU ns per draw for encode, finish
 * and submit, in three modes: (a) draw only, (b) setVertexBuffer + draw, (c) setBindGroup with a
 * dynamic offset + draw. Each draw is one tiny triangle into a 64x64 target; the wait for the
 * queue to go idle after submit is not counted (it is the backend's rendering, not the call cost).
 */
#include "bench/bench_host.h"
#include "bench/bench_scene.h"

#include "kernel/api/command_buffer.h"   /* read-only: the pass's command-stream bytes */
#include "tests/shaders/spv_embed.h"

#include <stdio.h>
#include <string.h>

#define UBO_STRIDE_B 256u   /* minUniformBufferOffsetAlignment's default */
#define UBO_SLOTS 64u

typedef struct draws {
    WGPUInstance inst;
    WGPUDevice dev;
    WGPUQueue queue;
    WGPUTexture target;
    WGPUTextureView view;
    WGPUBuffer vbuf, ubuf;
    WGPUBindGroupLayout bgl;
    WGPUPipelineLayout layout;
    WGPUBindGroup bg;
    WGPURenderPipeline pipe;
    unsigned errors;
} draws_t;

static WGPUShaderModule module(WGPUDevice dev, const char *name)
{
    const eg_test_spv_t *spv = eg_test_spv(name);
    if (!spv) return NULL;
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = spv->words;
    src.codeSize = spv->word_count;
    WGPUShaderModuleDescriptor sd = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    sd.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(dev, &sd);
}

static int setup(draws_t *d)
{
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.usage = WGPUTextureUsage_RenderAttachment;
    td.size.width = td.size.height = 64;
    td.format = WGPUTextureFormat_RGBA8Unorm;
    d->target = wgpuDeviceCreateTexture(d->dev, &td);
    if (!d->target) return 0;
    d->view = wgpuTextureCreateView(d->target, NULL);
    /* Two copies of the triangle, so consecutive setVertexBuffer calls differ. */
    static const float tri[12] = { -0.1f, -0.1f, 0.1f, -0.1f, 0.0f, 0.1f, -0.1f, -0.1f, 0.1f, -0.1f, 0.0f, 0.1f };
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst;
    bd.size = sizeof tri;
    d->vbuf = wgpuDeviceCreateBuffer(d->dev, &bd);
    bd.usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst;
    bd.size = UBO_STRIDE_B * UBO_SLOTS;
    d->ubuf = wgpuDeviceCreateBuffer(d->dev, &bd);
    if (!d->vbuf || !d->ubuf) return 0;
    wgpuQueueWriteBuffer(d->queue, d->vbuf, 0, tri, sizeof tri);
    static float offs[UBO_SLOTS * UBO_STRIDE_B / 4];
    for (uint32_t i = 0; i < UBO_SLOTS; i++) {
        offs[i * UBO_STRIDE_B / 4] = -0.8f + 1.6f * (float)(i % 8u) / 7.0f;
        offs[i * UBO_STRIDE_B / 4 + 1] = -0.8f + 1.6f * (float)(i / 8u) / 7.0f;
    }
    wgpuQueueWriteBuffer(d->queue, d->ubuf, 0, offs, sizeof offs);

    WGPUBindGroupLayoutEntry le = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    le.binding = 0;
    le.visibility = WGPUShaderStage_Vertex;
    le.buffer.type = WGPUBufferBindingType_Uniform;
    le.buffer.hasDynamicOffset = WGPU_TRUE;
    le.buffer.minBindingSize = 16;
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.entryCount = 1;
    ld.entries = &le;
    d->bgl = wgpuDeviceCreateBindGroupLayout(d->dev, &ld);
    WGPUPipelineLayoutDescriptor pl = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pl.bindGroupLayoutCount = 1;
    pl.bindGroupLayouts = &d->bgl;
    d->layout = wgpuDeviceCreatePipelineLayout(d->dev, &pl);
    WGPUBindGroupEntry be = WGPU_BIND_GROUP_ENTRY_INIT;
    be.binding = 0;
    be.buffer = d->ubuf;
    be.size = 16;
    WGPUBindGroupDescriptor bgd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bgd.layout = d->bgl;
    bgd.entryCount = 1;
    bgd.entries = &be;
    d->bg = wgpuDeviceCreateBindGroup(d->dev, &bgd);

    WGPUShaderModule vs = module(d->dev, "bench_draw.vert"), fs = module(d->dev, "bench_draw.frag");
    if (vs && fs) {
        static const WGPUVertexAttribute a = { NULL, WGPUVertexFormat_Float32x2, 0, 0 };
        const WGPUVertexBufferLayout vb = { NULL, WGPUVertexStepMode_Vertex, 8, 1, &a };
        WGPUColorTargetState ct = WGPU_COLOR_TARGET_STATE_INIT;
        ct.format = WGPUTextureFormat_RGBA8Unorm;
        WGPUFragmentState fst = WGPU_FRAGMENT_STATE_INIT;
        fst.module = fs;
        fst.targetCount = 1;
        fst.targets = &ct;
        WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
        pd.layout = d->layout;
        pd.vertex.module = vs;
        pd.vertex.bufferCount = 1;
        pd.vertex.buffers = &vb;
        pd.fragment = &fst;
        d->pipe = wgpuDeviceCreateRenderPipeline(d->dev, &pd);
    }
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    return d->bgl && d->layout && d->bg && d->pipe;
}

static void teardown(draws_t *d)
{
#define REL(fn, x) do { if (x) fn(x); } while (0)
    REL(wgpuRenderPipelineRelease, d->pipe);
    REL(wgpuBindGroupRelease, d->bg);
    REL(wgpuPipelineLayoutRelease, d->layout);
    REL(wgpuBindGroupLayoutRelease, d->bgl);
    REL(wgpuBufferRelease, d->vbuf);
    REL(wgpuBufferRelease, d->ubuf);
    REL(wgpuTextureViewRelease, d->view);
    REL(wgpuTextureRelease, d->target);
    REL(wgpuQueueRelease, d->queue);
    REL(wgpuDeviceRelease, d->dev);
    if (d->inst) wgpuInstanceProcessEvents(d->inst);
#undef REL
}

/* One pass of BENCH_DRAWS draws in `mode`; phase times in ms into t[PH_*], the command-stream
 * bytes it recorded into *stream_B. */
static void one_pass(draws_t *d, int mode, double t[PH_COUNT], uint32_t *stream_B)
{
    double t0 = bench_now_ms();
    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(d->dev, NULL);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = d->view;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 1;
    rp.colorAttachments = &ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderSetPipeline(pass, d->pipe);
    uint32_t zero = 0;
    wgpuRenderPassEncoderSetBindGroup(pass, 0, d->bg, 1, &zero);
    wgpuRenderPassEncoderSetVertexBuffer(pass, 0, d->vbuf, 0, WGPU_WHOLE_SIZE);
    for (uint32_t i = 0; i < BENCH_DRAWS; i++) {
        if (mode == DRAWS_B) wgpuRenderPassEncoderSetVertexBuffer(pass, 0, d->vbuf, (i & 1u) * 24u, 24);
        if (mode == DRAWS_C) {
            uint32_t off = (i % UBO_SLOTS) * UBO_STRIDE_B;
            wgpuRenderPassEncoderSetBindGroup(pass, 0, d->bg, 1, &off);
        }
        wgpuRenderPassEncoderDraw(pass, 3, 1, 0, 0);
    }
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
    double t1 = bench_now_ms();
    if (enc) *stream_B = enc->stream.used_B;
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuCommandEncoderRelease(enc);
    double t2 = bench_now_ms();
    wgpuQueueSubmit(d->queue, 1, &cb);
    double t3 = bench_now_ms();
    wgpuCommandBufferRelease(cb);
    bench_queue_idle(d->inst, d->queue);
    t[PH_WAIT] = bench_now_ms() - t3;
    t[PH_ENCODE] = t1 - t0;
    t[PH_FINISH] = t2 - t1;
    t[PH_SUBMIT] = t3 - t2;
}

void bench_draws_api(const char *backend, unsigned reps, bench_draws_result_t *out)
{
    memset(out, 0, sizeof *out);
    WGPUBackendType type = strcmp(backend, "noop") == 0     ? WGPUBackendType_Null
                           : strcmp(backend, "vulkan") == 0 ? WGPUBackendType_Vulkan
                           : strcmp(backend, "gles") == 0   ? WGPUBackendType_OpenGLES
                                                            : WGPUBackendType_Undefined;
    draws_t d;
    memset(&d, 0, sizeof d);
    d.inst = bench_inst;
    d.dev = d.inst ? bench_device(d.inst, type, &d.errors) : NULL;
    if (d.dev) d.queue = wgpuDeviceGetQueue(d.dev);
    if (!d.dev || !setup(&d)) {
        if (d.dev) printf("bench: scene 6 setup failed on %s\n", backend);
        teardown(&d);
        return;
    }
    static double t[DRAWS_MODES][PH_COUNT][BENCH_MAX_REPS];
    double one[PH_COUNT];
    /* Warm-up: three rounds cycle through every command-buffer slot, so that no timed pass pays
     * the first-touch page faults of its (large) command stream. */
    for (int r = 0; r < 3; r++)
        for (int m = 0; m < DRAWS_MODES; m++) one_pass(&d, m, one, &out->stream_B[m]);
    for (unsigned k = 0; k < reps; k++)
        for (int m = 0; m < DRAWS_MODES; m++) {
            one_pass(&d, m, one, &out->stream_B[m]);
            for (int p = 0; p < PH_COUNT; p++) t[m][p][k] = one[p] * 1e6 / BENCH_DRAWS;
        }
    out->ok = d.errors == 0;
    if (d.errors) printf("bench: scene 6 on %s: %u WebGPU error(s); not reported\n", backend, d.errors);
    for (int m = 0; m < DRAWS_MODES; m++)
        for (int p = 0; p < PH_COUNT; p++) out->ns[m][p] = bench_stat(t[m][p], reps);
    teardown(&d);
}
