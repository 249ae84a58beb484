/* hal/d3d12 queue: the command allocator ring (recycled by fence value), staging belt, queue writes, completion, the ops table.
 *
 * Ring: EMGPU_D3D12_COMMAND_RING slots, each one command allocator with an upload list and a main
 * list. The current slot collects queue writes and resource initialisation in its upload list;
 * Submit records the kernel's streams into the main list, executes both in one
 * ExecuteCommandLists (so buffer states do not decay between them), signals the device fence
 * with the next value and moves to the next slot. A slot is reused only once the fence has
 * reached its value; its allocator is then Reset. The fence's completed value is the timeline:
 * the kernel index of every slot at or below it has finished.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"
#include "hal/d3d12/d3d_fault.h"
#include "kernel/api/device.h"
#include "kernel/api/instance.h"
#include "kernel/format/format.h"

eg_status_t eg_d3d_ring_init(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_D3D12_COMMAND_RING; i++) {
        eg_d3d_slot_t *s = &dev->slots[i];
        HRESULT hr = EG_D3D_CALL("CreateCommandAllocator", ID3D12Device_CreateCommandAllocator(
                                     dev->device, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
                                     (void **)&s->alloc));
        if (FAILED(hr)) { s->alloc = NULL; return eg_d3d_check(dev, hr, "CreateCommandAllocator"); }
        ID3D12GraphicsCommandList **lists[2] = { &s->upload, &s->main };
        for (uint32_t k = 0; k < 2; k++) {
            hr = EG_D3D_CALL("CreateCommandList", ID3D12Device_CreateCommandList(
                                 dev->device, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, s->alloc, NULL,
                                 &IID_ID3D12GraphicsCommandList, (void **)lists[k]));
            if (FAILED(hr)) { *lists[k] = NULL; return eg_d3d_check(dev, hr, "CreateCommandList"); }
            /* Lists are created open; closed here, reset at first use. */
            ID3D12GraphicsCommandList_Close(*lists[k]);
        }
    }
    dev->cur_slot = 0;
    return EG_STATUS_OK;
}

void eg_d3d_ring_fini(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_D3D12_COMMAND_RING; i++) {
        eg_d3d_slot_t *s = &dev->slots[i];
        if (s->upload) ID3D12GraphicsCommandList_Release(s->upload);
        if (s->main) ID3D12GraphicsCommandList_Release(s->main);
        if (s->alloc) ID3D12CommandAllocator_Release(s->alloc);
        s->upload = s->main = NULL;
        s->alloc = NULL;
    }
}

void eg_d3d_poll(eg_hal_device_t *dev)
{
    if (dev->lost || !dev->fence) return;
    UINT64 v = ID3D12Fence_GetCompletedValue(dev->fence);
    if (v == UINT64_MAX) {   /* what a removed device's fence reads */
        eg_d3d_check(dev, DXGI_ERROR_DEVICE_REMOVED, "ID3D12Fence::GetCompletedValue");
        return;
    }
    if (v > dev->completed_fence) dev->completed_fence = v;
    for (uint32_t i = 0; i < EMGPU_D3D12_COMMAND_RING; i++) {
        eg_d3d_slot_t *s = &dev->slots[i];
        if (!s->in_flight || s->fence_value > dev->completed_fence) continue;
        s->in_flight = false;
        if (s->kernel_index > dev->completed_index) dev->completed_index = s->kernel_index;
    }
}

uint64_t eg_d3d_current_fence(const eg_hal_device_t *dev) { return dev->next_fence + 1; }

/* Blocks until the fence reaches value (or timeout_ms passes); false on timeout or loss. */
static bool wait_fence(eg_hal_device_t *dev, uint64_t value, DWORD timeout_ms)
{
    eg_d3d_poll(dev);
    if (dev->lost || dev->completed_fence >= value) return !dev->lost;
    HRESULT hr = EG_D3D_CALL("SetEventOnCompletion", ID3D12Fence_SetEventOnCompletion(dev->fence, value,
                                                                                         dev->fence_event));
    if (FAILED(hr)) { eg_d3d_check(dev, hr, "SetEventOnCompletion"); return false; }
    WaitForSingleObject(dev->fence_event, timeout_ms);
    eg_d3d_poll(dev);
    return dev->completed_fence >= value;
}

