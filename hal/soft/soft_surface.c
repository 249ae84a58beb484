/* hal/soft surface entries: textures over panel memory, and Present's one-pass format conversion.
 *
 * Present reads the frame texture row by row and writes the panel's native pixels, either into
 * its framebuffer or strip by strip into the strip buffer, calling flush after each strip. Each
 * row goes through a small RGBA8 chunk on the stack (decode, then encode), so every
 * (texture format, panel format) pair costs one decoder and one encoder, both chosen once per
 * Present, outside the loops.
 *
 * Quantisation to 5/6 bits rounds to nearest: q = (x * max + 127) / 255, which is exact rounding
 * of x * max / 255 (a tie would need 2 * x * max = an odd multiple of 255). Expansion from 5/6
 * bits is (q * 255 + max / 2) / max; expanding and re-quantising gives q back, so an
 * RGB565 texture presented to a BGR565 or RGB565BE panel loses nothing.
 *
 * BANDED FRAMES (strip mode, docs/displays.md "Banded rendering"): the frame texture has no
 * full-frame memory, only `strip_rows` rows in the texture's format (or none when the texture's
 * bytes are the panel's: then the panel's strip buffer is rendered into directly). soft_exec.c
 * bins a render pass into it once and rasterizes it strip by strip; eg_soft_band_strip converts
 * each finished strip and hands it to the flush callback. Records live in a small static table
 * (EG_SOFT_MAX_BANDS frames in flight, one per strip-mode surface); the texture's hal words mark
 * it: total_B == 0 (no real texture has that) and plane1_offset_B = record index.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_internal.h"
#include "hal/soft/soft_bin_band.h"

#define CHUNK_PX 32u

/* ---- texture over caller memory ---- */

eg_status_t eg_soft_texture_wrap(eg_hal_device_t *dev, eg_texture_t *tex, void *mem, size_t size_B)
{
    (void)dev;
    eg_soft_texture_t *st = eg_soft_texture(tex);
    /* The kernel sized mem for soft's packed layout; a mismatch is a kernel bug. */
    if (eg_soft_texture_bytes(tex, NULL) != (uint64_t)size_B) return EG_STATUS_INTERNAL;
    st->mem = mem;
    st->plane1_offset_B = 0;
    st->total_B = (uint32_t)size_B;
    return EG_STATUS_OK;
}

void eg_soft_texture_unwrap(eg_hal_device_t *dev, eg_texture_t *tex)
{
    (void)dev;
    eg_soft_texture(tex)->mem = NULL;   /* texture_destroy then frees nothing */
}

/* ---- decoders: one row chunk of the texture to RGBA8 ---- */

typedef void (*decode_fn)(uint8_t *rgba, const uint8_t *src, uint32_t n);
typedef void (*encode_fn)(uint8_t *dst, const uint8_t *rgba, uint32_t n, bool opaque);

static void decode_rgba8(uint8_t *rgba, const uint8_t *src, uint32_t n)
{
    eg_memcpy(rgba, src, (size_t)n * 4);
}

static void decode_bgra8(uint8_t *rgba, const uint8_t *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++, rgba += 4, src += 4) {
        rgba[0] = src[2];
        rgba[1] = src[1];
        rgba[2] = src[0];
        rgba[3] = src[3];
    }
}

static void decode_rgb565(uint8_t *rgba, const uint8_t *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++, rgba += 4, src += 2) {
        uint32_t v = (uint32_t)src[0] | (uint32_t)src[1] << 8;
        rgba[0] = (uint8_t)(((v >> 11) * 255u + 15u) / 31u);
        rgba[1] = (uint8_t)((((v >> 5) & 63u) * 255u + 31u) / 63u);
        rgba[2] = (uint8_t)(((v & 31u) * 255u + 15u) / 31u);
        rgba[3] = 255;
    }
}

/* ---- encoders: RGBA8 to the panel's bytes ---- */

static inline uint32_t q5(uint32_t x) { return (x * 31u + 127u) / 255u; }
static inline uint32_t q6(uint32_t x) { return (x * 63u + 127u) / 255u; }

static void encode_rgb565(uint8_t *dst, const uint8_t *rgba, uint32_t n, bool opaque)
{
    (void)opaque;
    for (uint32_t i = 0; i < n; i++, rgba += 4, dst += 2) {
        uint32_t v = q5(rgba[0]) << 11 | q6(rgba[1]) << 5 | q5(rgba[2]);
        dst[0] = (uint8_t)v;
        dst[1] = (uint8_t)(v >> 8);
    }
}

