/* Tests for bind group layouts, pipeline layouts and bind groups: one failing case per rule.
 * Limits quoted in comments are the WebGPU spec's default limits (§3.6.2), which the test device
 * is created with. */
#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"

static WGPUDevice d;

static WGPUBindGroupLayoutEntry uniform_entry(uint32_t binding, WGPUShaderStage vis)
{
    WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;
    e.binding = binding;
    e.visibility = vis;
    e.buffer.type = WGPUBufferBindingType_Uniform;
    return e;
}

static WGPUBindGroupLayout make_bgl(const WGPUBindGroupLayoutEntry *e, size_t n)
{
    WGPUBindGroupLayoutDescriptor desc = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    desc.entryCount = n;
    desc.entries = e;
    return wgpuDeviceCreateBindGroupLayout(d, &desc);
}

/* Creates a layout from one entry and expects exactly one validation error. */
#define EXPECT_BGL_ERROR(entry, CODE, frag) \
    do { WGPUBindGroupLayoutEntry e_ = (entry); WGPUBindGroupLayout l_ = make_bgl(&e_, 1); \
         EG_EXPECT(l_ != NULL); EG_EXPECT_ERROR(WGPUErrorType_Validation, CODE, frag); \
         wgpuBindGroupLayoutRelease(l_); } while (0)

EG_TEST(bind_group_layout, valid_baseline)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayoutEntry e[4] = { uniform_entry(3, WGPUShaderStage_Vertex) };
    e[1] = uniform_entry(0, WGPUShaderStage_Fragment);
    e[1].buffer.type = WGPUBufferBindingType_Undefined;            /* defaults to Uniform */
    e[2] = uniform_entry(1, WGPUShaderStage_Fragment);
    e[2].buffer.type = WGPUBufferBindingType_BindingNotUsed;
    e[2].sampler.type = WGPUSamplerBindingType_Undefined;          /* defaults to Filtering */
    e[3] = uniform_entry(2, WGPUShaderStage_Compute);
    e[3].buffer.type = WGPUBufferBindingType_BindingNotUsed;
    e[3].texture.sampleType = WGPUTextureSampleType_Undefined;     /* Float, 2D */
    WGPUBindGroupLayout l = make_bgl(e, 4);
    EG_EXPECT(l != NULL);
    EG_EXPECT_NO_ERROR();
    wgpuBindGroupLayoutAddRef(l);
    wgpuBindGroupLayoutRelease(l);
    wgpuBindGroupLayoutSetLabel(l, (WGPUStringView){ "bgl", WGPU_STRLEN });
    wgpuBindGroupLayoutRelease(l);
    eg_test_device_release();
}

EG_TEST(bind_group_layout, binding_rules)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayoutEntry e = uniform_entry(1000, WGPUShaderStage_Fragment);
    EXPECT_BGL_ERROR(e, BGL_BINDING_TOO_LARGE, "binding 1000");   /* maxBindingsPerBindGroup 1000 */
    WGPUBindGroupLayoutEntry two[2] = { uniform_entry(5, WGPUShaderStage_Fragment),
                                        uniform_entry(5, WGPUShaderStage_Vertex) };
    WGPUBindGroupLayout l = make_bgl(two, 2);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BGL_BINDING_DUPLICATE, "binding 5");
    wgpuBindGroupLayoutRelease(l);
    eg_test_device_release();
}

