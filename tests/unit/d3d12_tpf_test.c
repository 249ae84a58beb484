/* DXBC (TPF) emitter tests: the container checksum on every board; emitted containers where the emitter is built. */
#include <string.h>

#include "hal/d3d12/d3d_tpf.h"
#include "tests/harness/harness.h"
#include "tests/shaders/spv_embed.h"
#include "tests/unit/d3d12_shader_spv.h"

/* The hand-assembled ps_5_0 of hal/d3d12/poc/dxbc_poc.py ("make"): ISGN empty, OSGN SV_Target0,
 * SHEX dcl_globalFlags / dcl_output o0.xyzw / mov o0, l(1,0,0,1) / ret. Its checksum (bytes 4..20)
 * was computed by the poc's independent Python implementation, which reproduces the checksums
 * of containers written by vkd3d's compiler byte for byte and drew under wine (README.md). */
static const uint8_t red_ps[180] = {
    0x44,0x58,0x42,0x43,0xee,0x4d,0x0b,0x94,0x29,0xee,0x02,0x01,0x63,0xa4,0x5d,0xf3,0x4f,0x56,0xe1,0xb1,
    0x01,0x00,0x00,0x00,0xb4,0x00,0x00,0x00,0x03,0x00,0x00,0x00,0x2c,0x00,0x00,0x00,0x3c,0x00,0x00,0x00,
    0x70,0x00,0x00,0x00,0x49,0x53,0x47,0x4e,0x08,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x08,0x00,0x00,0x00,
    0x4f,0x53,0x47,0x4e,0x2c,0x00,0x00,0x00,0x01,0x00,0x00,0x00,0x08,0x00,0x00,0x00,0x20,0x00,0x00,0x00,
    0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x03,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x0f,0x00,0x00,0x00,
    0x53,0x56,0x5f,0x54,0x61,0x72,0x67,0x65,0x74,0x00,0xab,0xab,0x53,0x48,0x45,0x58,0x3c,0x00,0x00,0x00,
    0x50,0x00,0x00,0x00,0x0f,0x00,0x00,0x00,0x6a,0x08,0x00,0x01,0x65,0x00,0x00,0x03,0xf2,0x20,0x10,0x00,
    0x00,0x00,0x00,0x00,0x36,0x00,0x00,0x08,0xf2,0x20,0x10,0x00,0x00,0x00,0x00,0x00,0x02,0x40,0x00,0x00,
    0x00,0x00,0x80,0x3f,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x80,0x3f,0x3e,0x00,0x00,0x01 };

EG_TEST(d3d12_tpf, checksum_of_poc_pixel_shader)
{
    uint8_t buf[sizeof red_ps];
    memcpy(buf, red_ps, sizeof buf);
    memset(buf + 4, 0, 16);
    eg_d3d_tpf_checksum(buf, sizeof buf);
    EG_EXPECT(memcmp(buf, red_ps, sizeof buf) == 0);
    /* The checksum covers the bytes after it: flipping one changes it. */
    buf[100] ^= 1;
    eg_d3d_tpf_checksum(buf, sizeof buf);
    EG_EXPECT(memcmp(buf + 4, red_ps + 4, 16) != 0);
}

/* 124 bytes after the header leave a 60-byte tail: the case with the extra padding block. The
 * expected bytes come from poc/dxbc_poc.py's dxbc_checksum over the same bytes ((i*7+3) & 255);
 * 128 bytes (no tail) likewise ((i*13+1) & 255). */
