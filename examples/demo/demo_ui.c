/* make demo: the dashboard's 2D layer (panels, text, icons, bars, gauges) and its texture atlas. */
#include "examples/demo/demo.h"
#include "examples/demo/font5x7.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- atlas ---- */

/* Coverage of a distance-to-edge d (pixels, negative inside): one pixel of anti-aliasing. */
static float cover(float d)
{
    return d <= -0.5f ? 1.0f : d >= 0.5f ? 0.0f : 0.5f - d;
}

static float ring(float r, float radius, float half_width)
{
    return cover(fabsf(r - radius) - half_width);
}

/* Icon i's coverage and shade at texel centre (x, y) in [0, 32): simple geometric shapes. */
static float icon_cover(int i, float x, float y, float *shade)
{
    float cx = x - 16.0f, cy = y - 16.0f, r = sqrtf(cx * cx + cy * cy);
    float a = atan2f(cx, -cy); /* 0 at the top, clockwise */
    *shade = 1.0f;
    switch (i) {
    case DEMO_ICON_WIFI: { /* three arcs of 90 degrees and a dot, centred low */
        float dy = y - 26.0f, rr = sqrtf(cx * cx + dy * dy), aa = atan2f(cx, -dy);
        float in_wedge = cover(fabsf(aa) * rr - 0.785f * rr);
        float arcs = fmaxf(ring(rr, 8.0f, 1.6f), fmaxf(ring(rr, 14.0f, 1.6f), ring(rr, 20.0f, 1.6f)));
        return fmaxf(arcs * in_wedge, cover(rr - 2.8f));
    }
    case DEMO_ICON_BATTERY: { /* outline, terminal, and a 70% fill */
        float qx = fabsf(cx) - 12.0f, qy = fabsf(cy - 1.0f) - 7.0f;
        float box = fmaxf(qx, qy);
        float outline = cover(fabsf(box) - 1.2f);
        float tip = cover(fmaxf(fabsf(cx - 14.0f) - 2.0f, fabsf(cy - 1.0f) - 3.5f));
        float fill = cover(fmaxf(fabsf(cx + 2.2f) - 7.5f, fabsf(cy - 1.0f) - 4.0f));
        if (fill > outline) *shade = 0.85f;
        return fmaxf(fmaxf(outline, tip), fill);
    }
    case DEMO_ICON_GEAR: { /* 8 teeth around a ring with a hole */
        float tooth = cosf(a * 8.0f) > 0.3f ? 14.0f : 10.5f;
        return cover(r - tooth) * (1.0f - cover(r - 4.5f));
    }
    default: { /* power: a ring open at the top and a bar through the gap */
        float open = cover((fabsf(a) - 0.6f) * r); /* 1 inside the gap at the top */
        float arc = ring(r, 10.0f, 1.8f) * (1.0f - open);
        float bar = cover(fmaxf(fabsf(cx) - 1.8f, fabsf(cy + 6.0f) - 7.0f));
        return fmaxf(arc, bar);
    }
    }
}

void demo_atlas(uint8_t *rgba)
{
    static uint8_t glyphs[FONT5X7_ATLAS_W * FONT5X7_ATLAS_H];
    memset(rgba, 0, DEMO_ATLAS_W * DEMO_ATLAS_H * 4u);
    font5x7_atlas(glyphs);
    for (uint32_t y = 0; y < FONT5X7_ATLAS_H; y++)
        for (uint32_t x = 0; x < FONT5X7_ATLAS_W; x++) {
            uint8_t *p = rgba + (y * DEMO_ATLAS_W + x) * 4u;
            p[0] = p[1] = p[2] = 255;
            p[3] = glyphs[y * FONT5X7_ATLAS_W + x];
        }
    for (int i = 0; i < DEMO_ICON_COUNT; i++)
        for (uint32_t y = 0; y < DEMO_ICON_PX; y++)
            for (uint32_t x = 0; x < DEMO_ICON_PX; x++) {
                float shade;
                float c = icon_cover(i, (float)x + 0.5f, (float)y + 0.5f, &shade);
                uint8_t *p = rgba + (y * DEMO_ATLAS_W + DEMO_ICON_X0 + (uint32_t)i * DEMO_ICON_STEP + x) * 4u;
                p[0] = p[1] = p[2] = (uint8_t)(255.0f * shade);
                p[3] = (uint8_t)(255.0f * c + 0.5f);
            }
}

/* ---- 2D layer ---- */

