/* hal/d3d12 binding model: shader-visible descriptor heaps, root signatures from pipeline layouts, bind groups as descriptor tables.
 *
 * Register mapping (hal/d3d12/d3d_tpf.h, shader model 5.1): WebGPU group g is register space g
 * and binding b is register number b of the binding's class: uniform buffers b (CBV), read-only
 * storage buffers and sampled textures t (SRV), storage buffers and storage textures u (UAV),
 * samplers s. Every root signature ends with the emitter's sysvals root constants.
 *
 * Root signature of a pipeline layout: per group, one CBV/SRV/UAV descriptor table (its
 * non-dynamic buffers and textures, one range per binding in binding order), one sampler table,
 * and one more CBV/SRV/UAV table for its dynamic-offset buffers. A bind group is a contiguous
 * range in each shader-visible heap (kernel/base/range_alloc, bounded records), written once at
 * creation: buffers get new CBV/SRV/UAV descriptors, texture views and samplers are copied from
 * their CPU descriptors. The kernel destroys a bind group only after the GPU is done with it, so
 * its ranges are free for reuse at once.
 *
 * Dynamic-offset buffers are views written at bind time, not root descriptors (WebGPU robust
 * access, spec "Robust Buffer Access"; issue #9). A root CBV/SRV/UAV is a bare GPU address: the
 * hardware does not bound-check it, so a shader index past the binding reads or writes the
 * neighbouring memory, and bufinfo (arrayLength) on it is undefined. A view carries its size:
 * raw SRV/UAV loads past it return 0, stores and atomics are dropped (D3D12 out-of-bounds rules,
 * which are within WebGPU's allowed set), and bufinfo answers the binding's byte size, so the
 * emitter's arrayLength ((size - offset of the array) / stride) is right with no emitter change.
 * The alternative, the sizes in the sysvals CBV and an emitter clamp on every raw access, costs
 * instructions in every shader and still leaves arrayLength to the emitter. So
 * eg_d3d_dynamic_table() writes the group's dynamic views with the offsets added into a ring at
 * the end of the CBV/SRV/UAV heap (EMGPU_D3D12_DYNAMIC_DESCRIPTORS per command-ring slot, reused
 * when the slot's fence has passed, like the sysvals records) and the recorder binds them as the
 * group's dynamic table. vkd3d 1.6 binds such tables (README "Under wine"). CBVs: a view covers a
 * multiple of 256 bytes, so the CBV is the binding's size rounded up; buffers are padded to 256
 * (d3d_resource.c) so it stays inside the resource, and the bytes past the binding are never
 * read: uniform blocks have no runtime-sized arrays, the emitter clamps every fixed-size array
 * index into the block (d3d_tpf_access.c), and the block fits the binding (WebGPU minimum buffer
 * binding size; a draw-time check of it for minBindingSize 0 is the kernel's).
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "hal/d3d12/d3d_tpf.h"
#include "kernel/api/bind_group_layout.h"
#include "kernel/api/error_codes.h"

#define MAX_PARAMS (3u * EMGPU_MAX_BIND_GROUPS_PER_LAYOUT + 1u)   /* view, sampler, dynamic tables + sysvals */
#define DYN_RING (EMGPU_D3D12_DYNAMIC_DESCRIPTORS * EMGPU_D3D12_COMMAND_RING)
#define MAX_RANGES (EMGPU_MAX_BIND_GROUPS_PER_LAYOUT * EMGPU_MAX_BINDINGS_PER_GROUP)

static const struct { D3D12_DESCRIPTOR_HEAP_TYPE type; uint32_t count; const char *knob; } gpu_kinds[2] = {
    { D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, EMGPU_D3D12_GPU_VIEW_DESCRIPTORS, "EMGPU_D3D12_GPU_VIEW_DESCRIPTORS" },
    { D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, EMGPU_D3D12_GPU_SAMPLER_DESCRIPTORS, "EMGPU_D3D12_GPU_SAMPLER_DESCRIPTORS" },
};