EG_TEST(d3d12_tpf, checksum_long_tail_and_whole_blocks)
{
    static const uint8_t want_tail[16] = { 0x8c,0xb6,0x9a,0xb8,0x4e,0xe7,0x8b,0x5c,0xc8,0x82,0x8b,0xaf,0x8e,0x9f,0x8b,0xab };
    static const uint8_t want_whole[16] = { 0xce,0x20,0xef,0x91,0xc3,0xf0,0x3b,0x0f,0x82,0xde,0xeb,0xb6,0x25,0x83,0x64,0xaa };
    uint8_t buf[20 + 128];
    for (uint32_t i = 0; i < 124; i++) buf[20 + i] = (uint8_t)((i * 7 + 3) & 255);
    eg_d3d_tpf_checksum(buf, 20 + 124);
    EG_EXPECT(memcmp(buf + 4, want_tail, 16) == 0);
    for (uint32_t i = 0; i < 128; i++) buf[20 + i] = (uint8_t)((i * 13 + 1) & 255);
    eg_d3d_tpf_checksum(buf, 20 + 128);
    EG_EXPECT(memcmp(buf + 4, want_whole, 16) == 0);
}

/* ---- emitted containers (boards that build the emitter: EMGPU_D3D12_TPF) ---- */
#if EMGPU_D3D12_TPF

#include "kernel/shader/ir.h"

static uint8_t g_tpf_mem[192u * 1024u];
static eg_arena_t g_tpf_arena;
static eg_spirv_module_t g_tpf_mod;
static eg_ir_t g_tpf_ir;

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* Emits tests/shaders/<name>'s entry point of `stage`. */
static bool tpf_emit_shader(const char *name, eg_shader_stage_t stage, const eg_d3d_tpf_constant_t *k, uint32_t nk,
                            eg_d3d_tpf_out_t *out, eg_d3d_tpf_error_t *err)
{
    const eg_test_spv_t *spv = eg_test_spv(name);
    if (!spv) return false;
    eg_arena_init(&g_tpf_arena, "tpf test arena", "g_tpf_mem", g_tpf_mem, sizeof g_tpf_mem);
    eg_spirv_error_t serr;
    eg_ir_error_t ierr;
    if (!eg_spirv_parse(&g_tpf_mod, spv->words, spv->word_count, &g_tpf_arena, &serr)) return false;
    const eg_shader_entry_t *e = eg_spirv_find_entry(&g_tpf_mod, stage, "main");
    if (!e || !eg_ir_build(&g_tpf_mod, e, &g_tpf_arena, &g_tpf_ir, &ierr)) return false;
    eg_d3d_tpf_in_t in = { &g_tpf_ir, k, nk };
    return eg_d3d_tpf_emit(&in, &g_tpf_arena, out, err);
}

/* The chunk with `tag`, or NULL; *size_B its payload size. */
static const uint8_t *tpf_chunk(const eg_d3d_tpf_out_t *o, const char *tag, uint32_t *size_B)
{
    uint32_t n = rd32(o->bytes + 28);
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *c = o->bytes + rd32(o->bytes + 32 + 4 * i);
        if (memcmp(c, tag, 4) == 0) { *size_B = rd32(c + 4); return c + 8; }
    }
    return NULL;
}

/* Signature element `i`: name, semantic index, register (DXBC ISGN/OSGN records of 24 bytes). */
static const char *tpf_sig(const uint8_t *sig, uint32_t i, uint32_t *index, uint32_t *reg)
{
    const uint8_t *r = sig + 8 + 24 * i;
    *index = rd32(r + 4);
    *reg = rd32(r + 16);
    return (const char *)sig + rd32(r);
}

/* Position of token pair (a, b) in the SHEX chunk, or -1. */
static int tpf_find2(const uint8_t *shex, uint32_t size_B, uint32_t a, uint32_t b)
{
    for (uint32_t i = 8; i + 8 <= size_B; i += 4)
        if (rd32(shex + i) == a && rd32(shex + i + 4) == b) return (int)i;
    return -1;
}

