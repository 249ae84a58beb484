/* hal/soft shader VM: compute dispatch (workgroups, lane blocks, barriers, workgroup memory). */
#include "config/emgpu_config.h"

#if EMGPU_HAL_SOFT

#include "hal/soft/soft_internal.h"
#include "hal/soft/soft_vm.h"
#include "kernel/base/log.h"

/* Workgroup memory of the running dispatch: dispatches run one at a time on the queue thread. */
static uint32_t workgroup_mem[EMGPU_SOFT_WORKGROUP_MEM_BYTES / 4];

/* Blocks of one workgroup: maxComputeInvocationsPerWorkgroup (256, the WebGPU default limit that
 * hal/soft reports) / EG_SOFT_LANES. */
#define VM_MAX_WG_BLOCKS (256u / EG_SOFT_LANES)

typedef struct block_layout { uint32_t regs_B, pending_B, state_B; } block_layout_t;

static block_layout_t layout_of(const eg_soft_program_t *p)
{
    block_layout_t l;
    l.regs_B = p->reg_count * (uint32_t)sizeof(eg_soft_reg_t);
    l.pending_B = EG_ALIGN_UP(p->block_count * (uint32_t)sizeof(eg_soft_mask_t), 64u);
    l.state_B = l.regs_B + l.pending_B;
    return l;
}

static uint32_t invocations(const eg_soft_program_t *p)
{
    const uint32_t *wg = p->info.workgroup_size;
    return wg[0] * wg[1] * wg[2];
}

/* Register files for the blocks of one workgroup: all of them when the program has barriers
 * (the blocks then run in lockstep, each up to the next barrier), else one reused by each block. */
eg_status_t eg_vm_compute_prepare(eg_soft_program_t *p);
eg_status_t eg_vm_compute_prepare(eg_soft_program_t *p)
{
    uint32_t blocks = (invocations(p) + EG_SOFT_LANES - 1u) / EG_SOFT_LANES;
    uint32_t states = p->uses_barrier ? blocks : 1u;
    if (p->info.workgroup_mem_B > sizeof workgroup_mem) {
        eg_log(EG_LOG_ERROR, "compute shader uses %u bytes of workgroup memory, more than "
               "EMGPU_SOFT_WORKGROUP_MEM_BYTES (%u)", (unsigned)p->info.workgroup_mem_B,
               (unsigned)sizeof workgroup_mem);
        return EG_STATUS_OUT_OF_MEMORY;
    }
    if (blocks > VM_MAX_WG_BLOCKS || blocks == 0) {
        eg_log(EG_LOG_ERROR, "compute workgroup of %u invocations: soft runs at most 256", (unsigned)invocations(p));
        return EG_STATUS_INTERNAL;
    }
    p->compute_blocks = blocks;
    p->compute_mem = eg_soft_heap_alloc((size_t)states * layout_of(p).state_B + 64u);
    return p->compute_mem ? EG_STATUS_OK : EG_STATUS_OUT_OF_MEMORY;
}

static void init_state(const eg_soft_program_t *p, eg_vm_state_t *st, uint8_t *mem, uint32_t block,
                       const eg_vm_res_t *res)
{
    block_layout_t l = layout_of(p);
    uint32_t n = invocations(p) - block * EG_SOFT_LANES;
    eg_soft_mask_t lanes = n >= EG_SOFT_LANES ? EG_SOFT_ALL_LANES : (eg_soft_mask_t)((1u << n) - 1u);
    st->regs = (eg_soft_reg_t *)(void *)mem;
    st->pending = (eg_soft_mask_t *)(void *)(mem + l.regs_B);
    eg_memset(st->pending, 0, l.pending_B);
    st->pending[0] = lanes;
    st->exec = st->alive = st->side = st->whole = lanes;
    st->pc = 0;
    st->done = false;
    st->res = res;
    st->wg_mem = (uint8_t *)workgroup_mem;
    st->wg_mem_B = p->info.workgroup_mem_B;
    st->local_index0 = block * EG_SOFT_LANES;
}

static void run_workgroup(const eg_soft_program_t *p, eg_vm_state_t *proto, const eg_vm_res_t *res)
{
    uint8_t *mem = (uint8_t *)EG_ALIGN_UP((uintptr_t)p->compute_mem, (uintptr_t)64);
    uint32_t state_B = layout_of(p).state_B;
    eg_memset(workgroup_mem, 0, p->info.workgroup_mem_B);   /* WebGPU zero-initialises it */
    if (!p->uses_barrier) {
        for (uint32_t b = 0; b < p->compute_blocks; b++) {
            eg_vm_state_t st = *proto;
            init_state(p, &st, mem, b, res);
            eg_vm_run(p, &st);
        }
        return;
    }
    /* Lockstep: every block runs to its next barrier before any block passes it. States live
     * in the program's compute memory, so nothing here grows with the workgroup size. */
    eg_vm_state_t states[VM_MAX_WG_BLOCKS];
    for (uint32_t b = 0; b < p->compute_blocks; b++) {
        states[b] = *proto;
        init_state(p, &states[b], mem + (size_t)b * state_B, b, res);
    }
    for (bool again = true; again;) {
        again = false;
        for (uint32_t b = 0; b < p->compute_blocks; b++)
            if (!states[b].done) { eg_vm_run(p, &states[b]); again |= !states[b].done; }
    }
}

eg_status_t eg_soft_dispatch(const eg_soft_program_t *p, const eg_soft_bound_t *res,
                             uint32_t groups_x, uint32_t groups_y, uint32_t groups_z)
{
    if (!p || !p->compute_mem) return EG_STATUS_INTERNAL;
    eg_vm_res_t bound;
    eg_vm_bind(p, res, &bound);
    eg_vm_state_t proto = { 0 };
    proto.num_wg[0] = groups_x; proto.num_wg[1] = groups_y; proto.num_wg[2] = groups_z;
    for (uint32_t z = 0; z < groups_z; z++)
        for (uint32_t y = 0; y < groups_y; y++)
            for (uint32_t x = 0; x < groups_x; x++) {
                proto.wg_id[0] = x; proto.wg_id[1] = y; proto.wg_id[2] = z;
                run_workgroup(p, &proto, &bound);
            }
    return EG_STATUS_OK;
}

#endif /* EMGPU_HAL_SOFT */
