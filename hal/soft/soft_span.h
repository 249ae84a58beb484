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
 */
#ifndef EG_SOFT_SPAN_H
#define EG_SOFT_SPAN_H

#include "hal/soft/soft_shader.h"

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

/** soft_span.c: classifies the pipeline; sets r->span (soft heap) when it qualifies. Returns
 *  OUT_OF_MEMORY only when the heap is exhausted (the pipeline then fails like any other). */
eg_status_t eg_soft_span_pipe_create(struct eg_soft_raster_pipeline *r);
void eg_soft_span_pipe_destroy(struct eg_soft_raster_pipeline *r);

#endif /* EG_SOFT_SPAN_H */
