/* hal/soft rasterizer internals: per-pipeline specialised state, pass/draw state, entry points.
 *
 * PIPELINE OF ONE DRAW (soft_draw.c -> soft_raster.c -> soft_raster_shade.c -> soft_raster_output.c):
 *   1. Primitive assembly in BATCHES: the draw's primitives are walked in order; each needs its
 *      vertices in the batch's vertex store (a small hash by vertex id = post-transform cache);
 *      when the store (EMGPU_SOFT_VERTEX_BATCH vertices) is full the batch is flushed: its unique
 *      vertices are fetched and shaded EG_SOFT_LANES at a time, then its primitives are clipped
 *      and rasterized in submission order. Memory is fixed; any draw size works.
 *   2. Clipping in clip space against near (z >= 0), far (z <= w; both skipped for
 *      unclippedDepth), w > 0, and a guard band of +-EG_SOFT_GUARD_PX window pixels for x/y,
 *      so setup never overflows its fixed point. The scissor does the exact x/y clip.
 *   3. Triangle setup in fixed point (EG_SOFT_SUBPIX_BITS subpixel bits, 64-bit edge values),
 *      top-left fill rule, then the bounding box is walked in 4x4 blocks (whole-block trivial
 *      reject / accept against the three edges and the scissor), coverage masks per sample.
 *   4. Per block: early depth/stencil (when the fragment shader neither writes depth, discards nor
 *      has side effects), attribute interpolation (perspective, linear, flat), one VM call for the
 *      block, late depth/stencil, then blending and store through per-format block functions
 *      chosen at pipeline creation (no per-pixel switches).
 * Lines are rasterized as Vulkan non-strict lines (the parallelogram made by widening the
 * segment by 1/2 px on each side along the minor axis, filled with the polygon rules); points
 * as 1x1 px squares. Both reuse the triangle path.
 *
 * FAST PATHS (bit-identical to the general path; draw.fast_path_matches_vm and soft_span_test
 * check): fragment programs that only copy inputs/constants to output 0 (eg_soft_program_copy_class)
 * are run as a copy, no VM call; whole-block (all 16 lanes) pack/unpack of 8-bit targets without
 * per-lane masks; a fused unpack+blend+pack for RGBA8/BGRA8/RGB565 with the UI blend factors
 * (blend_fast); and the SPAN PATH (soft_span.h): affine triangles of copy-class or one-texture-
 * sample programs, no depth, filled row by row with per-format/blend store functions.
 * BINNING AND THREADS (soft_bin.h): a render pass's triangles are binned per tile
 * (EMGPU_SOFT_TILE_PX) after step 2 and rasterized per tile, in submission order within a tile,
 * by EMGPU_SOFT_THREADS workers; eg_soft_raster_triangle clips to the worker's tile. The bytes
 * are those of rasterizing each triangle immediately, whatever the tile size or thread count.
 *
 * WORST CASE MEMORY: the vertex store holds EMGPU_SOFT_VERTEX_BATCH post-transform vertices of
 * (4 + 4 * EG_SOFT_MAX_LOCATIONS) floats (~310 B a vertex with its slot tables: 78 KiB at the
 * hosted boards' 256, 20 KiB at the MCUs' 64); a batch holds at most EMGPU_SOFT_PRIM_BATCH
 * primitives (6 B each; 2 x 256 hosted, 64 on MCUs). The bin arena (EMGPU_SOFT_BIN_ARENA_BYTES) holds a pass's binned triangles: per
 * triangle ~64 B (128 B with threads: the edge set-up) + 12 * nvary B + one reference (one 64 B chunk per 6 references on 64-bit
 * hosts, 32 B on 32-bit) per tile touched, plus one state snapshot (sizeof
 * eg_soft_pass_state_t, ~0.5 KiB) per state change. When it is full, the tiles are rasterized
 * and binning continues; a triangle too big for the empty arena is rasterized alone, at once.
 * Worst case: a flush per triangle (a tiny arena and full-screen triangles), i.e. immediate
 * rendering plus the cost of re-walking the tile table. Nothing grows with the scene: there is
 * no failure path for big draws or big passes.
 */
#ifndef EG_SOFT_RASTER_H
#define EG_SOFT_RASTER_H

#include "hal/soft/soft_shader.h"
#include "hal/soft/soft_internal.h"
#include "kernel/api/render_pipeline.h"

#define EG_SOFT_SUBPIX_BITS 8
#define EG_SOFT_SUBPIX      (1 << EG_SOFT_SUBPIX_BITS)
/** x/y guard band, window pixels each side: keeps setup inside 64-bit edge arithmetic. */
#define EG_SOFT_GUARD_PX    32768.0f
#define EG_SOFT_MAX_RT      8u
#define EG_SOFT_MAX_VARY    (4u * EG_SOFT_MAX_LOCATIONS)
#define EG_SOFT_MAX_SAMPLES 4u

/* State that each worker thread owns in an array indexed by worker (memos, caches, scratch
 * vertices) starts a cache line of its own (C11 _Alignas on its first member): where two workers'
 * elements share a line, every write by one makes the other's next access a cross-core miss
 * (false sharing; the memos are written per quad). Hygiene: its wall-clock effect on the 2-core
 * VM could not be told from that machine's noise (design-notes "Session 18"). */
#define EG_SOFT_LINE_B 64
#define EG_SOFT_OWN_LINE _Alignas(EG_SOFT_LINE_B)

_Static_assert(EMGPU_MAX_COLOR_ATTACHMENTS <= EG_SOFT_MAX_RT, "soft: color targets fit");

/* ---- framebuffer of the current pass ---- */

typedef struct eg_soft_target {
    uint8_t *base;                 /* (0, 0) of the attachment's subresource (sample 0) */
    uint32_t row_pitch_B, elem_B, block_B;
    WGPUTextureFormat format;      /* Undefined: no attachment in this slot */
} eg_soft_target_t;

typedef struct eg_soft_fb {
    uint32_t width_px, height_px, samples;
    uint32_t color_count;
    eg_soft_target_t color[EG_SOFT_MAX_RT];
    eg_soft_target_t depth, stencil;   /* base NULL: none. depth.block_B 2 = unorm16, 4 = float */
    bool depth_read_only, stencil_read_only;
} eg_soft_fb_t;

/* ---- per-format block access (16 pixels, one sample) ---- */

/** Reads the lanes of `mask` of a 4x4 block (lane order of soft_shader.h) into SoA values
 *  (floats for float/unorm/sRGB-decoded formats, raw integers for integer formats). */
typedef void (*eg_soft_unpack_fn)(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,
                                  eg_soft_vec4_t *out);
/** Writes the lanes of `mask`; channels outside `wmask` (WGPUColorWriteMask bits) keep their
 *  stored value. */
typedef void (*eg_soft_pack_fn)(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask,
                                const eg_soft_vec4_t *in, uint32_t wmask);

typedef struct eg_soft_format_ops {
    eg_soft_unpack_fn unpack;
    eg_soft_pack_fn pack;
    bool clamp01;                  /* unorm / sRGB: blend inputs clamp to [0, 1] */
    bool is_int;                   /* uint / sint: never blended */
} eg_soft_format_ops_t;

/** Block access for `format` (fast paths for the common formats, texel decode/encode else). */
void eg_soft_format_ops(WGPUTextureFormat format, eg_soft_format_ops_t *out);
/** A whole-block form of `pack` (helper "blk8"): the bytes of pack(t, blk, EG_SOFT_ALL_LANES, in,
 *  wmask) without its per-call tests (RGBA8 / BGRA8 with every channel written, AVX2 hosts);
 *  NULL where none exists. */
typedef void (*eg_soft_pack_full_fn)(uint8_t *blk, size_t row_pitch_B, const eg_soft_vec4_t *in);
eg_soft_pack_full_fn eg_soft_pack_full_of(eg_soft_pack_fn pack, const eg_soft_target_t *t, uint32_t wmask);
/** For a function of eg_soft_pack_full_of: the component (0-3) each byte of a texel holds, true;
 *  false for others. */
bool eg_soft_pack_full_order(eg_soft_pack_full_fn fn, uint8_t comp_of_byte[4]);

/* ---- vertex fetch ---- */

