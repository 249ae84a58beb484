# emgpu: the one entry point.  make [BOARD=<board>] all|demo|test|check|size|clean
#
# A build is a pure function of the board: boards/<board>/board.mk names the toolchain, flags,
# port and how tests run; boards/<board>/emgpu_board.h sets the config knobs. Outputs go under
# build/<board>/, nothing is written into the source tree.

BOARD ?= host
BOARD_DIR := boards/$(BOARD)
ifeq ($(wildcard $(BOARD_DIR)/board.mk),)
$(error unknown BOARD '$(BOARD)': expected one of $(notdir $(wildcard boards/*)))
endif
# O=<dir> puts the outputs elsewhere (parallel builds of one tree).
BUILD := $(if $(O),$(O),build/$(BOARD))

# Defaults a board.mk may override.
CROSS ?=
CC = $(CROSS)gcc
AR = $(CROSS)ar
SIZE = $(CROSS)size
NM = $(CROSS)nm
OPT ?= -O2 -g
PORT ?= posix
TEST_RUN ?=
HOSTED ?= 1
LDLIBS_BOARD ?=
# EXTRA_CFLAGS=-DEMGPU_HAL_VULKAN=1 and the like override config knobs for one build.
EXTRA_CFLAGS ?=
include $(BOARD_DIR)/board.mk

# Khronos headers come from Debian (spirv-headers, ...). Cross compilers do not search
# /usr/include, and must not (glibc's headers would shadow the target's), so each header
# directory the runtime needs is exposed alone, searched last.
KHRONOS_DIRS := spirv vulkan vk_video EGL GLES2 GLES3 KHR spirv_cross
SYSINC := $(BUILD)/sysinc
$(shell mkdir -p $(SYSINC) && for d in $(KHRONOS_DIRS); do ln -sfn /usr/include/$$d $(SYSINC)/$$d; done)

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
# -ffp-contract=off: no fused multiply-add behind the code's back (ISO C mode's default, made
# explicit), so float results are the same bytes on x86-64, AArch64 and Cortex-M7.
CFLAGS := -std=c11 $(WARN) $(OPT) -ffp-contract=off -I. -Iinclude -I$(BOARD_DIR) -ffunction-sections -fdata-sections \
          $(CFLAGS_BOARD) $(EXTRA_CFLAGS) -idirafter $(SYSINC) -MMD -MP
LDFLAGS := $(LDFLAGS_BOARD)

# The runtime: kernel, every HAL (each file compiles to nothing unless its EMGPU_HAL_* is on), the port.
KERNEL_SRC := $(wildcard kernel/*/*.c)
HAL_SRC    := $(wildcard hal/*.c hal/*/*.c)
PORT_SRC   := $(wildcard port/$(PORT)/*.c)
# Ports without display devices share the stubs that say so.
PORT_SRC   += $(if $(filter posix,$(PORT)),,port/display_none.c)
RUNTIME_SRC := $(KERNEL_SRC) $(HAL_SRC) $(PORT_SRC)
RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/obj/%.o)
LIB := $(BUILD)/libemgpu.a

# Unit tests run on every board (host, qemu-aarch64, Cortex-M semihosting).
UNIT_SRC := $(wildcard tests/unit/*_test.c) tests/harness/harness.c tests/harness/harness_main.c \
            tests/harness/test_device.c
UNIT_OBJ := $(UNIT_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/test_list.o $(BUILD)/obj/spv_embed.o
UNIT_BIN := $(BUILD)/tests/unit_tests$(EXE)

# Hosted-only test programs (each its own binary): tests/hosted/*_test.c.
# A board may leave some out (HOSTED_EXCLUDE := no_alloc: ASan owns malloc there).
# Display hardware (fbdev, DRM/KMS) is tested on a real kernel in a QEMU VM by
# tools/vm_display_test.sh, which make test runs (docs/displays.md).
# The DXBC emitter check needs a host build with the emitter compiled in (EMGPU_D3D12_TPF=1:
# tools/tpf_check.sh, run by make test over the variant build); elsewhere it is not built, so
# no board reports it as skipped.
ifeq ($(findstring EMGPU_D3D12_TPF=1,$(EXTRA_CFLAGS)),)
HOSTED_EXCLUDE += d3d12_tpf_check
endif
# The Wayland test starts weston on this machine: a native build only (cross boards leave it out
# rather than report a skip; tests/hosted/wayland_surface.mk).
ifneq ($(CROSS),)
HOSTED_EXCLUDE += wayland_surface
endif
HOSTED_SRC := $(filter-out $(HOSTED_EXCLUDE:%=tests/hosted/%_test.c),\
                $(if $(filter 1,$(HOSTED)),$(wildcard tests/hosted/*_test.c)))
HOSTED_BIN := $(HOSTED_SRC:tests/hosted/%.c=$(BUILD)/tests/%$(EXE))

.PHONY: all demo test check size clean deps
all: $(LIB) $(UNIT_BIN) $(HOSTED_BIN)

# V=1 shows the full command lines.
Q := $(if $(V),,@)
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC    $<")
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(RUNTIME_OBJ)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BUILD)/test_list.c: $(filter tests/unit/%,$(UNIT_SRC)) tools/gen_test_list.sh
	@mkdir -p $(dir $@)
	sh tools/gen_test_list.sh "$(CC) $(filter-out -MMD -MP,$(CFLAGS)) -E" $(filter tests/unit/%,$(UNIT_SRC)) > $@

$(BUILD)/obj/test_list.o: $(BUILD)/test_list.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(UNIT_BIN): $(UNIT_OBJ) $(LIB) $(BOARD_LINK_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $(UNIT_OBJ) $(LIB) $(LDLIBS_BOARD) -o $@

$(BUILD)/tests/%_test$(EXE): tests/hosted/%_test.c $(BUILD)/obj/tests/harness/harness.o \
        $(BUILD)/obj/tests/harness/test_device.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $< $(BUILD)/obj/tests/harness/harness.o \
	    $(BUILD)/obj/tests/harness/test_device.o $(LIB) $(LDLIBS_BOARD) -o $@

# check: build and run this board's suites; every suite ends with "N passed, N failed".
check: all
	sh tools/run_suites.sh "$(BOARD)" "$(TEST_RUN)" $(UNIT_BIN) $(HOSTED_BIN)

# test: what CI runs. On the host board: the host suites, the ASan+UBSan build, the AArch64
# build under qemu-aarch64, the Cortex-M7 build under qemu-system-arm, and the no-heap symbol
# check; then one closing line with the totals.
ifeq ($(BOARD),host)
TEST_BOARDS ?= host host-asan linux-aarch64 qemu-mps2-an500 windows-x64
test:
	sh tools/deps $(TEST_BOARDS)
	sh tools/test_all.sh $(TEST_BOARDS)
else
test:
	sh tools/deps $(BOARD)
	sh tools/test_all.sh $(BOARD)
endif

size: $(LIB)
	sh tools/size_report.sh "$(BOARD)" "$(SIZE)" "$(NM)" $(BUILD)

demo:
	sh tools/deps demo
	$(MAKE) BOARD=host $(BUILD)/demo$(EXE)
	$(BUILD)/demo$(EXE) $(BUILD)/demo.png $(DEMO_FRAMES)

clean:
	rm -rf build

# Shader test inputs (GLSL -> SPIR-V, negative .spvasm) for the hosted boards.
include tests/shaders/shaders.mk
# Conformance scenes, the fuzz target and the benchmarks bring their own rules.
-include tests/scenes/scenes.mk
-include tests/fuzz/fuzz.mk
-include bench/bench.mk
-include tests/hosted/wayland_surface.mk   # (helper wayland) the Wayland test's link and xdg-shell glue
# The dashboard demo (its sources, embedded shaders and the $(BUILD)/demo rule).
include examples/demo/demo.mk

-include $(RUNTIME_OBJ:.o=.d) $(UNIT_OBJ:.o=.d)
