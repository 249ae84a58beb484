/* Benchmark: the soft shader VM interpreter alone, on a hand-built fragment-like program.
 *
 * Usage: vm_bench [-n BLOCKS]   Runs a 1-block program of EXPR_LEN typical fragment ALU ops
 * (mul/add/fma/mix/clamp/min/compare/select/sqrt) over BLOCKS 16-lane blocks (default 200000),
 * once with all lanes active and once with a partial mask, 5 repetitions each, and prints
 * ns/instruction and ns/block (best of 5). No rasterizer, no texture: the VM dispatch and ALU
 * cost only, so it is unaffected by changes to soft_raster*. Never fails on speed.
 * vm_bench -q [FRAMES]: a full-screen 800x480 RGBA8 textured quad (tests/shaders/span.vert +
 * span_tex.frag: a 256x256 RGBA8 texture, linear, times the vertex color), blended (straight
 * alpha) and opaque, one thread, with the soft fast paths (span path) on and off: ms/frame,
 * best of FRAMES.
 * Build: make O=... BOARD=host O/bench/vm_bench (bench/bench.mk links the embedded test shaders).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hal/soft/soft_vm.h"
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"
#include "tests/shaders/spv_embed.h"
#include "examples/soft_device.h"

#define EXPR_LEN 96u
#define REGS 12u

static eg_vm_inst_t g_code[EXPR_LEN + 2u];
static eg_soft_reg_t g_consts[4];
static const uint32_t g_block_pc[1] = { 0 };
static eg_soft_vec4_t g_in[EG_SOFT_MAX_LOCATIONS], g_out[EG_SOFT_MAX_LOCATIONS];

/* CPU time of this thread (the VM and the quad, with one soft thread, run on it): the build
 * machines are shared, where wall time mostly measures the neighbours. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* BLOCK; LD_IN x4; a mix of ALU ops over registers 0..REGS-1 and constants; ST_OUT x4; END. */
static uint32_t build(eg_soft_program_t *p)
{
    static const uint16_t ops[] = { EG_VM_FMUL, EG_VM_FADD, EG_VM_FFMA, EG_VM_FMIX, EG_VM_FCLAMP,
                                    EG_VM_FMIN, EG_VM_FLT, EG_VM_SELECT, EG_VM_FSUB, EG_VM_FMAX,
                                    EG_VM_FSQRT, EG_VM_MOV, EG_VM_FMUL, EG_VM_FADD, EG_VM_FFRACT };
    uint32_t n = 0, seed = 7u;
    g_code[n++] = (eg_vm_inst_t){ .op = EG_VM_BLOCK, .imm = 0, .a = EXPR_LEN + 1u, .b = 0 };
    for (uint32_t k = 0; k < 4; k++)
        g_code[n++] = (eg_vm_inst_t){ .op = EG_VM_LD_IN, .dst = (uint16_t)k, .a = EG_VM_NONE,
                                      .b = EG_VM_NONE, .c = EG_VM_NONE, .d = EG_VM_NONE, .imm = k };
    while (n < EXPR_LEN - 3u) {
        seed = seed * 1103515245u + 12345u;
        uint16_t op = ops[(seed >> 16) % (sizeof ops / sizeof ops[0])];
        uint16_t a = (uint16_t)((seed >> 8) % REGS), b = (uint16_t)((seed >> 4) % REGS);
        uint16_t c = (uint16_t)(EG_VM_CONST_BASE + (seed >> 12) % 4u);
        g_code[n++] = (eg_vm_inst_t){ .op = op, .dst = (uint16_t)(4u + n % (REGS - 4u)), .a = a, .b = b,
                                      .c = c, .d = EG_VM_NONE };
    }
    for (uint32_t k = 0; k < 4; k++)
        g_code[n++] = (eg_vm_inst_t){ .op = EG_VM_ST_OUT, .dst = EG_VM_NONE, .a = (uint16_t)(4u + k),
                                      .b = EG_VM_NONE, .c = EG_VM_NONE, .d = EG_VM_NONE, .imm = k };
    g_code[n++] = (eg_vm_inst_t){ .op = EG_VM_END };
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) g_consts[k].f[l] = 0.625f + 0.25f * (float)k;   /* near 1: chains stay normal (denormals are slow) */
    memset(p, 0, sizeof *p);
    p->code = g_code;
    p->code_count = n;
    p->consts = g_consts;
    p->const_count = 4;
    p->reg_count = REGS;
    p->block_count = 1;
    p->block_pc = g_block_pc;
    return n;
}

static double run(const eg_soft_program_t *p, uint32_t blocks, eg_soft_mask_t mask)
{
    eg_soft_invocation_t inv;
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = cpu_s();
        for (uint32_t b = 0; b < blocks; b++) {
            memset(&inv, 0, sizeof inv);
            inv.in = g_in;
            inv.out = g_out;
            inv.active = mask;
            g_in[0].c[0].f[b & 15u] = (float)(b & 255u) * 0.01f;
            eg_soft_program_run(p, NULL, &inv);
        }
        double t = cpu_s() - t0;
        if (t < best) best = t;
    }
    return best;
}

