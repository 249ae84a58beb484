/* hal/d3d12 internals: the loader table, the device record, per-object records and cross-file helpers.
 *
 * Layout of the backend (one file per concern):
 *   d3d_guids.c     the COM interface IDs (INITGUID in exactly one file)
 *   d3d_device.c    d3d12.dll / dxgi.dll through the port's loader, DXGI adapters, device info,
 *                   debug layer + info queue, device open/close
 *   d3d_memory.c    placed-resource heaps over kernel/base/block_alloc, CPU descriptor heaps
 *   d3d_queue.c     command allocator ring recycled by fence value, staging belt, queue writes,
 *                   completion, the ops table
 *   d3d_resource.c  formats, buffers (zeroed, mapped), textures (zeroed), views, samplers
 *   d3d_exec.c      command streams -> command lists, tracker transitions -> resource barriers
 *   d3d_binding.c   shader-visible heaps, root signatures, bind groups as descriptor tables
 *   d3d_pipeline.c  shader stages lowered to DXBC (d3d_tpf.h), graphics/compute PSOs
 *   d3d_pso.c       render pipeline state -> D3D12_GRAPHICS_PIPELINE_STATE_DESC
 *   d3d_record.c    pipelines, bindings, draws/dispatches, sysvals, indirect (ExecuteIndirect)
 *   d3d_fault.c     fault injection at the HAL boundary (EMGPU_D3D12_FAULT_INJECTION)
 *
 * The COM C interfaces (COBJMACROS, set by the board) are used throughout. Methods that return a
 * struct have no usable macro in mingw's headers: they are called through lpVtbl with an out
 * pointer (e.g. GetCPUDescriptorHandleForHeapStart). No malloc: records live in the device
 * record (static pool) or in an object's eg_hal_priv_t words.
 */
#ifndef EG_D3D_INTERNAL_H
#define EG_D3D_INTERNAL_H

#include "config/emgpu_config.h"

#include <d3d12.h>
#include <d3d12sdklayers.h>
#include <dxgi1_4.h>

#include "kernel/base/util.h"
#include "hal/hal.h"
#include "kernel/base/block_alloc.h"
#include "kernel/base/log.h"
#include "kernel/api/buffer.h"
#include "kernel/api/texture.h"
#include "kernel/api/texture_view.h"
#include "kernel/api/sampler.h"
#include "kernel/cmd/cmd.h"
#include "kernel/api/bind_group.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/shader_module.h"
#include "kernel/api/render_pipeline.h"
#include "kernel/api/compute_pipeline.h"
#include "hal/d3d12/d3d_tpf.h"
#include "hal/d3d12/d3d_cache.h"

/* ---- loader (d3d_device.c) ---- */
typedef HRESULT (WINAPI *eg_pfn_create_device)(IUnknown *, D3D_FEATURE_LEVEL, REFIID, void **);
typedef HRESULT (WINAPI *eg_pfn_get_debug)(REFIID, void **);
typedef HRESULT (WINAPI *eg_pfn_create_factory)(REFIID, void **);
typedef HRESULT (WINAPI *eg_pfn_serialize_rs)(const D3D12_ROOT_SIGNATURE_DESC *, D3D_ROOT_SIGNATURE_VERSION,
                                             ID3DBlob **, ID3DBlob **);
typedef struct eg_d3d_fns {
    eg_pfn_create_device D3D12CreateDevice;
    eg_pfn_get_debug D3D12GetDebugInterface;
    eg_pfn_serialize_rs D3D12SerializeRootSignature;
    eg_pfn_create_factory CreateDXGIFactory1;
} eg_d3d_fns_t;
extern eg_d3d_fns_t eg_d3d;

/* ---- fault injection (d3d_fault.c) ---- */
/** True when the call `name` is the one armed to fail (the caller then returns the armed
 *  HRESULT from eg_d3d_fault_result without calling D3D12). One branch when unarmed. */
bool eg_d3d_fault_hit(const char *name);
HRESULT eg_d3d_fault_result(void);
/* EG_D3D_CALL_AFTER: the call is made, then its result replaced: for calls whose failure leaves
 * the object in a defined state (Close: the list is closed, in error, and may be Reset). */