/** Converts one vertex attribute at src to 4 components (missing ones (0, 0, 0, 1)). */
typedef void (*eg_soft_fetch_fn)(const uint8_t *src, uint32_t out[4]);
eg_soft_fetch_fn eg_soft_fetch_fn_for(WGPUVertexFormat format);
/** soft_draw_fetch.c (tri9): fn's conversion of the attribute at mem + el[l] * stride_B + offset_B
 *  (attr_B bytes) into lane l of dst for l < n; (0, 0, 0, 1) where it is not inside size_B or
 *  mem is NULL (robust access). */
void eg_soft_fetch_lanes(eg_soft_fetch_fn fn, const uint8_t *mem, uint64_t size_B, uint32_t offset_B, uint32_t attr_B,
                         uint64_t stride_B, const uint32_t *el, uint32_t n, eg_soft_vec4_t *dst);
/** One attribute of eg_soft_fetch_quads: eg_soft_fetch_lanes' arguments but the lanes. */
typedef struct eg_soft_fetch_src {
    eg_soft_fetch_fn fn;
    const uint8_t *mem;
    uint64_t size_B, stride_B;
    uint32_t offset_B, attr_B;
    eg_soft_vec4_t *dst;
} eg_soft_fetch_src_t;
/** eg_soft_fetch_lanes of attributes src[0 .. nsrc) for lanes 0 .. 4 nq - 1 whose elements come
 *  in runs of four (el[4q] == el[4q + 1] == el[4q + 2] == el[4q + 3]) and whose largest element
 *  is el_max (both the caller's guarantee): the same bits, each run's element converted once
 *  (vtx13). */
void eg_soft_fetch_quads(const eg_soft_fetch_src_t *src, uint32_t nsrc, const uint32_t *el, uint32_t nq,
                         uint32_t el_max);
/** A batch of instanced quads (soft_draw.c shade_quads): true when every attribute of src[0 ..
 *  nsrc) reads element el_max (the batch's largest) inside its bound range; then the components
 *  its format fills with constants are written to all lanes of dst, and eg_soft_fetch_quads_in may
 *  fetch the batch's lane groups (runs of four, elements <= el_max) with the same bits as
 *  eg_soft_fetch_quads, while nothing else writes the dst lanes. False: nothing is written. */
bool eg_soft_fetch_quads_prep(const eg_soft_fetch_src_t *src, uint32_t nsrc, uint32_t el_max);
void eg_soft_fetch_quads_in(const eg_soft_fetch_src_t *src, uint32_t nsrc, const uint32_t *el, uint32_t nq);
/** soft_draw.c: lane groups whose instance-step attributes eg_soft_fetch_quads fetched (tests). */
extern uint64_t eg_soft_fetch_quad_groups;
/** soft_draw.c: quads of instanced 4-vertex strips that flush_quads handed over in runs (tests),
 *  and whether this build has that path (GCC with 4-lane native vectors). */
extern uint64_t eg_soft_quad_run_quads;
extern const bool eg_soft_quad_runs_on;

typedef struct eg_soft_attrib {
    eg_soft_fetch_fn fetch;
    uint32_t offset_B, size_B, location;
    uint8_t  slot;
} eg_soft_attrib_t;

/* ---- the specialised pipeline ---- */

typedef struct eg_soft_stencil_face {
    uint8_t compare, fail, depth_fail, pass;   /* WGPUCompareFunction / WGPUStencilOperation */
} eg_soft_stencil_face_t;

typedef struct eg_soft_blend {
    uint8_t enabled;
    uint8_t op_c, src_c, dst_c, op_a, src_a, dst_a;   /* WGPUBlendOperation / WGPUBlendFactor */
    uint8_t wmask;
} eg_soft_blend_t;

struct eg_soft_raster_pipeline {
    const eg_render_pipeline_t *rp;
    const eg_soft_program_t *vs, *fs;
    const eg_soft_program_info_t *vsi, *fsi;  /* fsi NULL without a fragment stage */
    /* vertex input */
    uint32_t attrib_count;
    eg_soft_attrib_t attribs[EMGPU_MAX_VERTEX_ATTRIBUTES];
    /* varyings the fragment stage reads, packed: vary_loc/comp say where each float goes */
    uint32_t nvary;
    uint8_t vary_loc[EG_SOFT_MAX_VARY], vary_comp[EG_SOFT_MAX_VARY], vary_interp[EG_SOFT_MAX_VARY];
    uint64_t vary_sample;          /* bit j: varying j is Sample-qualified (at the sample's position) */
    /* primitive */
    uint8_t topology;              /* 0 points, 1 lines, 2 triangles */
    bool strip, restart_u16, restart_u32;
    bool cull_front, cull_back, front_ccw, clip_depth;
    /* depth / stencil */
    bool has_ds, depth_test, depth_write, stencil_test, early_z;
    uint8_t depth_compare;
    eg_soft_stencil_face_t stencil[2];         /* [0] front, [1] back */
    uint8_t stencil_read_mask, stencil_write_mask;
    float depth_bias_units, depth_bias_slope, depth_bias_clamp;
    WGPUTextureFormat ds_format;
    /* multisample */
    uint32_t samples, sample_mask;
    bool alpha_to_coverage;
    /* color targets */
    uint32_t rt_count;
    eg_soft_blend_t blend[EG_SOFT_MAX_RT];
    eg_soft_format_ops_t fmt[EG_SOFT_MAX_RT];
    /* fragment program that only copies inputs/constants to output 0: run without the VM */
    bool fs_copy;
    /* every pixel a draw covers gets bytes that depend on nothing in the target (soft_bin.c,
     * dead clears): one colour target written whole without blending, one sample, every lane
     * kept (no discard, sample mask or alpha to coverage), no depth or stencil test */
    bool overwrites;
    eg_soft_copy_class_t copy;
    /* span fast path (soft_span.h, helper "fast"): NULL when the pipeline does not qualify */
    struct eg_soft_span_pipe *span;
    /* bench hook (soft_bench.h): a C function instead of the VM for the fragment stage */
    void (*native_fs)(eg_soft_invocation_t *inv, const void *user);
    const void *native_user;
    /* EG_SOFT_BLEND_U8_* per target: the fused 8-bit blend (soft_raster_output.c), 0: general */
    uint8_t blend_fast[EG_SOFT_MAX_RT];
    /* soft_raster_const.c (helper "raster", session 4): blocks whose outputs are constant skip
     * the VM; NULL when the fragment program does not qualify */
    struct eg_soft_const_prog *fs_const;
    /* soft_raster_tex.c: one-texture programs sampled without the VM on the block path, or NULL */
    struct eg_soft_tex_prog *fs_tex;
    /* what shade() computes per block besides the inputs (soft_raster_pipeline.c): bit c = the
     * fragment program reads FragCoord component c; persp_used = a perspective-interpolated input */
    uint8_t frag_coord_used;
    bool persp_used;
};

/** Fast paths on (default) or off: tests render the same draw both ways and compare bytes. */
extern bool eg_soft_raster_fast_paths;
/** Blocks shaded without the VM (copy-class fragment programs) since start, summed over the
 *  workers: tests check the fast path really ran. */
uint32_t eg_soft_raster_copy_blocks(void);
/** Blocks shaded once because their outputs were constant (soft_raster_const.c), summed over
 *  the workers: tests check the fast path really ran. */
uint32_t eg_soft_raster_const_blocks(void);

/* ---- dynamic state of a render pass ---- */

typedef struct eg_soft_vbuf {
    const uint8_t *mem;
    uint64_t size_B;               /* bound range */
} eg_soft_vbuf_t;

typedef struct eg_soft_pass_state {
    const eg_soft_fb_t *fb;
    const eg_render_pipeline_t *rp;
    const struct eg_soft_raster_pipeline *rs;
    const eg_soft_render_pipeline_t *sp;
    eg_soft_bound_t bound;
    eg_soft_vbuf_t vbuf[EMGPU_MAX_VERTEX_BUFFERS];
    eg_soft_vbuf_t ibuf;
    WGPUIndexFormat index_format;
    float vp_x, vp_y, vp_w, vp_h, vp_min_z, vp_max_z;
    uint32_t sc_x0, sc_y0, sc_x1, sc_y1;       /* scissor, exclusive end, within the fb */
    float blend_constant[4];
    uint32_t stencil_ref;
    /* soft_draw.c (tex8, session 8): a number per draw, never 0 and never reused, so per-draw
     * results (soft_raster_tex.c's texture set-up) can be cached per worker; 0: not a draw's */
    uint64_t serial;
} eg_soft_pass_state_t;

