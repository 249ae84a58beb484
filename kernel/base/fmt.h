/* A bounded printf subset for messages and logs: the runtime has no stdio.
 *
 * Supported: %s %c %d %i %u %x %X %p %%, with length modifiers l, ll, z, and an optional
 * field width / zero pad / precision for %s (".*" too). Floats print with %f as fixed
 * point with 3 decimals (enough for limits and clear values in messages; no libm needed).
 * Output is always NUL-terminated and truncated to the buffer; the return value is the
 * number of characters written (not counting the NUL).
 */
#ifndef EG_FMT_H
#define EG_FMT_H

#include <stdarg.h>
#include <stddef.h>

#include "kernel/base/util.h"

size_t eg_vfmt(char *buf, size_t cap, const char *fmt, va_list ap);
size_t eg_fmt(char *buf, size_t cap, const char *fmt, ...) EG_PRINTF(3, 4);

#endif /* EG_FMT_H */
