/* hal/d3d12 TPF emitter: structured control flow (if/loop/switch from the blocks' merge info), phis, inlined calls. */
#include "config/emgpu_config.h"

#if EMGPU_D3D12_TPF

#include "hal/d3d12/d3d_tpf_internal.h"

/* The walk follows SPIR-V's structured control flow (SPIR-V 2.11 "Structured Control Flow"):
 * a header with OpSelectionMerge opens if/else or switch, one with OpLoopMerge opens a loop; a
 * branch to the innermost merge closes the construct's branch, to a loop's merge is `break`, to
 * its header (from the continue construct) is `continue`. The continue construct is emitted
 * where the body branches to it (the walk simply goes on into it), so every path of a TPF loop
 * ends in `break` or `continue`. Called functions are inlined inside a one-trip `loop` so that
 * `return` is a `break`. Phis are temps written on the incoming edges. No recursion: the open
 * constructs live in t->cons. */

static void simple(tpf_t *t, uint32_t op)
{
    tpf_begin(t, op); tpf_end(t);
}

static void cond_op(tpf_t *t, uint32_t op, tpf_sc_t c, bool nz)
{
    tpf_begin(t, op | (nz ? TPF_NZ : 0u)); tpf_o_src(t, c); tpf_end(t);
}

static const eg_ir_block_t *block_of(const tpf_t *t, uint32_t label)
{
    return &t->ir->blocks[t->ir->values[label].index];
}

static void go(tpf_t *t, uint32_t label)
{
    t->blk = t->ir->values[label].index;
    t->inst = 0;
}

static bool push(tpf_t *t, tpf_cons_t c)
{
    if (t->cons_n >= TPF_MAX_CONSTRUCTS)
        return tpf_fail(t, "DXBC emitter: control flow nested deeper than %u", TPF_MAX_CONSTRUCTS);
    t->cons[t->cons_n++] = c;
    return true;
}

/* Phi operands of `to` coming from `from`, through temps (phis may read each other). */
static void edge_copies(tpf_t *t, uint32_t from, uint32_t to)
{
    const eg_ir_block_t *bl = block_of(t, to);
    tpf_sc_t tmp[64];
    uint32_t n_tmp = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t k_tmp = 0;
        for (uint32_t i = 0; i < bl->inst_count; i++) {
            const eg_ir_inst_t *in = &t->ir->insts[bl->first_inst + i];
            if (in->op != SpvOpPhi) break;
            for (uint32_t k = 0; k + 1 < in->operand_count; k += 2) {
                if (in->operands[k + 1] != from) continue;
                uint32_t n, dn;
                tpf_sc_t *src = tpf_comps(t, in->operands[k], &n);
                tpf_sc_t *dst = tpf_comps(t, in->result, &dn);
                for (uint32_t c = 0; c < n && c < dn; c++) {
                    if (pass == 0) {
                        if (n_tmp >= 64) { tpf_fail(t, "DXBC emitter: more than 64 phi scalars on one edge"); return; }
                        tmp[n_tmp++] = tpf_mov_new(t, src[c]);
                    } else {
                        tpf_op1(t, TPF_MOV, dst[c].v, tmp[k_tmp++]);
                    }
                }
            }
        }
    }
}

/* Innermost loop, or -1; *through_switch when a switch lies in between (TPF `break` would only
 * leave the switch). */
static int inner_loop(tpf_t *t, bool *through_switch)
{
    *through_switch = false;
    for (int i = (int)t->cons_n - 1; i >= 0; i--) {
        if (t->cons[i].kind == CK_LOOP) return i;
        if (t->cons[i].kind == CK_CALL) return -1;
        if (t->cons[i].kind == CK_SWITCH) *through_switch = true;
    }
    return -1;
}

typedef enum { EXIT_NONE, EXIT_MERGE, EXIT_BREAK, EXIT_CONTINUE, EXIT_CONTINUE_SW } exit_t;

