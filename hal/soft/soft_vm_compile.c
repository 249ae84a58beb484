/* hal/soft shader VM compiler: IR -> lane bytecode (frames, control flow, interface, program). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include <stdarg.h>

#include "hal/soft/soft_internal.h"
#include "hal/soft/soft_vm_compile.h"
#include "hal/soft/soft_jit.h"
#include "kernel/api/pipeline_layout.h"
#include "kernel/api/shader_module.h"
#include "kernel/base/fmt.h"
#include "kernel/base/log.h"

/* Scratch memory of one compile (the IR and the compiler's tables); the program itself moves
 * to the soft heap. Compiles run on the thread that creates pipelines, one at a time. */
static uint32_t compile_scratch[EMGPU_SOFT_COMPILE_SCRATCH_BYTES / 4];

bool vm_fail(vm_cc_t *cc, eg_status_t st, const char *fmt, ...)
{
    if (cc->failed) return false;
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    eg_vfmt(msg, sizeof msg, fmt, ap);
    va_end(ap);
    eg_log(EG_LOG_ERROR, "soft shader compile: %s", msg);
    cc->failed = true;
    cc->status = st;
    return false;
}

static bool scratch_full(vm_cc_t *cc, const char *what)
{
    return vm_fail(cc, EG_STATUS_OUT_OF_MEMORY, "%s table full: raise EMGPU_SOFT_COMPILE_SCRATCH_BYTES "
                   "(now %u)", what, (unsigned)EMGPU_SOFT_COMPILE_SCRATCH_BYTES);
}

uint32_t vm_emit(vm_cc_t *cc, uint32_t op, uint32_t dst, uint32_t a, uint32_t b, uint32_t c,
                 uint32_t d, uint32_t imm)
{
    if (cc->code_n >= cc->code_cap) { scratch_full(cc, "bytecode"); return 0; }
    cc->code[cc->code_n] = (eg_vm_inst_t){ (uint16_t)op, (uint16_t)dst, (uint16_t)a, (uint16_t)b,
                                           (uint16_t)c, (uint16_t)d, imm };
    return cc->code_n++;
}

static uint32_t new_vregs(vm_cc_t *cc, uint32_t n, uint8_t var)
{
    if (cc->vreg_n + n > cc->vreg_cap || cc->vreg_n + n >= EG_VM_CONST_BASE) {
        scratch_full(cc, "virtual register");
        return 0;
    }
    uint32_t r = cc->vreg_n;
    for (uint32_t i = 0; i < n; i++) cc->vreg_var[r + i] = var;
    cc->vreg_n += n;
    return r;
}

uint32_t vm_temp(vm_cc_t *cc) { return new_vregs(cc, 1, 0); }
uint32_t vm_vars(vm_cc_t *cc, uint32_t n) { return new_vregs(cc, n, 1); }

uint32_t vm_const(vm_cc_t *cc, uint32_t bits)
{
    for (uint32_t i = 0; i < cc->const_n; i++)
        if (cc->const_vals[i] == bits) return EG_VM_CONST_BASE + i;
    if (cc->const_n >= cc->const_cap) { scratch_full(cc, "constant"); return EG_VM_CONST_BASE; }
    cc->const_vals[cc->const_n] = bits;
    return EG_VM_CONST_BASE + cc->const_n++;
}

vm_val_t vm_alias_comps(vm_cc_t *cc, uint32_t n)
{
    vm_val_t v = { VM_VAL_COMPS, (uint16_t)n, cc->comps_n };
    if (cc->comps_n + n > cc->comps_cap) { scratch_full(cc, "component"); v.idx = 0; v.n = 0; return v; }
    cc->comps_n += n;
    return v;
}

vm_val_t vm_new_comps(vm_cc_t *cc, uint32_t n, bool var)
{
    vm_val_t v = vm_alias_comps(cc, n);
    uint32_t r = new_vregs(cc, v.n, var);
    for (uint32_t i = 0; i < v.n; i++) cc->comps[v.idx + i] = r + i;
    return v;
}

static vm_val_t const_val(vm_cc_t *cc, uint32_t id)
{
    const eg_ir_const_t *k = &cc->ir->consts[cc->ir->values[id].index];
    uint32_t n = eg_ir_scalars(cc->ir, k->type);
    vm_val_t v = vm_alias_comps(cc, n);
    for (uint32_t i = 0; i < v.n; i++) cc->comps[v.idx + i] = vm_const(cc, k->scalars[i]);
    return v;
}

vm_val_t *vm_val(vm_cc_t *cc, uint32_t id)
{
    static vm_val_t none;
    if (id == 0 || id >= cc->ir->value_count) { none.kind = VM_VAL_NONE; return &none; }
    uint8_t kind = cc->ir->values[id].kind;
    if (kind == EG_IR_VAL_CONST) {
        if (cc->globals[id].kind == VM_VAL_NONE) cc->globals[id] = const_val(cc, id);
        return &cc->globals[id];
    }
    if (kind == EG_IR_VAL_VAR) return &cc->globals[id];
    return &cc->frames[cc->depth - 1].vals[id];
}

