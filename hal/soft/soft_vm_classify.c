/* hal/soft shader classes: recognises fragment programs the rasterizer may run without the VM. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_span.h"
#include "hal/soft/soft_vm.h"

/* Registers tracked by the copy classifier; programs with more registers are not copies. */
#define COPY_MAX_REGS 64u
#define COPY_UNKNOWN  0xffffu

/* Source of a register field: an input slot, a constant (flagged), or unknown. */
static uint16_t copy_src(const eg_soft_program_t *p, const uint16_t *reg_src, uint32_t r, uint32_t *bits)
{
    if (r >= EG_VM_CONST_BASE && r != EG_VM_NONE) {
        if (r - EG_VM_CONST_BASE >= p->const_count) return COPY_UNKNOWN;
        *bits = p->consts[r - EG_VM_CONST_BASE].u[0];
        return (uint16_t)EG_SOFT_COPY_CONST;
    }
    return r < COPY_MAX_REGS ? reg_src[r] : COPY_UNKNOWN;
}

/* Straight-line code only: blocks 0, 1, 2, ... in order, each ended by an unconditional BR to the
 * next one, so every BLOCK takes exactly the invocation's active lanes and LD_IN, MOV and ST_OUT
 * act on the lanes a plain copy would write. Every other op disqualifies. */
bool eg_soft_program_copy_class(const eg_soft_program_t *p, eg_soft_copy_class_t *out)
{
    const eg_soft_program_info_t *info = &p->info;
    if (info->stage != EG_SHADER_STAGE_FRAGMENT || info->output_mask != 1u || info->writes_depth ||
        info->may_discard || info->has_side_effects || p->reg_count > COPY_MAX_REGS)
        return false;
    uint16_t reg_src[COPY_MAX_REGS];
    uint32_t reg_bits[COPY_MAX_REGS];
    for (uint32_t r = 0; r < COPY_MAX_REGS; r++) { reg_src[r] = COPY_UNKNOWN; reg_bits[r] = 0; }
    uint32_t written = 0, block = 0;
    bool after_br = false;
    for (uint32_t i = 0; i < p->code_count; i++) {
        const eg_vm_inst_t *in = &p->code[i];
        uint32_t bits = 0;
        uint16_t s;
        if (after_br && in->op != EG_VM_BLOCK) return false;
        after_br = false;
        switch (in->op) {
        case EG_VM_END: break;
        case EG_VM_BLOCK:   /* code before block 0 runs on the active lanes too */
            if (in->imm != block || (block > 0u && p->code[i - 1u].op != EG_VM_BR)) return false;
            block++;
            break;
        case EG_VM_BR:
            if (in->imm != block) return false;
            after_br = true;
            break;
        case EG_VM_LD_IN:
            if (in->dst >= COPY_MAX_REGS || in->imm >= 4u * EG_SOFT_MAX_LOCATIONS) return false;
            reg_src[in->dst] = (uint16_t)in->imm;
            break;
        case EG_VM_MOV:
            if (in->dst >= COPY_MAX_REGS) return false;
            reg_src[in->dst] = copy_src(p, reg_src, in->a, &bits);
            reg_bits[in->dst] = bits;
            if (reg_src[in->dst] == COPY_UNKNOWN) return false;
            if (in->a < COPY_MAX_REGS) reg_bits[in->dst] = reg_bits[in->a];
            break;
        case EG_VM_ST_OUT:
            if (in->imm >= 4u) return false;
            s = copy_src(p, reg_src, in->a, &bits);
            if (s == COPY_UNKNOWN) return false;
            if (in->a < COPY_MAX_REGS) bits = reg_bits[in->a];
            out->src[in->imm] = s;
            out->const_bits[in->imm] = bits;
            written |= 1u << in->imm;
            break;
        default: return false;
        }
    }
    return written == 0xFu;
}

/* ---- span class (soft_span.h) ---- */

/* SAMPLE flags the span class accepts: the lod mode (bits 0-1) only; array layer, depth compare
 * and texel offsets (soft_vm_image.c F_LAYER, F_COMPARE, F_OFFSET + offsets) disqualify. */
#define SPAN_SAMPLE_FLAGS_OK 0x3u

/* What a register holds while the straight-line program runs. */
typedef struct span_val {
    uint16_t src, mul;             /* eg_soft_span_class_t sources; mul NONE: no product */
    uint32_t bits, mul_bits;
    bool mul_first;
} span_val_t;

static bool span_operand(const eg_soft_program_t *p, const span_val_t *regs, uint32_t r, span_val_t *v)
{
    if (r >= EG_VM_CONST_BASE && r != EG_VM_NONE) {
        if (r - EG_VM_CONST_BASE >= p->const_count) return false;
        *v = (span_val_t){ EG_SOFT_SPAN_CONST, EG_SOFT_SPAN_NONE, p->consts[r - EG_VM_CONST_BASE].u[0], 0, false };
        return true;
    }
    if (r >= COPY_MAX_REGS || regs[r].src == COPY_UNKNOWN) return false;
    *v = regs[r];
    return true;
}

