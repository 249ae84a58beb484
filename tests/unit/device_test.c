/* Devices: RequestDevice feature/limit validation, lost callback on Destroy, uncaptured errors, pool. */
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "tests/harness/test_device.h"

typedef struct { int calls; uint32_t status; WGPUDevice device; char msg[200]; } got_t;

static void copy(char *dst, size_t cap, WGPUStringView m)
{
    size_t n = m.length < cap - 1 ? m.length : cap - 1;
    for (size_t i = 0; i < n; i++) dst[i] = m.data[i];
    dst[n] = '\0';
}

static void on_device(WGPURequestDeviceStatus s, WGPUDevice d, WGPUStringView m, void *u1, void *u2)
{
    (void)u2;
    got_t *g = u1;
    g->calls++;
    g->status = s;
    g->device = d;
    copy(g->msg, sizeof g->msg, m);
}

static void on_adapter(WGPURequestAdapterStatus s, WGPUAdapter a, WGPUStringView m, void *u1, void *u2)
{
    (void)m; (void)u2;
    *(WGPUAdapter *)u1 = s == WGPURequestAdapterStatus_Success ? a : NULL;
}

static WGPUAdapter noop_adapter(WGPUInstance i)
{
    WGPUAdapter a = NULL;
    WGPURequestAdapterOptions o = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    o.backendType = WGPUBackendType_Null;
    WGPURequestAdapterCallbackInfo ci = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_AllowSpontaneous;
    ci.callback = on_adapter;
    ci.userdata1 = &a;
    wgpuInstanceRequestAdapter(i, &o, ci);
    return a;
}

static got_t request(WGPUAdapter a, const WGPUDeviceDescriptor *d)
{
    got_t g = { 0 };
    WGPURequestDeviceCallbackInfo ci = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_AllowSpontaneous;
    ci.callback = on_device;
    ci.userdata1 = &g;
    wgpuAdapterRequestDevice(a, d, ci);
    return g;
}

EG_TEST(device_request, unsupported_feature_fails)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    WGPUAdapter a = noop_adapter(i);
    if (!a) { wgpuInstanceRelease(i); EG_SKIP("noop not compiled in"); }
    WGPUFeatureName f = WGPUFeatureName_TextureCompressionBC;   /* noop does not offer it */
    WGPUDeviceDescriptor d = WGPU_DEVICE_DESCRIPTOR_INIT;
    d.requiredFeatureCount = 1;
    d.requiredFeatures = &f;
    got_t g = request(a, &d);
    EG_EXPECT_EQ_U(g.status, WGPURequestDeviceStatus_Error);
    EG_EXPECT(g.device == NULL);
    EG_EXPECT_STR_CONTAINS(g.msg, "requiredFeatures[0] TextureCompressionBC");
    wgpuAdapterRelease(a);
    wgpuInstanceRelease(i);
}

EG_TEST(device_request, limit_better_than_adapter_fails)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    WGPUAdapter a = noop_adapter(i);
    if (!a) { wgpuInstanceRelease(i); EG_SKIP("noop not compiled in"); }
    WGPULimits have = WGPU_LIMITS_INIT;
    wgpuAdapterGetLimits(a, &have);
    WGPULimits req = WGPU_LIMITS_INIT;   /* all UNDEFINED = defaults */
    req.maxBindGroups = have.maxBindGroups + 1;
    WGPUDeviceDescriptor d = WGPU_DEVICE_DESCRIPTOR_INIT;
    d.requiredLimits = &req;
    got_t g = request(a, &d);
    EG_EXPECT_EQ_U(g.status, WGPURequestDeviceStatus_Error);
    EG_EXPECT_STR_CONTAINS(g.msg, "requiredLimits.maxBindGroups 5");
    req.maxBindGroups = WGPU_LIMIT_U32_UNDEFINED;
    req.minUniformBufferOffsetAlignment = 384;   /* not a power of two */
    g = request(a, &d);
    EG_EXPECT_EQ_U(g.status, WGPURequestDeviceStatus_Error);
    EG_EXPECT_STR_CONTAINS(g.msg, "minUniformBufferOffsetAlignment 384 is not a power of two");
    req.minUniformBufferOffsetAlignment = 128;   /* power of two but better than 256 */
    g = request(a, &d);
    EG_EXPECT_EQ_U(g.status, WGPURequestDeviceStatus_Error);
    req.minUniformBufferOffsetAlignment = 512;   /* worse than the default: allowed */
    req.maxBindGroups = 2;                       /* worse than default: the default is given */
    g = request(a, &d);
    EG_ASSERT(g.status == WGPURequestDeviceStatus_Success);
    WGPULimits got = WGPU_LIMITS_INIT;
    wgpuDeviceGetLimits(g.device, &got);
    EG_EXPECT_EQ_U(got.maxBindGroups, 4);        /* spec: never below the default */
    EG_EXPECT_EQ_U(got.minUniformBufferOffsetAlignment, 256);
    wgpuDeviceRelease(g.device);
    wgpuAdapterRelease(a);
    wgpuInstanceRelease(i);
}

