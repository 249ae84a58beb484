/* Tests for pipelines vs shaders: reflection, bindings vs layout, vertex/inter-stage/target rules,
 * layout "auto", GetBindGroupLayout and constants. Real GLSL shaders (tests/shaders/iface_*).
 * One failing case per rule from a valid baseline; limits are the WebGPU spec defaults. */
#include "config/emgpu_config.h"
#include "kernel/api/bind_group_layout.h"
#include "kernel/api/compute_pipeline.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/shader_module.h"
#include "tests/harness/test_device.h"
#include "tests/unit/cmd_test_util.h"
#include "tests/shaders/spv_embed.h"

static WGPUShaderModule module_of(WGPUDevice d, const char *name)
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

typedef struct fx {
    WGPUDevice d;
    WGPUShaderModule vs, fs;
    WGPUVertexAttribute attrs[2];
    WGPUVertexBufferLayout vb;
    WGPUColorTargetState targets[2];
    WGPUFragmentState frag;
    WGPUBindGroupLayoutEntry e[3];
    WGPURenderPipelineDescriptor desc;
} fx_t;

/* Baseline for iface_basic.vert/.frag: attributes loc 0 Float32x2, loc 1 Uint32x2 (stride 16),
 * one RGBA8Unorm target; layout entries for group 0 (uniform 80 B, float texture, sampler). */
static bool fx_init(fx_t *f, const char *vs, const char *fs)
{
    if (!(f->d = eg_test_device("soft"))) return false;
    f->vs = module_of(f->d, vs);
    f->fs = module_of(f->d, fs);
    WGPUVertexAttribute a = WGPU_VERTEX_ATTRIBUTE_INIT;
    f->attrs[0] = a;
    f->attrs[0].format = WGPUVertexFormat_Float32x2;
    f->attrs[1] = a;
    f->attrs[1].format = WGPUVertexFormat_Uint32x2;
    f->attrs[1].offset = 8;
    f->attrs[1].shaderLocation = 1;
    WGPUVertexBufferLayout vb = WGPU_VERTEX_BUFFER_LAYOUT_INIT;
    f->vb = vb;
    f->vb.arrayStride = 16;
    f->vb.attributeCount = 2;
    f->vb.attributes = f->attrs;
    WGPUColorTargetState t = WGPU_COLOR_TARGET_STATE_INIT;
    f->targets[0] = f->targets[1] = t;
    f->targets[0].format = f->targets[1].format = WGPUTextureFormat_RGBA8Unorm;
    WGPUFragmentState fsd = WGPU_FRAGMENT_STATE_INIT;
    f->frag = fsd;
    f->frag.module = f->fs;
    f->frag.targetCount = 1;
    f->frag.targets = f->targets;
    WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    for (uint32_t i = 0; i < 3; i++) { f->e[i] = e; f->e[i].binding = i; f->e[i].visibility = WGPUShaderStage_Fragment; }
    f->e[0].visibility |= WGPUShaderStage_Vertex;
    f->e[0].buffer.type = WGPUBufferBindingType_Uniform;
    f->e[0].buffer.minBindingSize = 80;                 /* mat4 (64) + vec4 (16) */
    f->e[1].texture.sampleType = WGPUTextureSampleType_Float;
    f->e[1].texture.viewDimension = WGPUTextureViewDimension_2D;
    f->e[2].sampler.type = WGPUSamplerBindingType_Filtering;
    WGPURenderPipelineDescriptor desc = WGPU_RENDER_PIPELINE_DESCRIPTOR_INIT;
    f->desc = desc;
    f->desc.vertex.module = f->vs;
    f->desc.vertex.bufferCount = 1;
    f->desc.vertex.buffers = &f->vb;
    f->desc.fragment = &f->frag;
    eg_test_errors_reset();
    return f->vs && f->fs;
}

static void fx_release(fx_t *f)
{
    wgpuShaderModuleRelease(f->vs);
    wgpuShaderModuleRelease(f->fs);
    eg_test_device_release();
}

