/* Futures: delivery per callback mode, WaitAny rules (TimedWaitAny feature, count, timeouts). */
#include "kernel/api/future.h"
#include "kernel/api/instance.h"
#include "tests/harness/test_device.h"

static void on_done(WGPUQueueWorkDoneStatus s, WGPUStringView m, void *u1, void *u2)
{
    (void)m; (void)u2;
    int *calls = u1;
    if (s == WGPUQueueWorkDoneStatus_Success) (*calls)++;
}

static WGPUFuture work_done(WGPUCallbackMode mode, int *calls)
{
    WGPUQueueWorkDoneCallbackInfo ci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
    ci.mode = mode;
    ci.callback = on_done;
    ci.userdata1 = calls;
    return wgpuQueueOnSubmittedWorkDone(eg_test_queue(), ci);
}

EG_TEST(future, wait_any_only_fires_only_in_wait_any)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    int calls = 0;
    WGPUFuture f = work_done(WGPUCallbackMode_WaitAnyOnly, &calls);
    wgpuInstanceProcessEvents(eg_test_instance());
    EG_EXPECT_EQ_U(calls, 0);              /* ProcessEvents never delivers WaitAnyOnly */
    WGPUFutureWaitInfo w = { f, WGPU_FALSE };
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(eg_test_instance(), 1, &w, 0), WGPUWaitStatus_Success);
    EG_EXPECT(w.completed);
    EG_EXPECT_EQ_U(calls, 1);
    w.completed = WGPU_FALSE;              /* waiting again on a delivered future: completed */
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(eg_test_instance(), 1, &w, 0), WGPUWaitStatus_Success);
    EG_EXPECT_EQ_U(calls, 1);
    eg_test_device_release();
}

EG_TEST(future, allow_process_events_fires_in_process_events)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    int calls = 0;
    work_done(WGPUCallbackMode_AllowProcessEvents, &calls);
    EG_EXPECT_EQ_U(calls, 0);              /* not inside the call */
    wgpuInstanceProcessEvents(eg_test_instance());
    EG_EXPECT_EQ_U(calls, 1);
    wgpuInstanceProcessEvents(eg_test_instance());
    EG_EXPECT_EQ_U(calls, 1);              /* exactly once */
    eg_test_device_release();
}

EG_TEST(future, allow_spontaneous_fires_when_complete)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    int calls = 0;
    work_done(WGPUCallbackMode_AllowSpontaneous, &calls);   /* nothing submitted: complete now */
    EG_EXPECT_EQ_U(calls, 1);
    eg_test_device_release();
}

EG_TEST(future, invalid_mode_fails_at_once)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    int calls = 0;
    WGPUFuture f = work_done((WGPUCallbackMode)0, &calls);   /* webgpu.h: 0 is not a mode */
    EG_EXPECT_EQ_U(f.id, 0);
    EG_EXPECT_EQ_U(calls, 0);              /* the callback got the Error status, not Success */
    eg_test_device_release();
}

EG_TEST(future, wait_any_timeout_needs_timed_wait_any)
{
    WGPUInstance i = wgpuCreateInstance(NULL);   /* without TimedWaitAny */
    EG_ASSERT(i != NULL);
    WGPUFutureWaitInfo w = { { 1 }, WGPU_FALSE };
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(i, 1, &w, 1000), WGPUWaitStatus_Error);
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(i, 0, NULL, 0), WGPUWaitStatus_TimedOut);   /* nothing to wait for */
    wgpuInstanceRelease(i);
}

EG_TEST(future, wait_any_count_above_limit_is_error)
{
    WGPUDevice d = eg_test_device("noop");   /* timedWaitAnyMaxCount = 4 */
    if (!d) EG_SKIP("noop not compiled in");
    int calls = 0;
    WGPUFutureWaitInfo w[5];
    for (int k = 0; k < 5; k++) {
        w[k].future = work_done(WGPUCallbackMode_WaitAnyOnly, &calls);
        w[k].completed = WGPU_FALSE;
    }
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(eg_test_instance(), 5, w, 1000), WGPUWaitStatus_Error);
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(eg_test_instance(), 5, w, 0), WGPUWaitStatus_Success);   /* no timeout: no limit */
    EG_EXPECT_EQ_U(calls, 5);
    WGPUFutureWaitInfo bad = { { 999999 }, WGPU_FALSE };
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(eg_test_instance(), 1, &bad, 0), WGPUWaitStatus_Error);
    eg_test_device_release();
}

EG_TEST(future, external_future_times_out_until_resolved)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    int calls = 0;
    WGPUQueueWorkDoneCallbackInfo ci = WGPU_QUEUE_WORK_DONE_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_WaitAnyOnly;
    ci.callback = on_done;
    ci.userdata1 = &calls;
    eg_future_desc_t fd = { .kind = EG_FUTURE_QUEUE_WORK_DONE, .callback_info = &ci, .external = true };
    struct WGPUInstanceImpl *inst = eg_test_instance();
    WGPUFuture f = { eg_future_add(inst, &fd) };
    WGPUFutureWaitInfo w = { f, WGPU_FALSE };
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(inst, 1, &w, 1000), WGPUWaitStatus_TimedOut);
    EG_EXPECT(!w.completed);
    eg_future_resolve(inst, f.id, WGPUQueueWorkDoneStatus_Success, NULL);
    EG_EXPECT_EQ_U(wgpuInstanceWaitAny(inst, 1, &w, 1000), WGPUWaitStatus_Success);
    EG_EXPECT_EQ_U(calls, 1);
    eg_test_device_release();
}

EG_TEST(future, table_full_fails_with_knob)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    int calls = 0;
    WGPUFuture last = { 0 };
    for (int k = 0; k < EMGPU_MAX_PENDING_FUTURES - 1; k++)   /* the device-lost future holds one */
        last = work_done(WGPUCallbackMode_WaitAnyOnly, &calls);
    EG_EXPECT(last.id != 0);
    WGPUFuture over = work_done(WGPUCallbackMode_WaitAnyOnly, &calls);
    EG_EXPECT_EQ_U(over.id, 0);            /* callback got Error naming EMGPU_MAX_PENDING_FUTURES */
    EG_EXPECT_EQ_U(calls, 0);
    wgpuInstanceProcessEvents(eg_test_instance());
    eg_test_device_release();              /* instance release cancels the rest */
    EG_EXPECT_EQ_U(calls, 0);
}
