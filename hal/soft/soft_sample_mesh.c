/* hal/soft the textured mesh's whole block in one 8-lane AVX2 pass: barycentrics, depth, uv, bilinear sample, store (helper "tex8", session 8).
 *
 * WHY. soft_raster_shade.c shade_mesh runs a depth-tested, textured block as five calls
 * (barycentrics, depth plane, depth test, interpolation, sample, pack), each storing its 16
 * lanes for the next to load: ~380 instructions a block of calls, stores and reloads around
 * ~250 of arithmetic on row 8 of the bench.
 *
 * WHAT. For the state shade_mesh's fused path serves (mesh_setup: one sample, early depth with
 * ds_fast, 8 lanes, a one-texture program whose output is the texel) when, in addition, the
 * texture takes the 8-lane RGBA8 / BGRA8 bilinear loop (eg_soft_tex_direct), the target is
 * RGBA8Unorm / BGRA8Unorm with every channel written (f->mesh_store) and the two coordinates
 * are interpolated inputs: per group of 8 lanes (two block rows) the same operations as
 * barycentrics_mesh_avx2, depth_lerp_avx2, eg_soft_ds_fast, interpolate_mesh_avx2 (the two
 * coordinates only: the program reads no other input) and eg_soft_sample_rgba8_store_avx2, in
 * registers. Same values per lane, so the same bytes (soft_shade.mesh_block_equals_general).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"
#include "hal/soft/soft_vm_simd.h"

#if defined(VM_SIMD_NATIVE) && VM_VW == 4 && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(EMGPU_SOFT_VM_NO_AVX2) && EG_SOFT_LANES == 16
#define MESH_AVX2 1
#include "hal/soft/soft_sample_mesh8.inc"

/* lerp_body's operations: a0 + w0 d1, then + w1 d2 */
static M8_ATTR EG_ALWAYS_INLINE m8_f mesh_lerp(m8_f w0, m8_f w1, float a0, float d1, float d2)
{
    m8_f x = w0 * M8_F(d1);
    x = M8_F(a0) + x;
    m8_f y = w1 * M8_F(d2);
    return x + y;
}

