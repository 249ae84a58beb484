/* hal/d3d12 formats: WebGPU texture formats as DXGI formats (resource, view, depth-view and copy forms).
 *
 * Depth formats: Depth24Plus is D32_FLOAT (always supported, at least 24 bits as WebGPU asks),
 * Stencil8 is D24_UNORM_S8_UINT (D3D12 has no stencil-only format). Depth resources are created
 * typeless so that one resource can have a DSV (D* format) and an SRV (R*_X* format).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "kernel/format/format.h"

DXGI_FORMAT eg_d3d_format(WGPUTextureFormat f)
{
    switch (f) {
    case WGPUTextureFormat_R8Unorm: return DXGI_FORMAT_R8_UNORM;
    case WGPUTextureFormat_R8Snorm: return DXGI_FORMAT_R8_SNORM;
    case WGPUTextureFormat_R8Uint: return DXGI_FORMAT_R8_UINT;
    case WGPUTextureFormat_R8Sint: return DXGI_FORMAT_R8_SINT;
    case WGPUTextureFormat_R16Unorm: return DXGI_FORMAT_R16_UNORM;
    case WGPUTextureFormat_R16Snorm: return DXGI_FORMAT_R16_SNORM;
    case WGPUTextureFormat_R16Uint: return DXGI_FORMAT_R16_UINT;
    case WGPUTextureFormat_R16Sint: return DXGI_FORMAT_R16_SINT;
    case WGPUTextureFormat_R16Float: return DXGI_FORMAT_R16_FLOAT;
    case WGPUTextureFormat_RG8Unorm: return DXGI_FORMAT_R8G8_UNORM;
    case WGPUTextureFormat_RG8Snorm: return DXGI_FORMAT_R8G8_SNORM;
    case WGPUTextureFormat_RG8Uint: return DXGI_FORMAT_R8G8_UINT;
    case WGPUTextureFormat_RG8Sint: return DXGI_FORMAT_R8G8_SINT;
    case WGPUTextureFormat_R32Float: return DXGI_FORMAT_R32_FLOAT;
    case WGPUTextureFormat_R32Uint: return DXGI_FORMAT_R32_UINT;
    case WGPUTextureFormat_R32Sint: return DXGI_FORMAT_R32_SINT;
    case WGPUTextureFormat_RG16Unorm: return DXGI_FORMAT_R16G16_UNORM;
    case WGPUTextureFormat_RG16Snorm: return DXGI_FORMAT_R16G16_SNORM;
    case WGPUTextureFormat_RG16Uint: return DXGI_FORMAT_R16G16_UINT;
    case WGPUTextureFormat_RG16Sint: return DXGI_FORMAT_R16G16_SINT;
    case WGPUTextureFormat_RG16Float: return DXGI_FORMAT_R16G16_FLOAT;
    case WGPUTextureFormat_RGBA8Unorm: return DXGI_FORMAT_R8G8B8A8_UNORM;
    case WGPUTextureFormat_RGBA8UnormSrgb: return DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
    case WGPUTextureFormat_RGBA8Snorm: return DXGI_FORMAT_R8G8B8A8_SNORM;
    case WGPUTextureFormat_RGBA8Uint: return DXGI_FORMAT_R8G8B8A8_UINT;
    case WGPUTextureFormat_RGBA8Sint: return DXGI_FORMAT_R8G8B8A8_SINT;
    case WGPUTextureFormat_BGRA8Unorm: return DXGI_FORMAT_B8G8R8A8_UNORM;
    case WGPUTextureFormat_BGRA8UnormSrgb: return DXGI_FORMAT_B8G8R8A8_UNORM_SRGB;
    case WGPUTextureFormat_RGB10A2Uint: return DXGI_FORMAT_R10G10B10A2_UINT;
    case WGPUTextureFormat_RGB10A2Unorm: return DXGI_FORMAT_R10G10B10A2_UNORM;
    case WGPUTextureFormat_RG11B10Ufloat: return DXGI_FORMAT_R11G11B10_FLOAT;
    case WGPUTextureFormat_RGB9E5Ufloat: return DXGI_FORMAT_R9G9B9E5_SHAREDEXP;
    case WGPUTextureFormat_RG32Float: return DXGI_FORMAT_R32G32_FLOAT;
    case WGPUTextureFormat_RG32Uint: return DXGI_FORMAT_R32G32_UINT;
    case WGPUTextureFormat_RG32Sint: return DXGI_FORMAT_R32G32_SINT;
    case WGPUTextureFormat_RGBA16Unorm: return DXGI_FORMAT_R16G16B16A16_UNORM;
    case WGPUTextureFormat_RGBA16Snorm: return DXGI_FORMAT_R16G16B16A16_SNORM;
    case WGPUTextureFormat_RGBA16Uint: return DXGI_FORMAT_R16G16B16A16_UINT;
    case WGPUTextureFormat_RGBA16Sint: return DXGI_FORMAT_R16G16B16A16_SINT;
    case WGPUTextureFormat_RGBA16Float: return DXGI_FORMAT_R16G16B16A16_FLOAT;
    case WGPUTextureFormat_RGBA32Float: return DXGI_FORMAT_R32G32B32A32_FLOAT;
    case WGPUTextureFormat_RGBA32Uint: return DXGI_FORMAT_R32G32B32A32_UINT;
    case WGPUTextureFormat_RGBA32Sint: return DXGI_FORMAT_R32G32B32A32_SINT;
    case WGPUTextureFormat_Stencil8: return DXGI_FORMAT_D24_UNORM_S8_UINT;
    case WGPUTextureFormat_Depth16Unorm: return DXGI_FORMAT_D16_UNORM;
    case WGPUTextureFormat_Depth24Plus: return DXGI_FORMAT_D32_FLOAT;
    case WGPUTextureFormat_Depth24PlusStencil8: return DXGI_FORMAT_D24_UNORM_S8_UINT;
    case WGPUTextureFormat_Depth32Float: return DXGI_FORMAT_D32_FLOAT;
    case WGPUTextureFormat_Depth32FloatStencil8: return DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
    case WGPUTextureFormat_BC1RGBAUnorm: return DXGI_FORMAT_BC1_UNORM;
    case WGPUTextureFormat_BC1RGBAUnormSrgb: return DXGI_FORMAT_BC1_UNORM_SRGB;
    case WGPUTextureFormat_BC2RGBAUnorm: return DXGI_FORMAT_BC2_UNORM;
    case WGPUTextureFormat_BC2RGBAUnormSrgb: return DXGI_FORMAT_BC2_UNORM_SRGB;
    case WGPUTextureFormat_BC3RGBAUnorm: return DXGI_FORMAT_BC3_UNORM;
    case WGPUTextureFormat_BC3RGBAUnormSrgb: return DXGI_FORMAT_BC3_UNORM_SRGB;
    case WGPUTextureFormat_BC4RUnorm: return DXGI_FORMAT_BC4_UNORM;
    case WGPUTextureFormat_BC4RSnorm: return DXGI_FORMAT_BC4_SNORM;
    case WGPUTextureFormat_BC5RGUnorm: return DXGI_FORMAT_BC5_UNORM;
    case WGPUTextureFormat_BC5RGSnorm: return DXGI_FORMAT_BC5_SNORM;
    case WGPUTextureFormat_BC6HRGBUfloat: return DXGI_FORMAT_BC6H_UF16;
    case WGPUTextureFormat_BC6HRGBFloat: return DXGI_FORMAT_BC6H_SF16;
    case WGPUTextureFormat_BC7RGBAUnorm: return DXGI_FORMAT_BC7_UNORM;
    case WGPUTextureFormat_BC7RGBAUnormSrgb: return DXGI_FORMAT_BC7_UNORM_SRGB;
    default:
        /* emgpu's RGB565 extension: R in bits 15..11, which is DXGI's B5G6R5 (B in the low bits). */
        return f == EG_FORMAT_RGB565_VALUE ? DXGI_FORMAT_B5G6R5_UNORM : DXGI_FORMAT_UNKNOWN;
    }
}

