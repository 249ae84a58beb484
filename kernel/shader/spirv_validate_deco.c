/* SPIR-V validation, annotations: the allowed decorations, their targets, and the built-in table. */
#include "kernel/shader/spirv_internal.h"

/* Execution-model bits for the tables below. */
enum { M_V = 1u << 0, M_F = 1u << 1, M_C = 1u << 2 };

/* Shapes a built-in's type may take (WebGPU env "Built-In Variables", column "Allowed types"). */
typedef enum bi_type { T_VEC4F, T_INT, T_BOOL, T_F32, T_VEC3I, T_INT_ARRAY, T_F32_ARRAY } bi_type_t;

/* WebGPU env "Built-In Variables": built-in, allowed type, execution models allowed for the
 * Input and for the Output storage class (0: not allowed in that class). Beyond the env's table:
 * SampleId and SampleMask (WebGPU's sample_index and sample_mask), WorkgroupId (WebGPU's
 * workgroup_id), and the gl_PerVertex members glslang declares in every vertex shader
 * (PointSize, ClipDistance, CullDistance: members only, which a translator drops). */
static const struct builtin_row {
    uint16_t builtin;
    uint8_t type, in_models, out_models, member_only;
    const char *name;
} builtins[] = {
    {SpvBuiltInPosition, T_VEC4F, 0, M_V, 0, "Position"},
    {SpvBuiltInVertexIndex, T_INT, M_V, 0, 0, "VertexIndex"},
    {SpvBuiltInInstanceIndex, T_INT, M_V, 0, 0, "InstanceIndex"},
    {SpvBuiltInFrontFacing, T_BOOL, M_F, 0, 0, "FrontFacing"},
    {SpvBuiltInFragCoord, T_VEC4F, M_F, 0, 0, "FragCoord"},
    {SpvBuiltInFragDepth, T_F32, 0, M_F, 0, "FragDepth"},
    {SpvBuiltInSampleId, T_INT, M_F, 0, 0, "SampleId"},
    {SpvBuiltInSampleMask, T_INT_ARRAY, M_F, M_F, 0, "SampleMask"},
    {SpvBuiltInNumWorkgroups, T_VEC3I, M_C, 0, 0, "NumWorkgroups"},
    {SpvBuiltInWorkgroupSize, T_VEC3I, M_C, 0, 0, "WorkgroupSize"},
    {SpvBuiltInWorkgroupId, T_VEC3I, M_C, 0, 0, "WorkgroupId"},
    {SpvBuiltInLocalInvocationId, T_VEC3I, M_C, 0, 0, "LocalInvocationId"},
    {SpvBuiltInGlobalInvocationId, T_VEC3I, M_C, 0, 0, "GlobalInvocationId"},
    {SpvBuiltInLocalInvocationIndex, T_INT, M_C, 0, 0, "LocalInvocationIndex"},
    {SpvBuiltInPointSize, T_F32, 0, M_V, 1, "PointSize"},
    {SpvBuiltInClipDistance, T_F32_ARRAY, 0, M_V, 1, "ClipDistance"},
    {SpvBuiltInCullDistance, T_F32_ARRAY, 0, M_V, 1, "CullDistance"},
};

static const char *const type_names[] = {
    "a vector of 4 32-bit floats", "a 32-bit integer", "a boolean", "a 32-bit float",
    "a vector of 3 32-bit integers", "an array of 32-bit integers", "an array of 32-bit floats",
};

static bool is_scalar(const eg_spirv_module_t *m, uint32_t type, uint32_t op)
{
    uint32_t d = eg_spirv_def(m, type);
    return d && eg_spirv_op(m, d) == op && (op == SpvOpTypeBool || eg_spirv_word(m, d, 2) == 32);
}

static bool is_vector(const eg_spirv_module_t *m, uint32_t type, uint32_t comp_op, uint32_t n)
{
    uint32_t d = eg_spirv_def(m, type);
    return d && eg_spirv_op(m, d) == SpvOpTypeVector && eg_spirv_word(m, d, 3) == n &&
           is_scalar(m, eg_spirv_word(m, d, 2), comp_op);
}