static M8_ATTR EG_ALWAYS_INLINE eg_soft_mask_t mesh_block(const eg_soft_frag_t *f, uint32_t bx, uint32_t by,
                                                          eg_soft_mask_t cov, uint32_t mu, uint32_t mv)
{
    const eg_soft_setup_t *s = &f->s;
    /* barycentrics_mesh_avx2's block origin and column terms */
    int64_t X = (int64_t)bx * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2, Y = (int64_t)by * EG_SOFT_SUBPIX + EG_SOFT_SUBPIX / 2;
    float e1 = (float)(s->A[1] * X + s->B[1] * Y + s->C[1]) * s->inv_area2;
    float e2 = (float)(s->A[2] * X + s->B[2] * Y + s->C[2]) * s->inv_area2;
    m8_f cx1, cx2;
    __builtin_memcpy(&cx1, f->mb_cx[0], 32);
    __builtin_memcpy(&cx2, f->mb_cx[1], 32);
    const m8_f c1 = M8_F(e1) + cx1, c2 = M8_F(e2) + cx2;
    const m8_f off = M8_F(f->ds_off), lo = M8_F(f->ds_lo), hi = M8_F(f->ds_hi);
    const bool le = f->ds_fast == 2u, dw = f->ds_write, persp = f->mesh_persp;
    const uint32_t ju = f->mesh_ju, jv = f->mesh_jv;

    const eg_soft_subres_t *ts = &f->tex_fast.s;
    const m8_ax_t au = m8_ax(ts->width_el), av = m8_ax(ts->height_el);
    const uint32_t (*k)[8] = m8_k_tab;
    const uint8_t *tbase = ts->base;
    const uint32_t tpitch = ts->row_pitch_B;
    const bool swap = (f->tex_fast.fmt == FAST_BGRA8) != (f->mesh_store == 2u);
    const eg_soft_target_t *t = f->out_t;
    size_t pitch = t->row_pitch_B, zpitch = f->ds_pitch_B;
    uint8_t *dst = t->base + (size_t)by * pitch + (size_t)bx * 4u;
    uint8_t *zrow = f->ds_base + (size_t)by * zpitch + (size_t)bx * 4u;
    eg_soft_mask_t out = 0;
    for (uint32_t h = 0; h < 2u; h++, dst += 2u * pitch, zrow += 2u * zpitch) {
        uint32_t m = cov >> (8u * h) & 0xffu;
        if (!m) continue;
        m8_f y1, y2;
        __builtin_memcpy(&y1, f->mb_ry[0][h], 32);
        __builtin_memcpy(&y2, f->mb_ry[1][h], 32);
        m8_f l1 = c1 + y1, l2 = c2 + y2;
        /* depth_lerp_avx2 (lerp_body with the bias), then eg_soft_ds_fast's rows */
        m8_f z = mesh_lerp(l1, l2, f->z[0], f->z[1] - f->z[0], f->z[2] - f->z[0]) + M8_F(f->bias);
        uint32_t pm = m8_depth(zrow, zpitch, z, off, lo, hi, m, dw, le);
        if (!pm) continue;
        out |= (eg_soft_mask_t)(pm << (8u * h));
        m8_f p1 = l1, p2 = l2;
        if (persp) {   /* barycentrics_mesh_avx2's perspective weights */
            const m8_f one = M8_F(1.0f);
            m8_f l0 = one - l1 - l2;
            m8_f q0 = l0 * M8_F(f->t->invw[0]), q1 = l1 * M8_F(f->t->invw[1]), q2 = l2 * M8_F(f->t->invw[2]);
            m8_f w1 = q0 + q1 + q2;
            m8_f rw = one / w1;
            p1 = q1 * rw;
            p2 = q2 * rw;
        }
        m8_f u = f->mv_persp[ju] ? mesh_lerp(p1, p2, f->mv_a0[ju], f->mv_d1[ju], f->mv_d2[ju])
                                 : mesh_lerp(l1, l2, f->mv_a0[ju], f->mv_d1[ju], f->mv_d2[ju]);
        m8_f v = f->mv_persp[jv] ? mesh_lerp(p1, p2, f->mv_a0[jv], f->mv_d1[jv], f->mv_d2[jv])
                                 : mesh_lerp(l1, l2, f->mv_a0[jv], f->mv_d1[jv], f->mv_d2[jv]);
        m8_group(mu, mv, swap, tbase, tpitch, &au, &av, u, v, pm, dst, pitch, k);
    }
    return out;
}

/* The (mode, mode) variants, each loop specialised: the whole entry point in AVX2 (one call a block). */
eg_soft_mask_t eg_soft_mesh_block(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov)
    M8_ATTR;
eg_soft_mask_t eg_soft_mesh_block(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov)
{
    uint32_t mu = f->tex_fast.mu, mv = f->tex_fast.mv;
    if (mu == ADDR_REPEAT && mv == ADDR_REPEAT) return mesh_block(f, bx, by, cov, ADDR_REPEAT, ADDR_REPEAT);
    if (mu == ADDR_CLAMP && mv == ADDR_CLAMP) return mesh_block(f, bx, by, cov, ADDR_CLAMP, ADDR_CLAMP);
    if (mu == ADDR_REPEAT) return mesh_block(f, bx, by, cov, ADDR_REPEAT, ADDR_CLAMP);
    return mesh_block(f, bx, by, cov, ADDR_CLAMP, ADDR_REPEAT);
}

/* ---- the same block with the triangle's constants splatted once (helper "mblk8") ----
 * eg_soft_mesh_tri_prep forms each scalar mesh_block forms per block (f->z[1] - f->z[0], ...)
 * with the same operation once per triangle and stores it splatted, so the block reads vectors
 * (memory operands) instead of broadcasting per group; e1, e2 come from the walk's exact edge
 * values at the block origin plus half (the same integers as mesh_block's products). */
