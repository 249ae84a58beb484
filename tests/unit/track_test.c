/* Unit tests for kernel/track: usage-scope rules, command-buffer and device transitions, limits. */
#include "tests/harness/harness.h"
#include "kernel/track/track.h"

/* ---- fixture: one device, one scope, two command buffers, all in static memory ---- */

#define MEM_WORDS 1024u                 /* 4 KiB per tracker, checked against storage_size */
static uint32_t dev_mem[MEM_WORDS], scope_mem[MEM_WORDS], cmd_mem[MEM_WORDS], cmd2_mem[MEM_WORDS];
static eg_track_device_t t_dev;
static eg_track_scope_t t_scope;
static eg_track_cmd_t t_cmd, t_cmd2;
static eg_track_transition_t t_items[16];
static eg_track_transition_list_t t_out;
static eg_track_error_t t_err;

static eg_track_caps_t caps(uint32_t buffers, uint32_t textures, uint32_t subres, const char *knob)
{
    eg_track_caps_t c = { buffers, textures, subres, knob };
    return c;
}

/* table sizes: device, scope, command buffers */
static bool setup_sized(uint32_t buffers, uint32_t textures, uint32_t dev_sub, uint32_t scope_sub,
                        uint32_t cmd_sub)
{
    eg_track_caps_t dc = caps(buffers, textures, dev_sub, "EMGPU_TRACK_DEVICE_SUBRESOURCE_STATES");
    eg_track_caps_t sc = caps(buffers, textures, scope_sub, "EMGPU_TRACK_SCOPE_SUBRESOURCE_STATES");
    eg_track_caps_t cc = caps(buffers, textures, cmd_sub, "EMGPU_TRACK_CMD_SUBRESOURCE_STATES");
    if (eg_track_device_storage_size(&dc) > sizeof dev_mem ||
        eg_track_scope_storage_size(&sc) > sizeof scope_mem ||
        eg_track_cmd_storage_size(&cc) > sizeof cmd_mem)
        return false;
    bool ok = eg_track_device_init(&t_dev, &dc, dev_mem, &t_err) == EG_TRACK_OK &&
              eg_track_scope_init(&t_scope, &t_dev, &sc, scope_mem, &t_err) == EG_TRACK_OK &&
              eg_track_cmd_init(&t_cmd, &t_dev, &cc, cmd_mem, &t_err) == EG_TRACK_OK &&
              eg_track_cmd_init(&t_cmd2, &t_dev, &cc, cmd2_mem, &t_err) == EG_TRACK_OK;
    t_out = (eg_track_transition_list_t){ t_items, 16, 0, "test transition array" };
    return ok;
}

static bool setup(void) { return setup_sized(8, 8, 256, 256, 512); }

static eg_track_range_t rng(uint32_t base_mip, uint32_t mips, uint32_t base_layer, uint32_t layers)
{
    eg_track_range_t r = { (uint16_t)base_mip, (uint16_t)mips, (uint16_t)base_layer, (uint16_t)layers };
    return r;
}

static bool transition_is(const eg_track_transition_t *t, eg_track_kind_t kind, uint32_t index,
                          eg_track_range_t r, uint16_t from, uint16_t to)
{
    return t->kind == kind && t->index == index && t->from_use == from && t->to_use == to &&
           t->range.base_mip == r.base_mip && t->range.mip_count == r.mip_count &&
           t->range.base_layer == r.base_layer && t->range.layer_count == r.layer_count;
}

/* ---- usage predicates ---- */

EG_TEST(track, read_only_and_exclusive_classification)
{
    /* Spec §3.4 Resource Usages: input/constant/storage-read/attachment-read preserve contents. */
    EG_EXPECT(eg_track_buffer_use_is_read_only(EG_TRACK_BUF_VERTEX | EG_TRACK_BUF_UNIFORM));
    EG_EXPECT(!eg_track_buffer_use_is_read_only(EG_TRACK_BUF_STORAGE_WRITE));
    EG_EXPECT(!eg_track_buffer_use_is_read_only(EG_TRACK_BUF_NONE));
    EG_EXPECT(eg_track_texture_use_is_read_only(EG_TRACK_TEX_DEPTH_STENCIL_READ | EG_TRACK_TEX_SAMPLED));
    EG_EXPECT(!eg_track_texture_use_is_read_only(EG_TRACK_TEX_COLOR_TARGET));
    /* An exclusive use is compatible only alone (it may repeat: same bit). */
    EG_EXPECT(eg_track_texture_use_is_compatible(EG_TRACK_TEX_STORAGE_WRITE));
    EG_EXPECT(!eg_track_texture_use_is_compatible(EG_TRACK_TEX_STORAGE_WRITE | EG_TRACK_TEX_SAMPLED));
    /* skip_barrier: unchanged and read-only only. */
    EG_EXPECT(eg_track_buffer_use_skips_barrier(EG_TRACK_BUF_INDEX, EG_TRACK_BUF_INDEX));
    EG_EXPECT(!eg_track_buffer_use_skips_barrier(EG_TRACK_BUF_COPY_DST, EG_TRACK_BUF_COPY_DST));
}