/* The product of a texture component and an input/constant (either order), or false. */
static bool span_product(const span_val_t *a, const span_val_t *b, span_val_t *out)
{
    bool at = (a->src & 0xc000u) == EG_SOFT_SPAN_TEX && a->mul == EG_SOFT_SPAN_NONE;
    bool bt = (b->src & 0xc000u) == EG_SOFT_SPAN_TEX && b->mul == EG_SOFT_SPAN_NONE;
    const span_val_t *t = at ? a : b, *m = at ? b : a;
    if (at == bt || (m->src & 0xc000u) == EG_SOFT_SPAN_TEX || m->mul != EG_SOFT_SPAN_NONE) return false;
    *out = (span_val_t){ t->src, m->src, 0, m->bits, !at };
    return true;
}

static bool span_sample(const eg_soft_program_t *p, span_val_t *regs, const eg_vm_inst_t *in,
                        eg_soft_span_class_t *out)
{
    span_val_t u, v;
    if (out->tex || (in->imm & ~SPAN_SAMPLE_FLAGS_OK) || in->c != EG_VM_NONE ||
        !span_operand(p, regs, in->a, &u) || !span_operand(p, regs, in->b, &v) ||
        (u.src & 0xc000u) != EG_SOFT_SPAN_IN || (v.src & 0xc000u) != EG_SOFT_SPAN_IN ||
        u.mul != EG_SOFT_SPAN_NONE || v.mul != EG_SOFT_SPAN_NONE)
        return false;
    out->tex = true;
    out->uv[0] = u.src;
    out->uv[1] = v.src;
    out->tex_slot = (uint8_t)(in->d & 0xffu);
    out->smp_slot = (uint8_t)(in->d >> 8);
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t d = in[k].dst;
        if (d == EG_VM_NONE) continue;
        if (d >= COPY_MAX_REGS) return false;
        regs[d] = (span_val_t){ (uint16_t)(EG_SOFT_SPAN_TEX | k), EG_SOFT_SPAN_NONE, 0, 0, false };
    }
    return true;
}

/* Same straight-line rules as the copy class, plus one SAMPLE and FMULs of its result. */
bool eg_soft_program_span_class(const eg_soft_program_t *p, eg_soft_span_class_t *out)
{
    const eg_soft_program_info_t *info = &p->info;
    if (info->stage != EG_SHADER_STAGE_FRAGMENT || info->output_mask != 1u || info->writes_depth ||
        info->may_discard || info->has_side_effects || p->reg_count > COPY_MAX_REGS)
        return false;
    span_val_t regs[COPY_MAX_REGS];
    for (uint32_t r = 0; r < COPY_MAX_REGS; r++) regs[r] = (span_val_t){ COPY_UNKNOWN, EG_SOFT_SPAN_NONE, 0, 0, false };
    eg_memset(out, 0, sizeof *out);
    uint32_t written = 0, block = 0;
    bool after_br = false;
    for (uint32_t i = 0; i < p->code_count; i++) {
        const eg_vm_inst_t *in = &p->code[i];
        span_val_t a, b;
        if (after_br && in->op != EG_VM_BLOCK) return false;
        after_br = false;
        switch (in->op) {
        case EG_VM_END: break;
        case EG_VM_BLOCK:
            if (in->imm != block || (block > 0u && p->code[i - 1u].op != EG_VM_BR)) return false;
            block++;
            break;
        case EG_VM_BR:
            if (in->imm != block) return false;
            after_br = true;
            break;
        case EG_VM_LD_IN:
            if (in->dst >= COPY_MAX_REGS || in->imm >= 4u * EG_SOFT_MAX_LOCATIONS) return false;
            regs[in->dst] = (span_val_t){ (uint16_t)(EG_SOFT_SPAN_IN | in->imm), EG_SOFT_SPAN_NONE, 0, 0, false };
            break;
        case EG_VM_MOV:
            if (in->dst >= COPY_MAX_REGS || !span_operand(p, regs, in->a, &a)) return false;
            regs[in->dst] = a;
            break;
        case EG_VM_FMUL:
            if (in->dst >= COPY_MAX_REGS || !span_operand(p, regs, in->a, &a) || !span_operand(p, regs, in->b, &b) ||
                !span_product(&a, &b, &regs[in->dst]))
                return false;
            break;
        case EG_VM_SAMPLE:
            if (i + 3u >= p->code_count || !span_sample(p, regs, in, out)) return false;
            i += 3u;   /* its three ARGS: lod / derivatives cannot matter (checked at draw time) */
            break;
        case EG_VM_ST_OUT:
            if (in->imm >= 4u || !span_operand(p, regs, in->a, &a)) return false;
            out->src[in->imm] = a.src;
            out->src_bits[in->imm] = a.bits;
            out->mul[in->imm] = a.mul;
            out->mul_bits[in->imm] = a.mul_bits;
            out->mul_first[in->imm] = a.mul_first;
            written |= 1u << in->imm;
            break;
        default: return false;
        }
    }
    return written == 0xFu;
}

#endif /* EMGPU_HAL_SOFT */