#if EMGPU_D3D12_FAULT_INJECTION
#define EG_D3D_CALL(name, expr) (eg_d3d_fault_hit(name) ? eg_d3d_fault_result() : (expr))
#define EG_D3D_CALL_AFTER(name, expr) eg_d3d_fault_after(name, (expr))
#else
#define EG_D3D_CALL(name, expr) (expr)
#define EG_D3D_CALL_AFTER(name, expr) (expr)
#endif
static inline HRESULT eg_d3d_fault_after(const char *name, HRESULT real)
{
    return eg_d3d_fault_hit(name) ? eg_d3d_fault_result() : real;
}

/* ---- memory (d3d_memory.c) ---- */
/* Heap kinds. Resource heap tier 1 keeps buffers, non-RT/DS textures and RT/DS textures in
 * separate heaps, so each is its own kind (and works on tier 2 too). */
typedef enum eg_d3d_mem_kind {
    EG_D3D_MEM_BUFFER = 0,   /* default heap, buffers */
    EG_D3D_MEM_UPLOAD,       /* upload heap: MapWrite buffers, the staging belt, the zero buffer */
    EG_D3D_MEM_READBACK,     /* readback heap: MapRead buffers */
    EG_D3D_MEM_TEXTURE,      /* default heap, textures without RENDER_TARGET / DEPTH_STENCIL */
    EG_D3D_MEM_TARGET,       /* default heap, render-target / depth-stencil textures */
    EG_D3D_MEM_KIND_COUNT
} eg_d3d_mem_kind_t;

typedef struct eg_d3d_mem_pool {
    eg_block_alloc_t alloc;
    ID3D12Heap *heaps[EG_BLOCK_ALLOC_MAX_BLOCKS];
    eg_range_block_t records[EMGPU_D3D12_HEAP_BLOCKS * EMGPU_D3D12_HEAP_RECORDS_PER_BLOCK];
    struct eg_hal_device *dev;
    eg_d3d_mem_kind_t kind;
} eg_d3d_mem_pool_t;

/* An allocation: kind << 8 | block (UINT32_MAX: none) and the offset in the block. */
typedef struct eg_d3d_alloc {
    uint32_t kind_block;
    uint32_t offset_B;
} eg_d3d_alloc_t;

/* CPU descriptor heaps with free lists (views, samplers, render targets). */
typedef enum eg_d3d_desc_kind {
    EG_D3D_DESC_VIEW = 0,    /* CBV/SRV/UAV, CPU-only (copied into the shader-visible heap) */
    EG_D3D_DESC_SAMPLER,
    EG_D3D_DESC_RTV,
    EG_D3D_DESC_DSV,
    EG_D3D_DESC_KIND_COUNT
} eg_d3d_desc_kind_t;
#define EG_D3D_DESC_MAX EMGPU_D3D12_VIEW_DESCRIPTORS

typedef struct eg_d3d_desc_heap {
    ID3D12DescriptorHeap *heap;
    D3D12_CPU_DESCRIPTOR_HANDLE cpu0;
    uint32_t stride_B, count, free_head, used;
    uint32_t next[EG_D3D_DESC_MAX];      /* free list links (slot + 1; 0 ends) */
} eg_d3d_desc_heap_t;
#define EG_D3D_NO_DESC 0u                /* descriptor slot numbers are 1-based; 0 = none */

/* ---- ring and staging (d3d_queue.c) ---- */
typedef struct eg_d3d_slot {
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *upload, *main;
    bool upload_open;        /* upload list recording (Reset done, not yet Closed) */
    bool upload_closed;      /* upload list closed, waiting to be executed */
    bool in_flight;
    uint64_t fence_value;    /* signalled when the slot's lists finish */
    uint64_t kernel_index;   /* kernel submission index it completes (0: uploads only) */
} eg_d3d_slot_t;

