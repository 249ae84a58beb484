/* Tests for render and compute pipeline creation: one failing case per rule from a valid
 * baseline. Limits in comments are the WebGPU spec's defaults (§3.6.2). */
#include "config/emgpu_config.h"
#include "kernel/api/render_pipeline.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/test_spirv.h"


typedef struct rp_fixture {
    WGPUDevice d;
    WGPUShaderModule m;
    WGPUVertexAttribute attrs[2];
    WGPUVertexBufferLayout vb;
    WGPUBlendState blend;
    WGPUColorTargetState target;
    WGPUFragmentState fs;
    WGPUDepthStencilState ds;
    WGPURenderPipelineDescriptor desc;
} rp_fixture_t;

/* Baseline: one vertex buffer (stride 16: float32x2 at 0, unorm8x4 at 8), one RGBA8Unorm
 * target with alpha blending, no depth-stencil, count 1. */
static bool rp_init(rp_fixture_t *f)
{
    if (!(f->d = eg_test_device("soft"))) return false;
    WGPUShaderSourceSPIRV src = WGPU_SHADER_SOURCE_SPIRV_INIT;
    src.code = eg_test_spirv_min;
    src.codeSize = EG_TEST_SPIRV_MIN_WORDS;
    WGPUShaderModuleDescriptor md = WGPU_SHADER_MODULE_DESCRIPTOR_INIT;
    md.nextInChain = &src.chain;
    f->m = wgpuDeviceCreateShaderModule(f->d, &md);
    WGPUVertexAttribute a = WGPU_VERTEX_ATTRIBUTE_INIT;
    f->attrs[0] = a;
    f->attrs[0].format = WGPUVertexFormat_Float32x2;
    f->attrs[1] = a;
    f->attrs[1].format = WGPUVertexFormat_Unorm8x4;
    f->attrs[1].offset = 8;
    f->attrs[1].shaderLocation = 1;
    WGPUVertexBufferLayout vb = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    f->vb = vb;
    f->vb.arrayStride = 16;
    f->vb.attributeCount = 2;
    f->vb.attributes = f->attrs;
    f->blend.color = (WGPUBlendComponent){ WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha };
    f->blend.alpha = (WGPUBlendComponent){ WGPUBlendOperation_Undefined, WGPUBlendFactor_Undefined, WGPUBlendFactor_Undefined };
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    f->target = t;
    f->target.format = WGPUTextureFormat_RGBA8Unorm;
    f->target.blend = &f->blend;
    f->target.writeMask = WGPUColorWriteMask_None;   /* fs_main has no output: spec needs writeMask 0 */
    WGPUFragmentState fs = WGPU_FRAGMENT_STATE_INIT;
    f->fs = fs;
    f->fs.module = f->m;
    f->fs.entryPoint = (WGPUStringView){ "fs_main", WGPU_STRLEN };
    f->fs.targetCount = 1;
    f->fs.targets = &f->target;
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    f->ds = ds;
    f->ds.format = WGPUTextureFormat_Depth24Plus;
    f->ds.depthWriteEnabled = WGPUOptionalBool_True;
    f->ds.depthCompare = WGPUCompareFunction_Less;
    WGPURenderPipelineDescriptor desc = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    f->desc = desc;
    f->desc.vertex.module = f->m;
    f->desc.vertex.entryPoint = (WGPUStringView){ "vs_main", WGPU_STRLEN };
    f->desc.vertex.bufferCount = 1;
    f->desc.vertex.buffers = &f->vb;
    f->desc.fragment = &f->fs;
    eg_test_errors_reset();
    return true;
}

static void rp_release(rp_fixture_t *f)
{
    wgpuShaderModuleRelease(f->m);
    eg_test_device_release();
}

#define EXPECT_RP_ERROR(f, CODE, frag) \
    do { WGPURenderPipeline p_ = wgpuDeviceCreateRenderPipeline((f)->d, &(f)->desc); EG_EXPECT(p_ != NULL); \
         EG_EXPECT_ERROR(WGPUErrorType_Validation, CODE, frag); wgpuRenderPipelineRelease(p_); } while (0)

