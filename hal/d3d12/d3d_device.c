/* hal/d3d12 device: d3d12.dll/dxgi.dll through the port's loader, DXGI adapters, device info, debug layer, open/close.
 *
 * The libraries are loaded once per process (eg_port_lib_open, never linked). Adapters: the
 * DXGI factory's EnumAdapters1 order, keeping those D3D12CreateDevice accepts at feature level
 * 11_0 (a test creation with a NULL output), with an adapter whose description contains env
 * EMGPU_ADAPTER moved first; software adapters (DXGI_ADAPTER_FLAG_SOFTWARE) last. probe(0) is the
 * preferred one. With validation (EMGPU_D3D12_VALIDATION or the env variable) the debug layer is
 * enabled before the first device and each device's ID3D12InfoQueue is drained after every
 * submit; where the layer is not installed (wine's d3d12 has none) that is logged once.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "hal/d3d12/d3d_fault.h"
#include "kernel/api/device.h"
#include "kernel/api/features.h"
#include "kernel/base/fmt.h"
#include "port/port.h"

#define D3D_MAX_ADAPTERS 4

eg_d3d_fns_t eg_d3d;
static bool d3d_loaded, d3d_load_failed;
static IDXGIFactory1 *d3d_factory;
static IDXGIAdapter1 *d3d_adapters[D3D_MAX_ADAPTERS];
static uint32_t d3d_adapter_count;
static bool d3d_debug_tried, d3d_debug_on;
static uint32_t d3d_messages;
static eg_hal_device_t d3d_devices[EMGPU_MAX_DEVICES];

uint32_t eg_d3d_validation_messages(void) { return d3d_messages; }
bool eg_d3d_debug_layer_on(void) { return d3d_debug_on; }

void eg_d3d_knob_exhausted(const char *what, const char *knob, uint64_t value)
{
    eg_log(EG_LOG_ERROR, "d3d12: %s exhausted (%s = %llu)", what, knob, (unsigned long long)value);
}

/* void * -> function pointer through memcpy: ISO C has no cast between the two. */
static bool load_sym(void *lib, const char *name, void *slot, size_t size)
{
    void *p = lib ? eg_port_lib_symbol(lib, name) : NULL;
    if (p) eg_memcpy(slot, &p, size);
    return p != NULL;
}

static bool loader_open(void)
{
    if (d3d_loaded || d3d_load_failed) return d3d_loaded;
    void *d3d12 = eg_port_lib_open("d3d12.dll");
    void *dxgi = eg_port_lib_open("dxgi.dll");
    bool ok = load_sym(d3d12, "D3D12CreateDevice", &eg_d3d.D3D12CreateDevice, sizeof eg_d3d.D3D12CreateDevice) &&
              load_sym(d3d12, "D3D12SerializeRootSignature", &eg_d3d.D3D12SerializeRootSignature,
                       sizeof eg_d3d.D3D12SerializeRootSignature) &&
              load_sym(dxgi, "CreateDXGIFactory1", &eg_d3d.CreateDXGIFactory1, sizeof eg_d3d.CreateDXGIFactory1);
    load_sym(d3d12, "D3D12GetDebugInterface", &eg_d3d.D3D12GetDebugInterface, sizeof eg_d3d.D3D12GetDebugInterface);
    if (!ok) {
        eg_log(EG_LOG_WARN, "d3d12: %s not found", d3d12 ? "dxgi.dll or an entry point" : "d3d12.dll");
        d3d_load_failed = true;
        return false;
    }
    d3d_loaded = true;
    return true;
}

static bool validation_wanted(void)
{
    if (EMGPU_D3D12_VALIDATION) return true;
#if EMGPU_PORT_HAS_ENV
    const char *e = eg_port_getenv("EMGPU_D3D12_VALIDATION");
    return e && e[0] == '1';
#else
    return false;
#endif
}

