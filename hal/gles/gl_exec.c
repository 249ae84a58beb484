/* hal/gles command execution: barriers, copies, buffer clears and render pass begin/end
 * (clears, discards, MSAA resolves); state, draws and dispatches go to gl_draw.c. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/buffer.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/base/log.h"
#include "kernel/cmd/cmd.h"

static GLuint buf_name(const eg_buffer_t *b) { return EG_GL_PRIV(b, eg_gl_buffer_t)->name; }
static const eg_gl_texture_t *gtex(const eg_texture_t *t) { return EG_GL_PRIV(t, eg_gl_texture_t); }

/* The tracker's transitions: only storage writes need a GL barrier (everything else is ordered
 * by GL itself). One full barrier per batch keeps it simple and correct. */
static void barrier(eg_hal_device_t *dev, const eg_cmd_barrier_t *b)
{
    if (!dev->es31) return;
    const eg_track_transition_t *t = eg_cmd_barrier_items(b);
    for (uint32_t i = 0; i < b->count; i++) {
        bool buf = t[i].kind == EG_TRACK_KIND_BUFFER;
        uint16_t w = buf ? EG_TRACK_BUF_STORAGE_WRITE : EG_TRACK_TEX_STORAGE_WRITE;
        if (t[i].from_use & w) {
            eg_gl.MemoryBarrier(GL_ALL_BARRIER_BITS);
            return;
        }
    }
}

/* ---- copies ---- */

static GLbitfield aspect_mask(const eg_format_info_t *fi, WGPUTextureAspect aspect)
{
    if (!(fi->aspects & (EG_ASPECT_DEPTH | EG_ASPECT_STENCIL))) return GL_COLOR_BUFFER_BIT;
    GLbitfield m = 0;
    if ((fi->aspects & EG_ASPECT_DEPTH) && aspect != WGPUTextureAspect_StencilOnly) m |= GL_DEPTH_BUFFER_BIT;
    if ((fi->aspects & EG_ASPECT_STENCIL) && aspect != WGPUTextureAspect_DepthOnly) m |= GL_STENCIL_BUFFER_BIT;
    return m;
}

static GLenum attachment_of(const eg_format_info_t *fi)
{
    return eg_format_is_depth_stencil(fi) ? eg_gl_ds_attachment(fi) : GL_COLOR_ATTACHMENT0;
}

static void copy_b2t(const eg_cmd_copy_bt_t *c)
{
    const eg_gl_format_t *f = gtex(c->texture)->fmt;
    bool direct = !f->swap_rb && c->layout.bytes_per_row_B % eg_gl_texel_B(f) == 0;
    if (direct) {   /* the buffer is the unpack source: no CPU round trip */
        eg_gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, buf_name(c->buffer));
        eg_gl_texture_upload(c->texture, &c->region, (const uint8_t *)(uintptr_t)c->layout.offset_B,
                             c->layout.bytes_per_row_B, c->layout.rows_per_image);
        eg_gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
        return;
    }
    /* BGRA or odd pitches: read the rows through a mapping and upload from the CPU. */
    uint64_t size = c->buffer->size_B - c->layout.offset_B;
    eg_gl.BindBuffer(GL_COPY_READ_BUFFER, buf_name(c->buffer));
    const uint8_t *p = eg_gl.MapBufferRange(GL_COPY_READ_BUFFER, (GLintptr)c->layout.offset_B,
                                            (GLsizeiptr)size, GL_MAP_READ_BIT);
    if (!p) { eg_gl_check("map for buffer-to-texture copy"); return; }
    eg_gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    eg_gl_texture_upload(c->texture, &c->region, p, c->layout.bytes_per_row_B, c->layout.rows_per_image);
    eg_gl.BindBuffer(GL_COPY_READ_BUFFER, buf_name(c->buffer));
    eg_gl.UnmapBuffer(GL_COPY_READ_BUFFER);
}