/* Creates the explicit layout from f->e (n entries) and the pipeline; returns the pipeline. */
static WGPURenderPipeline fx_create(fx_t *f, uint32_t n)
{
    WGPUBindGroupLayoutDescriptor bd = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bd.entryCount = n;
    bd.entries = f->e;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(f->d, &bd);
    WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pd.bindGroupLayoutCount = 1;
    pd.bindGroupLayouts = &bgl;
    f->desc.layout = wgpuDeviceCreatePipelineLayout(f->d, &pd);
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(f->d, &f->desc);
    wgpuPipelineLayoutRelease(f->desc.layout);
    wgpuBindGroupLayoutRelease(bgl);
    f->desc.layout = NULL;
    return p;
}

#define EXPECT_FAIL(f, n, CODE, frag) \
    do { WGPURenderPipeline p_ = fx_create((f), (n)); EG_EXPECT(p_ != NULL); \
         EG_EXPECT_ERROR(WGPUErrorType_Validation, CODE, frag); wgpuRenderPipelineRelease(p_); } while (0)

EG_TEST(pipeline_iface, reflection_static_use_and_io)
{
    fx_t f;
    if (!fx_init(&f, "iface_basic.vert", "iface_basic.frag")) EG_SKIP("soft backend or shaders missing");
    const eg_shader_entry_t *vs = &f.vs->spirv.entries[0], *fs = &f.fs->spirv.entries[0];
    EG_EXPECT_EQ_U(vs->binding_count, 1);                 /* the uniform block only */
    EG_EXPECT_EQ_U(vs->bindings[0].min_size_B, 80);
    EG_EXPECT_EQ_U(fs->binding_count, 3);                 /* t_unused (set 1) is not used */
    EG_EXPECT_EQ_U(fs->pair_count, 1);
    EG_EXPECT_EQ_U(fs->bindings[fs->pairs[0].texture].binding, 1);
    EG_EXPECT_EQ_U(fs->bindings[fs->pairs[0].sampler].binding, 2);
    EG_EXPECT_EQ_U(fs->bindings[1].used_filtered, 1);
    EG_EXPECT_EQ_U(vs->output_count, 2);
    EG_EXPECT(vs->builtins_out & EG_SHADER_BUILTIN_POSITION);
    for (uint32_t i = 0; i < fs->input_count; i++)
        EG_EXPECT_EQ_U(fs->inputs[i].interpolation,
                       fs->inputs[i].location == 1 ? EG_SHADER_INTERP_FLAT : EG_SHADER_INTERP_PERSPECTIVE);
    WGPURenderPipeline p = fx_create(&f, 3);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(p && !p->obj.invalid && p->layout != NULL);
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

EG_TEST(pipeline_iface, binding_rules)
{
    fx_t f;
    if (!fx_init(&f, "iface_basic.vert", "iface_basic.frag")) EG_SKIP("soft backend or shaders missing");
    EXPECT_FAIL(&f, 2, PIPE_BINDING_MISSING, "group 0 binding 2");           /* no sampler entry */
    f.e[1].visibility = WGPUShaderStage_Vertex;
    EXPECT_FAIL(&f, 3, PIPE_BINDING_VISIBILITY, "group 0 binding 1");
    f.e[1].visibility = WGPUShaderStage_Fragment;
    f.e[0].buffer.type = WGPUBufferBindingType_ReadOnlyStorage;
    EXPECT_FAIL(&f, 3, PIPE_BINDING_TYPE, "uniform buffer in the shader");
    f.e[0].buffer.type = WGPUBufferBindingType_Uniform;
    f.e[0].buffer.minBindingSize = 64;                                        /* < 80 */
    EXPECT_FAIL(&f, 3, PIPE_MIN_BINDING_SIZE, "minBindingSize 64");
    f.e[0].buffer.minBindingSize = 0;                                         /* 0: checked at draw */
    f.e[1].texture.sampleType = WGPUTextureSampleType_Sint;
    EXPECT_FAIL(&f, 3, PIPE_BINDING_TYPE, "sampleType");
    f.e[1].texture.sampleType = WGPUTextureSampleType_Float;
    f.e[1].texture.viewDimension = WGPUTextureViewDimension_2DArray;
    EXPECT_FAIL(&f, 3, PIPE_BINDING_TYPE, "viewDimension");
    f.e[1].texture.viewDimension = WGPUTextureViewDimension_2D;
    f.e[2].sampler.type = WGPUSamplerBindingType_Comparison;                  /* shader: no Dref */
    EXPECT_FAIL(&f, 3, PIPE_BINDING_TYPE, "sampler.type Comparison");
    f.e[2].sampler.type = WGPUSamplerBindingType_Filtering;
    f.e[1].texture.sampleType = WGPUTextureSampleType_UnfilterableFloat;
    EXPECT_FAIL(&f, 3, PIPE_SAMPLER_FILTERING, "UnfilterableFloat");
    f.e[2].sampler.type = WGPUSamplerBindingType_NonFiltering;                /* the fix the message names */
    WGPURenderPipeline p = fx_create(&f, 3);
    EG_EXPECT_NO_ERROR();
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

EG_TEST(pipeline_iface, vertex_and_target_rules)
{
    fx_t f;
    if (!fx_init(&f, "iface_basic.vert", "iface_basic.frag")) EG_SKIP("soft backend or shaders missing");
    f.vb.attributeCount = 1;                                                  /* location 1 unfed */
    EXPECT_FAIL(&f, 3, RP_VERTEX_INPUT, "location 1");
    f.vb.attributeCount = 2;
    f.attrs[1].format = WGPUVertexFormat_Float32x2;                           /* shader: uvec2 */
    EXPECT_FAIL(&f, 3, RP_VERTEX_INPUT, "shader input is u32");
    f.attrs[1].format = WGPUVertexFormat_Uint32x2;
    f.targets[0].format = WGPUTextureFormat_R32Uint;                          /* output is vec4 f32 */
    EXPECT_FAIL(&f, 3, RP_TARGET_OUTPUT, "needs a u32 output");
    f.targets[0].format = WGPUTextureFormat_RGBA8Unorm;
    f.frag.targetCount = 2;                                                   /* no output at 1 */
    EXPECT_FAIL(&f, 3, RP_TARGET_OUTPUT, "targets[1].writeMask");
    f.targets[1].writeMask = WGPUColorWriteMask_None;
    WGPURenderPipeline p = fx_create(&f, 3);
    EG_EXPECT_NO_ERROR();
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

EG_TEST(pipeline_iface, inter_stage_depth_and_blend_rules)
{
    fx_t f;
    if (!fx_init(&f, "iface_depth.vert", "iface_depth.frag")) EG_SKIP("soft backend or shaders missing");
    f.vb.attributeCount = 1;
    f.targets[0].format = WGPUTextureFormat_RG16Float;                        /* blendable, 2 components */
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth24Plus;
    ds.depthWriteEnabled = WGPUOptionalBool_True;
    ds.depthCompare = WGPUCompareFunction_Less;
    f.desc.depthStencil = &ds;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);      /* layout auto */
    EG_EXPECT_NO_ERROR();
    WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(p, 0);
    EG_EXPECT_NO_ERROR();
    EG_ASSERT(bgl && bgl->entry_count == 2);
    EG_EXPECT_EQ_U(bgl->entries[0].sample_type, WGPUTextureSampleType_Depth);  /* Depth = 1 image */
    EG_EXPECT_EQ_U(bgl->entries[1].sampler_type, WGPUSamplerBindingType_Comparison); /* Dref use */
    wgpuBindGroupLayoutRelease(bgl);
    wgpuRenderPipelineRelease(p);
    f.desc.depthStencil = NULL;
    p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, RP_FRAG_DEPTH, "FragDepth");
    wgpuRenderPipelineRelease(p);
    f.desc.depthStencil = &ds;
    f.targets[0].format = WGPUTextureFormat_RGBA8Unorm;                        /* 4 > vec2 */
    p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, RP_TARGET_OUTPUT, "has 4 components");
    wgpuRenderPipelineRelease(p);
    f.targets[0].format = WGPUTextureFormat_RG16Float;
    WGPUBlendState blend = WGPU_BLEND_STATE_INIT;
    blend.color.srcFactor = WGPUBlendFactor_SrcAlpha;                          /* output has no alpha */
    f.targets[0].blend = &blend;
    p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, RP_TARGET_OUTPUT, "source alpha");
    wgpuRenderPipelineRelease(p);
    f.targets[0].blend = NULL;
    /* Explicit layout: the shader compares (Dref) with a depth texture. */
    f.e[0].visibility = f.e[1].visibility = WGPUShaderStage_Fragment;
    f.e[0].buffer.type = WGPUBufferBindingType_BindingNotUsed;
    f.e[0].texture.sampleType = WGPUTextureSampleType_Depth;
    f.e[0].texture.viewDimension = WGPUTextureViewDimension_2D;
    f.e[1].texture.sampleType = WGPUTextureSampleType_BindingNotUsed;
    f.e[1].sampler.type = WGPUSamplerBindingType_Comparison;
    p = fx_create(&f, 2);
    EG_EXPECT_NO_ERROR();
    wgpuRenderPipelineRelease(p);
    f.e[1].sampler.type = WGPUSamplerBindingType_Filtering;                    /* shader: Dref use */
    EXPECT_FAIL(&f, 2, PIPE_BINDING_TYPE, "comparison sampler in the shader");
    f.e[1].sampler.type = WGPUSamplerBindingType_Comparison;
    f.e[0].texture.sampleType = WGPUTextureSampleType_UnfilterableFloat;       /* shader: depth image */
    EXPECT_FAIL(&f, 2, PIPE_BINDING_TYPE, "shader's depth texture");
    wgpuShaderModuleRelease(f.vs);                                             /* vec4 + flat uint outputs */
    f.vs = module_of(f.d, "iface_basic.vert");
    f.desc.vertex.module = f.vs;
    f.vb.attributeCount = 2;
    p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, RP_INTER_STAGE, "location 0: the vertex shader writes f32 x4");
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