EG_TEST(track, use_format_joins_names)
{
    char buf[64];
    eg_track_use_format(EG_TRACK_KIND_TEXTURE, EG_TRACK_TEX_SAMPLED | EG_TRACK_TEX_DEPTH_STENCIL_READ,
                        buf, sizeof buf);
    EG_EXPECT(eg_test_str_contains(buf, "SAMPLED|DEPTH_STENCIL_READ"));
    eg_track_use_format(EG_TRACK_KIND_BUFFER, 0, buf, sizeof buf);
    EG_EXPECT(eg_test_str_contains(buf, "NONE"));
    size_t n = eg_track_use_format(EG_TRACK_KIND_BUFFER, EG_TRACK_BUF_STORAGE_WRITE, buf, 4);
    EG_EXPECT_EQ_U(n, 3);              /* truncated to cap - 1 characters, NUL-terminated */
}

/* ---- usage scope ---- */

EG_TEST(track, scope_read_only_uses_combine)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_buffer_register(&t_dev, 3, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
    /* Index + vertex + uniform are all read-only: any number combine (OR of bits). */
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 3, EG_TRACK_BUF_INDEX, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 3, EG_TRACK_BUF_VERTEX, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 3, EG_TRACK_BUF_UNIFORM, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_scope_buffer_use(&t_scope, 3),
                   EG_TRACK_BUF_INDEX | EG_TRACK_BUF_VERTEX | EG_TRACK_BUF_UNIFORM);
    /* Read-only depth-stencil (spec example): attachment-read + constant on one texture. */
    EG_ASSERT(eg_track_texture_register(&t_dev, 2, 1, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t all = rng(0, 1, 0, 1);
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 2, &all, EG_TRACK_TEX_DEPTH_STENCIL_READ, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 2, &all, EG_TRACK_TEX_SAMPLED, &t_err), EG_TRACK_OK);
}

EG_TEST(track, scope_storage_with_input_conflicts)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_buffer_register(&t_dev, 5, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_buffer_merge(&t_scope, 5, EG_TRACK_BUF_STORAGE_WRITE, &t_err) == EG_TRACK_OK);
    /* Spec example: storage + input on one buffer in one pass is not a compatible usage list. */
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 5, EG_TRACK_BUF_VERTEX, &t_err), EG_TRACK_E_CONFLICT);
    EG_EXPECT_EQ_U(t_err.status, EG_TRACK_E_CONFLICT);
    EG_EXPECT_EQ_U(t_err.kind, EG_TRACK_KIND_BUFFER);
    EG_EXPECT_EQ_U(t_err.index, 5);
    EG_EXPECT_EQ_U(t_err.existing_use, EG_TRACK_BUF_STORAGE_WRITE);
    EG_EXPECT_EQ_U(t_err.new_use, EG_TRACK_BUF_VERTEX);
    /* A failed merge changes nothing. */
    EG_EXPECT_EQ_U(eg_track_scope_buffer_use(&t_scope, 5), EG_TRACK_BUF_STORAGE_WRITE);
}

EG_TEST(track, scope_storage_write_repeats_allowed)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_buffer_register(&t_dev, 1, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_register(&t_dev, 1, 1, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t all = rng(0, 1, 0, 1);
    /* "Usage scope storage exception": several storage usages are allowed although writable. */
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 1, EG_TRACK_BUF_STORAGE_WRITE, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 1, EG_TRACK_BUF_STORAGE_WRITE, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 1, &all, EG_TRACK_TEX_STORAGE_WRITE, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 1, &all, EG_TRACK_TEX_STORAGE_WRITE, &t_err), EG_TRACK_OK);
    /* ...but storage-read with storage is neither all-read-only nor all-storage. */
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 1, EG_TRACK_BUF_STORAGE_READ, &t_err), EG_TRACK_E_CONFLICT);
}

EG_TEST(track, scope_two_different_writes_conflict)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_texture_register(&t_dev, 4, 1, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t all = rng(0, 1, 0, 1);
    EG_ASSERT(eg_track_texture_merge(&t_scope, 4, &all, EG_TRACK_TEX_COLOR_TARGET, &t_err) == EG_TRACK_OK);
    /* "Usage scope attachment exception": attachment may repeat. */
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 4, &all, EG_TRACK_TEX_COLOR_TARGET, &t_err), EG_TRACK_OK);
    /* attachment + storage: two different writable usages, no rule allows the mix. */
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 4, &all, EG_TRACK_TEX_STORAGE_WRITE, &t_err), EG_TRACK_E_CONFLICT);
    EG_EXPECT_EQ_U(t_err.existing_use, EG_TRACK_TEX_COLOR_TARGET);
    EG_EXPECT_EQ_U(t_err.new_use, EG_TRACK_TEX_STORAGE_WRITE);
}

