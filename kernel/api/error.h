/* Errors: validation contexts, EG_CHECK, and delivery to error scopes or the uncaptured callback.
 *
 * Every public entry point opens an eg_vctx_t naming itself and the object's label, then runs
 * its checks in spec order; the first failing EG_CHECK formats one message and returns false.
 * The message reads `wgpuDeviceCreateTexture "shadow": mipLevelCount 8 exceeds 7, the full chain
 * for 64x64`. The error goes to the innermost error scope whose filter matches (WebGPU
 * "dispatch error"), or to the device's uncaptured-error callback when no scope matches.
 * Errors against a lost device are dropped, as the spec says.
 *
 * Errors with no device to report to (a NULL device handle, instance-level calls) are logged
 * through the port and, where the call has a callback, reported through its status.
 */
#ifndef EG_ERROR_H
#define EG_ERROR_H

#include <webgpu/webgpu.h>

#include "kernel/api/error_codes.h"
#include "kernel/base/util.h"

struct eg_pool;
struct WGPUDeviceImpl;

typedef struct eg_vctx {
    struct WGPUDeviceImpl *device;   /* where errors go; may be NULL (then logged) */
    const char *entry;               /* "wgpuDeviceCreateTexture" */
    const char *label;               /* label of the object being created or used; may be NULL */
} eg_vctx_t;

static inline eg_vctx_t eg_vctx(struct WGPUDeviceImpl *device, const char *entry, const char *label)
{
    eg_vctx_t v = { device, entry, label };
    return v;
}

/** Formats "entry \"label\": message" and dispatches an error of `type`. Returns false so that a
 *  check can `return eg_fail(...)`. */
bool eg_fail(const eg_vctx_t *v, WGPUErrorType type, eg_error_code_t code, const char *fmt, ...)
    EG_PRINTF(4, 5);

/** One validation rule: on failure report a Validation error with CODE and return false.
 *  Usage: EG_CHECK(v, d->size <= lim, BUFFER_TOO_LARGE, "size %llu exceeds ...", ...); */
#define EG_CHECK(v, cond, CODE, ...) \
    do { if (EG_UNLIKELY(!(cond))) return eg_fail((v), WGPUErrorType_Validation, EG_E_##CODE, __VA_ARGS__); } while (0)

/** Reports a pool-full error (OutOfMemory, naming the pool and its knob). */
bool eg_fail_pool_full(const eg_vctx_t *v, const struct eg_pool *pool);

/** Reports what a HAL create/submit call returned: OutOfMemory naming the backend's memory knob,
 *  device loss (the device is lost), or Internal (a kernel validation gap). `what` names the
 *  object ("buffer"), size_B its size when known (0 otherwise). Returns false. */
bool eg_fail_hal(const eg_vctx_t *v, int hal_status, const char *what, uint64_t size_B);

/* Delivers an already formatted error (used by eg_fail, and by queue-timeline errors). */
void eg_error_dispatch(struct WGPUDeviceImpl *device, WGPUErrorType type, eg_error_code_t code,
                       const char *message);

/* Test hook: the code and type of the most recent error dispatched on the device. */
eg_error_code_t eg_device_last_error_code(const struct WGPUDeviceImpl *device);

#endif /* EG_ERROR_H */