EG_TEST(pipeline_iface, auto_layout_render_and_get_bind_group_layout)
{
    fx_t f;
    if (!fx_init(&f, "iface_basic.vert", "iface_basic.frag")) EG_SKIP("soft backend or shaders missing");
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_NO_ERROR();
    EG_ASSERT(p && p->layout && p->layout->group_count == 1);
    WGPUBindGroupLayout bgl = wgpuRenderPipelineGetBindGroupLayout(p, 0);
    EG_ASSERT(bgl && bgl->entry_count == 3);
    /* The uniform block is used by both stages: one entry visible to both, min size 80. */
    EG_EXPECT_EQ_U(bgl->entries[0].visibility, WGPUShaderStage_Vertex | WGPUShaderStage_Fragment);
    EG_EXPECT_EQ_U(bgl->entries[0].min_binding_size_B, 80);
    EG_EXPECT_EQ_U(bgl->entries[1].sample_type, WGPUTextureSampleType_Float);  /* sampled with a sampler */
    EG_EXPECT_EQ_U(bgl->entries[2].sampler_type, WGPUSamplerBindingType_Filtering);
    EG_EXPECT(bgl->entries[0].exclusive_id != 0);       /* group-equivalent only to itself */
    WGPUBindGroupLayout bad = wgpuRenderPipelineGetBindGroupLayout(p, 1);     /* layout has 1 group */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PIPE_BGL_INDEX, "groupIndex 1");
    EG_EXPECT(bad && bad->obj.invalid);
    wgpuBindGroupLayoutRelease(bad);
    bad = wgpuRenderPipelineGetBindGroupLayout(p, 4);                           /* maxBindGroups 4 */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PIPE_BGL_INDEX, "maxBindGroups (4)");
    wgpuBindGroupLayoutRelease(bad);
    wgpuRenderPipelineRelease(p);                  /* the layout outlives the pipeline by our ref */
    EG_EXPECT_EQ_U(bgl->entry_count, 3);
    wgpuBindGroupLayoutRelease(bgl);
    fx_release(&f);
}