uint32_t *vm_comps(vm_cc_t *cc, uint32_t id, uint32_t *n)
{
    vm_val_t *v = vm_val(cc, id);
    if (v->kind != VM_VAL_COMPS) {
        const eg_ir_value_t *iv = &cc->ir->values[id < cc->ir->value_count ? id : 0];
        vm_fail(cc, EG_STATUS_INTERNAL, "value %u (kind %u, opcode %u) is used as a number but is not one (%u)",
                (unsigned)id, (unsigned)iv->kind,
                iv->kind == EG_IR_VAL_INST ? (unsigned)cc->ir->insts[iv->index].op : 0u, (unsigned)v->kind);
        *n = 0;
        return cc->comps;
    }
    *n = v->n;
    return &cc->comps[v->idx];
}

/* ---- resources ---- */

/* Which layout entry a resource variable binds. Without a layout (an "auto" layout not derived
 * yet) the entries are those of the module's reflection in that group, sorted by binding, which
 * is how an auto layout orders them. */
uint32_t vm_slot(vm_cc_t *cc, const eg_ir_var_t *v)
{
    eg_soft_program_t *p = cc->prog;
    uint32_t entry = 0, dynamic = 0, kind = 0;
    const eg_bind_group_layout_t *bgl = cc->layout && v->group < cc->layout->group_count
                                        ? cc->layout->groups[v->group] : NULL;
    if (bgl) {
        const eg_bgl_entry_t *e = eg_bind_group_layout_find(bgl, v->binding);
        if (!e) return vm_fail(cc, EG_STATUS_INTERNAL, "binding (%u, %u) missing from the layout",
                               (unsigned)v->group, (unsigned)v->binding), 0;
        entry = (uint32_t)(e - bgl->entries);
        kind = e->kind;
        for (uint32_t i = 0; i <= entry && e->has_dynamic_offset; i++) dynamic += bgl->entries[i].has_dynamic_offset;
    } else {
        for (uint32_t i = 0; i < cc->entry->binding_count; i++) {
            const eg_shader_binding_t *b = &cc->entry->bindings[i];
            entry += b->group == v->group && b->binding < v->binding;
        }
    }
    for (uint32_t i = 0; i < p->slot_count; i++)
        if (p->slots[i].group == v->group && p->slots[i].entry == entry) return i;
    if (p->slot_count >= EG_VM_MAX_SLOTS)
        return vm_fail(cc, EG_STATUS_INTERNAL, "more than %u resources in one shader", EG_VM_MAX_SLOTS), 0;
    p->slots[p->slot_count] = (eg_vm_slot_t){ (uint8_t)v->group, (uint8_t)entry, (uint8_t)dynamic, (uint8_t)kind };
    return p->slot_count++;
}

/* ---- interface ---- */

static uint32_t sys_of(uint32_t builtin, uint32_t comp, bool *ok)
{
    *ok = true;
    switch (builtin) {
    case SpvBuiltInVertexIndex: return EG_VM_SYS_VERTEX_INDEX;
    case SpvBuiltInInstanceIndex: return EG_VM_SYS_INSTANCE_INDEX;
    case SpvBuiltInFragCoord: return EG_VM_SYS_FRAG_COORD + comp;
    case SpvBuiltInFrontFacing: return EG_VM_SYS_FRONT_FACING;
    case SpvBuiltInLocalInvocationId: return EG_VM_SYS_LOCAL_ID + comp;
    case SpvBuiltInGlobalInvocationId: return EG_VM_SYS_GLOBAL_ID + comp;
    case SpvBuiltInWorkgroupId: return EG_VM_SYS_WG_ID + comp;
    case SpvBuiltInNumWorkgroups: return EG_VM_SYS_NUM_WG + comp;
    case SpvBuiltInLocalInvocationIndex: return EG_VM_SYS_LOCAL_INDEX;
    case SpvBuiltInSampleId: return EG_VM_SYS_SAMPLE_ID;
    case SpvBuiltInSampleMask: return EG_VM_SYS_SAMPLE_MASK;
    default: *ok = false; return 0;
    }
}

static uint8_t scalar_code(const eg_ir_t *ir, uint32_t type)
{
    switch (eg_ir_scalar_kind(ir, type)) {
    case EG_IR_INT: return EG_SHADER_SCALAR_I32;
    case EG_IR_UINT: return EG_SHADER_SCALAR_U32;
    case EG_IR_BOOL: return EG_SHADER_SCALAR_BOOL;
    default: return EG_SHADER_SCALAR_F32;
    }
}

