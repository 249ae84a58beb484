/* SPIR-V validation, operand ids: each id operand is defined and of the kind its opcode needs. */
#include "kernel/shader/spirv_internal.h"

/* Operand patterns, one character per word after the opcode word (SPIR-V 3.32, the operand lists
 * of each instruction):
 *   T type   V value (has a result type; not a function)   P pointer value   C constant
 *   F function   L label   X extended instruction set   I any defined id
 *   R the result id (checked by the parse)   l literal word   s literal string
 *   f callee (rule CALL_GRAPH: the call graph must be complete)
 *   * repeat the previous character to the end   2 repeat the previous two   . stop checking
 * Opcodes without a row: a result type (if any) must be a type, the rest is not checked. */
static const struct operand_row { uint16_t op; const char *pat; } rows[] = {
    {SpvOpSource, "ll."}, {SpvOpName, "Is"}, {SpvOpMemberName, "Ils"}, {SpvOpString, "Rs"},
    {SpvOpLine, "Ill"}, {SpvOpExtInstImport, "Rs"},
    /* NonSemantic.* instructions take ids of any kind: only the set is checked. */
    {SpvOpExtInst, "TRXl."},
    {SpvOpEntryPoint, "lFsP*"}, {SpvOpExecutionMode, "Fl*"},
    {SpvOpTypeVector, "RTl"}, {SpvOpTypeMatrix, "RTl"}, {SpvOpTypeImage, "RT."},
    {SpvOpTypeSampledImage, "RT"}, {SpvOpTypeArray, "RTC"}, {SpvOpTypeRuntimeArray, "RT"},
    {SpvOpTypeStruct, "RT*"}, {SpvOpTypePointer, "RlT"}, {SpvOpTypeFunction, "RTT*"},
    {SpvOpConstantTrue, "TR"}, {SpvOpConstantFalse, "TR"}, {SpvOpConstant, "TRl*"},
    {SpvOpConstantComposite, "TRC*"}, {SpvOpConstantNull, "TR"}, {SpvOpSpecConstantTrue, "TR"},
    {SpvOpSpecConstantFalse, "TR"}, {SpvOpSpecConstant, "TRl*"}, {SpvOpSpecConstantComposite, "TRC*"},
    {SpvOpSpecConstantOp, "TRlC*"},
    {SpvOpFunction, "TRlT"}, {SpvOpFunctionParameter, "TR"}, {SpvOpFunctionCall, "TRfV*"},
    {SpvOpVariable, "TRlV"}, {SpvOpImageTexelPointer, "TRPVV"}, {SpvOpLoad, "TRPl*"},
    {SpvOpStore, "PVl*"}, {SpvOpCopyMemory, "PPl*"}, {SpvOpAccessChain, "TRPV*"},
    {SpvOpInBoundsAccessChain, "TRPV*"}, {SpvOpArrayLength, "TRPl"},
    {SpvOpDecorate, "Il."}, {SpvOpMemberDecorate, "Il."},
    {SpvOpVectorExtractDynamic, "TRVV"}, {SpvOpVectorInsertDynamic, "TRVVV"},
    {SpvOpVectorShuffle, "TRVVl*"}, {SpvOpCompositeConstruct, "TRV*"}, {SpvOpCompositeExtract, "TRVl*"},
    {SpvOpCompositeInsert, "TRVVl*"}, {SpvOpCopyObject, "TRV"}, {SpvOpTranspose, "TRV"},
    {SpvOpSampledImage, "TRVV"}, {SpvOpImageSampleImplicitLod, "TRVVlV*"},
    {SpvOpImageSampleExplicitLod, "TRVVlV*"}, {SpvOpImageSampleDrefImplicitLod, "TRVVVlV*"},
    {SpvOpImageSampleDrefExplicitLod, "TRVVVlV*"}, {SpvOpImageSampleProjImplicitLod, "TRVVlV*"},
    {SpvOpImageSampleProjExplicitLod, "TRVVlV*"}, {SpvOpImageSampleProjDrefImplicitLod, "TRVVVlV*"},
    {SpvOpImageSampleProjDrefExplicitLod, "TRVVVlV*"}, {SpvOpImageFetch, "TRVVlV*"},
    {SpvOpImageGather, "TRVVVlV*"}, {SpvOpImageDrefGather, "TRVVVlV*"}, {SpvOpImageRead, "TRVVlV*"},
    {SpvOpImageWrite, "VVVlV*"}, {SpvOpImage, "TRV"}, {SpvOpImageQuerySizeLod, "TRVV"},
    {SpvOpImageQuerySize, "TRV"}, {SpvOpImageQueryLod, "TRVV"}, {SpvOpImageQueryLevels, "TRV"},
    {SpvOpImageQuerySamples, "TRV"},
    {SpvOpControlBarrier, "CCC"}, {SpvOpMemoryBarrier, "CC"},
    {SpvOpAtomicLoad, "TRPCC"}, {SpvOpAtomicStore, "PCCV"}, {SpvOpAtomicExchange, "TRPCCV"},
    {SpvOpAtomicCompareExchange, "TRPCCCVV"}, {SpvOpAtomicIIncrement, "TRPCC"},
    {SpvOpAtomicIDecrement, "TRPCC"},
    {SpvOpPhi, "TRVL2"}, {SpvOpLoopMerge, "LLl*"}, {SpvOpSelectionMerge, "Ll"}, {SpvOpLabel, "R"},
    {SpvOpBranch, "L"}, {SpvOpBranchConditional, "VLLl*"}, {SpvOpSwitch, "VLlL2"}, {SpvOpReturnValue, "V"},
};

