/* Tests for the buffer map state machine: MapAsync, GetMappedRange, Unmap, Destroy. */
#include <webgpu/webgpu.h>

#include "tests/harness/test_device.h"

static WGPUMapAsyncStatus last_status;
static unsigned calls;

static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2)
{
    (void)message; (void)u1; (void)u2;
    last_status = status;
    calls++;
}

static WGPUBufferMapCallbackInfo cb_info(void)
{
    WGPUBufferMapCallbackInfo ci = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_AllowProcessEvents;
    ci.callback = on_map;
    return ci;
}

static WGPUBuffer map_read_buffer(WGPUDevice dev)
{
    WGPUBufferDescriptor d = WGPU_BUFFER_DESCRIPTOR_INIT;
    d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;
    d.size = 64;
    return wgpuDeviceCreateBuffer(dev, &d);
}

EG_TEST(buffer_map, mapped_at_creation_write_then_read_back)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUBufferDescriptor d = WGPU_BUFFER_DESCRIPTOR_INIT;
    d.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst;   /* no MapWrite: still allowed */
    d.size = 16;
    d.mappedAtCreation = 1;
    WGPUBuffer b = wgpuDeviceCreateBuffer(dev, &d);
    EG_EXPECT_EQ_U(wgpuBufferGetMapState(b), WGPUBufferMapState_Mapped);
    uint32_t *p = wgpuBufferGetMappedRange(b, 0, 16);
    EG_ASSERT(p != NULL);
    EG_EXPECT_EQ_U(p[0], 0);                        /* zero-initialised */
    p[1] = 0xC0FFEEu;
    wgpuBufferUnmap(b);
    calls = 0;
    WGPUFuture f = wgpuBufferMapAsync(b, WGPUMapMode_Read, 0, WGPU_WHOLE_MAP_SIZE, cb_info());
    EG_EXPECT(eg_test_wait(f));
    EG_EXPECT_EQ_U(calls, 1);
    EG_EXPECT_EQ_U(last_status, WGPUMapAsyncStatus_Success);
    const uint32_t *r = wgpuBufferGetConstMappedRange(b, 0, 8);
    EG_ASSERT(r != NULL);
    EG_EXPECT_EQ_U(r[1], 0xC0FFEEu);
    EG_EXPECT(wgpuBufferGetMappedRange(b, 8, 8) == NULL);     /* read mapping: not writable */
    EG_EXPECT(wgpuBufferGetConstMappedRange(b, 0, 8) == NULL); /* overlaps [0, 8) returned above */
    EG_EXPECT_NO_ERROR();                           /* content-timeline failures: no device error */
    wgpuBufferRelease(b);
    eg_test_device_release();
}

EG_TEST(buffer_map, map_async_rules)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUBuffer b = map_read_buffer(dev);
    calls = 0;
    eg_test_wait(wgpuBufferMapAsync(b, WGPUMapMode_Write, 0, 64, cb_info()));   /* needs MapWrite */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_MAP_MODE, "MapWrite");
    EG_EXPECT_EQ_U(last_status, WGPUMapAsyncStatus_Error);
    eg_test_wait(wgpuBufferMapAsync(b, WGPUMapMode_Read, 4, 8, cb_info()));     /* offset % 8 */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_MAP_ALIGNMENT, "offset 4");
    eg_test_wait(wgpuBufferMapAsync(b, WGPUMapMode_Read, 0, 6, cb_info()));     /* size % 4 */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_MAP_ALIGNMENT, "size 6");
    eg_test_wait(wgpuBufferMapAsync(b, WGPUMapMode_Read, 32, 64, cb_info()));   /* 32 + 64 > 64 */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, BUFFER_MAP_RANGE, "exceeds the buffer size 64");
    EG_EXPECT_EQ_U(calls, 4);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

EG_TEST(buffer_map, unmap_and_destroy_abort_pending)
{
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) EG_SKIP("soft backend not compiled in");
    WGPUBuffer b = map_read_buffer(dev);
    WGPUBufferMapCallbackInfo ci = cb_info();
    ci.mode = WGPUCallbackMode_WaitAnyOnly;         /* stays pending until waited on */
    calls = 0;
    WGPUFuture f = wgpuBufferMapAsync(b, WGPUMapMode_Read, 0, 64, ci);
    EG_EXPECT_EQ_U(wgpuBufferGetMapState(b), WGPUBufferMapState_Pending);
    wgpuBufferUnmap(b);                             /* spec unmap(): pending map -> AbortError */
    EG_EXPECT_EQ_U(wgpuBufferGetMapState(b), WGPUBufferMapState_Unmapped);
    eg_test_wait(f);
    EG_EXPECT_EQ_U(last_status, WGPUMapAsyncStatus_Aborted);
    f = wgpuBufferMapAsync(b, WGPUMapMode_Read, 0, 64, ci);
    wgpuBufferDestroy(b);                           /* destroy() unmaps, aborting too */
    eg_test_wait(f);
    EG_EXPECT_EQ_U(last_status, WGPUMapAsyncStatus_Aborted);
    EG_EXPECT_EQ_U(calls, 2);
    EG_EXPECT_NO_ERROR();
    wgpuBufferRelease(b);
    eg_test_device_release();
}
