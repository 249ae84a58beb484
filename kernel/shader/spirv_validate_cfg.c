/* SPIR-V validation, control flow: block structure, dominators, structured control flow rules.
 *
 * Sources: SPIR-V 1.5 section 2.2.5 (block order), 2.11 "Structured Control Flow" and the
 * OpSelectionMerge / OpLoopMerge instruction text; the WebGPU execution environment "CFGs" rule
 * for unreachable blocks. One function at a time: its blocks go into a scratch array taken from
 * the front end's arena and released when the function is done (so the arena's knob bounds the
 * block count). Dominators use the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple,
 * Fast Dominance Algorithm") over a reverse post-order from an explicit-stack DFS: no recursion.
 */
#include "kernel/shader/spirv_internal.h"

#define NONE 0xffffu
#define MAX_BLOCKS 0xfffeu   /* block indices are 16-bit; NONE and the DFS mark take the top two */

typedef struct cfg_block {
    uint32_t start, term, merge_at;  /* word offsets: OpLabel, terminator, merge instruction (0: none) */
    uint16_t rpo, idom;              /* reverse post-order number and immediate dominator; NONE: unreachable */
    uint16_t merge_of, back_edges;   /* header that names this block as its merge; back edges into it */
} cfg_block_t;

typedef struct cfg {
    eg_spirv_ctx_t *c;
    const eg_spirv_module_t *m;
    cfg_block_t *b;
    uint16_t *order, *stack_b, *stack_i;  /* RPO order; DFS stack of (block, next successor) */
    uint32_t n, reach, end;               /* blocks, reachable blocks, the OpFunctionEnd word */
} cfg_t;

static bool is_terminator(uint32_t op)
{
    return op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch || op == SpvOpReturn ||
           op == SpvOpReturnValue || op == SpvOpKill || op == SpvOpUnreachable;
}

/* Label of successor i of the block ending at `term`; 0 past the last. OpSwitch cases are
 * (32-bit literal, label) pairs: TYPE_WIDTH leaves only 32-bit selectors. */
static uint32_t succ_label(const eg_spirv_module_t *m, uint32_t term, uint32_t i)
{
    switch (eg_spirv_op(m, term)) {
    case SpvOpBranch: return i == 0 ? eg_spirv_word(m, term, 1) : 0;
    case SpvOpBranchConditional: return i < 2 ? eg_spirv_word(m, term, 2 + i) : 0;
    case SpvOpSwitch: return i == 0 ? eg_spirv_word(m, term, 2) : eg_spirv_word(m, term, 2 + 2 * i);
    default: return 0;
    }
}

/* Block index of `label`, or NONE when it is not an OpLabel of this function. Blocks are kept
 * in module order, so a binary search on the label's defining word finds it without a map. */
static uint32_t find_block(const cfg_t *g, uint32_t label)
{
    uint32_t at = eg_spirv_def(g->m, label);
    if (!at || eg_spirv_op(g->m, at) != SpvOpLabel || at < g->b[0].start || at >= g->end) return NONE;
    uint32_t lo = 0, hi = g->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->b[mid].start == at) return mid;
        if (g->b[mid].start < at) lo = mid + 1; else hi = mid;
    }
    return NONE;
}

static uint32_t label_of(const cfg_t *g, uint32_t blk) { return eg_spirv_word(g->m, g->b[blk].start, 1); }

/* SPIR-V 2.2.5: a block is an OpLabel, instructions, and one terminator; nothing between blocks.
 * Also 2.11: OpSelectionMerge immediately precedes OpBranchConditional or OpSwitch, OpLoopMerge
 * immediately precedes OpBranch or OpBranchConditional. Pass 1 counts, pass 2 (g->b set) fills. */