enum { MT_Z0, MT_ZD1, MT_ZD2, MT_BIAS, MT_OFF, MT_LO, MT_HI, MT_IW0, MT_IW1, MT_IW2, MT_U0, MT_UD1, MT_UD2, MT_V0,
       MT_VD1, MT_VD2 };

static M8_ATTR EG_ALWAYS_INLINE m8_f mt_v(const eg_soft_mesh_tri_t *m, uint32_t i)
{
    m8_f v;
    __builtin_memcpy(&v, m->vec[i], 32);
    return v;
}

static M8_ATTR EG_ALWAYS_INLINE m8_f mt_lerp(m8_f w0, m8_f w1, m8_f a0, m8_f d1, m8_f d2)
{
    m8_f x = w0 * d1;
    x = a0 + x;
    m8_f y = w1 * d2;
    return x + y;
}

/* A triangle's scalar invariants of mt_blk (helper "mesh9"): locals of the caller, so a walk over
 * many blocks (mesh_walk) forms them once per triangle instead of once per block call. The
 * vectors (f->mb_cx, f->mb_ry, m's) stay where they are and are read as operands where used:
 * copies would only be spilled to the stack (16 registers, the group needs them all). */
typedef struct mt_ctx {
    const float (*cx)[8];              /* f->mb_cx */
    const float (*ry)[2][8];           /* f->mb_ry */
    const uint8_t *tbase, *cbase, *zbase;
    size_t pitch, zpitch;
    uint32_t tpitch;
    float inv;
    int64_t h1, h2;
    bool le, dw, persp, pu, pv, swap;
} mt_ctx_t;

static M8_ATTR EG_ALWAYS_INLINE void mt_ctx_init(mt_ctx_t *c, const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m)
{
    c->cx = f->mb_cx;
    c->ry = f->mb_ry;
    c->tbase = f->tex_fast.s.base;
    c->tpitch = f->tex_fast.s.row_pitch_B;
    c->cbase = f->out_t->base;
    c->zbase = f->ds_base;
    c->pitch = f->out_t->row_pitch_B;
    c->zpitch = f->ds_pitch_B;
    c->inv = f->s.inv_area2;
    c->h1 = m->half[0];
    c->h2 = m->half[1];
    c->le = f->ds_fast == 2u;
    c->dw = f->ds_write;
    c->persp = f->mesh_persp;
    c->pu = f->mv_persp[f->mesh_ju];
    c->pv = f->mv_persp[f->mesh_jv];
    c->swap = (f->tex_fast.fmt == FAST_BGRA8) != (f->mesh_store == 2u);
}

static M8_ATTR EG_ALWAYS_INLINE m8_f mt_ld(const float *p)
{
    m8_f v;
    __builtin_memcpy(&v, p, 32);
    return v;
}

/* m's axis a (0: u, 1: v) as m8_axis's constants */
static M8_ATTR EG_ALWAYS_INLINE m8_ax_t mt_ax(const eg_soft_mesh_tri_t *m, uint32_t a)
{
    m8_ax_t x;
    __builtin_memcpy(&x.fn, m->axf[a][0], 32);
    __builtin_memcpy(&x.hi, m->axf[a][1], 32);
    __builtin_memcpy(&x.n, m->axi[a][0], 32);
    __builtin_memcpy(&x.last, m->axi[a][1], 32);
    return x;
}

/* Group h (block rows 2h, 2h + 1) of the block whose first row is at dst, zrow, c1 and c2 the
 * block's weights before the rows' terms, mk the group's 8 coverage bits (not 0): returns the
 * lanes that passed the depth test, stored. */
