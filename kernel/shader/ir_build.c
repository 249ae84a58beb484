/* Builds the shared IR (ir.h) of one entry point from a parsed, validated SPIR-V module. */
#include "kernel/base/fmt.h"
#include "kernel/shader/ir.h"
#include "kernel/shader/spirv_internal.h"

typedef struct ir_ctx {
    const eg_spirv_module_t *m;
    eg_arena_t *arena;
    eg_ir_t *ir;
    eg_ir_error_t *err;
    uint32_t *map;              /* SPIR-V id -> dense id (0 = not part of the IR) */
    uint32_t anno_begin, anno_end, funcs_begin;
    uint32_t fn_count;
    uint32_t *fn_at;            /* word offsets of every OpFunction, module order */
    uint8_t *reached;
} ir_ctx_t;

static bool fail(ir_ctx_t *c, const char *what)
{
    eg_fmt(c->err->message, sizeof c->err->message, "%s", what);
    return false;
}

static void *alloc(ir_ctx_t *c, uint32_t count, size_t elem_B)
{
    if (count == 0) return c->arena->base;
    /* IR records hold pointers and uint64_t: align for the strictest of them on every target. */
    void *p = eg_arena_alloc(c->arena, (size_t)count * elem_B, sizeof(void *) > 8 ? sizeof(void *) : 8);
    if (!p)
        eg_fmt(c->err->message, sizeof c->err->message, "shader IR does not fit: %s arena has %u "
               "bytes left, %u more needed (raise %s, now %u)", c->arena->name,
               (unsigned)eg_arena_free_B(c->arena), (unsigned)(count * elem_B), c->arena->knob,
               (unsigned)c->arena->cap_B);
    else
        eg_memset(p, 0, (size_t)count * elem_B);
    return p;
}

static uint32_t wc(const ir_ctx_t *c, uint32_t w) { return eg_spirv_wc(c->m, w); }
static uint32_t opc(const ir_ctx_t *c, uint32_t w) { return eg_spirv_op(c->m, w); }
static uint32_t word(const ir_ctx_t *c, uint32_t w, uint32_t i) { return eg_spirv_word(c->m, w, i); }
static uint32_t dense(const ir_ctx_t *c, uint32_t id) { return id < c->m->bound ? c->map[id] : 0; }

/* Decoration `dec` on id (or on member `member` of it when member != ~0u); value through *v. */
static bool decoration(const ir_ctx_t *c, uint32_t id, uint32_t member, uint32_t dec, uint32_t *v)
{
    for (uint32_t w = c->anno_begin; w < c->anno_end; w += wc(c, w)) {
        uint32_t op = opc(c, w);
        bool hit = member == ~0u ? op == SpvOpDecorate && word(c, w, 1) == id && word(c, w, 2) == dec
                                 : op == SpvOpMemberDecorate && word(c, w, 1) == id &&
                                   word(c, w, 2) == member && word(c, w, 3) == dec;
        if (hit) {
            if (v) *v = word(c, w, member == ~0u ? 3 : 4);
            return true;
        }
    }
    return false;
}

static uint32_t deco_or(const ir_ctx_t *c, uint32_t id, uint32_t member, uint32_t dec, uint32_t dflt)
{
    uint32_t v = dflt;
    return decoration(c, id, member, dec, &v) ? v : dflt;
}

/* Marks the functions reachable from the entry point. Callees precede callers (validated), so
 * one walk from the last function back to the first visits every caller before its callees. */
static bool find_functions(ir_ctx_t *c, uint32_t entry_fn)
{
    const eg_spirv_module_t *m = c->m;
    for (uint32_t w = c->funcs_begin; w < m->word_count; w += wc(c, w))
        c->fn_count += opc(c, w) == SpvOpFunction;
    c->fn_at = alloc(c, c->fn_count, sizeof *c->fn_at);
    c->reached = alloc(c, c->fn_count, 1);
    if (!c->fn_at || !c->reached) return false;
    uint32_t i = 0;
    for (uint32_t w = c->funcs_begin; w < m->word_count; w += wc(c, w))
        if (opc(c, w) == SpvOpFunction) {
            c->fn_at[i] = w;
            c->reached[i++] = word(c, w, 2) == entry_fn;
        }
    for (uint32_t f = c->fn_count; f-- > 0;) {
        if (!c->reached[f]) continue;
        for (uint32_t w = c->fn_at[f]; opc(c, w) != SpvOpFunctionEnd; w += wc(c, w)) {
            if (opc(c, w) != SpvOpFunctionCall) continue;
            uint32_t at = eg_spirv_def(m, word(c, w, 3));
            for (uint32_t g = 0; g < f; g++)
                if (c->fn_at[g] == at) c->reached[g] = 1;
        }
    }
    return true;
}