static void swap_rb_rows(const eg_cmd_copy_bt_t *c, uint64_t offset_B, uint32_t rows)
{
    uint32_t row_B = c->region.width_px * 4u;
    uint64_t len = (uint64_t)(rows - 1u) * c->layout.bytes_per_row_B + row_B;
    uint8_t *p = eg_gl.MapBufferRange(GL_PIXEL_PACK_BUFFER, (GLintptr)offset_B, (GLsizeiptr)len,
                                      GL_MAP_READ_BIT | GL_MAP_WRITE_BIT);
    if (!p) return;
    for (uint32_t y = 0; y < rows; y++)
        for (uint32_t x = 0; x < row_B; x += 4) {
            uint8_t *t = p + (size_t)y * c->layout.bytes_per_row_B + x, r = t[0];
            t[0] = t[2];
            t[2] = r;
        }
    eg_gl.UnmapBuffer(GL_PIXEL_PACK_BUFFER);
}

/* Texture -> buffer through glReadPixels into a pack buffer, one layer at a time. GLES cannot
 * read depth or stencil with glReadPixels (NV_read_depth_stencil is rare): reported. */
static bool copy_t2b(eg_hal_device_t *dev, const eg_cmd_copy_bt_t *c)
{
    const eg_format_info_t *fi = c->texture->fi;
    const eg_gl_format_t *f = gtex(c->texture)->fmt;
    const eg_texel_region_t *r = &c->region;
    GLenum att = GL_COLOR_ATTACHMENT0, format = f->format, type = f->type;
    uint32_t texel_B = eg_gl_texel_B(f);
    if (eg_format_is_depth_stencil(fi)) {
        /* Plain GLES reads color only; NV_read_depth / NV_read_stencil (Mesa, NVIDIA) read the
         * aspects in WebGPU's copy encodings (depth16unorm: u16, depth32float: f32, stencil: u8). */
        bool stencil = r->aspect == WGPUTextureAspect_StencilOnly || !(fi->aspects & EG_ASPECT_DEPTH);
        bool can = stencil ? dev->read_stencil : dev->read_depth;
        if (!can) {
            eg_log(EG_LOG_ERROR, "gles: copying the %s aspect of %s to a buffer needs GL_NV_read_%s",
                   stencil ? "stencil" : "depth", fi->name, stencil ? "stencil" : "depth");
            return true;
        }
        att = eg_gl_ds_attachment(fi);
        format = stencil ? 0x1901u /* GL_STENCIL_INDEX */ : GL_DEPTH_COMPONENT;
        type = stencil ? GL_UNSIGNED_BYTE : fi->format == WGPUTextureFormat_Depth16Unorm ? GL_UNSIGNED_SHORT : GL_FLOAT;
        texel_B = stencil ? 1u : fi->format == WGPUTextureFormat_Depth16Unorm ? 2u : 4u;
    }
    bool rowwise = c->layout.bytes_per_row_B % texel_B != 0;
    eg_gl.BindFramebuffer(GL_READ_FRAMEBUFFER, dev->fbo_read);
    eg_gl.BindBuffer(GL_PIXEL_PACK_BUFFER, buf_name(c->buffer));
    eg_gl.PixelStorei(GL_PACK_ROW_LENGTH, rowwise ? 0 : (GLint)(c->layout.bytes_per_row_B / texel_B));
    for (uint32_t z = 0; z < r->depth_or_layers; z++) {
        eg_gl_attach(GL_READ_FRAMEBUFFER, att, c->texture, r->mip_level, r->origin_z + z);
        eg_gl.ReadBuffer(att == GL_COLOR_ATTACHMENT0 ? GL_COLOR_ATTACHMENT0 : GL_NONE);
        uint64_t off = c->layout.offset_B + (uint64_t)z * c->layout.rows_per_image * c->layout.bytes_per_row_B;
        uint32_t rows = rowwise ? r->height_px : 1u, h = rowwise ? 1u : r->height_px;
        for (uint32_t y = 0; y < rows; y++)
            eg_gl.ReadPixels((GLint)r->origin_x, (GLint)(r->origin_y + y), (GLsizei)r->width_px, (GLsizei)h,
                             format, type, (void *)(uintptr_t)(off + (uint64_t)y * c->layout.bytes_per_row_B));
        if (f->swap_rb) swap_rb_rows(c, off, r->height_px);
    }
    eg_gl.PixelStorei(GL_PACK_ROW_LENGTH, 0);
    eg_gl.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    eg_gl.FramebufferTexture2D(GL_READ_FRAMEBUFFER, att, GL_TEXTURE_2D, 0, 0);
    return eg_gl_check("texture-to-buffer copy");
}

/* Texture -> texture with glBlitFramebuffer between two scratch framebuffers, layer by layer
 * (same extent, NEAREST: an exact copy for equal formats, which WebGPU requires). */
