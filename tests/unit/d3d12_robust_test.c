/* Robust buffer access and arrayLength through dynamic-offset and offset bindings (every backend), and D3D12's dynamic-view ring. */
#include <string.h>

#include "tests/harness/test_device.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/cmd_test_util.h"

/* WebGPU "robust buffer access" (WGSL spec "Out-of-Bounds Access", WebGPU spec "Robust Buffer
 * Access"): a load outside the binding returns a value of some location inside the binding or
 * zero; a store outside it is dropped or lands on some location inside the binding; nothing
 * outside [offset + dynamic offset, + size) of the buffer changes. arrayLength of a runtime
 * array is floor((binding size - offset of the array) / stride) (WGSL "arrayLength").
 * The sentinel patterns below make "inside the binding" checkable: word j of a buffer holds
 * tag | j, so a value names the word it came from. */

#define SENT_DATA 0xA5000000u       /* the storage buffer read and written out of bounds */
#define SENT_UNI 0xB0000000u        /* the uniform buffer */
#define MARK 0xC0DE0000u            /* robust_rw.comp: invocation i stores MARK | i */
#define DYN_OFFSET_B 256u           /* the dynamic offset of every dynamic binding below */

static WGPUShaderModule module(WGPUDevice d, const char *name)
{
    const eg_test_spv_t *s = eg_test_spv(name);
    if (!s) return NULL;
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = s->words;
    src.codeSize = s->word_count;
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    return wgpuDeviceCreateShaderModule(d, &md);
}

/* A buffer of `words` words, word j = tag | j (tag 0: zeros). */
static WGPUBuffer pattern(WGPUDevice d, WGPUBufferUsage usage, uint32_t words, uint32_t tag)
{
    static uint32_t w[256];
    for (uint32_t j = 0; j < words && j < 256; j++) w[j] = tag ? (tag | j) : 0u;
    WGPUBuffer b = t_buffer(d, usage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, words * 4u);
    wgpuQueueWriteBuffer(eg_test_queue(), b, 0, w, words * 4u);
    return b;
}

/* A load outside a binding of `first`..`first + n - 1` words of a tag-patterned buffer. */
static bool oob_load_ok(uint32_t v, uint32_t tag, uint32_t first, uint32_t n)
{
    return v == 0 || ((v & 0xFF000000u) == tag && (v & 0xFFFFFFu) >= first && (v & 0xFFFFFFu) < first + n);
}

static WGPUBindGroupLayoutEntry bgl_entry(uint32_t binding, WGPUShaderStage vis, WGPUBufferBindingType type, bool dyn)
{
    WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    e.binding = binding;
    e.visibility = vis;
    e.buffer.type = type;
    e.buffer.hasDynamicOffset = dyn ? WGPU_TRUE : WGPU_FALSE;
    return e;
}

static WGPUBindGroupEntry bg_entry(uint32_t binding, WGPUBuffer b, uint64_t offset, uint64_t size)
{
    WGPUBindGroupEntry e = WGPU_BIND_GROUP_ENTRY_INIT;
    e.binding = binding;
    e.buffer = b;
    e.offset = offset;
    e.size = size;
    return e;
}

/* ---- compute: robust_rw.comp ---- */

typedef struct rw_fixture {
    WGPUBindGroupLayout bgl;
    WGPUComputePipeline pipe;
} rw_fixture_t;

static bool rw_fixture(WGPUDevice d, rw_fixture_t *f)
{
    const WGPUShaderStage cs = WGPUShaderStage_Compute;
    WGPUBindGroupLayoutEntry le[5] = {
        bgl_entry(0, cs, WGPUBufferBindingType_Storage, true),
        bgl_entry(1, cs, WGPUBufferBindingType_Storage, false),
        bgl_entry(2, cs, WGPUBufferBindingType_ReadOnlyStorage, false),
        bgl_entry(3, cs, WGPUBufferBindingType_ReadOnlyStorage, true),
        bgl_entry(4, cs, WGPUBufferBindingType_Uniform, true),
    };
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.entryCount = 5; ld.entries = le;
    f->bgl = wgpuDeviceCreateBindGroupLayout(d, &ld);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1; pld.bindGroupLayouts = &f->bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pld);
    WGPUShaderModule m = module(d, "robust_rw.comp");
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.layout = pl;
    cd.compute.module = m;
    f->pipe = m ? wgpuDeviceCreateComputePipeline(d, &cd) : NULL;
    if (m) wgpuShaderModuleRelease(m);
    wgpuPipelineLayoutRelease(pl);
    return f->bgl && f->pipe;
}

