/* Soft backend execution of command streams: copies, clears, render-pass load/store and resolve,
 * pass state, draws (soft_draw.c) and dispatches (the VM's eg_soft_dispatch).
 *
 * Soft runs every stream to completion inside queue_submit, on the CPU, so barriers need no
 * work. Pipelines keep their eg_soft_render_pipeline_t / eg_soft_compute_pipeline_t inline in
 * the object's hal words (soft_pipeline.c).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_internal.h"
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_bin_band.h"
#include "hal/soft/soft_texel.h"
#include "kernel/api/compute_pipeline.h"
#include "kernel/base/log.h"
#include "kernel/cmd/cmd.h"

/* ---- texel encoding of clear values ---- */

/* Linear values at which the sRGB 8-bit code steps from n to n + 1: decode((n + 0.5) / 255)
 * with the sRGB EOTF (IEC 61966-2-1). A table instead of pow(), so no libm is needed; the code
 * for v is the number of thresholds <= v, which is round(encode(v) * 255). */
static const float srgb_step[255] = {
#include "hal/soft/soft_srgb_table.inc"
};

static uint32_t srgb8(double v)
{
    uint32_t lo = 0, hi = 255;   /* answer in [lo, hi] */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2u;
        if (v >= (double)srgb_step[mid]) lo = mid + 1u;
        else hi = mid;
    }
    return lo;
}

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Spec: unorm conversion rounds to nearest: round(clamp(v, 0, 1) * (2^n - 1)). */
static uint32_t unorm(double v, uint32_t max) { return (uint32_t)(clampd(v, 0.0, 1.0) * max + 0.5); }
static int32_t snorm(double v, int32_t max)
{
    double x = clampd(v, -1.0, 1.0) * max;
    return (int32_t)(x < 0 ? x - 0.5 : x + 0.5);
}

/* IEEE half from a float, round to nearest even (for Float16 clears). */
static uint16_t half_from_float(float f)
{
    union { float f; uint32_t u; } c = { f };
    uint32_t sign = (c.u >> 16) & 0x8000u, exp = (c.u >> 23) & 0xFFu, man = c.u & 0x7FFFFFu;
    if (exp == 0xFFu) return (uint16_t)(sign | 0x7C00u | (man ? 0x200u : 0));
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7C00u);
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e), h = man >> shift, rem = man & ((1u << shift) - 1u);
        uint32_t half_ = 1u << (shift - 1u);
        if (rem > half_ || (rem == half_ && (h & 1u))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v & 0xFFFFu); put16(p + 2, v >> 16); }
static uint32_t f32_bits(float f) { union { float f; uint32_t u; } c = { f }; return c.u; }

static bool ends_with(const char *s, const char *tail)
{
    size_t n = eg_strlen(s), m = eg_strlen(tail);
    return n >= m && eg_strcmp(s + n - m, tail) == 0;
}

/* Writes one texel of a color format from a WGPUColor; returns the bytes written (0 when the
 * format has no clear encoding here). */
static uint32_t encode_color(const eg_format_info_t *fi, const WGPUColor *c, uint8_t out[16])
{
    const double ch[4] = { c->r, c->g, c->b, c->a };
    uint32_t n = fi->components, bits = (uint32_t)fi->block_B * 8u / (n ? n : 1u);
    WGPUTextureFormat f = fi->format;
    if (f == WGPUTextureFormat_RGB10A2Unorm) {
        put32(out, unorm(ch[0], 1023) | unorm(ch[1], 1023) << 10 | unorm(ch[2], 1023) << 20 | unorm(ch[3], 3) << 30);
        return 4;
    }
    if (f == WGPUTextureFormat_RGB10A2Uint) {
        put32(out, ((uint32_t)ch[0] & 1023) | ((uint32_t)ch[1] & 1023) << 10 | ((uint32_t)ch[2] & 1023) << 20 |
                   ((uint32_t)ch[3] & 3) << 30);
        return 4;
    }
    if (f == WGPUTextureFormat_RG11B10Ufloat) {
        /* uf11/uf10 share half's 5-bit exponent: drop the sign and low mantissa bits. */
        uint32_t r = half_from_float((float)clampd(ch[0], 0, 65000)) >> 4;
        uint32_t g = half_from_float((float)clampd(ch[1], 0, 65000)) >> 4;
        uint32_t b = half_from_float((float)clampd(ch[2], 0, 65000)) >> 5;
        put32(out, (r & 0x7FFu) | (g & 0x7FFu) << 11 | (b & 0x3FFu) << 22);
        return 4;
    }
    if (f == EG_FORMAT_RGB565_VALUE) {
        put16(out, unorm(ch[2], 31) | unorm(ch[1], 63) << 5 | unorm(ch[0], 31) << 11);
        return 2;
    }
    bool bgra = f == WGPUTextureFormat_BGRA8Unorm || f == WGPUTextureFormat_BGRA8UnormSrgb;
    for (uint32_t i = 0; i < n && i < 4; i++) {
        double x = ch[bgra && i != 3 ? 2 - i : i];
        uint8_t *p = out + i * (bits / 8u);
        uint32_t max = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
        switch (fi->sample_type) {
        case WGPUTextureSampleType_Uint:
            x = clampd(x, 0, (double)max);
            if (bits == 8) *p = (uint8_t)x; else if (bits == 16) put16(p, (uint32_t)x); else put32(p, (uint32_t)x);
            break;
        case WGPUTextureSampleType_Sint: {
            int32_t s = (int32_t)clampd(x, -(double)(max / 2u) - 1.0, (double)(max / 2u));
            if (bits == 8) *p = (uint8_t)s; else if (bits == 16) put16(p, (uint32_t)s & 0xFFFFu); else put32(p, (uint32_t)s);
            break;
        }
        default:
            if (ends_with(fi->name, "Float")) {
                if (bits == 32) put32(p, f32_bits((float)x)); else put16(p, half_from_float((float)x));
            } else if (ends_with(fi->name, "Snorm")) {
                int32_t s = snorm(x, (int32_t)(max / 2u));
                if (bits == 8) *p = (uint8_t)s; else put16(p, (uint32_t)s & 0xFFFFu);
            } else {
                uint32_t u = fi->srgb && i != 3 ? srgb8(x) : unorm(x, max);
                if (bits == 8) *p = (uint8_t)u; else put16(p, u);
            }
            break;
        }
    }
    return n * (bits / 8u);
}

