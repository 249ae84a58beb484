/* Tests for the shader VM's x86-64 JIT (hal/soft/soft_jit.c): native code against the threaded
 * handlers and the switch interpreter, bit for bit, on hand-made bytecode. */
#include "config/emgpu_config.h"

#include "tests/harness/harness.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_jit.h"
#include "hal/soft/soft_shader.h"
#include "hal/soft/soft_vm.h"
#include "kernel/base/util.h"
#endif

#if EMGPU_HAL_SOFT && EMGPU_SOFT_JIT

/* Values whose bits are easy to get wrong: signed zeros, quiet and signalling NaNs of both
 * signs, infinities, denormals, the 2^23 edges of floor (8388608 = 0x4b000000), large values,
 * halves, small integers (for IADD/AND/OR/SELECT). 24 values, lanes take rotations of them. */
static const uint32_t jit_special[24] = {
    0x80000000u, 0x00000000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x7f800000u, 0xff800000u,
    0x00000001u, 0x807fffffu, 0x4b000000u, 0xcb000000u, 0x4affffffu, 0xcaffffffu, 0x4b000001u,
    0x7f7fffffu, 0xcf000000u, 0xbf000000u, 0x3fc00000u, 0x3f800000u, 0xbf800001u, 0x3effffffu,
    0xc0490fdbu, 3u, 0xffffffffu
};

/* The JIT translates threaded runs: it needs the CPU's AVX2 and the threaded code. */
static bool jit_usable(void) { return eg_vm_jit_available() && eg_vm_thread_widths() != 0; }

static bool jit_is_nan(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu); }

#define JIT_MAX_CODE 320u
static eg_vm_inst_t jit_code[JIT_MAX_CODE];
static struct { uint64_t w[3]; } jit_thread_mem[JIT_MAX_CODE];   /* eg_vm_thread_size_B per instruction */
static eg_soft_reg_t jit_consts[3];
static const uint32_t jit_block_pc[1] = { 0 };
static eg_soft_vec4_t jit_in[EG_SOFT_MAX_LOCATIONS], jit_out[EG_SOFT_MAX_LOCATIONS];
static eg_soft_program_t jit_p;

static void jit_program(uint32_t n)
{
    eg_memset(&jit_p, 0, sizeof jit_p);
    jit_p.code = jit_code;
    jit_p.code_count = n;
    jit_p.consts = jit_consts;
    jit_p.const_count = 3;
    jit_p.reg_count = 4;
    jit_p.block_count = 1;
    jit_p.block_pc = jit_block_pc;
}

/* The last JIT build's code, freed only after the next build: the arena then stays mapped
 * (a map and an unmap per build would cost more than the runs). */
static eg_soft_program_t jit_prev;
static void jit_release_prev(void) { eg_vm_jit_free(&jit_prev); }

/* Runs jit_p in mode 0 (switch), 1 (threaded), 2 (JIT) over active lanes; out[0].x into got. */
static bool jit_run(uint32_t mode, eg_soft_mask_t active, uint32_t *got)
{
    jit_p.thread = NULL;
    jit_p.jit = NULL;
    if (mode) eg_vm_thread_build(&jit_p, jit_thread_mem, 0);
    if (mode == 2 && !eg_vm_jit_build(&jit_p)) return false;
    eg_soft_invocation_t inv = { .in = jit_in, .out = jit_out, .active = active };
    for (uint32_t c = 0; c < 4; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv.position.c[c].u[l] = jit_special[(l + 5u * c) % 24u];
    eg_memset(jit_out, 0x5a, sizeof jit_out);
    eg_soft_program_run(&jit_p, NULL, &inv);
    if (mode == 2) {
        jit_release_prev();
        jit_prev.jit = jit_p.jit;
        jit_prev.jit_B = jit_p.jit_B;
        jit_p.jit = NULL;
    }
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) got[l] = jit_out[0].c[0].u[l];
    return true;
}

/* JIT lanes against the threaded ones and the switch interpreter's, bit for bit, except where
 * nan2 has the lane's bit: two NaNs meet in one IEEE operation there, and which payload wins is
 * the operand order the compiler picked for a commutative + or * in the handlers (GCC swaps
 * some: soft_vm_test's threaded_ops_special_values accepts any NaN for any there too). */
