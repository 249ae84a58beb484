/* Cortex-M7 start-up for QEMU mps2-an500: vector table, reset handler, fault report, argv. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "semihost.h"

extern uint32_t __data_load__, __data_start__, __data_end__, __bss_start__, __bss_end__;
extern uint32_t __stack_top, __stack_limit;
extern int main(int argc, char **argv);

void Reset_Handler(void);
void Default_Handler(void);
void Fault_Handler(void);
void eg_board_fault_report(const uint32_t *frame, uint32_t exc_return);

/* CMSIS handler names: a port or application overrides one by defining it (port baremetal
 * defines SysTick_Handler for its clock); the rest fall back to Default_Handler. */
void NMI_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SVC_Handler(void) __attribute__((weak, alias("Default_Handler")));
void DebugMon_Handler(void) __attribute__((weak, alias("Default_Handler")));
void PendSV_Handler(void) __attribute__((weak, alias("Default_Handler")));
void SysTick_Handler(void) __attribute__((weak, alias("Default_Handler")));

#define SCB_CFSR  (*(volatile uint32_t *)0xE000ED28u)
#define SCB_HFSR  (*(volatile uint32_t *)0xE000ED2Cu)
#define SCB_CPACR (*(volatile uint32_t *)0xE000ED88u)
#define SCB_ICSR  (*(volatile uint32_t *)0xE000ED04u)

static char *hex32(uint32_t v, char *out)
{
    static const char digits[] = "0123456789abcdef";
    out[0] = '0';
    out[1] = 'x';
    for (int i = 0; i < 8; i++) out[2 + i] = digits[(v >> (28 - 4 * i)) & 0xFu];
    out[10] = 0;
    return out;
}

static void put_kv(const char *key, uint32_t v)
{
    char buf[11];
    eg_semi_write0(key);
    eg_semi_write0(hex32(v, buf));
}

void Default_Handler(void)
{
    put_kv("unexpected exception, ICSR ", SCB_ICSR);
    eg_semi_write0("\n");
    eg_semi_exit(99);
}

/* Called by Fault_Handler with the stacked frame (r0-r3, r12, lr, pc, xpsr). Prints what a person
 * needs to find the faulting instruction: `arm-none-eabi-addr2line -e unit_tests.elf <pc>`. */
void eg_board_fault_report(const uint32_t *frame, uint32_t exc_return)
{
    (void)exc_return;
    put_kv("fault: pc ", frame[6]);
    put_kv(" lr ", frame[5]);
    put_kv(" CFSR ", SCB_CFSR);
    put_kv(" HFSR ", SCB_HFSR);
    put_kv(" ICSR ", SCB_ICSR);
    eg_semi_write0("\n");
    eg_semi_exit(98);
}

/* Picks the stack the fault frame went to (MSP or PSP, bit 2 of EXC_RETURN), then reports. */
__attribute__((naked)) void Fault_Handler(void)
{
    __asm__ volatile("tst lr, #4\n"
                     "ite eq\n"
                     "mrseq r0, msp\n"
                     "mrsne r0, psp\n"
                     "mov r1, lr\n"
                     "b eg_board_fault_report\n");
}

/* argv from the host: QEMU's SYS_GET_CMDLINE gives "<kernel path> <-append text>", so
 * `... -kernel unit_tests.elf -append buffer_create` runs the tests matching a filter. */
#define ARGV_MAX 8
static char cmdline[256];
static char *argv_buf[ARGV_MAX + 1];

static int split_cmdline(void)
{
    int argc = 0;
    if (!eg_semi_get_cmdline(cmdline, sizeof cmdline)) {
        argv_buf[0] = "emgpu";
        argv_buf[1] = NULL;
        return 1;
    }
    cmdline[sizeof cmdline - 1] = 0;
    char *p = cmdline;
    while (*p && argc < ARGV_MAX) {
        while (*p == ' ') *p++ = 0;
        if (!*p) break;
        argv_buf[argc++] = p;
        while (*p && *p != ' ') p++;
    }
    argv_buf[argc] = NULL;
    return argc;
}

/* STACK HIGH WATER. Nothing on this board faults when the stack runs past __stack_limit: it
 * would silently overwrite the heap and .bss below. So the stack is painted before main, and
 * after main the deepest word it reached is reported; reaching the limit fails the run
 * (session 12: the soft rasterizer's deepest path measured 33.5 KiB, past the 32 KiB it had,
 * unnoticed until then). */
#define STACK_PAINT 0x5AC4A5C4u

static void stack_paint(void)
{
    uint32_t here;
    const uintptr_t end = (uintptr_t)&here - 256u;   /* this frame and Reset_Handler's stay */
    for (uint32_t *q = &__stack_limit; (uintptr_t)q < end; q++) *q = STACK_PAINT;
}

/* Prints "stack high water: N of M bytes"; true when the stack stayed off its last word. */
static bool stack_report(void)
{
    const uint32_t *q = &__stack_limit;
    while (q < &__stack_top && *q == STACK_PAINT) q++;
    const uint32_t used = (uint32_t)((uintptr_t)&__stack_top - (uintptr_t)q);
    const uint32_t size = (uint32_t)((uintptr_t)&__stack_top - (uintptr_t)&__stack_limit);
    char line[80], num[12], *o = line;
    const char *parts[4] = { "stack high water: ", NULL, " of ", NULL };
    const uint32_t vals[2] = { used, size };
    for (uint32_t i = 0; i < 4u; i++) {
        const char *t = parts[i];
        if (!t) {
            uint32_t v = vals[i / 2u], n = 0;
            do { num[n++] = (char)('0' + v % 10u); v /= 10u; } while (v);
            while (n) *o++ = num[--n];
            continue;
        }
        while (*t) *o++ = *t++;
    }
    const char *tail = used < size ? " bytes\n" : " bytes: the stack reached its limit (raise __stack_size)\n";
    while (*tail) *o++ = *tail++;
    *o = 0;
    eg_semi_write0(line);
    return used < size;
}

void Reset_Handler(void)
{
    uint32_t *src = &__data_load__, *dst = &__data_start__;
    while (dst < &__data_end__) *dst++ = *src++;
    for (dst = &__bss_start__; dst < &__bss_end__;) *dst++ = 0;
    /* Full access to CP10/CP11 before any FPU instruction: the code is built -mfloat-abi=hard. */
    SCB_CPACR |= 0xFu << 20;
    __asm__ volatile("dsb\n isb" ::: "memory");
    /* No static constructors to run: C code only, and the test registry is a generated table. */
    int argc = split_cmdline();
    stack_paint();
    int status = main(argc, argv_buf);
    if (!stack_report() && status == 0) status = 1;
    eg_semi_exit(status);
}

#define D4 Default_Handler, Default_Handler, Default_Handler, Default_Handler
__attribute__((section(".isr_vector"), used))
void (*const eg_board_vectors[16 + 32])(void) = {
    (void (*)(void))(uintptr_t)&__stack_top, Reset_Handler,
    NMI_Handler, Fault_Handler, Fault_Handler, Fault_Handler, Fault_Handler, /* HardFault MemManage BusFault UsageFault */
    0, 0, 0, 0,
    SVC_Handler, DebugMon_Handler, 0, PendSV_Handler, SysTick_Handler,
    D4, D4, D4, D4, D4, D4, D4, D4, /* 32 external interrupts: none is enabled */
};
