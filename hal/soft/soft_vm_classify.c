/* hal/soft shader classes: recognises fragment programs the rasterizer may run without the VM. */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

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

#endif /* EMGPU_HAL_SOFT */
