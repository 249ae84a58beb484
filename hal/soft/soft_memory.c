/* The soft heap: one static block of EMGPU_SOFT_HEAP_BYTES for buffer and texture contents. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_internal.h"
#include "kernel/base/log.h"

_Static_assert(EMGPU_SOFT_HEAP_BYTES >= 1024, "EMGPU_SOFT_HEAP_BYTES: at least 1024");
_Static_assert(EMGPU_SOFT_HEAP_BLOCKS >= 3, "EMGPU_SOFT_HEAP_BLOCKS: at least 3");

/* 16-byte alignment: SIMD loads of texel blocks, and any float/uint64 a shader reads. */
#define SOFT_HEAP_ALIGN_B 16u

static _Alignas(16) uint8_t heap_mem[EMGPU_SOFT_HEAP_BYTES];
static eg_range_block_t heap_blocks[EMGPU_SOFT_HEAP_BLOCKS];
static eg_range_alloc_t heap;
static bool heap_ready;

static void heap_init(void)
{
    if (heap_ready) return;
    eg_range_alloc_init(&heap, EMGPU_SOFT_HEAP_BYTES, heap_blocks, EMGPU_SOFT_HEAP_BLOCKS);
    heap_ready = true;
}

void *eg_soft_heap_alloc(size_t size_B)
{
    heap_init();
    uint64_t off = 0;
    eg_range_status_t st = eg_range_alloc_alloc(&heap, size_B, SOFT_HEAP_ALIGN_B, &off);
    if (st == EG_RANGE_NO_RECORDS) {
        eg_log(EG_LOG_WARN, "emgpu soft: heap records full (EMGPU_SOFT_HEAP_BLOCKS = %u)",
               (unsigned)EMGPU_SOFT_HEAP_BLOCKS);
        return NULL;
    }
    if (st != EG_RANGE_OK) return NULL;
    uint8_t *p = heap_mem + (size_t)off;
    eg_memset(p, 0, size_B);   /* WebGPU: resources start zero-initialised */
    return p;
}

void eg_soft_heap_free(void *p)
{
    if (!p) return;
    heap_init();
    eg_range_alloc_free(&heap, (uint64_t)((uint8_t *)p - heap_mem));
}

void eg_soft_heap_stats(eg_range_stats_t *out)
{
    heap_init();
    eg_range_alloc_stats(&heap, out);
}

#endif /* EMGPU_HAL_SOFT */
