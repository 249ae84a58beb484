/* Unit tests of hal/soft 8-bit render-target packing: the vector and scalar paths round alike. */
#include "config/emgpu_config.h"
#include "tests/harness/harness.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_raster.h"

#define PITCH_B 20u   /* 4 pixels of 4 bytes, then 4 guard bytes a pack must never touch */
#define GUARD 0xAAu

/* Inputs and their unorm8 codes by the spec (WebGPU "conversion to unorm": round(clamp(v, 0, 1)
 * * 255), NaN -> 0), worked out by hand: 0.5 * 255 = 127.5 rounds up to 128; the float just
 * below 0.5 gives 127.4999923 -> 127; 0.1f = 0.10000000149 -> 25.5000004 -> 26; 0.998 -> 254.49
 * -> 254; 0.999 -> 254.745 -> 255; 0.2 -> 51.0000007 -> 51; 0.25 -> 63.75 -> 64. */
static float in_val(uint32_t i)
{
    static const float v[16] = { 0.0f, -0.0f, -1.0f, 2.0f, 0.0f /* inf */, 0.0f /* -inf */, 1.0f,
                                 0.5f, 0.49999997f, 1e-40f, 0.998f, 0.999f, 0.2f, 0.1f,
                                 0.0f /* NaN */, 0.25f };
    float inf = 1e30f * 1e30f;
    if (i == 4u) return inf;
    if (i == 5u) return -inf;
    if (i == 14u) return inf - inf;
    return v[i];
}
static const uint8_t want_code[16] = { 0, 0, 0, 255, 255, 0, 255, 128, 127, 0, 254, 255, 51, 26, 0, 64 };

/* channel c of lane l takes value (l + 5c) mod 16, so every value meets every channel */
static uint32_t val_index(uint32_t l, uint32_t c) { return (l + 5u * c) & 15u; }

static void fill(eg_soft_vec4_t *v)
{
    for (uint32_t c = 0; c < 4u; c++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) v->c[c].f[l] = in_val(val_index(l, c));
}

/* Packs with (mask, wmask) and checks every byte of the block memory: written bytes hold the
 * spec code, the others (lanes off, channels off, guard bytes) still hold GUARD. */
static bool pack_check(WGPUTextureFormat fmt, eg_soft_mask_t mask, uint32_t wmask)
{
    uint8_t mem[4u * PITCH_B];
    eg_memset(mem, (int)GUARD, sizeof mem);
    eg_soft_target_t t = { mem, PITCH_B, 4, 4, fmt };
    eg_soft_format_ops_t ops;
    eg_soft_format_ops(fmt, &ops);
    eg_soft_vec4_t v;
    fill(&v);
    ops.pack(&t, mem, mask, &v, wmask);
    bool bgra = fmt == WGPUTextureFormat_BGRA8Unorm, ok = true;
    for (uint32_t i = 0; i < sizeof mem; i++) {
        uint32_t row = i / PITCH_B, x = i % PITCH_B / 4u, byte = i % 4u;
        uint32_t c = bgra && byte != 1u && byte != 3u ? 2u - byte : byte, l = row * 4u + x;
        bool written = i % PITCH_B < 16u && (mask >> l & 1u) && (wmask >> c & 1u);
        uint32_t want = written ? want_code[val_index(l, c)] : GUARD;
        if (mem[i] != want) {
            eg_test_printf("    fmt %u mask 0x%x wmask %u: byte %u = %u, want %u\n", (unsigned)fmt, (unsigned)mask,
                         (unsigned)wmask, (unsigned)i, (unsigned)mem[i], (unsigned)want);
            ok = false;
        }
    }
    return ok;
}

EG_TEST(soft_pack, rgba8_full_block)
{
    EG_EXPECT(pack_check(WGPUTextureFormat_RGBA8Unorm, 0xFFFFu, 15u));
}

EG_TEST(soft_pack, bgra8_full_block)
{
    EG_EXPECT(pack_check(WGPUTextureFormat_BGRA8Unorm, 0xFFFFu, 15u));
}

EG_TEST(soft_pack, rgba8_partial_masks)
{
    EG_EXPECT(pack_check(WGPUTextureFormat_RGBA8Unorm, 0x8421u, 15u));    /* the diagonal */
    EG_EXPECT(pack_check(WGPUTextureFormat_RGBA8Unorm, 0xFFFFu, 9u));     /* R and A only */
    EG_EXPECT(pack_check(WGPUTextureFormat_BGRA8Unorm, 0x0F0Fu, 6u));     /* rows 0, 2; G, B */
}

#endif
