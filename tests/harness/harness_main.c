/* Entry point of a unit-test binary: hosted boards take an optional name filter argument;
 * bare-metal boards run everything and report the result through the exit status. */
#include "tests/harness/harness.h"

#include "port/port.h"

int main(int argc, char **argv);

int main(int argc, char **argv)
{
    const char *filter = argc > 1 ? argv[1] : NULL;
    int failed = eg_test_run_all(filter);
    return failed ? 1 : 0;
}