EG_TEST(track, scope_color_target_with_sampled_conflict_record)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_texture_register(&t_dev, 6, 1, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t all = rng(0, 1, 0, 1);
    EG_ASSERT(eg_track_texture_merge(&t_scope, 6, &all, EG_TRACK_TEX_SAMPLED, &t_err) == EG_TRACK_OK);
    /* attachment with constant on one subresource: not compatible. */
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 6, &all, EG_TRACK_TEX_COLOR_TARGET, &t_err), EG_TRACK_E_CONFLICT);
    EG_EXPECT_EQ_U(t_err.kind, EG_TRACK_KIND_TEXTURE);
    EG_EXPECT_EQ_U(t_err.index, 6);
    EG_EXPECT_EQ_U(t_err.range.base_mip, 0);
    EG_EXPECT_EQ_U(t_err.range.mip_count, 1);
    EG_EXPECT_EQ_U(t_err.range.base_layer, 0);
    EG_EXPECT_EQ_U(t_err.range.layer_count, 1);
    EG_EXPECT_EQ_U(t_err.existing_use, EG_TRACK_TEX_SAMPLED);
    EG_EXPECT_EQ_U(t_err.new_use, EG_TRACK_TEX_COLOR_TARGET);
}

EG_TEST(track, scope_subresources_are_independent)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_texture_register(&t_dev, 2, 3, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t mip0 = rng(0, 1, 0, 1), mip1 = rng(1, 1, 0, 1);
    /* Usage scopes are per subresource (mip, layer): render to mip 0 while sampling mip 1. */
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 2, &mip0, EG_TRACK_TEX_COLOR_TARGET, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 2, &mip1, EG_TRACK_TEX_SAMPLED, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_scope_texture_use(&t_scope, 2, 0, 0), EG_TRACK_TEX_COLOR_TARGET);
    EG_EXPECT_EQ_U(eg_track_scope_texture_use(&t_scope, 2, 1, 0), EG_TRACK_TEX_SAMPLED);
    EG_EXPECT_EQ_U(eg_track_scope_texture_use(&t_scope, 2, 2, 0), EG_TRACK_TEX_NONE);
    /* Sampling mips 0..1 now hits mip 0, which is a color target: conflict reported on mip 0. */
    eg_track_range_t mips01 = rng(0, 2, 0, 1);
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 2, &mips01, EG_TRACK_TEX_SAMPLED, &t_err), EG_TRACK_E_CONFLICT);
    EG_EXPECT_EQ_U(t_err.range.base_mip, 0);
    EG_EXPECT_EQ_U(t_err.range.mip_count, 1);
    EG_EXPECT_EQ_U(t_err.existing_use, EG_TRACK_TEX_COLOR_TARGET);
    EG_EXPECT_EQ_U(t_err.new_use, EG_TRACK_TEX_SAMPLED);
    EG_EXPECT_EQ_U(eg_track_scope_texture_use(&t_scope, 2, 1, 0), EG_TRACK_TEX_SAMPLED); /* unchanged */
}

EG_TEST(track, scope_conflict_reports_layer_run)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_texture_register(&t_dev, 3, 1, 6, &t_err) == EG_TRACK_OK);   /* a cube */
    eg_track_range_t faces23 = rng(0, 1, 2, 2), all = rng(0, 1, 0, 6);
    EG_ASSERT(eg_track_texture_merge(&t_scope, 3, &faces23, EG_TRACK_TEX_COLOR_TARGET, &t_err) == EG_TRACK_OK);
    /* Layers 0..1 are untouched (fine); 2..3 are color targets: the record names layers 2..3. */
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 3, &all, EG_TRACK_TEX_SAMPLED, &t_err), EG_TRACK_E_CONFLICT);
    EG_EXPECT_EQ_U(t_err.range.base_layer, 2);
    EG_EXPECT_EQ_U(t_err.range.layer_count, 2);
    EG_EXPECT_EQ_U(t_err.existing_use, EG_TRACK_TEX_COLOR_TARGET);
}

/* ---- command-buffer tracker ---- */