typedef struct eg_d3d_chunk {
    ID3D12Resource *buffer;
    eg_d3d_alloc_t alloc;
    uint8_t *host;
    uint64_t retire_value;   /* free once the fence reaches this */
    uint32_t pins;           /* open maps living in this chunk */
} eg_d3d_chunk_t;

#define EG_D3D_ZERO_BYTES (256u * 1024u)   /* zero-filled upload buffer for initialisation */

/* One operation recorded into the current slot's upload list, logged (EMGPU_D3D12_UPLOAD_LOG) so
 * that a failed Close can record them all again into the same list (d3d_queue.c, "replay"). Every
 * operand outlives the list: staging chunks retire at the slot's fence, and destroying a resource
 * executes pending uploads first (d3d_resource.c settle_uploads). */
typedef enum eg_d3d_upload_kind {
    EG_D3D_UP_BUFFER_ZERO = 0,   /* obj: eg_buffer_t, zeroed from the zero buffer */
    EG_D3D_UP_TEXTURE_INIT,      /* obj: eg_texture_t, zeroed from its placed state `state` to COMMON */
    EG_D3D_UP_BUFFER_COPY,       /* obj: eg_buffer_t at dst_offset_B <- src at src_offset_B, size_B */
    EG_D3D_UP_TEXTURE_COPY       /* obj: eg_texture_t region <- src with layout, in state `state` around it */
} eg_d3d_upload_kind_t;
typedef struct eg_d3d_upload_op {
    eg_d3d_upload_kind_t kind;
    uint32_t state;              /* D3D12_RESOURCE_STATES, as above */
    void *obj;
    ID3D12Resource *src;         /* a staging chunk's buffer */
    uint64_t dst_offset_B;
    uint32_t src_offset_B, size_B;
    eg_texel_region_t region;
    eg_buffer_layout_t layout;
} eg_d3d_upload_op_t;

/* Indirect command kinds (one command signature each, d3d_record.c). */
typedef enum eg_d3d_indirect_kind {
    EG_D3D_INDIRECT_DRAW = 0, EG_D3D_INDIRECT_DRAW_INDEXED, EG_D3D_INDIRECT_DISPATCH, EG_D3D_INDIRECT_KIND_COUNT
} eg_d3d_indirect_kind_t;

struct eg_hal_device {
    bool open;
    bool lost;
    bool lost_drained;    /* lost by an injected removal, and the real queue was seen idle after
                           * it: no GPU work can read the descriptor heaps, so they may be kept */
    bool validation;                 /* debug layer on, info queue read after each submit */
    struct WGPUDeviceImpl *kdev;
    const eg_device_info_t *info;
    IDXGIAdapter1 *adapter;
    ID3D12Device *device;
    ID3D12InfoQueue *info_queue;     /* NULL without the debug layer */
    ID3D12CommandQueue *queue;
    ID3D12Fence *fence;
    HANDLE fence_event;
    uint64_t next_fence, completed_fence;
    uint64_t completed_index, submitted_index;
    uint32_t exec_epoch;             /* ExecuteCommandLists count: buffer states decay per call */
    eg_d3d_mem_pool_t mem[EG_D3D_MEM_KIND_COUNT];
    eg_d3d_desc_heap_t desc[EG_D3D_DESC_KIND_COUNT];
    eg_d3d_slot_t slots[EMGPU_D3D12_COMMAND_RING];
    uint32_t cur_slot;
    eg_d3d_chunk_t chunks[EMGPU_D3D12_STAGING_CHUNKS];
    uint32_t cur_chunk;
    uint32_t chunk_used_B;
    ID3D12Resource *zero;            /* EG_D3D_ZERO_BYTES of zeros in the upload heap */
    eg_d3d_upload_op_t upload_log[EMGPU_D3D12_UPLOAD_LOG];   /* the current upload list's operations */
    uint32_t upload_log_count;
    bool upload_log_full;            /* more than fit: a failed Close cannot be replayed */
    /* RTV/DSV slots written just before OMSetRenderTargets / Clear*View, which read descriptors
     * when recorded: render passes and zero-clears at creation need no per-view RTV/DSV. */
    uint32_t scratch_rtv[EG_CMD_MAX_COLOR_ATTACHMENTS], scratch_dsv;
    /* Shader-visible heaps: bind groups take contiguous ranges (descriptor tables). */
    ID3D12DescriptorHeap *gpu_heap[2];           /* [0] CBV/SRV/UAV, [1] samplers */
    D3D12_CPU_DESCRIPTOR_HANDLE gpu_cpu0[2];
    D3D12_GPU_DESCRIPTOR_HANDLE gpu_gpu0[2];
    uint32_t gpu_stride_B[2];
    eg_range_alloc_t gpu_ranges[2];
    eg_range_block_t gpu_records[2][EMGPU_D3D12_BIND_GROUP_RECORDS];
    eg_d3d_alloc_t zero_alloc;
    /* System values (d3d_record.c), each made on first use: direct draws' in a mapped upload
     * buffer (EMGPU_D3D12_SYSVALS_BYTES per ring slot), indirect commands' copied GPU-side with
     * their arguments into a default-heap buffer (EMGPU_D3D12_INDIRECT_SCRATCH_BYTES per slot),
     * executed through one command signature per kind. */
    ID3D12Resource *sysvals, *indirect;
    eg_d3d_alloc_t sysvals_alloc, indirect_alloc;
    uint8_t *sysvals_host;
    uint32_t sysvals_used_B, indirect_used_B;     /* in the current slot's regions */
    uint32_t sysvals_last[EG_D3D_TPF_SYSVALS_DWORDS];   /* the last record written in this slot */
    uint32_t indirect_state, indirect_epoch;
    ID3D12CommandSignature *indirect_sig[EG_D3D_INDIRECT_KIND_COUNT];
    uint32_t dyn_used;       /* dynamic-offset views written in the current slot's ring part (d3d_binding.c) */
};

