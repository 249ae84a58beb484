/* Test helpers for API tests: a device on a chosen backend, and error capture.
 *
 * eg_test_device() creates an instance, requests an adapter of the named backend ("soft" or
 * "noop") and a device, and installs an uncaptured-error callback that records every error
 * into eg_test_err. EG_EXPECT_ERROR checks that exactly one error happened since the last reset,
 * of the given type and code, with a message containing a fragment; then it resets.
 */
#ifndef EG_TEST_DEVICE_H
#define EG_TEST_DEVICE_H

#include <webgpu/webgpu.h>

#include "kernel/api/error_codes.h"
#include "tests/harness/harness.h"

typedef struct eg_test_errors {
    unsigned count;
    WGPUErrorType type;          /* of the first error since reset */
    eg_error_code_t code;        /* of the first error since reset */
    char message[320];           /* of the first error since reset */
} eg_test_errors_t;

extern eg_test_errors_t eg_test_err;

/** A fresh instance + adapter + device on `backend` ("soft", "noop"); NULL (and the test should
 *  EG_SKIP) if the backend is not compiled in. Any previous test device is released first. */
WGPUDevice eg_test_device(const char *backend);
WGPUInstance eg_test_instance(void);
/** The backend the current test device runs on: "soft" unless EMGPU_TEST_BACKEND (vulkan, gles,
 *  d3d12) redirected it; tests of soft internals (its heap, ...) skip on the others. */
const char *eg_test_backend(void);
WGPUQueue  eg_test_queue(void);
/** Releases the test device, adapter and instance (and checks every pool is empty again). */
void eg_test_device_release(void);
void eg_test_errors_reset(void);
/** Waits (WaitAny / ProcessEvents) until the future completes; false on timeout. */
bool eg_test_wait(WGPUFuture f);

#define EG_EXPECT_ERROR(etype, CODE, fragment) \
    do { EG_EXPECT_EQ_U(eg_test_err.count, 1); EG_EXPECT_EQ_U(eg_test_err.type, (etype)); \
         EG_EXPECT_EQ_U(eg_test_err.code, EG_E_##CODE); \
         EG_EXPECT_STR_CONTAINS(eg_test_err.message, (fragment)); eg_test_errors_reset(); } while (0)
#define EG_EXPECT_NO_ERROR() \
    do { if (eg_test_err.count) eg_test_printf("    unexpected error: %s\n", eg_test_err.message); \
         EG_EXPECT_EQ_U(eg_test_err.count, 0); eg_test_errors_reset(); } while (0)

#endif /* EG_TEST_DEVICE_H */
