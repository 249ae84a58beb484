/* No-heap proof: malloc/calloc/realloc/free are interposed, and none may be called between
 * wgpuCreateInstance returning and the instance's release, while a full create / record / submit /
 * readback / destroy cycle (plus a validation error caught by an error scope) runs on hal/soft.
 *
 * Hosted boards only, and not under ASan (its allocator replaces these same symbols; the
 * host-asan board excludes this program). The interposers forward to glibc's __libc_* entry
 * points, so every allocation, ours or glibc's own, still lands in the one glibc heap.
 */
#include <webgpu/webgpu.h>

#include "examples/soft_device.h"
#include "tests/harness/harness.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Under ASan (should the board's HOSTED_EXCLUDE be missing) the interposers would fight its
 * allocator: compile them out and report the test skipped instead. */
#if defined(__SANITIZE_ADDRESS__)
#define NO_ALLOC_INTERPOSE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_ALLOC_INTERPOSE 0
#endif
#endif
#ifndef NO_ALLOC_INTERPOSE
#define NO_ALLOC_INTERPOSE 1
#endif

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *ptr, size_t size);
void __libc_free(void *ptr);

#if defined(__GNUC__) || defined(__clang__)
#define CALLER() __builtin_return_address(0)
#else
#define CALLER() NULL
#endif

/* Written by the interposers, read by the test; single-threaded (soft runs on the caller). */
static volatile bool armed;
static volatile unsigned heap_calls;
static const char *volatile first_fn;
static void *volatile first_caller;

#if NO_ALLOC_INTERPOSE
static void note(const char *fn, void *caller)
{
    if (!armed) return;
    if (heap_calls++ == 0) {
        first_fn = fn;
        first_caller = caller;
    }
}

void *malloc(size_t size)
{
    note("malloc", CALLER());
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size)
{
    note("calloc", CALLER());
    return __libc_calloc(count, size);
}

void *realloc(void *ptr, size_t size)
{
    note("realloc", CALLER());
    return __libc_realloc(ptr, size);
}

void free(void *ptr)
{
    /* free(NULL) allocates nothing; glibc itself calls it that way. */
    if (ptr) note("free", CALLER());
    __libc_free(ptr);
}
#endif /* NO_ALLOC_INTERPOSE */

#define SIDE_PX 16u
#define ROW_B 256u /* bytesPerRow: a multiple of 256 (WebGPU copy rules) */
#define UPLOAD_B 64u

static void on_pop(WGPUPopErrorScopeStatus status, WGPUErrorType type, WGPUStringView message,
                   void *userdata1, void *userdata2)
{
    (void)message;
    (void)userdata2;
    *(WGPUErrorType *)userdata1 = status == WGPUPopErrorScopeStatus_Success ? type
                                                                            : WGPUErrorType_Unknown;
}

/* A buffer usage the spec forbids (MapRead with MapWrite: "validating GPUBufferDescriptor"),
 * caught by an error scope: the error path formats a message and must not allocate either. */
static void validation_error_in_scope(WGPUInstance instance, WGPUDevice device)
{
    wgpuDevicePushErrorScope(device, WGPUErrorFilter_Validation);
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = WGPUBufferUsage_MapRead | WGPUBufferUsage_MapWrite;
    bd.size = 16;
    WGPUBuffer bad = wgpuDeviceCreateBuffer(device, &bd);
    WGPUErrorType type = WGPUErrorType_NoError;
    WGPUPopErrorScopeCallbackInfo cb = WGPU_POP_ERROR_SCOPE_CALLBACK_INFO_INIT;
    cb.mode = WGPUCallbackMode_WaitAnyOnly;
    cb.callback = on_pop;
    cb.userdata1 = &type;
    EG_EXPECT(example_wait(instance, wgpuDevicePopErrorScope(device, cb)));
    EG_EXPECT_EQ_U(type, WGPUErrorType_Validation);
    if (bad) wgpuBufferRelease(bad);
}

static WGPUBuffer make_buffer(WGPUDevice device, WGPUBufferUsage usage, uint64_t size_B)
{
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = usage;
    bd.size = size_B;
    return wgpuDeviceCreateBuffer(device, &bd);
}