/* Instructions that carry no semantics for a backend. */
static bool skipped(const ir_ctx_t *c, uint32_t w)
{
    uint32_t op = opc(c, w);
    if (op == SpvOpLine || op == SpvOpNoLine || op == SpvOpNop || op == SpvOpModuleProcessed ||
        op == SpvOpSource || op == SpvOpSourceContinued || op == SpvOpSourceExtension ||
        op == SpvOpName || op == SpvOpMemberName || op == SpvOpString)
        return true;
    /* NonSemantic.* instructions (the only other import the validator allows) */
    return op == SpvOpExtInst && eg_spirv_def_op(c->m, word(c, w, 3)) == SpvOpExtInstImport &&
           eg_strcmp((const char *)(const void *)&c->m->words[eg_spirv_def(c->m, word(c, w, 3)) + 2],
                     "GLSL.std.450") != 0;
}

/* Pass 1: dense ids for every result of the globals and of the reachable functions; counts. */
static void number_ids(ir_ctx_t *c)
{
    const eg_spirv_module_t *m = c->m;
    eg_ir_t *ir = c->ir;
    uint32_t next = 1, f = 0;
    bool in_fn = false, live = true;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += wc(c, w)) {
        uint32_t op = opc(c, w);
        bool has_result = false, has_type = false;
        if (op == SpvOpFunction) { in_fn = true; live = c->reached[f++]; }
        if (!live || skipped(c, w)) { if (op == SpvOpFunctionEnd) { in_fn = false; live = true; } continue; }
        SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
        if (op == SpvOpFunctionEnd) in_fn = false;
        if (in_fn) {
            if (op == SpvOpFunction) ir->function_count++;
            else if (op == SpvOpLabel) ir->block_count++;
            else if (op != SpvOpFunctionParameter && op != SpvOpSelectionMerge && op != SpvOpLoopMerge)
                ir->inst_count++;
        }
        if (has_result) c->map[word(c, w, has_type ? 2 : 1)] = next++;
    }
    ir->value_count = next;
}

/* ---- module scope ---- */

static uint32_t const_u32(const ir_ctx_t *c, uint32_t dense_id)
{
    const eg_ir_value_t *v = &c->ir->values[dense_id];
    return v->kind == EG_IR_VAL_CONST ? c->ir->consts[v->index].scalars[0] : 0;
}

static bool build_struct(ir_ctx_t *c, uint32_t w, uint32_t spv_id, eg_ir_type_t *t)
{
    eg_ir_member_t *mem = alloc(c, wc(c, w) - 2, sizeof *mem);
    if (!mem) return false;
    t->count = (uint16_t)(wc(c, w) - 2);
    t->block = decoration(c, spv_id, ~0u, SpvDecorationBlock, NULL);
    for (uint32_t i = 0; i < t->count; i++) {
        mem[i].type = dense(c, word(c, w, 2 + i));
        mem[i].offset_B = deco_or(c, spv_id, i, SpvDecorationOffset, 0);
        mem[i].matrix_stride_B = deco_or(c, spv_id, i, SpvDecorationMatrixStride, 0);
        mem[i].row_major = decoration(c, spv_id, i, SpvDecorationRowMajor, NULL);
        mem[i].non_writable = decoration(c, spv_id, i, SpvDecorationNonWritable, NULL);
        mem[i].builtin = (uint16_t)(deco_or(c, spv_id, i, SpvDecorationBuiltIn, ~0u) + 1u);
        t->scalars += eg_ir_scalars(c->ir, mem[i].type);
    }
    t->members = mem;
    return true;
}

