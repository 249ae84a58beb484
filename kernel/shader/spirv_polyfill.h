/* SPIR-V integer-division polyfill: rewrites OpSDiv/OpUDiv/OpSRem/OpSMod/OpUMod so that every
 * input gives the result WebGPU defines (backends whose drivers leave some inputs undefined).
 *
 * WGSL (section "Arithmetic Expressions"): e1 / e2 and e1 % e2 with e2 == 0, or with signed
 * e1 == INT_MIN and e2 == -1, give e1 and 0 respectively; % otherwise truncates
 * (e1 - trunc(e1 / e2) * e2). Vulkan leaves OpSRem/OpSMod undefined for negative operands and
 * every division undefined for a zero divisor and for INT_MIN / -1. The rewrite replaces the
 * divisor by 1 in those cases (x / 1 = x and x - (x / 1) * 1 = 0 are exactly WGSL's answers) and
 * builds remainders from OpSDiv, which Vulkan defines for negative operands (it truncates).
 * OpSMod (what glslang emits for GLSL %) keeps its SPIR-V meaning, the sign of the divisor, built
 * from the truncating remainder. Only 32-bit integer scalars and vectors are rewritten.
 *
 * No heap: the caller passes the output buffer; no recursion.
 */
#ifndef EG_SHADER_SPIRV_POLYFILL_H
#define EG_SHADER_SPIRV_POLYFILL_H

#include <stdbool.h>
#include <stdint.h>

/* Result types with a division the pass can handle in one module (extra ones: an error). */
#define EG_SPIRV_POLYFILL_MAX_TYPES 8u

typedef struct eg_spirv_polyfill_result {
    uint32_t word_count;   /* words written to out */
    uint32_t rewritten;    /* division instructions replaced (0: out is a plain copy) */
    char message[160];     /* why it failed, when eg_spirv_polyfill_int_div returns false */
} eg_spirv_polyfill_result_t;

/* Words the rewrite of `in` can need at most (a bound for sizing `out`). */
uint32_t eg_spirv_polyfill_words_max(const uint32_t *in, uint32_t in_words);

/* Copies `in` (a module the front end validated) to `out` (out_cap words) with every 32-bit
 * integer division and remainder replaced by a defined sequence. False when out is too small
 * (the message names both sizes) or the module has more than EG_SPIRV_POLYFILL_MAX_TYPES
 * division result types. in and out must not overlap. */
bool eg_spirv_polyfill_int_div(const uint32_t *in, uint32_t in_words, uint32_t *out, uint32_t out_cap,
                               eg_spirv_polyfill_result_t *res);

#endif /* EG_SHADER_SPIRV_POLYFILL_H */
