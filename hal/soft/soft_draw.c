/* hal/soft draws: vertex ids, batched vertex shading, primitive assembly, clipping, lines/points.
 *
 * See soft_raster.h for the flow. Primitive assembly follows Vulkan "Primitive Topologies"
 * (which WebGPU defers to): triangle strip primitive i = {i, i + 1 + i % 2, i + 2 - i % 2},
 * provoking vertex = the first; strips restart at index 0xFFFF / 0xFFFFFFFF (WebGPU always
 * enables primitive restart for strip topologies; list topologies treat it as a normal index).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_bin.h"
#include "hal/soft/soft_span.h"
#include "hal/soft/soft_vm_simd.h"

#define VB EMGPU_SOFT_VERTEX_BATCH
#define PB EMGPU_SOFT_PRIM_BATCH
#define HASH_N (2u * VB)
_Static_assert(EG_SOFT_MAX_VARY % 4u == 0, "shade_vertices transposes varyings 4 at a time");
_Static_assert(VB >= 16 && VB % EG_SOFT_LANES == 0 && VB <= 4096, "EMGPU_SOFT_VERTEX_BATCH: multiple of 16, 16..4096");
_Static_assert(PB >= 16 && PB <= 8192, "EMGPU_SOFT_PRIM_BATCH: 16..8192");

/* Batch memory (static: no allocation while drawing). */
static eg_soft_vtx_t vstore[VB];
static uint32_t slot_vid[VB];
static uint32_t slot_inst[VB];             /* instance of each slot: a batch spans instances */
static uint16_t hash_tab[HASH_N];          /* slot + 1, 0 = empty */
static uint16_t prim_slots[PB][3];
static eg_soft_vtx_t clip_pool[16];   /* 7 clip planes add at most 2 vertices each */
/* Per slot, once per shaded vertex rather than per primitive using it: bit p = outside clip
 * plane p, CODE_BAD = non-finite position; window x, y, z, 1/w of slots inside every plane. */
#define CODE_BAD 0x80u
static uint8_t slot_code[VB];
static float slot_win[VB][4];
static int32_t slot_snap[VB][2];   /* eg_soft_snap of the window x, y (face culling in flush) */
#define vs_in eg_soft_worker_main.io_in
#define vs_out eg_soft_worker_main.io_out

typedef struct batch {
    const eg_soft_pass_state_t *ps;
    const struct eg_soft_raster_pipeline *rs;
    uint32_t instance;                    /* instance_index being assembled (firstInstance included) */
    uint32_t nslots, nprims, verts_per_prim;
    float planes[7][5];                   /* clip planes: a x + b y + c z + d w + e >= 0 */
    uint32_t nplanes;
    bool cull;                            /* the pipeline culls a face: culled_slots applies */
    bool quads;                           /* draw_quads_fresh's batch: slots 4 q .. 4 q + 3 are one
                                             instance's 4-vertex strip, primitives 2 q and 2 q + 1 */
} batch_t;

/* ---- vertex shading ---- */

/* Attribute-major: the buffer, stride and step mode are looked up once per attribute and
 * batch (fetch_prep), not per lane or group. INSTANCED QUADS (vtx13): where every 4 lanes share
 * an instance (draw_strip_fresh's 4-vertex strips) the instance-step attributes are converted
 * once per run, all in one call (eg_soft_fetch_quads), and where the vertex ids repeat every 4
 * lanes (the same strip in every instance) a vertex-step attribute's lanes 4 .. n - 1 copy lanes
 * 0 .. 3: a lane's fetched bits depend only on its element (the conversion of its bytes, or the
 * robust-access default), so both give the lane loop's bits. Both tests are made once per group
 * for all attributes. The lane loops were ~95 instructions a vertex on the UI row (6 attributes),
 * the look-ups and calls per attribute and group ~12 more. */
typedef struct fetch_set {
    eg_soft_fetch_src_t inst[EMGPU_MAX_VERTEX_ATTRIBUTES], vert[EMGPU_MAX_VERTEX_ATTRIBUTES];
    uint32_t ninst, nvert;
    uint32_t vert_base, vert_n;   /* the group whose vertex-step lanes vs_in holds (vert_n 0: none) */
} fetch_set_t;

static void fetch_prep(const batch_t *b, fetch_set_t *f)
{
    const struct eg_soft_raster_pipeline *rs = b->rs;
    const eg_render_pipeline_t *rp = rs->rp;
    f->ninst = f->nvert = 0;
    f->vert_base = f->vert_n = 0;
    for (uint32_t i = 0; i < rs->attrib_count; i++) {
        const eg_soft_attrib_t *a = &rs->attribs[i];
        const eg_vertex_buffer_t *vb = &rp->vertex_buffers[a->slot];
        const eg_soft_vbuf_t *buf = &b->ps->vbuf[a->slot];
        const bool inst = vb->step_mode == WGPUVertexStepMode_Instance;
        eg_soft_fetch_src_t *d = inst ? &f->inst[f->ninst++] : &f->vert[f->nvert++];
        d->fn = a->fetch;
        d->mem = buf->mem;
        d->size_B = buf->size_B;
        d->stride_B = vb->stride_B;
        d->offset_B = a->offset_B;
        d->attr_B = a->size_B;
        d->dst = &vs_in[a->location];
    }
}

static EG_ALWAYS_INLINE void fetch_src_lanes(const eg_soft_fetch_src_t *d, const uint32_t *el, uint32_t n)
{
    /* Robust access: an attribute outside the bound range reads (0, 0, 0, 1). */
    eg_soft_fetch_lanes(d->fn, d->mem, d->size_B, d->offset_B, d->attr_B, d->stride_B, el, n, d->dst);
}

/* Whether lanes 0 .. n - 1 (n a multiple of 4) come in runs of four of one element; *max: the
 * largest element. */
static bool runs_of_4(const uint32_t *el, uint32_t n, uint32_t *max)
{
    uint32_t diff = 0, m = 0;
    for (uint32_t l = 0; l < n; l += 4u) {
        diff |= (el[l + 1u] ^ el[l]) | (el[l + 2u] ^ el[l]) | (el[l + 3u] ^ el[l]);
        m = el[l] > m ? el[l] : m;
    }
    *max = m;
    return diff == 0;
}

uint64_t eg_soft_fetch_quad_groups;
uint64_t eg_soft_quad_run_quads;
#if defined(VM_SIMD_NATIVE) && VM_VW == 4 && defined(__GNUC__) && !defined(__clang__)
const bool eg_soft_quad_runs_on = true;   /* (LANES_VEC: flush_quads exists) */
#else
const bool eg_soft_quad_runs_on = false;
#endif

/* The vertex-step attributes of lanes base .. base + n - 1 (fetch_attribs). */
static EG_ALWAYS_INLINE void fetch_vert(fetch_set_t *f, uint32_t base, uint32_t n)
{
    const bool quads = n % 4u == 0 && eg_soft_raster_fast_paths;
    if (!f->nvert) return;
    /* SAME VERTEX IDS: vs_in keeps the last group's vertex-step lanes (only fetch_attribs writes it
     * while a batch is shaded: the program reads it through a const pointer), so where this
     * group's ids are the previous group's (instanced quads: 0, 1, 2, 3, 0, .. in every group)
     * they are already in place, the same bits (~240 instructions a group on the UI row). */
    /* (the first ids compared before the calls: meshes' groups never repeat, ~50 instructions a group) */
    if (quads && f->vert_n >= n && slot_vid[base] == slot_vid[f->vert_base] &&
        eg_memcmp(&slot_vid[base], &slot_vid[f->vert_base], n * sizeof slot_vid[0]) == 0)
        return;
    f->vert_base = base;
    f->vert_n = n;
    if (!(quads && n > 4u && slot_vid[base + 4u] == slot_vid[base] &&
          eg_memcmp(&slot_vid[base + 4u], &slot_vid[base], (n - 4u) * sizeof slot_vid[0]) == 0)) {
        for (uint32_t i = 0; i < f->nvert; i++) fetch_src_lanes(&f->vert[i], &slot_vid[base], n);
        return;
    }
    for (uint32_t i = 0; i < f->nvert; i++) {
        eg_soft_vec4_t *dst = f->vert[i].dst;
        fetch_src_lanes(&f->vert[i], &slot_vid[base], 4u);
        for (uint32_t c = 0; c < 4u; c++)
            for (uint32_t l = 4u; l < n; l += 4u) {
#if defined(__GNUC__)
                __builtin_memcpy(&dst->c[c].u[l], &dst->c[c].u[0], 16);
#else
                for (uint32_t q = 0; q < 4u; q++) dst->c[c].u[l + q] = dst->c[c].u[q];
#endif
            }
    }
}

static void fetch_attribs(fetch_set_t *f, uint32_t base, uint32_t n)
{
    const bool quads = n % 4u == 0 && eg_soft_raster_fast_paths;
    uint32_t inst_max = 0;
    if (f->ninst) {
        if (quads && runs_of_4(&slot_inst[base], n, &inst_max)) {
            eg_soft_fetch_quads(f->inst, f->ninst, &slot_inst[base], n / 4u, inst_max);
            eg_soft_fetch_quad_groups++;
        } else {
            for (uint32_t i = 0; i < f->ninst; i++) fetch_src_lanes(&f->inst[i], &slot_inst[base], n);
        }
    }
    fetch_vert(f, base, n);
}

/* Lanes [0, n) of four per-lane arrays into vertices v[0..n): component c of lane l goes to the
 * float at byte off_B + 4 c of v[l]. A 4x4 transpose per 4 lanes where GCC's vector shuffles
 * exist (plain moves: the same bits), else lane by lane; the strided scalar copy was ~45
 * instructions a vertex on the 20k-triangle rows. */
static EG_ALWAYS_INLINE float *vtx_at(eg_soft_vtx_t *v, size_t off_B)
{
    return (float *)(void *)((unsigned char *)v + off_B);
}

#if defined(VM_SIMD_NATIVE) && VM_VW == 4 && defined(__GNUC__) && !defined(__clang__)
#define LANES_VEC 1
#else
#define LANES_VEC 0
#endif