static const char *pattern_of(uint32_t op, bool has_type)
{
    for (size_t i = 0; i < EG_ARRAY_LEN(rows); i++)
        if (rows[i].op == op) return rows[i].pat;
    /* Conversions, arithmetic, relational, logical and bit instructions, derivatives: all
     * operands are values (SPIR-V 3.32.11 to 3.32.16). */
    if ((op >= SpvOpConvertFToU && op <= SpvOpBitReverse) || (op >= SpvOpDPdx && op <= SpvOpFwidthCoarse))
        return "TRV*";
    if (op >= SpvOpAtomicIAdd && op <= SpvOpAtomicXor) return "TRPCCV";
    return has_type ? "TR." : ".";
}

static const char *kind_name(char k)
{
    switch (k) {
    case 'T': return "a type";
    case 'V': return "a value";
    case 'P': return "a pointer";
    case 'C': return "a constant";
    case 'F': return "an OpFunction";
    case 'L': return "an OpLabel";
    case 'X': return "an OpExtInstImport";
    default: return "a defined id";
    }
}

static bool is_value(uint32_t def_op)
{
    bool has_result = false, has_type = false;
    SpvHasResultAndType((SpvOp)def_op, &has_result, &has_type);
    return has_type && def_op != SpvOpFunction;
}

/* Whether id (defined by an instruction with opcode def_op) is of kind k. */
static bool kind_ok(const eg_spirv_module_t *m, uint32_t id, uint32_t def_op, char k)
{
    switch (k) {
    case 'T': return def_op >= SpvOpTypeVoid && def_op <= SpvOpTypeForwardPointer;
    case 'V': return is_value(def_op);
    case 'P': return is_value(def_op) && eg_spirv_def_op(m, eg_spirv_word(m, eg_spirv_def(m, id), 1)) == SpvOpTypePointer;
    case 'C': return (def_op >= SpvOpConstantTrue && def_op <= SpvOpSpecConstantOp);
    case 'F': return def_op == SpvOpFunction;
    case 'L': return def_op == SpvOpLabel;
    case 'X': return def_op == SpvOpExtInstImport;
    default: return true;
    }
}

static bool check_operands(eg_spirv_ctx_t *c, uint32_t w)
{
    const eg_spirv_module_t *m = c->m;
    uint32_t op = eg_spirv_op(m, w), wc = eg_spirv_wc(m, w);
    bool has_result = false, has_type = false;
    SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
    const char *pat = pattern_of(op, has_type);
    uint32_t k = 0;
    for (uint32_t i = 1; i < wc; i++) {
        char ch = pat[k];
        if (ch == '*') ch = pat[k - 1];
        else if (ch == '2') { k -= 2; ch = pat[k]; }
        if (ch == 0 || ch == '.') return true;
        if (pat[k] != '*') k++;
        if (ch == 's') {
            uint32_t end = eg_spirv_string_end(m, w, i);
            if (!end)
                return eg_spirv_fail(c, EG_SPIRV_RULE_STRING, w, "literal string at operand word %u has no NUL "
                                     "before the end of the instruction", (unsigned)i);
            i = end - 1;
            continue;
        }
        if (ch == 'l' || ch == 'R' || ch == 'f') continue;
        uint32_t id = m->words[w + i], def_op = eg_spirv_def_op(m, id);
        if (!eg_spirv_def(m, id))
            return eg_spirv_fail(c, EG_SPIRV_RULE_ID_UNDEFINED, w, "operand word %u: id %u is not defined "
                                 "(expected %s)", (unsigned)i, (unsigned)id, kind_name(ch));
        if (!kind_ok(m, id, def_op, ch)) {
            const char *got = eg_spirv_op_name(def_op);
            return got ? eg_spirv_fail(c, EG_SPIRV_RULE_OPERAND_KIND, w, "operand word %u: id %u (defined by %s) "
                                       "is not %s", (unsigned)i, (unsigned)id, got, kind_name(ch))
                       : eg_spirv_fail(c, EG_SPIRV_RULE_OPERAND_KIND, w, "operand word %u: id %u (defined by "
                                       "Op#%u) is not %s", (unsigned)i, (unsigned)id, (unsigned)def_op, kind_name(ch));
        }
    }
    return true;
}

bool eg_spirv_validate_operands(eg_spirv_ctx_t *c)
{
    const eg_spirv_module_t *m = c->m;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w))
        if (!check_operands(c, w)) return false;
    return true;
}