static eg_status_t execute_slot(eg_hal_device_t *dev, bool main_used, uint64_t kernel_index);

/* The current slot, waited for and its allocator reset if it was used before. */
static eg_status_t slot_ready(eg_hal_device_t *dev)
{
    eg_d3d_slot_t *s = &dev->slots[dev->cur_slot];
    if (dev->lost) return EG_STATUS_DEVICE_LOST;
    if (s->upload_open || s->upload_closed) return EG_STATUS_OK;   /* already in use for this round */
    if (s->in_flight && !wait_fence(dev, s->fence_value, INFINITE)) return EG_STATUS_DEVICE_LOST;
    if (s->fence_value) {
        HRESULT hr = EG_D3D_CALL("ID3D12CommandAllocator::Reset", ID3D12CommandAllocator_Reset(s->alloc));
        if (FAILED(hr)) return eg_d3d_check(dev, hr, "ID3D12CommandAllocator::Reset");
        s->fence_value = 0;
    }
    return EG_STATUS_OK;
}

ID3D12GraphicsCommandList *eg_d3d_upload_list(eg_hal_device_t *dev)
{
    eg_d3d_slot_t *s = &dev->slots[dev->cur_slot];
    if (s->upload_open) return s->upload;
    /* A closed list whose submit failed runs first; a new one opens in the next slot. */
    if (s->upload_closed && execute_slot(dev, false, 0) != EG_STATUS_OK) return NULL;
    s = &dev->slots[dev->cur_slot];
    if (slot_ready(dev) != EG_STATUS_OK) return NULL;
    HRESULT hr = EG_D3D_CALL("ID3D12GraphicsCommandList::Reset", ID3D12GraphicsCommandList_Reset(s->upload, s->alloc, NULL));
    if (FAILED(hr)) { eg_d3d_check(dev, hr, "ID3D12GraphicsCommandList::Reset"); return NULL; }
    s->upload_open = true;
    dev->upload_log_count = 0;
    dev->upload_log_full = false;
    return s->upload;
}

_Static_assert(EMGPU_D3D12_UPLOAD_LOG >= 1, "EMGPU_D3D12_UPLOAD_LOG: at least 1");

static void record_upload_op(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const eg_d3d_upload_op_t *op)
{
    switch (op->kind) {
    case EG_D3D_UP_BUFFER_ZERO: eg_d3d_buffer_zero_record(dev, cl, op->obj); break;
    case EG_D3D_UP_TEXTURE_INIT: eg_d3d_texture_init_record(dev, cl, op->obj, (D3D12_RESOURCE_STATES)op->state); break;
    case EG_D3D_UP_BUFFER_COPY:
        eg_d3d_buffer_use(dev, cl, op->obj, D3D12_RESOURCE_STATE_COPY_DEST);
        ID3D12GraphicsCommandList_CopyBufferRegion(cl, EG_D3D_PRIV(eg_d3d_buffer_t, (eg_buffer_t *)op->obj)->res,
                                                   op->dst_offset_B, op->src, op->src_offset_B, op->size_B);
        break;
    case EG_D3D_UP_TEXTURE_COPY: {
        eg_texture_t *tex = op->obj;
        uint32_t mip = op->region.mip_level, layer = tex->dimension == WGPUTextureDimension_3D ? 0 : op->region.origin_z;
        D3D12_RESOURCE_STATES state = (D3D12_RESOURCE_STATES)op->state;
        eg_d3d_texture_barrier(cl, tex, state, D3D12_RESOURCE_STATE_COPY_DEST, mip, 1, layer, 1);
        eg_d3d_copy_buffer_texture(cl, op->src, tex, &op->layout, &op->region, true);
        eg_d3d_texture_barrier(cl, tex, D3D12_RESOURCE_STATE_COPY_DEST, state, mip, 1, layer, 1);
        break;
    }
    }
}

void eg_d3d_upload_record(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const eg_d3d_upload_op_t *op)
{
    if (dev->upload_log_count < EMGPU_D3D12_UPLOAD_LOG) dev->upload_log[dev->upload_log_count++] = *op;
    else dev->upload_log_full = true;
    record_upload_op(dev, cl, op);
}

