/* hal/soft: the contract between the shader VM (soft_vm*.c) and its callers, the rasterizer
 * (soft_raster*.c, soft_draw*.c) and the compute executor.
 *
 * EXECUTION MODEL. A compiled program (eg_soft_program_t) runs over EG_SOFT_LANES lanes at once:
 * every VM instruction loops over the lanes of a block, so interpretation cost is paid per block,
 * never per pixel. Divergent control flow runs under an execution mask. Values are kept SoA: one
 * eg_soft_reg_t holds one 32-bit scalar for every lane; an eg_soft_vec4_t holds four of them.
 *
 * FRAGMENT LANE ORDER. A fragment block is a 4x4 pixel square; lane = (y & 3) * 4 + (x & 3)
 * (row-major). The 2x2 quads used for derivatives are the lanes {l, l^1, l^4, l^5} for l with
 * bits 0 and 2 clear: dFdx = v[l | 1] - v[l & ~1], dFdy = v[l | 4] - v[l & ~4] (coarse and fine
 * are both computed this way, per quad). Lanes outside the primitive but inside a covered quad
 * run as HELPER lanes: they compute values for derivatives but their stores, atomics and
 * outputs have no effect.
 *
 * VERTEX BATCHES. The rasterizer shades up to EG_SOFT_LANES vertices per call, lanes in any
 * order (vertex_index / instance_index per lane say which).
 *
 * COMPUTE. eg_soft_dispatch runs a whole dispatch itself (workgroups one after another; a
 * workgroup's invocations in blocks of EG_SOFT_LANES, barriers handled inside the VM).
 *
 * MEMORY. Programs are compiled at pipeline creation from the front end's IR (kernel/shader)
 * into bytecode placed in the soft heap (EMGPU_SOFT_HEAP_BYTES); the IR itself lives only in a
 * scratch arena for the duration of the compile. Nothing is allocated while a program runs.
 */
#ifndef EG_SOFT_SHADER_H
#define EG_SOFT_SHADER_H

#include "kernel/base/util.h"
#include "hal/hal.h"
#include "kernel/shader/spirv.h"

/** Lanes of one VM block (a 4x4 fragment block). */
#define EG_SOFT_LANES 16u
/** Most inter-stage / vertex-input / color-output locations a program may use. */
#define EG_SOFT_MAX_LOCATIONS 16u

/** One bit per lane, bit i = lane i. */
typedef uint32_t eg_soft_mask_t;
#define EG_SOFT_ALL_LANES ((eg_soft_mask_t)((1u << EG_SOFT_LANES) - 1u))

/** One 32-bit scalar per lane (float, int or uint by the program's types). */
typedef union eg_soft_reg {
    float    f[EG_SOFT_LANES];
    int32_t  i[EG_SOFT_LANES];
    uint32_t u[EG_SOFT_LANES];
} eg_soft_reg_t;

/** A vec4 per lane, component-major (c[0] = x of every lane, ...). */
typedef struct eg_soft_vec4 {
    eg_soft_reg_t c[4];
} eg_soft_vec4_t;

typedef struct eg_soft_program eg_soft_program_t;   /* defined by the VM */

/** How a fragment input is interpolated (from SPIR-V Flat / NoPerspective decorations). */
typedef enum eg_soft_interp {
    EG_SOFT_INTERP_PERSPECTIVE = 0,
    EG_SOFT_INTERP_LINEAR,        /* NoPerspective: screen-space linear */
    EG_SOFT_INTERP_FLAT           /* provoking vertex = first vertex of the primitive */
} eg_soft_interp_t;