static void rw_fixture_release(rw_fixture_t *f)
{
    if (f->pipe) wgpuComputePipelineRelease(f->pipe);
    if (f->bgl) wgpuBindGroupLayoutRelease(f->bgl);
}

/* The buffers of one run and the bind group over them:
 *   binding 0: data (256 words, SENT_DATA), 64 bytes at dynamic offset 256: words 64..79;
 *   binding 1: out (128 words, zeros), all of it;
 *   binding 2: arr (128 words), 60 bytes at offset 256: arrayLength (60 - 8) / 12 = 4;
 *   binding 3: arr, 100 bytes at offset 0 + dynamic 256: arrayLength (100 - 8) / 12 = 7;
 *   binding 4: uni (128 words, SENT_UNI), 64 bytes at dynamic offset 256: words 64..79. */
typedef struct rw_run { WGPUBuffer data, out, arr, uni, ind; WGPUBindGroup bg; } rw_run_t;

static void rw_run_make(WGPUDevice d, const rw_fixture_t *f, rw_run_t *r)
{
    r->data = pattern(d, WGPUBufferUsage_Storage, 256, SENT_DATA);
    r->out = pattern(d, WGPUBufferUsage_Storage, 128, 0);
    r->arr = pattern(d, WGPUBufferUsage_Storage, 128, 0);
    r->uni = pattern(d, WGPUBufferUsage_Uniform, 128, SENT_UNI);
    static const uint32_t one[3] = { 1, 1, 1 };
    r->ind = t_buffer(d, WGPUBufferUsage_Indirect | WGPUBufferUsage_CopyDst, 12);
    wgpuQueueWriteBuffer(eg_test_queue(), r->ind, 0, one, sizeof one);
    WGPUBindGroupEntry be[5] = {
        bg_entry(0, r->data, 0, 64), bg_entry(1, r->out, 0, 512), bg_entry(2, r->arr, 256, 60),
        bg_entry(3, r->arr, 0, 100), bg_entry(4, r->uni, 0, 64),
    };
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = f->bgl; bd.entryCount = 5; bd.entries = be;
    r->bg = wgpuDeviceCreateBindGroup(d, &bd);
}

static void rw_run_release(rw_run_t *r)
{
    if (r->bg) wgpuBindGroupRelease(r->bg);
    wgpuBufferRelease(r->ind);
    wgpuBufferRelease(r->uni);
    wgpuBufferRelease(r->arr);
    wgpuBufferRelease(r->out);
    wgpuBufferRelease(r->data);
}

static void rw_dispatch(WGPUDevice d, const rw_fixture_t *f, const rw_run_t *r, bool indirect)
{
    WGPUCommandEncoder e = t_encoder(d);
    WGPUComputePassEncoder ce = wgpuCommandEncoderBeginComputePass(e, NULL);
    wgpuComputePassEncoderSetPipeline(ce, f->pipe);
    const uint32_t dyn[3] = { DYN_OFFSET_B, DYN_OFFSET_B, DYN_OFFSET_B };   /* bindings 0, 3, 4 */
    wgpuComputePassEncoderSetBindGroup(ce, 0, r->bg, 3, dyn);
    if (indirect) wgpuComputePassEncoderDispatchWorkgroupsIndirect(ce, r->ind, 0);
    else wgpuComputePassEncoderDispatchWorkgroups(ce, 1, 1, 1);
    wgpuComputePassEncoderEnd(ce);
    wgpuComputePassEncoderRelease(ce);
    t_submit(e);
}

/* Every word of data outside words 64..79 keeps its sentinel; inside, word 64 + k holds a mark
 * of some invocation (its own when out-of-bounds stores are dropped, another's when they are
 * clamped into the binding: both allowed). */
static bool check_stores(WGPUDevice d, const rw_run_t *r)
{
    static uint32_t w[256];
    memset(w, 0, sizeof w);
    if (!t_readback(d, r->data, 0, sizeof w, w)) return false;
    bool ok = true;
    for (uint32_t j = 0; j < 256; j++) {
        bool inside = j >= 64 && j < 80;
        bool good = inside ? (w[j] & 0xFFFF0000u) == MARK && (w[j] & 0xFFFFu) < 32 : w[j] == (SENT_DATA | j);
        if (!good && ok) eg_test_printf("    data word %u = 0x%08x (%s the binding)\n", j, w[j], inside ? "inside" : "outside");
        ok = ok && good;
    }
    return ok;
}