EG_TEST(render_pipeline, valid_baseline_resolved)
{
    rp_fixture_t f;
    if (!rp_init(&f)) EG_SKIP("soft backend not compiled in");
    f.desc.depthStencil = &f.ds;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_NO_ERROR();
    EG_ASSERT(p != NULL);
    EG_EXPECT_EQ_U(p->topology, WGPUPrimitiveTopology_TriangleList);   /* Undefined -> TriangleList */
    EG_EXPECT_EQ_U(p->cull_mode, WGPUCullMode_None);
    EG_EXPECT_EQ_U(p->vertex_buffers[0].step_mode, WGPUVertexStepMode_Vertex);
    EG_EXPECT_EQ_U(p->attrib_count, 2);
    EG_EXPECT_EQ_U(p->color_targets[0].blend.alpha.operation, WGPUBlendOperation_Add);
    EG_EXPECT_EQ_U(p->color_targets[0].blend.alpha.srcFactor, WGPUBlendFactor_One);
    EG_EXPECT_EQ_U(p->depth_stencil.stencilFront.compare, WGPUCompareFunction_Always);
    EG_EXPECT_STR_CONTAINS(p->vertex.entry_point, "vs_main");
    wgpuShaderModuleRelease(f.m);                                       /* the pipeline holds a ref */
    f.m = NULL;
    wgpuRenderPipelineAddRef(p);
    wgpuRenderPipelineRelease(p);
    wgpuRenderPipelineRelease(p);
    eg_test_device_release();
}

EG_TEST(render_pipeline, vertex_rules)
{
    rp_fixture_t f;
    if (!rp_init(&f)) EG_SKIP("soft backend not compiled in");
    f.vb.arrayStride = 18;
    EXPECT_RP_ERROR(&f, RP_VERTEX_STRIDE, "multiple of 4");
    f.vb.arrayStride = 2052;                                            /* maxVertexBufferArrayStride 2048 */
    EXPECT_RP_ERROR(&f, RP_VERTEX_STRIDE, "maxVertexBufferArrayStride (2048)");
    f.vb.arrayStride = 8;                                               /* attr 1 at 8 + 4 > 8 */
    EXPECT_RP_ERROR(&f, RP_VERTEX_ATTRIB_RANGE, "offset 8");
    f.vb.arrayStride = 16;
    f.attrs[1].offset = 6;                                              /* min(4, 4) = 4 */
    EXPECT_RP_ERROR(&f, RP_VERTEX_ATTRIB_ALIGNMENT, "offset 6");
    f.attrs[1].offset = 8;
    f.attrs[1].shaderLocation = 0;
    EXPECT_RP_ERROR(&f, RP_VERTEX_ATTRIB_LOCATION, "shaderLocation 0");
    f.attrs[1].shaderLocation = 16;                                     /* maxVertexAttributes 16 */
    EXPECT_RP_ERROR(&f, RP_VERTEX_ATTRIB_LOCATION, "shaderLocation 16");
    f.attrs[1].shaderLocation = 1;
    f.attrs[1].format = (WGPUVertexFormat)0;               /* Undefined */
    EXPECT_RP_ERROR(&f, ENUM_VALUE, "attributes[1].format");
    f.attrs[1].format = WGPUVertexFormat_Unorm8x4;
    f.desc.vertex.bufferCount = 9;                                      /* maxVertexBuffers 8 */
    EXPECT_RP_ERROR(&f, RP_VERTEX_BUFFER_COUNT, "maxVertexBuffers (8)");
    f.desc.vertex.bufferCount = 1;
    f.desc.vertex.constantCount = 1;
    EXPECT_RP_ERROR(&f, NULL_DESCRIPTOR, "vertex.constants is NULL but constantCount is 1");
    f.desc.vertex.constantCount = 0;
    f.desc.vertex.module = NULL;
    EXPECT_RP_ERROR(&f, NULL_HANDLE, "vertex.module");
    rp_release(&f);
}

