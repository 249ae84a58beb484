/* hal/soft bench hook (issue #8, helper "bench"): a render pipeline's fragment stage replaced by a
 * C function, to measure the shader VM against native code under the same rasterizer.
 *
 * Not an API: no validation beyond a NULL check, soft backend only, call it before the pipeline
 * is used and never while a queue submission is running. fn runs exactly where the VM would (one
 * 4x4 block per call, soft_shader.h's eg_soft_invocation_t: inputs in inv->in and inv->position
 * (FragCoord); write the color outputs for the lanes of inv->active to inv->out, clear lanes of
 * inv->active to discard); the copy and span fast paths are off for that pipeline. fn NULL
 * restores the VM.
 */
#ifndef EG_SOFT_BENCH_H
#define EG_SOFT_BENCH_H

#include "hal/soft/soft_shader.h"

typedef void (*eg_soft_native_fs_fn)(eg_soft_invocation_t *inv, const void *user);

void eg_soft_render_pipeline_set_native_fs(WGPURenderPipeline p, eg_soft_native_fs_fn fn, const void *user);

#endif /* EG_SOFT_BENCH_H */