static bool build_type(ir_ctx_t *c, uint32_t w, uint32_t op, eg_ir_type_t *t)
{
    eg_ir_t *ir = c->ir;
    uint32_t id = word(c, w, 1);
    t->scalars = 1;
    switch (op) {
    case SpvOpTypeVoid: t->kind = EG_IR_VOID; t->scalars = 0; return true;
    case SpvOpTypeBool: t->kind = EG_IR_BOOL; return true;
    case SpvOpTypeInt: t->kind = word(c, w, 3) ? EG_IR_INT : EG_IR_UINT; return true;
    case SpvOpTypeFloat: t->kind = EG_IR_FLOAT; return true;
    case SpvOpTypeVector: case SpvOpTypeMatrix:
        t->kind = op == SpvOpTypeVector ? EG_IR_VECTOR : EG_IR_MATRIX;
        t->elem = dense(c, word(c, w, 2));
        t->count = (uint16_t)word(c, w, 3);
        t->scalars = t->count * eg_ir_scalars(ir, t->elem);
        return true;
    case SpvOpTypeArray: case SpvOpTypeRuntimeArray:
        t->kind = op == SpvOpTypeArray ? EG_IR_ARRAY : EG_IR_RUNTIME_ARRAY;
        t->elem = dense(c, word(c, w, 2));
        t->count = op == SpvOpTypeArray ? (uint16_t)const_u32(c, dense(c, word(c, w, 3))) : 0;
        t->stride_B = deco_or(c, id, ~0u, SpvDecorationArrayStride, 0);
        t->scalars = (op == SpvOpTypeArray ? t->count : 1u) * eg_ir_scalars(ir, t->elem);
        if (op == SpvOpTypeArray && const_u32(c, dense(c, word(c, w, 3))) > 0xffffu)
            return fail(c, "array longer than 65535 elements");
        return true;
    case SpvOpTypeStruct: t->kind = EG_IR_STRUCT; t->scalars = 0; return build_struct(c, w, id, t);
    case SpvOpTypePointer:
        t->kind = EG_IR_POINTER;
        t->storage = word(c, w, 2);
        t->elem = dense(c, word(c, w, 3));
        return true;
    case SpvOpTypeImage:
        t->kind = EG_IR_IMAGE;
        t->elem = dense(c, word(c, w, 2));
        t->dim = (uint8_t)word(c, w, 3); t->depth = (uint8_t)word(c, w, 4);
        t->arrayed = (uint8_t)word(c, w, 5); t->ms = (uint8_t)word(c, w, 6);
        t->sampled = (uint8_t)word(c, w, 7); t->format = word(c, w, 8);
        return true;
    case SpvOpTypeSampler: t->kind = EG_IR_SAMPLER; return true;
    case SpvOpTypeSampledImage: t->kind = EG_IR_SAMPLED_IMAGE; t->elem = dense(c, word(c, w, 2)); return true;
    case SpvOpTypeFunction: {
        t->kind = EG_IR_FUNCTION;
        t->elem = dense(c, word(c, w, 2));
        t->count = (uint16_t)(wc(c, w) - 3);
        uint32_t *p = alloc(c, t->count, sizeof *p);
        if (!p) return false;
        for (uint32_t i = 0; i < t->count; i++) p[i] = dense(c, word(c, w, 3 + i));
        t->params = p;
        return true;
    }
    default:
        return fail(c, "type instruction the IR does not represent");
    }
}

static bool build_const(ir_ctx_t *c, uint32_t w, uint32_t op, eg_ir_const_t *k)
{
    eg_ir_t *ir = c->ir;
    k->type = dense(c, word(c, w, 1));
    uint32_t n = eg_ir_scalars(ir, k->type);
    uint32_t *s = alloc(c, n, sizeof *s);
    if (!s) return false;
    k->scalars = s;
    k->spec_id = deco_or(c, word(c, w, 2), ~0u, SpvDecorationSpecId, ~0u);
    switch (op) {
    case SpvOpConstantTrue: case SpvOpSpecConstantTrue: s[0] = 1; return true;
    case SpvOpConstantFalse: case SpvOpSpecConstantFalse: case SpvOpConstantNull: return true;
    case SpvOpConstant: case SpvOpSpecConstant: s[0] = word(c, w, 3); return true;
    case SpvOpConstantComposite: case SpvOpSpecConstantComposite: {
        uint32_t at = 0;
        for (uint32_t i = 3; i < wc(c, w); i++) {
            const eg_ir_value_t *v = &ir->values[dense(c, word(c, w, i))];
            if (v->kind != EG_IR_VAL_CONST) return fail(c, "composite constant of a non-constant");
            const eg_ir_const_t *part = &ir->consts[v->index];
            for (uint32_t j = 0; j < eg_ir_scalars(ir, part->type) && at < n; j++) s[at++] = part->scalars[j];
        }
        return true;
    }
    default:
        return fail(c, "OpSpecConstantOp is not supported by the IR");
    }
}