/* A failed Close leaves the upload list closed and in error: its operations never run, though
 * the API calls behind them (queue writes, creations that promise zeros) have returned. Every
 * operand is still there (eg_d3d_upload_op_t), so the list is reset and recorded again from the
 * log; the buffer records it moved name states of a list that will never run, so the epoch moves
 * on (each buffer is in COMMON: placed so, or decayed since the last execute). Only a log that
 * overflowed (EMGPU_D3D12_UPLOAD_LOG) or a second failure loses the device. */
static bool replay_uploads(eg_hal_device_t *dev, eg_d3d_slot_t *s)
{
    if (dev->upload_log_full) {
        eg_d3d_knob_exhausted("upload log (a failed upload list cannot be recorded again)", "EMGPU_D3D12_UPLOAD_LOG",
                              EMGPU_D3D12_UPLOAD_LOG);
        return false;
    }
    HRESULT hr = EG_D3D_CALL("ID3D12GraphicsCommandList::Reset", ID3D12GraphicsCommandList_Reset(s->upload, s->alloc, NULL));
    if (FAILED(hr)) return false;
    dev->exec_epoch++;
    for (uint32_t i = 0; i < dev->upload_log_count; i++) record_upload_op(dev, s->upload, &dev->upload_log[i]);
    hr = EG_D3D_CALL_AFTER("ID3D12GraphicsCommandList::Close (upload)", ID3D12GraphicsCommandList_Close(s->upload));
    if (SUCCEEDED(hr)) eg_log(EG_LOG_WARN, "d3d12: the upload list failed to close; its %u operations were recorded again",
                              (unsigned)dev->upload_log_count);
    return SUCCEEDED(hr);
}

/* Closes the current slot's upload list (one allocator records one list at a time, so it is
 * closed before the main list is reset). A failed Close is recorded again (replay_uploads); if
 * that cannot be, the zeros and bytes promised are gone and the device is lost rather than
 * continue on wrong contents and states. */
static eg_status_t close_upload(eg_hal_device_t *dev)
{
    eg_d3d_slot_t *s = &dev->slots[dev->cur_slot];
    if (!s->upload_open) return EG_STATUS_OK;
    s->upload_open = false;
    HRESULT hr = EG_D3D_CALL_AFTER("ID3D12GraphicsCommandList::Close (upload)", ID3D12GraphicsCommandList_Close(s->upload));
    if (FAILED(hr) && eg_d3d_check(dev, hr, "closing the upload list") == EG_STATUS_DEVICE_LOST) return EG_STATUS_DEVICE_LOST;
    if (FAILED(hr) && !replay_uploads(dev, s)) return eg_d3d_check(dev, DXGI_ERROR_DEVICE_REMOVED, "closing the upload list");
    s->upload_closed = true;
    return EG_STATUS_OK;
}

/* Executes the current slot's upload list (if open) and main list (if main_used), signals the
 * fence and moves to the next slot. */
static eg_status_t execute_slot(eg_hal_device_t *dev, bool main_used, uint64_t kernel_index)
{
    eg_d3d_slot_t *s = &dev->slots[dev->cur_slot];
    ID3D12CommandList *lists[2];
    UINT n = 0;
    eg_status_t st = close_upload(dev);
    if (st != EG_STATUS_OK) return st;
    if (s->upload_closed) lists[n++] = (ID3D12CommandList *)s->upload;
    s->upload_closed = false;
    if (main_used) lists[n++] = (ID3D12CommandList *)s->main;
    if (n == 0) return EG_STATUS_OK;
    ID3D12CommandQueue_ExecuteCommandLists(dev->queue, n, lists);
    dev->exec_epoch++;
    uint64_t value = ++dev->next_fence;
    HRESULT hr = EG_D3D_CALL("ID3D12CommandQueue::Signal", ID3D12CommandQueue_Signal(dev->queue, dev->fence, value));
    /* The lists are queued whatever Signal answers; a second Signal of the same value, queued
     * after them, completes exactly when they do (E_OUTOFMEMORY may pass; removal will not). */
    if (FAILED(hr) && eg_d3d_check(dev, hr, "ID3D12CommandQueue::Signal") != EG_STATUS_DEVICE_LOST)
        hr = EG_D3D_CALL("ID3D12CommandQueue::Signal", ID3D12CommandQueue_Signal(dev->queue, dev->fence, value));
    s->fence_value = value;
    s->kernel_index = kernel_index;
    s->in_flight = true;
    if (kernel_index > dev->submitted_index) dev->submitted_index = kernel_index;
    dev->cur_slot = (dev->cur_slot + 1) % EMGPU_D3D12_COMMAND_RING;
    if (dev->validation) eg_d3d_drain_messages(dev);
    /* Failed twice: the fence stays short of value for good, nothing can be waited for. */
    return FAILED(hr) ? eg_d3d_check(dev, DXGI_ERROR_DEVICE_REMOVED, "ID3D12CommandQueue::Signal") : EG_STATUS_OK;
}

