/* Portable unit-test harness: runs on hosted Linux, under qemu-aarch64 and on Cortex-M via semihosting.
 *
 * A test is a function declared with EG_TEST(group, name). tools/gen_test_list.sh scans the test
 * sources for EG_TEST lines and writes the registry (no constructors, no linker sections), so the
 * same list works on every board. Expectations record a failure and continue; the runner prints
 * one line per failing check and ends with the plain closing line "N passed, N failed, N skipped".
 */
#ifndef EG_HARNESS_H
#define EG_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*eg_test_fn)(void);
typedef struct eg_test_entry {
    const char *group, *name;
    eg_test_fn fn;
} eg_test_entry_t;

#define EG_TEST(group, name) \
    void eg_test_##group##__##name(void); void eg_test_##group##__##name(void)

/* Output goes through the port's log sink, so the harness has no stdio of its own. */
void eg_test_printf(const char *fmt, ...);
void eg_test_fail(const char *file, int line, const char *what);
void eg_test_skip(const char *why);
bool eg_test_failed_now(void);

#define EG_EXPECT(cond) \
    do { if (!(cond)) eg_test_fail(__FILE__, __LINE__, #cond); } while (0)
#define EG_ASSERT(cond) \
    do { if (!(cond)) { eg_test_fail(__FILE__, __LINE__, #cond); return; } } while (0)
#define EG_EXPECT_EQ_U(a, b) \
    do { unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
         if (a_ != b_) { eg_test_printf("    %s = %llu, expected %s = %llu\n", #a, a_, #b, b_); \
                         eg_test_fail(__FILE__, __LINE__, #a " == " #b); } } while (0)
#define EG_EXPECT_EQ_I(a, b) \
    do { long long a_ = (long long)(a), b_ = (long long)(b); \
         if (a_ != b_) { eg_test_printf("    %s = %lld, expected %s = %lld\n", #a, a_, #b, b_); \
                         eg_test_fail(__FILE__, __LINE__, #a " == " #b); } } while (0)
#define EG_EXPECT_STR_CONTAINS(hay, needle) \
    do { const char *h_ = (hay); if (!eg_test_str_contains(h_, (needle))) { \
         eg_test_printf("    \"%s\" does not contain \"%s\"\n", h_ ? h_ : "(null)", (needle)); \
         eg_test_fail(__FILE__, __LINE__, #hay " contains " #needle); } } while (0)
/* Marks the test not applicable to this run and returns: a test of one backend's internals in
 * a run on another backend (EMGPU_TEST_BACKEND), never a missing driver or feature. */
void eg_test_not_applicable(const char *why);
#define EG_NOT_APPLICABLE(why) do { eg_test_not_applicable(why); return; } while (0)

/* Marks the test skipped (a missing driver, named in why) and returns. */
#define EG_SKIP(why) do { eg_test_skip(why); return; } while (0)

bool eg_test_str_contains(const char *hay, const char *needle);

/* Runs the registered tests whose "group.name" contains filter (NULL: all); returns failures. */
/** EMGPU_TEST_VERBOSE=1 (hosted): print each test's name before it runs, to find a hang. */
extern bool eg_test_verbose;
/** EMGPU_TEST_EXCLUDE=substring (hosted): tests whose group.name contains it are not run (a
 *  suite split across two driver set-ups runs the rest elsewhere: tools/test_all.sh). */
extern const char *eg_test_exclude;
int eg_test_run_all(const char *filter);

#endif /* EG_HARNESS_H */