eg_status_t eg_d3d_gpu_heaps_init(eg_hal_device_t *dev)
{
    for (uint32_t k = 0; k < 2; k++) {
        /* The CBV/SRV/UAV heap ends with the dynamic-offset ring, outside the range allocator. */
        D3D12_DESCRIPTOR_HEAP_DESC hd = { gpu_kinds[k].type, gpu_kinds[k].count + (k == 0 ? DYN_RING : 0u),
                                          D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0 };
        dev->gpu_heap[k] = NULL;
        HRESULT hr = EG_D3D_CALL("CreateDescriptorHeap", eg_d3d_heap_get(dev->device, &hd, &dev->gpu_heap[k]));
        if (FAILED(hr)) { dev->gpu_heap[k] = NULL; return eg_d3d_check(dev, hr, "CreateDescriptorHeap"); }
        dev->gpu_heap[k]->lpVtbl->GetCPUDescriptorHandleForHeapStart(dev->gpu_heap[k], &dev->gpu_cpu0[k]);
        dev->gpu_heap[k]->lpVtbl->GetGPUDescriptorHandleForHeapStart(dev->gpu_heap[k], &dev->gpu_gpu0[k]);
        dev->gpu_stride_B[k] = ID3D12Device_GetDescriptorHandleIncrementSize(dev->device, gpu_kinds[k].type);
        eg_range_alloc_init(&dev->gpu_ranges[k], gpu_kinds[k].count, dev->gpu_records[k], EMGPU_D3D12_BIND_GROUP_RECORDS);
    }
    return EG_STATUS_OK;
}

void eg_d3d_gpu_heaps_fini(eg_hal_device_t *dev)
{
    for (uint32_t k = 0; k < 2; k++) {
        if (dev->gpu_heap[k]) eg_d3d_heap_put(dev->device, dev->gpu_heap[k], !dev->lost || dev->lost_drained);
        dev->gpu_heap[k] = NULL;
    }
}

uint64_t eg_d3d_gpu_descriptors_used(const eg_hal_device_t *dev, uint32_t kind)
{
    return dev->gpu_heap[kind] ? dev->gpu_ranges[kind].used_B : 0;
}

/* ---- root signatures ---- */

static bool is_dynamic(const eg_bgl_entry_t *e)
{
    return e->kind == EG_BINDING_BUFFER && e->has_dynamic_offset;
}

static D3D12_DESCRIPTOR_RANGE_TYPE range_type(const eg_bgl_entry_t *e)
{
    if (e->kind == EG_BINDING_SAMPLER) return D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER;
    if (e->kind == EG_BINDING_STORAGE_TEXTURE) return D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
    if (e->kind == EG_BINDING_TEXTURE) return D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
    return e->buffer_type == WGPUBufferBindingType_Uniform ? D3D12_DESCRIPTOR_RANGE_TYPE_CBV
         : e->buffer_type == WGPUBufferBindingType_ReadOnlyStorage ? D3D12_DESCRIPTOR_RANGE_TYPE_SRV
                                                                  : D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
}

typedef struct rs_build {
    D3D12_ROOT_PARAMETER params[MAX_PARAMS];
    D3D12_DESCRIPTOR_RANGE ranges[MAX_RANGES];
    uint32_t np, nr;
} rs_build_t;

typedef enum table_kind { TABLE_VIEWS, TABLE_SAMPLERS, TABLE_DYNAMIC } table_kind_t;

static table_kind_t table_of(const eg_bgl_entry_t *e)
{
    return is_dynamic(e) ? TABLE_DYNAMIC : e->kind == EG_BINDING_SAMPLER ? TABLE_SAMPLERS : TABLE_VIEWS;
}

/* One table of group g holding its entries of kind `kind`, in binding order (for the dynamic
 * table also the order of setBindGroup's dynamic offsets); its param index, or EG_D3D_NO_PARAM
 * when the group has none. */
static uint8_t add_table(rs_build_t *b, const eg_bind_group_layout_t *bgl, uint32_t g, table_kind_t kind)
{
    uint32_t first = b->nr, k = 0;
    for (uint32_t i = 0; i < bgl->entry_count; i++) {
        const eg_bgl_entry_t *e = &bgl->entries[i];
        if (table_of(e) != kind) continue;
        D3D12_DESCRIPTOR_RANGE *r = &b->ranges[b->nr++];
        r->RangeType = range_type(e);
        r->NumDescriptors = 1;
        r->BaseShaderRegister = e->binding;
        r->RegisterSpace = g;
        r->OffsetInDescriptorsFromTableStart = k++;
    }
    if (k == 0) return EG_D3D_NO_PARAM;
    D3D12_ROOT_PARAMETER *p = &b->params[b->np];
    p->ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    p->DescriptorTable.NumDescriptorRanges = k;
    p->DescriptorTable.pDescriptorRanges = &b->ranges[first];
    p->ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    return (uint8_t)b->np++;
}

