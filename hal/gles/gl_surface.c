/* hal/gles surfaces: present by copy (glReadPixels of the frame, encoded into the panel's or window's native pixels).
 *
 * The GLES device's EGL display is headless (device platform or surfaceless: gl_device.c), and an
 * EGL window surface must belong to the same EGLDisplay as the context that renders into it, so
 * there is no native X11 window surface here: the frame is read back and the kernel puts the
 * result into the window (XPutImage) or the panel (flush). The kernel logs that at Configure.
 *
 * Rows are read with GL_RGBA / GL_UNSIGNED_BYTE, the one read format GLES guarantees for
 * normalized color buffers, so every surface format arrives as RGBA8 (BGRA8 is stored as RGBA in
 * this backend: gl_resource.c), in chunks of rows through a static buffer. Texel row 0 is GL row
 * 0 (gl_internal.h), so no flip. Quantisation to 5/6 bits rounds to nearest, as hal/soft does.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/surface.h"
#include "kernel/api/texture.h"

#define READ_BYTES (64u * 1024u)

static uint8_t g_rows[READ_BYTES];

static inline uint32_t q5(uint32_t x) { return (x * 31u + 127u) / 255u; }
static inline uint32_t q6(uint32_t x) { return (x * 63u + 127u) / 255u; }

/* One RGBA8 row to the panel format (WGPUEmgpuPanelFormat); alpha 0xFF when opaque. */
static void encode_row(uint8_t *dst, const uint8_t *rgba, uint32_t n, WGPUEmgpuPanelFormat f, bool opaque)
{
    for (uint32_t i = 0; i < n; i++, rgba += 4) {
        uint32_t r = rgba[0], g = rgba[1], b = rgba[2], a = opaque ? 255u : rgba[3];
        uint32_t v565 = q5(r) << 11 | q6(g) << 5 | q5(b);
        switch (f) {
        case WGPUEmgpuPanelFormat_RGB565: dst[0] = (uint8_t)v565; dst[1] = (uint8_t)(v565 >> 8); dst += 2; break;
        case WGPUEmgpuPanelFormat_RGB565BE: dst[0] = (uint8_t)(v565 >> 8); dst[1] = (uint8_t)v565; dst += 2; break;
        case WGPUEmgpuPanelFormat_BGR565: {
            uint32_t v = q5(b) << 11 | q6(g) << 5 | q5(r);
            dst[0] = (uint8_t)v;
            dst[1] = (uint8_t)(v >> 8);
            dst += 2;
            break;
        }
        case WGPUEmgpuPanelFormat_XRGB8888: case WGPUEmgpuPanelFormat_ARGB8888:
            dst[0] = (uint8_t)b; dst[1] = (uint8_t)g; dst[2] = (uint8_t)r;
            dst[3] = f == WGPUEmgpuPanelFormat_XRGB8888 ? 255u : (uint8_t)a;
            dst += 4;
            break;
        default:   /* XBGR8888, ABGR8888 */
            dst[0] = (uint8_t)r; dst[1] = (uint8_t)g; dst[2] = (uint8_t)b;
            dst[3] = f == WGPUEmgpuPanelFormat_XBGR8888 ? 255u : (uint8_t)a;
            dst += 4;
            break;
        }
    }
}

/* The HAL's surface_present (declared next to the ops table in gl_device.c). */
eg_status_t eg_gl_surface_present(eg_hal_device_t *dev, const eg_texture_t *tex, const eg_hal_present_t *p);
eg_status_t eg_gl_surface_present(eg_hal_device_t *dev, const eg_texture_t *tex, const eg_hal_present_t *p)
{
    uint32_t w = eg_min_u32(p->width_px, tex->size.width), h = eg_min_u32(p->height_px, tex->size.height);
    uint32_t row_B = w * 4u;
    if (!w || !h || row_B > READ_BYTES || (!p->mem && !(p->strip && p->flush && p->strip_rows)))
        return EG_STATUS_INTERNAL;
    eg_gl_begin(dev);
    eg_gl.BindFramebuffer(GL_READ_FRAMEBUFFER, dev->fbo_read);
    eg_gl.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    eg_gl_attach(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, (eg_texture_t *)tex, 0, 0);
    eg_gl.ReadBuffer(GL_COLOR_ATTACHMENT0);
    uint32_t chunk = READ_BYTES / row_B;
    for (uint32_t y0 = 0; y0 < h; y0 += chunk) {
        uint32_t rows = eg_min_u32(chunk, h - y0);
        eg_gl.ReadPixels(0, (GLint)y0, (GLsizei)w, (GLsizei)rows, GL_RGBA, GL_UNSIGNED_BYTE, g_rows);
        for (uint32_t r = 0; r < rows; r++) {
            uint32_t y = y0 + r;
            const uint8_t *src = g_rows + (size_t)r * row_B;
            if (p->mem) {
                encode_row(p->mem + (size_t)y * p->stride_B, src, w, p->format, p->opaque);
                continue;
            }
            uint32_t in_strip = y % p->strip_rows;
            encode_row(p->strip + (size_t)in_strip * p->stride_B, src, w, p->format, p->opaque);
            if (in_strip + 1 == p->strip_rows || y + 1 == h)
                p->flush(p->flush_user, 0, y - in_strip, w, in_strip + 1, p->strip, p->stride_B);
        }
    }
    eg_gl.FramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    return eg_gl_check("surface present (readback)") ? EG_STATUS_OK : EG_STATUS_INTERNAL;
}

#endif /* EMGPU_HAL_GLES */
