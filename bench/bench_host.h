/* Benchmark runner (hosted boards): shared declarations of bench_main.c, bench_draws.c, bench_raw_*.c. */
#ifndef EMGPU_BENCH_HOST_H
#define EMGPU_BENCH_HOST_H

#include <webgpu/webgpu.h>

#include <stdint.h>

/** The one instance of the run (bench_main.c). */
extern WGPUInstance bench_inst;

#define BENCH_DRAWS 10000u
#define BENCH_MAX_REPS 64

/** Median, min and max of n samples (sorted in place). */
typedef struct bench_stat {
    double med, min, max;
} bench_stat_t;

bench_stat_t bench_stat(double *v, unsigned n);
double bench_now_ms(void);

/** Scene 6 modes: (a) draw only, (b) setVertexBuffer + draw, (c) setBindGroup(dynamic) + draw. */
enum { DRAWS_A, DRAWS_B, DRAWS_C, DRAWS_MODES };
/** Phases measured per mode, in ns per draw: the CPU cost of the calls (encode, finish, submit)
 *  and, apart, the wait until the driver has executed the pass (CPU drivers render then). */
enum { PH_ENCODE, PH_FINISH, PH_SUBMIT, PH_WAIT, PH_COUNT };

typedef struct bench_draws_result {
    int ok;
    bench_stat_t ns[DRAWS_MODES][PH_COUNT];
    uint32_t stream_B[DRAWS_MODES];     /* emgpu: command-stream bytes of the pass */
} bench_draws_result_t;

/** Scene 6 through webgpu.h on backend name "noop", "soft", "vulkan", "gles". */
void bench_draws_api(const char *backend, unsigned reps, bench_draws_result_t *out);
/** The same loop against raw Vulkan (lavapipe, dlopen) and raw GLES (EGL, llvmpipe); out->ok = 0
 *  with a reason printed when the driver is missing. */
void bench_draws_raw_vk(unsigned reps, bench_draws_result_t *out);
void bench_draws_raw_gl(unsigned reps, bench_draws_result_t *out);

#endif /* EMGPU_BENCH_HOST_H */