/* out[i] = data.v[i] and out[32 + i] = uni.u[i].x for i < 32 (before any store), out[64..66] the
 * three arrayLengths. */
static bool check_loads(WGPUDevice d, const rw_run_t *r)
{
    static uint32_t o[128];
    memset(o, 0xEE, sizeof o);
    if (!t_readback(d, r->out, 0, sizeof o, o)) return false;
    bool ok = true;
    for (uint32_t i = 0; i < 32; i++) {
        bool good = i < 16 ? o[i] == (SENT_DATA | (64u + i)) : oob_load_ok(o[i], SENT_DATA, 64, 16);
        /* u[i] is a uvec4 array of 4: u[i].x is word 64 + 4i in bounds */
        good = good && (i < 4 ? o[32 + i] == (SENT_UNI | (64u + 4u * i)) : oob_load_ok(o[32 + i], SENT_UNI, 64, 16));
        if (!good && ok) eg_test_printf("    i %u: storage load 0x%08x, uniform load 0x%08x\n", i, o[i], o[32 + i]);
        ok = ok && good;
    }
    /* arrayLength: 64 / 4 = 16; (60 - 8) / 12 = 4 (52 is not a multiple of 12); (100 - 8) / 12 = 7 */
    if (o[64] != 16 || o[65] != 4 || o[66] != 7) {
        eg_test_printf("    arrayLength: dynamic %u (want 16), offset view %u (want 4), dynamic read-only %u (want 7)\n",
                       o[64], o[65], o[66]);
        ok = false;
    }
    return ok;
}

static void rw_case(bool indirect)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    rw_fixture_t f = { NULL, NULL };
    EG_EXPECT(rw_fixture(d, &f));
    EG_EXPECT_NO_ERROR();
    if (f.pipe) {
        rw_run_t r;
        rw_run_make(d, &f, &r);
        rw_dispatch(d, &f, &r, indirect);
        EG_EXPECT_NO_ERROR();
        EG_EXPECT(check_stores(d, &r));
        EG_EXPECT(check_loads(d, &r));
        rw_run_release(&r);
    }
    rw_fixture_release(&f);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

EG_TEST(robust, dispatch_dynamic_bindings_out_of_bounds)
{
    rw_case(false);
}

EG_TEST(robust, dispatch_indirect_dynamic_bindings_out_of_bounds)
{
    rw_case(true);
}

/* ---- render: robust_tri.vert + robust_frag.frag, one fragment on a 1x1 target ---- */

typedef enum { R_DRAW, R_INDEXED, R_INDIRECT, R_INDEXED_INDIRECT, R_COUNT } draw_kind_t;

static WGPURenderPipeline frag_pipeline(WGPUDevice d, WGPUBindGroupLayout *bgl)
{
    WGPUBindGroupLayoutEntry le = bgl_entry(0, WGPUShaderStage_Fragment, WGPUBufferBindingType_Storage, true);
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.entryCount = 1; ld.entries = &le;
    *bgl = wgpuDeviceCreateBindGroupLayout(d, &ld);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1; pld.bindGroupLayouts = bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pld);
    WGPUShaderModule vs = module(d, "robust_tri.vert"), fs = module(d, "robust_frag.frag");
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    t.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState fr = WGPU_FRAGMENT_STATE_INIT;
    fr.module = fs; fr.targetCount = 1; fr.targets = &t;
    WGPURenderPipelineDescriptor pd = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    pd.layout = pl;
    pd.vertex.module = vs;
    pd.fragment = &fr;
    WGPURenderPipeline p = vs && fs ? wgpuDeviceCreateRenderPipeline(d, &pd) : NULL;
    if (vs) wgpuShaderModuleRelease(vs);
    if (fs) wgpuShaderModuleRelease(fs);
    wgpuPipelineLayoutRelease(pl);
    return p;
}

/* data: 128 words of SENT_DATA, bound 16 bytes (words 64..67) at dynamic offset 256. The one
 * fragment stores arrayLength (16 / 4 = 4) into word 64, 0xDEAD to index 7 (past the end) and a
 * load of index 12 (past the end) into word 65. */