static bool global_input(vm_cc_t *cc, const eg_ir_var_t *v, vm_val_t *out)
{
    eg_soft_program_info_t *info = &cc->prog->info;
    uint32_t n = eg_ir_scalars(cc->ir, v->type);
    *out = vm_new_comps(cc, n, true);
    uint32_t *r = vm_c(cc, out);
    if (v->builtin) {
        bool ok;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t sys = sys_of(v->builtin - 1u, i, &ok);
            if (!ok) return vm_fail(cc, EG_STATUS_INTERNAL, "input built-in %u", (unsigned)(v->builtin - 1u));
            if (v->builtin - 1u == SpvBuiltInWorkgroupSize) continue;
            if (v->builtin - 1u == SpvBuiltInSampleId) cc->prog->uses_sample_id = true;
            if (v->builtin - 1u == SpvBuiltInSampleMask) cc->prog->uses_sample_mask = true;
            vm_emit(cc, EG_VM_LD_SYS, r[i], EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, sys);
        }
        if (v->builtin - 1u == SpvBuiltInFragCoord) info->uses_frag_coord = true;
        if (v->builtin - 1u == SpvBuiltInFrontFacing) info->uses_front_facing = true;
        return true;
    }
    if (v->location >= EG_SOFT_MAX_LOCATIONS || n > 4 || v->component + n > 4)
        return vm_fail(cc, EG_STATUS_INTERNAL, "input at location %u with %u components", (unsigned)v->location,
                       (unsigned)n);
    info->input_mask |= 1u << v->location;
    info->input_scalar[v->location] = scalar_code(cc->ir, v->type);
    info->input_components[v->location] = (uint8_t)(v->component + n);
    info->interp[v->location] = v->flat ? EG_SOFT_INTERP_FLAT : v->noperspective ? EG_SOFT_INTERP_LINEAR
                                                                           : EG_SOFT_INTERP_PERSPECTIVE;
    if (eg_ir_scalar_kind(cc->ir, v->type) != EG_IR_FLOAT) info->interp[v->location] = EG_SOFT_INTERP_FLAT;
    if (v->sample) cc->prog->uses_sample_id = true;   /* `sample` interpolation: one run per sample */
    for (uint32_t i = 0; i < n; i++)
        vm_emit(cc, EG_VM_LD_IN, r[i], EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE,
                v->location * 4u + v->component + i);
    return true;
}

/* Registers of a Private/Output/Function variable, set to its initializer (or zero, which keeps
 * runs deterministic when a shader reads before writing). */
static vm_val_t var_regs(vm_cc_t *cc, uint32_t type, uint32_t init)
{
    uint32_t n = eg_ir_scalars(cc->ir, type);
    vm_val_t v = vm_new_comps(cc, n, true);
    uint32_t ni = 0, *src = init ? vm_comps(cc, init, &ni) : NULL;
    for (uint32_t i = 0; i < v.n; i++)
        vm_emit(cc, EG_VM_MOV, cc->comps[v.idx + i], src && i < ni ? src[i] : vm_const(cc, 0),
                EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0);
    return v;
}

static vm_val_t reg_ptr(vm_cc_t *cc, const vm_val_t *regs, uint32_t type)
{
    vm_val_t v = { VM_VAL_PTR, 1, cc->ptrs_n };
    if (cc->ptrs_n >= cc->ptrs_cap) { scratch_full(cc, "pointer"); return v; }
    cc->ptrs[cc->ptrs_n++] = (vm_ptr_t){ .space = VM_SPACE_REG, .type = type, .base = cc->comps[regs->idx],
                                         .dyn = EG_VM_NONE, .limit = regs->n, .vstride_B = 4 };
    return v;
}

vm_val_t vm_reg_ptr(vm_cc_t *cc, const vm_val_t *regs, uint32_t type);
vm_val_t vm_reg_ptr(vm_cc_t *cc, const vm_val_t *regs, uint32_t type) { return reg_ptr(cc, regs, type); }

static bool global_var(vm_cc_t *cc, const eg_ir_var_t *v)
{
    vm_val_t *g = &cc->globals[v->id];
    vm_val_t regs;
    switch (v->storage) {
    case SpvStorageClassInput:
        if (!global_input(cc, v, &regs)) return false;
        *g = reg_ptr(cc, &regs, v->type);
        return true;
    case SpvStorageClassOutput: case SpvStorageClassPrivate:
        regs = var_regs(cc, v->type, v->init);
        *g = reg_ptr(cc, &regs, v->type);
        return true;
    case SpvStorageClassWorkgroup: {
        uint32_t size_B = eg_ir_scalars(cc->ir, v->type) * 4u;
        if (cc->ptrs_n >= cc->ptrs_cap) return scratch_full(cc, "pointer");
        *g = (vm_val_t){ VM_VAL_PTR, 1, cc->ptrs_n };
        cc->ptrs[cc->ptrs_n++] = (vm_ptr_t){ .space = VM_SPACE_WG, .type = v->type, .base = cc->wg_B,
                                             .off = cc->wg_B, .dyn = EG_VM_NONE, .limit = cc->wg_B + size_B,
                                             .vstride_B = 4 };
        cc->wg_B += size_B;
        return true;
    }
    case SpvStorageClassUniform: case SpvStorageClassStorageBuffer: {
        uint32_t slot = vm_slot(cc, v);
        if (cc->ptrs_n >= cc->ptrs_cap) return scratch_full(cc, "pointer");
        *g = (vm_val_t){ VM_VAL_PTR, 1, cc->ptrs_n };
        cc->ptrs[cc->ptrs_n++] = (vm_ptr_t){ .space = VM_SPACE_BUF, .type = v->type, .slot = (uint16_t)slot,
                                             .dyn = EG_VM_NONE, .vstride_B = 4 };
        if (v->storage == SpvStorageClassStorageBuffer && !v->non_writable) cc->prog->info.has_side_effects = true;
        return true;
    }
    case SpvStorageClassUniformConstant: {
        const eg_ir_type_t *t = eg_ir_type(cc->ir, v->type);
        *g = (vm_val_t){ t->kind == EG_IR_SAMPLER ? VM_VAL_SAMPLER : VM_VAL_IMAGE, 1, vm_slot(cc, v) };
        if (t->kind == EG_IR_IMAGE && t->sampled == 2 && !v->non_writable) cc->prog->info.has_side_effects = true;
        return true;
    }
    default:
        return vm_fail(cc, EG_STATUS_INTERNAL, "module variable in storage class %u", (unsigned)v->storage);
    }
}

