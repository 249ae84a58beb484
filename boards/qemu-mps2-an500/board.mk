# qemu-mps2-an500: Cortex-M7 bare metal (hard float), port baremetal, semihosting console.
# Unit tests run under qemu-system-arm; the program's status comes back as QEMU's exit status.
CROSS := arm-none-eabi-
PORT := baremetal
EXE := .elf
HOSTED := 0
OPT := -O2 -g
CPU_FLAGS := -mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16
# -Wno-format: newlib's uint32_t is `unsigned long` here, so every "%u" given a uint32_t (right on
# the host boards, where the format checks stay on) would fail; both are 32 bits on ARM, and
# eg_vfmt reads them alike.
CFLAGS_BOARD := $(CPU_FLAGS) -Wno-format
# newlib-nano only for memcpy/memset/strlen-class routines; our own Reset_Handler (no crt0).
LDFLAGS_BOARD := $(CPU_FLAGS) -nostartfiles -T boards/qemu-mps2-an500/mps2_an500.ld \
                 -Wl,--gc-sections --specs=nano.specs --specs=nosys.specs
BOARD_STARTUP_OBJ := $(BUILD)/obj/boards/qemu-mps2-an500/startup.o
BOARD_LINK_DEPS := $(BOARD_STARTUP_OBJ) boards/qemu-mps2-an500/mps2_an500.ld
LDLIBS_BOARD := $(BOARD_STARTUP_OBJ)
# The timeout only catches a hung guest: the unit suite takes ~96 s alone on the 2-core dev VM
# (session 16) and went past 120 s there under a parallel load, so it has room to 300 s.
TEST_RUN := timeout 300 qemu-system-arm -M mps2-an500 -nographic -monitor none \
            -semihosting-config enable=on,target=native -kernel