EG_TEST(render_pipeline, primitive_and_multisample_rules)
{
    rp_fixture_t f;
    if (!rp_init(&f)) EG_SKIP("soft backend not compiled in");
    f.desc.primitive.stripIndexFormat = WGPUIndexFormat_Uint16;         /* list topology */
    EXPECT_RP_ERROR(&f, RP_STRIP_INDEX_FORMAT, "stripIndexFormat");
    f.desc.primitive.stripIndexFormat = WGPUIndexFormat_Undefined;
    f.desc.primitive.unclippedDepth = 1;                                /* feature not requested */
    EXPECT_RP_ERROR(&f, RP_UNCLIPPED_DEPTH, "DepthClipControl");
    f.desc.primitive.unclippedDepth = 0;
    f.desc.multisample.count = 2;
    EXPECT_RP_ERROR(&f, RP_MULTISAMPLE_COUNT, "count 2");
    f.desc.multisample.count = 1;
    f.desc.multisample.alphaToCoverageEnabled = 1;                      /* needs count > 1 */
    EXPECT_RP_ERROR(&f, RP_ALPHA_TO_COVERAGE, "count > 1");
    f.desc.multisample.count = 4;                                       /* fs_main writes no location 0 */
    EXPECT_RP_ERROR(&f, RP_TARGET_OUTPUT, "alphaToCoverageEnabled needs a fragment output at location 0");
    rp_release(&f);
}

EG_TEST(render_pipeline, depth_stencil_rules)
{
    rp_fixture_t f;
    if (!rp_init(&f)) EG_SKIP("soft backend not compiled in");
    f.desc.depthStencil = &f.ds;
    f.ds.format = WGPUTextureFormat_RGBA8Unorm;
    EXPECT_RP_ERROR(&f, RP_DEPTH_STENCIL_FORMAT, "RGBA8Unorm");
    f.ds.format = WGPUTextureFormat_Depth24Plus;
    f.ds.depthWriteEnabled = WGPUOptionalBool_Undefined;
    EXPECT_RP_ERROR(&f, RP_DEPTH_WRITE_REQUIRED, "depthWriteEnabled");
    f.ds.depthWriteEnabled = WGPUOptionalBool_True;
    f.ds.depthCompare = WGPUCompareFunction_Undefined;
    EXPECT_RP_ERROR(&f, RP_DEPTH_COMPARE_REQUIRED, "depthCompare");
    f.ds.depthCompare = WGPUCompareFunction_Less;
    f.ds.stencilFront.passOp = WGPUStencilOperation_Replace;            /* Depth24Plus has no stencil */
    EXPECT_RP_ERROR(&f, RP_STENCIL_ASPECT, "no stencil aspect");
    f.ds.stencilFront.passOp = WGPUStencilOperation_Undefined;
    f.ds.format = WGPUTextureFormat_Stencil8;                           /* depth write without depth */
    EXPECT_RP_ERROR(&f, RP_DEPTH_ASPECT, "no depth aspect");
    f.ds.format = WGPUTextureFormat_Depth24Plus;
    f.ds.depthBias = 1;
    f.desc.primitive.topology = WGPUPrimitiveTopology_LineList;
    EXPECT_RP_ERROR(&f, RP_DEPTH_BIAS, "depthBias");
    rp_release(&f);
}

