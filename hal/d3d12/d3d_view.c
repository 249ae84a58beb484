/* hal/d3d12 views and samplers: SRV/UAV descriptors of texture views, sampler descriptors, pass RTV/DSV descriptors.
 *
 * A texture view gets a CPU SRV (texture binding usage) and a CPU UAV (storage usage, one mip);
 * bind groups copy them into the shader-visible heap. Render-target and depth-stencil
 * descriptors are written at render pass begin into the device's scratch slots
 * (eg_d3d_pass_rtv / eg_d3d_pass_dsv), because a 3D attachment's depth slice is a property of
 * the pass, not of the view.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "kernel/format/format.h"

static DXGI_FORMAT view_format(const eg_texture_view_t *v)
{
    if (!eg_format_is_depth_stencil(v->texture->fi)) return eg_d3d_format(v->format);
    bool stencil = v->aspect == WGPUTextureAspect_StencilOnly || !(v->texture->fi->aspects & EG_ASPECT_DEPTH);
    return eg_d3d_depth_srv_format(v->texture->format, stencil);
}

static uint32_t plane_of(const eg_texture_view_t *v)
{
    /* The stencil of a depth+stencil resource is plane 1. */
    return v->aspect == WGPUTextureAspect_StencilOnly && (v->texture->fi->aspects & EG_ASPECT_DEPTH) ? 1 : 0;
}

static void srv_desc(const eg_texture_view_t *v, D3D12_SHADER_RESOURCE_VIEW_DESC *d)
{
    eg_memset(d, 0, sizeof *d);
    d->Format = view_format(v);
    d->Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    bool ms = v->texture->sample_count > 1;
    switch (v->dimension) {
    case WGPUTextureViewDimension_1D:
        d->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE1D;
        d->Texture1D.MostDetailedMip = v->base_mip_level;
        d->Texture1D.MipLevels = v->mip_level_count;
        break;
    case WGPUTextureViewDimension_3D:
        d->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE3D;
        d->Texture3D.MostDetailedMip = v->base_mip_level;
        d->Texture3D.MipLevels = v->mip_level_count;
        break;
    case WGPUTextureViewDimension_Cube:
    case WGPUTextureViewDimension_CubeArray:
        d->ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBEARRAY;
        d->TextureCubeArray.MostDetailedMip = v->base_mip_level;
        d->TextureCubeArray.MipLevels = v->mip_level_count;
        d->TextureCubeArray.First2DArrayFace = v->base_array_layer;
        d->TextureCubeArray.NumCubes = v->array_layer_count / 6;
        if (v->dimension == WGPUTextureViewDimension_Cube && v->base_array_layer == 0) {
            d->ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBE;
            d->TextureCube.MostDetailedMip = v->base_mip_level;
            d->TextureCube.MipLevels = v->mip_level_count;
        }
        break;
    default:
        /* 2D of layer 0 as TEXTURE2D (what a Texture2D in HLSL expects), any other layer or a
         * 2D array as TEXTURE2DARRAY. */
        if (ms) {
            d->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DMSARRAY;
            d->Texture2DMSArray.FirstArraySlice = v->base_array_layer;
            d->Texture2DMSArray.ArraySize = v->array_layer_count;
            if (v->dimension == WGPUTextureViewDimension_2D && v->base_array_layer == 0)
                d->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DMS;
        } else if (v->dimension == WGPUTextureViewDimension_2D && v->base_array_layer == 0) {
            d->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
            d->Texture2D.MostDetailedMip = v->base_mip_level;
            d->Texture2D.MipLevels = v->mip_level_count;
            d->Texture2D.PlaneSlice = plane_of(v);
        } else {
            d->ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DARRAY;
            d->Texture2DArray.MostDetailedMip = v->base_mip_level;
            d->Texture2DArray.MipLevels = v->mip_level_count;
            d->Texture2DArray.FirstArraySlice = v->base_array_layer;
            d->Texture2DArray.ArraySize = v->array_layer_count;
            d->Texture2DArray.PlaneSlice = plane_of(v);
        }
        break;
    }
}

static void uav_desc(const eg_texture_view_t *v, D3D12_UNORDERED_ACCESS_VIEW_DESC *d)
{
    eg_memset(d, 0, sizeof *d);
    d->Format = eg_d3d_format(v->format);
    switch (v->dimension) {
    case WGPUTextureViewDimension_1D:
        d->ViewDimension = D3D12_UAV_DIMENSION_TEXTURE1D;
        d->Texture1D.MipSlice = v->base_mip_level;
        break;
    case WGPUTextureViewDimension_3D:
        d->ViewDimension = D3D12_UAV_DIMENSION_TEXTURE3D;
        d->Texture3D.MipSlice = v->base_mip_level;
        d->Texture3D.WSize = UINT_MAX;
        break;
    default:
        if (v->dimension == WGPUTextureViewDimension_2D && v->base_array_layer == 0) {
            d->ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
            d->Texture2D.MipSlice = v->base_mip_level;
        } else {
            d->ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2DARRAY;
            d->Texture2DArray.MipSlice = v->base_mip_level;
            d->Texture2DArray.FirstArraySlice = v->base_array_layer;
            d->Texture2DArray.ArraySize = v->array_layer_count;
        }
        break;
    }
}