static M8_ATTR EG_ALWAYS_INLINE uint32_t mt_grp(const mt_ctx_t *c, const eg_soft_mesh_tri_t *m, uint32_t h, m8_f c1,
                                               m8_f c2, uint32_t mk, uint8_t *dst, uint8_t *zrow, uint32_t mu,
                                               uint32_t mv)
{
    m8_f l1 = c1 + mt_ld(c->ry[0][h]), l2 = c2 + mt_ld(c->ry[1][h]);
    m8_f z = mt_lerp(l1, l2, mt_v(m, MT_Z0), mt_v(m, MT_ZD1), mt_v(m, MT_ZD2)) + mt_v(m, MT_BIAS);
    m8_i plm;
    uint32_t pm = m8_depth_lm(zrow, c->zpitch, z, mt_v(m, MT_OFF), mt_v(m, MT_LO), mt_v(m, MT_HI), m8_lanes(mk), c->dw,
                              c->le, &plm);
    if (!pm) return 0;
    m8_f p1 = l1, p2 = l2;
    if (c->persp) {
        const m8_f one = M8_F(1.0f);
        m8_f l0 = one - l1 - l2;
        m8_f q0 = l0 * mt_v(m, MT_IW0), q1 = l1 * mt_v(m, MT_IW1), q2 = l2 * mt_v(m, MT_IW2);
        m8_f w1 = q0 + q1 + q2;
        m8_f rw = one / w1;
        p1 = q1 * rw;
        p2 = q2 * rw;
    }
    m8_f u = mt_lerp(c->pu ? p1 : l1, c->pu ? p2 : l2, mt_v(m, MT_U0), mt_v(m, MT_UD1), mt_v(m, MT_UD2));
    m8_f v = mt_lerp(c->pv ? p1 : l1, c->pv ? p2 : l2, mt_v(m, MT_V0), mt_v(m, MT_VD1), mt_v(m, MT_VD2));
    const m8_ax_t au = mt_ax(m, 0), av = mt_ax(m, 1);
    m8_u w = m8_texel(mu, mv, c->swap, c->tbase, c->tpitch, &au, &av, u, v, m->k);
    m8_store_lm(dst, c->pitch, (m8_i)w, pm, plm);
    return pm;
}

/* The block at (bx, by), e1 and e2 the walk's edge values 1, 2 at its origin: its two groups,
 * written out (no loop: constant shifts and offsets). */
static M8_ATTR EG_ALWAYS_INLINE eg_soft_mask_t mt_blk(const mt_ctx_t *c, const eg_soft_mesh_tri_t *m, uint32_t bx,
                                                      uint32_t by, int64_t e1, int64_t e2, eg_soft_mask_t cov,
                                                      uint32_t mu, uint32_t mv)
{
    const m8_f c1 = M8_F((float)(e1 + c->h1) * c->inv) + mt_ld(c->cx[0]);
    const m8_f c2 = M8_F((float)(e2 + c->h2) * c->inv) + mt_ld(c->cx[1]);
    uint8_t *dst = (uint8_t *)(uintptr_t)c->cbase + (size_t)by * c->pitch + (size_t)bx * 4u;
    uint8_t *zrow = (uint8_t *)(uintptr_t)c->zbase + (size_t)by * c->zpitch + (size_t)bx * 4u;
    uint32_t m0 = cov & 0xffu, m1 = (uint32_t)cov >> 8, out = 0;
    if (m0) out = mt_grp(c, m, 0, c1, c2, m0, dst, zrow, mu, mv);
    if (m1) out |= mt_grp(c, m, 1, c1, c2, m1, dst + 2u * c->pitch, zrow + 2u * c->zpitch, mu, mv) << 8;
    return (eg_soft_mask_t)out;
}

static M8_ATTR EG_ALWAYS_INLINE eg_soft_mask_t mesh_tri_block(const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m,
                                                              uint32_t bx, uint32_t by, const int64_t e[3],
                                                              eg_soft_mask_t cov, uint32_t mu, uint32_t mv)
{
    mt_ctx_t c;
    mt_ctx_init(&c, f, m);
    return mt_blk(&c, m, bx, by, e[1], e[2], cov, mu, mv);
}

#define MT_FN(name, mu, mv)                                                                                       \
    static M8_ATTR eg_soft_mask_t name(const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m, uint32_t bx,       \
                                       uint32_t by, const int64_t e[3], eg_soft_mask_t cov)                      \
    {                                                                                                             \
        return mesh_tri_block(f, m, bx, by, e, cov, mu, mv);                                                      \
    }