/** A draw as recorded or read from an indirect buffer. */
typedef struct eg_soft_draw_args {
    bool indexed;
    uint32_t count, instance_count, first, first_instance;
    int32_t base_vertex;
} eg_soft_draw_args_t;

/* soft_draw.c */
void eg_soft_draw(const eg_soft_pass_state_t *ps, const eg_soft_draw_args_t *a);

/* ---- rasterizer (soft_raster.c) ---- */

/** A post-transform vertex: clip position and the packed varyings. */
typedef struct eg_soft_vtx {
    float pos[4];
    float var[EG_SOFT_MAX_VARY];
} eg_soft_vtx_t;

/** A clipped triangle in window space; v[] point at the vertices for varyings, `prov` is the
 *  provoking (first) vertex of the original primitive for flat inputs. */
typedef struct eg_soft_tri {
    float x[3], y[3], z[3], invw[3];
    const eg_soft_vtx_t *v[3];
    const eg_soft_vtx_t *prov;
    bool is_polygon;               /* lines and points: no culling, always front-facing */
} eg_soft_tri_t;

/** What one rasterizing thread owns: the shader I/O of its VM calls (a vertex batch or a
 *  fragment block, never both live at once), its clip rectangle (the tile it is rasterizing;
 *  the whole framebuffer when not binning) and its counters. Nothing a worker writes is shared
 *  with another worker except the render targets, and two workers never own the same pixel. */
typedef struct eg_soft_worker {
    EG_SOFT_OWN_LINE eg_soft_vec4_t io_in[EG_SOFT_MAX_LOCATIONS], io_out[EG_SOFT_MAX_LOCATIONS];
    /* the register file of its VM runs (eg_soft_invocation_t.regs; JIT'd programs' scratch):
     * static memory instead of ~12 KiB of stack in every fragment or vertex program call */
    eg_soft_reg_t vm_regs[EMGPU_SOFT_VM_MAX_REGS];
    int64_t clip_x0, clip_y0, clip_x1, clip_y1;   /* pixels, exclusive end */
    uint32_t index;                               /* 0 = the submitting thread */
    uint32_t copy_blocks;                         /* blocks shaded without the VM (copy class) */
    uint32_t span_px;                             /* pixels filled by the span path (soft_span.c) */
    uint32_t span_copy_px;                        /* of those, stored as texel copies (soft_span.c) */
    uint32_t span_skip_px;                        /* of those, left as they were: source alpha 0 */
    uint32_t const_blocks;                        /* blocks shaded once (soft_raster_const.c) */
    uint32_t tex_blocks;                          /* blocks sampled without the VM (soft_raster_tex.c) */
    uint32_t region_blocks;                       /* of const_blocks, proved per region (soft_raster.c) */
    uint32_t span_row_px;                         /* of span_px, stored as constant rows (soft_span.c) */
    uint32_t span_fused_px;                       /* of span_px, filled by fused rows (soft_span_fused.c) */
    uint64_t in_uniform;                          /* io_in slots (loc * 4 + comp) equal in all lanes */
    uint32_t interior_hits;                       /* regions taking the proved interior's bits (soft_raster_const.c) */
    uint32_t band_hits;                           /* regions taking a proved band's bits (soft_raster_const.c, ui8) */
    /* rrect9, session 9: eg_soft_const_region_tri proved output 0 within [its outb, crange_hi]
     * (narrow ranges, not one value): the next eg_soft_fill_const_region takes (and clears) it */
    bool crange;
    uint32_t crange_hi[4];
    uint32_t range_regions;                       /* regions filled from such a range (soft_raster_fill.c) */
    uint32_t range_vm_px;                         /* of their pixels, those whose bytes the range left open (VM) */
    uint32_t probe_skips;                         /* region proofs skipped: the probe saw outputs differ (rrect10) */
    uint32_t probe_wrong;                         /* of those, proofs that held (eg_soft_const_probe_check only) */
    uint32_t proof_memo_hits;                     /* rect path proofs taken from the memo (rectcut, soft_raster_const.c) */
    uint32_t proof_memo_wrong;                    /* of those, recomputed and different (eg_soft_proof_memo_verify only) */
    /* fill11, session 11: rows of proved regions filled by vectors (soft_raster_fill.c
     * fill_rows_body): [0] 32 bytes or more, [1] 16 to 31, [2] fewer or a range source's (pixel
     * by pixel), [3] vector chunks holding a value the memo did not have (its lanes through the
     * memo), [4] vector chunks with a range source's open pixels (to the VM) */
    uint32_t fill_vec_rows[5];
    uint32_t vm_blocks;                           /* blocks shaded by shade_vm (soft_raster_shade.c, corner11) */
    uint32_t corner_memo_hits;                    /* of those, outputs taken from the corner memo (cornermemo) */
    uint32_t corner_memo_wrong;                   /* of those, recomputed and different (eg_soft_corner_memo_verify only) */
    uint32_t rect_px;                             /* pixels filled as one rectangle of a quad pair (soft_raster_rect.c) */
} eg_soft_worker_t;

/** The submitting thread's worker (soft_draw.c): vertex shading and unbinned rasterization. */
extern eg_soft_worker_t eg_soft_worker_main;

/** Rasterizes and shades one window-space triangle (any winding; culling done here), touching
 *  only pixels inside the scissor and w's clip rectangle. */
void eg_soft_raster_triangle(eg_soft_worker_t *w, const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t);
/** The pixel rectangle [box[0], box[1]) x [box[2], box[3]) that t may touch (its bounding box in
 *  the scissor), or false when it draws nothing (zero area, culled, outside). Binning uses it. */
bool eg_soft_tri_box(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t, int64_t box[4]);

/* ---- between setup/walk (soft_raster.c) and the block pipeline (soft_raster_shade.c) ---- */

/** Edge functions of one triangle: E_i(X, Y) = A X + B Y + C in subpixel units, covered when
 *  >= 0 (top-left rule folded into C). */
typedef struct eg_soft_setup {
    int64_t A[3], B[3], C[3];
    float inv_area2;                   /* 1 / E_i(V_i) (twice the area, subpixel units) */
    bool front;
} eg_soft_setup_t;
/** Binning (helper "bin7", session 7): tri_setup once per triangle. eg_soft_tri_prepare is
 *  eg_soft_tri_box that also returns the edges; eg_soft_raster_prepared is
 *  eg_soft_raster_triangle given them (the same bytes: the set-up is a function of ps and t). */
bool eg_soft_tri_prepare(const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t, eg_soft_setup_t *s, int64_t box[4]);
void eg_soft_raster_prepared(eg_soft_worker_t *w, const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t,
                             const eg_soft_setup_t *s, const int64_t box[4]);
/** Two triangles adjacent in draw order (t1 after t0), as eg_soft_raster_triangle on each in
 *  order, the span path's pair kernel taking both where it can (the same bytes). */
void eg_soft_raster_pair(eg_soft_worker_t *w, const eg_soft_pass_state_t *ps, const eg_soft_tri_t *t0,
                         const eg_soft_tri_t *t1);
/** The same given each one's set-up and box (eg_soft_raster_prepared on each, in order). */
void eg_soft_raster_prepared_pair(eg_soft_worker_t *w, const eg_soft_pass_state_t *ps, const eg_soft_tri_t *const t[2],
                                  const eg_soft_setup_t s[2], const int64_t box[2][4]);

/** Inputs of the fused mesh block path (eg_soft_frag_t mv_*): more take the general one. */
#define EG_SOFT_MESH_VARY 8u

/** The program block path (eg_soft_frag_t vm_state, vm; soft_raster_shade.c shade_vm): how it
 *  writes, and its table built; EG_SOFT_VM_VARY inputs at most (more take the general path). The
 *  path is 8-lane AVX2 code (soft_raster_shade_int.h SHADE_AVX2), so only those builds carry the
 *  table (~560 B of every triangle's stack frame). */
