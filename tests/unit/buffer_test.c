/* Tests for buffers: createBuffer rules, getters, release, pool capacity. */
#include <webgpu/webgpu.h>

#include "config/emgpu_config.h"
#include "tests/harness/test_device.h"
#include "kernel/base/util.h"

static WGPUBufferDescriptor valid_desc(void)
{
    WGPUBufferDescriptor d = WGPU_BUFFER_DESCRIPTOR_INIT;
    d.usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_Vertex;
    d.size = 256;
    return d;
}

EG_TEST(buffer_create, valid_baseline_and_getters)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUBufferDescriptor d = valid_desc();
    WGPUBuffer b = wgpuDeviceCreateBuffer(dev, &d);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(wgpuBufferGetSize(b), 256);
    EG_EXPECT_EQ_U(wgpuBufferGetUsage(b), d.usage);
    EG_EXPECT_EQ_U(wgpuBufferGetMapState(b), WGPUBufferMapState_Unmapped);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

EG_TEST(buffer_create, rules)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUBufferDescriptor d = valid_desc();
    d.usage = WGPUBufferUsage_None;                 /* spec: usage must not be 0 */
    wgpuBufferRelease(wgpuDeviceCreateBuffer(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_USAGE_NONE, "usage is 0");
    d = valid_desc();
    d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_Vertex;   /* MapRead only with CopyDst */
    wgpuBufferRelease(wgpuDeviceCreateBuffer(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_MAP_USAGE_COMBO, "MapRead");
    d = valid_desc();
    d.usage = WGPUBufferUsage_MapWrite | WGPUBufferUsage_CopyDst; /* MapWrite only with CopySrc */
    wgpuBufferRelease(wgpuDeviceCreateBuffer(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_MAP_USAGE_COMBO, "MapWrite");
    d = valid_desc();
    d.usage = (WGPUBufferUsage)0x10000;             /* unknown bit */
    wgpuBufferRelease(wgpuDeviceCreateBuffer(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_USAGE_UNKNOWN, "usage");
    d = valid_desc();
    d.size = 6;                                     /* mappedAtCreation needs size % 4 == 0 */
    d.mappedAtCreation = 1;
    wgpuBufferRelease(wgpuDeviceCreateBuffer(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_MAPPED_AT_CREATION_SIZE, "size 6");
    d = valid_desc();
    d.size = (uint64_t)1 << 40;                     /* beyond the default maxBufferSize (256 MiB) */
    wgpuBufferRelease(wgpuDeviceCreateBuffer(dev, &d));
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_TOO_LARGE, "maxBufferSize");
    eg_test_device_release();
}

EG_TEST(buffer_create, pool_capacity_plus_one)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUBufferDescriptor d = valid_desc();
    d.size = 4;
    static WGPUBuffer bufs[EMGPU_MAX_BUFFERS];
    for (unsigned i = 0; i < EMGPU_MAX_BUFFERS; i++) bufs[i] = wgpuDeviceCreateBuffer(dev, &d);
    EG_EXPECT_NO_ERROR();
    WGPUBuffer extra = wgpuDeviceCreateBuffer(dev, &d);
    EG_EXPECT(extra == NULL);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, POOL_FULL, "EMGPU_MAX_BUFFERS");
    wgpuBufferRelease(bufs[0]);                     /* releasing one makes room again */
    bufs[0] = wgpuDeviceCreateBuffer(dev, &d);
    EG_EXPECT(bufs[0] != NULL);
    EG_EXPECT_NO_ERROR();
    for (unsigned i = 0; i < EMGPU_MAX_BUFFERS; i++) wgpuBufferRelease(bufs[i]);
    eg_test_device_release();
}

EG_TEST(buffer_create, soft_heap_exhaustion_names_knob)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    if (eg_strcmp(eg_test_backend(), "soft") != 0) {
        eg_test_device_release();
        EG_NOT_APPLICABLE("tests the soft heap (EMGPU_TEST_BACKEND redirects to another backend)");
    }
    WGPUBufferDescriptor d = valid_desc();
    d.size = (uint64_t)EMGPU_SOFT_HEAP_BYTES;       /* maxBufferSize is clamped to the heap */
    WGPUBuffer a = wgpuDeviceCreateBuffer(dev, &d);
    EG_EXPECT_NO_ERROR();
    d.size = 4;
    WGPUBuffer b = wgpuDeviceCreateBuffer(dev, &d);
    EG_EXPECT_ERROR(WGPUErrorType_OutOfMemory, HAL_OUT_OF_MEMORY, "EMGPU_SOFT_HEAP_BYTES");
    wgpuBufferRelease(b);
    wgpuBufferRelease(a);
    eg_test_device_release();
}