static void quad(demo_batch_t *b, float x0, float y0, float x1, float y1, const uint8_t top[4],
                 const uint8_t bottom[4], float lx0, float ly0, float lx1, float ly1, const float params[4])
{
    if (b->n + 6 > b->cap) return;
    const float p[6][4] = { { x0, y1, lx0, ly1 }, { x1, y1, lx1, ly1 }, { x1, y0, lx1, ly0 },
                            { x0, y1, lx0, ly1 }, { x1, y0, lx1, ly0 }, { x0, y0, lx0, ly0 } };
    for (int i = 0; i < 6; i++) {
        demo_vtx_t *o = &b->v[b->n++];
        o->pos[0] = p[i][0];
        o->pos[1] = p[i][1];
        o->local[0] = p[i][2];
        o->local[1] = p[i][3];
        memcpy(o->rgba, p[i][1] == y0 ? top : bottom, 4);
        memcpy(o->params, params, sizeof o->params);
    }
}

static void round_rect(demo_batch_t *b, float x0, float y0, float x1, float y1, float radius, const uint8_t c[4])
{
    float hw = (x1 - x0) / 2, hh = (y1 - y0) / 2;
    const float params[4] = { hw, hh, radius, 1 };
    quad(b, x0, y0, x1, y1, c, c, -hw, -hh, hw, hh, params);
}

static void gradient(demo_batch_t *b, float x0, float y0, float x1, float y1, const uint8_t top[4],
                     const uint8_t bottom[4])
{
    const float params[4] = { 0, 0, 0, 0 };
    quad(b, x0, y0, x1, y1, top, bottom, 0, 0, 0, 0, params);
}

/* Text at (x, y) in glyph cells of 6x8 texels scaled by `scale` (nearest sampling: crisp). */
static void text(demo_batch_t *b, float x, float y, float scale, const char *s, const uint8_t c[4])
{
    const float params[4] = { 0, 0, 0, 2 };
    for (; *s; s++, x += FONT5X7_CELL_W * scale) {
        uint32_t g = font5x7_index(*s);
        float u0 = (float)((g % 16u) * FONT5X7_CELL_W), v0 = (float)((g / 16u) * FONT5X7_CELL_H);
        quad(b, x, y, x + FONT5X7_CELL_W * scale, y + FONT5X7_CELL_H * scale, c, c, u0 / DEMO_ATLAS_W,
             v0 / DEMO_ATLAS_H, (u0 + FONT5X7_CELL_W) / DEMO_ATLAS_W, (v0 + FONT5X7_CELL_H) / DEMO_ATLAS_H, params);
    }
}

static void icon(demo_batch_t *b, float x, float y, float size, int i, const uint8_t c[4])
{
    const float params[4] = { 0, 0, 0, 2 };
    float u0 = (float)(DEMO_ICON_X0 + (uint32_t)i * DEMO_ICON_STEP);
    quad(b, x, y, x + size, y + size, c, c, u0 / DEMO_ATLAS_W, 0, (u0 + DEMO_ICON_PX) / DEMO_ATLAS_W,
         (float)DEMO_ICON_PX / DEMO_ATLAS_H, params);
}

/* A gauge ring of radius r centred at (cx, cy), filled to `fraction` of a turn. */
static void gauge(demo_batch_t *b, float cx, float cy, float r, float fraction, const uint8_t c[4])
{
    const float params[4] = { r - 5.0f, 4.0f, fraction, 3 };
    float e = r + 2.0f;
    quad(b, cx - e, cy - e, cx + e, cy + e, c, c, -e, -e, e, e, params);
}

/* A smooth periodic value in [0, 1] for animation. */
static float wave(unsigned frame, float period_frames, float phase)
{
    return 0.5f + 0.5f * sinf(6.2831853f * ((float)frame / period_frames + phase));
}

static const uint8_t k_panel[4] = { 28, 34, 50, 235 }, k_white[4] = { 235, 238, 245, 255 };
static const uint8_t k_dim[4] = { 140, 150, 175, 255 }, k_accent[4] = { 60, 150, 250, 255 };
static const uint8_t k_green[4] = { 60, 210, 120, 255 }, k_amber[4] = { 250, 180, 40, 255 };
static const uint8_t k_red[4] = { 240, 80, 80, 255 }, k_track[4] = { 16, 20, 30, 255 };

void demo_view_rect(uint32_t *x, uint32_t *y, uint32_t *w, uint32_t *h)
{
    *x = 420;
    *y = 108;
    *w = 352;
    *h = 220;
}