MT_FN(mt_rr, ADDR_REPEAT, ADDR_REPEAT)
MT_FN(mt_cc, ADDR_CLAMP, ADDR_CLAMP)
MT_FN(mt_rc, ADDR_REPEAT, ADDR_CLAMP)
MT_FN(mt_cr, ADDR_CLAMP, ADDR_REPEAT)
#undef MT_FN

/* ---- soft_raster.c walk_mesh's loop with the block inlined (helper "mesh9") ----
 * Row 8's triangles cover ~4.5 blocks each, nearly all partial: the per-block call of mt_rr cost
 * ~75 instructions of set-up (flags, pointers, splats to the stack) and the walk ~20 more around
 * it. Here the triangle's invariants are read once (mt_ctx_init) and the walk visits the same
 * blocks with the same masks as walk_mesh (its tests are copied, see there). */

/* 2^30 for an edge value above it (soft_raster.c e32: the lane sums stay in int32) */
static EG_ALWAYS_INLINE int32_t mw_e32(int64_t e)
{
    return e > ((int64_t)1 << 30) ? (int32_t)1 << 30 : (int32_t)e;
}

/* Bits [lo, hi) of 4, the offsets clamped to [0, 4] (soft_raster.c span4). */
static EG_ALWAYS_INLINE uint32_t mw_span4(int64_t lo, int64_t hi)
{
    uint32_t l = lo < 0 ? 0u : lo > 4 ? 4u : (uint32_t)lo, h = hi < 0 ? 0u : hi > 4 ? 4u : (uint32_t)hi;
    return ((1u << h) - 1u) & ~((1u << l) - 1u);
}

/* soft_raster.c lanes_out32_8: the lanes where one of the edge values a, b, c plus the lane
 * offsets is negative. */
static M8_ATTR EG_ALWAYS_INLINE uint32_t mw_lanes_out(const int32_t (*lo)[EG_SOFT_LANES], int32_t a, int32_t b,
                                                      int32_t c)
{
    uint32_t out = 0;
    for (uint32_t h = 0; h < EG_SOFT_LANES; h += 8u) {
        m8_i o0, o1, o2;
        __builtin_memcpy(&o0, lo[0] + h, 32);
        __builtin_memcpy(&o1, lo[1] + h, 32);
        __builtin_memcpy(&o2, lo[2] + h, 32);
        m8_i v = (M8_I(a) + o0) | (M8_I(b) + o1) | (M8_I(c) + o2);
        out |= (uint32_t)__builtin_ia32_movmskps256((m8_f)v) << h;
    }
    return out;
}

static M8_ATTR EG_ALWAYS_INLINE uint32_t mesh_walk(const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m,
                                                   const eg_soft_mesh_walk_t *w, uint32_t mu, uint32_t mv, bool p3)
{
    static const uint16_t row_lanes[16] = { 0x0000, 0x000F, 0x00F0, 0x00FF, 0x0F00, 0x0F0F, 0x0FF0, 0x0FFF,
                                            0xF000, 0xF00F, 0xF0F0, 0xF0FF, 0xFF00, 0xFF0F, 0xFFF0, 0xFFFF };
    mt_ctx_t c;
    mt_ctx_init(&c, f, m);
    if (p3) c.persp = c.pu = c.pv = true;   /* (the caller's test: constants, no selects per group) */
    /* (w's fields read where used: locals would be spilled, the group needs every register) */
    int64_t er0 = w->er[0], er1 = w->er[1], er2 = w->er[2];
    uint32_t blocks = 0;
    for (int64_t by0 = w->y0; by0 < w->py1; by0 += 4, er0 += w->sy[0], er1 += w->sy[1], er2 += w->sy[2]) {
        uint32_t rows = by0 < w->py0 || by0 + 4 > w->py1 ? mw_span4(w->py0 - by0, w->py1 - by0) : 15u;
        int64_t e0 = er0, e1 = er1, e2 = er2;
        for (int64_t kb = 0; kb < w->n; kb++, e0 += w->sx[0], e1 += w->sx[1], e2 += w->sx[2]) {
            if (((e0 + w->ext[0][1]) | (e1 + w->ext[1][1]) | (e2 + w->ext[2][1])) < 0) continue;   /* rejected */
            int64_t bx0 = w->x0 + 4 * kb;
            uint32_t cols = bx0 < w->px0 || bx0 + 4 > w->px1 ? mw_span4(w->px0 - bx0, w->px1 - bx0) : 15u;
            uint32_t cov = row_lanes[rows] & (0x1111u * cols);
            if (((e0 + w->ext[0][0]) | (e1 + w->ext[1][0]) | (e2 + w->ext[2][0])) < 0)   /* not accepted */
                cov &= ~mw_lanes_out(w->lane_off32, mw_e32(e0 + w->samp_off[0][0]), mw_e32(e1 + w->samp_off[1][0]),
                                     mw_e32(e2 + w->samp_off[2][0]));
            if (cov && mt_blk(&c, m, (uint32_t)bx0, (uint32_t)by0, e1, e2, (eg_soft_mask_t)cov, mu, mv)) blocks++;
        }
    }
    return blocks;
}