/* ---- per-object records in eg_hal_priv_t ---- */
typedef struct eg_d3d_buffer {
    ID3D12Resource *res;
    eg_d3d_alloc_t alloc;
    uint8_t *host;           /* persistent map (upload/readback heaps), NULL otherwise */
    uint8_t *staging_host;   /* map of a default-heap buffer: staging memory, copied at unmap */
    uint32_t staging_chunk_offset;   /* chunk << 24 | offset in the chunk */
    uint32_t state;          /* D3D12_RESOURCE_STATES within exec_epoch `epoch` */
    uint32_t epoch;
} eg_d3d_buffer_t;
typedef struct eg_d3d_texture {
    ID3D12Resource *res;
    eg_d3d_alloc_t alloc;
    uint32_t format;         /* DXGI_FORMAT of the resource */
    uint32_t planes;         /* 2 for depth+stencil formats (planar in D3D12), else 1 */
} eg_d3d_texture_t;
typedef struct eg_d3d_view {
    uint32_t srv, uav;               /* CPU descriptor slots (EG_D3D_NO_DESC: none) */
} eg_d3d_view_t;
typedef struct eg_d3d_sampler { uint32_t slot; } eg_d3d_sampler_t;
/* A bind group: its descriptor tables in the shader-visible heaps (base + 1; 0: none). */
typedef struct eg_d3d_bind_group { uint32_t views, view_count, samplers, sampler_count; } eg_d3d_bind_group_t;
/* A pipeline layout: its root signature and the root parameter of each group's tables and first
 * dynamic buffer (EG_D3D_NO_PARAM: none), and of the sysvals constant buffer (always the last
 * parameter: a root CBV, d3d_record.c says why). */