static bool frag_case(WGPUDevice d, WGPURenderPipeline p, WGPUBindGroupLayout bgl, draw_kind_t k)
{
    static const uint16_t idx[4] = { 0, 1, 2, 0 };
    /* draw {vertexCount 3, instanceCount 1, firstVertex 0, firstInstance 0}, then drawIndexed
     * {indexCount 3, instanceCount 1, firstIndex 0, baseVertex 0, firstInstance 0} at byte 16 */
    static const uint32_t args[9] = { 3, 1, 0, 0, 3, 1, 0, 0, 0 };
    WGPUBuffer data = pattern(d, WGPUBufferUsage_Storage, 128, SENT_DATA);
    WGPUBuffer ib = t_buffer(d, WGPUBufferUsage_Index | WGPUBufferUsage_CopyDst, sizeof idx);
    wgpuQueueWriteBuffer(eg_test_queue(), ib, 0, idx, sizeof idx);
    WGPUBuffer ab = t_buffer(d, WGPUBufferUsage_Indirect | WGPUBufferUsage_CopyDst, sizeof args);
    wgpuQueueWriteBuffer(eg_test_queue(), ab, 0, args, sizeof args);
    WGPUBindGroupEntry be = bg_entry(0, data, 0, 16);
    WGPUBindGroupDescriptor bd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    bd.layout = bgl; bd.entryCount = 1; bd.entries = &be;
    WGPUBindGroup bg = wgpuDeviceCreateBindGroup(d, &bd);
    WGPUTexture tex = t_texture(d, WGPUTextureFormat_RGBA8Unorm, 1, 1, 1, 1, 1, WGPUTextureUsage_RenderAttachment);
    WGPUTextureView view = wgpuTextureCreateView(tex, NULL);
    WGPUCommandEncoder e = t_encoder(d);
    WGPURenderPassColorAttachment c = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    c.view = view; c.loadOp = WGPULoadOp_Clear; c.storeOp = WGPUStoreOp_Store;
    WGPURenderPassDescriptor rd = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rd.colorAttachmentCount = 1; rd.colorAttachments = &c;
    WGPURenderPassEncoder pe = wgpuCommandEncoderBeginRenderPass(e, &rd);
    wgpuRenderPassEncoderSetPipeline(pe, p);
    const uint32_t dyn = DYN_OFFSET_B;
    wgpuRenderPassEncoderSetBindGroup(pe, 0, bg, 1, &dyn);
    wgpuRenderPassEncoderSetIndexBuffer(pe, ib, WGPUIndexFormat_Uint16, 0, sizeof idx);
    if (k == R_DRAW) wgpuRenderPassEncoderDraw(pe, 3, 1, 0, 0);
    if (k == R_INDEXED) wgpuRenderPassEncoderDrawIndexed(pe, 3, 1, 0, 0, 0);
    if (k == R_INDIRECT) wgpuRenderPassEncoderDrawIndirect(pe, ab, 0);
    if (k == R_INDEXED_INDIRECT) wgpuRenderPassEncoderDrawIndexedIndirect(pe, ab, 16);
    wgpuRenderPassEncoderEnd(pe);
    wgpuRenderPassEncoderRelease(pe);
    t_submit(e);
    static uint32_t w[128];
    memset(w, 0, sizeof w);
    bool ok = t_readback(d, data, 0, sizeof w, w);
    for (uint32_t j = 0; j < 128 && ok; j++) {
        bool good;
        if (j == 64) good = w[j] == 4;
        /* the load past the end: zero or a value inside the binding at that time (a sentinel,
         * the stored length, or 0xDEAD where the out-of-bounds store was clamped inside) */
        else if (j == 65) good = oob_load_ok(w[j], SENT_DATA, 64, 4) || w[j] == 4 || w[j] == 0xDEADu;
        else if (j == 66 || j == 67) good = w[j] == (SENT_DATA | j) || w[j] == 0xDEADu;
        else good = w[j] == (SENT_DATA | j);
        if (!good) eg_test_printf("    draw kind %u: word %u = 0x%08x\n", (unsigned)k, j, w[j]);
        ok = good;
    }
    wgpuTextureViewRelease(view);
    wgpuTextureRelease(tex);
    wgpuBindGroupRelease(bg);
    wgpuBufferRelease(ab);
    wgpuBufferRelease(ib);
    wgpuBufferRelease(data);
    return ok;
}

