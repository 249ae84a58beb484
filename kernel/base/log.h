/* Formatted logging through the port's log sink (the runtime has no stdio). */
#ifndef EG_LOG_H
#define EG_LOG_H

#include "kernel/base/util.h"
#include "port/port.h"

/* Formats into a bounded stack buffer (EMGPU_LOG_LINE_MAX) and writes one line. */
void eg_log(eg_log_level_t level, const char *fmt, ...) EG_PRINTF(2, 3);

#endif /* EG_LOG_H */
