/* hal/gles resources: the format table, buffers (mapping, zero fill), textures, views, samplers,
 * queue writes. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/buffer.h"
#include "kernel/api/sampler.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/base/log.h"

_Static_assert(sizeof(eg_gl_buffer_t) <= sizeof(eg_hal_priv_t), "eg_gl_buffer_t fits eg_hal_priv_t");
_Static_assert(sizeof(eg_gl_texture_t) <= sizeof(eg_hal_priv_t), "eg_gl_texture_t fits eg_hal_priv_t");
_Static_assert(sizeof(eg_gl_sampler_t) <= sizeof(eg_hal_priv_t), "eg_gl_sampler_t fits eg_hal_priv_t");

/* Zero source for fills and the B/R swap area (EMGPU_GLES_SCRATCH_BYTES). */
static const uint8_t g_zero[EMGPU_GLES_SCRATCH_BYTES];
static uint8_t g_swap[EMGPU_GLES_SCRATCH_BYTES];

/* ---- formats (GLES 3.0 table 3.13 "sized internal formats" and their upload format/type) ---- */

#define F(wgpu, in, fm, ty, swap, kind) case WGPUTextureFormat_##wgpu: { \
        static const eg_gl_format_t f = { in, fm, ty, swap, kind }; return &f; }

const eg_gl_format_t *eg_gl_format(WGPUTextureFormat fmt)
{
    switch (fmt) {
    F(R8Unorm, GL_R8, GL_RED, GL_UNSIGNED_BYTE, 0, 0)
    F(R8Snorm, GL_R8_SNORM, GL_RED, GL_BYTE, 0, 0)
    F(R8Uint, GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, 0, 2)
    F(R8Sint, GL_R8I, GL_RED_INTEGER, GL_BYTE, 0, 1)
    F(R16Uint, GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_SHORT, 0, 2)
    F(R16Sint, GL_R16I, GL_RED_INTEGER, GL_SHORT, 0, 1)
    F(R16Float, GL_R16F, GL_RED, GL_HALF_FLOAT, 0, 0)
    F(RG8Unorm, GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 0, 0)
    F(RG8Snorm, GL_RG8_SNORM, GL_RG, GL_BYTE, 0, 0)
    F(RG8Uint, GL_RG8UI, GL_RG_INTEGER, GL_UNSIGNED_BYTE, 0, 2)
    F(RG8Sint, GL_RG8I, GL_RG_INTEGER, GL_BYTE, 0, 1)
    F(R32Float, GL_R32F, GL_RED, GL_FLOAT, 0, 0)
    F(R32Uint, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 0, 2)
    F(R32Sint, GL_R32I, GL_RED_INTEGER, GL_INT, 0, 1)
    F(RG16Uint, GL_RG16UI, GL_RG_INTEGER, GL_UNSIGNED_SHORT, 0, 2)
    F(RG16Sint, GL_RG16I, GL_RG_INTEGER, GL_SHORT, 0, 1)
    F(RG16Float, GL_RG16F, GL_RG, GL_HALF_FLOAT, 0, 0)
    F(RGBA8Unorm, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 0, 0)
    F(RGBA8UnormSrgb, GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, 0, 0)
    F(RGBA8Snorm, GL_RGBA8_SNORM, GL_RGBA, GL_BYTE, 0, 0)
    F(RGBA8Uint, GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, 0, 2)
    F(RGBA8Sint, GL_RGBA8I, GL_RGBA_INTEGER, GL_BYTE, 0, 1)
    /* GLES has no BGRA storage: kept as RGBA, B/R swapped at the CPU boundary. */
    F(BGRA8Unorm, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 1, 0)
    F(BGRA8UnormSrgb, GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, 1, 0)
    F(RGB10A2Uint, GL_RGB10_A2UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV, 0, 2)
    F(RGB10A2Unorm, GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, 0, 0)
    F(RG11B10Ufloat, GL_R11F_G11F_B10F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV, 0, 0)
    F(RGB9E5Ufloat, GL_RGB9_E5, GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV, 0, 0)
    F(RG32Float, GL_RG32F, GL_RG, GL_FLOAT, 0, 0)
    F(RG32Uint, GL_RG32UI, GL_RG_INTEGER, GL_UNSIGNED_INT, 0, 2)
    F(RG32Sint, GL_RG32I, GL_RG_INTEGER, GL_INT, 0, 1)
    F(RGBA16Uint, GL_RGBA16UI, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT, 0, 2)
    F(RGBA16Sint, GL_RGBA16I, GL_RGBA_INTEGER, GL_SHORT, 0, 1)
    F(RGBA16Float, GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 0, 0)
    F(RGBA32Float, GL_RGBA32F, GL_RGBA, GL_FLOAT, 0, 0)
    F(RGBA32Uint, GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 0, 2)
    F(RGBA32Sint, GL_RGBA32I, GL_RGBA_INTEGER, GL_INT, 0, 1)
    /* Stencil8 alone is not a GLES 3.0 texture format: it lives in a depth24-stencil8. */
    F(Stencil8, GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 0, 3)
    F(Depth16Unorm, GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, 0, 3)
    F(Depth24Plus, GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, 0, 3)
    F(Depth24PlusStencil8, GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 0, 3)
    F(Depth32Float, GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, 0, 3)
    F(Depth32FloatStencil8, GL_DEPTH32F_STENCIL8, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, 0, 3)
    default:
        if (fmt == EG_FORMAT_RGB565_VALUE) {
            static const eg_gl_format_t f = { GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 0, 0 };
            return &f;
        }
        return NULL;
    }
}
#undef F