EG_TEST(pipeline_iface, compute_auto_layout_limits_and_constants)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUShaderModule m = module_of(d, "iface_store.comp");
    EG_ASSERT(m != NULL);
    eg_test_errors_reset();
    const eg_shader_entry_t *e = &m->spirv.entries[0];
    EG_EXPECT_EQ_U(e->binding_count, 3);                 /* set 1 "Unused" is not used */
    EG_EXPECT_EQ_U(e->workgroup_storage_B, 256);         /* float[64] */
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.compute.module = m;
    WGPUConstantEntry c = WGPU_CONSTANT_ENTRY_INIT;
    c.key = (WGPUStringView){ "3", WGPU_STRLEN };        /* constant_id = 3 */
    c.value = 5;
    cd.compute.constantCount = 1;
    cd.compute.constants = &c;
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    EG_EXPECT_NO_ERROR();
    EG_ASSERT(p && p->layout);
    EG_EXPECT_EQ_U(p->compute.constants[0].spec_id, 3);
    EG_EXPECT_EQ_U(p->compute.constants[0].bits, 5);
    WGPUBindGroupLayout bgl = wgpuComputePipelineGetBindGroupLayout(p, 0);
    EG_ASSERT(bgl && bgl->entry_count == 3);
    EG_EXPECT_EQ_U(bgl->entries[0].buffer_type, WGPUBufferBindingType_Storage);
    EG_EXPECT_EQ_U(bgl->entries[0].min_binding_size_B, 8);          /* uint + one float element */
    EG_EXPECT_EQ_U(bgl->entries[1].buffer_type, WGPUBufferBindingType_ReadOnlyStorage);
    EG_EXPECT_EQ_U(bgl->entries[1].min_binding_size_B, 16);         /* one vec4 element */
    EG_EXPECT_EQ_U(bgl->entries[2].access, WGPUStorageTextureAccess_WriteOnly);
    EG_EXPECT_EQ_U(bgl->entries[2].format, WGPUTextureFormat_RGBA8Unorm);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuComputePipelineRelease(p);
    c.key = (WGPUStringView){ "4", WGPU_STRLEN };
    p = wgpuDeviceCreateComputePipeline(d, &cd);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PIPE_CONSTANTS, "key \"4\" is not a pipeline-overridable");
    wgpuComputePipelineRelease(p);
    c.key = (WGPUStringView){ "3", WGPU_STRLEN };
    c.value = -1;                                         /* SCALE is a uint */
    p = wgpuDeviceCreateComputePipeline(d, &cd);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PIPE_CONSTANTS, "not representable as u32");
    wgpuComputePipelineRelease(p);
    c.value = 5;
    WGPUConstantEntry two[2] = { c, c };                  /* SpecId 3 twice */
    cd.compute.constantCount = 2;
    cd.compute.constants = two;
    p = wgpuDeviceCreateComputePipeline(d, &cd);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PIPE_CONSTANTS, "SpecId 3 is given twice");
    wgpuComputePipelineRelease(p);
    wgpuShaderModuleRelease(m);
    eg_test_device_release();
}