EG_TEST(d3d12_tpf, fragment_container_layout)
{
    eg_d3d_tpf_out_t o;
    eg_d3d_tpf_error_t err;
    EG_ASSERT(tpf_emit_shader("draw_color.frag", EG_SHADER_STAGE_FRAGMENT, NULL, 0, &o, &err));
    EG_EXPECT(memcmp(o.bytes, "DXBC", 4) == 0);
    EG_EXPECT_EQ_U(rd32(o.bytes + 20), 1);                 /* container version */
    EG_EXPECT_EQ_U(rd32(o.bytes + 24), o.size_B);          /* total size */
    static uint8_t copy[4096];
    EG_ASSERT(o.size_B <= sizeof copy);
    memcpy(copy, o.bytes, o.size_B);
    memset(copy + 4, 0, 16);
    eg_d3d_tpf_checksum(copy, o.size_B);
    EG_EXPECT(memcmp(copy + 4, o.bytes + 4, 16) == 0);     /* the written checksum is the container's */
    uint32_t sz, idx, reg;
    const uint8_t *isgn = tpf_chunk(&o, "ISGN", &sz), *osgn = tpf_chunk(&o, "OSGN", &sz);
    EG_ASSERT(isgn && osgn);
    /* in vec4 v_color at location 0 = TEXCOORD0 in register 1 (0 is SV_Position, d3d_tpf.h). */
    EG_EXPECT_EQ_U(rd32(isgn), 1);
    EG_EXPECT(strcmp(tpf_sig(isgn, 0, &idx, &reg), "TEXCOORD") == 0);
    EG_EXPECT_EQ_U(idx, 0);
    EG_EXPECT_EQ_U(reg, 1);
    EG_EXPECT_EQ_U(rd32(osgn), 1);
    EG_EXPECT(strcmp(tpf_sig(osgn, 0, &idx, &reg), "SV_Target") == 0);
    EG_EXPECT_EQ_U(reg, 0);
    const uint8_t *shex = tpf_chunk(&o, "SHEX", &sz);
    EG_ASSERT(shex);
    EG_EXPECT_EQ_U(rd32(shex), 0x51u);                      /* pixel shader, model 5.1 */
    EG_EXPECT_EQ_U(rd32(shex + 4) * 4u, sz);                /* token count covers the chunk */
    EG_EXPECT(!o.uses_sysvals);
}

EG_TEST(d3d12_tpf, vertex_signature_and_sysvals)
{
    eg_d3d_tpf_out_t o;
    eg_d3d_tpf_error_t err;
    EG_ASSERT(tpf_emit_shader("basic.vert", EG_SHADER_STAGE_VERTEX, NULL, 0, &o, &err));
    uint32_t sz, idx, reg, seen = 0;
    const uint8_t *isgn = tpf_chunk(&o, "ISGN", &sz), *osgn = tpf_chunk(&o, "OSGN", &sz);
    EG_ASSERT(isgn && osgn);
    /* basic.vert: attributes at locations 0..2 = TEXCOORD0..2 in registers 0..2, plus
     * gl_VertexIndex / gl_InstanceIndex as SV_VertexID / SV_InstanceID. */
    for (uint32_t i = 0; i < rd32(isgn); i++) {
        const char *name = tpf_sig(isgn, i, &idx, &reg);
        if (strcmp(name, "TEXCOORD") == 0 && idx == reg && idx < 3) seen |= 1u << idx;
        if (strcmp(name, "SV_VertexID") == 0) seen |= 8;
        if (strcmp(name, "SV_InstanceID") == 0) seen |= 16;
    }
    EG_EXPECT_EQ_U(seen, 31);
    seen = 0;
    for (uint32_t i = 0; i < rd32(osgn); i++) {
        const char *name = tpf_sig(osgn, i, &idx, &reg);
        if (strcmp(name, "SV_Position") == 0 && reg == 0) seen |= 1;
        if (strcmp(name, "TEXCOORD") == 0 && reg == idx + 1u) seen |= 2u << idx;
    }
    EG_EXPECT_EQ_U(seen, 7);
    const uint8_t *shex = tpf_chunk(&o, "SHEX", &sz);
    EG_EXPECT_EQ_U(rd32(shex), 0x10051u);                   /* vertex shader, model 5.1 */
    EG_EXPECT(o.uses_sysvals);                              /* first vertex / first instance */
}