/* The debug layer must be on before the first device is created; it stays on for the process. */
static void enable_debug_layer(void)
{
    if (d3d_debug_tried || !validation_wanted()) return;
    d3d_debug_tried = true;
    ID3D12Debug *dbg = NULL;
    if (eg_d3d.D3D12GetDebugInterface && SUCCEEDED(eg_d3d.D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&dbg)) &&
        dbg) {
        ID3D12Debug_EnableDebugLayer(dbg);
        ID3D12Debug_Release(dbg);
        d3d_debug_on = true;
    } else {
        eg_log(EG_LOG_WARN, "d3d12: EMGPU_D3D12_VALIDATION asks for the debug layer, which is not available");
    }
}

static void ascii_name(char *dst, const WCHAR *src)
{
    uint32_t i = 0;
    for (; src[i] && i + 1 < EG_DEVICE_NAME_MAX; i++) dst[i] = src[i] < 128 ? (char)src[i] : '?';
    dst[i] = '\0';
}

static bool name_contains(const char *hay, const char *needle)
{
    size_t n = eg_strlen(needle), h = eg_strlen(hay);
    for (size_t i = 0; n && i + n <= h; i++)
        if (eg_memcmp(hay + i, needle, n) == 0) return true;
    return false;
}

static uint32_t score(IDXGIAdapter1 *a)
{
    DXGI_ADAPTER_DESC1 d;
    char name[EG_DEVICE_NAME_MAX];
    if (FAILED(IDXGIAdapter1_GetDesc1(a, &d))) return 0;
    uint32_t s = (d.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) ? 1 : 2;
#if EMGPU_PORT_HAS_ENV
    const char *want = eg_port_getenv("EMGPU_ADAPTER");
    ascii_name(name, d.Description);
    if (want && want[0] && name_contains(name, want)) s += 100;
#else
    (void)name;
#endif
    return s;
}

/* Factory and the usable adapters, best first (insertion sort over at most D3D_MAX_ADAPTERS). */
static bool enumerate(void)
{
    if (d3d_factory) return d3d_adapter_count > 0;
    if (!loader_open()) return false;
    enable_debug_layer();
    if (FAILED(eg_d3d.CreateDXGIFactory1(&IID_IDXGIFactory1, (void **)&d3d_factory)) || !d3d_factory) {
        eg_log(EG_LOG_WARN, "d3d12: CreateDXGIFactory1 failed (no display? under wine, run inside xvfb-run)");
        d3d_factory = NULL;
        d3d_load_failed = true;
        return false;
    }
    for (UINT i = 0; d3d_adapter_count < D3D_MAX_ADAPTERS; i++) {
        IDXGIAdapter1 *a = NULL;
        if (IDXGIFactory1_EnumAdapters1(d3d_factory, i, &a) != S_OK || !a) break;
        /* A NULL output asks only whether creation would succeed. */
        if (FAILED(eg_d3d.D3D12CreateDevice((IUnknown *)a, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, NULL))) {
            IDXGIAdapter1_Release(a);
            continue;
        }
        uint32_t s = score(a), j = d3d_adapter_count++;
        while (j > 0 && score(d3d_adapters[j - 1]) < s) { d3d_adapters[j] = d3d_adapters[j - 1]; j--; }
        d3d_adapters[j] = a;
    }
    return d3d_adapter_count > 0;
}

/* ---- the D3D12 device of each adapter, kept between WebGPU devices ----
 *
 * WHY: creating an ID3D12Device is expensive (under wine's vkd3d over lavapipe it compiles the
 * driver's internal pipelines: about 4 s each), and every requestAdapter (probe) and
 * requestDevice created one. A WebGPU device's own objects (queue, fence, heaps, descriptors,
 * command allocators) are created per WebGPU device as before and freed when it closes; only
 * the ID3D12Device itself is kept, one per adapter, and handed out again while it is healthy
 * (GetDeviceRemovedReason == S_OK). A removed device is released and made anew. */
static ID3D12Device *d3d_kept[D3D_MAX_ADAPTERS];
static void forget_heaps_of(ID3D12Device *d);

static bool device_is_kept(ID3D12Device *d)
{
    for (uint32_t i = 0; i < D3D_MAX_ADAPTERS; i++)
        if (d && d3d_kept[i] == d) return true;
    return false;
}

