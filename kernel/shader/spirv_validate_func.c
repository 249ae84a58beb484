/* SPIR-V validation, function-level rules: entry signatures, call order, Workgroup use, scopes. */
#include "kernel/shader/spirv_internal.h"

/* True when id's value is a pointer into Workgroup storage. */
static bool is_workgroup_ptr(const eg_spirv_module_t *m, uint32_t id)
{
    uint32_t d = eg_spirv_def(m, id);
    if (!d) return false;
    bool has_result = false, has_type = false;
    SpvHasResultAndType((SpvOp)eg_spirv_op(m, d), &has_result, &has_type);
    if (!has_type) return false;
    uint32_t t = eg_spirv_def(m, eg_spirv_word(m, d, 1));
    return t && eg_spirv_op(m, t) == SpvOpTypePointer && eg_spirv_word(m, t, 2) == SpvStorageClassWorkgroup;
}

/* Operand word of the memory pointer an instruction accesses; 0 when it accesses none. */
static uint32_t pointer_operand(uint32_t op)
{
    switch (op) {
    case SpvOpLoad: case SpvOpAccessChain: case SpvOpInBoundsAccessChain: return 3;
    case SpvOpStore: case SpvOpCopyMemory: case SpvOpAtomicStore: return 1;
    default: return op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor ? 3 : 0;
    }
}

/* Value of a scope or semantics operand: it must be an OpConstant (Shader modules). */
static bool constant_value(eg_spirv_ctx_t *c, uint32_t w, uint32_t id, uint32_t *out)
{
    uint32_t d = eg_spirv_def(c->m, id);
    if (!d || eg_spirv_op(c->m, d) != SpvOpConstant)
        return eg_spirv_fail(c, EG_SPIRV_RULE_SCOPE, w, "scope/semantics operand %u is not an OpConstant",
                             (unsigned)id);
    *out = eg_spirv_word(c->m, d, 3);
    return true;
}

/* WebGPU env "Scope" and "Memory Semantics". Device memory scope is accepted with the Simple and
 * GLSL450 memory models, where glslang uses it for buffer atomics and memoryBarrier(). */
static bool check_scope(eg_spirv_ctx_t *c, uint32_t w, uint32_t id, bool execution)
{
    uint32_t s = 0;
    if (!constant_value(c, w, id, &s)) return false;
    bool ok = s == SpvScopeWorkgroup || s == SpvScopeSubgroup;
    if (!execution)
        ok = ok || s == SpvScopeQueueFamily || (s == SpvScopeDevice && c->memory_model != SpvMemoryModelVulkan);
    if (!ok)
        return eg_spirv_fail(c, EG_SPIRV_RULE_SCOPE, w, "%s scope %u is not allowed (%s)",
                             execution ? "execution" : "memory", (unsigned)s,
                             execution ? "Workgroup or Subgroup" : "Workgroup, Subgroup or QueueFamily");
    return true;
}

static bool check_semantics(eg_spirv_ctx_t *c, uint32_t w, uint32_t id)
{
    const uint32_t allowed = SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
        SpvMemorySemanticsAcquireReleaseMask | SpvMemorySemanticsUniformMemoryMask |
        SpvMemorySemanticsWorkgroupMemoryMask | SpvMemorySemanticsImageMemoryMask |
        SpvMemorySemanticsOutputMemoryMask | SpvMemorySemanticsMakeAvailableMask |
        SpvMemorySemanticsMakeVisibleMask;
    uint32_t v = 0;
    if (!constant_value(c, w, id, &v)) return false;
    if (v & ~allowed)
        return eg_spirv_fail(c, EG_SPIRV_RULE_MEMORY_SEMANTICS, w, "memory semantics 0x%x has bits 0x%x "
                             "outside Acquire/Release/AcquireRelease and the Uniform/Workgroup/Image/Output "
                             "memory, MakeAvailable, MakeVisible bits", (unsigned)v, (unsigned)(v & ~allowed));
    /* SPIR-V 3.25: "at most one of these bits may be set" (Acquire, Release, AcquireRelease). */
    uint32_t order = v & (SpvMemorySemanticsAcquireMask | SpvMemorySemanticsReleaseMask |
                          SpvMemorySemanticsAcquireReleaseMask);
    if (order & (order - 1u))
        return eg_spirv_fail(c, EG_SPIRV_RULE_MEMORY_SEMANTICS, w, "memory semantics 0x%x sets more than one "
                             "of Acquire, Release and AcquireRelease", (unsigned)v);
    return true;
}

