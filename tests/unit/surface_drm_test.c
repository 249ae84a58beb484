/* Tests for the DRM/KMS surface source's validation (every board; the picture itself is tested
 * on a real kernel by tools/vm_display_test.sh). Each refused source must return NULL and free
 * its surface slot again: eg_test_device_release fails when a pool still holds an object. */
#include <string.h>

#include <emgpu/emgpu.h>

#include "tests/unit/cmd_test_util.h"

static WGPUSurface drm_surface(WGPUEmgpuSurfaceSourceDrm *src)
{
    WGPUSurfaceDescriptor sd = WGPU_SURFACE_DESCRIPTOR_INIT;
    sd.nextInChain = &src->chain;
    return wgpuInstanceCreateSurface(eg_test_instance(), &sd);
}

EG_TEST(surface_drm, source_rules)
{
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    WGPUEmgpuSurfaceSourceDrm src = WGPU_EMGPU_SURFACE_SOURCE_DRM_INIT;
    EG_EXPECT_EQ_U(src.chain.sType, 0x7E570004u);          /* emgpu.h: our enum block */
    EG_EXPECT(drm_surface(&src) == NULL);                   /* no path */
    src.path = (WGPUStringView){ "", 0 };
    EG_EXPECT(drm_surface(&src) == NULL);                   /* empty path */
    src.path = (WGPUStringView){ "/dev/dri/card0", WGPU_STRLEN };
    src.format = WGPUEmgpuPanelFormat_BGR565;               /* only XRGB8888 and RGB565 */
    EG_EXPECT(drm_surface(&src) == NULL);
    src.format = WGPUEmgpuPanelFormat_RGB565;
    src.width = 640;                                        /* a size needs both dimensions */
    EG_EXPECT(drm_surface(&src) == NULL);
    src.width = 0;
    src.path = (WGPUStringView){ "/nonexistent/dri/card9", WGPU_STRLEN };
    EG_EXPECT(drm_surface(&src) == NULL);                   /* no such device (or no KMS port) */
    EG_EXPECT_NO_ERROR();                                   /* no device yet: logged, not raised */
    eg_test_device_release();
}