/* ---- subresource fills ---- */

/* Clears run at memset/memcpy speed: a texel whose bytes are all equal is a memset; otherwise the
 * first row is filled by doubling copies and every other row is a copy of it (rows are
 * row_pitch_B apart and may be a damage rectangle's part of a wider row). */
static void fill_layer(const eg_soft_subres_t *s, uint32_t layer, const uint8_t *texel, uint32_t texel_B)
{
    uint8_t *base = s->base + (size_t)layer * s->slice_pitch_B;
    size_t row_B = (size_t)s->width_el * s->element_B;
    if (!row_B || !s->height_el) return;
    bool same = true;
    for (uint32_t i = 1; i < texel_B; i++) same = same && texel[i] == texel[0];
    if (same) {
        if (row_B == s->row_pitch_B) { eg_memset(base, texel[0], row_B * s->height_el); return; }
        for (uint32_t y = 0; y < s->height_el; y++) eg_memset(base + (size_t)y * s->row_pitch_B, texel[0], row_B);
        return;
    }
    eg_memcpy(base, texel, texel_B);
    for (size_t done = texel_B; done < row_B;) {
        size_t n = done < row_B - done ? done : row_B - done;
        eg_memcpy(base + done, base, n);
        done += n;
    }
    for (uint32_t y = 1; y < s->height_el; y++) eg_memcpy(base + (size_t)y * s->row_pitch_B, base, row_B);
}

/* (helper damage) Partial updates: a surface frame with a damage (soft_bin_band.h) is cleared,
 * discarded and resolved only inside it; the rest keeps the previous frame. Surface frames are
 * 2D, one mip, one layer. */
static void narrow_to_damage(const eg_texture_t *frame, eg_soft_subres_t *s)
{
    eg_hal_rect_t r;
    if (!eg_soft_damage_of(frame, &r)) return;
    r.x1 = eg_min_u32(r.x1, s->width_el);
    r.y1 = eg_min_u32(r.y1, s->height_el);
    s->base += (size_t)r.y0 * s->row_pitch_B + (size_t)r.x0 * s->element_B;
    s->width_el = r.x1 > r.x0 ? r.x1 - r.x0 : 0;
    s->height_el = r.y1 > r.y0 ? r.y1 - r.y0 : 0;
}

static uint32_t attachment_layer(const eg_texture_view_t *view, uint32_t depth_slice)
{
    return view->texture->dimension == WGPUTextureDimension_3D ? depth_slice : view->base_array_layer;
}

/* A clear at pass begin goes to the tiles when the pass is rasterized in tiles over the whole
 * target (eg_soft_bin_defer_fill: each tile's worker fills its part just before drawing it,
 * cache-warm and in parallel); otherwise, and for the clears at pass end, it is filled now. */
static void fill_or_defer(const eg_soft_subres_t *s, uint32_t layer, const uint8_t *texel, uint32_t texel_B)
{
    if (!eg_soft_bin_defer_fill(s, layer, texel, texel_B)) fill_layer(s, layer, texel, texel_B);
}

static void clear_color(const eg_cmd_color_attachment_t *a)
{
    const eg_texture_view_t *view = a->view;
    eg_soft_subres_t s;
    eg_soft_subresource(view->texture, WGPUTextureAspect_All, view->base_mip_level, &s);
    narrow_to_damage(view->texture, &s);   /* damage */
    uint8_t texel[16] = { 0 };
    uint32_t n = encode_color(view->fi, &a->clear_value, texel);
    if (n == 0 || n != s.block_B) return;
    fill_or_defer(&s, attachment_layer(view, a->depth_slice), texel, n);
}

static void fill_aspect(const eg_texture_view_t *view, WGPUTextureAspect aspect, const uint8_t *texel,
                        uint32_t texel_B)
{
    eg_soft_subres_t s;
    eg_soft_subresource(view->texture, aspect, view->base_mip_level, &s);
    if (s.block_B != texel_B) return;
    fill_or_defer(&s, view->base_array_layer, texel, texel_B);
}

/* ---- lazy discards ----
 * A depth or stencil attachment stored with Discard must read as zeros afterwards (as a lazily
 * cleared texture does), which was a zero fill of the whole plane at pass end: 1.5 MB a frame
 * for an 800x480 depth32float, 6.8 % of the textured-mesh frame's instructions, on the
 * submitting thread. Most such planes are cleared by their next pass (a depth buffer each
 * frame), so the fill is recorded instead, and done only where something else could see the
 * plane first: before any command other than a render pass begin (copies, compute, the next
 * pass's draws sampling it), at that begin for every plane it does not clear whole, before a
 * queue write into the texture (eg_soft_discard_settle), and forgotten when the texture goes
 * (eg_soft_discard_forget). Never inside a pass: every pending fill is done or dropped at its
 * begin, so workers never meet one. Colour discards are filled at once (rare, and a surface's
 * frame is read by its present). */
