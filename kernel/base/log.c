/* Formatted logging: one bounded line per call, handed to the port. */
#include "kernel/base/log.h"
#include "config/emgpu_config.h"
#include "kernel/base/fmt.h"

void eg_log(eg_log_level_t level, const char *fmt, ...)
{
    char line[EMGPU_LOG_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    size_t n = eg_vfmt(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    line[n++] = '\n';
    eg_port_log_write(level, line, n);
}
