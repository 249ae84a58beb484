/* Entry point of a unit-test binary: hosted boards take an optional name filter argument;
 * bare-metal boards run everything and report the result through the exit status. */
#include "tests/harness/harness.h"
#include "tests/harness/test_device.h"

#include "kernel/base/util.h"
#include "port/port.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_bin.h"
#endif

int main(int argc, char **argv);

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    /* EMGPU_TEST_BACKEND=vulkan|gles runs the suite on a GPU backend. When that backend has no
     * adapter here (driver missing), the whole suite is one skip, named, never a pass. */
    const char *backend = eg_port_getenv("EMGPU_TEST_BACKEND");
    if (backend && *backend && eg_strcmp(backend, "soft") != 0) {
        WGPUDevice d = eg_test_device("soft");
        eg_test_device_release();
        if (!d) {
            eg_test_printf("SKIP backend %s: no adapter (driver or library missing)\n", backend);
            eg_test_printf("0 passed, 0 failed, 1 skipped\n");
            return 0;
        }
    }
#if EMGPU_HAL_SOFT
    /* With more than one worker the unit tests bin every pass, as they did before the timed
     * schedule (soft_schedule.c): its choice follows the clock, and a test must know which path
     * it exercises (eg_soft_set_threads 1 for unbinned). soft_schedule_test.c drives the
     * schedule with a clock of its own. */
    eg_soft_sched_set_mode(EG_SOFT_SCHED_BINNED);
#endif
    const char *verbose = eg_port_getenv("EMGPU_TEST_VERBOSE");
    eg_test_verbose = verbose && *verbose && *verbose != '0';
    eg_test_exclude = eg_port_getenv("EMGPU_TEST_EXCLUDE");
    int failed = eg_test_run_all(filter);
    return failed ? 1 : 0;
}