static bool jit_compare(const char *what, uint32_t op, uint32_t km, uint32_t rep, eg_soft_mask_t active,
                        eg_soft_mask_t nan2)
{
    uint32_t sw[EG_SOFT_LANES], th[EG_SOFT_LANES], jt[EG_SOFT_LANES];
    jit_run(0, active, sw);
    jit_run(1, active, th);
    if (!jit_run(2, active, jt)) { eg_test_fail(__FILE__, __LINE__, "eg_vm_jit_build failed"); return false; }
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        bool nan_ok = (nan2 >> l & 1u) && jit_is_nan(jt[l]) && jit_is_nan(sw[l]) && jit_is_nan(th[l]);
        if ((jt[l] == th[l] && jt[l] == sw[l]) || nan_ok) continue;
        eg_test_fail(__FILE__, __LINE__, what);
        eg_test_printf("    op %u km %u rep %u lane %u: jit %08x threaded %08x switch %08x\n", (unsigned)op,
                       (unsigned)km, (unsigned)rep, (unsigned)l, (unsigned)jt[l], (unsigned)th[l], (unsigned)sw[l]);
        return false;
    }
    return true;
}

/* Every threaded operation with every register/constant operand mix, the destination apart
 * from and equal to its first operand, on the special values in every operand position:
 * the JIT's bits are the threaded handlers' and the switch interpreter's. */
EG_TEST(soft_jit, ops_special_values_equal_threaded_and_switch)
{
    if (!jit_usable()) EG_NOT_APPLICABLE("no AVX2 on this CPU, or no threaded code (EMGPU_SOFT_SIMD 0)");
    static const uint16_t ops[] = { EG_VM_MOV, EG_VM_FABS, EG_VM_FNEG, EG_VM_FFLOOR, EG_VM_FFRACT, EG_VM_FSQRT,
                                    EG_VM_FADD, EG_VM_FSUB, EG_VM_FMUL, EG_VM_FMIN, EG_VM_FMAX, EG_VM_FLT,
                                    EG_VM_FGT, EG_VM_FLE, EG_VM_FGE, EG_VM_IADD, EG_VM_AND, EG_VM_OR,
                                    EG_VM_FDIV, EG_VM_FSTEP, EG_VM_FEQ, EG_VM_IEQ, EG_VM_INE, EG_VM_ISUB,
                                    EG_VM_XOR, EG_VM_FFMA, EG_VM_FMIX, EG_VM_FCLAMP, EG_VM_SELECT };
    uint32_t checked = 0;
    for (uint32_t o = 0; o < EG_ARRAY_LEN(ops); o++) {
        /* km bit 3: destination = operand a; bit 4: a store between the loads and the operation
         * empties the JIT's register cache, so the operands come from memory */
        for (uint32_t km = 0; km < 32u; km++) {
            uint16_t src[3];
            for (uint32_t i = 0; i < 3; i++) src[i] = (uint16_t)(km >> i & 1u ? EG_VM_CONST_BASE + i : i);
            uint16_t dst = (km & 8u) && src[0] < EG_VM_CONST_BASE ? 0 : 3;
            uint32_t n = 0;
            jit_code[n++] = (eg_vm_inst_t){ .op = EG_VM_BLOCK, .imm = 0, .a = 6, .b = 0 };
            for (uint16_t k = 0; k < 3; k++)
                jit_code[n++] = (eg_vm_inst_t){ EG_VM_LD_IN, k, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, k };
            if (km & 16u)
                jit_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, 1, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 8 };
            jit_code[n++] = (eg_vm_inst_t){ ops[o], dst, src[0], src[1], src[2], EG_VM_NONE, 0 };
            jit_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, dst, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0 };
            jit_code[n++] = (eg_vm_inst_t){ .op = EG_VM_END };
            jit_program(n);
            for (uint32_t rep = 0; rep < 24u; rep++) {
                for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                    jit_in[0].c[0].u[l] = jit_special[(l + rep) % 24u];
                    jit_in[0].c[1].u[l] = jit_special[(l * 5u + rep) % 24u];
                    jit_in[0].c[2].u[l] = jit_special[(l * 7u + rep * 3u) % 24u];
                }
                for (uint32_t i = 0; i < 3; i++)
                    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) jit_consts[i].u[l] = jit_special[(rep + i * 7u) % 24u];
                /* lanes where two operands are NaN, or (FFMA, FMIX) any operand is: a product
                 * inf * 0 or a sum inf - inf makes a NaN that may meet it */
                eg_soft_mask_t nan2 = 0;
                uint32_t arity = o < 6u ? 1u : o < 25u ? 2u : 3u;
                for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                    uint32_t nans = 0;
                    for (uint32_t i = 0; i < arity; i++)
                        nans += jit_is_nan(km >> i & 1u ? jit_consts[i].u[l] : jit_in[0].c[i].u[l]);
                    if (nans >= 2u || (nans && (ops[o] == EG_VM_FFMA || ops[o] == EG_VM_FMIX)))
                        nan2 |= 1u << l;
                }
                if (!jit_compare("JIT lane differs", ops[o], km, rep, EG_SOFT_ALL_LANES, nan2)) {
                    jit_release_prev();
                    return;
                }
                checked++;
            }
        }
    }
    EG_EXPECT_EQ_U(checked, 29u * 32u * 24u);
    jit_release_prev();
    EG_EXPECT_EQ_U(eg_vm_jit_pages_used(), 0u);             /* every build freed its pages */
}