static void copy_t2t(eg_hal_device_t *dev, const eg_cmd_copy_t2t_t *c)
{
    const eg_texel_region_t *s = &c->src_region, *d = &c->dst_region;
    const eg_format_info_t *fi = c->src->fi;
    GLenum att = attachment_of(fi);
    GLbitfield mask = aspect_mask(fi, s->aspect);
    eg_gl.BindFramebuffer(GL_READ_FRAMEBUFFER, dev->fbo_read);
    eg_gl.BindFramebuffer(GL_DRAW_FRAMEBUFFER, dev->fbo_draw);
    eg_gl.Disable(GL_SCISSOR_TEST);
    for (uint32_t z = 0; z < s->depth_or_layers; z++) {
        eg_gl_attach(GL_READ_FRAMEBUFFER, att, c->src, s->mip_level, s->origin_z + z);
        eg_gl_attach(GL_DRAW_FRAMEBUFFER, att, c->dst, d->mip_level, d->origin_z + z);
        if (att == GL_COLOR_ATTACHMENT0) {
            GLenum b = GL_COLOR_ATTACHMENT0;
            eg_gl.ReadBuffer(b);
            eg_gl.DrawBuffers(1, &b);
        }
        eg_gl.BlitFramebuffer((GLint)s->origin_x, (GLint)s->origin_y, (GLint)(s->origin_x + s->width_px),
                              (GLint)(s->origin_y + s->height_px), (GLint)d->origin_x, (GLint)d->origin_y,
                              (GLint)(d->origin_x + s->width_px), (GLint)(d->origin_y + s->height_px), mask,
                              GL_NEAREST);
    }
    eg_gl.FramebufferTexture2D(GL_READ_FRAMEBUFFER, att, GL_TEXTURE_2D, 0, 0);
    eg_gl.FramebufferTexture2D(GL_DRAW_FRAMEBUFFER, att, GL_TEXTURE_2D, 0, 0);
    eg_gl.FramebufferRenderbuffer(GL_READ_FRAMEBUFFER, att, GL_RENDERBUFFER, 0);
    eg_gl.FramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, att, GL_RENDERBUFFER, 0);
}

/* ---- render passes ---- */

/* GL, like Vulkan, lets a driver round float -> unorm either way at an exact tie (NVIDIA gives
 * 127 for 0.5 * 255); WebGPU wants round-to-nearest. Handing over the exact code point k / 255
 * makes every rounding give k. sRGB colour channels are encoded by the driver and left alone. */
static GLfloat unorm8_exact(double x)
{
    x = x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
    return (GLfloat)((double)(int32_t)(x * 255.0 + 0.5) / 255.0);
}

static void clear_color(uint32_t slot, const eg_texture_view_t *v, const WGPUColor *c_in)
{
    WGPUColor exact = *c_in;
    const WGPUColor *c = &exact;
    switch (v->format) {
    case WGPUTextureFormat_R8Unorm: case WGPUTextureFormat_RG8Unorm: case WGPUTextureFormat_RGBA8Unorm:
    case WGPUTextureFormat_BGRA8Unorm:
        exact.r = unorm8_exact(exact.r); exact.g = unorm8_exact(exact.g); exact.b = unorm8_exact(exact.b);
        exact.a = unorm8_exact(exact.a);
        break;
    case WGPUTextureFormat_RGBA8UnormSrgb: case WGPUTextureFormat_BGRA8UnormSrgb:
        exact.a = unorm8_exact(exact.a);
        break;
    default: break;
    }
    switch (EG_GL_PRIV(v->texture, eg_gl_texture_t)->fmt->clear_kind) {
    case 1: { GLint i[4] = { (GLint)c->r, (GLint)c->g, (GLint)c->b, (GLint)c->a };
              eg_gl.ClearBufferiv(GL_COLOR, (GLint)slot, i); break; }
    case 2: { GLuint u[4] = { (GLuint)c->r, (GLuint)c->g, (GLuint)c->b, (GLuint)c->a };
              eg_gl.ClearBufferuiv(GL_COLOR, (GLint)slot, u); break; }
    default: { GLfloat f[4] = { (GLfloat)c->r, (GLfloat)c->g, (GLfloat)c->b, (GLfloat)c->a };
               eg_gl.ClearBufferfv(GL_COLOR, (GLint)slot, f); break; }
    }
}

