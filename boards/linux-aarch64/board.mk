# linux-aarch64: Linux SoC (Cortex-A53/A72 class), cross-compiled; tests run under qemu-aarch64.
CROSS := aarch64-linux-gnu-
PORT := posix
CFLAGS_BOARD := -D_DEFAULT_SOURCE -pthread -march=armv8-a
LDLIBS_BOARD := -ldl -lpthread -lm
TEST_RUN := qemu-aarch64 -L /usr/aarch64-linux-gnu
# The X11 window tests (Xlib surface, swapchains + simulator) need an AArch64 libX11 and an X
# server, which the qemu-aarch64 run does not have; the host boards run them under Xvfb.
HOSTED_EXCLUDE := xlib_surface swapchain