/* Builds a chain of len instructions over registers 0..3 (FragCoord in, every threaded kind of
 * operation, constants mixed in) ending in a store; with partial lane masks the store leaves
 * the native code for the switch interpreter's merge. */
static uint32_t jit_chain(uint32_t len)
{
    static const uint16_t ops[] = { EG_VM_FADD, EG_VM_FMUL, EG_VM_FFRACT, EG_VM_FMIX, EG_VM_FMIN, EG_VM_FSUB,
                                    EG_VM_FFMA, EG_VM_FCLAMP, EG_VM_FMAX, EG_VM_FLT, EG_VM_SELECT, EG_VM_FABS };
    uint32_t n = 0;
    jit_code[n++] = (eg_vm_inst_t){ .op = EG_VM_BLOCK, .imm = 0, .a = 6, .b = 0 };
    for (uint16_t k = 0; k < 4; k++)
        jit_code[n++] = (eg_vm_inst_t){ EG_VM_LD_SYS, k, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE,
                                        EG_VM_SYS_FRAG_COORD + k };
    for (uint32_t i = 0; i < len; i++) {
        uint16_t a = (uint16_t)(i % 4u), b = (uint16_t)(i % 3u == 2u ? EG_VM_CONST_BASE + i % 3u : (i + 1u) % 4u);
        jit_code[n++] = (eg_vm_inst_t){ ops[i % EG_ARRAY_LEN(ops)], (uint16_t)((i + 3u) % 4u), a, b,
                                        (uint16_t)((i + 2u) % 4u), EG_VM_NONE, 0 };
        if (i % 16u == 15u)                                  /* a store mid-run: a second entry after it */
            jit_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, 0, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 4 };
    }
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, 3, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0 };
    jit_code[n++] = (eg_vm_inst_t){ .op = EG_VM_END };
    for (uint32_t i = 0; i < 3; i++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) jit_consts[i].u[l] = jit_special[(i * 9u + 17u) % 24u];
    return n;
}

/* A long chain under full and partial masks (stores inside the run exit to the switch and come
 * back): the JIT's bits are the threaded code's. */
EG_TEST(soft_jit, chain_with_masks_equals_threaded)
{
    if (!jit_usable()) EG_NOT_APPLICABLE("no AVX2 on this CPU, or no threaded code (EMGPU_SOFT_SIMD 0)");
    static const eg_soft_mask_t masks[] = { EG_SOFT_ALL_LANES, 0x0ff0u, 0x8421u, 0x00f3u };
    jit_program(jit_chain(60));
    for (uint32_t m = 0; m < EG_ARRAY_LEN(masks); m++)
        if (!jit_compare("JIT chain differs", EG_VM_FADD, m, 0, masks[m], EG_SOFT_ALL_LANES)) break;
    jit_release_prev();
    EG_EXPECT_EQ_U(eg_vm_jit_pages_used(), 0u);
}

/* A program longer than the arena: the build says no (one warning naming the knob), the
 * threaded code runs it with the same bits; a short one still fits; the arena is then empty. */