/* Explicit one-group layout from `e` for a compute pipeline of module m. */
static WGPUComputePipeline compute_with(WGPUDevice d, WGPUShaderModule m, const WGPUBindGroupLayoutEntry *e, uint32_t n)
{
    WGPUBindGroupLayoutDescriptor bd = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bd.entryCount = n;
    bd.entries = e;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(d, &bd);
    WGPUPipelineLayoutDescriptor pd = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pd.bindGroupLayoutCount = 1;
    pd.bindGroupLayouts = &bgl;
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.layout = wgpuDeviceCreatePipelineLayout(d, &pd);
    cd.compute.module = m;
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    wgpuPipelineLayoutRelease(cd.layout);
    wgpuBindGroupLayoutRelease(bgl);
    return p;
}

#define EXPECT_CP_FAIL(d, m, e, n, CODE, frag) \
    do { WGPUComputePipeline p_ = compute_with((d), (m), (e), (n)); EG_EXPECT(p_ != NULL); \
         EG_EXPECT_ERROR(WGPUErrorType_Validation, CODE, frag); wgpuComputePipelineRelease(p_); } while (0)

EG_TEST(pipeline_iface, storage_buffer_and_texture_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUShaderModule m = module_of(d, "iface_store.comp");
    EG_ASSERT(m != NULL);
    WGPUBindGroupLayoutEntry e[3];
    WGPUBindGroupLayoutEntry z = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    for (uint32_t i = 0; i < 3; i++) { e[i] = z; e[i].binding = i; e[i].visibility = WGPUShaderStage_Compute; }
    e[0].buffer.type = WGPUBufferBindingType_Storage;
    e[1].buffer.type = WGPUBufferBindingType_ReadOnlyStorage;
    e[2].storageTexture.access = WGPUStorageTextureAccess_WriteOnly;   /* GLSL writeonly: NonReadable */
    e[2].storageTexture.format = WGPUTextureFormat_RGBA8Unorm;         /* GLSL rgba8 */
    e[2].storageTexture.viewDimension = WGPUTextureViewDimension_2D;
    eg_test_errors_reset();
    WGPUComputePipeline p = compute_with(d, m, e, 3);
    EG_EXPECT_NO_ERROR();
    wgpuComputePipelineRelease(p);
    e[2].storageTexture.access = WGPUStorageTextureAccess_ReadOnly;
    EXPECT_CP_FAIL(d, m, e, 3, PIPE_BINDING_TYPE, "storageTexture.access");
    e[2].storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
    e[2].storageTexture.format = WGPUTextureFormat_RGBA8Uint;
    EXPECT_CP_FAIL(d, m, e, 3, PIPE_BINDING_TYPE, "storageTexture.format");
    e[2].storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
    e[0].buffer.type = WGPUBufferBindingType_ReadOnlyStorage;          /* the shader writes it */
    EXPECT_CP_FAIL(d, m, e, 3, PIPE_BINDING_TYPE, "read-write storage buffer in the shader");
    e[0].buffer.type = WGPUBufferBindingType_Storage;
    e[1].buffer.minBindingSize = 12;                                   /* one vec4 element: 16 */
    EXPECT_CP_FAIL(d, m, e, 3, PIPE_MIN_BINDING_SIZE, "minBindingSize 12");
    wgpuShaderModuleRelease(m);
    eg_test_device_release();
}