static void build_var(ir_ctx_t *c, uint32_t w, eg_ir_var_t *v)
{
    uint32_t id = word(c, w, 2);
    const eg_ir_type_t *pt = eg_ir_type(c->ir, dense(c, word(c, w, 1)));
    v->id = dense(c, id);
    v->type = pt->elem;
    v->storage = word(c, w, 3);
    v->init = wc(c, w) > 4 ? dense(c, word(c, w, 4)) : 0;
    v->group = deco_or(c, id, ~0u, SpvDecorationDescriptorSet, ~0u);
    v->binding = deco_or(c, id, ~0u, SpvDecorationBinding, ~0u);
    v->location = deco_or(c, id, ~0u, SpvDecorationLocation, ~0u);
    v->component = deco_or(c, id, ~0u, SpvDecorationComponent, 0);
    v->builtin = (uint16_t)(deco_or(c, id, ~0u, SpvDecorationBuiltIn, ~0u) + 1u);
    v->flat = decoration(c, id, ~0u, SpvDecorationFlat, NULL);
    v->noperspective = decoration(c, id, ~0u, SpvDecorationNoPerspective, NULL);
    v->centroid = decoration(c, id, ~0u, SpvDecorationCentroid, NULL);
    v->sample = decoration(c, id, ~0u, SpvDecorationSample, NULL);
    v->non_writable = decoration(c, id, ~0u, SpvDecorationNonWritable, NULL);
    v->non_readable = decoration(c, id, ~0u, SpvDecorationNonReadable, NULL);
}

static bool is_type_op(uint32_t op) { return op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer; }
static bool is_const_op(uint32_t op)
{
    return (op >= SpvOpConstantTrue && op <= SpvOpConstantNull) ||
           (op >= SpvOpSpecConstantTrue && op <= SpvOpSpecConstantOp);
}

/* Pass 2a: types, constants, variables, in module order (each refers only to earlier ones). */
static bool build_globals(ir_ctx_t *c)
{
    eg_ir_t *ir = c->ir;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < c->funcs_begin; w += wc(c, w)) {
        uint32_t op = opc(c, w);
        if (op == SpvOpExtInstImport) {
            uint32_t d = dense(c, word(c, w, 1));
            ir->values[d].kind = EG_IR_VAL_EXT_SET;
            if (!eg_strcmp((const char *)(const void *)&c->m->words[w + 2], "GLSL.std.450")) ir->glsl_std_450 = d;
        } else if (is_type_op(op)) {
            uint32_t d = dense(c, word(c, w, 1));
            ir->values[d] = (eg_ir_value_t){ EG_IR_VAL_TYPE, 0, ir->type_count };
            if (!build_type(c, w, op, &ir->types[ir->type_count++])) return false;
        } else if (is_const_op(op)) {
            uint32_t d = dense(c, word(c, w, 2));
            ir->values[d] = (eg_ir_value_t){ EG_IR_VAL_CONST, dense(c, word(c, w, 1)), ir->const_count };
            if (!build_const(c, w, op, &ir->consts[ir->const_count++])) return false;
        } else if (op == SpvOpVariable) {
            uint32_t d = dense(c, word(c, w, 2));
            ir->values[d] = (eg_ir_value_t){ EG_IR_VAL_VAR, dense(c, word(c, w, 1)), ir->var_count };
            build_var(c, w, &ir->vars[ir->var_count++]);
        }
    }
    return true;
}