static HRESULT device_of(uint32_t ordinal, ID3D12Device **out)
{
    if (eg_d3d_fault_armed()) {
        /* Fault walks fail calls of device creation and loss on purpose: their devices are made
         * fresh and released with the WebGPU device, as before the cache, so nothing a walk
         * leaves behind reaches the next test. */
        HRESULT hr = eg_d3d.D3D12CreateDevice((IUnknown *)d3d_adapters[ordinal], D3D_FEATURE_LEVEL_11_0,
                                              &IID_ID3D12Device, (void **)out);
        return FAILED(hr) || *out ? hr : E_FAIL;
    }
    ID3D12Device *k = d3d_kept[ordinal];
    if (k && ID3D12Device_GetDeviceRemovedReason(k) != S_OK) {
        forget_heaps_of(k);
        ID3D12Device_Release(k);
        d3d_kept[ordinal] = k = NULL;
    }
    if (!k) {
        HRESULT hr = eg_d3d.D3D12CreateDevice((IUnknown *)d3d_adapters[ordinal], D3D_FEATURE_LEVEL_11_0,
                                              &IID_ID3D12Device, (void **)&k);
        if (FAILED(hr) || !k) { *out = NULL; return FAILED(hr) ? hr : E_FAIL; }
        d3d_kept[ordinal] = k;              /* the cache's reference */
    }
    ID3D12Device_AddRef(k);                 /* the caller's */
    *out = k;
    return S_OK;
}

/* Descriptor heaps are kept the same way, for the same reason (measured under wine 8.0 + lavapipe
 * 25: about 10 s to create a WebGPU device's heaps, 10 ms for everything else). A closing device
 * returns its heaps here; the next device of the same ID3D12Device takes one of equal
 * description instead of creating it. Slots beyond EG_D3D_KEPT_HEAPS are released. A heap's old
 * descriptors are never read: every slot is written before use (free lists start anew). */
#define EG_D3D_KEPT_HEAPS 16
static struct {
    ID3D12Device *device;
    D3D12_DESCRIPTOR_HEAP_DESC desc;
    ID3D12DescriptorHeap *heap;
    bool in_use;
} d3d_kept_heaps[EG_D3D_KEPT_HEAPS];

static void forget_heaps_of(ID3D12Device *d)
{
    for (uint32_t i = 0; i < EG_D3D_KEPT_HEAPS; i++)
        if (d3d_kept_heaps[i].device == d && d3d_kept_heaps[i].heap && !d3d_kept_heaps[i].in_use) {
            ID3D12DescriptorHeap_Release(d3d_kept_heaps[i].heap);
            d3d_kept_heaps[i].heap = NULL;
            d3d_kept_heaps[i].device = NULL;
        }
}

HRESULT eg_d3d_heap_get(ID3D12Device *d, const D3D12_DESCRIPTOR_HEAP_DESC *hd, ID3D12DescriptorHeap **out)
{
    for (uint32_t i = 0; i < EG_D3D_KEPT_HEAPS; i++) {
        if (d3d_kept_heaps[i].heap && !d3d_kept_heaps[i].in_use && d3d_kept_heaps[i].device == d &&
            eg_memcmp(&d3d_kept_heaps[i].desc, hd, sizeof *hd) == 0) {
            d3d_kept_heaps[i].in_use = true;
            *out = d3d_kept_heaps[i].heap;
            return S_OK;
        }
    }
    return ID3D12Device_CreateDescriptorHeap(d, hd, &IID_ID3D12DescriptorHeap, (void **)out);
}