EG_TEST(pipeline_iface, workgroup_limits)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.compute.module = module_of(d, "iface_big.comp");
    eg_test_errors_reset();
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PIPE_WORKGROUP_SIZE, "16x16x2 = 512 invocations");
    wgpuComputePipelineRelease(p);
    wgpuShaderModuleRelease(cd.compute.module);
    cd.compute.module = module_of(d, "iface_shared.comp");
    p = wgpuDeviceCreateComputePipeline(d, &cd);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PIPE_WORKGROUP_STORAGE, "32768 bytes");   /* 8192 * 4 */
    wgpuComputePipelineRelease(p);
    wgpuShaderModuleRelease(cd.compute.module);
    eg_test_device_release();
}

EG_TEST(pipeline_iface, inter_stage_interpolation_and_limit)
{
    fx_t f;
    if (!fx_init(&f, "iface_basic.vert", "iface_flat.frag")) EG_SKIP("soft backend or shaders missing");
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, RP_INTER_STAGE, "location 0: interpolation differs");
    wgpuRenderPipelineRelease(p);
    wgpuShaderModuleRelease(f.vs);
    f.vs = module_of(f.d, "iface_many.vert");          /* 16 outputs */
    f.desc.vertex.module = f.vs;
    f.attrs[0].format = WGPUVertexFormat_Float32x4;
    f.vb.attributeCount = 1;
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth16Unorm;
    ds.depthWriteEnabled = WGPUOptionalBool_False;
    f.desc.depthStencil = &ds;
    f.desc.fragment = NULL;
    p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);  /* 16 <= maxInterStageShaderVariables (16) */
    EG_EXPECT_NO_ERROR();
    wgpuRenderPipelineRelease(p);
    f.desc.primitive.topology = WGPUPrimitiveTopology_PointList;
    p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, RP_INTER_STAGE_LIMIT, "point-list");
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