/** What a compiled program reads and writes: the rasterizer specialises on these. */
typedef struct eg_soft_program_info {
    eg_shader_stage_t stage;
    uint32_t input_mask;              /* locations read: vertex attributes / fragment varyings */
    uint32_t output_mask;             /* locations written: varyings / color targets */
    uint8_t  input_scalar[EG_SOFT_MAX_LOCATIONS];   /* eg_shader_scalar_t per input location */
    uint8_t  output_scalar[EG_SOFT_MAX_LOCATIONS];  /* eg_shader_scalar_t per output location */
    uint8_t  input_components[EG_SOFT_MAX_LOCATIONS];
    uint8_t  output_components[EG_SOFT_MAX_LOCATIONS];
    uint8_t  interp[EG_SOFT_MAX_LOCATIONS];         /* fragment inputs: eg_soft_interp_t */
    bool     writes_depth;            /* fragment: FragDepth written */
    bool     may_discard;             /* fragment: OpKill / OpTerminateInvocation present */
    bool     uses_frag_coord, uses_front_facing, uses_derivatives;
    bool     has_side_effects;        /* stores or atomics on storage buffers/textures */
    uint32_t workgroup_size[3];       /* compute */
    uint32_t workgroup_mem_B;         /* compute: Workgroup variables */
} eg_soft_program_info_t;

/** Resources bound for one draw or dispatch: the bind groups as set, with their dynamic offsets
 *  (in the order of the layout's dynamic entries, sorted by binding as WebGPU defines). */
