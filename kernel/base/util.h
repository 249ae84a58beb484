/* Small helpers every kernel file uses: sizes, alignment, min/max, attributes behind macros. */
#ifndef EG_UTIL_H
#define EG_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/emgpu_config.h"

#define EG_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define EG_ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))

/* Attributes stay behind macros so a compiler without them still builds the code. */
#if defined(__GNUC__) || defined(__clang__)
#define EG_LIKELY(x)   __builtin_expect(!!(x), 1)
#define EG_UNLIKELY(x) __builtin_expect(!!(x), 0)
#if defined(__MINGW32__)
/* mingw's `printf` archetype is Microsoft's (no %zu, %hhu); eg_fmt implements C99's. */
#define EG_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#else
#define EG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#endif
#define EG_MAYBE_UNUSED __attribute__((unused))
/* For hot loops specialised by constant arguments at each call site (hal/soft). */
#define EG_ALWAYS_INLINE inline __attribute__((always_inline))
/* Keeps a big frame (hal/soft: a register file) off the callers' paths. */
#define EG_NOINLINE __attribute__((noinline))
#else
#define EG_LIKELY(x) (x)
#define EG_UNLIKELY(x) (x)
#define EG_PRINTF(f, a)
#define EG_MAYBE_UNUSED
#define EG_ALWAYS_INLINE inline
#define EG_NOINLINE
#endif

/* Places hot loops in fast RAM on boards that define a section for it (ITCM on Cortex-M7). */
#ifndef EG_HOT
#define EG_HOT
#endif

/* Checks an invariant the kernel itself guarantees; compiled out unless EMGPU_DEBUG. */
#if defined(EMGPU_DEBUG) && EMGPU_DEBUG
void eg_debug_assert_fail(const char *expr, const char *file, int line);
#define EG_DEBUG_ASSERT(c) ((c) ? (void)0 : eg_debug_assert_fail(#c, __FILE__, __LINE__))
#else
#define EG_DEBUG_ASSERT(c) ((void)0)
#endif

static inline uint32_t eg_min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint32_t eg_max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline uint64_t eg_min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static inline uint64_t eg_max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static inline int64_t eg_min_i64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t eg_max_i64(int64_t a, int64_t b) { return a > b ? a : b; }
static inline bool eg_is_pow2_u32(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }
static inline uint32_t eg_log2_floor_u32(uint32_t x)
{
    uint32_t r = 0;
    while (x >>= 1) r++;
    return r;
}

/* Freestanding copies of the few string/memory routines the kernel needs: the compiler turns
 * them into its builtins, and the kernel never depends on a libc beyond what freestanding C
 * guarantees. */
void  *eg_memcpy(void *dst, const void *src, size_t n);
void  *eg_memset(void *dst, int c, size_t n);
int    eg_memcmp(const void *a, const void *b, size_t n);
size_t eg_strlen(const char *s);
int    eg_strcmp(const char *a, const char *b);

#endif /* EG_UTIL_H */