void eg_d3d_heap_put(ID3D12Device *d, ID3D12DescriptorHeap *h, bool keep)
{
    if (!h) return;
    /* Only a heap no GPU work can still read is kept: its device closed without loss, or lost by
     * an injected removal after which the queue was seen idle (lost_drained: the fault walks
     * then reuse heaps instead of creating them, seconds each under vkd3d), and the
     * ID3D12Device is healthy. */
    if (!keep || !device_is_kept(d) || ID3D12Device_GetDeviceRemovedReason(d) != S_OK) {
        for (uint32_t i = 0; i < EG_D3D_KEPT_HEAPS; i++)
            if (d3d_kept_heaps[i].heap == h) { d3d_kept_heaps[i].heap = NULL; d3d_kept_heaps[i].device = NULL; }
        ID3D12DescriptorHeap_Release(h);
        return;
    }
    for (uint32_t i = 0; i < EG_D3D_KEPT_HEAPS; i++)
        if (d3d_kept_heaps[i].heap == h) { d3d_kept_heaps[i].in_use = false; return; }
    for (uint32_t i = 0; i < EG_D3D_KEPT_HEAPS; i++)
        if (!d3d_kept_heaps[i].heap) {
            d3d_kept_heaps[i].device = d;
            d3d_kept_heaps[i].heap = h;
            h->lpVtbl->GetDesc(h, &d3d_kept_heaps[i].desc);   /* returns a struct: through lpVtbl */
            d3d_kept_heaps[i].in_use = false;
            return;
        }
    ID3D12DescriptorHeap_Release(h);
}

/* ---- device info ---- */

static bool format_has(ID3D12Device *dev, DXGI_FORMAT f, UINT need1, UINT need2)
{
    D3D12_FEATURE_DATA_FORMAT_SUPPORT fs = { f, 0, 0 };
    if (FAILED(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FORMAT_SUPPORT, &fs, sizeof fs))) return false;
    return ((UINT)fs.Support1 & need1) == need1 && ((UINT)fs.Support2 & need2) == need2;
}

/* RGB565 (WGPUTextureFormat_EmgpuRGB565Unorm = DXGI_FORMAT_B5G6R5_UNORM) must render, sample and
 * blend. The format support query alone is not trusted: vkd3d 1.6 (wine 8.0) answers it but has
 * no Vulkan mapping for the format, so GetResourceAllocationInfo of a small render target says
 * UINT64_MAX (README.md "Under wine"); either way the adapter reports the format missing and the
 * kernel makes its textures and targets validation errors (TEXTURE_FORMAT_ADAPTER). */
static bool rgb565_usable(ID3D12Device *d)
{
    const UINT need = D3D12_FORMAT_SUPPORT1_RENDER_TARGET | D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE |
                      D3D12_FORMAT_SUPPORT1_BLENDABLE;
    if (!format_has(d, DXGI_FORMAT_B5G6R5_UNORM, need, 0)) return false;
    D3D12_RESOURCE_DESC rd = { D3D12_RESOURCE_DIMENSION_TEXTURE2D, 0, 8, 8, 1, 1, DXGI_FORMAT_B5G6R5_UNORM,
                               { 1, 0 }, D3D12_TEXTURE_LAYOUT_UNKNOWN, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET };
    D3D12_RESOURCE_ALLOCATION_INFO ai;
    d->lpVtbl->GetResourceAllocationInfo(d, &ai, 0, 1, &rd);   /* struct return: through lpVtbl */
    return ai.SizeInBytes != UINT64_MAX && ai.SizeInBytes != 0;
}

static void add_feature(eg_device_info_t *info, WGPUFeatureName f, bool have)
{
    int b = eg_feature_bit(f);
    if (have && b >= 0) info->features |= (uint64_t)1 << b;
}

/* WebGPU limits start at the spec defaults; feature level 11_0 meets all of them except where
 * the resource binding tier is lower, and a buffer lives inside one heap. */
