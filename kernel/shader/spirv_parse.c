/* SPIR-V parse: header, the bounds-checked instruction walk, the per-id table, layout order. */
#include <stdarg.h>

#include "kernel/base/fmt.h"
#include "kernel/shader/spirv_internal.h"

/* spirv.h defines SpvHasResultAndType as a plain C `inline` function: this declaration makes this
 * file hold its one external definition, so no build depends on the compiler inlining it. */
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

static const char *const rule_names[] = {
#define X(NAME, summary) #NAME,
    EG_SPIRV_RULES(X)
#undef X
};

const char *eg_spirv_rule_name(eg_spirv_rule_t rule)
{
    return (unsigned)rule < EG_ARRAY_LEN(rule_names) ? rule_names[rule] : "?";
}

/* Names for messages; other opcodes print as "Op#<n>" (spirv.h carries no name strings). */
static const struct { uint16_t op; const char *name; } op_names[] = {
    {SpvOpUndef, "OpUndef"}, {SpvOpExtension, "OpExtension"}, {SpvOpExtInstImport, "OpExtInstImport"},
    {SpvOpExtInst, "OpExtInst"}, {SpvOpMemoryModel, "OpMemoryModel"}, {SpvOpEntryPoint, "OpEntryPoint"},
    {SpvOpExecutionMode, "OpExecutionMode"}, {SpvOpCapability, "OpCapability"},
    {SpvOpTypeVoid, "OpTypeVoid"}, {SpvOpTypeBool, "OpTypeBool"}, {SpvOpTypeInt, "OpTypeInt"},
    {SpvOpTypeFloat, "OpTypeFloat"}, {SpvOpTypeVector, "OpTypeVector"}, {SpvOpTypeMatrix, "OpTypeMatrix"},
    {SpvOpTypeImage, "OpTypeImage"}, {SpvOpTypeSampler, "OpTypeSampler"},
    {SpvOpTypeSampledImage, "OpTypeSampledImage"}, {SpvOpTypeArray, "OpTypeArray"},
    {SpvOpTypeRuntimeArray, "OpTypeRuntimeArray"}, {SpvOpTypeStruct, "OpTypeStruct"},
    {SpvOpTypePointer, "OpTypePointer"}, {SpvOpTypeFunction, "OpTypeFunction"},
    {SpvOpConstant, "OpConstant"}, {SpvOpFunction, "OpFunction"},
    {SpvOpFunctionParameter, "OpFunctionParameter"}, {SpvOpFunctionEnd, "OpFunctionEnd"},
    {SpvOpFunctionCall, "OpFunctionCall"}, {SpvOpVariable, "OpVariable"}, {SpvOpLoad, "OpLoad"},
    {SpvOpStore, "OpStore"}, {SpvOpAccessChain, "OpAccessChain"}, {SpvOpDecorate, "OpDecorate"},
    {SpvOpMemberDecorate, "OpMemberDecorate"}, {SpvOpDecorationGroup, "OpDecorationGroup"},
    {SpvOpGroupDecorate, "OpGroupDecorate"}, {SpvOpGroupMemberDecorate, "OpGroupMemberDecorate"},
    {SpvOpVectorShuffle, "OpVectorShuffle"}, {SpvOpControlBarrier, "OpControlBarrier"},
    {SpvOpMemoryBarrier, "OpMemoryBarrier"}, {SpvOpAtomicIAdd, "OpAtomicIAdd"},
    {SpvOpAtomicLoad, "OpAtomicLoad"}, {SpvOpAtomicStore, "OpAtomicStore"},
    {SpvOpPtrAccessChain, "OpPtrAccessChain"}, {SpvOpEmitVertex, "OpEmitVertex"},
    {SpvOpTypeOpaque, "OpTypeOpaque"}, {SpvOpTypeForwardPointer, "OpTypeForwardPointer"},
    {SpvOpExecutionModeId, "OpExecutionModeId"}, {SpvOpDecorateId, "OpDecorateId"},
    {SpvOpLabel, "OpLabel"}, {SpvOpReturn, "OpReturn"}, {SpvOpReturnValue, "OpReturnValue"},
    {SpvOpBranch, "OpBranch"}, {SpvOpBranchConditional, "OpBranchConditional"}, {SpvOpSwitch, "OpSwitch"},
    {SpvOpSelectionMerge, "OpSelectionMerge"}, {SpvOpLoopMerge, "OpLoopMerge"}, {SpvOpKill, "OpKill"},
    {SpvOpUnreachable, "OpUnreachable"}, {SpvOpPhi, "OpPhi"}, {SpvOpConstantNull, "OpConstantNull"},
    {SpvOpConstantComposite, "OpConstantComposite"}, {SpvOpConstantTrue, "OpConstantTrue"},
    {SpvOpImageTexelPointer, "OpImageTexelPointer"}, {SpvOpCopyMemory, "OpCopyMemory"},
    {SpvOpAtomicExchange, "OpAtomicExchange"}, {SpvOpAtomicCompareExchange, "OpAtomicCompareExchange"},
    {SpvOpLogicalNot, "OpLogicalNot"}, {SpvOpString, "OpString"}, {SpvOpName, "OpName"},
};