eg_status_t eg_d3d_pipeline_layout_create(eg_hal_device_t *dev, eg_pipeline_layout_t *pl)
{
    eg_d3d_layout_t *l = EG_D3D_PRIV(eg_d3d_layout_t, pl);
    static rs_build_t b;   /* large; the kernel makes no concurrent HAL calls */
    eg_memset(l, 0, sizeof *l);
    eg_memset(&b, 0, sizeof b);
    for (uint32_t g = 0; g < EMGPU_MAX_BIND_GROUPS_PER_LAYOUT; g++) {
        l->view_param[g] = l->sampler_param[g] = l->dynamic_param[g] = EG_D3D_NO_PARAM;
        const eg_bind_group_layout_t *bgl = g < pl->group_count ? pl->groups[g] : NULL;
        if (!bgl) continue;
        l->view_param[g] = add_table(&b, bgl, g, TABLE_VIEWS);
        l->sampler_param[g] = add_table(&b, bgl, g, TABLE_SAMPLERS);
        l->dynamic_param[g] = add_table(&b, bgl, g, TABLE_DYNAMIC);
    }
    /* Last: the system values' constant buffer (hal/d3d12/d3d_tpf.h). A root CBV rather than
     * root constants: vkd3d 1.6 executes no command signature with more than one argument, so
     * indirect commands cannot set root constants there (d3d_record.c). */
    D3D12_ROOT_PARAMETER *sv = &b.params[b.np];
    sv->ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    sv->Descriptor.ShaderRegister = EG_D3D_TPF_SYSVALS_REGISTER;
    sv->Descriptor.RegisterSpace = EG_D3D_TPF_SYSVALS_SPACE;
    sv->ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    l->sysvals_param = (uint8_t)b.np++;
    D3D12_ROOT_SIGNATURE_DESC rd = { b.np, b.params, 0, NULL,
                                     D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT };
    ID3DBlob *blob = NULL, *err = NULL;
    HRESULT hr = EG_D3D_CALL("D3D12SerializeRootSignature",
                             eg_d3d.D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1, &blob, &err));
    if (FAILED(hr) || !blob) {
        eg_log(EG_LOG_ERROR, "d3d12: D3D12SerializeRootSignature failed (HRESULT 0x%08x): %s", (unsigned)hr,
               err ? (const char *)ID3D10Blob_GetBufferPointer(err) : "(no message)");
        if (err) ID3D10Blob_Release(err);
        if (blob) ID3D10Blob_Release(blob);
        return hr == E_OUTOFMEMORY ? EG_STATUS_OUT_OF_MEMORY : EG_STATUS_INTERNAL;
    }
    if (err) ID3D10Blob_Release(err);
    hr = EG_D3D_CALL("CreateRootSignature", ID3D12Device_CreateRootSignature(
                         dev->device, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                         &IID_ID3D12RootSignature, (void **)&l->root));
    ID3D10Blob_Release(blob);
    if (FAILED(hr)) { l->root = NULL; return eg_d3d_check(dev, hr, "CreateRootSignature"); }
    return EG_STATUS_OK;
}

void eg_d3d_pipeline_layout_destroy(eg_hal_device_t *dev, eg_pipeline_layout_t *pl)
{
    eg_d3d_layout_t *l = EG_D3D_PRIV(eg_d3d_layout_t, pl);
    (void)dev;
    if (l->root) ID3D12RootSignature_Release(l->root);
    l->root = NULL;
}

/* Bind group layouts need nothing of their own: root signatures are built from the kernel's
 * entries when a pipeline layout is made. */
eg_status_t eg_d3d_bind_group_layout_create(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl)
{
    (void)dev; (void)bgl;
    return EG_STATUS_OK;
}
void eg_d3d_bind_group_layout_destroy(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl) { (void)dev; (void)bgl; }

/* ---- bind groups ---- */

static D3D12_CPU_DESCRIPTOR_HANDLE gpu_slot(const eg_hal_device_t *dev, uint32_t kind, uint32_t index)
{
    D3D12_CPU_DESCRIPTOR_HANDLE h = { dev->gpu_cpu0[kind].ptr + (SIZE_T)index * dev->gpu_stride_B[kind] };
    return h;
}

/* A view of [offset_B, offset_B + be->size_B) of the entry's buffer: the bind group's offset,
 * plus the dynamic offset for dynamic entries. Storage sizes are multiples of 4 (createBindGroup
 * validation) and offsets multiples of 256 (min*BufferOffsetAlignment), so raw views in 4-byte
 * elements cover the binding exactly and bufinfo answers its byte size. */