static bool type_matches(const eg_spirv_module_t *m, uint32_t type, bi_type_t want)
{
    uint32_t d = eg_spirv_def(m, type);
    switch (want) {
    case T_VEC4F: return is_vector(m, type, SpvOpTypeFloat, 4);
    case T_INT: return is_scalar(m, type, SpvOpTypeInt);
    case T_BOOL: return is_scalar(m, type, SpvOpTypeBool);
    case T_F32: return is_scalar(m, type, SpvOpTypeFloat);
    case T_VEC3I: return is_vector(m, type, SpvOpTypeInt, 3);
    case T_INT_ARRAY: case T_F32_ARRAY:
        return d && eg_spirv_op(m, d) == SpvOpTypeArray &&
               is_scalar(m, eg_spirv_word(m, d, 2), want == T_INT_ARRAY ? SpvOpTypeInt : SpvOpTypeFloat);
    }
    return false;
}

/* Bits of the execution models of the entry points whose interface lists variable `var`. */
static uint32_t models_using(const eg_spirv_ctx_t *c, uint32_t var)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t bits = 0;
    for (uint32_t w = c->entry_seen; w && w < c->anno_begin; w += eg_spirv_wc(m, w)) {
        if (eg_spirv_op(m, w) != SpvOpEntryPoint) continue;
        uint32_t model = eg_spirv_word(m, w, 1);
        uint32_t bit = model == SpvExecutionModelVertex ? M_V : model == SpvExecutionModelFragment ? M_F : M_C;
        for (uint32_t i = eg_spirv_string_end(m, w, 3); i && i < eg_spirv_wc(m, w); i++)
            if (m->words[w + i] == var) bits |= bit;
    }
    return bits;
}

static const char *model_list(uint32_t bits)
{
    static const char *const names[] = {"none", "Vertex", "Fragment", "Vertex, Fragment", "GLCompute",
                                        "Vertex, GLCompute", "Fragment, GLCompute", "any"};
    return names[bits & 7u];
}

/* Storage class and pointee type of variable `var`; false when var is not an OpVariable. */
static bool variable_info(const eg_spirv_module_t *m, uint32_t var, uint32_t *sc, uint32_t *pointee)
{
    uint32_t d = eg_spirv_def(m, var);
    if (!d || eg_spirv_op(m, d) != SpvOpVariable) return false;
    uint32_t pt = eg_spirv_def(m, eg_spirv_word(m, d, 1));
    *sc = eg_spirv_word(m, d, 3);
    *pointee = pt && eg_spirv_op(m, pt) == SpvOpTypePointer ? eg_spirv_word(m, pt, 3) : 0;
    return true;
}

/* One variable carrying a built-in (directly, or through the struct member `member_type`). */
static bool check_builtin_var(eg_spirv_ctx_t *c, uint32_t w, const struct builtin_row *r, uint32_t var,
                              uint32_t sc, uint32_t type)
{
    if (!type_matches(c->m, type, (bi_type_t)r->type))
        return eg_spirv_fail(c, EG_SPIRV_RULE_BUILTIN_TYPE, w, "built-in %s must be %s (type %u is not)",
                             r->name, type_names[r->type], (unsigned)type);
    uint32_t allowed = sc == SpvStorageClassInput ? r->in_models : sc == SpvStorageClassOutput ? r->out_models : 0;
    if (!allowed)
        return eg_spirv_fail(c, EG_SPIRV_RULE_BUILTIN_STAGE, w, "built-in %s on variable %u in storage class %u; "
                             "it is allowed as %s", r->name, (unsigned)var, (unsigned)sc,
                             r->in_models ? (r->out_models ? "Input or Output" : "Input") : "Output");
    uint32_t used = models_using(c, var);
    if (used & ~allowed)
        return eg_spirv_fail(c, EG_SPIRV_RULE_BUILTIN_STAGE, w, "built-in %s (%s) is used by a %s entry point; "
                             "allowed: %s", r->name, sc == SpvStorageClassInput ? "Input" : "Output",
                             model_list(used & ~allowed), model_list(allowed));
    return true;
}