static bool scan_blocks(cfg_t *g, uint32_t fn_at)
{
    const eg_spirv_module_t *m = g->m;
    bool in_block = false;
    uint32_t n = 0;
    for (uint32_t w = fn_at + eg_spirv_wc(m, fn_at); w < g->end; w += eg_spirv_wc(m, w)) {
        uint32_t op = eg_spirv_op(m, w);
        if (op == SpvOpFunctionParameter && n == 0 && !in_block) continue;
        if (op == SpvOpLine || op == SpvOpNoLine) continue;
        if (op == SpvOpLabel) {
            if (in_block)
                return eg_spirv_fail(g->c, EG_SPIRV_RULE_CFG_BLOCK, w, "the block before this label has no "
                                     "terminator (OpBranch, OpReturn, ...)");
            if (n >= MAX_BLOCKS)
                return eg_spirv_fail(g->c, EG_SPIRV_RULE_CFG_BLOCK, w, "more than %u blocks in one function",
                                     (unsigned)MAX_BLOCKS);
            if (g->b) { g->b[n].start = w; g->b[n].merge_at = 0; }
            n++;
            in_block = true;
            continue;
        }
        if (!in_block)
            return eg_spirv_fail(g->c, EG_SPIRV_RULE_CFG_BLOCK, w, "instruction outside a block (after a "
                                 "terminator, or before the function's first OpLabel)");
        if (op == SpvOpSelectionMerge || op == SpvOpLoopMerge) {
            uint32_t next = w + eg_spirv_wc(m, w), nop = next < g->end ? eg_spirv_op(m, next) : 0;
            bool ok = op == SpvOpSelectionMerge ? nop == SpvOpBranchConditional || nop == SpvOpSwitch
                                                : nop == SpvOpBranch || nop == SpvOpBranchConditional;
            if (!ok)
                return eg_spirv_fail(g->c, EG_SPIRV_RULE_MERGE_PLACEMENT, w, "%s must immediately precede "
                                     "the block's %s", op == SpvOpSelectionMerge ? "OpSelectionMerge" : "OpLoopMerge",
                                     op == SpvOpSelectionMerge ? "OpBranchConditional or OpSwitch"
                                                               : "OpBranch or OpBranchConditional");
            if (g->b) g->b[n - 1].merge_at = w;
        } else if (is_terminator(op)) {
            if (g->b) g->b[n - 1].term = w;
            in_block = false;
        }
    }
    if (in_block)
        return eg_spirv_fail(g->c, EG_SPIRV_RULE_CFG_BLOCK, g->end, "the last block has no terminator");
    if (n == 0)
        return eg_spirv_fail(g->c, EG_SPIRV_RULE_CFG_BLOCK, fn_at, "function %u has no body (declarations "
                             "need the Linkage capability, which WebGPU forbids)", (unsigned)eg_spirv_word(m, fn_at, 2));
    g->n = n;
    return true;
}

/* Every branch, merge and continue target is an OpLabel of this function (SPIR-V 2.11: "must be
 * the label of a block in the same function"), and nothing branches to the entry block (2.2.5). */
static bool check_targets(cfg_t *g)
{
    const eg_spirv_module_t *m = g->m;
    for (uint32_t i = 0; i < g->n; i++) {
        const cfg_block_t *bk = &g->b[i];
        for (uint32_t k = 0, l; (l = succ_label(m, bk->term, k)) != 0; k++) {
            uint32_t s = find_block(g, l);
            if (s == NONE || s == 0)
                return eg_spirv_fail(g->c, EG_SPIRV_RULE_CFG_TARGET, bk->term, "branch target %u is %s", (unsigned)l,
                                     s == 0 ? "the function's entry block" : "not an OpLabel of this function");
        }
        if (!bk->merge_at) continue;
        uint32_t mop = eg_spirv_op(m, bk->merge_at);
        for (uint32_t k = 1; k <= (mop == SpvOpLoopMerge ? 2u : 1u); k++) {
            uint32_t l = eg_spirv_word(m, bk->merge_at, k);
            if (find_block(g, l) == NONE)
                return eg_spirv_fail(g->c, EG_SPIRV_RULE_CFG_TARGET, bk->merge_at, "%s %u is not an OpLabel of "
                                     "this function", k == 1 ? "merge block" : "continue target", (unsigned)l);
        }
    }
    return true;
}

/* Reverse post-order of the blocks reachable from the entry, by a DFS on an explicit stack. */
static void order_blocks(cfg_t *g)
{
    const eg_spirv_module_t *m = g->m;
    uint32_t sp = 0, post = 0;
    for (uint32_t i = 0; i < g->n; i++) { g->b[i].rpo = NONE; g->b[i].idom = NONE; }
    g->b[0].rpo = NONE - 1;   /* on the stack or finished */
    g->stack_b[sp] = 0; g->stack_i[sp++] = 0;
    while (sp) {
        uint32_t top = g->stack_b[sp - 1], l = succ_label(m, g->b[top].term, g->stack_i[sp - 1]);
        if (l) {
            g->stack_i[sp - 1]++;
            uint32_t s = find_block(g, l);
            if (g->b[s].rpo == NONE) { g->b[s].rpo = NONE - 1; g->stack_b[sp] = (uint16_t)s; g->stack_i[sp++] = 0; }
            continue;
        }
        g->order[post++] = (uint16_t)top;   /* post-order for now */
        sp--;
    }
    for (uint32_t i = 0; i < post / 2; i++) {
        uint16_t t = g->order[i]; g->order[i] = g->order[post - 1 - i]; g->order[post - 1 - i] = t;
    }
    for (uint32_t k = 0; k < post; k++) g->b[g->order[k]].rpo = (uint16_t)k;
    g->reach = post;
}