/* Bytes per texel of a GL upload format/type pair. */
uint32_t eg_gl_texel_B(const eg_gl_format_t *f)
{
    uint32_t comps = 1;
    switch (f->format) {
    case GL_RG: case GL_RG_INTEGER: comps = 2; break;
    case GL_RGB: comps = 3; break;
    case GL_RGBA: case GL_RGBA_INTEGER: comps = 4; break;
    default: break;
    }
    switch (f->type) {
    case GL_UNSIGNED_BYTE: case GL_BYTE: return comps;
    case GL_UNSIGNED_SHORT: case GL_SHORT: case GL_HALF_FLOAT: return 2u * comps;
    case GL_UNSIGNED_SHORT_5_6_5: return 2;
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV: return 8;
    case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_10F_11F_11F_REV:
    case GL_UNSIGNED_INT_5_9_9_9_REV: case GL_UNSIGNED_INT_24_8: return 4;
    default: return 4u * comps;   /* FLOAT, INT, UNSIGNED_INT */
    }
}

/* ---- buffers ---- */

void eg_gl_buffer_zero(GLenum target, uint64_t offset_B, uint64_t size_B)
{
    while (size_B) {
        GLsizeiptr n = (GLsizeiptr)eg_min_u64(size_B, sizeof g_zero);
        eg_gl.BufferSubData(target, (GLintptr)offset_B, n, g_zero);
        offset_B += (uint64_t)n;
        size_B -= (uint64_t)n;
    }
}

eg_status_t eg_gl_buffer_create(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    eg_gl_buffer_t *b = EG_GL_PRIV(buf, eg_gl_buffer_t);
    eg_memset(b, 0, sizeof *b);
    if (buf->size_B == 0) return EG_STATUS_OK;
    eg_gl_begin(dev);
    eg_gl.GenBuffers(1, &b->name);
    eg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, b->name);
    /* Buffers the GPU writes are DYNAMIC_DRAW, read-back ones STREAM_READ: usage hints only. */
    GLenum hint = (buf->usage & WGPUBufferUsage_MapRead) ? GL_STREAM_READ : GL_DYNAMIC_DRAW;
    eg_gl.BufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)buf->size_B, NULL, hint);
    if (eg_gl.GetError() == GL_OUT_OF_MEMORY) {
        eg_gl.DeleteBuffers(1, &b->name);
        b->name = 0;
        return EG_STATUS_OUT_OF_MEMORY;
    }
    eg_gl_buffer_zero(GL_COPY_WRITE_BUFFER, 0, buf->size_B);   /* WebGPU: buffers start zeroed */
    return EG_STATUS_OK;
}

void eg_gl_buffer_destroy(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    eg_gl_buffer_t *b = EG_GL_PRIV(buf, eg_gl_buffer_t);
    if (!b->name) return;
    eg_gl_begin(dev);
    eg_gl.DeleteBuffers(1, &b->name);   /* unmaps implicitly */
    b->name = 0;
}

/* The GL mapping is the WebGPU mapping: it lasts until Unmap, and WebGPU forbids using a mapped
 * buffer in a submission, which is exactly GL's rule. READ|WRITE even for write maps, because
 * a WebGPU write mapping shows the buffer's current contents. */