/* WebGPU env "Built-In Variables": the table row's type, storage class and execution models, for
 * a decorated variable, a decorated constant (WorkgroupSize), or every variable of a struct type
 * with a decorated member (gl_PerVertex). */
static bool check_builtin(eg_spirv_ctx_t *c, uint32_t w, bool member, uint32_t target, uint32_t value)
{
    const eg_spirv_module_t *m = c->m;
    const struct builtin_row *r = NULL;
    for (size_t i = 0; i < EG_ARRAY_LEN(builtins); i++)
        if (builtins[i].builtin == value) r = &builtins[i];
    if (!r || (r->member_only && !member))
        return eg_spirv_fail(c, EG_SPIRV_RULE_BUILTIN, w, "built-in %u on %%%u is not allowed%s", (unsigned)value,
                             (unsigned)target, r ? " outside a gl_PerVertex block member" : "");
    uint32_t sc, type;
    if (!member) {
        if (variable_info(m, target, &sc, &type)) return check_builtin_var(c, w, r, target, sc, type);
        uint32_t d = eg_spirv_def(m, target), op = d ? eg_spirv_op(m, d) : 0;
        bool constant = op == SpvOpConstantComposite || op == SpvOpSpecConstantComposite;
        if (constant && value == SpvBuiltInWorkgroupSize && type_matches(m, eg_spirv_word(m, d, 1), T_VEC3I))
            return true;
        return eg_spirv_fail(c, EG_SPIRV_RULE_BUILTIN_TYPE, w, "built-in %s on %%%u, which is not a variable%s",
                             r->name, (unsigned)target, value == SpvBuiltInWorkgroupSize ? " or a uvec3 constant" : "");
    }
    uint32_t sd = eg_spirv_def(m, target), idx = eg_spirv_word(m, w, 2);
    if (!sd || eg_spirv_op(m, sd) != SpvOpTypeStruct || idx + 2 >= eg_spirv_wc(m, sd))
        return eg_spirv_fail(c, EG_SPIRV_RULE_BUILTIN_TYPE, w, "member %u of %%%u is not a struct member",
                             (unsigned)idx, (unsigned)target);
    uint32_t mtype = eg_spirv_word(m, sd, 2 + idx);
    if (!type_matches(m, mtype, (bi_type_t)r->type))
        return eg_spirv_fail(c, EG_SPIRV_RULE_BUILTIN_TYPE, w, "built-in %s must be %s (member type %u is not)",
                             r->name, type_names[r->type], (unsigned)mtype);
    for (uint32_t v = c->anno_end; v && v < m->word_count; v += eg_spirv_wc(m, v)) {
        if (eg_spirv_op(m, v) != SpvOpVariable) continue;
        uint32_t var = eg_spirv_word(m, v, 2);
        if (variable_info(m, var, &sc, &type) && type == target && !check_builtin_var(c, w, r, var, sc, mtype))
            return false;
    }
    return true;
}

/* WebGPU env "Annotations": NoPerspective and Flat "only in the Input storage class and the
 * Fragment execution model". Relaxation: also on Vertex Output variables, because WebGPU declares
 * interpolation on both sides of the interface (glslang's `flat out` becomes Flat on the vertex
 * output; the fragment input's decoration is what Vulkan interpolates by). */
