/* soft_raster_shade.c shade_vm (helper "corner11", session 11): the program block with the
 * per-input choices made once per triangle, against the general path (fast paths off). */
#include "tests/unit/soft_span_util.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_raster.h"

static uint32_t vm_lcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 8; }
static float vm_lcg_f(uint32_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(vm_lcg(s) & 0xFFFFu) / 65535.0f; }

/* 14 triangles at w 0.5 .. 3 (perspective weights), corners up to 7 px outside the target
 * (clipping), both windings (FrontFacing), fractional positions (partial blocks); every third
 * one with one color at its three vertices (the inputs equal at the vertices: interp_body's
 * constant shortcut, perspective and noperspective), then a quad over the middle. */
static uint32_t vm_geometry(svtx_t *v, uint32_t seed)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < 14u; t++) {
        uint8_t c[4] = { (uint8_t)vm_lcg(&seed), (uint8_t)vm_lcg(&seed), (uint8_t)vm_lcg(&seed), (uint8_t)(64u + vm_lcg(&seed) % 192u) };
        for (uint32_t k = 0; k < 3u; k++) {
            if (t % 3u != 0u && k) for (uint32_t i = 0; i < 4u; i++) c[i] = (uint8_t)vm_lcg(&seed);
            v[n++] = span_vtx(vm_lcg_f(&seed, -7.0f, 39.0f), vm_lcg_f(&seed, -7.0f, 39.0f), vm_lcg_f(&seed, 0.5f, 3.0f),
                              vm_lcg_f(&seed, -1.0f, 2.0f), vm_lcg_f(&seed, -1.0f, 2.0f), c[0], c[1], c[2], c[3]);
        }
    }
    const float q[6][2] = { { 2.3f, 3.6f }, { 29.1f, 3.6f }, { 2.3f, 27.2f }, { 29.1f, 3.6f }, { 29.1f, 27.2f }, { 2.3f, 27.2f } };
    for (uint32_t k = 0; k < 6u; k++)
        v[n++] = span_vtx(q[k][0], q[k][1], 1.0f, q[k][0] / 32.0f, q[k][1] / 32.0f, 200, 100, 50, 170);
    return n;
}

/* The vertex shader for each fragment shader: the SDF rounded rectangle (a block-constant
 * program: shade_vm takes the blocks of the region walk's failed parts) reads span.vert's. */
static const char *const vm_fs[3] = { "shade_vm.frag", "shade_vm_kill.frag", "span_sdf.frag" };
static const char *const vm_vs[3] = { "shade_vm.vert", "shade_vm.vert", "span.vert" };

/* Every target format with a fused blend (RGBA8, BGRA8, RGB565) and RGBA16Float (the general
 * write) x no blend (the pack) / premultiplied / straight x 3 programs x scissor or not, at one
 * thread and at two with 8 px tiles (triangles cut at tile borders): the same bytes as with the
 * fast paths off, and shade_vm shaded blocks in every case. */
