/* SPIR-V reflection: static use per entry point (call graph walk, resources, sampling pairs). */
#include "kernel/shader/spirv_reflect_internal.h"

static bool is_workgroup_var(const eg_spirv_module_t *m, uint32_t w)
{
    return eg_spirv_op(m, w) == SpvOpVariable && eg_spirv_word(m, w, 3) == SpvStorageClassWorkgroup;
}

bool eg_reflect_use_init(eg_spirv_ctx_t *c, eg_reflect_resources_t *res)
{
    const eg_spirv_module_t *m = c->m;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        if (eg_spirv_op(m, w) == SpvOpFunction) break;
        res->workgroup_count += is_workgroup_var(m, w);
    }
    res->workgroup_ids = eg_reflect_array(c, res->workgroup_count, sizeof *res->workgroup_ids, "workgroup variables");
    res->work = res->workgroup_ids ? eg_reflect_array(c, res->function_count, sizeof *res->work, "call graph") : NULL;
    res->flags = res->work ? eg_reflect_array(c, res->count + res->workgroup_count, 1, "use flags") : NULL;
    res->map = res->flags ? eg_reflect_array(c, res->count, sizeof *res->map, "binding map") : NULL;
    res->pairs = res->map ? eg_reflect_array(c, res->sampling_count, sizeof *res->pairs, "sampling pairs") : NULL;
    if (!res->pairs) return false;
    uint32_t i = 0;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count && i < res->workgroup_count; w += eg_spirv_wc(m, w))
        if (is_workgroup_var(m, w)) res->workgroup_ids[i++] = eg_spirv_word(m, w, 2);
    return true;
}

/* Index of a module-scope variable in res->flags (resources first, then Workgroup variables),
 * or -1 when id is not one. Linear: modules hold few of them. */
static int32_t var_index(const eg_reflect_resources_t *res, uint32_t id)
{
    for (uint32_t i = 0; i < res->count; i++)
        if (res->var_ids[i] == id) return (int32_t)i;
    for (uint32_t i = 0; i < res->workgroup_count; i++)
        if (res->workgroup_ids[i] == id) return (int32_t)(res->count + i);
    return -1;
}

static void mark(eg_reflect_resources_t *res, uint32_t id, uint8_t bits)
{
    int32_t i = var_index(res, id);
    if (i >= 0) res->flags[i] |= bits;
}

/* The resource a loaded image or sampler comes from: OpLoad of the variable (a pointer). */
static int32_t loaded_resource(const eg_spirv_module_t *m, const eg_reflect_resources_t *res, uint32_t id)
{
    uint32_t d = eg_spirv_def(m, id);
    if (!d || eg_spirv_op(m, d) != SpvOpLoad) return -1;
    int32_t i = var_index(res, eg_spirv_word(m, d, 3));
    return i >= 0 && (uint32_t)i < res->count ? i : -1;
}

static bool is_dref(uint32_t op)
{
    return op == SpvOpImageSampleDrefImplicitLod || op == SpvOpImageSampleDrefExplicitLod ||
           op == SpvOpImageSampleProjDrefImplicitLod || op == SpvOpImageSampleProjDrefExplicitLod ||
           op == SpvOpImageDrefGather;
}

static bool is_sampling(uint32_t op)
{
    return (op >= SpvOpImageSampleImplicitLod && op <= SpvOpImageSampleProjDrefExplicitLod) ||
           op == SpvOpImageGather || op == SpvOpImageDrefGather || op == SpvOpImageQueryLod;
}

/* A sampling instruction: its sampled image comes from OpSampledImage(texture, sampler), each
 * an OpLoad of a resource variable. Records the pair once and the use kind on both. */