static void encode_bgr565(uint8_t *dst, const uint8_t *rgba, uint32_t n, bool opaque)
{
    (void)opaque;
    for (uint32_t i = 0; i < n; i++, rgba += 4, dst += 2) {
        uint32_t v = q5(rgba[2]) << 11 | q6(rgba[1]) << 5 | q5(rgba[0]);
        dst[0] = (uint8_t)v;
        dst[1] = (uint8_t)(v >> 8);
    }
}

static void encode_rgb565be(uint8_t *dst, const uint8_t *rgba, uint32_t n, bool opaque)
{
    (void)opaque;
    for (uint32_t i = 0; i < n; i++, rgba += 4, dst += 2) {
        uint32_t v = q5(rgba[0]) << 11 | q6(rgba[1]) << 5 | q5(rgba[2]);
        dst[0] = (uint8_t)(v >> 8);
        dst[1] = (uint8_t)v;
    }
}

/* Bytes B, G, R, X/A (XRGB8888 / ARGB8888 words in little-endian memory). */
static void encode_bgrx(uint8_t *dst, const uint8_t *rgba, uint32_t n, bool opaque)
{
    for (uint32_t i = 0; i < n; i++, rgba += 4, dst += 4) {
        dst[0] = rgba[2];
        dst[1] = rgba[1];
        dst[2] = rgba[0];
        dst[3] = opaque ? 255 : rgba[3];
    }
}

/* Bytes R, G, B, X/A (XBGR8888 / ABGR8888). */
static void encode_rgbx(uint8_t *dst, const uint8_t *rgba, uint32_t n, bool opaque)
{
    for (uint32_t i = 0; i < n; i++, rgba += 4, dst += 4) {
        dst[0] = rgba[0];
        dst[1] = rgba[1];
        dst[2] = rgba[2];
        dst[3] = opaque ? 255 : rgba[3];
    }
}

static decode_fn decoder_of(WGPUTextureFormat f)
{
    /* An if chain: the extension value is outside the enum, which -Wswitch rejects as a case. */
    if (f == WGPUTextureFormat_RGBA8Unorm || f == WGPUTextureFormat_RGBA8UnormSrgb) return decode_rgba8;
    if (f == WGPUTextureFormat_BGRA8Unorm || f == WGPUTextureFormat_BGRA8UnormSrgb) return decode_bgra8;
    if (f == WGPUTextureFormat_EmgpuRGB565Unorm) return decode_rgb565;
    return NULL;
}

static encode_fn encoder_of(WGPUEmgpuPanelFormat f)
{
    switch (f) {
    case WGPUEmgpuPanelFormat_RGB565: return encode_rgb565;
    case WGPUEmgpuPanelFormat_BGR565: return encode_bgr565;
    case WGPUEmgpuPanelFormat_RGB565BE: return encode_rgb565be;
    case WGPUEmgpuPanelFormat_XRGB8888: case WGPUEmgpuPanelFormat_ARGB8888: return encode_bgrx;
    case WGPUEmgpuPanelFormat_XBGR8888: case WGPUEmgpuPanelFormat_ABGR8888: return encode_rgbx;
    default: return NULL;
    }
}

/* X formats always get 0xFF in the pad byte, whatever the alpha mode. */
static bool pad_is_x(WGPUEmgpuPanelFormat f)
{
    return f == WGPUEmgpuPanelFormat_XRGB8888 || f == WGPUEmgpuPanelFormat_XBGR8888;
}

static void convert_row(uint8_t *dst, const uint8_t *src, uint32_t width_px, uint32_t src_px_B,
                        uint32_t dst_px_B, decode_fn dec, encode_fn enc, bool opaque)
{
    uint8_t rgba[CHUNK_PX * 4];
    for (uint32_t x = 0; x < width_px; x += CHUNK_PX) {
        uint32_t n = eg_min_u32(CHUNK_PX, width_px - x);
        dec(rgba, src + (size_t)x * src_px_B, n);
        enc(dst + (size_t)x * dst_px_B, rgba, n, opaque);
    }
}

/* ---- banded frames ---- */

#define EG_SOFT_MAX_BANDS 4u

static eg_soft_band_t bands[EG_SOFT_MAX_BANDS];