/* Stores Output variables into the invocation (vertex varyings/position, fragment colors/depth). */
static bool epilogue(vm_cc_t *cc)
{
    eg_soft_program_info_t *info = &cc->prog->info;
    for (uint32_t i = 0; i < cc->ir->var_count; i++) {
        const eg_ir_var_t *v = &cc->ir->vars[i];
        if (v->storage != SpvStorageClassOutput) continue;
        const vm_ptr_t *p = &cc->ptrs[cc->globals[v->id].idx];
        const eg_ir_type_t *t = eg_ir_type(cc->ir, v->type);
        uint32_t n = t->scalars;
        if (t->kind == EG_IR_STRUCT) {             /* gl_PerVertex: only Position matters */
            uint32_t at = 0;
            for (uint32_t m = 0; m < t->count; m++) {
                if (t->members[m].builtin == SpvBuiltInPosition + 1u)
                    for (uint32_t c = 0; c < 4; c++)
                        vm_emit(cc, EG_VM_ST_POS, EG_VM_NONE, p->base + at + c, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, c);
                at += eg_ir_scalars(cc->ir, t->members[m].type);
            }
        } else if (v->builtin == SpvBuiltInPosition + 1u) {
            for (uint32_t c = 0; c < 4; c++)
                vm_emit(cc, EG_VM_ST_POS, EG_VM_NONE, p->base + c, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, c);
        } else if (v->builtin == SpvBuiltInFragDepth + 1u) {
            info->writes_depth = true;
            vm_emit(cc, EG_VM_ST_DEPTH, EG_VM_NONE, p->base, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0);
        } else if (v->builtin == SpvBuiltInSampleMask + 1u) {
            cc->prog->writes_sample_mask = true;   /* int[1]: element 0 holds the 4 sample bits */
            vm_emit(cc, EG_VM_ST_SMASK, EG_VM_NONE, p->base, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0);
        } else if (v->builtin) {
            continue;                              /* PointSize: not produced */
        } else {
            if (v->location >= EG_SOFT_MAX_LOCATIONS || n > 4 || v->component + n > 4)
                return vm_fail(cc, EG_STATUS_INTERNAL, "output at location %u with %u components",
                               (unsigned)v->location, (unsigned)n);
            info->output_mask |= 1u << v->location;
            info->output_scalar[v->location] = scalar_code(cc->ir, v->type);
            info->output_components[v->location] = (uint8_t)(v->component + n);
            for (uint32_t c = 0; c < n; c++)
                vm_emit(cc, EG_VM_ST_OUT, EG_VM_NONE, p->base + c, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE,
                        v->location * 4u + v->component + c);
        }
    }
    return !cc->failed;
}

/* ---- control flow ---- */

static void begin_block(vm_cc_t *cc, uint32_t id)
{
    uint32_t at = vm_emit(cc, EG_VM_BLOCK, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, id);
    if (cc->failed) return;
    if (cc->prev_block_inst != ~0u) cc->code[cc->prev_block_inst].d = 0; /* patched in link() */
    cc->prev_block_inst = at;
    cc->block_pc[id] = at;
}

