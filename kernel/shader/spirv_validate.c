/* SPIR-V validation, module-level rules: capabilities through global variables. */
#include "kernel/shader/spirv_internal.h"

static bool in_list(uint32_t v, const uint32_t *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == v) return true;
    return false;
}
#define IN(v, ...) in_list((v), (const uint32_t[]){__VA_ARGS__}, \
                           sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

/* The literal string at word i, or NULL (after reporting STRING) when it is not terminated. */
static const char *string_at(eg_spirv_ctx_t *c, uint32_t w, uint32_t i)
{
    if (!eg_spirv_string_end(c->m, w, i)) {
        eg_spirv_fail(c, EG_SPIRV_RULE_STRING, w, "literal string at operand word %u has no NUL "
                      "before the end of the instruction", (unsigned)i);
        return NULL;
    }
    return (const char *)(const void *)&c->m->words[w + i];
}

static bool has_prefix(const char *s, const char *prefix)
{
    while (*prefix)
        if (*s++ != *prefix++) return false;
    return true;
}

/* WebGPU env "Capabilities", "Extensions", "Extended Instruction Sets", "SPIR-V Memory Model".
 * One deliberate addition to the env doc's capability list: SampleRateShading. The SPIR-V spec
 * makes it required by the SampleId built-in, which the env doc allows and WebGPU core exposes
 * (WGSL @builtin(sample_index), no feature needed); without it that built-in could never be
 * declared. Every backend implements it (soft: per-sample shading; Vulkan enables the
 * sampleRateShading device feature). */
static bool check_preamble(eg_spirv_ctx_t *c, uint32_t w, uint32_t op)
{
    const eg_spirv_module_t *m = c->m;
    const char *s;
    switch (op) {
    case SpvOpCapability: {
        uint32_t cap = eg_spirv_word(m, w, 1);
        if (!IN(cap, SpvCapabilityMatrix, SpvCapabilityShader, SpvCapabilitySampled1D,
                SpvCapabilityImage1D, SpvCapabilityDerivativeControl, SpvCapabilityImageQuery,
                SpvCapabilityVulkanMemoryModel, SpvCapabilitySampleRateShading))
            return eg_spirv_fail(c, EG_SPIRV_RULE_CAPABILITY, w, "capability %u is not allowed "
                                 "(allowed: Matrix, Shader, Sampled1D, Image1D, DerivativeControl, "
                                 "ImageQuery, VulkanMemoryModelKHR, SampleRateShading)", (unsigned)cap);
        return true;
    }
    case SpvOpExtension:
        if (!(s = string_at(c, w, 1))) return false;
        if (eg_strcmp(s, "SPV_KHR_vulkan_memory_model") && eg_strcmp(s, "SPV_KHR_storage_buffer_storage_class") &&
            eg_strcmp(s, "SPV_KHR_non_semantic_info"))
            return eg_spirv_fail(c, EG_SPIRV_RULE_EXTENSION, w, "extension \"%.64s\" is not allowed", s);
        return true;
    case SpvOpExtInstImport:
        if (!(s = string_at(c, w, 2))) return false;
        if (eg_strcmp(s, "GLSL.std.450") && !has_prefix(s, "NonSemantic."))
            return eg_spirv_fail(c, EG_SPIRV_RULE_EXT_INST_SET, w, "extended instruction set \"%.64s\" "
                                 "is not allowed (GLSL.std.450 or NonSemantic.*)", s);
        return true;
    case SpvOpMemoryModel:
        if (eg_spirv_word(m, w, 1) != SpvAddressingModelLogical ||
            !IN(eg_spirv_word(m, w, 2), SpvMemoryModelSimple, SpvMemoryModelGLSL450, SpvMemoryModelVulkan))
            return eg_spirv_fail(c, EG_SPIRV_RULE_MEMORY_MODEL, w, "addressing %u / memory model %u: "
                                 "addressing must be Logical (0), memory model Simple (0), GLSL450 (1) "
                                 "or Vulkan (3)", (unsigned)eg_spirv_word(m, w, 1), (unsigned)eg_spirv_word(m, w, 2));
        c->memory_model = eg_spirv_word(m, w, 2);
        return true;
    default:
        return true;
    }
}