const char *eg_spirv_op_name(uint32_t op)
{
    for (size_t i = 0; i < EG_ARRAY_LEN(op_names); i++)
        if (op_names[i].op == op) return op_names[i].name;
    return NULL;
}

bool eg_spirv_fail(eg_spirv_ctx_t *c, eg_spirv_rule_t rule, uint32_t at_word, const char *fmt, ...)
{
    eg_spirv_error_t *e = c->err;
    const eg_spirv_module_t *m = c->m;
    e->rule = rule;
    e->inst_index = e->opcode = e->result_id = 0;
    char *p = e->message;
    size_t cap = sizeof e->message, n;
    n = eg_fmt(p, cap, "SPIR-V rule %s: ", eg_spirv_rule_name(rule));
    if (at_word >= EG_SPIRV_HEADER_WORDS_ && at_word < m->word_count) {
        /* Count instructions up to at_word: rejection is rare, so the index is derived here
         * rather than tracked on the hot path. Every word count was checked before. */
        uint32_t idx = 0;
        for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < at_word && eg_spirv_wc(m, w); w += eg_spirv_wc(m, w)) idx++;
        uint32_t op = eg_spirv_op(m, at_word);
        bool has_result = false, has_type = false;
        SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
        uint32_t rid = has_result ? eg_spirv_word(m, at_word, has_type ? 2 : 1) : 0;
        e->inst_index = idx;
        e->opcode = op;
        e->result_id = rid;
        const char *name = eg_spirv_op_name(op);
        n += name ? eg_fmt(p + n, cap - n, "instruction #%u %s", (unsigned)idx, name)
                  : eg_fmt(p + n, cap - n, "instruction #%u Op#%u", (unsigned)idx, (unsigned)op);
        if (rid) n += eg_fmt(p + n, cap - n, " (result %%%u)", (unsigned)rid);
        n += eg_fmt(p + n, cap - n, ": ");
    }
    va_list ap;
    va_start(ap, fmt);
    eg_vfmt(p + n, cap - n, fmt, ap);
    va_end(ap);
    return false;
}

uint32_t eg_spirv_string_end(const eg_spirv_module_t *m, uint32_t at, uint32_t i)
{
    uint32_t wc = eg_spirv_wc(m, at);
    for (; i < wc; i++) {
        uint32_t w = m->words[at + i];
        /* SPIR-V strings are UTF-8, packed little-endian within each word (2.2.1). */
        if (!(w & 0xffu) || !(w & 0xff00u) || !(w & 0xff0000u) || !(w & 0xff000000u)) return i + 1;
    }
    return 0;
}