static void note_sampling(const eg_spirv_module_t *m, eg_reflect_resources_t *res, uint32_t w, uint32_t *n_pairs)
{
    uint32_t op = eg_spirv_op(m, w), si = eg_spirv_def(m, eg_spirv_word(m, w, 3));
    if (!si || eg_spirv_op(m, si) != SpvOpSampledImage) return;
    int32_t t = loaded_resource(m, res, eg_spirv_word(m, si, 3));
    int32_t s = loaded_resource(m, res, eg_spirv_word(m, si, 4));
    if (t < 0 || s < 0) return;
    uint8_t compare = is_dref(op) ? 1 : 0;
    uint8_t bits = compare ? EG_REFLECT_USED_COMPARE : EG_REFLECT_USED_FILTERED;
    res->flags[t] |= bits;
    res->flags[s] |= bits;
    for (uint32_t i = 0; i < *n_pairs; i++)
        if (res->pairs[i].texture == t && res->pairs[i].sampler == s && res->pairs[i].compare == compare) return;
    if (*n_pairs >= res->sampling_count) return;
    eg_shader_pair_t *p = &res->pairs[(*n_pairs)++];
    p->texture = (uint16_t)t;
    p->sampler = (uint16_t)s;
    p->compare = compare;
}

/* The operands of one instruction that can name a module-scope variable (a pointer). */
static void scan_inst(const eg_spirv_module_t *m, eg_reflect_resources_t *res, uint32_t w, uint32_t *n_pairs)
{
    uint32_t op = eg_spirv_op(m, w), wc = eg_spirv_wc(m, w);
    switch (op) {
    case SpvOpStore: case SpvOpAtomicStore:
        mark(res, eg_spirv_word(m, w, 1), EG_REFLECT_USED);
        break;
    case SpvOpCopyMemory:
        mark(res, eg_spirv_word(m, w, 1), EG_REFLECT_USED);
        mark(res, eg_spirv_word(m, w, 2), EG_REFLECT_USED);
        break;
    case SpvOpLoad: case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
    case SpvOpInBoundsPtrAccessChain: case SpvOpArrayLength: case SpvOpImageTexelPointer:
    case SpvOpCopyObject:
        mark(res, eg_spirv_word(m, w, 3), EG_REFLECT_USED);
        break;
    case SpvOpFunctionCall:
        for (uint32_t i = 4; i < wc; i++) mark(res, m->words[w + i], EG_REFLECT_USED);
        break;
    default:
        if (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor) mark(res, eg_spirv_word(m, w, 3), EG_REFLECT_USED);
        else if (is_sampling(op)) note_sampling(m, res, w, n_pairs);
        break;
    }
}

/* Walks the call graph from the entry function with a worklist (no recursion): every function
 * reached is scanned once; callees found by OpFunctionCall are appended. */
static uint32_t walk_calls(const eg_spirv_module_t *m, eg_reflect_resources_t *res, uint32_t entry_fn)
{
    uint32_t n_funcs = 0, n_pairs = 0;
    if (res->function_count == 0) return 0;
    res->work[n_funcs++] = entry_fn;
    for (uint32_t k = 0; k < n_funcs; k++) {
        uint32_t w = eg_spirv_def(m, res->work[k]);
        if (!w || eg_spirv_op(m, w) != SpvOpFunction) continue;
        for (w += eg_spirv_wc(m, w); w < m->word_count && eg_spirv_op(m, w) != SpvOpFunctionEnd;
             w += eg_spirv_wc(m, w)) {
            scan_inst(m, res, w, &n_pairs);
            if (eg_spirv_op(m, w) != SpvOpFunctionCall) continue;
            uint32_t callee = eg_spirv_word(m, w, 3), j = 0;
            while (j < n_funcs && res->work[j] != callee) j++;
            if (j == n_funcs && n_funcs < res->function_count) res->work[n_funcs++] = callee;
        }
    }
    return n_pairs;
}

/* ---- Workgroup storage size ---- */

/* WGSL-style size of a Workgroup variable's type: scalars 4 B, vectors 4 B per component,
 * array elements padded to their alignment (vec3 -> 16 B), struct members packed in order.
 * Iterative with a small stack; deeper nesting than it holds is counted as 16 B per level. */