eg_status_t eg_d3d_texture_view_create(eg_hal_device_t *dev, eg_texture_view_t *view)
{
    eg_d3d_view_t *vv = EG_D3D_PRIV(eg_d3d_view_t, view);
    ID3D12Resource *res = EG_D3D_PRIV(eg_d3d_texture_t, view->texture)->res;
    vv->srv = vv->uav = EG_D3D_NO_DESC;
    if (view->usage & WGPUTextureUsage_TextureBinding) {
        if ((vv->srv = eg_d3d_desc_alloc(dev, EG_D3D_DESC_VIEW)) == EG_D3D_NO_DESC) return EG_STATUS_OUT_OF_MEMORY;
        D3D12_SHADER_RESOURCE_VIEW_DESC d;
        srv_desc(view, &d);
        ID3D12Device_CreateShaderResourceView(dev->device, res, &d, eg_d3d_desc_cpu(dev, EG_D3D_DESC_VIEW, vv->srv));
    }
    if ((view->usage & WGPUTextureUsage_StorageBinding) && view->mip_level_count == 1) {
        if ((vv->uav = eg_d3d_desc_alloc(dev, EG_D3D_DESC_VIEW)) == EG_D3D_NO_DESC) {
            eg_d3d_texture_view_destroy(dev, view);
            return EG_STATUS_OUT_OF_MEMORY;
        }
        D3D12_UNORDERED_ACCESS_VIEW_DESC d;
        uav_desc(view, &d);
        ID3D12Device_CreateUnorderedAccessView(dev->device, res, NULL, &d, eg_d3d_desc_cpu(dev, EG_D3D_DESC_VIEW, vv->uav));
    }
    return EG_STATUS_OK;
}

void eg_d3d_texture_view_destroy(eg_hal_device_t *dev, eg_texture_view_t *view)
{
    eg_d3d_view_t *vv = EG_D3D_PRIV(eg_d3d_view_t, view);
    eg_d3d_desc_free(dev, EG_D3D_DESC_VIEW, vv->srv);
    eg_d3d_desc_free(dev, EG_D3D_DESC_VIEW, vv->uav);
    vv->srv = vv->uav = EG_D3D_NO_DESC;
}

/* ---- pass attachments ---- */

D3D12_CPU_DESCRIPTOR_HANDLE eg_d3d_pass_rtv(eg_hal_device_t *dev, uint32_t slot, const eg_texture_view_t *v,
                                            uint32_t depth_slice)
{
    D3D12_RENDER_TARGET_VIEW_DESC d;
    eg_memset(&d, 0, sizeof d);
    d.Format = eg_d3d_format(v->format);
    if (v->texture->dimension == WGPUTextureDimension_3D) {
        d.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE3D;
        d.Texture3D.MipSlice = v->base_mip_level;
        d.Texture3D.FirstWSlice = depth_slice;
        d.Texture3D.WSize = 1;
    } else if (v->texture->sample_count > 1) {
        d.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DMSARRAY;
        d.Texture2DMSArray.FirstArraySlice = v->base_array_layer;
        d.Texture2DMSArray.ArraySize = 1;
    } else {
        d.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DARRAY;
        d.Texture2DArray.MipSlice = v->base_mip_level;
        d.Texture2DArray.FirstArraySlice = v->base_array_layer;
        d.Texture2DArray.ArraySize = 1;
    }
    D3D12_CPU_DESCRIPTOR_HANDLE h = eg_d3d_desc_cpu(dev, EG_D3D_DESC_RTV, dev->scratch_rtv[slot]);
    ID3D12Device_CreateRenderTargetView(dev->device, EG_D3D_PRIV(eg_d3d_texture_t, v->texture)->res, &d, h);
    return h;
}

D3D12_CPU_DESCRIPTOR_HANDLE eg_d3d_pass_dsv(eg_hal_device_t *dev, const eg_texture_view_t *v, bool depth_ro,
                                            bool stencil_ro)
{
    D3D12_DEPTH_STENCIL_VIEW_DESC d;
    eg_memset(&d, 0, sizeof d);
    d.Format = (DXGI_FORMAT)EG_D3D_PRIV(eg_d3d_texture_t, v->texture)->format;
    if (depth_ro) d.Flags |= D3D12_DSV_FLAG_READ_ONLY_DEPTH;
    if (stencil_ro && EG_D3D_PRIV(eg_d3d_texture_t, v->texture)->planes > 1) d.Flags |= D3D12_DSV_FLAG_READ_ONLY_STENCIL;
    if (v->texture->sample_count > 1) {
        d.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2DMSARRAY;
        d.Texture2DMSArray.FirstArraySlice = v->base_array_layer;
        d.Texture2DMSArray.ArraySize = 1;
    } else {
        d.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2DARRAY;
        d.Texture2DArray.MipSlice = v->base_mip_level;
        d.Texture2DArray.FirstArraySlice = v->base_array_layer;
        d.Texture2DArray.ArraySize = 1;
    }
    D3D12_CPU_DESCRIPTOR_HANDLE h = eg_d3d_desc_cpu(dev, EG_D3D_DESC_DSV, dev->scratch_dsv);
    ID3D12Device_CreateDepthStencilView(dev->device, EG_D3D_PRIV(eg_d3d_texture_t, v->texture)->res, &d, h);
    return h;
}