static exit_t exit_kind(tpf_t *t, uint32_t target)
{
    if (t->cons_n) {
        const tpf_cons_t *top = &t->cons[t->cons_n - 1];
        if (top->kind == CK_IF && target == top->merge) return EXIT_MERGE;
        if (top->kind == CK_SWITCH && target == top->merge) return EXIT_BREAK;
    }
    bool sw;
    int l = inner_loop(t, &sw);
    if (l < 0) return EXIT_NONE;
    if (target == t->cons[l].header) return sw ? EXIT_CONTINUE_SW : EXIT_CONTINUE;
    if (target == t->cons[l].merge) {
        if (!sw) return EXIT_BREAK;
        /* `break` would only leave the switch: set the loop's flag, and have every switch up
         * to the loop break again once closed (brk_check). */
        for (uint32_t i = (uint32_t)l + 1u; i < t->cons_n; i++)
            if (t->cons[i].kind == CK_SWITCH) t->cons[i].brk_check = 1;
        tpf_op1(t, TPF_MOV, t->cons[l].flag, tpf_imm(~0u));
        return EXIT_BREAK;
    }
    return EXIT_NONE;
}

static void exit_action(tpf_t *t, exit_t e)
{
    if (e == EXIT_BREAK) { simple(t, TPF_BREAK); t->brk_end = t->code_n; }
    else if (e == EXIT_CONTINUE) { simple(t, TPF_CONTINUE); t->cont_end = t->code_n; }
    else if (e == EXIT_CONTINUE_SW) {
        /* TPF `continue` skips switches, but vkd3d-shader 1.2 loses track of a switch whose
         * case ends in it: a conditional continue, then the `break` that ends the case. */
        cond_op(t, 0x08 /* continuec */, tpf_imm(~0u), true);
        simple(t, TPF_BREAK);
    }
}

/* `endloop` loops back by itself; vkd3d-shader 1.2 would emit a second branch after a
 * `continue` that directly precedes it (invalid SPIR-V), so that `continue` is dropped. */
static void end_loop(tpf_t *t)
{
    if (t->cont_end == t->code_n && t->code_n) t->code_n--;
    if (t->brk_end == t->code_n && t->code_n) {          /* same for `break`: made conditional */
        t->code_n--;
        cond_op(t, TPF_BREAKC, tpf_imm(~0u), true);
    }
    simple(t, TPF_ENDLOOP);
}

/* After a loop/switch that a callee returned from: leave the next level too. */
static void ret_check(tpf_t *t, const tpf_cons_t *closed)
{
    if (closed->brk_check)
        for (int i = (int)t->cons_n - 1; i >= 0; i--)
            if (t->cons[i].kind == CK_LOOP) {
                cond_op(t, TPF_IF, tpf_tsc(t->cons[i].flag), true);
                simple(t, TPF_BREAK);
                simple(t, TPF_ENDIF);
                break;
            }
    if (!closed->ret_check) return;
    for (int i = (int)t->cons_n - 1; i >= 0; i--)
        if (t->cons[i].kind == CK_CALL) {
            cond_op(t, TPF_IF, tpf_tsc(t->cons[i].flag), true);
            simple(t, TPF_BREAK);
            simple(t, TPF_ENDIF);
            return;
        }
}

static bool region_end(tpf_t *t);

/* A branch from block `from` to `target`: phi copies, then either the walk goes on into the
 * target or the current region ends (break / continue / the construct's merge). */
static bool branch_to(tpf_t *t, uint32_t from, uint32_t target)
{
    edge_copies(t, from, target);
    exit_t e = exit_kind(t, target);
    if (t->failed) return false;
    if (e == EXIT_NONE) { go(t, target); return true; }
    exit_action(t, e);
    return region_end(t);
}

