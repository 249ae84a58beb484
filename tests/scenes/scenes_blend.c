/* Conformance scenes: blend factors and operations, blend constant, color write masks. */
#include "tests/scenes/scenes.h"

#define BC(op, src, dst) { (WGPUBlendOperation)(op), (WGPUBlendFactor)(src), (WGPUBlendFactor)(dst) }

/* Four horizontal bars over the striped background (eg_scene_background kind 0), one per
 * pipeline; each bar's color fades in alpha from 0 (left) to 1 (right). */
static void blend_bars(eg_scene_t *s, const WGPUBlendState *blend[4], const uint32_t mask[4],
                       const float bar_rgb[4][3], const WGPUColor *constant)
{
    WGPUTextureView tv;
    WGPUTexture t = eg_scene_target(s, WGPUTextureFormat_RGBA8Unorm, &tv);
    WGPURenderPipeline pipe[4];
    for (int i = 0; i < 4; i++) {
        eg_scene_pipe_t p = { .vs = "scene_color.vert", .fs = "scene_color.frag" };
        p.blend[0] = blend[i];
        p.write_mask[0] = mask ? mask[i] : 0u;
        pipe[i] = eg_scene_pipeline(s, &p);
    }
    if (s->fail) return;
    eg_scene_background(s, t, 0);
    WGPUCommandEncoder enc = eg_scene_encoder(s);
    WGPURenderPassEncoder pass = eg_scene_pass(s, enc, tv, NULL, NULL, 0, 0, 0);
    if (constant) wgpuRenderPassEncoderSetBlendConstant(pass, constant);
    float W = (float)s->w, H = (float)s->h;
    for (int i = 0; i < 4; i++) {
        float y0 = H * (0.03f + 0.245f * (float)i), y1 = y0 + H * 0.2f;
        const float *c = bar_rgb[i];
        eg_scene_vtx_t v[6];
        float x0 = eg_scene_ndc_x(s, W * 0.02f), x1 = eg_scene_ndc_x(s, W * 0.98f);
        float t0 = eg_scene_ndc_y(s, y0), t1 = eg_scene_ndc_y(s, y1);
        const float xy[6][3] = { { x0, t1, 0 }, { x1, t1, 1 }, { x1, t0, 1 },
                                 { x0, t1, 0 }, { x1, t0, 1 }, { x0, t0, 0 } };
        for (int k = 0; k < 6; k++) {
            eg_scene_vtx_t q = { xy[k][0], xy[k][1], 0.5f, 1.0f, c[0], c[1], c[2], xy[k][2] };
            v[k] = q;
        }
        wgpuRenderPassEncoderSetPipeline(pass, pipe[i]);
        eg_scene_draw_vertices(s, pass, v, 6);
    }
    eg_scene_end_pass(pass);
    eg_scene_submit(s, enc);
    eg_scene_readback(s, t, WGPUTextureFormat_RGBA8Unorm, 0, 0, s->w, s->h);
}

static const float k_bars[4][3] = {
    { 1.0f, 0.85f, 0.2f }, { 0.2f, 0.9f, 1.0f }, { 1.0f, 0.3f, 0.8f }, { 0.9f, 0.9f, 0.9f },
};

/* Source-over, premultiplied-over, additive, multiply. */
void eg_scene_blend_alpha(eg_scene_t *s)
{
    static const WGPUBlendState b[4] = {
        { BC(WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha),
          BC(WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha) },
        { BC(WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha),
          BC(WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_OneMinusSrcAlpha) },
        { BC(WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_One),
          BC(WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_One) },
        { BC(WGPUBlendOperation_Add, WGPUBlendFactor_Dst, WGPUBlendFactor_Zero),
          BC(WGPUBlendOperation_Add, WGPUBlendFactor_DstAlpha, WGPUBlendFactor_Zero) },
    };
    const WGPUBlendState *p[4] = { &b[0], &b[1], &b[2], &b[3] };
    blend_bars(s, p, NULL, k_bars, NULL);
}

/* Subtract, reverse subtract, min, max (min and max take factors One, One). */
void eg_scene_blend_ops(eg_scene_t *s)
{
    static const WGPUBlendState b[4] = {
        { BC(WGPUBlendOperation_Subtract, WGPUBlendFactor_One, WGPUBlendFactor_One),
          BC(WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_Zero) },
        { BC(WGPUBlendOperation_ReverseSubtract, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_One),
          BC(WGPUBlendOperation_ReverseSubtract, WGPUBlendFactor_One, WGPUBlendFactor_One) },
        { BC(WGPUBlendOperation_Min, WGPUBlendFactor_One, WGPUBlendFactor_One),
          BC(WGPUBlendOperation_Min, WGPUBlendFactor_One, WGPUBlendFactor_One) },
        { BC(WGPUBlendOperation_Max, WGPUBlendFactor_One, WGPUBlendFactor_One),
          BC(WGPUBlendOperation_Max, WGPUBlendFactor_One, WGPUBlendFactor_One) },
    };
    const WGPUBlendState *p[4] = { &b[0], &b[1], &b[2], &b[3] };
    blend_bars(s, p, NULL, k_bars, NULL);
}

/* Blend constant / one-minus-constant, src-alpha-saturated, one-minus-dst with src as the
 * destination factor, dst-alpha / one-minus-dst-alpha. */
void eg_scene_blend_factors(eg_scene_t *s)
{
    static const WGPUBlendState b[4] = {
        { BC(WGPUBlendOperation_Add, WGPUBlendFactor_Constant, WGPUBlendFactor_OneMinusConstant),
          BC(WGPUBlendOperation_Add, WGPUBlendFactor_Constant, WGPUBlendFactor_Zero) },
        { BC(WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlphaSaturated, WGPUBlendFactor_One),
          BC(WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlphaSaturated, WGPUBlendFactor_One) },
        { BC(WGPUBlendOperation_Add, WGPUBlendFactor_OneMinusDst, WGPUBlendFactor_Src),
          BC(WGPUBlendOperation_Add, WGPUBlendFactor_OneMinusDstAlpha, WGPUBlendFactor_SrcAlpha) },
        { BC(WGPUBlendOperation_Add, WGPUBlendFactor_DstAlpha, WGPUBlendFactor_OneMinusDstAlpha),
          BC(WGPUBlendOperation_Add, WGPUBlendFactor_OneMinusSrc, WGPUBlendFactor_Zero) },
    };
    const WGPUBlendState *p[4] = { &b[0], &b[1], &b[2], &b[3] };
    const WGPUColor constant = { 0.25, 0.5, 0.75, 0.5 };
    blend_bars(s, p, NULL, k_bars, &constant);
}

/* Color write masks: red only, green + alpha, red + blue with source-over blending, none. */
void eg_scene_write_mask(eg_scene_t *s)
{
    static const WGPUBlendState over = {
        BC(WGPUBlendOperation_Add, WGPUBlendFactor_SrcAlpha, WGPUBlendFactor_OneMinusSrcAlpha),
        BC(WGPUBlendOperation_Add, WGPUBlendFactor_One, WGPUBlendFactor_Zero)
    };
    const WGPUBlendState *p[4] = { NULL, NULL, &over, &over };
    const uint32_t mask[4] = { WGPUColorWriteMask_Red, WGPUColorWriteMask_Green | WGPUColorWriteMask_Alpha,
                               WGPUColorWriteMask_Red | WGPUColorWriteMask_Blue, EG_SCENE_MASK_NONE };
    blend_bars(s, p, mask, k_bars, NULL);
}
