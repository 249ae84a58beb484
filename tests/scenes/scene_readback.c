/* Conformance scene framework: texture readback through a mapped buffer, converted to RGBA8. */
#include "tests/scenes/scene.h"

#include <string.h>

static uint32_t texel_bytes(WGPUTextureFormat f)
{
    switch (f) {
    case WGPUTextureFormat_R8Unorm: return 1;
    case WGPUTextureFormat_RG8Unorm: return 2;
    case WGPUTextureFormat_RGBA8Unorm: case WGPUTextureFormat_RGBA8UnormSrgb:
    case WGPUTextureFormat_BGRA8Unorm: case WGPUTextureFormat_BGRA8UnormSrgb:
    case WGPUTextureFormat_R32Float: return 4;
    case WGPUTextureFormat_RGBA16Float: return 8;
    case WGPUTextureFormat_RGBA32Float: return 16;
    case WGPUTextureFormat_Depth16Unorm: return 2;
    case WGPUTextureFormat_Depth32Float: return 4;
    case WGPUTextureFormat_Stencil8: case WGPUTextureFormat_Depth24PlusStencil8: return 1;
    default: return f == WGPUTextureFormat_EmgpuRGB565Unorm ? 2u : 0u;
    }
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31u, m = h & 0x3FFu, bits;
    if (e == 0) {
        if (m == 0) {
            bits = sign;
        } else { /* subnormal: normalise */
            e = 113;
            while (!(m & 0x400u)) { m <<= 1; e--; }
            bits = sign | e << 23 | (m & 0x3FFu) << 13;
        }
    } else if (e == 31) {
        bits = sign | 0x7F800000u | m << 13;
    } else {
        bits = sign | (e + 112u) << 23 | m << 13;
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* [0,1] -> 0..255 rounded to nearest; NaN and negatives -> 0 (the image is a display of values). */
static uint8_t unorm8(float f)
{
    if (!(f > 0.0f)) return 0;
    if (f >= 1.0f) return 255;
    return (uint8_t)(f * 255.0f + 0.5f);
}

static float load_f32(const uint8_t *p)
{
    float f;
    memcpy(&f, p, 4);
    return f;
}

static void convert(WGPUTextureFormat f, const uint8_t *src, uint8_t *dst)
{
    switch (f) {
    case WGPUTextureFormat_R8Unorm: dst[0] = src[0]; dst[1] = dst[2] = 0; dst[3] = 255; break;
    case WGPUTextureFormat_RG8Unorm: dst[0] = src[0]; dst[1] = src[1]; dst[2] = 0; dst[3] = 255; break;
    case WGPUTextureFormat_BGRA8Unorm: case WGPUTextureFormat_BGRA8UnormSrgb:
        dst[0] = src[2]; dst[1] = src[1]; dst[2] = src[0]; dst[3] = src[3];
        break;
    case WGPUTextureFormat_Depth16Unorm:
        dst[0] = dst[1] = dst[2] = src[1]; dst[3] = 255; /* the high byte of the 16-bit value */
        break;
    case WGPUTextureFormat_Stencil8: case WGPUTextureFormat_Depth24PlusStencil8:
        eg_scene_stencil_rgb(src[0], dst);
        break;
    case WGPUTextureFormat_Depth32Float:
        dst[0] = dst[1] = dst[2] = unorm8(load_f32(src)); dst[3] = 255;
        break;
    case WGPUTextureFormat_R32Float:
        dst[0] = unorm8(load_f32(src)); dst[1] = dst[2] = 0; dst[3] = 255;
        break;
    case WGPUTextureFormat_RGBA16Float:
        for (int c = 0; c < 4; c++) dst[c] = unorm8(half_to_float((uint16_t)(src[2 * c] | src[2 * c + 1] << 8)));
        break;
    case WGPUTextureFormat_RGBA32Float:
        for (int c = 0; c < 4; c++) dst[c] = unorm8(load_f32(src + 4 * c));
        break;
    default:
        if (f == WGPUTextureFormat_EmgpuRGB565Unorm) {
            /* R in bits 15..11, G 10..5, B 4..0 of a little-endian 16-bit texel; expanded with
             * round(v * 255 / max) in integers. */
            uint32_t v = (uint32_t)(src[0] | src[1] << 8);
            dst[0] = (uint8_t)(((v >> 11) * 255u + 15u) / 31u);
            dst[1] = (uint8_t)((((v >> 5) & 63u) * 255u + 31u) / 63u);
            dst[2] = (uint8_t)(((v & 31u) * 255u + 15u) / 31u);
            dst[3] = 255;
        } else { /* RGBA8Unorm(Srgb): bytes as stored */
            memcpy(dst, src, 4);
        }
        break;
    }
}

void eg_scene_stencil_rgb(uint32_t v, uint8_t rgba_out[4])
{
    /* Bits spread over the channels so that neighbouring values look different. */
    rgba_out[0] = (uint8_t)v;
    rgba_out[1] = (uint8_t)((v & 0x0Fu) << 4 | (v & 0xF0u) >> 4);
    rgba_out[2] = (uint8_t)(v * 37u);
    rgba_out[3] = 255;
}

void eg_scene_background(eg_scene_t *s, WGPUTexture tex, int kind)
{
    static const uint8_t stripe[4][4] = {
        { 220, 40, 40, 255 }, { 40, 200, 60, 191 }, { 40, 80, 230, 128 }, { 128, 128, 128, 64 },
    };
    uint8_t row[256 * 4];
    if (s->w > 256) {
        eg_scene_failf(s, "eg_scene_background: wider than 256 pixels");
        return;
    }
    for (uint32_t y = 0; y < s->h; y++) {
        for (uint32_t x = 0; x < s->w; x++) {
            uint8_t *p = row + x * 4u;
            if (kind == 0) {
                memcpy(p, stripe[x * 4u / s->w], 4);
            } else {
                uint8_t g = ((x / 8u) ^ (y / 8u)) & 1u ? 200 : 60;
                p[0] = p[1] = p[2] = g;
                p[3] = 255;
            }
        }
        WGPUTexelCopyTextureInfo dst = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
        dst.texture = tex;
        dst.origin.y = y;
        WGPUTexelCopyBufferLayout layout = WGPU_TEXEL_COPY_BUFFER_LAYOUT_INIT;
        layout.bytesPerRow = s->w * 4u;
        layout.rowsPerImage = 1;
        WGPUExtent3D size = { s->w, 1, 1 };
        wgpuQueueWriteTexture(s->queue, &dst, row, (size_t)s->w * 4u, &layout, &size);
    }
}

static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2)
{
    (void)message;
    (void)u2;
    *(WGPUMapAsyncStatus *)u1 = status;
}

static bool wait_future(eg_scene_t *s, WGPUFuture future)
{
    WGPUFutureWaitInfo w = WGPU_FUTURE_WAIT_INFO_INIT;
    w.future = future;
    /* timeout 0 needs no instance feature; GPU backends complete asynchronously, so poll. */
    for (uint32_t i = 0; i < 20000000u; i++) {
        WGPUWaitStatus st = wgpuInstanceWaitAny(s->instance, 1, &w, 0);
        if (st == WGPUWaitStatus_Success) return w.completed != 0;
        if (st != WGPUWaitStatus_TimedOut) return false;
    }
    return false;
}

void eg_scene_readback(eg_scene_t *s, WGPUTexture tex, WGPUTextureFormat format, uint32_t x0,
                       uint32_t y0, uint32_t w, uint32_t h)
{
    uint32_t bpp = texel_bytes(format);
    if (!tex || !bpp || x0 + w > s->w || y0 + h > s->h) {
        eg_scene_failf(s, "eg_scene_readback: no texture, unsupported format or out of the image");
        return;
    }
    uint32_t row_B = (w * bpp + 255u) & ~255u; /* bytesPerRow: a multiple of 256 */
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.usage = WGPUBufferUsage_CopyDst | WGPUBufferUsage_MapRead;
    bd.size = (uint64_t)row_B * h;
    WGPUBuffer buf = wgpuDeviceCreateBuffer(s->device, &bd);
    if (!buf) {
        eg_scene_failf(s, "eg_scene_readback: wgpuDeviceCreateBuffer returned NULL");
        return;
    }
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPUTexelCopyTextureInfo src = WGPU_TEXEL_COPY_TEXTURE_INFO_INIT;
    src.texture = tex;
    if (format == WGPUTextureFormat_Depth16Unorm || format == WGPUTextureFormat_Depth32Float)
        src.aspect = WGPUTextureAspect_DepthOnly;
    else if (format == WGPUTextureFormat_Stencil8 || format == WGPUTextureFormat_Depth24PlusStencil8)
        src.aspect = WGPUTextureAspect_StencilOnly;
    WGPUTexelCopyBufferInfo dst = WGPU_TEXEL_COPY_BUFFER_INFO_INIT;
    dst.buffer = buf;
    dst.layout.bytesPerRow = row_B;
    dst.layout.rowsPerImage = h;
    WGPUExtent3D size = { w, h, 1 };
    wgpuCommandEncoderCopyTextureToBuffer(enc, &src, &dst, &size);
    eg_scene_submit(s, enc);

    WGPUMapAsyncStatus status = (WGPUMapAsyncStatus)0;
    WGPUBufferMapCallbackInfo cb = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
    cb.mode = WGPUCallbackMode_WaitAnyOnly;
    cb.callback = on_map;
    cb.userdata1 = &status;
    size_t total_B = (size_t)row_B * h;
    if (!wait_future(s, wgpuBufferMapAsync(buf, WGPUMapMode_Read, 0, total_B, cb)) ||
        status != WGPUMapAsyncStatus_Success) {
        eg_scene_failf(s, "eg_scene_readback: mapping the readback buffer failed");
        wgpuBufferRelease(buf);
        return;
    }
    const uint8_t *px = wgpuBufferGetConstMappedRange(buf, 0, total_B);
    if (px) {
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                convert(format, px + (size_t)y * row_B + (size_t)x * bpp,
                        s->rgba + ((size_t)(y0 + y) * s->w + x0 + x) * 4u);
    } else {
        eg_scene_failf(s, "eg_scene_readback: wgpuBufferGetConstMappedRange returned NULL");
    }
    wgpuBufferUnmap(buf);
    wgpuBufferRelease(buf);
}
