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

static M8_ATTR EG_ALWAYS_INLINE eg_soft_mask_t mesh_tri_block(const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m,
                                                              uint32_t bx, uint32_t by, const int64_t e[3],
                                                              eg_soft_mask_t cov, uint32_t mu, uint32_t mv)
{
    const eg_soft_setup_t *s = &f->s;
    float e1 = (float)(e[1] + m->half[0]) * s->inv_area2;
    float e2 = (float)(e[2] + m->half[1]) * s->inv_area2;
    m8_f cx1, cx2;
    __builtin_memcpy(&cx1, f->mb_cx[0], 32);
    __builtin_memcpy(&cx2, f->mb_cx[1], 32);
    const m8_f c1 = M8_F(e1) + cx1, c2 = M8_F(e2) + cx2;
    const bool le = f->ds_fast == 2u, dw = f->ds_write, persp = f->mesh_persp;
    const bool pu = f->mv_persp[f->mesh_ju], pv = f->mv_persp[f->mesh_jv];
    m8_ax_t au, av;
    __builtin_memcpy(&au.fn, m->axf[0][0], 32);
    __builtin_memcpy(&au.hi, m->axf[0][1], 32);
    __builtin_memcpy(&au.n, m->axi[0][0], 32);
    __builtin_memcpy(&au.last, m->axi[0][1], 32);
    __builtin_memcpy(&av.fn, m->axf[1][0], 32);
    __builtin_memcpy(&av.hi, m->axf[1][1], 32);
    __builtin_memcpy(&av.n, m->axi[1][0], 32);
    __builtin_memcpy(&av.last, m->axi[1][1], 32);
    const eg_soft_subres_t *ts = &f->tex_fast.s;
    const bool swap = (f->tex_fast.fmt == FAST_BGRA8) != (f->mesh_store == 2u);
    const eg_soft_target_t *t = f->out_t;
    size_t pitch = t->row_pitch_B, zpitch = f->ds_pitch_B;
    uint8_t *dst = t->base + (size_t)by * pitch + (size_t)bx * 4u;
    uint8_t *zrow = f->ds_base + (size_t)by * zpitch + (size_t)bx * 4u;
    eg_soft_mask_t out = 0;
    for (uint32_t h = 0; h < 2u; h++, dst += 2u * pitch, zrow += 2u * zpitch) {
        uint32_t mk = cov >> (8u * h) & 0xffu;
        if (!mk) continue;
        m8_f y1, y2;
        __builtin_memcpy(&y1, f->mb_ry[0][h], 32);
        __builtin_memcpy(&y2, f->mb_ry[1][h], 32);
        m8_f l1 = c1 + y1, l2 = c2 + y2;
        m8_f z = mt_lerp(l1, l2, mt_v(m, MT_Z0), mt_v(m, MT_ZD1), mt_v(m, MT_ZD2)) + mt_v(m, MT_BIAS);
        uint32_t pm = m8_depth(zrow, zpitch, z, mt_v(m, MT_OFF), mt_v(m, MT_LO), mt_v(m, MT_HI), mk, dw, le);
        if (!pm) continue;
        out |= (eg_soft_mask_t)(pm << (8u * h));
        m8_f p1 = l1, p2 = l2;
        if (persp) {
            const m8_f one = M8_F(1.0f);
            m8_f l0 = one - l1 - l2;
            m8_f q0 = l0 * mt_v(m, MT_IW0), q1 = l1 * mt_v(m, MT_IW1), q2 = l2 * mt_v(m, MT_IW2);
            m8_f w1 = q0 + q1 + q2;
            m8_f rw = one / w1;
            p1 = q1 * rw;
            p2 = q2 * rw;
        }
        m8_f u = mt_lerp(pu ? p1 : l1, pu ? p2 : l2, mt_v(m, MT_U0), mt_v(m, MT_UD1), mt_v(m, MT_UD2));
        m8_f v = mt_lerp(pv ? p1 : l1, pv ? p2 : l2, mt_v(m, MT_V0), mt_v(m, MT_VD1), mt_v(m, MT_VD2));
        m8_group(mu, mv, swap, ts->base, ts->row_pitch_B, &au, &av, u, v, pm, dst, pitch, m->k);
    }
    return out;
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
#endif

#endif /* EMGPU_HAL_SOFT */