EG_TEST(render_pipeline, fragment_rules)
{
    rp_fixture_t f;
    if (!rp_init(&f)) EG_SKIP("soft backend not compiled in");
    f.target.format = WGPUTextureFormat_Depth24Plus;
    EXPECT_RP_ERROR(&f, RP_COLOR_FORMAT, "Depth24Plus");
    f.target.format = WGPUTextureFormat_R32Sint;                        /* not blendable */
    EXPECT_RP_ERROR(&f, RP_BLEND_FORMAT, "not blendable");
    f.target.format = WGPUTextureFormat_RGBA8Unorm;
    f.blend.color.operation = WGPUBlendOperation_Max;                   /* needs One factors */
    EXPECT_RP_ERROR(&f, RP_BLEND_COMPONENT, "Min/Max");
    f.blend.color.operation = WGPUBlendOperation_Add;
    f.blend.color.srcFactor = WGPUBlendFactor_Src1;                     /* DualSourceBlending */
    EXPECT_RP_ERROR(&f, RP_BLEND_COMPONENT, "DualSourceBlending");
    f.blend.color.srcFactor = WGPUBlendFactor_SrcAlpha;
    f.target.writeMask = 0x10;
    EXPECT_RP_ERROR(&f, RP_WRITE_MASK, "writeMask 0x10");
    f.target.writeMask = WGPUColorWriteMask_None;
    f.fs.targetCount = 9;                                               /* maxColorAttachments 8 */
    EXPECT_RP_ERROR(&f, RP_COLOR_TARGET_COUNT, "maxColorAttachments (8)");
    WGPUColorTargetState ts[5];
    for (uint32_t i = 0; i < 5; i++) { ts[i] = f.target; ts[i].format = WGPUTextureFormat_RGBA32Float; ts[i].blend = NULL; }
    f.fs.targets = ts;                                                  /* 16 B each > 32 B per sample */
    f.fs.targetCount = 3;
    EXPECT_RP_ERROR(&f, RP_COLOR_BYTES_PER_SAMPLE, "maxColorAttachmentBytesPerSample (32)");
    ts[0].format = WGPUTextureFormat_Undefined;                         /* all null, no depth */
    f.fs.targetCount = 1;
    EXPECT_RP_ERROR(&f, RP_NO_ATTACHMENT, "no attachment");
    rp_release(&f);
}

EG_TEST(render_pipeline, pool_capacity_plus_one)
{
    rp_fixture_t f;
    if (!rp_init(&f)) EG_SKIP("soft backend not compiled in");
    static WGPURenderPipeline ps[EMGPU_MAX_RENDER_PIPELINES];
    for (uint32_t i = 0; i < EMGPU_MAX_RENDER_PIPELINES; i++) ps[i] = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(wgpuDeviceCreateRenderPipeline(f.d, &f.desc) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_RENDER_PIPELINES");
    for (uint32_t i = 0; i < EMGPU_MAX_RENDER_PIPELINES; i++) wgpuRenderPipelineRelease(ps[i]);
    rp_release(&f);
}

EG_TEST(compute_pipeline, rules_and_pool)
{
    rp_fixture_t f;
    if (!rp_init(&f)) EG_SKIP("soft backend not compiled in");
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.compute.module = f.m;
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(f.d, &cd);  /* auto layout, default entry */
    EG_EXPECT_NO_ERROR();
    wgpuComputePipelineAddRef(p);
    wgpuComputePipelineRelease(p);
    wgpuComputePipelineRelease(p);
    cd.compute.constantCount = 2;
    p = wgpuDeviceCreateComputePipeline(f.d, &cd);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, NULL_DESCRIPTOR, "compute.constants is NULL but constantCount is 2");
    wgpuComputePipelineRelease(p);
    cd.compute.constantCount = 0;
    cd.compute.entryPoint = (WGPUStringView){ "an_entry_point_name_longer_than_31_bytes", WGPU_STRLEN };
    p = wgpuDeviceCreateComputePipeline(f.d, &cd);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PIPE_ENTRY_POINT, "EMGPU_ENTRY_POINT_NAME_MAX");
    wgpuComputePipelineRelease(p);
    cd.compute.entryPoint = (WGPUStringView){ NULL, WGPU_STRLEN };
    static WGPUComputePipeline ps[EMGPU_MAX_COMPUTE_PIPELINES];
    for (uint32_t i = 0; i < EMGPU_MAX_COMPUTE_PIPELINES; i++) ps[i] = wgpuDeviceCreateComputePipeline(f.d, &cd);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(wgpuDeviceCreateComputePipeline(f.d, &cd) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_COMPUTE_PIPELINES");
    for (uint32_t i = 0; i < EMGPU_MAX_COMPUTE_PIPELINES; i++) wgpuComputePipelineRelease(ps[i]);
    rp_release(&f);
}