/* The walk reached the end of a construct's branch: open the next branch or close it. */
static bool region_end(tpf_t *t)
{
    while (!t->failed) {
        if (t->cons_n == 0) { t->walking = false; return true; }
        tpf_cons_t *c = &t->cons[t->cons_n - 1];
        switch (c->kind) {
        case CK_IF:
            if (!c->in_else) {
                c->in_else = 1;
                simple(t, TPF_ELSE);
                edge_copies(t, c->from, c->other);
                if (c->other == c->merge) continue;       /* empty else: close it too */
                exit_t e = exit_kind(t, c->other);
                if (e == EXIT_NONE) { go(t, c->other); return true; }
                exit_action(t, e);
                continue;
            }
            simple(t, TPF_ENDIF);
            t->cons_n--;
            go(t, c->merge);
            return true;
        case CK_LOOP:
            end_loop(t);
            t->cons_n--;
            ret_check(t, c);
            go(t, c->merge);
            return true;
        case CK_SWITCH: {
            const eg_ir_inst_t *sw = &t->ir->insts[c->other];
            uint32_t from = c->from, targets = (sw->operand_count - 2u) / 2u + 1u;
            /* target k: 0 = default, k >= 1 = case k - 1. Open the next target not seen yet. */
            while (c->next < targets) {
                uint32_t k = c->next++, tgt = k == 0 ? sw->operands[1] : sw->operands[3 + 2 * (k - 1)];
                bool seen = false;
                for (uint32_t j = 0; j < k; j++) seen |= (j == 0 ? sw->operands[1] : sw->operands[3 + 2 * (j - 1)]) == tgt;
                if (seen) continue;
                for (uint32_t j = 0; j < targets; j++) {
                    if ((j == 0 ? sw->operands[1] : sw->operands[3 + 2 * (j - 1)]) != tgt) continue;
                    if (j == 0) { simple(t, TPF_DEFAULT); continue; }
                    tpf_begin(t, TPF_CASE); tpf_o_src(t, tpf_imm(sw->operands[2 + 2 * (j - 1)])); tpf_end(t);
                }
                edge_copies(t, from, tgt);
                if (tgt == c->merge) { simple(t, TPF_BREAK); continue; }
                go(t, tgt);
                return true;
            }
            simple(t, TPF_ENDSWITCH);
            t->cons_n--;
            ret_check(t, c);
            go(t, c->merge);
            return true;
        }
        default:                                          /* CK_CALL: back to the caller */
            end_loop(t);
            t->cons_n--;
            t->blk = c->header;
            t->inst = c->next;
            t->cur_fn = c->from;
            return true;
        }
    }
    return false;
}

static bool cond_branch(tpf_t *t, const eg_ir_block_t *bl, const eg_ir_inst_t *in)
{
    uint32_t n, tl = in->operands[1], fl = in->operands[2];
    tpf_sc_t c = tpf_comps(t, in->operands[0], &n)[0];
    if (bl->merge_kind == EG_IR_MERGE_SELECTION) {
        if (!push(t, (tpf_cons_t){ .kind = CK_IF, .merge = bl->merge, .other = fl, .from = bl->label })) return false;
        cond_op(t, TPF_IF, c, true);
        return branch_to(t, bl->label, tl);
    }
    exit_t et = exit_kind(t, tl), ef = exit_kind(t, fl);
    if (t->failed) return false;
    if (et != EXIT_NONE && ef != EXIT_NONE) {
        cond_op(t, TPF_IF, c, true);
        edge_copies(t, bl->label, tl); exit_action(t, et);
        simple(t, TPF_ELSE);
        edge_copies(t, bl->label, fl); exit_action(t, ef);
        simple(t, TPF_ENDIF);
        return region_end(t);
    }
    if ((et == EXIT_NONE) == (ef == EXIT_NONE) || et == EXIT_MERGE || ef == EXIT_MERGE)
        return tpf_unsupported(t, in, "a conditional branch without a merge that is neither a break nor a continue");
    bool exit_true = et != EXIT_NONE;
    cond_op(t, TPF_IF, c, exit_true);
    edge_copies(t, bl->label, exit_true ? tl : fl);
    exit_action(t, exit_true ? et : ef);
    simple(t, TPF_ENDIF);
    return branch_to(t, bl->label, exit_true ? fl : tl);
}

