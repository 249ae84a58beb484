# host: Linux x86-64 desktop simulation of a board. Port posix; tests run natively.
PORT := posix
CFLAGS_BOARD := -D_DEFAULT_SOURCE -pthread
LDLIBS_BOARD := -ldl -lpthread -lm
TEST_RUN :=