#if LANES_VEC
/* Four vectors (components) of 4 lanes into 4 rows of 4 floats: row l = lane l of a, b, c, d. */
static EG_ALWAYS_INLINE void transpose4_store(vf_t a, vf_t b, vf_t c, vf_t d, float *r0, float *r1, float *r2,
                                              float *r3)
{
    const vf_t ab0 = __builtin_shuffle(a, b, (vi_t){ 0, 4, 1, 5 }), ab1 = __builtin_shuffle(a, b, (vi_t){ 2, 6, 3, 7 });
    const vf_t cd0 = __builtin_shuffle(c, d, (vi_t){ 0, 4, 1, 5 }), cd1 = __builtin_shuffle(c, d, (vi_t){ 2, 6, 3, 7 });
    const vf_t o0 = __builtin_shuffle(ab0, cd0, (vi_t){ 0, 1, 4, 5 }), o1 = __builtin_shuffle(ab0, cd0, (vi_t){ 2, 3, 6, 7 });
    const vf_t o2 = __builtin_shuffle(ab1, cd1, (vi_t){ 0, 1, 4, 5 }), o3 = __builtin_shuffle(ab1, cd1, (vi_t){ 2, 3, 6, 7 });
    VSTORE(r0, o0);
    VSTORE(r1, o1);
    VSTORE(r2, o2);
    VSTORE(r3, o3);
}
#endif

static EG_ALWAYS_INLINE void lanes_to_vtx(const float *const src[4], uint32_t n, eg_soft_vtx_t *v, size_t off_B)
{
    uint32_t l = 0;
#if LANES_VEC
    for (; l + 4u <= n; l += 4u) {
        vf_t a, b, c, d;
        VLOAD(a, src[0] + l);
        VLOAD(b, src[1] + l);
        VLOAD(c, src[2] + l);
        VLOAD(d, src[3] + l);
        transpose4_store(a, b, c, d, vtx_at(&v[l], off_B), vtx_at(&v[l + 1u], off_B), vtx_at(&v[l + 2u], off_B),
                         vtx_at(&v[l + 3u], off_B));
    }
#endif
    for (; l < n; l++)
        for (uint32_t c = 0; c < 4u; c++) vtx_at(&v[l], off_B)[c] = src[c][l];
}

/* CLASSIFY ON LANES. classify_slots' outcodes and to_window's values for triangles, computed
 * from the program's position lanes (4 vertices per vector) while they are still
 * component-major, before the transpose into vstore: the same IEEE operations per lane as
 * classify_slots' scalar outcode, bad_pos and window expressions (-ffp-contract=off, no FMA), so
 * the same bits; the window values of a vertex outside a plane are computed but never read. The
 * per-vertex loop over vstore was ~60 instructions a vertex on the 20k-triangle rows. The last
 * 1-3 slots of a batch (a partial vector) stay with classify_slots. */
#if LANES_VEC
#define CLASSIFY_LANES 1
typedef struct lanes_k {
    vf_t x0, w0, x1, w1, y2, w2, y3, w3, e4, z6, w6;   /* setup_planes' nonzero coefficients */
    vf_t vx, vy, hw, hh, z0, dz;                        /* to_window's factors */
    bool depth, cull;
} lanes_k_t;

/* QUAD TRIANGLES (vtxquad, vtxbin): a quad batch's pairs of triangles by quad, in the form
 * eg_soft_bin_pairs takes, written where classify_body has the quad's x, y, z and 1/w vectors (its 4
 * slots): flush_quads hands runs of them to the binner in place. They were window vectors by quad
 * (quad_win) copied into a 16-pair run buffer by flush_quads (~40 instructions a quad on the UI
 * glyphs: loads, shuffles, stores and the vertex pointers). The pointers, prov and is_polygon are
 * functions of the quad's index alone (vstore is static): quad_tri_ptrs writes them once, and
 * nothing else writes these records (quad_tri_win stores the floats x .. invw only). Hosted boards
 * (VB 256): 11 KiB for quad_win's 4 KiB and quad_run's 2.8 KiB; MCUs (VB 64): less than before. */
static eg_soft_tri_t quad_tri[VB / 4u][2];
static bool quad_tri_ready;

/* quad_tri's records of slots a .. a + 3 as quad_tris_of's (primitive {a, a + 1, a + 2}, then
 * {a + 1, a + 3, a + 2}): done once (the first quad batch) */
static void quad_tri_ptrs(void)
{
    for (uint32_t q = 0; q < VB / 4u; q++) {
        eg_soft_tri_t *t = quad_tri[q];
        const eg_soft_vtx_t *v = &vstore[4u * q];
        t[0].v[0] = v; t[0].v[1] = v + 1; t[0].v[2] = v + 2;
        t[1].v[0] = v + 1; t[1].v[1] = v + 3; t[1].v[2] = v + 2;
        t[0].prov = t[0].v[0];
        t[1].prov = t[1].v[0];
        t[0].is_polygon = t[1].is_polygon = true;
    }
    quad_tri_ready = true;
}

/* quad_tris_of's window floats of slots a .. a + 3 (x, y, z, w: their x, y, z and 1/w) into t[0]
 * and t[1] (permuted 1, 3, 2), the same values as its column stores, none past invw[2]: the last
 * store is {z[2], w[0], w[1], w[2]} at z[2] (quad_tris_of's 4th w float lands on v[0], which it
 * rewrites after; here v[0] is quad_tri_ptrs'). Plain moves: the same bits. */
static EG_ALWAYS_INLINE void quad_tri_win(vf_t x, vf_t y, vf_t z, vf_t w, eg_soft_tri_t t[2])
{
    _Static_assert(offsetof(eg_soft_tri_t, y) == offsetof(eg_soft_tri_t, x) + 12 &&
                       offsetof(eg_soft_tri_t, z) == offsetof(eg_soft_tri_t, y) + 12 &&
                       offsetof(eg_soft_tri_t, invw) == offsetof(eg_soft_tri_t, z) + 12,
                   "quad_tri_win's column stores");
    const vi_t odd = { 1, 3, 2, 0 };
    const vf_t x1 = __builtin_shuffle(x, odd), y1 = __builtin_shuffle(y, odd), z1 = __builtin_shuffle(z, odd);
#if defined(__SSE__)
    /* {z2, w0, w1, w2} and {z2, w1, w3, w2} by two shufps each (GCC's two-vector shuffles took
     * ~10 instructions each here) */
#define SHUF_(a, b, i, j, k, l) __builtin_ia32_shufps((a), (b), (i) | (j) << 2 | (k) << 4 | (l) << 6)
    const vf_t zw0 = SHUF_(SHUF_(z, w, 2, 2, 0, 0), w, 0, 2, 1, 2), zw1 = SHUF_(SHUF_(z, w, 2, 2, 1, 1), w, 0, 2, 3, 2);
#undef SHUF_
#else
    const vf_t zw0 = __builtin_shuffle(z, w, (vi_t){ 2, 4, 5, 6 }), zw1 = __builtin_shuffle(z, w, (vi_t){ 2, 5, 7, 6 });
#endif
    float *const t0 = (float *)(void *)((unsigned char *)&t[0] + offsetof(eg_soft_tri_t, x));
    float *const t1 = (float *)(void *)((unsigned char *)&t[1] + offsetof(eg_soft_tri_t, x));
    VSTORE(t0, x); VSTORE(t0 + 3, y); VSTORE(t0 + 6, z); VSTORE(t0 + 8, zw0);
    VSTORE(t1, x1); VSTORE(t1 + 3, y1); VSTORE(t1 + 6, z1); VSTORE(t1 + 8, zw1);
}

/* Lanes whose position is outside some plane or bad are rare: the codes' bits are assembled only
 * where some lane of 4 has one (the per-plane `< 0` masks ORed first; the same compares, so a zero
 * OR is exactly 4 zero codes). quads (shade_quads): also the position rows of 4 slots with a
 * nonzero code, to vstore (shade_quads says why only those); soa (quad batches that flush_quads
 * takes): the window values go to quad_tri instead of slot_win's rows. */
static EG_ALWAYS_INLINE void classify_body(const lanes_k_t *k, const float *const pos[4], uint32_t n, uint32_t base,
                                           bool quads, bool soa)
{
    static const union { float f; int32_t i; } lim = { 3.0e38f };
    const vi_t mag = { 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff }, vlim = { lim.i, lim.i, lim.i, lim.i };
    const vi_t b0 = { 1, 1, 1, 1 }, b1 = b0 << 1, b2 = b0 << 2, b3 = b0 << 3, b4 = b0 << 4, b5 = b0 << 5, b6 = b0 << 6;
    const vi_t bad_bit = b0 << 7, vzero = { 0, 0, 0, 0 };
    const vf_t one = { 1.0f, 1.0f, 1.0f, 1.0f }, zero = { 0.0f, 0.0f, 0.0f, 0.0f };
    _Static_assert(CODE_BAD == 0x80u, "classify_lanes' bad_bit");
    for (uint32_t l = 0; l + 4u <= n; l += 4u) {
        vf_t x, y, z, w;
        VLOAD(x, pos[0] + l);
        VLOAD(y, pos[1] + l);
        VLOAD(z, pos[2] + l);
        VLOAD(w, pos[3] + l);
        /* bad_pos: a magnitude's bits above 3e38f's (NaN and infinity included) */
        const vi_t bad = (((vi_t)x & mag) > vlim) | (((vi_t)y & mag) > vlim) | (((vi_t)z & mag) > vlim) |
                         (((vi_t)w & mag) > vlim);
        /* outcode: plane p's mask op */
        const vi_t o0 = (vi_t)(k->x0 * x + k->w0 * w < zero), o1 = (vi_t)(k->x1 * x + k->w1 * w < zero);
        const vi_t o2 = (vi_t)(k->y2 * y + k->w2 * w < zero), o3 = (vi_t)(k->y3 * y + k->w3 * w < zero);
        const vi_t o4 = (vi_t)(w + k->e4 < zero);
        vi_t o5 = vzero, o6 = vzero;
        if (k->depth) {
            o5 = (vi_t)(z < zero);
            o6 = (vi_t)(k->z6 * z + k->w6 * w < zero);
        }
        const vi_t out = bad | o0 | o1 | o2 | o3 | o4 | o5 | o6;
#if defined(__SSE2__)
        const bool inside = __builtin_ia32_movmskps((vf_t)out) == 0;
#else
        const bool inside = (out[0] | out[1] | out[2] | out[3]) == 0;
#endif
        /* to_window */
        const vf_t iw = one / w;
        const vf_t wx = k->vx + (x * iw + one) * k->hw, wy = k->vy + (one - y * iw) * k->hh;
        const vf_t wz = k->z0 + z * iw * k->dz;
        if (soa) {
            quad_tri_win(wx, wy, wz, iw, quad_tri[(base + l) / 4u]);
        } else {
            transpose4_store(wx, wy, wz, iw, slot_win[base + l], slot_win[base + l + 1u], slot_win[base + l + 2u],
                             slot_win[base + l + 3u]);
        }
        vi_t c = vzero;
        if (inside) {
            __builtin_memset(&slot_code[base + l], 0, 4);
        } else {
            c = (o0 & b0) | (o1 & b1) | (o2 & b2) | (o3 & b3) | (o4 & b4) | (o5 & b5) | (o6 & b6);
            c = (bad & bad_bit) | (~bad & c);
#if defined(__SSE2__)
            {   /* the 4 codes (0 .. 0xff) as bytes: two saturating packs, one 4-byte store */
                typedef short codes_w_t __attribute__((vector_size(16)));
                typedef char codes_b_t __attribute__((vector_size(16)));
                const codes_w_t w16 = __builtin_ia32_packssdw128(c, c);
                const codes_b_t b8 = __builtin_ia32_packuswb128(w16, w16);
                __builtin_memcpy(&slot_code[base + l], &b8, 4);
            }
#else
            for (uint32_t q = 0; q < 4u; q++) slot_code[base + l + q] = (uint8_t)c[q];
#endif
            if (quads)
                transpose4_store(x, y, z, w, vstore[base + l].pos, vstore[base + l + 1u].pos, vstore[base + l + 2u].pos,
                                 vstore[base + l + 3u].pos);
        }
        if (k->cull)
            for (uint32_t q = 0; q < 4u; q++) {
                if (c[q]) continue;
                slot_snap[base + l + q][0] = eg_soft_snap(wx[q]);   /* for culled_slots */
                slot_snap[base + l + q][1] = eg_soft_snap(wy[q]);
            }
    }
}