/* ---- full-screen textured quad through the soft rasterizer ---- */

#define QW 800u
#define QH 480u

typedef struct qvtx {
    float pos[4];
    float uv[2];
    uint8_t color[4];
} qvtx_t;

static WGPUShaderModule q_module(WGPUDevice d, const char *name)
{
    const eg_test_spv_t *spv = eg_test_spv(name);
    if (!spv) return NULL;
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = spv->words;
    src.codeSize = spv->word_count;
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d, &md);
}

static WGPURenderPipeline q_pipeline(WGPUDevice d, const WGPUBlendState *blend)
{
    WGPUShaderModule vs = q_module(d, "span.vert"), fs = q_module(d, "span_tex.frag");
    WGPUVertexAttribute va[3] = { WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT, WGPU_VERTEX_ATTRIBUTE_INIT };
    va[0].format = WGPUVertexFormat_Float32x4;
    va[1].format = WGPUVertexFormat_Float32x2; va[1].offset = 16; va[1].shaderLocation = 1;
    va[2].format = WGPUVertexFormat_Unorm8x4; va[2].offset = 24; va[2].shaderLocation = 2;
    WGPUVertexBufferLayout vb = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    vb.arrayStride = sizeof(qvtx_t);
    vb.attributeCount = 3;
    vb.attributes = va;
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    t.format = WGPUTextureFormat_RGBA8Unorm;
    t.blend = blend;
    WGPUFragmentState f = WGPU_FRAGMENT_STATE_INIT;
    f.module = fs;
    f.targetCount = 1;
    f.targets = &t;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.vertex.module = vs;
    pd.vertex.bufferCount = 1;
    pd.vertex.buffers = &vb;
    pd.fragment = &f;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(d, &pd);
    wgpuShaderModuleRelease(vs);
    wgpuShaderModuleRelease(fs);
    return p;
}

static void q_done(WGPUQueueWorkDoneStatus status, WGPUStringView message, void *u1, void *u2)
{
    (void)status; (void)message; (void)u2;
    *(int *)u1 = 1;
}

/* One frame: clear, the quad, submit, wait for the queue. */
static void q_frame(WGPUInstance inst, WGPUDevice d, WGPUQueue q, WGPUTextureView rt, WGPURenderPipeline p,
                    WGPUBindGroup g, WGPUBuffer vb)
{
    WGPUCommandEncoder e = wgpuDeviceCreateCommandEncoder(d, NULL);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = rt;
    c.loadOp = WGPULoadOp_Clear;
    c.storeOp = WGPUStoreOp_Store;
    c.clearValue = (WGPUColor){ 0.1, 0.2, 0.3, 1.0 };
    WGPURenderPassDescriptor pd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    pd.colorAttachmentCount = 1;
    pd.colorAttachments = &c;
    WGPURenderPassEncoder rp = wgpuCommandEncoderBeginRenderPass(e, &pd);
    wgpuRenderPassEncoderSetPipeline(rp, p);
    wgpuRenderPassEncoderSetBindGroup(rp, 0, g, 0, NULL);
    wgpuRenderPassEncoderSetVertexBuffer(rp, 0, vb, 0, 6 * sizeof(qvtx_t));
    wgpuRenderPassEncoderDraw(rp, 6, 1, 0, 0);
    wgpuRenderPassEncoderEnd(rp);
    wgpuRenderPassEncoderRelease(rp);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(e, NULL);
    wgpuQueueSubmit(q, 1, &cb);
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(e);
    int done = 0;
    WGPUQueueWorkDoneCallbackInfo ci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_WaitAnyOnly;
    ci.callback = q_done;
    ci.userdata1 = &done;
    example_wait(inst, wgpuQueueOnSubmittedWorkDone(q, ci));
}