EG_TEST(pipeline_iface, auto_layout_vertex_writable_storage)
{
    fx_t f;
    if (!fx_init(&f, "iface_rw.vert", "iface_basic.frag")) EG_SKIP("soft backend or shaders missing");
    WGPUDepthStencilState ds = WGPU_DEPTH_STENCIL_STATE_INIT;
    ds.format = WGPUTextureFormat_Depth16Unorm;
    ds.depthWriteEnabled = WGPUOptionalBool_False;
    f.desc.depthStencil = &ds;
    f.desc.fragment = NULL;
    f.desc.vertex.bufferCount = 0;
    WGPURenderPipeline p = wgpuDeviceCreateRenderPipeline(f.d, &f.desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BGL_VERTEX_WRITABLE, "may not be visible to Vertex");
    EG_EXPECT(p && p->obj.invalid);
    wgpuRenderPipelineRelease(p);
    fx_release(&f);
}

EG_TEST(pipeline_iface, auto_layout_is_exclusive_to_its_pipeline)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.compute.module = module_of(d, "iface_one.comp");
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    /* A layout the application made with the same entry as the derived one (spec: a default
     * layout's groups are group-equivalent only to themselves). */
    WGPUBindGroupLayoutEntry le = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    le.visibility = WGPUShaderStage_Compute;
    le.buffer.type = WGPUBufferBindingType_Storage;
    le.buffer.minBindingSize = 4;                       /* one float of the runtime array */
    WGPUBindGroupLayoutDescriptor bd = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bd.entryCount = 1;
    bd.entries = &le;
    WGPUBindGroupLayout user = wgpuDeviceCreateBindGroupLayout(d, &bd);
    WGPUBindGroupLayout derived = wgpuComputePipelineGetBindGroupLayout(p, 0);
    EG_EXPECT_NO_ERROR();
    WGPUBuffer buf = t_buffer(d, WGPUBufferUsage_Storage, 16);
    WGPUBindGroupEntry be = WGPU_BIND_GROUP_ENTRY_INIT;
    be.buffer = buf;
    be.size = 16;
    WGPUBindGroupDescriptor gd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    gd.entryCount = 1;
    gd.entries = &be;
    gd.layout = user;
    WGPUBindGroup g_user = wgpuDeviceCreateBindGroup(d, &gd);
    gd.layout = derived;
    WGPUBindGroup g_derived = wgpuDeviceCreateBindGroup(d, &gd);
    EG_EXPECT_NO_ERROR();
    for (uint32_t i = 0; i < 2; i++) {
        WGPUCommandEncoder e = t_encoder(d);
        WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(e, NULL);
        wgpuComputePassEncoderSetPipeline(pass, p);
        wgpuComputePassEncoderSetBindGroup(pass, 0, i ? g_derived : g_user, 0, NULL);
        wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
        wgpuComputePassEncoderEnd(pass);
        wgpuComputePassEncoderRelease(pass);
        t_finish(e);
        if (i == 0) T_EXPECT_VALIDATION(EG_E_DRAW_STATE, "not compatible");
        else EG_EXPECT_NO_ERROR();
    }
    wgpuBindGroupRelease(g_user);
    wgpuBindGroupRelease(g_derived);
    wgpuBufferRelease(buf);
    wgpuBindGroupLayoutRelease(user);
    wgpuBindGroupLayoutRelease(derived);
    wgpuComputePipelineRelease(p);
    wgpuShaderModuleRelease(cd.compute.module);
    eg_test_device_release();
}

EG_TEST(pipeline_iface, auto_layout_pool_full_names_the_pool)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.compute.module = module_of(d, "iface_one.comp");
    static WGPUBindGroupLayout fill[EMGPU_MAX_BIND_GROUP_LAYOUTS];
    WGPUBindGroupLayoutDescriptor bd = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    for (uint32_t i = 0; i < EMGPU_MAX_BIND_GROUP_LAYOUTS; i++) fill[i] = wgpuDeviceCreateBindGroupLayout(d, &bd);
    EG_EXPECT_NO_ERROR();
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_BIND_GROUP_LAYOUTS");
    EG_EXPECT(p && p->obj.invalid);
    wgpuComputePipelineRelease(p);
    for (uint32_t i = 0; i < EMGPU_MAX_BIND_GROUP_LAYOUTS; i++) wgpuBindGroupLayoutRelease(fill[i]);
    wgpuShaderModuleRelease(cd.compute.module);
    eg_test_device_release();
}