static void write_buffer(eg_hal_device_t *dev, const eg_bgl_entry_t *le, const eg_bind_entry_t *be,
                         uint64_t offset_B, D3D12_CPU_DESCRIPTOR_HANDLE dst)
{
    ID3D12Resource *res = EG_D3D_PRIV(eg_d3d_buffer_t, be->buffer)->res;
    D3D12_DESCRIPTOR_RANGE_TYPE t = range_type(le);
    if (t == D3D12_DESCRIPTOR_RANGE_TYPE_CBV) {
        /* CBVs cover multiples of 256 bytes; buffers are padded to that (d3d_resource.c), and the
         * bytes past the binding are never read (file comment). */
        D3D12_CONSTANT_BUFFER_VIEW_DESC cd = { ID3D12Resource_GetGPUVirtualAddress(res) + offset_B,
                                               (UINT)EG_ALIGN_UP(be->size_B, (uint64_t)256) };
        ID3D12Device_CreateConstantBufferView(dev->device, &cd, dst);
    } else if (t == D3D12_DESCRIPTOR_RANGE_TYPE_SRV) {
        D3D12_SHADER_RESOURCE_VIEW_DESC sd;
        eg_memset(&sd, 0, sizeof sd);
        sd.Format = DXGI_FORMAT_R32_TYPELESS;   /* raw: ByteAddressBuffer */
        sd.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
        sd.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        sd.Buffer.FirstElement = offset_B / 4;
        sd.Buffer.NumElements = (UINT)(be->size_B / 4);
        sd.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
        ID3D12Device_CreateShaderResourceView(dev->device, res, &sd, dst);
    } else {
        D3D12_UNORDERED_ACCESS_VIEW_DESC ud;
        eg_memset(&ud, 0, sizeof ud);
        ud.Format = DXGI_FORMAT_R32_TYPELESS;   /* raw: RWByteAddressBuffer */
        ud.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
        ud.Buffer.FirstElement = offset_B / 4;
        ud.Buffer.NumElements = (UINT)(be->size_B / 4);
        ud.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
        ID3D12Device_CreateUnorderedAccessView(dev->device, res, NULL, &ud, dst);
    }
}

static uint32_t take_range(eg_hal_device_t *dev, uint32_t kind, uint32_t count)
{
    uint64_t off;
    if (count == 0) return 0;
    /* An injected device removal here stands for the device going away meanwhile. */
    bool fault = eg_d3d_fault_hit("shader-visible descriptors");
    if (fault && eg_d3d_check(dev, eg_d3d_fault_result(), "shader-visible descriptors") == EG_STATUS_DEVICE_LOST)
        return UINT32_MAX;
    eg_range_status_t st = fault ? EG_RANGE_NO_SPACE : eg_range_alloc_alloc(&dev->gpu_ranges[kind], count, 1, &off);
    if (st != EG_RANGE_OK) {
        if (st == EG_RANGE_NO_RECORDS)
            eg_d3d_knob_exhausted("bind group records", "EMGPU_D3D12_BIND_GROUP_RECORDS", EMGPU_D3D12_BIND_GROUP_RECORDS);
        else
            eg_d3d_knob_exhausted("shader-visible descriptor heap", gpu_kinds[kind].knob, gpu_kinds[kind].count);
        return UINT32_MAX;
    }
    return (uint32_t)off + 1;
}

