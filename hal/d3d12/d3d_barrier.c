/* hal/d3d12 barriers and copies: tracker transitions as resource barriers, buffer states, buffer<->texture copies.
 *
 * Textures: each tracker state maps to one D3D12 resource state (eg_d3d_texture_state), and a
 * transition becomes Transition barriers of exactly its subresources (every plane of a
 * depth+stencil resource). UNINITIALIZED is COMMON: textures are left there after their zero-fill.
 *
 * Buffers decay to COMMON at the end of every ExecuteCommandLists and are promoted from COMMON
 * implicitly by their first use, so the tracker's cross-submit view of a buffer cannot name the
 * D3D12 "before" state. Each buffer record keeps its state within the current execute epoch
 * instead; eg_d3d_buffer_use transitions from it (or lets promotion happen from COMMON), and is
 * called both for the tracker's transitions and at every use. A storage write followed by another
 * storage use gets a UAV barrier. Buffers in upload/readback heaps never change state.
 *
 * Copies need no barrier between them, even when two write the same range: legacy resource
 * states cannot express COPY_DEST -> COPY_DEST, so D3D12 executes Copy* commands of a list in
 * order (DirectX-Specs, "D3D12AsyncCommands": "all three of these Copy operations must execute
 * serially to guarantee deterministic results"). Only the enhanced-barrier copies would need one.
 *
 * Stencil-plane buffer copies are probed once per ID3D12Device (stencil_copy_mode): vkd3d 1.6
 * (wine 8.0) reads a plane-1 subresource index as an array layer and sizes buffer rows by the
 * depth-stencil texel, so copies as D3D12 specifies them miss the texture; where the probe sees
 * that, they go through plane 0 with the stencil view format, which vkd3d maps to the stencil
 * aspect of the right layer.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/format/format.h"

#define SRV_STATES (D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE | D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE)

D3D12_RESOURCE_STATES eg_d3d_texture_state(uint16_t use, const eg_texture_t *tex)
{
    (void)tex;
    if (use & (EG_TRACK_TEX_STORAGE_WRITE | EG_TRACK_TEX_STORAGE_READ)) return D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    if (use & EG_TRACK_TEX_COPY_DST) return D3D12_RESOURCE_STATE_COPY_DEST;
    if (use & EG_TRACK_TEX_COLOR_TARGET) return D3D12_RESOURCE_STATE_RENDER_TARGET;
    if (use & EG_TRACK_TEX_DEPTH_STENCIL_WRITE) return D3D12_RESOURCE_STATE_DEPTH_WRITE;
    D3D12_RESOURCE_STATES s = D3D12_RESOURCE_STATE_COMMON;   /* NONE, UNINITIALIZED, PRESENT */
    if (use & EG_TRACK_TEX_COPY_SRC) s |= D3D12_RESOURCE_STATE_COPY_SOURCE;
    if (use & EG_TRACK_TEX_SAMPLED) s |= SRV_STATES;
    if (use & EG_TRACK_TEX_DEPTH_STENCIL_READ) s |= D3D12_RESOURCE_STATE_DEPTH_READ;
    return s;
}

static D3D12_RESOURCE_STATES buffer_state(uint16_t use)
{
    if (use & EG_TRACK_BUF_STORAGE_WRITE) return D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    if (use & (EG_TRACK_BUF_COPY_DST | EG_TRACK_BUF_QUERY_RESOLVE)) return D3D12_RESOURCE_STATE_COPY_DEST;
    D3D12_RESOURCE_STATES s = D3D12_RESOURCE_STATE_COMMON;
    if (use & EG_TRACK_BUF_COPY_SRC) s |= D3D12_RESOURCE_STATE_COPY_SOURCE;
    if (use & EG_TRACK_BUF_INDEX) s |= D3D12_RESOURCE_STATE_INDEX_BUFFER;
    if (use & (EG_TRACK_BUF_VERTEX | EG_TRACK_BUF_UNIFORM)) s |= D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER;
    if (use & EG_TRACK_BUF_STORAGE_READ) s |= SRV_STATES;
    if (use & EG_TRACK_BUF_INDIRECT) s |= D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT;
    return s;
}