/* ---- samplers ---- */

static D3D12_TEXTURE_ADDRESS_MODE address_mode(WGPUAddressMode m)
{
    return m == WGPUAddressMode_Repeat ? D3D12_TEXTURE_ADDRESS_MODE_WRAP
         : m == WGPUAddressMode_MirrorRepeat ? D3D12_TEXTURE_ADDRESS_MODE_MIRROR : D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
}

static D3D12_COMPARISON_FUNC compare_func(WGPUCompareFunction f)
{
    switch (f) {
    case WGPUCompareFunction_Never: return D3D12_COMPARISON_FUNC_NEVER;
    case WGPUCompareFunction_Less: return D3D12_COMPARISON_FUNC_LESS;
    case WGPUCompareFunction_Equal: return D3D12_COMPARISON_FUNC_EQUAL;
    case WGPUCompareFunction_LessEqual: return D3D12_COMPARISON_FUNC_LESS_EQUAL;
    case WGPUCompareFunction_Greater: return D3D12_COMPARISON_FUNC_GREATER;
    case WGPUCompareFunction_NotEqual: return D3D12_COMPARISON_FUNC_NOT_EQUAL;
    case WGPUCompareFunction_GreaterEqual: return D3D12_COMPARISON_FUNC_GREATER_EQUAL;
    default: return D3D12_COMPARISON_FUNC_ALWAYS;
    }
}

D3D12_COMPARISON_FUNC eg_d3d_compare_func(WGPUCompareFunction f) { return compare_func(f); }

eg_status_t eg_d3d_sampler_create(eg_hal_device_t *dev, eg_sampler_t *smp)
{
    const WGPUSamplerDescriptor *s = &smp->desc;
    eg_d3d_sampler_t *ds = EG_D3D_PRIV(eg_d3d_sampler_t, smp);
    if ((ds->slot = eg_d3d_desc_alloc(dev, EG_D3D_DESC_SAMPLER)) == EG_D3D_NO_DESC) return EG_STATUS_OUT_OF_MEMORY;
    D3D12_SAMPLER_DESC d;
    eg_memset(&d, 0, sizeof d);
    /* D3D12_FILTER bits: mip at 0, mag at 2, min at 4 (1 = linear), reduction at 7 (1 = compare). */
    uint32_t cmp = s->compare != WGPUCompareFunction_Undefined ? 1u : 0u;
    uint32_t f = (uint32_t)(s->minFilter == WGPUFilterMode_Linear) << D3D12_MIN_FILTER_SHIFT |
                 (uint32_t)(s->magFilter == WGPUFilterMode_Linear) << D3D12_MAG_FILTER_SHIFT |
                 (uint32_t)(s->mipmapFilter == WGPUMipmapFilterMode_Linear) << D3D12_MIP_FILTER_SHIFT |
                 cmp << D3D12_FILTER_REDUCTION_TYPE_SHIFT;
    if (s->maxAnisotropy > 1) {
        f = (uint32_t)D3D12_FILTER_ANISOTROPIC | cmp << D3D12_FILTER_REDUCTION_TYPE_SHIFT;
        d.MaxAnisotropy = eg_min_u32(s->maxAnisotropy, 16);
    }
    d.Filter = (D3D12_FILTER)f;
    d.AddressU = address_mode(s->addressModeU);
    d.AddressV = address_mode(s->addressModeV);
    d.AddressW = address_mode(s->addressModeW);
    d.ComparisonFunc = cmp ? compare_func(s->compare) : D3D12_COMPARISON_FUNC_NEVER;
    d.MinLOD = s->lodMinClamp;
    d.MaxLOD = s->lodMaxClamp;
    ID3D12Device_CreateSampler(dev->device, &d, eg_d3d_desc_cpu(dev, EG_D3D_DESC_SAMPLER, ds->slot));
    return EG_STATUS_OK;
}

void eg_d3d_sampler_destroy(eg_hal_device_t *dev, eg_sampler_t *smp)
{
    eg_d3d_sampler_t *ds = EG_D3D_PRIV(eg_d3d_sampler_t, smp);
    eg_d3d_desc_free(dev, EG_D3D_DESC_SAMPLER, ds->slot);
    ds->slot = EG_D3D_NO_DESC;
}

#endif /* EMGPU_HAL_D3D12 */