static bool check_interp_var(eg_spirv_ctx_t *c, uint32_t w, const char *name, uint32_t target, uint32_t var)
{
    uint32_t sc, type;
    if (!variable_info(c->m, var, &sc, &type))
        return eg_spirv_fail(c, EG_SPIRV_RULE_DECORATION_TARGET, w, "%s on %%%u, which is not a variable",
                             name, (unsigned)target);
    uint32_t used = models_using(c, var);
    bool ok = (sc == SpvStorageClassInput && !(used & ~(uint32_t)M_F)) ||
              (sc == SpvStorageClassOutput && !(used & ~(uint32_t)M_V));
    if (!ok)
        return eg_spirv_fail(c, EG_SPIRV_RULE_DECORATION_TARGET, w, "%s on variable %u (storage class %u, "
                             "used by %s entry points): only Fragment inputs (and Vertex outputs) may be "
                             "decorated %s", name, (unsigned)var, (unsigned)sc, model_list(used), name);
    return true;
}

static bool check_interpolation(eg_spirv_ctx_t *c, uint32_t w, bool member, uint32_t target, uint32_t dec)
{
    const eg_spirv_module_t *m = c->m;
    const char *name = dec == SpvDecorationFlat ? "Flat" : "NoPerspective";
    if (!member) return check_interp_var(c, w, name, target, target);
    for (uint32_t v = c->anno_end; v && v < m->word_count; v += eg_spirv_wc(m, v)) {
        uint32_t var = eg_spirv_word(m, v, 2), sc, type;
        if (eg_spirv_op(m, v) == SpvOpVariable && variable_info(m, var, &sc, &type) && type == target &&
            !check_interp_var(c, w, name, target, var))
            return false;
    }
    return true;
}

/* WebGPU env "Annotations": the decoration allow-list (BufferBlock has its own message: storage
 * buffers are Block structs in the StorageBuffer class), then per-decoration restrictions. */
bool eg_spirv_check_decoration(eg_spirv_ctx_t *c, uint32_t w, uint32_t op)
{
    eg_spirv_module_t *m = c->m;
    bool member = op == SpvOpMemberDecorate || op == SpvOpMemberDecorateString;
    uint32_t target = eg_spirv_word(m, w, 1), dec = eg_spirv_word(m, w, member ? 3 : 2);
    uint32_t value = eg_spirv_word(m, w, member ? 4 : 3);
    if (dec == SpvDecorationBufferBlock)
        return eg_spirv_fail(c, EG_SPIRV_RULE_DECORATION, w, "decoration BufferBlock on %%%u is not "
                             "allowed: declare storage buffers as Block in the StorageBuffer storage class",
                             (unsigned)target);
    static const uint16_t allowed[] = {
        SpvDecorationSpecId, SpvDecorationBlock, SpvDecorationRowMajor, SpvDecorationColMajor,
        SpvDecorationArrayStride, SpvDecorationMatrixStride, SpvDecorationBuiltIn, SpvDecorationNoPerspective,
        SpvDecorationFlat, SpvDecorationCentroid, SpvDecorationRestrict, SpvDecorationAliased,
        SpvDecorationNonWritable, SpvDecorationNonReadable, SpvDecorationUniform, SpvDecorationLocation,
        SpvDecorationComponent, SpvDecorationIndex, SpvDecorationBinding, SpvDecorationDescriptorSet,
        SpvDecorationOffset, SpvDecorationNoContraction,
        SpvDecorationSample,   /* WGSL @interpolate(_, sample), core WebGPU (as SampleRateShading) */
    };
    bool ok = false;
    for (size_t i = 0; i < EG_ARRAY_LEN(allowed); i++) ok = ok || allowed[i] == dec;
    if (!ok || op == SpvOpDecorateId)
        return eg_spirv_fail(c, EG_SPIRV_RULE_DECORATION, w, "decoration %u on %%%u is not allowed",
                             (unsigned)dec, (unsigned)target);
    if (dec == SpvDecorationBlock && !member && target < m->bound) m->ids[target].flags |= EG_SPIRV_ID_BLOCK;
    if (dec == SpvDecorationFlat || dec == SpvDecorationNoPerspective)
        return check_interpolation(c, w, member, target, dec);
    if (dec == SpvDecorationBuiltIn) return check_builtin(c, w, member, target, value);
    return true;
}