static bool push_frame(vm_cc_t *cc, uint32_t fn, uint32_t cont_block)
{
    if (cc->depth >= VM_MAX_FRAMES)
        return vm_fail(cc, EG_STATUS_INTERNAL, "calls nested deeper than %u", VM_MAX_FRAMES);
    const eg_ir_t *ir = cc->ir;
    const eg_ir_function_t *fd = &ir->functions[fn];
    vm_frame_t *f = &cc->frames[cc->depth];
    f->mark = eg_arena_mark(cc->arena);
    f->vals = eg_arena_alloc(cc->arena, (size_t)ir->value_count * sizeof *f->vals, 4);
    if (!f->vals) return scratch_full(cc, "call frame");
    eg_memset(f->vals, 0, (size_t)ir->value_count * sizeof *f->vals);
    if (cc->block_n + fd->block_count + 1 > cc->block_cap) return scratch_full(cc, "block");
    f->fn = fn;
    f->blk = fd->first_block;
    f->inst = 0;
    f->block_base = cc->block_n;
    f->cont_block = cont_block == ~0u ? cc->block_n + fd->block_count : cont_block;
    cc->block_n += fd->block_count + 1;
    for (uint32_t b = 0; b < fd->block_count; b++)
        f->vals[ir->blocks[fd->first_block + b].label] = (vm_val_t){ VM_VAL_BLOCK, 1, f->block_base + b };
    cc->depth++;
    /* Phis are registers written on the incoming edges, which may come before the phi's block. */
    for (uint32_t b = 0; b < fd->block_count; b++) {
        const eg_ir_block_t *bl = &ir->blocks[fd->first_block + b];
        for (uint32_t i = 0; i < bl->inst_count; i++) {
            const eg_ir_inst_t *in = &ir->insts[bl->first_inst + i];
            if (in->op == SpvOpPhi) f->vals[in->result] = vm_new_comps(cc, eg_ir_scalars(ir, in->type), true);
        }
    }
    uint32_t rt = fd->type;
    f->result = eg_ir_type(ir, rt)->kind == EG_IR_VOID ? (vm_val_t){ 0 }
                                                       : vm_new_comps(cc, eg_ir_scalars(ir, rt), true);
    return !cc->failed;
}

/* Copies the phi operands of `to` that come from `from` (labels), through temporaries so that
 * phis reading each other's old values (a swap in a loop) see the values before the edge. */
static bool edge_copies(vm_cc_t *cc, vm_frame_t *f, uint32_t from, uint32_t to)
{
    const eg_ir_t *ir = cc->ir;
    const eg_ir_block_t *bl = &ir->blocks[ir->values[to].index];
    uint32_t first = cc->code_n;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t at = first;
        for (uint32_t i = 0; i < bl->inst_count; i++) {
            const eg_ir_inst_t *in = &ir->insts[bl->first_inst + i];
            if (in->op != SpvOpPhi) break;
            for (uint32_t k = 0; k + 1 < in->operand_count; k += 2) {
                if (in->operands[k + 1] != from) continue;
                uint32_t n, *src = vm_comps(cc, in->operands[k], &n);
                const vm_val_t *dst = &f->vals[in->result];
                for (uint32_t c = 0; c < n && c < dst->n && !cc->failed; c++) {
                    if (pass == 0)
                        vm_emit(cc, EG_VM_MOV, vm_temp(cc), src[c], EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0);
                    else
                        vm_emit(cc, EG_VM_MOV, cc->comps[dst->idx + c], cc->code[at++].dst, EG_VM_NONE,
                                EG_VM_NONE, EG_VM_NONE, 0);
                }
            }
        }
    }
    return !cc->failed;
}

static bool has_phi(const vm_cc_t *cc, uint32_t label)
{
    const eg_ir_block_t *bl = &cc->ir->blocks[cc->ir->values[label].index];
    return bl->inst_count && cc->ir->insts[bl->first_inst].op == SpvOpPhi;
}

static uint32_t block_id(vm_cc_t *cc, uint32_t label) { return vm_val(cc, label)->idx; }

/* The phi copies into switch target operands[t] (t = 1: the default), under the mask of the
 * lanes that take it: selector equal to one of its literals, or to none of the switch's literals
 * when it is also the default. A target listed more than once is copied at its first listing. */
static bool switch_edge_copies(vm_cc_t *cc, vm_frame_t *f, const eg_ir_inst_t *in, uint32_t from, uint32_t t)
{
    const uint32_t N = EG_VM_NONE;
    uint32_t target = in->operands[t];
    for (uint32_t j = 1; j < t; j += 2)
        if (in->operands[j] == target) return true;
    uint32_t n, sel = vm_comps(cc, in->operands[0], &n)[0];
    uint32_t cond = vm_const(cc, 0u), none = vm_const(cc, ~0u);
    for (uint32_t j = 3; j < in->operand_count; j += 2) {
        uint32_t lit = vm_const(cc, in->operands[j - 1]), eq = vm_temp(cc), ne = vm_temp(cc), acc = vm_temp(cc);
        vm_emit(cc, EG_VM_IEQ, eq, sel, lit, N, N, 0);
        vm_emit(cc, EG_VM_INE, ne, sel, lit, N, N, 0);
        vm_emit(cc, EG_VM_AND, acc, none, ne, N, N, 0);
        none = acc;
        if (in->operands[j] != target) continue;
        uint32_t any = vm_temp(cc);
        vm_emit(cc, EG_VM_OR, any, cond, eq, N, N, 0);
        cond = any;
    }
    if (in->operands[1] == target) {
        uint32_t any = vm_temp(cc);
        vm_emit(cc, EG_VM_OR, any, cond, none, N, N, 0);
        cond = any;
    }
    vm_emit(cc, EG_VM_MASK_AND, N, cond, N, N, N, 0);
    edge_copies(cc, f, from, target);
    vm_emit(cc, EG_VM_MASK_RESTORE, N, N, N, N, N, 0);
    return !cc->failed;
}

