/* Limits: the spec's default table and the requestDevice() requiredLimits rules. */
#include "kernel/api/features.h"

#include "kernel/base/fmt.h"

/* WebGPU §3.6.2 "Limits": the "Default" column. maxImmediateSize is not in that table yet;
 * emgpu offers no immediates, so 0. */
void eg_limits_default(WGPULimits *out)
{
    WGPULimits l = {
        .nextInChain = NULL,
        .maxTextureDimension1D = 8192,
        .maxTextureDimension2D = 8192,
        .maxTextureDimension3D = 2048,
        .maxTextureArrayLayers = 256,
        .maxBindGroups = 4,
        .maxBindGroupsPlusVertexBuffers = 24,
        .maxBindingsPerBindGroup = 1000,
        .maxDynamicUniformBuffersPerPipelineLayout = 8,
        .maxDynamicStorageBuffersPerPipelineLayout = 4,
        .maxSampledTexturesPerShaderStage = 16,
        .maxSamplersPerShaderStage = 16,
        .maxStorageBuffersPerShaderStage = 8,
        .maxStorageTexturesPerShaderStage = 4,
        .maxUniformBuffersPerShaderStage = 12,
        .maxUniformBufferBindingSize = 65536,
        .maxStorageBufferBindingSize = 134217728,
        .minUniformBufferOffsetAlignment = 256,
        .minStorageBufferOffsetAlignment = 256,
        .maxVertexBuffers = 8,
        .maxBufferSize = 268435456,
        .maxVertexAttributes = 16,
        .maxVertexBufferArrayStride = 2048,
        .maxInterStageShaderVariables = 16,
        .maxColorAttachments = 8,
        .maxColorAttachmentBytesPerSample = 32,
        .maxComputeWorkgroupStorageSize = 16384,
        .maxComputeInvocationsPerWorkgroup = 256,
        .maxComputeWorkgroupSizeX = 256,
        .maxComputeWorkgroupSizeY = 256,
        .maxComputeWorkgroupSizeZ = 64,
        .maxComputeWorkgroupsPerDimension = 65535,
        .maxImmediateSize = 0,
    };
    *out = l;
}

/* One row per limit: its name, offset, width and class (spec: "maximum" or "alignment"). */
typedef struct limit_row {
    const char *name;
    uint16_t offset;
    uint8_t is64, is_alignment;
} limit_row_t;

#define U32(f) { #f, (uint16_t)offsetof(WGPULimits, f), 0, 0 }
#define U64(f) { #f, (uint16_t)offsetof(WGPULimits, f), 1, 0 }
#define ALIGN(f) { #f, (uint16_t)offsetof(WGPULimits, f), 0, 1 }
static const limit_row_t rows[] = {
    U32(maxTextureDimension1D), U32(maxTextureDimension2D), U32(maxTextureDimension3D),
    U32(maxTextureArrayLayers), U32(maxBindGroups), U32(maxBindGroupsPlusVertexBuffers),
    U32(maxBindingsPerBindGroup), U32(maxDynamicUniformBuffersPerPipelineLayout),
    U32(maxDynamicStorageBuffersPerPipelineLayout), U32(maxSampledTexturesPerShaderStage),
    U32(maxSamplersPerShaderStage), U32(maxStorageBuffersPerShaderStage),
    U32(maxStorageTexturesPerShaderStage), U32(maxUniformBuffersPerShaderStage),
    U64(maxUniformBufferBindingSize), U64(maxStorageBufferBindingSize),
    ALIGN(minUniformBufferOffsetAlignment), ALIGN(minStorageBufferOffsetAlignment),
    U32(maxVertexBuffers), U64(maxBufferSize), U32(maxVertexAttributes),
    U32(maxVertexBufferArrayStride), U32(maxInterStageShaderVariables), U32(maxColorAttachments),
    U32(maxColorAttachmentBytesPerSample), U32(maxComputeWorkgroupStorageSize),
    U32(maxComputeInvocationsPerWorkgroup), U32(maxComputeWorkgroupSizeX),
    U32(maxComputeWorkgroupSizeY), U32(maxComputeWorkgroupSizeZ),
    U32(maxComputeWorkgroupsPerDimension), U32(maxImmediateSize),
};

static uint64_t get(const WGPULimits *l, const limit_row_t *r)
{
    const uint8_t *p = (const uint8_t *)l + r->offset;
    if (r->is64) return *(const uint64_t *)(const void *)p;
    return *(const uint32_t *)(const void *)p;
}

static void set(WGPULimits *l, const limit_row_t *r, uint64_t v)
{
    uint8_t *p = (uint8_t *)l + r->offset;
    if (r->is64) *(uint64_t *)(void *)p = v;
    else *(uint32_t *)(void *)p = (uint32_t)v;
}

/* Spec: requestDevice(), "for each key in requiredLimits": undefined keeps the default; a value
 * better than the adapter's fails (OperationError); an alignment limit must be a power of two. */
bool eg_limits_resolve(const WGPULimits *adapter, const WGPULimits *required, WGPULimits *out,
                       char *msg, size_t msg_cap)
{
    eg_limits_default(out);
    for (size_t i = 0; i < EG_ARRAY_LEN(rows); i++) {
        const limit_row_t *r = &rows[i];
        uint64_t have = get(adapter, r), def = get(out, r);
        /* A small embedded adapter may be below the default tier: never promise more than it has. */
        set(out, r, r->is_alignment ? (def > have ? def : have) : (def < have ? def : have));
    }
    if (!required) return true;
    for (size_t i = 0; i < EG_ARRAY_LEN(rows); i++) {
        const limit_row_t *r = &rows[i];
        uint64_t v = get(required, r), have = get(adapter, r);
        uint64_t undefined = r->is64 ? WGPU_LIMIT_U64_UNDEFINED : WGPU_LIMIT_U32_UNDEFINED;
        if (v == undefined) continue;
        if (r->is_alignment) {
            if (v == 0 || (v & (v - 1)) != 0) {
                eg_fmt(msg, msg_cap, "requiredLimits.%s %llu is not a power of two", r->name,
                       (unsigned long long)v);
                return false;
            }
            if (v < have) {
                eg_fmt(msg, msg_cap, "requiredLimits.%s %llu is better (smaller) than the adapter's %llu",
                       r->name, (unsigned long long)v, (unsigned long long)have);
                return false;
            }
        } else if (v > have) {
            eg_fmt(msg, msg_cap, "requiredLimits.%s %llu is better than the adapter's %llu", r->name,
                   (unsigned long long)v, (unsigned long long)have);
            return false;
        }
        /* A worse-than-default request still gets the default (spec: limits are never lowered
         * below the default tier). */
        uint64_t def = get(out, r);
        set(out, r, r->is_alignment ? (v < def ? v : def) : (v > def ? v : def));
    }
    return true;
}
