/* SPIR-V robust access rewrite: dynamic indices clamped into their arrays (WGSL "Out-of-Bounds
 * Access"), arrayLength from per-binding uniforms, for backends whose drivers do not bound
 * accesses (GLES: buffers and locals; Vulkan: locals, robustBufferAccess covers buffers).
 * The rules and the measurements behind them are in spirv_robust.c. No heap, no recursion. */
#ifndef EG_SHADER_SPIRV_ROBUST_H
#define EG_SHADER_SPIRV_ROBUST_H

#include <stdbool.h>
#include <stdint.h>

/* What to clamp (flags). */
#define EG_SPIRV_ROBUST_BUFFERS 1u   /* Uniform / StorageBuffer variables; OpArrayLength from uniforms */
#define EG_SPIRV_ROBUST_LOCALS 2u    /* Workgroup / Private / Function variables */

/* The runtime-array length uniforms of one rewritten module (BUFFERS only). */
#define EG_SPIRV_ROBUST_MAX_LENS 8u
typedef struct eg_spirv_len_var {
    uint32_t var, id;               /* the buffer variable, the new uniform's id */
    uint32_t group, binding;        /* its DescriptorSet / Binding */
    uint32_t offset_B, stride_B;    /* the runtime array's offset in the block, its stride */
} eg_spirv_len_var_t;

typedef struct eg_spirv_robust {
    uint32_t len_count, clamps;     /* clamps: indices clamped */
    eg_spirv_len_var_t len[EG_SPIRV_ROBUST_MAX_LENS];
    char message[160];              /* why the rewrite failed */
} eg_spirv_robust_t;

/** Copies SPIR-V w (n words, a module the front end validated) to o (cap words) with the
 *  indices `what` selects clamped. Each length uniform is a new UniformConstant uint variable
 *  (out->len[k].id) the caller names and sets to (binding size - offset_B) / stride_B. A module
 *  with nothing to clamp is copied unchanged. False: out->message says why (o too small, id
 *  bound above EMGPU_MAX_SPIRV_WORDS, more than EG_SPIRV_ROBUST_MAX_LENS runtime arrays). */
bool eg_spirv_robust_rewrite(const uint32_t *w, uint32_t n, uint32_t what, uint32_t *o, uint32_t cap,
                             uint32_t *out_n, eg_spirv_robust_t *out);

#endif /* EG_SHADER_SPIRV_ROBUST_H */
