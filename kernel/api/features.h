/* Features and limits: feature bits, the spec's default limits, and requiredLimits checking. */
#ifndef EG_API_FEATURES_H
#define EG_API_FEATURES_H

#include <webgpu/webgpu.h>

#include "kernel/base/util.h"

/* WGPUFeatureName values 1..EG_FEATURE_COUNT-1 map to bits 1.. of a uint64_t feature set. */
#define EG_FEATURE_COUNT 23

/** Bit index of a feature in eg_device_info_t.features, or -1 for an unknown value. */
int eg_feature_bit(WGPUFeatureName f);
static inline bool eg_features_has(uint64_t set, WGPUFeatureName f)
{
    int b = eg_feature_bit(f);
    return b >= 0 && ((set >> b) & 1u);
}
/** Writes the features of `set` in enum order; returns how many (<= EG_FEATURE_COUNT). */
uint32_t eg_features_list(uint64_t set, WGPUFeatureName *out);
/** "Depth32FloatStencil8", for messages. */
const char *eg_feature_name(WGPUFeatureName f);

/* ---- limits (limits.c) ---- */

/** The spec's default limits (WebGPU §3.6.2 "Limits", the "Default" column). */
void eg_limits_default(WGPULimits *out);
/** Spec: requestDevice(), the requiredLimits steps. Resolves `required` (NULL or
 *  WGPU_LIMIT_*_UNDEFINED fields: the default) against what the adapter supports into *out.
 *  A "maximum" limit better than the adapter's, or an "alignment" limit smaller than the
 *  adapter's or not a power of two, fails: returns false with a message naming the limit, the
 *  value and the adapter's value in msg. */
bool eg_limits_resolve(const WGPULimits *adapter, const WGPULimits *required, WGPULimits *out,
                       char *msg, size_t msg_cap);

#endif /* EG_API_FEATURES_H */