/* Terminators. `from` is the label of the block being left. */
static bool lower_branch(vm_cc_t *cc, vm_frame_t *f, const eg_ir_inst_t *in, uint32_t from)
{
    const uint32_t N = EG_VM_NONE;
    switch (in->op) {
    case SpvOpBranch:
        if (!edge_copies(cc, f, from, in->operands[0])) return false;
        vm_emit(cc, EG_VM_BR, N, N, N, N, 0, block_id(cc, in->operands[0]));
        return true;
    case SpvOpBranchConditional: {
        uint32_t n, cond = vm_comps(cc, in->operands[0], &n)[0];
        uint32_t t = in->operands[1], e = in->operands[2];
        if (has_phi(cc, t) || has_phi(cc, e)) {
            vm_emit(cc, EG_VM_MASK_AND, N, cond, N, N, N, 0);
            edge_copies(cc, f, from, t);
            vm_emit(cc, EG_VM_MASK_RESTORE, N, N, N, N, N, 0);
            vm_emit(cc, EG_VM_MASK_ANDN, N, cond, N, N, N, 0);
            edge_copies(cc, f, from, e);
            vm_emit(cc, EG_VM_MASK_RESTORE, N, N, N, N, N, 0);
        }
        vm_emit(cc, EG_VM_BRC, N, cond, N, N, (uint16_t)block_id(cc, e), block_id(cc, t));
        return true;
    }
    case SpvOpSwitch: {
        uint32_t n, sel = vm_comps(cc, in->operands[0], &n)[0];
        uint32_t cases = (in->operand_count - 2u) / 2u;
        for (uint32_t i = 1; i < in->operand_count; i += 2)   /* default, then each case's target */
            if (has_phi(cc, in->operands[i]) && !switch_edge_copies(cc, f, in, from, i)) return false;
        vm_emit(cc, EG_VM_SWITCH, N, sel, N, cases, 0, block_id(cc, in->operands[1]));
        for (uint32_t i = 0; i < cases; i++)
            vm_emit(cc, EG_VM_CASE, N, N, N, N, (uint16_t)block_id(cc, in->operands[3 + 2 * i]),
                    in->operands[2 + 2 * i]);
        return true;
    }
    case SpvOpReturnValue: {
        uint32_t n, *src = vm_comps(cc, in->operands[0], &n);
        for (uint32_t c = 0; c < n && c < f->result.n; c++)
            vm_emit(cc, EG_VM_MOV, cc->comps[f->result.idx + c], src[c], N, N, N, 0);
    }
    /* fall through */
    case SpvOpReturn:
        vm_emit(cc, EG_VM_BR, N, N, N, N, 0, f->cont_block);
        return true;
    case SpvOpKill: case SpvOpTerminateInvocation:
        cc->prog->info.may_discard = true;
        vm_emit(cc, EG_VM_KILL, N, N, N, N, N, 0);
        return true;
    case SpvOpUnreachable:
        return true;                 /* the lanes stop: no pending mask receives them */
    default:
        return vm_fail(cc, EG_STATUS_INTERNAL, "block ends in opcode %u", (unsigned)in->op);
    }
}

static bool is_terminator(uint32_t op)
{
    return op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch || op == SpvOpReturn ||
           op == SpvOpReturnValue || op == SpvOpKill || op == SpvOpTerminateInvocation || op == SpvOpUnreachable;
}

/* Inlines a call: arguments bind to the callee's parameters (values and pointers alike). */
static bool call(vm_cc_t *cc, vm_frame_t *caller, const eg_ir_inst_t *in)
{
    const eg_ir_t *ir = cc->ir;
    uint32_t fn = ir->values[in->operands[0]].index;
    uint32_t cont = cc->block_n++;
    uint32_t nargs = in->operand_count - 1u;
    if (!push_frame(cc, fn, cont)) return false;
    vm_frame_t *f = &cc->frames[cc->depth - 1];
    for (uint32_t i = 0; i < nargs; i++) {   /* any number of arguments: each read in the caller's frame */
        cc->depth--;
        vm_val_t a = *vm_val(cc, in->operands[1 + i]);
        cc->depth++;
        f->vals[ir->functions[fn].first_param + i] = a;
    }
    if (in->result) caller->vals[in->result] = f->result;
    vm_emit(cc, EG_VM_BR, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0, f->block_base);
    return !cc->failed;
}