#define LAZY_MAX 8u

typedef struct lazy_fill {
    const eg_texture_t *tex;
    WGPUTextureAspect aspect;   /* DepthOnly or StencilOnly */
    uint32_t mip, layer;
} lazy_fill_t;

static lazy_fill_t lazy[LAZY_MAX];
static uint32_t lazy_n;
static eg_soft_discard_stats_t lazy_stats;

void eg_soft_discard_stats(eg_soft_discard_stats_t *out) { *out = lazy_stats; }

static void lazy_fill(const lazy_fill_t *f)
{
    eg_soft_subres_t s;
    eg_soft_subresource(f->tex, f->aspect, f->mip, &s);
    static const uint8_t zero[16] = { 0 };
    fill_layer(&s, f->layer, zero, s.block_B);
    lazy_stats.filled++;
}

static void lazy_drop(uint32_t i)
{
    lazy[i] = lazy[--lazy_n];
}

/* Fills the pending planes of tex (NULL: all). */
static void lazy_settle(const eg_texture_t *tex)
{
    for (uint32_t i = 0; i < lazy_n;) {
        if (tex && lazy[i].tex != tex) { i++; continue; }
        lazy_fill(&lazy[i]);
        lazy_drop(i);
    }
}

void eg_soft_discard_settle(const eg_texture_t *tex) { if (lazy_n) lazy_settle(tex); }

void eg_soft_discard_forget(const eg_texture_t *tex)
{
    for (uint32_t i = 0; i < lazy_n;)
        if (lazy[i].tex == tex) lazy_drop(i);
        else i++;
}

/* Pass end with Discard on aspect of view's plane: recorded (when a slot is free), else filled. */
static void lazy_discard(const eg_texture_view_t *view, WGPUTextureAspect aspect)
{
    lazy_fill_t f = { view->texture, aspect, view->base_mip_level, view->base_array_layer };
    for (uint32_t i = 0; i < lazy_n; i++)
        if (lazy[i].tex == f.tex && lazy[i].aspect == aspect && lazy[i].mip == f.mip && lazy[i].layer == f.layer) return;
    if (lazy_n == LAZY_MAX) { lazy_fill(&f); return; }
    lazy[lazy_n++] = f;
    lazy_stats.deferred++;
}

/* Commands that touch no texture memory: the pending fills wait past them (a pass begin comes
 * after its barrier record; labels go anywhere). */
static bool lazy_blind(uint32_t op)
{
    return op == EG_CMD_BARRIER || op == EG_CMD_PUSH_DEBUG_GROUP || op == EG_CMD_POP_DEBUG_GROUP ||
           op == EG_CMD_INSERT_DEBUG_MARKER || op == EG_CMD_CLEAR_BUFFER || op == EG_CMD_COPY_BUFFER_TO_BUFFER;
}

/* A render pass begins: a plane its depth/stencil attachment clears (the whole plane: depth and
 * stencil planes are never narrowed to a damage) needs no zeros; every other is filled now. */
static void lazy_pass_begin(const eg_cmd_begin_render_pass_t *r)
{
    const eg_texture_view_t *v = r->depth_stencil.view;
    for (uint32_t i = 0; i < lazy_n;) {
        const lazy_fill_t *f = &lazy[i];
        bool same = v && f->tex == v->texture && f->mip == v->base_mip_level && f->layer == v->base_array_layer;
        bool cleared = same && (f->aspect == WGPUTextureAspect_DepthOnly ? r->depth_stencil.depth_load_op
                                                                          : r->depth_stencil.stencil_load_op) ==
                                   WGPULoadOp_Clear;
        if (cleared) {
            lazy_stats.dropped++;
        } else {
            lazy_fill(f);
        }
        lazy_drop(i);
    }
}

static void clear_depth_stencil(const eg_cmd_depth_stencil_attachment_t *ds, bool begin)
{
    const eg_texture_view_t *view = ds->view;
    const eg_format_info_t *fi = view->fi;
    uint8_t texel[4] = { 0 };
    uint32_t store_zero = begin ? WGPULoadOp_Clear : WGPUStoreOp_Discard;
    if ((fi->aspects & EG_ASPECT_DEPTH) &&
        (begin ? ds->depth_load_op : ds->depth_store_op) == store_zero) {
        if (!begin && eg_soft_discard_lazy_on) {
            lazy_discard(view, WGPUTextureAspect_DepthOnly);
        } else {
            uint32_t n = eg_soft_block_B(view->texture, WGPUTextureAspect_DepthOnly);
            float d = begin ? ds->depth_clear_value : 0.0f;
            if (n == 2) put16(texel, unorm(d, 65535));
            else put32(texel, f32_bits(d));
            fill_aspect(view, WGPUTextureAspect_DepthOnly, texel, n);
        }
    }
    if ((fi->aspects & EG_ASPECT_STENCIL) &&
        (begin ? ds->stencil_load_op : ds->stencil_store_op) == store_zero) {
        if (!begin && eg_soft_discard_lazy_on) {
            lazy_discard(view, WGPUTextureAspect_StencilOnly);
        } else {
            texel[0] = begin ? (uint8_t)ds->stencil_clear_value : 0;
            fill_aspect(view, WGPUTextureAspect_StencilOnly, texel, 1);
        }
    }
}