#define EG_SOFT_VM_COLORS 1u   /* write_colors */
#define EG_SOFT_VM_PACK   2u   /* out_pack */
#define EG_SOFT_VM_565    3u   /* eg_soft_blend_565 of target 0 */
#define EG_SOFT_VM_U8     4u   /* eg_soft_blend_u8 of target 0 */
#define EG_SOFT_VM_READY  0x80u
#define EG_SOFT_VM_HOLD   0x80u   /* eg_soft_frag_t vm_hold: keeping enabled */
#define EG_SOFT_VM_HELD_C 0x01u   /* the nc constant inputs are in io_in */
#define EG_SOFT_VM_HELD_K 0x02u   /* the nk ones are */
#if EMGPU_SOFT_SIMD && defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(EMGPU_SOFT_VM_NO_AVX2)
#define EG_SOFT_VM_TABLE 1
#else
#define EG_SOFT_VM_TABLE 0
#endif
#define EG_SOFT_VM_VARY 16u
/** eg_soft_blend_565 / eg_soft_blend_u8's signature (eg_soft_blend_body) */
typedef void (*eg_soft_blend_fn)(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, const eg_soft_vec4_t *src,
                                 uint32_t fast);
/** shade_vm's per-triangle part: interp_body's choices made once (lerped inputs first, then
 *  those that are one value in every lane, then the perspective ones of those that hold only
 *  where the block's weights are finite), bary_body's per-triangle products. */
typedef struct eg_soft_vm_tri {
    uint32_t nl, nc, nk;
    uint64_t uni, kuni;                /* in_uniform's bits of the nc inputs, of the nk ones */
    bool hold_ok;                      /* the nc and nk inputs' slots are distinct from each other
                                        * and from the lerped ones' (f->vm_hold may keep them) */
    eg_soft_blend_fn blend;            /* EG_SOFT_VM_565 / _U8: eg_soft_blend_body of target 0 */
    eg_soft_mask_t front;              /* the invocation's front_facing */
    bool persp, need_z;                /* the perspective weights are read; FragCoord.z is */
    float a0[EG_SOFT_VM_VARY], d1[EG_SOFT_VM_VARY], d2[EG_SOFT_VM_VARY];
    float *dst[EG_SOFT_VM_VARY];
    bool wp[EG_SOFT_VM_VARY];          /* a lerped input takes the perspective weights */
    float cx[2][8], ry[2][2][8];       /* as mb_cx, mb_ry */
    /* the corner memo's class of the triangle (soft_raster_shade.c cm_classify: 0 not looked up
     * yet, index + 1, or none) and generation; per output component the table index of the
     * input it copies (EG_SOFT_CM_COMPUTED: computed, from the memo) and that input's a0 */
    uint32_t cm_cls, cm_gen;
    uint8_t cm_pass[4];
    float cm_pv[4];
} eg_soft_vm_tri_t;

/** One triangle being rasterized by one worker. */
typedef struct eg_soft_frag {
    eg_soft_worker_t *w;
    const eg_soft_pass_state_t *ps;
    const struct eg_soft_raster_pipeline *rs;
    const eg_soft_tri_t *t;
    eg_soft_setup_t s;
    float z[3], dzdx, dzdy, bias;
    const int32_t *sx, *sy;            /* sample positions, 1/256 px */
    uint32_t samples;
    /* the region walk's failed parts (soft_raster.c region_blocks): shade() skips the per-block
     * constant proof, whose bounded form has just failed on these blocks */
    bool no_const_proof;
    /* soft_raster_tex.c: 0 not looked at yet, 1 the bound texture qualifies, -1 it does not */
    int32_t tex_state;
    const void *tex_view, *tex_sampler;
    bool tex_fast_ok;                  /* tex_fast holds eg_soft_sample's fast path, set up once */
    struct eg_soft_sample_fast {
        eg_soft_subres_t s;
        uint8_t fmt, mu, mv;
        bool linear;
    } tex_fast;
    /* soft_raster_depth.c eg_soft_ds_fast, set per triangle by eg_soft_shade_setup (helper
     * "mesh7c"): 0 = the general eg_soft_ds_test, else depth only, 4-byte depth, one sample,
     * compare Less (1) or LessEqual (2), the sample's offset and clamp range precomputed */
    uint32_t ds_fast;
    bool ds_write;
    float ds_off, ds_lo, ds_hi;
    uint8_t *ds_base;
    size_t ds_pitch_B;
    /* soft_raster_shade.c write_colors, set per triangle by eg_soft_shade_setup (mesh7c): one
     * target, one sample, no blend: its pack function (else NULL: the general loop) */
    eg_soft_pack_fn out_pack;
    const eg_soft_target_t *out_t;
    uint32_t out_wmask;
    /* soft_raster_shade.c shade_mesh (mesh7c): set per triangle by eg_soft_shade_setup when the
     * block pipeline is early depth (ds_fast), 8-lane interpolation, a one-texture program and
     * out_pack; the inputs' a0, d1, d2 and destinations (none flat or constant) once per triangle */
    bool mesh_fast, mesh_persp;
    uint32_t mv_n;
    float mv_a0[EG_SOFT_MESH_VARY], mv_d1[EG_SOFT_MESH_VARY], mv_d2[EG_SOFT_MESH_VARY];
    float *mv_dst[EG_SOFT_MESH_VARY];
    bool mv_persp[EG_SOFT_MESH_VARY];
    /* the block barycentrics' per-triangle terms, 8 lanes = rows r, r + 1: k * d1x, k * d2x per
     * column k, and r * d1y, r * d2y per row pair (mesh_setup) */
    float mb_cx[2][8], mb_ry[2][2][8];
    int32_t mesh_tex;                  /* 0 not looked at yet, 1 eg_soft_tex_direct holds, -1 not */
    const float *mesh_u, *mesh_v;      /* its uv inputs */
    /* soft_raster_shade.c eg_soft_shade_run (helper "blk8", session 8): set per triangle by
     * eg_soft_shade_setup when whole covered blocks go straight to the fragment program's
     * native function (no depth/stencil, one sample, a program soft_jit.c translated whole) */
    bool jit_fast;
    eg_soft_pack_full_fn jit_pack;     /* out_pack's whole-block form, or NULL (write_colors) */
    /* soft_raster_shade.c shade_mesh (helper "tex8", session 8), set by mesh_setup: 1 / 2 when
     * out_pack is an RGBA8Unorm / BGRA8Unorm pack of every channel, so the sample can store the
     * bytes itself (eg_soft_sample_rgba8_store_avx2); 0 else */
    uint32_t mesh_store;
    bool ds_avx2;                      /* eg_soft_ds_fast takes its 8-lane rows (tex8) */
    uint8_t mesh_ju, mesh_jv;          /* eg_soft_mesh_block: the inputs of mesh_u, mesh_v (tex8) */
    /* soft_raster_shade.c shade_vm (helper "corner11", session 11): vm_state set per triangle by
     * eg_soft_shade_setup (one byte: a store per triangle), not 0 where shade() of a block is
     * interpolation, the fragment program and the colour write alone (no depth / stencil, one
     * sample, 8 lanes): EG_SOFT_VM_* says how it writes, plus EG_SOFT_VM_READY once vm holds the
     * triangle's table (built at its first such block). Not set for the textured mesh's state
     * (rs->fs_tex: eg_soft_shade_block does not read it there) */
    uint8_t vm_state;
    /* shade_vm's constant inputs kept in the worker's io_in across a run of blocks (helper
     * rectvm, session 14): EG_SOFT_VM_HOLD while soft_raster.c region_blocks shades one
     * triangle's blocks (nothing else writes io_in then), plus EG_SOFT_VM_HELD_C / _K once the nc
     * / nk constants are stored; 0 elsewhere (eg_soft_shade_setup clears it) */
    uint8_t vm_hold;
#if EG_SOFT_VM_TABLE
    eg_soft_vm_tri_t vm;
#endif
} eg_soft_frag_t;

/** soft_sample.c: eg_soft_sample's fast path (2D view of one level in RGBA8, BGRA8, R8 or RGB565,
 *  min == mag, no comparison or offset) set up once for (view, sampler): the level, format,
 *  filter and address modes each call would find; false when the fast path does not apply. */
bool eg_soft_sample_fast_prep(const eg_texture_view_t *view, const eg_sampler_t *smp, struct eg_soft_sample_fast *p);
/** soft_sample.c: eg_soft_sample with such a set-up (EG_SOFT_LOD_EXPLICIT 0, no offset): the same loops, the same bytes. */
void eg_soft_sample_fast(const struct eg_soft_sample_fast *p, const float *u, const float *v, eg_soft_mask_t mask,
                         eg_soft_vec4_t *out);

