/* Benchmark: the soft shader VM interpreter alone, on a hand-built fragment-like program.
 *
 * Usage: vm_bench [-n BLOCKS]   Runs a 1-block program of EXPR_LEN typical fragment ALU ops
 * (mul/add/fma/mix/clamp/min/compare/select/sqrt) over BLOCKS 16-lane blocks (default 200000),
 * once with all lanes active and once with a partial mask, 5 repetitions each, and prints
 * ns/instruction and ns/block (best of 5). No rasterizer, no texture: the VM dispatch and ALU
 * cost only, so it is unaffected by changes to soft_raster*. Never fails on speed.
 * Build: gcc $(CFLAGS) bench/vm_bench.c $(BUILD)/libemgpu.a -lm -o vm_bench (see bench.mk).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hal/soft/soft_vm.h"

#define EXPR_LEN 96u
#define REGS 12u

static eg_vm_inst_t g_code[EXPR_LEN + 2u];
static eg_soft_reg_t g_consts[4];
static const uint32_t g_block_pc[1] = { 0 };
static eg_soft_vec4_t g_in[EG_SOFT_MAX_LOCATIONS], g_out[EG_SOFT_MAX_LOCATIONS];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* BLOCK; LD_IN x4; a mix of ALU ops over registers 0..REGS-1 and constants; ST_OUT x4; END. */
static uint32_t build(eg_soft_program_t *p)
{
    static const uint16_t ops[] = { EG_VM_FMUL, EG_VM_FADD, EG_VM_FFMA, EG_VM_FMIX, EG_VM_FCLAMP,
                                    EG_VM_FMIN, EG_VM_FLT, EG_VM_SELECT, EG_VM_FSUB, EG_VM_FMAX,
                                    EG_VM_FSQRT, EG_VM_MOV, EG_VM_FMUL, EG_VM_FADD, EG_VM_FFRACT };
    uint32_t n = 0, seed = 7u;
    g_code[n++] = (eg_vm_inst_t){ .op = EG_VM_BLOCK, .imm = 0, .a = EXPR_LEN + 1u, .b = 0 };
    for (uint32_t k = 0; k < 4; k++)
        g_code[n++] = (eg_vm_inst_t){ .op = EG_VM_LD_IN, .dst = (uint16_t)k, .a = EG_VM_NONE,
                                      .b = EG_VM_NONE, .c = EG_VM_NONE, .d = EG_VM_NONE, .imm = k };
    while (n < EXPR_LEN - 3u) {
        seed = seed * 1103515245u + 12345u;
        uint16_t op = ops[(seed >> 16) % (sizeof ops / sizeof ops[0])];
        uint16_t a = (uint16_t)((seed >> 8) % REGS), b = (uint16_t)((seed >> 4) % REGS);
        uint16_t c = (uint16_t)(EG_VM_CONST_BASE + (seed >> 12) % 4u);
        g_code[n++] = (eg_vm_inst_t){ .op = op, .dst = (uint16_t)(4u + n % (REGS - 4u)), .a = a, .b = b,
                                      .c = c, .d = EG_VM_NONE };
    }
    for (uint32_t k = 0; k < 4; k++)
        g_code[n++] = (eg_vm_inst_t){ .op = EG_VM_ST_OUT, .dst = EG_VM_NONE, .a = (uint16_t)(4u + k),
                                      .b = EG_VM_NONE, .c = EG_VM_NONE, .d = EG_VM_NONE, .imm = k };
    g_code[n++] = (eg_vm_inst_t){ .op = EG_VM_END };
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) g_consts[k].f[l] = 0.25f * (float)(k + 1);
    memset(p, 0, sizeof *p);
    p->code = g_code;
    p->code_count = n;
    p->consts = g_consts;
    p->const_count = 4;
    p->reg_count = REGS;
    p->block_count = 1;
    p->block_pc = g_block_pc;
    return n;
}

static double run(const eg_soft_program_t *p, uint32_t blocks, eg_soft_mask_t mask)
{
    eg_soft_invocation_t inv;
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_s();
        for (uint32_t b = 0; b < blocks; b++) {
            memset(&inv, 0, sizeof inv);
            inv.in = g_in;
            inv.out = g_out;
            inv.active = mask;
            g_in[0].c[0].f[b & 15u] = (float)(b & 255u) * 0.01f;
            eg_soft_program_run(p, NULL, &inv);
        }
        double t = now_s() - t0;
        if (t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    uint32_t blocks = 200000;
    if (argc == 3 && !strcmp(argv[1], "-n")) blocks = (uint32_t)strtoul(argv[2], NULL, 10);
    static eg_soft_program_t prog;
    uint32_t n = build(&prog);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
        for (uint32_t k = 0; k < 4; k++) g_in[k].c[0].f[l] = (float)(l + k) * 0.1f;
    double full = run(&prog, blocks, EG_SOFT_ALL_LANES), part = run(&prog, blocks, 0x0f3fu);
    printf("vm_bench: %u instructions/block, %u blocks, SIMD=%d\n", n, blocks, EMGPU_SOFT_SIMD);
    printf("  full mask:    %.2f ns/inst  %.1f ns/block\n", full * 1e9 / ((double)blocks * n), full * 1e9 / blocks);
    printf("  partial mask: %.2f ns/inst  %.1f ns/block\n", part * 1e9 / ((double)blocks * n), part * 1e9 / blocks);
    printf("  checksum %08x\n", (unsigned)g_out[0].c[0].u[3] ^ (unsigned)g_out[3].c[0].u[9]);
    return 0;
}