eg_status_t eg_d3d_flush_and_wait(eg_hal_device_t *dev)
{
    if (dev->lost) return EG_STATUS_DEVICE_LOST;
    eg_status_t st = execute_slot(dev, false, 0);
    if (st != EG_STATUS_OK) return st;
    return wait_fence(dev, dev->next_fence, INFINITE) ? EG_STATUS_OK : EG_STATUS_DEVICE_LOST;
}

/* Counters of failed submits' replacements (test hook, d3d_fault.h). */
static eg_d3d_replacement_stats_t repl_stats;
void eg_d3d_replacement_stats(eg_d3d_replacement_stats_t *out) { *out = repl_stats; }

/* A failed submit's replacement: the texture transitions of its barrier records, nothing else.
 * Buffers are left out on purpose: they decay to COMMON at the end of every ExecuteCommandLists,
 * so no buffer state outlives the replacement whatever it does, and the buffer records
 * (eg_d3d_buffer_t.state) still hold the states the failed recording reached, a list that never
 * ran: transitioning from them would name a "before" state the buffer is not in. */
static void record_texture_barriers(eg_hal_device_t *dev, ID3D12GraphicsCommandList *cl, const struct eg_cmd_stream *str)
{
    struct WGPUInstanceImpl *inst = dev->kdev->instance;
    for (const eg_cmd_header_t *h = eg_cmd_first(str); h; h = eg_cmd_next(str, h)) {
        if (h->op != EG_CMD_BARRIER) continue;
        const eg_cmd_barrier_t *rec = (const eg_cmd_barrier_t *)(const void *)h;
        const eg_track_transition_t *t = eg_cmd_barrier_items(rec);
        for (uint32_t i = 0; i < rec->count; i++) {
            if (t[i].kind == EG_TRACK_KIND_BUFFER) { repl_stats.buffer_items_skipped++; continue; }
            eg_texture_t *tex = eg_pool_at(&inst->pools[EG_KIND_TEXTURE], t[i].index);
            eg_d3d_texture_barrier(cl, tex, eg_d3d_texture_state(t[i].from_use, tex),
                                   eg_d3d_texture_state(t[i].to_use, tex), t[i].range.base_mip, t[i].range.mip_count,
                                   t[i].range.base_layer, t[i].range.layer_count);
            repl_stats.texture_items++;
        }
    }
}

/* Records the streams (or, for a failed submit's replacement, their texture barriers) into the
 * main list. */
static eg_status_t record_main(eg_hal_device_t *dev, const eg_hal_submit_t *sub, bool barriers_only)
{
    eg_d3d_slot_t *s = &dev->slots[dev->cur_slot];
    HRESULT hr = EG_D3D_CALL("ID3D12GraphicsCommandList::Reset", ID3D12GraphicsCommandList_Reset(s->main, s->alloc, NULL));
    if (FAILED(hr)) return eg_d3d_check(dev, hr, "ID3D12GraphicsCommandList::Reset");
    eg_status_t st = EG_STATUS_OK;
    eg_d3d_indirect_begin(dev);   /* the slot was waited for: its indirect scratch is free */
    for (uint32_t i = 0; i < sub->stream_count && st == EG_STATUS_OK; i++) {
        if (barriers_only) record_texture_barriers(dev, s->main, sub->streams[i]);
        else st = eg_d3d_record_stream(dev, s->main, sub->streams[i], false);
    }
    hr = EG_D3D_CALL_AFTER("ID3D12GraphicsCommandList::Close", ID3D12GraphicsCommandList_Close(s->main));
    if (st == EG_STATUS_OK && FAILED(hr)) st = eg_d3d_check(dev, hr, "ID3D12GraphicsCommandList::Close");
    return st;
}