EG_TEST(bind_group_layout, entry_rules)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayoutEntry e = uniform_entry(0, WGPUShaderStage_Fragment);
    e.sampler.type = WGPUSamplerBindingType_Filtering;             /* two members set */
    EXPECT_BGL_ERROR(e, BGL_ENTRY_KIND, "exactly one");
    e = uniform_entry(0, WGPUShaderStage_Fragment);
    e.buffer.type = WGPUBufferBindingType_BindingNotUsed;          /* none set */
    EXPECT_BGL_ERROR(e, BGL_ENTRY_KIND, "sets 0");
    e = uniform_entry(0, (WGPUShaderStage)0x8);
    EXPECT_BGL_ERROR(e, BGL_VISIBILITY, "visibility 0x8");
    e = uniform_entry(0, WGPUShaderStage_Vertex);
    e.buffer.type = WGPUBufferBindingType_Storage;                 /* spec: no read-write storage in vertex */
    EXPECT_BGL_ERROR(e, BGL_VERTEX_WRITABLE, "buffer.type Storage");
    e = uniform_entry(0, WGPUShaderStage_Fragment);
    e.bindingArraySize = 2;
    EXPECT_BGL_ERROR(e, BGL_BINDING_ARRAY, "bindingArraySize 2");
    e = uniform_entry(0, WGPUShaderStage_Fragment);
    e.buffer.type = (WGPUBufferBindingType)9;
    EXPECT_BGL_ERROR(e, ENUM_VALUE, "buffer.type 0x9");
    eg_test_device_release();
}

EG_TEST(bind_group_layout, texture_rules)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayoutEntry e = uniform_entry(0, WGPUShaderStage_Fragment);
    e.buffer.type = WGPUBufferBindingType_BindingNotUsed;
    e.texture.sampleType = WGPUTextureSampleType_UnfilterableFloat;
    e.texture.multisampled = 1;
    e.texture.viewDimension = WGPUTextureViewDimension_2DArray;    /* spec: multisampled needs 2D */
    EXPECT_BGL_ERROR(e, BGL_MULTISAMPLED, "viewDimension 2D");
    e.texture.viewDimension = WGPUTextureViewDimension_2D;
    e.texture.sampleType = WGPUTextureSampleType_Float;            /* spec: not "float" */
    EXPECT_BGL_ERROR(e, BGL_MULTISAMPLED, "UnfilterableFloat");
    WGPUBindGroupLayoutEntry s = uniform_entry(0, WGPUShaderStage_Compute);
    s.buffer.type = WGPUBufferBindingType_BindingNotUsed;
    s.storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
    s.storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
    s.storageTexture.viewDimension = WGPUTextureViewDimension_Cube;
    EXPECT_BGL_ERROR(s, BGL_STORAGE_TEXTURE_DIMENSION, "Cube");
    s.storageTexture.viewDimension = WGPUTextureViewDimension_2D;
    s.storageTexture.format = WGPUTextureFormat_RGBA8UnormSrgb;    /* spec table: no STORAGE_BINDING */
    EXPECT_BGL_ERROR(s, BGL_STORAGE_TEXTURE_FORMAT, "storageTexture.format");
    s.storageTexture.format = WGPUTextureFormat_RGBA8Unorm;
    s.storageTexture.access = WGPUStorageTextureAccess_ReadWrite;  /* read-write: r32 formats only */
    EXPECT_BGL_ERROR(s, BGL_STORAGE_TEXTURE_FORMAT, "read-write");
    s.visibility = WGPUShaderStage_Vertex;
    s.storageTexture.access = WGPUStorageTextureAccess_WriteOnly;
    EXPECT_BGL_ERROR(s, BGL_VERTEX_WRITABLE, "storageTexture.access");
    eg_test_device_release();
}

EG_TEST(bind_group_layout, slot_limits)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayoutEntry e[9];
    for (uint32_t i = 0; i < 9; i++) {
        e[i] = uniform_entry(i, WGPUShaderStage_Fragment);
        e[i].buffer.hasDynamicOffset = 1;
    }
    /* 9 uniform buffers <= maxUniformBuffersPerShaderStage 12, but 9 dynamic ones exceed
     * maxDynamicUniformBuffersPerPipelineLayout 8. */
    WGPUBindGroupLayout l = make_bgl(e, 9);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BINDING_SLOT_LIMIT, "maxDynamicUniformBuffersPerPipelineLayout (8)");
    wgpuBindGroupLayoutRelease(l);
    WGPUBindGroupLayoutEntry many[EMGPU_MAX_BINDINGS_PER_GROUP + 1];
    for (uint32_t i = 0; i <= EMGPU_MAX_BINDINGS_PER_GROUP; i++) many[i] = uniform_entry(i, WGPUShaderStage_None);
    l = make_bgl(many, EMGPU_MAX_BINDINGS_PER_GROUP + 1);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, INLINE_BOUND, "EMGPU_MAX_BINDINGS_PER_GROUP");
    wgpuBindGroupLayoutRelease(l);
    eg_test_device_release();
}