static void fill_info(ID3D12Device *d, eg_device_info_t *info)
{
    WGPULimits *l = &info->limits;
    eg_limits_default(l);
    if (l->maxBufferSize > EMGPU_D3D12_HEAP_BLOCK_BYTES) l->maxBufferSize = EMGPU_D3D12_HEAP_BLOCK_BYTES;
    if (l->maxStorageBufferBindingSize > EMGPU_D3D12_HEAP_BLOCK_BYTES)
        l->maxStorageBufferBindingSize = EMGPU_D3D12_HEAP_BLOCK_BYTES;
    D3D12_FEATURE_DATA_D3D12_OPTIONS o;
    eg_memset(&o, 0, sizeof o);
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(d, D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof o)) &&
        o.ResourceBindingTier == D3D12_RESOURCE_BINDING_TIER_1)
        eg_log(EG_LOG_WARN, "d3d12: resource binding tier 1 (8 UAVs per stage): storage bindings beyond 8 will fail");
    const UINT sample = D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE;
    add_feature(info, WGPUFeatureName_CoreFeaturesAndLimits, true);
    add_feature(info, WGPUFeatureName_Depth32FloatStencil8,
                format_has(d, DXGI_FORMAT_D32_FLOAT_S8X24_UINT, D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL, 0));
    add_feature(info, WGPUFeatureName_IndirectFirstInstance, true);
    add_feature(info, WGPUFeatureName_Float32Filterable,
                format_has(d, DXGI_FORMAT_R32_FLOAT, sample, 0) && format_has(d, DXGI_FORMAT_R32G32B32A32_FLOAT, sample, 0));
    add_feature(info, WGPUFeatureName_RG11B10UfloatRenderable,
                format_has(d, DXGI_FORMAT_R11G11B10_FLOAT,
                           D3D12_FORMAT_SUPPORT1_RENDER_TARGET | D3D12_FORMAT_SUPPORT1_BLENDABLE, 0));
    add_feature(info, WGPUFeatureName_BGRA8UnormStorage,
                format_has(d, DXGI_FORMAT_B8G8R8A8_UNORM, 0, D3D12_FORMAT_SUPPORT2_UAV_TYPED_STORE));
    if (!rgb565_usable(d)) {
        static bool said;
        info->ext_formats_missing |= EG_EXT_FORMAT_RGB565;
        if (!said) eg_log(EG_LOG_INFO, "d3d12: the driver cannot render DXGI_FORMAT_B5G6R5_UNORM: EmgpuRGB565Unorm "
                          "is reported missing (wgpuAdapterEmgpuHasTextureFormat)");
        said = true;
    }
}

eg_status_t eg_d3d_probe(uint32_t ordinal, eg_device_info_t *info)
{
    if (!enumerate() || ordinal >= d3d_adapter_count) return EG_STATUS_UNAVAILABLE;
    IDXGIAdapter1 *a = d3d_adapters[ordinal];
    DXGI_ADAPTER_DESC1 ad;
    if (FAILED(IDXGIAdapter1_GetDesc1(a, &ad))) return EG_STATUS_UNAVAILABLE;
    ID3D12Device *d = NULL;
    if (FAILED(device_of(ordinal, &d))) return EG_STATUS_UNAVAILABLE;
    eg_memset(info, 0, sizeof *info);
    info->backend = WGPUBackendType_D3D12;
    info->adapter_type = (ad.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) ? WGPUAdapterType_CPU
                       : ad.DedicatedVideoMemory > 512u * 1024u * 1024u ? WGPUAdapterType_DiscreteGPU
                                                                        : WGPUAdapterType_IntegratedGPU;
    info->vendor_id = ad.VendorId;
    info->device_id = ad.DeviceId;
    eg_fmt(info->vendor, sizeof info->vendor, "0x%04x", (unsigned)ad.VendorId);
    eg_fmt(info->architecture, sizeof info->architecture, "d3d12");
    ascii_name(info->device, ad.Description);
    eg_fmt(info->description, sizeof info->description, "Direct3D 12, feature level 11_0");
    fill_info(d, info);
    ID3D12Device_Release(d);
    info->ordinal = ordinal;
    return EG_STATUS_OK;
}

/* ---- errors, loss, the debug layer's messages ---- */

/* An injected removal leaves the real device running: objects must not be released under it,
 * so loss waits (up to 5 s, past the fault wrappers) for everything queued so far. On a real
 * removal the fence reads UINT64_MAX and this returns at once. */
static bool wait_idle_unfaulted(eg_hal_device_t *dev)
{
    if (!dev->queue || !dev->fence || !dev->fence_event) return false;
    uint64_t v = ++dev->next_fence;
    if (FAILED(ID3D12CommandQueue_Signal(dev->queue, dev->fence, v))) return false;
    if (ID3D12Fence_GetCompletedValue(dev->fence) >= v) return true;
    if (SUCCEEDED(ID3D12Fence_SetEventOnCompletion(dev->fence, v, dev->fence_event)))
        WaitForSingleObject(dev->fence_event, 5000);
    /* A real removal reads UINT64_MAX here too, but then GetDeviceRemovedReason is not S_OK and
     * eg_d3d_heap_put keeps nothing of that device. */
    return ID3D12Fence_GetCompletedValue(dev->fence) >= v;
}