EG_TEST(device_request, unknown_stype_and_consumed_adapter)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    WGPUAdapter a = noop_adapter(i);
    if (!a) { wgpuInstanceRelease(i); EG_SKIP("noop not compiled in"); }
    WGPUChainedStruct bogus = { NULL, (WGPUSType)0x4242 };
    WGPUDeviceDescriptor d = WGPU_DEVICE_DESCRIPTOR_INIT;
    d.nextInChain = &bogus;
    got_t g = request(a, &d);
    EG_EXPECT_EQ_U(g.status, WGPURequestDeviceStatus_Error);
    EG_EXPECT_STR_CONTAINS(g.msg, "sType 0x4242");
    g = request(a, NULL);
    EG_ASSERT(g.status == WGPURequestDeviceStatus_Success);
    got_t second = request(a, NULL);   /* spec: an adapter is consumed by its device */
    EG_EXPECT_EQ_U(second.status, WGPURequestDeviceStatus_Error);
    EG_EXPECT_STR_CONTAINS(second.msg, "consumed");
    wgpuDeviceRelease(g.device);
    wgpuAdapterRelease(a);
    wgpuInstanceRelease(i);
}

typedef struct { int calls; WGPUDeviceLostReason reason; } lost_t;
static void on_lost(WGPUDevice const *d, WGPUDeviceLostReason r, WGPUStringView m, void *u1, void *u2)
{
    (void)d; (void)m; (void)u2;
    lost_t *l = u1;
    l->calls++;
    l->reason = r;
}

EG_TEST(device, destroy_fires_lost_callback_once)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    WGPUAdapter a = noop_adapter(i);
    if (!a) { wgpuInstanceRelease(i); EG_SKIP("noop not compiled in"); }
    lost_t l = { 0, 0 };
    WGPUDeviceDescriptor d = WGPU_DEVICE_DESCRIPTOR_INIT;
    d.deviceLostCallbackInfo.mode = WGPUCallbackMode_AllowProcessEvents;
    d.deviceLostCallbackInfo.callback = on_lost;
    d.deviceLostCallbackInfo.userdata1 = &l;
    got_t g = request(a, &d);
    EG_ASSERT(g.status == WGPURequestDeviceStatus_Success);
    WGPUFuture lf = wgpuDeviceGetLostFuture(g.device);
    EG_EXPECT(lf.id != 0);
    wgpuDeviceDestroy(g.device);
    EG_EXPECT_EQ_U(l.calls, 0);            /* AllowProcessEvents: not before ProcessEvents */
    wgpuInstanceProcessEvents(i);
    EG_EXPECT_EQ_U(l.calls, 1);
    EG_EXPECT_EQ_U(l.reason, WGPUDeviceLostReason_Destroyed);
    wgpuDeviceDestroy(g.device);           /* a second Destroy does nothing */
    wgpuInstanceProcessEvents(i);
    EG_EXPECT_EQ_U(l.calls, 1);
    wgpuDeviceRelease(g.device);
    wgpuAdapterRelease(a);
    wgpuInstanceRelease(i);
}

EG_TEST(device, uncaptured_error_callback_receives_errors)
{
    WGPUDevice d = eg_test_device("noop");
    if (!d) EG_SKIP("noop not compiled in");
    wgpuDevicePushErrorScope(d, (WGPUErrorFilter)77);
    EG_EXPECT_ERROR(WGPUErrorType_Validation, ENUM_VALUE, "filter 0x4d");
    eg_test_device_release();
}

EG_TEST(device, pool_exhaustion_names_the_knob)
{
    WGPUInstanceDescriptor id = WGPU_INSTANCE_DESCRIPTOR_INIT;
    WGPUInstanceFeatureName f = WGPUInstanceFeatureName_MultipleDevicesPerAdapter;
    id.requiredFeatureCount = 1;
    id.requiredFeatures = &f;
    WGPUInstance i = wgpuCreateInstance(&id);
    WGPUAdapter a = noop_adapter(i);
    if (!a) { wgpuInstanceRelease(i); EG_SKIP("noop not compiled in"); }
    WGPUDevice dev[EMGPU_MAX_DEVICES];
    for (uint32_t k = 0; k < EMGPU_MAX_DEVICES; k++) {
        got_t g = request(a, NULL);
        EG_EXPECT_EQ_U(g.status, WGPURequestDeviceStatus_Success);
        dev[k] = g.device;
    }
    got_t full = request(a, NULL);   /* capacity + 1 */
    EG_EXPECT_EQ_U(full.status, WGPURequestDeviceStatus_Error);
    EG_EXPECT_STR_CONTAINS(full.msg, "device pool full (EMGPU_MAX_DEVICES");
    wgpuDeviceRelease(dev[0]);
    got_t again = request(a, NULL);
    EG_EXPECT_EQ_U(again.status, WGPURequestDeviceStatus_Success);
    wgpuDeviceRelease(again.device);
    for (uint32_t k = 1; k < EMGPU_MAX_DEVICES; k++) wgpuDeviceRelease(dev[k]);
    wgpuAdapterRelease(a);
    struct WGPUInstanceImpl *inst = i;
    EG_EXPECT_EQ_U(inst->pools[EG_KIND_DEVICE].used, 0);
    EG_EXPECT_EQ_U(inst->pools[EG_KIND_ADAPTER].used, 0);
    wgpuInstanceRelease(i);
}