static void uav_barrier(ID3D12GraphicsCommandList *cl, ID3D12Resource *res)
{
    D3D12_RESOURCE_BARRIER b;
    eg_memset(&b, 0, sizeof b);
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    b.UAV.pResource = res;
    ID3D12GraphicsCommandList_ResourceBarrier(cl, 1, &b);
}

void eg_d3d_buffer_use(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, eg_buffer_t *buf,
                       D3D12_RESOURCE_STATES state)
{
    eg_d3d_buffer_t *b = EG_D3D_PRIV(eg_d3d_buffer_t, buf);
    if (b->host || !b->res) return;   /* upload / readback heap: one state for life */
    D3D12_RESOURCE_STATES cur = b->epoch == dev->exec_epoch ? (D3D12_RESOURCE_STATES)b->state
                                                            : D3D12_RESOURCE_STATE_COMMON;
    b->epoch = dev->exec_epoch;
    b->state = (uint32_t)state;
    if (cur == state) {
        if (state == D3D12_RESOURCE_STATE_UNORDERED_ACCESS) uav_barrier(cl, b->res);
        return;
    }
    if (cur == D3D12_RESOURCE_STATE_COMMON) return;   /* implicit promotion on first use */
    D3D12_RESOURCE_BARRIER rb;
    eg_memset(&rb, 0, sizeof rb);
    rb.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    rb.Transition.pResource = b->res;
    rb.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    rb.Transition.StateBefore = cur;
    rb.Transition.StateAfter = state;
    ID3D12GraphicsCommandList_ResourceBarrier(cl, 1, &rb);
}

#define BATCH 32

void eg_d3d_texture_barrier(ID3D12GraphicsCommandList *cl, eg_texture_t *tex, D3D12_RESOURCE_STATES from,
                            D3D12_RESOURCE_STATES to, uint32_t base_mip, uint32_t mips, uint32_t base_layer,
                            uint32_t layers)
{
    eg_d3d_texture_t *t = EG_D3D_PRIV(eg_d3d_texture_t, tex);
    if (from == to) {
        if (to == D3D12_RESOURCE_STATE_UNORDERED_ACCESS) uav_barrier(cl, t->res);
        return;
    }
    D3D12_RESOURCE_BARRIER b[BATCH];
    uint32_t n = 0;
    eg_memset(b, 0, sizeof b);
    bool all = base_mip == 0 && mips == tex->mip_level_count && base_layer == 0 && layers == eg_texture_layer_count(tex);
    for (uint32_t p = 0; p < t->planes; p++) {
        for (uint32_t l = base_layer; l < base_layer + layers; l++) {
            for (uint32_t m = base_mip; m < base_mip + mips; m++) {
                b[n].Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
                b[n].Transition.pResource = t->res;
                b[n].Transition.Subresource = all ? D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES
                                                  : eg_d3d_subresource(tex, m, l, p);
                b[n].Transition.StateBefore = from;
                b[n].Transition.StateAfter = to;
                if (++n == BATCH) { ID3D12GraphicsCommandList_ResourceBarrier(cl, n, b); n = 0; }
                if (all) goto flush;
            }
        }
    }
flush:
    if (n) ID3D12GraphicsCommandList_ResourceBarrier(cl, n, b);
}

