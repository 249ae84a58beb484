/* Host tool of the VM display test: the `make demo` dashboard at one frame, on any backend -> PPM.
 *
 *   vm_demo_ref OUT.ppm FRAME      (EMGPU_TEST_BACKEND=vulkan|gles picks lavapipe / llvmpipe)
 *
 * tools/vm_demo_ref.sh runs it on soft, Vulkan and GLES and compares the three pictures, so that
 * tests/ref/demo_dashboard.png (the soft picture) is checked by two independent rasterizers before
 * it is committed. Same renderer as `make demo` and the guest (examples/demo/demo.c); prints the
 * backend it really used and ends with "N passed, N failed" (a missing driver: skipped, by name).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webgpu/webgpu.h>

#include "examples/demo/demo.h"
#include "tests/harness/harness.h"
#include "tests/harness/test_device.h"

/* harness.o is linked into every hosted program; this one has its own main and no registry. */
extern const eg_test_entry_t eg_test_list[];
extern const unsigned eg_test_count;
const eg_test_entry_t eg_test_list[1] = {{"vm_demo_ref", "none", NULL}};
const unsigned eg_test_count = 0;

static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2)
{
    (void)message;
    (void)u2;
    *(int *)u1 = status == WGPUMapAsyncStatus_Success;
}

/* Maps the demo's readback buffer and writes the RGB of its rows as a binary PPM. */
static int write_ppm(demo_t *d, const char *path)
{
    int mapped = 0;
    WGPUBufferMapCallbackInfo cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
    cb.mode = WGPUCallbackMode_WaitAnyOnly;
    cb.callback = on_map;
    cb.userdata1 = &mapped;
    size_t size_B = (size_t)DEMO_ROW_B * DEMO_H_PX;
    if (!eg_test_wait(wgpuBufferMapAsync(d->readback, WGPUMapMode_Read, 0, size_B, cb)) || !mapped)
        return 0;
    const uint8_t *px = wgpuBufferGetConstMappedRange(d->readback, 0, size_B);
    FILE *f = px ? fopen(path, "wb") : NULL;
    int ok = f != NULL;
    if (f) {
        fprintf(f, "P6\n%u %u\n255\n", DEMO_W_PX, DEMO_H_PX);
        for (uint32_t y = 0; y < DEMO_H_PX; y++)
            for (uint32_t x = 0; x < DEMO_W_PX; x++)
                ok &= fwrite(px + y * DEMO_ROW_B + x * 4u, 3, 1, f) == 1;
        ok &= fclose(f) == 0;
    }
    wgpuBufferUnmap(d->readback);
    return ok;
}

static int sv_len(WGPUStringView v)
{
    return v.data ? (int)strnlen(v.data, v.length) : 0;
}

static const char *sv_data(WGPUStringView v)
{
    return v.data ? v.data : "";
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("usage: %s OUT.ppm FRAME\n", argv[0]);
        return 2;
    }
    WGPUDevice dev = eg_test_device("soft");
    if (!dev) {
        printf("  SKIP %s: no adapter (driver missing)\n0 passed, 0 failed, 1 skipped\n", eg_test_backend());
        return 0;
    }
    WGPUAdapterInfo info = WGPU_ADAPTER_INFO_INIT;
    if (wgpuDeviceGetAdapterInfo(dev, &info) == WGPUStatus_Success)
        printf("  adapter: %.*s (%.*s)\n", sv_len(info.device), sv_data(info.device),
               sv_len(info.description), sv_data(info.description));
    wgpuAdapterInfoFreeMembers(info);
    static demo_t d;
    int ok = demo_setup(&d, eg_test_instance(), dev);
    if (ok) {
        uint32_t vx, vy, vw, vh;
        demo_view_rect(&vx, &vy, &vw, &vh);
        printf("  view %u %u %u %u\n", (unsigned)vx, (unsigned)vy, (unsigned)vw, (unsigned)vh);
        demo_render_frame(&d, (unsigned)strtoul(argv[2], NULL, 10), 1);
        ok = write_ppm(&d, argv[1]);
    }
    demo_teardown(&d);
    int clean = eg_test_err.count == 0;
    if (!clean)
        printf("  FAIL %u WebGPU error(s), last: %s\n", (unsigned)eg_test_err.count, eg_test_err.message);
    eg_test_device_release();
    printf("  %s: dashboard frame %s -> %s: %s\n", eg_test_backend(), argv[2], argv[1],
           ok ? "written" : "FAILED");
    printf("%d passed, %d failed\n", ok && clean, !(ok && clean));
    return ok && clean ? 0 : 1;
}