/* Resolve: each texel of the single-sample target is the average of the source's samples
 * (integer formats are not resolvable). 8-bit linear unorm formats average bytes exactly; every
 * other format (float16/32, sRGB, packed ones like RGB565) averages decoded values (sRGB in
 * linear space) and re-encodes. */
static bool resolve_bytewise(WGPUTextureFormat f)
{
    return f == WGPUTextureFormat_R8Unorm || f == WGPUTextureFormat_RG8Unorm ||
           f == WGPUTextureFormat_RGBA8Unorm || f == WGPUTextureFormat_BGRA8Unorm;
}

static void resolve_texel(WGPUTextureFormat f, const uint8_t *st, uint32_t block_B, uint32_t samples, uint8_t *dt)
{
    eg_soft_texel_t sum = { { 0, 0, 0, 0 } }, v;
    for (uint32_t k = 0; k < samples; k++) {
        eg_soft_texel_decode(f, st + k * block_B, &v);
        for (uint32_t c = 0; c < 4; c++) sum.f[c] += v.f[c];
    }
    for (uint32_t c = 0; c < 4; c++) sum.f[c] /= (float)samples;
    eg_soft_texel_encode(f, &sum, dt);
}

static void resolve(const eg_cmd_color_attachment_t *a)
{
    const eg_texture_view_t *src = a->view, *dst = a->resolve_target;
    eg_soft_subres_t s, d;
    eg_soft_subresource(src->texture, WGPUTextureAspect_All, src->base_mip_level, &s);
    eg_soft_subresource(dst->texture, WGPUTextureAspect_All, dst->base_mip_level, &d);
    narrow_to_damage(dst->texture, &s);   /* damage: the same rectangle of both */
    narrow_to_damage(dst->texture, &d);
    uint32_t samples = s.element_B / s.block_B;
    const uint8_t *sb = s.base + (size_t)attachment_layer(src, a->depth_slice) * s.slice_pitch_B;
    uint8_t *db = d.base + (size_t)dst->base_array_layer * d.slice_pitch_B;
    bool bytes = resolve_bytewise(src->format);
    for (uint32_t y = 0; y < s.height_el; y++)
        for (uint32_t x = 0; x < s.width_el; x++) {
            const uint8_t *st = sb + (size_t)y * s.row_pitch_B + (size_t)x * s.element_B;
            uint8_t *dt = db + (size_t)y * d.row_pitch_B + (size_t)x * d.element_B;
            if (!bytes) { resolve_texel(src->format, st, s.block_B, samples, dt); continue; }
            for (uint32_t b = 0; b < s.block_B; b++) {
                uint32_t sum = 0;
                for (uint32_t k = 0; k < samples; k++) sum += st[k * s.block_B + b];
                dt[b] = (uint8_t)((sum + samples / 2u) / samples);
            }
        }
}

/* A banded surface frame (soft_bin_band.h) has no full-frame memory: its clear, resolve and
 * discard happen per strip (banded passes below) or not at all. */
static bool is_banded(const eg_texture_view_t *view) { return view && eg_soft_band_of(view->texture); }

static void begin_render_pass(const eg_cmd_begin_render_pass_t *r)
{
    for (uint32_t i = 0; i < r->color_count; i++)
        if (r->color[i].view && r->color[i].load_op == WGPULoadOp_Clear && !is_banded(r->color[i].view))
            clear_color(&r->color[i]);
    if (r->depth_stencil.view)
        clear_depth_stencil(&r->depth_stencil, true);
}

static void end_render_pass(const eg_cmd_begin_render_pass_t *r)
{
    for (uint32_t i = 0; i < r->color_count; i++) {
        const eg_cmd_color_attachment_t *a = &r->color[i];
        if (!a->view || is_banded(a->view)) continue;
        /* a banded frame as resolveTarget never gets here: render_pass.c rejects it */
        if (a->resolve_target) resolve(a);
        if (a->store_op == WGPUStoreOp_Discard) {
            /* Discard leaves the contents zero-equivalent, as lazily cleared textures read. */
            eg_soft_subres_t s;
            eg_soft_subresource(a->view->texture, WGPUTextureAspect_All, a->view->base_mip_level, &s);
            narrow_to_damage(a->view->texture, &s);   /* damage */
            uint8_t zero[16] = { 0 };
            fill_layer(&s, attachment_layer(a->view, a->depth_slice), zero, s.block_B);
        }
    }
    if (r->depth_stencil.view)
        clear_depth_stencil(&r->depth_stencil, false);
}

/* ---- copies ---- */

static void copy_bt(const eg_cmd_copy_bt_t *c, bool to_texture)
{
    const eg_texel_region_t *r = &c->region;
    const eg_format_info_t *fi = c->texture->fi;
    uint32_t block_B = eg_soft_block_B(c->texture, r->aspect);
    uint32_t w_el = r->width_px / fi->block_w_px, h_el = r->height_px / fi->block_h_px;
    uint8_t *buf = eg_soft_buffer_mem(c->buffer);
    for (uint32_t z = 0; z < r->depth_or_layers; z++)
        for (uint32_t y = 0; y < h_el; y++) {
            uint8_t *b = buf + c->layout.offset_B +
                         ((uint64_t)z * c->layout.rows_per_image + y) * c->layout.bytes_per_row_B;
            uint8_t *t = eg_soft_texel_addr(c->texture, r->aspect, r->mip_level, r->origin_z + z,
                                            r->origin_x / fi->block_w_px, r->origin_y / fi->block_h_px + y);
            if (to_texture) eg_memcpy(t, b, (size_t)w_el * block_B);
            else eg_memcpy(b, t, (size_t)w_el * block_B);
        }
}