void eg_d3d_record_barrier(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const eg_cmd_barrier_t *rec)
{
    const eg_track_transition_t *t = eg_cmd_barrier_items(rec);
    struct WGPUInstanceImpl *inst = dev->kdev->instance;
    for (uint32_t i = 0; i < rec->count; i++) {
        if (t[i].kind == EG_TRACK_KIND_BUFFER) {
            eg_buffer_t *buf = eg_pool_at(&inst->pools[EG_KIND_BUFFER], t[i].index);
            eg_d3d_buffer_use(dev, cl, buf, buffer_state(t[i].to_use));
        } else {
            eg_texture_t *tex = eg_pool_at(&inst->pools[EG_KIND_TEXTURE], t[i].index);
            eg_d3d_texture_barrier(cl, tex, eg_d3d_texture_state(t[i].from_use, tex),
                                   eg_d3d_texture_state(t[i].to_use, tex), t[i].range.base_mip, t[i].range.mip_count,
                                   t[i].range.base_layer, t[i].range.layer_count);
        }
    }
}

/* ---- buffer <-> texture copies ---- */

/* ---- stencil-plane copies: probe of a driver defect ---- */

typedef enum stencil_copy_mode {
    STENCIL_COPY_UNPROBED = 0,
    STENCIL_COPY_SPEC,      /* plane 1, R8_TYPELESS footprint, as D3D12 specifies */
    STENCIL_COPY_PLANE0,    /* vkd3d 1.6: plane 0, stencil view format, RowPitch x texel size */
    STENCIL_COPY_WRONG,     /* neither reads what a clear wrote: left as specified, logged */
} stencil_copy_mode_t;

#define PROBE_W 8u
#define PROBE_H 4u
#define PROBE_PITCH_B 256u
#define PROBE_STENCIL 0x5Au
#define PROBE_PLANE0_AT_B 8192u      /* second probe copy's offset in the readback buffer */

/* Probe results per (ID3D12Device, planar format): devices are kept between WebGPU devices. */
static struct { ID3D12Device *device; uint32_t format; uint8_t mode; } k_stencil_probe[4];

/* The stencil view format vkd3d maps to the stencil aspect, and its texel size (the factor by
 * which vkd3d 1.6 divides RowPitch to get the buffer row length in stencil bytes). */
static DXGI_FORMAT stencil_plane0_format(DXGI_FORMAT f, uint32_t *texel_B)
{
    *texel_B = f == DXGI_FORMAT_D32_FLOAT_S8X24_UINT ? 8u : 4u;
    return f == DXGI_FORMAT_D32_FLOAT_S8X24_UINT ? DXGI_FORMAT_X32_TYPELESS_G8X24_UINT : DXGI_FORMAT_X24_TYPELESS_G8_UINT;
}

static void probe_copy(ID3D12GraphicsCommandList *cl, ID3D12Resource *tex, ID3D12Resource *buf, DXGI_FORMAT f,
                       bool plane0)
{
    uint32_t texel_B;
    D3D12_TEXTURE_COPY_LOCATION src, dst;
    eg_memset(&src, 0, sizeof src);
    eg_memset(&dst, 0, sizeof dst);
    src.pResource = tex;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.SubresourceIndex = plane0 ? 0 : 1;
    dst.pResource = buf;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Offset = plane0 ? PROBE_PLANE0_AT_B : 0;
    dst.PlacedFootprint.Footprint.Format = plane0 ? stencil_plane0_format(f, &texel_B) : DXGI_FORMAT_R8_TYPELESS;
    dst.PlacedFootprint.Footprint.Width = PROBE_W;
    dst.PlacedFootprint.Footprint.Height = PROBE_H;
    dst.PlacedFootprint.Footprint.Depth = 1;
    dst.PlacedFootprint.Footprint.RowPitch = plane0 ? PROBE_PITCH_B * texel_B : PROBE_PITCH_B;
    ID3D12GraphicsCommandList_CopyTextureRegion(cl, &dst, 0, 0, 0, &src, NULL);
}

/* True when the PROBE_W x PROBE_H stencil texels read PROBE_STENCIL at rows PROBE_PITCH_B apart. */
static bool probe_check(ID3D12Resource *buf, uint32_t at_B)
{
    uint8_t *p = NULL;
    D3D12_RANGE r = { at_B, at_B + PROBE_PITCH_B * PROBE_H };
    if (FAILED(ID3D12Resource_Map(buf, 0, &r, (void **)&p)) || !p) return false;
    bool ok = true;
    for (uint32_t y = 0; y < PROBE_H; y++)
        for (uint32_t x = 0; x < PROBE_W; x++) ok = ok && p[at_B + y * PROBE_PITCH_B + x] == PROBE_STENCIL;
    D3D12_RANGE none = { 0, 0 };
    ID3D12Resource_Unmap(buf, 0, &none);
    return ok;
}