void *eg_gl_buffer_map(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B, uint64_t size_B,
                       bool for_write)
{
    static uint64_t empty[2];
    eg_gl_buffer_t *b = EG_GL_PRIV(buf, eg_gl_buffer_t);
    if (!b->name || size_B == 0) return empty;
    eg_gl_begin(dev);
    eg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, b->name);
    GLbitfield access = GL_MAP_READ_BIT | (for_write ? GL_MAP_WRITE_BIT : 0u);
    void *p = eg_gl.MapBufferRange(GL_COPY_WRITE_BUFFER, (GLintptr)offset_B, (GLsizeiptr)size_B, access);
    if (p) b->mapped = 1;
    else eg_gl_check("glMapBufferRange");
    return p;
}

void eg_gl_buffer_unmap(eg_hal_device_t *dev, eg_buffer_t *buf)
{
    eg_gl_buffer_t *b = EG_GL_PRIV(buf, eg_gl_buffer_t);
    if (!b->mapped) return;
    eg_gl_begin(dev);
    eg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, b->name);
    eg_gl.UnmapBuffer(GL_COPY_WRITE_BUFFER);
    b->mapped = 0;
}

eg_status_t eg_gl_queue_write_buffer(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                     const void *data, size_t size_B)
{
    eg_gl_buffer_t *b = EG_GL_PRIV(buf, eg_gl_buffer_t);
    if (!size_B || !b->name) return EG_STATUS_OK;
    eg_gl_begin(dev);
    eg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, b->name);
    eg_gl.BufferSubData(GL_COPY_WRITE_BUFFER, (GLintptr)offset_B, (GLsizeiptr)size_B, data);
    return EG_STATUS_OK;
}

/* ---- textures ---- */

/* GLES fixes a texture's sampling dimension at creation (no views). The kernel does not keep
 * WebGPU compat's textureBindingViewDimension, so a sampleable square 2D texture of exactly 6
 * layers is taken to be a cube map (its cube views sample; 2d-array views of it cannot). */
static bool is_cube(const eg_texture_t *tex)
{
    return tex->dimension == WGPUTextureDimension_2D && tex->size.depthOrArrayLayers == 6u &&
           tex->size.width == tex->size.height && (tex->usage & WGPUTextureUsage_TextureBinding);
}

static GLenum texture_target(const eg_texture_t *tex)
{
    if (tex->sample_count > 1) return GL_RENDERBUFFER;
    if (tex->dimension == WGPUTextureDimension_3D) return GL_TEXTURE_3D;
    if (is_cube(tex)) return GL_TEXTURE_CUBE_MAP;
    return tex->size.depthOrArrayLayers > 1 ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D;
}

/* Uploads rows of one region from client memory (no unpack buffer bound). Rows whose pitch is
 * not a whole number of texels, and BGRA data, go row by row through g_swap. */
void eg_gl_texture_upload(eg_texture_t *tex, const eg_texel_region_t *r, const uint8_t *src,
                          uint32_t bytes_per_row_B, uint32_t rows_per_image)
{
    const eg_gl_texture_t *t = EG_GL_PRIV(tex, eg_gl_texture_t);
    const eg_gl_format_t *f = t->fmt;
    uint32_t texel_B = eg_gl_texel_B(f), row_B = r->width_px * texel_B;
    bool rowwise = f->swap_rb || bytes_per_row_B % texel_B != 0;
    eg_gl.BindTexture(t->target, t->name);
    eg_gl.PixelStorei(GL_UNPACK_ROW_LENGTH, rowwise ? 0 : (GLint)(bytes_per_row_B / texel_B));
    eg_gl.PixelStorei(GL_UNPACK_IMAGE_HEIGHT, rowwise ? 0 : (GLint)rows_per_image);
    for (uint32_t z = 0; z < r->depth_or_layers; z++) {
        const uint8_t *img = src + (size_t)z * bytes_per_row_B * rows_per_image;
        uint32_t rows = rowwise ? r->height_px : 1u, step = rowwise ? 1u : r->height_px;
        for (uint32_t y = 0; y < rows; y++) {
            const uint8_t *p = img + (size_t)y * bytes_per_row_B;
            if (f->swap_rb && row_B <= sizeof g_swap) {
                for (uint32_t x = 0; x < row_B; x += 4) {
                    g_swap[x] = p[x + 2]; g_swap[x + 1] = p[x + 1];
                    g_swap[x + 2] = p[x]; g_swap[x + 3] = p[x + 3];
                }
                p = g_swap;
            } else if (rowwise && row_B <= sizeof g_swap) {
                eg_memcpy(g_swap, p, row_B);
                p = g_swap;
            }
            GLint oy = (GLint)(r->origin_y + y);
            if (t->target == GL_TEXTURE_2D || t->target == GL_TEXTURE_CUBE_MAP)
                eg_gl.TexSubImage2D(t->target == GL_TEXTURE_2D ? GL_TEXTURE_2D
                                                               : GL_TEXTURE_CUBE_MAP_POSITIVE_X + r->origin_z + z,
                                    (GLint)r->mip_level, (GLint)r->origin_x, oy,
                                    (GLsizei)r->width_px, (GLsizei)step, f->format, f->type, p);
            else
                eg_gl.TexSubImage3D(t->target, (GLint)r->mip_level, (GLint)r->origin_x, oy,
                                    (GLint)(r->origin_z + z), (GLsizei)r->width_px, (GLsizei)step, 1,
                                    f->format, f->type, p);
        }
    }
    eg_gl.PixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    eg_gl.PixelStorei(GL_UNPACK_IMAGE_HEIGHT, 0);
}