static void classify_lanes(const lanes_k_t *k, const float *const pos[4], uint32_t n, uint32_t base)
{
    classify_body(k, pos, n, base, false, false);
}
#else
#define CLASSIFY_LANES 0
#endif

/* lk: classify_lanes' constants (triangles), NULL: classify_slots does it all. */
static void shade_vertices(const batch_t *b, const void *lk)
{
    const struct eg_soft_raster_pipeline *rs = b->rs;
    /* Outputs a lane does not write read as zero: only the locations the program writes or the
     * fragment stage reads are cleared (clearing all 16 was half of vertex shading's cost). */
    uint32_t zero_mask = rs->vsi ? rs->vsi->output_mask : ~0u;
    for (uint32_t j = 0; j < rs->nvary; j++) zero_mask |= 1u << rs->vary_loc[j];
    fetch_set_t fs;
    fetch_prep(b, &fs);
    for (uint32_t base = 0; base < b->nslots; base += EG_SOFT_LANES) {
        uint32_t n = eg_min_u32(EG_SOFT_LANES, b->nslots - base);
        eg_soft_invocation_t inv;
        eg_memset(&inv, 0, sizeof inv);
#if defined(__GNUC__)
        /* the set bits only (the 16-trip test loop was ~4 instructions a vertex) */
        for (uint32_t m = zero_mask & (uint32_t)((1ull << EG_SOFT_MAX_LOCATIONS) - 1u); m; m &= m - 1u)
            eg_memset(&vs_out[__builtin_ctz(m)], 0, sizeof vs_out[0]);
#else
        for (uint32_t l = 0; l < EG_SOFT_MAX_LOCATIONS; l++)
            if (zero_mask >> l & 1u) eg_memset(&vs_out[l], 0, sizeof vs_out[l]);
#endif
        inv.in = vs_in;
        inv.out = vs_out;
        inv.regs = eg_soft_worker_main.vm_regs;   /* (vs_in's worker: vertex shading is the submitting thread's) */
        fetch_attribs(&fs, base, n);
#if defined(__GNUC__)
        if (n == EG_SOFT_LANES) {   /* whole groups: two fixed-size copies (~6 instructions a vertex less) */
            __builtin_memcpy(inv.vertex_index.u, &slot_vid[base], sizeof inv.vertex_index.u);
            __builtin_memcpy(inv.instance_index.u, &slot_inst[base], sizeof inv.instance_index.u);
        } else
#endif
        {
            for (uint32_t l = 0; l < n; l++) {
                inv.vertex_index.u[l] = slot_vid[base + l];
                inv.instance_index.u[l] = slot_inst[base + l];
            }
        }
        inv.active = (eg_soft_mask_t)((1u << n) - 1u);
        eg_soft_program_run(rs->vs, &b->ps->bound, &inv);
        const float *const pos[4] = { inv.position.c[0].f, inv.position.c[1].f, inv.position.c[2].f,
                                      inv.position.c[3].f };
        lanes_to_vtx(pos, n, &vstore[base], offsetof(eg_soft_vtx_t, pos));
#if CLASSIFY_LANES
        if (lk) classify_lanes(lk, pos, n, base);
#else
        (void)lk;
#endif
        /* varying-major: the (location, component) lookup once per varying, not per lane */
        uint32_t j = 0;
        for (; j + 4u <= rs->nvary; j += 4u) {
            const float *src[4];
            for (uint32_t q = 0; q < 4u; q++) src[q] = vs_out[rs->vary_loc[j + q]].c[rs->vary_comp[j + q]].f;
            lanes_to_vtx(src, n, &vstore[base], offsetof(eg_soft_vtx_t, var) + j * sizeof(float));
        }
#if LANES_VEC
        /* the last 1-3 varyings through the same transpose, zeros filling var[nvary .. j + 3]
         * (within var[]: nvary <= EG_SOFT_MAX_VARY, a multiple of 4; nothing reads past nvary):
         * the lane-by-lane copy was ~7 instructions a value (the UI glyphs' 6 varyings) */
        if (j < rs->nvary) {
            static const float zeros[EG_SOFT_LANES];
            const float *src[4];
            for (uint32_t q = 0; q < 4u; q++)
                src[q] = j + q < rs->nvary ? vs_out[rs->vary_loc[j + q]].c[rs->vary_comp[j + q]].f : zeros;
            lanes_to_vtx(src, n, &vstore[base], offsetof(eg_soft_vtx_t, var) + j * sizeof(float));
            j = rs->nvary;
        }
#endif
        for (; j < rs->nvary; j++) {
            const float *src = vs_out[rs->vary_loc[j]].c[rs->vary_comp[j]].f;
            for (uint32_t l = 0; l < n; l++) vstore[base + l].var[j] = src[l];
        }
    }
}

#if CLASSIFY_LANES
#if defined(__SSE__)
/* lanes_to_vtx of two rows a, b (the last 1 or 2 varyings: b may be zeros): lane l's pair to the 2
 * floats at off_B of v[l] by half-vector stores (the 4-row transpose also wrote 2 floats past
 * nvary, which nothing reads: ~10 instructions a quad on the UI glyphs). */
static EG_ALWAYS_INLINE void lanes2_to_vtx(const float *a, const float *b, uint32_t n, eg_soft_vtx_t *v, size_t off_B)
{
    typedef float v2sf_t __attribute__((vector_size(8)));
    for (uint32_t l = 0; l + 4u <= n; l += 4u) {
        vf_t x, y;
        VLOAD(x, a + l);
        VLOAD(y, b + l);
        const vf_t lo = __builtin_shuffle(x, y, (vi_t){ 0, 4, 1, 5 }), hi = __builtin_shuffle(x, y, (vi_t){ 2, 6, 3, 7 });
        __builtin_ia32_storelps((v2sf_t *)(void *)vtx_at(&v[l], off_B), lo);
        __builtin_ia32_storehps((v2sf_t *)(void *)vtx_at(&v[l + 1u], off_B), lo);
        __builtin_ia32_storelps((v2sf_t *)(void *)vtx_at(&v[l + 2u], off_B), hi);
        __builtin_ia32_storehps((v2sf_t *)(void *)vtx_at(&v[l + 3u], off_B), hi);
    }
}
#endif

/* QUAD BATCHES (vtxquad). shade_vertices for draw_quads_fresh's batches (b->quads), whose lane
 * groups hold 4 instances of one 4-vertex strip each. What the general loop redoes for every group
 * is done once per batch here, each with the general loop's bits:
 * - the instance-step attributes' range test (eg_soft_fetch_quads_prep: the batch's largest
 *   instance) and their constant components; the vertex-step attributes are fetched for the first
 *   group only: every group's ids are first .. first + 3 repeated (the general loop's SAME VERTEX
 *   IDS finds them in place);
 * - the outputs and the position are cleared once where the program runs as one native function:
 *   such a program is one straight block whose stores are unmasked (soft_jit.c whole_ok; the
 *   interpreter's run of a partial group executes the same stores on its active lanes), and the VM
 *   never reads outputs (ST_OUT, ST_POS only), so every run writes the same components of every
 *   lane read afterwards and the others keep the 0 the general loop would clear them to before
 *   each group; otherwise they are cleared per group as there;
 * - the uniform words (eg_soft_program_batch_prep) and the varyings' source rows.
 * The position rows go to vstore only for 4 slots with a nonzero code (classify_body's quads): a
 * quad's two triangles use only its own 4 slots, and a slot's position is read only by
 * clip_triangle (a triangle with a nonzero code), lines and points (never here: triangles) and
 * classify_slots past the last whole 4 (none: groups of 4 slots). */
