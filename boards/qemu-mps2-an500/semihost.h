/* ARM semihosting calls (M-profile: BKPT 0xAB) used by the board's startup code and port baremetal.
 *
 * Semihosting hands an operation to the debugger or, here, to QEMU (-semihosting-config
 * enable=on,target=native). The core halts on BKPT while no debugger is attached, so a board for
 * real hardware must only make these calls with a probe connected (or replace the console).
 * Operation numbers: ARM "Semihosting for AArch32 and AArch64", version 2.0.
 */
#ifndef EG_SEMIHOST_H
#define EG_SEMIHOST_H

#include <stdint.h>

#define EG_SEMI_SYS_WRITE0        0x04u  /* r1 = NUL-terminated string */
#define EG_SEMI_SYS_GET_CMDLINE   0x15u  /* r1 = { char *buf, uint32_t len } */
#define EG_SEMI_SYS_EXIT          0x18u  /* r1 = reason (AArch32: no status) */
#define EG_SEMI_SYS_EXIT_EXTENDED 0x20u  /* r1 = { reason, status } */
#define EG_SEMI_SYS_ELAPSED       0x30u  /* r1 = uint32_t[2], 64-bit tick count */
#define EG_SEMI_SYS_TICKFREQ      0x31u  /* ticks per second of SYS_ELAPSED */
#define EG_SEMI_ADP_STOPPED_APPLICATION_EXIT 0x20026u

static inline uintptr_t eg_semi_call(uintptr_t op, uintptr_t arg)
{
    register uintptr_t r0 __asm__("r0") = op;
    register uintptr_t r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

/** Writes a NUL-terminated string to the host console. */
static inline void eg_semi_write0(const char *s) { eg_semi_call(EG_SEMI_SYS_WRITE0, (uintptr_t)s); }

/** Ends the program with `status` as QEMU's exit status. SYS_EXIT_EXTENDED carries the status on
 *  AArch32 (plain SYS_EXIT cannot); SYS_EXIT is the fallback for hosts without it. */
static inline _Noreturn void eg_semi_exit(int status)
{
    uint32_t blk[2] = { EG_SEMI_ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status };
    eg_semi_call(EG_SEMI_SYS_EXIT_EXTENDED, (uintptr_t)blk);
    eg_semi_call(EG_SEMI_SYS_EXIT, EG_SEMI_ADP_STOPPED_APPLICATION_EXIT);
    for (;;) {
    }
}

/** Copies the host's command line into buf (NUL-terminated); false if the host has none. */
static inline int eg_semi_get_cmdline(char *buf, uint32_t len)
{
    uintptr_t blk[2] = { (uintptr_t)buf, len };
    return eg_semi_call(EG_SEMI_SYS_GET_CMDLINE, (uintptr_t)blk) == 0;
}

#endif /* EG_SEMIHOST_H */
