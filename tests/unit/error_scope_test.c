/* Error scopes: nesting, filter matching, pop of an empty stack, overflow. */
#include "kernel/api/device.h"
#include "tests/harness/test_device.h"

typedef struct { int calls; uint32_t status; WGPUErrorType type; char msg[200]; } pop_t;

static void on_pop(WGPUPopErrorScopeStatus s, WGPUErrorType t, WGPUStringView m, void *u1, void *u2)
{
    (void)u2;
    pop_t *p = u1;
    p->calls++;
    p->status = s;
    p->type = t;
    size_t n = m.length < sizeof p->msg - 1 ? m.length : sizeof p->msg - 1;
    for (size_t i = 0; i < n; i++) p->msg[i] = m.data[i];
    p->msg[n] = '\0';
}

static pop_t pop(WGPUDevice d)
{
    pop_t p = { 0 };
    WGPUPopErrorScopeCallbackInfo ci = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_AllowSpontaneous;
    ci.callback = on_pop;
    ci.userdata1 = &p;
    wgpuDevicePopErrorScope(d, ci);
    return p;
}

/* A validation error with a known code (an invalid filter on PushErrorScope). */
static void make_validation_error(WGPUDevice d)
{
    wgpuDevicePushErrorScope(d, (WGPUErrorFilter)99);
}

EG_TEST(error_scope, innermost_matching_scope_captures)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    wgpuDevicePushErrorScope(d, WGPUErrorFilter_Validation);
    wgpuDevicePushErrorScope(d, WGPUErrorFilter_OutOfMemory);   /* does not match Validation */
    make_validation_error(d);
    EG_EXPECT_NO_ERROR();                  /* captured, not uncaptured */
    pop_t inner = pop(d);
    EG_EXPECT_EQ_U(inner.status, WGPUPopErrorScopeStatus_Success);
    EG_EXPECT_EQ_U(inner.type, WGPUErrorType_NoError);
    pop_t outer = pop(d);
    EG_EXPECT_EQ_U(outer.type, WGPUErrorType_Validation);
    EG_EXPECT_STR_CONTAINS(outer.msg, "filter 0x63");
    eg_test_device_release();
}

EG_TEST(error_scope, only_first_error_is_kept)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    wgpuDevicePushErrorScope(d, WGPUErrorFilter_Validation);
    wgpuDevicePushErrorScope(d, (WGPUErrorFilter)98);
    wgpuDevicePushErrorScope(d, (WGPUErrorFilter)97);
    pop_t p = pop(d);
    EG_EXPECT_STR_CONTAINS(p.msg, "0x62");   /* 98: the first */
    eg_test_device_release();
}

EG_TEST(error_scope, pop_empty_is_an_error_status)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    pop_t p = pop(d);
    EG_EXPECT_EQ_U(p.calls, 1);
    EG_EXPECT_EQ_U(p.status, WGPUPopErrorScopeStatus_Error);   /* spec: rejects (OperationError) */
    EG_EXPECT_STR_CONTAINS(p.msg, "no error scope");
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}

EG_TEST(error_scope, push_beyond_max_is_an_error)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    for (int k = 0; k < EMGPU_MAX_ERROR_SCOPES; k++) wgpuDevicePushErrorScope(d, WGPUErrorFilter_Internal);
    EG_EXPECT_NO_ERROR();
    wgpuDevicePushErrorScope(d, WGPUErrorFilter_Internal);   /* one past EMGPU_MAX_ERROR_SCOPES */
    EG_EXPECT_ERROR(WGPUErrorType_Validation, ERROR_SCOPE_OVERFLOW, "EMGPU_MAX_ERROR_SCOPES");
    for (int k = 0; k < EMGPU_MAX_ERROR_SCOPES; k++) pop(d);
    eg_test_device_release();
}

EG_TEST(error_scope, lost_device_pops_no_error)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    wgpuDevicePushErrorScope(d, WGPUErrorFilter_Validation);
    wgpuDeviceDestroy(d);
    pop_t p = pop(d);
    EG_EXPECT_EQ_U(p.status, WGPUPopErrorScopeStatus_Success);   /* spec: a lost device resolves null */
    EG_EXPECT_EQ_U(p.type, WGPUErrorType_NoError);
    eg_test_device_release();
}