static void clear_ds(const eg_format_info_t *fi, bool depth, float d, bool stencil, GLint s)
{
    depth = depth && (fi->aspects & EG_ASPECT_DEPTH);
    stencil = stencil && (fi->aspects & EG_ASPECT_STENCIL);
    if (depth && stencil) eg_gl.ClearBufferfi(GL_DEPTH_STENCIL, 0, d, s);
    else if (depth) eg_gl.ClearBufferfv(GL_DEPTH, 0, &d);
    else if (stencil) eg_gl.ClearBufferiv(GL_STENCIL, 0, &s);
}

/* Clears ignore the scissor but obey the write masks: open everything first. */
static void open_masks(void)
{
    eg_gl.Disable(GL_SCISSOR_TEST);
    eg_gl.ColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    eg_gl.DepthMask(GL_TRUE);
    eg_gl.StencilMaskSeparate(GL_FRONT_AND_BACK, 0xFFu);
}

static bool begin_pass(eg_hal_device_t *dev, const eg_cmd_begin_render_pass_t *r)
{
    eg_texture_view_t *colors[EG_CMD_MAX_COLOR_ATTACHMENTS];
    uint32_t slices[EG_CMD_MAX_COLOR_ATTACHMENTS];
    for (uint32_t i = 0; i < r->color_count; i++) {
        colors[i] = r->color[i].view;
        slices[i] = r->color[i].depth_slice;
    }
    if (!eg_gl_fbo_get(dev, colors, slices, r->color_count, r->depth_stencil.view)) return false;
    open_masks();
    for (uint32_t i = 0; i < r->color_count; i++)
        if (r->color[i].view && r->color[i].load_op == WGPULoadOp_Clear)
            clear_color(i, r->color[i].view, &r->color[i].clear_value);
    const eg_cmd_depth_stencil_attachment_t *ds = &r->depth_stencil;
    if (ds->view)
        clear_ds(ds->view->fi, ds->depth_load_op == WGPULoadOp_Clear, ds->depth_clear_value,
                 ds->stencil_load_op == WGPULoadOp_Clear, (GLint)ds->stencil_clear_value);
    eg_gl.Enable(GL_SCISSOR_TEST);
    eg_gl.Viewport(0, 0, (GLsizei)r->width_px, (GLsizei)r->height_px);
    eg_gl.Scissor(0, 0, (GLsizei)r->width_px, (GLsizei)r->height_px);
    eg_gl.DepthRangef(0.0f, 1.0f);
    return true;
}

static void resolve(eg_hal_device_t *dev, const eg_cmd_begin_render_pass_t *r, uint32_t slot, GLuint pass_fbo)
{
    const eg_texture_view_t *dst = r->color[slot].resolve_target;
    eg_gl.BindFramebuffer(GL_READ_FRAMEBUFFER, pass_fbo);
    eg_gl.ReadBuffer(GL_COLOR_ATTACHMENT0 + slot);
    eg_gl.BindFramebuffer(GL_DRAW_FRAMEBUFFER, dev->fbo_draw);
    eg_gl_attach(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, dst->texture, dst->base_mip_level, dst->base_array_layer);
    GLenum b = GL_COLOR_ATTACHMENT0;
    eg_gl.DrawBuffers(1, &b);
    GLint w = (GLint)r->width_px, h = (GLint)r->height_px;
    eg_gl.BlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    eg_gl.FramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
}

/* storeOp Discard: WebGPU then reads the texture as zeros (lazy clear), which an invalidate
 * alone would not guarantee, so discarded attachments are cleared to zero instead. */
static void end_pass(eg_hal_device_t *dev, const eg_cmd_begin_render_pass_t *r)
{
    GLint fbo = 0;
    eg_gl.GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    for (uint32_t i = 0; i < r->color_count; i++)
        if (r->color[i].view && r->color[i].resolve_target) resolve(dev, r, i, (GLuint)fbo);
    eg_gl.BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)fbo);
    open_masks();
    static const WGPUColor zero = { 0, 0, 0, 0 };
    for (uint32_t i = 0; i < r->color_count; i++)
        if (r->color[i].view && r->color[i].store_op == WGPUStoreOp_Discard) clear_color(i, r->color[i].view, &zero);
    const eg_cmd_depth_stencil_attachment_t *ds = &r->depth_stencil;
    if (ds->view)
        clear_ds(ds->view->fi, ds->depth_store_op == WGPUStoreOp_Discard, 0.0f,
                 ds->stencil_store_op == WGPUStoreOp_Discard, 0);
}

