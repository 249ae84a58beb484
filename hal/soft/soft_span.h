/* hal/soft span fast path ("linear path"): which pipelines qualify and how their rows are filled.
 *
 * A pipeline qualifies (eg_soft_span_pipe_create, at pipeline creation) when it has one sample,
 * no depth/stencil test or write, one color target of RGBA8Unorm / BGRA8Unorm / RGB565 with every
 * channel written, blending off or (per color and alpha) src factor One or SrcAlpha, dst factor
 * Zero or OneMinusSrcAlpha, operation Add, and a fragment program of the SPAN CLASS
 * (eg_soft_program_span_class): straight-line code whose four outputs at location 0 are each an
 * input component, a constant, or one component of a single 2D textureSample* at two input
 * components, optionally multiplied by an input component or a constant.
 * At draw time (eg_soft_span_triangle) a triangle takes the path when its three 1/w are equal
 * (affine varyings) and, for the texture class, the bound view has one mip level and a 2D
 * dimension and the sampler's min and mag filters are equal, so the level of detail (which the
 * general path takes from 2x2-quad derivatives) cannot change a result.
 *
 * The rows then get exactly the general path's values: coverage from the same 64-bit edge
 * equations, barycentrics from the same 4x4-block origins with the same float operations,
 * the same sampler, blend arithmetic and format conversions. Tests compare the bytes with
 * eg_soft_raster_fast_paths on and off (tests/unit/soft_span_test.c).
 *
 * Per triangle, not per 16-pixel chunk: the texture/sampler setup (eg_soft_sample2d_prep below),
 * and the covered x range of each row, stepped from row to row in exact integer arithmetic.
 * Per chunk only the covered lanes (rounded up to 4) are interpolated and shaded, and stores
 * and blending run 4 lanes at a time (EMGPU_SOFT_SIMD; the scalar loops compute the same bits).
 * FUSED ROWS (soft_span_fused.c): copy classes, and R8 coverage (glyphs) sampled nearest, run a
 * kernel chosen at pipeline creation (target format x blend, and per triangle which channels
 * vary) that takes 4 pixels (8 with AVX2) from the block-origin edge values to the stored bytes
 * in registers, with the same per-lane operations; the chunk path below serves the rest.
 * TEXEL COPY: a program whose output is the sampled texel, no blending, nearest sampling and a
 * texture whose bytes are the target's (RGBA8/BGRA8 either way, RGB565 to RGB565) stores the
 * texel's bytes: equal to decode + store because every 8/6/5-bit value converts back to itself
 * (checked at pipeline creation, not assumed). Counted in eg_soft_worker_t.span_copy_px. Where
 * vectors are native, fused copy rows (soft_span_fused.inc FZ_(copy)) compute each lane's texel
 * offset in vectors and move runs of side-by-side texels (a 1:1 blit: one run per row) whole.
 */
#ifndef EG_SOFT_SPAN_H
#define EG_SOFT_SPAN_H

#include "hal/soft/soft_shader.h"
#include "hal/soft/soft_internal.h"

/* Span-class value sources (16 bits): an input slot (location * 4 + component), a constant, a
 * component of the texture sample, or nothing (multiplier absent). */
#define EG_SOFT_SPAN_IN    0x0000u
#define EG_SOFT_SPAN_CONST 0x8000u
#define EG_SOFT_SPAN_TEX   0x4000u
#define EG_SOFT_SPAN_NONE  0xffffu

typedef struct eg_soft_span_class {
    bool tex;                      /* a texture sample is used */
    uint16_t src[4];               /* per output component */
    uint16_t mul[4];               /* TEX sources: times this (IN / CONST), or NONE */
    bool mul_first[4];             /* the multiplier is FMUL's first operand (NaN payload order) */
    uint32_t src_bits[4], mul_bits[4];   /* constant bits */
    uint16_t uv[2];                /* input slots of the texture coordinates */
    uint8_t tex_slot, smp_slot;    /* program resource slots (eg_vm_bind order) */
} eg_soft_span_class_t;