EG_TEST(d3d12_tpf, compute_thread_group_and_workgroup_memory)
{
    eg_d3d_tpf_out_t o;
    eg_d3d_tpf_error_t err;
    uint32_t sz;
    EG_ASSERT(tpf_emit_shader("reduce.comp", EG_SHADER_STAGE_COMPUTE, NULL, 0, &o, &err));
    const uint8_t *shex = tpf_chunk(&o, "SHEX", &sz);
    EG_ASSERT(shex);
    EG_EXPECT_EQ_U(rd32(shex), 0x50051u);                   /* compute shader, model 5.1 */
    /* dcl_thread_group 8, 4, 1 (reduce.comp's local_size): opcode 0x9b, 4 dwords. */
    int at = tpf_find2(shex, sz, 0x9bu | 4u << 24, 8);
    EG_ASSERT(at >= 0);
    EG_EXPECT_EQ_U(rd32(shex + at + 8), 4);
    EG_EXPECT_EQ_U(rd32(shex + at + 12), 1);
    /* shared float partial[32]: dcl_tgsm_raw g0, 128 bytes (opcode 0x9f, 4 dwords). */
    EG_EXPECT(tpf_find2(shex, sz, 0x9fu | 4u << 24, 0x1f << 12 | 1u << 20) >= 0);
    EG_EXPECT(!o.uses_sysvals);
    EG_ASSERT(tpf_emit_shader("d3d12_sysvals.comp", EG_SHADER_STAGE_COMPUTE, NULL, 0, &o, &err));
    EG_EXPECT(o.uses_sysvals);                              /* gl_NumWorkGroups: root constants */
}

EG_TEST(d3d12_tpf, spec_constant_override)
{
    eg_d3d_tpf_out_t o;
    eg_d3d_tpf_error_t err;
    uint32_t sz;
    /* iface_store.comp: float(SCALE) with SCALE = SpecId 3, default 2: utof of an immediate
     * (operand token 0x4001 = one 32-bit immediate, then its value). */
    EG_ASSERT(tpf_emit_shader("iface_store.comp", EG_SHADER_STAGE_COMPUTE, NULL, 0, &o, &err));
    const uint8_t *shex = tpf_chunk(&o, "SHEX", &sz);
    EG_EXPECT(tpf_find2(shex, sz, 0x4001, 7) < 0);
    eg_d3d_tpf_constant_t k = { 3, 7 };
    EG_ASSERT(tpf_emit_shader("iface_store.comp", EG_SHADER_STAGE_COMPUTE, &k, 1, &o, &err));
    shex = tpf_chunk(&o, "SHEX", &sz);
    EG_EXPECT(tpf_find2(shex, sz, 0x4001, 7) >= 0);
}

EG_TEST(d3d12_tpf, arena_too_small_names_its_knob)
{
    eg_d3d_tpf_out_t o;
    eg_d3d_tpf_error_t err;
    EG_ASSERT(tpf_emit_shader("draw_color.frag", EG_SHADER_STAGE_FRAGMENT, NULL, 0, &o, &err));
    /* The same IR into an arena with 64 bytes left. */
    static uint8_t small[64];
    eg_arena_t a;
    eg_arena_init(&a, "pipeline scratch", "EMGPU_TEST_SMALL_KNOB", small, sizeof small);
    eg_d3d_tpf_in_t in = { &g_tpf_ir, NULL, 0 };
    EG_EXPECT(!eg_d3d_tpf_emit(&in, &a, &o, &err));
    EG_EXPECT_STR_CONTAINS(err.message, "EMGPU_TEST_SMALL_KNOB");
    EG_EXPECT_EQ_U(a.used_B, 0);                            /* nothing kept on failure */
}

/* Atomics on a storage texel: imm_atomic_* (opcodes 0xb4 iadd, 0xbc umax, 0xb9 cmp_exch, 0xb6 or)
 * on the typed UAV u# of the r32uint image, declared with dcl_uav_typed (0x9c) returning uint
 * (4 per component: 0x4444). No raw UAV atomics: the address is the texel coordinate. */
