/* Feature sets: WGPUFeatureName <-> bits, listing and names for messages. */
#include "kernel/api/features.h"

static const char *const names[EG_FEATURE_COUNT] = {
    [WGPUFeatureName_CoreFeaturesAndLimits] = "CoreFeaturesAndLimits",
    [WGPUFeatureName_DepthClipControl] = "DepthClipControl",
    [WGPUFeatureName_Depth32FloatStencil8] = "Depth32FloatStencil8",
    [WGPUFeatureName_TextureCompressionBC] = "TextureCompressionBC",
    [WGPUFeatureName_TextureCompressionBCSliced3D] = "TextureCompressionBCSliced3D",
    [WGPUFeatureName_TextureCompressionETC2] = "TextureCompressionETC2",
    [WGPUFeatureName_TextureCompressionASTC] = "TextureCompressionASTC",
    [WGPUFeatureName_TextureCompressionASTCSliced3D] = "TextureCompressionASTCSliced3D",
    [WGPUFeatureName_TimestampQuery] = "TimestampQuery",
    [WGPUFeatureName_IndirectFirstInstance] = "IndirectFirstInstance",
    [WGPUFeatureName_ShaderF16] = "ShaderF16",
    [WGPUFeatureName_RG11B10UfloatRenderable] = "RG11B10UfloatRenderable",
    [WGPUFeatureName_BGRA8UnormStorage] = "BGRA8UnormStorage",
    [WGPUFeatureName_Float32Filterable] = "Float32Filterable",
    [WGPUFeatureName_Float32Blendable] = "Float32Blendable",
    [WGPUFeatureName_ClipDistances] = "ClipDistances",
    [WGPUFeatureName_DualSourceBlending] = "DualSourceBlending",
    [WGPUFeatureName_Subgroups] = "Subgroups",
    [WGPUFeatureName_TextureFormatsTier1] = "TextureFormatsTier1",
    [WGPUFeatureName_TextureFormatsTier2] = "TextureFormatsTier2",
    [WGPUFeatureName_PrimitiveIndex] = "PrimitiveIndex",
    [WGPUFeatureName_TextureComponentSwizzle] = "TextureComponentSwizzle",
};
_Static_assert(WGPUFeatureName_TextureComponentSwizzle == EG_FEATURE_COUNT - 1,
               "EG_FEATURE_COUNT must follow the last WGPUFeatureName");

int eg_feature_bit(WGPUFeatureName f)
{
    return (uint32_t)f >= 1 && (uint32_t)f < EG_FEATURE_COUNT ? (int)f : -1;
}

uint32_t eg_features_list(uint64_t set, WGPUFeatureName *out)
{
    uint32_t n = 0;
    for (uint32_t b = 1; b < EG_FEATURE_COUNT; b++)
        if ((set >> b) & 1u) out[n++] = (WGPUFeatureName)b;
    return n;
}

const char *eg_feature_name(WGPUFeatureName f)
{
    int b = eg_feature_bit(f);
    return b < 0 ? "(unknown feature)" : names[b];
}

void wgpuSupportedFeaturesFreeMembers(WGPUSupportedFeatures supportedFeatures)
{
    (void)supportedFeatures;   /* the list lives in the adapter or device; nothing to free */
}