/* Upload -> buffer copy -> readback, and clear -> texture copies -> readback, in one submit. */
static void full_cycle(WGPUInstance instance, WGPUDevice device)
{
    WGPUQueue queue = wgpuDeviceGetQueue(device);
    WGPUBuffer upload = make_buffer(device, WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc, UPLOAD_B);
    WGPUBuffer back_a = make_buffer(device, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead, UPLOAD_B);
    WGPUBuffer back_t = make_buffer(device, WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead,
                                    (uint64_t)ROW_B * SIDE_PX);
    WGPUTextureDescriptor td = WGPU_TEXTURE_DESCRIPTOR_INIT;
    td.usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc | WGPUTextureUsage_CopyDst;
    td.size.width = SIDE_PX;
    td.size.height = SIDE_PX;
    td.format = WGPUTextureFormat_RGBA8Unorm;
    WGPUTexture target = wgpuDeviceCreateTexture(device, &td);
    WGPUTexture copy = wgpuDeviceCreateTexture(device, &td);
    WGPUTextureView view = wgpuTextureCreateView(target, NULL);
    EG_ASSERT(queue && upload && back_a && back_t && target && copy && view);

    uint8_t bytes[UPLOAD_B];
    for (unsigned i = 0; i < UPLOAD_B; i++) bytes[i] = (uint8_t)(i * 3u + 1u);
    wgpuQueueWriteBuffer(queue, upload, 0, bytes, sizeof bytes);

    WGPUCommandEncoder enc = wgpuDeviceCreateCommandEncoder(device, NULL);
    wgpuCommandEncoderCopyBufferToBuffer(enc, upload, 0, back_a, 0, UPLOAD_B);
    WGPURenderPassColorAttachment ca = WGPU_RENDER_PASS_COLOR_ATTACHMENT_INIT;
    ca.view = view;
    ca.loadOp = WGPULoadOp_Clear;
    ca.storeOp = WGPUStoreOp_Store;
    ca.clearValue = (WGPUColor){ 1.0, 0.0, 1.0, 1.0 };
    WGPURenderPassDescriptor rp = WGPU_RENDER_PASS_DESCRIPTOR_INIT;
    rp.colorAttachmentCount = 1;
    rp.colorAttachments = &ca;
    WGPURenderPassEncoder pass = wgpuCommandEncoderBeginRenderPass(enc, &rp);
    wgpuRenderPassEncoderEnd(pass);
    wgpuRenderPassEncoderRelease(pass);
    WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT, dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    src.texture = target;
    dst.texture = copy;
    WGPUExtent3D all = { SIDE_PX, SIDE_PX, 1 };
    wgpuCommandEncoderCopyTextureToTexture(enc, &src, &dst, &all);
    WGPUTexelCopyBufferInfo out = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
    out.buffer = back_t;
    out.layout.bytesPerRow = ROW_B;
    wgpuCommandEncoderCopyTextureToBuffer(enc, &dst, &out, &all);
    WGPUCommandBuffer cb = wgpuCommandEncoderFinish(enc, NULL);
    wgpuQueueSubmit(queue, 1, &cb);
    wgpuCommandBufferRelease(cb);
    wgpuCommandEncoderRelease(enc);

    EG_EXPECT(example_map_read(instance, back_a, UPLOAD_B));
    const uint8_t *a = wgpuBufferGetConstMappedRange(back_a, 0, UPLOAD_B);
    EG_EXPECT(a && a[0] == 1 && a[UPLOAD_B - 1] == (uint8_t)((UPLOAD_B - 1) * 3u + 1u));
    wgpuBufferUnmap(back_a);
    EG_EXPECT(example_map_read(instance, back_t, (size_t)ROW_B * SIDE_PX));
    const uint8_t *t = wgpuBufferGetConstMappedRange(back_t, 0, (size_t)ROW_B * SIDE_PX);
    /* Clear colour (1, 0, 1, 1) in RGBA8Unorm is 255, 0, 255, 255 (WebGPU: unorm conversion). */
    const uint8_t *last = t ? t + (SIDE_PX - 1) * ROW_B + (SIDE_PX - 1) * 4u : NULL;
    EG_EXPECT(t && t[0] == 255 && t[1] == 0 && t[2] == 255 && t[3] == 255);
    EG_EXPECT(last && last[0] == 255 && last[1] == 0 && last[2] == 255 && last[3] == 255);
    wgpuBufferUnmap(back_t);

    wgpuTextureViewRelease(view);
    wgpuTextureRelease(copy);
    wgpuTextureRelease(target);
    wgpuBufferRelease(back_t);
    wgpuBufferRelease(back_a);
    wgpuBufferRelease(upload);
    wgpuQueueRelease(queue);
}

void eg_test_no_alloc__full_cycle_on_soft(void);
EG_TEST(no_alloc, full_cycle_on_soft)
{
    if (!NO_ALLOC_INTERPOSE) EG_SKIP("built with AddressSanitizer, which owns malloc/free");
    /* The interposers must be the ones the program uses, or the test proves nothing. */
    armed = true;
    void *probe = malloc(8);
    free(probe);
    armed = false;
    EG_ASSERT(heap_calls == 2);
    heap_calls = 0;

    WGPUInstance instance = wgpuCreateInstance(NULL);
    EG_ASSERT(instance);
    armed = true;
    WGPUAdapter adapter;
    WGPUDevice device = example_soft_device(instance, NULL, &adapter);
    if (device) {
        full_cycle(instance, device);
        validation_error_in_scope(instance, device);
        wgpuDeviceRelease(device);
    }
    if (adapter) wgpuAdapterRelease(adapter);
    wgpuInstanceRelease(instance);
    armed = false;

    if (!device) EG_SKIP("no software adapter (EMGPU_HAL_SOFT is 0 on this board)");
    if (heap_calls)
        eg_test_printf("    %u heap call(s) after wgpuCreateInstance; the first: %s from %p "
                       "(addr2line -e <this binary> -f <address>)\n",
                       (unsigned)heap_calls, first_fn, first_caller);
    EG_EXPECT_EQ_U(heap_calls, 0);
}

const eg_test_entry_t eg_test_list[] = {
    { "no_alloc", "full_cycle_on_soft", eg_test_no_alloc__full_cycle_on_soft },
    { 0, 0, 0 },
};
const unsigned eg_test_count = 1;

int main(int argc, char **argv);
int main(int argc, char **argv) { return eg_test_run_all(argc > 1 ? argv[1] : NULL) ? 1 : 0; }