/* Walks the entry point and, through the frame stack, every call it makes. */
static bool compile_body(vm_cc_t *cc)
{
    const eg_ir_t *ir = cc->ir;
    while (cc->depth && !cc->failed) {
        vm_frame_t *f = &cc->frames[cc->depth - 1];
        const eg_ir_function_t *fd = &ir->functions[f->fn];
        if (f->blk >= fd->first_block + fd->block_count) {      /* function done */
            uint32_t cont = f->cont_block;
            eg_arena_reset(cc->arena, f->mark);
            cc->depth--;
            begin_block(cc, cont);
            continue;
        }
        const eg_ir_block_t *bl = &ir->blocks[f->blk];
        if (f->inst == 0) begin_block(cc, f->block_base + (f->blk - fd->first_block));
        if (f->inst >= bl->inst_count) { f->blk++; f->inst = 0; continue; }
        const eg_ir_inst_t *in = &ir->insts[bl->first_inst + f->inst++];
        if (in->op == SpvOpFunctionCall) {
            if (!call(cc, f, in)) return false;
        } else if (is_terminator(in->op)) {
            if (!lower_branch(cc, f, in, bl->label)) return false;
        } else if (in->op != SpvOpPhi && !vm_lower_inst(cc, f, in)) {
            return false;
        }
    }
    return !cc->failed;
}

/* ---- program ---- */

bool vm_regalloc(vm_cc_t *cc, uint32_t *reg_count);
void vm_link_blocks(vm_cc_t *cc);

static void *carve(vm_cc_t *cc, uint32_t count, size_t elem_B)
{
    void *p = eg_arena_alloc(cc->arena, (size_t)count * elem_B, 8);
    if (!p) scratch_full(cc, "compiler");
    return p;
}

/* Splits the scratch left after the IR between the compiler's growing tables. */
static bool setup(vm_cc_t *cc)
{
    const eg_ir_t *ir = cc->ir;
    size_t free_B = eg_arena_free_B(cc->arena);
    cc->code_cap = (uint32_t)(free_B * 3 / 10 / sizeof(eg_vm_inst_t));
    cc->comps_cap = (uint32_t)(free_B / 10 / 4);
    cc->ptrs_cap = (uint32_t)(free_B / 20 / sizeof(vm_ptr_t));
    cc->vreg_cap = (uint32_t)(free_B / 40);
    cc->block_cap = (uint32_t)(free_B / 40 / 4);
    cc->const_cap = 256;
    cc->code = carve(cc, cc->code_cap, sizeof *cc->code);
    cc->comps = carve(cc, cc->comps_cap, 4);
    cc->ptrs = carve(cc, cc->ptrs_cap, sizeof *cc->ptrs);
    cc->vreg_var = carve(cc, cc->vreg_cap, 1);
    cc->block_pc = carve(cc, cc->block_cap, 4);
    cc->const_vals = carve(cc, cc->const_cap, 4);
    cc->globals = carve(cc, ir->value_count, sizeof *cc->globals);
    if (cc->failed) return false;
    eg_memset(cc->globals, 0, (size_t)ir->value_count * sizeof *cc->globals);
    cc->prev_block_inst = ~0u;
    return true;
}

static bool compile(vm_cc_t *cc)
{
    const eg_ir_t *ir = cc->ir;
    eg_soft_program_info_t *info = &cc->prog->info;
    info->stage = ir->stage;
    for (uint32_t i = 0; i < 3; i++) info->workgroup_size[i] = ir->workgroup_size[i];
    if (!setup(cc)) return false;
    for (uint32_t i = 0; i < ir->var_count; i++)
        if (!global_var(cc, &ir->vars[i])) return false;
    info->workgroup_mem_B = cc->wg_B;
    if (!push_frame(cc, ir->function_count - 1u, ~0u)) return false;
    uint32_t exit_block = cc->frames[0].cont_block;
    if (!compile_body(cc)) return false;
    (void)exit_block;
    if (!epilogue(cc)) return false;
    vm_emit(cc, EG_VM_END, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, EG_VM_NONE, 0);
    if (cc->failed) return false;
    vm_link_blocks(cc);
    vm_optimize(cc, cc->vreg_n, true);
    if (!vm_regalloc(cc, &cc->prog->reg_count)) return false;
    vm_optimize(cc, cc->prog->reg_count, false);
    return true;
}