typedef struct probe_objs {
    ID3D12Heap *heap;
    ID3D12Resource *tex, *buf;
    ID3D12DescriptorHeap *dsv;
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *cl;
    ID3D12Fence *fence;
    HANDLE event;
} probe_objs_t;

/* Executes the probe list and waits for it (fence value v). */
static bool probe_execute(probe_objs_t *o, uint64_t v)
{
    if (FAILED(ID3D12GraphicsCommandList_Close(o->cl))) return false;
    ID3D12CommandList *lists[1] = { (ID3D12CommandList *)o->cl };
    ID3D12CommandQueue_ExecuteCommandLists(o->queue, 1, lists);
    if (FAILED(ID3D12CommandQueue_Signal(o->queue, o->fence, v)) ||
        FAILED(ID3D12Fence_SetEventOnCompletion(o->fence, v, o->event)))
        return false;
    return WaitForSingleObject(o->event, 10000) == WAIT_OBJECT_0;
}

/* Its own objects, so that the probe touches no pool, ring or fault-injection counter. The
 * texture is placed at the start of a heap of several textures' size: a copy that misreads its
 * subresource (as vkd3d 1.6 does) then stays inside memory the probe owns. */
static bool probe_create(ID3D12Device *d, DXGI_FORMAT f, probe_objs_t *o)
{
    D3D12_HEAP_DESC hd;
    eg_memset(&hd, 0, sizeof hd);
    hd.SizeInBytes = 4u * D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;
    hd.Properties.Type = D3D12_HEAP_TYPE_DEFAULT;
    hd.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_RT_DS_TEXTURES;
    D3D12_RESOURCE_DESC td;
    eg_memset(&td, 0, sizeof td);
    td.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    td.Width = PROBE_W;
    td.Height = PROBE_H;
    td.DepthOrArraySize = 1;
    td.MipLevels = 1;
    td.Format = f;
    td.SampleDesc.Count = 1;
    td.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    D3D12_RESOURCE_DESC bd;
    eg_memset(&bd, 0, sizeof bd);
    bd.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    bd.Width = 2u * PROBE_PLANE0_AT_B;
    bd.Height = 1;
    bd.DepthOrArraySize = 1;
    bd.MipLevels = 1;
    bd.SampleDesc.Count = 1;
    bd.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    D3D12_HEAP_PROPERTIES rb;
    eg_memset(&rb, 0, sizeof rb);
    rb.Type = D3D12_HEAP_TYPE_READBACK;
    D3D12_DESCRIPTOR_HEAP_DESC dd = { D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0 };
    D3D12_COMMAND_QUEUE_DESC qd = { D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0 };
    o->event = CreateEventA(NULL, FALSE, FALSE, NULL);
    return o->event &&
           SUCCEEDED(ID3D12Device_CreateHeap(d, &hd, &IID_ID3D12Heap, (void **)&o->heap)) &&
           SUCCEEDED(ID3D12Device_CreatePlacedResource(d, o->heap, 0, &td, D3D12_RESOURCE_STATE_DEPTH_WRITE, NULL,
                                                       &IID_ID3D12Resource, (void **)&o->tex)) &&
           SUCCEEDED(ID3D12Device_CreateCommittedResource(d, &rb, D3D12_HEAP_FLAG_NONE, &bd,
                                                          D3D12_RESOURCE_STATE_COPY_DEST, NULL, &IID_ID3D12Resource,
                                                          (void **)&o->buf)) &&
           SUCCEEDED(ID3D12Device_CreateDescriptorHeap(d, &dd, &IID_ID3D12DescriptorHeap, (void **)&o->dsv)) &&
           SUCCEEDED(ID3D12Device_CreateCommandQueue(d, &qd, &IID_ID3D12CommandQueue, (void **)&o->queue)) &&
           SUCCEEDED(ID3D12Device_CreateCommandAllocator(d, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                         &IID_ID3D12CommandAllocator, (void **)&o->alloc)) &&
           SUCCEEDED(ID3D12Device_CreateCommandList(d, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, o->alloc, NULL,
                                                    &IID_ID3D12GraphicsCommandList, (void **)&o->cl)) &&
           SUCCEEDED(ID3D12Device_CreateFence(d, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&o->fence));
}

