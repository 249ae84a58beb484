/* Test harness runtime: failure recording, output through the port, the run loop. */
#include "tests/harness/harness.h"

#include "kernel/base/fmt.h"
#include "port/port.h"

#include <stdarg.h>
#include <string.h>

extern const eg_test_entry_t eg_test_list[];
extern const unsigned eg_test_count;

static bool cur_failed, cur_skipped, cur_na;
static const char *cur_group, *cur_name;

void eg_test_printf(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    size_t n = eg_vfmt(buf, sizeof buf, fmt, ap);
    va_end(ap);
    eg_port_log_write(EG_LOG_INFO, buf, n);
}

void eg_test_fail(const char *file, int line, const char *what)
{
    cur_failed = true;
    eg_test_printf("  FAIL %s.%s  %s:%d: %s\n", cur_group, cur_name, file, line, what);
}

void eg_test_not_applicable(const char *why)
{
    cur_na = true;
    eg_test_printf("  N/A  %s.%s: %s\n", cur_group, cur_name, why);
}

void eg_test_skip(const char *why)
{
    cur_skipped = true;
    eg_test_printf("  SKIP %s.%s: %s\n", cur_group, cur_name, why);
}

bool eg_test_failed_now(void) { return cur_failed; }

bool eg_test_str_contains(const char *hay, const char *needle)
{
    return hay && needle && strstr(hay, needle) != NULL;
}

bool eg_test_verbose;
const char *eg_test_exclude;

int eg_test_run_all(const char *filter)
{
    unsigned passed = 0, failed = 0, skipped = 0, na = 0;
    char full[128];
    for (unsigned i = 0; i < eg_test_count; i++) {
        const eg_test_entry_t *t = &eg_test_list[i];
        eg_fmt(full, sizeof full, "%s.%s", t->group, t->name);
        if (filter && !strstr(full, filter)) continue;
        if (eg_test_exclude && *eg_test_exclude && strstr(full, eg_test_exclude)) continue;
        cur_group = t->group;
        cur_name = t->name;
        cur_failed = cur_skipped = cur_na = false;
        if (eg_test_verbose) eg_test_printf("  RUN  %s\n", full);
        t->fn();
        if (cur_failed) failed++;
        else if (cur_na) na++;
        else if (cur_skipped) skipped++;
        else passed++;
    }
    /* Tests of another backend's internals are not applicable in this run, which is not the same
     * as skipped (something that should have run here did not): they get their own line. */
    if (na) eg_test_printf("%u test(s) not applicable to this run (N/A lines above)\n", na);
    eg_test_printf("%u passed, %u failed, %u skipped\n", passed, failed, skipped);
    return (int)failed;
}
