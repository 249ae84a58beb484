/* Example helper: an adapter and device on the software backend, through the public API only.
 *
 * The software rasterizer is the CPU adapter, which WebGPU calls the fallback adapter: asking
 * for it with forceFallbackAdapter picks hal/soft on every board. Callbacks use WaitAnyOnly mode
 * and wgpuInstanceWaitAny, so nothing runs behind the application's back.
 */
#ifndef EMGPU_EXAMPLE_SOFT_DEVICE_H
#define EMGPU_EXAMPLE_SOFT_DEVICE_H

#include <webgpu/webgpu.h>

#include <stddef.h>

/** Waits for one future by polling wgpuInstanceWaitAny with timeout 0 (timed waits need the
 *  instance's timedWaitAny feature); true once it completed. */
static int example_wait(WGPUInstance instance, WGPUFuture future)
{
    WGPUFutureWaitInfo wait = WGPU_FUTURE_WAIT_INFO_INIT;
    wait.future = future;
    for (int i = 0; i < 100000; i++) {
        WGPUWaitStatus st = wgpuInstanceWaitAny(instance, 1, &wait, 0);
        if (st == WGPUWaitStatus_Success) return wait.completed != 0;
        if (st != WGPUWaitStatus_TimedOut) return 0;
    }
    return 0;
}

static void example_on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter,
                               WGPUStringView message, void *userdata1, void *userdata2)
{
    (void)message;
    (void)userdata2;
    *(WGPUAdapter *)userdata1 = status == WGPURequestAdapterStatus_Success ? adapter : NULL;
}

static void example_on_device(WGPURequestDeviceStatus status, WGPUDevice device,
                              WGPUStringView message, void *userdata1, void *userdata2)
{
    (void)message;
    (void)userdata2;
    *(WGPUDevice *)userdata1 = status == WGPURequestDeviceStatus_Success ? device : NULL;
}

/** Requests the software adapter and a device (desc may be NULL: default limits); NULL when
 *  either fails. *adapter_out is the adapter (the caller releases it) or NULL. */
static WGPUDevice example_soft_device(WGPUInstance instance, const WGPUDeviceDescriptor *desc,
                                      WGPUAdapter *adapter_out)
{
    WGPUAdapter adapter = NULL;
    WGPUDevice device = NULL;
    WGPURequestAdapterOptions opt = WGPU_REQUEST_ADAPTER_OPTIONS_INIT;
    opt.forceFallbackAdapter = WGPU_TRUE;
    WGPURequestAdapterCallbackInfo acb = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    acb.mode = WGPUCallbackMode_WaitAnyOnly;
    acb.callback = example_on_adapter;
    acb.userdata1 = &adapter;
    *adapter_out = NULL;
    if (!example_wait(instance, wgpuInstanceRequestAdapter(instance, &opt, acb)) || !adapter)
        return NULL;
    *adapter_out = adapter;

    WGPURequestDeviceCallbackInfo dcb = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    dcb.mode = WGPUCallbackMode_WaitAnyOnly;
    dcb.callback = example_on_device;
    dcb.userdata1 = &device;
    if (!example_wait(instance, wgpuAdapterRequestDevice(adapter, desc, dcb))) return NULL;
    return device;
}

static void example_on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *userdata1,
                           void *userdata2)
{
    (void)message;
    (void)userdata2;
    *(WGPUMapAsyncStatus *)userdata1 = status;
}

/** Maps `buffer` for reading and waits; true on success. */
static int example_map_read(WGPUInstance instance, WGPUBuffer buffer, size_t size_B)
{
    WGPUMapAsyncStatus status = (WGPUMapAsyncStatus)0;
    WGPUBufferMapCallbackInfo mcb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
    mcb.mode = WGPUCallbackMode_WaitAnyOnly;
    mcb.callback = example_on_map;
    mcb.userdata1 = &status;
    if (!example_wait(instance, wgpuBufferMapAsync(buffer, WGPUMapMode_Read, 0, size_B, mcb)))
        return 0;
    return status == WGPUMapAsyncStatus_Success;
}

#endif /* EMGPU_EXAMPLE_SOFT_DEVICE_H */
