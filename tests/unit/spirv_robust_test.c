/* The SPIR-V robust access rewrite (kernel/shader/spirv_robust.c) on real test modules: what it
 * clamps, the length uniforms it declares, and that it leaves modules without such accesses
 * alone. A pure SPIR-V rewrite: runs on every board, no device needed. The end-to-end proof is
 * robust.* and limits.local_arrays_out_of_bounds_stay_inside on the GLES and Vulkan backends. */
#include <string.h>

#include "config/emgpu_config.h"
#include "kernel/shader/spirv_robust.h"
#include "tests/harness/harness.h"
#include "tests/shaders/spv_embed.h"

#define CAP (EMGPU_MAX_SPIRV_WORDS * 2u)
static uint32_t out[CAP];
static eg_spirv_robust_t r;

static uint32_t count_op(const uint32_t *w, uint32_t n, uint32_t op)
{
    uint32_t c = 0;
    for (uint32_t i = 5u /* header */; i < n && (w[i] >> 16); i += w[i] >> 16) c += (w[i] & 0xFFFFu) == op;
    return c;
}

/* robust_rw.comp (tests/shaders): from its source and the std430/std140 rules, the clamped
 * indices are o.r[i], d.v[i], o.r[32 + i], un.u[i] (uvec4[4]), d.v[i] (store), o.r[64], o.r[65],
 * o.r[66] = 8; length uniforms for bindings 0 (v[] at 0, stride 4), 1 (r[] at 0, stride 4), 2
 * and 3 (S s[] after uint pre[2]: offset 8, stride 12); no OpArrayLength (68) is left. */
EG_TEST(spirv_robust, buffers_clamped_and_lengths_from_uniforms)
{
    const eg_test_spv_t *s = eg_test_spv("robust_rw.comp");
    EG_ASSERT(s != NULL);
    uint32_t n = 0;
    EG_ASSERT(eg_spirv_robust_rewrite(s->words, s->word_count, EG_SPIRV_ROBUST_BUFFERS | EG_SPIRV_ROBUST_LOCALS,
                                      out, CAP, &n, &r));
    EG_EXPECT_EQ_U(r.clamps, 8u);
    EG_EXPECT_EQ_U(r.len_count, 4u);
    static const uint32_t want_stride[4] = { 4, 4, 12, 12 };
    uint32_t seen = 0;
    for (uint32_t k = 0; k < r.len_count; k++) {
        uint32_t b = r.len[k].binding;
        EG_EXPECT_EQ_U(r.len[k].group, 0u);
        if (b >= 4) continue;
        seen |= 1u << b;
        EG_EXPECT_EQ_U(r.len[k].offset_B, b >= 2 ? 8u : 0u);
        EG_EXPECT_EQ_U(r.len[k].stride_B, want_stride[b]);
    }
    EG_EXPECT_EQ_U(seen, 0xFu);
    EG_EXPECT_EQ_U(count_op(out, n, 68u), 0u);
    EG_EXPECT(out[3] > s->words[3]);   /* new ids were allocated */
    /* locals only (the Vulkan mode): the buffers are left to the driver */
    EG_ASSERT(eg_spirv_robust_rewrite(s->words, s->word_count, EG_SPIRV_ROBUST_LOCALS, out, CAP, &n, &r));
    EG_EXPECT_EQ_U(r.clamps, 0u);
    EG_EXPECT_EQ_U(r.len_count, 0u);
    EG_EXPECT(n == s->word_count && memcmp(out, s->words, n * 4u) == 0);
}

/* limits_local_oob.comp: every workgroup/private/function array access with a non-constant
 * index, counted in its source: 6 in the first loop, wa[k], pa[k], fa[k], 3 in the second loop,
 * wa[k + 1], pa[k + 1], fa[k + 1]: 15. No length uniforms (no runtime arrays). */
EG_TEST(spirv_robust, local_arrays_clamped)
{
    const eg_test_spv_t *s = eg_test_spv("limits_local_oob.comp");
    EG_ASSERT(s != NULL);
    uint32_t n = 0;
    EG_ASSERT(eg_spirv_robust_rewrite(s->words, s->word_count, EG_SPIRV_ROBUST_LOCALS, out, CAP, &n, &r));
    EG_EXPECT_EQ_U(r.clamps, 15u);
    EG_EXPECT_EQ_U(r.len_count, 0u);
    EG_EXPECT(n > s->word_count);
}

/* A module without array accesses is copied unchanged. */
EG_TEST(spirv_robust, nothing_to_clamp_is_a_copy)
{
    const eg_test_spv_t *f = eg_test_spv("draw_color.frag");
    EG_ASSERT(f != NULL);
    uint32_t n = 0;
    EG_ASSERT(eg_spirv_robust_rewrite(f->words, f->word_count, EG_SPIRV_ROBUST_BUFFERS | EG_SPIRV_ROBUST_LOCALS,
                                      out, CAP, &n, &r));
    EG_EXPECT_EQ_U(r.clamps, 0u);
    EG_EXPECT(n == f->word_count && memcmp(out, f->words, n * 4u) == 0);
}

/* Too small an output buffer is an error naming the sizes, not an overrun. */
EG_TEST(spirv_robust, small_output_is_an_error)
{
    const eg_test_spv_t *s = eg_test_spv("robust_rw.comp");
    EG_ASSERT(s != NULL);
    uint32_t n = 0;
    out[40] = 0xABCDEF01u;
    EG_EXPECT(!eg_spirv_robust_rewrite(s->words, s->word_count, EG_SPIRV_ROBUST_BUFFERS, out, 40, &n, &r));
    EG_EXPECT_STR_CONTAINS(r.message, "do not fit");
    EG_EXPECT_EQ_U(out[40], 0xABCDEF01u);
}
