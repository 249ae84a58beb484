/* Test helpers: one instance + adapter + device per test, errors recorded from the uncaptured callback. */
#include "tests/harness/test_device.h"

#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/base/util.h"
#include "port/port.h"

eg_test_errors_t eg_test_err;

static WGPUInstance t_inst;
static WGPUAdapter t_adapter;
static WGPUDevice t_device;
static WGPUQueue t_queue;

void eg_test_errors_reset(void)
{
    eg_memset(&eg_test_err, 0, sizeof eg_test_err);
}

static void on_error(WGPUDevice const *device, WGPUErrorType type, WGPUStringView message, void *u1, void *u2)
{
    (void)u1; (void)u2;
    if (eg_test_err.count++ > 0) return;
    eg_test_err.type = type;
    eg_test_err.code = eg_device_last_error_code(device ? *device : NULL);
    size_t n = message.length == WGPU_STRLEN ? eg_strlen(message.data) : message.length;
    if (n >= sizeof eg_test_err.message) n = sizeof eg_test_err.message - 1;
    eg_memcpy(eg_test_err.message, message.data, n);
    eg_test_err.message[n] = '\0';
}

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message,
                       void *u1, void *u2)
{
    (void)message; (void)u2;
    *(WGPUAdapter *)u1 = status == WGPURequestAdapterStatus_Success ? adapter : NULL;
}

static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message,
                      void *u1, void *u2)
{
    (void)message; (void)u2;
    *(WGPUDevice *)u1 = status == WGPURequestDeviceStatus_Success ? device : NULL;
}

WGPUInstance eg_test_instance(void)
{
    return t_inst;
}

/* EMGPU_TEST_BACKEND=vulkan|gles|d3d12 runs every test that asks for "soft" on that backend
 * instead, so the API tests double as backend tests (tools/test_all.sh does this per driver). */
static const char *t_backend = "soft";

const char *eg_test_backend(void)
{
    return t_backend;
}

static WGPUBackendType backend_override(const char **name)
{
    const char *env = eg_port_getenv("EMGPU_TEST_BACKEND");
    if (!env || !*env || eg_strcmp(env, "soft") == 0) return WGPUBackendType_Undefined;
    *name = env;
    if (eg_strcmp(env, "vulkan") == 0) return WGPUBackendType_Vulkan;
    if (eg_strcmp(env, "gles") == 0) return WGPUBackendType_OpenGLES;
    if (eg_strcmp(env, "d3d12") == 0) return WGPUBackendType_D3D12;
    return WGPUBackendType_Undefined;
}

WGPUDevice eg_test_device(const char *backend)
{
    if (t_inst) eg_test_device_release();
    eg_test_errors_reset();
    WGPUInstanceFeatureName feats[] = { WGPUInstanceFeatureName_TimedWaitAny };
    WGPUInstanceLimits lim = WGPU_INSTANCE_LIMITS_INIT;
    lim.timedWaitAnyMaxCount = 4;
    WGPUInstanceDescriptor id = WGPU_INSTANCE_DESCRIPTOR_INIT;
    id.requiredFeatureCount = 1;
    id.requiredFeatures = feats;
    id.requiredLimits = &lim;
    t_inst = wgpuCreateInstance(&id);
    if (!t_inst) return NULL;
    WGPURequestAdapterOptions opt = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    t_backend = backend;
    WGPUBackendType over = eg_strcmp(backend, "soft") == 0 ? backend_override(&t_backend)
                                                          : WGPUBackendType_Undefined;
    if (over != WGPUBackendType_Undefined) opt.backendType = over;
    else if (eg_strcmp(backend, "soft") == 0) opt.forceFallbackAdapter = WGPU_TRUE;
    else if (eg_strcmp(backend, "noop") == 0) opt.backendType = WGPUBackendType_Null;
    WGPURequestAdapterCallbackInfo aci = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    aci.mode = WGPUCallbackMode_AllowSpontaneous;
    aci.callback = on_adapter;
    aci.userdata1 = &t_adapter;
    wgpuInstanceRequestAdapter(t_inst, &opt, aci);
    if (!t_adapter) {
        eg_test_device_release();
        return NULL;
    }
    WGPUDeviceDescriptor dd = WGPU_DEVICE_DESCRIPTOR_INIT;
    dd.uncapturedErrorCallbackInfo.callback = on_error;
    WGPURequestDeviceCallbackInfo dci = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    dci.mode = WGPUCallbackMode_AllowSpontaneous;
    dci.callback = on_device;
    dci.userdata1 = &t_device;
    wgpuAdapterRequestDevice(t_adapter, &dd, dci);
    if (!t_device) {
        eg_test_device_release();
        return NULL;
    }
    return t_device;
}

WGPUQueue eg_test_queue(void)
{
    if (!t_queue && t_device) t_queue = wgpuDeviceGetQueue(t_device);
    return t_queue;
}

void eg_test_device_release(void)
{
    if (t_queue) wgpuQueueRelease(t_queue);
    if (t_device) wgpuDeviceRelease(t_device);
    if (t_adapter) wgpuAdapterRelease(t_adapter);
    t_queue = NULL;
    t_device = NULL;
    t_adapter = NULL;
    if (!t_inst) return;
    wgpuInstanceProcessEvents(t_inst);
    /* Every test releases what it creates: a pool that is not empty now is a leak. */
    for (uint32_t k = EG_KIND_ADAPTER; k < EG_KIND_COUNT; k++) {
        const eg_pool_t *p = &t_inst->pools[k];
        if (p->used) {
            eg_test_printf("    %u %s object(s) still alive at the end of the test\n", (unsigned)p->used, p->name);
            eg_test_fail(__FILE__, __LINE__, "all pools empty after eg_test_device_release");
        }
    }
    wgpuInstanceRelease(t_inst);
    t_inst = NULL;
}

bool eg_test_wait(WGPUFuture f)
{
    if (!t_inst) return false;
    WGPUFutureWaitInfo w = { f, WGPU_FALSE };
    WGPUWaitStatus st = wgpuInstanceWaitAny(t_inst, 1, &w, 2000000000ull);
    return st == WGPUWaitStatus_Success && w.completed;
}