EG_TEST(soft_jit, program_longer_than_arena_falls_back)
{
    if (!jit_usable()) EG_NOT_APPLICABLE("no AVX2 on this CPU, or no threaded code (EMGPU_SOFT_SIMD 0)");
    if (eg_vm_jit_pages_used()) EG_NOT_APPLICABLE("JIT code of another test still live");
    uint32_t sw[EG_SOFT_LANES], th[EG_SOFT_LANES], jt[EG_SOFT_LANES];
    eg_vm_jit_test_arena_B(4096);
    jit_program(jit_chain(280));                             /* ~40 bytes per instruction: > 4 KiB */
    jit_p.thread = NULL;
    eg_vm_thread_build(&jit_p, jit_thread_mem, 0);
    EG_EXPECT(!eg_vm_jit_build(&jit_p));
    EG_EXPECT(jit_p.jit == NULL);
    EG_EXPECT_EQ_U(eg_vm_jit_pages_used(), 0u);
    jit_run(0, EG_SOFT_ALL_LANES, sw);
    jit_run(1, EG_SOFT_ALL_LANES, th);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) EG_EXPECT(th[l] == sw[l] || (jit_is_nan(th[l]) && jit_is_nan(sw[l])));
    jit_program(jit_chain(8));
    EG_EXPECT(jit_run(2, EG_SOFT_ALL_LANES, jt));
    jit_release_prev();
    jit_run(1, EG_SOFT_ALL_LANES, th);
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) EG_EXPECT_EQ_U(jt[l], th[l]);
    eg_vm_jit_test_arena_B(0);
    EG_EXPECT_EQ_U(eg_vm_jit_pages_used(), 0u);
}

/* 12 registers through a 6-slot cache: loads hoisted above BLOCK 0 (as the compiler emits
 * FragCoord), then a chain whose operands were evicted long before, every register stored at
 * the end. With all 16 lanes active the whole program runs as one function, whose registers
 * live in ymm and reach memory only when evicted while read later: every output's bits are the
 * threaded code's and the switch interpreter's (any NaN for a NaN: payload order, see above). */
EG_TEST(soft_jit, whole_program_equals_threaded_and_switch)
{
    if (!jit_usable()) EG_NOT_APPLICABLE("no AVX2 on this CPU, or no threaded code (EMGPU_SOFT_SIMD 0)");
    static const uint16_t ops[] = { EG_VM_FADD, EG_VM_FMUL, EG_VM_FFRACT, EG_VM_FMIX, EG_VM_FMIN, EG_VM_FSUB,
                                    EG_VM_FFMA, EG_VM_FCLAMP, EG_VM_FMAX, EG_VM_FGE, EG_VM_SELECT, EG_VM_FABS };
    static eg_soft_vec4_t got[3][3];                         /* [mode][location] */
    uint32_t n = 0;
    for (uint16_t k = 0; k < 2; k++)                         /* before BLOCK 0, as compiled FragCoord */
        jit_code[n++] = (eg_vm_inst_t){ EG_VM_LD_SYS, k, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE,
                                        EG_VM_SYS_FRAG_COORD + k };
    jit_code[n++] = (eg_vm_inst_t){ .op = EG_VM_BLOCK, .imm = 0, .a = 0, .b = 0 };
    for (uint16_t k = 2; k < 5; k++)
        jit_code[n++] = (eg_vm_inst_t){ EG_VM_LD_IN, k, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, k - 2u };
    for (uint16_t k = 5; k < 12; k++)                        /* every register written before it is read */
        jit_code[n++] = (eg_vm_inst_t){ EG_VM_FADD, k, (uint16_t)(k - 5u), (uint16_t)(EG_VM_CONST_BASE + k % 3u),
                                        EG_VM_NONE, EG_VM_NONE, 0 };
    for (uint32_t i = 0; i < 48u; i++) {
        uint16_t b = (uint16_t)(i % 4u == 3u ? EG_VM_CONST_BASE + i % 3u : (i * 3u + 1u) % 12u);
        jit_code[n++] = (eg_vm_inst_t){ ops[i % EG_ARRAY_LEN(ops)], (uint16_t)((i * 5u + 2u) % 12u),
                                        (uint16_t)((i * 7u + 3u) % 12u), b, (uint16_t)((i * 11u + 6u) % 12u),
                                        EG_VM_NONE, 0 };
    }
    for (uint16_t k = 0; k < 12; k++)
        jit_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, k, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, k };
    jit_code[n++] = (eg_vm_inst_t){ .op = EG_VM_END };
    jit_code[2].a = (uint16_t)(n - 1u);                      /* BLOCK's skip target: the END */
    jit_program(n);
    jit_p.reg_count = 12;
    for (uint32_t c = 0; c < 3; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            jit_in[0].c[c].u[l] = jit_special[(l * 5u + c * 3u) % 24u];
            jit_consts[c].u[l] = jit_special[(c * 9u + 17u) % 24u];
        }
    uint32_t lane0[EG_SOFT_LANES], bad = 0;
    /* the JIT first: the others leave the right values in the stack's register file, where a
     * missing write-back would read them */
    for (uint32_t m = 3; m-- > 0;) {
        if (!jit_run(m, EG_SOFT_ALL_LANES, lane0)) { eg_test_fail(__FILE__, __LINE__, "eg_vm_jit_build failed"); return; }
        if (m == 2) EG_EXPECT(jit_p.jit_whole_at != 0u); /* (the whole-program function ran) */
        eg_memcpy(got[m], jit_out, sizeof got[m]);
    }
    for (uint32_t r = 0; r < 12u; r++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            uint32_t sw = got[0][r / 4u].c[r % 4u].u[l], th = got[1][r / 4u].c[r % 4u].u[l];
            uint32_t jt = got[2][r / 4u].c[r % 4u].u[l];
            bool nan_ok = jit_is_nan(jt) && jit_is_nan(th) && jit_is_nan(sw);
            if ((jt == th && jt == sw) || nan_ok) continue;
            if (bad++ < 4u)
                eg_test_printf("    register %u lane %u: jit %08x threaded %08x switch %08x\n", (unsigned)r,
                               (unsigned)l, (unsigned)jt, (unsigned)th, (unsigned)sw);
        }
    EG_EXPECT_EQ_U(bad, 0u);
    jit_release_prev();
    EG_EXPECT_EQ_U(eg_vm_jit_pages_used(), 0u);
}

