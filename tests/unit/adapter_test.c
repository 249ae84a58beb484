/* Adapters: backend selection rules, info, limits, features, the adapter pool. */
#include "kernel/api/features.h"
#include "kernel/api/instance.h"
#include "tests/harness/test_device.h"

typedef struct { WGPURequestAdapterStatus status; WGPUAdapter adapter; char msg[200]; int calls; } got_t;

static void on_adapter(WGPURequestAdapterStatus s, WGPUAdapter a, WGPUStringView m, void *u1, void *u2)
{
    (void)u2;
    got_t *g = u1;
    g->calls++;
    g->status = s;
    g->adapter = a;
    size_t n = m.length < sizeof g->msg - 1 ? m.length : sizeof g->msg - 1;
    for (size_t i = 0; i < n; i++) g->msg[i] = m.data[i];
    g->msg[n] = '\0';
}

static got_t request(WGPUInstance i, const WGPURequestAdapterOptions *o)
{
    got_t g = { 0 };
    WGPURequestAdapterCallbackInfo ci = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    ci.mode = WGPUCallbackMode_AllowSpontaneous;
    ci.callback = on_adapter;
    ci.userdata1 = &g;
    wgpuInstanceRequestAdapter(i, o, ci);
    return g;
}

EG_TEST(adapter, force_fallback_picks_soft_as_cpu)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    WGPURequestAdapterOptions o = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    o.forceFallbackAdapter = WGPU_TRUE;
    got_t g = request(i, &o);
    EG_EXPECT_EQ_U(g.calls, 1);   /* AllowSpontaneous: fired inside the call */
    if (!EMGPU_HAL_SOFT) {
        EG_EXPECT_EQ_U(g.status, WGPURequestAdapterStatus_Unavailable);
    } else {
        EG_ASSERT(g.status == WGPURequestAdapterStatus_Success);
        WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
        EG_EXPECT_EQ_U(wgpuAdapterGetInfo(g.adapter, &info), WGPUStatus_Success);
        EG_EXPECT_EQ_U(info.adapterType, WGPUAdapterType_CPU);   /* the fallback is the CPU adapter */
        wgpuAdapterInfoFreeMembers(info);
        wgpuAdapterRelease(g.adapter);
    }
    wgpuInstanceRelease(i);
}

EG_TEST(adapter, backend_null_picks_noop_with_default_limits)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    WGPURequestAdapterOptions o = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    o.backendType = WGPUBackendType_Null;
    got_t g = request(i, &o);
    if (!EMGPU_HAL_NOOP) { wgpuInstanceRelease(i); EG_SKIP("noop not compiled in"); }
    EG_ASSERT(g.status == WGPURequestAdapterStatus_Success);
    WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
    wgpuAdapterGetInfo(g.adapter, &info);
    EG_EXPECT_EQ_U(info.backendType, WGPUBackendType_Null);
    EG_EXPECT(info.description.length > 0);
    WGPULimits l = WGPU_LIMITS_INIT;
    EG_EXPECT_EQ_U(wgpuAdapterGetLimits(g.adapter, &l), WGPUStatus_Success);
    /* WebGPU spec "Limits" table, Default column. */
    EG_EXPECT_EQ_U(l.maxTextureDimension2D, 8192);
    EG_EXPECT_EQ_U(l.maxBindGroups, 4);
    EG_EXPECT_EQ_U(l.minUniformBufferOffsetAlignment, 256);
    EG_EXPECT_EQ_U(l.maxBufferSize, 268435456);
    EG_EXPECT_EQ_U(l.maxComputeWorkgroupSizeZ, 64);
    WGPUSupportedFeatures sf = WGPU_SUPPORTED_FEATURES_INIT;
    wgpuAdapterGetFeatures(g.adapter, &sf);
    EG_EXPECT(sf.featureCount >= 1);
    EG_EXPECT(wgpuAdapterHasFeature(g.adapter, WGPUFeatureName_CoreFeaturesAndLimits));
    EG_EXPECT(!wgpuAdapterHasFeature(g.adapter, WGPUFeatureName_TextureCompressionBC));
    wgpuSupportedFeaturesFreeMembers(sf);
    wgpuAdapterRelease(g.adapter);
    wgpuInstanceRelease(i);
}

EG_TEST(adapter, unavailable_backend_reports_unavailable)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    WGPURequestAdapterOptions o = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    o.backendType = WGPUBackendType_D3D11;   /* never compiled into emgpu */
    got_t g = request(i, &o);
    EG_EXPECT_EQ_U(g.status, WGPURequestAdapterStatus_Unavailable);
    EG_EXPECT(g.adapter == NULL);
    EG_EXPECT_STR_CONTAINS(g.msg, "backendType");
    wgpuInstanceRelease(i);
}

EG_TEST(adapter, unknown_stype_in_options_is_an_error)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    WGPUChainedStruct bogus = { NULL, (WGPUSType)0x12345 };
    WGPURequestAdapterOptions o = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    o.nextInChain = &bogus;
    got_t g = request(i, &o);
    EG_EXPECT_EQ_U(g.status, WGPURequestAdapterStatus_Error);
    EG_EXPECT_STR_CONTAINS(g.msg, "sType 0x12345");
    wgpuInstanceRelease(i);
}

EG_TEST(adapter, pool_exhaustion_names_the_knob)
{
    WGPUInstance i = wgpuCreateInstance(NULL);
    WGPURequestAdapterOptions o = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    /* A backend that needs no driver, so the pool is what runs out: the board's first backend
     * (o's default) may be a GPU one whose driver this machine lacks. */
    if (EMGPU_HAL_SOFT) o.forceFallbackAdapter = WGPU_TRUE;
    else if (EMGPU_HAL_NOOP) o.backendType = WGPUBackendType_Null;
    got_t first = request(i, &o);
    if (first.status == WGPURequestAdapterStatus_Unavailable) {
        wgpuInstanceRelease(i);
        EG_SKIP("the board's default backend found no device and neither soft nor noop is compiled in");
    }
    WGPUAdapter a[EMGPU_MAX_ADAPTERS];
    EG_EXPECT_EQ_U(first.status, WGPURequestAdapterStatus_Success);
    a[0] = first.adapter;
    for (uint32_t k = 1; k < EMGPU_MAX_ADAPTERS; k++) {
        got_t g = request(i, &o);
        EG_EXPECT_EQ_U(g.status, WGPURequestAdapterStatus_Success);
        a[k] = g.adapter;
    }
    got_t full = request(i, &o);   /* capacity + 1 */
    EG_EXPECT_EQ_U(full.status, WGPURequestAdapterStatus_Error);
    EG_EXPECT_STR_CONTAINS(full.msg, "adapter pool full (EMGPU_MAX_ADAPTERS");
    wgpuAdapterRelease(a[0]);
    got_t again = request(i, &o);   /* releasing one makes room */
    EG_EXPECT_EQ_U(again.status, WGPURequestAdapterStatus_Success);
    wgpuAdapterRelease(again.adapter);
    for (uint32_t k = 1; k < EMGPU_MAX_ADAPTERS; k++) wgpuAdapterRelease(a[k]);
    wgpuInstanceRelease(i);
}
