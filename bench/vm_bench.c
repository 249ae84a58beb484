/* Benchmark: the soft shader VM interpreter alone, on a hand-built fragment-like program.
 *
 * Usage: vm_bench [-n BLOCKS]   Runs a 1-block program of EXPR_LEN typical fragment ALU ops
 * (mul/add/fma/mix/clamp/min/compare/select/sqrt) over BLOCKS 16-lane blocks (default 200000),
 * once with all lanes active and once with a partial mask, 5 repetitions each, and prints
 * ns/instruction and ns/block (best of 5), for the switch interpreter and the threaded code at
 * each vector width the CPU runs (soft_vm_thread.c; outputs must match). No rasterizer, no
 * texture: the VM dispatch and ALU cost only, so it is unaffected by changes to soft_raster*. Never fails on speed.
 * vm_bench -q [FRAMES]: a full-screen 800x480 RGBA8 textured quad (tests/shaders/span.vert +
 * span_tex.frag: a 256x256 RGBA8 texture, linear, times the vertex color), blended (straight
 * alpha) and opaque, one thread, with the soft fast paths (span path) on and off: ms/frame,
 * best of FRAMES.
 * vm_bench -d FILE.spv...: the threaded code against the switch interpreter on every vertex and
 * fragment entry point of the files that compiles without resources (pseudo-random inputs with
 * special values, 4 masks): prints the count of mismatches, exit status 1 on any.
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
#include "kernel/api/shader_module.h"

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

/* ---- differential: threaded code vs the switch interpreter over SPIR-V files ---- */

static uint32_t g_rng = 1u;
static unsigned g_nan_only;
static uint32_t d_rand(void) { g_rng = g_rng * 1664525u + 1013904223u; return g_rng >> 8; }
static uint32_t d_value(void)
{
    static const uint32_t special[] = { 0x80000000u, 0, 0x7fc00000u, 0xff800001u, 0x7f800000u, 0xff800000u,
                                        0x00000001u, 0x807fffffu, 0x4b000000u, 0xcaffffffu, 3u, 0xffffffffu };
    uint32_t r = d_rand();
    if (r % 8u == 0) return special[(r >> 3) % (sizeof special / sizeof special[0])];
    float f = ((float)(r % 20001u) - 10000.0f) * 0.00137f;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Runs p on the inputs; a hash of the outputs, Position, FragDepth, SampleMask and the lanes left. */
/* With d_nan_any, every NaN hashes alike: which of two NaN operands' payloads an IEEE operation
 * returns is the C compiler's operand order (x86 returns the first), different between the
 * switch's and the threaded code's vector bodies and between SSE and AVX encodings. WebGPU
 * leaves NaN payloads unspecified; soft_vm_test treats them the same way. */
static int d_nan_any;
static uint32_t d_canon(uint32_t u)
{
    return d_nan_any && (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) ? 0x7fc00000u : u;
}
static eg_soft_vec4_t d_out[2][EG_SOFT_MAX_LOCATIONS];
static uint32_t d_run(const eg_soft_program_t *p, const eg_soft_invocation_t *inv0, uint32_t which)
{
    eg_soft_vec4_t *out = d_out[which];
    eg_soft_invocation_t inv = *inv0;
    memset(out, 0x5a, sizeof d_out[0]);
    inv.out = out;
    eg_soft_program_run(p, NULL, &inv);
    uint32_t h = inv.active;
    const uint32_t *w = (const uint32_t *)(const void *)out;
    for (uint32_t i = 0; i < sizeof d_out[0] / 4u; i++) h = (h ^ d_canon(w[i])) * 16777619u;
    w = (const uint32_t *)(const void *)&inv.position;
    for (uint32_t i = 0; i < sizeof inv.position / 4u; i++) h = (h ^ d_canon(w[i])) * 16777619u;
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
        h = (h ^ d_canon(inv.frag_depth.u[l]) ^ inv.sample_mask_out.u[l] << 7) * 16777619u;
    return h;
}

/* One program: 4 masks x 4 input sets; returns the number of mismatching runs. */
static unsigned d_program(eg_soft_program_t *p, const char *what)
{
    static const eg_soft_mask_t masks[] = { EG_SOFT_ALL_LANES, 0x0ff0u, 0x8421u, 0x00f3u };
    static eg_soft_vec4_t in[EG_SOFT_MAX_LOCATIONS];
    static eg_soft_invocation_t inv;
    void *mem = (void *)(uintptr_t)p->thread;
    unsigned bad = 0;
    for (uint32_t k = 0; k < 16u && mem; k++) {
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            for (uint32_t j = 0; j < EG_SOFT_MAX_LOCATIONS; j++)
                for (uint32_t c = 0; c < 4; c++) in[j].c[c].u[l] = d_value();
            for (uint32_t c = 0; c < 4; c++) inv.position.c[c].u[l] = d_value();
            inv.vertex_index.u[l] = d_rand() % 64u;
            inv.instance_index.u[l] = d_rand() % 4u;
            inv.sample_mask_in.u[l] = 1u;
        }
        inv.front_facing = d_rand() & EG_SOFT_ALL_LANES;
        inv.active = masks[k & 3u];
        inv.in = in;
        p->thread = NULL;
        uint32_t want = d_run(p, &inv, 0);
        for (uint32_t vw = 4; vw <= 8u; vw += 4u) {
            if (!(eg_vm_thread_widths() & vw)) continue;
            eg_vm_thread_build(p, mem, vw);
            if (d_run(p, &inv, 1) == want) continue;
            d_nan_any = 1;
            bool nan_only = d_run(p, &inv, 0) == d_run(p, &inv, 1);
            d_nan_any = 0;
            if (nan_only) { g_nan_only++; continue; }
            bad++;
            printf("  MISMATCH %s (width %u, run %u)", what, (unsigned)vw, (unsigned)k);
            const uint32_t *a = (const uint32_t *)(const void *)d_out[0], *b = (const uint32_t *)(const void *)d_out[1];
            for (uint32_t i = 0; i < sizeof d_out[0] / 4u; i++)
                if (a[i] != b[i]) { printf(": output word %u %08x, switch %08x", (unsigned)i, (unsigned)b[i], (unsigned)a[i]); break; }
            printf("\n");
        }
    }
    return bad;
}