EG_TEST(track, cmd_first_use_has_no_transition)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_buffer_register(&t_dev, 2, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_buffer_merge(&t_scope, 2, EG_TRACK_BUF_VERTEX, &t_err) == EG_TRACK_OK);
    /* First sighting in a command buffer: recorded as first use; the device transitions at submit. */
    EG_EXPECT_EQ_U(eg_track_cmd_barrier(&t_cmd, &t_scope, &t_out, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(t_out.count, 0);
    EG_EXPECT_EQ_U(eg_track_cmd_buffer_first(&t_cmd, 2), EG_TRACK_BUF_VERTEX);
    EG_EXPECT_EQ_U(eg_track_cmd_buffer_last(&t_cmd, 2), EG_TRACK_BUF_VERTEX);
}

EG_TEST(track, cmd_copy_dst_then_sampled_one_transition)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_texture_register(&t_dev, 1, 4, 2, &t_err) == EG_TRACK_OK);
    eg_track_range_t all = rng(0, 4, 0, 2);
    EG_ASSERT(eg_track_texture_barrier(&t_cmd, 1, &all, EG_TRACK_TEX_COPY_DST, &t_out, &t_err) == EG_TRACK_OK);
    EG_EXPECT_EQ_U(t_out.count, 0);                                   /* first use */
    EG_ASSERT(eg_track_texture_merge(&t_scope, 1, &all, EG_TRACK_TEX_SAMPLED, &t_err) == EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_cmd_barrier(&t_cmd, &t_scope, &t_out, &t_err), EG_TRACK_OK);
    /* Write then read: one transition, covering the whole texture as one range. */
    EG_ASSERT(t_out.count == 1);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_TEXTURE, 1, all, EG_TRACK_TEX_COPY_DST, EG_TRACK_TEX_SAMPLED));
    EG_EXPECT_EQ_U(eg_track_cmd_texture_first(&t_cmd, 1, 3, 1), EG_TRACK_TEX_COPY_DST);
    EG_EXPECT_EQ_U(eg_track_cmd_texture_last(&t_cmd, 1, 3, 1), EG_TRACK_TEX_SAMPLED);
}

EG_TEST(track, cmd_same_read_twice_no_transition)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_buffer_register(&t_dev, 4, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
    for (int pass = 0; pass < 2; pass++) {
        eg_track_scope_reset(&t_scope);
        EG_ASSERT(eg_track_buffer_merge(&t_scope, 4, EG_TRACK_BUF_INDEX, &t_err) == EG_TRACK_OK);
        EG_ASSERT(eg_track_cmd_barrier(&t_cmd, &t_scope, &t_out, &t_err) == EG_TRACK_OK);
    }
    /* skip_barrier: unchanged read-only state, reads need no ordering. */
    EG_EXPECT_EQ_U(t_out.count, 0);
    /* The same for a texture sampled in two passes. */
    EG_ASSERT(eg_track_texture_register(&t_dev, 1, 2, 2, &t_err) == EG_TRACK_OK);
    eg_track_range_t all = rng(0, 2, 0, 2);
    for (int pass = 0; pass < 2; pass++) {
        eg_track_scope_reset(&t_scope);
        EG_ASSERT(eg_track_texture_merge(&t_scope, 1, &all, EG_TRACK_TEX_SAMPLED, &t_err) == EG_TRACK_OK);
        EG_ASSERT(eg_track_cmd_barrier(&t_cmd, &t_scope, &t_out, &t_err) == EG_TRACK_OK);
    }
    EG_EXPECT_EQ_U(t_out.count, 0);
}

EG_TEST(track, cmd_first_use_of_a_subresource_has_no_transition)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_texture_register(&t_dev, 5, 2, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t mip0 = rng(0, 1, 0, 1), mip1 = rng(1, 1, 0, 1);
    EG_ASSERT(eg_track_texture_barrier(&t_cmd, 5, &mip0, EG_TRACK_TEX_COPY_DST, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_merge(&t_scope, 5, &mip1, EG_TRACK_TEX_SAMPLED, &t_err) == EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_cmd_barrier(&t_cmd, &t_scope, &t_out, &t_err), EG_TRACK_OK);
    /* The texture is known to cmd, but mip 1 is seen for the first time: first use, no transition. */
    EG_EXPECT_EQ_U(t_out.count, 0);
    EG_EXPECT_EQ_U(eg_track_cmd_texture_first(&t_cmd, 5, 1, 0), EG_TRACK_TEX_SAMPLED);
    EG_EXPECT_EQ_U(eg_track_cmd_texture_first(&t_cmd, 5, 0, 0), EG_TRACK_TEX_COPY_DST);
    EG_EXPECT_EQ_U(eg_track_cmd_texture_last(&t_cmd, 5, 0, 0), EG_TRACK_TEX_COPY_DST);
}

EG_TEST(track, cmd_storage_write_twice_orders_writes)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_buffer_register(&t_dev, 4, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
    for (int dispatch = 0; dispatch < 2; dispatch++) {
        eg_track_scope_reset(&t_scope);
        EG_ASSERT(eg_track_buffer_merge(&t_scope, 4, EG_TRACK_BUF_STORAGE_WRITE, &t_err) == EG_TRACK_OK);
        EG_ASSERT(eg_track_cmd_barrier(&t_cmd, &t_scope, &t_out, &t_err) == EG_TRACK_OK);
    }
    /* Unchanged but exclusive: the second dispatch must see the first's writes. */
    EG_ASSERT(t_out.count == 1);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_BUFFER, 4, rng(0, 1, 0, 1),
                            EG_TRACK_BUF_STORAGE_WRITE, EG_TRACK_BUF_STORAGE_WRITE));
}