static void header(demo_batch_t *b, unsigned frame)
{
    round_rect(b, 8, 8, 792, 60, 12, k_panel);
    text(b, 26, 22, 3, "EMGPU DASHBOARD", k_white);
    const uint8_t *icolor[DEMO_ICON_COUNT] = { k_accent, k_green, k_dim, k_red };
    for (int i = 0; i < DEMO_ICON_COUNT; i++) icon(b, 450.0f + 40.0f * (float)i, 18, 32, i, icolor[i]);
    char clock[16];
    unsigned sec = 12u * 3600u + 34u * 60u + frame / 30u;
    snprintf(clock, sizeof clock, "%02u:%02u:%02u", sec / 3600u % 24u, sec / 60u % 60u, sec % 60u);
    text(b, 630, 22, 3, clock, k_white);
}

static void temperature_panel(demo_batch_t *b, unsigned frame)
{
    round_rect(b, 16, 72, 400, 270, 14, k_panel);
    text(b, 34, 86, 2, "TEMPERATURE", k_dim);
    char value[16];
    float t = 21.0f + 4.0f * wave(frame, 240, 0);
    snprintf(value, sizeof value, "%.1f C", (double)t);
    text(b, 34, 112, 6, value, k_white);
    for (int i = 0; i < 16; i++) { /* history bars */
        float h = 12.0f + 52.0f * wave(frame + (unsigned)i * 9u, 180, (float)i * 0.07f);
        const uint8_t *c = h > 50.0f ? k_amber : k_accent;
        round_rect(b, 34.0f + 22.0f * (float)i, 256.0f - h, 50.0f + 22.0f * (float)i, 256, 4, c);
    }
}

static void system_panel(demo_batch_t *b, unsigned frame)
{
    static const char *names[3] = { "CPU", "MEM", "NET" };
    round_rect(b, 16, 282, 400, 468, 14, k_panel);
    text(b, 34, 296, 2, "SYSTEM", k_dim);
    for (int i = 0; i < 3; i++) {
        float y = 330.0f + 44.0f * (float)i, v = wave(frame, 150.0f + 40.0f * (float)i, 0.3f * (float)i);
        char pct[8];
        snprintf(pct, sizeof pct, "%3d%%", (int)(v * 100.0f + 0.5f));
        text(b, 34, y + 2, 2, names[i], k_white);
        round_rect(b, 90, y, 320, y + 18, 9, k_track);
        round_rect(b, 90, y, 90.0f + 230.0f * fmaxf(v, 0.08f), y + 18, 9, v > 0.8f ? k_red : k_green);
        text(b, 334, y + 2, 2, pct, k_white);
    }
}

static void view_panel(demo_batch_t *b)
{
    round_rect(b, 408, 72, 784, 340, 14, k_panel);
    text(b, 426, 86, 2, "3D VIEW", k_dim);
    uint32_t x, y, w, h;
    demo_view_rect(&x, &y, &w, &h);
    round_rect(b, (float)x - 2, (float)y - 2, (float)(x + w) + 2, (float)(y + h) + 2, 6, k_track);
}

static void status_panel(demo_batch_t *b, unsigned frame)
{
    static const char *names[3] = { "PUMP", "FAN", "LOAD" };
    const uint8_t *colors[3] = { k_green, k_accent, k_amber };
    round_rect(b, 408, 352, 784, 468, 14, k_panel);
    text(b, 426, 366, 2, "STATUS", k_dim);
    for (int i = 0; i < 3; i++) {
        float cx = 520.0f + 100.0f * (float)i, v = wave(frame, 200.0f + 70.0f * (float)i, 0.2f * (float)i);
        gauge(b, cx, 414, 38, v, colors[i]);
        char pct[8];
        snprintf(pct, sizeof pct, "%d", (int)(v * 100.0f + 0.5f));
        float tw = (float)strlen(pct) * FONT5X7_CELL_W * 2;
        text(b, cx - tw / 2 + 1, 406, 2, pct, k_white);
        text(b, cx - (float)strlen(names[i]) * 3.0f, 456, 1, names[i], k_dim);
    }
    const uint8_t *led = (frame / 15u) % 2u ? k_green : k_track;
    round_rect(b, 748, 366, 764, 382, 8, led);
}

void demo_ui_build(demo_batch_t *b, unsigned frame)
{
    const uint8_t top[4] = { 22, 30, 58, 255 }, bottom[4] = { 6, 8, 16, 255 };
    b->n = 0;
    gradient(b, 0, 0, DEMO_W_PX, DEMO_H_PX, top, bottom);
    header(b, frame);
    temperature_panel(b, frame);
    system_panel(b, frame);
    view_panel(b);
    status_panel(b, frame);
}