typedef struct eg_soft_bound {
    const eg_bind_group_t *groups[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    uint32_t dynamic_offset_count[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    uint32_t dynamic_offsets[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT][16];
} eg_soft_bound_t;

/** One call of a vertex or fragment program over one block. The caller fills the inputs the
 *  program's info asks for; the VM writes the outputs for the lanes in `active`. */
typedef struct eg_soft_invocation {
    /* vertex: attributes by shader location, converted to the shader's scalar type
     * (floats for float formats incl. unorm/snorm, raw integers for uint/sint formats), missing
     * components filled with (0, 0, 0, 1). fragment: interpolated varyings by location. */
    const eg_soft_vec4_t *in;         /* [EG_SOFT_MAX_LOCATIONS] */
    eg_soft_vec4_t *out;              /* [EG_SOFT_MAX_LOCATIONS]: varyings / color outputs */
    /* vertex out: clip-space Position. fragment in: FragCoord = (x + 0.5, y + 0.5, z_ndc after
     * viewport depth mapping, 1 / w_clip) in framebuffer pixels. */
    eg_soft_vec4_t position;
    eg_soft_reg_t  frag_depth;        /* fragment out, when info.writes_depth */
    eg_soft_reg_t  vertex_index;      /* vertex in: index as WebGPU defines it (base vertex added) */
    eg_soft_reg_t  instance_index;    /* vertex in */
    eg_soft_mask_t front_facing;      /* fragment in: lanes of a front-facing primitive */
    eg_soft_mask_t helper;            /* fragment in: lanes that run only for derivatives */
    /* in: lanes to run. fragment out: the lanes not discarded (helper lanes included). */
    eg_soft_mask_t active;
    /* ---- appended by helper "fast" (session 3): sample built-ins ---- */
    uint32_t sample_id;               /* fragment in: SampleId (the sample this call shades; 0) */
    eg_soft_reg_t sample_mask_in;     /* fragment in: SampleMask, covered-sample bits per lane */
    eg_soft_reg_t sample_mask_out;    /* fragment out: SampleMask written (program writes it) */
    /* EMGPU_SOFT_VM_MAX_REGS registers of scratch for the run (the calling worker's vm_regs, so
     * the ~12 KiB register file is not on the stack: firmware sizes its stacks by the deepest
     * path, which is a fragment program's); NULL: eg_soft_program_run puts them on its stack. */
    eg_soft_reg_t *regs;
} eg_soft_invocation_t;

/* ---- soft_vm_compile.c ---- */

/** Compiles stage (module + entry point) against the pipeline's layout (never NULL: an auto
 *  layout is derived by the kernel before the HAL is called) into bytecode in the soft heap.
 *  OUT_OF_MEMORY (after logging the knob that ran out) when the heap or the compile scratch
 *  arena is too small; INTERNAL when the IR holds something the VM does not implement (logged
 *  with the opcode: the front end should not have accepted it). */
eg_status_t eg_soft_program_create(const eg_shader_module_t *sm, const char *entry_point,
                                   eg_shader_stage_t stage, const eg_pipeline_layout_t *layout,
                                   eg_soft_program_t **out);
void eg_soft_program_destroy(eg_soft_program_t *p);
const eg_soft_program_info_t *eg_soft_program_info(const eg_soft_program_t *p);

/* ---- soft_vm_exec.c ---- */

/** Runs a vertex or fragment program over the lanes of inv->active. Reentrant: a program may run
 *  on several threads at once with different invocations. */
void eg_soft_program_run(const eg_soft_program_t *p, const eg_soft_bound_t *res,
                         eg_soft_invocation_t *inv);
/** A vertex batch's runs (soft_draw.c): true where p runs as one native function; then the
 *  uniform words it reads are written into regs (inv->regs of the batch's calls) once, and
 *  eg_soft_program_batch_run(p, inv) on a group with every lane active does what
 *  eg_soft_program_run does, as long as nothing else runs a program on regs in between. */
bool eg_soft_program_batch_prep(const eg_soft_program_t *p, const eg_soft_bound_t *res, eg_soft_reg_t *regs);
void eg_soft_program_batch_run(const eg_soft_program_t *p, eg_soft_invocation_t *inv);

/** Runs a whole compute dispatch of groups_x * groups_y * groups_z workgroups (kernel-validated
 *  against the limits). Workgroup memory comes from a static block sized by
 *  EMGPU_SOFT_WORKGROUP_MEM_BYTES (>= maxComputeWorkgroupStorageSize). */
eg_status_t eg_soft_dispatch(const eg_soft_program_t *p, const eg_soft_bound_t *res,
                             uint32_t groups_x, uint32_t groups_y, uint32_t groups_z);

/* ---- pipeline objects (soft_pipeline.c), kept in the pipeline's eg_hal_priv_t ---- */

struct eg_soft_raster_pipeline;      /* the rasterizer's specialised fixed-function state */

typedef struct eg_soft_render_pipeline {
    eg_soft_program_t *vs;
    eg_soft_program_t *fs;           /* NULL: no fragment stage (depth-only) */
    struct eg_soft_raster_pipeline *raster;
} eg_soft_render_pipeline_t;

typedef struct eg_soft_compute_pipeline {
    eg_soft_program_t *cs;
} eg_soft_compute_pipeline_t;

/* soft_raster_pipeline.c: specialises vertex fetch, primitive, depth/stencil, blend and target
 * formats for one render pipeline (soft heap); called by soft_pipeline.c after both programs
 * compiled. */
eg_status_t eg_soft_raster_pipeline_create(const eg_render_pipeline_t *rp, const eg_soft_program_t *vs,
                                           const eg_soft_program_t *fs,
                                           struct eg_soft_raster_pipeline **out);
void eg_soft_raster_pipeline_destroy(struct eg_soft_raster_pipeline *r);

/* ---- raster2 request (addition by helper raster2, for the lead to review) ----
 * soft_vm_classify.c: recognises fragment programs that only copy inputs (or constants) to the
 * color output at location 0, so the rasterizer can skip the VM for them (UI fast path). */
#define EG_SOFT_COPY_CONST 0x8000u   /* copy source flag: constant bits, not an input slot */
typedef struct eg_soft_copy_class {
    uint16_t src[4];                 /* per output component: input slot (location * 4 + comp) */
    uint32_t const_bits[4];          /* value bits where src has EG_SOFT_COPY_CONST */
} eg_soft_copy_class_t;
/** True when fragment program p is straight-line code whose only effect is writing all four
 *  components of output location 0, each an input component or a constant, bit for bit. */
bool eg_soft_program_copy_class(const eg_soft_program_t *p, eg_soft_copy_class_t *out);

#endif /* EG_SOFT_SHADER_H */