/* p3: the triangle makes perspective weights and u and v both take them (the bench's mesh): the
 * flags are constants in those variants */
#define MW_FN(name, mu, mv, p3)                                                                                   \
    static M8_ATTR uint32_t name(const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m, const eg_soft_mesh_walk_t *w) \
    {                                                                                                             \
        return mesh_walk(f, m, w, mu, mv, p3);                                                                    \
    }
MW_FN(mw_rr, ADDR_REPEAT, ADDR_REPEAT, false)
MW_FN(mw_cc, ADDR_CLAMP, ADDR_CLAMP, false)
MW_FN(mw_rc, ADDR_REPEAT, ADDR_CLAMP, false)
MW_FN(mw_cr, ADDR_CLAMP, ADDR_REPEAT, false)
MW_FN(mw_rr_p, ADDR_REPEAT, ADDR_REPEAT, true)
MW_FN(mw_cc_p, ADDR_CLAMP, ADDR_CLAMP, true)
MW_FN(mw_rc_p, ADDR_REPEAT, ADDR_CLAMP, true)
MW_FN(mw_cr_p, ADDR_CLAMP, ADDR_REPEAT, true)
#undef MW_FN

/* (AVX2: called only where eg_soft_shade_mesh_direct held, which asks the CPU) */
uint32_t eg_soft_mesh_walk(const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m, const eg_soft_mesh_walk_t *w)
    M8_ATTR;
uint32_t eg_soft_mesh_walk(const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m, const eg_soft_mesh_walk_t *w)
{
    uint32_t mu = f->tex_fast.mu, mv = f->tex_fast.mv;
    if (f->mesh_persp && f->mv_persp[f->mesh_ju] && f->mv_persp[f->mesh_jv]) {
        if (mu == ADDR_REPEAT) return mv == ADDR_REPEAT ? mw_rr_p(f, m, w) : mw_rc_p(f, m, w);
        return mv == ADDR_REPEAT ? mw_cr_p(f, m, w) : mw_cc_p(f, m, w);
    }
    if (mu == ADDR_REPEAT) return mv == ADDR_REPEAT ? mw_rr(f, m, w) : mw_rc(f, m, w);
    return mv == ADDR_REPEAT ? mw_cr(f, m, w) : mw_cc(f, m, w);
}

static M8_ATTR EG_ALWAYS_INLINE void mt_splat(eg_soft_mesh_tri_t *m, uint32_t i, float x)
{
    m8_f v = M8_F(x);
    __builtin_memcpy(m->vec[i], &v, 32);
}

static M8_ATTR EG_ALWAYS_INLINE void mt_axis(eg_soft_mesh_tri_t *m, uint32_t a, uint32_t n)
{
    m8_ax_t x = m8_ax(n);
    __builtin_memcpy(m->axf[a][0], &x.fn, 32);
    __builtin_memcpy(m->axf[a][1], &x.hi, 32);
    __builtin_memcpy(m->axi[a][0], &x.n, 32);
    __builtin_memcpy(m->axi[a][1], &x.last, 32);
}