eg_soft_band_t *eg_soft_band_of(const eg_texture_t *tex)
{
    const eg_soft_texture_t *st = eg_soft_texture(tex);
    if (st->total_B != 0 || st->plane1_offset_B >= EG_SOFT_MAX_BANDS) return NULL;
    eg_soft_band_t *b = &bands[st->plane1_offset_B];
    return b->tex == tex ? b : NULL;
}

eg_status_t eg_soft_surface_band(eg_hal_device_t *dev, eg_texture_t *tex, const eg_hal_present_t *p)
{
    (void)dev;
    uint32_t i = 0;
    while (i < EG_SOFT_MAX_BANDS && bands[i].tex) i++;
    if (i == EG_SOFT_MAX_BANDS || !p->strip || !p->flush || !p->strip_rows) return EG_STATUS_INTERNAL;
    eg_soft_band_t *b = &bands[i];
    eg_memset(b, 0, sizeof *b);
    b->dst = *p;
    b->block_B = tex->fi->block_B;
    /* The panel's bytes are the texture's: render into the strip buffer itself (16-bit panels
     * have no alpha; 32-bit ones only when no X/opaque byte has to be forced to 0xFF). */
    b->direct = eg_panel_format_texture(p->format) == tex->format &&
                (eg_panel_format_bytes(p->format) == 2u || (!pad_is_x(p->format) && !p->opaque));
    eg_soft_texture_t *st = eg_soft_texture(tex);
    st->mem = NULL;
    if (b->direct) {
        b->rows = p->strip;
        b->row_pitch_B = p->stride_B;
        st->mem = p->strip;   /* not the soft heap's: eg_soft_band_release forgets it */
    } else {
        b->row_pitch_B = tex->size.width * b->block_B;
        st->mem = eg_soft_heap_alloc((size_t)b->row_pitch_B * p->strip_rows);   /* freed by texture_destroy */
        if (!st->mem) return EG_STATUS_OUT_OF_MEMORY;
        b->rows = st->mem;
    }
    b->damage = (eg_hal_rect_t){ 0, 0, p->width_px, p->height_px };
    b->tex = tex;
    st->total_B = 0;
    st->plane1_offset_B = i;
    return EG_STATUS_OK;
}

void eg_soft_band_release(const eg_texture_t *tex)
{
    eg_soft_band_t *b = eg_soft_band_of(tex);
    if (!b) return;
    if (b->direct) eg_soft_texture(tex)->mem = NULL;   /* the panel's strip buffer: never freed here */
    b->tex = NULL;
}

/* Strip rows [y0, y0 + rows), only the damage's columns: the panel keeps the others (GRAM). */
void eg_soft_band_strip(eg_soft_band_t *b, uint32_t y0, uint32_t rows)
{
    const eg_hal_present_t *p = &b->dst;
    uint32_t x0 = b->damage.x0, w = eg_min_u32(b->damage.x1, b->tex->size.width);
    if (w <= x0) return;
    w -= x0;
    uint32_t dst_px_B = eg_panel_format_bytes(p->format);
    if (!b->direct) {
        decode_fn dec = decoder_of(b->tex->format);
        encode_fn enc = encoder_of(p->format);
        if (!dec || !enc) return;
        bool opaque = p->opaque || pad_is_x(p->format);
        for (uint32_t r = 0; r < rows; r++)
            convert_row(p->strip + (size_t)r * p->stride_B + (size_t)x0 * dst_px_B,
                        b->rows + (size_t)r * b->row_pitch_B + (size_t)x0 * b->block_B, w,
                        b->block_B, dst_px_B, dec, enc, opaque);
    }
    p->flush(p->flush_user, x0, y0, w, rows, p->strip + (size_t)x0 * dst_px_B, p->stride_B);
}

/* ---- partial updates (hal.h surface_damage, docs/displays.md "Partial updates") ----
 * A banded frame keeps its damage in its band record; any other surface frame (framebuffer
 * panels, fbdev, DRM, X11 images, zero copy or not) in this small table, one entry per surface
 * frame in flight. The kernel forgets the entry (r NULL) before the texture is destroyed, so a
 * later texture in the same slot never inherits it. A full table only costs the saving: that
 * frame renders whole, which is still the right picture. */

#define EG_SOFT_MAX_DAMAGED 4u

static struct { const eg_texture_t *tex; eg_hal_rect_t r; } damaged[EG_SOFT_MAX_DAMAGED];

