/* Surfaces: partial updates (wgpuSurfaceEmgpuSetDamage, emgpu.h; docs/displays.md "Partial updates").
 *
 * The application names the part of the current frame that changes; the backend renders and
 * presents only that part (soft: the tiles or strips that intersect it). The rest of the target
 * must then already hold the right pixels, which depends on how many frames old the back
 * buffer is (EGL_EXT_buffer_age's "age"):
 *   - age 1 (framebuffer panels, single-buffered fbdev/DRM, X11 windows): the back buffer holds
 *     the previous frame, so the frame's damage is enough;
 *   - age 2 (fbdev with two screens, DRM with two dumb buffers): the back buffer holds the frame
 *     before the previous one, so the previous frame's damage must be redrawn as well (their
 *     bounding box is used);
 *   - unknown (no frame presented yet under this format and size, or the last frame was
 *     dropped): the whole frame is drawn, whatever the damage says.
 * Strip panels keep their GRAM, so for them the rule is age 1 as well.
 */
#include "kernel/api/surface.h"

#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/api/texture.h"

static eg_hal_rect_t whole(const eg_surface_t *s)
{
    return (eg_hal_rect_t){ 0, 0, s->width_px, s->height_px };
}

static uint32_t back_buffer_age(const eg_surface_t *s)
{
    if (s->kind == EG_SURFACE_FBDEV && s->fbdev.screens > 1) return 2;
    if (s->kind == EG_SURFACE_DRM && s->drm.buffers > 1) return 2;
    if (s->kind == EG_SURFACE_WAYLAND) return 2;   /* helper wayland: two shm buffers in turn */
    return 1;
}

static bool history_valid(const eg_surface_t *s)
{
    const eg_surface_damage_t *d = &s->damage;
    return d->history && d->format == s->format && d->width_px == s->width_px &&
           d->height_px == s->height_px;
}

static void bound(eg_hal_rect_t *a, const eg_hal_rect_t *b)
{
    a->x0 = eg_min_u32(a->x0, b->x0);
    a->y0 = eg_min_u32(a->y0, b->y0);
    a->x1 = eg_max_u32(a->x1, b->x1);
    a->y1 = eg_max_u32(a->y1, b->y1);
}

/* Our extension; the state rules follow webgpu-headers' surface model (a frame exists between
 * GetCurrentTexture and Present) and EGL_KHR_partial_update (eglSetDamageRegionKHR: "after
 * the surface's buffer is acquired and before any rendering to it", else EGL_BAD_ACCESS).
 * Each rectangle must be non-empty and inside the configured size. */
static bool validate(const eg_vctx_t *v, const eg_surface_t *s, const WGPUEmgpuRect *rects,
                     size_t count)
{
    EG_CHECK(v, s->state == EG_SURFACE_ACQUIRED, SURFACE_DAMAGE, "the surface has no current "
             "frame (%s); call it between wgpuSurfaceGetCurrentTexture and wgpuSurfacePresent",
             s->state == EG_SURFACE_UNCONFIGURED ? "not configured" : "not acquired");
    EG_CHECK(v, s->texture->obj.last_submit == 0, SURFACE_DAMAGE, "the frame's texture was "
             "already used by wgpuQueueSubmit; set the damage before submitting the frame's "
             "render pass");
    EG_CHECK(v, rects || count == 0, SURFACE_DAMAGE, "rects is NULL with count %u",
             (unsigned)count);
    EG_CHECK(v, count <= EMGPU_SURFACE_MAX_DAMAGE_RECTS, SURFACE_DAMAGE, "count %u is above "
             "EMGPU_SURFACE_MAX_DAMAGE_RECTS (%u); pass the bounding box instead or raise the knob",
             (unsigned)count, (unsigned)EMGPU_SURFACE_MAX_DAMAGE_RECTS);
    for (size_t i = 0; i < count; i++) {
        const WGPUEmgpuRect *r = &rects[i];
        EG_CHECK(v, r->width && r->height, SURFACE_DAMAGE, "rects[%u] is empty (width %u, height "
                 "%u); leave it out, or pass count 0 for the whole frame", (unsigned)i,
                 (unsigned)r->width, (unsigned)r->height);
        EG_CHECK(v, (uint64_t)r->x + r->width <= s->width_px &&
                    (uint64_t)r->y + r->height <= s->height_px, SURFACE_DAMAGE,
                 "rects[%u] (x %u, y %u, width %u, height %u) is not inside the configured size "
                 "%ux%u", (unsigned)i, (unsigned)r->x, (unsigned)r->y, (unsigned)r->width,
                 (unsigned)r->height, (unsigned)s->width_px, (unsigned)s->height_px);
    }
    return true;
}

WGPUStatus wgpuSurfaceEmgpuSetDamage(WGPUSurface surface, WGPUEmgpuRect const *rects, size_t count)
{
    if (!eg_handle_live(surface, EG_KIND_SURFACE, "wgpuSurfaceEmgpuSetDamage")) return WGPUStatus_Error;
    eg_vctx_t v = eg_vctx(surface->device, "wgpuSurfaceEmgpuSetDamage", surface->obj.label);
    if (!validate(&v, surface, rects, count)) return WGPUStatus_Error;
    eg_surface_damage_t *d = &surface->damage;
    eg_hal_rect_t r = whole(surface);
    d->own = r;
    if (count) {
        r = (eg_hal_rect_t){ rects[0].x, rects[0].y, rects[0].x + rects[0].width,
                             rects[0].y + rects[0].height };
        for (size_t i = 1; i < count; i++) {
            eg_hal_rect_t b = { rects[i].x, rects[i].y, rects[i].x + rects[i].width,
                                rects[i].y + rects[i].height };
            bound(&r, &b);
        }
        bool history = history_valid(surface);
        if (!history) r = whole(surface);
        d->own = r;   /* helper wayland: what the next frame adds (not the union below) */
        if (history && back_buffer_age(surface) == 2) bound(&r, &d->prev);
    }
    const eg_hal_ops_t *hal = surface->device->hal;
    if (surface->native || !hal->surface_damage) return WGPUStatus_Success;   /* whole frames */
    d->cur = r;
    d->set = true;
    hal->surface_damage(surface->device->hal_dev, surface->texture, &r);
    return WGPUStatus_Success;
}

void eg_surface_damage_rect(const eg_surface_t *s, eg_hal_rect_t *r)
{
    *r = s->damage.set ? s->damage.cur : whole(s);
}

void eg_surface_damage_frame_end(eg_surface_t *s, bool presented)
{
    eg_surface_damage_t *d = &s->damage;
    const eg_hal_ops_t *hal = s->device->hal;
    if (hal->surface_damage && s->texture) hal->surface_damage(s->device->hal_dev, s->texture, NULL);
    d->prev = d->set ? d->own : whole(s);   /* helper wayland: own, was cur (accumulated) */
    d->set = false;
    d->history = presented;
    d->format = s->format;
    d->width_px = s->width_px;
    d->height_px = s->height_px;
}
