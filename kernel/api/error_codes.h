/* Stable validation error codes, one X-macro table: X(CODE, "what the rule says").
 *
 * Tests assert the code (and a fragment of the message that names the field); the summary
 * column documents the rule and is what a text-free build would keep. The message itself is
 * written at the check (EG_CHECK), where the field, value and limit are at hand.
 * Sections are per object; add a code to the section of the file whose checks use it.
 */
#ifndef EG_ERROR_CODES_H
#define EG_ERROR_CODES_H

#define EG_ERROR_CODES(X) \
    /* ---- generic ---- */ \
    X(NONE, "no error") \
    X(NULL_DESCRIPTOR, "a required descriptor pointer is NULL") \
    X(NULL_HANDLE, "a required object handle is NULL") \
    X(STALE_HANDLE, "the handle points to a released object") \
    X(WRONG_HANDLE_KIND, "the handle is not an object of the expected type") \
    X(INVALID_OBJECT, "the object is invalid (its creation failed validation)") \
    X(DESTROYED_OBJECT, "the object was destroyed") \
    X(WRONG_DEVICE, "the object belongs to another device") \
    X(UNKNOWN_STYPE, "a chained struct has an sType this call does not accept") \
    X(POOL_FULL, "an object pool is full (its EMGPU_MAX_* knob)") \
    X(ARENA_FULL, "an arena or heap is full (its EMGPU_*_BYTES knob)") \
    X(HAL_OUT_OF_MEMORY, "the backend ran out of memory") \
    X(HAL_INTERNAL, "the backend reported an internal error") \
    X(DEVICE_LOST, "the device is lost") \
    /* ---- instance / adapter / device ---- */ \
    X(INSTANCE_FEATURE_UNSUPPORTED, "requested instance feature is not supported") \
    X(DEVICE_FEATURE_UNSUPPORTED, "requested feature is not supported by the adapter") \
    X(DEVICE_LIMIT_UNSUPPORTED, "requested limit is beyond the adapter's") \
    X(DEVICE_LIMIT_ALIGNMENT, "requested alignment limit is not a power of two") \
    X(ADAPTER_ALREADY_USED, "the adapter already created a device (it is consumed)") \
    X(ERROR_SCOPE_OVERFLOW, "PushErrorScope beyond EMGPU_MAX_ERROR_SCOPES") \
    X(ERROR_SCOPE_EMPTY, "PopErrorScope with no scope pushed") \
    X(ENUM_VALUE, "an enum field has a value outside the enum") \
    /* ---- buffer ---- */ \
    /* ---- texture / view / sampler ---- */ \
    /* ---- binding model / shader / pipelines ---- */ \
    /* ---- command encoding ---- */ \
    /* ---- queue ---- */ \
    /* end */

typedef enum eg_error_code {
#define EG_ERROR_CODE_ENUM(code, summary) EG_E_##code,
    EG_ERROR_CODES(EG_ERROR_CODE_ENUM)
#undef EG_ERROR_CODE_ENUM
    EG_E_COUNT
} eg_error_code_t;

const char *eg_error_code_name(eg_error_code_t code);
const char *eg_error_code_summary(eg_error_code_t code);

#endif /* EG_ERROR_CODES_H */