/* The tracker has already moved every texture to the states this submit leaves it in. When the
 * submit cannot run, a replacement holding only its texture barriers keeps the textures where
 * the tracker believes them (render passes keep states), so later submits stay valid; the work
 * is lost, which the caller reports as OutOfMemory. If even that fails, states are unknown: the
 * device is lost. Buffer records touched by the failed recording claim states of the current
 * execute epoch that no list reached; the epoch is advanced so they read COMMON again, which is
 * where every buffer is (the uploads recorded before it ran nothing yet and end decayed, like any
 * execute; record_texture_barriers records no buffer transition). */
static void submit_barriers_only(eg_hal_device_t *dev, const eg_hal_submit_t *sub)
{
    if (dev->lost) return;
    dev->exec_epoch++;
    repl_stats.replacements++;
    eg_status_t st = record_main(dev, sub, true);
    if (st == EG_STATUS_OK) st = execute_slot(dev, true, 0);
    else execute_slot(dev, false, 0);   /* the uploads still run */
    /* Waited for: the kernel does not count the failed submit, so its objects may go at once. */
    if (st == EG_STATUS_OK && !wait_fence(dev, dev->next_fence, INFINITE)) st = EG_STATUS_DEVICE_LOST;
    if (st != EG_STATUS_OK && !dev->lost) {
        eg_log(EG_LOG_ERROR, "d3d12: a failed submit could not be replaced by its barriers: resource states unknown");
        eg_d3d_check(dev, DXGI_ERROR_DEVICE_REMOVED, "the barrier-only replacement submit");
    }
}

static eg_status_t d3d_queue_submit(eg_hal_device_t *dev, const eg_hal_submit_t *sub)
{
    eg_status_t st = slot_ready(dev);
    if (st == EG_STATUS_OK) st = close_upload(dev);
    if (st == EG_STATUS_OK) st = record_main(dev, sub, false);
    if (st == EG_STATUS_OK) return execute_slot(dev, true, sub->index);
    submit_barriers_only(dev, sub);
    return st;
}

static uint64_t d3d_completed_index(eg_hal_device_t *dev)
{
    eg_d3d_poll(dev);
    return dev->completed_index;
}

static uint64_t d3d_wait_index(eg_hal_device_t *dev, uint64_t index, uint64_t timeout_ns)
{
    eg_d3d_poll(dev);
    for (uint32_t i = 0; i < EMGPU_D3D12_COMMAND_RING && dev->completed_index < index; i++) {
        eg_d3d_slot_t *s = &dev->slots[i];
        if (!s->in_flight || s->kernel_index < index) continue;
        uint64_t ms = timeout_ns / 1000000u;
        wait_fence(dev, s->fence_value, timeout_ns == UINT64_MAX || ms >= INFINITE ? INFINITE : (DWORD)ms);
    }
    eg_d3d_poll(dev);
    return dev->completed_index;
}

/* ---- staging belt ---- */