static void shade_quads(const batch_t *b, const lanes_k_t *lk, bool soa)
{
    const struct eg_soft_raster_pipeline *rs = b->rs;
    uint32_t zero_mask = rs->vsi ? rs->vsi->output_mask : ~0u;   /* shade_vertices' */
    for (uint32_t j = 0; j < rs->nvary; j++) zero_mask |= 1u << rs->vary_loc[j];
    zero_mask &= (uint32_t)((1ull << EG_SOFT_MAX_LOCATIONS) - 1u);
    fetch_set_t fs;
    fetch_prep(b, &fs);
    uint32_t inst_max = 0;
    for (uint32_t s = 0; s < b->nslots; s += 4u) inst_max = slot_inst[s] > inst_max ? slot_inst[s] : inst_max;
    const bool inst_in = fs.ninst && eg_soft_fetch_quads_prep(fs.inst, fs.ninst, inst_max);
    fetch_vert(&fs, 0, eg_min_u32(EG_SOFT_LANES, b->nslots));
    /* the varyings' rows, 4 at a time, zeros past nvary (shade_vertices' LANES_VEC tail) */
    static const float zeros[EG_SOFT_LANES];
    const float *vsrc[EG_SOFT_MAX_VARY];
    const uint32_t nv4 = (rs->nvary + 3u) & ~3u;
#if defined(__SSE__)
    /* a last 1 or 2 varyings by lanes2_to_vtx */
    const uint32_t nv2 = rs->nvary % 4u == 1u || rs->nvary % 4u == 2u ? rs->nvary & ~3u : nv4;
#else
    const uint32_t nv2 = nv4;
#endif
    for (uint32_t j = 0; j < nv4; j++) vsrc[j] = j < rs->nvary ? vs_out[rs->vary_loc[j]].c[rs->vary_comp[j]].f : zeros;
    eg_soft_invocation_t inv;
    eg_memset(&inv, 0, sizeof inv);
    inv.in = vs_in;
    inv.out = vs_out;
    inv.regs = eg_soft_worker_main.vm_regs;   /* (shade_vertices') */
    const bool whole = eg_soft_program_batch_prep(rs->vs, &b->ps->bound, inv.regs);
    for (uint32_t m = zero_mask; m; m &= m - 1u) eg_memset(&vs_out[__builtin_ctz(m)], 0, sizeof vs_out[0]);
    const float *const pos[4] = { inv.position.c[0].f, inv.position.c[1].f, inv.position.c[2].f,
                                  inv.position.c[3].f };
    for (uint32_t base = 0; base < b->nslots; base += EG_SOFT_LANES) {
        const uint32_t n = eg_min_u32(EG_SOFT_LANES, b->nslots - base);
        if (!whole && base) {
            eg_memset(&inv.position, 0, sizeof inv.position);
            for (uint32_t m = zero_mask; m; m &= m - 1u) eg_memset(&vs_out[__builtin_ctz(m)], 0, sizeof vs_out[0]);
        }
        if (fs.ninst) {
            if (inst_in) {
                eg_soft_fetch_quads_in(fs.inst, fs.ninst, &slot_inst[base], n / 4u);
            } else {
                uint32_t gmax;
                (void)runs_of_4(&slot_inst[base], n, &gmax);   /* (runs of 4 by construction) */
                eg_soft_fetch_quads(fs.inst, fs.ninst, &slot_inst[base], n / 4u, gmax);
            }
            eg_soft_fetch_quad_groups++;
        }
        if (n == EG_SOFT_LANES) {
            __builtin_memcpy(inv.vertex_index.u, &slot_vid[base], sizeof inv.vertex_index.u);
            __builtin_memcpy(inv.instance_index.u, &slot_inst[base], sizeof inv.instance_index.u);
        } else {   /* the last group: lanes past n 0 (as shade_vertices') */
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                inv.vertex_index.u[l] = l < n ? slot_vid[base + l] : 0u;
                inv.instance_index.u[l] = l < n ? slot_inst[base + l] : 0u;
            }
        }
        inv.active = (eg_soft_mask_t)((1u << n) - 1u);
        if (whole && n == EG_SOFT_LANES) eg_soft_program_batch_run(rs->vs, &inv);
        else eg_soft_program_run(rs->vs, &b->ps->bound, &inv);
        if (soa) classify_body(lk, pos, n, base, true, true);
        else classify_body(lk, pos, n, base, true, false);
        uint32_t j = 0;
        for (; j < nv2; j += 4u)
            lanes_to_vtx(&vsrc[j], n, &vstore[base], offsetof(eg_soft_vtx_t, var) + j * sizeof(float));
#if defined(__SSE__)
        if (j < nv4) lanes2_to_vtx(vsrc[j], vsrc[j + 1u], n, &vstore[base], offsetof(eg_soft_vtx_t, var) + j * sizeof(float));
#endif
    }
}
#endif

/* ---- clipping ---- */

static float plane_dist(const float p[5], const float *pos)
{
    return p[0] * pos[0] + p[1] * pos[1] + p[2] * pos[2] + p[3] * pos[3] + p[4];
}

/* Interpolates from the inside vertex `in` towards `out`, so a shared edge clips to the same
 * point whichever triangle it belongs to. */
static void lerp_vtx(const batch_t *b, const eg_soft_vtx_t *in, const eg_soft_vtx_t *out, float din, float dout,
                     eg_soft_vtx_t *dst)
{
    float t = din / (din - dout);
    for (uint32_t c = 0; c < 4; c++) dst->pos[c] = in->pos[c] + t * (out->pos[c] - in->pos[c]);
    for (uint32_t j = 0; j < b->rs->nvary; j++) dst->var[j] = in->var[j] + t * (out->var[j] - in->var[j]);
}

static void to_window(const eg_soft_pass_state_t *ps, const eg_soft_vtx_t *v, float *x, float *y, float *z, float *invw)
{
    float iw = 1.0f / v->pos[3];
    *x = ps->vp_x + (v->pos[0] * iw + 1.0f) * (ps->vp_w * 0.5f);
    *y = ps->vp_y + (1.0f - v->pos[1] * iw) * (ps->vp_h * 0.5f);
    *z = ps->vp_min_z + v->pos[2] * iw * (ps->vp_max_z - ps->vp_min_z);
    *invw = iw;
}

static void emit_triangle(const batch_t *b, const eg_soft_vtx_t *v0, const eg_soft_vtx_t *v1,
                          const eg_soft_vtx_t *v2, const eg_soft_vtx_t *prov)
{
    eg_soft_tri_t t;
    const eg_soft_vtx_t *v[3] = { v0, v1, v2 };
    for (uint32_t i = 0; i < 3; i++) {
        to_window(b->ps, v[i], &t.x[i], &t.y[i], &t.z[i], &t.invw[i]);
        t.v[i] = v[i];
    }
    t.prov = prov;
    t.is_polygon = true;
    eg_soft_bin_triangle(b->ps, &t);
}

static void clip_triangle(const batch_t *b, const eg_soft_vtx_t *v0, const eg_soft_vtx_t *v1, const eg_soft_vtx_t *v2)
{
    const eg_soft_vtx_t *poly[2][12];
    float d[3];
    uint32_t n = 3, cur = 0, used = 0, outside_any = 0;
    poly[0][0] = v0; poly[0][1] = v1; poly[0][2] = v2;
    for (uint32_t p = 0; p < b->nplanes; p++) {
        uint32_t out = 0;
        for (uint32_t i = 0; i < 3; i++) { d[i] = plane_dist(b->planes[p], poly[0][i]->pos); out += d[i] < 0.0f; }
        if (out == 3) return;                  /* trivially outside one plane */
        outside_any |= out;
    }
    if (!outside_any) { emit_triangle(b, v0, v1, v2, v0); return; }
    for (uint32_t p = 0; p < b->nplanes && n >= 3; p++) {
        const eg_soft_vtx_t **src = poly[cur], **dst = poly[cur ^ 1u];
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            const eg_soft_vtx_t *a = src[i], *c = src[(i + 1u) % n];
            float da = plane_dist(b->planes[p], a->pos), dc = plane_dist(b->planes[p], c->pos);
            if (da >= 0.0f) dst[m++] = a;
            if ((da >= 0.0f) != (dc >= 0.0f) && used < EG_ARRAY_LEN(clip_pool) && m < 12u) {
                eg_soft_vtx_t *nv = &clip_pool[used++];
                if (da >= 0.0f) lerp_vtx(b, a, c, da, dc, nv);
                else lerp_vtx(b, c, a, dc, da, nv);
                dst[m++] = nv;
            }
        }
        n = m;
        cur ^= 1u;
    }
    for (uint32_t i = 1; i + 1 < n; i++) emit_triangle(b, poly[cur][0], poly[cur][i], poly[cur][i + 1], v0);
}

/* ---- lines and points (non-polygon primitives through the triangle path) ---- */

static void emit_quad(const batch_t *b, const float x[4], const float y[4], const float z[4], const float iw[4],
                      const eg_soft_vtx_t *v[4], const eg_soft_vtx_t *prov)
{
    static const uint8_t tri[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
    for (uint32_t k = 0; k < 2; k++) {
        eg_soft_tri_t t;
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t q = tri[k][i];
            t.x[i] = x[q]; t.y[i] = y[q]; t.z[i] = z[q]; t.invw[i] = iw[q]; t.v[i] = v[q];
        }
        t.prov = prov;
        t.is_polygon = false;
        eg_soft_bin_triangle(b->ps, &t);
    }
}

static void draw_point(const batch_t *b, const eg_soft_vtx_t *v)
{
    for (uint32_t p = 0; p < b->nplanes; p++)
        if (plane_dist(b->planes[p], v->pos) < 0.0f) return;
    float x, y, z, iw;
    to_window(b->ps, v, &x, &y, &z, &iw);
    const float qx[4] = { x - 0.5f, x + 0.5f, x + 0.5f, x - 0.5f }, qy[4] = { y - 0.5f, y - 0.5f, y + 0.5f, y + 0.5f };
    const float qz[4] = { z, z, z, z }, qw[4] = { iw, iw, iw, iw };
    const eg_soft_vtx_t *vv[4] = { v, v, v, v };
    emit_quad(b, qx, qy, qz, qw, vv, v);
}

static void draw_line(const batch_t *b, const eg_soft_vtx_t *v0, const eg_soft_vtx_t *v1)
{
    float t0 = 0.0f, t1 = 1.0f;
    for (uint32_t p = 0; p < b->nplanes; p++) {
        float d0 = plane_dist(b->planes[p], v0->pos), d1 = plane_dist(b->planes[p], v1->pos);
        if (d0 < 0.0f && d1 < 0.0f) return;
        if (d0 < 0.0f) { float t = d0 / (d0 - d1); if (t > t0) t0 = t; }
        else if (d1 < 0.0f) { float t = d0 / (d0 - d1); if (t < t1) t1 = t; }
    }
    if (t0 >= t1) return;
    const eg_soft_vtx_t *e[2] = { v0, v1 };
    if (t0 > 0.0f) { lerp_vtx(b, v0, v1, 1.0f, 1.0f - 1.0f / t0, &clip_pool[0]); e[0] = &clip_pool[0]; }
    if (t1 < 1.0f) { lerp_vtx(b, v0, v1, 1.0f, 1.0f - 1.0f / t1, &clip_pool[1]); e[1] = &clip_pool[1]; }
    float x[2], y[2], z[2], iw[2];
    for (uint32_t i = 0; i < 2; i++) to_window(b->ps, e[i], &x[i], &y[i], &z[i], &iw[i]);
    float dx = x[1] - x[0], dy = y[1] - y[0];
    bool xmajor = (dx < 0 ? -dx : dx) >= (dy < 0 ? -dy : dy);
    float ox = xmajor ? 0.0f : 0.5f, oy = xmajor ? 0.5f : 0.0f;
    const float qx[4] = { x[0] - ox, x[0] + ox, x[1] + ox, x[1] - ox };
    const float qy[4] = { y[0] - oy, y[0] + oy, y[1] + oy, y[1] - oy };
    const float qz[4] = { z[0], z[0], z[1], z[1] }, qw[4] = { iw[0], iw[0], iw[1], iw[1] };
    const eg_soft_vtx_t *vv[4] = { e[0], e[0], e[1], e[1] };
    emit_quad(b, qx, qy, qz, qw, vv, v0);
}