/* WebGPU env "Entry Points" and "Execution Modes". */
static bool check_entry(eg_spirv_ctx_t *c, uint32_t w, uint32_t op)
{
    eg_spirv_module_t *m = c->m;
    if (op == SpvOpEntryPoint) {
        uint32_t model = eg_spirv_word(m, w, 1), fn = eg_spirv_word(m, w, 2);
        const char *name = string_at(c, w, 3);
        if (!name) return false;
        if (!IN(model, SpvExecutionModelVertex, SpvExecutionModelFragment, SpvExecutionModelGLCompute))
            return eg_spirv_fail(c, EG_SPIRV_RULE_EXECUTION_MODEL, w, "execution model %u of \"%.32s\" "
                                 "is not Vertex (0), Fragment (4) or GLCompute (5)", (unsigned)model, name);
        if (eg_spirv_def_op(m, fn) != SpvOpFunction)
            return eg_spirv_fail(c, EG_SPIRV_RULE_ID_UNDEFINED, w, "entry point \"%.32s\" names id %u, "
                                 "which is not an OpFunction", name, (unsigned)fn);
        /* Entry points are contiguous (layout checked), so the earlier ones are right before. */
        for (uint32_t p = c->entry_seen; p < w; p += eg_spirv_wc(m, p))
            if (eg_spirv_op(m, p) == SpvOpEntryPoint &&
                eg_strcmp((const char *)(const void *)&m->words[p + 3], name) == 0)
                return eg_spirv_fail(c, EG_SPIRV_RULE_ENTRY_POINT_NAME, w, "entry point name \"%.32s\" "
                                     "is already used", name);
        if (!c->entry_seen) c->entry_seen = w;
        m->ids[fn].flags |= EG_SPIRV_ID_ENTRY;
        m->entry_count++;
        return true;
    }
    uint32_t fn = eg_spirv_word(m, w, 1), mode = eg_spirv_word(m, w, 2);
    if (eg_spirv_def_op(m, fn) != SpvOpFunction || !(m->ids[fn].flags & EG_SPIRV_ID_ENTRY))
        return eg_spirv_fail(c, EG_SPIRV_RULE_ID_UNDEFINED, w, "execution mode target %u is not an "
                             "entry point function", (unsigned)fn);
    if (op != SpvOpExecutionMode ||
        !IN(mode, SpvExecutionModeOriginUpperLeft, SpvExecutionModeDepthReplacing,
            SpvExecutionModeDepthGreater, SpvExecutionModeDepthLess, SpvExecutionModeDepthUnchanged,
            SpvExecutionModeLocalSize))
        return eg_spirv_fail(c, EG_SPIRV_RULE_EXECUTION_MODE, w, "execution mode %u is not allowed "
                             "(OriginUpperLeft, DepthReplacing/Greater/Less/Unchanged, LocalSize)",
                             (unsigned)mode);
    return true;
}

static bool sc_allowed(uint32_t sc)
{
    return IN(sc, SpvStorageClassUniformConstant, SpvStorageClassInput, SpvStorageClassUniform,
              SpvStorageClassOutput, SpvStorageClassWorkgroup, SpvStorageClassPrivate,
              SpvStorageClassFunction, SpvStorageClassStorageBuffer, SpvStorageClassImage);
}

static bool holds_runtime_array(const eg_spirv_module_t *m, uint32_t type)
{
    return eg_spirv_def_op(m, type) == SpvOpTypeRuntimeArray ||
           (eg_spirv_def_op(m, type) == SpvOpTypeStruct && (m->ids[type].flags & EG_SPIRV_ID_HAS_RUNTIME_ARRAY));
}