EG_TEST(robust, draw_paths_dynamic_storage_out_of_bounds)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayout bgl = NULL;
    WGPURenderPipeline p = frag_pipeline(d, &bgl);
    EG_EXPECT(p != NULL);
    EG_EXPECT_NO_ERROR();
    for (uint32_t k = 0; p && k < R_COUNT; k++) {
        EG_EXPECT(frag_case(d, p, bgl, (draw_kind_t)k));
        EG_EXPECT_NO_ERROR();
    }
    if (p) wgpuRenderPipelineRelease(p);
    if (bgl) wgpuBindGroupLayoutRelease(bgl);
    eg_test_device_release();
}

/* ---- D3D12: the dynamic-offset views' ring (hal/d3d12/d3d_binding.c) ---- */

#if EMGPU_HAL_D3D12

/* Each dispatch after a setBindGroup writes the group's 3 dynamic views into the submit's ring
 * part (EMGPU_D3D12_DYNAMIC_DESCRIPTORS): a submit with more is OutOfMemory naming the knob,
 * and the next submit (a fresh ring part) works. */
EG_TEST(d3d12, robust_dynamic_view_ring_exhaustion_names_the_knob)
{
    WGPUDevice d = eg_test_device("soft");
    if (d && strcmp(eg_test_backend(), "d3d12") != 0) { eg_test_device_release(); d = NULL; }
    if (!d) EG_NOT_APPLICABLE("runs in the D3D12 pass (EMGPU_TEST_BACKEND=d3d12)");
    rw_fixture_t f = { NULL, NULL };
    EG_ASSERT(rw_fixture(d, &f));
    rw_run_t r;
    rw_run_make(d, &f, &r);
    enum { PER_CB = 50 };   /* a setBindGroup + dispatch pair takes ~170 bytes of EMGPU_COMMAND_STREAM_BYTES */
    const uint32_t flushes = EMGPU_D3D12_DYNAMIC_DESCRIPTORS / 3u + 1u;
    const uint32_t cbs = (flushes + PER_CB - 1u) / PER_CB;
    EG_ASSERT(cbs <= EMGPU_MAX_COMMAND_BUFFERS);
    WGPUCommandBuffer cb[EMGPU_MAX_COMMAND_BUFFERS];
    const uint32_t dyn[3] = { DYN_OFFSET_B, DYN_OFFSET_B, DYN_OFFSET_B };
    for (uint32_t c = 0; c < cbs; c++) {
        WGPUCommandEncoder e = t_encoder(d);
        WGPUComputePassEncoder ce = wgpuCommandEncoderBeginComputePass(e, NULL);
        wgpuComputePassEncoderSetPipeline(ce, f.pipe);
        for (uint32_t i = 0; i < PER_CB; i++) {
            wgpuComputePassEncoderSetBindGroup(ce, 0, r.bg, 3, dyn);
            wgpuComputePassEncoderDispatchWorkgroups(ce, 1, 1, 1);
        }
        wgpuComputePassEncoderEnd(ce);
        wgpuComputePassEncoderRelease(ce);
        cb[c] = wgpuCommandEncoderFinish(e, NULL);
        wgpuCommandEncoderRelease(e);
    }
    EG_EXPECT_NO_ERROR();
    wgpuQueueSubmit(eg_test_queue(), cbs, cb);
    EG_EXPECT_EQ_U(eg_test_err.count, 1);
    EG_EXPECT(eg_test_err.type == WGPUErrorType_OutOfMemory);
    EG_EXPECT_STR_CONTAINS(eg_test_err.message, "EMGPU_D3D12_DYNAMIC_DESCRIPTORS");
    eg_test_printf("    %s\n", eg_test_err.message);
    eg_test_errors_reset();
    for (uint32_t c = 0; c < cbs; c++) wgpuCommandBufferRelease(cb[c]);
    /* the sentinels are intact (nothing ran), and one dispatch in a new submit works */
    rw_dispatch(d, &f, &r, false);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(check_stores(d, &r));
    EG_EXPECT(check_loads(d, &r));
    rw_run_release(&r);
    rw_fixture_release(&f);
    eg_test_device_release();
}

#endif /* EMGPU_HAL_D3D12 */