static uint64_t type_size_B(const eg_spirv_module_t *m, uint32_t type)
{
    struct { uint32_t t; uint64_t mult; } stack[16];
    uint32_t sp = 0;
    uint64_t total = 0;
    /* A malformed module can make a type contain itself (reflection runs before every rule
     * has rejected it): a visit budget ends the walk, counting what is left as 16 B each. */
    uint32_t budget = 4096;
    stack[sp].t = type;
    stack[sp++].mult = 1;
    while (sp) {
        sp--;
        if (budget-- == 0) { total += (uint64_t)(sp + 1u) * stack[sp].mult * 16u; break; }
        uint32_t t = stack[sp].t, d = eg_spirv_def(m, t);
        uint64_t mult = stack[sp].mult;
        switch (d ? eg_spirv_op(m, d) : 0) {
        case SpvOpTypeVector: {
            uint32_t n = eg_spirv_word(m, d, 3);
            total += mult * 4u * (mult > 1 && n == 3 ? 4u : n);
            break;
        }
        case SpvOpTypeMatrix: {
            uint32_t cols = eg_spirv_word(m, d, 3);
            uint32_t rows = eg_spirv_word(m, eg_spirv_def(m, eg_spirv_word(m, d, 2)), 3);
            total += mult * cols * 4u * (rows == 3 ? 4u : rows);
            break;
        }
        case SpvOpTypeArray: {
            uint32_t len_d = eg_spirv_def(m, eg_spirv_word(m, d, 3));
            uint32_t len = len_d && eg_spirv_op(m, len_d) == SpvOpConstant ? eg_spirv_word(m, len_d, 3) : 1;
            if (sp < EG_ARRAY_LEN(stack)) { stack[sp].t = eg_spirv_word(m, d, 2); stack[sp++].mult = mult * len; }
            else total += mult * len * 16u;
            break;
        }
        case SpvOpTypeStruct:
            for (uint32_t i = 2; i < eg_spirv_wc(m, d); i++) {
                if (sp < EG_ARRAY_LEN(stack)) { stack[sp].t = m->words[d + i]; stack[sp++].mult = mult; }
                else total += mult * 16u;
            }
            break;
        default:
            total += mult * 4u;
            break;
        }
    }
    return total;
}

static uint32_t workgroup_bytes(const eg_spirv_module_t *m, const eg_reflect_resources_t *res)
{
    uint64_t total = 0;
    for (uint32_t i = 0; i < res->workgroup_count; i++) {
        if (!res->flags[res->count + i]) continue;
        uint32_t d = eg_spirv_def(m, res->workgroup_ids[i]);
        total += type_size_B(m, eg_spirv_word(m, eg_spirv_def(m, eg_spirv_word(m, d, 1)), 3));
    }
    return total > 0xffffffffu ? 0xffffffffu : (uint32_t)total;
}

bool eg_reflect_static_use(eg_spirv_ctx_t *c, eg_reflect_resources_t *res, eg_shader_entry_t *e)
{
    const eg_spirv_module_t *m = c->m;
    eg_memset(res->flags, 0, res->count + res->workgroup_count);
    uint32_t n_pairs = walk_calls(m, res, e->function_id), n = 0;
    for (uint32_t i = 0; i < res->count; i++) n += res->flags[i] != 0;
    eg_shader_binding_t *b = eg_reflect_array(c, n, sizeof *b, "bindings");
    eg_shader_pair_t *p = b ? eg_reflect_array(c, n_pairs, sizeof *p, "sampling pairs") : NULL;
    if (!p) return false;
    uint32_t k = 0;
    for (uint32_t i = 0; i < res->count; i++) {
        if (!res->flags[i]) continue;
        res->map[i] = (uint16_t)k;
        b[k] = res->bindings[i];
        b[k].used_compare = (res->flags[i] & EG_REFLECT_USED_COMPARE) != 0;
        b[k].used_filtered = (res->flags[i] & EG_REFLECT_USED_FILTERED) != 0;
        k++;
    }
    for (uint32_t i = 0; i < n_pairs; i++) {
        p[i] = res->pairs[i];
        p[i].texture = res->map[res->pairs[i].texture];
        p[i].sampler = res->map[res->pairs[i].sampler];
    }
    e->bindings = b;
    e->binding_count = n;
    e->pairs = p;
    e->pair_count = n_pairs;
    e->workgroup_storage_B = workgroup_bytes(m, res);
    return true;
}
