/* Freestanding memory and string routines, and the debug-assert hook. */
#include "kernel/base/util.h"
#include "kernel/base/log.h"
#include "port/port.h"

#include <string.h>

/* string.h's memcpy/memset are freestanding-safe (no heap, no stdio) on every libc we target,
 * and the compiler inlines them; the wrappers keep one place to swap them on odd toolchains. */
void *eg_memcpy(void *dst, const void *src, size_t n) { return n ? memcpy(dst, src, n) : dst; }
void *eg_memset(void *dst, int c, size_t n) { return memset(dst, c, n); }
int eg_memcmp(const void *a, const void *b, size_t n) { return n ? memcmp(a, b, n) : 0; }
size_t eg_strlen(const char *s) { return strlen(s); }
int eg_strcmp(const char *a, const char *b) { return strcmp(a, b); }

#if defined(EMGPU_DEBUG) && EMGPU_DEBUG
void eg_debug_assert_fail(const char *expr, const char *file, int line)
{
    eg_log(EG_LOG_ERROR, "internal assertion failed: %s (%s:%d)", expr, file, line);
    eg_port_panic("internal assertion failed");
}
#endif
