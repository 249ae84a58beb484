/* SPIR-V front end on every board: header, truncation, arena exhaustion, reflection, API wiring. */
#include "kernel/shader/spirv.h"
#include "tests/harness/harness.h"
#include "tests/harness/test_device.h"
#include "tests/shaders/test_spirv.h"

static uint32_t t_mem[256];
static uint32_t t_words[EG_TEST_SPIRV_MIN_WORDS];

static bool parse(uint32_t words, size_t arena_B, eg_spirv_module_t *m, eg_spirv_error_t *e)
{
    eg_arena_t a;
    eg_arena_init(&a, "test", "EMGPU_SHADER_ARENA_BYTES", t_mem, arena_B);
    return eg_spirv_parse(m, t_words, words, &a, e);
}

static void reset_words(void)
{
    for (uint32_t i = 0; i < EG_TEST_SPIRV_MIN_WORDS; i++) t_words[i] = eg_test_spirv_min[i];
}

EG_TEST(shader_front, min_module_reflects_three_stages)
{
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    reset_words();
    EG_ASSERT(parse(EG_TEST_SPIRV_MIN_WORDS, sizeof t_mem, &m, &e));
    EG_EXPECT_EQ_U(m.entry_count, 3);
    const eg_shader_entry_t *c = eg_spirv_find_entry(&m, EG_SHADER_STAGE_COMPUTE, "");
    EG_ASSERT(c != NULL);
    EG_EXPECT_EQ_U(c->workgroup_size[0], 1);   /* OpExecutionMode LocalSize 1 1 1 */
    EG_EXPECT(eg_spirv_find_entry(&m, EG_SHADER_STAGE_VERTEX, "vs_main") != NULL);
    EG_EXPECT(eg_spirv_find_entry(&m, EG_SHADER_STAGE_VERTEX, "fs_main") == NULL);
}

EG_TEST(shader_front, header_too_short)
{
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    reset_words();
    EG_EXPECT(!parse(4, sizeof t_mem, &m, &e));
    EG_EXPECT_STR_CONTAINS(e.message, "rule HEADER_SIZE");
}

EG_TEST(shader_front, truncated_module_is_rejected_not_overread)
{
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    reset_words();
    /* Cut inside the last instructions: the final word count runs past the end (SPIR-V 2.3). */
    EG_EXPECT(!parse(EG_TEST_SPIRV_MIN_WORDS - 1, sizeof t_mem, &m, &e));
    EG_EXPECT_STR_CONTAINS(e.message, "rule");
}

EG_TEST(shader_front, arena_too_small_names_knob)
{
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    reset_words();
    EG_EXPECT(!parse(EG_TEST_SPIRV_MIN_WORDS, 16, &m, &e));   /* the id table alone needs 8 B/id */
    EG_EXPECT_STR_CONTAINS(e.message, "EMGPU_SHADER_ARENA_BYTES");
}

EG_TEST(shader_front, string_without_nul)
{
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    reset_words();
    /* Find OpEntryPoint "vs_main" (4 words + name) and fill its name's last word with 'x'. */
    for (uint32_t w = 5; w < EG_TEST_SPIRV_MIN_WORDS; w += t_words[w] >> 16) {
        if ((t_words[w] & 0xffffu) == 15) { t_words[w + (t_words[w] >> 16) - 1] = 0x78787878u; break; }
    }
    EG_EXPECT(!parse(EG_TEST_SPIRV_MIN_WORDS, sizeof t_mem, &m, &e));
    EG_EXPECT_STR_CONTAINS(e.message, "rule STRING: instruction #2");
}

/* ---- control flow, function order, initializers (spirv_validate_cfg.c and friends) ---- */

#include "tests/shaders/spv_embed.h"

static uint32_t t_big_mem[2048];   /* 8 KiB arena for real glslang modules */
static uint32_t t_edit[EG_TEST_SPIRV_MIN_WORDS + 8];

/* The min module with vs_main's OpReturn (the first one) replaced by `n` words. */
static uint32_t edit_first_return(const uint32_t *repl, uint32_t n)
{
    uint32_t out = 0, done = 0;
    for (uint32_t w = 0; w < EG_TEST_SPIRV_MIN_WORDS; w++) {
        if (!done && w >= 5 && eg_test_spirv_min[w] == 0x000100fdu) {   /* OpReturn: wc 1, op 253 */
            for (uint32_t i = 0; i < n; i++) t_edit[out++] = repl[i];
            done = 1;
            continue;
        }
        t_edit[out++] = eg_test_spirv_min[w];
    }
    return out;
}

