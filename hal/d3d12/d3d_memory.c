/* hal/d3d12 memory: placed-resource heaps over kernel/base/block_alloc, and CPU descriptor heaps with free lists.
 *
 * Heaps: five kinds (d3d_internal.h), each at most EMGPU_D3D12_HEAP_BLOCKS ID3D12Heaps of
 * EMGPU_D3D12_HEAP_BLOCK_BYTES, created on first need by the shared block allocator (the same
 * bookkeeping hal/vulkan uses for VkDeviceMemory). Every resource is a placed resource at the
 * allocator's offset; the heap flags (buffers only / non-RT-DS textures only / RT-DS textures
 * only) make this valid on resource heap tier 1. Upload and readback resources are mapped once at
 * creation and stay mapped (D3D12 allows persistent maps of those heaps).
 *
 * Descriptors: one CPU-only heap per kind (views, samplers, RTV, DSV), slots handed out from a
 * free list (1-based slot numbers; 0 is "none"). A freed view descriptor may still be named by a
 * command list in flight only through copies into the shader-visible heap, which are made at
 * record time, so CPU slots can be reused at once.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"

_Static_assert(EMGPU_D3D12_HEAP_BLOCKS >= 1 && EMGPU_D3D12_HEAP_BLOCKS <= EG_BLOCK_ALLOC_MAX_BLOCKS,
               "EMGPU_D3D12_HEAP_BLOCKS: 1..32");
_Static_assert(EMGPU_D3D12_HEAP_BLOCK_BYTES <= 0x80000000u, "EMGPU_D3D12_HEAP_BLOCK_BYTES: at most 2 GiB");

static const char *const kind_names[EG_D3D_MEM_KIND_COUNT] = {
    "buffer", "upload", "readback", "texture", "render-target",
};

static void heap_props(eg_d3d_mem_kind_t kind, D3D12_HEAP_DESC *hd)
{
    eg_memset(hd, 0, sizeof *hd);
    hd->SizeInBytes = EMGPU_D3D12_HEAP_BLOCK_BYTES;
    hd->Alignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
    hd->Properties.Type = kind == EG_D3D_MEM_UPLOAD ? D3D12_HEAP_TYPE_UPLOAD
                        : kind == EG_D3D_MEM_READBACK ? D3D12_HEAP_TYPE_READBACK : D3D12_HEAP_TYPE_DEFAULT;
    hd->Flags = kind == EG_D3D_MEM_TEXTURE ? D3D12_HEAP_FLAG_ALLOW_ONLY_NON_RT_DS_TEXTURES
              : kind == EG_D3D_MEM_TARGET ? D3D12_HEAP_FLAG_ALLOW_ONLY_RT_DS_TEXTURES
                                          : D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
}

static bool open_block(void *ctx, uint32_t index)
{
    eg_d3d_mem_pool_t *p = ctx;
    D3D12_HEAP_DESC hd;
    heap_props(p->kind, &hd);
    p->heaps[index] = NULL;
    HRESULT hr = EG_D3D_CALL("CreateHeap", ID3D12Device_CreateHeap(p->dev->device, &hd, &IID_ID3D12Heap,
                                                                    (void **)&p->heaps[index]));
    if (FAILED(hr)) {
        p->heaps[index] = NULL;
        eg_d3d_check(p->dev, hr, "CreateHeap");
        return false;
    }
    return true;
}

eg_status_t eg_d3d_memory_init(eg_hal_device_t *dev)
{
    for (uint32_t k = 0; k < EG_D3D_MEM_KIND_COUNT; k++) {
        eg_d3d_mem_pool_t *p = &dev->mem[k];
        p->dev = dev;
        p->kind = (eg_d3d_mem_kind_t)k;
        eg_block_alloc_init(&p->alloc, EMGPU_D3D12_HEAP_BLOCK_BYTES, EMGPU_D3D12_HEAP_BLOCKS, p->records,
                            EMGPU_D3D12_HEAP_RECORDS_PER_BLOCK, open_block, p);
    }
    return EG_STATUS_OK;
}

void eg_d3d_memory_fini(eg_hal_device_t *dev)
{
    for (uint32_t k = 0; k < EG_D3D_MEM_KIND_COUNT; k++) {
        eg_d3d_mem_pool_t *p = &dev->mem[k];
        for (uint32_t i = 0; i < EG_BLOCK_ALLOC_MAX_BLOCKS; i++) {
            if (p->heaps[i]) ID3D12Heap_Release(p->heaps[i]);
            p->heaps[i] = NULL;
        }
    }
}

static eg_status_t block_status(eg_block_status_t st, eg_d3d_mem_kind_t kind)
{
    switch (st) {
    case EG_BLOCK_OK: return EG_STATUS_OK;
    case EG_BLOCK_TOO_LARGE:
        eg_d3d_knob_exhausted("heap (resource larger than one heap)", "EMGPU_D3D12_HEAP_BLOCK_BYTES",
                              EMGPU_D3D12_HEAP_BLOCK_BYTES);
        return EG_STATUS_OUT_OF_MEMORY;
    case EG_BLOCK_NO_RECORDS:
        eg_d3d_knob_exhausted("heap records", "EMGPU_D3D12_HEAP_RECORDS_PER_BLOCK", EMGPU_D3D12_HEAP_RECORDS_PER_BLOCK);
        return EG_STATUS_OUT_OF_MEMORY;
    case EG_BLOCK_NO_SPACE:
        eg_d3d_knob_exhausted(kind_names[kind], "EMGPU_D3D12_HEAP_BLOCKS", EMGPU_D3D12_HEAP_BLOCKS);
        return EG_STATUS_OUT_OF_MEMORY;
    default:
        eg_log(EG_LOG_ERROR, "d3d12: CreateHeap of a %s heap failed", kind_names[kind]);
        return EG_STATUS_OUT_OF_MEMORY;
    }
}

eg_status_t eg_d3d_place(eg_hal_device_t *dev, eg_d3d_mem_kind_t kind, const D3D12_RESOURCE_DESC *desc,
                         D3D12_RESOURCE_STATES state, const D3D12_CLEAR_VALUE *clear,
                         ID3D12Resource **res, eg_d3d_alloc_t *alloc)
{
    eg_d3d_mem_pool_t *p = &dev->mem[kind];
    *res = NULL;
    alloc->kind_block = UINT32_MAX;
    D3D12_RESOURCE_ALLOCATION_INFO ai;
    /* Struct return: through lpVtbl with the out pointer (mingw's C declaration). */
    dev->device->lpVtbl->GetResourceAllocationInfo(dev->device, &ai, 0, 1, desc);
    if (ai.SizeInBytes == UINT64_MAX) return EG_STATUS_INTERNAL;
    eg_block_ref_t ref;
    eg_status_t st = block_status(eg_block_alloc_alloc(&p->alloc, ai.SizeInBytes,
                                                       eg_max_u64(ai.Alignment, 65536u), &ref), kind);
    if (st != EG_STATUS_OK) return st;
    HRESULT hr = EG_D3D_CALL("CreatePlacedResource",
                             ID3D12Device_CreatePlacedResource(dev->device, p->heaps[ref.block], ref.offset_B, desc,
                                                               state, clear, &IID_ID3D12Resource, (void **)res));
    if (FAILED(hr)) {
        *res = NULL;
        eg_block_alloc_free(&p->alloc, &ref);
        return eg_d3d_check(dev, hr, "CreatePlacedResource");
    }
    alloc->kind_block = ((uint32_t)kind << 8) | ref.block;
    alloc->offset_B = (uint32_t)ref.offset_B;
    return EG_STATUS_OK;
}

