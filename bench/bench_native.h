/* Benchmark runner: scene 5's shader in C (native lower bound) and soft's thread control. */
#ifndef EMGPU_BENCH_NATIVE_H
#define EMGPU_BENCH_NATIVE_H

#include <webgpu/webgpu.h>

#include <stdint.h>

/** bench_alu.frag computed in C for the pixel centre (fx, fy): RGBA in [0, 1]. */
void bench_alu_native(float fx, float fy, float out[4]);
/** Threads hal/soft renders with now (run-time override, environment or build value). */
int bench_soft_threads(void);
/** Sets hal/soft's worker count for the next submissions (0: back to the configured value). */
void bench_set_soft_threads(uint32_t n);
/* BENCH_AB=name: a soft switch set on (1) or off (0): threads (2 workers / 1), order (jobs
 * busiest tile first), spin (threads spin before they block), quads (strip pairs as one record),
 * early (the first half handed over early), lazy (depth discards filled lazily), binned (the schedule fixed binned / unbinned);
 * 0: unknown. */
int bench_soft_ab(const char *name, int on);
void bench_soft_ab_reset(void);
/** Runs pipeline p's fragment stage as bench_alu_native (on) or through the shader VM (off). */
void bench_native_fs(WGPURenderPipeline p, int on);
/** Times scene 5's shader as a bare C loop over w x h pixels: ms per frame into t[0..reps). */
void bench_native_loop(unsigned reps, uint32_t w, uint32_t h, double *t);

#endif /* EMGPU_BENCH_NATIVE_H */