#define EG_D3D_NO_PARAM 0xFFu
typedef struct eg_d3d_layout {
    ID3D12RootSignature *root;
    uint8_t view_param[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    uint8_t sampler_param[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    uint8_t dynamic_param[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    uint8_t sysvals_param;
} eg_d3d_layout_t;
_Static_assert(sizeof(eg_d3d_layout_t) <= sizeof(eg_hal_priv_t), "eg_d3d_layout_t fits the priv words");
/* A render or compute pipeline: its PSO; render pipelines with a strip topology and no
 * stripIndexFormat get a second PSO for 32-bit indices (the strip cut value is PSO state, and
 * WebGPU restarts strips at the bound index format's maximum). */
typedef struct eg_d3d_pipeline {
    ID3D12PipelineState *pso;
    ID3D12PipelineState *pso_u32;       /* NULL unless needed (then pso is the 16-bit one) */
    uint32_t topology;                  /* D3D_PRIMITIVE_TOPOLOGY */
} eg_d3d_pipeline_t;
_Static_assert(sizeof(eg_d3d_pipeline_t) <= sizeof(eg_hal_priv_t), "eg_d3d_pipeline_t fits the priv words");

_Static_assert(sizeof(eg_d3d_buffer_t) <= sizeof(eg_hal_priv_t), "eg_d3d_buffer_t fits the priv words");
_Static_assert(sizeof(eg_d3d_texture_t) <= sizeof(eg_hal_priv_t), "eg_d3d_texture_t fits the priv words");
_Static_assert(sizeof(eg_d3d_view_t) <= sizeof(eg_hal_priv_t), "eg_d3d_view_t fits the priv words");
_Static_assert(EMGPU_D3D12_STAGING_CHUNK_BYTES <= (1u << 24) && EMGPU_D3D12_STAGING_CHUNKS <= 256,
               "staging chunk/offset pack into 32 bits");

static inline void *eg_d3d_priv(const eg_hal_priv_t *hal) { return (void *)(uintptr_t)hal; }
#define EG_D3D_PRIV(type, obj) ((type *)eg_d3d_priv(&(obj)->hal))

/* ---- cross-file helpers ---- */
/* d3d_device.c */
eg_status_t eg_d3d_probe(uint32_t ordinal, eg_device_info_t *info);
eg_status_t eg_d3d_device_open(const eg_device_info_t *info, eg_hal_device_t **out);
void eg_d3d_device_close(eg_hal_device_t *dev);
/** HRESULT -> status; DXGI_ERROR_DEVICE_REMOVED/RESET/HUNG mark the device lost (the kernel's
 *  device lost, `what` in the log). */
eg_status_t eg_d3d_check(eg_hal_device_t *dev, HRESULT hr, const char *what);
/** Logs and counts the debug layer's messages (validation on); returns how many were new. */
uint32_t eg_d3d_drain_messages(eg_hal_device_t *dev);
/** Debug-layer messages seen since load (tests: a validation run fails on any). */
uint32_t eg_d3d_validation_messages(void);
/** Logs an exhausted knob once per call site (the kernel's error quotes only the memory knob). */
void eg_d3d_knob_exhausted(const char *what, const char *knob, uint64_t value);

/* d3d_memory.c */
eg_status_t eg_d3d_memory_init(eg_hal_device_t *dev);
void eg_d3d_memory_fini(eg_hal_device_t *dev);
/** Places a resource of `desc` in a heap of `kind` (initial state `state`); NULL res on failure. */
eg_status_t eg_d3d_place(eg_hal_device_t *dev, eg_d3d_mem_kind_t kind, const D3D12_RESOURCE_DESC *desc,
                         D3D12_RESOURCE_STATES state, const D3D12_CLEAR_VALUE *clear,
                         ID3D12Resource **res, eg_d3d_alloc_t *alloc);
void eg_d3d_memory_free(eg_hal_device_t *dev, eg_d3d_alloc_t *a);
uint64_t eg_d3d_memory_used(const eg_hal_device_t *dev);
/** Bytes placed and bytes of heaps held over every open device (tests: leak checks). */
uint64_t eg_d3d_memory_used_all(void);
eg_status_t eg_d3d_desc_init(eg_hal_device_t *dev);
void eg_d3d_desc_fini(eg_hal_device_t *dev);
/** Takes a descriptor slot (1-based); EG_D3D_NO_DESC when the heap is full (logged). */
uint32_t eg_d3d_desc_alloc(eg_hal_device_t *dev, eg_d3d_desc_kind_t kind);
void eg_d3d_desc_free(eg_hal_device_t *dev, eg_d3d_desc_kind_t kind, uint32_t slot);
D3D12_CPU_DESCRIPTOR_HANDLE eg_d3d_desc_cpu(const eg_hal_device_t *dev, eg_d3d_desc_kind_t kind, uint32_t slot);
uint32_t eg_d3d_desc_used(const eg_hal_device_t *dev, eg_d3d_desc_kind_t kind);

/* d3d_queue.c */
eg_status_t eg_d3d_ring_init(eg_hal_device_t *dev);
void eg_d3d_ring_fini(eg_hal_device_t *dev);
/** The current slot's upload command list (reset and opened on first use); NULL on failure. */
ID3D12GraphicsCommandList *eg_d3d_upload_list(eg_hal_device_t *dev);
/** True when queue writes or initialisations wait in the current slot's upload list. */
static inline bool eg_d3d_uploads_pending(const eg_hal_device_t *dev)
{
    return dev->slots[dev->cur_slot].upload_open || dev->slots[dev->cur_slot].upload_closed;
}
/** Records op into the open upload list cl and logs it for a replay (eg_d3d_upload_op_t). */
void eg_d3d_upload_record(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const eg_d3d_upload_op_t *op);
/** d3d_resource.c: the recording of a new buffer's / texture's zero-fill (also replayed). */
void eg_d3d_buffer_zero_record(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_buffer_t *buf);
void eg_d3d_texture_init_record(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_texture_t *tex,
                                D3D12_RESOURCE_STATES init);
/** Executes pending uploads alone and waits for the queue to go idle. */
eg_status_t eg_d3d_flush_and_wait(eg_hal_device_t *dev);
void eg_d3d_poll(eg_hal_device_t *dev);
/** Fence value that the current slot's next execute will signal. */
uint64_t eg_d3d_current_fence(const eg_hal_device_t *dev);
/** Bump-allocates size_B (<= chunk) with `align`; flushes and waits when every chunk is busy. */
eg_status_t eg_d3d_staging_alloc(eg_hal_device_t *dev, uint32_t size_B, uint32_t align, uint32_t *chunk,
                                 uint32_t *offset_B, uint8_t **host);
eg_status_t eg_d3d_staging_init(eg_hal_device_t *dev);
void eg_d3d_staging_fini(eg_hal_device_t *dev);

/* d3d_format.c */
DXGI_FORMAT eg_d3d_format(WGPUTextureFormat f);
DXGI_FORMAT eg_d3d_typeless(DXGI_FORMAT f);
/** The typeless/typed format for views of a depth format read as a shader resource. */
DXGI_FORMAT eg_d3d_depth_srv_format(WGPUTextureFormat f, bool stencil);
/* d3d_resource.c, d3d_view.c */
eg_status_t eg_d3d_buffer_create(eg_hal_device_t *dev, eg_buffer_t *buf);
void eg_d3d_buffer_destroy(eg_hal_device_t *dev, eg_buffer_t *buf);
void *eg_d3d_buffer_map(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B, uint64_t size_B, bool for_write);
void eg_d3d_buffer_unmap(eg_hal_device_t *dev, eg_buffer_t *buf);
eg_status_t eg_d3d_texture_create(eg_hal_device_t *dev, eg_texture_t *tex);
void eg_d3d_texture_destroy(eg_hal_device_t *dev, eg_texture_t *tex);
eg_status_t eg_d3d_texture_view_create(eg_hal_device_t *dev, eg_texture_view_t *view);
void eg_d3d_texture_view_destroy(eg_hal_device_t *dev, eg_texture_view_t *view);
eg_status_t eg_d3d_sampler_create(eg_hal_device_t *dev, eg_sampler_t *smp);
void eg_d3d_sampler_destroy(eg_hal_device_t *dev, eg_sampler_t *smp);
D3D12_COMPARISON_FUNC eg_d3d_compare_func(WGPUCompareFunction f);
/* d3d_view.c: attachment descriptors written into the scratch slots (read when recorded). */
D3D12_CPU_DESCRIPTOR_HANDLE eg_d3d_pass_rtv(eg_hal_device_t *dev, uint32_t slot, const eg_texture_view_t *v,
                                            uint32_t depth_slice);
D3D12_CPU_DESCRIPTOR_HANDLE eg_d3d_pass_dsv(eg_hal_device_t *dev, const eg_texture_view_t *v, bool depth_ro,
                                            bool stencil_ro);
/** D3D12 subresource index of (mip, layer, plane). */
static inline uint32_t eg_d3d_subresource(const eg_texture_t *tex, uint32_t mip, uint32_t layer, uint32_t plane)
{
    return mip + (layer + plane * eg_texture_layer_count(tex)) * tex->mip_level_count;
}

/* d3d_exec.c */
/** Records a stream; with barriers_only just its EG_CMD_BARRIER records (the state changes the
 *  tracker has already counted, for a failed submit's replacement). */
eg_status_t eg_d3d_record_stream(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const struct eg_cmd_stream *s,
                                 bool barriers_only);
/** One EG_CMD_BARRIER record as resource barriers (d3d_barrier.c). */
void eg_d3d_record_barrier(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const eg_cmd_barrier_t *rec);
/** Resource state for a tracker texture state. */
D3D12_RESOURCE_STATES eg_d3d_texture_state(uint16_t use, const eg_texture_t *tex);
/** Transition of the subresources of (mips, layers) of tex, every plane. */
void eg_d3d_texture_barrier(ID3D12GraphicsCommandList *cl, eg_texture_t *tex, D3D12_RESOURCE_STATES from,
                            D3D12_RESOURCE_STATES to, uint32_t base_mip, uint32_t mips, uint32_t base_layer,
                            uint32_t layers);
/** Puts buf in `state` for the list being recorded (buffers decay to COMMON per execute, so the
 *  record tracks the state within the current epoch and promotes from COMMON implicitly). */
void eg_d3d_buffer_use(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_buffer_t *buf,
                       D3D12_RESOURCE_STATES state);
/** True when stencil-plane copies of tex go through plane 0 (a driver defect the first planar copy
 *  probes for, d3d_barrier.c; false on a driver that copies plane 1 as D3D12 specifies). */
bool eg_d3d_stencil_via_plane0(eg_texture_t *tex);
/** Copies between a buffer (placed footprint at offset_B with bytes_per_row_B) and a texture. */
void eg_d3d_copy_buffer_texture(ID3D12GraphicsCommandList *cl, ID3D12Resource *buffer, eg_texture_t *tex,
                                const eg_buffer_layout_t *layout, const eg_texel_region_t *region, bool to_texture);


/* d3d_device.c: descriptor heaps are kept between WebGPU devices of one ID3D12Device (creating
 * them is slow under vkd3d): get one of this description (kept or new), put it back at close. */
HRESULT eg_d3d_heap_get(ID3D12Device *d, const D3D12_DESCRIPTOR_HEAP_DESC *hd, ID3D12DescriptorHeap **out);
void eg_d3d_heap_put(ID3D12Device *d, ID3D12DescriptorHeap *h, bool keep);
/** d3d_fault.c: a fault walk is armed (devices made then are not kept: each starts fresh). */
bool eg_d3d_fault_armed(void);

/* d3d_binding.c: shader-visible heaps, root signatures, bind groups as descriptor tables */
eg_status_t eg_d3d_gpu_heaps_init(eg_hal_device_t *dev);
void eg_d3d_gpu_heaps_fini(eg_hal_device_t *dev);
/** Descriptors in use in the shader-visible heaps (kind 0: views, 1: samplers). */
uint64_t eg_d3d_gpu_descriptors_used(const eg_hal_device_t *dev, uint32_t kind);
/** Writes a bind group's dynamic-offset buffer views (offsets added, binding order) into the
 *  current slot's dynamic ring and returns the table's GPU handle (d3d_binding.c says why views). */
eg_status_t eg_d3d_dynamic_table(eg_hal_device_t *dev, const eg_bind_group_t *bg, const uint32_t *offsets,
                                 uint32_t offset_count, D3D12_GPU_DESCRIPTOR_HANDLE *out);

/* d3d_pipeline.c */
eg_status_t eg_d3d_bind_group_layout_create(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl);
void eg_d3d_bind_group_layout_destroy(eg_hal_device_t *dev, eg_bind_group_layout_t *bgl);
eg_status_t eg_d3d_bind_group_create(eg_hal_device_t *dev, eg_bind_group_t *bg);
void eg_d3d_bind_group_destroy(eg_hal_device_t *dev, eg_bind_group_t *bg);
eg_status_t eg_d3d_pipeline_layout_create(eg_hal_device_t *dev, eg_pipeline_layout_t *pl);
void eg_d3d_pipeline_layout_destroy(eg_hal_device_t *dev, eg_pipeline_layout_t *pl);
eg_status_t eg_d3d_shader_module_create(eg_hal_device_t *dev, eg_shader_module_t *sm);
void eg_d3d_shader_module_destroy(eg_hal_device_t *dev, eg_shader_module_t *sm);
eg_status_t eg_d3d_render_pipeline_create(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
void eg_d3d_render_pipeline_destroy(eg_hal_device_t *dev, eg_render_pipeline_t *rp);
eg_status_t eg_d3d_compute_pipeline_create(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);
void eg_d3d_compute_pipeline_destroy(eg_hal_device_t *dev, eg_compute_pipeline_t *cp);

/* d3d_pso.c: WebGPU render pipeline state -> a graphics PSO description (shaders filled by the
 * caller); the input layout lives in `elems`. */
void eg_d3d_graphics_desc(const eg_render_pipeline_t *rp, D3D12_GRAPHICS_PIPELINE_STATE_DESC *d,
                          D3D12_INPUT_ELEMENT_DESC elems[EMGPU_MAX_VERTEX_ATTRIBUTES]);
uint32_t eg_d3d_topology(WGPUPrimitiveTopology t);

/* d3d_record.c: pipeline-dependent commands. The state of one stream's recording: WebGPU sets
 * bind groups and vertex buffers independently of the pipeline, D3D12 binds them through the
 * root signature and the pipeline's strides, so they are (re)applied before each draw. */
typedef struct eg_d3d_draw_state {
    bool heaps_set;                          /* SetDescriptorHeaps done in this list */
    bool compute;
    const eg_render_pipeline_t *rp;
    const eg_compute_pipeline_t *cp;
    const eg_pipeline_layout_t *layout;      /* whose root signature is set (NULL: none) */
    const eg_cmd_set_bind_group_t *groups[EMGPU_MAX_BIND_GROUPS_PER_LAYOUT];
    uint32_t group_dirty;                    /* bit per group */
    const eg_cmd_set_buffer_t *vb[EMGPU_MAX_VERTEX_BUFFERS];
    uint32_t vb_dirty;                       /* bit per slot */
    const eg_cmd_set_buffer_t *ib;
    bool ib_dirty;
    ID3D12PipelineState *pso;                /* set in the list */
} eg_d3d_draw_state_t;
/** Forgets what a pass bound (a new pass starts with nothing bound); keeps heaps_set. */
void eg_d3d_draw_state_reset(eg_d3d_draw_state_t *ds);
/** Records a pipeline-dependent command (pipelines, bind groups, vertex/index buffers, draws,
 *  dispatches, indirect ones through ExecuteIndirect). */
eg_status_t eg_d3d_record_pipeline_cmd(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_d3d_draw_state_t *ds,
                                       const eg_cmd_header_t *h);
/** Starts a slot's use of the sysvals and indirect regions (d3d_queue.c, before recording). */
static inline void eg_d3d_indirect_begin(eg_hal_device_t *dev) { dev->indirect_used_B = dev->sysvals_used_B = dev->dyn_used = 0; }
void eg_d3d_indirect_fini(eg_hal_device_t *dev);

/* d3d_queue.c */
eg_status_t eg_d3d_queue_write_buffer(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                      const void *data, size_t size_B);
eg_status_t eg_d3d_queue_write_texture(eg_hal_device_t *dev, eg_texture_t *tex, const eg_texel_region_t *dst,
                                       const void *data, const eg_buffer_layout_t *layout);

#endif /* EG_D3D_INTERNAL_H */