static bool do_return(tpf_t *t, const eg_ir_inst_t *in)
{
    int call = -1;
    for (int i = (int)t->cons_n - 1; i >= 0 && call < 0; i--)
        if (t->cons[i].kind == CK_CALL) call = i;
    bool entry = t->cur_fn == t->ir->function_count - 1u;
    if (entry) {                                          /* `ret` leaves everything at once */
        if (!tpf_epilogue(t)) return false;
        simple(t, TPF_RET);
        return region_end(t);
    }
    if (call < 0) return tpf_fail(t, "DXBC emitter: internal: return outside a call");
    if (in->op == SpvOpReturnValue) {
        uint32_t n, dn;
        tpf_sc_t *src = tpf_comps(t, in->operands[0], &n);
        tpf_sc_t *dst = tpf_comps(t, t->call_result[t->cur_fn], &dn);
        for (uint32_t c = 0; c < n && c < dn; c++) tpf_op1(t, TPF_MOV, dst[c].v, src[c]);
    }
    /* `break` leaves the innermost loop/switch: a return from inside loops/switches of the
     * callee sets the call's flag, and each of them breaks again once closed (ret_check). */
    bool nested = false;
    for (int i = (int)t->cons_n - 1; i > call; i--)
        if (t->cons[i].kind == CK_LOOP || t->cons[i].kind == CK_SWITCH) { t->cons[i].ret_check = 1; nested = true; }
    if (nested) tpf_op1(t, TPF_MOV, t->cons[call].flag, tpf_imm(~0u));
    simple(t, TPF_BREAK);
    t->brk_end = t->code_n;
    return region_end(t);
}

static bool terminator(tpf_t *t, const eg_ir_block_t *bl, const eg_ir_inst_t *in)
{
    switch (in->op) {
    case SpvOpBranch:
        return branch_to(t, bl->label, in->operands[0]);
    case SpvOpBranchConditional:
        return cond_branch(t, bl, in);
    case SpvOpSwitch: {
        if (bl->merge_kind != EG_IR_MERGE_SELECTION) return tpf_unsupported(t, in, "OpSwitch without OpSelectionMerge");
        uint32_t n;
        tpf_sc_t sel = tpf_comps(t, in->operands[0], &n)[0];
        if (!push(t, (tpf_cons_t){ .kind = CK_SWITCH, .merge = bl->merge, .other = (uint32_t)(in - t->ir->insts),
                                   .from = bl->label })) return false;
        cond_op(t, TPF_SWITCH, sel, false);
        return region_end(t);                         /* opens the first case */
    }
    case SpvOpReturn: case SpvOpReturnValue:
        return do_return(t, in);
    case SpvOpKill: case SpvOpTerminateInvocation:
        t->uses_discard = true;
        cond_op(t, TPF_DISCARD, tpf_imm(~0u), true);
        simple(t, TPF_RET);
        return region_end(t);
    case SpvOpUnreachable:
        return region_end(t);
    default:
        return tpf_unsupported(t, in, "this block terminator");
    }
}

static bool call(tpf_t *t, const eg_ir_inst_t *in)
{
    const eg_ir_t *ir = t->ir;
    uint32_t fn = ir->values[in->operands[0]].index;
    const eg_ir_function_t *f = &ir->functions[fn];
    for (uint32_t i = 0; i + 1 < in->operand_count && i < f->param_count; i++)
        t->vals[f->first_param + i] = *tpf_val(t, in->operands[1 + i]);
    if (in->result && eg_ir_type(ir, in->type)->kind != EG_IR_VOID)
        t->vals[in->result] = tpf_new_comps(t, eg_ir_scalars(ir, in->type));
    t->call_result[fn] = in->result;
    uint32_t flag = tpf_temp(t);
    tpf_op1(t, TPF_MOV, flag, tpf_imm(0));
    if (!push(t, (tpf_cons_t){ .kind = CK_CALL, .header = t->blk, .next = t->inst, .from = t->cur_fn, .fn = fn,
                               .flag = flag }))
        return false;
    simple(t, TPF_LOOP);
    t->cur_fn = fn;
    t->blk = f->first_block;
    t->inst = 0;
    return true;
}