/* WebGPU: textures start zeroed; GL leaves storage undefined. Uploads zeros level by level. */
static void zero_texture(eg_texture_t *tex)
{
    const eg_gl_texture_t *t = EG_GL_PRIV(tex, eg_gl_texture_t);
    uint32_t texel_B = eg_gl_texel_B(t->fmt);
    for (uint32_t m = 0; m < tex->mip_level_count; m++) {
        WGPUExtent3D e = eg_format_mip_extent(tex->dimension, tex->size, m);
        uint32_t row_B = e.width * texel_B;
        uint32_t rows_per_chunk = (uint32_t)(sizeof g_zero / (row_B ? row_B : 1u));
        if (rows_per_chunk == 0) continue;   /* wider than the scratch: cannot happen within limits */
        uint32_t layers = tex->dimension == WGPUTextureDimension_3D ? e.depthOrArrayLayers
                                                                    : tex->size.depthOrArrayLayers;
        for (uint32_t z = 0; z < layers; z++)
            for (uint32_t y = 0; y < e.height; y += rows_per_chunk) {
                eg_texel_region_t r = { m, 0, y, z, e.width, eg_min_u32(rows_per_chunk, e.height - y), 1,
                                        WGPUTextureAspect_All };
                eg_gl_texture_upload(tex, &r, g_zero, row_B, r.height_px);
            }
    }
}

