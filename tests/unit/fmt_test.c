/* eg_fmt: the printf subset the runtime uses, truncation and termination. */
#include "kernel/base/fmt.h"
#include "tests/harness/harness.h"

#include <string.h>

EG_TEST(fmt, integers_strings_and_hex)
{
    char b[64];
    eg_fmt(b, sizeof b, "%u %d %x %s|%5s|%.2s", 42u, -7, 0xbeefu, "hi", "ab", "xyz");
    EG_EXPECT(strcmp(b, "42 -7 beef hi|   ab|xy") == 0);
    eg_fmt(b, sizeof b, "%llu %zu %%", 18446744073709551615ull, (size_t)5);
    EG_EXPECT(strcmp(b, "18446744073709551615 5 %") == 0);
}

EG_TEST(fmt, truncates_and_terminates)
{
    char b[6];
    size_t n = eg_fmt(b, sizeof b, "%s", "abcdefgh");
    EG_EXPECT(strcmp(b, "abcde") == 0);   /* 5 chars + NUL */
    EG_EXPECT_EQ_U(n, 5);
}