static void probe_release(probe_objs_t *o)
{
    IUnknown *objs[8] = { (IUnknown *)o->cl, (IUnknown *)o->alloc, (IUnknown *)o->queue, (IUnknown *)o->fence,
                          (IUnknown *)o->dsv, (IUnknown *)o->buf, (IUnknown *)o->tex, (IUnknown *)o->heap };
    for (uint32_t i = 0; i < 8; i++)
        if (objs[i]) IUnknown_Release(objs[i]);
    if (o->event) CloseHandle(o->event);
}

/* Clears a small depth-stencil texture's stencil to PROBE_STENCIL and copies its stencil plane
 * to a buffer as D3D12 specifies; only when that reads wrong, the plane-0 form is tried (so a
 * correct driver never sees the non-standard copy). */
static stencil_copy_mode_t stencil_probe_run(ID3D12Device *d, DXGI_FORMAT f)
{
    probe_objs_t o;
    eg_memset(&o, 0, sizeof o);
    stencil_copy_mode_t mode = STENCIL_COPY_WRONG;
    if (probe_create(d, f, &o)) {
        D3D12_CPU_DESCRIPTOR_HANDLE h;
        o.dsv->lpVtbl->GetCPUDescriptorHandleForHeapStart(o.dsv, &h);
        ID3D12Device_CreateDepthStencilView(d, o.tex, NULL, h);
        ID3D12GraphicsCommandList_ClearDepthStencilView(o.cl, h, D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL, 1.0f,
                                                        (UINT8)PROBE_STENCIL, 0, NULL);
        D3D12_RESOURCE_BARRIER b;
        eg_memset(&b, 0, sizeof b);
        b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        b.Transition.pResource = o.tex;
        b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
        b.Transition.StateBefore = D3D12_RESOURCE_STATE_DEPTH_WRITE;
        b.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
        ID3D12GraphicsCommandList_ResourceBarrier(o.cl, 1, &b);
        probe_copy(o.cl, o.tex, o.buf, f, false);
        if (probe_execute(&o, 1)) {
            if (probe_check(o.buf, 0)) {
                mode = STENCIL_COPY_SPEC;
            } else if (SUCCEEDED(ID3D12CommandAllocator_Reset(o.alloc)) &&
                       SUCCEEDED(ID3D12GraphicsCommandList_Reset(o.cl, o.alloc, NULL))) {
                probe_copy(o.cl, o.tex, o.buf, f, true);
                if (probe_execute(&o, 2) && probe_check(o.buf, PROBE_PLANE0_AT_B)) mode = STENCIL_COPY_PLANE0;
            }
        }
    }
    probe_release(&o);
    return mode;
}