/* The typeless family of a format that needs several typed views (depth: DSV + SRV; a color
 * format with an sRGB twin in viewFormats). */
DXGI_FORMAT eg_d3d_typeless(DXGI_FORMAT f)
{
    switch (f) {
    case DXGI_FORMAT_D16_UNORM: return DXGI_FORMAT_R16_TYPELESS;
    case DXGI_FORMAT_D32_FLOAT: return DXGI_FORMAT_R32_TYPELESS;
    case DXGI_FORMAT_D24_UNORM_S8_UINT: return DXGI_FORMAT_R24G8_TYPELESS;
    case DXGI_FORMAT_D32_FLOAT_S8X24_UINT: return DXGI_FORMAT_R32G8X24_TYPELESS;
    case DXGI_FORMAT_R8G8B8A8_UNORM: case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB: return DXGI_FORMAT_R8G8B8A8_TYPELESS;
    case DXGI_FORMAT_B8G8R8A8_UNORM: case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB: return DXGI_FORMAT_B8G8R8A8_TYPELESS;
    case DXGI_FORMAT_BC1_UNORM: case DXGI_FORMAT_BC1_UNORM_SRGB: return DXGI_FORMAT_BC1_TYPELESS;
    case DXGI_FORMAT_BC2_UNORM: case DXGI_FORMAT_BC2_UNORM_SRGB: return DXGI_FORMAT_BC2_TYPELESS;
    case DXGI_FORMAT_BC3_UNORM: case DXGI_FORMAT_BC3_UNORM_SRGB: return DXGI_FORMAT_BC3_TYPELESS;
    case DXGI_FORMAT_BC7_UNORM: case DXGI_FORMAT_BC7_UNORM_SRGB: return DXGI_FORMAT_BC7_TYPELESS;
    default: return f;
    }
}

DXGI_FORMAT eg_d3d_depth_srv_format(WGPUTextureFormat f, bool stencil)
{
    switch (eg_d3d_format(f)) {
    case DXGI_FORMAT_D16_UNORM: return DXGI_FORMAT_R16_UNORM;
    case DXGI_FORMAT_D32_FLOAT: return DXGI_FORMAT_R32_FLOAT;
    case DXGI_FORMAT_D24_UNORM_S8_UINT:
        return stencil ? DXGI_FORMAT_X24_TYPELESS_G8_UINT : DXGI_FORMAT_R24_UNORM_X8_TYPELESS;
    case DXGI_FORMAT_D32_FLOAT_S8X24_UINT:
        return stencil ? DXGI_FORMAT_X32_TYPELESS_G8X24_UINT : DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS;
    default: return DXGI_FORMAT_UNKNOWN;
    }
}

#endif /* EMGPU_HAL_D3D12 */