EG_TEST(track, cmd_transitions_per_subresource)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_texture_register(&t_dev, 7, 4, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t all = rng(0, 4, 0, 1), mip0 = rng(0, 1, 0, 1), mips13 = rng(1, 3, 0, 1);
    EG_ASSERT(eg_track_texture_barrier(&t_cmd, 7, &all, EG_TRACK_TEX_COPY_DST, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_merge(&t_scope, 7, &mip0, EG_TRACK_TEX_COLOR_TARGET, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_merge(&t_scope, 7, &mips13, EG_TRACK_TEX_SAMPLED, &t_err) == EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_cmd_barrier(&t_cmd, &t_scope, &t_out, &t_err), EG_TRACK_OK);
    /* Mip 0 goes to COLOR_TARGET, mips 1..3 to SAMPLED (equal neighbours joined): 2 entries. */
    EG_ASSERT(t_out.count == 2);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_TEXTURE, 7, mip0, EG_TRACK_TEX_COPY_DST, EG_TRACK_TEX_COLOR_TARGET));
    EG_EXPECT(transition_is(&t_items[1], EG_TRACK_KIND_TEXTURE, 7, mips13, EG_TRACK_TEX_COPY_DST, EG_TRACK_TEX_SAMPLED));
    /* A later copy from mip 2 only: one transition for mip 2. */
    t_out.count = 0;
    eg_track_range_t mip2 = rng(2, 1, 0, 1);
    EG_EXPECT_EQ_U(eg_track_texture_barrier(&t_cmd, 7, &mip2, EG_TRACK_TEX_COPY_SRC, &t_out, &t_err), EG_TRACK_OK);
    EG_ASSERT(t_out.count == 1);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_TEXTURE, 7, mip2, EG_TRACK_TEX_SAMPLED, EG_TRACK_TEX_COPY_SRC));
    EG_EXPECT_EQ_U(eg_track_cmd_texture_first(&t_cmd, 7, 2, 0), EG_TRACK_TEX_COPY_DST);
    EG_EXPECT_EQ_U(eg_track_cmd_texture_last(&t_cmd, 7, 2, 0), EG_TRACK_TEX_COPY_SRC);
    EG_EXPECT_EQ_U(eg_track_cmd_texture_last(&t_cmd, 7, 1, 0), EG_TRACK_TEX_SAMPLED);
}

/* ---- device tracker ---- */

EG_TEST(track, device_two_command_buffers_in_order)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_buffer_register(&t_dev, 1, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_register(&t_dev, 1, 1, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t all = rng(0, 1, 0, 1);
    /* cmd A uploads both; cmd B (recorded before A is submitted) reads both. */
    EG_ASSERT(eg_track_buffer_barrier(&t_cmd, 1, EG_TRACK_BUF_COPY_DST, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_barrier(&t_cmd, 1, &all, EG_TRACK_TEX_COPY_DST, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_buffer_merge(&t_scope, 1, EG_TRACK_BUF_VERTEX, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_merge(&t_scope, 1, &all, EG_TRACK_TEX_SAMPLED, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_cmd_barrier(&t_cmd2, &t_scope, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(t_out.count == 0);

    EG_EXPECT_EQ_U(eg_track_device_submit(&t_dev, &t_cmd, &t_out, &t_err), EG_TRACK_OK);
    /* Buffer: NONE (never used) needs nothing; texture: UNINITIALIZED -> COPY_DST. */
    EG_ASSERT(t_out.count == 1);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_TEXTURE, 1, all, EG_TRACK_TEX_UNINITIALIZED, EG_TRACK_TEX_COPY_DST));
    EG_EXPECT_EQ_U(eg_track_device_buffer_state(&t_dev, 1), EG_TRACK_BUF_COPY_DST);

    t_out.count = 0;
    EG_EXPECT_EQ_U(eg_track_device_submit(&t_dev, &t_cmd2, &t_out, &t_err), EG_TRACK_OK);
    /* B's from-states are A's last uses. */
    EG_ASSERT(t_out.count == 2);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_BUFFER, 1, all, EG_TRACK_BUF_COPY_DST, EG_TRACK_BUF_VERTEX));
    EG_EXPECT(transition_is(&t_items[1], EG_TRACK_KIND_TEXTURE, 1, all, EG_TRACK_TEX_COPY_DST, EG_TRACK_TEX_SAMPLED));
    EG_EXPECT_EQ_U(eg_track_device_buffer_state(&t_dev, 1), EG_TRACK_BUF_VERTEX);
    EG_EXPECT_EQ_U(eg_track_device_texture_state(&t_dev, 1, 0, 0), EG_TRACK_TEX_SAMPLED);
}

EG_TEST(track, device_per_subresource_from_states)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_texture_register(&t_dev, 3, 2, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t mip0 = rng(0, 1, 0, 1), mip1 = rng(1, 1, 0, 1), all = rng(0, 2, 0, 1);
    EG_ASSERT(eg_track_texture_merge(&t_scope, 3, &mip0, EG_TRACK_TEX_COLOR_TARGET, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_cmd_barrier(&t_cmd, &t_scope, &t_out, &t_err) == EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_device_submit(&t_dev, &t_cmd, &t_out, &t_err), EG_TRACK_OK);
    /* Only mip 0 was used, so only mip 0 transitions; mip 1 stays UNINITIALIZED. */
    EG_ASSERT(t_out.count == 1);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_TEXTURE, 3, mip0, EG_TRACK_TEX_UNINITIALIZED, EG_TRACK_TEX_COLOR_TARGET));
    EG_EXPECT_EQ_U(eg_track_device_texture_state(&t_dev, 3, 1, 0), EG_TRACK_TEX_UNINITIALIZED);
    EG_EXPECT(t_dev.subres.in_use > 0);                               /* diverged: in a run */

    t_out.count = 0;
    EG_ASSERT(eg_track_texture_barrier(&t_cmd2, 3, &all, EG_TRACK_TEX_SAMPLED, &t_out, &t_err) == EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_device_submit(&t_dev, &t_cmd2, &t_out, &t_err), EG_TRACK_OK);
    EG_ASSERT(t_out.count == 2);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_TEXTURE, 3, mip0, EG_TRACK_TEX_COLOR_TARGET, EG_TRACK_TEX_SAMPLED));
    EG_EXPECT(transition_is(&t_items[1], EG_TRACK_KIND_TEXTURE, 3, mip1, EG_TRACK_TEX_UNINITIALIZED, EG_TRACK_TEX_SAMPLED));
    /* Uniform again: the run goes back to the table. */
    EG_EXPECT_EQ_U(t_dev.subres.in_use, 0);
}