/* The rows function (soft_jit.c j_rows): per block the whole program, then out[0] packed to
 * RGBA8 or BGRA8 bytes, rows advancing 16 bytes and FragCoord.x 4.0. Against the whole-program
 * function run block by block with x set to (4 b + column) + 0.5 and each byte computed here by
 * WebGPU's unorm conversion as soft_raster_output.c writes it, (int)(clamp(v, 0, 1) * 255 + 0.5)
 * with NaN -> 0: 3 blocks into a 12 px wide target of pitch 52 (4 bytes of padding per row,
 * which must stay as they were). The stored components: a raw input (special values: NaNs,
 * infinities, -0, denormals, > 1), FRACT of x * constant, a FMIX with a constant weight, a
 * constant; with BGRA8 the bytes swap R and B. Fails with the halves' rows swapped, the clamps'
 * operands swapped (NaN lanes), or x not stepped. */
EG_TEST(soft_jit, rows_equal_whole_program_and_pack)
{
    if (!jit_usable()) EG_NOT_APPLICABLE("no AVX2 on this CPU, or no threaded code (EMGPU_SOFT_SIMD 0)");
    uint32_t n = 0;
    for (uint16_t k = 0; k < 2; k++)
        jit_code[n++] = (eg_vm_inst_t){ EG_VM_LD_SYS, k, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE,
                                        EG_VM_SYS_FRAG_COORD + k };
    jit_code[n++] = (eg_vm_inst_t){ .op = EG_VM_BLOCK, .imm = 0, .a = 0, .b = 0 };
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_LD_IN, 2, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0 };
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_FMUL, 3, 0, EG_VM_CONST_BASE + 0, EG_VM_NONE, EG_VM_NONE, 0 };
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_FFRACT, 4, 3, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0 };
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_FMUL, 5, 1, EG_VM_CONST_BASE + 1, EG_VM_NONE, EG_VM_NONE, 0 };
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_FMIX, 6, 5, 4, EG_VM_CONST_BASE + 2, EG_VM_NONE, 0 };
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, 2, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0 };
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, 4, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 1 };
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, 6, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 2 };
    jit_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, EG_VM_CONST_BASE + 1, EG_VM_NONE, EG_VM_NONE,
                                    EG_VM_NONE, 3 };
    jit_code[n++] = (eg_vm_inst_t){ .op = EG_VM_END };
    jit_code[2].a = (uint16_t)(n - 1u);
    jit_program(n);
    jit_p.reg_count = 7;
    static const float kv[3] = { 0.37f, 0.0625f, 0.25f };
    for (uint32_t c = 0; c < 3; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            union { float f; uint32_t u; } k = { kv[c] };
            jit_consts[c].u[l] = k.u;
            jit_in[0].c[0].u[l] = jit_special[(l * 5u + 2u) % 24u];
        }
    jit_p.thread = NULL;
    eg_vm_thread_build(&jit_p, jit_thread_mem, 0);
    if (!eg_vm_jit_build(&jit_p)) { eg_test_fail(__FILE__, __LINE__, "eg_vm_jit_build failed"); return; }
    if (!jit_p.jit_rows_at[0] || !jit_p.jit_rows_at[1]) {
        eg_vm_jit_free(&jit_p);
        EG_NOT_APPLICABLE("no rows function on this ABI (Windows x64)");
    }
    static const uint8_t orders[2][4] = { { 0, 1, 2, 3 }, { 2, 1, 0, 3 } };
    static eg_soft_reg_t regs[EMGPU_SOFT_VM_MAX_REGS];
    uint32_t bad = 0, nonzero = 0;
    for (uint32_t o = 0; o < 2u; o++) {
        enum { PITCH = 52, BLOCKS = 3 };
        static uint8_t got[4 * PITCH], want[4 * PITCH];
        eg_memset(got, 0xab, sizeof got);
        eg_memset(want, 0xab, sizeof want);
        eg_soft_invocation_t inv = { .in = jit_in, .out = jit_out, .active = EG_SOFT_ALL_LANES };
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
            inv.position.c[0].f[l] = (float)(l & 3u) + 0.5f;
            inv.position.c[1].f[l] = (float)(l >> 2) + 7.5f;
        }
        eg_vm_jit_rows_t a;
        for (uint32_t r = 0; r < 4u; r++) a.row[r] = got + r * PITCH;
        a.n = BLOCKS;
        ((eg_vm_jit_rows_fn_t)(uintptr_t)(jit_p.jit + jit_p.jit_rows_at[o]))(regs, &inv, &a);
        EG_EXPECT(inv.position.c[0].f[5] == 1.5f + 4.0f * BLOCKS);   /* x stepped per block */
        for (uint32_t b = 0; b < BLOCKS; b++) {
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv.position.c[0].f[l] = (float)(4u * b + (l & 3u)) + 0.5f;
            ((eg_vm_jit_whole_fn_t)(uintptr_t)(jit_p.jit + jit_p.jit_whole_at))(regs, &inv);
            for (uint32_t l = 0; l < EG_SOFT_LANES; l++)
                for (uint32_t k = 0; k < 4u; k++) {
                    float v = jit_out[0].c[orders[o][k]].f[l];
                    float cl = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;   /* NaN fails v > 0: 0 */
                    uint8_t byte = (uint8_t)(int32_t)(cl * 255.0f + 0.5f);
                    want[(l >> 2) * PITCH + (4u * b + (l & 3u)) * 4u + k] = byte;
                    nonzero += byte != 0u && byte != 255u;
                }
        }
        for (uint32_t i = 0; i < sizeof got; i++)
            if (got[i] != want[i] && bad++ < 4u)
                eg_test_printf("    order %u byte %u (row %u): rows %02x, whole + pack %02x\n", (unsigned)o,
                               (unsigned)i, (unsigned)(i / PITCH), got[i], want[i]);
    }
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(nonzero > 40u);   /* the values are not all clamped */
    eg_vm_jit_free(&jit_p);
    EG_EXPECT_EQ_U(eg_vm_jit_pages_used(), 0u);
}

#endif /* EMGPU_HAL_SOFT && EMGPU_SOFT_JIT */

#if EMGPU_HAL_SOFT
/* The knob: with EMGPU_SOFT_JIT 0 (every board but x86-64, or set off) nothing is translated,
 * whatever the CPU, and the interpreter's entry points see p->jit NULL. */
EG_TEST(soft_jit, knob_decides_availability)
{
    static eg_soft_program_t p;
    eg_memset(&p, 0, sizeof p);
#if !EMGPU_SOFT_JIT
    EG_EXPECT(!eg_vm_jit_available());
#endif
    EG_EXPECT(!eg_vm_jit_build(&p));                         /* nothing threaded: no code either way */
    EG_EXPECT(p.jit == NULL);
    eg_vm_jit_free(&p);
    EG_EXPECT_EQ_U(eg_vm_jit_pages_used(), 0u);
}
#endif