/* ---- the stream ---- */

static const char *op_name(uint16_t op)
{
    static const char *const names[] = { "none", "barrier", "copy b2b", "copy b2t", "copy t2b", "copy t2t",
        "clear buffer", "begin render pass", "end render pass", "begin compute pass", "end compute pass",
        "set render pipeline", "set compute pipeline", "set bind group", "set vertex buffer",
        "set index buffer", "set viewport", "set scissor", "set blend constant", "set stencil ref", "draw",
        "draw indexed", "draw indirect", "draw indexed indirect", "dispatch", "dispatch indirect",
        "push debug group", "pop debug group", "insert debug marker" };
    return op < EG_ARRAY_LEN(names) ? names[op] : "?";
}

static eg_status_t run_one(eg_hal_device_t *dev, eg_gl_state_t *s, const eg_cmd_header_t *h,
                           const eg_cmd_begin_render_pass_t **pass)
{
    eg_status_t st = EG_STATUS_OK;
    switch ((eg_cmd_op_t)h->op) {
    case EG_CMD_BARRIER: barrier(dev, (const eg_cmd_barrier_t *)(const void *)h); break;
    case EG_CMD_COPY_BUFFER_TO_BUFFER: {
        const eg_cmd_copy_b2b_t *c = (const eg_cmd_copy_b2b_t *)(const void *)h;
        if (!c->size_B) break;
        eg_gl.BindBuffer(GL_COPY_READ_BUFFER, buf_name(c->src));
        eg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, buf_name(c->dst));
        eg_gl.CopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)c->src_offset_B,
                                (GLintptr)c->dst_offset_B, (GLsizeiptr)c->size_B);
        break;
    }
    case EG_CMD_CLEAR_BUFFER: {
        const eg_cmd_clear_buffer_t *c = (const eg_cmd_clear_buffer_t *)(const void *)h;
        if (!c->size_B) break;
        eg_gl.BindBuffer(GL_COPY_WRITE_BUFFER, buf_name(c->buffer));
        eg_gl_buffer_zero(GL_COPY_WRITE_BUFFER, c->offset_B, c->size_B);
        break;
    }
    case EG_CMD_COPY_BUFFER_TO_TEXTURE: copy_b2t((const eg_cmd_copy_bt_t *)(const void *)h); break;
    case EG_CMD_COPY_TEXTURE_TO_BUFFER: copy_t2b(dev, (const eg_cmd_copy_bt_t *)(const void *)h); break;
    case EG_CMD_COPY_TEXTURE_TO_TEXTURE: copy_t2t(dev, (const eg_cmd_copy_t2t_t *)(const void *)h); break;
    case EG_CMD_BEGIN_RENDER_PASS:
        *pass = (const eg_cmd_begin_render_pass_t *)(const void *)h;
        if (!begin_pass(dev, *pass)) st = EG_STATUS_INTERNAL;
        s->pipeline_dirty = s->bindings_dirty = true;
        break;
    case EG_CMD_END_RENDER_PASS:
        if (*pass) end_pass(dev, *pass);
        *pass = NULL;
        break;
    default:
        eg_gl_draw_command(dev, s, h, &st);
        break;
    }
    return st;
}

eg_status_t eg_gl_execute(eg_hal_device_t *dev, const struct eg_cmd_stream *stream)
{
    const eg_cmd_begin_render_pass_t *pass = NULL;
    eg_gl_state_t s;
    eg_memset(&s, 0, sizeof s);
    for (const eg_cmd_header_t *h = eg_cmd_first(stream); h; h = eg_cmd_next(stream, h)) {
        eg_status_t st = run_one(dev, &s, h, &pass);
        if (st != EG_STATUS_OK) return st;
        if (eg_gl_debug && !eg_gl_check(op_name(h->op))) return EG_STATUS_INTERNAL;
    }
    /* Attribute arrays are device state (one VAO): leave none enabled for the next stream. */
    for (uint32_t i = 0; i < 32; i++)
        if (s.attribs_enabled & (1u << i)) eg_gl.DisableVertexAttribArray(i);
    return EG_STATUS_OK;
}

#endif /* EMGPU_HAL_GLES */