/** soft_sample_vec.c (mesh7c): whether eg_soft_sample_fast(p, ...) is the 8-lane RGBA8/BGRA8
 *  bilinear loop on this CPU (its tests once per triangle); then eg_soft_sample_rgba8_avx2 is
 *  that loop without them (the same bytes). */
bool eg_soft_sample_rgba8_avx2_ok(const struct eg_soft_sample_fast *p);
void eg_soft_sample_rgba8_avx2(const struct eg_soft_sample_fast *p, const float *u, const float *v, eg_soft_mask_t mask,
                               eg_soft_vec4_t *out);
/** soft_sample_vec.c (tex8, session 8): where eg_soft_sample_rgba8_avx2_ok(p), the bytes that
 *  eg_soft_sample_rgba8_avx2 followed by the pack of an RGBA8Unorm (dst_bgra: BGRA8Unorm) target
 *  writing every channel would store: the pixels of `mask` of the 4x4 block at dst (row pitch
 *  pitch_B), the float stage left out. */
void eg_soft_sample_rgba8_store_avx2(const struct eg_soft_sample_fast *p, const float *u, const float *v,
                                     eg_soft_mask_t mask, bool dst_bgra, uint8_t *dst, size_t pitch_B);
/** soft_sample_mesh.c (tex8, session 8): in shade_mesh's state with eg_soft_tex_direct holding
 *  and f->mesh_store set, whether eg_soft_mesh_block can run the whole block (then f->mesh_ju,
 *  f->mesh_jv are set); false on CPUs / builds without AVX2. */
bool eg_soft_mesh_block_ok(eg_soft_frag_t *f);
/** shade_mesh's block (depth test and write, sample, store to target 0) in one pass, the same
 *  bytes; returns the pixels of cov that passed the depth test. */
eg_soft_mask_t eg_soft_mesh_block(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov);
/** soft_sample_mesh.c (helper "mblk8", session 8): eg_soft_mesh_block's per-triangle constants
 *  splatted once (eg_soft_mesh_tri_prep, after eg_soft_mesh_block_ok held for f's triangle), and
 *  its block taking them and the walk's edge values e at the block origin: the same bytes. */
typedef struct eg_soft_mesh_tri {
    float vec[16][8];                  /* depth a0 d1 d2 bias off lo hi, invw 0-2, u a0 d1 d2, v a0 d1 d2 */
    float axf[2][2][8];                /* per axis (u, v): m8_ax_t's fn, hi */
    int32_t axi[2][2][8];              /* its n, last */
    int64_t half[2];                   /* edges 1, 2: A (SUBPIX / 2) + B (SUBPIX / 2) */
    const uint32_t (*k)[8];            /* soft_sample_mesh8.inc m8_k_tab: m8_group's constants */
    eg_soft_mask_t (*block)(const eg_soft_frag_t *f, const struct eg_soft_mesh_tri *m, uint32_t bx, uint32_t by,
                            const int64_t e[3], eg_soft_mask_t cov);
} eg_soft_mesh_tri_t;
void eg_soft_mesh_tri_prep(const eg_soft_frag_t *f, eg_soft_mesh_tri_t *m);
/** soft_raster_shade.c (mblk8): whether f's triangle takes eg_soft_mesh_block for every block
 *  eg_soft_shade_block would run (then m is prepared); false on builds without it. */
bool eg_soft_shade_mesh_direct(eg_soft_frag_t *f, eg_soft_mesh_tri_t *m);
/** soft_sample_mesh.c (helper "mesh9", session 9): soft_raster.c walk_mesh's loop (narrow
 *  triangles, one sample, walk_t.small) with m's block inlined, the triangle's invariants read
 *  once: the same blocks, masks and bytes. Returns the blocks that stored a pixel. */
typedef struct eg_soft_mesh_walk {
    int64_t er[3], sx[3], sy[3];       /* edge values at (x0, y0); steps per block right, down */
    const int64_t (*ext)[2];           /* walk_t's: [i][0] the accept, [i][1] the reject extreme */
    const int64_t (*samp_off)[EG_SOFT_MAX_SAMPLES];   /* walk_t's (sample 0) */
    const int32_t (*lane_off32)[EG_SOFT_LANES];       /* walk_t's */
    int64_t x0, y0, n, px0, px1, py0, py1;   /* first block, blocks a row, the walked rectangle */
} eg_soft_mesh_walk_t;
uint32_t eg_soft_mesh_walk(const eg_soft_frag_t *f, const eg_soft_mesh_tri_t *m, const eg_soft_mesh_walk_t *w);

/** Depth plane and depth bias of f's triangle (after f->s is set up). */
void eg_soft_depth_setup(eg_soft_frag_t *f);
/** soft_raster_shade.c: the block pipeline's per-triangle state (f->ds_fast, f->out_pack,
 *  f->mesh_fast), set by the block walks (soft_raster.c) before any block of the triangle, after
 *  eg_soft_depth_setup. */
void eg_soft_shade_setup(eg_soft_frag_t *f);
/** soft_raster_depth.c: sets f->ds_fast and its fields (eg_soft_shade_setup calls it). */
void eg_soft_ds_fast_setup(eg_soft_frag_t *f);
/** soft_raster_shade_mesh.c (helper "set9"): eg_soft_mesh_setup's tests on the draw's state alone
 *  (after eg_soft_ds_fast_setup and out_pack), and its per-triangle part where they held. */
bool eg_soft_mesh_state_ok(const eg_soft_frag_t *f);
void eg_soft_mesh_setup_tri(eg_soft_frag_t *f);
/** eg_soft_ds_test for a frag with f->ds_fast set: the same bytes and coverage, one sample. */
eg_soft_mask_t eg_soft_ds_fast(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
                               eg_soft_mask_t cov);
/** The fragment pipeline for one 4x4 block at (bx, by) with per-sample coverage `cov`. */
void eg_soft_shade_block(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES]);
/** n blocks from (bx, by) to the right, every lane of every sample covered (soft_raster.c's
 *  accepted runs): eg_soft_shade_block on each, or f->jit_fast's loop (helper "blk8"). */
void eg_soft_shade_run(eg_soft_frag_t *f, uint32_t bx, uint32_t by, uint32_t n);
/** The span fast path (soft_span.c): fills f's triangle over the pixel rectangle
 *  [px0, px1) x [py0, py1) (already clipped to scissor and worker) and returns true, or returns
 *  false without touching anything when the triangle/pipeline does not qualify. */
bool eg_soft_span_triangle(eg_soft_frag_t *f, int64_t px0, int64_t px1, int64_t py0, int64_t py1);
/** Two triangles of one draw, fb's after fa's in draw order, each over its clipped pixel box
 *  (px0, px1, py0, py1): both filled by the span path in one row walk where it can (glyph quads,
 *  pair11), else each as eg_soft_span_triangle fills it; false (nothing done) when that path
 *  does not take them. */
bool eg_soft_span_pair(eg_soft_frag_t *fa, const int64_t ba[4], eg_soft_frag_t *fb, const int64_t bb[4]);

/** Fixed-point snapping used by setup (exposed for tests). */
int32_t eg_soft_snap(float v);
/** Edge setup of one triangle in snapped coordinates: coverage of the pixel centre (px, py) with
 *  the top-left rule; returns true if covered. Tests use it to check the fill rule. */
bool eg_soft_covers(const int32_t x[3], const int32_t y[3], int32_t px, int32_t py);

/* ---- fixed-function output (soft_raster_output.c) ---- */

/** Blends src into dst in place over the lanes of mask: dst = op(src * sf, dst * df); the
 *  other lanes of dst are undefined afterwards (computed branch-free, never stored). */
void eg_soft_blend_block(const eg_soft_blend_t *b, const float constant[4], bool clamp01,
                         const eg_soft_vec4_t *src, eg_soft_vec4_t *dst, eg_soft_mask_t mask);