static void count_globals(ir_ctx_t *c, uint32_t *types, uint32_t *consts, uint32_t *vars)
{
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < c->funcs_begin; w += wc(c, w)) {
        uint32_t op = opc(c, w);
        *types += is_type_op(op);
        *consts += is_const_op(op);
        *vars += op == SpvOpVariable;
        if (op == SpvOpDecorate || op == SpvOpMemberDecorate || op == SpvOpDecorateString ||
            op == SpvOpMemberDecorateString || op == SpvOpDecorateId) {
            if (!c->anno_begin) c->anno_begin = w;
            c->anno_end = w + wc(c, w);
        }
    }
}

/* ---- functions ---- */

/* Whether operand i (0 = first word after the result id, or after the opcode word when the
 * instruction has no result) of the instruction at w is an id. Literal operands of the
 * instructions that a function body may hold are listed here; everything else is an id. */
static bool operand_is_id(const ir_ctx_t *c, uint32_t w, uint32_t op, uint32_t i)
{
    switch (op) {
    case SpvOpLoad: return i < 1;
    case SpvOpStore: case SpvOpCopyMemory: return i < 2;
    case SpvOpVariable: return i >= 1;                    /* storage class literal */
    case SpvOpCompositeExtract: return i < 1;
    case SpvOpCompositeInsert: case SpvOpVectorShuffle: return i < 2;
    case SpvOpExtInst: return i != 1;                     /* instruction number */
    case SpvOpSwitch: return i < 2 || (i % 2) == 1;       /* (literal, label) pairs */
    case SpvOpBranchConditional: return i < 3;            /* branch weights */
    case SpvOpImageSampleImplicitLod: case SpvOpImageSampleExplicitLod: case SpvOpImageFetch:
    case SpvOpImageRead: case SpvOpImageGather:
    case SpvOpImageSampleDrefImplicitLod: case SpvOpImageSampleDrefExplicitLod:
    case SpvOpImageDrefGather: case SpvOpImageWrite: {
        /* image operands mask follows the fixed operands */
        uint32_t fixed = op == SpvOpImageWrite || op == SpvOpImageGather || op == SpvOpImageDrefGather ||
                         op == SpvOpImageSampleDrefImplicitLod || op == SpvOpImageSampleDrefExplicitLod ? 3 : 2;
        (void)c; (void)w;
        return i != fixed;
    }
    default: return true;
    }
}

static bool build_inst(ir_ctx_t *c, uint32_t w, uint32_t op, eg_ir_inst_t *in)
{
    bool has_result = false, has_type = false;
    SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
    uint32_t first = 1u + has_type + has_result;
    in->op = (uint16_t)op;
    in->type = has_type ? dense(c, word(c, w, 1)) : 0;
    in->result = has_result ? dense(c, word(c, w, has_type ? 2 : 1)) : 0;
    in->operand_count = (uint16_t)(wc(c, w) - first);
    uint32_t *ops = alloc(c, in->operand_count, sizeof *ops);
    if (!ops) return false;
    for (uint32_t i = 0; i < in->operand_count; i++) {
        uint32_t v = word(c, w, first + i);
        ops[i] = operand_is_id(c, w, op, i) ? dense(c, v) : v;
    }
    in->operands = ops;
    return true;
}