void eg_d3d_memory_free(eg_hal_device_t *dev, eg_d3d_alloc_t *a)
{
    if (a->kind_block == UINT32_MAX) return;
    eg_d3d_mem_pool_t *p = &dev->mem[a->kind_block >> 8];
    eg_block_ref_t ref = { a->kind_block & 0xFFu, a->offset_B };
    if (!eg_block_alloc_free(&p->alloc, &ref))
        eg_log(EG_LOG_ERROR, "d3d12: freeing heap memory that is not allocated (block %u offset %u)",
               (unsigned)ref.block, (unsigned)a->offset_B);
    a->kind_block = UINT32_MAX;
}

uint64_t eg_d3d_memory_used(const eg_hal_device_t *dev)
{
    uint64_t u = 0;
    for (uint32_t k = 0; k < EG_D3D_MEM_KIND_COUNT; k++) u += eg_block_alloc_used(&dev->mem[k].alloc);
    return u;
}

/* ---- CPU descriptor heaps ---- */

static const struct { D3D12_DESCRIPTOR_HEAP_TYPE type; uint32_t count; const char *knob; } desc_kinds[] = {
    { D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, EMGPU_D3D12_VIEW_DESCRIPTORS, "EMGPU_D3D12_VIEW_DESCRIPTORS" },
    { D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, EMGPU_D3D12_SAMPLER_DESCRIPTORS, "EMGPU_D3D12_SAMPLER_DESCRIPTORS" },
    { D3D12_DESCRIPTOR_HEAP_TYPE_RTV, EMGPU_D3D12_RTV_DESCRIPTORS, "EMGPU_D3D12_RTV_DESCRIPTORS" },
    { D3D12_DESCRIPTOR_HEAP_TYPE_DSV, EMGPU_D3D12_DSV_DESCRIPTORS, "EMGPU_D3D12_DSV_DESCRIPTORS" },
};
_Static_assert(sizeof desc_kinds / sizeof desc_kinds[0] == EG_D3D_DESC_KIND_COUNT, "one entry per kind");