/* Moves the compiled program into one soft-heap allocation. */
static eg_status_t finish(vm_cc_t *cc, eg_soft_program_t **out)
{
    eg_soft_program_t *p = cc->prog;
    size_t code_B = (size_t)cc->code_n * sizeof(eg_vm_inst_t);
    size_t consts_B = (size_t)cc->const_n * sizeof(eg_soft_reg_t);
    size_t pcs_B = EG_ALIGN_UP((size_t)cc->block_n * 4u, (size_t)16);
    size_t head_B = EG_ALIGN_UP(sizeof *p, (size_t)16);
    size_t thread_B = eg_vm_thread_size_B(cc->code_n);
    uint8_t *mem = eg_soft_heap_alloc(head_B + consts_B + code_B + pcs_B + thread_B);
    if (!mem) return EG_STATUS_OUT_OF_MEMORY;
    eg_soft_program_t *q = (eg_soft_program_t *)(void *)mem;
    *q = *p;
    eg_soft_reg_t *consts = (eg_soft_reg_t *)(void *)(mem + head_B);
    for (uint32_t i = 0; i < cc->const_n; i++)
        for (uint32_t l = 0; l < EG_SOFT_LANES; l++) consts[i].u[l] = cc->const_vals[i];
    eg_vm_inst_t *code = (eg_vm_inst_t *)(void *)(mem + head_B + consts_B);
    eg_memcpy(code, cc->code, code_B);
    uint32_t *pcs = (uint32_t *)(void *)(mem + head_B + consts_B + code_B);
    eg_memcpy(pcs, cc->block_pc, (size_t)cc->block_n * 4u);
    q->consts = consts;
    q->const_count = cc->const_n;
    q->code = code;
    q->code_count = cc->code_n;
    q->block_pc = pcs;
    q->block_count = cc->block_n;
    q->thread = NULL;
    q->jit = NULL;
    q->jit_B = 0;
    if (thread_B) eg_vm_thread_build(q, mem + head_B + consts_B + code_B + pcs_B, 0);
    if (q->thread) (void)eg_vm_jit_build(q);   /* false: the threaded runs stay */
    *out = q;
    return EG_STATUS_OK;
}

eg_status_t eg_vm_compute_prepare(eg_soft_program_t *p);

eg_status_t eg_soft_program_create(const eg_shader_module_t *sm, const char *entry_point,
                                   eg_shader_stage_t stage, const eg_pipeline_layout_t *layout,
                                   eg_soft_program_t **out)
{
    static eg_arena_t arena;
    static eg_ir_t ir;
    static eg_ir_error_t ir_err;
    static vm_cc_t cc;
    static eg_soft_program_t prog;
    *out = NULL;
    const eg_shader_entry_t *entry = eg_spirv_find_entry(&sm->spirv, stage, entry_point);
    if (!entry) {
        eg_log(EG_LOG_ERROR, "soft shader compile: no entry point \"%s\" for stage %u", entry_point,
               (unsigned)stage);
        return EG_STATUS_INTERNAL;
    }
    eg_arena_init(&arena, "soft shader compile scratch", "EMGPU_SOFT_COMPILE_SCRATCH_BYTES",
                  compile_scratch, sizeof compile_scratch);
    if (!eg_ir_build(&sm->spirv, entry, &arena, &ir, &ir_err)) {
        eg_log(EG_LOG_ERROR, "soft shader compile: %s", ir_err.message);
        return eg_arena_free_B(&arena) == 0 || ir_err.message[0] == 's' ? EG_STATUS_OUT_OF_MEMORY
                                                                       : EG_STATUS_INTERNAL;
    }
    eg_memset(&cc, 0, sizeof cc);
    eg_memset(&prog, 0, sizeof prog);
    cc.ir = &ir;
    cc.arena = &arena;
    cc.layout = layout;
    cc.entry = entry;
    cc.prog = &prog;
    if (!compile(&cc)) return cc.status;
    if (stage != EG_SHADER_STAGE_COMPUTE && prog.reg_count > EMGPU_SOFT_VM_MAX_REGS) {
        eg_log(EG_LOG_ERROR, "soft shader compile: the %s shader needs %u registers, more than "
               "EMGPU_SOFT_VM_MAX_REGS (%u)", stage == EG_SHADER_STAGE_VERTEX ? "vertex" : "fragment",
               (unsigned)prog.reg_count, (unsigned)EMGPU_SOFT_VM_MAX_REGS);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    if (stage != EG_SHADER_STAGE_COMPUTE && cc.block_n > EMGPU_SOFT_VM_MAX_BLOCKS) {
        eg_log(EG_LOG_ERROR, "soft shader compile: %u blocks after inlining, more than "
               "EMGPU_SOFT_VM_MAX_BLOCKS (%u)", (unsigned)cc.block_n, (unsigned)EMGPU_SOFT_VM_MAX_BLOCKS);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < cc.code_n; i++)
        if (cc.code[i].op == EG_VM_BARRIER) prog.uses_barrier = true;
    eg_status_t st = finish(&cc, out);
    if (st == EG_STATUS_OK && stage == EG_SHADER_STAGE_COMPUTE) {
        st = eg_vm_compute_prepare(*out);
        if (st != EG_STATUS_OK) { eg_soft_heap_free(*out); *out = NULL; }
    }
    return st;
}

void eg_soft_program_destroy(eg_soft_program_t *p)
{
    if (!p) return;
    if (p->compute_mem) eg_soft_heap_free(p->compute_mem);
    eg_vm_jit_free(p);
    eg_soft_heap_free(p);
}

const eg_soft_program_info_t *eg_soft_program_info(const eg_soft_program_t *p) { return &p->info; }

#endif /* EMGPU_HAL_SOFT */