static bool parse_edit(uint32_t words, eg_spirv_module_t *m, eg_spirv_error_t *e)
{
    eg_arena_t a;
    eg_arena_init(&a, "test", "EMGPU_SHADER_ARENA_BYTES", t_mem, sizeof t_mem);
    return eg_spirv_parse(m, t_edit, words, &a, e);
}

EG_TEST(shader_front, self_branch_without_loop_merge_is_back_edge)
{
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    /* vs_main: OpBranch %9; %9 = OpLabel; OpBranch %9 (instructions #11-#13; id 9 = the old
     * bound, so the bound grows to 10). %9 branching to itself is a back edge to a block
     * without OpLoopMerge, which SPIR-V 2.11 forbids ("all CFG back edges must branch to a loop
     * header"). */
    const uint32_t loop[] = {0x000200f9u, 9u, 0x000200f8u, 9u, 0x000200f9u, 9u};
    uint32_t n = edit_first_return(loop, 6);
    t_edit[3] = 10;
    EG_EXPECT(!parse_edit(n, &m, &e));
    EG_EXPECT_STR_CONTAINS(e.message, "rule BACK_EDGE: instruction #13 OpBranch");
}

EG_TEST(shader_front, branch_to_entry_block_is_rejected)
{
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    /* vs_main's block is %6 (test_spirv.h); SPIR-V 2.16.1: the entry block is no branch target. */
    const uint32_t branch_self[] = {0x000200f9u, 6u};
    EG_EXPECT(!parse_edit(edit_first_return(branch_self, 2), &m, &e));
    EG_EXPECT_STR_CONTAINS(e.message, "rule CFG_TARGET");
}

EG_TEST(shader_front, branch_into_other_function_is_rejected)
{
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    const uint32_t branch_other[] = {0x000200f9u, 7u};   /* %7 is fs_main's block */
    EG_EXPECT(!parse_edit(edit_first_return(branch_other, 2), &m, &e));
    EG_EXPECT_STR_CONTAINS(e.message, "rule CFG_TARGET");
}

EG_TEST(shader_front, block_without_terminator_is_rejected)
{
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    /* Dropping the OpReturn leaves %6 running into OpFunctionEnd (SPIR-V 2.2.5). */
    EG_EXPECT(!parse_edit(edit_first_return(NULL, 0), &m, &e));
    EG_EXPECT_STR_CONTAINS(e.message, "rule CFG_BLOCK");
}

EG_TEST(shader_front, glslang_module_with_calls_loops_atomics_accepted)
{
    const eg_test_spv_t *s = eg_test_spv("rules_calls.comp");
    if (!s) EG_SKIP("rules_calls.comp not embedded");
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    eg_arena_t a;
    eg_arena_init(&a, "test", "EMGPU_SHADER_ARENA_BYTES", t_big_mem, sizeof t_big_mem);
    bool ok = eg_spirv_parse(&m, s->words, s->word_count, &a, &e);
    EG_ASSERT(ok);
    const eg_shader_entry_t *c = eg_spirv_find_entry(&m, EG_SHADER_STAGE_COMPUTE, "main");
    EG_ASSERT(c != NULL);
    EG_EXPECT_EQ_U(c->workgroup_size[0], 16);   /* local_size_x = 16 in the GLSL source */
}

EG_TEST(shader_front, cfg_scratch_exhaustion_names_knob)
{
    const eg_test_spv_t *s = eg_test_spv("rules_calls.comp");
    if (!s) EG_SKIP("rules_calls.comp not embedded");
    eg_spirv_module_t m;
    eg_spirv_error_t e;
    eg_arena_t a;
    /* Room for the id table (8 B per id of the bound, word 3 of the header) and nothing else:
     * the control-flow scratch must fail by naming the arena's knob. */
    eg_arena_init(&a, "test", "EMGPU_SHADER_ARENA_BYTES", t_big_mem, (size_t)s->words[3] * 8u + 4u);
    EG_EXPECT(!eg_spirv_parse(&m, s->words, s->word_count, &a, &e));
    EG_EXPECT_STR_CONTAINS(e.message, "rule ARENA_FULL");
    EG_EXPECT_STR_CONTAINS(e.message, "EMGPU_SHADER_ARENA_BYTES");
}