EG_TEST(bind_group_layout, pool_capacity_plus_one)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    static WGPUBindGroupLayout ls[EMGPU_MAX_BIND_GROUP_LAYOUTS];
    for (uint32_t i = 0; i < EMGPU_MAX_BIND_GROUP_LAYOUTS; i++) ls[i] = make_bgl(NULL, 0);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(make_bgl(NULL, 0) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_BIND_GROUP_LAYOUTS");
    for (uint32_t i = 0; i < EMGPU_MAX_BIND_GROUP_LAYOUTS; i++) wgpuBindGroupLayoutRelease(ls[i]);
    eg_test_device_release();
}

/* ---- pipeline layouts ---- */

static WGPUPipelineLayout make_pl(const WGPUBindGroupLayout *g, size_t n, uint32_t immediate_B)
{
    WGPUPipelineLayoutDescriptor desc = WGPU_PIPELINE_LAYOUT_DESCRIPTOR_INIT;
    desc.bindGroupLayoutCount = n;
    desc.bindGroupLayouts = g;
    desc.immediateSize = immediate_B;
    return wgpuDeviceCreatePipelineLayout(d, &desc);
}

EG_TEST(pipeline_layout, rules)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayoutEntry e[4];
    for (uint32_t i = 0; i < 4; i++) e[i] = uniform_entry(i, WGPUShaderStage_Fragment);
    WGPUBindGroupLayout g = make_bgl(e, 4);
    WGPUBindGroupLayout gs[5] = { g, NULL, g, g, g };
    WGPUPipelineLayout pl = make_pl(gs, 2, 0);                     /* a null group is an empty one */
    EG_EXPECT_NO_ERROR();
    wgpuPipelineLayoutAddRef(pl);
    wgpuPipelineLayoutRelease(pl);
    wgpuPipelineLayoutRelease(pl);
    pl = make_pl(gs, 5, 0);                                        /* maxBindGroups 4 */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PL_TOO_MANY_GROUPS, "maxBindGroups (4)");
    wgpuPipelineLayoutRelease(pl);
    gs[1] = g;                                                     /* 4 x 4 = 16 uniforms > 12 */
    pl = make_pl(gs, 4, 0);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BINDING_SLOT_LIMIT, "maxUniformBuffersPerShaderStage (12)");
    wgpuPipelineLayoutRelease(pl);
    pl = make_pl(gs, 1, 2);                                        /* not a multiple of 4 (or over the max) */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, PL_IMMEDIATE_SIZE, "immediateSize 2");
    wgpuPipelineLayoutRelease(pl);
    WGPUBindGroupLayout bad = make_bgl(e, 0);
    wgpuBindGroupLayoutRelease(bad);                               /* now stale */
    WGPUBindGroupLayout stale[1] = { bad };
    pl = make_pl(stale, 1, 0);
    EG_EXPECT_EQ_U(eg_test_err.count, 1);
    eg_test_errors_reset();
    wgpuPipelineLayoutRelease(pl);
    wgpuBindGroupLayoutRelease(g);
    eg_test_device_release();
}

EG_TEST(pipeline_layout, pool_capacity_plus_one)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    static WGPUPipelineLayout ls[EMGPU_MAX_PIPELINE_LAYOUTS];
    for (uint32_t i = 0; i < EMGPU_MAX_PIPELINE_LAYOUTS; i++) ls[i] = make_pl(NULL, 0, 0);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(make_pl(NULL, 0, 0) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_PIPELINE_LAYOUTS");
    for (uint32_t i = 0; i < EMGPU_MAX_PIPELINE_LAYOUTS; i++) wgpuPipelineLayoutRelease(ls[i]);
    eg_test_device_release();
}