/** The stencil operation `op` applied to stored value s (reference ref). */
uint8_t eg_soft_stencil_op(uint32_t op, uint8_t s, uint8_t ref);
/* Fused unpack + blend + pack for RGBA8/BGRA8 targets, all channels written, op Add, src factor
 * One or SrcAlpha, dst factor Zero or OneMinusSrcAlpha (per color / alpha): the same arithmetic
 * as unpack, eg_soft_blend_block and pack, without their intermediate passes (helper "fast"). */
#define EG_SOFT_BLEND_U8      0x01u   /* set: the fused path applies */
#define EG_SOFT_BLEND_U8_BGRA 0x02u
#define EG_SOFT_BLEND_U8_SA_C 0x04u   /* color src factor SrcAlpha (else One) */
#define EG_SOFT_BLEND_U8_INV_C 0x08u  /* color dst factor OneMinusSrcAlpha (else Zero) */
#define EG_SOFT_BLEND_U8_SA_A 0x10u
#define EG_SOFT_BLEND_U8_INV_A 0x20u
void eg_soft_blend_u8(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, const eg_soft_vec4_t *src,
                      uint32_t fast);
#define EG_SOFT_BLEND_U8_565  0x40u   /* the target is RGB565: eg_soft_blend_565 */
void eg_soft_blend_565(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, const eg_soft_vec4_t *src,
                       uint32_t fast);
/** The function eg_soft_blend_565 (rgb565) or eg_soft_blend_u8 calls for target t now (its 8-lane
 *  body, or itself): resolved once per triangle by shade_vm (helper rectvm, session 14). */
eg_soft_blend_fn eg_soft_blend_body(const eg_soft_target_t *t, bool rgb565);
/** a <compare> b per WebGPU (a = the fragment's value, b = the stored value). */
bool eg_soft_compare(uint32_t compare, float a, float b);

/* ---- block-constant fragments (soft_raster_const.c, helper "raster", session 4) ---- */
/* The class table of a per-worker memo (the proof memo pm_*, the corner memo cm_*): the slot of
 * key k (B bytes, compared as bytes) among n keys; a key not there takes slot *next in turn, whose
 * generation gen[] is bumped so the entries made under its old key no longer match. */
static inline uint32_t eg_soft_memo_class(void *keys, uint32_t *used, uint32_t *gen, uint32_t n, uint32_t *next,
                                          const void *k, size_t B)
{
    uint8_t *kb = (uint8_t *)keys;
    uint32_t c = 0;
    while (c < n && !(used[c] && eg_memcmp(kb + (size_t)c * B, k, B) == 0)) c++;
    if (c == n) {
        c = *next;
        *next = (c + 1u) % n;
        eg_memcpy(kb + (size_t)c * B, k, B);
        used[c] = 1u;
        gen[c]++;
    }
    return c;
}

struct eg_soft_const_prog;
/** Sets r->fs_const (soft heap) when r's fragment program may be evaluated per block over value
 *  ranges (straight-line float arithmetic, output 0 only, no side effects); call after r->fs_copy
 *  and r->alpha_to_coverage are set. OUT_OF_MEMORY only when the heap is exhausted. */
eg_status_t eg_soft_const_create(struct eg_soft_raster_pipeline *r);
void eg_soft_const_destroy(struct eg_soft_raster_pipeline *r);
/** After the block's inputs are interpolated into w->io_in: true when every component of output
 *  0 provably has the same bits in all lanes; then w->io_out[0] holds them (what the VM would
 *  write). False: nothing written, run the VM. */
bool eg_soft_const_block(const struct eg_soft_const_prog *cp, eg_soft_worker_t *w);
/** The corner memo's view of a block-constant program (soft_raster_shade.c cm_*, helper
 *  cornermemo, session 16): per output-0 component the io_in slot (loc * 4 + comp) it copies
 *  unchanged, or EG_SOFT_CM_COMPUTED; the slots the computed components read (bits); a number
 *  per program, never 0 and never reused. */
#define EG_SOFT_CM_COMPUTED 0xffu
typedef struct eg_soft_cm_prog {
    uint64_t serial, need;
    uint8_t pass[4];
} eg_soft_cm_prog_t;
const eg_soft_cm_prog_t *eg_soft_const_cm(const struct eg_soft_const_prog *cp);
/** The corner memo (soft_raster_shade.c): on (default), its test hook (every hit recomputed,
 *  mismatches counted in the worker's corner_memo_wrong) and its entries per worker (0: compiled
 *  out, as on MCUs). */
extern bool eg_soft_corner_memo_on;
extern bool eg_soft_corner_memo_verify;
uint32_t eg_soft_corner_memo_entries(void);
/* ---- one-texture programs on the block path (soft_raster_tex.c, helper "raster", session 4) ---- */

struct eg_soft_tex_prog;
/** Sets r->fs_tex (soft heap) when r's fragment program is of the span class with a texture;
 *  call after r->fs_copy. OUT_OF_MEMORY only when the heap is exhausted. */
eg_status_t eg_soft_tex_create(struct eg_soft_raster_pipeline *r);
void eg_soft_tex_destroy(struct eg_soft_raster_pipeline *r);
/** Per triangle (cached in f): whether the bound view and sampler let the block path sample
 *  without the VM (2D, one mip level, min filter == mag filter). */
bool eg_soft_tex_prep(eg_soft_frag_t *f);
/** f->w->io_out[0] = the program's outputs for the interpolated inputs in f->w->io_in, sampling
 *  the lanes of `lanes`: the bits the VM would produce. */
void eg_soft_tex_block(const eg_soft_frag_t *f, eg_soft_mask_t lanes);
/** After eg_soft_tex_prep(f) is true: whether eg_soft_tex_block(f, lanes) is
 *  eg_soft_sample_rgba8_avx2(&f->tex_fast, *u, *v, lanes, &f->w->io_out[0]) (mesh7c). */
bool eg_soft_tex_direct(const eg_soft_frag_t *f, const float **u, const float **v);
/** shade_mesh's per-triangle choice (tex8): 2 when eg_soft_mesh_block runs the block
 *  (eg_soft_mesh_block_ok), 1 when only eg_soft_tex_direct holds, -1 else; f->mesh_u / mesh_v
 *  (and mesh_ju / mesh_jv for 2) set. Asked once a draw per worker (the answer depends only on
 *  the draw's state), then reused. After eg_soft_tex_prep(f) is true, in mesh_setup's state. */
int32_t eg_soft_tex_mesh_kind(eg_soft_frag_t *f);

/** eg_soft_blend_u8 / eg_soft_blend_565 (per `fast`) for a src whose lanes all hold the same
 *  value: the same bytes, computed once per distinct stored pixel run (soft_raster_fill.c). */
void eg_soft_blend_const(const eg_soft_target_t *t, uint8_t *blk, eg_soft_mask_t mask, const eg_soft_vec4_t *src,
                         uint32_t fast);

/* ---- value ranges over pixel sets (soft_raster_bound.c, helper "ui", session 5) ---- */

/** Every lane's value lies in [lo, hi]; cst: all lanes hold lo's bits. */
typedef struct eg_soft_range {
    float lo, hi;
    uint32_t cst;
} eg_soft_range_t;
/** The pixels of 4x4 blocks with origins bx0..bx1 x by0..by1 (inclusive, multiples of 4) at
 *  in-block offsets fx0..fx1 x fy0..fy1. */
typedef struct eg_soft_pxset {
    int64_t bx0, bx1, by0, by1;
    uint32_t fx0, fx1, fy0, fy1;
} eg_soft_pxset_t;
/** Bounds of the screen-linear (l) and, when persp, perspective (p) weights of vertices 1, 2. */
typedef struct eg_soft_wbound {
    float l[2][2], p[2][2];
    bool persp;
} eg_soft_wbound_t;
/** Bounds of f's barycentric weights over p, as soft_raster_shade.c computes them per pixel;
 *  false when a bound is not finite (then bound nothing). */
bool eg_soft_weights_bound(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, bool persp, eg_soft_wbound_t *o);
/** Bounds of a0 + w1 d1 + w2 d2 (interpolation `interp`) over the pixels of wb; false when not finite. */
bool eg_soft_vary_bound(const eg_soft_wbound_t *wb, uint32_t interp, float a0, float d1, float d2, eg_soft_range_t *o);
/** The same from the exact affine value plus the float chain's error bound (tighter when d1 and
 *  d2 are both nonzero); linear, or perspective with equal 1/w only (else false). */
