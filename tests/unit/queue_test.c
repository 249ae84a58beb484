/* Queue: GetQueue references, empty Submit, WriteBuffer rules, OnSubmittedWorkDone after Submit. */
#include "kernel/api/device.h"
#include "tests/harness/test_device.h"

EG_TEST(queue, get_queue_is_one_object_per_device)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    WGPUQueue a = wgpuDeviceGetQueue(d), b = wgpuDeviceGetQueue(d);
    EG_EXPECT(a == b);
    wgpuQueueAddRef(a);
    wgpuQueueRelease(a);
    wgpuQueueRelease(a);
    wgpuQueueRelease(b);
    eg_test_device_release();
}

EG_TEST(queue, empty_submit_advances_nothing_and_null_array_fails)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    WGPUQueue q = eg_test_queue();
    wgpuQueueSubmit(q, 0, NULL);
    EG_EXPECT_NO_ERROR();
    EG_EXPECT_EQ_U(d->submit_index, 1);    /* an empty submit is still a submission */
    wgpuQueueSubmit(q, 2, NULL);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_NULL_ARRAY, "commands is NULL");
    eg_test_device_release();
}

static WGPUBuffer make_buffer(WGPUDevice d, WGPUBufferUsage usage, uint64_t size)
{
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = usage;
    bd.size = size;
    return wgpuDeviceCreateBuffer(d, &bd);
}

EG_TEST(queue_write_buffer, rules)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    WGPUQueue q = eg_test_queue();
    uint32_t data[8] = { 0 };
    WGPUBuffer b = make_buffer(d, WGPUBufferUsage_CopyDst, 16);
    WGPUBuffer nodst = make_buffer(d, WGPUBufferUsage_CopySrc, 16);
    EG_EXPECT_NO_ERROR();
    wgpuQueueWriteBuffer(q, b, 0, data, 16);        /* valid baseline */
    EG_EXPECT_NO_ERROR();
    wgpuQueueWriteBuffer(q, nodst, 0, data, 16);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_WRITE_USAGE, "CopyDst");
    wgpuQueueWriteBuffer(q, b, 2, data, 4);         /* spec: offset multiple of 4 */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_WRITE_ALIGNMENT, "bufferOffset 2");
    wgpuQueueWriteBuffer(q, b, 0, data, 6);         /* spec: size multiple of 4 */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_WRITE_ALIGNMENT, "size 6");
    wgpuQueueWriteBuffer(q, b, 8, data, 12);        /* 8 + 12 > 16 */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, QUEUE_WRITE_OUT_OF_BOUNDS, "exceeds the buffer size 16");
    wgpuBufferRelease(nodst);
    wgpuBufferRelease(b);
    eg_test_device_release();
}

static void on_done(WGPUQueueWorkDoneStatus s, WGPUStringView m, void *u1, void *u2)
{
    (void)m; (void)u2;
    *(uint32_t *)u1 = s;
}

EG_TEST(queue, work_done_after_submit)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    WGPUQueue q = eg_test_queue();
    wgpuQueueSubmit(q, 0, NULL);
    uint32_t st = 0;
    WGPUQueueWorkDoneCallbackInfo ci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_WaitAnyOnly;
    ci.callback = on_done;
    ci.userdata1 = &st;
    WGPUFuture f = wgpuQueueOnSubmittedWorkDone(q, ci);
    EG_EXPECT(eg_test_wait(f));
    EG_EXPECT_EQ_U(st, WGPUQueueWorkDoneStatus_Success);
    eg_test_device_release();
}