EG_TEST(d3d12_tpf, storage_texel_atomics_are_typed_uav_atomics)
{
    eg_d3d_tpf_out_t o;
    eg_d3d_tpf_error_t err;
    uint32_t sz, seen = 0;
    EG_ASSERT(tpf_emit_shader("lower_img_atomic.comp", EG_SHADER_STAGE_COMPUTE, NULL, 0, &o, &err));
    const uint8_t *shex = tpf_chunk(&o, "SHEX", &sz);
    EG_ASSERT(shex);
    for (uint32_t i = 8; i + 4 <= sz; i += 4) {
        uint32_t tok = rd32(shex + i), op = tok & 0x7ffu, len = tok >> 24 & 0x7fu;
        if (op == 0xb4u) seen |= 1;
        if (op == 0xbcu) seen |= 2;
        if (op == 0xb9u) seen |= 4;
        if (op == 0xb6u) seen |= 8;
        if (op == 0x9cu && i + 4u * len <= sz && rd32(shex + i + 4u * (len - 2u)) == 0x4444u) seen |= 16;
        if (len) i += 4u * (len - 1u);          /* next instruction */
    }
    EG_EXPECT_EQ_U(seen, 31);
}

/* Interpolation modes of pixel-shader inputs (dcl_input_ps, opcode 0x62, mode in bits 11..14):
 * centroid -> linear_centroid (3), centroid noperspective -> linear_noperspective_centroid (5),
 * flat -> constant (1); lower_centroid.frag's locations 0..2 are input registers 1..3. */
EG_TEST(d3d12_tpf, centroid_and_flat_interpolation_modes)
{
    eg_d3d_tpf_out_t o;
    eg_d3d_tpf_error_t err;
    uint32_t sz, mode[4] = { 0 };
    EG_ASSERT(tpf_emit_shader("lower_centroid.frag", EG_SHADER_STAGE_FRAGMENT, NULL, 0, &o, &err));
    const uint8_t *shex = tpf_chunk(&o, "SHEX", &sz);
    EG_ASSERT(shex);
    for (uint32_t i = 8; i + 12 <= sz; i += 4) {
        uint32_t tok = rd32(shex + i), len = tok >> 24 & 0x7fu, reg = rd32(shex + i + 8);
        if ((tok & 0x7ffu) == 0x62u && len == 3 && reg >= 1 && reg <= 3) mode[reg] = tok >> 11 & 0xfu;
        if (len) i += 4u * (len - 1u);
    }
    EG_EXPECT_EQ_U(mode[1], 3);
    EG_EXPECT_EQ_U(mode[2], 5);
    EG_EXPECT_EQ_U(mode[3], 1);
}

/* GLSL.std.450 IMix (47) is reserved in the GLSL.std.450 spec: the front end refuses it by name
 * (session 5), so it never reaches the emitter (which would refuse it too). lower_forms's
 * ModfStruct (36) patched to 47. */
EG_TEST(d3d12_tpf, reserved_imix_is_refused_by_name)
{
    static uint32_t words[sizeof eg_spv_lower_forms / 4u];
    memcpy(words, eg_spv_lower_forms, sizeof words);
    uint32_t patched = 0;
    for (uint32_t i = 5; i + 4 < EG_ARRAY_LEN(words); i++)    /* OpExtInst (6 words): type result set 36 x */
        if (words[i] == (6u << 16 | 12u) && words[i + 4] == 36u) { words[i + 4] = 47u; patched++; }
    EG_ASSERT(patched == 1);
    eg_arena_init(&g_tpf_arena, "tpf test arena", "g_tpf_mem", g_tpf_mem, sizeof g_tpf_mem);
    eg_spirv_error_t serr;
    EG_EXPECT(!eg_spirv_parse(&g_tpf_mod, words, EG_ARRAY_LEN(words), &g_tpf_arena, &serr));
    EG_EXPECT_STR_CONTAINS(serr.message, "IMix is reserved");
}

#endif /* EMGPU_D3D12_TPF */
