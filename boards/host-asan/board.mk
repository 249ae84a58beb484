# host-asan: the host board built with AddressSanitizer and UndefinedBehaviorSanitizer.
PORT := posix
# -fno-var-tracking-assignments: GCC's variable tracking on the big inlined span kernels under
# the sanitizers was ~2/3 of this board's build (soft_span_fused.c: 447 s of one core with it,
# 150 s without, session 17); reports keep their file:line stacks, only some locals' locations
# in a debugger are lost.
OPT := -O1 -g -fno-var-tracking-assignments -fno-omit-frame-pointer
CFLAGS_BOARD := -D_DEFAULT_SOURCE -pthread -fsanitize=address,undefined -fno-sanitize-recover=undefined
LDFLAGS_BOARD := -fsanitize=address,undefined
LDLIBS_BOARD := -ldl -lpthread -lm
TEST_RUN := env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
# tests/hosted programs this board must not build: no_alloc interposes malloc/free, which ASan's
# allocator owns here. (The Makefile filters tests/hosted/<name>_test.c out of HOSTED_SRC.)
HOSTED_EXCLUDE := no_alloc