/* vm_bench -d FILE.spv...: every vertex/fragment entry point that compiles without a pipeline
 * layout (no resources) runs through the switch interpreter and the threaded code. */
static int diff_files(int argc, char **argv)
{
    static uint32_t words[1u << 20];
    WGPUInstance inst = wgpuCreateInstance(NULL);
    WGPUAdapter adapter;
    WGPUDevice d = inst ? example_soft_device(inst, NULL, &adapter) : NULL;
    if (!d) { fprintf(stderr, "vm_bench: no soft device\n"); return 1; }
    unsigned files = 0, programs = 0, skipped = 0, bad = 0;
    for (int i = 0; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) continue;
        size_t n = fread(words, 4, sizeof words / 4, f);
        fclose(f);
        WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
        src.code = words;
        src.codeSize = (uint32_t)n;
        WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
        md.nextInChain = &src.chain;
        WGPUShaderModule m = wgpuDeviceCreateShaderModule(d, &md);
        const eg_shader_module_t *sm = (const eg_shader_module_t *)(const void *)m;
        if (!m || sm->obj.invalid) { if (m) wgpuShaderModuleRelease(m); continue; }   /* rejected by validation */
        files++;
        for (uint32_t e = 0; e < sm->spirv.entry_count; e++) {
            const eg_shader_entry_t *en = &sm->spirv.entries[e];
            if (en->stage != EG_SHADER_STAGE_VERTEX && en->stage != EG_SHADER_STAGE_FRAGMENT) continue;
            eg_soft_program_t *p = NULL;
            if (eg_soft_program_create(sm, en->name, en->stage, NULL, &p) != EG_STATUS_OK || !p) { skipped++; continue; }
            programs++;
            bad += d_program(p, argv[i]);
            eg_soft_program_destroy(p);
        }
        wgpuShaderModuleRelease(m);
    }
    printf("vm_bench -d: %u modules, %u programs compared (threaded widths %u), %u not compiled alone (resources), "
           "%u mismatches, %u runs differing only in NaN payloads\n", files, programs, (unsigned)eg_vm_thread_widths(),
           skipped, bad, g_nan_only);
    wgpuDeviceRelease(d);
    if (adapter) wgpuAdapterRelease(adapter);
    wgpuInstanceRelease(inst);
    return bad != 0;
}

int main(int argc, char **argv)
{
    uint32_t blocks = 200000;
    if (argc >= 2 && !strcmp(argv[1], "-d")) return diff_files(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "-q")) return quad_bench(argc == 3 ? (unsigned)strtoul(argv[2], NULL, 10) : 5u);
    if (argc == 3 && !strcmp(argv[1], "-n")) blocks = (uint32_t)strtoul(argv[2], NULL, 10);
    static eg_soft_program_t prog;
    static uint64_t thread_mem[(EXPR_LEN + 2u) * 4u];   /* 32 bytes per instruction */
    uint32_t n = build(&prog);
    if (eg_vm_thread_size_B(n) > sizeof thread_mem) return 1;
    printf("vm_bench: %u instructions/block, %u blocks, SIMD=%d\n", n, blocks, EMGPU_SOFT_SIMD);
    /* the switch interpreter, then the threaded code at each width the CPU runs: same outputs */
    uint32_t widths = eg_vm_thread_widths(), ref = 0;
    for (uint32_t vw = 0; vw <= 8u; vw += 4u) {
        if (vw && !(widths & vw)) continue;
        if (vw) eg_vm_thread_build(&prog, thread_mem, vw); else prog.thread = NULL;
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
            for (uint32_t k = 0; k < 4; k++) g_in[k].c[0].f[l] = (float)(l + k) * 0.1f;
        memset(g_out, 0, sizeof g_out);
        double full = run(&prog, blocks, EG_SOFT_ALL_LANES), part = run(&prog, blocks, 0x0f3fu);
        uint32_t sum = 0;
        for (uint32_t k = 0; k < 4; k++)
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) sum = sum * 31u + g_out[0].c[k].u[l];
        printf("  %s:\n", vw ? (vw == 4u ? "threaded, 4 lanes/vector" : "threaded, 8 lanes/vector") : "switch interpreter");
        printf("    full mask:    %.2f ns/inst  %.1f ns/block\n", full * 1e9 / ((double)blocks * n), full * 1e9 / blocks);
        printf("    partial mask: %.2f ns/inst  %.1f ns/block\n", part * 1e9 / ((double)blocks * n), part * 1e9 / blocks);
        printf("    checksum %08x\n", (unsigned)sum);
        if (!vw) ref = sum;
        else if (sum != ref) { printf("vm_bench: FAIL: threaded outputs differ from the switch interpreter\n"); return 1; }
    }
    return 0;
}