static uint32_t intersect(const cfg_t *g, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (g->b[a].rpo > g->b[b].rpo) a = g->b[a].idom;
        while (g->b[b].rpo > g->b[a].rpo) b = g->b[b].idom;
    }
    return a;
}

/* Cooper-Harvey-Kennedy, pushed along edges: each block's estimate is the meet of its processed
 * predecessors so far; estimates only move up the tree, so the fixed point is the dominator tree. */
static void dominators(cfg_t *g)
{
    g->b[0].idom = 0;
    for (bool changed = true; changed; ) {
        changed = false;
        for (uint32_t k = 0; k < g->reach; k++) {
            uint32_t b = g->order[k];
            for (uint32_t i = 0, l; (l = succ_label(g->m, g->b[b].term, i)) != 0; i++) {
                uint32_t s = find_block(g, l);
                uint32_t nd = g->b[s].idom == NONE ? b : intersect(g, b, g->b[s].idom);
                if (nd != g->b[s].idom) { g->b[s].idom = (uint16_t)nd; changed = true; }
            }
        }
    }
}

static bool dominates(const cfg_t *g, uint32_t a, uint32_t b)
{
    while (g->b[b].rpo > g->b[a].rpo) b = g->b[b].idom;
    return a == b;
}

/* True when `t`, a target of block b, leaves a construct b is in: a back edge (t dominates b), or
 * the merge block or continue target of a header that strictly dominates b (break, continue). */
static bool is_exit(const cfg_t *g, uint32_t b, uint32_t t)
{
    if (dominates(g, t, b)) return true;
    uint32_t label = label_of(g, t);
    for (uint32_t h = g->b[b].idom; ; h = g->b[h].idom) {
        uint32_t mat = g->b[h].merge_at;
        if (mat && (eg_spirv_word(g->m, mat, 1) == label ||
                    (eg_spirv_op(g->m, mat) == SpvOpLoopMerge && eg_spirv_word(g->m, mat, 2) == label)))
            return true;
        if (h == 0) return false;
    }
}

/* SPIR-V 2.11: headers, merge blocks, back edges, and branches that need a merge instruction. */
static bool check_structure(cfg_t *g)
{
    const eg_spirv_module_t *m = g->m;
    for (uint32_t k = 0; k < g->reach; k++) {
        uint32_t b = g->order[k];
        cfg_block_t *bk = &g->b[b];
        /* 2.2.5: "blocks appear before all blocks they dominate". */
        if (b && bk->idom >= b)
            return eg_spirv_fail(g->c, EG_SPIRV_RULE_BLOCK_ORDER, bk->start, "block %u comes before its "
                                 "dominator %u; list a block after the blocks that dominate it",
                                 (unsigned)label_of(g, b), (unsigned)label_of(g, bk->idom));
        if (bk->merge_at) {
            uint32_t mb = find_block(g, eg_spirv_word(m, bk->merge_at, 1));
            if (g->b[mb].merge_of != NONE)
                return eg_spirv_fail(g->c, EG_SPIRV_RULE_MERGE_UNIQUE, bk->merge_at, "merge block %u is already "
                                     "the merge block of header %u", (unsigned)label_of(g, mb),
                                     (unsigned)label_of(g, g->b[mb].merge_of));
            g->b[mb].merge_of = (uint16_t)b;
            if (g->b[mb].rpo != NONE && (mb == b || !dominates(g, b, mb)))
                return eg_spirv_fail(g->c, EG_SPIRV_RULE_MERGE_DOMINANCE, bk->merge_at, "header %u does not "
                                     "strictly dominate its merge block %u", (unsigned)label_of(g, b),
                                     (unsigned)label_of(g, mb));
        }
        uint32_t top = eg_spirv_op(m, bk->term), distinct = 0, first = NONE;
        for (uint32_t i = 0, l; (l = succ_label(m, bk->term, i)) != 0; i++) {
            uint32_t s = find_block(g, l);
            if (g->b[s].rpo <= g->b[b].rpo) {   /* retreating edge */
                uint32_t lm = g->b[s].merge_at;
                bool loop = lm && eg_spirv_op(m, lm) == SpvOpLoopMerge;
                const char *why = !dominates(g, s, b) ? "enters a loop other than through its header"
                    : !loop ? "targets a block that is not a loop header"
                    : !dominates(g, find_block(g, eg_spirv_word(m, lm, 2)), b)
                        ? "comes from outside the loop's continue construct"
                    : ++g->b[s].back_edges > 1 ? "is the loop header's second back edge" : NULL;
                if (why)
                    return eg_spirv_fail(g->c, EG_SPIRV_RULE_BACK_EDGE, bk->term, "the branch from block %u to "
                                         "%u %s", (unsigned)label_of(g, b), (unsigned)l, why);
            }
            if (bk->merge_at || top == SpvOpBranch || is_exit(g, b, s) || s == first) continue;
            if (first == NONE) first = s;
            distinct++;
        }
        if (distinct > 1)
            return eg_spirv_fail(g->c, EG_SPIRV_RULE_MERGE_REQUIRED, bk->term, "block %u branches conditionally "
                                 "without a merge instruction, and more than one target is not a break, continue "
                                 "or back edge; add OpSelectionMerge", (unsigned)label_of(g, b));
    }
    return true;
}

