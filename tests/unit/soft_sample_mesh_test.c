/* The integer rounding behind soft_sample_mesh8.inc's sample-and-store (helper "tex8", session 8): exhaustive proof against to_unorm8. */
#include "config/emgpu_config.h"
#include "tests/harness/harness.h"

/* The pack's conversion (WebGPU "conversion to unorm": round(clamp(v, 0, 1) * 255), as
 * soft_raster_output.c computes it: clamp, * 255, + 0.5, truncate) of the sampler's value
 * S * (1 / (255 * 65536)) (soft_sample_int.h UNORM8_SCALE, sv8_rgba8's last multiply). */
static uint32_t pack_of_sum(uint32_t s)
{
    volatile float scale = 1.0f / 16711680.0f;   /* volatile: rounded once, in float, as the code does */
    float v = (float)s * scale;
    v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
    return (uint32_t)(int32_t)(v * 255.0f + 0.5f);
}

/* m8_round then the byte extraction of m8_group: bits 16..23 of S + 32768 + (S > 8486910). */
static uint32_t int_of_sum(uint32_t s)
{
    return (s + 32768u + (s > 8486910u ? 1u : 0u)) >> 16;
}

/* Every S the bilinear sum can take (0 .. 255 * 65536: 8-bit channels, weights summing to
 * 65536) gives the same byte both ways. Hosts check all 16.7 M values; the Cortex-M7 board (qemu)
 * checks 8 values around each of the 255 rounding points, where the two could differ (the
 * float product's rounding moves the half-way point of bytes 130 and up down by one: the
 * `S > 8486910` term; without it 126 values differ), and every 4099th value between. */
EG_TEST(soft_sample, rgba8_quantize_equals_to_unorm8)
{
    const uint32_t last = 255u * 65536u;
    uint32_t bad = 0, checked = 0;
#if defined(__x86_64__) || defined(__aarch64__) || defined(_WIN64)
    for (uint32_t s = 0; s <= last; s++, checked++) bad += pack_of_sum(s) != int_of_sum(s);
#else
    for (uint32_t b = 1; b <= 255u; b++)
        for (uint32_t s = b * 65536u - 32772u; s < b * 65536u - 32764u; s++, checked++)
            bad += pack_of_sum(s) != int_of_sum(s);
    for (uint32_t s = 0; s <= last; s += 4099u, checked++) bad += pack_of_sum(s) != int_of_sum(s);
    bad += pack_of_sum(last) != int_of_sum(last);
#endif
    EG_EXPECT_EQ_U(bad, 0u);
    EG_EXPECT(checked > 2000u);
    EG_EXPECT_EQ_U(int_of_sum(last), 255u);   /* the ends: 0 and 255 */
    EG_EXPECT_EQ_U(int_of_sum(0), 0u);
}