/** soft_vm_classify.c: true when fragment program p is of the span class (above). */
bool eg_soft_program_span_class(const eg_soft_program_t *p, eg_soft_span_class_t *out);

struct eg_soft_raster_pipeline;
struct eg_soft_span_pipe;

/** Test hook (soft_span_fused.c): fused rows of the widest kind the CPU runs (0), of 4 lanes
 *  (4), or off (1: the 16-lane chunk path). */
extern uint32_t eg_soft_span_fused_width;
/** The fused-row widths this build and CPU run: 4 | 8 with AVX2, 4, or 0 (EMGPU_SOFT_SIMD 0). */
uint32_t eg_soft_span_fused_widths(void);
/** The same for the fused texel copy rows: 0 where vectors are not native registers (Cortex-M). */
uint32_t eg_soft_span_copy_widths(void);
/** The widths with the glyph pair kernel (FZ_(glyph2)); 0: none (no vector unit: glyphs take
 *  the generic kernel there). */
uint32_t eg_soft_span_pair_widths(void);
/** Test hook (soft_span.c): shortest row a fused triangle tries the constant-row proof on
 *  (ROWC_MIN_PX_FUSED, 128 px; the chunk loop uses 16). */
extern int64_t eg_soft_span_rowc_min_fused;
/** Test hook (soft_span.c): glyph quads' two triangles filled in one row walk (true) or each
 *  alone (false); the same bytes (eg_soft_span_pair). */
extern bool eg_soft_span_pair_on;
/** Test counter: pairs the submitting thread's worker filled in one walk (FZ_(glyph2)). */
extern uint32_t eg_soft_span_pair_quads;
/** Test hook: glyph pairs take the quad's own set-up (true; soft_span.c quad_fill) or the general
 *  one of each triangle (false); the same bytes. */
extern bool eg_soft_span_pair_quick_on;
/** Test counter: the pairs of eg_soft_span_pair_quads the quad's own set-up prepared. */
extern uint32_t eg_soft_span_pair_quick_quads;
/** Test hook, read at pipeline creation: false makes the quad's set-up test the colour values
 *  one by one (as where they are not four interpolated varyings side by side); the same bytes. */
extern bool eg_soft_span_pair_colvec_on;
/** Test hook (soft_span_glyph.inc): glyph pairs take the separable texel indices where they
 *  are proven (true) or always the per-lane coordinates (false); the same bytes. */
extern bool eg_soft_span_pair_sep_on;
/** Test counter: the pairs of eg_soft_span_pair_quads that took the separable indices
 *  (FZ_(sep_prep) held). */
extern uint32_t eg_soft_span_pair_sep_quads;
/** Test counter: the pairs of eg_soft_span_pair_sep_quads that took the rect rows (each row one
 *  run from the quad's first column, its length from FZ_(sep_runs)). */
extern uint32_t eg_soft_span_pair_rect_quads;
/** Test hooks (soft_span_glyph.inc MEMO): FZ_(sep_prep)'s per-worker memo used (on; the same
 *  bytes either way); verify: each hit also runs sep_prep and compares, and every worker counts
 *  hits, misses and mismatches (bad). */
extern bool eg_soft_sep_memo_on, eg_soft_sep_memo_verify;
extern uint32_t eg_soft_sep_memo_hits, eg_soft_sep_memo_misses, eg_soft_sep_memo_bad;
/** Test counter (soft_span_glyph.inc ROW STATES), counted while eg_soft_sep_memo_verify: rect
 *  quads that took their head rows' states from the memo entry. */
extern uint32_t eg_soft_glyph_rs_hits;
/** Test hooks (soft_span.c QUAD MEMO): glyph quads' whole set-up from the worker's memo (on; the
 *  same bytes either way); verify: each hit also runs the general set-up and compares every field
 *  the kernel reads, and every worker counts hits, misses and mismatches (bad). */
