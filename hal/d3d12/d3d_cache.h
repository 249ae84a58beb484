/* hal/d3d12 shader cache interface (d3d_cache.c): lowered stages' DXBC by key; no Windows header, so tests use it too. */
#ifndef EG_D3D_CACHE_H
#define EG_D3D_CACHE_H

#include "hal/d3d12/d3d_tpf.h"

/* What a stage's DXBC depends on (d3d_cache.c says why this is all of it). */
typedef struct eg_d3d_cache_key {
    const uint32_t *words;                   /* the module's SPIR-V */
    uint32_t word_count;
    uint32_t stage;                          /* eg_shader_stage_t */
    const char *entry;                       /* entry point name */
    const eg_d3d_tpf_constant_t *constants;  /* as passed to the emitter */
    uint32_t constant_count;
} eg_d3d_cache_key_t;

/** The cached DXBC of k (valid until the next eg_d3d_cache_put: copy it out) or NULL. */
const void *eg_d3d_cache_find(const eg_d3d_cache_key_t *k, uint32_t *size_B);
/** Stores dxbc for k, evicting least recently used entries; one larger than the cache is skipped. */
void eg_d3d_cache_put(const eg_d3d_cache_key_t *k, const void *dxbc, uint32_t dxbc_B);

/** Counters since load (tests). */
typedef struct eg_d3d_cache_stats {
    uint32_t hits, misses, evictions, too_large;   /* too_large: stages not cached (bigger than it) */
    uint32_t entries, used_B;                      /* now */
} eg_d3d_cache_stats_t;
void eg_d3d_shader_cache_stats(eg_d3d_cache_stats_t *s);
/** Empties the cache and limits it to `entries` records and `bytes` of blob space (0, or more
 *  than the knobs: EMGPU_D3D12_SHADER_CACHE_ENTRIES / _BYTES). Tests: eviction. */
void eg_d3d_shader_cache_limit(uint32_t entries, uint32_t bytes);

#endif /* EG_D3D_CACHE_H */