void eg_soft_surface_damage(eg_hal_device_t *dev, const eg_texture_t *tex, const eg_hal_rect_t *r)
{
    (void)dev;
    eg_soft_band_t *b = eg_soft_band_of(tex);
    if (b) {
        b->damage = r ? *r : (eg_hal_rect_t){ 0, 0, b->dst.width_px, b->dst.height_px };
        return;
    }
    uint32_t free_i = EG_SOFT_MAX_DAMAGED;
    for (uint32_t i = 0; i < EG_SOFT_MAX_DAMAGED; i++) {
        if (damaged[i].tex == tex) {
            if (r) damaged[i].r = *r; else damaged[i].tex = NULL;
            return;
        }
        if (!damaged[i].tex && free_i == EG_SOFT_MAX_DAMAGED) free_i = i;
    }
    if (r && free_i < EG_SOFT_MAX_DAMAGED) {
        damaged[free_i].tex = tex;
        damaged[free_i].r = *r;
    }
}

bool eg_soft_damage_of(const eg_texture_t *tex, eg_hal_rect_t *r)
{
    const eg_soft_band_t *b = eg_soft_band_of(tex);
    if (b) {
        *r = b->damage;
        return true;
    }
    for (uint32_t i = 0; i < EG_SOFT_MAX_DAMAGED; i++)
        if (damaged[i].tex == tex) {
            *r = damaged[i].r;
            return true;
        }
    return false;
}

/* A frame no pass drew: the texture's initial contents, transparent black (WebGPU
 * getCurrentTexture), strip by strip. */
static void present_undrawn(eg_soft_band_t *b)
{
    uint32_t h = eg_min_u32(b->damage.y1, b->tex->size.height);
    for (uint32_t y = b->damage.y0; y < h; y += b->dst.strip_rows) {
        uint32_t rows = eg_min_u32(b->dst.strip_rows, h - y);
        for (uint32_t r = 0; r < rows; r++) eg_memset(b->rows + (size_t)r * b->row_pitch_B, 0, b->row_pitch_B);
        eg_soft_band_strip(b, y, rows);
    }
}

eg_status_t eg_soft_surface_present(eg_hal_device_t *dev, const eg_texture_t *tex,
                                    const eg_hal_present_t *p)
{
    (void)dev;
    eg_soft_band_t *band = eg_soft_band_of(tex);
    if (band) {   /* the strips went to the panel when the frame's pass ended */
        if (!band->drawn) present_undrawn(band);
        band->drawn = false;
        return EG_STATUS_OK;
    }
    decode_fn dec = decoder_of(tex->format);
    encode_fn enc = encoder_of(p->format);
    if (!dec || !enc || (!p->mem && !(p->strip && p->flush && p->strip_rows))) return EG_STATUS_INTERNAL;
    eg_soft_subres_t sr;
    eg_soft_subresource(tex, WGPUTextureAspect_All, 0, &sr);
    uint32_t dst_px_B = eg_panel_format_bytes(p->format);
    bool opaque = p->opaque || pad_is_x(p->format);
    uint32_t w = eg_min_u32(p->width_px, sr.width_el), h = eg_min_u32(p->height_px, sr.height_el);
    eg_hal_rect_t d = { 0, 0, w, h };
    if (p->mem && eg_soft_damage_of(tex, &d)) {   /* partial update: the damage only */
        d.x1 = eg_min_u32(d.x1, w);
        d.y1 = eg_min_u32(d.y1, h);
        for (uint32_t y = d.y0; y < d.y1 && d.x0 < d.x1; y++)
            convert_row(p->mem + (size_t)y * p->stride_B + (size_t)d.x0 * dst_px_B,
                        sr.base + (size_t)y * sr.row_pitch_B + (size_t)d.x0 * sr.element_B,
                        d.x1 - d.x0, sr.element_B, dst_px_B, dec, enc, opaque);
        return EG_STATUS_OK;
    }
    for (uint32_t y = 0; y < h; y++) {
        const uint8_t *src = sr.base + (size_t)y * sr.row_pitch_B;
        if (p->mem) {
            convert_row(p->mem + (size_t)y * p->stride_B, src, w, sr.element_B, dst_px_B, dec, enc, opaque);
            continue;
        }
        uint32_t in_strip = y % p->strip_rows;
        convert_row(p->strip + (size_t)in_strip * p->stride_B, src, w, sr.element_B, dst_px_B, dec,
                    enc, opaque);
        if (in_strip + 1 == p->strip_rows || y + 1 == h)
            p->flush(p->flush_user, 0, y - in_strip, w, in_strip + 1, p->strip, p->stride_B);
    }
    return EG_STATUS_OK;
}

#endif /* EMGPU_HAL_SOFT */