bool eg_spirv_find_decoration(const eg_spirv_ctx_t *c, uint32_t id, uint32_t decoration, uint32_t *value)
{
    const eg_spirv_module_t *m = c->m;
    for (uint32_t w = c->anno_begin; w < c->anno_end; w += eg_spirv_wc(m, w)) {
        if (eg_spirv_op(m, w) == SpvOpDecorate && eg_spirv_word(m, w, 1) == id &&
            eg_spirv_word(m, w, 2) == decoration) {
            if (value) *value = eg_spirv_word(m, w, 3);
            return true;
        }
    }
    return false;
}

/* Opcodes outside the WebGPU allow-list (execution-env.md Appendix B), as inclusive ranges; also
 * the opcode numbers SPIR-V 1.5 leaves unassigned. Debug instructions and the ImageQuery
 * instructions stay allowed (issue #3 allows both). OpUndef and the decoration-group
 * instructions have their own rules, checked first. */
static const uint16_t denied[][2] = {
    {9, 9}, {13, 13}, {18, 18}, {31, 31}, {34, 40}, {45, 45}, {47, 47}, {53, 53}, {58, 58},
    {64, 64}, {67, 67}, {69, 70}, {76, 76}, {85, 85}, {101, 102}, {108, 108}, {117, 123},
    {125, 125}, {153, 153}, {158, 163}, {192, 193}, {206, 206}, {216, 223}, {226, 226},
    {231, 231}, {243, 244}, {256, 304}, {305, 316}, {318, 329}, {333, 399},
};

static bool op_allowed(uint32_t op)
{
    /* OpPtrEqual / OpPtrNotEqual / OpPtrDiff compare pointers, which logical addressing allows only
     * with VariablePointers (not in WebGPU's capability list); spirv-val rejects them too. */
    if (op >= SpvOpPtrEqual) return op == SpvOpDecorateString || op == SpvOpMemberDecorateString;
    for (size_t i = 0; i < EG_ARRAY_LEN(denied); i++)
        if (op >= denied[i][0] && op <= denied[i][1]) return false;
    return true;
}

/* Section of an instruction; -1: may appear anywhere (OpLine/OpNoLine); SEC_GLOBAL also covers
 * what may appear both globally and in functions (OpVariable, OpExtInst, constants do not). */
static int section_of(uint32_t op)
{
    switch (op) {
    case SpvOpCapability: return SEC_CAPABILITY;
    case SpvOpExtension: return SEC_EXTENSION;
    case SpvOpExtInstImport: return SEC_EXT_INST_IMPORT;
    case SpvOpMemoryModel: return SEC_MEMORY_MODEL;
    case SpvOpEntryPoint: return SEC_ENTRY_POINT;
    case SpvOpExecutionMode: case SpvOpExecutionModeId: return SEC_EXECUTION_MODE;
    case SpvOpSourceContinued: case SpvOpSource: case SpvOpSourceExtension: case SpvOpName:
    case SpvOpMemberName: case SpvOpString: case SpvOpModuleProcessed: return SEC_DEBUG;
    case SpvOpLine: case SpvOpNoLine: return -1;
    case SpvOpDecorate: case SpvOpMemberDecorate: case SpvOpDecorationGroup: case SpvOpGroupDecorate:
    case SpvOpGroupMemberDecorate: case SpvOpDecorateId: case SpvOpDecorateString:
    case SpvOpMemberDecorateString: return SEC_ANNOTATION;
    default: break;
    }
    if ((op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer) ||
        (op >= SpvOpConstantTrue && op <= SpvOpSpecConstantOp) || op == SpvOpVariable ||
        op == SpvOpUndef || op == SpvOpExtInst)
        return SEC_GLOBAL;
    return SEC_FUNCTION;
}