static int quad_bench(unsigned frames)
{
    (void)example_map_read;   /* examples/soft_device.h: not needed here */
    WGPUInstance inst = wgpuCreateInstance(NULL);
    WGPUAdapter adapter;
    WGPUDevice d = inst ? example_soft_device(inst, NULL, &adapter) : NULL;
    if (!d) { fprintf(stderr, "vm_bench: no soft device\n"); return 1; }
    WGPUQueue q = wgpuDeviceGetQueue(d);
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.format = WGPUTextureFormat_RGBA8Unorm;
    td.size = (WGPUExtent3D){ QW, QH, 1 };
    td.usage = WGPUTextureUsage_RenderAttachment;
    WGPUTexture rt = wgpuDeviceCreateTexture(d, &td);
    td.size = (WGPUExtent3D){ 256, 256, 1 };
    td.usage = WGPUTextureUsage_TextureBinding | WGPUTextureUsage_CopyDst;
    WGPUTexture tex = wgpuDeviceCreateTexture(d, &td);
    static uint8_t px[256 * 256 * 4];
    for (uint32_t i = 0; i < 256u * 256u * 4u; i++) px[i] = (uint8_t)(i * 2654435761u >> 24);
    WGPUTexelCopyTextureInfo ti = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    ti.texture = tex;
    WGPUTexelCopyBufferLayout bl = { 0, 1024, 256 };
    WGPUExtent3D sz = { 256, 256, 1 };
    wgpuQueueWriteTexture(q, &ti, px, sizeof px, &bl, &sz);
    WGPUTextureView rtv = wgpuTextureCreateView(rt, NULL), tv = wgpuTextureCreateView(tex, NULL);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.magFilter = sd.minFilter = WGPUFilterMode_Linear;
    WGPUSampler smp = wgpuDeviceCreateSampler(d, &sd);
    static const WGPUBlendState straight = {
        { WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha },
        { WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha } };
    const qvtx_t v[6] = { { { -1, 1, 0, 1 }, { 0, 0 }, { 255, 255, 255, 200 } }, { { 1, 1, 0, 1 }, { 1, 0 }, { 255, 255, 255, 200 } },
                          { { -1, -1, 0, 1 }, { 0, 1 }, { 255, 255, 255, 200 } }, { { 1, 1, 0, 1 }, { 1, 0 }, { 255, 255, 255, 200 } },
                          { { 1, -1, 0, 1 }, { 1, 1 }, { 255, 255, 255, 200 } }, { { -1, -1, 0, 1 }, { 0, 1 }, { 255, 255, 255, 200 } } };
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.size = sizeof v;
    bd.usage = WGPUBufferUsage_Vertex | WGPUBufferUsage_CopyDst;
    WGPUBuffer vb = wgpuDeviceCreateBuffer(d, &bd);
    wgpuQueueWriteBuffer(q, vb, 0, v, sizeof v);
    eg_soft_set_threads(1);
    printf("vm_bench -q: full-screen %ux%u RGBA8 textured quad (256x256 RGBA8, linear, times color), 1 thread, best of %u (thread CPU time)\n",
           QW, QH, frames);
    for (int blended = 1; blended >= 0; blended--) {
        WGPURenderPipeline p = q_pipeline(d, blended ? &straight : NULL);
        WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(p, 0);
        WGPUBindGroupEntry e[2] = { WGPU_BIND_GROUP_ENTRY_INIT, WGPU_BIND_GROUP_ENTRY_INIT };
        e[0].binding = 0; e[0].textureView = tv;
        e[1].binding = 1; e[1].sampler = smp;
        WGPUBindGroupDescriptor gd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
        gd.layout = bgl;
        gd.entryCount = 2;
        gd.entries = e;
        WGPUBindGroup g = wgpuDeviceCreateBindGroup(d, &gd);
        for (int fast = 1; fast >= 0; fast--) {
            eg_soft_raster_fast_paths = fast != 0;
            q_frame(inst, d, q, rtv, p, g, vb);
            double best = 1e30;
            for (unsigned k = 0; k < frames; k++) {
                double t0 = cpu_s();
                q_frame(inst, d, q, rtv, p, g, vb);
                double t = cpu_s() - t0;
                if (t < best) best = t;
            }
            printf("  %s, fast paths %s: %.3f ms/frame (%.2f ns/px)\n", blended ? "blended" : "opaque ",
                   fast ? "on " : "off", best * 1e3, best * 1e9 / (QW * QH));
        }
        eg_soft_raster_fast_paths = true;
        wgpuBindGroupRelease(g);
        wgpuBindGroupLayoutRelease(bgl);
        wgpuRenderPipelineRelease(p);
    }
    wgpuBufferRelease(vb);
    wgpuSamplerRelease(smp);
    wgpuTextureViewRelease(tv);
    wgpuTextureViewRelease(rtv);
    wgpuTextureRelease(tex);
    wgpuTextureRelease(rt);
    wgpuQueueRelease(q);
    wgpuDeviceRelease(d);
    if (adapter) wgpuAdapterRelease(adapter);
    wgpuInstanceRelease(inst);
    return 0;
}

int main(int argc, char **argv)
{
    uint32_t blocks = 200000;
    if (argc >= 2 && !strcmp(argv[1], "-q")) return quad_bench(argc == 3 ? (unsigned)strtoul(argv[2], NULL, 10) : 5u);
    if (argc == 3 && !strcmp(argv[1], "-n")) blocks = (uint32_t)strtoul(argv[2], NULL, 10);
    static eg_soft_program_t prog;
    uint32_t n = build(&prog);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
        for (uint32_t k = 0; k < 4; k++) g_in[k].c[0].f[l] = (float)(l + k) * 0.1f;
    double full = run(&prog, blocks, EG_SOFT_ALL_LANES), part = run(&prog, blocks, 0x0f3fu);
    printf("vm_bench: %u instructions/block, %u blocks, SIMD=%d\n", n, blocks, EMGPU_SOFT_SIMD);
    printf("  full mask:    %.2f ns/inst  %.1f ns/block\n", full * 1e9 / ((double)blocks * n), full * 1e9 / blocks);
    printf("  partial mask: %.2f ns/inst  %.1f ns/block\n", part * 1e9 / ((double)blocks * n), part * 1e9 / blocks);
    printf("  checksum %08x\n", (unsigned)g_out[0].c[0].u[3] ^ (unsigned)g_out[3].c[0].u[9]);
    return 0;
}