/* ---- batches ---- */

/* A position with a NaN or infinite component: the primitive is dropped (the result is
 * undefined in Vulkan / WebGPU, and it must not reach fixed-point setup). The test
 * !(p >= -3e38 && p <= 3e38) on the bits: IEEE magnitudes order as their bit patterns and every
 * NaN's lies above infinity's, so it holds iff the largest magnitude's bits exceed 3e38f's
 * (branch-free: the four compares and branches were ~30 instructions a vertex). */
EG_MAYBE_UNUSED static inline bool bad_pos(const eg_soft_vtx_t *v)   /* unused where code_sse serves (clang warns) */
{
    static const union { float f; uint32_t u; } lim = { 3.0e38f };
    uint32_t worst = 0;
    for (uint32_t c = 0; c < 4; c++) {
        union { float f; uint32_t u; } bits = { v->pos[c] };   /* C11 type punning through a union */
        uint32_t m = bits.u & 0x7fffffffu;
        worst = m > worst ? m : worst;
    }
    return worst > lim.u;
}

_Static_assert(EG_ARRAY_LEN(((batch_t *)0)->planes) < 8, "clip plane bits below CODE_BAD");

/* setup_planes's nonzero coefficients, read once per batch into locals (the stores into
 * slot_win may alias the batch's floats, so the compiler reloaded them per vertex). */
typedef struct plane_k {
    float x0, w0, x1, w1, y2, w2, y3, w3, e4, z6, w6;
    bool depth;
} plane_k_t;

static plane_k_t plane_k(const batch_t *b)
{
    const float (*p)[5] = b->planes;
    plane_k_t k = { p[0][0], p[0][3], p[1][0], p[1][3], p[2][1], p[2][3], p[3][1], p[3][3], p[4][4], 0.0f, 0.0f,
                    b->nplanes > 5 };
    if (k.depth) { k.z6 = p[6][2]; k.w6 = p[6][3]; }
    return k;
}

/* The outcodes of setup_planes's planes with their zero coefficients left out: for a finite
 * position each dropped term is a signed zero, which changes at most the sign of a zero sum,
 * never the `< 0` test (the generic plane_dist loop was ~30 % of the front end). */
EG_MAYBE_UNUSED static EG_ALWAYS_INLINE uint32_t outcode(const plane_k_t *k, const float *pos)
{
    float x = pos[0], y = pos[1], z = pos[2], w = pos[3];
    uint32_t code = (uint32_t)(k->x0 * x + k->w0 * w < 0.0f) | (uint32_t)(k->x1 * x + k->w1 * w < 0.0f) << 1 |
                    (uint32_t)(k->y2 * y + k->w2 * w < 0.0f) << 2 | (uint32_t)(k->y3 * y + k->w3 * w < 0.0f) << 3 |
                    (uint32_t)(w + k->e4 < 0.0f) << 4;
    if (k->depth) code |= (uint32_t)(z < 0.0f) << 5 | (uint32_t)(k->z6 * z + k->w6 * w < 0.0f) << 6;
    return code;
}

#if defined(VM_SIMD_NATIVE) && VM_VW == 4 && defined(__SSE2__)
/* bad_pos and then outcode with 4-lane vectors (x86-64): the magnitudes' test in four lanes,
 * and planes 0-3 as the same per-lane products, sums and `< 0` compares (IEEE per lane); their
 * bits by movmskps. The scalar pair was ~90 instructions a vertex on the 20k-triangle rows. */
#define CODE_SSE 1
/* Planes 4-6 (w + e4, z, z6 z + w6 w) are a second vector of the same operations: lane 0
 * 1 w + 1 e4, lane 1 1 z + 0 0 (z + 0 is below 0 iff z is), lane 2 z6 z + w w6, lane 3 0;
 * without depth clipping lanes 1 and 2 are 0 z + 0 (+-0: never below 0, z and w being finite
 * here). Multiplying by 1 and the commuted product change no bits (the scalar tests were ~15
 * instructions a vertex). */
static EG_ALWAYS_INLINE uint32_t code_sse(vf_t kx, vf_t kw, vf_t ka, vf_t kb, const float *pos, bool tri)
{
    static const union { float f; int32_t i; } lim = { 3.0e38f };
    const vi_t mag_mask = { 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff }, vlim = { lim.i, lim.i, lim.i, lim.i };
    vi_t pi;
    VLOAD(pi, pos);
    if (__builtin_ia32_movmskps((vf_t)((pi & mag_mask) > vlim))) return CODE_BAD;
    if (!tri) return 0;
    float x = pos[0], y = pos[1], z = pos[2], w = pos[3];
    const vf_t xy = { x, x, y, y }, ww = { w, w, w, w }, zero = { 0, 0, 0, 0 };
    const vf_t wzz = { w, z, z, 0 }, o_w = { 1, 0, w, 0 };
    return (uint32_t)__builtin_ia32_movmskps((vf_t)(kx * xy + kw * ww < zero)) |
           (uint32_t)__builtin_ia32_movmskps((vf_t)(ka * wzz + o_w * kb < zero)) << 4;
}
#else
#define CODE_SSE 0
#endif

/* Slots first .. nslots - 1 (classify_lanes did those before first). */
static void classify_slots(const batch_t *b, uint32_t first)
{
    const plane_k_t k = plane_k(b);
#if CODE_SSE
    const vf_t kx = { k.x0, k.x1, k.y2, k.y3 }, kw = { k.w0, k.w1, k.w2, k.w3 };
    const vf_t ka = { 1.0f, k.depth ? 1.0f : 0.0f, k.depth ? k.z6 : 0.0f, 0.0f };
    const vf_t kb = { k.e4, 0.0f, k.depth ? k.w6 : 0.0f, 0.0f };
#endif
    const eg_soft_pass_state_t *ps = b->ps;
    /* to_window's per-draw factors, the same expressions, once per batch */
    const float vx = ps->vp_x, vy = ps->vp_y, hw = ps->vp_w * 0.5f, hh = ps->vp_h * 0.5f;
    const float z0 = ps->vp_min_z, dz = ps->vp_max_z - ps->vp_min_z;
    const bool tri = b->verts_per_prim == 3, cull = b->cull;
    const uint32_t n = b->nslots;
    for (uint32_t i = first; i < n; i++) {
        const eg_soft_vtx_t *v = &vstore[i];
#if CODE_SSE
        uint32_t code = code_sse(kx, kw, ka, kb, v->pos, tri);
#else
        uint32_t code = bad_pos(v) ? CODE_BAD : 0u;
        if (!code && tri) code = outcode(&k, v->pos);
#endif
        slot_code[i] = (uint8_t)code;
        if (!code && tri) {   /* to_window's values */
            float iw = 1.0f / v->pos[3];
            float x = vx + (v->pos[0] * iw + 1.0f) * hw, y = vy + (1.0f - v->pos[1] * iw) * hh;
            slot_win[i][0] = x;
            slot_win[i][1] = y;
            slot_win[i][2] = z0 + v->pos[2] * iw * dz;
            slot_win[i][3] = iw;
            if (cull) {   /* for culled_slots */
                slot_snap[i][0] = eg_soft_snap(x);
                slot_snap[i][1] = eg_soft_snap(y);
            }
        }
    }
}

/* With face culling on: whether soft_raster.c tri_setup would drop the triangle of slots s (all
 * inside the clip planes, as emit_slots hands it over) as zero-area or culled: its test on the
 * same snapped coordinates, per vertex here rather than per triangle (helper "tex8"). Such
 * triangles draw nothing and touch no state, so they need not be binned: half of a closed mesh. */
static EG_ALWAYS_INLINE bool culled_slots(const batch_t *b, const uint16_t *s)
{
    const struct eg_soft_raster_pipeline *rs = b->rs;
    const int32_t *p0 = slot_snap[s[0]], *p1 = slot_snap[s[1]], *p2 = slot_snap[s[2]];
    int64_t area2 = ((int64_t)p1[1] - p2[1]) * ((int64_t)p0[0] - p1[0]) + ((int64_t)p2[0] - p1[0]) * ((int64_t)p0[1] - p1[1]);
    bool front = (area2 < 0) != !rs->front_ccw;
    return area2 == 0 || (front && rs->cull_front) || (!front && rs->cull_back);
}

/* A triangle inside every clip plane: window coordinates from the slots (the values
 * emit_triangle would compute). */
static EG_ALWAYS_INLINE void slots_tri(const uint16_t *s, eg_soft_tri_t *t)
{
#if LANES_VEC
    /* the three slots' (x, y, z, 1/w) rows transposed into x[3], y[3], z[3], invw[3]: each
     * column store writes a 4th float into the next field, which the next store (or v[0])
     * overwrites (the element-wise copy was ~35 instructions a triangle) */
    _Static_assert(offsetof(eg_soft_tri_t, y) == offsetof(eg_soft_tri_t, x) + 12 &&
                       offsetof(eg_soft_tri_t, z) == offsetof(eg_soft_tri_t, y) + 12 &&
                       offsetof(eg_soft_tri_t, invw) == offsetof(eg_soft_tri_t, z) + 12 &&
                       offsetof(eg_soft_tri_t, v) >= offsetof(eg_soft_tri_t, invw) + 12 &&
                       sizeof(eg_soft_tri_t) >= offsetof(eg_soft_tri_t, invw) + 16,
                   "emit_slots' column stores");
    {
        vf_t r0, r1, r2;
        const vf_t r3 = { 0.0f, 0.0f, 0.0f, 0.0f };
        VLOAD(r0, slot_win[s[0]]);
        VLOAD(r1, slot_win[s[1]]);
        VLOAD(r2, slot_win[s[2]]);
        float *const tf = (float *)(void *)((unsigned char *)t + offsetof(eg_soft_tri_t, x));
        transpose4_store(r0, r1, r2, r3, tf, tf + 3, tf + 6, tf + 9);
    }
    for (uint32_t i = 0; i < 3; i++) t->v[i] = &vstore[s[i]];
#else
    for (uint32_t i = 0; i < 3; i++) {
        t->x[i] = slot_win[s[i]][0]; t->y[i] = slot_win[s[i]][1];
        t->z[i] = slot_win[s[i]][2]; t->invw[i] = slot_win[s[i]][3];
        t->v[i] = &vstore[s[i]];
    }
#endif
    t->prov = t->v[0];
    t->is_polygon = true;
}

