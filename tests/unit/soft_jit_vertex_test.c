/* Vertex programs as one JIT function (helper "vtx11"): soft_jit.c translates ST_POS (threaded
 * as th_st_pos / th_st_pos_k) and, in vertex programs only, uniform loads (LDBUF at a fixed
 * address), whose words eg_soft_program_run reads with memory_op's range check and writes after
 * the program's registers for the code to broadcast. Hand-made bytecode over a real bound
 * uniform buffer: positions and outputs of the whole-program function, the threaded runs and
 * the switch interpreter, bit for bit, with all 16 lanes (the whole function) and a partial
 * mask (runs, the switch storing ST_POS / ST_OUT); loads in range, past the bound size and
 * misaligned (both read 0). */
#include "tests/unit/cmd_test_util.h"

#include "tests/harness/harness.h"

#if EMGPU_HAL_SOFT
#include "hal/soft/soft_internal.h"
#include "hal/soft/soft_jit.h"
#include "hal/soft/soft_shader.h"
#include "hal/soft/soft_vm.h"
#include "kernel/api/bind_group.h"
#endif

#if EMGPU_HAL_SOFT && EMGPU_SOFT_JIT

#define VJ_MAX_CODE 96u
#define VJ_REGS 20u
static eg_vm_inst_t vj_code[VJ_MAX_CODE];
static struct { uint64_t w[3]; } vj_thread_mem[VJ_MAX_CODE];   /* eg_vm_thread_size_B per instruction */
static eg_soft_reg_t vj_consts[2];
static const uint32_t vj_block_pc[1] = { 0 };
static eg_soft_vec4_t vj_in[EG_SOFT_MAX_LOCATIONS], vj_out[EG_SOFT_MAX_LOCATIONS];
static eg_soft_program_t vj_p;
static struct WGPUBindGroupImpl vj_bg;

/* Lane values: signed zeros, NaNs, infinities, denormals, ordinary values (as soft_jit_test). */
static const uint32_t vj_special[12] = { 0x80000000u, 0x00000000u, 0x7fc00000u, 0x7f800000u, 0xff800000u,
                                         0x00000001u, 0x3f800000u, 0xbf000000u, 0x4b000001u, 0xc0490fdbu,
                                         0x3effffffu, 0x7f7fffffu };

/* mode 0 switch, 1 threaded, 2 JIT; out: ST_OUT locations 0-1 then the 4 position components */
static bool vj_run(uint32_t mode, eg_soft_mask_t active, const eg_soft_bound_t *bound, eg_soft_vec4_t got[3])
{
    vj_p.thread = NULL;
    vj_p.jit = NULL;
    vj_p.jit_whole_at = 0;
    vj_p.jit_ld_count = 0;
    if (mode) eg_vm_thread_build(&vj_p, vj_thread_mem, 0);
    if (mode == 2 && !eg_vm_jit_build(&vj_p)) return false;
    eg_soft_invocation_t inv = { .in = vj_in, .out = vj_out, .active = active };
    for (uint32_t c = 0; c < 4u; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) inv.position.c[c].u[l] = 0x5a5a5a5au;
    eg_memset(vj_out, 0x5a, sizeof vj_out);
    eg_soft_program_run(&vj_p, bound, &inv);
    got[0] = vj_out[0];
    got[1] = vj_out[1];
    got[2] = inv.position;
    return true;
}

static bool vj_nan(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu); }

