/* Tests for the shared SPIR-V integer-division polyfill (kernel/shader/spirv_polyfill.c). */
#include "kernel/shader/spirv_polyfill.h"
#include "tests/harness/harness.h"
#include "tests/shaders/spv_embed.h"

static uint32_t g_out[2048];

/* vm_alu.comp has one `ia / ib` (OpSDiv) and one `ia % ib` (OpSMod) on int: both rewritten,
 * the id bound grows, the header's other words are kept, and the module gets longer. */
EG_TEST(spirv_polyfill, rewrites_division_and_mod)
{
    const eg_test_spv_t *s = eg_test_spv("vm_alu.comp");
    EG_ASSERT(s != NULL);
    EG_ASSERT(eg_spirv_polyfill_words_max(s->words, s->word_count) <= 2048u);
    eg_spirv_polyfill_result_t r;
    EG_ASSERT(eg_spirv_polyfill_int_div(s->words, s->word_count, g_out, 2048u, &r));
    EG_EXPECT_EQ_U(r.rewritten, 2);
    EG_EXPECT(r.word_count > s->word_count);
    EG_EXPECT(r.word_count <= eg_spirv_polyfill_words_max(s->words, s->word_count));
    EG_EXPECT_EQ_U(g_out[0], s->words[0]);
    EG_EXPECT(g_out[3] > s->words[3]);
}

/* A module without integer division is copied word for word. */
EG_TEST(spirv_polyfill, copies_module_without_division)
{
    const eg_test_spv_t *s = eg_test_spv("draw_color.vert");
    EG_ASSERT(s != NULL && s->word_count <= 2048u);
    eg_spirv_polyfill_result_t r;
    EG_ASSERT(eg_spirv_polyfill_int_div(s->words, s->word_count, g_out, 2048u, &r));
    EG_EXPECT_EQ_U(r.rewritten, 0);
    EG_EXPECT_EQ_U(r.word_count, s->word_count);
    for (uint32_t i = 0; i < s->word_count; i++) EG_EXPECT_EQ_U(g_out[i], s->words[i]);
}

/* An output buffer of just the input's size cannot hold the rewrite: an error naming both sizes. */
EG_TEST(spirv_polyfill, overflow_names_sizes)
{
    const eg_test_spv_t *s = eg_test_spv("vm_alu.comp");
    EG_ASSERT(s != NULL);
    eg_spirv_polyfill_result_t r;
    EG_EXPECT(!eg_spirv_polyfill_int_div(s->words, s->word_count, g_out, s->word_count, &r));
    EG_EXPECT_STR_CONTAINS(r.message, "words of output, the buffer holds");
}