eg_status_t eg_d3d_desc_init(eg_hal_device_t *dev)
{
    for (uint32_t k = 0; k < EG_D3D_DESC_KIND_COUNT; k++) {
        eg_d3d_desc_heap_t *h = &dev->desc[k];
        D3D12_DESCRIPTOR_HEAP_DESC hd = { desc_kinds[k].type, desc_kinds[k].count, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0 };
        h->heap = NULL;
        HRESULT hr = EG_D3D_CALL("CreateDescriptorHeap", eg_d3d_heap_get(dev->device, &hd, &h->heap));
        if (FAILED(hr)) {
            h->heap = NULL;
            return eg_d3d_check(dev, hr, "CreateDescriptorHeap");
        }
        h->heap->lpVtbl->GetCPUDescriptorHandleForHeapStart(h->heap, &h->cpu0);
        h->stride_B = ID3D12Device_GetDescriptorHandleIncrementSize(dev->device, desc_kinds[k].type);
        h->count = desc_kinds[k].count;
        h->used = 0;
        /* Free list: every slot, in order (slot s links to s + 1). */
        for (uint32_t s = 1; s <= h->count; s++) h->next[s - 1] = s < h->count ? s + 1 : EG_D3D_NO_DESC;
        h->free_head = 1;
    }
    /* Clears at texture creation write one subresource at a time through these (a descriptor
     * passed to Clear*View is read when the call is recorded, so one slot serves them all). */
    bool ok = (dev->scratch_dsv = eg_d3d_desc_alloc(dev, EG_D3D_DESC_DSV)) != EG_D3D_NO_DESC;
    for (uint32_t i = 0; i < EG_CMD_MAX_COLOR_ATTACHMENTS; i++)
        ok = ok && (dev->scratch_rtv[i] = eg_d3d_desc_alloc(dev, EG_D3D_DESC_RTV)) != EG_D3D_NO_DESC;
    return ok ? EG_STATUS_OK : EG_STATUS_OUT_OF_MEMORY;
}

void eg_d3d_desc_fini(eg_hal_device_t *dev)
{
    for (uint32_t k = 0; k < EG_D3D_DESC_KIND_COUNT; k++) {
        if (dev->desc[k].heap) eg_d3d_heap_put(dev->device, dev->desc[k].heap, !dev->lost || dev->lost_drained);
        dev->desc[k].heap = NULL;
    }
}

uint32_t eg_d3d_desc_alloc(eg_hal_device_t *dev, eg_d3d_desc_kind_t kind)
{
    eg_d3d_desc_heap_t *h = &dev->desc[kind];
    uint32_t s = h->free_head;
    if (s == EG_D3D_NO_DESC || eg_d3d_fault_hit("descriptor slot")) {
        eg_d3d_knob_exhausted("CPU descriptor heap", desc_kinds[kind].knob, desc_kinds[kind].count);
        return EG_D3D_NO_DESC;
    }
    h->free_head = h->next[s - 1];
    h->next[s - 1] = EG_D3D_NO_DESC;
    h->used++;
    return s;
}

void eg_d3d_desc_free(eg_hal_device_t *dev, eg_d3d_desc_kind_t kind, uint32_t slot)
{
    if (slot == EG_D3D_NO_DESC) return;
    eg_d3d_desc_heap_t *h = &dev->desc[kind];
    h->next[slot - 1] = h->free_head;
    h->free_head = slot;
    h->used--;
}

D3D12_CPU_DESCRIPTOR_HANDLE eg_d3d_desc_cpu(const eg_hal_device_t *dev, eg_d3d_desc_kind_t kind, uint32_t slot)
{
    const eg_d3d_desc_heap_t *h = &dev->desc[kind];
    D3D12_CPU_DESCRIPTOR_HANDLE c = { h->cpu0.ptr + (SIZE_T)(slot - 1) * h->stride_B };
    return c;
}

uint32_t eg_d3d_desc_used(const eg_hal_device_t *dev, eg_d3d_desc_kind_t kind)
{
    return dev->desc[kind].used;
}

#endif /* EMGPU_HAL_D3D12 */