bool eg_soft_vary_bound_affine(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, uint32_t interp, float a0, float d1,
                               float d2, eg_soft_range_t *o);
/** The exact weights L1, L2 at the 4 corner pixels of a pixel set, a bound m >= 1 on |L0|, |L1|,
 *  |L2| there and g on the weights' per-pixel gradients (eg_soft_vary_bound_affine's shared
 *  part); state 0: not computed yet, 1: usable, -1: too large for the error bound. */
typedef struct eg_soft_affine {
    double L1[4], L2[4], m, g;
    int32_t state;
} eg_soft_affine_t;
/** The bound the comment of eg_soft_affine_corners derives: every pixel of ac's set computes
 *  a0 + w1 d1 + w2 d2 (interpolation interp) within *err of the exact affine value a0 + d1 L1 +
 *  d2 L2; false (nothing bounded) where that analysis does not apply (flat, unequal 1/w, ac too
 *  large, non-finite inputs). */
bool eg_soft_affine_err(const eg_soft_frag_t *f, const eg_soft_affine_t *ac, uint32_t interp, float a0, float d1, float d2,
                        double *err);
void eg_soft_affine_corners(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, eg_soft_affine_t *a);
/** eg_soft_vary_bound_affine from the corners ac of the same pixel set (eg_soft_affine_corners). */
bool eg_soft_vary_bound_affine_ac(const eg_soft_frag_t *f, const eg_soft_affine_t *ac, uint32_t interp, float a0, float d1,
                                  float d2, eg_soft_range_t *o);
/** eg_soft_vary_bound_best with the corners shared between the inputs of one pixel set (ac:
 *  state 0 the first time, computed on demand). */
bool eg_soft_vary_bound_best_ac(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, const eg_soft_wbound_t *wb,
                                eg_soft_affine_t *ac, uint32_t interp, float a0, float d1, float d2, eg_soft_range_t *o);
/** eg_soft_vary_bound intersected with eg_soft_vary_bound_affine where that applies. */
bool eg_soft_vary_bound_best(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, const eg_soft_wbound_t *wb, uint32_t interp,
                             float a0, float d1, float d2, eg_soft_range_t *o);
/** soft_raster_const.c: the block-constant proof over every lane of the blocks of p (fx, fy
 *  0..3): true when output 0 provably holds the same bits in all of them (outb). */
bool eg_soft_const_region(const eg_soft_frag_t *f, const eg_soft_pxset_t *p, uint32_t outb[4]);
/** soft_raster_const.c: the region proof's per-triangle part (helper "ui", session 6): the
 *  inputs equal over the whole triangle (flat, or equal at the vertices) and every operation on
 *  constants alone are evaluated once; a region then bounds the varying inputs and runs the
 *  remaining operations. Zero-initialise (state 0), then eg_soft_const_tri_init. */
#define EG_SOFT_CONST_TRI_IN   16u
#define EG_SOFT_CONST_TRI_OPS  64u
#define EG_SOFT_CONST_TRI_VALS 128u
#define EG_SOFT_CONST_TRI_BANDS 12u  /* bands a triangle's walk proves (ui8) */
/** One compiled operation of the proof: operands index the value table. */
typedef struct eg_soft_cop {
    uint8_t op, dst, a, b, c;
} eg_soft_cop_t;
typedef struct eg_soft_const_tri {
    int32_t state;                 /* 1 usable; 0: use eg_soft_const_region; -1 no proof can hold */
    bool persp;
    uint8_t nin, nops, out[4];
    uint8_t in_dst[EG_SOFT_CONST_TRI_IN], in_interp[EG_SOFT_CONST_TRI_IN];
    float in_a0[EG_SOFT_CONST_TRI_IN], in_d1[EG_SOFT_CONST_TRI_IN], in_d2[EG_SOFT_CONST_TRI_IN];
    eg_soft_cop_t ops[EG_SOFT_CONST_TRI_OPS];
    eg_soft_range_t v[EG_SOFT_CONST_TRI_VALS];         /* the value table, reused per region */
    /* bin7, session 7: the interior rectangle of the walk (pixels, exclusive ends; empty: none),
     * proved as one pixel set after its first region holds (sup 1: every region inside takes
     * sup_out; -1: it failed; 0: not tried) */
    int64_t lim_x0, lim_x1, lim_y0, lim_y1;
    int32_t sup;
    uint32_t sup_out[4];
    /* ui8, session 8: bands proved once per triangle (soft_raster_const.c band_*): a side strip's
     * column or row over the interior's extent, the interior's two cross bands when it failed
     * whole; ok 1 proved (out: its bits), -1 failed */
    uint32_t nband;
    eg_soft_pxset_t band[EG_SOFT_CONST_TRI_BANDS];
    int8_t band_ok[EG_SOFT_CONST_TRI_BANDS];
    uint32_t band_out[EG_SOFT_CONST_TRI_BANDS][4];
    int64_t cx0, cx1, cy0, cy1;    /* pixels whose centre can be inside the triangle (inclusive) */
    uint32_t band_hi[EG_SOFT_CONST_TRI_BANDS][4];   /* rrect9: a band's upper bits (band_out: lower) */
    /* rrect10, session 10: the program run on plain floats at a pixel set's 4 corner pixels
     * before its proof (soft_raster_const.c probe_differs); the values constant over the
     * triangle are written once by eg_soft_const_tri_init */
    float pv[EG_SOFT_CONST_TRI_VALS][4];
    bool rng;                      /* eg_soft_fill_range_ok(f): proofs may end in ranges (rrect9) */
    float pg[4];                   /* the probe's weight gradients per pixel: dl1/dx, dl1/dy, dl2/dx, dl2/dy */
    uint8_t probe_out;             /* fill11: the output components a probe can see vary (bit c) */
    /* rectcut, session 15 (soft_raster_const.c pxset_eval): the proof memo's class of this
     * triangle's key (0: not looked up yet), its generation, the outputs the proofs write */
    uint32_t pm_cls, pm_gen;
    uint8_t pm_wm;
} eg_soft_const_tri_t;
void eg_soft_const_tri_init(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct);
/** Test hook (rrect10): a region proof the probe skips runs anyway, and probe_wrong counts those
 *  that hold (a probe that skips a proof that would hold costs a proof's pixels, never bytes). */
extern bool eg_soft_const_probe_check;
/** The rect path's proof memo (rectcut, session 15; soft_raster_const.c pxset_eval): on (default),
 *  its test hook (every hit recomputed, mismatches counted in the worker's proof_memo_wrong) and
 *  its entries per worker (0: compiled out, as on MCUs). */
extern bool eg_soft_proof_memo_on;
extern bool eg_soft_proof_memo_verify;
uint32_t eg_soft_proof_memo_entries(void);
/** Sets ct's interior rectangle [x0, x1) x [y0, y1) (multiples of 4; the regions not on a side
 *  of the triangle's box): eg_soft_const_region_tri proves it whole once a region inside holds. */
void eg_soft_const_tri_interior(eg_soft_const_tri_t *ct, int64_t x0, int64_t x1, int64_t y0, int64_t y1);
/** eg_soft_const_region with ct (state 1) of f's triangle. */
bool eg_soft_const_region_tri(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p, uint32_t outb[4]);
/** probe_differs (soft_raster_const.c) at the 4 corner pixels of p (bx0 + fx0, bx1 + fx1, ...):
 *  true when the outputs there visibly differ (no proof over a set holding them can hold). */
bool eg_soft_const_probe_tri(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p);
/** The proof of eg_soft_const_region_tri over p alone (no interior or bands, no probe): true when
 *  output 0 provably holds the bits outb at every pixel of p, or (hi not NULL, ct->rng) a value
 *  in the narrow range [outb, hi] (rectpair, session 12). */
bool eg_soft_const_pxset_tri(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_pxset_t *p, uint32_t outb[4],
                             uint32_t hi[4]);
/** soft_raster_shade.c: block (bx, by) with coverage cov whose output 0 is in f->w->io_out[0]
 *  in every lane (eg_soft_const_region proved it): the blend and store of the const path. */
void eg_soft_shade_const_block(eg_soft_frag_t *f, uint32_t bx, uint32_t by, eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES]);
/** soft_raster_shade.c: the same for the fully covered w x h px rectangle at (x0, y0) (whole
 *  blocks) in one pass over its rows; false (nothing done) when the targets need the per-block path. */