#if LANES_VEC
/* slots_tri of a 4-vertex strip's primitives {a, a + 1, a + 2} and {a + 1, a + 3, a + 2}: the
 * four slots' rows transposed once into x, y, z, 1/w vectors of slots a .. a + 3, stored as they
 * are for the first triangle and permuted (1, 3, 2) for the second, the same column stores and
 * spills as slots_tri (plain moves: the same bits; two slots_tri were ~50 instructions a quad). */
static EG_ALWAYS_INLINE void quad_tris_of(vf_t x, vf_t y, vf_t z, vf_t w, uint32_t a, eg_soft_tri_t t[2]);

static EG_ALWAYS_INLINE void quad_tris(uint32_t a, eg_soft_tri_t t[2])
{
    vf_t r0, r1, r2, r3;
    VLOAD(r0, slot_win[a]);
    VLOAD(r1, slot_win[a + 1u]);
    VLOAD(r2, slot_win[a + 2u]);
    VLOAD(r3, slot_win[a + 3u]);
    const vf_t ab0 = __builtin_shuffle(r0, r1, (vi_t){ 0, 4, 1, 5 }), ab1 = __builtin_shuffle(r0, r1, (vi_t){ 2, 6, 3, 7 });
    const vf_t cd0 = __builtin_shuffle(r2, r3, (vi_t){ 0, 4, 1, 5 }), cd1 = __builtin_shuffle(r2, r3, (vi_t){ 2, 6, 3, 7 });
    const vf_t x = __builtin_shuffle(ab0, cd0, (vi_t){ 0, 1, 4, 5 }), y = __builtin_shuffle(ab0, cd0, (vi_t){ 2, 3, 6, 7 });
    const vf_t z = __builtin_shuffle(ab1, cd1, (vi_t){ 0, 1, 4, 5 }), w = __builtin_shuffle(ab1, cd1, (vi_t){ 2, 3, 6, 7 });
    quad_tris_of(x, y, z, w, a, t);
}

/* quad_tris' stores: x, y, z, w are slots a .. a + 3's window values */
static EG_ALWAYS_INLINE void quad_tris_of(vf_t x, vf_t y, vf_t z, vf_t w, uint32_t a, eg_soft_tri_t t[2])
{
    const vi_t odd = { 1, 3, 2, 0 };
    const vf_t x1 = __builtin_shuffle(x, odd), y1 = __builtin_shuffle(y, odd);
    const vf_t z1 = __builtin_shuffle(z, odd), w1 = __builtin_shuffle(w, odd);
    float *const t0 = (float *)(void *)((unsigned char *)&t[0] + offsetof(eg_soft_tri_t, x));
    float *const t1 = (float *)(void *)((unsigned char *)&t[1] + offsetof(eg_soft_tri_t, x));
    VSTORE(t0, x); VSTORE(t0 + 3, y); VSTORE(t0 + 6, z); VSTORE(t0 + 9, w);
    VSTORE(t1, x1); VSTORE(t1 + 3, y1); VSTORE(t1 + 6, z1); VSTORE(t1 + 9, w1);
    const eg_soft_vtx_t *v = &vstore[a];
    t[0].v[0] = v; t[0].v[1] = v + 1; t[0].v[2] = v + 2;
    t[1].v[0] = v + 1; t[1].v[1] = v + 3; t[1].v[2] = v + 2;
    t[0].prov = t[0].v[0];
    t[1].prov = t[1].v[0];
    t[0].is_polygon = t[1].is_polygon = true;
}

#endif

static EG_ALWAYS_INLINE void emit_slots(const batch_t *b, const uint16_t *s)
{
    eg_soft_tri_t t;
    slots_tri(s, &t);
    eg_soft_bin_triangle(b->ps, &t);
}

/* Whether primitive n, the one after s, goes with s to eg_soft_bin_pair (pair11): inside every
 * clip plane, not culled, and two of its vertices at two of s's window positions (a quad's
 * halves: an instanced glyph strip's share the slots, a list's repeat the positions). Only a
 * filter: the span path checks the pair's edges itself. */
#define PAIR_QUAD 2u   /* pair_next: a 4-vertex strip's two primitives (quad_tris applies) */
static uint32_t pair_next(const batch_t *b, const uint16_t *s, const uint16_t *n)
{
    if (slot_code[n[0]] | slot_code[n[1]] | slot_code[n[2]]) return 0;
    uint32_t shared = 2u, quad = PAIR_QUAD;
    /* a 4-vertex strip's two primitives {a, a + 1, a + 2} {a + 1, a + 3, a + 2} (draw_strip_fresh's
     * slots) share exactly two slots: the count below without its 9 compares (~25 instructions a
     * quad on the UI row) */
    const uint32_t a = s[0];
    if (s[1] != a + 1u || s[2] != a + 2u || n[0] != a + 1u || n[1] != a + 3u || n[2] != a + 2u) {
        shared = 0;
        quad = 1u;
        for (uint32_t i = 0; i < 3u; i++) shared += (s[i] == n[0]) + (s[i] == n[1]) + (s[i] == n[2]);
    }
    if (shared != 2u) {   /* not a strip's: the positions */
        shared = 0;
        for (uint32_t i = 0; i < 3u; i++)
            for (uint32_t j = 0; j < 3u; j++)
                shared += slot_win[s[i]][0] == slot_win[n[j]][0] && slot_win[s[i]][1] == slot_win[n[j]][1];
    }
    return shared == 2u && !(b->cull && culled_slots(b, n)) ? quad : 0u;
}

/* Primitive i of the batch to the binner (clipped, paired with i + 1 or alone); the next one. */
static EG_ALWAYS_INLINE uint32_t flush_prim(batch_t *b, uint32_t i, bool pairs)
{
    const uint16_t *s = prim_slots[i];
    uint32_t any = 0, all = 0xFFu;
    if (b->verts_per_prim == 3) {   /* the loop below, unrolled for triangles */
        uint32_t c0 = slot_code[s[0]], c1 = slot_code[s[1]], c2 = slot_code[s[2]];
        any = c0 | c1 | c2;
        all = c0 & c1 & c2;
    } else {
        for (uint32_t k = 0; k < b->verts_per_prim; k++) { any |= slot_code[s[k]]; all &= slot_code[s[k]]; }
    }
    if (any & CODE_BAD) return i + 1u;
    if (b->verts_per_prim == 3) {
        if (all) return i + 1u;                /* all three outside one plane */
        if (!any) {
            if (b->cull && culled_slots(b, s)) return i + 1u;
            uint32_t pair;
            if (pairs && i + 1u < b->nprims && (pair = pair_next(b, s, prim_slots[i + 1u])) != 0u) {
                eg_soft_tri_t t[2];
#if LANES_VEC
                if (pair == PAIR_QUAD) {
                    quad_tris(s[0], t);
                    i++;
                } else
#endif
                {
                    slots_tri(s, &t[0]);
                    slots_tri(prim_slots[++i], &t[1]);
                }
                eg_soft_bin_pair(b->ps, &t[0], &t[1]);
            } else {
                emit_slots(b, s);
            }
        }
        else clip_triangle(b, &vstore[s[0]], &vstore[s[1]], &vstore[s[2]]);
    } else if (b->verts_per_prim == 2) draw_line(b, &vstore[s[0]], &vstore[s[1]]);
    else draw_point(b, &vstore[s[0]]);
    return i + 1u;
}

#if CLASSIFY_LANES
/* Whether flush takes flush_quads (and shade_quads the quad windows): a quad batch whose quads
 * pair (flush's `pairs`) and are not culled. */
static bool quads_soa(const batch_t *b)
{
    return b->quads && b->verts_per_prim == 3u && !b->cull && (eg_soft_span_pairs(b->rs) || eg_soft_rect_pairs(b->rs));
}

/* flush_prim for flush_quads' other primitives (few: out of line, flush's loop keeps its code) */
static EG_NOINLINE uint32_t flush_prim_out(batch_t *b, uint32_t i)
{
    return flush_prim(b, i, true);
}

static EG_ALWAYS_INLINE void run_out(const batch_t *b, uint32_t q0, uint32_t k)
{
    eg_soft_bin_pairs(b->ps, (const eg_soft_tri_t (*)[2])&quad_tri[q0], k);
    eg_soft_quad_run_quads += k;
}

/* slot_win's rows of quad q's slots from quad_tri (flush_prim reads those): slot a + 3 is t[1]'s
 * second vertex (rare: quads with a nonzero code) */
static void quad_rows(uint32_t q)
{
    const eg_soft_tri_t *t = quad_tri[q];
    const eg_soft_tri_t *const src[4] = { &t[0], &t[0], &t[0], &t[1] };
    static const uint8_t at[4] = { 0, 1, 2, 1 };
    for (uint32_t j = 0; j < 4u; j++) {
        float *r = slot_win[4u * q + j];
        r[0] = src[j]->x[at[j]];
        r[1] = src[j]->y[at[j]];
        r[2] = src[j]->z[at[j]];
        r[3] = src[j]->invw[at[j]];
    }
}

/* QUAD RUNS (vtxquad). flush_prim over a quad batch (b->quads) with pairs and no culling: a quad
 * (primitives 2 q, 2 q + 1 on slots 4 q .. 4 q + 3) whose 4 codes are 0 is what flush_prim does
 * with its first primitive (nothing to drop or clip; pair_next's strip test holds, so quad_tris
 * and one pair), found by one 4-byte load (vtxbin: 16 bytes for 4 quads) instead of flush_prim's
 * and pair_next's tests; the pairs of such quads in a row go to the binner as one run
 * (eg_soft_bin_pairs: the same order; raster_now's set-up once a run), read where classify_body
 * wrote them (quad_tri; vtxbin: any length, no copy). Anything else (a code, or a primitive left
 * odd by a pair made of two quads' halves) goes through flush_prim after the pending run, with the
 * slot_win rows of the quads it may read (quad_rows). ~60 instructions a quad less on the UI
 * glyphs (vtxbin: ~40 more). */
