/* hal/d3d12 fault injection (EMGPU_D3D12_FAULT_INJECTION): make fallible D3D12 calls fail, for tests.
 *
 * Every fallible D3D12 call of the backend goes through EG_D3D_CALL(name, call) (d3d_internal.h),
 * which asks eg_d3d_fault_hit whether this call is the one to fail; if so the armed HRESULT comes
 * back without reaching D3D12. Tests walk every failure point of a workload: arm with nth = 0 to
 * count the fallible calls, then fail each in turn. Descriptor-slot allocation counts as a call
 * ("descriptor slot"), so running out of descriptors is walked too.
 */
#ifndef EG_D3D_FAULT_H
#define EG_D3D_FAULT_H

#include <stdbool.h>
#include <stdint.h>

/** Counts fallible calls from now on (those named `only`, or all when only is NULL) and makes
 *  the nth of them (1-based; 0: count only) return `result` (an HRESULT, e.g. E_OUTOFMEMORY =
 *  0x8007000E, DXGI_ERROR_DEVICE_REMOVED = 0x887A0005). With `sticky` every matching call from the
 *  nth on fails. */
void eg_d3d_fault_arm(uint32_t nth, int32_t result, const char *only, bool sticky);
void eg_d3d_fault_disarm(void);
/** Matching fallible calls seen since the last arm. */
uint32_t eg_d3d_fault_calls(void);
/** Name of the first call made to fail since the last arm, or NULL. */
const char *eg_d3d_fault_fired(void);
/** False when the build has no fault injection or no D3D12 backend. */
bool eg_d3d_fault_available(void);
/** Bytes placed in heaps over every open D3D12 device (leak checks). */
uint64_t eg_d3d_memory_used_all(void);
/** Descriptors in use in the shader-visible heaps over every open device (kind 0: CBV/SRV/UAV,
 *  1: samplers). */
uint64_t eg_d3d_gpu_descriptors_used_all(uint32_t kind);
/** True once the D3D12 debug layer was enabled (validation asked for and available). */
bool eg_d3d_debug_layer_on(void);
/** Debug-layer messages seen since load. */
uint32_t eg_d3d_validation_messages(void);

/** Failed submits replaced by their texture barriers (d3d_queue.c), since load: how many, and
 *  the tracker's barrier items they recorded (textures) and left out on purpose (buffers). */
typedef struct eg_d3d_replacement_stats {
    uint32_t replacements, texture_items, buffer_items_skipped;
} eg_d3d_replacement_stats_t;
void eg_d3d_replacement_stats(eg_d3d_replacement_stats_t *out);

#endif /* EG_D3D_FAULT_H */