bool eg_soft_shade_const_rect(eg_soft_frag_t *f, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h);
/** soft_raster_fill.c: eg_soft_blend_const over every pixel of the w x h px rectangle at px. */
void eg_soft_blend_const_rect(const eg_soft_target_t *t, uint8_t *px, uint32_t w, uint32_t h, const eg_soft_vec4_t *src,
                              uint32_t fast);
/** soft_raster_fill.c: blend state of a proved constant source, reused while the value repeats,
 *  and the triangle's row spans (eg_soft_cfill_init once per triangle walk). */
typedef struct eg_soft_cfill {
    uint32_t outb[4], fast, last_in, last_out;
    float sfs[4], df[4];
    bool ready, fill;
    int64_t row_y[16], row_x0[16], row_x1[16];   /* the triangle's span of row y (by y mod 16) */
    bool pend;                                   /* [pend_x0, x1) x [pend_y0, y1) not filled yet */
    int64_t pend_x0, pend_x1, pend_y0, pend_y1;
    /* rrect9, session 9: a source known as a narrow range [outb, outb_hi] (rng): its factors at
     * both ends; last_amb: last_in's bytes differ between them (that pixel runs the VM) */
    bool rng, last_amb;
    uint32_t outb_hi[4];
    float sfs_hi[4], df_hi[4];
    float s_lo[4], s_hi[4];                      /* the source range, clamped to [0, 1] */
    uint32_t namb;                               /* blocks with such pixels, shaded at the rows' end */
    int64_t amb_bx[8], amb_by[8];
    eg_soft_mask_t amb_m[8];
    /* rrect10: the run before last_in's (prev_in -> prev_out), valid when have_prev: a shape's
     * rows over what was drawn before alternate between two stored values */
    uint32_t prev_in, prev_out;
    bool have_prev;
    int8_t range_ok;                             /* eg_soft_fill_range_ok of the triangle; -1 not asked yet */
    /* rectpair, session 12: the fill of a rectangle pair's piece (no edges): an open pixel of a
     * range source is shaded by pair[0] where pair_e (its shared edge: A, B, C) passes its centre,
     * else by pair[1] (both eg_soft_shade_setup); pair[0] NULL: by the fill's own triangle */
    struct eg_soft_frag *pair[2];
    int64_t pair_e[3];
} eg_soft_cfill_t;
/** soft_raster_fill.c: the pixels of [x0, x1) x [y0, y1) inside f's triangle (one sample at the
 *  centre) blended with the proved output bits outb, row by row: the bytes of
 *  eg_soft_shade_const_block over the same pixels, possibly only at the next call or at
 *  eg_soft_cfill_flush. False (nothing done) when the targets need the per-block path
 *  (eg_soft_shade_const_rect's conditions). */
bool eg_soft_fill_const_region(eg_soft_frag_t *f, eg_soft_cfill_t *c, int64_t x0, int64_t x1, int64_t y0, int64_t y1,
                               const uint32_t outb[4]);
void eg_soft_cfill_init(eg_soft_cfill_t *c);
/** soft_raster_fill.c: eg_soft_fill_const_region may leave its pixels pending (to join them with
 *  the next region's): fills them. Call when the triangle's walk ends (bin7, session 7). */
void eg_soft_cfill_flush(eg_soft_frag_t *f, eg_soft_cfill_t *c);
/** soft_raster_fill.c: whether proved rows are filled 32 bytes at a time (fill_rows_body, where
 *  vectors are native registers; worker fill_vec_rows counts them) rather than by the per-row
 *  loops (tests: which path ran). */
bool eg_soft_fill_rows_vector(void);
/** soft_raster_fill.c: whether eg_soft_fill_const_region takes f's regions (its target
 *  conditions): then a proof may end in narrow output ranges (rrect9, session 9). */
bool eg_soft_fill_range_ok(const eg_soft_frag_t *f);
/** soft_raster_const.c: the widest output range (per component) a region proof may end in
 *  (rrect9; 0: one value only, as before; tests compare both). */
extern float eg_soft_const_range_max;
/** soft_sample.c: the widest vector width 8-bit RGBA/BGRA bilinear sampling may use: 8 (AVX2
 *  where the CPU has it, else 4), 4, or 0 for the per-lane loop (the same bits; tests compare). */
extern uint32_t eg_soft_sample_vw;
/** soft_raster_shade.c: the widest vector width of the block's barycentrics and interpolation:
 *  8 (AVX2 where the CPU has it) or 4 (the same bits; tests compare) (mesh7b, session 7). */
extern uint32_t eg_soft_shade_vw;
/** soft_raster_depth.c: the pipeline's depth and stencil tests (and writes) on the block at
 *  (bx, by) for the centre depths zc (each sample adds its offset); clears failing lanes in cov. */
void eg_soft_ds_test(const eg_soft_frag_t *f, uint32_t bx, uint32_t by, const float zc[EG_SOFT_LANES],
                     eg_soft_mask_t cov[EG_SOFT_MAX_SAMPLES]);

/* ---- quad pairs as one rectangle (soft_raster_rect.c, helper "rectpair", session 12) ---- */

/** Test switch (default on): off draws rectangle pairs as two triangles (the same bytes). */
extern bool eg_soft_rect_pair_on;
/** Test hook: the second triangle proves nothing, so the first shades its part of the pieces it
 *  proved again (the path taken where the two do not prove alike; the same bytes). */
extern bool eg_soft_rect_pair_again;
/** Whether rs's quads pair for the rectangle walk (soft_draw.c pairs them; soft_raster.c
 *  raster_pair_set_up checks the rest). */
bool eg_soft_rect_pairs(const struct eg_soft_raster_pipeline *rs);
/** Whether the triangles of s[0], s[1] (one sample a pixel) cover exactly the pixels
 *  [r[0], r[1]) x [r[2], r[3]), each once (the two halves of an axis-aligned rectangle; *shared:
 *  s[0]'s edge between them). */
bool eg_soft_rect_of_pair(const eg_soft_setup_t s[2], int64_t r[4], uint32_t *shared);
/** The cuts of the pixels [q[0], q[1]) x [q[2], q[3]) (in the rectangle R) into at most 3 x 3
 *  pixel sets the proof takes exactly, the rectangle's border blocks apart: columns
 *  [cx[i], cx[i + 1]) (returned: their number), rows [cy[j], cy[j + 1]) (*ny). */
uint32_t eg_soft_rect_cuts(const int64_t q[4], const int64_t R[4], int64_t cx[4], int64_t cy[4], uint32_t *ny);
/** A rectangle pair: its rectangle R (pixels [R[0], R[1]) x [R[2], R[3])) and the first
 *  triangle's shared edge e (A, B, C: a covered pixel whose centre passes it is the first's). */
typedef struct eg_soft_rect_pair {
    int64_t R[4], e[3];
} eg_soft_rect_pair_t;
/** Whose pixels the pixel rectangle q holds: 1 the first triangle's only, 2 the second's only,
 *  0 both (the shared edge at its corner pixels' centres). */
uint32_t eg_soft_rect_side(const int64_t e[3], const int64_t q[4]);
/** eg_soft_const_pxset_tri of triangle tri (0 first, 1 second) over each set of eg_soft_rect_cuts
 *  (row by row) holding pixels of tri (bit i of *skip: set i holds none), after a probe when
 *  asked: true when all hold, set i's values then in [lo[i], hi[i]] (lo == hi: one value). */
bool eg_soft_rect_prove(const eg_soft_frag_t *f, eg_soft_const_tri_t *ct, const eg_soft_rect_pair_t *rp, uint32_t tri,
                        bool probe, const int64_t q[4], uint32_t lo[9][4], uint32_t hi[9][4], uint32_t *skip);
/** [lo, hi] := the smallest range holding it and [lo2, hi2] (per component, finite floats). */
void eg_soft_rect_union(uint32_t lo[4], uint32_t hi[4], const uint32_t lo2[4], const uint32_t hi2[4]);
/** [a, b) as side, middle, side (cuts c[0..3], sides >= m px, inner cuts on block borders):
 *  3, or 1 (c[0..1]) when the middle would be empty. */
uint32_t eg_soft_rect_thirds(int64_t a, int64_t b, int64_t m, int64_t c[4]);

#endif /* EG_SOFT_RASTER_H */
