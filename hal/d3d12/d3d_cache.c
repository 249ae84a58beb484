/* hal/d3d12 shader cache: the DXBC of lowered stages, bounded and static, so identical stages are lowered once.
 *
 * WHY. Lowering a stage (eg_ir_build, then eg_d3d_tpf_emit) is the CPU cost of a pipeline
 * creation; applications create the same stage again (per device, per target format, per
 * blend state), and the test suite does so constantly. DXBC is bytes independent of any
 * ID3D12Device, so the cache is per process and lives across WebGPU devices and adapters.
 *
 * KEY. Everything the emitter's output depends on (d3d_tpf.h: eg_d3d_tpf_in_t = the IR of one
 * entry point + the overridable constants; eg_ir_build reads only the module and the entry):
 * the SPIR-V words, the stage, the entry point's name and the constants as given (SpecId, bits).
 * Vertex layouts and bind group layouts do not reach the emitter (registers are fixed by the
 * contract: location L = TEXCOORD L, group g / binding b = space g / register b), so pipelines
 * that differ only there share their DXBC. A new input of eg_d3d_tpf_in_t must join the key.
 * A 32-bit FNV-1a of the key selects candidates; a hit is confirmed by comparing the whole key,
 * kept in the entry next to its DXBC, so a hash collision can never return the wrong shader.
 *
 * STORAGE. EMGPU_D3D12_SHADER_CACHE_ENTRIES records and EMGPU_D3D12_SHADER_CACHE_BYTES of blob
 * space (key + DXBC per entry, packed from the start). An insertion evicts least recently used
 * entries until both fit, then compacts the survivors to the front (a miss already paid for a
 * lowering; the copy is cheaper). An entry larger than the whole space is not cached (debug
 * log). The caller copies a hit out (eg_d3d_cache_find), so an insertion for a later stage of the
 * same pipeline can never move bytes a PSO description still points at.
 *
 * THREADS. The kernel takes no lock and its API is called from one thread at a time, like the
 * backend's static shader scratch arena (d3d_pipeline.c); the cache follows the same rule.
 */
#include "config/emgpu_config.h"

#if EMGPU_HAL_D3D12

#include "hal/d3d12/d3d_internal.h"

#define KEY_HEAD_WORDS 4u   /* stage, word count, name bytes (padded), constant count */

typedef struct cache_entry {
    uint32_t hash;
    uint32_t offset_B;       /* in blob[] */
    uint32_t key_B;          /* key material at offset_B; the DXBC follows */
    uint32_t dxbc_B;         /* the container's size (its space in blob[] is rounded up to 4) */
    uint32_t last_use;       /* LRU stamp; 0: the record is free */
} cache_entry_t;

static struct {
    cache_entry_t entries[EMGPU_D3D12_SHADER_CACHE_ENTRIES];
    uint32_t blob[EMGPU_D3D12_SHADER_CACHE_BYTES / 4u];
    uint32_t used_B;         /* blob bytes in use, packed from 0 */
    uint32_t clock;
    uint32_t max_entries, max_B;   /* the knobs, or smaller limits set by a test */
    uint32_t hits, misses, evictions, too_large;
} c;

static void limits_default(void)
{
    if (c.max_entries == 0) c.max_entries = EMGPU_D3D12_SHADER_CACHE_ENTRIES;
    if (c.max_B == 0) c.max_B = (uint32_t)sizeof c.blob;
}

static uint32_t fnv(uint32_t h, const void *p, uint32_t n)
{
    const uint8_t *b = p;
    for (uint32_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
    return h;
}

static uint32_t name_bytes(const char *name) { return EG_ALIGN_UP((uint32_t)eg_strlen(name) + 1u, 4u); }

static uint32_t key_bytes(const eg_d3d_cache_key_t *k)
{
    return KEY_HEAD_WORDS * 4u + k->constant_count * (uint32_t)sizeof(eg_d3d_tpf_constant_t) + name_bytes(k->entry) +
           k->word_count * 4u;
}

static void key_head(const eg_d3d_cache_key_t *k, uint32_t head[KEY_HEAD_WORDS])
{
    head[0] = k->stage;
    head[1] = k->word_count;
    head[2] = name_bytes(k->entry);
    head[3] = k->constant_count;
}

static uint32_t key_hash(const eg_d3d_cache_key_t *k)
{
    uint32_t head[KEY_HEAD_WORDS];
    key_head(k, head);
    uint32_t h = fnv(2166136261u, head, sizeof head);
    h = fnv(h, k->constants, k->constant_count * (uint32_t)sizeof(eg_d3d_tpf_constant_t));
    h = fnv(h, k->entry, (uint32_t)eg_strlen(k->entry));
    return fnv(h, k->words, k->word_count * 4u);
}

/* Key material layout: head, constants, name (NUL, zero-padded to 4), words. */
static void key_write(const eg_d3d_cache_key_t *k, uint8_t *dst)
{
    uint32_t head[KEY_HEAD_WORDS];
    key_head(k, head);
    uint32_t cb = k->constant_count * (uint32_t)sizeof(eg_d3d_tpf_constant_t), nb = head[2];
    eg_memcpy(dst, head, sizeof head);
    dst += sizeof head;
    if (cb) eg_memcpy(dst, k->constants, cb);
    dst += cb;
    eg_memset(dst, 0, nb);
    eg_memcpy(dst, k->entry, eg_strlen(k->entry));
    dst += nb;
    eg_memcpy(dst, k->words, k->word_count * 4u);
}

static bool key_equal(const eg_d3d_cache_key_t *k, const uint8_t *src)
{
    uint32_t head[KEY_HEAD_WORDS];
    key_head(k, head);
    uint32_t cb = k->constant_count * (uint32_t)sizeof(eg_d3d_tpf_constant_t), nb = head[2];
    uint32_t len = (uint32_t)eg_strlen(k->entry);
    if (eg_memcmp(src, head, sizeof head) != 0) return false;
    src += sizeof head;
    if (cb && eg_memcmp(src, k->constants, cb) != 0) return false;
    src += cb;
    if (eg_memcmp(src, k->entry, len) != 0 || src[len] != 0) return false;
    src += nb;
    return eg_memcmp(src, k->words, k->word_count * 4u) == 0;
}

static uint8_t *blob_at(uint32_t offset_B) { return (uint8_t *)c.blob + offset_B; }
static uint32_t span_B(const cache_entry_t *e) { return e->key_B + EG_ALIGN_UP(e->dxbc_B, 4u); }

const void *eg_d3d_cache_find(const eg_d3d_cache_key_t *k, uint32_t *size_B)
{
    limits_default();
    uint32_t h = key_hash(k), kb = key_bytes(k);
    for (uint32_t i = 0; i < c.max_entries; i++) {
        cache_entry_t *e = &c.entries[i];
        if (!e->last_use || e->hash != h || e->key_B != kb || !key_equal(k, blob_at(e->offset_B))) continue;
        e->last_use = ++c.clock;
        c.hits++;
        *size_B = e->dxbc_B;
        return blob_at(e->offset_B + e->key_B);
    }
    c.misses++;
    return NULL;
}

static uint32_t live_entries(void)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c.max_entries; i++) n += c.entries[i].last_use != 0;
    return n;
}

