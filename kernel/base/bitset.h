/* Bitsets over 32-bit words (native on Cortex-M and everywhere else).
 *
 * The tracker keeps membership ("this command buffer touches resource i") in bitsets so that a
 * scan skips 32 untouched resources with one compare (wgpu-core's metadata design).
 */
#ifndef EG_BITSET_H
#define EG_BITSET_H

#include "kernel/base/util.h"

#define EG_BITSET_WORDS(nbits) (((nbits) + 31u) / 32u)

static inline void eg_bitset_set(uint32_t *w, uint32_t i) { w[i >> 5] |= 1u << (i & 31); }
static inline void eg_bitset_clear(uint32_t *w, uint32_t i) { w[i >> 5] &= ~(1u << (i & 31)); }
static inline bool eg_bitset_test(const uint32_t *w, uint32_t i) { return (w[i >> 5] >> (i & 31)) & 1u; }
static inline void eg_bitset_zero(uint32_t *w, uint32_t nwords) { eg_memset(w, 0, nwords * 4u); }
static inline uint32_t eg_ctz_u32(uint32_t x) { return (uint32_t)__builtin_ctz(x); }
static inline uint32_t eg_popcount_u32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }

/** Next set bit at or after `from`, or nbits if none. Skips whole zero words. */
static inline uint32_t eg_bitset_next(const uint32_t *w, uint32_t nbits, uint32_t from)
{
    while (from < nbits) {
        uint32_t word = w[from >> 5] >> (from & 31);
        if (word) {
            uint32_t i = from + eg_ctz_u32(word);
            return i < nbits ? i : nbits;
        }
        from = (from | 31u) + 1u;
    }
    return nbits;
}

/* for (i = first set; i < n; i = next set) */
#define EG_BITSET_FOREACH(i, words, nbits) \
    for (uint32_t i = eg_bitset_next((words), (nbits), 0); i < (nbits); i = eg_bitset_next((words), (nbits), i + 1))

#endif /* EG_BITSET_H */