static bool check_header(eg_spirv_ctx_t *c)
{
    const eg_spirv_module_t *m = c->m;
    if (m->word_count < EG_SPIRV_HEADER_WORDS_)
        return eg_spirv_fail(c, EG_SPIRV_RULE_HEADER_SIZE, 0, "%u words, the header alone is 5",
                             (unsigned)m->word_count);
    if (m->words[0] != SpvMagicNumber)
        return eg_spirv_fail(c, EG_SPIRV_RULE_HEADER_MAGIC, 0, "word 0 is 0x%08x, expected 0x%08x%s",
                             (unsigned)m->words[0], (unsigned)SpvMagicNumber,
                             m->words[0] == 0x03022307u ? " (byte-swapped)" : "");
    uint32_t ver = m->words[1];
    if ((ver & 0xff0000ffu) || ver < 0x00010000u || ver > 0x00010500u)
        return eg_spirv_fail(c, EG_SPIRV_RULE_HEADER_VERSION, 0,
                             "version word 0x%08x is not 1.0 to 1.5 (0x00010000..0x00010500)", (unsigned)ver);
    /* An id needs an instruction of at least two words to define it, so a bound above the word
     * count is impossible for a well-formed module and would only size the id table. */
    if (m->words[3] == 0 || m->words[3] > m->word_count)
        return eg_spirv_fail(c, EG_SPIRV_RULE_HEADER_BOUND, 0,
                             "id bound %u must be at least 1 and at most the word count %u",
                             (unsigned)m->words[3], (unsigned)m->word_count);
    if (m->words[4] != 0)
        return eg_spirv_fail(c, EG_SPIRV_RULE_HEADER_SCHEMA, 0, "schema word is %u, must be 0",
                             (unsigned)m->words[4]);
    return true;
}

/* Layout rules that the section number alone does not express: function bodies nest
 * OpFunction ... OpFunctionEnd, and nothing but OpFunction opens the function section. */
static bool check_layout(eg_spirv_ctx_t *c, uint32_t w, uint32_t op, int *sec, bool *in_func)
{
    int s = section_of(op);
    if (s < 0) return true;
    if (s == SEC_GLOBAL && *sec == SEC_FUNCTION) {
        if (*in_func && (op == SpvOpVariable || op == SpvOpExtInst || op == SpvOpUndef)) return true;
        return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT, w, "types, constants and global variables "
                             "must precede the first OpFunction");
    }
    if (s < *sec)
        return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT, w, "instruction belongs to an earlier "
                             "logical-layout section (SPIR-V 2.4)");
    if (s == SEC_ANNOTATION && *sec < SEC_ANNOTATION) c->anno_begin = w;
    if (s > SEC_ANNOTATION && *sec <= SEC_ANNOTATION) c->anno_end = w;
    *sec = s;
    if (s != SEC_FUNCTION) return true;
    if (op == SpvOpFunction) {
        if (*in_func) return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT, w, "OpFunction inside a function");
        *in_func = true;
    } else if (!*in_func) {
        return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT, w, "instruction outside any function");
    } else if (op == SpvOpFunctionEnd) {
        *in_func = false;
    }
    return true;
}

static bool check_instruction(eg_spirv_ctx_t *c, uint32_t w, int *sec, bool *in_func)
{
    eg_spirv_module_t *m = c->m;
    uint32_t op = eg_spirv_op(m, w), wc = eg_spirv_wc(m, w);
    if (op == SpvOpUndef)
        return eg_spirv_fail(c, EG_SPIRV_RULE_UNDEF, w, "OpUndef is forbidden; use a constant (e.g. OpConstantNull)");
    if (op == SpvOpDecorationGroup || op == SpvOpGroupDecorate || op == SpvOpGroupMemberDecorate)
        return eg_spirv_fail(c, EG_SPIRV_RULE_DECORATION_GROUP, w, "decoration groups are forbidden; "
                             "decorate each id directly");
    if (!op_allowed(op))
        return eg_spirv_fail(c, EG_SPIRV_RULE_OPCODE, w, "opcode %u is not allowed in WebGPU",
                             (unsigned)op);
    if (!check_layout(c, w, op, sec, in_func)) return false;
    bool has_result = false, has_type = false;
    SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
    uint32_t need = 1u + has_result + has_type;
    if (wc < need)
        return eg_spirv_fail(c, EG_SPIRV_RULE_WORD_COUNT, w, "word count %u is less than the %u "
                             "words that hold its result", (unsigned)wc, (unsigned)need);
    if (!has_result) return true;
    uint32_t id = m->words[w + (has_type ? 2 : 1)];
    if (id == 0 || id >= m->bound)
        return eg_spirv_fail(c, EG_SPIRV_RULE_ID_BOUND, w, "result id %u is not in 1..%u (the bound)",
                             (unsigned)id, (unsigned)(m->bound - 1));
    if (m->ids[id].def_at)
        return eg_spirv_fail(c, EG_SPIRV_RULE_ID_REDEFINED, w, "result id %u was already defined at "
                             "word %u", (unsigned)id, (unsigned)m->ids[id].def_at);
    m->ids[id].def_at = w;
    m->ids[id].op = (uint16_t)op;
    return true;
}

