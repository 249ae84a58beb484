/* SPIR-V reflection: per entry point stage, workgroup size, resource bindings and stage IO. */
#include "kernel/shader/spirv_internal.h"

static void *arena_array(eg_spirv_ctx_t *c, uint32_t count, size_t elem_B, const char *what)
{
    if (count == 0) return c->arena->base;   /* never dereferenced: any non-NULL pointer */
    void *p = eg_arena_alloc(c->arena, (size_t)count * elem_B, 4);
    if (!p)
        eg_spirv_fail(c, EG_SPIRV_RULE_ARENA_FULL, 0, "reflection (%s, %u bytes) does not fit: %s arena "
                      "has %u bytes left (%s = %u)", what, (unsigned)(count * elem_B), c->arena->name,
                      (unsigned)eg_arena_free_B(c->arena), c->arena->knob, (unsigned)c->arena->cap_B);
    return p;
}

static uint8_t scalar_of(const eg_spirv_module_t *m, uint32_t type)
{
    uint32_t d = eg_spirv_def(m, type);
    if (!d) return EG_SHADER_SCALAR_F32;
    switch (eg_spirv_op(m, d)) {
    case SpvOpTypeInt: return eg_spirv_word(m, d, 3) ? EG_SHADER_SCALAR_I32 : EG_SHADER_SCALAR_U32;
    case SpvOpTypeBool: return EG_SHADER_SCALAR_BOOL;
    default: return EG_SHADER_SCALAR_F32;
    }
}

/* Counts the struct's members decorated NonWritable; a block with all of them is read-only. */
static bool all_members_non_writable(const eg_spirv_ctx_t *c, uint32_t st)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t members = eg_spirv_wc(m, eg_spirv_def(m, st)) - 2, n = 0;
    for (uint32_t w = c->anno_begin; w < c->anno_end; w += eg_spirv_wc(m, w))
        if (eg_spirv_op(m, w) == SpvOpMemberDecorate && eg_spirv_word(m, w, 1) == st &&
            eg_spirv_word(m, w, 3) == SpvDecorationNonWritable)
            n++;
    return members > 0 && n >= members;
}

static bool fill_binding(eg_spirv_ctx_t *c, uint32_t w, eg_shader_binding_t *b)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t var = eg_spirv_word(m, w, 2), sc = eg_spirv_word(m, w, 3);
    uint32_t type = eg_spirv_word(m, eg_spirv_def(m, eg_spirv_word(m, w, 1)), 3), d = eg_spirv_def(m, type);
    eg_memset(b, 0, sizeof *b);
    if (!eg_spirv_find_decoration(c, var, SpvDecorationDescriptorSet, &b->group) ||
        !eg_spirv_find_decoration(c, var, SpvDecorationBinding, &b->binding))
        return eg_spirv_fail(c, EG_SPIRV_RULE_DECORATION, w, "resource variable %u needs both DescriptorSet "
                             "and Binding decorations", (unsigned)var);
    b->non_writable = eg_spirv_find_decoration(c, var, SpvDecorationNonWritable, NULL);
    b->non_readable = eg_spirv_find_decoration(c, var, SpvDecorationNonReadable, NULL);
    uint32_t op = d ? eg_spirv_op(m, d) : 0;
    if (op == SpvOpTypeStruct) {
        if (sc == SpvStorageClassUniform) b->kind = EG_SHADER_BINDING_UNIFORM;
        else b->kind = b->non_writable || all_members_non_writable(c, type) ? EG_SHADER_BINDING_STORAGE_READ_ONLY
                                                                           : EG_SHADER_BINDING_STORAGE;
    } else if (op == SpvOpTypeImage) {
        b->kind = eg_spirv_word(m, d, 7) == 2 ? EG_SHADER_BINDING_STORAGE_TEXTURE : EG_SHADER_BINDING_SAMPLED_TEXTURE;
        b->sample_type = scalar_of(m, eg_spirv_word(m, d, 2));
        b->dim = (uint8_t)eg_spirv_word(m, d, 3);
        b->depth = (uint8_t)eg_spirv_word(m, d, 4);
        b->arrayed = (uint8_t)eg_spirv_word(m, d, 5);
        b->multisampled = (uint8_t)eg_spirv_word(m, d, 6);
        b->format = eg_spirv_word(m, d, 8);
    } else if (op == SpvOpTypeSampler) {
        b->kind = EG_SHADER_BINDING_SAMPLER;
    } else {
        return eg_spirv_fail(c, EG_SPIRV_RULE_STORAGE_CLASS, w, "variable %u in storage class %u is not "
                             "a buffer block, texture or sampler", (unsigned)var, (unsigned)sc);
    }
    return true;
}