/* (AVX2: called only where eg_soft_mesh_block_ok held, which asks the CPU) */
void eg_soft_mesh_tri_prep(const eg_soft_frag_t *f, eg_soft_mesh_tri_t *m) M8_ATTR;
void eg_soft_mesh_tri_prep(const eg_soft_frag_t *f, eg_soft_mesh_tri_t *m)
{
    uint32_t ju = f->mesh_ju, jv = f->mesh_jv, mu = f->tex_fast.mu, mv = f->tex_fast.mv;
    /* mesh_block's scalars, each the same operation on the same operands */
    mt_splat(m, MT_Z0, f->z[0]);
    mt_splat(m, MT_ZD1, f->z[1] - f->z[0]);
    mt_splat(m, MT_ZD2, f->z[2] - f->z[0]);
    mt_splat(m, MT_BIAS, f->bias);
    mt_splat(m, MT_OFF, f->ds_off);
    mt_splat(m, MT_LO, f->ds_lo);
    mt_splat(m, MT_HI, f->ds_hi);
    for (uint32_t i = 0; i < 3u; i++) mt_splat(m, MT_IW0 + i, f->t->invw[i]);
    mt_splat(m, MT_U0, f->mv_a0[ju]);
    mt_splat(m, MT_UD1, f->mv_d1[ju]);
    mt_splat(m, MT_UD2, f->mv_d2[ju]);
    mt_splat(m, MT_V0, f->mv_a0[jv]);
    mt_splat(m, MT_VD1, f->mv_d1[jv]);
    mt_splat(m, MT_VD2, f->mv_d2[jv]);
    mt_axis(m, 0, f->tex_fast.s.width_el);
    mt_axis(m, 1, f->tex_fast.s.height_el);
    for (uint32_t i = 0; i < 2u; i++)
        m->half[i] = f->s.A[i + 1u] * (EG_SOFT_SUBPIX / 2) + f->s.B[i + 1u] * (EG_SOFT_SUBPIX / 2);
    m->k = m8_k_tab;
    m->block = mu == ADDR_REPEAT ? (mv == ADDR_REPEAT ? mt_rr : mt_rc) : (mv == ADDR_REPEAT ? mt_cr : mt_cc);
}
#else
#define MESH_AVX2 0
#endif

/* The input j that interpolates into dst (mesh_setup's mv_dst), or mv_n. */
static uint32_t mesh_input(const eg_soft_frag_t *f, const float *dst)
{
    uint32_t j = 0;
    while (j < f->mv_n && f->mv_dst[j] != dst) j++;
    return j;
}

bool eg_soft_mesh_block_ok(eg_soft_frag_t *f)
{
#if MESH_AVX2
    if (!f->mesh_store || !f->ds_avx2 || (f->ds_fast != 1u && f->ds_fast != 2u) || f->out_t->elem_B != 4u) return false;
    uint32_t ju = mesh_input(f, f->mesh_u), jv = mesh_input(f, f->mesh_v);
    if (ju >= f->mv_n || jv >= f->mv_n) return false;
    /* barycentrics_mesh_avx2 makes perspective weights only with mesh_persp */
    if ((f->mv_persp[ju] || f->mv_persp[jv]) && !f->mesh_persp) return false;
    f->mesh_ju = (uint8_t)ju;
    f->mesh_jv = (uint8_t)jv;
    return true;
#else
    (void)f;
    (void)mesh_input;
    return false;
#endif
}

#if !MESH_AVX2
eg_soft_mask_t eg_soft_mesh_block(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov)
{
    (void)f; (void)bx; (void)by;
    return cov;   /* never called: eg_soft_mesh_block_ok is false */
}

void eg_soft_mesh_tri_prep(const eg_soft_frag_t *f, eg_soft_mesh_tri_t *m)
{
    (void)f;
    m->block = NULL;   /* never called: eg_soft_mesh_block_ok is false */
}

uint32_t eg_soft_mesh_walk(const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m, const eg_soft_mesh_walk_t *w)
{
    (void)f; (void)m; (void)w;
    return 0;   /* never called: eg_soft_shade_mesh_direct is false */
}
#endif

#endif /* EMGPU_HAL_SOFT */