EG_TEST(soft_jit_vertex, whole_vertex_program_equals_threaded_and_switch)
{
    if (!eg_vm_jit_available() || !eg_vm_thread_widths())
        EG_NOT_APPLICABLE("no AVX2 on this CPU, or no threaded code (EMGPU_SOFT_SIMD 0)");
    WGPUDevice d = eg_test_device("soft");
    if (!d) EG_SKIP("soft backend not compiled in");
    /* soft internals (EMGPU_TEST_BACKEND runs the suite on another backend) */
    if (eg_strcmp(eg_test_backend(), "soft")) { eg_test_device_release(); EG_NOT_APPLICABLE("soft-only path"); }
    WGPUBuffer ub = t_buffer(d, WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst, 64);
    uint8_t *mem = eg_soft_buffer_mem(ub);
    for (uint32_t k = 0; k < 16u; k++) {
        uint32_t v = vj_special[(k * 5u + 3u) % 12u];
        eg_memcpy(mem + 4u * k, &v, 4);
    }
    /* bound: bytes 0 .. 55 (words 14 and 15 lie past it and read 0) */
    eg_memset(&vj_bg, 0, sizeof vj_bg);
    vj_bg.entry_count = 1;
    vj_bg.entries[0] = (eg_bind_entry_t){ .binding = 0, .buffer = ub, .offset_B = 0, .size_B = 56 };
    eg_soft_bound_t bound;
    eg_memset(&bound, 0, sizeof bound);
    bound.groups[0] = &vj_bg;

    /* 16 uniform loads (the most one function takes): words 0 .. 14 and one misaligned address;
     * 4 inputs; each output a product or sum of an input and a word; ST_POS from registers and
     * from the constants (z = 0, w = 1 as a compiled gl_Position = vec4(.., 0, 1)) */
    uint32_t n = 0;
    const uint16_t K = EG_VM_CONST_BASE;
    for (uint16_t k = 0; k < 4u; k++)
        vj_code[n++] = (eg_vm_inst_t){ EG_VM_LD_IN, k, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, k };
    vj_code[n++] = (eg_vm_inst_t){ .op = EG_VM_BLOCK, .imm = 0, .a = 0, .b = 0 };
    for (uint16_t k = 0; k < 16u; k++)
        vj_code[n++] = (eg_vm_inst_t){ EG_VM_LDBUF, (uint16_t)(4u + k), EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0,
                                       k == 15u ? 2u : 4u * k };
    for (uint16_t k = 0; k < 8u; k++)   /* out0.xyzw, out1.xyzw */
        vj_code[n++] = (eg_vm_inst_t){ k & 1u ? EG_VM_FADD : EG_VM_FMUL, (uint16_t)(4u + k), (uint16_t)(k % 4u),
                                       (uint16_t)(4u + 2u * k), EG_VM_NONE, EG_VM_NONE, 0 };
    for (uint16_t k = 0; k < 8u; k++)
        vj_code[n++] = (eg_vm_inst_t){ EG_VM_ST_OUT, EG_VM_NONE, (uint16_t)(4u + k), EG_VM_NONE, EG_VM_NONE,
                                       EG_VM_NONE, k };
    vj_code[n++] = (eg_vm_inst_t){ EG_VM_ST_POS, EG_VM_NONE, 5, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0 };
    vj_code[n++] = (eg_vm_inst_t){ EG_VM_ST_POS, EG_VM_NONE, 19, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 1 };
    vj_code[n++] = (eg_vm_inst_t){ EG_VM_ST_POS, EG_VM_NONE, K, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 2 };
    vj_code[n++] = (eg_vm_inst_t){ EG_VM_ST_POS, EG_VM_NONE, (uint16_t)(K + 1u), EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 3 };
    vj_code[n++] = (eg_vm_inst_t){ .op = EG_VM_END };
    vj_code[4].a = (uint16_t)(n - 1u);   /* BLOCK's skip target: the END */

    eg_memset(&vj_p, 0, sizeof vj_p);
    vj_p.info.stage = EG_SHADER_STAGE_VERTEX;
    vj_p.code = vj_code;
    vj_p.code_count = n;
    vj_p.consts = vj_consts;
    vj_p.const_count = 2;
    vj_p.reg_count = VJ_REGS;
    vj_p.block_count = 1;
    vj_p.block_pc = vj_block_pc;
    vj_p.slot_count = 1;
    vj_p.slots[0] = (eg_vm_slot_t){ 0, 0, 0, 0 };
    for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
        vj_consts[0].u[l] = 0x00000000u;
        vj_consts[1].u[l] = 0x3f800000u;
        for (uint32_t c = 0; c < 4u; c++) vj_in[0].c[c].u[l] = vj_special[(l * 7u + c * 3u) % 12u];
    }
    static const eg_soft_mask_t masks[2] = { EG_SOFT_ALL_LANES, 0x0b6du };
    uint32_t bad = 0;
    for (uint32_t mi = 0; mi < 2u; mi++) {
        eg_soft_vec4_t got[3][3];   /* [mode][out0, out1, position] */
        for (uint32_t m = 3; m-- > 0;) {
            if (!vj_run(m, masks[mi], &bound, got[m])) { eg_test_fail(__FILE__, __LINE__, "eg_vm_jit_build failed"); goto done; }
            if (m == 2) {
                EG_EXPECT(vj_p.jit_whole_at != 0u);   /* (the whole-program function exists) */
                EG_EXPECT_EQ_U(vj_p.jit_ld_count, 16u);
                eg_vm_jit_free(&vj_p);
            }
        }
        for (uint32_t v = 0; v < 3u; v++)
            for (uint32_t c = 0; c < 4u; c++)
                for (uint32_t l = 0; l < EG_SOFT_LANES; l++) {
                    uint32_t sw = got[0][v].c[c].u[l], th = got[1][v].c[c].u[l], jt = got[2][v].c[c].u[l];
                    if ((jt == th && jt == sw) || (vj_nan(jt) && vj_nan(th) && vj_nan(sw))) continue;
                    if (bad++ < 4u)
                        eg_test_printf("    mask %04x %s %u.%u lane %u: jit %08x threaded %08x switch %08x\n",
                                       (unsigned)masks[mi], v < 2u ? "out" : "position", (unsigned)v, (unsigned)c,
                                       (unsigned)l, (unsigned)jt, (unsigned)th, (unsigned)sw);
                }
    }
    EG_EXPECT_EQ_U(bad, 0u);
done:
    wgpuBufferRelease(ub);
    eg_test_device_release();
}

#endif