static void evict_lru(void)
{
    cache_entry_t *lru = NULL;
    for (uint32_t i = 0; i < c.max_entries; i++)
        if (c.entries[i].last_use && (!lru || c.entries[i].last_use < lru->last_use)) lru = &c.entries[i];
    if (!lru) return;
    c.used_B -= span_B(lru);
    lru->last_use = 0;
    c.evictions++;
}

/* Overlapping copy towards lower addresses (no memmove in kernel/base/util.h): forward is safe. */
static void move_down(uint8_t *dst, const uint8_t *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) dst[i] = src[i];
}

/* Moves the live entries to the front of the blob, in offset order (each moves down or stays). */
static void compact(void)
{
    uint32_t at = 0;
    for (;;) {
        cache_entry_t *next = NULL;
        for (uint32_t i = 0; i < c.max_entries; i++) {
            cache_entry_t *e = &c.entries[i];
            if (e->last_use && e->offset_B >= at && (!next || e->offset_B < next->offset_B)) next = e;
        }
        if (!next) break;
        uint32_t n = span_B(next);
        if (next->offset_B != at) move_down(blob_at(at), blob_at(next->offset_B), n);
        next->offset_B = at;
        at += n;
    }
    c.used_B = at;
}

void eg_d3d_cache_put(const eg_d3d_cache_key_t *k, const void *dxbc, uint32_t dxbc_B)
{
    limits_default();
    uint32_t kb = key_bytes(k), need = kb + EG_ALIGN_UP(dxbc_B, 4u);
    if (need > c.max_B || c.max_entries == 0) {
        c.too_large++;
        eg_log(EG_LOG_DEBUG, "d3d12: shader cache: %s stage \"%s\" needs %u bytes (key %u + DXBC %u), more than "
               "EMGPU_D3D12_SHADER_CACHE_BYTES = %u: not cached", k->stage == EG_SHADER_STAGE_COMPUTE ? "compute"
               : k->stage == EG_SHADER_STAGE_FRAGMENT ? "fragment" : "vertex", k->entry, (unsigned)need,
               (unsigned)kb, (unsigned)dxbc_B, (unsigned)c.max_B);
        return;
    }
    while (live_entries() >= c.max_entries || c.used_B + need > c.max_B) evict_lru();
    compact();
    cache_entry_t *e = NULL;
    for (uint32_t i = 0; i < c.max_entries && !e; i++)
        if (!c.entries[i].last_use) e = &c.entries[i];
    e->hash = key_hash(k);
    e->offset_B = c.used_B;
    e->key_B = kb;
    e->dxbc_B = dxbc_B;
    e->last_use = ++c.clock;
    key_write(k, blob_at(e->offset_B));
    eg_memcpy(blob_at(e->offset_B + kb), dxbc, dxbc_B);
    c.used_B += need;
}

/* ---- test hooks (d3d_cache.h) ---- */

void eg_d3d_shader_cache_limit(uint32_t entries, uint32_t bytes)
{
    eg_memset(c.entries, 0, sizeof c.entries);
    c.used_B = 0;
    c.max_entries = entries && entries < EMGPU_D3D12_SHADER_CACHE_ENTRIES ? entries : EMGPU_D3D12_SHADER_CACHE_ENTRIES;
    c.max_B = bytes && bytes < sizeof c.blob ? bytes : (uint32_t)sizeof c.blob;
}

void eg_d3d_shader_cache_stats(eg_d3d_cache_stats_t *s)
{
    limits_default();
    s->hits = c.hits;
    s->misses = c.misses;
    s->evictions = c.evictions;
    s->too_large = c.too_large;
    s->entries = live_entries();
    s->used_B = c.used_B;
}

#endif /* EMGPU_HAL_D3D12 */