EG_TEST(soft_shade_vm, equals_general_path)
{
    SOFT_DEVICE_OR_SKIP(d);
    static const WGPUTextureFormat fmts[4] = { WGPUTextureFormat_RGBA8Unorm, WGPUTextureFormat_BGRA8Unorm,
                                               WGPUTextureFormat_EmgpuRGB565Unorm, WGPUTextureFormat_RGBA16Float };
    static const WGPUBlendState *const blends[3] = { NULL, &span_premul, &span_straight };
    static uint8_t fast[S * S * 8], slow[S * S * 8];
    static svtx_t v[SPAN_MAX_VERTS];
    uint32_t bad = 0, unused = 0, cases = 0;
    for (uint32_t p = 0; p < 3u; p++)
        for (uint32_t f = 0; f < 4u; f++)
            for (uint32_t b = 0; b < 3u; b++)
                for (uint32_t m = 0; m < 4u; m++) {
                    uint32_t bpp = f == 2u ? 2u : f == 3u ? 8u : 4u, threads = m & 2u ? 2u : 1u;
                    run_t r = { d, vm_fs[p], fmts[f], blends[b], 0, WGPUFilterMode_Nearest, (m & 1u) != 0u,
                                WGPUTextureFormat_Undefined, v, vm_geometry(v, 11u + 7u * (p * 12u + f * 3u + b)), 0 };
                    span_vs = vm_vs[p];
                    eg_soft_set_threads(threads);
                    if (threads > 1u) eg_soft_bin_set_tile_px(8);
                    uint32_t before = eg_soft_worker_main.vm_blocks;
                    bool ok = span_render(&r, fast, bpp);
                    if (threads == 1u && eg_soft_worker_main.vm_blocks == before) unused++;
                    eg_soft_raster_fast_paths = false;
                    ok = ok && span_render(&r, slow, bpp);
                    eg_soft_raster_fast_paths = true;
                    eg_soft_bin_set_tile_px(0);
                    eg_soft_set_threads(0);
                    span_vs = "span.vert";
                    cases++;
                    if ((!ok || memcmp(fast, slow, (size_t)S * S * bpp) != 0) && bad++ < 4u)
                        eg_test_printf("    program %u format %u blend %u mode %u differs\n", p, f, b, m);
                }
    EG_EXPECT_EQ_U(bad, 0u);
#if EG_SOFT_VM_TABLE   /* (the path: 8-lane AVX2 builds, on CPUs with AVX2) */
    if (__builtin_cpu_supports("avx2")) EG_EXPECT_EQ_U(unused, 0u);
#endif
    (void)unused;
    EG_EXPECT(cases == 144u);
    EG_EXPECT_NO_ERROR();
    eg_test_device_release();
}
#endif

#if EMGPU_HAL_SOFT
/* ---- soft_raster_bound.c eg_soft_weights_bound's screen-linear bounds (lambda_bound2) ---- */

/* lambda_bound's scalar definition (the build without SIMD runs it): l = e + fx dx + fy dy at the
 * 4 corner offsets for e = elo and ehi, minmax4's selects in order, then the two rows'. */
static void ref_lambda(float elo, float ehi, float dx, float dy, const eg_soft_pxset_t *p, float out[2])
{
    float fx[2] = { (float)p->fx0, (float)p->fx1 }, fy[2] = { (float)p->fy0, (float)p->fy1 }, lo[2], hi[2];
    for (uint32_t r = 0; r < 2u; r++) {
        float e = r ? ehi : elo, l = 0.0f, h = 0.0f;
        for (uint32_t k = 0; k < 4u; k++) {
            float v = e + fx[k & 1u] * dx + fy[k >> 1] * dy;
            if (k == 0u) { l = h = v; continue; }
            l = v < l ? v : l;
            h = v > h ? v : h;
        }
        lo[r] = l;
        hi[r] = h;
    }
    out[0] = lo[0] < lo[1] ? lo[0] : lo[1];
    out[1] = hi[0] > hi[1] ? hi[0] : hi[1];
}

static bool ref_fin(float v) { union { float f; uint32_t u; } c = { v }; return (c.u & 0x7f800000u) != 0x7f800000u; }

/* Random edge functions (with +-0 and huge gradients, inv_area2 up to inf) and pixel sets: the
 * same bits as lambda_bound's scalar arithmetic in l, the same true / false, and every pixel's
 * screen-linear weight (bary_body's chain) inside the bounds. */