/* WebGPU env "Types": widths, vector and matrix sizes, storage classes, runtime arrays. */
static bool check_type(eg_spirv_ctx_t *c, uint32_t w, uint32_t op)
{
    eg_spirv_module_t *m = c->m;
    uint32_t wc = eg_spirv_wc(m, w), id = eg_spirv_word(m, w, 1), n = eg_spirv_word(m, w, 3);
    switch (op) {
    case SpvOpTypeInt: case SpvOpTypeFloat:
        if (eg_spirv_word(m, w, 2) != 32)
            return eg_spirv_fail(c, EG_SPIRV_RULE_TYPE_WIDTH, w, "%s width %u: only 32-bit is allowed",
                                 op == SpvOpTypeInt ? "integer" : "float", (unsigned)eg_spirv_word(m, w, 2));
        return true;
    case SpvOpTypeVector:
        if (n < 2 || n > 4)
            return eg_spirv_fail(c, EG_SPIRV_RULE_TYPE_VECTOR, w, "%u components (2 to 4 allowed)", (unsigned)n);
        return true;
    case SpvOpTypeMatrix:
        if (n < 2 || n > 4)
            return eg_spirv_fail(c, EG_SPIRV_RULE_TYPE_MATRIX, w, "%u columns (2 to 4 allowed)", (unsigned)n);
        return true;
    case SpvOpTypeArray: case SpvOpTypeRuntimeArray:
        if (holds_runtime_array(m, eg_spirv_word(m, w, 2)))
            return eg_spirv_fail(c, EG_SPIRV_RULE_RUNTIME_ARRAY, w, "array element type %u holds a "
                                 "runtime array", (unsigned)eg_spirv_word(m, w, 2));
        return true;
    case SpvOpTypeStruct:
        for (uint32_t i = 2; i < wc; i++) {
            uint32_t t = m->words[w + i];
            bool last = i + 1 == wc;
            if ((eg_spirv_def_op(m, t) == SpvOpTypeRuntimeArray && !last) ||
                (eg_spirv_def_op(m, t) == SpvOpTypeStruct && holds_runtime_array(m, t)))
                return eg_spirv_fail(c, EG_SPIRV_RULE_RUNTIME_ARRAY, w, "member %u holds a runtime "
                                     "array but is not the last member of a block", (unsigned)(i - 2));
            if (last && eg_spirv_def_op(m, t) == SpvOpTypeRuntimeArray)
                m->ids[id].flags |= EG_SPIRV_ID_HAS_RUNTIME_ARRAY;
        }
        return true;
    case SpvOpTypePointer: {
        uint32_t sc = eg_spirv_word(m, w, 2), pointee = eg_spirv_word(m, w, 3);
        if (!sc_allowed(sc))
            return eg_spirv_fail(c, EG_SPIRV_RULE_STORAGE_CLASS, w, "storage class %u is not allowed", (unsigned)sc);
        if (holds_runtime_array(m, pointee) &&
            (sc != SpvStorageClassStorageBuffer || eg_spirv_def_op(m, pointee) != SpvOpTypeStruct ||
             !(m->ids[pointee].flags & EG_SPIRV_ID_BLOCK)))
            return eg_spirv_fail(c, EG_SPIRV_RULE_RUNTIME_ARRAY, w, "pointer to %u in storage class %u: "
                                 "a runtime array must be the last member of a Block struct in StorageBuffer",
                                 (unsigned)pointee, (unsigned)sc);
        return true;
    }
    default:
        return true;
    }
}

/* The pointee of a variable's pointer type; 0 when the type is not a pointer. */
static uint32_t pointee_of(const eg_spirv_module_t *m, uint32_t ptr_type)
{
    uint32_t d = eg_spirv_def(m, ptr_type);
    return d && eg_spirv_op(m, d) == SpvOpTypePointer ? eg_spirv_word(m, d, 3) : 0;
}

/* WebGPU env "Initializers" and the resource rules WebGPU's binding model implies. */
static bool check_variable(eg_spirv_ctx_t *c, uint32_t w)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t sc = eg_spirv_word(m, w, 3), type = pointee_of(m, eg_spirv_word(m, w, 1));
    if (!sc_allowed(sc))
        return eg_spirv_fail(c, EG_SPIRV_RULE_STORAGE_CLASS, w, "storage class %u is not allowed", (unsigned)sc);
    if (!type)
        return eg_spirv_fail(c, EG_SPIRV_RULE_ID_UNDEFINED, w, "result type %u is not an OpTypePointer",
                             (unsigned)eg_spirv_word(m, w, 1));
    /* WebGPU env "Initializers": "If a variable declaration has an initializer, then the variable
     * must be in one of the following storage classes: Output, Private, Function" and "All
     * variables in the following storage classes must have an initializer: Output, Private,
     * Function" (so no shader reads memory it did not write). */
    bool needs_init = IN(sc, SpvStorageClassOutput, SpvStorageClassPrivate, SpvStorageClassFunction);
    if (eg_spirv_wc(m, w) > 4 && !needs_init)
        return eg_spirv_fail(c, EG_SPIRV_RULE_INITIALIZER, w, "a variable in storage class %u has an "
                             "initializer; only Output, Private and Function may", (unsigned)sc);
    if (eg_spirv_wc(m, w) <= 4 && needs_init)
        return eg_spirv_fail(c, EG_SPIRV_RULE_INITIALIZER_REQUIRED, w, "%s variable has no initializer; "
                             "WebGPU requires one (glslang emits none: run tools/spv_reorder.py, which adds "
                             "OpConstantNull initializers)", sc == SpvStorageClassOutput ? "an Output"
                             : sc == SpvStorageClassPrivate ? "a Private" : "a Function");
    if (!IN(sc, SpvStorageClassUniformConstant, SpvStorageClassUniform, SpvStorageClassStorageBuffer))
        return true;
    uint32_t top = type;
    if (IN(eg_spirv_def_op(m, type), SpvOpTypeArray, SpvOpTypeRuntimeArray))
        type = eg_spirv_word(m, eg_spirv_def(m, type), 2);
    if (eg_spirv_def_op(m, type) == SpvOpTypeSampledImage)
        return eg_spirv_fail(c, EG_SPIRV_RULE_COMBINED_IMAGE_SAMPLER, w, "variable of OpTypeSampledImage: "
                             "WebGPU binds textures and samplers separately (texture2D + sampler in GLSL)");
    if (type != top)
        return eg_spirv_fail(c, EG_SPIRV_RULE_RESOURCE_ARRAY, w, "resource variable is an array; "
                             "WebGPU binds one resource per binding");
    return true;
}

