/* hal/d3d12 TPF emitter contract: one validated entry point (kernel/shader/ir.h) -> a DXBC container.
 *
 * WHY. Wine 8.0's d3dcompiler (vkd3d-shader 1.6 HLSL) cannot compile SPIRV-Cross output (no
 * compute, no storage buffers, aborts on groupshared arrays: README.md "Shader route under
 * wine"), while vkd3d's reader of compiled shaders accepts hand-written containers. Emitting the
 * tokenized program format (TPF, shader model 5.1) ourselves from the same IR the soft VM
 * compiles removes two run-time DLLs (SPIRV-Cross, d3dcompiler) and works on real Windows too
 * (D3D12 takes SM 5.x DXBC with a valid checksum; only DXIL needs signing). No heap: the
 * container is written into the caller's arena.
 *
 * This header is the contract between the emitter (d3d_tpf*.c) and the pipeline code
 * (d3d_pipeline*.c, d3d_binding.c, root signatures, input layouts). Change it only together.
 *
 * REGISTERS (shader model 5.1 resource ranges, same as d3d_binding.c's root signatures): WebGPU
 * group g = register space g, binding b = register number b of the binding's class:
 *   uniform buffer          -> CBV  b<b>, space g   (cbuffer; 16-byte rows)
 *   read-only storage buffer-> SRV  t<b>, space g   (raw buffer: ld_raw)
 *   storage buffer          -> UAV  u<b>, space g   (raw buffer: ld_raw / store_raw / atomics)
 *   sampled texture         -> SRV  t<b>, space g
 *   storage texture         -> UAV  u<b>, space g   (typed)
 *   sampler                 -> s<b>, space g
 * Dynamic-offset buffers use the same registers (the root signature binds them through a
 * second table per group whose views are written at bind time with the dynamic offset added,
 * d3d_binding.c; the shader cannot tell). Every buffer is therefore reached through a view that
 * carries the binding's size: raw loads past it return 0, raw stores and atomics past it are
 * dropped, and bufinfo answers the binding's byte size, which WebGPU's robust access and
 * arrayLength rely on (the emitter adds no bounds checks of its own to raw accesses; it clamps
 * fixed-size array indices, which keeps cbuffer reads inside the uniform block).
 *
 * SYSTEM VALUES that D3D does not provide the WebGPU way live in one constant buffer,
 * EG_D3D_TPF_SYSVALS_REGISTER in EG_D3D_TPF_SYSVALS_SPACE, of EG_D3D_TPF_SYSVALS_DWORDS dwords
 * (one 16-byte row), that every root signature ends with as a root CBV (set before each
 * draw/dispatch; not root constants: vkd3d 1.6 cannot set those from indirect arguments,
 * d3d_record.c):
 *   vertex:  dword 0 = first vertex (draw) / base vertex (drawIndexed), dword 1 = first instance.
 *            SV_VertexID / SV_InstanceID start at 0 in D3D12; WebGPU's vertex_index and
 *            instance_index include these bases, so the emitter adds them.
 *   compute: dwords 0..2 = the dispatch's workgroup counts (WebGPU num_workgroups; D3D has no
 *            system value for it).
 *
 * VERTEX INPUTS: the attribute at @location(L) is semantic "TEXCOORD", semantic index L, input
 * register L; the input layout of the PSO uses the same (d3d_pipeline code).
 * INTER-STAGE: a user varying at @location(L) is "TEXCOORD" L in both stages' signatures;
 * the emitter owns the register assignment on both sides (they are emitted by the same code).
 */
#ifndef EG_D3D_TPF_H
#define EG_D3D_TPF_H

#include "kernel/base/arena.h"
#include "kernel/shader/ir.h"

#define EG_D3D_TPF_SYSVALS_SPACE 0x7fffu   /* out of WebGPU's group range: never collides */
#define EG_D3D_TPF_SYSVALS_REGISTER 0u
#define EG_D3D_TPF_SYSVALS_DWORDS 4u

/** One pipeline-overridable constant: SpecId and its value's 32 bits (eg_stage_constant_t). */
typedef struct eg_d3d_tpf_constant {
    uint32_t spec_id;
    uint32_t bits;
} eg_d3d_tpf_constant_t;

typedef struct eg_d3d_tpf_in {
    const eg_ir_t *ir;                       /* the stage's entry point */
    const eg_d3d_tpf_constant_t *constants;  /* overrides of spec constants; others keep defaults */
    uint32_t constant_count;
} eg_d3d_tpf_in_t;

typedef struct eg_d3d_tpf_out {
    const uint8_t *bytes;      /* the DXBC container (checksum written), in the caller's arena */
    uint32_t size_B;
    uint8_t uses_sysvals;      /* reads the EG_D3D_TPF_SYSVALS constants */
} eg_d3d_tpf_out_t;

typedef struct eg_d3d_tpf_error {
    char message[EG_SPIRV_MESSAGE_MAX];      /* names the construct, instruction index and opcode */
} eg_d3d_tpf_error_t;

/** Emits `in` as a shader model 5.1 DXBC container into `arena`. False with err filled when the
 *  IR uses something the emitter does not lower (a bug to report, never a crash) or the arena is
 *  too small (the message names the arena's knob). */
bool eg_d3d_tpf_emit(const eg_d3d_tpf_in_t *in, eg_arena_t *arena, eg_d3d_tpf_out_t *out,
                     eg_d3d_tpf_error_t *err);

/** DXBC's container checksum (MD5's compression function with DXBC's own padding) over
 *  bytes[20..size_B); writes the 16 bytes at bytes[4..20). Exposed for tests. */
void eg_d3d_tpf_checksum(uint8_t *bytes, uint32_t size_B);

#endif /* EG_D3D_TPF_H */
