/* hal/gles framebuffers: a fixed-size cache of FBOs keyed by render pass attachments.
 *
 * Building an FBO costs attach calls and a completeness check, and passes reuse the same
 * attachments frame after frame, so FBOs are kept in EMGPU_GLES_FBO_CACHE slots. A full cache
 * evicts its least recently used entry; destroying a view deletes every FBO that names it (a
 * later view may reuse the same slot address).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_GLES

#include "hal/gles/gl_internal.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/base/log.h"

typedef struct fbo_entry {
    eg_hal_device_t *dev;
    GLuint fbo;
    uint32_t color_count;
    const eg_texture_view_t *colors[EMGPU_MAX_COLOR_ATTACHMENTS];
    uint32_t slices[EMGPU_MAX_COLOR_ATTACHMENTS];
    const eg_texture_view_t *ds;
    uint64_t last_use;
} fbo_entry_t;

static fbo_entry_t g_fbos[EMGPU_GLES_FBO_CACHE];
static uint64_t g_clock;

static bool matches(const fbo_entry_t *e, eg_hal_device_t *dev, eg_texture_view_t *const *colors,
                    const uint32_t *slices, uint32_t n, const eg_texture_view_t *ds)
{
    if (!e->fbo || e->dev != dev || e->color_count != n || e->ds != ds) return false;
    for (uint32_t i = 0; i < n; i++)
        if (e->colors[i] != colors[i] || (colors[i] && e->slices[i] != slices[i])) return false;
    return true;
}

static void drop(fbo_entry_t *e)
{
    if (e->fbo) eg_gl.DeleteFramebuffers(1, &e->fbo);
    eg_memset(e, 0, sizeof *e);
}

static uint32_t attach_layer(const eg_texture_view_t *v, uint32_t slice)
{
    return v->texture->dimension == WGPUTextureDimension_3D ? slice : v->base_array_layer;
}

static bool build(fbo_entry_t *e)
{
    eg_gl.GenFramebuffers(1, &e->fbo);
    eg_gl.BindFramebuffer(GL_DRAW_FRAMEBUFFER, e->fbo);
    GLenum bufs[EMGPU_MAX_COLOR_ATTACHMENTS];
    for (uint32_t i = 0; i < e->color_count; i++) {
        const eg_texture_view_t *v = e->colors[i];
        bufs[i] = v ? GL_COLOR_ATTACHMENT0 + i : GL_NONE;
        if (v) eg_gl_attach(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, v->texture, v->base_mip_level,
                            attach_layer(v, e->slices[i]));
    }
    if (e->ds)
        eg_gl_attach(GL_DRAW_FRAMEBUFFER, eg_gl_ds_attachment(e->ds->texture->fi), e->ds->texture,
                     e->ds->base_mip_level, e->ds->base_array_layer);
    eg_gl.DrawBuffers((GLsizei)e->color_count, bufs);
    GLenum st = eg_gl.CheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
    if (st != GL_FRAMEBUFFER_COMPLETE) {
        eg_log(EG_LOG_ERROR, "gles: render pass framebuffer incomplete (status 0x%x)", (unsigned)st);
        drop(e);
        return false;
    }
    return true;
}

GLuint eg_gl_fbo_get(eg_hal_device_t *dev, eg_texture_view_t *const *colors, const uint32_t *slices,
                     uint32_t color_count, eg_texture_view_t *ds)
{
    fbo_entry_t *victim = &g_fbos[0];
    for (uint32_t i = 0; i < EMGPU_GLES_FBO_CACHE; i++) {
        fbo_entry_t *e = &g_fbos[i];
        if (matches(e, dev, colors, slices, color_count, ds)) {
            e->last_use = ++g_clock;
            eg_gl.BindFramebuffer(GL_DRAW_FRAMEBUFFER, e->fbo);
            return e->fbo;
        }
        if (!e->fbo || (victim->fbo && e->last_use < victim->last_use)) victim = e;
    }
    if (victim->fbo) {
        eg_hal_device_t *owner = victim->dev;
        eg_gl_begin(owner);
        drop(victim);
        eg_gl_begin(dev);
    }
    victim->dev = dev;
    victim->color_count = color_count;
    for (uint32_t i = 0; i < color_count; i++) {
        victim->colors[i] = colors[i];
        victim->slices[i] = slices[i];
    }
    victim->ds = ds;
    victim->last_use = ++g_clock;
    return build(victim) ? victim->fbo : 0;
}

void eg_gl_fbo_forget_view(eg_hal_device_t *dev, const eg_texture_view_t *view)
{
    for (uint32_t i = 0; i < EMGPU_GLES_FBO_CACHE; i++) {
        fbo_entry_t *e = &g_fbos[i];
        if (!e->fbo || e->dev != dev) continue;
        bool uses = e->ds == view;
        for (uint32_t c = 0; c < e->color_count; c++) uses = uses || e->colors[c] == view;
        if (uses) drop(e);
    }
}

void eg_gl_fbo_close(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_GLES_FBO_CACHE; i++)
        if (g_fbos[i].dev == dev) drop(&g_fbos[i]);
}

#endif /* EMGPU_HAL_GLES */