eg_status_t eg_d3d_bind_group_create(eg_hal_device_t *dev, eg_bind_group_t *bg)
{
    eg_d3d_bind_group_t *g = EG_D3D_PRIV(eg_d3d_bind_group_t, bg);
    const eg_bind_group_layout_t *bgl = bg->layout;
    eg_memset(g, 0, sizeof *g);
    for (uint32_t i = 0; i < bgl->entry_count; i++) {
        if (is_dynamic(&bgl->entries[i])) continue;
        if (bgl->entries[i].kind == EG_BINDING_SAMPLER) g->sampler_count++;
        else g->view_count++;
    }
    uint32_t v = take_range(dev, 0, g->view_count), s = v == UINT32_MAX ? UINT32_MAX : take_range(dev, 1, g->sampler_count);
    if (v == UINT32_MAX || s == UINT32_MAX) {
        if (v != UINT32_MAX && v) eg_range_alloc_free(&dev->gpu_ranges[0], v - 1);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    g->views = v;
    g->samplers = s;
    uint32_t kv = 0, ks = 0;
    for (uint32_t i = 0; i < bgl->entry_count; i++) {
        const eg_bgl_entry_t *le = &bgl->entries[i];
        const eg_bind_entry_t *be = &bg->entries[i];
        if (is_dynamic(le)) continue;
        if (le->kind == EG_BINDING_SAMPLER) {
            ID3D12Device_CopyDescriptorsSimple(dev->device, 1, gpu_slot(dev, 1, s - 1 + ks++),
                eg_d3d_desc_cpu(dev, EG_D3D_DESC_SAMPLER, EG_D3D_PRIV(eg_d3d_sampler_t, be->sampler)->slot),
                D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
            continue;
        }
        D3D12_CPU_DESCRIPTOR_HANDLE dst = gpu_slot(dev, 0, v - 1 + kv++);
        if (le->kind == EG_BINDING_BUFFER) { write_buffer(dev, le, be, be->offset_B, dst); continue; }
        const eg_d3d_view_t *vv = EG_D3D_PRIV(eg_d3d_view_t, be->view);
        uint32_t src = le->kind == EG_BINDING_STORAGE_TEXTURE ? vv->uav : vv->srv;
        if (src != EG_D3D_NO_DESC)
            ID3D12Device_CopyDescriptorsSimple(dev->device, 1, dst, eg_d3d_desc_cpu(dev, EG_D3D_DESC_VIEW, src),
                                               D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    }
    return EG_STATUS_OK;
}

/* The group's dynamic-offset buffers as views in the current slot's part of the ring, in
 * binding order with offsets[k] added to the k-th (file comment: why views, not root
 * descriptors). The slot's part is reused once its fence has passed (eg_d3d_indirect_begin
 * resets the count when the slot starts recording). */
eg_status_t eg_d3d_dynamic_table(eg_hal_device_t *dev, const eg_bind_group_t *bg, const uint32_t *offsets,
                                 uint32_t offset_count, D3D12_GPU_DESCRIPTOR_HANDLE *out)
{
    const eg_bind_group_layout_t *bgl = bg->layout;
    uint32_t n = 0;
    for (uint32_t i = 0; i < bgl->entry_count; i++) n += is_dynamic(&bgl->entries[i]) ? 1u : 0u;
    if (dev->dyn_used + n > EMGPU_D3D12_DYNAMIC_DESCRIPTORS) {
        eg_d3d_knob_exhausted("dynamic-offset buffer descriptors (per submit)", "EMGPU_D3D12_DYNAMIC_DESCRIPTORS",
                              EMGPU_D3D12_DYNAMIC_DESCRIPTORS);
        eg_hal_error_detail(WGPUErrorType_OutOfMemory, EG_E_HAL_OUT_OF_MEMORY,
                            "d3d12: the submit binds more dynamic-offset buffers (setBindGroup with dynamic "
                            "offsets, per draw/dispatch) than fit: EMGPU_D3D12_DYNAMIC_DESCRIPTORS = %u per submit",
                            (unsigned)EMGPU_D3D12_DYNAMIC_DESCRIPTORS);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    uint32_t base = EMGPU_D3D12_GPU_VIEW_DESCRIPTORS + dev->cur_slot * EMGPU_D3D12_DYNAMIC_DESCRIPTORS + dev->dyn_used;
    uint32_t k = 0;
    for (uint32_t i = 0; i < bgl->entry_count; i++) {
        if (!is_dynamic(&bgl->entries[i])) continue;
        uint64_t off = bg->entries[i].offset_B + (k < offset_count ? offsets[k] : 0u);
        write_buffer(dev, &bgl->entries[i], &bg->entries[i], off, gpu_slot(dev, 0, base + k));
        k++;
    }
    dev->dyn_used += n;
    out->ptr = dev->gpu_gpu0[0].ptr + (UINT64)base * dev->gpu_stride_B[0];
    return EG_STATUS_OK;
}

void eg_d3d_bind_group_destroy(eg_hal_device_t *dev, eg_bind_group_t *bg)
{
    eg_d3d_bind_group_t *g = EG_D3D_PRIV(eg_d3d_bind_group_t, bg);
    if (g->views) eg_range_alloc_free(&dev->gpu_ranges[0], g->views - 1);
    if (g->samplers) eg_range_alloc_free(&dev->gpu_ranges[1], g->samplers - 1);
    g->views = g->samplers = 0;
}

#endif /* EMGPU_HAL_D3D12 */