/* One function body: parameters, blocks with their merge info, instructions. */
static bool build_function(ir_ctx_t *c, uint32_t w, eg_ir_function_t *fn)
{
    eg_ir_t *ir = c->ir;
    uint32_t fi = (uint32_t)(fn - ir->functions);
    fn->id = dense(c, word(c, w, 2));
    fn->type = dense(c, word(c, w, 1));
    fn->first_block = ir->block_count;
    ir->values[fn->id] = (eg_ir_value_t){ EG_IR_VAL_FUNCTION, fn->type, fi };
    eg_ir_block_t *blk = NULL;
    for (w += wc(c, w); opc(c, w) != SpvOpFunctionEnd; w += wc(c, w)) {
        uint32_t op = opc(c, w);
        if (skipped(c, w)) continue;
        if (op == SpvOpFunctionParameter) {
            uint32_t d = dense(c, word(c, w, 2));
            if (!fn->param_count) fn->first_param = d;
            fn->param_count++;
            ir->values[d] = (eg_ir_value_t){ EG_IR_VAL_PARAM, dense(c, word(c, w, 1)), fi };
        } else if (op == SpvOpLabel) {
            uint32_t d = dense(c, word(c, w, 1));
            blk = &ir->blocks[ir->block_count];
            ir->values[d] = (eg_ir_value_t){ EG_IR_VAL_LABEL, 0, ir->block_count++ };
            fn->block_count++;
            *blk = (eg_ir_block_t){ .label = d, .first_inst = ir->inst_count };
        } else if (!blk) {
            return fail(c, "instruction before the first OpLabel of a function");
        } else if (op == SpvOpSelectionMerge || op == SpvOpLoopMerge) {
            blk->merge_kind = op == SpvOpLoopMerge ? EG_IR_MERGE_LOOP : EG_IR_MERGE_SELECTION;
            blk->merge = dense(c, word(c, w, 1));
            blk->cont = op == SpvOpLoopMerge ? dense(c, word(c, w, 2)) : 0;
        } else {
            eg_ir_inst_t *in = &ir->insts[ir->inst_count++];
            if (!build_inst(c, w, op, in)) return false;
            blk->inst_count++;
            if (in->result) ir->values[in->result] = (eg_ir_value_t){ EG_IR_VAL_INST, in->type,
                                                                     (uint32_t)(in - ir->insts) };
        }
    }
    return true;
}

eg_ir_type_kind_t eg_ir_scalar_kind(const eg_ir_t *ir, uint32_t type)
{
    const eg_ir_type_t *t = eg_ir_type(ir, type);
    while (t->kind == EG_IR_VECTOR || t->kind == EG_IR_MATRIX || t->kind == EG_IR_ARRAY ||
           t->kind == EG_IR_RUNTIME_ARRAY)
        t = eg_ir_type(ir, t->elem);
    return (eg_ir_type_kind_t)t->kind;
}

static void entry_modes(ir_ctx_t *c, const eg_shader_entry_t *e)
{
    eg_ir_t *ir = c->ir;
    ir->stage = e->stage;
    for (uint32_t i = 0; i < 3; i++) ir->workgroup_size[i] = e->workgroup_size[i];
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < c->funcs_begin; w += wc(c, w))
        if (opc(c, w) == SpvOpExecutionMode && word(c, w, 1) == e->function_id &&
            word(c, w, 2) == SpvExecutionModeDepthReplacing)
            ir->depth_replacing = 1;
}

bool eg_ir_build(const eg_spirv_module_t *m, const eg_shader_entry_t *entry, eg_arena_t *arena,
                 eg_ir_t *out, eg_ir_error_t *err)
{
    ir_ctx_t c = { .m = m, .arena = arena, .ir = out, .err = err };
    eg_memset(out, 0, sizeof *out);
    err->message[0] = 0;
    c.funcs_begin = m->word_count;
    for (uint32_t w = EG_SPIRV_HEADER_WORDS_; w < m->word_count; w += eg_spirv_wc(m, w))
        if (eg_spirv_op(m, w) == SpvOpFunction) { c.funcs_begin = w; break; }
    uint32_t types = 0, consts = 0, vars = 0;
    count_globals(&c, &types, &consts, &vars);
    if (!(c.map = alloc(&c, m->bound, sizeof *c.map)) || !find_functions(&c, entry->function_id)) return false;
    number_ids(&c);
    out->values = alloc(&c, out->value_count, sizeof *out->values);
    out->types = alloc(&c, types, sizeof *out->types);
    out->consts = alloc(&c, consts, sizeof *out->consts);
    out->vars = alloc(&c, vars, sizeof *out->vars);
    out->functions = alloc(&c, out->function_count, sizeof *out->functions);
    out->blocks = alloc(&c, out->block_count, sizeof *out->blocks);
    out->insts = alloc(&c, out->inst_count, sizeof *out->insts);
    if (!out->values || !out->types || !out->consts || !out->vars || !out->functions || !out->blocks ||
        !out->insts)
        return false;
    entry_modes(&c, entry);
    if (!build_globals(&c)) return false;
    out->block_count = out->inst_count = 0;   /* recounted while filling */
    uint32_t fi = 0;
    for (uint32_t f = 0; f < c.fn_count; f++)
        if (c.reached[f] && !build_function(&c, c.fn_at[f], &out->functions[fi++])) return false;
    return true;
}