static void flush_quads(batch_t *b)
{
    uint32_t k = 0, q0 = 0;
    for (uint32_t i = 0; i < b->nprims;) {
        if (!(i & 7u) && i + 8u <= b->nprims) {   /* 4 quads' 16 codes (vtxbin: ~10 instructions a quad less) */
            uint64_t c16[2];
            __builtin_memcpy(c16, &slot_code[2u * i], 16);
            if (!(c16[0] | c16[1])) {
                if (!k) q0 = i / 2u;
                k += 4u;
                i += 8u;
                continue;
            }
        }
        uint32_t c4 = 1u;
        if (!(i & 1u)) __builtin_memcpy(&c4, &slot_code[2u * i], 4);
        if (c4 == 0) {
            if (!k) q0 = i / 2u;
            k++;
            i += 2u;
            continue;
        }
        if (k) {
            run_out(b, q0, k);
            k = 0;
        }
        quad_rows(i / 2u);   /* the slots primitives i and i + 1 (pair_next) use */
        if (i + 1u < b->nprims) quad_rows((i + 1u) / 2u);
        i = flush_prim_out(b, i);
    }
    if (k) run_out(b, q0, k);
}
#endif

static void flush(batch_t *b)
{
    if (b->nprims == 0) return;
#if CLASSIFY_LANES
    if (b->verts_per_prim == 3u && eg_soft_raster_fast_paths) {   /* (tests: off = classify_slots alone) */
        const plane_k_t k = plane_k(b);
        const eg_soft_pass_state_t *ps = b->ps;
        const float hw = ps->vp_w * 0.5f, hh = ps->vp_h * 0.5f, dz = ps->vp_max_z - ps->vp_min_z;
#define SPLAT_(v) { (v), (v), (v), (v) }
        const lanes_k_t lk = { SPLAT_(k.x0), SPLAT_(k.w0), SPLAT_(k.x1), SPLAT_(k.w1), SPLAT_(k.y2), SPLAT_(k.w2),
                               SPLAT_(k.y3), SPLAT_(k.w3), SPLAT_(k.e4), SPLAT_(k.z6), SPLAT_(k.w6),
                               SPLAT_(ps->vp_x), SPLAT_(ps->vp_y), SPLAT_(hw), SPLAT_(hh), SPLAT_(ps->vp_min_z),
                               SPLAT_(dz), k.depth, b->cull };
#undef SPLAT_
        if (b->quads) {
            if (!quad_tri_ready) quad_tri_ptrs();
            shade_quads(b, &lk, quads_soa(b));   /* (every slot: groups of 4) */
        } else {
            shade_vertices(b, &lk);
            classify_slots(b, b->nslots & ~3u);
        }
    } else
#endif
    {
        shade_vertices(b, NULL);
        classify_slots(b, 0);
    }
    const bool pairs = b->verts_per_prim == 3u && (eg_soft_span_pairs(b->rs) || eg_soft_rect_pairs(b->rs));
#if CLASSIFY_LANES
    if (quads_soa(b)) flush_quads(b);
    else
#endif
    {
        uint32_t i = 0;
        /* dead clears (soft_bin.c): the pass's first two triangles go as a pair, to be seen whole */
        if (!pairs && b->verts_per_prim == 3u && eg_soft_bin_fills_waiting()) i = flush_prim(b, 0, true);
        while (i < b->nprims) i = flush_prim(b, i, pairs);
    }
    b->nslots = 0;
    b->nprims = 0;
    eg_memset(hash_tab, 0, sizeof hash_tab);
}

/* Post-transform cache: the batch slot of (vertex id vid, the current instance), inserted if
 * new; VB+ when full. Instances share batches (small instanced quads fill the VM's lanes); the
 * shaded values depend only on (vid, instance), so the bytes are those of one batch each. */
static uint32_t slot_of(batch_t *b, uint32_t vid)
{
    uint32_t h = (vid * 2654435761u ^ b->instance * 0x9E3779B9u) % HASH_N;
    for (;;) {
        uint32_t s = hash_tab[h];
        if (s == 0) break;
        if (slot_vid[s - 1u] == vid && slot_inst[s - 1u] == b->instance) return s - 1u;
        h = (h + 1u) % HASH_N;
    }
    if (b->nslots == VB) return VB;
    slot_vid[b->nslots] = vid;
    slot_inst[b->nslots] = b->instance;
    hash_tab[h] = (uint16_t)(b->nslots + 1u);
    return b->nslots++;
}

static void add_prim(batch_t *b, const uint32_t *vid)
{
    uint32_t s[3] = { 0, 0, 0 };
    for (int attempt = 0; attempt < 2; attempt++) {
        bool ok = b->nprims < PB;
        for (uint32_t i = 0; ok && i < b->verts_per_prim; i++) {
            s[i] = slot_of(b, vid[i]);
            ok = s[i] < VB;
        }
        if (ok) break;
        flush(b);      /* the batch is full: shade and draw it, then start over with this one */
    }
    for (uint32_t i = 0; i < 3; i++) prim_slots[b->nprims][i] = (uint16_t)s[i];
    b->nprims++;
}

/* add_prim for a draw whose vertex ids never repeat within an instance (non-indexed lists:
 * element i is vertex first + i): the post-transform cache can never hit, so the slots are taken
 * in order without the hash (~120 instructions a triangle). A batch still ends when the vertex
 * store or the primitive list is full; where it ends does not change the bytes (a vertex's shaded
 * values depend only on its vertex id and instance, and primitives are binned in order). */
static void add_prim_fresh(batch_t *b, const uint32_t *vid)
{
    uint32_t n = b->verts_per_prim;
    if (b->nprims == PB || b->nslots + n > VB) flush(b);
    uint16_t *ps = prim_slots[b->nprims++];
    for (uint32_t i = 0; i < 3u; i++) {
        uint32_t s = i < n ? b->nslots++ : 0u;
        if (i < n) { slot_vid[s] = vid[i]; slot_inst[s] = b->instance; }
        ps[i] = (uint16_t)s;
    }
}

static void setup_planes(batch_t *b)
{
    const eg_soft_pass_state_t *ps = b->ps;
    float hw = ps->vp_w * 0.5f, hh = ps->vp_h * 0.5f, g = EG_SOFT_GUARD_PX;
    uint32_t n = 0;
    float (*p)[5] = b->planes;
    /* outcode() hard-codes which coefficients below are zero: keep the two in step. */
    /* x_window >= -g, x_window <= g, y likewise, multiplied out by w > 0. */
    p[n][0] = hw;  p[n][1] = 0; p[n][2] = 0; p[n][3] = ps->vp_x + hw + g;  p[n++][4] = 0;
    p[n][0] = -hw; p[n][1] = 0; p[n][2] = 0; p[n][3] = g - ps->vp_x - hw;  p[n++][4] = 0;
    p[n][0] = 0; p[n][1] = -hh; p[n][2] = 0; p[n][3] = ps->vp_y + hh + g; p[n++][4] = 0;
    p[n][0] = 0; p[n][1] = hh;  p[n][2] = 0; p[n][3] = g - ps->vp_y - hh; p[n++][4] = 0;
    /* w > 0 (a small epsilon keeps 1/w finite), then WebGPU's 0 <= z <= w. */
    p[n][0] = 0; p[n][1] = 0; p[n][2] = 0; p[n][3] = 1.0f; p[n++][4] = -1e-6f;
    if (b->rs->clip_depth) {
        p[n][0] = 0; p[n][1] = 0; p[n][2] = 1.0f;  p[n][3] = 0;    p[n++][4] = 0;
        p[n][0] = 0; p[n][1] = 0; p[n][2] = -1.0f; p[n][3] = 1.0f; p[n++][4] = 0;
    }
    b->nplanes = n;
}

/* The vertex id of element i, or false for a restart index. */
static bool vertex_id(const eg_soft_pass_state_t *ps, const eg_soft_draw_args_t *a, bool restart,
                      uint32_t i, uint32_t *vid)
{
    if (!a->indexed) { *vid = a->first + i; return true; }
    uint32_t idx;
    const uint8_t *p = ps->ibuf.mem;
    if (ps->index_format == WGPUIndexFormat_Uint16) {
        p += ((size_t)a->first + i) * 2u;
        idx = (uint32_t)p[0] | (uint32_t)p[1] << 8;
        if (restart && idx == 0xFFFFu) return false;
    } else {
        p += ((size_t)a->first + i) * 4u;
        idx = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        if (restart && idx == 0xFFFFFFFFu) return false;
    }
    *vid = (uint32_t)((int32_t)idx + a->base_vertex);
    return true;
}

/* draw_instance for a triangle list with 16-bit indices (tex8): the same vertex ids
 * (vertex_id's little-endian read plus base_vertex; lists know no restart index) handed to
 * add_prim three at a time, a trailing partial triangle dropped as there. */
static void draw_tris_u16(batch_t *b, const eg_soft_draw_args_t *a)
{
    const uint8_t *p = b->ps->ibuf.mem + (size_t)a->first * 2u;
    for (uint32_t i = 0; i + 3u <= a->count; i += 3u, p += 6) {
        uint32_t vid[3];
        for (uint32_t k = 0; k < 3u; k++)
            vid[k] = (uint32_t)((int32_t)((uint32_t)p[2u * k] | (uint32_t)p[2u * k + 1u] << 8) + a->base_vertex);
        /* add_prim for 3 vertices, its loops written out (~25 instructions a triangle on the
         * textured mesh): the same look-ups in the same order, a flush and a second try where
         * the batch is full */
        uint32_t s0 = VB, s1 = VB, s2 = VB;
        if (b->nprims < PB && (s0 = slot_of(b, vid[0])) < VB && (s1 = slot_of(b, vid[1])) < VB)
            s2 = slot_of(b, vid[2]);
        if (s2 >= VB) {
            flush(b);
            s0 = slot_of(b, vid[0]);
            s1 = slot_of(b, vid[1]);
            s2 = slot_of(b, vid[2]);
        }
        uint16_t *ps = prim_slots[b->nprims++];
        ps[0] = (uint16_t)s0; ps[1] = (uint16_t)s1; ps[2] = (uint16_t)s2;
    }
}

/* draw_instance for a non-indexed triangle strip that fits in a batch (instanced quads: 4
 * vertices an instance): its vertex ids first .. first + count - 1 are all new in this instance,
 * so they take consecutive slots without the post-transform cache, and strip primitive i is
 * slots {i, i + 1 + i % 2, i + 2 - i % 2} of them, the ids add_prim gets from the sliding
 * window (~190 instructions a glyph triangle in the window, add_prim and the hash). A strip that
 * does not fit in what is left of the batch starts a new one: where a batch ends does not change
 * the bytes (add_prim_fresh). */