/* The stencil copy mode of the device that owns `res` for planar format f (probed on first use). */
static stencil_copy_mode_t stencil_copy_mode(ID3D12Resource *res, DXGI_FORMAT f)
{
    ID3D12Device *d = NULL;
    if (FAILED(ID3D12Resource_GetDevice(res, &IID_ID3D12Device, (void **)&d)) || !d) return STENCIL_COPY_SPEC;
    ID3D12Device_Release(d);   /* the resource keeps it alive; only its identity is needed */
    uint32_t free_i = EG_ARRAY_LEN(k_stencil_probe);
    for (uint32_t i = 0; i < EG_ARRAY_LEN(k_stencil_probe); i++) {
        if (k_stencil_probe[i].device == d && k_stencil_probe[i].format == (uint32_t)f)
            return (stencil_copy_mode_t)k_stencil_probe[i].mode;
        if (!k_stencil_probe[i].device && free_i == EG_ARRAY_LEN(k_stencil_probe)) free_i = i;
    }
    stencil_copy_mode_t mode = stencil_probe_run(d, f);
    if (mode == STENCIL_COPY_PLANE0)
        eg_log(EG_LOG_WARN, "d3d12: driver defect (probed): a stencil-plane copy of DXGI format %u misses the texture "
               "(vkd3d 1.6 reads plane 1 as an array layer, rows RowPitch/texel apart); stencil copies go through "
               "plane 0 with the stencil view format", (unsigned)f);
    else if (mode == STENCIL_COPY_WRONG)
        eg_log(EG_LOG_WARN, "d3d12: driver defect (probed): stencil-plane copies of DXGI format %u read wrong and no "
               "workaround reads right; stencil readbacks will be wrong", (unsigned)f);
    if (free_i == EG_ARRAY_LEN(k_stencil_probe)) free_i = 0;   /* more devices than slots: reprobe later */
    k_stencil_probe[free_i].device = d;
    k_stencil_probe[free_i].format = (uint32_t)f;
    k_stencil_probe[free_i].mode = (uint8_t)mode;
    return mode;
}

/** True when planar copies of tex copy only plane 0 (the driver's plane-0 copy moves both
 *  aspects; its plane-1 subresource would be an array layer that does not exist). */
bool eg_d3d_stencil_via_plane0(eg_texture_t *tex)
{
    eg_d3d_texture_t *t = EG_D3D_PRIV(eg_d3d_texture_t, tex);
    return t->planes > 1 && stencil_copy_mode(t->res, (DXGI_FORMAT)t->format) == STENCIL_COPY_PLANE0;
}

/* The placed-footprint format and plane of one aspect (the copy formats of planar depth). */
static DXGI_FORMAT footprint_format(const eg_texture_t *tex, WGPUTextureAspect aspect, uint32_t *plane)
{
    const eg_d3d_texture_t *t = EG_D3D_PRIV(const eg_d3d_texture_t, tex);
    bool stencil = aspect == WGPUTextureAspect_StencilOnly || !(tex->fi->aspects & (EG_ASPECT_DEPTH | EG_ASPECT_COLOR));
    *plane = stencil && t->planes > 1 ? 1 : 0;
    switch ((DXGI_FORMAT)t->format) {
    case DXGI_FORMAT_D16_UNORM: return DXGI_FORMAT_R16_TYPELESS;
    case DXGI_FORMAT_D32_FLOAT: return DXGI_FORMAT_R32_TYPELESS;
    case DXGI_FORMAT_D24_UNORM_S8_UINT: return stencil ? DXGI_FORMAT_R8_TYPELESS : DXGI_FORMAT_R24G8_TYPELESS;
    case DXGI_FORMAT_D32_FLOAT_S8X24_UINT: return stencil ? DXGI_FORMAT_R8_TYPELESS : DXGI_FORMAT_R32_TYPELESS;
    default: return eg_d3d_format(tex->format);
    }
}

/* A placed footprint must start at a multiple of 512 bytes; WebGPU offsets need only be a
 * multiple of the texel block. So the footprint starts at the offset rounded down, and the copy
 * moves right inside it by the difference (a whole number of blocks: 512 is a multiple of every
 * block size). */