static void copy_t2t_plane(const eg_cmd_copy_t2t_t *c, WGPUTextureAspect aspect)
{
    const eg_texel_region_t *s = &c->src_region, *d = &c->dst_region;
    const eg_format_info_t *fi = c->src->fi;
    eg_soft_subres_t ss;
    eg_soft_subresource(c->src, aspect, s->mip_level, &ss);
    uint32_t w_el = s->width_px / fi->block_w_px, h_el = s->height_px / fi->block_h_px;
    for (uint32_t z = 0; z < s->depth_or_layers; z++)
        for (uint32_t y = 0; y < h_el; y++) {
            const uint8_t *sp = eg_soft_texel_addr(c->src, aspect, s->mip_level, s->origin_z + z,
                                                   s->origin_x / fi->block_w_px, s->origin_y / fi->block_h_px + y);
            uint8_t *dp = eg_soft_texel_addr(c->dst, aspect, d->mip_level, d->origin_z + z,
                                             d->origin_x / fi->block_w_px, d->origin_y / fi->block_h_px + y);
            eg_memcpy(dp, sp, (size_t)w_el * ss.element_B);
        }
}

static void copy_t2t(const eg_cmd_copy_t2t_t *c)
{
    const eg_format_info_t *fi = c->src->fi;
    if ((fi->aspects & EG_ASPECT_DEPTH) && (fi->aspects & EG_ASPECT_STENCIL)) {
        copy_t2t_plane(c, WGPUTextureAspect_DepthOnly);
        copy_t2t_plane(c, WGPUTextureAspect_StencilOnly);
    } else {
        copy_t2t_plane(c, WGPUTextureAspect_All);
    }
}

/* ---- pass state ---- */

typedef struct exec_ctx {
    const struct eg_cmd_stream *stream;
    const eg_cmd_header_t *pass_hdr;       /* the pass's BEGIN record (banded passes re-run from it) */
    eg_soft_band_t *band;                  /* the pass draws into a banded surface frame */
    uint32_t band_slot;                    /* its color attachment index */
    const eg_cmd_begin_render_pass_t *pass;
    eg_soft_fb_t fb;
    eg_soft_pass_state_t ps;
    const eg_compute_pipeline_t *cp;
    eg_soft_bound_t cbound;
} exec_ctx_t;

static const eg_soft_render_pipeline_t *soft_rp(const eg_render_pipeline_t *rp)
{
    return (const eg_soft_render_pipeline_t *)(const void *)&rp->hal;
}
static const eg_soft_compute_pipeline_t *soft_cp(const eg_compute_pipeline_t *cp)
{
    return (const eg_soft_compute_pipeline_t *)(const void *)&cp->hal;
}

static void bind_target(const eg_texture_view_t *view, WGPUTextureAspect aspect, uint32_t layer, eg_soft_target_t *t)
{
    eg_soft_subres_t s;
    eg_soft_subresource(view->texture, aspect, view->base_mip_level, &s);
    t->base = s.base + (size_t)layer * s.slice_pitch_B;
    t->row_pitch_B = s.row_pitch_B;
    t->elem_B = s.element_B;
    t->block_B = s.block_B;
    t->format = view->format;
}

/* Spec "beginRenderPass": viewport = the whole attachment, depth [0, 1]; scissor = the whole
 * attachment; blend constant (0, 0, 0, 0); stencil reference 0; nothing bound. */
static void pass_begin(exec_ctx_t *x, const eg_cmd_begin_render_pass_t *r)
{
    eg_soft_fb_t *fb = &x->fb;
    eg_memset(fb, 0, sizeof *fb);
    eg_memset(&x->ps, 0, sizeof x->ps);
    fb->width_px = r->width_px;
    fb->height_px = r->height_px;
    fb->samples = r->sample_count ? r->sample_count : 1u;
    fb->color_count = eg_min_u32(r->color_count, EG_SOFT_MAX_RT);
    for (uint32_t i = 0; i < fb->color_count; i++)
        if (r->color[i].view)
            bind_target(r->color[i].view, WGPUTextureAspect_All,
                        attachment_layer(r->color[i].view, r->color[i].depth_slice), &fb->color[i]);
    const eg_cmd_depth_stencil_attachment_t *ds = &r->depth_stencil;
    if (ds->view) {
        const eg_format_info_t *fi = ds->view->texture->fi;
        uint32_t layer = ds->view->base_array_layer;
        if (fi->aspects & EG_ASPECT_DEPTH) bind_target(ds->view, WGPUTextureAspect_DepthOnly, layer, &fb->depth);
        if (fi->aspects & EG_ASPECT_STENCIL) bind_target(ds->view, WGPUTextureAspect_StencilOnly, layer, &fb->stencil);
        fb->depth_read_only = ds->depth_read_only != 0;
        fb->stencil_read_only = ds->stencil_read_only != 0;
    }
    eg_soft_pass_state_t *ps = &x->ps;
    ps->fb = fb;
    ps->vp_w = (float)r->width_px;
    ps->vp_h = (float)r->height_px;
    ps->vp_max_z = 1.0f;
    ps->sc_x1 = r->width_px;
    ps->sc_y1 = r->height_px;
}

