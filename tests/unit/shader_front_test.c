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