eg_status_t eg_gl_texture_create(eg_hal_device_t *dev, eg_texture_t *tex)
{
    eg_gl_texture_t *t = EG_GL_PRIV(tex, eg_gl_texture_t);
    eg_memset(t, 0, sizeof *t);
    t->fmt = eg_gl_format(tex->format);
    if (!t->fmt) {
        eg_hal_error_detail(WGPUErrorType_Internal, EG_E_HAL_INTERNAL,
                            "format %s has no GLES storage (the adapter should not have offered it)",
                            tex->fi ? tex->fi->name : "?");
        return EG_STATUS_INTERNAL;
    }
    eg_gl_begin(dev);
    t->target = texture_target(tex);
    GLsizei w = (GLsizei)tex->size.width, h = (GLsizei)tex->size.height;
    if (t->target == GL_RENDERBUFFER) {
        eg_gl.GenRenderbuffers(1, &t->name);
        eg_gl.BindRenderbuffer(GL_RENDERBUFFER, t->name);
        eg_gl.RenderbufferStorageMultisample(GL_RENDERBUFFER, (GLsizei)tex->sample_count, t->fmt->internal, w, h);
        return eg_gl_check("glRenderbufferStorageMultisample") ? EG_STATUS_OK : EG_STATUS_OUT_OF_MEMORY;
    }
    eg_gl.GenTextures(1, &t->name);
    eg_gl.BindTexture(t->target, t->name);
    if (t->target == GL_TEXTURE_2D || t->target == GL_TEXTURE_CUBE_MAP)
        eg_gl.TexStorage2D(t->target, (GLsizei)tex->mip_level_count, t->fmt->internal, w, h);
    else
        eg_gl.TexStorage3D(t->target, (GLsizei)tex->mip_level_count, t->fmt->internal, w, h,
                           (GLsizei)tex->size.depthOrArrayLayers);
    if (!eg_gl_check("glTexStorage")) {
        eg_gl.DeleteTextures(1, &t->name);
        t->name = 0;
        return EG_STATUS_OUT_OF_MEMORY;
    }
    /* Completeness: the full chain is exactly the levels that exist; nearest filtering by
     * default keeps integer textures complete when no sampler object is bound (texelFetch). */
    t->max_level = tex->mip_level_count - 1u;
    eg_gl.TexParameteri(t->target, GL_TEXTURE_BASE_LEVEL, 0);
    eg_gl.TexParameteri(t->target, GL_TEXTURE_MAX_LEVEL, (GLint)t->max_level);
    eg_gl.TexParameteri(t->target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    eg_gl.TexParameteri(t->target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    zero_texture(tex);
    return eg_gl_check("texture zero fill") ? EG_STATUS_OK : EG_STATUS_INTERNAL;
}

void eg_gl_texture_destroy(eg_hal_device_t *dev, eg_texture_t *tex)
{
    eg_gl_texture_t *t = EG_GL_PRIV(tex, eg_gl_texture_t);
    if (!t->name) return;
    eg_gl_begin(dev);
    if (t->target == GL_RENDERBUFFER) eg_gl.DeleteRenderbuffers(1, &t->name);
    else eg_gl.DeleteTextures(1, &t->name);
    t->name = 0;
}

eg_status_t eg_gl_queue_write_texture(eg_hal_device_t *dev, eg_texture_t *tex,
                                      const eg_texel_region_t *dst, const void *data,
                                      const eg_buffer_layout_t *layout)
{
    const eg_gl_texture_t *t = EG_GL_PRIV(tex, eg_gl_texture_t);
    if (t->target == GL_RENDERBUFFER) return EG_STATUS_INTERNAL;   /* kernel: MSAA is not CopyDst */
    if (dst->aspect == WGPUTextureAspect_StencilOnly) {
        eg_log(EG_LOG_ERROR, "gles: writing the stencil aspect alone is not supported by GLES 3.0");
        return EG_STATUS_OK;
    }
    eg_gl_begin(dev);
    eg_gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    eg_gl_texture_upload(tex, dst, (const uint8_t *)data + layout->offset_B, layout->bytes_per_row_B,
                         layout->rows_per_image);
    return eg_gl_check("WriteTexture") ? EG_STATUS_OK : EG_STATUS_INTERNAL;
}

void eg_gl_attach(GLenum fb_target, GLenum attachment, eg_texture_t *tex, uint32_t mip, uint32_t layer)
{
    const eg_gl_texture_t *t = EG_GL_PRIV(tex, eg_gl_texture_t);
    if (t->target == GL_RENDERBUFFER)
        eg_gl.FramebufferRenderbuffer(fb_target, attachment, GL_RENDERBUFFER, t->name);
    else if (t->target == GL_TEXTURE_2D)
        eg_gl.FramebufferTexture2D(fb_target, attachment, GL_TEXTURE_2D, t->name, (GLint)mip);
    else if (t->target == GL_TEXTURE_CUBE_MAP)   /* GLES 3.0/3.1 attach cube faces as 2D images */
        eg_gl.FramebufferTexture2D(fb_target, attachment, GL_TEXTURE_CUBE_MAP_POSITIVE_X + layer, t->name,
                                   (GLint)mip);
    else
        eg_gl.FramebufferTextureLayer(fb_target, attachment, t->name, (GLint)mip, (GLint)layer);
}

GLenum eg_gl_ds_attachment(const eg_format_info_t *fi)
{
    bool d = (fi->aspects & EG_ASPECT_DEPTH) != 0, s = (fi->aspects & EG_ASPECT_STENCIL) != 0;
    /* Stencil8 is stored as depth24-stencil8 (see the table): attach both. */
    if (fi->format == WGPUTextureFormat_Stencil8) return GL_DEPTH_STENCIL_ATTACHMENT;
    return d && s ? GL_DEPTH_STENCIL_ATTACHMENT : d ? GL_DEPTH_ATTACHMENT : GL_STENCIL_ATTACHMENT;
}

/* ---- views: GLES has no texture views (no glTextureView); a view is its parent texture plus
 * a mip range applied with BASE/MAX_LEVEL when bound. A view that selects layers, another
 * dimension or another format cannot be sampled; gl_bind_group reports it when bound. ---- */

eg_status_t eg_gl_texture_view_create(eg_hal_device_t *dev, eg_texture_view_t *view)
{
    (void)dev;
    const eg_texture_t *tex = view->texture;
    const eg_gl_texture_t *t = EG_GL_PRIV(tex, eg_gl_texture_t);
    eg_gl_view_t *v = EG_GL_PRIV(view, eg_gl_view_t);
    bool dim_ok = (t->target == GL_TEXTURE_2D && view->dimension == WGPUTextureViewDimension_2D) ||
                  (t->target == GL_TEXTURE_2D_ARRAY && view->dimension == WGPUTextureViewDimension_2DArray) ||
                  (t->target == GL_TEXTURE_3D && view->dimension == WGPUTextureViewDimension_3D) ||
                  (t->target == GL_TEXTURE_CUBE_MAP && view->dimension == WGPUTextureViewDimension_Cube);
    bool layers_ok = view->base_array_layer == 0 && view->array_layer_count == eg_texture_layer_count(tex);
    v->sampleable = dim_ok && layers_ok && view->format == tex->format;
    return EG_STATUS_OK;
}

void eg_gl_texture_view_destroy(eg_hal_device_t *dev, eg_texture_view_t *view)
{
    eg_gl_begin(dev);
    eg_gl_fbo_forget_view(dev, view);
}

void eg_gl_texture_apply_view(eg_texture_view_t *view)
{
    eg_gl_texture_t *t = EG_GL_PRIV(view->texture, eg_gl_texture_t);
    uint32_t base = view->base_mip_level, max = view->base_mip_level + view->mip_level_count - 1u;
    if (t->base_level != base) {
        eg_gl.TexParameteri(t->target, GL_TEXTURE_BASE_LEVEL, (GLint)base);
        t->base_level = base;
    }
    if (t->max_level != max) {
        eg_gl.TexParameteri(t->target, GL_TEXTURE_MAX_LEVEL, (GLint)max);
        t->max_level = max;
    }
}

/* ---- samplers ---- */

static GLint address_mode(WGPUAddressMode m)
{
    return m == WGPUAddressMode_Repeat ? GL_REPEAT
         : m == WGPUAddressMode_MirrorRepeat ? GL_MIRRORED_REPEAT : GL_CLAMP_TO_EDGE;
}

eg_status_t eg_gl_sampler_create(eg_hal_device_t *dev, eg_sampler_t *smp)
{
    eg_gl_sampler_t *s = EG_GL_PRIV(smp, eg_gl_sampler_t);
    const WGPUSamplerDescriptor *d = &smp->desc;
    eg_gl_begin(dev);
    eg_gl.GenSamplers(1, &s->name);
    bool lin = d->minFilter == WGPUFilterMode_Linear, mip_lin = d->mipmapFilter == WGPUMipmapFilterMode_Linear;
    GLint min = lin ? (mip_lin ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR_MIPMAP_NEAREST)
                    : (mip_lin ? GL_NEAREST_MIPMAP_LINEAR : GL_NEAREST_MIPMAP_NEAREST);
    eg_gl.SamplerParameteri(s->name, GL_TEXTURE_MIN_FILTER, min);
    eg_gl.SamplerParameteri(s->name, GL_TEXTURE_MAG_FILTER,
                            d->magFilter == WGPUFilterMode_Linear ? GL_LINEAR : GL_NEAREST);
    eg_gl.SamplerParameteri(s->name, GL_TEXTURE_WRAP_S, address_mode(d->addressModeU));
    eg_gl.SamplerParameteri(s->name, GL_TEXTURE_WRAP_T, address_mode(d->addressModeV));
    eg_gl.SamplerParameteri(s->name, GL_TEXTURE_WRAP_R, address_mode(d->addressModeW));
    eg_gl.SamplerParameterf(s->name, GL_TEXTURE_MIN_LOD, d->lodMinClamp);
    eg_gl.SamplerParameterf(s->name, GL_TEXTURE_MAX_LOD, d->lodMaxClamp);
    if (d->compare != WGPUCompareFunction_Undefined) {
        /* WebGPU CompareFunction Never..Always are GL_NEVER..GL_ALWAYS in the same order. */
        eg_gl.SamplerParameteri(s->name, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
        eg_gl.SamplerParameteri(s->name, GL_TEXTURE_COMPARE_FUNC, (GLint)(GL_NEVER + (GLenum)d->compare - 1u));
    }
    return eg_gl_check("sampler") ? EG_STATUS_OK : EG_STATUS_INTERNAL;
}

void eg_gl_sampler_destroy(eg_hal_device_t *dev, eg_sampler_t *smp)
{
    eg_gl_sampler_t *s = EG_GL_PRIV(smp, eg_gl_sampler_t);
    if (!s->name) return;
    eg_gl_begin(dev);
    eg_gl.DeleteSamplers(1, &s->name);
    s->name = 0;
}

#endif /* EMGPU_HAL_GLES */