eg_status_t eg_d3d_check(eg_hal_device_t *dev, HRESULT hr, const char *what)
{
    if (SUCCEEDED(hr)) return EG_STATUS_OK;
    bool lost = hr == DXGI_ERROR_DEVICE_REMOVED || hr == DXGI_ERROR_DEVICE_RESET || hr == DXGI_ERROR_DEVICE_HUNG;
    if (!lost) {
        eg_log(EG_LOG_WARN, "d3d12: %s failed (HRESULT 0x%08x)", what, (unsigned)hr);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    if (dev && !dev->lost) {
        dev->lost = true;
        dev->lost_drained = wait_idle_unfaulted(dev);
        eg_log(EG_LOG_ERROR, "d3d12: %s reported device removal (HRESULT 0x%08x)", what, (unsigned)hr);
        /* A lost device finishes nothing more: every submission counts as complete. */
        dev->completed_fence = dev->next_fence;
        dev->completed_index = dev->submitted_index;
        for (uint32_t i = 0; i < EMGPU_D3D12_COMMAND_RING; i++) dev->slots[i].in_flight = false;
        if (dev->kdev) eg_device_lose(dev->kdev, WGPUDeviceLostReason_Unknown, "the D3D12 device was removed");
    }
    return EG_STATUS_DEVICE_LOST;
}

uint32_t eg_d3d_drain_messages(eg_hal_device_t *dev)
{
    if (!dev->info_queue) return 0;
    UINT64 n = ID3D12InfoQueue_GetNumStoredMessages(dev->info_queue);
    for (UINT64 i = 0; i < n; i++) {
        /* Messages are variable-size; a static buffer bounds what is printed (no heap). */
        static _Alignas(8) uint8_t buf[2048];
        SIZE_T len = sizeof buf;
        D3D12_MESSAGE *m = (D3D12_MESSAGE *)(void *)buf;
        if (FAILED(ID3D12InfoQueue_GetMessage(dev->info_queue, i, NULL, &len)) || len > sizeof buf ||
            FAILED(ID3D12InfoQueue_GetMessage(dev->info_queue, i, m, &len))) {
            eg_log(EG_LOG_WARN, "d3d12 validation: (message too long to show)");
            continue;
        }
        eg_log(m->Severity <= D3D12_MESSAGE_SEVERITY_ERROR ? EG_LOG_ERROR : EG_LOG_WARN, "d3d12 validation: %s",
               m->pDescription ? m->pDescription : "(no text)");
    }
    ID3D12InfoQueue_ClearStoredMessages(dev->info_queue);
    d3d_messages += (uint32_t)n;
    return (uint32_t)n;
}

/* ---- device ---- */

static eg_status_t create_core(eg_hal_device_t *d)
{
    HRESULT hr = EG_D3D_CALL("D3D12CreateDevice", device_of(d->info->ordinal, &d->device));
    if (FAILED(hr) || !d->device) { d->device = NULL; return eg_d3d_check(NULL, hr, "D3D12CreateDevice"); }
    if (d3d_debug_on &&
        SUCCEEDED(ID3D12Device_QueryInterface(d->device, &IID_ID3D12InfoQueue, (void **)&d->info_queue))) {
        /* Store errors and warnings; info messages (object creation chatter) are not kept. */
        D3D12_MESSAGE_SEVERITY deny[1] = { D3D12_MESSAGE_SEVERITY_INFO };
        D3D12_INFO_QUEUE_FILTER f;
        eg_memset(&f, 0, sizeof f);
        f.DenyList.NumSeverities = 1;
        f.DenyList.pSeverityList = deny;
        ID3D12InfoQueue_PushStorageFilter(d->info_queue, &f);
    } else {
        d->info_queue = NULL;
    }
    d->validation = d->info_queue != NULL;
    D3D12_COMMAND_QUEUE_DESC qd = { D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0 };
    hr = EG_D3D_CALL("CreateCommandQueue", ID3D12Device_CreateCommandQueue(d->device, &qd, &IID_ID3D12CommandQueue,
                                                                             (void **)&d->queue));
    if (FAILED(hr)) { d->queue = NULL; return eg_d3d_check(d, hr, "CreateCommandQueue"); }
    hr = EG_D3D_CALL("CreateFence", ID3D12Device_CreateFence(d->device, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence,
                                                              (void **)&d->fence));
    if (FAILED(hr)) { d->fence = NULL; return eg_d3d_check(d, hr, "CreateFence"); }
    d->fence_event = CreateEventA(NULL, FALSE, FALSE, NULL);
    return d->fence_event ? EG_STATUS_OK : EG_STATUS_OUT_OF_MEMORY;
}

eg_status_t eg_d3d_device_open(const eg_device_info_t *info, eg_hal_device_t **out)
{
    if (!enumerate() || info->ordinal >= d3d_adapter_count) return EG_STATUS_UNAVAILABLE;
    eg_hal_device_t *d = NULL;
    for (uint32_t i = 0; i < EG_ARRAY_LEN(d3d_devices) && !d; i++)
        if (!d3d_devices[i].open) d = &d3d_devices[i];
    if (!d) return EG_STATUS_OUT_OF_MEMORY;
    eg_memset(d, 0, sizeof *d);
    d->info = info;
    d->adapter = d3d_adapters[info->ordinal];
    d->open = true;
    eg_status_t st = create_core(d);
    if (st == EG_STATUS_OK) st = eg_d3d_memory_init(d);
    if (st == EG_STATUS_OK) st = eg_d3d_desc_init(d);
    if (st == EG_STATUS_OK) st = eg_d3d_gpu_heaps_init(d);
    if (st == EG_STATUS_OK) st = eg_d3d_ring_init(d);
    if (st == EG_STATUS_OK) st = eg_d3d_staging_init(d);
    if (st != EG_STATUS_OK) {
        eg_d3d_device_close(d);
        return st == EG_STATUS_DEVICE_LOST ? EG_STATUS_OUT_OF_MEMORY : st;
    }
    *out = d;
    return EG_STATUS_OK;
}

void eg_d3d_device_close(eg_hal_device_t *dev)
{
    if (!dev->open) return;
    if (dev->queue && dev->fence) eg_d3d_flush_and_wait(dev);
    eg_d3d_staging_fini(dev);
    eg_d3d_ring_fini(dev);
    eg_d3d_gpu_heaps_fini(dev);
    eg_d3d_indirect_fini(dev);
    eg_d3d_desc_fini(dev);
    eg_d3d_memory_fini(dev);
    if (dev->info_queue) { eg_d3d_drain_messages(dev); ID3D12InfoQueue_Release(dev->info_queue); }
    if (dev->fence_event) CloseHandle(dev->fence_event);
    if (dev->fence) ID3D12Fence_Release(dev->fence);
    if (dev->queue) ID3D12CommandQueue_Release(dev->queue);
    if (dev->device) ID3D12Device_Release(dev->device);
    dev->info_queue = NULL;
    dev->fence_event = NULL;
    dev->fence = NULL;
    dev->queue = NULL;
    dev->device = NULL;
    dev->open = false;
}

uint64_t eg_d3d_gpu_descriptors_used_all(uint32_t kind)
{
    uint64_t u = 0;
    for (uint32_t i = 0; i < EG_ARRAY_LEN(d3d_devices); i++)
        if (d3d_devices[i].open) u += eg_d3d_gpu_descriptors_used(&d3d_devices[i], kind);
    return u;
}

uint64_t eg_d3d_memory_used_all(void)
{
    uint64_t u = 0;
    for (uint32_t i = 0; i < EG_ARRAY_LEN(d3d_devices); i++)
        if (d3d_devices[i].open) u += eg_d3d_memory_used(&d3d_devices[i]);
    return u;
}

#endif /* EMGPU_HAL_D3D12 */