static bool is_terminator(uint32_t op)
{
    return op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch || op == SpvOpReturn ||
           op == SpvOpReturnValue || op == SpvOpKill || op == SpvOpTerminateInvocation || op == SpvOpUnreachable;
}

static bool lower(tpf_t *t, const eg_ir_inst_t *in)
{
    bool handled = false;
    /* Atomics on a storage texel (OpImageTexelPointer) go to the image code; the others to
     * the buffer/workgroup code (tpf_mem). Operand 0 of every atomic is its pointer. */
    if (in->op >= SpvOpAtomicLoad && in->op <= SpvOpAtomicXor && in->operand_count &&
        tpf_val(t, in->operands[0])->kind == TV_PTR && t->ptrs[tpf_val(t, in->operands[0])->idx].space == SP_IMAGE)
        return tpf_image_atomic(t, in, &t->ptrs[tpf_val(t, in->operands[0])->idx]);
    if (!tpf_alu(t, in, &handled)) return false;
    if (handled) return true;
    if (!tpf_mem(t, in, &handled)) return false;
    if (handled) return true;
    if (!tpf_image(t, in, &handled)) return false;
    if (handled) return true;
    if (in->op == SpvOpPtrEqual || in->op == SpvOpPtrNotEqual || in->op == SpvOpPtrDiff)
        return tpf_fail(t, "DXBC emitter: OpPtrEqual/OpPtrNotEqual/OpPtrDiff (opcode %u, instruction %u) need the "
                        "VariablePointers capability in the Logical addressing model (SPIR-V 3.32.8), which WebGPU "
                        "does not allow", (unsigned)in->op, (unsigned)(in - t->ir->insts));
    return tpf_unsupported(t, in, "this opcode");
}

bool tpf_walk(tpf_t *t)
{
    const eg_ir_t *ir = t->ir;
    for (uint32_t i = 0; i < ir->inst_count; i++)          /* phis: one set of temps each */
        if (ir->insts[i].op == SpvOpPhi)
            t->vals[ir->insts[i].result] = tpf_new_comps(t, eg_ir_scalars(ir, ir->insts[i].type));
    t->cur_fn = ir->function_count - 1u;
    t->blk = ir->functions[t->cur_fn].first_block;
    t->inst = 0;
    t->walking = true;
    while (t->walking && !t->failed) {
        const eg_ir_block_t *bl = &ir->blocks[t->blk];
        if (t->inst == 0 && bl->merge_kind == EG_IR_MERGE_LOOP) {
            uint32_t flag = tpf_temp(t);
            tpf_op1(t, TPF_MOV, flag, tpf_imm(0));
            if (!push(t, (tpf_cons_t){ .kind = CK_LOOP, .merge = bl->merge, .header = bl->label, .other = bl->cont,
                                       .flag = flag }))
                return false;
            simple(t, TPF_LOOP);
        }
        if (t->inst >= bl->inst_count) return tpf_fail(t, "DXBC emitter: block %u has no terminator", (unsigned)bl->label);
        const eg_ir_inst_t *in = &ir->insts[bl->first_inst + t->inst++];
        if (in->op == SpvOpPhi) continue;
        if (in->op == SpvOpFunctionCall) { if (!call(t, in)) return false; continue; }
        if (is_terminator(in->op)) { if (!terminator(t, bl, in)) return false; continue; }
        if (!lower(t, in)) return false;
    }
    return !t->failed;
}

#endif /* EMGPU_D3D12_TPF */
