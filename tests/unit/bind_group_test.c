/* Tests for createBindGroup: one failing case per rule from a valid baseline, references and
 * the tracker uses. Limits in comments are the WebGPU spec's defaults (§3.6.2). */
#include "config/emgpu_config.h"
#include "kernel/api/bind_group.h"
#include "tests/harness/test_device.h"

static WGPUDevice d;

static WGPUBuffer make_buffer(uint64_t size, WGPUBufferUsage usage)
{
    WGPUBufferDescriptor desc = WGPU_BUFFER_DESCRIPTOR_INIT;
    desc.size = size;
    desc.usage = usage;
    return wgpuDeviceCreateBuffer(d, &desc);
}

/* Layout: binding 0 uniform (minBindingSize 16), binding 1 storage, binding 2 filtering sampler. */
static WGPUBindGroupLayout make_layout(void)
{
    WGPUBindGroupLayoutEntry e[3] = { WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT, WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT,
                                      WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT };
    e[0].binding = 0;
    e[0].visibility = WGPUShaderStage_Fragment;
    e[0].buffer.type = WGPUBufferBindingType_Uniform;
    e[0].buffer.minBindingSize = 16;
    e[1].binding = 1;
    e[1].visibility = WGPUShaderStage_Compute;
    e[1].buffer.type = WGPUBufferBindingType_Storage;
    e[2].binding = 2;
    e[2].visibility = WGPUShaderStage_Fragment;
    e[2].sampler.type = WGPUSamplerBindingType_Filtering;
    WGPUBindGroupLayoutDescriptor desc = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    desc.entryCount = 3;
    desc.entries = e;
    return wgpuDeviceCreateBindGroupLayout(d, &desc);
}

typedef struct fixture {
    WGPUBindGroupLayout layout;
    WGPUBuffer ubuf, sbuf;
    WGPUSampler smp;
    WGPUBindGroupEntry e[3];
    WGPUBindGroupDescriptor desc;
} fixture_t;

static void fixture_init(fixture_t *f)
{
    f->layout = make_layout();
    f->ubuf = make_buffer(512, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst);
    f->sbuf = make_buffer(512, WGPUBufferUsage_Storage);
    f->smp = wgpuDeviceCreateSampler(d, NULL);
    for (uint32_t i = 0; i < 3; i++) {
        WGPUBindGroupEntry z = WGPU_BIND_GROUP_ENTRY_INIT;
        f->e[i] = z;
        f->e[i].binding = i;
    }
    f->e[0].buffer = f->ubuf;
    f->e[0].size = 64;
    f->e[1].buffer = f->sbuf;                     /* size WGPU_WHOLE_SIZE from the INIT macro */
    f->e[2].sampler = f->smp;
    WGPUBindGroupDescriptor z = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    f->desc = z;
    f->desc.layout = f->layout;
    f->desc.entryCount = 3;
    f->desc.entries = f->e;
}

static void fixture_release(fixture_t *f)
{
    wgpuBindGroupLayoutRelease(f->layout);
    wgpuBufferRelease(f->ubuf);
    wgpuBufferRelease(f->sbuf);
    wgpuSamplerRelease(f->smp);
}

#define EXPECT_BG_ERROR(f, CODE, frag) \
    do { WGPUBindGroup g_ = wgpuDeviceCreateBindGroup(d, &(f)->desc); EG_EXPECT(g_ != NULL); \
         EG_EXPECT_ERROR(WGPUErrorType_Validation, CODE, frag); wgpuBindGroupRelease(g_); \
         fixture_init_entries(f); } while (0)

static void fixture_init_entries(fixture_t *f)
{
    f->e[0].buffer = f->ubuf; f->e[0].offset = 0; f->e[0].size = 64; f->e[0].sampler = NULL;
    f->e[1].buffer = f->sbuf; f->e[1].offset = 0; f->e[1].size = WGPU_WHOLE_SIZE; f->e[1].binding = 1;
    f->e[2].sampler = f->smp; f->e[2].buffer = NULL;
    f->desc.entryCount = 3;
}

EG_TEST(bind_group, valid_baseline_and_uses)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    fixture_t f;
    fixture_init(&f);
    EG_EXPECT_NO_ERROR();
    WGPUBindGroup g = wgpuDeviceCreateBindGroup(d, &f.desc);
    EG_EXPECT_NO_ERROR();
    EG_ASSERT(g != NULL);
    eg_bind_use_t uses[4];
    EG_EXPECT_EQ_U(eg_bind_group_uses(g, uses, 4), 2);            /* the sampler has no use */
    EG_EXPECT_EQ_U(uses[0].use, EG_TRACK_BUF_UNIFORM);
    EG_EXPECT_EQ_U(uses[0].size_B, 64);
    EG_EXPECT_EQ_U(uses[1].use, EG_TRACK_BUF_STORAGE_WRITE);
    EG_EXPECT_EQ_U(uses[1].size_B, 512);                          /* WHOLE_SIZE resolved */
    fixture_release(&f);                                          /* the bind group keeps them alive */
    wgpuBindGroupAddRef(g);
    wgpuBindGroupRelease(g);
    wgpuBindGroupRelease(g);
    eg_test_device_release();
}