static bool is_resource(const eg_spirv_module_t *m, uint32_t w)
{
    uint32_t sc = eg_spirv_word(m, w, 3);
    return eg_spirv_op(m, w) == SpvOpVariable && (sc == SpvStorageClassUniformConstant ||
           sc == SpvStorageClassUniform || sc == SpvStorageClassStorageBuffer);
}

/* Module-wide resource list, shared by every entry point. TODO(#3): per entry point static use. */
static bool reflect_bindings(eg_spirv_ctx_t *c, eg_shader_binding_t **out, uint32_t *count)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t n = 0;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        if (eg_spirv_op(m, w) == SpvOpFunction) break;
        n += is_resource(m, w);
    }
    eg_shader_binding_t *b = arena_array(c, n, sizeof *b, "bindings");
    if (!b) return false;
    uint32_t i = 0;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count && i < n; w += eg_spirv_wc(m, w))
        if (is_resource(m, w) && !fill_binding(c, w, &b[i++])) return false;
    *out = b;
    *count = n;
    return true;
}

/* Input/Output variables of the entry point's interface that carry a Location (built-ins and
 * the gl_PerVertex block have none and are skipped). */
static bool reflect_io(eg_spirv_ctx_t *c, uint32_t w, eg_shader_entry_t *e)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t first = eg_spirv_string_end(m, w, 3), wc = eg_spirv_wc(m, w);
    eg_shader_io_t *io = arena_array(c, wc - first, sizeof *io, "stage inputs/outputs");
    if (!io) return false;
    uint32_t n_in = 0;
    /* Inputs fill the array from the front, outputs from the back. */
    uint32_t n_out = 0, cap = wc - first;
    for (uint32_t i = first; i < wc; i++) {
        uint32_t var = m->words[w + i], d = eg_spirv_def(m, var), loc;
        if (!d || eg_spirv_op(m, d) != SpvOpVariable ||
            !eg_spirv_find_decoration(c, var, SpvDecorationLocation, &loc))
            continue;
        uint32_t sc = eg_spirv_word(m, d, 3);
        if (sc != SpvStorageClassInput && sc != SpvStorageClassOutput) continue;
        uint32_t t = eg_spirv_word(m, eg_spirv_def(m, eg_spirv_word(m, d, 1)), 3), td = eg_spirv_def(m, t);
        eg_shader_io_t v = { loc, scalar_of(m, t), 1 };
        if (td && eg_spirv_op(m, td) == SpvOpTypeVector) {
            v.scalar = scalar_of(m, eg_spirv_word(m, td, 2));
            v.components = (uint8_t)eg_spirv_word(m, td, 3);
        }
        if (sc == SpvStorageClassInput) io[n_in++] = v;
        else io[cap - 1 - n_out++] = v;
    }
    e->inputs = io;
    e->input_count = n_in;
    e->outputs = io + cap - n_out;
    e->output_count = n_out;
    return true;
}

static void reflect_workgroup_size(const eg_spirv_ctx_t *c, eg_shader_entry_t *e)
{
    const eg_spirv_module_t *m = c->m;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        uint32_t op = eg_spirv_op(m, w);
        if (op == SpvOpFunction) break;
        if (op == SpvOpExecutionMode && eg_spirv_word(m, w, 1) == e->function_id &&
            eg_spirv_word(m, w, 2) == SpvExecutionModeLocalSize)
            for (uint32_t i = 0; i < 3; i++) e->workgroup_size[i] = eg_spirv_word(m, w, 3 + i);
    }
}

bool eg_spirv_reflect(eg_spirv_ctx_t *c)
{
    eg_spirv_module_t *m = c->m;
    eg_shader_binding_t *bindings;
    uint32_t binding_count;
    m->entries = arena_array(c, m->entry_count, sizeof *m->entries, "entry points");
    if (!m->entries || !reflect_bindings(c, &bindings, &binding_count)) return false;
    uint32_t i = 0;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count && i < m->entry_count; w += eg_spirv_wc(m, w)) {
        if (eg_spirv_op(m, w) != SpvOpEntryPoint) continue;
        eg_shader_entry_t *e = &m->entries[i++];
        eg_memset(e, 0, sizeof *e);
        uint32_t model = eg_spirv_word(m, w, 1);
        e->stage = model == SpvExecutionModelVertex ? EG_SHADER_STAGE_VERTEX
                 : model == SpvExecutionModelFragment ? EG_SHADER_STAGE_FRAGMENT : EG_SHADER_STAGE_COMPUTE;
        e->name = (const char *)(const void *)&m->words[w + 3];
        e->function_id = eg_spirv_word(m, w, 2);
        e->bindings = bindings;
        e->binding_count = binding_count;
        reflect_workgroup_size(c, e);
        if (!reflect_io(c, w, e)) return false;
    }
    return true;
}