extern bool eg_soft_quad_memo_on, eg_soft_quad_memo_verify;
extern uint32_t eg_soft_quad_memo_hits, eg_soft_quad_memo_misses, eg_soft_quad_memo_bad;
/** Under eg_soft_quad_memo_verify: quads keyed as strip quads (their 4 vertices, u.q). */
extern uint32_t eg_soft_quad_memo_quads;
/** soft_raster.c eg_soft_raster_pair: the quad f[0], f[1] (frag_init'ed, one draw; xy: each
 *  triangle's snapped x0 x1 x2 y0 y1 y2 as tri_setup_ snaps them; c: each box clipped to the
 *  scissor and the worker as raster_pair_set_up clips it, not empty) drawn from the worker's
 *  memo: true. strip: f[0] = (V0, V1, V2), f[1] = (V1, V3, V2), the same vertices (pointers) and
 *  the same x, y, 1/w at the shared ones, and xy[0] = snapped X0 X1 X2 Y0 Y1 Y2 X3 Y3 (xy[1] not
 *  read). False: nothing drawn, the general set-up runs; *pend: a miss left its key for
 *  eg_soft_span_pair to store, which the caller drops after (eg_soft_quad_memo_end). */
struct eg_soft_frag;
struct eg_soft_worker;
bool eg_soft_quad_memo(struct eg_soft_frag *f, const int32_t xy[2][8], const int32_t c[2][4], bool strip, bool *pend);
void eg_soft_quad_memo_end(const struct eg_soft_worker *w);
/** Whether triangles of pipeline r are worth handing over in pairs (eg_soft_bin_pair): its span
 *  class has the pair kernel (blended R8 glyphs). Asked once per vertex batch (soft_draw.c). */
bool eg_soft_span_pairs(const struct eg_soft_raster_pipeline *r);
/** Bumped at each pass begin (soft_bin.c): the span path's per-worker texture look-ups expire. */
extern uint32_t eg_soft_span_epoch;

/** soft_span.c: classifies the pipeline; sets r->span (soft heap) when it qualifies. Returns
 *  OUT_OF_MEMORY only when the heap is exhausted (the pipeline then fails like any other). */
eg_status_t eg_soft_span_pipe_create(struct eg_soft_raster_pipeline *r);
void eg_soft_span_pipe_destroy(struct eg_soft_raster_pipeline *r);

/* Prepared 2D sampling (soft_sample.c): eg_soft_sample's fast path (2D view, one level, RGBA8 /
 * BGRA8 / R8 / RGB565, clamp-to-edge, min == mag filter, no compare) with its per-call setup done
 * once per triangle. Results are eg_soft_sample's bits (the same inlined loop). */
typedef struct eg_soft_sample2d {
    eg_soft_subres_t s;            /* level 0 of the view's base layer */
    WGPUTextureFormat format;      /* the view's format */
    uint8_t fmt;                   /* soft_sample.c fast format */
    bool linear;
} eg_soft_sample2d_t;

/** False when the view/sampler pair is not of the fast kind (then use eg_soft_sample). */
bool eg_soft_sample2d_prep(const eg_texture_view_t *view, const eg_sampler_t *smp, eg_soft_sample2d_t *p);
/** The lanes of `mask` at normalized (u, v), as eg_soft_sample with EG_SOFT_LOD_EXPLICIT 0. */
void eg_soft_sample2d(const eg_soft_sample2d_t *p, const float *u, const float *v, eg_soft_mask_t mask,
                      eg_soft_vec4_t *out);
/** Nearest filtering only: byte offset from p->s.base of the texel each lane [0, n) takes. */
void eg_soft_sample2d_offsets(const eg_soft_sample2d_t *p, const float *u, const float *v, uint32_t n,
                              uint32_t *off);

#endif /* EG_SOFT_SPAN_H */