EG_TEST(track, device_finds_resource_past_untouched_words)
{
    EG_ASSERT(setup_sized(128, 4, 0, 0, 0));
    for (uint32_t i = 1; i <= 128; i++)
        EG_ASSERT(eg_track_buffer_register(&t_dev, i, EG_TRACK_BUF_MAP_WRITE, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_buffer_barrier(&t_cmd, 100, EG_TRACK_BUF_COPY_SRC, &t_out, &t_err) == EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_cmd_next_buffer(&t_cmd, 1), 100);         /* words 0..2 are zero */
    EG_EXPECT_EQ_U(eg_track_cmd_next_buffer(&t_cmd, 101), 0);
    EG_EXPECT_EQ_U(eg_track_device_submit(&t_dev, &t_cmd, &t_out, &t_err), EG_TRACK_OK);
    /* Only buffer 100 was used: host write -> copy source; the other 127 keep MAP_WRITE. */
    EG_ASSERT(t_out.count == 1);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_BUFFER, 100, rng(0, 1, 0, 1),
                            EG_TRACK_BUF_MAP_WRITE, EG_TRACK_BUF_COPY_SRC));
    EG_EXPECT_EQ_U(eg_track_device_buffer_state(&t_dev, 99), EG_TRACK_BUF_MAP_WRITE);
    EG_EXPECT_EQ_U(eg_track_device_buffer_state(&t_dev, 100), EG_TRACK_BUF_COPY_SRC);
}