/* Spec "validate encoder bind groups": with buffer.minBindingSize 0 in the layout, the bound
 * size must still cover the shader's minimum binding size, checked at dispatch time. The block
 * { vec4 head; float v[]; } with one array element ends at 16 + 4 = 20, and WGSL's SizeOf of a
 * structure rounds that up to the structure's alignment (16, from the vec4): 32 bytes. */
EG_TEST(pipeline_iface, zero_min_binding_size_checked_at_dispatch)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayoutEntry le = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    le.visibility = WGPUShaderStage_Compute;
    le.buffer.type = WGPUBufferBindingType_Storage;
    le.buffer.minBindingSize = 0;
    WGPUBindGroupLayoutDescriptor bd = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    bd.entryCount = 1;
    bd.entries = &le;
    WGPUBindGroupLayout bgl = wgpuDeviceCreateBindGroupLayout(d, &bd);
    WGPUPipelineLayoutDescriptor pld = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    pld.bindGroupLayoutCount = 1;
    pld.bindGroupLayouts = &bgl;
    WGPUPipelineLayout pl = wgpuDeviceCreatePipelineLayout(d, &pld);
    WGPUComputePipelineDescriptor cd = WGPU_COMPUTE_PIPELINE_DESCRIPTOR_INIT;
    cd.layout = pl;
    cd.compute.module = module_of(d, "iface_min_size.comp");
    WGPUComputePipeline p = wgpuDeviceCreateComputePipeline(d, &cd);
    WGPUBuffer buf = t_buffer(d, WGPUBufferUsage_Storage, 64);
    WGPUBindGroupEntry be = WGPU_BIND_GROUP_ENTRY_INIT;
    be.buffer = buf;
    WGPUBindGroupDescriptor gd = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    gd.layout = bgl;
    gd.entryCount = 1;
    gd.entries = &be;
    be.size = 28;                                   /* 4 bytes short */
    WGPUBindGroup small = wgpuDeviceCreateBindGroup(d, &gd);
    be.size = 32;                                   /* exactly the minimum */
    WGPUBindGroup fits = wgpuDeviceCreateBindGroup(d, &gd);
    EG_EXPECT_NO_ERROR();
    /* case 0: the small group; 1: the fitting one; 2: fitting, dispatch, then the small one
     * (the check must run again after SetBindGroup) */
    for (uint32_t c = 0; c < 3; c++) {
        WGPUCommandEncoder e = t_encoder(d);
        WGPUComputePassEncoder pass = wgpuCommandEncoderBeginComputePass(e, NULL);
        wgpuComputePassEncoderSetPipeline(pass, p);
        wgpuComputePassEncoderSetBindGroup(pass, 0, c == 0 ? small : fits, 0, NULL);
        wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
        if (c == 2) {
            wgpuComputePassEncoderSetBindGroup(pass, 0, small, 0, NULL);
            wgpuComputePassEncoderDispatchWorkgroups(pass, 1, 1, 1);
        }
        wgpuComputePassEncoderEnd(pass);
        wgpuComputePassEncoderRelease(pass);
        t_finish(e);
        if (c == 1) EG_EXPECT_NO_ERROR();
        else T_EXPECT_VALIDATION(EG_E_DRAW_BUFFER_BINDING_SIZE, "bound buffer range is 28 bytes, but the pipeline's shader needs 32");
    }
    wgpuBindGroupRelease(small);
    wgpuBindGroupRelease(fits);
    wgpuBufferRelease(buf);
    wgpuComputePipelineRelease(p);
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(bgl);
    wgpuShaderModuleRelease(cd.compute.module);
    eg_test_device_release();
}