EG_TEST(soft_shade_vm, weights_bound_equals_scalar)
{
    static eg_soft_tri_t t;
    eg_soft_frag_t f;
    eg_memset(&f, 0, sizeof f);
    eg_memset(&t, 0, sizeof t);
    t.invw[0] = t.invw[1] = t.invw[2] = 1.0f;
    f.t = &t;
    uint32_t seed = 5u, bad = 0, held = 0, outside = 0;
    for (uint32_t n = 0; n < 20000u; n++) {
        eg_soft_setup_t *s = &f.s;
        for (uint32_t i = 0; i < 3u; i++) {
            uint32_t k = vm_lcg(&seed) % 8u;
            s->A[i] = k == 0u ? 0 : (int64_t)(vm_lcg(&seed) % 200001u) - 100000;
            s->B[i] = k == 1u ? 0 : (int64_t)(vm_lcg(&seed) % 200001u) - 100000;
            s->C[i] = ((int64_t)(vm_lcg(&seed) % 2000001u) - 1000000) * (k == 2u ? 100000 : 1);
        }
        uint32_t q = vm_lcg(&seed) % 16u;
        s->inv_area2 = q == 0u ? __builtin_inff() : q == 1u ? 1e30f : 1.0f / (float)(1u + vm_lcg(&seed) % 5000000u);
        eg_soft_pxset_t p;
        p.bx0 = (int64_t)(vm_lcg(&seed) % 64u) * 4;
        p.bx1 = p.bx0 + (int64_t)(vm_lcg(&seed) % 5u) * 4;
        p.by0 = (int64_t)(vm_lcg(&seed) % 64u) * 4;
        p.by1 = p.by0 + (int64_t)(vm_lcg(&seed) % 5u) * 4;
        p.fx0 = vm_lcg(&seed) % 4u;
        p.fx1 = p.fx0 + vm_lcg(&seed) % (4u - p.fx0);
        p.fy0 = vm_lcg(&seed) % 4u;
        p.fy1 = p.fy0 + vm_lcg(&seed) % (4u - p.fy0);
        eg_soft_wbound_t wb;
        bool got = eg_soft_weights_bound(&f, &p, false, &wb);
        /* the reference: weights_bound's edge and gradient terms, then lambda_bound per weight */
        float e[2][2], d[2][2], want[2][2];
        bool ok = true;
        for (uint32_t v = 0; v < 2u; v++) {
            uint32_t i = v + 1u;
            int64_t X0 = p.bx0 * 256 + 128, X1 = p.bx1 * 256 + 128, Y0 = p.by0 * 256 + 128, Y1 = p.by1 * 256 + 128;
            int64_t ax0 = s->A[i] * X0, ax1 = s->A[i] * X1, by0 = s->B[i] * Y0, by1 = s->B[i] * Y1;
            int64_t lo = (ax0 < ax1 ? ax0 : ax1) + (by0 < by1 ? by0 : by1) + s->C[i];
            int64_t hi = (ax0 < ax1 ? ax1 : ax0) + (by0 < by1 ? by1 : by0) + s->C[i];
            e[v][0] = (float)lo * s->inv_area2;
            e[v][1] = (float)hi * s->inv_area2;
            d[v][0] = (float)(s->A[i] * 256) * s->inv_area2;
            d[v][1] = (float)(s->B[i] * 256) * s->inv_area2;
            if (!ok) continue;
            ref_lambda(e[v][0], e[v][1], d[v][0], d[v][1], &p, want[v]);
            ok = ref_fin(want[v][0]) && ref_fin(want[v][1]);
        }
        if (got != ok) { if (bad++ < 4u) eg_test_printf("    case %u: %d, scalar %d\n", n, got, ok); continue; }
        if (!ok) continue;
        held++;
        if (memcmp(wb.l, want, sizeof want) != 0 && bad++ < 4u)
            eg_test_printf("    case %u: [%a, %a] [%a, %a] vs [%a, %a] [%a, %a]\n", n, (double)wb.l[0][0], (double)wb.l[0][1],
                           (double)wb.l[1][0], (double)wb.l[1][1], (double)want[0][0], (double)want[0][1],
                           (double)want[1][0], (double)want[1][1]);
        /* soundness at each pixel of the set (bary_body: block origin value, then the steps) */
        for (int64_t by = p.by0; by <= p.by1; by += 4)
            for (int64_t bx = p.bx0; bx <= p.bx1; bx += 4)
                for (uint32_t fy = p.fy0; fy <= p.fy1; fy++)
                    for (uint32_t fx = p.fx0; fx <= p.fx1; fx++)
                        for (uint32_t v = 0; v < 2u; v++) {
                            uint32_t i = v + 1u;
                            float e0 = (float)(s->A[i] * (bx * 256 + 128) + s->B[i] * (by * 256 + 128) + s->C[i]) * s->inv_area2;
                            float l = e0 + (float)fx * d[v][0] + (float)fy * d[v][1];
                            outside += !(l >= wb.l[v][0] && l <= wb.l[v][1]);
                        }
    }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT_EQ_U(outside, 0u);
    EG_EXPECT(held > 10000u);
}
#endif