/* Walks the stream once. The word count is checked against the end before the instruction's
 * operands are read, so a truncated module fails here, never by reading past the end. */
static bool walk(eg_spirv_ctx_t *c)
{
    eg_spirv_module_t *m = c->m;
    int sec = SEC_CAPABILITY;
    bool in_func = false;
    uint32_t count = 0;
    c->anno_begin = c->anno_end = 0;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; ) {
        uint32_t wc = eg_spirv_wc(m, w);
        if (wc == 0 || wc > m->word_count - w) {
            /* Not formatted with the instruction: its word count is the broken part. */
            eg_spirv_fail(c, EG_SPIRV_RULE_WORD_COUNT, 0, "instruction #%u at word %u (opcode %u) "
                          "has word count %u; %u words remain", (unsigned)count, (unsigned)w,
                          (unsigned)eg_spirv_op(m, w), (unsigned)wc, (unsigned)(m->word_count - w));
            c->err->inst_index = count;
            c->err->opcode = eg_spirv_op(m, w);
            return false;
        }
        if (!check_instruction(c, w, &sec, &in_func)) return false;
        w += wc;
        count++;
    }
    if (in_func)
        return eg_spirv_fail(c, EG_SPIRV_RULE_LAYOUT, 0, "the last function has no OpFunctionEnd");
    if (c->anno_begin && !c->anno_end) c->anno_end = m->word_count;
    m->inst_count = count;
    return true;
}

bool eg_spirv_parse(eg_spirv_module_t *m, const uint32_t *words, uint32_t word_count,
                    eg_arena_t *arena, eg_spirv_error_t *err)
{
    eg_memset(m, 0, sizeof *m);
    eg_memset(err, 0, sizeof *err);
    m->words = words;
    m->word_count = words ? word_count : 0;
    eg_spirv_ctx_t c = { m, err, arena, 0, 0, ~0u, 0 };
    if (!check_header(&c)) return false;
    m->version = words[1];
    m->bound = words[3];
    m->ids = eg_arena_alloc(arena, (size_t)m->bound * sizeof(eg_spirv_id_t), 4);
    if (!m->ids)
        return eg_spirv_fail(&c, EG_SPIRV_RULE_ARENA_FULL, 0, "the id table needs %u bytes (bound %u), "
                             "%s arena has %u bytes left (%s = %u)", (unsigned)(m->bound * sizeof(eg_spirv_id_t)),
                             (unsigned)m->bound, arena->name, (unsigned)eg_arena_free_B(arena),
                             arena->knob, (unsigned)arena->cap_B);
    eg_memset(m->ids, 0, (size_t)m->bound * sizeof(eg_spirv_id_t));
    return walk(&c) && eg_spirv_validate_module(&c) && eg_spirv_validate_functions(&c) &&
           eg_spirv_reflect(&c);
}

const eg_shader_entry_t *eg_spirv_find_entry(const eg_spirv_module_t *m, eg_shader_stage_t stage,
                                             const char *name)
{
    const eg_shader_entry_t *found = NULL;
    for (uint32_t i = 0; i < m->entry_count; i++) {
        const eg_shader_entry_t *e = &m->entries[i];
        if (e->stage != stage) continue;
        if (name && name[0]) {
            if (eg_strcmp(e->name, name) == 0) return e;
        } else {
            if (found) return NULL;   /* "" is ambiguous with two entry points for the stage */
            found = e;
        }
    }
    return found;
}