static void draw_strip_fresh(batch_t *b, const eg_soft_draw_args_t *a)
{
    uint32_t n = a->count, np = n - 2u;
    if (b->nslots + n > VB || b->nprims + np > PB) flush(b);
    uint32_t s0 = b->nslots;
    for (uint32_t i = 0; i < n; i++) {
        slot_vid[s0 + i] = a->first + i;
        slot_inst[s0 + i] = b->instance;
    }
    b->nslots += n;
    for (uint32_t i = 0; i < np; i++) {
        uint16_t *ps = prim_slots[b->nprims++];
        uint32_t odd = i & 1u;
        ps[0] = (uint16_t)(s0 + i);
        ps[1] = (uint16_t)(s0 + i + 1u + odd);
        ps[2] = (uint16_t)(s0 + i + 2u - odd);
    }
}

/* Whether draw_instance takes draw_strip_fresh: it depends on the draw alone, not the instance. */
static bool strip_fresh(const batch_t *b, const eg_soft_draw_args_t *a)
{
    return !a->indexed && b->rs->strip && b->verts_per_prim == 3u && a->count >= 3u && a->count <= VB &&
           a->count - 2u <= PB;
}

#if defined(__GNUC__)
#define COPY_(d, s, n) __builtin_memcpy((d), (s), (n))   /* constant sizes: plain stores */
#else
#define COPY_(d, s, n) eg_memcpy((d), (s), (n))
#endif

/* Strip primitives 0 {0, 1, 2} and 1 {1, 3, 2} of slots s .. s + 3 as primitives np, np + 1: where
 * the CPU is little-endian, the six 16-bit slots (contiguous in prim_slots) as two words of
 * 16-bit lanes, each lane a pattern value plus s (s + 3 < VB <= 4096: no carry between lanes). */
static EG_ALWAYS_INLINE void quad_prims(uint32_t s, uint32_t np)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t lo = 0x0001000200010000ull + s * 0x0001000100010001ull;   /* s, s + 1, s + 2, s + 1 */
    const uint32_t hi = 0x00020003u + s * 0x00010001u;                      /* s + 3, s + 2 */
    unsigned char *p = (unsigned char *)prim_slots + (size_t)np * sizeof prim_slots[0];
    COPY_(p, &lo, 8);
    COPY_(p + 8, &hi, 4);
#else
    prim_slots[np][0] = (uint16_t)s; prim_slots[np][1] = (uint16_t)(s + 1u); prim_slots[np][2] = (uint16_t)(s + 2u);
    prim_slots[np + 1u][0] = (uint16_t)(s + 1u); prim_slots[np + 1u][1] = (uint16_t)(s + 3u);
    prim_slots[np + 1u][2] = (uint16_t)(s + 2u);
#endif
}

/* draw_strip_fresh of every instance of a draw of 4-vertex strips (instanced quads), its loops
 * written out: the same slots, primitives and batch ends (a flush exactly where the next strip
 * does not fit), the draw_instance call and tests once per draw (the per-instance calls and
 * loops were ~100 instructions an instance on the UI row, ~35 here). */
static void draw_quads_fresh(batch_t *b, const eg_soft_draw_args_t *a)
{
    const uint32_t v0 = a->first, vids[4] = { v0, v0 + 1u, v0 + 2u, v0 + 3u };
    uint32_t ns = b->nslots, np = b->nprims;   /* locals: the stores below may alias *b */
    for (uint32_t inst = 0; inst < a->instance_count;) {
        if (ns + 4u > VB || np + 2u > PB) {
            b->nslots = ns;
            b->nprims = np;
            flush(b);
            ns = np = 0;
        }
        /* the instances that fit now (at least one), each without the test above (vtxquad) */
        const uint32_t end = inst + eg_min_u32(a->instance_count - inst, eg_min_u32((VB - ns) / 4u, (PB - np) / 2u));
        for (; inst < end; inst++) {
            const uint32_t id = a->first_instance + inst;
            const uint32_t ids[4] = { id, id, id, id };
            COPY_(&slot_vid[ns], vids, sizeof vids);
            COPY_(&slot_inst[ns], ids, sizeof ids);
            quad_prims(ns, np);
            ns += 4u;
            np += 2u;
        }
    }
    b->nslots = ns;
    b->nprims = np;
    b->instance = a->first_instance + a->instance_count - 1u;
}
#undef COPY_

static void draw_instance(batch_t *b, const eg_soft_draw_args_t *a)
{
    const struct eg_soft_raster_pipeline *rs = b->rs;
    if (strip_fresh(b, a)) {
        draw_strip_fresh(b, a);
        return;
    }
    if (a->indexed && !rs->strip && b->verts_per_prim == 3u && b->ps->index_format == WGPUIndexFormat_Uint16) {
        draw_tris_u16(b, a);
        return;
    }
    if (!a->indexed && !rs->strip && b->verts_per_prim == 3u) {
        /* add_prim_fresh for triangles, its checks and batches, the slots written directly
         * (its per-vertex conditions were ~60 instructions a triangle on the 20k-triangle rows),
         * as many triangles as the batch holds at a time: the same batches (a flush exactly where
         * the store or the primitive list is full), the checks once per run (~5 instructions a
         * triangle less) */
        const uint32_t ntri = a->count / 3u;
        for (uint32_t t = 0; t < ntri;) {
            if (b->nprims == PB || b->nslots + 3u > VB) flush(b);
            uint32_t k = eg_min_u32(eg_min_u32(ntri - t, PB - b->nprims), (VB - b->nslots) / 3u);
            const uint32_t s = b->nslots, v = a->first + 3u * t, inst = b->instance;
            for (uint32_t j = 0; j < 3u * k; j++) {
                slot_vid[s + j] = v + j;
                slot_inst[s + j] = inst;
            }
            for (uint32_t q = 0; q < k; q++) {
                uint16_t *ps = prim_slots[b->nprims + q];
                ps[0] = (uint16_t)(s + 3u * q); ps[1] = (uint16_t)(s + 3u * q + 1u); ps[2] = (uint16_t)(s + 3u * q + 2u);
            }
            b->nslots = s + 3u * k;
            b->nprims += k;
            t += k;
        }
        return;
    }
    if (!a->indexed && !rs->strip) {   /* every id new: no cache look-up (add_prim_fresh) */
        uint32_t n = b->verts_per_prim;
        for (uint32_t i = 0; i + n <= a->count; i += n) {
            const uint32_t vid[3] = { a->first + i, a->first + i + 1u, a->first + i + 2u };
            add_prim_fresh(b, vid);
        }
        return;
    }
    uint32_t win[3], k = 0, nprim_in_strip = 0;
    bool restart = rs->strip && a->indexed;
    for (uint32_t i = 0; i < a->count; i++) {
        uint32_t vid;
        if (!vertex_id(b->ps, a, restart, i, &vid)) { k = 0; nprim_in_strip = 0; continue; }
        if (!rs->strip) {
            win[k++] = vid;
            if (k == b->verts_per_prim) { add_prim(b, win); k = 0; }
            continue;
        }
        /* strips: a sliding window of the last verts_per_prim ids */
        if (k < b->verts_per_prim) win[k++] = vid;
        else { win[0] = win[1]; if (b->verts_per_prim == 3) { win[1] = win[2]; win[2] = vid; } else win[1] = vid; }
        if (k < b->verts_per_prim) continue;
        if (b->verts_per_prim == 3 && (nprim_in_strip & 1u)) {
            const uint32_t odd[3] = { win[0], win[2], win[1] };   /* {i, i + 2, i + 1} */
            add_prim(b, odd);
        } else {
            add_prim(b, win);
        }
        nprim_in_strip++;
    }
}

/* Smallest integer >= v, for |v| < 2^31 (no libm). */
static int64_t ceil_i(float v)
{
    int64_t t = (int64_t)v;
    return (float)t < v ? t + 1 : t;
}

/* The pixels a draw may touch: the scissor and the viewport rectangle (pixel centres inside
 * it). Clipping happens against the guard band, not the viewport (the clip volume's x/y
 * planes), so the viewport bound is applied here, as a scissor. */
static void draw_rect(const eg_soft_pass_state_t *ps, eg_soft_pass_state_t *out)
{
    *out = *ps;
    int64_t x0 = ceil_i(ps->vp_x - 0.5f), x1 = ceil_i(ps->vp_x + ps->vp_w - 0.5f);
    int64_t y0 = ceil_i(ps->vp_y - 0.5f), y1 = ceil_i(ps->vp_y + ps->vp_h - 0.5f);
    if (x0 > (int64_t)out->sc_x0) out->sc_x0 = x0 > (int64_t)out->sc_x1 ? out->sc_x1 : (uint32_t)x0;
    if (y0 > (int64_t)out->sc_y0) out->sc_y0 = y0 > (int64_t)out->sc_y1 ? out->sc_y1 : (uint32_t)y0;
    if (x1 < (int64_t)out->sc_x1) out->sc_x1 = x1 < (int64_t)out->sc_x0 ? out->sc_x0 : (uint32_t)x1;
    if (y1 < (int64_t)out->sc_y1) out->sc_y1 = y1 < (int64_t)out->sc_y0 ? out->sc_y0 : (uint32_t)y1;
}

void eg_soft_draw(const eg_soft_pass_state_t *ps_in, const eg_soft_draw_args_t *a)
{
    if (!ps_in->rs || !ps_in->rs->vs || a->count == 0 || a->instance_count == 0) return;
    static eg_soft_pass_state_t ps_draw;   /* static: keeps the ~1 KiB copy off small stacks */
    eg_soft_pass_state_t *ps = &ps_draw;
    draw_rect(ps_in, ps);
    if (ps->sc_x0 >= ps->sc_x1 || ps->sc_y0 >= ps->sc_y1) return;
    static uint64_t serial;   /* draws run on the submitting thread only */
    ps->serial = ++serial;
    eg_soft_bin_draw(ps);
    batch_t b;
    eg_memset(&b, 0, sizeof b);
    b.ps = ps;
    b.rs = ps->rs;
    b.verts_per_prim = b.rs->topology == 2 ? 3u : b.rs->topology == 1 ? 2u : 1u;
    b.cull = b.rs->cull_front || b.rs->cull_back;
    setup_planes(&b);
    eg_memset(hash_tab, 0, sizeof hash_tab);
    if (a->count == 4u && strip_fresh(&b, a) && eg_soft_raster_fast_paths) {
        b.quads = a->instance_count >= 4u;   /* (fewer: shade_quads' set-up would not pay, ~130 instructions) */
        draw_quads_fresh(&b, a);
        flush(&b);
        return;
    }
    for (uint32_t inst = 0; inst < a->instance_count; inst++) {
        b.instance = a->first_instance + inst;
        draw_instance(&b, a);
    }
    flush(&b);
}

#endif /* EMGPU_HAL_SOFT */