eg_status_t eg_d3d_staging_init(eg_hal_device_t *dev)
{
    D3D12_RESOURCE_DESC rd = { D3D12_RESOURCE_DIMENSION_BUFFER, 0, EMGPU_D3D12_STAGING_CHUNK_BYTES, 1, 1, 1,
                               DXGI_FORMAT_UNKNOWN, { 1, 0 }, D3D12_TEXTURE_LAYOUT_ROW_MAJOR, D3D12_RESOURCE_FLAG_NONE };
    D3D12_RANGE none = { 0, 0 };   /* the CPU reads nothing back from upload memory */
    for (uint32_t i = 0; i < EMGPU_D3D12_STAGING_CHUNKS; i++) {
        eg_d3d_chunk_t *c = &dev->chunks[i];
        void *p = NULL;
        eg_status_t st = eg_d3d_place(dev, EG_D3D_MEM_UPLOAD, &rd, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
                                      &c->buffer, &c->alloc);
        if (st != EG_STATUS_OK) return st;
        HRESULT hr = EG_D3D_CALL("ID3D12Resource::Map", ID3D12Resource_Map(c->buffer, 0, &none, &p));
        if (FAILED(hr)) return eg_d3d_check(dev, hr, "ID3D12Resource::Map");
        c->host = p;
    }
    rd.Width = EG_D3D_ZERO_BYTES;
    void *z = NULL;
    eg_status_t st = eg_d3d_place(dev, EG_D3D_MEM_UPLOAD, &rd, D3D12_RESOURCE_STATE_GENERIC_READ, NULL, &dev->zero,
                                  &dev->zero_alloc);
    if (st != EG_STATUS_OK) return st;
    HRESULT hr = EG_D3D_CALL("ID3D12Resource::Map", ID3D12Resource_Map(dev->zero, 0, &none, &z));
    if (FAILED(hr)) return eg_d3d_check(dev, hr, "ID3D12Resource::Map");
    eg_memset(z, 0, EG_D3D_ZERO_BYTES);
    ID3D12Resource_Unmap(dev->zero, 0, NULL);
    dev->cur_chunk = 0;
    dev->chunk_used_B = 0;
    return EG_STATUS_OK;
}

void eg_d3d_staging_fini(eg_hal_device_t *dev)
{
    for (uint32_t i = 0; i < EMGPU_D3D12_STAGING_CHUNKS; i++) {
        eg_d3d_chunk_t *c = &dev->chunks[i];
        if (c->buffer) ID3D12Resource_Release(c->buffer);
        c->buffer = NULL;
        c->host = NULL;
        eg_d3d_memory_free(dev, &c->alloc);
    }
    if (dev->zero) ID3D12Resource_Release(dev->zero);
    dev->zero = NULL;
    eg_d3d_memory_free(dev, &dev->zero_alloc);
}

static bool next_chunk(eg_hal_device_t *dev)
{
    eg_d3d_poll(dev);
    for (uint32_t k = 1; k <= EMGPU_D3D12_STAGING_CHUNKS; k++) {
        uint32_t i = (dev->cur_chunk + k) % EMGPU_D3D12_STAGING_CHUNKS;
        eg_d3d_chunk_t *c = &dev->chunks[i];
        if (c->pins == 0 && (dev->lost || c->retire_value <= dev->completed_fence)) {
            dev->cur_chunk = i;
            dev->chunk_used_B = 0;
            return true;
        }
    }
    return false;
}