void eg_d3d_copy_buffer_texture(ID3D12GraphicsCommandList *cl, ID3D12Resource *buffer, eg_texture_t *tex,
                                const eg_buffer_layout_t *layout, const eg_texel_region_t *r, bool to_texture)
{
    const eg_format_info_t *fi = tex->fi;
    bool is3d = tex->dimension == WGPUTextureDimension_3D;
    uint32_t plane, block_B = eg_format_copy_block_B(fi, r->aspect), pitch_mul = 1;
    DXGI_FORMAT ff = footprint_format(tex, r->aspect, &plane);
    if (plane == 1 && eg_d3d_stencil_via_plane0(tex)) {
        /* The probed vkd3d form: plane 0, the stencil view format, and a RowPitch of the wanted
         * pitch times the texel size it divides by; it also takes x offsets in whole texels. */
        plane = 0;
        ff = stencil_plane0_format((DXGI_FORMAT)EG_D3D_PRIV(eg_d3d_texture_t, tex)->format, &pitch_mul);
        block_B = pitch_mul;
    }
    uint32_t images = is3d ? 1 : r->depth_or_layers;
    uint64_t image_B = (uint64_t)layout->bytes_per_row_B * layout->rows_per_image;
    for (uint32_t i = 0; i < images; i++) {
        uint64_t off = layout->offset_B + i * image_B;
        uint64_t base = off & ~(uint64_t)(D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT - 1);
        /* (off - base) is a whole number of blocks: 512 is a multiple of every block size. In
         * the plane-0 stencil form a remainder (a 4-byte aligned offset, 8-byte texel) is put in
         * the footprint offset instead, which that driver takes as it is. */
        if (block_B && (off - base) % block_B) base = off;
        uint32_t shift_px = block_B ? (uint32_t)(off - base) / block_B * fi->block_w_px : 0;
        D3D12_TEXTURE_COPY_LOCATION buf_loc, tex_loc;
        eg_memset(&buf_loc, 0, sizeof buf_loc);
        buf_loc.pResource = buffer;
        buf_loc.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        buf_loc.PlacedFootprint.Offset = base;
        buf_loc.PlacedFootprint.Footprint.Format = ff;
        buf_loc.PlacedFootprint.Footprint.Width = shift_px + EG_ALIGN_UP(r->width_px, (uint32_t)fi->block_w_px);
        buf_loc.PlacedFootprint.Footprint.Height = eg_max_u32(EG_ALIGN_UP(r->height_px, (uint32_t)fi->block_h_px),
                                                              is3d ? layout->rows_per_image * fi->block_h_px : 0);
        buf_loc.PlacedFootprint.Footprint.Depth = is3d ? r->depth_or_layers : 1;
        /* A single row may come with any bytes_per_row; the pitch rule still applies to it. */
        buf_loc.PlacedFootprint.Footprint.RowPitch =
            EG_ALIGN_UP(eg_max_u32(layout->bytes_per_row_B, 1), (uint32_t)D3D12_TEXTURE_DATA_PITCH_ALIGNMENT) * pitch_mul;
        eg_memset(&tex_loc, 0, sizeof tex_loc);
        tex_loc.pResource = EG_D3D_PRIV(eg_d3d_texture_t, tex)->res;
        tex_loc.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        tex_loc.SubresourceIndex = eg_d3d_subresource(tex, r->mip_level, is3d ? 0 : r->origin_z + i, plane);
        uint32_t z = is3d ? r->origin_z : 0, d = is3d ? r->depth_or_layers : 1;
        uint32_t w = EG_ALIGN_UP(r->width_px, (uint32_t)fi->block_w_px), h = EG_ALIGN_UP(r->height_px, (uint32_t)fi->block_h_px);
        if (to_texture) {
            D3D12_BOX box = { shift_px, 0, 0, shift_px + w, h, d };
            ID3D12GraphicsCommandList_CopyTextureRegion(cl, &tex_loc, r->origin_x, r->origin_y, z, &buf_loc, &box);
        } else {
            D3D12_BOX box = { r->origin_x, r->origin_y, z, r->origin_x + w, r->origin_y + h, z + d };
            ID3D12GraphicsCommandList_CopyTextureRegion(cl, &buf_loc, shift_px, 0, 0, &tex_loc, &box);
        }
    }
}

#endif /* EMGPU_HAL_D3D12 */