EG_TEST(track, unregister_and_register_resets_state)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_buffer_register(&t_dev, 2, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_register(&t_dev, 2, 2, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t mip0 = rng(0, 1, 0, 1);
    EG_ASSERT(eg_track_buffer_barrier(&t_cmd, 2, EG_TRACK_BUF_COPY_DST, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_barrier(&t_cmd, 2, &mip0, EG_TRACK_TEX_COPY_DST, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_device_submit(&t_dev, &t_cmd, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(t_dev.subres.in_use == 2);                              /* mips differ: a run of 2 */

    eg_track_buffer_unregister(&t_dev, 2);
    eg_track_texture_unregister(&t_dev, 2);
    EG_EXPECT_EQ_U(t_dev.subres.in_use, 0);                           /* the run came back */
    EG_EXPECT_EQ_U(eg_track_device_buffer_state(&t_dev, 2), EG_TRACK_BUF_NONE);
    /* The slot is reused by a new object: fresh state, whatever the old one was. */
    EG_ASSERT(eg_track_buffer_register(&t_dev, 2, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_texture_register(&t_dev, 2, 1, 3, &t_err) == EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_device_buffer_state(&t_dev, 2), EG_TRACK_BUF_NONE);
    EG_EXPECT_EQ_U(eg_track_device_texture_state(&t_dev, 2, 0, 2), EG_TRACK_TEX_UNINITIALIZED);

    eg_track_cmd_reset(&t_cmd);
    t_out.count = 0;
    eg_track_range_t all = rng(0, 1, 0, 3);
    EG_ASSERT(eg_track_texture_barrier(&t_cmd, 2, &all, EG_TRACK_TEX_SAMPLED, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(eg_track_device_submit(&t_dev, &t_cmd, &t_out, &t_err) == EG_TRACK_OK);
    EG_ASSERT(t_out.count == 1);
    EG_EXPECT(transition_is(&t_items[0], EG_TRACK_KIND_TEXTURE, 2, all, EG_TRACK_TEX_UNINITIALIZED, EG_TRACK_TEX_SAMPLED));
}

/* ---- limits: reported, never overflowed ---- */

EG_TEST(track, subresource_table_exhaustion_reported)
{
    EG_ASSERT(setup_sized(4, 4, 0, 8, 0));     /* device 0, scope 8, command buffers 0 entries */
    EG_ASSERT(eg_track_texture_register(&t_dev, 1, 4, 3, &t_err) == EG_TRACK_OK);  /* 12 subresources */
    eg_track_range_t all = rng(0, 4, 0, 3), mip0 = rng(0, 1, 0, 3);
    /* Whole-texture uses stay uniform and need no table entry at all. */
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 1, &all, EG_TRACK_TEX_SAMPLED, &t_err), EG_TRACK_OK);
    eg_track_scope_reset(&t_scope);
    /* A partial use needs 4 * 3 = 12 entries; the scope has 8. */
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 1, &mip0, EG_TRACK_TEX_COLOR_TARGET, &t_err),
                   EG_TRACK_E_SUBRESOURCE_FULL);
    EG_EXPECT_STR_CONTAINS(t_err.knob, "EMGPU_TRACK_SCOPE_SUBRESOURCE_STATES");
    EG_EXPECT_EQ_U(t_err.capacity, 8);
    EG_EXPECT_EQ_U(t_err.needed, 12);
    EG_EXPECT_EQ_U(t_err.index, 1);
    EG_EXPECT_EQ_U(eg_track_scope_texture_use(&t_scope, 1, 0, 0), EG_TRACK_TEX_NONE);  /* unchanged */
    /* The command buffer (0 entries) cannot take a partial copy either: 2 planes x 12. */
    EG_EXPECT_EQ_U(eg_track_texture_barrier(&t_cmd, 1, &mip0, EG_TRACK_TEX_COPY_DST, &t_out, &t_err),
                   EG_TRACK_E_SUBRESOURCE_FULL);
    EG_EXPECT_EQ_U(t_err.needed, 24);
    EG_EXPECT_EQ_U(eg_track_cmd_next_texture(&t_cmd, 1), 0);          /* not recorded */
}

EG_TEST(track, device_subresource_table_exhaustion_reported)
{
    EG_ASSERT(setup_sized(4, 4, 0, 64, 64));   /* the device has no table */
    EG_ASSERT(eg_track_texture_register(&t_dev, 2, 2, 1, &t_err) == EG_TRACK_OK);
    eg_track_range_t mip1 = rng(1, 1, 0, 1);
    EG_ASSERT(eg_track_texture_barrier(&t_cmd, 2, &mip1, EG_TRACK_TEX_COPY_DST, &t_out, &t_err) == EG_TRACK_OK);
    /* After submit mip 0 would be UNINITIALIZED and mip 1 COPY_DST: needs a run of 2. */
    EG_EXPECT_EQ_U(eg_track_device_submit(&t_dev, &t_cmd, &t_out, &t_err), EG_TRACK_E_SUBRESOURCE_FULL);
    EG_EXPECT_STR_CONTAINS(t_err.knob, "EMGPU_TRACK_DEVICE_SUBRESOURCE_STATES");
    EG_EXPECT_EQ_U(t_err.needed, 2);
    EG_EXPECT_EQ_U(t_out.count, 0);
    EG_EXPECT_EQ_U(eg_track_device_texture_state(&t_dev, 2, 1, 0), EG_TRACK_TEX_UNINITIALIZED);
}

EG_TEST(track, transition_array_full_reported)
{
    EG_ASSERT(setup());
    for (uint32_t i = 1; i <= 3; i++) {
        EG_ASSERT(eg_track_buffer_register(&t_dev, i, EG_TRACK_BUF_NONE, &t_err) == EG_TRACK_OK);
        EG_ASSERT(eg_track_buffer_barrier(&t_cmd, i, EG_TRACK_BUF_COPY_DST, &t_out, &t_err) == EG_TRACK_OK);
        EG_ASSERT(eg_track_buffer_merge(&t_scope, i, EG_TRACK_BUF_VERTEX, &t_err) == EG_TRACK_OK);
    }
    /* 3 buffers go COPY_DST -> VERTEX: 3 transitions into an array of 2. */
    eg_track_transition_t two[2];
    eg_track_transition_list_t small = { two, 2, 0, "EMGPU_TRACK_TRANSITIONS" };
    EG_EXPECT_EQ_U(eg_track_cmd_barrier(&t_cmd, &t_scope, &small, &t_err), EG_TRACK_E_TRANSITIONS_FULL);
    EG_EXPECT_EQ_U(t_err.capacity, 2);
    EG_EXPECT_EQ_U(t_err.needed, 3);
    EG_EXPECT_STR_CONTAINS(t_err.knob, "EMGPU_TRACK_TRANSITIONS");
    EG_EXPECT_EQ_U(small.count, 0);
    EG_EXPECT_EQ_U(eg_track_cmd_buffer_last(&t_cmd, 3), EG_TRACK_BUF_COPY_DST);  /* unchanged */
    /* A single command's barrier fails the same way and leaves the state too. */
    eg_track_transition_list_t none0 = { NULL, 0, 0, NULL };
    EG_EXPECT_EQ_U(eg_track_buffer_barrier(&t_cmd, 1, EG_TRACK_BUF_INDEX, &none0, &t_err), EG_TRACK_E_TRANSITIONS_FULL);
    EG_EXPECT_EQ_U(eg_track_cmd_buffer_last(&t_cmd, 1), EG_TRACK_BUF_COPY_DST);
    /* With room, the same call succeeds. */
    EG_EXPECT_EQ_U(eg_track_cmd_barrier(&t_cmd, &t_scope, &t_out, &t_err), EG_TRACK_OK);
    EG_EXPECT_EQ_U(t_out.count, 3);

    /* Submit: none of the 3 were used before (NONE): no transitions, so even cap 0 works... */
    eg_track_transition_list_t none = { NULL, 0, 0, NULL };
    EG_EXPECT_EQ_U(eg_track_device_submit(&t_dev, &t_cmd, &none, &t_err), EG_TRACK_OK);
    /* ...the next command buffer needs VERTEX -> COPY_SRC for one buffer: cap 0 is too small. */
    EG_ASSERT(eg_track_buffer_barrier(&t_cmd2, 1, EG_TRACK_BUF_COPY_SRC, &none, &t_err) == EG_TRACK_OK);
    EG_EXPECT_EQ_U(eg_track_device_submit(&t_dev, &t_cmd2, &none, &t_err), EG_TRACK_E_TRANSITIONS_FULL);
    EG_EXPECT_EQ_U(t_err.needed, 1);
    EG_EXPECT_EQ_U(eg_track_device_buffer_state(&t_dev, 1), EG_TRACK_BUF_VERTEX);  /* not adopted */
}

EG_TEST(track, bad_arguments_rejected)
{
    EG_ASSERT(setup());
    EG_ASSERT(eg_track_texture_register(&t_dev, 1, 2, 2, &t_err) == EG_TRACK_OK);
    eg_track_range_t past = rng(1, 2, 0, 1), empty = rng(0, 0, 0, 1), ok = rng(0, 1, 0, 1);
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 0, EG_TRACK_BUF_VERTEX, &t_err), EG_TRACK_E_BAD_INDEX);
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 3, EG_TRACK_BUF_VERTEX, &t_err), EG_TRACK_E_BAD_INDEX); /* unregistered */
    EG_EXPECT_EQ_U(eg_track_buffer_merge(&t_scope, 9, EG_TRACK_BUF_VERTEX, &t_err), EG_TRACK_E_BAD_INDEX); /* past cap 8 */
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 1, &past, EG_TRACK_TEX_SAMPLED, &t_err), EG_TRACK_E_BAD_RANGE);
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 1, &empty, EG_TRACK_TEX_SAMPLED, &t_err), EG_TRACK_E_BAD_RANGE);
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 1, &ok, EG_TRACK_TEX_UNINITIALIZED, &t_err), EG_TRACK_E_BAD_USE);
    EG_EXPECT_EQ_U(eg_track_texture_merge(&t_scope, 1, &ok, EG_TRACK_TEX_SAMPLED | EG_TRACK_TEX_COPY_DST, &t_err),
                   EG_TRACK_E_BAD_USE);
    /* WebGPU default limits: 14 mips, 256 layers; ours stop at 16 and 256. */
    EG_EXPECT_EQ_U(eg_track_texture_register(&t_dev, 2, 17, 1, &t_err), EG_TRACK_E_BAD_SIZE);
    EG_EXPECT_EQ_U(eg_track_texture_register(&t_dev, 2, 1, 257, &t_err), EG_TRACK_E_BAD_SIZE);
    EG_EXPECT_EQ_U(eg_track_texture_register(&t_dev, 2, 16, 256, &t_err), EG_TRACK_OK);
}

EG_TEST(track, storage_size_follows_caps)
{
    eg_track_caps_t c = caps(64, 64, 0, NULL);
    size_t dev_B = eg_track_device_storage_size(&c);
    EG_EXPECT(dev_B > 0 && dev_B % 8 == 0);
    c.subresource_states = 256;                                       /* 2 B each + 1 bit each */
    EG_EXPECT_EQ_U(eg_track_device_storage_size(&c), dev_B + 256 * 2 + 256 / 8);
    c.max_buffers = 70000;                                            /* past 16-bit slot indices */
    EG_EXPECT_EQ_U(eg_track_device_storage_size(&c), 0);
    EG_EXPECT_EQ_U(eg_track_scope_storage_size(&c), 0);
    EG_EXPECT_EQ_U(eg_track_cmd_storage_size(&c), 0);
}