/* Atomics operate on a 32-bit integer in StorageBuffer or Workgroup memory, or on a storage
 * texel (OpImageTexelPointer gives an Image pointer): WebGPU has atomic<i32>/atomic<u32> in the
 * storage and workgroup address spaces only, and SPIR-V's Vulkan rules add the image texels. */
static bool check_atomic_pointer(eg_spirv_ctx_t *c, uint32_t w, uint32_t ptr)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t d = eg_spirv_def(m, ptr), t = d ? eg_spirv_def(m, eg_spirv_word(m, d, 1)) : 0;
    uint32_t sc = t && eg_spirv_op(m, t) == SpvOpTypePointer ? eg_spirv_word(m, t, 2) : ~0u;
    uint32_t pd = t ? eg_spirv_def(m, eg_spirv_word(m, t, 3)) : 0;
    if (sc != SpvStorageClassStorageBuffer && sc != SpvStorageClassWorkgroup && sc != SpvStorageClassImage)
        return eg_spirv_fail(c, EG_SPIRV_RULE_ATOMIC, w, "atomic on pointer %u in storage class %d; only "
                             "StorageBuffer, Workgroup and Image (texel) memory allow atomics", (unsigned)ptr, (int)sc);
    if (!pd || eg_spirv_op(m, pd) != SpvOpTypeInt || eg_spirv_word(m, pd, 2) != 32)
        return eg_spirv_fail(c, EG_SPIRV_RULE_ATOMIC, w, "atomic on pointer %u, which does not point to a "
                             "32-bit integer", (unsigned)ptr);
    return true;
}

static bool check_sync(eg_spirv_ctx_t *c, uint32_t w, uint32_t op)
{
    const eg_spirv_module_t *m = c->m;
    if (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor &&
        !check_atomic_pointer(c, w, eg_spirv_word(m, w, op == SpvOpAtomicStore ? 1 : 3)))
        return false;
    if (op == SpvOpControlBarrier)
        return check_scope(c, w, eg_spirv_word(m, w, 1), true) && check_scope(c, w, eg_spirv_word(m, w, 2), false) &&
               check_semantics(c, w, eg_spirv_word(m, w, 3));
    if (op == SpvOpMemoryBarrier)
        return check_scope(c, w, eg_spirv_word(m, w, 1), false) && check_semantics(c, w, eg_spirv_word(m, w, 2));
    if (op == SpvOpAtomicStore)
        return check_scope(c, w, eg_spirv_word(m, w, 2), false) && check_semantics(c, w, eg_spirv_word(m, w, 3));
    if (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor) {
        if (!check_scope(c, w, eg_spirv_word(m, w, 4), false) || !check_semantics(c, w, eg_spirv_word(m, w, 5)))
            return false;
        if (op == SpvOpAtomicCompareExchange) return check_semantics(c, w, eg_spirv_word(m, w, 6));
    }
    return true;
}

/* WebGPU env "Functions": a callee precedes its caller. With every call pointing backwards the
 * call graph cannot have a cycle, so this one forward loop also rules out recursion, and it lets
 * "uses Workgroup storage" propagate from callees to callers in the same pass. */
static bool check_call(eg_spirv_ctx_t *c, uint32_t w, uint32_t fn)
{
    eg_spirv_module_t *m = c->m;
    uint32_t callee = eg_spirv_word(m, w, 3);
    if (eg_spirv_def_op(m, callee) != SpvOpFunction)
        return eg_spirv_fail(c, EG_SPIRV_RULE_CALL_GRAPH, w, "callee %u is not a function defined in "
                             "the module", (unsigned)callee);
    if (m->ids[callee].def_at >= m->ids[fn].def_at)
        return eg_spirv_fail(c, EG_SPIRV_RULE_FUNCTION_ORDER, w, "function %u calls %u, which is %s; WebGPU "
                             "needs every callee before its callers (glslang emits main first: run "
                             "tools/spv_reorder.py on its output)", (unsigned)fn, (unsigned)callee,
                             callee == fn ? "itself (recursion)" : "defined after it");
    m->ids[fn].flags |= m->ids[callee].flags & (EG_SPIRV_ID_USES_WORKGROUP | EG_SPIRV_ID_USES_BARRIER);
    for (uint32_t i = 4; i < eg_spirv_wc(m, w); i++)
        if (is_workgroup_ptr(m, m->words[w + i])) m->ids[fn].flags |= EG_SPIRV_ID_USES_WORKGROUP;
    return true;
}