static void set_bind_group(eg_soft_bound_t *b, const eg_cmd_set_bind_group_t *c)
{
    if (c->index >= EMGPU_MAX_BIND_GROUPS_PER_LAYOUT) return;
    b->groups[c->index] = c->group;
    uint32_t n = eg_min_u32(c->dynamic_offset_count, EG_ARRAY_LEN(b->dynamic_offsets[0]));
    b->dynamic_offset_count[c->index] = n;
    for (uint32_t i = 0; i < n; i++) b->dynamic_offsets[c->index][i] = c->dynamic_offsets[i];
}

static void set_render_pipeline(eg_soft_pass_state_t *ps, const eg_render_pipeline_t *rp)
{
    ps->rp = rp;
    ps->sp = soft_rp(rp);
    ps->rs = ps->sp->raster;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Indirect arguments are read when the draw executes (after every earlier command). A draw
 * whose index range leaves the bound index buffer is skipped (WebGPU "robust indirect draws"). */
static void draw_indirect(const eg_soft_pass_state_t *ps, const eg_cmd_indirect_t *c, bool indexed)
{
    const uint8_t *p = eg_soft_buffer_mem(c->buffer) + c->offset_B;
    eg_soft_draw_args_t a;
    a.indexed = indexed;
    a.count = rd32(p);
    a.instance_count = rd32(p + 4);
    a.first = rd32(p + 8);
    if (indexed) {
        a.base_vertex = (int32_t)rd32(p + 12);
        a.first_instance = rd32(p + 16);
        uint64_t isz = ps->index_format == WGPUIndexFormat_Uint16 ? 2u : 4u;
        if (((uint64_t)a.first + a.count) * isz > ps->ibuf.size_B) return;
    } else {
        a.base_vertex = 0;
        a.first_instance = rd32(p + 12);
    }
    eg_soft_draw(ps, &a);
}

static void draw_direct(const eg_soft_pass_state_t *ps, const eg_cmd_draw_t *c, bool indexed)
{
    eg_soft_draw_args_t a;
    a.indexed = indexed;
    a.count = c->count;
    a.instance_count = c->instance_count;
    a.first = c->first;
    a.base_vertex = indexed ? c->base_vertex : 0;
    a.first_instance = c->first_instance;
    eg_soft_draw(ps, &a);
}

/* Viewport y/height are top-down framebuffer coordinates already (WebGPU setViewport). */
static void set_viewport(eg_soft_pass_state_t *ps, const eg_cmd_set_viewport_t *c)
{
    ps->vp_x = c->x; ps->vp_y = c->y; ps->vp_w = c->width; ps->vp_h = c->height;
    ps->vp_min_z = c->min_depth; ps->vp_max_z = c->max_depth;
}

static void set_scissor(eg_soft_pass_state_t *ps, const eg_cmd_set_scissor_t *c)
{
    ps->sc_x0 = eg_min_u32(c->x, ps->fb->width_px);
    ps->sc_y0 = eg_min_u32(c->y, ps->fb->height_px);
    ps->sc_x1 = eg_min_u32(c->x + c->width, ps->fb->width_px);
    ps->sc_y1 = eg_min_u32(c->y + c->height, ps->fb->height_px);
}

/* Spec "dispatchWorkgroupsIndirect": a count above maxComputeWorkgroupsPerDimension makes the
 * dispatch a no-op. */
static eg_status_t dispatch(const exec_ctx_t *x, eg_hal_device_t *dev, uint32_t gx, uint32_t gy, uint32_t gz)
{
    if (!x->cp || gx == 0 || gy == 0 || gz == 0) return EG_STATUS_OK;
    uint32_t lim = dev && dev->info ? dev->info->limits.maxComputeWorkgroupsPerDimension : 65535u;
    if (gx > lim || gy > lim || gz > lim) return EG_STATUS_OK;
    return eg_soft_dispatch(soft_cp(x->cp)->cs, &x->cbound, gx, gy, gz);
}

static eg_status_t exec_state(exec_ctx_t *x, eg_hal_device_t *dev, const eg_cmd_header_t *h)
{
    eg_soft_pass_state_t *ps = &x->ps;
    switch ((eg_cmd_op_t)h->op) {
    case EG_CMD_BEGIN_COMPUTE_PASS:
        x->cp = NULL;
        eg_memset(&x->cbound, 0, sizeof x->cbound);
        break;
    case EG_CMD_SET_RENDER_PIPELINE:
        set_render_pipeline(ps, ((const eg_cmd_set_pipeline_t *)(const void *)h)->pipeline);
        break;
    case EG_CMD_SET_COMPUTE_PIPELINE:
        x->cp = ((const eg_cmd_set_pipeline_t *)(const void *)h)->pipeline;
        break;
    case EG_CMD_SET_BIND_GROUP:
        set_bind_group(x->pass ? &ps->bound : &x->cbound, (const eg_cmd_set_bind_group_t *)(const void *)h);
        break;
    case EG_CMD_SET_VERTEX_BUFFER: {
        const eg_cmd_set_buffer_t *c = (const eg_cmd_set_buffer_t *)(const void *)h;
        if (c->slot >= EMGPU_MAX_VERTEX_BUFFERS) break;
        ps->vbuf[c->slot].mem = c->buffer ? eg_soft_buffer_mem(c->buffer) + c->offset_B : NULL;
        ps->vbuf[c->slot].size_B = c->buffer ? c->size_B : 0;
        break;
    }
    case EG_CMD_SET_INDEX_BUFFER: {
        const eg_cmd_set_buffer_t *c = (const eg_cmd_set_buffer_t *)(const void *)h;
        ps->ibuf.mem = c->buffer ? eg_soft_buffer_mem(c->buffer) + c->offset_B : NULL;
        ps->ibuf.size_B = c->buffer ? c->size_B : 0;
        ps->index_format = (WGPUIndexFormat)c->index_format;
        break;
    }
    case EG_CMD_SET_VIEWPORT: set_viewport(ps, (const eg_cmd_set_viewport_t *)(const void *)h); break;
    case EG_CMD_SET_SCISSOR_RECT: if (x->pass) set_scissor(ps, (const eg_cmd_set_scissor_t *)(const void *)h); break;
    case EG_CMD_SET_BLEND_CONSTANT: {
        const WGPUColor *c = &((const eg_cmd_set_blend_constant_t *)(const void *)h)->color;
        ps->blend_constant[0] = (float)c->r; ps->blend_constant[1] = (float)c->g;
        ps->blend_constant[2] = (float)c->b; ps->blend_constant[3] = (float)c->a;
        break;
    }
    case EG_CMD_SET_STENCIL_REFERENCE:
        ps->stencil_ref = ((const eg_cmd_set_stencil_ref_t *)(const void *)h)->reference;
        break;
    case EG_CMD_DRAW: case EG_CMD_DRAW_INDEXED:
        if (x->pass) draw_direct(ps, (const eg_cmd_draw_t *)(const void *)h, h->op == EG_CMD_DRAW_INDEXED);
        break;
    case EG_CMD_DRAW_INDIRECT: case EG_CMD_DRAW_INDEXED_INDIRECT:
        if (x->pass) draw_indirect(ps, (const eg_cmd_indirect_t *)(const void *)h, h->op == EG_CMD_DRAW_INDEXED_INDIRECT);
        break;
    case EG_CMD_DISPATCH: {
        const eg_cmd_dispatch_t *c = (const eg_cmd_dispatch_t *)(const void *)h;
        return dispatch(x, dev, c->x, c->y, c->z);
    }
    case EG_CMD_DISPATCH_INDIRECT: {
        const eg_cmd_indirect_t *c = (const eg_cmd_indirect_t *)(const void *)h;
        const uint8_t *p = eg_soft_buffer_mem(c->buffer) + c->offset_B;
        return dispatch(x, dev, rd32(p), rd32(p + 4), rd32(p + 8));
    }
    default:
        /* Barriers need nothing on a CPU that executes in order; debug markers neither. */
        break;
    }
    return EG_STATUS_OK;
}

/* ---- banded passes (soft_bin_band.h, docs/displays.md "Banded rendering") ----
 * The pass is binned once while its commands execute, with nothing rasterized (hold). At its
 * end each strip of the frame is filled with the clear color, rasterized from the bins (rows
 * of the strip only), converted and flushed. If the pass did not fit the bin arena (or has a
 * draw with fragment side effects, which must not wait), the bins are incomplete: each strip
 * then re-runs the pass's commands with binning limited to the strip's rows, which always
 * completes (overflows flush into the strip) at the cost of shading vertices once per strip. */

static eg_soft_band_t *banded_slot(const eg_cmd_begin_render_pass_t *r, uint32_t *slot)
{
    for (uint32_t i = 0; i < r->color_count && i < EG_SOFT_MAX_RT; i++) {
        eg_soft_band_t *b = r->color[i].view ? eg_soft_band_of(r->color[i].view->texture) : NULL;
        if (b) { *slot = i; return b; }
    }
    return NULL;
}

/* Frame row y0 is the strip's first row: the target's base is biased so that the rasterizer's
 * (y * row_pitch_B) addressing lands in the strip (computed in integers: the biased address is
 * never dereferenced outside the strip's rows, the worker clip keeps every write inside). */
static void band_target(exec_ctx_t *x, uint32_t y0)
{
    eg_soft_target_t *t = &x->fb.color[x->band_slot];
    t->base = (uint8_t *)(uintptr_t)((uintptr_t)x->band->rows - (uintptr_t)y0 * x->band->row_pitch_B);
    t->row_pitch_B = x->band->row_pitch_B;
}

/* The strip's initial contents: the clear color, or for Load the frame texture's initial
 * contents, transparent black (WebGPU getCurrentTexture; a banded frame keeps nothing between
 * passes). */
static void band_fill(const exec_ctx_t *x, uint32_t rows)
{
    const eg_cmd_color_attachment_t *a = &x->pass->color[x->band_slot];
    const eg_soft_band_t *b = x->band;
    uint8_t texel[16] = { 0 };
    if (a->load_op == WGPULoadOp_Clear && encode_color(a->view->fi, &a->clear_value, texel) != b->block_B)
        eg_memset(texel, 0, sizeof texel);
    for (uint32_t r = 0; r < rows; r++) {
        uint8_t *row = b->rows + (size_t)r * b->row_pitch_B;
        for (uint32_t i = 0; i < x->fb.width_px; i++) eg_memcpy(row + (size_t)i * b->block_B, texel, b->block_B);
    }
}

static eg_status_t exec_state(exec_ctx_t *x, eg_hal_device_t *dev, const eg_cmd_header_t *h);

/* (helper damage) A pass into a surface frame with a damage (as attachment or resolve target)
 * bins and rasterizes nothing outside it (call after eg_soft_bin_pass_begin / set_band). */
static void apply_damage(const eg_cmd_begin_render_pass_t *r)
{
    eg_hal_rect_t d;
    for (uint32_t i = 0; i < r->color_count; i++) {
        const eg_texture_view_t *v = r->color[i].resolve_target ? r->color[i].resolve_target : r->color[i].view;
        if (v && eg_soft_damage_of(v->texture, &d)) {
            eg_soft_bin_set_damage(d.x0, d.y0, d.x1, d.y1);
            return;
        }
    }
}

static void band_replay(exec_ctx_t *x, eg_hal_device_t *dev, uint32_t y0, uint32_t y1)
{
    pass_begin(x, x->pass);
    band_target(x, y0);
    eg_soft_bin_pass_begin(&x->fb);
    eg_soft_bin_set_band(y0, y1, false);
    apply_damage(x->pass);   /* damage */
    for (const eg_cmd_header_t *h = eg_cmd_next(x->stream, x->pass_hdr);
         h && h->op != EG_CMD_END_RENDER_PASS; h = eg_cmd_next(x->stream, h))
        (void)exec_state(x, dev, h);
    eg_soft_bin_pass_end();
}

static void band_pass_end(exec_ctx_t *x, eg_hal_device_t *dev)
{
    eg_soft_band_t *b = x->band;
    uint32_t h = eg_min_u32(x->fb.height_px, b->dst.height_px), step = b->dst.strip_rows;
    h = eg_min_u32(h, b->damage.y1);   /* damage: only the strips of the damage's rows */
    bool binned = true;
    for (uint32_t y0 = b->damage.y0; y0 < h; y0 += step) {
        uint32_t y1 = eg_min_u32(h, y0 + step);
        band_fill(x, y1 - y0);
        band_target(x, y0);
        if (binned) binned = eg_soft_bin_raster_rows(y0, y1);
        if (!binned) band_replay(x, dev, y0, y1);
        eg_soft_band_strip(b, y0, y1 - y0);
    }
    eg_soft_bin_pass_end();
    /* a second pass into the frame never gets here: command_buffer.c rejects it at submit */
    b->drawn = true;
}

static exec_ctx_t exec_state_mem;   /* one stream executes at a time (queue_submit) */

bool eg_soft_discard_lazy_on = true;

eg_status_t eg_soft_execute(eg_hal_device_t *dev, const struct eg_cmd_stream *stream)
{
    exec_ctx_t *x = &exec_state_mem;
    eg_status_t st = EG_STATUS_OK;
    eg_memset(x, 0, sizeof *x);
    x->stream = stream;
    for (const eg_cmd_header_t *h = eg_cmd_first(stream); h; h = eg_cmd_next(stream, h)) {
        if (lazy_n) {   /* lazy discards: done before anything could see them */
            if (h->op == EG_CMD_BEGIN_RENDER_PASS) lazy_pass_begin((const eg_cmd_begin_render_pass_t *)(const void *)h);
            else if (!lazy_blind(h->op)) lazy_settle(NULL);
        }
        switch ((eg_cmd_op_t)h->op) {
        case EG_CMD_COPY_BUFFER_TO_BUFFER: {
            const eg_cmd_copy_b2b_t *c = (const eg_cmd_copy_b2b_t *)(const void *)h;
            if (c->size_B)
                eg_memcpy(eg_soft_buffer_mem(c->dst) + c->dst_offset_B,
                          eg_soft_buffer_mem(c->src) + c->src_offset_B, (size_t)c->size_B);
            break;
        }
        case EG_CMD_CLEAR_BUFFER: {
            const eg_cmd_clear_buffer_t *c = (const eg_cmd_clear_buffer_t *)(const void *)h;
            if (c->size_B)
                eg_memset(eg_soft_buffer_mem(c->buffer) + c->offset_B, 0, (size_t)c->size_B);
            break;
        }
        case EG_CMD_COPY_BUFFER_TO_TEXTURE:
        case EG_CMD_COPY_TEXTURE_TO_BUFFER:
            copy_bt((const eg_cmd_copy_bt_t *)(const void *)h, h->op == EG_CMD_COPY_BUFFER_TO_TEXTURE);
            break;
        case EG_CMD_COPY_TEXTURE_TO_TEXTURE:
            copy_t2t((const eg_cmd_copy_t2t_t *)(const void *)h);
            break;
        case EG_CMD_BEGIN_RENDER_PASS:
            x->pass = (const eg_cmd_begin_render_pass_t *)(const void *)h;
            pass_begin(x, x->pass);
            eg_soft_bin_pass_begin(&x->fb);
            x->pass_hdr = h;
            x->band = banded_slot(x->pass, &x->band_slot);
            if (x->band) eg_soft_bin_set_band(0, x->fb.height_px, true);
            apply_damage(x->pass);   /* damage */
            begin_render_pass(x->pass);   /* after the bin knows band and damage: clears per tile */
            break;
        case EG_CMD_END_RENDER_PASS:
            if (x->pass) {
                if (x->band) band_pass_end(x, dev);
                else eg_soft_bin_pass_end();
                end_render_pass(x->pass);
            }
            x->band = NULL;
            x->pass = NULL;
            break;
        default: {
            eg_status_t s = exec_state(x, dev, h);
            if (s != EG_STATUS_OK && st == EG_STATUS_OK) st = s;
            break;
        }
        }
    }
    return st;
}

#endif /* EMGPU_HAL_SOFT */