/* GLSL.std.450 instructions WebGPU modules cannot use: IMix (47) is "Reserved" in the
 * extended-instruction-set spec (spirv-val rejects it), InterpolateAtCentroid/Sample/Offset
 * (76-78) need the InterpolationFunction capability, and numbers past 81 do not exist. The
 * NonSemantic.* sets are ignored by definition. */
static bool check_ext_inst(eg_spirv_ctx_t *c, uint32_t w)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t set = eg_spirv_word(m, w, 3), inst = eg_spirv_word(m, w, 4);
    uint32_t d = eg_spirv_def(m, set);
    if (!d || eg_spirv_op(m, d) != SpvOpExtInstImport) return true;   /* operand checks report it */
    const char *name = (const char *)(const void *)&m->words[d + 2];
    if (eg_strcmp(name, "GLSL.std.450")) return true;
    if (inst == 0 || inst > 81 || inst == 47)
        return eg_spirv_fail(c, EG_SPIRV_RULE_EXT_INST_SET, w, "GLSL.std.450 instruction %u does not exist "
                             "(47 IMix is reserved; valid: 1 to 81)", (unsigned)inst);
    if (inst >= 76 && inst <= 78)
        return eg_spirv_fail(c, EG_SPIRV_RULE_EXT_INST_SET, w, "GLSL.std.450 InterpolateAt%s (%u) needs the "
                             "InterpolationFunction capability, which WebGPU does not allow",
                             inst == 76 ? "Centroid" : inst == 77 ? "Sample" : "Offset", (unsigned)inst);
    return true;
}

static bool check_shuffle(eg_spirv_ctx_t *c, uint32_t w)
{
    for (uint32_t i = 5; i < eg_spirv_wc(c->m, w); i++)
        if (c->m->words[w + i] == 0xffffffffu)
            return eg_spirv_fail(c, EG_SPIRV_RULE_VECTOR_SHUFFLE_UNDEF, w, "component %u is 0xFFFFFFFF "
                                 "(an undefined component)", (unsigned)(i - 5));
    return true;
}

/* Which checker an opcode goes to: 0 preamble, 1 entry points and modes, 2 annotations, 3 types. */
static int section_class(uint32_t op)
{
    switch (op) {
    case SpvOpCapability: case SpvOpExtension: case SpvOpExtInstImport: case SpvOpMemoryModel: return 0;
    case SpvOpEntryPoint: case SpvOpExecutionMode: case SpvOpExecutionModeId: return 1;
    case SpvOpDecorate: case SpvOpMemberDecorate: case SpvOpDecorateId: case SpvOpDecorateString:
    case SpvOpMemberDecorateString: return 2;
    case SpvOpTypeInt: case SpvOpTypeFloat: case SpvOpTypeVector: case SpvOpTypeMatrix: case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray: case SpvOpTypeStruct: case SpvOpTypePointer: return 3;
    default: return -1;
    }
}

bool eg_spirv_validate_module(eg_spirv_ctx_t *c)
{
    const eg_spirv_module_t *m = c->m;
    if (!eg_spirv_validate_operands(c)) return false;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        uint32_t op = eg_spirv_op(m, w);
        bool ok = true;
        switch (section_class(op)) {
        case 0: ok = check_preamble(c, w, op); break;
        case 1: ok = check_entry(c, w, op); break;
        case 2: ok = eg_spirv_check_decoration(c, w, op); break;
        case 3: ok = check_type(c, w, op); break;
        default:
            if (op == SpvOpVariable) ok = check_variable(c, w);
            else if (op == SpvOpVectorShuffle) ok = check_shuffle(c, w);
            else if (op == SpvOpExtInst) ok = check_ext_inst(c, w);
            break;
        }
        if (!ok) return false;
    }
    if (c->memory_model == ~0u)
        return eg_spirv_fail(c, EG_SPIRV_RULE_MEMORY_MODEL, 0, "the module has no OpMemoryModel");
    if (m->entry_count == 0)
        return eg_spirv_fail(c, EG_SPIRV_RULE_NO_ENTRY_POINT, 0, "the module has no OpEntryPoint; "
                             "WebGPU needs at least one");
    return eg_spirv_validate_layout(c);
}