eg_status_t eg_d3d_staging_alloc(eg_hal_device_t *dev, uint32_t size_B, uint32_t align, uint32_t *chunk,
                                 uint32_t *offset_B, uint8_t **host)
{
    if (size_B > EMGPU_D3D12_STAGING_CHUNK_BYTES) {
        eg_d3d_knob_exhausted("staging chunk (one piece larger than a chunk)", "EMGPU_D3D12_STAGING_CHUNK_BYTES",
                              EMGPU_D3D12_STAGING_CHUNK_BYTES);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    uint32_t off = EG_ALIGN_UP(dev->chunk_used_B, align);
    if (off + size_B > EMGPU_D3D12_STAGING_CHUNK_BYTES || dev->chunks[dev->cur_chunk].pins) {
        if (!next_chunk(dev)) {
            eg_status_t st = eg_d3d_flush_and_wait(dev);
            if (st != EG_STATUS_OK) return st;
            if (!next_chunk(dev)) {
                eg_d3d_knob_exhausted("staging belt (every chunk holds an open map)", "EMGPU_D3D12_STAGING_CHUNKS",
                                      EMGPU_D3D12_STAGING_CHUNKS);
                return EG_STATUS_OUT_OF_MEMORY;
            }
        }
        off = 0;
    }
    eg_d3d_chunk_t *c = &dev->chunks[dev->cur_chunk];
    dev->chunk_used_B = off + size_B;
    c->retire_value = eg_d3d_current_fence(dev);
    *chunk = dev->cur_chunk;
    *offset_B = off;
    *host = c->host + off;
    return EG_STATUS_OK;
}

/* ---- queue writes ---- */

eg_status_t eg_d3d_queue_write_buffer(eg_hal_device_t *dev, eg_buffer_t *buf, uint64_t offset_B,
                                      const void *data, size_t size_B)
{
    const uint8_t *src = data;
    while (size_B > 0) {
        uint32_t piece = (uint32_t)eg_min_u64(size_B, EMGPU_D3D12_STAGING_CHUNK_BYTES);
        uint32_t chunk, off;
        uint8_t *host;
        eg_status_t st = eg_d3d_staging_alloc(dev, piece, 16, &chunk, &off, &host);
        if (st != EG_STATUS_OK) return st;
        eg_memcpy(host, src, piece);
        ID3D12GraphicsCommandList *cl = eg_d3d_upload_list(dev);
        if (!cl) return dev->lost ? EG_STATUS_DEVICE_LOST : EG_STATUS_OUT_OF_MEMORY;
        eg_d3d_upload_op_t op = { .kind = EG_D3D_UP_BUFFER_COPY, .obj = buf, .src = dev->chunks[chunk].buffer,
                                  .dst_offset_B = offset_B, .src_offset_B = off, .size_B = piece };
        eg_d3d_upload_record(dev, cl, &op);
        src += piece;
        offset_B += piece;
        size_B -= piece;
    }
    return EG_STATUS_OK;
}

/* The tracker's state of a subresource after the submits so far: a queue write goes to
 * COPY_DEST and back, so the tracker's view stays true. */
static uint16_t device_state(eg_texture_t *tex, uint32_t mip, uint32_t layer)
{
    struct WGPUDeviceImpl *d = tex->obj.device;
    uint32_t idx = eg_pool_index(eg_pool_of(tex, EG_KIND_TEXTURE), tex);
    uint16_t s = d->track ? eg_track_device_texture_state(d->track, idx, mip, layer) : EG_TRACK_TEX_NONE;
    return s == EG_TRACK_TEX_NONE ? EG_TRACK_TEX_UNINITIALIZED : s;
}

/* rows (block rows) of one layer or slice, starting at block row y_el, through one staging piece
 * laid out with a 256-byte row pitch (D3D12's placed-footprint rule). */
static eg_status_t write_rows(eg_hal_device_t *dev, eg_texture_t *tex, const eg_texel_region_t *dst,
                              uint32_t layer_or_z, uint32_t y_el, uint32_t rows, const uint8_t *src,
                              uint32_t src_pitch_B, uint32_t row_B)
{
    const eg_format_info_t *fi = tex->fi;
    uint32_t pitch = EG_ALIGN_UP(row_B, (uint32_t)D3D12_TEXTURE_DATA_PITCH_ALIGNMENT);
    uint32_t chunk, off;
    uint8_t *host;
    eg_status_t st = eg_d3d_staging_alloc(dev, pitch * rows, D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT, &chunk, &off, &host);
    if (st != EG_STATUS_OK) return st;
    for (uint32_t r = 0; r < rows; r++) eg_memcpy(host + (size_t)r * pitch, src + (size_t)r * src_pitch_B, row_B);
    ID3D12GraphicsCommandList *cl = eg_d3d_upload_list(dev);
    if (!cl) return dev->lost ? EG_STATUS_DEVICE_LOST : EG_STATUS_OUT_OF_MEMORY;
    uint32_t layer = tex->dimension == WGPUTextureDimension_3D ? 0 : layer_or_z;
    eg_d3d_upload_op_t op = { .kind = EG_D3D_UP_TEXTURE_COPY, .obj = tex, .src = dev->chunks[chunk].buffer,
                              .region = *dst, .layout = { off, pitch, rows } };
    /* The state now, not at a replay: by then the kernel may have moved the tracker past this
     * submit's transitions, while the upload list still runs before them. */
    op.state = (uint32_t)eg_d3d_texture_state(device_state(tex, dst->mip_level, layer), tex);
    op.region.origin_y = y_el * fi->block_h_px;
    op.region.height_px = eg_min_u32(rows * fi->block_h_px, dst->origin_y + dst->height_px - op.region.origin_y);
    op.region.origin_z = layer_or_z;
    op.region.depth_or_layers = 1;
    eg_d3d_upload_record(dev, cl, &op);
    return EG_STATUS_OK;
}

eg_status_t eg_d3d_queue_write_texture(eg_hal_device_t *dev, eg_texture_t *tex, const eg_texel_region_t *dst,
                                       const void *data, const eg_buffer_layout_t *layout)
{
    const eg_format_info_t *fi = tex->fi;
    uint32_t block_B = eg_format_copy_block_B(fi, dst->aspect);
    uint32_t w_el = eg_format_width_el(fi, dst->width_px), h_el = eg_format_height_el(fi, dst->height_px);
    uint32_t row_B = w_el * block_B;
    if (row_B == 0) return EG_STATUS_INTERNAL;
    uint32_t pitch = EG_ALIGN_UP(row_B, (uint32_t)D3D12_TEXTURE_DATA_PITCH_ALIGNMENT);
    uint32_t rows_per_piece = EMGPU_D3D12_STAGING_CHUNK_BYTES / pitch;
    if (rows_per_piece == 0) {
        eg_d3d_knob_exhausted("staging chunk (one texel row larger than a chunk)", "EMGPU_D3D12_STAGING_CHUNK_BYTES",
                              EMGPU_D3D12_STAGING_CHUNK_BYTES);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    const uint8_t *base = (const uint8_t *)data + (size_t)layout->offset_B;
    uint32_t y0_el = dst->origin_y / fi->block_h_px;
    for (uint32_t z = 0; z < dst->depth_or_layers; z++) {
        const uint8_t *img = base + (size_t)z * layout->bytes_per_row_B * layout->rows_per_image;
        for (uint32_t r = 0; r < h_el; r += rows_per_piece) {
            uint32_t rows = eg_min_u32(rows_per_piece, h_el - r);
            eg_status_t st = write_rows(dev, tex, dst, dst->origin_z + z, y0_el + r, rows,
                                        img + (size_t)r * layout->bytes_per_row_B, layout->bytes_per_row_B, row_B);
            if (st != EG_STATUS_OK) return st;
        }
    }
    return EG_STATUS_OK;
}

const eg_hal_ops_t eg_d3d12_ops = {
    .name = "d3d12",
    .backend = WGPUBackendType_D3D12,
    .memory_knob = "EMGPU_D3D12_HEAP_BLOCKS x EMGPU_D3D12_HEAP_BLOCK_BYTES",
    .memory_knob_value = (uint64_t)EMGPU_D3D12_HEAP_BLOCKS * EMGPU_D3D12_HEAP_BLOCK_BYTES,
    .probe = eg_d3d_probe,
    .device_open = eg_d3d_device_open,
    .device_close = eg_d3d_device_close,
    .buffer_create = eg_d3d_buffer_create,
    .buffer_destroy = eg_d3d_buffer_destroy,
    .buffer_map = eg_d3d_buffer_map,
    .buffer_unmap = eg_d3d_buffer_unmap,
    .texture_create = eg_d3d_texture_create,
    .texture_destroy = eg_d3d_texture_destroy,
    .texture_view_create = eg_d3d_texture_view_create,
    .texture_view_destroy = eg_d3d_texture_view_destroy,
    .sampler_create = eg_d3d_sampler_create,
    .sampler_destroy = eg_d3d_sampler_destroy,
    .bind_group_layout_create = eg_d3d_bind_group_layout_create,
    .bind_group_layout_destroy = eg_d3d_bind_group_layout_destroy,
    .bind_group_create = eg_d3d_bind_group_create,
    .bind_group_destroy = eg_d3d_bind_group_destroy,
    .pipeline_layout_create = eg_d3d_pipeline_layout_create,
    .pipeline_layout_destroy = eg_d3d_pipeline_layout_destroy,
    .shader_module_create = eg_d3d_shader_module_create,
    .shader_module_destroy = eg_d3d_shader_module_destroy,
    .render_pipeline_create = eg_d3d_render_pipeline_create,
    .render_pipeline_destroy = eg_d3d_render_pipeline_destroy,
    .compute_pipeline_create = eg_d3d_compute_pipeline_create,
    .compute_pipeline_destroy = eg_d3d_compute_pipeline_destroy,
    .queue_write_buffer = eg_d3d_queue_write_buffer,
    .queue_write_texture = eg_d3d_queue_write_texture,
    .queue_submit = d3d_queue_submit,
    .completed_index = d3d_completed_index,
    .wait_index = d3d_wait_index,
};

#endif /* EMGPU_HAL_D3D12 */
