/* Device info: one immutable description of an adapter, filled once by its backend's probe.
 *
 * Like Mesa's nv_device_info it describes the hardware and driver, not the API: limits,
 * features, per-format capabilities and the backend's quirks. The kernel copies it into the
 * adapter and device and reads it wherever a decision depends on the hardware.
 */
#ifndef EG_DEVICE_INFO_H
#define EG_DEVICE_INFO_H

#include <webgpu/webgpu.h>

#include <stdint.h>

#define EG_DEVICE_NAME_MAX 64

/* eg_device_info_t.ext_formats_missing bits. */
#define EG_EXT_FORMAT_RGB565 (1u << 0)

typedef struct eg_device_info {
    WGPUBackendType backend;
    WGPUAdapterType adapter_type;
    uint32_t vendor_id, device_id;
    char vendor[EG_DEVICE_NAME_MAX];
    char architecture[EG_DEVICE_NAME_MAX];
    char device[EG_DEVICE_NAME_MAX];
    char description[EG_DEVICE_NAME_MAX];
    WGPULimits limits;                 /* the most the adapter supports */
    uint64_t features;                 /* bit (1 << eg_feature_bit(WGPUFeatureName)) per feature */
    uint32_t quirks;                   /* EG_QUIRK_* bits (backend-specific workarounds) */
    /* emgpu extension formats (include/emgpu/emgpu.h) this adapter cannot create or render:
     * EG_EXT_FORMAT_* bits. Core WebGPU formats are never missing (a backend must support them,
     * or gate them behind their feature); an extension format such as RGB565 may be absent from a
     * driver (vkd3d 1.6 has no B5G6R5), and then textures, views, color targets and surface
     * configurations of that format are validation errors that name the adapter's backend. */
    uint32_t ext_formats_missing;
    uint32_t ordinal;                  /* which adapter of its backend (probe's ordinal) */
} eg_device_info_t;

#endif /* EG_DEVICE_INFO_H */