EG_TEST(bind_group, entry_rules)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    fixture_t f;
    fixture_init(&f);
    eg_test_errors_reset();
    f.desc.entryCount = 2;
    EXPECT_BG_ERROR(&f, BG_ENTRY_COUNT, "entryCount 2");
    f.e[1].binding = 7;
    EXPECT_BG_ERROR(&f, BG_BINDING_UNKNOWN, "binding 7");
    f.e[1].binding = 0;
    EXPECT_BG_ERROR(&f, BG_BINDING_DUPLICATE, "binding 0");
    f.e[0].sampler = f.smp;                                      /* buffer and sampler both set */
    EXPECT_BG_ERROR(&f, BG_RESOURCE_KIND, "only buffer");
    f.e[2].buffer = f.ubuf;
    f.e[2].sampler = NULL;
    EXPECT_BG_ERROR(&f, BG_RESOURCE_KIND, "only sampler");
    fixture_release(&f);
    eg_test_device_release();
}

EG_TEST(bind_group, buffer_rules)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    fixture_t f;
    fixture_init(&f);
    eg_test_errors_reset();
    f.e[0].buffer = f.sbuf;                                      /* no Uniform usage */
    EXPECT_BG_ERROR(&f, BG_BUFFER_USAGE, "WGPUBufferUsage_Uniform");
    f.e[1].buffer = f.ubuf;                                      /* no Storage usage */
    EXPECT_BG_ERROR(&f, BG_BUFFER_USAGE, "WGPUBufferUsage_Storage");
    f.e[0].offset = 128;                                         /* minUniformBufferOffsetAlignment 256 */
    EXPECT_BG_ERROR(&f, BG_BUFFER_OFFSET_ALIGNMENT, "offset 128");
    f.e[0].offset = 256;
    f.e[0].size = 512;                                           /* 256 + 512 > 512 */
    EXPECT_BG_ERROR(&f, BG_BUFFER_RANGE, "past the end");
    f.e[1].offset = 512;                                         /* WHOLE_SIZE from the end: empty */
    EXPECT_BG_ERROR(&f, BG_BUFFER_RANGE, "empty");
    f.e[0].size = 8;                                             /* layout minBindingSize 16 */
    EXPECT_BG_ERROR(&f, BG_BUFFER_MIN_BINDING_SIZE, "minBindingSize 16");
    f.e[1].size = 18;                                            /* storage size multiple of 4 */
    EXPECT_BG_ERROR(&f, BG_STORAGE_SIZE_ALIGNMENT, "size 18");
    fixture_release(&f);
    eg_test_device_release();
}

EG_TEST(bind_group, sampler_type)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    fixture_t f;
    fixture_init(&f);
    WGPUSamplerDescriptor sd = WGPU_SAMPLER_DESCRIPTOR_INIT;
    sd.compare = WGPUCompareFunction_Less;                       /* a comparison sampler */
    WGPUSampler cmp = wgpuDeviceCreateSampler(d, &sd);
    eg_test_errors_reset();
    f.e[2].sampler = cmp;                                        /* into a Filtering binding */
    EXPECT_BG_ERROR(&f, BG_SAMPLER_TYPE, "comparison sampler");
    wgpuSamplerRelease(cmp);
    fixture_release(&f);
    eg_test_device_release();
}

EG_TEST(bind_group, invalid_layout)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    fixture_t f;
    fixture_init(&f);
    WGPUBindGroupLayoutEntry e = WGPU_BIND_GROUP_LAYOUT_ENTRY_INIT;   /* no member set: invalid */
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    ld.entryCount = 1;
    ld.entries = &e;
    WGPUBindGroupLayout bad = wgpuDeviceCreateBindGroupLayout(d, &ld);
    eg_test_errors_reset();
    f.desc.layout = bad;
    f.desc.entryCount = 1;
    WGPUBindGroup g = wgpuDeviceCreateBindGroup(d, &f.desc);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, INVALID_OBJECT, "layout");
    wgpuBindGroupRelease(g);
    wgpuBindGroupLayoutRelease(bad);
    fixture_release(&f);
    eg_test_device_release();
}

EG_TEST(bind_group, pool_capacity_plus_one)
{
    if (!(d = eg_test_device("soft"))) EG_SKIP("soft backend not compiled in");
    WGPUBindGroupLayoutDescriptor ld = WGPU_BIND_GROUP_LAYOUT_DESCRIPTOR_INIT;
    WGPUBindGroupLayout l = wgpuDeviceCreateBindGroupLayout(d, &ld);
    WGPUBindGroupDescriptor desc = WGPU_BIND_GROUP_DESCRIPTOR_INIT;
    desc.layout = l;
    static WGPUBindGroup gs[EMGPU_MAX_BIND_GROUPS];
    for (uint32_t i = 0; i < EMGPU_MAX_BIND_GROUPS; i++) gs[i] = wgpuDeviceCreateBindGroup(d, &desc);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT(wgpuDeviceCreateBindGroup(d, &desc) == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_BIND_GROUPS");
    for (uint32_t i = 0; i < EMGPU_MAX_BIND_GROUPS; i++) wgpuBindGroupRelease(gs[i]);
    wgpuBindGroupLayoutRelease(l);
    eg_test_device_release();
}