/* WebGPU env "CFGs": an unreachable block is the merge block of a reachable header and holds only
 * OpLabel + OpUnreachable, or the continue target of a reachable loop header H and holds only
 * OpLabel + OpBranch H; in both cases nothing branches to it. */
static bool check_unreachable(cfg_t *g)
{
    const eg_spirv_module_t *m = g->m;
    for (uint32_t u = 0; u < g->n; u++) {
        if (g->b[u].rpo != NONE) continue;
        uint32_t label = label_of(g, u), term = g->b[u].term;
        bool ok = false;
        for (uint32_t h = 0; h < g->n && !ok; h++) {
            uint32_t mat = g->b[h].merge_at;
            if (g->b[h].rpo == NONE || !mat) continue;
            if (eg_spirv_word(m, mat, 1) == label)
                ok = eg_spirv_op(m, term) == SpvOpUnreachable;
            else if (eg_spirv_op(m, mat) == SpvOpLoopMerge && eg_spirv_word(m, mat, 2) == label)
                ok = eg_spirv_op(m, term) == SpvOpBranch && eg_spirv_word(m, term, 1) == label_of(g, h);
        }
        ok = ok && term == g->b[u].start + eg_spirv_wc(m, g->b[u].start);
        for (uint32_t p = 0; p < g->n && ok; p++)
            for (uint32_t i = 0, l; ok && (l = succ_label(m, g->b[p].term, i)) != 0; i++) ok = l != label;
        if (!ok)
            return eg_spirv_fail(g->c, EG_SPIRV_RULE_CFG_UNREACHABLE, g->b[u].start, "block %u is unreachable; "
                                 "only an unreferenced merge block (OpLabel, OpUnreachable) or continue target "
                                 "(OpLabel, OpBranch to its header) may be", (unsigned)label);
    }
    return true;
}

bool eg_spirv_validate_cfg(eg_spirv_ctx_t *c, uint32_t fn_at, uint32_t end_at)
{
    cfg_t g = { c, c->m, NULL, NULL, NULL, NULL, 0, 0, end_at };
    if (!scan_blocks(&g, fn_at)) return false;
    size_t mark = eg_arena_mark(c->arena);
    size_t need = (size_t)g.n * (sizeof(cfg_block_t) + 3 * sizeof(uint16_t));
    g.b = eg_arena_alloc(c->arena, (size_t)g.n * sizeof(cfg_block_t), 4);
    g.order = eg_arena_alloc(c->arena, (size_t)g.n * 3 * sizeof(uint16_t), 2);
    if (!g.b || !g.order) {
        eg_arena_reset(c->arena, mark);
        return eg_spirv_fail(c, EG_SPIRV_RULE_ARENA_FULL, fn_at, "control-flow check of a function with %u blocks "
                             "needs %u bytes of scratch, %s arena has %u left (%s = %u)", (unsigned)g.n,
                             (unsigned)need, c->arena->name, (unsigned)eg_arena_free_B(c->arena),
                             c->arena->knob, (unsigned)c->arena->cap_B);
    }
    g.stack_b = g.order + g.n;
    g.stack_i = g.stack_b + g.n;
    bool ok = scan_blocks(&g, fn_at) && check_targets(&g);
    if (ok) {
        for (uint32_t i = 0; i < g.n; i++) g.b[i].merge_of = g.b[i].back_edges = 0, g.b[i].merge_of = NONE;
        order_blocks(&g);
        dominators(&g);
        ok = check_structure(&g) && check_unreachable(&g);
    }
    eg_arena_reset(c->arena, mark);
    return ok;
}