static bool check_function_start(eg_spirv_ctx_t *c, uint32_t w, uint32_t fn)
{
    const eg_spirv_module_t *m = c->m;
    if (!(m->ids[fn].flags & EG_SPIRV_ID_ENTRY)) return true;
    if (eg_spirv_def_op(m, eg_spirv_word(m, w, 1)) != SpvOpTypeVoid)
        return eg_spirv_fail(c, EG_SPIRV_RULE_ENTRY_POINT_FUNCTION, w, "entry point function %u does not "
                             "return OpTypeVoid", (unsigned)fn);
    uint32_t next = w + eg_spirv_wc(m, w);
    if (next < m->word_count && eg_spirv_op(m, next) == SpvOpFunctionParameter)
        return eg_spirv_fail(c, EG_SPIRV_RULE_ENTRY_POINT_FUNCTION, next, "entry point function %u takes "
                             "parameters", (unsigned)fn);
    return true;
}

/* WebGPU env: Workgroup storage is only reachable from GLCompute entry points; so is
 * OpControlBarrier (WebGPU's workgroupBarrier/storageBarrier exist in compute shaders only). */
static bool check_entry_stages(eg_spirv_ctx_t *c)
{
    const eg_spirv_module_t *m = c->m;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        if (eg_spirv_op(m, w) != SpvOpEntryPoint) continue;
        uint32_t fn = eg_spirv_word(m, w, 2);
        if (eg_spirv_word(m, w, 1) != SpvExecutionModelGLCompute && (m->ids[fn].flags & EG_SPIRV_ID_USES_WORKGROUP))
            return eg_spirv_fail(c, EG_SPIRV_RULE_WORKGROUP_STAGE, w, "entry point \"%.32s\" (execution model "
                                 "%u) reaches Workgroup storage; only GLCompute may",
                                 (const char *)(const void *)&m->words[w + 3], (unsigned)eg_spirv_word(m, w, 1));
        if (eg_spirv_word(m, w, 1) != SpvExecutionModelGLCompute && (m->ids[fn].flags & EG_SPIRV_ID_USES_BARRIER))
            return eg_spirv_fail(c, EG_SPIRV_RULE_BARRIER_STAGE, w, "entry point \"%.32s\" (execution model "
                                 "%u) reaches OpControlBarrier; only GLCompute may",
                                 (const char *)(const void *)&m->words[w + 3], (unsigned)eg_spirv_word(m, w, 1));
    }
    return true;
}

bool eg_spirv_validate_functions(eg_spirv_ctx_t *c)
{
    eg_spirv_module_t *m = c->m;
    uint32_t fn = 0;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w)) {
        uint32_t op = eg_spirv_op(m, w);
        if (op == SpvOpFunction) {
            fn = eg_spirv_word(m, w, 2);
            if (!check_function_start(c, w, fn)) return false;
            continue;
        }
        if (!fn) continue;
        if (op == SpvOpFunctionEnd) {
            if (!eg_spirv_validate_cfg(c, m->ids[fn].def_at, w)) return false;
            fn = 0;
            continue;
        }
        if (op == SpvOpControlBarrier) m->ids[fn].flags |= EG_SPIRV_ID_USES_BARRIER;
        if (op == SpvOpFunctionCall && !check_call(c, w, fn)) return false;
        if (!check_sync(c, w, op)) return false;
        uint32_t p = pointer_operand(op);
        if (p && (is_workgroup_ptr(m, eg_spirv_word(m, w, p)) ||
                  (op == SpvOpCopyMemory && is_workgroup_ptr(m, eg_spirv_word(m, w, 2)))))
            m->ids[fn].flags |= EG_SPIRV_ID_USES_WORKGROUP;
    }
    return check_entry_stages(c);
}
