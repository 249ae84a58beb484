/* Error delivery: message formatting, error scopes, the uncaptured-error callback. */
#include "kernel/api/error.h"

#include "kernel/api/device.h"
#include "kernel/base/fmt.h"
#include "kernel/base/log.h"

/* Spec: "dispatch error" — the innermost scope whose filter matches the error type captures it
 * (only the first error per scope is kept); otherwise the uncaptured-error callback fires. */
static bool filter_matches(WGPUErrorFilter filter, WGPUErrorType type)
{
    switch (filter) {
    case WGPUErrorFilter_Validation: return type == WGPUErrorType_Validation;
    case WGPUErrorFilter_OutOfMemory: return type == WGPUErrorType_OutOfMemory;
    case WGPUErrorFilter_Internal: return type == WGPUErrorType_Internal;
    default: return false;
    }
}

void eg_error_dispatch(struct WGPUDeviceImpl *device, WGPUErrorType type, eg_error_code_t code,
                       const char *message)
{
    if (!device) {
        eg_log(EG_LOG_ERROR, "emgpu: %s", message);
        return;
    }
    device->last_error_code = code;
    device->last_error_type = type;
    if (device->lost) return;   /* spec: errors on a lost device are not reported */
    for (uint32_t i = device->scope_depth; i-- > 0;) {
        eg_error_scope_t *s = &device->scopes[i];
        if (!filter_matches(s->filter, type)) continue;
        if (s->type == WGPUErrorType_NoError) {
            s->type = type;
            size_t n = eg_strlen(message);
            if (n >= sizeof s->message) n = sizeof s->message - 1;
            eg_memcpy(s->message, message, n);
            s->message[n] = '\0';
        }
        return;
    }
    if (device->uncaptured.callback) {
        WGPUDevice dev = device;
        WGPUStringView msg = { message, eg_strlen(message) };
        device->uncaptured.callback(&dev, type, msg, device->uncaptured.userdata1,
                                    device->uncaptured.userdata2);
    } else {
        eg_log(EG_LOG_WARN, "emgpu: uncaptured error: %s", message);
    }
}

bool eg_fail(const eg_vctx_t *v, WGPUErrorType type, eg_error_code_t code, const char *fmt, ...)
{
    char msg[EMGPU_ERROR_MESSAGE_MAX];
    size_t n;
    if (v->label && v->label[0])
        n = eg_fmt(msg, sizeof msg, "%s \"%s\": ", v->entry, v->label);
    else
        n = eg_fmt(msg, sizeof msg, "%s: ", v->entry);
    va_list ap;
    va_start(ap, fmt);
    eg_vfmt(msg + n, sizeof msg - n, fmt, ap);
    va_end(ap);
    eg_error_dispatch(v->device, type, code, msg);
    return false;
}

bool eg_fail_pool_full(const eg_vctx_t *v, const struct eg_pool *pool)
{
    return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_POOL_FULL, "%s pool full (%s = %u)",
                   pool->name, pool->knob, (unsigned)pool->capacity);
}

/* The pending reason a HAL gave for its failure (hal/hal.h eg_hal_error_detail). */
static struct {
    bool pending;
    WGPUErrorType type;
    uint32_t code;
    char message[EMGPU_ERROR_MESSAGE_MAX];
} g_hal_detail;

void eg_hal_error_detail(WGPUErrorType type, uint32_t code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    eg_vfmt(g_hal_detail.message, sizeof g_hal_detail.message, fmt, ap);
    va_end(ap);
    g_hal_detail.type = type;
    g_hal_detail.code = code;
    g_hal_detail.pending = true;
}

bool eg_fail_hal(const eg_vctx_t *v, int hal_status, const char *what, uint64_t size_B)
{
    const eg_hal_ops_t *hal = v->device->hal;
    bool detail = g_hal_detail.pending;
    g_hal_detail.pending = false;
    if (detail && hal_status != EG_STATUS_OK && hal_status != EG_STATUS_DEVICE_LOST)
        return eg_fail(v, g_hal_detail.type, (eg_error_code_t)g_hal_detail.code, "%s", g_hal_detail.message);
    switch ((eg_status_t)hal_status) {
    case EG_STATUS_OK:
        return true;
    case EG_STATUS_OUT_OF_MEMORY:
        if (hal->memory_knob && size_B)
            return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_HAL_OUT_OF_MEMORY,
                           "the %s backend has no room for the %s (%llu bytes; %s = %llu)", hal->name,
                           what, (unsigned long long)size_B, hal->memory_knob,
                           (unsigned long long)hal->memory_knob_value);
        if (hal->memory_knob)
            return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_HAL_OUT_OF_MEMORY,
                           "the %s backend has no room for the %s (%s = %llu)", hal->name, what,
                           hal->memory_knob, (unsigned long long)hal->memory_knob_value);
        return eg_fail(v, WGPUErrorType_OutOfMemory, EG_E_HAL_OUT_OF_MEMORY,
                       "the %s backend ran out of memory for the %s", hal->name, what);
    case EG_STATUS_DEVICE_LOST:
        eg_device_lose(v->device, WGPUDeviceLostReason_Unknown, "the backend lost the device");
        return false;
    default:
        return eg_fail(v, WGPUErrorType_Internal, EG_E_HAL_INTERNAL,
                       "the %s backend failed on the %s (status %d): a kernel validation gap",
                       hal->name, what, hal_status);
    }
}

eg_error_code_t eg_device_last_error_code(const struct WGPUDeviceImpl *device)
{
    return device ? device->last_error_code : EG_E_NONE;
}
